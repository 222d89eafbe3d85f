"""olapp: the Streamlit/plotly side of Online Learning Lab.

``theme`` (palette and plotly template), ``figures`` (plain functions from arrays to
``go.Figure``), ``controls`` (shared widgets), ``state`` (settings bound to the URL).
"""

from __future__ import annotations


def _leave_pages_directory_mode() -> None:
    """Make the very first request after a server start go through app.py.

    Streamlit runs a script from ``pages/`` directly (its pre-``st.navigation``
    behaviour) until ``app.py`` has called ``st.navigation`` once in this process.  So
    the first visitor of a shared link such as ``/perceptron`` would get the page without
    app.py: no navigation, no wide layout, no presenter mode.  The first import of
    olapp (every lesson page imports it) switches that mode off and reruns, so the
    rerun executes app.py, which serves the same URL properly.
    """
    try:
        from streamlit.runtime.pages_manager import PagesManager
        from streamlit.runtime.scriptrunner import get_script_run_ctx
    except ImportError:  # pragma: no cover - a Streamlit without these internals
        return
    if PagesManager.uses_pages_directory and get_script_run_ctx() is not None:
        PagesManager.uses_pages_directory = False
        import streamlit as st

        st.rerun()


_leave_pages_directory_mode()
