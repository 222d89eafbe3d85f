"""Every run has a budget (olcore.budget; olapp.kit.LessonPage.run; olapp.controls.csv_upload).

- every analysis a page runs has an estimate, or a reason it needs none, and the estimates name real
  functions with their own arguments;
- the estimates grow with the rounds and the columns, and match the memory the analyses really take
  (tracemalloc) within a factor on small streams;
- the smaller view of a stream (its first columns, a sample of its rows) fits, and is what it says;
- the generated streams' largest settings fit the budget;
- under AppTest: every lesson with an upload runs on a small upload with every analysis it hands the
  upload under an estimate; given a 300 × 10,000 stream, a lesson whose analyses are over the budget
  says so (the limit, the step that needs it) and offers a smaller view, and that view runs; the
  upload's help states the limits.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from benchmarks.budget import _cases, _stream
from olcore import StreamError, budget, streams
from olcore.budget import Size
from olcore.stream import KINDS
from tests.helpers import app_test

ROOT = Path(__file__).resolve().parent.parent
CASES = _cases()          # name -> (kind, function, arguments(stream, u)): each as its page calls it


def _page_runs():
    """(page file, qualified name) of every function a page hands to ``page.run`` or ``page.stream``."""
    for path in sorted((ROOT / "pages").glob("*.py")):
        tree = ast.parse(path.read_text())
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    aliases[a.asname or a.name] = f"{node.module}.{a.name}"
            elif isinstance(node, ast.Import):
                for a in node.names:
                    aliases[a.asname or a.name] = a.name
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("run", "stream") and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "page" and node.args):
                target = node.args[0]
                assert isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name), ast.dump(target)
                fn = getattr(importlib.import_module(aliases[target.value.id]), target.attr)
                yield path.name, budget.qualname(fn)


def test_every_analysis_a_page_runs_has_an_estimate_or_a_reason_it_needs_none():
    runs = list(_page_runs())
    assert len(runs) > 40                                    # (the walk finds the pages' runs)
    missing = sorted({f"{page}: {name}" for page, name in runs if name not in budget.ESTIMATES
                      and name not in budget.FIXED})
    assert not missing, missing
    # and nothing is listed that no page runs (a renamed analysis would otherwise keep a stale entry)
    ran = {name for _, name in runs}
    assert not (set(budget.ESTIMATES) | set(budget.FIXED)) - ran


def test_each_estimate_names_a_real_analysis_and_takes_its_arguments():
    for name, entry in budget.ESTIMATES.items():
        module, _, attr = name.rpartition(".")
        fn = getattr(importlib.import_module(module), attr)
        want = list(inspect.signature(fn).parameters)
        got = list(inspect.signature(entry.estimate).parameters)
        assert got == want, (name, got, want)
        for param in entry.rows:
            assert param in want, (name, param)
    assert set(CASES) == {n.removeprefix("olcore.lessons.") for n in budget.ESTIMATES}


def _cost(name: str, T: int, d: int) -> budget.Cost:
    kind, fn, make_args = CASES[name]
    args, kwargs = make_args(Size(kind, T, d), lambda: np.zeros(d))
    return budget.estimate(fn, *args, **kwargs)


@pytest.mark.parametrize("name", sorted(CASES))
def test_estimates_grow_with_the_rounds_and_the_columns(name):
    for T in (60, 500, 2000):
        for d in (3, 50, 600):
            c = _cost(name, T, d)
            assert c.bytes > 0 and c.seconds > 0
            for bigger in (_cost(name, 2 * T, d), _cost(name, T, 2 * d)):
                # (the kernel Perceptron's margin is computed for T <= 3,000 rounds only: beyond, less work)
                if name == "kernel_perceptron.analyse" and 2 * T > 3000:
                    continue
                assert bigger.bytes >= c.bytes * (1 - 1e-9), (name, T, d, "bytes")
                assert bigger.seconds >= c.seconds * (1 - 1e-9), (name, T, d, "seconds")


@pytest.mark.parametrize("name", sorted(CASES))
def test_estimated_memory_matches_the_analysis_within_a_factor(name):
    """The peak of traced memory (numpy's arrays) of a real run on a small random stream, against the estimate:
    within a factor 4 either way, above a floor of 1 MB (below it interpreter objects weigh as much)."""
    kind, fn, make_args = CASES[name]
    from olcore.lessons import perceptron as pc

    for T, d in ((300, 40), (100, 150)):
        s = _stream(kind, T, d, seed=3)
        args, kwargs = make_args(s, lambda: pc.analyse(s, 1, "Upload").u)
        est = budget.estimate(fn, *args, **kwargs).bytes
        fn(*args, **kwargs)                 # (a first call may compile kernels: their allocations are not the run's)
        tracemalloc.start()
        try:
            fn(*args, **kwargs)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        floor = 2**20
        assert max(est, floor) <= 4 * max(peak, floor) and max(peak, floor) <= 4 * max(est, floor), \
            (name, T, d, round(est / 2**20, 1), round(peak / 2**20, 1))


def test_the_wide_stream_needs_gigabytes_for_the_second_order_perceptron_and_a_smaller_view_fits():
    fn = "olcore.lessons.online_svm.analyse_second_order"
    wide = _stream("linear", 300, 10_000)
    v = budget.check(fn, wide, 1.0)
    assert v is not None and not v.fits and v.over_memory and v.over_time
    assert v.size == Size("linear", 300, 10_000)
    assert v.cost.bytes > 4 * 2**30                      # d × d matrices of 800 MB each
    assert "10,000 × 10,000" in v.cost.heaviest("bytes").what
    offer = budget.smaller_view(fn, wide, wide, 1.0)
    assert offer.columns is not None and 10 <= offer.columns < 10_000
    assert budget.check(fn, budget.reduce(wide, columns=offer.columns), 1.0).fits
    more = offer.columns * 2                             # the offer is (about) the most that fits
    assert not budget.check(fn, Size("linear", 300, more), 1.0).fits
    # no sample of 300 rounds makes 10,000 columns fit: the d × d matrix is there with one round
    assert offer.rows is None


def test_a_smaller_view_keeps_what_it_says():
    s = streams.from_arrays("linear", np.arange(60.0).reshape(20, 3), np.where(np.arange(20) % 3, 1, -1),
                            {"source": "csv", "columns": ["a", "b", "c", "y"]})
    cols = budget.reduce(s, columns=2)
    assert cols.X.shape == (20, 2) and np.array_equal(cols.X, s.X[:, :2]) and np.array_equal(cols.y, s.y)
    assert cols.info["columns"] == ["a", "b", "y"] and "first 2 of 3 features" in cols.info["view"]
    rows = budget.reduce(s, rows=12, seed=0)
    assert rows.X.shape == (12, 3)
    kept = [int(r[0]) // 3 for r in rows.X]              # row i is (3i, 3i+1, 3i+2): which rows, in order
    assert kept == sorted(kept) and len(set(kept)) == 12
    assert np.array_equal(rows.y, s.y[kept])
    assert np.array_equal(budget.reduce(s, rows=12, seed=0).X, rows.X)     # seeded
    assert "a sample of 12 of its 20 rounds" in rows.info["view"]
    assert not rows.X.flags.writeable                    # a stream, validated like any other
    # an experts stream keeps its kind's alphabet
    e = budget.reduce(streams.perfect_expert(T=30, n=8, seed=1), columns=3, rows=10)
    assert e.kind == "experts" and e.X.shape == (10, 3)


def test_offers_are_round_numbers_that_fit():
    big = Size("regression", 5000, 1000)
    fn = "olcore.lessons.widrow_hoff.analyse"
    v = budget.check(fn, big, 0.2, True)
    assert not v.fits
    s = _stream("regression", 5000, 1000)
    offer = budget.smaller_view(fn, s, s, 0.2, True)
    for n in (offer.columns, offer.rows):
        assert n is not None and len(str(n).rstrip("0")) <= 2     # two significant digits
    assert budget.check(fn, Size("regression", 5000, offer.columns), 0.2, True).fits
    assert budget.check(fn, Size("regression", offer.rows, 1000), 0.2, True).fits


def test_derived_rounds_are_shrunk_with_the_stream():
    """/ogd hands its sweeps the upload's T (``a.T``): the smaller view recomputes it from the sample."""
    fn = "olcore.lessons.ogd.k_sweep"
    s = _stream("oco", 100_000, 2)
    assert not budget.check(fn, 100_000).fits
    offer = budget.smaller_view(fn, s, 100_000)
    assert offer.columns is None and offer.rows is not None        # fewer columns cannot help: the rounds do
    assert budget.check(fn, offer.rows).fits


GENERATED_MAXIMA = [
    # (analysis, arguments) at the largest settings each page's controls allow for its generated streams
    ("halving.analyse", (Size("experts", 2000 + 10, 1024),)),
    ("kernel_perceptron.analyse", (Size("linear", 1000, 2), "rbf", 20.0, 6, 2.0)),
    ("kernel_perceptron.budget_run", (Size("linear", 1000, 2), 100, 0, "rbf", 20.0, 6, 2.0)),
    ("mistakes_to_risk.analyse", (Size("linear", 2000, 20), "Label noise", 20, 0.3, 0, "perceptron", 0.5)),
    ("mistakes_to_risk.repetitions", ("Label noise", 1000, 20, 0.3, 0, "perceptron", 0.5, 200, None)),
    ("ogd.analyse", (Size("oco", 2000, 20), "logistic", "ball", 2.0, None, 10, 16.0)),
    ("ogd.sweep", ("Noisy", 2000, 0.4, "logistic", "ball", 2.0, tuple(range(8)), 13, 64.0, 20)),
    ("ogd.experts", (2000, 200, 0)),
    ("ogd.k_sweep", (2000,)),
    ("online_svm.analyse_alma", (Size("linear", 500, 2), 0.1, 200)),
    ("online_svm.analyse_second_order", (Size("linear", 500, 100), 0.01)),
    ("online_svm.analyse_selective", (Size("linear", 500, 100), 10.0, 0.01)),
    ("perceptron.analyse", (Size("linear", 2000, 2), 20, "Generated")),
    ("perceptron.compare", (Size("linear", 2000, 2), 20, 10.0, 3.0, np.zeros(2))),
    ("perceptron.ogd_regret", (Size("linear", 2000, 2), 20, np.zeros(2))),
    ("perceptron.conservative", (Size("linear", 2000, 2), 20)),
    ("perceptron.hinge_view", (Size("linear", 2000, 2), np.zeros(2))),
    ("perceptron.regularised", (Size("linear", 2000, 2), 0.05)),
    ("perceptron.dual_ascent", (Size("linear", 2000, 2), 10.0)),
    ("widrow_hoff.unit_ball", (Size("regression", 10_000, 20),)),
    ("widrow_hoff.tuning", (Size("regression", 10_000, 20), True)),
    ("widrow_hoff.analyse", (Size("regression", 10_000, 20), 0.99, True)),
    ("widrow_hoff.online_to_batch", (Size("regression", 10_000, 20), 0.99, 2000, 200, 0, True)),
    ("widrow_hoff.implicit", (Size("regression", 10_000, 20), 0.99, True)),
    ("winnow.analyse", (Size("disjunction", 500, 10_000), 3.0)),
    ("winnow.analyse", (Size("disjunction", 3000, 1000), 3.0)),
    ("wm_vs_hedge.analyse", (Size("experts", 5000, 64), 0.99, 0.5, "entropic", 2.0, 10.0, 0, True)),
    ("wm_vs_hedge.wa_equality", (Size("experts", 5000, 64),)),
    ("wm_vs_hedge.tuning", (Size("experts", 5000, 64), 0.5, 0.99, 0)),
    ("wm_vs_hedge.scaled_hedge", (Size("experts", 5000, 64), 100.0)),
    ("wm_vs_hedge.sweep", (Size("experts", 5000, 64), "noisy", 0.5, 0)),
]


@pytest.mark.parametrize("name,args", GENERATED_MAXIMA, ids=[f"{n}-{i}" for i, (n, _) in enumerate(GENERATED_MAXIMA)])
def test_the_generated_streams_largest_settings_fit(name, args):
    v = budget.check(f"olcore.lessons.{name}", *args)
    assert v.fits, (name, budget.format_bytes(v.cost.bytes), budget.format_seconds(v.cost.seconds),
                    v.cost.heaviest("seconds").what)


def test_limits_in_words():
    text = budget.limits_text()
    assert budget.format_bytes(budget.MEMORY_LIMIT) in text and budget.format_seconds(budget.TIME_LIMIT) in text
    assert "fewer columns" in text and "sample of its rows" in text
    assert [budget.format_bytes(b) for b in (300 * 2**20, 4.4 * 2**30, 24 * 2**30)] == ["300 MB", "4.4 GB", "24 GB"]
    assert [budget.format_seconds(s) for s in (0.5, 2.0, 40, 700, 86_400)] == ["0.5 s", "2 s", "40 s", "12 min", "24 h"]


# -- the pages under the budget (AppTest) ------------------------------------------------------------------

#: lesson -> (upload kind, the URL settings that open every view of it that runs an analysis on the upload)
LESSONS = {
    "halving": ("experts", [{}]),
    "kernel_perceptron": ("linear", [{}]),
    "mistakes_to_risk": ("linear", [{}]),
    "ogd": ("oco", [{}]),
    "online_svm": ("linear", "part"),
    "perceptron": ("linear", "deeper"),
    "widrow_hoff": ("regression", "further"),
    "winnow": ("disjunction", [{}]),
    "wm_vs_hedge": ("experts", "further"),
}


def _views(slug: str) -> list[dict]:
    kind, views = LESSONS[slug]
    if not isinstance(views, str):
        return views
    text = importlib.import_module(f"olapp.content.{slug}")
    topics = text.further_topics() if slug == "widrow_hoff" else getattr(
        text, {"online_svm": "PARTS", "perceptron": "TOPICS", "wm_vs_hedge": "FURTHER"}[slug])
    return [{views: name} for name in topics]


def _open(slug: str, stream, query: dict | None = None):
    at = app_test(timeout=120)
    at.query_params["stream"] = "Upload"
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.session_state[f"_{slug}_upload_stream"] = stream          # what csv_upload keeps for a valid file
    at.switch_page(f"pages/{slug}.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def _upload_like(kind: str, T: int, d: int, seed: int = 1):
    """A stream as an upload arrives: validated, with nothing but the CSV's header in its info."""
    s = _stream(kind, T, d, seed=seed)
    prefix = KINDS[kind].prefix
    header = [f"{prefix}{i}" for i in range(1, d + 1)] + ([] if s.y is None else ["y"])
    return streams.from_arrays(kind, np.array(s.X), None if s.y is None else np.array(s.y),
                               {"source": "csv", "columns": header})


def _budget_messages(at) -> list[str]:
    return [w.value for w in at.warning if "too large to compute here" in w.value]


@pytest.mark.parametrize("slug", sorted(LESSONS))
def test_every_analysis_an_upload_reaches_is_under_an_estimate(slug):
    from olapp.kit import LessonPage

    kind, _ = LESSONS[slug]
    small = _upload_like(kind, 40, 3)
    LessonPage.UNBUDGETED.clear()
    for query in _views(slug):
        at = _open(slug, small, query)
        assert not _budget_messages(at), (slug, query, _budget_messages(at))
        assert not any("Upload a CSV" in i.value for i in at.info)                # the upload was used
    assert not LessonPage.UNBUDGETED, sorted(LessonPage.UNBUDGETED)


#: Lessons whose analyses are linear in rounds × columns: a 300 × 10,000 stream of their kind fits the budget.
FIT_WIDE = {"halving": "halving.analyse", "winnow": "winnow.analyse"}


@pytest.mark.parametrize("slug,query", [(s, {}) for s in sorted(LESSONS)]
                         + [("online_svm", {"part": "Second-order Perceptron"})],
                         ids=lambda v: v if isinstance(v, str) else "-".join(map(str, v.values())) or "first")
def test_a_wide_upload_gets_the_budget_message_and_its_smaller_view_runs(slug, query):
    kind, _ = LESSONS[slug]
    wide = _upload_like(kind, 300, 10_000)
    at = _open(slug, wide, query)
    messages = _budget_messages(at)
    if slug in FIT_WIDE:
        # Halving and Winnow are linear in rounds × experts (attributes): 10,000 columns fit, the page runs
        kind, fn, make_args = CASES[FIT_WIDE[slug]]
        args, kwargs = make_args(wide, lambda: None)
        assert budget.check(fn, *args, **kwargs).fits
        assert not messages, messages
        assert at.session_state[f"_{slug}_upload_stream"].X.shape == (300, 10_000)
        return
    assert len(messages) == 1, [w.value for w in at.warning]
    m = messages[0]
    assert "For your stream of 300 rounds × 10,000" in m and "The step that needs" in m
    assert "where one analysis may use at most 300 MB" in m or "where the limit is about 2 s" in m
    assert "whole file stays in this session" in m
    assert not at.error
    # take the offers (the columns first) until the view runs: each is a smaller view of the one before
    for _ in range(4):
        buttons = {b.key: b for b in at.button if b.key in ("budget_columns", "budget_rows")}
        assert buttons, "an offer of a smaller view"
        (buttons.get("budget_columns") or buttons["budget_rows"]).click().run()
        assert not at.exception, [e.message for e in at.exception]
        if not _budget_messages(at):
            break
    assert not _budget_messages(at), _budget_messages(at)
    view = at.session_state[f"_{slug}_upload_stream"]
    assert view.X.shape[1] < 10_000 or view.T < 300
    assert at.session_state[f"_{slug}_upload_whole"].X.shape == (300, 10_000)  # the whole stream is kept
    assert any("A smaller view of your stream" in i.value for i in at.info)
    assert not at.error
    # and back to the whole stream: the message again
    at.button(key=f"{slug}_upload_whole").click().run()
    assert not at.exception
    assert at.session_state[f"_{slug}_upload_stream"].X.shape == (300, 10_000)
    assert _budget_messages(at)


def test_the_upload_help_states_the_limits():
    at = app_test()
    at.query_params["stream"] = "Upload"
    at.switch_page("pages/perceptron.py")
    at.run()
    assert not at.exception
    help_text = " ".join(c.value for c in at.caption)
    assert "At most 100,000 rounds" in help_text                   # the file's limits (format_help)
    assert "up to 300 MB of memory" in help_text and "about 2 s of computing" in help_text
    assert "fewer columns" in help_text


def test_a_generated_stream_over_the_budget_says_which_setting_to_lower(monkeypatch):
    """Over the budget without an upload (a limit lowered here): no offer, the message names the settings."""
    at = app_test()
    at.switch_page("pages/perceptron.py")
    monkeypatch.setattr(budget, "check", _strict_check)
    at.run()
    assert not at.exception
    messages = _budget_messages(at)
    assert messages and "Choose smaller settings above: fewer rounds, a smaller dimension" in messages[0]
    assert not [b for b in at.button if b.key in ("budget_columns", "budget_rows")]


_check = budget.check


def _strict_check(fn, *args, **kwargs):
    v = _check(fn, *args, **kwargs)
    return None if v is None else budget.Verdict(v.name, v.cost, v.size, time_limit=1e-9)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_large_upload_read_in_a_child_process_is_the_same_stream(kind, monkeypatch):
    """csv_upload reads a file of 1 MB or more in a child process (the server's other sessions run on meanwhile):
    the same arrays, kind and header as read_csv gives, and read_csv's own message for a bad file."""
    from olapp import controls

    monkeypatch.setattr(controls, "READ_ASIDE_BYTES", 0)
    s = _upload_like({"experts01": "experts", "losses": "experts"}.get(kind, kind), 50, 4, seed=2)
    if kind == "experts01":
        s = streams.from_arrays(kind, s.X * 0.5, s.y * 0.25)
    elif kind == "losses":
        s = streams.from_arrays(kind, s.X * 0.5)
    data = streams.to_csv(s).encode()
    got, want = controls._read_upload(data, kind), streams.read_csv(data, kind)
    assert got.kind == want.kind and got.info == want.info
    assert np.array_equal(got.X, want.X) and got.X.dtype == want.X.dtype and not got.X.flags.writeable
    assert (got.y is None and want.y is None) or (np.array_equal(got.y, want.y) and got.y.dtype == want.y.dtype)
    bad = data.replace(b"\n", b"\nnot a number,", 1)
    with pytest.raises(StreamError) as here:
        streams.read_csv(bad, kind)
    with pytest.raises(StreamError) as child:
        controls._read_upload(bad, kind)
    assert str(child.value) == str(here.value)
