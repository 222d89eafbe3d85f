"""Figures of the kernel Perceptron lesson on the shared style: the analyses in, ``go.Figure`` out.

Nothing here runs a learner or computes a bound; the builders draw what :mod:`olcore.lessons.kernel_perceptron`
returns (the decision region of a round included: :func:`~olcore.lessons.kernel_perceptron.region_of` evaluates
the run's f_t on a grid).  Presenter sizes are applied by ``controls.chart``.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from olcore.lessons import kernel_perceptron as lesson
from olcore.lessons.kernel_perceptron import BudgetRun, BudgetSweep, FactRun, KernelAnalysis

from .. import theme
from . import Fig, figure, axes, curves_with_bounds, downsample, LABELS, points_by_round, scatter

__all__ = ["region", "mistakes", "proof", "cache", "sweep", "fact"]

_REGION = [[0.0, "rgba(230,159,0,0.30)"], [0.5, "rgba(230,159,0,0.30)"], [0.5, "rgba(0,114,178,0.26)"],
           [1.0, "rgba(0,114,178,0.26)"]]


@figure(animated=True)
def region(a: KernelAnalysis, t: int, run: BudgetRun | None = None, n: int = 41, title: str = "Decision region sgn f_t(x)",
           height: int = 500) -> go.Figure:
    """The sign of f_t on an ``n`` x ``n`` grid (two tints, smoothed between the grid's points) with the
    boundary f_t = 0 (one contour trace), the points (seen solid, to come faded), the supports in the cache
    ringed and round t's point marked.

    ``a`` is the lesson's analysis and ``run`` a :class:`~olcore.lessons.kernel_perceptron.BudgetRun` (its
    budgeted learner's region) or ``None`` (the kernel Perceptron's).  The grid's values f_t(x) are
    :func:`olcore.lessons.kernel_perceptron.region_of` of the run at round t (no learner is run here): the
    region changes only at a mistake, so a play's frames carry one grid per mistake (animation's table of
    distinct traces), about 9 KB each at n = 41."""
    tr = a.trace if run is None else run.trace
    r = lesson.region_of(a.X, a.y, tr, t, a.lim, *a.kernel, n=n)
    fig = Fig()
    Z = r.Z.astype(np.float32)                           # compact JSON; the hover shows f_t to 4 digits
    top = float(np.abs(Z).max()) or 1.0                  # symmetric range: the tint changes exactly at f = 0
    # one trace: the two tints (a heat map, smoothed) and the line f = 0 drawn from the same grid
    fig.add(dict(type="contour", x=r.xs, y=r.xs, z=Z, zmin=-top, zmax=top, colorscale=_REGION, showscale=False,
                 contours=dict(start=0, end=0, size=1, coloring="heatmap"), line=dict(color="black", width=2.5),
                 name="f_t(x) = 0", showlegend=True,
                 hovertemplate="x = (%{x:.2f}, %{y:.2f})<br>f_t(x) = %{z:.4g}<extra></extra>"))
    X = a.X
    points_by_round(fig, X, a.y, t, LABELS, later="to come", sizes=(8, 6), faded=0.22)
    if len(r.supports):
        S = X[r.supports]
        fig.add(scatter(S[:, 0], S[:, 1], f"supports in the cache ({len(r.supports)})", mode="markers",
                        marker=dict(size=15, symbol="circle-open", color="black", line=dict(width=2)),
                        customdata=r.supports + 1, hovertemplate="support from round %{customdata}<extra></extra>"))
    if t > 0:
        fig.add(scatter([X[t - 1, 0]], [X[t - 1, 1]], "x_t just played", mode="markers",
                        marker=dict(size=22, symbol="circle-open", color=theme.VERMILLION, line=dict(width=3)),
                        hoverinfo="skip"))
    return fig.build({"title": {"text": title}, "hovermode": "closest", **axes("x₁", "x₂", a.lim)}, height=height)


def _cum(tr) -> np.ndarray:
    return np.cumsum(tr.mistakes)


@figure(animated=True)
def mistakes(a: KernelAnalysis, t: int, height: int = 420) -> go.Figure:
    """Cumulative mistakes of the kernel Perceptron with Novikoff's bound in the RKHS (log scale when far apart)."""
    log = bool(a.bound.applies and a.bound.value > 20 * max(a.M, 1))
    return curves_with_bounds({"kernel Perceptron": _cum(a.trace)}, [a.bound], t=t, title="Mistakes in the RKHS",
                              yaxis_title="cumulative mistakes M_t", log_y=log, height=height)


@figure(animated=True)
def proof(a: KernelAnalysis, t: int, height: int = 420) -> go.Figure:
    """The proof's squeeze after each round: ‖f_t‖ under √M_t R_K, ⟨f_t, u⟩ over M_t γ_lo."""
    ex = a.trace.extras
    M = ex["M"][1:]
    curves = {"‖f_t‖ in the RKHS": np.sqrt(np.maximum(ex["norm_sq"][1:], 0.0))}
    bounds = {"√M_t R_K (upper, on ‖f_t‖)": np.sqrt(M) * a.R}
    if a.bound.applies:
        curves["⟨f_t, u⟩"] = a.f_dot_u[1:]
        bounds["M_t γ_lo (lower, on ⟨f_t, u⟩)"] = M * a.gamma_lo
    return curves_with_bounds(curves, bounds, t=t, title="The proof: ‖f_t‖ is squeezed", yaxis_title="value",
                              height=height)


@figure(animated=True)
def cache(b: BudgetRun, t: int, height: int = 420) -> go.Figure:
    """|L_t| of the budget learner (pinned at B, evictions marked) and of the unbudgeted one, bound B."""
    size = b.trace.extras["cache_size"][1:]
    fig = curves_with_bounds({f"|L_t| with B = {b.B}": size, "|L_t| without a budget": b.free.extras["cache_size"][1:]},
                             {"|L_t| ≤ B": float(b.B)}, t=t, title="The cache", yaxis_title="supports in the cache",
                             height=height)
    ev = b.evictions
    if len(ev):
        keep = ev[downsample(len(ev), 400)]
        fig.add_trace(go.Scatter(x=keep, y=size[keep - 1], mode="markers", name="eviction (a random support out)",
                                 marker=dict(symbol="x", size=8, color=theme.VERMILLION),
                                 hovertemplate="round %{x}: eviction<extra></extra>"))
    return fig


@figure
def sweep(s: BudgetSweep, height: int = 420) -> go.Figure:
    """Mean final mistakes against B, stationary and drifting, with the unbudgeted learner's beside each."""
    fig = Fig()
    for i, (name, vals, free) in enumerate((("stationary", s.stationary, s.free_stationary),
                                            (f"drifting ({s.switches} label flips)", s.drifting, s.free_drifting))):
        colour = theme.SERIES[i]
        fig.add(scatter(s.Bs, vals.mean(0), f"budget B: {name}", mode="lines+markers", line=dict(color=colour, width=2.5),
                        hovertemplate="B = %{x}: %{y:.4g} mistakes"))
        fig.add(scatter(s.Bs[[0, -1]], [free.mean()] * 2, f"no budget: {name}", mode="lines",
                        line=dict(color=colour, dash="dash", width=2), hovertemplate="%{y:.4g} mistakes"))
    lay = axes("budget B (log scale)", "mean mistakes M_T")
    lay["xaxis"].update(type="log", tickvals=[int(b) for b in s.Bs], ticktext=[str(int(b)) for b in s.Bs])
    lay["yaxis"].update(rangemode="tozero")
    return fig.build({"title": {"text": "Mistakes against the budget"}, **lay}, height=height)


@figure
def fact(f: FactRun, height: int = 420) -> go.Figure:
    """The Fact's sequence: mistakes with B supports over ⌊t/(B+1)⌋, with B + 1 supports under B + 1."""
    return curves_with_bounds({f"B = {f.B} supports": _cum(f.budget), f"B + 1 = {f.B + 1} supports": _cum(f.more)},
                              [f.forced, f.novikoff], title="The Fact, played", yaxis_title="cumulative mistakes",
                              height=height)
