r"""What the compiled linear learners share: the epochs check, the weight table, the hinge trace.

Perceptron and Winnow change their weights only on a mistake; OGD with hinge loss and the
Passive-Aggressive family only when :math:`y_t\, \mathbf w \cdot \mathbf x_t < 1`.  Their
compiled loops (one per module, ``@njit(cache=True)``) keep one table row per update:
``table[j]`` is the weight vector after the ``j``-th update and ``index[t]`` the row in force
before round ``t`` (``index = [0, cumsum(updated)]``).  The Perceptron, PA and OGD loops write
each row right after its update into room for every round's row (:data:`TABLE_ROOM`); Winnow
and runs beyond that room note each update (its round and coefficient) and rebuild the table
afterwards by replaying them (:func:`replay`).  ``record="final"`` skips the table.

With ``epochs > 1`` the stream is cycled.  Once ``T`` consecutive rounds pass with no update,
the weights can never change again (every example has been seen with them), so the loops
copy the last pass's scores for the remaining rounds instead of recomputing the same numbers.

(An earlier version jumped from update to update with chunked matrix-vector products; the
plain compiled loop replaced it: see benchmarks/PERFORMANCE.md.)
"""

from __future__ import annotations

import numpy as np

from ..errors import StreamError
from ..jit import big_empty, njit, round_arrays
from ..validate import check_int

__all__ = ["MAX_TOTAL_ROUNDS", "dot", "dot2", "dot_row", "dot2_row", "finite_row_at", "freeze", "reject", "check_epochs", "check_record",
           "replay", "replay_into", "weight_record", "update_index", "MAX_FLOAT", "mistake_count", "round_arrays", "big_empty", "TABLE_ROOM"]

#: Largest room (float64 values) a loop is given for writing its weight table itself, one row per
#: update: one row per round, of which only the rows written are touched (so only they take memory;
#: the rest stays reserved address space).  A larger run's table is replayed after the loop.
TABLE_ROOM = 1 << 27

#: The largest finite float64: ``not q <= MAX_FLOAT`` is true for NaN and +inf only.
MAX_FLOAT = float(np.finfo(np.float64).max)

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
def dot(a, b):
    """:math:`\\mathbf a \\cdot \\mathbf b` with four running sums (a plain loop is latency-bound)."""
    n = a.shape[0]
    s0 = s1 = s2 = s3 = 0.0
    i = 0
    while i + 4 <= n:
        s0 += a[i] * b[i]
        s1 += a[i + 1] * b[i + 1]
        s2 += a[i + 2] * b[i + 2]
        s3 += a[i + 3] * b[i + 3]
        i += 4
    while i < n:
        s0 += a[i] * b[i]
        i += 1
    return (s0 + s1) + (s2 + s3)


@njit
def dot2(a, x):
    r"""``(a . x, x . x)`` in one pass over ``x`` (four running sums each, as :func:`dot`).

    The first pass of a loop needs both: the score and :math:`\|x_t\|^2` (for :math:`R^2`,
    and as the finiteness check of the row: :math:`x \cdot x` is NaN or inf iff some entry is,
    or the sum overflows, which :func:`finite_row_at` then tells apart)."""
    n = x.shape[0]
    s0 = s1 = s2 = s3 = 0.0
    q0 = q1 = q2 = q3 = 0.0
    i = 0
    while i + 4 <= n:
        x0, x1, x2, x3 = x[i], x[i + 1], x[i + 2], x[i + 3]
        s0 += a[i] * x0
        s1 += a[i + 1] * x1
        s2 += a[i + 2] * x2
        s3 += a[i + 3] * x3
        q0 += x0 * x0
        q1 += x1 * x1
        q2 += x2 * x2
        q3 += x3 * x3
        i += 4
    while i < n:
        s0 += a[i] * x[i]
        q0 += x[i] * x[i]
        i += 1
    return (s0 + s1) + (s2 + s3), (q0 + q1) + (q2 + q3)


def _inline(fn):
    """Compiled into each caller (numba ``inline="always"``): a helper that takes the matrix and a
    row number instead of the row ``X[t]``, whose view and reference count cost about 6 ns a round
    (0.5 ms per 10^5 rounds at d = 2, a quarter of the loop)."""
    import numba

    return numba.njit(inline="always", cache=True)(fn)


@_inline
def dot_row(a, X, t):
    r""":math:`\mathbf a \cdot \mathbf x_t`, ``x_t = X[t]``: the sums of :func:`dot`, in the same order."""
    n = a.shape[0]
    s0 = s1 = s2 = s3 = 0.0
    i = 0
    while i + 4 <= n:
        s0 += a[i] * X[t, i]
        s1 += a[i + 1] * X[t, i + 1]
        s2 += a[i + 2] * X[t, i + 2]
        s3 += a[i + 3] * X[t, i + 3]
        i += 4
    while i < n:
        s0 += a[i] * X[t, i]
        i += 1
    return (s0 + s1) + (s2 + s3)


@_inline
def dot2_row(a, X, t):
    """``(a . x_t, x_t . x_t)`` with ``x_t = X[t]``: the sums of :func:`dot2`, in the same order."""
    n = a.shape[0]
    s0 = s1 = s2 = s3 = 0.0
    q0 = q1 = q2 = q3 = 0.0
    i = 0
    while i + 4 <= n:
        x0, x1, x2, x3 = X[t, i], X[t, i + 1], X[t, i + 2], X[t, i + 3]
        s0 += a[i] * x0
        s1 += a[i + 1] * x1
        s2 += a[i + 2] * x2
        s3 += a[i + 3] * x3
        q0 += x0 * x0
        q1 += x1 * x1
        q2 += x2 * x2
        q3 += x3 * x3
        i += 4
    while i < n:
        s0 += a[i] * X[t, i]
        q0 += X[t, i] * X[t, i]
        i += 1
    return (s0 + s1) + (s2 + s3), (q0 + q1) + (q2 + q3)


@njit
def finite_row_at(X, t):
    r"""Every entry of ``X[t]`` is finite (called only when :math:`x\cdot x` is not; not inlined, so
    that the rare path stays out of the callers' loops)."""
    for i in range(X.shape[1]):
        if not np.isfinite(X[t, i]):
            return False
    return True


@_inline
def classified_row_ok(X, y, t, sq):
    """Row ``t`` of a classification stream is usable: ``x_t`` finite (``sq = ||x_t||^2`` settles it
    unless it overflowed) and ``y_t`` in {-1, +1}.  The first pass of the Perceptron, OGD and PA
    loops checks each row with it as it reads it.

    The common case is one branch on ``&`` and ``|`` of the comparisons: written with ``and``/``or``
    (a branch per comparison) and the finite check inlined, the check cost as much as the rest of
    the Perceptron's round at d = 2 (3.1 ms against 1.65 ms per 10^5 rounds here)."""
    yt = y[t]
    label = (yt == 1.0) | (yt == -1.0)
    if (sq <= MAX_FLOAT) & label:
        return True
    return label and finite_row_at(X, t)


def freeze(*arrays):
    """Mark fresh arrays (a kernel's outputs, and the buffers they view) read-only, so
    :class:`olcore.Trace` shares them instead of copying them."""
    for a in arrays:
        b = a
        while isinstance(b, np.ndarray):
            b.setflags(write=False)
            b = b.base
    return arrays[0] if len(arrays) == 1 else arrays


def reject(bad_row: int, validate) -> None:
    """After a compiled loop: ``bad_row >= 0`` means it stopped at a row with a NaN/inf entry or
    a label outside the alphabet.  ``validate()`` (the full checks, which the loop replaced)
    then raises the :class:`olcore.StreamError` naming the first bad entry."""
    if bad_row < 0:
        return
    validate()
    raise StreamError.bad("X, y", f"bad input at row {bad_row + 1}", "finite numbers and valid labels")


RECORDS = ("every", "final")


def check_record(record) -> str:
    """``record`` of a linear learner: ``"every"`` (weights of every round) or ``"final"``."""
    if record not in RECORDS:
        raise StreamError.bad("record", repr(record), "'every' or 'final'")
    return record


def replay(X, rows, coef, w0):
    r"""The weight table of an additive learner: ``table[0] = w0``,
    :math:`\text{table}[k+1] = \text{table}[k] + c_k\, \mathbf x_{t_k}` for its ``k``-th update
    (on row ``t_k = rows[k]`` with coefficient ``c_k = coef[k]``): the same arithmetic as the
    loop's ``w[i] += c * X[t, i]``, so the rows are bit for bit the weights the loop used.

    The table is allocated by numpy (which asks Linux for huge pages for large arrays: writing a
    fresh 47 MB table measured 3-4x faster here than into one numba allocated) and filled by
    :func:`replay_into`."""
    table = big_empty((rows.shape[0] + 1, X.shape[1]))
    replay_into(X, rows, coef, w0, table)
    return table


@njit
def replay_into(X, rows, coef, w0, table):
    """Fill ``table`` ((K+1, d)) as :func:`replay` describes."""
    K = rows.shape[0]
    d = X.shape[1]
    table[0] = w0
    for k in range(K):
        t = rows[k]
        c = coef[k]
        for i in range(d):
            table[k + 1, i] = table[k, i] + c * X[t, i]


def weight_record(record: str, updated: np.ndarray, w0: np.ndarray, w_final: np.ndarray, build_table):
    r"""``(weight_table, weight_index, weight_rounds)`` for :class:`olcore.Trace`.

    ``"every"``: the table of every update (``build_table()``) and ``index[t]`` the updates
    before round ``t``; ``"final"``: only :math:`\mathbf w_1` and the final weights
    (``weight_rounds = [0, T]``).
    """
    if record == "every":
        table = build_table()
        table.setflags(write=False)                  # the Trace shares it instead of copying
        return table, update_index(updated), None
    return np.stack([w0, w_final]), None, np.array([0, updated.size])


def mistake_count(mistakes: np.ndarray, index=None) -> np.ndarray:
    """(T+1,) float: the mistakes before each round (``index`` when it is that count already)."""
    if index is not None:
        return index.astype(float)
    M = np.zeros(mistakes.size + 1)
    np.cumsum(mistakes, out=M[1:])
    return M


def update_index(updated: np.ndarray) -> np.ndarray:
    """``index[t]``: the row in force before round ``t`` (the number of updates before it)."""
    index = np.zeros(updated.size + 1, dtype=np.intp)
    np.cumsum(updated, out=index[1:])
    return index


def update_trace(scores: np.ndarray, mistakes: np.ndarray, updated: np.ndarray, table: np.ndarray,
                 extras: dict):
    """The Trace of a run that stores one weight row per update (second-order Perceptron, selective
    sampling, ALMA): 0/1 losses, the sign of the score as prediction, ``weight_index`` from the
    updates, and ``extras`` with the scores, the updates and the running mistake count ``M``."""
    from ..trace import Trace

    index = np.zeros(updated.size + 1, dtype=np.intp)
    np.cumsum(updated, out=index[1:])
    M = np.zeros(mistakes.size + 1)
    np.cumsum(mistakes, out=M[1:])
    return Trace(losses=mistakes.astype(float), predictions=np.sign(scores).astype(np.int8),
                 weight_table=table, weight_index=index, mistakes=mistakes,
                 extras={"score": scores, "updated": updated, "M": M, **extras})
