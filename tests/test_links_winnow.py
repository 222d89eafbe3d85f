"""Links to /winnow shared at 1bb337d (before the lesson kit) still open the view they opened then.

URL keys then: source (Generated / Uploaded), N, k, T, alpha, seed (seed_input), sweep_seeds, and the
player's t. Today ``source`` is read as ``stream`` ("Uploaded" as "Upload"); the others are unchanged.
"""

import numpy as np
import pytest

from tests.helpers import by_title, run_page, trace, ys
from olcore import bounds
from olcore.lessons import winnow as lesson

PAGE = "pages/winnow.py"


def open_link(query):
    at = run_page(PAGE, query=query)
    assert not at.error, [e.value for e in at.error]
    assert not any("do not fit this page" in w.value for w in at.warning), [w.value for w in at.warning]
    return at


def source(at):
    return at.get("button_group")[0].value


def test_old_source_uploaded_opens_the_upload():
    at = open_link({"source": "Uploaded"})
    assert source(at) == "Upload"
    assert any("Upload a CSV stream" in i.value for i in at.info)
    assert at.query_params.get("stream") in ("Upload", ["Upload"]) and "source" not in at.query_params


def test_old_source_generated_with_settings_opens_that_stream():
    at = run_page(PAGE, query={"source": "Generated", "N": "1000", "k": "5"})
    assert source(at) == "Generated"
    assert at.select_slider(key="N").value == 1000 and at.slider(key="k").value == 5
    b = ys(trace(by_title(at, "Mistakes"), "bound: 2 + 3k(log₂N + 1)"))[0]
    assert b == pytest.approx(bounds.winnow(5, 1000))


@pytest.mark.parametrize("key,value,widget,expected", [
    ("N", "1000", "select_slider", 1000),
    ("k", "7", "slider", 7),
    ("T", "800", "slider", 800),
    ("T", "800.0", "slider", 800),            # a whole number written as a float
    ("alpha", "3.0", "select_slider", 3.0),
    ("alpha", "1.5", "select_slider", 1.5),
    ("sweep_seeds", "3", "slider", 3),
])
def test_old_setting_keys_set_the_same_widget(key, value, widget, expected):
    at = open_link({key: value})
    assert getattr(at, widget)(key=key).value == expected


def test_old_seed_draws_the_same_stream():
    at = open_link({"seed": "7", "N": "200"})
    assert at.number_input(key="seed").value == 7
    a = lesson.analyse(lesson.make_stream(500, 200, 3, 7), 2.0)
    f = by_title(at, "Winnow's weights")
    names = [t["name"] for t in f["data"] if str(t.get("name", "")).startswith("relevant x")]
    assert names == [f"relevant x{int(r) + 1}" for r in a.relevant]
    assert ys(trace(by_title(at, "Mistakes"), "Winnow"))[-1] == a.n_mistakes


def test_old_round_t_opens_that_round():
    at = open_link({"t": "40", "N": "200"})
    assert at.slider(key="t").value == 40
    f = by_title(at, "Mistakes")
    assert any(s.get("x0") == 40 for s in f["layout"].get("shapes", []))
    assert any("After **40** of 500 rounds" in m.value for m in at.markdown)
    assert np.max(by_title(at, "Winnow's weights")["data"][-1]["x"]) == 40
