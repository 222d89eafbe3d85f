r"""Online-to-batch conversion for classifiers: the ensemble, its risk bounds, the penalised choice.

Notes
-----
Cesa-Bianchi, On-line learning (the last part, "Statistical learning theory"): run an incremental
learner once over an i.i.d. sample :math:`(\mathbf x_1, y_1), \dots, (\mathbf x_n, y_n)`; it passes
through the **ensemble** :math:`H_0, H_1, \dots, H_n` (:math:`H_t` is the hypothesis after :math:`t`
examples, :math:`H_0` the initial one), and :math:`M_n = \sum_{t=1}^n \mathbb 1[H_{t-1}(\mathbf x_t)\ne y_t]`
counts its online mistakes.  With :math:`\operatorname{risk}(H) = \mathbb P(H(\mathbf x)\ne y)`:

1. :math:`\operatorname{risk}(H_{t-1}) - \mathbb 1[H_{t-1}(\mathbf x_t)\ne y_t]` is a martingale difference
   sequence, so Bernstein's inequality bounds the average risk by :math:`M_n/n` plus a deviation
   (:func:`olcore.bounds.average_risk`);
2. test each :math:`H_t` on the examples it has not seen, :math:`(\mathbf x_{t+1}, y_{t+1}), \dots,
   (\mathbf x_n, y_n)`, and pick :math:`\hat H = H_{t^*}` minimising a penalised risk estimate
   (:func:`choose_penalised`), with :math:`\operatorname{risk}(\hat H)` bounded by :math:`M_n/n` plus a
   deviation (:func:`olcore.bounds.chosen_risk`).

The notes leave the penalty and the constants implicit; the explicit ones used here and their
derivation from the notes' Bernstein inequality are in :mod:`olcore.bounds.risk`.

Conventions: a linear hypothesis :math:`H(\mathbf x) = \operatorname{SGN}(\mathbf w\cdot\mathbf x)` errs on
:math:`(\mathbf x, y)` iff :math:`y\,\mathbf w\cdot\mathbf x \le 0` (the learners' own mistake test), so
:math:`H_0` with :math:`\mathbf w = \mathbf 0` errs everywhere: :math:`\operatorname{risk}(H_0) = 1`.

The notes' learner changes :math:`H` only on a mistake; nothing in either step needs that (only that
:math:`H_{t-1}` depends on the first :math:`t-1` examples), so PA, which also updates on correct predictions
with a margin below 1, fits as well.

Learners are looked up in :data:`LEARNERS` by name (the Perceptron, PA, PA-I and ALMA with α = 0.9);
:func:`register_learner` adds another: any whole-stream function ``fn(X, y, **params) -> Trace``
recording every update's weights fits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .. import bounds, linear
from ..bounds._broadcast import out
from ..errors import StreamError
from ..jit import f64, kernel, njit
from ..trace import Trace
from ..validate import as_labels, as_matrix, check_param

__all__ = ["Learner", "LEARNERS", "register_learner", "Ensemble", "ensemble", "error_matrix_rows",
           "sample_risk", "holdout_errors", "unseen_errors", "Choice", "choose_penalised", "penalised_criterion",
           "RiskBounds", "risk_bounds", "GaussianHalfspace", "GaussianClasses", "EmpiricalDistribution"]


@dataclass(frozen=True)
class Learner:
    """An incremental linear classifier the conversion can run: a label and its whole-stream function."""

    label: str
    run: Callable[..., Trace]
    defaults: dict = field(default_factory=dict)


#: The learners by name (more join with :func:`register_learner`).
LEARNERS: dict[str, Learner] = {
    "perceptron": Learner("Perceptron", linear.perceptron),
    "pa": Learner("Passive-Aggressive (PA)", linear.passive_aggressive, {"variant": "PA"}),
    "pa1": Learner("PA-I", linear.passive_aggressive, {"variant": "PA-I", "C": 1.0}),
    "alma": Learner("ALMA (α = 0.9)", linear.alma, {"alpha": 0.9}),
}


def register_learner(name: str, label: str, run: Callable[..., Trace], **defaults) -> None:
    """Add a learner (e.g. ``register_learner("alma", "ALMA", linear.alma, alpha=0.9)``)."""
    LEARNERS[name] = Learner(label, run, dict(defaults))


@dataclass(frozen=True, eq=False)
class Ensemble:
    r"""The hypotheses :math:`H_0, \dots, H_n` of one run, stored compactly.

    ``table[index[t]]`` is the weight vector of :math:`H_t` (``table`` holds each distinct one
    once: a conservative learner changes it only on mistakes), ``mistakes[t-1]`` is
    :math:`\mathbb 1[H_{t-1}(\mathbf x_t)\ne y_t]`.
    """

    table: np.ndarray        # (K, d)
    index: np.ndarray        # (n+1,)
    mistakes: np.ndarray     # (n,) bool
    learner: str
    trace: Trace

    @property
    def n(self) -> int:
        return int(self.mistakes.size)

    @property
    def M(self) -> np.ndarray:
        """(n,): :math:`M_t`, the mistakes in rounds :math:`1..t`."""
        return np.cumsum(self.mistakes)

    @property
    def weights(self) -> np.ndarray:
        """(n+1, d): row t is :math:`H_t`'s weight vector."""
        return self.table[self.index]

    def averaged(self) -> np.ndarray:
        r""":math:`\mathbf v = \frac1n\sum_{t=0}^{n-1}\mathbf w(H_t)`: the averaging conversion of the regression
        lesson (:func:`olcore.online_to_batch.averaged` of :attr:`weights`), computed from the table."""
        counts = np.bincount(self.index[:-1], minlength=self.table.shape[0])
        return counts @ self.table / self.n


def ensemble(X, y, learner: str = "perceptron", **params) -> Ensemble:
    r"""Run ``learner`` once over the sample and keep the ensemble :math:`H_0, \dots, H_n` it passes through.

    Parameters
    ----------
    X : array (n, d)
    y : array (n,) in {-1, +1}
    learner : str, default="perceptron"
        A key of :data:`LEARNERS` (``"perceptron"``, ``"pa"``, ``"pa1"``; ``"alma"`` once registered).
    **params
        The learner's parameters (e.g. ``C`` for PA-I), over its defaults.

    Returns
    -------
    Ensemble
        Its ``table``/``index`` are the learner's own ``trace.weight_table``/``weight_index``.

    Examples
    --------
    >>> E = ensemble([[1.0, 0.0], [0.0, 1.0], [2.0, 1.0]], [1, -1, 1])
    >>> E.index.tolist(), E.mistakes.tolist()       # H_0 = 0 errs (score 0), H_1 = (1, 0) errs on (0, 1)
    ([0, 1, 2, 2], [True, True, False])
    """
    if learner not in LEARNERS:
        raise StreamError.bad("learner", repr(learner), "one of " + ", ".join(map(repr, LEARNERS)))
    spec = LEARNERS[learner]
    X = as_matrix(X, "X")
    y = as_labels(y, X.shape[0], "y", (-1, 1))
    tr = spec.run(X, y, **{**spec.defaults, **params})
    if tr.mistakes is None or tr.weight_rounds is not None and tr.weight_rounds.size != tr.T + 1:
        raise StreamError.bad("learner", repr(learner), "a classifier recording every round's weights")
    return Ensemble(table=tr.weight_table, index=tr.weight_index, mistakes=np.asarray(tr.mistakes, bool),
                    learner=learner, trace=tr)


#: Rows of ``W`` per matrix product in :func:`error_matrix_rows` and :func:`sample_risk`.
_CHUNK = 128


def error_matrix_rows(W, X, y, chunk: int = _CHUNK):
    r"""Yield ``(k0, E)`` with ``E[i, j]`` = :math:`\mathbb 1[y_j\,\mathbf w_{k_0+i}\cdot\mathbf x_j \le 0]`,
    ``chunk`` rows of ``W`` at a time (memory :math:`O(\text{chunk}\cdot N)`)."""
    W = np.atleast_2d(np.asarray(W, dtype=float))
    for k0 in range(0, W.shape[0], chunk):
        yield k0, (W[k0:k0 + chunk] @ X.T) * y <= 0


def sample_risk(W, X, y) -> np.ndarray | float:
    r"""The error rate of each weight vector on a (held-out) sample: :math:`\frac1N\sum_j \mathbb 1[y_j\,\mathbf w\cdot\mathbf x_j \le 0]`.

    ``W`` (K, d) gives (K,); one vector (d,) gives a float.

    >>> sample_risk([[1.0, 0.0], [0.0, 0.0]], [[1.0, 2.0], [-1.0, 1.0]], [1, 1]).tolist()
    [0.5, 1.0]
    """
    one = np.ndim(W) == 1
    X = as_matrix(X, "X")
    y = as_labels(y, X.shape[0], "y", (-1, 1)).astype(float)
    W = np.atleast_2d(np.asarray(W, dtype=float))
    if W.shape[1] != X.shape[1]:
        raise StreamError.bad("W", f"{W.shape[1]} columns", f"the sample's dimension {X.shape[1]}")
    # error_matrix_rows' products and tests, chunk by chunk, into two buffers allocated once; the count
    # over N is the mean's exact sum (of 0s and 1s) divided by N
    K, N = W.shape[0], X.shape[0]
    h = min(K, _CHUNK)
    P, E = np.empty((h, N)), np.empty((h, N), dtype=bool)
    out = np.empty(K)
    for k0 in range(0, K, _CHUNK):
        c = min(_CHUNK, K - k0)
        p = np.matmul(W[k0:k0 + c], X.T, out=P[:c])
        np.multiply(p, y, out=p)
        out[k0:k0 + c] = np.count_nonzero(np.less_equal(p, 0, out=E[:c]), axis=1) / N
    return float(out[0]) if one else out


def holdout_errors(X, y, ens: Ensemble) -> np.ndarray:
    r""":math:`e_t = \sum_{i=t+1}^n \mathbb 1[H_t(\mathbf x_i)\ne y_i]` for :math:`t = 0..n-1`: each hypothesis's
    errors on the :math:`m_t = n - t` examples it has not seen (row ``t`` onwards, 0-based).

    One compiled loop (:func:`unseen_errors`): each distinct hypothesis is tested once on every row from
    the first round it is in force to the last, so the work is :math:`O(\sum_k (n - a_k)\,d)` for
    hypotheses first used in rounds :math:`a_k`.  The error test is the learners' own,
    :math:`y\,\mathbf w\cdot\mathbf x \le 0` with the dot product summed as theirs
    (:func:`olcore.linear._engine.dot`), so :math:`e_t - e_{t+1}` is the online mistake of round
    :math:`t+1` whenever :math:`H_{t+1} = H_t`.
    """
    X = as_matrix(X, "X")
    y = as_labels(y, X.shape[0], "y", (-1, 1))
    if X.shape[0] != ens.n:
        raise StreamError.bad("X", f"{X.shape[0]} rows", f"the ensemble's sample size n = {ens.n}")
    index = np.ascontiguousarray(ens.index, dtype=np.int64).view()
    index.setflags(write=False)                       # one numba specialisation: read-only inputs
    return unseen_errors(f64(ens.table), index, f64(X), f64(y))


@njit
def unseen_errors(table, index, X, y):
    r"""The loop of :func:`holdout_errors` (float64 / int64 C-contiguous arrays; ``index[:n]`` is read).

    Let the runs of equal ``index[:n]`` be :math:`s = 0..S-1`, run :math:`s` starting at row :math:`a_s`
    with weights :math:`\mathbf w_s`.  One sweep over the rows :math:`j = n-1, \dots, 0` keeps
    :math:`c_s = \sum_{i \ge j} \mathbb 1[y_i\,\mathbf w_s\cdot\mathbf x_i \le 0]` for every run with
    :math:`a_s \le j`, and :math:`e_j = c_{s(j)}` for the run :math:`s(j)` in force at row :math:`j`.

    Row :math:`j` tests all those runs at once, the runs in vector lanes: the weights are stored by
    coordinate (``W[i, s]``) and each :math:`\mathbf w_s\cdot\mathbf x_j` is :func:`~olcore.linear._engine.dot`'s
    sum, term by term in its order: four running sums :math:`\sigma_l = \sum_b w_{4b+l}x_{4b+l}` over the
    :math:`\lfloor d/4\rfloor` blocks (each from 0.0), the last :math:`d \bmod 4` terms added to
    :math:`\sigma_0` in turn, then :math:`(\sigma_0 + \sigma_1) + (\sigma_2 + \sigma_3)`.  The same roundings,
    so the same scores bit for bit.  Every block but the last is summed into ``L`` (lanes by run); the last
    block, the remaining terms and the test form one pass.  With :math:`d < 4` that block is four zero
    weights on zero coordinates: :math:`0.0 + 0\cdot 0 = 0.0`, the sums' start, exactly.
    """
    n, d = X.shape
    e = np.zeros(n)
    q = d - d % 4                   # the blocks: columns 0..q-1; the remaining r columns go into sigma_0
    r = d - q
    qq = max(q, 4)                  # W's rows: the blocks (or four zero rows), then the r remaining columns
    first = np.empty(n, np.int64)
    run = np.empty(n, np.int64)
    S = 0
    for t in range(n):
        if t == 0 or index[t] != index[t - 1]:
            first[S] = t
            S += 1
        run[t] = S - 1
    W = np.zeros((qq + r, S))
    for s in range(S):
        k = index[first[s]]
        for i in range(q):
            W[i, s] = table[k, i]
        for i in range(r):
            W[qq + i, s] = table[k, q + i]
    L = np.zeros((4, S))            # sigma_0..3 over the blocks before the last; zeros when there are none
    c = np.zeros(S, np.int64)
    b = qq - 4                      # the last block's first row of W
    for j in range(n - 1, -1, -1):
        m = run[j] + 1              # runs 0..m-1 are in force at row j or before
        for i in range(0, q - 4, 4):
            x0, x1, x2, x3 = X[j, i], X[j, i + 1], X[j, i + 2], X[j, i + 3]
            if i == 0:
                for s in range(m):
                    L[0, s] = 0.0 + W[0, s] * x0
                    L[1, s] = 0.0 + W[1, s] * x1
                    L[2, s] = 0.0 + W[2, s] * x2
                    L[3, s] = 0.0 + W[3, s] * x3
            else:
                for s in range(m):
                    L[0, s] += W[i, s] * x0
                    L[1, s] += W[i + 1, s] * x1
                    L[2, s] += W[i + 2, s] * x2
                    L[3, s] += W[i + 3, s] * x3
        if q == 0:
            x0 = x1 = x2 = x3 = 0.0
        else:
            x0, x1, x2, x3 = X[j, b], X[j, b + 1], X[j, b + 2], X[j, b + 3]
        yj = y[j]
        if r == 0:
            for s in range(m):
                v = (((L[0, s] + W[b, s] * x0) + (L[1, s] + W[b + 1, s] * x1))
                     + ((L[2, s] + W[b + 2, s] * x2) + (L[3, s] + W[b + 3, s] * x3)))
                c[s] += yj * v <= 0.0
        elif r == 1:
            t0 = X[j, q]
            for s in range(m):
                v = ((((L[0, s] + W[b, s] * x0) + W[qq, s] * t0) + (L[1, s] + W[b + 1, s] * x1))
                     + ((L[2, s] + W[b + 2, s] * x2) + (L[3, s] + W[b + 3, s] * x3)))
                c[s] += yj * v <= 0.0
        elif r == 2:
            t0, t1 = X[j, q], X[j, q + 1]
            for s in range(m):
                v = (((((L[0, s] + W[b, s] * x0) + W[qq, s] * t0) + W[qq + 1, s] * t1)
                      + (L[1, s] + W[b + 1, s] * x1))
                     + ((L[2, s] + W[b + 2, s] * x2) + (L[3, s] + W[b + 3, s] * x3)))
                c[s] += yj * v <= 0.0
        else:
            t0, t1, t2 = X[j, q], X[j, q + 1], X[j, q + 2]
            for s in range(m):
                v = ((((((L[0, s] + W[b, s] * x0) + W[qq, s] * t0) + W[qq + 1, s] * t1) + W[qq + 2, s] * t2)
                      + (L[1, s] + W[b + 1, s] * x1))
                     + ((L[2, s] + W[b + 2, s] * x2) + (L[3, s] + W[b + 3, s] * x3)))
                c[s] += yj * v <= 0.0
        e[j] = c[m - 1]
    return e


@kernel("online_to_batch")
def _warm():
    X = np.array([[1.0, 0.0], [0.0, -1.0]])
    holdout_errors(X, np.array([1.0, 1.0]), ensemble(X, [1.0, 1.0]))


@dataclass(frozen=True, eq=False)
class Choice:
    r"""The penalised choice :math:`\hat H = H_{t^*}`.

    ``criterion[t]`` :math:`= U_t =` ``estimate[t] + penalty[t]``, the upper confidence bound of
    :func:`olcore.bounds.holdout_risk` at :math:`\delta/(3n)`; ``t_star`` its (first) arg-min, and
    ``bound`` :math:`= U_{t^*} \ge \operatorname{risk}(\hat H)` with probability at least :math:`1-\delta/3`.
    """

    t_star: int
    errors: np.ndarray       # (n,) e_t
    m: np.ndarray            # (n,) n - t
    estimate: np.ndarray     # (n,) e_t / m_t
    penalty: np.ndarray      # (n,)
    criterion: np.ndarray    # (n,)
    level: float             # L_pen = ln(3n/delta)
    delta: float

    @property
    def bound(self) -> float:
        return float(self.criterion[self.t_star])


def choose_penalised(X, y, ens: Ensemble, delta: float = 0.05) -> Choice:
    r"""Pick :math:`\hat H = H_{t^*}`, :math:`t^* = \operatorname{argmin}_{0\le t<n}\ \hat r_t + \text{pen}_t`.

    .. math::

        \hat r_t = \frac{e_t}{m_t},\qquad
        \hat r_t + \text{pen}_t = \frac1{m_t}\Big(e_t + \frac{4L}{3} + \sqrt{\frac{16L^2}{9} + 2Le_t}\Big),
        \qquad L = \ln\frac{3n}{\delta}

    (:math:`e_t` errors of :math:`H_t` on its :math:`m_t = n-t` unseen examples, :func:`holdout_errors`).
    :math:`H_n` has no unseen example and is not a candidate, as in the notes.  Ties go to the
    smallest :math:`t`.

    Parameters
    ----------
    X, y : the sample the ensemble was run on (n rows)
    ens : Ensemble
    delta : float in (0, 1), default=0.05

    >>> X, y = [[1.0, 0.0], [0.0, 1.0], [2.0, 1.0], [1.0, -1.0]], [1, -1, 1, 1]
    >>> c = choose_penalised(X, y, ensemble(X, y), 0.1)
    >>> c.errors.tolist()                           # H_2 = (1, -1) makes no error on rows 3, 4
    [4.0, 1.0, 0.0, 0.0]
    >>> c.t_star == int(c.criterion.argmin())
    True
    """
    delta = check_param(delta, "delta", 0, 1, lo_open=True, hi_open=True)
    e = holdout_errors(X, y, ens)
    n = ens.n
    m = (n - np.arange(n)).astype(float)
    U = penalised_criterion(e, delta)
    est = e / m
    return Choice(t_star=int(np.argmin(U)), errors=e, m=m, estimate=est, penalty=U - est, criterion=U,
                  level=float(bounds.penalty_level(n, delta)), delta=delta)


def penalised_criterion(errors, delta: float = 0.05) -> np.ndarray:
    r"""The criterion of :func:`choose_penalised`, :math:`U_t = \hat r_t + \text{pen}_t`, from the unseen-error counts.

    .. math::

        U_t = \frac1{m_t}\Big(e_t + \frac{4L}{3} + \sqrt{\frac{16L^2}{9} + 2Le_t}\Big),\qquad
        m_t = n - t,\quad L = \ln\frac{3n}{\delta}

    for :math:`t = 0..n-1` along the last axis of ``errors`` (:func:`olcore.bounds.holdout_risk` at
    :math:`\delta/(3n)`).  Elementwise: the rows of an ``(R, n)`` array, the counts of :math:`R` samples of
    size :math:`n`, give the rows each alone would, bit for bit, in one call.

    >>> E = np.array([[4.0, 1.0, 0.0, 0.0], [2.0, 2.0, 1.0, 0.0]])
    >>> U = penalised_criterion(E, 0.1)
    >>> [U[i].tobytes() == penalised_criterion(E[i], 0.1).tobytes() for i in range(2)]
    [True, True]
    """
    delta = check_param(delta, "delta", 0, 1, lo_open=True, hi_open=True)
    e = np.asarray(errors, dtype=float)
    if e.ndim not in (1, 2) or e.shape[-1] < 1:
        raise StreamError.bad("errors", f"shape {e.shape}", "an array (n,) or (R, n) of counts, n >= 1")
    n = e.shape[-1]
    return np.asarray(bounds.holdout_risk(e, (n - np.arange(n)).astype(float), delta / (3.0 * n)), dtype=float)


@dataclass(frozen=True)
class RiskBounds:
    r"""The two bounds on one run (floats) or over prefixes (arrays), each w.p. :math:`\ge 1-\delta`.

    ``average`` bounds :math:`\frac1n\sum_t\operatorname{risk}(H_{t-1})`; ``envelope`` :math:`= n\cdot` ``average``
    :math:`- M_n` bounds the martingale :math:`\sum_t(\operatorname{risk}(H_{t-1}) - \mathbb 1[\text{mistake}_t])`;
    ``chosen`` bounds :math:`\operatorname{risk}(\hat H)`; ``level`` :math:`L = \ln(J_n/\delta)`, ``level_pen``
    :math:`\ln(3n/\delta)`.  None is capped at 1.
    """

    average: float | np.ndarray
    envelope: float | np.ndarray
    chosen: float | np.ndarray
    level: float | np.ndarray
    level_pen: float | np.ndarray


def risk_bounds(mistakes, n, delta: float = 0.05) -> RiskBounds:
    r"""The average-risk bound and the chosen-:math:`\hat H` bound for :math:`M_n` mistakes in :math:`n` rounds.

    Broadcasts: arrays of :math:`M_t` and :math:`t` give the bounds after each round.  See
    :func:`olcore.bounds.average_risk` and :func:`olcore.bounds.chosen_risk` (derivations in
    :mod:`olcore.bounds.risk`).

    >>> b = risk_bounds(30, 1000, 0.05)
    >>> 0.03 < b.average < b.chosen
    True
    """
    avg = bounds.average_risk(mistakes, n, delta)
    return RiskBounds(average=avg,
                      envelope=out(np.asarray(avg) * np.asarray(n, float) - np.asarray(mistakes, float)),
                      chosen=bounds.chosen_risk(mistakes, n, delta),
                      level=bounds.average_risk_level(n, delta), level_pen=bounds.penalty_level(n, delta))


# -- distributions with a known risk ---------------------------------------------------------------------

def _phi(z) -> np.ndarray:
    """The standard normal cdf, elementwise."""
    return 0.5 * np.vectorize(math.erfc, otypes=[float])(-np.asarray(z, dtype=float) / math.sqrt(2.0))


def _row_dots(W, u) -> np.ndarray:
    r""":math:`\mathbf w_k\cdot\mathbf u` for every row, each summed alone (not by a matrix product, whose
    roundings may depend on the other rows): a hypothesis's risk is the same whatever rows come with it."""
    return np.multiply(W, u).sum(axis=1)


def _angle_to(W, u) -> tuple[np.ndarray, np.ndarray]:
    W = np.atleast_2d(np.asarray(W, dtype=float))
    norm = np.linalg.norm(W, axis=1)
    cos = np.divide(_row_dots(W, u), norm * np.linalg.norm(u), out=np.zeros(len(W)), where=norm > 0)
    return np.arccos(np.clip(cos, -1.0, 1.0)), norm


@dataclass(frozen=True, eq=False)
class GaussianHalfspace:
    r""":math:`\mathbf x \sim N(0, I_d)`, :math:`y = \operatorname{SGN}(\mathbf u\cdot\mathbf x)` flipped with probability
    ``noise``.  Exactly: :math:`\operatorname{risk}(\mathbf w) = \eta + (1-2\eta)\,\theta(\mathbf w, \mathbf u)/\pi`
    (:math:`\theta` the angle; :math:`\mathbf w = 0` errs always), Bayes risk :math:`\eta`."""

    u: np.ndarray
    noise: float = 0.0

    @property
    def bayes_risk(self) -> float:
        return float(self.noise)

    @property
    def d(self) -> int:
        return int(self.u.size)

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        X = rng.standard_normal((n, self.u.size))
        y = np.where(X @ self.u >= 0, 1.0, -1.0)
        y[rng.random(n) < self.noise] *= -1.0
        return X, y

    def risk(self, W) -> np.ndarray:
        theta, norm = _angle_to(W, self.u)
        r = self.noise + (1.0 - 2.0 * self.noise) * theta / math.pi
        return np.where(norm > 0, r, 1.0)


@dataclass(frozen=True, eq=False)
class GaussianClasses:
    r""":math:`y = \pm1` with probability 1/2 each, :math:`\mathbf x = y\boldsymbol\mu + N(0, I_d)`.  Exactly:
    :math:`\operatorname{risk}(\mathbf w) = \Phi(-\mathbf w\cdot\boldsymbol\mu/\|\mathbf w\|)`, Bayes risk
    :math:`\Phi(-\|\boldsymbol\mu\|)` (the Bayes classifier :math:`\operatorname{SGN}(\boldsymbol\mu\cdot\mathbf x)` is linear)."""

    mu: np.ndarray

    @property
    def bayes_risk(self) -> float:
        return float(_phi(-np.linalg.norm(self.mu)))

    @property
    def d(self) -> int:
        return int(self.mu.size)

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
        return y[:, None] * self.mu + rng.standard_normal((n, self.mu.size)), y

    def risk(self, W) -> np.ndarray:
        W = np.atleast_2d(np.asarray(W, dtype=float))
        norm = np.linalg.norm(W, axis=1)
        z = np.divide(_row_dots(W, self.mu), norm, out=np.zeros(len(W)), where=norm > 0)
        return np.where(norm > 0, _phi(-z), 1.0)


@dataclass(frozen=True, eq=False)
class EmpiricalDistribution:
    r"""The uniform distribution over given rows (an uploaded sample): i.i.d. draws with replacement, and
    :math:`\operatorname{risk}(\mathbf w)` exactly the error rate over the rows (:func:`sample_risk`)."""

    X: np.ndarray
    y: np.ndarray
    bayes_risk: float | None = None

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        idx = rng.integers(self.X.shape[0], size=n)
        return self.X[idx], self.y[idx]

    def risk(self, W) -> np.ndarray:
        return np.atleast_1d(sample_risk(np.atleast_2d(W), self.X, self.y))
