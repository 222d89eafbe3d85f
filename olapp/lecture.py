"""Lecture mode: a lesson as a sequence of scenes, with predict-then-reveal questions.

A lesson's content module (``olapp/content/<slug>.py``) lists its lecture beside its presets::

    LECTURE = [
        Scene("The first mistake", {"stream": "Lecture run"}, t=0,
              narration="Round 1 splits the eight experts ...",
              question=Question(prompt, "number", answer=halving.size_after, args=(1,), reveal=1,
                                explain=lambda a: f"...")),
        ...
    ]

The kit (:class:`olapp.kit.LessonPage`) does the rest on every page that has a lecture:

- **The scene is in the URL** (``?scene=3``, 1-based); a bad value gets a clear message and the
  page opens without the tour.  Entering a scene sets the page's widgets to the scene's
  ``values`` (keys as in :class:`olapp.controls.Preset`) and the round player to ``t``.
- **The lecture bar** (scene k of N, its title, a progress bar, Previous / Next with the
  clicker's PageUp / PageDown, "Leave the tour", which keeps the current settings) and the
  narration, large in presenter mode (``?present=1``); outside it the scenes read as a guided tour.
- **Predict, then reveal**: a scene's :class:`Question` is asked with the player held at the
  scene's round; "Check" moves the player on to the ``reveal`` round and says whether the
  prediction was right, the answer (computed from the run by a pure function of
  ``olcore.lessons.<slug>``, never typed in) and why.

The arrow keys do not move between scenes: Streamlit's shortcuts fire while a slider or a
radio button has the focus, and both use Left / Right themselves (the round scrubber, the
question's options).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import streamlit as st

from . import state

__all__ = ["Scene", "Question", "Lecture", "PREV_KEY", "NEXT_KEY", "SCENE_PARAM", "answer_label", "is_right"]

#: The URL parameter holding the scene (1-based).
SCENE_PARAM = "scene"
#: What a presenter's clicker sends for "previous slide" and "next slide".
PREV_KEY, NEXT_KEY = "PageUp", "PageDown"

Text = str | Callable[[Any], str]


def _text(x: Text, analysis) -> str:
    return x(analysis) if callable(x) else x


@dataclass(frozen=True)
class Question:
    """A prediction asked before rounds are played, answered from the run.

    Parameters
    ----------
    prompt : str or callable
        The question (markdown), or a function of the scene's analysis returning it.
    kind : {"choice", "number"}
    answer : callable
        ``answer(analysis, *args)``: a pure function of ``olcore.lessons.<slug>`` computing the
        right answer from the scene's run (an option's value, or a number).
    args : tuple
        Extra arguments of ``answer``.
    options : mapping of value to label
        ``"choice"`` only: the options, keyed by the values ``answer`` can return.
    tolerance : float
        ``"number"`` only: a prediction within this distance of the answer is right.
    reveal : int or None
        The round the player moves to once the student has answered (``None``: the whole run).
    explain : str or callable
        Why the answer is what it is (markdown), or a function of the analysis returning it.
    """

    prompt: Text
    kind: str
    answer: Callable[..., Any]
    args: tuple = ()
    options: Mapping[Any, str] = field(default_factory=dict)
    tolerance: float = 0.0
    reveal: int | None = None
    explain: Text = ""

    def __post_init__(self):
        if self.kind not in ("choice", "number"):
            raise ValueError(f"Question.kind must be 'choice' or 'number', not {self.kind!r}")
        if self.kind == "choice" and len(self.options) < 2:
            raise ValueError("a choice question needs at least two options")

    def right_answer(self, analysis) -> Any:
        """The answer computed from the run."""
        return self.answer(analysis, *self.args)


def answer_label(q: Question, value) -> str:
    """How an answer (or a prediction) reads on screen: the option's label, or the number."""
    if q.kind == "choice":
        return q.options.get(value, str(value))
    x = float(value)
    return f"{int(x):,}" if x == int(x) else f"{x:.4g}"


def is_right(q: Question, predicted, truth) -> bool:
    """Whether a prediction matches the run's answer (a number: within the tolerance)."""
    if predicted is None:
        return False
    if q.kind == "choice":
        return predicted == truth
    return math.isclose(float(predicted), float(truth), rel_tol=0.0, abs_tol=q.tolerance + 1e-9)


@dataclass(frozen=True)
class Scene:
    """One moment of a lecture: settings, a round, what to look at, and optionally a question.

    Parameters
    ----------
    title : str
    values : dict
        Widget values to set, keyed like :class:`olapp.controls.Preset` (the page's widget keys).
        Give every setting the run depends on, so that a link to the scene and a walk through
        the tour show the same run.
    t : int or None
        The round the player shows on entering (``None``: the whole run; clamped to the run's T).
    play_to : int or None
        A span to play: on entering, the player plays from ``t`` to this round in the browser (``None``:
        no play; a scene with a question plays only its reveal, from ``t`` to the question's ``reveal``).
    narration : str
        What to look at (markdown), shown large in presenter mode.
    question : Question or None
    """

    title: str
    values: dict[str, Any] = field(default_factory=dict)
    t: int | None = 0
    narration: str = ""
    question: Question | None = None
    play_to: int | None = None


_APPLIED = "_lecture_scene"      # the scene whose values were last applied (1-based)
_ANSWER = "_lecture_answer"      # (scene, the student's prediction) once "Check" was pressed
_PREFIX = "lecture_"


class Lecture:
    """The lecture of one page: reads the scene from the URL, applies it, draws the bar.

    Built by :class:`olapp.kit.LessonPage`; pages never touch it.
    """

    def __init__(self, scenes: list[Scene], presenting: bool, player_key: str = "t"):
        self.scenes = list(scenes)
        self.presenting = presenting
        self.player_key = player_key
        self.k = self._scene_from_url()
        self._question_slot = None

    # -- the scene in the URL ---------------------------------------------------------------
    def _scene_from_url(self) -> int | None:
        raw = st.query_params.get(SCENE_PARAM)
        if state.url_restored(SCENE_PARAM):    # a stale rerun may have brought the old scene's values back
            st.session_state.pop(_APPLIED, None)
        if raw is None:
            st.session_state.pop(_APPLIED, None)
            return None
        N = len(self.scenes)
        try:
            k = int(str(raw).strip())
        except ValueError:
            k = None
        if k is None or not 1 <= k <= N:
            where = f"this lesson's lecture has scenes 1 to {N}" if N else "this lesson has no lecture yet"
            st.warning(f"This link's “{SCENE_PARAM}\\={state.inert(raw, 30)}” is not a scene: {where}. The page opens "
                       "without the tour.", icon=":material/link_off:")
            del st.query_params[SCENE_PARAM]
            st.session_state.pop(_APPLIED, None)
            return None
        return k

    @property
    def active(self) -> bool:
        return self.k is not None

    @property
    def scene(self) -> Scene:
        return self.scenes[self.k - 1]

    @property
    def holding(self) -> int | None:
        """The round the player is held at while the scene's question is open (else ``None``)."""
        if self.scene.question is None or self._answered() is not None:
            return None
        return _round(self.scene.t)

    def _answered(self):
        got = st.session_state.get(_ANSWER)
        return got[1] if got is not None and got[0] == self.k else None

    # -- entering a scene, and holding the player at its question -----------------------------
    def enter(self) -> None:
        """Apply the scene (once per arrival) and hold the player while its question is open."""
        ss = st.session_state
        s, key = self.scene, self.player_key
        if ss.get(_APPLIED) != self.k:
            for name, value in s.values.items():
                ss[name] = value
            ss[key] = _round(s.t)
            ss[f"{key}_play"] = False
            ss.pop(_ANSWER, None)
            ss[_APPLIED] = self.k
            if s.play_to is not None and s.question is None:      # a span to play, in the browser
                from .controls import start_play

                start_play(ss, key, _round(s.t), _round(s.play_to))
        if s.question is not None and self._answered() is None:
            ss[key] = _round(s.t)        # predict first: the rounds stay hidden until "Check"
            ss[f"{key}_play"] = False

    # -- the bar, the narration, the question ------------------------------------------------------
    def bar(self) -> None:
        """Scene k of N with a progress bar, Previous / Next (PageUp / PageDown), Leave the tour."""
        N, k, s = len(self.scenes), self.k, self.scene
        box = st.container(border=True, key="lecture_bar")
        c = box.columns([1.6, 6, 1.4, 1.5], vertical_alignment="center")
        state.button("Previous", where=c[0], icon=":material/chevron_left:", key="lecture_prev", on_click=_go, args=(k - 1,),
                    disabled=k <= 1, width="stretch", shortcut=PREV_KEY,
                    help=f"The previous scene. Key: {PREV_KEY} (a presenter's clicker sends it).")
        what = "Lecture" if self.presenting else "Guided tour"
        title = s.title.replace("*", "\\*").replace("_", "\\_")      # markdown inside the bold line
        c[1].markdown(f"**{what} · scene {k} of {N}: {title}**")
        c[1].progress(k / N)
        state.button("Next", where=c[2], icon=":material/chevron_right:", key="lecture_next", on_click=_go, args=(k + 1,),
                    disabled=k >= N, width="stretch", shortcut=NEXT_KEY, type="primary",
                    help=f"The next scene. Key: {NEXT_KEY} (a presenter's clicker sends it).")
        state.button("Leave the tour", where=c[3], icon=":material/close:", key="lecture_leave", on_click=_leave,
                    width="stretch", type="tertiary",
                    help="Back to the full page, keeping this scene's settings, so you can explore from here.")
        cols = st.columns([3, 2] if s.question is not None else [1], gap="large")
        if s.narration:
            cols[0].container(key="lecture_narration").markdown(s.narration)
        self._question_slot = cols[-1].container(key="lecture_question") if s.question is not None else None

    def ask(self, analysis) -> None:
        """Draw the scene's question for this run: the prediction widgets, or the reveal."""
        q = self.scene.question
        if q is None or self._question_slot is None:
            return
        slot, self._question_slot = self._question_slot, None
        key = f"{_PREFIX}q{self.k}"
        predicted = self._answered()
        with slot:
            st.markdown(f"**Predict.** {_text(q.prompt, analysis)}")
            if predicted is None:
                if q.kind == "choice":
                    values = list(q.options)
                    st.radio("Your prediction", values, index=None, key=key, format_func=q.options.get,
                             label_visibility="collapsed")
                else:
                    st.number_input("Your prediction", value=None, step=1.0 if q.tolerance < 1 else float(q.tolerance),
                                    key=key, placeholder="your number", label_visibility="collapsed")
                state.button("Check", icon=":material/check:", key=f"{key}_check", type="primary",
                          disabled=st.session_state.get(key) is None, on_click=_check,
                          args=(self.k, key, q.reveal, self.player_key),
                          help="Play on to the rounds that answer the question and compare with your prediction.")
                st.caption("The player is held at this round until you answer.")
                return
            truth = q.right_answer(analysis)
            right = is_right(q, predicted, truth)
            told = f"You predicted **{answer_label(q, predicted)}**; the run gives **{answer_label(q, truth)}**."
            if q.kind == "number" and q.tolerance:
                told += f" (Right within ±{answer_label(q, q.tolerance)}.)"
            box = st.container(key="lecture_reveal")
            (box.success if right else box.error)(("**Right.** " if right else "**Not this time.** ") + told,
                                                  icon=":material/check_circle:" if right else ":material/cancel:")
            if q.explain:
                box.markdown(_text(q.explain, analysis))


def hide_future(fig, t: int):
    """A copy of ``fig`` with every measured curve over rounds cut after round ``t`` (bounds, named
    ``bound: ...``, stay whole): while a question is open the charts must not show its answer."""
    import plotly.graph_objects as go

    title = fig.layout.xaxis.title.text or ""
    if "round" not in title.lower():
        return fig
    out = go.Figure(fig)
    for tr in out.data:
        if (tr.name or "").startswith("bound:") or tr.x is None or tr.y is None:
            continue
        xs = list(tr.x)
        try:
            keep = [i for i, x in enumerate(xs) if x is not None and float(x) <= t]
        except (TypeError, ValueError):
            continue
        tr.x, tr.y = [xs[i] for i in keep], [list(tr.y)[i] for i in keep]
    return out


def _round(t: int | None) -> int:
    from .controls import END_OF_RUN           # the player clamps it to the run's last round

    return END_OF_RUN if t is None else int(t)


def _go(k: int) -> None:
    state.move_url(SCENE_PARAM, str(k))


def _leave() -> None:
    state.move_url(SCENE_PARAM, None)
    st.session_state.pop(_APPLIED, None)
    st.session_state.pop(_ANSWER, None)


def _check(k: int, key: str, reveal: int | None, player_key: str) -> None:
    ss = st.session_state
    if ss.get(key) is None:
        return
    from .controls import start_play

    ss[_ANSWER] = (k, ss[key])
    held = ss.get(player_key, 0)
    ss[player_key] = _round(reveal)              # the answer's round, in the link at once ...
    start_play(ss, player_key, held, _round(reveal))   # ... and played up to it in the browser


def start_button(n_scenes: int) -> None:
    """The way into the tour, in the sidebar (outside presenter mode)."""
    state.button(f"Take the guided tour ({n_scenes} scenes)", where=st.sidebar, icon=":material/tour:", key="lecture_start",
                      on_click=_go, args=(1,), width="stretch",
                      help="The lesson as a sequence of scenes, each with what to look at and some with a question "
                           "to predict before the rounds are played. Or add `?scene=1` to the link.")


#: Presenter mode: the narration large, the question's widgets visible (the CSS hides other inputs).
NARRATION_CSS = """
<style>
.st-key-lecture_narration p, .st-key-lecture_narration li { font-size: 1.5rem !important; line-height: 1.45; }
.st-key-lecture_question p { font-size: 1.2rem !important; }
</style>
"""


def presenter_css() -> None:
    if state.presenter_mode():
        st.html(NARRATION_CSS)
