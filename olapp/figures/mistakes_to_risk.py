"""Figures of the /mistakes_to_risk lesson: the ensemble over rounds, the martingale, the penalised choice,
and the failure rates over many samples.  Axes ranges come from the whole run (no rescaling while the
player moves); every bound is a trace named ``bound: ...``."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from olcore.lessons.mistakes_to_risk import Analysis, Repetitions

from .. import theme
from . import Fig, figure, axes, bound_name, downsample, scatter

__all__ = ["ensemble", "martingale", "choice", "repetitions"]


def _line(x, y, name: str, colour: str, *, width: float = 2.5, dash: str | None = None, shape: str = "hv",
          opacity: float = 1.0) -> dict:
    return scatter(x, y, name, mode="lines", hovertemplate="%{y:.4g}", opacity=opacity,
                   line=dict(color=colour, width=width, shape=shape, **({"dash": dash} if dash else {})))


def _hline(fig: Fig, x0: float, x1: float, y: float, name: str, colour: str, dash: str = "dot") -> None:
    fig.add(_line([x0, x1], [y, y], name, colour, width=2, dash=dash, shape="linear"))


@figure(animated=True)
def ensemble(a: Analysis, t: int, height: int = 440) -> go.Figure:
    """risk(H_{t-1}) (held out), its running average, M_t/t and the Step 1 bound, over rounds t = 1..n."""
    n = a.n
    idx = downsample(n)
    r = np.arange(1, n + 1)[idx]
    fig = Fig()
    fig.add(_line(r, a.risk[:n][idx], "risk(H_{t−1}) (held out)", theme.GREY, width=1.2, opacity=0.8),
            _line(r, a.average[idx], "average risk (1/t) Σ risk(H_{s−1})", theme.BLUE),
            _line(r, (a.M / np.arange(1, n + 1))[idx], "fraction of mistakes M_t/t", theme.ORANGE),
            _line(r, a.average_report.curve[idx], bound_name(a.average_report.formula + " (capped at 1)"),
                  theme.BOUND, dash="dash", shape="linear"))
    if a.bayes_risk is not None:
        _hline(fig, 1, n, a.bayes_risk, "Bayes risk", theme.GREEN)
    fig.round_marker(t if t > 0 else None, rounds=n)
    lay = axes("round t", "risk / fraction")
    lay["xaxis"].update(range=[0, n * 1.01])
    lay["yaxis"].update(range=[0, 1.02])
    return fig.build({"title": {"text": "Step 1: the ensemble's average risk against its mistakes"}, **lay},
                     height=height)


@figure(animated=True)
def martingale(a: Analysis, t: int, height: int = 440) -> go.Figure:
    """The martingale Σ (risk(H_{s−1}) − 1[mistake_s]) and its Bernstein envelope over rounds."""
    n = a.n
    idx = downsample(n)
    r = np.arange(1, n + 1)[idx]
    env = np.asarray(a.bounds.envelope)
    fig = Fig()
    fig.add(_line(r, a.martingale[idx], "Σ_{s≤t} (risk(H_{s−1}) − 1[mistake_s])", theme.PURPLE),
            _line(r, env[idx], bound_name("7L/3 + √(49L²/9 + 2L + 4L·M_t)"), theme.BOUND, dash="dash",
                  shape="linear"))
    fig.round_marker(t if t > 0 else None, rounds=n)
    top = 1.05 * float(max(env.max(), a.martingale.max()))
    low = min(0.0, 1.05 * float(a.martingale.min()))
    lay = axes("round t", "martingale")
    lay["xaxis"].update(range=[0, n * 1.01])
    lay["yaxis"].update(range=[low - 0.05 * top, top], zeroline=True)
    return fig.build({"title": {"text": "The martingale and its Bernstein envelope"}, **lay}, height=height)


@figure
def choice(a: Analysis, height: int = 460) -> go.Figure:
    """For each H_t (t = 0..n−1): its test error on unseen examples, the penalised criterion, the held-out risk;
    Ĥ marked; beside it the last and the averaged hypotheses and both Step 2 bounds."""
    c = a.choice
    n = a.n
    idx = downsample(n)
    ts = np.arange(n)[idx]
    fig = Fig()
    fig.add(_line(ts, a.risk[:n][idx], "risk(H_t) (held out)", theme.GREY, width=1.5),
            _line(ts, c.estimate[idx], "test error r̂_t on x_{t+1..n}", theme.SKY, width=1.5),
            _line(ts, c.criterion[idx], "penalised estimate r̂_t + pen_t", theme.BLUE))
    fig.add(_line([0, n], [c.bound] * 2, bound_name(a.chosen_report.formula), theme.BOUND, dash="dash",
                  shape="linear"))
    chm = a.chosen_mistakes_report.value
    marks = [c.bound, a.risk_last, a.risk_averaged]
    if chm <= 1.0:                                  # above 1 it says nothing (the caption gives its value)
        fig.add(_line([0, n], [chm] * 2, bound_name(a.chosen_mistakes_report.formula), theme.BOUND, dash="dot",
                      shape="linear"))
        marks.append(chm)
    _hline(fig, 0, n, a.risk_last, f"last H_n: {a.risk_last:.3f}", theme.ORANGE, dash="dashdot")
    _hline(fig, 0, n, a.risk_averaged, f"averaged (1/n)Σ w_t: {a.risk_averaged:.3f}", theme.PURPLE, dash="longdash")
    if a.bayes_risk is not None:
        _hline(fig, 0, n, a.bayes_risk, "Bayes risk", theme.GREEN)
    fig.add(scatter([c.t_star], [a.risk_chosen], f"Ĥ = H_{c.t_star}: risk {a.risk_chosen:.3f}", mode="markers",
                    hovertemplate="t* = %{x}, risk %{y:.4g}",
                    marker=dict(symbol="star", size=18, color=theme.VERMILLION, line=dict(color="white", width=1))))
    lay = axes("hypothesis H_t, t = 0..n−1", "risk / estimate")
    lay["xaxis"].update(range=[0, n * 1.01])
    lay["yaxis"].update(range=[0, min(1.05, max(0.5, 2.0 * max(marks)))])
    return fig.build({"title": {"text": "Step 2: Ĥ minimises the penalised estimate"}, **lay}, height=height)


@figure
def repetitions(r: Repetitions, height: int = 440) -> go.Figure:
    """One dot per sample: the true risk divided by its bound (above 1: the bound failed)."""
    fig = Fig()
    k = np.arange(1, r.R + 1)
    top = 1.0
    for name, actual, bound, colour in (
            ("average risk / its Step 1 bound", r.average, r.average_bound, theme.BLUE),
            ("risk(Ĥ) / min_t (r̂_t + pen_t)", r.chosen, r.chosen_bound, theme.ORANGE),
            ("risk(Ĥ) / the bound from M_n", r.chosen, r.chosen_mistakes_bound, theme.GREEN)):
        ratio = actual / bound
        top = max(top, float(ratio.max()))
        fig.add(scatter(k, np.sort(ratio), name, mode="markers", hovertemplate="%{y:.3g}",
                        marker=dict(color=colour, size=6)))
    fig.add(_line([0, r.R + 1], [1, 1], bound_name("true risk = bound (a failure lies above)"), theme.BOUND,
                  dash="dash", shape="linear"))
    lay = axes(f"sample (sorted by ratio), {r.R} samples of n = {r.n}", "true risk / bound")
    lay["yaxis"].update(range=[0, 1.1 * top])
    return fig.build({"title": {"text": "Many samples: true risk over its bound"}, **lay}, height=height)
