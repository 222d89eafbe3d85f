r"""The Perceptron lesson as pure functions: the run, Novikoff's and the relative mistake bound, the proof.

:func:`analyse` runs the Perceptron over a stream (replayed ``epochs`` times), measures
:math:`R`, finds the separator :math:`\mathbf v` with its margin :math:`\gamma` (the
generator's when it separates, else the max-margin direction through the origin), the
comparator :math:`\mathbf u` of the relative mistake bound, both theorems as
:class:`olcore.report.BoundReport`, the per-pass convergence summary and the proof's
quantities (:math:`\|\mathbf w\|`, :math:`\mathbf w\cdot\hat{\mathbf v}` and their bounds after
each mistake).  :func:`compare` runs PA, PA-I, PA-II and OGD on the same stream with their
bounds for the same :math:`\mathbf u`; :func:`at_round` is the state the plane pictures show
after round :math:`t`.  Stream makers: :func:`generated_stream`, :func:`typed_stream`.

Sources: UCL COMP0078, Online learning (Perceptron Bound [Novikoff]); Cesa-Bianchi, On-line
learning (the relative mistake bound, Passive-Aggressive); Crammer et al. (2006) for PA-II.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import bounds, linear, streams
from ..comparators import best_u_nonseparable, max_margin_direction
from ..errors import StreamError
from ..measure import radius
from ..report import BoundReport
from ..stream import Stream
from ..trace import Trace
from ..validate import check_int

__all__ = ["PerceptronAnalysis", "Proof", "Comparison", "RoundView", "generated_stream", "typed_stream",
           "analyse", "compare", "at_round", "consistent_arcs", "NOVIKOFF", "NONSEPARABLE",
           "SOURCE_NOVIKOFF", "SOURCE_NONSEPARABLE", "mistakes_until", "mistakes_band", "first_clean_pass",
           "some_pass_clean"]

NOVIKOFF = "(R/γ)²"
NONSEPARABLE = "L_u + R²‖u‖² + R‖u‖√L_u"
SOURCE_NOVIKOFF = "UCL COMP0078, Online learning: Perceptron Bound [Novikoff]"
SOURCE_NONSEPARABLE = ("Cesa-Bianchi, On-line learning: the relative mistake bound "
                       "(generalized Perceptron convergence theorem)")
SOURCE_PA = "Cesa-Bianchi, On-line learning: Passive-Aggressive, mistake bounds [Crammer et al. 2006]"
SOURCE_OGD = "UCL COMP0078, Online learning: Regret Bound for OGD"

#: Accuracy and effort of the max-margin search (a valid margin is returned either way).
_MM_TOL, _MM_ITER = 1e-6, 20_000


# ---- streams ---------------------------------------------------------------------------------

def generated_stream(T: int, gamma: float, noise: float, seed: int) -> Stream:
    r"""``T`` points in the plane inside radius 1, separated by a random unit :math:`\mathbf v` with margin
    exactly :math:`\gamma`, each label flipped with probability ``noise`` (:func:`olcore.streams.separable`)."""
    return streams.separable(T=T, d=2, gamma=gamma, R=1.0, noise=noise, seed=seed)


def typed_stream(x1, x2, y) -> Stream:
    """The points typed in a table, one round per row (``None`` cells are rejected with a message)."""
    def col(c):
        return [math.nan if v is None else v for v in c]
    return streams.from_arrays("linear", np.column_stack([col(x1), col(x2)]) if len(x1) else np.zeros((0, 2)),
                               col(y))


#: Most typed points a link can carry.
MAX_TYPED_POINTS = 200


def encode_points(x1, x2, y) -> str:
    """Typed points as a compact, URL-safe text: ``x1_x2_y`` per point, points joined by ``~``.

    >>> encode_points([0.8, -0.6], [0.3, -0.25], [1, -1])
    '0.8_0.3_1~-0.6_-0.25_-1'
    """
    def num(v) -> str:
        v = float(v)
        return str(int(v)) if v == int(v) else f"{v:.6g}"
    return "~".join(f"{num(a)}_{num(b)}_{num(c)}" for a, b, c in zip(x1, x2, y)
                    if not any(v is None or (isinstance(v, float) and math.isnan(v)) for v in (a, b, c)))


def parse_points(text: str) -> tuple[list[float], list[float], list[int]]:
    """The points of :func:`encode_points`' text, validated: each ``x1_x2_y`` with finite
    coordinates and a label +1 or -1, at most :data:`MAX_TYPED_POINTS` points.

    >>> parse_points("0.8_0.3_1~-0.6_-0.25_-1")
    ([0.8, -0.6], [0.3, -0.25], [1, -1])
    >>> parse_points("1_2")
    Traceback (most recent call last):
    ...
    olcore.errors.StreamError: typed points: point 1 is '1_2'; expected x1_x2_y with y = 1 or -1, points joined by ~
    """
    expected = "x1_x2_y with y = 1 or -1, points joined by ~"
    parts = [p for p in str(text).split("~") if p]
    if len(parts) > MAX_TYPED_POINTS:
        raise StreamError(f"typed points: the link has {len(parts)} points; expected at most {MAX_TYPED_POINTS}")
    x1, x2, y = [], [], []
    for i, part in enumerate(parts, 1):
        cells = part.split("_")
        try:
            a, b, c = (float(v) for v in cells)
        except ValueError:
            raise StreamError(f"typed points: point {i} is {part[:40]!r}; expected {expected}") from None
        if not (math.isfinite(a) and math.isfinite(b)) or c not in (1.0, -1.0):
            raise StreamError(f"typed points: point {i} is {part[:40]!r}; expected {expected}")
        x1.append(a)
        x2.append(b)
        y.append(int(c))
    return x1, x2, y


# ---- results -----------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Proof:
    r"""The proof's quantities after each mistake :math:`M = 0, 1, \dots` (arrays (M_total + 1,)).

    ``norm`` :math:`\|\mathbf w\|`, ``upper`` its bound :math:`\sqrt M R`; ``w_dot`` is
    :math:`\mathbf w\cdot\hat{\mathbf v}` (separable: :math:`\hat{\mathbf v} = \mathbf v`) or
    :math:`\mathbf w\cdot\mathbf u/\|\mathbf u\|`, and ``lower`` its lower bound :math:`M\gamma`
    or :math:`(M - L_{\mathbf u}(t_M))/\|\mathbf u\|`, with :math:`t_M` the round of mistake :math:`M`.
    """

    M: np.ndarray
    norm: np.ndarray
    upper: np.ndarray
    w_dot: np.ndarray
    lower: np.ndarray
    meet: float | None        # separable: M = (R/γ)², where the two bounds meet


@dataclass(frozen=True, eq=False)
class PerceptronAnalysis:
    """Everything the Perceptron page shows, computed from the stream and the number of passes.

    ``source`` is where the stream came from (``"Generated"``, ``"Typed"``, ``"Upload"``), used to
    say why a stream is not separable.  ``v_from`` is ``"generator"`` or ``"max-margin"``.
    """

    X: np.ndarray
    y: np.ndarray
    source: str
    epochs: int
    pass_length: int
    trace: Trace
    R: float
    v: np.ndarray
    gamma: float
    v_from: str
    separable: bool
    n_flipped: int
    u: np.ndarray
    norm_u: float
    loss_u: np.ndarray          # L_u after rounds 1..T of the replayed stream
    sq_loss_u: np.ndarray       # sum of squared hinge losses of u after rounds 1..T
    novikoff: BoundReport
    nonseparable: BoundReport
    per_pass: np.ndarray        # mistakes in each pass
    converged_pass: int | None  # 1-based first pass without a mistake
    last_mistake: int | None    # 1-based round of the last mistake
    proof: Proof

    @property
    def bound(self) -> BoundReport:
        """The bound the page draws: Novikoff's on a separable stream, else the relative mistake bound."""
        return self.novikoff if self.separable else self.nonseparable

    @property
    def T(self) -> int:
        return self.trace.T

    @property
    def d(self) -> int:
        return int(self.X.shape[1])

    @property
    def cum_mistakes(self) -> np.ndarray:
        return np.cumsum(self.trace.mistakes)

    def mistakes_at(self, t: int) -> int:
        """Mistakes in rounds 1..t."""
        return int(self.trace.extras["M"][t])


def _why_not_separable(source: str, n_flipped: int) -> str:
    if source == "Generated" and n_flipped:
        return (f"the label noise flipped {n_flipped} label{'s' if n_flipped != 1 else ''}, and no line through "
                "the origin separates the stream any more: Novikoff's assumption y_t v·x_t ≥ γ > 0 fails, so "
                "(R/γ)² says nothing.")
    return ("no line through the origin separates these points (the max-margin search finds no direction with "
            "a positive margin): Novikoff's assumption y_t v·x_t ≥ γ > 0 fails, so (R/γ)² says nothing.")


def _novikoff(R: float, gamma: float, separable: bool, source: str, n_flipped: int, v_from: str) -> BoundReport:
    statement = ("**Novikoff.** If every ‖x_t‖ ≤ R and a unit vector v has y_t (v·x_t) ≥ γ > 0 for all t, the "
                 "Perceptron makes at most (R/γ)² mistakes, however long the stream and however often it is "
                 "replayed.")
    if not separable:
        return BoundReport("Novikoff's Perceptron bound", NOVIKOFF, math.inf, numbers={"R": R},
                           applies=False, why_not="This stream is **not separable**: " + _why_not_separable(
                               source, n_flipped), source=SOURCE_NOVIKOFF, statement=statement)
    value = float(bounds.perceptron(R, gamma))
    which = ("the generator's separator v" if v_from == "generator"
             else "the max-margin direction v through the origin (the smallest bound of every separator)")
    return BoundReport(
        "Novikoff's Perceptron bound", NOVIKOFF, value,
        latex=r"M \le \left(\frac{R}{\gamma}\right)^2 = \left(\frac{%.4g}{%.4g}\right)^2 = %.4g" % (R, gamma, value),
        numbers={"R": R, "gamma": gamma}, source=SOURCE_NOVIKOFF,
        statement=statement + f" Here γ is the margin of {which}, measured on this stream.")


def _nonseparable(loss_u: np.ndarray, norm_u: float, R: float) -> BoundReport:
    curve = bounds.perceptron_nonseparable(loss_u, norm_u, R)
    L = float(loss_u[-1]) if loss_u.size else 0.0
    a = R * norm_u
    value = float(bounds.perceptron_nonseparable(L, norm_u, R))
    return BoundReport(
        "The Perceptron's relative mistake bound", NONSEPARABLE, value, curve=curve,
        latex=(r"M \le L_{\mathbf u} + R^2\|\mathbf u\|^2 + R\|\mathbf u\|\sqrt{L_{\mathbf u}}"
               r" = %.4g + %.4g + %.4g = %.4g" % (L, a * a, a * math.sqrt(L), value)),
        numbers={"L_u": L, "norm_u": norm_u, "R": R}, source=SOURCE_NONSEPARABLE,
        statement=("**For every u**, with L_u = Σ_t [1 − y_t u·x_t]₊ the hinge loss of u and ‖x_t‖ ≤ R, the "
                   "Perceptron makes at most L_u + R²‖u‖² + R‖u‖√L_u mistakes. The notes state it for "
                   "‖x_t‖ = 1; with radius R the same proof gives the R factors. The page uses the u with the "
                   "smallest bound found by a search (any u gives a valid bound)."))


def _separator(X, y, info: dict) -> tuple[np.ndarray, float, str]:
    """The generator's v when it separates, else the max-margin direction through the origin."""
    v0 = info.get("v")
    if v0 is not None and np.shape(v0) == (X.shape[1],):
        v0 = np.asarray(v0, float) / np.linalg.norm(v0)
        g0 = float((y * (X @ v0)).min())
        if g0 > 0:
            return v0, g0, "generator"
    v, g = max_margin_direction(X, y, tol=_MM_TOL, max_iter=_MM_ITER)
    return v, g, "max-margin"


#: A hinge loss this small is rounding: u = v/γ has y u·x >= 1 exactly, but 1 − y (X @ u) may come out 1e-16.
_ROUNDING = 1e-12


def _hinge_prefix(X, y, u, epochs: int) -> tuple[np.ndarray, np.ndarray]:
    """Prefix sums of u's hinge loss and squared hinge loss over the stream replayed ``epochs`` times."""
    h = np.maximum(0.0, 1.0 - y * (X @ u))
    h[h <= _ROUNDING] = 0.0
    return np.cumsum(np.tile(h, epochs)), np.cumsum(np.tile(h * h, epochs))


def analyse(stream: Stream, epochs: int = 1, source: str = "Generated") -> PerceptronAnalysis:
    r"""The Perceptron on ``stream`` replayed ``epochs`` times, with both theorems and the proof.

    Parameters
    ----------
    stream : Stream of kind ``"linear"``
    epochs : int, >= 1
    source : str, default="Generated"
        Where the stream came from; only words the reason a stream is not separable.

    Raises
    ------
    StreamError
        Not a linear stream, every point at the origin, or ``epochs`` out of range.
    """
    if stream.kind != "linear":
        raise StreamError.bad("stream", f"kind {stream.kind!r}", "a linear stream (features, label in {-1, +1})")
    X, y = stream.X, stream.y.astype(float)
    R = radius(X)
    if R == 0:
        raise StreamError.bad("X", "every point at the origin", "at least one non-zero point (R > 0)")
    trace = linear.perceptron(X, y, epochs=epochs)
    T1 = X.shape[0]
    epochs = trace.T // T1
    v, gamma, v_from = _separator(X, y, stream.info)
    separable = gamma > 0
    n_flipped = int(np.size(stream.info.get("flipped", ()))) if source == "Generated" else 0
    if separable:
        u = v / gamma                           # y u·x >= 1: zero hinge loss, ‖u‖ = 1/γ
    else:
        w_fin = trace.weights_at(trace.T)
        dirs = [v] + ([w_fin] if np.linalg.norm(w_fin) > 0 else [])
        u = best_u_nonseparable(X, y, directions=dirs)["u"]
    norm_u = float(np.linalg.norm(u))
    loss_u, sq_loss_u = _hinge_prefix(X, y, u, epochs)
    novikoff = _novikoff(R, gamma, separable, source, n_flipped, v_from)
    nonsep = _nonseparable(loss_u, norm_u, R)
    per_pass = trace.mistakes.reshape(epochs, T1).sum(axis=1)
    clean = np.flatnonzero(per_pass == 0)
    mist = np.flatnonzero(trace.mistakes)
    # the proof, after each mistake
    tab = trace.weight_table
    M = np.arange(tab.shape[0], dtype=float)
    norm = np.linalg.norm(tab, axis=1)
    if separable:
        w_dot, lower, meet = tab @ v, M * gamma, float(bounds.perceptron(R, gamma))
    else:
        uh = u / norm_u
        Lm = np.concatenate([[0.0], loss_u[mist]])     # L_u up to the round of each mistake
        w_dot, lower, meet = tab @ uh, (M - Lm) / norm_u, None
    proof = Proof(M=M, norm=norm, upper=np.sqrt(M) * R, w_dot=w_dot, lower=lower, meet=meet)
    return PerceptronAnalysis(
        X=X, y=y, source=source, epochs=epochs, pass_length=T1, trace=trace, R=R, v=v, gamma=gamma,
        v_from=v_from, separable=separable, n_flipped=n_flipped, u=u, norm_u=norm_u, loss_u=loss_u,
        sq_loss_u=sq_loss_u, novikoff=novikoff, nonseparable=nonsep, per_pass=per_pass,
        converged_pass=int(clean[0]) + 1 if clean.size else None,
        last_mistake=int(mist[-1]) + 1 if mist.size else None, proof=proof)


# ---- the other learners on the same stream ------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Comparison:
    """PA, PA-I, PA-II and OGD beside the Perceptron on one stream: traces and bounds by learner."""

    traces: dict           # name -> Trace ("Perceptron", "PA", "PA-I", "PA-II", "OGD")
    bounds: dict           # name -> BoundReport (PA only on a stream u separates with zero loss)
    C: float
    eta: float
    norm_u: float

    def final_weights(self) -> dict:
        return {k: tr.weights_at(tr.T) for k, tr in self.traces.items()}


def compare(stream: Stream, epochs: int, C: float, eta: float, u) -> Comparison:
    r"""Perceptron, PA, PA-I, PA-II and OGD on ``stream`` (``epochs`` passes), each with its bound for ``u``.

    Bounds, for the comparator :math:`\mathbf u` (:attr:`PerceptronAnalysis.u`): the Perceptron's
    relative mistake bound (Novikoff's when :math:`L_{\mathbf u} = 0`), PA's
    :math:`\|\mathbf u\|^2R^2` (only when :math:`L_{\mathbf u} = 0`), PA-I's
    :math:`\max(R^2, 1/C)(\|\mathbf u\|^2 + 2CL_{\mathbf u})`, PA-II's
    :math:`(R^2 + \frac{1}{2C})(\|\mathbf u\|^2 + 2C\sum\ell_t(\mathbf u)^2)` (the paper's constant) and
    OGD's :math:`L_{\mathbf u} + \|\mathbf u\|^2/(2\eta) + \eta tR^2/2` on its hinge loss, which is at
    least its number of mistakes.  Each is a curve over rounds.
    """
    X, y = stream.X, stream.y.astype(float)
    u = np.asarray(u, float)
    traces = {"Perceptron": linear.perceptron(X, y, epochs=epochs),
              "PA": linear.passive_aggressive(X, y, "PA", epochs=epochs),
              "PA-I": linear.passive_aggressive(X, y, "PA-I", C=C, epochs=epochs),
              "PA-II": linear.passive_aggressive(X, y, "PA-II", C=C, epochs=epochs),
              "OGD": linear.ogd_hinge(X, y, eta=eta, epochs=epochs)}
    epochs = traces["Perceptron"].T // X.shape[0]
    R = radius(X)
    norm_u = float(np.linalg.norm(u))
    Lp, sqLp = _hinge_prefix(X, y, u, epochs)
    t = np.arange(1, Lp.size + 1)
    zero_loss = Lp.size > 0 and Lp[-1] == 0
    out = {}
    if zero_loss:
        val = float(bounds.perceptron_nonseparable(0.0, norm_u, R))
        out["Perceptron"] = BoundReport("Novikoff's Perceptron bound", NOVIKOFF, val,
                                        numbers={"R": R, "norm_u": norm_u}, source=SOURCE_NOVIKOFF)
        out["PA"] = BoundReport("PA on a separable stream", "‖u‖²R²",
                                float(bounds.passive_aggressive_separable(norm_u, R)),
                                numbers={"R": R, "norm_u": norm_u}, source=SOURCE_PA)
    else:
        out["Perceptron"] = _nonseparable(Lp, norm_u, R)
    pa1 = bounds.passive_aggressive_pa1(norm_u, Lp, C, R)
    out["PA-I"] = BoundReport("PA-I's mistake bound", "max(R², 1/C)(‖u‖² + 2C·L_u)", float(pa1[-1]), curve=pa1,
                              numbers={"R": R, "norm_u": norm_u, "C": C}, source=SOURCE_PA)
    pa2 = bounds.passive_aggressive_pa2(norm_u, sqLp, C, R)
    out["PA-II"] = BoundReport("PA-II's mistake bound", "(R² + 1/(2C))(‖u‖² + 2C·Σℓ_u²)", float(pa2[-1]),
                               curve=pa2, numbers={"R": R, "norm_u": norm_u, "C": C},
                               source="Crammer et al., Online Passive-Aggressive Algorithms (2006), Theorem 5")
    ogd = bounds.ogd_hinge_loss_bound(Lp, norm_u, R, eta, t)
    out["OGD"] = BoundReport("OGD's hinge-loss bound", "L_u + ‖u‖²/(2η) + ηtR²/2", float(ogd[-1]), curve=ogd,
                             numbers={"R": R, "norm_u": norm_u, "eta": eta}, source=SOURCE_OGD)
    return Comparison(traces=traces, bounds=out, C=float(C), eta=float(eta), norm_u=norm_u)


# ---- the state after round t (the plane pictures) ------------------------------------------------

def consistent_arcs(X: np.ndarray, y: np.ndarray, n_angles: int = 720) -> list[tuple[float, float]]:
    r"""Angles (radians) of unit directions :math:`\mathbf u` with :math:`y_s\,\mathbf u\cdot\mathbf x_s > 0` for every row.

    Maximal runs ``(start, end)`` of feasible angles on a grid of ``n_angles`` (in 2-D the set
    is one arc, possibly wrapping past 0, or empty).  No rows: the whole circle.
    """
    a = np.linspace(0, 2 * np.pi, n_angles, endpoint=False)
    if len(X) == 0:
        return [(0.0, 2 * np.pi)]
    U = np.column_stack([np.cos(a), np.sin(a)])
    ok = np.all((np.asarray(X, float) @ U.T) * np.asarray(y, float)[:, None] > 0, axis=0)
    if not ok.any():
        return []
    if ok.all():
        return [(0.0, 2 * np.pi)]
    step = 2 * np.pi / n_angles
    shift = int(np.argmin(ok))                    # start the scan at an infeasible angle
    rolled = np.roll(ok, -shift)
    arcs, i = [], 0
    while i < n_angles:
        if rolled[i]:
            j = i
            while j + 1 < n_angles and rolled[j + 1]:
                j += 1
            arcs.append(((i + shift) * step, (j + shift + 1) * step))
            i = j + 1
        else:
            i += 1
    return arcs


@dataclass(frozen=True, eq=False)
class RoundView:
    """What the plane pictures show after ``t`` rounds (d = 2)."""

    t: int
    M: int                         # mistakes in rounds 1..t
    w: np.ndarray                  # w after round t
    n_seen: int                    # distinct points seen (rows 0..n_seen-1)
    last: int | None               # row of round t (0-based), None at t = 0
    last_mistake: bool
    update: tuple | None           # (w before, w after) when round t was a mistake
    path: np.ndarray               # w after each mistake so far (first row 0)
    arcs: list                     # directions consistent with every point seen
    wrong_seen: int                # seen points w misclassifies (y w·x <= 0)

    @property
    def in_wedge(self) -> bool:
        """Whether w classifies every point seen so far correctly (lies inside the wedge)."""
        return self.wrong_seen == 0


def at_round(a: PerceptronAnalysis, t: int) -> RoundView:
    """The run after ``t`` rounds (0..T) for the data-space and weight-space pictures."""
    tr, T1 = a.trace, a.pass_length
    t = min(max(int(t), 0), tr.T)
    w = tr.weights_at(t)
    last_mistake = bool(tr.mistakes[t - 1]) if t > 0 else False
    n_seen = min(t, T1)
    Xs, ys = a.X[:n_seen], a.y[:n_seen]
    return RoundView(
        t=t, M=a.mistakes_at(t), w=w, n_seen=n_seen, last=(t - 1) % T1 if t > 0 else None,
        last_mistake=last_mistake, update=(tr.weights_at(t - 1), w) if last_mistake else None,
        path=tr.weight_table[: tr.weight_index[t] + 1],
        arcs=consistent_arcs(Xs, ys) if a.d == 2 else [],
        wrong_seen=int(np.sum(ys * (Xs @ w) <= 0)))


# -- the lecture's answers (olapp/lessons/perceptron.py, LECTURE): computed from the run, never typed in ----

def mistakes_until(a: PerceptronAnalysis, t: int) -> int:
    r""":math:`M_t`, the Perceptron's mistakes in rounds 1..t."""
    t = check_int(t, "t", 0, a.T)
    return a.mistakes_at(t)


def mistakes_band(a: PerceptronAnalysis, edges) -> int:
    r"""The band of the mistakes :math:`M` on the whole run among ``edges`` (:func:`olcore.lessons.band`)."""
    from . import band

    return band(a.mistakes_at(a.T), edges)


def first_clean_pass(a: PerceptronAnalysis) -> int:
    """The first pass over the stream without a mistake (1-based; 0 if every pass has one)."""
    return int(a.converged_pass) if a.converged_pass is not None else 0


def some_pass_clean(a: PerceptronAnalysis) -> bool:
    """Whether some pass over the stream has no mistake (the Perceptron has converged)."""
    return a.converged_pass is not None
