"""The expert adversaries of olcore.streams: tight Halving, and exercise 3.1's WM-doubling stream."""

import math

import numpy as np
import pytest

from olcore import StreamError, bounds, experts, streams


@pytest.mark.parametrize("n", list(range(1, 70)) + [127, 128, 129, 1000, 1023, 1024])
def test_halving_makes_exactly_floor_log2_n_mistakes(n):
    s = streams.adversary_consistent(n)
    tr = experts.halving(s.X, s.y)
    assert tr.n_mistakes == math.floor(math.log2(n))
    assert tr.n_mistakes <= bounds.halving(n)
    assert s.info["best_mistakes"] == 0                       # a consistent expert survives
    assert np.all(tr.mistakes) or n == 1                       # a mistake every round


class _Constant:
    def __init__(self, b):
        self.b = b

    def predict(self, x):
        return self.b

    def update(self, x, y):
        pass


class _FollowFirst:
    def predict(self, x):
        return int(x[0])

    def update(self, x, y):
        pass


@pytest.mark.parametrize("n", [2, 5, 8, 33, 100])
@pytest.mark.parametrize("make", [
    lambda n: experts.WeightedMajority(n, 0.5),
    lambda n: experts.WeightedMajority(n, 0.01),
    lambda n: _Constant(0), lambda n: _Constant(1), lambda n: _FollowFirst(),
])
def test_any_deterministic_learner_errs_every_forced_round(n, make):
    s = streams.adversary_consistent(n, learner=make(n))
    # replay the stream: the learner's predictions are all wrong
    assert np.all(s.info["learner_predictions"] != s.y)
    assert s.info["forced_rounds"] >= math.floor(math.log2(n))
    assert s.info["best_mistakes"] == 0


def test_extra_rounds_keep_the_consistent_expert_and_halving_stops_erring():
    s = streams.adversary_consistent(64, extra_rounds=50, seed=3)
    assert s.T == 6 + 50
    tr = experts.halving(s.X, s.y)
    assert tr.n_mistakes == 6
    assert s.info["best_mistakes"] == 0


def test_user_labels_may_empty_the_version_space():
    s = streams.adversary_consistent(4, labels=[1, 1, 1, 0, 1, 0, 0], seed=1)
    tr = experts.halving(s.X, s.y)
    assert s.T == 7
    assert tr.extras["version_space"][2] >= 1              # while splitting, someone survives
    with pytest.raises(StreamError, match="labels"):
        streams.adversary_consistent(4, labels=[0, 2])


@pytest.mark.parametrize("beta", [0.0, 0.1, 1 / math.e, 0.5, 0.9])
@pytest.mark.parametrize("T", [1, 2, 51, 400])
def test_wm_adversary_doubles_wm_but_not_rwm_or_hedge(beta, T):
    s = streams.adversary_wm(T, beta)
    wm = experts.weighted_majority(s.X, s.y, beta)
    best = s.info["best_mistakes"]
    assert wm.n_mistakes == T                                  # WM errs every round
    assert best <= math.ceil(T / 2)                            # ... about twice the best expert
    if beta > 0:
        assert wm.n_mistakes <= bounds.weighted_majority(best, 2, beta) + 1e-9
    L = (s.X != s.y[:, None]).astype(float)
    if T >= 2:
        eta = bounds.hedge_eta(T, 2)
        h = experts.hedge(L, eta)
        assert h.losses.sum() - best <= bounds.hedge(T, 2) + 1e-9
        rb = 1 - min(0.5, math.sqrt(math.log(2) / T))
        r = experts.randomized_weighted_majority(s.X, s.y, rb, seed=0)
        exp_m = r.extras["expected_loss"].sum()
        assert exp_m <= bounds.randomized_weighted_majority(best, 2, rb) + 1e-9
    if T >= 400:
        assert h.losses.sum() < 0.6 * T and exp_m < 0.6 * T     # well below WM's T


def test_adversary_wm_bad_input():
    with pytest.raises(StreamError, match="n"):
        streams.adversary_wm(10, 0.5, n=1)
