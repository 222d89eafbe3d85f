"""Kernel Perceptron: decision regions in the plane, Novikoff in the RKHS, the budget and the Fact."""

import streamlit as st

from olapp.figures import kernel_perceptron as figs
from olapp.kit import UPLOAD, LessonPage
from olapp.content import kernel_perceptron as text
from olcore.lessons import kernel_perceptron as lesson

page = LessonPage("kernel_perceptron")
page.intro(text.INTRO)

# ---- settings: the stream, the kernel, the budget ---------------------------------------------------------
with page.controls():
    source = page.source(text.SOURCES, upload="linear")
    T = seed = None
    if source == UPLOAD:
        st.caption(text.HELP.upload)
    else:
        c = st.container(horizontal=True)
        T = c.slider("Points T", 20, 1000, 200, step=10, key="T", bind="query-params", help=text.HELP.T)
        seed = page.seed(where=c)
    c = st.container(horizontal=True)
    name = c.selectbox("Kernel K", list(text.KERNELS), key="kernel", bind="query-params", help=text.HELP.kernel)
    kernel = text.KERNELS.get(name, name)
    gamma = c.select_slider("Width γ (Gaussian)", options=text.GAMMAS, value=2.0, key="rbf_gamma", bind="query-params",
                               help=text.HELP.rbf_gamma, disabled=kernel != "rbf")
    degree = c.slider("Degree p", 1, 6, 2, key="degree", bind="query-params", help=text.HELP.degree,
                         disabled=kernel != "poly")
    coef0 = c.select_slider("c₀", options=text.COEF0S, value=1.0, key="coef0", bind="query-params", help=text.HELP.coef0,
                               disabled=kernel != "poly")
    B = c.select_slider("Budget B", options=text.BUDGETS, value=5, key="B", bind="query-params", help=text.HELP.B)

K = (kernel, float(gamma), int(degree), float(coef0))
stream = page.stream(lesson.make_stream, source, T, seed)
a = page.run(lesson.analyse, stream, *K)

# ---- the decision region, round by round ---------------------------------------------------------------
page.section("Watch the supports bend the boundary")
t = page.player(a.T, events=a.trace.mistakes)
page.live(page.at_round(t, text.status, a))
two_d = stream.X.shape[1] == 2
if two_d:
    left, right = st.columns([1.1, 1])
    page.chart(figs.region(a, t, n=text.GRID), page.at_round(t, text.region, a, None), key="region", where=left)
    page.chart(figs.mistakes(a, t), page.at_round(t, text.mistakes, a), key="mistakes", where=right)
else:
    st.info(text.not_2d(stream.X.shape[1]), icon=":material/info:")
    page.chart(figs.mistakes(a, t), page.at_round(t, text.mistakes, a), key="mistakes")
page.download(lesson.download_trace(a), stream, bound=a.bound.as_curve(a.T) if a.bound.applies else None, name="run",
              prediction=text.download_columns(a))
page.theorem(a.bound, run_line=text.run_line(a))

with page.proof("The proof, in the RKHS", text.PROOF_INTRO):
    page.chart(figs.proof(a, t), text.proof(a), key="proof")

# ---- a budget of B supports -------------------------------------------------------------------------------
page.section(f"A budget of B = {B} supports: the Randomized Budget Perceptron",
             "On a mistake with a full cache, throw away a support chosen at random, then store the new one.")
b = page.run(lesson.budget_run, stream, int(B), seed or 0, *K)
page.live(page.at_round(t, text.budget_status, b))
if two_d:
    left, right = st.columns([1.1, 1])
    page.chart(figs.region(a, t, b, n=text.GRID, title=f"Decision region with B = {B}"),
               page.at_round(t, text.region, a, b), key="region_budget", where=left)
    page.chart(figs.cache(b, t), page.at_round(t, text.cache, b), key="cache", where=right)
else:
    page.chart(figs.cache(b, t), page.at_round(t, text.cache, b), key="cache")
sw = page.run(lesson.budget_sweep, source if source in text.SOURCES else "XOR", text.SWEEP_T, text.SWEEP_BS,
              text.SWEEP_SEEDS, *K)
page.chart(figs.sweep(sw), text.sweep(sw), key="sweep")

# ---- the Fact ---------------------------------------------------------------------------------------------
page.section("The Fact: B supports are not enough against ‖u‖ = √(B + 1)")
f = page.run(lesson.fact, int(B), text.FACT_CYCLES * (int(B) + 1), seed or 0)
page.chart(figs.fact(f), text.fact(f), key="fact")
page.theorem([f.forced, f.novikoff], title="")

page.show_code()
