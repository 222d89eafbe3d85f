"""Halving: the UCL worked run, the log2 n bound on many streams, fast path == class."""

import numpy as np
import pytest

from olcore import StreamError, experts, streams

# The worked run on the UCL slides (UCL COMP0078, Online learning, "A run of the Halving
# Algorithm").  The slide leaves eliminated experts' later advice blank ("X"); any value
# must give the same run, so two fillings are tried.
UCL_ROWS = [
    # E1 E2 E3 E4 E5 E6 E7 E8
    [1, 1, 0, 0, 1, 1, 0, 0],
    [None, None, 0, 1, None, None, 1, 1],
    [None, None, None, 1, None, None, 0, 0],
]
UCL_Y = [0, 1, 1]
UCL_YHAT = [1, 1, 0]          # the slide's yhat column
UCL_LOSS = [1, 0, 1]          # the slide's loss column
UCL_CONSISTENT_AFTER = [{3, 4, 7, 8}, {4, 7, 8}, {4}]   # 1-based, read off the crosses


def _ucl_matrix(fill):
    return np.array([[fill if v is None else v for v in row] for row in UCL_ROWS])


@pytest.mark.parametrize("fill", [0, 1])
def test_ucl_worked_run_reproduces(fill):
    X = _ucl_matrix(fill)
    tr = experts.halving(X, UCL_Y)
    assert tr.predictions.tolist() == UCL_YHAT
    assert tr.losses.tolist() == UCL_LOSS
    assert tr.extras["version_space"].tolist() == [8, 4, 3, 1]
    for t, alive in enumerate(UCL_CONSISTENT_AFTER, start=1):
        assert set(np.flatnonzero(tr.weights[t]) + 1) == alive
        assert np.allclose(tr.weights[t][tr.weights[t] > 0], 1 / len(alive))
    # the reference class gives the same table, round by round
    h = experts.Halving(8)
    for t, (x, y) in enumerate(zip(X, UCL_Y)):
        assert h.predict(x) == UCL_YHAT[t]
        h.update(x, y)
        assert set(np.flatnonzero(h.consistent) + 1) == UCL_CONSISTENT_AFTER[t]


def test_tie_predicts_one():
    assert experts.halving([[1, 0]], [0]).predictions.tolist() == [1]
    assert experts.halving([[0, 1, 1, 0]], [1]).predictions.tolist() == [1]
    assert experts.halving([[0, 0, 1]], [1]).predictions.tolist() == [0]


def _random_consistent_stream(rng):
    """Independent of olcore.streams: a hidden perfect expert, others with random error rates."""
    n = int(rng.integers(1, 300))
    T = int(rng.integers(1, 60))
    y = rng.integers(0, 2, T)
    p = rng.random(n) * rng.random()          # some experts rarely wrong, so rounds stay informative
    wrong = rng.random((T, n)) < p
    wrong[:, rng.integers(n)] = False
    return np.where(wrong, 1 - y[:, None], y[:, None]), y


def test_bound_log2n_on_a_thousand_random_streams():
    rng = np.random.default_rng(20240)
    worst = 0.0
    for _ in range(1000):
        X, y = _random_consistent_stream(rng)
        n = X.shape[1]
        tr = experts.halving(X, y)
        assert tr.n_mistakes <= np.log2(n) + 1e-12
        assert tr.extras["version_space"][-1] >= 1
        # each mistake at least halves the version space
        vs = tr.extras["version_space"]
        assert np.all(vs[1:][tr.mistakes] <= vs[:-1][tr.mistakes] // 2)
        assert np.all(vs[1:] <= vs[:-1])
        worst = max(worst, tr.n_mistakes / max(np.log2(n), 1))
    assert worst > 0.5      # the random streams do make Halving err


def test_bound_on_library_perfect_expert_streams():
    for seed in range(200):
        n = 2 + seed % 64
        s = streams.perfect_expert(T=40, n=n, seed=seed, p_wrong=0.5)
        assert experts.halving(s.X, s.y).n_mistakes <= np.log2(n)


def test_empty_version_space_predicts_one_and_has_zero_weights():
    X = [[0, 0], [1, 0], [0, 1]]
    y = [1, 0, 0]
    tr = experts.halving(X, y)
    assert tr.extras["version_space"].tolist() == [2, 0, 0, 0]
    assert tr.predictions.tolist() == [0, 1, 1]
    assert np.all(tr.weights[1:] == 0)


def test_bad_input_raises_stream_error():
    with pytest.raises(StreamError, match="X"):
        experts.halving([[0, 2]], [1])
    with pytest.raises(StreamError, match="y"):
        experts.halving([[0, 1]], [0.5])
    with pytest.raises(StreamError):
        experts.halving([[0, 1], [1, 1]], [1])
