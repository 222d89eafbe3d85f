r"""Every run has a budget: the memory and time an analysis will take, estimated before it runs.

A page hands its analyses a stream of any size within the upload limits (:data:`olcore.stream.MAX_CELLS`
values): a 300 × 10,000 CSV passes them, and the second-order Perceptron would then keep a
10,000 × 10,000 matrix (800 MB) and spend minutes updating it.  So before a page runs an analysis
(:meth:`olapp.kit.LessonPage.run`) it asks :func:`check` what that will cost, from the stream's shape
(rounds T, columns d) and the lesson's settings, and stops with a message when the cost is over
:data:`MEMORY_LIMIT` or :data:`TIME_LIMIT`; :func:`smaller_view` then finds the most columns, or the
largest sample of rows, that fits, and :func:`reduce` makes that view of the stream.

The estimates (:data:`ESTIMATES`, one entry per analysis a stream can reach, keyed by the function's
qualified name) add up the arrays each analysis keeps and the work of its loops, products,
factorisations and solver steps, read from the code of :mod:`olcore.lessons` and the algorithms they
call; the unit costs (:data:`LOOP`, :data:`GEMM`, ...) are measured on this machine
(``python -m benchmarks.budget --calibrate`` prints each estimate beside the measured run).  Where the
work depends on the data (mistakes, updates, solver iterations), an estimate takes the count seen on
random streams with 10% of their labels flipped (the hard case of most learners here), so an easy stream
costs less than estimated, and a pathological one can cost a few times more.  Analyses whose sizes only the page's own
controls set (a generated sweep, the game) are listed in :data:`FIXED` instead, with the reason.

Pure functions of sizes and settings: no Streamlit, and nothing is run.

>>> cost = estimate("olcore.lessons.online_svm.analyse_second_order", Size("linear", 300, 10_000), 1.0)
>>> cost.bytes > 4 * 2**30, fits(cost)
(True, False)
>>> fits(estimate("olcore.lessons.online_svm.analyse_second_order", Size("linear", 300, 20), 1.0))
True
"""

from __future__ import annotations

import functools
import inspect
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from .stream import Stream, from_arrays

__all__ = ["MEMORY_LIMIT", "TIME_LIMIT", "MIN_ROWS", "Size", "Part", "Cost", "Verdict", "Offer", "ESTIMATES",
           "FIXED", "estimate", "fits", "check", "smaller_view", "reduce", "limits_text", "describe",
           "format_bytes", "format_seconds", "qualname"]

#: Peak working memory one analysis may take (bytes).  A replica holds a few hundred MB of its own (Python,
#: numpy, Streamlit, plotly, the compiled kernels and the shared results): with two analyses at this limit
#: at once it stays under 1 GB.
MEMORY_LIMIT = 300 * 2**20
#: Estimated computing time one analysis may take (seconds of one core).  A page runs a few analyses,
#: and while one computes in a compiled loop the other sessions of the replica wait for it.
TIME_LIMIT = 2.0
#: The smallest sample of rows a smaller view offers (fewer rounds than this teach nothing).
MIN_ROWS = 10

# -- unit costs (seconds of one core), measured here: ``python -m benchmarks.budget --calibrate`` ---------
#: One multiply-add of a compiled (numba) loop over a row.
LOOP = 1.0e-9
#: One element of a matrix-vector product (memory-bound: each element read once).
GEMV = 0.3e-9
#: One multiply-add of a matrix-matrix product (BLAS, one thread).
GEMM = 0.04e-9
#: n³ of an n × n factorisation: Cholesky, LU (a determinant, a solve), eigenvalues, eigenvectors, least squares.
CHOL, LU, EIGVALS, EIGH, LSTSQ = 0.013e-9, 0.028e-9, 0.065e-9, 0.17e-9, 0.17e-9
#: m·n·min(m, n) of a thin SVD.
SVD = 0.32e-9
#: One element of one elementwise numpy pass (a temporary written and read).
ELEM = 1.5e-9
#: One step of a Python loop around numpy calls (the interpreter's and numpy's call overhead).
STEP = 6e-6
#: Bytes of one float64.
F = 8


@dataclass(frozen=True)
class Size:
    """What an estimate sees of a stream: its kind and shape (``T`` rounds of ``d`` columns)."""

    kind: str
    T: int
    d: int

    @classmethod
    def of(cls, stream: Stream) -> "Size":
        return cls(stream.kind, int(stream.X.shape[0]), int(stream.X.shape[1]) if stream.X.ndim == 2 else 1)


@dataclass(frozen=True)
class Part:
    """One step of an analysis: what it is (in words, for the message), its computing time, the memory it
    keeps until the analysis returns (``keep``) and the memory it needs only while it runs (``temp``)."""

    what: str
    seconds: float = 0.0
    keep: float = 0.0
    temp: float = 0.0


@dataclass(frozen=True)
class Cost:
    """The estimated cost of one analysis: its parts, peak memory (bytes) and computing time (seconds).

    The peak is everything kept plus the largest temporary (steps run one after another)."""

    parts: tuple[Part, ...]

    @property
    def bytes(self) -> float:
        return sum(p.keep for p in self.parts) + max((p.temp for p in self.parts), default=0.0)

    @property
    def seconds(self) -> float:
        return sum(p.seconds for p in self.parts)

    def heaviest(self, by: str) -> Part:
        """The part that weighs most in memory (``by="bytes"``) or time (``"seconds"``)."""
        key = (lambda p: p.keep + p.temp) if by == "bytes" else (lambda p: p.seconds)
        return max(self.parts, key=key)


def fits(cost: Cost, memory: float = MEMORY_LIMIT, seconds: float = TIME_LIMIT) -> bool:
    """Whether ``cost`` is within both limits."""
    return cost.bytes <= memory and cost.seconds <= seconds


@dataclass(frozen=True)
class Entry:
    """How to estimate one analysis: ``fn(**arguments)`` with every stream as a :class:`Size`; ``rows``
    names arguments derived from the stream's rounds (``a.T`` passed on), as functions of the stream's
    :class:`Size`, so that a smaller view recomputes them."""

    estimate: Callable[..., list[Part]]
    rows: Mapping[str, Callable[[Size], Any]] = field(default_factory=dict)


#: qualified name of an analysis -> its :class:`Entry`.
ESTIMATES: dict[str, Entry] = {}

#: qualified name -> why the analysis needs no estimate: its sizes are set by the page's own controls, never
#: by an upload (tests/test_budget.py checks that every ``page.run`` of a page is in ESTIMATES or here).
FIXED: dict[str, str] = {}


def qualname(fn: Callable | str) -> str:
    """``module.qualname`` of a function (the key of :data:`ESTIMATES`); a string is returned as it is."""
    return fn if isinstance(fn, str) else f"{getattr(fn, '__module__', '')}.{getattr(fn, '__qualname__', '')}"


def _entry(name: str, **rows: Callable[[Size], Any]) -> Callable:
    def register(est: Callable[..., list[Part]]) -> Callable[..., list[Part]]:
        ESTIMATES[f"olcore.lessons.{name}"] = Entry(est, rows)
        return est
    return register


def _fixed(reason: str, *names: str) -> None:
    for name in names:
        FIXED[name if name.startswith("olcore.") else f"olcore.lessons.{name}"] = reason


# -- applying an estimate ---------------------------------------------------------------------------------

def _function(name: str) -> Callable:
    import importlib

    module, _, attr = name.rpartition(".")
    return getattr(importlib.import_module(module), attr)


@functools.lru_cache(maxsize=256)
def _signature(fn: Callable) -> inspect.Signature:
    return inspect.signature(fn)


def _arguments(fn: Callable | str, args: tuple, kwargs: Mapping) -> dict[str, Any]:
    """The call's arguments by name (defaults filled in), as the function itself would bind them."""
    f = _function(fn) if isinstance(fn, str) else fn
    bound = _signature(f).bind(*args, **kwargs)
    bound.apply_defaults()
    return dict(bound.arguments)


def _sized(arguments: Mapping[str, Any]) -> dict[str, Any]:
    return {k: Size.of(v) if isinstance(v, Stream) else v for k, v in arguments.items()}


def estimate(fn: Callable | str, *args, **kwargs) -> Cost | None:
    """The estimated cost of ``fn(*args, **kwargs)``, or ``None`` when ``fn`` has no entry in :data:`ESTIMATES`.

    A stream may be given as a :class:`Size` (nothing is read from it but its kind and shape)."""
    entry = ESTIMATES.get(qualname(fn))
    if entry is None:
        return None
    return _estimate(entry, _sized(_arguments(fn if not isinstance(fn, str) else qualname(fn), args, kwargs)))


def _estimate(entry: Entry, arguments: Mapping[str, Any]) -> Cost:
    return Cost(tuple(entry.estimate(**arguments)))


@dataclass(frozen=True)
class Verdict:
    """The budget's answer for one call: its cost, whether it fits, and the stream it is about."""

    name: str
    cost: Cost
    size: Size | None
    memory_limit: float = MEMORY_LIMIT
    time_limit: float = TIME_LIMIT

    @property
    def fits(self) -> bool:
        return fits(self.cost, self.memory_limit, self.time_limit)

    @property
    def over_memory(self) -> bool:
        return self.cost.bytes > self.memory_limit

    @property
    def over_time(self) -> bool:
        return self.cost.seconds > self.time_limit


def check(fn: Callable | str, *args, **kwargs) -> Verdict | None:
    """The budget's verdict on ``fn(*args, **kwargs)`` before it runs (``None``: no estimate for ``fn``)."""
    name = qualname(fn)
    entry = ESTIMATES.get(name)
    if entry is None:
        return None
    arguments = _arguments(fn, args, kwargs)
    size = next((Size.of(v) for v in arguments.values() if isinstance(v, Stream)), None)
    return Verdict(name, _estimate(entry, _sized(arguments)), size)


@dataclass(frozen=True)
class Offer:
    """A smaller view of a stream that fits: its first ``columns`` columns, or a sample of ``rows`` rounds
    (``None``: no such view fits)."""

    columns: int | None
    rows: int | None


def _nice(n: int) -> int:
    """``n`` rounded down to two significant digits (a number a reader takes in: 57, 1,200, 34,000)."""
    if n < 100:
        return n
    step = 10 ** (len(str(n)) - 2)
    return n // step * step


def _largest(ok: Callable[[int], bool], lo: int, hi: int) -> int | None:
    """The largest n in [lo, hi] with ``ok(n)`` (``ok`` true up to some n, false after), or None."""
    if hi < lo or not ok(lo):
        return None
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid - 1)
    return lo


def smaller_view(fn: Callable | str, stream: Stream, *args, **kwargs) -> Offer:
    """The most columns (the first ones, every round kept) and the largest sample of rows (every column
    kept) of ``stream`` with which ``fn(*args, **kwargs)`` fits the budget, where every argument that is
    ``stream`` (and every argument the entry derives from its rounds) is replaced by the smaller view.
    A number is rounded down to two significant digits."""
    entry = ESTIMATES.get(qualname(fn))
    if entry is None:
        return Offer(None, None)
    arguments = _arguments(fn, args, kwargs)
    whole = Size.of(stream)

    def cost_with(size: Size) -> Cost:
        a = {k: (size if v is stream else v) for k, v in arguments.items()}
        a.update({k: derive(size) for k, derive in entry.rows.items()})
        return _estimate(entry, _sized(a))

    cols = _largest(lambda k: fits(cost_with(Size(whole.kind, whole.T, k))), 1, whole.d - 1)
    rows = _largest(lambda n: fits(cost_with(Size(whole.kind, n, whole.d))), MIN_ROWS, whole.T - 1)
    return Offer(None if cols is None else max(1, _nice(cols)), None if rows is None else max(MIN_ROWS, _nice(rows)))


def reduce(stream: Stream, columns: int | None = None, rows: int | None = None, seed: int = 0) -> Stream:
    """A smaller view of ``stream``: its first ``columns`` columns, and/or ``rows`` of its rounds drawn
    without replacement (seeded) and kept in their order.  ``info`` says what was kept (``"view"``); the
    CSV header names are those of the columns kept."""
    X = np.asarray(stream.X)
    y = None if stream.y is None else np.asarray(stream.y)
    T, d = X.shape
    parts = []
    if rows is not None and rows < T:
        keep = np.sort(np.random.default_rng(seed).choice(T, int(rows), replace=False))
        X, y = X[keep], (None if y is None else y[keep])
        parts.append(f"a sample of {int(rows):,} of its {T:,} rounds (in their order)")
    if columns is not None and columns < d:
        X = X[:, :int(columns)]
        parts.append(f"its first {int(columns):,} of {d:,} {describe(stream.kind)}")
    info = {k: v for k, v in stream.info.items() if k in ("source",)}
    header = stream.info.get("columns")
    if header is not None and columns is not None and columns < d:
        header = list(header[:int(columns)]) + ([header[-1]] if y is not None else [])
    if header is not None:
        info["columns"] = header
    info["view"] = " and ".join(parts) if parts else "the whole stream"
    return from_arrays(stream.kind, np.array(X), None if y is None else np.array(y), info)


def describe(kind: str) -> str:
    """What a stream's columns are, in words: experts, attributes or features."""
    return {"experts": "experts", "experts01": "experts", "losses": "experts", "disjunction": "attributes"}.get(
        kind, "features")


def format_bytes(b: float) -> str:
    """Bytes as a reader takes them in: ``"820 MB"``, ``"4.1 GB"``."""
    if b >= 2**30:
        return f"{b / 2**30:.2g} GB" if b < 10 * 2**30 else f"{b / 2**30:,.0f} GB"
    return f"{max(b / 2**20, 1):,.0f} MB"


def format_seconds(s: float) -> str:
    """Seconds as a reader takes them in: ``"0.5 s"``, ``"40 s"``, ``"12 min"``, ``"3 h"``."""
    if s < 10:
        return f"{s:.1g} s" if s < 1 else f"{s:.0f} s"
    if s < 120:
        return f"{s:.0f} s"
    if s < 2 * 3600:
        return f"{s / 60:.0f} min"
    return f"{s / 3600:,.0f} h"


def limits_text() -> str:
    """The budget in words, for the upload's help."""
    return (f"Each analysis a page runs on your stream may use up to {format_bytes(MEMORY_LIMIT)} of memory and "
            f"about {format_seconds(TIME_LIMIT)} of computing (estimated from the rounds and columns before it "
            "runs); a larger stream gets a message offering a smaller view of it: fewer columns, or a sample of "
            "its rows.")


# -- building blocks --------------------------------------------------------------------------------------

def _trace(rounds: float, d: float, updates: float | None = None, extras: int = 4) -> float:
    """Bytes of a Trace of ``rounds`` rounds: its weight table (one row per update, plus the first) and
    its per-round arrays (losses, predictions, mistakes, the index and ``extras`` more)."""
    table = ((rounds if updates is None else updates) + 1) * d * F
    return table + rounds * (4 + extras) * F


def _svm_search(T: float, d: float, max_iter: float) -> Part:
    """The max-margin search (pairwise Frank-Wolfe, :func:`olcore.comparators.max_margin_direction`): one
    product ``Z @ w`` and a few Python steps per iteration, for at most ``max_iter`` iterations; on random
    streams it needs about 1,000 + T + d/2 (more points to balance, and in high dimension smaller margins)."""
    steps = min(max_iter, 1000 + T + d / 2)
    return Part("the maximum-margin search", seconds=steps * (GEMV * T * d + 2 * STEP), temp=2 * T * d * F)


def _gram_eigh(T: float, d: float) -> tuple[float, float]:
    """(seconds, bytes) of the eigendecomposition of the smaller Gram matrix of a T × d matrix."""
    r = min(T, d)
    return GEMM * T * d * r + EIGH * r**3, (3 * r * r + r * max(T, d)) * F


def _prefix_solves(T: float, d: float) -> tuple[float, float, str]:
    """(seconds, bytes, what) of Theorem 1's bound on every prefix (:func:`olcore.lessons.widrow_hoff._prefix_curve`):
    one T × T Cholesky factorisation (up to 3,000 rounds), or one d × d solve per prefix (at most 5,000
    prefixes), whichever is cheaper: the cheaper of the two estimates (so that a smaller view never costs more)."""
    P = T if T <= 5000 else 2000
    primal = (GEMM * T * d * d + P * (4 * LU * d**3 + ELEM * 8 * d * d + STEP), P * (d * d + 2 * d) * F,
              f"{int(P):,} prefix solves of {int(d):,} × {int(d):,} systems")
    if T > 3000:
        return primal
    dual = (GEMM * T * T * d + CHOL * T**3, 3 * T * T * F, f"a {int(T):,} × {int(T):,} Cholesky factorisation")
    what = dual[2] if T * T / 3 + T * d <= d**3 / 3 + d * d else primal[2]
    return min(dual[0], primal[0]), min(dual[1], primal[1]), what


def _newton_solves(T: float, d: float, solves: float, name: str) -> list[Part]:
    """Projected OGD's best fixed point (:func:`olcore.oco.solve_best_fixed`), ``solves`` times: accelerated
    gradient steps (two T × d products each), then Newton steps with a d × d Hessian and its solve."""
    grad = 150                     # gradient steps per solve
    newton = 4                     # Newton steps in all (they are needed on separable prefixes only)
    seconds = solves * grad * (2 * GEMV * T * d + 8 * STEP) + newton * (GEMM * T * d * d + (2 * GEMM + LSTSQ) * d**3
                                                                        + 30 * STEP)
    return [Part(f"{name}: Newton steps on a {int(d):,} × {int(d):,} Hessian", seconds=seconds,
                 temp=(6 * d * d + 3 * T * d) * F)]


# -- the lessons' analyses ---------------------------------------------------------------------------------

@_entry("halving.analyse")
def _halving(stream: Size) -> list[Part]:
    T, n = stream.T, stream.d
    return [Part("Halving's version space over the rounds", seconds=LOOP * 3 * T * n + ELEM * 4 * T * n,
                 keep=_trace(T, n), temp=2.5 * T * n * F)]


def _kernel_rounds(T: float, d: float, budget: bool) -> float:
    """Seconds of the kernel Perceptron's rounds: each mistake adds a kernel column over the later rounds
    (T²d/2 multiply-adds when every round errs); the budget's evictions subtract one as often again."""
    return LOOP * 1.5 * T * T * d / 2 * (2 if budget else 1)


@_entry("kernel_perceptron.analyse")
def _kp_analyse(stream: Size, kernel: str = "rbf", gamma: float = 2.0, degree: int = 3,
                coef0: float = 1.0) -> list[Part]:
    from .lessons import kernel_perceptron as kp
    from .linear.kernel_perceptron import MARGIN_MAX_ROUNDS

    T, d = stream.T, stream.d
    parts = [Part("the kernel Perceptron's rounds", seconds=_kernel_rounds(T, d, False),
                  keep=T * d * F + _trace(T, d, extras=8), temp=T * d * F)]
    if T <= MARGIN_MAX_ROUNDS:
        steps = max(5_000, min(kp.MARGIN_ITER, kp.MARGIN_WORK // max(T, 1)))
        parts.append(Part(f"the margin in the RKHS: a {int(T):,} × {int(T):,} Gram matrix",
                          seconds=GEMM * T * T * d + ELEM * 6 * T * T + steps * (3 * LOOP * T),
                          temp=4 * T * T * F))
    return parts


@_entry("kernel_perceptron.budget_run")
def _kp_budget(stream: Size, B: int, seed: int = 0, kernel: str = "rbf", gamma: float = 2.0, degree: int = 3,
               coef0: float = 1.0) -> list[Part]:
    T, d = stream.T, stream.d
    return [Part("the budget and the free kernel Perceptron's rounds",
                 seconds=_kernel_rounds(T, d, True) + _kernel_rounds(T, d, False),
                 keep=2 * _trace(T, d, extras=8), temp=T * d * F)]


def _holdout(n: float, d: float) -> float:
    """Seconds of :func:`olcore.online_to_batch.holdout_errors`: every distinct hypothesis (about one per
    mistake: n/2 on hard streams) on the rows after it, several hypotheses per instruction."""
    return LOOP / 4 * n * n * d / 2


@_entry("mistakes_to_risk.analyse")
def _m2r_analyse(stream: Size, source: str = "Label noise", d: int = 5, noise: float = 0.1, seed: int = 0,
                 learner: str = "perceptron", delta: float = 0.05, n_holdout: int = 10_000) -> list[Part]:
    from .lessons import mistakes_to_risk as m2r

    if source == m2r.UPLOAD:
        dim = stream.d
        n = min(stream.T // 2, m2r.UPLOAD_N_MAX)
        N = min(stream.T - n, m2r.UPLOAD_HOLDOUT_MAX)
        copy = stream.T * dim * F
    else:
        dim, n, N, copy = stream.d, stream.T, n_holdout, n_holdout * stream.d * F
    return [Part("the ensemble's hypotheses, each on the held-out sample",
                 seconds=GEMM * n * N * dim + _holdout(n, dim) + ELEM * 4 * n * N,
                 keep=copy + _trace(n, dim) + 6 * n * F, temp=(2 * n * dim + 256 * N) * F)]


@_entry("mistakes_to_risk.repetitions", n=lambda s: min(s.T // 2, 2000, 1000))
def _m2r_repetitions(source: str = "Label noise", n: int = 1000, d: int = 5, noise: float = 0.1, seed: int = 0,
                     learner: str = "perceptron", delta: float = 0.05, reps: int = 100,
                     upload: Size | None = None) -> list[Part]:
    from .lessons import mistakes_to_risk as m2r

    if source == m2r.UPLOAD and upload is not None:
        dim, N = upload.d, min(upload.T, m2r.UPLOAD_DIST_MAX)
        risk = GEMM * reps * (n + 2) * N * dim            # every hypothesis's error rate over the rows
        keep = N * dim * F
    else:
        dim, N = d, 0
        risk = ELEM * 8 * reps * (n + 2) * d
        keep = 0.0
    block = max(1, min(reps, (1 << 17) // max(n, 1)))
    return [Part(f"{reps} samples of {n:,} rounds, each with its ensemble of {n:,} hypotheses",
                 seconds=risk + reps * (_holdout(n, dim) + LOOP * 2 * n * dim + 40 * STEP),
                 keep=keep, temp=(2.6 * block * (n + 2) * dim + 2 * block * n + 256 * N) * F)]


@_entry("ogd.analyse")
def _ogd_analyse(stream: Size, loss: str = "logistic", set_name: str = "ball", size: float = 1.0,
                 eta: float | None = None, prefix_points: int = 40, eta_mult: float | None = None) -> list[Part]:
    T, d = stream.T, stream.d
    solves = 1 + min(T, prefix_points)
    return [Part("projected OGD's run", seconds=LOOP * 6 * T * d + ELEM * 12 * T * d, keep=_trace(T, d) + 3 * T * d * F),
            *_newton_solves(T, d, solves, f"the best fixed point of {solves} prefixes"),
            Part(f"the set's extent along every axis (a {2 * int(d):,} × {int(d):,} matrix)",
                 seconds=ELEM * 4 * d * d, temp=4 * d * d * F)]


@_entry("ogd.sweep", T=lambda s: s.T)
def _ogd_sweep(source: str = "Noisy", T: int = 200, noise: float = 0.1, loss: str = "logistic",
               set_name: str = "ball", size: float = 1.0, seeds=(0, 1, 2, 3, 4), n_eta: int = 13,
               span: float = 64.0, d: int = 2) -> list[Part]:
    k = len(tuple(seeds))
    per_run = LOOP * 8 * T * d + ELEM * 6 * T * d + 20 * STEP
    return [Part(f"{k} seeds × {n_eta} step sizes of projected OGD over {int(T):,} rounds",
                 seconds=k * (n_eta * per_run) + k * _newton_solves(T, d, 1, "")[0].seconds,
                 temp=(n_eta + 2) * _trace(T, d) + 6 * T * d * F)]


def _experts_cost(T: float, K: float) -> tuple[float, float]:
    """(seconds, bytes) of :func:`olcore.lessons.ogd.experts`: a T × K loss matrix, OGD on the simplex
    (a projection, a sort of K, every round) and Hedge."""
    return (LOOP * 12 * T * K + LOOP * 4 * T * K * math.log2(K + 1) + ELEM * 10 * T * K + 10 * STEP,
            (6 * T * K + 20 * T) * F)


@_entry("ogd.experts", T=lambda s: s.T)
def _ogd_experts(T: int = 500, K: int = 10, seed: int = 0, gap: float = 0.1) -> list[Part]:
    s, b = _experts_cost(T, K)
    return [Part(f"OGD on the simplex and Hedge with {K} experts over {int(T):,} rounds", seconds=s, keep=b)]


@_entry("ogd.k_sweep", T=lambda s: s.T)
def _ogd_k_sweep(T: int = 500, Ks=(2, 4, 8, 16, 32, 64, 128), seeds=(0, 1, 2), gap: float = 0.1) -> list[Part]:
    runs = [_experts_cost(T, K) for K in Ks]
    return [Part(f"OGD and Hedge for {len(tuple(Ks))} numbers of experts × {len(tuple(seeds))} seeds over "
                 f"{int(T):,} rounds", seconds=len(tuple(seeds)) * sum(s for s, _ in runs),
                 temp=max(b for _, b in runs))]


def _alma_updates(T: float, d: float, epochs: float) -> float:
    """ALMA's updates over ``epochs`` passes, as seen on random streams: about T(1 + 2√epochs) when the rows
    are not separable (a share of every pass), fewer when they are (d ≥ T: a few passes' worth)."""
    return min(T * epochs, T * (1 + 2 * math.sqrt(epochs) * max(0.15, min(1.0, T / (2 * d)))))


@_entry("online_svm.analyse_alma")
def _alma(stream: Size, alpha: float = 0.9, epochs: int = 1) -> list[Part]:
    from .lessons import online_svm as svm

    T, d = stream.T, stream.d
    E = max(int(epochs), 1)
    K = _alma_updates(T, d, E)
    Km = _alma_updates(T, 1, E)             # (for the margins: as many as on a stream that is not separable)
    return [Part(f"ALMA and the Perceptron over {E} passes", seconds=LOOP * 3 * E * T * d + LOOP * 2 * K * d,
                 keep=T * d * F + _trace(E * T, d, K) + _trace(E * T, d, K / 2) + 2 * E * T * F),
            _svm_search(T, d, svm._SVM_ITER),
            Part(f"the margin of each of ALMA's {int(K):,} weight vectors on every round",
                 seconds=GEMM * K * T * d + ELEM * 45 * Km * T, temp=3 * Km * T * F + E * T * F)]


def _sop_mistakes(T: float, d: float) -> float:
    """Mistakes of the second-order Perceptron, as seen on random streams: about 40% of the rounds, and at
    most about d·log₂T (it learns the d directions)."""
    return min(0.4 * T, max(d, 1) * math.log2(T + 1))


def _sop_rounds(T: float, d: float, M: float) -> float:
    """Seconds of the second-order Perceptron's rounds: A⁻¹x every round, and at a mistake the
    Sherman-Morrison update and A⁻¹v (compiled loops over a d × d matrix, several sums per instruction)."""
    return LOOP / 3 * (T * d * d + 2 * M * d * d)


@_entry("online_svm.analyse_second_order")
def _sop(stream: Size, a: float = 1.0) -> list[Part]:
    from .lessons import online_svm as svm

    T, d = stream.T, stream.d
    M = _sop_mistakes(T, d)
    mat = f"a {int(d):,} × {int(d):,} matrix"
    return [Part(f"the second-order Perceptron keeps {mat} and updates it every round",
                 seconds=_sop_rounds(T, d, M), keep=d * d * F + _trace(T, d, M)),
            Part("the Perceptron and Hildreth's update", seconds=LOOP * 4 * T * d, keep=2 * _trace(T, d)),
            _svm_search(T, d, svm._SVM_ITER),
            Part(f"the bound after each of {int(M):,} mistakes: a determinant of {mat}",
                 seconds=M * (LU * d**3 + ELEM * 3 * d * d) + EIGVALS * d**3 + GEMM * M * d * d,
                 keep=d * d * F, temp=4 * d * d * F)]


@_entry("online_svm.analyse_selective")
def _selective(stream: Size, c: float = 1.0, a: float = 1.0) -> list[Part]:
    from .lessons import online_svm as svm

    T, d = stream.T, stream.d
    M = _sop_mistakes(T, d)
    runs = 2 + len(svm.C_SWEEP)
    return [Part(f"{runs} runs of the second-order Perceptron, each keeping a {int(d):,} × {int(d):,} matrix",
                 seconds=runs * _sop_rounds(T, d, M),
                 keep=2 * _trace(T, d, M), temp=2 * d * d * F + _trace(T, d, M))]


def _separator(T: float, d: float) -> list[Part]:
    """The Perceptron lesson's separator: the max-margin search (up to 20,000 steps), and on a stream it
    cannot separate, the whitened points (an SVD) and interior-point steps."""
    from .comparators import _IPM_BUDGET, _IPM_STEPS
    from .lessons.perceptron import _MM_ITER

    parts = [_svm_search(T, d, _MM_ITER)]
    r = min(T, d)
    if T * r * r <= _IPM_BUDGET:
        parts.append(Part("the separability check (SVD and interior-point steps)",
                          seconds=SVD * T * d * r + _IPM_STEPS * (GEMM * 2 * T * r * r + CHOL * r**3 + 40 * STEP),
                          temp=(3 * T * r + 2 * r * r + T * d) * F))
    return parts


def _passes(T: float, epochs: int) -> float:
    return T * max(int(epochs), 1)


@_entry("perceptron.analyse")
def _pc_analyse(stream: Size, epochs: int = 1, source: str = "Generated") -> list[Part]:
    T, d = stream.T, stream.d
    m = _passes(T, epochs)
    return [Part(f"the Perceptron over {int(epochs)} passes, its weights in every round",
                 seconds=LOOP * 2 * m * d + ELEM * 2 * m * d, keep=_trace(m, d) + 4 * m * F),
            *_separator(T, d),
            Part("the comparator's hinge losses", seconds=ELEM * 6 * m + 362 * (GEMV * T * 2 + 400 * ELEM + 5 * STEP),
                 temp=(400 * 4 + 3 * T) * F + T * d * F)]


@_entry("perceptron.compare")
def _pc_compare(stream: Size, epochs: int, C: float, eta: float, u) -> list[Part]:
    T, d = stream.T, stream.d
    m = _passes(T, epochs)
    return [Part(f"five learners over {int(epochs)} passes, each keeping its weights",
                 seconds=LOOP * 12 * m * d + ELEM * 15 * m * d, keep=5 * _trace(m, d) + 6 * m * F)]


@_entry("perceptron.ogd_regret")
def _pc_ogd(stream: Size, epochs: int, u) -> list[Part]:
    T, d = stream.T, stream.d
    m = _passes(T, epochs)
    return [Part("OGD on the hinge loss", seconds=LOOP * 3 * m * d, keep=_trace(m, d) + 4 * m * F)]


@_entry("perceptron.conservative")
def _pc_conservative(stream: Size, epochs: int, etas=(0.01, 1.0, 100.0)) -> list[Part]:
    T, d = stream.T, stream.d
    m = _passes(T, epochs)
    k = len(tuple(etas))
    return [Part(f"conservative OGD at {k} step sizes, every round's weights compared",
                 seconds=LOOP * 2 * (k + 1) * m * d + ELEM * 30 * (k + 1) * m * d,
                 keep=(k + 1) * (m + 1) * d * F + (k + 1) * _trace(m, d, 0), temp=4 * m * d * F)]


@_entry("perceptron.hinge_view")
def _pc_hinge(stream: Size, u, n_scales: int = 200) -> list[Part]:
    T, d = stream.T, stream.d
    return [Part("the hinge loss at every scale", seconds=GEMV * T * d + ELEM * 3 * n_scales * T,
                 temp=2 * n_scales * T * F)]


def _svm_opt(T: float, d: float, C: float, solves: float) -> float:
    """Seconds of :func:`olcore.bounds.svm_opt` on ``solves`` problems as large as the stream (the whole stream,
    and 40 growing prefixes warm-started, about 20 streams' worth): dual coordinate ascent, stopped at a
    duality gap of 1e-6 or after 5,000 passes.  Seen on random streams: about 60 passes when the rows are
    separable (d ≥ T), else 150 + 1,500 C passes up to 2,000 (large C: slow); in between, a blend."""
    hard = min(2000, 150 + 1500 * C)
    passes = 60 + (hard - 60) * min(1.0, T / (4 * d))     # (smooth in T and d: a smaller view always costs less)
    return LOOP * 2 * passes * T * d * solves


@_entry("perceptron.regularised")
def _pc_regularised(stream: Size, lam: float) -> list[Part]:
    from .lessons.perceptron import CHECKPOINTS

    T, d = stream.T, stream.d
    k = min(T, CHECKPOINTS)
    return [Part("OGD and the exact proximal step", seconds=LOOP * 6 * T * d, keep=2 * _trace(T, d)),
            Part(f"the soft-margin SVM on {k} prefixes (dual coordinate ascent)",
                 seconds=_svm_opt(T, d, 1 / (2 * lam), 1 + k / 2) + GEMM * 2 * k * T * d,
                 temp=(3 * k * T + T * d) * F)]


@_entry("perceptron.dual_ascent")
def _pc_dual(stream: Size, C: float) -> list[Part]:
    from .lessons.perceptron import CHECKPOINTS

    T, d = stream.T, stream.d
    k = min(T, CHECKPOINTS)
    return [Part("PA-I", seconds=LOOP * 3 * T * d, keep=_trace(T, d)),
            Part(f"the soft-margin SVM on the stream and {k} prefixes (dual coordinate ascent)",
                 seconds=_svm_opt(T, d, C, 2 + k / 2), temp=2 * T * d * F)]


@_entry("widrow_hoff.unit_ball")
def _wh_ball(stream: Size) -> list[Part]:
    return [Part("the norms of the rows", seconds=ELEM * 2 * stream.T * stream.d, temp=stream.T * stream.d * F)]


def _wh_stream(T: float, d: float) -> Part:
    """The stream as run (a float copy, and divided by R when rescaled)."""
    return Part("the stream as run", seconds=ELEM * 3 * T * d, keep=2 * T * d * F)


@_entry("widrow_hoff.tuning")
def _wh_tuning(stream: Size, rescale: bool = True) -> list[Part]:
    T, d = stream.T, stream.d
    s, b = _gram_eigh(T, d)
    k = 99 if T <= 2000 else 33
    kT = max(99 * min(T, 2000), 33 * T)       # rates × rounds (33 rates beyond 2,000 rounds: never less work)
    return [_wh_stream(T, d),
            Part("the singular values of the stream", seconds=2 * s + SVD * T * d * min(T, d), temp=2 * b),
            Part(f"{k} runs of Widrow-Hoff", seconds=LOOP * 3 * kT * d, temp=(3 * 99 * d + kT) * F)]


@_entry("widrow_hoff.analyse")
def _wh_analyse(stream: Size, eta: float, rescale: bool = True) -> list[Part]:
    T, d = stream.T, stream.d
    s, b = _gram_eigh(T, d)
    ps, pb, what = _prefix_solves(T, d)
    return [_wh_stream(T, d),
            Part("Widrow-Hoff's run and the proof's quantities", seconds=LOOP * 3 * T * d + ELEM * 10 * T * d,
                 keep=_trace(T, d) + 3 * T * d * F + 12 * T * F),
            Part("the comparators (least squares and ridge)", seconds=s + SVD * T * d * min(T, d), temp=b + T * d * F),
            Part(f"Theorem 1 on every prefix: {what}", seconds=ps, temp=pb)]


@_entry("widrow_hoff.online_to_batch")
def _wh_o2b(stream: Size, eta: float, m_max: int, repeats: int, seed: int, rescale: bool = True) -> list[Part]:
    T, d = stream.T, stream.d
    R, m = int(repeats), int(m_max)
    return [_wh_stream(T, d),
            Part(f"{R} samples of {m:,} rounds: their weights and averages", seconds=LOOP * 8 * R * m * d + ELEM * 12 * R * m * d,
                 temp=4.2 * R * m * d * F),
            Part(f"the risk of every average: quadratic forms of a {int(d):,} × {int(d):,} covariance",
                 seconds=GEMM * T * d * d + (EIGVALS + LSTSQ) * d**3 + LOOP * 2 * R * m * d * d, keep=3 * d * d * F)]


@_entry("widrow_hoff.implicit")
def _wh_implicit(stream: Size, eta: float, rescale: bool = True) -> list[Part]:
    T, d = stream.T, stream.d
    return [_wh_stream(T, d),
            Part("the explicit and implicit updates", seconds=LOOP * 6 * T * d + ELEM * 4 * T * d, keep=2 * _trace(T, d)),
            Part("the least-squares comparator", seconds=SVD * T * d * min(T, d), temp=2 * T * d * F)]


@_entry("winnow.analyse")
def _winnow(stream: Size, alpha: float = 2.0) -> list[Part]:
    T, N = stream.T, stream.d
    return [Part("Winnow's weights after every update, and their spread", seconds=LOOP * 3 * T * N + ELEM * 12 * T * N,
                 keep=_trace(T, N) + 2 * T * N * F, temp=2 * T * N * F)]


def _masters(T: float, n: float, runs: float) -> tuple[float, float]:
    return LOOP * 10 * runs * T * n + ELEM * 6 * runs * T * n, runs * (T + 1) * n * F


@_entry("wm_vs_hedge.analyse")
def _wm_analyse(stream: Size, beta: float = 1 / math.e, rwm_eta: float = 0.1, wa_loss: str = "square",
                wa_eta: float = 0.5, hedge_mult: float = 1.0, seed: int = 0, rwm_tuned: bool = False) -> list[Part]:
    T, n = stream.T, stream.d
    s, b = _masters(T, n, 4)
    cells = min(T + 1, 300) * n              # the page's heat map: one row per expert, at most 300 rounds
    return [Part("four masters, each keeping its weights over the rounds", seconds=s, keep=b + 4 * T * n * F,
                 temp=2 * T * n * F),
            Part(f"the heat map of the weights drawn from it: {int(n):,} experts × {int(min(T + 1, 300))} rounds",
                 seconds=5.5e-6 * cells, temp=160 * cells)]


@_entry("wm_vs_hedge.wa_equality")
def _wm_wa(stream: Size) -> list[Part]:
    T, n = stream.T, stream.d
    s, _ = _masters(T, n, 1)
    return [Part("the Weighted Average's equality", seconds=s, temp=5 * T * n * F)]


@_entry("wm_vs_hedge.tuning")
def _wm_tuning(stream: Size, eta: float = 0.1, beta: float = 1 / math.e, seed: int = 0, points: int = 60) -> list[Part]:
    T, n = stream.T, stream.d
    s, _ = _masters(T, n, 6)
    return [Part("WM tuned to each horizon", seconds=s, temp=4 * T * n * F)]


@_entry("wm_vs_hedge.scaled_hedge")
def _wm_scaled(stream: Size, B: float = 10.0) -> list[Part]:
    T, n = stream.T, stream.d
    s, _ = _masters(T, n, 2)
    return [Part("Hedge on losses in [0, B]", seconds=s, temp=4 * T * n * F)]


@_entry("wm_vs_hedge.sweep")
def _wm_sweep(stream: Size, source: str, best_rate: float = 0.3, seed: int = 0, seeds: int = 5,
              points: int = 25) -> list[Part]:
    T, n = stream.T, stream.d
    s, _ = _masters(T, n, seeds * points / 4)
    return [Part(f"Hedge at {points} learning rates × {seeds} seeds", seconds=s,
                 temp=(3 * T * n + 2 * points * T) * F)]


# -- analyses sized by the page's controls only -------------------------------------------------------------

_fixed("a stream maker: its size is the page's settings (rounds and dimension sliders with fixed maxima)",
       "halving.make_stream", "kernel_perceptron.make_stream", "mistakes_to_risk.make_stream", "ogd.make_stream",
       "online_svm.separable_stream", "online_svm.correlated_stream", "perceptron.generated_stream",
       "perceptron.typed_stream", "winnow.make_stream", "wm_vs_hedge.make_stream", "winnow.conjunction_stream",
       "olcore.streams.generators.regression")
_fixed("a generated experiment of the page's own (fixed rounds and seeds; never an upload)",
       "kernel_perceptron.budget_sweep", "kernel_perceptron.fact", "winnow.sweep", "widrow_hoff.eg_vs_wh",
       "halving.game", "winnow.elimination")

