"""Figures of the Weighted Majority vs Hedge lesson, on the shared style (:mod:`olapp.figures`).

Plain functions from an analysis (:mod:`olcore.lessons.wm_vs_hedge`) to ``go.Figure``: no
Streamlit, no runs.  Rounds are counted as the player counts them: ``t`` rounds played, the
weights "after round t" are the ones used in round ``t + 1``; one round marker at ``t``.
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np
from numpy.typing import ArrayLike
import plotly.graph_objects as go
from olcore.lessons.wm_vs_hedge import HedgeSweep, ScaledHedge, TuningAnalysis, WAEquality

from .. import theme
from . import Fig, figure, axes, bound_name, curves_with_bounds, downsample, scatter

__all__ = ["MASTER_NAMES", "weights_heatmap", "weights_bar", "cumulative_losses", "regret_ribbons", "hedge_eta_sweep",
           "wm_potential", "hedge_potential", "wm_constants", "cmu_forms", "regret_forms", "average_regret",
           "two_regret", "wa_equality", "scaled_hedge"]

#: How each master's regret is labelled (RWM's is on its expected mistakes, Hedge's on HA-1).
MASTER_NAMES = {"WM": "WM", "RWM": "RWM (expected)", "WA": "WA", "Hedge": "Hedge"}
_CLOSEST = dict(hovermode="closest")
#: Light (no weight) to dark blue (all the weight); spelled out, since an unvalidated figure would give
#: plotly.js's legacy "Blues", which runs the other way.
_BLUES = [[0.0, "#f7fbff"], [0.125, "#deebf7"], [0.25, "#c6dbef"], [0.375, "#9ecae1"], [0.5, "#6baed6"],
          [0.625, "#4292c6"], [0.75, "#2171b5"], [0.875, "#08519c"], [1.0, "#08306b"]]


def _rounds_axis(lay: dict, T: int, start: float = 0.5) -> dict:
    lay["xaxis"].update(range=[start, T + 0.5], tickformat="d")
    return lay


@figure(animated=True)
def weights_heatmap(weights: ArrayLike, t: int | None = None, *, title: str = "Expert weights v_t",
                    max_cols: int = 300, height: int = 380, upto: int | None = None) -> go.Figure:
    """Normalised weights after each round (experts × rounds 0..T), downsampled in time.

    ``upto``: draw only the columns after rounds 0..``upto`` on the whole run's axis (a lecture's question is
    open at that round: the later weights would give its answer away).  The experts are rows 0..n-1 labelled
    E1..En on the axis (no ``y`` array, so the lecture's curve cutting leaves the heat map whole).
    """
    W = np.asarray(weights, dtype=float)                       # (T+1, n): row s = after s rounds
    last = W.shape[0] - 1
    if upto is not None:
        W = W[: max(0, min(int(upto), last)) + 1]
    idx = downsample(W.shape[0], max_cols)
    n = W.shape[1]
    names = [f"E{i + 1}" for i in range(n)]
    fig = Fig().add(dict(type="heatmap", z=W[idx].T, x=idx, text=[[e] * len(idx) for e in names],
                         colorscale=_BLUES, zmin=0, zmax=max(float(W.max()), 1e-12), colorbar=dict(title=dict(text="v_t,i"), thickness=12),
                         hovertemplate="after round %{x}<br>%{text}: weight %{z:.4f}<extra></extra>"))
    fig.round_marker(t)
    lay = axes("rounds played t", "expert")
    lay["yaxis"].update(autorange="reversed", showgrid=False, tickmode="array",
                        tickvals=list(range(0, n, max(1, n // 16))), ticktext=names[:: max(1, n // 16)])
    lay["xaxis"].update(showgrid=False, range=[-0.5, last + 0.5])
    return fig.build({"title": {"text": title}, **lay, **_CLOSEST}, height=height)


@figure(animated=True)
def weights_bar(runs: Mapping[str, object], t: int, *, height: int = 380) -> go.Figure:
    """Each master's weight vector after ``t`` rounds (the one it uses in round ``t + 1``); ``runs``
    maps a name to its :class:`olcore.Trace`."""
    rows = {k: r.weights_at(t) for k, r in runs.items()}
    fig = Fig()
    for k, (name, v) in enumerate(rows.items()):
        v = np.asarray(v, dtype=float)
        fig.add(dict(type="bar", x=[f"E{i + 1}" for i in range(len(v))], y=v, name=name,
                     marker=dict(color=theme.SERIES[k % len(theme.SERIES)]), hovertemplate="%{x}: %{y:.4f}"))
    lay = axes("expert", "normalised weight v_t,i")
    lay["xaxis"].update(range=[-0.5, len(v) - 0.5])      # fixed axes: a frame of Play moves only the bars
    lay["yaxis"].update(range=[0, 1.02])
    return fig.build({"title": {"text": f"Weights after round {t}" if t else "Weights at the start"},
                      "barmode": "group", **lay}, height=height)


@figure(animated=True)
def cumulative_losses(curves: Mapping[str, Sequence[float]], best: Sequence[float], t: int | None = None,
                      *, height: int = 440) -> go.Figure:
    """Each master's cumulative loss against the best expert's mistakes so far (dotted)."""
    best = np.asarray(best, dtype=float)
    T = len(best)
    rounds = np.arange(1, T + 1)
    idx = downsample(T)
    fig = Fig()
    for k, (name, c) in enumerate(curves.items()):
        c = np.asarray(c, dtype=float)
        fig.add(scatter(rounds[idx], c[idx], name, mode="lines", hovertemplate="%{y:.4g}",
                        line=dict(color=theme.SERIES[k % len(theme.SERIES)], width=2.5)))
    fig.add(scatter(rounds[idx], best[idx], "best expert so far", mode="lines", hovertemplate="%{y:.4g}",
                    line=dict(color="#444444", width=3, dash="dot")))
    fig.round_marker(t, rounds=T)
    lay = _rounds_axis(axes("round t", "cumulative loss"), T)
    lay["yaxis"].update(rangemode="tozero")
    return fig.build({"title": {"text": "Cumulative loss vs the best expert"}, **lay}, height=height)


@figure(animated=True)
def regret_ribbons(regrets: Mapping[str, Sequence[float]], reports: Mapping[str, object],
                   t: int | None = None, *, height: int = 560) -> go.Figure:
    r"""Each master's regret :math:`L_t - \min_i L_{t,i}` under its theorem's bound, one panel per
    master (their scales differ), 2 columns.

    ``regrets`` maps a master's label to its regret curve (T,); ``reports`` maps the same label to
    its :class:`olcore.report.BoundReport`.  A report that applies is drawn dashed, named
    ``report.name``, with the room it leaves shaded; one that does not is left out and the panel
    says "(no bound)".
    """
    names = list(regrets)
    cols = 2 if len(names) > 1 else 1
    nrows = (len(names) + cols - 1) // cols
    gap_x, gap_y = 0.1, 0.2
    w = (1 - gap_x * (cols - 1)) / cols
    h = (1 - gap_y * (nrows - 1)) / nrows
    fig, layout = Fig(), {}
    for k, name in enumerate(names):
        r = np.asarray(regrets[name], dtype=float)
        T = len(r)
        rounds = np.arange(1, T + 1)
        idx = downsample(T)
        row, col = k // cols, k % cols
        sx = "" if k == 0 else str(k + 1)
        x0, y1 = col * (w + gap_x), 1 - row * (h + gap_y)
        layout[f"xaxis{sx}"] = dict(domain=[max(0.0, x0), min(1.0, x0 + w)], anchor=f"y{sx}", range=[0.5, T + 0.5], tickformat="d",
                                    title=dict(text="round t") if row == nrows - 1 else None)
        layout[f"yaxis{sx}"] = dict(domain=[max(0.0, y1 - h), min(1.0, y1)], anchor=f"x{sx}",
                                    title=dict(text="regret") if col == 0 else None)
        colour = theme.SERIES[k % len(theme.SERIES)]
        fig.add(scatter(rounds[idx], r[idx], f"{name}: regret", mode="lines", xaxis=f"x{sx}", yaxis=f"y{sx}",
                        line=dict(color=colour, width=2.5), showlegend=False,
                        hovertemplate="t = %{x}: regret %{y:.4g}<extra></extra>"))
        rep = reports.get(name)
        drawn = rep is not None and rep.applies and rep.curve is not None
        if drawn:
            b = np.asarray(rep.as_curve(T), dtype=float)
            rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
            fig.add(scatter(rounds[idx], b[idx], rep.name, mode="lines", xaxis=f"x{sx}", yaxis=f"y{sx}",
                            line=dict(color=theme.BOUND, width=2, dash="dash"), fill="tonexty",
                            fillcolor=f"rgba({rgb[0]},{rgb[1]},{rgb[2]},0.15)", showlegend=False,
                            hovertemplate="t = %{x}: bound %{y:.4g}<extra></extra>"))
        label = f"{name}: bound {rep.formula.split(': ', 1)[-1]}" if drawn else f"{name} (no bound)"
        fig.annotations.append(dict(text=label, x=x0 + w / 2, y=y1, xref="paper", yref="paper", xanchor="center",
                                    yanchor="bottom", showarrow=False))
        if t is not None:
            fig.shapes.append(dict(type="line", x0=t, x1=t, y0=0, y1=1, xref=f"x{sx}", yref=f"y{sx} domain",
                                   line=dict(color=theme.GREY, width=1.5, dash="dot")))
    return fig.build({"title": {"text": "Regret under each bound"}, **layout, **_CLOSEST}, height=height)


def _log_vline(fig: Fig, x: float, label: str, colour: str, top: bool) -> None:
    """A labelled vertical line on a log x-axis (annotations sit at log10 of the value there)."""
    fig.shapes.append(dict(type="line", x0=x, x1=x, y0=0, y1=1, yref="paper",
                           line=dict(color=colour, width=1.8, dash="dot")))
    fig.annotations.append(dict(x=math.log10(x), y=1 if top else 0, yref="paper", text=label, showarrow=False,
                                xanchor="left", yanchor="top" if top else "bottom"))


@figure
def hedge_eta_sweep(sw: HedgeSweep, eta_now: float | None = None, *, height: int = 440) -> go.Figure:
    r"""Hedge's final regret as a function of :math:`\eta` (a :class:`~olcore.lessons.wm_vs_hedge.HedgeSweep`).

    The HA-1 expected regret (mean over the generated streams, their min–max as a band), the
    bound :math:`\ln n/\eta + \eta T/2`, and on a fixed stream the spread of sampled HA-2 draws.
    """
    etas = np.asarray(sw.etas, dtype=float)
    R = np.asarray(sw.expected, dtype=float)
    fig = Fig()
    if sw.generated:
        fig.add(scatter(etas, R.max(axis=0), "", mode="lines", line=dict(width=0), showlegend=False,
                        hoverinfo="skip"),
                scatter(etas, R.min(axis=0), f"expected regret, spread over {R.shape[0]} streams (min–max)",
                        mode="lines", line=dict(width=0), fill="tonexty", fillcolor="rgba(0,114,178,0.2)",
                        hovertemplate="η = %{x:.4g}: min %{y:.4g}<extra></extra>"),
                scatter(etas, R.mean(axis=0), "Hedge expected regret (HA-1, mean over streams)",
                        mode="lines+markers", line=dict(color=theme.BLUE, width=2.5), marker=dict(size=5),
                        hovertemplate="η = %{x:.4g}: mean regret %{y:.4g}<extra></extra>"))
    else:
        S = np.asarray(sw.sampled, dtype=float)
        fig.add(scatter(etas, S.max(axis=0), "", mode="lines", line=dict(width=0), showlegend=False,
                        hoverinfo="skip"),
                scatter(etas, S.min(axis=0), f"sampled play (HA-2): {S.shape[0]} draws, min–max",
                        mode="lines", line=dict(width=0), fill="tonexty", fillcolor="rgba(230,159,0,0.25)",
                        hovertemplate="η = %{x:.4g}: lowest draw %{y:.4g}<extra></extra>"),
                scatter(etas, R[0], "Hedge expected regret (HA-1)", mode="lines+markers",
                        line=dict(color=theme.BLUE, width=2.5), marker=dict(size=5),
                        hovertemplate="η = %{x:.4g}: expected regret %{y:.4g}<extra></extra>"))
    fig.add(scatter(etas, sw.bound, bound_name("ln n/η + ηT/2"), mode="lines",
                    line=dict(color=theme.BOUND, width=2.5, dash="dash"),
                    hovertemplate="η = %{x:.4g}: bound %{y:.4g}<extra></extra>"))
    if sw.eta_star > 0:
        _log_vline(fig, sw.eta_star, f"η* = {sw.eta_star:.3g}", theme.GREEN, True)
    if eta_now is not None and not np.isclose(eta_now, sw.eta_star):
        _log_vline(fig, eta_now, f"your η = {eta_now:.3g}", theme.GREY, False)
    decades = np.arange(np.floor(np.log10(etas.min())), np.ceil(np.log10(etas.max())) + 1)
    ticks = np.array([m * 10.0 ** d for d in decades for m in (1, 2, 5)])
    ticks = ticks[(ticks >= etas.min() / 1.01) & (ticks <= etas.max() * 1.01)]
    lay = axes("learning rate η (log scale)", f"regret after T = {sw.T} rounds")
    lay["xaxis"].update(type="log", tickvals=ticks, ticktext=[f"{v:g}" for v in ticks])
    lay["yaxis"].update(rangemode="tozero")
    return fig.build({"title": {"text": "Hedge's regret as a function of η"}, **lay, **_CLOSEST}, height=height)


@figure(animated=True)
def wm_potential(log_W: ArrayLike, log_lower: ArrayLike, log_upper: ArrayLike, t: int | None = None, *, beta: float, height: int = 420) -> go.Figure:
    r"""The WM proof: :math:`\ln W_t` between :math:`\ln\beta^{\min_i M_{t,i}}` and
    :math:`\ln n + M_t\ln\frac{1+\beta}{2}`, after each of rounds 0..T."""
    log_W = np.asarray(log_W, float)
    s = np.arange(len(log_W))
    idx = downsample(len(log_W))
    # ln W_t runs along its lower bound once the best expert holds almost all the weight: the bound is
    # drawn on top, dotted and wider, over a shaded gap, so both stay visible where they meet
    lower = np.asarray(log_lower, float)[idx]
    fig = Fig().add(
        scatter(s[idx], np.asarray(log_upper, float)[idx], bound_name("ln n + M_t ln((1+β)/2)"), mode="lines",
                line=dict(color=theme.BOUND, width=2.5, dash="dash"), hovertemplate="%{y:.4g}"),
        scatter(s[idx], lower, "gap ln W_t − lower bound", mode="lines", line=dict(width=0), hoverinfo="skip",
                showlegend=False),
        scatter(s[idx], log_W[idx], "ln W_t (total weight)", mode="lines", line=dict(color=theme.BLUE, width=3),
                fill="tonexty", fillcolor="rgba(0,114,178,0.12)", hovertemplate="%{y:.4g}"),
        scatter(s[idx], lower, bound_name("ln β^(min_i M_t,i)"), mode="lines",
                line=dict(color=theme.GREEN, width=4, dash="dot"), hovertemplate="%{y:.4g}"))
    fig.round_marker(t)
    lay = _rounds_axis(axes("rounds played t", "ln W_t (natural log)"), len(log_W) - 1, -0.5)
    return fig.build({"title": {"text": f"WM proof (β = {beta:.3g}): ln W_t in its corridor"}, **lay},
                     height=height)


@figure(animated=True)
def hedge_potential(rel_entropy: ArrayLike, regret_u: ArrayLike, rhs: ArrayLike, t: int | None = None, *, height: int = 420) -> go.Figure:
    r"""The Hedge proof: :math:`d(u, v_t)` falling and the regret to :math:`u` below the
    telescoped bound :math:`(d(u,v_1) - d(u,v_{t+1}))/\eta + \frac\eta2\sum_s v_s\cdot\ell_s^2`."""
    d = np.asarray(rel_entropy, float)                 # (T+1,): after 0..T rounds
    T = len(regret_u)
    rounds = np.arange(1, T + 1)
    idx, jdx = downsample(T), downsample(len(d))
    fig = Fig().add(
        scatter(np.arange(len(d))[jdx], d[jdx], "d(u, v_t) = −ln v_t,i*", mode="lines",
                line=dict(color=theme.PURPLE, width=2.5), hovertemplate="%{y:.4g}"),
        scatter(rounds[idx], np.asarray(regret_u, float)[idx], "regret to u = e_i*", mode="lines",
                line=dict(color=theme.BLUE, width=2.5), hovertemplate="%{y:.4g}"),
        scatter(rounds[idx], np.asarray(rhs, float)[idx], bound_name("(d(u,v₁) − d(u,v_t+1))/η + η/2 Σ v·ℓ²"),
                mode="lines", line=dict(color=theme.BOUND, width=2.5, dash="dash"), hovertemplate="%{y:.4g}"))
    fig.round_marker(t, rounds=T)
    lay = _rounds_axis(axes("round t", "nats"), T, -0.5)
    return fig.build({"title": {"text": "Hedge proof: d(u, v_t) pays for the regret"}, **lay}, height=height)


@figure
def wm_constants(beta_now: float, *, height: int = 340) -> go.Figure:
    r"""WM's constants :math:`a(\beta) = \ln\frac1\beta/\ln\frac2{1+\beta}` and
    :math:`b(\beta) = 1/\ln\frac2{1+\beta}` of :math:`M \le a M_i + b\ln n` (from
    :func:`olcore.bounds.weighted_majority_constants`), with β = 1/e and the chosen β marked."""
    from olcore import bounds

    betas = np.linspace(0.01, 0.99, 197)
    a, b = bounds.weighted_majority_constants(betas)
    fig = Fig().add(
        scatter(betas, a, "a(β): factor of the best expert's mistakes", mode="lines",
                line=dict(color=theme.BLUE, width=2.5), hovertemplate="β = %{x:.3f}: a = %{y:.3f}"),
        scatter(betas, b, "b(β): factor of ln n", mode="lines", line=dict(color=theme.ORANGE, width=2.5),
                hovertemplate="β = %{x:.3f}: b = %{y:.3f}"),
        scatter([0, 1], [2, 2], "a = 2: no β goes below", mode="lines",
                line=dict(color=theme.GREY, width=1.5, dash="dot"), hoverinfo="skip"))
    above = beta_now > 1 / math.e
    fig.vline(1 / math.e, "β = 1/e: a = b = 2.63", colour=theme.GREEN, side="right" if above else "left")
    if not math.isclose(beta_now, 1 / math.e, abs_tol=1e-3):
        fig.vline(beta_now, f"your β = {beta_now:.3g}", side="left" if above else "right")
    lay = axes("β", "constant")
    lay["yaxis"].update(range=[0, 8])
    lay["xaxis"].update(range=[0, 1])
    return fig.build({"title": {"text": "WM's constants: M ≤ a(β)·min_i M_i + b(β)·ln n"}, **lay, **_CLOSEST},
                     height=height)


# -- the CMU form, tuning to T, Problems 3.2, WA's equality, losses in [0, B] ---------------------
@figure(animated=True)
def cmu_forms(ta: TuningAnalysis, t: int | None = None, *, height: int = 420) -> go.Figure:
    """WM's mistakes at β = 1 − η under both forms of its bound (UCL and CMU), on one run."""
    return curves_with_bounds({f"WM mistakes M_t (β = 1 − η = {1 - ta.eta:.3g})": ta.wm_mistakes}, [ta.ucl, ta.cmu],
                              t=t, title=f"WM at η = {ta.eta:.3g}: the UCL and CMU forms of one bound",
                              yaxis_title="mistakes", height=height)


@figure(animated=True)
def regret_forms(ta: TuningAnalysis, t: int | None = None, *, height: int = 420) -> go.Figure:
    """The CMU notes' regret forms (1) (WM) and (2) (RWM, expected) at one η, over rounds."""
    return curves_with_bounds({"WM: M_t − m*_t": ta.wm_regret, "RWM: E[M_t] − m*_t": ta.rwm_regret},
                              [ta.form1, ta.form2], t=t, title=f"Regret forms (1) and (2) at η = {ta.eta:.3g}",
                              yaxis_title="regret", height=height)


def _line(x, y, name, colour, dash=None, markers=False, hover="%{y:.4g}"):
    return scatter(x, y, name, mode="lines+markers" if markers else "lines", hovertemplate=hover,
                   line=dict(color=colour, width=2.5 if dash is None else 2, **({"dash": dash} if dash else {})),
                   **({"marker": dict(size=6)} if markers else {}))


@figure(animated=True)
def average_regret(ta: TuningAnalysis, t: int | None = None, *, height: int = 460) -> go.Figure:
    r"""Average regret per round: WM and RWM at a fixed η over t, RWM re-run at η = 1/√T' for each
    horizon T', each with its bound divided by t (bounds clipped by the axis at small t)."""
    T = len(ta.fixed_avg)
    r = np.arange(1, T + 1)
    idx = downsample(T)
    H = ta.horizons
    fig = Fig().add(
        _line(r[idx], ta.wm_avg[idx], "WM (β = 1 − η): (M_t − m*_t)/t", theme.ORANGE),
        _line(r[idx], ta.wm_avg_bound[idx], bound_name("(m* + 2η m* + 2 ln n/η)/t, form (1)"), theme.ORANGE, "dash"),
        _line(r[idx], ta.fixed_avg[idx], f"RWM, fixed η = {ta.eta:.3g}: (E[M_t] − m*_t)/t", theme.BLUE),
        _line(r[idx], ta.fixed_avg_bound[idx], bound_name("(η m* + ln n/η)/t, form (2)"), theme.BLUE, "dash"),
        _line(H, ta.tuned_avg, "RWM, η = 1/√T' re-run for each horizon T': (E[M] − m*)/T'", theme.GREEN,
              markers=True, hover="T' = %{x}: %{y:.4g}"),
        _line(H, ta.tuned_avg_bound, bound_name("(m*/√T' + √T' ln n)/T', form (2) at η = 1/√T'"), theme.GREEN, "dot",
              hover="T' = %{x}: bound %{y:.4g}"))
    fig.round_marker(t)
    lows = [float(np.min(ta.wm_avg)), float(np.min(ta.fixed_avg)), float(np.min(ta.tuned_avg))]
    lay = _rounds_axis(axes("round t (for the green points: the horizon T')", "regret per round"), T)
    lay["yaxis"].update(range=[min(0.0, min(lows)) - 0.02, 1.0])
    return fig.build({"title": {"text": "Average regret per round: a fixed η against η tuned to T"}, **lay},
                     height=height)


@figure(animated=True)
def two_regret(ta: TuningAnalysis, t: int | None = None, *, height: int = 440) -> go.Figure:
    r"""Problems 3.2: :math:`M - 2m^*` of WM run at :math:`\beta_{T'}` for each horizon, under its two
    bounds, beside WM at the page's fixed β over t (with its bound when finite)."""
    T = len(ta.two_regret_fixed)
    r = np.arange(1, T + 1)
    idx = downsample(T)
    H = ta.horizons
    fig = Fig().add(
        _line(H, ta.two_regret, "WM at β_T' = 1 − √(ln n/T'), re-run for each T': M − 2m*", theme.GREEN, markers=True,
              hover="T' = %{x}: %{y:.4g}"),
        _line(H, ta.two_bound_ucl, bound_name("a(β_T')m* + b(β_T') ln n − 2m* (UCL form)"), theme.GREEN, "dot",
              hover="T' = %{x}: bound %{y:.4g}"),
        _line(H, ta.two_bound, bound_name("4√(T' ln n)"), theme.BOUND, "dash", hover="T' = %{x}: bound %{y:.4g}"),
        _line(r[idx], ta.two_regret_fixed[idx], f"WM at the fixed β = {ta.beta:.3g}: M_t − 2m*_t", theme.ORANGE))
    if ta.two_bound_fixed is not None:
        fig.add(_line(r[idx], ta.two_bound_fixed[idx], bound_name(f"(a(β) − 2)m*_t + b(β) ln n at β = {ta.beta:.3g}"),
                      theme.ORANGE, "dash"))
    fig.round_marker(t)
    lay = _rounds_axis(axes("horizon T' (green) or round t (orange)", "2-regret M − 2m*"), T)
    return fig.build({"title": {"text": "Problems 3.2: β_T → 1 makes WM's 2-regret sublinear"}, **lay}, height=height)


@figure(animated=True)
def wa_equality(we: WAEquality, t: int | None = None, *, height: int = 520) -> go.Figure:
    r"""Weighted Average's equality (1): per round (top) and summed (bottom), both sides drawn."""
    T = len(we.lhs)
    r = np.arange(1, T + 1)
    idx = downsample(T)
    top, bot = dict(xaxis="x", yaxis="y"), dict(xaxis="x2", yaxis="y2")
    fig = Fig().add(
        scatter(r[idx], we.lhs[idx], "L_en(y_t, ŷ_t) − ℓ_t,i* (regret side)", mode="markers",
                marker=dict(color=theme.BLUE, size=7), hovertemplate="t = %{x}: %{y:.6g}<extra></extra>", **top),
        scatter(r[idx], we.rhs[idx], "d(u, v_t) − d(u, v_t+1) (progress side)", mode="lines",
                line=dict(color=theme.ORANGE, width=1.5), hovertemplate="t = %{x}: %{y:.6g}<extra></extra>", **top),
        scatter(r[idx], we.cum_lhs[idx], "Σ regret side", mode="lines", line=dict(color=theme.BLUE, width=5),
                hovertemplate="t = %{x}: %{y:.6g}<extra></extra>", **bot),
        scatter(r[idx], we.cum_rhs[idx], "d(u, v₁) − d(u, v_t+1)", mode="lines",
                line=dict(color=theme.ORANGE, width=2, dash="dot"), hovertemplate="t = %{x}: %{y:.6g}<extra></extra>",
                **bot),
        scatter([1, T], [math.log(we.n)] * 2, bound_name("ln n"), mode="lines",
                line=dict(color=theme.BOUND, width=2, dash="dash"), hovertemplate="%{y:.4g}", **bot))
    if t is not None:
        for ax in ("", "2"):
            fig.shapes.append(dict(type="line", x0=t, x1=t, y0=0, y1=1, xref=f"x{ax}", yref=f"y{ax} domain",
                                   line=dict(color=theme.GREY, width=1.5, dash="dot")))
    layout = {"xaxis": dict(domain=[0, 1], anchor="y", range=[0.5, T + 0.5], tickformat="d", matches="x2"),
              "yaxis": dict(domain=[0.56, 1], title=dict(text="per round (nats)")),
              "xaxis2": dict(domain=[0, 1], anchor="y2", range=[0.5, T + 0.5], tickformat="d",
                             title=dict(text="round t")),
              "yaxis2": dict(domain=[0, 0.44], title=dict(text="summed (nats)"))}
    title = f"Weighted Average, entropic loss, η = 1: both sides of (1) for u = E{we.i_star + 1}"
    return fig.build({"title": {"text": title}, **layout, **_CLOSEST}, height=height)


@figure(animated=True)
def scaled_hedge(sh: ScaledHedge, t: int | None = None, *, height: int = 420) -> go.Figure:
    """Hedge on losses in [0, B]: at η*/B under B√(2t ln n)-type bound, and left at η*."""
    return curves_with_bounds({f"Hedge at η*/B (B = {sh.B:g})": sh.regret, "Hedge left at η*": sh.naive_regret},
                              [sh.report, sh.naive_report], t=t, title=f"Losses in [0, B], B = {sh.B:g}: regret",
                              yaxis_title="regret (expected loss − best expert's)", height=height)
