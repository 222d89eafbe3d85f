"""Play in a real browser (olapp.animation): the charts move without the server, Pause gives the
round back to the link, and the end of the run does too."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import numpy as np
import pytest

from scripts.served_app import wait_ready

SCREEN = {"width": 1920, "height": 1080}
STATE = "() => { const p = (window.__olabPlayers || {}).t; return p ? {nonce: p.nonce, advances: p.advances, round: p.round} : null }"


#: The page's elements off and on the screen: their content-visibility and contain-intrinsic-size as
#: set on the element (empty when not set).
CULLED = """() => {
  const out = {off: [], on: []};
  for (const el of document.querySelectorAll("[data-testid=stElementContainer]")) {
    const b = el.getBoundingClientRect();
    if (b.height === 0) continue;
    out[(b.bottom < 0 || b.top > window.innerHeight) ? "off" : "on"].push([el.style.contentVisibility, el.style.containIntrinsicSize]);
  }
  return out;
}"""


#: In one instant: the player's round; for each text of the round, the round of its block shown and
#: that of its last block at or before the player's round; the scrubber's value and thumb position.
VIEWS = """() => {
  const round = window.__olabPlayers.t.round, groups = new Map();
  for (const el of document.querySelectorAll("[data-olab-round]")) {
    if (!groups.has(el.parentElement)) groups.set(el.parentElement, []);
    groups.get(el.parentElement).push(el);
  }
  const texts = Array.from(groups.values()).map((els) => {
    const shown = els.filter((el) => !el.hidden), upto = els.filter((el) => +el.dataset.olabRound <= round);
    return [shown.length === 1 ? +shown[0].dataset.olabRound : -shown.length, +upto[upto.length - 1].dataset.olabRound];
  });
  const slider = document.querySelector(".st-key-t [data-testid=stSlider]");
  return {round: round, texts: texts, label: +slider.querySelector("[data-testid=stSliderThumbValue]").textContent,
          left: slider.querySelector("input[type=range]").closest("[data-rac][style]").style.left};
}"""


def _t(page) -> int | None:
    got = parse_qs(urlparse(page.url).query).get("t")
    return int(got[0]) if got else None


def _speed_to(page, presses: int) -> None:
    """The player's speed slider (the last slider in the player row), moved right ``presses`` steps."""
    thumb = page.locator(".st-key-player_t [data-testid=stSlider]").last.locator("input[type=range]")
    thumb.focus()
    for _ in range(presses):
        page.keyboard.press("ArrowRight")
    wait_ready(page)


def _until(page, condition: str, timeout: float = 90_000) -> None:
    """Wait until ``condition`` (JavaScript, of the player's state ``s``) holds."""
    page.wait_for_function(f"() => {{ const s = ({STATE})(); return s && {condition}; }}", timeout=timeout)


def _play(page, presses: int, until: str) -> None:
    """Play at the speed ``presses`` steps right of the slowest, and wait until ``until`` holds."""
    _speed_to(page, presses)
    page.locator("h1").first.click()
    page.keyboard.press("k")
    _until(page, until)


def _open(browser, base_url, query: str, path: str = "/perceptron"):
    ctx = browser.new_context(viewport=SCREEN)
    page = ctx.new_page()
    page.goto(f"{base_url}{path}?{query}")
    wait_ready(page)
    return ctx, page


def test_play_moves_the_charts_in_the_browser_and_the_end_is_in_the_link(browser, base_url):
    ctx, page = _open(browser, base_url, "present=1&T=200&seed=3")
    try:
        _play(page, 2, "s.nonce")                          # 50 rounds a second: 4 s (at the end: from round 0)
        _until(page, "!s.nonce", timeout=120_000)
        state = page.evaluate(STATE)
        assert state["round"] == 200 and state["advances"] >= 3
        # the round reached goes back to the server a moment after the end (once the app is idle): the
        # link then holds the end of the run (the default drops out of the link)
        page.wait_for_function("() => ['200', null].includes(new URL(location.href).searchParams.get('t'))",
                               timeout=60_000)
        wait_ready(page)
        assert _t(page) in (None, 200)
        assert page.get_by_role("button", name="Play").count() >= 1
    finally:
        ctx.close()


def test_pause_gives_the_round_reached_back_to_the_link(browser, base_url):
    ctx, page = _open(browser, base_url, "present=1&T=400&seed=4")
    try:
        _play(page, 1, "s.advances >= 2")                  # 10 rounds a second: 40 s for the whole run
        # while it plays, the page's elements off the screen are not rendered, at the size they had (an
        # element Streamlit mounts afresh is caught within half a second)
        culled = f"() => {{ const c = ({CULLED})(); return c.off.length && c.off.every(([cv, size]) => cv === 'auto' && size); }}"
        page.wait_for_function(culled, timeout=5_000)
        assert not any(cv for cv, _ in page.evaluate(CULLED)["on"])
        # the texts of the round (the tally, the captions) and the scrubber follow the charts' round
        _until(page, "s.round >= 20", timeout=30_000)
        views = page.evaluate(VIEWS)
        assert len(views["texts"]) >= 3 and views["round"] >= 20, views        # the tally and two captions
        assert all(shown == expected for shown, expected in views["texts"]), views
        assert views["label"] == views["round"] and views["left"] == f"{100 * views['round'] / 400:g}%", views
        page.keyboard.press("k")                           # Pause, in the browser
        _until(page, "!s.nonce", timeout=60_000)
        paused = page.evaluate(CULLED)
        assert not any(cv or size for cv, size in paused["off"] + paused["on"]), paused
        # Play from the end put t=0 in the link at once; wait for the rerun that brings the paused round
        page.wait_for_function("() => !['0', null].includes(new URL(location.href).searchParams.get('t'))",
                               timeout=60_000)
        wait_ready(page)
        t = _t(page)
        assert t is not None and 0 < t < 400
        assert page.evaluate(STATE)["nonce"] is None
        thumb = page.locator(".st-key-player_t [data-testid=stSlider]").first.locator("input[type=range]")
        assert str(t) in (thumb.get_attribute("aria-valuetext") or thumb.input_value())   # the scrubber shows it too
        tally = page.get_by_text(re.compile(r"^After \d+ of 400 rounds")).first.inner_text()
        assert tally.startswith(f"After {t} of 400 rounds"), tally          # and the server's tally
    finally:
        ctx.close()


#: What a chart shows: each trace's points (position and style), lines and fills, the annotations
#: and shapes, the title and the legend, read from its SVG.
_SNAPSHOT = """(gd) => {
  const all = (sel) => Array.from(gd.querySelectorAll(sel));
  const at = gd.getBoundingClientRect();             // where it is on screen, in the chart: x y w h
  const box = (q) => { const r = q.getBoundingClientRect();
    return [r.x - at.x, r.y - at.y, r.width, r.height].map((v) => v.toFixed(1)).join(' '); };
  const trace = (tr) => [Array.from(tr.querySelectorAll('path.point')).map((q) =>
      [q.getAttribute('transform'), q.getAttribute('d'), q.style.opacity, q.style.fill].join(' ')).join(';'),
    Array.from(tr.querySelectorAll('path.js-line, path.js-fill')).map((q) => q.getAttribute('d')).join(';')];
  return {traces: all('.scatterlayer .trace').map(trace).filter(([p, l]) => p || l),   // drawn ones
          bars: all('.barlayer .trace').map((tr) => [Array.from(tr.querySelectorAll('.point path'))
            .map((q) => q.style.fill).join(';'), Array.from(tr.querySelectorAll('.point path')).map((q) => q.getAttribute('d')).join(';')]),
          annotations: all('.annotation').map((a) => a.textContent + ' | ' + box(a)),
          arrows: all('.annotation-arrow-g path').map((q) => q.getAttribute('d')),
          shapes: all('.shapelayer path').map(box),
          title: all('.gtitle').map((t) => t.textContent),
          legend: all('.legend .traces').map((t) => t.textContent),
          points: gd._fullData.map((t) => Array.from(t.x || []).filter((v) => v !== null).length)};
}"""


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")


def _same_path(a: str, b: str, px: float = 1.0) -> bool:
    """SVG path data alike: the same commands, every coordinate within ``px`` pixels (a chart that
    plotly.js redrew whole may keep a margin a fraction of a pixel off a fresh one's)."""
    if _NUMBER.sub("#", a) != _NUMBER.sub("#", b):
        return False
    na, nb = (np.array(_NUMBER.findall(x), float) for x in (a, b))
    return bool(np.all(np.abs(na - nb) <= px))


@pytest.mark.parametrize("path, query", [("/perceptron", "present=1&T=60&noise=0.1&seed=5&t=0"),
                                         ("/wm_vs_hedge", "present=1&T=60&seed=5&t=0")])   # bars, a heat map
def test_each_frame_drawn_by_its_changes_equals_the_chart_drawn_afresh(browser, base_url, path, query):
    # the driver moves a chart by redrawing only what changed (Plotly.animate / relayout); after
    # every frame of a play the chart must show what a full redraw of the last frame shows
    ctx, page = _open(browser, base_url, query, path)
    try:
        page.locator("h1").first.click()
        page.keyboard.press("k")
        page.wait_for_function("() => { const p = (window.__olabPlayers || {}).t; return p && p.started; }",
                               timeout=90_000)
        page.evaluate("() => window.__olabPlayers.t.stop(false)")       # the test moves the frames itself
        wait_ready(page)          # no rerun in flight: a late one would redraw a chart under the frames
        got = page.evaluate("""async (snap) => {
          snap = eval(snap);
          const p = window.__olabPlayers.t, out = [];
          for (const [gd, c] of p.charts) {
            const n = c.f.frames.length, full0 = p.full;
            for (let i = 1; i < n; i++) await p.show(gd, i);
            await new Promise((r) => setTimeout(r, 300));
            const fresh = document.createElement('div');
            // at the size the moved chart was drawn at
            fresh.style.width = gd._fullLayout.width + 'px'; fresh.style.height = gd._fullLayout.height + 'px';
            document.body.appendChild(fresh);
            const layout = Object.assign({}, c.layout, c.f.layouts[c.f.frame_layouts[n - 1]]);
            await window.Plotly.newPlot(fresh, c.f.frames[n - 1].map((k) => c.f.traces[k]), gd.layout);
            // the hover of each trace's last point (its customdata: the round) reads the same on both
            const hover = (g) => g._fullData.map((tr, i) => {
              const k = Array.from(tr.x || []).length - 1;
              if (k < 0 || tr.hoverinfo === 'skip' || tr.x[k] === null || !['scatter', 'bar'].includes(tr.type)) return '';
              window.Plotly.Fx.hover(g, [{curveNumber: i, pointNumber: k}]);
              const label = g.querySelector('.hoverlayer .hovertext');
              return label ? label.textContent : '?';
            });
            out.push({title: gd.layout.title && gd.layout.title.text, frames: n, moved: snap(gd), fresh: snap(fresh),
                      full: p.full - full0, hovers: [hover(gd), hover(fresh)]});
            fresh.remove();
          }
          return out;
        }""", _SNAPSHOT)
        assert len(got) >= 2                                   # the data space and the mistakes at least
        if path == "/wm_vs_hedge":                             # the bars move by their changes too
            bars = next(c for c in got if "Weights" in c["title"])
            assert bars["fresh"]["bars"] and bars["full"] == 0 and bars["moved"]["title"] == ["Weights after round 60"]
        for chart in got:
            assert chart["frames"] > 50, chart["title"]
            for key in chart["fresh"]:
                if key in ("arrows", "annotations", "shapes"):   # moved ones may land a pixel off fresh ones
                    assert len(chart["moved"][key]) == len(chart["fresh"][key]), chart["title"]
                    for a, b in zip(chart["moved"][key], chart["fresh"][key]):
                        (ta, a), (tb, b) = (x.rsplit(" | ", 1) if " | " in x else ("", x) for x in (a, b))
                        assert ta == tb, (chart["title"], ta, tb)                  # a label's text: exactly
                        na, nb = (np.array(re.findall(r"-?[\d.]+", x), float) for x in (a, b))
                        assert na.shape == nb.shape and np.all(np.abs(na - nb) <= 1.0), (chart["title"], a, b)
                elif key in ("traces", "bars"):     # [points or colours: exactly, lines or bars: to a pixel]
                    assert len(chart["moved"][key]) == len(chart["fresh"][key]), (chart["title"], key)
                    for (pa, la), (pb, lb) in zip(chart["moved"][key], chart["fresh"][key]):
                        assert pa == pb, (chart["title"], key)
                        assert _same_path(la, lb), (chart["title"], key, la[:300], lb[:300])
                else:
                    assert chart["moved"][key] == chart["fresh"][key], (chart["title"], key)
            assert chart["hovers"][0] == chart["hovers"][1], chart["title"]
        if path != "/perceptron":
            return
        data_space = next(c for c in got if "Data space" in c["title"])
        rounds = [re.search(r"round (\d+)", h) for h in data_space["hovers"][0]]
        assert sum(m is not None for m in rounds) >= 3, data_space["hovers"][0]        # each point's round
        assert sum(data_space["fresh"]["points"]) >= 200 + 2 * 60   # the ball, and every point faded and seen
        assert data_space["full"] <= 3                        # its frames went by their changes
    finally:
        ctx.close()


#: In one instant: the player's round, and the index labels of the live table's rows shown.
TABLE = """() => {
  const round = window.__olabPlayers.t.round, table = document.querySelector("[data-olab-span]").closest("table");
  return {round: round, labels: Array.from(table.querySelectorAll("tbody tr")).filter((tr) => tr.style.display !== "none")
                                  .map((tr) => tr.querySelector("th").textContent)};
}"""


def test_the_lecture_table_moves_with_the_charts(browser, base_url):
    """/halving's lecture table while playing: at the round reached, the rows of the table the server
    draws at that round (the rounds played so far, or after 25 rounds the eventful ones and the last
    three), and the row after it."""
    from olapp.figures.halving import table_cells
    from olcore.lessons import halving

    a = halving.analyse(halving.make_stream("perfect", 16, 40, 0.5, 6, 2))          # the page's defaults, seed 2
    ctx, page = _open(browser, base_url, "present=1&seed=2", path="/halving")
    try:
        _play(page, 1, "s.round >= 6")                     # 10 rounds a second
        got = page.evaluate(TABLE)
        assert got["labels"] == [label for label, _ in table_cells(a, got["round"]).rows], got
    finally:
        ctx.close()


#: For 2.5 s of a play (longer, up to 10 s, until 20 frames), on every frame the browser paints: how many
#: on-screen charts with a grid (heat map or contour) lack its picture, and a row of the first grid (to see
#: the region change).
GRIDS = """() => new Promise((done) => {
  const gridded = () => Array.from(document.querySelectorAll(".js-plotly-plot")).filter((gd) => {
    const b = gd.getBoundingClientRect();
    return gd.isConnected && b.bottom > 0 && b.top < window.innerHeight
      && (gd._fullData || []).some((t) => t.type === "contour" || t.type === "heatmap");
  });
  const out = {frames: 0, charts: 0, missing: 0, z: [], rounds: []};
  const t0 = performance.now();
  const tick = () => {
    const gds = gridded();
    out.frames += 1; out.charts = Math.max(out.charts, gds.length);
    for (const gd of gds) if (!gd.querySelector("image")) out.missing += 1;
    const z = gds.length ? gds[0]._fullData.find((t) => t.type === "contour" || t.type === "heatmap").z : null;
    if (z) out.z.push(JSON.stringify(Array.from(z[Math.floor(z.length / 2)])));
    out.rounds.push(window.__olabPlayers.t.round);
    const spent = performance.now() - t0;         // (a busy machine paints fewer frames: sample longer)
    if (spent < 2500 || (out.frames < 20 && spent < 10000)) requestAnimationFrame(tick); else done(out);
  };
  requestAnimationFrame(tick);
})"""


def test_a_region_moves_with_play_and_never_loses_its_picture(browser, base_url):
    """/kernel_perceptron's decision region plays: its grid changes at the mistakes (a full redraw), and
    between them, while only the points move (plotly.js animates them without a redraw, which drops a
    contour's picture, a plotly.js bug), the picture is on every frame the browser paints."""
    ctx, page = _open(browser, base_url, "present=1&stream=Moons&seed=1", path="/kernel_perceptron")
    try:
        _play(page, 1, "s.advances >= 2")                  # 10 rounds a second
        got = page.evaluate(GRIDS)
        assert got["charts"] >= 1 and got["frames"] >= 10, got
        assert got["missing"] == 0, got
        assert got["rounds"][-1] > got["rounds"][0] and len(set(got["z"])) >= 2, got
    finally:
        ctx.close()


def test_play_falls_back_to_server_steps_when_the_driver_finds_a_hook_missing(browser, base_url):
    """The driver's startup check: plotly.js's functions missing (as a changed Streamlit could leave
    them) hand Play to the server, which says so once and steps the rounds by reruns to the end."""
    ctx = browser.new_context(viewport=SCREEN)
    ctx.add_init_script("window.__olabHooksOff = ['plotly'];")
    page = ctx.new_page()
    try:
        page.goto(f"{base_url}/perceptron?T=40&seed=3")
        wait_ready(page)
        _speed_to(page, 1)                                 # 10 rounds a second
        page.locator("h1").first.click()
        page.keyboard.press("k")                           # at the end of the run: from round 0
        page.get_by_text("Play runs on the server here").first.wait_for(timeout=60_000)
        assert "plotly.js's drawing functions were not found" in page.get_by_text("Play runs on the server here").first.inner_text()
        label = page.locator(".st-key-t [data-testid=stSliderThumbValue]").first
        seen = set()
        for _ in range(600):                               # up to 60 s
            try:
                seen.add(int(label.inner_text(timeout=1_000)))
            except (ValueError, Exception):                # (redrawn between two reads)
                pass
            if 40 in seen and len(seen) >= 3:
                break
            page.wait_for_timeout(100)
        assert 40 in seen and len([r for r in seen if 0 < r < 40]) >= 2, seen     # rounds between, then the end
        assert page.evaluate(STATE)["advances"] == 0       # the browser drew no frame itself
        page.get_by_role("button", name="Play").first.wait_for(timeout=30_000)     # the play is over
    finally:
        ctx.close()
