"""Online Learning Lab: entry point (page config, navigation over the lesson registry, shared chrome)."""

import streamlit as st

import olcore
from olapp import registry, state

olcore.warm_in_background()  # compile/load the numba kernels once per process, off the request path

st.set_page_config(page_title="Online Learning Lab", page_icon=":material/school:", layout="wide")

PAGES = {
    section: [st.Page(entry.path, title=entry.title, icon=entry.icon, url_path=entry.url_path or None,
                      default=entry is registry.HOME)
              for entry in entries]
    for section, entries in registry.sections().items()
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
current = registry.lesson(page.url_path or "home")
if not state.seen(page.url_path):          # a link was just opened: it may predate the lesson kit
    state.translate_legacy(current.legacy, current.int_keys)
hostile = state.drop_hostile_params()
before = state.url_snapshot()
page.run()
# Only the run that loaded a link can have dropped its settings; later runs remove a
# parameter whenever its widget returns to the default, which is not an error.
dropped = state.dropped_params(before, state.url_snapshot()) if state.first_run(page.url_path) else {}
state.show_dropped_params({**hostile, **dropped}, where=url_note)
