"""The regression section of olcore.bounds against hand calculations and brute-force minimisation."""

from __future__ import annotations

import numpy as np
import pytest

from olcore import StreamError, bounds, streams


def test_widrow_hoff_formula_by_hand():
    # L_u/(1-eta) + ||u||^2/eta
    assert bounds.widrow_hoff(2.0, 3.0, 0.5) == pytest.approx(4.0 + 6.0)
    assert bounds.widrow_hoff(0.0, 1.0, 0.25) == pytest.approx(4.0)
    assert bounds.widrow_hoff(9.0, 0.0, 0.1) == pytest.approx(10.0)


@pytest.mark.parametrize("args", [(-1.0, 1.0, 0.5), (1.0, -1.0, 0.5), (1.0, 1.0, 0.0), (1.0, 1.0, 1.0),
                                  (1.0, 1.0, float("nan")), (1.0, 1.0, "0.5")])
def test_widrow_hoff_rejects_bad_arguments(args):
    with pytest.raises(StreamError):
        bounds.widrow_hoff(*args)


def test_best_eta_minimises_over_a_fine_grid():
    grid = np.linspace(1e-4, 1 - 1e-4, 200_001)
    rng = np.random.default_rng(0)
    for _ in range(30):
        L, N = rng.uniform(0, 50), rng.uniform(0.01, 20)
        vals = L / (1 - grid) + N / grid
        e = bounds.widrow_hoff_best_eta(L, N)
        assert abs(e - grid[vals.argmin()]) < 1e-3
        assert bounds.widrow_hoff(L, N, e) == pytest.approx(vals.min(), rel=1e-6)
        assert bounds.widrow_hoff_tuned(L, N) == pytest.approx(vals.min(), rel=1e-6)
    # (sqrt(L) + ||u||)^2 by hand: L = 4, ||u||^2 = 9 -> 25 at eta = 3/5
    assert bounds.widrow_hoff_best_eta(4.0, 9.0) == pytest.approx(0.6)
    assert bounds.widrow_hoff_tuned(4.0, 9.0) == pytest.approx(25.0)
    assert bounds.widrow_hoff_best_eta(0.0, 2.0) == 1.0
    assert bounds.widrow_hoff_best_eta(2.0, 0.0) == 0.0


def test_check_unit_ball_reports_where():
    X = np.array([[0.6, 0.8], [0.1, 0.2], [1.0, 1.0], [0.0, 2.0]])
    r = bounds.check_unit_ball(X)
    assert not r.ok and r.n_outside == 2 and r.first_outside == 2
    assert r.max_norm == pytest.approx(2.0)
    assert "round 3" in r.message()
    ok = bounds.check_unit_ball(X[:2])
    assert ok.ok and ok.first_outside is None and ok.max_norm == pytest.approx(1.0)
    # a vector normalised to 1 with rounding error is accepted
    v = np.array([[1 / 3, 2 / 3, 2 / 3]]) * (1 + 1e-15)
    assert bounds.check_unit_ball(v).ok


def test_clairvoyant_solves_the_normal_equations():
    s = streams.regression(T=80, d=4, seed=2, noise=0.4)
    u = bounds.widrow_hoff_clairvoyant(s.X, s.y)
    np.testing.assert_allclose(s.X.T @ s.X @ u, s.X.T @ s.y, rtol=1e-9, atol=1e-9)
    # no u has smaller loss
    rng = np.random.default_rng(0)
    Lu = np.sum((s.X @ u - s.y) ** 2)
    for _ in range(50):
        v = u + 0.1 * rng.standard_normal(4)
        assert np.sum((s.X @ v - s.y) ** 2) >= Lu


def test_comparator_and_min_agree_with_direct_ridge_and_beat_random_u():
    rng = np.random.default_rng(1)
    for rep in range(20):
        T, d = int(rng.integers(1, 60)), int(rng.integers(1, 6))
        X = rng.standard_normal((T, d))
        y = rng.standard_normal(T) * 2
        eta = float(rng.uniform(0.01, 0.99))
        lam = (1 - eta) / eta
        u_direct = np.linalg.solve(X.T @ X + lam * np.eye(d), X.T @ y)
        u = bounds.widrow_hoff_comparator(X, y, eta)
        np.testing.assert_allclose(u, u_direct, rtol=1e-8, atol=1e-10)
        objective = lambda v: np.sum((X @ v - y) ** 2) / (1 - eta) + v @ v / eta  # noqa: E731
        b = bounds.widrow_hoff_min(X, y, eta)
        assert b == pytest.approx(objective(u_direct), rel=1e-9)
        for _ in range(20):
            assert objective(u_direct + rng.standard_normal(d) * 0.3) >= b
        th = bounds.widrow_hoff_theorem(X, y, eta)
        assert th.bound == pytest.approx(b, rel=1e-9)
        assert th.loss_u == pytest.approx(np.sum((X @ u_direct - y) ** 2), rel=1e-9)


def test_min_is_vectorised_over_eta_and_optimal_eta_is_the_grid_minimum():
    s = streams.regression(T=200, d=3, seed=5, noise=0.3)
    grid = np.linspace(0.001, 0.999, 999)
    vals = bounds.widrow_hoff_min(s.X, s.y, grid)
    for i in (0, 500, 998):
        assert vals[i] == pytest.approx(bounds.widrow_hoff_min(s.X, s.y, grid[i]))
    eta, b = bounds.widrow_hoff_optimal_eta(s.X, s.y)
    assert b <= vals.min() + 1e-9 and b >= vals.min() - 1e-2 * vals.min()
    assert abs(eta - grid[vals.argmin()]) < 2e-3
    # min over eta and u = min over u of (sqrt(L_u) + ||u||)^2, checked at the optimal u
    u = bounds.widrow_hoff_comparator(s.X, s.y, eta)
    L = np.sum((s.X @ u - s.y) ** 2)
    assert b == pytest.approx(bounds.widrow_hoff_tuned(L, u @ u), rel=1e-6)


def test_noise_free_stream_bound_tends_to_norm_u_squared():
    """y = u.x exactly and T >= d: min_u L_u = 0, so B(eta) -> ||u||^2 as eta -> 1."""
    s = streams.regression(T=100, d=2, seed=3, noise=0.0, norm_u=2.0)
    assert bounds.widrow_hoff_min(s.X, s.y, 0.999999) == pytest.approx(4.0, rel=1e-4)


def test_online_to_batch_formula():
    # R_u/(1-eta) + ||u||^2/(eta m)
    assert bounds.online_to_batch(0.5, 2.0, 0.5, 10) == pytest.approx(1.0 + 0.4)
    with pytest.raises(StreamError):
        bounds.online_to_batch(0.5, 2.0, 0.5, 0)
    with pytest.raises(StreamError):
        bounds.online_to_batch(0.5, 2.0, 1.5, 3)


def test_prefix_min_is_the_bound_of_each_prefix_and_holds_for_every_prefix():
    from olcore import linear
    s = streams.regression(T=120, d=3, seed=6, noise=0.5)
    rounds = np.array([120, 1, 2, 3, 60, 119, 5])
    got = bounds.widrow_hoff_prefix_min(s.X, s.y, 0.35, rounds)
    want = [bounds.widrow_hoff_min(s.X[:t], s.y[:t], 0.35) for t in rounds]
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)
    all_t = np.arange(1, 121)
    curve = bounds.widrow_hoff_prefix_min(s.X, s.y, 0.35, all_t)
    assert np.all(np.diff(curve) >= -1e-12)  # adding a round never lowers min_u of a sum of non-negatives
    assert np.all(linear.widrow_hoff(s.X, s.y, 0.35).cumulative_loss <= curve + 1e-12)
    with pytest.raises(StreamError):
        bounds.widrow_hoff_prefix_min(s.X, s.y, 0.35, [0])


@pytest.mark.parametrize("T,d", [(1, 1), (40, 2), (7, 30), (300, 100), (120, 5)])
def test_a_spectrum_passed_on_gives_the_same_numbers_as_one_computed_inside(T, d):
    """widrow_hoff_spectrum(X, y) passed as spectrum= changes nothing, bit for bit (tall and wide X)."""
    s = streams.regression(T=T, d=d, seed=T + d, noise=0.4, norm_u=2.0)
    X, y = s.X, s.y
    spec = bounds.widrow_hoff_spectrum(X, y)
    etas = np.round(np.linspace(0.01, 0.99, 99), 4)
    assert bounds.widrow_hoff_min(X, y, etas, spectrum=spec).tobytes() == bounds.widrow_hoff_min(X, y, etas).tobytes()
    assert bounds.widrow_hoff_optimal_eta(X, y, spectrum=spec) == bounds.widrow_hoff_optimal_eta(X, y)
    for eta in (0.01, 0.3, 0.99):
        assert (bounds.widrow_hoff_comparator(X, y, eta, spectrum=spec).tobytes()
                == bounds.widrow_hoff_comparator(X, y, eta).tobytes())
        a, b = bounds.widrow_hoff_theorem(X, y, eta, spectrum=spec), bounds.widrow_hoff_theorem(X, y, eta)
        assert (a.bound, a.loss_u, a.norm_u_sq, a.u.tobytes()) == (b.bound, b.loss_u, b.norm_u_sq, b.u.tobytes())

