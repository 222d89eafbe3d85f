"""Play in the browser: the round-dependent charts of a lesson move together, with no server rerun
per frame.

How it works:

- A figure builder declared with ``@figure(animated=True)`` promises that its only round-dependent
  input is its parameter ``t`` (the player's round).  When the round player plays, the kit asks
  :func:`frames` for each such chart: the builder is called again for up to :data:`MAX_FRAMES`
  rounds from the current one to the end, and each frame is stored as a list of trace ids into a
  table of distinct traces (a trace that does not change, such as the stream's points or a bound,
  is stored once) and the layout keys that differ from the current figure (the round marker, a
  title).  This is computed once per settings and shared by every session (:mod:`olapp.cache`).
- The frames travel inside the chart's own JSON (``layout.meta``), so they arrive with the chart.
  That JSON depends only on the run and the round the play starts from (no session's mark in it):
  it too is built once and shared, and a browser that has it already is sent a reference.
- One small component per player (:func:`driver`, Streamlit's ``st.components.v2``) runs in the
  page: it finds every visible chart that carries frames and moves them all to the
  player's round, at most :data:`FPS` times a second.  When a frame keeps the chart's traces and
  only the points of some scatter traces change, it redraws just those (``Plotly.animate`` without
  a full redraw) and the layout items that moved (``Plotly.relayout`` by path; the round marker, a
  line and its label, and a plain title are changed in place in the SVG: a relayout would replot the
  chart's layout); otherwise it redraws the chart (``Plotly.react``), which costs every point of every trace.  Builders keep frames cheap
  by keeping their traces fixed (:func:`olapp.figures.points_by_round`) and their names and hover
  texts independent of the round.  While it plays, the page's elements off the screen are not
  rendered (``content-visibility: auto`` at their size): the browser lays out and paints the whole
  page on every frame.  Pause (the player's button or its key) and the end of the run send the round
  reached back to the server once, so the link and the scrubber show where the animation stopped.
- The words move too.  The page's texts of the round (the tally, readouts, status lines, the
  captions of moving charts: :meth:`olapp.kit.LessonPage.at_round`) come as one markdown element
  each, with a block per round where the text changes (:func:`texts`, :func:`live_body`); the driver
  shows the block of the round the charts have reached, and puts the scrubber's thumb there.
"""

from __future__ import annotations

import html
import inspect
import json
import os
import re
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from . import cache

__all__ = ["MAX_FRAMES", "FPS", "frame_rounds", "frames", "texts", "live_body", "shared_ends", "live_table", "driver",
           "JS"]

#: Most frames one play builds (long runs are sampled evenly; the last round is always a frame).
MAX_FRAMES = 300
#: Most redraws a second in the browser.
FPS = 30


def frame_rounds(start: int, T: int, max_frames: int = MAX_FRAMES) -> np.ndarray:
    """The rounds drawn while playing from ``start`` to ``T``: every round, or ``max_frames`` evenly
    spaced ones (``start`` and ``T`` always included)."""
    start, T = int(start), int(T)
    if T <= start:
        return np.array([T])
    n = min(T - start + 1, max_frames)
    return np.unique(np.linspace(start, T, n).round().astype(int))


def _to_plain(fig) -> dict:
    d = fig.to_plotly_json()
    return {"data": list(d.get("data", [])), "layout": dict(d.get("layout", {}))}


def _typed(x: Any, key: str | None = None) -> Any:
    """Numeric numpy arrays as plotly.js typed-array specs (base64), as plotly's own JSON writes them;
    everything else as it is (the JSON encoder writes it).  A 2-D numeric ``z`` (a heat map's or a contour's
    grid) gets the spec's ``shape`` (the driver decodes it into rows); other 2-D
    arrays (``customdata``) stay JSON rows, which the driver slices like the points."""
    from .compat import typed_array_spec

    if isinstance(x, dict):
        return {k: _typed(v, k) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_typed(v) for v in x]
    if isinstance(x, np.ndarray) and x.ndim > 1 and key != "z":
        return x.tolist()                   # rows (customdata): a JSON list of lists slices like the points
    if isinstance(x, np.ndarray) and x.ndim <= 2:
        spec = typed_array_spec(x)          # a 2-D ``z`` gets its shape (the driver decodes it into rows)
        if spec is not None:
            return spec
    return x


def _frames(builder: Callable, bound: tuple, start: int, T: int) -> str:
    """The frames of ``builder`` over :func:`frame_rounds`: a table of distinct traces, each frame a
    list of ids into it, and each frame's layout keys that differ from the first frame (the chart as
    served at ``start``), as JSON."""
    from plotly.utils import PlotlyJSONEncoder

    from .figures import RAW

    kwargs = dict(bound)
    rounds = frame_rounds(start, T)
    token = RAW.set(True)
    try:
        figs = [_to_plain(builder(**{**kwargs, "t": int(r)})) for r in rounds]
    finally:
        RAW.reset(token)
    base_layout = {k: cache.key_of(v) for k, v in figs[0]["layout"].items()}
    table: list[dict] = []
    ids: dict[Any, int] = {}
    layouts: list[dict] = []
    layout_ids: dict[Any, int] = {}
    out_frames, out_layouts = [], []
    for fig in figs:
        frame = []
        for tr in fig["data"]:
            k = cache.key_of(tr)
            if k not in ids:
                ids[k] = len(table)
                table.append(tr)
            frame.append(ids[k])
        diff = {k: v for k, v in fig["layout"].items()
                if k not in ("template", "meta") and cache.key_of(v) != base_layout.get(k)}
        # a key the first frame has and this one has not (its last annotation gone): null clears it
        diff.update({k: None for k in base_layout if k not in fig["layout"] and k not in ("template", "meta")})
        lk = cache.key_of(diff)
        if lk not in layout_ids:
            layout_ids[lk] = len(layouts)
            layouts.append(diff)
        out_frames.append(frame)
        out_layouts.append(layout_ids[lk])
    payload = {"rounds": [int(r) for r in rounds], "traces": _typed(_slices(table)), "frames": out_frames,
               "layouts": layouts, "frame_layouts": out_layouts}
    return json.dumps(payload, cls=PlotlyJSONEncoder, separators=(",", ":"))


def _array_fields(tr: dict) -> list[tuple[str, ...]]:
    """Paths of the trace's numpy arrays (top level, and one level down: ``marker.color``); rows of a
    2-D array (``customdata``) count as its points."""
    out = []
    for k, v in tr.items():
        if isinstance(v, np.ndarray) and v.ndim >= 1:
            out.append((k,))
        elif isinstance(v, dict):
            out += [(k, k2) for k2, v2 in v.items() if isinstance(v2, np.ndarray) and v2.ndim >= 1]
    return out


def _get(tr: dict, path: tuple[str, ...]):
    for k in path:
        tr = tr[k]
    return tr


def _slices(table: list[dict]) -> list[dict]:
    """Traces that are a run of another's points (the points seen so far, a curve up to round t) become
    ``{"slice": parent, "lo", "hi", "fields"}``: a frame then costs a few numbers, not its points."""
    groups: dict[Any, list[int]] = {}
    for i, tr in enumerate(table):
        fields = _array_fields(tr)
        if not fields or len({len(_get(tr, f)) for f in fields}) != 1 or not len(_get(tr, fields[0])):
            continue                        # (an empty trace is as short as a slice of one)
        shape = {k: v for k, v in tr.items() if (k,) not in fields and not any(f[0] == k for f in fields)}
        rest = {f[0]: {k2: v2 for k2, v2 in tr[f[0]].items() if (f[0], k2) not in fields}
                for f in fields if len(f) == 2}
        try:
            key = cache.key_of((shape, rest, tuple(fields)))
        except cache.Uncacheable:
            continue
        groups.setdefault(key, []).append(i)
    out = list(table)
    for members in groups.values():
        if len(members) < 2:
            continue
        fields = _array_fields(table[members[0]])
        parent = max(members, key=lambda i: len(_get(table[i], fields[0])))
        L = len(_get(table[parent], fields[0]))
        for i in members:
            n = len(_get(table[i], fields[0]))
            if i == parent:
                continue
            for lo in (0, L - n):
                if all(np.array_equal(_get(table[i], f), _get(table[parent], f)[lo:lo + n]) for f in fields):
                    out[i] = {"slice": parent, "lo": lo, "hi": lo + n, "fields": [list(f) for f in fields]}
                    break
    return out


def frames(builder: Callable, args: tuple, kwargs: dict, start: int, T: int) -> str | None:
    """The frames (JSON) of an animated builder's chart when playing from round ``start`` to ``T``,
    or ``None`` when the builder cannot be called with another ``t``."""
    try:
        bound = inspect.signature(builder).bind(*args, **kwargs)
    except TypeError:
        return None
    bound.apply_defaults()
    if "t" not in bound.arguments or bound.arguments["t"] is None:
        return None
    rest = tuple((k, v) for k, v in bound.arguments.items() if k != "t")
    try:
        return cache.memo(_frames, builder, rest, int(start), int(T))
    except cache.Uncacheable:
        return None


def texts(fn: Callable, args: tuple, start: int, T: int) -> tuple[tuple[int, Any], ...]:
    """What ``fn(*args, r)`` shows over :func:`frame_rounds` while playing from ``start`` to ``T``:
    ``(round, value)`` pairs, a value given once from the round where it first shows (a run of equal
    values is one pair).  Computed once per run and start round, shared by every session."""
    try:
        return cache.memo(_texts, fn, tuple(args), int(start), int(T))
    except cache.Uncacheable:
        return _texts(fn, tuple(args), int(start), int(T))


def _texts(fn: Callable, args: tuple, start: int, T: int) -> tuple[tuple[int, Any], ...]:
    out: list[tuple[int, Any]] = []
    for r in frame_rounds(start, T):
        value = fn(*args, int(r))
        if not out or out[-1][1] != value:
            out.append((int(r), value))
    return tuple(out)


def live_body(frames: Sequence[tuple[int, str]], raw: bool = False) -> str:
    """One markdown body (``unsafe_allow_html``) holding every frame's markdown (``raw``: HTML), each in
    a block ``<div data-olab-round="r">`` of the round it first shows; all but the first are hidden, and
    the driver shows the block of the round the charts have reached.  Markdown and formulas inside the
    blocks are rendered by Streamlit as usual.

    What every frame's markdown shares at its start and end (a caption that only ends with the round's
    numbers) is written once, around ``<span>`` blocks of the part that changes (:func:`shared_ends`):
    the browser renders every block of every frame when Play starts, and a formula costs it about a
    millisecond (the Widrow-Hoff plane's caption repeated four static formulas in each of its 201
    frames)."""
    if not raw and (parts := shared_ends([text for _, text in frames])) is not None:
        head, middles, tail = parts
        spans = "".join(f'<span data-olab-round="{r}"{" hidden" if i else LIVE}>{_html_safe(mid)}</span>'
                        for i, ((r, _), mid) in enumerate(zip(frames, middles)))
        return f"{_html_safe(head)}{spans}{_html_safe(tail)}"
    return "\n\n".join(f'<div data-olab-round="{r}"{" hidden" if i else LIVE}>\n\n'
                        f'{text if raw else _html_safe(text)}\n\n</div>' for i, (r, text) in enumerate(frames))


#: Fewest characters worth writing once around a live text's changing part (else: a block per frame).
SHARED_MIN = 40


def shared_ends(texts: Sequence[str]) -> tuple[str, list[str], str] | None:
    """``(head, middles, tail)`` with ``head + middles[i] + tail == texts[i]``: the longest start and end
    every text shares, cut where the markdown around them stays the same markdown when the middles
    become inline ``<span>`` blocks of one paragraph.  That is: the middles are one line each; the head
    ends with a space and the tail is empty or starts with one (a cut between words); and neither cuts a
    formula, an emphasis, a code span, a link or a tag in two (their markers are balanced on each side).
    ``None`` when they share fewer than :data:`SHARED_MIN` characters so cut (or a text is empty)."""
    if len(texts) < 2 or not all(texts):
        return None
    n = len(os.path.commonprefix(list(texts)))
    m = len(os.path.commonprefix([t[::-1] for t in texts]))
    shortest = min(map(len, texts))
    m = min(m, shortest - n)                    # (the head and the tail must not overlap in any text)
    first = texts[0]
    head_at = next((i for i in range(n, 0, -1) if first[i - 1] == " " and _closed(first[:i])), 0)
    tail_at = next((j for j in range(m, 0, -1) if first[-j] == " " and _closed(first[-j:])), 0)
    head, tail = first[:head_at], first[len(first) - tail_at:] if tail_at else ""
    if not head or len(head) + len(tail) < SHARED_MIN:
        return None
    middles = [t[len(head):len(t) - len(tail)] for t in texts]
    if any("\n" in mid or not mid.strip() for mid in middles):
        return None
    return head, middles, tail


def _closed(text: str) -> bool:
    """Whether ``text`` opens nothing it does not close: formulas, code spans, emphasis (``*``, and
    ``_`` at a word's edge), link brackets and tags (counted outside formulas)."""
    if "\\$" in text or "\\*" in text or "\\_" in text or text.count("$") % 2:
        return False
    outside = "".join(part for i, part in enumerate(_FORMULA.split(text)) if i % 2 == 0)
    runs = [len(r) for r in re.findall(r"\*+", outside)]
    runs += [len(r) for r in re.findall(r"(?<![0-9A-Za-z])_+|_+(?![0-9A-Za-z])", outside)]
    ones, twos = sum(n % 2 for n in runs), sum(n // 2 for n in runs)     # (*** opens both * and **)
    return (outside.count("`") % 2 == 0 and ones % 2 == 0 and twos % 2 == 0
            and outside.count("[") == outside.count("]") and outside.count("<") == outside.count(">"))


#: The mark of a text's first block and of a live table: the driver finds them again as soon as Streamlit
#: draws one afresh (new elements), instead of moving the old ones.
LIVE = ' class="olab-live"'


_FOREVER = 10**9


def live_table(frames: Sequence[tuple[int, Any]]) -> str | None:
    """One HTML table (a markdown body, ``unsafe_allow_html``) holding the rows of every frame's table,
    each row once with the spans of rounds it is shown in (``data-olab-span="a-b,..."``, ``b``
    excluded); rows not shown at the first frame's round are hidden, and the driver shows those of
    the round the charts have reached.  ``frames`` are ``(round, cells)`` as :func:`texts` gives them,
    ``cells`` with ``columns`` (names) and ``rows`` (``(label, ((text, css), ...))``).  ``None``
    when the columns change from frame to frame."""
    columns = frames[0][1].columns
    if any(cells.columns != columns for _, cells in frames):
        return None
    order: list[Any] = []                   # every distinct row, in the order the frames show them
    spans: dict[Any, list[list[int]]] = {}
    ends = [r for r, _ in frames[1:]] + [_FOREVER]        # (the last frame's table stays to the end)
    for (r, cells), end in zip(frames, ends):
        at = -1
        for row in cells.rows:
            if row not in spans:
                spans[row] = []
                order.insert(at + 1, row)
            at = order.index(row)
            if spans[row] and spans[row][-1][1] == r:
                spans[row][-1][1] = end     # shown in the frame before too: one span
            else:
                spans[row].append([r, end])
    first = frames[0][0]
    esc = html.escape
    index = any(label is not None for label, _ in order)     # (labels ``None``: no index column)
    head = ("<th></th>" if index else "") + "".join(f"<th>{esc(c)}</th>" for c in columns)
    body = []
    for row in order:
        label, cells = row
        shown = any(a <= first < b for a, b in spans[row])
        tds = "".join(f'<td style="{esc(css)}">{esc(text)}</td>' if css else f"<td>{esc(text)}</td>" for text, css in cells)
        hide = "" if shown else ' style="display:none"'
        body.append(f'<tr data-olab-span="{",".join(f"{a}-{b}" for a, b in spans[row])}"{hide}>'
                    f'{f"<th>{esc(str(label))}</th>" if index else ""}{tds}</tr>')
    return f'<table{LIVE} style="width:100%"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def _html_safe(text: str) -> str:
    """Markdown that stays markdown inside an HTML block: a ``<`` that could open a tag is written as
    an entity, outside formulas (where an entity would be read as it is written)."""
    parts = _FORMULA.split(text)                    # (odd parts: the formulas)
    return "".join(part if i % 2 else part.replace("<", "&lt;") for i, part in enumerate(parts))


_FORMULA = re.compile(r"(\$\$.*?\$\$|\$[^$]*\$)", re.S)


#: The driver: finds this play's charts, redraws them together, reports the round where it stopped.
#: The driver's JavaScript (an ES module whose default export the component runs): ``play_driver.js``.
JS = (Path(__file__).resolve().parent / "play_driver.js").read_text(encoding="utf-8")

_driver = None


def driver(key: str, nonce: str | None, start: int, T: int, speed: float, button: str, pause_key: str,
           on_stopped: Callable[[], None] | None = None, on_fallback: Callable[[], None] | None = None):
    """Mount the player's driver (see the module docstring); returns the component's result, whose
    ``stopped`` trigger holds ``{"nonce", "round"}`` on the rerun after the browser stopped, and whose
    ``fallback`` trigger holds ``{"nonce", "round", "hooks"}`` when the driver's startup check found a
    hook it needs missing (the page's names for them: ``HOOKS`` in ``play_driver.js``)."""
    global _driver
    import streamlit as st

    if _driver is None:
        _driver = st.components.v2.component("olab_round_driver", js=JS, isolate_styles=False)
    data = {"key": key, "nonce": nonce, "start": int(start), "T": int(T), "speed": float(speed), "fps": FPS,
            "button": button, "pause_key": pause_key}
    return _driver(key=f"{key}_driver", data=data, on_stopped_change=on_stopped or (lambda: None),
                   on_fallback_change=on_fallback or (lambda: None),
                   width="content", height="content")     # nothing to show: no room taken in the player's row
