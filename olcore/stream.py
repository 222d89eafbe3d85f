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
from .validate import as_binary_matrix, as_labels, as_matrix, check_unit_interval

__all__ = ["Stream", "KINDS", "MAX_ROUNDS", "MAX_COLUMNS", "MAX_CELLS", "MAX_BYTES", "from_arrays"]

MAX_ROUNDS = 100_000
MAX_COLUMNS = 10_000
MAX_CELLS = 5_000_000
MAX_BYTES = 20 * 1024 * 1024  # matches server.maxUploadSize in .streamlit/config.toml


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
        raise StreamError.bad("kind", repr(kind), "one of " + ", ".join(KINDS))
    return KINDS[kind]


def _check_size(T: int, k: int) -> None:
    if T > MAX_ROUNDS:
        raise StreamError.bad("rounds", f"{T:,} rows", f"at most {MAX_ROUNDS:,} rounds")
    if k > MAX_COLUMNS:
        raise StreamError.bad("columns", f"{k:,} feature columns", f"at most {MAX_COLUMNS:,}")
    if T * k > MAX_CELLS:
        raise StreamError.bad("size", f"{T:,} x {k:,} = {T * k:,} values", f"at most {MAX_CELLS:,} values")


def _row_col(r: int, c: int | None = None) -> str:
    return f"row {r + 1}" + ("" if c is None else f", column {c + 1}")


def from_arrays(kind: str, X, y=None, info: dict | None = None, *, at=_row_col) -> Stream:
    """Validate user-supplied arrays as a stream of ``kind`` (see the module table).

    A stream is immutable and shared, so its arrays are made read-only.  A float64 numpy ``X`` of a
    real-valued kind (and a float64 ``y`` of real labels) is kept as it is, not copied, so *the
    caller's array* becomes read-only too: pass ``X.copy()`` if you will write to it later.  (The
    generators hand over arrays they made; a copy here would double the memory of the largest
    streams.)  0/1 matrices and ±1 / 0/1 labels are always converted to new int8 arrays.

    Raises
    ------
    StreamError
        Wrong shape, non-numeric or non-finite values, values outside the kind's
        alphabet or range, no rounds, or more than the size limits.
    """
    spec = _kind(kind)
    A = as_binary_matrix(X, "X", at=at) if spec.x_values == "binary" else as_matrix(X, "X", at=at)
    _check_size(*A.shape)
    if spec.x_values == "unit":
        check_unit_interval(A, "X", at=at)
    if spec.y_values is None:
        if y is not None:
            raise StreamError.bad("y", "labels", f"no labels for kind {kind!r}")
        v = None
    else:
        if y is None:
            raise StreamError.bad("y", "no labels", f"one label per round for kind {kind!r}")
        alphabet = spec.y_values if isinstance(spec.y_values, tuple) else None
        v = as_labels(y, A.shape[0], "y", alphabet, at=at)
        if spec.y_values == "unit":
            check_unit_interval(v, "y", at=at)
    if kind in ("experts", "disjunction"):
        v = v.astype(np.int8)
    elif kind == "linear":
        v = v.astype(np.int8)
    A.setflags(write=False)
    if v is not None:
        v.setflags(write=False)
    return Stream(kind, A, v, dict(info or {}))
