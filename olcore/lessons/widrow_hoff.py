r"""The Widrow-Hoff lesson: online least squares, Theorem 1 and its potential proof, online-to-batch
(Theorem 2), and exponentiated gradient beside it.

Every function is pure: a stream and the lesson's settings in, a frozen dataclass out.

- :func:`unit_ball` checks Theorem 1's assumption :math:`\|\mathbf x_t\|_2 \le 1` on a stream.
- :func:`tuning` is the :math:`\eta`-side of the lesson: the bound-minimising :math:`\eta^*` and a
  sweep of full runs over :math:`\eta \in (0, 1)` with Theorem 1's bound at each.
- :func:`analyse` runs Widrow-Hoff at one :math:`\eta`: the trace, Theorem 1 as a
  :class:`~olcore.report.BoundReport` whose curve is the bound on every prefix, the clairvoyant
  least-squares comparator, and every term of the potential proof.
- :func:`online_to_batch` is the experiment of Theorem 2 (averaging the iterates).
- :func:`implicit` runs the implicit update of Motivation 2 beside the explicit one, with the
  notes' rate remark: :math:`L_{WH}/T` against :math:`L_{\mathbf u}/T`.
- :func:`eg_vs_wh` runs exponentiated gradient and Widrow-Hoff on a stream with a sparse
  probability-vector target.

With ``rescale=True`` a stream outside the unit ball is divided by :math:`R = \max_t\|\mathbf x_t\|`
first (predictions of :math:`R\mathbf u` on the rescaled stream equal those of :math:`\mathbf u`
on the original), so Theorem 1 applies.

Source: Princeton COS 511, Online linear regression (lecture 18): Theorem 1 (Section 1.2), the
potential proof, Theorem 2 (Section 2), additive vs multiplicative updates (Section 3).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import online_to_batch as _o2b
from ..bounds import widrow_hoff as _theorem1
from ..bounds.report import BoundReport
from ..errors import StreamError
from ..comparators import (widrow_hoff_clairvoyant, widrow_hoff_min, widrow_hoff_optimal_eta,
                           widrow_hoff_prefix_min, widrow_hoff_spectrum, widrow_hoff_theorem)
from ..linear import exponentiated_gradient, widrow_hoff
from ..linear.widrow_hoff import proof_quantities, to_unit_ball, widrow_hoff_many
from ..measure import UnitBallReport, check_unit_ball
from ..stream import MAX_CELLS, Stream
from ..streams import regression, simplex_stream
from ..validate import check_int, check_param, check_seed, sci

__all__ = ["SOURCE", "SOURCE_T1", "SOURCE_T2", "FORMULA_T1", "FORMULA_T2", "unit_ball", "Tuning", "tuning",
           "WidrowHoffAnalysis", "analyse", "OnlineToBatch", "online_to_batch", "EgComparison", "eg_vs_wh",
           "EXACT_PREFIXES", "Implicit", "implicit", "FORMULA_RATE", "SLIDER_ETAS"]

#: Where the notes prove it (by course and lecture).
SOURCE = "Princeton COS 511, Online linear regression (lecture 18)"
SOURCE_T1 = SOURCE + ", Theorem 1"
SOURCE_T2 = SOURCE + ", Theorem 2 (online-to-batch)"
#: Legend formulas (charts name the traces ``bound: <formula>``).
FORMULA_T1 = "min_u L_u/(1−η) + ‖u‖²/η"
FORMULA_T2 = "min_u R_u/(1−η) + ‖u‖²/(ηm)"
FORMULA_RATE = "L_u/((1−η)T) + ‖u‖²/(ηT)"
#: Streams up to this length get Theorem 1's bound on every prefix; longer ones on 2,000 prefixes
#: (and, between two of them, the later value: an upper bound, the curve is nondecreasing).  One
#: prefix costs a d x d solve, about 50 us: 10^4 rounds exactly took 0.5-0.85 s of a cold rerun.
EXACT_PREFIXES = 5_000
#: The learning rates the page's slider offers (0.01 to 0.99 by 0.01): Theorem 1 needs 0 < η < 1.
SLIDER_ETAS = np.round(np.arange(1, 100) / 100, 2)

_STATEMENT_T1 = (
    "**Theorem 1.** If $\\|\\mathbf x_t\\|_2 \\le 1$ for all $t$ and $0<\\eta<1$, then "
    "$L_{WH} \\le \\min_{\\mathbf u}\\left(\\frac{L_{\\mathbf u}}{1-\\eta}+\\frac{\\|\\mathbf u\\|_2^2}{\\eta}\\right)$.")
_STATEMENT_T2 = (
    "**Theorem 2.** Run Widrow-Hoff once over an i.i.d. sample of size $m$ (with $\\|\\mathbf x\\| \\le 1$) and "
    "output $\\mathbf v=\\frac1m\\sum_{t=1}^m\\mathbf w_t$. Then "
    "$\\mathbb E_S[R_{\\mathbf v}]\\le\\min_{\\mathbf u}\\left(\\frac{R_{\\mathbf u}}{1-\\eta}+"
    "\\frac{\\|\\mathbf u\\|^2}{\\eta m}\\right)$, with the risk $R_{\\mathbf v}=\\mathbb E[(\\mathbf v\\cdot\\mathbf x-y)^2]$.")


# ---- the stream as the learner sees it ----------------------------------------------------------

def unit_ball(stream: Stream) -> UnitBallReport:
    r"""Theorem 1's assumption on the stream as given: is every :math:`\|\mathbf x_t\|_2 \le 1`?"""
    return check_unit_ball(stream.X)


def _as_run(stream: Stream, rescale: bool) -> tuple[np.ndarray, np.ndarray, float]:
    """(X, y, R): the stream divided by R = max ||x_t|| when ``rescale`` and it leaves the unit ball."""
    X = np.asarray(stream.X, dtype=float)
    y = np.asarray(stream.y, dtype=float)
    if rescale:
        X, R = to_unit_ball(X)
        return X, y, float(R)
    return X, y, 1.0


#: A Widrow-Hoff run whose square loss or weights pass this size has diverged (outside the unit ball, where
#: η‖x_t‖² > 2 makes each step overshoot): its numbers cannot be shown, and the potential ‖w − u‖² of the proof
#: would overflow soon after.  Inside the unit ball (or rescaled into it) no run comes near: Theorem 1 with u = 0
#: caps the whole run's loss at Σ y²/(1 − η) ≤ 100 T VALUE_MAX² = 1e25.
DIVERGED = 1e150


def _diverged(X: np.ndarray, eta: float, *arrays) -> StreamError | None:
    """The message for a run (its losses, weights, ...) that overflowed or passed :data:`DIVERGED`, else None."""
    with np.errstate(invalid="ignore", over="ignore"):
        ok = all(np.all(np.abs(np.asarray(a, dtype=float)) <= DIVERGED) for a in arrays)
    if ok:
        return None
    norm = float(np.sqrt(np.max(np.einsum("td,td->t", X, X)))) if X.size else 0.0
    return StreamError(
        f"Without rescaling, Widrow-Hoff diverges on this stream: its largest ‖x_t‖ is {norm:.4g}, and a round with "
        f"η‖x_t‖² > 2 (here ‖x_t‖ > {np.sqrt(2 / eta):.3g} at η = {eta:g}) overshoots, so the weights and the square "
        f"loss grow past {sci(DIVERGED)}, beyond what can be computed and shown. Turn on \"Rescale x into the unit "
        "ball\" (Theorem 1 assumes ‖x_t‖ ≤ 1), or choose a smaller η.", "X")


def _claim_tolerance(phi: np.ndarray, claim: np.ndarray) -> np.ndarray:
    r"""Rounding allowed when comparing :math:`\Phi_{t+1}-\Phi_t` with the claim's bound: relative to the claim,
    and to the potentials themselves (their difference loses about their size times the machine epsilon: with
    :math:`\Phi \approx 10^{14}` a few hundredths)."""
    return 1e-9 * (1.0 + np.abs(claim)) + 1e-12 * (np.abs(phi[:-1]) + np.abs(phi[1:]))


def _prefix_curve_or_none(X, y, eta: float, inside: bool) -> np.ndarray | None:
    """:func:`_prefix_curve`; outside the unit ball (where the curve is not Theorem 1's bound and is not drawn)
    ``None`` when the ridge systems are too ill-conditioned to solve (‖x‖² so large that λ = (1 − η)/η is lost
    to rounding)."""
    if inside:
        return _prefix_curve(X, y, eta)
    try:
        with np.errstate(all="ignore"):
            curve = _prefix_curve(X, y, eta)
    except np.linalg.LinAlgError:
        return None
    return curve if np.isfinite(curve).all() else None


def _prefix_curve(X, y, eta: float) -> np.ndarray:
    r"""Theorem 1's right-hand side on every prefix :math:`t = 1..T`.

    Exact at every round up to :data:`EXACT_PREFIXES` rounds; beyond, exact on 2,000 evenly spread
    prefixes (the last always) and, in between, the next computed value: the bound is
    nondecreasing in :math:`t` (each :math:`L_{\mathbf u}(t)` is), so the curve never drops below
    the exact bound.
    """
    T, d = X.shape
    # the dual's one Cholesky (about T³/3 + T²d flops) or the primal's T solves (about T(d³/3 + d²)),
    # whichever is cheaper: /widrow_hoff's EG stream (T = 300, d = 100) took 50 ms primal, 4 ms dual
    if T <= 3000 and T * T / 3 + T * d <= d**3 / 3 + d * d:
        return _prefix_curve_dual(X, y, eta)
    if T <= EXACT_PREFIXES:
        return widrow_hoff_prefix_min(X, y, eta, np.arange(1, T + 1))
    idx = np.unique(np.linspace(0, T - 1, 2000).round().astype(int))
    vals = widrow_hoff_prefix_min(X, y, eta, idx + 1)
    return vals[np.searchsorted(idx, np.arange(T))]


def _prefix_curve_dual(X, y, eta: float) -> np.ndarray:
    r"""The same curve as :func:`olcore.comparators.widrow_hoff_prefix_min` on every prefix, from one
    Cholesky factorisation of a :math:`T\times T` matrix (cheaper than the primal's :math:`T` solves
    of :math:`d\times d` systems unless :math:`T^2 \gtrsim d^3`).

    With :math:`\lambda=(1-\eta)/\eta`, the ridge minimum is
    :math:`\min_{\mathbf u}\|X_t\mathbf u-\mathbf y_t\|^2+\lambda\|\mathbf u\|^2
    = \lambda\,\mathbf y_t^\top(X_tX_t^\top+\lambda I)^{-1}\mathbf y_t`.  The matrix of prefix
    :math:`t` is the leading block of the whole stream's :math:`K+\lambda I = LL^\top`, whose
    Cholesky factor is the leading block of :math:`L`; so with :math:`\mathbf z = L^{-1}\mathbf y`,
    :math:`\mathbf y_t^\top(K_t+\lambda I)^{-1}\mathbf y_t = \sum_{s\le t} z_s^2`, and the bound is
    :math:`\lambda\sum_{s\le t}z_s^2/(1-\eta)`.
    """
    lam = (1.0 - eta) / eta
    L = np.linalg.cholesky(X @ X.T + lam * np.eye(X.shape[0]))
    z = np.linalg.solve(L, y)   # lower-triangular: prefix t of z depends on prefix t of y only
    return lam * np.cumsum(z * z) / (1.0 - eta)


# ---- choosing eta -----------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Tuning:
    r"""The :math:`\eta` side of Theorem 1 on one stream.

    ``eta_best`` minimises the bound :math:`B(\eta)=\min_{\mathbf u}(L_{\mathbf u}/(1-\eta)+\|\mathbf u\|^2/\eta)`
    (``bound_best`` :math:`=B(\eta^*)`); ``etas`` (K,) are the swept rates, ``final_loss`` (K,) the total
    loss of a full Widrow-Hoff run at each (NaN where the run diverged: outside the unit ball only),
    ``bound`` (K,) :math:`B` at each, and ``clairvoyant_loss`` :math:`\min_{\mathbf u} L_{\mathbf u}`.  ``ball``
    is the assumption on the stream as run (after rescaling when asked).

    The learning-rate slider offers :data:`SLIDER_ETAS` (0.01, 0.02, ..., 0.99): ``slider_bound`` is
    :math:`B` at each, ``eta_slider`` the one with the smallest (where :math:`B` is convex, a neighbour of
    :math:`\eta^*` on that grid, or an end of it when :math:`\eta^*` lies beyond), ``bound_slider`` its
    bound.  ``zero_loss`` is :math:`\sum_t y_t^2`, the loss of :math:`\mathbf u = \mathbf 0` and the
    limit of :math:`B(\eta)` as :math:`\eta \to 0`.
    """

    eta_best: float
    bound_best: float
    etas: np.ndarray
    final_loss: np.ndarray
    bound: np.ndarray
    clairvoyant_loss: float
    ball: UnitBallReport
    slider_bound: np.ndarray
    zero_loss: float

    @property
    def eta_slider(self) -> float:
        """The slider's η with the smallest bound (the first of equals)."""
        return float(SLIDER_ETAS[int(np.argmin(self.slider_bound))])

    @property
    def bound_slider(self) -> float:
        return float(np.min(self.slider_bound))

    @property
    def side(self) -> str:
        """Where η* lies against the slider: ``"below"`` 0.01, ``"above"`` 0.99, or ``"inside"``."""
        return "below" if self.eta_best < SLIDER_ETAS[0] else "above" if self.eta_best > SLIDER_ETAS[-1] else "inside"

    @property
    def eta_best_loss(self) -> float:
        """The swept rate with the smallest total loss (often not :math:`\\eta^*`: the bound is a worst case);
        NaN when every swept run diverged (only possible outside the unit ball)."""
        fl = np.where(np.isnan(self.final_loss), np.inf, self.final_loss)
        return float(self.etas[int(np.argmin(fl))]) if np.isfinite(fl).any() else math.nan

    @property
    def diverged(self) -> int:
        """How many swept runs diverged (``final_loss`` NaN)."""
        return int(np.isnan(self.final_loss).sum())


def tuning(stream: Stream, rescale: bool = True) -> Tuning:
    r"""The bound-minimising :math:`\eta^*` and a sweep of full runs over :math:`\eta`.

    99 rates :math:`0.01, 0.02, \dots, 0.99` (33 when :math:`T > 2000`), all run at once.  Outside the unit
    ball (not rescaled) a run whose loss passes :data:`DIVERGED` has diverged: its ``final_loss`` is NaN (a
    gap in the sweep's chart).
    """
    X, y, _ = _as_run(stream, bool(rescale))
    spec = widrow_hoff_spectrum(X, y)                 # once for the search and the sweep's bounds
    eta_best, bound_best = widrow_hoff_optimal_eta(X, y, spectrum=spec)
    etas = np.round(np.linspace(0.01, 0.99, 99 if X.shape[0] <= 2000 else 33), 4)
    with np.errstate(over="ignore", invalid="ignore"):    # outside the unit ball large η diverge: NaN below
        _, L = widrow_hoff_many(X, y, etas, history=False)
        final = L.sum(axis=1)
        final[~(np.abs(L) <= DIVERGED).all(axis=1) | ~(final <= DIVERGED)] = np.nan
    u_ls = widrow_hoff_clairvoyant(X, y)
    return Tuning(float(eta_best), float(bound_best), etas, final,
                  np.asarray(widrow_hoff_min(X, y, etas, spectrum=spec)),
                  float(np.sum((X @ u_ls - y) ** 2)), check_unit_ball(X),
                  np.asarray(widrow_hoff_min(X, y, SLIDER_ETAS, spectrum=spec)), float(y @ y))


# ---- one run at one eta -------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class WidrowHoffAnalysis:
    r"""Widrow-Hoff at one :math:`\eta` on one stream: the run, Theorem 1 and its proof.

    Attributes
    ----------
    eta : float
    X, y : arrays (T, d), (T,)
        The stream as run (divided by ``R`` when rescaled).
    R : float
        The factor the stream was divided by (1.0 when it was not).
    ball : UnitBallReport
        Theorem 1's assumption on the stream as run.
    trace : Trace
        The run (``weights`` (T+1, d): row s is :math:`\mathbf w_{s+1}`).
    theorem1 : BoundReport
        Theorem 1 with its curve over prefixes (the bound on rounds 1..t for every t).
    u_star, loss_u_star, norm_u_star_sq : the comparator minimising the bound (a ridge regression
        with :math:`\lambda=(1-\eta)/\eta`), its loss and squared norm.
    u_ls, cumulative_u_ls : the clairvoyant least-squares :math:`\mathbf u` and its loss after each round.
    potential (T+1,), potential_drop (T,), residual (T,) :math:`\ell_t`, comparator_residual (T,)
        :math:`g_t`, claim (T,) :math:`-\eta\ell_t^2+\frac{\eta}{1-\eta}g_t^2`, telescoped (T+1,)
        :math:`\Phi_1+\sum_{s<t}` claim: the proof's quantities for :math:`\mathbf u^*`.
    claim_violations : int
        Rounds where :math:`\Phi_{t+1}-\Phi_t` exceeds the claim (0 whenever :math:`\|\mathbf x_t\|\le 1`).
    u_true, noise : the generating vector and noise of a generated stream (None for an upload).
    """

    eta: float
    X: np.ndarray
    y: np.ndarray
    R: float
    ball: UnitBallReport
    trace: object
    theorem1: BoundReport
    u_star: np.ndarray
    loss_u_star: float
    norm_u_star_sq: float
    u_ls: np.ndarray
    cumulative_u_ls: np.ndarray
    potential: np.ndarray
    potential_drop: np.ndarray
    residual: np.ndarray
    comparator_residual: np.ndarray
    claim: np.ndarray
    telescoped: np.ndarray
    claim_violations: int
    u_true: np.ndarray | None
    noise: float | None

    @property
    def T(self) -> int:
        return int(self.X.shape[0])

    @property
    def d(self) -> int:
        return int(self.X.shape[1])

    @property
    def rescaled(self) -> bool:
        return self.R != 1.0

    @property
    def weights(self) -> np.ndarray:
        return self.trace.weights

    @property
    def cumulative(self) -> np.ndarray:
        """:math:`L_{WH}` after rounds 1..T."""
        return self.trace.cumulative_loss

    @property
    def loss(self) -> float:
        """:math:`L_{WH}` after the whole run."""
        return float(self.trace.cumulative_loss[-1])

    @property
    def clairvoyant_loss(self) -> float:
        r""":math:`\min_{\mathbf u} L_{\mathbf u}`."""
        return float(self.cumulative_u_ls[-1])

    @property
    def ridge_lambda(self) -> float:
        return (1.0 - self.eta) / self.eta

    @property
    def claim_holds(self) -> np.ndarray:
        r"""(T,) bool: round t's :math:`\Phi_{t+1}-\Phi_t` is at most the claim's bound, up to rounding (the
        test that counts ``claim_violations``)."""
        return self.potential_drop <= self.claim + _claim_tolerance(self.potential, self.claim)

    @property
    def telescoped_rhs(self) -> float:
        r""":math:`-\eta L_{WH} + \frac{\eta}{1-\eta} L_{\mathbf u^*}`: the telescoped claim."""
        return -self.eta * self.loss + self.eta / (1.0 - self.eta) * self.loss_u_star


def analyse(stream: Stream, eta: float, rescale: bool = True) -> WidrowHoffAnalysis:
    r"""Run Widrow-Hoff with rate ``eta`` on ``stream`` and evaluate Theorem 1 and its proof.

    Parameters
    ----------
    stream : Stream of kind ``"regression"``
    eta : float in (0, 1)
    rescale : bool, default=True
        Divide the stream by :math:`\max_t\|\mathbf x_t\|` first when it leaves the unit ball.
    """
    eta = check_param(eta, "eta", 0, 1, lo_open=True, hi_open=True)
    X, y, R = _as_run(stream, bool(rescale))
    with np.errstate(over="ignore", invalid="ignore"):
        tr = widrow_hoff(X, y, eta)
    err = _diverged(X, eta, tr.losses, tr.weights)
    if err is not None:
        raise err
    th = widrow_hoff_theorem(X, y, eta)
    q = proof_quantities(X, y, eta, th.u, trace=tr)
    u_ls = widrow_hoff_clairvoyant(X, y)
    L_wh = float(tr.cumulative_loss[-1])
    Lu, Nu = float(th.loss_u), float(th.norm_u_sq)
    ball = th.assumption
    value = float(_theorem1(Lu, Nu, eta))
    latex = (f"L_{{WH}} = {L_wh:.4f} \\;\\le\\; \\frac{{L_{{\\mathbf u^*}}}}{{1-\\eta}} + "
             f"\\frac{{\\|\\mathbf u^*\\|^2}}{{\\eta}} = \\frac{{{Lu:.4f}}}{{1-{eta:g}}} + \\frac{{{Nu:.4f}}}{{{eta:g}}}"
             f" = {Lu / (1 - eta):.4f} + {Nu / eta:.4f} = {value:.4f}")
    report = BoundReport(
        "Theorem 1 (Widrow-Hoff)", FORMULA_T1, value, curve=_prefix_curve_or_none(X, y, eta, ball.ok), latex=latex,
        numbers={"L_WH": L_wh, "L_u": Lu, "norm_u_sq": Nu, "eta": eta, "max_norm_x": ball.max_norm},
        applies=ball.ok, why_not="" if ball.ok else ball.message().replace("||x_t||", "‖x_t‖"),
        source=SOURCE_T1, statement=_STATEMENT_T1)
    phi = np.asarray(q["potential"])
    claim = np.asarray(q["claim_bound"])
    drop = np.asarray(q["potential_drop"])
    u_true = stream.info.get("u")
    return WidrowHoffAnalysis(
        eta=eta, X=X, y=y, R=R, ball=ball, trace=tr, theorem1=report, u_star=np.asarray(th.u),
        loss_u_star=Lu, norm_u_star_sq=Nu, u_ls=u_ls, cumulative_u_ls=np.cumsum((X @ u_ls - y) ** 2),
        potential=phi, potential_drop=drop, residual=np.asarray(q["residual"]),
        comparator_residual=np.asarray(q["comparator_residual"]), claim=claim,
        telescoped=phi[0] + np.r_[0.0, np.cumsum(claim)],
        claim_violations=int(np.sum(drop > claim + _claim_tolerance(phi, claim))),
        u_true=None if u_true is None else np.asarray(u_true, dtype=float),
        noise=None if u_true is None else float(stream.info.get("noise", 0.0)))


# ---- Theorem 2: online-to-batch -------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class OnlineToBatch:
    r"""Risk of the averaged vector :math:`\mathbf v_m` and of the last iterate :math:`\mathbf w_{m+1}`
    for m = 1..m_max, means over ``repeats`` independent samples with standard errors, against Theorem 2.

    ``exact_distribution`` is True for a generated stream (samples drawn from its distribution, risk
    measured on ``n_test`` held-out points, Theorem 2 with the exact risk) and False for an upload
    (the distribution is "one of the ``n_test`` rows at random", sampled with replacement).
    """

    eta: float
    m: np.ndarray
    mean_avg: np.ndarray
    se_avg: np.ndarray
    mean_last: np.ndarray
    se_last: np.ndarray
    best_risk: float
    n_test: int
    repeats: int
    exact_distribution: bool
    theorem2: BoundReport

    @property
    def m_max(self) -> int:
        return int(self.m[-1])


def online_to_batch(stream: Stream, eta: float, m_max: int, repeats: int, seed: int,
                    rescale: bool = True) -> OnlineToBatch:
    r"""The experiment of Theorem 2 on the distribution behind ``stream``.

    A generated stream (``info`` has ``u`` and ``noise``) is a sample of
    :math:`y = \mathbf u\cdot\mathbf x + N(0,\sigma^2)`, :math:`\mathbf x` uniform in the unit ball:
    training samples come from it, risks are measured on a held-out sample of up to 10,000 points
    (seeded from ``seed``), and Theorem 2 uses the exact risk
    :math:`R_{\mathbf u}=\|\mathbf u-\mathbf u_{true}\|^2/(d+2)+\sigma^2`.  Otherwise the
    distribution is the stream's rows (as run) drawn uniformly, and every risk is exact.
    """
    eta = check_param(eta, "eta", 0, 1, lo_open=True, hi_open=True)
    m_max = check_int(m_max, "m_max", 1, 100_000)
    repeats = check_int(repeats, "repeats", 2, 10_000)
    seed = check_seed(seed)
    u_true = stream.info.get("u")
    if u_true is not None:
        u_true = np.asarray(u_true, dtype=float)
        noise = float(stream.info.get("noise", 0.0))
        d = u_true.size
        held_seed = int(np.random.default_rng([seed, 511]).integers(2**32))
        held = regression(T=min(10_000, MAX_CELLS // d), d=d, seed=held_seed, noise=noise, u=u_true)
        c = _o2b.learning_curve(_o2b.regression_sampler(u_true, noise), _o2b.QuadraticRisk.from_sample(held.X, held.y),
                                eta, m_max, repeats, seed)
        exact = _o2b.QuadraticRisk.regression_stream(u_true, noise)
        bound = np.asarray(exact.theorem2(eta, c["m"]), dtype=float)
        best_risk = float(exact(u_true))
        n_test = held.T
        ball = check_unit_ball(held.X)
    else:
        X, y, _ = _as_run(stream, bool(rescale))
        pop = _o2b.QuadraticRisk.from_sample(X, y)
        with np.errstate(over="ignore", invalid="ignore"):      # outside the unit ball a run may diverge
            c = _o2b.learning_curve(_o2b.bootstrap_sampler(X, y), pop, eta, m_max, repeats, seed)
        err = _diverged(X, eta, *(c[k] for k in ("mean_avg", "se_avg", "mean_last", "se_last")))
        if err is not None:
            raise err
        bound = np.asarray(c["bound"], dtype=float)
        best_risk = float(c["best_risk"])
        n_test = X.shape[0]
        ball = check_unit_ball(X)
    mi = m_max - 1
    mean, se = float(c["mean_avg"][mi]), float(c["se_avg"][mi])
    latex = (f"m={m_max}:\\quad \\widehat{{\\mathbb E}}_S[R_{{\\mathbf v}}] = {mean:.4f} \\pm {2 * se:.4f}"
             f"\\;\\le\\; \\min_{{\\mathbf u}}\\Big(\\frac{{R_{{\\mathbf u}}}}{{1-{eta:g}}}+"
             f"\\frac{{\\|\\mathbf u\\|^2}}{{{eta:g}\\cdot{m_max}}}\\Big) = {bound[mi]:.4f}")
    report = BoundReport(
        "Theorem 2 (online-to-batch)", FORMULA_T2, float(bound[mi]), curve=bound, latex=latex,
        numbers={"m": m_max, "eta": eta, "mean_risk_avg": mean, "se_risk_avg": se, "best_risk": best_risk},
        applies=ball.ok, why_not="" if ball.ok else ball.message().replace("||x_t||", "‖x‖"),
        source=SOURCE_T2, statement=_STATEMENT_T2)
    return OnlineToBatch(eta, np.asarray(c["m"]), np.asarray(c["mean_avg"]), np.asarray(c["se_avg"]),
                         np.asarray(c["mean_last"]), np.asarray(c["se_last"]), best_risk, int(n_test),
                         int(repeats), u_true is not None, report)


# ---- additive vs multiplicative ------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class EgComparison:
    r"""EG and Widrow-Hoff on one stream whose target is a probability vector on ``k`` of ``n`` features.

    ``cum_eg``, ``cum_wh``, ``cum_u`` (T,): cumulative square loss of EG (rate ``eta_eg``), of
    Widrow-Hoff on :math:`\mathbf x/R` at its bound-minimising rate ``eta_wh``, and of the generating
    :math:`\mathbf u`; ``theorem1`` is Widrow-Hoff's Theorem 1 over prefixes (the notes prove no
    bound for EG); ``mass`` is the weight EG puts on the ``k`` relevant features after the run.
    """

    n: int
    k: int
    eta_eg: float
    eta_wh: float
    R: float
    cum_eg: np.ndarray
    cum_wh: np.ndarray
    cum_u: np.ndarray
    mass: float
    theorem1: BoundReport
    clipped: bool = False   # the bound-minimising η lay outside [0.01, 0.99]: eta_wh is the nearer end

    @property
    def T(self) -> int:
        return int(self.cum_eg.size)


def eg_vs_wh(n: int, eta_eg: float, seed: int, T: int = 300, k: int = 2, noise: float = 0.05) -> EgComparison:
    r"""Exponentiated gradient against Widrow-Hoff on :func:`olcore.streams.simplex_stream`.

    Widrow-Hoff needs :math:`\|\mathbf x\|\le 1`, so it runs on :math:`\mathbf x/R`,
    :math:`R=\max_t\|\mathbf x_t\|` (about :math:`\sqrt{n/3}`), at the :math:`\eta` minimising its
    Theorem 1 bound (clipped to [0.01, 0.99]).
    """
    n = check_int(n, "n", 1, 10_000)
    eta_eg = check_param(eta_eg, "eta_eg", 0, None, lo_open=True)
    s = simplex_stream(T=T, n=n, k=k, noise=noise, seed=seed)
    eg = exponentiated_gradient(s.X, s.y, eta_eg)
    Xs, R = to_unit_ball(s.X)
    spec = widrow_hoff_spectrum(Xs, s.y)              # once for the search and the theorem (n = 100: 1 ms each)
    eta_opt, _ = widrow_hoff_optimal_eta(Xs, s.y, spectrum=spec)
    eta_wh = float(min(max(eta_opt, 0.01), 0.99))
    wh = widrow_hoff(Xs, s.y, eta_wh)
    th = widrow_hoff_theorem(Xs, s.y, eta_wh, spectrum=spec)
    curve = _prefix_curve(Xs, s.y, eta_wh)
    L_wh = float(wh.cumulative_loss[-1])
    report = BoundReport(
        "Theorem 1 (Widrow-Hoff)", FORMULA_T1 + " (Widrow-Hoff)", float(th.bound), curve=curve,
        latex=f"L_{{WH}} = {L_wh:.4f} \\le {float(th.bound):.4f}",
        numbers={"L_WH": L_wh, "L_u": th.loss_u, "norm_u_sq": th.norm_u_sq, "eta": eta_wh, "R": float(R)},
        applies=th.assumption.ok, why_not="" if th.assumption.ok else th.assumption.message(),
        source=SOURCE_T1, statement=_STATEMENT_T1)
    return EgComparison(n, k, float(eta_eg), eta_wh, float(R), np.asarray(eg.cumulative_loss),
                        np.asarray(wh.cumulative_loss), np.cumsum((s.X @ s.info["u"] - s.y) ** 2),
                        float(eg.weights[-1][s.info["relevant"]].sum()), report, eta_wh != eta_opt)


# ---- Motivation 2 solved exactly: the implicit update, and the rate remark ------------------------------

@dataclass(frozen=True, eq=False)
class Implicit:
    r"""The explicit (notes') and implicit updates on one stream, and the loss rates over :math:`T`.

    ``rate_*`` (T,) are cumulative losses divided by the rounds so far: the explicit rule's
    :math:`L_{WH}(t)/t`, the implicit rule's, and :math:`L_{\mathbf u}(t)/t` for the clairvoyant
    least-squares :math:`\mathbf u` of the whole stream; ``rate_bound`` is Theorem 1 for that
    :math:`\mathbf u` divided by :math:`t`.  ``shrink`` (T,) is :math:`1/(1 + \eta\|\mathbf x_t\|^2)`,
    the factor by which the implicit step is shorter.
    """

    eta: float
    T: int
    d: int
    W_explicit: np.ndarray | None      # (T+1, 2) weights, kept for the plane only (d = 2)
    W_implicit: np.ndarray | None
    loss_explicit: np.ndarray          # (T,) cumulative square loss
    loss_implicit: np.ndarray
    u: np.ndarray
    rate_wh: np.ndarray
    rate_implicit: np.ndarray
    rate_u: np.ndarray
    rate_bound: BoundReport
    shrink: np.ndarray
    y_sq: float = 0.0          # Σ_t y_t², the loss of u = 0 (the scale below which a loss is rounding)


def implicit(stream: Stream, eta: float, rescale: bool = True) -> Implicit:
    r"""Motivation 2 of the notes solved exactly, beside the rule they use, and the rate remark.

    :math:`\mathbf w_{t+1} = \operatorname{argmin}_{\mathbf w}\,\eta(\mathbf w\cdot\mathbf x_t - y_t)^2 +
    \|\mathbf w - \mathbf w_t\|^2 = \mathbf w_t - \eta(\mathbf w_t\cdot\mathbf x_t - y_t)\mathbf x_t/(1 +
    \eta\|\mathbf x_t\|^2)`; the notes approximate :math:`\mathbf w_{t+1}` by :math:`\mathbf w_t` on the right and
    get the explicit rule.  Dividing Theorem 1 by :math:`T` for a fixed :math:`\mathbf u`:
    :math:`L_{WH}/T \le \frac{L_{\mathbf u}}{T}\frac{1}{1-\eta} + \frac{\|\mathbf u\|^2}{\eta T}`, so the
    rate of loss approaches :math:`L_{\mathbf u}/T` up to the factor :math:`1/(1-\eta)` (the bound holds for
    every prefix, a prefix being a stream).  The bound is drawn for the explicit rule only (the
    notes prove it for that one).
    """
    eta = check_param(eta, "eta", 0, 1, lo_open=True, hi_open=True)
    X, y, _ = _as_run(stream, bool(rescale))
    with np.errstate(over="ignore", invalid="ignore"):
        ex = widrow_hoff(X, y, eta)
    err = _diverged(X, eta, ex.losses, ex.weights)
    if err is not None:
        raise err
    im = widrow_hoff(X, y, eta, update="implicit")
    u = widrow_hoff_clairvoyant(X, y)
    t = np.arange(1, X.shape[0] + 1)
    Lu = np.cumsum((X @ u - y) ** 2)
    nu = float(u @ u)
    ball = check_unit_ball(X)
    curve = np.asarray(_theorem1(Lu, nu, eta)) / t
    report = BoundReport(
        "Theorem 1 divided by T", FORMULA_RATE, float(curve[-1]), curve=curve,
        numbers={"eta": eta, "norm_u_sq": nu, "L_u": float(Lu[-1]), "T": int(t[-1])}, applies=ball.ok,
        why_not="" if ball.ok else ball.message().replace("||x_t||", "‖x_t‖"), source=SOURCE_T1,
        statement=("**The rate remark.** Divide Theorem 1 by T for a fixed u: L_WH/T ≤ (L_u/T)/(1 − η) + ‖u‖²/(ηT). "
                   "As T grows the last term vanishes: Widrow-Hoff's rate of loss approaches u's, up to 1/(1 − η)."))
    plane = X.shape[1] == 2
    return Implicit(eta=eta, T=int(X.shape[0]), d=int(X.shape[1]), W_explicit=ex.weights if plane else None,
                    W_implicit=im.weights if plane else None, loss_explicit=ex.cumulative_loss,
                    loss_implicit=im.cumulative_loss, u=u, rate_wh=ex.cumulative_loss / t,
                    rate_implicit=im.cumulative_loss / t, rate_u=Lu / t, rate_bound=report,
                    shrink=1.0 / (1.0 + eta * np.einsum("td,td->t", X, X)), y_sq=float(y @ y))


# ---- the lecture's questions: answers computed from the run (olapp/content/widrow_hoff.py, LECTURE) ----------

def loss_share(a: WidrowHoffAnalysis, t: int) -> float:
    r""":math:`L_{WH}(t)/L_{WH}(T)`: the share of the whole run's square loss suffered in the first ``t``
    rounds (1 when the run has no loss at all)."""
    t = check_int(t, "t", 0, a.T)
    total = a.loss
    return 1.0 if total <= 0 else (float(a.cumulative[t - 1]) / total if t else 0.0)


def loss_share_band(a: WidrowHoffAnalysis, t: int, edges) -> int:
    """The band of :func:`loss_share` among ``edges`` (:func:`olcore.lessons.band`)."""
    from . import band

    return band(loss_share(a, t), edges)


def rate_ratio(a: WidrowHoffAnalysis, t: int) -> float:
    r"""The rate remark after ``t`` rounds: :math:`\dfrac{L_{WH}(t)/t}{L_{\mathbf u}(t)/t} = L_{WH}(t)/L_{\mathbf u}(t)`
    for the clairvoyant least-squares :math:`\mathbf u` of the whole stream (``inf`` if
    :math:`L_{\mathbf u}(t) = 0 < L_{WH}(t)`). Theorem 1 on the first ``t`` rounds bounds it by
    :math:`\frac{1}{1-\eta} + \frac{\|\mathbf u\|^2}{\eta L_{\mathbf u}(t)}`, which tends to
    :math:`1/(1-\eta)` as :math:`L_{\mathbf u}(t)` grows with :math:`t`."""
    t = check_int(t, "t", 1, a.T)
    wh, u = float(a.cumulative[t - 1]), float(a.cumulative_u_ls[t - 1])
    if u <= 0:
        return 1.0 if wh <= 0 else math.inf
    return wh / u


def rate_ratio_band(a: WidrowHoffAnalysis, t: int, edges) -> int:
    """The band of :func:`rate_ratio` among ``edges`` (:func:`olcore.lessons.band`)."""
    from . import band

    r = rate_ratio(a, t)
    return len(edges) - 1 if math.isinf(r) else band(r, edges)


def potential_rises(a: WidrowHoffAnalysis, t: int) -> int:
    r"""How many of the first ``t`` rounds raise the proof's potential,
    :math:`\#\{s \le t : \Phi_{s+1} > \Phi_s\}` with :math:`\Phi_s = \|\mathbf w_s - \mathbf u^*\|^2`.
    The proof's claim :math:`\Phi_{s+1} - \Phi_s \le -\eta\ell_s^2 + \frac{\eta}{1-\eta}g_s^2` allows a rise
    exactly when the comparator's loss :math:`g_s^2` is large against the learner's :math:`\ell_s^2`."""
    t = check_int(t, "t", 0, a.T)
    return int(np.sum(np.asarray(a.potential_drop)[:t] > 0))


def potential_rises_band(a: WidrowHoffAnalysis, t: int, edges) -> int:
    """The band of :func:`potential_rises` among ``edges`` (:func:`olcore.lessons.band`)."""
    from . import band

    return band(potential_rises(a, t), edges)
