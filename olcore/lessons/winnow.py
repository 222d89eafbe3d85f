r"""The Winnow lesson's math: a run of Winnow on a disjunction stream, its theorem and proof.

Winnow (CMU 16-831, Online linear classification, section 4) learns a monotone disjunction
:math:`y = x_{i_1} \vee \dots \vee x_{i_k}` of :math:`k` among :math:`N` boolean attributes
with weights :math:`w_i \ge 0`, threshold :math:`\theta = N` and multiplicative updates by
:math:`\alpha` (the notes: :math:`\alpha = 1 + \beta = 2`).  The notes' proof, with a general
:math:`\alpha` (:func:`olcore.bounds.winnow_general`):

.. math::

    m^+ \le k(\log_\alpha\theta + 1), \qquad
    m^- < \frac{N}{(1 - 1/\alpha)\theta} + \alpha\, m^+, \qquad
    m = m^+ + m^- < \frac{N\alpha}{(\alpha-1)\theta} + (\alpha+1)\,k\,(\log_\alpha\theta + 1),

which for :math:`\alpha = 2, \theta = N` is :math:`m^- < 2 + 2m^+` and
:math:`m < 2 + 3k(\log_2 N + 1)` (:func:`olcore.bounds.winnow`).

**Departure from the notes.** The notes write :math:`m^+ < k(\log_2 N + 1)` (their
equations 29-30).  A relevant weight is promoted only while it is at most :math:`\theta`,
and it can equal :math:`\theta` exactly when :math:`N` is a power of 2 (:math:`w = 2^j = N`:
the score is :math:`N`, not :math:`> N`, so Winnow predicts 0 and promotes once more).  So
the right step is :math:`m^+ \le k(\log_2 N + 1)`; the final bound stays strict because
:math:`m^- < 2 + 2m^+` is strict (:math:`\Phi > 0`).

Everything here is a pure function of its arguments: :func:`make_stream`, :func:`analyse`
and :func:`sweep`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import bounds, comparators, linear, streams
from ..report import BoundReport
from ..stream import MAX_CELLS, Stream
from ..trace import Trace
from ..validate import check_int, check_param, check_seed

__all__ = ["WinnowAnalysis", "WinnowSweep", "make_stream", "rounds_for", "analyse", "sweep",
           "MAX_COLOURED", "SWEEP_NS", "SOURCE", "DEPARTURE", "conjunction_stream", "Elimination", "elimination",
           "SOURCE_ELIMINATION"]

#: At most this many attributes of the disjunction are drawn one by one in the weights chart.
MAX_COLOURED = 10
#: The numbers of attributes of the sweep (log-spaced, up to 10⁴).
SWEEP_NS = (10, 30, 100, 300, 1000, 3000, 10000)
#: Where the theorem is proved.
SOURCE = "CMU 16-831, Online linear classification: section 4.4, Winnow's mistake bound (equations 19-32)"
#: Where the proof's two steps are.
SOURCE_STEPS = "CMU 16-831, Online linear classification: section 4.4, the proof's steps (equations 21-31)"
#: The one step where the bound departs from the notes (shown on the page and in the report).
DEPARTURE = ("The notes write m⁺ < k(log₂N + 1); a relevant weight can equal θ = N just before its last "
             "promotion when N is a power of 2 (the score is then exactly N, not more, so Winnow predicts 0 "
             "and promotes once more), so the right step is m⁺ ≤ k(log₂N + 1). The final bound stays strict "
             "because m⁻ < 2 + 2m⁺ is strict (Φ stays positive).")


def rounds_for(T: int, N: int) -> int:
    """The rounds a generated stream gets: ``T``, cut so that ``T × N`` stays within ``MAX_CELLS``."""
    T = check_int(T, "T", 1, None)
    N = check_int(N, "N", 1, None)
    return int(max(1, min(T, MAX_CELLS // N)))


def make_stream(T: int, N: int, k: int, seed: int) -> Stream:
    """A stream of ``rounds_for(T, N)`` rounds labelled by an OR of ``k`` random attributes of ``N``
    (:func:`olcore.streams.disjunction`)."""
    return streams.disjunction(T=rounds_for(T, N), N=N, k=k, seed=seed)


@dataclass(frozen=True, eq=False)
class WinnowAnalysis:
    r"""Winnow on one stream, with its theorem and the proof's quantities.

    Attributes
    ----------
    trace : Trace
        Winnow's run (``extras``: ``m_plus``, ``m_minus``, ``potential``, ``potential_upper``).
    N, alpha, theta : int, float, float
        Attributes, promotion factor and threshold :math:`\theta = N`.
    relevant : int array or None
        The disjunction: the generator's relevant attributes, or on an upload a consistent
        one found by :func:`olcore.comparators.consistent_disjunction` (``None``: none exists).
    found : bool
        Whether ``relevant`` was searched for (an upload) rather than known (generated).
    k : int or None
        ``len(relevant)``; ``None`` when no disjunction labels the stream.
    bound : BoundReport
        The mistake bound: the notes' :math:`2 + 3k(\log_2 N + 1)` at :math:`\alpha = 2`, the
        general-:math:`\alpha` form otherwise; ``applies`` is False without a disjunction.
    promotions, demotions : BoundReport
        The proof's two steps: :math:`m^+ \le k(\log_\alpha\theta + 1)` and
        :math:`m^- < N/((1-1/\alpha)\theta) + \alpha m^+` (its curve over rounds uses :math:`m^+_t`).
    potential, potential_upper : array (T+1,)
        :math:`\Phi_t = \sum_i w_i` before round ``t+1`` and the line the proof keeps it under.
    potential_formula : str
        That line as a formula (``"N + N·m⁺ − N·m⁻/2"`` at :math:`\alpha = 2`).
    change_rounds : int array (K-1,)
        Round counts after which the weights changed (row ``j+1`` of ``trace.weight_table``).
    coloured : int array
        The attributes of the disjunction drawn one by one (at most :data:`MAX_COLOURED`).
    coloured_weights : array (K, len(coloured))
        Their weights in each row of ``trace.weight_table``.
    others : array (K, 3)
        Max, median and min of the other attributes' weights in each row (empty (K, 0) if none).
    """

    trace: Trace
    N: int
    alpha: float
    theta: float
    relevant: np.ndarray | None
    found: bool
    k: int | None
    bound: BoundReport
    promotions: BoundReport
    demotions: BoundReport
    potential: np.ndarray
    potential_upper: np.ndarray
    potential_formula: str
    change_rounds: np.ndarray
    coloured: np.ndarray
    coloured_weights: np.ndarray
    others: np.ndarray

    @property
    def T(self) -> int:
        return self.trace.T

    @property
    def m_plus(self) -> int:
        """Mistakes on positive examples (promotions) over the run."""
        return int(self.trace.extras["m_plus"][-1])

    @property
    def m_minus(self) -> int:
        """Mistakes on negative examples (demotions) over the run."""
        return int(self.trace.extras["m_minus"][-1])

    @property
    def n_mistakes(self) -> int:
        return int(self.trace.n_mistakes)

    def rows_at(self, t: int) -> int:
        """How many rows of the weight table are in force up to round ``t`` (``K`` at ``t = T``)."""
        return int(self.trace.weight_index[check_int(t, "t", 0, self.T)]) + 1


def _log_alpha(x: float, alpha: float) -> float:
    return math.log(x) / math.log(alpha)


def _bound(k: int | None, N: int, alpha: float, theta: float, why_not: str) -> BoundReport:
    """The mistake bound of the theorem (the notes' form at α = 2, θ = N; the general form otherwise)."""
    notes_form = alpha == 2.0 and theta == N
    statement = ("**Theorem (Winnow's mistake bound).** If every label is an OR of k of the N attributes, "
                 "Winnow with threshold θ = N and factor α makes fewer than "
                 + ("2 + 3k(log₂N + 1) mistakes, however long the stream (α = 2, as in the notes). "
                    if notes_form else
                    "Nα/((α−1)θ) + (α+1)k(log_α θ + 1) mistakes, however long the stream (the notes' proof "
                    "with a general α; at α = 2 it is 2 + 3k(log₂N + 1)). ")
                 + "\n\n*Where this departs from the notes.* " + DEPARTURE)
    formula = "2 + 3k(log₂N + 1)" if notes_form else "Nα/((α−1)θ) + (α+1)k(log_α θ + 1)"
    source = SOURCE if notes_form else SOURCE + ", with a general α (the notes take α = 2)"
    if k is None:
        return BoundReport("Winnow's mistake bound", formula, math.inf, applies=False, why_not=why_not,
                           numbers={"N": N, "alpha": alpha, "theta": theta}, source=source, statement=statement)
    if notes_form:
        value = bounds.winnow(k, N)
        latex = (r"m = m^+ + m^- < 2 + 3k(\log_2 N + 1) = 2 + 3\cdot %d\,(\log_2 %d + 1) = %.4g"
                 % (k, N, value))
    else:
        value = bounds.winnow_general(k, N, alpha, theta)
        latex = (r"m < \frac{N\alpha}{(\alpha-1)\theta} + (\alpha+1)\,k\,(\log_\alpha\theta + 1)"
                 r" = \frac{%d\cdot %g}{%g\cdot %g} + %g\cdot %d\,(\log_{%g} %g + 1) = %.4g"
                 % (N, alpha, alpha - 1, theta, alpha + 1, k, alpha, theta, value))
    return BoundReport("Winnow's mistake bound", formula, value, latex=latex,
                       numbers={"k": k, "N": N, "alpha": alpha, "theta": theta},
                       source=source, statement=statement)


def _proof_steps(k: int | None, N: int, alpha: float, theta: float, m_plus: np.ndarray, m_minus: int,
                 why_not: str) -> tuple[BoundReport, BoundReport]:
    r"""The proof's two steps as reports: :math:`m^+ \le k(\log_\alpha\theta + 1)` and
    :math:`m^- < N/((1-1/\alpha)\theta) + \alpha m^+` (a curve over rounds, from :math:`m^+_t`).

    Both are terms of :func:`olcore.bounds.winnow_general`, which has no function of its own for
    either step; they are computed here, once.
    """
    two = alpha == 2.0 and theta == N
    per_weight = max(0.0, _log_alpha(theta, alpha) + 1.0)
    c = N / ((1.0 - 1.0 / alpha) * theta)
    m_p = np.asarray(m_plus[1:], dtype=float)
    mp_T = int(m_p[-1]) if m_p.size else 0
    source = SOURCE_STEPS + ("" if two else ", with a general α (the notes take α = 2)")
    f_promo = "k(log₂N + 1)" if two else "k(log_α θ + 1)"
    f_demo = "2 + 2m⁺" if two else "N/((1−1/α)θ) + α·m⁺"
    if k is None:
        return (BoundReport("Promotions", f_promo, math.inf, applies=False, why_not=why_not, source=source,
                            numbers={"alpha": alpha, "theta": theta, "per_weight": per_weight}),   # per weight: no k
                BoundReport("Demotions", f_demo, math.inf, applies=False, why_not=why_not, source=source))
    promo = k * per_weight
    promotions = BoundReport(
        "Promotions", f_promo, promo,
        latex=(r"m^+ = %d \le k(\log_2 N + 1) = %d\,(\log_2 %d + 1) = %.4g" % (mp_T, k, N, promo) if two else
               r"m^+ = %d \le k(\log_\alpha\theta + 1) = %d\,(\log_{%g} %g + 1) = %.4g"
               % (mp_T, k, alpha, theta, promo)),
        numbers={"k": k, "alpha": alpha, "theta": theta, "per_weight": per_weight, "m_plus": mp_T},
        source=source,
        statement=(f"**Promotions.** A relevant weight is never divided (a negative example has no relevant "
                   f"attribute on) and is multiplied by α = {alpha:g} only while it is at most θ = {theta:g} "
                   f"(else the prediction was already 1), so at most log_α θ + 1 = {per_weight:.4g} times; "
                   f"every missed positive promotes at least one of the k = {k} relevant weights."))
    curve = c + alpha * m_p
    value = float(curve[-1]) if curve.size else c
    demotions = BoundReport(
        "Demotions", f_demo, value, curve=curve,
        latex=(r"m^- = %d < 2 + 2m^+ = %.4g" % (m_minus, value) if two else
               r"m^- = %d < \frac{N}{(1-1/\alpha)\theta} + \alpha\, m^+ = %.4g + %g\cdot %d = %.4g"
               % (m_minus, c, alpha, mp_T, value)),
        numbers={"c": c, "alpha": alpha, "theta": theta, "m_plus": mp_T, "m_minus": m_minus},
        source=source,
        statement=(f"**Demotions.** Φ = Σ w starts at N = {N}; a promotion adds the active weights times α − 1, "
                   f"at most (α−1)θ = {(alpha - 1) * theta:.4g}; a demotion removes them times 1 − 1/α, more "
                   f"than (1−1/α)θ = {(1 - 1 / alpha) * theta:.4g}; and Φ > 0, so "
                   f"m⁻ < N/((1−1/α)θ) + α·m⁺ = {c:.4g} + {alpha:g}·m⁺."))
    return promotions, demotions


def analyse(stream: Stream, alpha: float = 2.0) -> WinnowAnalysis:
    r"""Winnow (threshold :math:`\theta = N`, factor ``alpha``) on ``stream``, with its theorem and proof.

    Parameters
    ----------
    stream : Stream of kind ``"disjunction"``
        Generated (``info["relevant"]`` known) or uploaded (a consistent disjunction is searched for).
    alpha : float, default=2.0
        Promotion factor :math:`\alpha > 1`.

    Returns
    -------
    WinnowAnalysis
    """
    alpha = check_param(alpha, "alpha", 1, None, lo_open=True)
    tr = linear.winnow(stream.X, stream.y, alpha=alpha)
    N = int(stream.X.shape[1])
    theta = float(N)
    known = stream.info.get("relevant")
    if known is not None:
        relevant, found = np.asarray(known, dtype=int), False
    else:
        relevant, found = comparators.consistent_disjunction(stream.X, stream.y), True
    k = None if relevant is None else int(len(relevant))
    why_not = ("no OR of attributes gives every row its label: some positive row has none of the attributes "
               "that are never on in a negative row, so Winnow's mistake bound says nothing here.")
    bound = _bound(k, N, alpha, theta, why_not)
    e = tr.extras
    promotions, demotions = _proof_steps(k, N, alpha, theta, e["m_plus"], int(e["m_minus"][-1]), why_not)
    table = np.asarray(tr.weight_table, dtype=float)
    index = np.asarray(tr.weight_index)
    change_rounds = np.flatnonzero(np.diff(index)) + 1
    coloured = np.asarray([] if relevant is None else relevant[:MAX_COLOURED], dtype=int)
    rest = np.setdiff1d(np.arange(N), coloured if relevant is None else relevant)
    if rest.size:
        W = table[:, rest]
        others = np.column_stack([W.max(axis=1), np.median(W, axis=1), W.min(axis=1)])
    else:
        others = np.zeros((len(table), 0))
    alpha2 = alpha == 2.0
    return WinnowAnalysis(
        trace=tr, N=N, alpha=alpha, theta=theta, relevant=relevant, found=found, k=k, bound=bound,
        promotions=promotions, demotions=demotions,
        potential=np.asarray(e["potential"], dtype=float), potential_upper=np.asarray(e["potential_upper"], float),
        potential_formula="N + N·m⁺ − N·m⁻/2" if alpha2 else "N + (α−1)θ·m⁺ − (1−1/α)θ·m⁻",
        change_rounds=change_rounds, coloured=coloured, coloured_weights=table[:, coloured], others=others)


@dataclass(frozen=True, eq=False)
class WinnowSweep:
    r"""Winnow (:math:`\alpha = 2`) against the Perceptron (with a bias attribute) as :math:`N` grows.

    Attributes
    ----------
    Ns : int array (n,)
    k : int array (n,)
        Relevant attributes at each N (``min(k, N)``).
    rounds : int array (n,)
        Rounds of each stream (``T``, cut so that rounds × N stays within ``MAX_CELLS``).
    winnow, perceptron : array (S, n)
        Mistakes per seed (rows: seeds 0..S-1) and N.
    winnow_bound, perceptron_bound : array (n,)
        :math:`2 + 3k(\log_2 N + 1)` and :math:`(4k+1)(N+1)` (:func:`olcore.bounds.perceptron_disjunction`).
    """

    Ns: np.ndarray
    k: np.ndarray
    rounds: np.ndarray
    winnow: np.ndarray
    perceptron: np.ndarray
    winnow_bound: np.ndarray
    perceptron_bound: np.ndarray

    @property
    def n_seeds(self) -> int:
        return int(self.winnow.shape[0])


def sweep(k: int, n_seeds: int, T: int = 400, Ns=SWEEP_NS) -> WinnowSweep:
    r"""Mistakes of Winnow (:math:`\alpha = 2, \theta = N`) and of the Perceptron on the same streams.

    For each :math:`N` in ``Ns`` and each seed ``0..n_seeds-1``: a stream of ``rounds_for(T, N)``
    rounds labelled by an OR of ``min(k, N)`` attributes; Winnow runs on it, and the Perceptron on
    the attributes plus a constant bias attribute 1 with labels :math:`2y - 1`, whose comparator
    :math:`(2, \dots, 2, -1)` gives the bound :math:`(4k+1)(N+1)`.
    """
    k = check_int(k, "k", 1, None)
    n_seeds = check_int(n_seeds, "n_seeds", 1, 64)
    Ns = np.asarray(Ns, dtype=int)
    kk = np.minimum(k, Ns)
    rounds = np.array([rounds_for(T, int(n)) for n in Ns])
    W = np.zeros((n_seeds, len(Ns)))
    P = np.zeros((n_seeds, len(Ns)))
    for j, n in enumerate(Ns):
        Xb = np.empty((int(rounds[j]), int(n) + 1))            # the Perceptron's rows, one array for every seed
        Xb[:, -1] = 1.0                                        # bias: y = 1 iff sum_rel x_i - 1/2 > 0
        for s_ in range(n_seeds):
            s = streams.disjunction(T=int(rounds[j]), N=int(n), k=int(kk[j]), seed=s_)
            W[s_, j] = linear.winnow(s.X, s.y, record="final").n_mistakes    # counts only: no weight table
            Xb[:, :-1] = s.X
            P[s_, j] = linear.perceptron(Xb, 2.0 * s.y - 1.0, record="final").n_mistakes
    return WinnowSweep(Ns=Ns, k=kk, rounds=rounds, winnow=W, perceptron=P,
                       winnow_bound=np.asarray(bounds.winnow(kk, Ns), dtype=float),
                       perceptron_bound=np.asarray(bounds.perceptron_disjunction(kk, Ns), dtype=float))


# ---- the elimination algorithm for conjunctions (UCL COMP0078, Problems 1.1) --------------------------

SOURCE_ELIMINATION = "UCL COMP0078, Online learning: Problems 1.1 (conjunctions of literals, the elimination algorithm)"


def conjunction_stream(T: int, n: int, k: int, seed: int, worst: bool = False) -> Stream:
    r"""``T`` rounds over :math:`\{0,1\}^n` labelled by a random conjunction of ``k`` literals.

    Each round's attributes are fair coins, except that on about half the rounds the target's
    literals are set true (so positives occur whatever ``k``).  ``worst``: the rounds that force
    the elimination algorithm's :math:`n - k + 1` mistakes come first (a positive, then for each
    free attribute a positive with only that attribute flipped), then the random rounds.
    ``info``: ``"literals"`` the target as (attribute, value) pairs, ``"k"``.
    """
    T = check_int(T, "T", 1, None)
    n = check_int(n, "n", 1, None)
    k = check_int(k, "k", 0, n)
    seed = check_seed(seed)
    rng = np.random.default_rng(seed)
    idx = np.sort(rng.choice(n, k, replace=False))
    val = rng.integers(0, 2, k)
    X = rng.integers(0, 2, (T, n))
    force = rng.random(T) < 0.5
    X[np.ix_(force, idx)] = val
    if worst:
        x0 = rng.integers(0, 2, n)
        x0[idx] = val
        free = np.setdiff1d(np.arange(n), idx)
        lead = np.array([x0] + [np.where(np.arange(n) == i, 1 - x0, x0) for i in rng.permutation(free)])
        X = np.vstack([lead, X])[:T]
    y = np.all(X[:, idx] == val, axis=1).astype(int)
    return streams.from_arrays("disjunction", X, y,
                               info={"literals": [(int(i), int(v)) for i, v in zip(idx, val)], "k": k})


@dataclass(frozen=True, eq=False)
class Elimination:
    r"""The elimination algorithm and Winnow on one conjunction stream.

    ``winnow`` runs on the stream as given (its theorem needs a monotone disjunction, which a
    conjunction is not); ``demorgan`` runs Winnow on the attributes :math:`(\mathbf x, \mathbf 1 - \mathbf x)`
    with labels :math:`1 - y`: by De Morgan :math:`\neg(\ell_1\wedge\dots\wedge\ell_k) = \neg\ell_1\vee\dots\vee\neg\ell_k`,
    a monotone :math:`k`-disjunction of :math:`2n` attributes, so Winnow's bound applies there.
    """

    n: int
    k: int
    literals: list
    trace: object
    winnow: object
    demorgan: object
    report: BoundReport
    demorgan_report: BoundReport

    @property
    def T(self) -> int:
        return self.trace.T


def elimination(stream: Stream) -> Elimination:
    r"""The elimination algorithm on a conjunction stream, its :math:`n + 1` bound, and Winnow beside it."""
    X, y = stream.X, stream.y
    n = int(X.shape[1])
    lits = stream.info.get("literals")
    tr = linear.conjunction_elimination(X, y)
    consistent = lits is not None or int(tr.extras["m_minus"][-1]) == 0
    k = int(stream.info.get("k", len(lits))) if lits is not None else None
    value = float(bounds.conjunction_elimination(n))
    report = BoundReport(
        "The elimination algorithm's mistake bound", "n + 1", value if consistent else math.inf,
        latex=(r"M = %d \le n + 1 = %d" % (tr.n_mistakes, n + 1)), numbers={"n": n}, applies=consistent,
        why_not="" if consistent else "the algorithm erred on a negative example, so no conjunction labels this stream.",
        source=SOURCE_ELIMINATION,
        statement=("**Elimination.** Start with all 2n literals x_i, ¬x_i; predict their conjunction; on a mistake on "
                   "a positive example drop every literal it falsifies. If a conjunction of literals labels the "
                   "stream, its literals are never dropped, so every mistake is on a positive; the first drops n "
                   "literals and each later one at least one more: M ≤ n + 1 (n − k + 1 for k literals). The "
                   "notes ask for O(n²)."))
    win = linear.winnow(X, y)
    Xd = np.hstack([X, 1 - X])
    dm = linear.winnow(Xd, 1 - y)
    if k is not None:
        dm_value = float(bounds.winnow(k, 2 * n))
        dm_report = BoundReport("Winnow by De Morgan", "2 + 3k(log₂(2n) + 1)", dm_value, numbers={"k": k, "N": 2 * n},
                                source=SOURCE, statement="")
    else:
        dm_report = BoundReport("Winnow by De Morgan", "2 + 3k(log₂(2n) + 1)", math.inf, applies=False,
                                why_not="the target conjunction (and so k) is not known for this stream.",
                                source=SOURCE)
    return Elimination(n=n, k=k if k is not None else -1, literals=list(lits or []), trace=tr, winnow=win,
                       demorgan=dm, report=report, demorgan_report=dm_report)


# ---- the lecture's questions: answers computed from the run (olapp/content/winnow.py, LECTURE) ---------------

def mistakes_band(a: WinnowAnalysis, edges) -> int:
    r"""The band of Winnow's mistakes :math:`M = m^+ + m^-` on the whole run among ``edges``
    (:func:`olcore.lessons.band`)."""
    from . import band

    return band(a.n_mistakes, edges)


def promotions_band(a: WinnowAnalysis, edges) -> int:
    r"""The band of the promotions :math:`m^+` (mistakes on positive examples) on the whole run among
    ``edges`` (:func:`olcore.lessons.band`). The proof's first step bounds them by
    :math:`k(\log_\alpha\theta + 1)`: each promotion doubles (at :math:`\alpha = 2`) at least one relevant
    weight, and a relevant weight is never demoted and stops being promoted once it exceeds :math:`\theta`."""
    from . import band

    return band(a.m_plus, edges)
