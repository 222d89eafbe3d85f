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

from ..errors import StreamError
from ..trace import Trace
from ..validate import as_labels, as_matrix
from ..jit import f64, kernel, njit
from ._engine import check_epochs, dot, check_record, replay, update_index, weight_record

__all__ = ["perceptron", "Perceptron"]


def _validate(X, y):
    X = as_matrix(X, "X")
    y = as_labels(y, X.shape[0], "y", (-1, 1))
    return X, y


def perceptron(X, y, epochs: int = 1, v=None, record: str = "every") -> Trace:
    r"""Run the Perceptron over a stream (the fast path).

    One plain loop over the rounds, compiled with numba; the weights are stored only
    when they change (``Trace.weight_table`` has :math:`M + 1` rows).

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
    X, y = _validate(X, y)
    T, d = X.shape
    epochs = check_epochs(epochs, T)
    record = check_record(record)
    Xc, yc = f64(X), f64(y)
    scores, mistakes, rows, norm_sq, w, R2 = _rounds(Xc, yc, epochs)
    w0 = np.zeros(d)
    table, index, rounds = weight_record(record, mistakes, w0, w,
                                         lambda: replay(Xc, rows, yc[rows], w0))
    M = update_index(mistakes).astype(float)
    extras = {"M": M, "norm_sq": norm_sq[:rows.size + 1][M.astype(np.intp)],
              "norm_sq_upper": M * R2, "score": scores}
    if v is not None:
        vv = as_matrix(v, "v")[:, 0]
        if vv.shape != (d,):
            raise StreamError.bad("v", f"length {vv.size}", f"length d = {d}")
        nv = float(np.linalg.norm(vv))
        if nv == 0:
            raise StreamError.bad("v", "the zero vector", "a non-zero separator")
        vv = vv / nv
        gamma_v = float((y * (X @ vv)).min())
        if index is not None:                        # every round's weights: w_t . v exactly
            w_dot_v = (table @ vv)[index]
        else:                                        # w_t . v = sum of y_s x_s . v over mistakes s < t
            w_dot_v = np.concatenate([[0.0], np.cumsum(yc[rows] * (Xc[rows] @ vv))])[M.astype(np.intp)]
        extras["w_dot_v"] = w_dot_v
        extras["w_dot_v_lower"] = M * gamma_v
    return Trace(
        losses=mistakes.astype(float),
        predictions=np.sign(scores).astype(np.int8),
        weight_table=table,
        weight_index=index,
        weight_rounds=rounds,
        mistakes=mistakes,
        extras=extras,
    )


@njit
def _rounds(X, y, epochs):
    """The Perceptron's rounds, compiled.

    Returns the scores (T*epochs,), the mistakes (bool), the row of each mistake, the
    squared norms :math:`\\|w\\|^2` after 0, 1, ... mistakes, the final weights and
    :math:`R^2 = \\max_t \\|x_t\\|^2`.
    """
    T, d = X.shape
    total = T * epochs
    scores = np.empty(total)
    mistakes = np.zeros(total, dtype=np.bool_)
    rows = np.empty(total, dtype=np.int64)          # x_t of the k-th mistake
    norm_sq = np.zeros(total + 1)                    # ||w||^2 after k mistakes
    w = np.zeros(d)                                  # w_1 = 0, M_1 = 0
    R2 = 0.0
    M = 0
    clean = 0                                        # rounds since the last mistake
    for r in range(total):
        t = r % T
        if clean >= T:                               # a whole pass without a mistake:
            scores[r] = scores[r - T]                # w never changes again
            continue
        s = dot(w, X[t])                             # s = w_t . x_t
        scores[r] = s
        if r < T:                                    # R^2 = max_t ||x_t||^2 (first pass)
            R2 = max(R2, dot(X[t], X[t]))
        if y[t] * s <= 0:                            # mistake iff y_t (w_t . x_t) <= 0
            nn = 0.0
            for i in range(d):                       # w_{t+1} = w_t + y_t x_t
                w[i] += y[t] * X[t, i]
                nn += w[i] * w[i]
            mistakes[r] = True
            rows[M] = t
            M += 1
            norm_sq[M] = nn
            clean = 0
        else:
            clean += 1
    return scores, mistakes, rows[:M].copy(), norm_sq, w, R2


@kernel("perceptron")
def _warm():
    perceptron(np.array([[1.0, 0.0], [0.0, -1.0]]), np.array([1.0, 1.0]), epochs=2)


class Perceptron:
    r"""The Perceptron, line by line as in UCL COMP0078, Online learning.

    >>> p = Perceptron(2)
    >>> p.update([1.0, 0.0], 1)       # score 0: a mistake, w <- w + y x
    True
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
        """:math:`\\mathbf{w}_t \\cdot \\mathbf{x}_t`."""
        return float(np.dot(self.w, np.asarray(x, dtype=float)))

    def predict(self, x) -> int:
        """4. Predict :math:`\\hat y_t = \\operatorname{sign}(\\mathbf{w}_t\\cdot\\mathbf{x}_t)`."""
        return int(np.sign(self.score(x)))

    def update(self, x, y) -> bool:
        """6./7. If :math:`y_t(\\mathbf{w}_t\\cdot\\mathbf{x}_t) \\le 0`, :math:`w \\leftarrow w + y_t x_t`.

        Returns whether round ``t`` was a mistake.  The test uses the same score as
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
        return bool(mistake)
