"""Passive-Aggressive PA / PA-I / PA-II: fast path == reference class; mistake bounds as oracles."""

import numpy as np
import pytest

from olcore import StreamError, bounds, linear, streams


def test_step_sizes_by_hand():
    # x = (2, 0), y = 1, w = 0: loss 1, ||x||^2 = 4.
    x, y = [[2.0, 0.0]], [1]
    w = lambda v, C: linear.passive_aggressive(x, y, variant=v, C=C).weights_at(1)[0]
    assert w("PA", 1.0) == pytest.approx(2 * 1 / 4)
    assert w("PA-I", 0.1) == pytest.approx(2 * 0.1)            # min(C, 1/4) = C
    assert w("PA-I", 1.0) == pytest.approx(2 * 1 / 4)
    # PA-II with the paper's 1/(2C): eta = 1 / (4 + 1/(2C)); C = 1 -> 1/4.5 (the slide's 1/C would give 1/5)
    assert w("PA-II", 1.0) == pytest.approx(2 / 4.5)


def test_zero_instance_leaves_weights():
    for v in ("PA", "PA-I", "PA-II"):
        tr = linear.passive_aggressive([[0.0, 0.0], [1.0, 0.0]], [1, 1], variant=v)
        np.testing.assert_array_equal(tr.weights_at(1), [0, 0])
        assert np.isfinite(tr.weights).all()


@pytest.mark.parametrize("seed", range(30))
def test_pa_projects_onto_the_margin_hyperplane(seed):
    s = streams.separable(T=100, d=3, gamma=0.1, noise=0.2, seed=seed)
    tr = linear.passive_aggressive(s.X, s.y, variant="PA")
    upd = np.flatnonzero(tr.extras["updated"])
    after = tr.weights_on(upd + 1)
    np.testing.assert_allclose(s.y[upd] * np.einsum("ij,ij->i", after, s.X[upd]), 1.0, atol=1e-9)


@pytest.mark.parametrize("seed", range(50))
def test_pa1_mistake_bound(seed):
    rng = np.random.default_rng(seed)
    s = streams.separable(T=int(rng.integers(20, 400)), d=int(rng.integers(2, 5)),
                          gamma=float(rng.uniform(0.05, 0.3)), R=float(rng.uniform(0.3, 2)),
                          noise=float(rng.choice([0, 0.1, 0.3])), seed=seed)
    C = float(np.exp(rng.uniform(-3, 3)))
    M = linear.passive_aggressive(s.X, s.y, variant="PA-I", C=C).n_mistakes
    R = bounds.radius(s.X)
    for c in (0.0, 1.0, 5.0, 1 / bounds.margin(s.X, s.y, s.info["v"]) if s.info["noise"] == 0 else 20.0):
        u = c * s.info["v"]
        b = bounds.passive_aggressive_pa1(np.linalg.norm(u), bounds.hinge_loss(s.X, s.y, u), C, R)
        assert M <= b + 1e-9


@pytest.mark.parametrize("seed", range(50))
def test_pa2_bound_and_pa_separable_bound(seed):
    rng = np.random.default_rng(500 + seed)
    s = streams.separable(T=int(rng.integers(20, 400)), d=int(rng.integers(2, 5)),
                          gamma=float(rng.uniform(0.05, 0.3)), seed=seed)
    R = bounds.radius(s.X)
    u = s.info["v"] / bounds.margin(s.X, s.y, s.info["v"])   # y u.x >= 1: zero hinge loss
    tr = linear.passive_aggressive(s.X, s.y, variant="PA")
    assert np.sum(tr.losses ** 2) <= bounds.passive_aggressive_separable(np.linalg.norm(u), R) * (1 + 1e-9)
    assert tr.n_mistakes <= bounds.passive_aggressive_separable(np.linalg.norm(u), R) * (1 + 1e-9)
    C = float(np.exp(rng.uniform(-3, 3)))
    noisy = streams.separable(T=300, d=3, gamma=0.1, noise=0.2, seed=seed)
    tr2 = linear.passive_aggressive(noisy.X, noisy.y, variant="PA-II", C=C)
    for c in (0.0, 1.0, 4.0):
        u = c * noisy.info["v"]
        b = bounds.passive_aggressive_pa2(np.linalg.norm(u), bounds.squared_hinge_loss(noisy.X, noisy.y, u),
                                          C, bounds.radius(noisy.X))
        assert np.sum(tr2.losses ** 2) <= b * (1 + 1e-9)
        assert tr2.n_mistakes <= b


def test_bad_input():
    with pytest.raises(StreamError, match="variant"):
        linear.passive_aggressive([[1.0]], [1], variant="PA-III")
    with pytest.raises(StreamError, match="C"):
        linear.passive_aggressive([[1.0]], [1], variant="PA-I", C=0)
