r"""The Weighted Average algorithm (exponential weights, predictions in [0, 1]).

Notes
-----
Expert :math:`i` has weight :math:`w_{t,i} = e^{-\eta L_{t,i}}`, :math:`L_{t,i}` its
cumulative loss before trial :math:`t`; with :math:`v_t = w_t / \sum_j w_{t,j}` the master
predicts the weighted average and updates multiplicatively:

.. math::

    \hat y_t = v_t \cdot x_t, \qquad
    v_{t+1,i} = \frac{v_{t,i}\, e^{-\eta L(y_t, x_{t,i})}}{\sum_{j} v_{t,j}\, e^{-\eta L(y_t, x_{t,j})}} .

**Theorem** (UCL notes).  For all :math:`(x_t, y_t) \in [0,1]^n \times [0,1]`,

.. math::

    L_{WA}(S) - \min_i L_i(S) \le \frac{1}{\eta} \ln n

for the entropic loss :math:`L_{en}(y,\hat y) = y\ln\frac{y}{\hat y} + (1-y)\ln\frac{1-y}{1-\hat y}`
with :math:`\eta = 1` and the square loss :math:`L_{sq} = (y-\hat y)^2` with
:math:`\eta = 1/2`.  The notes state it at those rates; it holds for every smaller
:math:`\eta` too (both losses are :math:`\eta`-exp-concave there, [KW99]), which the
property tests check.  For the entropic loss at :math:`\eta = 1` the proof is an
*equality* per round, :math:`L_{en}(y_t,\hat y_t) - u\cdot\ell_t = d(u, v_t) - d(u, v_{t+1})`,
with :math:`d(u,v) = \sum_i u_i \ln\frac{u_i}{v_i}` the relative entropy; it telescopes.

An expert whose entropic loss is :math:`+\infty` (advice 0 when :math:`y = 1`) gets
weight 0.  If every expert still weighted has infinite loss the update's normaliser is
0; then the weights are kept (the notes leave this case undefined).

References
----------
``seeds/000_8a17f779656f0ef2.txt`` (UCL COMP0078, "The Weighted Average Algorithm",
its theorem, the table of :math:`b = 1/\eta` and the proof).
"""

from __future__ import annotations

import numpy as np

from ..trace import Trace
from ..validate import check_int, check_param
from ._common import LOSSES, check_loss, expert_stream, normalise_log

__all__ = ["weighted_average", "WeightedAverage"]


def _predict(v: np.ndarray, x: np.ndarray) -> np.ndarray:
    return np.clip((v * x).sum(axis=-1), 0.0, 1.0)


def weighted_average(X, y, eta: float = 1.0, loss: str = "entropic") -> Trace:
    r"""Run the Weighted Average algorithm on a whole stream (vectorised fast path).

    Parameters
    ----------
    X : array (T, n) in [0, 1]
        Expert predictions.
    y : array (T,) in [0, 1]
        Outcomes.
    eta : float, default=1.0
        Learning rate :math:`\eta > 0`.
    loss : {"entropic", "square"}, default="entropic"

    Returns
    -------
    Trace
        ``predictions`` :math:`\hat y_t` (T,), ``losses`` :math:`L(y_t, \hat y_t)` (T,),
        ``weights`` (T+1, n) the normalised :math:`v_t`, ``expert_losses``
        :math:`L(y_t, x_{t,i})` (T, n) and ``extras``: ``rel_entropy`` (T+1,)
        :math:`d(u, v_t) = -\ln v_{t,i^*}` for :math:`u = e_{i^*}`, :math:`i^*` the best expert
        in hindsight (lowest index on ties), and ``best`` (the index :math:`i^*`).
    """
    X, y = expert_stream("experts01", X, y)
    eta = check_param(eta, "eta", 0.0, None, lo_open=True)
    lossf = LOSSES[check_loss(loss)]
    T, n = X.shape
    ell = lossf(y[:, None], X)                                  # (T, n), may hold +inf
    mn = ell.min(axis=1, keepdims=True)
    with np.errstate(invalid="ignore"):
        shifted = np.where(np.isfinite(mn), ell - np.where(np.isfinite(mn), mn, 0.0), 0.0)
    S = np.zeros((T + 1, n))
    np.cumsum(shifted, axis=0, out=S[1:])
    with np.errstate(invalid="ignore"):
        logw = -eta * S
    v, log_total = normalise_log(logw)
    if not np.isfinite(log_total).all():
        return _run_reference(X, y, eta, loss)             # some round's normaliser was 0
    with np.errstate(invalid="ignore"):
        logv = logw - log_total[:, None]
    return _trace(X, y, v, logv, ell, lossf)


def _trace(X, y, v, logv, ell, lossf) -> Trace:
    pred = _predict(v[:-1], X)
    losses = lossf(y, pred)
    best = int(np.argmin(ell.sum(axis=0)))
    return Trace(losses=losses, predictions=pred, weight_table=v, expert_losses=ell,
                 extras={"rel_entropy": -logv[:, best], "best": np.array(best)})


def _run_reference(X, y, eta, loss) -> Trace:
    wa = WeightedAverage(X.shape[1], eta, loss)
    V = [wa.weights]
    L = [wa.logv]
    for x_t, y_t in zip(X, y):
        wa.update(x_t, y_t)
        V.append(wa.weights)
        L.append(wa.logv)
    lossf = LOSSES[loss]
    return _trace(X, y, np.array(V), np.array(L), lossf(y[:, None], X), lossf)


class WeightedAverage:
    r"""Weighted Average, one round at a time (reference path; mirrors the WA algorithm box).

    Holds :math:`\ln v_t` and applies
    :math:`v_{t+1,i} = v_{t,i} e^{-\eta L(y_t,x_{t,i})} / \sum_j v_{t,j} e^{-\eta L(y_t,x_{t,j})}`.

    Parameters
    ----------
    n : int
    eta : float, default=1.0
    loss : {"entropic", "square"}, default="entropic"
    """

    def __init__(self, n: int, eta: float = 1.0, loss: str = "entropic") -> None:
        self.n = check_int(n, "n", 1)
        self.eta = check_param(eta, "eta", 0.0, None, lo_open=True)
        self.loss = check_loss(loss)
        self.logv = np.full(self.n, -np.log(self.n))       # v_1 = (1/n, ..., 1/n)

    @property
    def weights(self) -> np.ndarray:
        return np.exp(self.logv)

    def predict(self, x) -> float:
        r""":math:`\hat y_t = v_t \cdot x_t`."""
        return float(_predict(self.weights, np.asarray(x, dtype=float)))

    def update(self, x, y) -> None:
        """The multiplicative update, normalised (kept unchanged if the normaliser is 0)."""
        ell = LOSSES[self.loss](y, np.asarray(x, dtype=float))
        with np.errstate(invalid="ignore"):
            logw = self.logv - self.eta * ell
        v, log_z = normalise_log(logw)
        if np.isfinite(log_z):
            self.logv = logw - log_z
