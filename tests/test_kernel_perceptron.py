"""The kernel Perceptron, the Randomized Budget Perceptron, the certified RKHS margin and the Fact's sequence.

Theory is the oracle: Novikoff's bound in the RKHS holds on thousands of seeded kernel-separable streams,
the cache never exceeds B, a budget at least the unbudgeted mistake count changes nothing, the Fact's
sequence forces a mistake in every B + 1 rounds, and the linear kernel is the Perceptron.  (Fast path
against the reference class: tests/test_contract.py, specs "kernel_perceptron" and "budget_perceptron".)
"""

from __future__ import annotations

import numpy as np
import pytest

from olcore import StreamError, bounds, linear, streams
from olcore.comparators import max_margin_direction
from olcore.lessons import kernel_perceptron as lesson
from olcore.linear.kernel_perceptron import kernel_matrix


def _kernel(rng):
    kernel = str(rng.choice(["rbf", "rbf", "poly"]))
    return {"kernel": kernel, "gamma": float(np.exp(rng.uniform(-1, 2.5))), "degree": int(rng.integers(2, 5)),
            "coef0": float(rng.uniform(0.5, 2))}


def _stream(rng):
    """A 2-D stream of the lesson's sources or a random cloud (distinct points: separable under the rbf kernel)."""
    T = int(rng.integers(5, 60))
    if rng.random() < 0.5:
        s = lesson.make_stream(str(rng.choice(lesson.SOURCES)), T, int(rng.integers(0, 2**31)))
        return s.X, s.y.astype(float)
    d = int(rng.integers(1, 5))
    X = rng.standard_normal((T, d)) * rng.uniform(0.3, 2)
    return X, rng.choice([-1.0, 1.0], T)


def test_novikoff_in_the_rkhs_holds_on_thousands_of_separable_streams():
    checked = 0
    for seed in range(2500):
        rng = np.random.default_rng(seed)
        X, y = _stream(rng)
        kw = _kernel(rng)
        m = linear.rkhs_margin(X, y, **kw, tol=1e-3)
        if not m.separable:
            continue
        reps = int(rng.integers(1, 4))                     # cycling the stream keeps R_K and gamma_K
        tr = linear.kernel_perceptron(np.tile(X, (reps, 1)), np.tile(y, reps), **kw)
        assert tr.n_mistakes <= bounds.perceptron(m.R, m.gamma_lo) * (1 + 1e-9), (seed, kw)
        checked += 1
    assert checked > 2000


def test_the_margin_certificate_brackets_gamma_and_matches_the_linear_max_margin():
    for seed in range(60):
        rng = np.random.default_rng(seed)
        s = streams.separable(T=int(rng.integers(5, 80)), d=int(rng.integers(1, 5)), gamma=float(rng.uniform(0.05, 0.4)),
                              seed=seed)
        m = linear.rkhs_margin(s.X, s.y, kernel="linear", tol=1e-6)
        _, g = max_margin_direction(s.X, s.y, tol=1e-9)
        assert m.gamma_lo <= g * (1 + 1e-9) and g <= m.gamma_hi * (1 + 1e-9)
        assert m.gamma_lo >= (1 - 1e-6) * m.gamma_hi - 1e-12
        assert m.gamma_lo >= s.info["gamma"] * (1 - 1e-6)  # no worse than the generator's separator


def test_the_certificate_is_an_explicit_separator():
    s = lesson.make_stream("Moons", 150, 3)
    m = linear.rkhs_margin(s.X, s.y, kernel="rbf", gamma=3.0)
    K = kernel_matrix(s.X, s.X, "rbf", 3.0)
    z = m.lam * s.y                                      # f = sum_t z_t K(x_t, .)
    norm = np.sqrt(z @ K @ z)
    margins = s.y * (K @ z) / norm
    np.testing.assert_allclose(margins, m.margins, rtol=1e-9, atol=1e-12)
    assert margins.min() == pytest.approx(m.gamma_lo, rel=1e-9)
    assert norm == pytest.approx(m.gamma_hi, rel=1e-9) and m.gamma_lo <= m.gamma_hi
    assert m.gap <= 1e-3 and m.converged


def test_a_stream_no_kernel_separates_is_reported_not_separable():
    X = np.array([[0.3, 0.1], [0.3, 0.1], [0.5, -0.2]])
    m = linear.rkhs_margin(X, [1, -1, 1], kernel="rbf")   # one point with both labels
    assert not m.separable and m.gamma_hi < 1e-6
    s = lesson.make_stream("XOR", 100, 0)
    assert not linear.rkhs_margin(s.X, s.y, kernel="linear").separable


def test_the_cache_never_exceeds_the_budget():
    for seed in range(300):
        rng = np.random.default_rng(seed)
        X, y = _stream(rng)
        B = int(rng.integers(1, 10))
        tr = linear.kernel_perceptron(X, y, **_kernel(rng), budget=B, seed=seed)
        size = tr.extras["cache_size"]
        assert size.max() <= B
        assert np.all(size == np.minimum(tr.extras["M"], B))        # it fills on mistakes, then stays at B
        assert tr.extras["evicted"].sum() == max(0, tr.n_mistakes - B)
        for t in range(0, tr.T + 1, 7):
            assert len(linear.supports_at(tr, t)) == size[t]


def test_a_budget_at_least_the_unbudgeted_mistakes_changes_nothing():
    for seed in range(200):
        rng = np.random.default_rng(seed)
        X, y = _stream(rng)
        kw = _kernel(rng)
        free = linear.kernel_perceptron(X, y, **kw)
        B = free.n_mistakes + int(rng.integers(0, 3))
        if B == 0:
            continue
        tr = linear.kernel_perceptron(X, y, **kw, budget=B, seed=seed)
        np.testing.assert_array_equal(tr.mistakes, free.mistakes)
        np.testing.assert_array_equal(tr.extras["score"], free.extras["score"])
        assert not tr.extras["evicted"].any()


@pytest.mark.parametrize("B", [1, 2, 3, 5, 8, 13, 20])
def test_the_facts_sequence_forces_a_mistake_every_b_plus_one_rounds(B):
    for seed in range(10):
        for labels in (None, seed):
            s = streams.adversary_budget(B, 12 * (B + 1) + 3, seed=labels)
            u = s.info["u"]
            assert np.all(s.y * (s.X @ u) == 1) and np.linalg.norm(u) == pytest.approx(np.sqrt(B + 1))
            tr = linear.kernel_perceptron(s.X, s.y, kernel="linear", budget=B, seed=seed)
            windows = np.lib.stride_tricks.sliding_window_view(tr.mistakes, B + 1).sum(axis=1)
            assert windows.min() >= 1, (B, seed)
            assert np.all(np.cumsum(tr.mistakes) >= bounds.budget_forced_mistakes(B, np.arange(1, s.T + 1)))
            more = linear.kernel_perceptron(s.X, s.y, kernel="linear", budget=B + 1, seed=seed)
            assert more.n_mistakes == B + 1 and not more.mistakes[B + 1:].any()


def test_the_linear_kernel_reproduces_the_perceptron():
    for seed in range(200):
        rng = np.random.default_rng(seed)
        s = streams.separable(T=int(rng.integers(1, 300)), d=int(rng.integers(1, 6)), gamma=float(rng.uniform(0.01, 0.3)),
                              noise=float(rng.choice([0.0, 0.2])), seed=seed)
        a = linear.kernel_perceptron(s.X, s.y, kernel="linear")
        b = linear.perceptron(s.X, s.y)
        np.testing.assert_array_equal(a.mistakes, b.mistakes)
        np.testing.assert_array_equal(a.predictions, b.predictions)
        np.testing.assert_allclose(a.weights, b.weights, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(a.extras["norm_sq"], b.extras["norm_sq"], rtol=1e-9, atol=1e-12)


def test_the_norm_in_the_rkhs_is_tracked_through_evictions():
    for seed in range(40):
        rng = np.random.default_rng(seed)
        X, y = _stream(rng)
        kw = _kernel(rng)
        B = None if seed % 2 else int(rng.integers(1, 6))
        tr = linear.kernel_perceptron(X, y, **kw, budget=B, seed=seed)
        K = kernel_matrix(X, X, **kw)
        for t in range(tr.T + 1):
            rows = linear.supports_at(tr, t)
            direct = y[rows] @ K[np.ix_(rows, rows)] @ y[rows]
            assert tr.extras["norm_sq"][t] == pytest.approx(direct, rel=1e-8, abs=1e-9 * max(1, K.max()) * (1 + len(rows)))
        if B is None:                                     # the proof: ||f_t||^2 <= M_t R_K^2
            assert np.all(tr.extras["norm_sq"] <= tr.extras["M"] * tr.extras["R2"][0] * (1 + 1e-9) + 1e-12)


def test_scores_are_the_cache_sums():
    rng = np.random.default_rng(7)
    X, y = rng.standard_normal((300, 2)), rng.choice([-1.0, 1.0], 300)
    tr = linear.kernel_perceptron(X, y, kernel="rbf", gamma=2.0, budget=10, seed=1)
    K = kernel_matrix(X, X, "rbf", 2.0)
    for t in range(tr.T):
        rows = linear.supports_at(tr, t)
        assert tr.extras["score"][t] == pytest.approx(y[rows] @ K[rows, t], rel=1e-9, abs=1e-12)


def test_the_eviction_draws_come_from_the_seed():
    s = lesson.make_stream("XOR", 400, 0)
    runs = [linear.kernel_perceptron(s.X, s.y, budget=5, seed=k) for k in range(5)]
    assert len({tuple(r.mistakes) for r in runs}) > 1
    again = linear.kernel_perceptron(s.X, s.y, budget=5, seed=3)
    np.testing.assert_array_equal(again.mistakes, runs[3].mistakes)


def test_bad_settings_raise_stream_errors():
    X, y = np.eye(2), np.array([1, -1])
    for bad in ({"kernel": "tanh"}, {"gamma": 0}, {"degree": 0}, {"coef0": -0.5}, {"budget": 0}, {"seed": -1}):
        with pytest.raises(StreamError):
            linear.kernel_perceptron(X, y, **bad)
    with pytest.raises(StreamError):
        streams.adversary_budget(0, 10)
    with pytest.raises(StreamError):
        linear.rkhs_margin(np.zeros((3001, 1)), np.ones(3001))
    with pytest.raises(StreamError):
        bounds.budget_forced_mistakes(0, 3)


def test_forced_mistakes_broadcast():
    assert bounds.budget_forced_mistakes(4, 12) == 2.0
    np.testing.assert_array_equal(bounds.budget_forced_mistakes(2, np.arange(7)), [0, 0, 0, 1, 1, 1, 2])


def test_the_forced_mistakes_docstring_states_its_assumption_once():
    doc = bounds.budget_forced_mistakes.__doc__
    assert "changes its cache only on mistakes" in doc and "No assumption on the learner's rule" not in doc
