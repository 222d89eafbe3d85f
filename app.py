"""Online Learning Lab: entry point (page config, navigation, shared chrome)."""

import streamlit as st

import olcore
from olapp import state

olcore.warm_in_background()  # compile/load the numba kernels once per process, off the request path

st.set_page_config(page_title="Online Learning Lab", page_icon=":material/school:", layout="wide")

PAGES = {
    "Overview": [
        st.Page("pages/home.py", title="Home", icon=":material/home:", default=True),
    ],
    "Learning with experts": [
        st.Page("pages/halving.py", title="Halving", icon=":material/content_cut:", url_path="halving"),
        st.Page("pages/wm_vs_hedge.py", title="Weighted Majority vs Hedge", icon=":material/balance:", url_path="wm_vs_hedge"),
    ],
    "Linear classification": [
        st.Page("pages/perceptron.py", title="Perceptron", icon=":material/call_split:", url_path="perceptron"),
        st.Page("pages/winnow.py", title="Winnow", icon=":material/filter_alt:", url_path="winnow"),
    ],
    "Regression": [
        st.Page("pages/widrow_hoff.py", title="Widrow-Hoff", icon=":material/show_chart:", url_path="widrow_hoff"),
    ],
}

page = st.navigation(PAGES)
presenting = state.apply_presenter_mode()
if not presenting:
    st.sidebar.caption(
        "Online Learning Lab: watch online learners and their proofs, round by round. "
        "Every link reproduces the exact view, seed included; add `?present=1` to a link "
        "for presenter mode (no controls, larger text)."
    )
url_note = st.empty()
hostile = state.drop_hostile_params()
before = state.url_snapshot()
page.run()
# Only the run that loaded a link can have dropped its settings; later runs remove a
# parameter whenever its widget returns to the default, which is not an error.
dropped = state.dropped_params(before, state.url_snapshot()) if state.first_run(page.url_path) else {}
state.show_dropped_params({**hostile, **dropped}, where=url_note)
