"""Figure builders shared by every page: plain functions from arrays to ``go.Figure``.

Topic modules (``olapp.figures.experts``, ``.linear``, ``.regression``) hold the
page-specific builders.  Every empirical curve is drawn with its bound beside it, in a
trace named ``"bound: <formula>"`` so the legend reads like the theorem.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from .. import theme

__all__ = ["MAX_POINTS", "downsample", "bound_name", "cumulative_with_bound", "round_marker"]

#: Longest line a figure draws; longer runs are downsampled (the last round always kept).
MAX_POINTS = 2000


def downsample(n: int, max_points: int = MAX_POINTS) -> np.ndarray:
    """Indices ``0..n-1`` thinned to at most ``max_points``, always keeping the last."""
    if n <= max_points:
        return np.arange(n)
    idx = np.unique(np.linspace(0, n - 1, max_points).round().astype(int))
    return idx


def bound_name(formula: str) -> str:
    """The legend name of a bound trace: ``"bound: <formula>"``."""
    return f"bound: {formula}"


def cumulative_with_bound(
    curves: Mapping[str, Sequence[float]],
    bound: float | Sequence[float] | None,
    bound_formula: str = "",
    *,
    title: str = "Cumulative loss",
    yaxis_title: str = "cumulative loss",
    xaxis_title: str = "round t",
    current_round: int | None = None,
    extra_bounds: Mapping[str, float | Sequence[float]] | None = None,
    height: int = 420,
    presenter: bool = False,
) -> go.Figure:
    """Cumulative loss (or regret, or mistakes) over rounds, with its bound.

    Parameters
    ----------
    curves : mapping of name to array (T,)
        Each curve's value after rounds 1..T (``curve[t-1]`` after round t).
    bound : float, array (T,) or None
        A constant bound (a horizontal line) or a bound that grows with t.
    bound_formula : str
        The bound's formula for the legend, e.g. ``"(R/γ)²"``; the trace is named
        ``bound: <formula>``.
    current_round : int, optional
        Draws a vertical marker at this round (the scrubber's position).
    extra_bounds : mapping of formula to float or array, optional
        Further bounds, each drawn dashed and named ``bound: <formula>``.
    """
    fig = go.Figure()
    T = max((len(c) for c in curves.values()), default=0)
    rounds = np.arange(1, T + 1)
    idx = downsample(T)
    for i, (name, c) in enumerate(curves.items()):
        c = np.asarray(c, dtype=float)
        fig.add_trace(go.Scatter(
            x=rounds[idx[idx < len(c)]], y=c[idx[idx < len(c)]], name=name, mode="lines",
            line=dict(color=theme.SERIES[i % len(theme.SERIES)], width=2.5, shape="hv"),
            hovertemplate="%{y:.4g}",
        ))
    dashes = ["dash", "dot", "dashdot", "longdash"]
    all_bounds = {}
    if bound is not None:
        all_bounds[bound_formula] = bound
    all_bounds.update(extra_bounds or {})
    for j, (formula, b) in enumerate(all_bounds.items()):
        if np.ndim(b) == 0:
            bx, by = np.array([1, max(T, 1)]), np.array([float(b), float(b)])
        else:
            b = np.asarray(b, dtype=float)
            bx, by = rounds[idx[idx < len(b)]], b[idx[idx < len(b)]]
        fig.add_trace(go.Scatter(
            x=bx, y=by, name=bound_name(formula), mode="lines",
            line=dict(color=theme.BOUND if j == 0 else theme.GREY, width=2.5, dash=dashes[j % len(dashes)]),
            hovertemplate="%{y:.4g}",
        ))
    if current_round is not None:
        round_marker(fig, current_round)
    fig.update_layout(title=title, xaxis_title=xaxis_title, yaxis_title=yaxis_title)
    fig.update_yaxes(rangemode="tozero")
    return theme.apply(fig, height=height, presenter=presenter)


def round_marker(fig: go.Figure, t: int, label: str | None = None) -> go.Figure:
    """A vertical line at round ``t`` (the player's position)."""
    fig.add_vline(x=t, line=dict(color=theme.GREY, width=1.5, dash="dot"),
                  annotation_text=label or f"t = {t}", annotation_position="top left")
    return fig
