"""The kernel Perceptron lesson's content: lecture presets, help texts and captions computed from the run.

Every caption takes an analysis of :mod:`olcore.lessons.kernel_perceptron` and states what the run shows,
for any stream, kernel and budget the page offers.
"""

from __future__ import annotations

from types import MappingProxyType, SimpleNamespace

import numpy as np

from olapp.content import Content
from olcore.claims import Text, claim, text
from olcore.lessons.kernel_perceptron import BudgetRun, BudgetSweep, FactRun, KernelAnalysis, kernel_name
from olcore.linear import supports_at

from olcore.lessons import kernel_perceptron as lesson

from ..controls import Preset
from ..lecture import Question, Scene

NOTES = "Cesa-Bianchi, On-line learning, Kernel-based on-line learning"

#: The kernel selector's options (also the URL values) and the kernel each names.
KERNELS = {"Gaussian": "rbf", "polynomial": "poly", "linear": "linear"}
GAMMAS = [0.5, 1.0, 2.0, 5.0, 10.0, 20.0]
COEF0S = [0.0, 0.5, 1.0, 2.0]
BUDGETS = [1, 2, 3, 5, 8, 10, 15, 20, 30, 50, 100]
#: The budget sweep: budgets, seeds and rounds of its stationary and drifting streams.
SWEEP_BS = (2, 5, 10, 20, 50, 100)
SWEEP_SEEDS = (0, 1, 2)
SWEEP_T = 1000
#: Rounds of the Fact's sequence, in cycles of B + 1 rounds.
FACT_CYCLES = 30
#: Points per side of the decision region's grid (drawn smoothed: at 41 the picture is that of 61 points,
#: and a play's frames carry one grid per mistake).
GRID = 41

_BASE = {"stream": "XOR", "T": 200, "seed": 0, "kernel": "Gaussian", "rbf_gamma": 2.0, "degree": 2, "coef0": 1.0}

PRESETS = [
    Preset("XOR with the Gaussian kernel",
           f"{NOTES}, Kernel Perceptron: no line separates XOR, yet with K(x, x') = exp(−2‖x − x'‖²) the kernel "
           "Perceptron makes only a handful of mistakes, each one a support, under (R_K/γ_K)².",
           {**_BASE, "B": 5}),
    Preset("XOR with the linear kernel: no margin",
           f"{NOTES}: with K(x, x') = x·x' the kernel Perceptron is the Perceptron, no separator through the origin "
           "exists, so Novikoff's assumption fails and the mistakes grow with T.",
           {**_BASE, "kernel": "linear", "B": 5}),
    Preset("XOR with a degree-2 polynomial kernel",
           f"{NOTES}: (x·x' + 1)² contains the feature x₁x₂, which separates XOR; but the margin in that RKHS is "
           "small against R_K, so the bound (R_K/γ_K)² is large: here larger than the T = 200 rounds played.",
           {**_BASE, "kernel": "polynomial", "degree": 2, "coef0": 1.0, "B": 5}),
    Preset("Rings: a narrow kernel",
           f"{NOTES}: a larger γ makes K more local, so each support speaks only for its neighbourhood (R_K = 1 for "
           "every γ, as K(x, x) = 1). The margin γ_K, and so the bound (1/γ_K)², is not monotone in γ: on this "
           "stream γ = 10 gives the largest margin and the smallest bound of the widths offered, and γ = 20 a "
           "smaller margin and a larger bound (the theorem box has this γ's numbers).",
           {**_BASE, "stream": "Rings", "rbf_gamma": 10.0, "B": 5}),
    Preset("A tight budget: B = 3 on the moons",
           f"{NOTES}, A randomized perceptron: with B = 3 supports the cache is full after three mistakes, and each "
           "later mistake throws a random support away: the mistakes keep coming.",
           {**_BASE, "stream": "Moons", "T": 400, "B": 3}),
    Preset("The Fact with B = 5",
           f"{NOTES}, Memory bounded learning (Fact): on the sequence below, 5 supports give at least one mistake in "
           "every 6 rounds, without end; 6 supports give 6 mistakes in all.",
           {**_BASE, "B": 5, "T": 300}),
]

SOURCES = {
    "XOR": "points in the four quadrants (none within 0.1 of an axis), y = sign(x₁x₂).",
    "Rings": "a disc of radius 0.45 labelled +1 inside a ring from 0.7 to 1 labelled −1.",
    "Moons": "two interleaved half circles with a little Gaussian jitter.",
}

HELP = SimpleNamespace(
    T="Number of points T, one per round.",
    kernel="The kernel K(x, x') = ⟨φ(x), φ(x')⟩: the learner works in its RKHS. Gaussian exp(−γ‖x − x'‖²), "
           "polynomial (x·x' + c₀)ᵖ, or linear x·x' (the plain Perceptron).",
    rbf_gamma="γ of the Gaussian kernel exp(−γ‖x − x'‖²): larger is more local (each support matters only nearby). "
              "URL key rbf_gamma (the key gamma is a margin on other lessons).",
    degree="Degree p of the polynomial kernel (x·x' + c₀)ᵖ.",
    coef0="The constant c₀ ≥ 0 of the polynomial kernel.",
    B="The budget: the Randomized Budget Perceptron keeps at most B supports; on a mistake with a full cache it "
      "throws a random one away. The Fact below is played against the same B.",
    upload="An uploaded stream: one row per round, features then y ∈ {−1, +1}. The decision region is drawn for two "
           "features; the budget sweep runs on generated XOR streams.",
)

INTRO = (
    "A **kernel** $K(\\mathbf x, \\mathbf x') = \\langle\\phi(\\mathbf x), \\phi(\\mathbf x')\\rangle$ lets the Perceptron "
    "run in a feature space it never writes down (the RKHS): it keeps the mistaken examples as **supports** "
    "$\\mathcal L$ and predicts $\\hat y_t = \\mathrm{SGN}\\big(\\sum_{s\\in\\mathcal L} y_s K(\\mathbf x_s, \\mathbf x_t)\\big)$, "
    "adding $(\\mathbf x_t, y_t)$ to $\\mathcal L$ on each mistake. Novikoff's bound holds in the RKHS, so a stream no "
    "line separates, but some unit $f$ of the RKHS separates with margin $\\gamma_K$, is learned with at most "
    "$(R_K/\\gamma_K)^2$ mistakes. But the memory grows with the mistakes: "
    "with a **budget** of $B$ supports, the **Fact** says some sequence defeats every learner that keeps $B$ "
    "supports, and the "
    "**Randomized Budget Perceptron** throws a random support away when its cache is full."
)


def _n(x: float) -> str:
    return f"{x:.4g}"


def status(a: KernelAnalysis, t: int) -> str:
    M = int(a.trace.extras["M"][t])
    if t == 0:
        return "Before round 1: the cache is empty, f₁ = 0, every score is 0 (a mistake). Step forward."
    s = a.trace.extras["score"][t - 1]
    was = "a **mistake**: (x_t, y_t) becomes a support" if a.trace.mistakes[t - 1] else "correct: the cache stays"
    return (f"Round **{t}** of {a.T}: f_t(x_t) = {s:.3g}, y_t = {int(a.y[t - 1]):+d}, {was}. Supports so far: **{M}** "
            f"(the mistakes).")


def region(a: KernelAnalysis, run: BudgetRun | None, t: int) -> str:
    """The decision region's caption at round ``t``: of the kernel Perceptron (``run`` None) or of the budget
    learner of ``run``."""
    learner = "the kernel Perceptron" if run is None else f"the budget learner (B = {run.B})"
    supports = len(supports_at(a.trace if run is None else run.trace, t))
    return (f"The sign of f_{t + 1}(x) = Σ_(s∈L) y_s K(x_s, x) of {learner} after {t} rounds: blue where it predicts "
            f"+1, orange where −1, the black line is f = 0. The {supports} supports in the cache are ringed; the "
            "faded points are still to come. " + kernel_name(*a.kernel) + ".")


def not_2d(d: int) -> str:
    return f"The decision region is drawn for 2 features; this stream has {d}."


def mistakes(a: KernelAnalysis, t: int | None = None) -> Text:
    """The mistakes chart's caption; with ``t`` (the player's round) it counts the mistakes of rounds 1..t."""
    t = a.T if t is None else min(max(int(t), 0), a.T)
    M = int(a.trace.extras["M"][t])
    head = (f"M_T = {a.M} mistakes in {a.T} rounds" if t == a.T else f"M_{t} = {M} mistakes in the first {t} of "
            f"{a.T} rounds") + f"; R_K = {_n(a.R)}. {a.margin_note} "
    if not a.bound.applies:
        return text(head, "No bound is drawn: its assumption fails (see the theorem box).")
    # (to rounding: a tight stream, two equal points, has M = 1 = (R_K/γ_lo)² computed as 0.9999999999999998)
    holds = claim("so it holds", M <= a.bound.value * (1 + 1e-9), f"M_{t} ≤ (R_K/γ_lo)²")
    return text(head, f"The bound drawn is (R_K/γ_lo)² = {_n(a.bound.value)} ≥ (R_K/γ_K)²: it uses the margin of a "
                "separator that exists, ", holds, f"; {'the run' if t == a.T else 'so far the run'} used "
                f"{100 * M / a.bound.value:.2g} % of it.")


def run_line(a: KernelAnalysis) -> str:
    return (f"This run: **M = {a.M}** mistakes with {kernel_name(*a.kernel)}; the learner stores {a.M} supports, one "
            "per mistake.")


def download_columns(a: KernelAnalysis) -> str:
    """What the download's ``prediction`` column and the columns after ``mistake`` hold
    (:func:`olcore.lessons.kernel_perceptron.download_trace`)."""
    out = ("the kernel Perceptron's ŷ_t = sgn f_t(x_t), 0 when f_t(x_t) = 0, which counts as a mistake; after "
           "mistake come score (f_t(x_t) = Σ_(s∈L) y_s K(x_s, x_t)), supports (|L| before the round: the mistakes so "
           "far) and dual_coef (α_t in the final f = Σ_t α_t K(x_t, ·): y_t if x_t is a support, else 0)")
    if a.kernel[0] == "linear":
        return out + "; with the linear kernel f_t(x) = w_t·x, and the w columns hold w_t = Σ_(s∈L) y_s x_s"
    return out + "; no weight columns: f_t lives in the RKHS of K, not in the plane"


PROOF_INTRO = ("The Perceptron's proof, read in the RKHS with f_t = Σ_(s∈L) y_s φ(x_s): each mistake adds at most R_K² "
               "to ‖f‖² (since y_t f_t(x_t) ≤ 0), and at least γ to ⟨f, u⟩ for the unit separator u. So "
               "M γ ≤ ⟨f, u⟩ ≤ ‖f‖ ≤ √M R_K, and M ≤ (R_K/γ)².")


def proof(a: KernelAnalysis) -> Text:
    if not a.bound.applies:
        return "Without a separator in the RKHS there is no u, and only the upper squeeze ‖f_t‖ ≤ √M_t R_K remains."
    norm, upper = float(np.sqrt(max(a.trace.extras["norm_sq"][-1], 0.0))), float(np.sqrt(a.M) * a.R)
    dot, lower = float(a.f_dot_u[-1]), float(a.M * a.gamma_lo)
    tol = 1e-9 * max(upper, norm, abs(dot), lower)      # rounding, relative to the numbers compared (any scale)
    return text(f"u is the certificate's separator (margin γ_lo = {_n(a.gamma_lo)}). After the run ",
                claim(f"‖f‖ = {norm:.4g} ≤ √M R_K = {upper:.4g}", norm <= upper + tol, "‖f_T‖ ≤ √M R_K"), " and ",
                claim(f"⟨f, u⟩ = {dot:.4g} ≥ M γ_lo = {lower:.4g}", dot >= lower - tol, "⟨f_T, u⟩ ≥ M γ_lo"),
                ": with ⟨f, u⟩ ≤ ‖f‖ the two bounds cannot cross, which caps M.")


def budget_status(b: BudgetRun, t: int) -> str:
    tr = b.trace
    ev = int(tr.extras["evicted"][:t].sum())
    return (f"After {t} rounds: **{int(tr.extras['M'][t])}** mistakes with B = {b.B} supports "
            f"({ev} evictions), **{int(b.free.extras['M'][t])}** without a budget.")


def cache(b: BudgetRun, t: int | None = None) -> str:
    """The cache chart's caption; with ``t`` (the player's round) it tells rounds 1..t only."""
    tr = b.trace
    T = tr.T
    t = T if t is None else min(max(int(t), 0), T)
    full = np.flatnonzero(tr.extras["cache_size"][:t + 1] == b.B)
    when = f"full from round {int(full[0])} on" if full.size else ("never full" if t == T else "not full yet")
    n_ev = int(tr.extras["evicted"][:t].sum())
    ev = (f"crosses mark the {n_ev} mistakes that threw a random support away" if n_ev
          else "no mistake had to throw a support away" + ("" if t == T else " yet"))
    free = int(b.free.extras["M"][t])
    return (f"|L_t| before each round: the budgeted cache is {when} (pinned at B = {b.B} once full); {ev}. "
            "Without a budget the cache is every "
            f"mistake so far: {free} supports {'at the end' if t == T else f'after {t} rounds'}.")


def sweep(s: BudgetSweep) -> str:
    st, dr = s.stationary.mean(0), s.drifting.mean(0)
    fs, fd = s.free_stationary.mean(), s.free_drifting.mean()
    return (f"Mean mistakes over {len(s.stationary)} seeds of T = {s.T} rounds ({s.source}): stationary (the stream as "
            f"above) and drifting (its labels flip {s.switches} times). With B = {s.Bs[0]} the budget learner makes "
            f"{st[0]:.4g} and {dr[0]:.4g}; with B = {s.Bs[-1]}, {st[-1]:.4g} and {dr[-1]:.4g}; without a budget "
            f"{fs:.4g} and {fd:.4g} (dashed). Once B exceeds every seed's unbudgeted mistake count "
            f"({int(s.free_stationary.max())} stationary, {int(s.free_drifting.max())} drifting) the cache never fills "
            "and the budget changes nothing. The notes: with B = (1 + ε)U² supports the bound on the mistakes "
            "scales roughly with 1 + 1/ε.")


def fact(f: FactRun) -> Text:
    B = f.B
    tail = int(f.more.mistakes[B + 1:].sum())
    every = claim(f"the learner errs at least once in every {B + 1} consecutive rounds", f.sparsest_window >= 1,
                  f"every window of B + 1 = {B + 1} rounds holds a mistake (the sparsest holds {f.sparsest_window})")
    growing = claim(f"still growing ({f.last_window} in the last {B + 1} rounds)", f.last_window >= 1,
                    "a mistake in the last B + 1 rounds")
    return text(f"The sequence cycles through the B + 1 = {B + 1} unit vectors e_i of ℝ^{B + 1}, each with a fixed "
                f"label; u = Σ y_i e_i has zero hinge loss and ‖u‖ = √{B + 1}. With B = {B} supports some e_j is "
                "always missing from the cache, its score is 0, and, since the cache changes only on mistakes, ",
                every, ": "
                f"{f.budget.n_mistakes} mistakes in {f.stream.T} rounds, ", growing, f". With {B + 1} supports: "
                f"{f.more.n_mistakes} mistakes, {tail} after round {B + 1}.")


# ---- the lecture: the notes' order (kernel Perceptron, bounds in the RKHS, memory: the Fact, the budget) ------
#: The lecture's questions read the budget run (the kernel Perceptron without a budget is its ``free`` trace).
LECTURE_RUN = "budget_run"

_XOR_RBF = {**_BASE, "B": 5}
_XOR_LINEAR = {**_BASE, "kernel": "linear", "B": 5}
_MOONS_TIGHT = {**_BASE, "stream": "Moons", "T": 400, "B": 3}
_MOONS_ROOMY = {**_BASE, "stream": "Moons", "T": 400, "B": 10}
_MISTAKE_EDGES = (0, 5, 21, 61)
_MISTAKE_OPTIONS = {0: "fewer than 5", 1: "5 to 20", 2: "21 to 60", 3: "more than 60"}


def _rounds(trace, k: int = 10) -> str:
    r = [int(i) + 1 for i in trace.mistakes.nonzero()[0]]
    return ", ".join(map(str, r[:k])) + (" …" if len(r) > k else "")


def _xor_why(b: BudgetRun) -> str:
    M, T = b.free.n_mistakes, b.free.T
    return (f"**{M}** mistakes in {T} rounds (rounds {_rounds(b.free)}): {M} supports. Each mistake stores a "
            "point, and with the Gaussian kernel a support speaks for its neighbourhood, so a few supports "
            "settle the sign of x₁x₂. Where the stream is separable with a margin γ_K in the RKHS, Novikoff's "
            "(R_K/γ_K)² caps the count however long the stream (the theorem box has this run's numbers).")


def _linear_why(b: BudgetRun) -> Text:
    M, T = b.free.n_mistakes, b.free.T
    last = int(np.flatnonzero(b.free.mistakes)[-1]) + 1 if M else 0
    late = claim(f"they keep coming to the end of the stream (the last in round {last} of {T})", last > 0.9 * T,
                 "a mistake in the last tenth of the rounds")
    return text(f"**{M}** mistakes in {T} rounds, {M / T:.0%} of them: with K(x, x') = x·x' the kernel Perceptron is "
                "the Perceptron, and no line through the origin separates XOR. Without a margin nothing bounds the "
                "mistakes: ", late, ", and every one is a support kept for ever.")


def _tight_prompt(b: BudgetRun) -> str:
    return (f"Without a budget the kernel Perceptron makes **{b.free.n_mistakes}** mistakes on these {b.free.T} "
            f"points. With a cache of only **B = {b.B}** supports, how many will the Randomized Budget Perceptron "
            "make?")


def _tight_why(b: BudgetRun) -> Text:
    tr, M = b.trace, b.free.n_mistakes
    fewer = claim(f"B = {b.B} supports are fewer than the {M} the kernel Perceptron keeps here", b.B < M,
                  "B < the unbudgeted mistakes")
    return text(f"**{tr.n_mistakes}** mistakes, against {M} without a budget; {len(b.evictions)} of them found the "
                "cache full and threw a random support away. ", fewer, ", and each eviction can undo what a support "
                "had learned. The notes' result uses B = (1 + ε)U² supports, U the norm of a good separator: then "
                "the bound on the mistakes scales roughly with 1 + 1/ε.")


def _roomy_why(b: BudgetRun) -> Text:
    M = b.free.n_mistakes
    if lesson.evicts(b):
        return text(claim(f"Yes: the kernel Perceptron makes {M} mistakes, more than B = {b.B}", M > b.B,
                          "the unbudgeted mistakes exceed B"),
                    f", so a mistake finds the cache full: {len(b.evictions)} mistakes evict a support.")
    return text(claim(f"No: the kernel Perceptron makes only {M} mistakes here, no more than B = {b.B}", M <= b.B,
                      "the unbudgeted mistakes are at most B"),
                ". Until a mistake finds the cache full the budget learner is the kernel Perceptron, so none ever "
                "does: ", claim(f"the same predictions, the same {b.trace.n_mistakes} mistakes",
                                bool((b.trace.predictions == b.free.predictions).all()) and
                                b.trace.n_mistakes == M, "the budget run equals the unbudgeted one"),
                ". A budget costs nothing once B is at least the mistakes, which Novikoff bounds by (R_K/γ_K)² when "
                "the stream has a margin in the RKHS.")


LECTURE = [
    Scene("The kernel Perceptron keeps supports", _XOR_RBF, t=0, narration=(
        "Cesa-Bianchi, On-line learning, part 5. No line separates **XOR**. The kernel Perceptron never writes "
        "w down: it keeps the mistaken examples as **supports** and predicts "
        "**ŷ = SGN(Σ_(s∈L) y_s K(x_s, x_t))**, here with the Gaussian kernel K(x, x') = exp(−2‖x − x'‖²). "
        "Step through: each mistake adds a ringed support and bends the boundary.")),
    Scene("How many supports for XOR?", _XOR_RBF, t=0, narration=(
        "Each mistake costs one support, so the mistakes are also the memory the learner will need. Predict "
        "before playing the stream."),
        question=Question("How many mistakes will the kernel Perceptron make on all 200 XOR points?", "choice",
                          lesson.free_mistakes_band, args=(_MISTAKE_EDGES,), options=_MISTAKE_OPTIONS,
                          explain=_xor_why)),
    Scene("Mistake bounds hold in the whole RKHS", _XOR_RBF, t=None, narration=(
        "**Theorem.** If K(x_t, x_t) ≤ R_K² and some f with ‖f‖_K = 1 has y_t f(x_t) ≥ γ_K for every t, the "
        "kernel Perceptron makes at most **(R_K/γ_K)²** mistakes. The proof is the Perceptron's, read with "
        "φ(x_t) for x_t: each mistake adds at most R_K² to ‖f‖² and at least γ_K to ⟨f, u⟩. The proof's chart "
        "draws both bounds on the run.")),
    Scene("The linear kernel: no margin", _XOR_LINEAR, t=0, narration=(
        "Same stream, K(x, x') = x·x': the kernel Perceptron is now the plain Perceptron, and no line through "
        "the origin separates XOR, so γ = 0 and Novikoff says nothing."),
        question=Question("How many mistakes will it make on the same 200 points with the linear kernel?", "choice",
                          lesson.free_mistakes_band, args=(_MISTAKE_EDGES,), options=_MISTAKE_OPTIONS,
                          explain=_linear_why)),
    Scene("Memory bounded learning: the Fact", _XOR_RBF, t=None, narration=(
        "The cache grows with every mistake. Can B supports be enough? **Fact**: there is a sequence that some "
        "u with zero hinge loss and ‖u‖ = √(B + 1) classifies perfectly, on which **any** learner with at most "
        "B supports errs for ever. So B ≥ U² supports are needed to compete with every u of norm U. Scroll to "
        "the Fact's chart: B = 5 supports against cycles of 6 unit vectors.")),
    Scene("The Randomized Budget Perceptron", _MOONS_TIGHT, t=0, narration=(
        "A **cache of B supports**: on a mistake with a full cache, throw away a support chosen at random, then "
        "store the new one. Two moons, 400 points, Gaussian kernel, **B = 3**."),
        question=Question(_tight_prompt, "choice", lesson.budget_mistakes_band, args=((0, 7, 21, 61),),
                          options={0: "6 or fewer: the budget costs nothing", 1: "7 to 20", 2: "21 to 60",
                                   3: "more than 60"}, explain=_tight_why)),
    Scene("A budget above the mistakes", _MOONS_ROOMY, t=0, narration=(
        "The same moons with **B = 10** supports. The budget learner is the kernel Perceptron until a mistake "
        "finds its cache full: only then does it throw a support away."),
        question=Question(lambda b: f"Will any mistake find the cache of B = {b.B} full and throw a support away?",
                          "choice", lesson.evicts, options={True: "yes", False: "no"}, explain=_roomy_why)),
]

CONTENT = Content(presets=tuple(PRESETS), lecture=tuple(LECTURE), lecture_run=LECTURE_RUN, help=MappingProxyType(vars(HELP)))
