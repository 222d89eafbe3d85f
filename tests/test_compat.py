"""olapp.compat: every private Streamlit and plotly name behind a check, with a public fallback.

With the locked versions every hook is on (the performance figures assume it); with every hook off, as
a Streamlit whose internals moved would leave them, every page still runs, its controls change, its
player steps and plays (the server stepping the rounds), old links open their view and hostile
values get their note.
"""

from __future__ import annotations

import json
import logging

import pytest

from olapp import compat, registry
from tests.helpers import figures, run_page

PAGES = [entry.path for entry in registry.lessons()]


def test_every_hook_is_on_with_the_locked_versions():
    off = {name: why for name, why in compat.status().items() if why is not None}
    assert not off, (f"hooks off on the installed versions: {off}; check olapp/compat.py against them "
                     "(docs/ARCHITECTURE.md: upgrading Streamlit or plotly)")


def test_the_environment_switches_hooks_off_and_each_is_logged_once(monkeypatch, caplog):
    monkeypatch.setenv(compat.OFF_ENV, "chart_element, script_folder")
    with compat.switched_off(set()), caplog.at_level(logging.WARNING, logger="olab"):
        assert not compat.active("chart_element") and not compat.active("script_folder")
        assert compat.active("plotly_dict")
        compat.active("chart_element")
        lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2 and all(f"({compat.OFF_ENV})" in line for line in lines), lines
    assert "charts go through st.plotly_chart" in lines[0]
    monkeypatch.setenv(compat.OFF_ENV, "all")
    with compat.switched_off(set()):
        assert not any(compat.active(name) for name in compat.HOOKS)
    assert compat.active("chart_element")               # the states found before are back


def test_a_check_that_raises_leaves_its_hook_off(monkeypatch):
    def broken():
        raise ImportError("No module named 'streamlit.elements.lib.utils'")

    monkeypatch.setitem(compat.HOOKS, "chart_element", compat.Hook("chart_element", "", "", broken))
    with compat.switched_off(set()):
        assert not compat.active("chart_element")
        assert "ImportError" in compat.status()["chart_element"]


def test_the_startup_line_names_the_versions_and_the_hooks_and_warns_off_the_lock(tmp_path):
    found = compat.versions()
    lines = compat.startup_lines()
    assert len(lines) == 1, lines                        # the installed versions are the lock's
    for name, version in found.items():
        assert f"{name} {version}" in lines[0]
    for name in compat.HOOKS:
        assert f"{name} on" in lines[0]
    lock = tmp_path / "requirements.txt"
    lock.write_text(f"streamlit==0.1.0\nplotly=={found['plotly']}\n")
    lines = compat.startup_lines(lock)
    assert len(lines) == 2 and lines[1].startswith("olab: warning: streamlit") and "0.1.0" in lines[1], lines


@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs_with_every_hook_off(page):
    with compat.switched_off():
        at = run_page(page)
        assert at.title and at.get("plotly_chart"), page
        seed = at.number_input(key="seed") if "seed" in at.session_state else None
        if seed is not None:
            seed.set_value(seed.value + 1).run()
            assert not at.exception, [e.message for e in at.exception]
        at.button(key="t_reset").click().run()
        at.button(key="t_step").click().run()
        assert not at.exception, [e.message for e in at.exception]
        assert at.session_state["t"] == 1
        at.button(key="t_playbtn").click().run()       # Play: the server steps it (no frames are sent)
        assert not at.exception, [e.message for e in at.exception]
        assert at.session_state["t_play"] is True
        for fig in figures(at):
            assert "olab_frames" not in (fig["layout"].get("meta") or {}), page
        at.button(key="t_playbtn").click().run()       # Pause, where the server is
        assert at.session_state["t_play"] is False and at.session_state["t"] == 1


def test_an_old_link_opens_its_view_with_every_hook_off():
    entry = registry.lesson("wm_vs_hedge")
    with compat.switched_off():
        at = run_page(entry.path, query={"stream": "Noisy experts", "T": "1000.0"})
    assert not at.exception and not at.error
    assert at.session_state["stream"] == "Generated" and at.session_state["T"] == 1000
    assert "T" in at.query_params


def test_a_hostile_value_gets_its_note_with_every_hook_off():
    with compat.switched_off():
        at = run_page("pages/perceptron.py", query={"seed": "1e5000"})
    assert at.number_input(key="seed").value == 0
    notes = [w.value for w in at.warning if "This link had settings" in w.value]
    assert notes and "seed" in notes[0], [w.value for w in at.warning]


def test_a_chart_sent_with_the_hook_off_is_streamlits_own_element():
    with compat.switched_off({"chart_element"}):
        at = run_page("pages/perceptron.py")
    specs = [json.loads(el.proto.spec) for el in at.get("plotly_chart")]
    assert specs and all("data" in s and "layout" in s for s in specs)


def test_no_module_but_compat_uses_a_private_streamlit_or_plotly_name():
    """Every private name lives in olapp/compat.py (and the Play driver's table in play_driver.js)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    private = re.compile(r"from streamlit\.(?!testing)|import streamlit\.|\bst\._[a-z]|_plotly_utils|_pb2\b"
                         r"|\bfig\._(data|layout|frame_objs)\b")
    found = [f"{p.relative_to(root)}:{i}: {line.strip()}"
             for p in [root / "app.py", *sorted((root / "olapp").rglob("*.py")), *sorted((root / "pages").glob("*.py"))]
             if p.name != "compat.py"
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if private.search(line) and not line.lstrip().startswith("#")]
    assert found == [], found
