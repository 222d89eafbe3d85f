r"""The Perceptron lesson as pure functions: the run, Novikoff's and the relative mistake bound, the proof.

:func:`analyse` runs the Perceptron over a stream (replayed ``epochs`` times), measures
:math:`R`, finds the separator :math:`\mathbf v` with its margin :math:`\gamma` (the
generator's when it separates, else the verdict of :func:`olcore.comparators.separability`: a
separator, the max-margin one when its search certifies it, or a Farkas certificate that none
exists, or neither: then the page says no separator was found, never that the data has none), the
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
from functools import cached_property

import numpy as np

from .. import bounds, linear, streams
from ..claims import claim, text
from ..comparators import Separability, best_u_nonseparable, separability
from ..errors import StreamError
from ..measure import radius
from ..report import BoundReport
from ..stream import VALUE_MAX, VALUE_MIN, Stream, value_range
from ..trace import Trace
from ..validate import check_int

__all__ = ["PerceptronAnalysis", "Proof", "Comparison", "RoundView", "generated_stream", "typed_stream",
           "analyse", "compare", "at_round", "consistent_arcs", "consistent_prefix", "arcs_of", "NOVIKOFF", "NONSEPARABLE",
           "SOURCE_NOVIKOFF", "SOURCE_NONSEPARABLE", "mistakes_until", "mistakes_band", "first_clean_pass",
           "some_pass_clean", "sci"]

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


def _typed_at(r: int, c: int | None = None) -> str:
    """Where a typed value is, as the table shows it: ``point 3, x1`` (the label's column is y)."""
    return f"point {r + 1}" + ("" if c is None else ", " + ("x1", "x2", "y")[min(c, 2)])


def typed_stream(x1, x2, y) -> Stream:
    """The points typed in a table, one round per row (``None`` cells are rejected with a message; so are numbers
    outside :func:`olcore.stream.value_range`, as in an uploaded file)."""
    def col(c):
        return [math.nan if v is None else v for v in c]
    return streams.from_arrays("linear", np.column_stack([col(x1), col(x2)]) if len(x1) else np.zeros((0, 2)),
                               col(y), at=_typed_at, user=True)


def _in_range(v: float) -> bool:
    return v == 0 or VALUE_MIN <= abs(v) <= VALUE_MAX


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
        if not (_in_range(a) and _in_range(b)):
            raise StreamError(f"typed points: point {i} is {part[:40]!r}; expected x1 and x2 {value_range()}")
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
    say why a stream is not separable.  ``v_from`` is ``"generator"``, ``"max-margin"`` (the max-margin
    direction through the origin, to within the search's accuracy) or ``"search"`` (a separator found by
    the certificate search on the whitened points, :func:`olcore.comparators.separability`, whose margin
    may be below the largest).  ``separation`` is that search's verdict with its certificate (``None``
    when the generator's v separates the stream).
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
    separation: Separability | None = None

    @property
    def verdict(self) -> str:
        """``"separable"``, ``"not separable"`` (certified) or ``"undecided"`` (no certificate either way)."""
        return "separable" if self.separable else self.separation.verdict

    @property
    def trivial(self) -> bool:
        """Whether the bound drawn is at least the number of rounds played: it then says no more than M ≤ T."""
        return self.bound.value >= self.T

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

    @cached_property
    def consistent_prefix(self) -> np.ndarray:
        """:func:`consistent_prefix` of one pass of the stream (d = 2; computed on first use)."""
        return consistent_prefix(self.X[: self.pass_length], self.y[: self.pass_length])


_SUP = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def sci(x: float) -> str:
    """A number as a student reads it: 4 significant digits, or ``4.8 × 10²⁶`` when very large or small.

    >>> sci(44.444), sci(4.8e26), sci(4.58e-14), sci(0.0)
    ('44.44', '4.8 × 10²⁶', '4.6 × 10⁻¹⁴', '0')
    """
    x = float(x)
    if x == 0 or not math.isfinite(x) or 1e-3 <= abs(x) < 1e6:
        return f"{x:.4g}"
    m, e = f"{x:.1e}".split("e")
    return f"{m} × 10{str(int(e)).translate(_SUP)}"


def _why_not_separable(source: str, n_flipped: int, sep: Separability, T: int) -> str:
    """Why Novikoff's bound cannot be used on this stream, from the certificate of :func:`separability`."""
    weights = ("weights λ_t ≥ 0 summing to 1 put Σ_t λ_t y_t x_t within ε = " + sci(sep.epsilon) + " of the "
               "origin (a Farkas certificate: every unit v then has y_t v·x_t ≤ ε on some point t)")
    if sep.verdict == "not separable":
        lead = (f"the label noise flipped {n_flipped} label{'s' if n_flipped != 1 else ''}, and no line through the "
                "origin separates the stream any more" if source == "Generated" and n_flipped else
                "no line through the origin separates these points")
        head = f"This stream is **not separable**: {lead}: {weights}. Novikoff's assumption fails for every γ > ε"
    elif math.isfinite(sep.epsilon):
        head = (f"**No separating direction was found** (after {sep.effort}), so there is no margin γ to put in "
                f"(R/γ)². And {weights}: any separator has a margin γ ≤ ε")
    else:
        return (f"**No separating direction was found** (after {sep.effort}), so there is no margin γ to put in "
                "(R/γ)². The page uses the relative mistake bound below, which needs no separator.")
    floor = (sep.R / sep.epsilon) ** 2 if sep.epsilon > 0 else math.inf
    floor_words = "is infinite" if math.isinf(floor) else f"= {sci(floor)}"
    if floor >= T:
        return text(head, ", and a margin γ ≤ ε would make (R/γ)² at least (R/ε)² ",
                    claim(f"{floor_words}, not below the T = {T} rounds: (R/γ)² says nothing here.", floor >= T,
                          "(R/ε)² ≥ T"))
    return text(head, ", and a margin γ ≤ ε would make (R/γ)² at least (R/ε)² ",
                claim(f"{floor_words}, below the T = {T} rounds.", floor < T, "(R/ε)² < T"),
                " The page uses the relative mistake bound, which needs no separator.")


def _novikoff(R: float, gamma: float, separable: bool, source: str, n_flipped: int, v_from: str,
              sep: Separability | None, T: int) -> BoundReport:
    statement = ("**Novikoff.** If every ‖x_t‖ ≤ R and a unit vector v has y_t (v·x_t) ≥ γ > 0 for all t, the "
                 "Perceptron makes at most (R/γ)² mistakes, however long the stream and however often it is "
                 "replayed.")
    if not separable:
        return BoundReport("Novikoff's Perceptron bound", NOVIKOFF, math.inf, numbers={"R": R},
                           applies=False, why_not=_why_not_separable(source, n_flipped, sep, T),
                           source=SOURCE_NOVIKOFF, statement=statement)
    value = float(bounds.perceptron(R, gamma))
    which = {"generator": "the generator's separator v",
             "max-margin": "the max-margin direction v through the origin (the smallest bound of every separator)",
             "search": ("a separating direction v found by the certificate search on the whitened points (not "
                        "necessarily the max-margin direction, whose bound may be smaller)")}[v_from]
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


def _separator(X, y, info: dict) -> tuple[np.ndarray, float, str, Separability | None]:
    """The generator's v when it separates, else the verdict of :func:`olcore.comparators.separability`:
    the max-margin direction when the Frank-Wolfe search certifies one, a separator found on the whitened
    points, or (not separable or undecided) the best direction tried, with the certificate."""
    v0 = info.get("v")
    if v0 is not None and np.shape(v0) == (X.shape[1],):
        v0 = np.asarray(v0, float) / np.linalg.norm(v0)
        g0 = float((y * (X @ v0)).min())
        if g0 > 0:
            return v0, g0, "generator", None
    sep = separability(X, y, tol=_MM_TOL, max_iter=_MM_ITER)
    return sep.v, sep.gamma, ("max-margin" if sep.max_margin or not sep.separable else "search"), sep


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
        raise StreamError.bad("stream", f"kind {stream.kind!r}", "a linear stream (features, label in {-1, +1})",
                              label="This stream")
    X, y = stream.X, stream.y.astype(float)
    R = radius(X)
    if R == 0:
        raise StreamError("Every point of this stream is at the origin (x = 0 in every row), so there is no hyperplane "
                          "to learn and no radius R > 0: the Perceptron needs at least one non-zero point.", "X")
    trace = linear.perceptron(X, y, epochs=epochs)
    T1 = X.shape[0]
    epochs = trace.T // T1
    v, gamma, v_from, sep = _separator(X, y, stream.info)
    separable = sep is None or sep.separable
    n_flipped = int(np.size(stream.info.get("flipped", ()))) if source == "Generated" else 0
    if separable:
        u = v / gamma                           # y u·x >= 1: zero hinge loss, ‖u‖ = 1/γ
    else:
        w_fin = trace.weights_at(trace.T)
        dirs = [v] + ([w_fin] if np.linalg.norm(w_fin) > 0 else [])
        u = best_u_nonseparable(X, y, directions=dirs)["u"]
    norm_u = float(np.linalg.norm(u))
    loss_u, sq_loss_u = _hinge_prefix(X, y, u, epochs)
    novikoff = _novikoff(R, gamma, separable, source, n_flipped, v_from, sep, trace.T)
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
        last_mistake=int(mist[-1]) + 1 if mist.size else None, proof=proof, separation=sep)


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

ANGLES = 720


def consistent_prefix(X: np.ndarray, y: np.ndarray, n_angles: int = ANGLES) -> np.ndarray:
    r"""For each of ``n_angles`` unit directions :math:`\mathbf u_k` (angle :math:`2\pi k/n`), the number
    of leading rows it classifies correctly: the least s with :math:`y_s\,\mathbf u_k\cdot\mathbf x_s \le 0`
    (0-based), or the number of rows.  Direction k is consistent with rows 1..n iff its entry is >= n,
    so one (T, n_angles) pass answers every prefix of the stream."""
    X, y = np.asarray(X, float), np.asarray(y, float)
    a = np.linspace(0, 2 * np.pi, n_angles, endpoint=False)
    if len(X) == 0:
        return np.zeros(n_angles, int)
    bad = (X @ np.vstack([np.cos(a), np.sin(a)])) * y[:, None] <= 0
    return np.where(bad.any(axis=0), bad.argmax(axis=0), len(X))


def arcs_of(ok: np.ndarray) -> list[tuple[float, float]]:
    """Maximal runs ``(start, end)`` (radians) of True on a circular grid of angles (in 2-D the
    consistent directions form one arc, possibly wrapping past 0, or none)."""
    n = len(ok)
    if not ok.any():
        return []
    if ok.all():
        return [(0.0, 2 * np.pi)]
    step = 2 * np.pi / n
    shift = int(np.argmin(ok))                    # start the scan at an infeasible angle
    rolled = np.roll(ok, -shift)
    arcs, i = [], 0
    while i < n:
        if rolled[i]:
            j = i
            while j + 1 < n and rolled[j + 1]:
                j += 1
            arcs.append(((i + shift) * step, (j + shift + 1) * step))
            i = j + 1
        else:
            i += 1
    return arcs


def consistent_arcs(X: np.ndarray, y: np.ndarray, n_angles: int = ANGLES) -> list[tuple[float, float]]:
    r"""Angles (radians) of unit directions :math:`\mathbf u` with :math:`y_s\,\mathbf u\cdot\mathbf x_s > 0` for every row.

    Maximal runs ``(start, end)`` of feasible angles on a grid of ``n_angles`` (in 2-D the set
    is one arc, possibly wrapping past 0, or empty).  No rows: the whole circle.
    """
    return arcs_of(consistent_prefix(X, y, n_angles) >= len(X))


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
        arcs=arcs_of(a.consistent_prefix >= n_seen) if a.d == 2 else [],
        wrong_seen=int(np.sum(ys * (Xs @ w) <= 0)))


# ---- going deeper: OGD's regret, conservative OGD, the hinge loss, regularisation, PA-I's dual --------

SOURCE_DUAL = "Cesa-Bianchi, On-line learning: PA-I as dual ascent (SVM dual Lagrange function)"
#: The step sizes of the conservative-OGD experiment (the notes: "η irrelevant").
CONSERVATIVE_ETAS = (0.01, 1.0, 100.0)
#: Rounds at which the prefix optima (SVM_OPT, the soft-margin minimum) are computed.
CHECKPOINTS = 40


def _checkpoints(T: int, n: int = CHECKPOINTS) -> np.ndarray:
    """``n`` rounds spread over 1..T (always T); empty for T = 0."""
    return np.unique(np.linspace(1, T, min(n, T)).round().astype(int)) if T else np.zeros(0, int)


def _one_pass(stream: Stream) -> tuple[np.ndarray, np.ndarray]:
    if stream.kind != "linear":
        raise StreamError.bad("stream", f"kind {stream.kind!r}", "a linear stream (features, label in {-1, +1})",
                              label="This stream")
    return stream.X, stream.y.astype(float)


@dataclass(frozen=True, eq=False)
class OGDRegret:
    r"""OGD with the theorem's step :math:`\eta = U/(R\sqrt m)` on the stream played, against :math:`\mathbf u`.

    ``regret`` (T,) is :math:`\sum_{s\le t} L_{hi}(y_s, \hat y_s) - L_{hi}(y_s, \mathbf u\cdot\mathbf x_s)`;
    ``report`` the bound :math:`U R\sqrt m` with the proof's curve :math:`U^2/(2\eta) + \eta t R^2/2`.
    """

    eta: float
    U: float
    R: float
    m: int
    regret: np.ndarray
    report: BoundReport


def ogd_regret(stream: Stream, epochs: int, u) -> OGDRegret:
    r"""OGD's hinge-loss regret against ``u`` with the tuned :math:`\eta = U/(R\sqrt m)`, :math:`U = \|\mathbf u\|`.

    :math:`m` is the number of rounds played (``epochs`` passes).  Theorem (6) of the notes:
    the regret after :math:`m` rounds is at most :math:`\sqrt{U^2R^2m}`; the proof's last line but
    one, :math:`U^2/(2\eta) + \eta tR^2/2`, bounds it after every round :math:`t \le m` (a prefix is
    a stream) and equals :math:`UR\sqrt m` at :math:`t = m`.
    """
    X, y = _one_pass(stream)
    R = radius(X)
    u = np.asarray(u, float)
    U = float(np.linalg.norm(u))
    m = X.shape[0] * int(epochs)
    statement = ("**OGD's regret (Zinkevich).** With R = max ‖x_t‖ and η = U/(R√m), for every u with ‖u‖ ≤ U, "
                 "OGD's hinge loss over m rounds exceeds u's by at most √(U²R²m). The proof telescopes "
                 "‖w_t − u‖² and gives U²/(2η) + ηtR²/2 after t rounds, the same at t = m.")
    if U == 0 or R == 0 or m == 0:
        report = BoundReport("OGD's hinge-loss regret", "U R √m", math.inf, applies=False,
                             why_not="the comparator u is 0 (or every x_t is 0), so the tuned η = U/(R√m) is not "
                                     "defined.", source=SOURCE_OGD, statement=statement)
        return OGDRegret(1.0, U, R, m, np.zeros(m), report)
    eta = float(bounds.ogd_hinge_eta(U, R, m))
    trace = linear.ogd_hinge(X, y, eta=eta, epochs=epochs)
    loss_u, _ = _hinge_prefix(X, y, u, trace.T // X.shape[0])
    regret = np.cumsum(trace.losses) - loss_u
    t = np.arange(1, trace.T + 1)
    value = float(bounds.ogd_hinge(U, R, m))
    report = BoundReport(
        "OGD's hinge-loss regret", "U R √m", value, curve=np.minimum(bounds.ogd_hinge_regret(U, R, t, eta), value),
        latex=(r"\sum_{t=1}^{m} L_{hi}(y_t,\hat y_t) - L_{hi}(y_t,\mathbf u\cdot\mathbf x_t) = %.4g"
               r" \le \sqrt{U^2R^2m} = %.4g \cdot %.4g \cdot \sqrt{%d} = %.4g"
               % (float(regret[-1]), U, R, m, value)),
        numbers={"U": U, "R": R, "m": m, "eta": eta}, source=SOURCE_OGD, statement=statement)
    return OGDRegret(eta, U, R, m, regret, report)


@dataclass(frozen=True, eq=False)
class Conservative:
    r"""Conservative OGD (an update only on a mistake) at each η of :data:`CONSERVATIVE_ETAS`.

    ``norms[eta]`` (T,) is :math:`\|\mathbf w_{t+1}\|` after each round (the page draws only these,
    so the cached result stays small)."""

    norms: dict             # eta -> (T,) ‖w‖ after rounds 1..T
    mistakes: int           # the Perceptron's
    same_mistakes: bool     # every eta errs on exactly the Perceptron's rounds
    max_angle: float        # largest angle (degrees) between w_t(eta) and the Perceptron's w_t, all t
    scale_error: float      # max over eta, t of ‖w_t(eta) / eta − w_t^Perceptron‖ / max ‖w^Perceptron‖


def conservative(stream: Stream, epochs: int, etas=CONSERVATIVE_ETAS) -> Conservative:
    r"""Conservative OGD at several :math:`\eta` beside the Perceptron: :math:`\mathbf w_t(\eta) = \eta\,\mathbf w_t`.

    The notes' step 5 ("the sign of the predictions is unchanged for any :math:`\eta > 0`"):
    every run makes the same mistakes and its hyperplanes differ from the Perceptron's only
    in scale; measured here, not assumed.
    """
    X, y = _one_pass(stream)
    p = linear.perceptron(X, y, epochs=epochs)
    traces = {float(e): linear.ogd_hinge(X, y, eta=float(e), epochs=epochs, conservative=True) for e in etas}
    Wp = p.weights
    scale = max(float(np.abs(Wp).max()), 1e-300)
    same, angle, err = True, 0.0, 0.0
    for e, tr in traces.items():
        same &= bool(np.array_equal(tr.mistakes, p.mistakes))
        W = tr.weights
        err = max(err, float(np.abs(W / e - Wp).max()) / scale)
        nw, npn = np.linalg.norm(W, axis=1), np.linalg.norm(Wp, axis=1)
        ok = (nw > 0) & (npn > 0)
        if ok.any():
            cos = np.clip(np.einsum("td,td->t", W[ok], Wp[ok]) / (nw[ok] * npn[ok]), -1, 1)
            angle = max(angle, float(np.degrees(np.arccos(cos)).max()))
    norms = {e: np.sqrt(tr.extras["norm_sq"][1:]) for e, tr in traces.items()}
    return Conservative(norms, p.n_mistakes, same, angle, err)


@dataclass(frozen=True, eq=False)
class HingeView:
    r"""The hinge loss :math:`(1 - yz)_+` as a convex upper bound of :math:`\mathbf 1[yz \le 0]`, on this stream.

    ``margins`` (T,) are :math:`y_t\,\hat{\mathbf u}\cdot\mathbf x_t` for the unit direction
    :math:`\hat{\mathbf u}` of the comparator; ``scales`` the lengths :math:`s = \|\mathbf u\|` tried,
    ``hinge`` (len(scales),) the hinge loss of :math:`s\hat{\mathbf u}` on the stream and
    ``mistakes`` of :math:`\hat{\mathbf u}` (any :math:`s > 0`).
    """

    margins: np.ndarray
    scales: np.ndarray
    hinge: np.ndarray
    mistakes: int
    norm_u: float
    best_scale: float       # the scale with the least hinge loss among those tried
    unit_paying: int = 0    # points where the unit direction û (s = 1) pays hinge loss: y û·x < 1 (beyond rounding)

    @property
    def T(self) -> int:
        return int(self.margins.size)


def hinge_view(stream: Stream, u, n_scales: int = 200) -> HingeView:
    r"""The comparator's margins and the hinge loss of :math:`s\hat{\mathbf u}` for :math:`s` from 0 to beyond :math:`4\|\mathbf u\|`.

    Each term obeys :math:`\mathbf 1[y s\hat{\mathbf u}\cdot\mathbf x \le 0] \le (1 - y s\hat{\mathbf u}\cdot\mathbf x)_+`,
    so every point of the curve is at least the number of mistakes of :math:`\hat{\mathbf u}`.
    On a stream :math:`\hat{\mathbf u}` separates with margin :math:`\gamma` the loss falls to 0 at
    :math:`s = 1/\gamma`; points on the wrong side make it grow again for large :math:`s`.
    """
    X, y = _one_pass(stream)
    u = np.asarray(u, float)
    nu = float(np.linalg.norm(u))
    uh = u / nu if nu > 0 else np.eye(X.shape[1])[0]
    margins = y * (X @ uh)
    pos = margins[margins > 0]
    top = max(4 * nu, 1.5 / float(pos.min()) if pos.size else 0.0, 1.0)
    scales = np.linspace(0.0, top, n_scales)
    hinge = np.maximum(0.0, 1.0 - scales[:, None] * margins[None, :]).sum(axis=1)
    return HingeView(margins, scales, hinge, int((margins <= 0).sum()), nu, float(scales[np.argmin(hinge)]),
                     int(np.sum(1.0 - margins > _ROUNDING)))


@dataclass(frozen=True, eq=False)
class Regularised:
    r"""The regularisation view on one pass: OGD with :math:`\eta = 1/(2\lambda)` (the notes' solution)
    beside the exact proximal step, with the soft-margin objective of each prefix.

    ``objective[name]`` (len(rounds),) is :math:`F_t(\mathbf w_{t+1}) = \sum_{s\le t} L_{hi}(y_s,
    \mathbf w_{t+1}\cdot\mathbf x_s) + \lambda\|\mathbf w_{t+1}\|^2` at the checkpoint rounds ``rounds``;
    ``minimum`` its minimum over :math:`\mathbf w` (:math:`2\lambda\,\text{SVM}_{OPT}` with :math:`C = 1/(2\lambda)`;
    the solver's dual value, never above the minimum and within its gap of it).
    ``clipped`` counts the rounds where the exact step is shorter than the notes' :math:`1/(2\lambda)`.
    """

    lam: float
    traces: dict
    rounds: np.ndarray
    objective: dict
    minimum: np.ndarray
    clipped: int
    updates: int


def regularised(stream: Stream, lam: float) -> Regularised:
    r"""Both readings of :math:`\mathbf w_{t+1} = \operatorname{argmin}_{\mathbf w} L_{hi}(y_t,\mathbf w\cdot\mathbf x_t) + \lambda\|\mathbf w - \mathbf w_t\|^2`.

    The notes solve it as :math:`\mathbf w_t + y_t\mathbf x_t/(2\lambda)` when
    :math:`y_t\mathbf w_t\cdot\mathbf x_t < 1`: OGD with :math:`\eta = 1/(2\lambda)`, the step a
    linearised hinge gives.  The exact minimiser stops where the margin reaches 1:
    :math:`\mathbf w_t + \min\{1/(2\lambda), \ell_t/\|\mathbf x_t\|^2\}\,y_t\mathbf x_t`, which is PA-I with
    :math:`C = 1/(2\lambda)`.  The two agree whenever :math:`\ell_t \ge \|\mathbf x_t\|^2/(2\lambda)`.
    """
    X, y = _one_pass(stream)
    lam = float(lam)
    if not lam > 0:
        raise StreamError.bad("lam", f"{lam:g}", "a penalty λ > 0", label="The penalty λ")
    C = 1.0 / (2.0 * lam)
    traces = {"OGD, η = 1/(2λ)": linear.ogd_hinge(X, y, eta=C),
              "exact proximal step (PA-I, C = 1/(2λ))": linear.passive_aggressive(X, y, "PA-I", C=C)}
    rounds = _checkpoints(X.shape[0])
    objective = {}
    for name, tr in traces.items():
        W = tr.weights[rounds]                                       # w_{t+1}: after round t
        H = np.maximum(0.0, 1.0 - y[None, :] * (W @ X.T))            # (k, T) hinge of w_{t+1} on every round
        H[np.arange(X.shape[0])[None, :] >= rounds[:, None]] = 0.0   # only rounds s <= t
        objective[name] = H.sum(axis=1) + lam * np.einsum("kd,kd->k", W, W)
    # the dual certificate: within the solver's gap of the minimum and never above it
    minimum = (2 * lam * np.atleast_1d(bounds.svm_opt(X, y, C, rounds=rounds, certificate=True)[1])
               if rounds.size else np.zeros(0))
    pa = traces["exact proximal step (PA-I, C = 1/(2λ))"]
    sq = np.einsum("td,td->t", X, X)
    upd = pa.losses > 0
    clipped = int(np.sum(upd & (pa.losses < sq * C)))
    return Regularised(lam, traces, rounds, objective, minimum, clipped, int(upd.sum()))


@dataclass(frozen=True, eq=False)
class DualAscent:
    r"""PA-I on one pass as ascent on the SVM dual: increments :math:`D_t(\alpha_t)`, their running sum, SVM_OPT.

    ``cumulative`` (T,) is :math:`\sum_{s\le t} D_s(\alpha_s)`; ``prefix_opt`` the SVM optimum of
    rounds 1..t at ``rounds``; ``report`` the bound :math:`\sum_t D_t(\alpha_t) \le \text{SVM}_{OPT}` of
    the whole stream; ``floor`` :math:`\min\{C, 1/R^2\}/2`, which every mistake's increment reaches
    (the notes take :math:`\|\mathbf x_t\| = 1`, giving :math:`\min\{C, 1\}/2`).
    """

    C: float
    mistakes: np.ndarray    # (T,) bool, PA-I's
    increments: np.ndarray
    cumulative: np.ndarray
    rounds: np.ndarray
    prefix_opt: np.ndarray
    report: BoundReport
    floor: float


def dual_ascent(stream: Stream, C: float) -> DualAscent:
    r"""PA-I as dual ascent: :math:`\alpha_t = \operatorname{argmax}_{0\le\alpha\le C} D_t(\alpha)` raises the SVM dual by :math:`D_t(\alpha_t)`.

    By weak duality :math:`\sum_{t\le T} D_t(\alpha_t) = D_{svm}(\alpha_1..\alpha_T) \le \text{SVM}_{OPT}`;
    at a mistake :math:`D_t(\alpha_t) \ge \min\{C,\ell_t/\|\mathbf x_t\|^2\}\ell_t/2 \ge \min\{C, 1/R^2\}/2`
    (:math:`\ell_t \ge 1`), hence :math:`\min\{C,1/R^2\}\,M \le 2\,\text{SVM}_{OPT}`, the PA-I mistake bound.
    The notes state it for :math:`\|\mathbf x_t\| = 1`: :math:`\min\{C,\ell_t\}\ell_t/2` and :math:`\min\{C,1\}`.
    """
    X, y = _one_pass(stream)
    C = float(C)
    tr = linear.passive_aggressive(X, y, "PA-I", C=C)
    inc = tr.extras["dual_increment"]
    cum = np.cumsum(inc)
    rounds = _checkpoints(X.shape[0])
    opt, dual = bounds.svm_opt(X, y, C, certificate=True)
    prefix = np.atleast_1d(bounds.svm_opt(X, y, C, rounds=rounds)) if rounds.size else np.zeros(0)
    total = float(cum[-1]) if cum.size else 0.0
    report = BoundReport(
        "PA-I's dual ascent", "SVM_OPT", float(opt),
        latex=(r"\sum_{t=1}^{T} D_t(\alpha_t) = %.4g \le \mathrm{SVM}_{OPT} = \min_{\mathbf u}"
               r"\tfrac12\|\mathbf u\|^2 + C\sum_t \ell_t(\mathbf u) = %.4g" % (total, float(opt))),
        numbers={"C": C, "svm_opt": float(opt), "dual_gap": float(opt - dual)}, source=SOURCE_DUAL,
        statement=("**PA-I is dual ascent.** Its step α_t = min{C, ℓ_t/‖x_t‖²} maximises "
                   "D_t(α) = −½α²‖x_t‖² + α(1 − y_t w_{t−1}·x_t) over 0 ≤ α ≤ C, and D_t(α_t) is how much the SVM "
                   "dual grows when α_t is set. By weak duality the increments sum to at most SVM_OPT, the soft-margin "
                   "SVM objective (no intercept) of the whole stream."))
    R = radius(X)
    return DualAscent(C, tr.mistakes, inc, cum, rounds, prefix, report, min(C, 1.0 / R**2) / 2 if R > 0 else C / 2)


# -- the lecture's answers (olapp/content/perceptron.py, LECTURE): computed from the run, never typed in ----

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
