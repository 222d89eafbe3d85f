"""A browser whose replica died comes back on another one: the page reruns at once and says so, once.

In a lecture hall (``scripts/hall.py``: replicas behind HAProxy), a replica that dies takes its
sessions with it.  Streamlit's frontend reconnects its websocket (HAProxy sends it to a live
replica), asking for its old session by id; the new replica does not know that id and opens a
brand-new session.  Two things then go wrong without this module:

- Streamlit 1.67's frontend reruns the page after a reconnect only when it has an auto-rerun
  fragment (or a run was in flight); otherwise it keeps the old view and waits, and the first click
  reaches a session that has never drawn the button: the server does not call its ``on_click``
  (a callback runs only for a widget registered by an earlier run of the same session), so a Step
  click is lost.  :func:`notice` therefore draws an empty fragment with ``run_every`` (the
  *keeper*: it reruns nothing for hours), so the frontend reruns the whole page as soon as it is
  connected again: the view is rebuilt from its link and widgets, before any click.
- The student is not told that the uploaded stream (session state of the lost process) is gone.
  The first run of a session whose websocket asked for an earlier session (the third entry of its
  ``Sec-WebSocket-Protocol`` header, read through the public ``st.context.headers``) is a
  reconnection that found no session to resume: the page says so, once, in words.  A reconnection
  that resumes its session (a network blip, the same replica) keeps its session state and says
  nothing.

Both are on only in a replica of a hall (the hall sets :data:`ENV` to the replica's name): a
lone ``streamlit run app.py`` and the tests run as before.
"""

from __future__ import annotations

import os
from typing import Any, Mapping

import streamlit as st

__all__ = ["ENV", "NOTICE", "KEEPER_SECONDS", "in_hall", "reconnected", "notice"]

#: Set by ``scripts/hall.py`` in each replica's environment: the replica's name in the balancer (r1, r2...).
ENV = "OLAB_REPLICA"
#: What the page says on the lesson where the view came back.
NOTICE = ("The connection to the server was lost and restored: this view was rebuilt from its link. "
          "An uploaded stream is not in the link: upload it again.")
#: The keeper fragment's period: long enough never to matter (an empty fragment rerun each 6 hours),
#: below a browser timer's limit (about 24.8 days).
KEEPER_SECONDS = 6 * 3600
_STATE = "_olab_reconnected"      # session state: the page path where the notice shows, or None


def in_hall() -> bool:
    """Whether this server is a replica of a hall (``scripts/hall.py`` named it in :data:`ENV`)."""
    return bool(os.environ.get(ENV))


def reconnected(headers: Mapping[str, Any]) -> bool:
    """Whether the websocket request with these headers asked for an earlier session: Streamlit's
    frontend sends ``streamlit, <xsrf token>, <last session id>`` as its subprotocols when it
    reconnects, and only the first two when a page opens."""
    raw = headers.get("Sec-WebSocket-Protocol") or headers.get("sec-websocket-protocol") or ""
    entries = [e.strip() for e in str(raw).split(",")]
    return len(entries) >= 3 and bool(entries[2])


def _keeper() -> None:
    """Draws nothing: its ``run_every`` makes the frontend rerun the page when it reconnects."""


def notice(page_path: str, where=st) -> bool:
    """In a hall's replica: draw the keeper, and on the lesson ``page_path`` where a lost session's
    view came back, say so (:data:`NOTICE`), in ``where``.  The notice shows on every run of that
    lesson in this session, and no more once the student opens another lesson.  Returns whether it
    showed.  Outside a hall: nothing."""
    if not in_hall():
        return False
    st.fragment(_keeper, run_every=KEEPER_SECONDS)()
    ss = st.session_state
    if _STATE not in ss:                  # the first run of this session on this server
        ss[_STATE] = page_path if reconnected(st.context.headers) else None
    if ss[_STATE] is None:
        return False
    if ss[_STATE] != page_path:           # another lesson opened since: the notice has been read
        ss[_STATE] = None
        return False
    where.warning(NOTICE, icon=":material/sync_problem:")
    return True
