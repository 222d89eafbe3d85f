r"""Passive-Aggressive algorithms PA, PA-I and PA-II (Crammer et al. 2006).

Notes
-----
Start from :math:`\mathbf{w}_0 = 0`.  Predict
:math:`\hat y_t = \operatorname{SGN}(\mathbf{w}_{t-1}^\top\mathbf{x}_t)`, suffer the hinge
loss :math:`\ell_t = [1 - y_t \mathbf{w}_{t-1}^\top \mathbf{x}_t]_+` and update

.. math::

    \mathbf{w}_t = \mathbf{w}_{t-1} + \eta_t y_t \mathbf{x}_t, \qquad
    \eta_t = \begin{cases}
      \ell_t / \|\mathbf{x}_t\|^2 & \text{PA (Hildreth's projection)}\\
      \min\{C,\ \ell_t / \|\mathbf{x}_t\|^2\} & \text{PA-I}\\
      \ell_t / (\|\mathbf{x}_t\|^2 + \tfrac{1}{2C}) & \text{PA-II}
    \end{cases}

Passive when :math:`\ell_t = 0` (i.e. :math:`y_t \mathbf{w}_{t-1}^\top\mathbf{x}_t \ge 1`),
aggressive otherwise.  PA projects :math:`\mathbf{w}_{t-1}` onto
:math:`\{\mathbf{w}: y_t \mathbf{w}^\top\mathbf{x}_t = 1\}`.

**PA-II's constant.** The slide in Cesa-Bianchi, On-line learning writes
:math:`\|\mathbf{x}_t\|^2 + 1/C`; the original paper (Crammer, Dekel, Keshet,
Shalev-Shwartz and Singer, JMLR 2006) derives :math:`\|\mathbf{x}_t\|^2 + 1/(2C)` from
:math:`\operatorname{argmin}_\mathbf{w} \tfrac12\|\mathbf{w}-\mathbf{w}_{t-1}\|^2 + C\xi^2`.
We follow the paper (as scikit-learn's ``learning_rate="pa2"`` does): the slide's
objective :math:`\tfrac{C}{2}\ell^2` corresponds to the paper's with :math:`C/2`.

A zero instance :math:`\mathbf{x}_t = 0` leaves the weights unchanged (:math:`\eta_t`
times the zero vector); PA's :math:`\eta_t` is then taken as 0.

**PA-I as dual ascent** (Cesa-Bianchi, On-line learning).  PA-I's step is
:math:`\alpha_t = \operatorname{argmax}_{0\le\alpha\le C} D_t(\alpha)` with
:math:`D_t(\alpha) = -\tfrac12\alpha^2\|\mathbf x_t\|^2 + \alpha(1 - y_t\mathbf w_{t-1}^\top\mathbf x_t)`,
and :math:`D_t(\alpha_t)` is the increase of the SVM dual
:math:`D_{svm}(\alpha) = -\tfrac12\|\sum_t\alpha_t y_t\mathbf x_t\|^2 + \sum_t\alpha_t`
(:math:`0\le\alpha_t\le C`) when :math:`\alpha_t` is set, so by weak duality
:math:`\sum_t D_t(\alpha_t) \le \text{SVM}_{OPT} = \min_{\mathbf u}\tfrac12\|\mathbf u\|^2 + C\sum_t\ell_t(\mathbf u)`
(:func:`olcore.bounds.svm_opt`).  The slides print :math:`D_{svm}` without the labels
:math:`y_t`; the increment they derive, and this module, include them.  A passive round has
:math:`\alpha_t = 0` and :math:`D_t(0) = 0`.  ``extras["dual_increment"]`` holds
:math:`D_t(\alpha_t)` (PA-I only).

**Bound (PA-I, Crammer et al. Theorem 4).** If :math:`\|\mathbf{x}_t\| \le R`, for every
:math:`\mathbf{u}`, :math:`M \le \max\{R^2, 1/C\}\,(\|\mathbf{u}\|^2 + 2C\sum_t \ell_t(\mathbf{u}))`
(the notes state it with :math:`R = 1`).  On separable streams PA has
:math:`\sum_t \ell_t(\mathbf{w}_{t-1})^2 \le \|\mathbf{u}\|^2 R^2`, hence the same
:math:`M \le \|\mathbf{u}\|^2 R^2`.

References
----------
Cesa-Bianchi, On-line learning ("Aggressive updates: Hildreth algorithm",
"Passive-aggressive algorithm", "Mistake bounds for PA-I").
"""

from __future__ import annotations

import numpy as np

from .. import _sums as sums
from ..errors import StreamError
from ..trace import LazyExtras, Trace
from ..validate import as_labels, as_matrix, check_param
from ..jit import f64, kernel, njit
from ._engine import (TABLE_ROOM, big_empty, check_epochs, check_record, classified_row_ok, dot, dot2_row, dot_row,
                      freeze, mistake_count, reject, replay, round_arrays, update_index)

__all__ = ["passive_aggressive", "PassiveAggressive", "VARIANTS"]

VARIANTS = ("PA", "PA-I", "PA-II")


def _check_variant(variant, C):
    if variant not in VARIANTS:
        raise StreamError.bad("variant", repr(variant), "one of 'PA', 'PA-I', 'PA-II'")
    return check_param(C, "C", 0, None, lo_open=True)


def step_size(variant: str, loss: float, sq_norm: float, C: float) -> float:
    r""":math:`\eta_t` of ``variant`` for hinge loss ``loss`` and :math:`\|x_t\|^2` = ``sq_norm``."""
    if variant == "PA-II":
        return loss / (sq_norm + 1.0 / (2.0 * C))
    if sq_norm == 0.0:
        return C if variant == "PA-I" else 0.0
    if variant == "PA-I":
        return min(C, loss / sq_norm)
    return loss / sq_norm


def passive_aggressive(X, y, variant: str = "PA", C: float = 1.0, epochs: int = 1,
                       record: str = "every") -> Trace:
    r"""Run PA, PA-I or PA-II over a stream (the fast path).

    One plain loop over the rounds, compiled with numba (:func:`hinge_rounds`).  The weights
    change only when the hinge loss is positive (:math:`y_t\,\mathbf{w}\cdot\mathbf{x}_t < 1`)
    and are stored only then.

    Parameters
    ----------
    X : array (T, d)
    y : array (T,) in {-1, +1}
    variant : {"PA", "PA-I", "PA-II"}, default="PA"
    C : float, default=1.0
        Aggressiveness :math:`C > 0` (ignored by PA).  PA-II uses :math:`1/(2C)` as in
        the paper (the slide writes :math:`1/C`).
    epochs : int, default=1
    record : {"every", "final"}, default="every"
        Which weights the trace keeps: every round's, or only the first and the final
        (``trace.recorded_rounds = [0, T]``; the extras are the same).

    Returns
    -------
    Trace
        ``losses`` hinge losses :math:`\ell_t(\mathbf{w}_{t-1})`, ``mistakes``
        :math:`y_t\,\mathbf{w}_{t-1}\cdot\mathbf{x}_t \le 0`, ``predictions`` the signs,
        weights (T+1, d); ``extras`` ``"score"``, ``"updated"``, ``"M"``, ``"norm_sq"``; PA-I also
        ``"dual_increment"`` (T,) :math:`D_t(\alpha_t) = -\tfrac12\alpha_t^2\|\mathbf x_t\|^2 +
        \alpha_t\ell_t(\mathbf w_{t-1})`, whose sum never exceeds :func:`olcore.bounds.svm_opt` of
        the stream played (cycled ``epochs`` times).

    References
    ----------
    Cesa-Bianchi, On-line learning; Crammer et al., JMLR 7 (2006) 551-585.
    """
    C = _check_variant(variant, C)
    code = {"PA": PA, "PA-I": PA_I, "PA-II": PA_II}[variant]
    return hinge_trace(X, y, code, float(C), epochs, record)


def dual_increments(X, losses, C: float, epochs: int = 1) -> np.ndarray:
    r"""PA-I's dual increments :math:`D_t(\alpha_t) = -\tfrac12\alpha_t^2\|\mathbf x_t\|^2 + \alpha_t\ell_t`
    with :math:`\alpha_t = \min\{C, \ell_t/\|\mathbf x_t\|^2\}` (:math:`C` when :math:`\mathbf x_t = 0`)
    when :math:`\ell_t > 0`, else 0; ``losses`` are the hinge losses :math:`\ell_t(\mathbf w_{t-1})`."""
    sq = np.einsum("td,td->t", X, X)
    sq = np.tile(sq, epochs) if epochs > 1 else sq
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = np.where(sq > 0, np.minimum(C, losses / np.where(sq > 0, sq, 1.0)), C)
    alpha = np.where(losses > 0, alpha, 0.0)
    return -0.5 * alpha * alpha * sq + alpha * losses


#: ``rule`` codes of :func:`hinge_rounds` (``CONSERVATIVE``: OGD updating only on a mistake)
OGD, PA, PA_I, PA_II, CONSERVATIVE = 0, 1, 2, 3, 4


def hinge_trace(X, y, rule: int, c: float, epochs, record: str) -> Trace:
    """Check the stream, run :func:`hinge_rounds` and build the trace (OGD and the PA family).

    ``X`` and ``y`` are checked here (shapes) and in the loop (finite entries, labels in
    {-1, +1}, row by row); a bad row raises the same :class:`olcore.StreamError` as
    :func:`olcore.validate.as_matrix` / :func:`~olcore.validate.as_labels`."""
    Xc = f64(as_matrix(X, "X", finite=False))
    yc = f64(as_labels(y, Xc.shape[0], "y", values=False))
    epochs = check_epochs(epochs, Xc.shape[0])
    record = check_record(record)
    every = record == "every"
    total = Xc.shape[0] * epochs
    scores, losses, dual, index, updated, mistakes, preds = round_arrays(
        (np.float64, total), (np.float64, total), (np.float64, total if rule == PA_I else 0),
        (np.intp, total + 1 if every else 0), (np.bool_, total), (np.bool_, total), (np.int8, total))
    T, d = Xc.shape
    # the loop writes the weight table itself (one row per update) into room for every round's
    # row: only the rows written are touched, so only they take memory
    cap = total + 1 if every and (total + 1) * d <= TABLE_ROOM else 0
    room = big_empty((cap, d)) if cap else np.empty((0, d))
    rows, steps, norms, w, bad = hinge_rounds(Xc, yc, rule, c, epochs, every,
                                              scores, updated, losses, mistakes, preds, index, dual, room)
    reject(bad, lambda: (as_matrix(X, "X"), as_labels(y, Xc.shape[0], "y", (-1, 1))))
    freeze(scores, updated, losses, mistakes, preds, index, dual)
    w0 = np.zeros(d)
    if every and cap:                                # one row per update, bit for bit the loop's
        table = freeze(room[:rows.shape[0] + 1])
        rounds = None
    elif every:
        table = replay(Xc, rows, steps, w0)
        if rule == CONSERVATIVE:                     # w_t = eta * (the sum of y_s x_s over the updates)
            table = c * table
        freeze(table)
        rounds = None
    else:
        table, index, rounds = np.stack([w0, w]), None, np.array([0, T * epochs])
    ix = index
    lazy = {"M": lambda: mistake_count(mistakes),
            "norm_sq": lambda: norms[update_index(updated) if ix is None else ix]}
    eager = {"score": scores, "updated": updated}
    if rule == PA_I:
        eager["dual_increment"] = dual
    return Trace(losses=losses, predictions=preds, weight_table=table, weight_index=index,
                 weight_rounds=rounds, mistakes=mistakes, extras=LazyExtras(eager, lazy))


@njit
def hinge_rounds(X, y, rule, c, epochs, every, scores, updated, losses, mistakes, preds, index, dual, table):
    r"""The rounds of a hinge-loss learner, compiled: OGD (``rule = OGD``, ``c`` = :math:`\eta`),
    PA, PA-I or PA-II (``c`` = :math:`C`), or conservative OGD (``rule = CONSERVATIVE``, the step
    :math:`\eta` taken only when :math:`y_t s \le 0`).

    Each round: :math:`s = \mathbf w\cdot\mathbf x_t`, loss :math:`[1 - y_t s]_+`; if
    :math:`y_t s < 1`, :math:`\mathbf w \leftarrow \mathbf w + \eta_t y_t \mathbf x_t` with
    :math:`\eta_t = \eta` (OGD) or the step of :func:`step_size`.  Conservative OGD keeps
    :math:`\mathbf v = \sum y_s\mathbf x_s` over its updates and uses :math:`\mathbf w = \eta\mathbf v`,
    score :math:`\eta(\mathbf v\cdot\mathbf x_t)`: the same numbers as adding :math:`\eta y_t\mathbf x_t`
    in exact arithmetic, and in floating point every score has exactly the sign of the Perceptron's
    (adding the rounded :math:`\eta y_t x_{t,i}` round by round can turn an exact tie at 0 into
    :math:`\pm 10^{-18}`); the steps returned are then :math:`y_t` (coefficients of :math:`\mathbf v`).

    Writes into the arrays given, per round (T*epochs,): the scores, updated (bool), the hinge
    losses, the mistakes (:math:`y_t s \le 0`), the predictions :math:`\operatorname{sign}(s)`
    (int8), PA-I's dual increments :math:`D_t(\alpha_t) = -\tfrac12\alpha_t^2\|\mathbf x_t\|^2 +
    \alpha_t\ell_t` (empty for the other rules) and, with ``every``, the updates before each round
    (T*epochs+1,: the weight-table row in force); when ``table`` has rows, :math:`\mathbf w_1 = 0`
    and the weights after each update into its rows 0, 1, ... (conservative OGD: :math:`\eta\mathbf v`).
    Returns the row and the step
    :math:`\eta_t y_t` of each update, :math:`\|\mathbf w\|^2` after 0, 1, ... updates, the final
    weights and ``bad``: -1, or the first row with a NaN/inf entry or a label not in {-1, +1}
    (the loop stops there).
    """
    T, d = X.shape
    total = T * epochs
    rows = np.empty(total, dtype=np.int64)
    steps = np.empty(total)
    norms = np.empty(total + 1)                      # ||w||^2 after k updates
    norms[0] = 0.0
    w = np.zeros(d)                                  # w_1 = 0 (conservative: v_1 = 0, w = eta v)
    scale = c if rule == CONSERVATIVE else 1.0
    keep = table.shape[0] > 0
    if keep:
        table[0, :] = 0.0
    k = 0
    bad = -1
    clean = 0                                        # rounds since the last update
    t = 0                                            # row of round r: r mod T
    r = 0
    while r < total:
        if clean >= T:                               # a whole pass without an update: w is final
            for q in range(r, total):
                scores[q] = scores[q - T]
                updated[q] = False
                if rule == PA_I:
                    dual[q] = 0.0
                losses[q] = losses[q - T]
                mistakes[q] = mistakes[q - T]        # False: a mistake updates every rule
                preds[q] = preds[q - T]
                if every:
                    index[q] = k
            r = total
            break
        yt = y[t]
        if r < T:                                    # first pass: check the row
            p, sq = dot2_row(w, X, t)
            if not classified_row_ok(X, y, t, sq):
                bad = t
                break
        else:
            p = dot_row(w, X, t)
            sq = -1.0                                # ||x_t||^2 computed when needed
        s = scale * p                                # s = w . x_t  (conservative: eta (v . x_t))
        m = yt * s
        scores[r] = s
        preds[r] = (s > 0) - (s < 0)                 # sign(s), without a branch on its sign
        if every:
            index[r] = k
        losses[r] = max(0.0, 1.0 - m)                # hinge loss [1 - y_t w.x_t]_+
        mistakes[r] = m <= 0
        if m < 1 and (rule != CONSERVATIVE or m <= 0):   # hinge loss > 0 (a mistake): update
            if rule == OGD:
                eta = c
            elif rule == CONSERVATIVE:
                eta = 1.0                            # v <- v + y_t x_t
            else:
                if sq < 0:
                    sq = dot2_row(w, X, t)[1]        # ||x_t||^2 (the sums of the first pass)
                loss = 1.0 - m
                if rule == PA_II:
                    eta = loss / (sq + 1.0 / (2.0 * c))
                elif sq == 0.0:
                    eta = c if rule == PA_I else 0.0
                elif rule == PA_I:
                    eta = min(c, loss / sq)
                else:
                    eta = loss / sq
                if rule == PA_I:                     # D_t(alpha_t), alpha_t = eta_t
                    dual[r] = -0.5 * eta * eta * sq + eta * loss
            step = eta * yt                          # w <- w + eta_t y_t x_t
            if keep:
                for i in range(d):
                    wi = w[i] + step * X[t, i]
                    w[i] = wi
                    table[k + 1, i] = scale * wi
            else:
                for i in range(d):
                    w[i] += step * X[t, i]
            updated[r] = True
            rows[k] = t
            steps[k] = step
            k += 1
            norms[k] = dot(w, w) * scale * scale
            clean = 0
        else:
            updated[r] = False
            if rule == PA_I:
                dual[r] = 0.0                        # alpha_t = 0 on a passive round
            clean += 1
        r += 1
        t += 1
        if t == T:
            t = 0
    if every:
        index[total] = k
    return rows[:k], steps[:k], norms[:k + 1], scale * w, bad


@kernel("passive_aggressive")
def _warm():
    for variant in VARIANTS:
        passive_aggressive(np.array([[1.0, 0.0], [0.0, -1.0]]), np.array([1.0, 1.0]), variant, epochs=2)


class PassiveAggressive:
    r"""PA / PA-I / PA-II, line by line as the slides of Cesa-Bianchi, On-line learning.

    >>> pa = PassiveAggressive(2)
    >>> pa.update([2.0, 0.0], 1)   # loss 1, eta = 1/4: w = (0.5, 0): margin exactly 1
    1.0
    >>> pa.w.tolist()
    [0.5, 0.0]
    """

    def __init__(self, d: int, variant: str = "PA", C: float = 1.0) -> None:
        self.C = _check_variant(variant, C)
        self.variant = variant
        self.w = np.zeros(d)  # w_0 = 0
        self.dual_increment = 0.0   # D_t(alpha_t) of the last round (PA-I)
        self.updated = False        # whether the last round moved w

    def predict(self, x) -> int:
        """:math:`\\hat y_t = \\operatorname{SGN}(\\mathbf{w}_{t-1}^\\top \\mathbf{x}_t)`."""
        return int(np.sign(sums.dot(self.w, x)))

    def update(self, x, y) -> float:
        """Suffer :math:`\\ell_t`; if positive, :math:`w \\leftarrow w + \\eta_t y_t x_t`. Returns :math:`\\ell_t`."""
        x = np.asarray(x, dtype=float)
        y = float(y)
        if y not in (-1.0, 1.0):
            raise StreamError.bad("y", f"{y:g}", "a label in {-1, +1}")
        s = sums.dot(self.w, x)             # w_{t-1} . x_t, summed in the compiled loop's order
        loss = max(0.0, 1.0 - y * s)
        self.dual_increment = 0.0           # D_t(alpha_t); alpha_t = 0 on a passive round
        self.updated = y * s < 1
        if self.updated:
            sq = sums.dot(x, x)
            eta = step_size(self.variant, 1.0 - y * s, sq, self.C)
            if self.variant == "PA-I":      # alpha_t = argmax_{0 <= a <= C} -a^2 ||x||^2 / 2 + a l_t
                self.dual_increment = -0.5 * eta * eta * sq + eta * loss
            self.w = self.w + eta * y * x
        return loss
