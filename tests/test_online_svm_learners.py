"""Property tests of ALMA_2, the second-order Perceptron, selective sampling and bounds.svm_direction.

Theory is the oracle: ALMA's two guarantees (Gentile 2001) on thousands of seeded separable streams,
the second-order Perceptron against a naive implementation of the paper (a matrix inverse per round),
selective sampling's two structural facts, the SVM direction against a quadratic program, and the
second-order bound on many streams.  Fast path == reference class is tests/test_contract.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from olcore import StreamError, bounds, linear, streams


def _separable(seed: int):
    """A seeded separable stream: random d, T, margin; half of them ordered hardest-first (smallest margin)."""
    rng = np.random.default_rng(seed)
    d, T = int(rng.integers(1, 6)), int(rng.integers(1, 60))
    s = streams.separable(T=T, d=d, gamma=float(rng.uniform(0.01, 0.5)), seed=seed)
    X, y = s.X, s.y.astype(float)
    if rng.random() < 0.5:                            # adversarial order: the points nearest the separator first
        order = np.argsort(y * (X @ s.info["v"]))
        X, y = X[order], y[order]
    return rng, X, y


def _unit(X):
    return X / np.linalg.norm(X, axis=1, keepdims=True)


# ---- ALMA ------------------------------------------------------------------------------------

N_ALMA = 2000


def test_alma_two_guarantees_on_thousands_of_separable_streams():
    """Updates <= 2/γ²(2/α − 1)² + 8/α − 4 however long the run, and once a pass makes no update the
    margin of the final hyperplane is at least (1 − α)γ*, γ* the margin of the normalised instances."""
    converged = 0
    tight = 0.0
    for seed in range(N_ALMA):
        rng, X, y = _separable(seed)
        Xh = _unit(X)
        v, g = bounds.svm_direction(Xh, y)
        assert g > 0, seed
        alpha = float(rng.choice([1.0, 0.9, 0.5, 0.1])) if rng.random() < 0.3 else float(rng.uniform(0.05, 1))
        tr = linear.alma(X, y, alpha=alpha, epochs=min(400, max(1, 20_000 // len(X))))
        n_upd = int(tr.extras["updated"].sum())
        bound = bounds.alma_updates(g, alpha)
        assert n_upd <= bound, (seed, n_upd, bound)
        tight = max(tight, n_upd / bound)
        if not tr.extras["updated"][-len(X):].any():  # a whole pass without an update
            converged += 1
            w = tr.weights_at(tr.T)
            final = float((y * (Xh @ w)).min() / np.linalg.norm(w))
            assert final >= bounds.alma_margin(g, alpha) - 1e-12, (seed, final, (1 - alpha) * g)
    assert converged > 0.9 * N_ALMA                 # the margin guarantee was exercised
    assert tight > 0.05                             # and the update bound is not vacuous on these streams


def test_alma_normalises_instances_and_projects_onto_the_unit_ball():
    rng = np.random.default_rng(0)
    s = streams.separable(T=200, d=3, gamma=0.05, seed=1)
    X = s.X * rng.uniform(0.1, 10, size=(200, 1))    # rescaling rows changes nothing ALMA sees
    a, b = linear.alma(s.X, s.y, alpha=0.3), linear.alma(X, s.y, alpha=0.3)
    np.testing.assert_array_equal(a.mistakes, b.mistakes)
    np.testing.assert_allclose(a.weights, b.weights, rtol=1e-12, atol=1e-15)
    assert np.all(np.linalg.norm(a.weight_table, axis=1) <= 1 + 1e-12)


def test_alma_refuses_bad_parameters():
    X, y = np.eye(2), [1, -1]
    for kw in ({"alpha": 0.0}, {"alpha": 1.01}, {"B": 0.0}, {"C": -1.0}):
        with pytest.raises(StreamError):
            linear.alma(X, y, **kw)


def test_alma_agrees_with_river_on_unit_instances():
    """River's ALMAClassifier is ALMA_2 without normalising x, with a strict test y w.x < (1 − α)γ_k
    (the paper and olcore: <=).  On unit-norm instances with α < 1 (no exact ties) the two agree."""
    river_lm = pytest.importorskip("river.linear_model")
    for seed in range(40):
        rng = np.random.default_rng(seed)
        d = int(rng.integers(1, 5))
        s = streams.separable(T=int(rng.integers(1, 80)), d=d, gamma=0.05, noise=0.1, seed=seed)
        X, y = _unit(s.X), s.y
        alpha, B, C = float(rng.uniform(0.05, 0.95)), float(rng.uniform(0.5, 3)), float(rng.uniform(0.5, 2))
        tr = linear.alma(X, y, alpha=alpha, B=B, C=C)
        model = river_lm.ALMAClassifier(p=2, alpha=alpha, B=B, C=C)
        for t, (x, yt) in enumerate(zip(X, y)):
            xd = {i: float(x[i]) for i in range(d)}
            model.learn_one(xd, bool(yt == 1))
            w = np.array([model.w.get(i, 0.0) for i in range(d)])
            np.testing.assert_allclose(w, tr.weights_at(t + 1), rtol=1e-12, atol=1e-14, err_msg=f"{seed} {t}")
        assert model.k == tr.extras["k"][-1]


# ---- the second-order Perceptron -------------------------------------------------------------

def _naive_second_order(X, y, a):
    """Cesa-Bianchi, Conconi and Gentile (2005), Fig. 1, with a matrix inverse every round."""
    d = X.shape[1]
    S = np.zeros((0, d))
    v = np.zeros(d)
    scores, mistakes = [], []
    for x, yt in zip(X, y):
        St = np.vstack([S, x])                       # S_t = [S_{k-1}, x_t]
        score = float(v @ np.linalg.inv(a * np.eye(d) + St.T @ St) @ x)
        scores.append(score)
        mistakes.append(yt * score <= 0)
        if mistakes[-1]:
            v = v + yt * x
            S = St
    return np.array(scores), np.array(mistakes)


def test_second_order_matches_a_naive_implementation_of_the_paper():
    for seed in range(300):
        rng = np.random.default_rng(seed)
        d, T = int(rng.integers(1, 7)), int(rng.integers(1, 80))
        X = rng.standard_normal((T, d)) @ rng.standard_normal((d, d))
        y = np.where(rng.random(T) < 0.15, -1, 1) * np.sign(X @ rng.standard_normal(d) + 1e-300)
        a = float(np.exp(rng.uniform(-3, 3)))
        tr = linear.second_order_perceptron(X, y, a=a)
        scores, mistakes = _naive_second_order(X, y, a)
        np.testing.assert_array_equal(tr.mistakes, mistakes, err_msg=str(seed))
        np.testing.assert_allclose(tr.extras["score"], scores, rtol=1e-7, atol=1e-10, err_msg=str(seed))


def test_second_order_with_large_a_is_the_perceptron():
    """As a → ∞ the prediction sign(v^T (aI + ...)^{-1} x) becomes sign(v·x), the Perceptron's."""
    for seed in range(50):
        s = streams.separable(T=100, d=4, gamma=0.05, noise=0.1, seed=seed)
        np.testing.assert_array_equal(linear.second_order_perceptron(s.X, s.y, a=1e9).mistakes,
                                      linear.perceptron(s.X, s.y).mistakes)


def test_second_order_bound_holds_on_many_separable_streams():
    for seed in range(400):
        rng, X, y = _separable(seed)
        a = float(np.exp(rng.uniform(-3, 2)))
        tr = linear.second_order_perceptron(X, y, a=a)
        v, g = bounds.svm_direction(X, y)
        assert tr.mistakes.sum() <= bounds.second_order_perceptron(X[tr.mistakes], v / g, a=a) + 1e-9, seed


def test_second_order_bound_with_hinge_loss_holds_on_noisy_streams():
    for seed in range(200):
        rng = np.random.default_rng(seed)
        s = streams.separable(T=int(rng.integers(5, 100)), d=int(rng.integers(1, 5)), gamma=0.1, noise=0.2, seed=seed)
        X, y = s.X, s.y.astype(float)
        u = s.info["v"] / 0.1
        tr = linear.second_order_perceptron(X, y, a=1.0)
        L = float(np.maximum(0, 1 - y * (X @ u)).sum())
        assert tr.mistakes.sum() <= bounds.second_order_perceptron(X[tr.mistakes], u, a=1.0, loss_u=L) + 1e-9


# ---- selective sampling ----------------------------------------------------------------------

def test_selective_sampling_never_updates_on_an_unqueried_round():
    seen_skips = 0
    for seed in range(300):
        rng = np.random.default_rng(seed)
        s = streams.separable(T=int(rng.integers(1, 200)), d=int(rng.integers(1, 6)), gamma=0.05,
                              noise=float(rng.choice([0.0, 0.1])), seed=seed)
        tr = linear.selective_sampling(s.X, s.y, c=float(np.exp(rng.uniform(-4, 2))), a=1.0)
        q = tr.extras["queried"]
        W = tr.weights
        moved = np.any(W[1:] != W[:-1], axis=1)
        assert not np.any(moved & ~q), seed
        assert not np.any(tr.extras["updated"] & ~q), seed
        seen_skips += int((~q).sum())
    assert seen_skips > 1000


def test_selective_sampling_with_infinite_c_is_the_second_order_perceptron():
    for seed in range(100):
        s = streams.separable(T=150, d=3, gamma=0.05, noise=0.1, seed=seed)
        full = linear.second_order_perceptron(s.X, s.y, a=0.5)
        for c in (math.inf, 1e300):
            tr = linear.selective_sampling(s.X, s.y, c=c, a=0.5)
            assert tr.extras["queried"].all()
            np.testing.assert_array_equal(tr.mistakes, full.mistakes)
            np.testing.assert_array_equal(tr.weights, full.weights)


def test_selective_sampling_asks_fewer_labels_as_c_falls():
    s = streams.separable(T=500, d=3, gamma=0.1, seed=3)
    labels = [int(linear.selective_sampling(s.X, s.y, c=c).extras["queried"].sum()) for c in (10.0, 1.0, 0.1, 0.01)]
    assert labels == sorted(labels, reverse=True) and labels[-1] < labels[0]


# ---- the SVM direction ---------------------------------------------------------------------------

def _qp_svm(X, y):
    """The hard-margin SVM through the origin by a quadratic-programming solver (libsvm's, in
    scikit-learn's SVC with a linear kernel and a very large C).  SVC always fits an intercept;
    on the mirrored stream {(x_t, y_t), (−x_t, −y_t)} the optimal intercept is 0 by symmetry (if
    (u, b) is optimal so is (u, −b), and the solution is unique), and the constraints
    y_t (u·x_t) >= 1 are the same for a point and its mirror, so its u is the notes' SVM hyperplane."""
    from sklearn.svm import SVC

    Xm, ym = np.vstack([X, -X]), np.concatenate([y, -y])
    clf = SVC(kernel="linear", C=1e8, tol=1e-10, shrinking=False).fit(Xm, ym)
    assert abs(clf.intercept_[0]) < 1e-5
    return clf.coef_[0]


def test_svm_direction_matches_a_quadratic_program():
    pytest.importorskip("sklearn")
    for seed in range(150):
        rng, X, y = _separable(seed)
        if len(X) < 2:
            continue
        v, g = bounds.svm_direction(X, y)
        u = _qp_svm(X, y)
        assert (y * (X @ u)).min() >= 1 - 1e-4                     # libsvm solves to about 1e-6
        qp_margin = float((y * (X @ u)).min() / np.linalg.norm(u))    # the QP direction's exact margin
        assert g >= qp_margin - 1e-8, seed                            # ours is at least as good
        assert g == pytest.approx(1 / np.linalg.norm(u), rel=1e-4), seed
        np.testing.assert_allclose(v, u / np.linalg.norm(u), atol=1e-3, err_msg=str(seed))
        sd = bounds.svm_direction(X, y)
        assert sd.norm_u == pytest.approx(1 / g) and np.allclose(sd.u, v / g)


def test_svm_direction_of_a_non_separable_stream():
    sd = bounds.svm_direction([[1.0, 0.0], [1.0, 0.0]], [1, -1])
    assert sd.gamma <= 0 and not sd.separable and sd.norm_u == math.inf
    with pytest.raises(StreamError):
        sd.u


def test_mistake_table_rows_follow_the_notes():
    rows = bounds.mistake_table(10.0, 5)
    assert [r["bound"] for r in rows] == ["U²", "U²", "d U ln U", "d² ln U", "d ln U", "d ln U"]
    assert rows[0]["value"] == 100.0 and rows[2]["value"] == pytest.approx(5 * 10 * math.log(10))
    # exact: Novikoff's U² and Hildreth's (seed 003 proves sum m_t² <= ||u||² max ||x_t||² for its update)
    assert [r["algorithm"] for r in rows if r["exact"]] == ["Perceptron", "Hildreth"]
    with pytest.raises(StreamError):
        bounds.mistake_table(0.0, 5)
