"""The /halving page under AppTest: the lecture run, every stream source, bounds as traces."""

import math

import numpy as np
import pytest

from tests.helpers import assert_under_bound, bound_traces, figures, run_page, trace, ys

PAGE = "pages/halving.py"


LABELS = {"ucl": "Lecture run", "perfect": "Perfect expert", "adversary": "Adversary",
          "you": "You are the adversary", "upload": "Upload"}


def _open(stream, **numbers):
    at = run_page(PAGE)
    at.radio(key="stream").set_value(LABELS[stream]).run()
    for k, v in numbers.items():
        at.number_input(key=k).set_value(v).run()
    _no_errors(at)
    return at


def _no_errors(at):
    assert not at.exception, [e.message for e in at.exception]


def _check_bounds(at, n):
    figs = figures(at)
    assert len(figs) == 2
    vs, mist = figs
    assert all(bound_traces(f) for f in figs)                     # every chart has its bound
    assert_under_bound(trace(vs, "|C_t| (consistent experts)"), trace(vs, "bound: n / 2^M_t"))
    size = ys(trace(vs, "|C_t| (consistent experts)"))
    M = ys(trace(mist, "Halving's mistakes M_t"))
    log2n = ys(trace(mist, "bound: log₂ n"))
    assert np.allclose(log2n, math.log2(n))
    return size, M, log2n


def test_lecture_run_table_is_the_slide():
    at = _open("ucl")
    df = at.dataframe[0].value
    assert df.loc["round 1", ["ŷ", "y", "loss"]].tolist() == ["1", "0", "1"]
    assert df.loc["round 2", ["ŷ", "y", "loss"]].tolist() == ["1", "1", "0"]
    assert df.loc["round 3", ["ŷ", "y", "loss"]].tolist() == ["0", "1", "1"]
    assert df.loc["round 2", ["E1", "E2", "E5", "E6"]].tolist() == ["✗"] * 4
    assert df.loc["round 3", ["E3", "E4", "E7", "E8"]].tolist() == ["✗", "1", "0", "0"]
    assert df.loc["after round 3"].tolist()[:8] == ["✗", "✗", "✗", "✓", "✗", "✗", "✗", "✗"]
    size, M, _ = _check_bounds(at, 8)
    assert M[-1] == 2
    # scrub back to round 1: the table has one round and the marker moves
    at.slider(key="t").set_value(1).run()
    _no_errors(at)
    assert list(at.dataframe[0].value.index) == ["round 1", "after round 1"]


def test_perfect_expert_and_adversary_with_controls_changed():
    at = _open("perfect")
    at.number_input(key="n").set_value(100).run()
    at.number_input(key="T").set_value(80).run()
    at.slider(key="p").set_value(0.2).run()
    at.number_input(key="seed").set_value(5).run()
    _no_errors(at)
    _, M, log2n = _check_bounds(at, 100)
    assert M[-1] <= log2n[0]
    at.radio(key="stream").set_value(LABELS["adversary"]).run()
    at.number_input(key="n").set_value(1024).run()
    _no_errors(at)
    _, M, _ = _check_bounds(at, 1024)
    assert M[-1] == 10                                       # exactly floor(log2 1024)
    assert any("tight" in m.value for m in at.markdown)


def _advice(at):
    """The next round's advice as shown: {expert: 0/1} for the consistent experts."""
    md = next(m.value for m in at.markdown if "The experts advise" in m.value)
    cells = md.split("`")[1].split()
    return {c.split(":")[0]: int(c.split(":")[1]) for c in cells if not c.endswith("✗")}


def test_you_are_the_adversary_and_empty_version_space_is_explained():
    at = _open("you", n=4)
    assert not figures(at)                                   # nothing played yet
    # while two or more experts are consistent, any outcome keeps one: play 1, 0
    for key in ["you_y1", "you_y0"]:
        at.button(key=key).click().run()
        _no_errors(at)
    assert not at.warning
    # now one consistent expert is left: contradict it, and the version space empties
    alive = _advice(at)
    assert len(alive) == 1
    (only,) = alive.values()
    at.button(key=f"you_y{1 - only}").click().run()
    _no_errors(at)
    assert any("No expert is consistent" in w.value for w in at.warning)
    figs = figures(at)
    assert len(figs) == 2 and all(bound_traces(f) for f in figs)
    assert len(at.dataframe[0].value) == 4                   # three rounds and the final row
    at.button(key="you_undo").click().run()
    assert len(at.dataframe[0].value) == 3
    assert not at.warning


def test_upload_without_consistent_expert_is_explained_not_a_crash():
    at = _open("upload")
    _no_errors(at)
    assert any("Upload a CSV" in i.value for i in at.info)        # nothing uploaded yet: a prompt
    # three experts, each wrong once: the version space is empty after round 3
    csv = b"e1,e2,e3,y\n0,1,1,1\n1,0,1,1\n1,1,0,1\n1,1,1,1\n"
    at.file_uploader(key="halving_csv").set_value(("no_perfect.csv", csv, "text/csv")).run()
    _no_errors(at)
    assert not at.error, [e.value for e in at.error]
    assert not any("Upload a CSV" in i.value for i in at.info)
    assert any("No expert is consistent" in w.value and "round 3" in w.value for w in at.warning)
    figs = figures(at)
    assert len(figs) == 2 and all(bound_traces(f) for f in figs)
    # |C_t| = 3, 2, 1, 0, 0 (an empty version space is drawn at 0.5 on the log axis)
    assert ys(trace(figs[0], "|C_t| (consistent experts)")).tolist() == [3, 2, 1, 0.5, 0.5]
    # round 3: the one consistent expert says 0 and is wrong; round 4: 0 votes against 0, a tie, predicts 1
    assert ys(trace(figs[1], "Halving's mistakes M_t")).tolist()[-2:] == [1, 1]


def test_bad_upload_shows_an_error_and_keeps_the_page():
    at = _open("upload")
    at.file_uploader(key="halving_csv").set_value(("bad.csv", b"e1,e2,y\n0,2,1\n", "text/csv")).run()
    _no_errors(at)
    assert at.error and "bad.csv" in at.error[0].value
