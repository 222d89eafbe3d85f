r"""The online SVM lesson as pure functions: ALMA against the SVM, the second-order Perceptron, selective sampling.

- :func:`analyse_alma`: ALMA\ :sub:`2` (and the Perceptron, for contrast) on a stream cycled
  ``epochs`` times, the SVM direction of the normalised instances, ALMA's two guarantees as
  :class:`olcore.bounds.BoundReport` (updates, final margin) and the margin over rounds;
- :func:`analyse_second_order`: the second-order Perceptron against the Perceptron, each with
  its mistake bound for :math:`\mathbf u_{SVM}`, the notes' table of bounds for this stream's
  :math:`U` and :math:`d`, and the correlation matrix after the run;
- :func:`analyse_selective`: the selective sampler at one :math:`c` against the fully
  supervised second-order Perceptron, and a sweep over :math:`c`.

Stream makers: :func:`separable_stream` (the plane), :func:`correlated_stream` (correlated
features, a few informative directions).

Sources: Cesa-Bianchi, On-line learning (mistake bounds for various updates; Online SVM and
active learning); Gentile, "A new approximate maximal margin classification algorithm", JMLR
(2001); Cesa-Bianchi, Conconi and Gentile, "A second-order perceptron algorithm", SIAM J.
Computing (2005).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import bounds, linear, streams
from ..errors import StreamError
from ..measure import radius
from ..report import BoundReport
from ..stream import Stream
from ..trace import Trace
from ..validate import check_int, check_param, check_seed

__all__ = ["separable_stream", "correlated_stream", "ALMAAnalysis", "SecondOrderAnalysis", "SelectiveAnalysis",
           "analyse_alma", "analyse_second_order", "analyse_selective", "alma_at", "C_SWEEP",
           "SOURCE_ALMA", "SOURCE_TABLE", "SOURCE_SOP", "SOURCE_SELECTIVE", "clean_pass_band", "margin_share",
           "margin_share_band"]

SOURCE_ALMA = ("Cesa-Bianchi, On-line learning: Online approximation of SVM hyperplane (ALMA); Gentile, "
               "A new approximate maximal margin classification algorithm, JMLR 2001, Theorem 3 and Corollary 4")
SOURCE_TABLE = "Cesa-Bianchi, On-line learning: Mistake bounds for various updates"
SOURCE_SOP = "Cesa-Bianchi, Conconi and Gentile, A second-order perceptron algorithm, SIAM J. Computing 2005, Theorem 1"
SOURCE_SELECTIVE = "Cesa-Bianchi, On-line learning: A selective sampling classifier"
SOURCE_NOVIKOFF = "UCL COMP0078, Online learning: Perceptron Bound [Novikoff]"

#: Accuracy and effort of the SVM search (olcore.comparators.max_margin_direction).  Its margin is measured
#: exactly on the direction it returns, so a search stopped early gives a slightly smaller but valid γ (and
#: valid, slightly larger, bounds): at d = 50, T = 500, 3000 iterations reach γ within about 1% in 0.2 s,
#: where 50 000 take 4 s.
_SVM_TOL, _SVM_ITER = 1e-7, 3000

#: The values of c in the selective-sampling sweep (inf: every label).
C_SWEEP = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, math.inf)


def _linear(stream: Stream) -> tuple[np.ndarray, np.ndarray]:
    if stream.kind != "linear":
        raise StreamError.bad("stream", f"kind {stream.kind!r}", "a linear stream (features, label in {-1, +1})",
                              label="This stream")
    X, y = stream.X, stream.y.astype(float)
    if radius(X) == 0:
        raise StreamError("Every point of this stream is at the origin (x = 0 in every row), so there is no hyperplane "
                          "to learn: these learners need at least one non-zero point.", "X")
    return X, y


# ---- streams ---------------------------------------------------------------------------------

def _verdict(X: np.ndarray, y: np.ndarray, what: str) -> tuple[np.ndarray, float, str]:
    r"""The SVM direction :math:`\mathbf v` and margin :math:`\gamma` of ``(X, y)`` (:func:`bounds.svm_direction`),
    and, when that search finds no positive margin, the verdict of :func:`olcore.comparators.separability`
    in words: a separator it finds is used; "not separable" is said only with its certificate (weights
    :math:`\lambda` with :math:`\|\sum_t\lambda_t y_t\mathbf x_t\| \le \varepsilon`), otherwise "no separating
    direction was found"."""
    v, g = bounds.svm_direction(X, y, tol=_SVM_TOL, max_iter=_SVM_ITER)
    if g > 0:
        return v, g, ""
    from ..comparators import separability

    sep = separability(X, y, tol=_SVM_TOL, max_iter=_SVM_ITER)
    if sep.separable:
        return sep.v, float(sep.gamma), ""
    if sep.verdict == "not separable":
        return v, g, (f"no hyperplane through the origin separates {what} (certified: the origin is within "
                      f"{sep.epsilon:.1e} of the convex hull of the points y_t x_t)")
    return v, g, f"no hyperplane through the origin separating {what} was found ({sep.effort})"


def separable_stream(T: int, gamma: float, seed: int) -> Stream:
    r"""``T`` points in the plane inside radius 1, separated through the origin with margin exactly
    :math:`\gamma` (:func:`olcore.streams.separable`)."""
    return streams.separable(T=T, d=2, gamma=gamma, R=1.0, seed=seed)


def correlated_stream(T: int, d: int, rho: float, gamma: float, seed: int, k: int = 3) -> Stream:
    r"""Correlated features with a few informative directions, separable with margin :math:`\ge\gamma`.

    Each :math:`\mathbf x_t = \sqrt\rho\, f_t\mathbf 1 + \sqrt{1-\rho}\,\mathbf g_t` (a shared factor
    :math:`f_t` with loading :math:`\sqrt\rho` on every feature, :math:`\mathbf g_t \sim N(0, I_d)`);
    the label is the sign of :math:`\mathbf u\cdot\mathbf x_t` for a unit :math:`\mathbf u` supported
    on the first :math:`\min(k, d)` features and orthogonal to :math:`\mathbf 1` (the shared factor
    carries no information); each point is then pushed :math:`\gamma` along :math:`y_t\mathbf u`, and
    the stream is scaled so that :math:`\max_t\|\mathbf x_t\| = 1` (so :math:`\mathbf u` separates
    with margin at least :math:`\gamma/\max_t\|\mathbf x_t\|` before scaling).  The large shared
    direction inflates the Perceptron's :math:`R`; the second-order Perceptron's correlation matrix
    learns it away.

    Returns a Stream of kind ``"linear"`` with ``info = {"u", "rho", "k"}``.
    """
    T = check_int(T, "T", 1, streams.MAX_ROUNDS)
    d = check_int(d, "d", 1, 500)
    rho = check_param(rho, "rho", 0, 1, hi_open=True)
    gamma = check_param(gamma, "gamma", 0, None, lo_open=True)
    rng = np.random.default_rng(check_seed(seed))
    f = rng.standard_normal((T, 1))
    X = math.sqrt(rho) * f + math.sqrt(1 - rho) * rng.standard_normal((T, d))
    u = np.zeros(d)
    kk = min(k, d)
    u[:kk] = rng.standard_normal(kk)
    if d > 1:
        one = np.ones(d) / math.sqrt(d)
        u -= (u @ one) * one
    u /= np.linalg.norm(u)
    y = np.where(X @ u >= 0, 1, -1)
    X = X + (gamma * y)[:, None] * u[None, :]
    X /= np.max(np.linalg.norm(X, axis=1))
    return streams.from_arrays("linear", X, y, {"u": u, "rho": rho, "k": kk})


# ---- ALMA against the SVM ----------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class ALMAAnalysis:
    """ALMA and the Perceptron on one stream (cycled ``epochs`` times), against the SVM direction.

    ``Xh`` are the normalised instances ALMA sees; ``v_svm``, ``gamma`` the SVM direction of ``Xh``
    and its margin (:math:`\\gamma^*`, the theorem's); ``margin`` (T+1,) the margin
    :math:`\\min_t y_t\\mathbf w\\cdot\\hat{\\mathbf x}_t/\\|\\mathbf w\\|` of ALMA's hyperplane before
    each round (over the whole stream; :math:`-\\infty` for :math:`\\mathbf w = 0`).
    """

    X: np.ndarray
    Xh: np.ndarray
    y: np.ndarray
    alpha: float
    epochs: int
    pass_length: int
    trace: Trace
    perceptron: Trace
    v_svm: np.ndarray
    gamma: float
    separable: bool
    margin: np.ndarray
    converged_pass: int | None       # 1-based first pass without an update
    updates: BoundReport
    final_margin: BoundReport
    slide_order: float               # the slide's (‖u_SVM‖/α)²

    @property
    def T(self) -> int:
        return self.trace.T

    @property
    def n_updates(self) -> int:
        return int(self.trace.extras["updated"].sum())

    @property
    def final(self) -> float:
        return float(self.margin[-1])


def _margins(Xh, y, trace) -> np.ndarray:
    """The margin of each distinct weight vector, expanded to rounds."""
    tab = trace.weight_table
    norms = np.linalg.norm(tab, axis=1)
    m = np.full(tab.shape[0], -np.inf)
    ok = norms > 0
    m[ok] = ((y[:, None] * (Xh @ tab[ok].T)).min(axis=0)) / norms[ok]
    return m[trace.weight_index]


def analyse_alma(stream: Stream, alpha: float = 0.9, epochs: int = 1) -> ALMAAnalysis:
    r"""ALMA\ :sub:`2`\ (α; 1/α, √2) and the Perceptron on ``stream`` replayed ``epochs`` times.

    The theorem's margin :math:`\gamma^*` is that of the normalised instances
    :math:`\hat{\mathbf x}_t = \mathbf x_t/\|\mathbf x_t\|` (ALMA sees only those), from
    :func:`olcore.bounds.svm_direction`.  Reports: the number of updates against
    :func:`olcore.bounds.alma_updates` (the paper's constant; the slide's
    :math:`(\|\mathbf u_{SVM}\|/\alpha)^2` is its order), and the final margin against
    :math:`(1-\alpha)\gamma^*`, which the theorem guarantees once a pass makes no update.
    """
    X, y = _linear(stream)
    alpha = check_param(alpha, "alpha", 0, 1, lo_open=True)
    n = np.linalg.norm(X, axis=1)
    if np.any(n == 0):
        raise StreamError(f"Row {int(np.argmin(n)) + 1} of this stream is the origin (x = 0): ALMA normalises each "
                          "instance to x/‖x‖, so it needs every x to be non-zero: remove that row from the file.", "X")
    Xh = X / n[:, None]
    trace = linear.alma(X, y, alpha=alpha, epochs=epochs)
    epochs = trace.T // X.shape[0]
    perc = linear.perceptron(Xh, y, epochs=epochs)
    v, g, why = _verdict(Xh, y, "these points (normalised)")
    separable = g > 0
    upd = trace.extras["updated"].reshape(epochs, -1).any(axis=1)
    clean = np.flatnonzero(~upd)
    m = _margins(Xh, y, trace)
    n_upd = int(trace.extras["updated"].sum())
    statement_u = ("**ALMA's updates** (Gentile 2001, Corollary 4, p = 2, B = 1/α, C = √2): if a unit u has "
                   "y_t u·x_t/‖x_t‖ ≥ γ⋆ > 0 for every t, ALMA makes at most 2/γ⋆² (2/α − 1)² + 8/α − 4 updates, "
                   "however often the stream is replayed. The notes' slide gives the order, (‖u_SVM‖/α)² with "
                   "‖u_SVM‖ = 1/γ⋆.")
    statement_m = ("**ALMA's margin** (Gentile 2001, Theorem 3): once a whole pass makes no update, ALMA's "
                   "hyperplane separates the stream with margin at least (1 − α)γ⋆; in the notes' words, it has "
                   "found a separating u with ‖u‖ ≤ ‖u_SVM‖/(1 − α).")
    why = f"{why}, so no γ⋆ > 0 is known: the guarantees cannot be used."
    if separable:
        bu = float(bounds.alma_updates(g, alpha))
        updates = BoundReport("ALMA's update bound", "2/γ⋆²·(2/α − 1)² + 8/α − 4", bu,
                              latex=(r"\text{updates} = %d \le \frac{2}{\gamma^{*2}}\Big(\frac{2}{\alpha}-1\Big)^2"
                                     r" + \frac{8}{\alpha} - 4 = %.4g \quad(\gamma^* = %.4g,\ \alpha = %.3g)"
                                     % (n_upd, bu, g, alpha)),
                              numbers={"gamma": g, "alpha": alpha}, source=SOURCE_ALMA, statement=statement_u)
        bm = float(bounds.alma_margin(g, alpha))
        conv = clean.size > 0
        final_margin = BoundReport(
            "ALMA's final margin", "(1 − α)γ⋆", bm,
            latex=(r"\min_t \frac{y_t\,\mathbf w\cdot\hat{\mathbf x}_t}{\|\mathbf w\|} = %.4g \ \ge\ (1-\alpha)\gamma^*"
                   r" = %.4g" % (float(m[-1]), bm)),
            numbers={"gamma": g, "alpha": alpha}, applies=conv,
            why_not="" if conv else ("no pass has been free of updates yet: the guarantee is for the hyperplane ALMA "
                                     "settles on. Add passes (epochs)."),
            source=SOURCE_ALMA, statement=statement_m)
        slide = (1.0 / (alpha * g)) ** 2
    else:
        updates = BoundReport("ALMA's update bound", "2/γ⋆²·(2/α − 1)² + 8/α − 4", math.inf, applies=False,
                              why_not=why, source=SOURCE_ALMA, statement=statement_u)
        final_margin = BoundReport("ALMA's final margin", "(1 − α)γ⋆", 0.0, applies=False,
                                   why_not=why, source=SOURCE_ALMA, statement=statement_m)
        slide = math.inf
    return ALMAAnalysis(X=X, Xh=Xh, y=y, alpha=alpha, epochs=epochs, pass_length=X.shape[0], trace=trace,
                        perceptron=perc, v_svm=v, gamma=g, separable=separable, margin=m,
                        converged_pass=int(clean[0]) + 1 if clean.size else None, updates=updates,
                        final_margin=final_margin, slide_order=slide)


def alma_at(a: ALMAAnalysis, t: int) -> dict:
    r"""ALMA's state after ``t`` rounds: its weights, threshold band, update counter, and the Perceptron's weights.

    Which of the stream's points would make ALMA update if it came now: ``would_update`` (T,), those with
    :math:`y\,\mathbf w_k\cdot\hat{\mathbf x} \le (1-\alpha)\gamma_k` (ALMA's rule,
    :math:`\gamma_k = 1/(\alpha\sqrt k)`); ``in_band`` (T,), those in the band
    :math:`|\mathbf w_k\cdot\hat{\mathbf x}| \le (1-\alpha)\gamma_k` (all of which would update); the others that
    would are misclassified beyond the band, :math:`y\,\mathbf w_k\cdot\hat{\mathbf x} < -(1-\alpha)\gamma_k`.
    """
    t = min(max(int(t), 0), a.T)
    tr = a.trace
    k = float(tr.extras["k"][t])
    w = tr.weights_at(t)
    threshold = (1 - a.alpha) * (1 / a.alpha) / math.sqrt(k)
    score = a.Xh @ w
    would = a.y * score <= threshold
    return {"t": t, "w": w, "k": k, "threshold": threshold, "would_update": would,
            "in_band": np.abs(score) <= threshold,
            "updates": int(k) - 1, "mistakes": int(tr.extras["M"][t]), "margin": float(a.margin[t]),
            "w_perceptron": a.perceptron.weights_at(t), "seen": min(t, a.pass_length),
            "last": (t - 1) % a.pass_length if t > 0 else None,
            "last_updated": bool(tr.extras["updated"][t - 1]) if t > 0 else False}


# ---- the second-order Perceptron ------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class SecondOrderAnalysis:
    """The second-order Perceptron against the Perceptron on one stream, with their bounds and the table."""

    X: np.ndarray
    y: np.ndarray
    a: float
    sop: Trace
    perceptron: Trace
    R: float
    gamma: float                    # SVM margin of the raw instances
    separable: bool
    U: float                        # R ‖u_SVM‖ = R/γ (the table's U, with instances scaled into the unit ball)
    sop_bound: BoundReport          # curve over rounds
    novikoff: BoundReport
    table: list                     # rows of bounds.mistake_table plus measured mistakes
    A: np.ndarray                   # a I + sum of x x^T over the mistakes (the correlation matrix)
    hildreth: Trace | None = None   # Hildreth's update (PA) on the same stream, for the table

    @property
    def T(self) -> int:
        return self.sop.T

    @property
    def d(self) -> int:
        return int(self.X.shape[1])


def _sop_curve(X, mistakes, u, a) -> np.ndarray:
    """The second-order bound after each round (it changes only at mistakes, and only grows)."""
    T = mistakes.size
    curve = np.empty(T)
    rows = np.flatnonzero(mistakes)
    d = X.shape[1]
    G = np.zeros((d, d))
    q = a * float(u @ u)
    value = 0.0
    last = 0
    for r in rows:
        curve[last:r] = value
        x = X[r]
        G += np.outer(x, x)
        q += float(x @ u) ** 2
        sign, logdet = np.linalg.slogdet(np.eye(d) + G / a)
        value = math.sqrt(q * max(logdet, 0.0))
        last = r
    curve[last:] = value
    return curve


def analyse_second_order(stream: Stream, a: float = 1.0) -> SecondOrderAnalysis:
    r"""The second-order Perceptron (parameter ``a``) and the Perceptron on ``stream`` (one pass).

    Bounds for :math:`\mathbf u = \mathbf u_{SVM}` (zero hinge loss): Novikoff's :math:`(R/\gamma)^2`
    for the Perceptron, the paper's Theorem 1 for the second-order Perceptron (a curve: it depends
    on the mistakes made so far, :func:`olcore.bounds.second_order_perceptron`).  The table evaluates
    the notes' bounds at :math:`U = R\|\mathbf u_{SVM}\|` (the stream scaled into the unit ball): two are
    exact, the Perceptron's :math:`U^2` (Novikoff) and Hildreth's :math:`U^2` (the notes' analysis for
    linearly separable streams, :math:`\sum_t m_t^2 \le \|\mathbf u\|^2\max_t\|\mathbf x_t\|^2`, measured on
    Hildreth's update, :func:`olcore.linear.passive_aggressive` with ``"PA"``); the others are orders.
    """
    X, y = _linear(stream)
    a = check_param(a, "a", 0, None, lo_open=True)
    sop = linear.second_order_perceptron(X, y, a=a)
    perc = linear.perceptron(X, y)
    hild = linear.passive_aggressive(X, y, variant="PA", record="final")
    R = radius(X)
    v, g, why_not = _verdict(X, y, "this stream")
    separable = g > 0
    d = X.shape[1]
    Mm = sop.mistakes
    A = a * np.eye(d) + X[Mm].T @ X[Mm]
    measured = {"Perceptron": int(perc.mistakes.sum()), "Hildreth": int(hild.mistakes.sum()),
                "2nd order Perceptron": int(Mm.sum())}
    statement_s = ("**The second-order Perceptron** (Cesa-Bianchi, Conconi and Gentile 2005, Theorem 1 with γ = 1): "
                   "for every u with y_t u·x_t ≥ 1 on every round, M ≤ √((a‖u‖² + Σ_{s∈M}(u·x_s)²) Σ_i ln(1 + λ_i/a)), "
                   "λ_i the eigenvalues of Σ_{s∈M} x_s x_sᵀ over the mistaken rounds. The notes' table gives its order, "
                   "d U ln U.")
    statement_n = ("**Novikoff**: with ‖x_t‖ ≤ R and a unit v with y_t v·x_t ≥ γ > 0, the Perceptron makes at most "
                   "(R/γ)² mistakes; (R/γ)² = (R‖u_SVM‖)² = U², the table's first row.")
    if separable:
        u = v / g
        curve = _sop_curve(X, Mm, u, a)
        val = float(curve[-1])
        lam = np.clip(np.linalg.eigvalsh(A - a * np.eye(d)), 0, None)
        sop_bound = BoundReport(
            "The second-order Perceptron's bound", "√((a‖u‖² + Σ(u·x)²) Σ ln(1 + λ/a)) (2nd order)", val, curve=curve,
            latex=(r"M = %d \le \sqrt{\Big(a\|\mathbf u\|^2 + \sum_{s\in\mathcal M}(\mathbf u\cdot\mathbf x_s)^2\Big)"
                   r"\sum_i \ln\big(1 + \tfrac{\lambda_i}{a}\big)} = \sqrt{%.4g \times %.4g} = %.4g"
                   % (int(Mm.sum()), a / g**2 + float(np.sum((X[Mm] @ u) ** 2)),
                      float(np.sum(np.log1p(lam / a))), val)),
            numbers={"a": a, "norm_u": 1 / g, "d": d}, source=SOURCE_SOP, statement=statement_s)
        nv = float(bounds.perceptron(R, g))
        novikoff = BoundReport("Novikoff's Perceptron bound", "(R/γ)² (Perceptron)", nv,
                               latex=r"M = %d \le (R/\gamma)^2 = (%.4g/%.4g)^2 = %.4g" % (
                                   measured["Perceptron"], R, g, nv),
                               numbers={"R": R, "gamma": g}, source=SOURCE_NOVIKOFF, statement=statement_n)
        U = R / g
        table = bounds.mistake_table(U, d)     # exact rows: the Perceptron's and Hildreth's U²
    else:
        why = f"{why_not}: no u with y_t u·x_t ≥ 1 everywhere is known."
        sop_bound = BoundReport("The second-order Perceptron's bound", "(2nd order)", math.inf, applies=False,
                                why_not=why, source=SOURCE_SOP, statement=statement_s)
        novikoff = BoundReport("Novikoff's Perceptron bound", "(R/γ)² (Perceptron)", math.inf, applies=False,
                               why_not=why, source=SOURCE_NOVIKOFF, statement=statement_n)
        U = math.inf
        table = []
    for row in table:
        row["measured"] = measured.get(row["algorithm"])
    return SecondOrderAnalysis(X=X, y=y, a=a, sop=sop, perceptron=perc, R=R, gamma=g, separable=separable, U=U,
                               sop_bound=sop_bound, novikoff=novikoff, table=table, A=A, hildreth=hild)


# ---- selective sampling ------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class SelectiveAnalysis:
    """The selective sampler at one ``c`` against the fully supervised second-order Perceptron, and a c sweep."""

    X: np.ndarray
    y: np.ndarray
    c: float
    a: float
    trace: Trace
    full: Trace
    sweep_c: tuple
    sweep_labels: np.ndarray
    sweep_mistakes: np.ndarray

    @property
    def T(self) -> int:
        return self.trace.T

    @property
    def labels(self) -> np.ndarray:
        """Labels queried after rounds 1..T."""
        return np.cumsum(self.trace.extras["queried"])


def analyse_selective(stream: Stream, c: float = 1.0, a: float = 1.0) -> SelectiveAnalysis:
    """Selective sampling with ``c`` and the second-order Perceptron (every label), plus the sweep :data:`C_SWEEP`."""
    X, y = _linear(stream)
    tr = linear.selective_sampling(X, y, c=c, a=a)
    full = linear.second_order_perceptron(X, y, a=a)
    runs = [linear.selective_sampling(X, y, c=cc, a=a) for cc in C_SWEEP]
    return SelectiveAnalysis(X=X, y=y, c=float(c), a=float(a), trace=tr, full=full, sweep_c=C_SWEEP,
                             sweep_labels=np.array([r.extras["queried"].sum() for r in runs]),
                             sweep_mistakes=np.array([r.mistakes.sum() for r in runs]))


# -- the lecture's answers (olapp/content/online_svm.py, LECTURE, which reads analyse_alma) ---------------------

def clean_pass_band(a: ALMAAnalysis, edges) -> int:
    r"""The band of the first pass over the stream in which ALMA makes no update (1-based) among increasing pass
    ``edges`` (:func:`olcore.lessons.band`), or ``len(edges)`` if every one of the ``epochs`` passes updates.

    From that pass on :math:`\mathbf w` no longer changes, and (Gentile 2001, Theorem 3) its hyperplane separates
    the stream with margin at least :math:`(1-\alpha)\gamma^*`; the number of updates before it is at most
    :math:`\frac{2}{\gamma^{*2}}(\frac2\alpha - 1)^2 + \frac8\alpha - 4`.
    """
    from . import band

    return len(edges) if a.converged_pass is None else band(a.converged_pass, edges)


def margin_share(a: ALMAAnalysis) -> float:
    r""":math:`\gamma_{ALMA}/\gamma^*`: the margin :math:`\min_t y_t\mathbf w\cdot\hat{\mathbf x}_t/\|\mathbf w\|` of
    ALMA's final hyperplane on the normalised instances, as a fraction of the SVM margin :math:`\gamma^*`
    (:math:`-\infty` while :math:`\mathbf w = 0`). Once a pass makes no update it is at least :math:`1 - \alpha`."""
    return float(a.final / a.gamma) if a.gamma > 0 else float("-inf")


def margin_share_band(a: ALMAAnalysis, edges) -> int:
    r"""The band of :func:`margin_share` among increasing ``edges`` (:func:`olcore.lessons.band`); a margin
    below the first edge (or no hyperplane) counts in the first band."""
    from . import band

    share = margin_share(a)
    return 0 if not np.isfinite(share) else max(band(share, edges), 0)
