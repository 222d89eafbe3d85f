"""Weighted Majority vs Hedge: four masters on one expert stream, each against its theorem."""

from __future__ import annotations

import streamlit as st

from olapp.figures import wm_vs_hedge as figs
from olapp.kit import LessonPage
from olapp.content import wm_vs_hedge as text
from olcore.lessons import wm_vs_hedge as lesson

page = LessonPage("wm_vs_hedge", "Weighted Majority vs Hedge: when no expert is perfect")
page.intro(text.INTRO)

# -- settings ---------------------------------------------------------------------------------------
with page.controls():
    kind = text.SOURCE_KIND.get(page.source(text.SOURCES, upload="experts"), "upload")
    r1 = st.container(horizontal=True)
    n = int(r1.number_input("Experts n", 2, 64, 10, key="n", bind="query-params", disabled=kind != "noisy",
                               help=text.HELP.n))
    T = int(r1.number_input("Rounds T", 10, 5000, 500, step=10, key="T", bind="query-params",
                               disabled=kind == "upload", help=text.HELP.T))
    best_rate = float(r1.slider("Best expert's error rate", 0.0, 0.5, 0.3, 0.01, key="best",
                                   bind="query-params", disabled=kind != "noisy", help=text.HELP.best))
    seed = page.seed(where=r1)
    B = float(r1.select_slider("Loss range B", [0.5, 1.0, 2.0, 5.0, 10.0, 100.0], 10.0, key="B",
                                  bind="query-params", help=text.HELP.B))
    r2 = st.columns(4)
    beta = float(r2[0].slider("WM β", 0.0, 0.99, 0.368, 0.001, key="beta", bind="query-params", format="%.3f",
                              help=text.HELP.beta))
    rwm_tuned = r2[1].toggle("Tune RWM's η to T", False, key="rwm_tuned", bind="query-params",
                             help=text.HELP.rwm_tuned)
    rwm_eta = float(r2[1].slider("RWM η (β = 1 − η)", 0.01, 0.5, 0.1, 0.01, key="rwm_eta", bind="query-params",
                                 disabled=rwm_tuned, help=text.HELP.rwm_eta))
    wa_loss = r2[2].selectbox("Weighted Average loss", ["square", "entropic"], key="wa_loss", bind="query-params",
                              help=text.HELP.wa_loss)
    wa_eta = float(r2[2].slider("Weighted Average η", 0.05, 2.0, 0.5, 0.05, key="wa_eta", bind="query-params",
                                help=text.HELP.wa_eta))
    mult = float(r2[3].select_slider("Hedge η (multiple of η*)", [0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0], 1.0,
                                     key="hedge_mult", bind="query-params", help=text.HELP.hedge_mult))

# -- the stream and the runs ------------------------------------------------------------------------
stream = page.stream(lesson.make_stream, kind, T, n, best_rate, beta, seed)
a = page.run(lesson.analyse, stream, beta, rwm_eta, wa_loss, wa_eta, mult, seed, rwm_tuned)
runs = a.traces
t = page.player(a.T, events=runs["WM"].mistakes, event_name="WM mistake")
page.tally(page.at_round(t, text.tally, a), a.T)

# -- weights over rounds ----------------------------------------------------------------------------
page.section("Expert weights, round by round")
left, right = st.columns([1.5, 1], gap="medium")
with left:
    which = st.radio("Heat map of", list(lesson.MASTERS), index=3, horizontal=True, key="heat",
                     bind="query-params", help=text.HELP.heat)
    held = page.holding      # a lecture question open at this round
    page.chart(figs.weights_heatmap(runs[which].weights, t, title=f"{which}: normalised weights v_t over rounds",
                                    upto=held),
               text.heatmap(which), key="heat_map")
    page.download(runs[which], stream, bound=a.loss_bounds[which], name=f"{which.lower()}_run",
                  prediction=text.PREDICTION[which])
    if not page.presenting:                # the button is hidden in presenter mode, and so is its note
        st.caption(text.download(a, which))
with right:
    page.chart(figs.weights_bar(runs, t), text.weights_bar(a),
               key="weights_bar")

# -- losses and regret ------------------------------------------------------------------------------
page.section("Cumulative loss and regret")
curves = {f"WM (β = {a.beta:.3g}): mistakes": runs["WM"].cumulative_loss,
          "RWM: realised mistakes": runs["RWM"].cumulative_loss,
          "RWM: expected mistakes": a.rwm_expected_cum,
          "Hedge: expected loss": runs["Hedge"].cumulative_loss}
if a.wa_loss == "square":
    curves["WA (square): loss"] = runs["WA"].cumulative_loss
c1, c2 = st.columns([1, 1.4], gap="medium")
page.chart(figs.cumulative_losses(curves, a.best_cum, t), text.cumulative(a), key="cumulative", where=c1)
names = figs.MASTER_NAMES
page.chart(figs.regret_ribbons({names[k]: a.regret[k] for k in lesson.MASTERS},
                               {names[k]: a.reports[k] for k in lesson.MASTERS}, t),
           text.regret(a), key="regret", where=c2)
if kind == "adversary":
    st.info(text.adversary(a), icon=":material/casino:")

# -- the theorems, with this run's numbers ----------------------------------------------------------
page.section("The theorems, for this run")
page.theorem(a.reports["WM"], title="")
k1, k2 = st.columns([1, 1], gap="medium")
page.chart(figs.wm_constants(a.beta), key="constants", where=k1)
k2.caption(text.CONSTANTS)
page.theorem([a.reports[k] for k in ("RWM", "WA", "Hedge")], title="")

# -- the proofs, watched ----------------------------------------------------------------------------
with page.proof("The proofs, watched"):
    p1, p2 = st.columns(2, gap="medium")
    e = runs["WM"].extras
    page.chart(figs.wm_potential(e["log_W"], e["log_W_lower"], e["log_W_upper"], t, beta=a.beta),
               text.WM_PROOF, key="wm_proof", where=p1)
    page.chart(figs.hedge_potential(a.hedge_rel_entropy, a.hedge_regret_u, a.hedge_proof_rhs, t),
               text.hedge_proof(a), key="hedge_proof", where=p2)
    we = page.run(lesson.wa_equality, stream)
    q1, q2 = st.columns([1.4, 1], gap="medium")
    page.chart(figs.wa_equality(we, t), text.wa_equality(we), key="wa_equality", where=q1)
    with q2:
        page.theorem(we.report, title="")

# -- going further: one view at a time (the CMU notes' forms, losses in [0, B], the η sweep) --------------------
topic = page.topics(text.FURTHER_TITLE, text.FURTHER_INTRO, text.FURTHER, key="further", help=text.HELP_FURTHER,
                    settings=text.FURTHER_SETTINGS)
if topic == text.TOPIC_TUNING:
    ta = page.run(lesson.tuning, stream, a.rwm_eta, beta, seed)
    view = st.segmented_control("View", text.TUNING_TOPICS, default=text.TUNING_TOPICS[0], key="tuning",
                                bind="query-params", help=text.HELP_TUNING) or text.TUNING_TOPICS[0]
    draw = dict(zip(text.TUNING_TOPICS, [(figs.cmu_forms, text.cmu_forms), (figs.regret_forms, text.regret_forms),
                                         (figs.average_regret, text.average_regret), (figs.two_regret, text.two_regret)]))
    page.chart(draw[view][0](ta, t), draw[view][1](ta), key="tuning_view")
    page.theorem([ta.cmu, ta.form1, ta.form2, ta.two], title="")
elif topic == text.TOPIC_B:
    sh = page.run(lesson.scaled_hedge, stream, B)
    c1, c2 = st.columns([1.4, 1], gap="medium")
    page.chart(figs.scaled_hedge(sh, t), text.scaled_hedge(sh), key="scaled_hedge", where=c1)
    with c2:
        page.theorem([sh.report, sh.naive_report], title="")
else:
    sw = page.run(lesson.sweep, stream, kind, best_rate, seed)
    page.chart(figs.hedge_eta_sweep(sw, a.hedge_eta), text.sweep(sw), key="sweep")

st.markdown("**Show the code**: each master's reference class, line by line as in the notes.")
page.show_code()
