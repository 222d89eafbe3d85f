"""pytest fixtures (browser, base_url); the helpers live in tests/helpers.py.

Importing ``tests.helpers`` here applies its AppTest PagesManager patch before any test runs,
whichever test module is collected first.
"""

from __future__ import annotations

import os

import pytest

from scripts.served_app import chromium_path, launch, serve
from tests.helpers import serve_pages_through_app_py

serve_pages_through_app_py()      # idempotent: tests/helpers.py already applied it on import


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    """Before the workers start (in the controlling process only): compile every numba kernel the
    disk cache lacks, once, in two children. Otherwise on a fresh checkout each worker compiles the
    kernels its tests call, and each app server a browser test starts has its own children compile
    them all again (about 40 s of CPU each time)."""
    if hasattr(config, "workerinput"):
        return
    import olcore.jit

    olcore.jit.compile_missing()


# -- browser fixtures: one served app and one Chromium for the whole session ------------

@pytest.fixture(scope="session")
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


@pytest.fixture(scope="session")
def server_log(tmp_path_factory):
    """The shared test server's log file (every browser test's requests end up in it)."""
    return tmp_path_factory.mktemp("server") / "server.log"


@pytest.fixture(scope="session")
def base_url(server_log):
    with serve(log_path=server_log) as url:
        yield url
