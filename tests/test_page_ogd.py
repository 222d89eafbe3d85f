"""The /ogd page under AppTest: runs, reacts to every control, and draws bounds that hold."""


import numpy as np
import pytest

from olapp.content import ogd as L
from olcore import oco, streams
from olcore.claims import claims_of
from olcore.lessons import ogd as lesson
from tests.helpers import assert_under_bound, bound_traces, by_title, figures, run_page, trace, ys, plain

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
    mean, dashed = trace(sw, "R_T: mean over seeds"), trace(sw, "bound: D²/(2η) + ηG²T/2")
    mx, bx = np.asarray(mean["x"], float), np.asarray(dashed["x"], float)
    at_grid = [int(np.argmin(np.abs(bx / x - 1))) for x in mx]              # the dashed curve's finer grid
    assert np.allclose(bx[at_grid], mx, rtol=1e-9, atol=0)
    assert_under_bound(ys(mean), ys(dashed)[at_grid], tol=1e-6)
    dot = trace(sw, "its minimum D G √T at η = D/(G√T)")                      # the marked minimum is the curve's
    assert bx[int(np.argmin(ys(dashed)))] == dot["x"][0] and ys(dashed).min() == pytest.approx(ys(dot)[0])
    assert any(sh["x0"] == dot["x"][0] for sh in sw["layout"]["shapes"])     # and the dotted line is there
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
        cited = "Beyond the notes" if name.startswith("Adversarial") else "Online gradient descent notes"
        assert any(name in i.value and cited in i.value for i in at.info)
        if name.startswith("Adversarial"):
            reg = by_title(at, "Regret against its bounds")
            R, b = ys(trace(reg, "R_t (against the final θ*)")), ys(trace(reg, "bound: D G √T"))
            assert R[-1] >= 0.2 * b[0]                       # the regret is of the theorem's order


def test_a_bad_upload_shows_a_clear_message_and_keeps_the_page():
    at = run_page(PAGE, query={"stream": "Upload"})
    assert any("Upload a CSV stream" in i.value for i in at.info)
    at.file_uploader(key="ogd_upload").set_value(("bad.csv", b"x1,x2,y\n0.1,abc,1\n", "text/csv")).run()
    assert not at.exception
    assert at.error and "bad.csv" in plain(at.error[0].value)
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


# ---- every sentence holds for the run beside it ---------------------------------------------------



def _all_hold(t) -> str:
    assert claims_of(t), "the sentence states facts about the run: it carries claims"
    assert all(c.holds for c in claims_of(t)), [c.what for c in claims_of(t) if not c.holds]
    return str(t)


def test_the_per_round_slack_says_never_negative_only_when_it_is():
    # the Adversarial preset: the smallest slack is −7.3e-15 (the old caption: "… -7.33e-15 (never negative)")
    a = lesson.analyse(lesson.make_stream("Adversarial", 1000, 0.1, 0, 2), "linear", "box", 1.0, prefix_points=3)
    said = _all_hold(L.per_round(a))
    assert a.slack.min() < 0 and "(never negative)" not in said and "0 up to rounding" in said
    b = lesson.analyse(lesson.make_stream("Noisy", 200, 0.1, 0, 2), "logistic", "ball", 1.0, prefix_points=3)
    said = _all_hold(L.per_round(b))
    assert (b.slack >= 0).all() == ("(never negative)" in said)


def test_g_run_line_states_the_bound_the_proof_gives_at_this_eta():
    # η*/8 on a separable logistic stream: R_T is above D G_run √T, which the old line offered as "the bound"
    s = lesson.make_stream("Separable", 200, 0.1, 0, 2)
    for mult in (0.125, 1.0, 8.0):
        a = lesson.analyse(s, "logistic", "ball", 1.0, prefix_points=3, eta_mult=mult)
        said = _all_hold(L.g_line(a))
        assert "would read" not in said
        assert f"R_T = {a.regret[-1]:.4g} ≤ D²/(2η) + (η/2)G_run²T = {a.run_G_bound:.4g}" in said
        assert a.regret[-1] <= a.run_G_bound
        if mult == 0.125:
            assert a.regret[-1] > a.D * a.G_run * np.sqrt(a.T)


def test_sweep_caption_names_the_minimiser_it_marks():
    s = lesson.sweep("Noisy", 200, 0.1, "squared", "box", 1.0, (0, 1, 2, 3), 13, 64.0, 5)
    said = _all_hold(L.sweep(s))
    assert "is at η*" not in said
    assert f"D G √T = {s.bound_min:.4g}, is at η = D/(G√T) = {s.bound_eta:.3g}" in said
    assert "seed 0's G is not the largest" in said


def test_hedge_is_in_the_course_only_mirror_descent_is_not():
    said = L.k_sweep(lesson.k_sweep(T=100, Ks=(2, 4), seeds=(0,)))
    assert "(Hedge) recovers" not in said and "Hedge is in the course (UCL notes)" in said
    assert "leave mirror descent out of the course" in said
    experts = next(p for p in L.PRESETS if p.name.startswith("OGD on the simplex"))
    assert "UCL notes" in experts.note and "Hedge (mirror descent)" not in experts.note
    assert "UCL notes" in L.LECTURE[-1].narration
    e = lesson.experts(T=200, K=5)
    assert "UCL" in e.hedge_bound.statement and "(mirror descent with the entropy)" not in e.hedge_bound.statement
    _all_hold(L.experts(e))


def test_the_lower_bound_is_cited_to_its_source_and_marked_beyond_the_notes():
    adversarial = next(p for p in L.PRESETS if p.name.startswith("Adversarial"))
    scene = next(sc for sc in L.LECTURE if "cannot be improved" in sc.title)
    for words in (adversarial.note, scene.narration):
        assert "Beyond the notes" in words and "Hazan" in words and "Theorem 3.2" in words
        assert "Performance guarantees" not in words
        # the expected share it quotes is the core's, at the preset's and the scene's T
        assert f"{lesson.adversary_share(adversarial.values['T']):.2f} × D G √T" in words
    assert adversarial.values["T"] == scene.values["T"] and scene.values["domain"] == adversarial.values["domain"] == "box"
    assert "Theorem 3.2" in L.SOURCES["Adversarial"]


def test_static_sentences_hold_at_the_settings_where_they_are_shown():
    def run(values):
        s = lesson.make_stream(values["stream"], values["T"], values.get("noise", 0.1), values["seed"], values["d"])
        return lesson.analyse(s, values["loss"], values["domain"], values["radius"], prefix_points=3,
                              eta_mult=values["eta_mult"])
    presets = {p.name: p for p in L.PRESETS}
    # "On separable data the best θ in the ball sits on its boundary …: watch the projection pull θ back"
    a = run(presets["Separable logistic stream"].values)
    assert np.linalg.norm(a.theta_star) == pytest.approx(1.0, abs=1e-6) and a.projected.any()
    # "with a small η the first term D²/(2η) dominates" (and in the scene "8 times larger")
    a = run(presets["Too small a step: η = η*/8"].values)
    first = a.D ** 2 / (2 * a.eta)
    assert first > a.proof_bound.value - first
    assert first == pytest.approx(8 * a.D ** 2 / (2 * a.eta_star))
    # "the regret stays under the flat line D G √T at every round, and under the proof's curve"
    a = run(presets["The theorem: η = η* on a noisy logistic stream"].values)
    assert (a.regret <= a.theorem.value).all() and (a.regret <= a.proof_bound.curve + 1e-9).all()


def test_an_upload_of_one_point_repeated_with_alternating_labels_runs():
    """The audit's upload: (3, 4) 95 times with labels +1, −1, +1, …, logistic loss in the box of half-width 2.
    The page showed "the optimality gap … did not fall under 1e-06 in 12000 iterations"; every prefix's best
    value is known in closed form (tests/test_oco.py): after 1 round ln(1 + e^(−14)), after 2k rounds 2k ln 2,
    after 2k + 1 rounds (k + 1) ln((2k + 1)/(k + 1)) + k ln((2k + 1)/k)."""
    from tests.test_oco import _one_point_exact

    body = "x1,x2,y\n" + "\n".join(f"3,4,{1 if t % 2 == 0 else -1}" for t in range(95))
    at = run_page(PAGE, query={"stream": "Upload"})
    at.file_uploader(key="ogd_upload").set_value(("repeated.csv", body.encode(), "text/csv")).run()
    at.selectbox(key="domain").set_value("box").run()
    at.select_slider(key="radius").set_value(2.0).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.selectbox(key="loss").value == "logistic"
    check_bounds(at)
    X, y = np.tile([3.0, 4.0], (95, 1)), np.where(np.arange(95) % 2 == 0, 1.0, -1.0)
    a = lesson.analyse(streams.from_arrays("oco", X, y), "logistic", "box", 2.0, prefix_points=10)
    dots = trace(by_title(at, "Regret against its bounds"), "R_t against each prefix's best θ")
    rounds = np.asarray(dots["x"], int)
    exact = np.array([_one_point_exact(t) for t in rounds])
    paid = a.trace.cumulative_loss[rounds - 1]
    assert np.all(np.abs(ys(dots) - (paid - exact)) <= 1e-6 * np.maximum(1.0, exact) + 1e-9)
    assert a.best_value == pytest.approx(_one_point_exact(95), rel=1e-6)
