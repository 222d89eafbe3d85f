r"""Margins and the algorithms that chase them: the SVM direction, ALMA's guarantees, the second-order bound.

- :func:`svm_direction`: the maximum-margin unit separator through the origin (the hard-margin
  SVM without intercept), by :func:`olcore.comparators.max_margin_direction`;
- :func:`alma_updates`: ALMA\ :sub:`2`'s bound on its number of updates (Gentile, 2001), and
  :func:`alma_margin`, the margin its final hyperplane is guaranteed;
- :func:`second_order_perceptron`: the second-order Perceptron's mistake bound
  (Cesa-Bianchi, Conconi and Gentile, 2005, Theorem 1);
- :func:`mistake_table`: the orders of the notes' table of mistake bounds for one stream.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..comparators import max_margin_direction
from ..errors import StreamError
from ..validate import check_values
from ._broadcast import out, together

__all__ = ["SVMDirection", "svm_direction", "alma_updates", "alma_margin", "second_order_perceptron",
           "mistake_table"]


class SVMDirection(NamedTuple):
    """The maximum-margin direction: unpacks as ``(v, gamma)``."""

    v: np.ndarray
    gamma: float

    @property
    def separable(self) -> bool:
        return self.gamma > 0

    @property
    def u(self) -> np.ndarray:
        r""":math:`\mathbf u_{SVM} = \mathbf v/\gamma`, the shortest :math:`\mathbf u` with every
        :math:`y_t\mathbf u\cdot\mathbf x_t \ge 1` (only when separable)."""
        if not self.separable:
            raise StreamError.bad("stream", "not separable through the origin", "a positive margin")
        return self.v / self.gamma

    @property
    def norm_u(self) -> float:
        r""":math:`\|\mathbf u_{SVM}\| = 1/\gamma` (infinite when not separable)."""
        return 1.0 / self.gamma if self.separable else math.inf


def svm_direction(X, y, tol: float = 1e-9, max_iter: int = 200_000) -> SVMDirection:
    r"""The maximum-margin unit separator through the origin and its margin.

    .. math::

        \mathbf v^* = \arg\max_{\|\mathbf v\| = 1}\min_t y_t\,\mathbf v\cdot\mathbf x_t,\qquad
        \gamma^* = \min_t y_t\,\mathbf v^*\cdot\mathbf x_t,\qquad
        \mathbf u_{SVM} = \mathbf v^*/\gamma^* = \arg\min\{\|\mathbf u\| : y_t\,\mathbf u\cdot\mathbf x_t \ge 1\ \forall t\}.

    The notes: "the SVM hyperplane is the shortest :math:`\mathbf u` such that
    :math:`y_t\mathbf u^\top\mathbf x_t \ge 1` for all :math:`t`" (no intercept).  Solved by the
    certified Frank-Wolfe search of :func:`olcore.comparators.max_margin_direction` (the margin
    returned is measured exactly on the direction returned, within ``tol`` times
    :math:`R = \max_t\|\mathbf x_t\|` of the optimum).

    Parameters
    ----------
    X : array (T, d)
    y : array (T,) in {-1, +1}
    tol, max_iter : see :func:`olcore.comparators.max_margin_direction`

    Returns
    -------
    SVMDirection
        ``(v, gamma)``; ``gamma <= 0`` when no line through the origin separates the stream.

    Examples
    --------
    >>> v, g = svm_direction([[1.0, 1.0], [1.0, -1.0]], [1, 1])
    >>> np.round(v, 6).tolist(), round(g, 6)
    ([1.0, 0.0], 1.0)
    """
    v, g = max_margin_direction(X, y, tol=tol, max_iter=max_iter)
    return SVMDirection(np.asarray(v, dtype=float), float(g))


def _gamma_alpha(gamma, alpha):
    """A margin on unit instances in (0, 1] (a rounding above 1 is clipped) and α in (0, 1]."""
    gamma = check_values(gamma, "gamma", 0, 1 + 1e-9, lo_open=True)
    alpha = check_values(alpha, "alpha", 0, 1, lo_open=True)
    together(gamma=gamma, alpha=alpha)
    return np.minimum(np.asarray(gamma, float), 1.0), np.asarray(alpha, float)


def alma_updates(gamma, alpha):
    r"""ALMA\ :sub:`2`'s bound on its number of updates (:math:`B = 1/\alpha`, :math:`C = \sqrt 2`).

    .. math::

        m \le \frac{2}{\gamma^2}\Big(\frac{2}{\alpha} - 1\Big)^2 + \frac{8}{\alpha} - 4,

    when a unit :math:`\mathbf u` has :math:`y_t\,\mathbf u\cdot\mathbf x_t/\|\mathbf x_t\| \ge \gamma > 0`
    for every :math:`t`, however often the stream is cycled (Gentile, 2001, Corollary 4 with
    :math:`p = 2`).  The notes' slide states its order, :math:`(\|\mathbf u_{SVM}\|/\alpha)^2`
    with :math:`\|\mathbf u_{SVM}\| = 1/\gamma`.

    Parameters
    ----------
    gamma : float or array, 0 < gamma <= 1
        The margin on the normalised instances.
    alpha : float or array, 0 < alpha <= 1
    """
    g, a = _gamma_alpha(gamma, alpha)
    return out(2.0 / g**2 * (2.0 / a - 1.0) ** 2 + 8.0 / a - 4.0)


def alma_margin(gamma, alpha):
    r"""The margin ALMA\ :sub:`2`'s final hyperplane is guaranteed: :math:`(1-\alpha)\gamma`.

    Once a pass over the stream makes no update (which happens, by :func:`alma_updates`),
    every :math:`y_t\,\mathbf w\cdot\hat{\mathbf x}_t/\|\mathbf w\| \ge (1-\alpha)\gamma`
    (Gentile, 2001, Theorem 3; the notes: :math:`\|\mathbf u\| \le \|\mathbf u_{SVM}\|/(1-\alpha)`
    for the separating :math:`\mathbf u` found).
    """
    g, a = _gamma_alpha(gamma, alpha)
    return out((1.0 - a) * g)


def second_order_perceptron(X_mistakes, u, a=1.0, loss_u=0.0) -> float:
    r"""The second-order Perceptron's mistake bound for a comparator :math:`\mathbf u`.

    .. math::

        M \le L_{\mathbf u} + \sqrt{\Big(a\|\mathbf u\|^2 + \sum_{s\in\mathcal M}(\mathbf u\cdot\mathbf x_s)^2\Big)
        \sum_{i=1}^d \ln\Big(1 + \frac{\lambda_i}{a}\Big)},

    :math:`\lambda_i` the eigenvalues of :math:`\sum_{s\in\mathcal M}\mathbf x_s\mathbf x_s^\top`
    over the mistaken rounds :math:`\mathcal M` (rows of ``X_mistakes``) and :math:`L_{\mathbf u}`
    the hinge loss :math:`\sum_t[1 - y_t\mathbf u\cdot\mathbf x_t]_+` (Cesa-Bianchi, Conconi and
    Gentile, 2005, Theorem 1 with :math:`\gamma = 1`; the theorem sums the hinge loss over the
    mistaken rounds only, so the sum over every round, passed here, gives a larger, still valid
    bound).  Every :math:`\mathbf u` gives a bound; on a separable stream
    :math:`\mathbf u = \mathbf u_{SVM}` has :math:`L_{\mathbf u} = 0`.  It depends on the run
    (through :math:`\mathcal M`): of order :math:`dU\ln U` in the notes' table
    (:math:`\|\mathbf x_t\| \le 1`, :math:`U = \|\mathbf u\|`).

    Parameters
    ----------
    X_mistakes : array (M, d)
        The instances of the mistaken rounds.
    u : array (d,)
    a : float, default=1.0
    loss_u : float, default=0.0

    Examples
    --------
    >>> round(second_order_perceptron(np.eye(2), [1.0, 1.0], a=1.0), 4)   # sqrt((2 + 2) * 2 ln 2)
    2.3548
    """
    Xm = np.asarray(X_mistakes, dtype=float).reshape(-1, np.size(u))
    u = np.asarray(u, dtype=float)
    a = float(check_values(a, "a", 0, None, lo_open=True))
    L = float(check_values(loss_u, "loss_u", 0, None))
    lam = np.clip(np.linalg.eigvalsh(Xm.T @ Xm), 0.0, None)
    quad = a * float(u @ u) + float(np.sum((Xm @ u) ** 2))
    return L + math.sqrt(quad * float(np.sum(np.log1p(lam / a))))


def mistake_table(U: float, d: int) -> list[dict]:
    r"""The notes' table of mistake bounds on a stream with :math:`y_t\mathbf u^\top\mathbf x_t \ge 1`,
    :math:`\|\mathbf u\| = U` (and :math:`\|\mathbf x_t\| \le 1`), each order evaluated at this
    :math:`U` and :math:`d`.  Orders, not bounds: constants are hidden (``O(...)``), except the
    Perceptron's :math:`U^2`, which is Novikoff's bound exactly, and Hildreth's :math:`U^2`, which the
    notes prove for its update (seed 003, "Analysis for linearly separable streams":
    :math:`\sum_t m_t^2 \le \|\mathbf u\|^2 \max_t\|\mathbf x_t\|^2`, and a mistake costs
    :math:`m_t \ge 1`; :func:`passive_aggressive_separable`).

    Returns a list of ``{"algorithm", "bound", "value", "update time", "exact"}``.
    """
    U = float(check_values(U, "U", 0, None, lo_open=True))
    d = int(check_values(d, "d", 1, None, integer=True))
    lnU = math.log(U) if U > 1 else 0.0
    return [
        {"algorithm": "Perceptron", "bound": "U²", "value": U * U, "update time": "O(d)", "exact": True},
        {"algorithm": "Hildreth", "bound": "U²", "value": U * U, "update time": "O(d)", "exact": True},
        {"algorithm": "2nd order Perceptron", "bound": "d U ln U", "value": d * U * lnU, "update time": "O(d²)",
         "exact": False},
        {"algorithm": "Ellipsoid", "bound": "d² ln U", "value": d * d * lnU, "update time": "O(d³)", "exact": False},
        {"algorithm": "Volumetric center (U known)", "bound": "d ln U", "value": d * lnU, "update time": "O(d^3.5)",
         "exact": False},
        {"algorithm": "Geometric center (U known)", "bound": "d ln U", "value": d * lnU, "update time": "O(d⁴)",
         "exact": False},
    ]
