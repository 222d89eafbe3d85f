"""The /online_svm page under AppTest: runs, reacts to its controls, and draws bounds that hold."""

import numpy as np
import pytest

from olcore.lessons import online_svm as lesson
from tests.helpers import assert_under_bound, bound_traces, by_title, figures, run_page, trace, ys

PAGE = "pages/online_svm.py"


def text(at):
    return " ".join(el.value for el in list(at.markdown) + list(at.caption) + list(at.latex) + list(at.info)
                    + list(at.warning))


def titles(at):
    return {f["layout"]["title"]["text"] for f in figures(at)}


def check_bounds(at):
    """Every curve drawn beside a bound stays under it, and every count chart draws its bounds."""
    assert not at.exception and not at.error, [e.value for e in at.error]
    up = by_title(at, "Updates against the bound")
    for b in bound_traces(up):
        assert_under_bound(trace(up, "ALMA's updates"), b)
    mis = by_title(at, "Mistakes against the bounds")
    for b in bound_traces(mis):
        owner = "2nd order" if "2nd order" in b["name"] else "Perceptron"
        assert_under_bound(trace(mis, owner), b, tol=1e-9)
    return figures(at)


@pytest.fixture(scope="module")
def default_page():
    return run_page(PAGE, query={"t": "3000", "ts": "30"})


def test_default_page_draws_alma_against_the_svm_and_every_bound_holds(default_page):
    at = default_page
    figs = check_bounds(at)
    assert {"Updates against the bound", "ALMA's margin against (1 − α)γ⋆", "Mistakes against the bounds",
            "Labels and mistakes", "Trading labels for mistakes", "The stream and the correlation matrix",
            "Queried points after round 30", "ALMA after round 3000"} <= titles(at)
    a = lesson.analyse_alma(lesson.separable_stream(60, 0.15, 0), 0.5, 50)
    up = by_title(at, "Updates against the bound")
    assert [b["name"] for b in bound_traces(up)] == ["bound: 2/γ⋆²·(2/α − 1)² + 8/α − 4"]
    assert ys(bound_traces(up)[0])[0] == pytest.approx(a.updates.value)
    assert ys(trace(up, "ALMA's updates"))[-1] == a.n_updates
    mg = by_title(at, "ALMA's margin against (1 − α)γ⋆")
    bound = trace(mg, "bound: (1 − α)γ⋆ (once a pass makes no update)")
    assert ys(bound)[0] == pytest.approx(0.5 * a.gamma)
    margin = ys(trace(mg, "ALMA's margin min_t y_t w·x̂_t/‖w‖"))
    assert margin[-1] >= ys(bound)[0]                         # after the last update pass: the guarantee
    plane = by_title(at, "ALMA after round 3000")
    assert trace(plane, "SVM hyperplane") and trace(plane, "ALMA's hyperplane")
    svm = trace(plane, "SVM hyperplane")
    dvec = np.array([svm["x"][1] - svm["x"][0], ys(svm)[1] - ys(svm)[0]])
    assert abs(dvec @ a.v_svm) < 1e-9 * np.linalg.norm(dvec)   # the line drawn is normal to v_SVM
    said = text(at)
    assert "follows the paper" in said and "Cesa-Bianchi, On-line learning" in said and "seeds/" not in said
    assert f"{a.n_updates} updates" in said
    md = next(m.value for m in at.markdown if "\n| Algorithm" in m.value)     # under its heading, one element
    table = md[md.index("| Algorithm"):]
    assert [row.split("|")[2].strip() for row in table.splitlines()[2:]] == ["U²", "U²", "d U ln U", "d² ln U",
                                                                               "d ln U", "d ln U"]
    assert len(figs) >= 8


def test_controls_change_the_run():
    at = run_page(PAGE, query={"t": "0", "ts": "0"})
    at.select_slider(key="alpha").set_value(0.9).run()
    at.slider(key="epochs").set_value(20).run()
    check_bounds(at)
    a = lesson.analyse_alma(lesson.separable_stream(60, 0.15, 0), 0.9, 20)
    assert ys(trace(by_title(at, "Updates against the bound"), "ALMA's updates"))[-1] == a.n_updates
    assert "ALMA after round 0" in titles(at)
    at.slider(key="T").set_value(100).run()
    at.slider(key="gamma").set_value(0.1).run()
    at.number_input(key="seed").set_value(2).run()
    check_bounds(at)
    at.select_slider(key="d").set_value(20).run()
    at.slider(key="rho").set_value(0.5).run()
    at.select_slider(key="a").set_value(10.0).run()
    check_bounds(at)
    assert "The stream and the correlation matrix" not in titles(at)            # no plane for d = 20
    b = lesson.analyse_second_order(lesson.correlated_stream(100, 20, 0.5, 0.1, 2), 10.0)
    mis = by_title(at, "Mistakes against the bounds")
    assert ys(trace(mis, "2nd order"))[-1] == b.sop.mistakes.sum()
    at.select_slider(key="c").set_value(1.0).run()
    s = lesson.analyse_selective(lesson.correlated_stream(100, 20, 0.5, 0.1, 2), 1.0, 10.0)
    lab = by_title(at, "Labels and mistakes")
    assert ys(trace(lab, "labels queried"))[-1] == s.labels[-1]
    assert ys(trace(lab, "mistakes (every label)"))[-1] == s.full.mistakes.sum()
    at.slider(key="t").set_value(5).run()
    at.button(key="t_next").click().run()                                         # the next ALMA update
    a = lesson.analyse_alma(lesson.separable_stream(100, 0.1, 2), 0.9, 20)
    upd = np.flatnonzero(a.trace.extras["updated"])
    assert at.slider(key="t").value == upd[upd >= 5][0] + 1


def test_presets_reproduce_their_claims():
    at = run_page(PAGE)
    box = at.selectbox(key="preset")
    box.set_value("Closer to the SVM: α = 0.3").run()
    check_bounds(at)
    a = lesson.analyse_alma(lesson.separable_stream(60, 0.15, 0), 0.3, 200)
    assert a.converged_pass is not None and a.final >= a.final_margin.value
    at.selectbox(key="preset").set_value("Second order pays: correlated features, d = 50").run()
    check_bounds(at)
    mis = by_title(at, "Mistakes against the bounds")
    assert ys(trace(mis, "2nd order"))[-1] < ys(trace(mis, "Perceptron"))[-1]
    at.selectbox(key="preset").set_value("Selective sampling: half the labels").run()
    lab = by_title(at, "Labels and mistakes")
    q = ys(trace(lab, "labels queried"))[-1]
    assert 0.4 * 500 <= q <= 0.6 * 500
    assert ys(trace(lab, "mistakes (selective)"))[-1] == ys(trace(lab, "mistakes (every label)"))[-1]
