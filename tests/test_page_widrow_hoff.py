"""The Widrow-Hoff page under AppTest: it runs from app.py, its controls work, its bounds are
drawn as traces named "bound: ..." and the charts obey them."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import (assert_under_bound, bound_traces, fig_starting, figures, figures_by_title, run_page, trace,
                           trace_names, ys)
from olapp.figures import regression as figs

PAGE = "pages/widrow_hoff.py"


def check_bounds_hold(at):
    cum = fig_starting(at, "Cumulative square loss")
    assert_under_bound(trace(cum, "Widrow-Hoff L_WH(t)"), trace(cum, "bound: " + figs.BOUND_T1))
    sweep = fig_starting(at, "Total loss after T rounds")
    assert_under_bound(trace(sweep, "Widrow-Hoff L_WH(η)"), trace(sweep, "bound: " + figs.BOUND_T1))
    pot = next(f for f in figures(at) if "Φ_t = ‖w_t − u*‖²" in trace_names(f))  # a subplots figure, untitled
    assert_under_bound(trace(pot, "Φ_t = ‖w_t − u*‖²"), trace(pot, "bound: " + figs.BOUND_TELESCOPED))
    assert_under_bound(trace(pot, "Φ_{t+1} − Φ_t"), trace(pot, "bound: " + figs.BOUND_CLAIM))
    o2b = fig_starting(at, "Online-to-batch")
    avg = ys(trace(o2b, "averaged v = (1/m) Σ w_t  (mean risk)"))
    band = ys(trace(o2b, "±2 standard errors"))
    lower = band[avg.size:][::-1]                    # the band's lower edge, drawn backwards
    assert_under_bound(lower, ys(trace(o2b, "bound: " + figs.BOUND_T2)))
    eg = fig_starting(at, "Additive vs multiplicative")
    assert_under_bound(trace(eg, "Widrow-Hoff (additive; x rescaled into the unit ball)"),
                       trace(eg, "bound: " + figs.BOUND_T1 + " (Widrow-Hoff)"))
    for f in (cum, sweep, pot, o2b, eg):                 # every chart above draws its bound as a trace,
        assert bound_traces(f), f["layout"].get("title")
        for bt in bound_traces(f):                       # and every bound drawn is a finite curve
            assert ys(bt).size > 0 and np.isfinite(ys(bt)).all(), bt["name"]


def test_default_page_runs_with_every_chart_and_bound():
    at = run_page(PAGE)
    assert not at.error and not at.warning
    titles = list(figures_by_title(at))
    assert any(t.startswith("Weight plane after 200 round") for t in titles)
    n_bounds = sum(len(bound_traces(f)) for f in figures(at))
    assert n_bounds >= 5
    check_bounds_hold(at)
    # the figures are built without plotly's validation for speed: validate them here
    import plotly.graph_objects as go
    for f in figures(at):
        go.Figure(f)
    plane = fig_starting(at, "Weight plane")
    assert {"clairvoyant u (least squares)", "u* (minimises the bound)"} <= set(trace_names(plane))
    # the trajectory starts at w_1 = 0
    path = next(t for t in plane["data"] if t["name"].startswith("trajectory"))
    assert path["x"][0] == 0 and path["y"][0] == 0
    # the theorem's metrics are consistent with the charts
    metric = {m.label: float(m.value) for m in at.metric}
    assert metric["Widrow-Hoff loss L_WH"] <= metric["Theorem 1 bound"]
    assert metric["Clairvoyant min_u L_u"] <= metric["Widrow-Hoff loss L_WH"]


def test_controls_change_the_run():
    at = run_page(PAGE)
    before = {m.label: m.value for m in at.metric}
    at.slider(key="eta").set_value(0.7).run()
    assert not at.exception
    after = {m.label: m.value for m in at.metric}
    assert after["Widrow-Hoff loss L_WH"] != before["Widrow-Hoff loss L_WH"]
    check_bounds_hold(at)
    # the scrubber: after 10 rounds the trajectory has 11 points w_1..w_11
    at.slider(key="t").set_value(10).run()
    plane = fig_starting(at, "Weight plane after 10 round")
    path = next(t for t in plane["data"] if t["name"].startswith("trajectory"))
    assert len(path["x"]) == 11
    # "use eta*" sets the slider to the bound-minimising eta
    eta_star = float(at.metric[3].value)
    at.button(key="use_eta_star").click().run()
    assert at.slider(key="eta").value == pytest.approx(round(eta_star, 2))
    # d = 3: no plane, the weights over time instead
    at.number_input(key="d").set_value(3).run()
    at.number_input(key="seed").set_value(5).run()
    assert not at.exception
    assert any(t.startswith("Weights over rounds") for t in figures_by_title(at))
    check_bounds_hold(at)
    import plotly.graph_objects as go
    for f in figures(at):
        go.Figure(f)


def test_url_reproduces_the_view():
    at = run_page(PAGE, query={"eta": "0.35", "seed": "3", "noise": "0.8", "T": "120"})
    assert at.slider(key="eta").value == pytest.approx(0.35)
    assert at.number_input(key="seed").value == 3
    cum = fig_starting(at, "Cumulative square loss")
    assert len(trace(cum, "Widrow-Hoff L_WH(t)")["y"]) == 120
    check_bounds_hold(at)


def _csv(X, y) -> bytes:
    rows = ["x1,x2,y"] + [f"{a:.10g},{b:.10g},{c:.10g}" for (a, b), c in zip(X, y)]
    return ("\n".join(rows) + "\n").encode()


def test_uploaded_stream_outside_the_unit_ball_is_flagged_and_rescaled():
    at = run_page(PAGE, query={"src": "Upload CSV"})
    assert any("Upload a CSV" in i.value for i in at.info)
    rng = np.random.default_rng(0)
    X = rng.uniform(-3, 3, size=(80, 2))            # ||x|| up to ~4.2: Theorem 1 does not apply as is
    y = X @ np.array([0.5, -1.0]) + 0.1 * rng.standard_normal(80)
    at.file_uploader[0].set_value(("big.csv", _csv(X, y), "text/csv")).run()
    assert not at.exception
    assert any("Theorem 1 does not apply" in w.value for w in at.warning)
    assert at.toggle(key="rescale").value is True
    assert any("x divided by R" in c.value for c in at.caption)
    check_bounds_hold(at)                            # after rescaling, the theorem holds again
    at.toggle(key="rescale").set_value(False).run()
    assert not at.exception
    assert any("Theorem 1 does not apply" in w.value for w in at.warning)


def test_bad_upload_shows_an_error_not_a_traceback():
    at = run_page(PAGE, query={"src": "Upload CSV"})
    at.file_uploader[0].set_value(("bad.csv", b"x1,x2,y\n1,nan,2\n", "text/csv")).run()
    assert not at.exception
    assert at.error and "nan" in at.error[0].value.lower()


def test_noise_free_preset_bounds_the_total_loss_by_norm_u_over_eta():
    """With sigma = 0 the true u has L_u = 0, so Theorem 1 gives L_WH <= ||u||^2/eta for every T."""
    at = run_page(PAGE)
    at.selectbox(key="preset").set_value("Noise-free: loss stays bounded forever").run()
    assert not at.exception
    assert at.number_input(key="noise").value == 0.0 and at.slider(key="eta").value == pytest.approx(0.9)
    cum = fig_starting(at, "Cumulative square loss")
    wh = ys(trace(cum, "Widrow-Hoff L_WH(t)"))
    assert wh.size == 1000
    assert wh[-1] <= 1.5**2 / 0.9 + 1e-9
    check_bounds_hold(at)


def test_eg_section_beats_widrow_hoff_when_the_target_is_sparse_and_n_is_large():
    at = run_page(PAGE, query={"eg_n": "300"})
    eg = fig_starting(at, "Additive vs multiplicative")
    final_eg = ys(trace(eg, "EG (multiplicative)"))[-1]
    final_wh = ys(trace(eg, "Widrow-Hoff (additive; x rescaled into the unit ball)"))[-1]
    assert final_eg < final_wh        # the notes' point: the right geometry matters
    check_bounds_hold(at)
