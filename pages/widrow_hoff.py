"""Widrow-Hoff (LMS): online linear regression, Theorem 1 and its potential proof, online-to-batch, EG."""

from __future__ import annotations

import streamlit as st

from olapp.figures import widrow_hoff as figs
from olapp.kit import LessonPage
from olapp.content import widrow_hoff as text
from olcore import streams
from olcore.lessons import widrow_hoff as lesson

page = LessonPage("widrow_hoff", "Widrow-Hoff: online linear regression")
page.intro(text.INTRO)

# ---- settings ---------------------------------------------------------------------------------
with page.controls() as box:
    source = page.source(text.SOURCES, upload="regression")
    own = source != "Generated"
    row = st.container(horizontal=True)
    d = row.number_input("Dimension d", 1, 20, 2, step=1, key="d", bind="query-params", help=text.HELP.d, disabled=own)
    T = row.number_input("Rounds T", 1, 10_000, 200, step=50, key="T", bind="query-params", help=text.HELP.T,
                        disabled=own)
    noise = row.number_input("Noise σ", 0.0, 3.0, 0.3, step=0.1, key="noise", bind="query-params",
                            help=text.HELP.noise, disabled=own)
    norm_u = row.number_input("‖u‖ of the true vector", 0.0, 10.0, 1.5, step=0.5, key="norm_u", bind="query-params",
                             help=text.HELP.norm_u, disabled=own)
    seed = page.seed(where=row)
    eta = st.slider("Learning rate η", 0.01, 0.99, 0.2, step=0.01, key="eta", bind="query-params", help=text.HELP.eta)
    eta_row = st.container(horizontal=True, vertical_alignment="center")

stream = page.stream(streams.regression, T=int(T), d=int(d), seed=int(seed), noise=float(noise), norm_u=float(norm_u))
ball = page.run(lesson.unit_ball, stream)
rescale = True
if not ball.ok:
    st.warning(ball.message() + " The bounds below assume ‖x_t‖ ≤ 1.", icon=":material/warning:")
    rescale = box.toggle("Rescale x into the unit ball", value=True, key="rescale", bind="query-params",
                         help=text.HELP.rescale)

tu = page.run(lesson.tuning, stream, rescale)
a = page.run(lesson.analyse, stream, float(eta), rescale)
if a.rescaled:
    st.caption(f"x divided by R = {text.num(a.R)}: Theorem 1 now applies.")


def use_eta(value: float) -> None:
    st.session_state["eta"] = value             # one of the slider's own values (olcore: SLIDER_ETAS)


page.button(text.eta_button(tu), where=eta_row, key="use_eta_star", on_click=use_eta, args=(tu.eta_slider,),
               help=text.HELP.use_eta)
eta_row.caption(text.eta_star(tu))

page.readout(*text.readout(a, tu))

# ---- 1. the weights ---------------------------------------------------------------------------
page.section("1. Watching the weights")
t = page.player(a.T)
if a.d == 2:
    page.chart(figs.weight_plane(a.X, a.y, a.weights, t, u_ls=a.u_ls, u_star=a.u_star), page.at_round(t, text.plane, a),
               key="plane")
else:
    page.chart(figs.weights_over_time(a.weights, t, u_ls=a.u_ls), text.weights(a), key="plane")
page.live(page.at_round(t, text.round_line, a))

# ---- 2. the cumulative loss against Theorem 1 ----------------------------------------------------
page.section("2. Cumulative loss against Theorem 1")
page.chart(figs.cumulative_loss(a.cumulative, a.cumulative_u_ls, a.theorem1, t=t), text.cumulative(a),
           key="cumulative")

# ---- 3. choosing eta ------------------------------------------------------------------------
page.section("3. Choosing η")
page.chart(figs.eta_sweep(tu.etas, tu.final_loss, tu.bound, float(eta), tu.eta_best, tu.clairvoyant_loss,
                          best_label=text.eta_label(tu)), text.sweep(tu, float(eta)), key="sweep")

# ---- 4. the theorem ---------------------------------------------------------------------------
page.section("4. Theorem 1, with this run's numbers")
page.theorem(a.theorem1, run_line=text.run_line(a, tu), title="")

# ---- 5. the proof -----------------------------------------------------------------------------
with page.proof("5. The proof: a potential that pays for every mistake", text.proof_intro()):
    page.chart(figs.potential(a.potential, a.potential_drop, a.claim, a.telescoped, t=t), text.potential(a),
               key="potential")
    page.live(page.at_round(t, text.proof_round, a))
    with st.expander("The telescoping sum with this run's numbers", expanded=True):
        st.latex(text.telescoping(a))
        st.markdown(text.TELESCOPING_AFTER)
        st.caption(text.reading_notes())

# ---- 6. going further: one topic at a time ----------------------------------------------------------
topic = page.topics(text.FURTHER_TITLE, text.FURTHER_INTRO, text.further_topics(), key="further",
                    help=text.HELP_FURTHER, settings=text.FURTHER_SETTINGS)
if topic == text.TOPIC_O2B:
    row = st.container(horizontal=True)
    m_max = row.select_slider("Largest sample size m", [50, 100, 200, 500, 1000, 2000], value=500, key="m_max",
                              bind="query-params", help=text.HELP.m_max)
    repeats = row.select_slider("Samples averaged", [10, 20, 50, 100, 200], value=50, key="repeats",
                                bind="query-params", help=text.HELP.repeats)
    c = page.run(lesson.online_to_batch, stream, float(eta), int(m_max), int(repeats), int(seed), rescale)
    page.chart(figs.online_to_batch(c), text.online_to_batch(c), key="o2b")
    page.theorem(c.theorem2, title="")
elif topic == text.TOPIC_EG:
    row = st.container(horizontal=True)
    n_eg = row.select_slider("Features n", [10, 30, 100, 300, 1000], value=100, key="eg_n", bind="query-params",
                             help=text.HELP.eg_n)
    eta_eg = row.select_slider("EG learning rate", [0.1, 0.25, 0.5, 1.0, 2.0, 4.0], value=1.0, key="eg_eta",
                               bind="query-params", help=text.HELP.eg_eta)
    e = page.run(lesson.eg_vs_wh, int(n_eg), float(eta_eg), int(seed))
    page.chart(figs.additive_vs_multiplicative(e.cum_eg, e.cum_wh, e.cum_u, e.theorem1), text.eg(e), key="eg")
else:                                           # the implicit update and the rate of loss share one run
    im = page.run(lesson.implicit, stream, float(eta), rescale)
    if topic == text.TOPIC_RATE:
        page.chart(figs.rates(im, t), text.rates(im), key="rates")
        page.theorem(im.rate_bound, title="")
    elif im.d == 2:
        page.chart(figs.implicit_plane(im, t), text.implicit(im, t), key="implicit_plane")
    else:
        page.chart(figs.implicit_losses(im, t), text.implicit(im, t), key="implicit_plane")

# ---- take-aways -------------------------------------------------------------------------------
st.divider()
page.download(a.trace, streams.from_arrays("regression", a.X, a.y), bound=a.theorem1.curve, name="run")
page.show_code()
