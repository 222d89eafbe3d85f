"""The app and every page in its navigation run under AppTest without an exception."""

import re
from pathlib import Path

import pytest

from tests.helpers import run_coroutine, run_page
from scripts.apptools import registered_pages

ROOT = Path(__file__).resolve().parent.parent


REQUIRED = {
    "pages/halving.py": "halving",
    "pages/wm_vs_hedge.py": "wm_vs_hedge",
    "pages/perceptron.py": "perceptron",
    "pages/winnow.py": "winnow",
    "pages/widrow_hoff.py": "widrow_hoff",
    "pages/ogd.py": "ogd",
}


def test_navigation_has_the_five_mission_pages_at_their_fixed_paths():
    from olapp import registry

    served = {entry.path: entry.url_path for entry in registry.lessons()}
    for page, path in REQUIRED.items():
        assert served.get(page) == path, f"{page} should be served at /{path}, found {served.get(page)!r}"
        assert (ROOT / page).exists()
    # app.py navigates over the registry, not a list of its own (registry.navigation_pages: its sections' st.Page objects)
    assert "st.navigation(registry.navigation_pages())" in (ROOT / "app.py").read_text()


def test_home_page_runs_and_links_every_mission_page():
    at = run_page()
    assert at.title[0].value == "Online Learning Lab"
    links = [el.proto.page for el in at.get("page_link")]
    for page in REQUIRED:
        assert REQUIRED[page] in links, (page, links)


@pytest.mark.parametrize("page", [f"pages/{n}.py" for n in registered_pages()])
def test_every_registered_page_runs(page):
    at = run_page(page)
    assert at.title, f"{page} shows no title"


LESSONS = list(REQUIRED)
HOSTILE = ["inf", "-inf", "nan", "1e309", "9" * 400, "x" * 500, "-1", "abc", "0x1F", "1e5000", "☃"]


@pytest.mark.parametrize("page", LESSONS)
def test_hostile_seed_in_the_link_falls_back_with_a_visible_note(page):
    for value in HOSTILE:
        at = run_page(page, query={"seed": value})  # run_page fails on any exception
        assert at.title, (page, value)
        assert at.number_input(key="seed").value == 0, (page, value)
        notes = [w.value for w in at.warning if "This link had settings" in w.value]
        assert notes and "seed" in notes[0], (page, value, [w.value for w in at.warning])


@pytest.mark.parametrize("page", LESSONS)
def test_a_valid_seed_in_the_link_is_used_without_a_note(page):
    at = run_page(page, query={"seed": "12"})
    assert at.number_input(key="seed").value == 12
    assert not [w for w in at.warning if "This link had settings" in w.value]


def test_presenter_flag_is_not_reported_as_an_invalid_setting():
    at = run_page("pages/home.py", query={"present": "1"})
    assert not [w for w in at.warning if "This link had settings" in w.value]


def test_dropped_params_reports_only_removed_widget_parameters():
    from olapp.state import dropped_params

    before = {"seed": ["abc"], "eta": ["0.5"], "present": ["1"]}
    after = {"eta": ["0.5"]}
    assert dropped_params(before, after) == {"seed": ["abc"]}


def test_returning_a_widget_to_its_default_is_not_reported_as_a_bad_link():
    at = run_page("pages/perceptron.py", query={"seed": "5"})
    assert not [w for w in at.warning if "This link had settings" in w.value]
    at.number_input(key="seed").set_value(0).run()  # the default: Streamlit drops ?seed from the URL
    assert not at.exception
    assert not [w for w in at.warning if "This link had settings" in w.value]


_TWO_NAVIGATIONS = """
import streamlit as st

from olapp import registry

first, second = registry.navigation_pages(), registry.navigation_pages()
flat = [p for pages in first.values() for p in pages]
again = [p for pages in second.values() for p in pages]
st.session_state["pages"] = [(p.url_path, p.title, p.icon, p._default) for p in flat]
st.session_state["again"] = [(p.url_path, p.title, p.icon, p._default) for p in again]
st.session_state["shared"] = any(a is b for a in flat for b in again)
"""


def test_navigation_pages_are_built_once_and_each_run_gets_its_own_copies(tmp_path):
    from streamlit.testing.v1 import AppTest

    from olapp import registry

    (tmp_path / "pages").symlink_to(ROOT / "pages")        # the page files, beside the script as app.py has them
    (tmp_path / "nav.py").write_text(_TWO_NAVIGATIONS)
    at = AppTest.from_file(str(tmp_path / "nav.py"), default_timeout=60).run()
    assert not at.exception
    pages = at.session_state["pages"]
    assert pages == at.session_state["again"] and not at.session_state["shared"]
    expected = [(e.url_path, e.title) for entries in registry.sections().values() for e in entries]
    assert [(p[0], p[1]) for p in pages] == expected and [p[3] for p in pages].count(True) == 1


def test_streamlit_run_serves_app_py_as_an_st_app_that_warms_the_kernels_when_the_server_starts(monkeypatch):
    """``streamlit run app.py`` finds the ``st.App`` in app.py (its server-start hook): its lifespan
    starts the kernels' warm-up before any visitor, and the pages/ folder is not Streamlit's legacy
    page list for any session; run as a script, app.py draws the app."""
    import importlib.util

    import olcore
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.starlette import App
    from streamlit.web.server.app_discovery import discover_asgi_app

    found = discover_asgi_app(ROOT / "app.py")
    assert found.is_asgi_app and found.import_string == "app:app"

    calls = []
    monkeypatch.setattr(olcore, "warm_in_background", lambda: calls.append("warm"))
    monkeypatch.setattr(PagesManager, "uses_pages_directory", None)
    spec = importlib.util.spec_from_file_location("app", ROOT / "app.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)              # as the server imports it: no page is drawn
    assert isinstance(module.app, App) and PagesManager.uses_pages_directory is False
    assert calls == []

    async def start():
        async with module._warm_at_start(module.app):
            return list(calls)

    assert run_coroutine(start, 60) == ["warm"]


def test_a_server_on_every_interface_prints_the_network_url_and_asks_no_other_host(tmp_path):
    """The README's hall tip (--server.address 0.0.0.0): Streamlit's banner would ask
    checkip.amazonaws.com for a public address ("External URL" when online, a "Did not auto detect
    external IP" warning offline); .streamlit/config.toml sets the banner's address, and app.py prints
    the network address students open."""
    import time

    from scripts.served_app import serve_process

    log = tmp_path / "server.log"
    with serve_process(extra=("--server.address", "0.0.0.0"), log_path=log):
        for _ in range(200):                      # the banner and the lifespan's line come at start
            if "Network URL: http://" in log.read_text(errors="replace"):
                break
            time.sleep(0.05)
    text = log.read_text(errors="replace")
    assert "URL: http://127.0.0.1:" in text and "Network URL: http://" in text
    # and the server says what it runs on: the versions and each hook's state, in one line
    assert re.search(r"olab: Online Learning Lab on streamlit [\d.]+, plotly [\d.]+, numpy [\d.]+, numba [\d.]+", text)
    assert "chart_element on" in text and "play_driver on" in text and "olab: warning" not in text
    assert "External URL" not in text and "Did not auto detect external IP" not in text


def test_the_page_icon_is_the_shipped_png_sent_inline():
    import base64

    from streamlit.commands.page_config import _get_favicon_string

    from olapp import registry

    head, _, data = registry.APP_ICON.partition(",")
    assert head == "data:image/png;base64"
    assert base64.b64decode(data) == (Path(registry.__file__).parent / "assets" / "icon.png").read_bytes()
    assert _get_favicon_string(registry.APP_ICON) == registry.APP_ICON   # sent as it is: no file served, no fetch
