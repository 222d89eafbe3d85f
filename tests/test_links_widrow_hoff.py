"""Links to /widrow_hoff shared at 1bb337d still open the view they opened then.

At 1bb337d the page bound these URL keys: src (Synthetic / Upload CSV), d and T (float inputs, so
links carried ``d=10.0``, ``T=1000.0``), noise, norm_u, seed, rescale, eta, t (the player), m_max,
repeats, eg_n, eg_eta.  Today ``src`` reads as ``stream`` (Generated / Upload) and d, T are integers.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import figures, run_page, trace

PAGE = "pages/widrow_hoff.py"


def fig(at, prefix: str) -> dict:
    for f in figures(at):
        if f["layout"].get("title", {}).get("text", "").startswith(prefix):
            return f
    pytest.fail(f"no figure titled {prefix!r}...")


def test_old_src_synthetic_opens_the_generated_stream():
    at = run_page(PAGE, query={"src": "Synthetic"})
    assert at.get("button_group")[0].value == ["Generated"] or at.query_params.get("stream") in ("Generated", None)
    assert "src" not in at.query_params
    assert not at.number_input(key="d").disabled
    assert len(trace(fig(at, "Cumulative square loss"), "Widrow-Hoff L_WH(t)")["y"]) == 200


def test_old_src_upload_csv_opens_the_upload():
    at = run_page(PAGE, query={"src": "Upload CSV"})
    assert at.query_params.get("stream") == "Upload" and "src" not in at.query_params
    assert any("Upload a CSV" in i.value for i in at.info)
    assert at.file_uploader


@pytest.mark.parametrize("key,old,new", [("d", "10.0", 10), ("T", "1000.0", 1000)])
def test_old_float_whole_numbers_open_as_integers(key, old, new):
    at = run_page(PAGE, query={key: old})
    v = at.number_input(key=key).value
    assert isinstance(v, int) and v == new
    assert not at.warning                              # nothing reported as ignored
    if key == "d":
        assert fig(at, "Weights over rounds (4 of 10")
    else:
        assert len(trace(fig(at, "Cumulative square loss"), "Widrow-Hoff L_WH(t)")["y"]) == 1000


def test_old_links_with_every_other_key():
    # (links carry no default values: Streamlit strips them, so src=Synthetic and d=2.0 are left out)
    q = {"T": "300.0", "noise": "0.8", "norm_u": "3.0", "seed": "3", "eta": "0.35",
         "t": "10", "m_max": "100", "repeats": "20", "eg_n": "300", "eg_eta": "2.0"}
    at = run_page(PAGE, query=q)
    assert not at.warning, [w.value for w in at.warning]
    assert at.number_input(key="noise").value == pytest.approx(0.8)
    assert at.number_input(key="norm_u").value == pytest.approx(3.0)
    assert at.number_input(key="seed").value == 3
    assert at.slider(key="eta").value == pytest.approx(0.35)
    assert at.slider(key="t").value == 10
    assert fig(at, "Weight plane after 10 round")
    assert at.select_slider(key="m_max").value == 100 and at.select_slider(key="repeats").value == 20
    o2b = fig(at, "Online-to-batch")
    assert np.asarray(trace(o2b, "averaged v = (1/m) Σ w_t  (mean risk)")["x"], float)[-1] == 100
    # section 6 now draws one topic at a time: this link carries two topics' settings, so the first opens,
    # and the other's settings wait in the link for its topic
    assert at.segmented_control(key="further").value == "Online to batch"
    assert at.query_params["eg_n"] == "300" and at.query_params["eg_eta"] == "2.0"
    at.segmented_control(key="further").set_value("Exponentiated gradient").run()
    assert at.select_slider(key="eg_n").value == 300 and at.select_slider(key="eg_eta").value == 2.0
    assert any("of the 300 features" in c.value for c in at.caption)


def _csv(X, y) -> bytes:
    rows = ["x1,x2,y"] + [f"{a:.10g},{b:.10g},{c:.10g}" for (a, b), c in zip(X, y)]
    return ("\n".join(rows) + "\n").encode()


def test_old_rescale_key_still_reads():
    at = run_page(PAGE, query={"src": "Upload CSV", "rescale": "false"})
    rng = np.random.default_rng(1)
    X = rng.uniform(-3, 3, size=(60, 2))
    at.file_uploader[0].set_value(("big.csv", _csv(X, X @ np.array([1.0, -0.5])), "text/csv")).run()
    assert not at.exception
    assert at.toggle(key="rescale").value is False
    assert any("The theorem does not apply" in w.value for w in at.warning)
