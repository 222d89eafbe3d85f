"""Online SVM and fewer labels: ALMA against the SVM hyperplane, the second-order Perceptron, selective sampling."""

import streamlit as st

from olapp.figures import online_svm as figs
from olapp.kit import UPLOAD, LessonPage
from olapp.content import online_svm as text
from olcore import linear
from olcore.lessons import online_svm as lesson

page = LessonPage("online_svm")
page.intro(text.INTRO)

# ---- settings: the plane stream and ALMA's α ------------------------------------------------------
with page.controls():
    source = page.source(text.SOURCES, upload="linear")
    if source == UPLOAD:
        st.caption(text.HELP.upload)
    else:
        c = st.container(horizontal=True)
        T = c.slider("Points T", 10, 500, 60, step=10, key="T", bind="query-params", help=text.HELP.T)
        gamma = c.slider("Margin γ", 0.02, 0.5, 0.15, step=0.01, key="gamma", bind="query-params",
                            help=text.HELP.gamma)
        seed = page.seed(where=c)
    c = st.container(horizontal=True)
    alpha = c.select_slider("ALMA's α", options=text.ALPHAS, value=0.5, key="alpha", bind="query-params",
                               help=text.HELP.alpha)
    epochs = c.slider("Epochs (passes)", 1, 200, 50, key="epochs", bind="query-params", help=text.HELP.epochs)

if source == UPLOAD:
    stream = page.stream()
else:
    stream = page.stream(lesson.separable_stream, int(T), float(gamma), int(seed))
a = page.run(lesson.analyse_alma, stream, float(alpha), int(epochs))

# ---- one part at a time: ALMA, the second-order Perceptron, selective sampling -------------------------
part = page.topics(text.PARTS_TITLE, text.PARTS_INTRO, text.PARTS, key="part", label="Part", help=text.HELP_PARTS,
                   settings=text.PART_SETTINGS)


def correlated_stream():
    """The second-order Perceptron's stream and its a (selective sampling runs the same learner)."""
    c = st.container(horizontal=True)
    if source != UPLOAD:
        d = c.select_slider("Dimension d", options=[2, 5, 10, 20, 50, 100], value=2, key="d", bind="query-params",
                            help=text.HELP.d)
        rho = c.slider("Correlation ρ", 0.0, 0.99, 0.9, step=0.01, key="rho", bind="query-params", help=text.HELP.rho)
    a_sop = c.select_slider("a", options=text.AS, value=1.0, key="a", bind="query-params", help=text.HELP.a)
    corr = stream if source == UPLOAD else page.stream(lesson.correlated_stream, int(T), int(d), float(rho),
                                                       float(gamma), int(seed))
    return corr, float(a_sop)


if part == text.PART_ALMA:
    t = page.player(a.T, events=a.trace.extras["updated"], event_name="update")
    page.readout(page.at_round(t, text.alma_readout, a))
    if a.X.shape[1] == 2:
        left, right = st.columns([1.1, 1])
        page.chart(figs.alma_plane(a, t), page.at_round(t, text.alma_plane, a), key="alma_plane", where=left)
        with right:
            page.chart(figs.alma_updates(a, t), page.at_round(t, text.alma_updates, a), key="alma_updates")
    else:
        st.info(text.not_2d(a.X.shape[1]), icon=":material/info:")
        page.chart(figs.alma_updates(a, t), page.at_round(t, text.alma_updates, a), key="alma_updates")
    page.chart(figs.alma_margin(a, t), page.at_round(t, text.alma_margin, a), key="alma_margin")
    page.download(a.trace, stream, bound=a.updates.value if a.separable else None, name="alma")
    page.theorem([a.updates, a.final_margin])
    page.show_code(linear.ALMA)

elif part == text.PART_SOP:
    corr, a_sop = correlated_stream()
    b = page.run(lesson.analyse_second_order, corr, a_sop)
    if b.d == 2:
        left, right = st.columns([1, 1.1])
        page.chart(figs.sop_plane(b), text.sop_plane(b), key="sop_plane", where=left)
        page.chart(figs.sop_mistakes(b), text.sop_mistakes(b), key="sop_mistakes", where=right)
    else:
        page.chart(figs.sop_mistakes(b), text.sop_mistakes(b), key="sop_mistakes")
    page.theorem([b.sop_bound, b.novikoff], title="The bounds, with this stream's numbers")
    st.markdown(f"**The notes' table of mistake bounds, for this stream**\n\n{text.table(b)}")
    st.caption(text.table_caption(b))
    page.download(b.sop, corr, bound=b.sop_bound.curve, name="second_order")
    page.show_code(linear.SecondOrderPerceptron)

else:                                           # selective sampling
    corr, a_sop = correlated_stream()
    c_val = st.select_slider("c", options=text.CS, value=0.1, key="c", bind="query-params", help=text.HELP.c,
                             width=400)
    sel = page.run(lesson.analyse_selective, corr, float(c_val), a_sop)
    ts = page.player(sel.T, events=sel.trace.extras["queried"], event_name="query", key="ts")
    if sel.X.shape[1] == 2:
        left, right = st.columns([1, 1.1])
        page.chart(figs.selective_plane(sel, ts), page.at_round(ts, text.selective_plane, sel), key="sel_plane",
                   where=left)
        page.chart(figs.selective_curves(sel, ts), text.selective(sel), key="sel_curves", where=right)
    else:
        page.chart(figs.selective_curves(sel, ts), text.selective(sel), key="sel_curves")
    page.chart(figs.selective_sweep(sel), text.selective_sweep(sel), key="sel_sweep")
    page.download(sel.trace, corr, name="selective")
    page.show_code(linear.SelectiveSampler)
