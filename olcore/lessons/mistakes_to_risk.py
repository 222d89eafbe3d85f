r"""The /mistakes_to_risk lesson's math: from an online learner's mistakes to the risk of a classifier.

Pure functions of their settings (no streamlit, no plotly); the conversion is
:mod:`olcore.online_to_batch.classification`, the bounds (with their derivation from the notes'
Bernstein inequality) :mod:`olcore.bounds.risk`.  Source: Cesa-Bianchi, On-line learning, last part
("Statistical learning theory": the ensemble of hypotheses, Step 1, Step 2).

- :func:`analyse`: one training sample; each :math:`H_t`'s risk estimated on a large **held-out**
  sample from the same distribution (never on the training sample); the martingale
  :math:`\sum_t(\operatorname{risk}(H_{t-1}) - \mathbb 1[\text{mistake}_t])` and its envelope; the penalised
  choice :math:`\hat H`, the last hypothesis :math:`H_n` and the averaged one.
- :func:`repetitions`: many independent samples from one distribution, each hypothesis's **exact** risk
  (the generated distributions have closed forms; an upload is its own empirical distribution), and how
  often each bound fails, against :math:`\delta`, with a one-sided binomial test.

The generated distributions: :math:`\mathbf x \sim N(0, I_d)` labelled by a random unit :math:`\mathbf u`
("Separable", Bayes risk 0), the same with labels flipped with probability ``noise`` ("Label noise",
Bayes risk ``noise``), and two Gaussian classes :math:`\mathbf x = y\boldsymbol\mu + N(0, I_d)` with
:math:`\|\boldsymbol\mu\| = \Phi^{-1}(1 - \text{noise})` ("Overlapping classes", Bayes risk ``noise``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from .. import bounds
from ..bounds import BoundReport
from ..errors import StreamError
from ..online_to_batch import classification as o2b
from ..stream import MAX_ROUNDS, Stream, from_arrays
from ..trace import Trace
from ..validate import check_int, check_param, check_seed

__all__ = ["SOURCES", "UPLOAD", "N_HOLDOUT", "make_distribution", "make_stream", "split_upload", "Analysis",
           "analyse", "Repetitions", "repetitions", "binomial_tail", "LEVEL", "REP_N_MAX", "mistakes_band",
           "average_vs_mistakes"]

SOURCE = "Cesa-Bianchi, On-line learning, Statistical learning theory"
SOURCES = ("Separable", "Label noise", "Overlapping classes")
UPLOAD = "Upload"
#: Size of the held-out sample on which each hypothesis's risk is estimated (generated sources): the standard
#: error of an estimate is at most 0.005.
N_HOLDOUT = 10_000
#: Largest sample size in :func:`repetitions` on the page (each sample costs O(n² d) for the penalised choice).
REP_N_MAX = 1000
#: Most unseen-error counts :func:`repetitions` keeps at once (samples × n; 8 bytes each).
_BLOCK_VALUES = 1 << 17
#: Level of the one-sided binomial test of the failure counts (page and property tests).
LEVEL = 0.001


def make_distribution(source: str = "Label noise", d: int = 5, noise: float = 0.1, seed: int = 0):
    r"""The distribution :math:`D` of ``source`` in :math:`\mathbb R^d`; its direction is drawn from ``seed``."""
    d = check_int(d, "d", 1, 100)
    u = np.random.default_rng([check_seed(seed), 0]).standard_normal(d)
    u /= np.linalg.norm(u)
    if source == "Separable":
        return o2b.GaussianHalfspace(u, 0.0)
    if source == "Label noise":
        return o2b.GaussianHalfspace(u, check_param(noise, "noise", 0, 0.5, hi_open=True))
    if source == "Overlapping classes":
        noise = check_param(noise, "noise (the Bayes risk of overlapping classes)", 0, 0.5, lo_open=True, hi_open=True)
        return o2b.GaussianClasses(u * NormalDist().inv_cdf(1.0 - noise))
    raise StreamError.bad("stream", repr(source), "one of " + ", ".join(SOURCES), label="This stream")


def make_stream(source: str = "Label noise", n: int = 1000, d: int = 5, noise: float = 0.1, seed: int = 0) -> Stream:
    """The training sample: ``n`` i.i.d. draws from :func:`make_distribution` (kind ``"linear"``)."""
    n = check_int(n, "n", 2, MAX_ROUNDS)
    D = make_distribution(source, d, noise, seed)
    X, y = D.sample(n, np.random.default_rng([check_seed(seed), 1]))
    return from_arrays("linear", X, y, info={"source": source, "bayes_risk": D.bayes_risk})


#: Most training rows taken from an upload (the penalised choice costs O(n² d)), most held-out rows, and most
#: rows in the empirical distribution of :func:`repetitions` (a seeded subsample beyond it).
UPLOAD_N_MAX = 2000
UPLOAD_HOLDOUT_MAX = 20_000
UPLOAD_DIST_MAX = 5000


def split_upload(stream: Stream, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """An uploaded sample shuffled with ``seed`` and cut in two: the first half (at most :data:`UPLOAD_N_MAX`
    rows) trains, the other rows (at most :data:`UPLOAD_HOLDOUT_MAX`) are held out."""
    if stream.y is None or stream.T < 10:
        raise StreamError.bad("stream", f"{stream.T} row(s)", "at least 10 labelled rows (half are held out)",
                              label="This stream")
    perm = np.random.default_rng([check_seed(seed), 3]).permutation(stream.T)
    X, y = stream.X[perm], np.asarray(stream.y, float)[perm]
    h = min(stream.T // 2, UPLOAD_N_MAX)
    return X[:h], y[:h], X[h:h + UPLOAD_HOLDOUT_MAX], y[h:h + UPLOAD_HOLDOUT_MAX]


@dataclass(frozen=True, eq=False)
class Analysis:
    """One training sample, its ensemble, the held-out risks and every bound (see the module docstring)."""

    X: np.ndarray
    y: np.ndarray
    ens: o2b.Ensemble
    learner: str
    delta: float
    n_holdout: int
    risk: np.ndarray             # (n+1,) held-out risk of H_0..H_n
    exact: np.ndarray | None     # (n+1,) exact risk (generated distributions)
    bayes_risk: float | None
    M: np.ndarray                # (n,) M_t
    average: np.ndarray          # (n,) (1/t) sum_{s<=t} risk(H_{s-1})
    martingale: np.ndarray       # (n,) sum_{s<=t} risk(H_{s-1}) - 1[mistake_s]
    bounds: o2b.RiskBounds       # curves over t = 1..n
    choice: o2b.Choice
    averaged_w: np.ndarray
    risk_averaged: float         # held-out
    exact_averaged: float | None
    average_report: BoundReport
    chosen_report: BoundReport
    chosen_mistakes_report: BoundReport

    @property
    def n(self) -> int:
        return self.ens.n

    @property
    def trace(self) -> Trace:
        """The learner's one pass over the sample (the ensemble's Trace; its T is n, the player's last round)."""
        return self.ens.trace

    @property
    def t_star(self) -> int:
        return self.choice.t_star

    @property
    def risk_chosen(self) -> float:
        return float(self.risk[self.t_star])

    @property
    def risk_last(self) -> float:
        return float(self.risk[-1])

    @property
    def training_stream(self) -> Stream:
        """The training sample the learner ran on (for an upload: its shuffled first half)."""
        return from_arrays("linear", self.X, self.y)


def analyse(stream: Stream, source: str = "Label noise", d: int = 5, noise: float = 0.1, seed: int = 0,
            learner: str = "perceptron", delta: float = 0.05, n_holdout: int = N_HOLDOUT) -> Analysis:
    r"""Run ``learner`` on the training sample and measure everything the lesson shows.

    For a generated ``source`` the training sample is ``stream`` (from :func:`make_stream` with the same
    settings) and the held-out sample is ``n_holdout`` fresh draws from the same distribution.  For
    ``source = "Upload"`` the uploaded rows are shuffled with ``seed`` and split (:func:`split_upload`):
    the first half (at most :data:`UPLOAD_N_MAX` rows) trains, the rest is held out.
    """
    delta = check_param(delta, "delta", 0, 1, lo_open=True, hi_open=True)
    if source == UPLOAD:
        X, y, Xh, yh = split_upload(stream, seed)
        D = None
    else:
        D = make_distribution(source, d, noise, seed)
        X, y = stream.X, np.asarray(stream.y, float)
        if X.shape[1] != D.d:
            raise StreamError.bad("stream", f"dimension {X.shape[1]}", "the distribution's dimension d",
                                  label="This stream")
        Xh, yh = D.sample(check_int(n_holdout, "n_holdout", 100, 10**6), np.random.default_rng([check_seed(seed), 2]))
    ens = o2b.ensemble(X, y, learner)
    n = ens.n
    table_risk = o2b.sample_risk(ens.table, Xh, yh)
    risk = table_risk[ens.index]
    exact = None if D is None else D.risk(ens.table)[ens.index]
    t = np.arange(1, n + 1)
    M = ens.M
    rb = o2b.risk_bounds(M, t, delta)
    choice = o2b.choose_penalised(X, y, ens, delta)
    v = ens.averaged()
    r_v = o2b.sample_risk(v, Xh, yh)
    avg = np.cumsum(risk[:n]) / t
    mart = np.cumsum(risk[:n] - ens.mistakes)
    L, Lp = float(rb.level[-1]), float(rb.level_pen[-1])
    Mn = int(M[-1])
    avg_b, ch_b = float(rb.average[-1]), float(rb.chosen[-1])
    avg_report = BoundReport(
        "Average risk of the ensemble (Step 1)", "(M_t + 7L/3 + √(49L²/9 + 2L + 4L·M_t))/t", avg_b,
        curve=np.minimum(1.0, rb.average),
        latex=(rf"\frac1n\sum_{{t=1}}^n \mathrm{{risk}}(H_{{t-1}}) \approx {avg[-1]:.4f} \le "
               rf"\frac{{M_n + \frac{{7L}}{{3}} + \sqrt{{\frac{{49L^2}}{{9}} + 2L + 4LM_n}}}}{{n}} = "
               rf"\frac{{{Mn} + {7 * L / 3:.2f} + \sqrt{{{49 * L * L / 9 + 2 * L + 4 * L * Mn:.1f}}}}}{{{n}}}"
               rf" = {avg_b:.4f}"),
        numbers={"M_n": Mn, "n": n, "delta": delta, "L": L, "average_risk": float(avg[-1])},
        source=f"{SOURCE}, Step 1: bound the average risk",
        statement=(rf"**Step 1.** If the examples are i.i.d., for any incremental learner, with probability at least "
                   rf"$1-\delta$: $\frac1n\sum_t\mathrm{{risk}}(H_{{t-1}}) \le \frac1n\big(M_n + \frac{{7L}}3 + "
                   rf"\sqrt{{\frac{{49L^2}}9 + 2L + 4LM_n}}\big)$ with $L = \ln\frac{{\lceil\log_2 n\rceil+1}}{{\delta}}$ "
                   rf"$= {L:.3f}$ here (the notes: $\frac{{M_n}}n + \frac cn(\ln M_n + \sqrt{{M_n\ln M_n}})$ w.h.p.)."))
    ch_report = BoundReport(
        "Risk of the chosen hypothesis, data-dependent (Step 2)", "min_t (r̂_t + pen_t)", choice.bound,
        latex=(rf"\mathrm{{risk}}(\hat H) = \mathrm{{risk}}(H_{{{choice.t_star}}}) \approx {risk[choice.t_star]:.4f}"
               rf" \le \hat r_{{t^*}} + \mathrm{{pen}}_{{t^*}} = {choice.estimate[choice.t_star]:.4f} + "
               rf"{choice.penalty[choice.t_star]:.4f} = {choice.bound:.4f}"),
        numbers={"t_star": choice.t_star, "L_pen": Lp, "delta": delta},
        source=f"{SOURCE}, Step 2: pick a good classifier in the ensemble",
        statement=(rf"**Step 2.** Test each $H_t$ on the $n-t$ examples it has not seen, pick $\hat H = H_{{t^*}}$ "
                   rf"minimising $\hat r_t + \mathrm{{pen}}_t$ (the Bernstein upper confidence bound at level "
                   rf"$\delta/(3n)$, $L_{{pen}} = \ln(3n/\delta) = {Lp:.3f}$). With probability at least $1-\delta/3$: "
                   rf"$\mathrm{{risk}}(\hat H) \le \min_t(\hat r_t + \mathrm{{pen}}_t)$."))
    chm_report = BoundReport(
        "Risk of the chosen hypothesis from the mistakes (Step 2)", "(B + c₁L·Hₙ + 2√(2L·Hₙ·B))/n", ch_b,
        latex=(rf"\mathrm{{risk}}(\hat H) \le \frac{{B + c_1 L_{{pen}} H_n + 2\sqrt{{2L_{{pen}}H_nB}}}}{{n}} = {ch_b:.4f},"
               rf"\quad B = {float(bounds.average_risk(Mn, n, delta / 3)) * n:.1f},\ "
               rf"H_n = {float(bounds.risk._harmonic(n)):.3f},\ c_1 = {bounds.risk.C1:.3f}"),
        numbers={"M_n": Mn, "n": n, "delta": delta, "L_pen": Lp},
        source=f"{SOURCE}, Step 2: guaranteed bound",
        statement=(r"**The guaranteed bound.** With probability at least $1-\delta$, in terms of the mistakes only: "
                   r"$\mathrm{risk}(\hat H) \le \frac1n\big(B + c_1L_{pen}H_n + 2\sqrt{2L_{pen}H_nB}\big)$, $B$ Step 1's "
                   r"bound on $\sum_t\mathrm{risk}(H_{t-1})$ at $\delta/3$, $H_n = \sum_{k\le n}1/k \le 1 + \ln n$ (the notes: "
                   r"$\frac{M_n}n + \frac cn((\ln n)^2 + \sqrt{M_n\ln n})$)."))
    return Analysis(X=X, y=y, ens=ens, learner=learner, delta=delta, n_holdout=int(Xh.shape[0]), risk=risk,
                    exact=exact, bayes_risk=None if D is None else D.bayes_risk, M=M, average=avg, martingale=mart,
                    bounds=rb, choice=choice, averaged_w=v, risk_averaged=float(r_v),
                    exact_averaged=None if D is None else float(D.risk(v)[0]), average_report=avg_report,
                    chosen_report=ch_report, chosen_mistakes_report=chm_report)


def binomial_tail(k: int, R: int, p: float) -> float:
    r""":math:`\mathbb P(\mathrm{Bin}(R, p) \ge k)`: the one-sided p-value of :math:`k` failures in :math:`R`
    samples when each fails with probability :math:`p` (computed in the log domain).

    >>> binomial_tail(0, 10, 0.3), round(binomial_tail(10, 10, 0.5), 10) == round(0.5 ** 10, 10)
    (1.0, True)
    """
    if k <= 0:
        return 1.0
    if k > R:
        return 0.0
    logs = [math.lgamma(R + 1) - math.lgamma(j + 1) - math.lgamma(R - j + 1) + j * math.log(p)
            + (R - j) * math.log1p(-p) for j in range(k, R + 1)]
    top = max(logs)
    return float(min(1.0, math.exp(top) * sum(math.exp(x - top) for x in logs)))


@dataclass(frozen=True, eq=False)
class Repetitions:
    """Exact risks and bounds over many independent samples (one row per sample)."""

    n: int
    delta: float
    mistakes: np.ndarray         # (R,) M_n
    average: np.ndarray          # (R,) (1/n) sum risk(H_{t-1}), exact
    average_bound: np.ndarray    # (R,)
    chosen: np.ndarray           # (R,) risk(H_hat), exact
    chosen_bound: np.ndarray     # (R,) min_t U_t (data-dependent)
    chosen_mistakes_bound: np.ndarray   # (R,) from M_n
    last: np.ndarray             # (R,) risk(H_n)
    averaged: np.ndarray         # (R,) risk of the averaged hypothesis
    bayes_risk: float | None

    @property
    def R(self) -> int:
        return int(self.mistakes.size)

    def failures(self) -> dict[str, int]:
        """How many samples broke each bound."""
        return {"average": int((self.average > self.average_bound).sum()),
                "chosen": int((self.chosen > self.chosen_bound).sum()),
                "chosen_mistakes": int((self.chosen > self.chosen_mistakes_bound).sum())}

    def p_values(self) -> dict[str, float]:
        r"""One-sided binomial p-values of the failure counts against :math:`\mathbb P(\text{fail}) \le \delta`."""
        return {k: binomial_tail(v, self.R, self.delta) for k, v in self.failures().items()}


def repetitions(source: str = "Label noise", n: int = 1000, d: int = 5, noise: float = 0.1, seed: int = 0,
                learner: str = "perceptron", delta: float = 0.05, reps: int = 100,
                upload: Stream | None = None) -> Repetitions:
    r"""``reps`` independent training samples of size ``n`` from one distribution; for each the exact risks.

    The distribution is :func:`make_distribution` (its direction from ``seed``), or for
    ``source = "Upload"`` the uniform distribution over the uploaded rows (at most :data:`UPLOAD_DIST_MAX` of
    them, a seeded subsample beyond; the exact risk of a hypothesis is its error rate over those rows).  Sample ``r`` is drawn from
    ``default_rng([seed, 4, r])``.
    """
    n = check_int(n, "n", 2, MAX_ROUNDS)
    reps = check_int(reps, "reps", 1, 100_000)
    delta = check_param(delta, "delta", 0, 1, lo_open=True, hi_open=True)
    seed = check_seed(seed)
    if source == UPLOAD:
        if upload is None or upload.y is None:
            raise StreamError.bad("stream", "no uploaded sample", "an uploaded labelled sample", label="This stream")
        rows = np.arange(upload.T)
        if upload.T > UPLOAD_DIST_MAX:
            rows = np.sort(np.random.default_rng([seed, 5]).choice(upload.T, UPLOAD_DIST_MAX, replace=False))
        D = o2b.EmpiricalDistribution(upload.X[rows], np.asarray(upload.y, float)[rows])
    else:
        D = make_distribution(source, d, noise, seed)
    cols = {k: np.empty(reps) for k in ("M", "avg", "ch", "ch_b", "last", "avgd")}
    # A block of samples at a time: each one's online run and unseen-error counts, then in one call each
    # the exact risks of every hypothesis of the block (their weight tables stacked, each sample's averaged
    # hypothesis after its table) and the penalised choice (o2b.choose_penalised, whose criterion,
    # o2b.penalised_criterion, is elementwise).  The Gaussian distributions' risks sum each row alone, so
    # every number is the one the sample alone gives, bit for bit; an upload's risk is an error rate
    # counted through matrix products (o2b.sample_risk), where a score within a rounding of 0 could count
    # differently.  (One call per block instead of two per sample: 27.8 -> 24.4 ms at the defaults.)
    block = max(1, min(reps, _BLOCK_VALUES // n))
    errors = np.empty((block, n))
    for r0 in range(0, reps, block):
        c = min(block, reps - r0)
        parts, rows, mean_at = [], np.empty((c, n + 1), dtype=np.intp), np.empty(c, dtype=np.intp)
        start = 0
        for i in range(c):
            X, y = D.sample(n, np.random.default_rng([seed, 4, r0 + i]))
            ens = o2b.ensemble(X, y, learner)
            errors[i] = o2b.holdout_errors(X, y, ens)
            cols["M"][r0 + i] = ens.mistakes.sum()
            np.add(ens.index, start, out=rows[i])
            parts += [ens.table, ens.averaged()[None]]
            mean_at[i] = start + ens.table.shape[0]
            start = mean_at[i] + 1
        risk_all = D.risk(np.concatenate(parts))
        risk = risk_all[rows]                               # (c, n + 1): row i is sample r0 + i's risk(H_t)
        U = o2b.penalised_criterion(errors[:c], delta)
        t_star = U.argmin(axis=1)                           # the first minimiser of each row, as choose_penalised's
        at = np.arange(c)
        out = slice(r0, r0 + c)
        cols["avg"][out] = risk[:, :n].mean(axis=1)
        cols["last"][out] = risk[:, n]
        cols["avgd"][out] = risk_all[mean_at]
        cols["ch"][out] = risk[at, t_star]
        cols["ch_b"][out] = U[at, t_star]
    b = o2b.risk_bounds(cols["M"], n, delta)        # elementwise in M_n: one call for every sample
    return Repetitions(n=n, delta=delta, mistakes=cols["M"], average=cols["avg"], average_bound=b.average,
                       chosen=cols["ch"], chosen_bound=cols["ch_b"], chosen_mistakes_bound=b.chosen,
                       last=cols["last"], averaged=cols["avgd"], bayes_risk=D.bayes_risk)


# -- the lecture's answers (olapp/content/mistakes_to_risk.py, LECTURE): computed from the run, never typed in ---

def mistakes_band(a: Analysis, edges) -> int:
    r"""The band of :math:`M_n`, the learner's mistakes in its one pass over the sample, among increasing
    ``edges`` (:func:`olcore.lessons.band`). Each mistake is :math:`H_{t-1}` erring on an example it has not
    seen, so :math:`\mathbb E[M_n] = \sum_t \mathbb E[\mathrm{risk}(H_{t-1})] \ge n \cdot` (the Bayes risk)."""
    from . import band

    return band(int(a.M[-1]), edges)


def average_vs_mistakes(a: Analysis) -> int:
    r"""Where the ensemble's average risk :math:`\frac1n\sum_{t=1}^n \mathrm{risk}(H_{t-1})` (held out) ends:
    0 at or below the fraction of mistakes :math:`M_n/n`; 1 above it but within Step 1's Bernstein bound
    :math:`\frac1n\big(M_n + \frac{7L}3 + \sqrt{\frac{49L^2}9 + 2L + 4LM_n}\big)`; 2 above the bound (probability
    at most :math:`\delta`). The difference is the martingale :math:`\sum_t(\mathrm{risk}(H_{t-1}) -
    \mathbb 1[\text{mistake}_t])` over n: mean 0, so either of the first two can happen."""
    avg, frac = float(a.average[-1]), float(a.M[-1]) / a.n
    if avg <= frac:
        return 0
    return 1 if avg <= float(a.average_report.value) else 2
