"""Browser tests: the served app in headless Debian Chromium, driven by Playwright.

Skipped on a developer machine without Chromium; with CI set, a missing browser fails.
"""

from __future__ import annotations

import os

import pytest

from scripts.served_app import chromium_path, launch, serve, wait_ready

pytestmark = pytest.mark.browser

PAGES = ["/", "/halving", "/wm_vs_hedge", "/perceptron", "/winnow", "/widrow_hoff"]


@pytest.fixture(scope="module")
def browser():
    if chromium_path() is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set but Chromium is missing: install Debian's 'chromium' (see .ci/run)")
        pytest.skip("Chromium not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("CI is set but playwright is not installed (requirements-test.txt)")
        pytest.skip("playwright not installed")
    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


@pytest.fixture(scope="module")
def base_url():
    with serve() as url:
        yield url


@pytest.mark.parametrize("path", PAGES)
def test_page_loads_without_errors(browser, base_url, path):
    ctx = browser.new_context(viewport={"width": 1300, "height": 900})
    page = ctx.new_page()
    js_errors = []
    page.on("pageerror", lambda exc: js_errors.append(str(exc)))
    page.goto(base_url + path)
    wait_ready(page, charts=False)
    assert page.locator("h1").count() >= 1, "no title on " + path
    assert page.locator("[data-testid=stException]").count() == 0
    assert "Traceback" not in page.content()
    assert not js_errors, js_errors
    ctx.close()


def test_home_page_links_navigate(browser, base_url):
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(base_url + "/")
    wait_ready(page, charts=False)
    links = page.locator("[data-testid=stPageLink-NavLink]")
    assert links.count() >= 5
    ctx.close()
