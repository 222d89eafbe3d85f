r"""Risk bounds for online-to-batch conversion of classifiers (Cesa-Bianchi, On-line learning, last part).

The notes state Bernstein's inequality for martingales and conclude, "w.h.p." and with an
unnamed constant :math:`c`,

.. math::

    \frac1n\sum_{t=1}^n \operatorname{risk}(H_{t-1}) \le \frac{M_n}{n}
    + \frac cn\left(\ln M_n + \sqrt{M_n\ln M_n}\right), \qquad
    \operatorname{risk}(\hat H) \le \frac{M_n}{n} + \frac cn\left((\ln n)^2 + \sqrt{M_n\ln n}\right).

Here every constant is explicit, derived from the inequality exactly as the notes state it:
if :math:`Z_1, Z_2, \dots` is a martingale difference sequence with :math:`Z_t \le 1` and
:math:`V_n = \sum_t \mathbb E[Z_t^2\mid \text{past}]`, then for all :math:`S, K > 0`

.. math::

    \mathbb P\Big(\sum_{t=1}^n Z_t \ge S,\ V_n \le K\Big) \le \exp\Big(-\frac{S^2}{2(S/3 + K)}\Big).

**Inverting it.** The right side equals :math:`e^{-L}` for
:math:`S(K, L) = L/3 + \sqrt{L^2/9 + 2LK}` (:func:`bernstein_deviation`).

**(a) A fixed hypothesis on fresh data** (:func:`holdout_risk`).  :math:`H` fixed, :math:`p = \operatorname{risk}(H)`,
:math:`e` errors on :math:`m` fresh i.i.d. examples.  :math:`Z_i = p - \mathbb 1[\text{error}_i]` has
:math:`V_m = mp(1-p) \le mp`; Bernstein with the constant :math:`K = mp` gives, with probability
at least :math:`1 - e^{-L}`, :math:`mp - e < S(mp, L)`.  Solving the quadratic in :math:`mp`:

.. math::

    p < \frac1m\Big(e + \frac{4L}{3} + \sqrt{\frac{16L^2}{9} + 2Le}\Big).

The same inequality with :math:`-Z_i` gives the other side: :math:`e - mp < S(mp, L)`.

**(b) The ensemble's average risk** (:func:`average_risk`).  :math:`Z_t = \operatorname{risk}(H_{t-1})
- \mathbb 1[H_{t-1}(\mathbf x_t) \ne y_t]`, :math:`A = \sum_t \operatorname{risk}(H_{t-1})` and
:math:`V_n \le A` (a Bernoulli variance :math:`p(1-p) \le p`, the notes' step).  :math:`A` is random,
so :math:`K` cannot be set to it: apply the inequality on the grid :math:`K_j = 2^j`,
:math:`j = 0, \dots, J_n - 1` with :math:`J_n = \lceil\log_2 n\rceil + 1` (so :math:`K_{J_n-1} \ge n \ge A`),
each with :math:`L = \ln(J_n/\delta)`, and take the union (total probability :math:`\le\delta`).  For the
smallest :math:`j` with :math:`A \le K_j` we have :math:`K_j \le 2A + 1`, so :math:`A - M_n < S(2A + 1, L)`;
solving the quadratic in :math:`A`,

.. math::

    \frac1n\sum_{t=1}^n \operatorname{risk}(H_{t-1}) < \frac1n\Big(M_n + \frac{7L}{3}
    + \sqrt{\frac{49L^2}{9} + 2L + 4LM_n}\Big), \qquad L = \ln\frac{\lceil\log_2 n\rceil + 1}{\delta},

with probability at least :math:`1-\delta`; since :math:`\sqrt{a+b} \le \sqrt a + \sqrt b` this is at most
:math:`M_n/n + \frac1n\big(\frac{14}{3}L + \sqrt{2L(2M_n + 1)}\big)`: the notes' shape with
:math:`c \le 14/3` and :math:`\ln\frac{\log_2 n}{\delta}` where the notes write :math:`\ln M_n`.

**(c) The chosen hypothesis** (:func:`chosen_risk`).  Each :math:`H_t`, :math:`t = 0..n-1`, is tested on
the :math:`m_t = n - t` examples it has not seen (:math:`e_t` errors), and :math:`\hat H = H_{t^*}` minimises
the upper confidence bound :math:`U_t` of (a) at :math:`L_\text{pen} = \ln(3n/\delta)`.  Three events,
each of probability at most :math:`\delta/3`: (a) fails upwards for some :math:`t`, (a) fails downwards for
some :math:`t`, (b) fails (at :math:`\delta/3`, i.e. :math:`L_3 = \ln(3J_n/\delta)`).  Outside them, with
:math:`p_t = \operatorname{risk}(H_t)` and :math:`q = m_tp_t`: :math:`m_tU_t \le e_t + \frac{8L}{3} + \sqrt{2Le_t}`
and :math:`e_t \le q + \frac{2L}3 + \sqrt{2Lq}`, whence :math:`\sqrt{e_t} \le \sqrt q + \sqrt{L/2} + \sqrt{L/6}`
and :math:`U_t \le p_t + (c_1L + 2\sqrt{2Lq})/m_t` with :math:`c_1 = \frac{13}3 + \frac1{\sqrt3}`.
The minimum is at most the mean over :math:`t`; with :math:`\sum_t 1/m_t = H_n` (the harmonic number)
and Cauchy-Schwarz :math:`\sum_t\sqrt{p_t/m_t} \le \sqrt{A\,H_n}`:

.. math::

    \operatorname{risk}(\hat H) \le U_{t^*} \le \frac1n\Big(B + c_1 L_\text{pen} H_n
    + 2\sqrt{2 L_\text{pen} H_n B}\Big),

:math:`B` the bound of (b) on :math:`A` at confidence :math:`\delta/3`, all with probability at least
:math:`1-\delta`.  **Looser than the notes:** the square-root term carries
:math:`\sqrt{M_n\ln(n/\delta)\ln n}` where the slide has :math:`\sqrt{M_n\ln n}` (the Cauchy-Schwarz step
costs a :math:`\sqrt{\ln n}`); the :math:`(\ln n)^2` term is the slide's, as :math:`L_\text{pen}H_n`.

Every function broadcasts: arrays of prefix values give curves.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import StreamError
from ..validate import check_values
from ._broadcast import out, together

__all__ = ["bernstein_deviation", "peeling_cells", "holdout_risk", "holdout_risk_lower", "average_risk",
           "average_risk_level", "penalty_level", "chosen_risk", "C1"]

#: The constant :math:`c_1 = 13/3 + 1/\sqrt3` of :func:`chosen_risk`.
C1 = 13.0 / 3.0 + 1.0 / math.sqrt(3.0)


def bernstein_deviation(K, L):
    r""":math:`S(K, L) = L/3 + \sqrt{L^2/9 + 2LK}`: the deviation at which Bernstein's bound
    :math:`\exp(-S^2/(2(S/3 + K)))` equals :math:`e^{-L}`.

    >>> round(bernstein_deviation(0.0, 3.0), 12)
    2.0
    """
    K = check_values(K, "K", 0, None)
    L = check_values(L, "L", 0, None)
    together(K=K, L=L)
    K, L = np.asarray(K), np.asarray(L)
    return out(L / 3.0 + np.sqrt(L * L / 9.0 + 2.0 * L * K))


def peeling_cells(n):
    r""":math:`J_n = \lceil\log_2 n\rceil + 1`: the grid :math:`K_j = 2^j`, :math:`j < J_n`, reaches :math:`n`.

    >>> [peeling_cells(n) for n in (1, 2, 3, 4, 5, 1024, 1025)]
    [1, 2, 3, 3, 4, 11, 12]
    """
    n = check_values(n, "n", 1, None, integer=True)
    if np.ndim(n) == 0:
        return (int(n) - 1).bit_length() + 1
    return np.array([(int(k) - 1).bit_length() + 1 for k in np.ravel(n)], dtype=float).reshape(np.shape(n))


def _delta(delta):
    return check_values(delta, "delta", 0, 1, lo_open=True, hi_open=True)


def average_risk_level(n, delta):
    r""":math:`L = \ln(J_n/\delta)` of :func:`average_risk`."""
    return out(np.log(np.asarray(peeling_cells(n), dtype=float) / np.asarray(_delta(delta))))


def holdout_risk(errors, m, delta):
    r"""Upper confidence bound on the risk of one **fixed** hypothesis from its errors on :math:`m` fresh examples.

    .. math::

        \operatorname{risk}(H) < \frac1m\Big(e + \frac{4L}{3} + \sqrt{\frac{16L^2}{9} + 2Le}\Big),
        \qquad L = \ln(1/\delta),

    with probability at least :math:`1-\delta` (part (a) of the module docstring).

    Parameters
    ----------
    errors : float or array
        :math:`e`, the number of errors, :math:`0 \le e \le m`.
    m : int or array
        The number of test examples, :math:`m \ge 1`.
    delta : float or array in (0, 1)

    >>> round(holdout_risk(0, 100, 0.05), 4)     # no error in 100: risk < 8L/(3m) = 0.0799
    0.0799
    """
    e = check_values(errors, "errors", 0, None)
    m = check_values(m, "m", 1, None, integer=True)
    d = _delta(delta)
    together(errors=e, m=m, delta=d)
    if np.any(np.asarray(e) > np.asarray(m)):
        raise StreamError.bad("errors", "more errors than examples", "0 <= errors <= m")
    e, m, L = np.asarray(e, float), np.asarray(m, float), -np.log(np.asarray(d, float))
    return out((e + 4.0 * L / 3.0 + np.sqrt(16.0 * L * L / 9.0 + 2.0 * L * e)) / m)


def holdout_risk_lower(errors, m, delta):
    r"""The other side of (a): :math:`\operatorname{risk}(H) > p_-`, the smallest :math:`p` with
    :math:`e - mp < S(mp, L)`; with probability at least :math:`1-\delta`.

    Solving :math:`e - q - L/3 < \sqrt{L^2/9 + 2Lq}` for :math:`q = mp`:
    :math:`q_- = e + \frac{2L}3 - \sqrt{\frac{4L^2}9 + 2Le} = \frac{e(e - 2L/3)}{e + 2L/3 + \sqrt{4L^2/9 + 2Le}}`
    (and 0 when that is negative).

    >>> holdout_risk_lower(0, 50, 0.05)
    0.0
    """
    e = check_values(errors, "errors", 0, None)
    m = check_values(m, "m", 1, None, integer=True)
    d = _delta(delta)
    together(errors=e, m=m, delta=d)
    e, m, L = np.asarray(e, float), np.asarray(m, float), -np.log(np.asarray(d, float))
    # e + 2L/3 - sqrt(4L²/9 + 2Le) written without cancellation: exactly 0 at e = 0
    root = np.sqrt(4.0 * L * L / 9.0 + 2.0 * L * e)
    return out((np.maximum(0.0, e * (e - 2.0 * L / 3.0) / (e + 2.0 * L / 3.0 + root)) + 0.0) / m)  # no -0.0


def average_risk(mistakes, n, delta):
    r"""Bound on the ensemble's average risk :math:`\frac1n\sum_{t=1}^n\operatorname{risk}(H_{t-1})`.

    .. math::

        \frac1n\Big(M_n + \frac{7L}{3} + \sqrt{\frac{49L^2}{9} + 2L + 4LM_n}\Big),
        \qquad L = \ln\frac{\lceil\log_2 n\rceil + 1}{\delta},

    holding with probability at least :math:`1-\delta` when :math:`(\mathbf x_t, y_t)` are i.i.d.,
    for every incremental learner (part (b) of the module docstring).  Not capped at 1.

    Parameters
    ----------
    mistakes : float or array
        :math:`M_n`, the mistakes in the first :math:`n` rounds, :math:`0 \le M_n \le n`.
    n : int or array
        Rounds, :math:`n \ge 1` (an array of prefix lengths with an array of :math:`M_t` gives the curve).
    delta : float or array in (0, 1)

    >>> L = math.log(1 / 0.5)                   # n = 1: J_1 = 1
    >>> abs(average_risk(0, 1, 0.5) - (7 * L / 3 + math.sqrt(49 * L * L / 9 + 2 * L))) < 1e-12
    True
    """
    M = check_values(mistakes, "mistakes", 0, None)
    n = check_values(n, "n", 1, None, integer=True)
    d = _delta(delta)
    together(mistakes=M, n=n, delta=d)
    if np.any(np.asarray(M) > np.asarray(n)):
        raise StreamError.bad("mistakes", "more mistakes than rounds", "0 <= mistakes <= n")
    M, nn = np.asarray(M, float), np.asarray(n, float)
    L = np.log(np.asarray(peeling_cells(n), float) / np.asarray(d, float))
    return out((M + 7.0 * L / 3.0 + np.sqrt(49.0 * L * L / 9.0 + 2.0 * L + 4.0 * L * M)) / nn)


def penalty_level(n, delta):
    r""":math:`L_\text{pen} = \ln(3n/\delta)`: the level of each test in the penalised choice
    (:math:`\delta/(3n)` each: a union over :math:`n` hypotheses, a third of :math:`\delta`)."""
    n = check_values(n, "n", 1, None, integer=True)
    return out(np.log(3.0 * np.asarray(n, float) / np.asarray(_delta(delta), float)))


def chosen_risk(mistakes, n, delta):
    r"""Bound on the risk of the penalised choice :math:`\hat H` in terms of the mistakes :math:`M_n`.

    .. math::

        \operatorname{risk}(\hat H) \le \frac1n\Big(B + c_1 L H_n + 2\sqrt{2 L H_n B}\Big),\quad
        B = M_n + \frac{7L_3}{3} + \sqrt{\frac{49L_3^2}{9} + 2L_3 + 4L_3M_n},

    :math:`L = \ln(3n/\delta)`, :math:`L_3 = \ln(3J_n/\delta)`, :math:`H_n = \sum_{k\le n} 1/k`,
    :math:`c_1 = 13/3 + 1/\sqrt 3`; with probability at least :math:`1-\delta` (part (c) of the module
    docstring), for :math:`\hat H` chosen by :func:`olcore.online_to_batch.choose_penalised` at the same
    :math:`\delta`.  Not capped at 1.

    >>> chosen_risk(10, 1000, 0.05) > average_risk(10, 1000, 0.05)
    True
    """
    M = check_values(mistakes, "mistakes", 0, None)
    n = check_values(n, "n", 1, None, integer=True)
    d = _delta(delta)
    together(mistakes=M, n=n, delta=d)
    B = np.asarray(average_risk(M, n, np.asarray(d) / 3.0)) * np.asarray(n, float)
    L = np.asarray(penalty_level(n, d), float)
    H = np.asarray(_harmonic(n), float)
    return out((B + C1 * L * H + 2.0 * np.sqrt(2.0 * L * H * B)) / np.asarray(n, float))


def _harmonic(n):
    """:math:`H_n = \\sum_{k=1}^n 1/k` (the exact sum)."""
    a = np.asarray(n, dtype=np.int64)
    H = np.cumsum(1.0 / np.arange(1, int(a.max()) + 1))
    return H[a - 1]
