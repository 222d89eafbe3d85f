"""Lecture mode (olapp/lecture.py) on every lesson that has a LECTURE, driven by the registry.

Every scene opens from its link (``?scene=k``) without an exception, shows the lecture bar and
applies its settings and round; every question holds the player until it is answered, and its
reveal shows the answer that olcore computes for the scene's run, rebuilt here from the page's
settings by the lesson's own analysis (:data:`ORACLES`), right for the right prediction and wrong
for a wrong one.
"""

from __future__ import annotations

import pytest

from olapp import lecture, registry
from olapp.controls import END_OF_RUN
from olapp.content import halving as halving_text
from olapp.content import kernel_perceptron as kernel_text
from olapp.content import ogd as ogd_text
from olapp.content import wm_vs_hedge as wm_text
from olcore import streams
from olcore.lessons import (halving, kernel_perceptron, mistakes_to_risk, ogd, online_svm, perceptron, widrow_hoff,
                            winnow, wm_vs_hedge)
from tests.helpers import run_page

#: The scene's run rebuilt from the page's settings (session state), independently of the page.
ORACLES = {
    "halving": lambda ss: halving.analyse(halving.make_stream(
        halving_text.CODES[ss["stream"]], ss["n"], ss["T"], ss["p"], ss["extra"], ss["seed"])),
    "perceptron": lambda ss: perceptron.analyse(perceptron.generated_stream(
        ss["T"], ss["gamma"], ss["noise"], ss["seed"]), ss["epochs"], ss["stream"]),
    "ogd": lambda ss: ogd.analyse(ogd.make_stream(ss["stream"], ss["T"], ss["noise"] if "noise" in ss else None,
                                                  ss["seed"], ss["d"]),
                                  ss["loss"], ss["domain"], float(ss["radius"]), None, ogd_text.PREFIX_POINTS,
                                  float(ss["eta_mult"])),
    "kernel_perceptron": lambda ss: kernel_perceptron.budget_run(
        kernel_perceptron.make_stream(ss["stream"], ss["T"], ss["seed"]), int(ss["B"]), ss["seed"],
        kernel_text.KERNELS[ss["kernel"]], float(ss["rbf_gamma"]), int(ss["degree"]), float(ss["coef0"])),
    "online_svm": lambda ss: online_svm.analyse_alma(online_svm.separable_stream(
        int(ss["T"]), float(ss["gamma"]), int(ss["seed"])), float(ss["alpha"]), int(ss["epochs"])),
    "mistakes_to_risk": lambda ss: mistakes_to_risk.analyse(mistakes_to_risk.make_stream(
        ss["stream"], ss["n"], ss["d"], ss["noise"], ss["seed"]), ss["stream"], ss["d"], ss["noise"], ss["seed"],
        ss["learner"], float(ss["delta"])),
    "wm_vs_hedge": lambda ss: wm_vs_hedge.analyse(wm_vs_hedge.make_stream(
        wm_text.SOURCE_KIND[ss["stream"]], ss["T"], ss["n"], ss["best"], ss["beta"], ss["seed"]),
        ss["beta"], ss["rwm_eta"], ss["wa_loss"], ss["wa_eta"], ss["hedge_mult"], ss["seed"], ss["rwm_tuned"]),
    "winnow": lambda ss: winnow.analyse(winnow.make_stream(ss["T"], ss["N"], ss["k"], ss["seed"]), ss["alpha"]),
    "widrow_hoff": lambda ss: widrow_hoff.analyse(streams.regression(
        T=int(ss["T"]), d=int(ss["d"]), seed=int(ss["seed"]), noise=float(ss["noise"]), norm_u=float(ss["norm_u"])),
        float(ss["eta"]), True),   # a generated stream lies in the unit ball: nothing to rescale
}
WITH_LECTURE = [e for e in registry.lessons() if e.lecture]
SCENES = [(e, k) for e in WITH_LECTURE for k in range(1, len(e.lecture) + 1)]
QUESTIONS = [(e, k) for e, k in SCENES if e.lecture[k - 1].question is not None]


def _T(a) -> int:
    """The rounds of the scene's run (an analysis with ``T``, or with a ``trace``)."""
    return int(a.T) if hasattr(a, "T") else int(a.trace.T)


def _id(case) -> str:
    return f"{case[0].slug}-{case[1]}"


def test_some_scene_plays_a_span():
    assert any(s.play_to is not None for e in WITH_LECTURE for s in e.lecture)


def test_lectures_follow_the_rules():
    assert {e.slug for e in WITH_LECTURE} >= {"halving", "perceptron", "wm_vs_hedge", "winnow", "widrow_hoff"}
    for e in WITH_LECTURE:
        assert e.slug in ORACLES, f"/{e.slug} has a lecture but no oracle in this test"
        scenes = e.lecture
        assert len(scenes) >= 5, e.slug
        assert sum(s.question is not None for s in scenes) >= 2, e.slug
        for s in scenes:
            assert isinstance(s, lecture.Scene) and s.title and s.narration
            if s.question is not None:           # answers come from olcore, never typed in
                assert s.question.answer.__module__ == f"olcore.lessons.{e.slug}", (e.slug, s.title)


@pytest.mark.parametrize("case", SCENES, ids=_id)
def test_every_scene_opens_from_its_link(case):
    entry, k = case
    scene = entry.lecture[k - 1]
    at = run_page(entry.path, query={"scene": k})
    bar = [m.value for m in at.markdown if f"scene {k} of {len(entry.lecture)}" in m.value]
    assert bar and scene.title.replace("*", "\\*").replace("_", "\\_") in bar[0]
    ss = at.session_state
    for key, value in scene.values.items():
        assert ss[key] == value, (entry.slug, k, key)
    T = _T(ORACLES[entry.slug](ss))
    if any(s.key == "t" for s in at.slider):      # the player is drawn: it shows the scene's round
        assert ss["t"] == (T if scene.t is None else min(scene.t, T))
    else:                                        # a part without it (/online_svm): clamped when it is drawn
        assert ss["t"] == (END_OF_RUN if scene.t is None else scene.t), (entry.slug, k)
    assert str(at.query_params["scene"]) == str(k)
    if scene.play_to is not None and scene.question is None:     # a span to play: the browser plays it
        assert at.session_state["t_play"] and at.session_state["t_span"] == (min(scene.t or 0, T), min(scene.play_to, T))


def _answer(at, q, k, value):
    key = f"lecture_q{k}"
    (at.radio(key=key) if q.kind == "choice" else at.number_input(key=key)).set_value(value).run()
    at.button(key=f"{key}_check").click().run()
    assert not at.exception, [e.message for e in at.exception]


@pytest.mark.parametrize("right", [True, False], ids=["right", "wrong"])
@pytest.mark.parametrize("case", QUESTIONS, ids=_id)
def test_each_question_reveals_the_answer_olcore_computes(case, right):
    entry, k = case
    scene = entry.lecture[k - 1]
    q = scene.question
    at = run_page(entry.path, query={"scene": k})
    held = at.session_state["t"]
    move = at.button(key="t_step") if not at.button(key="t_step").disabled else at.button(key="t_back")
    move.click().run()                                     # the player is held until the prediction
    assert at.session_state["t"] == held
    assert at.button(key=f"lecture_q{k}_check").disabled   # nothing to check yet
    a = ORACLES[entry.slug](at.session_state)
    truth = q.right_answer(a)
    if right:
        guess = truth
    elif q.kind == "choice":
        guess = next(v for v in q.options if v != truth)
    else:
        guess = float(truth) + q.tolerance + 1
    _answer(at, q, k, guess)
    verdict = [v for v in list(at.success) + list(at.error) if "the run gives" in v.value]
    assert len(verdict) == 1 and verdict[0].value.startswith("**Right.**" if right else "**Not this time.**")
    assert f"the run gives **{lecture.answer_label(q, truth)}**" in verdict[0].value
    assert lecture.is_right(q, guess, truth) == right
    assert at.session_state["t"] == (_T(a) if q.reveal is None else min(q.reveal, _T(a)))
    if q.explain:
        assert any(m.value == lecture._text(q.explain, a) for m in at.markdown)


def test_next_previous_and_leaving_the_tour():
    entry = registry.lesson("halving")
    at = run_page(entry.path, query={"scene": 1})
    at.button(key="lecture_next").click().run()
    assert at.query_params["scene"] == "2"
    at.button(key="lecture_next").click().run()          # scene 3: its settings replace scene 2's
    assert at.query_params["scene"] == "3"
    assert {k: at.session_state[k] for k in entry.lecture[2].values} == entry.lecture[2].values
    at.button(key="lecture_prev").click().run()
    assert at.query_params["scene"] == "2" and at.session_state["stream"] == "Lecture run"
    at.button(key="lecture_leave").click().run()
    assert not at.exception
    assert "scene" not in at.query_params
    assert at.session_state["stream"] == "Lecture run"     # the settings stay
    assert not [b for b in at.button if b.key == "lecture_next"]
    assert [b for b in at.button if b.key == "lecture_start"]


def test_a_rerun_sent_before_a_move_reached_the_browser_does_not_undo_it():
    """Every rerun carries the address bar's query string: one the browser sent right after PageUp
    (the Play driver's end report, a second key) still says the old scene.  It must not take the
    lecture back, nor keep the old scene's settings it carries; a later move is obeyed again."""
    entry = registry.lesson("halving")
    at = run_page(entry.path, query={"scene": 3})
    at.button(key="lecture_prev").click().run()
    assert at.query_params["scene"] == "2"
    at.query_params["scene"] = "3"                      # the stale rerun: scene 3's link and settings
    for name, value in entry.lecture[2].values.items():
        at.session_state[name] = value
    at.run()
    assert not at.exception
    assert at.query_params["scene"] == "2"
    assert {k: at.session_state[k] for k in entry.lecture[1].values} == entry.lecture[1].values
    assert "scene 2 of" in " ".join(m.value for m in at.markdown)
    at.run()                                            # the browser has the moved link: the move is settled
    at.query_params["scene"] = "3"
    at.run()
    assert at.query_params["scene"] == "3" and at.session_state["stream"] == entry.lecture[2].values["stream"]


def test_a_stale_rerun_undoes_neither_leaving_the_tour_nor_presenter_mode():
    at = run_page("pages/halving.py", query={"scene": 2})
    at.button(key="lecture_leave").click().run()
    at.query_params["scene"] = "2"
    at.run()
    assert "scene" not in at.query_params and not [b for b in at.button if b.key == "lecture_next"]
    at.button(key="present_on").click().run()
    assert at.query_params["present"] == "1"
    del at.query_params["present"]
    at.run()
    assert at.query_params["present"] == "1" and [b for b in at.button if b.key == "present_off"]


@pytest.mark.parametrize("raw", ["0", "abc", "99", "-1", "2.5"])
def test_a_bad_scene_gets_a_clear_message(raw):
    at = run_page("pages/halving.py", query={"scene": raw})
    said = " ".join(w.value for w in at.warning)
    from olapp.state import inert

    assert f"scene\\={inert(raw)}" in said and "scenes 1 to" in said
    assert "scene" not in at.query_params
    assert not [b for b in at.button if b.key == "lecture_next"]


def test_a_lesson_without_a_lecture_says_so(monkeypatch):
    """Every lesson has a lecture today; a new lesson may come without one (its ``CONTENT.lecture`` is
    empty): a link with a scene then says so instead of failing."""
    import dataclasses

    from olapp.content import winnow as content

    monkeypatch.setattr(content, "CONTENT", dataclasses.replace(content.CONTENT, lecture=()))
    assert not registry.lesson("winnow").lecture
    at = run_page("pages/winnow.py", query={"scene": "1"})
    assert not at.exception
    assert any("no lecture yet" in w.value for w in at.warning)


def test_whole_run_captions_follow_the_players_round():
    """Captions that state a whole-run total read the player's round instead, so a question held at an early
    round is not answered under its chart (the charts are cut by the kit; their captions are the page's)."""
    from olapp.figures import online_svm as svm_figs
    from olapp.content import mistakes_to_risk as m2r_text
    from olapp.content import online_svm as svm_text

    a = ogd.analyse(ogd.make_stream("Noisy", 200, 0.1, 0, 2), "logistic", "ball", 1.0, None, 3)
    assert f"{a.regret[-1]:.4g}" in ogd_text.regret(a, a.T) and f"{a.regret[-1]:.4g}" not in ogd_text.regret(a, 0)
    assert f"R_50 = {a.regret[49]:.4g}" in ogd_text.regret(a, 50)

    s = kernel_perceptron.make_stream("Moons", 200, 0)
    k, b = kernel_perceptron.analyse(s), kernel_perceptron.budget_run(s, 3, 0)
    assert f"M_T = {k.M} mistakes" in kernel_text.mistakes(k) and "M_0 = 0 mistakes" in kernel_text.mistakes(k, 0)
    assert "not full yet" in kernel_text.cache(b, 0) and "0 supports after 0 rounds" in kernel_text.cache(b, 0)
    assert f"{b.free.n_mistakes} supports at the end" in kernel_text.cache(b, b.trace.T)

    al = online_svm.analyse_alma(online_svm.separable_stream(60, 0.15, 0), 0.5, 50)
    early = svm_text.alma_updates(al, 0) + svm_text.alma_margin(al, 0)
    assert f"{al.n_updates} updates" not in early and f"pass {al.converged_pass}" not in early
    assert f"From pass {al.converged_pass} on" in svm_text.alma_margin(al, al.T)
    marks = lambda t: [x.text for x in svm_figs.alma_updates(al, t).layout.annotations if "no update" in x.text]
    assert marks(0) == [] and marks(al.T) == [f"pass {al.converged_pass}: no update"]

    r = mistakes_to_risk.analyse(mistakes_to_risk.make_stream("Label noise", 300, 3, 0.1, 0), "Label noise", 3, 0.1, 0)
    assert f"M_n/n = {r.M[-1] / r.n:.4f}" in m2r_text.ensemble(r) and "M_n/n" not in m2r_text.ensemble(r, 0)
    assert f"ends at {r.martingale[-1]:.2f}" in m2r_text.martingale(r) and "ends at" not in m2r_text.martingale(r, 10)
