"""Figures for the regression pages (Widrow-Hoff, its proof, online-to-batch).

Plain functions from arrays to ``go.Figure``: no Streamlit, no olcore runs.  Every empirical
curve has its bound beside it in a trace named ``"bound: <formula>"``.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .. import theme
from . import bound_name, cumulative_with_bound, downsample

__all__ = [
    "BOUND_T1", "BOUND_T2", "BOUND_CLAIM", "BOUND_TELESCOPED",
    "weight_plane", "weights_over_time", "cumulative_loss", "eta_sweep", "potential", "online_to_batch",
]

#: Legend formulas (the trace names are ``bound: <formula>``).
BOUND_T1 = "min_u L_u/(1−η) + ‖u‖²/η"
BOUND_T2 = "min_u R_u/(1−η) + ‖u‖²/(ηm)"
BOUND_CLAIM = "−η ℓ_t² + η/(1−η) g_t²"
BOUND_TELESCOPED = "Φ₁ + Σ_{s<t} (−η ℓ_s² + η/(1−η) g_s²)"

_CLOSEST = dict(hovermode="closest")
#: Loss contours: darker blue is lower loss (explicit: plotly.js and plotly.py disagree on "Blues").
_BOWL = [[0.0, "rgb(33,113,181)"], [0.35, "rgb(107,174,214)"], [0.7, "rgb(198,219,239)"], [1.0, "rgb(247,251,255)"]]
#: Legends with many entries go under the plot, so they never run into the title.
_LEGEND_BELOW = dict(orientation="h", yanchor="top", y=-0.2, xanchor="left", x=0.0)
_LEGEND_RIGHT = dict(orientation="v", yanchor="top", y=1.0, xanchor="left", x=1.02)


# Figures are assembled from plain dicts in one go (``_validate=False``): plotly's per-property
# validation costs ~10 ms a figure, most of a rerun's budget.  tests/test_page_widrow_hoff.py
# re-validates every figure with plotly's validators, so a typo still fails a test.

def _fig(data: list[dict], layout: dict, height: int, presenter: bool) -> go.Figure:
    return theme.apply(go.Figure(data=data, layout=layout, _validate=False), height=height, presenter=presenter)


def _scatter(x, y, name: str, **kw) -> dict:
    return dict(type="scatter", x=np.asarray(x), y=np.asarray(y), name=name, **kw)


def _title(text: str) -> dict:
    return dict(text=text)


def _vline(x: float, text: str | None, position: str, *, dash: str = "dot", width: float = 1.5,
           xref: str = "x", yref: str = "paper", y0: float = 0.0, y1: float = 1.0):
    """A vertical line over the whole plot height and its label (a cheap ``add_vline``)."""
    shape = dict(type="line", x0=x, x1=x, y0=y0, y1=y1, xref=xref, yref=yref,
                 line=dict(color=theme.GREY, width=width, dash=dash))
    if text is None:
        return shape, None
    top = position.startswith("top")
    ann = dict(x=x, y=y1 if top else y0, xref=xref, yref=yref, text=text, showarrow=False,
               xanchor="right" if position.endswith("left") else "left",
               yanchor="bottom" if top else "bottom", yshift=0 if top else 4)
    return shape, ann


def _loss_surface(X: np.ndarray, y: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """L(w) = sum_t (w.x_t - y_t)^2 on a grid, from the stream's moments (d = 2)."""
    A = X.T @ X
    b = X.T @ y
    c = float(y @ y)
    W1, W2 = np.meshgrid(xs, ys)
    return A[0, 0] * W1**2 + 2 * A[0, 1] * W1 * W2 + A[1, 1] * W2**2 - 2 * (b[0] * W1 + b[1] * W2) + c


def weight_plane(X, y, W, t: int, *, u_ls=None, u_star=None, show_potential: bool = True,
                 height: int = 560, presenter: bool = False) -> go.Figure:
    r"""The weight plane (d = 2): contours of the whole stream's loss, the trajectory w_1..w_{t+1}.

    Parameters
    ----------
    X : array (T, 2), y : array (T,)
    W : array (T+1, 2)
        Weight history; row ``s`` is :math:`\mathbf w_{s+1}`.
    t : int
        Rounds played (0..T): the trajectory is drawn up to ``W[t]``.
    u_ls : array (2,), optional
        Clairvoyant least-squares :math:`\mathbf u` (the contours' centre).
    u_star : array (2,), optional
        The comparator of the proof; with ``show_potential`` a circle of radius
        :math:`\sqrt{\Phi} = \|\mathbf w - \mathbf u\|` is drawn around it.
    """
    X = np.asarray(X, float)
    y = np.asarray(y, float)
    W = np.asarray(W, float)
    t = int(min(max(t, 0), W.shape[0] - 1))
    pts = [W, np.zeros((1, 2))] + [np.asarray(p, float)[None, :] for p in (u_ls, u_star) if p is not None]
    P = np.vstack(pts)
    lo, hi = P.min(axis=0), P.max(axis=0)
    span = max(float((hi - lo).max()), 0.5)
    mid = (lo + hi) / 2
    half = 0.6 * span
    xs = np.linspace(mid[0] - half, mid[0] + half, 90)
    ys = np.linspace(mid[1] - half, mid[1] + half, 90)
    Z = _loss_surface(X, y, xs, ys)
    zmin = float(Z.min())
    data = [dict(
        type="contour", x=xs, y=ys, z=np.log10(Z - zmin + 1e-3 * (Z.max() - zmin) + 1e-12), colorscale=_BOWL, showscale=False, contours=dict(coloring="heatmap", showlines=True), line=dict(width=0.5),
        opacity=0.7, name="loss of the whole stream", customdata=Z,
        hovertemplate="w = (%{x:.3f}, %{y:.3f})<br>L(w) = %{customdata:.4g}<extra>loss contours</extra>",
    )]
    idx = np.arange(t + 1)
    if idx.size > 400:
        idx = np.unique(np.r_[downsample(t + 1, 400), t])
    path = W[idx]
    data.append(_scatter(path[:, 0], path[:, 1], f"trajectory w_1 … w_{t + 1}", mode="lines+markers",
                         line=dict(color=theme.ORANGE, width=2), marker=dict(size=4, color=theme.ORANGE),
                         customdata=idx + 1, hovertemplate="w_%{customdata} = (%{x:.4f}, %{y:.4f})<extra></extra>"))
    data.append(_scatter([W[t, 0]], [W[t, 1]], f"w_{t + 1} (after {t} rounds)", mode="markers",
                         marker=dict(size=14, color=theme.VERMILLION, line=dict(width=1.5, color="white")),
                         hovertemplate=f"w_{t + 1} = (%{{x:.4f}}, %{{y:.4f}})<extra></extra>"))
    if u_ls is not None:
        data.append(_scatter([u_ls[0]], [u_ls[1]], "clairvoyant u (least squares)", mode="markers",
                             marker=dict(symbol="star", size=18, color=theme.GREEN, line=dict(width=1, color="black")),
                             hovertemplate="least-squares u = (%{x:.4f}, %{y:.4f})<extra></extra>"))
    if u_star is not None:
        data.append(_scatter([u_star[0]], [u_star[1]], "u* (minimises the bound)", mode="markers",
                             marker=dict(symbol="diamond", size=13, color=theme.PURPLE,
                                         line=dict(width=1, color="black")),
                             hovertemplate="bound-minimising u* = (%{x:.4f}, %{y:.4f})<extra></extra>"))
        if show_potential:
            r = float(np.linalg.norm(W[t] - np.asarray(u_star, float)))
            a = np.linspace(0, 2 * np.pi, 121)
            data.append(_scatter(u_star[0] + r * np.cos(a), u_star[1] + r * np.sin(a),
                                 f"‖w_{t + 1} − u*‖ = √Φ = {r:.3g}", mode="lines",
                                 line=dict(color=theme.PURPLE, width=1.5, dash="dot"), hoverinfo="skip"))
    layout = dict(
        title=_title(f"Weight plane after {t} round(s)"), legend=_LEGEND_RIGHT, **_CLOSEST,
        xaxis=dict(title=_title("w₁ (weight of feature 1)"), range=[xs[0], xs[-1]], constrain="domain"),
        yaxis=dict(title=_title("w₂ (weight of feature 2)"), range=[ys[0], ys[-1]], scaleanchor="x", scaleratio=1),
    )
    return _fig(data, layout, height, presenter)


def weights_over_time(W, t: int, u_ls=None, *, height: int = 420, presenter: bool = False) -> go.Figure:
    """For d != 2: each coordinate of w_t over rounds, the least-squares u's coordinates dotted."""
    W = np.asarray(W, float)
    T1, d = W.shape
    idx = downsample(T1)
    data = []
    show = min(d, 4)  # more lines than this is spaghetti on a projector
    for i in range(show):
        c = theme.SERIES[i % len(theme.SERIES)]
        data.append(_scatter(idx + 1, W[idx, i], f"w_t[{i + 1}]", mode="lines", line=dict(color=c, width=2),
                             hovertemplate="%{y:.4g}"))
        if u_ls is not None:
            data.append(_scatter([1, T1], [u_ls[i]] * 2,
                                 "least-squares u (dotted, same colour)" if i == 0 else f"least-squares u[{i + 1}]",
                                 mode="lines", line=dict(color=c, width=1.5, dash="dot"), hovertemplate="%{y:.4g}",
                                 showlegend=i == 0))
    shape, ann = _vline(t + 1, f"t = {t + 1}", "top left")
    layout = dict(title=_title(f"Weights over rounds ({show} of {d} coordinates)"),
                  xaxis=dict(title=_title("round t (w_t is used in round t)")), yaxis=dict(title=_title("weight")),
                  shapes=[shape], annotations=[ann], legend=_LEGEND_BELOW)
    return _fig(data, layout, height, presenter)


def cumulative_loss(cum_wh, cum_u, bound_curve, t: int | None = None, *, height: int = 420,
                    presenter: bool = False) -> go.Figure:
    r"""Cumulative loss of Widrow-Hoff and of the clairvoyant u, with Theorem 1's bound on each prefix."""
    fig = cumulative_with_bound(
        {"Widrow-Hoff L_WH(t)": cum_wh, "clairvoyant L_u(t) (least-squares u)": cum_u},
        bound_curve, BOUND_T1, title="Cumulative square loss", yaxis_title="cumulative square loss",
        xaxis_title="round t", height=height, presenter=presenter)
    if t is not None:
        # the round marker as one layout update: plotly's add_vline costs ~8 ms a call
        shape, ann = _vline(t, f"t = {t}", "top left")
        fig.update_layout(shapes=[shape], annotations=[ann])
    return fig


def eta_sweep(etas, final_loss, bound, eta: float, eta_best: float, clairvoyant: float, *,
              height: int = 420, presenter: bool = False) -> go.Figure:
    r"""Final :math:`L_{WH}` and Theorem 1's bound as functions of :math:`\eta`, both marked."""
    etas = np.asarray(etas, float)
    data = [
        _scatter(etas, final_loss, "Widrow-Hoff L_WH(η)", mode="lines+markers",
                 line=dict(color=theme.BLUE, width=2.5), marker=dict(size=4), hovertemplate="%{y:.4g}"),
        _scatter(etas, bound, bound_name(BOUND_T1), mode="lines",
                 line=dict(color=theme.BOUND, width=2.5, dash="dash"), hovertemplate="%{y:.4g}"),
        _scatter([etas[0], etas[-1]], [clairvoyant] * 2, "min_u L_u (clairvoyant)", mode="lines",
                 line=dict(color=theme.GREEN, width=2, dash="dot"), hovertemplate="%{y:.4g}"),
    ]
    # the bound explodes as eta -> 0 and eta -> 1; show the region where the run and the bound's minimum live
    fl = np.asarray(final_loss, float)
    fl = fl[np.isfinite(fl) & (fl > 0)]
    fl = fl if fl.size else np.array([1.0])
    # a clairvoyant loss that is zero up to rounding (noise-free stream) would stretch the log axis
    # over twenty decades: then leave its line below the chart
    cl = float(clairvoyant) if clairvoyant > 1e-3 * float(fl.min()) else np.inf
    lo = max(min(float(fl.min()), cl), 1e-12)
    hi = max(float(fl.max()), float(np.nanmin(bound)))
    yrange = [np.log10(lo) - 0.15, np.log10(hi) + 0.6]
    mine, best = ("top left", "top right") if eta <= eta_best else ("top right", "top left")
    s1, a1 = _vline(eta, f"your η = {eta:.3g}", mine)
    s2, a2 = _vline(eta_best, f"η* = {eta_best:.3g}", best, dash="solid", width=2)
    layout = dict(title=_title("Total loss after T rounds, for every η"),
                  xaxis=dict(title=_title("learning rate η"), range=[0, 1]),
                  yaxis=dict(title=_title("total square loss (log scale)"), type="log", range=yrange),
                  shapes=[s1, s2], annotations=[a1, a2])
    return _fig(data, layout, height, presenter)


def potential(phi, drop, claim, telescoped, t: int | None = None, *, height: int = 580,
              presenter: bool = False) -> go.Figure:
    r"""The proof view: :math:`\Phi_t` under its telescoped bound (top), and each round's change
    :math:`\Phi_{t+1}-\Phi_t` under the claim's bound (bottom).

    Parameters
    ----------
    phi : array (T+1,)  :math:`\Phi_1..\Phi_{T+1}`
    drop : array (T,)  :math:`\Phi_{t+1} - \Phi_t`
    claim : array (T,)  :math:`-\eta\ell_t^2 + \frac{\eta}{1-\eta}g_t^2`
    telescoped : array (T+1,)  :math:`\Phi_1 + \sum_{s<t}` claim, the bound on :math:`\Phi_t`
    t : int, optional
        Rounds played; marks :math:`\Phi_{t+1}`.
    """
    phi = np.asarray(phi, float)
    T = phi.size - 1
    i1 = downsample(T + 1)
    rounds1 = np.arange(1, T + 2)
    i2 = downsample(T)
    rounds2 = np.arange(1, T + 1)
    data = [
        _scatter(rounds1[i1], phi[i1], "Φ_t = ‖w_t − u*‖²", mode="lines",
                 line=dict(color=theme.PURPLE, width=2.5), hovertemplate="%{y:.4g}"),
        _scatter(rounds1[i1], np.asarray(telescoped, float)[i1], bound_name(BOUND_TELESCOPED), mode="lines",
                 line=dict(color=theme.BOUND, width=2.5, dash="dash"), hovertemplate="%{y:.4g}"),
        _scatter(rounds2[i2], np.asarray(claim, float)[i2], bound_name(BOUND_CLAIM), mode="markers",
                 marker=dict(symbol="line-ew-open", size=11, color=theme.BOUND, line=dict(width=2.5)),
                 hovertemplate="%{y:.4g}", xaxis="x2", yaxis="y2"),
        _scatter(rounds2[i2], np.asarray(drop, float)[i2], "Φ_{t+1} − Φ_t", mode="markers",
                 marker=dict(color=theme.PURPLE, size=5), hovertemplate="%{y:.4g}", xaxis="x2", yaxis="y2"),
    ]
    shapes, annotations = [], [
        dict(text="Potential Φ_t = ‖w_t − u*‖² and its telescoped bound", x=0, y=1.0, xref="paper", yref="paper",
             xanchor="left", yanchor="bottom", showarrow=False, font=dict(size=theme.FONT_SIZE + 1)),
        dict(text="One round: Φ_{t+1} − Φ_t against the claim", x=0, y=0.44, xref="paper", yref="paper",
             xanchor="left", yanchor="bottom", showarrow=False, font=dict(size=theme.FONT_SIZE + 1)),
    ]
    if t is not None:
        for xr, yr in (("x", "y domain"), ("x2", "y2 domain")):
            s, _ = _vline(t + 1, None, "top left", xref=xr, yref=yr)
            shapes.append(s)
    layout = dict(
        xaxis=dict(anchor="y", domain=[0, 1], matches="x2", showticklabels=False),
        yaxis=dict(domain=[0.56, 0.94], title=_title("Φ_t"), rangemode="tozero"),
        xaxis2=dict(anchor="y2", domain=[0, 1], title=_title("round t")),
        yaxis2=dict(domain=[0.0, 0.42], title=_title("change in Φ")),
        shapes=shapes, annotations=annotations, legend=_LEGEND_BELOW,
    )
    return _fig(data, layout, height, presenter)


def online_to_batch(curve: dict, *, height: int = 460, presenter: bool = False) -> go.Figure:
    r"""Risk of the averaged vector and of the last iterate as m grows, with Theorem 2's bound.

    ``curve`` is :func:`olcore.online_to_batch.learning_curve`'s dict (means over samples).
    """
    m = np.asarray(curve["m"])
    idx = downsample(m.size, 600)
    mm = m[idx]
    avg, se = np.asarray(curve["mean_avg"])[idx], np.asarray(curve["se_avg"])[idx]
    data = [
        _scatter(np.r_[mm, mm[::-1]], np.r_[avg + 2 * se, (avg - 2 * se)[::-1]], "±2 standard errors",
                 fill="toself", fillcolor="rgba(0,114,178,0.18)", line=dict(width=0), hoverinfo="skip"),
        _scatter(mm, avg, "averaged v = (1/m) Σ w_t  (mean risk)", mode="lines",
                 line=dict(color=theme.BLUE, width=2.5), hovertemplate="%{y:.4g}"),
        _scatter(mm, np.asarray(curve["mean_last"])[idx], "last iterate w_{m+1}  (mean risk)", mode="lines",
                 line=dict(color=theme.ORANGE, width=2), hovertemplate="%{y:.4g}"),
        _scatter(mm, np.asarray(curve["bound"])[idx], bound_name(BOUND_T2), mode="lines",
                 line=dict(color=theme.BOUND, width=2.5, dash="dash"), hovertemplate="%{y:.4g}"),
        _scatter([mm[0], mm[-1]], [float(curve["best_risk"])] * 2, "min_u R_u (best possible)", mode="lines",
                 line=dict(color=theme.GREEN, width=2, dash="dot"), hovertemplate="%{y:.4g}"),
    ]
    layout = dict(title=_title("Online-to-batch: risk on held-out data against the sample size m"),
                  xaxis=dict(title=_title("sample size m (rounds of Widrow-Hoff, log scale)"), type="log"),
                  yaxis=dict(title=_title("risk (mean square error)"), rangemode="tozero"), legend=_LEGEND_BELOW)
    return _fig(data, layout, height, presenter)


def additive_vs_multiplicative(cum_eg, cum_wh, cum_u, bound_wh, *, height: int = 420,
                               presenter: bool = False) -> go.Figure:
    r"""EG and Widrow-Hoff on one stream whose best predictor is sparse, with Widrow-Hoff's bound.

    The notes prove no bound for EG, so only Widrow-Hoff's curve has one.
    """
    fig = cumulative_with_bound(
        {"EG (multiplicative)": cum_eg, "Widrow-Hoff (additive; x rescaled into the unit ball)": cum_wh,
         "the sparse u that generated y": cum_u},
        bound_wh, BOUND_T1 + " (Widrow-Hoff)", title="Additive vs multiplicative: cumulative square loss",
        yaxis_title="cumulative square loss", xaxis_title="round t", height=height, presenter=presenter)
    fig.update_layout(legend=_LEGEND_BELOW)  # four long names: below the plot, clear of the title
    return fig
