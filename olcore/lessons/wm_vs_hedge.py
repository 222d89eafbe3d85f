r"""Weighted Majority vs Hedge: four masters on one expert stream, each against its theorem.

Pure functions of a stream and the lesson's settings (no page globals):

- :func:`make_stream`: the generated noisy experts or the stream of exercise 3.1;
- :func:`analyse`: deterministic WM, Randomized WM, Weighted Average and Hedge on one stream,
  each master's regret with its theorem as a :class:`~olcore.report.BoundReport` (every
  formula from :mod:`olcore.bounds`), the best expert in hindsight and the proof quantities;
- :func:`sweep`: Hedge's regret over a grid of learning rates around :math:`\eta^*`;
- :func:`rwm_tuned_eta`: Randomized WM's rate tuned to the horizon.

Sources: UCL COMP0078, Online learning (WM, Weighted Average, Hedge, exercise 3.1) and
CMU 16-831, Online learning (randomized WM).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping

import numpy as np

from .. import bounds, experts, streams
from ..errors import StreamError
from ..report import BoundReport
from ..stream import Stream
from ..trace import Trace
from ..validate import check_int, check_param, check_seed

__all__ = ["EPS", "SWEEP_SEEDS", "SWEEP_POINTS", "MASTERS", "UCL", "CMU", "make_stream", "rwm_tuned_eta",
           "soften", "analyse", "sweep", "WMvsHedgeAnalysis", "HedgeSweep", "tuning", "TuningAnalysis",
           "wa_equality", "WAEquality", "scaled_hedge", "ScaledHedge"]

#: The entropic Weighted Average sees the advice softened to EPS + (1 - 2 EPS) x (finite log loss).
EPS = 0.1
#: Streams (generated source) or HA-2 draws (fixed stream) per point of the η sweep.
SWEEP_SEEDS = 5
#: Learning rates in the η sweep (a log grid from η*/20 to 20 η*).
SWEEP_POINTS = 25
MASTERS = ("WM", "RWM", "WA", "Hedge")
UCL = "UCL COMP0078, Online learning"
CMU = "CMU 16-831, Online learning"


def make_stream(source: str, T: int, n: int, best_rate: float, beta: float, seed: int) -> Stream:
    r"""The lesson's generated streams.

    ``"noisy"``: ``n`` experts err independently, expert :math:`i` with rate
    ``linspace(best_rate, 0.5, n)[i]`` (the last is a coin), outcomes fair coins.
    ``"adversary"``: exercise 3.1, two constant experts and :math:`y_t` the opposite of
    deterministic WM's vote with ``beta`` (:func:`olcore.streams.adversary_wm`).
    """
    if source == "adversary":
        return streams.adversary_wm(T, beta)
    if source != "noisy":
        raise StreamError.bad("source", repr(source), "'noisy' or 'adversary'", label="The stream source")
    n = check_int(n, "n", 1, None)
    best_rate = check_param(best_rate, "best_rate", 0.0, 0.5)
    return streams.expert_error_rates(T, np.linspace(best_rate, 0.5, n), seed=seed)


def rwm_tuned_eta(T: int, n: int) -> float:
    r"""Randomized WM's rate tuned to the horizon: :math:`\eta = \min(1/2, \sqrt{\ln n / T})`.

    Since :math:`m^* \le T`, the expected regret bound :math:`\eta m^* + \ln n/\eta` is at most
    :math:`\eta T + \ln n/\eta`, smallest at :math:`\eta = \sqrt{\ln n/T}`, where it is
    :math:`2\sqrt{T\ln n}`; the theorem needs :math:`\eta \le 1/2`.  (The CMU notes'
    :math:`\eta = 1/\sqrt T` also makes RWM no-regret, with bound :math:`\sqrt T(1 + \ln n)`.)
    A floor of 0.01 keeps one expert (:math:`\ln 1 = 0`) meaningful.
    """
    T = check_int(T, "T", 1, None)
    n = check_int(n, "n", 1, None)
    return float(min(0.5, max(0.01, math.sqrt(math.log(n) / T))))


def soften(X: np.ndarray, wa_loss: str) -> np.ndarray:
    """The advice the Weighted Average sees: ``EPS + (1 - 2 EPS) X`` for the entropic loss."""
    X = np.asarray(X, dtype=float)
    return EPS + (1 - 2 * EPS) * X if wa_loss == "entropic" else X


def _frozen(a) -> np.ndarray:
    a = np.array(a, dtype=float)
    a.setflags(write=False)
    return a


@dataclass(frozen=True, eq=False)
class WMvsHedgeAnalysis:
    r"""Everything the /wm_vs_hedge page draws, for one stream and one set of settings.

    ``traces`` maps each master (``"WM"``, ``"RWM"``, ``"WA"``, ``"Hedge"``) to its run;
    ``regret`` to its regret curve :math:`L_t - \min_i L_{t,i}` (RWM: expected mistakes, Hedge:
    HA-1 expected loss); ``reports`` to its theorem on the regret (curve over rounds);
    ``loss_bounds`` to the theorem's bound on the cumulative loss after each round (``None``
    when it does not apply), for the download.
    """

    T: int
    n: int
    beta: float
    rwm_eta: float
    rwm_tuned: bool
    wa_loss: str
    wa_eta: float
    hedge_eta: float
    eta_star: float
    traces: Mapping[str, Trace]
    best_cum: np.ndarray            # min_i M_{t,i}: the best expert's mistakes after t rounds
    m_star: int
    rwm_expected_cum: np.ndarray
    regret: Mapping[str, np.ndarray]
    reports: Mapping[str, BoundReport]
    loss_bounds: Mapping[str, np.ndarray | None]
    wm_ratio: float                 # WM's mistakes / the best expert's (inf if the best is perfect)
    i_star: int                     # the best expert in hindsight (0-based)
    hedge_rel_entropy: np.ndarray   # d(e_i*, v_t), t = 1..T+1
    hedge_regret_u: np.ndarray      # Hedge's regret to u = e_i* after t rounds
    hedge_proof_rhs: np.ndarray     # (d(u,v_1) - d(u,v_{t+1}))/η + η/2 Σ v·ℓ²
    extras: Mapping[str, float] = field(default_factory=dict)


def _wm_report(M: int, best_cum, m_star: int, n: int, beta: float) -> BoundReport:
    a, b = bounds.weighted_majority_constants(beta)
    curve = bounds.weighted_majority_regret(best_cum, n, beta)
    bound_M = float(bounds.weighted_majority(m_star, n, beta))
    statement = (r"**Weighted Majority**: for every expert $i$, $M \le \frac{\ln(1/\beta)}{\ln(2/(1+\beta))} M_i "
                 r"+ \frac{1}{\ln(2/(1+\beta))}\ln n$ (advice and outcomes in {0, 1}, $0 \le \beta < 1$); "
                 r"at $\beta = 1/e$ both constants are 2.63. So the regret $M - \min_i M_i$ is at most "
                 r"$(a-1)\min_i M_i + b \ln n$.")
    numbers = {"M": M, "m_star": m_star, "n": n, "beta": beta, "a": float(a), "b": float(b), "bound_M": bound_M}
    if beta > 0:
        latex = (rf"M = {M} \le {a:.3g}\cdot {m_star} + {b:.3g}\cdot\ln {n} = {bound_M:.4g}"
                 rf"\qquad(\text{{regret }} {M - m_star} \le {bound_M - m_star:.4g})")
        applies, why = True, ""
    else:
        latex = (rf"\beta = 0:\ M = {M},\ \text{{bound }} "
                 + (rf"\log_2 {n} = {math.log2(n):.3g}" if m_star == 0 else r"\infty\ (\text{no perfect expert})"))
        applies = bool(np.isfinite(curve).all())
        why = "" if applies else ("β = 0 is Halving: its bound log₂ n needs a perfect expert, and here the best "
                                  f"expert erred {m_star} times, so the bound is infinite.")
    return BoundReport("Weighted Majority", "WM: (a−1)·m*_t + b·ln n", float(curve[-1]) if applies else math.inf,
                       curve=curve if applies else None, latex=latex, numbers=numbers, applies=applies,
                       why_not=why, source=f"{UCL}: Number of mistakes of the WM algorithm",
                       statement=statement)


def _rwm_report(expected: float, draw: int, best_cum, m_star: int, n: int, eta: float) -> BoundReport:
    curve = bounds.randomized_weighted_majority_regret(best_cum, n, 1 - eta)
    bound_M = float(bounds.randomized_weighted_majority(m_star, n, 1 - eta))
    statement = (r"**Randomized WM** ($\eta = 1 - \beta \le 1/2$, outcomes fixed before the coins): "
                 r"$\mathbb E[M] \le (1+\eta)\, m^* + \ln N/\eta$, so the expected regret is at most "
                 r"$\eta\, m^* + \ln N/\eta$. At a fixed $\eta$ this grows linearly with $m^*$; with $\eta$ tuned "
                 r"to $T$ ($\eta = \sqrt{\ln N/T}$, or the notes' $1/\sqrt T$) it is $O(\sqrt{T \ln N})$: RWM is no-regret.")
    latex = (rf"\mathbb E[M] = {expected:.4g} \le (1+{eta:.3g})\cdot {m_star} + \frac{{\ln {n}}}{{{eta:.3g}}} = "
             rf"{bound_M:.4g}\qquad(\text{{this draw: }} {draw}\ \text{{mistakes}})")
    return BoundReport("Randomized Weighted Majority", "RWM: η·m*_t + ln n/η", float(curve[-1]),
                       curve=curve, latex=latex,
                       numbers={"expected_M": expected, "M_draw": draw, "m_star": m_star, "n": n, "eta": eta,
                                "bound_M": bound_M},
                       source=f"{CMU}: randomized weighted majority, expected mistakes", statement=statement)


def _wa_report(wa: Trace, n: int, eta: float, loss: str) -> BoundReport:
    eta_max = bounds.WEIGHTED_AVERAGE_ETA_MAX[loss]
    best = float(wa.expert_losses.sum(axis=0).min())
    regret = wa.total_loss - best
    statement = (rf"**Weighted Average** ({loss} loss, advice and outcomes in [0, 1], $0 < \eta \le {eta_max:g}$): "
                 r"$L_{WA} - \min_i L_i \le \frac{\ln n}{\eta}$, however long the stream.")
    numbers = {"L_WA": wa.total_loss, "best": best, "n": n, "eta": eta, "eta_max": eta_max}
    if eta <= eta_max:
        value = float(bounds.weighted_average(n, eta, loss))
        latex = (rf"L_{{WA}} - \min_i L_i = {wa.total_loss:.4g} - {best:.4g} = {regret:.4g} \le "
                 rf"\frac{{\ln {n}}}{{{eta:g}}} = {value:.4g}")
        return BoundReport("Weighted Average", "WA: ln n/η", value, curve=np.full(wa.T, value), latex=latex,
                           numbers=numbers, source=f"{UCL}: Weighted Average Algorithm, Theorem",
                           statement=statement)
    latex = (rf"L_{{WA}} - \min_i L_i = {regret:.4g}"
             rf"\qquad(\eta = {eta:g} > {eta_max:g}:\ \text{{no guarantee}})")
    return BoundReport("Weighted Average", "WA: ln n/η", math.inf, latex=latex, numbers=numbers, applies=False,
                       why_not=f"η = {eta:g} is above the theorem's limit {eta_max:g} for the {loss} loss, so the "
                               "notes give no guarantee.",
                       source=f"{UCL}: Weighted Average Algorithm, Theorem", statement=statement)


def _hedge_report(hedge: Trace, m_star: int, T: int, n: int, eta: float, eta_star: float) -> BoundReport:
    curve = bounds.hedge_regret(np.arange(1, T + 1), n, eta)
    value = float(curve[-1])
    tuned = math.isclose(eta, eta_star, rel_tol=1e-9)
    statement = (r"**Hedge** ([LW94, FS97], losses in [0, 1], $\eta > 0$): $\mathbb E[L_{HA}] - \min_i L_i \le "
                 r"\frac{\ln n}{\eta} + \frac{\eta m}{2}$, which is $\sqrt{2 m \ln n}$ at $\eta^* = \sqrt{2\ln n/m}$. "
                 r"$\mathbb E[L_{HA}] = \sum_t v_t\cdot\ell_t$ is the HA-1 loss; one sampled HA-2 run may exceed it.")
    latex = (rf"{hedge.total_loss:.4g} - {m_star} = {hedge.total_loss - m_star:.4g} \le "
             rf"\frac{{\ln {n}}}{{{eta:.3g}}} + \frac{{{eta:.3g}\cdot {T}}}{{2}} = {value:.4g}"
             + (rf" = \sqrt{{2\cdot {T}\ln {n}}}" if tuned
                else rf"\ \ (\ge \sqrt{{2\cdot{T}\ln{n}}} = {float(bounds.hedge(T, n)):.4g})"))
    return BoundReport("Hedge", "Hedge: ln n/η + ηt/2", value, curve=curve, latex=latex,
                       numbers={"L_HA": hedge.total_loss, "m_star": m_star, "T": T, "n": n, "eta": eta,
                                "eta_star": eta_star},
                       source=f"{UCL}: Hedge, Theorem [LW94, FS97] and its proof", statement=statement)


def analyse(stream: Stream, beta: float = 1 / math.e, rwm_eta: float = 0.1, wa_loss: str = "square",
            wa_eta: float = 0.5, hedge_mult: float = 1.0, seed: int = 0,
            rwm_tuned: bool = False) -> WMvsHedgeAnalysis:
    r"""Run the four masters on ``stream`` (0/1 advice and outcomes) and build their theorems.

    Parameters
    ----------
    stream : Stream of kind ``"experts"``
    beta : float in [0, 1)
        Deterministic WM's penalty.
    rwm_eta : float in (0, 1/2]
        Randomized WM's rate (its weights are multiplied by :math:`1 - \eta`).
    wa_loss : ``"square"`` or ``"entropic"``; wa_eta : float > 0
        The Weighted Average's loss and rate (the entropic master sees :func:`soften`'d advice).
    hedge_mult : float > 0
        Hedge's rate as a multiple of :math:`\eta^* = \sqrt{2\ln n/T}`.
    seed : int
        Seed of RWM's and Hedge's (HA-2) draws.
    rwm_tuned : bool, default=False
        Use :func:`rwm_tuned_eta` (tuned to this stream's ``T`` and ``n``) instead of ``rwm_eta``.
    """
    if stream.kind != "experts":
        raise StreamError.bad("stream", f"kind {stream.kind!r}", "an experts stream (0/1 advice and outcome)",
                              label="This stream")
    beta = check_param(beta, "beta", 0.0, 1.0, hi_open=True)
    rwm_eta = check_param(rwm_eta, "rwm_eta", 0.0, 0.5, lo_open=True)
    if wa_loss not in bounds.WEIGHTED_AVERAGE_ETA_MAX:
        raise StreamError.bad("wa_loss", repr(wa_loss), "'square' or 'entropic'", label="Weighted Average's loss")
    wa_eta = check_param(wa_eta, "wa_eta", 0.0, None, lo_open=True)
    hedge_mult = check_param(hedge_mult, "hedge_mult", 0.0, None, lo_open=True)
    seed = check_seed(seed)
    X, y = np.asarray(stream.X), np.asarray(stream.y)
    T, n = X.shape
    if rwm_tuned:
        rwm_eta = rwm_tuned_eta(T, n)
    eta_star = float(bounds.hedge_eta(T, n)) if n > 1 else 1.0
    hedge_eta = max(hedge_mult * eta_star, 1e-6)
    L01 = (X != y[:, None]).astype(float)
    traces = {
        "WM": experts.weighted_majority(X, y, beta),
        "RWM": experts.randomized_weighted_majority(X, y, 1 - rwm_eta, seed=seed),
        "WA": experts.weighted_average(soften(X, wa_loss), y, wa_eta, wa_loss),
        "Hedge": experts.hedge(L01, hedge_eta, seed=seed),
    }
    wm, rwm, wa, hedge = (traces[k] for k in MASTERS)
    best_cum = L01.cumsum(axis=0).min(axis=1)
    m_star = int(best_cum[-1])
    rwm_cum = np.cumsum(rwm.extras["expected_loss"])
    regret = {"WM": wm.cumulative_loss - best_cum, "RWM": rwm_cum - best_cum, "WA": np.asarray(wa.regret),
              "Hedge": hedge.cumulative_loss - best_cum}
    reports = {
        "WM": _wm_report(wm.n_mistakes, best_cum, m_star, n, beta),
        "RWM": _rwm_report(float(rwm_cum[-1]), rwm.n_mistakes, best_cum, m_star, n, rwm_eta),
        "WA": _wa_report(wa, n, wa_eta, wa_loss),
        "Hedge": _hedge_report(hedge, m_star, T, n, hedge_eta, eta_star),
    }
    # each theorem's bound on the cumulative loss after t rounds (the download's "bound" column)
    wa_best = wa.cumulative_expert_loss.min(axis=1)
    loss_bounds = {
        "WM": bounds.weighted_majority(best_cum, n, beta),
        "RWM": bounds.randomized_weighted_majority(best_cum, n, 1 - rwm_eta),
        "WA": wa_best + reports["WA"].value if reports["WA"].applies else None,
        "Hedge": best_cum + reports["Hedge"].curve,
    }
    i_star = int(hedge.extras["best"])
    d = hedge.extras["rel_entropy"]
    regret_u = np.cumsum(hedge.losses - L01[:, i_star])
    rhs = (d[0] - d[1:]) / hedge_eta + hedge_eta / 2 * np.cumsum(hedge.extras["second_moment"])
    return WMvsHedgeAnalysis(
        T=T, n=n, beta=beta, rwm_eta=rwm_eta, rwm_tuned=bool(rwm_tuned), wa_loss=wa_loss, wa_eta=wa_eta, hedge_eta=hedge_eta,
        eta_star=eta_star, traces=traces, best_cum=_frozen(best_cum), m_star=m_star,
        rwm_expected_cum=_frozen(rwm_cum), regret={k: _frozen(v) for k, v in regret.items()}, reports=reports,
        loss_bounds={k: None if v is None else _frozen(v) for k, v in loss_bounds.items()},
        wm_ratio=wm.n_mistakes / m_star if m_star else math.inf, i_star=i_star,
        hedge_rel_entropy=_frozen(d), hedge_regret_u=_frozen(regret_u), hedge_proof_rhs=_frozen(rhs))


@dataclass(frozen=True, eq=False)
class HedgeSweep:
    r"""Hedge's regret after :math:`T` rounds over a grid of learning rates.

    ``expected`` (seeds, P): the HA-1 regret :math:`\sum_t v_t\cdot\ell_t - \min_i L_i`, the
    quantity the theorem bounds, on each of ``seeds`` generated streams (or, on a fixed stream,
    the one deterministic value repeated); ``sampled`` (seeds, P) or ``None``: on a fixed stream,
    the regret of ``seeds`` sampled HA-2 runs (one draw each: it may exceed the bound, which is
    on the expectation); ``bound`` (P,): :math:`\ln n/\eta + \eta T/2`.
    """

    etas: np.ndarray
    expected: np.ndarray
    sampled: np.ndarray | None
    bound: np.ndarray
    eta_star: float
    T: int
    n: int
    seeds: tuple[int, ...]
    generated: bool


def sweep(stream: Stream, source: str, best_rate: float = 0.3, seed: int = 0, seeds: int = SWEEP_SEEDS,
          points: int = SWEEP_POINTS) -> HedgeSweep:
    r"""Hedge's final regret for ``points`` rates :math:`\eta^*\cdot 10^{[-1.3, 1.3]}` (log grid).

    With ``source == "noisy"`` each of ``seeds`` runs is on a fresh generated stream with the
    settings of ``stream`` (seeds ``seed .. seed + seeds - 1``); otherwise ``stream`` is fixed
    and the runs differ only in HA-2's draws.  Every ``expected`` entry is at most ``bound``
    (the theorem; the proof is deterministic in :math:`v_t\cdot\ell_t`).
    """
    seeds = check_int(seeds, "seeds", 1, 100)
    points = check_int(points, "points", 2, 1000)
    seed = check_seed(seed)
    X, y = np.asarray(stream.X), np.asarray(stream.y)
    T, n = X.shape
    eta_star = float(bounds.hedge_eta(T, n)) if n > 1 else 1.0
    etas = eta_star * np.logspace(-1.3, 1.3, points)
    generated = source == "noisy"
    used = tuple((seed + k) % 2**32 for k in range(seeds))
    expected = np.zeros((seeds, points))
    sampled = None if generated else np.zeros((seeds, points))
    L_fixed = (X != y[:, None]).astype(float)
    for k, s in enumerate(used):
        if generated:
            g = make_stream("noisy", T, n, best_rate, 0.0, s)
            L = (np.asarray(g.X) != np.asarray(g.y)[:, None]).astype(float)
        else:
            L = L_fixed
        best = L.sum(axis=0).min()
        losses, sampled_loss = experts.hedge_many(L, etas, seed=s)       # row j: experts.hedge(L, etas[j], s)
        expected[k] = np.cumsum(losses, axis=1)[:, -1] - best           # each run's total_loss, as its trace adds it
        if sampled is not None:
            sampled[k] = [row.sum() - best for row in sampled_loss]
    return HedgeSweep(etas=_frozen(etas), expected=_frozen(expected),
                      sampled=None if sampled is None else _frozen(sampled),
                      bound=_frozen(bounds.hedge_regret(T, n, etas)), eta_star=eta_star, T=T, n=n, seeds=used,
                      generated=generated)


# -- the rest of the notes (CMU form, tuning to T, Problems 3.2, WA's equality, losses in [0, B]) ------

def _horizons(T: int, points: int) -> np.ndarray:
    """About ``points`` horizons from 1 to ``T``, log-spaced, always ending at ``T``."""
    return np.unique(np.geomspace(1, T, min(points, T)).round().astype(np.int64))


def _report(title: str, formula: str, curve, latex: str, numbers: dict, source: str, statement: str,
            applies: bool = True, why_not: str = "") -> BoundReport:
    curve = None if curve is None else _frozen(curve)
    value = float(curve[-1]) if applies and curve is not None else math.inf
    return BoundReport(title, formula, value, curve=curve if applies else None, latex=latex, numbers=numbers,
                       applies=applies, why_not=why_not, source=source, statement=statement)


@dataclass(frozen=True, eq=False)
class TuningAnalysis:
    r"""WM and RWM at one rate :math:`\eta` (CMU notes), and what tuning to the horizon changes.

    ``wm`` is deterministic WM at :math:`\beta = 1 - \eta` (the CMU notes' WMA); ``ucl`` and ``cmu``
    are the two forms of its mistake bound on that one run (curves over rounds, on
    :math:`M_t`); ``wm_regret``/``form1`` its regret and the notes' form (1);
    ``rwm_regret``/``form2`` RWM's expected regret at the same :math:`\eta` and form (2).
    ``horizons`` (H,) are the horizons :math:`T'` at which RWM is re-run on the first
    :math:`T'` rounds with :math:`\eta_{T'} = \min(1/2, 1/\sqrt{T'})`; ``tuned_avg`` (H,) its
    :math:`(\mathbb E[M] - m^*)/T'`, ``tuned_avg_bound`` (H,) form (2)/T'.  ``fixed_avg``/``wm_avg``
    (T,) are the average regrets over :math:`t` of the fixed-rate RWM and WM runs (a prefix of a
    run is the run on the prefix), with their bounds.  Problems 3.2: ``two_regret`` (H,) is
    :math:`M - 2m^*` of WM run at :math:`\beta_{T'}` on the first :math:`T'` rounds, under
    ``two_bound_ucl`` (the UCL form at :math:`\beta_{T'}` minus :math:`2m^*`) and ``two_bound``
    (:math:`4\sqrt{T'\ln n}` once :math:`T' \ge 4\ln n`); ``two_regret_fixed`` (T,) is WM's at the
    page's fixed :math:`\beta` with ``two_bound_fixed`` (``None`` when infinite).
    """

    T: int
    n: int
    eta: float
    beta: float
    wm_mistakes: np.ndarray
    best_cum: np.ndarray
    ucl: BoundReport
    cmu: BoundReport
    wm_regret: np.ndarray
    form1: BoundReport
    rwm_regret: np.ndarray
    form2: BoundReport
    horizons: np.ndarray
    tuned_etas: np.ndarray
    tuned_avg: np.ndarray
    tuned_avg_bound: np.ndarray
    fixed_avg: np.ndarray
    fixed_avg_bound: np.ndarray
    wm_avg: np.ndarray
    wm_avg_bound: np.ndarray
    two_betas: np.ndarray
    two_regret: np.ndarray
    two_bound_ucl: np.ndarray
    two_bound: np.ndarray
    two_regret_fixed: np.ndarray
    two_bound_fixed: np.ndarray | None
    two: BoundReport


def tuning(stream: Stream, eta: float = 0.1, beta: float = 1 / math.e, seed: int = 0,
           points: int = 40) -> TuningAnalysis:
    r"""WM and RWM at one rate, the two forms of WM's bound, RWM tuned to the horizon, Problems 3.2.

    Parameters
    ----------
    stream : Stream of kind ``"experts"``
    eta : float in (0, 1/2]
        The CMU notes' rate: WM and RWM multiply a wrong expert's weight by :math:`1 - \eta`.
    beta : float in [0, 1)
        The page's fixed WM :math:`\beta`, whose 2-regret is drawn beside :math:`\beta_{T'}`'s.
    seed : int
        Seed of RWM's draws (its expected mistakes do not depend on it).
    points : int
        About how many horizons :math:`T'` are re-run.
    """
    if stream.kind != "experts":
        raise StreamError.bad("stream", f"kind {stream.kind!r}", "an experts stream (0/1 advice and outcome)",
                              label="This stream")
    eta = check_param(eta, "eta", 0.0, 0.5, lo_open=True)
    beta = check_param(beta, "beta", 0.0, 1.0, hi_open=True)
    seed = check_seed(seed)
    points = check_int(points, "points", 2, 1000)
    X, y = np.asarray(stream.X), np.asarray(stream.y)
    T, n = X.shape
    L01 = (X != y[:, None]).astype(float)
    best_cum = L01.cumsum(axis=0).min(axis=1)
    rounds = np.arange(1, T + 1)
    wm = experts.weighted_majority(X, y, 1 - eta, record="final")
    M = wm.cumulative_loss
    rwm = experts.randomized_weighted_majority(X, y, 1 - eta, seed=seed, record="final")
    rwm_cum = np.cumsum(rwm.extras["expected_loss"])
    ucl_curve = bounds.weighted_majority(best_cum, n, 1 - eta)
    cmu_curve = bounds.weighted_majority_cmu(best_cum, n, eta)
    m_star, Mw = int(best_cum[-1]), int(M[-1])
    src_cmu = f"{CMU}: Weighted Majority Algorithm (Algorithm 1) and its bound"
    ucl = _report("Weighted Majority (UCL form)", "UCL: a(1−η)·m*_t + b(1−η)·ln n", ucl_curve,
                  rf"M = {Mw} \le {float(ucl_curve[-1]):.4g}", {"M": Mw, "m_star": m_star, "eta": eta},
                  f"{UCL}: Number of mistakes of the WM algorithm",
                  r"UCL form at $\beta = 1 - \eta$: $M \le \frac{\ln(1/\beta)}{\ln(2/(1+\beta))} m^* "
                  r"+ \frac{\ln n}{\ln(2/(1+\beta))}$.")
    cmu = _report("Weighted Majority (CMU form)", "CMU: 2 ln n/η + 2(1+η)·m*_t", cmu_curve,
                  rf"\text{{CMU form: }} M = {Mw} \le \frac{{2\ln {n}}}{{{eta:.3g}}} + 2(1+{eta:.3g})\cdot {m_star} = "
                  rf"{float(cmu_curve[-1]):.4g}", {"M": Mw, "m_star": m_star, "n": n, "eta": eta},
                  src_cmu, r"**Weighted Majority, CMU form** (weights multiplied by $1-\eta$ on a mistake, "
                  r"$0 < \eta \le 1/2$): $M \le \frac{2\ln N}{\eta} + 2(1+\eta)\, m^*$. It is the UCL bound at "
                  r"$\beta = 1-\eta$ loosened by $\ln\frac{1}{1-\eta/2} \ge \frac{\eta}{2}$ and "
                  r"$\ln\frac{1}{1-\eta} \le \eta + \eta^2$, so it never lies below it.")
    f1 = bounds.weighted_majority_cmu_regret(best_cum, n, eta)
    f2 = bounds.randomized_weighted_majority_regret(best_cum, n, 1 - eta)
    form1 = _report("WM regret, form (1)", "(1) WM: m*_t + 2η m*_t + 2 ln n/η", f1,
                    rf"\text{{(1): }} M - m^* = {Mw - m_star} \le {m_star} + 2\cdot{eta:.3g}\cdot{m_star} + "
                    rf"\frac{{2\ln {n}}}{{{eta:.3g}}} = {float(f1[-1]):.4g}",
                    {"M": Mw, "m_star": m_star, "eta": eta}, src_cmu,
                    r"**Form (1)**, WM's regret: $M - m^* \le m^* + 2\eta m^* + \frac{2\ln N}{\eta}$. The term "
                    r"$m^*$ does not shrink for any $\eta$: WM's average regret need not go to 0.")
    form2 = _report("RWM expected regret, form (2)", "(2) RWM: η m*_t + ln n/η", f2,
                    rf"\text{{(2): }} \mathbb E[M] - m^* = {float(rwm_cum[-1]) - m_star:.4g} \le {eta:.3g}\cdot{m_star} + "
                    rf"\frac{{\ln {n}}}{{{eta:.3g}}} = {float(f2[-1]):.4g}",
                    {"E_M": float(rwm_cum[-1]), "m_star": m_star, "eta": eta},
                    f"{CMU}: Randomized Weighted Majority (Algorithm 2) and its bound",
                    r"**Form (2)**, RWM's expected regret: $\mathbb E[M] - m^* \le \eta m^* + \frac{\ln N}{\eta}$; "
                    r"with $\eta = 1/\sqrt T$ it is at most $\sqrt T(1 + \ln N)$, so the average regret tends to 0.")
    H = _horizons(T, points)
    etas = np.minimum(0.5, bounds.randomized_weighted_majority_eta(H))
    _, tuned = experts.weighted_majority_prefixes(X, y, H, 1 - etas)   # RWM's E[M] on each prefix (any seed)
    mH = best_cum[H - 1]
    two_b = bounds.weighted_majority_two_regret_beta(H, n)
    two = experts.weighted_majority_prefixes(X, y, H, two_b)[0] - 2 * mH
    two_ucl = bounds.weighted_majority_two_regret(mH, n, two_b)
    two_tuned = bounds.weighted_majority_two_regret_tuned(H, n)
    fixed_wm = experts.weighted_majority(X, y, beta, record="final").cumulative_loss
    two_fixed_bound = bounds.weighted_majority_two_regret(best_cum, n, beta)
    two_rep = _report("WM with β_T → 1 (Problems 3.2)", "4√(T ln n)", two_tuned,
                      rf"M - 2m^* = {int(two[-1])} \le 2\eta_T T + \frac{{2\ln {n}}}{{\eta_T}} = "
                      rf"{float(two_tuned[-1]):.4g},\quad \beta_T = 1 - \eta_T = {float(two_b[-1]):.4g}",
                      {"two_regret": int(two[-1]), "beta_T": float(two_b[-1]), "T": T, "n": n},
                      f"{UCL}: Problems 3.2 (answered with the CMU form)",
                      r"**Problems 3.2**: with $\beta_T = 1 - \eta_T$, $\eta_T = \sqrt{\ln n/T}$ (at most $1/2$), the "
                      r"CMU form gives $M - 2m^* \le 2\eta_T m^* + 2\ln n/\eta_T \le 4\sqrt{T\ln n}$: WM's 2-regret "
                      r"is sublinear. No fixed $\beta$ does it: $a(\beta) > 2$, so $(a(\beta) - 2)\,m^*$ grows "
                      r"linearly with $m^*$.")
    return TuningAnalysis(
        T=T, n=n, eta=eta, beta=beta, wm_mistakes=_frozen(M), best_cum=_frozen(best_cum), ucl=ucl, cmu=cmu,
        wm_regret=_frozen(M - best_cum), form1=form1, rwm_regret=_frozen(rwm_cum - best_cum), form2=form2,
        horizons=H, tuned_etas=_frozen(etas), tuned_avg=_frozen((tuned - mH) / H),
        tuned_avg_bound=_frozen(bounds.randomized_weighted_majority_regret(mH, n, 1 - etas) / H),
        fixed_avg=_frozen((rwm_cum - best_cum) / rounds), fixed_avg_bound=_frozen(f2 / rounds),
        wm_avg=_frozen((M - best_cum) / rounds), wm_avg_bound=_frozen(f1 / rounds),
        two_betas=_frozen(two_b), two_regret=_frozen(two), two_bound_ucl=_frozen(two_ucl), two_bound=_frozen(two_tuned),
        two_regret_fixed=_frozen(fixed_wm - 2 * best_cum),
        two_bound_fixed=_frozen(two_fixed_bound) if np.isfinite(two_fixed_bound).all() else None, two=two_rep)


@dataclass(frozen=True, eq=False)
class WAEquality:
    r"""Weighted Average's progress-versus-regret equality (UCL notes, eq. (1)), entropic loss, :math:`\eta = 1`.

    For :math:`u = e_{i^*}` (the best expert in hindsight) and every round :math:`t`:
    ``lhs[t]`` :math:`= L_{en}(y_t, \hat y_t) - u\cdot\ell_t` and ``rhs[t]``
    :math:`= d(u, v_t) - d(u, v_{t+1})`; ``cum_lhs`` and ``cum_rhs`` :math:`= d(u, v_1) - d(u, v_{t+1})`
    are their sums over the first :math:`t` rounds, ``d`` (T+1,) is :math:`d(u, v_t)`, ``gap`` the
    largest :math:`|lhs_t - rhs_t|` (rounding only).  The advice is softened (:func:`soften`),
    the outcomes are 0/1 as the proof assumes.
    """

    T: int
    n: int
    i_star: int
    lhs: np.ndarray
    rhs: np.ndarray
    cum_lhs: np.ndarray
    cum_rhs: np.ndarray
    d: np.ndarray
    gap: float
    report: BoundReport


def wa_equality(stream: Stream) -> WAEquality:
    r"""Run Weighted Average (entropic loss, :math:`\eta = 1`) on the softened advice and return both
    sides of the notes' equality (1), round by round, for :math:`u = e_{i^*}`."""
    if stream.kind != "experts":
        raise StreamError.bad("stream", f"kind {stream.kind!r}", "an experts stream (0/1 advice and outcome)",
                              label="This stream")
    X, y = np.asarray(stream.X), np.asarray(stream.y)
    T, n = X.shape
    wa = experts.weighted_average(soften(X, "entropic"), y, 1.0, "entropic", record="final")
    i = int(wa.extras["best"])
    d = np.asarray(wa.extras["rel_entropy"])
    lhs = np.asarray(wa.losses) - np.asarray(wa.expert_losses)[:, i]
    rhs = d[:-1] - d[1:]
    cum = np.cumsum(lhs)
    ln_n = math.log(n)
    rep = _report("Weighted Average, entropic loss, η = 1", "ln n", np.full(T, ln_n),
                  rf"{float(cum[-1]):.6g} = {ln_n:.4g} - {max(0.0, float(d[-1])):.3g} \le \ln {n}",
                  {"regret": float(cum[-1]), "d_final": float(d[-1]), "n": n, "i_star": i},
                  f"{UCL}: Weighted Average Algorithm, Proof 1 and 2",
                  r"**Progress versus regret** (entropic loss, $\eta = 1$, outcomes in {0, 1}): for every "
                  r"$u \in \Delta_n$ and every round, $L_{en}(y_t,\hat y_t) - \sum_i u_i L_{en}(y_t, x_{t,i}) = "
                  r"d(u, v_t) - d(u, v_{t+1})$, an *equality*; summed it telescopes to "
                  r"$d(u, v_1) - d(u, v_{T+1}) \le \ln n$.")
    return WAEquality(T=T, n=n, i_star=i, lhs=_frozen(lhs), rhs=_frozen(rhs), cum_lhs=_frozen(cum),
                      cum_rhs=_frozen(d[0] - d[1:]), d=_frozen(d), gap=float(np.max(np.abs(lhs - rhs))), report=rep)


@dataclass(frozen=True, eq=False)
class ScaledHedge:
    r"""Hedge on the 0/1 loss matrix scaled to :math:`[0, B]`.

    ``scaled``: Hedge at :math:`\eta^*/B` (``experts.hedge(B L, η*, B=B)``), its regret (T,) under
    ``report`` (:math:`B(\ln n/\eta^* + \eta^* t/2)`, ending at :math:`B\sqrt{2T\ln n}`);
    ``naive``: Hedge at :math:`\eta^*` on the raw losses (the :math:`[0,1]` tuning left as it is),
    its regret under :math:`\ln n/\eta^* + \eta^* B^2 t/2` (``naive_report``).
    """

    B: float
    eta_star: float
    regret: np.ndarray
    naive_regret: np.ndarray
    report: BoundReport
    naive_report: BoundReport


def scaled_hedge(stream: Stream, B: float = 10.0) -> ScaledHedge:
    r"""Losses in :math:`[0, B]` (the notes' question after Hedge's proof): Hedge at :math:`\eta^*/B`
    against :math:`B\sqrt{2 m\ln n}`, beside Hedge left at :math:`\eta^*`."""
    if stream.kind != "experts":
        raise StreamError.bad("stream", f"kind {stream.kind!r}", "an experts stream (0/1 advice and outcome)",
                              label="This stream")
    B = check_param(B, "B", 0.0, None, lo_open=True)
    X, y = np.asarray(stream.X), np.asarray(stream.y)
    T, n = X.shape
    L = B * (X != y[:, None])
    eta = float(bounds.hedge_eta(T, n)) if n > 1 else 1.0
    best = L.cumsum(axis=0).min(axis=1)
    t = np.arange(1, T + 1)
    scaled = experts.hedge(L, eta, B=B, record="final")
    naive = experts.hedge(L, eta * B, B=B, record="final")           # update rate (ηB)/B = η on raw losses
    curve = bounds.hedge_regret(t, n, eta, B)
    naive_curve = bounds.hedge_regret(t, n, eta * B, B)              # = ln n/η + η B² t/2
    regret = scaled.cumulative_loss - best
    src = f"{UCL}: Hedge, Theorem and the question after its proof"
    rep = _report("Hedge, losses in [0, B]", "B(ln n/η* + η* t/2)", curve,
                  rf"{float(regret[-1]):.4g} \le {B:g}\sqrt{{2\cdot {T}\ln {n}}} = {float(bounds.hedge(T, n, B)):.4g}",
                  {"B": B, "eta": eta, "T": T, "n": n}, src,
                  r"**Losses in $[0, B]$**: $\ell/B \in [0, 1]$, and Hedge at $\eta/B$ on $\ell$ has the weights of "
                  r"Hedge at $\eta$ on $\ell/B$, whose regret is $1/B$ of ours: so $\mathbb E[L_{HA}] - \min_i L_i "
                  r"\le B\sqrt{2m\ln n}$ at $\eta = \eta^*$.")
    naive_rep = _report("Hedge at η* on [0, B] losses", "ln n/η* + η* B² t/2", naive_curve,
                        rf"{float(naive.cumulative_loss[-1] - best[-1]):.4g} \le {float(naive_curve[-1]):.4g}",
                        {"B": B, "eta": eta}, src,
                        r"Left at $\eta^*$, the proof's $e^{-x} \le 1 - x + x^2/2$ ($x \ge 0$) still holds but "
                        r"$\sum_i v_{t,i}\ell_{t,i}^2 \le B^2$: the bound is $\ln n/\eta^* + \eta^* B^2 m/2$.")
    return ScaledHedge(B=B, eta_star=eta, regret=_frozen(regret),
                       naive_regret=_frozen(naive.cumulative_loss - best), report=rep, naive_report=naive_rep)


# -- the lecture's questions: answers computed from the run (olapp/content/wm_vs_hedge.py, LECTURE) ----------

def heaviest(a: WMvsHedgeAnalysis, master: str, t: int) -> int:
    r""":math:`\arg\max_i v_{t+1,i}`: the expert (numbered from 1) to which ``master`` gives the most
    normalised weight after ``t`` rounds (the weights it uses in round :math:`t+1`); ties go to the
    smallest number.

    For deterministic WM, :math:`v_{t+1,i} \propto \beta^{M_{t,i}}`, so this is the expert with the
    fewest mistakes in the first ``t`` rounds: the best expert *so far*, not the best on average.
    """
    if master not in MASTERS:
        raise StreamError.bad("master", repr(master), f"one of {MASTERS}", label="The master algorithm")
    t = check_int(t, "t", 0, a.T)
    return int(np.argmax(np.asarray(a.traces[master].weights)[t])) + 1


def heaviest_band(a: WMvsHedgeAnalysis, master: str, t: int, edges) -> int:
    r"""The band of :func:`heaviest` (an expert's number, from 1) among ``edges``
    (:func:`olcore.lessons.band`): with ``edges = (1, 2, 6)``, 0 is E1, 1 is E2–E5, 2 is E6 on."""
    from . import band

    return band(heaviest(a, master, t), edges)


def top_weight(a: WMvsHedgeAnalysis, master: str, t: int | None = None) -> float:
    r""":math:`\max_i v_{t+1,i}`: the largest normalised weight ``master`` gives one expert after ``t``
    rounds (``None``: the whole run). For Hedge with 0/1 losses,
    :math:`v_{t+1,i} = e^{-\eta L_{t,i}}/\sum_j e^{-\eta L_{t,j}}`."""
    if master not in MASTERS:
        raise StreamError.bad("master", repr(master), f"one of {MASTERS}", label="The master algorithm")
    t = a.T if t is None else check_int(t, "t", 0, a.T)
    return float(np.max(np.asarray(a.traces[master].weights)[t]))


def top_weight_band(a: WMvsHedgeAnalysis, master: str, t: int | None, edges) -> int:
    """The band of :func:`top_weight` among ``edges`` (:func:`olcore.lessons.band`)."""
    from . import band

    return band(top_weight(a, master, t), edges)


def final_regret(a: WMvsHedgeAnalysis, master: str) -> float:
    r"""``master``'s regret after the whole run: :math:`L_T - \min_i L_{T,i}` (RWM: expected mistakes,
    Hedge: HA-1 expected loss, WA: its own loss against the best expert's under the same loss)."""
    if master not in MASTERS:
        raise StreamError.bad("master", repr(master), f"one of {MASTERS}", label="The master algorithm")
    return float(a.regret[master][-1])


def expert_mistakes(a: WMvsHedgeAnalysis, t: int) -> np.ndarray:
    r""":math:`M_{t,i}`: each expert's mistakes (0/1 losses) in the first ``t`` rounds, shape (n,)."""
    t = check_int(t, "t", 0, a.T)
    return np.asarray(a.traces["WM"].expert_losses)[:t].sum(axis=0).astype(int)


def regret_vs_bound(a: WMvsHedgeAnalysis, master: str) -> int:
    r"""Where ``master``'s final regret :math:`R = L_T - \min_i L_{T,i}` lands against its theorem's bound
    :math:`B`: ``-1`` if :math:`R < 0` (it beat every expert), ``0`` if :math:`0 \le R \le B`, ``1`` if
    :math:`R > B` (possible only where the theorem does not apply, e.g. Weighted Average above its
    :math:`\eta` limit, or one sampled draw)."""
    r = final_regret(a, master)
    if r < 0:
        return -1
    return 0 if r <= a.reports[master].value else 1
