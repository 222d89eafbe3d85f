"""The /kernel_perceptron analysis: bound reports, the region, the budget sweep and the Fact, theory as the oracle."""

import numpy as np
import pytest

from olcore import StreamError, linear, streams
from olcore.lessons import kernel_perceptron as lesson
from olcore.linear.kernel_perceptron import MARGIN_MAX_ROUNDS, kernel_matrix


@pytest.mark.parametrize("source", lesson.SOURCES)
@pytest.mark.parametrize("kernel", [("rbf", 0.5, 2, 1.0), ("rbf", 5.0, 2, 1.0), ("poly", 1.0, 2, 1.0)])
def test_the_bound_report_holds_on_every_source(source, kernel):
    for seed in range(4):
        s = lesson.make_stream(source, 150, seed)
        a = lesson.analyse(s, *kernel)
        if not a.bound.applies:                                  # a polynomial kernel may not separate the rings
            assert a.bound.why_not and a.bound.value == np.inf and kernel[0] == "poly"
            continue
        assert a.M <= a.bound.value
        assert a.gamma_lo <= a.gamma_hi and a.gamma_lo >= (1 - 2 * lesson.MARGIN_TOL) * a.gamma_hi
        assert a.bound.numbers["R_K"] == a.R and a.bound.numbers["gamma_lo"] == a.gamma_lo
        assert f"M = {a.M}" in a.bound.latex and "Cesa-Bianchi" in a.bound.source
        ex = a.trace.extras                                      # the proof's squeeze at every round
        assert np.all(a.f_dot_u >= ex["M"] * a.gamma_lo - 1e-9)
        assert np.all(a.f_dot_u <= np.sqrt(np.maximum(ex["norm_sq"], 0)) + 1e-9)
        assert np.all(ex["norm_sq"] <= ex["M"] * a.R ** 2 + 1e-9)


def test_the_linear_kernel_on_xor_does_not_apply_and_says_why():
    a = lesson.analyse(lesson.make_stream("XOR", 200, 0), "linear")
    assert not a.bound.applies and "positive margin was found" in a.bound.why_not and a.bound.value == np.inf
    assert a.trace.n_mistakes == linear.perceptron(a.X, a.y).n_mistakes


def test_a_long_upload_is_run_but_its_margin_is_not_computed():
    s = lesson.make_stream("Rings", MARGIN_MAX_ROUNDS + 1, 0)
    a = lesson.analyse(s, "rbf", 2.0)
    assert not a.bound.applies and "T ≤" in a.bound.why_not and a.T == s.T


def test_the_region_is_the_decision_function_of_the_cache():
    s = lesson.make_stream("Moons", 120, 1)
    for budget in (None, 3):
        tr = linear.kernel_perceptron(s.X, s.y, gamma=2.0, budget=budget, seed=5)
        for t in (0, 17, 120):
            r = lesson.region(s, t, 1.2, budget, 5, "rbf", 2.0, 3, 1.0, n=9)
            rows = linear.supports_at(tr, t)
            np.testing.assert_array_equal(r.supports, rows)
            P = np.stack(np.meshgrid(r.xs, r.xs), -1).reshape(-1, 2)
            np.testing.assert_allclose(r.Z.ravel(), kernel_matrix(P, s.X[rows], "rbf", 2.0) @ s.y[rows]
                                       if len(rows) else 0.0, atol=1e-12)
            if t < 120 and len(rows):                           # f_t at x_(t+1) is the learner's score
                f = kernel_matrix(s.X[[t]], s.X[rows], "rbf", 2.0) @ s.y[rows]
                assert f[0] == pytest.approx(tr.extras["score"][t], abs=1e-12)
    with pytest.raises(StreamError):
        lesson.region(streams.adversary_budget(3, 10), 0, 1.0)


def test_the_region_of_a_run_already_made_is_the_region_and_the_page_draws_it():
    """region_of (what the page's chart and each frame of a play draw, from the analysis's runs) equals
    region (which runs the learner itself), for the kernel Perceptron and for the budget learner."""
    from olapp.figures import kernel_perceptron as figs

    s = lesson.make_stream("XOR", 90, 2)
    a = lesson.analyse(s, "poly", 1.0, 2, 1.0)
    b = lesson.budget_run(s, 4, 3, "poly", 1.0, 2, 1.0)
    for run, budget in ((None, None), (b, 4)):
        tr = a.trace if run is None else run.trace
        for t in (0, 1, 33, 90):
            want = lesson.region(s, t, a.lim, budget, 3, "poly", 1.0, 2, 1.0, n=11)
            got = lesson.region_of(a.X, a.y, tr, t, a.lim, *a.kernel, n=11)
            np.testing.assert_array_equal(got.supports, want.supports)
            np.testing.assert_allclose(got.Z, want.Z, atol=1e-12)
            heat = next(d for d in figs.region.build(a, t, run, n=11).data if d.type == "contour")
            np.testing.assert_allclose(np.asarray(heat.z, float), want.Z, rtol=1e-6, atol=1e-6)
    with pytest.raises(StreamError):
        lesson.region_of(np.zeros((5, 3)), np.ones(5), a.trace, 0, 1.0)


def test_the_budget_sweep_reaches_the_unbudgeted_learner():
    sw = lesson.budget_sweep("Rings", 300, (1, 3, 1000), (0, 1))
    assert sw.stationary.shape == (2, 3) and sw.drifting.shape == (2, 3)
    np.testing.assert_array_equal(sw.stationary[:, -1], sw.free_stationary)   # B = 1000 >= every mistake count
    np.testing.assert_array_equal(sw.drifting[:, -1], sw.free_drifting)
    assert np.all(sw.stationary[:, 0] >= sw.free_stationary)                # one support cannot do better here


def test_the_drifting_stream_flips_its_labels():
    a, b = lesson.make_stream("XOR", 90, 2), lesson.drifting("XOR", 90, 2, switches=2)
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(b.y, np.concatenate([a.y[:30], -a.y[30:60], a.y[60:]]))


@pytest.mark.parametrize("B", [1, 4, 9])
def test_the_fact_reports(B):
    f = lesson.fact(B, 20 * (B + 1), 3)
    assert f.budget.n_mistakes >= f.forced.value == 20
    assert np.all(np.cumsum(f.budget.mistakes) >= f.forced.curve)
    assert f.more.n_mistakes == B + 1 == f.novikoff.value
    assert f.budget.extras["cache_size"].max() == B and f.more.extras["cache_size"].max() == B + 1


def test_streams_are_seeded_and_checked():
    np.testing.assert_array_equal(lesson.make_stream("Rings", 50, 3).X, lesson.make_stream("Rings", 50, 3).X)
    assert not np.array_equal(lesson.make_stream("Rings", 50, 3).X, lesson.make_stream("Rings", 50, 4).X)
    for bad in (("Spiral", 10, 0), ("XOR", 0, 0), ("XOR", 10, -1)):
        with pytest.raises(StreamError):
            lesson.make_stream(*bad)


# ---- the lecture's answers ---------------------------------------------------------------------------------

def _xor_cycles(cycles: int):
    """(1, 1)+, (−1, −1)+, (1, −1)−, (−1, 1)−, repeated. With the linear kernel, by hand: f = 0 errs on (1, 1);
    f = (1, 1) scores −2 on (−1, −1)+; f = 0 errs on (1, −1); f = (−1, 1) scores 2 on (−1, 1)−; f = 0 again:
    every round is a mistake."""
    from olcore import streams

    X = np.tile([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]], (cycles, 1))
    y = np.tile([1, 1, -1, -1], cycles)
    return streams.from_arrays("linear", X, y)


def test_free_mistakes_band_counts_every_round_on_xor_with_the_linear_kernel():
    b = lesson.budget_run(_xor_cycles(3), 100, 0, "linear")
    assert b.free.n_mistakes == 12
    assert lesson.free_mistakes_band(b, (0, 5, 13)) == 1
    assert lesson.free_mistakes_band(b, (0, 5, 12)) == 2
    assert lesson.budget_mistakes_band(b, (0, 5, 12)) == 2            # B = 100 never fills: the same 12
    assert not lesson.evicts(b)


def test_evicts_on_the_facts_sequence_iff_the_cache_is_smaller_than_its_norm_squared():
    # The Fact's sequence cycles through B + 1 unit vectors: the kernel Perceptron errs once on each (score 0),
    # B + 1 mistakes in all, then u = Σ y_i e_i is learned. A cache of B + 1 never evicts; a cache of B does.
    B = 4
    s = streams.adversary_budget(B, 10 * (B + 1))
    roomy, tight = lesson.budget_run(s, B + 1, 0, "linear"), lesson.budget_run(s, B, 0, "linear")
    assert roomy.free.n_mistakes == B + 1 and roomy.trace.n_mistakes == B + 1
    assert not lesson.evicts(roomy)
    assert lesson.evicts(tight)
    assert tight.trace.n_mistakes >= 10                            # at least one per cycle of B + 1 rounds
    assert lesson.budget_mistakes_band(tight, (0, B + 2)) == 1


# ---- the words beside the run ---------------------------------------------------------------------

def _preset(name):
    from olapp.content import kernel_perceptron as content

    return next(p for p in content.PRESETS if p.name == name)


def test_the_rings_preset_says_what_its_margins_do_and_claims_no_monotonicity():
    # At the preset's stream (Rings, T = 200, seed 0) the certified margins over the widths offered rise up to
    # γ = 10 and fall at γ = 20 (γ_K 0.216 → 0.195, the bound 21.4 → 26.3): "a larger γ gives a larger margin
    # and a smaller bound" is false here, and the note must not say it.
    from olapp.content import kernel_perceptron as content

    p = _preset("Rings: a narrow kernel")
    assert p.values["stream"] == "Rings" and p.values["rbf_gamma"] == 10.0
    s = lesson.make_stream("Rings", p.values["T"], p.values["seed"])
    runs = {g: lesson.analyse(s, "rbf", g) for g in content.GAMMAS}
    assert all(a.R == pytest.approx(1.0) for a in runs.values())                # "R_K = 1 for every γ"
    best = runs[10.0]
    for g, a in runs.items():                                                 # the largest margin (certified)
        if g != 10.0:
            assert best.gamma_lo > a.gamma_hi and best.bound.value < a.bound.value, g
    assert runs[20.0].gamma_hi < best.gamma_lo and runs[20.0].bound.value > best.bound.value   # not monotone
    assert "not monotone" in p.note and "a larger margin γ_K and a smaller bound" not in p.note


def test_the_other_kernel_presets_notes_hold_at_their_values():
    xor = lesson.make_stream("XOR", 200, 0)
    a = lesson.analyse(xor, "rbf", 2.0)                         # "only a handful of mistakes, under (R_K/γ_K)²"
    assert a.M <= 10 and a.M <= a.bound.value
    assert "mistakes stop" not in _preset("XOR with the Gaussian kernel").note   # the last comes in round 149
    poly = _preset("XOR with a degree-2 polynomial kernel")
    assert "larger than the T = 200 rounds" in poly.note
    assert lesson.analyse(xor, "poly", 2.0, 2, 1.0).bound.value > 200
    tight = _preset("A tight budget: B = 3 on the moons").values    # "the mistakes keep coming"
    b = lesson.budget_run(lesson.make_stream("Moons", tight["T"], tight["seed"]), tight["B"], tight["seed"])
    assert b.trace.n_mistakes > 5 * b.free.n_mistakes and b.trace.mistakes[-tight["T"] // 10:].any()
    fact = _preset("The Fact with B = 5")
    f = lesson.fact(5, 30 * 6, 0)
    assert "at least one mistake in every 6 rounds" in fact.note and "a mistake in every 6" not in fact.note
    assert f.sparsest_window >= 1 and f.more.n_mistakes == 6


@pytest.mark.parametrize("B", [1, 3, 5, 10])
def test_the_facts_windows_are_counted_as_a_loop_counts_them(B):
    for seed in range(3):
        f = lesson.fact(B, 7 * (B + 1) + 2, seed)
        m = f.budget.mistakes
        windows = [int(m[i:i + B + 1].sum()) for i in range(len(m) - B)]
        assert f.sparsest_window == min(windows) >= 1 and f.last_window == windows[-1] >= 1


def test_the_facts_theorem_box_says_the_cache_fills_to_b_plus_1_and_never_evicts():
    for B in (1, 5, 12):
        f = lesson.fact(B, 10 * (B + 1), 0)
        size = f.more.extras["cache_size"]
        assert size.max() == B + 1 and not f.more.extras["evicted"].any()    # it fills, and never evicts
        said = f.novikoff.statement
        assert "never fills" not in said and "no mistake ever evicts" in said and "at most $B + 1$" in said


# ---- the download -----------------------------------------------------------------------

def _by_hand(X, y, kernel):
    """The kernel Perceptron as a plain loop: score f_t(x_t), supports before the round, and the final supports."""
    G = kernel_matrix(X, X, *kernel)
    score, size, L = np.zeros(len(y)), np.zeros(len(y), int), []
    for t in range(len(y)):
        score[t] = sum(y[s] * G[s, t] for s in L)
        size[t] = len(L)
        if y[t] * score[t] <= 0:
            L.append(t)
    return score, size, L


@pytest.mark.parametrize("kernel", [("rbf", 2.0, 2, 1.0), ("poly", 1.0, 2, 1.0), ("linear", 1.0, 3, 1.0)])
def test_the_download_holds_the_kernel_learners_own_columns(kernel):
    import io

    import pandas as pd

    from olcore import export

    s = lesson.make_stream("XOR", 120, 1)
    a = lesson.analyse(s, *kernel)
    df = pd.read_csv(io.StringIO(export.run_csv(lesson.download_trace(a), s, a.bound.as_curve(a.T)
                                                if a.bound.applies else None)))
    head = ["round", "x1", "x2", "label", "prediction", "loss", "cumulative_loss"] + \
        (["bound"] if a.bound.applies else []) + ["mistake", "score", "supports", "dual_coef"]
    linear_kernel = kernel[0] == "linear"
    assert list(df.columns) == head + (["w1", "w2"] if linear_kernel else [])   # w only where it is the learner's
    score, size, L = _by_hand(s.X, s.y, kernel)
    np.testing.assert_allclose(df["score"], score, rtol=1e-8, atol=1e-9)
    np.testing.assert_array_equal(df["prediction"], np.sign(df["score"]))
    np.testing.assert_array_equal(df["mistake"], (s.y * score <= 0).astype(int))
    np.testing.assert_array_equal(df["supports"], size)
    alpha = np.zeros(len(s.y))
    alpha[L] = s.y[L]
    np.testing.assert_array_equal(df["dual_coef"], alpha)
    if linear_kernel:                                # f_t(x) = w_t·x: the w columns are the learner's weights
        np.testing.assert_allclose((df[["w1", "w2"]].to_numpy() * s.X).sum(1), score, rtol=1e-8, atol=1e-9)
