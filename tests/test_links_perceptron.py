"""Links to /perceptron shared before the lesson kit (commit 1bb337d) open the view they opened then.

At 1bb337d the page read ?source= (Generated / Typed / Uploaded), ?n= (points), ?gamma=, ?noise=,
?seed=, ?epochs=, ?t= (the player), ?C= and ?eta=.  Today the source is ?stream= (with "Upload")
and the number of rounds ?T=; every other key is unchanged.
"""

import numpy as np
import pytest

from tests.helpers import by_title, run_page, trace, ys

PAGE = "pages/perceptron.py"


def stream_choice(at):
    """The value of the stream source (a segmented control, under the URL key ``stream``)."""
    return at.button_group(key="stream").value


def no_link_warning(at):
    assert not [w.value for w in at.warning if "This link had settings" in w.value]


def test_old_source_uploaded_opens_the_upload():
    at = run_page(PAGE, query={"source": "Uploaded"})
    assert stream_choice(at) == "Upload"
    assert "source" not in at.query_params
    assert any("Upload a CSV" in i.value for i in at.info)
    assert at.main.get("file_uploader")
    no_link_warning(at)


def test_old_source_typed_opens_the_typed_points():
    at = run_page(PAGE, query={"source": "Typed"})
    m = by_title(at, "Mistakes")
    assert np.asarray(trace(m, "Perceptron")["x"])[-1] == 6          # the six typed rows
    assert stream_choice(at) == "Typed"
    assert not [s for s in at.slider if s.key == "T"]
    no_link_warning(at)


def test_old_generated_link_with_every_key():
    # Streamlit writes no default value into a link (source=Generated never appears in one)
    q = {"n": "100", "gamma": "0.3", "noise": "0.05", "seed": "5", "epochs": "2",
         "t": "37", "C": "0.1", "eta": "1.0"}
    at = run_page(PAGE, query=q)
    assert at.slider(key="T").value == 100                          # ?n= is read as ?T=
    assert at.slider(key="gamma").value == pytest.approx(0.3)
    assert at.slider(key="noise").value == pytest.approx(0.05)
    assert at.number_input(key="seed").value == 5
    assert at.slider(key="epochs").value == 2
    assert at.slider(key="t").value == 37
    assert at.select_slider(key="C").value == pytest.approx(0.1)
    assert at.select_slider(key="eta").value == pytest.approx(1.0)
    assert any("After **37** of 200 rounds" in m.value for m in at.markdown)
    assert stream_choice(at) == "Generated"
    assert "n" not in at.query_params and "source" not in at.query_params
    no_link_warning(at)


@pytest.mark.parametrize("key,value,widget,expected", [
    ("n", "500", "slider", 500), ("gamma", "0.05", "slider", 0.05), ("noise", "0.1", "slider", 0.1),
    ("epochs", "3", "slider", 3), ("C", "3.0", "select_slider", 3.0), ("eta", "0.01", "select_slider", 0.01),
])
def test_each_old_key_alone(key, value, widget, expected):
    at = run_page(PAGE, query={key: value})
    new = "T" if key == "n" else key
    assert getattr(at, widget)(key=new).value == pytest.approx(expected)
    no_link_warning(at)


def test_old_seed_and_round():
    at = run_page(PAGE, query={"seed": "7", "t": "20"})
    assert at.number_input(key="seed").value == 7 and at.slider(key="t").value == 20
    m = by_title(at, "Mistakes")
    assert ys(trace(m, "bound: (R/γ)²"))[0] == pytest.approx((1 / 0.15) ** 2)
    no_link_warning(at)
