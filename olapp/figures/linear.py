"""Figures for linear classification (Perceptron, PA, OGD, Winnow): arrays in, ``go.Figure`` out.

Nothing here runs an algorithm; the pages pass traces' arrays.  Every empirical curve
has its bound beside it in a trace named ``"bound: <formula>"``.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from .. import theme
from . import bound_name, downsample

__all__ = [
    "consistent_arcs", "data_space", "weight_space", "norm_proof", "mistakes_compare",
    "hyperplanes_compare", "winnow_weights", "winnow_potential", "sweep_mistakes",
]

_LABEL_STYLE = {1: ("y = +1", theme.POSITIVE, "circle"), -1: ("y = −1", theme.NEGATIVE, "diamond")}

# Figures are built as plain dicts and wrapped once without plotly's per-property
# validation: a validated figure of ten traces costs ~20 ms to build, this ~1.5 ms, which
# keeps a page rerun within its time budget.  The template is the project's (theme.TEMPLATE).
_TEMPLATE = theme.TEMPLATE.to_plotly_json()
_LEGEND_BELOW = dict(orientation="h", y=-0.15, yanchor="top", x=0.0, xanchor="left")


class _Fig:
    """Collects traces, annotations and shapes, then builds one ``go.Figure``."""

    def __init__(self) -> None:
        self.data: list[dict] = []
        self.annotations: list[dict] = []
        self.shapes: list[dict] = []

    def add_trace(self, trace: dict) -> None:
        self.data.append(trace)

    def add_annotation(self, **kw) -> None:
        self.annotations.append(kw)

    def vline(self, x: float, label: str | None = None) -> None:
        self.shapes.append(dict(type="line", x0=x, x1=x, y0=0, y1=1, yref="paper",
                                line=dict(color=theme.GREY, width=1.5, dash="dot")))
        self.annotations.append(dict(x=x, y=1, yref="paper", text=label or f"t = {x}", showarrow=False,
                                     xanchor="right", yanchor="bottom"))

    def build(self, layout: dict, *, height: int, presenter: bool) -> go.Figure:
        lay = {"template": _TEMPLATE, "height": height, "legend": _LEGEND_BELOW,
               "margin": dict(l=10, r=10, t=50, b=10), **layout}
        if self.annotations:
            lay["annotations"] = self.annotations
        if self.shapes:
            lay["shapes"] = self.shapes
        if presenter:
            # Taller for a projector.  controls.chart enlarges layout.font (tick labels, annotations);
            # the template gives the title, legend and axis titles their own sizes, which that
            # default does not reach, so they are enlarged here (once).
            s = theme.PRESENTER_SCALE
            lay["height"] = round(height * 1.15)
            lay["title"] = {**lay.get("title", {}), "font": dict(size=round((theme.FONT_SIZE + 3) * s))}
            legend = {**lay["legend"], "font": dict(size=round((theme.FONT_SIZE - 1) * s))}
            if legend.get("y") == _LEGEND_BELOW["y"]:   # clear the larger tick labels and axis title
                legend["y"] = -0.24
            lay["legend"] = legend
            lay["hoverlabel"] = dict(font=dict(size=round((theme.FONT_SIZE - 1) * s)))
            for ax in ("xaxis", "yaxis"):
                if ax in lay:
                    title = lay[ax].get("title", {})
                    lay[ax] = {**lay[ax], "title": {**title, "font": dict(size=round(theme.FONT_SIZE * s))}}
        return go.Figure({"data": self.data, "layout": lay}, _validate=False)


def Scatter(**kw) -> dict:  # noqa: N802 - reads like go.Scatter
    kw["type"] = "scatter"
    return kw


def _axes(title_x: str, title_y: str, lim: float | None = None, **extra) -> dict:
    x = dict(title=dict(text=title_x))
    y = dict(title=dict(text=title_y))
    if lim is not None:
        x.update(range=[-lim, lim], zeroline=True, constrain="domain")
        y.update(range=[-lim, lim], zeroline=True, scaleanchor="x", scaleratio=1, constrain="domain")
    return {"xaxis": x, "yaxis": y, **extra}


def _line_through_origin(normal: np.ndarray, half: float):
    """Endpoints of the line {x : normal . x = 0} clipped to a box of half-width ``half``."""
    n = normal / np.linalg.norm(normal)
    perp = np.array([-n[1], n[0]])
    return np.array([-half * perp, half * perp]) * 1.5


def consistent_arcs(X: np.ndarray, y: np.ndarray, n_angles: int = 720) -> list[tuple[float, float]]:
    r"""Angles (radians) of unit directions :math:`u` with :math:`y_s\, u\cdot x_s > 0` for every row.

    Returns maximal runs ``(start, end)`` of feasible angles on a grid of ``n_angles``
    (in 2-D the set is one arc, possibly wrapping past 0, or empty).  No rows: the
    whole circle.
    """
    a = np.linspace(0, 2 * np.pi, n_angles, endpoint=False)
    if len(X) == 0:
        return [(0.0, 2 * np.pi)]
    U = np.column_stack([np.cos(a), np.sin(a)])
    ok = np.all((np.asarray(X, float) @ U.T) * np.asarray(y, float)[:, None] > 0, axis=0)
    if not ok.any():
        return []
    if ok.all():
        return [(0.0, 2 * np.pi)]
    step = 2 * np.pi / n_angles
    shift = int(np.argmin(ok))                    # start the scan at an infeasible angle
    rolled = np.roll(ok, -shift)
    arcs, i = [], 0
    while i < n_angles:
        if rolled[i]:
            j = i
            while j + 1 < n_angles and rolled[j + 1]:
                j += 1
            arcs.append(((i + shift) * step, (j + shift + 1) * step))
            i = j + 1
        else:
            i += 1
    return arcs


def data_space(X: np.ndarray, y: np.ndarray, n_seen: int, w: np.ndarray, *, R: float,
               v: np.ndarray | None = None, gamma: float | None = None, last: int | None = None,
               last_mistake: bool = False, height: int = 520, presenter: bool = False) -> go.Figure:
    r"""The stream in the plane: points by label, the ball of radius R, the separator v with its
    margin band, and the current hyperplane :math:`w_t\cdot x = 0` with its normal.

    ``n_seen`` points (rows ``0..n_seen-1``, cycled for several epochs) are drawn solid,
    the others faded; ``last`` is the row just played (ringed; red ring on a mistake).
    """
    fig = _Fig()
    lim = 1.15 * R
    th = np.linspace(0, 2 * np.pi, 200)
    fig.add_trace(Scatter(x=R * np.cos(th), y=R * np.sin(th), mode="lines", name=f"ball ‖x‖ ≤ R = {R:.3g}",
                             line=dict(color=theme.GREY, dash="dot", width=1.5), hoverinfo="skip"))
    if v is not None and gamma is not None and gamma > 0:
        v = np.asarray(v, float) / np.linalg.norm(v)
        p = np.array([-v[1], v[0]]) * lim * 1.5
        band = np.array([p + gamma * v, -p + gamma * v, -p - gamma * v, p - gamma * v, p + gamma * v])
        fig.add_trace(Scatter(x=band[:, 0], y=band[:, 1], fill="toself", mode="lines",
                                 name=f"margin band ±γ, γ = {gamma:.3g}", line=dict(width=0),
                                 fillcolor="rgba(0,158,115,0.15)", hoverinfo="skip"))
        seg = _line_through_origin(v, lim)
        fig.add_trace(Scatter(x=seg[:, 0], y=seg[:, 1], mode="lines", name="separator v (unit)",
                                 line=dict(color=theme.GREEN, width=2, dash="dash"), hoverinfo="skip"))
    idx = np.arange(len(X))
    for lab, (name, colour, symbol) in _LABEL_STYLE.items():
        for seen in (True, False):
            m = (y == lab) & ((idx < n_seen) if seen else (idx >= n_seen))
            if not m.any():
                continue
            fig.add_trace(Scatter(
                x=X[m, 0], y=X[m, 1], mode="markers", name=name + ("" if seen else " (not yet seen)"),
                marker=dict(color=colour, symbol=symbol, size=9 if seen else 7, opacity=1.0 if seen else 0.25,
                            line=dict(width=0.5, color="white")),
                customdata=np.column_stack([idx[m] + 1, y[m]]), showlegend=bool(seen or not (idx < n_seen).any()),
                hovertemplate="round %{customdata[0]}<br>x = (%{x:.3f}, %{y:.3f})<br>y = %{customdata[1]:+d}<extra></extra>",
            ))
    w = np.asarray(w, float)
    nw = float(np.linalg.norm(w))
    if nw > 0:
        seg = _line_through_origin(w, lim)
        fig.add_trace(Scatter(x=seg[:, 0], y=seg[:, 1], mode="lines", name="hyperplane w_t · x = 0",
                                 line=dict(color=theme.BLUE, width=3), hoverinfo="skip"))
        tip = w / nw * 0.8 * R
        fig.add_annotation(x=tip[0], y=tip[1], ax=0, ay=0, xref="x", yref="y", axref="x", ayref="y",
                           showarrow=True, arrowhead=3, arrowwidth=2.5, arrowcolor=theme.BLUE, text="")
        fig.add_annotation(x=tip[0] * 1.12, y=tip[1] * 1.12, xref="x", yref="y", showarrow=False,
                           text="<b>w_t/‖w_t‖</b>", font=dict(color=theme.BLUE),
                           bgcolor="rgba(128,128,128,0.18)")
    else:
        fig.add_annotation(x=0, y=-0.95 * R, text="w = 0: no hyperplane yet (every score is 0)",
                           showarrow=False)
    if last is not None:
        fig.add_trace(Scatter(
            x=[X[last, 0]], y=[X[last, 1]], mode="markers",
            name="x_t just played" + (" (mistake)" if last_mistake else ""),
            marker=dict(size=20, symbol="circle-open", line=dict(width=3),
                        color=theme.VERMILLION if last_mistake else theme.GREY),
            hovertemplate="x_t = (%{x:.3f}, %{y:.3f})<extra></extra>"))
    return fig.build({"title": {"text": "Data space"}, "hovermode": "closest", 
                      **_axes("x₁", "x₂", lim)}, height=height, presenter=presenter)


def weight_space(path: np.ndarray, *, arcs: Sequence[tuple[float, float]], last_update: tuple | None = None,
                 v: np.ndarray | None = None, height: int = 520, presenter: bool = False) -> go.Figure:
    r"""The weights :math:`w_0, w_1, \dots` after each mistake, the last update :math:`+y_t x_t`
    as an arrow, and the cone (arc) of directions consistent with every point seen so far.

    ``path`` (K, 2): the weights after each mistake so far (first row 0).
    ``last_update``: ``(w_before, w_after)`` when the round just played was a mistake.
    """
    path = np.asarray(path, float)
    rho = max(float(np.linalg.norm(path, axis=1).max()) * 1.15, 1e-9)
    if rho < 1e-6:
        rho = 1.0
    fig = _Fig()
    for i, (a0, a1) in enumerate(arcs):
        a = np.linspace(a0, a1, 90)
        xs = np.concatenate([[0], rho * np.cos(a), [0]])
        ys = np.concatenate([[0], rho * np.sin(a), [0]])
        fig.add_trace(Scatter(x=xs, y=ys, fill="toself", mode="lines", line=dict(width=0),
                                 fillcolor="rgba(0,158,115,0.18)", showlegend=i == 0,
                                 name=f"directions consistent with the points seen "
                                      f"({np.degrees(a1 - a0):.1f}°)", hoverinfo="skip"))
    if not arcs:
        fig.add_annotation(x=0, y=-0.9 * rho, showarrow=False,
                           text="no direction fits every point seen:<br>not separable")
    if v is not None:
        vv = np.asarray(v, float) / np.linalg.norm(v) * rho
        fig.add_trace(Scatter(x=[0, vv[0]], y=[0, vv[1]], mode="lines", name="direction of v",
                                 line=dict(color=theme.GREEN, dash="dash", width=2), hoverinfo="skip"))
    k = downsample(len(path))  # long noisy runs: at most MAX_POINTS mistakes drawn, the last kept
    fig.add_trace(Scatter(
        x=path[k, 0], y=path[k, 1], mode="lines+markers", name="w after each mistake",
        line=dict(color=theme.BLUE, width=2), marker=dict(size=7, color=theme.BLUE),
        customdata=np.column_stack([k, np.linalg.norm(path[k], axis=1)]),
        hovertemplate="after mistake %{customdata[0]}<br>w = (%{x:.3f}, %{y:.3f})<br>‖w‖ = %{customdata[1]:.3f}<extra></extra>",
    ))
    if last_update is not None:
        (b, a) = (np.asarray(last_update[0], float), np.asarray(last_update[1], float))
        fig.add_annotation(x=a[0], y=a[1], ax=b[0], ay=b[1], xref="x", yref="y", axref="x", ayref="y",
                           showarrow=True, arrowhead=3, arrowwidth=3, arrowcolor=theme.VERMILLION, text="")
        mid = (a + b) / 2
        fig.add_annotation(x=mid[0], y=mid[1], xref="x", yref="y", showarrow=False, text="<b>+ y_t x_t</b>",
                           font=dict(color=theme.VERMILLION), xshift=28, bgcolor="rgba(128,128,128,0.18)")
    return fig.build({"title": {"text": "Weight space"}, "hovermode": "closest", 
                      **_axes("w₁", "w₂", rho)}, height=height, presenter=presenter)


def norm_proof(M: np.ndarray, norm: np.ndarray, w_dot_u: np.ndarray, lower: np.ndarray, *, R: float,
               gamma: float | None = None, height: int = 420, presenter: bool = False) -> go.Figure:
    r"""Novikoff's proof: after the M-th mistake, :math:`M\gamma \le w\cdot v \le \|w\| \le \sqrt M R`.

    ``M`` (K,), ``norm`` :math:`\|w\|`, ``w_dot_u`` :math:`w\cdot\hat u` and ``lower`` its
    lower bound after each mistake.  With ``gamma`` the bounds are drawn as the lines
    :math:`M\gamma` and :math:`\sqrt M R` out to where they meet, :math:`M = (R/\gamma)^2`.
    """
    keep = downsample(len(M))  # long noisy runs: at most MAX_POINTS mistakes drawn, the last kept
    M, norm, w_dot_u, lower = (np.asarray(a)[keep] for a in (M, norm, w_dot_u, lower))
    fig = _Fig()
    m_max = max(float(M.max()) if len(M) else 1.0, 1.0)
    if gamma is not None and gamma > 0:
        m_max = max(m_max, (R / gamma) ** 2 * 1.05)
    mm = np.linspace(0, m_max, 400)
    fig.add_trace(Scatter(x=mm, y=np.sqrt(mm) * R, mode="lines", name="bound: √M·R (upper, on ‖w‖)",
                             line=dict(color=theme.BOUND, dash="dash", width=2.5), hovertemplate="%{y:.4g}"))
    if gamma is not None and gamma > 0:
        fig.add_trace(Scatter(x=mm, y=mm * gamma, mode="lines", name="bound: M·γ (lower, on w·v)",
                                 line=dict(color=theme.GREY, dash="dot", width=2.5), hovertemplate="%{y:.4g}"))
        meet = (R / gamma) ** 2
        fig.add_trace(Scatter(x=[meet], y=[meet * gamma], mode="markers+text", name="they meet at M = (R/γ)²",
                                 marker=dict(size=11, color=theme.BOUND, symbol="x"),
                                 text=[f"M = (R/γ)² = {meet:.4g}"], textposition="top left",
                                 hovertemplate="M = %{x:.4g}<extra></extra>"))
    else:
        fig.add_trace(Scatter(x=M, y=lower, mode="lines", name="bound: (M − L_u)/‖u‖ (lower, on w·u/‖u‖)",
                                 line=dict(color=theme.GREY, dash="dot", width=2.5, shape="hv"),
                                 hovertemplate="%{y:.4g}"))
    fig.add_trace(Scatter(x=M, y=norm, mode="lines+markers", name="‖w_t‖ after M mistakes",
                             line=dict(color=theme.BLUE, width=2.5), hovertemplate="%{y:.4g}"))
    fig.add_trace(Scatter(x=M, y=w_dot_u, mode="lines+markers",
                             name="w_t · v" if gamma else "w_t · u/‖u‖",
                             line=dict(color=theme.GREEN, width=2.5), hovertemplate="%{y:.4g}"))
    return fig.build({"title": {"text": "The proof: ‖w‖ squeezed between two bounds"},
                      **_axes("mistakes M", "length (units of x)")}, height=height, presenter=presenter)


def mistakes_compare(curves: Mapping[str, np.ndarray], bounds: Mapping[str, float | np.ndarray], *,
                     current_round: int | None = None, title: str = "Mistakes on the same stream",
                     log_y: bool = False, pass_length: int | None = None, height: int = 420,
                     presenter: bool = False) -> go.Figure:
    """Cumulative mistakes of learners on one stream, each with its bound (dashed, same colour).

    A bound belongs to the curve whose name ends its formula in parentheses, e.g.
    ``"(R/γ)² (Perceptron)"``; other bounds are drawn in the bound colour.  Curves are
    ``(T,)`` arrays (value after rounds 1..T); bounds floats or ``(T,)`` arrays.
    ``pass_length``: when the stream is replayed (epochs), a faint line marks the start of
    each pass after the first (labelled "pass 2", ... for up to 10 passes).
    """
    fig = _Fig()
    T_all = max((len(c) for c in curves.values()), default=0)
    if pass_length and 0 < pass_length < T_all:
        starts = np.arange(pass_length, T_all, pass_length)
        for j, s0 in enumerate(starts):
            fig.shapes.append(dict(type="line", x0=float(s0) + 0.5, x1=float(s0) + 0.5, y0=0, y1=1, yref="paper",
                                   line=dict(color="rgba(140,140,140,0.45)", width=1, dash="dot")))
            if len(starts) <= 9:
                fig.annotations.append(dict(x=float(s0) + 0.5, y=0.0, yref="paper", text=f"pass {j + 2}",
                                            showarrow=False, xanchor="left", yanchor="bottom",
                                            font=dict(color=theme.GREY)))
    T = max((len(c) for c in curves.values()), default=0)
    rounds = np.arange(1, T + 1)
    idx = downsample(T)
    colours = {}
    for i, (name, c) in enumerate(curves.items()):
        colours[name] = theme.SERIES[i % len(theme.SERIES)]
        fig.add_trace(Scatter(x=rounds[idx], y=np.asarray(c, float)[idx], name=name, mode="lines",
                                 line=dict(color=colours[name], width=2.5, shape="hv"), hovertemplate="%{y:.4g}"))
    for i, (formula, b) in enumerate(bounds.items()):
        owner = next((n for n in curves if formula.endswith(f"({n})")), None)
        colour = colours.get(owner, theme.BOUND)
        if np.ndim(b) == 0:
            bx, by = np.array([1, max(T, 1)]), np.array([float(b)] * 2)
        else:
            b = np.asarray(b, float)
            bx, by = rounds[idx], b[idx]
        fig.add_trace(Scatter(x=bx, y=by, name=bound_name(formula), mode="lines",
                                 line=dict(color=colour, width=2, dash="dash"), hovertemplate="%{y:.4g}"))
    if current_round is not None:
        fig.vline(current_round)
    lay = _axes("round t", "cumulative mistakes" + (" (log scale)" if log_y else ""))
    if log_y:
        lay["yaxis"]["type"] = "log"
    else:
        lay["yaxis"]["rangemode"] = "tozero"
    return fig.build({"title": {"text": title}, **lay}, height=height, presenter=presenter)


def hyperplanes_compare(X: np.ndarray, y: np.ndarray, ws: Mapping[str, np.ndarray], *, R: float,
                        height: int = 460, presenter: bool = False) -> go.Figure:
    """The final hyperplane of each learner over the stream's points."""
    fig = _Fig()
    lim = 1.15 * R
    for lab, (name, colour, symbol) in _LABEL_STYLE.items():
        m = y == lab
        fig.add_trace(Scatter(x=X[m, 0], y=X[m, 1], mode="markers", name=name,
                                 marker=dict(color=colour, symbol=symbol, size=6, opacity=0.45),
                                 hovertemplate="(%{x:.3f}, %{y:.3f})<extra></extra>"))
    dashes = ["solid", "dash", "dot", "dashdot", "longdash"]
    for i, (name, w) in enumerate(ws.items()):
        w = np.asarray(w, float)
        if np.linalg.norm(w) == 0:
            continue
        seg = _line_through_origin(w, lim)
        fig.add_trace(Scatter(x=seg[:, 0], y=seg[:, 1], mode="lines", name=name,
                                 line=dict(color=theme.SERIES[i % len(theme.SERIES)], width=3,
                                           dash=dashes[i % len(dashes)]), hoverinfo="skip"))
    return fig.build({"title": {"text": "Final hyperplanes"}, "hovermode": "closest", 
                      **_axes("x₁", "x₂", lim)}, height=height, presenter=presenter)


# ---- Winnow -------------------------------------------------------------------------------

def winnow_weights(table: np.ndarray, change_rounds: np.ndarray, T: int, relevant: Sequence[int], *,
                   theta: float, current_round: int | None = None, relevant_name: str = "relevant",
                   others_name: str = "irrelevant", height: int = 440,
                   presenter: bool = False) -> go.Figure:
    r"""Winnow's weights over rounds on a log scale: each relevant attribute, and the spread of
    the irrelevant ones (max, median, min).

    ``table`` (K, N): weights after each mistake (row 0 the initial ones);
    ``change_rounds`` (K-1,): the round count (1-based) after which row ``j+1`` holds.
    ``relevant_name`` / ``others_name`` name the two groups in the legend (an uploaded
    stream has no known relevant set, only a disjunction found to label it).
    """
    table = np.asarray(table, float)
    x = np.concatenate([[0], np.asarray(change_rounds, float), [T]])
    rows = np.concatenate([np.arange(len(table)), [len(table) - 1]])
    fig = _Fig()
    irr = np.setdiff1d(np.arange(table.shape[1]), np.asarray(relevant, int))
    if irr.size:
        Wi = table[:, irr]
        hi, med, lo = Wi.max(axis=1)[rows], np.median(Wi, axis=1)[rows], Wi.min(axis=1)[rows]
        fig.add_trace(Scatter(x=x, y=hi, mode="lines", name=f"{others_name} ({irr.size}): max",
                                 line=dict(color=theme.GREY, width=1.5, shape="hv"), hovertemplate="%{y:.4g}"))
        fig.add_trace(Scatter(x=x, y=lo, mode="lines", name=f"{others_name} ({irr.size}): min",
                                 line=dict(color=theme.GREY, width=1.5, shape="hv"), fill="tonexty",
                                 fillcolor="rgba(140,140,140,0.15)", hovertemplate="%{y:.4g}"))
        fig.add_trace(Scatter(x=x, y=med, mode="lines", name=f"{others_name}: median",
                                 line=dict(color=theme.GREY, width=2, dash="dot", shape="hv"),
                                 hovertemplate="%{y:.4g}"))
    for i, r in enumerate(relevant):
        fig.add_trace(Scatter(x=x, y=table[rows, r], mode="lines", name=f"{relevant_name} x{int(r) + 1}",
                                 line=dict(color=theme.SERIES[i % 6], width=3, shape="hv"),
                                 hovertemplate="%{y:.4g}"))
    fig.add_trace(Scatter(x=[0, T], y=[theta, theta], mode="lines", name=f"threshold θ = {theta:g}",
                             line=dict(color=theme.BOUND, dash="dash", width=2), hovertemplate="%{y:.4g}"))
    if current_round is not None:
        fig.vline(current_round)
    lay = _axes("round t", "weight w_i (log scale)")
    lay["yaxis"].update(type="log", dtick=1, exponentformat="power")
    return fig.build({"title": {"text": "Winnow's weights"}, **lay},
                     height=height, presenter=presenter)


def winnow_potential(potential: np.ndarray, upper: np.ndarray, formula: str, *, current_round: int | None = None,
                     height: int = 400, presenter: bool = False) -> go.Figure:
    r"""The potential :math:`\Phi_t = \sum_i w_i` (T+1,) against the upper bound the proof maintains."""
    n = len(potential)
    idx = downsample(n)
    t = np.arange(n)
    fig = _Fig()
    fig.add_trace(Scatter(x=t[idx], y=np.asarray(potential)[idx], mode="lines", name="Φ_t = Σ w_i",
                             line=dict(color=theme.BLUE, width=2.5, shape="hv"), hovertemplate="%{y:.5g}"))
    fig.add_trace(Scatter(x=t[idx], y=np.asarray(upper)[idx], mode="lines", name=bound_name(formula),
                             line=dict(color=theme.BOUND, width=2.5, dash="dash", shape="hv"),
                             hovertemplate="%{y:.5g}"))
    fig.add_trace(Scatter(x=[0, n - 1], y=[0, 0], mode="lines", name="bound: Φ > 0 (lower)",
                             line=dict(color=theme.GREY, width=2, dash="dot"), hoverinfo="skip"))
    if current_round is not None:
        fig.vline(current_round)
    return fig.build({"title": {"text": "The proof's potential Φ = Σ w"}, **_axes("round t", "Σ_i w_i")},
                     height=height, presenter=presenter)


def sweep_mistakes(Ns: np.ndarray, stats: Mapping[str, np.ndarray], bounds: Mapping[str, np.ndarray], *,
                   y_max: float | None = None, height: int = 440, presenter: bool = False) -> go.Figure:
    """Mistakes against N (log x): per learner the mean over seeds with a min-max band, and bounds.

    ``stats[name]`` (S, len(Ns)): mistakes per seed and N.
    """
    fig = _Fig()
    Ns = np.asarray(Ns, float)
    colours = {}
    for i, (name, A) in enumerate(stats.items()):
        A = np.asarray(A, float)
        c = theme.SERIES[i % len(theme.SERIES)]
        colours[name] = c
        fig.add_trace(Scatter(x=np.concatenate([Ns, Ns[::-1]]),
                                 y=np.concatenate([A.max(axis=0), A.min(axis=0)[::-1]]),
                                 fill="toself", mode="lines", line=dict(width=0), fillcolor=c, opacity=0.2,
                                 name=f"{name}: min–max over {A.shape[0]} seeds", hoverinfo="skip"))
        fig.add_trace(Scatter(x=Ns, y=A.mean(axis=0), mode="lines+markers", name=f"{name}: mean",
                                 line=dict(color=c, width=3), hovertemplate="N = %{x}<br>%{y:.4g} mistakes"))
    for formula, b in bounds.items():
        owner = next((n for n in stats if formula.endswith(f"({n})")), None)
        fig.add_trace(Scatter(x=Ns, y=np.asarray(b, float), mode="lines", name=bound_name(formula),
                                 line=dict(color=colours.get(owner, theme.BOUND), dash="dash", width=2),
                                 hovertemplate="N = %{x}<br>%{y:.4g}"))
    lay = _axes("number of attributes N (log scale)", "mistakes (log scale)")
    lay["xaxis"].update(type="log", dtick=1)
    lay["yaxis"].update(type="log", dtick=1)
    if y_max is not None:   # keep the measured curves readable; steep bounds leave the frame
        lay["yaxis"]["range"] = [0.5, float(np.log10(y_max))]
    return fig.build({"title": {"text": "Mistakes as irrelevant attributes abound"}, "hovermode": "closest",
                      **lay}, height=height, presenter=presenter)
