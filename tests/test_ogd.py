"""OGD with hinge loss: fast path == reference class; the regret bound as oracle."""

import numpy as np
import pytest

from olcore import StreamError, bounds, linear, streams


def test_margin_exactly_one_does_not_update():
    # w after round 1 = 0.5 * (1, 1); round 2 x = (1, 1): score 1, y = 1: margin exactly 1.
    tr = linear.ogd_hinge([[1.0, 1.0], [1.0, 1.0]], [1, 1], eta=0.5)
    assert tr.extras["updated"].tolist() == [True, False]
    assert tr.losses.tolist() == [1.0, 0.0]


@pytest.mark.parametrize("seed", range(60))
def test_regret_bound_with_tuned_eta(seed):
    rng = np.random.default_rng(seed)
    s = streams.separable(T=int(rng.integers(20, 500)), d=int(rng.integers(2, 6)),
                          gamma=float(rng.uniform(0.05, 0.3)), noise=float(rng.choice([0, 0.1, 0.3])), seed=seed)
    R, m = bounds.radius(s.X), s.T
    U = float(rng.uniform(0.5, 20))
    eta = bounds.ogd_hinge_eta(U, R, m)
    tr = linear.ogd_hinge(s.X, s.y, eta=eta)
    comparators = [U * s.info["v"], 0 * s.info["v"]]
    g = rng.standard_normal(s.k)
    comparators.append(g / np.linalg.norm(g) * U * rng.uniform(0, 1))
    for u in comparators:
        regret = tr.total_loss - bounds.hinge_loss(s.X, s.y, u)
        assert regret <= bounds.ogd_hinge(U, R, m) + 1e-9


@pytest.mark.parametrize("seed", range(30))
def test_regret_bound_for_any_eta(seed):
    rng = np.random.default_rng(100 + seed)
    s = streams.separable(T=300, d=3, gamma=0.1, noise=0.2, seed=seed)
    eta = float(np.exp(rng.uniform(np.log(1e-3), np.log(10))))
    tr = linear.ogd_hinge(s.X, s.y, eta=eta)
    R = bounds.radius(s.X)
    for U in (0.5, 2.0, 10.0):
        u = U * s.info["v"]
        regret = tr.total_loss - bounds.hinge_loss(s.X, s.y, u)
        assert regret <= bounds.ogd_hinge_regret(U, R, s.T, eta) + 1e-9


def test_bad_input():
    with pytest.raises(StreamError, match="eta"):
        linear.ogd_hinge([[1.0]], [1], eta=0)
    with pytest.raises(StreamError, match="y"):
        linear.ogd_hinge([[1.0]], [0])
