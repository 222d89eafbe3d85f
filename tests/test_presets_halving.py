"""Every lecture preset of /halving runs, shows its bound, and shows the claim its note makes."""

import math

import numpy as np
import pytest

from tests.helpers import bound_traces, choose_preset, figures, run_page, trace, ys, latex

PAGE = "pages/halving.py"
KEY = "preset"
NAMES = ["The lecture's 8-expert run", "The adversary: exactly ⌊log₂ n⌋ mistakes",
         "A thousand experts, one perfect", "You are the adversary (n = 8)"]


@pytest.fixture(scope="module")
def page():
    return run_page(PAGE)


def choose(at, name):
    choose_preset(at, KEY, name, cite="UCL COMP0078, Online learning")
    return at


def mistakes_and_bound(at, n):
    """Halving's final mistake count, after checking both charts carry their bounds and hold them."""
    vs, mist = figures(at)
    assert bound_traces(vs) and bound_traces(mist)
    assert np.all(ys(trace(vs, "|C| (consistent experts)")) <= ys(trace(vs, "bound: n / 2^M_t")) + 1e-9)
    assert np.allclose(ys(trace(mist, "bound: log₂ n")), math.log2(n))
    M = ys(trace(mist, "Halving's mistakes M_t"))
    assert M[-1] <= math.log2(n)
    return int(M[-1])


def test_every_preset_is_offered(page):
    assert page.selectbox(key=KEY).options[1:] == NAMES


def test_the_lecture_run_is_the_slide(page):
    page.slider(key="t").set_value(1).run()                    # a scrubbed player is reset by a preset
    at = choose(page, NAMES[0])
    assert at.button_group(key="stream").value == "Lecture run"
    assert at.slider(key="t").value == 3                       # the whole run, as on the slide
    df = at.dataframe[0].value
    assert df[["ŷ", "y", "loss"]].iloc[:3].values.tolist() == [["1", "0", "1"], ["1", "1", "0"], ["0", "1", "1"]]
    assert df.loc["round 1", [f"E{i}" for i in range(1, 9)]].tolist() == list("11001100")
    assert df.loc["after round 3"].tolist()[:8] == ["✗", "✗", "✗", "✓", "✗", "✗", "✗", "✗"]
    assert mistakes_and_bound(at, 8) == 2
    assert any(r"M = 2 \;\le\; \log_2 n = \log_2 8 = 3" in l.value for l in latex(at))


def test_the_adversary_makes_exactly_floor_log2_n_mistakes(page):
    at = choose(page, NAMES[1])
    assert at.number_input(key="n").value == 1024
    M = mistakes_and_bound(at, 1024)
    assert M == math.floor(math.log2(1024)) == 10
    mist = ys(trace(figures(at)[1], "Halving's mistakes M_t"))
    assert np.array_equal(mist[:10], np.arange(1, 11)) and np.all(mist[10:] == 10)   # every forced round errs
    assert any("tight" in m.value for m in at.markdown)


def test_a_thousand_experts(page):
    at = choose(page, NAMES[2])
    assert at.number_input(key="n").value == 1000 and at.number_input(key="T").value == 60
    M = mistakes_and_bound(at, 1000)
    assert M < math.log2(1000) / 2                             # far below the bound on random advice
    # the note's claim (REVIEW section 1): mistakes keep at most half, and rounds WITHOUT a mistake
    # cross out the wrong minority too; the caption gives this run's measured fractions
    vs, mist = figures(at)
    size = np.asarray(trace(vs, "|C| (consistent experts)")["customdata"], float)[:, 0]
    wrong = np.diff(np.concatenate([[0], ys(trace(mist, "Halving's mistakes M_t"))])) > 0
    kept = size[1:] / size[:-1]
    assert np.all(kept[wrong] <= 0.5) and np.any(kept[~wrong] < 1)
    note = next(i.value for i in at.info if NAMES[2] in i.value)
    assert "without a mistake" in note and "far more than half" not in note
    caption = next(c.value for c in at.caption if "kept" in c.value and "version space" in c.value)
    assert ", ".join(f"{k:.2f}" for k in kept[wrong]) in caption
    assert f"crossed out {int((size[:-1] - size[1:])[~wrong].sum())} more experts" in caption


def test_you_are_the_adversary(page):
    at = choose(page, NAMES[3])
    assert not figures(at)                                     # nothing played yet
    for _ in range(3):                                         # always contradict Halving's vote
        yhat = next(int(m.value.split("**ŷ = ")[1][0]) for m in at.markdown if "Halving predicts" in m.value)
        at.button(key=f"you_y{1 - yhat}").click().run()
        assert not at.exception
    assert mistakes_and_bound(at, 8) == 3                      # ⌊log₂ 8⌋ forced mistakes
    moves = at.query_params["moves"]
    moves = moves if isinstance(moves, str) else moves[0]
    assert len(moves) == 3 and set(moves) <= {"0", "1"}        # the game is in the link


def test_the_game_resumes_from_its_link():
    at = run_page(PAGE, query={"stream": "You are the adversary", "n": "8", "moves": "010"})
    assert len(at.dataframe[0].value) == 4                     # three rounds and the final row
    at = run_page(PAGE, query={"stream": "You are the adversary", "moves": "01x<script>"})
    assert any("is not a string of at most 2,000 outcomes 0 and 1" in w.value for w in at.warning)
    assert not figures(at)


def test_presenter_mode_shows_the_preset_note():
    at = run_page(PAGE, query={"present": "1", "stream": "Adversary", "n": "1024"})
    assert any(NAMES[1] in i.value for i in at.main.info)
