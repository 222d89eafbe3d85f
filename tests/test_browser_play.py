"""Play in a real browser (olapp.animation): the charts move without the server, Pause gives the
round back to the link, and the end of the run does too."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from scripts.served_app import wait_ready

SCREEN = {"width": 1920, "height": 1080}
STATE = "() => { const p = (window.__olabPlayers || {}).t; return p ? {nonce: p.nonce, advances: p.advances, round: p.round} : null }"


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


def _open(browser, base_url, query: str):
    ctx = browser.new_context(viewport=SCREEN)
    page = ctx.new_page()
    page.goto(f"{base_url}/perceptron?{query}")
    wait_ready(page)
    return ctx, page


def test_play_moves_the_charts_in_the_browser_and_the_end_is_in_the_link(browser, base_url):
    ctx, page = _open(browser, base_url, "present=1&T=200&seed=3")
    try:
        _speed_to(page, 2)                                 # 50 rounds a second: 4 s for the whole run
        page.locator("h1").first.click()
        page.keyboard.press("k")                           # Play (at the end: from round 0)
        page.wait_for_function(f"() => {{ const s = ({STATE})(); return s && s.nonce; }}", timeout=90_000)
        page.wait_for_function(f"() => {{ const s = ({STATE})(); return s && !s.nonce; }}", timeout=120_000)
        wait_ready(page)
        state = page.evaluate(STATE)
        assert state["round"] == 200 and state["advances"] >= 3
        assert _t(page) in (None, 200)                     # the end of the run (the default drops out of the link)
        assert page.get_by_role("button", name="Play").count() >= 1
    finally:
        ctx.close()


def test_pause_gives_the_round_reached_back_to_the_link(browser, base_url):
    ctx, page = _open(browser, base_url, "present=1&T=400&seed=4")
    try:
        _speed_to(page, 1)                                 # 10 rounds a second: 40 s for the whole run
        page.locator("h1").first.click()
        page.keyboard.press("k")
        page.wait_for_function(f"() => {{ const s = ({STATE})(); return s && s.advances >= 2; }}", timeout=90_000)
        page.keyboard.press("k")                           # Pause, in the browser
        page.wait_for_function(f"() => {{ const s = ({STATE})(); return s && !s.nonce; }}", timeout=60_000)
        # Play from the end put t=0 in the link at once; wait for the rerun that brings the paused round
        page.wait_for_function("() => !['0', null].includes(new URL(location.href).searchParams.get('t'))",
                               timeout=60_000)
        wait_ready(page)
        t = _t(page)
        assert t is not None and 0 < t < 400
        assert page.evaluate(STATE)["nonce"] is None
        thumb = page.locator(".st-key-player_t [data-testid=stSlider]").first.locator("input[type=range]")
        assert str(t) in (thumb.get_attribute("aria-valuetext") or thumb.input_value())   # the scrubber shows it too
    finally:
        ctx.close()
