"""The Perceptron lesson's content: lecture presets, help texts and captions computed from the run.

Captions take the analysis (:class:`olcore.lessons.perceptron.PerceptronAnalysis`) and state only
facts of that run, so they are true for every setting.
"""

from __future__ import annotations

import math
from types import MappingProxyType, SimpleNamespace

import numpy as np

from olapp.content import Content
from olapp.controls import Preset
from olapp.lecture import Question, Scene
from olapp.state import inert
from olcore import StreamError
from olcore.claims import claim, text
from olcore.lessons import perceptron as lesson
from olcore.lessons.perceptron import (Comparison, Conservative, DualAscent, HingeView, OGDRegret, PerceptronAnalysis,
                                        Regularised, sci)
from olcore.stream import value_range

UCL = "UCL COMP0078, Online learning"
CB = "Cesa-Bianchi, On-line learning"

PRESETS = [
    Preset(
        "Perceptron at margin γ (Novikoff)",
        f"{UCL}, Perceptron Bound [Novikoff]: on a stream separated by a unit v with margin γ = 0.1 inside "
        "radius R = 1, the Perceptron makes at most (R/γ)² = 100 mistakes, however long the stream.",
        {"stream": "Generated", "T": 200, "gamma": 0.1, "noise": 0.0, "seed": 0, "epochs": 1}),
    Preset(
        "Cycle until it converges",
        f"{UCL} (\"How can we use the Perceptron to find a w that separates S? How long will it take?\") and "
        f"{CB} (cycled over a separable stream it stops after finitely many updates): a thin margin γ = 0.03, "
        "replayed 12 times; it stops erring during pass 9, far inside (R/γ)² ≈ 1111.",
        {"stream": "Generated", "T": 100, "gamma": 0.03, "noise": 0.0, "seed": 1, "epochs": 12}),
    Preset(
        "Noisy labels: the non-separable bound",
        f"{CB}, generalized Perceptron convergence theorem: with 10% of the labels flipped no v separates the "
        "stream, yet M ≤ L_u + R²‖u‖² + R‖u‖√L_u for every u (u's hinge loss L_u pays for the flips).",
        {"stream": "Generated", "T": 200, "gamma": 0.15, "noise": 0.1, "seed": 0, "epochs": 1}),
    Preset(
        "Noisy labels, replayed: it never converges",
        f"{CB} (\"What if the stream is not linearly separable?\"): with 5% flipped labels every pass makes "
        "mistakes again; the bound keeps growing with L_u, so it still holds after every pass.",
        {"stream": "Generated", "T": 200, "gamma": 0.15, "noise": 0.05, "seed": 0, "epochs": 5}),
    Preset(
        "You are the adversary (type the points)",
        f"{UCL}, Perceptron Bound [Novikoff]: whatever points you type, the mistakes are at most (R/γ)², "
        "with γ the margin of any line through the origin that separates them (the best one gives the smallest "
        "bound), as long as one does. Try to force many mistakes.",
        {"stream": "Typed", "epochs": 1}),
    Preset(
        "The Perceptron is conservative OGD (η irrelevant)",
        f"{UCL}, Deriving the perceptron algorithm/bound from OGD: OGD updating only on mistakes, at η = 0.01, 1 "
        "and 100, errs on exactly the Perceptron's rounds; its hyperplanes differ only in scale.",
        {"stream": "Generated", "T": 200, "gamma": 0.1, "noise": 0.0, "seed": 0, "epochs": 1,
         "deeper": "Perceptron = conservative OGD"}),
    Preset(
        "PA-I climbs the SVM dual",
        f"{CB}, PA-I as dual ascent: with 10% of the labels flipped, PA-I's dual increments (C = 1) add up to "
        "less than SVM_OPT of the stream, and each mistake adds at least min(C, 1/R²)/2.",
        {"stream": "Generated", "T": 200, "gamma": 0.15, "noise": 0.1, "seed": 0, "epochs": 1, "C": 1.0,
         "deeper": "PA-I as dual ascent"}),
]

SOURCES = {
    "Generated": "points in the plane separated by a random unit vector v with margin γ (radius R = 1).",
    "Typed": "edit a table of points yourself: you are the adversary.",
}

#: The typed points a new session starts with.
TYPED = {"x1": [0.8, -0.6, 0.1, -0.2, 0.9, -0.9], "x2": [0.3, -0.2, 0.9, -0.8, -0.4, 0.5],
         "y": [1, -1, 1, -1, 1, -1]}

def typed_start(link_value: str | None) -> tuple[dict, str]:
    """The table the typed-points editor starts from: the link's points (``?pts=``), else :data:`TYPED`;
    and a message when the link's points could not be read."""
    if not link_value:
        return TYPED, ""
    try:
        x1, x2, y = lesson.parse_points(link_value)
    except StreamError as exc:
        return TYPED, (f"This link's typed points could not be read ({inert(exc, 120)}); the example points are "
                       "shown instead.")
    return {"x1": x1, "x2": x2, "y": y}, ""


HELP = SimpleNamespace(
    T="Number of rounds in one pass: one point arrives per round.",
    gamma="Every point lies at distance at least γ from the separating line (R = 1). Novikoff's bound is "
          "(R/γ)² = 1/γ².",
    noise="Each label is flipped with this probability. With flips the stream is usually not separable and "
          "Novikoff's assumption fails; the page then shows the non-separable bound for the best comparator "
          "u found.",
    epochs="How many times the stream is replayed. On a separable stream the mistakes stop growing after at "
           "most (R/γ)² of them: the Perceptron has converged.",
    typed="One row per round: the point (x1, x2) and its label y (-1 or +1). Add, edit or delete rows; the "
          f"rounds are played top to bottom. Coordinates: {value_range()}.",
    C="Aggressiveness of PA-I and PA-II. PA-I caps each step at C. PA-II steps ℓ/(‖x‖² + 1/(2C)), the "
      "constant of the paper (Crammer et al. 2006, objective ½‖w − w'‖² + Cξ²). The slide's PA-II, "
      "ℓ/(‖x‖² + 1/C), is the exact solution of the slide's own objective ½‖w − w'‖² + (C/2)ℓ²: the "
      "paper's C is the slide's C/2, so both are right, with C counted differently.",
    eta="OGD's fixed learning rate on the hinge loss.",
)

INTRO = (
    "The Perceptron keeps one weight vector **w** and predicts the side of the hyperplane **w · x = 0** a "
    "point falls on. It changes **w** only when it is wrong, by adding the misclassified point times its "
    "label: **w ← w + y x**. Each mistake tilts the hyperplane towards the point. If some unit direction "
    "**v** separates the labels with margin **γ** and every point lies within radius **R**, Novikoff's "
    "theorem says the Perceptron makes at most **(R/γ)²** mistakes, however long the stream runs and however "
    "often it is replayed."
)

COMPARE_INTRO = (
    "The same stream, five update rules. The Perceptron moves only on mistakes and by a fixed step; the "
    "passive-aggressive family also moves on correct predictions with margin below 1, by just enough (PA), "
    "capped by C (PA-I), or softened by 1/(2C) (PA-II, the paper's constant; the slide writes 1/C for the "
    "same update with its C counted twice as large); OGD takes a fixed step η on the hinge loss."
)


def _g(x: float) -> str:
    return f"{x:.4g}"


def _separator(a: PerceptronAnalysis) -> str:
    if a.v_from == "generator":
        return f"the generator's separator v (margin γ = {sci(a.gamma)})"
    if a.v_from == "search":
        return f"a separating direction v found by the certificate search (margin γ = {sci(a.gamma)})"
    return f"the max-margin direction v through the origin, found from the stream (margin γ = {sci(a.gamma)})"


def trivial(a: PerceptronAnalysis) -> str:
    """A sentence when the bound drawn is at least the number of rounds played (it then says nothing), else ""."""
    if not a.trivial:
        return ""
    return claim(f"The bound, {sci(a.bound.value)}, is not below the T = {a.T} rounds played: here it says no more "
                 "than M ≤ T, which every learner satisfies.", a.bound.value >= a.T, "bound ≥ T")


def readout(a: PerceptronAnalysis) -> str:
    note = trivial(a)
    return text(f"The whole run: {_mistakes(a.trace.n_mistakes)}", ". " if note else "", note)


def tally(a: PerceptronAnalysis, t: int) -> list:
    """The tally's rows after ``t`` rounds (:meth:`olapp.kit.LessonPage.tally`)."""
    return [("mistakes", a.mistakes_at(t), a.bound)]


def data_space(a: PerceptronAnalysis, t: int) -> str:
    """The data space's caption after ``t`` rounds."""
    view = lesson.at_round(a, t)
    parts = [f"Filled points have arrived ({view.n_seen} of {a.pass_length})"
             + ("; faded ones are still to come." if view.n_seen < a.pass_length else ".")
             + " The dotted circle has radius R = " + _g(a.R) + "."]
    if view.w.any():
        parts.append("The blue line is the current hyperplane w_t · x = 0, the arrow its normal w_t/‖w_t‖.")
    else:
        parts.append("w is still 0, so there is no hyperplane yet (every score is 0 and counts as a mistake).")
    if a.separable:
        parts.append(f"The green dashed line is {_separator(a)}; the shaded band is its margin ±γ.")
    else:
        parts.append(_no_separator(a))
    if view.last is not None:
        parts.append(f"The ring marks round {view.t}'s point: "
                     + ("a mistake (orange ring)." if view.last_mistake else "classified correctly (grey ring)."))
    return " ".join(parts)


def _no_separator(a: PerceptronAnalysis) -> str:
    """Why no separator is drawn, as the certificate search found it."""
    if a.verdict == "not separable":
        return ("No separator is drawn: no line through the origin separates this stream (a Farkas certificate "
                f"puts the origin within ε = {sci(a.separation.epsilon)} of the hull of the points y_t x_t).")
    return f"No separator is drawn: none was found (after {a.separation.effort})."


def weight_space(a: PerceptronAnalysis, t: int) -> str:
    """The weight space's caption after ``t`` rounds."""
    view = lesson.at_round(a, t)
    parts = [f"Each dot is w after a mistake ({view.M} so far)."]
    if view.update is not None:
        parts.append(f"Round {view.t} was a mistake: the arrow is its update + y_t x_t.")
    elif view.t > 0:
        parts.append(f"Round {view.t} was not a mistake, so w did not move (no arrow).")
    grid = f"{lesson.ANGLES} directions drawn (one every {360 / lesson.ANGLES:g}°)"
    if not view.arcs:
        parts.append(f"None of the {grid} classifies all {view.n_seen} points seen so far, so there is no "
                     "wedge.")
    else:
        width = math.degrees(sum(end - start for start, end in view.arcs))
        parts.append(f"The green wedge ({width:.1f}°) holds those of the {grid} that classify all {view.n_seen} "
                     "points seen so far correctly; it can only narrow as points arrive.")
        if view.in_wedge:
            parts.append("w_t is inside it: it classifies every point seen so far.")
        else:
            parts.append(f"w_t is outside it: it still misclassifies {view.wrong_seen} of the points seen.")
    if a.separable:
        parts.append("The dashed green ray is the direction of v.")
    return " ".join(parts)


def mistakes(a: PerceptronAnalysis, log_y: bool) -> str:
    passes = " Dotted vertical lines mark the start of each new pass over the stream." if a.epochs > 1 else ""
    note = trivial(a)
    if a.separable:
        return text(f"The staircase counts mistakes; the dashed line is Novikoff's (R/γ)² = {sci(a.bound.value)} "
                    f"with R = {_g(a.R)} and γ = {sci(a.gamma)}, the margin of {_separator(a).split(' (')[0]}. "
                    "The staircase can never cross it, whatever the number of epochs."
                    + (" Log scale, since the bound is far above the count: the staircase starts at the first "
                       "mistake, and a flat stretch is a run of rounds without mistakes." if log_y else "") + passes,
                    " " if note else "", note)
    return text(f"The dashed curve is the relative mistake bound after t rounds, with L_u the hinge loss of u on "
                f"those rounds (‖u‖ = {sci(a.norm_u)}, R = {_g(a.R)}). It grows with every round u itself pays for."
                + passes, " " if note else "", note)


def convergence(a: PerceptronAnalysis) -> tuple[str, str] | None:
    """(kind, text) of the per-pass summary, kind in success/info; ``None`` for one pass."""
    if a.epochs <= 1:
        return None
    counts = ", ".join(str(int(c)) for c in a.per_pass)
    if a.converged_pass is not None:
        e = a.converged_pass
        where = (f" The last mistake was in round {a.last_mistake} (pass {(a.last_mistake - 1) // a.pass_length + 1})."
                 if a.last_mistake else "")
        within = f", within (R/γ)² = {sci(a.novikoff.value)}." if a.separable else "."
        return "success", (f"**Converged.** Mistakes per pass: {counts}. Pass {e} makes no mistake, so w did not "
                           "move during it and classifies every point of the stream correctly: from then on the "
                           f"Perceptron never errs again.{where} Total M = {a.trace.n_mistakes} updates{within}")
    if a.separable:
        return "info", (f"Mistakes per pass: {counts}. Every pass so far has made a mistake; on a separable stream "
                        f"the total cannot pass (R/γ)² = {sci(a.novikoff.value)}, so more passes end in a pass "
                        "without mistakes.")
    if a.verdict == "not separable":
        why = "with flipped labels no" if a.n_flipped else "no"
        return "info", (f"Mistakes per pass: {counts}. No pass is free of mistakes: {why} line through the origin "
                        "separates the stream (every unit direction has a margin of at most ε = "
                        f"{sci(a.separation.epsilon)}: the theorem box gives the certificate), so the Perceptron "
                        "keeps paying mistakes pass after pass, and the bound grows with L_u.")
    return "info", (f"Mistakes per pass: {counts}. No pass so far is free of mistakes, and no separating direction "
                    f"was found (after {a.separation.effort}): nothing guarantees that more passes end in a clean "
                    "one. The relative bound grows with L_u.")


def run_line(a: PerceptronAnalysis) -> str:
    note = trivial(a)
    return text(f"This run: **M = {a.trace.n_mistakes}** {'mistake' if a.trace.n_mistakes == 1 else 'mistakes'} in "
                f"{a.T} rounds.", " " if note else "", note)


PROOF_INTRO = ("Two bounds on ‖w‖ after M mistakes: one grows like √M, the other like M. They can only both "
               "hold for small M.")


def proof(a: PerceptronAnalysis) -> str:
    if a.separable:
        return ("Each mistake adds at most R² to ‖w‖² (the score y w·x was ≤ 0), so ‖w‖ ≤ √M·R; and it adds at "
                "least γ to w·v, so ‖w‖ ≥ w·v ≥ M·γ. A line cannot stay above a square root for long: the two "
                f"bounds meet at M = (R/γ)² = {sci(a.proof.meet)}, so there can be no more mistakes.")
    return ("Without a margin the lower bound is w·u ≥ M − L_u: each mistake adds at least 1 − ℓ_t(u) to w·u. "
            "With ‖w‖ ≤ √M·R it gives the non-separable bound above.")


def compare(a: PerceptronAnalysis, c: Comparison) -> str:
    text = ("Solid: each learner's mistakes (log scale: a curve appears at its first mistake); dashed, same "
            f"colour: its bound with the same comparator u (‖u‖ = {c.norm_u:.3g}). OGD's bound is on its hinge "
            "loss, which is at least its number of mistakes.")
    if "PA" not in c.bounds:
        text += " PA without a cap has no mistake bound when u pays some hinge loss, so none is drawn for it."
    return text


def hyperplanes(c: Comparison) -> str:
    return ("Where each learner's hyperplane ends after the whole run: "
            + ", ".join(f"{k} {_mistakes(tr.n_mistakes)}" for k, tr in c.traces.items()) + ".")


def _mistakes(m: int) -> str:
    return f"{m} mistake" + ("" if m == 1 else "s")


def not_2d(a: PerceptronAnalysis) -> str:
    return (f"This stream has d = {a.d} features: the plane pictures need d = 2. Mistakes and the proof are "
            "below.")


# ---- going deeper: OGD, the hinge loss, regularisation, PA-I's dual ----------------------------------

#: The penalties λ of the regularisation view (key ``lam``).
LAMBDAS = [0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0]
HELP_LAM = ("The penalty λ of w_{t+1} = argmin L_hi(y_t, w·x_t) + λ‖w − w_t‖². The notes' solution is OGD's step "
            "with η = 1/(2λ); the exact minimiser is PA-I with C = 1/(2λ).")

OGD_INTRO = (
    "OGD on the hinge loss L_hi(y, ŷ) = max(0, 1 − yŷ) steps w ← w + η y x whenever the margin y w·x is below 1. "
    f"{UCL} (Regret Bound for OGD, after Zinkevich): with η = U/(R√m) its hinge loss over m rounds is at most "
    "√(U²R²m) above that of any u with ‖u‖ ≤ U. Here U = ‖u‖ for the comparator u of the theorem above and m is "
    "the number of rounds played."
)

CONSERVATIVE_INTRO = (
    f"{UCL} (Deriving the perceptron from OGD): make OGD *conservative*, updating only when y ŷ ≤ 0. Then "
    "w_t = η·(the Perceptron's w_t), so the sign of every prediction, and every mistake, is the same for any "
    "η > 0: η is irrelevant and η = 1 is the Perceptron. Below: η = 0.01, 1 and 100 on this stream."
)

HINGE_INTRO = (
    f"{CB}: finding the hyperplane with the fewest mistakes is NP-hard, so the bounds compare with the hinge "
    "loss instead, a convex upper bound on the mistake indicator: 1[yz ≤ 0] ≤ (1 − yz)₊. Unlike the mistakes, "
    "it depends on the length of u: if the stream is hardly separable, ‖u‖ has to be big to keep it at zero."
)

REG_INTRO = (
    f"{UCL} (Online Approach): batch learning minimises Σ_t L(y_t, w·x_t) + λ‖w‖² (the soft-margin SVM for the "
    "hinge loss, without intercept here). Online, fit the new point while staying close to the last w: "
    "w_{t+1} = argmin L_hi(y_t, w·x_t) + λ‖w − w_t‖². The notes solve this as w_t + y_t x_t/(2λ) when "
    "y_t w_t·x_t < 1, which is OGD with η = 1/(2λ). Solved exactly, the step stops once the margin reaches 1: "
    "w_t + min{1/(2λ), ℓ_t/‖x_t‖²} y_t x_t, which is PA-I with C = 1/(2λ). The two agree when "
    "ℓ_t ≥ ‖x_t‖²/(2λ). One pass over the stream."
)

DUAL_INTRO = (
    f"{CB} (PA-I as dual ascent): the SVM dual D_svm(α) = Σ_t α_t − ½‖Σ_t α_t y_t x_t‖², 0 ≤ α_t ≤ C, is at most "
    "SVM_OPT = min_u ½‖u‖² + C Σ_t ℓ_t(u). PA-I sets α_t = min{C, ℓ_t/‖x_t‖²}, the maximiser of "
    "D_t(α) = −½α²‖x_t‖² + α(1 − y_t w_{t−1}·x_t), and D_t(α_t) is exactly how much D_svm grows. (The slides "
    "print D_svm without the labels y_t; the increment they derive includes them.) One pass, C from the "
    "settings above."
)


TOPIC_OGD = "OGD's regret"
TOPIC_CONSERVATIVE = "Perceptron = conservative OGD"
TOPIC_HINGE = "Hinge loss"
TOPIC_REG = "Regularisation view"
TOPIC_DUAL = "PA-I as dual ascent"
#: Topic -> its introduction (one topic is drawn at a time: a projector shows one idea, a rerun stays fast).
TOPICS = {TOPIC_OGD: OGD_INTRO, TOPIC_CONSERVATIVE: CONSERVATIVE_INTRO, TOPIC_HINGE: HINGE_INTRO,
          TOPIC_REG: REG_INTRO, TOPIC_DUAL: DUAL_INTRO}
HELP_TOPIC = ("The notes go on from the Perceptron to online convex optimisation: OGD's regret on the hinge loss, "
              "the Perceptron derived from it, why the hinge loss, the regularisation view of the update, and "
              "PA-I as ascent on the SVM dual. One at a time, on the stream above.")
DEEPER_INTRO = (
    "The same stream seen through the second half of the notes: the Perceptron is gradient descent on the hinge "
    "loss made conservative, and Passive-Aggressive climbs the dual of the soft-margin SVM."
)


def ogd_regret(r: OGDRegret) -> str:
    if not r.report.applies:
        return "The comparator u is 0, so the tuned η = U/(R√m) is not defined and no bound is drawn."
    final = float(r.regret[-1])
    side = "above" if final > 0 else "below"
    return text(f"OGD ran with η = U/(R√m) = {_g(r.U)}/({_g(r.R)}·√{r.m}) = {_g(r.eta)}. ",
                claim(f"After all {r.m} rounds its hinge loss is {_g(abs(final))} {side} u's, under U R √m = "
                      f"{_g(r.report.value)}.", final <= r.report.value + 1e-9 * max(1.0, abs(r.report.value)),
                      "OGD's regret ≤ U R √m (to rounding: a tight stream reaches it)"),
                " The dashed curve is the proof's bound U²/(2η) + ηtR²/2 after t rounds (a prefix is a stream), "
                "which reaches U R √m at t = m.")


def conservative(c: Conservative) -> str:
    etas = ", ".join(f"{e:g}" for e in c.norms)
    if c.same_mistakes and c.scale_error <= 1e-9:
        return text(claim(f"At η = {etas} conservative OGD erred on exactly the Perceptron's rounds: "
                          f"{_mistakes(c.mistakes)} each.", c.same_mistakes, "every η errs on the Perceptron's rounds"),
                    claim(" Each run's w_t is η times the Perceptron's (to a relative "
                          f"{sci(c.scale_error)}; largest angle between them over all rounds: {sci(c.max_angle)}°), so on "
                          f"this log scale the {len(c.norms)} staircases are parallel, each a factor η from the "
                          "Perceptron's (η = 1), and step at the same rounds.", c.scale_error <= 1e-9,
                          "w_t(η)/η equals the Perceptron's w_t to 1e-9"))
    return (f"At η = {etas} the runs did not all follow the Perceptron's steps exactly (largest relative gap of "
            f"w_t/η from the Perceptron's w_t: {sci(c.scale_error)}): a tie y ŷ = 0 decided differently by rounding. "
            "In exact arithmetic each w_t is η times the Perceptron's.")


def hinge_indicator(h: HingeView) -> str:
    return (f"Each dot is one round's margin y_t u·x_t for the comparator u (‖u‖ = {_g(h.norm_u)}) with its hinge "
            f"loss: the dashed line lies on or above the step everywhere, so u's hinge loss bounds its "
            f"{_mistakes(h.mistakes)}.")


def hinge_scale(h: HingeView) -> str:
    best = float(h.hinge.min())
    unit = claim(f" At s = 1 the unit û pays hinge loss on {h.unit_paying} of the {h.T} points: those with margin "
                 "y û·x below 1.", h.unit_paying == int(np.sum(np.maximum(0.0, 1.0 - h.margins) > 1e-12)),
                 "points where the unit û pays hinge loss, recounted")
    words = (f"The direction û = u/‖u‖ makes {_mistakes(h.mistakes)} whatever its length s; the hinge loss of s·û "
             f"starts at T = {int(round(h.hinge[0]))} (s = 0) and is smallest among the lengths drawn, {_g(best)}, at "
             f"s ≈ {_g(h.best_scale)}.")
    if h.mistakes == 0:
        tail = (" û separates the stream, so the loss reaches 0 once s ≥ 1/γ_û (γ_û = min_t y_t û·x_t = "
                f"{sci(float(h.margins.min()))}) and stays there.")
    else:
        tail = (" û misclassifies some points, and their hinge loss grows like s·|y û·x|: a longer u is "
                "not always better.")
    return text(words, unit, tail)


def regularised(g: Regularised) -> str:
    names = list(g.objective)
    final = {k: float(v[-1]) for k, v in g.objective.items()} if g.rounds.size else {}
    text = (f"Of {g.updates} steps of the exact rule (hinge loss > 0), {g.clipped} stopped short of the notes' "
            f"1/(2λ) = {_g(1 / (2 * g.lam))}: there the notes' closed form overshoots margin 1.")
    if final:
        text += (f" After the whole pass the objective is {_g(final[names[0]])} at OGD's w and "
                 f"{_g(final[names[1]])} at the exact step's, against the minimum {_g(float(g.minimum[-1]))} "
                 "(the soft-margin SVM of the stream, dashed), which no w can go below.")
    return text


def dual_sum(d: DualAscent) -> str:
    total = float(d.cumulative[-1]) if d.cumulative.size else 0.0
    return text(claim(f"The increments sum to {_g(total)} after the whole pass, at most SVM_OPT = "
                      f"{_g(d.report.value)} (dashed).", total <= d.report.value + 1e-9 * max(1.0, d.report.value),
                      "Σ D_t(α_t) ≤ SVM_OPT"),
                " The dotted curve is SVM_OPT of the first t rounds, which bounds the sum after t rounds too.")


def dual_increments(d: DualAscent) -> str:
    m = d.mistakes
    inc = d.increments
    words = f"Passive rounds (margin ≥ 1) add 0; {int((inc > 0).sum())} of {inc.size} rounds added something."
    if m.any():
        low = float(inc[m].min())
        return text(words, f" At each of the {_mistakes(int(m.sum()))} the increment is at least "
                    "min{C, ℓ_t/‖x_t‖²}ℓ_t/2 ≥ ",
                    claim(f"min(C, 1/R²)/2 = {_g(d.floor)} (smallest here: {_g(low)})",
                          low >= d.floor * (1 - 1e-9), "every mistake's increment ≥ min(C, 1/R²)/2"),
                    ", so min(C, 1/R²)·M ≤ 2·SVM_OPT: the PA-I mistake bound (the notes take ‖x_t‖ = 1, so R = 1).")
    return words


# -- the lecture: the notes' order of ideas, as scenes (olapp/lecture.py) --------------------------

def _run(T: int, gamma: float, noise: float = 0.0, seed: int = 0, epochs: int = 1) -> dict:
    return {"stream": "Generated", "T": T, "gamma": gamma, "noise": noise, "seed": seed, "epochs": epochs}


_FIRST, _NOVIKOFF = _run(60, 0.15), _run(200, 0.1)
_CYCLE, _NOISY = _run(100, 0.03, seed=1, epochs=12), _run(200, 0.15, noise=0.05, epochs=5)
_FEW = (0, 2, 11, 31)
_VS_BOUND = (0, 10, 50, 100)


def _bound(a: PerceptronAnalysis) -> str:
    return f"(R/γ)² ≈ {a.bound.value:.4g}"


def _first_why(a: PerceptronAnalysis) -> str:
    M = lesson.mistakes_until(a, a.T)
    rounds = [int(r) + 1 for r in (a.trace.mistakes.nonzero()[0])]
    shown = ", ".join(map(str, rounds[:12])) + (" …" if len(rounds) > 12 else "")
    return (f"{M} mistake{'s' if M != 1 else ''} in {a.T} rounds (rounds {shown}). Round 1 is always one: w starts "
            "at 0 and sign(0) is not a label. Every update turns w towards the points it got wrong, and once w "
            "points roughly like v the wide margin leaves little to get wrong.")


def _novikoff_q(a: PerceptronAnalysis) -> str:
    return (f"Here {_bound(a)}. How many mistakes will the Perceptron make on these {a.T} points?")


def _novikoff_why(a: PerceptronAnalysis) -> str:
    M = lesson.mistakes_until(a, a.T)
    return (f"M = {M}, against the bound {a.bound.value:.4g}. Novikoff's bound is a worst case over every stream "
            "with this margin and radius (an adversary could place the points to use it up); random points "
            "separated by a random v are far from the worst case.")


def _cycle_why(a: PerceptronAnalysis) -> str:
    per = ", ".join(str(int(m)) for m in a.per_pass)
    if a.converged_pass is None:
        return f"Mistakes per pass: {per}. No pass was clean within {a.epochs} passes."
    M = lesson.mistakes_until(a, a.T)
    return text(f"Mistakes per pass: {per}. Pass {a.converged_pass} is the first without a mistake: from then on w "
                f"separates the stream, after M = {M} updates in all, ",
                claim(f"inside {_bound(a)}", M <= a.bound.value, "M ≤ (R/γ)²"),
                ". Cycling the Perceptron over a separable sample is how it finds a separating w.")


def _noisy_why(a: PerceptronAnalysis) -> str:
    per = ", ".join(str(int(m)) for m in a.per_pass)
    if lesson.some_pass_clean(a):
        return f"Mistakes per pass: {per}. A pass was clean."
    why = (f"{a.n_flipped} flipped labels leave no line through the origin that separates the stream (certified: "
           "the theorem box), and every" if a.verdict == "not separable" else "Every")
    return (f"Mistakes per pass: {per}. {why} pass erred again; the relative bound L_u + R²‖u‖² + R‖u‖√L_u grows "
            "with u's hinge loss and still holds.")


def _deeper(topic: str, base: dict | None = None, **more) -> dict:
    """A "Going deeper" scene: the stream's settings, the other learners' constants, and the topic (URL key
    ``deeper``), so the link and the tour draw the same view."""
    return {**(base or _NOVIKOFF), "C": 1.0, "eta": 0.1, "lam": 0.5, "deeper": topic, **more}


LECTURE = [
    Scene("Predict, reveal, update", _FIRST, t=0, play_to=12, narration=(
        "The points arrive one per round; a unit vector v separates them with margin γ inside radius R = 1. "
        "The Perceptron starts at **w = 0**, predicts **ŷ = sign(w·x)**, and only when it is wrong (ŷ y ≤ 0) "
        "**updates w ← w + y x**. The first 12 rounds play on their own; then step through the next ones: "
        "each mistake's update is drawn as an arrow.")),
    Scene("How often does it err?", _FIRST, t=0, narration=(
        "Before playing the stream: it only learns from its mistakes. How many will it need?"),
        question=Question(lambda a: f"How many mistakes will the Perceptron make on all {a.T} points?", "choice",
                          lesson.mistakes_band, args=(_FEW,),
                          options={0: "just 1", 1: "2 to 10", 2: "11 to 30", 3: "more than 30"}, explain=_first_why)),
    Scene("Novikoff's bound", _NOVIKOFF, t=0, narration=(
        "**Theorem (Novikoff).** If every ‖x_t‖ ≤ R and a unit v has y_t (v·x_t) ≥ γ for all t, the Perceptron "
        "makes at most **(R/γ)²** mistakes, however long the stream. A thinner margin: γ = 0.1."),
        question=Question(_novikoff_q, "choice", lesson.mistakes_band, args=(_VS_BOUND,),
                          options={0: "fewer than 10", 1: "10 to 49", 2: "50 to 99", 3: "100 or more"},
                          explain=_novikoff_why)),
    Scene("The proof: ‖w‖ is squeezed", _NOVIKOFF, t=None, narration=(
        "Every mistake adds at least γ to **w·v** (so ‖w‖ ≥ w·v ≥ Mγ) and at most R² to **‖w‖²** "
        "(so ‖w‖ ≤ R√M, the Pythagorean lemma). Both hold after every round: (Mγ)² ≤ ‖w‖² ≤ MR², "
        "hence M ≤ (R/γ)². The proof's chart, further down, draws the two bounds closing in on ‖w‖.")),
    Scene("Cycle until it separates", _CYCLE, t=0, narration=(
        "w after one pass need not separate the sample. Replay it: on a separable stream the total number of "
        "updates is still at most (R/γ)², so some pass must be free of mistakes. A thin margin, γ = 0.03, "
        "12 passes over 100 points."),
        question=Question("In which pass will the Perceptron first make no mistake at all?", "number",
                          lesson.first_clean_pass, tolerance=1, explain=_cycle_why)),
    Scene("Noisy labels: no separating line", _NOISY, t=0, narration=(
        "Flip 5% of the labels: no v separates the stream, Novikoff's assumption fails and (R/γ)² says nothing. "
        "The notes' non-separable bound pays for the flips with the hinge loss L_u of a comparator u."),
        question=Question(lambda a: f"Will one of the {a.epochs} passes be free of mistakes?", "choice",
                          lesson.some_pass_clean, options={True: "yes", False: "no"}, explain=_noisy_why)),
    Scene("The hinge loss: a convex upper bound", _deeper(TOPIC_HINGE), t=None, narration=(
        "Finding the hyperplane with the fewest mistakes is **NP-hard**, so the bounds compare with a relaxation: the "
        r"**hinge loss** $(1 - y\,\mathbf u\cdot\mathbf x)_+$, a convex upper bound on the mistake indicator "
        r"$\mathbf 1[y\,\mathbf u\cdot\mathbf x \le 0]$. Unlike the "
        "mistakes it depends on the length of u: on this separable stream (γ = 0.1, R = 1) the unit v pays hinge loss on every point "
        "with margin y v·x below 1 (the caption counts them), and u = v/γ, ten times longer, pays none. "
        f"*Going deeper*, topic *Hinge loss*. ({CB})")),
    Scene("The online approach: stay close to the last w", _deeper(TOPIC_REG), t=None, narration=(
        r"Batch learning minimises $\sum_t L(y_t, \mathbf w\cdot\mathbf x_t) + \lambda\|\mathbf w\|^2$. Online: fit "
        r"the new point while staying close, $\mathbf w_{t+1} = \arg\min_{\mathbf w} L_{hi}(y_t, \mathbf w\cdot\mathbf x_t)"
        r" + \lambda\|\mathbf w - \mathbf w_t\|^2$. The notes' solution, $\mathbf w_t + y_t\mathbf x_t/(2\lambda)$ when "
        r"$y_t\,\mathbf w_t\cdot\mathbf x_t < 1$, is **OGD with η = 1/(2λ)**; solved exactly the step stops at margin 1, which is "
        f"**PA-I with C = 1/(2λ)**. *Going deeper*, topic *Regularisation view*. ({UCL})")),
    Scene("OGD's regret: U R √m", _deeper(TOPIC_OGD), t=None, narration=(
        r"OGD on the hinge loss steps $\mathbf w \leftarrow \mathbf w + \eta\,y\,\mathbf x$ whenever "
        r"$y\,\mathbf w\cdot\mathbf x < 1$. **Theorem**: if $\|\mathbf x_t\| \le R$, then for every "
        r"$\|\mathbf u\| \le U$, $\sum_t L_{hi}(y_t, \hat y_t) - L_{hi}(y_t, \mathbf u\cdot\mathbf x_t) \le "
        r"\frac{U^2}{2\eta} + \frac{\eta m R^2}{2}$, which is $U R\sqrt m$ at $\eta = \frac{U}{R\sqrt m}$. The proof: "
        r"convexity bounds each round's regret by $(\mathbf w_t - \mathbf u)\cdot\mathbf z_t$ ($\mathbf z_t$ a "
        r"subgradient of the hinge loss), and "
        r"$\|\mathbf w_t - \mathbf u\|^2$ telescopes. "
        f"*Going deeper*, topic *OGD's regret*. ({UCL})")),
    Scene("The Perceptron is conservative OGD", _deeper(TOPIC_CONSERVATIVE), t=None, narration=(
        r"Make OGD **conservative**: update only on a mistake, $y\hat y \le 0$. Then $\mathbf w_t$ is η times the "
        r"Perceptron's $\mathbf w_t$, so "
        "every prediction's sign, and every mistake, is the same for any η > 0: **η is irrelevant**, and η = 1 is "
        "the Perceptron. The chart runs η = 0.01, 1 and 100: three staircases of ‖w_t‖, a factor η apart on its log "
        "scale, stepping at the same rounds. "
        f"*Going deeper*, topic *Perceptron = conservative OGD*. ({UCL})")),
    Scene("PA-I climbs the SVM dual", _deeper(TOPIC_DUAL, _run(200, 0.15, noise=0.05)), t=None, narration=(
        r"The soft-margin SVM's dual $D(\boldsymbol\alpha) = \sum_t \alpha_t - \frac12\|\sum_t \alpha_t y_t\mathbf x_t\|^2$, "
        r"$0 \le \alpha_t \le C$, is at most $\mathrm{SVM_{OPT}} = \min_{\mathbf u} \frac12\|\mathbf u\|^2 + "
        r"C\sum_t \ell_t(\mathbf u)$. PA-I's step $\alpha_t = \min\{C, \ell_t/\|\mathbf x_t\|^2\}$ maximises the round's "
        "increment of D, so after every round the sum of the increments is a dual value: it climbs and stays "
        f"under SVM_OPT. *Going deeper*, topic *PA-I as dual ascent*, C = 1. ({CB})")),
]

CONTENT = Content(presets=tuple(PRESETS), lecture=tuple(LECTURE), lecture_run="analyse", help=MappingProxyType(vars(HELP)))
