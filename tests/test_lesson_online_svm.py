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
