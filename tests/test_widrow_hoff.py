"""Widrow-Hoff: fast path == reference class == scikit-learn; Theorem 1 and the per-round claim
of its proof hold on thousands of seeded random and adversarial streams with ||x|| <= 1.

Theory is the oracle (Princeton COS 511, lecture 18): nothing here is copied from the code's output.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from olcore import StreamError, bounds, linear, streams
from olcore.linear.widrow_hoff import WidrowHoff, proof_quantities, to_unit_ball, widrow_hoff_many

# ---------------------------------------------------------------------------------------------
# stream batches (B, T, d), all with ||x_t|| <= 1


def ball(rng, B, T, d):
    G = rng.standard_normal((B, T, d))
    G /= np.linalg.norm(G, axis=-1, keepdims=True)
    return G * rng.random((B, T, 1)) ** (1.0 / d)


def sphere(rng, B, T, d):
    G = rng.standard_normal((B, T, d))
    return G / np.linalg.norm(G, axis=-1, keepdims=True)


def random_batch(seed, B=400, T=60, d=3):
    """Targets: linear + noise, pure noise, heavy-tailed, large-scale; x in the ball or on the sphere."""
    rng = np.random.default_rng(seed)
    X = np.where(rng.random((B, 1, 1)) < 0.5, ball(rng, B, T, d), sphere(rng, B, T, d))
    u = rng.standard_normal((B, d)) * rng.uniform(0, 5, size=(B, 1))
    noise = rng.uniform(0, 2, size=(B, 1)) * np.where(rng.random((B, 1)) < 0.3,
                                                       rng.standard_cauchy((B, T)), rng.standard_normal((B, T)))
    y = np.einsum("btd,bd->bt", X, u) + noise
    eta = rng.uniform(0.001, 0.999, size=B)
    return X, y, eta


def adaptive_adversary(seed, B=400, T=60, d=3, eta=None):
    """y_t = w_t.x_t +/- c: the adversary sees w_t and forces loss c^2 in every round;
    x_t on the unit sphere (||x|| = 1, where line (7) of the proof is an equality)."""
    rng = np.random.default_rng(seed)
    X = sphere(rng, B, T, d)
    if eta is None:
        eta = rng.uniform(0.001, 0.999, size=B)
    c = rng.uniform(0.1, 3.0, size=B)
    signs = np.where(rng.random((B, T)) < 0.5, -1.0, 1.0)
    y = np.empty((B, T))
    w = np.zeros((B, d))
    for t in range(T):
        p = np.einsum("bd,bd->b", w, X[:, t])
        y[:, t] = p + signs[:, t] * c
        w = w - (eta * (p - y[:, t]))[:, None] * X[:, t]
    return X, y, eta


def same_direction(seed, B=200, T=60, d=2):
    """Every x_t = e_1 (a single direction), targets alternating in sign: WH keeps chasing."""
    rng = np.random.default_rng(seed)
    X = np.zeros((B, T, d))
    X[:, :, 0] = 1.0
    amp = rng.uniform(0.1, 5, size=(B, 1))
    y = amp * np.where(np.arange(T) % 2 == 0, 1.0, -1.0)
    eta = rng.uniform(0.001, 0.999, size=B)
    return X, y, eta


def min_bound(X, y, eta):
    """min_u (L_u/(1-eta) + ||u||^2/eta) for each stream of a batch."""
    return np.array([bounds.widrow_hoff_min(X[b], y[b], eta[b]) for b in range(X.shape[0])])


# ---------------------------------------------------------------------------------------------
# the algorithm against its own definition and against peers


def naive(X, y, eta):
    """The notes' pseudo-code, written out independently of the module."""
    w = np.zeros(X.shape[1])
    ws, losses = [w.copy()], []
    for x, yt in zip(X, y):
        yhat = sum(wi * xi for wi, xi in zip(w, x))
        losses.append((yhat - yt) ** 2)
        w = np.array([wi - eta * (yhat - yt) * xi for wi, xi in zip(w, x)])
        ws.append(w.copy())
    return np.array(ws), np.array(losses)


@pytest.mark.parametrize("d", [1, 2, 4, 5, 12])
def test_fast_path_matches_the_notes_naive_loop(d):
    """The reference class is compared in tests/test_contract.py; here an independent loop."""
    rng = np.random.default_rng(100 + d)
    for rep in range(25):
        T = int(rng.integers(1, 80))
        X = rng.standard_normal((T, d)) * rng.uniform(0.1, 2)
        y = rng.standard_normal(T) * 3
        eta = float(rng.uniform(0.01, 0.9))
        tr = linear.widrow_hoff(X, y, eta)
        W2, L2 = naive(X, y, eta)
        np.testing.assert_allclose(tr.weights, W2, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(tr.losses, L2, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(tr.extras["residual"], tr.predictions - y, rtol=0, atol=1e-12)


def test_batched_runs_match_single_runs_bit_for_bit():
    X, y, eta = random_batch(7, B=30, T=40, d=3)
    W, L = widrow_hoff_many(X, y, eta)
    for b in range(30):
        tr = linear.widrow_hoff(X[b], y[b], eta[b])
        np.testing.assert_array_equal(W[b], tr.weights)
        np.testing.assert_array_equal(L[b], tr.losses)
    # one stream, many learning rates; the losses alone without the (B, T+1, d) histories
    etas = np.linspace(0.05, 0.95, 7)
    W, L = widrow_hoff_many(X[0], y[0], etas)
    none, L2 = widrow_hoff_many(X[0], y[0], etas, history=False)
    assert none is None
    np.testing.assert_array_equal(L, L2)
    for i, e in enumerate(etas):
        np.testing.assert_array_equal(L[i], linear.widrow_hoff(X[0], y[0], e).losses)
        np.testing.assert_array_equal(W[i], linear.widrow_hoff(X[0], y[0], e).weights)


@pytest.mark.parametrize("call", [
    lambda X, y: widrow_hoff_many(X, y, [0.1, -0.2]),
    lambda X, y: widrow_hoff_many(X, y[:-1], 0.1),
    lambda X, y: widrow_hoff_many(np.where(np.arange(X.size).reshape(X.shape) == 7, np.nan, X), y, [0.1, 0.2]),
    lambda X, y: widrow_hoff_many(X[None], y[None], [0.1, 0.2]),
])
def test_batched_runs_reject_bad_input(call):
    X, y, _ = random_batch(3, B=1, T=10, d=2)
    with pytest.raises(StreamError):
        call(X[0], y[0])


def test_matches_scikit_learn_sgd_regressor():
    """DESIGN.md: SGDRegressor(squared_error, constant eta0, no penalty) is Widrow-Hoff exactly."""
    sk = pytest.importorskip("sklearn.linear_model")
    rng = np.random.default_rng(3)
    for rep in range(5):
        s = streams.regression(T=150, d=3, seed=rep, noise=0.2)
        eta = float(rng.uniform(0.05, 0.9))
        m = sk.SGDRegressor(loss="squared_error", learning_rate="constant", eta0=eta, penalty=None,
                            fit_intercept=False, shuffle=False, max_iter=1, tol=None, average=False)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m.fit(s.X, s.y)
        np.testing.assert_allclose(linear.widrow_hoff(s.X, s.y, eta).weights[-1], m.coef_, rtol=1e-8, atol=1e-10)


def test_first_round_predicts_zero_and_moves_towards_target():
    tr = linear.widrow_hoff([[0.6, 0.8]], [2.0], eta=0.5)
    assert tr.predictions[0] == 0.0 and tr.losses[0] == 4.0
    # w_2 = 0 - 0.5 * (0 - 2) * (0.6, 0.8) = (0.6, 0.8)
    np.testing.assert_allclose(tr.weights[1], [0.6, 0.8])


def test_bad_input_raises_stream_error():
    with pytest.raises(StreamError, match="eta"):
        linear.widrow_hoff([[1.0]], [1.0], eta=0.0)
    with pytest.raises(StreamError, match="X"):
        linear.widrow_hoff([[np.nan]], [1.0])
    with pytest.raises(StreamError, match="y"):
        linear.widrow_hoff([[1.0], [2.0]], [1.0])
    with pytest.raises(StreamError, match="u"):
        linear.widrow_hoff([[1.0, 0.0]], [1.0], u=[1.0, 2.0, 3.0])
    with pytest.raises(StreamError):
        WidrowHoff(0)


# ---------------------------------------------------------------------------------------------
# Theorem 1


@pytest.mark.parametrize("maker,seed,d", [(random_batch, 11, 1), (random_batch, 12, 2), (random_batch, 13, 3),
                                          (random_batch, 14, 6), (adaptive_adversary, 21, 2),
                                          (adaptive_adversary, 22, 5), (same_direction, 31, 2)])
def test_theorem1_holds_on_many_streams(maker, seed, d):
    X, y, eta = maker(seed, d=d)
    assert np.linalg.norm(X, axis=-1).max() <= 1 + 1e-12
    _, L = widrow_hoff_many(X, y, eta)
    L_wh = L.sum(axis=1)
    B = min_bound(X, y, eta)
    assert np.all(L_wh <= B * (1 + 1e-9) + 1e-9), np.max(L_wh - B)
    # ... and for every comparator, not only the best one: a random u per stream
    rng = np.random.default_rng(seed + 1000)
    U = rng.standard_normal((X.shape[0], d)) * rng.uniform(0, 3, size=(X.shape[0], 1))
    Lu = np.sum((np.einsum("btd,bd->bt", X, U) - y) ** 2, axis=1)
    Bu = Lu / (1 - eta) + np.sum(U**2, axis=1) / eta
    assert np.all(L_wh <= Bu * (1 + 1e-9) + 1e-9)


def test_theorem1_across_eta_grid_and_the_bound_is_tight():
    s = streams.regression(T=300, d=2, seed=4, noise=0.3)
    etas = np.linspace(0.01, 0.99, 99)
    _, L = widrow_hoff_many(s.X, s.y, etas)
    B = bounds.widrow_hoff_min(s.X, s.y, etas)
    assert np.all(L.sum(axis=1) <= B)
    # the bound is tight: one round with ||x|| = 1 gives L_WH = y^2 and, minimising over u = a x,
    # (a - y)^2/(1-eta) + a^2/eta is smallest at a = eta y, where it equals y^2 exactly
    for eta in (0.05, 0.5, 0.95):
        x, y = np.array([[0.6, -0.8]]), np.array([1.7])
        assert linear.widrow_hoff(x, y, eta).total_loss == pytest.approx(1.7**2)
        assert bounds.widrow_hoff_min(x, y, eta) == pytest.approx(1.7**2, rel=1e-9)


def test_bound_fails_without_the_unit_ball_assumption():
    """The theorem needs ||x_t|| <= 1: with ||x|| = 3 and eta = 0.5 WH overshoots and diverges."""
    rng = np.random.default_rng(0)
    X = 3.0 * sphere(rng, 1, 50, 2)[0]
    u = np.array([0.5, -0.2])
    y = X @ u
    tr = linear.widrow_hoff(X, y, 0.5)
    assert not bounds.check_unit_ball(X).ok
    assert tr.total_loss > bounds.widrow_hoff_min(X, y, 0.5)
    # rescaling into the ball restores it
    Xs, R = to_unit_ball(X)
    assert R == pytest.approx(3.0) and bounds.check_unit_ball(Xs).ok
    assert linear.widrow_hoff(Xs, y, 0.5).total_loss <= bounds.widrow_hoff_min(Xs, y, 0.5)


# ---------------------------------------------------------------------------------------------
# the proof: potential, per-round claim, telescoping


def batch_proof(X, y, eta, U):
    W, L = widrow_hoff_many(X, y, eta)
    D = W - U[:, None, :]
    phi = np.einsum("btd,btd->bt", D, D)
    ell = np.einsum("btd,btd->bt", W[:, :-1], X) - y
    g = np.einsum("btd,bd->bt", X, U) - y
    e = eta[:, None]
    return phi, ell, g, -e * ell**2 + e / (1 - e) * g**2, L


@pytest.mark.parametrize("maker,seed", [(random_batch, 41), (adaptive_adversary, 42), (same_direction, 43)])
def test_per_round_claim_and_telescoping(maker, seed):
    X, y, eta = maker(seed)
    Bn = X.shape[0]
    rng = np.random.default_rng(seed)
    for U in (rng.standard_normal((Bn, X.shape[2])) * 2,
              np.array([bounds.widrow_hoff_comparator(X[b], y[b], eta[b]) for b in range(Bn)])):
        phi, ell, g, claim, L = batch_proof(X, y, eta, U)
        drop = np.diff(phi, axis=1)
        scale = 1 + np.abs(drop) + np.abs(claim)
        assert np.all(drop <= claim + 1e-9 * scale)                    # the Claim, every round
        assert np.allclose(phi[:, 0], np.sum(U**2, axis=1))            # Phi_1 = ||u||^2 (w_1 = 0)
        assert np.all(phi >= 0)
        np.testing.assert_allclose(drop.sum(axis=1), phi[:, -1] - phi[:, 0], rtol=1e-9, atol=1e-8)  # (14)-(15)
        # (12)-(18): -||u||^2 <= -eta L_WH + eta/(1-eta) L_u
        lhs = -np.sum(U**2, axis=1)
        rhs = -eta * L.sum(axis=1) + eta / (1 - eta) * np.sum(g**2, axis=1)
        assert np.all(lhs <= rhs + 1e-9 * (1 + np.abs(rhs)))


def test_proof_quantities_follow_the_proof_lines():
    s = streams.regression(T=120, d=3, seed=9, noise=0.5)
    u = np.array([0.3, -1.0, 2.0])
    eta = 0.4
    q = proof_quantities(s.X, s.y, eta, u)
    tr = linear.widrow_hoff(s.X, s.y, eta, u=u)
    W = tr.weights
    # line (2): the potential's definition, computed here directly
    np.testing.assert_allclose(q["potential"], [np.sum((w - u) ** 2) for w in W], rtol=1e-12)
    # line (6) is an identity: the exact drop
    np.testing.assert_allclose(q["potential_drop"], q["exact_drop"], rtol=1e-9, atol=1e-12)
    # the claim: the drop is below its bound; the slack is what lines (7) and (10) give away
    assert np.all(q["potential_drop"] <= q["claim_bound"] + 1e-12)
    # line (10)'s slack is eta*(g/sqrt(1-eta) - ell*sqrt(1-eta))^2 when ||x|| = 1; in general the
    # total slack is at least that (line (7) only adds slack)
    ell, g = q["residual"], q["comparator_residual"]
    slack10 = eta * (g / np.sqrt(1 - eta) - ell * np.sqrt(1 - eta)) ** 2
    assert np.all(q["claim_bound"] - q["potential_drop"] >= slack10 - 1e-12)
    np.testing.assert_allclose(tr.extras["potential"], q["potential"])
    np.testing.assert_allclose(tr.extras["claim_bound"], q["claim_bound"])
    assert q["L_wh"] == pytest.approx(tr.total_loss)
    assert q["L_u"] == pytest.approx(np.sum((s.X @ u - s.y) ** 2))


def test_claim_is_tight_on_the_sphere_when_young_is_tight():
    """With ||x|| = 1 and g = (1-eta) ell (equality in ab <= (a^2+b^2)/2), the claim is an equality."""
    eta = 0.3
    x = np.array([0.6, 0.8])
    w1 = np.zeros(2)
    y = 1.0
    ell = w1 @ x - y                  # -1
    # choose u with g = u.x - y = (1 - eta) ell
    u = x * (y + (1 - eta) * ell)     # u.x = y + (1-eta) ell since ||x|| = 1
    q = proof_quantities(x[None, :], [y], eta, u)
    assert q["potential_drop"][0] == pytest.approx(q["claim_bound"][0], abs=1e-12)


def test_motivation_2_with_the_unhalved_loss_gives_the_notes_step():
    """The docstring said the squared distance needs the loss halved; with the loss as printed,
    argmin_w eta (w.x - y)^2 + ||w - w_t||^2 solves w = w_t - eta (w.x - y) x (the notes' step, implicit in w)."""
    import olcore.linear.widrow_hoff as module

    assert "(with the loss halved)" not in module.__doc__
    rng = np.random.default_rng(0)
    for _ in range(20):
        d = int(rng.integers(1, 6))
        w_t, x, y, eta = rng.standard_normal(d), rng.standard_normal(d), float(rng.standard_normal()), float(rng.uniform(0.05, 2))
        w = np.linalg.solve(np.eye(d) + eta * np.outer(x, x), w_t + eta * y * x)      # zero gradient of the objective
        np.testing.assert_allclose(w, w_t - eta * (w @ x - y) * x, atol=1e-12)
        step = WidrowHoff(d, eta=eta, update="implicit")
        step.w = w_t.copy()
        step.update(x, y)
        np.testing.assert_allclose(step.w, w, atol=1e-12)
