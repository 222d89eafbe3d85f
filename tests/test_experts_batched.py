"""The batched expert paths: Hedge at many rates (experts.hedge_many) and WM / RWM re-run on prefixes
(experts.weighted_majority_prefixes) equal the run-by-run fast paths bit for bit, and refuse bad input.
(Agreement with the reference classes is the contract test's: tests/learners.py.)"""

import numpy as np
import pytest

from olcore import StreamError, experts


def _losses(rng):
    """0/1, continuous and adversarial loss matrices; n up to 150 (several blocks of the HA-2 draw)."""
    T, n = int(rng.integers(1, 300)), int(rng.choice([1, 2, 7, 64, 65, 150]))
    kind = rng.integers(3)
    if kind == 0:
        return (rng.random((T, n)) < rng.random(n)).astype(float)
    if kind == 1:
        return rng.random((T, n)) * rng.random(n)
    L, cum = np.zeros((T, n)), np.zeros(n)                 # the current leader loses
    for t in range(T):
        L[t, np.argmin(cum)] = 1.0
        cum += L[t]
    return L


def test_hedge_many_rows_are_the_single_runs_bit_for_bit():
    rng = np.random.default_rng(5)
    for _ in range(120):
        L = _losses(rng)
        seed = int(rng.integers(0, 2**32))
        etas = np.exp(rng.uniform(np.log(0.005), np.log(50), int(rng.integers(1, 6))))   # large: re-shifted weights
        B = float(rng.choice([1.0, 1.0, 2.5, 100.0]))
        losses, sampled = experts.hedge_many(B * L, etas, seed=seed, B=B)
        assert losses.shape == sampled.shape == (len(etas), len(L))
        assert not losses.flags.writeable and not sampled.flags.writeable
        for j, eta in enumerate(etas):
            tr = experts.hedge(B * L, float(eta), seed=seed, B=B)
            np.testing.assert_array_equal(losses[j], tr.losses)
            np.testing.assert_array_equal(sampled[j], tr.extras["sampled_loss"])
            assert np.cumsum(losses[j])[-1] == tr.total_loss


def test_hedge_many_takes_any_array_and_one_rate():
    rng = np.random.default_rng(1)
    L = (rng.random((40, 5)) < 0.4)
    losses, sampled = experts.hedge_many(L.astype(int).tolist(), 0.3, seed=2)
    tr = experts.hedge(L.astype(float), 0.3, seed=2)
    np.testing.assert_array_equal(losses, tr.losses[None])
    np.testing.assert_array_equal(sampled, tr.extras["sampled_loss"][None])


@pytest.mark.parametrize("call", [
    lambda L: experts.hedge_many(L, []),
    lambda L: experts.hedge_many(L, [0.1, 0.0]),
    lambda L: experts.hedge_many(L, [0.1, float("nan")]),
    lambda L: experts.hedge_many(L, [[0.1, 0.2]]),
    lambda L: experts.hedge_many(L, 0.1, seed=-1),
    lambda L: experts.hedge_many(L, 0.1, B=0.0),
    lambda L: experts.hedge_many(np.where(L > 0, 1.5, 0.0), 0.1),
    lambda L: experts.hedge_many(np.where(L > 0, np.nan, 0.0), 0.1),
    lambda L: experts.hedge_many(np.where(L > 0, 3.0, 0.0), 0.1, B=2.0),
    lambda L: experts.hedge_many(-L, 0.1, B=2.0),
])
def test_hedge_many_bad_input(call):
    L = np.zeros((20, 3))
    L[7, 1] = 1.0
    with pytest.raises(StreamError):
        call(L)


def _advice(rng):
    """0/1 advice of varied accuracy (exact ties in the vote are common); sometimes a perfect expert."""
    T, n = int(rng.integers(1, 200)), int(rng.integers(1, 40))
    y = rng.integers(0, 2, T)
    X = np.where(rng.random((T, n)) < rng.random(n), 1 - y[:, None], y[:, None])
    if rng.random() < 0.3:
        X[:, rng.integers(n)] = y
    return X.astype(np.int8), y.astype(np.int8)


def test_weighted_majority_prefixes_are_the_runs_on_the_prefixes_bit_for_bit():
    rng = np.random.default_rng(11)
    for i in range(150):
        X, y = _advice(rng)
        T = len(y)
        H = rng.integers(1, T + 1, int(rng.integers(1, 8)))            # any order, repeats allowed
        betas = rng.choice([0.0, 0.25, 0.5, 1 / np.e, 0.9, 0.999], len(H)) if i % 2 else rng.uniform(0, 1, len(H))
        if i % 3 == 0:                                                  # int64 advice: converted, not viewed
            X, y = X.astype(np.int64), y.astype(np.int64)
        M, E = experts.weighted_majority_prefixes(X, y, H, betas)
        assert M.dtype == np.int64 and E.dtype == float and M.shape == E.shape == (len(H),)
        for k, (h, b) in enumerate(zip(H, betas)):
            wm = experts.weighted_majority(X[:h], y[:h], float(b))
            assert M[k] == wm.n_mistakes
            if b > 0:
                rwm = experts.randomized_weighted_majority(X[:h], y[:h], float(b), seed=i)
                assert E[k] == np.sum(rwm.extras["expected_loss"])
            else:                                                      # Halving's weights: the mass of the wrong
                v = wm.weights[:-1]                                    # consistent experts (0 once none is left)
                assert E[k] == pytest.approx(float((v * (X[:h] != y[:h, None])).sum()), abs=1e-12)


@pytest.mark.parametrize("call", [
    lambda X, y: experts.weighted_majority_prefixes(X, y, [0], [0.5]),
    lambda X, y: experts.weighted_majority_prefixes(X, y, [31], [0.5]),
    lambda X, y: experts.weighted_majority_prefixes(X, y, [2.5], [0.5]),
    lambda X, y: experts.weighted_majority_prefixes(X, y, [5, 6], [0.5]),
    lambda X, y: experts.weighted_majority_prefixes(X, y, [5], [1.0]),
    lambda X, y: experts.weighted_majority_prefixes(X, y, [5], [-0.1]),
    lambda X, y: experts.weighted_majority_prefixes(X, y[:-1], [5], [0.5]),
])
def test_weighted_majority_prefixes_bad_settings(call):
    rng = np.random.default_rng(0)
    X, y = rng.integers(0, 2, (30, 4)), rng.integers(0, 2, 30)
    with pytest.raises(StreamError):
        call(X, y)


@pytest.mark.parametrize("dtype", [np.int8, np.int64, float])
@pytest.mark.parametrize("row", [3, 25])
def test_weighted_majority_prefixes_check_the_whole_stream(dtype, row):
    """An entry not 0 or 1 is refused, inside the prefixes or past the longest one (in the advice or the outcome)."""
    rng = np.random.default_rng(row)
    X, y = rng.integers(0, 2, (30, 4)).astype(dtype), rng.integers(0, 2, 30).astype(dtype)
    bad_X, bad_y = X.copy(), y.copy()
    bad_X[row, 2] = 2
    bad_y[row] = -1
    for Xb, yb in ((bad_X, y), (X, bad_y)):
        with pytest.raises(StreamError):
            experts.weighted_majority_prefixes(Xb, yb, [10, 5], [0.5, 0.5])
