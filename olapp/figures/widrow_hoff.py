"""Figures of the Widrow-Hoff lesson, in the one style of :mod:`olapp.figures`.

Plain functions from arrays (and :class:`olcore.report.BoundReport`) to ``go.Figure``: no
Streamlit, no olcore runs.  Every bound is a trace named ``"bound: <formula>"``; the round
marker is :meth:`Fig.round_marker`; the legend is the template's (below the plot).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
import plotly.graph_objects as go

from olcore.lessons.widrow_hoff import FORMULA_T1, FORMULA_T2, Implicit, OnlineToBatch
from olcore.bounds import BoundReport

from .. import theme
from . import Fig, figure, axes, bound_name, curves_with_bounds, downsample, log_ticks, scatter

__all__ = ["BOUND_T1", "BOUND_T2", "BOUND_CLAIM", "BOUND_TELESCOPED", "WH", "CLAIRVOYANT", "PHI", "DROP",
           "AVERAGED", "LAST", "BAND", "EG", "WH_EG", "U_EG",
           "weight_plane", "weights_over_time", "cumulative_loss", "eta_sweep", "potential", "online_to_batch",
           "additive_vs_multiplicative", "EXPLICIT", "IMPLICIT", "RATE_U", "implicit_plane", "implicit_losses",
           "rates"]

#: Legend formulas (the trace names are ``bound: <formula>``).
BOUND_T1 = FORMULA_T1
BOUND_T2 = FORMULA_T2
BOUND_CLAIM = "−η ℓ_t² + η/(1−η) g_t²"
BOUND_TELESCOPED = "Φ₁ + Σ_{s<t} (−η ℓ_s² + η/(1−η) g_s²)"
#: Curve names (tests find traces by them).
WH = "Widrow-Hoff L_WH(t)"
CLAIRVOYANT = "clairvoyant L_u(t) (least-squares u)"
PHI = "Φ_t = ‖w_t − u*‖²"
DROP = "Φ_{t+1} − Φ_t"
AVERAGED = "averaged v = (1/m) Σ w_t  (mean risk)"
LAST = "last iterate w_{m+1}  (mean risk)"
BAND = "±2 standard errors"
EG = "EG (multiplicative)"
WH_EG = "Widrow-Hoff (additive; x rescaled into the unit ball)"
U_EG = "the sparse u that generated y"
EXPLICIT = "explicit: w − η(w·x − y)x"
IMPLICIT = "implicit: w − η(w·x − y)x/(1 + η‖x‖²)"
RATE_U = "L_u(t)/t (least-squares u)"

#: Loss contours: darker blue is lower loss (explicit: plotly.js and plotly.py disagree on "Blues").
_BOWL = [[0.0, "rgb(33,113,181)"], [0.35, "rgb(107,174,214)"], [0.7, "rgb(198,219,239)"], [1.0, "rgb(247,251,255)"]]


def _loss_surface(X: np.ndarray, y: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """L(w) = sum_t (w.x_t - y_t)^2 on a grid, from the stream's moments (d = 2)."""
    A = X.T @ X
    b = X.T @ y
    c = float(y @ y)
    W1, W2 = np.meshgrid(xs, ys)
    return A[0, 0] * W1**2 + 2 * A[0, 1] * W1 * W2 + A[1, 1] * W2**2 - 2 * (b[0] * W1 + b[1] * W2) + c


@figure(animated=True)
def weight_plane(X: ArrayLike, y: ArrayLike, W: ArrayLike, t: int, *, u_ls=None, u_star=None, height: int = 600) -> go.Figure:
    r"""The weight plane (d = 2): contours of the whole stream's loss and the trajectory w_1..w_{t+1}.

    ``W`` (T+1, 2): row ``s`` is :math:`\mathbf w_{s+1}`; ``t`` rounds played (0..T).  With
    ``u_star`` a dotted circle of radius :math:`\sqrt{\Phi_{t+1}} = \|\mathbf w_{t+1} - \mathbf u^*\|`
    is drawn around it.
    """
    X, y, W = (np.asarray(a, float) for a in (X, y, W))
    t = int(min(max(t, 0), W.shape[0] - 1))
    P = np.vstack([W, np.zeros((1, 2))] + [np.asarray(p, float)[None, :] for p in (u_ls, u_star) if p is not None])
    lo, hi = P.min(axis=0), P.max(axis=0)
    half = 0.6 * max(float((hi - lo).max()), 0.5)
    mid = (lo + hi) / 2
    xs = np.linspace(mid[0] - half, mid[0] + half, 90)
    ys = np.linspace(mid[1] - half, mid[1] + half, 90)
    Z = _loss_surface(X, y, xs, ys)
    zmin = float(Z.min())
    fig = Fig()
    fig.add(dict(type="contour", x=xs, y=ys, z=np.log10(Z - zmin + 1e-3 * (Z.max() - zmin) + 1e-12),
                 colorscale=_BOWL, showscale=False, contours=dict(coloring="heatmap", showlines=True),
                 line=dict(width=0.5), opacity=0.7, name="loss of the whole stream", customdata=Z,
                 hovertemplate="w = (%{x:.4f}, %{y:.4f})<br>L(w) = %{customdata:.6g}<extra>loss contours</extra>"))
    idx = np.arange(t + 1)
    if idx.size > 400:
        idx = np.unique(np.r_[downsample(t + 1, 400), t])
    path = W[idx]
    # The traces' names and hover texts do not depend on t (the round is in the title and the hover): a
    # frame of Play then moves their points alone instead of redrawing the contours.  A dot per step while
    # the steps can be told apart; a long path is a line, cheaper to redraw.
    fig.add(scatter(path[:, 0], path[:, 1], "trajectory w_1, w_2, …", mode="lines+markers" if t < 250 else "lines",
                    line=dict(color=theme.ORANGE, width=2), marker=dict(size=4, color=theme.ORANGE),
                    customdata=idx + 1, hovertemplate="w_%{customdata} = (%{x:.6g}, %{y:.6g})<extra></extra>"))
    fig.add(scatter([W[t, 0]], [W[t, 1]], "the weights now", mode="markers",
                    marker=dict(size=14, color=theme.VERMILLION, line=dict(width=1.5, color="white")),
                    customdata=[t + 1], hovertemplate="w_%{customdata} = (%{x:.6g}, %{y:.6g})<extra></extra>"))
    if u_ls is not None:
        fig.add(scatter([u_ls[0]], [u_ls[1]], "clairvoyant u (least squares)", mode="markers",
                        marker=dict(symbol="star", size=18, color=theme.GREEN, line=dict(width=1, color="black")),
                        hovertemplate="least-squares u = (%{x:.6g}, %{y:.6g})<extra></extra>"))
    if u_star is not None:
        fig.add(scatter([u_star[0]], [u_star[1]], "u* (minimises the bound)", mode="markers",
                        marker=dict(symbol="diamond", size=13, color=theme.PURPLE, line=dict(width=1, color="black")),
                        hovertemplate="bound-minimising u* = (%{x:.6g}, %{y:.6g})<extra></extra>"))
        r = float(np.linalg.norm(W[t] - np.asarray(u_star, float)))
        a = np.linspace(0, 2 * np.pi, 121)
        fig.add(scatter(u_star[0] + r * np.cos(a), u_star[1] + r * np.sin(a), "radius ‖w − u*‖ = √Φ, the potential",
                        mode="lines", line=dict(color=theme.PURPLE, width=1.5, dash="dot"),
                        customdata=np.full(a.size, r), hovertemplate="‖w − u*‖ = √Φ = %{customdata:.3g}<extra></extra>"))
        title = f"Weight plane after {t} round(s): ‖w_{t + 1} − u*‖ = {r:.3g}"
    else:
        title = f"Weight plane after {t} round(s)"
    lay = axes("w₁ (weight of feature 1)", "w₂ (weight of feature 2)")
    lay["xaxis"].update(range=[xs[0], xs[-1]], constrain="domain")
    lay["yaxis"].update(range=[ys[0], ys[-1]], scaleanchor="x", scaleratio=1, constrain="domain")
    return fig.build({"title": {"text": title}, "hovermode": "closest", **lay}, height=height)


@figure(animated=True)
def weights_over_time(W: ArrayLike, t: int, u_ls=None, *, height: int = 420) -> go.Figure:
    """For d != 2: the first four coordinates of w_t over rounds, the least-squares u's dotted."""
    W = np.asarray(W, float)
    T1, d = W.shape
    idx = downsample(T1)
    fig = Fig()
    show = min(d, 4)  # more lines than this is spaghetti on a projector
    for i in range(show):
        c = theme.SERIES[i % len(theme.SERIES)]
        fig.add(scatter(idx + 1, W[idx, i], f"w_t[{i + 1}]", mode="lines", line=dict(color=c, width=2),
                        hovertemplate="%{y:.6g}"))
        if u_ls is not None:
            fig.add(scatter([1, T1], [u_ls[i]] * 2,
                            "least-squares u (dotted, same colour)" if i == 0 else f"least-squares u[{i + 1}]",
                            mode="lines", line=dict(color=c, width=1.5, dash="dot"), hovertemplate="%{y:.6g}",
                            showlegend=i == 0))
    fig.round_marker(t)
    return fig.build({"title": {"text": f"Weights over rounds ({show} of {d} coordinates)"},
                      **axes("round t (w_t is used in round t)", "weight")}, height=height)


@figure(animated=True)
def cumulative_loss(cum_wh: ArrayLike, cum_u: ArrayLike, theorem1: BoundReport, t: int | None = None, *, height: int = 440) -> go.Figure:
    """Cumulative loss of Widrow-Hoff and of the clairvoyant u, with Theorem 1 (a BoundReport) on each prefix."""
    return curves_with_bounds({WH: cum_wh, CLAIRVOYANT: cum_u}, [theorem1], t=t, title="Cumulative square loss",
                              yaxis_title="cumulative square loss", height=height)


@figure
def eta_sweep(etas: ArrayLike, final_loss: ArrayLike, bound, eta: float, eta_best: float, clairvoyant: float, *,
              best_label: str | None = None, height: int = 440) -> go.Figure:
    r"""Final :math:`L_{WH}` and Theorem 1's bound as functions of :math:`\eta`, your η and η* marked
    (``best_label``, default ``"η* = …"``: the page says "η* > 0.99" when η* lies beyond the slider)."""
    etas = np.asarray(etas, float)
    fig = Fig().add(
        scatter(etas, final_loss, "Widrow-Hoff L_WH(η)", mode="lines+markers", line=dict(color=theme.BLUE, width=2.5),
                marker=dict(size=4), hovertemplate="η = %{x:.2f}: %{y:.6g}<extra></extra>"),
        scatter(etas, bound, bound_name(BOUND_T1), mode="lines", line=dict(color=theme.BOUND, width=2.5, dash="dash"),
                hovertemplate="η = %{x:.2f}: %{y:.6g}<extra></extra>"),
        scatter([etas[0], etas[-1]], [clairvoyant] * 2, "min_u L_u (clairvoyant)", mode="lines",
                line=dict(color=theme.GREEN, width=2, dash="dot"), hovertemplate="%{y:.6g}"),
    )
    # the bound explodes as eta -> 0 and eta -> 1: show where the runs and the bound's minimum live
    fl = np.asarray(final_loss, float)
    fl = fl[np.isfinite(fl) & (fl > 0)]
    fl = fl if fl.size else np.array([1.0])
    # a clairvoyant loss that is zero up to rounding (noise-free stream) would stretch the log axis
    cl = float(clairvoyant) if clairvoyant > 1e-3 * float(fl.min()) else np.inf
    lo = max(min(float(fl.min()), cl), 1e-12)
    hi = max(float(fl.max()), float(np.nanmin(bound)))
    mine, best = ("right", "left") if eta <= eta_best else ("left", "right")
    fig.vline(eta, f"your η = {eta:.3g}", side=mine)
    fig.vline(eta_best, best_label or f"η* = {eta_best:.3g}", dash="solid", width=2, side=best)
    lay = axes("learning rate η", "total square loss (log scale)")
    lay["xaxis"].update(range=[0, 1])
    lay["yaxis"].update(type="log", range=[np.log10(lo) - 0.15, np.log10(hi) + 0.6], **log_ticks([lo, hi]))
    return fig.build({"title": {"text": "Total loss after T rounds, for every η"}, **lay}, height=height)


@figure(animated=True)
def potential(phi: ArrayLike, drop: ArrayLike, claim, telescoped, t: int | None = None, *, height: int = 600) -> go.Figure:
    r"""The proof: :math:`\Phi_t` under its telescoped bound (top), each round's change
    :math:`\Phi_{t+1}-\Phi_t` under the claim's bound (bottom).

    ``phi``, ``telescoped`` (T+1,): :math:`\Phi_1..\Phi_{T+1}` and :math:`\Phi_1+\sum_{s<t}` claim;
    ``drop``, ``claim`` (T,).  ``t`` marks the last round played.
    """
    phi = np.asarray(phi, float)
    T = phi.size - 1
    i1, i2 = downsample(T + 1), downsample(T)
    r1, r2 = np.arange(1, T + 2), np.arange(1, T + 1)
    fig = Fig().add(
        scatter(r1[i1], phi[i1], PHI, mode="lines", line=dict(color=theme.PURPLE, width=2.5), hovertemplate="%{y:.6g}",
                xaxis="x2", yaxis="y2"),
        scatter(r1[i1], np.asarray(telescoped, float)[i1], bound_name(BOUND_TELESCOPED), mode="lines",
                line=dict(color=theme.BOUND, width=2.5, dash="dash"), hovertemplate="%{y:.6g}", xaxis="x2", yaxis="y2"),
        scatter(r2[i2], np.asarray(claim, float)[i2], bound_name(BOUND_CLAIM), mode="markers",
                marker=dict(symbol="line-ew-open", size=11, color=theme.BOUND, line=dict(width=2.5)),
                hovertemplate="%{y:.6g}"),
        scatter(r2[i2], np.asarray(drop, float)[i2], DROP, mode="markers", marker=dict(color=theme.PURPLE, size=5),
                hovertemplate="%{y:.6g}"),
    )
    fig.round_marker(t)
    notes = [dict(text=text, x=0, y=y0, xref="paper", yref="paper", xanchor="left", yanchor="bottom",
                  showarrow=False, font=dict(size=theme.FONT_SIZE + 1))
             for text, y0 in (("Potential Φ_t = ‖w_t − u*‖² and its telescoped bound", 0.95),
                              ("One round: Φ_{t+1} − Φ_t against the claim", 0.43))]
    return fig.build({
        "title": {"text": "The potential proof of Theorem 1"}, "annotations": notes,
        # the lower panel owns the first x axis (titled "round t"), so a lecture question's cut of the curves
        # after its round (olapp.lecture.hide_future reads the first axis) reaches both panels
        "xaxis": dict(anchor="y", domain=[0, 1], title=dict(text="round t")),
        "yaxis": dict(domain=[0.0, 0.42], title=dict(text="change in Φ")),
        "xaxis2": dict(anchor="y2", domain=[0, 1], matches="x", showticklabels=False),
        "yaxis2": dict(domain=[0.56, 0.94], title=dict(text="Φ_t"), rangemode="tozero"),
    }, height=height)


@figure
def online_to_batch(c: OnlineToBatch, *, height: int = 460) -> go.Figure:
    r"""Mean risk of the averaged vector (±2 s.e.) and of the last iterate against m, with Theorem 2.

    ``c`` is an :class:`olcore.lessons.widrow_hoff.OnlineToBatch`.
    """
    m = np.asarray(c.m)
    idx = downsample(m.size, 600)
    mm = m[idx]
    avg, se = np.asarray(c.mean_avg)[idx], np.asarray(c.se_avg)[idx]
    fig = Fig().add(
        scatter(np.r_[mm, mm[::-1]], np.r_[avg + 2 * se, (avg - 2 * se)[::-1]], BAND, fill="toself",
                fillcolor="rgba(0,114,178,0.18)", line=dict(width=0), hoverinfo="skip"),
        scatter(mm, avg, AVERAGED, mode="lines", line=dict(color=theme.BLUE, width=2.5), hovertemplate="%{y:.6g}"),
        scatter(mm, np.asarray(c.mean_last)[idx], LAST, mode="lines", line=dict(color=theme.ORANGE, width=2),
                hovertemplate="%{y:.6g}"),
    )
    if c.theorem2.applies:
        fig.add(scatter(mm, np.asarray(c.theorem2.curve)[idx], c.theorem2.name, mode="lines",
                        line=dict(color=theme.BOUND, width=2.5, dash="dash"), hovertemplate="%{y:.6g}"))
    fig.add(scatter([mm[0], mm[-1]], [float(c.best_risk)] * 2, "min_u R_u (best possible)", mode="lines",
                    line=dict(color=theme.GREEN, width=2, dash="dot"), hovertemplate="%{y:.6g}"))
    lay = axes("sample size m (rounds of Widrow-Hoff, log scale)", "risk (mean square error)")
    lay["xaxis"].update(type="log", **log_ticks(mm))
    lay["yaxis"].update(rangemode="tozero")
    return fig.build({"title": {"text": "Online-to-batch: risk against the sample size m"}, **lay}, height=height)


@figure
def additive_vs_multiplicative(cum_eg: ArrayLike, cum_wh: ArrayLike, cum_u: ArrayLike, theorem1: BoundReport, *, height: int = 440) -> go.Figure:
    """EG and Widrow-Hoff on one stream whose target is sparse, with Widrow-Hoff's Theorem 1 (the notes
    prove no bound for EG)."""
    return curves_with_bounds({EG: cum_eg, WH_EG: cum_wh, U_EG: cum_u}, [theorem1],
                              title="Additive vs multiplicative: cumulative square loss",
                              yaxis_title="cumulative square loss", height=height)


@figure(animated=True)
def implicit_plane(i: Implicit, t: int, *, height: int = 560) -> go.Figure:
    """Both trajectories on the weight plane (d = 2) up to w_{t+1}, the least-squares u, axes fixed from the run."""
    W1, W2 = np.asarray(i.W_explicit), np.asarray(i.W_implicit)
    t = int(min(max(t, 0), W1.shape[0] - 1))
    P = np.vstack([W1, W2, i.u[None, :], np.zeros((1, 2))])
    lo, hi = P.min(axis=0), P.max(axis=0)
    half, mid = 0.55 * max(float((hi - lo).max()), 0.5), (lo + hi) / 2
    fig = Fig()
    for W, name, colour in ((W1, EXPLICIT, theme.SERIES[0]), (W2, IMPLICIT, theme.SERIES[1])):   # as in rates()
        idx = np.unique(np.r_[downsample(t + 1, 400), t])
        fig.add(scatter(W[idx, 0], W[idx, 1], name, mode="lines+markers", line=dict(color=colour, width=2),
                        marker=dict(size=4, color=colour), customdata=idx + 1,
                        hovertemplate="w_%{customdata} = (%{x:.6g}, %{y:.6g})<extra></extra>"))
        fig.add(scatter([W[t, 0]], [W[t, 1]], f"w_{t + 1}, {name.split(':')[0]}", mode="markers",
                        marker=dict(size=13, color=colour, line=dict(width=1.5, color="white")),
                        hovertemplate="(%{x:.6g}, %{y:.6g})<extra></extra>"))
    fig.add(scatter([i.u[0]], [i.u[1]], "least-squares u", mode="markers",
                    marker=dict(symbol="star", size=18, color=theme.GREEN, line=dict(width=1, color="black")),
                    hovertemplate="u = (%{x:.6g}, %{y:.6g})<extra></extra>"))
    lay = axes("w₁", "w₂")
    lay["xaxis"].update(range=[mid[0] - half, mid[0] + half], constrain="domain")
    lay["yaxis"].update(range=[mid[1] - half, mid[1] + half], scaleanchor="x", scaleratio=1, constrain="domain")
    return fig.build({"title": {"text": "Explicit and implicit updates on the weight plane"}, "hovermode": "closest",
                      **lay}, height=height)


@figure(animated=True)
def implicit_losses(i: Implicit, t: int, *, height: int = 420) -> go.Figure:
    """Cumulative square loss of both rules (any d)."""
    return curves_with_bounds({EXPLICIT: i.loss_explicit, IMPLICIT: i.loss_implicit}, {}, t=t,
                              title="Explicit and implicit updates: cumulative loss",
                              yaxis_title="cumulative square loss", height=height)


@figure(animated=True)
def rates(i: Implicit, t: int, *, height: int = 440) -> go.Figure:
    """L_WH(t)/t of both rules and L_u(t)/t, with Theorem 1 divided by t (explicit rule), log rounds."""
    fig = curves_with_bounds({"L_WH(t)/t, " + EXPLICIT: i.rate_wh, "L(t)/t, " + IMPLICIT: i.rate_implicit,
                              RATE_U: i.rate_u}, [i.rate_bound], t=t, title="Rate of loss: L/T against L_u/T",
                             yaxis_title="average square loss so far", height=height)
    top = 1.3 * max(float(np.max(c)) for c in (i.rate_wh, i.rate_implicit, i.rate_u))   # the bound starts far above
    return (fig.update_xaxes(type="log", range=[0, np.log10(max(i.T, 2))])
            .update_yaxes(range=[0, top if top > 0 else 1.0]))
