r"""What the compiled linear learners share: the epochs check, the weight table, the hinge trace.

Perceptron and Winnow change their weights only on a mistake; OGD with hinge loss and the
Passive-Aggressive family only when :math:`y_t\, \mathbf w \cdot \mathbf x_t < 1`.  Their
compiled loops (one per module, ``@njit(cache=True)``) store a weight vector only when it
changes: ``table[j]`` is the weight vector after the ``j``-th update and ``index[t]`` the row
in force before round ``t`` (``index = [0, cumsum(updated)]``).  :func:`push_row` appends a
row, doubling the table when it is full.

With ``epochs > 1`` the stream is cycled.  Once ``T`` consecutive rounds pass with no update,
the weights can never change again (every example has been seen with them), so the loops
copy the last pass's scores for the remaining rounds instead of recomputing the same numbers.

(An earlier version jumped from update to update with chunked matrix-vector products; the
plain compiled loop replaced it: see the README's Performance section.)
"""

from __future__ import annotations

import numpy as np

from ..errors import StreamError
from ..jit import njit
from ..validate import check_int

__all__ = ["MAX_TOTAL_ROUNDS", "check_epochs", "push_row", "new_table", "update_index", "margin_trace"]

#: Upper limit on ``T * epochs`` (the per-round arrays of the trace stay below ~30 MB).
MAX_TOTAL_ROUNDS = 2_000_000


def check_epochs(epochs, T: int) -> int:
    """``epochs`` as an int >= 1 with ``T * epochs`` at most :data:`MAX_TOTAL_ROUNDS`."""
    e = check_int(epochs, "epochs", 1, None)
    if T * e > MAX_TOTAL_ROUNDS:
        raise StreamError.bad("epochs", f"{e} passes over {T:,} rounds = {T * e:,} rounds",
                              f"at most {MAX_TOTAL_ROUNDS:,} rounds in total")
    return e


@njit
def new_table(w, total):
    """A weight table with room for a few rows; row 0 is ``w``."""
    table = np.empty((min(total, 63) + 1, w.shape[0]))
    table[0] = w
    return table


@njit
def push_row(table, k, w):
    """Store ``w`` as row ``k`` of ``table`` (doubling it when full); returns the table."""
    if k == table.shape[0]:
        bigger = np.empty((2 * table.shape[0], table.shape[1]))
        bigger[:k] = table
        table = bigger
    table[k] = w
    return table


def update_index(updated: np.ndarray) -> np.ndarray:
    """``index[t]``: the row in force before round ``t`` (the number of updates before it)."""
    index = np.zeros(updated.size + 1, dtype=np.intp)
    np.cumsum(updated, out=index[1:])
    return index


def margin_trace(X: np.ndarray, y: np.ndarray, scores: np.ndarray, updated: np.ndarray,
                 table: np.ndarray, epochs: int):
    """The Trace of a hinge-loss learner (OGD, PA): losses are hinge losses.

    ``predictions`` :math:`\\operatorname{sign}(w_t \\cdot x_t)`, ``mistakes`` iff
    :math:`y_t\\, w_t \\cdot x_t \\le 0`, ``losses`` :math:`[1 - y_t\\, w_t \\cdot x_t]_+`;
    ``extras``: ``"score"`` (T,), ``"updated"`` (T,), ``"M"`` (T+1,) mistakes so far,
    ``"norm_sq"`` (T+1,) :math:`\\|w_t\\|^2`.
    """
    from ..trace import Trace

    index = update_index(updated)
    yy = np.tile(y, epochs) if epochs > 1 else y
    margins = yy * scores
    mistakes = margins <= 0
    M = np.zeros(mistakes.size + 1)
    np.cumsum(mistakes, out=M[1:])
    norm_sq = np.einsum("ij,ij->i", table, table)[index]
    return Trace(
        losses=np.maximum(0.0, 1.0 - margins),
        predictions=np.sign(scores).astype(np.int8),
        weight_table=table,
        weight_index=index,
        mistakes=mistakes,
        extras={"score": scores, "updated": updated, "M": M, "norm_sq": norm_sq},
    )
