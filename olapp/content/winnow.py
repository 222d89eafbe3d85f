"""The Winnow lesson's content: lecture presets, help texts and captions computed from the run.

Every caption takes the analysis (:mod:`olcore.lessons.winnow`) and states only what the run
shows, for every α offered (1.5, 2, 3), not the notes' α = 2 alone.
"""

from __future__ import annotations

import math
from types import MappingProxyType, SimpleNamespace

from olapp.content import Content
from olcore.claims import claim
from olcore.lessons import winnow as lesson
from olcore.lessons.winnow import Elimination, WinnowAnalysis, WinnowSweep

from ..controls import Preset
from ..lecture import Question, Scene

NOTES = "CMU 16-831, Online linear classification, section 4.4"

N_OPTIONS = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000]
ALPHAS = [1.5, 2.0, 3.0]

PRESETS = [
    Preset(
        "Winnow with k = 3 of N = 1000",
        f"{NOTES}: labels are an OR of k = 3 of N = 1000 attributes, and Winnow makes fewer than "
        "2 + 3k(log₂N + 1) ≈ 100.7 mistakes, however long the stream; after a few dozen it stops erring.",
        {"stream": "Generated", "N": 1000, "k": 3, "T": 2500, "alpha": 2.0, "seed": 0}),
    Preset(
        "Ten times more attributes: k = 3 of N = 10⁴",
        f"{NOTES}: the bound grows with log N only, so ten times more irrelevant attributes add just "
        "3k·log₂10 ≈ 30 to it (≈ 130.6); the Perceptron's bound on the same task grows tenfold.",
        {"stream": "Generated", "N": 10000, "k": 3, "T": 500, "alpha": 2.0, "seed": 0}),
    Preset(
        "More relevant attributes: k = 10 of N = 1000",
        f"{NOTES}: the bound is linear in k, 2 + 3k(log₂N + 1) ≈ 331 for k = 10; each relevant weight is "
        "promoted at most log₂N + 1 times before it alone crosses θ = N.",
        {"stream": "Generated", "N": 1000, "k": 10, "T": 2500, "alpha": 2.0, "seed": 0}),
    Preset(
        "The proof's potential (k = 3 of N = 100)",
        f"{NOTES}, equations (21)-(27): Φ = Σ w starts at N, gains at most N per promotion, loses more than "
        "N/2 per demotion and stays positive, so demotions are fewer than 2 + 2m⁺. Step through the mistakes.",
        {"stream": "Generated", "N": 100, "k": 3, "T": 500, "alpha": 2.0, "seed": 0}),
    Preset(
        "Promotion factor α = 3",
        f"{NOTES} uses α = 1 + β = 2; the same potential argument with a general α gives "
        "Nα/((α−1)θ) + (α+1)k(log_α θ + 1) (k = 3, N = 100, θ = N).",
        {"stream": "Generated", "N": 100, "k": 3, "T": 500, "alpha": 3.0, "seed": 0}),
    Preset(
        "Conjunctions: the elimination algorithm's worst case",
        "UCL COMP0078, Online learning, Problems 1.1: rounds ordered against the elimination algorithm cost it "
        "exactly n − k + 1 = 18 mistakes on a 3-literal conjunction of n = 20 attributes, within n + 1 = 21 "
        "(the last section of the page).",
        {"stream": "Generated", "N": 100, "k": 3, "T": 500, "alpha": 2.0, "seed": 0, "conj_n": 20, "conj_k": 3,
         "conj_worst": True}),
]

SOURCES = {"Generated": "random examples labelled by an OR of k of the N attributes (a new draw per seed)."}

HELP = SimpleNamespace(
    N="Number of boolean attributes, on a log scale up to 10⁴. Only k of them matter.",
    k="The label is the OR of k attributes chosen at random.",
    T="Number of examples in the stream. T × N is capped at 5 million values.",
    alpha="Weights are multiplied by α on a missed positive and divided by α on a false positive. The notes "
          "use α = 2 (β = 1); other values use the same proof with general constants.",
    sweep_seeds="How many random streams (seeds 0, 1, ...) are run for each N, 400 rounds each (fewer when "
                "N × rounds would exceed 5 million values).",
    upload="Winnow's bound needs a k-literal disjunction that labels every row. The page looks for one "
           "(attributes never on in a negative row, then a greedy cover of the positive rows); if there is "
           "none, the theorem does not apply and no bound is drawn.",
)

INTRO = (
    "The label is an OR of **k** of the **N** boolean attributes, and the learner does not know which. "
    "Winnow gives every attribute weight 1 and predicts 1 when the weights of the active attributes sum to "
    "more than the threshold **θ = N**. On a missed positive it **multiplies** the weights of the active "
    "attributes by **α**; on a false positive it **divides** them by α (the notes take α = 2: doubling and "
    "halving). Relevant attributes are never divided (a negative example has none of them on), so they climb "
    "quickly, while the many irrelevant ones are pushed down. The mistakes are bounded by a multiple of "
    "**k log N**: fewer than 2 + 3k(log₂N + 1) at α = 2, where the Perceptron's bound grows like N."
)


def _g(x: float) -> str:
    """A number as a lecturer reads it: 4 significant digits, thousands with separators."""
    return f"{x:,.0f}" if abs(x) >= 10_000 else f"{x:.4g}"


def _log(alpha: float) -> str:
    """log with the base as a subscript where there is one: log₂, log₃, log_1.5."""
    return {2.0: "log₂", 3.0: "log₃"}.get(float(alpha), f"log_{alpha:g}")


def cut(T: int, T_run: int, N: int) -> str:
    """Said when the stream was cut to fit 5 million values."""
    return f"With N = {N:,} the stream is cut to {T_run:,} rounds (T × N ≤ 5 million)." if T_run < T else ""


def who(a: WinnowAnalysis) -> str:
    """Which attributes the disjunction has (known, or found on an upload)."""
    if a.relevant is None:
        return ("No disjunction labels this stream: some positive row has none of the attributes that are "
                "never on in a negative row.")
    if len(a.relevant) == 0:
        return "Every label is 0: the empty disjunction labels the stream (k = 0)."
    names = ", ".join(f"x{int(r) + 1}" for r in a.coloured) + (" …" if len(a.relevant) > len(a.coloured) else "")
    if a.found:
        return f"A disjunction that labels every row (found greedily, k = {a.k}): {names}."
    return f"Relevant attributes: {names}."


def tally(a: WinnowAnalysis, t: int) -> list:
    """The tally's rows after ``t`` rounds (:meth:`olapp.kit.LessonPage.tally`)."""
    return [("mistakes", int(a.trace.mistakes[:t].sum()), a.bound)]


def status(a: WinnowAnalysis, t: int) -> str:
    e = a.trace.extras
    return (f"Of these, {int(e['m_plus'][t])} on positives (promotions) and {int(e['m_minus'][t])} on negatives "
            "(demotions). " + who(a))


def weights(a: WinnowAnalysis) -> str:
    al = a.alpha
    per = a.promotions.numbers.get("per_weight")
    text = ("Log scale; the dotted vertical line is the player's round. Coloured: the attributes of the "
            "disjunction, which only ever go up (a negative example has none of them on, so they are never "
            f"divided by α); grey: the spread of the others (max, median, min). A relevant weight is multiplied "
            f"by α = {al:g} only while the active weights sum to at most θ = N = {a.N:,}, so it is promoted at "
            f"most log_α θ + 1 = {_log(al)} {a.N:,} + 1 = "
            + (_g(per) if per is not None else _g(a.promotions.value)) + " times.")
    if a.relevant is not None and len(a.coloured) < len(a.relevant):
        text += f" Only the first {len(a.coloured)} attributes of the disjunction are coloured."
    return text


def mistakes(a: WinnowAnalysis) -> str:
    if not a.bound.applies:
        return ""
    b = a.bound
    return (f"The staircase counts Winnow's mistakes after each round; the dashed line is the bound "
            f"{b.formula} = {b.value:.4g} for k = {a.k}, N = {a.N:,}, α = {a.alpha:g}. It holds for any stream "
            "labelled by a k-literal disjunction, however long: once the staircase goes flat, Winnow has learnt "
            "the disjunction (or a rule that agrees with it on everything seen since).")


NOT_APPLY = ("**The theorem does not apply to this stream**: no OR of attributes gives every row its label, so "
             "Winnow's mistake bound says nothing and none is drawn. Winnow still runs, and may keep erring for ever.")


def run_line(a: WinnowAnalysis) -> str:
    if not a.bound.applies:
        return (f"This run: **m = {a.n_mistakes}** {'mistake' if a.n_mistakes == 1 else 'mistakes'} in {a.T} rounds; no bound (no consistent "
                "disjunction).")
    return claim(f"This run: **m = {a.n_mistakes}** mistakes ({a.m_plus} promotions, {a.m_minus} demotions) in "
                 f"{a.T} rounds, {a.bound.value - a.n_mistakes:.4g} below the bound.",
                 a.n_mistakes <= a.bound.value, "m ≤ Winnow's bound")


def theorem_note(a: WinnowAnalysis) -> str:
    text = "Prediction is 1 when Σ w_i x_i > θ (strictly), as in the notes; θ = N."
    if a.found and a.bound.applies:
        text += (" For an uploaded stream k is the size of the disjunction found; a smaller one would give a "
                 "smaller bound.")
    return text


def potential(a: WinnowAnalysis) -> str:
    al, th = a.alpha, a.theta
    up, down = (al - 1) * th, (1 - 1 / al) * th
    c = a.N / down
    return (f"Φ = Σ w starts at N = {a.N:,}. A promotion multiplies the active weights by α = {al:g}, adding "
            f"(α−1)·(their sum) ≤ (α−1)θ = {_g(up)} (else the prediction was 1); a demotion divides them by α, "
            f"removing (1−1/α)·(their sum) > (1−1/α)θ = {_g(down)}. The dashed line adds {_g(up)} per promotion "
            f"and removes {_g(down)} per demotion, so Φ stays below it; and Φ > 0, so the demotions are fewer "
            f"than N/((1−1/α)θ) + α·m⁺ = {_g(c)} + {al:g}·m⁺.")


def sweep_intro(s: WinnowSweep) -> str:
    return ("The same kind of stream for growing N, Winnow with α = 2: Winnow's bound grows like log N, the "
            "Perceptron's (with a constant bias attribute) like N. Each point averages "
            f"{s.n_seeds} seeds; the band spans the smallest to the largest count.")


def sweep(s: WinnowSweep) -> str:
    w, p = s.winnow.mean(axis=0), s.perceptron.mean(axis=0)
    n0, n1 = int(s.Ns[0]), int(s.Ns[-1])
    rounds = (f"{int(s.rounds.max())}" if s.rounds.min() == s.rounds.max()
              else f"{int(s.rounds.max())}, fewer for large N: {int(s.rounds.min())} at N = {n1:,}")
    return (f"Log–log axes. From N = {n0:,} to N = {n1:,} (×{n1 // n0:,}) the Perceptron's mean mistakes went "
            f"from {_g(p[0])} to {_g(p[-1])} and Winnow's from {_g(w[0])} to {_g(w[-1])}; the Perceptron's "
            f"bound grew from {_g(s.perceptron_bound[0])} to {_g(s.perceptron_bound[-1])}, Winnow's from "
            f"{_g(s.winnow_bound[0])} to {_g(s.winnow_bound[-1])}. The Perceptron's bound is Novikoff's with "
            "u = (2,…,2 on the relevant attributes, bias −1), which has y·u·x ≥ 1, so ‖u‖² = 4k + 1, and "
            f"R² ≤ N + 1. Curves cannot exceed the number of rounds ({rounds}); the Perceptron's bound, linear "
            "in N, soon leaves the frame.")


def sweep_upload(k: int) -> str:
    return f"Generated streams with k = {k} relevant attributes (not your upload)."


# ---- the elimination algorithm for conjunctions ---------------------------------------------------------

ELIM_INTRO = (
    "UCL COMP0078, Online learning, Problems 1.1: learn a **conjunction of literals** (x_i or ¬x_i) over "
    "{0, 1}ⁿ. The elimination algorithm starts with all 2n literals, predicts their conjunction (so 0 at first), "
    "and on a mistake on a positive example drops every literal that example falsifies. The target's literals are "
    "true on every positive, so they are never dropped: every mistake is on a positive, the first drops n "
    "literals and each later one at least one more, so M ≤ n + 1 (the notes ask for O(n²)). Winnow learns "
    "monotone disjunctions, so on the same (x, y) it has no guarantee; by De Morgan ¬(ℓ₁ ∧ … ∧ ℓ_k) = ¬ℓ₁ ∨ … ∨ ¬ℓ_k "
    "is a monotone k-disjunction of the 2n attributes (x, 1 − x), so Winnow on those with labels 1 − y has its bound."
)
HELP_ELIM = SimpleNamespace(
    n="Number of boolean attributes of the conjunction stream.",
    k="Number of literals in the target conjunction (0: always true).",
    worst="Start with the rounds that force the elimination algorithm's n − k + 1 mistakes: one positive, then "
          "for each attribute outside the target a positive with only that attribute flipped.",
)
#: Rounds of the conjunction stream.
ELIM_T = 300


def _literal(i: int, v: int) -> str:
    return f"x{i + 1}" if v == 1 else f"¬x{i + 1}"


def _conj(names: list[str], limit: int = 12) -> str:
    if not names:
        return "(empty: always true)"
    shown = " ∧ ".join(names[:limit])
    return shown + (f" ∧ … ({len(names)} literals)" if len(names) > limit else "")


def elimination(e: Elimination, t: int, describe) -> str:
    t = min(max(int(t), 0), e.T)
    H = describe(e.trace.weights_at(t))
    target = _conj([_literal(i, v) for i, v in e.literals])
    text = (f"Target: {target}. After round {t} the hypothesis is {_conj(H)}, and the elimination algorithm has "
            f"made {int(e.trace.extras['m_plus'][t] + e.trace.extras['m_minus'][t])} mistakes; over the whole "
            f"stream {e.trace.n_mistakes}, within n − k + 1 = {e.n - e.k + 1} ≤ n + 1 = {e.n + 1}. ")
    text += (f"Winnow on the same (x, y) made {e.winnow.n_mistakes}; on (x, 1 − x) with labels 1 − y it made "
             f"{e.demorgan.n_mistakes}, under its bound {e.demorgan_report.value:.4g}.")
    return text


# ---- the lecture: CMU 16-831 section 4 in its order, then UCL Problems 1.1 ---------------------------------



def _run(N: int, k: int, T: int, alpha: float = 2.0, seed: int = 0, **more) -> dict:
    """Every setting the page reads (the conjunction section's too), so a link and the tour show one view."""
    return {"stream": "Generated", "N": N, "k": k, "T": T, "alpha": alpha, "seed": seed, "sweep_seeds": 4,
            "conj_n": 20, "conj_k": 3, "conj_worst": False, **more}


_RULE = _run(100, 3, 500)
_THOUSAND = _run(1000, 3, 2500)
_TEN_K = _run(10000, 3, 500)
_PROOF = _run(100, 3, 500)
_ELIM = _run(100, 3, 500, conj_worst=True)
_M_EDGES = (0, 25, 75)
_P_EDGES = (0, 8, 16, 23)


def _mistakes_q(a: WinnowAnalysis) -> str:
    return (f"k = {a.k} of N = {a.N:,} attributes, {a.T:,} rounds. The bound is 2 + 3k(log₂N + 1) ≈ "
            f"{a.bound.value:.4g}. How many mistakes will Winnow make on the whole stream?")


def _mistakes_why(a: WinnowAnalysis) -> str:
    rounds = [int(r) + 1 for r in a.trace.mistakes.nonzero()[0]]
    last = f" The last mistake was in round {rounds[-1]:,}: no later example was misclassified." if rounds else ""
    return (f"M = {a.n_mistakes} ({a.m_plus} promotions, {a.m_minus} demotions), against the bound "
            f"{a.bound.value:.4g}. Each promotion doubles at least one relevant weight, which stops doubling once it "
            f"passes θ = N, so at most k(log₂N + 1) = {a.k * (math.log2(a.N) + 1):.3g} promotions; the demotions are "
            f"fewer than 2 + 2m⁺. The {a.N - a.k:,} irrelevant attributes enter only through log₂N: one demotion "
            "halves every active one at once." + last)


def _promotions_q(a: WinnowAnalysis) -> str:
    return (f"Step 1 of the proof: promotions m⁺ ≤ k(log₂N + 1) = {a.promotions.value:.3g} (k = {a.k}, "
            f"N = {a.N:,}). How many promotions (mistakes on positive examples) will this run make?")


def _promotions_why(a: WinnowAnalysis) -> str:
    return (f"m⁺ = {a.m_plus}, close to the step's {a.promotions.value:.3g}: on a missed positive at least one relevant "
            "attribute is on, and its weight doubles. Relevant weights are never halved (a negative has none of them "
            "on), so each can double only about log₂N + 1 times before it alone carries the vote. Step 2 then bounds "
            f"the demotions by the promotions: m⁻ = {a.m_minus} < 2 + 2m⁺ = {2 + 2 * a.m_plus}.")


LECTURE = [
    Scene("Winnow: multiply, don't add", _RULE, t=25, narration=(
        "Boolean attributes x ∈ {0, 1}ᴺ, and the label is an **OR of k of them** (here k = 3 of N = 100). Winnow "
        "starts with **every weight 1**, predicts 1 when **Σ w_i x_i > θ = N**, and on a mistake multiplies the "
        "active weights by 1 + β = 2 (a missed positive) or divides them by 2 (a false positive). Step through the "
        f"first mistakes: the coloured relevant weights only ever go up. ({NOTES})")),
    Scene("How many mistakes?", _THOUSAND, t=0, narration=(
        "**Theorem.** If an OR of k of the N attributes labels every example, Winnow (θ = N, α = 2) makes fewer than "
        "**2 + 3k(log₂N + 1)** mistakes, however long the stream. A thousand attributes, three of them relevant."),
        question=Question(_mistakes_q, "choice", lesson.mistakes_band, args=(_M_EDGES,),
                          options={0: "fewer than 25", 1: "25 to 74", 2: "75 or more"}, explain=_mistakes_why)),
    Scene("Ten times more attributes", _TEN_K, t=None, narration=(
        "N = 10 000: ten times more irrelevant attributes add only **3k·log₂10 ≈ 30** to the bound (≈ 130.6). "
        "The Perceptron's bound for the same disjunction, (4k + 1)(N + 1), grows tenfold: multiplicative updates "
        "learn quickly **when irrelevant attributes abound**. The sweep further down runs both as N grows.")),
    Scene("The proof, step 1: promotions", _PROOF, t=0, narration=(
        "A mistake on a positive example (**a promotion**) doubles the weights of the active attributes, and at least "
        "one relevant attribute is active. A relevant weight is **never halved** and is only doubled while it is at "
        "most θ = N: so each is doubled at most log₂N + 1 times, and **m⁺ ≤ k(log₂N + 1)**."),
        question=Question(_promotions_q, "choice", lesson.promotions_band, args=(_P_EDGES,),
                          options={0: "fewer than 8", 1: "8 to 15", 2: "16 to 22", 3: "23 or more"}, explain=_promotions_why)),
    Scene("The proof, step 2: the potential Σ w", _PROOF, t=None, narration=(
        "**Φ = Σ_i w_i** starts at N. A promotion adds at most N (the active weights summed to at most θ = N); a "
        "demotion removes more than N/2 (they summed to more than N). Φ stays positive, so "
        "0 < N + N·m⁺ − (N/2)·m⁻, that is **m⁻ < 2 + 2m⁺**, and M = m⁺ + m⁻ < 2 + 3k(log₂N + 1). "
        "The proof's chart: Φ stays under the dashed line.")),
    Scene("Conjunctions: the elimination algorithm", _ELIM, t=None, narration=(
        "UCL COMP0078, Online learning, **Problems 1.1**: learn a conjunction of k literals (x_i or ¬x_i). Start with "
        "all **2n literals**, predict their conjunction, and on a mistake on a positive drop every literal it "
        "falsifies. The target's literals are never dropped, so every mistake is on a positive: the first drops n "
        "literals, each later one at least one more, so **M ≤ n + 1** (the notes ask for O(n²)). Last section: "
        "rounds ordered against it cost exactly n − k + 1 = 18 mistakes for n = 20.")),
]

CONTENT = Content(presets=tuple(PRESETS), lecture=tuple(LECTURE), lecture_run="analyse", help=MappingProxyType(vars(HELP)))
