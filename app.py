"""Online Learning Lab: entry point (page config, navigation over the lesson registry, shared chrome).

``streamlit run app.py`` serves this file in two roles:

- imported as a module, once per server process: ``app`` below is an ``st.App`` (Streamlit finds it
  and serves it with its own server), whose lifespan starts compiling the numba kernels in the
  background when the server starts, before any visitor arrives;
- run as the app's script (``__main__``), by every session on every rerun: :func:`main`.
"""

import contextlib
import os

# One BLAS thread per server process, set before numpy loads (the server imports it only with the
# first page): sessions already run in parallel threads, and OpenBLAS's thread per core made small
# solves (/widrow_hoff's prefix minimisers) cost seconds of CPU under load instead of milliseconds.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import streamlit as st  # noqa: E402

import olcore  # noqa: E402
from olapp import compat, registry, serving, state, turns  # noqa: E402
from olapp import reconnect  # noqa: E402

# Once per process (a no-op after): the garbage collector run less often (olapp.serving).
serving.collect_less()


def main() -> None:
    """One run of the app, in its turn (the server draws one session's page at a time, in the order
    the runs came: :mod:`olapp.turns`)."""
    with turns.TURNS.turn():
        _run()


def _run() -> None:
    """Page config, navigation, the page, presenter mode and link notes."""
    olcore.warm_in_background()   # once per process (a no-op after the server start's call)
    st.set_page_config(page_title="Online Learning Lab", page_icon=registry.APP_ICON, layout="wide")
    page = st.navigation(registry.navigation_pages())
    state.keep_url_moves(page.url_path)     # before anything reads the URL: a stale rerun's link is not a move
    presenting = state.apply_presenter_mode()
    if not presenting:
        state.button("Present this lesson", where=st.sidebar, icon=":material/co_present:", key="present_on", width="stretch",
                          on_click=state.set_presenter_mode, args=(True,), shortcut=state.PRESENT_KEY,
                          help="Presenter mode for a projector: the settings box hidden, the main picture, its readout "
                               f"and the player on one screen, larger text. Key: {state.PRESENT_KEY}. "
                               "Or add `?present=1` to any link.")
        st.sidebar.caption(
            "Online Learning Lab: watch online learners and their proofs, round by round. "
            "Every link reproduces the view, seed included (an uploaded stream is not in the link: "
            "download its CSV to share it)."
        )
    url_note = st.empty()
    reconnect.notice(page.url_path)        # in a hall: a view rebuilt after its replica died says so, once
    current = registry.lesson(page.url_path or "home")
    rewritten = {}
    if not state.seen(page.url_path):          # a link was just opened: it may predate the lesson kit
        rewritten = state.translate_legacy(current.legacy, current.int_keys)
    hostile = state.drop_hostile_params()
    if (rewritten or hostile) and not compat.reseed_widgets_from_url():
        state.reopen(page, hostile)            # the widgets read the link as it is now (no return)
    hostile = {**state.reopened_note(), **hostile}
    before = state.url_snapshot()

    def epilogue() -> None:
        """The end of every run, also of a page that stops early (:func:`olapp.state.stop`)."""
        # Only the run that loaded a link can have dropped its settings; later runs remove a
        # parameter whenever its widget returns to the default, which is not an error.
        dropped = state.dropped_params(before, state.url_snapshot()) if state.first_run(page.url_path) else {}
        state.show_dropped_params({**hostile, **dropped}, where=url_note)
        if presenting:
            state.button("Leave presenter mode", icon=":material/close_fullscreen:", key="present_off", type="tertiary",
                      on_click=state.set_presenter_mode, args=(False,), shortcut=state.PRESENT_KEY,
                      help=f"Back to the page with its settings. Key: {state.PRESENT_KEY}.")

    state.on_finish(epilogue)
    page.run()
    state.finish()


@contextlib.asynccontextmanager
async def _warm_at_start(_app):
    """The server's lifespan: the kernels compile in a child interpreter (or load from the disk
    cache) from the moment the server starts, so a fresh install's first visitor finds them ready
    (:func:`olcore.warm_in_background`); the server says what it runs on (versions, hooks)."""
    olcore.warm_in_background()
    for line in compat.startup_lines():
        print(line, flush=True)
    url = compat.network_url()
    if url:
        print(f"  Network URL: {url}", flush=True)
    yield


if __name__ == "__main__":
    main()
else:
    # pages/ holds the lessons st.navigation serves (see olapp's _leave_pages_directory_mode): no session
    # of this server runs a page file without app.py, the very first one included.
    compat.leave_pages_directory_mode()
    app = st.App(__file__, lifespan=_warm_at_start)
