"""Figures of the online SVM lesson on the shared style: the analyses in, ``go.Figure`` out.

Nothing here runs an algorithm or computes a bound; the builders draw what
:mod:`olcore.lessons.online_svm` returns.  Presenter sizes are applied by ``controls.chart``.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from olcore.lessons import online_svm as lesson
from olcore.lessons.online_svm import ALMAAnalysis, SecondOrderAnalysis, SelectiveAnalysis

from .. import theme
from . import Fig, figure, axes, bound_name, curves_with_bounds, log_ticks, LABELS, points_by_round, scatter

__all__ = ["alma_plane", "alma_updates", "alma_margin", "sop_mistakes", "sop_plane", "selective_curves",
           "selective_plane", "selective_sweep"]



def _line(normal, lim: float) -> np.ndarray:
    n = np.asarray(normal, float) / np.linalg.norm(normal)
    return np.array([[n[1], -n[0]], [-n[1], n[0]]]) * lim * 1.5


def _band(fig: Fig, normal, half: float, lim: float, name: str, colour: str) -> None:
    """The strip |n·x| <= half around the line n·x = 0 (n a unit normal)."""
    n = np.asarray(normal, float) / np.linalg.norm(normal)
    p = np.array([-n[1], n[0]]) * lim * 1.5
    b = np.array([p + half * n, -p + half * n, -p - half * n, p - half * n, p + half * n])
    fig.add(scatter(b[:, 0], b[:, 1], name, fill="toself", mode="lines", line=dict(width=0), fillcolor=colour,
                    hoverinfo="skip"))


def _points(fig: Fig, X, y, seen: int, highlight=None, highlight_name: str = "") -> None:
    points_by_round(fig, X, y, seen, LABELS, later="to come")
    if highlight is not None and np.any(highlight):
        h = np.flatnonzero(highlight)
        fig.add(scatter(X[h, 0], X[h, 1], highlight_name, mode="markers",
                        marker=dict(size=15, symbol="circle-open", line=dict(width=2), color=theme.VERMILLION),
                        hoverinfo="skip"))


@figure(animated=True)
def alma_plane(a: ALMAAnalysis, t: int, height: int = 540) -> go.Figure:
    """The normalised instances ALMA sees (on the unit circle), the SVM hyperplane with its margin band,
    ALMA's hyperplane with its band |w·x̂| ≤ (1 − α)γ_k, the points that would make it update now crossed
    (y w·x̂ ≤ (1 − α)γ_k: the band's and the misclassified ones beyond it), and the Perceptron's hyperplane."""
    s = lesson.alma_at(a, t)
    fig = Fig()
    lim = 1.2
    th = np.linspace(0, 2 * np.pi, 200)
    fig.add(scatter(np.cos(th), np.sin(th), "unit circle", mode="lines",
                    line=dict(color=theme.GREY, dash="dot", width=1), hoverinfo="skip"))
    if a.separable:
        _band(fig, a.v_svm, a.gamma, lim, "SVM margin ±γ⋆", "rgba(0,158,115,0.16)")
        seg = _line(a.v_svm, lim)
        fig.add(scatter(seg[:, 0], seg[:, 1], "SVM hyperplane", mode="lines",
                        line=dict(color=theme.GREEN, width=3, dash="dash"), hoverinfo="skip"))
    w = s["w"]
    nw = float(np.linalg.norm(w))
    if nw > 0:
        if s["threshold"] > 0:                           # (α = 1: the target is 0, no band)
            _band(fig, w, s["threshold"] / nw, lim, "ALMA's update band", "rgba(0,114,178,0.13)")
        seg = _line(w, lim)
        fig.add(scatter(seg[:, 0], seg[:, 1], "ALMA's hyperplane", mode="lines", line=dict(color=theme.BLUE, width=3),
                        hoverinfo="skip"))
    wp = s["w_perceptron"]
    if np.linalg.norm(wp) > 0:
        seg = _line(wp, lim)
        fig.add(scatter(seg[:, 0], seg[:, 1], "Perceptron's hyperplane", mode="lines",
                        line=dict(color=theme.ORANGE, width=2, dash="dot"), hoverinfo="skip"))
    last = np.zeros(len(a.y), bool)
    if s["last"] is not None:
        last[s["last"]] = True
    _points(fig, a.Xh, a.y, s["seen"], last, "x̂_t just played" + (" (update)" if s["last_updated"] else ""))
    would = np.flatnonzero(s["would_update"])           # y w·x̂ ≤ (1 − α)γ_k: in the band, or misclassified
    fig.add(scatter(a.Xh[would, 0], a.Xh[would, 1], "would update now", mode="markers",   # (one trace every round,
                    marker=dict(symbol="x-thin", size=10, line=dict(width=2, color=theme.PURPLE)),  # a fixed name)
                    hoverinfo="skip"))
    return fig.build({"title": {"text": f"ALMA after round {s['t']}"}, "hovermode": "closest",
                      **axes("x̂₁", "x̂₂", lim)}, height=height)


def _steps(events: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A count that grows by one at each event, as the points where it changes (drawn with shape "hv"):
    x = 0, each event's round, T; y = the count after that round."""
    rounds = np.flatnonzero(events) + 1
    T = events.size
    x = np.concatenate([[0], rounds, [T]])
    y = np.concatenate([[0], np.arange(1, rounds.size + 1), [rounds.size]])
    return x, y


def _level(fig: Fig, value: float, T: int, name: str, colour: str, dash: str, width: float = 2.5) -> None:
    fig.add(scatter([0, T], [value, value], name, mode="lines", line=dict(color=colour, width=width, dash=dash),
                    hovertemplate="%{y:.4g}"))


def _clean_pass(fig: Fig, a: ALMAAnalysis, t: int) -> None:
    """Mark the first pass without an update once the player has played it (a round marker from the future
    would answer the lecture's question about it before the rounds are played)."""
    if a.converged_pass is not None and a.epochs > 1 and t >= a.converged_pass * a.pass_length:
        fig.vline((a.converged_pass - 1) * a.pass_length + 0.5, f"pass {a.converged_pass}: no update",
                  colour=theme.GREY, side="right")


@figure(animated=True)
def alma_updates(a: ALMAAnalysis, t: int) -> go.Figure:
    """ALMA's updates (and the Perceptron's mistakes) over rounds against ALMA's update bound, and the
    slide's order (‖u_SVM‖/α)² as a marked level.  The counts change only at updates, so only those
    rounds are sent (a step line), however long the run."""
    fig = Fig()
    for events, name, colour in ((a.trace.extras["updated"], "ALMA's updates", theme.BLUE),
                                 (a.perceptron.mistakes, "Perceptron's mistakes", theme.ORANGE)):
        x, y = _steps(np.asarray(events))
        fig.add(scatter(x, y, name, mode="lines", line=dict(color=colour, width=2.5, shape="hv"),
                        hovertemplate="round %{x}: %{y}<extra></extra>"))
    if a.updates.applies:
        _level(fig, a.updates.value, a.T, bound_name(a.updates.formula), theme.BOUND, "dash")
        _level(fig, a.slide_order, a.T, "order on the slide: (‖u_SVM‖/α)²", theme.GREY, "dot", 1.5)
    _clean_pass(fig, a, t)
    fig.round_marker(t, rounds=a.T)
    lay = axes("round t", "count")
    top = max(a.updates.value if a.updates.applies else 0, float(a.n_updates), float(a.perceptron.mistakes.sum()))
    lay["yaxis"].update(type="log", range=[-0.1, np.log10(top * 1.6 + 1)], **log_ticks([1, top * 1.6 + 1]))
    return fig.build({"title": {"text": "Updates against the bound"}, **lay}, height=400)


@figure(animated=True)
def alma_margin(a: ALMAAnalysis, t: int) -> go.Figure:
    """The margin of ALMA's hyperplane over the whole stream, before each round, against (1 − α)γ⋆ and γ⋆.
    It changes only after an update, so only those rounds are sent (a step line)."""
    fig = Fig()
    T = a.T
    change = np.concatenate([[0], np.flatnonzero(a.trace.extras["updated"]) + 1, [T]])
    m = np.where(np.isfinite(a.margin), a.margin, np.nan)
    fig.add(scatter(change, m[change], "ALMA's margin min_t y_t w·x̂_t/‖w‖", mode="lines",
                    line=dict(color=theme.BLUE, width=2.5, shape="hv"),
                    hovertemplate="round %{x}: %{y:.4g}<extra></extra>"))
    if a.separable:
        _level(fig, a.final_margin.value, T, "bound: (1 − α)γ⋆ (once a pass makes no update)", theme.BOUND, "dash")
        _level(fig, a.gamma, T, "SVM margin γ⋆", theme.GREEN, "dot", 2)
    _clean_pass(fig, a, t)
    fig.round_marker(t, rounds=a.T)
    fin = m[np.isfinite(m)]
    hi = max(a.gamma, float(fin.max()) if fin.size else 0.0, 0.05)
    lay = axes("round t", "margin on the normalised points")
    lay["yaxis"].update(range=[-0.8 * hi, 1.25 * hi])   # the early, negative margins leave the picture downwards
    return fig.build({"title": {"text": "ALMA's margin against (1 − α)γ⋆"}, **lay}, height=400)


@figure
def sop_mistakes(b: SecondOrderAnalysis) -> go.Figure:
    """Cumulative mistakes of the second-order Perceptron and the Perceptron, each with its bound."""
    curves = {"2nd order": np.cumsum(b.sop.mistakes), "Perceptron": np.cumsum(b.perceptron.mistakes)}
    top = max(1, int(b.sop.mistakes.sum()), int(b.perceptron.mistakes.sum()))
    log = b.separable and b.novikoff.value > 20 * top
    return curves_with_bounds(curves, [b.sop_bound, b.novikoff], title="Mistakes against the bounds",
                              yaxis_title="mistakes", log_y=log, height=420)


@figure
def sop_plane(b: SecondOrderAnalysis, height: int = 480) -> go.Figure:
    """The stream in the plane with the correlation matrix A = aI + Σ x xᵀ (mistakes) drawn as the
    ellipse {x : xᵀA⁻¹x = 1} scaled to the data, and both learners' final hyperplanes."""
    X, y = b.X, b.y
    lim = 1.15 * b.R
    fig = Fig()
    vals, vecs = np.linalg.eigh(b.A)
    scale = lim * 0.9 / math.sqrt(vals.max())
    th = np.linspace(0, 2 * np.pi, 90)
    ell = (vecs @ (np.sqrt(vals)[:, None] * np.vstack([np.cos(th), np.sin(th)]))).T * scale
    fig.add(scatter(ell[:, 0], ell[:, 1], "correlation matrix A = aI + Σ x xᵀ (ellipse, scaled)", mode="lines",
                    line=dict(color=theme.PURPLE, width=2.5), hoverinfo="skip"))
    for tr, name, colour, dash in ((b.sop, "2nd order Perceptron", theme.BLUE, "solid"),
                                   (b.perceptron, "Perceptron", theme.ORANGE, "dot")):
        w = tr.weights_at(tr.T)
        if np.linalg.norm(w) > 0:
            seg = _line(w, lim)
            fig.add(scatter(seg[:, 0], seg[:, 1], f"{name}'s final hyperplane", mode="lines",
                            line=dict(color=colour, width=2.5, dash=dash), hoverinfo="skip"))
    _points(fig, X, y, len(X), b.sop.mistakes, "2nd order's mistakes")
    return fig.build({"title": {"text": "The stream and the correlation matrix"}, "hovermode": "closest",
                      **axes("x₁", "x₂", lim)}, height=height)


@figure(animated=True)
def selective_curves(s: SelectiveAnalysis, t: int) -> go.Figure:
    """Labels queried and mistakes over rounds, against the fully supervised second-order Perceptron."""
    T = s.T
    curves = {"labels queried": s.labels, "mistakes (selective)": np.cumsum(s.trace.mistakes),
              "mistakes (every label)": np.cumsum(s.full.mistakes), "labels (every label)": np.arange(1, T + 1)}
    return curves_with_bounds(curves, (), t=t, title="Labels and mistakes", yaxis_title="count", height=420)


@figure(animated=True)
def selective_plane(s: SelectiveAnalysis, t: int, height: int = 480) -> go.Figure:
    """The points played so far, the queried ones ringed, and the current hyperplane (d = 2)."""
    X, y = s.X, s.y
    lim = 1.15 * float(np.linalg.norm(X, axis=1).max())
    fig = Fig()
    w = s.trace.weights_at(t)
    if np.linalg.norm(w) > 0:
        seg = _line(w, lim)
        fig.add(scatter(seg[:, 0], seg[:, 1], "hyperplane w · x = 0", mode="lines",
                        line=dict(color=theme.BLUE, width=3), hoverinfo="skip"))
    q = np.zeros(len(y), bool)
    q[:t] = s.trace.extras["queried"][:t]
    _points(fig, X, y, t, q, "label queried")
    return fig.build({"title": {"text": f"Queried points after round {t}"}, "hovermode": "closest",
                      **axes("x₁", "x₂", lim)}, height=height)


@figure
def selective_sweep(s: SelectiveAnalysis) -> go.Figure:
    """Labels queried against mistakes for each c of the sweep (c = ∞: every label)."""
    fig = Fig()
    names = ["∞" if math.isinf(c) else f"{c:g}" for c in s.sweep_c]
    fig.add(scatter(s.sweep_labels, s.sweep_mistakes, "c sweep", mode="lines+markers+text", text=[f"c = {n}" for n in names],
                    textposition=(["top center", "bottom center"] * len(names))[: len(names)],
                    line=dict(color=theme.BLUE, width=2), marker=dict(size=9),
                    hovertemplate="labels %{x}<br>mistakes %{y}<extra></extra>"))
    fig.add(scatter([int(s.labels[-1])], [int(s.trace.mistakes.sum())], f"this run, c = {s.c:g}", mode="markers",
                    marker=dict(size=16, symbol="star", color=theme.VERMILLION)))
    lay = axes("labels queried (of T = %d)" % s.T, "mistakes")
    lay["xaxis"].update(range=[0, s.T * 1.08])
    lay["yaxis"].update(range=[0, float(max(s.sweep_mistakes.max(), s.trace.mistakes.sum())) * 1.3 + 1])
    return fig.build({"title": {"text": "Trading labels for mistakes"}, **lay}, height=400)
