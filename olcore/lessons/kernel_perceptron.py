r"""The /kernel_perceptron lesson's math: the kernel Perceptron on 2-D streams no line separates, Novikoff's
bound in the RKHS with a certified margin, the Randomized Budget Perceptron, and the memory-bounded Fact.

Pure functions of their settings (no streamlit, no plotly); the learners come from
:mod:`olcore.linear.kernel_perceptron`, the bound from :func:`olcore.bounds.perceptron` read in the RKHS.
Source: Cesa-Bianchi, On-line learning, Kernel-based on-line learning.

How the margin is found
-----------------------
:math:`\gamma_K`, the margin of the best unit-norm separator in the RKHS, is the distance from the origin to the
convex hull of the :math:`y_t\phi(\mathbf x_t)` (the kernelised hard-margin SVM without intercept).
:func:`olcore.linear.rkhs_margin` minimises :math:`\boldsymbol\lambda^\top Q\boldsymbol\lambda` over the simplex,
:math:`Q_{st} = y_sy_tK(\mathbf x_s, \mathbf x_t)` the stream's Gram matrix, by pairwise Frank-Wolfe; the iterate
gives an explicit separator whose exact margin :math:`\gamma_{lo}` is a lower bound and the hull point's norm
:math:`\gamma_{hi}` an upper bound.  The bound drawn is :math:`(R_K/\gamma_{lo})^2`: valid because that separator
exists, and within the printed duality gap of :math:`(R_K/\gamma_K)^2`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import bounds, linear, streams
from ..errors import StreamError
from ..linear.kernel_perceptron import (MARGIN_MAX_ROUNDS, RKHSMargin, _nearest_hull_point, decision_values,
                                        rkhs_margin, supports_at)
from ..report import BoundReport
from ..stream import Stream
from ..trace import Trace
from ..validate import check_int, check_param, check_seed

__all__ = ["SOURCES", "make_stream", "drifting", "KernelAnalysis", "analyse", "download_trace", "BudgetRun",
           "budget_run", "Region", "region", "region_of", "BudgetSweep", "budget_sweep", "FactRun", "fact", "NOVIKOFF",
           "SOURCE",
           "MARGIN_TOL", "MARGIN_ITER", "MARGIN_WORK", "free_mistakes_band", "budget_mistakes_band", "evicts"]

SOURCE = "Cesa-Bianchi, On-line learning: Kernel-based on-line learning"
NOVIKOFF = "(R_K/γ_K)²"
SOURCES = ("XOR", "Rings", "Moons")
#: Accuracy and effort of the certified margin (the bound is valid whatever the accuracy reached): at most
#: MARGIN_WORK / T Frank-Wolfe steps (each O(T)), between 5,000 and MARGIN_ITER.
MARGIN_TOL, MARGIN_ITER, MARGIN_WORK = 1e-3, 200_000, 40_000_000


# ---- streams -------------------------------------------------------------------------------------

def _points(source: str, T: int, rng) -> tuple[np.ndarray, np.ndarray]:
    if source == "XOR":                                   # quadrants, a gap of 0.1 around the axes
        X = rng.uniform(0.1, 1.0, (T, 2)) * rng.choice([-1.0, 1.0], (T, 2))
        return X, np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    if source == "Rings":                                 # inner disc +1, outer ring -1
        y = rng.choice([-1, 1], T)
        r = np.where(y > 0, rng.uniform(0.0, 0.45, T), rng.uniform(0.7, 1.0, T))
        a = rng.uniform(0, 2 * np.pi, T)
        return np.column_stack([r * np.cos(a), r * np.sin(a)]), y
    if source == "Moons":                                 # two interleaved half circles, scaled into [-1, 1]²
        y = rng.choice([-1, 1], T)
        a = rng.uniform(0, np.pi, T)
        X = np.where(y[:, None] > 0, np.column_stack([np.cos(a), np.sin(a)]),
                     np.column_stack([1 - np.cos(a), 0.5 - np.sin(a)]))
        X = X + rng.normal(0, 0.06, (T, 2))
        return (X - [0.5, 0.25]) / 1.6, y
    raise StreamError.bad("stream", repr(source), "one of " + ", ".join(SOURCES), label="This stream")


def make_stream(source: str = "XOR", T: int = 200, seed: int = 0) -> Stream:
    r"""``T`` points of the plane no line through the origin separates: ``"XOR"`` (quadrants, :math:`y = \operatorname{sign}(x_1x_2)`,
    no point within 0.1 of an axis), ``"Rings"`` (a disc of radius 0.45 inside a ring 0.7..1) or ``"Moons"`` (two
    interleaved half circles with Gaussian jitter of s.d. 0.06/1.6)."""
    T = check_int(T, "T", 1, streams.MAX_ROUNDS)
    X, y = _points(source, T, np.random.default_rng(check_seed(seed)))
    return streams.from_arrays("linear", X, y, {"source": source})


def drifting(source: str = "XOR", T: int = 1000, seed: int = 0, switches: int = 2) -> Stream:
    r"""The non-stationary stream: ``source``'s points whose labels flip at ``switches`` evenly spaced rounds
    (the target changes to its opposite and back); stationary between switches."""
    T = check_int(T, "T", 1, streams.MAX_ROUNDS)
    switches = check_int(switches, "switches", 0, 50)
    X, y = _points(source, T, np.random.default_rng(check_seed(seed)))
    phase = (np.arange(T) * (switches + 1)) // T
    return streams.from_arrays("linear", X, np.where(phase % 2 == 0, y, -y), {"source": source, "switches": switches})


# ---- the kernel Perceptron and Novikoff in the RKHS -------------------------------------------

@dataclass(frozen=True, eq=False)
class KernelAnalysis:
    """The kernel Perceptron on one stream, with Novikoff's bound in the RKHS and the proof's quantities."""

    X: np.ndarray
    y: np.ndarray
    kernel: tuple                 # (name, gamma, degree, coef0)
    trace: Trace
    R: float                      # R_K = sqrt(max_t K(x_t, x_t))
    gamma_lo: float               # certified margin of an explicit unit separator (nan: not computed)
    gamma_hi: float               # upper bound on gamma_K
    margin_note: str              # how the margin was found, or why not
    bound: BoundReport
    f_dot_u: np.ndarray           # (T+1,) <f_t, u> for the certificate's unit separator u (nan: none)
    lim: float                    # half-width of the square view of the plane

    @property
    def T(self) -> int:
        return self.trace.T

    @property
    def M(self) -> int:
        return self.trace.n_mistakes

    @property
    def separable(self) -> bool:
        return bool(self.gamma_lo > 0)


def _kernel_args(kernel: str, gamma: float, degree: int, coef0: float) -> dict:
    return {"kernel": kernel, "gamma": float(gamma), "degree": int(degree), "coef0": float(coef0)}


def kernel_name(kernel: str, gamma: float, degree: int, coef0: float) -> str:
    """The kernel as a formula with its parameters, for captions and the theorem."""
    if kernel == "rbf":
        return f"K(x, x') = exp(−{gamma:g}‖x − x'‖²)"
    if kernel == "poly":
        return f"K(x, x') = (x·x' + {coef0:g})^{degree}"
    return "K(x, x') = x·x'"


def _rbf_gram(X: np.ndarray, gamma: float) -> np.ndarray:
    r"""The Gaussian kernel's Gram matrix :math:`e^{-\gamma\|\mathbf x_s - \mathbf x_t\|^2}` without cancellation.

    :func:`olcore.linear.kernel_matrix` expands :math:`\|\mathbf a-\mathbf b\|^2 = \|\mathbf a\|^2 + \|\mathbf b\|^2 -
    2\mathbf a\cdot\mathbf b`, which loses about :math:`4\varepsilon(\|\mathbf a\|^2 + \|\mathbf b\|^2)`: for points far
    from the origin and near each other (two points 0.1 apart at :math:`|x| = 10^7`, γ = 20) the kernel value comes
    out as 1 or 0 instead of :math:`e^{-0.2}`, and the margin with it.  The kernel depends on differences only, so the
    stream is centred first, and the distances the expansion cannot be trusted with (γ times its rounding above
    :math:`10^{-12}`, kernel value not negligible) are recomputed from the differences."""
    Xc = X - X.mean(axis=0)
    sq = np.einsum("td,td->t", Xc, Xc)
    size = sq[:, None] + sq[None, :]
    d2 = np.maximum(size - 2.0 * (Xc @ Xc.T), 0.0)
    unsure = np.triu((gamma * 1e-15 * size > 1e-12) & (gamma * d2 < 800.0), 1)
    i, j = np.nonzero(unsure)
    step = max(1, 1_000_000 // max(X.shape[1], 1))
    for a in range(0, i.size, step):
        ii, jj = i[a:a + step], j[a:a + step]
        diff = Xc[ii] - Xc[jj]
        d2[ii, jj] = d2[jj, ii] = np.einsum("pd,pd->p", diff, diff)
    np.fill_diagonal(d2, 0.0)
    return np.exp(-gamma * d2)


def _margin(X: np.ndarray, y: np.ndarray, kw: dict, tol: float, max_iter: int) -> RKHSMargin:
    """:func:`olcore.linear.rkhs_margin`, with the Gaussian kernel's Gram matrix from :func:`_rbf_gram` (the same
    certificate: an explicit separator's exact margin γ_lo, the hull point's norm γ_hi)."""
    if kw["kernel"] != "rbf":
        return rkhs_margin(X, y, **kw, tol=tol, max_iter=max_iter)
    K = _rbf_gram(X, kw["gamma"])
    Q = np.ascontiguousarray(K * np.outer(y, y))
    lam, g, it = _nearest_hull_point(Q, float(tol), int(max_iter))
    g = Q @ lam
    hi = float(np.sqrt(max(float(lam @ g), 0.0)))
    lo = float(g.min()) / hi if hi > 0 else 0.0
    return RKHSMargin(gamma_lo=lo, gamma_hi=hi, R=1.0, lam=lam, margins=g / hi if hi > 0 else np.zeros(X.shape[0]),
                      iterations=int(it), converged=bool(it < max_iter))


def analyse(stream: Stream, kernel: str = "rbf", gamma: float = 2.0, degree: int = 3, coef0: float = 1.0) -> KernelAnalysis:
    r"""The kernel Perceptron on ``stream``, :math:`R_K`, the certified margin :math:`\gamma_K` and Novikoff's
    bound :math:`(R_K/\gamma_K)^2` in the RKHS (see the module docstring for how the margin is found)."""
    kw = _kernel_args(kernel, gamma, degree, coef0)
    X, y = stream.X.astype(float), stream.y.astype(float)
    tr = linear.kernel_perceptron(X, y, **kw)
    R = float(np.sqrt(tr.extras["R2"][0]))
    M = tr.n_mistakes
    lo = hi = float("nan")
    f_dot_u = np.full(tr.T + 1, np.nan)
    if stream.T > MARGIN_MAX_ROUNDS:
        note = (f"The margin γ_K is computed on the stream's Gram matrix (T × T) for T ≤ {MARGIN_MAX_ROUNDS:,}; "
                f"this stream has T = {stream.T:,}.")
        why = note
    elif R == 0:
        note = why = "Every point has K(x, x) = 0: no separator in the RKHS."
    else:
        steps = max(5_000, min(MARGIN_ITER, MARGIN_WORK // stream.T))
        m = _margin(X, y, kw, MARGIN_TOL, steps)
        lo, hi = m.gamma_lo, m.gamma_hi
        rows = tr.extras["support_row"]
        f_dot_u = np.concatenate([[0.0], np.cumsum(m.margins[rows])])[tr.extras["M"].astype(int)]
        note = (f"γ_K is the distance from the origin to the convex hull of the points y_t φ(x_t) in the RKHS "
                f"(the kernel SVM without intercept), found by pairwise Frank-Wolfe on the stream's {stream.T} × "
                f"{stream.T} Gram matrix in {m.iterations:,} steps: an explicit unit separator has margin "
                f"γ_lo = {lo:.4g}, and no separator has more than γ_hi = {hi:.4g} (duality gap "
                f"{100 * m.gap:.2g} %).")
        if not m.separable:
            why = (f"no separator in the RKHS of {kernel_name(**kw)} with a positive margin was found in "
                   f"{m.iterations:,} Frank-Wolfe steps, and none can have a margin above γ_hi = {hi:.2g}: the hull "
                   "of the y_t φ(x_t) comes that close to the origin (a kernel too simple for the pattern, or a "
                   "point repeated with both labels). Novikoff's bound needs γ_K > 0.")
        else:
            why = ""
    applies = bool(lo > 0)
    value = float(bounds.perceptron(R, lo)) if applies else float("inf")
    latex = (rf"M = {M} \le \left(\frac{{R_K}}{{\gamma_K}}\right)^2 \le \left(\frac{{{R:.4g}}}{{{lo:.4g}}}\right)^2 "
             rf"= {value:.4g}" if applies else rf"M = {M},\ R_K = {R:.4g}")
    report = BoundReport(
        "Novikoff's bound in the RKHS", NOVIKOFF, value, latex=latex,
        numbers={"M": M, "R_K": R, "gamma_lo": lo if applies else 0.0, "gamma_hi": hi if hi == hi else 0.0},
        applies=applies, why_not=why if not applies else "", source=f"{SOURCE} (Kernel Perceptron: mistake bounds "
        "hold in the whole RKHS)",
        statement=(r"**Theorem (Novikoff, in the RKHS).** If $K(\mathbf x_t, \mathbf x_t) \le R_K^2$ and some $f$ with "
                   r"$\|f\|_K = 1$ has $y_t f(\mathbf x_t) \ge \gamma_K > 0$ in every round, the kernel Perceptron "
                   r"makes at most $(R_K/\gamma_K)^2$ mistakes: the Perceptron's proof, with $\phi(\mathbf x_t)$ for "
                   r"$\mathbf x_t$."))
    lim = float(max(1.0, np.abs(X).max() * 1.08)) if X.shape[1] == 2 else 1.0
    return KernelAnalysis(X=X, y=y, kernel=(kernel, kw["gamma"], kw["degree"], kw["coef0"]), trace=tr, R=R,
                          gamma_lo=lo, gamma_hi=hi, margin_note=note, bound=report, f_dot_u=f_dot_u, lim=lim)


def download_trace(a: KernelAnalysis) -> Trace:
    r"""The kernel Perceptron's run as it is downloaded (:mod:`olcore.export`): only the learner's own quantities.

    Beside the standard columns (prediction :math:`\operatorname{sgn} f_t(\mathbf x_t)`, loss and mistake), three
    columns carried as :data:`olcore.export.COLUMN_PREFIX` extras:

    - ``score``: :math:`f_t(\mathbf x_t) = \sum_{s\in\mathcal L_t} y_s K(\mathbf x_s, \mathbf x_t)`;
    - ``supports``: :math:`|\mathcal L_t|` before round :math:`t` (the mistakes so far, without a budget);
    - ``dual_coef``: :math:`\alpha_t`, the coefficient of :math:`K(\mathbf x_t, \cdot)` in the final
      :math:`f_{T+1} = \sum_t \alpha_t K(\mathbf x_t, \cdot)`: :math:`y_t` if :math:`\mathbf x_t` is a support
      after the run, else 0.

    Weight columns only for the linear kernel, where :math:`f_t(\mathbf x) = \mathbf w_t\cdot\mathbf x` with
    :math:`\mathbf w_t = \sum_{s\in\mathcal L_t} y_s\mathbf x_s` is the learner's own weight vector; for the other
    kernels :math:`f_t` lives in the RKHS and the trace's ``weights`` (that same sum) are not the learner's.
    """
    from ..export import COLUMN_PREFIX

    tr = a.trace
    T = tr.T
    alpha = np.zeros(T)
    final = supports_at(tr, T)
    alpha[final] = a.y[final]
    linear_kernel = a.kernel[0] == "linear"
    return Trace(losses=tr.losses, predictions=tr.predictions, mistakes=tr.mistakes,
                 weight_table=tr.weight_table if linear_kernel else np.zeros((1, 0)),
                 weight_index=tr.weight_index if linear_kernel else np.zeros(T + 1, dtype=np.intp),
                 extras={f"{COLUMN_PREFIX}score": tr.extras["score"],
                         f"{COLUMN_PREFIX}supports": tr.extras["cache_size"][:-1],
                         f"{COLUMN_PREFIX}dual_coef": alpha})


# ---- the budget ------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class BudgetRun:
    """The Randomized Budget Perceptron with cache B beside the unbudgeted kernel Perceptron, same stream."""

    B: int
    trace: Trace
    free: Trace                   # no budget

    @property
    def evictions(self) -> np.ndarray:
        """1-based rounds whose mistake threw a support away."""
        return np.flatnonzero(self.trace.extras["evicted"]) + 1


def budget_run(stream: Stream, B: int, seed: int = 0, kernel: str = "rbf", gamma: float = 2.0, degree: int = 3,
               coef0: float = 1.0) -> BudgetRun:
    """The Randomized Budget Perceptron (cache ``B``, evictions seeded by ``seed``) and the kernel Perceptron."""
    kw = _kernel_args(kernel, gamma, degree, coef0)
    B = check_int(B, "B", 1, None)
    return BudgetRun(B=B, trace=linear.kernel_perceptron(stream.X, stream.y, budget=B, seed=seed, **kw),
                     free=linear.kernel_perceptron(stream.X, stream.y, **kw))


#: The largest decision value a region keeps (a little under float32's 3.4e38, which the figure stores).
F32 = 3e38


@dataclass(frozen=True, eq=False)
class Region:
    r"""The decision values :math:`f_t` on an n × n grid of :math:`[-lim, lim]^2`, and the supports in force."""

    xs: np.ndarray
    Z: np.ndarray                 # Z[i, j] = f_t((xs[j], xs[i])), saturated at ±F32
    supports: np.ndarray          # rows of the supports in the cache before round t
    t: int


def region(stream: Stream, t: int, lim: float, budget: int | None = None, seed: int = 0, kernel: str = "rbf",
           gamma: float = 2.0, degree: int = 3, coef0: float = 1.0, n: int = 61) -> Region:
    r""":math:`f_t(\mathbf x)` on a grid of the plane after ``t`` rounds of the kernel Perceptron (``budget=None``)
    or of the Randomized Budget Perceptron (cache ``budget``): the learner's state when it predicts round t + 1."""
    kw = _kernel_args(kernel, gamma, degree, coef0)
    tr = linear.kernel_perceptron(stream.X, stream.y, budget=budget, seed=seed, **kw)
    return region_of(stream.X, stream.y, tr, t, lim, kernel, gamma, degree, coef0, n)


def region_of(X: np.ndarray, y: np.ndarray, trace: Trace, t: int, lim: float, kernel: str = "rbf",
              gamma: float = 2.0, degree: int = 3, coef0: float = 1.0, n: int = 61) -> Region:
    r""":func:`region` of a run already made: ``trace`` is the learner's run on the 2-D stream ``(X, y)``.

    :math:`f_t(\mathbf x) = \sum_{s \in L_t} y_s K(\mathbf x_s, \mathbf x)` with :math:`L_t` the cache before
    round :math:`t + 1` (:func:`olcore.linear.supports_at`), evaluated at the :math:`n^2` points of the grid:
    :math:`O(|L_t|\, n^2)` kernel values, no learner rerun (one call per frame of a play)."""
    X = np.asarray(X)
    if X.ndim != 2 or X.shape[1] != 2:
        raise StreamError.bad("d", str(X.shape[-1]), "2 features for the decision region", label="The dimension d")
    kw = _kernel_args(kernel, gamma, degree, coef0)
    n = check_int(n, "n", 2, 400)
    lim = check_param(lim, "lim", 0, None, lo_open=True)
    rows = supports_at(trace, check_int(t, "t", 0, X.shape[0]))
    xs = np.linspace(-lim, lim, n)
    P = np.stack(np.meshgrid(xs, xs), axis=-1).reshape(-1, 2)
    Z = decision_values(X, y, rows, P, **kw).reshape(n, n)
    # A polynomial kernel of degree 6 on |x| ~ 10³ already gives |f_t| ~ 10³⁸, beyond float32 (the figure's JSON):
    # values past ±F32 are saturated there, so the tint, the line f = 0 and the sign keep their meaning.
    Z = np.clip(Z, -F32, F32)
    return Region(xs=xs, Z=Z, supports=rows, t=int(t))


@dataclass(frozen=True, eq=False)
class BudgetSweep:
    """Mistakes of the Randomized Budget Perceptron over budgets, on a stationary and a drifting stream."""

    Bs: np.ndarray
    stationary: np.ndarray        # (seeds, len(Bs)) mistakes
    drifting: np.ndarray
    free_stationary: np.ndarray   # (seeds,) unbudgeted mistakes
    free_drifting: np.ndarray
    T: int
    source: str
    switches: int


def budget_sweep(source: str = "XOR", T: int = 1000, Bs=(2, 5, 10, 20, 50, 100, 200), seeds=(0, 1, 2),
                 kernel: str = "rbf", gamma: float = 2.0, degree: int = 3, coef0: float = 1.0,
                 switches: int = 2) -> BudgetSweep:
    """The notes' empirical figures: final mistakes against B, stationary (``source``) and drifting (its labels
    flipped ``switches`` times), each averaged over ``seeds``, beside the unbudgeted kernel Perceptron."""
    kw = _kernel_args(kernel, gamma, degree, coef0)
    Bs = np.array([check_int(b, "B", 1, None) for b in Bs])
    st, dr = np.empty((len(seeds), len(Bs))), np.empty((len(seeds), len(Bs)))
    fs, fd = np.empty(len(seeds)), np.empty(len(seeds))
    for i, s in enumerate(seeds):
        a, b = make_stream(source, T, s), drifting(source, T, s, switches)
        fs[i] = linear.kernel_perceptron(a.X, a.y, **kw).n_mistakes
        fd[i] = linear.kernel_perceptron(b.X, b.y, **kw).n_mistakes
        for j, B in enumerate(Bs):
            st[i, j] = linear.kernel_perceptron(a.X, a.y, budget=int(B), seed=s, **kw).n_mistakes
            dr[i, j] = linear.kernel_perceptron(b.X, b.y, budget=int(B), seed=s, **kw).n_mistakes
    return BudgetSweep(Bs=Bs, stationary=st, drifting=dr, free_stationary=fs, free_drifting=fd, T=int(T),
                       source=source, switches=switches)


# ---- the Fact ----------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class FactRun:
    """The Fact's sequence against a B-support learner and a learner with B + 1 supports."""

    B: int
    stream: Stream
    budget: Trace                 # Randomized Budget Perceptron, cache B, linear kernel
    more: Trace                   # cache B + 1 (fills to at most B + 1, never evicts: the kernel Perceptron)
    forced: BoundReport           # the lower bound floor(t/(B+1)) for the B-support learner
    novikoff: BoundReport         # B + 1 for the learner with B + 1 supports

    @property
    def sparsest_window(self) -> int:
        r"""The fewest mistakes the B-support learner makes in any B + 1 consecutive rounds (the Fact's
        argument gives at least 1 in each; 0 if the run is shorter than B + 1 rounds)."""
        w = self.B + 1
        m = np.concatenate([[0], np.cumsum(self.budget.mistakes)])
        return int((m[w:] - m[:-w]).min()) if m.size > w else 0

    @property
    def last_window(self) -> int:
        """Mistakes of the B-support learner in the last B + 1 rounds (0 if the run is shorter)."""
        w = self.B + 1
        return int(self.budget.mistakes[-w:].sum()) if self.budget.T >= w else 0


def fact(B: int = 5, T: int = 300, seed: int = 0) -> FactRun:
    r""":func:`olcore.streams.adversary_budget` played against the Randomized Budget Perceptron with B supports
    (at least one mistake in every B + 1 rounds) and with B + 1 supports (at most :math:`(R/\gamma)^2 = B + 1`
    mistakes, Novikoff with :math:`R = 1`, :math:`\gamma = 1/\sqrt{B+1}`)."""
    s = streams.adversary_budget(B, T)
    B = s.info["B"]
    lo = linear.kernel_perceptron(s.X, s.y, kernel="linear", budget=B, seed=seed)
    hi = linear.kernel_perceptron(s.X, s.y, kernel="linear", budget=B + 1, seed=seed)
    curve = bounds.budget_forced_mistakes(B, np.arange(1, s.T + 1))
    forced = BoundReport(
        "The Fact: mistakes forced on B supports", "⌊t/(B+1)⌋ (lower)", float(curve[-1]), curve=curve,
        latex=rf"M_T = {lo.n_mistakes} \ge \lfloor T/(B+1)\rfloor = \lfloor {s.T}/{B + 1}\rfloor = {int(curve[-1])}",
        numbers={"B": B, "T": s.T, "M": lo.n_mistakes}, source=f"{SOURCE}: Memory bounded learning (Fact)",
        statement=(r"**Fact.** Using at most $B$ supports, any learner makes an unbounded number of mistakes on a "
                   r"sequence that some $\mathbf u$ with zero hinge loss and $\|\mathbf u\| = \sqrt{B+1}$ classifies "
                   r"perfectly; so $B \ge U^2$ supports are necessary to compete with every $\mathbf u$ of length $U$."))
    nov = BoundReport(
        "Novikoff's bound", "(R/γ)² = B + 1", float(B + 1),
        latex=rf"M_T = {hi.n_mistakes} \le (R/\gamma)^2 = (1\cdot\sqrt{{{B + 1}}})^2 = {B + 1}",
        numbers={"R": 1.0, "gamma": 1 / np.sqrt(B + 1), "M": hi.n_mistakes},
        source="UCL COMP0078, Online learning: Perceptron Bound [Novikoff]",
        statement=r"With a cache of $B + 1$ supports the learner is the Perceptron until a mistake finds the cache "
                  r"full, and Novikoff allows the Perceptron at most $(R/\gamma)^2 = B + 1$ mistakes: the cache "
                  r"fills to at most $B + 1$ supports, no mistake ever evicts one, and the bound holds for ever.")
    return FactRun(B=B, stream=s, budget=lo, more=hi, forced=forced, novikoff=nov)


# -- the lecture's answers (olapp/content/kernel_perceptron.py, LECTURE, which reads budget_run) -----------------

def free_mistakes_band(b: BudgetRun, edges) -> int:
    r"""The band of :math:`M_T`, the mistakes of the kernel Perceptron without a budget (the supports it stores:
    :math:`|\mathcal L| = M_T \le (R_K/\gamma_K)^2` when some unit :math:`f` has margin :math:`\gamma_K` in the RKHS),
    among increasing ``edges`` (:func:`olcore.lessons.band`)."""
    from . import band

    return band(b.free.n_mistakes, edges)


def budget_mistakes_band(b: BudgetRun, edges) -> int:
    r"""The band of the Randomized Budget Perceptron's mistakes with a cache of :math:`B` supports among
    increasing ``edges`` (:func:`olcore.lessons.band`). While :math:`|\mathcal L| < B` it is the kernel
    Perceptron; after, each mistake evicts a support chosen uniformly at random."""
    from . import band

    return band(b.trace.n_mistakes, edges)


def evicts(b: BudgetRun) -> bool:
    r"""Whether some mistake of the budget learner finds the cache full (:math:`|\mathcal L| = B`) and throws a
    support away. Until then it makes exactly the kernel Perceptron's predictions, so it evicts iff the kernel
    Perceptron makes more than :math:`B` mistakes."""
    return bool(b.trace.extras["evicted"].any())
