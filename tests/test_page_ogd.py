"""The /ogd page under AppTest: runs, reacts to every control, and draws bounds that hold."""


import numpy as np
import pytest

from olcore import oco
from olcore.lessons import ogd as lesson
from tests.helpers import assert_under_bound, bound_traces, by_title, figures, run_page, trace, ys

PAGE = "pages/ogd.py"
TITLES = {"The parameter plane", "Projection never moves away from θ*", "Regret against its bounds",
          "Final regret against the step size", "The proof's potential ‖θ_t − θ*‖²", "The per-round inequality",
          "Telescoping to the bound", "OGD on the simplex against Hedge", "Regret as the number of experts grows"}


def text(at):
    return " ".join(el.value for el in list(at.markdown) + list(at.caption) + list(at.latex) + list(at.info)
                    + list(at.warning))


def check_bounds(at):
    """Every curve the page draws stays under the bound drawn beside it."""
    assert not at.exception and not at.error, [e.value for e in at.error]
    figs = figures(at)
    assert {f["layout"]["title"]["text"] for f in figs} >= TITLES - ({"The parameter plane"} if len(figs) < 9 else set())
    for f in figs:
        title = f["layout"]["title"]["text"]
        if title != "The parameter plane":
            assert bound_traces(f), title               # every chart but the plane draws a bound
    reg = by_title(at, "Regret against its bounds")
    R = trace(reg, "R_t (against the final θ*)")
    for b in bound_traces(reg):
        assert_under_bound(R, b, tol=1e-6 * max(1.0, float(np.abs(ys(b)).max())))
    assert_under_bound(trace(by_title(at, "Projection never moves away from θ*"),
                             "‖Π_C(θ̃_(t+1)) − θ*‖ = ‖θ_(t+1) − θ*‖"),
                       trace(by_title(at, "Projection never moves away from θ*"),
                             "bound: ‖θ̃_(t+1) − θ*‖ (before the projection)"), tol=1e-9)
    pot = by_title(at, "The proof's potential ‖θ_t − θ*‖²")
    assert_under_bound(trace(pot, "‖θ_t − θ*‖²"), trace(pot, "bound: D²"), tol=1e-9)
    per = by_title(at, "The per-round inequality")
    assert_under_bound(per["data"][0], bound_traces(per)[0], tol=1e-9)
    tel = by_title(at, "Telescoping to the bound")
    for b in bound_traces(tel):
        assert_under_bound(trace(tel, "R_t"), b, tol=1e-6)
    sw = by_title(at, "Final regret against the step size")
    assert_under_bound(trace(sw, "R_T: mean over seeds"), trace(sw, "bound: D²/(2η) + ηG²T/2"), tol=1e-6)
    ex = by_title(at, "OGD on the simplex against Hedge")
    assert_under_bound(trace(ex, "OGD"), trace(ex, "bound: √(2KT) (OGD)"))
    assert_under_bound(trace(ex, "Hedge"), trace(ex, "bound: √(2T ln K) (Hedge)"))
    ks = by_title(at, "Regret as the number of experts grows")
    assert_under_bound(trace(ks, "OGD: mean"), trace(ks, "bound: √(2KT) (OGD)"))
    assert_under_bound(trace(ks, "Hedge: mean"), trace(ks, "bound: √(2T ln K) (Hedge)"))
    return figs


@pytest.fixture(scope="module")
def default_page():
    return run_page(PAGE)


def test_default_page_draws_the_theorem_and_every_bound_holds(default_page):
    at = default_page
    check_bounds(at)
    assert at.get("button_group")[0].value == "Noisy" and "Upload" in at.get("button_group")[0].options
    s = lesson.make_stream("Noisy", 200, 0.1, 0, 2)
    a = lesson.analyse(s, "logistic", "ball", 1.0, prefix_points=10)
    reg = by_title(at, "Regret against its bounds")
    b = ys(trace(reg, "bound: D G √T"))
    assert b[0] == b[-1] == pytest.approx(2 * oco.gradient_bound(s.X, s.y, "logistic", oco.Ball(1.0)) * np.sqrt(200))
    assert np.allclose(ys(trace(reg, "R_t (against the final θ*)")), a.regret)
    prefix = trace(reg, "R_t against each prefix's best θ")
    assert np.allclose(ys(prefix), a.regret_prefix, rtol=1e-6, atol=1e-6)
    said = text(at)
    assert f"G_run = {a.G_run:.4g} ≤ G = {a.G:.4g}" in said and "drawn flat" in said
    assert "Online gradient descent notes" in said and "seeds/" not in said
    plane = by_title(at, "The parameter plane")
    assert any(t.get("type") == "contour" for t in plane["data"])
    path = trace(plane, "θ_1, …, θ_(t+1)")
    assert np.allclose(ys(path)[-1], a.trace.weights[-1, 1])
    assert np.all(np.hypot(np.asarray(path["x"], float), ys(path)) <= 1 + 1e-9)     # θ stays in the ball
    star = trace(plane, "θ* (best fixed point of C)")
    assert np.allclose([star["x"][0], star["y"][0]], a.theta_star)


def test_every_control_changes_the_run():
    at = run_page(PAGE)
    at.select_slider(key="eta_mult").set_value(8.0).run()
    check_bounds(at)
    reg = by_title(at, "Regret against its bounds")
    assert [b["name"] for b in bound_traces(reg)] == ["bound: D²/(2η) + (η/2) Σ‖∇ℓₛ‖²"]   # the theorem needs η*
    assert any("does not apply" in w.value for w in at.warning)
    sw = by_title(at, "Final regret against the step size")
    assert len(sw["layout"]["shapes"]) == 2                                          # η* and this run's η
    at.slider(key="T").set_value(300).run()
    at.slider(key="d").set_value(3).run()
    assert any("d = 3" in i.value for i in at.info)                                  # no plane for d = 3
    check_bounds(at)
    at.slider(key="d").set_value(2).run()
    at.slider(key="noise").set_value(0.2).run()
    at.number_input(key="seed").set_value(3).run()
    at.selectbox(key="loss").set_value("hinge").run()
    at.selectbox(key="domain").set_value("box").run()
    at.select_slider(key="radius").set_value(0.5).run()
    at.select_slider(key="eta_mult").set_value(1.0).run()
    figs = check_bounds(at)
    assert len(figs) == 9
    s = lesson.make_stream("Noisy", 300, 0.2, 3, 2)
    a = lesson.analyse(s, "hinge", "box", 0.5, prefix_points=10)
    reg = by_title(at, "Regret against its bounds")
    assert ys(trace(reg, "bound: D G √T"))[0] == pytest.approx(a.theorem.value)
    assert a.D == pytest.approx(np.sqrt(2))                                          # a box of half-width 0.5
    path = trace(by_title(at, "The parameter plane"), "θ_1, …, θ_(t+1)")
    assert np.abs(np.asarray(path["x"], float)).max() <= 0.5 + 1e-9 and np.abs(ys(path)).max() <= 0.5 + 1e-9
    at.button(key="t_reset").click().run()
    assert at.slider(key="t").value == 0
    at.button(key="t_next").click().run()                                            # the next projection
    t = at.slider(key="t").value
    assert t >= 1 and a.projected[t - 1] and not a.projected[: t - 1].any()
    plane = by_title(at, "The parameter plane")
    assert trace(plane, "round t: projection θ_(t+1) = Π_C(θ̃)")
    at.slider(key="sweep_seeds").set_value(2).run()
    assert trace(by_title(at, "Final regret against the step size"), "min–max over 2 seeds")
    at.select_slider(key="n").set_value(50).run()
    check_bounds(at)
    assert "K = 50 experts" in text(at)
    at.get("button_group")[0].set_value("Regression").run()
    assert at.selectbox(key="loss").value == "squared"
    check_bounds(at)
    at.get("button_group")[0].set_value("Adversarial").run()
    assert at.selectbox(key="loss").value == "linear"
    check_bounds(at)
    at.selectbox(key="domain").set_value("simplex").run()
    check_bounds(at)


def test_presets_reproduce_their_claims():
    at = run_page(PAGE)
    box = at.selectbox(key="preset")
    names = [o for o in box.options if o != "(your own settings)"]
    assert len(names) >= 7
    for name in names:
        at.selectbox(key="preset").set_value(name).run()
        check_bounds(at)
        assert any(name in i.value and "Online gradient descent notes" in i.value for i in at.info)
        if name.startswith("Adversarial"):
            reg = by_title(at, "Regret against its bounds")
            R, b = ys(trace(reg, "R_t (against the final θ*)")), ys(trace(reg, "bound: D G √T"))
            assert R[-1] >= 0.2 * b[0]                       # the regret is of the theorem's order


def test_a_bad_upload_shows_a_clear_message_and_keeps_the_page():
    at = run_page(PAGE, query={"stream": "Upload"})
    assert any("Upload a CSV stream" in i.value for i in at.info)
    at.file_uploader(key="ogd_upload").set_value(("bad.csv", b"x1,x2,y\n0.1,abc,1\n", "text/csv")).run()
    assert not at.exception
    assert at.error and "bad.csv" in at.error[0].value
    assert at.button_group(key="stream").value == "Upload"
    # real targets with the logistic loss: the loss names what it needs
    at.file_uploader(key="ogd_upload").set_value(("real.csv", b"x1,x2,y\n0.1,0.2,0.5\n0.3,-0.1,-1.5\n",
                                                  "text/csv")).run()
    assert not at.exception
    assert any("squared loss" in e.value for e in at.error)
    at.selectbox(key="loss").set_value("squared").run()
    assert not at.exception and not at.error
    assert by_title(at, "Regret against its bounds")


def test_a_good_upload_runs():
    rng = np.random.default_rng(5)
    X = rng.uniform(-1, 1, (40, 2))
    y = np.where(X @ np.array([1.0, -0.5]) > 0, 1, -1)
    body = "x1,x2,y\n" + "\n".join(f"{a:.6f},{b:.6f},{c}" for (a, b), c in zip(X, y))
    at = run_page(PAGE, query={"stream": "Upload"})
    at.file_uploader(key="ogd_upload").set_value(("good.csv", body.encode(), "text/csv")).run()
    check_bounds(at)
    assert at.slider(key="t").value == 40
    assert "Generated Noisy streams (not your upload)" in text(at)


def test_a_hinge_run_too_large_to_certify_says_so_and_keeps_the_settings():
    at = run_page("pages/ogd.py", query={"T": "2000", "d": "20"})
    at.selectbox(key="loss").set_value("hinge").run()
    assert not at.exception
    assert at.error and "for the hinge loss" in at.error[0].value
    assert at.slider(key="T").value == 2000 and at.selectbox(key="loss").value == "hinge"
