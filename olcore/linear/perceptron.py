r"""The Perceptron (Rosenblatt), with Novikoff's mistake bound.

Notes
-----
Start from :math:`\mathbf{w}_1 = \vec 0`, :math:`M_1 = 0`.  In round :math:`t`:

.. math::

    \hat y_t = \operatorname{sign}(\mathbf{w}_t \cdot \mathbf{x}_t), \qquad
    \text{if } y_t (\mathbf{w}_t \cdot \mathbf{x}_t) \le 0:\;
    \mathbf{w}_{t+1} = \mathbf{w}_t + y_t \mathbf{x}_t,\; M_{t+1} = M_t + 1,
    \text{ else } \mathbf{w}_{t+1} = \mathbf{w}_t .

A score of exactly 0 predicts :math:`\hat y_t = 0` (``sign(0) = 0``) and counts as a
mistake, as the notes' test :math:`\hat y_t y_t \le 0` does.

**Bound (Novikoff).** If :math:`\|\mathbf{x}_t\| \le R` and some unit
:math:`\mathbf{v}` has :math:`y_t(\mathbf{v}\cdot\mathbf{x}_t) \ge \gamma > 0` for all
:math:`t`, then :math:`M \le (R/\gamma)^2`, however long the stream and however often it
is cycled.  The proof: :math:`\|\mathbf{w}_t\|^2 \le M_t R^2` (each update adds at most
:math:`R^2`) and :math:`\mathbf{w}_t\cdot\mathbf{v} \ge M_t\gamma`, so
:math:`(M\gamma)^2 \le \|\mathbf{w}\|^2 \le M R^2`.

**Non-separable streams** (Cesa-Bianchi): for every :math:`\mathbf{u}`,
:math:`M \le L_{\mathbf{u}} + R^2\|\mathbf{u}\|^2 + R\|\mathbf{u}\|\sqrt{L_{\mathbf{u}}}`
with :math:`L_{\mathbf{u}} = \sum_t [1 - y_t \mathbf{u}\cdot\mathbf{x}_t]_+` (the notes
state it for :math:`\|\mathbf{x}_t\| = 1`; see :func:`olcore.bounds.perceptron_nonseparable`).

References
----------
UCL COMP0078, Online learning (Perceptron algorithm, Theorem "Perceptron Bound
[Novikoff]") (Theorem 1, potential
:math:`\|w\|^2`) ("The relative mistake bound").
"""

from __future__ import annotations

import numpy as np

from .. import _sums as sums
from ..errors import StreamError
from ..trace import LazyExtras, Trace
from ..validate import as_labels, as_matrix
from ..jit import f64, kernel, njit
from ._engine import (TABLE_ROOM, big_empty, check_epochs, check_record, classified_row_ok, dot, dot2_row,
                      dot_row, freeze, mistake_count, reject, replay, round_arrays)

__all__ = ["perceptron", "Perceptron"]


def _validate(X, y):
    X = as_matrix(X, "X")
    y = as_labels(y, X.shape[0], "y", (-1, 1))
    return X, y


def perceptron(X, y, epochs: int = 1, v=None, record: str = "every") -> Trace:
    r"""Run the Perceptron over a stream (the fast path).

    One plain loop over the rounds, compiled with numba, which also checks each row as it
    reads it (finite entries, a label in {-1, +1}) and writes every per-round array of the
    trace; the weights are stored only when they change (``Trace.weight_table`` has :math:`M + 1` rows).

    Parameters
    ----------
    X : array (T, d)
        Instances :math:`\mathbf{x}_t`.
    y : array (T,)
        Labels in :math:`\{-1, +1\}`.
    epochs : int, default=1
        Number of passes over the stream; the trace has ``T * epochs`` rounds.
    record : {"every", "final"}, default="every"
        Which weights the trace keeps: every round's (the contract), or only
        :math:`\mathbf w_1` and the final weights (``trace.recorded_rounds = [0, T]``; the
        extras are the same).
    v : array (d,), default=None
        A separator for the proof view; normalised to a unit vector.  When given,
        ``extras`` also holds :math:`\mathbf{w}_t\cdot\mathbf{v}` and its lower bound
        :math:`M_t\gamma_v` with :math:`\gamma_v = \min_t y_t\,\mathbf{v}\cdot\mathbf{x}_t`.

    Returns
    -------
    Trace
        ``losses`` and ``mistakes`` (0/1, mistake iff :math:`y_t\,\mathbf{w}_t\cdot\mathbf{x}_t \le 0`),
        ``predictions`` :math:`\operatorname{sign}(\mathbf{w}_t\cdot\mathbf{x}_t) \in \{-1,0,1\}`,
        weights (T+1, d).  ``extras`` (each (T+1,), value before round ``t``, last
        entry after the run): ``"M"`` mistakes so far, ``"norm_sq"``
        :math:`\|\mathbf{w}_t\|^2`, ``"norm_sq_upper"`` :math:`M_t R^2`, ``"score"``
        (T,) the score :math:`\mathbf{w}_t\cdot\mathbf{x}_t`; with ``v``:
        ``"w_dot_v"`` and ``"w_dot_v_lower"``.

    References
    ----------
    Novikoff's theorem.
    """
    Xc = f64(as_matrix(X, "X", finite=False))          # finiteness: checked row by row in the loop
    yc = f64(as_labels(y, Xc.shape[0], "y", values=False))
    T, d = Xc.shape
    epochs = check_epochs(epochs, T)
    record = check_record(record)
    every = record == "every"
    total = T * epochs
    scores, losses, index, mistakes, preds = round_arrays((np.float64, total), (np.float64, total),
                                                          (np.intp, total + 1 if every else 0),
                                                          (np.bool_, total), (np.int8, total))
    # the loop writes the weight table itself (one row per mistake) into room for every round's
    # row: only the rows written are touched, so only they take memory
    cap = total + 1 if every and (total + 1) * d <= TABLE_ROOM else 0
    room = big_empty((cap, d)) if cap else np.empty((0, d))
    rows, norms, w, R2, bad = _rounds(Xc, yc, epochs, every, scores, mistakes, losses, preds, index, room)
    reject(bad, lambda: _validate(X, y))
    freeze(scores, mistakes, losses, preds, index)
    w0 = np.zeros(d)
    if every:                                        # one row per mistake, bit for bit the loop's
        table = freeze(room[:rows.shape[0] + 1]) if cap else freeze(replay(Xc, rows, yc[rows], w0))
        rounds = None
    else:
        table, index, rounds = np.stack([w0, w]), None, np.array([0, T * epochs])
    ix = index
    M = lambda: mistake_count(mistakes, ix)          # noqa: E731  (M_t before each round, as a float)
    lazy = {"M": M, "norm_sq": lambda: norms[M().astype(np.intp)], "norm_sq_upper": lambda: M() * R2}
    eager = {"score": scores}
    if v is not None:
        vv = as_matrix(v, "v")[:, 0]
        if vv.shape != (d,):
            raise StreamError.bad("v", f"length {vv.size}", f"length d = {d}")
        nv = float(np.linalg.norm(vv))
        if nv == 0:
            raise StreamError.bad("v", "the zero vector", "a non-zero separator")
        vv = vv / nv
        gamma_v = float((yc * (Xc @ vv)).min())
        Mv = M()
        if index is not None:                        # every round's weights: w_t . v exactly
            w_dot_v = (table @ vv)[index]
        else:                                        # w_t . v = sum of y_s x_s . v over mistakes s < t
            w_dot_v = np.concatenate([[0.0], np.cumsum(yc[rows] * (Xc[rows] @ vv))])[Mv.astype(np.intp)]
        eager["w_dot_v"] = w_dot_v
        eager["w_dot_v_lower"] = Mv * gamma_v
    return Trace(
        losses=losses,
        predictions=preds,
        weight_table=table,
        weight_index=index,
        weight_rounds=rounds,
        mistakes=mistakes,
        extras=LazyExtras(eager, lazy),
    )


@njit
def _rounds(X, y, epochs, every, scores, mistakes, losses, preds, index, table):
    r"""The Perceptron's rounds, compiled: what the trace keeps, and no more.

    Writes the scores (T*epochs,), the mistakes (bool), the 0/1 losses, the predictions
    :math:`\operatorname{sign}(s)` (int8) and, with ``every``, the weight-table row in force
    before each round (T*epochs+1,; the mistakes so far) into the arrays given; when ``table``
    has rows, :math:`\mathbf w_1 = 0` and the weights after each mistake into its rows 0, 1, ...
    Returns the row
    of each mistake,
    :math:`\|w\|^2` after 0, 1, ... mistakes, the final weights,
    :math:`R^2 = \max_t \|x_t\|^2` and ``bad``: -1, or the first row with a NaN/inf entry or a
    label not in {-1, +1} (the loop stops there).
    """
    T, d = X.shape
    total = T * epochs
    rows = np.empty(total, dtype=np.int64)           # x_t of the k-th mistake
    norms = np.empty(total + 1)                      # ||w||^2 after k mistakes
    norms[0] = 0.0
    w = np.zeros(d)                                  # w_1 = 0, M_1 = 0
    keep = table.shape[0] > 0
    if keep:
        table[0, :] = 0.0
    R2 = 0.0
    M = 0
    bad = -1
    clean = 0                                        # rounds since the last mistake
    t = 0                                            # row of round r: r mod T
    r = 0
    while r < total:
        if clean >= T:                               # a whole pass without a mistake:
            for q in range(r, total):                # w never changes again
                scores[q] = scores[q - T]
                mistakes[q] = False
                losses[q] = 0.0
                preds[q] = preds[q - T]
                if every:
                    index[q] = M
            r = total
            break
        yt = y[t]
        if r < T:                                    # first pass: check the row, R^2 = max ||x_t||^2
            s, q2 = dot2_row(w, X, t)
            if not classified_row_ok(X, y, t, q2):
                bad = t
                break
            R2 = max(R2, q2)
        else:
            s = dot_row(w, X, t)                     # s = w_t . x_t
        scores[r] = s
        preds[r] = (s > 0) - (s < 0)                 # sign(s), without a branch on its sign
        if every:
            index[r] = M
        if yt * s <= 0:                              # mistake iff y_t (w_t . x_t) <= 0
            if keep:
                for i in range(d):                   # w_{t+1} = w_t + y_t x_t
                    wi = w[i] + yt * X[t, i]
                    w[i] = wi
                    table[M + 1, i] = wi
            else:
                for i in range(d):                   # w_{t+1} = w_t + y_t x_t
                    w[i] += yt * X[t, i]
            mistakes[r] = True
            losses[r] = 1.0
            rows[M] = t
            M += 1
            norms[M] = dot(w, w)
            clean = 0
        else:
            mistakes[r] = False
            losses[r] = 0.0
            clean += 1
        r += 1
        t += 1
        if t == T:
            t = 0
    if every:
        index[total] = M
    return rows[:M], norms[:M + 1], w, R2, bad


@kernel("perceptron")
def _warm():
    perceptron(np.array([[1.0, 0.0], [0.0, -1.0]]), np.array([1.0, 1.0]), epochs=2)


class Perceptron:
    r"""The Perceptron, line by line as in UCL COMP0078, Online learning.

    >>> p = Perceptron(2)
    >>> p.update([1.0, 0.0], 1)       # score 0: a mistake, w <- w + y x
    1.0
    >>> p.w.tolist(), p.M
    ([1.0, 0.0], 1)

    Parameters
    ----------
    d : int
        Dimension of the instances.
    """

    def __init__(self, d: int) -> None:
        self.w = np.zeros(d)  # 1. Initialise w_1 = 0; M_1 = 0
        self.M = 0

    def score(self, x) -> float:
        """:math:`\\mathbf{w}_t \\cdot \\mathbf{x}_t` (summed in the compiled loop's order)."""
        return sums.dot(self.w, x)

    def predict(self, x) -> int:
        """4. Predict :math:`\\hat y_t = \\operatorname{sign}(\\mathbf{w}_t\\cdot\\mathbf{x}_t)`."""
        return int(np.sign(self.score(x)))

    def update(self, x, y) -> float:
        """6./7. If :math:`y_t(\\mathbf{w}_t\\cdot\\mathbf{x}_t) \\le 0`, :math:`w \\leftarrow w + y_t x_t`.

        Returns the round's mistake, 1.0 or 0.0.  The test uses the same score as
        :meth:`predict` (:math:`\\hat y_t y_t \\le 0`).
        """
        x = np.asarray(x, dtype=float)
        y = float(y)
        if y not in (-1.0, 1.0):
            raise StreamError.bad("y", f"{y:g}", "a label in {-1, +1}")
        mistake = y * self.score(x) <= 0
        if mistake:
            self.w = self.w + y * x
            self.M += 1
        return float(mistake)
