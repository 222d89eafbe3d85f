"""Projector-ready, in a real browser: presenter mode at 1920 x 1080 and a quiet server log.

Every lesson opened with ``?present=1`` at 1920 x 1080 shows its main chart (the first chart on
the page) starting on the first screen, at least 500 px tall, with tick labels of at least 16 px,
and the player ready (Step or Play enabled on arrival).  A server that serves every lesson while
a visitor leaves presenter mode and chooses a preset on each logs no traceback and no warning,
and the browser reports no JavaScript error.
"""

from __future__ import annotations

import re

import pytest

from scripts.apptools import registered_pages
from scripts.served_app import CHART, wait_ready

LESSONS = [p for p in registered_pages() if p != "home"]
SCREEN = {"width": 1920, "height": 1080}

#: The first chart's box and the smallest tick label font on it (px).
_FIRST_CHART = """() => {
  const c = document.querySelector('%s');
  const r = c.getBoundingClientRect();
  const ticks = [...c.querySelectorAll('g.xtick text, g.ytick text')];
  const sizes = ticks.map(t => parseFloat(getComputedStyle(t).fontSize));
  return {top: r.top, height: r.height, ticks: ticks.length, smallest: Math.min(...sizes)};
}""" % CHART


def _enabled(page, label: str) -> bool:
    button = page.get_by_role("button", name=re.compile(rf"^{label}\b"))
    return button.count() > 0 and button.first.is_enabled()


def test_presenter_toggle_and_its_key_switch_presenter_mode(browser, base_url):
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    try:
        page.goto(f"{base_url}/perceptron")
        wait_ready(page)
        page.get_by_role("button", name=re.compile("Present this lesson")).click()
        page.wait_for_function("() => new URL(location.href).searchParams.get('present') === '1'", timeout=20_000)
        wait_ready(page)
        # the address bar changes during the rerun, before the rerun's presenter style arrives (CI, loaded)
        page.locator(".st-key-controls").first.wait_for(state="hidden", timeout=20_000)
        # on a 1400 px projector the player's buttons still show their labels in full (no ellipsis)
        cut = page.evaluate("""() => [...document.querySelectorAll(
              '[class*="st-key-player"] button [data-testid=stMarkdownContainer]')]
            .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)""")
        assert page.locator('[class*="st-key-player"] button [data-testid=stMarkdownContainer]').count() >= 4
        assert not cut, f"player labels cut at 1400 px: {cut}"
        page.keyboard.press("p")                   # the same key leaves it
        page.wait_for_function("() => !new URL(location.href).searchParams.has('present')", timeout=20_000)
        wait_ready(page)
        page.locator(".st-key-controls").first.wait_for(state="visible", timeout=20_000)
    finally:
        ctx.close()


def test_the_step_key_advances_the_round(browser, base_url):
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    try:
        page.goto(f"{base_url}/perceptron?t=3")
        wait_ready(page)
        page.locator("h1").first.click()
        page.keyboard.press("l")
        page.wait_for_function("() => new URL(location.href).searchParams.get('t') === '4'", timeout=20_000)
        page.keyboard.press("j")
        page.wait_for_function("() => new URL(location.href).searchParams.get('t') === '3'", timeout=20_000)
    finally:
        ctx.close()


def test_a_topic_choice_stays_on_the_projector_and_switches_the_view(browser, base_url):
    """Presenter mode hides the settings, not the choice of topic (/online_svm's parts): clicking
    "Selective sampling" there draws that part."""
    ctx = browser.new_context(viewport=SCREEN)
    page = ctx.new_page()
    try:
        page.goto(f"{base_url}/online_svm?present=1")
        wait_ready(page)
        part = page.locator(".st-key-part")
        assert part.is_visible() and part.bounding_box()["height"] > 20
        assert not page.locator(".st-key-alpha").is_visible()          # a setting stays hidden
        part.get_by_text("Selective sampling", exact=True).click()
        page.wait_for_function("() => new URL(location.href).searchParams.get('part') === 'Selective sampling'",
                               timeout=20_000)
        page.get_by_text("Queried points after round").first.wait_for(timeout=20_000)
    finally:
        ctx.close()


@pytest.mark.parametrize("slug", LESSONS)
def test_every_lesson_presents_its_main_chart_on_the_first_screen_and_logs_nothing(browser, base_url, server_log,
                                                                                   slug):
    """One visit per lesson (page loads are what browser tests spend their time on): a shared link
    at a round in presenter mode at 1920 x 1080, then leaving presenter mode and choosing a lecture
    preset.  On the shared server (so every browser test before this one is in its log too): no
    traceback or warning logged, no JavaScript error, no request to another host."""
    ctx = browser.new_context(viewport=SCREEN)
    page = ctx.new_page()
    elsewhere = []                     # the app runs offline: every request stays on this server
    page.on("request", lambda r: elsewhere.append(r.url)
            if not r.url.startswith((base_url, "data:", "blob:", "about:")) else None)
    js_errors = []
    page.on("pageerror", lambda exc: js_errors.append(str(exc)))
    try:
        page.goto(f"{base_url}/{slug}?t=2&present=1")
        wait_ready(page)
        assert page.locator("h1").count() >= 1, f"/{slug}: no title"
        assert page.locator("[data-testid=stException]").count() == 0, f"/{slug}: an exception is shown"
        box = page.evaluate(_FIRST_CHART)
        assert 0 <= box["top"] < SCREEN["height"], f"/{slug}: the main chart starts at {box['top']:.0f} px"
        assert box["height"] >= 500, f"/{slug}: the main chart is {box['height']:.0f} px tall"
        assert box["ticks"] > 0 and box["smallest"] >= 16, f"/{slug}: tick labels {box['smallest']} px"
        assert _enabled(page, "Step") or _enabled(page, "Play"), f"/{slug}: neither Step nor Play is enabled"
        assert not page.locator("[data-testid=stSidebar]").is_visible()
        # the settings box is hidden, the way back is on the page
        assert page.locator(".st-key-controls").count() == 0 or not page.locator(".st-key-controls").first.is_visible()
        leave = page.get_by_role("button", name=re.compile("Leave presenter mode"))
        assert leave.count() == 1
        leave.click()
        page.wait_for_function("() => !new URL(location.href).searchParams.has('present')", timeout=30_000)
        wait_ready(page)
        assert new_round(page) == "2", f"/{slug}: leaving presenter mode lost the round"
        choose_a_preset(page)
        assert page.locator("[data-testid=stException]").count() == 0, f"/{slug}: an exception is shown"
        assert "Traceback" not in page.content()
    finally:
        ctx.close()
    text = server_log.read_text(errors="replace")
    bad = [line for line in text.splitlines() if re.search(r"Traceback|\bWARNING\b|Warning:|\bERROR\b", line)]
    assert not bad, "the server logged:\n" + "\n".join(bad[:20])
    assert not elsewhere, f"requests to other hosts: {elsewhere[:5]}"
    assert not js_errors, js_errors


def choose_a_preset(page) -> None:
    """Choose the lecture preset third in the list (a preset sets the page's widgets), if the page has
    presets.  A rerun still drawing the settings box can close the list as it opens: then again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    preset = page.get_by_role("combobox", name="Lecture preset")
    if not preset.count():
        return
    for attempt in range(3):
        preset.click()
        try:
            page.get_by_role("option").nth(2).click(timeout=5_000)
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
            page.keyboard.press("Escape")
            wait_ready(page)
    page.wait_for_timeout(300)
    wait_ready(page)


def new_round(page) -> str | None:
    """The round in the page's URL (``t``)."""
    return page.evaluate("() => new URL(location.href).searchParams.get('t')")
