"""Content of the Weighted Majority vs Hedge lesson: presets, help texts, captions.

Captions are functions of the analysis (:class:`olcore.lessons.wm_vs_hedge.WMvsHedgeAnalysis`)
and state only what the run shows.
"""

from __future__ import annotations

import math

from types import MappingProxyType, SimpleNamespace

from olapp.controls import Preset
from olapp.lecture import Question, Scene
from olapp.content import Content, count
from olcore.bounds import weighted_majority_constants
from olcore.lessons import wm_vs_hedge as lesson
from olcore.lessons.wm_vs_hedge import (CMU, EPS, SWEEP_POINTS, UCL, HedgeSweep, ScaledHedge, TuningAnalysis, WAEquality,
                                        WMvsHedgeAnalysis)

GENERATED, ADVERSARY = "Generated", "WM adversary"
#: The page's own stream sources (label -> help); the kit adds "Upload".
SOURCES = {
    GENERATED: "noisy experts: expert i errs independently with its own rate, from the best rate up to 0.5 "
               "(a coin).",
    ADVERSARY: "exercise 3.1: two constant experts (always 0, always 1) and an outcome that is always the "
               "opposite of deterministic WM's vote, so WM errs every round and the better expert at most half "
               "the time.",
}
SOURCE_KIND = {GENERATED: "noisy", ADVERSARY: "adversary"}

HELP = SimpleNamespace(
    n="Number of experts (the WM adversary uses 2).",
    T="Length of the stream.",
    best="Expert 1 errs with this probability; the others' rates rise evenly to 0.5 (a coin flip).",
    beta="Deterministic WM multiplies a wrong expert's weight by β. β = 1/e ≈ 0.368 gives "
      "M ≤ 2.63 min_i M_i + 2.63 ln n; β = 0 is Halving.",
    rwm_eta="Randomized WM (CMU notes) multiplies a wrong expert's weight by 1 − η; its bound needs η ≤ 1/2. "
            "Smaller η: less regret to a good expert, more time to find it (ln n/η). At a fixed η the "
            "bound grows linearly with T.",
    rwm_tuned="Set RWM's η to min(1/2, √(ln n / T)). Since the best expert errs at most T times, the "
              "expected regret bound η m* + ln n/η is at most ηT + ln n/η, smallest at η = √(ln n/T), where "
              "it is 2√(T ln n): the regret per round vanishes as T grows. (The CMU notes' η = 1/√T also makes "
              "RWM no-regret, with the larger bound √T (1 + ln n).)",
    wa_loss="Square loss (y − ŷ)², bound ln n/η for η ≤ 1/2; entropic (log) loss, bound ln n/η for η ≤ 1. "
            f"The entropic master sees the advice softened to {EPS} + {1 - 2 * EPS:.1f}·x, since a confident "
            "wrong 0/1 expert has infinite log loss.",
    wa_eta="Learning rate of the weighted average. The notes' theorem: η = 1/2 (square) or η = 1 (entropic); "
           "larger η voids the bound.",
    hedge_mult="Hedge's learning rate as a multiple of the tuned η* = √(2 ln n / T), which makes the regret "
               "bound √(2T ln n).",
    heat="Which master's normalised weights the heat map shows (and the download holds).",
    B="Losses in [0, B]: the panel 'Losses in [0, B]' multiplies the 0/1 loss matrix by B and runs Hedge at "
      "η*/B (the notes' question after Hedge's proof) beside Hedge left at η*.",
)

INTRO = (
    "Without a perfect expert Halving would cross everyone out. **Weighted Majority** keeps every expert but "
    "multiplies the weight of each wrong one by $\\beta$; it is within a constant factor of the best expert, "
    "but a deterministic vote can be fooled into erring at least twice as often as the best expert. "
    "**Randomizing** (follow an expert drawn by weight), **averaging** (predict the weighted mean) or "
    "**hedging** (spread a unit of money over the experts) removes the factor: with the learning rate "
    "$\\eta$ tuned to the horizon $T$, the expected *regret* to the best expert grows only like "
    "$\\sqrt{T \\ln n}$ (Weighted Average's even stays below $\\ln n/\\eta$), so the average regret vanishes. "
    "At a fixed $\\eta$, Randomized WM's bound $\\eta m^* + \\ln n/\\eta$ (CMU notes) still grows linearly with "
    "the best expert's mistakes $m^*$. (The CMU notes write $\\log N$: log is the natural log in the CMU notes, "
    "written $\\ln$ here, and their $N$ experts are the $n$ here.)"
)

# Each preset sets every setting (the defaults, then its own), so it is reproducible from any state and no
# two presets match the same settings.
_BASE = {"n": 10, "T": 500, "best": 0.3, "seed": 0, "beta": 0.368, "rwm_eta": 0.1, "rwm_tuned": False,
         "wa_loss": "square", "wa_eta": 0.5, "hedge_mult": 1.0, "B": 10.0}
_NOISY = {**_BASE, "stream": GENERATED}
_ADV = {**_BASE, "stream": ADVERSARY, "T": 400}
PRESETS = [
    Preset("WM with β = 1/e",
           f"{UCL}, \"Number of mistakes of the WM algorithm\": with β = 1/e both constants are 2.63, "
           "M ≤ 2.63 min_i M_i + 2.63 ln n; ten noisy experts, the best wrong 30% of the time.",
           _NOISY),
    Preset("Hedge tuned at η*",
           f"{UCL}, Hedge theorem [LW94, FS97]: at η* = √(2 ln n/m) the expected regret is at most "
           "√(2 m ln n), the lowest point of the dashed curve in the η sweep.",
           {**_NOISY, "T": 1000, "further": "The η sweep for Hedge"}),
    Preset("Exercise 3.1: deterministic WM errs twice as often",
           f"{UCL}, problem 3.1: two constant experts and an outcome that always contradicts WM's vote. WM errs "
           "every round and the two experts share those mistakes, so WM errs at least twice as often as the best "
           "expert (exactly twice here, 0 < β < 1 and T even): c-regret is linear for c < 2. RWM and Hedge, whose "
           "coins the stream cannot see, stay close to the best expert.",
           _ADV),
    Preset("Randomized WM with η = 1/2",
           f"{CMU}, randomized WMA: E[M] ≤ (1 + η) m* + ln N/η; at the largest allowed η = 1/2 it is "
           "1.5 m* + 2 ln N.",
           {**_NOISY, "rwm_eta": 0.5}),
    Preset("Randomized WM tuned to T",
           f"{CMU}, randomized WMA: with η tuned to the horizon, here η = √(ln n/T), the expected regret bound "
           "η m* + ln n/η ≤ ηT + ln n/η = 2√(T ln n) grows like √T, so RWM is no-regret (the notes take "
           "η = 1/√T, with bound √T (1 + ln n)).",
           {**_NOISY, "T": 2000, "rwm_tuned": True}),
    Preset("Weighted Average, entropic loss, η = 1",
           f"{UCL}, Weighted Average theorem: with the entropic (log) loss and η = 1 the regret to the best expert "
           "is at most ln n, however long the stream.",
           {**_NOISY, "wa_loss": "entropic", "wa_eta": 1.0}),
    Preset("Hedge with η ten times too large",
           f"{UCL}, Hedge proof (2): for any η the regret is at most ln n/η + ηm/2; at 10 η* the weights jump "
           "to whoever led last and the bound is far above √(2 m ln n).",
           {**_ADV, "hedge_mult": 10.0}),
    Preset("WM is not no-regret; RWM with η = 1/√T is",
           f"{CMU}: regret forms (1) and (2). On the WM adversary WM's regret per round stays at 1/2 and RWM's at a "
           "fixed η stays flat, while RWM re-run with η = 1/√T for each horizon T has a regret per round that "
           "falls towards 0, as its bound (1 + ln N)/√T does.",
           {**_ADV, "T": 2000, "tuning": "η tuned to T", "further": "WM and RWM at one η, η tuned to T"}),
    Preset("Losses in [0, 100]",
           f"{UCL}, the question after Hedge's proof: with losses in [0, B], Hedge at η*/B has regret at most "
           "B√(2m ln n); left at η*, its bound carries B² instead of B.",
           {**_NOISY, "B": 100.0, "further": "Losses in [0, B]"}),
]

TUNING_INTRO = (
    "The CMU notes write Weighted Majority with weights multiplied by $1-\\eta$ on a mistake (so $\\beta = 1-\\eta$, "
    "$\\eta \\le 1/2$) and compare it with Randomized WM at the same $\\eta$. Here both run at RWM's $\\eta$ from the "
    "settings: WM's two bound forms on one run, the regret forms (1) and (2), what tuning $\\eta$ to the horizon "
    "does to the regret per round, and UCL Problems 3.2 (a $\\beta_T \\to 1$ that makes WM's 2-regret sublinear)."
)


TOPIC_TUNING = "WM and RWM at one η, η tuned to T"
TOPIC_B = "Losses in [0, B]"
TOPIC_SWEEP = "The η sweep for Hedge"
FURTHER_TITLE = "Going further: the CMU notes' forms, losses in [0, B], the η sweep"
FURTHER_INTRO = ("Three more views of the notes on this stream, one at a time: the CMU notes' Weighted Majority and "
                 "what tuning η to the horizon buys, losses beyond [0, 1], and Hedge's regret across learning rates.")
HELP_FURTHER = ("Which view to draw: the CMU notes' forms of WM and RWM (with a view selector of their own), Hedge on "
                "losses in [0, B] (B in the settings), or Hedge's regret for 25 learning rates around η*. One at a "
                "time; the choice travels in the page's link.")
#: Topic -> its introduction (one drawn at a time: a projector shows one idea, a rerun stays fast).
FURTHER = {
    TOPIC_TUNING: TUNING_INTRO,
    TOPIC_B: ("Losses in $[0, B]$ instead of $[0, 1]$ (the settings' *Loss range B*): the 0/1 loss matrix times $B$. "
              "Hedge's bound assumed losses in $[0, 1]$; on the left, what dividing η by $B$ keeps and what leaving "
              "it at η* costs."),
    TOPIC_SWEEP: ("Hedge run again at 25 learning rates around η*, on the same stream: its regret after T rounds "
                  "against the bound $\\ln n/\\eta + \\eta m/2$ that η* minimises."),
}
#: The URL settings each topic reads (a link with one topic's settings and no ``further`` opens that topic).
FURTHER_SETTINGS = {TOPIC_TUNING: ("tuning",), TOPIC_B: ("B",)}


# -- captions (facts computed from the run) ---------------------------------------------------------------
def tally(a: WMvsHedgeAnalysis, t: int) -> list:
    """The tally's rows after ``t`` rounds (:meth:`olapp.kit.LessonPage.tally`): each master's regret."""
    return [(f"{m} regret", a.regret[m][t - 1] if t else 0, a.reports[m]) for m in ("WM", "Hedge")]


def heatmap(which: str) -> str:
    return (f"{which}'s weights: each row is an expert, each column the weights after that many rounds (the ones "
            "used in the next round); darker means more weight. The dotted line is the player's round. Weight "
            "drains from experts as they err.")


#: What each master's prediction column holds in the download.
PREDICTION = {"WM": "0 or 1: the weighted vote", "RWM": "0 or 1: the advice of the expert drawn this round",
              "WA": "a number in [0, 1]: the weighted average of the advice",
              "Hedge": "the expert the sampled run followed, numbered from 0, so E1 is 0"}


def download(a: WMvsHedgeAnalysis, which: str) -> str:
    note = {
        "WM": "" if a.reports["WM"].applies else " The bound column is infinite: β = 0 and no expert is perfect.",
        "RWM": " RWM's bound is on the expected mistakes; the loss column is this draw's.",
        "WA": ("" if a.reports["WA"].applies else f" No bound column: η = {a.wa_eta:g} is above the theorem's "
                                                  "limit.")
              + (" The entropic master saw the softened advice." if a.wa_loss == "entropic" else ""),
        "Hedge": " Hedge's loss column is the expected (HA-1) loss v_t·ℓ_t; its prediction column the expert a "
                 "sampled (HA-2) run followed.",
    }[which]
    return (f"The download is the run of the master in the heat map ({which}), one row per round: the experts' "
            "advice and the outcome, its prediction, loss and cumulative loss, the theorem's bound on the "
            "cumulative loss after that round, and the weights it used." + note)


def weights_bar(a: WMvsHedgeAnalysis) -> str:
    rwm_beta = 1 - a.rwm_eta
    same = math.isclose(rwm_beta, a.beta, abs_tol=1e-9)
    return ("All four masters' weights after the player's round. WM and RWM update alike (multiply a wrong "
            "expert's weight by β, resp. 1 − η)" + (", and here they share their weights (1 − η = β)" if same else
                                                    f"; here β = {a.beta:.3g} and 1 − η = {rwm_beta:.3g}")
            + ". Hedge with 0/1 losses is RWM with 1 − η replaced by e^(−η).")


def cumulative(a: WMvsHedgeAnalysis) -> str:
    wm = a.traces["WM"].n_mistakes
    ratio = "" if not a.m_star else f", {a.wm_ratio:.2f} times the best expert's {a.m_star}"
    return ("Dotted black: the best expert's mistakes so far (in hindsight). Deterministic WM made "
            f"{count(wm, 'mistake')}{ratio}; RWM expected {a.rwm_expected_cum[-1]:.1f} and Hedge's expected loss is "
            f"{a.traces['Hedge'].total_loss:.1f}."
            + ("" if a.wa_loss == "square" else " (WA's entropic loss is in nats, so it is only in the regret "
                                                 "chart.)"))


def regret(a: WMvsHedgeAnalysis) -> str:
    missing = [k for k, r in a.reports.items() if not r.applies]
    why = " ".join(a.reports[k].why_not for k in missing)
    return ("Each master's regret L_t − min_i L_t,i (solid) under its theorem's bound (dashed); the shaded ribbon "
            "is the room the bound leaves. m\\*_t is the best expert's mistakes after t rounds; RWM's and Hedge's "
            "regret is on their expected loss, the quantity their theorems bound. " + why)


def adversary(a: WMvsHedgeAnalysis) -> str:
    wm = a.traces["WM"].n_mistakes
    if a.m_star:
        ratio = f"a ratio of {a.wm_ratio:.2f}"
        if a.beta > 0 and a.T % 2 == 0:
            ratio += ": exactly 2, as it is for every 0 < β < 1 with two experts and T even"
        elif a.beta > 0:
            ratio += " (T is odd, so the better expert errs ⌊T/2⌋ times)"
        else:
            ratio += ": with β = 0 WM is Halving and crosses both experts out early, so the best expert errs once"
    else:
        ratio = "the best expert never erred"
    return (f"**Exercise 3.1 on screen.** WM made {count(wm, 'mistake')} in {a.T} rounds, the best expert {a.m_star}: "
            f"{ratio}. WM always errs at least twice as often as the best expert here, since the two experts share "
            f"WM's {count(wm, 'mistake')}. RWM's expected mistakes {a.rwm_expected_cum[-1]:.1f} and Hedge's expected loss "
            f"{a.traces['Hedge'].total_loss:.1f} stay close to the best expert: the stream was fixed before their "
            "coins were flipped.")


def sweep(sw: HedgeSweep) -> str:
    worst = float((sw.expected - sw.bound).max())
    head = (f"Hedge's regret after T = {sw.T} rounds for {SWEEP_POINTS} learning rates around "
            f"η* = {sw.eta_star:.3g}. ")
    if sw.generated:
        body = (f"The solid line is the expected (HA-1) regret Σ v_t·ℓ_t − min_i L_i averaged over {len(sw.seeds)} "
                f"generated streams (seeds {sw.seeds[0]}–{sw.seeds[-1]}), the band its lowest to highest. ")
    else:
        over = int((sw.sampled > sw.bound).any(axis=0).sum())
        body = ("On this fixed stream the expected (HA-1) regret Σ v_t·ℓ_t − min_i L_i is one number per η "
                f"(solid); the orange band spans {len(sw.seeds)} sampled (HA-2) runs. The theorem bounds the "
                "expectation, not one draw: a single draw may exceed the bound"
                + (f", as some do here at {over} of the {SWEEP_POINTS} rates. " if over else ". "))
    mean = sw.expected.mean(axis=0)
    mid = int(abs(sw.etas / sw.eta_star - 1).argmin())
    return (head + body + "The dashed bound ln n/η + ηT/2 is smallest at η*, where it equals √(2T ln n); the expected "
            f"regret stays below it at every η (closest approach {-worst:.3g} below). Small η learns slowly (the "
            "ln n/η term), large η chases the latest leader (the ηT/2 term): here the expected regret is "
            f"{mean[0]:.3g} at η = {sw.etas[0]:.2g}, {mean[mid]:.3g} at η* and {mean[-1]:.3g} at η = {sw.etas[-1]:.2g}. "
            "Only near η* is the bound itself small, whatever the stream.")


CONSTANTS = ("The two constants of WM's bound as β varies: at β = 1/e both equal 2.63. No β brings the factor a "
             "below 2, and exercise 3.1 shows why: a deterministic master can be made to err every round while "
             "the better of two constant experts errs at most half the time.")
WM_PROOF = ("WM's total weight W_t (log scale) never leaves the corridor: it stays above the best expert's weight "
            "β^M_i and below n((1+β)/2)^M, which drops at every WM mistake. The corridor can only stay open for so "
            "many mistakes: that is the bound.")


def hedge_proof(a: WMvsHedgeAnalysis) -> str:
    return (f"Hedge against u = the best expert (E{a.i_star + 1}): the relative entropy d(u, v_t) starts at "
            f"ln n = {math.log(a.n):.3g} and falls as weight moves to u. Summing the per-round inequality, the "
            "regret to u stays under (d(u,v₁) − d(u,v_t+1))/η + (η/2)Σ v·ℓ²; bounding d by ln n and Σ v·ℓ² by t "
            "gives the theorem.")


# -- captions of the notes' further forms ------------------------------------------------------------------------------------------
def cmu_forms(ta: TuningAnalysis) -> str:
    M, ucl, cmu = int(ta.wm_mistakes[-1]), ta.ucl.value, ta.cmu.value
    same = "" if math.isclose(1 - ta.eta, ta.beta, abs_tol=1e-9) else (
        f" (This WM runs at β = 1 − η = {1 - ta.eta:.3g}, not at the page's β = {ta.beta:.3g}.)")
    return (f"One run of WM with β = 1 − η = {1 - ta.eta:.3g}: {count(M, 'mistake')} in {ta.T} rounds; the best expert made "
            f"{int(ta.best_cum[-1])}. The UCL form allows {ucl:.4g}, the CMU form 2 ln n/η + 2(1 + η)m* allows "
            f"{cmu:.4g}. The CMU form is the UCL bound loosened by two inequalities, so its curve never runs below "
            f"the UCL one." + same)


def regret_forms(ta: TuningAnalysis) -> str:
    m = int(ta.best_cum[-1])
    return (f"At η = {ta.eta:.3g}: WM's regret is {float(ta.wm_regret[-1]):.4g} under form (1), "
            f"{ta.form1.value:.4g}; RWM's expected regret is {float(ta.rwm_regret[-1]):.4g} under form (2), "
            f"{ta.form2.value:.4g}. Form (1) contains m* = {m} itself, whatever η, so it grows like the best "
            f"expert's mistakes; form (2) contains only η·m*.")


def average_regret(ta: TuningAnalysis) -> str:
    T, tuned, fixed, wm = ta.T, float(ta.tuned_avg[-1]), float(ta.fixed_avg[-1]), float(ta.wm_avg[-1])
    p = float(ta.best_cum[-1]) / T
    which = ("here the run tuned to T has the smaller regret per round" if tuned < fixed else
             "on this stream the fixed η's measured regret per round is the smaller one (the noisy experts are "
             "benign; try the WM adversary): the theorems are guarantees for every stream, not predictions")
    return (f"After T = {T} rounds: WM's regret per round is {wm:.3g}, and its bound (1)/T never falls below "
            f"m*/T = {p:.3g}; RWM at the fixed η = {ta.eta:.3g} has {fixed:.3g}, under a bound that tends to "
            f"η·m*/t, not to 0. Green: RWM re-run on the first T' rounds with η = 1/√T' (at most 1/2); at T' = {T} "
            f"(η = {float(ta.tuned_etas[-1]):.3g}) its regret per round is {tuned:.3g}, under "
            f"(m*/√T + √T ln n)/T = {float(ta.tuned_avg_bound[-1]):.3g}, which tends to 0 as T grows. So {which}. "
            "Bounds above the axis at small t are cut off.")


def two_regret(ta: TuningAnalysis) -> str:
    a, _ = weighted_majority_constants(ta.beta)
    fixed = (f"At the fixed β = {ta.beta:.3g}, a(β) = {a:.3g} > 2, so the bound (a(β) − 2)m*_t + b(β) ln n grows "
             "linearly with the best expert's mistakes." if ta.two_bound_fixed is not None else
             "At β = 0 with no perfect expert the fixed-β bound is infinite (not drawn).")
    return (f"WM re-run on the first T' rounds with β_T' = 1 − √(ln n/T'): at T' = {ta.T}, β_T = "
            f"{float(ta.two_betas[-1]):.4g} and M − 2m* = {int(ta.two_regret[-1])}, under the UCL form's "
            f"{float(ta.two_bound_ucl[-1]):.4g} and 4√(T ln n) = {float(ta.two_bound[-1]):.4g} (sublinear in T). "
            + fixed)


def scaled_hedge(sh: ScaledHedge) -> str:
    if math.isclose(sh.B, 1.0):
        return ("B = 1: both runs are the notes' Hedge at η*, under √(2T ln n). Choose a larger B to see the "
                "difference.")
    return (f"The 0/1 losses times B = {sh.B:g}. Hedge at η*/B has the weights of Hedge at η* on the losses "
            f"divided by B, so its regret {float(sh.regret[-1]):.4g} is B times that run's, under "
            f"B√(2T ln n) = {sh.report.value:.4g}. Left at η* = {sh.eta_star:.3g}, Hedge's regret is "
            f"{float(sh.naive_regret[-1]):.4g}; the proof then only gives ln n/η* + η*B²T/2 = "
            f"{sh.naive_report.value:.4g} (B² where the rescaled run has B).")


def wa_equality(we: WAEquality) -> str:
    return (f"Top: in every round the regret to u = E{we.i_star + 1} (the best expert in hindsight, dots) equals the "
            f"drop of the relative entropy d(u, v_t) (line); the largest difference over the {we.T} rounds is "
            f"{we.gap:.1e}, rounding. Bottom: summed, the regret is d(u, v₁) − d(u, v_t+1) = ln n − d(u, v_t+1), so it "
            f"never exceeds ln n = {math.log(we.n):.4g}; after the last round d(u, v_T+1) = {max(0.0, float(we.d[-1])):.3g}. "
            f"The advice is softened to {EPS} + {1 - 2 * EPS:.1f}·x so no log loss is infinite.")


#: The CMU section's views, one at a time (a projector shows one idea, a rerun stays fast).
TUNING_TOPICS = ["UCL and CMU forms", "Regret forms (1), (2)", "η tuned to T", "Problems 3.2"]
HELP_TUNING = ("Which view of the CMU notes to draw: WM's bound in its UCL and CMU forms on one run, the regret "
               "forms (1) and (2) of WM and RWM, the average regret per round as η is tuned to the horizon T, or "
               "Problems 3.2's β_T that makes WM's 2-regret sublinear. One at a time, on the stream above.")


# -- the lecture: scenes in the notes' order (UCL COMP0078, then the CMU 16-831 recap), with questions ----------


def _scene(**kw) -> dict:
    """Every setting the page reads, so a link to the scene and a walk through the tour show the same run."""
    return {**_NOISY, "heat": "WM", "tuning": TUNING_TOPICS[0], "further": TOPIC_TUNING, **kw}


_WM = _scene(seed=2)
_EX31 = _scene(stream=ADVERSARY, T=400)
_CMU = _scene(rwm_eta=0.5, beta=0.5)                  # the CMU notes' WM: β = 1 − η
_NOREGRET = _scene(stream=ADVERSARY, T=2000, tuning=TUNING_TOPICS[2])
_P32 = _scene(T=2000, tuning=TUNING_TOPICS[3])
_WA = _scene(heat="WA")
_WA_PROOF = _scene(heat="WA", wa_loss="entropic", wa_eta=1.0)
_HEDGE = _scene(T=1000, heat="Hedge")
_SCALED = _scene(T=1000, heat="Hedge", B=100.0, further=TOPIC_B)
_LEADER_AT = 50
_LEADER_EDGES = (1, 2, 6)
_TOP_EDGES = (0.0, 0.25, 0.5, 0.9)


def _leader_q(a: WMvsHedgeAnalysis) -> str:
    return (f"After {_LEADER_AT} rounds, which expert will Weighted Majority (β = {a.beta:.3g}) give the most "
            "weight? Expert i errs with probability rising from 30% (E1) to 50% (E10).")


def _leader_why(a: WMvsHedgeAnalysis) -> str:
    M = lesson.expert_mistakes(a, _LEADER_AT)
    i = lesson.heaviest(a, "WM", _LEADER_AT)
    v = lesson.top_weight(a, "WM", _LEADER_AT)
    text = (f"After {_LEADER_AT} rounds E{i} has made {M[i - 1]} mistakes, the fewest"
            + (f"; E1, the best on average, made {M[0]}" if i != 1 else "") + ". WM's weight of expert i is "
            r"$\beta^{M_i}$ (normalised), so the expert with the fewest mistakes *so far* leads: "
            f"E{i} holds {v:.0%} of the weight")
    if i != 1:
        text += (f", and E1 has $\\beta^{{{M[0] - M[i - 1]}}}$ = {a.beta ** (M[0] - M[i - 1]):.2g} times as much. Fifty "
                 "rounds are too few to tell the 30% expert from a worse one: WM follows the best in hindsight")
    return text + ". The bound is about the best expert in hindsight, whoever that turns out to be."


def _wa_q(a: WMvsHedgeAnalysis) -> str:
    return (f"Weighted Average predicts the weighted mean of the advice, square loss, η = {a.wa_eta:g}. After "
            f"{a.T} rounds, where will its regret to the best expert land against the bound "
            f"ln n/η = {a.reports['WA'].value:.3g}?")


def _wa_why(a: WMvsHedgeAnalysis) -> str:
    r = lesson.final_regret(a, "WA")
    wa = a.traces["WA"]
    best = float(wa.expert_losses.sum(axis=0).min())
    text = (f"L_WA = {wa.total_loss:.4g} against the best expert's {best:.4g}: regret {r:.4g}, under "
            f"ln n/η = {a.reports['WA'].value:.3g} as the theorem guarantees. ")
    if r < 0:
        text += ("It is negative: predicting a *mean* of noisy 0/1 advice, WA pays less square loss than any single "
                 "expert, which pays 1 on each of its mistakes. The bound is an upper bound only.")
    return text


def _hedge_q(a: WMvsHedgeAnalysis) -> str:
    return (f"Hedge at η* = √(2 ln n/T) = {a.hedge_eta:.3g} spreads a unit of money over the {a.n} experts. After "
            f"{a.T} rounds, how much will it have on its favourite expert?")


def _hedge_why(a: WMvsHedgeAnalysis) -> str:
    i, v = lesson.heaviest(a, "Hedge", a.T), lesson.top_weight(a, "Hedge")
    M = lesson.expert_mistakes(a, a.T)
    second = sorted(M)[1]
    return (f"E{i} ends with {v:.1%} of the money. Hedge's weights are " r"$e^{-\eta L_i}$" f" normalised: E{i} made "
            f"{M[i - 1]} mistakes and the runner-up {second}, so the runner-up holds "
            f"$e^{{-{a.hedge_eta:.3g}\\cdot {second - M[i - 1]}}}$ = "
            f"{math.exp(-a.hedge_eta * (second - M[i - 1])):.2g} times E{i}'s weight. A small η learns slowly, but a "
            "gap in losses that grows linearly in T wins in the end, while the regret stays under √(2T ln n).")


LECTURE = [
    Scene("Weighted Majority: shrink, don't cross out", _WM, t=0, narration=(
        "No expert is perfect now, so Halving would cross everyone out. **Weighted Majority** keeps every expert with "
        "a weight, predicts the **weighted vote**, and multiplies the weight of each wrong expert by **β** "
        "(here 1/e). The heat map shows WM's normalised weights round by round; the bars, all four masters' "
        f"weights at the player's round. ({UCL})"),
        question=Question(_leader_q, "choice", lesson.heaviest_band, args=("WM", _LEADER_AT, _LEADER_EDGES),
                          options={0: "E1, the best on average", 1: "one of E2 to E5", 2: "one of E6 to E10"},
                          reveal=_LEADER_AT, explain=_leader_why)),
    Scene("WM's bound, and why no β beats 2 (exercise 3.1)", _EX31, t=None, narration=(
        r"**Theorem (WM).** For every expert $i$, $M \le a(\beta)\,M_i + b(\beta)\ln n$ with "
        r"$a = \frac{\ln(1/\beta)}{\ln(2/(1+\beta))}$ and $b = \frac{1}{\ln(2/(1+\beta))}$; at $\beta = 1/e$ both "
        "are 2.63. **Exercise 3.1**: two constant experts and an outcome that "
        "always contradicts WM's vote. WM errs every round, the two experts share those mistakes, so the better one "
        "errs at most half the time: no deterministic master gets a factor below 2. "
        "Look at the cumulative losses: WM's line is twice the best expert's."
        f" ({UCL}, problem 3.1)")),
    Scene("The CMU form beside the UCL form", _CMU, t=None, narration=(
        r"The CMU notes write WM with weights multiplied by $1 - \eta$ ($\eta \le 1/2$) and the bound "
        r"$M \le \frac{2\ln N}{\eta} + 2(1+\eta)\,m^*$. It is the UCL bound at $\beta = 1 - \eta$ loosened by "
        r"$\ln\frac{1}{1-\eta/2} \ge \frac{\eta}{2}$ and $\ln\frac{1}{1-\eta} \le \eta + \eta^2$, so its curve never runs below the UCL one. *Going "
        f"further*, *{TOPIC_TUNING}*: both forms on one run at η = 1/2. ({CMU})")),
    Scene("WM is not no-regret; RWM with η = 1/√T is", _NOREGRET, t=None, narration=(
        r"Regret form (1): WM's $M - m^* \le m^* + 2\eta m^* + \frac{2\ln N}{\eta}$ keeps the term $m^*$ for every "
        "η, and on the WM adversary WM's regret per round stays at 1/2. **Randomized WM** follows one expert drawn "
        r"by weight: form (2), $\mathbb E[M] - m^* \le \eta m^* + \frac{\ln N}{\eta}$. With $\eta = 1/\sqrt T$ "
        r"this is at most $\sqrt T(1 + \ln N)$, so the regret per "
        f"round falls to 0. In *η tuned to T*, the green curve re-runs RWM for each horizon T. ({CMU})")),
    Scene("Problems 3.2: let β_T tend to 1", _P32, t=None, narration=(
        r"Can WM be tuned so that its **2-regret** $M - 2m^*$ grows sublinearly? No fixed β: $a(\beta) > 2$, so "
        r"$(a(\beta) - 2)\,m^*$ grows with $m^*$. Take $\beta_T = 1 - \eta_T$ with $\eta_T = \sqrt{\ln n/T}$: the CMU "
        r"form gives $M - 2m^* \le 2\eta_T m^* + \frac{2\ln n}{\eta_T} \le 4\sqrt{T\ln n}$. The *Problems 3.2* view re-runs WM at β_T for each "
        f"horizon. ({UCL}, problem 3.2)")),
    Scene("Weighted Average: predict the mean", _WA, t=0, narration=(
        r"Outcomes in [0, 1]: the master predicts the **weighted average** of the advice, $\hat y = \mathbf v\cdot\mathbf x$, "
        r"and updates $v_i \propto v_i\,e^{-\eta L(y, x_i)}$. **Theorem**: for the square loss with η ≤ 1/2 (entropic: η ≤ 1), the regret to "
        f"the best expert is at most **ln n/η**, however long the stream. ({UCL})"),
        question=Question(_wa_q, "choice", lesson.regret_vs_bound, args=("WA",),
                          options={-1: "below 0: it beats every expert", 0: "between 0 and the bound",
                                   1: "above the bound"}, explain=_wa_why)),
    Scene("The proof: progress equals regret", _WA_PROOF, t=None, narration=(
        "Entropic loss, η = 1. For every comparator u and every round, "
        r"$L(y_t, \hat y_t) - \mathbf u\cdot\boldsymbol\ell_t = d(\mathbf u, \mathbf v_t) - d(\mathbf u, \mathbf v_{t+1})$: "
        "an *equality*, the regret paid is the relative entropy the weights lose. Summed, it telescopes to "
        r"$d(\mathbf u, \mathbf v_1) - d(\mathbf u, \mathbf v_{T+1}) \le d(\mathbf u, \mathbf v_1) = \ln n$. "
        f"*The proofs, watched*, bottom chart: dots and line coincide round by round. ({UCL})")),
    Scene("Hedge: spread a unit of money", _HEDGE, t=0, narration=(
        r"**Hedge** puts $v_{t,i}$ of a unit on each expert, pays the expected loss $\mathbf v_t\cdot\boldsymbol\ell_t$ and "
        r"updates $v_i \propto v_i\,e^{-\eta\ell_{t,i}}$. **Theorem [LW94, FS97]**: "
        r"$\mathbb E[L_{HA}] - \min_i L_i \le \frac{\ln n}{\eta} + \frac{\eta m}{2}$, which at "
        r"$\eta^* = \sqrt{2\ln n/m}$ is $\sqrt{2m\ln n}$. " f"({UCL})"),
        question=Question(_hedge_q, "choice", lesson.top_weight_band, args=("Hedge", None, _TOP_EDGES),
                          options={0: "less than a quarter", 1: "a quarter to a half", 2: "a half to 90%",
                                   3: "more than 90%"}, explain=_hedge_why)),
    Scene("Losses in [0, B]", _SCALED, t=None, narration=(
        r"The question after Hedge's proof: what if losses lie in **[0, B]**? Divide them by $B$: Hedge at $\eta^*/B$ on "
        r"$\ell$ has the weights of Hedge at $\eta^*$ on $\ell/B$, so its regret is at most $B\sqrt{2m\ln n}$. Left at "
        r"$\eta^*$, the proof's step $e^{-x} \le 1 - x + x^2/2$ still holds, but $\sum_i v_i\ell_i^2 \le B^2$ gives "
        r"$\frac{\ln n}{\eta^*} + \frac{\eta^* B^2 m}{2}$. "
        f"*Going further*, *Losses in [0, B]*, B = 100. ({UCL})")),
]

CONTENT = Content(presets=tuple(PRESETS), lecture=tuple(LECTURE), lecture_run="analyse", help=MappingProxyType(vars(HELP)))
