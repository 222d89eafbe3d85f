r"""Bounds for online convex optimisation: projected online gradient descent (OGD).

Source: Online gradient descent notes (OLA, M. Castiglioni, Part 5), "Performance guarantees"
and its proof, and "Online gradient descent for the expert problem".  Every function takes scalars
or arrays (a scalar in gives a float, arrays of prefix values give the curve); every argument is
validated entry by entry.
"""

from __future__ import annotations

import numpy as np

from ..validate import check_values
from ._broadcast import out, together

__all__ = ["ogd_regret", "ogd_eta", "ogd_regret_eta", "ogd_proof_bound", "simplex_ogd_regret"]


def ogd_regret(D, G, T):
    r"""The OGD theorem: :math:`R_T \le D G \sqrt T` at :math:`\eta = D/(G\sqrt T)`.

    **Assumptions**: a convex set :math:`\mathcal C` of diameter :math:`D`, convex differentiable
    losses with :math:`\|\nabla\ell_t(\theta_t)\| \le G` for every :math:`t`, step size
    :math:`\eta = D/(G\sqrt T)` (:func:`ogd_eta`) tuned to the horizon :math:`T`, :math:`\theta_1\in\mathcal C`.
    The bound then holds after every :math:`t \le T` as well (the proof gives
    :math:`\frac{D^2}{2\eta} + \frac{\eta}{2}G^2t \le DG\sqrt T`), but not :math:`DG\sqrt t`.
    Online gradient descent notes, "Performance guarantees" (Theorem) and its proof.
    """
    D = check_values(D, "D", 0.0)
    G = check_values(G, "G", 0.0)
    T = check_values(T, "T", 0, integer=True)
    together(D=D, G=G, T=T)
    return out(np.asarray(D) * np.asarray(G) * np.sqrt(np.asarray(T, dtype=float)))


def ogd_eta(D, G, T):
    r"""The theorem's step size :math:`\eta^* = D/(G\sqrt T)` (it minimises :func:`ogd_regret_eta`)."""
    D = check_values(D, "D", 0.0, lo_open=True)
    G = check_values(G, "G", 0.0, lo_open=True)
    T = check_values(T, "T", 1, integer=True)
    together(D=D, G=G, T=T)
    return out(np.asarray(D) / (np.asarray(G) * np.sqrt(np.asarray(T, dtype=float))))


def ogd_regret_eta(D, G, T, eta):
    r"""OGD's regret bound for any step size: :math:`\frac{D^2}{2\eta} + \frac{\eta}{2}G^2T`.

    The proof's last inequality before :math:`\eta` is chosen; at :math:`\eta = D/(G\sqrt T)` it equals
    :math:`DG\sqrt T`.  With ``T = arange(1, T + 1)`` it is the bound after each round; with an
    array of ``eta`` it is the sweep.  Same assumptions as :func:`ogd_regret`, any :math:`\eta > 0`.
    """
    D = check_values(D, "D", 0.0)
    G = check_values(G, "G", 0.0)
    T = check_values(T, "T", 0, integer=True)
    eta = check_values(eta, "eta", 0.0, lo_open=True)
    together(D=D, G=G, T=T, eta=eta)
    return out(np.asarray(D) ** 2 / (2 * np.asarray(eta)) + np.asarray(eta) / 2 * np.asarray(G) ** 2 * np.asarray(T))


def ogd_proof_bound(D, eta, sum_grad_sq):
    r"""The proof's data-dependent bound :math:`\frac{D^2}{2\eta} + \frac\eta2\sum_{s\le t}\|\nabla\ell_s(\theta_s)\|^2`.

    Telescoping the per-round inequality
    :math:`\ell_t(\theta_t) - \ell_t(\theta^*) \le \frac{\|\theta_t-\theta^*\|^2 - \|\theta_{t+1}-\theta^*\|^2}{2\eta}
    + \frac\eta2\|\nabla\ell_t(\theta_t)\|^2` and :math:`\|\theta_1 - \theta^*\| \le D` bounds the regret
    against **any** fixed :math:`\theta^*\in\mathcal C` after :math:`t` rounds, for any :math:`\eta > 0`.
    ``sum_grad_sq`` may be the curve :math:`\sum_{s\le t}\|\nabla\ell_s\|^2` over rounds.
    Online gradient descent notes, "Performance guarantees", proof.
    """
    D = check_values(D, "D", 0.0)
    eta = check_values(eta, "eta", 0.0, lo_open=True)
    S = check_values(sum_grad_sq, "sum_grad_sq", 0.0)
    together(D=D, eta=eta, sum_grad_sq=S)
    return out(np.asarray(D) ** 2 / (2 * np.asarray(eta)) + np.asarray(eta) / 2 * np.asarray(S))


def simplex_ogd_regret(K, T):
    r"""OGD on the simplex for :math:`K` experts, losses in :math:`[0,1]`: :math:`R_T \le \sqrt{2KT}`.

    :func:`ogd_regret` with :math:`D = \sqrt 2` (the simplex's diameter) and :math:`G = \sqrt K`
    (:math:`\|\ell_t\| \le \sqrt K`), at :math:`\eta = \sqrt{2/(KT)}`: the notes' :math:`O(\sqrt{KT})`,
    against Hedge's :math:`\sqrt{2T\ln K}` (:func:`olcore.bounds.hedge`).
    Online gradient descent notes, "Online gradient descent for the expert problem".
    """
    K = check_values(K, "K", 1, integer=True)
    T = check_values(T, "T", 0, integer=True)
    together(K=K, T=T)
    return out(np.sqrt(2.0 * np.asarray(K, dtype=float) * np.asarray(T, dtype=float)))
