r"""The second-order Perceptron (Cesa-Bianchi, Conconi and Gentile, 2005).

Notes
-----
The notes' mistake-bound table lists the "2nd order Perceptron" (bound of order
:math:`dU\ln U`, update time :math:`O(d^2)`) by name only; this module follows the paper,
Cesa-Bianchi, Conconi and Gentile, "A second-order perceptron algorithm", SIAM J. Computing
34(3), 2005 (its Figure 1).  With parameter :math:`a > 0`, after :math:`k` mistakes the
learner keeps :math:`\mathbf v_k = \sum_{s \in \mathcal M} y_s\mathbf x_s` and the correlation
matrix :math:`A_k = aI + \sum_{s\in\mathcal M}\mathbf x_s\mathbf x_s^\top` of the mistaken
instances.  In round :math:`t` it adds the current instance to the matrix and predicts

.. math::

    \hat y_t = \operatorname{sign}(\Delta_t), \qquad
    \Delta_t = \mathbf v_k^\top (A_k + \mathbf x_t\mathbf x_t^\top)^{-1}\mathbf x_t
    = \frac{\mathbf w_t\cdot\mathbf x_t}{1 + \mathbf x_t^\top A_k^{-1}\mathbf x_t},
    \qquad \mathbf w_t = A_k^{-1}\mathbf v_k,

(the second form by Sherman-Morrison; the denominator is positive, so the sign is that of
:math:`\mathbf w_t\cdot\mathbf x_t`).  On a mistake, :math:`y_t\Delta_t \le 0` (a score of 0
counts as a mistake, as for the Perceptron), :math:`\mathbf v_{k+1} = \mathbf v_k + y_t\mathbf
x_t` and :math:`A_{k+1} = A_k + \mathbf x_t\mathbf x_t^\top`.  The inverse is kept up to date
by Sherman-Morrison, :math:`O(d^2)` per round, as the paper suggests.  As
:math:`a \to \infty` the prediction becomes the Perceptron's.

**Bound** (the paper's Theorem 1, with :math:`\gamma = 1`).  For every :math:`\mathbf u`,

.. math::

    M \le L_{\mathbf u} + \sqrt{\Big(a\|\mathbf u\|^2 + \sum_{s\in\mathcal M}(\mathbf u\cdot\mathbf x_s)^2\Big)
    \sum_{i=1}^d \ln\Big(1 + \frac{\lambda_i}{a}\Big)},

with :math:`\lambda_i` the eigenvalues of :math:`\sum_{s\in\mathcal M}\mathbf x_s\mathbf x_s^\top`
and :math:`L_{\mathbf u}` the hinge loss of :math:`\mathbf u` (:func:`olcore.bounds.second_order_perceptron`).

References
----------
Cesa-Bianchi, Conconi and Gentile, "A second-order perceptron algorithm", SIAM J. Computing
(2005); Cesa-Bianchi, On-line learning (the mistake-bound table).
"""

from __future__ import annotations

import math

import numpy as np

from .. import _sums as sums
from ..errors import StreamError
from ..jit import f64, kernel, njit
from ..trace import Trace
from ..validate import as_labels, as_matrix, check_param
from ._engine import dot, update_trace

__all__ = ["second_order_perceptron", "SecondOrderPerceptron"]


def _validate(X, y, a):
    X = as_matrix(X, "X")
    y = as_labels(y, X.shape[0], "y", (-1, 1))
    a = check_param(a, "a", 0, None, lo_open=True)
    return X, y, a


@njit
def _grow(table, rows):
    """``table`` with room for at least ``rows`` rows (doubling)."""
    if rows <= table.shape[0]:
        return table
    new = np.empty((max(rows, 2 * table.shape[0]), table.shape[1]))
    new[: table.shape[0]] = table
    return new


@njit
def sop_rounds(X, y, a, c, selective):
    r"""The second-order Perceptron's rounds, compiled (selective sampling when ``selective``).

    With ``selective``, the label of round :math:`t` (1-based) is queried iff no label has
    been queried yet or :math:`|\Delta_t| \le \|\mathbf x_t\|\sqrt{c\ln t / N_t}`; only queried
    rounds can update.  Returns the scores :math:`\Delta_t`, the mistakes, the updates, the
    queries, the weight table (one row :math:`\mathbf w = A^{-1}\mathbf v` per update, first
    row 0) and the final :math:`A^{-1}`.
    """
    T, d = X.shape
    scores = np.empty(T)
    mistakes = np.zeros(T, dtype=np.bool_)
    updated = np.zeros(T, dtype=np.bool_)
    queried = np.zeros(T, dtype=np.bool_)
    Ainv = np.zeros((d, d))
    for i in range(d):
        Ainv[i, i] = 1.0 / a                         # A_0 = a I
    v = np.zeros(d)                                  # v_0 = 0
    w = np.zeros(d)                                  # w = A^{-1} v
    z = np.empty(d)
    table = np.zeros((16, d))
    K = 0
    N = 0                                            # labels queried so far
    for t in range(T):
        x = X[t]
        for i in range(d):                           # z = A^{-1} x
            s = 0.0
            for j in range(d):
                s += Ainv[i, j] * x[j]
            z[i] = s
        r = dot(x, z)                                # x^T A^{-1} x
        score = dot(w, x) / (1.0 + r)                # Delta_t = v^T (A + x x^T)^{-1} x
        scores[t] = score
        mistake = y[t] * score <= 0
        mistakes[t] = mistake
        if selective:
            if N == 0 or c == math.inf:
                ask = True
            else:
                ask = abs(score) <= math.sqrt(dot(x, x)) * math.sqrt(c * math.log(t + 1) / N)
        else:
            ask = True
        queried[t] = ask
        if ask:
            N += 1
        if ask and mistake:                          # v <- v + y x, A <- A + x x^T
            for i in range(d):
                v[i] += y[t] * x[i]
            den = 1.0 + r
            for i in range(d):                       # Sherman-Morrison
                zi = z[i] / den
                for j in range(d):
                    Ainv[i, j] -= zi * z[j]
            for i in range(d):                       # w = A^{-1} v
                s = 0.0
                for j in range(d):
                    s += Ainv[i, j] * v[j]
                w[i] = s
            updated[t] = True
            K += 1
            table = _grow(table, K + 1)
            table[K] = w
    return scores, mistakes, updated, queried, table[: K + 1].copy(), Ainv


def second_order_perceptron(X, y, a: float = 1.0) -> Trace:
    r"""Run the second-order Perceptron over a stream (the fast path).

    Parameters
    ----------
    X : array (T, d)
        Instances :math:`\mathbf x_t`.
    y : array (T,)
        Labels in :math:`\{-1, +1\}`.
    a : float, default=1.0
        The regulariser :math:`a > 0` of :math:`A_0 = aI` (large :math:`a`: the Perceptron).

    Returns
    -------
    Trace
        ``mistakes`` (mistake iff :math:`y_t\Delta_t \le 0`), ``predictions``
        :math:`\operatorname{sign}(\Delta_t)`, ``weights`` row ``t`` the vector
        :math:`\mathbf w_t = A_k^{-1}\mathbf v_k` used in round ``t`` (its sign on
        :math:`\mathbf x_t` is the prediction's; see the module notes).  ``extras``:
        ``"score"`` (T,) :math:`\Delta_t`, ``"updated"`` (T,) (= mistakes), ``"M"`` (T+1,).

    Examples
    --------
    >>> tr = second_order_perceptron([[1.0, 0.0], [0.0, 1.0], [1.0, -1.0]], [1, -1, 1])
    >>> tr.mistakes.tolist()
    [True, True, False]
    """
    X, y, a = _validate(X, y, a)
    scores, mistakes, updated, _, table, _ = sop_rounds(f64(X), f64(y), a, math.inf, False)
    return update_trace(scores, mistakes, updated, table, {})


@kernel("second_order_perceptron")
def _warm():
    second_order_perceptron(np.array([[1.0, 0.0], [0.0, -1.0]]), np.array([1.0, 1.0]))


class SecondOrderPerceptron:
    r"""The second-order Perceptron, line by line as in Cesa-Bianchi, Conconi and Gentile (2005), Fig. 1.

    >>> p = SecondOrderPerceptron(2, a=1.0)
    >>> p.update([1.0, 0.0], 1)        # score 0: a mistake; v <- v + y x, A <- A + x x^T
    1.0
    >>> round(p.score([1.0, 0.0]), 6)   # v^T (A + x x^T)^{-1} x = 1/3
    0.333333

    Parameters
    ----------
    d : int
        Dimension of the instances.
    a : float, default=1.0
        :math:`A_0 = aI`.
    """

    def __init__(self, d: int, a: float = 1.0) -> None:
        a = check_param(a, "a", 0, None, lo_open=True)
        self.a = a
        self.v = np.zeros(d)                     # v_0 = 0
        self.Ainv = np.eye(d) / a                # A_0^{-1} = I / a  (A_0 = a I)
        self.M = 0

    @property
    def w(self) -> np.ndarray:
        """:math:`\\mathbf w = A_k^{-1}\\mathbf v_k` (the prediction's sign is that of w·x)."""
        return sums.matvec(self.Ainv, self.v)

    def score(self, x) -> float:
        """:math:`\\Delta_t = \\mathbf v_k^\\top(A_k + \\mathbf x_t\\mathbf x_t^\\top)^{-1}\\mathbf x_t`
        (computed as :math:`\\mathbf w\\cdot\\mathbf x_t/(1 + \\mathbf x_t^\\top A_k^{-1}\\mathbf x_t)`)."""
        x = np.asarray(x, dtype=float)
        z = sums.matvec(self.Ainv, x)
        return sums.dot(self.w, x) / (1.0 + sums.dot(x, z))

    def predict(self, x) -> int:
        """:math:`\\hat y_t = \\operatorname{sign}(\\Delta_t)`."""
        return int(np.sign(self.score(x)))

    def update(self, x, y) -> float:
        """If :math:`y_t\\Delta_t \\le 0`: :math:`\\mathbf v \\leftarrow \\mathbf v + y_t\\mathbf x_t`,
        :math:`A \\leftarrow A + \\mathbf x_t\\mathbf x_t^\\top` (its inverse by Sherman-Morrison).
        Returns the round's mistake, 1.0 or 0.0."""
        x = np.asarray(x, dtype=float)
        y = float(y)
        if y not in (-1.0, 1.0):
            raise StreamError.bad("y", f"{y:g}", "a label in {-1, +1}")
        mistake = y * self.score(x) <= 0
        if mistake:
            z = sums.matvec(self.Ainv, x)
            self.v = self.v + y * x
            self.Ainv = self.Ainv - np.outer(z / (1.0 + sums.dot(x, z)), z)
            self.M += 1
        return float(mistake)
