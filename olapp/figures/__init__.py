"""The one figure style shared by every lesson: plain functions from arrays to ``go.Figure``.

Each lesson has its own module of builders (``olapp.figures.<lesson>``); they all build on
this one:

- :class:`Fig`: collects plain-dict traces, shapes and annotations and builds the figure
  once without plotly's per-property validation, which costs a validated figure a large share of a
  rerun's budget (benchmarks/PERFORMANCE.md).  Tests re-validate every figure.
- One round marker (:meth:`Fig.round_marker`): a dotted vertical line labelled ``t = ...``.
- One legend position: below the plot (the template's), so long entries never cover data.
- One "curves with their bounds" builder, :func:`curves_with_bounds`: every empirical curve
  with its bound beside it, in a trace named ``"bound: <formula>"`` so the legend reads like
  the theorem.  A bound may be a :class:`olcore.bounds.BoundReport`, a float or a curve.
- Presenter fonts and heights are applied in one place (``olapp.controls.chart``), never
  by a builder.
- Every public builder of a lesson module is decorated with :func:`figure`: it is built once per
  distinct arguments and the same figure is shared by every session (:mod:`olapp.cache`), so a
  rerun that changes nothing, or a student who opens a link the lecturer already opened, pays
  nothing for it.  A shared figure must not be changed in place: copy it first (``go.Figure(fig)``).
"""

from __future__ import annotations

import contextvars
import functools
import re
from typing import Any, Callable, Mapping, Sequence

import numpy as np
from numpy.typing import ArrayLike
import plotly.graph_objects as go

from .. import cache, theme

__all__ = ["figure", "recipe", "RAW", "RawFigure", "log_ticks", "MAX_POINTS", "downsample", "bound_name", "Fig", "scatter", "axes", "curves_with_bounds",
           "LABELS", "points_by_round"]

#: Longest line a figure draws; longer runs are downsampled (the last round always kept).
MAX_POINTS = 2000
_TEMPLATE = theme.TEMPLATE.to_plotly_json()
_DASHES = ["dash", "dot", "dashdot", "longdash"]


def figure(builder: Callable[..., go.Figure] | None = None, *, animated: bool = False):
    """Memoise a figure builder: one figure per distinct arguments, shared by every caller.

    Use as ``@figure`` or ``@figure(animated=True)``.  The arguments are keyed as
    :func:`olapp.cache.memo` keys them (a lesson's analysis by the token it was stored with,
    numbers and small arrays by value).  ``animated=True`` promises that the builder's only
    round-dependent input is its parameter ``t``: the chart then moves with the round player's
    Play in the browser (:mod:`olapp.animation`).  ``builder.build`` is the plain builder.
    """
    if builder is None:
        return functools.partial(figure, animated=animated)

    @functools.wraps(builder)
    def memoised(*args, **kwargs) -> go.Figure:
        if RAW.get():                        # building animation frames: plain figures, not shared
            return builder(*args, **kwargs)
        fig = cache.memo(builder, *args, **kwargs)
        if animated:
            cache.per_object(fig, "recipe", lambda: (builder, args, kwargs))
        return fig

    memoised.build = builder
    memoised.animated = animated
    return memoised


def recipe(fig: go.Figure):
    """``(builder, args, kwargs)`` of a figure drawn by an animated builder, else ``None``."""
    return cache.per_object(fig, "recipe", lambda: None)


def downsample(n: int, max_points: int = MAX_POINTS) -> np.ndarray:
    """Indices ``0..n-1`` thinned to at most ``max_points``, always keeping the last."""
    if n <= max_points:
        return np.arange(n)
    return np.unique(np.linspace(0, n - 1, max_points).round().astype(int))


def bound_name(formula: str) -> str:
    """The legend name of a bound trace: ``"bound: <formula>"``."""
    return f"bound: {formula}"


def scatter(x: ArrayLike, y: ArrayLike, name: str, **kw) -> dict:
    """A scatter trace as a plain dict (reads like ``go.Scatter``)."""
    return dict(type="scatter", x=np.asarray(x), y=np.asarray(y), name=name, **kw)


#: Runs of fewer than 2**_SHORT_RUNS rounds share one trace in :func:`points_by_round`.
_SHORT_RUNS = 5

#: The labels of a binary stream as the plane pictures draw them: (legend name, colour, marker symbol).
LABELS = {1: ("y = +1", theme.POSITIVE, "circle"), -1: ("y = −1", theme.NEGATIVE, "diamond")}


def points_by_round(fig: "Fig", X: np.ndarray, y: np.ndarray, seen: int, labels: Mapping = LABELS,
                    later: str = "not yet seen", sizes: tuple[float, float] = (9, 7),
                    faded: float = 0.25) -> "Fig":
    r"""A stream's points in the plane after ``seen`` rounds, by label: every point faded (the stream
    still to come), and the points of rounds :math:`1..\text{seen}` solid over them.

    ``labels`` maps each label to ``(name, colour, symbol)``.  The solid points of a label are split
    like ``seen`` in binary: trace k holds a run of :math:`2^k` rounds when bit k of ``seen`` is set
    and is empty otherwise, the longest run first, for :math:`k \ge` :data:`_SHORT_RUNS`; the last
    trace holds the shorter runs together (``seen mod 32``, at most 31 rounds).  The traces are the
    same whatever ``seen`` is, and going from ``seen`` to ``seen + s`` refills only the runs below
    the highest bit that changed: while a run plays in the browser (:mod:`olapp.animation`) a frame redraws a few points
    on average (about s/2 per bit and the last trace's at most 31), not every point seen so far.
    (plotly.js prepares every trace of a chart on each frame, so the short runs share one trace.)
    The legend has one entry per label for each style; the hover of a point gives its round,
    coordinates and label.
    """
    X, y = np.asarray(X, float), np.asarray(y)
    T = len(X)
    idx = np.arange(T)
    hover = "round %{customdata[0]}<br>x = (%{x:.3f}, %{y:.3f})<br>y = %{customdata[1]:+d}<extra></extra>"
    marker = dict(line=dict(width=0.5, color="white"))
    runs, lo = [], 0
    for k in reversed(range(_SHORT_RUNS, max(T, 1).bit_length())):
        hi = lo + (1 << k if seen >> k & 1 else 0)
        runs.append((idx >= lo) & (idx < hi))
        lo = hi
    runs.append((idx >= lo) & (idx < seen))             # the short runs, together
    for lab, (name, colour, symbol) in labels.items():
        m = y == lab
        fig.add(scatter(X[m, 0], X[m, 1], f"{name} ({later})", mode="markers", legendrank=1001,
                        marker={**marker, "color": colour, "symbol": symbol, "size": sizes[1], "opacity": faded},
                        customdata=np.column_stack([idx[m] + 1, y[m]]), hovertemplate=hover))
    for lab, (name, colour, symbol) in labels.items():
        style = {**marker, "color": colour, "symbol": symbol, "size": sizes[0]}
        fig.add(scatter([None], [None], name, mode="markers", marker=style, legendgroup=name, legendrank=1000,
                        hoverinfo="skip"))
        for run in runs:
            m = (y == lab) & run
            fig.add(scatter(X[m, 0], X[m, 1], name, mode="markers", marker=style, legendgroup=name,
                            showlegend=False, customdata=np.column_stack([idx[m] + 1, y[m]]),
                            hovertemplate=hover))
    return fig


def axes(title_x: str, title_y: str, lim: float | None = None, **extra) -> dict:
    """Axis titles; with ``lim`` a square, equal-aspect box ``[-lim, lim]²`` (for planes)."""
    x = dict(title=dict(text=title_x))
    y = dict(title=dict(text=title_y))
    if lim is not None:
        x.update(range=[-lim, lim], zeroline=True, constrain="domain")
        y.update(range=[-lim, lim], zeroline=True, scaleanchor="x", scaleratio=1, constrain="domain")
    return {"xaxis": x, "yaxis": y, **extra}


#: While set, :meth:`Fig.build` returns a :class:`RawFigure` (animation frames are built by the hundred:
#: plotly's own figure objects and their conversion to JSON would cost a play seconds: PERFORMANCE.md).
RAW: contextvars.ContextVar[bool] = contextvars.ContextVar("olab_raw_figures", default=False)


def _merge(into: dict, new: Mapping) -> dict:
    """Plotly's update: nested dicts merged, anything else replaced."""
    for k, v in new.items():
        if isinstance(v, Mapping) and isinstance(into.get(k), dict):
            _merge(into[k], v)
        else:
            into[k] = dict(v) if isinstance(v, Mapping) else v
    return into


class _Obj(dict):
    """A layout part read like plotly's (``fig.layout.yaxis.type``); missing keys read as ``None``."""

    def __getattr__(self, name: str) -> Any:
        v = self.get(name)
        return _Obj(v) if isinstance(v, dict) else v


class RawFigure:
    """The few ``go.Figure`` methods the builders use after :meth:`Fig.build`, on plain dicts.

    Built only while :data:`RAW` is set (by :mod:`olapp.animation`); ``tests/test_animation.py``
    checks that every animated builder gives the same JSON either way.
    """

    def __init__(self, data: list[dict], layout: dict):
        self.data, self._layout = data, layout

    @property
    def layout(self) -> _Obj:
        return _Obj(self._layout)

    def update_layout(self, arg: Mapping | None = None, **kw) -> "RawFigure":
        _merge(self._layout, {**(arg or {}), **kw})
        return self

    def _axes(self, letter: str, kw: Mapping) -> "RawFigure":
        names = [k for k in self._layout if re.fullmatch(f"{letter}axis\\d*", k)] or [f"{letter}axis"]
        for k in names:
            _merge(self._layout.setdefault(k, {}), kw)
        return self

    def update_xaxes(self, **kw) -> "RawFigure":
        return self._axes("x", kw)

    def update_yaxes(self, **kw) -> "RawFigure":
        return self._axes("y", kw)

    def update_traces(self, selector: Mapping | None = None, **kw) -> "RawFigure":
        for tr in self.data:
            if all(tr.get(k) == v for k, v in (selector or {}).items()):
                _merge(tr, kw)
        return self

    def add_trace(self, trace) -> "RawFigure":
        self.data.append(dict(trace.to_plotly_json()) if hasattr(trace, "to_plotly_json") else dict(trace))
        return self

    def add_scatter(self, **kw) -> "RawFigure":
        return self.add_trace(dict(type="scatter", **kw))

    def to_plotly_json(self) -> dict:
        return {"data": self.data, "layout": self._layout}


class Fig:
    """Collects traces, shapes and annotations, then builds one ``go.Figure`` in the project style."""

    def __init__(self) -> None:
        self.data: list[dict] = []
        self.annotations: list[dict] = []
        self.shapes: list[dict] = []
        self.rounds: int | None = None

    def add(self, *traces: dict) -> "Fig":
        self.data.extend(traces)
        return self

    def vline(self, x: float, label: str | None = None, *, colour: str = theme.GREY, dash: str = "dot",
              width: float = 1.5, side: str = "right") -> "Fig":
        """A vertical line over the plot's height, labelled at the top."""
        self.shapes.append(dict(type="line", x0=x, x1=x, y0=0, y1=1, yref="paper",
                                line=dict(color=colour, width=width, dash=dash)))
        if label:
            self.annotations.append(dict(x=x, y=1, yref="paper", text=label, showarrow=False,
                                         xanchor=side, yanchor="bottom"))
        return self

    def round_marker(self, t: int | None, label: str | None = None, *, rounds: int | None = None) -> "Fig":
        """The player's round: the one marker every lesson uses (``None`` draws nothing).

        Its label sits left of the line.  With ``rounds`` the x axis spans rounds ``0..rounds``
        (unless the layout gives its own range; :meth:`build`), and in its first sixth the label sits
        right of the line, where it stays in the plot.  An axis that does not move with the marker lets
        Play move the marker alone (:mod:`olapp.animation`); autoranged, plotly.js would widen the axis
        to keep the label inside it, so every frame would replot the axes."""
        self.rounds = rounds or self.rounds
        if t is None:
            return self
        side = "left" if rounds and t < rounds / 6 else "right"
        return self.vline(t, label or f"t = {t}", side=side)

    def build(self, layout: dict, *, height: int = 420) -> go.Figure:
        lay = {"template": _TEMPLATE, "height": height, **layout}
        if self.rounds and "range" not in lay.get("xaxis", {}):      # see round_marker
            lay["xaxis"] = {**lay.get("xaxis", {}), "range": [0, self.rounds]}
        if self.annotations:
            lay["annotations"] = list(lay.get("annotations", [])) + self.annotations
        if self.shapes:
            lay["shapes"] = list(lay.get("shapes", [])) + self.shapes
        if RAW.get():
            raw = _merge({}, {k: v for k, v in lay.items() if k != "template"})
            raw["template"] = lay["template"]
            return RawFigure([dict(tr) for tr in self.data], raw)
        return go.Figure({"data": self.data, "layout": lay}, _validate=False)


def _bound_parts(bound) -> tuple[str | None, object]:
    """(formula, value or curve) of a BoundReport, or (None, bound) for a float / array."""
    if hasattr(bound, "formula") and hasattr(bound, "value"):
        return bound.formula, (bound.curve if getattr(bound, "curve", None) is not None else bound.value)
    return None, bound


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def log_ticks(values: ArrayLike) -> dict:
    """Clean ticks for a log axis over ``values``: 1-2-5 when it spans at most three decades,
    else the decades alone, each labelled in full (``"200"``, ``"10⁶"``), never plotly's small
    minor digits (which read as "2, 100, 5, 2, 10")."""
    v = np.asarray(values, dtype=float).ravel()
    v = v[np.isfinite(v) & (v > 0)]
    if v.size == 0:
        return {"dtick": 1}
    lo, hi = int(np.floor(np.log10(v.min()))), int(np.ceil(np.log10(v.max())))
    steps = (1, 2, 5) if hi - lo <= 3 else (1,)
    vals = [m * 10.0 ** e for e in range(lo, hi + 1) for m in steps]

    def label(x: float) -> str:
        e = int(round(np.log10(x)))
        if 1e-3 <= x < 1e6:
            return f"{x:,.10g}"
        return f"10{str(e).translate(_SUPERSCRIPT)}" if np.isclose(x, 10.0 ** e) else f"{x:.0e}"
    return {"tickmode": "array", "tickvals": vals, "ticktext": [label(x) for x in vals]}


def curves_with_bounds(curves: Mapping[str, Sequence[float]], bounds=(), *, t: int | None = None,
                       title: str = "Cumulative loss", yaxis_title: str = "cumulative loss",
                       xaxis_title: str = "round t", log_y: bool = False, pass_length: int | None = None,
                       height: int = 420) -> go.Figure:
    """Curves over rounds (cumulative loss, mistakes, regret), each with its bound.

    Parameters
    ----------
    curves : mapping of name to array (T,)
        Each curve's value after rounds 1..T (``curve[t-1]`` after round t).
    bounds : sequence of BoundReport, or mapping of formula to float / array (T,)
        A constant bound is a horizontal line, a curve grows with t.  A bound whose formula ends
        in ``"(<curve name>)"`` takes that curve's colour; otherwise the first is drawn in the
        bound colour and the rest grey, each dashed.  Reports that do not apply are not drawn.
        Bounds that coincide with an earlier one are drawn once with both formulas in its name.
    t : int, optional
        The player's round, marked by :meth:`Fig.round_marker`.
    pass_length : int, optional
        When the stream is replayed (epochs), a faint line marks the start of each pass.
    """
    fig = Fig()
    T = max((len(c) for c in curves.values()), default=0)
    rounds = np.arange(1, T + 1)
    idx = downsample(T)
    colours = {}
    for i, (name, c) in enumerate(curves.items()):
        c = np.asarray(c, dtype=float)
        colours[name] = theme.SERIES[i % len(theme.SERIES)]
        keep = idx[idx < len(c)]
        fig.add(scatter(rounds[keep], c[keep], name, mode="lines", hovertemplate="%{y:.4g}",
                        line=dict(color=colours[name], width=2.5, shape="hv")))
    if isinstance(bounds, Mapping):
        items = list(bounds.items())
    else:
        items = [_bound_parts(b) for b in bounds if getattr(b, "applies", True)]
    drawn: list[tuple[dict, np.ndarray]] = []
    for j, (formula, b) in enumerate(items):
        if np.ndim(b) == 0:
            if not np.isfinite(float(b)):
                continue
            bx, by = np.array([1, max(T, 1)]), np.array([float(b)] * 2)
            full = np.full(len(idx), float(b))          # compared over every drawn round
        else:
            b = np.asarray(b, dtype=float)
            keep = idx[idx < len(b)]
            bx, by = rounds[keep], b[keep]
            full = by
        same = next((tr for tr, y0 in drawn if len(y0) == len(full) and np.allclose(y0, full, rtol=1e-9, atol=1e-12)),
                    None)
        if same is not None:                     # coinciding bounds: one line, one legend entry
            same["name"] += f" = {formula}"
            continue
        owner = next((n for n in curves if str(formula).endswith(f"({n})")), None)
        colour = colours.get(owner) or (theme.BOUND if j == 0 else theme.GREY)
        tr = scatter(bx, by, bound_name(formula), mode="lines", hovertemplate="%{y:.4g}",
                     line=dict(color=colour, width=2.5, dash=_DASHES[j % len(_DASHES)]))
        fig.add(tr)
        drawn.append((tr, full))
    if pass_length and 0 < pass_length < T:
        starts = np.arange(pass_length, T, pass_length)
        for k, s0 in enumerate(starts):
            fig.vline(float(s0) + 0.5, f"pass {k + 2}" if len(starts) <= 9 else None,
                      colour="rgba(140,140,140,0.45)", width=1, side="left")
    fig.round_marker(t, rounds=max(T, 1))
    lay = axes(xaxis_title, yaxis_title + (" (log scale)" if log_y else ""))
    if log_y:
        shown = [np.asarray(c, dtype=float) for c in curves.values()] + [np.asarray(y0) for _, y0 in drawn]
        lay["yaxis"].update(type="log", **log_ticks(np.concatenate([a.ravel() for a in shown]) if shown else []))
    else:
        lay["yaxis"].update(rangemode="tozero")
    return fig.build({"title": {"text": title}, **lay}, height=height)

