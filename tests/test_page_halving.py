"""The /halving page under AppTest: the lecture run, every stream source, bounds as traces."""

import math

import numpy as np

from tests.helpers import bound_traces, figures, run_page, trace, plain

PAGE = "pages/halving.py"
SIZE, CEILING, FLOOR = "|C| (consistent experts)", "bound: n / 2^M_t", "bound: |C| ≥ 1 (a consistent expert)"
MISTAKES = "Halving's mistakes M_t"

LABELS = {"ucl": "Lecture run", "perfect": "Perfect expert", "adversary": "Adversary",
          "you": "You are the adversary", "upload": "Upload"}


def _open(stream, **numbers):
    at = run_page(PAGE)
    at.button_group(key="stream").set_value(LABELS[stream]).run()
    for k, v in numbers.items():
        at.number_input(key=k).set_value(v).run()
    _no_errors(at)
    return at


def _no_errors(at):
    assert not at.exception, [e.message for e in at.exception]


def _check_bounds(at, n, consistent=True):
    """Both charts carry their bounds and the drawn curves stay under them; returns the curves."""
    figs = figures(at)
    assert len(figs) == 2
    vs, mist = figs
    assert all(bound_traces(f) for f in figs)                     # every chart has its bound
    size = np.asarray(trace(vs, SIZE)["customdata"], float)[:, 0]  # exact sizes (the line floors 0 at 0.5)
    ceiling = np.asarray(trace(vs, CEILING)["y"], float)
    assert np.all(size <= ceiling + 1e-9)
    assert np.allclose(ceiling, n / 2.0 ** np.asarray(trace(vs, SIZE)["customdata"], float)[:, 1])
    M = np.asarray(trace(mist, MISTAKES)["y"], float)
    name = "bound: log₂ n" if consistent else "bound: log₂ n (needs a consistent expert)"
    log2n = np.asarray(trace(mist, name)["y"], float)
    assert np.allclose(log2n, math.log2(n))
    if consistent:
        assert np.all(size >= 1) and np.allclose(trace(vs, FLOOR)["y"], 1)
        assert np.all(M <= log2n[0] + 1e-12)
    return size, M, log2n


def test_controls_sit_in_the_settings_box_with_the_preset_first():
    at = run_page(PAGE)
    assert at.button_group(key="stream").value == "Perfect expert"           # the default source, as before
    assert at.button_group(key="stream").options == [*LABELS.values()]
    assert at.selectbox(key="preset").label == "Lecture preset"
    for key in ("n", "T", "extra", "seed"):                                   # whole numbers as integer widgets
        assert isinstance(at.number_input(key=key).value, int), key


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
    assert M[-1] == 2 and size.tolist() == [8, 4, 3, 1]
    proof = at.dataframe[1].value                                         # the per-mistake table
    assert proof["round"].tolist() == [1, 3] and proof["after / before"].tolist() == ["0.500", "0.333"]
    # scrub back to round 1: the table has one round, the proof one mistake, the marker moves
    at.slider(key="t").set_value(1).run()
    _no_errors(at)
    assert list(at.dataframe[0].value.index) == ["round 1", "after round 1"]
    assert at.dataframe[1].value["round"].tolist() == [1]
    assert all(f["layout"]["annotations"][-1]["text"] == "t = 1" for f in figures(at))


def test_perfect_expert_and_adversary_with_controls_changed():
    at = _open("perfect")
    at.number_input(key="n").set_value(100).run()
    at.number_input(key="T").set_value(80).run()
    at.slider(key="p").set_value(0.2).run()
    at.number_input(key="seed").set_value(5).run()
    _no_errors(at)
    _, M, log2n = _check_bounds(at, 100)
    assert M[-1] <= log2n[0] and len(M) == 80
    at.button_group(key="stream").set_value(LABELS["adversary"]).run()
    at.number_input(key="n").set_value(1024).run()
    _no_errors(at)
    _, M, _ = _check_bounds(at, 1024)
    assert M[-1] == 10                                       # exactly floor(log2 1024)
    assert any("tight" in m.value for m in at.markdown)
    assert at.number_input(key="T").disabled and not at.number_input(key="extra").disabled


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
    assert any("does not apply" in w.value for w in at.warning)            # the theorem box says so
    _check_bounds(at, 4, consistent=False)
    assert len(at.dataframe[0].value) == 4                   # three rounds and the final row
    at.button(key="you_undo").click().run()
    assert len(at.dataframe[0].value) == 3
    assert not at.warning
    at.button(key="you_reset").click().run()
    assert not figures(at) and any("No round played yet" in i.value for i in at.info)


def test_upload_asks_for_a_file_and_runs_one_without_a_consistent_expert():
    at = _open("upload")
    _no_errors(at)
    assert any("Upload a CSV" in i.value for i in at.info)
    assert not figures(at)
    # an uploaded stream where every expert errs: the run is drawn and the theorem is said not to apply
    from olcore import streams
    from olcore.lessons import halving
    s = streams.from_arrays("experts", np.array([[1, 0, 1], [1, 0, 0], [0, 1, 0], [0, 0, 0]]),
                            np.array([1, 0, 0, 1]), {})
    at.session_state["_halving_upload_stream"] = s                # what controls.csv_upload keeps for a valid file
    at.run()
    _no_errors(at)
    a = halving.analyse(s)
    assert not a.bound.applies
    size, M, _ = _check_bounds(at, 3, consistent=False)
    assert size.tolist() == a.sizes.tolist() and M.tolist() == a.cum_mistakes.tolist()
    assert any("No expert is consistent" in w.value for w in at.warning)


def test_a_real_csv_upload_without_a_consistent_expert_is_explained_not_a_crash():
    at = _open("upload")
    # three experts, each wrong once: the version space is empty after round 3
    csv = b"e1,e2,e3,y\n0,1,1,1\n1,0,1,1\n1,1,0,1\n1,1,1,1\n"
    at.file_uploader(key="halving_upload").set_value(("no_perfect.csv", csv, "text/csv")).run()
    _no_errors(at)
    assert not at.error, [e.value for e in at.error]
    assert not any("Upload a CSV" in i.value for i in at.info)
    assert any("No expert is consistent" in w.value and "round 3" in w.value for w in at.warning)
    size, M, _ = _check_bounds(at, 3, consistent=False)
    assert size.tolist() == [3, 2, 1, 0, 0]
    # round 3: the one consistent expert says 0 and is wrong; round 4: 0 votes against 0, a tie, predicts 1
    assert M.tolist()[-2:] == [1, 1]


def test_a_bad_upload_shows_an_error_and_keeps_the_page():
    at = _open("upload")
    at.file_uploader(key="halving_upload").set_value(("bad.csv", b"e1,e2,y\n0,2,1\n", "text/csv")).run()
    _no_errors(at)
    assert at.error and "bad.csv" in plain(at.error[0].value)
    assert at.button_group(key="stream").value == "Upload"            # the choice is kept
