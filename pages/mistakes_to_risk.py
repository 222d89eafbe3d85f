"""From mistakes to risk: online-to-batch conversion for classifiers (the ensemble, Bernstein, the penalised choice)."""

import streamlit as st

from olapp.figures import mistakes_to_risk as figs
from olapp.kit import UPLOAD, LessonPage
from olapp.content import mistakes_to_risk as text
from olcore.lessons import mistakes_to_risk as lesson

page = LessonPage("mistakes_to_risk")
page.intro(text.INTRO)

# ---- settings: the distribution and the sample, the learner, the confidence ---------------------------
with page.controls():
    source = page.source(text.SOURCES, upload="linear", default="Label noise")
    n, d, noise = 1000, 5, 0.1
    c = st.container(horizontal=True)
    if source == UPLOAD:
        st.caption(text.HELP.upload)
    else:
        n = c.select_slider("Sample size n", options=text.NS, value=1000, key="n", bind="query-params", help=text.HELP.n)
        d = c.slider("Dimension d", 2, 20, 5, key="d", bind="query-params", help=text.HELP.d)
        noise = c.slider("Noise (Bayes risk)", 0.0, 0.3, 0.1, step=0.01, key="noise", bind="query-params",
                            help=text.HELP.noise, disabled=source == "Separable")
    seed = page.seed(where=c)
    c = st.container(horizontal=True)
    learner = c.selectbox("Learner", list(text.LEARNER_NAMES), format_func=text.LEARNER_NAMES.get, key="learner",
                             bind="query-params", help=text.HELP.learner)
    delta = c.select_slider("δ (confidence 1 − δ)", options=text.DELTAS, value=0.05, key="delta",
                               bind="query-params", help=text.HELP.delta)
    reps = c.select_slider("Samples in the failure count", options=text.REPS, value=100, key="reps",
                              bind="query-params", help=text.HELP.reps)

stream = page.stream(lesson.make_stream, source, n, d, noise, seed)     # the upload when the source is "Upload"
a = page.run(lesson.analyse, stream, source, d, noise, seed, learner, float(delta))

# ---- Step 1: the ensemble over rounds and the martingale ------------------------------------------------
page.section("Step 1: the ensemble's average risk, from its mistakes")
t = page.player(a.n, events=a.ens.mistakes, event_name="mistake")
page.readout(page.at_round(t, text.status, a))
left, right = st.columns([1.15, 1])
page.chart(figs.ensemble(a, t), page.at_round(t, text.ensemble, a), key="ensemble", where=left)
page.chart(figs.martingale(a, t), page.at_round(t, text.martingale, a), key="martingale", where=right)
page.theorem([a.average_report])

# ---- Step 2: the penalised choice, beside the last and the averaged hypotheses -----------------------------
page.section("Step 2: pick one hypothesis by a penalised risk estimate")
page.readout(text.readout_choice(a))
page.chart(figs.choice(a), text.choice(a), key="choice")
page.theorem([a.chosen_report, a.chosen_mistakes_report], run_line=text.run_line(a), title="")
page.download(a.ens.trace, a.training_stream, bound=a.average_report.curve, name="run")

# ---- many samples: how often does each bound fail? ----------------------------------------------------------
page.section("Many samples: how often does a bound fail, against δ?")
r = page.run(lesson.repetitions, source, min(a.n, lesson.REP_N_MAX), d, noise, seed, learner, float(delta), int(reps),
             stream if source == UPLOAD else None)
page.chart(figs.repetitions(r), text.repetitions(r), key="repetitions")

# ---- the derivation ------------------------------------------------------------------------------------------
with page.proof("The derivation: explicit constants from Bernstein's inequality",
                "The notes write c and 'w.h.p.'; here is every constant, for the δ chosen above."):
    st.markdown(text.derivation(a))

page.show_code()
