"""Checks shared by every algorithm and reader: shapes, finiteness, alphabets, ranges.

Each raises :class:`olcore.StreamError` naming the field, what was found and what is
expected; none uses ``assert``.
"""

from __future__ import annotations

import numbers

import numpy as np

from .errors import StreamError

__all__ = [
    "row_col", "as_matrix", "as_binary_matrix", "as_labels", "check_binary", "check_unit_interval",
    "check_param", "check_seed", "check_int", "check_values", "check_range", "sci",
]


def row_col(r: int, c: int | None = None) -> str:
    """Default location wording: 1-based ``row r, column c``."""
    return f"row {r + 1}" + ("" if c is None else f", column {c + 1}")


def _at(name: str, found: str, at, r: int, c: int | None, expected: str) -> StreamError:
    """The error for a bad entry at (r, c).  With the default wording (:func:`row_col`, arrays a program
    passed) the message names the array: ``"X: found inf at row 3, column 2; ..."``.  With a caller's
    ``at`` (an uploaded file's ``"line 4, column 2"``, a typed point) the message starts with that place
    and names no array, since a student reads it: ``"line 4, column 2: found inf; ..."``."""
    where = at(r, c)
    if at is row_col:
        return StreamError.bad(name, f"{found} at {where}", expected)
    return StreamError.bad(name, found, expected, label=where)


def sci(x: float) -> str:
    """A power of ten as people write it in a file or a message: ``1e9``, ``1e-100``, ``2.5e12``."""
    m, e = f"{float(x):.6e}".split("e")
    m = m.rstrip("0").rstrip(".")
    return f"{m}e{int(e)}"


def as_matrix(X, name: str = "X", *, min_rows: int = 1, at=row_col, finite: bool = True) -> np.ndarray:
    """``X`` as a finite float (T, k) array with at least ``min_rows`` rows and one column.

    ``finite=False`` skips the finiteness pass, for a caller whose compiled loop checks each
    row as it reads it (and calls this function again with ``finite=True`` for the message)."""
    try:
        A = np.asarray(X, dtype=float)
    except (TypeError, ValueError) as exc:
        raise StreamError.bad(name, f"non-numeric data ({exc})", "a 2-D array of numbers") from None
    if A.ndim == 1:
        A = A[:, None]
    if A.ndim != 2:
        raise StreamError.bad(name, f"a {A.ndim}-D array", "a 2-D array (T rows, one column per feature)")
    if A.shape[0] < min_rows:
        raise StreamError.bad(name, f"{A.shape[0]} rows", f"at least {min_rows} round(s)")
    if A.shape[1] < 1:
        raise StreamError.bad(name, "no columns", "at least one column")
    if finite and not np.isfinite(A).all():
        r, c = np.argwhere(~np.isfinite(A))[0]
        raise _at(name, f"{A[r, c]}", at, int(r), int(c), "finite numbers only (no NaN or inf)")
    return A


def as_binary_matrix(X, name: str = "X", *, min_rows: int = 1, at=row_col) -> np.ndarray:
    """``X`` as a C-contiguous int8 (T, k) array of 0s and 1s (a new array, never the caller's).

    An integer or boolean array is checked with integer comparisons, without a float copy
    (a 0/1 matrix of 4·10^6 entries: 1 ms instead of 20); anything else goes through
    :func:`as_matrix` and :func:`check_binary`, with the same messages."""
    A = X if isinstance(X, np.ndarray) else None
    if A is None or A.dtype.kind not in "biu" or A.ndim not in (1, 2):
        return check_binary(as_matrix(X, name, min_rows=min_rows, at=at), name, at=at).astype(np.int8)
    if A.ndim == 1:
        A = A[:, None]
    if A.shape[0] < min_rows or A.shape[1] < 1:
        as_matrix(A, name, min_rows=min_rows, at=at)   # raises with its message
    if A.dtype.kind != "b":
        bad = (A.view(np.uint8) > 1) if A.dtype.itemsize == 1 else ((A < 0) | (A > 1))
        if bad.any():
            check_binary(A, name, at=at)            # names the first bad entry
    return np.array(A, dtype=np.int8, order="C", copy=True)


def as_labels(y, T: int, name: str = "y", alphabet=None, *, at=row_col, values: bool = True) -> np.ndarray:
    """``y`` as a finite float (T,) array; with ``alphabet``, every entry must be in it.

    ``values=False`` checks the shape only, for a caller whose compiled loop checks each label
    as it reads it (and calls this function again with ``values=True`` for the message)."""
    try:
        v = np.asarray(y, dtype=float)
    except (TypeError, ValueError) as exc:
        raise StreamError.bad(name, f"non-numeric labels ({exc})", "numbers") from None
    if v.ndim != 1 or v.shape[0] != T:
        raise StreamError.bad(name, f"shape {v.shape}", f"one label per round, shape ({T},)")
    if not values:
        return v
    if not np.isfinite(v).all():
        i = int(np.argmax(~np.isfinite(v)))
        raise _at(name, f"{v[i]}", at, i, None, "finite labels (no NaN or inf)")
    if alphabet is not None:
        ok = np.isin(v, np.asarray(alphabet, dtype=float))
        if not ok.all():
            i = int(np.argmax(~ok))
            allowed = ", ".join(f"{a:g}" for a in alphabet)
            raise _at(name, f"{v[i]:g}", at, i, None, f"labels in {{{allowed}}}")
    return v


def check_binary(A: np.ndarray, name: str, *, at=row_col) -> np.ndarray:
    """Every entry of ``A`` is 0 or 1."""
    bad = (A != 0) & (A != 1)
    if bad.any():
        idx = np.argwhere(bad)[0]
        raise _at(name, f"{A[tuple(idx)]:g}", at, int(idx[0]), int(idx[1]) if len(idx) > 1 else None, "only 0 and 1")
    return A


def check_unit_interval(A: np.ndarray, name: str, *, at=row_col) -> np.ndarray:
    """Every entry of ``A`` lies in [0, 1]."""
    bad = (A < 0) | (A > 1)
    if bad.any():
        idx = np.argwhere(bad)[0]
        raise _at(name, f"{A[tuple(idx)]:g}", at, int(idx[0]), int(idx[1]) if len(idx) > 1 else None,
                  "values in [0, 1]")
    return A


def check_range(A: np.ndarray, name: str, lo: float, hi: float, *, at=row_col) -> np.ndarray:
    r"""Every entry of ``A`` is 0 or has a size in [``lo``, ``hi``] (``lo = 0``: at most ``hi``): the numbers the
    lessons compute with.

    Squares, products with a comparator's norm, kernels and exponentials of these numbers stay far from
    overflow and underflow (see :data:`olcore.stream.VALUE_MAX`).  The message names the first entry
    outside, where it is, and the range, with what to do about it (rescale the column).
    """
    if A.size == 0 or ((A.max() <= hi and A.min() >= -hi)
                       and (lo <= 0 or not ((A < lo) & (A > -lo) & (A != 0)).any())):
        return A                                   # (reductions first: 5·10^6 numbers in about 20 ms)
    a = np.abs(A)
    bad = a > hi
    if lo > 0:
        bad |= (a < lo) & (a != 0)
    if bad.any():
        idx = np.argwhere(bad)[0]
        v = float(A[tuple(idx)])
        r, c = int(idx[0]), (int(idx[1]) if len(idx) > 1 else None)
        sizes = (f"each number must be 0 or of size between {sci(lo)} and {sci(hi)}" if lo > 0 else
                 f"each number must be of size at most {sci(hi)}")
        if abs(v) > hi:
            expected = (f"a number between -{sci(hi)} and {sci(hi)} ({sizes}): larger numbers overflow the lessons' "
                        "arithmetic, so rescale the column, for example divide it by a power of ten")
        else:
            expected = (f"0 or a number of size at least {sci(lo)} ({sizes}): smaller numbers underflow the "
                        "lessons' arithmetic, so write it as 0 or rescale the column, for example multiply it by a "
                        "power of ten")
        found = f"{v:g}"
        raise _at(name, found, at, r, c, expected)
    return A


def check_param(value, name: str, lo: float | None = None, hi: float | None = None,
                lo_open: bool = False, hi_open: bool = False) -> float:
    """A finite real parameter in the interval given by ``lo``/``hi`` (open ends optional)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise StreamError.bad(name, repr(value), "a real number")
    v = float(value)
    left = "(" if lo_open else "["
    right = ")" if hi_open else "]"
    interval = f"{left}{'-inf' if lo is None else f'{lo:g}'}, {'inf' if hi is None else f'{hi:g}'}{right}"
    if not np.isfinite(v):
        raise StreamError.bad(name, f"{v}", f"a finite number in {interval}")
    if lo is not None and (v < lo or (lo_open and v == lo)):
        raise StreamError.bad(name, f"{v:g}", f"a number in {interval}")
    if hi is not None and (v > hi or (hi_open and v == hi)):
        raise StreamError.bad(name, f"{v:g}", f"a number in {interval}")
    return v


def check_int(value, name: str, lo: int | None = None, hi: int | None = None) -> int:
    """An integer in [lo, hi]."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        if isinstance(value, numbers.Real) and float(value).is_integer():
            value = int(value)
        else:
            raise StreamError.bad(name, repr(value), "a whole number")
    v = int(value)
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        rng = f"{'-inf' if lo is None else lo}..{'inf' if hi is None else hi}"
        raise StreamError.bad(name, str(v), f"a whole number in {rng}")
    return v


def check_seed(seed) -> int:
    """A seed for ``np.random.default_rng``: a whole number in 0..2**32-1."""
    return check_int(seed, "seed", 0, 2**32 - 1)


def _interval(lo, hi, lo_open: bool, hi_open: bool) -> str:
    left = "(" if lo_open else "["
    right = ")" if hi_open else "]"
    return f"{left}{'-inf' if lo is None else f'{lo:g}'}, {'inf' if hi is None else f'{hi:g}'}{right}"


def check_values(value, name: str, lo: float | None = None, hi: float | None = None,
                 lo_open: bool = False, hi_open: bool = False, *, integer: bool = False):
    r"""A scalar or an array of parameters, every entry in the interval given by ``lo``/``hi``.

    The broadcasting counterpart of :func:`check_param` (and of :func:`check_int` with
    ``integer=True``): a bound written once with numpy operations then takes a scalar
    (one run) or an array of prefix values (the bound after each round).

    Parameters
    ----------
    value : real number or array_like of real numbers
    name : str
        The field named in the error message.
    lo, hi : float or None
        Interval ends (``None``: unbounded).
    lo_open, hi_open : bool, default=False
        Whether the ends are excluded.
    integer : bool, default=False
        Every entry must be a whole number (a count such as :math:`m`, :math:`n`, :math:`N`).

    Returns
    -------
    float (int when ``integer``) for a scalar; a read-only float ndarray for an array.

    Raises
    ------
    StreamError
        Naming ``name``, the first bad value found (and its index for an array) and what
        is expected.
    """
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if np.ndim(value) == 0 and not isinstance(value, (list, tuple)):
        if integer:
            v = check_int(value, name, None, None)
            if (lo is not None and (v < lo or (lo_open and v == lo))) or \
               (hi is not None and (v > hi or (hi_open and v == hi))):
                raise StreamError.bad(name, str(v), f"a whole number in {_interval(lo, hi, lo_open, hi_open)}")
            return v
        return check_param(value, name, lo, hi, lo_open, hi_open)
    try:
        A = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise StreamError.bad(name, "non-numeric values", "an array of real numbers") from None
    if A.dtype == bool or (isinstance(value, np.ndarray) and value.dtype == bool):
        raise StreamError.bad(name, "booleans", "an array of real numbers")
    interval = _interval(lo, hi, lo_open, hi_open)
    what = "whole numbers" if integer else "finite numbers"
    bad = ~np.isfinite(A)
    if integer:
        bad |= np.isfinite(A) & (A != np.round(A))
    with np.errstate(invalid="ignore"):
        if lo is not None:
            bad |= (A < lo) | ((A == lo) if lo_open else False)
        if hi is not None:
            bad |= (A > hi) | ((A == hi) if hi_open else False)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        where = idx[0] if len(idx) == 1 else idx
        raise StreamError.bad(name, f"{A[idx]:g} at index {where}", f"{what} in {interval}")
    A.setflags(write=False)
    return A
