"""Shared test helpers: run pages under AppTest, decode plotly charts, compare curves with bounds.

Imported as ``tests.helpers`` (``tests`` is a package); importing it applies the AppTest
PagesManager patch, so every AppTest run goes through app.py's navigation.
"""

from __future__ import annotations

import asyncio
import base64
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parent.parent / "app.py")


def serve_pages_through_app_py() -> None:
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


serve_pages_through_app_py()
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


class Formula:
    """A displayed formula as the page shows it: ``value`` is ``"$$\n...\n$$"`` (as ``st.latex`` writes it)."""

    def __init__(self, value: str):
        self.value = value


def latex(at: AppTest) -> list[Formula]:
    """Every displayed formula on the page: ``st.latex`` elements and the ``$$ ... $$`` blocks of markdown
    (the theorem box writes a statement and its inequality as one markdown element)."""
    import re

    out = [Formula(el.value) for el in at.latex]
    for el in at.markdown:
        out += [Formula(f"$$\n{m}\n$$") for m in re.findall(r"\$\$\n(.*?)\n\$\$", el.value, re.S)]
    return out


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
    """The page's figure whose title is ``title`` (or ``title`` followed by ": " and what the round
    shows, as "Weight space: ..."), or fail."""
    figs = figures(at)
    for f in figs:
        text = f["layout"].get("title", {}).get("text") or ""
        if text == title or text.startswith(title + ": "):
            return f
    pytest.fail(f"no figure titled {title!r}: {[f['layout'].get('title', {}).get('text') for f in figs]}")


def figures_by_title(at: AppTest) -> dict[str, dict]:
    """Every figure on the page keyed by its title text ("" for an untitled one)."""
    out = {}
    for f in figures(at):
        title = f["layout"].get("title", {})
        out[str(title.get("text", "") if isinstance(title, dict) else title)] = f
    return out


def fig_starting(at: AppTest, prefix: str) -> dict:
    """The page's first figure whose title starts with ``prefix``, or fail."""
    figs = figures(at)
    for f in figs:
        title = f["layout"].get("title", {})
        if str(title.get("text", "") if isinstance(title, dict) else title).startswith(prefix):
            return f
    pytest.fail(f"no figure titled {prefix!r}...: {[f['layout'].get('title', {}).get('text') for f in figs]}")


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


# -- "a curve stays under its bound" ---------------------------------------------------------

def _xy(obj) -> tuple[np.ndarray | None, np.ndarray]:
    """(x or None, y as floats) of a decoded plotly trace, or (None, values) of an array/scalar."""
    if isinstance(obj, dict):
        x = obj.get("x")
        return (None if x is None else np.asarray(x, dtype=float)), np.asarray(obj["y"], dtype=float).ravel()
    return None, np.atleast_1d(np.asarray(obj, dtype=float)).ravel()


def _name(obj, default: str) -> str:
    return str(obj.get("name", default)) if isinstance(obj, dict) else default


def assert_under_bound(curve, bound, *, tol: float = 1e-9, strict: bool = False) -> None:
    """Assert ``curve <= bound + tol`` in every round (``curve < bound`` if ``strict``).

    ``curve`` and ``bound`` are arrays (a scalar bound is constant) or decoded plotly traces
    (dicts with ``y`` and usually ``x``).  A bound trace drawn as a 2-point constant segment
    is compared with every point of the curve; otherwise the two must have the same length
    and, when both carry ``x``, the same x values (both downsampled alike).  A violation
    raises AssertionError naming the first violating round (its x value, or its index) and
    both values.
    """
    cx, c = _xy(curve)
    bx, b = _xy(bound)
    cname, bname = _name(curve, "curve"), _name(bound, "bound")
    if c.size == 0:
        raise AssertionError(f"{cname}: empty curve, nothing to compare with {bname}")
    segment = isinstance(bound, dict) and b.size == 2 and c.size != 2 and b[0] == b[1]
    if b.size == 1 or segment:
        b = np.full(c.shape, b[0])                    # a constant (a scalar or a 2-point segment)
    elif b.size != c.size:
        raise AssertionError(f"{cname} has {c.size} points but {bname} has {b.size}: cannot compare")
    elif cx is not None and bx is not None and not np.array_equal(cx, bx):
        raise AssertionError(f"{cname} and {bname} are drawn at different x values")
    if np.isnan(c).any() or np.isnan(b).any():
        raise AssertionError(f"NaN in {cname if np.isnan(c).any() else bname}")
    bad = ~(c < b) if strict else ~(c <= b + tol)
    if bad.any():
        i = int(np.argmax(bad))
        where = f"x = {cx[i]:g}" if cx is not None and cx.size == c.size else f"index {i}"
        rel = "<" if strict else f"<= (tol {tol:g})"
        raise AssertionError(f"{cname} is not {rel} {bname} at {where} (first of {int(bad.sum())}): "
                             f"{float(c[i])!r} vs bound {float(b[i])!r}")


def run_coroutine(make_coroutine, timeout: float):
    """Run ``make_coroutine()`` to completion (at most ``timeout`` seconds) in a thread of its own:
    Playwright's sync API (the browser fixture) keeps an event loop running in the test's thread,
    where ``asyncio.run`` would refuse to start, whichever test ran before on this worker."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(asyncio.wait_for(make_coroutine(), timeout))).result(timeout + 30)


def plain(markdown: str) -> str:
    """What a reader sees of markdown made inert (:func:`olapp.state.inert`): backslash escapes and word
    joiners removed."""
    import re

    return re.sub(r"\\(.)", r"\1", markdown).replace("\u2060", "")
