r"""Bounds for online regression: Widrow-Hoff (Theorem 1) and its online-to-batch conversion (Theorem 2).

Source: COS 511, lecture 18.  Every function takes a
scalar or an array for each numeric argument (a scalar in gives a float, an array of prefix
values gives the curve); the comparator searches over a stream live in :mod:`olcore.comparators`.
"""

from __future__ import annotations

import numpy as np

from ..validate import check_values
from ._broadcast import out, together

__all__ = ["widrow_hoff", "widrow_hoff_best_eta", "widrow_hoff_tuned", "online_to_batch"]


def widrow_hoff(loss_u, norm_u_sq, eta):
    r"""Theorem 1 for one comparator: :math:`\frac{L_{\mathbf u}}{1-\eta} + \frac{\|\mathbf u\|_2^2}{\eta}`.

    **Theorem 1** (COS 511 lecture 18, Section 1.2).  If
    :math:`\|\mathbf{x}_t\|_2 \le 1` for every round, Widrow-Hoff with :math:`0<\eta<1` has

    .. math::

        L_{WH} \le \min_{\mathbf u}\left(\frac{L_{\mathbf u}}{1-\eta}
        + \frac{\|\mathbf u\|_2^2}{\eta}\right),

    proved with the potential :math:`\Phi_t = \|\mathbf w_t - \mathbf u\|_2^2`.  The
    assumption on :math:`\mathbf x_t` is a property of the stream: check it with
    :func:`olcore.measure.check_unit_ball`.

    Parameters
    ----------
    loss_u : float or array
        :math:`L_{\mathbf u} = \sum_t (\mathbf u\cdot\mathbf x_t - y_t)^2 \ge 0` (or its prefix values).
    norm_u_sq : float or array
        :math:`\|\mathbf u\|_2^2 \ge 0`.
    eta : float or array
        Learning rate in (0, 1).
    """
    loss_u = check_values(loss_u, "loss_u", 0, None)
    norm_u_sq = check_values(norm_u_sq, "norm_u_sq", 0, None)
    eta = check_values(eta, "eta", 0, 1, lo_open=True, hi_open=True)
    together(loss_u=loss_u, norm_u_sq=norm_u_sq, eta=eta)
    return out(loss_u / (1.0 - np.asarray(eta)) + norm_u_sq / np.asarray(eta))


def widrow_hoff_best_eta(loss_u, norm_u_sq):
    r"""The :math:`\eta` minimising Theorem 1's bound **for one fixed comparator** :math:`\mathbf u`
    (a formula in :math:`L_{\mathbf u}` and :math:`\|\mathbf u\|^2`).

    Not :func:`olcore.comparators.widrow_hoff_optimal_eta`, which searches the best
    :math:`\eta` for a **stream**, where the comparator :math:`\mathbf u` is re-optimised for
    each :math:`\eta`.  For the :math:`\mathbf u` that the stream search returns the two agree.

    Setting the derivative of :math:`L/(1-\eta) + N/\eta` to zero gives
    :math:`\eta/(1-\eta) = \sqrt{N/L}`, i.e.

    .. math::

        \eta^* = \frac{\|\mathbf u\|}{\sqrt{L_{\mathbf u}} + \|\mathbf u\|},
        \qquad \text{bound}(\eta^*) = \left(\sqrt{L_{\mathbf u}} + \|\mathbf u\|\right)^2
        = L_{\mathbf u} + 2\|\mathbf u\|\sqrt{L_{\mathbf u}} + \|\mathbf u\|^2 .

    With :math:`\|\mathbf u\| = 0` the infimum is approached as :math:`\eta \to 0` (returns
    0.0); with :math:`L_{\mathbf u} = 0`, as :math:`\eta \to 1` (returns 1.0); both zero
    returns 0.5 (the bound is 0 for every :math:`\eta`).
    """
    L = check_values(loss_u, "loss_u", 0, None)
    N = check_values(norm_u_sq, "norm_u_sq", 0, None)
    together(loss_u=L, norm_u_sq=N)
    a, b = np.sqrt(N), np.sqrt(L)
    with np.errstate(invalid="ignore", divide="ignore"):
        eta = np.where((a + b) == 0, 0.5, a / (a + b))
    return out(eta)


def widrow_hoff_tuned(loss_u, norm_u_sq):
    r""":math:`\min_{0<\eta<1}` of Theorem 1's bound for a fixed :math:`\mathbf u`:
    :math:`(\sqrt{L_{\mathbf u}} + \|\mathbf u\|)^2` (see :func:`widrow_hoff_best_eta`)."""
    L = check_values(loss_u, "loss_u", 0, None)
    N = check_values(norm_u_sq, "norm_u_sq", 0, None)
    together(loss_u=L, norm_u_sq=N)
    return out((np.sqrt(L) + np.sqrt(N)) ** 2)


def online_to_batch(risk_u, norm_u_sq, eta, m):
    r"""Theorem 2 for one comparator: :math:`\frac{R_{\mathbf u}}{1-\eta} + \frac{\|\mathbf u\|_2^2}{\eta m}`.

    **Theorem 2** (COS 511 lecture 18, Section 2).  Run
    Widrow-Hoff on an i.i.d. sample of size :math:`m` (with :math:`\|\mathbf x\| \le 1` almost
    surely and :math:`0<\eta<1`) and output :math:`\mathbf v = \frac1m\sum_{t=1}^m \mathbf w_t`; then

    .. math::

        \mathbb E_S[R_{\mathbf v}] \le \min_{\mathbf u}\left(\frac{R_{\mathbf u}}{1-\eta}
        + \frac{\|\mathbf u\|_2^2}{\eta m}\right),
        \qquad R_{\mathbf v} = \mathbb E_{(\mathbf x,y)\sim D}[(\mathbf v\cdot\mathbf x - y)^2].

    A bound on the *expected* risk over samples: one sample's :math:`R_{\mathbf v}` may
    exceed it.  See :mod:`olcore.online_to_batch` for the minimising :math:`\mathbf u`.

    Parameters
    ----------
    risk_u : float or array
        :math:`R_{\mathbf u} \ge 0`.
    norm_u_sq : float or array
    eta : float or array in (0, 1)
    m : int or int array >= 1
        Sample size.
    """
    risk_u = check_values(risk_u, "risk_u", 0, None)
    norm_u_sq = check_values(norm_u_sq, "norm_u_sq", 0, None)
    eta = check_values(eta, "eta", 0, 1, lo_open=True, hi_open=True)
    m = check_values(m, "m", 1, integer=True)
    together(risk_u=risk_u, norm_u_sq=norm_u_sq, eta=eta, m=m)
    return out(risk_u / (1.0 - np.asarray(eta)) + norm_u_sq / (np.asarray(eta) * m))
