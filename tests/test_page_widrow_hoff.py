"""The Widrow-Hoff page under AppTest: it runs from app.py, its controls work, its bounds are
drawn as traces named "bound: ..." and the charts obey them."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import bound_traces, fig_starting, figures, figures_by_title, run_page, trace, trace_names
from olapp.figures import widrow_hoff as figs
from olapp.content import widrow_hoff as text
from olcore.lessons.widrow_hoff import FORMULA_RATE

PAGE = "pages/widrow_hoff.py"


def y(tr) -> np.ndarray:
    return np.asarray(tr["y"], dtype=float)


def check_bounds_hold(at):
    cum = fig_starting(at, "Cumulative square loss")
    wh = y(trace(cum, "Widrow-Hoff L_WH(t)"))
    b = y(trace(cum, "bound: " + figs.BOUND_T1))
    assert wh.size == b.size > 0 and np.all(wh <= b + 1e-9)
    sweep = fig_starting(at, "Total loss after T rounds")
    assert np.all(y(trace(sweep, "Widrow-Hoff L_WH(η)")) <= y(trace(sweep, "bound: " + figs.BOUND_T1)) + 1e-9)
    pot = fig_starting(at, "The potential proof")
    phi = y(trace(pot, "Φ_t = ‖w_t − u*‖²"))
    assert np.all(phi <= y(trace(pot, "bound: " + figs.BOUND_TELESCOPED)) + 1e-9)
    assert np.all(y(trace(pot, "Φ_{t+1} − Φ_t")) <= y(trace(pot, "bound: " + figs.BOUND_CLAIM)) + 1e-9)
    # section 6 draws one topic at a time: check the one drawn
    titles = list(figures_by_title(at))
    if any(t.startswith("Online-to-batch") for t in titles):
        o2b = fig_starting(at, "Online-to-batch")
        avg = y(trace(o2b, "averaged v = (1/m) Σ w_t  (mean risk)"))
        band = y(trace(o2b, "±2 standard errors"))
        lower = band[avg.size:][::-1]
        assert np.all(lower <= y(trace(o2b, "bound: " + figs.BOUND_T2)) + 1e-9)
    if any(t.startswith("Additive vs multiplicative") for t in titles):
        eg = fig_starting(at, "Additive vs multiplicative")
        wh_eg = y(trace(eg, "Widrow-Hoff (additive; x rescaled into the unit ball)"))
        assert np.all(wh_eg <= y(trace(eg, "bound: " + figs.BOUND_T1 + " (Widrow-Hoff)")) + 1e-9)
    known = {"bound: " + b for b in (figs.BOUND_T1, figs.BOUND_T2, figs.BOUND_CLAIM, figs.BOUND_TELESCOPED,
                                     figs.BOUND_T1 + " (Widrow-Hoff)", FORMULA_RATE)}
    for f in figures(at):
        for bt in bound_traces(f):
            assert bt["name"] in known, bt["name"]      # every drawn bound is one the notes prove
            assert len(y(bt)) > 0 and np.all(np.isfinite(y(bt)))


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


TOPIC_FIGURES = {text.TOPIC_O2B: "Online-to-batch", text.TOPIC_EG: "Additive vs multiplicative",
                 text.TOPIC_IMPLICIT: "Explicit and implicit updates on the weight plane",
                 text.TOPIC_RATE: "Rate of loss: L/T against L_u/T"}


@pytest.mark.parametrize("topic", list(TOPIC_FIGURES))
def test_each_going_further_topic_draws_its_view_alone_and_its_bounds_hold(topic):
    """Section 6 draws one topic at a time (URL key ``further``; the first by default): the chosen
    topic's chart and none of the others', every bound on the page holding."""
    at = run_page(PAGE, query={"further": topic} if topic != text.TOPIC_O2B else None)
    assert not at.exception and not at.error
    assert at.segmented_control(key="further").value == topic
    titles = list(figures_by_title(at))
    for other, title in TOPIC_FIGURES.items():
        assert any(t.startswith(title) for t in titles) == (other == topic), (topic, titles)
    check_bounds_hold(at)
    at.segmented_control(key="further").set_value(text.TOPIC_EG).run()      # the control switches the view
    assert not at.exception and any(t.startswith("Additive vs multiplicative") for t in figures_by_title(at))


@pytest.mark.parametrize("query, topic", [({"eg_n": "300"}, text.TOPIC_EG), ({"eg_eta": "2.0"}, text.TOPIC_EG),
                                          ({"m_max": "200"}, text.TOPIC_O2B), ({}, text.TOPIC_O2B),
                                          ({"eg_n": "300", "m_max": "200"}, text.TOPIC_O2B),
                                          ({"eg_n": "300", "further": text.TOPIC_RATE}, text.TOPIC_RATE)])
def test_a_link_from_before_the_topics_opens_the_topic_of_its_settings(query, topic):
    """Links shared while sections 6-9 were all drawn keep showing what they were shared for: the one
    topic whose settings they carry (an explicit ``further`` wins; two topics' settings: the default)."""
    at = run_page(PAGE, query=query)
    assert at.segmented_control(key="further").value == topic
    assert not at.warning, [w.value for w in at.warning]
    if "eg_n" in query and topic == text.TOPIC_EG:
        assert at.select_slider(key="eg_n").value == 300


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
    # the button sets the slider to the eta it names: the slider's eta with the smallest bound, next to eta*
    eta_star = float(at.metric[3].value)
    label = at.button(key="use_eta_star").label
    at.button(key="use_eta_star").click().run()
    assert label == f"Use η = {at.slider(key='eta').value:.2f}"
    assert abs(at.slider(key="eta").value - eta_star) <= 0.01
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
    at = run_page(PAGE, query={"stream": "Upload"})
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
    # unscaled, the theorem box says why it does not apply and no Theorem 1 bound is drawn
    cum = fig_starting(at, "Cumulative square loss")
    assert not bound_traces(cum)
    assert any("The theorem does not apply" in w.value for w in at.warning)


def test_bad_upload_shows_an_error_not_a_traceback():
    at = run_page(PAGE, query={"stream": "Upload"})
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
    wh = y(trace(cum, "Widrow-Hoff L_WH(t)"))
    assert wh.size == 1000
    assert wh[-1] <= 1.5**2 / 0.9 + 1e-9
    check_bounds_hold(at)


def test_eg_section_beats_widrow_hoff_when_the_target_is_sparse_and_n_is_large():
    at = run_page(PAGE, query={"eg_n": "300", "further": text.TOPIC_EG})
    eg = fig_starting(at, "Additive vs multiplicative")
    final_eg = y(trace(eg, "EG (multiplicative)"))[-1]
    final_wh = y(trace(eg, "Widrow-Hoff (additive; x rescaled into the unit ball)"))[-1]
    assert final_eg < final_wh        # the notes' point: the right geometry matters
    check_bounds_hold(at)


def test_integer_settings_are_integer_widgets():
    at = run_page(PAGE, query={"d": "3", "T": "150"})
    for key, want in (("d", 3), ("T", 150)):
        v = at.number_input(key=key).value
        assert isinstance(v, int) and v == want, (key, v)
    assert len(trace(fig_starting(at, "Cumulative square loss"), "Widrow-Hoff L_WH(t)")["y"]) == 150


def test_presenter_mode_hides_settings_enlarges_charts_and_keeps_the_preset_claim():
    from olapp import theme
    at = run_page(PAGE, query={"present": "1", "stream": "Generated", "d": "2", "T": "1000", "noise": "0.0",
                               "norm_u": "1.5", "eta": "0.9", "seed": "0"})
    assert not at.error
    # the kit's presenter CSS is on the page (it hides the settings box, not the player)
    assert any("st-key-controls" in str(h.proto.body) for h in at.get("html"))
    for f in figures(at):
        assert f["layout"]["font"]["size"] > theme.FONT_SIZE      # enlarged in one place, by the kit
    # the settings box is hidden, so the preset's claim is repeated outside it
    assert any("Noise-free" in i.value for i in at.info)


def test_bounds_hold_on_a_long_noisy_ten_feature_run():
    at = run_page(PAGE, query={"d": "10", "T": "3000", "noise": "1.5", "eta": "0.6", "seed": "11"})
    assert any(t.startswith("Weights over rounds") for t in figures_by_title(at))
    check_bounds_hold(at)


# ---- the implicit update and the rate remark ---------------------------------------------

def test_implicit_and_rate_panels_run_and_hold():
    from tests.helpers import assert_under_bound, by_title
    at = run_page(PAGE, query={"t": "40", "eta": "0.6", "T": "300", "further": text.TOPIC_IMPLICIT})
    assert not at.exception and not at.error
    plane = by_title(at, "Explicit and implicit updates on the weight plane")
    assert {figs.EXPLICIT, figs.IMPLICIT} <= set(trace_names(plane))
    assert len(trace(plane, figs.EXPLICIT)["x"]) == 41              # w_1 .. w_41 after 40 rounds
    at = run_page(PAGE, query={"t": "40", "eta": "0.6", "T": "300", "further": text.TOPIC_RATE})
    assert not at.exception and not at.error
    f = by_title(at, "Rate of loss: L/T against L_u/T")
    b = [t for t in bound_traces(f) if "L_u/((1−η)T)" in t["name"]]
    assert b
    assert_under_bound(trace(f, "L_WH(t)/t, " + figs.EXPLICIT), b[0])
    assert any("shrinks like 1/T" in c.value for c in at.caption)


def test_implicit_panel_in_higher_dimension_shows_losses():
    from tests.helpers import by_title
    at = run_page(PAGE, query={"d": "4", "t": "10", "further": text.TOPIC_IMPLICIT})
    assert not at.exception and not at.error
    f = by_title(at, "Explicit and implicit updates: cumulative loss")
    assert {figs.EXPLICIT, figs.IMPLICIT} <= set(trace_names(f))


# ---- a suggested η the theorem allows, numbers a student can read ------------------------------

def test_raw_diabetes_upload_offers_an_eta_the_theorem_allows_and_sets_it():
    """The page offered "Use η* ≈ 0.00" and quietly set η = 0.01: the button now names the η it sets."""
    datasets = pytest.importorskip("sklearn.datasets")
    X, yv = datasets.load_diabetes(return_X_y=True)
    rows = ["x" + ",x".join(str(i + 1) for i in range(X.shape[1])) + ",y"]
    rows += [",".join(f"{v:.10g}" for v in x) + f",{t:.10g}" for x, t in zip(X, yv)]
    at = run_page(PAGE, query={"stream": "Upload"})
    at.file_uploader[0].set_value(("diabetes.csv", ("\n".join(rows) + "\n").encode(), "text/csv")).run()
    assert not at.exception and not at.error
    assert at.button(key="use_eta_star").label == "Use η = 0.01"
    shown = " ".join(el.value for el in list(at.markdown) + list(at.caption))
    assert "0.00" not in shown.replace("0.001", "") and "η* = 0.000" not in shown
    assert {m.label: m.value for m in at.metric}["Bound-minimising η*"] == "below 0.01"
    at.slider(key="eta").set_value(0.5).run()
    at.button(key="use_eta_star").click().run()
    assert at.slider(key="eta").value == 0.01


def test_noise_free_preset_reads_zero_loss_and_eta_above_the_slider():
    at = run_page(PAGE)
    at.selectbox(key="preset").set_value("Noise-free: loss stays bounded forever").run()
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Clairvoyant min_u L_u"] == "0 (to rounding)" and metrics["Bound-minimising η*"] == "above 0.99"
    assert not any("e-" in v or "e+" in v for v in metrics.values())
    shown = " ".join(el.value for el in list(at.markdown) + list(at.caption))
    assert "η* = 1.000" not in shown and "\\eta^* = 1.000" not in shown
    assert at.button(key="use_eta_star").label == "Use η = 0.99"
    at.button(key="use_eta_star").click().run()
    assert at.slider(key="eta").value == 0.99
