r"""Exponentiated Gradient (EG): the multiplicative counterpart of Widrow-Hoff.

Notes
-----
Section 1.3 of Princeton COS 511, lecture 18: replace the squared Euclidean distance
of Motivation 2 by the relative entropy :math:`\mathrm{RE}(\mathbf{w}_t\,\|\,\mathbf{w}_{t+1})`
and keep :math:`\mathbf{w}` a probability vector; the update becomes multiplicative,

.. math::

    w_{t+1,i} = \frac{w_{t,i}\, e^{-\eta \frac{\partial L}{\partial w_i}
                (\mathbf{w}_t, \mathbf{x}_t, y_t)}}{Z_t},
    \qquad
    \frac{\partial L}{\partial w_i} = 2(\mathbf{w}_t\cdot\mathbf{x}_t - y_t)\,x_{t,i}

for the square loss :math:`L(\mathbf{w},\mathbf{x},y) = (\mathbf{w}\cdot\mathbf{x}-y)^2`,
with :math:`\mathbf{w}_1 = (1/n,\dots,1/n)` and :math:`Z_t` the normaliser.  The gradient
keeps its factor 2 as the notes write :math:`\partial L/\partial w_i` (Kivinen and Warmuth,
1997, use the same :math:`e^{-2\eta(\hat y_t - y_t)x_{t,i}}`); Widrow-Hoff's rule absorbs the
2 into :math:`\eta`.  So EG with rate :math:`\eta` moves like Widrow-Hoff with rate
:math:`2\eta`, to first order.

=========================  ==========================================
Additive (Euclidean)       Multiplicative (relative entropy)
=========================  ==========================================
Perceptron                 Winnow / Weighted Majority
Gradient descent (WH)      Exponentiated Gradient
=========================  ==========================================

The notes state no loss bound for EG; none is claimed here.  Weights are kept in the log
domain (log-sum-exp), so no learning rate or stream length overflows.
"""

from __future__ import annotations

import numpy as np

from ..errors import StreamError
from ..trace import Trace
from ..jit import f64, kernel, njit
from ..validate import as_labels, as_matrix, check_param

__all__ = ["exponentiated_gradient", "ExponentiatedGradient", "simplex_stream"]


def exponentiated_gradient(X, y, eta: float = 0.1) -> Trace:
    r"""Run EG with the square loss over a whole stream (the fast path).

    Parameters
    ----------
    X : array (T, n)
        Feature vectors (e.g. experts' predictions).
    y : array (T,)
        Real targets.
    eta : float, default=0.1
        Learning rate, :math:`\eta > 0`.

    Returns
    -------
    Trace
        ``losses`` (T,) :math:`(\hat y_t - y_t)^2`, ``predictions`` (T,), ``weights``
        (T+1, n), each row a probability vector (row 0 uniform), ``extras["residual"]``
        (T,) :math:`\hat y_t - y_t` and ``extras["log_weights"]`` (T+1, n), the
        normalised log-weights.

    References
    ----------
    Section 1.3 of Princeton COS 511, lecture 18.
    """
    X = as_matrix(X, "X")
    y = as_labels(y, X.shape[0], "y")
    eta = check_param(eta, "eta", 0, None, lo_open=True)
    logW, preds = _rounds(f64(X), f64(y), float(eta))
    resid = preds - y
    W = np.exp(logW)
    Z = W.sum(axis=1, keepdims=True)
    W /= Z
    logW = logW - np.log(Z)         # normalised: logsumexp of each row is 0
    return Trace(losses=resid**2, predictions=preds, weight_table=W,
                 extras={"residual": resid, "log_weights": logW})


@njit
def _rounds(X, y, eta):
    """EG's rounds, compiled, in the log domain: unnormalised log-weights (T+1, n), each row
    shifted so its maximum is 0 (so :math:`Z_t \\ge 1`, no overflow), and the predictions (T,)."""
    T, n = X.shape
    logW = np.zeros((T + 1, n))                      # w_1 uniform: log-weights 0
    preds = np.empty(T)
    for t in range(T):
        num = 0.0
        Z = 0.0
        for i in range(n):                           # yhat_t = sum_i w_i x_i / Z_t
            w = np.exp(logW[t, i])
            num += w * X[t, i]
            Z += w
        p = num / Z
        preds[t] = p
        g = eta * 2.0 * (p - y[t])                   # eta dL/dw_i = eta 2 (yhat_t - y_t) x_i
        top = -np.inf
        for i in range(n):
            logW[t + 1, i] = logW[t, i] - g * X[t, i]
            top = max(top, logW[t + 1, i])
        for i in range(n):
            logW[t + 1, i] -= top
    return logW, preds


@kernel("exponentiated_gradient")
def _warm():
    exponentiated_gradient(np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, 0.5]))


class ExponentiatedGradient:
    r"""EG one round at a time, as the notes' formula reads (the reference path).

    ::

        w_1 = (1/n, ..., 1/n)
        for t = 1..T:  predict yhat_t = w_t . x_t;  observe y_t
                       w_{t+1,i} = w_{t,i} exp(-eta dL/dw_i) / Z_t,  dL/dw_i = 2 (yhat_t - y_t) x_{t,i}

    Parameters
    ----------
    n : int
        Dimension of :math:`\mathbf{x}_t`.
    eta : float, default=0.1
    """

    def __init__(self, n: int, eta: float = 0.1) -> None:
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise StreamError.bad("n", repr(n), "a whole number >= 1")
        self.eta = check_param(eta, "eta", 0, None, lo_open=True)
        self.w = np.full(int(n), 1.0 / n)
        self.residual: float | None = None           # the last round's yhat_t - y_t

    def predict(self, x) -> float:
        """:math:`\\hat y_t = \\mathbf w_t \\cdot \\mathbf x_t`."""
        return float(np.dot(self.w, np.asarray(x, dtype=float)))

    def update(self, x, y: float) -> float:
        """Observe :math:`y_t`, update multiplicatively, return :math:`(\\hat y_t - y_t)^2`."""
        x = np.asarray(x, dtype=float)
        y_hat = self.predict(x)
        self.residual = y_hat - float(y)
        grad = 2.0 * (y_hat - float(y)) * x          # dL/dw_i
        v = self.w * np.exp(-self.eta * grad)        # w_{t,i} e^{-eta dL/dw_i}
        self.w = v / v.sum()                         # / Z_t
        return (y_hat - float(y)) ** 2


# The generator moved to olcore.streams.generators; importable here as before.
from ..streams.generators import simplex_stream  # noqa: E402
