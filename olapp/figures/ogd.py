"""Figures of the online gradient descent lesson on the shared style: the analysis in, ``go.Figure`` out.

Nothing here runs an algorithm or computes a bound; the builders draw what :mod:`olcore.lessons.ogd`
returns (the plane's contours of a round: :func:`~olcore.lessons.ogd.loss_grid_of`).  Presenter sizes are
applied by ``controls.chart``.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from olcore.lessons.ogd import ExpertsAnalysis, KSweep, OGDAnalysis, Sweep, contour_round, loss_grid_of

from .. import cache, theme
from . import RAW, Fig, figure, axes, bound_name, curves_with_bounds, downsample, log_ticks, scatter

__all__ = ["plane", "nonexp", "regret", "sweep", "potential", "per_round", "telescoping", "experts", "k_sweep"]

_FILL = "rgba(0,114,178,0.10)"


def _set_outline(a: OGDAnalysis) -> np.ndarray:
    """Points around the boundary of C in the plane (closed), or the simplex's segment."""
    name = type(a.domain).__name__
    if name == "Ball":
        th = np.linspace(0, 2 * np.pi, 160)
        return a.domain.radius * np.column_stack([np.cos(th), np.sin(th)])
    if name == "Box":
        h = a.domain.half_width
        return np.array([[-h, -h], [h, -h], [h, h], [-h, h], [-h, -h]])
    return np.array([[1.0, 0.0], [0.0, 1.0]])


def _move(p, q, name: str, colour: str) -> dict:
    """An arrow from p to q as a line trace with an arrow head (clipped to the axes like any trace)."""
    return scatter([p[0], q[0]], [p[1], q[1]], name, mode="lines+markers",
                   line=dict(color=colour, width=3),
                   marker=dict(symbol=["circle", "arrow"], angleref="previous", size=[6, 16], color=colour),
                   hovertemplate="(%{x:.4g}, %{y:.4g})<extra>" + name + "</extra>")


@figure(animated=True)
def plane(a: OGDAnalysis, t: int, height: int = 540) -> go.Figure:
    r"""The parameter plane after ``t`` rounds: C, contours of :math:`\sum_{s\le t}\ell_s`, the path
    :math:`\theta_1..\theta_{t+1}`, round t's gradient step and projection, and :math:`\theta^*`.

    The contours are :func:`olcore.lessons.ogd.loss_grid_of` of the run's rounds (shared by every session
    through the memo).  While a play is drawn (frames) they are those of the round
    :func:`~olcore.lessons.ogd.contour_round` gives (every T/20 rounds, the legend says which): the
    objective changes every round and a grid per frame would be megabytes; at rest, those of round t.
    The other traces' names do not hold the round (the caption says the round's distances): a frame then
    moves their points only."""
    fig = Fig()
    lim = a.plane_lim
    frame = RAW.get()       # drawing a play's frame
    of = contour_round(t, a.trace.T) if frame else int(t)
    if of > 0:
        grid = cache.memo(loss_grid_of, a.X, a.y, a.loss, of, lim)
        fig.add(dict(type="contour", x=grid.xs, y=grid.ys, z=grid.Z.astype(np.float32), name=f"Σ_(s≤{of}) ℓ_s(θ)",
                     contours=dict(coloring="lines", showlabels=True, labelfont=dict(size=10, color=theme.GREY)),
                     ncontours=14, colorscale=[[0, "#9a9a9a"], [1, "#9a9a9a"]], showscale=False, line=dict(width=1),
                     showlegend=True,
                     hovertemplate="θ = (%{x:.3g}, %{y:.3g})<br>Σ ℓ_s(θ) = %{z:.4g}<extra></extra>"))
    out = _set_outline(a)
    closed = type(a.domain).__name__ != "Simplex"
    fig.add(scatter(out[:, 0], out[:, 1], "C (the convex set)",
                    mode="lines", fill="toself" if closed else None, fillcolor=_FILL,
                    line=dict(color=theme.BLUE, width=2 if closed else 6), hoverinfo="skip"))
    W = a.trace.weights
    if frame:               # the run's own thinned path up to t: each frame a slice of the last
        k = downsample(a.trace.T + 1)
        k = k[k <= t]
    else:
        k = downsample(t + 1)
    fig.add(scatter(W[k, 0], W[k, 1], "θ_1, …, θ_(t+1)", mode="lines+markers",
                    line=dict(color=theme.BLUE, width=1.5), marker=dict(size=5, color=theme.BLUE),
                    customdata=k + 1, hovertemplate="θ_%{customdata} = (%{x:.4g}, %{y:.4g})<extra></extra>"))
    star = a.theta_star
    if t > 0:
        step = a.trace.extras["step"][t - 1]
        fig.add(scatter([step[0], star[0]], [step[1], star[1]], "‖θ̃ − θ*‖ (before Π_C)",
                        mode="lines", line=dict(color=theme.ORANGE, width=1.5, dash="dot"), hoverinfo="skip"),
                scatter([W[t, 0], star[0]], [W[t, 1], star[1]], "‖Π_C(θ̃) − θ*‖",
                        mode="lines", line=dict(color=theme.GREEN, width=1.5, dash="dot"), hoverinfo="skip"))
        fig.add(_move(W[t - 1], step, "round t: gradient step θ̃ = θ_t − η∇ℓ_t(θ_t)", theme.ORANGE))
        if a.projected[t - 1]:
            fig.add(_move(step, W[t], "round t: projection θ_(t+1) = Π_C(θ̃)", theme.GREEN))
    fig.add(scatter([star[0]], [star[1]], "θ* (best fixed point of C)", mode="markers",
                    marker=dict(symbol="star", size=18, color=theme.VERMILLION, line=dict(width=1, color="white")),
                    hovertemplate="θ* = (%{x:.4g}, %{y:.4g})<extra></extra>"))
    return fig.build({"title": {"text": "The parameter plane"}, "hovermode": "closest", **axes("θ₁", "θ₂", lim)},
                     height=height)


@figure(animated=True)
def nonexp(a: OGDAnalysis, t: int) -> go.Figure:
    r"""Non-expansiveness at :math:`\hat\theta = \theta^*`: :math:`\|\Pi_C(\tilde\theta_{t+1}) - \theta^*\|`
    under :math:`\|\tilde\theta_{t+1} - \theta^*\|` at every round."""
    return curves_with_bounds({"‖Π_C(θ̃_(t+1)) − θ*‖ = ‖θ_(t+1) − θ*‖": a.proj_dist},
                              {"‖θ̃_(t+1) − θ*‖ (before the projection)": a.step_dist}, t=t,
                              title="Projection never moves away from θ*", yaxis_title="distance to θ*")


@figure(animated=True)
def regret(a: OGDAnalysis, t: int) -> go.Figure:
    """The regret against the final θ* with the proof's curve and (at η*) the flat D G √T; dots: the prefix-best regret."""
    fig = curves_with_bounds({"R_t (against the final θ*)": a.regret}, [a.theorem, a.proof_bound], t=t,
                             title="Regret against its bounds", yaxis_title="regret")
    fig.add_trace(dict(type="scatter", x=a.prefix_rounds, y=a.regret_prefix, mode="markers",
                       name="R_t against each prefix's best θ", marker=dict(size=8, color=theme.SERIES[1]),
                       hovertemplate="t = %{x}<br>%{y:.4g}<extra></extra>"))
    fig.update_yaxes(rangemode="normal")
    return fig


@figure
def sweep(s: Sweep, eta: float | None = None) -> go.Figure:
    """Final regret against η (log x): mean over seeds, min–max band, the proof's bound (on its fine grid) with
    its minimum marked: D G √T at D/(G√T), G the largest over the seeds (``Sweep.bound_eta``)."""
    fig = Fig()
    c = theme.SERIES[0]
    e = s.etas
    fig.add(scatter(np.concatenate([e, e[::-1]]), np.concatenate([s.regrets.max(0), s.regrets.min(0)[::-1]]),
                    f"min–max over {s.regrets.shape[0]} seeds", fill="toself", mode="lines", line=dict(width=0),
                    fillcolor=c, opacity=0.2, hoverinfo="skip"),
            scatter(e, s.mean, "R_T: mean over seeds", mode="lines+markers", line=dict(color=c, width=3),
                    hovertemplate="η = %{x:.3g}<br>R_T = %{y:.4g}<extra></extra>"),
            scatter(s.bound_etas, s.bound_curve, bound_name("D²/(2η) + ηG²T/2"), mode="lines",
                    line=dict(color=theme.BOUND, dash="dash", width=2.5),
                    hovertemplate="η = %{x:.3g}<br>%{y:.4g}<extra></extra>"),
            scatter([s.bound_eta], [s.bound_min], "its minimum D G √T at η = D/(G√T)", mode="markers",
                    marker=dict(size=10, color=theme.BOUND), hovertemplate="η = %{x:.3g}<br>%{y:.4g}<extra></extra>"))
    fig.vline(float(s.bound_eta), "D/(G√T)", colour=theme.BOUND)
    if eta is not None and abs(np.log(eta / s.bound_eta)) > 1e-9:
        fig.vline(float(eta), "this run's η", side="left")
    lay = axes("step size η (log scale)", "final regret R_T")
    lay["xaxis"].update(type="log", **log_ticks(s.bound_etas))
    lay["yaxis"].update(range=[min(0.0, float(s.regrets.min()) * 1.1), float(s.bound.min()) * 2.5])
    return fig.build({"title": {"text": "Final regret against the step size"}, "hovermode": "closest", **lay},
                     height=420)


@figure(animated=True)
def potential(a: OGDAnalysis, t: int) -> go.Figure:
    """The proof's potential ‖θ_t − θ*‖² with D² above it."""
    r = np.arange(1, a.T + 2)
    idx = downsample(a.T + 1)
    fig = Fig()
    fig.add(scatter(r[idx], a.potential[idx], "‖θ_t − θ*‖²", mode="lines", line=dict(color=theme.BLUE, width=2.5),
                    hovertemplate="t = %{x}<br>%{y:.4g}<extra></extra>"),
            scatter([1, a.T + 1], [a.D ** 2] * 2, bound_name("D²"), mode="lines",
                    line=dict(color=theme.BOUND, width=2.5, dash="dash"), hovertemplate="%{y:.4g}"))
    fig.round_marker(t, rounds=a.T + 1)
    lay = axes("round t", "‖θ_t − θ*‖²")
    lay["yaxis"].update(rangemode="tozero")
    return fig.build({"title": {"text": "The proof's potential ‖θ_t − θ*‖²"}, **lay}, height=380)


@figure(animated=True)
def per_round(a: OGDAnalysis, t: int) -> go.Figure:
    """Each round's two sides of the proof's inequality."""
    r = np.arange(1, a.T + 1)
    idx = downsample(a.T)
    fig = Fig()
    fig.add(scatter(r[idx], a.gap_terms[idx], "ℓ_t(θ_t) − ℓ_t(θ*)", mode="markers",
                    marker=dict(size=5, color=theme.BLUE), hovertemplate="t = %{x}<br>%{y:.4g}<extra></extra>"),
            scatter(r[idx], a.proof_terms[idx], bound_name("(‖θ_t−θ*‖² − ‖θ_(t+1)−θ*‖²)/(2η) + (η/2)‖∇ℓ_t‖²"),
                    mode="lines", line=dict(color=theme.BOUND, width=1.5),
                    hovertemplate="t = %{x}<br>%{y:.4g}<extra></extra>"))
    fig.round_marker(t, rounds=a.T)
    return fig.build({"title": {"text": "The per-round inequality"}, "hovermode": "closest",
                      **axes("round t", "loss difference")}, height=380)


@figure(animated=True)
def telescoping(a: OGDAnalysis, t: int) -> go.Figure:
    """Regret under the telescoped sum under the proof's bound."""
    fig = curves_with_bounds({"R_t": a.regret},
                             {"Σ_(s≤t) right sides (telescoped)": np.cumsum(a.proof_terms),
                              a.proof_bound.formula: a.proof_bound.curve}, t=t,
                             title="Telescoping to the bound", yaxis_title="regret")
    fig.update_yaxes(rangemode="normal")
    return fig


@figure(animated=True)
def experts(e: ExpertsAnalysis, t: int | None = None) -> go.Figure:
    """Regrets of OGD on the simplex and Hedge on one loss matrix, each with its bound."""
    fig = curves_with_bounds({"OGD": e.ogd.regret, "Hedge": e.hedge.regret}, [e.ogd_bound, e.hedge_bound], t=t,
                             title="OGD on the simplex against Hedge", yaxis_title="regret")
    fig.update_yaxes(rangemode="normal")
    return fig


@figure
def k_sweep(k: KSweep) -> go.Figure:
    """Final regrets against K (log x): mean and min–max band per learner, with √(2KT) and √(2T ln K)."""
    fig = Fig()
    Ks = k.Ks.astype(float)
    for i, (name, A, b, formula) in enumerate([("OGD", k.ogd, k.ogd_bound, "√(2KT) (OGD)"),
                                               ("Hedge", k.hedge, k.hedge_bound, "√(2T ln K) (Hedge)")]):
        c = theme.SERIES[i]
        fig.add(scatter(np.concatenate([Ks, Ks[::-1]]), np.concatenate([A.max(0), A.min(0)[::-1]]),
                        f"{name}: min–max over {A.shape[0]} seeds", fill="toself", mode="lines", line=dict(width=0),
                        fillcolor=c, opacity=0.2, hoverinfo="skip"),
                scatter(Ks, A.mean(0), f"{name}: mean", mode="lines+markers", line=dict(color=c, width=3),
                        hovertemplate="K = %{x}<br>R_T = %{y:.4g}<extra></extra>"),
                scatter(Ks, b, bound_name(formula), mode="lines", line=dict(color=c, dash="dash", width=2),
                        hovertemplate="K = %{x}<br>%{y:.4g}<extra></extra>"))
    lay = axes("number of experts K (log scale)", "final regret R_T")
    lay["xaxis"].update(type="log", tickvals=Ks, ticktext=[f"{int(k)}" for k in Ks])
    return fig.build({"title": {"text": "Regret as the number of experts grows"}, "hovermode": "closest", **lay},
                     height=420)
