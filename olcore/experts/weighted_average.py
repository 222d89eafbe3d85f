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
UCL COMP0078, Online learning ("The Weighted Average Algorithm",
its theorem, the table of :math:`b = 1/\eta` and the proof).
"""

from __future__ import annotations

import numpy as np

from ..trace import Trace
from ..validate import check_int, check_param
from ..jit import kernel, njit
from ._common import LOSSES, check_loss, expert_stream, frozen, normalise_into, normalise_log, record_rounds

__all__ = ["weighted_average", "WeightedAverage"]


def _predict(v: np.ndarray, x: np.ndarray) -> np.ndarray:
    return np.clip((v * x).sum(axis=-1), 0.0, 1.0)


def weighted_average(X, y, eta: float = 1.0, loss: str = "entropic", record="every") -> Trace:
    r"""Run the Weighted Average algorithm on a whole stream (one loop compiled with numba, in the log domain).

    Parameters
    ----------
    X : array (T, n) in [0, 1]
        Expert predictions.
    y : array (T,) in [0, 1]
        Outcomes.
    eta : float, default=1.0
        Learning rate :math:`\eta > 0`.
    loss : {"entropic", "square"}, default="entropic"
    record : "every", "final" or int, default="every"
        Which rounds' weights the trace keeps: every round (the contract), the final
        weights only, or every ``record``-th round and the last (``trace.recorded_rounds``).

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
    rec = record_rounds(record, T)
    ell = lossf(y[:, None], X)                                  # (T, n), may hold +inf
    best = int(np.argmin(ell.sum(axis=0)))
    pred, logv_best, W = _rounds(X, ell, eta, best, np.arange(T + 1) if rec is None else rec)
    return Trace(losses=lossf(y, pred), predictions=pred, weight_table=frozen(W), weight_rounds=rec,
                 expert_losses=frozen(ell),
                 extras={"rel_entropy": -logv_best, "best": np.array(best)})


@njit
def _rounds(X, ell, eta, best, rec):
    r"""Weighted Average's rounds, compiled, in the log domain.

    :math:`\hat y_t = \min(1, \max(0, v_t\cdot x_t))`; :math:`\ln w_{t+1,i} = \ln w_{t,i} -
    \eta L(y_t, x_{t,i})`, kept unchanged in a round whose normaliser is 0 (every weighted
    expert had infinite loss).  Returns the predictions (T,), :math:`\ln v_{t,\text{best}}`
    (T+1,) and the weights of the rounds ``rec``.
    """
    T, n = X.shape
    logw = np.zeros(n)                               # v_1 uniform
    new = np.empty(n)
    v = np.empty(n)
    pred = np.empty(T)
    logv_best = np.empty(T + 1)
    W = np.zeros((rec.shape[0], n))
    j = 0
    log_total = normalise_into(logw, v)
    for t in range(T + 1):
        logv_best[t] = logw[best] - log_total
        if j < rec.shape[0] and rec[j] == t:
            W[j] = v
            j += 1
        if t == T:
            break
        p = 0.0
        for i in range(n):                           # yhat_t = v_t . x_t
            p += v[i] * X[t, i]
        pred[t] = min(1.0, max(0.0, p))
        for i in range(n):                           # w_{t+1,i} = w_{t,i} e^{-eta L(y_t, x_{t,i})}
            new[i] = logw[i] - eta * ell[t, i]
        lt = normalise_into(new, v)
        if lt == -np.inf:                            # normaliser 0: keep the weights
            log_total = normalise_into(logw, v)
        else:
            logw[:] = new
            log_total = lt
    return pred, logv_best, W


@kernel("weighted_average")
def _warm():
    for loss in ("entropic", "square"):
        weighted_average(np.array([[0.2, 1.0], [0.5, 0.0]]), np.array([1.0, 0.0]), 1.0, loss)


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

    def update(self, x, y) -> float:
        """Suffer :math:`L(y_t, \\hat y_t)`, then the multiplicative update, normalised (kept unchanged if
        the normaliser is 0).  Returns :math:`L(y_t, \\hat y_t)`."""
        suffered = float(LOSSES[self.loss](y, self.predict(x)))
        ell = LOSSES[self.loss](y, np.asarray(x, dtype=float))
        with np.errstate(invalid="ignore"):
            logw = self.logv - self.eta * ell
        v, log_z = normalise_log(logw)
        if np.isfinite(log_z):
            self.logv = logw - log_z
        return suffered
