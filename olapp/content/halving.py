"""The Halving lesson's content: sources, presets, help texts and captions (facts from the run)."""

from __future__ import annotations

from types import MappingProxyType, SimpleNamespace

from olapp.content import Content
from olapp.controls import Preset
from olcore.claims import claim, text
from olapp.figures.halving import table_columns, table_rows
from olapp.lecture import Question, Scene
from olcore.lessons import halving as lesson
from olcore.lessons.halving import MAX_MOVES, HalvingAnalysis, HalvingGame, version_space_ceiling
from olapp.state import inert

UCL = "UCL COMP0078, Online learning"

INTRO = (
    "Suppose one of $n$ experts is **perfect**. Halving keeps the *version space* $C_t$ of "
    "experts that have not made a mistake yet, predicts with their **majority vote** (a tie "
    "predicts 1), and, once the outcome is revealed, **crosses out** everyone who was wrong. "
    "When Halving errs, the majority was wrong, so at least half of $C_t$ is crossed out: "
    "after $M$ mistakes at most $n/2^M$ experts remain, and since the perfect expert always "
    "does, $M \\le \\log_2 n$."
)

#: The page's own sources (label -> help); the kit adds "Upload". Labels double as URL values.
SOURCES = {
    "Lecture run": "the UCL slide's table, exactly.",
    "Perfect expert": "random advice, one expert always right.",
    "Adversary": "it sees Halving's vote and reveals the opposite, while splitting the consistent "
                 "experts in half, so Halving errs every round for ⌊log₂ n⌋ rounds.",
    "You are the adversary": "you pick each outcome after seeing Halving's prediction.",
}
#: Source label -> the analysis module's source name (``None``: not a generated stream).
CODES = {"Lecture run": "ucl", "Perfect expert": "perfect", "Adversary": "adversary",
         "You are the adversary": None}
DEFAULT_SOURCE = "Perfect expert"
UPLOAD_NOTE = ("Your own advice matrix need not have a consistent expert: then the version space "
               "empties and the theorem does not apply.")

HELP = SimpleNamespace(
    n="How many experts advise the master (2 to 1024). The bound is log₂ n.",
    T="Length of the random stream (perfect-expert stream only).",
    p="Perfect-expert stream: each imperfect expert is wrong independently with this probability "
      "per round. Small values keep bad experts alive longer.",
    extra="Adversary only: rounds played after the forced ones. Once one consistent expert is left "
          "the adversary can no longer force a mistake; these rounds show Halving stop erring.",
    y0="The outcome of this round is 0.",
    y1="The outcome of this round is 1.",
    undo="Take back your last outcome.",
    reset="Forget your outcomes; the same experts (same seed) advise again.",
)

PRESETS = [
    Preset("The lecture's 8-expert run",
           f"{UCL}, slide \"A run of the Halving Algorithm\": the table reproduced exactly. "
           "Halving errs in rounds 1 and 3 (M = 2 ≤ log₂ 8 = 3) and E4 is the one left standing.",
           {"stream": "Lecture run"}),
    Preset("The adversary: exactly ⌊log₂ n⌋ mistakes",
           f"{UCL}, problem 4 and the Halving theorem: against 1024 experts the adversary splits the "
           "version space in half every round, so Halving errs in each of the first ⌊log₂ 1024⌋ = 10 "
           "rounds and never again: the bound log₂ n is tight.",
           {"stream": "Adversary", "n": 1024}),
    Preset("A thousand experts, one perfect",
           f"{UCL}, the Halving theorem: each mistake keeps at most half of the version space, and the "
           "rounds without a mistake cross out the wrong minority too, so on random advice the version "
           "space shrinks about as fast on every round and Halving stops erring after a few mistakes, well "
           "below log₂ 1000 ≈ 9.97. The proof's table below gives the fraction each mistake kept.",
           {"stream": "Perfect expert", "n": 1000, "T": 60, "p": 0.5, "seed": 0}),
    Preset("You are the adversary (n = 8)",
           f"{UCL}, problem 4: choose each outcome after seeing Halving's vote. As long as one "
           "expert stays consistent you can force at most ⌊log₂ 8⌋ = 3 mistakes; contradict the last "
           "consistent expert and the theorem no longer applies.",
           {"stream": "You are the adversary", "n": 8, "seed": 0}),
]


# -- "you are the adversary" ------------------------------------------------------------------

def game_prompt(g: HalvingGame, played: int) -> tuple[str, str, str]:
    """(heading, the advice line, Halving's vote) for the next round of game ``g``."""
    shown = g.advice()
    cells = "  ".join(f"E{i + 1}:{x}" if x is not None else f"E{i + 1}:✗" for i, x in shown)
    more = " …" if g.n > len(shown) else ""
    return (f"Round {played + 1}: you choose the outcome",
            f"The experts advise &nbsp; `{cells}`{more}",
            f"Halving predicts **ŷ = {g.yhat_next}** ({g.votes_one} consistent experts say 1, "
            f"{g.votes_zero} say 0). Make it wrong?")


def game_full() -> str:
    return (f"The game has reached its {MAX_MOVES:,} rounds, as many as a link can carry: Undo or Start over "
            "to play on.")


def bad_moves(raw: str) -> str:
    return (f"This link's game “moves\\={inert(raw, 30)}” is not a string of at most {MAX_MOVES:,} outcomes "
            "0 and 1; a new game starts.")


# -- captions: facts computed from the run ---------------------------------------------------

def _fractions(values: list[float]) -> str:
    return ", ".join(f"{v:.2f}" for v in values)


def tally(a: HalvingAnalysis, t: int) -> list:
    """The tally's rows after ``t`` rounds (:meth:`olapp.kit.LessonPage.tally`)."""
    return [("mistakes", a.cum_mistakes[t - 1] if t else 0, a.bound), ("experts left", a.sizes[t], a.ceiling)]


def table(a: HalvingAnalysis, t: int) -> str:
    """The lecture table's caption after ``t`` rounds."""
    columns_shown, rows_shown = len(table_columns(a.alive)), len(table_rows(a.alive, a.trace.mistakes, t))
    note = "" if columns_shown == a.n else (
        f" Showing the {columns_shown} of {a.n} experts that stayed consistent longest.")
    if rows_shown < t:
        note += f" Showing {rows_shown} of {t} rounds: those with a mistake or an elimination, and the latest."
    return ("Rows are rounds, columns experts. A cell shows the advice of an expert still in the version "
            "space; ✗ once it has been crossed out. Shaded cells: a consistent expert that is wrong this "
            "round (it is crossed out next). The last row marks who is still consistent (✓)." + note)


def empty_warning(a: HalvingAnalysis) -> str:
    return (f"**No expert is consistent with this stream.** The version space became empty after round "
            f"{a.empty_after}: every expert has been wrong at least once. Halving's assumption (a perfect "
            "expert) fails, so $\\log_2 n$ bounds nothing; with no one left to vote, 0 votes against 0 is a "
            "tie and Halving predicts 1 from then on. Weighted Majority (next page) only shrinks the weights "
            "of wrong experts instead of discarding them, and copes.")


def version_space(a: HalvingAnalysis, t: int) -> str:
    text = ("Blue: how many experts are still consistent after each round (log scale). Dashed: the "
            "proof's ceiling n/2^M_t, which halves at every mistake; the blue steps stay under it.")
    kept = a.kept_on_mistakes(t)
    on_mistakes, without = a.crossed_out(t)
    if kept:
        text += (f" By round {t} the {len(kept)} mistake{'s' if len(kept) > 1 else ''} kept "
                 f"{_fractions(kept)} of the version space (each at most half).")
    if without:
        text += (f" Rounds without a mistake crossed out {without} more expert{'s' if without > 1 else ''} "
                 f"(the wrong minority; mistakes crossed out {on_mistakes}), which is why the blue line can "
                 "fall faster than the ceiling.")
    if a.consistent:
        text += " Dotted: a consistent expert keeps at least one alive."
    elif a.empty_by(t):
        text += f" After round {a.empty_after} no expert is consistent (drawn at 0.5: the log scale has no 0)."
    return text


def mistakes(a: HalvingAnalysis, t: int) -> str:
    text = (f"Halving's mistakes so far (M_t = {a.mistakes_until(t)} after round {t}): each step is a wrong "
            f"majority. The dashed line log₂ n = {a.bound.value:.3g} is the theorem's ceiling")
    if a.consistent:
        return text + "; the staircase cannot climb past it while a consistent expert exists."
    return text + (f", but no expert is consistent with this stream (M = {a.M} in all), so the line bounds "
                   "nothing here.")


def tight(a: HalvingAnalysis) -> str:
    """A line under the theorem when the run reaches the bound (empty otherwise)."""
    if not a.tight:
        return ""
    text = (f"Halving made $\\lfloor\\log_2 {a.n}\\rfloor = {a.floor_log2_n}$ mistakes, the most a whole "
            "number of mistakes can be under the theorem: on this stream the bound is **tight**.")
    if a.forced_rounds:
        text = (f"The adversary forced a mistake in each of its first {a.forced_rounds} rounds. " + text)
    return text


PROOF_INTRO = "The theorem's proof, with this run's numbers up to the player's round."
PROOF_STEPS = (
    "1. At the start every expert is consistent: $|C_1| = n$.\n"
    "2. On a mistake the majority of $C_t$ was wrong, and all of it is crossed out: "
    "$|C_{t+1}| \\le |C_t|/2$; on other rounds $|C_{t+1}| \\le |C_t|$ (the wrong minority is crossed out).\n"
    "3. So after $M$ mistakes $|C_{m+1}| \\le n/2^M$.\n"
    "4. The perfect expert is never crossed out: $|C_{m+1}| \\ge 1$.\n"
    "5. Hence $1 \\le n/2^M$, that is $M \\le \\log_2 n$."
)


def proof_table(a: HalvingAnalysis, t: int) -> str:
    """The proof table's caption after ``t`` rounds (none before the first mistake: no table)."""
    if not a.mistakes_until(t):
        return ""
    kept = a.kept_on_mistakes(t)
    worst = f"; here the largest is {max(kept):.3f}" if kept else ""
    return claim(f"Each mistake keeps at most half of the version space (after/before ≤ 0.5{worst}), so the "
                 "size after the k-th mistake is at most n/2^k.", all(k <= 0.5 for k in kept),
                 "every mistake kept at most half of the version space")


def proof_end(a: HalvingAnalysis, t: int) -> str:
    """The proof's end at round t (markdown): step 4 failing, or the chain 1 ≤ |C| ≤ n/2^M (a display formula)."""
    if a.sizes[t] == 0:
        return f"Here step 4 fails: after round {t} no expert is consistent ($|C_{{{t + 1}}}| = 0$)."
    M = a.mistakes_until(t)
    return ("$$\n" + rf"1 \le |C_{{{t + 1}}}| = {int(a.sizes[t])} \le \frac{{n}}{{2^{{M_t}}}} = "
            rf"\frac{{{a.n}}}{{2^{{{M}}}}} = {version_space_ceiling(a.n, M):.4g}" + "\n$$")


# -- the lecture: the notes' order of ideas, as scenes (olapp/lecture.py) --------------------------

_UCL = {"stream": "Lecture run", "n": 8, "T": 40, "p": 0.5, "extra": 6, "seed": 0}
_RANDOM = {"stream": "Perfect expert", "n": 1000, "T": 60, "p": 0.5, "extra": 6, "seed": 0}
_ADVERSARY = {"stream": "Adversary", "n": 64, "T": 40, "p": 0.5, "extra": 6, "seed": 0}
_M_BANDS = (0, 1, 4, 10)


def _first_round(a: HalvingAnalysis) -> str:
    x, y, yhat = a.X[0], int(a.y[0]), int(a.trace.predictions[0])
    ones = int(x.sum())
    return (f"In round 1, {ones} of the {a.n} experts advise 1 and {a.n - ones} advise 0, so Halving predicts "
            f"**ŷ = {yhat}**{' (a tie predicts 1)' if 2 * ones == a.n else ''}. The outcome is **y = {y}**. "
            "How many experts are still consistent after round 1?")


def _first_round_why(a: HalvingAnalysis) -> str:
    gone = a.n - int(a.sizes[1])
    why = ("Halving erred, so the majority it followed was wrong, and every one of them is crossed out: "
           if a.trace.mistakes[0] else "Halving was right; only the wrong minority is crossed out: ")
    return why + f"{gone} experts go, {int(a.sizes[1])} of {a.n} stay (at most half, after a mistake)."


def _random_why(a: HalvingAnalysis) -> str:
    kept = ", ".join(f"{k:.2f}" for k in a.kept_on_mistakes())
    return text(claim(f"Halving made M = {a.M} mistakes, below log₂ {a.n} ≈ {a.bound.value:.3g}.",
                      a.M < a.bound.value, "M < log2 n"),
                claim(f" Each mistake kept at most half of the version space (here {kept}),",
                      all(k <= 0.5 for k in a.kept_on_mistakes()), "every mistake kept at most half"),
                " and the rounds without a mistake crossed out the wrong minority too: after round "
                f"{a.T}, {_experts(int(a.sizes[-1]))} left.")


def _experts(k: int) -> str:
    return f"{k} expert is" if k == 1 else f"{k} experts are"


def _adversary_why(a: HalvingAnalysis) -> str:
    steps = " → ".join(str(int(v)) for v in a.sizes[:a.floor_log2_n + 1])
    m = a.trace.mistakes
    return text(f"The adversary reveals the opposite of Halving's vote while splitting the version space exactly in "
                f"half: {steps}. ",
                claim(f"That is ⌊log₂ {a.n}⌋ = {a.floor_log2_n} forced mistakes; with one consistent expert left, "
                      f"Halving follows it and never errs again ({a.M} mistakes in {a.T} rounds). ",
                      bool(m[:a.floor_log2_n].all()) and not m[a.floor_log2_n:].any(),
                      "a mistake in each of the first ⌊log2 n⌋ rounds and none after"),
                claim("The bound is tight.", a.M == a.floor_log2_n, "M = ⌊log2 n⌋"))


def _proof_why(a: HalvingAnalysis) -> str:
    return (f"1 ≤ |C| ≤ n/2^M means 2^M ≤ n, so M ≤ log₂ {a.n} ≈ {a.bound.value:.3g}, and a whole number of "
            f"mistakes is at most {a.floor_log2_n}. This run made {a.M}.")


LECTURE = [
    Scene("The lecture's table", _UCL, t=0, narration=(
        "Eight experts advise 0 or 1 each round; one of them is **never wrong**, but we do not know which. "
        "Halving keeps the **version space**, the experts not yet wrong (all 8 at the start), predicts their "
        "**majority vote** (a tie predicts 1), then **crosses out** everyone who was wrong. "
        "The table has one row per round and the last row marks who is still consistent.")),
    Scene("The first mistake", _UCL, t=0, narration=(
        "Round 1: the vote is a tie. Predict what the table will look like once the outcome is revealed."),
        question=Question(_first_round, "number", lesson.size_after, args=(1,), reveal=1,
                          explain=_first_round_why)),
    Scene("Every mistake halves the version space", _RANDOM, t=0, narration=(
        "A thousand experts, one perfect, the others wrong at random half the time. On a mistake the majority "
        "was wrong, so **at least half** of the version space is crossed out; on the other rounds the wrong "
        "minority goes. Watch the blue line against the dashed ceiling n/2^M."),
        question=Question("How many mistakes will Halving make in these rounds?", "choice", lesson.mistakes_band,
                          args=(_M_BANDS,), options={0: "none", 1: "1 to 3", 2: "4 to 9", 3: "10 or more"},
                          explain=_random_why)),
    Scene("The adversary forces ⌊log₂ n⌋ mistakes", _ADVERSARY, t=0, narration=(
        "Now the outcomes are chosen against Halving: the adversary sees its vote, reveals the opposite, and "
        "keeps the experts split evenly so that one stays consistent. Can it make Halving err forever?"),
        question=Question(lambda a: f"With n = {a.n} experts, how many mistakes will the adversary force in all?",
                          "number",
                          lesson.total_mistakes, explain=_adversary_why)),
    Scene("The proof", _RANDOM, t=0, narration=(
        "1. At the start $|C_1| = n$.\n"
        "2. A mistake keeps at most half: $|C_{t+1}| \\le |C_t|/2$.\n"
        "3. So after $M$ mistakes $|C| \\le n/2^M$.\n"
        "4. The perfect expert is never crossed out: $|C| \\ge 1$.\n"
        "5. Hence $1 \\le n/2^M$, that is $M \\le \\log_2 n$."),
        question=Question(lambda a: f"For n = {a.n}, what is the largest whole number of mistakes the proof allows?",
                          "number",
                          lesson.most_mistakes, explain=_proof_why)),
]

CONTENT = Content(presets=tuple(PRESETS), lecture=tuple(LECTURE), lecture_run="analyse", help=MappingProxyType(vars(HELP)))
