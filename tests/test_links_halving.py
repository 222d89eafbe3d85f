"""Links to /halving shared at 1bb337d (before the lesson kit) still open the view they opened then.

One old link per URL key in use then: ``stream``, ``n``, ``T``, ``p``, ``extra``, ``seed`` (widgets
bound to the URL), ``t`` (the round player) and ``moves`` (the "you are the adversary" game).
"""

import numpy as np
import pytest

from tests.helpers import figures, run_page, trace
from olcore import experts, streams

PAGE = "pages/halving.py"


def mistakes(at):
    return np.asarray(trace(figures(at)[1], "Halving's mistakes M_t")["y"], float)


def no_note(at):
    assert not [w for w in at.warning if "This link had settings" in w.value], [w.value for w in at.warning]


def test_old_link_n_T_p_seed_opens_the_same_perfect_expert_run():
    # (a link made by the app never carries a default value: Streamlit leaves it out, so no stream= here)
    at = run_page(PAGE, query={"n": "30", "T": "25", "p": "0.25", "seed": "7"})
    no_note(at)
    assert at.button_group(key="stream").value == "Perfect expert"
    assert (at.number_input(key="n").value, at.number_input(key="T").value) == (30, 25)
    assert at.slider(key="p").value == 0.25 and at.number_input(key="seed").value == 7
    s = streams.perfect_expert(T=25, n=30, seed=7, p_wrong=0.25)        # what 1bb337d drew for this link
    assert mistakes(at).tolist() == np.cumsum(experts.halving(s.X, s.y).mistakes).tolist()


def test_old_link_adversary_with_extra_rounds():
    at = run_page(PAGE, query={"stream": "Adversary", "n": "64", "extra": "3"})
    no_note(at)
    assert at.button_group(key="stream").value == "Adversary" and at.number_input(key="extra").value == 3
    M = mistakes(at)
    assert len(M) == 6 + 3 and M[-1] == 6                                 # ⌊log₂ 64⌋ forced, then 3 more rounds


def test_old_link_lecture_run_at_round_t():
    at = run_page(PAGE, query={"stream": "Lecture run", "t": "2"})
    no_note(at)
    assert at.slider(key="t").value == 2
    assert list(at.dataframe[0].value.index) == ["round 1", "round 2", "after round 2"]


def test_old_link_game_resumes_from_moves():
    at = run_page(PAGE, query={"stream": "You are the adversary", "n": "8", "moves": "010"})
    no_note(at)
    assert at.button_group(key="stream").value == "You are the adversary"
    assert len(at.dataframe[0].value) == 4                                # three rounds and the final row
    assert at.dataframe[0].value["y"].tolist()[:3] == ["0", "1", "0"]
    assert any("Round 4: you choose the outcome" in h.value for h in at.subheader)


def test_old_link_upload_and_whole_numbers_written_as_floats():
    at = run_page(PAGE, query={"stream": "Upload"})
    assert any("Upload a CSV" in i.value for i in at.info)
    at = run_page(PAGE, query={"n": "30.0", "T": "25.0", "extra": "2.0"})   # int_keys: read as whole numbers
    no_note(at)
    assert (at.number_input(key="n").value, at.number_input(key="T").value,
            at.number_input(key="extra").value) == (30, 25, 2)


def _link_warnings(at) -> list[str]:
    return [w.value for w in at.warning if "do not fit" in w.value or "new game" in w.value]


@pytest.mark.parametrize("played", [65, 400, 2000])
def test_a_long_game_link_resumes_with_every_move(played):
    moves = "".join("01"[(i * 7 + i // 3) % 2] for i in range(played))
    at = run_page(PAGE, query={"stream": "You are the adversary", "n": "8", "moves": moves})
    assert not at.exception, [e.message for e in at.exception]
    assert at.query_params["moves"] == moves
    assert not _link_warnings(at), _link_warnings(at)
    assert any(s.value.startswith(f"Round {played + 1}:") for s in at.subheader)
    reveal = at.button(key="you_y0")
    assert reveal.disabled == (played >= 2000)
    if played < 2000:
        reveal.click().run()
        assert at.query_params["moves"] == moves + "0"
        assert not _link_warnings(at), _link_warnings(at)


def test_a_crafted_moves_value_is_shown_inert():
    at = run_page(PAGE, query={"stream": "You are the adversary", "n": "8", "moves": "01`[x](http://evil.test)"})
    assert not at.exception
    shown = [w.value for w in at.warning if "new game" in w.value]
    assert len(shown) == 1 and "](http" not in shown[0] and "`" not in shown[0].replace("\\`", ""), shown
