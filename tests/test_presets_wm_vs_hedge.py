"""Every lecture preset of /wm_vs_hedge runs, shows its bounds, and shows the claim its note makes."""

import math

import numpy as np
import pytest

from tests.helpers import bound_traces, fig_starting, figures, run_page, trace, ys, latex

PAGE = "pages/wm_vs_hedge.py"
KEY = "preset"
NAMES = ["WM with β = 1/e", "Hedge tuned at η*", "Exercise 3.1: deterministic WM errs twice as often",
         "Randomized WM with η = 1/2", "Randomized WM tuned to T", "Weighted Average, entropic loss, η = 1",
         "Hedge with η ten times too large", "WM is not no-regret; RWM with η = 1/√T is", "Losses in [0, 100]"]
COURSES = ("UCL COMP0078, Online learning", "CMU 16-831, Online learning")


@pytest.fixture(scope="module")
def page():
    return run_page(PAGE)


def choose(at, name):
    at.selectbox(key=KEY).set_value(name).run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    notes = [i.value for i in at.main.info if any(c in i.value for c in COURSES)]
    assert any(name in n for n in notes), notes                                 # names the lecture
    assert len(notes) == 1        # and no other preset
    assert not any("seeds/" in i.value for i in at.main.info)
    reg = fig_starting(at, "Regret")
    for master, label in (("WM", "WM"), ("RWM", "RWM (expected)"), ("Hedge", "Hedge")):   # every bound shown, held
        b = next(t for t in bound_traces(reg) if t["name"].startswith(f"bound: {master}:"))
        assert np.all(ys(trace(reg, f"{label}: regret")) <= ys(b) + 1e-9), master
    if any(f["layout"].get("title", {}).get("text", "").startswith("Hedge's regret as a function")
           for f in figures(at)):                       # "Going further" shows the η sweep when chosen
        sweep = fig_starting(at, "Hedge's regret as a function")
        b = ys(bound_traces(sweep)[0])
        for tr in sweep["data"]:
            if "expected regret" in tr.get("name", ""):
                assert np.all(ys(tr) <= b + 1e-9)
    return at


def formula(at, start, has=""):
    return next(l.value for l in latex(at) if l.value.strip("$\n").startswith(start) and has in l.value)


def test_every_preset_is_offered(page):
    assert page.selectbox(key=KEY).options[1:] == NAMES


def test_wm_with_beta_one_over_e(page):
    page.slider(key="t").set_value(10).run()                  # a scrubbed player is reset by a preset
    page.slider(key="beta").set_value(0.5).run()              # (from a view that is not that preset)
    at = choose(page, NAMES[0])
    assert at.slider(key="t").value == 500
    assert at.slider(key="beta").value == pytest.approx(1 / math.e, abs=1e-3)
    line = formula(at, "M = ", r"\le 2.63")
    assert r"\le 2.63\cdot" in line and r"+ 2.63\cdot\ln 10" in line


def test_hedge_tuned_at_eta_star(page):
    at = choose(page, NAMES[1])
    assert at.number_input(key="T").value == 1000 and at.select_slider(key="hedge_mult").value == 1.0
    sweep = fig_starting(at, "Hedge's regret as a function")
    b = bound_traces(sweep)[0]
    eta_star = math.sqrt(2 * math.log(10) / 1000)
    x, y = np.asarray(b["x"], float), ys(b)
    assert x[np.argmin(y)] == pytest.approx(eta_star, rel=0.15)              # the bound is lowest at η*
    assert y.min() == pytest.approx(math.sqrt(2 * 1000 * math.log(10)), rel=0.01)
    assert any(r"\sqrt{2\cdot 1000\ln 10}" in l.value for l in latex(at))


def test_exercise_3_1(page):
    at = choose(page, NAMES[2])
    assert at.segmented_control(key="stream").value == "WM adversary"
    cum = fig_starting(at, "Cumulative loss")
    best = ys(trace(cum, "best expert so far"))[-1]
    wm = ys(next(t for t in cum["data"] if t["name"].startswith("WM")))[-1]
    assert wm == 400 and best <= 200 and wm >= 1.95 * best                    # twice the best expert
    assert ys(trace(cum, "Hedge: expected loss"))[-1] < 1.2 * best
    assert ys(trace(cum, "RWM: expected mistakes"))[-1] < 1.2 * best
    assert any("Exercise 3.1 on screen" in i.value and "a ratio of 2.00" in i.value for i in at.info)


def test_randomized_wm_half(page):
    at = choose(page, NAMES[3])
    assert at.slider(key="rwm_eta").value == 0.5
    assert r"(1+0.5)\cdot" in formula(at, r"\mathbb E[M]")


def test_randomized_wm_tuned(page):
    at = choose(page, NAMES[4])
    assert at.toggle(key="rwm_tuned").value and at.number_input(key="T").value == 2000
    eta = math.sqrt(math.log(10) / 2000)
    assert rf"(1+{eta:.3g})\cdot" in formula(at, r"\mathbb E[M]")
    reg = fig_starting(at, "Regret")
    b = next(t for t in bound_traces(reg) if t["name"].startswith("bound: RWM:"))
    assert ys(b)[-1] <= 2 * math.sqrt(2000 * math.log(10))


def test_weighted_average_entropic(page):
    at = choose(page, NAMES[5])
    assert at.selectbox(key="wa_loss").value == "entropic" and at.slider(key="wa_eta").value == 1.0
    line = formula(at, "L_{WA}")
    assert r"\frac{\ln 10}{1} = 2.303" in line
    reg = fig_starting(at, "Regret")
    wa = next(t for t in bound_traces(reg) if t["name"].startswith("bound: WA:"))
    assert np.all(ys(trace(reg, "WA: regret")) <= ys(wa) + 1e-9)
    assert np.allclose(ys(wa), math.log(10))


def test_hedge_eta_too_large(page):
    at = choose(page, NAMES[6])
    assert at.select_slider(key="hedge_mult").value == 10.0
    assert any(r"\ge \sqrt{2\cdot400\ln2}" in l.value for l in latex(at))


def test_presenter_mode_shows_the_preset_note():
    at = run_page(PAGE, query={"present": "1", "stream": "WM adversary", "T": "400"})
    assert not at.exception
    assert any(NAMES[2] in i.value for i in at.main.info)
