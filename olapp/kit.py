"""The lesson kit: the furniture every lesson page shares, so that a page reads like the lesson.

A page builds one :class:`LessonPage` and calls it top-down::

    page = LessonPage("perceptron")
    page.intro("The Perceptron keeps one weight vector ...")
    with page.controls():
        source = page.source({"Generated": "points separated by a random unit vector ..."}, upload="linear")
        n = st.slider("Points n", 10, 2000, 60, key="n", bind="query-params", help="...")
        seed = page.seed()
    stream = page.stream(make_stream, n, seed)            # "Upload": the uploaded stream
    a = page.run(lessons.perceptron.analyse, stream, epochs)
    t = page.player(a.trace.T, events=a.trace.mistakes)
    page.chart(figs.mistakes(a, t), caption(a), key="mistakes")
    page.theorem(a.bound)

What it owns, once for every lesson:

- **Settings in one place**: a bordered box at the top of the main area (``key="controls"``,
  hidden in presenter mode), with the lecture preset selector first and its note after.
- **One stream source**: a segmented control under the URL key ``stream`` with the page's own
  sources and one ``"Upload"`` (a validated CSV of the lesson's kind).
- **Guarded, shared runs**: :meth:`LessonPage.stream` and :meth:`LessonPage.run` compute a pure
  function's result once for every session (:mod:`olapp.cache`; figure builders are memoised the
  same way, :func:`olapp.figures.figure`) and turn a ``StreamError`` into a clear message without
  losing any setting.
- **Lecture mode** (:mod:`olapp.lecture`): on a lesson with a ``LECTURE``, ``?scene=k`` opens
  scene k (its settings and round), the lecture bar and narration above the page, and the
  scene's question once the lesson's analysis has run (:meth:`LessonPage.run`).
- The round player, charts with captions (presenter fonts applied here only), the theorem
  box from a :class:`olcore.bounds.BoundReport`, the proof section, download and show-code.
- **Texts of the round** (:meth:`LessonPage.at_round`): the tally, readouts, status lines and the
  captions of moving charts are given as ``fn(*args, t)``; while the player plays they move with
  the charts (every frame's text is sent with the play, and the player's driver shows the one of
  the round reached, :mod:`olapp.animation`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import html
from typing import Any, Callable, Iterator, Mapping, Sequence

import plotly.graph_objects as go
import streamlit as st

from olcore import StreamError, Trace, budget, claims
from olcore import streams as _streams

from . import animation, cache, controls, figures, lecture, registry, state
from .cache import stream_hash

__all__ = ["LessonPage", "AtRound", "UPLOAD", "stream_hash"]

#: The one label of the upload source on every lesson.
UPLOAD = "Upload"


def _num(x: float) -> str:
    """A number as a lecturer reads it out: whole numbers plain, others to 4 significant digits."""
    x = float(x)
    return f"{int(x):,}" if x == int(x) and abs(x) < 1e15 else f"{x:.4g}"


def _flush(text: list[str]) -> None:
    """Draw the collected paragraphs as one markdown element (their claims kept: :mod:`olcore.claims`)
    and empty the list."""
    if text:
        st.markdown(claims.join("\n\n", text))
        text.clear()


def _small(text: str) -> str:
    """``text`` as a small grey line inside a markdown element (what ``st.caption`` shows, without an
    element of its own); its square brackets are escaped so that they do not end the directive."""
    return ":gray[:small[" + text.replace("[", "\\[").replace("]", "\\]") + "]]"


@dataclasses.dataclass(frozen=True)
class AtRound:
    """What a text shows at the player's round: ``fn(*args, t)``.  Made by :meth:`LessonPage.at_round`
    and given to :meth:`LessonPage.live`, :meth:`LessonPage.tally`, :meth:`LessonPage.readout` or as a
    chart's caption: while the player plays, the kit computes it for every frame's round too
    (:func:`olapp.animation.texts`), and the text moves with the charts."""

    fn: Callable[..., Any]
    args: tuple
    t: int

    @property
    def now(self) -> Any:
        """The text at round ``t``, computed once for every session (:func:`olapp.cache.memo`; a
        function the memo cannot key, such as a lambda, is called every time)."""
        return cache.memo(_at, self.fn, self.args, self.t)


def _at(fn: Callable[..., Any], args: tuple, t: int) -> Any:
    return fn(*args, t)


def _fixed(note: str, t: int) -> str:
    """A tally's note that does not depend on the round."""
    return note


def _tally_line(rows: Callable[..., Sequence[tuple[str, float, Any]]], args: tuple, T: int,
                note: Callable[..., str], note_args: tuple, t: int) -> str:
    """The tally's line after ``t`` of ``T`` rounds (:meth:`LessonPage.tally`): ``rows(*args, t)``
    against their bounds, then ``note(*note_args, t)``."""
    parts = []
    for what, measured, report in rows(*args, t):
        text = f"{what} **{_num(measured)}**"
        if report is not None and not (t == 0 and report.curve is not None):
            # (before round 1 a bound drawn as a curve has no value of its own: only the measure is shown)
            formula = report.formula.split(": ", 1)[-1]
            if report.applies:              # "measured ≤ bound": a claim about the run, checked in tests
                bound = float(report.at(min(t, report.T or t)))
                text = claims.claim(f"{text} ≤ {formula} = **{_num(bound)}**",
                                    float(measured) <= bound + 1e-9 * max(1.0, abs(bound)),
                                    f"{what} ≤ {formula} after {t} rounds")
            else:
                text = claims.text(text, f" (the bound {formula} does not apply: ", report.why_not, ")")
        parts.append(text)
    end = note(*note_args, t)
    return claims.text(f"After **{t}** of {T} rounds: ", claims.join(" · ", parts), ". " if end else ".", end or "")


#: The style of a readout's rows while playing (:func:`_metrics_html`): ``st.metric``'s sizes, in rem
#: (presenter mode enlarges them with the page).
_METRICS_CSS = ("<style>.olab-metrics{display:flex;flex-wrap:wrap;gap:1rem}.olab-metrics>div{flex:1 1 auto}"
                ".olab-metrics .l{font-size:0.875rem;line-height:1.6;margin-bottom:0.25rem}"
                ".olab-metrics .v{font-size:2.25rem;line-height:1.2;padding-bottom:0.25rem}</style>")


def _metrics_html(items: Mapping[str, str]) -> str:
    """A readout's row of numbers as HTML drawn like ``st.metric``'s (a label over a large value), for
    the frames of a readout while the player plays (:meth:`LessonPage.readout`, with :data:`_METRICS_CSS`)."""
    cells = "".join(f'<div><div class="l">{html.escape(str(label))}</div><div class="v">{html.escape(str(value))}</div></div>'
                    for label, value in items.items())
    return f'<div class="olab-metrics">{cells}</div>'


class LessonPage:
    """The furniture of one lesson page; see the module docstring for a page's shape."""

    def __init__(self, slug: str, title: str | None = None):
        self.lesson = registry.lesson(slug)
        self.presenting = state.presenter_mode()
        self.source_choice: str | None = None
        self._upload_kind: str | None = None
        self._uploaded: _streams.Stream | None = None
        self._play: tuple[int, int] | None = None          # (start, stop) while a player plays
        st.title(title or self.lesson.title)
        self.tour = self._lecture()

    def _lecture(self) -> lecture.Lecture | None:
        """Lecture mode: the scene in the URL applied, its bar and narration drawn (else ``None``)."""
        scenes = self.lesson.lecture
        tour = lecture.Lecture(scenes, self.presenting)
        if not tour.active:
            if scenes and not self.presenting:
                lecture.start_button(len(scenes))
            return None
        tour.enter()
        lecture.presenter_css()
        tour.bar()
        return tour

    @property
    def holding(self) -> int | None:
        """The round a lecture question holds the player at while it is open (else ``None``): a
        figure that cannot be cut by :func:`olapp.lecture.hide_future` (a heat map) stops there."""
        return self.tour.holding if self.tour is not None else None

    # -- text ---------------------------------------------------------------------------
    def intro(self, markdown: str) -> None:
        """The paragraph of intuition under the title (hidden in presenter mode: the lecturer says it)."""
        st.container(key="intro").markdown(markdown)

    def section(self, title: str, intro: str = "") -> None:
        """A section's heading and its sentence, as one element (each element costs every rerun)."""
        st.markdown(f"### {title}" + (f"\n\n{intro}" if intro else ""))

    def topics(self, title: str, intro: str, topics: Mapping[str, str], *, key: str, help: str,
               label: str = "Topic", settings: Mapping[str, Sequence[str]] | None = None) -> str:
        """A section that draws one of several topics at a time: its heading and sentence, a segmented
        control under the URL key ``key``, then the chosen topic's introduction (``topics``: name ->
        markdown).  Returns the chosen name; the page draws that topic's views.

        The first topic is the default, except for a link without ``key`` that carries the URL
        settings of exactly one other topic (``settings``: topic -> its URL keys): that topic opens,
        so a link shared while every topic was drawn at once still shows what it was shared for.

        One topic at a time: a projector shows one idea, and every rerun of every session sends only
        the chosen topic's elements (each costs the server CPU on every rerun)."""
        self.section(title, intro)
        names = list(topics)
        default = names[0]
        if key not in st.query_params and key not in st.session_state and settings:
            linked = [name for name, keys in settings.items() if any(k in st.query_params for k in keys)]
            default = linked[0] if len(linked) == 1 and linked[0] in topics else default
        # in presenter mode every other control is hidden, not the choice of topic: it is the lecture's
        # navigation (the container's key marks it for the presenter CSS, olapp.state)
        where = st.container(key=f"topic_{key}") if self.presenting else st
        choice = where.segmented_control(label, names, default=default, key=key, bind="query-params",
                                         help=help) or default
        st.markdown(topics[choice])
        return choice

    # -- settings -----------------------------------------------------------------------
    @contextlib.contextmanager
    def controls(self) -> Iterator[Any]:
        """The settings box: lecture presets first, then whatever the page draws inside.

        The preset selector is drawn after the page's widgets exist (in a slot above them), so
        a shared link whose settings match a preset shows that preset's note at once.
        """
        box = st.container(border=True, key="controls")
        with box:
            slot = st.container()
            yield box
        presets = self.lesson.presets
        if presets:
            chosen = controls.preset_selector(presets, key="preset", where=slot)
            if self.presenting and chosen is not None and self.tour is None:   # the box is hidden: keep the claim
                # on screen (a lecture's scene says what to look at in its narration instead)
                st.info(f"**{chosen.name}**: {chosen.note}", icon=":material/school:")

    def source(self, options: Mapping[str, str], upload: str | None = None, default: str | None = None,
               label: str = "Stream") -> str:
        """Where the rounds come from: the page's own sources (label -> help) and, with ``upload``
        (a CSV kind of ``olcore.streams``), ``"Upload"``. The choice is in the URL as ``stream``."""
        names = list(options) + ([UPLOAD] if upload else [])
        helps = [f"**{k}**: {v}" for k, v in options.items()]
        if upload:
            helps.append(f"**{UPLOAD}**: your own stream as a CSV file (a template is offered).")
        choice = st.segmented_control(label, names, default=default or names[0], key="stream",
                                      bind="query-params", help="  \n".join(helps)) or (default or names[0])
        self.source_choice = choice
        if choice == UPLOAD and upload:
            self._upload_kind = upload
            self._uploaded = controls.csv_upload(upload, key=f"{self.lesson.slug}_upload")
        return choice

    def button(self, label: str, **options) -> bool:
        """A button whose ``on_click`` also acts on a click its session never drew (after a reconnect):
        :func:`olapp.state.button`."""
        return state.button(label, **options)

    def stop(self) -> None:
        """End the page here; the app's epilogue (the link's notes) still runs (:func:`olapp.state.stop`)."""
        state.stop()

    def seed(self, where=st) -> int:
        """The random seed (URL key ``seed``)."""
        return controls.seed_input(key="seed", where=where)

    # -- the stream and the run ---------------------------------------------------------------
    def stream(self, make: Callable[..., _streams.Stream] | None = None, *args, **kwargs) -> _streams.Stream:
        """The stream of this view: the upload when the source is ``"Upload"``, else ``make(*args)``.

        ``make`` is a pure function (cached for every session). Without an upload yet, the page
        says where to upload and stops; a bad setting stops it with the message.
        """
        if self.source_choice == UPLOAD and self._upload_kind:
            if self._uploaded is None:
                where = (f"Leave presenter mode (key {state.PRESENT_KEY}) to upload a CSV stream in the settings"
                         if self.presenting else "Upload a CSV stream in the settings above")
                st.info(f"{where} (a template is there to download), or choose another stream.",
                        icon=":material/upload_file:")
                state.stop()
            return self._uploaded
        if make is None:
            raise TypeError("LessonPage.stream needs a stream maker unless the source is Upload")
        return self.run(make, *args, **kwargs)

    def run(self, fn: Callable[..., Any], *args, **kwargs) -> Any:
        """``fn(*args, **kwargs)``, computed once for every session (:func:`olapp.cache.memo`: the same
        object is returned to every caller, so it must not be changed); a ``StreamError`` is shown
        and stops the page.

        ``fn`` must be a pure function of its arguments (an olcore analysis or stream maker).

        Every run has a budget (:mod:`olcore.budget`): before ``fn`` runs, its memory and time are
        estimated from the stream's rounds and columns and the settings; over the limits the page
        says so, offers a smaller view of an uploaded stream (:meth:`_over_budget`) and stops.
        """
        self._within_budget(fn, args, kwargs)
        try:
            result = cache.memo(fn, *args, **kwargs)
        except StreamError as exc:
            controls.show_error(exc)
            state.stop()
        if (self.tour is not None and getattr(fn, "__name__", None) == self.lesson.lecture_run
                and getattr(fn, "__module__", None) == f"olcore.lessons.{self.lesson.slug}"):
            self.tour.ask(result)         # the lecture's question reads this run
        return result

    def _within_budget(self, fn: Callable[..., Any], args: tuple, kwargs: Mapping[str, Any]) -> None:
        """Stop the page with the budget's message when ``fn(*args, **kwargs)`` is estimated over it
        (:func:`olcore.budget.check`); a function without an estimate that is handed the upload is noted
        in :attr:`UNBUDGETED` (tests/test_budget.py fails on it)."""
        upload = self._uploaded if self.source_choice == UPLOAD and self._upload_kind else None
        try:
            verdict = budget.check(fn, *args, **kwargs)
        except TypeError:                  # arguments the function itself would refuse: its own error follows
            return
        if verdict is None:
            name = budget.qualname(fn)
            if upload is not None and name not in budget.FIXED and any(
                    a is upload for a in (*args, *kwargs.values())):
                LessonPage.UNBUDGETED.add(name)
            return
        if not verdict.fits:
            self._over_budget(verdict, fn, args, kwargs, upload)

    def _over_budget(self, verdict: budget.Verdict, fn: Callable[..., Any], args: tuple, kwargs: Mapping[str, Any],
                     upload: _streams.Stream | None) -> None:
        """The budget's message: what this view would need, which step needs it, the limits; for an upload,
        buttons that replace it by a smaller view that fits (its first columns, or a sample of its rows; the
        whole stream is kept, :func:`olapp.controls.csv_upload` offers it back); then the page stops."""
        cost, size = verdict.cost, verdict.size or (budget.Size.of(upload) if upload is not None else None)
        needs, steps = [], []
        if verdict.over_memory:
            needs.append(f"about **{budget.format_bytes(cost.bytes)} of memory**, where one analysis may use at most "
                         f"{budget.format_bytes(verdict.memory_limit)}")
            steps.append(cost.heaviest("bytes").what)
        if verdict.over_time:
            needs.append(f"about **{budget.format_seconds(cost.seconds)} of computing**, where the limit is about "
                         f"{budget.format_seconds(verdict.time_limit)}")
            steps.append(cost.heaviest("seconds").what)
        whose = "your stream" if upload is not None else "this stream"
        of = (f"For {whose} of {size.T:,} rounds × {size.d:,} {budget.describe(size.kind)}, this view"
              if size is not None else "This view")
        why = "; ".join(dict.fromkeys(steps))
        text = [f"**This view is too large to compute here.** {of} would need {', and '.join(needs)}. "
                f"The step that needs {'them' if len(needs) > 1 else 'it'}: {why}."]
        offer = budget.smaller_view(fn, upload, *args, **kwargs) if upload is not None else None
        if offer is None:
            text.append("Choose smaller settings above: fewer rounds, a smaller dimension, fewer passes or samples.")
        elif offer.columns is None and offer.rows is None:
            text.append("No smaller view of your stream fits either: upload a smaller file, or choose smaller settings "
                        "above (fewer passes or samples).")
        else:
            text.append("Take a smaller view of your stream: it replaces the stream in this view and the ones after, "
                        "and your whole file stays in this session (the upload above offers it back). Smaller "
                        "settings above (fewer passes or samples) may fit too.")
        st.warning("\n\n".join(text), icon=":material/memory:")
        if offer is not None and (offer.columns or offer.rows):
            key = f"{self.lesson.slug}_upload"
            row = st.container(horizontal=True)
            if offer.columns:
                row.button(f"Use the first {offer.columns:,} {budget.describe(upload.kind)}", key="budget_columns",
                           on_click=self._take_smaller_view, args=(key, offer.columns, None), icon=":material/view_column:",
                           help=f"Keep every round and the first {offer.columns:,} of the {upload.X.shape[1]:,} columns.")
            if offer.rows:
                row.button(f"Use a sample of {offer.rows:,} rows", key="budget_rows", on_click=self._take_smaller_view,
                           args=(key, None, offer.rows), icon=":material/table_rows:",
                           help=f"Keep every column and {offer.rows:,} of the {upload.T:,} rounds, drawn at random "
                                "(seed 0) and kept in their order.")
        state.stop()

    #: Analyses handed an uploaded stream without an estimate in :data:`olcore.budget.ESTIMATES` (nor a place
    #: in ``FIXED``), by qualified name: tests/test_budget.py runs every lesson on an upload and fails on any.
    UNBUDGETED: set[str] = set()

    @staticmethod
    def _take_smaller_view(key: str, columns: int | None, rows: int | None) -> None:
        """The budget's offer taken (a button's callback): the upload of ``csv_upload(key=key)`` becomes its
        smaller view (:func:`olcore.budget.reduce`); the whole stream is kept beside it (``_<key>_whole``)."""
        ss = st.session_state
        store, whole = f"_{key}_stream", f"_{key}_whole"
        current = ss.get(store)
        if current is None:
            return
        ss.setdefault(whole, current)
        ss[store] = budget.reduce(current, columns=columns, rows=rows)

    # -- the round player and what it drives ------------------------------------------------------
    def player(self, T: int, events=None, event_name: str = "mistake", key: str = "t") -> int:
        """The round player (Reset, Back, Step, Next <event>, Play, scrubber); returns the round t.

        While it plays, the charts drawn after it by animated builders carry their frames, and
        move together in the browser (:mod:`olapp.animation`)."""
        t = controls.round_player(T, key=key, events=events, event_name=event_name)
        self._play = controls.playing(key, int(T))
        return t

    def at_round(self, t: int, fn: Callable[..., Any], *args) -> AtRound:
        """``fn(*args, t)``, a text of the player's round ``t`` that moves with the charts while the
        player plays: give it to :meth:`live`, :meth:`tally`, :meth:`readout` or as a chart's caption.
        ``fn`` is a named function and ``args`` are what :meth:`run` accepts (it is memoised)."""
        return AtRound(fn, tuple(args), int(t))

    def _following(self, text: AtRound | Any) -> tuple[tuple[int, Any], ...] | None:
        """The frames of a text while the player plays and no question holds the round, else ``None``."""
        if not isinstance(text, AtRound) or self._play is None or self.holding is not None:
            return None
        frames = animation.texts(text.fn, text.args, *self._play)
        return frames if len(frames) > 1 else None

    def live(self, text: AtRound | str, *, caption: bool = False, where=st) -> None:
        """Markdown (``caption``: a caption) that depends on the round (:meth:`at_round`): while the
        player plays, the text of the round the charts have reached."""
        show = where.caption if caption else where.markdown
        frames = self._following(text)
        if frames is None:
            value = text.now if isinstance(text, AtRound) else text
            if value:
                show(value)
            return
        show(cache.memo(animation.live_body, frames), unsafe_allow_html=True)    # once per play, for every session

    def readout(self, items: Mapping[str, str] | AtRound, helps: Mapping[str, str] | None = None) -> None:
        """A row of large numbers (what a lecturer reads out: mistakes so far, the bound, ...); with
        :meth:`at_round`, numbers of the round the charts have reached while the player plays."""
        frames = self._following(items)
        if frames is not None:           # one element, a row per frame, drawn like the metrics
            st.markdown(_METRICS_CSS + "\n\n" + animation.live_body([(r, _metrics_html(row)) for r, row in frames], raw=True),
                        unsafe_allow_html=True)
            return
        items = items.now if isinstance(items, AtRound) else items
        row = st.container(horizontal=True)          # one flex row (columns would be a block each)
        held = self.holding is not None             # a question is open: the run's totals wait for the answer
        for label, value in items.items():
            row.metric(label, "…" if held else value,
                       help="Shown once the scene's question is answered." if held else (helps or {}).get(label))

    def tally(self, rows: AtRound, T: int, note: str | AtRound = "", where=st) -> None:
        """The live readout beside the main picture: after ``t`` of ``T`` rounds, each measured
        quantity against its theorem's bound at round ``t``; it moves with the charts while playing.

        ``rows`` (:meth:`at_round`) gives at round ``t`` the rows ``(what, measured, report)``, with
        ``report`` an :class:`olcore.BoundReport` (or ``None`` for a quantity without a bound), e.g.
        ``("mistakes", 5, a.novikoff)``; ``note`` ends the line (a text, or one of the round).
        """
        if self.holding is not None:
            note = ""                                   # a question is open: no word on the whole run
        note = note if isinstance(note, AtRound) else AtRound(_fixed, (note,), rows.t)
        self.live(AtRound(_tally_line, (rows.fn, rows.args, T, note.fn, note.args), rows.t), where=where)

    def chart(self, fig: go.Figure, caption: str | AtRound = "", *, key: str, where=st) -> None:
        """A figure with its caption (a text, or one of the round: :meth:`at_round`); presenter fonts
        and PNG export are applied here."""
        held = self.tour.holding if self.tour is not None else None
        play = None
        if held is not None:
            fig = lecture.hide_future(fig, held)      # a question is open: no answer on the charts ...
            caption = caption and "The caption comes with the answer."   # ... nor in their captions
        elif self._play is not None and (how := figures.recipe(fig)) is not None:
            play = animation.frames(*how, *self._play)
        controls.chart(fig, key=key, filename=f"{self.lesson.slug}_{key}", where=where, play=play)
        if caption:                 # a caption of the round moves with its chart (if the chart moves)
            self.live(caption if play is not None or not isinstance(caption, AtRound) else caption.now,
                      caption=True, where=where)

    def table(self, data, *, live: AtRound | None = None, where=st, **options) -> None:
        """A table (``st.dataframe`` options): its element is built once for every session showing the
        same data and replayed after (:func:`olapp.controls.table`; a ``Styler`` from a memoised
        builder is shared, so its styles are rendered once).  ``live``: the table's cells at the
        player's round (:meth:`at_round`, cells as :func:`olapp.animation.live_table` takes them);
        while the player plays, the table is drawn as HTML with every frame's rows, and moves with
        the charts.  An empty table is not drawn."""
        frames = self._following(live)
        body = animation.live_table(frames) if frames is not None else None
        if body is not None:
            where.markdown(body, unsafe_allow_html=True)
        elif len(data.data if hasattr(data, "data") else data):      # (an empty table is not drawn)
            controls.table(data, where=where, **options)

    # -- theory ---------------------------------------------------------------------------------
    def theorem(self, reports, run_line: str = "", title: str = "The theorem, with this run's numbers") -> None:
        """The theorem box: statement, the inequality with this run's numbers, whether it applies, source."""
        if self.tour is not None and self.tour.holding is not None:   # a question is open: the statement only
            st.markdown("\n\n".join(["**The theorem**"] + [r.statement or r.theorem for r in (
                [reports] if not isinstance(reports, Sequence) else reports)]
                + [_small("This run's numbers appear once the scene's question is answered.")]))
            return
        # As few elements as the layout allows (each costs every rerun of every session): the title and
        # every report's statement, inequality and source in one markdown, the run's line after the
        # last; only a report that does not apply splits it (its warning is an element of its own).
        reports = [reports] if not isinstance(reports, Sequence) else list(reports)
        text = [f"**{title}**"] if title else []
        for i, report in enumerate(reports):
            if report.statement:
                text.append(report.statement)
            if report.latex:
                text.append(f"$$\n{report.latex}\n$$")
            if not report.applies:
                _flush(text)
                st.warning(claims.text("**The theorem does not apply here.** ", report.why_not), icon=":material/info:")
            if run_line and i == len(reports) - 1:
                text.append(run_line)
                run_line = ""
            if report.source:
                text.append(_small(f"Source: {report.source}."))
        text += [run_line] if run_line else []
        _flush(text)

    @contextlib.contextmanager
    def proof(self, title: str, intro: str = "") -> Iterator[None]:
        """The proof section: a heading, a sentence, then the page's proof views."""
        self.section(title, intro)
        yield

    # -- take-aways -----------------------------------------------------------------------------
    def download(self, trace: Trace, stream: _streams.Stream | None = None, bound=None, *, name: str,
                 where=st, prediction: str = "the learner's prediction") -> None:
        """Download the run as CSV with its columns explained (hidden in presenter mode)."""
        controls.download_run(trace, stream, bound=bound, name=f"{self.lesson.slug}_{name}",
                              key=f"download_{name}", where=where, prediction=prediction)

    def show_code(self, *classes: type, title: str = "Show the code") -> None:
        """Expanders with the reference classes (default: the lesson's, from the registry)."""
        classes = classes or tuple(self.lesson.reference_classes)
        for i in range(0, len(classes), 2):              # two side by side in one flex row (one block)
            row = st.container(horizontal=True) if len(classes) > 1 else st
            for cls in classes[i:i + 2]:
                controls.show_code(cls, f"{title}: {cls.__name__} (reference class)", where=row)

