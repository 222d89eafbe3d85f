"""The /wm_vs_hedge page under AppTest: every bound is a trace and holds, controls changed."""

import numpy as np
import pytest

from tests.helpers import assert_under_bound, bound_traces, figures_by_title, run_page, trace, trace_names, ys

PAGE = "pages/wm_vs_hedge.py"


def _ok(at):
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _check(at):
    figs = figures_by_title(at)
    reg = next(f for k, f in figs.items() if k.startswith("Regret"))
    names = trace_names(reg)
    for name in names:
        if name.endswith(": regret"):
            master = name[: -len(": regret")]
            bound = [b for b in bound_traces(reg) if b["name"].startswith(f"bound: {master}:")]
            if bound:
                assert_under_bound(trace(reg, name), bound[0])
    sweep = next(f for k, f in figs.items() if k.startswith("Hedge's regret as a function"))
    b = bound_traces(sweep)[0]
    for tr in sweep["data"]:
        if not tr.get("name", "").startswith("bound"):
            assert_under_bound(tr, b)
    wm = next(f for k, f in figs.items() if k.startswith("WM proof"))
    W = trace(wm, "ln W_t (total weight)")
    assert_under_bound(trace(wm, "bound: ln β^(min_i M_t,i)"), W)
    assert_under_bound(W, trace(wm, "bound: ln n + M_t ln((1+β)/2)"))
    hp = next(f for k, f in figs.items() if k.startswith("Hedge proof"))
    assert_under_bound(trace(hp, "regret to u = e_i*"), bound_traces(hp)[0])
    for k, f in figs.items():
        if k.startswith(("Regret", "Hedge's regret as a function", "WM proof", "Hedge proof")):
            assert bound_traces(f), k
    return figs


def test_default_page_all_bounds_present_and_hold():
    at = run_page(PAGE)
    _ok(at)
    figs = _check(at)
    reg = next(f for k, f in figs.items() if k.startswith("Regret"))
    # all four masters have a bound at the defaults (WA square with eta = 1/2)
    assert {b["name"].split(":")[1].strip() for b in bound_traces(reg)} == {"WM", "RWM (expected)", "WA", "Hedge"}
    assert len(at.latex) >= 4                               # the theorems with numbers


def test_wm_adversary_shows_the_factor_two():
    at = run_page(PAGE)
    at.radio(key="stream").set_value("WM adversary").run()
    at.number_input(key="T").set_value(400).run()
    _ok(at)
    _check(at)
    info = " ".join(i.value for i in at.info)
    assert "WM made 400 mistakes in 400 rounds" in info
    figs = figures_by_title(at)
    cum = next(f for k, f in figs.items() if k.startswith("Cumulative loss"))
    best = ys(trace(cum, "best expert so far"))[-1]
    wm = ys(next(t for t in cum["data"] if t["name"].startswith("WM")))[-1]
    hedge = ys(trace(cum, "Hedge: expected loss"))[-1]
    assert wm >= 1.9 * best and hedge < 1.2 * best


def test_controls_changed_beta_zero_entropic_large_eta():
    at = run_page(PAGE)
    at.slider(key="beta").set_value(0.0).run()
    at.selectbox(key="wa_loss").set_value("entropic").run()
    at.slider(key="wa_eta").set_value(1.5).run()              # above eta_max: no WA bound, said so
    at.select_slider(key="hedge_mult").set_value(10.0).run()
    at.slider(key="rwm_eta").set_value(0.5).run()
    at.number_input(key="n").set_value(30).run()
    at.number_input(key="seed").set_value(7).run()
    at.radio(key="heat").set_value("WM").run()
    at.slider(key="t").set_value(17).run()
    _ok(at)
    figs = _check(at)
    reg = next(f for k, f in figs.items() if k.startswith("Regret"))
    assert not [b for b in bound_traces(reg) if b["name"].startswith("bound: WA:")]
    assert any("no guarantee" in l.value for l in at.latex)
    assert "round 18" in str(next(f for k, f in figs.items() if k.startswith("WM:"))["layout"])


def test_upload_prompt():
    at = run_page(PAGE)
    at.radio(key="stream").set_value("Upload").run()
    _ok(at)
    assert any("Upload a CSV" in i.value for i in at.info)
