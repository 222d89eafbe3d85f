"""The online SVM lesson's analyses: every drawn bound holds on seeded random and adversarial streams,
the reports carry their numbers, and a bound that does not apply says why."""

from __future__ import annotations

import math

import numpy as np
import pytest

from olcore import StreamError, bounds, linear, streams
from olcore.lessons import online_svm as lesson


@pytest.mark.parametrize("seed", range(40))
def test_alma_analysis_bounds_hold(seed):
    rng = np.random.default_rng(seed)
    s = lesson.separable_stream(int(rng.integers(10, 120)), float(rng.uniform(0.03, 0.4)), seed)
    a = lesson.analyse_alma(s, float(rng.choice([0.2, 0.5, 0.9, 1.0])), 100)
    assert a.separable and a.updates.applies
    assert a.n_updates <= a.updates.value
    assert a.updates.numbers["gamma"] == a.gamma
    if a.converged_pass is not None:
        assert a.final_margin.applies and a.final >= a.final_margin.value - 1e-12
        assert a.trace.extras["updated"][(a.converged_pass - 1) * a.pass_length:].sum() == 0
    else:
        assert not a.final_margin.applies and "pass" in a.final_margin.why_not
    # the margin curve is the margin of the weights in force before each round
    t = int(rng.integers(0, a.T + 1))
    w = a.trace.weights_at(t)
    if np.linalg.norm(w) > 0:
        assert a.margin[t] == pytest.approx((a.y * (a.Xh @ w)).min() / np.linalg.norm(w))
    st = lesson.alma_at(a, t)
    assert st["updates"] == int(a.trace.extras["updated"][:t].sum())
    assert st["threshold"] == pytest.approx((1 - a.alpha) / a.alpha / math.sqrt(st["updates"] + 1))


def test_alma_analysis_on_an_adversarial_order_and_a_non_separable_stream():
    s = streams.separable(T=80, d=2, gamma=0.05, seed=4)
    order = np.argsort(s.y * (s.X @ s.info["v"]))            # hardest points first
    adv = streams.from_arrays("linear", s.X[order], s.y[order])
    a = lesson.analyse_alma(adv, 0.5, 2000)
    assert a.n_updates <= a.updates.value and a.converged_pass is not None and a.final >= a.final_margin.value
    bad = streams.from_arrays("linear", np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]]), [1, -1, 1])
    b = lesson.analyse_alma(bad, 0.5, 3)
    assert not b.separable and not b.updates.applies and not b.final_margin.applies
    assert "separates" in b.updates.why_not
    with pytest.raises(StreamError):
        lesson.analyse_alma(streams.from_arrays("linear", np.array([[0.0, 0.0], [1.0, 0.0]]), [1, 1]), 0.5, 1)


@pytest.mark.parametrize("seed", range(12))
def test_second_order_analysis_bounds_hold(seed):
    rng = np.random.default_rng(seed)
    d = int(rng.choice([2, 5, 20, 50]))
    s = lesson.correlated_stream(int(rng.integers(20, 400)), d, float(rng.uniform(0, 0.95)), 0.15, seed)
    b = lesson.analyse_second_order(s, float(rng.choice([0.1, 1.0, 10.0])))
    assert b.separable
    cum = np.cumsum(b.sop.mistakes)
    assert np.all(cum <= b.sop_bound.curve + 1e-9)            # the curve bounds every prefix
    assert cum[-1] <= b.sop_bound.value + 1e-9 and b.sop_bound.value == pytest.approx(b.sop_bound.curve[-1])
    v, g = bounds.svm_direction(b.X, b.y, tol=lesson._SVM_TOL, max_iter=lesson._SVM_ITER)
    assert b.sop_bound.value == pytest.approx(bounds.second_order_perceptron(b.X[b.sop.mistakes], v / g, a=b.a))
    assert b.perceptron.mistakes.sum() <= b.novikoff.value
    assert b.U == pytest.approx(b.R / b.gamma)
    assert b.table[0]["value"] == pytest.approx(b.U ** 2) and b.table[0]["measured"] == b.perceptron.mistakes.sum()
    assert b.table[2]["measured"] == b.sop.mistakes.sum()
    np.testing.assert_allclose(b.A, b.a * np.eye(d) + b.X[b.sop.mistakes].T @ b.X[b.sop.mistakes])


def test_correlated_stream_is_separable_with_the_stated_margin():
    s = lesson.correlated_stream(300, 20, 0.9, 0.2, 1)
    u = s.info["u"]
    assert np.linalg.norm(u) == pytest.approx(1) and abs(u.sum()) < 1e-9     # orthogonal to the shared factor
    assert np.all(s.y * (s.X @ u) > 0) and np.linalg.norm(s.X, axis=1).max() == pytest.approx(1)
    with pytest.raises(StreamError):
        lesson.correlated_stream(10, 2, 1.0, 0.1, 0)


def test_second_order_analysis_of_a_non_separable_stream_says_why():
    s = streams.separable(T=100, d=3, gamma=0.05, noise=0.3, seed=2)
    b = lesson.analyse_second_order(s, 1.0)
    assert not b.separable and not b.sop_bound.applies and "separates" in b.sop_bound.why_not and b.table == []


def test_selective_analysis_and_its_sweep():
    s = lesson.correlated_stream(300, 5, 0.9, 0.15, 0)
    r = lesson.analyse_selective(s, 0.3, 1.0)
    np.testing.assert_array_equal(r.trace.mistakes, linear.selective_sampling(s.X, s.y, c=0.3).mistakes)
    np.testing.assert_array_equal(r.full.mistakes, linear.second_order_perceptron(s.X, s.y).mistakes)
    assert r.sweep_labels[-1] == r.T and r.sweep_mistakes[-1] == r.full.mistakes.sum()     # c = inf
    assert np.all(np.diff(r.sweep_labels) >= 0)                                            # more c, more labels
    assert r.labels[-1] == r.trace.extras["queried"].sum()


# ---- the lecture's answers ---------------------------------------------------------------------------------

def _two_points():
    """x = (1, 0) and (0, 1), both labelled +1. ALMA with α = 1 (target 0) by hand: round 1, w = 0 has margin
    0 ≤ 0, so w ← Π(0 + √2/√1 · e₁) = e₁; round 2, e₁·e₂ = 0 ≤ 0, so w ← Π(e₁ + √2/√2 · e₂) = (1, 1)/√2.
    Pass 2: both margins are 1/√2 > 0, no update. The SVM direction is (1, 1)/√2 with γ⋆ = 1/√2, and ALMA's
    final hyperplane is exactly it: margin share 1."""
    return streams.from_arrays("linear", np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1, 1]))


def test_clean_pass_and_margin_share_by_hand():
    a = lesson.analyse_alma(_two_points(), alpha=1.0, epochs=3)
    assert a.n_updates == 2 and a.converged_pass == 2
    assert lesson.clean_pass_band(a, (1, 2, 3)) == 1
    assert lesson.clean_pass_band(a, (1, 6, 21)) == 0
    assert lesson.margin_share(a) == pytest.approx(1.0, abs=1e-6)
    assert lesson.margin_share_band(a, (0.0, 0.7, 0.85)) == 2


def test_no_clean_pass_is_the_last_option():
    a = lesson.analyse_alma(_two_points(), alpha=1.0, epochs=1)      # one pass, and it updates twice
    assert a.converged_pass is None
    assert lesson.clean_pass_band(a, (1, 6, 21)) == 3


def test_margin_share_meets_the_guarantee_once_a_pass_is_clean():
    for seed in range(3):
        a = lesson.analyse_alma(lesson.separable_stream(40, 0.2, seed), alpha=0.5, epochs=200)
        assert a.converged_pass is not None
        assert lesson.margin_share(a) >= 0.5 - 1e-9
        assert lesson.margin_share_band(a, (0.0, 0.5, 0.75)) >= 1


# ---- the words beside the run ---------------------------------------------------------------------

@pytest.mark.parametrize("alpha", [0.3, 0.5, 0.9, 1.0])
def test_the_points_that_would_update_are_those_the_reference_alma_updates_on(alpha):
    import copy

    for seed in range(3):
        s = lesson.separable_stream(40, 0.1, seed)
        a = lesson.analyse_alma(s, alpha, 5)
        for t in (0, 1, 2, 7, 41, a.T):
            m = linear.ALMA(2, alpha=alpha)
            for r in range(t):
                m.update(s.X[r % s.T], s.y[r % s.T])
            ref = np.array([((c := copy.deepcopy(m)).update(x, yy), c.updated)[1] for x, yy in zip(s.X, s.y)])
            st = lesson.alma_at(a, t)
            np.testing.assert_array_equal(st["would_update"], ref)
            assert np.all(st["would_update"][st["in_band"]])               # the band's points all update ...
            beyond = st["would_update"] & ~st["in_band"]                   # ... and the others are misclassified
            assert np.all(s.y[beyond] * (a.Xh[beyond] @ st["w"]) < 0)


def test_at_alpha_1_the_band_is_empty_yet_misclassified_points_update():
    # "the blue band is where a point would trigger an update" is false at α = 1.
    a = lesson.analyse_alma(lesson.separable_stream(60, 0.15, 0), 1.0, 50)
    st = lesson.alma_at(a, 1)
    assert st["threshold"] == 0 and st["in_band"].sum() == 0 and st["would_update"].sum() == 8
    from olapp.content import online_svm as words

    said = str(words.alma_plane(a, 1))
    assert "8 of the 60 points would" in said and "no band" in said
    assert "the blue band is where a point would trigger an update" not in said


@pytest.mark.parametrize("seed", range(10))
def test_hildreths_row_is_an_exact_bound_and_holds(seed):
    # Cesa-Bianchi's notes ("Analysis for linearly separable streams"): Σ_t m_t² ≤ ‖u‖² max_t ‖x_t‖² for
    # Hildreth's update, so its U² is a bound like the Perceptron's, not an order.
    rng = np.random.default_rng(seed)
    s = lesson.correlated_stream(int(rng.integers(20, 300)), int(rng.choice([2, 5, 20])),
                                 float(rng.uniform(0, 0.95)), float(rng.uniform(0.02, 0.3)), seed)
    b = lesson.analyse_second_order(s, 1.0)
    rows = {r["algorithm"]: r for r in b.table}
    h = rows["Hildreth"]
    assert h["exact"] and rows["Perceptron"]["exact"]
    assert h["value"] == pytest.approx(b.U ** 2)
    assert h["measured"] == linear.passive_aggressive(s.X, s.y, variant="PA").mistakes.sum() <= h["value"]
    assert not any(r["exact"] for name, r in rows.items() if name not in ("Perceptron", "Hildreth"))
    from olapp.content import online_svm as words

    said = str(words.table_caption(b))
    assert "Only the Perceptron's U²" not in said and "Hildreth's U²" in said
    assert "| Hildreth | U² | O(" not in words.table(b)


def test_the_alma_presets_and_scenes_say_what_their_runs_do():
    from olapp.content import online_svm as words

    s = lesson.separable_stream(60, 0.15, 0)
    one = next(p for p in words.PRESETS if p.values.get("alpha") == 1.0)
    assert "normalised Perceptron" not in one.name and "normalised Perceptron" not in one.note
    scene = words.LECTURE[4]                                                # scene 5 keeps its number
    assert scene.values["alpha"] == 1.0 and "normalised Perceptron" not in scene.title + scene.narration
    a1 = lesson.analyse_alma(s, 1.0, scene.values["epochs"])
    # "it makes more updates than the Perceptron makes mistakes", "a separating line, but a thin one"
    assert a1.n_updates > a1.perceptron.mistakes.sum() and 0 < a1.final < 0.1 * a1.gamma
    close = next(p for p in words.PRESETS if p.values.get("alpha") == 0.3)
    a3 = lesson.analyse_alma(s, 0.3, close.values["epochs"])
    a5 = lesson.analyse_alma(s, 0.5, close.values["epochs"])                # "more updates and more passes"
    assert a3.n_updates > a5.n_updates and a3.converged_pass > a5.converged_pass


def test_the_help_texts_claim_no_monotonicity_that_some_stream_breaks():
    from olapp.content import online_svm as words

    # a smaller c with fewer mistakes: c = 0.3 errs 7 times, c = 1 ten times (d = 2, seed 2)
    sel = lesson.analyse_selective(lesson.correlated_stream(200, 2, 0.9, 0.15, 2), 0.3, 1.0)
    assert sel.sweep_mistakes[3] < sel.sweep_mistakes[4]
    assert "Smaller c: fewer labels, more mistakes" not in words.HELP.c
    # a smaller α with fewer updates: α = 0.5 updates 40 times, α = 0.7 44 times (seed 2)
    s = lesson.separable_stream(60, 0.15, 2)
    assert lesson.analyse_alma(s, 0.5, 100).n_updates < lesson.analyse_alma(s, 0.7, 100).n_updates
    assert "takes more updates" not in words.HELP.alpha


def test_not_separable_is_said_only_with_a_certificate():
    """The same point with both labels certifies that no hyperplane through the origin separates the
    stream (the origin is in the hull of the y_t x_t); the verdict names its certificate."""
    from olcore.stream import from_arrays

    s = from_arrays("linear", [[1.0, 0.2], [0.5, 1.0], [1.0, 0.2], [-0.3, 0.8]], [1, 1, -1, 1])
    for report in (lesson.analyse_second_order(s).novikoff, lesson.analyse_alma(s).updates):
        assert not report.applies and "certified" in report.why_not, report.why_not
    sep = lesson.analyse_second_order(streams.separable(T=40, d=2, gamma=0.2, R=1.0, seed=1))
    assert sep.separable and sep.novikoff.applies
