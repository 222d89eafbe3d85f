"""The implicit Widrow-Hoff update agrees with a naive loop and differs from the explicit one only in
its step."""

from __future__ import annotations

import numpy as np
import pytest

from olcore import StreamError, linear


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
