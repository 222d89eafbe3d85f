"""The elimination algorithm for conjunctions: at most n + 1 mistakes on every consistent stream, met
by an adversary; its hypothesis keeps the target; its bound broadcasts and validates."""

from __future__ import annotations

import numpy as np
import pytest

from olcore import StreamError, bounds, linear
from tests.learners import conjunction_stream


def _conjunction(rng, T, n, k, p_force=0.5):
    X = rng.integers(0, 2, (T, n))
    idx, sign = rng.choice(n, k, replace=False), rng.integers(0, 2, k)
    force = rng.random(T) < p_force
    X[np.ix_(force, idx)] = sign
    return X, np.all(X[:, idx] == sign, axis=1).astype(int), k


def _adversary(n, rng):
    """Positives only (the empty conjunction): x0, then x0 with one bit flipped per row.  The first
    mistake leaves the n literals x0 satisfies; each flip falsifies one of them only: n + 1 mistakes."""
    x0 = rng.integers(0, 2, n)
    rows = [x0] + [np.where(np.arange(n) == i, 1 - x0, x0) for i in rng.permutation(n)]
    return np.array(rows), np.ones(n + 1, dtype=int)


def test_elimination_never_exceeds_n_plus_1_on_consistent_streams():
    rng = np.random.default_rng(19)
    reached = 0
    for _ in range(3000):
        n = int(rng.integers(1, 30))
        X, y, k = _conjunction(rng, int(rng.integers(1, 200)), n, int(rng.integers(0, n + 1)),
                               float(rng.uniform(0.2, 0.95)))
        tr = linear.conjunction_elimination(X, y)
        M = int(tr.mistakes.sum())
        assert M <= bounds.conjunction_elimination(n) and M <= n - k + 1
        assert tr.extras["m_minus"][-1] == 0                       # every mistake is on a positive
        reached += M == n - k + 1
    assert reached > 100                                           # the sharper n - k + 1 is reached often


def test_elimination_adversary_meets_the_bound():
    rng = np.random.default_rng(3)
    for n in range(1, 40):
        X, y = _adversary(n, rng)
        tr = linear.conjunction_elimination(X, y)
        assert tr.mistakes.sum() == bounds.conjunction_elimination(n) == n + 1
        np.testing.assert_array_equal(tr.extras["literals"], np.r_[2 * n, n - np.arange(n + 1)])


def test_elimination_hypothesis_contains_the_target_and_agrees_with_the_class():
    rng = np.random.default_rng(5)
    for _ in range(300):
        X, y, params = conjunction_stream(rng, False)
        tr = linear.conjunction_elimination(X, y)
        ref = linear.ConjunctionElimination(X.shape[1])
        for t, (x, yt) in enumerate(zip(X, y)):
            assert ref.predict(x) == tr.predictions[t]
            ref.update(x, yt)
            assert linear.conjunction.describe(tr.weights[t + 1]) == ref.literals()
        np.testing.assert_array_equal(tr.predictions, tr.extras["violated"] == 0)


def test_elimination_bounds_broadcast_and_validate():
    np.testing.assert_array_equal(bounds.conjunction_elimination(np.arange(1, 6)), np.arange(2, 7))
    assert isinstance(bounds.conjunction_elimination(4), float)
    for bad in (0, 1.5, -1, np.nan):
        with pytest.raises(StreamError):
            bounds.conjunction_elimination(bad)
    with pytest.raises(StreamError):
        linear.conjunction_elimination([[0, 2]], [1])
    with pytest.raises(StreamError):
        linear.conjunction_elimination([[0, 1]], [-1])

