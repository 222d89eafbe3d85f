r"""Each theorem's bound as a plain function of the stream's constants.

Every function checks its assumptions (raising :class:`olcore.StreamError`) and its
docstring states the theorem, its assumptions and where the notes prove it.  Sections
below follow the families: experts, linear classification, regression.
"""

from __future__ import annotations

import math

from .errors import StreamError
from .validate import check_int, check_param

__all__: list[str] = []

# ---- experts ----------------------------------------------------------------------------

# Owner: issue 3 (experts).  Sources: seeds/000_8a17f779656f0ef2.txt (UCL COMP0078) and
# seeds/001_c4932eda687fdb6a.txt (CMU 16-831, randomized WM).

__all__ += ["halving", "weighted_majority", "weighted_majority_constants",
            "randomized_weighted_majority", "weighted_average", "WEIGHTED_AVERAGE_ETA_MAX",
            "hedge", "hedge_eta", "hedge_regret"]


def halving(n: int) -> float:
    r"""Halving's mistake bound :math:`M \le \log_2 n`.

    **Assumption**: some expert is consistent with the whole sequence (never wrong).
    Every mistake removes at least half of the consistent experts, so after
    :math:`M` mistakes :math:`1 \le |C| \le n/2^M`.  Since :math:`M` is an integer, in
    fact :math:`M \le \lfloor\log_2 n\rfloor`.  ``seeds/000_8a17f779656f0ef2.txt``
    ("A run of the Halving Algorithm": "For any sequence with a consistent expert, the
    Halving Algorithm makes :math:`\le \log_2 n` mistakes").
    """
    n = check_int(n, "n", 1)
    return math.log2(n)


def weighted_majority_constants(beta: float) -> tuple[float, float]:
    r"""The constants :math:`(a, b)` of :math:`M \le a\, M_i + b \ln n`:
    :math:`a = \ln\frac1\beta / \ln\frac{2}{1+\beta}`, :math:`b = 1/\ln\frac{2}{1+\beta}`.

    :math:`\beta = 1/e` gives :math:`a = b \approx 2.63`; :math:`\beta = 0` gives
    :math:`a = \infty`, :math:`b = 1/\ln 2`.
    """
    beta = check_param(beta, "beta", 0.0, 1.0, hi_open=True)
    denom = math.log(2.0 / (1.0 + beta))
    a = math.inf if beta == 0.0 else math.log(1.0 / beta) / denom
    return a, 1.0 / denom


def weighted_majority(best_mistakes: float, n: int, beta: float) -> float:
    r"""Weighted Majority's mistake bound (UCL form).

    .. math::

        M \le \frac{\ln\frac1\beta}{\ln\frac{2}{1+\beta}} M_i + \frac{1}{\ln\frac{2}{1+\beta}} \ln n
        \quad\text{for every expert } i,

    so with :math:`M_i = \min_i M_i` (``best_mistakes``).  **Assumptions**: advice and
    outcomes in {0, 1}, :math:`\beta \in [0, 1)`, ties broken either way.  From
    :math:`\beta^{M_i} \le W_{m+1} \le n(\frac{1+\beta}{2})^M`.  :math:`\beta = 1/e` gives
    :math:`M \le 2.63 \min_i M_i + 2.63 \ln n`.  :math:`\beta = 0` (Halving) gives
    :math:`\log_2 n` when ``best_mistakes`` is 0 and :math:`\infty` otherwise.
    ``seeds/000_8a17f779656f0ef2.txt`` ("Number of mistakes of the WM algorithm").
    """
    m = check_param(best_mistakes, "best_mistakes", 0.0)
    n = check_int(n, "n", 1)
    a, b = weighted_majority_constants(beta)
    if beta == 0.0:
        return math.log2(n) if m == 0 else math.inf     # exactly Halving's log2 n
    return a * m + b * math.log(n)


def randomized_weighted_majority(best_mistakes: float, n: int, beta: float) -> float:
    r"""Randomized Weighted Majority's expected-mistake bound (CMU form).

    .. math::

        \mathbb E[M] \le (1 + \eta)\, m^* + \frac{\ln N}{\eta}, \qquad \eta = 1 - \beta .

    **Assumptions**: :math:`0 < \eta \le 1/2`, i.e. :math:`\beta \in [1/2, 1)` (the notes'
    ":math:`\eta \le \frac12`"), the outcomes are fixed before the coin flips (oblivious);
    ``best_mistakes`` is :math:`m^* = \min_n m_n`.  The notes write ``log N``; it is the
    natural logarithm (it comes from :math:`\ln \Phi`).  ``seeds/001_c4932eda687fdb6a.txt``
    (Section 1, "upper bound of expected mistakes").
    """
    m = check_param(best_mistakes, "best_mistakes", 0.0)
    n = check_int(n, "n", 1)
    beta = check_param(beta, "beta", 0.5, 1.0, hi_open=True)
    eta = 1.0 - beta
    return (1.0 + eta) * m + math.log(n) / eta


WEIGHTED_AVERAGE_ETA_MAX = {"entropic": 1.0, "square": 0.5}


def weighted_average(n: int, eta: float, loss: str = "entropic") -> float:
    r"""Weighted Average's regret bound :math:`L_{WA}(S) - \min_i L_i(S) \le \frac1\eta \ln n`.

    **Assumptions**: :math:`(x_t, y_t) \in [0,1]^n \times [0,1]`; the entropic loss with
    :math:`0 < \eta \le 1` or the square loss with :math:`0 < \eta \le 1/2`.  The notes
    state the theorem at :math:`\eta = 1` (entropic, :math:`b = 1`) and :math:`\eta = 1/2`
    (square, :math:`b = 2`); smaller :math:`\eta` keeps the loss :math:`\eta`-exp-concave,
    so the bound :math:`\ln n/\eta` still holds ([KW99], cited by the notes).
    ``seeds/000_8a17f779656f0ef2.txt`` ("Weighted Average Algorithm - Theorem").
    """
    n = check_int(n, "n", 1)
    if loss not in WEIGHTED_AVERAGE_ETA_MAX:
        raise StreamError.bad("loss", repr(loss), "'entropic' or 'square'")
    eta = check_param(eta, "eta", 0.0, WEIGHTED_AVERAGE_ETA_MAX[loss], lo_open=True)
    return math.log(n) / eta


def hedge(m: int, n: int) -> float:
    r"""Hedge's regret bound with the tuned rate: :math:`\mathbb E[L_{HA}] - \min_i L_i \le \sqrt{2 m \ln n}`.

    **Assumptions**: losses in :math:`[0, 1]`, :math:`\eta = \sqrt{2\ln n/m}`
    (:func:`hedge_eta`); for another :math:`\eta` use :func:`hedge_regret`.
    ``seeds/000_8a17f779656f0ef2.txt`` ("Hedge - Theorem" [LW94, FS97]).
    """
    m = check_int(m, "m", 0)
    n = check_int(n, "n", 1)
    return math.sqrt(2.0 * m * math.log(n))


def hedge_eta(m: int, n: int) -> float:
    r"""The tuned learning rate :math:`\eta^* = \sqrt{2\ln n / m}` (minimises :func:`hedge_regret`)."""
    m = check_int(m, "m", 1)
    n = check_int(n, "n", 1)
    return math.sqrt(2.0 * math.log(n) / m)


def hedge_regret(m: int, n: int, eta: float) -> float:
    r"""Hedge's regret bound for any rate: :math:`\frac{\ln n}{\eta} + \frac{\eta m}{2}`.

    Equation (5) of the proof with :math:`\sum_t\sum_i v_{t,i}\ell_{t,i}^2 \le m`; at
    :math:`\eta = \eta^*` it equals :math:`\sqrt{2 m \ln n}`.  **Assumptions**: losses in
    :math:`[0,1]`, :math:`\eta > 0`.  ``seeds/000_8a17f779656f0ef2.txt`` ("Hedge Theorem -
    Proof (2)").
    """
    m = check_int(m, "m", 0)
    n = check_int(n, "n", 1)
    eta = check_param(eta, "eta", 0.0, None, lo_open=True)
    return math.log(n) / eta + eta * m / 2.0


# ---- linear classification ---------------------------------------------------------------
# (issue 4: Perceptron, Winnow, OGD with hinge loss, Passive-Aggressive; and the helpers that
# measure R, gamma and the hinge loss of a comparator u on a stream)

import numpy as _np_lin

__all__ += [
    "perceptron", "perceptron_nonseparable", "winnow", "winnow_general",
    "ogd_hinge", "ogd_hinge_eta", "ogd_hinge_regret", "passive_aggressive_separable",
    "passive_aggressive_pa1", "passive_aggressive_pa2",
    "radius", "margin", "hinge_loss", "squared_hinge_loss", "best_u_nonseparable",
]


def perceptron(R: float, gamma: float) -> float:
    r"""Novikoff's bound :math:`M \le (R/\gamma)^2` on the Perceptron's mistakes.

    Assumptions: :math:`\|\mathbf{x}_t\| \le R` for all :math:`t`, and a unit vector
    :math:`\mathbf{v}` separates the stream with margin :math:`\gamma > 0`:
    :math:`y_t(\mathbf{v}\cdot\mathbf{x}_t) \ge \gamma`.  Holds for any number of passes.

    Parameters
    ----------
    R : float, R > 0
    gamma : float, 0 < gamma <= R

    References
    ----------
    ``seeds/000_8a17f779656f0ef2.txt``, Theorem "Perceptron Bound [Novikoff]";
    ``seeds/001_c4932eda687fdb6a.txt``, Theorem 1.
    """
    R = check_param(R, "R", 0, None, lo_open=True)
    gamma = check_param(gamma, "gamma", 0, None, lo_open=True)
    if gamma > R * (1 + 1e-12):
        raise StreamError.bad("gamma", f"{gamma:g}", f"a margin at most R = {R:g} (|v.x| <= ||x|| <= R)")
    return (R / gamma) ** 2


def perceptron_nonseparable(loss_u: float, norm_u: float, R: float = 1.0) -> float:
    r"""The Perceptron's relative mistake bound for any comparator :math:`\mathbf{u}`.

    .. math::

        M \le L_{\mathbf{u}} + R^2\|\mathbf{u}\|^2 + R\|\mathbf{u}\|\sqrt{L_{\mathbf{u}}},
        \qquad L_{\mathbf{u}} = \sum_t [1 - y_t \mathbf{u}\cdot\mathbf{x}_t]_+ .

    No separability assumption; only :math:`\|\mathbf{x}_t\| \le R`.  The notes state
    it for :math:`\|\mathbf{x}_t\| = 1` (then :math:`R = 1`); with radius :math:`R` the
    same proof gives :math:`\|\mathbf{w}_T\|^2 \le M R^2` and
    :math:`\mathbf{u}\cdot\mathbf{w}_T \ge M - L_{\mathbf{u}}`, so
    :math:`M - L_{\mathbf{u}} \le R\|\mathbf{u}\|\sqrt M`, solved for :math:`M`.  With
    :math:`L_{\mathbf{u}} = 0` and :math:`\mathbf{u} = \mathbf{v}/\gamma` it is Novikoff's
    :math:`(R/\gamma)^2`.

    Parameters
    ----------
    loss_u : float >= 0
        Total hinge loss of :math:`\mathbf{u}` on the stream (:func:`hinge_loss`).
    norm_u : float >= 0
        :math:`\|\mathbf{u}\|`.
    R : float > 0, default=1.0

    References
    ----------
    ``seeds/003_922d87807e469abc.txt``, "The relative mistake bound" (Generalized
    Perceptron convergence theorem).
    """
    loss_u = check_param(loss_u, "loss_u", 0, None)
    norm_u = check_param(norm_u, "norm_u", 0, None)
    R = check_param(R, "R", 0, None, lo_open=True)
    a = R * norm_u
    return loss_u + a * a + a * math.sqrt(loss_u)


def winnow(k: int, N: int) -> float:
    r"""Winnow's mistake bound :math:`m < 2 + 3k(\log_2 N + 1)`.

    Assumptions: labels given by a monotone disjunction of :math:`k` of the :math:`N`
    boolean attributes; Winnow with :math:`\alpha = 2` and threshold :math:`\theta = N`
    (the defaults of :func:`olcore.linear.winnow`).  The inequality is strict.

    References
    ----------
    ``seeds/001_c4932eda687fdb6a.txt``, section 4.4, equation (32).
    """
    N = check_int(N, "N", 1, None)
    k = check_int(k, "k", 0, N)
    return 2.0 + 3.0 * k * (math.log2(N) + 1.0)


def winnow_general(k: int, N: int, alpha: float = 2.0, theta: float | None = None) -> float:
    r"""Winnow's mistake bound for any factor :math:`\alpha > 1` and threshold :math:`\theta > 0`.

    .. math::

        m < \frac{N\alpha}{(\alpha - 1)\theta} + (\alpha + 1)\, k\, \max(0, \log_\alpha\theta + 1).

    The notes' proof with general constants: a relevant weight (never demoted) is
    promoted only while it is at most :math:`\theta`, so
    :math:`m^+ \le k(\log_\alpha\theta + 1)`; the potential :math:`\sum_i w_i` starts at
    :math:`N`, grows by at most :math:`(\alpha-1)\theta` per positive mistake, falls by
    more than :math:`(1 - 1/\alpha)\theta` per negative one and stays positive.  With
    :math:`\alpha = 2, \theta = N` it is :func:`winnow`.

    References
    ----------
    ``seeds/001_c4932eda687fdb6a.txt``, section 4.4 (generalised from :math:`\beta = 1`).
    """
    N = check_int(N, "N", 1, None)
    k = check_int(k, "k", 0, N)
    alpha = check_param(alpha, "alpha", 1, None, lo_open=True)
    theta = float(N) if theta is None else check_param(theta, "theta", 0, None, lo_open=True)
    m_plus = k * max(0.0, math.log(theta) / math.log(alpha) + 1.0)
    return N * alpha / ((alpha - 1.0) * theta) + (alpha + 1.0) * m_plus


def ogd_hinge(U: float, R: float, m: int) -> float:
    r"""OGD's regret bound on the hinge loss with the tuned :math:`\eta = U/(R\sqrt m)`.

    .. math::

        \sum_{t=1}^m L_{hi}(y_t, \hat y_t) - L_{hi}(y_t, \mathbf{u}\cdot\mathbf{x}_t)
        \le \sqrt{U^2 R^2 m} \quad \text{for all } \|\mathbf{u}\| \le U,

    assuming :math:`\|\mathbf{x}_t\| \le R` and :func:`ogd_hinge_eta` as the step.

    References
    ----------
    ``seeds/000_8a17f779656f0ef2.txt``, "Regret Bound for OGD", equation (6).
    """
    U = check_param(U, "U", 0, None)
    R = check_param(R, "R", 0, None)
    m = check_int(m, "m", 0, None)
    return math.sqrt(U * U * R * R * m)


def ogd_hinge_eta(U: float, R: float, m: int) -> float:
    r"""The step :math:`\eta = U/(R\sqrt m)` of OGD's regret theorem."""
    U = check_param(U, "U", 0, None, lo_open=True)
    R = check_param(R, "R", 0, None, lo_open=True)
    m = check_int(m, "m", 1, None)
    return U / (R * math.sqrt(m))


def ogd_hinge_regret(U: float, R: float, m: int, eta: float) -> float:
    r"""OGD's hinge-loss regret bound for any step: :math:`\frac{U^2}{2\eta} + \frac{\eta}{2} m R^2`.

    The last line but one of the notes' proof, before :math:`\eta` is tuned; it equals
    :func:`ogd_hinge` at :math:`\eta = U/(R\sqrt m)`.

    References
    ----------
    ``seeds/000_8a17f779656f0ef2.txt``, "Regret Bound for OGD - Proof (2)".
    """
    U = check_param(U, "U", 0, None)
    R = check_param(R, "R", 0, None)
    m = check_int(m, "m", 0, None)
    eta = check_param(eta, "eta", 0, None, lo_open=True)
    return U * U / (2 * eta) + eta * m * R * R / 2


def passive_aggressive_separable(norm_u: float, R: float = 1.0) -> float:
    r"""PA (Hildreth) on a separable stream: :math:`M \le \sum_t \ell_t(\mathbf{w}_{t-1})^2 \le \|\mathbf{u}\|^2 R^2`.

    Assumption: :math:`y_t\,\mathbf{u}\cdot\mathbf{x}_t \ge 1` for all :math:`t` (zero hinge
    loss) and :math:`\|\mathbf{x}_t\| \le R`.

    References
    ----------
    ``seeds/003_922d87807e469abc.txt``, "Analysis for linearly separable streams".
    """
    norm_u = check_param(norm_u, "norm_u", 0, None)
    R = check_param(R, "R", 0, None)
    return norm_u * norm_u * R * R


def passive_aggressive_pa1(norm_u: float, loss_u: float, C: float, R: float = 1.0) -> float:
    r"""PA-I's mistake bound :math:`M \le \max\{R^2, 1/C\}\,(\|\mathbf{u}\|^2 + 2C L_{\mathbf{u}})`.

    For every :math:`\mathbf{u}`, with :math:`L_{\mathbf{u}} = \sum_t \ell_t(\mathbf{u})`
    its hinge loss and :math:`\|\mathbf{x}_t\| \le R`.  The notes prove it for
    :math:`\|\mathbf{x}_t\| = 1` (:math:`\max\{1/C, 1\}`); the paper's Theorem 4 has
    :math:`\max\{R^2, 1/C\}`.

    References
    ----------
    ``seeds/003_922d87807e469abc.txt``, "Mistake bounds for PA-I" [Crammer et al., 2006].
    """
    norm_u = check_param(norm_u, "norm_u", 0, None)
    loss_u = check_param(loss_u, "loss_u", 0, None)
    C = check_param(C, "C", 0, None, lo_open=True)
    R = check_param(R, "R", 0, None)
    return max(R * R, 1.0 / C) * (norm_u * norm_u + 2.0 * C * loss_u)


def passive_aggressive_pa2(norm_u: float, sq_loss_u: float, C: float, R: float = 1.0) -> float:
    r"""PA-II: :math:`M \le \sum_t \ell_t^2 \le (R^2 + \tfrac{1}{2C})(\|\mathbf{u}\|^2 + 2C\sum_t \ell_t(\mathbf{u})^2)`.

    For every :math:`\mathbf{u}` with :math:`\|\mathbf{x}_t\| \le R`; ``sq_loss_u`` is
    :func:`squared_hinge_loss`.  From the paper (Theorem 5), with its :math:`1/(2C)`.

    References
    ----------
    Crammer et al., "Online Passive-Aggressive Algorithms", JMLR 7 (2006), Theorem 5;
    the algorithm in ``seeds/003_922d87807e469abc.txt``.
    """
    norm_u = check_param(norm_u, "norm_u", 0, None)
    sq_loss_u = check_param(sq_loss_u, "sq_loss_u", 0, None)
    C = check_param(C, "C", 0, None, lo_open=True)
    R = check_param(R, "R", 0, None)
    return (R * R + 1.0 / (2.0 * C)) * (norm_u * norm_u + 2.0 * C * sq_loss_u)


def _xy(X, y):
    from .validate import as_labels, as_matrix

    X = as_matrix(X, "X")
    return X, as_labels(y, X.shape[0], "y")


def _vec(u, d: int, name: str):
    from .validate import as_matrix

    u = as_matrix(u, name)[:, 0] if _np_lin.ndim(u) else None
    if u is None or u.shape != (d,):
        raise StreamError.bad(name, f"shape {_np_lin.shape(u)}", f"a vector of length d = {d}")
    return u


def radius(X) -> float:
    r""":math:`R = \max_t \|\mathbf{x}_t\|`, the radius of the smallest centred ball holding the stream."""
    from .validate import as_matrix

    X = as_matrix(X, "X")
    return float(_np_lin.sqrt(_np_lin.einsum("ij,ij->i", X, X).max()))


def margin(X, y, v) -> float:
    r""":math:`\gamma_{\mathbf{v}} = \min_t y_t\,\mathbf{v}\cdot\mathbf{x}_t` for the unit vector :math:`\mathbf{v}/\|\mathbf{v}\|`.

    ``v`` is normalised first, so any non-zero direction may be passed.  Positive iff
    :math:`\mathbf{v}` separates the stream; Novikoff's :math:`\gamma` is this value.
    """
    X, y = _xy(X, y)
    v = _vec(v, X.shape[1], "v")
    n = float(_np_lin.linalg.norm(v))
    if n == 0:
        raise StreamError.bad("v", "the zero vector", "a non-zero direction")
    return float((y * (X @ (v / n))).min())


def hinge_loss(X, y, u) -> float:
    r""":math:`L_{\mathbf{u}} = \sum_t [1 - y_t\,\mathbf{u}\cdot\mathbf{x}_t]_+`, the total hinge loss of :math:`\mathbf{u}` (not normalised)."""
    X, y = _xy(X, y)
    u = _vec(u, X.shape[1], "u")
    return float(_np_lin.maximum(0.0, 1.0 - y * (X @ u)).sum())


def squared_hinge_loss(X, y, u) -> float:
    r""":math:`\sum_t [1 - y_t\,\mathbf{u}\cdot\mathbf{x}_t]_+^2`."""
    X, y = _xy(X, y)
    u = _vec(u, X.shape[1], "u")
    return float((_np_lin.maximum(0.0, 1.0 - y * (X @ u)) ** 2).sum())


def best_u_nonseparable(X, y, directions=None, n_angles: int = 360, n_scales: int = 400):
    r"""The comparator :math:`\mathbf{u}` (among those searched) with the smallest non-separable Perceptron bound.

    Searches :math:`\mathbf{u} = s\,\hat{\mathbf{v}}` over unit directions
    :math:`\hat{\mathbf{v}}` (``directions``, plus in 2-D a grid of ``n_angles`` angles)
    and scales :math:`s` (a log grid, plus :math:`1/\gamma_{\hat v}` when
    :math:`\hat{\mathbf{v}}` separates), minimising
    :func:`perceptron_nonseparable` with the measured :math:`R`.  Every
    :math:`\mathbf{u}` gives a valid bound; this picks the smallest one found.

    Parameters
    ----------
    X : array (T, d)
    y : array (T,) in {-1, +1}
    directions : array (m, d), default=None
        Candidate directions (need not be unit).  Required when d != 2.

    Returns
    -------
    dict with ``bound``, ``u`` (d,), ``loss_u``, ``norm_u``, ``R``.
    """
    X, y = _xy(X, y)
    T, d = X.shape
    R = radius(X)
    cands = []
    if directions is not None:
        D = _np_lin.atleast_2d(_np_lin.asarray(directions, dtype=float))
        if D.shape[1] != d:
            raise StreamError.bad("directions", f"shape {D.shape}", f"(m, {d})")
        n = _np_lin.linalg.norm(D, axis=1)
        cands.append(D[n > 0] / n[n > 0, None])
    if d == 2:
        a = _np_lin.linspace(0, 2 * _np_lin.pi, n_angles, endpoint=False)
        cands.append(_np_lin.column_stack([_np_lin.cos(a), _np_lin.sin(a)]))
    if not cands or sum(c.shape[0] for c in cands) == 0:
        raise StreamError.bad("directions", "none", "candidate directions for u (required when d != 2)")
    D = _np_lin.vstack(cands)
    Z = _np_lin.sort((X @ D.T) * y[:, None], axis=0)          # (T, m) margins, ascending
    csum = _np_lin.vstack([_np_lin.zeros(D.shape[0]), _np_lin.cumsum(Z, axis=0)])
    scales = _np_lin.geomspace(1e-3, 1e4, n_scales) / max(R, 1e-300)
    best = (math.inf, None, 0.0, 0.0)
    for j in range(D.shape[0]):
        z = Z[:, j]
        s = scales if z[0] <= 0 else _np_lin.append(scales, 1.0 / z[0])
        cnt = _np_lin.searchsorted(z, 1.0 / s, side="left")   # rounds with s z_t < 1
        L = _np_lin.maximum(cnt - s * csum[cnt, j], 0.0)
        a = R * s
        B = L + a * a + a * _np_lin.sqrt(L)
        i = int(_np_lin.argmin(B))
        if B[i] < best[0]:
            best = (float(B[i]), s[i] * D[j], float(L[i]), float(s[i]))
    bound, u, _, norm_u = best
    loss_u = hinge_loss(X, y, u)   # exact, not the cumsum value
    return {"bound": perceptron_nonseparable(loss_u, norm_u, R), "u": u, "loss_u": loss_u,
            "norm_u": norm_u, "R": R}


# ---- regression ---------------------------------------------------------------------------
# Owner: issue 5 (Widrow-Hoff).  Source: seeds/004_d8e420cbfd1746de.txt (COS 511, lecture 18).

__all__ += [
    "widrow_hoff", "widrow_hoff_best_eta", "widrow_hoff_tuned", "check_unit_ball", "UnitBallReport",
    "widrow_hoff_clairvoyant", "widrow_hoff_comparator", "widrow_hoff_min", "widrow_hoff_optimal_eta",
    "widrow_hoff_theorem", "WidrowHoffBound", "online_to_batch", "widrow_hoff_prefix_min",
]

from dataclasses import dataclass as _dataclass  # noqa: E402

import numpy as _np  # noqa: E402

from .validate import as_labels as _as_labels, as_matrix as _as_matrix  # noqa: E402


def widrow_hoff(loss_u: float, norm_u_sq: float, eta: float) -> float:
    r"""Theorem 1 for one comparator: :math:`\frac{L_{\mathbf u}}{1-\eta} + \frac{\|\mathbf u\|_2^2}{\eta}`.

    **Theorem 1** (``seeds/004_d8e420cbfd1746de.txt``, Section 1.2).  If
    :math:`\|\mathbf{x}_t\|_2 \le 1` for every round, Widrow-Hoff with :math:`0<\eta<1` has

    .. math::

        L_{WH} \le \min_{\mathbf u}\left(\frac{L_{\mathbf u}}{1-\eta}
        + \frac{\|\mathbf u\|_2^2}{\eta}\right),

    proved with the potential :math:`\Phi_t = \|\mathbf w_t - \mathbf u\|_2^2`.  The
    assumption on :math:`\mathbf x_t` is a property of the stream: check it with
    :func:`check_unit_ball`.

    Parameters
    ----------
    loss_u : float
        :math:`L_{\mathbf u} = \sum_t (\mathbf u\cdot\mathbf x_t - y_t)^2 \ge 0`.
    norm_u_sq : float
        :math:`\|\mathbf u\|_2^2 \ge 0`.
    eta : float
        Learning rate in (0, 1).
    """
    loss_u = check_param(loss_u, "loss_u", 0, None)
    norm_u_sq = check_param(norm_u_sq, "norm_u_sq", 0, None)
    eta = check_param(eta, "eta", 0, 1, lo_open=True, hi_open=True)
    return loss_u / (1.0 - eta) + norm_u_sq / eta


def widrow_hoff_best_eta(loss_u: float, norm_u_sq: float) -> float:
    r"""The :math:`\eta` minimising Theorem 1's bound for a fixed :math:`\mathbf u`.

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
    L = check_param(loss_u, "loss_u", 0, None)
    N = check_param(norm_u_sq, "norm_u_sq", 0, None)
    if L == 0 and N == 0:
        return 0.5
    a, b = math.sqrt(N), math.sqrt(L)
    return a / (a + b)


def widrow_hoff_tuned(loss_u: float, norm_u_sq: float) -> float:
    r""":math:`\min_{0<\eta<1}` of Theorem 1's bound for a fixed :math:`\mathbf u`:
    :math:`(\sqrt{L_{\mathbf u}} + \|\mathbf u\|)^2` (see :func:`widrow_hoff_best_eta`)."""
    L = check_param(loss_u, "loss_u", 0, None)
    N = check_param(norm_u_sq, "norm_u_sq", 0, None)
    return (math.sqrt(L) + math.sqrt(N)) ** 2


@_dataclass(frozen=True)
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
    A = _as_matrix(X, "X")
    radius = check_param(radius, "radius", 0, None, lo_open=True)
    norms = _np.sqrt(_np.einsum("td,td->t", A, A))
    out = norms > radius * (1.0 + tol)
    n_out = int(out.sum())
    return UnitBallReport(float(norms.max()), n_out, int(_np.argmax(out)) if n_out else None, radius)


def widrow_hoff_clairvoyant(X, y) -> _np.ndarray:
    r"""The clairvoyant comparator :math:`\arg\min_{\mathbf u} L_{\mathbf u}` (least squares).

    The minimum-norm least-squares solution (``numpy.linalg.lstsq``); its loss is the
    smallest achievable :math:`\min_{\mathbf u} L_{\mathbf u}` of the notes.
    """
    A = _as_matrix(X, "X")
    v = _as_labels(y, A.shape[0], "y")
    return _np.linalg.lstsq(A, v, rcond=None)[0]


def _spectrum(X, y):
    """Singular values s, c = U^T y, V^T and the residual outside X's column space.

    Computed from the eigendecomposition of the smaller Gram matrix (X^T X or X X^T):
    several times faster than an SVD for wide or tall X; directions with
    s^2 <= 1e-12 * s_max^2 are treated as exact zeros (they then add c_i^2 to r0 instead,
    which is the same contribution to L_u up to that tolerance).
    """
    A = _as_matrix(X, "X")
    v = _as_labels(y, A.shape[0], "y")
    T, d = A.shape
    if d <= T:
        lam, V = _np.linalg.eigh(A.T @ A)
        keep = lam > 1e-12 * max(float(lam.max()), 1e-300)
        s = _np.sqrt(lam[keep])
        Vt = V[:, keep].T
        c = (Vt @ (A.T @ v)) / s
    else:
        lam, U = _np.linalg.eigh(A @ A.T)
        keep = lam > 1e-12 * max(float(lam.max()), 1e-300)
        s = _np.sqrt(lam[keep])
        U = U[:, keep]
        c = U.T @ v
        Vt = (U.T @ A) / s[:, None]
    r0 = max(float(v @ v) - float(c @ c), 0.0)
    return s, c, Vt, r0


def widrow_hoff_comparator(X, y, eta: float) -> _np.ndarray:
    r"""The :math:`\mathbf u` minimising Theorem 1's right-hand side for this stream and :math:`\eta`.

    :math:`\frac{\|X\mathbf u - \mathbf y\|^2}{1-\eta} + \frac{\|\mathbf u\|^2}{\eta}` is a
    ridge problem with :math:`\lambda = (1-\eta)/\eta`:

    .. math::

        \mathbf u^*_\eta = \left(X^\top X + \tfrac{1-\eta}{\eta} I\right)^{-1} X^\top \mathbf y .

    As :math:`\eta \to 1` it tends to the (minimum-norm) least-squares :math:`\mathbf u`.
    """
    eta = check_param(eta, "eta", 0, 1, lo_open=True, hi_open=True)
    s, c, Vt, _ = _spectrum(X, y)
    lam = (1.0 - eta) / eta
    return Vt.T @ (s * c / (s**2 + lam))


def widrow_hoff_min(X, y, eta):
    r""":math:`\min_{\mathbf u}\left(\frac{L_{\mathbf u}}{1-\eta} + \frac{\|\mathbf u\|^2}{\eta}\right)`,
    the right-hand side of Theorem 1, for one :math:`\eta` (float) or an array of them.

    With the SVD :math:`X = U S V^\top`, :math:`\mathbf c = U^\top\mathbf y`,
    :math:`\lambda = (1-\eta)/\eta` and :math:`r_0 = \|\mathbf y - U\mathbf c\|^2`:
    :math:`L_{\mathbf u^*} = r_0 + \sum_i (\lambda c_i/(s_i^2+\lambda))^2`,
    :math:`\|\mathbf u^*\|^2 = \sum_i (s_i c_i/(s_i^2+\lambda))^2`.
    """
    etas = _np.asarray(eta, dtype=float)
    if not _np.all(_np.isfinite(etas)) or _np.any((etas <= 0) | (etas >= 1)):
        raise StreamError.bad("eta", f"{eta!r}", "learning rate(s) in (0, 1)")
    return _min_from_spectrum(_spectrum(X, y), etas)


def _min_from_spectrum(spec, etas):
    s, c, _, r0 = spec
    etas = _np.asarray(etas, dtype=float)
    lam = ((1.0 - etas) / etas)[..., None]
    den = s**2 + lam
    loss = r0 + _np.sum((lam * c / den) ** 2, axis=-1)
    norm = _np.sum((s * c / den) ** 2, axis=-1)
    out = loss / (1.0 - etas) + norm / etas
    return float(out) if out.ndim == 0 else out


def widrow_hoff_optimal_eta(X, y, tol: float = 1e-10) -> tuple[float, float]:
    r"""The :math:`\eta \in (0,1)` minimising :math:`B(\eta) = \min_{\mathbf u}\left(
    \frac{L_{\mathbf u}}{1-\eta} + \frac{\|\mathbf u\|^2}{\eta}\right)`, and :math:`B` there.

    :math:`(\mathbf u, \eta) \mapsto L_{\mathbf u}/(1-\eta) + \|\mathbf u\|^2/\eta` is jointly
    convex (perspectives of convex quadratics), so :math:`B` is convex in :math:`\eta` and a
    golden-section search finds its minimum.  The value equals
    :math:`\min_{\mathbf u} (\sqrt{L_{\mathbf u}} + \|\mathbf u\|)^2`.

    Returns
    -------
    (eta, bound) : tuple of float
    """
    spec = _spectrum(X, y)  # one SVD; every evaluation below is O(min(T, d))

    def B(e: float) -> float:
        return _min_from_spectrum(spec, e)

    lo, hi = 1e-9, 1.0 - 1e-9
    g = (math.sqrt(5.0) - 1.0) / 2.0
    a, b = lo + (1 - g) * (hi - lo), lo + g * (hi - lo)
    fa, fb = B(a), B(b)
    while hi - lo > tol:
        if fa <= fb:
            hi, b, fb = b, a, fa
            a = lo + (1 - g) * (hi - lo)
            fa = B(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = B(b)
    eta = 0.5 * (lo + hi)
    return eta, B(eta)


@_dataclass(frozen=True)
class WidrowHoffBound:
    """Theorem 1 evaluated on one stream: the bound, its minimising comparator, the assumption."""

    eta: float
    bound: float
    u: _np.ndarray
    loss_u: float
    norm_u_sq: float
    assumption: UnitBallReport


def widrow_hoff_theorem(X, y, eta: float) -> WidrowHoffBound:
    r"""Theorem 1's right-hand side on this stream, with the comparator attaining the minimum
    (:func:`widrow_hoff_comparator`) and the check of :math:`\|\mathbf x_t\| \le 1`."""
    A = _as_matrix(X, "X")
    v = _as_labels(y, A.shape[0], "y")
    u = widrow_hoff_comparator(A, v, eta)
    L = float(_np.sum((A @ u - v) ** 2))
    N = float(u @ u)
    return WidrowHoffBound(eta, widrow_hoff(L, N, eta), u, L, N, check_unit_ball(A))


def online_to_batch(risk_u: float, norm_u_sq: float, eta: float, m: int) -> float:
    r"""Theorem 2 for one comparator: :math:`\frac{R_{\mathbf u}}{1-\eta} + \frac{\|\mathbf u\|_2^2}{\eta m}`.

    **Theorem 2** (``seeds/004_d8e420cbfd1746de.txt``, Section 2).  Run Widrow-Hoff on an
    i.i.d. sample of size :math:`m` (with :math:`\|\mathbf x\| \le 1` almost surely and
    :math:`0<\eta<1`) and output :math:`\mathbf v = \frac1m\sum_{t=1}^m \mathbf w_t`; then

    .. math::

        \mathbb E_S[R_{\mathbf v}] \le \min_{\mathbf u}\left(\frac{R_{\mathbf u}}{1-\eta}
        + \frac{\|\mathbf u\|_2^2}{\eta m}\right),
        \qquad R_{\mathbf v} = \mathbb E_{(\mathbf x,y)\sim D}[(\mathbf v\cdot\mathbf x - y)^2].

    A bound on the *expected* risk over samples: one sample's :math:`R_{\mathbf v}` may
    exceed it.  See :mod:`olcore.online_to_batch` for the minimising :math:`\mathbf u`.

    Parameters
    ----------
    risk_u : float
        :math:`R_{\mathbf u} \ge 0`.
    norm_u_sq : float
    eta : float in (0, 1)
    m : int >= 1
        Sample size.
    """
    risk_u = check_param(risk_u, "risk_u", 0, None)
    norm_u_sq = check_param(norm_u_sq, "norm_u_sq", 0, None)
    eta = check_param(eta, "eta", 0, 1, lo_open=True, hi_open=True)
    m = check_int(m, "m", 1)
    return risk_u / (1.0 - eta) + norm_u_sq / (eta * m)


def widrow_hoff_prefix_min(X, y, eta: float, rounds) -> _np.ndarray:
    r"""Theorem 1's right-hand side on each prefix :math:`(\mathbf x_1,y_1),\dots,(\mathbf x_t,y_t)`.

    A prefix is a stream, so :math:`L_{WH}(t) \le \min_{\mathbf u}(L_{\mathbf u}(t)/(1-\eta)
    + \|\mathbf u\|^2/\eta)` for every :math:`t`: the bound as a curve over rounds.  With
    :math:`A_t = \sum_{s\le t}\mathbf x_s\mathbf x_s^\top`, :math:`\mathbf b_t = \sum_{s\le t} y_s\mathbf x_s`,
    :math:`c_t = \sum_{s\le t} y_s^2` and :math:`\lambda = (1-\eta)/\eta` the value is
    :math:`\left(c_t - \mathbf b_t^\top(A_t + \lambda I)^{-1}\mathbf b_t\right)/(1-\eta)`.

    Parameters
    ----------
    X : array (T, d)
    y : array (T,)
    eta : float in (0, 1)
    rounds : int array (K,)
        Prefix lengths :math:`t \in 1..T` (need not be sorted).

    Returns
    -------
    array (K,)
    """
    A = _as_matrix(X, "X")
    v = _as_labels(y, A.shape[0], "y")
    eta = check_param(eta, "eta", 0, 1, lo_open=True, hi_open=True)
    ts = _np.asarray(rounds, dtype=_np.intp).reshape(-1)
    if ts.size and (ts.min() < 1 or ts.max() > A.shape[0]):
        raise StreamError.bad("rounds", f"{ts.min()}..{ts.max()}", f"prefix lengths in 1..{A.shape[0]}")
    order = _np.argsort(ts, kind="stable")
    d = A.shape[1]
    lam = (1.0 - eta) / eta
    out = _np.empty(ts.size)
    G = _np.zeros((d, d))
    b = _np.zeros(d)
    c = 0.0
    done = 0
    for i in order:
        t = int(ts[i])
        if t > done:
            seg, ys = A[done:t], v[done:t]
            G += seg.T @ seg
            b += seg.T @ ys
            c += float(ys @ ys)
            done = t
        sol = _np.linalg.solve(G + lam * _np.eye(d), b)
        out[i] = max(c - float(b @ sol), 0.0) / (1.0 - eta)
    return out
