"""The /winnow page under AppTest: runs, reacts to its controls, and draws bounds that hold."""

import numpy as np
import pytest

from conftest import bound_traces, figures, run_page, trace

PAGE = "pages/winnow.py"


def by_title(at, title):
    for f in figures(at):
        if f["layout"].get("title", {}).get("text") == title:
            return f
    pytest.fail(f"no figure titled {title!r}")


def ys(tr):
    return np.asarray(tr["y"], dtype=float)


@pytest.fixture(scope="module")
def default_page():
    return run_page(PAGE)


def test_default_page_mistakes_under_the_bound(default_page):
    at = default_page
    assert not at.exception and not at.error
    f = by_title(at, "Mistakes")
    b = ys(trace(f, "bound: 2 + 3k(log₂N + 1)"))
    assert b[0] == pytest.approx(2 + 3 * 3 * (np.log2(100) + 1))       # k = 3, N = 100 by default
    assert ys(trace(f, "Winnow")).max() < b[0]


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
    up = ys(trace(f, "bound: N + N·m⁺ − N·m⁻/2"))
    assert phi[0] == 100 and np.all(phi > 0) and np.all(phi <= up + 1e-9)


def test_sweep_shows_both_learners_with_bounds(default_page):
    f = by_title(default_page, "Mistakes as irrelevant attributes abound")
    assert f["layout"]["xaxis"]["type"] == "log"
    names = [b["name"] for b in bound_traces(f)]
    assert "bound: 2 + 3k(log₂N + 1) (Winnow)" in names and "bound: (4k+1)(N+1) (Perceptron)" in names
    w, p = ys(trace(f, "Winnow: mean")), ys(trace(f, "Perceptron: mean"))
    assert np.all(w <= ys(trace(f, "bound: 2 + 3k(log₂N + 1) (Winnow)")))
    assert np.all(p <= ys(trace(f, "bound: (4k+1)(N+1) (Perceptron)")))
    assert p[-1] > w[-1]                          # at N = 10^4 Winnow makes fewer mistakes


def test_controls_change_the_run():
    at = run_page(PAGE)
    at.select_slider(key="N").set_value(10000).run()
    at.slider(key="k").set_value(5).run()
    assert not at.exception and not at.error
    f = by_title(at, "Mistakes")
    b = ys(trace(f, "bound: 2 + 3k(log₂N + 1)"))[0]
    assert b == pytest.approx(2 + 15 * (np.log2(10000) + 1))
    assert ys(trace(f, "Winnow")).max() < b
    assert at.slider(key="t").value == 500          # 500 x 10^4 = 5 million cells: not cut
    at.select_slider(key="alpha").set_value(3.0).run()
    f = by_title(at, "Mistakes")
    gb = [t for t in bound_traces(f)]
    assert len(gb) == 1 and ys(gb[0]).max() > ys(trace(f, "Winnow")).max()
    at.button(key="t_reset").click().run()
    assert at.slider(key="t").value == 0
    at.button(key="t_next").click().run()
    assert at.slider(key="t").value >= 1
