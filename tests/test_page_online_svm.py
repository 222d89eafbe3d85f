"""The /online_svm page under AppTest: runs, reacts to its controls, and draws bounds that hold."""

import numpy as np
import pytest

from olapp.content import online_svm as words
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
    shown = titles(at)
    if "Updates against the bound" in shown:
        up = by_title(at, "Updates against the bound")
        for b in bound_traces(up):
            assert_under_bound(trace(up, "ALMA's updates"), b)
    if "Mistakes against the bounds" in shown:
        mis = by_title(at, "Mistakes against the bounds")
        for b in bound_traces(mis):
            owner = "2nd order" if "2nd order" in b["name"] else "Perceptron"
            assert_under_bound(trace(mis, owner), b, tol=1e-9)
    return figures(at)


#: Each part's charts (one part is drawn at a time, URL key ``part``; ALMA by default).
PART_TITLES = {
    words.PART_ALMA: {"Updates against the bound", "ALMA's margin against (1 − α)γ⋆", "ALMA after round 3000"},
    words.PART_SOP: {"Mistakes against the bounds", "The stream and the correlation matrix"},
    words.PART_SEL: {"Labels and mistakes", "Trading labels for mistakes", "Queried points after round 30"},
}


def _part(at, part):
    at.segmented_control(key="part").set_value(part).run()
    assert not at.exception and at.segmented_control(key="part").value == part
    return at


@pytest.fixture(scope="module")
def default_page():
    return run_page(PAGE, query={"t": "3000"})


@pytest.mark.parametrize("part", list(PART_TITLES))
def test_each_part_draws_its_charts_alone_and_every_bound_holds(part):
    at = run_page(PAGE, query={"t": "3000", "ts": "30", "part": part})
    check_bounds(at)
    shown = titles(at)
    for other, want in PART_TITLES.items():
        assert (want <= shown) == (other == part) and (not want & shown) == (other != part), (part, shown)
    assert len(at.get("plotly_chart")) == len(PART_TITLES[part])


@pytest.mark.parametrize("query, part", [({}, words.PART_ALMA), ({"ts": "30"}, words.PART_SEL),
                                         ({"c": "1.0"}, words.PART_SEL), ({"d": "20"}, words.PART_SOP),
                                         ({"d": "20", "c": "1.0"}, words.PART_ALMA),
                                         ({"c": "1.0", "part": words.PART_SOP}, words.PART_SOP)])
def test_a_link_from_before_the_parts_opens_the_part_of_its_settings(query, part):
    at = run_page(PAGE, query=query)
    assert at.segmented_control(key="part").value == part
    assert not at.warning, [w.value for w in at.warning]


def test_default_page_draws_alma_against_the_svm_and_every_bound_holds(default_page):
    at = default_page
    figs = check_bounds(at)
    assert PART_TITLES[words.PART_ALMA] <= titles(at)
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
    assert len(figs) == 3
    at = _part(at, words.PART_SOP)
    md = next(m.value for m in at.markdown if "\n| Algorithm" in m.value)     # under its heading, one element
    table = md[md.index("| Algorithm"):]
    assert [row.split("|")[2].strip() for row in table.splitlines()[2:]] == ["U²", "U²", "d U ln U", "d² ln U",
                                                                               "d ln U", "d ln U"]


def test_controls_change_the_run():
    at = run_page(PAGE, query={"t": "0", "ts": "0", "part": words.PART_ALMA})
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
    at = _part(at, words.PART_SOP)
    at.select_slider(key="d").set_value(20).run()
    at.slider(key="rho").set_value(0.5).run()
    at.select_slider(key="a").set_value(10.0).run()
    check_bounds(at)
    assert "The stream and the correlation matrix" not in titles(at)            # no plane for d = 20
    b = lesson.analyse_second_order(lesson.correlated_stream(100, 20, 0.5, 0.1, 2), 10.0)
    mis = by_title(at, "Mistakes against the bounds")
    assert ys(trace(mis, "2nd order"))[-1] == b.sop.mistakes.sum()
    at = _part(at, words.PART_SEL)
    assert at.select_slider(key="d").value == 20 and at.select_slider(key="a").value == 10.0   # the same stream
    at.select_slider(key="c").set_value(1.0).run()
    s = lesson.analyse_selective(lesson.correlated_stream(100, 20, 0.5, 0.1, 2), 1.0, 10.0)
    lab = by_title(at, "Labels and mistakes")
    assert ys(trace(lab, "labels queried"))[-1] == s.labels[-1]
    assert ys(trace(lab, "mistakes (every label)"))[-1] == s.full.mistakes.sum()
    at = _part(at, words.PART_ALMA)
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
    assert at.segmented_control(key="part").value == words.PART_SOP          # the preset opens its part
    check_bounds(at)
    mis = by_title(at, "Mistakes against the bounds")
    assert ys(trace(mis, "2nd order"))[-1] < ys(trace(mis, "Perceptron"))[-1]
    at.selectbox(key="preset").set_value("Selective sampling: half the labels").run()
    assert at.segmented_control(key="part").value == words.PART_SEL
    lab = by_title(at, "Labels and mistakes")
    q = ys(trace(lab, "labels queried"))[-1]
    assert 0.4 * 500 <= q <= 0.6 * 500
    assert ys(trace(lab, "mistakes (selective)"))[-1] == ys(trace(lab, "mistakes (every label)"))[-1]


def test_alpha_1_is_named_for_what_alma_does_and_the_plane_crosses_the_points_that_would_update():
    # A link of the old preset (its values, not its name, are in the URL) opens the renamed preset.
    at = run_page(PAGE, query={"alpha": "1.0", "t": "1", "part": words.PART_ALMA}).run()
    assert at.selectbox(key="preset").value == "α = 1: ALMA updates only on mistakes"
    said = text(at)
    assert "normalised Perceptron" not in said
    assert "8 of the 60 points would" in said and "the blue band is where a point would trigger" not in said
    plane = by_title(at, "ALMA after round 1")
    names = [tr.get("name") for tr in plane["data"]]
    assert "would update now" in names and "ALMA's update band" not in names         # no band at α = 1
    crossed = trace(plane, "would update now")
    assert len(crossed["x"]) == 8
    a = lesson.analyse_alma(lesson.separable_stream(60, 0.15, 0), 1.0, 50)
    w = a.trace.weights_at(1)
    wrong = a.y * (a.Xh @ w) <= 0
    np.testing.assert_allclose(np.asarray(crossed["x"], float), a.Xh[wrong, 0])
    at = run_page(PAGE, query={"scene": "5"})
    assert "normalised Perceptron" not in text(at)


def test_the_table_marks_hildreths_bound_exact_with_its_measured_mistakes():
    at = run_page(PAGE, query={"part": words.PART_SOP})
    md = next(m.value for m in at.markdown if "\n| Algorithm" in m.value)
    row = next(r for r in md.splitlines() if r.startswith("| Hildreth |"))
    cells = [c.strip() for c in row.split("|")[1:-1]]
    b = lesson.analyse_second_order(lesson.correlated_stream(60, 2, 0.9, 0.15, 0), 1.0)
    assert not cells[2].startswith("O(") and float(cells[2]) == pytest.approx(b.U ** 2, rel=1e-3)
    assert int(cells[4]) == b.hildreth.mistakes.sum() <= b.U ** 2
    assert "Only the Perceptron's U²" not in text(at) and "Hildreth's U²" in text(at)
