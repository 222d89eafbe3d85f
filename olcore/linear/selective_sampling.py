r"""Selective sampling: the second-order Perceptron that asks for a label only when unsure.

Notes
-----
As the notes write it (Cesa-Bianchi, On-line learning, "A selective sampling classifier"):
classify :math:`\mathbf x_t` with :math:`\operatorname{sign}(\Delta_t)`; query the label
:math:`y_t` iff

.. math::

    |\Delta_t| \le \|\mathbf x_t\|\sqrt{\frac{c\ln t}{N_t}},

:math:`N_t` the number of labels queried before round :math:`t` (the first round, with
:math:`N_1 = 0`, always queries); if the label was queried, update with the second-order
Perceptron's rule (:mod:`olcore.linear.second_order`): on a mistake,
:math:`\mathbf v \leftarrow \mathbf v + y_t\mathbf x_t`, :math:`A \leftarrow A + \mathbf x_t\mathbf x_t^\top`.
:math:`\Delta_t` is the second-order Perceptron's margin
:math:`\mathbf v^\top(A + \mathbf x_t\mathbf x_t^\top)^{-1}\mathbf x_t` (the notes' :math:`\mathbf w^\top\mathbf x_t`).
The update is mistake-driven, as the second-order rule is: so an unqueried round never
updates, and with :math:`c = \infty` every label is queried and the run is the
second-order Perceptron's.  Mistakes are counted on every round (queried or not): the
learner does not see them, the lesson does.

References
----------
Cesa-Bianchi, On-line learning (Online SVM and active learning: selective sampling);
Cesa-Bianchi, Conconi and Gentile, "A second-order perceptron algorithm", SIAM J. Computing (2005).
"""

from __future__ import annotations

import math

import numpy as np

from .. import _sums as sums
from ..jit import f64, kernel
from ..trace import Trace
from ..validate import as_labels, as_matrix, check_param
from ._engine import update_trace
from .second_order import SecondOrderPerceptron, sop_rounds

__all__ = ["selective_sampling", "SelectiveSampler"]


def _check_c(c) -> float:
    if isinstance(c, (int, float)) and not isinstance(c, bool) and c == math.inf:
        return math.inf
    return check_param(c, "c", 0, None)


def selective_sampling(X, y, c: float = 1.0, a: float = 1.0) -> Trace:
    r"""Run the selective sampler over a stream (the fast path).

    Parameters
    ----------
    X : array (T, d)
    y : array (T,) in {-1, +1}
        Only the queried labels are used.
    c : float, default=1.0
        :math:`c \ge 0` (``math.inf``: query every label, the second-order Perceptron).
    a : float, default=1.0
        The second-order Perceptron's :math:`a > 0`.

    Returns
    -------
    Trace
        As :func:`olcore.linear.second_order_perceptron`, with ``extras["queried"]`` (T,) bool
        and ``extras["N"]`` (T+1,) labels queried before each round.

    Examples
    --------
    >>> tr = selective_sampling([[1.0, 0.0]] * 40, [1] * 40, c=1.0)
    >>> int(tr.extras["queried"].sum()), int(tr.mistakes.sum())     # one mistake; 6 labels not asked for
    (34, 1)
    """
    X = as_matrix(X, "X")
    y = as_labels(y, X.shape[0], "y", (-1, 1))
    c = _check_c(c)
    a = check_param(a, "a", 0, None, lo_open=True)
    scores, mistakes, updated, queried, table, _ = sop_rounds(f64(X), f64(y), a, c, True)
    N = np.zeros(queried.size + 1)
    np.cumsum(queried, out=N[1:])
    return update_trace(scores, mistakes, updated, table, {"queried": queried, "N": N})


@kernel("selective_sampling")
def _warm():
    selective_sampling(np.array([[1.0, 0.0], [0.0, -1.0], [1.0, 1.0]]), np.array([1.0, 1.0, -1.0]))


class SelectiveSampler(SecondOrderPerceptron):
    r"""Selective sampling, line by line as the notes write it (on the second-order Perceptron).

    ``predict(x)`` classifies; ``update(x, y)`` first decides whether to query (from
    :math:`\mathbf x_t` alone), and only then reads ``y``.

    >>> s = SelectiveSampler(1, c=1.0)
    >>> s.update([1.0], 1), s.queried        # N_1 = 0: query; a mistake (score 0)
    (1.0, True)

    Parameters
    ----------
    d : int
    c : float, default=1.0
    a : float, default=1.0
    """

    def __init__(self, d: int, c: float = 1.0, a: float = 1.0) -> None:
        super().__init__(d, a)
        self.c = _check_c(c)
        self.t = 0            # rounds so far
        self.N = 0            # labels queried so far
        self.queried = False  # whether the last round queried its label

    def query(self, x) -> bool:
        """2. Query iff :math:`N_t = 0` or :math:`|\\Delta_t| \\le \\|\\mathbf x_t\\|\\sqrt{c\\ln t/N_t}`."""
        x = np.asarray(x, dtype=float)
        if self.N == 0 or self.c == math.inf:
            return True
        t = self.t + 1
        return abs(self.score(x)) <= math.sqrt(sums.dot(x, x)) * math.sqrt(self.c * math.log(t) / self.N)

    def update(self, x, y) -> float:
        """3. If the label is queried, the second-order update (on a mistake).  Returns the round's
        mistake, 1.0 or 0.0 (whether or not the label was queried)."""
        x = np.asarray(x, dtype=float)
        self.queried = self.query(x)
        self.t += 1
        if not self.queried:
            return float(float(y) * self.score(x) <= 0)
        self.N += 1
        return super().update(x, y)
