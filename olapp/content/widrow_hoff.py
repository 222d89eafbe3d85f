"""The Widrow-Hoff lesson's content: lecture presets, help texts, and captions computed from the run.

Every caption states facts of the run it is given (an analysis of :mod:`olcore.lessons.widrow_hoff`),
never a fact that could be false for other settings.
"""

from __future__ import annotations

from types import MappingProxyType, SimpleNamespace

import numpy as np
from numpy.typing import ArrayLike

from olapp.content import Content
from olcore.claims import claim, text
from olcore.lessons import widrow_hoff as wh
from olcore.lessons.widrow_hoff import SOURCE, EgComparison, Implicit, OnlineToBatch, Tuning, WidrowHoffAnalysis

from ..controls import Preset
from ..lecture import Question, Scene

__all__ = ["PRESETS", "SOURCES", "HELP", "INTRO", "TABLE", "plane", "weights", "cumulative", "sweep", "eta_star",
           "num", "loss_value", "eta_metric", "eta_label", "eta_button", "readout",
           "round_line", "run_line", "proof_intro", "potential", "proof_round", "telescoping", "TELESCOPING_AFTER", "reading_notes",
           "o2b_intro", "online_to_batch", "eg_intro", "eg"]

_CITE = f"({SOURCE})"

PRESETS = [
    Preset("A little noise (d = 2)", "Watch w_t walk to u and jitter around it; the bound holds with room to "
           f"spare {_CITE}.",
           dict(stream="Generated", d=2, T=200, noise=0.3, norm_u=1.5, eta=0.2, seed=0)),
    Preset("Noise-free: loss stays bounded forever", "σ = 0, so the generating u has L_u = 0 and Theorem 1 reads "
           f"L_WH ≤ ‖u‖²/η: the total loss stays below it however long the stream {_CITE}.",
           dict(stream="Generated", d=2, T=1000, noise=0.0, norm_u=1.5, eta=0.9, seed=0)),
    Preset("Too large η: noise is amplified", "η = 0.95 chases every noisy target: the L_u/(1−η) term of the "
           f"bound is twenty times L_u {_CITE}.",
           dict(stream="Generated", d=2, T=500, noise=1.0, norm_u=1.5, eta=0.95, seed=0)),
    Preset("Too small η: a slow start", "η = 0.02 takes small steps: the ‖u‖²/η term is fifty times ‖u‖² "
           f"{_CITE}.",
           dict(stream="Generated", d=2, T=500, noise=0.3, norm_u=3.0, eta=0.02, seed=0)),
    Preset("Ten features", f"d = 10: no plane to draw, but Theorem 1 does not depend on d {_CITE}.",
           dict(stream="Generated", d=10, T=1000, noise=0.3, norm_u=2.0, eta=0.3, seed=0)),
    Preset("Motivation 2: the implicit update", "At η = 0.9 the exact solution of Motivation 2, "
           "w − η(w·x − y)x/(1 + η‖x‖²), takes shorter steps than the explicit rule; section 6, *The implicit "
           f"update*, draws both on the weight plane (*The rate of loss* their rates against L_u/T) {_CITE}.",
           dict(stream="Generated", d=2, T=300, noise=0.5, norm_u=1.5, eta=0.9, seed=0,
                further="The implicit update")),
]

SOURCES = {"Generated": "y = u·x + Gaussian noise, x uniform in the unit ball, u of length ‖u‖ (random direction)."}

HELP = SimpleNamespace(
    d="Number of features. The weight-plane picture needs d = 2.",
    T="Length of the stream.",
    noise="Standard deviation σ of the Gaussian noise added to u·x. With σ = 0 the generating u has zero loss.",
    norm_u="Length of the vector u that generates the targets.",
    eta="Step size of the update. Theorem 1 needs 0 < η < 1: small η learns slowly (‖u‖²/η), "
        "large η over-reacts to noise (L_u/(1−η)).",
    use_eta="Set the learning-rate slider to its η (0.01 to 0.99) with the smallest Theorem 1 bound on this stream: "
            "a neighbour of the bound-minimising η* on the slider's grid, or the slider's end when η* lies beyond it.",
    rescale="Divide every x_t by R = max‖x_t‖. Predictions of Ru on the rescaled stream equal those of u on the "
            "original, so the same targets stay learnable.",
    m_max="Sample sizes m = 1 … this value are shown.",
    repeats="Theorem 2 bounds the mean risk over random samples; this many independent samples estimate that "
            "mean (the band is ±2 standard errors).",
    eg_n="x_t is uniform in [0,1]^n and y_t = u·x_t + noise with u spread evenly over 2 features.",
    eg_eta="η of the multiplicative update (the notes give no bound for EG, so there is no optimal η to mark).",
)

INTRO = (
    "Each round the learner sees $\\mathbf x_t$, predicts $\\hat y_t = \\mathbf w_t\\cdot\\mathbf x_t$, "
    "then learns $y_t$ and pays the square loss $(\\hat y_t - y_t)^2$. **Widrow-Hoff** (least mean "
    "squares) takes a small gradient step on that one loss, "
    "$\\mathbf w_{t+1} = \\mathbf w_t - \\eta(\\mathbf w_t\\cdot\\mathbf x_t - y_t)\\mathbf x_t$: it moves "
    "toward the loss it just suffered without forgetting what $\\mathbf w_t$ already knows. With "
    "$\\|\\mathbf x_t\\| \\le 1$ its total loss is never much more than that of the best fixed "
    f"vector $\\mathbf u$ chosen in hindsight, whatever the data ({SOURCE}).")

TABLE = ("| Additive | Multiplicative |\n|---|---|\n| Support vector machine | AdaBoost |\n"
         "| Perceptron | Winnow / Weighted Majority |\n| Gradient descent (Widrow-Hoff) | Exponentiated gradient |")


def _vec(v, k: int = 6) -> str:
    v = np.asarray(v, float)
    return "(" + ", ".join(f"{x:.3f}" for x in v[:k]) + (", …" if v.size > k else "") + ")"


_SUP = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def num(x: float) -> str:
    """A number as a student reads it: 4 significant digits (thousands with commas), ``2.3 × 10⁻⁵`` when
    very small or large, never an exponent in ``e`` notation.

    >>> num(25.5855), num(10610.69), num(6.2857e-5), num(1.285e7), num(0.0)
    ('25.59', '10,611', '6.286 × 10⁻⁵', '1.285 × 10⁷', '0')
    """
    x = float(x)
    if x == 0 or not np.isfinite(x):
        return f"{x:g}"
    if 1e-3 <= abs(x) < 1e6:
        return f"{x:,.0f}" if abs(x) >= 1e4 else f"{x:.4g}"
    m, e = f"{x:.3e}".split("e")
    return f"{float(m):.4g} × 10{str(int(e)).translate(_SUP)}"


def loss_value(x: float, y: ArrayLike) -> str:
    """A square loss, ``0 (to rounding)`` when it is below 10⁻¹² Σ y_t² (the loss of u = 0): a least-squares
    fit of a noise-free stream leaves a residual of about 10⁻²⁹, not a number to read."""
    scale = float(np.dot(y, y))
    return "0 (to rounding)" if abs(float(x)) <= 1e-12 * max(scale, 1e-300) else num(x)


def _best(tu: Tuning) -> str:
    """Where Theorem 1's bound B(η) is smallest on this stream, η in (0, 1), against the slider's range."""
    grid = tu.slider_bound
    if tu.side == "inside":
        return claim(f"the bound is smallest at η* = {tu.eta_best:.3f} (bound {num(tu.bound_best)})",
                     0.01 <= tu.eta_best <= 0.99 and tu.bound_best <= float(grid.min()) * (1 + 1e-9),
                     "η* in [0.01, 0.99] and B(η*) ≤ B on the slider")
    if tu.side == "above":
        return claim(f"the bound falls as η grows over the whole slider and is smallest above its 0.99 (at η* ≈ 1 − "
                     f"{num(1 - tu.eta_best)}, bound {num(tu.bound_best)}; the theorem needs η < 1)",
                     tu.eta_best > 0.99 and bool(np.all(np.diff(grid) <= 1e-12 * np.abs(grid[1:]))),
                     "B nonincreasing on the slider, η* > 0.99")
    return claim("the bound grows with η over the whole slider and is smallest below its 0.01: as η → 0 it tends to "
                 f"Σ_t y_t² = {num(tu.zero_loss)}, the loss of u = 0 (predicting 0 every round)",
                 tu.eta_best < 0.01 and bool(np.all(np.diff(grid) >= -1e-12 * np.abs(grid[1:]))),
                 "B nondecreasing on the slider, η* < 0.01")


def eta_button(tu: Tuning) -> str:
    """The label of the button that sets the slider's best η: exactly the η it sets."""
    return f"Use η = {tu.eta_slider:.2f}"


def eta_metric(tu: Tuning) -> str:
    """η* for the readout: three decimals inside the slider's range, else which side of it."""
    return {"inside": f"{tu.eta_best:.3f}", "above": "above 0.99", "below": "below 0.01"}[tu.side]


def eta_label(tu: Tuning) -> str:
    """η*'s marker on the sweep."""
    return {"inside": f"η* = {tu.eta_best:.3g}", "above": "η* > 0.99", "below": "η* < 0.01"}[tu.side]


def eta_star(tu: Tuning) -> str:
    best = _best(tu)
    return text("On this stream ", best, f"; the button sets η = {tu.eta_slider:.2f}, the slider's η with the "
                f"smallest bound ({num(tu.bound_slider)}). Section 3 sweeps every η.")


def readout(a: WidrowHoffAnalysis, tu: Tuning) -> tuple[dict, dict]:
    """The readout's values and their help texts."""
    return ({"Widrow-Hoff loss L_WH": num(a.loss), "Theorem 1 bound": num(a.theorem1.value),
             "Clairvoyant min_u L_u": loss_value(a.clairvoyant_loss, a.y), "Bound-minimising η*": eta_metric(tu)},
            {"Widrow-Hoff loss L_WH": "Total square loss over the T rounds.",
             "Theorem 1 bound": "min over u of L_u/(1−η) + ‖u‖²/η at your η.",
             "Clairvoyant min_u L_u": "Loss of the least-squares u, chosen knowing every round.",
             "Bound-minimising η*": "The η in (0, 1) for which Theorem 1's bound is smallest on this stream."})


def plane(a: WidrowHoffAnalysis, t: int) -> str:
    return ("Shaded contours: the total loss $L(\\mathbf w)=\\sum_t(\\mathbf w\\cdot\\mathbf x_t-y_t)^2$ of the whole "
            "stream (darker is lower; hover for values); its minimum is the clairvoyant least-squares "
            "$\\mathbf u$ (star). The orange path is $\\mathbf w_1=\\mathbf 0, \\mathbf w_2, \\dots$: each step "
            "follows one round's gradient, not the whole bowl's. The dotted circle around "
            f"$\\mathbf u^*$ has radius $\\sqrt{{\\Phi_{{{t + 1}}}}} = {np.sqrt(a.potential[t]):.3g}$, the potential of "
            "the proof.")


def weights(a: WidrowHoffAnalysis) -> str:
    shown = min(a.d, 4)
    return (f"With d = {a.d} there is no plane to draw: {shown} of the {a.d} coordinates of $\\mathbf w_t$ over "
            "rounds, and the least-squares $\\mathbf u$'s (dotted, same colour). Set d = 2 for the weight plane.")


_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _sub(t: int) -> str:
    """A round as a subscript: 201 -> ₂₀₁."""
    return str(int(t)).translate(_SUB)


def _num(x: float, fmt: str = ".4f") -> str:
    """A number with a true minus sign (as a formula writes it)."""
    return format(float(x), fmt).replace("-", "−")


# The two texts of the round below are written without formulas (plain text, as every other lesson's
# texts of the round): while Play runs, a text of the round comes with a copy per round, and the browser
# renders every formula of every copy when Play starts (about a millisecond each: 1,400 formulas here
# at T = 200, seconds before the first frame).

def round_line(a: WidrowHoffAnalysis, t: int) -> str:
    if t < 1:
        return ""
    s, k, k1 = t - 1, _sub(t), _sub(t + 1)
    return (f"**Round {t}:** ŷ{k} = **w**{k}·**x**{k} = {_num(a.trace.predictions[s])}, y{k} = {_num(a.y[s])}, "
            f"loss ℓ{k}² = {_num(a.trace.losses[s])}; "
            f"**w**{k1} = **w**{k} − {a.eta:g}·({_num(a.residual[s])}) **x**{k}.")


def cumulative(a: WidrowHoffAnalysis) -> str:
    th = a.theorem1
    if not th.applies:
        return ("Blue: Widrow-Hoff's total loss after t rounds. Orange: the loss of the least-squares u of the whole "
                "stream, which knew all rounds in advance. Theorem 1 is not drawn: " + th.why_not)
    # to rounding, relative to the numbers compared: a stream can meet the bound exactly (one point, noise-free)
    tol = 1e-9 * np.maximum(1.0, np.abs(th.curve))
    crossed = int(np.sum(a.cumulative > th.curve + tol))
    gap = th.value - a.loss
    ending = (f"ending {num(gap)} below it" if gap > tol[-1] else "ending on it, to rounding")
    where = (claim(f": the blue curve stays under it in all {a.T} rounds, {ending} "
                   f"({num(a.loss)} against {num(th.value)}).", crossed == 0 and gap >= -tol[-1],
                   "L_WH(t) ≤ the bound after every round")
             if crossed == 0 else
             claim(f": crossed in {crossed} rounds (a bug: please report it).", crossed > 0, "the bound is crossed"))
    return text("Blue: Widrow-Hoff's total loss after t rounds. Orange: the loss of the least-squares u of the whole "
                "stream, which knew all rounds in advance. Dashed: Theorem 1's bound on the first t rounds, "
                "$\\min_{\\mathbf u} L_{\\mathbf u}(t)/(1-\\eta) + \\|\\mathbf u\\|^2/\\eta$", where)


def sweep(tu: Tuning, eta: float) -> str:
    best = _best(tu)
    return text("Each point is a full run of Widrow-Hoff on this stream with that η (log scale). The dashed bound is "
                "convex in η: ‖u‖²/η punishes small steps, L_u/(1−η) large ones. On this stream ", best,
                "; for a fixed u the balance is "
                "$\\eta^*=\\|\\mathbf u\\|/(\\sqrt{L_{\\mathbf u}}+\\|\\mathbf u\\|)$, where the bound equals "
                "$(\\sqrt{L_{\\mathbf u}}+\\|\\mathbf u\\|)^2$. "
                + _smallest_loss(tu))


def _smallest_loss(tu: Tuning) -> str:
    """Where the sweep's actual loss is smallest, and which runs diverged (outside the unit ball only)."""
    if tu.diverged == len(tu.etas):
        return ("Without rescaling every run of the sweep diverges (its loss passes 10¹⁵⁰): with ‖x_t‖ > 1 an update "
                "can overshoot, which Theorem 1's assumption ‖x_t‖ ≤ 1 rules out.")
    gone = (f" The runs with {tu.diverged} of the {len(tu.etas)} values of η diverge (their loss passes 10¹⁵⁰) and are "
            "not drawn: with ‖x_t‖ > 1 an update can overshoot." if tu.diverged else "")
    return (f"The smallest actual loss is at η = {tu.eta_best_loss:.2f}"
            + (": the bound is a worst case over all streams, not a prediction of the loss."
               if abs(tu.eta_best_loss - tu.eta_best) > 0.05 else ", close to η*.") + gone)


def run_line(a: WidrowHoffAnalysis, tu: Tuning) -> str:
    txt = text(f"Here $\\mathbf u^* = {_vec(a.u_star)}$ minimises the right-hand side (a ridge regression with "
               f"$\\lambda=(1-\\eta)/\\eta={a.ridge_lambda:.3f}$). Assumption: "
               + a.ball.message().replace("||x_t||", "$\\|\\mathbf x_t\\|$").replace("<=", "≤") + " On this stream ",
               _best(tu), f"; at the slider's η = {tu.eta_slider:.2f} it is {num(tu.bound_slider)}.")
    if a.rescaled:
        txt += f" The stream was divided by R = {num(a.R)} to bring it into the unit ball."
    if a.u_true is not None:
        txt += (f" The stream was generated by $\\mathbf u$ with $\\|\\mathbf u\\| = {np.linalg.norm(a.u_true):.3g}$ "
                f"and noise σ = {a.noise:g}.")
    return txt


def proof_intro() -> str:
    return ("Fix $\\mathbf u$ (here $\\mathbf u^*$) and watch $\\Phi_t=\\|\\mathbf w_t-\\mathbf u\\|_2^2$. With "
            "$\\ell_t=\\mathbf w_t\\cdot\\mathbf x_t-y_t$ (learner's error) and $g_t=\\mathbf u\\cdot\\mathbf x_t-y_t$ "
            "(u's error), the **claim** is $\\Phi_{t+1}-\\Phi_t \\le -\\eta\\ell_t^2+\\frac{\\eta}{1-\\eta}g_t^2$ "
            "whenever $\\|\\mathbf x_t\\|\\le 1$: every unit of the learner's loss lowers the potential by η, every "
            "unit of u's loss raises it by at most η/(1−η). The potential starts at $\\|\\mathbf u\\|^2$ and never "
            "goes below 0, so the learner's loss is paid for by $\\|\\mathbf u\\|^2$ and by u's loss.")


def potential(a: WidrowHoffAnalysis) -> str:
    v = a.claim_violations
    held = (claim(f"every one of the {a.T} rounds' actual change (dots) lies on or below its bound (the red tick)",
                  v == 0, "Φ_{t+1} − Φ_t ≤ the claim's bound in every round")
            if v == 0 else
            claim(f"in {v} of the {a.T} rounds the actual change (dots) lies above its bound (the red tick): "
                  "those rounds have ‖x_t‖ > 1, where the claim is not proved", not a.ball.ok,
                  "the claim fails only where ‖x_t‖ > 1"))
    return text(f"Top: the potential (purple) against the sum of the claim's bounds (dashed), which starts at "
                f"Φ₁ = ‖u*‖² = {num(a.potential[0])}. Bottom: ", held, "; the gap is the slack of the two "
                "inequalities (7) and (10) of the proof.")


def proof_round(a: WidrowHoffAnalysis, t: int) -> str:
    if t < 1:
        return ""
    s = t - 1
    ell, g = a.residual[s], a.comparator_residual[s]
    k, k1 = _sub(t), _sub(t + 1)
    rel = "≤" if a.claim_holds[s] else ">"
    return (f"**Round {t}:** ℓ{k} = {_num(ell)}, g{k} = {_num(g)}, "
            f"Φ{k1} − Φ{k} = {_num(a.potential_drop[s])} {rel} "
            f"−{a.eta:g}·{ell ** 2:.4f} + ({a.eta:g}/{1 - a.eta:.2f})·{g ** 2:.4f} = {_num(a.claim[s])}.")


def telescoping(a: WidrowHoffAnalysis) -> str:
    total = float(a.potential[-1] - a.potential[0])
    return ("\\begin{aligned}"
            f"-\\|\\mathbf u^*\\|^2 &= -\\Phi_1 = {-a.potential[0]:.4f} \\\\"
            f"&\\le \\Phi_{{T+1}}-\\Phi_1 = \\textstyle\\sum_{{t=1}}^{{{a.T}}}(\\Phi_{{t+1}}-\\Phi_t) = {total:.4f} \\\\"
            f"&\\le -\\eta L_{{WH}}+\\tfrac{{\\eta}}{{1-\\eta}}L_{{\\mathbf u^*}}"
            f" = -{a.eta:g}\\cdot {a.loss:.4f} + \\tfrac{{{a.eta:g}}}{{{1 - a.eta:.2f}}}\\cdot {a.loss_u_star:.4f}"
            f" = {a.telescoped_rhs:.4f}"
            "\\end{aligned}")


TELESCOPING_AFTER = (
    "Dividing by $-\\eta$ flips the inequality and gives Theorem 1: "
    "$L_{WH}\\le \\frac{L_{\\mathbf u}}{1-\\eta}+\\frac{\\|\\mathbf u\\|^2}{\\eta}$. "
    "The per-round claim comes from expanding $\\|\\mathbf w_t-\\mathbf u-\\eta\\ell_t\\mathbf x_t\\|^2$, "
    "using $\\|\\mathbf x_t\\|\\le1$ (line 7) and $ab\\le(a^2+b^2)/2$ with $a=g_t/\\sqrt{1-\\eta}$, "
    "$b=\\ell_t\\sqrt{1-\\eta}$ (line 10).")


def reading_notes() -> str:
    return ("Reading the notes: the scribe's algorithm box lost its minus signs ('w_t η(w_t·x_t y_t)x_t'); "
            "Section 1.1 writes the rule in full, which is what runs here. Motivation 2's objective must use the "
            "*squared* distance ‖w_{t+1} − w_t‖², as Section 1.3 does; line (15)'s sum runs to T.")


def o2b_intro() -> str:
    return ("Given an i.i.d. sample of size $m$, run Widrow-Hoff once over it and output the **average** "
            "$\\mathbf v=\\frac1m\\sum_{t=1}^m\\mathbf w_t$. Each $\\mathbf w_t$ is tested on a fresh point "
            "$(\\mathbf x_t,y_t)$, so the online loss estimates risk.")


def online_to_batch(c: OnlineToBatch) -> str:
    mi = c.m_max - 1
    avg, last = c.mean_avg[mi], c.mean_last[mi]
    compare = (f"At m = {c.m_max} the average's mean risk is {num(avg)}, the last iterate's {num(last)}"
               + (": the average still carries the early, poor iterates (from $\\mathbf w_1=\\mathbf 0$). "
                  if avg > last else ". ")
               + "What averaging buys is the guarantee: Theorem 2 bounds the average, and the notes prove nothing "
                 "about the last iterate.")
    if c.exact_distribution:
        return (f"Blue: the risk of the averaged vector, measured on a held-out sample of {c.n_test:,} points "
                f"from the same distribution and averaged over {c.repeats} independent training samples (band: ±2 s.e.). "
                "Orange: the last iterate $\\mathbf w_{m+1}$. Dashed: Theorem 2's bound, with the exact risk "
                "$R_{\\mathbf u}=\\|\\mathbf u-\\mathbf u_{true}\\|^2/(d+2)+\\sigma^2$ of this distribution. Green: the "
                f"noise floor σ² = {num(c.best_risk)}, the best any vector can do. " + compare)
    return (f"Here the distribution D is 'pick one of your {c.n_test:,} rows at random', so risks are exact "
            f"means over your rows; {c.repeats} samples drawn with replacement (band: ±2 s.e.). Dashed: Theorem 2's "
            f"bound. Green: the best risk any vector has on your rows, {num(c.best_risk)}. " + compare)


def eg_intro() -> str:
    return ("Motivation 2 picks $\\mathbf w_{t+1}$ to trade the new loss against a *distance* to $\\mathbf w_t$. "
            "The squared Euclidean distance gives Widrow-Hoff's additive step; the relative entropy between "
            "probability vectors gives **exponentiated gradient** (EG), a multiplicative step: "
            "$w_{t+1,i} = w_{t,i}\\,e^{-\\eta\\,\\partial L/\\partial w_i}/Z_t$ with "
            "$\\partial L/\\partial w_i = 2(\\hat y_t - y_t)x_{t,i}$.")


def eg(e: EgComparison) -> str:
    eg_l, wh_l = float(e.cum_eg[-1]), float(e.cum_wh[-1])
    who = "EG's is lower" if eg_l < wh_l else "Widrow-Hoff's is lower" if wh_l < eg_l else "equal"
    rate = (f"runs at its bound-minimising η = {e.eta_wh:.3f}" if not e.clipped else
            f"runs at η = {e.eta_wh:.2f}, the end of [0.01, 0.99] nearest its bound-minimising η")
    return (f"A stream of {e.T} rounds whose targets come from a probability vector on {e.k} of the {e.n} features. "
            f"Widrow-Hoff needs ‖x‖ ≤ 1, so it sees x/{e.R:.3g} and {rate}; "
            "its bound (dashed) grows with ‖u‖²·max‖x‖², which grows with n. EG works on the simplex directly; after "
            f"{e.T} rounds it puts {e.mass:.0%} of its weight on the {e.k} relevant features. Total loss: EG "
            f"{num(eg_l)}, Widrow-Hoff {num(wh_l)} ({who}). EG's known bounds (beyond these "
            "notes) grow like log n; raise n to compare.")


# ---- Motivation 2 solved exactly, and the rate remark ------------------------------------------------

IMPLICIT_INTRO = (
    "Motivation 2 of the notes: the new weights should fit the current example and stay close to the old ones, "
    "so minimise η(w·x_t − y_t)² + ‖w − w_t‖². Setting the gradient to zero gives w = w_t − η(w·x_t − y_t)x_t, "
    "with the new w on both sides; the notes replace it by w_t on the right, which is Widrow-Hoff's (explicit) "
    "rule. Solving exactly instead (take the inner product with x_t) gives the **implicit** update "
    "w_{t+1} = w_t − η(w_t·x_t − y_t)x_t / (1 + η‖x_t‖²): the same direction, a step shorter by the factor "
    "1/(1 + η‖x_t‖²), and it never overshoots the current example whatever η. (The notes print the objective "
    "with ‖w − w_t‖ unsquared; the solution they state needs the square.)"
)

RATE_INTRO = (
    "The notes' remark after Theorem 1: divide by T. For any fixed u, L_WH/T ≤ (L_u/T)/(1 − η) + ‖u‖²/(ηT); "
    "as T grows the last term vanishes, so the **rate** of loss of Widrow-Hoff approaches that of u, up to the "
    "factor 1/(1 − η). Here u is the least-squares vector of the whole stream, and the bound is checked after "
    "every round (a prefix is a stream too). Rounds on a log scale."
)


TOPIC_O2B = "Online to batch"
TOPIC_EG = "Exponentiated gradient"
TOPIC_IMPLICIT = "The implicit update"
TOPIC_RATE = "The rate of loss"
FURTHER_TITLE = "6. Going further: online to batch, EG, the implicit update, the rate of loss"
FURTHER_INTRO = ("Four more results of the notes on the same stream, one at a time: Theorem 2 turns the online "
                 "learner into a batch one, exponentiated gradient swaps the distance of Motivation 2, the implicit "
                 "update solves Motivation 2 exactly, and Theorem 1 divided by T compares rates of loss.")
HELP_FURTHER = ("Which result to draw below: Theorem 2 (averaging the weights over an i.i.d. sample), EG against "
                "Widrow-Hoff, the implicit update against the explicit one, or L_WH/T against L_u/T. "
                "The choice travels in the page's link.")


#: The URL settings each topic reads (a link with one topic's settings and no ``further`` opens that topic).
FURTHER_SETTINGS = {TOPIC_O2B: ("m_max", "repeats"), TOPIC_EG: ("eg_n", "eg_eta")}


def further_topics() -> dict[str, str]:
    """Topic -> its introduction, for the page's "Going further" section (one drawn at a time)."""
    return {TOPIC_O2B: o2b_intro(), TOPIC_EG: eg_intro() + "\n\n" + TABLE, TOPIC_IMPLICIT: IMPLICIT_INTRO,
            TOPIC_RATE: RATE_INTRO}


def implicit(i: Implicit, t: int) -> str:
    t = min(max(int(t), 0), i.T)
    L1, L2 = float(i.loss_explicit[-1]), float(i.loss_implicit[-1])
    return (f"η = {i.eta:g}. On this stream the implicit step is the explicit one times a factor between "
            f"{i.shrink.min():.3g} and {i.shrink.max():.3g} (1/(1 + η‖x_t‖²)). After all {i.T} rounds the explicit "
            f"rule's loss is {L1:.4g}, the implicit rule's {L2:.4g}"
            + (" (the implicit one is lower)." if L2 < L1 else " (the explicit one is lower)." if L1 < L2 else ".")
            + f" The large dots are w_{t + 1}, after round {t}.")


def rates(i: Implicit) -> str:
    last = int(i.T)
    gap = float(i.rate_bound.curve[-1] - i.rate_u[-1])
    rate_u = float(i.rate_u[-1])
    words = (f"After T = {last} rounds: L_WH/T = {num(float(i.rate_wh[-1]))} (explicit), "
             f"{num(float(i.rate_implicit[-1]))} (implicit), L_u/T = "
             + ("0 (to rounding)" if rate_u * last <= 1e-12 * max(i.y_sq, 1e-300) else num(rate_u))
             + f", and the bound {num(float(i.rate_bound.curve[-1]))}, {num(gap)} above L_u/T; of that, ‖u‖²/(ηT) = "
             f"{num(float(i.u @ i.u) / (i.eta * last))} shrinks like 1/T.")
    if not i.rate_bound.applies:
        words += " Some ‖x_t‖ exceeds 1 here, so the dashed bound is not guaranteed (switch rescaling on)."
    return words


# ---- the lecture: Princeton COS 511, lecture 18, in its order ------------------------------------------------

def _run(T: int, noise: float, eta: float, norm_u: float = 1.5, d: int = 2, seed: int = 0,
         further: str = TOPIC_O2B) -> dict:
    """Every setting the page reads (its later sections' too, and the "Going further" topic), so a link and
    the tour show the same view."""
    return dict(stream="Generated", d=d, T=T, noise=noise, norm_u=norm_u, eta=eta, seed=seed, m_max=500, repeats=50,
                eg_n=100, eg_eta=1.0, further=further)


_FIRST = _run(200, 0.3, 0.2)
_IMPLICIT = _run(300, 0.5, 0.9, further=TOPIC_IMPLICIT)
_NOISE_FREE = _run(1000, 0.0, 0.9)
_RATE = _run(1000, 0.3, 0.2, further=TOPIC_RATE)
_O2B = _run(1000, 0.3, 0.2)
_LARGE_ETA = _run(500, 1.0, 0.95)
_SHARE_AT, _SHARE_EDGES = 10, (0.0, 0.25, 0.5, 0.75)
_RATE_AT, _RATE_EDGES = 100, (0.0, 1.1, 1.5, 3.0)
_RISE_AT, _RISE_EDGES = 50, (0, 1, 11, 26)


def _share_q(a: WidrowHoffAnalysis) -> str:
    return (f"No noise, η = {a.eta:g}: Theorem 1 says the loss stays below ‖u‖²/η ≈ {a.theorem1.value:.3g} for ever. "
            f"What share of the whole run's loss will Widrow-Hoff suffer in its first {_SHARE_AT} rounds (of {a.T:,})?")


def _share_why(a: WidrowHoffAnalysis) -> str:
    s = wh.loss_share(a, _SHARE_AT)
    return (f"{s:.0%}: L_WH = {float(a.cumulative[_SHARE_AT - 1]):.3g} after {_SHARE_AT} rounds, {a.loss:.3g} after "
            f"{a.T:,}, under the bound {a.theorem1.value:.3g}. With L_u = 0 every loss is paid out of the potential "
            "‖w₁ − u‖² = ‖u‖², which only falls: the early rounds, far from u, spend most of it, and the total stays "
            "bounded however long the stream.")


def _rate_q(a: WidrowHoffAnalysis) -> str:
    return (f"Here η = {a.eta:g} and u is the least-squares vector of the whole stream. After {_RATE_AT} of the "
            f"{a.T:,} rounds, how many times u's rate of loss $L_{{\\mathbf u}}(t)/t$ will Widrow-Hoff's "
            "$L_{WH}(t)/t$ be?")


def _rate_why(a: WidrowHoffAnalysis) -> str:
    r, R = wh.rate_ratio(a, _RATE_AT), wh.rate_ratio(a, a.T)
    return (f"L_WH/L_u = {r:.3g} after {_RATE_AT} rounds, {R:.3g} after {a.T:,}. Early on the term ‖u‖²/(ηt) "
            f"dominates: w starts at 0 and pays to walk to u. It shrinks like 1/t, and the ratio tends to at most "
            f"1/(1 − η) = {1 / (1 - a.eta):.3g}: the rate of loss approaches the best vector's.")


def _rise_q(a: WidrowHoffAnalysis) -> str:
    return (r"$\Phi_t = \|\mathbf w_t - \mathbf u\|^2$ for the $\mathbf u$ that minimises the bound. In how many of the "
            f"first {_RISE_AT} rounds will Φ go **up**?")


def _rise_why(a: WidrowHoffAnalysis) -> str:
    k = wh.potential_rises(a, _RISE_AT)
    return (f"In {k} of the first {_RISE_AT} rounds. The claim is not that Φ falls: it is "
            r"$\Phi_{t+1} - \Phi_t \le -\eta\,\ell_t^2 + \frac{\eta}{1-\eta}\,g_t^2$, so Φ may rise when u's own loss "
            r"$g_t^2$ (the noise) is large against the learner's $\ell_t^2$. Summed, the rises are paid for by "
            r"$L_{\mathbf u}/(1-\eta)$: that is the bound. "
            f"Rounds where the claim fails in this run: {a.claim_violations}.")


LECTURE = [
    Scene("Predict, observe, pay the square loss", _FIRST, t=15, narration=(
        r"Each round: see $\mathbf x_t$ with $\|\mathbf x_t\| \le 1$, predict $\hat y_t = \mathbf w_t\cdot\mathbf x_t$, "
        r"observe $y_t$, pay $(\hat y_t - y_t)^2$. **Widrow-Hoff** starts at $\mathbf w_1 = \mathbf 0$ and takes a "
        r"gradient step on that one loss: $\mathbf w_{t+1} = \mathbf w_t - \eta(\mathbf w_t\cdot\mathbf x_t - y_t)\,\mathbf x_t$. "
        "On the plane: the loss bowl of the whole stream, its minimum u (star), and w's path after 15 rounds, one "
        f"round's gradient at a time. ({SOURCE})")),
    Scene("Motivation 2: the implicit update", _IMPLICIT, t=20, narration=(
        r"Why this rule? Fit the current example but stay close to what $\mathbf w_t$ knows: minimise "
        r"$\eta(\mathbf w\cdot\mathbf x_t - y_t)^2 + \|\mathbf w - \mathbf w_t\|^2$. The minimiser has $\mathbf w$ on "
        r"both sides, $\mathbf w = \mathbf w_t - \eta(\mathbf w\cdot\mathbf x_t - y_t)\mathbf x_t$; the notes put "
        r"$\mathbf w_t$ on the right and get Widrow-Hoff. Solved exactly it is the **implicit** update: the same "
        r"direction, shortened by $1/(1 + \eta\|\mathbf x_t\|^2)$. Section 6, *The implicit update*, draws both "
        r"paths at $\eta = 0.9$ over the first 20 rounds.")),
    Scene("Theorem 1: no noise, bounded loss", _NOISE_FREE, t=0, narration=(
        r"**Theorem 1.** If $\|\mathbf x_t\| \le 1$ for all $t$, then "
        r"$L_{WH} \le \min_{\mathbf u}\big(\frac{L_{\mathbf u}}{1-\eta} + \frac{\|\mathbf u\|^2}{\eta}\big)$. "
        r"Without noise the generating $\mathbf u$ has $L_{\mathbf u} = 0$, so $L_{WH} \le \|\mathbf u\|^2/\eta$ for "
        "every T: the cumulative loss stays bounded for ever."),
        question=Question(_share_q, "choice", wh.loss_share_band, args=(_SHARE_AT, _SHARE_EDGES),
                          options={0: "less than a quarter", 1: "a quarter to a half", 2: "a half to three quarters",
                                   3: "more than three quarters"}, reveal=_SHARE_AT, explain=_share_why)),
    Scene("The rate remark: L_WH/T against L_u/T", _RATE, t=0, narration=(
        r"Divide Theorem 1 by $T$ for a fixed $\mathbf u$: "
        r"$\frac{L_{WH}}{T} \le \frac{L_{\mathbf u}}{T}\cdot\frac{1}{1-\eta} + \frac{\|\mathbf u\|^2}{\eta T}$. "
        "As T grows the last term vanishes: Widrow-Hoff's **rate** of loss approaches u's, up to the factor "
        r"$1/(1-\eta)$. Section 6, *The rate of loss*, draws both rates over rounds (log scale)."),
        question=Question(_rate_q, "choice", wh.rate_ratio_band, args=(_RATE_AT, _RATE_EDGES),
                          options={0: "less than 1.1", 1: "1.1 to 1.5", 2: "1.5 to 3", 3: "3 or more"},
                          reveal=_RATE_AT, explain=_rate_why)),
    Scene("The proof: a potential that pays", _FIRST, t=0, narration=(
        r"Fix $\mathbf u$ and let $\Phi_t = \|\mathbf w_t - \mathbf u\|^2$, so $\Phi_1 = \|\mathbf u\|^2$. **Claim**: "
        r"$\Phi_{t+1} - \Phi_t \le -\eta\,\ell_t^2 + \frac{\eta}{1-\eta}\,g_t^2$, with "
        r"$\ell_t = \mathbf w_t\cdot\mathbf x_t - y_t$ and $g_t = \mathbf u\cdot\mathbf x_t - y_t$. Summed over all rounds this gives "
        r"$-\|\mathbf u\|^2 \le \Phi_{T+1} - \Phi_1 \le -\eta L_{WH} + \frac{\eta}{1-\eta}L_{\mathbf u}$; "
        "solve it for $L_{WH}$. Section 5 draws Φ against the claim."),
        question=Question(_rise_q, "choice", wh.potential_rises_band, args=(_RISE_AT, _RISE_EDGES),
                          options={0: "none: it only falls", 1: "1 to 10", 2: "11 to 25", 3: "26 or more"},
                          reveal=_RISE_AT, explain=_rise_why)),
    Scene("Choosing η", _LARGE_ETA, t=None, narration=(
        r"The bound trades two terms: $\frac{L_{\mathbf u}}{1-\eta}$ punishes a large η, which chases every noisy "
        r"target, and $\frac{\|\mathbf u\|^2}{\eta}$ a small one, which walks slowly to $\mathbf u$. Here η = 0.95 on "
        "noisy data: the bound pays L_u twenty times over. Section 3 sweeps η; the button in the settings sets the "
        "slider to its η with the smallest bound.")),
    Scene("From online to batch: average the weights", _O2B, t=None, narration=(
        r"Given an i.i.d. sample of $m$ examples, run Widrow-Hoff once over it and output the **average** "
        r"$\mathbf v = (\mathbf w_1 + \dots + \mathbf w_m)/m$. **Theorem 2**: "
        r"$\mathbb E[R_{\mathbf v}] \le \min_{\mathbf u}\big(\frac{R_{\mathbf u}}{1-\eta} + \frac{\|\mathbf u\|^2}{\eta m}\big)$, "
        "by Jensen's inequality and Theorem 1. Section 6, *Online to batch*: the averaged vector's risk as m grows.")),
]

CONTENT = Content(presets=tuple(PRESETS), lecture=tuple(LECTURE), lecture_run="analyse", help=MappingProxyType(vars(HELP)))
