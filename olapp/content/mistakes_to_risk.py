"""The /mistakes_to_risk lesson's content: presets, help texts, the derivation, and captions computed from the run.

Every caption takes an analysis of :mod:`olcore.lessons.mistakes_to_risk` and states what the run shows for
any distribution, learner, sample size and δ the page offers.
"""

from __future__ import annotations

from types import MappingProxyType, SimpleNamespace

from olapp.content import Content
from olcore import bounds
from olcore.bounds.risk import C1
from olcore.claims import claim, text
from olcore.lessons import mistakes_to_risk as lesson
from olcore.lessons.mistakes_to_risk import LEVEL, Analysis, Repetitions
from olcore.online_to_batch import LEARNERS

from ..controls import Preset
from ..lecture import Question, Scene

CB = "Cesa-Bianchi, On-line learning, Statistical learning theory"

#: Learners offered: every learner of olcore.online_to_batch.LEARNERS.
LEARNER_NAMES = {k: v.label for k, v in LEARNERS.items()}
NS = [100, 200, 500, 1000, 2000]
DELTAS = [0.01, 0.05, 0.1, 0.2, 0.5]
REPS = [20, 50, 100, 200]

SOURCES = {
    "Separable": "x ~ N(0, I_d), y = sign(u·x) for a random unit u: Bayes risk 0 (no margin).",
    "Label noise": "the separable distribution with each label flipped with probability 'noise': Bayes risk = noise.",
    "Overlapping classes": "y = ±1 equally likely, x = y·μ + N(0, I_d) with ‖μ‖ chosen so that the Bayes risk "
                           "Φ(−‖μ‖) equals 'noise'.",
}

#: The preset with the larger sample (its note is checked at n = 2000 and n = 1000 in the tests).
LARGER = "Larger sample: a smaller mistake-only bound for Ĥ"

PRESETS = [
    Preset("Perceptron, 10% label noise",
           f"{CB}, Step 1 and Step 2: the ensemble's average risk exceeds the Perceptron's fraction of mistakes M_n/n by "
           "at most the Bernstein deviation; Ĥ, chosen by penalised risk, has about half the ensemble's average risk.",
           {"stream": "Label noise", "n": 1000, "d": 5, "noise": 0.1, "seed": 0, "learner": "perceptron",
            "delta": 0.05}),
    Preset("Separable: few mistakes, a tight bound",
           f"{CB}: on a separable distribution M_n grows slowly, so the average-risk bound M_n/n + O((L + "
           "√(M_n L))/n) is small.",
           {"stream": "Separable", "n": 1000, "d": 5, "seed": 0, "learner": "perceptron", "delta": 0.05}),
    Preset("Passive-Aggressive on overlapping classes",
           f"{CB}: the conversion works for any incremental learner; PA changes its hypothesis on every margin "
           "error, not only on mistakes, and the same bounds hold.",
           {"stream": "Overlapping classes", "n": 1000, "d": 5, "noise": 0.1, "seed": 0, "learner": "pa",
            "delta": 0.05}),
    Preset(LARGER,
           f"{CB}, Step 2, guaranteed bound: with n = 2000 on a separable distribution the bound on risk(Ĥ) from M_n "
           "alone is below 1, and smaller than at n = 1000 on the same distribution (set n to 1000 to compare): its "
           "terms are divided by n, and M_n grows slowly.",
           {"stream": "Separable", "n": 2000, "d": 5, "seed": 0, "learner": "perceptron", "delta": 0.05}),
]

HELP = SimpleNamespace(
    n="Size n of the training sample: the learner makes one pass, producing H_0, …, H_n.",
    d="Dimension d of the instances x.",
    noise="Label noise: the probability a label is flipped. Overlapping classes: the Bayes risk Φ(−‖μ‖). "
          "Both are the best risk any classifier can reach.",
    learner="The incremental learner run on the sample. The bounds hold for every one of them: they need only "
            "that H_(t−1) depends on the first t − 1 examples.",
    delta="The bounds hold with probability at least 1 − δ over the random sample.",
    reps="How many independent samples the failure count below draws (each of size n, at most 1000, from the same "
         "distribution).",
    upload="An uploaded sample: features then a label ±1 per row. It is shuffled with the seed and split: the "
           "first half (at most 2,000 rows) trains, the other rows are held out to estimate each hypothesis's risk. The repetitions "
           "below draw samples with replacement from your rows (at most 5,000 of them, chosen with the seed).",
)

INTRO = (
    "An online learner never promised anything about **future** examples: its guarantees count mistakes on the "
    "stream it saw. If the stream is an **i.i.d. sample** from a distribution, the mistakes say something about "
    "the **risk** $\\mathrm{risk}(H) = \\mathbb P(H(\\mathbf x) \\ne y)$ too. One pass over "
    "$(\\mathbf x_1, y_1), \\dots, (\\mathbf x_n, y_n)$ produces an ensemble $H_0, H_1, \\dots, H_n$, and "
    "$\\mathrm{risk}(H_{t-1}) - \\mathbb 1[H_{t-1}(\\mathbf x_t) \\ne y_t]$ is a martingale difference: each "
    "$H_{t-1}$ is tested on an example it has not seen. **Step 1**: Bernstein's inequality turns the fraction of "
    "mistakes $M_n/n$ into a bound on the ensemble's average risk. **Step 2**: test each $H_t$ on the examples "
    "after it and pick one, $\\hat H$, by a penalised risk estimate. Every risk drawn here is measured on a "
    "**held-out** sample (or exactly, in the failure count), never on the training sample."
)

DERIVATION = r"""
**Bernstein's bound** (as the notes state it): if $Z_1, Z_2, \dots$ is a martingale difference sequence with
$Z_t \le 1$ and $V_n = \sum_t \mathbb E[Z_t^2 \mid \text{past}]$, then for all $S, K > 0$
$\ \mathbb P\big(\sum_{t\le n} Z_t \ge S,\ V_n \le K\big) \le \exp\big(-\frac{S^2}{2(S/3 + K)}\big)$.

**1. Invert it.** The right side is $e^{-L}$ at $S(K) = \frac L3 + \sqrt{\frac{L^2}9 + 2LK}$.

**2. Step 1.** $Z_t = \mathrm{risk}(H_{t-1}) - \mathbb 1[\text{mistake}_t]$, $A = \sum_t \mathrm{risk}(H_{t-1})$. A Bernoulli
variance is at most its mean, so $V_n \le A$ (the notes' step). $A$ is random, so $K$ cannot be $A$:
apply the bound for every $K_j = 2^j$, $j = 0, \dots, J-1$, $J = \lceil \log_2 n\rceil + 1$ (so $K_{J-1} \ge n \ge A$), each at
$e^{-L} = \delta/J$; the union fails with probability at most $\delta$. For the smallest $j$ with $A \le K_j$,
$K_j \le 2A + 1$, so $A - M_n < S(2A+1)$. Solving this quadratic inequality in $A$:

$$\frac1n\sum_{t=1}^n \mathrm{risk}(H_{t-1}) < \frac1n\Big(M_n + \frac{7L}3 + \sqrt{\frac{49L^2}9 + 2L + 4LM_n}\Big), \qquad L = \ln\frac{\lceil\log_2 n\rceil + 1}{\delta}.$$

*Where this differs from the notes:* the notes' $c(\ln M_n + \sqrt{M_n\ln M_n})$ becomes, with
$\sqrt{a + b} \le \sqrt a + \sqrt b$, at most $\frac{14}3L + \sqrt{2L(2M_n+1)}$: the constant is $c \le 14/3$ and the
logarithm is $L = \ln\frac{\lceil\log_2 n\rceil + 1}{\delta}$ (the peeling grid), not $\ln M_n$; the confidence $1-\delta$ is explicit.

**3. One fixed hypothesis on unseen data.** Given $H_t$ (it depends on the first $t$ examples only), its
$e_t$ errors on the $m_t = n - t$ later examples are a sum of i.i.d. indicators with $V \le m_t\,\mathrm{risk}(H_t)$,
a constant, so no grid is needed: with probability $1 - e^{-L}$,
$\mathrm{risk}(H_t) < \frac1{m_t}\big(e_t + \frac{4L}3 + \sqrt{\frac{16L^2}9 + 2Le_t}\big) =: \hat r_t + \mathrm{pen}_t$.

**4. Step 2.** $\hat H = H_{t^*}$ minimises $\hat r_t + \mathrm{pen}_t$ over $t = 0..n-1$ at $L_{pen} = \ln(3n/\delta)$ (a
union over $n$ hypotheses, a third of $\delta$): so $\mathrm{risk}(\hat H) \le \min_t(\hat r_t + \mathrm{pen}_t)$ with
probability $\ge 1 - \delta/3$ (the data-dependent bound). To express it in $M_n$ alone, add the other side of
3 (another $\delta/3$) and Step 1 at $\delta/3$: the minimum is at most the mean over $t$, each term is at most
$\mathrm{risk}(H_t) + (c_1L_{pen} + 2\sqrt{2L_{pen}m_t\mathrm{risk}(H_t)})/m_t$ with $c_1 = 13/3 + 1/\sqrt3$,
$\sum_t 1/m_t = H_n \le 1 + \ln n$, and Cauchy-Schwarz gives

$$\mathrm{risk}(\hat H) \le \frac1n\Big(B + c_1L_{pen}H_n + 2\sqrt{2L_{pen}H_nB}\Big),\quad B = \text{Step 1's bound on } A \text{ at } \delta/3.$$

*Where this is looser than the notes:* their $\sqrt{M_n\ln n}$ is here $\sqrt{M_n\ln(n/\delta)\ln n}$ (the
Cauchy-Schwarz step); the $(\ln n)^2$ term is theirs, as $L_{pen}H_n$. With explicit constants it can be vacuous
(above 1) on small samples, where the data-dependent bound is the one to use; this run's value is below.
"""


def _f(x: float) -> str:
    return f"{x:.3f}"


def status(a: Analysis, t: int) -> dict[str, str]:
    """The readout at round t (t = 0: before the first example)."""
    if t == 0:
        return {"round": "0", "mistakes M_t": "0", "risk(H_0)": _f(a.risk[0]), "average risk": "–", "bound": "–"}
    return {"round": f"{t} of {a.n}", "mistakes M_t": f"{int(a.M[t - 1])}  ({a.M[t - 1] / t:.3f})",
            f"risk(H_{t - 1})": _f(a.risk[t - 1]), "average risk": _f(a.average[t - 1]),
            "bound": _f(a.average_report.curve[t - 1])}


def ensemble(a: Analysis, t: int | None = None) -> str:
    """The Step 1 chart's caption; with ``t`` (the player's round) its numbers are those after round t."""
    n = a.n
    t = n if t is None else min(max(int(t), 0), n)
    bayes = f" The Bayes risk {a.bayes_risk:.3f} (green) is the floor for every classifier." if a.bayes_risk is not None else ""
    text = (f"Grey: the risk of each H_(t−1), estimated on {a.n_holdout:,} held-out examples (H_0 = 0 errs on every "
            f"example: risk 1). Blue: its running average; orange: the fraction of mistakes M_t/t; red dashed: Step 1's "
            f"bound (1/t)(M_t + 7L/3 + √(49L²/9 + 2L + 4L·M_t)) at δ = {a.delta:g}, capped at 1. Each point of the "
            f"red curve is a bound for that t on its own (probability ≥ 1 − δ at each t, not for all t at once). ")
    if t == 0:
        return text + f"Step through the {n} rounds.{bayes}"
    exact = (f" (exact under this distribution: {a.exact[:t].mean():.4f})" if a.exact is not None else "")
    return text + (f"After {'n = ' if t == n else ''}{t}{'' if t == n else f' of {n}'} rounds: average risk "
                   f"{a.average[t - 1]:.4f}{exact}, M_{'n' if t == n else 't'}/{'n' if t == n else 't'} = "
                   f"{a.M[t - 1] / t:.4f}, bound {a.average_report.curve[t - 1]:.4f}.{bayes}")


def martingale(a: Analysis, t: int | None = None) -> str:
    """The martingale chart's caption; with ``t`` (the player's round) it reads rounds 1..t."""
    env = a.bounds.envelope
    t = a.n if t is None else min(max(int(t), 0), a.n)
    text = ("Purple: the martingale Σ_(s≤t) (risk(H_(s−1)) − 1[mistake_s]) = t × (average risk − M_t/t); it has "
            "mean 0 at every t. Red dashed: the upper envelope Step 1 derives from Bernstein's inequality (its bound "
            "on the sum of the risks minus M_t). ")
    if t == 0:
        return text + "The envelope grows like √(M_t), the martingale's typical size."
    top = int(a.martingale[:t].argmax())
    return text + (f"{'The martingale peaks' if t == a.n else f'In rounds 1..{t} the martingale peaks'} at "
                   f"{a.martingale[top]:.2f} (t = {top + 1}, envelope {float(env[top]):.2f}) and "
                   f"{'ends' if t == a.n else 'is now'} at {a.martingale[t - 1]:.2f} (envelope {float(env[t - 1]):.2f}): "
                   "the envelope grows like √(M_t), the martingale's typical size.")


def derivation_numbers(a: Analysis) -> str:
    """The constants of the derivation for this run."""
    n = a.n
    J = bounds.peeling_cells(n)
    chm = float(a.chosen_mistakes_report.value)
    where = (claim(f"{chm:.3f}, above 1: vacuous here", chm > 1, "the guaranteed bound > 1") if chm > 1 else
             claim(f"{chm:.3f}, below 1", chm <= 1, "the guaranteed bound ≤ 1"))
    return text(f"**This run's constants** (n = {n}, δ = {a.delta:g}): J = ⌈log₂ n⌉ + 1 = {J}, "
                f"L = ln(J/δ) = {float(a.bounds.level[-1]):.3f}, L_pen = ln(3n/δ) = {a.choice.level:.3f}, "
                f"L₃ = ln(3J/δ) = {float(bounds.average_risk_level(n, a.delta / 3)):.3f}, "
                f"H_n = {float(bounds.risk._harmonic(n)):.3f}, c₁ = {C1:.4f}. With M_n = {int(a.M[-1])} the guaranteed "
                "bound on risk(Ĥ) is ", where, ".")


def derivation(a: Analysis) -> str:
    """The derivation with this run's constants after it."""
    return text(DERIVATION, "\n\n", derivation_numbers(a))


def choice(a: Analysis) -> str:
    c = a.choice
    words = (f"For each H_t (t = 0..n−1): sky blue, its error rate r̂_t on the n − t examples after it; blue, the "
            f"penalised estimate r̂_t + pen_t (the Bernstein upper confidence bound at δ/(3n), L_pen = {c.level:.2f}; "
            f"it leaves the top of the chart where the penalty is large); grey, its held-out risk. The star is Ĥ = H_{c.t_star}, the minimiser: penalised "
            f"estimate {c.bound:.4f}, held-out risk {a.risk_chosen:.4f}. Late hypotheses have few test examples, "
            f"so their penalty is large. Beside it: the last hypothesis H_n, held-out risk {a.risk_last:.4f}, and the "
            f"averaged w̄ = (1/n)Σ w_t (the regression lesson's conversion), held-out risk {a.risk_averaged:.4f}.")
    chm = a.chosen_mistakes_report.value
    if chm > 1.0:
        return text(words, claim(f" The bound from M_n alone is {chm:.3f} here: above 1, it says nothing and is not "
                                 "drawn (with explicit constants its (ln n)² term needs larger samples).", chm > 1.0,
                                 "the bound from M_n > 1"))
    return words


def readout_choice(a: Analysis) -> dict[str, str]:
    out = {"risk(Ĥ)": _f(a.risk_chosen), "bound min_t(r̂ + pen)": _f(a.choice.bound),
           "bound from M_n": _f(a.chosen_mistakes_report.value), "risk(H_n), last": _f(a.risk_last),
           "risk(w̄), averaged": _f(a.risk_averaged)}
    if a.bayes_risk is not None:
        out["Bayes risk"] = _f(a.bayes_risk)
    return out


def repetitions(r: Repetitions) -> str:
    f, p = r.failures(), r.p_values()
    names = {"average": "Step 1 (average risk)", "chosen": "Ĥ, data-dependent", "chosen_mistakes": "Ĥ, from M_n"}
    parts = [f"{names[k]}: {f[k]} of {r.R} ({f[k] / r.R:.1%}, p = {p[k]:.3g})" for k in names]
    rejected = [names[k] for k in names if p[k] < LEVEL]
    verdict = (f"The one-sided binomial test rejects 'fails with probability ≤ δ' at level {LEVEL:g} for: "
               + ", ".join(rejected) + "." if rejected else
               f"No failure rate is significantly above δ (one-sided binomial test at level {LEVEL:g}).")
    rare = max(f.values()) <= r.delta * r.R / 2
    return text(f"{r.R} independent samples of n = {r.n} from the same distribution; each hypothesis's risk is exact "
                f"here ({'closed form for this distribution' if r.bayes_risk is not None else 'the error rate over the uploaded rows drawn from'}). "
                f"Sorted ratios true risk / bound; a bound fails where a dot lies above 1. Failures against δ = "
                f"{r.delta:g}: " + "; ".join(parts) + ". " + verdict,
                claim(" All three fail at most half as often as δ: they are built from worst-case steps (a variance "
                      "bounded by its mean, union bounds).", rare, "every failure count ≤ δR/2") if rare else "")


def run_line(a: Analysis) -> str:
    return (f"This run: **M_n = {int(a.M[-1])}** mistakes in n = {a.n} rounds; Ĥ = H_{a.t_star} with held-out risk "
            f"**{a.risk_chosen:.4f}**; c₁ = {C1:.3f}.")


# ---- the lecture: the notes' order (i.i.d. samples, the ensemble, the martingale, Step 1, Step 2) --------------

def _scene(source: str = "Label noise", n: int = 1000, learner: str = "perceptron") -> dict:
    """A scene's settings: every widget key the page's runs read."""
    return {"stream": source, "n": n, "d": 5, "noise": 0.1, "seed": 0, "learner": learner, "delta": 0.05,
            "reps": 100}


_NOISY, _LARGE, _PA = _scene(), _scene("Separable", 2000), _scene("Overlapping classes", learner="pa")
_M_EDGES = (0, 101, 201, 301)


def _mistakes_prompt(a: Analysis) -> str:
    bayes = (f" (the Bayes risk is {a.bayes_risk:.2g}: even the best classifier errs on about "
             f"{a.bayes_risk * a.n:.0f} of them)" if a.bayes_risk is not None else "")
    return f"How many mistakes M_n will the {LEARNER_NAMES[a.learner]} make in its one pass over the {a.n} examples{bayes}?"


def _mistakes_why(a: Analysis) -> str:
    n, M = a.n, int(a.M[-1])
    half = int(a.M[n // 2 - 1])
    text = (f"M_n = **{M}**, {M / n:.1%} of the rounds ({half} in the first half, {M - half} in the second). Every "
            f"mistake is H_(t−1) erring on an example it has not seen, so M_n/n estimates the ensemble's average risk, "
            f"here {a.average[-1]:.4f}")
    if a.bayes_risk is not None and a.average[-1] > 1.5 * a.bayes_risk:
        return text + (f": well above the Bayes risk {a.bayes_risk:.2g}, because the early hypotheses are poor and a "
                       "learner that updates on every mistake keeps moving on noisy labels.")
    return text + "."


def _average_why(a: Analysis) -> str:
    n, M = a.n, int(a.M[-1])
    where = {0: "below it", 1: "above it, but under Step 1's bound", 2: "above Step 1's bound (probability ≤ δ)"}
    return (f"The average risk is **{a.average[-1]:.4f}** and M_n/n = {M}/{n} = {M / n:.4f}: "
            f"{where[lesson.average_vs_mistakes(a)]} {a.average_report.value:.4f}. Their difference times n is the "
            f"martingale, here {a.martingale[-1]:.2f}: it has mean 0, so either sign happens; Bernstein's inequality "
            f"caps how far above it can go, by an envelope growing like √(M_n) (here {float(a.bounds.envelope[-1]):.2f}).")


LECTURE = [
    Scene("From a stream to a sample", _NOISY, t=0, narration=(
        "Cesa-Bianchi, On-line learning, part 7. An online learner's guarantees count mistakes on the stream it "
        "saw. Now let the stream be an **i.i.d. sample**. One pass of the Perceptron produces an ensemble "
        "H_0, H_1, …, H_n, and each H_(t−1) is **tested on x_t before it learns from it**. Every risk drawn "
        "is measured on held-out data. Step through the first rounds.")),
    Scene("Mistakes on a noisy sample", _NOISY, t=0, narration=(
        "10% of the labels are flipped, so no classifier has risk below 0.1. The Perceptron updates on every "
        "mistake, noisy or not."),
        question=Question(_mistakes_prompt, "choice", lesson.mistakes_band, args=(_M_EDGES,),
                          options={0: "100 or fewer", 1: "101 to 200", 2: "201 to 300", 3: "more than 300"},
                          explain=_mistakes_why)),
    Scene("The mistakes are a martingale's increments", _NOISY, t=None, narration=(
        "Given the past, 1[H_(t−1)(x_t) ≠ y_t] has mean risk(H_(t−1)): so risk(H_(t−1)) − 1[mistake_t] is a "
        "**martingale difference**, and the purple sum has mean 0 at every t. A Bernoulli's variance is at most "
        "its mean, so the sum's variance is at most the total risk, of the order of M_n: the envelope grows like "
        "√(M_n), not √n.")),
    Scene("Step 1: from M_n to the average risk", _LARGE, t=0, narration=(
        "**Bernstein's inequality** for martingales turns the count into a bound: with probability 1 − δ, "
        "(1/n) Σ risk(H_(t−1)) ≤ (1/n)(M_n + 7L/3 + √(49L²/9 + 2L + 4L·M_n)) with L = ln((⌈log₂ n⌉ + 1)/δ), "
        "the red curve: M_n/n + O((L + √(M_n L))/n). A separable distribution and n = 2000: few mistakes, a small "
        "bound."),
        question=Question(lambda a: f"After all {a.n} rounds, where will the ensemble's average risk be?", "choice",
                          lesson.average_vs_mistakes,
                          options={0: "at or below M_n/n", 1: "above M_n/n, within Step 1's bound",
                                   2: "above Step 1's bound"}, explain=_average_why)),
    Scene("Step 2: one hypothesis, chosen by penalised risk", _NOISY, t=None, narration=(
        "An ensemble is not one classifier. Test each H_t on the n − t examples **after** it, add a Bernstein "
        "penalty that is large when few are left, and pick the minimiser Ĥ. With probability 1 − δ, "
        "risk(Ĥ) ≤ min_t(r̂_t + pen_t), and in terms of the mistakes alone "
        "risk(Ĥ) ≤ (1/n)(B + c₁L_pen H_n + 2√(2L_pen H_n B)) with L_pen = ln(3n/δ), H_n ≤ 1 + ln n and B Step 1's "
        "bound on the sum of the risks at δ/3: M_n/n + O((√(M_n ln(n/δ) ln n) + ln(n/δ) ln n)/n), the notes' "
        "√(M_n ln n) and (ln n)² with a ln(n/δ) for a ln n. Scroll to Step 2: Ĥ beside the last hypothesis H_n and "
        "the averaged w̄, all on held-out data.")),
    Scene("Any incremental learner", _PA, t=None, narration=(
        "Nothing in the argument is about the Perceptron: it needs only that H_(t−1) depends on the first "
        "t − 1 examples. Passive-Aggressive on overlapping Gaussian classes (Bayes risk 0.1) changes its "
        "hypothesis on every margin error, and the same two steps apply.")),
    Scene("How often does a bound fail?", _NOISY, t=None, narration=(
        "'With probability 1 − δ' is a statement about samples. The last chart draws 100 fresh samples and "
        "counts how often each bound fails, against δ = 0.05: each fails with probability at most δ (its caption "
        "gives the counts and a binomial test).")),
]

CONTENT = Content(presets=tuple(PRESETS), lecture=tuple(LECTURE), lecture_run="analyse", help=MappingProxyType(vars(HELP)))
