r"""Bounds for prediction with expert advice: Halving, WM, RWM, Weighted Average, Hedge.

Sources: UCL COMP0078, Online learning, and
CMU 16-831, Online linear classification (randomized WM).  Every function takes a
scalar or an array for its per-round arguments (a scalar in gives a float, an array of
prefix values gives the curve); every argument is validated, entry by entry.
"""

from __future__ import annotations

import numpy as np

from ..errors import StreamError
from ..validate import check_values
from ._broadcast import out, together

__all__ = ["halving", "weighted_majority", "weighted_majority_constants", "weighted_majority_regret",
           "randomized_weighted_majority", "randomized_weighted_majority_regret", "weighted_average",
           "WEIGHTED_AVERAGE_ETA_MAX", "hedge", "hedge_eta", "hedge_regret", "weighted_majority_cmu",
           "weighted_majority_cmu_regret", "weighted_majority_two_regret", "weighted_majority_two_regret_beta",
           "weighted_majority_two_regret_tuned", "randomized_weighted_majority_eta"]


def halving(n) -> float:
    r"""Halving's mistake bound :math:`M \le \log_2 n`.

    **Assumption**: some expert is consistent with the whole sequence (never wrong).
    Every mistake removes at least half of the consistent experts, so after
    :math:`M` mistakes :math:`1 \le |C| \le n/2^M`.  Since :math:`M` is an integer, in
    fact :math:`M \le \lfloor\log_2 n\rfloor`.  UCL COMP0078, Online learning ("A run of the
    Halving Algorithm": "For any sequence with a consistent expert, the Halving Algorithm
    makes :math:`\le \log_2 n` mistakes").
    """
    n = check_values(n, "n", 1, integer=True)
    return out(np.log2(n))


def weighted_majority_constants(beta):
    r"""The constants :math:`(a, b)` of :math:`M \le a\, M_i + b \ln n`:
    :math:`a = \ln\frac1\beta / \ln\frac{2}{1+\beta}`, :math:`b = 1/\ln\frac{2}{1+\beta}`.

    :math:`\beta = 1/e` gives :math:`a = b \approx 2.63`; :math:`\beta = 0` gives
    :math:`a = \infty`, :math:`b = 1/\ln 2`.  A scalar ``beta`` gives two floats, an array
    two arrays.
    """
    beta = check_values(beta, "beta", 0.0, 1.0, hi_open=True)
    denom = np.log(2.0 / (1.0 + np.asarray(beta)))
    with np.errstate(divide="ignore"):
        a = np.where(np.asarray(beta) == 0.0, np.inf, -np.log(beta) / denom)
    return out(a), out(1.0 / denom)


def weighted_majority(best_mistakes, n, beta):
    r"""Weighted Majority's mistake bound (UCL form).

    .. math::

        M \le \frac{\ln\frac1\beta}{\ln\frac{2}{1+\beta}} M_i + \frac{1}{\ln\frac{2}{1+\beta}} \ln n
        \quad\text{for every expert } i,

    so with :math:`M_i = \min_i M_i` (``best_mistakes``).  **Assumptions**: advice and
    outcomes in {0, 1}, :math:`\beta \in [0, 1)`, ties broken either way.  From
    :math:`\beta^{M_i} \le W_{m+1} \le n(\frac{1+\beta}{2})^M`.  :math:`\beta = 1/e` gives
    :math:`M \le 2.63 \min_i M_i + 2.63 \ln n`.  :math:`\beta = 0` (Halving) gives
    :math:`\log_2 n` when ``best_mistakes`` is 0 and :math:`\infty` otherwise.
    ``best_mistakes`` may be the array of :math:`\min_i M_i(t)` over rounds (the curve).
    UCL COMP0078, Online learning ("Number of mistakes of the WM algorithm").
    """
    m = check_values(best_mistakes, "best_mistakes", 0.0)
    n = check_values(n, "n", 1, integer=True)
    beta = check_values(beta, "beta", 0.0, 1.0, hi_open=True)
    together(best_mistakes=m, n=n, beta=beta)
    a, b = weighted_majority_constants(beta)
    with np.errstate(invalid="ignore"):
        general = a * np.asarray(m) + b * np.log(n)
    halving_case = np.where(np.asarray(m) == 0, np.log2(n), np.inf)     # exactly Halving's log2 n
    return out(np.where(np.asarray(beta) == 0.0, halving_case, general))


def weighted_majority_regret(best_mistakes, n, beta):
    r"""WM's bound on its regret :math:`M - \min_i M_i \le (a - 1)\min_i M_i + b\ln n`.

    :func:`weighted_majority` minus :math:`\min_i M_i`, with :math:`(a, b)` from
    :func:`weighted_majority_constants` (so :math:`\log_2 n` at :math:`\beta = 0` while the
    best expert is perfect, :math:`\infty` once it errs).  Since :math:`a > 1` for every
    :math:`\beta < 1`, it grows linearly in :math:`\min_i M_i`: a deterministic master is not
    no-regret.  Same assumptions and source as :func:`weighted_majority`.
    """
    bound = weighted_majority(best_mistakes, n, beta)
    return out(np.asarray(bound) - np.asarray(best_mistakes, dtype=float))


def weighted_majority_cmu(best_mistakes, n, eta):
    r"""Weighted Majority's mistake bound (CMU form), weights multiplied by :math:`1 - \eta` on a mistake.

    .. math::

        M \le \frac{2\ln N}{\eta} + 2(1 + \eta)\, m \quad\text{for every expert } n,

    the same algorithm as :func:`weighted_majority` with :math:`\beta = 1 - \eta`.  From the
    same potential: :math:`(1-\eta)^{m} \le \Phi \le N(1 - \eta/2)^{M}`, then
    :math:`\ln\frac{1}{1-\eta/2} \ge \frac\eta2` and :math:`\ln\frac1{1-\eta} \le \eta + \eta^2`
    (true for :math:`0 < \eta \le \frac12`), so it is never below the UCL form at
    :math:`\beta = 1 - \eta`.  **Assumptions**: advice and outcomes binary,
    :math:`0 < \eta \le 1/2` (the notes' ":math:`\eta \le \frac12`"); ``best_mistakes`` is
    :math:`m = \min_n m_n` or its curve over rounds.  The notes write ``log N``: it is
    :math:`\ln N`.  CMU 16-831, Online learning, Section 1 (Algorithm 1 and its bound).
    """
    m = check_values(best_mistakes, "best_mistakes", 0.0)
    n = check_values(n, "n", 1, integer=True)
    eta = check_values(eta, "eta", 0.0, 0.5, lo_open=True)
    together(best_mistakes=m, n=n, eta=eta)
    eta = np.asarray(eta, dtype=float)
    return out(2.0 * np.log(n) / eta + 2.0 * (1.0 + eta) * np.asarray(m, dtype=float))


def weighted_majority_cmu_regret(best_mistakes, n, eta):
    r"""WM's regret in the CMU notes' form (1): :math:`M - m \le m + 2\eta m + \frac{2\ln N}{\eta}`.

    :func:`weighted_majority_cmu` minus :math:`m`.  The term :math:`m` does not shrink with any
    :math:`\eta`, so the average regret :math:`(M - m)/T` of WM need not go to 0: WM is not
    no-regret (the notes' conclusion; UCL Problems 3.1: no deterministic master has sublinear
    :math:`c`-regret for :math:`c < 2`).  Same assumptions and source.
    """
    bound = weighted_majority_cmu(best_mistakes, n, eta)
    return out(np.asarray(bound) - np.asarray(best_mistakes, dtype=float))


def weighted_majority_two_regret(best_mistakes, n, beta):
    r"""WM's bound on its 2-regret :math:`M - 2\min_i M_i \le (a(\beta) - 2)\min_i M_i + b(\beta)\ln n`.

    :func:`weighted_majority` minus :math:`2\min_i M_i` (UCL Problems 3, the :math:`c`-regret
    :math:`L_A - c\min_i L_i` with :math:`c = 2`).  Since :math:`a(\beta) \to 2` as
    :math:`\beta \to 1`, a :math:`\beta_T \to 1` makes it sublinear
    (:func:`weighted_majority_two_regret_beta`).  Same assumptions as :func:`weighted_majority`.
    """
    bound = weighted_majority(best_mistakes, n, beta)
    return out(np.asarray(bound) - 2.0 * np.asarray(best_mistakes, dtype=float))


def _two_regret_eta(T, n):
    T = check_values(T, "T", 1, integer=True)
    n = check_values(n, "n", 1, integer=True)
    together(T=T, n=n)
    log_n = np.log(np.maximum(n, 2))                     # n = 1: nothing to learn; keep beta < 1
    return np.minimum(0.5, np.sqrt(log_n / np.asarray(T, dtype=float))), log_n


def weighted_majority_two_regret_beta(T, n):
    r"""UCL Problems 3.2 answered: :math:`\beta_T = 1 - \eta_T`, :math:`\eta_T = \min(\frac12, \sqrt{\ln n / T})`.

    By the CMU form (:func:`weighted_majority_cmu`) with :math:`\eta = 1 - \beta`,
    :math:`M - 2m \le 2\eta m + 2\ln n/\eta \le 2\eta T + 2\ln n/\eta` (as :math:`m \le T`),
    smallest at :math:`\eta_T = \sqrt{\ln n/T}`, where it is :math:`4\sqrt{T\ln n}`
    (:func:`weighted_majority_two_regret_tuned`): sublinear, so :math:`\beta_T \to 1` gives WM a
    sublinear 2-regret.  The cap :math:`\eta \le 1/2` is the CMU form's assumption (it binds
    while :math:`T < 4\ln n`); with one expert :math:`\ln 2` stands in for :math:`\ln n`.
    """
    eta, _ = _two_regret_eta(T, n)
    return out(1.0 - eta)


def weighted_majority_two_regret_tuned(T, n):
    r"""The 2-regret bound of WM at :math:`\beta_T` (:func:`weighted_majority_two_regret_beta`):
    :math:`2\eta_T T + 2\ln n/\eta_T`, which is :math:`4\sqrt{T\ln n}` once :math:`T \ge 4\ln n`.

    It bounds :math:`M - 2\min_i M_i` after :math:`T` rounds of WM run with :math:`\beta_T`
    (UCL Problems 3.2, through the CMU form).  Broadcasts over ``T`` (a curve over horizons).
    """
    eta, log_n = _two_regret_eta(T, n)
    return out(2.0 * eta * np.asarray(T, dtype=float) + 2.0 * log_n / eta)


def randomized_weighted_majority(best_mistakes, n, beta):
    r"""Randomized Weighted Majority's expected-mistake bound (CMU form).

    .. math::

        \mathbb E[M] \le (1 + \eta)\, m^* + \frac{\ln N}{\eta}, \qquad \eta = 1 - \beta .

    **Assumptions**: :math:`0 < \eta \le 1/2`, i.e. :math:`\beta \in [1/2, 1)` (the notes'
    ":math:`\eta \le \frac12`"), the outcomes are fixed before the coin flips (oblivious);
    ``best_mistakes`` is :math:`m^* = \min_n m_n` (or its curve over rounds).  The notes
    write ``log N``; it is the natural logarithm (it comes from :math:`\ln \Phi`).
    CMU 16-831, Section 1 ("upper bound of expected mistakes").
    """
    m = check_values(best_mistakes, "best_mistakes", 0.0)
    n = check_values(n, "n", 1, integer=True)
    beta = check_values(beta, "beta", 0.5, 1.0, hi_open=True)
    together(best_mistakes=m, n=n, beta=beta)
    eta = 1.0 - np.asarray(beta)
    return out((1.0 + eta) * m + np.log(n) / eta)


def randomized_weighted_majority_regret(best_mistakes, n, beta):
    r"""RWM's bound on its expected regret :math:`\mathbb E[M] - m^* \le \eta\, m^* + \frac{\ln N}{\eta}`,
    :math:`\eta = 1 - \beta`.

    :func:`randomized_weighted_majority` minus :math:`m^*`.  At a fixed :math:`\eta` it grows
    linearly in :math:`m^*`; with :math:`\eta` tuned to the horizon it is
    :math:`O(\sqrt{T\ln N})`.  Same assumptions and source.
    """
    bound = randomized_weighted_majority(best_mistakes, n, beta)
    return out(np.asarray(bound) - np.asarray(best_mistakes, dtype=float))


def randomized_weighted_majority_eta(T):
    r"""The CMU notes' no-regret rate for Randomized WM: :math:`\eta = 1/\sqrt T`.

    Then :math:`\mathbb E[M] - m^* \le \eta m^* + \ln N/\eta \le \sqrt T + \sqrt T\ln N`
    (:math:`m^* \le T`), so the average expected regret is at most :math:`(1 + \ln N)/\sqrt T \to 0`.
    The bound needs :math:`\eta \le 1/2`, i.e. :math:`T \ge 4`.  Broadcasts over ``T``.
    CMU 16-831, Online learning, Section 1 ("if we set η to 1/√T ... RWMA is a no-regret algorithm").
    """
    T = check_values(T, "T", 1, integer=True)
    return out(1.0 / np.sqrt(np.asarray(T, dtype=float)))


WEIGHTED_AVERAGE_ETA_MAX = {"entropic": 1.0, "square": 0.5}


def weighted_average(n, eta, loss: str = "entropic"):
    r"""Weighted Average's regret bound :math:`L_{WA}(S) - \min_i L_i(S) \le \frac1\eta \ln n`.

    **Assumptions**: :math:`(x_t, y_t) \in [0,1]^n \times [0,1]`; the entropic loss with
    :math:`0 < \eta \le 1` or the square loss with :math:`0 < \eta \le 1/2`.  The notes
    state the theorem at :math:`\eta = 1` (entropic, :math:`b = 1`) and :math:`\eta = 1/2`
    (square, :math:`b = 2`); smaller :math:`\eta` keeps the loss :math:`\eta`-exp-concave,
    so the bound :math:`\ln n/\eta` still holds ([KW99], cited by the notes).
    UCL COMP0078, Online learning ("Weighted Average Algorithm - Theorem").
    """
    n = check_values(n, "n", 1, integer=True)
    if loss not in WEIGHTED_AVERAGE_ETA_MAX:
        raise StreamError.bad("loss", repr(loss), "'entropic' or 'square'")
    eta = check_values(eta, "eta", 0.0, WEIGHTED_AVERAGE_ETA_MAX[loss], lo_open=True)
    together(n=n, eta=eta)
    return out(np.log(n) / eta)


def hedge(m, n, B=1.0):
    r"""Hedge's regret bound with the tuned rate: :math:`\mathbb E[L_{HA}] - \min_i L_i \le B\sqrt{2 m \ln n}`.

    **Assumptions**: losses in :math:`[0, B]` (:math:`B = 1` is the notes' theorem), Hedge run
    at :math:`\eta/B` with :math:`\eta = \sqrt{2\ln n/m}` (:func:`hedge_eta`, tuned to the
    horizon :math:`m`); for another :math:`\eta`, or the bound after :math:`t < m` rounds of a
    run tuned to :math:`m`, use :func:`hedge_regret`.  Losses in :math:`[0, B]` (the notes'
    question after the proof): :math:`\ell/B \in [0,1]`, and Hedge at :math:`\eta/B` on
    :math:`\ell` is Hedge at :math:`\eta` on :math:`\ell/B` (same weights), whose regret is
    :math:`1/B` times the regret on :math:`\ell`; so the regret is :math:`B\sqrt{2m\ln n}`.
    UCL COMP0078, Online learning ("Hedge - Theorem" [LW94, FS97]).
    """
    m = check_values(m, "m", 0, integer=True)
    n = check_values(n, "n", 1, integer=True)
    B = check_values(B, "B", 0.0, None, lo_open=True)
    together(m=m, n=n, B=B)
    return out(np.asarray(B, dtype=float) * np.sqrt(2.0 * np.asarray(m, dtype=float) * np.log(n)))


def hedge_eta(m, n):
    r"""The tuned learning rate :math:`\eta^* = \sqrt{2\ln n / m}` (minimises :func:`hedge_regret`)."""
    m = check_values(m, "m", 1, integer=True)
    n = check_values(n, "n", 1, integer=True)
    together(m=m, n=n)
    return out(np.sqrt(2.0 * np.log(n) / np.asarray(m, dtype=float)))


def hedge_regret(m, n, eta, B=1.0):
    r"""Hedge's regret bound for any rate: :math:`B\big(\frac{\ln n}{\eta} + \frac{\eta m}{2}\big)`.

    Equation (5) of the proof with :math:`\sum_t\sum_i v_{t,i}\ell_{t,i}^2 \le m`; at
    :math:`\eta = \eta^*` it equals :math:`B\sqrt{2 m \ln n}`.  **Assumptions**: losses in
    :math:`[0,B]` and Hedge run at :math:`\eta/B` (:func:`olcore.experts.hedge` with ``B``;
    :math:`B = 1` is the notes' case), :math:`\eta > 0`.  With ``m = arange(1, T + 1)`` it is
    the bound after each round (the curve :math:`\ln n/\eta + \eta t/2`); with an array of
    ``eta`` it is a sweep.  UCL COMP0078, Online learning ("Hedge Theorem - Proof (2)").
    """
    m = check_values(m, "m", 0, integer=True)
    n = check_values(n, "n", 1, integer=True)
    eta = check_values(eta, "eta", 0.0, None, lo_open=True)
    B = check_values(B, "B", 0.0, None, lo_open=True)
    together(m=m, n=n, eta=eta, B=B)
    return out(np.asarray(B, dtype=float) * (np.log(n) / eta + eta * np.asarray(m, dtype=float) / 2.0))
