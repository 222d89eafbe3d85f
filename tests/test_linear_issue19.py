"""Issue 19's core: the elimination algorithm and its n + 1 bound, SVM_OPT and PA-I's dual ascent,
conservative OGD's independence of eta, the implicit Widrow-Hoff update against a naive loop."""

from __future__ import annotations

import numpy as np
import pytest

from olcore import StreamError, bounds, linear, streams
from tests.learners import conjunction_stream


# ---- the elimination algorithm ------------------------------------------------------------------

def _conjunction(rng, T, n, k, p_force=0.5):
    X = rng.integers(0, 2, (T, n))
    idx, sign = rng.choice(n, k, replace=False), rng.integers(0, 2, k)
    force = rng.random(T) < p_force
    X[np.ix_(force, idx)] = sign
    return X, np.all(X[:, idx] == sign, axis=1).astype(int), k


def _adversary(n, rng):
    """Positives only (the empty conjunction): x0, then x0 with one bit flipped per row.  The first
    mistake leaves the n literals x0 satisfies; each flip falsifies one of them only: n + 1 mistakes."""
    x0 = rng.integers(0, 2, n)
    rows = [x0] + [np.where(np.arange(n) == i, 1 - x0, x0) for i in rng.permutation(n)]
    return np.array(rows), np.ones(n + 1, dtype=int)


def test_elimination_never_exceeds_n_plus_1_on_consistent_streams():
    rng = np.random.default_rng(19)
    reached = 0
    for _ in range(3000):
        n = int(rng.integers(1, 30))
        X, y, k = _conjunction(rng, int(rng.integers(1, 200)), n, int(rng.integers(0, n + 1)),
                               float(rng.uniform(0.2, 0.95)))
        tr = linear.conjunction_elimination(X, y)
        M = int(tr.mistakes.sum())
        assert M <= bounds.conjunction_elimination(n) and M <= n - k + 1
        assert tr.extras["m_minus"][-1] == 0                       # every mistake is on a positive
        reached += M == n - k + 1
    assert reached > 100                                           # the sharper n - k + 1 is reached often


def test_elimination_adversary_meets_the_bound():
    rng = np.random.default_rng(3)
    for n in range(1, 40):
        X, y = _adversary(n, rng)
        tr = linear.conjunction_elimination(X, y)
        assert tr.mistakes.sum() == bounds.conjunction_elimination(n) == n + 1
        np.testing.assert_array_equal(tr.extras["literals"], np.r_[2 * n, n - np.arange(n + 1)])


def test_elimination_hypothesis_contains_the_target_and_agrees_with_the_class():
    rng = np.random.default_rng(5)
    for _ in range(300):
        X, y, params = conjunction_stream(rng, False)
        tr = linear.conjunction_elimination(X, y)
        ref = linear.ConjunctionElimination(X.shape[1])
        for t, (x, yt) in enumerate(zip(X, y)):
            assert ref.predict(x) == tr.predictions[t]
            ref.update(x, yt)
            assert linear.conjunction.describe(tr.weights[t + 1]) == ref.literals()
        np.testing.assert_array_equal(tr.predictions, tr.extras["violated"] == 0)


def test_elimination_bounds_broadcast_and_validate():
    np.testing.assert_array_equal(bounds.conjunction_elimination(np.arange(1, 6)), np.arange(2, 7))
    assert isinstance(bounds.conjunction_elimination(4), float)
    for bad in (0, 1.5, -1, np.nan):
        with pytest.raises(StreamError):
            bounds.conjunction_elimination(bad)
    with pytest.raises(StreamError):
        linear.conjunction_elimination([[0, 2]], [1])
    with pytest.raises(StreamError):
        linear.conjunction_elimination([[0, 1]], [-1])


# ---- SVM_OPT and PA-I's dual ascent ---------------------------------------------------------------------

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


# ---- conservative OGD --------------------------------------------------------------------------

def test_conservative_ogd_mistakes_do_not_depend_on_eta():
    rng = np.random.default_rng(13)
    for _ in range(1000):
        X, y = _stream(rng)
        epochs = int(rng.integers(1, 4))
        runs = [linear.ogd_hinge(X, y, eta=eta, epochs=epochs, conservative=True) for eta in (0.01, 1.0, 100.0)]
        p = linear.perceptron(X, y, epochs=epochs)
        for eta, tr in zip((0.01, 1.0, 100.0), runs):
            np.testing.assert_array_equal(tr.mistakes, p.mistakes)
            np.testing.assert_array_equal(tr.weights, eta * p.weights)
        np.testing.assert_array_equal(runs[1].weights, p.weights)   # eta = 1 is the Perceptron


def test_conservative_ogd_keeps_exact_ties_at_every_eta():
    """Integer points: scores of exactly 0 are common; eta (v . x) keeps them 0 (a mistake) for every eta."""
    rng = np.random.default_rng(15)
    ties = 0
    for _ in range(500):
        T = int(rng.integers(2, 60))
        X, y = rng.integers(-2, 3, (T, 2)).astype(float), rng.choice([-1.0, 1.0], T)
        p = linear.perceptron(X, y)
        for eta in (0.01, 0.1, 0.3, 100.0, 1e-3):
            tr = linear.ogd_hinge(X, y, eta=eta, conservative=True)
            np.testing.assert_array_equal(tr.mistakes, p.mistakes)
            np.testing.assert_array_equal(tr.extras["score"] == 0, p.extras["score"] == 0)
        ties += int((p.extras["score"] == 0).sum())
    assert ties > 500


def test_plain_ogd_does_depend_on_eta():
    """The difference conservativeness makes: updating on margins below 1 makes eta matter."""
    rng = np.random.default_rng(14)
    differ = 0
    for _ in range(100):
        X, y = _stream(rng)
        a, b = (linear.ogd_hinge(X, y, eta=eta) for eta in (0.01, 100.0))
        differ += not np.array_equal(a.mistakes, b.mistakes)
    assert differ > 30


# ---- the implicit Widrow-Hoff update --------------------------------------------------------------

def test_implicit_update_agrees_with_a_naive_loop_and_solves_motivation_2():
    rng = np.random.default_rng(17)
    for _ in range(500):
        T, d = int(rng.integers(1, 60)), int(rng.integers(1, 6))
        X, y = rng.standard_normal((T, d)) * rng.uniform(0.1, 3), rng.standard_normal(T) * 2
        eta = float(10 ** rng.uniform(-2, 2))
        tr = linear.widrow_hoff(X, y, eta, update="implicit")
        w = np.zeros(d)
        for t in range(T):
            assert tr.predictions[t] == pytest.approx(w @ X[t], rel=1e-10, abs=1e-12)
            # argmin_v eta (v.x - y)^2 + ||v - w||^2: a linear system, solved directly
            v = np.linalg.solve(eta * np.outer(X[t], X[t]) + np.eye(d), w + eta * y[t] * X[t])
            r_new, r_old = v @ X[t] - y[t], w @ X[t] - y[t]
            assert abs(r_new) <= abs(r_old) + 1e-9                  # never overshoots
            w = v
            np.testing.assert_allclose(tr.weights[t + 1], w, rtol=1e-8, atol=1e-10)


def test_implicit_and_explicit_differ_only_in_the_step():
    X, y = np.array([[2.0, 0.0]]), np.array([1.0])
    e = linear.widrow_hoff(X, y, 1.0)
    i = linear.widrow_hoff(X, y, 1.0, update="implicit")
    np.testing.assert_array_equal(e.weights[-1], [2.0, 0.0])       # w + eta y x: overshoots to w.x = 4
    np.testing.assert_array_equal(i.weights[-1], [0.4, 0.0])       # ... / (1 + eta ||x||^2) = /5: w.x = 0.8
    with pytest.raises(StreamError):
        linear.widrow_hoff(X, y, 1.0, update="proximal")
    with pytest.raises(StreamError):
        linear.widrow_hoff(X, y, 0.5, u=[0.0, 0.0], update="implicit")
