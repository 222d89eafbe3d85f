r"""Winnow (Littlestone), as in the CMU 16-831 notes: learning a disjunction multiplicatively.

Notes
-----
Attributes :math:`\mathbf{x}_t \in \{0,1\}^N`, labels :math:`y_t \in \{0,1\}`, weights
:math:`\mathbf{w}^{(1)} = (1, \dots, 1)`, threshold :math:`\theta` (the notes use
:math:`\theta = N`) and factor :math:`\alpha = 1 + \beta` (the notes use :math:`\alpha = 2`):

.. math::

    \hat y_t = \mathbf{1}[\langle \mathbf{w}^{(t)}, \mathbf{x}^{(t)} \rangle > \theta],
    \qquad
    w_i^{(t+1)} = w_i^{(t)}\, \alpha^{(y_t - \hat y_t)\, x_i^{(t)}} .

So a missed positive multiplies the weights of the active attributes by :math:`\alpha`
(promotion), a false positive divides them by :math:`\alpha` (demotion), and a correct
prediction changes nothing.  A score exactly equal to :math:`\theta` predicts 0 (the
notes' strict ">").

**Bound.** If the labels are a monotone disjunction of :math:`k` of the :math:`N`
attributes, :math:`\alpha = 2` and :math:`\theta = N`, the number of mistakes satisfies
:math:`m = m^+ + m^- < 2 + 3k(\log_2 N + 1)`.  Proof: the potential
:math:`\Phi = \sum_i w_i` starts at :math:`N`, grows by at most :math:`N` on a positive
mistake and shrinks by more than :math:`N/2` on a negative one, and stays positive,
so :math:`m^- < 2 + 2m^+`; a relevant weight is promoted only while it is at most
:math:`N`, so :math:`m^+ \le k(\log_2 N + 1)`.

**Departure from the notes.** The notes write :math:`m^+ < \log_2 N + 1` per relevant
weight and :math:`m^+ < k(\log_2 N + 1)` (their equations 29-30).  That strict inequality
fails when :math:`N` is a power of 2: a relevant weight can be exactly :math:`2^j = N` when
it is promoted (the score is then :math:`N`, not :math:`> N`, so Winnow predicts 0), which
is its :math:`(\log_2 N + 1)`-th promotion.  So this module (and the page) uses
:math:`m^+ \le k(\log_2 N + 1)`; the final bound :math:`m < 2 + 3k(\log_2 N + 1)` stays
strict because :math:`m^- < 2 + 2m^+` is strict.

References
----------
CMU 16-831, Online linear classification, section 4 (Algorithm 4, equations 19-32).
"""

from __future__ import annotations

import numpy as np

from .. import _sums as sums
from ..errors import StreamError
from ..trace import Trace
from ..validate import as_binary_matrix, as_labels, check_param
from ..jit import f64, kernel, njit
from ._engine import check_epochs, dot, check_record, update_index, weight_record

__all__ = ["winnow", "Winnow"]


def _params(alpha, theta, N):
    alpha = check_param(alpha, "alpha", 1, None, lo_open=True)
    theta = float(N) if theta is None else check_param(theta, "theta", 0, None, lo_open=True)
    return alpha, theta


def winnow(X, y, alpha: float = 2.0, theta: float | None = None, epochs: int = 1,
           record: str = "every") -> Trace:
    r"""Run Winnow over a stream of boolean attributes (the fast path).

    One plain loop over the rounds, compiled with numba; Winnow is conservative, so the
    weights are stored only when they change (on a mistake).

    Parameters
    ----------
    X : array (T, N) of 0/1
    y : array (T,) of 0/1
    alpha : float, default=2.0
        Promotion factor :math:`\alpha = 1 + \beta > 1`.
    theta : float, default=None
        Threshold; ``None`` means :math:`N`, the number of attributes.
    epochs : int, default=1
        Number of passes over the stream.
    record : {"every", "final"}, default="every"
        Which weights the trace keeps: every round's, or only the first and the final
        (``trace.recorded_rounds = [0, T]``; the extras are the same).

    Returns
    -------
    Trace
        ``losses``/``mistakes`` (0/1), ``predictions`` in {0, 1}, weights (T+1, N).
        ``extras`` (each (T+1,), value before round ``t``): ``"m_plus"``,
        ``"m_minus"`` (mistakes on positives / negatives so far), ``"potential"``
        :math:`\Phi_t = \sum_i w_i` and ``"potential_upper"``
        :math:`N + (\alpha-1)\theta m^+_t - (1 - 1/\alpha)\theta m^-_t`, the upper bound
        the proof maintains; ``"score"`` (T,) :math:`\mathbf{w}_t \cdot \mathbf{x}_t`.

    References
    ----------
    CMU 16-831, Online linear classification, section 4.4.
    """
    X = as_binary_matrix(X, "X")                 # int8: the loop reads 1 byte per attribute
    T, N = X.shape
    y = as_labels(y, T, "y", (0, 1))
    alpha, theta = _params(alpha, theta, N)
    epochs = check_epochs(epochs, T)

    record = check_record(record)
    scores, mistakes, rows, expo, potential, w = _rounds(X, f64(y), float(alpha), float(theta), epochs)
    w0 = np.ones(N)
    table, index, rounds = weight_record(record, mistakes, w0, w,
                                         lambda: _replay(X, rows, expo, float(alpha), w0))
    M = update_index(mistakes)
    yy = np.tile(y, epochs) if epochs > 1 else y
    pos_mistake = mistakes & (yy == 1)
    m_plus = np.concatenate([[0], np.cumsum(pos_mistake)]).astype(float)
    m_minus = M - m_plus
    potential = potential[:rows.size + 1][M]
    upper = N + (alpha - 1) * theta * m_plus - (1 - 1 / alpha) * theta * m_minus
    return Trace(
        losses=mistakes.astype(float),
        predictions=(scores > theta).astype(np.int8),
        weight_table=table,
        weight_index=index,
        weight_rounds=rounds,
        mistakes=mistakes,
        extras={"m_plus": m_plus, "m_minus": m_minus, "potential": potential,
                "potential_upper": upper, "score": scores},
    )


@njit
def _rounds(X, y, alpha, theta, epochs):
    """Winnow's rounds, compiled.

    Returns the scores (T*epochs,), the mistakes (bool), the row and the exponent
    :math:`y_t - \\hat y_t` of each mistake, the potential :math:`\\sum_i w_i` after 0, 1, ...
    mistakes and the final weights.
    """
    T, N = X.shape
    total = T * epochs
    scores = np.empty(total)
    mistakes = np.zeros(total, dtype=np.bool_)
    rows = np.empty(total, dtype=np.int64)
    expo = np.empty(total)
    potential = np.empty(total + 1)
    w = np.ones(N)                                   # w^(1) = (1, ..., 1)
    potential[0] = N
    M = 0
    clean = 0                                        # rounds since the last mistake
    for r in range(total):
        t = r % T
        if clean >= T:                               # a whole pass without a mistake
            scores[r] = scores[r - T]
            continue
        s = dot(w, X[t])                             # s = <w, x>
        scores[r] = s
        yhat = 1.0 if s > theta else 0.0             # yhat = 1[<w, x> > theta]
        if yhat != y[t]:                             # w_i <- w_i alpha^((y - yhat) x_i)
            e = y[t] - yhat
            f = alpha ** e                           # alpha^(e x_i): alpha^e where x_i = 1, exactly 1 where 0
            phi = 0.0
            for i in range(N):
                if X[t, i] != 0:
                    w[i] = w[i] * f
                phi += w[i]
            mistakes[r] = True
            rows[M] = t
            expo[M] = e
            M += 1
            potential[M] = phi
            clean = 0
        else:
            clean += 1
    return scores, mistakes, rows[:M].copy(), expo[:M].copy(), potential, w


@njit
def _replay(X, rows, expo, alpha, w0):
    """Winnow's weight table: ``table[0] = w0``, row k+1 = row k times :math:`\\alpha^{e_k x_{t_k}}`."""
    K = rows.shape[0]
    N = X.shape[1]
    table = np.empty((K + 1, N))
    table[0] = w0
    for k in range(K):
        t = rows[k]
        f = alpha ** expo[k]                         # as in _rounds: one power per mistake
        for i in range(N):
            table[k + 1, i] = table[k, i] * f if X[t, i] != 0 else table[k, i]
    return table


@kernel("winnow")
def _warm():
    winnow(np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, 0.0]), epochs=2)


class Winnow:
    r"""Winnow, line by line as Algorithm 4 of CMU 16-831, Online linear classification.

    >>> wn = Winnow(4)                  # theta = N = 4
    >>> wn.update([1, 1, 0, 0], 1)      # score 2 <= 4: predicted 0, a mistake; promote x1, x2
    1.0
    >>> wn.w.tolist()
    [2.0, 2.0, 1.0, 1.0]

    Parameters
    ----------
    N : int
        Number of attributes.
    alpha : float, default=2.0
    theta : float, default=None (means N)
    """

    def __init__(self, N: int, alpha: float = 2.0, theta: float | None = None) -> None:
        self.alpha, self.theta = _params(alpha, theta, N)
        self.w = np.ones(N)  # 1: w^(1) = (1, ..., 1)

    def score(self, x) -> float:
        """:math:`\\langle w, x\\rangle` (summed in the compiled loop's order)."""
        return sums.dot(self.w, x)

    def predict(self, x) -> int:
        """4: :math:`\\hat y = \\mathbf{1}[\\langle w, x\\rangle > \\theta]`."""
        return int(self.score(x) > self.theta)

    def update(self, x, y) -> float:
        """6: :math:`w_i \\leftarrow w_i\\,\\alpha^{(y - \\hat y) x_i}`; returns the mistake, 1.0 or 0.0."""
        x = np.asarray(x, dtype=float)
        y = float(y)
        if y not in (0.0, 1.0):
            raise StreamError.bad("y", f"{y:g}", "a label in {0, 1}")
        yhat = 1.0 if self.score(x) > self.theta else 0.0
        if yhat != y:                    # w_i <- w_i alpha^((y - yhat) x_i), x_i in {0, 1}: one power, as the loop
            self.w = np.where(x != 0, self.w * self.alpha ** (y - yhat), self.w)
        return float(yhat != y)
