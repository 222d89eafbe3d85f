"""Links to /wm_vs_hedge shared at 1bb337d (before the lesson kit) open the view they opened then.

One old link per URL key in use then: stream (radio "Noisy experts" / "WM adversary" / "Upload"),
n, T, best, seed, beta, rwm_eta, wa_loss, wa_eta, hedge_mult, heat and the player's t.
"""

import pytest

from tests.helpers import figures, run_page

PAGE = "pages/wm_vs_hedge.py"


DEFAULTS = {"stream": "Generated", "n": "10", "T": "500", "heat": "Hedge"}


def _ok(at, query=()):
    """No exception, no error, and no setting of the link reported as ignored (a value equal to the
    widget's default is dropped from the URL by Streamlit and may be listed; the view is the same)."""
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    notes = " ".join(w.value for w in at.warning if "This link had settings" in w.value)
    for key in query:
        assert f"“{key}\\=" not in notes or DEFAULTS.get(key) in notes, (key, notes)


def _title(at, prefix):
    for f in figures(at):
        text = f["layout"].get("title", {}).get("text", "")
        if text.startswith(prefix):
            return text
    pytest.fail(f"no figure titled {prefix!r}")


@pytest.mark.parametrize("old, new", [("Noisy experts", "Generated"), ("WM adversary", "WM adversary"),
                                      ("Upload", "Upload")])
def test_old_stream_values(old, new):
    at = run_page(PAGE, query={"stream": old})
    _ok(at, ["stream"])
    assert at.segmented_control(key="stream").value == new
    if new == "WM adversary":
        assert any("Exercise 3.1 on screen" in i.value for i in at.info)
    if new == "Upload":
        assert any("Upload a CSV" in i.value for i in at.info)


@pytest.mark.parametrize("key, value, widget, expected", [
    ("n", "30", "number_input", 30),
    ("T", "1000", "number_input", 1000),
    ("T", "1000.0", "number_input", 1000),
    ("best", "0.2", "slider", 0.2),
    ("seed", "7", "number_input", 7),
    ("beta", "0.5", "slider", 0.5),
    ("rwm_eta", "0.25", "slider", 0.25),
    ("wa_loss", "entropic", "selectbox", "entropic"),
    ("wa_eta", "1.0", "slider", 1.0),
    ("hedge_mult", "10.0", "select_slider", 10.0),
    ("heat", "WM", "radio", "WM"),
    ("t", "17", "slider", 17),
])
def test_old_keys_keep_their_widgets(key, value, widget, expected):
    at = run_page(PAGE, query={key: value})
    _ok(at, [key])
    assert getattr(at, widget)(key=key).value == pytest.approx(expected) if isinstance(expected, float) \
        else getattr(at, widget)(key=key).value == expected
    if key == "T":
        assert _title(at, "Weights after round") == "Weights after round 1000"
    if key == "heat":
        assert _title(at, "WM:").startswith("WM: normalised weights")
    if key == "beta":
        assert _title(at, "WM proof").startswith("WM proof (β = 0.5)")


def test_an_old_link_with_several_keys():
    at = run_page(PAGE, query={"stream": "Noisy experts", "n": "20", "T": "300", "beta": "0.2", "t": "40",
                               "hedge_mult": "2.0", "wa_loss": "entropic"})
    _ok(at, ["n", "T", "beta", "t", "hedge_mult", "wa_loss"])
    assert at.segmented_control(key="stream").value == "Generated"
    assert (at.number_input(key="n").value, at.number_input(key="T").value) == (20, 300)
    assert at.slider(key="t").value == 40 and at.select_slider(key="hedge_mult").value == 2.0
    assert _title(at, "Weights after round") == "Weights after round 40"
