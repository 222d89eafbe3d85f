"""Shared test helpers: run pages under AppTest, decode plotly charts."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from scripts.served_app import chromium_path, launch, serve

APP = str(Path(__file__).resolve().parent.parent / "app.py")


def _serve_pages_through_app_py() -> None:
    """Make AppTest run every page through app.py's st.navigation, as the served app does.

    AppTest resets ``PagesManager.uses_pages_directory`` before every run, and with a
    ``pages/`` folder beside app.py Streamlit then runs a switched-to page file *directly*
    (its pre-st.navigation mode), skipping app.py: its URL sanitising, notes and presenter
    mode would go untested.  The served app leaves that mode after its first request
    (see olapp/__init__.py); here it is left on every run.
    """
    from streamlit.runtime.pages_manager import PagesManager

    original = PagesManager.__init__
    if getattr(original, "_olab_patched", False):
        return

    def __init__(self, *args, **kwargs):
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    __init__._olab_patched = True
    PagesManager.__init__ = __init__


_serve_pages_through_app_py()
TIMEOUT = 60  # the first run imports plotly and pandas; CI machines are slow


def app_test(timeout: float = TIMEOUT) -> AppTest:
    """An AppTest of app.py (not yet run)."""
    return AppTest.from_file(APP, default_timeout=timeout)


def run_page(page: str | None = None, query: dict | None = None, timeout: float = TIMEOUT) -> AppTest:
    """Run app.py, switch to ``page`` (e.g. "pages/perceptron.py") and return the AppTest.

    Fails the test if the run raised an exception.
    """
    at = app_test(timeout)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    if page is not None:
        at.switch_page(page)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def _decode(obj):
    """Plotly 6 stores numpy arrays as {"dtype", "bdata"} (base64); turn them back into arrays."""
    if isinstance(obj, dict):
        if set(obj) >= {"dtype", "bdata"}:
            arr = np.frombuffer(base64.b64decode(obj["bdata"]), dtype=np.dtype(obj["dtype"]))
            if "shape" in obj:
                shape = obj["shape"]
                shape = [int(s) for s in shape.split(",")] if isinstance(shape, str) else shape
                arr = arr.reshape(shape)
            return arr
        return {k: _decode(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_decode(v) for v in obj]
    return obj


def figures(at: AppTest) -> list[dict]:
    """Every plotly chart on the page as a decoded figure dict ({"data": [...], "layout": {...}})."""
    out = []
    for el in at.get("plotly_chart"):
        out.append(_decode(json.loads(el.proto.spec)))
    return out


def trace_names(fig: dict) -> list[str]:
    return [t.get("name", "") for t in fig.get("data", [])]


def trace(fig: dict, name: str) -> dict:
    """The trace called ``name`` (exact), or fail."""
    for t in fig["data"]:
        if t.get("name") == name:
            return t
    pytest.fail(f"no trace named {name!r}; traces: {trace_names(fig)}")


def by_title(at: AppTest, title: str) -> dict:
    """The page's figure whose title is exactly ``title``, or fail."""
    for f in figures(at):
        if f["layout"].get("title", {}).get("text") == title:
            return f
    pytest.fail(f"no figure titled {title!r}")


def ys(tr: dict) -> np.ndarray:
    """A decoded trace's y values as floats."""
    return np.asarray(tr["y"], dtype=float)


def choose_preset(at: AppTest, key: str, name: str, *, area: str = "main", cite: str = "seeds/") -> AppTest:
    """Choose lecture preset ``name`` (selectbox ``key``); fail on any exception or error, or if
    no info note in ``area`` ("main" or "sidebar") names the preset and cites ``cite``."""
    at.selectbox(key=key).set_value(name).run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    notes = [i.value for i in (at.sidebar.info if area == "sidebar" else at.main.info)]
    assert any(name in n and cite in n for n in notes), notes  # the note names the lecture
    return at


def bound_traces(fig: dict) -> list[dict]:
    return [t for t in fig.get("data", []) if str(t.get("name", "")).startswith("bound: ")]


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
def base_url():
    with serve() as url:
        yield url
