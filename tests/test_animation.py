"""Play in the browser (olapp.animation): the frames every lesson sends when its player plays, and
the round the server takes back when the browser stops."""

from __future__ import annotations

import html
import json
import re

import numpy as np
import pytest

from olapp import animation, registry
from olapp.controls import stop_where_the_browser_stopped
from tests.helpers import _decode, figures, run_page

LESSONS = list(registry.lessons())


def _payload(fig: dict) -> dict | None:
    meta = fig.get("layout", {}).get("meta")
    if not isinstance(meta, dict) or "olab_frames" not in meta:
        return None
    p = json.loads(meta["olab_frames"])
    p["traces"] = [_decode(tr) for tr in p["traces"]]
    return p


def _resolve(p: dict, k: int) -> dict:
    tr = p["traces"][k]
    if "slice" not in tr:
        return tr
    parent = dict(p["traces"][tr["slice"]])
    for path in tr["fields"]:
        if len(path) == 1:
            parent[path[0]] = np.asarray(parent[path[0]], dtype=object)[tr["lo"]:tr["hi"]]
        else:
            inner = dict(parent[path[0]])
            inner[path[1]] = np.asarray(inner[path[1]], dtype=object)[tr["lo"]:tr["hi"]]
            parent[path[0]] = inner
    return parent


def _same(a, b) -> bool:
    """Equal as plotly.js reads them: arrays and lists by value (NaN equal to NaN), dicts key by key."""
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple, np.ndarray)) or isinstance(b, (list, tuple, np.ndarray)):
        A, B = np.asarray(a, dtype=object), np.asarray(b, dtype=object)
        return A.shape == B.shape and all(_same(x, y) for x, y in zip(A.ravel(), B.ravel()))
    if isinstance(a, (int, float, np.number)) and isinstance(b, (int, float, np.number)) and not isinstance(a, bool):
        return (np.isnan(a) and np.isnan(b)) if (np.isnan(a) or np.isnan(b)) else bool(np.isclose(a, b, rtol=1e-12))
    return a == b


def _merged(a, b):
    """The browser's merge of a frame's layout key into the chart's: dicts key by key, else replaced."""
    if isinstance(a, dict) and isinstance(b, dict):
        return {**a, **{k: _merged(a.get(k), v) for k, v in b.items()}}
    return b


@pytest.mark.parametrize("entry", LESSONS, ids=lambda e: e.slug)
def test_play_sends_frames_that_redraw_each_animated_chart(entry):
    at = run_page(entry.path)
    T = at.session_state["t"]                          # a page opens at the end of its run
    at_the_end = figures(at)
    at.button(key="t_playbtn").click().run()
    assert not at.exception
    assert at.session_state["t_play"] and at.session_state["t"] == 0     # Play at the end replays from 0
    served = figures(at)
    assert len(served) == len(at_the_end)
    animated = [(f, _payload(f), end) for f, end in zip(served, at_the_end) if _payload(f) is not None]
    assert animated, f"/{entry.slug}: no chart moves with Play"
    for fig, p, end in animated:
        rounds = p["rounds"]
        assert rounds[0] == 0 and rounds[-1] == T and len(rounds) <= animation.MAX_FRAMES
        assert all(b > a for a, b in zip(rounds, rounds[1:]))
        # frame 0 is the chart as served (round 0): the frames' plain figures agree with plotly's
        first = [_resolve(p, k) for k in p["frames"][0]]
        assert len(first) == len(fig["data"]), entry.slug
        for mine, theirs in zip(first, fig["data"]):
            assert _same(mine, theirs), (entry.slug, theirs.get("name"))
        assert p["layouts"][p["frame_layouts"][0]] == {}
        # the last frame is the chart the server draws at round T (what the browser shows at the end)
        final = [_resolve(p, k) for k in p["frames"][-1]]
        assert len(final) == len(end["data"]) and all(_same(a, b) for a, b in zip(final, end["data"])), entry.slug
        last = _decode(p["layouts"][p["frame_layouts"][-1]])
        assert all(k not in ("template", "meta") for k in last)
        for k, v in last.items():
            assert _same(_merged(fig["layout"].get(k), v), end["layout"].get(k)), (entry.slug, k)
        for k in set(fig["layout"]) | set(end["layout"]):
            if k not in last and k != "meta":
                assert _same(fig["layout"].get(k), end["layout"].get(k)), (entry.slug, k)


def test_without_play_no_chart_carries_frames():
    at = run_page("pages/perceptron.py")
    assert not [f for f in figures(at) if _payload(f) is not None]
    at.button(key="t_playbtn").click().run()
    at.button(key="t_step").click().run()                # a step stops the play: the frames go
    assert not at.session_state["t_play"] and at.session_state["t"] == 1
    assert not [f for f in figures(at) if _payload(f) is not None]


def test_the_server_takes_back_the_round_where_the_browser_stopped():
    ss = {"t": 0, "t_play": True, "t_nonce": "t-3"}
    assert not stop_where_the_browser_stopped(ss, "t", 50, {"nonce": "t-2", "round": 9})   # an older play
    assert not stop_where_the_browser_stopped(ss, "t", 50, {"nonce": "t-3", "round": "x"})
    assert not stop_where_the_browser_stopped(ss, "t", 50, None)
    assert ss == {"t": 0, "t_play": True, "t_nonce": "t-3"}
    assert stop_where_the_browser_stopped(ss, "t", 50, {"nonce": "t-3", "round": 70})
    assert ss["t"] == 50 and not ss["t_play"]


@pytest.mark.parametrize("start,T", [(0, 0), (0, 1), (3, 60), (0, 2000), (1999, 2000), (7, 7)])
def test_frame_rounds_run_from_the_start_to_the_end(start, T):
    r = animation.frame_rounds(start, T)
    assert r[0] == min(start, T) and r[-1] == T and len(r) <= animation.MAX_FRAMES
    assert len(r) == min(T - start + 1, animation.MAX_FRAMES) if T > start else len(r) == 1
    assert np.all(np.diff(r) > 0)


def test_a_run_of_another_traces_points_is_sent_as_a_slice():
    x = np.arange(10.0)
    table = [dict(type="scatter", name="seen", x=x[:k], y=2 * x[:k], customdata=np.c_[x, x][:k]) for k in (3, 10, 6)]
    table.append(dict(type="scatter", name="to come", x=x[4:], y=2 * x[4:]))
    table.append(dict(type="scatter", name="to come", x=x, y=2 * x))
    table.append(dict(type="scatter", name="seen", x=x[:3], y=-x[:3], customdata=np.c_[x, x][:3]))   # not a run
    out = animation._slices(table)
    assert out[1] is table[1] and out[4] is table[4]           # the longest of each kind is sent whole
    assert out[0] == {"slice": 1, "lo": 0, "hi": 3, "fields": [["x"], ["y"], ["customdata"]]}
    assert out[2]["slice"] == 1 and (out[2]["lo"], out[2]["hi"]) == (0, 6)
    assert out[3] == {"slice": 4, "lo": 4, "hi": 10, "fields": [["x"], ["y"]]}
    assert out[5] is table[5]


_BLOCK = re.compile(r'<div data-olab-round="(\d+)"( hidden| class="olab-live")?>\n\n(.*?)\n\n</div>', re.S)


_SPAN = re.compile(r'<span data-olab-round="(\d+)"( hidden| class="olab-live")?>(.*?)</span>', re.S)


def _blocks(body: str) -> list[tuple[int, bool, str]]:
    """A live text's blocks: (round, hidden, markdown), markdown as Streamlit shows it (entities read); the
    first block carries the driver's mark (``olab-live``) instead of ``hidden``.  A text whose frames share
    a start and an end has them once, around ``<span>`` blocks: each block's markdown is then the whole
    text the round shows (start + block + end)."""
    spans = _SPAN.findall(body)
    if not spans:
        return [(int(r), h == " hidden", html.unescape(md)) for r, h, md in _BLOCK.findall(body)]
    head, tail = body[:body.index("<span data-olab-round=")], body[body.rindex("</span>") + len("</span>"):]
    assert "data-olab-round=" not in head + tail and "\n" not in "".join(md for _, _, md in spans)
    return [(int(r), h == " hidden", html.unescape(head + md + tail)) for r, h, md in spans]


def _live(at) -> list[str]:
    return [e.value for e in list(at.markdown) + list(at.caption) if 'data-olab-round="' in str(e.value)]


@pytest.mark.parametrize("entry", LESSONS, ids=lambda e: e.slug)
def test_play_sends_the_texts_of_the_round_with_the_charts(entry):
    """The tally, readouts, status lines and the captions of moving charts come with a block per round
    where they change: the first is the text at the start (shown), the last the text the server draws
    at the end of the run, and only one block is shown at a time."""
    at = run_page(entry.path)
    T = at.session_state["t"]
    assert not _live(at)                                     # not playing: plain text
    end_texts = [str(e.value) for e in list(at.markdown) + list(at.caption)]
    end_metrics = [(m.label, m.value) for m in at.metric]
    at.button(key="t_playbtn").click().run()
    assert not at.exception
    live = _live(at)
    assert live, f"/{entry.slug}: no text moves with Play"
    rounds = set(animation.frame_rounds(0, T).tolist())
    for body in live:
        blocks = _blocks(body)
        assert blocks and body.count("data-olab-round=") == len(blocks)
        assert [h for _, h, _ in blocks] == [False] + [True] * (len(blocks) - 1)     # one shown: the start's
        assert blocks[0][0] == 0 and all(r in rounds for r, _, _ in blocks)
        assert all(b[0] > a[0] for a, b in zip(blocks, blocks[1:]))
        assert all(b[2] != a[2] for a, b in zip(blocks, blocks[1:]))                # a block per change
        last = blocks[-1][2]
        if last.startswith('<div class="olab-metrics">'):                            # a readout's numbers
            mine = [(label, value) for label, value in end_metrics if f'"l">{html.escape(label)}</div>' in last]
            assert mine and all(f'"v">{html.escape(value)}</div>' in last for _, value in mine), entry.slug
        elif last:
            assert last in end_texts, (entry.slug, last[:80])


def test_what_every_frame_of_a_text_shares_at_its_ends_is_written_once():
    texts = [f"Contours of $L(\\mathbf w)=\\sum_t \\ell_t$ over the **whole** stream; the circle has radius "
             f"$\\sqrt{{\\Phi_{{{t + 1}}}}} = {t / 7:.3f}$, the potential of the proof." for t in (0, 4, 9)]
    body = animation.live_body(list(zip((0, 4, 9), texts)))
    assert body.count("Contours of") == 1 and body.count("the potential of the proof.") == 1
    assert body.count("\\sum_t") == 1                             # the shared formula: rendered once, not per frame
    assert _blocks(body) == [(0, False, texts[0]), (4, True, texts[1]), (9, True, texts[2])]
    # never cut inside a formula, an emphasis or a link: the cut moves back to where they are closed
    bold = [f"After the first rounds of this long shared start: **{k} mistakes** so far, and more to come" for k in (1, 2)]
    head, middles, tail = animation.shared_ends(bold)
    assert head.endswith(": ") and middles == ["**1 mistakes**", "**2 mistakes**"] and tail.startswith(" so far")
    maths = [f"A long enough shared start of this text, then $x_{k} + y$ and a long enough shared end." for k in (1, 2)]
    assert animation.shared_ends(maths)[1] == ["$x_1 + y$", "$x_2 + y$"]
    link = [f"A long enough shared start of this text, [see round {k}](#r) and a long enough shared end." for k in (1, 2)]
    assert animation.shared_ends(link)[1] == ["[see round 1](#r)", "[see round 2](#r)"]
    # too little shared, an empty frame, or a change over lines: a block per frame, as before
    assert animation.shared_ends(["**Round 1:** x", "**Round 2:** y"]) is None
    assert animation.shared_ends(["", "A long enough text of the second round, more than forty characters."]) is None
    lines = [f"A long enough shared start of this text, {k}\n\nand a long enough shared end after it." for k in (1, 2)]
    assert animation.shared_ends(lines) is None and "<div data-olab-round=" in animation.live_body(list(zip((0, 1), lines)))


def test_the_widrow_hoff_plane_caption_writes_its_formulas_once_while_playing():
    at = run_page("pages/widrow_hoff.py")
    at.button(key="t_playbtn").click().run()
    caption = next(body for body in _live(at) if "Shaded contours" in body)
    assert caption.count("Shaded contours") == 1 and caption.count("\\sum_t") == 1
    assert len(_blocks(caption)) > 100                        # (a block per round: the radius changes each round)


def test_a_live_texts_blocks_keep_markdown_and_formulas():
    body = animation.live_body([(0, "x < 1 and $a < b$"), (5, "**five**")])
    assert _blocks(body) == [(0, False, "x < 1 and $a < b$"), (5, True, "**five**")]
    assert "x &lt; 1" in body and "$a < b$" in body          # no tag can open outside a formula


def test_texts_of_the_round_are_given_where_they_change():
    got = animation.texts(_every_tenth, (7,), 0, 35)
    assert got == ((0, "7: 0"), (10, "7: 1"), (20, "7: 2"), (30, "7: 3"))
    assert animation.texts(_every_tenth, (7,), 0, 35) is got          # computed once, shared


def _every_tenth(k: int, t: int) -> str:
    return f"{k}: {t // 10}"


_ROW = re.compile(r'<tr data-olab-span="([\d,-]+)"( style="display:none")?>(.*?)</tr>')


def _rows_at(body: str, r: int) -> list[str]:
    """The table rows a live table shows at round ``r`` (their HTML), in order."""
    out = []
    for spans, _, cells in _ROW.findall(body):
        if any(int(a) <= r < int(b) for a, b in (s.split("-") for s in spans.split(","))):
            out.append(cells)
    return out


@pytest.mark.parametrize("which", ["table_cells", "proof_cells"])
def test_a_live_table_shows_at_each_round_the_rows_of_that_rounds_table(which):
    """/halving's tables while playing (the lecture's, and the proof's, which stops changing at the last
    mistake): at every round, the rows shown are those of the table the server draws at that round
    (cells and their styles), in its order; the start's are the ones not hidden."""
    from olapp.figures import halving as figs
    from olcore.lessons import halving

    cells_at = getattr(figs, which)
    a = halving.analyse(halving.make_stream("perfect", 64, 60, 0.3, 6, 2))      # 60 rounds: the table trims to 25
    assert a.mistake_rounds()[-1] < a.T - 5
    frames = animation.texts(cells_at, (a,), 0, a.T)
    body = animation.live_table(frames)
    assert body.count("<tr data-olab-span") == len({row for _, c in frames for row in c.rows})   # a row is sent once
    for r in range(a.T + 1):
        cells = cells_at(a, r)
        expected = [(f"<th>{html.escape(label)}</th>" if label is not None else "") + "".join(
            f'<td style="{html.escape(css)}">{html.escape(text)}</td>' if css else f"<td>{html.escape(text)}</td>"
            for text, css in row) for label, row in cells.rows]
        assert _rows_at(body, r) == expected, r
    shown = [cells for spans, hidden, cells in _ROW.findall(body) if not hidden]
    assert shown == _rows_at(body, 0)
    assert animation.live_table([(0, figs.TableCells(("a",), ())), (1, figs.TableCells(("b",), ()))]) is None
