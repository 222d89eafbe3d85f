"""olapp.cache: runs and figures computed once and shared; olapp.controls' chart element equals
st.plotly_chart's."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from olapp import cache
from olapp.figures import figure
from olcore import StreamError, streams


@dataclass(frozen=True)
class _Result:
    w: np.ndarray
    n: int


_calls: list = []


def _analyse(stream, k):
    _calls.append(k)
    return _Result(stream.X[:, 0] * k, k)


def _draw(result, t):
    _calls.append(("draw", t))
    return {"w": float(result.w.sum()), "t": t}


def _fails(x):
    _calls.append(x)
    raise StreamError("x must be good, found bad")


def test_a_run_is_computed_once_and_every_caller_gets_the_same_object():
    _calls.clear()
    s = streams.separable(T=50, d=2, gamma=0.1, seed=3)
    a = cache.memo(_analyse, s, 2)
    b = cache.memo(_analyse, s, 2)
    c = cache.memo(_analyse, streams.separable(T=50, d=2, gamma=0.1, seed=3), 2)   # equal data, another object
    assert a is b is c and _calls == [2]
    d = cache.memo(_analyse, s, 3)
    assert d is not a and _calls == [2, 3]
    e = cache.memo(_analyse, streams.separable(T=50, d=2, gamma=0.1, seed=4), 2)   # other data
    assert e is not a and _calls == [2, 3, 2]


def test_a_stored_result_is_read_only():
    s = streams.separable(T=20, d=2, gamma=0.1, seed=5)
    a = cache.memo(_analyse, s, 7)
    with pytest.raises(ValueError):
        a.w[0] = 1.0


def test_a_result_passed_on_is_keyed_by_its_token_and_figures_are_shared():
    _calls.clear()
    s = streams.separable(T=30, d=2, gamma=0.1, seed=6)
    a = cache.memo(_analyse, s, 1)
    assert cache.key_of(a)[0] == "tok"
    first = cache.memo(_draw, a, 4)
    assert cache.memo(_draw, a, 4) is first and _calls == [1, ("draw", 4)]
    cache.memo(_draw, a, 5)
    assert _calls[-1] == ("draw", 5)


def test_errors_reach_the_caller_and_are_not_stored():
    _calls.clear()
    for _ in range(2):
        with pytest.raises(StreamError):
            cache.memo(_fails, 1)
    assert _calls == [1, 1]


def test_an_argument_it_cannot_key_runs_the_call_unmemoised():
    _calls.clear()
    with pytest.raises(cache.Uncacheable):
        cache.key_of(lambda: 0)                 # two lambdas share a name: never a key
    with pytest.raises(cache.Uncacheable):
        cache.key_of(object())
    marker = object()
    out = [cache.memo(_draw, _Result(np.ones(2), 1), marker) for _ in range(2)]
    assert out[0] == out[1] == {"w": 2.0, "t": marker}
    assert out[0] is not out[1] and len([c for c in _calls if c[0] == "draw"]) == 2


def test_concurrent_callers_wait_for_one_computation():
    _calls.clear()
    started, release = threading.Event(), threading.Event()

    def slow(x):
        _calls.append(x)
        started.set()
        release.wait(10)
        return [x]

    got = []
    threads = [threading.Thread(target=lambda: got.append(cache.memo(slow, 99))) for _ in range(5)]
    threads[0].start()
    started.wait(10)
    for th in threads[1:]:
        th.start()
    release.set()
    for th in threads:
        th.join(10)
    assert _calls == [99] and len(got) == 5 and all(g is got[0] for g in got)


def test_figure_builders_are_memoised_and_keep_the_plain_builder():
    import olapp.figures.perceptron as figs

    assert figs.mistakes.build is not figs.mistakes and figs.mistakes.__name__ == "mistakes"
    calls = []

    @figure
    def plot(x):
        calls.append(x)
        import plotly.graph_objects as go
        return go.Figure()

    assert plot(1) is plot(1) and calls == [1]


def test_clear_forgets_everything():
    _calls.clear()
    cache.memo(_draw, _Result(np.ones(2), 1), 1)
    cache.clear()
    cache.memo(_draw, _Result(np.ones(2), 1), 1)
    assert len(_calls) == 2


def _two_charts():
    import numpy as np

    import plotly.graph_objects as go
    import streamlit as st

    from olapp import controls
    from olapp.figures import Fig, axes, scatter

    fig = Fig().add(scatter(np.arange(5), np.arange(5.0) ** 2, "squares", mode="lines")).round_marker(2).build(
        {"title": {"text": "a chart"}, **axes("round t", "value")}, height=380)
    st.plotly_chart(go.Figure(fig), key="by_streamlit", config={"displaylogo": False, "toImageButtonOptions": {
        "format": "png", "filename": "same", "scale": 2}})
    with st.container():
        controls.chart(fig, key="by_the_kit", filename="same")


def test_the_kit_sends_the_chart_streamlit_would_send():
    at = AppTest.from_function(_two_charts, default_timeout=60).run()
    assert not at.exception
    protos = {("kit" if "by_the_kit" in el.proto.id else "st"): el.proto for el in at.get("plotly_chart")}
    st_el, kit_el = protos["st"], protos["kit"]
    assert json.loads(kit_el.spec) == json.loads(st_el.spec)
    assert json.loads(kit_el.config) == json.loads(st_el.config)
    assert kit_el.theme == st_el.theme and kit_el.form_id == st_el.form_id
    assert kit_el.id != st_el.id and "by_the_kit" in kit_el.id


def test_keys_of_empty_and_object_arrays_follow_their_values():
    # an empty array (an empty block of points) has a key; object arrays are keyed by their values,
    # not by their bytes (pointers, which a freed object's successor can reuse)
    assert cache.key_of(np.array([])) == cache.key_of(np.zeros(0))
    assert cache.key_of(np.array([])) != cache.key_of(np.zeros(1))
    a, b = np.array(["x" * 3, None], dtype=object), np.array(["".join("xxx"), None], dtype=object)
    assert a[0] is not b[0] and cache.key_of(a) == cache.key_of(b)
    assert cache.key_of(a) != cache.key_of(np.array(["xxy", None], dtype=object))
def _tables():
    import pandas as pd
    import streamlit as st

    from olapp import controls

    df = pd.DataFrame({"a": ["1", "✗"], "b": ["0", "1"]}, index=["round 1", "after round 1"])
    styler = st.session_state.setdefault("styler", df.style.apply(   # one shared Styler, as a memoised view
        lambda d: pd.DataFrame([["color: red", ""], ["", "font-weight: 700"]], index=d.index, columns=d.columns),
        axis=None))
    rows = [{"mistake": 1, "round": 3}, {"mistake": 2, "round": 5}]
    st.dataframe(styler, width="stretch", height="content")
    controls.table(styler, width="stretch", height="content")
    st.dataframe(rows, width="stretch", hide_index=True)
    left, _ = st.columns(2)
    controls.table([dict(r) for r in rows], where=left, width="stretch", hide_index=True)   # equal rows: keyed by value


def test_the_kit_sends_the_table_streamlit_would_send_and_replays_it():
    import streamlit as st
    from streamlit.elements.lib.pandas_styler_utils import marshall_styler

    def elements(at):
        return [el.proto for el in at.get("dataframe")]

    st.cache_data.clear()
    at = AppTest.from_function(_tables, default_timeout=60).run()
    assert not at.exception
    first = elements(at)
    assert len(first) == 4
    calls = []
    real = marshall_styler

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    import streamlit.elements.arrow as arrow

    arrow.marshall_styler = counting
    try:
        at.run()                             # a rerun: the kit's tables are replayed, not built
    finally:
        arrow.marshall_styler = real
    assert not at.exception
    again = elements(at)
    assert len(calls) == 1                   # only st.dataframe styled its table again
    for protos in (first, again):
        by_st, kit, rows_st, rows_kit = protos
        assert kit.SerializeToString(deterministic=True).replace(kit.arrow_data.styler.uuid.encode(), b"") == \
            by_st.SerializeToString(deterministic=True).replace(by_st.arrow_data.styler.uuid.encode(), b"")
        assert rows_kit.SerializeToString(deterministic=True) == rows_st.SerializeToString(deterministic=True)


@dataclass(frozen=True)
class _Bag:
    k: int

    def times(self, x):
        _calls.append(("times", self.k, x))
        return self.k * x


def test_a_bound_method_is_keyed_by_the_object_it_is_bound_to():
    _calls.clear()
    two, three = _Bag(2), _Bag(3)
    assert cache.memo(two.times, 5) == 10 and cache.memo(three.times, 5) == 15    # not the first object's answer
    assert cache.memo(_Bag(2).times, 5) == 10 and _calls == [("times", 2, 5), ("times", 3, 5)]
    assert cache.key_of(two.times) != cache.key_of(three.times)


def test_an_array_nobody_can_write_is_hashed_once_and_any_other_by_its_current_bytes(monkeypatch):
    hashed = []
    real = cache._array_key_of
    monkeypatch.setattr(cache, "_array_key_of", lambda a: hashed.append(a.shape) or real(a))

    frozen = np.arange(200.0)
    frozen.setflags(write=False)
    assert cache.key_of(frozen) == cache.key_of(frozen) == real(np.arange(200.0))
    assert len(hashed) == 1                                 # kept with the array

    base = np.arange(200.0)
    view = base[::2]
    view.setflags(write=False)                              # read-only, but its base is not
    before = cache.key_of(view)
    base[0] = -1.0
    assert cache.key_of(view) != before                     # keyed by what it holds now
    plain = np.arange(5.0)
    first = cache.key_of(plain)
    plain[0] = 9.0
    assert cache.key_of(plain) != first
    assert len(hashed) == 5                                 # neither is kept

    stored = np.arange(300.0)
    stored.setflags(write=False)
    rows = stored.reshape(3, 100)                           # a view of a frozen array: frozen too
    assert not rows.flags.writeable and cache.key_of(rows) == cache.key_of(rows)
    assert len(hashed) == 6


def _same(x):
    return x


def test_an_evicted_result_keeps_its_token_while_another_entry_holds_it(monkeypatch):
    """Tokens follow the entries holding a result: an eviction drops them only with the last entry,
    and it looks only at the result evicted (not at every table, under the lock every lookup takes)."""
    cache.clear()
    monkeypatch.setattr(cache, "MAX_ENTRIES", 2)
    shared = cache.memo(_analyse, streams.separable(T=100, d=2, gamma=0.1, seed=0), 3)
    assert cache.key_of(shared)[0] == "tok"
    assert cache.memo(_same, shared) is shared               # a second entry, of another function, holds it
    for k in (4, 5):                                         # _analyse's entry for k = 3 is evicted
        cache.memo(_analyse, streams.separable(T=100, d=2, gamma=0.1, seed=0), k)
    assert cache.key_of(shared)[0] == "tok"                  # still held by _same's entry
    scans = []
    monkeypatch.setattr(cache, "_tables", _Watched(cache._tables, scans))
    for x in (1, 2):                                         # now _same's entry goes too
        cache.memo(_same, x)
    assert cache.key_of(shared)[0] != "tok"
    assert cache.key_of(shared.w)[0] != "tok"                # and so do its parts' tokens
    assert scans == [], "an eviction walked over every table"
    cache.clear()


class _Watched(dict):
    """The memo's tables, noting every walk over all of them."""

    def __init__(self, tables, scans):
        super().__init__(tables)
        self.scans = scans

    def values(self):
        self.scans.append("values")
        return super().values()
