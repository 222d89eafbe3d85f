"""Every lecture preset of /perceptron runs, shows its bound, and shows the claim its note makes."""

import numpy as np
import pytest

from tests.helpers import assert_under_bound, bound_traces, by_title, choose_preset, figures, run_page, trace, ys, latex

PAGE = "pages/perceptron.py"
KEY = "preset"
CITES = {"Perceptron at margin γ (Novikoff)": "UCL COMP0078, Online learning",
         "Cycle until it converges": "Cesa-Bianchi, On-line learning",
         "Noisy labels: the non-separable bound": "Cesa-Bianchi, On-line learning",
         "Noisy labels, replayed: it never converges": "Cesa-Bianchi, On-line learning",
         "You are the adversary (type the points)": "UCL COMP0078, Online learning"}


@pytest.fixture(scope="module")
def page():
    return run_page(PAGE)


def choose(at, name):
    at = choose_preset(at, KEY, name, area="main", cite=CITES[name])
    assert not any("seeds/" in i.value for i in at.info)       # cited by course and lecture only
    return at


def mistakes_chart(at):
    return next(f for f in figures(at) if f["layout"]["title"]["text"].startswith("Mistakes")
                and f["layout"]["title"]["text"] != "Mistakes on the same stream")


def under_every_bound(f, name="Perceptron"):
    bs = bound_traces(f)
    assert bs, "no bound drawn"
    for b in bs:
        assert_under_bound(trace(f, name), b)


def test_every_preset_is_offered(page):
    options = page.selectbox(key=KEY).options
    for name in ("Perceptron at margin γ (Novikoff)", "Cycle until it converges",
                 "Noisy labels: the non-separable bound", "Noisy labels, replayed: it never converges",
                 "You are the adversary (type the points)"):
        assert name in options


def test_novikoff_at_margin_gamma(page):
    at = choose(page, "Perceptron at margin γ (Novikoff)")
    assert at.slider(key="gamma").value == pytest.approx(0.1) and at.slider(key="T").value == 200
    assert at.slider(key="t").value == 200                      # the preset shows the whole run
    f = mistakes_chart(at)
    b = ys(trace(f, "bound: (R/γ)²"))
    assert b[0] <= 100 + 1e-6                                   # measured R <= 1, γ >= 0.1
    under_every_bound(f)
    assert any("100" in el.value for el in latex(at))


def test_cycle_until_it_converges(page):
    at = choose(page, "Cycle until it converges")
    assert at.slider(key="epochs").value == 12
    assert at.slider(key="t").value == 1200
    assert any("Converged" in s.value for s in at.success)
    f = mistakes_chart(at)
    under_every_bound(f)
    c = ys(trace(f, "Perceptron"))
    assert c[-1] == c[-100]                                     # the last pass adds no mistake
    assert f["layout"]["yaxis"]["type"] == "log"                # bound ≈ 1111 vs ~30 mistakes: keep steps visible
    starts = sorted(sh["x0"] for sh in f["layout"].get("shapes", []) if sh["x0"] % 100 == 0.5)
    assert starts == [100 * e + 0.5 for e in range(1, 12)]      # a line at the start of passes 2..12


def test_noisy_stream_shows_the_nonseparable_bound(page):
    at = choose(page, "Noisy labels: the non-separable bound")
    assert any("not separable" in w.value and "flipped" in w.value for w in at.warning)
    f = by_title(at, "Mistakes (non-separable stream)")
    under_every_bound(f)
    trace(f, "bound: L_u + R²‖u‖² + R‖u‖√L_u")


def test_noisy_replayed_never_converges(page):
    at = choose(page, "Noisy labels, replayed: it never converges")
    f = by_title(at, "Mistakes (non-separable stream)")
    under_every_bound(f)
    assert any("never converges" in i.value for i in at.info)
    assert not at.success


def test_you_are_the_adversary(page):
    at = choose(page, "You are the adversary (type the points)")
    f = by_title(at, "Mistakes")
    under_every_bound(f)
    assert np.asarray(trace(f, "Perceptron")["x"])[-1] == 6
    assert ys(trace(f, "bound: (R/γ)²"))[0] == pytest.approx(3.726, abs=1e-3)   # the best direction's γ


def test_changing_a_control_leaves_the_preset(page):
    at = choose(page, "Perceptron at margin γ (Novikoff)")
    at.slider(key="gamma").set_value(0.2).run()
    assert not at.exception
    assert not any("Perceptron at margin γ (Novikoff)" in i.value for i in at.info)


def test_presenter_mode_shows_the_preset_note():
    at = run_page(PAGE, query={"present": "1", "T": "200", "gamma": "0.1", "epochs": "1"})
    assert any("Perceptron at margin γ" in i.value for i in at.main.info)
