"""Figures of the Winnow lesson, on the shared style (:mod:`olapp.figures`): analysis in, ``go.Figure`` out.

Nothing here runs an algorithm or computes a bound: every array comes from
:func:`olcore.lessons.winnow.analyse` or :func:`olcore.lessons.winnow.sweep`.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from olcore.lessons.winnow import Elimination, WinnowAnalysis, WinnowSweep

from .. import theme
from . import Fig, figure, axes, bound_name, curves_with_bounds, downsample, scatter

__all__ = ["weights", "mistakes", "potential", "sweep", "elimination", "ELIM", "WINNOW_RAW", "WINNOW_DM"]

#: Curve names of the conjunction panel (tests find traces by them).
ELIM = "elimination algorithm"
WINNOW_RAW = "Winnow on (x, y) as given"
WINNOW_DM = "Winnow on (x, 1 − x), labels 1 − y"


@figure(animated=True)
def weights(a: WinnowAnalysis, t: int) -> go.Figure:
    r"""Winnow's weights up to round ``t`` on a log scale: each attribute of the disjunction, the
    spread of the others (max, median, min) and the threshold :math:`\theta`."""
    K = a.rows_at(t)
    x = np.concatenate([[0], a.change_rounds[: K - 1], [t]]).astype(float)
    rows = np.concatenate([np.arange(K), [K - 1]])
    fig = Fig()
    in_it, others = ("in the disjunction", "other attributes") if a.found else ("relevant", "irrelevant")
    n_rest = a.N - (0 if a.relevant is None else len(a.relevant))
    if a.others.shape[1]:
        hi, med, lo = (a.others[rows, j] for j in range(3))
        fig.add(scatter(x, hi, f"{others} ({n_rest}): max", mode="lines", hovertemplate="%{y:.4g}",
                        line=dict(color=theme.GREY, width=1.5, shape="hv")),
                scatter(x, lo, f"{others} ({n_rest}): min", mode="lines", hovertemplate="%{y:.4g}",
                        line=dict(color=theme.GREY, width=1.5, shape="hv"), fill="tonexty",
                        fillcolor="rgba(140,140,140,0.15)"),
                scatter(x, med, f"{others}: median", mode="lines", hovertemplate="%{y:.4g}",
                        line=dict(color=theme.GREY, width=2, dash="dot", shape="hv")))
    for i, r in enumerate(a.coloured):
        fig.add(scatter(x, a.coloured_weights[rows, i], f"{in_it} x{int(r) + 1}", mode="lines",
                        hovertemplate="%{y:.4g}", line=dict(color=theme.SERIES[i % len(theme.SERIES)], width=3,
                                                            shape="hv")))
    fig.add(scatter([0, max(t, 1)], [a.theta, a.theta], f"threshold θ = {a.theta:g}", mode="lines",
                    hovertemplate="%{y:.4g}", line=dict(color=theme.BOUND, dash="dash", width=2)))
    fig.round_marker(t)
    lay = axes("round t", "weight w_i (log scale)")
    lay["yaxis"].update(type="log", dtick=1, exponentformat="power")
    return fig.build({"title": {"text": "Winnow's weights"}, **lay}, height=440)


@figure(animated=True)
def mistakes(a: WinnowAnalysis, t: int) -> go.Figure:
    """Winnow's cumulative mistakes with the theorem's bound (none when it does not apply)."""
    return curves_with_bounds({"Winnow": np.cumsum(a.trace.mistakes)}, [a.bound], t=t, title="Mistakes",
                              yaxis_title="cumulative mistakes")


@figure(animated=True)
def potential(a: WinnowAnalysis, t: int) -> go.Figure:
    r"""The potential :math:`\Phi_t = \sum_i w_i` against the line the proof keeps it under, and 0."""
    n = len(a.potential)
    idx = downsample(n)
    r = np.arange(n)
    fig = Fig()
    fig.add(scatter(r[idx], a.potential[idx], "Φ_t = Σ w_i", mode="lines", hovertemplate="%{y:.5g}",
                    line=dict(color=theme.BLUE, width=2.5, shape="hv")),
            scatter(r[idx], a.potential_upper[idx], bound_name(a.potential_formula), mode="lines",
                    hovertemplate="%{y:.5g}", line=dict(color=theme.BOUND, width=2.5, dash="dash", shape="hv")),
            scatter([0, n - 1], [0, 0], "bound: Φ > 0 (lower)", mode="lines", hoverinfo="skip",
                    line=dict(color=theme.GREY, width=2, dash="dot")))
    fig.round_marker(t)
    return fig.build({"title": {"text": "The proof's potential Φ = Σ w"}, **axes("round t", "Σ_i w_i")}, height=400)


@figure
def sweep(s: WinnowSweep) -> go.Figure:
    """Mistakes against N (log–log): per learner the mean over seeds with a min–max band, and its bound."""
    fig = Fig()
    Ns = s.Ns.astype(float)
    stats = {"Winnow": s.winnow, "Perceptron": s.perceptron}
    bounds = {"2 + 3k(log₂N + 1) (Winnow)": s.winnow_bound, "(4k+1)(N+1) (Perceptron)": s.perceptron_bound}
    for i, (name, A) in enumerate(stats.items()):
        c = theme.SERIES[i % len(theme.SERIES)]
        fig.add(scatter(np.concatenate([Ns, Ns[::-1]]), np.concatenate([A.max(axis=0), A.min(axis=0)[::-1]]),
                        f"{name}: min–max over {A.shape[0]} seeds", fill="toself", mode="lines",
                        line=dict(width=0), fillcolor=c, opacity=0.2, hoverinfo="skip"),
                scatter(Ns, A.mean(axis=0), f"{name}: mean", mode="lines+markers", line=dict(color=c, width=3),
                        hovertemplate="N = %{x}<br>%{y:.4g} mistakes"))
        formula = next(f for f in bounds if f.endswith(f"({name})"))
        fig.add(scatter(Ns, bounds[formula], bound_name(formula), mode="lines", hovertemplate="N = %{x}<br>%{y:.4g}",
                        line=dict(color=c, dash="dash", width=2)))
    lay = axes("number of attributes N (log scale)", "mistakes (log scale)")
    lay["xaxis"].update(type="log", dtick=1)
    # keep the measured curves readable; the Perceptron's bound, linear in N, leaves the frame
    y_max = 4 * max(float(s.perceptron.max()), float(s.winnow_bound.max()))
    lay["yaxis"].update(type="log", dtick=1, range=[0.5, float(np.log10(y_max))])
    return fig.build({"title": {"text": "Mistakes as irrelevant attributes abound"}, "hovermode": "closest", **lay},
                     height=440)


@figure(animated=True)
def elimination(e: Elimination, t: int) -> go.Figure:
    """Cumulative mistakes of the elimination algorithm and of Winnow on a conjunction stream, with their bounds
    (the player's round ``t`` is clamped to this stream's length)."""
    t = min(int(t), e.T)
    curves = {ELIM: np.cumsum(e.trace.mistakes), WINNOW_RAW: np.cumsum(e.winnow.mistakes),
              WINNOW_DM: np.cumsum(e.demorgan.mistakes)}
    bounds = {f"{e.report.formula} ({ELIM})": e.report.value} if e.report.applies else {}
    if e.demorgan_report.applies:
        bounds[f"{e.demorgan_report.formula} ({WINNOW_DM})"] = e.demorgan_report.value
    return curves_with_bounds(curves, bounds, t=t, title="Learning a conjunction: mistakes",
                              yaxis_title="cumulative mistakes")
