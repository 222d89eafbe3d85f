"""Every lecture preset of /winnow runs, shows its bound, and shows the claim its note makes."""

import numpy as np
import pytest

from tests.helpers import assert_under_bound, bound_traces, by_title, choose_preset, run_page, trace, ys, latex

PAGE = "pages/winnow.py"
KEY = "preset"


@pytest.fixture(scope="module")
def page():
    return run_page(PAGE)


def choose(at, name):
    return choose_preset(at, KEY, name, area="main", cite="CMU 16-831, Online linear classification")


def mistakes_under_bound(at, formula="2 + 3k(log₂N + 1)"):
    f = by_title(at, "Mistakes")
    assert_under_bound(trace(f, "Winnow"), trace(f, f"bound: {formula}"), strict=True)
    return ys(trace(f, f"bound: {formula}"))[0]


def test_every_preset_is_offered(page):
    options = page.selectbox(key=KEY).options
    for name in ("Winnow with k = 3 of N = 1000", "Ten times more attributes: k = 3 of N = 10⁴",
                 "More relevant attributes: k = 10 of N = 1000", "The proof's potential (k = 3 of N = 100)",
                 "Promotion factor α = 3"):
        assert name in options


def test_k3_of_N1000(page):
    at = choose(page, "Winnow with k = 3 of N = 1000")
    assert at.select_slider(key="N").value == 1000 and at.slider(key="k").value == 3
    assert at.slider(key="t").value == 2500                    # the preset shows the whole run
    b = mistakes_under_bound(at)
    assert b == pytest.approx(2 + 9 * (np.log2(1000) + 1))
    assert any("100.7" in el.value for el in latex(at))
    w = ys(trace(by_title(at, "Mistakes"), "Winnow"))
    assert w[-1] == w[-300]                                   # it has stopped erring by the end


def test_N_ten_thousand(page):
    at = choose(page, "Ten times more attributes: k = 3 of N = 10⁴")
    assert at.select_slider(key="N").value == 10000
    b = mistakes_under_bound(at)
    assert b == pytest.approx(2 + 9 * (np.log2(10000) + 1))
    f = by_title(at, "Mistakes as irrelevant attributes abound")
    assert bound_traces(f)


def test_k10_of_N1000(page):
    at = choose(page, "More relevant attributes: k = 10 of N = 1000")
    b = mistakes_under_bound(at)
    assert b == pytest.approx(2 + 30 * (np.log2(1000) + 1))
    rel = [t for t in by_title(at, "Winnow's weights")["data"] if str(t.get("name", "")).startswith("relevant x")]
    assert len(rel) == 10 and all(np.all(np.diff(ys(t)) >= 0) for t in rel)


def test_potential_preset(page):
    at = choose(page, "The proof's potential (k = 3 of N = 100)")
    mistakes_under_bound(at)
    f = by_title(at, "The proof's potential Φ = Σ w")
    assert np.all(ys(trace(f, "Φ_t = Σ w_i")) > 0)
    assert_under_bound(trace(f, "Φ_t = Σ w_i"), trace(f, "bound: N + N·m⁺ − N·m⁻/2"))


def test_alpha_three(page):
    at = choose(page, "Promotion factor α = 3")
    assert at.select_slider(key="alpha").value == 3.0
    b = mistakes_under_bound(at, "Nα/((α−1)θ) + (α+1)k(log_α θ + 1)")
    assert b == pytest.approx(3 / 2 + 4 * 3 * (np.log(100) / np.log(3) + 1))
    f = by_title(at, "The proof's potential Φ = Σ w")
    phi, up = ys(trace(f, "Φ_t = Σ w_i")), ys(trace(f, "bound: N + (α−1)θ·m⁺ − (1−1/α)θ·m⁻"))
    assert np.all(phi > 0) and np.all(phi <= up + 1e-9)


def test_presets_set_the_stream_source(page):
    at = choose(page, "Winnow with k = 3 of N = 1000")
    assert at.get("button_group")[0].value == "Generated"


def test_presenter_mode_shows_the_preset_note():
    at = run_page(PAGE, query={"present": "1", "N": "1000", "k": "3", "T": "2500"})
    assert any("Winnow with k = 3 of N = 1000" in i.value for i in at.main.info)
