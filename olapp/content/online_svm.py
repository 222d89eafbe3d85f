"""The online SVM lesson's content: lecture presets, help texts and captions computed from the run.

Every caption takes an analysis of :mod:`olcore.lessons.online_svm` and states what the run shows,
for any stream and setting the page offers.
"""

from __future__ import annotations

import math
from types import MappingProxyType, SimpleNamespace

import numpy as np

from olapp.content import Content
from olcore.claims import Text, claim, text
from olcore.lessons import online_svm as lesson
from olcore.lessons.online_svm import ALMAAnalysis, SecondOrderAnalysis, SelectiveAnalysis

from ..controls import Preset
from ..lecture import Question, Scene

NOTES = "Cesa-Bianchi, On-line learning"

INTRO = (
    "The SVM hyperplane is the shortest **u** with y_t u·x_t ≥ 1 on every round: the separator through the "
    "origin with the largest margin. **ALMA** (Gentile 2001) approaches it online, one Perceptron-like step at a "
    "time: it updates whenever the margin is at or below a target (1 − α)B/√k that shrinks with the number of updates "
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
    alpha="ALMA's α in (0, 1]: it aims at margin (1 − α)γ⋆; a small α promises more of the SVM margin, but its "
          "bound on the updates grows like 1/α².",
    epochs="Passes over the stream. ALMA's margin guarantee is for the hyperplane it settles on: replay until a "
           "pass makes no update.",
    d="Dimension of the correlated stream (the second-order Perceptron's update costs O(d²) per round).",
    rho="Correlation ρ between features: a shared factor with loading √ρ on every feature that says nothing "
        "about the label. It adds to every ‖x_t‖ and nothing to the labelling u·x_t, which makes the Perceptron's "
        "bound (R/γ)² large; the second-order Perceptron can learn the shared direction away.",
    a="The second-order Perceptron's a > 0 (A₀ = aI): as a grows it approaches the Perceptron.",
    c="Selective sampling's c: query y_t iff |w·x_t| ≤ ‖x_t‖√(c ln t / N_t). A smaller c lowers that threshold: "
      "typically fewer labels and more mistakes (the sweep shows this stream's trade-off).",
    upload="Your stream: ALMA sees x/‖x‖ (rows must be non-zero); the second-order parts run on it as well.",
)

#: The values the c slider offers.
CS = [0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0]
ALPHAS = [0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 1.0]
AS = [0.01, 0.1, 0.3, 1.0, 3.0, 10.0, 100.0]

PART_ALMA = "ALMA"
PART_SOP = "Second-order Perceptron"
PART_SEL = "Selective sampling"
PARTS_TITLE = "One part at a time: ALMA, the second-order Perceptron, selective sampling"
PARTS_INTRO = ("Three ideas past the Perceptron, on the stream of the settings above. Choose the part to draw; "
               "the choice travels in the page's link.")
#: Part -> its introduction (one part is drawn at a time: a projector shows one idea, a rerun stays fast).
PARTS = {
    PART_ALMA: ("**ALMA: the SVM hyperplane, approximated online.** Replay the stream (*Epochs* above) until a pass "
                "makes no update: ALMA's hyperplane then separates with margin at least (1 − α)γ⋆. The player "
                "steps through ALMA's rounds, pass after pass."),
    PART_SOP: ("**The second-order Perceptron: where it pays.** A stream of d correlated features whose shared "
               "factor says nothing about the label; the Perceptron and the second-order Perceptron on the same "
               "rounds, then the notes' table of mistake bounds with this stream's numbers."),
    PART_SEL: ("**Selective sampling: ask only when unsure.** The second-order Perceptron on the same correlated "
               "stream, asking for a label only when its prediction is unsure; the sweep trades labels against "
               "mistakes over c."),
}
HELP_PARTS = ("ALMA (an online approximation of the SVM), the second-order Perceptron (mistake bounds that adapt "
              "to the data's correlations), or selective sampling (fewer labels). One part at a time.")
#: The URL settings each part reads beyond the settings box (a link with one part's settings opens that part).
PART_SETTINGS = {PART_SOP: ("d", "rho"), PART_SEL: ("c", "ts")}

_BASE = {"stream": "Generated", "T": 60, "gamma": 0.15, "seed": 0, "epochs": 50}

PRESETS = [
    Preset("ALMA approaches the SVM (α = 0.5)",
           f"{NOTES}, Online approximation of SVM hyperplane: replayed until a pass makes no update, ALMA's "
           "hyperplane separates with margin at least (1 − α)γ⋆; the margin chart compares its final margin with "
           "that floor and with γ⋆.",
           {**_BASE, "alpha": 0.5, "part": PART_ALMA}),
    Preset("Closer to the SVM: α = 0.3",
           f"{NOTES}, ALMA's result: a smaller α promises more of the SVM margin, (1 − α)γ⋆, at the price of a "
           "larger bound on the updates (it grows like 1/α²); on this stream it also takes more updates and more "
           "passes than α = 0.5 before a pass is free of updates.",
           {**_BASE, "alpha": 0.3, "epochs": 200, "part": PART_ALMA}),
    Preset("α = 1: ALMA updates only on mistakes",
           f"{NOTES}: with α = 1 ALMA's target (1 − α)γ_k is 0, so it updates only on mistakes (y w·x̂ ≤ 0) and "
           "promises no margin, (1 − α)γ⋆ = 0. It is still not the Perceptron: its steps shrink like √2/√k and w is "
           "kept in the unit ball. Compare its updates and its hyperplane with the Perceptron's.",
           {**_BASE, "alpha": 1.0, "part": PART_ALMA}),
    Preset("Second order pays: correlated features, d = 50",
           f"{NOTES}, Mistake bounds for various updates: with ρ = 0.9 a shared factor dominates every instance; the "
           "second-order Perceptron discounts it through its correlation matrix and makes fewer mistakes than the "
           "Perceptron.",
           {**_BASE, "T": 500, "d": 50, "rho": 0.9, "a": 1.0, "c": 0.1, "alpha": 0.5, "part": PART_SOP}),
    Preset("Selective sampling: half the labels",
           f"{NOTES}, A selective sampling classifier: query only when |w·x_t| is small; here, with c = 0.3, the "
           "learner asks for about half of the labels and makes as many mistakes as with every label.",
           {**_BASE, "T": 500, "d": 10, "rho": 0.9, "a": 1.0, "c": 0.3, "alpha": 0.5, "part": PART_SEL}),
]


def _f(x: float) -> str:
    return "∞" if math.isinf(x) else f"{x:.4g}"


# ---- ALMA ---------------------------------------------------------------------------------------

def alma_readout(a: ALMAAnalysis, t: int) -> dict:
    """The readout after ``t`` rounds of ALMA."""
    s = lesson.alma_at(a, t)
    return {"round t": f"{s['t']} / {a.T}", "ALMA's updates k − 1": str(s["updates"]),
            "ALMA's margin now": _f(s["margin"]) if math.isfinite(s["margin"]) else "w = 0",
            "(1 − α)γ⋆": _f(a.final_margin.value) if a.separable else "–"}


def alma_plane(a: ALMAAnalysis, t: int) -> Text:
    """The ALMA plane's caption after ``t`` rounds: the update rule, and how many of the stream's points would make
    ALMA update now (the crossed ones), split into those in the band and the misclassified ones beyond it."""
    if not a.separable:
        return "No line through the origin separates the normalised points: there is no SVM hyperplane to draw."
    s = lesson.alma_at(a, t)
    would, band = s["would_update"], s["in_band"]
    N, n, thr = len(a.y), int(would.sum()), s["threshold"]
    n_band, n_wrong = int((would & band).sum()), int((would & ~band).sum())
    beyond = int((a.y * (a.Xh @ s["w"]) < -thr).sum())          # misclassified beyond the band
    split_ok = n_band == int(band.sum()) and n_wrong == beyond
    head = (f"The points are the instances ALMA sees, x/‖x‖. The green line is the SVM hyperplane (margin γ⋆ = "
            f"{a.gamma:.4g}). A point makes ALMA update if y w·x̂ ≤ (1 − α)γ_k = {thr:.4g} (k = {int(s['k'])}): ")
    if not np.any(s["w"]):
        rule = text("w = 0, so every point's margin is 0 and ",
                    claim(f"all {N} points would update now", n == N, "every point would update while w = 0"), ".")
    elif thr == 0:
        rule = text("with α = 1 the target is 0 and there is no band: the points that would update are the "
                    "misclassified ones, y w·x̂ ≤ 0. ",
                    claim(f"Now {n} of the {N} points would update (crossed)", n == beyond + n_band and split_ok,
                          "the points that would update are the misclassified ones"), ".")
    else:
        rule = text(f"every point in the blue band |w·x̂| ≤ {thr:.4g} would, and so would every misclassified point "
                    "beyond it. ",
                    claim(f"Now {n} of the {N} points would update (crossed): {n_band} in the band, {n_wrong} "
                          "misclassified beyond it", split_ok and n == n_band + n_wrong,
                          "the points that would update are the band's and the misclassified ones beyond it"), ".")
    out = text(head, rule)
    if math.isfinite(s["margin"]):
        out = text(out, f" After round {s['t']} ALMA's hyperplane has margin {s['margin']:.4g} on the whole stream.")
    return out


def _settled(a: ALMAAnalysis, t: int | None) -> bool:
    """Whether the player's round ``t`` is past the end of ALMA's first pass without an update (or the run's end)."""
    if t is None or t >= a.T:
        return True
    return a.converged_pass is not None and t >= a.converged_pass * a.pass_length


def alma_updates(a: ALMAAnalysis, t: int | None = None) -> str:
    """The updates chart's caption; with ``t`` (the player's round) it counts rounds 1..t until ALMA settles."""
    if _settled(a, t):
        k, p, where = a.n_updates, int(a.perceptron.mistakes.sum()), f"in {a.epochs} pass{'es' if a.epochs != 1 else ''}"
    else:
        k, p = int(a.trace.extras["updated"][:t].sum()), int(a.perceptron.mistakes[:t].sum())
        where = f"in the first {t} of {a.T} rounds (pass {min(t // a.pass_length + 1, a.epochs)} of {a.epochs})"
    if not a.separable:
        return f"ALMA made {k} updates {where}; the stream is not separable, so no bound applies."
    under = claim(f"under the paper's bound {a.updates.value:.4g}", k <= a.updates.value, "updates ≤ the paper's bound")
    order = (claim(f"under the slide's order (‖u_SVM‖/α)² = {a.slide_order:.4g}", k <= a.slide_order,
                   "updates ≤ (‖u_SVM‖/α)²") if k <= a.slide_order else
             claim(f"above the slide's order (‖u_SVM‖/α)² = {a.slide_order:.4g}, an order and not a bound",
                   k > a.slide_order, "updates > (‖u_SVM‖/α)²"))
    out = text(f"ALMA made {k} updates {where}, ", under, " and ", order, f", with ‖u_SVM‖ = 1/γ⋆ = "
               f"{1 / a.gamma:.4g}. The Perceptron on the same normalised points made {p} mistakes.")
    if a.alpha == 1 and k != p:
        out = text(out, " With α = 1 ALMA updates only on mistakes, yet its count differs from the Perceptron's: "
                   "its steps shrink like √2/√k and w stays in the unit ball, so its hyperplanes, and the rounds it "
                   "errs on, are not the Perceptron's.")
    return out


def alma_margin(a: ALMAAnalysis, t: int | None = None) -> str:
    """The margin chart's caption; with ``t`` (the player's round) it says nothing of the rounds after t."""
    if not a.separable:
        return "No positive margin exists on this stream."
    if not _settled(a, t):
        m = a.margin[t]
        now = f"{m:.4g}" if np.isfinite(m) else "undefined (w = 0)"
        return (f"After round {t} ALMA's margin on the whole stream is {now}, against (1 − α)γ⋆ = "
                f"{a.final_margin.value:.4g} and the SVM margin γ⋆ = {a.gamma:.4g}. The guarantee is for the hyperplane "
                "ALMA settles on, once a whole pass makes no update.")
    if a.converged_pass is None:
        return (f"No pass has been free of updates yet (after {a.epochs} passes), so the guarantee does not apply "
                f"yet; ALMA's margin is {a.final:.4g} against (1 − α)γ⋆ = {a.final_margin.value:.4g}. Add passes.")
    ok = a.final >= a.final_margin.value
    return text(f"From pass {a.converged_pass} on ALMA makes no update: ",
                claim(f"its final margin {a.final:.4g} is {'at least' if ok else 'BELOW'} (1 − α)γ⋆ = "
                      f"{a.final_margin.value:.4g}", ok, "ALMA's final margin ≥ (1 − α)γ⋆"),
                f", {a.final / a.gamma:.0%} of the SVM margin γ⋆ = {a.gamma:.4g}.")


# ---- the second-order Perceptron ----------------------------------------------------------------

def sop_mistakes(b: SecondOrderAnalysis) -> str:
    ms, mp = int(b.sop.mistakes.sum()), int(b.perceptron.mistakes.sum())
    out = f"On this stream (d = {b.d}) the second-order Perceptron made {ms} mistakes, the Perceptron {mp}."
    if b.separable:
        out += (f" Their bounds for u = u_SVM: {b.sop_bound.value:.4g} (the paper's, which depends on the mistakes "
                f"made) and (R/γ)² = {b.novikoff.value:.4g}.")
    return out


def sop_plane(b: SecondOrderAnalysis) -> str:
    return ("The purple ellipse is A = aI + Σ x xᵀ over the mistaken rounds, scaled to the picture: its long axis is "
            "the direction the mistakes spread along, which the second-order Perceptron discounts "
            "(it predicts with A⁻¹).")


def table(b: SecondOrderAnalysis) -> str:
    """The notes' table as markdown, with this stream's U and d, and the measured mistakes where the app runs
    the algorithm."""
    lines = ["| Algorithm | Bound (notes) | For this stream | Update time | Mistakes here |", "|---|---|---|---|---|"]
    for r in b.table:
        value = f"{r['value']:.4g}" if r["exact"] else f"O({r['value']:.4g})"
        lines.append(f"| {r['algorithm']} | {r['bound']} | {value} | {r['update time']} | "
                     f"{'–' if r['measured'] is None else r['measured']} |")
    return "\n".join(lines)


def table_caption(b: SecondOrderAnalysis) -> Text:
    if not b.separable:
        return "The table assumes a stream separated with y_t u·x_t ≥ 1; this one is not separable."
    exact = [r for r in b.table if r["exact"]]
    # (U² to rounding: on a tight stream, two orthogonal points of one label, M = U² = 2 is computed as 1.9999999999999996)
    within = all(r["measured"] is None or r["measured"] <= r["value"] * (1 + 1e-9) for r in exact)
    measured = ", ".join(f"{r['algorithm']} {r['measured']}" for r in exact if r["measured"] is not None)
    return text(f"U = R‖u_SVM‖ = {b.U:.4g} (the stream scaled into the unit ball), d = {b.d}. Two rows are exact "
                "bounds: the Perceptron's U² (Novikoff's) and Hildreth's U² (the notes' analysis for linearly "
                "separable streams: Σ_t m_t² ≤ ‖u‖² max_t ‖x_t‖², for the update that projects w onto "
                "y_t w·x_t = 1 whenever y_t w·x_t < 1, run here as PA); ",
                claim(f"both measured counts are within them ({measured} mistakes against U² = {b.U ** 2:.4g})",
                      within, "measured mistakes ≤ U² for the exact rows"),
                ". The other rows are orders with their constants hidden (O(·)), so a measured count may exceed one. "
                "The second-order Perceptron's exact bound is in the chart above.")


# ---- selective sampling --------------------------------------------------------------------------

def selective(s: SelectiveAnalysis) -> str:
    q, T = int(s.labels[-1]), s.T
    ms, mf = int(s.trace.mistakes.sum()), int(s.full.mistakes.sum())
    return (f"With c = {s.c:g} the sampler asked for {q} of {T} labels ({q / T:.0%}) and made {ms} mistakes; the "
            f"second-order Perceptron with every label made {mf}. Mistakes are counted on every round, although "
            "the learner only learns of those it queried.")


def selective_plane(s: SelectiveAnalysis, t: int) -> str:
    return (f"Ringed: the {int(s.trace.extras['queried'][:t].sum())} points whose label was queried in rounds "
            f"1..{t}. A label is asked for when |w·x_t| is small for that round's w, near that round's hyperplane "
            "(the line drawn is the current one).")


def selective_sweep(s: SelectiveAnalysis) -> str:
    return ("Each point is one run with a different c (c = ∞ asks for every label). The run above is the star.")


def not_2d(d: int) -> str:
    return f"The stream has d = {d} features: the plane pictures need d = 2 (choose d = 2 or a 2-column upload)."


# ---- the lecture: the notes' order (part 3: the table, the second-order Perceptron; part 6: ALMA, selective) ----
#: The lecture's questions read ALMA's run (the player's rounds are ALMA's).
LECTURE_RUN = "analyse_alma"

_CORRELATED = {**_BASE, "T": 500, "d": 50, "rho": 0.9, "a": 1.0, "c": 0.1, "alpha": 0.5, "part": PART_SOP}
_ALMA = {**_BASE, "d": 2, "rho": 0.9, "a": 1.0, "c": 0.1, "alpha": 0.5, "part": PART_ALMA}
_ALMA_CLOSE = {**_ALMA, "alpha": 0.3, "epochs": 200}
_ALMA_ONE = {**_ALMA, "alpha": 1.0}
_SELECTIVE = {**_BASE, "T": 500, "d": 10, "rho": 0.9, "a": 1.0, "c": 0.3, "alpha": 0.5, "part": PART_SEL}
_PASS_EDGES = (1, 6, 21)
_SHARE_EDGES = (0.0, 0.7, 0.85)


def _pass_prompt(a: ALMAAnalysis) -> str:
    return (f"ALMA with α = {a.alpha:g} replays these {a.pass_length} points up to {a.epochs} times. In which pass will "
            "it first make no update at all?")


def _pass_why(a: ALMAAnalysis) -> Text:
    per = a.trace.extras["updated"].reshape(a.epochs, -1).sum(axis=1)
    shown = ", ".join(str(int(k)) for k in per[:12]) + (" …" if len(per) > 12 else "")
    if a.converged_pass is None:
        return f"Updates per pass: {shown}. No pass of the {a.epochs} was free of updates."
    last_update = int(np.flatnonzero(a.trace.extras["updated"])[-1]) + 1
    errs = np.flatnonzero(a.perceptron.mistakes)
    last_mistake = int(errs[-1]) + 1 if errs.size else 0
    if last_update > last_mistake:
        later = claim(f"it keeps working after the Perceptron has stopped: its last update comes in round "
                      f"{last_update}, the Perceptron's last mistake in round {last_mistake}",
                      last_update > last_mistake, "ALMA's last update comes after the Perceptron's last mistake")
    else:
        later = (f"it can keep working where the Perceptron would not; here its last update comes in round "
                 f"{last_update}, the Perceptron's last mistake in round {last_mistake}")
    return text(f"Updates per pass: {shown}. Pass **{a.converged_pass}** is the first without one, after {a.n_updates} "
                f"updates in all (the paper's bound: {a.updates.value:.4g}). ALMA updates whenever the margin "
                "y w·x̂ is at or below its target (1 − α)/(α√k), not only on mistakes, so ", later,
                f" (the Perceptron made {int(a.perceptron.mistakes.sum())} mistakes in all those passes). Each update "
                "shrinks the target, until every point clears it.")


def _share_prompt(a: ALMAAnalysis) -> str:
    return (f"With α = {a.alpha:g} ALMA promises (1 − α)γ⋆ = {1 - a.alpha:.0%} of the SVM margin γ⋆ = {a.gamma:.3g} "
            "once a pass makes no update. What share of γ⋆ will its final hyperplane have?")


def _share_why(a: ALMAAnalysis) -> Text:
    share = lesson.margin_share(a)
    floor = a.final_margin.value
    if a.converged_pass is None:
        settled = text(f"No pass of the {a.epochs} was free of updates: the theorem does not apply yet, and its "
                       f"floor (1 − α)γ⋆ = {floor:.4g} is promised only for the hyperplane ALMA settles on.")
    else:
        settled = text(f"From pass {a.converged_pass} on it makes no update, so the theorem applies: ",
                       claim(f"its margin clears the floor (1 − α)γ⋆ = {floor:.4g}", a.final >= floor,
                             "ALMA's final margin ≥ (1 − α)γ⋆"), ".")
    return text(f"Its margin is **{a.final:.4g}**, {share:.0%} of γ⋆ = {a.gamma:.4g}. ", settled, " Each update "
                "shrinks the target (1 − α)/(α√k), and ALMA stops updating only when every point's margin "
                f"y w·x̂ clears it; it made {a.n_updates} updates to get there.")


LECTURE = [
    Scene("The notes' table of mistake bounds", _CORRELATED, t=None, narration=(
        "Cesa-Bianchi, On-line learning, part 3. On a stream with y_t u·x_t ≥ 1, ‖x_t‖ ≤ 1 and ‖u‖ = U, the "
        "Perceptron and Hildreth's update each make at most **U²** mistakes, in O(d) per update; algorithms with "
        "costlier updates pay orders d U ln U (second order), d² ln U (ellipsoid) or d ln U. Below the charts, the "
        "table: this stream's U and d substituted, with the mistakes measured where the app runs the algorithm.")),
    Scene("The second-order Perceptron", _CORRELATED, t=None, narration=(
        "The **second-order Perceptron** predicts with A⁻¹, A = aI + Σ x xᵀ over its past mistakes: it whitens "
        "each instance. Here a shared factor (ρ = 0.9) dominates every one of d = 50 features and carries no "
        "label: it adds to every ‖x_t‖ and nothing to the labelling u·x_t, which makes the Perceptron's (R/γ)² "
        "large, while the second-order Perceptron discounts the direction its mistakes spread along. Compare the "
        "two mistake curves.")),
    Scene("ALMA: aim at a margin, not just a sign", _ALMA, t=0, narration=(
        "Part 6, online approximation of the SVM hyperplane. **ALMA** updates when the margin y_t w·x̂_t is at "
        "or below a target (1 − α)/(α√k) that shrinks with the number of updates k; it steps by √2/√k and keeps "
        "w in the unit ball. The green line is the SVM hyperplane; a point triggers an update if it lies in the "
        "blue band around ALMA's line or on the wrong side of it (the crossed points). Replay the 60 points "
        "until a pass makes no update."),
        question=Question(_pass_prompt, "choice", lesson.clean_pass_band, args=(_PASS_EDGES,),
                          options={0: "in pass 1 to 5", 1: "in pass 6 to 20", 2: "in pass 21 to 50",
                                   3: "in none of the 50 passes"}, explain=_pass_why)),
    Scene("The margin ALMA settles on", _ALMA_CLOSE, t=0, narration=(
        "**Theorem (Gentile 2001).** If some unit u has y_t u·x̂_t ≥ γ⋆, ALMA makes at most "
        "2/γ⋆²·(2/α − 1)² + 8/α − 4 updates, and once a whole pass makes none its hyperplane has margin at least "
        "**(1 − α)γ⋆**. A smaller α, closer to the SVM, at the price of an update bound growing like 1/α². Here "
        "α = 0.3, up to 200 passes."),
        question=Question(_share_prompt, "choice", lesson.margin_share_band, args=(_SHARE_EDGES,),
                          options={0: "less than 70%: below the guarantee", 1: "70% to 85%", 2: "85% or more"},
                          explain=_share_why)),
    Scene("α = 1: ALMA updates only on mistakes", _ALMA_ONE, t=None, narration=(
        "With α = 1 the target (1 − α)γ_k is 0: ALMA updates only on mistakes (y w·x̂ ≤ 0) and promises no "
        "margin, (1 − α)γ⋆ = 0. It is still not the Perceptron: its steps shrink like √2/√k and w stays in the "
        "unit ball, so here it makes more updates than the Perceptron makes mistakes on the same normalised "
        "points (the updates chart counts both). Compare its hyperplane with the SVM's: a separating line, but a "
        "thin one.")),
    Scene("Selective sampling: ask only when unsure", _SELECTIVE, t=None, narration=(
        "Labels cost money. The **selective sampler** runs the second-order Perceptron but queries y_t only "
        "when |w·x_t| ≤ ‖x_t‖√(c ln t / N_t): when its prediction is unsure. With "
        "c = 0.3 it asks for about half of the labels, and its mistakes stay close to those of the learner "
        "that sees every label. The sweep trades labels against mistakes over c.")),
]

CONTENT = Content(presets=tuple(PRESETS), lecture=tuple(LECTURE), lecture_run=LECTURE_RUN, help=MappingProxyType(vars(HELP)))
