"""Weighted Majority and Randomized WM: bounds on many streams, proof quantities, fast == class."""

import math

import numpy as np
import pytest

from olcore import StreamError, bounds, experts, streams


def _noisy_stream(rng, T_max=120, n_max=40):
    n = int(rng.integers(1, n_max))
    T = int(rng.integers(1, T_max))
    y = rng.integers(0, 2, T)
    p = rng.random(n) * rng.uniform(0.1, 1.0)
    X = np.where(rng.random((T, n)) < p, 1 - y[:, None], y[:, None])
    return X, y


def _best(X, y):
    return int((X != y[:, None]).sum(axis=0).min())


def test_wm_bound_on_a_thousand_random_streams():
    rng = np.random.default_rng(1)
    slack = []
    for k in range(1000):
        X, y = _noisy_stream(rng)
        beta = [1 / math.e, 0.001, 0.5, 0.9][k % 4] if k < 400 else float(rng.uniform(0.001, 0.999))
        tr = experts.weighted_majority(X, y, beta)
        b = bounds.weighted_majority(_best(X, y), X.shape[1], beta)
        assert tr.n_mistakes <= b + 1e-9
        slack.append(b - tr.n_mistakes)
    assert min(slack) < 5        # not vacuous everywhere


def test_wm_proof_quantities_squeeze_W_every_round():
    rng = np.random.default_rng(2)
    for k in range(300):
        X, y = _noisy_stream(rng)
        beta = float(rng.uniform(0.001, 0.999))
        tr = experts.weighted_majority(X, y, beta)
        e = tr.extras
        assert e["log_W"].shape == (tr.T + 1,)
        assert np.all(e["log_W_lower"] <= e["log_W"] + 1e-9)
        assert np.all(e["log_W"] <= e["log_W_upper"] + 1e-9)
        # ln W_t recomputed from scratch: sum_i beta^{M_{t,i}}
        M = np.vstack([np.zeros(X.shape[1]), np.cumsum(X != y[:, None], axis=0)])
        assert np.allclose(e["log_W"], np.log(np.sum(beta ** M, axis=1)))
        assert e["log_W"][0] == pytest.approx(np.log(X.shape[1]))


def test_wm_with_beta_zero_is_halving():
    rng = np.random.default_rng(3)
    for _ in range(200):
        X, y = _noisy_stream(rng)
        a, b = experts.weighted_majority(X, y, 0.0), experts.halving(X, y)
        assert np.array_equal(a.predictions, b.predictions)
        assert np.allclose(a.weights, b.weights)


def test_wm_tie_predicts_one():
    # two experts with equal weight disagree: a tie
    tr = experts.weighted_majority([[0, 1], [0, 1]], [1, 0], beta=0.5)
    assert tr.predictions[0] == 1
    # round 1 revealed y = 1: expert 0 was wrong, so expert 1 (voting 1) now outweighs it
    assert tr.predictions[1] == 1
    # a weighted tie later on: beta = 1/2, expert 0 wrong twice (1/4) vs experts 1, 2 once each
    tr = experts.weighted_majority([[1, 0, 0], [1, 1, 1], [0, 1, 0]], [0, 0, 1], beta=0.5)
    # before round 3: w = (1/4, 1/2, 1/2)/sum; votes for 1: 1/2, votes for 0: 3/4 -> 0
    assert tr.predictions.tolist() == [0, 1, 0]


def test_wm_log_domain_extremes_no_nan():
    rng = np.random.default_rng(5)
    T, n = 100_000, 20
    y = rng.integers(0, 2, T)
    X = np.where(rng.random((T, n)) < 0.45, 1 - y[:, None], y[:, None])
    tr = experts.weighted_majority(X, y, beta=0.001)
    W = tr.weights
    assert np.isfinite(W).all()
    assert np.allclose(W.sum(axis=1), 1.0)
    assert np.isfinite(tr.extras["log_W"]).all()
    assert tr.n_mistakes <= bounds.weighted_majority(_best(X, y), n, 0.001)


def test_rwm_expected_mistakes_bound_on_a_thousand_streams():
    rng = np.random.default_rng(6)
    for k in range(1000):
        X, y = _noisy_stream(rng)
        beta = float(rng.uniform(0.5, 0.999))
        tr = experts.randomized_weighted_majority(X, y, beta, seed=k)
        exp_m = tr.extras["expected_loss"].sum()
        assert exp_m <= bounds.randomized_weighted_majority(_best(X, y), X.shape[1], beta) + 1e-9


def test_rwm_realised_mistakes_average_to_expected():
    s = streams.expert_error_rates(T=300, error_rates=[0.1, 0.3, 0.5, 0.5, 0.7], seed=3)
    real = np.array([experts.randomized_weighted_majority(s.X, s.y, 0.8, seed=k).n_mistakes
                     for k in range(400)])
    expected = experts.randomized_weighted_majority(s.X, s.y, 0.8, seed=0).extras["expected_loss"]
    sd = np.sqrt(np.sum(expected * (1 - expected)) / len(real))
    assert abs(real.mean() - expected.sum()) < 5 * sd


def test_rwm_rejects_beta_zero_and_bound_rejects_small_beta():
    with pytest.raises(StreamError, match="beta"):
        experts.randomized_weighted_majority([[0, 1]], [1], beta=0.0)
    with pytest.raises(StreamError, match="beta"):
        experts.weighted_majority([[0, 1]], [1], beta=1.0)


def test_wm_votes_decided_in_lanes_agree_with_the_notes_sums_on_ties_and_near_ties():
    """The compiled loop adds the votes in vector lanes (reordered) and takes the vote again left
    to right with beta**k when the two are within rounding of each other: on streams built to tie
    (pairs of experts with opposite advice, and many experts whose weights sum to the same total
    in different orders) its predictions equal the reference class's bit for bit."""
    rng = np.random.default_rng(31)
    calls = 0
    for _ in range(60):
        T, half = int(rng.integers(5, 80)), int(rng.integers(1, 40))
        A = (rng.random((T, half)) < 0.5).astype(int)
        X = np.concatenate([A, 1 - A], axis=1)[:, rng.permutation(2 * half)]     # opposite pairs
        if rng.random() < 0.5:                                # plus an odd one out: near-ties
            X = np.concatenate([X, (rng.random((T, 1)) < 0.5).astype(int)], axis=1)
        y = (rng.random(T) < 0.5).astype(int)
        beta = float(rng.choice([0.5, 0.25, 0.1, 1 / 3, float(rng.uniform(0.01, 0.99))]))
        tr = experts.weighted_majority(X, y, beta)
        ref = experts.WeightedMajority(X.shape[1], beta)
        for t in range(T):
            assert tr.predictions[t] == ref.predict(X[t]), (t, beta)
            ref.update(X[t], y[t])
            calls += 1
    assert calls > 1000
