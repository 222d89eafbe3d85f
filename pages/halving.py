"""Halving: majority vote of the experts that have never been wrong (UCL COMP0078, Online learning)."""

from __future__ import annotations

import streamlit as st

from olapp.figures import halving as figs
from olapp.kit import UPLOAD, LessonPage
from olapp.content import halving as text
from olcore.lessons import halving as lesson

page = LessonPage("halving", "Halving: follow the experts who have never been wrong")
page.intro(text.INTRO)
ss = st.session_state
YOU = "You are the adversary"

# -- settings: where the rounds come from, and the knobs of the generated streams ----------------
with page.controls():
    source = page.source(text.SOURCES, upload="experts", default=text.DEFAULT_SOURCE)
    if source == UPLOAD:
        st.caption(text.UPLOAD_NOTE)
    c = st.container(horizontal=True)
    n = int(c.number_input("Experts n", min_value=2, max_value=1024, value=16, step=1, key="n",
                              bind="query-params", disabled=source in ("Lecture run", UPLOAD), help=text.HELP.n))
    T = int(c.number_input("Rounds T", min_value=1, max_value=2000, value=40, step=1, key="T",
                              bind="query-params", disabled=source != "Perfect expert", help=text.HELP.T))
    p_wrong = float(c.slider("P(wrong)", 0.0, 1.0, 0.5, 0.05, key="p", bind="query-params",
                                disabled=source != "Perfect expert", help=text.HELP.p))
    extra = int(c.number_input("Extra rounds", min_value=0, max_value=200, value=6, step=1, key="extra",
                                  bind="query-params", disabled=source != "Adversary", help=text.HELP.extra))
    seed = page.seed(where=c)

# -- the run: a generated or uploaded stream with the player, or your game -----------------------
if source != YOU:
    stream = page.stream(lesson.make_stream, text.CODES.get(source), n, T, p_wrong, extra, seed)
    a = page.run(lesson.analyse, stream)
    t = page.player(a.T, events=a.trace.mistakes)
    page.tally(page.at_round(t, text.tally, a), a.T)
else:
    if ss.get("halving_game") != (n, seed):          # a new game (or a fresh session: resume the link's)
        first = "halving_game" not in ss
        ss["halving_game"] = (n, seed)
        raw = st.query_params.get("moves", "") if first else ""
        moves = lesson.parse_moves(raw)
        if moves is None:
            st.warning(text.bad_moves(raw), icon=":material/link_off:")
        ss["halving_labels"] = moves or []
    moves = tuple(ss["halving_labels"])
    st.query_params["moves"] = "".join(map(str, moves))   # the game so far travels in the link
    g = page.run(lesson.game, n, moves, seed)
    heading, advice, vote = text.game_prompt(g, len(moves))
    st.subheader(heading)
    st.markdown(f"{advice}\n\n{vote}")

    def _play(v: int | None) -> None:
        labels = list(ss["halving_labels"])
        ss["halving_labels"] = labels + [v] if v is not None else labels[:-1]

    full = len(moves) >= lesson.MAX_MOVES         # the link holds the game: as many rounds as it can carry
    if full:
        st.info(text.game_full())
    b = st.container(horizontal=True)
    page.button("Reveal y = 0", where=b, on_click=_play, args=(0,), key="you_y0", width="stretch", help=text.HELP.y0,
             disabled=full)
    page.button("Reveal y = 1", where=b, on_click=_play, args=(1,), key="you_y1", width="stretch", help=text.HELP.y1,
             disabled=full)
    page.button("Undo", where=b, on_click=_play, args=(None,), key="you_undo", width="stretch", disabled=not moves,
                help=text.HELP.undo)
    page.button("Start over", where=b, on_click=ss.__setitem__, args=("halving_labels", []), key="you_reset",
                width="stretch", disabled=not moves, help=text.HELP.reset)
    if g.played is None:
        st.info("No round played yet: pick the first outcome.")
        page.stop()
    stream = g.played
    a = page.run(lesson.analyse, stream)
    t = a.T

# -- the lecture's table, live ----------------------------------------------------------------
page.section("The lecture's table, live")
page.table(figs.table(a, t).styler, width="stretch", height="content", live=page.at_round(t, figs.table_cells, a))
page.live(page.at_round(t, text.table, a), caption=True)
if a.empty_by(t):
    st.warning(text.empty_warning(a), icon=":material/info:")

# -- the version space and the mistakes ----------------------------------------------------------
left, right = st.columns(2, gap="medium")
page.chart(figs.version_space(a, t), page.at_round(t, text.version_space, a), key="fig_version_space", where=left)
page.chart(figs.mistake_staircase(a, t), page.at_round(t, text.mistakes, a), key="fig_mistakes", where=right)
page.download(a.trace, stream, bound=a.bound.as_curve(a.T), name="run")

# -- the theorem, and its proof with this run's numbers ---------------------------------------------
page.theorem(a.bound, run_line=text.tight(a))
with page.proof("Proof, step by step with this run", text.PROOF_INTRO):
    st.markdown(text.PROOF_STEPS)
    page.table(a.proof_rows(t), width="stretch", hide_index=True, live=page.at_round(t, figs.proof_cells, a))
    page.live(page.at_round(t, text.proof_table, a), caption=True)
    page.live(page.at_round(t, text.proof_end, a))

page.show_code()
