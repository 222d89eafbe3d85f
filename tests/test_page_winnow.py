"""The /winnow page under AppTest: runs, reacts to its controls, and draws bounds that hold."""

import numpy as np
import pytest

from tests.helpers import assert_under_bound, bound_traces, by_title, run_page, trace, ys

PAGE = "pages/winnow.py"


@pytest.fixture(scope="module")
def default_page():
    return run_page(PAGE)


def test_default_page_mistakes_under_the_bound(default_page):
    at = default_page
    assert not at.exception and not at.error
    f = by_title(at, "Mistakes")
    b = ys(trace(f, "bound: 2 + 3k(log₂N + 1)"))
    assert b[0] == pytest.approx(2 + 3 * 3 * (np.log2(100) + 1))       # k = 3, N = 100 by default
    assert_under_bound(trace(f, "Winnow"), trace(f, "bound: 2 + 3k(log₂N + 1)"), strict=True)


def test_weights_chart_marks_relevant_attributes_on_a_log_axis(default_page):
    f = by_title(default_page, "Winnow's weights")
    assert f["layout"]["yaxis"]["type"] == "log"
    rel = [t for t in f["data"] if str(t.get("name", "")).startswith("relevant x")]
    assert len(rel) == 3
    for t in rel:                                   # relevant weights never go down
        assert np.all(np.diff(ys(t)) >= 0)
    assert ys(trace(f, "threshold θ = 100"))[0] == 100


def test_potential_below_its_bound_and_positive(default_page):
    f = by_title(default_page, "The proof's potential Φ = Σ w")
    phi = ys(trace(f, "Φ_t = Σ w_i"))
    assert phi[0] == 100 and np.all(phi > 0)
    assert_under_bound(trace(f, "Φ_t = Σ w_i"), trace(f, "bound: N + N·m⁺ − N·m⁻/2"))


def test_sweep_shows_both_learners_with_bounds(default_page):
    f = by_title(default_page, "Mistakes as irrelevant attributes abound")
    assert f["layout"]["xaxis"]["type"] == "log"
    names = [b["name"] for b in bound_traces(f)]
    assert "bound: 2 + 3k(log₂N + 1) (Winnow)" in names and "bound: (4k+1)(N+1) (Perceptron)" in names
    w, p = ys(trace(f, "Winnow: mean")), ys(trace(f, "Perceptron: mean"))
    assert_under_bound(trace(f, "Winnow: mean"), trace(f, "bound: 2 + 3k(log₂N + 1) (Winnow)"), tol=0)
    assert_under_bound(trace(f, "Perceptron: mean"), trace(f, "bound: (4k+1)(N+1) (Perceptron)"), tol=0)
    assert p[-1] > w[-1]                          # at N = 10^4 Winnow makes fewer mistakes


def test_controls_change_the_run():
    at = run_page(PAGE)
    at.select_slider(key="N").set_value(10000).run()
    at.slider(key="k").set_value(5).run()
    assert not at.exception and not at.error
    f = by_title(at, "Mistakes")
    b = ys(trace(f, "bound: 2 + 3k(log₂N + 1)"))[0]
    assert b == pytest.approx(2 + 15 * (np.log2(10000) + 1))
    assert_under_bound(trace(f, "Winnow"), trace(f, "bound: 2 + 3k(log₂N + 1)"), strict=True)
    assert at.slider(key="t").value == 500          # 500 x 10^4 = 5 million cells: not cut
    at.select_slider(key="alpha").set_value(3.0).run()
    f = by_title(at, "Mistakes")
    gb = [t for t in bound_traces(f)]
    assert len(gb) == 1
    assert_under_bound(trace(f, "Winnow"), gb[0], strict=True)
    at.button(key="t_reset").click().run()
    assert at.slider(key="t").value == 0
    at.button(key="t_next").click().run()
    assert at.slider(key="t").value >= 1
