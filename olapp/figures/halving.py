"""Figures of the Halving lesson: the lecture's table live, the version space, the mistake staircase.

Builders take a :class:`olcore.lessons.halving.HalvingAnalysis` and the player's round ``t``
and return a ``go.Figure`` (or a styled table); presenter sizes are applied by the kit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
import pandas as pd
import plotly.graph_objects as go
from olcore.lessons.halving import HalvingAnalysis

from .. import theme
from . import Fig, figure, axes, curves_with_bounds, downsample, scatter

__all__ = ["CROSS", "MISTAKES", "SIZE", "TableView", "TableCells", "table", "table_cells", "proof_cells", "table_columns", "table_rows",
           "version_space", "mistake_staircase"]

CROSS = "✗"
#: Trace names (tests and captions read them).
MISTAKES = "Halving's mistakes M_t"
SIZE = "|C| (consistent experts)"
FLOOR = "bound: |C| ≥ 1 (a consistent expert)"


# -- the lecture's table, live ----------------------------------------------------------------

def table_columns(alive: ArrayLike, max_columns: int = 12) -> np.ndarray:
    """Which experts (0-based) the table shows: all if ``n <= max_columns``, else the
    ``max_columns`` that stayed consistent longest (the interesting ones), in index order."""
    alive = np.asarray(alive, dtype=bool)
    n = alive.shape[1]
    if n <= max_columns:
        return np.arange(n)
    keep = np.argsort(-alive.sum(axis=0), kind="stable")[:max_columns]
    return np.sort(keep)


def table_rows(alive: ArrayLike, mistakes: ArrayLike, t: int, max_rows: int = 25) -> np.ndarray:
    """Which rounds (0-based, < t) the table shows: all if ``t <= max_rows``; else the eventful
    ones (a mistake or an elimination) and the last three, the latest ``max_rows`` of them."""
    if t <= max_rows:
        return np.arange(t)
    sizes = np.asarray(alive, dtype=bool).sum(axis=1)
    eventful = np.asarray(mistakes[:t], bool) | (sizes[1:t + 1] < sizes[:t])
    eventful[max(0, t - 3):t] = True
    return np.flatnonzero(eventful)[-max_rows:]


@dataclass(frozen=True)
class TableView:
    """The table as shown: a pandas Styler and how much of the run it shows."""

    styler: object
    columns_shown: int
    rows_shown: int

    @property
    def frame(self) -> pd.DataFrame:
        return self.styler.data


@dataclass(frozen=True)
class TableCells:
    """The table after ``t`` rounds as plain cells: column names, and rows of an index label and
    ``(text, css)`` cells (what :func:`table` styles, and what the table shows while playing)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]


def table_cells(a: HalvingAnalysis, t: int) -> TableCells:
    r"""The UCL slide's table after ``t`` rounds: rounds as rows, experts as columns.

    A cell shows an expert's advice while it is consistent before that round and ✗ once it has
    been crossed out.  Columns ŷ, y, loss and :math:`|C_t|`; the last row ("after round t")
    marks who is still consistent (✓).  Wrong advice of a consistent expert (the round it is
    crossed out) and mistakes are shaded vermillion, crossed-out cells greyed.
    """
    X, y = a.X, a.y
    alive, pred = a.alive, np.asarray(a.trace.predictions)
    cols = table_columns(alive)
    hot = "background-color: rgba(213,94,0,0.28); font-weight: 700"
    rows = []
    for s in table_rows(alive, a.trace.mistakes, t):
        cells = [(str(int(X[s, i])), "" if X[s, i] == y[s] else hot) if alive[s, i] else (CROSS, f"color: {theme.GREY}")
                 for i in cols]
        wrong = pred[s] != y[s]
        cells += [(str(int(pred[s])), ""), (str(int(y[s])), ""), (str(int(wrong)), hot if wrong else ""),
                  (str(int(a.sizes[s])), "")]
        rows.append((f"round {s + 1}", tuple(cells)))
    last = [("✓", f"color: {theme.GREEN}; font-weight: 700") if alive[t, i] else (CROSS, f"color: {theme.GREY}")
            for i in cols]
    rows.append((f"after round {t}" if t else "start", tuple(last + [("", "")] * 3 + [(str(int(a.sizes[t])), "")])))
    return TableCells(tuple(f"E{i + 1}" for i in cols) + ("ŷ", "y", "loss", "|C_t|"), tuple(rows))


def proof_cells(a: HalvingAnalysis, t: int) -> TableCells:
    """The proof's table after ``t`` rounds (:meth:`olcore.lessons.halving.HalvingAnalysis.proof_rows`)
    as plain cells, without an index."""
    every = a.proof_rows()                  # (the columns, also before the first mistake)
    columns = tuple(every[0]) if every else ()
    return TableCells(columns, tuple((None, tuple((str(r[c]), "") for c in columns)) for r in a.proof_rows(t)))


@figure
def table(a: HalvingAnalysis, t: int) -> TableView:
    """:func:`table_cells` as a styled pandas table.  Built once per ``(a, t)`` and shared
    (``@figure``), so the page sends its element without restyling it
    (:meth:`olapp.kit.LessonPage.table`)."""
    cells = table_cells(a, t)
    df = pd.DataFrame([[text for text, _ in row] for _, row in cells.rows], index=[label for label, _ in cells.rows],
                      columns=list(cells.columns))
    css = pd.DataFrame([[style for _, style in row] for _, row in cells.rows], index=df.index, columns=df.columns)
    styler = df.style.apply(lambda _: css, axis=None)
    return TableView(styler, len(cells.columns) - 4, len(cells.rows) - 1)


# -- charts -------------------------------------------------------------------------------------

def _integer_rounds(xaxis: dict, T: int) -> None:
    """Rounds are whole numbers: no 1.5 ticks on short runs."""
    xaxis.update(dtick=1 if T <= 15 else 2, tick0=0) if T <= 30 else xaxis.update(tickformat="d")


@figure(animated=True)
def version_space(a: HalvingAnalysis, t: int | None = None, *, height: int = 400) -> go.Figure:
    r"""The version space :math:`|C|` after each round (log scale), under the proof's ceiling
    :math:`n/2^{M_t}` and, with a consistent expert, over the floor 1.  Round 0 is the start."""
    T, n = a.T, a.n
    sizes = np.asarray(a.sizes, dtype=float)
    M = np.concatenate([[0], a.cum_mistakes])
    ceiling = np.concatenate([[float(n)], a.ceiling.as_curve(T)])
    rounds = np.arange(T + 1)
    idx = downsample(T + 1)
    marks = "lines+markers" if T <= 60 else "lines"
    fig = Fig().add(
        scatter(rounds[idx], np.where(sizes[idx] > 0, sizes[idx], np.nan), SIZE, mode=marks, marker=dict(size=6),
                line=dict(color=theme.BLUE, width=2.5, shape="hv"),
                customdata=np.stack([sizes[idx], M[idx]], axis=1),
                hovertemplate="after round %{x}: |C| = %{customdata[0]:.0f}, mistakes so far "
                              "%{customdata[1]:.0f}<extra></extra>"),
        scatter(rounds[idx], ceiling[idx], a.ceiling.name, mode="lines",
                line=dict(color=theme.BOUND, width=2.5, dash="dash", shape="hv"),
                hovertemplate="after round %{x}: n/2^M_t = %{y:.6g}<extra></extra>"))
    if a.consistent:
        fig.add(scatter([0, max(T, 1)], [1, 1], FLOOR, mode="lines", hoverinfo="skip",
                        line=dict(color=theme.GREY, width=2, dash="dot")))
    if a.empty_after is not None:       # log scale has no 0: say where the version space ran out
        fig.vline(a.empty_after, f"empty after round {a.empty_after}", colour=theme.VERMILLION)
    fig.round_marker(t)
    lay = axes("round t (0 = the start)", "consistent experts (log scale)")
    lay["yaxis"].update(type="log", dtick=np.log10(2) if n <= 64 else 1,
                        range=[np.log10(0.4), np.log10(max(float(n), 2.0) * 1.6)])
    lay["xaxis"].update(range=[-0.5, T + 0.5])
    _integer_rounds(lay["xaxis"], T)
    return fig.build({"title": {"text": "Version space: every mistake at least halves it"},
                      "hovermode": "closest", **lay}, height=height)


@figure(animated=True)
def mistake_staircase(a: HalvingAnalysis, t: int | None = None, *, height: int = 400) -> go.Figure:
    """Halving's cumulative mistakes against the theorem's line log₂ n (drawn, and named so, even
    when no expert is consistent: then the staircase may pass it)."""
    bound = a.bound.formula if a.bound.applies else f"{a.bound.formula} (needs a consistent expert)"
    fig = curves_with_bounds({MISTAKES: a.cum_mistakes}, {bound: a.bound.value}, t=t,
                             title=("Mistakes: a staircase that stops below log₂ n" if a.consistent else
                                    "Mistakes: no expert is consistent, so log₂ n need not hold"),
                             yaxis_title="mistakes so far", height=height)
    top = max(a.bound.value, float(a.M)) * 1.15 + 0.5
    x = dict(range=[-0.5, a.T + 0.5])          # the version space's range: the two charts line up
    _integer_rounds(x, a.T)
    fig.update_layout(yaxis=dict(range=[0, top]), xaxis=x)
    if a.T <= 60:                       # short runs: a dot per round, so every step reads
        fig.update_traces(mode="lines+markers", marker=dict(size=7), selector=dict(name=MISTAKES))
    return fig
