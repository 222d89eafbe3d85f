r"""The /ogd lesson's math: projected online gradient descent, its regret against :math:`DG\sqrt T`,
the proof's potential, the :math:`\eta` sweep, and OGD on the simplex against Hedge.

Pure functions of their settings (no streamlit, no plotly); every formula comes from
:mod:`olcore.oco` and :mod:`olcore.bounds`.  Source: Online gradient descent notes (OLA,
M. Castiglioni, Part 5).

Which regret is drawn
---------------------
:attr:`OGDAnalysis.regret` is the notes' definition: against the final :math:`\theta^*`, the best
fixed point of the **whole** stream, :math:`R_t = \sum_{s\le t}\ell_s(\theta_s) - \sum_{s\le t}\ell_s(\theta^*)`.
It is the quantity the proof telescopes (its potential is :math:`\|\theta_t - \theta^*\|^2`), so the
per-round inequality and the bound hold for it at every t; it may be negative early on.
:attr:`OGDAnalysis.regret_prefix` is against the best fixed point of each prefix,
:math:`\sum_{s\le t}\ell_s(\theta_s) - \min_{\theta\in\mathcal C}\sum_{s\le t}\ell_s(\theta)`: the regret
of a game stopped after t rounds, never below the first.  The proof bounds the regret against
every fixed comparator in :math:`\mathcal C`, so the bound curve holds for both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import bounds, oco, streams
from ..bounds import BoundReport
from ..errors import StreamError
from ..experts import hedge
from ..stream import Stream
from ..trace import Trace
from ..validate import check_int, check_param, check_seed

__all__ = ["SOURCES", "SOURCE", "make_stream", "OGDAnalysis", "analyse", "Sweep", "sweep",
           "ExpertsAnalysis", "experts", "KSweep", "k_sweep", "PREFIX_POINTS", "LossGrid", "loss_grid",
           "loss_grid_of", "contour_round", "contour_every", "CONTOUR_STEPS",
           "first_projection", "first_projection_band", "regret_share", "regret_share_band",
           "adversary_share", "LOWER_BOUND_SOURCE"]

SOURCE = "Online gradient descent notes"
#: The generated streams and the loss each is made for.
SOURCES = {"Separable": "logistic", "Noisy": "logistic", "Regression": "squared", "Adversarial": "linear"}
#: At most this many prefixes are solved for the prefix-best regret (rounds evenly spaced, last kept).
PREFIX_POINTS = 40
#: The lower bound is not in the notes (they stop at the upper bound and "better rates for more regular
#: functions"): it is Theorem 3.2 of the book the notes cite.
LOWER_BOUND_SOURCE = ("Hazan, Introduction to Online Convex Optimization (2016; 2nd ed. 2022, the book the notes "
                      "cite), Theorem 3.2: any algorithm has regret Ω(D G √T) in the worst case")


def make_stream(source: str = "Noisy", T: int = 200, noise: float = 0.1, seed: int = 0, d: int = 2) -> Stream:
    r"""A generated stream: ``"Separable"`` (margin 0.1), ``"Noisy"`` (labels flipped with probability
    ``noise``), ``"Regression"`` (:math:`y = u\cdot x + \varepsilon`, sd ``noise``) or ``"Adversarial"``
    (random-sign linear losses, :func:`olcore.streams.rademacher_linear`)."""
    if source == "Separable":
        return streams.separable(T=T, d=d, gamma=0.1, seed=seed)
    if source == "Noisy":
        return streams.separable(T=T, d=d, gamma=0.1, noise=noise, seed=seed)
    if source == "Regression":
        return streams.regression(T=T, d=d, noise=noise, seed=seed, norm_u=1.5)
    if source == "Adversarial":
        return streams.rademacher_linear(T=T, d=d, seed=seed)
    raise StreamError.bad("stream", repr(source), "one of " + ", ".join(SOURCES), label="This stream")


@dataclass(frozen=True, eq=False)
class OGDAnalysis:
    """One run of projected OGD with everything the lesson shows (see the module docstring)."""

    X: np.ndarray
    y: np.ndarray
    loss: str
    domain: object
    trace: Trace
    D: float
    G: float                     # a priori: max_t sup_C ||grad l_t||
    G_run: float                 # the notes' G: max_t ||grad l_t(theta_t)||
    eta: float
    eta_star: float
    tuned: bool
    theta_star: np.ndarray
    best_value: float
    best_gap: float
    regret: np.ndarray           # (T,) against the final theta*
    prefix_rounds: np.ndarray    # 1-based rounds where the prefix best was solved
    regret_prefix: np.ndarray    # regret against each prefix's best fixed point there
    theorem: BoundReport         # D G sqrt(T)
    proof_bound: BoundReport     # D^2/(2 eta) + (eta/2) sum ||grad||^2, a curve
    potential: np.ndarray        # (T+1,) ||theta_t - theta*||^2
    gap_terms: np.ndarray        # (T,) l_t(theta_t) - l_t(theta*)
    proof_terms: np.ndarray      # (T,) (pot_t - pot_{t+1})/(2 eta) + eta/2 ||grad_t||^2
    step_dist: np.ndarray        # (T,) ||theta_t - eta grad_t - theta*||
    proj_dist: np.ndarray        # (T,) ||theta_{t+1} - theta*||
    eta_mult: float = 1.0        # eta / eta*
    projected: np.ndarray = None  # (T,) bool: round t's gradient step left C (the projection moved it)
    plane_lim: float = 1.0       # half-width of a square view of the plane holding C, theta* and the path
    run_G_bound: float = 0.0     # D^2/(2 eta) + (eta/2) G_run^2 T: the proof's bound with the run's G, at this eta

    @property
    def T(self) -> int:
        return self.trace.T

    @property
    def slack(self) -> np.ndarray:
        r"""(T,) each round's slack in the proof's inequality: right side minus left side,
        :math:`\frac{\|\theta_t-\theta^*\|^2 - \|\theta_{t+1}-\theta^*\|^2}{2\eta} + \frac\eta2\|\nabla\ell_t\|^2
        - (\ell_t(\theta_t) - \ell_t(\theta^*))`, :math:`\ge 0` in exact arithmetic."""
        return self.proof_terms - self.gap_terms


#: Largest T·d for the hinge loss: its best fixed point is certified by a non-smooth solver whose
#: time grows steeply with the size (measured here: T·d = 2500 about 0.7 s a solve, 5000 up to 6 s,
#: 40000 over a minute, and a page needs about twenty solves).
HINGE_MAX_CELLS = 2500


def _check_hinge_size(loss: str, T: int, d: int) -> None:
    if loss == "hinge" and T * d > HINGE_MAX_CELLS:
        raise StreamError.bad(
            "rounds × dimension", f"T·d = {T}·{d} = {T * d:,} with the hinge loss",
            f"at most {HINGE_MAX_CELLS:,} for the hinge loss (its best fixed point θ* is certified to 1e-6, "
            "which takes minutes beyond that): fewer rounds or dimensions, or the logistic loss")


def _outside(C, theta: np.ndarray) -> float:
    """How far ``theta`` lies outside the set ``C`` (0 inside), from the set's own description: its projection
    loses the digits of a point of 10¹⁶ and more (the simplex's returns such a point as it is)."""
    if isinstance(C, oco.Ball):
        return max(float(np.linalg.norm(theta)) - C.radius, 0.0) / C.radius
    if isinstance(C, oco.Box):
        return max(float(np.abs(theta).max()) - C.half_width, 0.0) / C.half_width
    return max(-float(theta.min()), abs(float(theta.sum()) - 1.0), 0.0)         # the simplex


def _best_fixed(X, y, loss: str, C, tol: float = 1e-6, theta0=None, whole=None) -> oco.BestFixed:
    r""":func:`olcore.oco.solve_best_fixed`, checked: its :math:`\theta^*` finite and in :math:`\mathcal C`, else a
    message (:func:`_uncertified`, about the stream ``whole``, default ``X``).

    The search may overflow on its way where a loss is flat (features of 10⁶ and more: a logistic Newton direction
    of 1e159): what it returns is certified by a duality gap, so such a step costs time, not accuracy.  But a
    Newton step along a direction the loss is flat in can leave the simplex (a feature that is 0 in every round,
    others of 10⁴: θ* = (2.8e19, 0, 0) at the optimal value): such a θ* is projected into :math:`\mathcal C` and
    certified again by its Frank-Wolfe gap (smooth losses), or, when that fails, not used."""
    try:
        with np.errstate(over="ignore", invalid="ignore"):
            res = oco.solve_best_fixed(X, y, loss, C, tol, theta0=theta0)
    except StreamError as exc:
        if exc.field != "best_fixed":
            raise
        raise _uncertified(X if whole is None else whole, loss) from None
    th = np.asarray(res.theta, dtype=float)
    if np.isfinite(th).all() and math.isfinite(res.value):
        if _outside(C, th) <= 1e-9:
            return res
        p = C.project(th)
        if _outside(C, p) <= 1e-9 and loss in ("logistic", "squared"):
            value = float(oco.loss_values(X, y, p, loss).sum())
            g = oco.loss_gradients(X, y, p, loss).sum(axis=0)
            gap = max(float(g @ p + C.support(-g)), 0.0)
            if gap <= tol * max(1.0, abs(value)):
                return oco.BestFixed(p, value, gap, res.iterations)
    raise _uncertified(X if whole is None else whole, loss)


def _uncertified(X: np.ndarray, loss: str) -> StreamError:
    """The message when the best fixed point θ* cannot be certified (:func:`olcore.oco.solve_best_fixed` stops
    short of its 10⁻⁶ duality gap): features whose sizes differ by many orders of magnitude make the total loss
    very steep along some directions and nearly flat along others."""
    a = np.abs(X[X != 0])
    sizes = f" (its nonzero |x| range from {a.min():.3g} to {a.max():.3g})" if a.size else ""
    return StreamError(
        f"The best fixed point θ* of this stream{sizes} could not be certified to 10⁻⁶ of the total "
        f"{loss} loss, which the regret and the proof's numbers need: the loss is too steep along "
        "some directions and too flat along others. Rescale the columns so that their values have similar sizes "
        "(for example divide each by its largest |x|) and upload the stream again.", "best_fixed")



def analyse(stream: Stream, loss: str = "logistic", set_name: str = "ball", size: float = 1.0,
            eta: float | None = None, prefix_points: int = PREFIX_POINTS,
            eta_mult: float | None = None) -> OGDAnalysis:
    r"""Projected OGD on ``stream`` over the set ``set_name`` of radius / half-width ``size``.

    ``eta=None`` runs the theorem's :math:`\eta^* = D/(G\sqrt T)` with the a-priori
    :math:`G = \max_t\sup_{\theta\in\mathcal C}\|\nabla\ell_t(\theta)\|` (:func:`olcore.oco.gradient_bound`,
    known before the run, as the theorem needs); the run's own :math:`G_{run} = \max_t\|\nabla\ell_t(\theta_t)\|`
    (the notes' definition) is reported beside it, :math:`G_{run} \le G`.  ``eta_mult`` (instead of
    ``eta``) runs :math:`\eta = \text{eta\_mult}\cdot\eta^*`; ``eta_mult = 1`` is the theorem's step.
    """
    C = oco.domain(set_name, size)
    X, y = stream.X, stream.y
    if y is None:
        raise StreamError.bad("stream", "a loss matrix", "features and labels (kind 'linear', 'regression' or 'oco')",
                              label="This stream")
    T, d = X.shape
    _check_hinge_size(loss, T, d)
    D = C.diameter(d)
    with np.errstate(over="ignore"):    # the logistic's sigmoid 1/(1 + e^(-s)) at s far below 0: e^(-s) = inf, exactly 0
        G = oco.gradient_bound(X, y, loss, C)
    if D == 0:
        raise StreamError("The set C is a single point (its diameter D is 0"
                          + (": the simplex of one feature is θ = 1" if set_name == "simplex" and d == 1 else "")
                          + "), so OGD cannot move and has no regret to bound. "
                          + ("Upload a stream with at least two features, or choose another set."
                             if set_name == "simplex" else "Choose a radius above 0."), "size")
    if G == 0:
        raise StreamError("Every x of this stream is 0, so every round's loss is the same at every θ (the gradients "
                          "are 0, G = 0): OGD never moves and has no regret to bound. Upload a stream with a non-zero "
                          "feature.", "X")
    eta_star = bounds.ogd_eta(D, G, T)
    if eta_mult is not None:
        eta_mult = check_param(eta_mult, "eta_mult", 0, None, lo_open=True)
        eta = None if eta_mult == 1 else eta_mult * eta_star
    tuned = eta is None
    eta = eta_star if tuned else check_param(eta, "eta", 0, None, lo_open=True)
    tr = oco.projected_ogd(X, y, loss, eta, C)
    n = min(T, check_int(prefix_points, "prefix_points", 1))
    rounds = np.unique(np.linspace(1, T, n).round().astype(int))
    best = _best_fixed(X, y, loss, C)
    if loss == "linear":                                  # exact and vectorised
        prefix = oco.prefix_best(X, y, loss, C, rounds=rounds, tol=1e-6)
    else:                                                 # oco.prefix_best's warm-started solves, each checked
        prefix, theta = np.empty(rounds.size), None
        for j, t in enumerate(rounds):
            res = _best_fixed(X[:t], y[:t], loss, C, theta0=theta, whole=X)
            prefix[j], theta = res.value, res.theta
    star = best.theta
    regret = tr.cumulative_loss - np.cumsum(oco.loss_values(X, y, star, loss))
    regret_prefix = tr.cumulative_loss[rounds - 1] - prefix
    g2 = tr.extras["grad_norm"] ** 2
    G_run = float(tr.extras["grad_norm"].max())
    W = tr.weights
    pot = ((W - star) ** 2).sum(axis=1)
    gap_terms = tr.losses - oco.loss_values(X, y, star, loss)
    proof_terms = (pot[:-1] - pot[1:]) / (2 * eta) + eta / 2 * g2
    step_dist = np.linalg.norm(tr.extras["step"] - star, axis=1)
    projected = np.linalg.norm(tr.extras["step"] - W[1:], axis=1) > 1e-12
    extent = float(C.support(np.vstack([np.eye(d), -np.eye(d)])).max())   # how far C reaches along an axis
    far = max(extent, float(np.abs(star).max()), float(np.abs(W).max()))
    lim = float(min(1.15 * max(far, float(np.abs(tr.extras["step"]).max())), 2.5 * far))
    R_T = float(regret[-1])
    value = bounds.ogd_regret(D, G, T)
    at_star = abs(eta - eta_star) <= 1e-12 * eta_star
    theorem = BoundReport(
        "OGD regret bound", "D G √T", value,
        latex=(rf"R_T = {R_T:.4g} \le D\,G\sqrt{{T}} = {D:.3g}\cdot{G:.3g}\cdot\sqrt{{{T}}} = {value:.4g}"),
        numbers={"D": D, "G": G, "G_run": G_run, "T": T, "eta": eta, "eta_star": eta_star, "R_T": R_T},
        applies=at_star,
        why_not=("" if at_star else f"the theorem takes η = D/(G√T) = {eta_star:.4g}; this run uses "
                 f"η = {eta:.4g}. The proof's bound for any η (below) still holds."),
        source=f"{SOURCE}, Performance guarantees (Theorem)",
        statement=(r"**Theorem.** On a convex set of diameter $D$, with convex losses whose gradients satisfy "
                   r"$\|\nabla\ell_t(\theta_t)\| \le G$, online gradient descent with $\eta = D/(G\sqrt T)$ has "
                   r"regret $R_T \le DG\sqrt T$ (and so after every $t \le T$, since the proof gives "
                   r"$\frac{D^2}{2\eta} + \frac{\eta}{2}G^2t \le DG\sqrt T$)."))
    curve = bounds.ogd_proof_bound(D, eta, np.cumsum(g2))
    proof_bound = BoundReport(
        "OGD regret bound for any η", "D²/(2η) + (η/2) Σ‖∇ℓₛ‖²", float(curve[-1]), curve=curve,
        latex=(rf"R_T = {R_T:.4g} \le \frac{{D^2}}{{2\eta}} + \frac{{\eta}}{{2}}\sum_t\|\nabla\ell_t(\theta_t)\|^2"
               rf" = \frac{{{D:.3g}^2}}{{2\cdot{eta:.3g}}} + \frac{{{eta:.3g}}}{{2}}\cdot{g2.sum():.4g} = {curve[-1]:.4g}"),
        numbers={"D": D, "eta": eta, "sum_grad_sq": float(g2.sum()), "R_T": R_T},
        source=f"{SOURCE}, Performance guarantees (proof)",
        statement=(r"**From the proof, for any $\eta > 0$** and any fixed $\theta^*\in\mathcal C$, after every "
                   r"round $t$: $\sum_{s\le t}\ell_s(\theta_s) - \ell_s(\theta^*) \le \frac{D^2}{2\eta} + "
                   r"\frac\eta2\sum_{s\le t}\|\nabla\ell_s(\theta_s)\|^2$."))
    return OGDAnalysis(X=X, y=y, loss=loss, domain=C, trace=tr, D=D, G=G, G_run=G_run, eta=float(eta),
                       eta_star=float(eta_star), tuned=tuned, theta_star=star, best_value=best.value,
                       best_gap=best.gap, regret=regret, prefix_rounds=rounds, regret_prefix=regret_prefix,
                       theorem=theorem, proof_bound=proof_bound, potential=pot, gap_terms=gap_terms,
                       proof_terms=proof_terms, step_dist=step_dist, proj_dist=np.sqrt(pot[1:]),
                       eta_mult=float(eta / eta_star), projected=projected, plane_lim=lim,
                       run_G_bound=float(bounds.ogd_regret_eta(D, G_run, T, eta)))


@dataclass(frozen=True, eq=False)
class Sweep:
    r"""Final regret R_T over step sizes and seeds: ``regrets[s, j]`` for seed s at ``etas[j]``.

    ``bound`` is the proof's :math:`D^2/(2\eta) + \eta G^2T/2` with :math:`G` = ``G``, the largest a-priori
    :math:`G` over the seeds (so it bounds every seed's regret); it is smallest, :math:`DG\sqrt T` =
    ``bound_min``, at :math:`\eta = D/(G\sqrt T)` = ``bound_eta``, which is seed 0's :math:`\eta^*` only when
    seed 0 has the largest :math:`G`.  ``bound_etas``/``bound_curve``: the same curve on a fine grid holding
    ``etas`` and ``bound_eta`` (what is drawn: its lowest point is the marked one)."""

    etas: np.ndarray
    regrets: np.ndarray
    eta_star: np.ndarray          # per seed
    bound: np.ndarray             # D^2/(2 eta) + eta G^2 T / 2 with the largest G over the seeds, per eta
    theorem: np.ndarray           # D G sqrt(T) per seed
    D: float = 0.0
    G: float = 0.0                # the largest a-priori G over the seeds
    T: int = 0
    bound_eta: float = 0.0        # D / (G sqrt T): where the dashed curve is smallest
    bound_min: float = 0.0        # D G sqrt(T): its smallest value
    bound_etas: np.ndarray = None
    bound_curve: np.ndarray = None

    @property
    def mean(self) -> np.ndarray:
        return self.regrets.mean(axis=0)

    @property
    def best_eta(self) -> float:
        return float(self.etas[int(np.argmin(self.mean))])


def sweep(source: str = "Noisy", T: int = 200, noise: float = 0.1, loss: str = "logistic", set_name: str = "ball",
          size: float = 1.0, seeds=(0, 1, 2, 3, 4), n_eta: int = 13, span: float = 64.0, d: int = 2) -> Sweep:
    r"""Final regret at :math:`n_\eta` step sizes log-spaced over :math:`[\eta^*/\sqrt{span}, \eta^*\sqrt{span}]`
    (:math:`\eta^*` of the first seed), on the stream ``source`` for each seed.  ``bound`` is the proof's
    :math:`D^2/(2\eta) + \eta G^2T/2` with the largest a-priori :math:`G` over the seeds, so it holds for each."""
    seeds = [check_seed(s) for s in seeds]
    n_eta = check_int(n_eta, "n_eta", 2, 60)
    _check_hinge_size(loss, int(T), int(d))
    C = oco.domain(set_name, size)
    streams_ = [make_stream(source, T, noise, s, d) for s in seeds]
    Gs = np.array([oco.gradient_bound(s.X, s.y, loss, C) for s in streams_])
    D = C.diameter(streams_[0].k)
    stars = np.array([bounds.ogd_eta(D, g, T) for g in Gs])
    etas = stars[0] * np.geomspace(1 / np.sqrt(span), np.sqrt(span), n_eta)
    regrets = np.empty((len(seeds), n_eta))
    for i, s in enumerate(streams_):
        best = oco.solve_best_fixed(s.X, s.y, loss, C).value
        for j, e in enumerate(etas):
            regrets[i, j] = oco.projected_ogd(s.X, s.y, loss, e, C).total_loss - best
    G = float(Gs.max())
    at = float(bounds.ogd_eta(D, G, T))
    fine = np.concatenate([etas, np.geomspace(min(etas[0], at), max(etas[-1], at), 121)])
    fine = np.unique(np.append(fine[np.abs(fine / at - 1) > 1e-9], at))     # at itself, not a neighbour 1 ulp off
    return Sweep(etas=etas, regrets=regrets, eta_star=stars, bound=bounds.ogd_regret_eta(D, G, T, etas),
                 theorem=bounds.ogd_regret(D, Gs, T), D=float(D), G=G, T=int(T), bound_eta=at,
                 bound_min=float(bounds.ogd_regret(D, G, T)), bound_etas=fine,
                 bound_curve=bounds.ogd_regret_eta(D, G, T, fine))


@dataclass(frozen=True, eq=False)
class ExpertsAnalysis:
    """OGD on the simplex and Hedge on one loss matrix, each at its theorem's step size."""

    L: np.ndarray
    ogd: Trace
    hedge: Trace
    eta_ogd: float
    eta_hedge: float
    ogd_bound: BoundReport
    hedge_bound: BoundReport


def experts(T: int = 500, K: int = 10, seed: int = 0, gap: float = 0.1) -> ExpertsAnalysis:
    r"""OGD on the simplex (:math:`\eta = \sqrt{2/(KT)}`) and Hedge (:math:`\eta = \sqrt{2\ln K/T}`) on one
    Bernoulli loss matrix: one good expert with mean loss 0.5 - ``gap``, the others 0.5."""
    T = check_int(T, "T", 1, streams.MAX_ROUNDS)
    K = check_int(K, "K", 2, 1000)
    means = np.full(K, 0.5)
    means[np.random.default_rng(check_seed(seed)).integers(K)] = 0.5 - check_param(gap, "gap", 0, 0.5)
    L = streams.loss_matrix(T=T, n=K, seed=seed, means=means).X.astype(float)
    eo = bounds.ogd_eta(np.sqrt(2), np.sqrt(K), T)
    eh = bounds.hedge_eta(T, K)
    o, h = oco.simplex_ogd(L, eo, seed=seed), hedge(L, eh, seed=seed)
    vo, vh = bounds.simplex_ogd_regret(K, T), bounds.hedge(T, K)
    ob = BoundReport("OGD on the simplex", "√(2KT) (OGD)", vo,
                     latex=rf"R_T = {o.regret[-1]:.4g} \le \sqrt{{2KT}} = \sqrt{{2\cdot{K}\cdot{T}}} = {vo:.4g}",
                     numbers={"K": K, "T": T, "eta": eo}, source=f"{SOURCE}, Online gradient descent for the expert problem",
                     statement=r"OGD on the simplex: $D = \sqrt2$, $G \le \sqrt K$, so $R_T \le \sqrt{2KT}$ at "
                               r"$\eta = \sqrt{2/(KT)}$: $O(\sqrt{KT})$.")
    hb = BoundReport("Hedge", "√(2T ln K) (Hedge)", vh,
                     latex=rf"R_T = {h.regret[-1]:.4g} \le \sqrt{{2T\ln K}} = {vh:.4g}",
                     numbers={"K": K, "T": T, "eta": eh}, source="UCL COMP0078, Online learning: Hedge - Theorem",
                     statement=r"Hedge (UCL notes) at $\eta = \sqrt{2\ln K/T}$: $R_T \le \sqrt{2T\ln K}$. "
                               r"(The OGD notes add that mirror descent, a generalisation of gradient descent, "
                               r"recovers this rate, and leave it out of the course.)")
    return ExpertsAnalysis(L=L, ogd=o, hedge=h, eta_ogd=float(eo), eta_hedge=float(eh), ogd_bound=ob, hedge_bound=hb)


@dataclass(frozen=True, eq=False)
class KSweep:
    """Final regrets of simplex OGD and Hedge over numbers of experts K (``ogd[s, j]`` for seed s)."""

    Ks: np.ndarray
    ogd: np.ndarray
    hedge: np.ndarray
    ogd_bound: np.ndarray
    hedge_bound: np.ndarray


def k_sweep(T: int = 500, Ks=(2, 4, 8, 16, 32, 64, 128), seeds=(0, 1, 2), gap: float = 0.1) -> KSweep:
    r"""Final regret of both against :math:`K`: the bounds :math:`\sqrt{2KT}` and :math:`\sqrt{2T\ln K}`."""
    Ks = np.array([check_int(k, "K", 2, 1000) for k in Ks])
    og = np.empty((len(seeds), len(Ks)))
    he = np.empty_like(og)
    for i, s in enumerate(seeds):
        for j, K in enumerate(Ks):
            a = experts(T, int(K), s, gap)
            og[i, j], he[i, j] = a.ogd.regret[-1], a.hedge.regret[-1]
    return KSweep(Ks=Ks, ogd=og, hedge=he, ogd_bound=bounds.simplex_ogd_regret(Ks, T), hedge_bound=bounds.hedge(T, Ks))


@dataclass(frozen=True, eq=False)
class LossGrid:
    r"""The cumulative loss :math:`\sum_{s\le t}\ell_s(\theta)` on a square grid of the plane (d = 2)."""

    xs: np.ndarray
    ys: np.ndarray
    Z: np.ndarray       # Z[i, j] at theta = (xs[j], ys[i])
    t: int


def _loss_only(loss: str, z: np.ndarray, y: np.ndarray) -> np.ndarray:
    """ℓ(z, y) elementwise, the formulas of :mod:`olcore.oco` without the gradients (fast contours)."""
    if loss == "logistic":
        return np.logaddexp(0.0, -y * z)
    if loss == "hinge":
        return np.maximum(0.0, 1.0 - y * z)
    if loss == "squared":
        return (z - y) ** 2
    return y * z


def loss_grid(stream: Stream, loss: str, t: int, lim: float, n: int = 61) -> LossGrid:
    r""":math:`\sum_{s\le t}\ell_s(\theta)` for :math:`\theta` on an ``n`` × ``n`` grid of
    :math:`[-lim, lim]^2` (the contours of the comparator's objective after t rounds)."""
    return loss_grid_of(stream.X, stream.y, loss, t, lim, n)


def loss_grid_of(X: np.ndarray, y: np.ndarray, loss: str, t: int, lim: float, n: int = 61) -> LossGrid:
    r""":func:`loss_grid` of the rounds ``(X, y)`` (a run's own arrays: :class:`OGDAnalysis` ``X``, ``y``)."""
    X, y = np.asarray(X), np.asarray(y)
    if X.ndim != 2 or X.shape[1] != 2:
        raise StreamError.bad("d", str(X.shape[-1]), "2 features for the parameter plane", label="The dimension d")
    t = check_int(t, "t", 0, X.shape[0])
    n = check_int(n, "n", 2, 400)
    xs = np.linspace(-lim, lim, n)
    P = np.stack(np.meshgrid(xs, xs), axis=-1).reshape(-1, 2)
    Z = np.zeros(len(P))
    if t:
        oco.loss_values(X[:1], y[:1], np.zeros(2), loss)     # the labels fit the loss (else a StreamError)
        for lo in range(0, t, 256):                         # blocks of rounds: memory O(n² · 256)
            Z += _loss_only(loss, P @ X[lo:min(t, lo + 256)].T, y[lo:min(t, lo + 256)]).sum(axis=1)
    return LossGrid(xs=xs, ys=xs, Z=Z.reshape(n, n), t=t)


#: While a play is drawn, the plane's contours are those of every ``T / CONTOUR_STEPS``-th round.
CONTOUR_STEPS = 20


def contour_every(T: int, steps: int = CONTOUR_STEPS) -> int:
    r"""Rounds between two contours of a play: :math:`\lceil T/\text{steps}\rceil` (at least 1)."""
    return max(1, -(-int(T) // max(1, int(steps))))


def contour_round(t: int, T: int, steps: int = CONTOUR_STEPS) -> int:
    r"""The round whose contours :math:`\sum_{s\le k}\ell_s` a play's frame at round ``t`` draws: the last
    multiple of :func:`contour_every` at or before ``t`` (``T`` itself at the end).  The objective
    changes every round, and a grid per frame would be megabytes; ``steps + 1`` grids are not."""
    t, T = int(t), int(T)
    if t >= T:
        return T
    every = contour_every(T, steps)
    return (t // every) * every


# -- the lecture's answers (olapp/content/ogd.py, LECTURE): computed from the run, never typed in ----------

def first_projection(a: OGDAnalysis) -> int:
    r"""The first round :math:`t` whose gradient step :math:`\theta_t - \eta\nabla\ell_t(\theta_t)` leaves
    :math:`\mathcal C`, so that :math:`\theta_{t+1} = \Pi_{\mathcal C}(\cdot)` moves it back (1-based; 0 if no
    step of the run leaves :math:`\mathcal C`).

    Each step moves :math:`\theta` by :math:`\eta\|\nabla\ell_t(\theta_t)\| \le \eta G`, so from
    :math:`\theta_1 = \Pi_{\mathcal C}(0)` the boundary of a ball of radius :math:`r` is reached no earlier than
    round :math:`\lceil r/(\eta G)\rceil`; at :math:`\eta^* = D/(G\sqrt T)` that is :math:`r\sqrt T/D`.
    """
    hit = np.flatnonzero(a.projected)
    return int(hit[0]) + 1 if hit.size else 0


def first_projection_band(a: OGDAnalysis, edges) -> int:
    r"""The band of :func:`first_projection` among increasing round ``edges`` (:func:`olcore.lessons.band`),
    or ``len(edges)`` when no step leaves :math:`\mathcal C` (the "never" option)."""
    from . import band

    first = first_projection(a)
    return len(edges) if first == 0 else band(first, edges)


def adversary_share(T: int) -> float:
    r"""Every learner's expected regret on :func:`olcore.streams.rademacher_linear` in a box, as a fraction of
    :math:`DG\sqrt T`: :math:`\mathbb E|S_T|/(2\sqrt T)`, :math:`S_T` a sum of :math:`T` fair :math:`\pm1` signs.

    Whatever :math:`\theta_t` is played, :math:`\mathbb E[y_t\,\theta_t\cdot x_t] = 0` (:math:`y_t` is a fresh
    fair sign), while the best fixed point of :math:`[-h, h]^d` gains :math:`h\|\sum_t y_tx_t\|_1`, whose
    coordinates are :math:`S_T/\sqrt d` in law; with :math:`D = 2h\sqrt d` and :math:`G = 1`,
    :math:`\mathbb E[R_T] = h\sqrt d\,\mathbb E|S_T| = \frac{\mathbb E|S_T|}{2\sqrt T}\,DG\sqrt T` for every
    learner, for every :math:`h` and :math:`d`.  Exactly :math:`\mathbb E|S_T| = T\binom{T-1}{\lfloor(T-1)/2\rfloor}2^{1-T}`,
    which tends to :math:`\sqrt{2T/\pi}`: the share tends to :math:`1/\sqrt{2\pi} \approx 0.40`.  This is the
    construction of the lower bound :data:`LOWER_BOUND_SOURCE` (beyond the notes)."""
    T = check_int(T, "T", 1, streams.MAX_ROUNDS)
    m = (T - 1) // 2
    log_abs = math.log(T) + math.lgamma(T) - math.lgamma(m + 1) - math.lgamma(T - m) + (1 - T) * math.log(2)
    return float(math.exp(log_abs) / (2 * math.sqrt(T)))


def regret_share(a: OGDAnalysis) -> float:
    r""":math:`R_T/(DG\sqrt T)`: the final regret against the best fixed :math:`\theta^*\in\mathcal C`, as a
    fraction of the theorem's bound (at :math:`\eta = \eta^*` the theorem says it is at most 1; at any other
    :math:`\eta` the proof's :math:`D^2/(2\eta) + (\eta/2)\sum_t\|\nabla\ell_t\|^2` bounds it instead)."""
    return float(a.regret[-1] / a.theorem.value)


def regret_share_band(a: OGDAnalysis, edges) -> int:
    r"""The band of :func:`regret_share` among increasing ``edges`` (:func:`olcore.lessons.band`); a negative
    regret counts in the first band."""
    from . import band

    return max(band(regret_share(a), edges), 0)
