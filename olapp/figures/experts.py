"""Figures for the experts pages (Halving, Weighted Majority vs Hedge).

Plain functions from arrays to ``go.Figure`` (or a pandas table): no Streamlit, no olcore
runs.  Every empirical curve has its bound beside it in a trace named ``"bound: <formula>"``.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from .. import theme
from . import bound_name, cumulative_with_bound, downsample

__all__ = [
    "BOUND_LOG2N", "BOUND_VERSION_SPACE", "halving_columns", "halving_rows", "halving_table", "style_halving_table",
    "version_space", "mistake_staircase", "weights_heatmap", "weights_bar", "cumulative_losses",
    "regret_ribbons", "eta_sweep", "wm_potential", "hedge_potential", "wm_constants",
]

BOUND_LOG2N = "log₂ n"
BOUND_VERSION_SPACE = "n / 2^M_t"
CROSS = "✗"

_CLOSEST = dict(hovermode="closest")


def _markers(fig: go.Figure, marks, log_x: bool = False) -> go.Figure:
    """Vertical dotted lines with labels, ``marks = [(x, label, colour, anchor), ...]``.

    One ``update_layout`` call with plain shapes and annotations: several times cheaper than
    ``add_vline``, which matters for the 150 ms rerun budget of a page with nine charts.
    On a log x-axis plotly places shapes by data value but annotations by log10 value.
    """
    shapes, notes = list(fig.layout.shapes or ()), list(fig.layout.annotations or ())
    for mark in marks:
        x, label, colour, anchor = mark[:4]
        side = mark[4] if len(mark) > 4 else "left"
        shapes.append(dict(type="line", x0=x, x1=x, xref="x", y0=0, y1=1, yref="paper",
                           line=dict(color=colour, width=1.8, dash="dot")))
        if label:
            notes.append(dict(x=np.log10(x) if log_x else x, y=1 if anchor == "top" else 0, xref="x", yref="paper", text=label,
                              showarrow=False, xanchor=side, yanchor="top" if anchor == "top" else "bottom",
                              font=dict(size=theme.FONT_SIZE - 2)))
    fig.update_layout(shapes=shapes, annotations=notes)
    return fig


def _legend_below(fig: go.Figure, rows: int = 1) -> go.Figure:
    """Legend under the plot, so long entries never cover the title in a narrow column.

    Anchored to the bottom of the whole figure (``yref="container"``) so plotly reserves room
    for it below the x-axis title: at presenter-mode font sizes the two never overlap.
    """
    fig.update_layout(legend=dict(orientation="h", yref="container", yanchor="bottom", y=0.0, x=0.0,
                                  xanchor="left"),
                      margin=dict(b=10))
    return fig


def _now(fig: go.Figure, x, label: str) -> go.Figure:
    return _markers(fig, [(x, label, theme.GREY, "top", "right")])


def _integer_rounds(fig: go.Figure, T: int) -> None:
    """Rounds are whole numbers: no 1.5 ticks on short runs."""
    if T <= 30:
        fig.update_xaxes(dtick=1 if T <= 15 else 2, tick0=1)
    else:
        fig.update_xaxes(tickformat="d")


# -- Halving ----------------------------------------------------------------------------------

def halving_columns(alive, max_columns: int = 12) -> np.ndarray:
    """Which experts (0-based) the table shows: all if ``n <= max_columns``, else the
    ``max_columns`` that stayed consistent longest (the interesting ones), in index order.

    ``alive`` is the (T+1, n) consistency matrix (row ``s``: consistent before round ``s``).
    """
    alive = np.asarray(alive, dtype=bool)
    n = alive.shape[1]
    if n <= max_columns:
        return np.arange(n)
    lifetime = alive.sum(axis=0)
    keep = np.argsort(-lifetime, kind="stable")[:max_columns]
    return np.sort(keep)


def halving_rows(alive, mistakes, t: int, max_rows: int = 25) -> np.ndarray:
    """Which rounds (0-based, < t) the table shows: all if ``t <= max_rows``; else the
    eventful ones (a mistake or an elimination) and the last few, the latest ``max_rows``."""
    if t <= max_rows:
        return np.arange(t)
    alive = np.asarray(alive, dtype=bool)
    sizes = alive.sum(axis=1)
    eventful = np.asarray(mistakes[:t], bool) | (sizes[1:t + 1] < sizes[:t])
    eventful[max(0, t - 3):t] = True
    return np.flatnonzero(eventful)[-max_rows:]


def halving_table(X, y, predictions, version_space_alive, t: int, columns=None,
                  rows=None) -> pd.DataFrame:
    r"""The lecture's table, live: rounds as rows, experts as columns, up to round ``t``.

    A cell shows the expert's advice while it is consistent before that round and ✗ once
    it has been eliminated (as on the UCL slide).  The last row, "after round t", marks
    the experts still consistent (✓) and eliminated (✗).  At most ``max_rows`` rounds
    ``rows`` (0-based rounds below ``t``, default all) selects the rounds shown.

    Parameters
    ----------
    X : array (T, n) of {0, 1}
    y, predictions : array (T,)
    version_space_alive : bool array (T+1, n)
        Row ``s``: expert consistent before round ``s`` (0-based).
    t : int
        Rounds played, 0..T.
    columns : int array, optional
        Experts to show (default all).
    """
    X = np.asarray(X)
    alive = np.asarray(version_space_alive, dtype=bool)
    n = X.shape[1]
    cols = np.arange(n) if columns is None else np.asarray(columns)
    names = [f"E{i + 1}" for i in cols]
    shown = np.arange(t) if rows is None else np.asarray(rows)
    rows, index = [], []
    for s in shown:
        cells = [str(int(X[s, i])) if alive[s, i] else CROSS for i in cols]
        yhat, ys = int(predictions[s]), int(y[s])
        rows.append(cells + [str(yhat), str(ys), str(int(yhat != ys)), str(int(alive[s].sum()))])
        index.append(f"round {s + 1}")
    cells = ["✓" if alive[t, i] else CROSS for i in cols]
    rows.append(cells + ["", "", "", str(int(alive[t].sum()))])
    index.append(f"after round {t}" if t else "start")
    return pd.DataFrame(rows, index=index, columns=names + ["ŷ", "y", "loss", "|C_t|"])


def style_halving_table(df: pd.DataFrame, X, y, version_space_alive, t: int, columns=None,
                        rows=None):
    """A pandas Styler for :func:`halving_table`: wrong advice of a consistent expert (the
    round it is eliminated) in vermillion, eliminated cells greyed, mistakes bold."""
    X = np.asarray(X)
    alive = np.asarray(version_space_alive, dtype=bool)
    cols = np.arange(X.shape[1]) if columns is None else np.asarray(columns)
    shown = np.arange(t) if rows is None else np.asarray(rows)
    css = np.full(df.shape, "", dtype=object)
    for r, s in enumerate(shown):
        for c, i in enumerate(cols):
            if not alive[s, i]:
                css[r, c] = f"color: {theme.GREY}"
            elif X[s, i] != y[s]:
                css[r, c] = f"background-color: rgba(213,94,0,0.28); font-weight: 700"
        if df.iloc[r]["loss"] == "1":
            css[r, df.columns.get_loc("loss")] = "font-weight: 700; background-color: rgba(213,94,0,0.28)"
    last = df.shape[0] - 1
    for c, i in enumerate(cols):
        css[last, c] = (f"color: {theme.GREEN}; font-weight: 700" if alive[t, i]
                        else f"color: {theme.GREY}")
    return df.style.apply(lambda _: pd.DataFrame(css, index=df.index, columns=df.columns), axis=None)


def version_space(sizes, mistakes, n: int, t: int | None = None, *, height: int = 380,
                  presenter: bool = False) -> go.Figure:
    r"""The version-space size :math:`|C_t|` before each round, with the proof's bound
    :math:`|C_t| \le n/2^{M_t}` (:math:`M_t` mistakes so far) and the floor 1 that a
    consistent expert guarantees; log₂ y-axis."""
    sizes = np.asarray(sizes, dtype=float)
    M = np.concatenate([[0], np.cumsum(np.asarray(mistakes, dtype=int))])
    rounds = np.arange(1, len(sizes) + 1)          # entry s is C_{s+1}, before round s+1
    idx = downsample(len(sizes))
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=rounds[idx], y=np.maximum(sizes[idx], 0.5), name="|C_t| (consistent experts)", mode="lines+markers",
        line=dict(color=theme.BLUE, width=2.5, shape="hv"), marker=dict(size=6),
        customdata=np.stack([sizes[idx], M[idx]], axis=1),
        hovertemplate="before round %{x}: |C_t| = %{customdata[0]:.0f}, mistakes so far %{customdata[1]:.0f}<extra></extra>",
    ))
    fig.add_trace(go.Scatter(
        x=rounds[idx], y=n / 2.0 ** M[idx], name=bound_name(BOUND_VERSION_SPACE), mode="lines",
        line=dict(color=theme.BOUND, width=2.5, dash="dash", shape="hv"),
        hovertemplate="n/2^M_t = %{y:.4g}<extra></extra>",
    ))
    fig.add_trace(go.Scatter(
        x=[1, max(len(sizes), 1)], y=[1, 1], name="bound: |C_t| ≥ 1 (a consistent expert)", mode="lines",
        line=dict(color=theme.GREY, width=2, dash="dot"), hoverinfo="skip",
    ))
    if t is not None:
        _now(fig, t + 1, f"now: before round {t + 1}")
    top = max(float(n), 2.0)
    fig.update_yaxes(type="log", dtick=np.log10(2) if n <= 64 else 1, range=[np.log10(0.4), np.log10(top * 1.6)],
                     title="consistent experts (log)")
    fig.update_layout(title="Version space: each mistake at least halves it",
                      xaxis_title="round t (size before the round)", **_CLOSEST)
    _integer_rounds(fig, len(sizes))
    fig.update_xaxes(range=[0.5, len(sizes) + 0.5])
    return _legend_below(theme.apply(fig, height=height, presenter=presenter))


def mistake_staircase(mistakes, n: int, t: int | None = None, *, height: int = 380,
                      presenter: bool = False) -> go.Figure:
    """Halving's cumulative mistakes against the horizontal line log₂ n."""
    cum = np.cumsum(np.asarray(mistakes, dtype=int))
    fig = cumulative_with_bound({"Halving's mistakes M_t": cum}, float(np.log2(n)), BOUND_LOG2N,
                                title="Mistakes: a staircase that stops below log₂ n",
                                yaxis_title="mistakes so far", current_round=t,
                                height=height, presenter=presenter)
    fig.update_yaxes(range=[0, max(np.log2(n), float(cum[-1]) if len(cum) else 0) * 1.15 + 0.5])
    _integer_rounds(fig, len(cum))
    # the last round's step must not hide on the right edge (the lecture run has 3 rounds)
    fig.update_xaxes(range=[0.5, len(cum) + 0.5])
    if len(cum) <= 60:                 # short runs: a dot per round, so every step reads
        fig.update_traces(mode="lines+markers", marker=dict(size=7), selector=dict(name="Halving's mistakes M_t"))
    return _legend_below(fig)


# -- Weighted Majority vs Hedge ---------------------------------------------------------------

def weights_heatmap(weights, t: int | None = None, *, title: str = "Expert weights v_t",
                    max_rows: int = 300, height: int = 380, presenter: bool = False) -> go.Figure:
    """Normalised weights over rounds as a heat map (experts × rounds), downsampled in time."""
    W = np.asarray(weights, dtype=float)
    idx = downsample(W.shape[0], max_rows)
    n = W.shape[1]
    fig = go.Figure(go.Heatmap(
        z=W[idx].T, x=idx + 1, y=[f"E{i + 1}" for i in range(n)], colorscale="Blues", zmin=0,
        colorbar=dict(title="v_t,i", thickness=12),
        hovertemplate="before round %{x}<br>%{y}: weight %{z:.4f}<extra></extra>",
    ))
    if t is not None:
        _now(fig, t + 1, f"round {t + 1}")
    fig.update_layout(title=title, xaxis_title="round t", yaxis_title="expert", **_CLOSEST)
    fig.update_yaxes(autorange="reversed", showgrid=False)
    fig.update_xaxes(showgrid=False, range=[0.5, W.shape[0] + 0.5])
    return theme.apply(fig, height=height, presenter=presenter)


def weights_bar(rows: Mapping[str, Sequence[float]], t: int, *, height: int = 340,
                presenter: bool = False) -> go.Figure:
    """Each master's weight vector before round ``t + 1``, grouped bars per expert."""
    fig = go.Figure()
    for k, (name, v) in enumerate(rows.items()):
        v = np.asarray(v, dtype=float)
        fig.add_trace(go.Bar(x=[f"E{i + 1}" for i in range(len(v))], y=v, name=name,
                             marker_color=theme.SERIES[k % len(theme.SERIES)],
                             hovertemplate="%{x}: %{y:.4f}"))
    T = max(len(np.asarray(v)) for v in rows.values()) if rows else 0
    fig.update_layout(title=f"Weights after round {t}" if t else "Weights at the start",
                      barmode="group", xaxis_title="expert", yaxis_title="normalised weight v_t,i")
    fig.update_yaxes(range=[0, 1.02])
    return _legend_below(theme.apply(fig, height=height, presenter=presenter))


def cumulative_losses(curves: Mapping[str, Sequence[float]], best: Sequence[float], t: int | None = None,
                      *, height: int = 420, presenter: bool = False) -> go.Figure:
    """Each master's cumulative loss with the best expert's cumulative loss (0/1 mistakes)."""
    fig = go.Figure()
    T = len(best)
    rounds = np.arange(1, T + 1)
    idx = downsample(T)
    for k, (name, c) in enumerate(curves.items()):
        c = np.asarray(c, dtype=float)
        fig.add_trace(go.Scatter(x=rounds[idx], y=c[idx], name=name, mode="lines",
                                 line=dict(color=theme.SERIES[k % len(theme.SERIES)], width=2.5),
                                 hovertemplate="%{y:.4g}"))
    fig.add_trace(go.Scatter(x=rounds[idx], y=np.asarray(best, float)[idx], name="best expert so far",
                             mode="lines", line=dict(color="#444444", width=3, dash="dot"),
                             hovertemplate="%{y:.4g}"))
    if t is not None:
        _now(fig, t, f"t = {t}")
    fig.update_layout(title="Cumulative loss vs the best expert",
                      xaxis_title="round t", yaxis_title="cumulative loss")
    fig.update_yaxes(rangemode="tozero")
    fig.update_xaxes(range=[0, T + 1])
    return _legend_below(theme.apply(fig, height=height, presenter=presenter), 3)


def regret_ribbons(regrets: Mapping[str, Sequence[float]], bounds: Mapping[str, tuple[str, Sequence[float]]],
                   t: int | None = None, *, height: int = 560, presenter: bool = False) -> go.Figure:
    r"""Each master's regret :math:`L_t - \min_i L_{t,i}` with its bound as a shaded ribbon,
    one panel per master (their scales differ), in a 2-column grid.

    ``bounds`` maps a master's name to ``(formula, bound array (T,))``; the ribbon fills from
    the regret up to the bound (the room the theorem leaves) and the bound line is named
    ``bound: <name>: <formula>``.  The grid is laid out by hand (axis domains) rather than
    with ``make_subplots``, which is several times slower.
    """
    names = list(regrets)
    cols = 2 if len(names) > 1 else 1
    nrows = (len(names) + cols - 1) // cols
    gap_x, gap_y = 0.1, 0.16
    w = (1 - gap_x * (cols - 1)) / cols
    h = (1 - gap_y * (nrows - 1)) / nrows
    data, layout, shapes, notes = [], {}, [], []
    for k, name in enumerate(names):
        r = np.asarray(regrets[name], dtype=float)
        T = len(r)
        rounds = np.arange(1, T + 1)
        idx = downsample(T)
        row, col = k // cols, k % cols
        sx = "" if k == 0 else str(k + 1)
        x0 = col * (w + gap_x)
        y1 = 1 - row * (h + gap_y)
        layout[f"xaxis{sx}"] = dict(domain=[x0, x0 + w], anchor=f"y{sx}", range=[0, T + 1],
                                    title=dict(text="round t") if row == nrows - 1 else None)
        layout[f"yaxis{sx}"] = dict(domain=[y1 - h, y1], anchor=f"x{sx}",
                                    title=dict(text="regret") if col == 0 else None)
        color = theme.SERIES[k % len(theme.SERIES)]
        data.append(go.Scatter(x=rounds[idx], y=r[idx], name=f"{name}: regret", mode="lines",
                               xaxis=f"x{sx}", yaxis=f"y{sx}", line=dict(color=color, width=2.5),
                               showlegend=False, hovertemplate="t = %{x}: regret %{y:.4g}<extra></extra>"))
        if name in bounds:
            formula, b = bounds[name]
            b = np.broadcast_to(np.asarray(b, dtype=float), (T,))
            rgb = tuple(int(color[i:i + 2], 16) for i in (1, 3, 5))
            data.append(go.Scatter(x=rounds[idx], y=b[idx], name=bound_name(f"{name}: {formula}"),
                                   mode="lines", xaxis=f"x{sx}", yaxis=f"y{sx}",
                                   line=dict(color=theme.BOUND, width=2, dash="dash"),
                                   fill="tonexty", fillcolor=f"rgba({rgb[0]},{rgb[1]},{rgb[2]},0.15)",
                                   showlegend=False, hovertemplate="t = %{x}: bound %{y:.4g}<extra></extra>"))
        notes.append(dict(text=name if name in bounds else f"{name} (no bound)", x=x0 + w / 2, y=y1,
                          xref="paper", yref="paper", xanchor="center", yanchor="bottom", showarrow=False,
                          font=dict(size=theme.FONT_SIZE - 2)))
        if t is not None:
            shapes.append(dict(type="line", x0=t, x1=t, y0=0, y1=1, xref=f"x{sx}", yref=f"y{sx} domain",
                               line=dict(color=theme.GREY, width=1.5, dash="dot")))
    fig = go.Figure(data=data, layout=dict(title="Regret under each bound", hovermode="closest",
                                           shapes=shapes, annotations=notes, **layout))
    return theme.apply(fig, height=height, presenter=presenter)


def eta_sweep(etas, regrets, bound, eta_star: float | None, eta_now: float | None = None,
              *, bound_formula: str = "ln n/η + ηT/2", height: int = 420,
              presenter: bool = False) -> go.Figure:
    """Hedge's final regret as a function of η: the mean over seeds, the min–max spread as a
    band, the bound curve and the tuned η* (and the current η)."""
    etas = np.asarray(etas, dtype=float)
    R = np.atleast_2d(np.asarray(regrets, dtype=float))       # (seeds, len(etas))
    lo, hi, mean = R.min(axis=0), R.max(axis=0), R.mean(axis=0)
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=etas, y=hi, mode="lines", line=dict(width=0), showlegend=False,
                             hoverinfo="skip"))
    fig.add_trace(go.Scatter(x=etas, y=lo, mode="lines", line=dict(width=0), fill="tonexty",
                             fillcolor="rgba(0,114,178,0.2)", name=f"spread over {R.shape[0]} seeds (min–max)",
                             hovertemplate="min %{y:.4g}<extra></extra>"))
    fig.add_trace(go.Scatter(x=etas, y=mean, mode="lines+markers", name="Hedge regret (mean over seeds)",
                             line=dict(color=theme.BLUE, width=2.5), marker=dict(size=5),
                             hovertemplate="η = %{x:.4g}: mean regret %{y:.4g}<extra></extra>"))
    fig.add_trace(go.Scatter(x=etas, y=np.asarray(bound, dtype=float), mode="lines", name=bound_name(bound_formula),
                             line=dict(color=theme.BOUND, width=2.5, dash="dash"),
                             hovertemplate="η = %{x:.4g}: bound %{y:.4g}<extra></extra>"))
    marks = []
    if eta_star is not None and eta_star > 0:
        marks.append((eta_star, f"η* = {eta_star:.3g}", theme.GREEN, "top"))
    if eta_now is not None and not (eta_star and np.isclose(eta_now, eta_star)):
        marks.append((eta_now, f"your η = {eta_now:.3g}", theme.GREY, "bottom"))
    _markers(fig, marks, log_x=True)
    decades = np.arange(np.floor(np.log10(etas.min())), np.ceil(np.log10(etas.max())) + 1)
    ticks = np.array([m * 10.0 ** d for d in decades for m in (1, 2, 5)])
    ticks = ticks[(ticks >= etas.min() / 1.01) & (ticks <= etas.max() * 1.01)]
    fig.update_xaxes(type="log", title="learning rate η (log scale)", tickvals=ticks,
                     ticktext=[f"{v:g}" for v in ticks])
    fig.update_yaxes(title="regret after T rounds", rangemode="tozero")
    fig.update_layout(title="Hedge's regret as a function of η", **_CLOSEST)
    return _legend_below(theme.apply(fig, height=height, presenter=presenter))


def wm_potential(log_W, log_lower, log_upper, t: int | None = None, *, beta: float,
                 height: int = 400, presenter: bool = False) -> go.Figure:
    r"""The WM proof: :math:`\ln W_t` squeezed between :math:`\ln\beta^{M_{t,i}}` and
    :math:`\ln n + M_t\ln\frac{1+\beta}{2}`."""
    log_W = np.asarray(log_W, float)
    rounds = np.arange(1, len(log_W) + 1)
    idx = downsample(len(log_W))
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=rounds[idx], y=np.asarray(log_upper, float)[idx],
                             name=bound_name("ln n + M_t ln((1+β)/2)"), mode="lines",
                             line=dict(color=theme.BOUND, width=2.5, dash="dash"), hovertemplate="%{y:.4g}"))
    fig.add_trace(go.Scatter(x=rounds[idx], y=log_W[idx], name="ln W_t (total weight)", mode="lines",
                             line=dict(color=theme.BLUE, width=3), hovertemplate="%{y:.4g}"))
    fig.add_trace(go.Scatter(x=rounds[idx], y=np.asarray(log_lower, float)[idx],
                             name=bound_name("ln β^(min_i M_t,i)"), mode="lines",
                             line=dict(color=theme.GREEN, width=2.5, dash="dash"), hovertemplate="%{y:.4g}"))
    if t is not None:
        _now(fig, t + 1, f"round {t + 1}")
    fig.update_layout(title=f"WM proof (β = {beta:.3g}): ln W_t in its corridor",
                      xaxis_title="round t (before the round)", yaxis_title="ln W_t (natural log)")
    return _legend_below(theme.apply(fig, height=height, presenter=presenter), 2)


def hedge_potential(rel_entropy, regret_u, rhs, t: int | None = None, *, height: int = 400,
                    presenter: bool = False) -> go.Figure:
    r"""The Hedge proof: :math:`d(u, v_t)` falling and the regret to :math:`u` below the
    telescoped bound :math:`(d(u,v_1) - d(u,v_{t+1}))/\eta + \frac\eta2\sum_s v_s\cdot\ell_s^2`."""
    d = np.asarray(rel_entropy, float)
    T = len(regret_u)
    rounds = np.arange(1, T + 1)
    idx = downsample(T)
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=np.arange(1, len(d) + 1)[downsample(len(d))], y=d[downsample(len(d))],
                             name="d(u, v_t) = −ln v_t,i*", mode="lines",
                             line=dict(color=theme.PURPLE, width=2.5), hovertemplate="%{y:.4g}"))
    fig.add_trace(go.Scatter(x=rounds[idx], y=np.asarray(regret_u, float)[idx], name="regret to u = e_i*",
                             mode="lines", line=dict(color=theme.BLUE, width=2.5), hovertemplate="%{y:.4g}"))
    fig.add_trace(go.Scatter(x=rounds[idx], y=np.asarray(rhs, float)[idx],
                             name=bound_name("(d(u,v₁) − d(u,v_t+1))/η + η/2 Σ v·ℓ²"), mode="lines",
                             line=dict(color=theme.BOUND, width=2.5, dash="dash"), hovertemplate="%{y:.4g}"))
    if t is not None:
        _now(fig, t, f"t = {t}")
    fig.update_layout(title="Hedge proof: d(u, v_t) pays for the regret",
                      xaxis_title="round t", yaxis_title="nats")
    return _legend_below(theme.apply(fig, height=height, presenter=presenter), 2)


def wm_constants(beta_now: float, *, height: int = 300, presenter: bool = False) -> go.Figure:
    r"""WM's constants :math:`a(\beta) = \ln\frac1\beta/\ln\frac2{1+\beta}` and
    :math:`b(\beta) = 1/\ln\frac2{1+\beta}` of :math:`M \le a M_i + b\ln n`, with
    :math:`\beta = 1/e` (where :math:`a = b \approx 2.63`) and the chosen β marked."""
    betas = np.linspace(0.01, 0.99, 197)
    d = np.log(2 / (1 + betas))
    a, b = np.log(1 / betas) / d, 1 / d
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=betas, y=a, name="a(β): factor of the best expert's mistakes",
                             line=dict(color=theme.BLUE, width=2.5), hovertemplate="β = %{x:.3f}: a = %{y:.3f}"))
    fig.add_trace(go.Scatter(x=betas, y=b, name="b(β): factor of ln n",
                             line=dict(color=theme.ORANGE, width=2.5), hovertemplate="β = %{x:.3f}: b = %{y:.3f}"))
    _markers(fig, [(1 / np.e, "β = 1/e: a = b = 2.63", theme.GREEN, "top"),
                   (beta_now, f"your β = {beta_now:.3g}", theme.GREY, "bottom")])
    fig.update_yaxes(title="constant", range=[0, 8])
    fig.update_xaxes(title="β", range=[0, 1])
    fig.update_layout(title="WM's constants: M ≤ a(β)·min_i M_i + b(β)·ln n", **_CLOSEST)
    return _legend_below(theme.apply(fig, height=height, presenter=presenter))
