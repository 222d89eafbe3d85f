r"""The :class:`Stream` type, its kinds and size limits, and :func:`from_arrays`: a leaf module.

Imports only :mod:`olcore.errors` and :mod:`olcore.validate`, so every algorithm package may
import it without a cycle.  Generators, CSV reading and adversaries live in
:mod:`olcore.streams`, which re-exports everything here.

Kinds and their alphabets
-------------------------
=============  ==========================  ======================  =========================
kind           ``X``                       ``y``                   used by
=============  ==========================  ======================  =========================
experts        expert advice in {0,1}      outcome in {0,1}        Halving, WM, RWM
experts01      expert advice in [0,1]      outcome in [0,1]        Weighted Average
losses         expert losses in [0,1]      (none)                  Hedge
linear         real features               label in {-1,+1}        Perceptron, OGD, PA
disjunction    attributes in {0,1}         label in {0,1}          Winnow
regression     real features, ||x|| <= 1   real target             Widrow-Hoff
oco            real features               real y (±1 to classify) projected OGD
=============  ==========================  ======================  =========================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .errors import StreamError
from .validate import as_binary_matrix, as_labels, as_matrix, check_range, check_unit_interval, row_col, sci

# (VALUE_MAX, VALUE_MIN and value_range are imported from here: olcore.streams re-exports the names listed)
__all__ = ["Stream", "KINDS", "MAX_ROUNDS", "MAX_COLUMNS", "MAX_CELLS", "MAX_BYTES", "from_arrays"]

MAX_ROUNDS = 100_000
MAX_COLUMNS = 10_000
MAX_CELLS = 5_000_000
MAX_BYTES = 20 * 1024 * 1024  # matches server.maxUploadSize in .streamlit/config.toml

#: The numbers a real-valued stream may hold (features of kinds ``linear``, ``regression``, ``oco`` and their
#: real targets): at most VALUE_MAX in size, and, in what a user uploads, types or puts in a link, 0 or at least
#: VALUE_MIN (:func:`from_arrays` with ``user=True``).  At the largest shapes (d = 10^4 columns, T = 10^5 rounds)
#: the lessons' largest quantities stay far from overflow: sums of squares T d VALUE_MAX^2 = 1e27, a degree-6
#: polynomial kernel (d VALUE_MAX^2)^6 = 1e132 (1e139 over a 3000-point Gram matrix), ratios such as (R/gamma)^2
#: whose margin is as small as VALUE_MIN^2/VALUE_MAX (about (1e29)^4 = 1e116); the first overflow would come near
#: 1e20 (that kernel).  The hypothesis tests of tests/test_extreme_values.py feed both ends of the range to every
#: lesson's analysis: they pass at 1e9 (and, on the lessons but OGD, at 1e12 and 1e15; they fail at 1e50).  The
#: bound is 1e9, not 1e12, for OGD's best fixed point in hindsight: at 1e12 its solver can no longer certify some
#: streams (a squared-loss stream; a 7-round hinge stream on the unit ball that takes 3 minutes, then fails) which,
#: divided by 1000, it certifies in 0.1 s.  Below VALUE_MIN, products of small numbers underflow past the
#: subnormals (a degree-6 kernel of a point of size 1e-26 is 0) and 1/||x||^2 overflows.
VALUE_MAX = 1e9
VALUE_MIN = 1e-20


@dataclass(frozen=True, eq=False)
class Stream:
    """A validated stream of T rounds.

    Parameters
    ----------
    kind : str
        One of :data:`KINDS`.
    X : array (T, k)
        Round ``t`` shows ``X[t]`` (expert advice, features or a loss vector).
    y : array (T,) or None
        Round ``t`` reveals ``y[t]``; ``None`` for kind ``"losses"``.
    info : dict
        What the generator guarantees, e.g. ``{"best": 3}`` or
        ``{"v": ..., "gamma": 0.1, "R": 1.0}``.
    """

    kind: str
    X: np.ndarray
    y: np.ndarray | None
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def T(self) -> int:
        return int(self.X.shape[0])

    @property
    def k(self) -> int:
        return int(self.X.shape[1])


# -- kinds -------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Kind:
    prefix: str            # feature column names in CSV files: prefix + 1..k
    x_values: str          # "binary", "unit" or "real"
    y_values: Any          # None (no label), "real", "unit", or a tuple alphabet
    what: str              # one line for error messages and the format help


KINDS: dict[str, _Kind] = {
    "experts": _Kind("e", "binary", (0, 1), "one column per expert's prediction (0 or 1), then the outcome y (0 or 1)"),
    "experts01": _Kind("e", "unit", "unit", "one column per expert's prediction in [0, 1], then the outcome y in [0, 1]"),
    "losses": _Kind("l", "unit", None, "one column per expert's loss in [0, 1]; one row per round"),
    "linear": _Kind("x", "real", (-1, 1), "one column per feature (real numbers), then the label y (-1 or +1)"),
    "disjunction": _Kind("x", "binary", (0, 1), "one column per boolean attribute (0 or 1), then the label y (0 or 1)"),
    "regression": _Kind("x", "real", "real", "one column per feature (real numbers, ||x|| <= 1 for the bound), then the target y"),
    "oco": _Kind("x", "real", "real", "one column per feature (real numbers), then y: -1 or +1 for the logistic, "
                 "hinge and linear losses, any real number for the squared loss"),
}


def _kind(kind: str) -> _Kind:
    if kind not in KINDS:
        raise StreamError.bad("kind", repr(kind), "one of " + ", ".join(KINDS), label="The stream kind")
    return KINDS[kind]


def _check_size(T: int, k: int) -> None:
    if T > MAX_ROUNDS:
        raise StreamError.bad("rounds", f"{T:,} rows", f"at most {MAX_ROUNDS:,} rounds",
                              label="The number of rounds")
    if k > MAX_COLUMNS:
        raise StreamError.bad("columns", f"{k:,} feature columns", f"at most {MAX_COLUMNS:,}",
                              label="The number of columns")
    if T * k > MAX_CELLS:
        raise StreamError.bad("size", f"{T:,} x {k:,} = {T * k:,} values", f"at most {MAX_CELLS:,} values",
                              label="The stream's size")


def value_range() -> str:
    """The accepted numbers of a real-valued stream, in words (for help texts and messages)."""
    return f"between -{sci(VALUE_MAX)} and {sci(VALUE_MAX)}, and 0 or of size at least {sci(VALUE_MIN)}"


_row_col = row_col      # the default wording: a message for a program names the array ("X: ... at row 3, column 2")


def from_arrays(kind: str, X, y=None, info: dict | None = None, *, at=_row_col, user: bool = False) -> Stream:
    """Validate user-supplied arrays as a stream of ``kind`` (see the module table).

    A stream is immutable and shared, so its arrays are made read-only.  A float64 numpy ``X`` of a
    real-valued kind (and a float64 ``y`` of real labels) is kept as it is, not copied, so *the
    caller's array* becomes read-only too: pass ``X.copy()`` if you will write to it later.  (The
    generators hand over arrays they made; a copy here would double the memory of the largest
    streams.)  0/1 matrices and ±1 / 0/1 labels are always converted to new int8 arrays.

    Real numbers (features of kinds ``linear``, ``regression``, ``oco`` and their real targets) must lie in
    [-VALUE_MAX, VALUE_MAX]; with ``user=True`` (numbers a user uploaded, typed or put in a link) a nonzero
    number must also have a size of at least VALUE_MIN.  The lower end is checked on user input only: a
    stream derived from a valid one (divided by its radius, say) may hold smaller numbers, and no generator
    draws a nonzero number that small.

    Raises
    ------
    StreamError
        Wrong shape, non-numeric or non-finite values, values outside the kind's
        alphabet or range, no rounds, or more than the size limits.  With a caller's ``at``
        (a file's lines, typed points) the message starts with that place (a label's place is
        the column after the features).
    """
    lo = VALUE_MIN if user else 0.0
    spec = _kind(kind)
    A = as_binary_matrix(X, "X", at=at) if spec.x_values == "binary" else as_matrix(X, "X", at=at)
    _check_size(*A.shape)
    if spec.x_values == "unit":
        check_unit_interval(A, "X", at=at)
    elif spec.x_values == "real":
        check_range(A, "X", lo, VALUE_MAX, at=at)
    if spec.y_values is None:
        if y is not None:
            raise StreamError.bad("y", "labels", f"no labels for kind {kind!r}", label="The labels")
        v = None
    else:
        if y is None:
            raise StreamError.bad("y", "no labels", f"one label per round for kind {kind!r}", label="The labels")
        k = A.shape[1]
        at_y = at if at is row_col else (lambda i, c=None: at(i, k))
        alphabet = spec.y_values if isinstance(spec.y_values, tuple) else None
        v = as_labels(y, A.shape[0], "y", alphabet, at=at_y)
        if spec.y_values == "unit":
            check_unit_interval(v, "y", at=at_y)
        elif spec.y_values == "real":
            check_range(v, "y", lo, VALUE_MAX, at=at_y)
    if kind in ("experts", "disjunction"):
        v = v.astype(np.int8)
    elif kind == "linear":
        v = v.astype(np.int8)
    A.setflags(write=False)
    if v is not None:
        v.setflags(write=False)
    return Stream(kind, A, v, dict(info or {}))
