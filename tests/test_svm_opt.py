"""SVM_OPT (the soft-margin objective of the stream's prefixes) and PA-I's dual ascent: the dual
increments sum below SVM_OPT, telescope to the SVM dual, and SVM_OPT matches liblinear."""

from __future__ import annotations

import numpy as np
import pytest

from olcore import StreamError, bounds, linear, streams


def _stream(rng):
    s = streams.separable(T=int(rng.integers(1, 150)), d=int(rng.integers(1, 5)),
                          gamma=float(rng.uniform(0.01, 0.4)), noise=float(rng.choice([0.0, 0.1, 0.3])),
                          seed=int(rng.integers(0, 2**31)))
    return s.X, s.y.astype(float)


def _adversarial(rng):
    """Each label is the opposite of PA-I's current prediction (a mistake every round)."""
    T, d = int(rng.integers(1, 80)), int(rng.integers(1, 4))
    X = rng.standard_normal((T, d)) * rng.uniform(0.1, 3)
    y = np.empty(T)
    for t in range(T):
        y[t] = 1.0
        tr = linear.passive_aggressive(X[:t + 1], y[:t + 1], "PA-I", C=1.0)
        y[t] = -1.0 if tr.extras["score"][t] > 0 else 1.0
    return X, y


def test_pa1_dual_increments_sum_below_svm_opt():
    rng = np.random.default_rng(11)
    gaps = []
    for i in range(1500):
        X, y = _adversarial(rng) if i % 10 == 0 else _stream(rng)
        C = float(np.exp(rng.uniform(-3, 2)))
        epochs = int(rng.integers(1, 3))
        tr = linear.passive_aggressive(X, y, "PA-I", C=C, epochs=epochs)
        D = tr.extras["dual_increment"]
        assert np.all(D >= 0)                                        # alpha_t maximises D_t over [0, C] (D_t(0) = 0)
        primal, dual = bounds.svm_opt(np.tile(X, (epochs, 1)), np.tile(y, epochs), C, certificate=True)
        assert dual <= primal * (1 + 1e-12) + 1e-12
        assert D.sum() <= primal * (1 + 1e-12) + 1e-12            # SVM_OPT <= primal: the bound itself
        gaps.append((primal - dual) / max(1.0, primal))
    assert np.median(gaps) <= 1e-6 and np.mean(np.array(gaps) <= 1e-6) > 0.9   # the solver mostly closes its gap


def test_dual_increments_telescope_to_the_svm_dual():
    """Sum_t D_t(alpha_t) = D_svm(alpha_1..alpha_T) = sum alpha - ||sum alpha_t y_t x_t||^2 / 2, with w_T = sum alpha_t y_t x_t."""
    rng = np.random.default_rng(2)
    for _ in range(200):
        X, y = _stream(rng)
        C = float(np.exp(rng.uniform(-2, 2)))
        tr = linear.passive_aggressive(X, y, "PA-I", C=C)
        sq = np.einsum("td,td->t", X, X)
        alpha = np.where(tr.losses > 0, np.minimum(C, tr.losses / np.where(sq > 0, sq, 1)), 0.0)
        w = (alpha * y) @ X
        np.testing.assert_allclose(w, tr.weights[-1], rtol=1e-9, atol=1e-12)
        assert np.all(alpha <= C)
        np.testing.assert_allclose(tr.extras["dual_increment"].sum(), alpha.sum() - 0.5 * w @ w,
                                   rtol=1e-9, atol=1e-12)


def test_only_pa1_has_dual_increments():
    X, y = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, -1.0])
    assert "dual_increment" in linear.passive_aggressive(X, y, "PA-I").extras
    assert "dual_increment" not in linear.passive_aggressive(X, y, "PA").extras


def _primal(X, y, C, u):
    return 0.5 * u @ u + C * np.maximum(0.0, 1.0 - y * (X @ u)).sum()


def test_svm_opt_matches_liblinear():
    svm = pytest.importorskip("sklearn.svm")
    rng = np.random.default_rng(7)
    for _ in range(40):
        X, y = _stream(rng)
        if len(np.unique(y)) < 2:
            continue
        C = float(np.exp(rng.uniform(-2, 1.5)))
        opt = bounds.svm_opt(X, y, C)
        m = svm.LinearSVC(loss="hinge", fit_intercept=False, C=C, tol=1e-10, max_iter=200_000).fit(X, y)
        sk = _primal(X, y, C, m.coef_[0])
        assert opt <= sk + 1e-6 * max(1.0, sk)           # never worse than liblinear's solution
        assert sk - opt <= 1e-5 * max(1.0, opt)                   # and liblinear's is as good, to its tolerance


def test_svm_opt_is_a_minimum():
    """Never above the objective at any u (random, OGD's, PA's), and within its gap of the optimum."""
    rng = np.random.default_rng(8)
    for _ in range(200):
        X, y = _stream(rng)
        C = float(np.exp(rng.uniform(-2, 2)))
        opt = bounds.svm_opt(X, y, C)
        for u in [rng.standard_normal(X.shape[1]) * s for s in (0.1, 1, 10)] + \
                 [linear.passive_aggressive(X, y, "PA-I", C=C).weights[-1]]:
            assert opt <= _primal(X, y, C, u) + 1e-12


def test_svm_opt_prefixes_and_broadcast():
    rng = np.random.default_rng(9)
    X, y = _stream(rng)
    T = len(X)
    ts = np.array([T, 0, T // 2, 1])
    curve = bounds.svm_opt(X, y, 0.7, rounds=ts)
    for t, v in zip(ts, curve):
        assert v == pytest.approx(bounds.svm_opt(X[:t], y[:t], 0.7) if t else 0.0, rel=2e-6, abs=1e-12)
    full = bounds.svm_opt(X, y, 0.7, rounds=np.arange(T + 1))
    assert np.all(np.diff(full) >= -2e-6 * full[-1])              # more rounds never lower the optimum
    Cs = np.array([0.1, 1.0, 10.0])
    vals = bounds.svm_opt(X, y, Cs)
    assert vals.shape == (3,) and np.all(np.diff(vals) >= 0)      # larger C never lowers it
    for bad in (0.0, -1.0, np.nan):
        with pytest.raises(StreamError):
            bounds.svm_opt(X, y, bad)
    with pytest.raises(StreamError):
        bounds.svm_opt(X, y, Cs, rounds=[1])
    with pytest.raises(StreamError):
        bounds.svm_opt(X, y, 1.0, rounds=[T + 1])

