"""olapp: the Streamlit/plotly side of Online Learning Lab.

``registry`` (the lessons), ``kit`` (the lesson page), ``controls`` (shared widgets, the round
player), ``state`` (settings bound to the URL), ``lecture`` (the guided tour), ``figures`` (plain
functions from arrays to ``go.Figure``), ``theme`` (palette and plotly template), ``animation`` (Play
in the browser, driven by ``play_driver.js``), ``cache`` and ``turns`` (the memo shared by sessions,
and their turns), ``serving`` (the server process's settings), ``compat`` (every private Streamlit
and plotly name in use, each with a public fallback).
"""

from __future__ import annotations


def _leave_pages_directory_mode() -> None:
    """Make the very first request after a server start go through app.py.

    Streamlit runs a script from ``pages/`` directly (its pre-``st.navigation``
    behaviour) until ``app.py`` has called ``st.navigation`` once in this process.  So
    the first visitor of a shared link such as ``/perceptron`` would get the page without
    app.py: no navigation, no wide layout, no presenter mode.  The first import of
    olapp (every lesson page imports it) switches that mode off and reruns, so the
    rerun executes app.py, which serves the same URL properly (a hook:
    :mod:`olapp.compat`; with it off, only that one request runs the page alone).
    """
    from . import compat

    compat.leave_pages_directory_mode(rerun=True)


_leave_pages_directory_mode()
