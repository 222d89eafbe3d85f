r"""The kernel Perceptron and the Randomized Budget Perceptron, with the margin in the RKHS.

Notes
-----
A kernel :math:`K(\mathbf x, \mathbf x') = \langle\phi(\mathbf x), \phi(\mathbf x')\rangle` replaces every
inner product of the Perceptron, so the weight vector :math:`\mathbf w = \sum_s y_s\phi(\mathbf x_s)` lives in
the RKHS and is kept as its **supports**.  Start with an empty cache :math:`\mathcal L`.  In round :math:`t`:

.. math::

    f_t(\mathbf x_t) = \sum_{s\in\mathcal L} y_s K(\mathbf x_s, \mathbf x_t), \qquad
    \hat y_t = \operatorname{sign} f_t(\mathbf x_t), \qquad
    \text{if } y_t f_t(\mathbf x_t) \le 0:\ \mathcal L \leftarrow \mathcal L \cup \{t\}.

The notes write the prediction as :math:`\operatorname{SGN}(\sum_{\mathbf v\in\mathcal L} K(\mathbf v, \mathbf x_t))`
with supports :math:`\mathbf v = y_s\mathbf x_s`; for the linear kernel that is the same sum, for the
others the label multiplies the kernel value, as above (:math:`K(-\mathbf x, \cdot) \ne -K(\mathbf x, \cdot)`
for the Gaussian kernel).  A score of exactly 0 predicts 0 and is a mistake (:math:`\hat y_t y_t \le 0`),
as for :func:`olcore.linear.perceptron`; with the linear kernel the two make the same mistakes.

**Randomized Budget Perceptron** (``budget = B``): on a mistake with :math:`|\mathcal L| = B`, first throw
away a support drawn uniformly from the cache, then add the new one; the cache never holds more than B.

Kernels: ``"linear"`` :math:`\mathbf x\cdot\mathbf x'`, ``"poly"`` :math:`(\mathbf x\cdot\mathbf x' + c_0)^p`,
``"rbf"`` :math:`e^{-g\|\mathbf x - \mathbf x'\|^2}`.

**Bound** (Novikoff, in the RKHS): if :math:`K(\mathbf x_t, \mathbf x_t) \le R_K^2` and some :math:`f` of
norm 1 in the RKHS has :math:`y_t f(\mathbf x_t) \ge \gamma_K > 0` for all t, the kernel Perceptron makes
at most :math:`(R_K/\gamma_K)^2` mistakes (the Perceptron's proof, read in the RKHS).  :func:`rkhs_margin`
finds :math:`\gamma_K` with a certificate.

**The incremental scores.**  The whole-stream function keeps the score of every round still to come
under the current cache, :math:`S_s = f_t(\mathbf x_s)` for :math:`s > t`; a mistake adds one kernel column
:math:`y_t K(\mathbf x_t, \mathbf x_s)`, an eviction subtracts one.  Each round reads its score; the cost is
:math:`O(T)` kernel values per mistake or eviction, never a sum over all supports per round.

References
----------
Cesa-Bianchi, On-line learning (lecture), Kernel-based on-line learning: "Kernel Perceptron",
"Memory bounded learning" (Fact), "A randomized perceptron" (Randomized Budget Perceptron).
Cavallanti, Cesa-Bianchi, Gentile, "Tracking the best hyperplane with a simple budget Perceptron",
Machine Learning, 2007.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..errors import StreamError
from ..trace import Trace
from ..validate import as_labels, as_matrix, check_int, check_param, check_seed
from ..jit import f64, kernel, njit
from ._engine import update_index

__all__ = ["kernel_perceptron", "KernelPerceptron", "KERNELS", "kernel_matrix", "kernel_function",
           "supports_at", "rkhs_margin", "RKHSMargin", "decision_values", "MARGIN_MAX_ROUNDS"]

#: The kernels, by name, and the code the compiled loop reads.
KERNELS = {"linear": 0, "poly": 1, "rbf": 2}


def _check_kernel(kernel, gamma, degree, coef0):
    if kernel not in KERNELS:
        raise StreamError.bad("kernel", repr(kernel), "one of " + ", ".join(map(repr, KERNELS)))
    gamma = check_param(gamma, "gamma", 0, None, lo_open=True)
    degree = check_int(degree, "degree", 1, 20)
    coef0 = check_param(coef0, "coef0", 0, None)          # c0 >= 0 keeps the polynomial kernel positive semi-definite
    return KERNELS[kernel], float(gamma), int(degree), float(coef0)


@njit
def _k(code, a, b, gamma, degree, coef0):
    """One kernel value K(a, b)."""
    if code == 2:
        s = 0.0
        for i in range(a.shape[0]):
            u = a[i] - b[i]
            s += u * u
        return math.exp(-gamma * s)
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    if code == 1:
        return (s + coef0) ** degree
    return s


@njit
def _rounds(X, y, code, gamma, degree, coef0, B, u):
    """The kernel Perceptron's rounds (B = 0: no budget), compiled, with incremental scores."""
    T, d = X.shape
    S = np.zeros(T)                                  # S[s] = f_t(x_s) for the rounds s > t still to come
    scores = np.empty(T)
    mistakes = np.zeros(T, dtype=np.bool_)
    evicted = np.zeros(T, dtype=np.bool_)
    size = np.zeros(T + 1, dtype=np.int64)           # |L| before round t
    norm_sq = np.zeros(T + 1)                        # ||f_t||^2 in the RKHS before round t
    rows = np.empty(T, dtype=np.int64)               # the row (= round) of the k-th support
    out = np.full(T, T, dtype=np.int64)              # the round whose mistake evicted it (T: never)
    cap = B if B > 0 else T
    cache = np.empty(cap, dtype=np.int64)            # support ids, in cache order
    W = np.zeros((T + 1, d))                         # sum of y_s x_s over the cache, after k mistakes
    w = np.zeros(d)
    R2 = 0.0
    n = 0                                            # |L|
    M = 0
    ev = 0
    nn = 0.0
    for t in range(T):
        s = S[t]
        scores[t] = s
        ktt = _k(code, X[t], X[t], gamma, degree, coef0)
        R2 = max(R2, ktt)
        size[t] = n
        norm_sq[t] = nn
        if y[t] * s <= 0:                            # mistake iff y_t f_t(x_t) <= 0
            mistakes[t] = True
            if B > 0 and n == B:                     # full cache: throw away a random support
                j = min(int(u[ev] * B), B - 1)
                ev += 1
                k = cache[j]
                r = rows[k]
                out[k] = t
                evicted[t] = True
                fr = 0.0                             # f_t(x_r), for ||f - y_r phi(x_r)||^2
                for q in range(n):
                    rq = rows[cache[q]]
                    fr += y[rq] * _k(code, X[rq], X[r], gamma, degree, coef0)
                nn = nn - 2.0 * y[r] * fr + _k(code, X[r], X[r], gamma, degree, coef0)
                for q in range(j, n - 1):            # del L[j]
                    cache[q] = cache[q + 1]
                n -= 1
                for i in range(d):
                    w[i] -= y[r] * X[r, i]
                for s2 in range(t + 1, T):           # subtract its kernel column
                    S[s2] -= y[r] * _k(code, X[r], X[s2], gamma, degree, coef0)
                if r < t:                            # the score of round t itself moved too
                    s = s - y[r] * _k(code, X[r], X[t], gamma, degree, coef0)
            nn = nn + 2.0 * y[t] * s + ktt           # ||f + y_t phi(x_t)||^2
            rows[M] = t                              # L.append(t)
            cache[n] = M
            n += 1
            M += 1
            for i in range(d):
                w[i] += y[t] * X[t, i]
            W[M] = w
            for s2 in range(t + 1, T):               # add its kernel column
                S[s2] += y[t] * _k(code, X[t], X[s2], gamma, degree, coef0)
    size[T] = n
    norm_sq[T] = nn
    return scores, mistakes, evicted, size, norm_sq, rows[:M].copy(), out[:M].copy(), W[:M + 1].copy(), R2


def _validate(X, y):
    X = as_matrix(X, "X")
    y = as_labels(y, X.shape[0], "y", (-1, 1))
    return X, y


def _check_budget(budget):
    return 0 if budget is None else check_int(budget, "budget", 1, None)


def kernel_perceptron(X, y, kernel: str = "rbf", gamma: float = 1.0, degree: int = 3, coef0: float = 1.0,
                      budget: int | None = None, seed: int = 0) -> Trace:
    r"""Run the kernel Perceptron (``budget=None``) or the Randomized Budget Perceptron (the fast path).

    One plain loop compiled with numba, with incremental scores (see the module notes).

    Parameters
    ----------
    X : array (T, d)
        Instances :math:`\mathbf x_t`.
    y : array (T,)
        Labels in :math:`\{-1, +1\}`.
    kernel : {"linear", "poly", "rbf"}, default="rbf"
    gamma : float, default=1.0
        Width of the Gaussian kernel :math:`e^{-\gamma\|\mathbf x - \mathbf x'\|^2}`, > 0.
    degree : int, default=3
        Degree p of the polynomial kernel :math:`(\mathbf x\cdot\mathbf x' + c_0)^p`, 1..20.
    coef0 : float, default=1.0
        Its constant :math:`c_0 \ge 0`.
    budget : int or None, default=None
        Cache size B of the Randomized Budget Perceptron; ``None``: no budget.
    seed : int, default=0
        Seeds the evictions (``np.random.default_rng(seed)``): the k-th eviction throws away cache
        slot :math:`\lfloor B u_k\rfloor`, with :math:`u_1, u_2, \dots` the generator's ``random()`` draws.

    Returns
    -------
    Trace
        ``losses``/``mistakes`` (mistake iff :math:`y_t f_t(\mathbf x_t) \le 0`), ``predictions``
        :math:`\operatorname{sign} f_t(\mathbf x_t) \in \{-1, 0, 1\}`, and ``weights`` (T+1, d): the sum
        :math:`\sum_{s\in\mathcal L} y_s\mathbf x_s` of the supports in the cache (the Perceptron's
        :math:`\mathbf w_t` for the linear kernel; for the others only a summary, the learner is :math:`f_t`).
        ``extras``: ``"score"`` (T,) :math:`f_t(\mathbf x_t)`; ``"M"``, ``"cache_size"``, ``"norm_sq"``
        (T+1,, the value before round t, the last after the run): mistakes so far, :math:`|\mathcal L|`,
        :math:`\|f_t\|^2` in the RKHS; ``"evicted"`` (T,) whether round t's mistake evicted a support;
        ``"R2"`` (1,) :math:`R_K^2 = \max_t K(\mathbf x_t, \mathbf x_t)`; ``"support_row"`` (M,) the row of
        each support (the round of its mistake) and ``"support_out"`` (M,) the round whose mistake evicted
        it (T if never).  :func:`supports_at` reads the cache before any round from these, without a
        (T x T) array.

    References
    ----------
    Cesa-Bianchi, On-line learning, "Kernel Perceptron" and "A randomized perceptron".
    """
    X, y = _validate(X, y)
    code, gamma, degree, coef0 = _check_kernel(kernel, gamma, degree, coef0)
    B = _check_budget(budget)
    T = X.shape[0]
    u = np.random.default_rng(check_seed(seed)).random(T if B else 0)
    scores, mistakes, evicted, size, norm_sq, rows, out, W, R2 = _rounds(
        f64(X), f64(y), code, gamma, degree, coef0, B, f64(u))
    M = update_index(mistakes)
    return Trace(
        losses=mistakes.astype(float),
        predictions=np.sign(scores).astype(np.int8),
        weight_table=W,
        weight_index=M,
        mistakes=mistakes,
        extras={"score": scores, "M": M.astype(float), "cache_size": size, "norm_sq": norm_sq,
                "evicted": evicted, "R2": np.array([R2]), "support_row": rows, "support_out": out},
    )


def supports_at(trace: Trace, t: int) -> np.ndarray:
    r"""The rows of the supports in the cache before round ``t`` (0-based; ``t = T`` after the run).

    Support k entered after its mistake in round ``support_row[k]`` and left after the mistake in round
    ``support_out[k]``, so it scores rounds ``support_row[k] < t <= support_out[k]``.

    >>> tr = kernel_perceptron([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]], [1, -1, 1], kernel="linear")
    >>> supports_at(tr, 0).tolist(), supports_at(tr, 2).tolist(), supports_at(tr, 3).tolist()
    ([], [0, 1], [0, 1])
    """
    T = trace.T
    t = check_int(t, "t", 0, T)
    rows, out = trace.extras["support_row"], trace.extras["support_out"]
    return rows[(rows < t) & (t <= out)].astype(np.intp)


def kernel_matrix(A, B, kernel: str = "rbf", gamma: float = 1.0, degree: int = 3, coef0: float = 1.0) -> np.ndarray:
    r"""The matrix :math:`K(\mathbf a_i, \mathbf b_j)` (len(A), len(B)), vectorised.

    >>> kernel_matrix([[1.0, 2.0]], [[3.0, 4.0]], "poly", degree=2, coef0=1.0).tolist()
    [[144.0]]
    """
    code, gamma, degree, coef0 = _check_kernel(kernel, gamma, degree, coef0)
    A = np.atleast_2d(np.asarray(A, dtype=float))
    B = np.atleast_2d(np.asarray(B, dtype=float))
    G = A @ B.T
    if code == 0:
        return G
    if code == 1:
        return (G + coef0) ** degree
    d2 = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2 * G
    return np.exp(-gamma * np.maximum(d2, 0.0))


def kernel_function(kernel: str = "rbf", gamma: float = 1.0, degree: int = 3,
                    coef0: float = 1.0) -> Callable[[np.ndarray, np.ndarray], float]:
    """``K(a, b)`` for two vectors, by the formulas of :func:`kernel_matrix` (for the reference class)."""
    code, gamma, degree, coef0 = _check_kernel(kernel, gamma, degree, coef0)

    def K(a, b) -> float:
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        if code == 2:
            return math.exp(-gamma * float(((a - b) ** 2).sum()))
        s = float(np.dot(a, b))
        return (s + coef0) ** degree if code == 1 else s

    return K


def decision_values(X, y, rows, P, kernel: str = "rbf", gamma: float = 1.0, degree: int = 3,
                    coef0: float = 1.0, block: int = 4096) -> np.ndarray:
    r""":math:`f(\mathbf p) = \sum_{s\in\text{rows}} y_s K(\mathbf x_s, \mathbf p)` at each point of ``P`` (n, d)."""
    rows = np.asarray(rows, dtype=np.intp)
    P = np.atleast_2d(np.asarray(P, dtype=float))
    f = np.zeros(len(P))
    if rows.size:
        Xs, ys = np.asarray(X, float)[rows], np.asarray(y, float)[rows]
        for lo in range(0, len(P), block):
            f[lo:lo + block] = kernel_matrix(P[lo:lo + block], Xs, kernel, gamma, degree, coef0) @ ys
    return f


# ---- the margin in the RKHS ------------------------------------------------------------------------

#: Largest stream whose RKHS margin is computed (the Gram matrix is T x T: 3000 rounds take 72 MB).
MARGIN_MAX_ROUNDS = 3000


@dataclass(frozen=True, eq=False)
class RKHSMargin:
    r"""A certified margin in the RKHS: :math:`\gamma_{lo} \le \gamma_K \le \gamma_{hi}`.

    ``lam`` (T,) are the convex weights of the separator :math:`f = \sum_t \lambda_t y_t K(\mathbf x_t,\cdot)/\|\cdot\|`
    whose exact margin is ``gamma_lo``; ``margins`` (T,) are :math:`y_t f(\mathbf x_t)` for that unit f.
    ``separable`` is False when the hull of the :math:`y_t\phi(\mathbf x_t)` reaches the origin (then
    :math:`\gamma_K = 0`, within the solver's accuracy).
    """

    gamma_lo: float
    gamma_hi: float
    R: float
    lam: np.ndarray
    margins: np.ndarray
    iterations: int
    converged: bool

    @property
    def separable(self) -> bool:
        return self.gamma_lo > 0

    @property
    def gap(self) -> float:
        """Relative duality gap :math:`1 - \\gamma_{lo}/\\gamma_{hi}` (0 when the two meet)."""
        return 1.0 - self.gamma_lo / self.gamma_hi if self.gamma_hi > 0 else 1.0


@njit
def _nearest_hull_point(Q, tol, max_iter):
    """Pairwise Frank-Wolfe for min_{lam in simplex} lam' Q lam (Q = (y y') * K, positive semi-definite).

    Returns lam, g = Q lam and the iterations used; stops when min(g)/sqrt(lam'g) >= (1 - tol) sqrt(lam'g).
    """
    T = Q.shape[0]
    lam = np.zeros(T)
    i0 = 0
    for i in range(T):
        if Q[i, i] < Q[i0, i0]:
            i0 = i
    lam[i0] = 1.0
    g = Q[:, i0].copy()
    it = 0
    for it in range(max_iter):
        val = 0.0
        for i in range(T):
            val += lam[i] * g[i]
        fw = 0
        aw = -1
        for i in range(T):
            if g[i] < g[fw]:
                fw = i
            if lam[i] > 0 and (aw < 0 or g[i] > g[aw]):
                aw = i
        if val <= 0 or g[fw] >= (1 - tol) * val:    # min_t g_t / sqrt(val) >= (1 - tol) sqrt(val)
            return lam, g, it
        curv = Q[fw, fw] + Q[aw, aw] - 2 * Q[fw, aw]
        if curv <= 0:
            step = lam[aw]
        else:
            step = min(lam[aw], (g[aw] - g[fw]) / curv)
        if step <= 0:
            return lam, g, it
        lam[fw] += step
        lam[aw] -= step
        for i in range(T):
            g[i] += step * (Q[i, fw] - Q[i, aw])
    return lam, g, max_iter


def rkhs_margin(X, y, kernel: str = "rbf", gamma: float = 1.0, degree: int = 3, coef0: float = 1.0,
                tol: float = 1e-3, max_iter: int = 100_000) -> RKHSMargin:
    r"""The margin :math:`\gamma_K` of the best separator in the RKHS, with a certificate.

    .. math::

        \gamma_K = \max_{\|f\|_K = 1}\min_t y_t f(\mathbf x_t)
                 = \min_{\boldsymbol\lambda\in\Delta_T}\Big\|\sum_t\lambda_t y_t\phi(\mathbf x_t)\Big\|_K
                 = \min_{\boldsymbol\lambda\in\Delta_T}\sqrt{\boldsymbol\lambda^\top Q\boldsymbol\lambda},
        \qquad Q_{st} = y_s y_t K(\mathbf x_s, \mathbf x_t),

    the kernelised hard-margin SVM without intercept, as the distance from the origin to the convex hull of
    the :math:`y_t\phi(\mathbf x_t)`, computed on the stream's Gram matrix by pairwise Frank-Wolfe.  Every
    iterate :math:`\boldsymbol\lambda` certifies an interval: :math:`f = \sum_t\lambda_t y_t\phi(\mathbf x_t)`
    normalised is a separator with exact margin :math:`\gamma_{lo} = \min_t (Q\boldsymbol\lambda)_t/\sqrt{\boldsymbol\lambda^\top Q\boldsymbol\lambda}`,
    and the hull point's norm :math:`\gamma_{hi} = \sqrt{\boldsymbol\lambda^\top Q\boldsymbol\lambda}` bounds
    :math:`\gamma_K` from above; their difference is the Frank-Wolfe duality gap.  It stops when
    :math:`\gamma_{lo} \ge (1 - \text{tol})\gamma_{hi}`.  Novikoff's bound with :math:`\gamma_{lo}` is valid
    whatever the accuracy (it is the margin of an explicit unit separator).

    Parameters
    ----------
    X, y : the stream, T <= :data:`MARGIN_MAX_ROUNDS`
    kernel, gamma, degree, coef0 : as :func:`kernel_perceptron`
    tol : float, default=1e-3
        Relative gap at which to stop.
    max_iter : int, default=100000

    >>> m = rkhs_margin([[1.0, 0.0], [0.0, 1.0]], [1, -1], kernel="linear")
    >>> round(m.gamma_lo, 6), round(m.gamma_hi, 6)        # the unit separator (1, -1)/sqrt(2)
    (0.707107, 0.707107)
    """
    X, y = _validate(X, y)
    T = X.shape[0]
    if T > MARGIN_MAX_ROUNDS:
        raise StreamError.bad("rounds", f"T = {T}", f"at most {MARGIN_MAX_ROUNDS} for the margin in the RKHS "
                              "(its Gram matrix is T × T)")
    tol = check_param(tol, "tol", 0, 1, lo_open=True, hi_open=True)
    max_iter = check_int(max_iter, "max_iter", 1, None)
    K = kernel_matrix(X, X, kernel, gamma, degree, coef0)
    yy = y.astype(float)
    Q = np.ascontiguousarray(K * np.outer(yy, yy))
    lam, g, it = _nearest_hull_point(Q, float(tol), int(max_iter))
    g = Q @ lam                                       # afresh, without the accumulated updates
    val = float(lam @ g)
    R = float(np.sqrt(max(np.diag(K).max(), 0.0)))
    hi = math.sqrt(max(val, 0.0))
    lo = float(g.min()) / hi if hi > 0 else 0.0
    margins = g / hi if hi > 0 else np.zeros(T)
    return RKHSMargin(gamma_lo=lo, gamma_hi=hi, R=R, lam=lam, margins=margins, iterations=int(it),
                      converged=bool(it < max_iter))


@kernel("kernel_perceptron")
def _warm():
    X = np.array([[1.0, 0.0], [0.0, -1.0], [0.5, 0.5]])
    y = np.array([1.0, 1.0, -1.0])
    for name in KERNELS:
        kernel_perceptron(X, y, kernel=name, budget=1)
        kernel_perceptron(X, y, kernel=name)
    rkhs_margin(X[:2], y[:2], kernel="rbf")


class KernelPerceptron:
    r"""The kernel Perceptron (and, with ``budget``, the Randomized Budget Perceptron), line by line.

    As the notes write it (Cesa-Bianchi, On-line learning, "Kernel Perceptron", "A randomized perceptron"),
    with the support :math:`y_t\mathbf x_t` kept as the pair (label, instance).

    >>> p = KernelPerceptron(2, kernel="linear")
    >>> p.update([1.0, 0.0], 1)        # empty cache: score 0, a mistake, store the support
    1.0
    >>> p.predict([2.0, 1.0]), len(p.L)
    (1, 1)

    Parameters
    ----------
    d : int
        Dimension of the instances.
    kernel, gamma, degree, coef0, budget, seed : as :func:`kernel_perceptron`
    """

    def __init__(self, d: int, kernel: str = "rbf", gamma: float = 1.0, degree: int = 3, coef0: float = 1.0,
                 budget: int | None = None, seed: int = 0) -> None:
        self.d = check_int(d, "d", 1, None)
        self.K = kernel_function(kernel, gamma, degree, coef0)
        self.B = _check_budget(budget) or None
        self.rng = np.random.default_rng(check_seed(seed))
        self.L: list[tuple[float, np.ndarray]] = []           # Start with empty cache L
        self.last_score: float | None = None                  # f_t(x_t) of the last round

    def score(self, x) -> float:
        r""":math:`f_t(\mathbf x) = \sum_{(y_s, \mathbf x_s)\in\mathcal L} y_s K(\mathbf x_s, \mathbf x)`."""
        x = np.asarray(x, dtype=float)
        return float(sum(ys * self.K(xs, x) for ys, xs in self.L))

    def predict(self, x) -> int:
        """2. Predict :math:`\\hat y_t = \\operatorname{SGN}(f_t(\\mathbf x_t))`."""
        return int(np.sign(self.score(x)))

    def update(self, x, y) -> float:
        """3./4. Obtain :math:`y_t`; on a mistake (:math:`y_t f_t(\\mathbf x_t) \\le 0`), if :math:`|\\mathcal L| = B`
        throw away a random support, then store the new support.  Returns the mistake, 1.0 or 0.0."""
        x = np.array(x, dtype=float)
        y = float(y)
        if y not in (-1.0, 1.0):
            raise StreamError.bad("y", f"{y:g}", "a label in {-1, +1}")
        self.last_score = self.score(x)
        mistake = y * self.last_score <= 0
        if mistake:
            if self.B is not None and len(self.L) == self.B:
                j = min(int(self.rng.random() * self.B), self.B - 1)
                del self.L[j]                                 # throw away a random support from L
            self.L.append((y, x))                             # add y_t x_t to L
        return float(mistake)

    @property
    def w(self) -> np.ndarray:
        r""":math:`\sum_{(y_s,\mathbf x_s)\in\mathcal L} y_s\mathbf x_s` (the Perceptron's weights for the linear kernel)."""
        w = np.zeros(self.d)
        for ys, xs in self.L:
            w = w + ys * xs
        return w
