"""Winnow: learning a disjunction when irrelevant attributes abound."""

import streamlit as st

from olapp.figures import winnow as figs
from olapp.kit import UPLOAD, LessonPage
from olapp.content import winnow as text
from olcore import linear
from olcore.lessons import winnow as lesson

page = LessonPage("winnow")
page.intro(text.INTRO)

# ---- settings: the stream, Winnow's factor α -------------------------------------------------------
with page.controls():
    source = page.source(text.SOURCES, upload="disjunction")
    N = k = T = seed = None
    if source == UPLOAD:
        st.caption(text.HELP.upload)
        alpha = st.select_slider("Promotion factor α", options=text.ALPHAS, value=2.0, key="alpha",
                                 bind="query-params", help=text.HELP.alpha)
    else:
        row = st.container(horizontal=True)
        N = row.select_slider("Attributes N", options=text.N_OPTIONS, value=100, key="N", bind="query-params",
                              help=text.HELP.N)
        k = row.slider("Relevant attributes k", 1, 10, 3, key="k", bind="query-params", help=text.HELP.k)
        T = row.slider("Rounds T", 50, 3000, 500, step=50, key="T", bind="query-params", help=text.HELP.T)
        alpha = row.select_slider("Promotion factor α", options=text.ALPHAS, value=2.0, key="alpha",
                                      bind="query-params", help=text.HELP.alpha)
        seed = page.seed(where=row)
        if text.cut(T, lesson.rounds_for(T, N), N):
            st.caption(text.cut(T, lesson.rounds_for(T, N), N))

stream = page.stream(lesson.make_stream, T, N, k, seed)        # the upload when the source is "Upload"
a = page.run(lesson.analyse, stream, float(alpha))

# ---- the run: the weights ------------------------------------------------------------------------------
page.section("Watch the weights")
t = page.player(a.T, events=a.trace.mistakes)
page.tally(page.at_round(t, text.tally, a), a.T, page.at_round(t, text.status, a))
page.chart(figs.weights(a, t), text.weights(a), key="weights")

# ---- mistakes against the theorem ------------------------------------------------------------------------
page.section("Mistakes against the bound")
page.chart(figs.mistakes(a, t), text.mistakes(a), key="mistakes")
if not a.bound.applies:
    st.warning(text.NOT_APPLY, icon=":material/info:")
page.download(a.trace, stream, bound=a.bound.as_curve(a.T) if a.bound.applies else None, name="run")
page.theorem(a.bound, run_line=text.run_line(a))
st.caption(text.theorem_note(a))

# ---- the proof -----------------------------------------------------------------------------------------------
with page.proof("The proof: the potential Σ w",
                "Two steps, with this run's counts: a bound on the promotions m⁺, then the potential "
                "Φ = Σ w bounds the demotions m⁻ by the promotions."):
    if a.bound.applies:
        page.theorem([a.promotions, a.demotions], title="")
    page.chart(figs.potential(a, t), text.potential(a), key="potential")

# ---- Winnow against the Perceptron as N grows ------------------------------------------------------------
page.section("Learning quickly when irrelevant attributes abound")
k_sweep = min(10, a.k) if a.k else 3
if source == UPLOAD:
    st.caption(text.sweep_upload(k_sweep))
n_seeds = st.slider("Seeds per N", 2, 8, 4, key="sweep_seeds", bind="query-params", width=320,
                                       help=text.HELP.sweep_seeds)
s = page.run(lesson.sweep, k_sweep, n_seeds)
st.markdown(text.sweep_intro(s))
page.chart(figs.sweep(s), text.sweep(s), key="sweep")

page.show_code()

# ---- conjunctions: the elimination algorithm (Problems 1.1) ------------------------------------------------
page.section("Conjunctions: the elimination algorithm", text.ELIM_INTRO)
row = st.container(horizontal=True)
n_conj = row.slider("Attributes n", 2, 60, 20, key="conj_n", bind="query-params", help=text.HELP_ELIM.n)
k_conj = row.slider("Literals k", 0, 10, 3, key="conj_k", bind="query-params", help=text.HELP_ELIM.k)
worst = row.toggle("Worst-case order first", value=False, key="conj_worst", bind="query-params", help=text.HELP_ELIM.worst)
conj = page.run(lesson.conjunction_stream, text.ELIM_T, int(n_conj), min(int(k_conj), int(n_conj)), seed or 0, worst)
e = page.run(lesson.elimination, conj)
t_conj = min(t, e.T)
page.chart(figs.elimination(e, t), text.elimination(e, t_conj, linear.conjunction.describe), key="elimination")
page.theorem([e.report], title="")
