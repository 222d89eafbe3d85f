r"""The Halving lesson as pure functions: the streams it plays, the run, the theorem, the proof.

Halving keeps the *version space* :math:`C_t` of experts never wrong so far, predicts
their majority vote (a tie predicts 1) and crosses out every expert that was wrong.
On a mistake the majority was wrong, so :math:`|C_{t+1}| \le |C_t|/2`; on every round
:math:`|C_{t+1}| \le |C_t|`.  After :math:`M_t` mistakes :math:`|C_{t+1}| \le n/2^{M_t}`,
and a consistent expert keeps :math:`|C_{t+1}| \ge 1`, so :math:`M \le \log_2 n`
(UCL COMP0078, Online learning: "A run of the Halving Algorithm").

- :func:`make_stream`: the lecture's 8-expert table, a random stream with a perfect
  expert, or the adversary that forces :math:`\lfloor\log_2 n\rfloor` mistakes.
- :func:`game`: "you are the adversary": the rounds you played and the next round's advice.
- :func:`analyse`: Halving's run on any expert stream, with the theorem as a
  :class:`~olcore.report.BoundReport` and the proof's per-mistake quantities.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import bounds, streams
from ..errors import StreamError
from ..experts import halving
from ..report import BoundReport
from ..trace import Trace
from ..validate import check_int, check_seed

__all__ = ["UCL_X", "UCL_Y", "SOURCE", "STATEMENT", "lecture_stream", "make_stream", "parse_moves",
           "HalvingGame", "game", "version_space_ceiling", "HalvingAnalysis", "analyse",
           "size_after", "mistakes_band", "total_mistakes", "most_mistakes"]

#: The lecture's worked run (UCL COMP0078, Online learning, slide "A run of the Halving
#: Algorithm"): 8 experts, 3 rounds.  The slide leaves eliminated experts' later advice blank
#: ("X"); it is filled with 0 here (never read: Halving only counts consistent experts).
UCL_X = np.array([[1, 1, 0, 0, 1, 1, 0, 0],
                  [0, 0, 0, 1, 0, 0, 1, 1],
                  [0, 0, 0, 1, 0, 0, 0, 0]], dtype=np.int8)
UCL_Y = np.array([0, 1, 1], dtype=np.int8)
for _a in (UCL_X, UCL_Y):
    _a.setflags(write=False)

SOURCE = "UCL COMP0078, Online learning: the Halving Algorithm (\"A run of the Halving Algorithm\")"
STATEMENT = ("**Theorem** (UCL COMP0078, Online learning). For any sequence with a consistent expert "
             "(one that is never wrong), Halving makes at most $\\log_2 n$ mistakes.")
#: Longest "you are the adversary" game a link may carry.
MAX_MOVES = 2000


def lecture_stream() -> streams.Stream:
    """The slide's table as a stream (expert E4, index 3, is the consistent one)."""
    return streams.from_arrays("experts", UCL_X, UCL_Y, {"best": 3})


def make_stream(source: str, n: int = 16, T: int = 40, p_wrong: float = 0.5, extra: int = 6,
                seed: int = 0) -> streams.Stream:
    r"""The stream of a generated source.

    Parameters
    ----------
    source : {"ucl", "perfect", "adversary"}
        ``"ucl"``: the lecture's table (``n``, ``T``, ``p_wrong``, ``extra``, ``seed`` unused);
        ``"perfect"``: :func:`olcore.streams.perfect_expert` (``T`` rounds, one expert never
        wrong, the others wrong with probability ``p_wrong`` each round);
        ``"adversary"``: :func:`olcore.streams.adversary_consistent` against Halving, which
        forces :math:`\lfloor\log_2 n\rfloor` mistakes, then ``extra`` rounds it cannot force.
    n, T, extra, seed : int
    p_wrong : float in [0, 1]

    Raises
    ------
    StreamError
        An unknown source or a setting out of range.
    """
    if source == "ucl":
        return lecture_stream()
    if source == "perfect":
        return streams.perfect_expert(T=T, n=n, seed=seed, p_wrong=p_wrong)
    if source == "adversary":
        return streams.adversary_consistent(n, extra_rounds=extra, seed=seed)
    raise StreamError.bad("source", repr(source), "one of 'ucl', 'perfect', 'adversary'", label="The stream source")


def parse_moves(raw: str) -> list[int] | None:
    """A game's outcomes from a link (``"0110"`` -> ``[0, 1, 1, 0]``); ``None`` if it is not one.

    >>> parse_moves("0110"), parse_moves(""), parse_moves("01x")
    ([0, 1, 1, 0], [], None)
    """
    raw = str(raw)
    if len(raw) > MAX_MOVES or set(raw) - {"0", "1"}:
        return None
    return [int(c) for c in raw]


@dataclass(frozen=True, eq=False)
class HalvingGame:
    """"You are the adversary" after ``len(moves)`` rounds.

    Attributes
    ----------
    played : Stream or None
        The rounds played so far (``None`` before the first).
    n : int
    x_next : int array (n,)
        The next round's advice.
    alive : bool array (n,)
        Experts consistent before the next round.
    yhat_next : int
        Halving's vote on ``x_next``.
    votes_one, votes_zero : int
        Consistent experts advising 1 and 0 next round.
    """

    played: streams.Stream | None
    n: int
    x_next: np.ndarray
    alive: np.ndarray
    yhat_next: int
    votes_one: int
    votes_zero: int

    def advice(self, limit: int = 24) -> list[tuple[int, int | None]]:
        """Up to ``limit`` experts as ``(index, advice)``, consistent ones first and then in index
        order, ``advice`` ``None`` for a crossed-out expert; shown in index order."""
        ahead = np.sort(np.argsort(~self.alive, kind="stable")[:limit])
        return [(int(i), int(self.x_next[i]) if self.alive[i] else None) for i in ahead]


def game(n: int, moves, seed: int = 0) -> HalvingGame:
    r"""The game in which you reveal each outcome after seeing Halving's vote.

    The advice comes from :func:`olcore.streams.adversary_consistent` with your ``moves`` as
    labels: while :math:`|C_t| \ge 2` it splits the version space in half, afterwards it is
    seeded coin flips.  The next round's advice is the same function's with one more label.
    """
    n = check_int(n, "n", 1, streams.MAX_COLUMNS)
    seed = check_seed(seed)
    moves = [int(m) for m in moves]
    s = streams.adversary_consistent(n, labels=moves + [0], seed=seed)
    X, y = np.asarray(s.X), np.asarray(s.y)
    played = streams.from_arrays("experts", X[:-1], y[:-1], {}) if moves else None
    wrong_so_far = (X[:-1] != y[:-1, None]).any(axis=0)
    alive = ~wrong_so_far
    x_next = X[-1].astype(int)
    for a in (alive, x_next):
        a.setflags(write=False)
    return HalvingGame(played, n, x_next, alive, int(s.info["learner_predictions"][-1]),
                       int((alive & (x_next == 1)).sum()), int((alive & (x_next == 0)).sum()))


def version_space_ceiling(n, mistakes) -> np.ndarray | float:
    r"""The proof's ceiling :math:`|C_{t+1}| \le n / 2^{M_t}` after :math:`M_t` mistakes
    (a scalar in, a float out; an array of mistake counts in, the curve out).

    >>> version_space_ceiling(8, 2)
    2.0
    """
    n = check_int(n, "n", 1, None)
    m = np.asarray(mistakes, dtype=float)
    if m.size and (not np.all(np.isfinite(m)) or m.min() < 0):
        raise StreamError.bad("mistakes", str(m.min()), "counts >= 0", label="The mistake counts")
    out = n * np.exp2(-np.minimum(m, 1100.0))      # n / 2^m, which is 0 in floats long before m = 1100
    return float(out) if out.ndim == 0 else out


def _frozen(a, dtype=None) -> np.ndarray:
    a = np.array(a, dtype=dtype, copy=True)
    a.setflags(write=False)
    return a


@dataclass(frozen=True, eq=False)
class HalvingAnalysis:
    r"""Halving on one stream: the run, the theorem and the proof's quantities.

    Attributes
    ----------
    trace : Trace
        Halving's run (``trace.extras["version_space"]`` is :attr:`sizes`).
    n, T : int
    X : int array (T, n)
        The advice (``X[t, i]``: expert i in round t + 1).
    y : int array (T,)
        The outcomes.
    alive : bool array (T+1, n)
        Row ``s``: the experts consistent before round ``s + 1`` (row ``T``: after the run).
    sizes : int array (T+1,)
        :math:`|C_{s+1}|`, the version space before round ``s + 1``.
    cum_mistakes : int array (T,)
        :math:`M_t` after rounds 1..T.
    bound : BoundReport
        :math:`M \le \log_2 n`; ``applies`` is False when no expert is consistent.
    ceiling : BoundReport
        The proof's :math:`|C_{t+1}| \le n/2^{M_t}` after rounds 1..T (always holds).
    kept : float array (T,)
        :math:`|C_{t+1}|/|C_t|`, the fraction of the version space a round keeps (NaN once empty).
    empty_after : int or None
        The round after which no expert is consistent (``None``: some expert always is).
    best : int or None
        The stream's consistent (or best) expert, when its generator says.
    """

    trace: Trace
    n: int
    T: int
    X: np.ndarray
    y: np.ndarray
    alive: np.ndarray
    sizes: np.ndarray
    cum_mistakes: np.ndarray
    bound: BoundReport
    ceiling: BoundReport
    kept: np.ndarray
    empty_after: int | None
    best: int | None = None
    forced_rounds: int | None = None

    @property
    def M(self) -> int:
        """Halving's mistakes on the whole run."""
        return int(self.cum_mistakes[-1]) if self.T else 0

    @property
    def consistent(self) -> bool:
        """Whether some expert is never wrong on the stream (the theorem's assumption)."""
        return self.empty_after is None

    @property
    def floor_log2_n(self) -> int:
        return int(math.floor(math.log2(self.n)))

    @property
    def tight(self) -> bool:
        r"""Halving made :math:`\lfloor\log_2 n\rfloor` mistakes with a consistent expert: the most the
        theorem allows (mistakes are whole), so on this stream the bound cannot be improved."""
        return self.consistent and self.M == self.floor_log2_n

    def mistakes_until(self, t: int) -> int:
        """:math:`M_t`, the mistakes in rounds 1..t."""
        t = check_int(t, "t", 0, self.T)
        return int(self.cum_mistakes[t - 1]) if t else 0

    def empty_by(self, t: int) -> bool:
        """Whether the version space is empty after round ``t`` (or the first round, at ``t = 0``)."""
        return self.empty_after is not None and self.empty_after <= max(t, 1)

    def mistake_rounds(self, t: int | None = None) -> np.ndarray:
        """0-based rounds below ``t`` (default all) in which Halving erred."""
        t = self.T if t is None else check_int(t, "t", 0, self.T)
        return np.flatnonzero(self.trace.mistakes[:t])

    def kept_on_mistakes(self, t: int | None = None) -> list[float]:
        """The fraction of the version space each mistake in rounds 1..t kept (each at most 1/2)."""
        return [float(self.kept[s]) for s in self.mistake_rounds(t) if self.sizes[s] > 0]

    def crossed_out(self, t: int | None = None) -> tuple[int, int]:
        """Experts crossed out in rounds 1..t: ``(on mistakes, on rounds without a mistake)``.

        Every round crosses out the experts that were wrong, not only a mistake: when the
        majority is right, the wrong minority goes.
        """
        t = self.T if t is None else check_int(t, "t", 0, self.T)
        drop = self.sizes[:t] - self.sizes[1:t + 1]
        m = np.asarray(self.trace.mistakes[:t], bool)
        return int(drop[m].sum()), int(drop[~m].sum())

    def proof_rows(self, t: int | None = None) -> list[dict]:
        """The proof's table up to round ``t``: one row per mistake, the version space before and
        after, the fraction kept and the ceiling :math:`n/2^k` after the k-th mistake."""
        rows = []
        for k, s in enumerate(self.mistake_rounds(t)):
            before, after = int(self.sizes[s]), int(self.sizes[s + 1])
            rows.append({"mistake": k + 1, "round": int(s) + 1, "|C_t| before": before, "|C_t+1| after": after,
                         "after / before": f"{after / before:.3f}" if before else "—",
                         "n / 2^M": f"{version_space_ceiling(self.n, k + 1):.4g}"})
        return rows


def analyse(stream: streams.Stream) -> HalvingAnalysis:
    r"""Halving on ``stream`` (kind ``"experts"``): the run, :math:`M \le \log_2 n` and the proof.

    Raises
    ------
    StreamError
        The stream is not of kind ``"experts"``.
    """
    if stream.kind != "experts":
        raise StreamError.bad("stream kind", repr(stream.kind), "'experts' (0/1 advice and outcomes)",
                              label="This stream's kind")
    X, y = np.asarray(stream.X), np.asarray(stream.y)
    trace = halving(X, y)
    T, n = X.shape
    sizes = np.asarray(trace.extras["version_space"])
    alive = np.asarray(trace.weights) > 0
    cum = np.cumsum(np.asarray(trace.mistakes, dtype=int))
    M = int(cum[-1]) if T else 0
    empty = np.flatnonzero(sizes == 0)
    empty_after = int(empty[0]) if empty.size else None
    with np.errstate(invalid="ignore", divide="ignore"):
        kept = np.where(sizes[:-1] > 0, sizes[1:] / np.maximum(sizes[:-1], 1), np.nan)
    log2n = bounds.halving(n)
    consistent = empty_after is None
    why_not = "" if consistent else (
        f"No expert is consistent with this stream: after round {empty_after} every expert has been wrong "
        "at least once, so Halving's assumption (a perfect expert) fails and log₂ n bounds nothing. With no "
        "one left to vote, 0 votes against 0 is a tie and Halving predicts 1 from then on.")
    bound = BoundReport(
        theorem="Halving's mistake bound", formula="log₂ n", value=log2n,
        latex=rf"M = {M} \;\le\; \log_2 n = \log_2 {n} = {log2n:.3g}"
              + (r"\quad\checkmark" if consistent
                 else r"\quad\text{(no consistent expert: the theorem does not apply)}"),
        numbers={"n": n, "M": M, "log2_n": log2n}, applies=consistent, why_not=why_not,
        source=SOURCE, statement=STATEMENT)
    ceiling_curve = version_space_ceiling(n, cum) if T else np.zeros(0)
    ceiling = BoundReport(
        theorem="The proof's version-space ceiling", formula="n / 2^M_t", value=version_space_ceiling(n, M),
        curve=ceiling_curve, latex=rf"|C_{{{T + 1}}}| = {int(sizes[-1])} \;\le\; \frac{{n}}{{2^{{M}}}} = "
                                   rf"\frac{{{n}}}{{2^{{{M}}}}} = {version_space_ceiling(n, M):.4g}",
        numbers={"n": n, "M": M}, source=SOURCE,
        statement="Each mistake keeps at most half of the version space, every other round at most all of it.")
    info = stream.info
    return HalvingAnalysis(
        trace=trace, n=int(n), T=int(T), X=_frozen(X), y=_frozen(y), alive=_frozen(alive), sizes=_frozen(sizes), cum_mistakes=_frozen(cum),
        bound=bound, ceiling=ceiling, kept=_frozen(kept, float), empty_after=empty_after,
        best=int(info["best"]) if "best" in info else None,
        forced_rounds=int(info["forced_rounds"]) if "forced_rounds" in info else None)


# -- the lecture's answers (olapp/content/halving.py, LECTURE): computed from the run, never typed in ----

def size_after(a: HalvingAnalysis, t: int) -> int:
    r""":math:`|C_{t+1}|`, the experts still consistent after round ``t`` (``t = 0``: all ``n``)."""
    t = check_int(t, "t", 0, a.T)
    return int(a.sizes[t])


def mistakes_band(a: HalvingAnalysis, edges) -> int:
    r"""The band of Halving's mistakes :math:`M` on the whole run among ``edges``
    (:func:`olcore.lessons.band`)."""
    from . import band

    return band(a.M, edges)


def total_mistakes(a: HalvingAnalysis) -> int:
    r""":math:`M`, Halving's mistakes on the whole run."""
    return a.M


def most_mistakes(a: HalvingAnalysis) -> int:
    r""":math:`\lfloor\log_2 n\rfloor`: the most mistakes the proof's :math:`1 \le n/2^M` allows
    (mistakes are whole)."""
    return a.floor_log2_n
