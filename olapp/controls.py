"""Shared widgets: the seed, the round player, CSV upload, error display.

Every widget here takes a ``key`` and is bound to the URL (``bind="query-params"``), so a
copied link reproduces the view.  Every control carries a ``help`` text.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import itertools
import logging
import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from olcore import StreamError, Trace, budget, claims, export, streams

from . import cache, compat, state, theme
from .turns import TURNS

_LOG = logging.getLogger("olab")

__all__ = ["seed_input", "round_player", "playing", "start_play", "csv_upload", "show_error", "chart", "table",
           "download_run",
           "show_code", "Preset", "matching_preset", "preset_selector", "PLAY_SPEEDS", "SHORTCUTS"]

#: Rounds per second offered by the player.
PLAY_SPEEDS = [1, 2, 5, 10, 50, 200]
#: A round beyond any stream: the player clamps it to T ("show the whole run").
END_OF_RUN = 2**62


def seed_input(key: str = "seed", label: str = "Seed", where=st) -> int:
    """The random seed: a whole number in the URL, so a link reproduces the stream."""
    return int(where.number_input(
        label, min_value=0, max_value=2**32 - 1, value=0, step=1, key=key, bind="query-params",
        help="Every random stream is drawn from this seed: the same seed gives the same stream, "
             "and the seed travels in the page's link.",
    ))


def _next_event(events: np.ndarray | None, t: int) -> int | None:
    """The round count just after the first event at 0-based round >= t, if any."""
    if events is None:
        return None
    later = np.flatnonzero(np.asarray(events, dtype=bool)[t:])
    return int(t + later[0] + 1) if later.size else None


def _current_round(key: str, T: int) -> int:
    """The round the player shows: its state, or on a fresh link the URL's value, else T."""
    ss = st.session_state
    if key in ss:
        return min(max(int(ss[key]), 0), T)
    try:
        t = int(str(st.query_params.get(key, T)))
    except ValueError:
        return T
    return t if 0 <= t <= T else T


#: Keyboard shortcuts of the player (as on a video player: J back, K play/pause, L step; 0 back to round 0).
SHORTCUTS = {"reset": "0", "back": "J", "step": "L", "next": "N", "play": "K"}


def round_player(T: int, key: str = "t", events=None, event_name: str = "mistake",
                 label: str = "Round") -> int:
    """Step, next event, play, scrub and reset over rounds ``0..T``; returns the round ``t``.

    ``t`` counts the rounds played: 0 is before the first round, ``T`` the whole run
    (the default, so a page first shows the complete run and every link shared so far
    opens the view it opened).  Play is ready on arrival: pressed at the end of the run it
    replays from round 0.  ``events`` (bool, (T,)), when given, enables "next <event_name>"
    (e.g. the next mistake).  The position is in the URL under ``key``; changing the stream
    never changes it beyond clamping to the new ``T``, and rewinding never changes the
    stream.  Keyboard: 0 reset, J back, L step, N next event, K play/pause.

    **Play runs in the browser** (:mod:`olapp.animation`): pressing Play reruns the page once,
    and the charts drawn by animated builders then come with their frames; the player's driver
    redraws them together at the chosen speed, and Pause (or the end of the run) sends the round
    reached back once, so the scrubber and the link show it.  No rerun per frame.
    """
    from . import animation

    ss = st.session_state
    T = max(int(T), 0)
    play_key, speed_key, nonce_key = f"{key}_play", f"{key}_speed", f"{key}_nonce"
    if key in ss and not 0 <= ss[key] <= T:
        ss[key] = min(max(int(ss[key]), 0), T)

    def _set(v: int) -> None:
        ss[key] = min(max(int(v), 0), T)
        ss[play_key] = False

    def _play_pause() -> None:
        if _span(ss, key, T) is not None:   # the browser did not answer: pause where the server is
            ss[play_key] = False
            return
        if _current_round(key, T) >= T:      # at the end: replay from the start
            ss[key] = 0
        start_play(ss, key, _current_round(key, T), T)

    # Two flex rows (one on a projector): Streamlit sends every column as a block of its own, and
    # each block or element costs the server CPU on every rerun of every session.
    box = st.container(key=f"player_{key}")  # presenter mode keeps the player visible
    buttons = box.container(horizontal=True, vertical_alignment="bottom", gap="small")
    if state.presenter_mode():   # a projector's full width (no sidebar): the buttons and the scrubber on one row
        scrub = buttons
    else:                        # beside the sidebar: buttons on one row (labels in full), the scrubber below
        scrub = box.container(horizontal=True, vertical_alignment="bottom", gap="medium")
    keys = SHORTCUTS
    span = _span(ss, key, T)
    cur = _current_round(key, T)
    nxt = _next_event(events, cur)
    width = "content" if scrub is buttons else "stretch"
    state.button("Reset", where=buttons, icon=":material/first_page:", key=f"{key}_reset", on_click=_set, args=(0,),
                   width=width, shortcut=keys["reset"],
                   help="Back to round 0, before the learner has seen anything. The stream stays the same. "
                        f"Key: {keys['reset']}.")
    state.button("Back", where=buttons, icon=":material/chevron_left:", key=f"{key}_back", on_click=_set, args=(cur - 1,),
                   disabled=cur <= 0, width=width, shortcut=keys["back"],
                   help=f"Undo one round. Key: {keys['back']}.")
    state.button("Step", where=buttons, icon=":material/chevron_right:", key=f"{key}_step", on_click=_set, args=(cur + 1,),
                   disabled=cur >= T, width=width, shortcut=keys["step"],
                   help=f"Play one more round: show x, predict, reveal y, update. Key: {keys['step']}.")
    if events is not None:
        state.button(f"Next {event_name}", where=buttons, icon=":material/skip_next:", key=f"{key}_next", on_click=_set,
                       args=(nxt or T,), disabled=nxt is None, width=width, shortcut=keys["next"],
                       help=f"Play on until just after the next {event_name}. Key: {keys['next']}.")
    def _trigger(name: str):     # the driver's trigger ``name`` on this rerun
        value = ss.get(f"{key}_driver")
        return value.get(name) if hasattr(value, "get") else getattr(value, name, None)

    stepping = server_steps(key)
    if compat.active("play_driver"):
        with buttons:           # beside Play, whose key it intercepts in the browser
            animation.driver(key, ss.get(nonce_key) if span and not stepping else None, span[0] if span else 0,
                             span[1] if span else T, float(ss.get(speed_key, 5)), button=f"{key}_playbtn",
                             pause_key=keys["play"],
                             on_stopped=lambda: stop_where_the_browser_stopped(ss, key, T, _trigger("stopped")),
                             on_fallback=lambda: step_on_the_server(ss, key, T, _trigger("fallback")))
    playing = span is not None
    state.button("Pause" if playing else "Play", where=buttons, icon=":material/pause:" if playing else ":material/play_arrow:",
                   key=f"{key}_playbtn", on_click=_play_pause, disabled=T == 0, width=width,
                   type="primary", shortcut=keys["play"],
                   help="Play the rounds one after another in your browser (from round 0 when the run is over); "
                        f"press again to pause there. Key: {keys['play']}.")
    t = scrub.slider(label, min_value=0, max_value=max(T, 1), value=T, step=1, key=key, bind="query-params",
                     disabled=T == 0, width="stretch",
                     help="Scrub through the run: the charts show the state after this many rounds.")
    scrub.select_slider("Speed (rounds/s)", options=PLAY_SPEEDS, value=5, key=speed_key, width=190,
                        help="How many rounds per second Play advances.")
    if ss.get(f"_{key}_server_steps"):      # this browser's driver found a hook missing: say so, in words
        box.caption(f":material/info: Play runs on the server here: {ss[f'_{key}_server_steps']}. "
                    "It moves a few times a second.")
    if span is not None and stepping:
        speed = max(float(ss.get(speed_key, 5)), 0.1)
        step = math.ceil(speed * SERVER_STEP_SECONDS)     # rounds a step, a step every step/speed seconds
        ss[f"_{key}_stepper_drawn"] = True
        with box:
            st.fragment(_server_step, run_every=step / speed)(key, span[1], step)
    return min(int(t), T)


#: Shortest time between two rounds shown when the server steps Play (each is a rerun of the page).
SERVER_STEP_SECONDS = 0.25

#: The driver's needed hooks (``play_driver.js``), in words.
DRIVER_HOOKS = {"plotly": "plotly.js's drawing functions were not found", "chart": "no chart was found in the page",
                "playButton": "the Play button was not found", "frames": "no chart arrived with its frames"}


def server_steps(key: str) -> bool:
    """Whether Play of the player ``key`` is stepped by the server (a rerun per step) instead of animated
    in the browser: the ``play_driver`` hook is off (:mod:`olapp.compat`), or this browser's driver
    found a hook it needs missing (:func:`step_on_the_server`)."""
    from . import compat

    return not compat.active("play_driver") or bool(st.session_state.get(f"_{key}_server_steps"))


def step_on_the_server(ss, key: str, T: int, fallback) -> bool:
    """Apply the driver's ``fallback`` event (``{"nonce", "round", "hooks"}``) of the current play: from
    now on this session's Play is stepped by the server, from the round the browser showed.  An event
    of another play, or one not well formed, changes nothing.  Returns whether it was applied."""
    if not isinstance(fallback, dict) or fallback.get("nonce") != ss.get(f"{key}_nonce"):
        return False
    hooks = fallback.get("hooks") if isinstance(fallback.get("hooks"), list) else []
    why = "; ".join(DRIVER_HOOKS[h] for h in hooks if h in DRIVER_HOOKS) or "the page did not look as expected"
    if not ss.get(f"_{key}_server_steps"):
        _LOG.warning("olab: a browser's Play driver fell back to server steps: %s", why)
    ss[f"_{key}_server_steps"] = why        # the server's own words, never the browser's
    try:
        r = min(max(int(fallback.get("round")), 0), T)
    except (TypeError, ValueError):
        r = None
    span = ss.get(f"{key}_span")
    if r is not None and isinstance(span, tuple) and len(span) == 2:
        ss[key] = r
        ss[f"{key}_span"] = (r, span[1])
    return True


def _server_step(key: str, stop: int, step: int) -> None:
    """While Play is stepped by the server, a fragment run on a timer (``st.fragment(run_every=...)``,
    kept by the browser): show ``step`` more rounds, up to round ``stop``, by a rerun of the page.  Drawn
    with the page, it does nothing: the next tick steps."""
    ss = st.session_state
    if ss.pop(f"_{key}_stepper_drawn", False) or not ss.get(f"{key}_play"):
        return
    ss[key] = min(int(ss.get(key, 0)) + step, stop)
    if ss[key] >= stop:
        ss[f"{key}_play"] = False
    st.rerun()


def stop_where_the_browser_stopped(ss, key: str, T: int, stopped) -> bool:
    """Apply the driver's ``stopped`` event (``{"nonce", "round"}``) of the current play: the player
    shows the round the animation reached and stops playing.  An event of an older play, or one that
    is not well formed, changes nothing.  Returns whether it was applied."""
    if not isinstance(stopped, dict) or stopped.get("nonce") != ss.get(f"{key}_nonce"):
        return False
    try:
        r = int(stopped.get("round"))
    except (TypeError, ValueError):
        return False
    ss[key] = min(max(r, 0), T)
    ss[f"{key}_play"] = False
    return True


def start_play(ss, key: str, start: int, stop: int) -> None:
    """Play rounds ``start`` to ``stop`` in the browser (a new play, with its own name there)."""
    ss[f"_{key}_plays"] = ss.get(f"_{key}_plays", 0) + 1
    ss[f"{key}_nonce"] = f"{key}-{ss[f'_{key}_plays']}"
    ss[f"{key}_span"] = (int(start), int(stop))
    ss[f"{key}_play"] = True


def _span(ss, key: str, T: int) -> tuple[int, int] | None:
    """The rounds the current play runs over (clamped to the run), or ``None`` when not playing."""
    if not ss.get(f"{key}_play") or f"{key}_nonce" not in ss:
        return None
    start, stop = ss.get(f"{key}_span", (0, T))
    start, stop = min(max(int(start), 0), T), min(max(int(stop), 0), T)
    return (start, stop) if start < stop else None


def playing(key: str, T: int) -> tuple[int, int] | None:
    """``(start, stop)`` while the player ``key`` over rounds ``0..T`` plays in the browser, else ``None``
    (also while the server steps it: each step is drawn as a round at rest)."""
    return None if server_steps(key) else _span(st.session_state, key, T)


def show_error(exc: Exception, what: str = "") -> None:
    """Show a StreamError's message (what was wrong, what is expected) in words, no internal field name
    (:meth:`olcore.StreamError.shown`); no traceback."""
    prefix = f"{what}: " if what else ""
    body = exc.shown() if isinstance(exc, StreamError) else str(exc)
    st.error(f"{prefix}{body}", icon=":material/error:")


def csv_upload(kind: str, key: str, on_stream: Callable[[streams.Stream], None] | None = None,
               where=st) -> streams.Stream | None:
    """Upload a CSV stream of ``kind``, validated; returns the last valid upload or ``None``.

    Shows the format, the budget of the views (:func:`olcore.budget.limits_text`), a template to download,
    and on a bad file an error that says what is wrong and what is expected, while keeping the previous
    valid stream.  When a view was over the budget and its smaller view was taken
    (:meth:`olapp.kit.LessonPage.run`), the stream returned is that view, the whole stream is kept in
    ``_<key>_whole``, and a button here gives it back.
    """
    ss = st.session_state
    store, whole = f"_{key}_stream", f"_{key}_whole"
    where.caption(streams.format_help(kind) + "  \n" + budget.limits_text())
    where.download_button("Download a template CSV", streams.template_csv(kind), file_name=f"{kind}_template.csv",
                          mime="text/csv", key=f"{key}_template",
                          help="A small example in the expected format: edit it or replace its rows.")
    up = where.file_uploader("Your stream (CSV)", type=["csv", "txt"], key=key,
                             help="One line per round, in the format above.")
    if up is not None:
        marker = (up.name, up.size, getattr(up, "file_id", None))
        if ss.get(f"_{key}_marker") != marker:
            try:
                with TURNS.aside():        # reading a large file takes a second: other sessions' runs go on meanwhile
                    stream = _read_upload(up.getvalue(), kind)
            except StreamError as exc:
                ss[f"_{key}_error"] = state.inert(f"{up.name}: {exc}")   # the file's name and cells, shown literally
            else:
                ss[store] = stream
                ss.pop(whole, None)                   # a new file: any smaller view was of the old one
                ss.pop(f"_{key}_error", None)
                if on_stream is not None:
                    on_stream(stream)
            ss[f"_{key}_marker"] = marker
    if ss.get(f"_{key}_error"):
        where.error(ss[f"_{key}_error"] + (" The previous stream is kept." if store in ss else ""),
                    icon=":material/error:")
    if store in ss:
        c = where.columns([3, 1], vertical_alignment="center")
        up_stream = ss[store]
        size = f"{up_stream.T} rounds" + (f", {up_stream.X.shape[1]} columns" if up_stream.X.ndim == 2 else "")
        c[0].caption(f"Using your stream: {size}; settings of the generated streams (greyed) are kept for when you "
                     "switch back. An uploaded stream cannot travel in the page's link: to share this view, send "
                     "the link together with this CSV.")
        # (the CSV is written when the button is clicked: a wide stream takes a second, every rerun would pay)
        c[1].download_button("Download this stream (CSV)", functools.partial(streams.to_csv, up_stream),
                             file_name=f"{kind}_stream.csv", mime="text/csv", key=f"{key}_share", on_click="ignore",
                             icon=":material/download:",
                             help="The uploaded stream as a CSV in the same format: upload it again to reopen this view.")
        if whole in ss:                       # a smaller view of the upload, taken when a view was over the budget
            full = ss[whole]
            kept = []
            if up_stream.X.shape[1] < full.X.shape[1]:
                kept.append(f"its first {up_stream.X.shape[1]:,} of {full.X.shape[1]:,} {budget.describe(kind)}")
            if up_stream.T < full.T:
                kept.append(f"a sample of {up_stream.T:,} of its {full.T:,} rounds, in their order")
            r = where.columns([3, 1], vertical_alignment="center")
            r[0].info(f"A smaller view of your stream: {' and '.join(kept) or 'all of it'}. The whole stream "
                      f"({full.T:,} rounds × {full.X.shape[1]:,} {budget.describe(kind)}) stays in this session.",
                      icon=":material/filter_alt:")

            def whole_again() -> None:
                if whole in ss:
                    ss[store] = ss.pop(whole)

            r[1].button("Back to the whole stream", key=f"{key}_whole", on_click=whole_again, icon=":material/undo:",
                        help="Use the whole uploaded stream again (a view too large for the budget then shows its "
                             "message again).")
    return ss.get(store)


#: An upload of at least this many bytes is read in a child process (:func:`_read_upload`).
READ_ASIDE_BYTES = 2**20

_READER = """
import json, sys, types
from pathlib import Path
# only the reader's modules: olcore's package would load numba and every compiled kernel first (a second)
for name in ("olcore", "olcore.streams"):
    package = types.ModuleType(name)
    package.__path__ = [str(Path.cwd().joinpath(*name.split(".")))]
    sys.modules[name] = package
from olcore.errors import StreamError
from olcore.streams.csv import read_csv
try:
    s = read_csv(sys.stdin.buffer.read(), sys.argv[1])
except StreamError as exc:
    sys.stdout.buffer.write(b"E" + str(exc).encode())
    raise SystemExit(0)
arrays = [a for a in (s.X, s.y) if a is not None]
head = {"info": s.info, "arrays": [[a.dtype.str, list(a.shape)] for a in arrays]}
sys.stdout.buffer.write(b"S" + json.dumps(head).encode() + bytes([10]))
for a in arrays:
    sys.stdout.buffer.write(a.tobytes())
"""


def _read_upload(data: bytes, kind: str) -> streams.Stream:
    """``streams.read_csv(data, kind)`` (:func:`csv_upload`); a file of :data:`READ_ASIDE_BYTES` or more in a
    child process.  Reading 16 MB takes a second or two, most of it in two numpy and csv calls that hold the
    interpreter's lock throughout: in the server's own process every other session's run would stop for
    as long.  In a child the server's threads run on, and the reading's temporary memory (about 100 bytes
    a value: 300 MB for 16 MB of CSV) is the child's, freed when it exits; the stream's arrays arrive as
    bytes and are used as they are.  The child's messages are read_csv's; if it cannot run, the file is
    read here."""
    if len(data) < READ_ASIDE_BYTES:
        return streams.read_csv(data, kind)
    import json
    import subprocess
    import sys
    from pathlib import Path

    import olcore

    try:
        done = subprocess.run([sys.executable, "-c", _READER, kind], input=data, capture_output=True, timeout=120,
                              cwd=Path(olcore.__file__).resolve().parent.parent)
    except (OSError, subprocess.SubprocessError):
        done = None
    out = done.stdout if done is not None and done.returncode == 0 else b""
    if out[:1] == b"E":
        raise StreamError(out[1:].decode())
    end = out.find(b"\n")
    if out[:1] != b"S" or end < 0:
        _LOG.warning("reading an upload in a child process failed (%s): reading it here",
                     "no process" if done is None else done.stderr[-300:].decode(errors="replace"))
        return streams.read_csv(data, kind)
    head = json.loads(out[1:end])
    arrays, at = [], end + 1
    for dtype, shape in head["arrays"]:
        a = np.frombuffer(out, dtype=np.dtype(dtype), count=math.prod(shape), offset=at).reshape(shape)
        arrays.append(a)
        at += a.nbytes
    X, y = arrays if len(arrays) == 2 else (arrays[0], None)
    return streams.from_arrays(kind, X, y, head["info"])


def chart(fig: go.Figure, key: str | None = None, filename: str = "online-learning-lab", where=st,
          play: str | None = None) -> None:
    """Show a plotly figure: larger fonts in presenter mode, PNG export from the toolbar.

    The figure's JSON is computed once per figure object and presenter setting (figures built by
    memoised builders are shared by every session, see :mod:`olapp.cache`), then sent as the
    same element ``st.plotly_chart`` would send (:func:`_send_chart`).  ``play`` is
    the frames (JSON) while the round player plays in the browser (:mod:`olapp.animation`):
    the frames travel in the chart's ``layout.meta`` (:func:`_with_frames`).
    """
    presenting = state.presenter_mode()
    spec, height, spec_id = cache.per_object(fig, ("spec", presenting), lambda: _spec(fig, presenting))
    if play is not None:
        spec, spec_id = cache.memo(_with_frames, spec, play)
    _send_chart(spec, height, key, _chart_config(filename), where, spec_id=spec_id)


def _with_frames(spec: str, frames: str) -> tuple[str, str]:
    """The chart's JSON with a play's frames in ``layout.meta`` (:mod:`olapp.animation`), and its digest.
    It depends on the settings and the round the play starts from, not on who plays: every session
    that plays the same run from the same round is sent the same element (built once; a browser that
    has it already is sent a reference)."""
    import json

    as_dict = json.loads(spec)
    layout = as_dict.setdefault("layout", {})
    meta = layout.get("meta") if isinstance(layout.get("meta"), dict) else {}
    layout["meta"] = {**meta, "olab_frames": frames, "olab_frames_id": cache.digest(frames)}
    spec = json.dumps(as_dict, separators=(",", ":"))
    return spec, cache.digest(spec)


@functools.lru_cache(maxsize=256)
def _chart_config(filename: str) -> str:
    """The chart's plotly config as JSON: no logo, PNG export named ``filename``."""
    import json

    return json.dumps({"displaylogo": False,
                       "toImageButtonOptions": {"format": "png", "filename": filename, "scale": 2}})


def _spec(fig: go.Figure, presenting: bool) -> tuple[str, int | None, str]:
    """The figure's JSON as ``st.plotly_chart`` writes it, its height (presenter sizes applied) and
    the JSON's digest (the element's identity)."""
    import plotly.io as pio

    from . import compat

    if presenting:                          # enlarge a copy: the figure may be shared
        fig = theme.present(go.Figure(fig))
    as_dict = compat.plotly_dict(fig)       # fig.to_dict() (without its deep copy where the hook is on)
    height = as_dict.get("layout", {}).get("height")
    spec = pio.to_json(as_dict, validate=False)
    return spec, (int(height) if isinstance(height, (int, float)) else None), cache.digest(spec)


def _send_chart(spec: str, height: int | None, key: str | None, config: str, where, spec_id: str | None = None) -> None:
    """Send a plotly chart element from its JSON: what ``st.plotly_chart(fig, key=key, config=config)``
    sends (``config`` as JSON), without re-validating and re-serialising a figure that has not changed
    since the last rerun (:func:`olapp.compat.send_chart`; ``st.plotly_chart`` itself when that hook
    is off).  ``tests/test_cache.py`` checks that both send the same element."""
    from . import compat

    compat.send_chart(spec, height, key, config, where, spec_id or cache.digest(spec))


_table_ids = itertools.count(1)


def table(data, where=st, **options) -> None:
    """``st.dataframe(data, **options)``, its element built once for every session that shows the same
    data, and replayed from then on.

    Streamlit builds a table's element afresh on every call: for a pandas ``Styler`` (the lecture's
    table on /halving) pandas renders its styles each time, a large share of a rerun.  Here the first call with
    given data and options runs ``st.dataframe`` inside an ``st.cache_data`` function, and every later
    call replays the element it recorded (Streamlit's own replay of a cached function's elements: no
    internals).  The data is keyed as :func:`olapp.cache.key_of` keys a memo argument (plain rows by
    value, a memoised result by its token) or, when it cannot be keyed (a ``Styler``, a ``DataFrame``),
    by the object itself while it lives: share such an object (build it with a memoised builder), or
    every call builds its element again.  The data must not change after it is first shown.
    """
    try:
        key = ("value", cache.key_of(data))
    except cache.Uncacheable:
        key = ("object", cache.per_object(data, "table", lambda: next(_table_ids)))
    name = cache.digest(repr((key, sorted(options.items()))))
    with where if where is not st else contextlib.nullcontext():
        _table_element(name, data, options)


@st.cache_data(show_spinner=False, max_entries=256)
def _table_element(name: str, _data, _options: dict) -> None:
    """The table element of :func:`table`, recorded on the first call per ``name`` and replayed after."""
    st.dataframe(_data, **_options)


def download_run(trace: Trace, stream: streams.Stream | None = None, bound=None, name: str = "run",
                 key: str | None = None, where=st, prediction: str = "the learner's prediction") -> None:
    """A button that downloads the run as CSV: one row per round (see olcore.export), and a
    caption explaining every column (``prediction`` says what the prediction column holds)."""
    # The CSV is built only when the button is clicked (Streamlit calls the callable then):
    # a wide run takes long to write, and every rerun (every step of the player) would pay.
    notes = export.left_out(trace, stream)
    where.download_button(
        "Download this run (CSV)", lambda: export.run_csv(trace, stream, bound),
        file_name=f"{name}.csv", mime="text/csv", key=key or f"download_{name}", on_click="ignore",
        icon=":material/download:",
        help="One row per round: inputs, label, prediction, loss, cumulative loss, bound so far, "
             "and the weights used in that round.")
    cols = ["round (1, 2, …)"]
    if stream is not None:
        cols.append("the round's inputs and label")
    cols += [f"prediction ({prediction})", "loss and cumulative_loss (the learner's)"]
    if bound is not None:
        cols.append("bound (the theorem's bound after that round)")
    if trace.mistakes is not None:
        cols.append("mistake (1 when the prediction was wrong)")
    if trace.k:
        cols.append("w1, w2, … (the weights used in that round)")
    where.caption("\n\n".join(["Columns: " + "; ".join(cols) + "."] + [f"Note: {note}." for note in notes]))


def show_code(obj, title: str = "Show the code", where=st) -> None:
    """An expander with the source of ``obj`` (the algorithm's reference class).

    The code is sent only while the expander is open (``on_change="rerun"``): closed, as it is on
    arrival, it costs the page nothing, where a highlighted class costs the browser 0.1-0.3 s to lay
    out on every load."""
    box = where.expander(title, key=f"code_{obj.__module__}.{obj.__qualname__}".replace(".", "_"),
                         on_change="rerun")
    if box.open:
        box.caption("The reference implementation, line by line as in the notes; the fast path "
                    "used for long runs is tested to agree with it.")
        box.code(_source(obj), language="python", wrap_lines=True)


@functools.lru_cache(maxsize=64)
def _source(obj) -> str:
    return inspect.getsource(obj)


@dataclass(frozen=True)
class Preset:
    """A named lecture scenario: widget values to set, and one line on what it shows."""

    name: str
    note: str
    values: dict[str, Any] = field(default_factory=dict)


def matching_preset(presets: list[Preset], key: str = "preset") -> Preset | None:
    """The preset whose values the widgets hold now: the chosen one if it matches, else the first match.

    Call it again after a page's widgets are drawn to know the preset on a link's first run.
    """
    ss = st.session_state

    def matches(p: Preset) -> bool:
        return all(ss.get(k) == v for k, v in p.values.items())

    chosen = next((p for p in presets if p.name == ss.get(key)), None)
    return chosen if chosen is not None and matches(chosen) else next(filter(matches, presets), None)


def preset_selector(presets: list[Preset], key: str = "preset", where=st,
                    player_key: str | None = "t") -> Preset | None:
    """Choose a lecture preset; choosing one sets the page's widgets (by key) to its values.

    A newly chosen preset also moves the round player (``player_key``) to the end, so it
    shows its whole run.  Returns the preset whose values the widgets currently hold, if
    any, and shows its note.
    """
    ss = st.session_state
    names = ["(your own settings)"] + [p.name for p in presets]
    by_name = {p.name: p for p in presets}

    def _apply() -> None:
        chosen = by_name.get(ss[key])
        if chosen is not None:
            for k, v in chosen.values.items():
                ss[k] = v
            if player_key is not None:
                ss[player_key] = END_OF_RUN  # round_player clamps it to the last round

    current = matching_preset(presets, key)
    if current is not None and ss.get(key) != current.name:
        ss[key] = current.name        # a link or a hand-set view that is a preset: the box names it
    elif current is None and ss.get(key) in by_name:
        ss[key] = names[0]            # a control changed since: the box says so
    where.selectbox("Lecture preset", names, key=key, on_change=_apply,
                    help="Named scenarios that reproduce a worked example or a theorem of the notes. "
                         "Choosing one sets the controls below; change any control to explore from there.")
    if current is not None:
        where.info(claims.text(f"**{current.name}**: ", current.note), icon=":material/school:")   # its claims kept
    return current
