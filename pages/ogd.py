"""Online gradient descent: projected OGD in the plane, R_T ≤ D G √T and its telescoping proof, OGD vs Hedge."""

import streamlit as st

from olapp.figures import ogd as figs
from olapp.kit import UPLOAD, LessonPage
from olapp.content import ogd as text
from olcore.lessons import ogd as lesson

page = LessonPage("ogd")
page.intro(text.INTRO)

# ---- settings: the stream and its loss, the set C, the step size -------------------------------------
with page.controls():
    source = page.source(text.SOURCES, upload="oco", default="Noisy")
    T = d = noise = seed = None
    if source == UPLOAD:
        st.caption(text.HELP.upload)
    else:
        c = st.container(horizontal=True)
        T = c.slider("Rounds T", 20, 2000, 200, step=10, key="T", bind="query-params", help=text.HELP.T)
        d = c.slider("Dimension d", 2, 20, 2, key="d", bind="query-params", help=text.HELP.d)
        if source in ("Noisy", "Regression"):
            noise = c.slider("Noise", 0.0, 0.4, 0.1, step=0.01, key="noise", bind="query-params",
                                help=text.HELP.noise)
        seed = page.seed(where=c)
    c = st.container(horizontal=True)
    loss = c.selectbox("Loss ℓ", text.LOSSES[source], key="loss", bind="query-params",
                          format_func=text.LOSS_NAMES.get, help=text.HELP.loss)
    set_name = c.selectbox("Convex set C", list(text.SETS), key="domain", bind="query-params",
                              format_func=text.SETS.get, help=text.HELP.domain)
    radius = c.select_slider("Radius r", options=text.RADII, value=1.0, key="radius", bind="query-params",
                                help=text.HELP.radius, disabled=set_name == "simplex")
    eta_mult = c.select_slider("Step size η", options=text.ETA_MULTS, value=1.0, key="eta_mult",
                                  bind="query-params", format_func=text.eta_label, help=text.HELP.eta_mult)

stream = page.stream(lesson.make_stream, source, T, noise, seed, d)     # the upload when the source is "Upload"
a = page.run(lesson.analyse, stream, loss, set_name, float(radius), None, text.PREFIX_POINTS, float(eta_mult))

# ---- the run in the parameter plane: each round's step and projection -----------------------------------
page.section("Watch θ move: a gradient step, then a projection")
t = page.player(a.T, events=a.projected, event_name="projection")
page.live(page.at_round(t, text.status, a))
if stream.X.shape[1] == 2:
    left, right = st.columns([1.15, 1])
    page.chart(figs.plane(a, t), page.at_round(t, text.plane, a), key="plane", where=left)
    page.chart(figs.nonexp(a, t), text.nonexp(a), key="nonexp", where=right)
else:
    st.info(text.not_2d(a), icon=":material/info:")
    page.chart(figs.nonexp(a, t), text.nonexp(a), key="nonexp")

# ---- regret against the theorem ---------------------------------------------------------------------
page.section("Regret against D G √T")
page.chart(figs.regret(a, t), text.regret(a, t), key="regret")
st.caption(text.g_line(a))
page.download(a.trace, stream, bound=a.proof_bound.curve, name="run")
page.theorem([a.theorem, a.proof_bound], run_line=text.run_line(a))

# ---- the step size: an η sweep ---------------------------------------------------------------------------
page.section("Choosing η: the sweep")
sweep_source = "Noisy" if source == UPLOAD else source
sweep_loss = loss if loss in text.LOSSES[sweep_source] else text.LOSSES[sweep_source][0]
if source == UPLOAD:
    st.caption(text.sweep_upload(sweep_source))
n_seeds = st.slider("Seeds in the sweep", 2, 8, 4, key="sweep_seeds", bind="query-params", width=320,
                                       help=text.HELP.sweep_seeds)
s = page.run(lesson.sweep, sweep_source, T or a.T, 0.1 if noise is None else float(noise), sweep_loss, set_name,
             float(radius), tuple(range(n_seeds)), 13, 64.0, d or 2)
st.markdown(text.sweep_intro(s))
page.chart(figs.sweep(s, a.eta if source != UPLOAD else None), text.sweep(s), key="sweep")

# ---- the proof ------------------------------------------------------------------------------------------
with page.proof("The proof: the potential ‖θ_t − θ*‖² telescopes",
                "Three steps with this run's numbers: the projection does not move θ away from θ* (above), "
                "convexity bounds each round's regret, and the sum telescopes."):
    left, right = st.columns(2)
    page.chart(figs.potential(a, t), text.potential(a), key="potential", where=left)
    page.chart(figs.per_round(a, t), text.per_round(a), key="per_round", where=right)
    page.chart(figs.telescoping(a, t), text.telescoping(a), key="telescoping")

# ---- the experts problem: OGD on the simplex against Hedge ---------------------------------------------
page.section("OGD for the expert problem: √(KT) against √(T ln K)")
K = st.select_slider("Experts K", options=text.KS, value=10, key="n", bind="query-params", width=320,
                                        help=text.HELP.n)
e = page.run(lesson.experts, T or a.T, int(K), seed or 0)
page.chart(figs.experts(e), text.experts(e), key="experts")
page.theorem([e.ogd_bound, e.hedge_bound], title="")
ks = page.run(lesson.k_sweep, T or a.T)
page.chart(figs.k_sweep(ks), text.k_sweep(ks), key="k_sweep")

page.show_code()
