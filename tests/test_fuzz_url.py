"""Fuzz every page's URL parameters: hostile links must never raise, and the page still renders.

For every page registered in app.py, the widget keys are read from a run at the defaults
(every keyed element but charts and containers), then seeded random links are built from
hostile values (huge, negative, NaN, inf, strings, unicode, very long, empty, repeated keys,
unknown keys, the non-widget flags) and each is opened as a fresh session under AppTest.
Streamlit drops what a widget cannot use; the page must neither raise nor lose its title.
"""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from scripts.apptools import LastError, registered_pages

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app.py"
TIMEOUT = 60
EXAMPLES = 6          # random links per page, on top of the structured ones
NOT_PARAMS = {"plotly_chart", "flex_container", "vega_lite_chart", "arrow_data_frame", "dataframe"}

HOSTILE = [
    "0", "-1", "-999999999999", "1e308", "-1e308", "1e309", "99999999999999999999999999",
    "2147483648", "4294967295", "4294967296", "18446744073709551616", "nan", "NaN", "inf", "-inf", "Infinity",
    "0.5", "-0.0", "1e-320", "0x10", "1_000", "١٢٣", "", " ", "true", "None", "null", "[]", "{}",
    "abc", "Ünïcødé ✓", "😀", "\u202e\u0000", "<script>alert(1)</script>", "' OR 1=1 --",
    "%00", "../../etc/passwd", "x" * 5000, "9" * 400,
]
NON_WIDGET = ["present", "embed", "embed_options"]


def open_page(page: str, query: dict[str, object]) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    for k, v in query.items():
        at.query_params[k] = v
    at.switch_page(f"pages/{page}.py")
    at.run()
    return at


def widget_keys(at: AppTest) -> list[str]:
    keys = []
    for el in at:
        key = getattr(el, "key", None)
        if key and el.type not in NOT_PARAMS and not key.startswith("$$") and key not in keys:
            keys.append(key)
    return keys


def links(page: str, keys: list[str]) -> list[dict[str, object]]:
    """Structured links (every key at once with one hostile value each) and seeded random ones."""
    rng = random.Random(f"fuzz-url-{page}")
    out: list[dict[str, object]] = []
    for value in ("nan", "1e309", "-1", "4294967295", "x" * 5000, "Ünïcødé ✓"):
        out.append({k: value for k in keys} | {"unknown_key": value})
    out.append({k: ["1", "2", "nan"] for k in keys})            # every key repeated
    for _ in range(EXAMPLES):
        q: dict[str, object] = {}
        for k in rng.sample(keys, k=min(len(keys), rng.randint(1, 4))) if keys else []:
            q[k] = rng.choice(HOSTILE) if rng.random() < 0.8 else [rng.choice(HOSTILE) for _ in range(3)]
        q[rng.choice(NON_WIDGET)] = rng.choice(HOSTILE)
        q["".join(rng.choice("abcé_-.😀%") for _ in range(rng.randint(1, 12)))] = rng.choice(HOSTILE)
        out.append(q)
    return out


def short(q: dict[str, object]) -> str:
    return repr({k: (v if len(repr(v)) < 60 else repr(v)[:57] + "...") for k, v in q.items()})


@pytest.mark.parametrize("page", registered_pages())
def test_hostile_links_never_raise(page):
    base = open_page(page, {})
    assert not base.exception, [e.message for e in base.exception]
    title = [t.value for t in base.title]
    assert title, f"{page}: no title at the defaults"
    keys = widget_keys(base)
    failures = []
    log = LastError()
    logging.getLogger("streamlit.error_util").addHandler(log)  # propagate=False
    try:
        for q in links(page, keys):
            log.last = ""
            at = open_page(page, q)
            if at.exception:
                err = log.last or at.exception[0].message.splitlines()[0][:200]
                culprits = sorted(k for k in q if open_page(page, {k: q[k]}).exception) if len(q) > 1 else []
                failures.append(f"{short(q)} -> {err}" + (f" (alone, these keys fail: {culprits})" if culprits else ""))
            elif [t.value for t in at.title] != title:
                failures.append(f"{short(q)} -> title {[t.value for t in at.title]!r}, expected {title!r}")
    finally:
        logging.getLogger("streamlit.error_util").removeHandler(log)
    assert not failures, f"{page}: {len(failures)} hostile link(s) broke the page:\n" + "\n".join(failures)
