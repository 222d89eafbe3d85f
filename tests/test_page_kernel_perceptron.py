"""The /kernel_perceptron page under AppTest: runs, reacts to its controls, and draws bounds that hold."""

import numpy as np

from olcore import linear
from olcore.lessons import kernel_perceptron as lesson
from tests.helpers import assert_under_bound, bound_traces, by_title, figures, run_page, trace, ys

PAGE = "pages/kernel_perceptron.py"
TITLES = {"Decision region sgn f_t(x)", "Mistakes in the RKHS", "The proof: ‖f_t‖ is squeezed", "The cache",
          "Mistakes against the budget", "The Fact, played"}


def text(at):
    return " ".join(el.value for el in list(at.markdown) + list(at.caption) + list(at.latex) + list(at.info)
                    + list(at.warning))


def check(at, two_d=True):
    """Every curve stays on the right side of the bound drawn beside it."""
    assert not at.exception and not at.error, [e.value for e in at.error]
    figs = figures(at)
    titles = {f["layout"]["title"]["text"] for f in figs}
    assert titles >= (TITLES if two_d else TITLES - {"Decision region sgn f_t(x)"})
    m = by_title(at, "Mistakes in the RKHS")
    for b in bound_traces(m):
        assert b["name"] == "bound: (R_K/γ_K)²"
        assert_under_bound(trace(m, "kernel Perceptron"), b)
    pr = by_title(at, "The proof: ‖f_t‖ is squeezed")
    assert_under_bound(trace(pr, "‖f_t‖ in the RKHS"), trace(pr, "bound: √M_t R_K (upper, on ‖f_t‖)"), tol=1e-9)
    if len(bound_traces(pr)) == 2:
        assert_under_bound(trace(pr, "bound: M_t γ_lo (lower, on ⟨f_t, u⟩)"), trace(pr, "⟨f_t, u⟩"), tol=1e-9)
    c = by_title(at, "The cache")
    budget = next(tr for tr in c["data"] if tr["name"].startswith("|L_t| with B"))
    assert_under_bound(budget, trace(c, "bound: |L_t| ≤ B"))
    f = by_title(at, "The Fact, played")
    fb = next(tr for tr in f["data"] if tr["name"].startswith("B = "))
    fm = next(tr for tr in f["data"] if tr["name"].startswith("B + 1"))
    assert_under_bound(trace(f, "bound: ⌊t/(B+1)⌋ (lower)"), fb)                 # forced mistakes: a lower bound
    assert_under_bound(fm, trace(f, "bound: (R/γ)² = B + 1"))
    return figs


def test_default_page_draws_every_view_and_the_bounds_hold():
    at = run_page(PAGE, query={"t": 60})
    check(at)
    s = lesson.make_stream("XOR", 200, 0)
    a = lesson.analyse(s, "rbf", 2.0)
    m = by_title(at, "Mistakes in the RKHS")
    assert np.allclose(ys(trace(m, "kernel Perceptron")), np.cumsum(a.trace.mistakes))
    assert ys(trace(m, "bound: (R_K/γ_K)²"))[0] == a.bound.value
    reg = by_title(at, "Decision region sgn f_t(x)")
    sup = next(tr for tr in reg["data"] if str(tr.get("name", "")).startswith("supports in the cache"))
    rows = linear.supports_at(a.trace, 60)
    assert np.allclose(np.asarray(sup["x"], float), s.X[rows, 0])
    said = text(at)
    assert "Frank-Wolfe" in said and "Cesa-Bianchi" in said and "seeds/" not in said
    assert "γ_lo" in said and "duality gap" in said


def test_controls_change_the_run():
    at = run_page(PAGE, query={"t": 150})
    at.selectbox(key="kernel").set_value("linear").run()
    check(at)
    assert not bound_traces(by_title(at, "Mistakes in the RKHS"))            # XOR has no linear separator
    assert any("does not apply" in w.value for w in at.warning)
    at.selectbox(key="kernel").set_value("polynomial").run()
    at.slider(key="degree").set_value(2).run()
    at.select_slider(key="coef0").set_value(2.0).run()
    check(at)
    assert bound_traces(by_title(at, "Mistakes in the RKHS"))
    at.selectbox(key="kernel").set_value("Gaussian").run()
    at.select_slider(key="rbf_gamma").set_value(10.0).run()
    at.select_slider(key="B").set_value(2).run()
    at.slider(key="T").set_value(300).run()
    at.number_input(key="seed").set_value(4).run()
    at.get("button_group")[0].set_value("Moons").run()
    check(at)
    c = by_title(at, "The cache")
    assert ys(trace(c, "bound: |L_t| ≤ B"))[0] == 2
    assert any(tr["name"].startswith("eviction") for tr in c["data"])          # B = 2: the cache overflows
    from olapp.content import kernel_perceptron as content
    b = lesson.budget_run(lesson.make_stream("Moons", 300, 4), 2, 4, "rbf", 10.0, 2, 2.0)
    assert content.budget_status(b, at.slider(key="t").value) in text(at)
    assert b.trace.extras["evicted"].any()
    f = by_title(at, "The Fact, played")
    assert len(ys(f["data"][0])) == 30 * 3
    at.button(key="t_reset").click().run()
    assert at.slider(key="t").value == 0
    at.button(key="t_next").click().run()                                     # the next mistake: round 1
    assert at.slider(key="t").value == 1
    check(at)


def test_upload_without_a_file_says_where_to_upload():
    at = run_page(PAGE)
    at.get("button_group")[0].set_value("Upload").run()
    assert not at.exception
    assert any("Upload a CSV" in i.value for i in at.info)


def test_the_download_caption_names_the_kernel_learners_columns_and_no_foreign_weights():
    at = run_page(PAGE)
    cap = next(c.value for c in at.caption if c.value.startswith("Columns:"))
    assert "dual_coef" in cap and "score" in cap and "no weight columns" in cap
    assert "w1, w2" not in cap                                  # Σ y_s x_s is not the Gaussian learner's weights
    at.selectbox(key="kernel").set_value("linear").run()
    cap = next(c.value for c in at.caption if c.value.startswith("Columns:"))
    assert "w1, w2" in cap and "f_t(x) = w_t·x" in cap            # with K = x·x' they are its weights


def test_the_rings_preset_and_the_facts_theorem_box_say_what_the_run_does():
    at = run_page(PAGE)
    at.selectbox(key="preset").set_value("Rings: a narrow kernel").run()
    said = text(at)
    assert "not monotone in γ" in said and "a larger margin γ_K and a smaller bound" not in said
    assert "supports the cache never fills" not in said and "no mistake ever evicts" in said
