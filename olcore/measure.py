r"""Measurements of a stream that are not bounds: radius, margin, hinge losses, the unit-ball check.

These supply the constants a bound takes (:math:`R`, :math:`\gamma`, :math:`L_{\mathbf u}`)
and check a theorem's assumption on the stream.  They are re-exported by
:mod:`olcore.bounds` (``bounds.radius`` etc.), where they used to live.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import StreamError
from .validate import as_labels, as_matrix, check_param

__all__ = ["radius", "margin", "hinge_loss", "squared_hinge_loss", "check_unit_ball", "UnitBallReport"]


def xy(X, y):
    """``X`` as a finite (T, d) array and ``y`` as its (T,) labels."""
    X = as_matrix(X, "X")
    return X, as_labels(y, X.shape[0], "y")


def vec(u, d: int, name: str):
    """``u`` as a finite vector of length ``d``."""
    u = as_matrix(u, name)[:, 0] if np.ndim(u) else None
    if u is None or u.shape != (d,):
        raise StreamError.bad(name, f"shape {np.shape(u)}", f"a vector of length d = {d}")
    return u


def radius(X) -> float:
    r""":math:`R = \max_t \|\mathbf{x}_t\|`, the radius of the smallest centred ball holding the stream."""
    X = as_matrix(X, "X")
    return float(np.sqrt(np.einsum("ij,ij->i", X, X).max()))


def margin(X, y, v) -> float:
    r""":math:`\gamma_{\mathbf{v}} = \min_t y_t\,\mathbf{v}\cdot\mathbf{x}_t` for the unit vector :math:`\mathbf{v}/\|\mathbf{v}\|`.

    ``v`` is normalised first, so any non-zero direction may be passed.  Positive iff
    :math:`\mathbf{v}` separates the stream; Novikoff's :math:`\gamma` is this value for the
    best direction (:func:`olcore.comparators.max_margin_direction`).
    """
    X, y = xy(X, y)
    v = vec(v, X.shape[1], "v")
    n = float(np.linalg.norm(v))
    if n == 0:
        raise StreamError.bad("v", "the zero vector", "a non-zero direction")
    return float((y * (X @ (v / n))).min())


def hinge_loss(X, y, u) -> float:
    r""":math:`L_{\mathbf{u}} = \sum_t [1 - y_t\,\mathbf{u}\cdot\mathbf{x}_t]_+`, the total hinge loss of :math:`\mathbf{u}` (not normalised)."""
    X, y = xy(X, y)
    u = vec(u, X.shape[1], "u")
    return float(np.maximum(0.0, 1.0 - y * (X @ u)).sum())


def squared_hinge_loss(X, y, u) -> float:
    r""":math:`\sum_t [1 - y_t\,\mathbf{u}\cdot\mathbf{x}_t]_+^2`."""
    X, y = xy(X, y)
    u = vec(u, X.shape[1], "u")
    return float((np.maximum(0.0, 1.0 - y * (X @ u)) ** 2).sum())


@dataclass(frozen=True)
class UnitBallReport:
    """Whether every :math:`\\|x_t\\|_2 \\le` ``radius`` (Theorem 1's assumption), and where not.

    ``first_outside`` is the 0-based round of the first violation (``None`` if none).
    """

    max_norm: float
    n_outside: int
    first_outside: int | None
    radius: float = 1.0

    @property
    def ok(self) -> bool:
        return self.n_outside == 0

    def message(self) -> str:
        if self.ok:
            return f"max ||x_t|| = {self.max_norm:.4g} <= {self.radius:g}: Theorem 1's assumption holds."
        return (f"{self.n_outside} round(s) have ||x_t|| > {self.radius:g} (first: round "
                f"{self.first_outside + 1}; max ||x_t|| = {self.max_norm:.4g}): Theorem 1 does not apply.")


def check_unit_ball(X, radius: float = 1.0, tol: float = 1e-9) -> UnitBallReport:
    r"""Check Theorem 1's assumption :math:`\|\mathbf x_t\|_2 \le 1` and report where it fails.

    A relative tolerance ``tol`` forgives rounding (a vector normalised to length 1 may
    come out at :math:`1 + 10^{-16}`).
    """
    A = as_matrix(X, "X")
    radius = check_param(radius, "radius", 0, None, lo_open=True)
    norms = np.sqrt(np.einsum("td,td->t", A, A))
    out = norms > radius * (1.0 + tol)
    n_out = int(out.sum())
    return UnitBallReport(float(norms.max()), n_out, int(np.argmax(out)) if n_out else None, radius)
