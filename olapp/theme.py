"""Colour-blind-safe palette and a plotly template for light, dark and projector.

The palette is Okabe & Ito's (2008), distinguishable under the common colour-vision
deficiencies.  The template sets no font or background colour: backgrounds are
transparent and Streamlit's chart theme supplies the text colour of the active light or
dark theme.  Fonts are large enough to read from the back of a lecture hall.
"""

from __future__ import annotations

import plotly.graph_objects as go
import plotly.io as pio

BLUE = "#0072B2"
ORANGE = "#E69F00"
GREEN = "#009E73"
VERMILLION = "#D55E00"
PURPLE = "#CC79A7"
SKY = "#56B4E9"
YELLOW = "#F0E442"
GREY = "#8C8C8C"

#: Series colours in order of use (learners, experts, ...).
SERIES = [BLUE, ORANGE, GREEN, PURPLE, SKY, VERMILLION, YELLOW, GREY]
#: Bounds are drawn dashed in this colour so "empirical vs theory" reads at a glance.
BOUND = VERMILLION
#: Label colours for two-class data: y = +1 / 1 and y = -1 / 0.
POSITIVE = BLUE
NEGATIVE = ORANGE

FONT_SIZE = 15
GRID = "rgba(140,140,140,0.25)"

TEMPLATE = go.layout.Template(
    layout=go.Layout(
        colorway=SERIES,
        font=dict(size=FONT_SIZE),
        title=dict(font=dict(size=FONT_SIZE + 3), x=0.0, xanchor="left"),
        paper_bgcolor="rgba(0,0,0,0)",
        plot_bgcolor="rgba(0,0,0,0)",
        xaxis=dict(gridcolor=GRID, zerolinecolor=GRID, title=dict(font=dict(size=FONT_SIZE)), automargin=True),
        yaxis=dict(gridcolor=GRID, zerolinecolor=GRID, title=dict(font=dict(size=FONT_SIZE)), automargin=True),
        # One legend position for every figure: below the plot, anchored to the figure's bottom
        # edge (yref="container") so plotly reserves room for it under the x-axis title.
        legend=dict(orientation="h", yref="container", yanchor="bottom", y=0.0, xanchor="left", x=0.0,
                    font=dict(size=FONT_SIZE - 1)),
        hoverlabel=dict(font=dict(size=FONT_SIZE - 1)),
        hovermode="x unified",
        margin=dict(l=10, r=10, t=60, b=10),
    )
)
pio.templates["olab"] = TEMPLATE

PRESENTER_SCALE = 1.35
#: Presenter charts are at least this tall (px), so the main picture fills a projector's first screen.
PRESENTER_MIN_HEIGHT = 520


def apply(fig: go.Figure, *, height: int = 420, presenter: bool = False) -> go.Figure:
    """Apply the project template (and larger fonts in presenter mode) to ``fig``."""
    fig.update_layout(template=TEMPLATE, height=height)
    return present(fig) if presenter else fig


def present(fig: go.Figure) -> go.Figure:
    """Presenter mode for a built figure: every font scaled by PRESENTER_SCALE, 15 % taller and at
    least PRESENTER_MIN_HEIGHT px.

    The one place presenter sizes are applied (``olapp.controls.chart`` calls it); idempotent,
    so a figure shared between sessions through a cache is never enlarged twice.
    """
    if (fig.layout.meta or {}).get("presenter") if isinstance(fig.layout.meta, dict) else False:
        return fig
    s = PRESENTER_SCALE
    big = round(FONT_SIZE * s)
    fig.update_layout(
        meta={"presenter": True}, height=max(round((fig.layout.height or 420) * 1.15), PRESENTER_MIN_HEIGHT),
        font=dict(size=big), title_font=dict(size=round((FONT_SIZE + 3) * s)),
        legend_font=dict(size=round((FONT_SIZE - 1) * s)), hoverlabel_font=dict(size=round((FONT_SIZE - 1) * s)))
    fig.update_xaxes(title_font=dict(size=big), tickfont=dict(size=big))
    fig.update_yaxes(title_font=dict(size=big), tickfont=dict(size=big))
    return fig
