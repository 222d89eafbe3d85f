"""The online SVM lesson's content: lecture presets, help texts and captions computed from the run.

Every caption takes an analysis of :mod:`olcore.lessons.online_svm` and states what the run shows,
for any stream and setting the page offers.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

from ..controls import Preset

NOTES = "Cesa-Bianchi, On-line learning"

INTRO = (
    "The SVM hyperplane is the shortest **u** with y_t u·x_t ≥ 1 on every round: the separator through the "
    "origin with the largest margin. **ALMA** (Gentile 2001) approaches it online, one Perceptron-like step at a "
    "time: it updates whenever the margin is below a target (1 − α)B/√k that shrinks with the number of updates "
    "k, steps by √2/√k and keeps w in the unit ball. The **second-order Perceptron** (Cesa-Bianchi, Conconi and "
    "Gentile 2005) whitens each instance by the correlation matrix of its past mistakes, which pays on correlated "
    "features. **Selective sampling** runs it but asks for a label only when the prediction is unsure.\n\n"
    "*Where the slide and the paper differ, this page follows the paper:* the slide's ALMA adds y x/√k and "
    "rescales w to the unit sphere; the paper (whose theorems are drawn here) normalises each instance to x/‖x‖, "
    "steps by C/√k with C = √2 and projects onto the unit **ball**, w/max(1, ‖w‖). The slide's c is the paper's "
    "B = 1/α. The slide's update count (‖u_SVM‖/α)² is the order of the paper's bound 2/γ⋆²(2/α − 1)² + 8/α − 4, "
    "so the chart draws the paper's bound and marks the slide's order.")

SOURCES = {"Generated": "points in the plane separated through the origin with margin γ (their radius is at most 1)."}

HELP = SimpleNamespace(
    T="Rounds in one pass over the stream.",
    gamma="The margin of the generated stream: every point is at least γ from the separator.",
    alpha="ALMA's α in (0, 1]: it aims at margin (1 − α)γ⋆; a small α gets closer to the SVM but takes more updates "
          "(the bound grows like 1/α²).",
    epochs="Passes over the stream. ALMA's margin guarantee is for the hyperplane it settles on: replay until a "
           "pass makes no update.",
    d="Dimension of the correlated stream (the second-order Perceptron's update costs O(d²) per round).",
    rho="Correlation ρ between features: a shared factor with loading √ρ on every feature that says nothing "
        "about the label. It inflates R, so the Perceptron's bound (R/γ)²; the second-order Perceptron learns it away.",
    a="The second-order Perceptron's a > 0 (A₀ = aI): large a makes it the Perceptron.",
    c="Selective sampling's c: query y_t iff |w·x_t| ≤ ‖x_t‖√(c ln t / N_t). Smaller c: fewer labels, more mistakes.",
    upload="Your stream: ALMA sees x/‖x‖ (rows must be non-zero); the second-order sections run on it as well.",
)

#: The values the c slider offers.
CS = [0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0]
ALPHAS = [0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 1.0]
AS = [0.01, 0.1, 0.3, 1.0, 3.0, 10.0, 100.0]

_BASE = {"stream": "Generated", "T": 60, "gamma": 0.15, "seed": 0, "epochs": 50}

PRESETS = [
    Preset("ALMA approaches the SVM (α = 0.5)",
           f"{NOTES}, Online approximation of SVM hyperplane: replayed until a pass makes no update, ALMA's "
           "hyperplane separates with margin at least (1 − α)γ⋆; here it ends well above that floor.",
           {**_BASE, "alpha": 0.5}),
    Preset("Closer to the SVM: α = 0.3",
           f"{NOTES}, ALMA's result: a smaller α promises more of the SVM margin, (1 − α)γ⋆, at the price of more "
           "updates (the bound grows like 1/α²) and more passes before one is free of updates.",
           {**_BASE, "alpha": 0.3, "epochs": 200}),
    Preset("α = 1: a normalised Perceptron",
           f"{NOTES}: with α = 1 ALMA updates only on mistakes and promises no margin, (1 − α)γ⋆ = 0; compare its "
           "hyperplane with the Perceptron's.",
           {**_BASE, "alpha": 1.0}),
    Preset("Second order pays: correlated features, d = 50",
           f"{NOTES}, Mistake bounds for various updates: with ρ = 0.9 a shared factor dominates every instance; the "
           "second-order Perceptron discounts it through its correlation matrix and makes fewer mistakes than the "
           "Perceptron.",
           {**_BASE, "T": 500, "d": 50, "rho": 0.9, "a": 1.0, "c": 0.1, "alpha": 0.5}),
    Preset("Selective sampling: half the labels",
           f"{NOTES}, A selective sampling classifier: query only when |w·x_t| is small; here, with c = 0.3, the "
           "learner asks for about half of the labels and makes as many mistakes as with every label.",
           {**_BASE, "T": 500, "d": 10, "rho": 0.9, "a": 1.0, "c": 0.3, "alpha": 0.5}),
]


def _f(x: float) -> str:
    return "∞" if math.isinf(x) else f"{x:.4g}"


# ---- ALMA ---------------------------------------------------------------------------------------

def alma_readout(a, s: dict) -> dict:
    return {"round t": f"{s['t']} / {a.T}", "ALMA's updates k − 1": str(s["updates"]),
            "ALMA's margin now": _f(s["margin"]) if math.isfinite(s["margin"]) else "w = 0",
            "(1 − α)γ⋆": _f(a.final_margin.value) if a.separable else "–"}


def alma_plane(a, s: dict) -> str:
    if not a.separable:
        return "No line through the origin separates the normalised points: there is no SVM hyperplane to draw."
    out = (f"The points are the instances ALMA sees, x/‖x‖. The green line is the SVM hyperplane (margin γ⋆ = "
           f"{a.gamma:.4g}); the blue band is where a point would trigger an update now, |w·x̂| ≤ (1 − α)γ_k = "
           f"{s['threshold']:.4g} (k = {int(s['k'])}).")
    if math.isfinite(s["margin"]):
        out += f" After round {s['t']} ALMA's hyperplane has margin {s['margin']:.4g} on the whole stream."
    return out


def alma_updates(a) -> str:
    if not a.separable:
        return f"ALMA made {a.n_updates} updates; the stream is not separable, so no bound applies."
    return (f"ALMA made {a.n_updates} updates in {a.epochs} pass{'es' if a.epochs != 1 else ''}, under the paper's "
            f"bound {a.updates.value:.4g} and under the slide's order (‖u_SVM‖/α)² = {a.slide_order:.4g} with "
            f"‖u_SVM‖ = 1/γ⋆ = {1 / a.gamma:.4g}. The Perceptron on the same normalised points made "
            f"{int(a.perceptron.mistakes.sum())} mistakes.")


def alma_margin(a) -> str:
    if not a.separable:
        return "No positive margin exists on this stream."
    if a.converged_pass is None:
        return (f"No pass has been free of updates yet (after {a.epochs} passes), so the guarantee does not apply "
                f"yet; ALMA's margin is {a.final:.4g} against (1 − α)γ⋆ = {a.final_margin.value:.4g}. Add passes.")
    return (f"From pass {a.converged_pass} on ALMA makes no update: its final margin {a.final:.4g} is "
            f"{'at least' if a.final >= a.final_margin.value else 'BELOW'} (1 − α)γ⋆ = {a.final_margin.value:.4g}, "
            f"{a.final / a.gamma:.0%} of the SVM margin γ⋆ = {a.gamma:.4g}.")


# ---- the second-order Perceptron ----------------------------------------------------------------

def sop_mistakes(b) -> str:
    ms, mp = int(b.sop.mistakes.sum()), int(b.perceptron.mistakes.sum())
    out = f"On this stream (d = {b.d}) the second-order Perceptron made {ms} mistakes, the Perceptron {mp}."
    if b.separable:
        out += (f" Their bounds for u = u_SVM: {b.sop_bound.value:.4g} (the paper's, which depends on the mistakes "
                f"made) and (R/γ)² = {b.novikoff.value:.4g}.")
    return out


def sop_plane(b) -> str:
    return ("The purple ellipse is A = aI + Σ x xᵀ over the mistaken rounds, scaled to the picture: its long axis is "
            "the direction the mistakes spread along, which the second-order Perceptron discounts "
            "(it predicts with A⁻¹).")


def table(b) -> str:
    """The notes' table as markdown, with this stream's U and d, and the measured mistakes where the app runs
    the algorithm."""
    lines = ["| Algorithm | Bound (notes) | For this stream | Update time | Mistakes here |", "|---|---|---|---|---|"]
    for r in b.table:
        value = f"{r['value']:.4g}" if r["exact"] else f"O({r['value']:.4g})"
        lines.append(f"| {r['algorithm']} | {r['bound']} | {value} | {r['update time']} | "
                     f"{'–' if r['measured'] is None else r['measured']} |")
    return "\n".join(lines)


def table_caption(b) -> str:
    if not b.separable:
        return "The table assumes a stream separated with y_t u·x_t ≥ 1; this one is not separable."
    return (f"U = R‖u_SVM‖ = {b.U:.4g} (the stream scaled into the unit ball), d = {b.d}. Only the Perceptron's U² "
            "is an exact bound (Novikoff's); the other rows are orders with their constants hidden (O(·)), so a "
            "measured count may exceed one. The second-order Perceptron's exact bound is in the chart above.")


# ---- selective sampling --------------------------------------------------------------------------

def selective(s) -> str:
    q, T = int(s.labels[-1]), s.T
    ms, mf = int(s.trace.mistakes.sum()), int(s.full.mistakes.sum())
    return (f"With c = {s.c:g} the sampler asked for {q} of {T} labels ({q / T:.0%}) and made {ms} mistakes; the "
            f"second-order Perceptron with every label made {mf}. Mistakes are counted on every round, although "
            "the learner only learns of those it queried.")


def selective_plane(s, t: int) -> str:
    return (f"Ringed: the {int(s.trace.extras['queried'][:t].sum())} points whose label was queried in rounds "
            f"1..{t}. Queries gather near the hyperplane, where |w·x| is small.")


def selective_sweep(s) -> str:
    return ("Each point is one run with a different c (c = ∞ asks for every label). The run above is the star.")


def not_2d(d: int) -> str:
    return f"The stream has d = {d} features: the plane pictures need d = 2 (choose d = 2 or a 2-column upload)."
