r"""The fast path shared by the update-driven linear algorithms.

Perceptron and Winnow change their weights only on a mistake; OGD with hinge loss and
the Passive-Aggressive family only when :math:`y_t\, w \cdot x_t < 1`.  Between two
updates the weight vector is fixed, so the scores :math:`w \cdot x_s` of the rounds
ahead are one matrix-vector product.  :func:`jump` computes the scores of a chunk of
rounds, finds the first round whose score triggers an update, applies that single
update, and jumps there.  Chunks grow while no update happens and shrink after one,
so a separable stream of :math:`10^5` rounds costs a few dozen products.

The prediction, the loss and the decision to update are all taken from the same
computed score (exact ties are decided once, never recomputed).  Weights are stored
only when they change: ``table[j]`` is the weight vector after the ``j``-th update and
``index[t]`` the row in force before round ``t``.

With ``epochs > 1`` the stream is cycled.  Once ``T`` consecutive rounds pass with no
update, the weights can never change again (every example has been seen with them),
and the remaining rounds are filled by repeating the last pass's scores.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ..errors import StreamError
from ..validate import check_int

__all__ = ["jump", "MAX_TOTAL_ROUNDS"]

#: Upper limit on ``T * epochs`` (the per-round arrays of the trace stay below ~30 MB).
MAX_TOTAL_ROUNDS = 2_000_000


def check_epochs(epochs, T: int) -> int:
    """``epochs`` as an int >= 1 with ``T * epochs`` at most :data:`MAX_TOTAL_ROUNDS`."""
    e = check_int(epochs, "epochs", 1, None)
    if T * e > MAX_TOTAL_ROUNDS:
        raise StreamError.bad("epochs", f"{e} passes over {T:,} rounds = {T * e:,} rounds",
                              f"at most {MAX_TOTAL_ROUNDS:,} rounds in total")
    return e


def jump(X: np.ndarray, y: np.ndarray, w0: np.ndarray,
         trigger: Callable[[np.ndarray, np.ndarray], np.ndarray],
         update: Callable[[np.ndarray, np.ndarray, float, float], np.ndarray],
         epochs: int = 1, min_chunk: int = 32, max_chunk: int = 1 << 16):
    """Run an update-driven linear learner over ``X`` cycled ``epochs`` times.

    Parameters
    ----------
    X : float array (T, d)
    y : array (T,)
    w0 : float array (d,)
        Initial weights.
    trigger : callable(scores (c,), labels (c,)) -> bool array (c,)
        Which rounds of a chunk trigger an update, given their scores ``X @ w``.
    update : callable(w (d,), x (d,), y, score) -> new array (d,)
        The update; must return a new array (``w`` is stored in the table).
    epochs : int, default=1

    Returns
    -------
    scores : float array (T*epochs,)
        :math:`w_t \\cdot x_t` with the weights in force in round ``t``.
    updated : bool array (T*epochs,)
        Whether round ``t`` triggered an update.
    table : float array (K, d)
        ``w0`` then the weights after each update.
    index : intp array (T*epochs + 1,)
        Row of ``table`` in force before round ``t``.
    """
    T = X.shape[0]
    total = T * epochs
    scores = np.empty(total)
    updated = np.zeros(total, dtype=bool)
    w = np.array(w0, dtype=float)
    table = [w]
    pos = 0          # next round to play
    since = 0        # first round played with the current weights
    c = min_chunk
    while pos < total:
        start = pos % T
        end = min(start + c, T, start + (total - pos))
        s = X[start:end] @ w
        hit = trigger(s, y[start:end])
        j = int(np.argmax(hit)) if hit.size and hit.any() else -1
        if j < 0:
            n = end - start
            scores[pos:pos + n] = s
            pos += n
            c = min(2 * c, max_chunk)
            if pos - since >= T and pos < total:
                # A whole pass with these weights and no update: nothing changes again.
                scores[pos:] = np.resize(scores[pos - T:pos], total - pos)
                pos = total
        else:
            scores[pos:pos + j + 1] = s[:j + 1]
            p = pos + j
            updated[p] = True
            w = update(w, X[start + j], y[start + j], float(s[j]))
            table.append(w)
            pos = since = p + 1
            c = max(min_chunk, 2 * (j + 1))
    index = np.zeros(total + 1, dtype=np.intp)
    np.cumsum(updated, out=index[1:])
    return scores, updated, np.array(table), index


def margin_trace(X: np.ndarray, y: np.ndarray, scores: np.ndarray, updated: np.ndarray,
                 table: np.ndarray, index: np.ndarray, epochs: int):
    """The Trace of a hinge-loss learner (OGD, PA): losses are hinge losses.

    ``predictions`` :math:`\\operatorname{sign}(w_t \\cdot x_t)`, ``mistakes`` iff
    :math:`y_t\\, w_t \\cdot x_t \\le 0`, ``losses`` :math:`[1 - y_t\\, w_t \\cdot x_t]_+`;
    ``extras``: ``"score"`` (T,), ``"updated"`` (T,), ``"M"`` (T+1,) mistakes so far,
    ``"norm_sq"`` (T+1,) :math:`\\|w_t\\|^2`.
    """
    from ..trace import Trace

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
