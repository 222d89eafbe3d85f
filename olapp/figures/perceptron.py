"""Figures of the Perceptron lesson on the shared style: the analysis in, ``go.Figure`` out.

Nothing here runs an algorithm or computes a bound; the builders draw what
:mod:`olcore.lessons.perceptron` returns.  Presenter sizes are applied by ``controls.chart``.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from olcore.lessons import perceptron as lesson
from olcore.lessons.perceptron import (Comparison, Conservative, DualAscent, HingeView, OGDRegret, PerceptronAnalysis,
                                        Regularised)

from .. import theme
from . import Fig, figure, axes, bound_name, curves_with_bounds, downsample, LABELS, points_by_round, scatter

__all__ = ["data_space", "weight_space", "mistakes", "log_scale", "proof", "compare", "hyperplanes",
           "ogd_regret", "conservative", "hinge_indicator", "hinge_scale", "regularised", "dual_sum",
           "dual_increments"]



def _line_through_origin(normal: np.ndarray, half: float) -> np.ndarray:
    """Endpoints of the line {x : normal . x = 0} across a box of half-width ``half``."""
    n = normal / np.linalg.norm(normal)
    return np.array([[n[1], -n[0]], [-n[1], n[0]]]) * half * 1.5


def _arrow(fig: Fig, tip, tail, colour: str, width: float) -> None:
    """An arrow from ``tail`` to ``tip`` (no arrow for ``None``) as a trace: a line with an arrowhead
    marker turned along it.  An annotation would do, but plotly.js recomputes every trace of the chart
    when an annotation moves (a frame too slow for Play on the data space's 2000 points); a trace
    that moves is redrawn alone."""
    xs, ys = ([None, None], [None, None]) if tip is None else ([tail[0], tip[0]], [tail[1], tip[1]])
    fig.add(scatter(xs, ys, "", mode="lines+markers", showlegend=False, hoverinfo="skip",
                    line=dict(color=colour, width=width),
                    marker=dict(symbol=["circle", "arrow"], size=[0, 5 * width + 2], angleref="previous",
                                color=colour, line=dict(width=0))))


def _label(fig: Fig, at, text: str, colour: str) -> None:
    """Bold text centred on ``at`` (nothing for ``None``), as a trace (see :func:`_arrow`)."""
    fig.add(scatter([None if at is None else at[0]], [None if at is None else at[1]], "", mode="text",
                    text=[f"<b>{text}</b>"], textposition="middle center", textfont=dict(color=colour, size=18),
                    showlegend=False, hoverinfo="skip"))


@figure(animated=True)
def data_space(a: PerceptronAnalysis, t: int, height: int = 520) -> go.Figure:
    r"""The stream in the plane after ``t`` rounds: points by label (seen solid, to come faded),
    the ball of radius R, the separator v with its margin band (separable streams), the current
    hyperplane :math:`\mathbf w_t\cdot\mathbf x = 0` with its normal, and round t's point ringed."""
    view = lesson.at_round(a, t)
    X, y, R = a.X, a.y, a.R
    fig = Fig()
    lim = 1.15 * R
    th = np.linspace(0, 2 * np.pi, 200)
    fig.add(scatter(R * np.cos(th), R * np.sin(th), f"ball ‖x‖ ≤ R = {R:.3g}", mode="lines",
                    line=dict(color=theme.GREY, dash="dot", width=1.5), hoverinfo="skip"))
    if a.separable:
        v, g = a.v / np.linalg.norm(a.v), a.gamma
        p = np.array([-v[1], v[0]]) * lim * 1.5
        band = np.array([p + g * v, -p + g * v, -p - g * v, p - g * v, p + g * v])
        fig.add(scatter(band[:, 0], band[:, 1], f"margin band ±γ, γ = {g:.3g}", fill="toself", mode="lines",
                        line=dict(width=0), fillcolor="rgba(0,158,115,0.15)", hoverinfo="skip"))
        seg = _line_through_origin(v, lim)
        fig.add(scatter(seg[:, 0], seg[:, 1], "separator v (unit)", mode="lines",
                        line=dict(color=theme.GREEN, width=2, dash="dash"), hoverinfo="skip"))
    points_by_round(fig, X, y, view.n_seen, LABELS)
    w = np.asarray(view.w, float)
    nw = float(np.linalg.norm(w))
    if nw > 0:
        seg = _line_through_origin(w, lim)
        fig.add(scatter(seg[:, 0], seg[:, 1], "hyperplane w_t · x = 0", mode="lines",
                        line=dict(color=theme.BLUE, width=3), hoverinfo="skip"))
        tip = w / nw * 0.8 * R
        _arrow(fig, tip, (0, 0), theme.BLUE, 2.5)
        fig.add(scatter([None], [None], "arrow: the normal w_t/‖w_t‖", mode="lines",   # named in the legend,
                        line=dict(color=theme.BLUE, width=2.5), hoverinfo="skip"))      # not over the points
    else:
        _arrow(fig, None, None, theme.BLUE, 2.5)
        fig.annotations.append(dict(x=0, y=-0.95 * R, xref="x", yref="y", showarrow=False,
                                    text="w = 0: no hyperplane yet (every score is 0)"))
    for mistake, colour in ((True, theme.VERMILLION), (False, theme.GREY)):    # both always in the legend
        at = X[view.last] if view.last is not None and view.last_mistake == mistake else [None, None]
        fig.add(scatter([at[0]], [at[1]], "x_t just played: " + ("a mistake" if mistake else "no mistake"),
                        mode="markers", marker=dict(size=20, symbol="circle-open", line=dict(width=3), color=colour),
                        hovertemplate="x_t = (%{x:.3f}, %{y:.3f})<extra></extra>"))
    return fig.build({"title": {"text": "Data space"}, "hovermode": "closest", **axes("x₁", "x₂", lim)},
                     height=height)


@figure(animated=True)
def weight_space(a: PerceptronAnalysis, t: int, height: int = 520) -> go.Figure:
    r"""The weights after each mistake so far, round t's update :math:`+y_t\mathbf x_t` as an arrow
    (when it was a mistake), the wedge of directions consistent with every point seen, and v."""
    view = lesson.at_round(a, t)
    path = np.asarray(view.path, float)
    # the axes span the whole run's weights, so they stay put while the player moves
    rho = max(float(np.max(a.proof.norm)) * 1.15, 1e-9)
    if rho < 1e-6:
        rho = 1.0
    fig = Fig()
    for i, (a0, a1) in enumerate(view.arcs):
        ang = np.linspace(a0, a1, 90)
        fig.add(scatter(np.concatenate([[0], rho * np.cos(ang), [0]]), np.concatenate([[0], rho * np.sin(ang), [0]]),
                        "directions consistent with the points seen", fill="toself",
                        mode="lines", line=dict(width=0), fillcolor="rgba(0,158,115,0.18)", showlegend=i == 0,
                        hoverinfo="skip"))
    if not view.arcs:
        fig.annotations.append(dict(x=0, y=-0.9 * rho, xref="x", yref="y", showarrow=False,
                                    text="no direction fits every point seen:<br>not separable"))
    if a.separable:
        vv = a.v / np.linalg.norm(a.v) * rho
        fig.add(scatter([0, vv[0]], [0, vv[1]], "direction of v", mode="lines",
                        line=dict(color=theme.GREEN, dash="dash", width=2), hoverinfo="skip"))
    k = downsample(len(path))   # long noisy runs: at most MAX_POINTS mistakes drawn, the last kept
    fig.add(scatter(
        path[k, 0], path[k, 1], "w after each mistake", mode="lines+markers",
        line=dict(color=theme.BLUE, width=2), marker=dict(size=7, color=theme.BLUE),
        customdata=np.column_stack([k, np.linalg.norm(path[k], axis=1)]),
        hovertemplate="after mistake %{customdata[0]}<br>w = (%{x}, %{y})<br>‖w‖ = %{customdata[1]}<extra></extra>"))
    # round t's update, when it was a mistake: the same two traces on every round (a frame moves them)
    b, e = (np.asarray(p, float) for p in view.update) if view.update is not None else (None, None)
    _arrow(fig, e, b, theme.VERMILLION, 3)
    at = None
    if e is not None:                    # beside the arrow's middle, off its line
        d = e - b
        n = np.array([-d[1], d[0]]) / max(float(np.linalg.norm(d)), 1e-12)
        at = (e + b) / 2 + n * 0.12 * rho
    _label(fig, at, "+ y_t x_t", theme.VERMILLION)
    span = sum(a1 - a0 for a0, a1 in view.arcs)       # in the title, not the legend: a frame changes it
    title = f"Weight space: the consistent directions span {np.degrees(span):.1f}°" if view.arcs else "Weight space"
    return fig.build({"title": {"text": title}, "hovermode": "closest", **axes("w₁", "w₂", rho)},
                     height=height)


def log_scale(a: PerceptronAnalysis) -> bool:
    """A thin margin puts Novikoff's bound far above the count: a linear axis would flatten the staircase."""
    return bool(a.separable and a.bound.value > 15 * max(a.trace.n_mistakes, 1))


#: Log-axis ticks 1, 2, 5, 10, 20, ...: plotly's default minor labels crowd at presenter font sizes.
_LOG_TICKS = [m * 10 ** k for k in range(7) for m in (1, 2, 5)]


def _log_ticks(fig: go.Figure) -> go.Figure:
    if fig.layout.yaxis.type == "log":
        fig.update_yaxes(tickvals=_LOG_TICKS, ticktext=[f"{v:g}" for v in _LOG_TICKS])
    return fig


@figure(animated=True)
def mistakes(a: PerceptronAnalysis, t: int, height: int = 420) -> go.Figure:
    """The Perceptron's cumulative mistakes with the bound of this stream (Novikoff or relative)."""
    return _log_ticks(curves_with_bounds({"Perceptron": a.cum_mistakes}, [a.bound], t=t,
                              title={"separable": "Mistakes", "not separable": "Mistakes (non-separable stream)",
                                     "undecided": "Mistakes (no separator found)"}[a.verdict],
                              yaxis_title="cumulative mistakes", log_y=log_scale(a),
                              pass_length=a.pass_length if a.epochs > 1 else None, height=height))


@figure(animated=True)
def proof(a: PerceptronAnalysis, t: int, height: int = 420) -> go.Figure:
    r"""The proof after the mistakes of rounds 1..t: :math:`\|\mathbf w\|` under :math:`\sqrt M R`, and
    :math:`\mathbf w\cdot\hat{\mathbf v}` over its lower bound (the lines out to where they meet)."""
    p = a.proof
    K = a.mistakes_at(t) + 1
    keep = downsample(K)
    M, norm, w_dot, lower = (np.asarray(x)[:K][keep] for x in (p.M, p.norm, p.w_dot, p.lower))
    fig = Fig()
    m_max = max(float(M.max()) if len(M) else 1.0, 1.0)
    if p.meet is not None:
        m_max = max(m_max, p.meet * 1.05)
    mm = np.linspace(0, m_max, 400)
    fig.add(scatter(mm, np.sqrt(mm) * a.R, "bound: √M·R (upper, on ‖w‖)", mode="lines",
                    line=dict(color=theme.BOUND, dash="dash", width=2.5), hovertemplate="%{y}"))
    if p.meet is not None:
        fig.add(scatter(mm, mm * a.gamma, "bound: M·γ (lower, on w·v)", mode="lines",
                        line=dict(color=theme.GREY, dash="dot", width=2.5), hovertemplate="%{y}"))
        fig.add(scatter([p.meet], [p.meet * a.gamma], "they meet at M = (R/γ)²", mode="markers+text",
                        marker=dict(size=11, color=theme.BOUND, symbol="x"), text=[f"M = (R/γ)² = {p.meet:.4g}"],
                        textposition="top left", hovertemplate="M = %{x}<extra></extra>"))
    else:
        fig.add(scatter(M, lower, "bound: (M − L_u)/‖u‖ (lower, on w·u/‖u‖)", mode="lines",
                        line=dict(color=theme.GREY, dash="dot", width=2.5, shape="hv"), hovertemplate="%{y}"))
    fig.add(scatter(M, norm, "‖w_t‖ after M mistakes", mode="lines+markers",
                    line=dict(color=theme.BLUE, width=2.5), hovertemplate="%{y}"))
    fig.add(scatter(M, w_dot, "w_t · v" if a.separable else "w_t · u/‖u‖", mode="lines+markers",
                    line=dict(color=theme.GREEN, width=2.5), hovertemplate="%{y}"))
    return fig.build({"title": {"text": "The proof: ‖w‖ squeezed between two bounds"},
                      **axes("mistakes M", "length (units of x)")}, height=height)


@figure(animated=True)
def compare(a: PerceptronAnalysis, c: Comparison, t: int, height: int = 480) -> go.Figure:
    """Each learner's cumulative mistakes with its own bound (same colour, log scale)."""
    curves = {k: np.cumsum(tr.mistakes) for k, tr in c.traces.items()}
    bounds = {f"{r.formula} ({k})": (r.curve if r.curve is not None else r.value) for k, r in c.bounds.items()}
    return _log_ticks(curves_with_bounds(curves, bounds, t=t, title="Mistakes on the same stream",
                                         yaxis_title="cumulative mistakes", log_y=True,
                                         pass_length=a.pass_length if a.epochs > 1 else None, height=height))


@figure
def hyperplanes(a: PerceptronAnalysis, c: Comparison, height: int = 460) -> go.Figure:
    """The final hyperplane of each learner over the stream's points."""
    fig = Fig()
    lim = 1.15 * a.R
    for lab, (name, colour, symbol) in LABELS.items():
        m = a.y == lab
        fig.add(scatter(a.X[m, 0], a.X[m, 1], name, mode="markers",
                        marker=dict(color=colour, symbol=symbol, size=6, opacity=0.45),
                        hovertemplate="(%{x}, %{y})<extra></extra>"))
    dashes = ["solid", "dash", "dot", "dashdot", "longdash"]
    for i, (name, w) in enumerate(c.final_weights().items()):
        if np.linalg.norm(w) == 0:
            continue
        seg = _line_through_origin(np.asarray(w, float), lim)
        fig.add(scatter(seg[:, 0], seg[:, 1], name, mode="lines", hoverinfo="skip",
                        line=dict(color=theme.SERIES[i % len(theme.SERIES)], width=3, dash=dashes[i % len(dashes)])))
    return fig.build({"title": {"text": "Final hyperplanes"}, "hovermode": "closest", **axes("x₁", "x₂", lim)},
                     height=height)


# ---- going deeper ----------------------------------------------------------------------------------

@figure(animated=True)
def ogd_regret(r: OGDRegret, t: int, height: int = 420) -> go.Figure:
    """OGD's hinge-loss regret against u with the tuned η, under the proof's curve and U R √m."""
    bounds = {}
    if r.report.applies:
        bounds = {"U²/(2η) + ηtR²/2 (the proof, after t rounds)": r.report.curve, r.report.formula: r.report.value}
    return curves_with_bounds({f"OGD's regret against u (η = U/(R√m) = {r.eta:.3g})": r.regret}, bounds, t=t,
                              title="OGD with the tuned η: regret on the hinge loss",
                              yaxis_title="Σ hinge(OGD) − Σ hinge(u)", height=height)


@figure(animated=True)
def conservative(c: Conservative, t: int, height: int = 420) -> go.Figure:
    """‖w_t‖ of conservative OGD at each η (log scale): parallel staircases, η apart, stepping together."""
    curves = {f"‖w_t‖, conservative OGD η = {e:g}": n for e, n in c.norms.items()}
    fig = curves_with_bounds(curves, {}, t=t, title="Conservative OGD: the same steps, scaled by η",
                             yaxis_title="‖w_t‖ (log scale)", log_y=True, height=height)
    ticks = [m * 10.0 ** k for k in range(-6, 7) for m in (1, 3)]
    return fig.update_yaxes(tickvals=ticks, ticktext=[f"{v:g}" for v in ticks])


@figure
def hinge_indicator(h: HingeView, height: int = 420) -> go.Figure:
    """1[yz ≤ 0] and (1 − yz)₊ against the margin yz, with this stream's margins y u·x of the comparator."""
    z = h.margins * h.norm_u
    lo, hi = min(-2.0, float(z.min()) - 0.2), max(3.0, min(float(z.max()) + 0.2, 8.0))
    zz = np.linspace(lo, hi, 400)
    fig = Fig()
    fig.add(scatter(zz, np.maximum(0.0, 1.0 - zz), bound_name("(1 − yz)₊, the hinge loss"), mode="lines",
                    line=dict(color=theme.BOUND, dash="dash", width=3), hovertemplate="yz = %{x:.3g}: %{y:.3g}"))
    fig.add(scatter(zz, (zz <= 0).astype(float), "1[yz ≤ 0], the mistake indicator", mode="lines",
                    line=dict(color=theme.BLUE, width=3, shape="hv"), hovertemplate="yz = %{x:.3g}: %{y:g}"))
    keep = downsample(len(z))
    zs = np.clip(z[keep], lo, hi)
    fig.add(scatter(zs, np.maximum(0.0, 1.0 - zs), "this stream's margins y_t u·x_t (hinge of each)", mode="markers",
                    marker=dict(color=theme.GREEN, size=7, opacity=0.6),
                    customdata=z[keep], hovertemplate="y u·x = %{customdata:.4g}<br>hinge %{y:.4g}<extra></extra>"))
    return fig.build({"title": {"text": "The hinge loss is a convex upper bound"}, "hovermode": "closest",
                      **axes("margin yz", "loss")}, height=height)


@figure
def hinge_scale(h: HingeView, height: int = 420) -> go.Figure:
    """The hinge loss of s·û on the stream over the length s, above the mistakes of û."""
    fig = Fig()
    fig.add(scatter(h.scales, h.hinge, bound_name("Σ_t (1 − y_t s û·x_t)₊, hinge loss of s·û"), mode="lines",
                    line=dict(color=theme.BOUND, dash="dash", width=3), hovertemplate="s = %{x:.3g}: %{y:.4g}"))
    fig.add(scatter(h.scales[[0, -1]], [h.mistakes, h.mistakes], "mistakes of û (the same for every s > 0)",
                    mode="lines", line=dict(color=theme.BLUE, width=3), hovertemplate="%{y}"))
    fig.vline(h.norm_u, f"‖u‖ = {h.norm_u:.3g}")
    return fig.build({"title": {"text": "Hinge loss of u = s·û as ‖u‖ = s grows"},
                      **axes("s = ‖u‖", "total over the stream")}, height=height)


@figure
def regularised(g: Regularised, height: int = 420) -> go.Figure:
    """The soft-margin objective of each prefix at each learner's weights, above its minimum."""
    fig = Fig()
    for i, (name, f) in enumerate(g.objective.items()):
        fig.add(scatter(g.rounds, f, name, mode="lines+markers", hovertemplate="t = %{x}: %{y:.4g}",
                        line=dict(color=theme.SERIES[i % len(theme.SERIES)], width=2.5), marker=dict(size=5)))
    fig.add(scatter(g.rounds, g.minimum, bound_name("min_w Σ_{s≤t} L_hi + λ‖w‖² (below every w)"),
                    mode="lines", line=dict(color=theme.BOUND, dash="dash", width=2.5),
                    hovertemplate="t = %{x}: %{y:.4g}"))
    return fig.build({"title": {"text": f"Σ_{{s≤t}} L_hi(y_s, w_{{t+1}}·x_s) + λ‖w_{{t+1}}‖², λ = {g.lam:g}"},
                      **axes("round t", "objective of rounds 1..t")}, height=height)


@figure(animated=True)
def dual_sum(d: DualAscent, t: int, height: int = 420) -> go.Figure:
    """Σ_{s≤t} D_s(α_s) rising under SVM_OPT of rounds 1..t and of the whole stream."""
    fig = curves_with_bounds({"Σ D_s(α_s), PA-I's dual objective": d.cumulative},
                             {f"{d.report.formula} of the whole stream": d.report.value},
                             t=min(t, d.increments.size),           # one pass: the player may run on
                             title=f"PA-I climbs the SVM dual (C = {d.C:g})", yaxis_title="dual objective",
                             height=height)
    fig.add_scatter(x=d.rounds, y=d.prefix_opt, name=bound_name("SVM_OPT of rounds 1..t"), mode="lines",
                    line=dict(color=theme.GREY, dash="dot", width=2.5), hovertemplate="t = %{x}: %{y:.4g}")
    return fig


@figure(animated=True)
def dual_increments(d: DualAscent, t: int, height: int = 420) -> go.Figure:
    """Each round's increment D_t(α_t): mistakes in orange, above min(C, 1)/2."""
    T = d.increments.size
    r = np.arange(1, T + 1)
    m = d.mistakes
    fig = Fig()
    for mask, name, colour in ((~m, "D_t(α_t), correct round", theme.BLUE),
                               (m, "D_t(α_t), mistake", theme.ORANGE)):
        fig.add(dict(type="bar", x=r[mask], y=d.increments[mask], name=name, marker=dict(color=colour), width=0.9,
                     hovertemplate="t = %{x}: %{y:.4g}<extra></extra>"))
    if m.any():
        fig.add(scatter([0.5, T + 0.5], [d.floor, d.floor], bound_name("min(C, 1/R²)/2 (under every mistake's)"),
                        mode="lines", line=dict(color=theme.BOUND, dash="dash", width=2.5), hovertemplate="%{y:.4g}"))
    fig.round_marker(min(t, T))
    return fig.build({"title": {"text": "Each step's increment D_t(α_t)"}, "barmode": "overlay", "bargap": 0.1,
                      **axes("round t", "increment of the dual")}, height=height)
