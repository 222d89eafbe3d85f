r"""The elimination algorithm for conjunctions over :math:`\{0,1\}^n` (UCL COMP0078, Problems 1.1).

Notes
-----
A *literal* is an attribute :math:`x_i` or its negation :math:`\bar x_i`; a :math:`k`-literal
conjunction is true iff its :math:`k` literals all are.  The learner keeps a set
:math:`H_t` of literals and predicts their conjunction:

.. math::

    H_1 = \{x_1, \bar x_1, \dots, x_n, \bar x_n\}, \qquad
    \hat y_t = \mathbf 1[\text{every literal of } H_t \text{ is true on } \mathbf x_t],

and on a mistake on a positive example (:math:`y_t = 1`, :math:`\hat y_t = 0`) it drops every
literal of :math:`H_t` that :math:`\mathbf x_t` falsifies.  Otherwise :math:`H_{t+1} = H_t`.

**Bound.** If the labels are a conjunction :math:`c` of literals, the learner makes at most
:math:`n + 1` mistakes.  Proof: a literal of :math:`c` is true on every positive example, so it
is never dropped and :math:`H_t \supseteq c`; hence :math:`\hat y_t = 1` implies :math:`y_t = 1`
and every mistake is on a positive example.  :math:`H_1` holds both :math:`x_i` and
:math:`\bar x_i`, so it predicts 0 until the first mistake, which drops exactly :math:`n`
literals (one of each pair); each later mistake drops at least one more, and at most :math:`n`
literals remain to drop, so :math:`M \le 1 + n` (in fact :math:`M \le 1 + n - k`).  The notes ask
for :math:`O(n^2)`; this gives :math:`n + 1` (:func:`olcore.bounds.conjunction_elimination`).

On a stream no conjunction labels, a mistake on a negative example leaves :math:`H_t` as it is
(the notes' algorithm has no rule for it); the bound then need not hold.

References
----------
UCL COMP0078, Online learning, Problems 1.1; the elimination algorithm is Valiant's (A theory
of the learnable, 1984), also in Littlestone (1988).
"""

from __future__ import annotations

import numpy as np

from ..errors import StreamError
from ..trace import Trace
from ..validate import as_labels, as_matrix, check_binary
from ..jit import f64, kernel, njit
from ._engine import weight_record

__all__ = ["conjunction_elimination", "ConjunctionElimination", "describe", "BOTH"]

#: The code of an attribute whose two literals :math:`x_i` and :math:`\bar x_i` are both in :math:`H_t`.
BOTH = 2.0


def describe(w) -> list[str]:
    r"""The literals of a hypothesis coded per attribute (``BOTH``, 1: :math:`x_i`, -1: :math:`\bar x_i`, 0: none)."""
    out = []
    for i, c in enumerate(np.asarray(w, dtype=float)):
        if c == BOTH or c == 1:
            out.append(f"x{i + 1}")
        if c == BOTH or c == -1:
            out.append(f"¬x{i + 1}")
    return out


def _literals(c: np.ndarray) -> np.ndarray:
    """:math:`|H|` of coded hypotheses (rows)."""
    return np.where(c == BOTH, 2, np.abs(c)).sum(axis=-1)


def conjunction_elimination(X, y) -> Trace:
    r"""Run the elimination algorithm over a stream (the fast path).

    One plain loop over the rounds, compiled with numba; the hypothesis changes only on a
    mistake on a positive example and is stored only then.

    Parameters
    ----------
    X : array (T, n) of 0/1
    y : array (T,) of 0/1

    Returns
    -------
    Trace
        ``losses``/``mistakes`` (0/1), ``predictions`` in {0, 1}; weights (T+1, n): the
        hypothesis :math:`H_t` coded per attribute, :math:`w_i = 2` (``BOTH``) when
        :math:`x_i, \bar x_i \in H_t`, :math:`1` when only :math:`x_i`, :math:`-1` when only
        :math:`\bar x_i`, :math:`0` when neither (:func:`describe` lists them).  ``extras``:
        ``"violated"`` (T,) the number of literals of :math:`H_t` false on :math:`\mathbf x_t`
        (predict 1 iff 0); ``"literals"`` (T+1,) :math:`|H_t|`; ``"m_plus"``, ``"m_minus"``
        (T+1,) mistakes on positives / negatives so far.

    References
    ----------
    UCL COMP0078, Online learning, Problems 1.1.
    """
    X = check_binary(as_matrix(X, "X"), "X")
    T, n = X.shape
    y = as_labels(y, T, "y", (0, 1))
    Xc = f64(X)
    violated, mistakes, updated, h = _rounds(Xc, f64(y))
    rows = np.flatnonzero(updated)
    h0 = np.full(n, BOTH)
    table, index, rounds = weight_record("every", updated, h0, h, lambda: _replay(Xc, rows, h0))
    m_plus = np.concatenate([[0.0], np.cumsum(mistakes & (y == 1))])
    m_minus = np.concatenate([[0.0], np.cumsum(mistakes & (y == 0))])
    return Trace(
        losses=mistakes.astype(float),
        predictions=(violated == 0).astype(np.int8),
        weight_table=table,
        weight_index=index,
        weight_rounds=rounds,
        mistakes=mistakes,
        extras={"violated": violated.astype(float), "literals": _literals(table).astype(float)[index],
                "m_plus": m_plus, "m_minus": m_minus},
    )


@njit
def _eliminate(c, x):
    """Drop from the coded hypothesis ``c`` (in place) every literal ``x`` falsifies."""
    for i in range(c.shape[0]):
        if c[i] == 2.0:                              # both literals: keep the one x satisfies
            c[i] = 1.0 if x[i] == 1.0 else -1.0
        elif (c[i] == 1.0 and x[i] == 0.0) or (c[i] == -1.0 and x[i] == 1.0):
            c[i] = 0.0


@njit
def _rounds(X, y):
    """The elimination algorithm's rounds, compiled: violated literals (T,), mistakes, updates
    (bool, T) and the final coded hypothesis (n,)."""
    T, n = X.shape
    c = np.full(n, 2.0)                              # H_1: every literal x_i and not-x_i
    violated = np.zeros(T, dtype=np.int64)
    mistakes = np.zeros(T, dtype=np.bool_)
    updated = np.zeros(T, dtype=np.bool_)
    for t in range(T):
        v = 0
        for i in range(n):                           # literals of H_t false on x_t
            if c[i] == 2.0 or (c[i] == 1.0 and X[t, i] == 0.0) or (c[i] == -1.0 and X[t, i] == 1.0):
                v += 1
        violated[t] = v
        yhat = 1.0 if v == 0 else 0.0                # yhat = 1 iff every literal of H_t holds
        if yhat != y[t]:
            mistakes[t] = True
            if y[t] == 1.0:                          # positive mistake: drop the falsified literals
                _eliminate(c, X[t])
                updated[t] = True
    return violated, mistakes, updated, c


@njit
def _replay(X, rows, c0):
    """The hypotheses after each update: ``table[0] = c0``, row k+1 drops the literals row ``rows[k]`` falsifies."""
    K = rows.shape[0]
    table = np.empty((K + 1, X.shape[1]))
    table[0] = c0
    for k in range(K):
        table[k + 1] = table[k]
        _eliminate(table[k + 1], X[rows[k]])
    return table


@kernel("conjunction_elimination")
def _warm():
    conjunction_elimination(np.array([[1.0, 0.0], [1.0, 1.0]]), np.array([1.0, 0.0]))


class ConjunctionElimination:
    r"""The elimination algorithm, line by line (UCL COMP0078, Problems 1.1).

    >>> c = ConjunctionElimination(3)      # H = {x1, ¬x1, x2, ¬x2, x3, ¬x3}: predicts 0
    >>> c.update([1, 0, 1], 1)             # a mistake on a positive: drop ¬x1, x2, ¬x3
    1.0
    >>> c.literals()
    ['x1', '¬x2', 'x3']
    >>> c.predict([1, 0, 1]), c.predict([1, 1, 1])
    (1, 0)

    Parameters
    ----------
    n : int
        Number of boolean attributes.
    """

    def __init__(self, n: int) -> None:
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise StreamError.bad("n", repr(n), "a whole number >= 1")
        self.H = {(i, s) for i in range(int(n)) for s in (1, 0)}   # H_1: literal (i, 1) is x_i, (i, 0) is not-x_i
        self.n = int(n)

    @property
    def w(self) -> np.ndarray:
        """:math:`H_t` coded per attribute (``BOTH``, 1, -1, 0), as the fast path's weights."""
        pos = np.array([(i, 1) in self.H for i in range(self.n)])
        neg = np.array([(i, 0) in self.H for i in range(self.n)])
        return np.where(pos & neg, BOTH, pos.astype(float) - neg)

    def literals(self) -> list[str]:
        """The literals of :math:`H_t`."""
        return describe(self.w)

    def predict(self, x) -> int:
        r""":math:`\hat y = 1` iff every literal of :math:`H_t` is true on ``x`` (literal (i, s) is true iff x_i = s)."""
        x = np.asarray(x, dtype=float)
        return int(all(x[i] == s for i, s in self.H))

    def update(self, x, y) -> float:
        """On a mistake with :math:`y = 1`, drop every literal ``x`` falsifies; returns the mistake, 1.0 or 0.0."""
        x = np.asarray(x, dtype=float)
        y = float(y)
        if y not in (0.0, 1.0):
            raise StreamError.bad("y", f"{y:g}", "a label in {0, 1}")
        yhat = self.predict(x)
        if yhat != y and y == 1.0:
            self.H = {(i, s) for i, s in self.H if x[i] == s}
        return float(yhat != y)
