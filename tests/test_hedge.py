"""Hedge: regret bounds on many loss matrices, the proof's per-round inequality, fast == class."""

import numpy as np
import pytest

from olcore import StreamError, bounds, experts, streams


def _losses(rng):
    n = int(rng.integers(1, 40))
    T = int(rng.integers(1, 200))
    kind = rng.integers(3)
    if kind == 0:
        L = (rng.random((T, n)) < rng.random(n)).astype(float)
    elif kind == 1:
        L = rng.random((T, n)) * rng.random(n)
    else:                              # adversarial-ish: the current leader loses
        L = np.zeros((T, n))
        cum = np.zeros(n)
        for t in range(T):
            L[t, np.argmin(cum)] = 1.0
            cum += L[t]
    return L


def _regret(tr):
    return tr.losses.sum() - tr.expert_losses.sum(axis=0).min()


def test_tuned_bound_on_a_thousand_loss_matrices():
    rng = np.random.default_rng(20)
    for _ in range(1000):
        L = _losses(rng)
        T, n = L.shape
        if n == 1:
            continue
        eta = bounds.hedge_eta(T, n)
        tr = experts.hedge(L, eta)
        assert _regret(tr) <= bounds.hedge(T, n) + 1e-9


def test_any_eta_bound_and_per_round_inequality():
    rng = np.random.default_rng(21)
    for _ in range(600):
        L = _losses(rng)
        T, n = L.shape
        eta = float(np.exp(rng.uniform(np.log(0.01), np.log(20))))
        tr = experts.hedge(L, eta)
        assert _regret(tr) <= bounds.hedge_regret(T, n, eta) + 1e-9
        i = int(tr.extras["best"])
        d = tr.extras["rel_entropy"]
        lhs = tr.losses - L[:, i]
        rhs = (d[:-1] - d[1:]) / eta + eta / 2 * tr.extras["second_moment"]
        assert np.all(lhs <= rhs + 1e-9)
        assert d[0] == pytest.approx(np.log(n))


def test_sampled_play_averages_to_expected_loss():
    s = streams.loss_matrix(T=200, n=5, seed=4)
    sampled = np.array([experts.hedge(s.X, 0.2, seed=k).extras["sampled_loss"].sum() for k in range(300)])
    expected = experts.hedge(s.X, 0.2).losses.sum()
    assert abs(sampled.mean() - expected) < 5 * np.sqrt(200 * 0.25 / 300)


def test_extreme_eta_and_length_are_finite():
    L = streams.loss_matrix(T=100_000, n=10, seed=1, distribution="beta").X
    for eta in (100.0, 1e-6):
        tr = experts.hedge(L, eta)
        W = tr.weights
        assert np.isfinite(W).all() and np.allclose(W.sum(axis=1), 1)
        assert np.isfinite(tr.extras["rel_entropy"]).all()


def test_bad_inputs():
    with pytest.raises(StreamError, match="X"):
        experts.hedge([[0.5, 1.5]])
    with pytest.raises(StreamError, match="eta"):
        experts.hedge([[0.5, 0.5]], eta=-1)
