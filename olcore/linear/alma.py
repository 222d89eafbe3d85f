r"""ALMA\ :sub:`2`: the approximate large margin algorithm (Gentile, 2001), for the Euclidean norm.

Notes
-----
The paper's ALMA\ :sub:`p`\ (α; B, C) with :math:`p = 2` (Gentile, "A new approximate maximal
margin classification algorithm", JMLR 2, 2001, Figure 1).  Parameters :math:`0 < \alpha \le 1`,
:math:`B, C > 0` (defaults :math:`B = 1/\alpha`, :math:`C = \sqrt 2`, the paper's).  Start with
:math:`\mathbf w_1 = \vec 0`, :math:`k = 1`.  In round :math:`t`, with
:math:`\hat{\mathbf x}_t = \mathbf x_t/\|\mathbf x_t\|`:

.. math::

    \hat y_t = \operatorname{sign}(\mathbf w_k\cdot\hat{\mathbf x}_t);\quad
    \text{if } y_t\,\mathbf w_k\cdot\hat{\mathbf x}_t \le (1-\alpha)\gamma_k,\ \gamma_k = \frac{B}{\sqrt k}:\quad
    \mathbf w'_k = \mathbf w_k + \eta_k y_t\hat{\mathbf x}_t,\ \eta_k = \frac{C}{\sqrt k},\quad
    \mathbf w_{k+1} = \frac{\mathbf w'_k}{\max(1, \|\mathbf w'_k\|)},\ k \leftarrow k + 1.

A zero instance stays zero (:math:`\hat{\mathbf x}_t = \vec 0`): its margin 0 is below the
threshold, so it counts as an update that leaves :math:`\mathbf w` unchanged, as the paper's
rule reads.  A score of 0 counts as a mistake.

**Where the slide differs, and what this module follows.**  The notes' slide writes the update
as :math:`\mathbf w' = \mathbf w + y_t\mathbf x_t/\sqrt k`, :math:`\mathbf w = \mathbf w'/\|\mathbf w'\|`
with the threshold :math:`c(1-\alpha)/\sqrt k`: it leaves the instance unnormalised and always
rescales to the unit sphere.  This module follows the paper (normalised instances,
:math:`\eta_k = C/\sqrt k`, projection onto the unit *ball*), because the guarantees are proved
for that algorithm; the slide's :math:`c` is the paper's :math:`B`.

**Guarantees** (the paper's Theorem 3 and Corollary 4 with :math:`p = 2`, :math:`B = 1/\alpha`,
:math:`C = \sqrt 2`): if a unit :math:`\mathbf u` has :math:`y_t\mathbf u\cdot\hat{\mathbf x}_t \ge \gamma^* > 0`
for all :math:`t`, the number of updates is at most
:math:`\frac{2}{\gamma^{*2}}\big(\frac{2}{\alpha} - 1\big)^2 + \frac{8}{\alpha} - 4`
(:func:`olcore.bounds.alma_updates`; the slide's "at most :math:`(\|\mathbf u_{SVM}\|/\alpha)^2`"
is its order), and, cycling the stream until a pass makes no update, the final hyperplane
separates with margin :math:`\min_t y_t\mathbf w\cdot\hat{\mathbf x}_t/\|\mathbf w\| \ge (1-\alpha)\gamma^*`.

References
----------
Gentile, "A new approximate maximal margin classification algorithm", JMLR (2001);
Cesa-Bianchi, On-line learning (Online approximation of SVM hyperplane: the ALMA algorithm).
"""

from __future__ import annotations

import math

import numpy as np

from .. import _sums as sums
from ..errors import StreamError
from ..jit import f64, kernel, njit
from ..trace import Trace
from ..validate import as_labels, as_matrix, check_param
from ._engine import check_epochs, dot, update_trace
from .second_order import _grow

__all__ = ["alma", "ALMA"]


def _params(alpha, B, C):
    alpha = check_param(alpha, "alpha", 0, 1, lo_open=True)
    B = 1.0 / alpha if B is None else check_param(B, "B", 0, None, lo_open=True)
    C = check_param(C, "C", 0, None, lo_open=True)
    return alpha, B, C


@njit
def _rounds(X, y, alpha, B, C, epochs):
    T, d = X.shape
    total = T * epochs
    scores = np.empty(total)
    updated = np.zeros(total, dtype=np.bool_)
    w = np.zeros(d)                                   # w_1 = 0, k = 1
    xh = np.empty(d)
    table = np.zeros((16, d))
    k = 1
    clean = 0
    for r in range(total):
        t = r % T
        if clean >= T:                                # a pass without an update: w is final
            scores[r] = scores[r - T]
            continue
        nx = math.sqrt(dot(X[t], X[t]))
        for i in range(d):                            # x^ = x / ||x||
            xh[i] = X[t, i] / nx if nx > 0 else 0.0
        s = dot(w, xh)
        scores[r] = s
        if y[t] * s <= (1.0 - alpha) * B / math.sqrt(k):
            eta = C / math.sqrt(k)
            nn = 0.0
            for i in range(d):                        # w' = w + eta y x^
                w[i] += eta * y[t] * xh[i]
                nn += w[i] * w[i]
            scale = max(1.0, math.sqrt(nn))
            for i in range(d):                        # w = w' / max(1, ||w'||)
                w[i] /= scale
            updated[r] = True
            table = _grow(table, k + 1)
            table[k] = w
            k += 1
            clean = 0
        else:
            clean += 1
    return scores, updated, table[:k].copy()


def alma(X, y, alpha: float = 0.9, B: float | None = None, C: float = 2**0.5, epochs: int = 1) -> Trace:
    r"""Run ALMA\ :sub:`2` over a stream (the fast path; the paper's algorithm, see the module notes).

    Parameters
    ----------
    X : array (T, d)
    y : array (T,) in {-1, +1}
    alpha : float, default=0.9
        :math:`0 < \alpha \le 1`: the margin aimed at is :math:`(1-\alpha)\gamma^*`.
    B : float, default=None
        :math:`\gamma_k = B/\sqrt k`; ``None`` means :math:`1/\alpha`.
    C : float, default=sqrt(2)
        :math:`\eta_k = C/\sqrt k`.
    epochs : int, default=1
        Passes over the stream (the guarantee on the final margin is for the stream cycled until
        a pass makes no update).

    Returns
    -------
    Trace
        ``mistakes`` iff :math:`y_t\mathbf w_k\cdot\hat{\mathbf x}_t \le 0`, ``predictions``
        :math:`\operatorname{sign}(\mathbf w_k\cdot\hat{\mathbf x}_t)`, weights (T+1, d).
        ``extras``: ``"score"`` (T,) :math:`\mathbf w_k\cdot\hat{\mathbf x}_t`, ``"updated"`` (T,),
        ``"k"`` (T+1,) the update counter :math:`k` before each round (1 + updates so far),
        ``"M"`` (T+1,) mistakes so far.

    Examples
    --------
    >>> tr = alma([[1.0, 0.0], [1.0, 0.0]], [1, 1], alpha=0.5)
    >>> tr.extras["updated"].tolist(), tr.weights_at(2).tolist()
    ([True, False], [1.0, 0.0])
    """
    X = as_matrix(X, "X")
    y = as_labels(y, X.shape[0], "y", (-1, 1))
    alpha, B, C = _params(alpha, B, C)
    epochs = check_epochs(epochs, X.shape[0])
    scores, updated, table = _rounds(f64(X), f64(y), alpha, B, C, epochs)
    yy = np.tile(y, epochs)
    mistakes = yy * scores <= 0
    k = np.concatenate([[1.0], 1.0 + np.cumsum(updated)])     # ALMA's update counter k before each round
    return update_trace(scores, mistakes, updated, table, {"k": k})


@kernel("alma")
def _warm():
    alma(np.array([[1.0, 0.0], [0.0, -1.0]]), np.array([1.0, 1.0]), epochs=2)


class ALMA:
    r"""ALMA\ :sub:`2`\ (α; B, C), line by line as in Gentile (2001), Figure 1 with p = 2.

    >>> m = ALMA(2, alpha=0.5)
    >>> m.update([2.0, 0.0], 1), m.updated     # margin 0 <= (1 - α) B / √1 = 1: a mistake, and an update
    (1.0, True)
    >>> m.w.tolist(), m.k             # w = √2 e1 / max(1, √2)
    ([1.0, 0.0], 2)

    Parameters
    ----------
    d : int
    alpha : float, default=0.9
    B : float, default=None (1/alpha)
    C : float, default=sqrt(2)
    """

    def __init__(self, d: int, alpha: float = 0.9, B: float | None = None, C: float = 2**0.5) -> None:
        self.alpha, self.B, self.C = _params(alpha, B, C)
        self.w = np.zeros(d)       # w_1 = 0
        self.k = 1                 # k = 1
        self.last_score: float | None = None   # the last round's w_k . x̂_t
        self.updated = False                   # whether the last round updated

    @staticmethod
    def normalise(x) -> np.ndarray:
        """:math:`\\hat{\\mathbf x} = \\mathbf x/\\|\\mathbf x\\|` (0 stays 0)."""
        x = np.asarray(x, dtype=float)
        n = math.sqrt(sums.dot(x, x))
        return x / n if n > 0 else np.zeros_like(x)

    def score(self, x) -> float:
        """:math:`\\mathbf w_k\\cdot\\hat{\\mathbf x}_t`."""
        return sums.dot(self.w, self.normalise(x))

    def predict(self, x) -> int:
        """:math:`\\hat y_t = \\operatorname{sign}(\\mathbf w_k\\cdot\\hat{\\mathbf x}_t)`."""
        return int(np.sign(self.score(x)))

    def update(self, x, y) -> float:
        """If :math:`y_t\\mathbf w_k\\cdot\\hat{\\mathbf x}_t \\le (1-\\alpha)B/\\sqrt k`: the step
        :math:`\\eta_k = C/\\sqrt k` along :math:`y_t\\hat{\\mathbf x}_t`, then back into the unit
        ball, :math:`k \\leftarrow k+1`.  Returns the round's mistake (1.0 or 0.0); ``updated``
        says whether it updated (also inside the margin band, without a mistake)."""
        y = float(y)
        if y not in (-1.0, 1.0):
            raise StreamError.bad("y", f"{y:g}", "a label in {-1, +1}")
        xh = self.normalise(x)
        self.last_score = sums.dot(self.w, xh)
        mistake = float(y * self.last_score <= 0)
        self.updated = y * self.last_score <= (1 - self.alpha) * self.B / math.sqrt(self.k)  # (1 - alpha) gamma_k
        if self.updated:
            w = self.w + (self.C / math.sqrt(self.k)) * y * xh
            self.w = w / max(1.0, math.sqrt(sums.dot(w, w, lanes=1)))
            self.k += 1
        return mistake
