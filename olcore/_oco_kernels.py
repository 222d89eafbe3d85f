"""The compiled loops of :mod:`olcore.oco` (numba ``@njit(cache=True)``), in their own module so that
editing the Python wrappers does not invalidate numba's on-disk cache.

Each loop reads like the notes' pseudo-code; :mod:`olcore.oco` validates the inputs and casts them
to C-contiguous float64 before the call, so each kernel compiles once.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(cache=True)
def _project_row(v, code, a, out):
    """Π_C(v) into ``out``: code 0 ball of radius a, 1 box [-a, a]^d, 2 probability simplex."""
    d = v.shape[0]
    if code == 0:
        s = 0.0
        for i in range(d):
            s += v[i] * v[i]
        n = math.sqrt(s)
        f = a / n if n > a else 1.0
        for i in range(d):
            out[i] = v[i] * f
    elif code == 1:
        for i in range(d):
            out[i] = min(max(v[i], -a), a)
    else:
        u = np.sort(v)[::-1]
        css = 0.0
        tau = 0.0
        for j in range(d):
            css += u[j]
            t = (css - 1.0) / (j + 1)
            if u[j] - t > 0:
                tau = t
        for i in range(d):
            out[i] = max(v[i] - tau, 0.0)


@njit(cache=True)
def _project_rows(V, code, a):
    out = np.empty_like(V)
    for t in range(V.shape[0]):
        _project_row(V[t], code, a, out[t])
    return out


@njit(cache=True)
def _loss_and_slope(code, z, y):
    """(ℓ(z, y), ∂ℓ/∂z) for the loss code at score z = θ·x."""
    if code == 0:
        m = y * z
        if m >= 0:
            e = math.exp(-m)
            return math.log1p(e), -y * e / (1.0 + e)
        e = math.exp(m)
        return -m + math.log1p(e), -y / (1.0 + e)
    if code == 1:
        m = y * z
        if m < 1.0:
            return 1.0 - m, -y
        return 0.0, 0.0
    if code == 2:
        r = z - y
        return r * r, 2.0 * r
    return y * z, y


@njit(cache=True)
def _pogd(X, y, code, eta, set_code, a):
    T, d = X.shape
    W = np.empty((T + 1, d))
    U = np.empty((T, d))
    losses = np.empty(T)
    scores = np.empty(T)
    gnorm = np.empty(T)
    _project_row(np.zeros(d), set_code, a, W[0])          # theta_1 = Pi_C(0)
    for t in range(T):
        z = 0.0
        for i in range(d):
            z += W[t, i] * X[t, i]
        val, slope = _loss_and_slope(code, z, y[t])        # suffer l_t(theta_t)
        scores[t] = z
        losses[t] = val
        g2 = 0.0
        for i in range(d):
            g = slope * X[t, i]                           # grad l_t(theta_t) = slope * x_t
            g2 += g * g
            U[t, i] = W[t, i] - eta * g                   # the gradient step
        gnorm[t] = math.sqrt(g2)
        _project_row(U[t], set_code, a, W[t + 1])          # the projection back into C
    return W, U, losses, scores, gnorm


@njit(cache=True)
def _simplex_ogd(L, eta):
    T, K = L.shape
    V = np.empty((T + 1, K))
    _project_row(np.zeros(K), 2, 0.0, V[0])               # v_1 = Pi_Delta(0) = uniform
    expected = np.empty(T)
    for t in range(T):
        s = 0.0
        for i in range(K):
            s += V[t, i] * L[t, i]                        # expected loss v_t . l_t
        expected[t] = s
        step = np.empty(K)
        for i in range(K):
            step[i] = V[t, i] - eta * L[t, i]             # gradient of v . l_t is l_t
        _project_row(step, 2, 0.0, V[t + 1])
    return V, expected
