"""Shared plumbing of the bound functions: one formula, scalars or arrays of prefix values."""

from __future__ import annotations

import numpy as np

from ..errors import StreamError


def together(**values):
    """Check that the array arguments broadcast against one another; name them if not."""
    shapes = {k: np.shape(v) for k, v in values.items() if np.ndim(v)}
    try:
        np.broadcast_shapes(*shapes.values())
    except ValueError:
        found = ", ".join(f"{k} of shape {s}" for k, s in shapes.items())
        raise StreamError.bad("/".join(shapes), found, "arrays of one shape (one value per round)") from None


def out(x):
    """A Python float for a 0-d result, else a float ndarray (the curve)."""
    a = np.asarray(x, dtype=float)
    return float(a) if a.ndim == 0 else a


def first_where(cond, *values):
    """Where ``cond`` first holds: (``" at index i"`` or ``""`` for scalars, the values there)."""
    cond = np.asarray(cond)
    if cond.ndim == 0:
        return "", [float(np.asarray(v)) for v in values]
    i = tuple(int(j) for j in np.argwhere(cond)[0])
    vals = [float(np.broadcast_to(v, cond.shape)[i]) for v in values]
    return f" at index {i[0] if len(i) == 1 else i}", vals
