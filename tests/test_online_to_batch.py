"""Online-to-batch by averaging: the averages, the risks, Theorem 2 and the observations of its proof."""

from __future__ import annotations

import numpy as np
import pytest

from olcore import StreamError, bounds, linear, streams
from olcore import online_to_batch as ob


def test_running_average_is_the_average_of_the_weights_used():
    s = streams.regression(T=30, d=3, seed=0)
    tr = linear.widrow_hoff(s.X, s.y, 0.3)
    V = ob.running_average(tr.weights)
    for m in (1, 2, 17, 30):
        np.testing.assert_allclose(V[m - 1], np.mean(tr.weights[:m], axis=0))  # w_1..w_m, not w_{m+1}
    np.testing.assert_allclose(ob.averaged(tr.weights), np.mean(tr.weights[:-1], axis=0))
    np.testing.assert_allclose(V[0], 0.0)  # v_1 = w_1 = 0
    # a prefix of a run is the run on the prefix
    np.testing.assert_allclose(ob.averaged(linear.widrow_hoff(s.X[:17], s.y[:17], 0.3).weights), V[16])


def test_sample_risk_is_the_mean_square_error():
    rng = np.random.default_rng(1)
    X, y = rng.standard_normal((50, 3)), rng.standard_normal(50)
    R = ob.QuadraticRisk.from_sample(X, y)
    for _ in range(10):
        v = rng.standard_normal(3)
        assert R(v) == pytest.approx(np.mean((X @ v - y) ** 2), rel=1e-10)
    V = rng.standard_normal((4, 5, 3))
    np.testing.assert_allclose(R(V), np.mean((V @ X.T - y) ** 2, axis=-1), rtol=1e-10)


def test_exact_risk_of_the_regression_stream_matches_a_large_held_out_sample():
    u = np.array([0.8, -0.6])
    R = ob.QuadraticRisk.regression_stream(u, 0.2)
    held = streams.regression(T=100_000, d=2, seed=11, noise=0.2, u=u)
    H = ob.QuadraticRisk.from_sample(held.X, held.y)
    for v in ([0, 0], [0.8, -0.6], [1, 1], [-2, 0.5]):
        # R_v = ||v - u||^2/(d+2) + sigma^2; Monte-Carlo error at n = 1e5 is ~1%
        assert R(np.array(v, float)) == pytest.approx(np.sum((np.array(v) - u) ** 2) / 4 + 0.04)
        assert H(np.array(v, float)) == pytest.approx(R(np.array(v, float)), rel=0.03)


def test_theorem2_rhs_is_the_minimum_over_u():
    rng = np.random.default_rng(2)
    X, y = rng.standard_normal((40, 3)), rng.standard_normal(40)
    R = ob.QuadraticRisk.from_sample(X, y)
    for eta, m in [(0.1, 1), (0.5, 10), (0.9, 300)]:
        u = R.minimiser(eta, m)
        val = R.theorem2(eta, m)
        assert val == pytest.approx(bounds.online_to_batch(R(u), u @ u, eta, m), rel=1e-9)
        assert val == pytest.approx(R.theorem2_for(u, eta, m), rel=1e-9)
        for _ in range(30):
            assert R.theorem2_for(u + 0.2 * rng.standard_normal(3), eta, m) >= val
    ms = np.array([1, 10, 300])
    np.testing.assert_allclose(R.theorem2(0.5, ms), [R.theorem2(0.5, int(m)) for m in ms], rtol=1e-12)
    # closed form for the regression stream: sigma^2/(1-eta) + ab/(a + b(d+2)) ||u||^2
    u = np.array([1.0, 2.0, -1.0])
    P = ob.QuadraticRisk.regression_stream(u, 0.5)
    eta, m = 0.3, 50
    a, b = 1 / (1 - eta), 1 / (eta * m)
    assert P.theorem2(eta, m) == pytest.approx(0.25 * a + a * b / (a + 5 * b) * 6.0, rel=1e-9)


@pytest.mark.parametrize("eta,noise,seed", [(0.1, 0.1, 0), (0.5, 0.3, 1), (0.9, 0.5, 2), (0.3, 0.0, 3)])
def test_theorem2_holds_in_expectation(eta, noise, seed):
    """E_S[R_v] <= min_u (R_u/(1-eta) + ||u||^2/(eta m)), with E_S estimated over 300 samples."""
    u = streams.regression(T=1, d=3, seed=seed, norm_u=1.5).info["u"]
    R = ob.QuadraticRisk.regression_stream(u, noise)
    c = ob.learning_curve(ob.regression_sampler(u, noise), R, eta, 200, repeats=300, seed=seed)
    assert np.all(c["mean_avg"] <= c["bound"] + 3 * c["se_avg"] + 1e-12)
    assert c["best_risk"] == pytest.approx(noise**2, abs=1e-12)
    assert np.all(c["bound"] >= c["best_risk"])
    # Observation 1 (Jensen) holds sample by sample: R_v <= (1/m) sum_t R_{w_t}
    X, y = ob.regression_sampler(u, noise)(200, np.random.default_rng(seed))
    W = linear.widrow_hoff(X, y, eta).weights
    Rw = R(W[:-1])
    Rv = R(ob.running_average(W))
    assert np.all(Rv <= np.cumsum(Rw) / np.arange(1, 201) + 1e-12)


def test_observation3_online_loss_estimates_risk():
    """E[(w_t.x_t - y_t)^2] = E[R_{w_t}]: w_t never saw (x_t, y_t)."""
    u = np.array([1.0, -0.5])
    noise, eta, M, reps = 0.3, 0.4, 50, 2000
    R = ob.QuadraticRisk.regression_stream(u, noise)
    rng = np.random.default_rng(5)
    sample = ob.regression_sampler(u, noise)
    X, y = map(np.stack, zip(*(sample(M, rng) for _ in range(reps))))
    from olcore.linear.widrow_hoff import widrow_hoff_many
    W, L = widrow_hoff_many(X, y, eta)
    online = L.mean(axis=0)                       # E[(w_t.x_t - y_t)^2]
    risk = R(W[:, :-1]).mean(axis=0)              # E[R_{w_t}]
    se = L.std(axis=0) / np.sqrt(reps)
    assert np.all(np.abs(online - risk) <= 4 * se + 1e-12)


def test_bootstrap_distribution_of_an_uploaded_stream():
    """D = uniform over a stream's rows: Theorem 2 holds for it, with the exact risk of D."""
    s = streams.regression(T=60, d=2, seed=8, noise=0.6)
    R = ob.QuadraticRisk.from_sample(s.X, s.y)
    c = ob.learning_curve(ob.bootstrap_sampler(s.X, s.y), R, 0.5, 100, repeats=300, seed=0)
    assert np.all(c["mean_avg"] <= c["bound"] + 3 * c["se_avg"])
    u_ls = bounds.widrow_hoff_clairvoyant(s.X, s.y)
    assert c["best_risk"] == pytest.approx(np.mean((s.X @ u_ls - s.y) ** 2), rel=1e-9)


def test_bad_arguments():
    R = ob.QuadraticRisk.regression_stream([1.0, 0.0], 0.1)
    with pytest.raises(StreamError):
        R.theorem2(1.0, 5)
    with pytest.raises(StreamError):
        R.theorem2(0.5, 0)
    with pytest.raises(StreamError):
        ob.averaged(np.zeros((1, 2)))
    with pytest.raises(StreamError):
        ob.learning_curve(ob.regression_sampler([1.0, 0.0, 0.0], 0.1), R, 0.5, 10)


@pytest.mark.parametrize("d,m,noise", [(1, 1, 0.0), (2, 500, 0.3), (5, 37, 3.0), (20, 200, 1e-3)])
def test_regression_sampler_draws_what_streams_regression_draws(d, m, noise):
    """A sample is streams.regression(T=m, seed=<the next seed from rng>, u=u, noise=noise)'s (X, y), bit for bit
    (the sampler skips building a Stream per sample, not a draw)."""
    u = streams.regression(T=1, d=d, seed=d, norm_u=2.0).info["u"]
    sample = ob.regression_sampler(u, noise)
    mine, ref = np.random.default_rng(7), np.random.default_rng(7)
    for _ in range(5):
        X, y = sample(m, mine)
        s = streams.regression(T=m, d=d, seed=int(ref.integers(2**32)), noise=noise, u=u)
        assert X.dtype == s.X.dtype == y.dtype == s.y.dtype == np.float64
        assert X.tobytes() == s.X.tobytes() and y.tobytes() == s.y.tobytes()
        assert not X.flags.writeable and not y.flags.writeable
    assert mine.integers(2**32) == ref.integers(2**32)       # both generators moved on alike


def test_regression_sampler_rejects_what_streams_regression_rejects():
    with pytest.raises(StreamError):
        ob.regression_sampler([1.0, np.nan], 0.1)
    with pytest.raises(StreamError):
        ob.regression_sampler([1.0, 0.0], -1.0)
    with pytest.raises(StreamError, match="y"), np.errstate(over="ignore"):   # y overflows: the stream's message
        ob.regression_sampler([1.0], 1e308)(50, np.random.default_rng(0))
    with pytest.raises(StreamError):
        ob.regression_sampler(np.ones(2000), 0.1)(5000, np.random.default_rng(0))   # more values than a stream holds
