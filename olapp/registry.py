"""The one list of lessons: read by app.py's navigation, the home page, the tests and the benchmarks.

A lesson is one registry entry (URL path, title, icon, section, home-page blurb), one analysis
module in ``olcore.lessons``, one figures module in ``olapp.figures``, one content module in
``olapp.content`` (its presets, help texts and captions) and one page file in ``pages/``.
The registry reads the content module's ``CONTENT`` (an :class:`olapp.content.Content`: presets,
lecture scenes, the lecture's run, help texts), never its loose constants.

Links shared before the kit keep opening the view they opened: each entry lists the URL keys
and values it used to have (``legacy``) and how they read today; :func:`olapp.state.translate_legacy`
rewrites them before any widget reads the URL.
"""

from __future__ import annotations

import base64
import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

__all__ = ["Lesson", "Legacy", "LESSONS", "HOME", "APP_ICON", "lesson", "lessons", "sections", "navigation_pages"]

#: The app's page icon, shipped with it (a Material icon name would make the browser fetch it from
#: Google's font service), as a data URL built once per process: given a file's path,
#: ``st.set_page_config`` reads, hashes and registers the file again on every rerun of every session,
#: and app.py's own top level runs on every rerun too.
APP_ICON = "data:image/png;base64," + base64.b64encode(
    (Path(__file__).resolve().parent / "assets" / "icon.png").read_bytes()).decode()


@dataclass(frozen=True)
class Legacy:
    """An old URL key: read as ``key`` today, each old value mapped through ``values`` (others kept)."""

    key: str
    values: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Lesson:
    """One lesson of the app (or the home page, which has no analysis).

    Parameters
    ----------
    slug : str
        URL path and file stem: ``/<slug>`` serves ``pages/<slug>.py``.
    title, icon, section, blurb : str
        Navigation title, a Material icon (``":material/...:"``), the navigation section, and the
        home page's one-paragraph description.
    code : tuple of str
        Dotted names of the reference classes shown by "Show the code" (``"olcore.linear.Perceptron"``).
    legacy : mapping of str to Legacy
        Old URL keys of this lesson and how they read today.
    int_keys : tuple of str
        URL keys holding whole numbers: an old link's ``T=1000.0`` opens as ``T=1000``.
    """

    slug: str
    title: str
    icon: str
    section: str
    blurb: str = ""
    code: tuple[str, ...] = ()
    legacy: Mapping[str, Legacy] = field(default_factory=dict)
    int_keys: tuple[str, ...] = ()

    @property
    def path(self) -> str:
        """The page file, relative to the app folder."""
        return f"pages/{self.slug}.py"

    @property
    def url_path(self) -> str:
        return "" if self.slug == "home" else self.slug

    @property
    def content(self):
        """The lesson's content module ``olapp.content.<slug>`` (presets, help texts, captions)."""
        return importlib.import_module(f"olapp.content.{self.slug}")

    @property
    def presets(self) -> list:
        """The presets menu: the content module's ``CONTENT.presets``."""
        return list(self.content.CONTENT.presets)

    @property
    def lecture(self) -> list:
        """The lesson's lecture: its content module's ``CONTENT.lecture`` (:class:`olapp.lecture.Scene`)."""
        return list(self.content.CONTENT.lecture)

    @property
    def lecture_run(self) -> str:
        """The name of the ``olcore.lessons.<slug>`` function whose result the lecture's questions read
        (the content module's ``CONTENT.lecture_run``)."""
        return self.content.CONTENT.lecture_run

    @property
    def reference_classes(self) -> list[type]:
        out = []
        for dotted in self.code:
            module, _, name = dotted.rpartition(".")
            out.append(getattr(importlib.import_module(module), name))
        return out


_SOURCE = Legacy("stream", {"Uploaded": "Upload"})

HOME = Lesson("home", "Home", ":material/home:", "Overview")

LESSONS: tuple[Lesson, ...] = (
    Lesson("halving", "Halving", ":material/content_cut:", "Learning with experts",
           "Experts with one perfect among n: watch the version space halve on every mistake, "
           "never more than log₂ n mistakes, replayed on the lecture's 8-expert table.",
           code=("olcore.experts.Halving",),
           int_keys=("n", "T", "extra")),   # the keys of 1bb337d are today's; ?moves= is read by the page
    Lesson("wm_vs_hedge", "Weighted Majority vs Hedge", ":material/balance:", "Learning with experts",
           "No perfect expert: deterministic and randomized Weighted Majority, Weighted Average and "
           "Hedge side by side, their regret against each bound, and the η sweep.",
           code=("olcore.experts.WeightedMajority", "olcore.experts.RandomizedWeightedMajority",
                 "olcore.experts.WeightedAverage", "olcore.experts.Hedge"),
           legacy={"stream": Legacy("stream", {"Noisy experts": "Generated", "Uploaded": "Upload"})},
           int_keys=("n", "T")),
    Lesson("perceptron", "Perceptron", ":material/call_split:", "Linear classification",
           "The margin geometry in 2-D: each mistake's update drawn as an arrow, mistakes against "
           "Novikoff's (R/γ)², and the proof's two bounds on ‖w‖ closing in.",
           code=("olcore.linear.Perceptron", "olcore.linear.PassiveAggressive", "olcore.linear.OGDHinge"),
           legacy={"source": _SOURCE, "n": Legacy("T")}),
    Lesson("winnow", "Winnow", ":material/filter_alt:", "Linear classification",
           "Learning a k-literal disjunction among N attributes with multiplicative updates: "
           "mistakes bounded by a multiple of k log N, where the Perceptron's bound grows with N.",
           code=("olcore.linear.Winnow", "olcore.linear.Perceptron", "olcore.linear.ConjunctionElimination"),
           legacy={"source": _SOURCE}, int_keys=("N", "k", "T", "seed", "sweep_seeds")),
    Lesson("widrow_hoff", "Widrow-Hoff", ":material/show_chart:", "Regression",
           "Online least squares: the weight trajectory on the loss contours, the cumulative loss "
           "against L_u/(1-η) + ‖u‖²/η, and online-to-batch by averaging.",
           code=("olcore.linear.WidrowHoff", "olcore.linear.ExponentiatedGradient"),
           legacy={"src": Legacy("stream", {"Synthetic": "Generated", "Upload CSV": "Upload"})},
           int_keys=("d", "T")),
    Lesson("ogd", "Online gradient descent", ":material/trending_down:", "Online convex optimisation",
           "Projected OGD in the plane: each round's gradient step and projection back into C, the regret "
           "under D G √T at η = D/(G√T), the telescoping proof, and OGD on the simplex against Hedge.",
           code=("olcore.oco.ProjectedOGD", "olcore.oco.SimplexOGD"),
           int_keys=("T", "d", "seed", "n", "sweep_seeds")),
    Lesson("kernel_perceptron", "Kernel Perceptron", ":material/hub:", "Kernels and margins",
           "Streams no line separates, learned in an RKHS: the decision region as supports enter, mistakes against "
           "(R_K/γ_K)² with a certified margin, the Randomized Budget Perceptron, and the Fact that B supports "
           "cannot beat ‖u‖ = √(B + 1).",
           code=("olcore.linear.KernelPerceptron",),
           int_keys=("T", "seed", "degree", "B")),
    Lesson("online_svm", "Online SVM and fewer labels", ":material/linear_scale:", "Kernels and margins",
           "ALMA closing in on the SVM hyperplane with (1 − α) of its margin, the second-order Perceptron "
           "against the notes' table of mistake bounds, and selective sampling trading labels for mistakes.",
           code=("olcore.linear.ALMA", "olcore.linear.SecondOrderPerceptron", "olcore.linear.SelectiveSampler"),
           int_keys=("T", "seed", "epochs", "d")),
    Lesson("mistakes_to_risk", "From mistakes to risk", ":material/casino:", "From online to batch",
           "One pass of the Perceptron or PA over an i.i.d. sample: the ensemble's risk on held-out data against "
           "its mistakes and Bernstein's bound, a hypothesis chosen by penalised risk, and how often the bounds fail.",
           code=("olcore.linear.Perceptron", "olcore.linear.PassiveAggressive"),
           int_keys=("n", "d", "seed")),
)


def lessons() -> tuple[Lesson, ...]:
    """Every lesson, in navigation order (the home page excluded)."""
    return LESSONS


def lesson(slug: str) -> Lesson:
    """The entry for ``slug`` (``"home"`` included); ``KeyError`` if there is none."""
    for entry in (HOME, *LESSONS):
        if entry.slug == slug:
            return entry
    raise KeyError(slug)


def sections() -> dict[str, list[Lesson]]:
    """Lessons grouped by section, in order, with the home page first."""
    out: dict[str, list[Lesson]] = {HOME.section: [HOME]}
    for entry in LESSONS:
        out.setdefault(entry.section, []).append(entry)
    return out


_built_pages: dict = {}


def navigation_pages() -> dict[str, list]:
    """``st.Page`` objects for ``st.navigation``, by section (the home page the default).

    Building an ``st.Page`` resolves its file on disk (on every run of every
    session): they are built once per app folder and each run gets shallow copies, so that no two
    runs share the object ``st.navigation`` marks as the one to run.
    """
    import copy

    import streamlit as st

    from . import compat

    folder = compat.script_folder()
    built = _built_pages.get(folder)
    if built is None:
        built = {section: [st.Page(entry.path, title=entry.title, icon=entry.icon, url_path=entry.url_path or None,
                                   default=entry is HOME)
                           for entry in entries]
                 for section, entries in sections().items()}
        if folder is None:                 # no app folder to key on (bare mode): nothing kept
            return built
        _built_pages[folder] = built
    return {section: [copy.copy(p) for p in pages] for section, pages in built.items()}
