"""The /mistakes_to_risk page under AppTest: runs, reacts to its controls, draws every bound as `bound: ...`."""

import numpy as np
import pytest

from olcore.lessons import mistakes_to_risk as lesson
from tests.helpers import assert_under_bound, bound_traces, by_title, figures, run_page, trace, ys

PAGE = "pages/mistakes_to_risk.py"
TITLES = {"Step 1: the ensemble's average risk against its mistakes", "The martingale and its Bernstein envelope",
          "Step 2: Ĥ minimises the penalised estimate", "Many samples: true risk over its bound"}


def text(at):
    return " ".join(el.value for el in list(at.markdown) + list(at.caption) + list(at.latex) + list(at.info))


def check(at):
    assert not at.exception and not at.error, [e.value for e in at.error]
    figs = figures(at)
    assert {f["layout"]["title"]["text"] for f in figs} == TITLES
    for f in figs:
        assert bound_traces(f), f["layout"]["title"]["text"]
    ens = by_title(at, "Step 1: the ensemble's average risk against its mistakes")
    avg = trace(ens, "average risk (1/t) Σ risk(H_{s−1})")
    assert_under_bound(avg, bound_traces(ens)[0], tol=1e-9)     # holds at every drawn t for these seeds
    mart = by_title(at, "The martingale and its Bernstein envelope")
    assert_under_bound(mart["data"][0], bound_traces(mart)[0], tol=1e-9)
    reps = by_title(at, "Many samples: true risk over its bound")
    for tr in reps["data"]:
        if not tr["name"].startswith("bound: "):
            assert np.all(ys(tr)[:-1] <= ys(tr)[1:])            # sorted ratios
    return figs


@pytest.fixture(scope="module")
def default_page():
    return run_page(PAGE, query={"t": 250})


def test_default_page(default_page):
    at = default_page
    check(at)
    a = lesson.analyse(lesson.make_stream("Label noise", 1000, 5, 0.1, 0), "Label noise", 5, 0.1, 0, "perceptron", 0.05)
    ch = by_title(at, "Step 2: Ĥ minimises the penalised estimate")
    star = next(tr for tr in ch["data"] if tr["name"].startswith("Ĥ = H_"))
    assert star["x"][0] == a.t_star and ys(star)[0] == pytest.approx(a.risk_chosen)
    assert ys(trace(ch, "bound: min_t (r̂_t + pen_t)"))[0] == pytest.approx(a.choice.bound)
    assert ys(star)[0] <= a.choice.bound
    body = text(at)
    assert f"M_n = {int(a.M[-1])}" in body and "Bernstein" in body and "held-out" in body
    assert "7L/3" in body                                          # the derivation is on the page
    ens = by_title(at, "Step 1: the ensemble's average risk against its mistakes")
    assert any(s.get("x0") == 250 for s in ens["layout"].get("shapes", []))     # the round marker


LABELS = {"learner": {"pa": "Passive-Aggressive (PA)"}}     # a selectbox with format_func: the URL holds the label


@pytest.mark.parametrize("changes", [
    {"learner": "pa"},
    {"delta": 0.2},
    {"stream": "Separable"},
    {"stream": "Overlapping classes", "noise": 0.2},
    {"n": 200, "d": 2},
    {"reps": 20},
])
def test_controls_change_the_run(changes):
    query = {k: LABELS.get(k, {}).get(v, str(v)) for k, v in changes.items()}
    at = run_page(PAGE, query={"t": 100, "reps": 20, **query})
    for k, v in changes.items():
        assert at.session_state[k] == v
    figs = check(at)
    ens = by_title(at, "Step 1: the ensemble's average risk against its mistakes")
    n = changes.get("n", 1000)
    assert len(ys(trace(ens, "fraction of mistakes M_t/t"))) == n
    assert figs


def test_widgets_drive_the_page():
    at = run_page(PAGE, query={"t": 10, "reps": 20, "n": 200})
    at.selectbox(key="learner").set_value("pa").run()
    check(at)
    at.select_slider(key="delta").set_value(0.5).run()
    check(at)
    assert "δ = 0.5" in text(at)


def test_overlapping_classes_without_noise_is_a_message_not_a_crash():
    at = run_page(PAGE, query={"stream": "Overlapping classes", "noise": "0.0", "reps": 20})
    assert not at.exception
    assert at.error and "noise" in at.error[0].value
