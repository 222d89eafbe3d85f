"""Halving: majority vote of the experts that have never been wrong (UCL COMP0078)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from olapp import controls, state
from olapp.figures import experts as figs
from olcore import StreamError, bounds, experts, streams

PRESENT = state.presenter_mode()

st.title("Halving: follow the experts who have never been wrong")
st.markdown(
    "Suppose one of $n$ experts is **perfect**. Halving keeps the *version space* $C_t$ of "
    "experts that have not made a mistake yet, predicts with their **majority vote** (a tie "
    "predicts 1), and, once the outcome is revealed, **crosses out** everyone who was wrong. "
    "When Halving errs, the majority was wrong, so at least half of $C_t$ is crossed out: "
    "after $M$ mistakes at most $n/2^M$ experts remain, and since the perfect expert always "
    "does, $M \\le \\log_2 n$."
)

# -- the lecture's worked run (seeds/000_8a17f779656f0ef2.txt, "A run of the Halving Algorithm")
# The slide leaves eliminated experts' later advice blank ("X"); we fill it with 0 (it is never
# read: Halving only counts consistent experts).
UCL_X = np.array([[1, 1, 0, 0, 1, 1, 0, 0],
                  [0, 0, 0, 1, 0, 0, 1, 1],
                  [0, 0, 0, 1, 0, 0, 0, 0]])
UCL_Y = np.array([0, 1, 1])

# Labels double as URL values (?stream=Adversary), so they are short.
SOURCES = {
    "Lecture run": "ucl",
    "Perfect expert": "perfect",
    "Adversary": "adversary",
    "You are the adversary": "you",
    "Upload": "upload",
}
HELP_SOURCE = (
    "**Lecture run**: the UCL slide's table, exactly.  **Perfect expert**: random advice, one "
    "expert always right.  **Adversary**: it sees Halving's vote and reveals the opposite, while "
    "splitting the consistent experts in half, so Halving errs every round for ⌊log₂ n⌋ rounds.  "
    "**You**: you pick each outcome after seeing Halving's prediction.  **Upload**: your own "
    "advice matrix (CSV); it need not have a consistent expert."
)


@st.cache_data(max_entries=32, show_spinner=False)
def generated(source: str, n: int, T: int, p_wrong: float, extra: int, seed: int):
    """The stream for the chosen source (not "you"/"upload") and Halving's run on it."""
    if source == "ucl":
        s = streams.from_arrays("experts", UCL_X, UCL_Y, {"best": 3})
    elif source == "perfect":
        s = streams.perfect_expert(T=T, n=n, seed=seed, p_wrong=p_wrong)
    else:
        s = streams.adversary_consistent(n, extra_rounds=extra, seed=seed)
    return s, experts.halving(s.X, s.y)


@st.cache_data(max_entries=32, show_spinner=False)
def played_by_you(n: int, labels: tuple[int, ...], seed: int):
    """Your game so far plus the next round's advice and Halving's vote on it."""
    s = streams.adversary_consistent(n, labels=list(labels) + [0], seed=seed)
    x_next, yhat_next = s.X[-1], int(s.info["learner_predictions"][-1])
    if labels:
        played = streams.from_arrays("experts", s.X[:-1], s.y[:-1], {})
        return played, experts.halving(played.X, played.y), x_next, yhat_next
    return None, None, x_next, yhat_next


@st.cache_data(max_entries=8, show_spinner=False)
def run_upload(X: np.ndarray, y: np.ndarray):
    return experts.halving(X, y)


LECTURE = "UCL COMP0078 (seeds/000_8a17f779656f0ef2.txt)"
PRESETS = [
    controls.Preset("The lecture's 8-expert run",
                    f"{LECTURE}, slide \"A run of the Halving Algorithm\": the table reproduced exactly. "
                    "Halving errs in rounds 1 and 3 (M = 2 ≤ log₂ 8 = 3) and E4 is the one left standing.",
                    {"stream": "Lecture run"}),
    controls.Preset("The adversary: exactly ⌊log₂ n⌋ mistakes",
                    f"{LECTURE}, problem 4 and the Halving theorem: against 1024 experts the adversary splits the "
                    "version space in half every round, so Halving errs in each of the first ⌊log₂ 1024⌋ = 10 "
                    "rounds and never again: the bound log₂ n is tight.",
                    {"stream": "Adversary", "n": 1024}),
    controls.Preset("A thousand experts, one perfect",
                    f"{LECTURE}, the Halving theorem: on random advice each mistake removes far more than half of "
                    "the version space, so Halving stops erring after a few mistakes, well below log₂ 1000 ≈ 9.97.",
                    {"stream": "Perfect expert", "n": 1000, "T": 60, "p": 0.5, "seed": 0}),
    controls.Preset("You are the adversary (n = 8)",
                    f"{LECTURE}, problem 4: choose each outcome after seeing Halving's vote. As long as one "
                    "expert stays consistent you can force at most ⌊log₂ 8⌋ = 3 mistakes; contradict the last "
                    "consistent expert and the theorem no longer applies.",
                    {"stream": "You are the adversary", "n": 8, "seed": 0}),
]

# -- controls ----------------------------------------------------------------------------------
ss = st.session_state
with st.container(border=True, key="controls"):
    preset_slot = st.container()       # filled after the widgets exist, so a shared link shows its note
    source = SOURCES[st.radio("Stream", list(SOURCES), index=1, key="stream", bind="query-params",
                              horizontal=True, help=HELP_SOURCE)]
    fixed = source in ("ucl", "upload")
    c2, c3, c4, c5, c6 = st.columns(5)
    n = int(c2.number_input("Experts n", min_value=2, max_value=1024, value=16, step=1, key="n",
                            bind="query-params", disabled=fixed,
                            help="How many experts advise the master (2 to 1024). The bound is log₂ n."))
    T = int(c3.number_input("Rounds T", min_value=1, max_value=2000, value=40, step=1, key="T",
                            bind="query-params", disabled=source != "perfect",
                            help="Length of the random stream (perfect-expert stream only)."))
    p_wrong = float(c4.slider("P(wrong)", 0.0, 1.0, 0.5, 0.05, key="p", bind="query-params",
                              disabled=source != "perfect",
                              help="Perfect-expert stream: each imperfect expert is wrong independently with "
                                   "this probability per round. Small values keep bad experts alive longer."))
    extra = int(c5.number_input("Extra rounds", 0, 200, 6, key="extra", bind="query-params",
                                disabled=source != "adversary",
                                help="Adversary only: rounds played after the forced ones. Once one consistent "
                                     "expert is left the adversary can no longer force a mistake; these rounds "
                                     "show Halving stop erring."))
    with c6:
        seed = controls.seed_input(key="seed")
    preset = controls.preset_selector(PRESETS, key="preset", where=preset_slot)
if PRESENT and preset is not None:      # the controls are hidden: keep the lecture's claim on screen
    st.info(f"**{preset.name}**: {preset.note}", icon=":material/school:")


def _moves_from_url() -> list[int]:
    """Your outcomes so far, from the link (``?moves=0110``); anything else starts a new game."""
    raw = st.query_params.get("moves", "")
    if raw and (len(raw) > 2000 or set(raw) - {"0", "1"}):
        st.warning(f"This link's `moves={raw[:30]}` is not a string of 0/1 outcomes; a new game starts.",
                   icon="🔗")
        return []
    return [int(c) for c in raw]


# -- the run -----------------------------------------------------------------------------------
trace = stream = None
t = 0
try:
    if source == "upload":
        stream = controls.csv_upload("experts", key="halving_csv")
        if stream is None:
            st.info("Upload a CSV of expert advice (one column per expert, 0 or 1, then the outcome y) "
                    "to run Halving on it.")
            st.stop()
        n = stream.k
        trace = run_upload(np.asarray(stream.X), np.asarray(stream.y))
    elif source == "you":
        game_id = (n, seed)
        if ss.get("halving_game") != game_id:
            first = "halving_game" not in ss           # a fresh session: resume the game in the link
            ss["halving_game"] = game_id
            ss["halving_labels"] = _moves_from_url() if first else []
        labels = tuple(ss["halving_labels"])
        st.query_params["moves"] = "".join(map(str, labels))   # the game so far travels in the link
        stream, trace, x_next, yhat_next = played_by_you(n, labels, seed)
        st.subheader(f"Round {len(labels) + 1}: you choose the outcome")
        alive = trace.weights_at(trace.T) > 0 if trace is not None else np.ones(n, bool)
        ahead = np.sort(np.argsort(~alive, kind="stable")[:24])        # consistent experts first
        advice = "  ".join(f"E{i + 1}:{x_next[i]}" if alive[i] else f"E{i + 1}:✗" for i in ahead)
        st.markdown(f"The experts advise &nbsp; `{advice}`{' …' if n > len(ahead) else ''}")
        st.markdown(f"Halving predicts **ŷ = {yhat_next}** ({int((alive & (x_next == 1)).sum())} consistent "
                    f"experts say 1, {int((alive & (x_next == 0)).sum())} say 0). Make it wrong?")
        b = st.columns(4)

        def _play(v):
            ss["halving_labels"] = list(ss["halving_labels"]) + [v]

        b[0].button("Reveal y = 0", on_click=_play, args=(0,), key="you_y0", width="stretch",
                    help="The outcome of this round is 0.")
        b[1].button("Reveal y = 1", on_click=_play, args=(1,), key="you_y1", width="stretch",
                    help="The outcome of this round is 1.")
        b[2].button("Undo", key="you_undo", width="stretch", disabled=not labels,
                    on_click=lambda: ss.__setitem__("halving_labels", list(ss["halving_labels"])[:-1]),
                    help="Take back your last outcome.")
        b[3].button("Start over", key="you_reset", width="stretch", disabled=not labels,
                    on_click=lambda: ss.__setitem__("halving_labels", []),
                    help="Forget your outcomes; the same experts (same seed) advise again.")
        if trace is None:
            st.info("No round played yet: pick the first outcome.")
            st.stop()
        t = trace.T
    else:
        stream, trace = generated(source, n, T, p_wrong, extra, seed)
        n = stream.k
except StreamError as exc:
    controls.show_error(exc)
    st.stop()

X, y = np.asarray(stream.X), np.asarray(stream.y)
alive = trace.weights > 0                                   # (T+1, n): consistent before each round
sizes = trace.extras["version_space"]
if source != "you":
    t = controls.round_player(trace.T, key="t", events=trace.mistakes, event_name="mistake")

M_t = int(trace.mistakes[:t].sum())
best = stream.info.get("best")
empty_at = np.flatnonzero(sizes == 0)

# -- the table -----------------------------------------------------------------------------------
st.subheader("The lecture's table, live")
cols = figs.halving_columns(alive)
shown = figs.halving_rows(alive, trace.mistakes, t)
df = figs.halving_table(X, y, trace.predictions, alive, t, cols, shown)
st.dataframe(figs.style_halving_table(df, X, y, alive, t, cols, shown), width="stretch",
             height=min(35 * (len(df) + 1) + 3, 700))
note = "" if len(cols) == n else f" Showing the {len(cols)} of {n} experts that stayed consistent longest."
if len(shown) < t:
    note += f" Showing {len(shown)} of {t} rounds: those with a mistake or an elimination, and the latest."
st.caption(
    "Rows are rounds, columns experts. A cell shows the advice of an expert still in the version "
    "space; ✗ once it has been crossed out. Shaded cells: a consistent expert that is wrong this "
    "round (it is crossed out next). The last row marks who is still consistent (✓)." + note
)

if empty_at.size and empty_at[0] <= max(t, 1):
    st.warning(
        f"**No expert is consistent with this stream.** The version space became empty after round "
        f"{int(empty_at[0])}: every expert has been wrong at least once. Halving's assumption (a perfect "
        "expert) fails, so $\\log_2 n$ bounds nothing; with no one left to vote, 0 votes against 0 is a "
        "tie and Halving predicts 1 from then on. Weighted Majority (next page) only shrinks the weights "
        "of wrong experts instead of discarding them, and copes.", icon=":material/info:")

# -- the charts ---------------------------------------------------------------------------------
left, right = st.columns(2, gap="medium")
with left:
    controls.chart(figs.version_space(sizes, trace.mistakes, n, t), key="fig_version_space", filename="version_space")
    st.caption(
        "Blue: how many experts are still consistent before each round (log scale). Dashed: the "
        "proof's ceiling n/2^M_t, which halves at every mistake; the blue steps stay under it. "
        "Dotted: the perfect expert keeps at least one alive."
    )
with right:
    controls.chart(figs.mistake_staircase(trace.mistakes, n, t), key="fig_mistakes", filename="mistakes")
    st.caption(
        "Halving's mistakes so far: each step is a wrong majority. The dashed line log₂ n is the "
        "theorem's ceiling; the staircase cannot climb past it while a consistent expert exists."
    )
bound = bounds.halving(n)
controls.download_run(trace, stream, bound=np.full(trace.T, bound), name="halving_run", key="download_halving")

# -- the theorem, with this run's numbers ------------------------------------------------------
st.subheader("The theorem, for this run")
M_all = trace.n_mistakes
consistent = sizes[-1] > 0
st.markdown("**Theorem** (UCL notes). For any sequence with a consistent expert, Halving makes at most "
            "$\\log_2 n$ mistakes.")
st.latex(
    rf"M = {M_all} \;\le\; \log_2 n = \log_2 {n} = {bound:.3g}"
    + (r"\quad\checkmark" if consistent else r"\quad\text{(no consistent expert: the theorem does not apply)}")
)
if source == "adversary":
    st.markdown(f"Against the adversary Halving errs in each of the first $\\lfloor\\log_2 {n}\\rfloor = "
                f"{int(np.floor(np.log2(n)))}$ rounds: the bound is **tight**.")

with st.expander("Proof, step by step with this run", expanded=not PRESENT):
    st.markdown(
        "1. At the start every expert is consistent: $|C_1| = n$.\n"
        "2. On a mistake the majority of $C_t$ was wrong, and all of it is crossed out: "
        "$|C_{t+1}| \\le |C_t|/2$; on other rounds $|C_{t+1}| \\le |C_t|$.\n"
        "3. So after $M$ mistakes $|C_{m+1}| \\le n/2^M$.\n"
        "4. The perfect expert is never crossed out: $|C_{m+1}| \\ge 1$.\n"
        "5. Hence $1 \\le n/2^M$, that is $M \\le \\log_2 n$."
    )
    rounds = np.flatnonzero(trace.mistakes[:t])
    if rounds.size:
        rows = [{"mistake": k + 1, "round": int(s) + 1, "|C_t| before": int(sizes[s]),
                 "|C_t+1| after": int(sizes[s + 1]), "after / before": f"{sizes[s + 1] / sizes[s]:.3f}"
                 if sizes[s] else "—", "n / 2^M": f"{n / 2 ** (k + 1):.4g}"}
                for k, s in enumerate(rounds)]
        st.dataframe(rows, width="stretch", hide_index=True)
        st.caption("Each mistake keeps at most half of the version space (after/before ≤ 0.5), so the "
                   "size after the k-th mistake is at most n/2^k.")
    if sizes[t] == 0:
        st.markdown(f"Here step 4 fails: after round {t} no expert is consistent ($|C_{{{t + 1}}}| = 0$).")
    else:
        st.latex(rf"1 \le |C_{{{t + 1}}}| = {int(sizes[t])} \le \frac{{n}}{{2^{{M_t}}}} = \frac{{{n}}}{{2^{{{M_t}}}}}"
                 rf" = {n / 2 ** M_t:.4g}")

controls.show_code(experts.Halving, "Show the code: Halving (reference class)")
