r"""Comparing floats in units in the last place (ulps).

Two paths that add the same numbers in different orders (a log-domain loop against a class that
multiplies and renormalises, a running score against a fresh sum) agree to a few roundings of
the size of the result, not to a fixed relative error: :func:`assert_close_ulps` counts the gap
in ulps of the larger of the two values, :math:`|a - b| / \operatorname{ulp}(\max(|a|, |b|))`,
so a tolerance reads as "at most so many roundings".  ``atol`` is added to it (as in
``np.testing.assert_allclose``): a floor for values that cancel to about 0, where one ulp of the
result is far smaller than the roundings of the terms it came from.
"""

from __future__ import annotations

import numpy as np

__all__ = ["ulp_distance", "assert_close_ulps"]


def ulp_distance(actual, desired) -> np.ndarray:
    r""":math:`|a - b|` in ulps of :math:`\max(|a|, |b|)` (0 where equal, inf where one is not finite)."""
    a = np.asarray(actual, dtype=float)
    b = np.asarray(desired, dtype=float)
    same = (a == b) | (np.isnan(a) & np.isnan(b))
    with np.errstate(invalid="ignore", over="ignore"):
        gap = np.abs(a - b) / np.spacing(np.maximum(np.abs(a), np.abs(b)))
    return np.where(same, 0.0, np.where(np.isfinite(gap), gap, np.inf))


def assert_close_ulps(actual, desired, ulps: float, atol: float = 0.0, err_msg: str = "") -> None:
    r"""Every entry of ``actual`` is within ``atol`` plus ``ulps`` ulps of ``desired``'s:
    :math:`|a - b| \le \text{atol} + \text{ulps}\cdot\operatorname{ulp}(\max(|a|, |b|))`.

    Equal entries (also equal infinities, and NaN against NaN) always pass; an infinity or a NaN
    against anything else never does.
    """
    a = np.asarray(actual, dtype=float)
    b = np.asarray(desired, dtype=float)
    if a.shape != b.shape:
        raise AssertionError(f"shapes {a.shape} and {b.shape} differ\n{err_msg}")
    dist = ulp_distance(a, b)
    with np.errstate(invalid="ignore", over="ignore"):
        allowed = atol + ulps * np.spacing(np.maximum(np.abs(a), np.abs(b)))
        bad = (dist > 0) & ~(np.abs(a - b) <= allowed)
    if bad.any():
        flat = np.flatnonzero(bad.ravel())
        worst = flat[np.argmax(dist.ravel()[flat])]
        at = np.unravel_index(worst, a.shape) if a.ndim else ()
        raise AssertionError(
            f"{flat.size} of {a.size} entries differ by more than {ulps:g} ulps + atol {atol:g}; the worst, "
            f"at index {tuple(int(i) for i in at)}: {a.ravel()[worst]!r} against {b.ravel()[worst]!r}, "
            f"{dist.ravel()[worst]:.4g} ulps\n{err_msg}")
