"""The lesson kit: registry, legacy links, guarded cached runs, the one figure style, presenter sizes."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers import run_page, plain
from olapp import figures, registry, theme
from olapp.kit import stream_hash
from olcore import BoundReport, StreamError, streams


# -- registry ---------------------------------------------------------------------------------

def test_registry_lists_each_lesson_once_with_its_page_file_and_content():
    slugs = [entry.slug for entry in registry.lessons()]
    assert len(slugs) == len(set(slugs))
    for entry in registry.lessons():
        assert (registry.HOME.path != entry.path)
        assert entry.blurb and entry.icon.startswith(":material/")
        assert entry.reference_classes, entry.slug          # show-code has something to show
        for cls in entry.reference_classes:
            assert hasattr(cls, "predict") and hasattr(cls, "update"), cls


@pytest.mark.parametrize("entry", registry.lessons(), ids=lambda e: e.slug)
def test_every_lesson_page_is_thin_and_leaves_the_furniture_to_the_kit(entry):
    """At most 200 lines, no numpy, no cache of its own, no StreamError handling, no sidebar."""
    from pathlib import Path

    src = (Path(__file__).resolve().parent.parent / entry.path).read_text()
    assert len(src.splitlines()) <= 200
    assert "numpy" not in src and "cache_data" not in src and "StreamError" not in src and "sidebar" not in src
    assert "LessonPage(" in src


#: The aliases every lesson page imports its three lesson modules under (one name per idea).
PAGE_ALIASES = {"olapp.content": "text", "olapp.figures": "figs", "olcore.lessons": "lesson"}


@pytest.mark.parametrize("entry", registry.lessons(), ids=lambda e: e.slug)
def test_every_lesson_page_imports_its_modules_under_the_same_aliases(entry):
    """``from olapp.content import <slug> as text``, ``from olapp.figures import <slug> as figs``,
    ``from olcore.lessons import <slug> as lesson`` -- and these packages under no other name."""
    import ast
    from pathlib import Path

    tree = ast.parse((Path(__file__).resolve().parent.parent / entry.path).read_text())
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (
                node.module in PAGE_ALIASES or any((node.module or "").startswith(p + ".") for p in PAGE_ALIASES)):
            assert node.module in PAGE_ALIASES, f"{entry.path}: import from {node.module}: import the module itself"
            for alias in node.names:
                assert alias.name == entry.slug and alias.asname == PAGE_ALIASES[node.module], (
                    f"{entry.path}: from {node.module} import {alias.name} as {alias.asname}")
                found[node.module] = alias.asname
        elif isinstance(node, ast.Import):
            for alias in node.names:
                assert not any(alias.name == p or alias.name.startswith(p + ".") for p in PAGE_ALIASES), (
                    f"{entry.path}: import {alias.name}")
    assert found == PAGE_ALIASES, entry.path


def test_sections_put_home_first_and_keep_every_lesson():
    sections = registry.sections()
    first = next(iter(sections.values()))
    assert first == [registry.HOME]
    flat = [e for entries in sections.values() for e in entries]
    assert flat[1:] == list(registry.lessons())


# -- links shared before the kit ---------------------------------------------------------------

LEGACY = [(entry, old, rule, value, rule.values.get(value, value))
          for entry in registry.lessons() for old, rule in entry.legacy.items()
          for value in rule.values]            # a renamed key without value changes: the page's own link test


@pytest.mark.parametrize("entry,old,rule,value,new", LEGACY,
                         ids=[f"{e.slug}-{o}={v}" for e, o, _, v, _ in LEGACY] or None)
def test_old_url_keys_open_the_same_view(entry, old, rule, value, new):
    at = run_page(entry.path, query={old: value})
    assert not at.error, [e.value for e in at.error]
    assert at.session_state[rule.key] == new
    if old != rule.key:
        assert old not in at.query_params


INT_KEYS = [(entry, key) for entry in registry.lessons() for key in entry.int_keys]


@pytest.mark.parametrize("entry,key", INT_KEYS, ids=[f"{e.slug}-{k}" for e, k in INT_KEYS] or None)
def test_whole_numbers_written_as_floats_in_old_links_still_open(entry, key):
    at = run_page(entry.path)
    # (a widget of a part not drawn by default, e.g. /online_svm's d, has no default to read here)
    default = at.session_state[key] if key in at.session_state else None
    # a value the widget accepts that is not its default: from a preset if one sets it, else default + 1
    value = next((int(p.values[key]) for p in entry.presets if p.values.get(key, default) != default), None)
    value = int(default) + 1 if value is None else value
    at = run_page(entry.path, query={key: f"{value}.0"})
    assert at.session_state[key] == value
    assert isinstance(at.session_state[key], int)


# -- guarded, cached runs ------------------------------------------------------------------------

def _kit_script():
    import streamlit as st

    from olapp.kit import LessonPage
    from olcore import StreamError

    def analyse(x: int) -> int:
        if x < 0:
            raise StreamError.bad("x", str(x), "a number >= 0")
        return 2 * x

    page = LessonPage("widrow_hoff")
    with page.controls():
        x = st.number_input("x", -5, 5, 1, key="x")
    st.markdown(f"result {page.run(analyse, int(x))}")
    st.markdown("after the run")


def test_a_bad_setting_shows_its_message_and_keeps_the_setting():
    at = AppTest.from_function(_kit_script, default_timeout=60).run()
    assert not at.exception and any(m.value == "result 2" for m in at.markdown)
    at.number_input(key="x").set_value(-3).run()
    assert not at.exception
    # shown in words (olcore.StreamError.shown): the program's field name "x" is not in the message a student reads
    assert at.error and at.error[0].value == "A value the lesson uses: found -3; expected a number >= 0."
    assert not any(m.value == "after the run" for m in at.markdown)     # the page stopped there
    assert at.number_input(key="x").value == -3                         # nothing the user typed is lost


def test_stream_hash_keys_on_the_data():
    a = streams.separable(T=50, d=2, gamma=0.1, seed=0)
    b = streams.separable(T=50, d=2, gamma=0.1, seed=0)
    c = streams.separable(T=50, d=2, gamma=0.1, seed=1)
    assert stream_hash(a) == stream_hash(b)
    assert stream_hash(a) != stream_hash(c)
    # facts in info count by their bytes, even where a repr would elide them
    info = {"v": np.zeros(5000)}
    info2 = {"v": np.zeros(5000)}
    info2["v"][2500] = 1.0
    assert repr(info["v"]) == repr(info2["v"])
    assert (stream_hash(streams.from_arrays("linear", a.X, a.y, info))
            != stream_hash(streams.from_arrays("linear", a.X, a.y, info2)))


# -- the one figure style ------------------------------------------------------------------------

def test_curves_with_bounds_names_bounds_and_draws_coinciding_ones_once():
    curve = np.array([0, 1, 1, 2, 2], float)
    fig = figures.curves_with_bounds({"Perceptron": curve}, {"(R/γ)²": 4.0, "‖u‖²R²": 4.0, "L_u + 1": curve + 1},
                                     t=3, title="Mistakes")
    names = [tr.name for tr in fig.data]
    assert names == ["Perceptron", "bound: (R/γ)² = ‖u‖²R²", "bound: L_u + 1"]
    assert [s.x0 for s in fig.layout.shapes] == [3]                      # one round marker
    go.Figure(fig.to_dict())                                             # valid plotly, re-validated
    # a curve that equals a constant bound on every round is drawn once too
    fig = figures.curves_with_bounds({"M": curve}, {"(R/γ)²": 4.0, "max(R², 1/C)‖u‖² (PA-I)": np.full(5, 4.0)})
    assert [tr.name for tr in fig.data] == ["M", "bound: (R/γ)² = max(R², 1/C)‖u‖² (PA-I)"]


def test_a_round_marker_over_rounds_fixes_the_axis_and_keeps_its_label_in_the_plot():
    """Play moves a marker alone only on an axis that does not follow it (olapp.animation): with
    ``rounds`` the x axis spans 0..rounds unless the layout gives a range, and near the left edge the
    label turns to the line's right."""
    curve = np.arange(1.0, 101.0)
    late, early = (figures.curves_with_bounds({"M": curve}, {}, t=t) for t in (60, 10))
    assert list(late.layout.xaxis.range) == list(early.layout.xaxis.range) == [0, 100]
    assert late.layout.annotations[-1].xanchor == "right" and early.layout.annotations[-1].xanchor == "left"
    own = figures.Fig().round_marker(5, rounds=50).build({"xaxis": {"range": [1, 9]}})
    assert list(own.layout.xaxis.range) == [1, 9]
    assert figures.Fig().round_marker(5).build({}).layout.xaxis.range is None     # no rounds: as before


def test_curves_with_bounds_takes_reports_and_skips_those_that_do_not_apply():
    ok = BoundReport("Novikoff", "(R/γ)²", 9.0)
    off = BoundReport("Halving", "log₂ n", 3.0, applies=False, why_not="no consistent expert")
    curve = BoundReport("WM", "a m* + b ln n", 5.0, curve=np.linspace(1, 5, 5))
    fig = figures.curves_with_bounds({"M": np.arange(5.0)}, [ok, off, curve])
    names = [tr.name for tr in fig.data]
    assert names == ["M", "bound: (R/γ)²", "bound: a m* + b ln n"]
    np.testing.assert_allclose(fig.data[2].y, np.linspace(1, 5, 5))


def test_every_figure_shares_the_template_legend_position():
    fig = figures.curves_with_bounds({"a": np.arange(3.0)}, {})
    legend = fig.layout.template.layout.legend
    assert legend.yref == "container" and legend.orientation == "h"
    assert fig.layout.legend.y is None                                   # not overridden by a builder


def test_presenter_sizes_are_applied_once():
    fig = figures.curves_with_bounds({"a": np.arange(3.0)}, {}, height=400)
    once = theme.present(go.Figure(fig))
    twice = theme.present(go.Figure(once))
    assert once.layout.height == twice.layout.height == max(round(400 * 1.15), theme.PRESENTER_MIN_HEIGHT)
    assert once.layout.font.size == twice.layout.font.size > theme.FONT_SIZE
    assert once.layout.xaxis.tickfont.size >= 16
    assert fig.layout.height == 400                                       # the cached original is untouched


def _theorem_box():
    from olapp.kit import LessonPage
    from olcore import BoundReport

    page = LessonPage("halving", "A test page")
    ok = BoundReport("Hedge", "√(T ln n / 2)", 3.0, latex=r"R = 1 \le 3", statement="**Hedge**: a statement.",
                     source="UCL COMP0078, Online learning: Hedge, Theorem [LW94, FS97]")
    off = BoundReport("Halving", "log₂ n", 2.0, latex=r"M = 5 \le 2", applies=False, why_not="no expert is perfect",
                      source="UCL COMP0078, Online learning: Halving")
    page.theorem([ok, ok, off, ok], run_line="This run: 5 mistakes.", title="The theorems")


def test_a_theorem_box_is_one_markdown_until_a_report_does_not_apply():
    """Each element costs every rerun of every session: statements, inequalities and sources share one
    markdown, split only by the warning of a report that does not apply; a source keeps its brackets."""
    at = AppTest.from_function(_theorem_box, default_timeout=30).run()
    assert not at.exception and not at.error
    boxes = [m.value for m in at.markdown if "Source:" in m.value]
    assert len(boxes) == 2 and len(at.warning) == 1 and not [c for c in at.caption if "Source:" in c.value]
    first, second = boxes
    assert first.startswith("**The theorems**") and first.count("$$\nR = 1") == 2 and "M = 5" in first
    assert first.count("Source: ") == 2 and "Halving" not in first.split("M = 5")[0]
    assert second.count("Source: ") == 2 and second.index("This run: 5 mistakes.") < second.rindex("Source: ")
    assert ":gray[:small[Source: UCL COMP0078, Online learning: Hedge, Theorem \\[LW94, FS97\\].]]" in first
    assert "no expert is perfect" in at.warning[0].value


def test_bound_report_refuses_a_silent_failure():
    with pytest.raises(StreamError):
        BoundReport("Halving", "log₂ n", 3.0, applies=False)


# -- link notes and the preset box ----------------------------------------------------------------

def test_a_link_holding_a_default_value_is_not_reported_as_ignored():
    at = run_page("pages/widrow_hoff.py", query={"d": "2", "stream": "Generated", "eta": "0.2"})
    assert not [w.value for w in at.warning if "do not fit" in w.value]
    at = run_page("pages/widrow_hoff.py", query={"d": "99"})                 # out of range: ignored, and said
    assert [w.value for w in at.warning if "do not fit" in w.value and "d=99" in plain(w.value)]


def test_the_preset_box_names_the_preset_a_link_reproduces():
    entry = registry.lesson("widrow_hoff")
    preset = entry.presets[1]
    at = run_page(entry.path, query={k: str(v) for k, v in preset.values.items()})
    assert at.selectbox(key="preset").value == preset.name
    assert any(preset.name in i.value for i in at.info)
    key = next(k for k in preset.values if k == "eta")
    at.slider(key=key).set_value(0.5).run()                                # explore from there
    assert at.selectbox(key="preset").value == "(your own settings)"


def test_log_axes_label_whole_values_only():
    from olapp.figures import log_ticks

    short = log_ticks([1, 400])
    assert short["tickvals"][:7] == [1, 2, 5, 10, 20, 50, 100] and short["ticktext"][:7] == ["1", "2", "5", "10", "20",
                                                                                               "50", "100"]
    wide = log_ticks([0.5, 3e7])
    assert all(abs(np.log10(v) - round(np.log10(v))) < 1e-9 for v in wide["tickvals"])   # decades only
    assert "10⁸" in wide["ticktext"] and "1,000" in wide["ticktext"]
    fig = figures.curves_with_bounds({"a": np.arange(1.0, 300.0)}, {"b": 500.0}, log_y=True)
    assert fig.layout.yaxis.tickvals is not None and fig.layout.yaxis.type == "log"
