r"""The Halving algorithm: majority vote of the experts consistent so far.

Notes
-----
The master keeps the version space :math:`C_t` of experts that have made no mistake
before trial :math:`t` (:math:`C_1 = [n]`), predicts with the majority vote of
:math:`C_t`,

.. math::

    \hat y_t = \mathbf{1}\Big[\,|\{i \in C_t : x_{t,i} = 1\}| \ \ge\ |\{i \in C_t : x_{t,i} = 0\}|\,\Big],

(ties predict 1, as in the worked 8-expert run of the UCL notes), receives :math:`y_t`
and eliminates the wrong experts: :math:`C_{t+1} = \{i \in C_t : x_{t,i} = y_t\}`.
Every mistake removes at least half of :math:`C_t`, so if some expert is consistent
with the whole sequence,

.. math::

    M \le \log_2 n .

If no expert is consistent, :math:`C_t` eventually empties; the vote is then 0 against 0,
a tie, and the master predicts 1 (Halving's assumption has failed; there is no bound).

References
----------
UCL COMP0078, Online learning ("A run of the Halving Algorithm" and
the bound :math:`\le \log_2 n`; the proof is the slide's exercise).
"""

from __future__ import annotations

import numpy as np

from ..trace import Trace
from ..validate import check_int
from ..jit import kernel, njit
from ._common import expert_stream, frozen, record_rounds

__all__ = ["halving", "Halving"]


def halving(X, y, record="every") -> Trace:
    r"""Run Halving on a whole stream (the fast path: one loop compiled with numba).

    Parameters
    ----------
    X : array (T, n) of {0, 1}
        ``X[t, i]`` is expert ``i``'s prediction in round ``t``.
    y : array (T,) of {0, 1}
        The outcomes.
    record : "every", "final" or int, default="every"
        Which rounds' weights the trace keeps: every round (the contract), the final
        weights only, or every ``record``-th round and the last (``trace.recorded_rounds``).

    Returns
    -------
    Trace
        ``predictions`` (T,) int, ``losses`` = ``mistakes`` (T,), ``weights`` (T+1, n)
        uniform over the version space (a zero row once it is empty),
        ``expert_losses`` (T, n) the experts' 0/1 mistakes and
        ``extras["version_space"]`` (T+1,) the size :math:`|C_t|` before each round.
    """
    X, y = expert_stream("experts", X, y)
    T, n = X.shape
    rec = record_rounds(record, T)
    pred, size, W = _rounds(X, y, np.arange(T + 1) if rec is None else rec)
    mistakes = pred != y
    wrong = frozen((X != y[:, None]).astype(float))
    return Trace(losses=mistakes.astype(float), predictions=pred, weight_table=frozen(W),
                 weight_rounds=rec, mistakes=mistakes, expert_losses=wrong,
                 extras={"version_space": size})


@njit
def _rounds(X, y, rec):
    """Halving's rounds, compiled: predictions (T,), :math:`|C_t|` (T+1,) and the weights of
    the rounds in ``rec`` (uniform over :math:`C_t`)."""
    T, n = X.shape
    alive = np.ones(n, dtype=np.bool_)               # C_1 = [n]
    size = np.empty(T + 1, dtype=np.int64)
    pred = np.empty(T, dtype=np.int8)
    W = np.zeros((rec.shape[0], n))
    j = 0
    size[0] = n
    for t in range(T + 1):
        if j < rec.shape[0] and rec[j] == t:         # record v_t: uniform over C_t
            for i in range(n):
                if alive[i]:
                    W[j, i] = 1.0 / size[t]
            j += 1
        if t == T:
            break
        ones = 0
        for i in range(n):                           # votes of C_t for 1
            if alive[i] and X[t, i] == 1:
                ones += 1
        pred[t] = 1 if ones >= size[t] - ones else 0  # majority; ties predict 1
        left = 0
        for i in range(n):                           # C_{t+1} = {i in C_t : x_{t,i} = y_t}
            if alive[i] and X[t, i] != y[t]:
                alive[i] = False
            left += alive[i]
        size[t + 1] = left
    return pred, size, W


@kernel("halving")
def _warm():
    halving(np.array([[1, 0], [1, 1]]), np.array([1, 0]))


class Halving:
    r"""Halving, one round at a time (the reference path; mirrors the notes).

    >>> h = Halving(8)
    >>> h.predict([1, 1, 0, 0, 1, 1, 0, 0])    # 4 votes against 4: a tie predicts 1
    1
    >>> h.update([1, 1, 0, 0, 1, 1, 0, 0], 0), int(h.consistent.sum())    # a mistake; 4 experts left
    (1.0, 4)

    Parameters
    ----------
    n : int
        Number of experts.
    """

    def __init__(self, n: int) -> None:
        self.n = check_int(n, "n", 1)
        self.consistent = np.ones(self.n, dtype=bool)   # C_1 = all experts

    def predict(self, x) -> int:
        """Majority vote of the consistent experts; ties predict 1."""
        x = np.asarray(x)
        votes_1 = int(np.sum(self.consistent & (x == 1)))
        votes_0 = int(np.sum(self.consistent & (x == 0)))
        return 1 if votes_1 >= votes_0 else 0

    def update(self, x, y) -> float:
        """Suffer the mistake :math:`[\\hat y_t \\ne y_t]`, then eliminate the experts that were wrong:
        :math:`C_{t+1} = \\{i \\in C_t : x_{t,i} = y_t\\}`.  Returns the mistake (0.0 or 1.0)."""
        x = np.asarray(x)
        mistake = float(self.predict(x) != y)
        self.consistent = self.consistent & (x == y)
        return mistake

    @property
    def weights(self) -> np.ndarray:
        """Uniform over the version space (zeros once it is empty)."""
        c = self.consistent.sum()
        return self.consistent / c if c else np.zeros(self.n)
