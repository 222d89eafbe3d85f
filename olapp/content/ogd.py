"""The online gradient descent lesson's content: lecture presets, help texts and captions computed from the run.

Every caption takes an analysis of :mod:`olcore.lessons.ogd` and states what the run shows, for any
stream, loss, set and step size the page offers.
"""

from __future__ import annotations

from types import MappingProxyType, SimpleNamespace

import numpy as np

from olapp.content import Content
from olcore.claims import Text, claim, text
from olcore.lessons import ogd as lesson
from olcore.lessons.ogd import LOWER_BOUND_SOURCE, ExpertsAnalysis, KSweep, OGDAnalysis, Sweep, contour_every

from ..controls import Preset
from ..lecture import Question, Scene

NOTES = "Online gradient descent notes"

#: Losses each generated stream is made for (the first is its default); an upload may use any.
LOSSES = {"Separable": ["logistic", "hinge", "squared"], "Noisy": ["logistic", "hinge", "squared"],
          "Regression": ["squared"], "Adversarial": ["linear"],
          "Upload": ["logistic", "hinge", "squared", "linear"]}
LOSS_NAMES = {"logistic": "logistic ln(1 + e^(−y θ·x))", "hinge": "hinge [1 − y θ·x]₊",
              "squared": "squared (θ·x − y)²", "linear": "linear y θ·x"}
SETS = {"ball": "ball ‖θ‖ ≤ r", "box": "box |θᵢ| ≤ r", "simplex": "simplex Δ"}
ETA_MULTS = [0.0625, 0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0]
RADII = [0.25, 0.5, 1.0, 2.0]   # r = 4 with the hinge loss in d ≥ 10 makes θ* a slow solve (tens of seconds)
KS = [2, 3, 5, 10, 20, 50, 100, 200]
#: Prefixes whose best fixed point is solved for the prefix-best regret (each is a full solve).
PREFIX_POINTS = 10


#: Every learner's expected regret on the Adversarial stream in a box, as a share of D G √T, at the lecture's T.
_ADVERSARY_T = 1000
_ADVERSARY_SHARE = lesson.adversary_share(_ADVERSARY_T)
#: The lower bound's adversary, said once for the preset and the scene (beyond the notes: its source is named).
LOWER_BOUND = (f"Beyond the notes: the lower bound ({LOWER_BOUND_SOURCE}). Its adversary: random-sign linear losses "
               "y_t θ·x_t in a box of half-width h. Whatever θ_t a learner plays, its expected loss in each round is 0, "
               "while the best fixed θ in hindsight gains h E‖Σ_t y_t x_t‖₁; so **every** learner's expected regret is "
               f"exactly that, {_ADVERSARY_SHARE:.2f} × D G √T at T = {_ADVERSARY_T:,} (1/√(2π) ≈ 0.40 for large T, "
               "any h and d). No algorithm does better in expectation, so the order D G √T of the notes' theorem cannot be "
               "improved, only its constant.")


def eta_label(m: float) -> str:
    """η as a multiple of η*: "η*", "4 η*", "η*/8"."""
    return "η*" if m == 1 else (f"{m:g} η*" if m > 1 else f"η*/{1 / m:g}")


PRESETS = [
    Preset("The theorem: η = η* on a noisy logistic stream",
           f"{NOTES}, Performance guarantees: online logistic regression in a ball of radius 1 (D = 2) with "
           "η = D/(G√T); the regret stays under the flat line D G √T at every round, and under the proof's "
           "curve D²/(2η) + (η/2)Σ‖∇ℓ‖².",
           {"stream": "Noisy", "loss": "logistic", "domain": "ball", "radius": 1.0, "T": 500, "d": 2,
            "noise": 0.1, "eta_mult": 1.0, "seed": 0}),
    Preset("Separable logistic stream",
           f"{NOTES}, Example: online logistic regression. On separable data the best θ in the ball sits on its "
           "boundary (the loss keeps falling outward): watch the projection pull θ back onto the circle.",
           {"stream": "Separable", "loss": "logistic", "domain": "ball", "radius": 1.0, "T": 500, "d": 2,
            "eta_mult": 1.0, "seed": 0}),
    Preset("Too large a step: η = 8 η*",
           f"{NOTES}, proof: the bound D²/(2η) + (η/2)Σ‖∇ℓ‖² holds for every η, but its second term is only "
           "bounded by (η/2)G²T, 8 times larger than at η*; the theorem's D G √T assumes η = η* and is not drawn. "
           "Compare the η sweep below.",
           {"stream": "Noisy", "loss": "logistic", "domain": "ball", "radius": 1.0, "T": 500, "d": 2,
            "noise": 0.1, "eta_mult": 8.0, "seed": 0}),
    Preset("Too small a step: η = η*/8",
           f"{NOTES}, proof: with a small η the first term D²/(2η) dominates: θ crawls from θ₁ = Π_C(0) "
           "towards θ*, paying loss on the way.",
           {"stream": "Noisy", "loss": "logistic", "domain": "ball", "radius": 1.0, "T": 500, "d": 2,
            "noise": 0.1, "eta_mult": 0.125, "seed": 0}),
    Preset("Hinge loss in a box (subgradients)",
           f"{NOTES}, Online convex optimization: the hinge loss is convex but not differentiable; OGD uses a "
           "subgradient and the proof goes through unchanged (it only uses ℓ(θ) ≥ ℓ(θ') + ⟨g, θ − θ'⟩).",
           {"stream": "Noisy", "loss": "hinge", "domain": "box", "radius": 1.0, "T": 500, "d": 2,
            "noise": 0.1, "eta_mult": 1.0, "seed": 0}),
    Preset("Squared loss: online least squares",
           f"{NOTES}, Batched supervised learning (linear regression) made online: OGD on (θ·x − y)² in a ball "
           "of radius 2; G is the largest gradient anywhere in the ball.",
           {"stream": "Regression", "loss": "squared", "domain": "ball", "radius": 2.0, "T": 500, "d": 2,
            "noise": 0.1, "eta_mult": 1.0, "seed": 0}),
    Preset("Adversarial random signs: regret of order D G √T", LOWER_BOUND,
           {"stream": "Adversarial", "loss": "linear", "domain": "box", "radius": 1.0, "T": _ADVERSARY_T, "d": 2,
            "eta_mult": 1.0, "seed": 0}),
    Preset("OGD on the simplex vs Hedge, K = 100 experts",
           f"{NOTES}, Online gradient descent for the expert problem: OGD on the simplex has regret O(√(KT)); "
           "Hedge (UCL notes, Hedge theorem) has √(2T ln K). The OGD notes say that mirror descent, a generalisation "
           "of gradient descent, recovers that rate, and leave it out of the course. See the last section.",
           {"stream": "Noisy", "loss": "logistic", "domain": "ball", "radius": 1.0, "T": 1000, "d": 2,
            "noise": 0.1, "eta_mult": 1.0, "seed": 0, "n": 100}),
]

SOURCES = {
    "Separable": "labels ±1 of points separated with margin 0.1 by a random unit vector.",
    "Noisy": "the separable stream with each label flipped with probability 'noise'.",
    "Regression": "real targets y = u·x + ε (‖u‖ = 1.5, ε of standard deviation 'noise').",
    "Adversarial": "random-sign linear losses y θ·x with x ∈ {±1/√d}^d: the adversary of the lower bound "
                   "(Hazan 2016, Theorem 3.2; beyond the notes).",
}

HELP = SimpleNamespace(
    loss="The convex loss ℓ_t(θ) = ℓ(θ·x_t, y_t). Logistic and hinge need labels ±1; squared takes any real y; "
         "linear y θ·x is the lower bound's loss. Each generated stream offers the losses made for it.",
    domain="The convex set C that θ must stay in. OGD projects back into C after every step. The simplex "
           "{θ ≥ 0, Σθ = 1} is a segment in the plane.",
    radius="The ball's radius r (‖θ‖ ≤ r) or the box's half-width r (|θ_i| ≤ r). The diameter D is 2r "
           "for the ball, 2r√d for the box, √2 for the simplex.",
    T="Number of rounds T. The theorem's step η* = D/(G√T) depends on it: T is known in advance.",
    d="Dimension d of θ. The parameter plane is drawn for d = 2 only; the regret and the proof for any d.",
    noise="Noisy: the probability each label is flipped. Regression: the standard deviation of the noise.",
    eta_mult="The step size η as a multiple of the theorem's η* = D/(G√T) (the URL key eta_mult holds the "
             "multiple). At η* the theorem's D G √T applies; at any η the proof's bound does.",
    sweep_seeds="How many random streams (seeds 0, 1, ...) the η sweep runs at each of its 13 step sizes.",
    n="Number of experts K for OGD on the simplex against Hedge (the same T rounds).",
    upload="An uploaded stream: one row per round, features then y. Pick a loss that fits the labels.",
)

INTRO = (
    "**Online convex optimisation**: in each round the learner picks $\\theta_t$ in a convex set $\\mathcal C$, "
    "then a convex loss $\\ell_t$ is revealed and it pays $\\ell_t(\\theta_t)$. Its **regret** compares the total "
    "with the best fixed $\\theta^* \\in \\mathcal C$ in hindsight. **Projected online gradient descent** steps "
    "against the gradient and projects back: $\\theta_{t+1} = \\Pi_{\\mathcal C}(\\theta_t - \\eta\\nabla\\ell_t(\\theta_t))$. "
    "With $D$ the diameter of $\\mathcal C$ and $G$ a bound on the gradients, the step $\\eta = D/(G\\sqrt T)$ gives "
    "$R_T \\le DG\\sqrt T$: the average regret vanishes like $1/\\sqrt T$. Online logistic regression, "
    "$\\ell_t(\\theta) = \\ln(1 + e^{-y_t\\,\\theta\\cdot x_t})$, is one instance; the experts problem is another."
)


def _g(x: float) -> str:
    return f"{x:,.0f}" if abs(x) >= 10_000 else f"{x:.4g}"


def _vec(v) -> str:
    return "(" + ", ".join(f"{x:.3g}" for x in np.asarray(v)[:4]) + (", …)" if len(v) > 4 else ")")


def _under(value: float, bound: float, what: str) -> Text:
    """"≤" between a measured ``value`` and its ``bound``, claimed (to rounding: 1e-9 of the bound's size)."""
    return claim("≤", value <= bound + 1e-9 * max(1.0, abs(bound)), what)


def status(a: OGDAnalysis, t: int) -> str:
    W = a.trace.weights
    if t == 0:
        return (f"Before round 1: θ₁ = Π_C(0) = {_vec(W[0])}. Step forward to see each round's gradient step "
                "and projection.")
    moved = "left C, so Π_C moved it back" if a.projected[t - 1] else "stayed in C (Π_C changes nothing)"
    R, b = float(a.regret[t - 1]), float(a.proof_bound.at(t))
    return text(f"Round **{t}** of {a.T}: θ_{t} = {_vec(W[t - 1])} paid ℓ_t = {a.trace.losses[t - 1]:.4g}; the gradient "
                f"step to {_vec(a.trace.extras['step'][t - 1])} {moved}: θ_{t + 1} = {_vec(W[t])}. Regret so far "
                f"R_{t} = **{R:.4g}** ", _under(R, b, f"R_{t} ≤ the proof's bound at round {t}"),
                f" the proof's bound **{b:.4g}**",
                f" (D G √T = {a.theorem.value:.4g} for all {a.T} rounds)." if a.theorem.applies else ".")


def plane(a: OGDAnalysis, t: int) -> str:
    n = int(a.projected.sum())
    dist = (f" In round {t}: ‖θ̃ − θ*‖ = {a.step_dist[t - 1]:.3g} before the projection, "
            f"‖Π_C(θ̃) − θ*‖ = {a.proj_dist[t - 1]:.3g} after (dotted)." if t > 0 else "")
    every = contour_every(a.T)
    return (f"Grey lines: contours of the cumulative loss Σ_(s≤{t}) ℓ_s(θ) so far (while Play runs they catch up "
            f"every {every} round{'s' if every > 1 else ''}: the legend names their round); the shaded region is C. The blue "
            f"path is θ_1, …, θ_{t + 1}. Round t's two moves: the gradient step θ_t − η∇ℓ_t(θ_t) (orange arrow), "
            f"then the projection Π_C back into C (green arrow, absent when the step stays in C).{dist} The star is "
            f"θ* = {_vec(a.theta_star)}, the best fixed point of C for all {a.T} rounds. The projection moved θ in "
            f"{n} of {a.T} rounds.")


def not_2d(a: OGDAnalysis) -> str:
    return f"The parameter plane is drawn for d = 2; this stream has d = {a.trace.weights.shape[1]}."


def nonexp(a: OGDAnalysis) -> str:
    gap = a.step_dist - a.proj_dist
    n = int(a.projected.sum())
    worst = float(gap.min())
    if worst >= 0:
        never = claim("never farther from θ*", bool((gap >= 0).all()), "‖θ_(t+1) − θ*‖ ≤ ‖θ̃_(t+1) − θ*‖ every round")
    else:
        never = claim(f"never farther from θ*, up to rounding (at most {-worst:.1e} farther)",
                      worst > -1e-9 * max(1.0, float(a.step_dist.max())), "‖θ_(t+1) − θ*‖ ≤ ‖θ̃_(t+1) − θ*‖ to 1e-9")
    moved = (f"The projection moved θ in {n} of {a.T} rounds, bringing it closer to θ* by up to {gap.max():.3g}; in "
             "the other rounds the two curves coincide." if n else
             f"No gradient step of the {a.T} rounds left C, so the projection never moved θ: the two curves coincide.")
    return text("Recap: projection (the theorem): for every θ̂ ∈ C, ‖θ − θ̂‖ ≥ ‖Π_C(θ) − θ̂‖. Here θ̂ = θ*, θ is each "
                "round's gradient step and Π_C(θ) = θ_(t+1): after the projection θ is ", never, ". ", moved,
                " This is the proof's first inequality.")


def _dots(a: OGDAnalysis) -> Text:
    """What the dots (the prefix-best regret) do against R_t and the bounds, claimed from the run.

    Against R_t: the prefix's best value is at most F_t(θ*) in exact arithmetic (θ* is one point of C), and it
    is certified to 1e-6 · max(1, value) (:func:`olcore.oco.prefix_best`), so a dot can fall below R_t by at
    most that much."""
    rounds = a.prefix_rounds - 1
    below = a.regret_prefix - a.regret[rounds]
    values = a.trace.cumulative_loss[rounds] - a.regret_prefix
    certified = 1e-6 * np.maximum(1.0, np.abs(values)) + 1e-12
    low = float(below.min())
    if low >= 0:
        never = claim("it is never below R_t", bool((below >= 0).all()), "prefix-best regret ≥ R_t at every solved prefix")
    else:
        never = claim(f"it is never below R_t by more than the solver's certified 10⁻⁶ gap (here by {-low:.1e} at most)",
                      bool((below >= -certified).all()), "prefix-best regret ≥ R_t − certified gap")
    scale = 1e-9 * max(1.0, float(np.abs(a.proof_bound.curve).max()))
    same = bool((a.regret_prefix <= a.proof_bound.curve[rounds] + scale).all())
    if a.tuned:
        same = same and bool((a.regret_prefix <= a.theorem.value + scale).all())
    return text(never, " and ", claim("the same bounds hold for it", same, "prefix-best regret under the drawn bounds"))


def regret(a: OGDAnalysis, t: int | None = None) -> str:
    """The regret chart's caption; with ``t`` (the player's round) its last sentence reads the regret at t."""
    th = a.theorem
    out = [f"R_t = Σ_(s≤t) ℓ_s(θ_s) − ℓ_s(θ*) against the final θ* (the notes' definition; the proof telescopes "
           f"against one fixed θ*, so its bound holds at every t, and R_t may be negative early). Dots: against "
           f"the best fixed point of each prefix (solved at {len(a.prefix_rounds)} rounds), the regret of a game "
           "stopped at t; ", _dots(a), f". D = {a.D:.4g} (the diameter of "
           f"C), G = {a.G:.4g} (the largest gradient anywhere in C over the stream, known before the run), "
           f"η = {a.eta:.4g} = {eta_label(a.eta_mult)}, η* = D/(G√T) = {a.eta_star:.4g}. "]
    if a.tuned:
        out.append(f"At η* the proof gives D²/(2η) + (η/2)G²t ≤ D G √T for every t ≤ T, so D G √T = {th.value:.4g} "
                   f"is drawn flat (D G √t would not be a bound at t < T with η tuned to T). ")
    else:
        out.append("The theorem's D G √T assumes η = η* and is not drawn; the proof's curve holds for any η. ")
    t = a.T if t is None else min(max(int(t), 0), a.T)
    if t == 0:
        return text(*out, "Before round 1 no loss has been paid: R_0 = 0.")
    R = a.regret[t - 1]
    return text(*out, f"{'Final regret R_T' if t == a.T else f'After {t} of {a.T} rounds R_{t}'} = {R:.4g}, "
                      f"{R / th.value:.3g} × D G √T.")


def g_line(a: OGDAnalysis) -> str:
    """G_run against G, and what the proof gives with G_run at this η: D²/(2η) + (η/2)G_run²T, which is at least
    D G_run √T (equal only at the step D/(G_run√T), known only after the run)."""
    R, b = float(a.regret[-1]), a.run_G_bound
    tidy = (f" The proof gives D G_run √T = {a.D * a.G_run * np.sqrt(a.T):.4g} only at the step D/(G_run√T) = "
            f"{a.D / (a.G_run * np.sqrt(a.T)):.4g}, which is known only after the run." if a.G_run > 0 else "")
    return text(f"The notes define G = max_t ‖∇ℓ_t(θ_t)‖, measured on the run: G_run = {a.G_run:.4g} ",
                claim("≤", a.G_run <= a.G * (1 + 1e-12), "G_run ≤ the a-priori G"), f" G = {a.G:.4g}. "
                "That G is only known after the run; η* here uses the a-priori G (over C), which bounds it for any "
                "run, so the theorem's step can be chosen before round 1. With G_run in place of G the proof gives, "
                f"at this η = {a.eta:.4g}: R_T = {R:.4g} ", _under(R, b, "R_T ≤ D²/(2η) + (η/2)G_run²T"),
                f" D²/(2η) + (η/2)G_run²T = {b:.4g} (every ‖∇ℓ_t(θ_t)‖ ≤ G_run).", tidy)


def run_line(a: OGDAnalysis) -> str:
    return text(f"This run: **R_T = {a.regret[-1]:.4g}** after {a.T} rounds; ",
                claim("the best fixed θ* is certified to within 10⁻⁶ × max(1, Σ_t ℓ_t(θ*)) of the optimal objective",
                      a.best_gap <= 1e-6 * max(1.0, abs(a.best_value)), "θ*'s certified optimality gap ≤ 1e-6 × max(1, F)"),
                " (a duality gap).")


def potential(a: OGDAnalysis) -> str:
    p0, D2 = float(a.potential[0]), a.D ** 2
    return text(f"The potential ‖θ_t − θ*‖² starts at {p0:.4g} ",
                claim("≤", p0 <= D2 * (1 + 1e-12) + 1e-12, "‖θ₁ − θ*‖² ≤ D²"), f" D² = {D2:.4g} (both points are "
                f"in C) and ends at {a.potential[-1]:.4g}. It need not fall every round: the regret is paid for by "
                "its decrease plus the (η/2)‖∇ℓ_t‖² terms.")


def per_round(a: OGDAnalysis) -> str:
    """The per-round inequality and its smallest slack: "never negative" only when no slack is below 0; a
    negative one is rounding error (claimed: above −1e-9 of the terms' size), and said so."""
    slack = a.slack
    smallest = float(slack.min())
    head = ("Each round: ℓ_t(θ_t) − ℓ_t(θ*) ≤ (‖θ_t − θ*‖² − ‖θ_(t+1) − θ*‖²)/(2η) + (η/2)‖∇ℓ_t(θ_t)‖² "
            "(projection, then convexity). Dots: the left side; line: the right side. "
            f"Smallest slack (right side minus left side) over the {a.T} rounds: ")
    if smallest >= 0:
        return text(head, f"{smallest:.3g} (", claim("never negative", bool((slack >= 0).all()),
                                                     "every per-round slack ≥ 0"), ").")
    # the size of the numbers each slack is computed from: the losses (a gap is a difference of two), the
    # potentials over 2η and the gradient terms; a slack's rounding error is about epsilon times the largest
    pot = a.potential / (2 * a.eta)
    scale = max(1.0, float(np.abs(a.proof_terms).max()), float(np.abs(a.gap_terms).max()),
                float(np.abs(a.trace.losses).max()), float(np.abs(a.trace.losses - a.gap_terms).max()),
                float(pot.max()), float(a.eta / 2 * a.trace.extras["grad_norm"].max() ** 2))
    return text(head, claim(f"0 up to rounding (its most negative value, {smallest:.1e}, is floating-point error)",
                            smallest > -1e-9 * scale, "every per-round slack ≥ −1e-9 × the terms' size"),
                "; in exact arithmetic it is never negative.")


def telescoping(a: OGDAnalysis) -> str:
    tele, pb = float(a.proof_terms.sum()), a.proof_bound.value
    return text(f"Summing the right sides telescopes the potentials: Σ_t = (‖θ₁ − θ*‖² − ‖θ_(T+1) − θ*‖²)/(2η) + "
                f"(η/2)Σ‖∇ℓ_t‖² = {tele:.4g}, and ‖θ₁ − θ*‖² ≤ D², ‖θ_(T+1) − θ*‖² ≥ 0 make it ",
                _under(tele, pb, "the telescoped sum ≤ the proof's bound"), f" the proof's bound {pb:.4g}",
                *(("; at η* that is ", _under(pb, a.theorem.value, "the proof's bound ≤ D G √T at η*"),
                   f" D G √T = {a.theorem.value:.4g}.") if a.tuned else (".",)))


def sweep_intro(s: Sweep) -> str:
    return (f"The same kind of stream, {s.regrets.shape[0]} seeds, the final regret R_T at {len(s.etas)} step sizes "
            "from η*/8 to 8 η* (log scale).")


def sweep(s: Sweep) -> str:
    """The sweep's caption: where the mean regret is smallest on the grid, and where the dashed curve is (its
    G is the largest over the seeds, so its minimiser D/(G√T) is seed 0's η* only when seed 0's G is that)."""
    star = float(s.eta_star[0])
    tol = 1e-9 * max(1.0, float(s.bound.max()))
    above = claim("so it lies above every seed's R_T at every η of the grid",
                  bool((s.regrets <= s.bound[None, :] + tol).all()), "every seed's R_T ≤ the dashed curve")
    lowest = int(np.argmin(s.bound_curve))
    at_min = claim(f"its smallest value, D G √T = {s.bound_min:.4g}, is at η = D/(G√T) = {s.bound_eta:.3g} (the "
                   "dotted line and the dot)",
                   s.bound_etas[lowest] == s.bound_eta and abs(s.bound_curve[lowest] - s.bound_min) <= tol
                   and bool((s.bound_curve >= s.bound_min - tol).all()), "the dashed curve is lowest at the marked η")
    ratio = s.bound_eta / star
    if abs(ratio - 1) <= 1e-9:
        rel = claim(", seed 0's η*: seed 0 has the largest G", abs(s.G - s.theorem[0] / (s.D * np.sqrt(s.T))) <= 1e-9 * s.G,
                    "seed 0's G is the largest")
    else:
        rel = claim(f", {ratio:.3g} × seed 0's η* (seed 0's G is not the largest)", ratio < 1, "seed 0's G < the largest G")
    return text(f"The mean regret is smallest at η = {s.best_eta:.3g} = {s.best_eta / star:.3g} η* on this grid "
                f"(η* = {star:.3g} for seed 0; the grid runs from η*/8 to 8 η* of seed 0). The dashed curve is the "
                f"proof's D²/(2η) + ηG²T/2 with G = {s.G:.4g}, the largest a-priori G over the seeds, ", above, "; ",
                at_min, rel, ". The band spans the smallest to the largest regret.")


def sweep_upload(source: str) -> str:
    return f"Generated {source} streams (not your upload): a sweep needs several seeds."


def experts(e: ExpertsAnalysis) -> str:
    K, T = e.L.shape[1], e.L.shape[0]
    Ro, Rh = float(e.ogd.regret[-1]), float(e.hedge.regret[-1])
    return text(f"K = {K} experts, T = {T} rounds, one expert's mean loss 0.1 below the others'. OGD on the simplex "
                f"(D = √2, G ≤ √K, η = √(2/(KT)) = {e.eta_ogd:.3g}): R_T = {Ro:.4g} ",
                _under(Ro, e.ogd_bound.value, "OGD's R_T ≤ √(2KT)"), f" √(2KT) = {e.ogd_bound.value:.4g}. Hedge (UCL "
                f"notes; η = √(2 ln K/T) = {e.eta_hedge:.3g}): R_T = {Rh:.4g} ",
                _under(Rh, e.hedge_bound.value, "Hedge's R_T ≤ √(2T ln K)"), f" √(2T ln K) = {e.hedge_bound.value:.4g}. "
                "Both play a distribution over the experts and pay its expected loss.")


def k_sweep(k: KSweep) -> str:
    K0, K1 = int(k.Ks[0]), int(k.Ks[-1])
    return (f"From K = {K0} to K = {K1}, OGD's bound √(2KT) grows ×{k.ogd_bound[-1] / k.ogd_bound[0]:.3g} and "
            f"Hedge's √(2T ln K) ×{k.hedge_bound[-1] / k.hedge_bound[0]:.3g}; the mean measured regrets went from "
            f"{k.ogd.mean(0)[0]:.3g} to {k.ogd.mean(0)[-1]:.3g} (OGD) and {k.hedge.mean(0)[0]:.3g} to "
            f"{k.hedge.mean(0)[-1]:.3g} (Hedge). Hedge is in the course (UCL notes); the OGD notes add that mirror "
            "descent, a generalisation of gradient descent, recovers its √(ln K) rate for OCO on the simplex, and leave "
            "mirror descent out of the course.")


# ---- the lecture: the notes' order of ideas (OCO, projected OGD, the theorem, its proof, η, experts) ----------

def _scene(source: str = "Noisy", T: int = 500, eta_mult: float = 1.0, **more) -> dict:
    """A scene's settings: every widget key the page's runs read (noise only where the stream has it)."""
    loss = LOSSES[source][0]
    values = {"stream": source, "T": T, "d": 2, "seed": 0, "loss": loss, "domain": "ball", "radius": 1.0,
              "eta_mult": eta_mult, "sweep_seeds": 4, "n": 10}
    if source in ("Noisy", "Regression"):
        values["noise"] = 0.1
    return {**values, **more}


_OCO, _SEPARABLE = _scene(T=200), _scene("Separable", T=200)
_THEOREM, _SMALL, _LARGE = _scene(), _scene(eta_mult=0.125), _scene(eta_mult=8.0)
_ADVERSARY = _scene("Adversarial", T=_ADVERSARY_T, domain="box")
_EXPERTS = _scene(T=1000, n=100)

#: First projection: rounds 1-10, 11-50, 51 or later (the fourth option is "never").
_FIRST_EDGES = (1, 11, 51)
#: R_T as a share of D G √T.
_SHARE_EDGES = (0.0, 0.25, 0.5, 1.0)
_SHARE_OPTIONS = {0: "under a quarter of it", 1: "a quarter to a half", 2: "half of it to all of it",
                  3: "more than D G √T: the bound fails"}


def _first_why(a: OGDAnalysis) -> str:
    first = lesson.first_projection(a)
    step = a.eta * a.G
    floor = int(np.ceil(a.D / 2 / step))
    if first == 0:
        return f"No gradient step of the {a.T} rounds left the ball, so the projection never moved θ."
    g = float(a.trace.extras["grad_norm"][:first].mean())
    r = a.D / 2
    norm = float(np.linalg.norm(a.theta_star))
    took = (text("; the gradients were ", claim(f"smaller than G (mean {g:.3g} over those rounds, against G = "
                                                 f"{a.G:.3g})", g < a.G, "mean ‖∇ℓ_t(θ_t)‖ < G before the first projection"),
                 f" and point in different directions, so it took {first}") if first > floor else
            "; it took exactly that many")
    return text(f"Round **{first}** is the first whose gradient step leaves the ball. Each step moves θ by "
                f"η‖∇ℓ_t‖ ≤ ηG{' = D/√T' if a.tuned else ''} = {step:.3g}, so from θ₁ = 0 the circle of radius {r:g} is ",
                claim(f"at least ⌈r/(ηG)⌉ = {floor} steps away", first >= floor, "first projection ≥ ⌈r/(ηG)⌉"), took,
                f". The projection moved θ in {int(a.projected.sum())} of {a.T} rounds: ",
                claim(f"the best θ sits on the boundary (‖θ*‖ = {norm:.4g})", norm >= r * (1 - 1e-6),
                      "θ* on the boundary of the ball"), ", as on any stream a line through the origin separates.")


def _share_prompt(a: OGDAnalysis) -> str:
    return (f"After all {a.T} rounds at η = {eta_label(a.eta_mult)}, how much of the theorem's bound "
            f"D G √T = {a.theorem.value:.3g} will the regret R_T use?")


def _share_why(a: OGDAnalysis) -> str:
    R, th, pb = float(a.regret[-1]), a.theorem.value, a.proof_bound
    first = a.D ** 2 / (2 * a.eta)
    second = pb.value - first
    head = (f"R_T = **{R:.3g}**, {lesson.regret_share(a):.0%} of D G √T = {th:.3g}. The proof's bound for this η is "
            f"D²/(2η) + (η/2)Σ‖∇ℓ_t‖² = {first:.3g} + {second:.3g} = {pb.value:.3g}. ")
    if a.tuned:
        ratio = float((a.trace.extras["grad_norm"] ** 2).sum() / (a.G ** 2 * a.T))
        return text(head, "At η* the two terms of its worst case D²/(2η) + (η/2)G²T are equal; the bound is a worst "
                    "case, and ", claim(f"this run's gradients are smaller than G: Σ‖∇ℓ_t(θ_t)‖² = {ratio:.2g} × G²T",
                                        ratio < 1, "Σ‖∇ℓ_t‖² < G²T"), ".")
    if a.eta_mult < 1:
        return text(head, "With a small step the first term, the price of starting far from θ*, ",
                    claim("dominates", first > second, "D²/(2η) > (η/2)Σ‖∇ℓ_t‖²"),
                    f": θ moves at most ηG = {a.eta * a.G:.3g} per round, so it approaches θ* slowly and pays loss on "
                    "the way.")
    return text(head, "With a large step the second term grows; the regret still stays ",
                claim("under the proof's bound", R <= pb.value + 1e-9 * max(1.0, abs(pb.value)), "R_T ≤ the proof's bound"),
                ", a weaker guarantee than D G √T.")


LECTURE = [
    Scene("Online convex optimisation", _OCO, t=0, narration=(
        "Online gradient descent notes (OLA, Part 5). In each round the learner **picks θ_t in a convex set C**, "
        "then sees a convex loss ℓ_t and pays ℓ_t(θ_t). Here ℓ_t is the logistic loss ln(1 + e^(−y_t θ·x_t)) of "
        "one labelled point and C is the unit ball. The **regret** R_T compares the total paid with the best "
        "fixed θ* in C in hindsight: the star in the plane. Step through a few rounds.")),
    Scene("A gradient step, then a projection", _SEPARABLE, t=0, narration=(
        "**Projected OGD**: θ_(t+1) = Π_C(θ_t − η∇ℓ_t(θ_t)). The orange arrow is the gradient step; when it "
        "leaves C, the green arrow projects it back to the nearest point of C. The projection never moves θ "
        "away from any point of C, θ* included: that is the proof's first inequality. Separable data, "
        "T = 200, η = D/(G√T)."),
        question=Question("θ starts at the centre, θ₁ = 0. In which round will the gradient step first leave the "
                          "ball, so that the projection pulls θ back?", "choice", lesson.first_projection_band,
                          args=(_FIRST_EDGES,), options={0: "in rounds 1 to 10", 1: "in rounds 11 to 50",
                                                         2: "round 51 or later", 3: "never"},
                          reveal=60, explain=_first_why)),
    Scene("The theorem: R_T ≤ D G √T", _THEOREM, t=0, narration=(
        "**Theorem.** On a convex set of diameter D, with gradients ‖∇ℓ_t‖ ≤ G, OGD with **η = D/(G√T)** has "
        "regret **R_T ≤ D G √T**, so the average regret R_T/T vanishes like 1/√T. Here D = 2 (the unit ball) "
        "and G bounds the logistic gradients over the ball. Noisy labels, T = 500."),
        question=Question(_share_prompt, "choice", lesson.regret_share_band, args=(_SHARE_EDGES,),
                          options=_SHARE_OPTIONS, explain=_share_why)),
    Scene("The proof: the potential telescopes", _THEOREM, t=None, narration=(
        "Take the potential ‖θ_t − θ*‖². **Projection**: ‖θ_(t+1) − θ*‖² ≤ ‖θ_t − η∇ℓ_t − θ*‖². **Convexity**: "
        "ℓ_t(θ_t) − ℓ_t(θ*) ≤ ⟨∇ℓ_t, θ_t − θ*⟩. Together, each round's regret is at most the drop in potential "
        "over 2η plus (η/2)‖∇ℓ_t‖². **Summing telescopes**: R_T ≤ D²/(2η) + (η/2)G²T, and η = D/(G√T) makes "
        "both halves D G √T / 2. The proof's charts are further down.")),
    Scene("Too small a step", _SMALL, t=0, narration=(
        "The proof's bound D²/(2η) + (η/2)Σ‖∇ℓ_t‖² holds for **every** η; η* = D/(G√T) is the step that balances "
        "the two terms of its worst case D²/(2η) + (η/2)G²T. Divide the step by 8: the first term, the price of the "
        "start, is 8 times larger."),
        question=Question(_share_prompt, "choice", lesson.regret_share_band, args=(_SHARE_EDGES,),
                          options=_SHARE_OPTIONS, explain=_share_why)),
    Scene("Too large a step", _LARGE, t=None, narration=(
        "Multiply the step by 8: the second term of the proof's bound, (η/2)Σ‖∇ℓ_t‖², is now only bounded by "
        "(η/2)G²T, 8 times more than at η*. The theorem's D G √T is not drawn (it assumes η*); the proof's curve "
        "still bounds the regret. The η sweep further down shows the whole trade-off: the mean regret over seeds "
        "against η, and the proof's U-shaped bound D²/(2η) + ηG²T/2, smallest (D G √T) at η = D/(G√T).")),
    Scene("The order √T cannot be improved", _ADVERSARY, t=None, narration=(
        LOWER_BOUND + " Better rates need more regular losses (smooth, strongly convex: the notes' remark after "
        "the theorem).")),
    Scene("OGD on the simplex against Hedge", _EXPERTS, t=None, narration=(
        "The experts problem is OCO on the simplex: θ is a distribution over K experts and ℓ_t(θ) = ⟨ℓ_t, θ⟩. "
        "D = √2 and G ≤ √K, so OGD has regret O(√(KT)). Hedge (UCL notes) has √(2T ln K); the OGD notes say that "
        "mirror descent, a generalisation of gradient descent, recovers that rate, and leave it out of the course. "
        "Scroll to the last section: with K = 100 experts, compare the two regrets and bounds, and how they grow "
        "with K.")),
]

CONTENT = Content(presets=tuple(PRESETS), lecture=tuple(LECTURE), lecture_run="analyse", help=MappingProxyType(vars(HELP)))
