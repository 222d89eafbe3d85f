"""Browser tests: the served app in headless Debian Chromium, driven by Playwright.

Skipped on a developer machine without Chromium; with CI set, a missing browser fails.
"""

from __future__ import annotations

import pytest

from scripts.served_app import wait_ready

pytestmark = pytest.mark.browser

# Every lesson page's load (no exception, no JavaScript error) is checked in
# tests/test_browser_present.py, on the same visit as its presenter layout and its log.


def test_home_page_loads_without_errors_and_its_links_navigate(browser, base_url):
    ctx = browser.new_context(viewport={"width": 1300, "height": 900})
    page = ctx.new_page()
    js_errors = []
    page.on("pageerror", lambda exc: js_errors.append(str(exc)))
    page.goto(base_url + "/")
    wait_ready(page, charts=False)
    from olapp import registry

    assert page.locator("h1").count() >= 1, "no title on the home page"
    links = page.locator("[data-testid=stPageLink-NavLink]")
    n = len(registry.lessons())
    links.nth(n - 1).wait_for(timeout=60_000)     # the cards are drawn after the title: wait for the last
    assert links.count() >= n
    assert page.locator("[data-testid=stException]").count() == 0
    assert "Traceback" not in page.content()
    assert not js_errors, js_errors
    ctx.close()


def test_first_request_after_a_restart_goes_through_app_py(browser):
    """A shared link opened on a freshly started server gets the real app, not the bare page file."""
    from scripts.served_app import serve

    with serve() as fresh_url:
        ctx = browser.new_context()
        page = ctx.new_page()
        page.goto(fresh_url + "/perceptron")
        wait_ready(page, charts=False)
        nav = page.locator("[data-testid=stSidebarNav]").inner_text()
        assert "Linear classification" in nav, nav  # app.py's sections, not the pages/ file list
        assert page.locator("h1").first.inner_text().startswith("Perceptron")
        ctx.close()
