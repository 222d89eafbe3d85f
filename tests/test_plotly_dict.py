"""olapp.compat.plotly_dict (a hook) equals plotly's fig.to_dict() exactly (keys in order, values, array specs), so the
charts' JSON is the same byte for byte."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from olapp import compat, registry
from olapp.figures import Fig, axes, scatter
from tests.helpers import run_page


def _same(a, b, path="") -> None:
    """Exactly equal: the same types, dict keys in the same order, arrays equal with their dtype."""
    assert type(a) is type(b), (path, type(a), type(b))
    if isinstance(a, dict):
        assert list(a) == list(b), (path, list(a), list(b))
        for k in a:
            _same(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{path}[{i}]")
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape, path
        assert a.dtype == object and a.tolist() == b.tolist() or a.tobytes() == b.tobytes(), path
    elif isinstance(a, float) and np.isnan(a):
        assert np.isnan(b), path
    else:
        assert a == b, (path, a, b)


_TO_DICT = compat.plotly_dict


def _check(fig) -> None:
    mine, theirs = _TO_DICT(fig), fig.to_dict()
    _same(mine, theirs)
    assert pio.to_json(mine, validate=False) == pio.to_json(theirs, validate=False)


def _edge_figure() -> go.Figure:
    """Arrays of every kind plotly converts (or not): float64 with NaN/inf, 2-d and strided, int64 in
    each narrow range and beyond, unsigned, float32, bool, object, strings, empty, 0-d, big-endian,
    pandas, arrays in lists and tuples and under a skipped key."""
    rng = np.random.default_rng(0)
    base = rng.standard_normal((6, 4))
    data = [
        scatter(np.array([1.0, np.nan, np.inf, -np.inf, -0.0]), base[:, 1], "floats", mode="lines",
                customdata=base[:, :2], line=dict(width=2)),
        scatter(np.arange(5), np.array([-129, 0, 127, 5, 9]), "int8 and int16", marker=dict(size=np.arange(5) * 40_000)),
        scatter(np.array([-(2**40), 1]), np.array([2**31, -3]), "int64 kept", text=np.array(["a", "b"])),
        scatter(np.array([1, 2], dtype=np.uint64), np.array([1.5, 2.5], dtype=np.float32), "uint and float32",
                selectedpoints=np.array([True, False])),
        scatter(np.array([], dtype=float), np.zeros(0, dtype=np.int64), "empty", hovertext=np.array([None, 3], dtype=object)),
        scatter(np.float64(3.0) * np.ones(()), np.array(2.0), "0-d", ids=np.array([1, 2], dtype=np.int32)),
        scatter(np.array([1.0, 2.0], dtype=">f8"), np.array([3, 4], dtype=">i8"), "big-endian"),
        scatter(pd.Series([1.0, 2.0]), pd.Index([3, 4]), "pandas"),
        scatter(base.T[0], base[::2, 3], "strided", meta=(np.array([1.0]), {"a": np.arange(3)}),
                customdata=np.asfortranarray(base)),
        dict(type="heatmap", z=base, x=np.linspace(0, 1, 4), y=[np.array([1.0]), 2], name="heat"),
        scatter([None], [None], "no points", marker={"color": "red"}, legendrank=1000, showlegend=True),
    ]
    fig = Fig().add(*data)
    fig.vline(2.5, "a label")
    lay = axes("round t", "value")
    lay["xaxis"].update(range=np.array([0.0, 5.0]), tickvals=np.array([1, 2, 3]))
    lay["yaxis"].update(type="log", tickvals=[1, 10], ticktext=("1", "10"))
    return fig.build({"title": {"text": "edge cases"}, "meta": {"k": np.int64(3), "b": np.bool_(True), "v": np.arange(4.0)}, **lay})


def test_to_dict_equals_plotly_on_arrays_of_every_kind():
    fig = _edge_figure()
    _check(fig)
    _check(go.Figure(fig))                               # a validated copy
    _check(go.Figure(fig.to_dict()))                     # typed-array specs in, as a figure read back
    _check(go.Figure())
    with_frames = go.Figure(fig, frames=[go.Frame(data=[go.Scatter(x=np.arange(3.0))])])
    _check(with_frames)                                  # frames: plotly's own to_dict


def test_to_dict_does_not_change_the_figure():
    fig = _edge_figure()
    before = pio.to_json(fig.to_dict(), validate=False)
    compat.plotly_dict(fig)
    compat.plotly_dict(fig)
    assert pio.to_json(fig.to_dict(), validate=False) == before
    assert isinstance(fig.data[0].x, np.ndarray)          # the figure still holds its arrays


@pytest.mark.parametrize("entry", list(registry.lessons()), ids=lambda e: e.slug)
def test_every_chart_of_every_lesson_serialises_as_plotly_would(entry, monkeypatch):
    seen = []

    def checked(fig):
        _check(fig)
        seen.append(fig)
        return _TO_DICT(fig)

    monkeypatch.setattr(compat, "plotly_dict", checked)
    from olapp import cache

    cache.clear()                      # charts serialised by an earlier test would not be serialised again
    run_page(entry.path)
    assert seen, f"/{entry.slug}: no chart serialised"


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                                   "float32", "float64", "bool", ">f8"])
def test_the_one_typed_array_encoder_writes_what_plotly_writes(dtype):
    from _plotly_utils.utils import to_typed_array_spec

    from olapp.compat import typed_array_spec

    rng = np.random.default_rng(0)
    wide = {"int64": [0, 5, -300, 70_000, 2**40], "uint64": [0, 5, 300, 70_000, 2**40]}
    for values in ([[1, 2], [3, 4]], [0, 1, 1], wide.get(dtype, [0, 1, 2]), rng.integers(0, 100, 7)):
        for cut in range(1, len(values) + 1):
            v = np.asarray(values[:cut]).astype(dtype)
            mine = typed_array_spec(v)
            theirs = to_typed_array_spec(v.copy())
            if mine is None:
                assert not isinstance(theirs, dict) or not v.dtype.isnative, (dtype, v, theirs)
            else:
                assert mine == theirs, (dtype, v)
