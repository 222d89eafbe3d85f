"""Exponentiated gradient: fast path == reference class == the notes' formula; the simplex is kept."""

from __future__ import annotations

import numpy as np
import pytest

from olcore import StreamError, linear
from olcore.linear.eg import ExponentiatedGradient


def notes_formula(X, y, eta):
    """w_{t+1,i} = w_{t,i} exp(-eta dL/dw_i) / Z_t with L = (w.x - y)^2, written out by hand."""
    n = X.shape[1]
    w = [1.0 / n] * n
    ws, losses = [list(w)], []
    for x, yt in zip(X, y):
        yhat = sum(a * b for a, b in zip(w, x))
        losses.append((yhat - yt) ** 2)
        v = [wi * np.exp(-eta * 2 * (yhat - yt) * xi) for wi, xi in zip(w, x)]
        Z = sum(v)
        w = [vi / Z for vi in v]
        ws.append(list(w))
    return np.array(ws), np.array(losses)


def test_fast_path_matches_the_notes_formula():
    """The reference class is compared in tests/test_contract.py; here the formula written out."""
    rng = np.random.default_rng(0)
    for rep in range(30):
        T, n = int(rng.integers(1, 60)), int(rng.integers(1, 8))
        X = rng.uniform(-1, 1, size=(T, n))
        y = rng.uniform(-1, 1, size=T)
        eta = float(rng.uniform(0.01, 2.0))
        tr = linear.exponentiated_gradient(X, y, eta)
        W2, L2 = notes_formula(X, y, eta)
        np.testing.assert_allclose(tr.weights, W2, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(tr.losses, L2, rtol=1e-9, atol=1e-12)


def test_weights_stay_on_the_simplex_even_with_huge_steps():
    rng = np.random.default_rng(1)
    X = rng.uniform(-50, 50, size=(500, 6))
    y = rng.uniform(-50, 50, size=500)
    tr = linear.exponentiated_gradient(X, y, eta=10.0)
    W = tr.weights
    assert np.all(np.isfinite(W)) and np.all(W >= 0)
    np.testing.assert_allclose(W.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert np.all(np.isfinite(tr.losses))


def test_learns_a_convex_combination():
    """y = u.x with u on the simplex: EG's weights approach u and the average loss falls."""
    rng = np.random.default_rng(2)
    n = 5
    u = np.array([0.6, 0.3, 0.1, 0.0, 0.0])
    X = rng.uniform(0, 1, size=(4000, n))
    y = X @ u
    tr = linear.exponentiated_gradient(X, y, eta=1.0)
    assert np.abs(tr.weights[-1] - u).max() < 0.05
    assert tr.losses[-500:].mean() < 0.05 * tr.losses[:50].mean()


def test_first_prediction_is_the_uniform_average():
    tr = linear.exponentiated_gradient([[1.0, 0.0, 0.5]], [0.0], eta=0.3)
    assert tr.predictions[0] == pytest.approx(0.5)
    # the expert predicting 1 (gradient 2*0.5*1 = 1) loses weight by factor e^{-0.3}
    w = np.array([np.exp(-0.3), 1.0, np.exp(-0.15)]) / 3
    np.testing.assert_allclose(tr.weights[1], w / w.sum())


def test_bad_input():
    with pytest.raises(StreamError):
        linear.exponentiated_gradient([[1.0]], [1.0], eta=-1)
    with pytest.raises(StreamError):
        ExponentiatedGradient(0)
