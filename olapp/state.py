"""Settings that live in the URL.

Widgets are bound to query parameters with ``bind="query-params"``; Streamlit drops values
it cannot use (out of range, wrong type, not an option) and the widget falls back to its
default.  :func:`url_snapshot` and :func:`dropped_params` let the app say so on screen.
This module also holds the URL flags that are not widgets: ``?present=1`` (and the lecture's
``?scene=``, read by :mod:`olapp.lecture`).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

import streamlit as st

from olcore.lessons.halving import MAX_MOVES

__all__ = ["flag", "move_url", "keep_url_moves", "url_restored", "presenter_mode", "first_run", "url_snapshot",
           "dropped_params", "show_dropped_params", "inert", "drop_hostile_params", "translate_legacy", "reopen", "reopened_note",
           "apply_presenter_mode",
           "set_presenter_mode", "PRESENTER_CSS", "PRESENT_KEY", "on_finish", "finish", "stop", "button"]

_TRUE = {"1", "true", "yes", "on"}
#: URL parameters that are not widgets (never reported as ignored).
NON_WIDGET_PARAMS = {"present", "embed", "embed_options", "scene"}


def flag(name: str) -> bool:
    """True when the URL has ``?name=1`` (or true/yes/on); anything else is False."""
    value = st.query_params.get(name)
    return value is not None and str(value).strip().lower() in _TRUE


@dataclass
class _Move:
    """A button's move of a non-widget URL parameter (``None``: absent)."""

    value: str | None
    before: str | None
    when: float                  # time.monotonic() of the move
    page: str | None             # the page whose button made it
    seen: bool = False           # a run has shown ``value`` as the server set it


#: The moves not yet settled, by parameter name.
_MOVES = "_olab_url_moves"
#: The page of the last run.
_PAGE = "_olab_url_page"
#: The parameters :func:`keep_url_moves` put back in this run.
_RESTORED = "_olab_url_restored"
#: How long a move is defended against reruns that predate it (seconds): far longer than a round trip.
MOVE_GRACE = 10.0


def move_url(name: str, value: str | None) -> None:
    """Set (``None``: remove) the non-widget URL parameter ``name`` from a button's callback.

    Every rerun the browser sends carries the address bar's query string.  A rerun sent in the
    instant after the button's (a key pressed twice, the Play driver's end report) still carries the
    old value, and would undo the move: PageDown then seems to do nothing.  So the move is
    remembered, and :func:`keep_url_moves` puts it back on such a rerun.
    """
    before = st.query_params.get(name)
    if value is None:
        if name in st.query_params:
            del st.query_params[name]
    else:
        st.query_params[name] = value
    st.session_state.setdefault(_MOVES, {})[name] = _Move(value, before, time.monotonic(), st.session_state.get(_PAGE))


def keep_url_moves(page: str) -> set[str]:
    """Once per run, before anything reads the URL: put back the moves a stale rerun undid.

    A move is settled (forgotten) when a rerun from the browser shows its value, or any other
    value than the old one (the user went elsewhere), on another page, or after :data:`MOVE_GRACE`
    seconds.  The run of the button's own callback shows the value too, as the server set it: that
    one does not count, nor does the run that put the value back.  Returns the names put back (also
    kept for :func:`url_restored`).
    """
    moves = st.session_state.get(_MOVES) or {}
    restored = set()
    st.session_state[_PAGE] = page
    for name, move in list(moves.items()):
        now = st.query_params.get(name)
        if move.page != page:
            del moves[name]
        elif now == move.before and now != move.value and time.monotonic() - move.when < MOVE_GRACE:
            if move.value is None:
                del st.query_params[name]
            else:
                st.query_params[name] = move.value
            move.seen = True
            restored.add(name)
        elif now == move.value and not move.seen:
            move.seen = True
        else:
            del moves[name]
    st.session_state[_RESTORED] = restored
    return restored


def url_restored(name: str) -> bool:
    """Whether this run put the move of ``name`` back (:func:`keep_url_moves`)."""
    return name in st.session_state.get(_RESTORED, ())


#: The key that switches presenter mode on and off.
PRESENT_KEY = "P"


def set_presenter_mode(on: bool) -> None:
    """Switch presenter mode (the ``present`` URL flag, so the link keeps it)."""
    move_url("present", "1" if on else None)


def presenter_mode() -> bool:
    """``?present=1``: hide the controls and enlarge fonts for a projector."""
    return flag("present")


#: The buttons whose callback ran before this run (:func:`button`).
_CALLED = "_olab_callbacks_ran"


def button(label: str, *, key: str, on_click: Callable[..., None], args: tuple = (), where=st, **options) -> bool:
    """``where.button(label, key=key, on_click=on_click, args=args, **options)``, whose action also
    happens for a click its session never saw drawn.

    Streamlit runs a button's callback only if the session drew that button in an earlier run.  A
    browser that reconnects to another server process (a lecture hall's replica died) gets a brand-new
    session: its first click still reaches the button (``st.button`` returns True) but the callback
    never runs, so the click was lost (a Step did nothing, a tour's Next asked again).  Here the
    callback marks that it ran; a click without the mark runs the action now and reruns, so the page
    shows it.  Returns what ``st.button`` returned."""
    ss = st.session_state

    def called(*a):
        ss.setdefault(_CALLED, set()).add(key)
        on_click(*a)

    clicked = where.button(label, key=key, on_click=called, args=args, **options)
    ran = key in ss.get(_CALLED, ())
    ss.get(_CALLED, set()).discard(key)
    if clicked and not ran:      # a click that reached a session born after it: do what the callback does
        on_click(*args)
        st.rerun()
    return clicked


#: The run's epilogue (:func:`on_finish`), in the session's state until it has run.
_EPILOGUE = "_olab_epilogue"


def on_finish(fn: Callable[[], None]) -> None:
    """Register what every run of a page ends with (the notes about the link, the presenter button):
    :func:`finish` runs it once, at the end of the page or before :func:`stop` ends the page early."""
    st.session_state[_EPILOGUE] = fn


def finish() -> None:
    """Run the epilogue registered by :func:`on_finish`, once (a second call does nothing)."""
    fn = st.session_state.pop(_EPILOGUE, None)
    if fn is not None:
        fn()


def stop() -> NoReturn:
    """End the page here, after its epilogue: ``st.stop()`` alone would skip it, and after it nothing
    more can be drawn (so a link's dropped settings would go unreported)."""
    finish()
    st.stop()
    raise AssertionError("unreachable: st.stop() ends the run")  # pragma: no cover


def seen(page: str) -> bool:
    """True once this browser session has run ``page`` (without marking it, unlike :func:`first_run`)."""
    return page in st.session_state.get("_olab_pages_seen", ())


def first_run(page: str) -> bool:
    """True on this browser session's first run of ``page`` (a link to it was just opened)."""
    seen = st.session_state.setdefault("_olab_pages_seen", set())
    if page in seen:
        return False
    seen.add(page)
    return True


def url_snapshot() -> dict[str, list[str]]:
    """The URL's query parameters now, each with all its values."""
    return {k: st.query_params.get_all(k) for k in st.query_params}


#: Longest URL value any widget of the app can need; longer ones are dropped unread.
MAX_PARAM_LENGTH = 64


#: URL keys that hold text, not a widget's value, and may be longer: typed points (up to 200 points of
#: ``x1_x2_y``) and a Halving game's outcomes (one digit a round, as many rounds as the game allows).
LONG_PARAMS = {"pts": 6000, "moves": MAX_MOVES}


def _hostile(value: str, limit: int = MAX_PARAM_LENGTH, text: bool = False) -> bool:
    """A URL value no widget should see: too long, or (unless it is ``text``) a number too large for
    any widget.

    Streamlit 1.67 rejects most invalid values itself, but an integer ``number_input``
    raises ``OverflowError`` on ``inf``, ``1e309`` or 400 nines instead of falling back.
    """
    if len(value) > limit:
        return True
    if text:
        return False
    try:
        return not math.isfinite(float(value))
    except (ValueError, OverflowError):
        return False


def drop_hostile_params() -> dict[str, list[str]]:
    """Remove hostile values (see :func:`_hostile`) from the URL before any widget reads it.

    Returns what was removed, to be reported with :func:`show_dropped_params`.
    """
    found = {k: v for k, v in url_snapshot().items()
             if k not in NON_WIDGET_PARAMS and any(_hostile(x, LONG_PARAMS.get(k, MAX_PARAM_LENGTH), k in LONG_PARAMS) for x in v)}
    if not found:
        return {}
    for k in found:
        del st.query_params[k]
    return found


def reopen(page, note: dict[str, list[str]]) -> None:
    """Open ``page`` again with the link as it is now, so that its widgets read it (they are seeded
    from the link the page was loaded with): the public way, used when :mod:`olapp.compat`'s
    ``query_params_seed`` hook is off.  ``note`` (what was dropped) is shown by the next run.  Once per
    arrival on a page: a second call on the same page returns (the caller then goes on)."""
    ss = st.session_state
    if ss.get("_olab_reopened") == page.url_path:    # once per page: the link is today's by now
        return
    ss["_olab_reopened"] = page.url_path
    ss["_olab_reopened_note"] = note
    st.switch_page(page, query_params=[(k, v) for k, vs in url_snapshot().items() for v in vs])


def reopened_note() -> dict[str, list[str]]:
    """What :func:`reopen` dropped from the link, once (on the run it opened, which ends the arrival)."""
    st.session_state.pop("_olab_reopened", None)
    return st.session_state.pop("_olab_reopened_note", None) or {}


def _whole(value: str) -> str:
    """``"1000.0"`` -> ``"1000"``; anything else unchanged."""
    try:
        f = float(value)
    except ValueError:
        return value
    return str(int(f)) if math.isfinite(f) and f == int(f) and "." in value else value


def translate_legacy(legacy, int_keys=()) -> dict[str, str]:
    """Rewrite a link shared before the lesson kit so that it opens the view it opened then.

    ``legacy`` maps an old URL key to an :class:`olapp.registry.Legacy` (the key it is read as
    today and how its old values map); ``int_keys`` are keys whose old links carried whole
    numbers as floats (``T=1000.0``).  A key already present under its new name wins.  Returns
    ``{old key: new key}`` for what was rewritten.
    """
    done: dict[str, str] = {}
    for old, rule in legacy.items():
        if old not in st.query_params:
            continue
        value = st.query_params.get(old)
        if old == rule.key and rule.values.get(value, value) == value:
            continue                  # a key kept whose value is already today's: nothing to rewrite
        del st.query_params[old]
        if rule.key not in st.query_params and value is not None:
            st.query_params[rule.key] = rule.values.get(value, value)
        done[old] = rule.key
    for key in int_keys:
        value = st.query_params.get(key)
        if value is not None and _whole(value) != value:
            st.query_params[key] = _whole(value)
            done[key] = key
    return done


def _same(text: str, value) -> bool:
    """Whether a URL value ``text`` denotes the widget value ``value`` ("0.10" is 0.1, "2" is 2)."""
    if isinstance(value, (list, tuple)):
        return False
    if str(value) == text:
        return True
    try:
        return float(text) == float(value)
    except (TypeError, ValueError):
        return False


def dropped_params(before: dict[str, list[str]], after: dict[str, list[str]]) -> dict[str, list[str]]:
    """Parameters present ``before`` the page ran that Streamlit removed as invalid.

    Streamlit also removes a parameter whose value is the widget's default (the URL only holds
    what differs from the defaults): that one was not ignored, the widget holds it.
    """
    ss = st.session_state
    return {k: v for k, v in before.items() if k not in after and k not in NON_WIDGET_PARAMS
            and not (k in ss and len(v) == 1 and _same(v[0], ss[k]))}


#: Every ASCII punctuation character: markdown may give each a meaning (links, images, code, formulas,
#: emphasis, autolinks such as ``http://`` and ``www.``), and CommonMark lets a backslash make each literal.
_PUNCTUATION = re.compile(r"""([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])""")


#: The starts of GFM's autolink literals (schemes, ``www.``) and an e-mail's ``@``.
_AUTOLINK = re.compile(r"(?i)(?:https?|ftp|mailto|xmpp|www)|@.")


def inert(text, limit: int | None = None) -> str:
    """``text`` from outside (a URL key or value, a file's name or cells) as markdown that shows it
    literally: no link, image, code span, formula, emphasis or autolink can come out of it, nor HTML
    (which Streamlit shows as text anyway).  Every ASCII punctuation character gets a backslash, and an
    invisible word joiner (U+2060) breaks the start of a would-be autolink.  Control characters become spaces; ``limit`` cuts it first
    (with "…")."""
    text = "".join(" " if ord(c) < 32 or ord(c) == 127 else c for c in str(text))
    if limit is not None and len(text) > limit:
        text = text[:limit] + "…"
    # GFM's autolinks (http://…, www.…, a@b.c) survive backslashes: an invisible word joiner breaks them
    text = _AUTOLINK.sub(lambda m: m.group(0)[0] + "\u2060" + m.group(0)[1:], text)
    return _PUNCTUATION.sub(r"\\\1", text)


def show_dropped_params(dropped: dict[str, list[str]], where=st) -> None:
    """A visible note listing the link's settings that were ignored (their text made inert: :func:`inert`)."""
    if not dropped:
        return
    shown = ", ".join(f"“{inert(k, 30)}\\={inert(v[0] if v else '', 30)}”" for k, v in list(dropped.items())[:8])
    more = "" if len(dropped) <= 8 else f" and {len(dropped) - 8} more"
    where.warning(
        f"This link had settings that do not fit this page: {shown}{more}. "
        "They were ignored and the defaults are shown instead.", icon=":material/link_off:")


#: Presenter mode: no sidebar, no toolbar, no settings box or intro, a compact title and player,
#: larger text (the charts are enlarged by :func:`olapp.theme.present`).
PRESENTER_CSS = """
<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stHeader"],
[data-testid="stToolbar"], [data-testid="stExpandSidebarButton"] { display: none !important; }
.stMainBlockContainer, [data-testid="stMainBlockContainer"] { padding-top: 0.8rem; padding-bottom: 2rem;
  max-width: 100%; }
html { font-size: 20px; }
h1 { font-size: 2.0rem !important; padding: 0 0 0.2rem 0 !important; }
h3 { font-size: 1.45rem !important; padding: 0.2rem 0 0 0 !important; }
.stSlider:not([class*="st-key-player"] *), .stNumberInput:not(.st-key-lecture_question *), .stSelectbox, .stMultiSelect,
.stRadio:not(.st-key-lecture_question *),
.stCheckbox:not([class*="st-key-player"] *), .stFileUploader, .stDownloadButton, .stTextInput,
.stSelectSlider:not([class*="st-key-player"] *), .stButtonGroup:not([class*="st-key-topic_"] *),
[data-testid="stExpander"].olab-controls,
.st-key-controls, .st-key-intro { display: none !important; }
/* a projector narrower than 1920 px (1366, 1400, 1600): the player's row keeps its labels in full;
   the key hints stay in each button's tooltip */
@media (max-width: 1799px) {
  html { font-size: 18px; }
  [class*="st-key-player"] button kbd { display: none; }
  [class*="st-key-player"] button { padding-left: 0.5rem; padding-right: 0.5rem; }
}
</style>
"""


def apply_presenter_mode() -> bool:
    """In presenter mode, inject the CSS above; returns whether presenter mode is on."""
    on = presenter_mode()
    if on:
        st.html(PRESENTER_CSS)
    return on
