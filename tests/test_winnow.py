"""Winnow: fast path == reference class; the mistake bound and the potential as oracles."""

import numpy as np
import pytest

from olcore import StreamError, bounds, linear, streams
from olcore.linear import Winnow


def test_exact_tie_predicts_zero():
    # score == theta exactly: the notes' strict ">" predicts 0
    tr = linear.winnow([[1, 1, 0, 0]], [1], theta=2.0)
    assert tr.predictions.tolist() == [0] and tr.mistakes.tolist() == [True]
    np.testing.assert_array_equal(tr.weights_at(1), [2, 2, 1, 1])
    wn = Winnow(4, theta=2.0)
    assert wn.predict([1, 1, 0, 0]) == 0


def test_promotion_and_demotion_by_hand():
    # N = 3, theta = 3. Round 1: x=(1,1,1) score 3, not > 3 -> predict 0, y=1: promote all -> 2,2,2.
    # Round 2: x=(1,1,0) score 4 > 3 -> predict 1, y=0: demote x1, x2 -> 1,1,2.
    tr = linear.winnow([[1, 1, 1], [1, 1, 0]], [1, 0])
    np.testing.assert_array_equal(tr.weights, [[1, 1, 1], [2, 2, 2], [1, 1, 2]])
    assert tr.extras["m_plus"].tolist() == [0, 1, 1] and tr.extras["m_minus"].tolist() == [0, 0, 1]


def test_bound_on_random_disjunctions():
    rng = np.random.default_rng(0)
    worst = 0.0
    for i in range(1500):
        N = int(np.exp(rng.uniform(0, np.log(600))))
        k = int(rng.integers(1, min(N, 8) + 1))
        s = streams.disjunction(T=int(rng.integers(10, 300)), N=N, k=k, seed=i,
                                p=None if i % 2 else float(rng.uniform(0.02, 0.5)))
        m = linear.winnow(s.X, s.y, epochs=int(rng.integers(1, 3))).n_mistakes
        b = bounds.winnow(k, N)
        assert m < b
        worst = max(worst, m / b)
    assert worst > 0.2


@pytest.mark.parametrize("seed", range(20))
def test_bound_against_an_adaptive_adversary(seed):
    # From a pool of disjunction-labelled examples, always show one the learner gets wrong.
    rng = np.random.default_rng(seed)
    N, k = int(rng.integers(4, 200)), int(rng.integers(1, 4))
    pool = streams.disjunction(T=600, N=N, k=k, seed=seed, p=float(rng.uniform(0.01, 0.3)))
    wn = Winnow(N)
    X, y = [], []
    for _ in range(300):
        pred = (pool.X @ wn.w > N).astype(int)
        wrong = np.flatnonzero(pred != pool.y)
        j = int(wrong[0]) if wrong.size else 0
        X.append(pool.X[j]); y.append(pool.y[j])
        wn.update(pool.X[j], pool.y[j])
    tr = linear.winnow(np.array(X), np.array(y))
    assert tr.n_mistakes < bounds.winnow(k, N)
    assert tr.n_mistakes >= 1


@pytest.mark.parametrize("alpha,theta_factor", [(1.5, 1.0), (3.0, 1.0), (2.0, 0.5), (2.0, 2.0), (4.0, 0.25)])
def test_general_bound_and_potential(alpha, theta_factor):
    rng = np.random.default_rng(int(alpha * 10 + theta_factor * 100))
    for i in range(150):
        N = int(rng.integers(2, 300))
        k = int(rng.integers(1, min(N, 5) + 1))
        theta = theta_factor * N
        s = streams.disjunction(T=200, N=N, k=k, seed=i)
        tr = linear.winnow(s.X, s.y, alpha=alpha, theta=theta, epochs=2)
        assert tr.n_mistakes < bounds.winnow_general(k, N, alpha, theta)
        e = tr.extras
        assert np.all(e["potential"] > 0)
        assert np.all(e["potential"] <= e["potential_upper"] * (1 + 1e-12))
        np.testing.assert_allclose(e["potential"], tr.weights.sum(axis=1))
        # relevant weights are never demoted
        assert np.all(tr.weights[:, s.info["relevant"]] >= 1)


def test_fast_path_is_compact():
    s = streams.disjunction(T=20_000, N=100, k=2, seed=1)
    tr = linear.winnow(s.X, s.y)
    assert tr.weight_table.shape == (tr.n_mistakes + 1, 100)


def test_bad_input_raises_stream_error():
    with pytest.raises(StreamError, match="X"):
        linear.winnow([[0, 2]], [1])
    with pytest.raises(StreamError, match="y"):
        linear.winnow([[0, 1]], [-1])
    with pytest.raises(StreamError, match="alpha"):
        linear.winnow([[0, 1]], [1], alpha=1.0)
    with pytest.raises(StreamError, match="theta"):
        linear.winnow([[0, 1]], [1], theta=0)
