"""Perceptron: fast path == reference class; Novikoff and the non-separable bound as oracles."""

import numpy as np
import pytest

from olcore import StreamError, bounds, linear, streams
from olcore.linear import Perceptron


def test_ties_occur_in_the_integer_suite():
    rng = np.random.default_rng(1000)
    X = rng.integers(-2, 3, size=(60, 2)).astype(float)
    y = rng.choice([-1, 1], size=60)
    assert (linear.perceptron(X, y).extras["score"] == 0).sum() > 1


def test_first_round_is_a_tie_and_a_mistake():
    tr = linear.perceptron([[1.0, 2.0], [1.0, 2.0]], [1, 1])
    assert tr.mistakes.tolist() == [True, False]
    assert tr.predictions.tolist() == [0, 1]
    np.testing.assert_array_equal(tr.weights_at(2), [1.0, 2.0])


def _many_separable(n, seed0=0):
    rng = np.random.default_rng(seed0)
    for i in range(n):
        d = int(rng.integers(2, 6))
        gamma = float(rng.uniform(0.05, 0.6))
        R = float(rng.uniform(0.5, 3.0))
        yield streams.separable(T=int(rng.integers(20, 150)), d=d, gamma=min(gamma * R, R), R=R,
                                seed=seed0 * 100_000 + i)


def test_novikoff_on_thousands_of_separable_streams():
    worst = 0.0
    for s in _many_separable(2000):
        R = bounds.radius(s.X)
        gamma = bounds.margin(s.X, s.y, s.info["v"])
        assert gamma > 0
        M = linear.perceptron(s.X, s.y).n_mistakes
        bound = bounds.perceptron(R, gamma)
        assert M <= bound
        worst = max(worst, M / bound)
    assert worst > 0.05   # the suite exercises the bound, not only trivial streams


def test_novikoff_with_epochs_until_convergence():
    for s in _many_separable(300, seed0=7):
        R, gamma = bounds.radius(s.X), bounds.margin(s.X, s.y, s.info["v"])
        bound = bounds.perceptron(R, gamma)
        if bound > 400:
            continue
        E = int(bound) + 2     # each pass with an update costs >= 1 mistake: converged by then
        tr = linear.perceptron(s.X, s.y, epochs=E)
        assert tr.n_mistakes <= bound
        T = s.T
        assert not tr.mistakes[-T:].any()                     # the last pass is clean
        w = tr.weights_at(tr.T)
        assert np.all(s.y * (s.X @ w) > 0)                     # and the final w separates


def test_orthonormal_stream_attains_the_bound():
    # x_t = e_t, y_t = +1: v = (1..1)/sqrt(n) has margin 1/sqrt(n), R = 1, bound n.
    n = 12
    X, y = np.eye(n), np.ones(n)
    M = linear.perceptron(X, y).n_mistakes
    assert M == n == pytest.approx(bounds.perceptron(1.0, bounds.margin(X, y, np.ones(n))))


@pytest.mark.parametrize("seed", range(30))
def test_novikoff_against_an_adaptive_adversary(seed):
    # The adversary sees the learner's weights and shows the pool point it handles worst.
    pool = streams.separable(T=400, d=3, gamma=0.15, seed=seed)
    v = pool.info["v"]
    p = Perceptron(3)
    X, y = [], []
    for _ in range(300):
        j = int(np.argmin(pool.y * (pool.X @ p.w)))
        X.append(pool.X[j]); y.append(pool.y[j])
        p.update(pool.X[j], pool.y[j])
    X, y = np.array(X), np.array(y)
    tr = linear.perceptron(X, y)
    assert tr.n_mistakes == p.M
    assert p.M <= bounds.perceptron(bounds.radius(X), bounds.margin(X, y, v))


@pytest.mark.parametrize("seed", range(40))
def test_proof_quantities_obey_their_bounds(seed):
    s = streams.separable(T=300, d=3, gamma=0.1, seed=seed)
    tr = linear.perceptron(s.X, s.y, epochs=3, v=s.info["v"])
    e = tr.extras
    assert e["M"][-1] == tr.n_mistakes
    assert np.all(e["norm_sq"] <= e["norm_sq_upper"] + 1e-9)
    assert np.all(e["w_dot_v"] >= e["w_dot_v_lower"] - 1e-9)
    assert np.all(e["w_dot_v"] <= np.sqrt(e["norm_sq"]) + 1e-9)         # Cauchy-Schwarz
    np.testing.assert_allclose(e["norm_sq"], (tr.weights ** 2).sum(axis=1))


@pytest.mark.parametrize("seed", range(60))
def test_nonseparable_bound_for_several_u(seed):
    rng = np.random.default_rng(seed)
    s = streams.separable(T=int(rng.integers(50, 400)), d=int(rng.integers(2, 5)),
                          gamma=float(rng.uniform(0.05, 0.3)), noise=float(rng.uniform(0.05, 0.4)), seed=seed)
    E = int(rng.integers(1, 4))
    M = linear.perceptron(s.X, s.y, epochs=E).n_mistakes
    R = bounds.radius(s.X)
    # The cycled stream is one stream of E*T rounds: u's hinge loss is E times one pass's.
    us = [c * s.info["v"] for c in (0.0, 0.5, 1.0, 3.0, 10.0, 1 / s.info["gamma"])]
    us.append(rng.standard_normal(s.k))
    for u in us:
        L = E * bounds.hinge_loss(s.X, s.y, u)
        assert M <= bounds.perceptron_nonseparable(L, np.linalg.norm(u), R) + 1e-9


@pytest.mark.parametrize("seed", range(40))
def test_nonseparable_bound_single_pass(seed):
    s = streams.separable(T=300, d=2, gamma=0.1, noise=0.2, seed=seed)
    M = linear.perceptron(s.X, s.y).n_mistakes
    best = bounds.best_u_nonseparable(s.X, s.y, directions=[s.info["v"]])
    assert M <= best["bound"]
    # the bound really is the formula at the returned u
    assert best["loss_u"] == pytest.approx(bounds.hinge_loss(s.X, s.y, best["u"]))
    assert best["norm_u"] == pytest.approx(np.linalg.norm(best["u"]))


def test_fast_path_is_compact_on_a_long_stream():
    """No wall clock (benchmarks/ times it): a 10^5-round run stores one weight row per mistake,
    and agrees with the reference class on its rounds."""
    s = streams.separable(T=100_000, d=2, gamma=0.05, seed=3)
    tr = linear.perceptron(s.X, s.y)
    assert tr.T == 100_000
    assert tr.weight_table.shape == (tr.n_mistakes + 1, 2)
    assert tr.n_mistakes <= bounds.perceptron(bounds.radius(s.X), bounds.margin(s.X, s.y, s.info["v"]))
    p = Perceptron(2)
    mistakes = [p.update(x, yt) for x, yt in zip(s.X, s.y)]
    np.testing.assert_array_equal(tr.mistakes, mistakes)
    np.testing.assert_array_equal(tr.weights_at(tr.T), p.w)


def test_bad_input_raises_stream_error():
    with pytest.raises(StreamError, match="y"):
        linear.perceptron([[1.0], [2.0]], [1, 0])
    with pytest.raises(StreamError, match="X"):
        linear.perceptron([[1.0], [np.nan]], [1, -1])
    with pytest.raises(StreamError, match="epochs"):
        linear.perceptron([[1.0]], [1], epochs=0)
    with pytest.raises(StreamError, match="epochs"):
        linear.perceptron(np.ones((100_000, 1)), np.ones(100_000), epochs=1000)
    with pytest.raises(StreamError, match="y"):
        Perceptron(1).update([1.0], 2)
