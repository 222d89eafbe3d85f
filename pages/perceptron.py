"""Perceptron: margin geometry, Novikoff's bound and its proof, round by round."""

import streamlit as st

from olapp.figures import perceptron as figs
from olapp.kit import LessonPage
from olapp.content import perceptron as text
from olcore import linear
from olcore.lessons import perceptron as lesson

page = LessonPage("perceptron")
page.intro(text.INTRO)

# ---- settings: the stream, the passes, and the other learners' constants ------------------------
with page.controls():
    source = page.source(text.SOURCES, upload="linear")
    if source == "Generated":
        c = st.container(horizontal=True)
        T = c.slider("Points T", 10, 2000, 60, step=10, key="T", bind="query-params", help=text.HELP.T)
        gamma = c.slider("Margin γ", 0.02, 0.5, 0.15, step=0.01, key="gamma", bind="query-params",
                            help=text.HELP.gamma)
        noise = c.slider("Label noise", 0.0, 0.3, 0.0, step=0.01, key="noise", bind="query-params",
                            help=text.HELP.noise)
        seed = page.seed(where=c)
    elif source == "Typed":
        st.caption(text.HELP.typed)
        if "typed" not in st.session_state:      # a fresh editor: start from the link's points (?pts=)
            st.session_state["typed_start"], st.session_state["typed_bad"] = text.typed_start(st.query_params.get("pts"))
        if st.session_state["typed_bad"]:
            st.warning(st.session_state["typed_bad"], icon=":material/link_off:")
        typed = st.data_editor(st.session_state["typed_start"], num_rows="dynamic", key="typed", width="stretch")
        st.query_params["pts"] = lesson.encode_points(typed["x1"], typed["x2"], typed["y"])   # the points travel in the link
    c = st.container(horizontal=True)
    epochs = c.slider("Epochs (passes)", 1, 20, 1, key="epochs", bind="query-params", help=text.HELP.epochs)
    C = c.select_slider("C (PA-I, PA-II)", options=[0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0], value=1.0, key="C",
                           bind="query-params", help=text.HELP.C)
    eta = c.select_slider("η (OGD)", options=[0.01, 0.03, 0.1, 0.3, 1.0, 3.0], value=0.1, key="eta",
                             bind="query-params", help=text.HELP.eta)

if source == "Generated":
    stream = page.stream(lesson.generated_stream, int(T), float(gamma), float(noise), int(seed))
elif source == "Typed":
    stream = page.stream(lesson.typed_stream, list(typed["x1"]), list(typed["x2"]), list(typed["y"]))
else:
    stream = page.stream()
a = page.run(lesson.analyse, stream, int(epochs), source)

# ---- the run, round by round ------------------------------------------------------------------------
page.section("Watch it learn")
t = page.player(a.T, events=a.trace.mistakes)
page.tally(page.at_round(t, text.tally, a), a.T, text.readout(a))
if a.d == 2:
    left, right = st.columns(2)
    page.chart(figs.data_space(a, t), page.at_round(t, text.data_space, a), key="geom", where=left)
    page.chart(figs.weight_space(a, t), page.at_round(t, text.weight_space, a), key="wspace", where=right)
else:
    st.info(text.not_2d(a), icon=":material/info:")

# ---- mistakes against the bound, and the theorem --------------------------------------------------
page.section("Mistakes against the bound")
page.chart(figs.mistakes(a, t), text.mistakes(a, figs.log_scale(a)), key="mistakes")
summary = text.convergence(a)
if summary is not None:
    kind, message = summary
    icon = ":material/check_circle:" if kind == "success" else ":material/replay:"
    (st.success if kind == "success" else st.info)(message, icon=icon)
page.download(a.trace, stream, bound=a.bound.as_curve(a.T), name="run")
page.theorem([a.novikoff] if a.separable else [a.novikoff, a.nonseparable], run_line=text.run_line(a))
page.show_code(linear.Perceptron)

# ---- the proof ------------------------------------------------------------------------------------
with page.proof("The proof: ‖w‖ is squeezed", text.PROOF_INTRO):
    page.chart(figs.proof(a, t), text.proof(a), key="proof")

# ---- other learners on the same stream ---------------------------------------------------------------
page.section("Perceptron against PA, PA-I, PA-II and OGD", text.COMPARE_INTRO)
cmp = page.run(lesson.compare, stream, a.epochs, float(C), float(eta), a.u)
page.chart(figs.compare(a, cmp, t), text.compare(a, cmp), key="compare")
if a.d == 2:
    page.chart(figs.hyperplanes(a, cmp), text.hyperplanes(cmp), key="planes")
page.show_code(linear.PassiveAggressive, linear.OGDHinge)

# ---- going deeper: one topic at a time (OGD, the hinge loss, regularisation, PA-I's dual) ----------------
topic = page.topics("Going deeper: the Perceptron as online convex optimisation", text.DEEPER_INTRO, text.TOPICS,
                    key="deeper", help=text.HELP_TOPIC)
if topic == text.TOPIC_OGD:
    r = page.run(lesson.ogd_regret, stream, a.epochs, a.u)
    page.chart(figs.ogd_regret(r, t), text.ogd_regret(r), key="ogd_regret")
    page.theorem([r.report], title="")
elif topic == text.TOPIC_CONSERVATIVE:
    cons = page.run(lesson.conservative, stream, a.epochs)
    page.chart(figs.conservative(cons, t), text.conservative(cons), key="conservative")
elif topic == text.TOPIC_HINGE:
    h = page.run(lesson.hinge_view, stream, a.u)
    left, right = st.columns(2)
    page.chart(figs.hinge_indicator(h), text.hinge_indicator(h), key="hinge", where=left)
    page.chart(figs.hinge_scale(h), text.hinge_scale(h), key="hinge_scale", where=right)
elif topic == text.TOPIC_REG:
    lam = st.select_slider("Penalty λ", options=text.LAMBDAS, value=0.5, key="lam", width=320,
                                              bind="query-params", help=text.HELP_LAM)
    g = page.run(lesson.regularised, stream, float(lam))
    page.chart(figs.regularised(g), text.regularised(g), key="regularised")
else:
    d = page.run(lesson.dual_ascent, stream, float(C))
    left, right = st.columns(2)
    page.chart(figs.dual_sum(d, t), text.dual_sum(d), key="dual_sum", where=left)
    page.chart(figs.dual_increments(d, t), text.dual_increments(d), key="dual_inc", where=right)
    page.theorem([d.report], title="")
