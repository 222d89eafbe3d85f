"""A figure's plain dict, as ``go.Figure.to_dict`` makes it, without its deep copy and per-array lookups.

``olapp.controls`` serialises every figure a page shows once per figure (a new seed: every figure
of the page).  plotly's ``to_dict`` deep-copies the figure (every trace dict, every array), then
walks the copy and replaces each numpy array by plotly.js's typed-array spec
(``{"dtype": "f8", "bdata": <base64>}``), asking narwhals on the way whether each array is a data
frame: measured here, 1.5-2 ms a figure, three quarters of a new seed's chart serialisation.

:func:`to_dict` returns an equal dict (same keys in the same order, same values, arrays converted
the same way) from a structural copy: new dicts, lists and tuples, the figure's leaves shared (the
JSON encoder only reads them).  A numpy array of float64 or int64 is converted here exactly as
``_plotly_utils.utils.to_typed_array_spec`` converts it (a C-ordered copy's bytes, int64 narrowed to
the smallest of int8/int16/int32 that holds its range); any other array or array-like goes to
plotly's own function.  ``tests/test_figjson.py`` compares it with ``fig.to_dict()`` on every
lesson's figures and on arrays of every kind.
"""

from __future__ import annotations

import base64
import copy

import numpy as np
from _plotly_utils.utils import is_homogeneous_array, to_typed_array_spec

__all__ = ["to_dict"]

#: _plotly_utils.utils.is_skipped_key: values under these keys are never converted (nor walked).
_SKIPPED = ("geojson", "layer", "layers", "range")
#: int64 narrowed as plotly narrows it: (dtype, lo, hi, short name), smallest first.
_NARROW = ((np.int8, -128, 127, "i1"), (np.int16, -32768, 32767, "i2"),
           (np.int32, -2147483648, 2147483647, "i4"))
_SCALARS = (str, int, float, type(None))
_F8 = np.dtype("<f8")
_I8 = np.dtype("<i8")


def _spec(a: np.ndarray, short: str) -> dict:
    out = {"dtype": short, "bdata": base64.b64encode(a).decode("ascii")}
    if a.ndim > 1:
        out["shape"] = str(a.shape)[1:-1]
    return out


def _typed(v: np.ndarray):
    """``to_typed_array_spec(v)`` for a numpy array."""
    if v.ndim == 0 or v.size == 0 or v.dtype not in (_F8, _I8) or v.dtype.byteorder == ">":
        return to_typed_array_spec(copy.deepcopy(v))
    a = np.ascontiguousarray(v)                 # plotly: ascontiguousarray(v.copy()), the same bytes
    if v.dtype == _F8:
        return _spec(a, "f8")
    hi, lo = a.max(), a.min()
    for dtype, low, high, short in _NARROW:
        if hi <= high and lo >= low:
            return _spec(a.astype(dtype), short)
    return to_typed_array_spec(copy.deepcopy(v))   # wider than int32: plotly keeps the int64 array


def _walk(obj):
    """A copy of ``obj`` (dicts, lists and tuples new) with ``convert_to_base64`` applied: an array
    that is a dict's value (under a key not skipped) becomes its typed-array spec; an array in a
    list or tuple stays an array."""
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            if k in _SKIPPED:
                out[k] = v
            elif isinstance(v, np.ndarray):
                out[k] = _typed(v)
            elif isinstance(v, (dict, list, tuple)) or isinstance(v, _SCALARS):
                out[k] = _walk(v)
            elif is_homogeneous_array(v):         # a pandas Series, a list-like with __array__, ...
                out[k] = to_typed_array_spec(copy.deepcopy(v))
            else:
                out[k] = v
        return out
    if isinstance(obj, list):
        return [_walk(v) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_walk(v) for v in obj)
    return obj


def to_dict(fig) -> dict:
    """``fig.to_dict()``: ``{"data": [...], "layout": {...}}`` (and ``"frames"`` when it has any),
    numpy arrays as plotly.js typed-array specs."""
    try:
        data, layout, frames = fig._data, fig._layout, fig._frame_objs
    except AttributeError:                        # a plotly whose internals moved
        return fig.to_dict()
    if frames:
        return fig.to_dict()
    return {"data": [_walk(tr) for tr in data], "layout": _walk(layout)}
