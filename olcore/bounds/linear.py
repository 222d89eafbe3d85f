r"""Bounds for linear classification: Perceptron, Winnow, OGD on the hinge loss, Passive-Aggressive.

Sources: UCL COMP0078, Online learning; CMU 16-831, Online linear classification;
Cesa-Bianchi, On-line learning (Passive-Aggressive).  Every
function takes a scalar or an array for each numeric argument (a scalar in gives a float,
an array of prefix values gives the curve over rounds); every entry is validated.
"""

from __future__ import annotations

import numpy as np

from ..errors import StreamError
from ..jit import f64, njit
from ..validate import as_labels, as_matrix, check_values
from ._broadcast import first_where, out, together

__all__ = [
    "perceptron", "perceptron_nonseparable", "perceptron_disjunction", "winnow", "winnow_general",
    "ogd_hinge", "ogd_hinge_eta", "ogd_hinge_regret", "ogd_hinge_loss_bound",
    "passive_aggressive_separable", "passive_aggressive_pa1", "passive_aggressive_pa2",
    "budget_forced_mistakes",
    "conjunction_elimination", "svm_opt", "SVM_TOL",
]


def perceptron(R, gamma):
    r"""Novikoff's bound :math:`M \le (R/\gamma)^2` on the Perceptron's mistakes.

    Assumptions: :math:`\|\mathbf{x}_t\| \le R` for all :math:`t`, and a unit vector
    :math:`\mathbf{v}` separates the stream with margin :math:`\gamma > 0`:
    :math:`y_t(\mathbf{v}\cdot\mathbf{x}_t) \ge \gamma`.  Holds for any number of passes.

    Parameters
    ----------
    R : float or array, R > 0
    gamma : float or array, 0 < gamma <= R

    References
    ----------
    UCL COMP0078, Online learning: Theorem "Perceptron Bound [Novikoff]"; CMU 16-831, Theorem 1.
    """
    R = check_values(R, "R", 0, None, lo_open=True)
    gamma = check_values(gamma, "gamma", 0, None, lo_open=True)
    together(R=R, gamma=gamma)
    over = np.asarray(gamma) > np.asarray(R) * (1 + 1e-12)
    if np.any(over):
        where, (g, r) = first_where(over, gamma, R)
        raise StreamError.bad("gamma", f"{g:g}{where}", f"a margin at most R = {r:g} (|v.x| <= ||x|| <= R)")
    return out((np.asarray(R) / gamma) ** 2)


def perceptron_nonseparable(loss_u, norm_u, R=1.0):
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
    :math:`(R/\gamma)^2`.  With ``loss_u`` the array of prefix hinge losses
    :math:`L_{\mathbf u}(t)` it is the bound after each round (a prefix is a stream).

    Parameters
    ----------
    loss_u : float or array, >= 0
        Total hinge loss of :math:`\mathbf{u}` on the stream (:func:`olcore.measure.hinge_loss`).
    norm_u : float or array, >= 0
        :math:`\|\mathbf{u}\|`.
    R : float or array, > 0, default=1.0

    References
    ----------
    Cesa-Bianchi, "The relative mistake bound" (Generalized Perceptron convergence theorem).
    """
    loss_u = check_values(loss_u, "loss_u", 0, None)
    norm_u = check_values(norm_u, "norm_u", 0, None)
    R = check_values(R, "R", 0, None, lo_open=True)
    together(loss_u=loss_u, norm_u=norm_u, R=R)
    a = np.asarray(R) * norm_u
    return out(loss_u + a * a + a * np.sqrt(loss_u))


def perceptron_disjunction(k, N):
    r"""The Perceptron's mistake bound on a monotone :math:`k`-disjunction of :math:`N` attributes: :math:`(4k+1)(N+1)`.

    Novikoff's bound in the form :math:`M \le \|\mathbf u\|^2 R^2` for a comparator with
    :math:`y_t\,\mathbf u\cdot\mathbf x_t \ge 1`.  The Perceptron sees the :math:`N` boolean
    attributes plus a constant bias attribute 1, and labels :math:`\pm 1`.  Take
    :math:`\mathbf u = (2, \dots, 2` on the :math:`k` relevant attributes, :math:`0` elsewhere,
    bias :math:`-1)`: a positive example has some relevant attribute on, so
    :math:`\mathbf u\cdot\mathbf x \ge 2 - 1 = 1`; a negative one has none, so
    :math:`\mathbf u\cdot\mathbf x = -1`.  Then :math:`\|\mathbf u\|^2 = 4k + 1` and
    :math:`\|\mathbf x_t\|^2 \le N + 1 = R^2`.  Linear in :math:`N`, against Winnow's
    :math:`O(k\log N)` (:func:`winnow`).

    References
    ----------
    CMU 16-831, section 4 (Winnow: learning when irrelevant attributes abound); Novikoff's theorem as in :func:`perceptron`.
    """
    N = check_values(N, "N", 1, None, integer=True)
    k = check_values(k, "k", 0, None, integer=True)
    together(k=k, N=N)
    _k_at_most_N(k, N)
    return out((4.0 * np.asarray(k) + 1.0) * (np.asarray(N) + 1.0))


def _k_at_most_N(k, N) -> None:
    over = np.asarray(k) > np.asarray(N)
    if np.any(over):
        where, (kv, Nv) = first_where(over, k, N)
        raise StreamError.bad("k", f"{kv:g}{where}", f"at most N = {Nv:g} relevant attributes")


def winnow(k, N):
    r"""Winnow's mistake bound :math:`m < 2 + 3k(\log_2 N + 1)`.

    Assumptions: labels given by a monotone disjunction of :math:`k` of the :math:`N`
    boolean attributes; Winnow with :math:`\alpha = 2` and threshold :math:`\theta = N`
    (the defaults of :func:`olcore.linear.winnow`).  The inequality is strict.  ``k`` and
    ``N`` may be arrays (a sweep over :math:`N`).

    References
    ----------
    CMU 16-831, section 4.4, equation (32).
    """
    N = check_values(N, "N", 1, None, integer=True)
    k = check_values(k, "k", 0, None, integer=True)
    together(k=k, N=N)
    _k_at_most_N(k, N)
    return out(2.0 + 3.0 * np.asarray(k) * (np.log2(N) + 1.0))


def winnow_general(k, N, alpha=2.0, theta=None):
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
    CMU 16-831, section 4.4 (generalised from :math:`\beta = 1`).
    """
    N = check_values(N, "N", 1, None, integer=True)
    k = check_values(k, "k", 0, None, integer=True)
    alpha = check_values(alpha, "alpha", 1, None, lo_open=True)
    theta = (np.asarray(N, dtype=float) if theta is None
             else check_values(theta, "theta", 0, None, lo_open=True))
    together(k=k, N=N, alpha=alpha, theta=theta)
    _k_at_most_N(k, N)
    m_plus = np.asarray(k) * np.maximum(0.0, np.log(theta) / np.log(alpha) + 1.0)
    return out(np.asarray(N) * alpha / ((alpha - 1.0) * theta) + (alpha + 1.0) * m_plus)


def ogd_hinge(U, R, m):
    r"""OGD's regret bound on the hinge loss with the tuned :math:`\eta = U/(R\sqrt m)`.

    .. math::

        \sum_{t=1}^m L_{hi}(y_t, \hat y_t) - L_{hi}(y_t, \mathbf{u}\cdot\mathbf{x}_t)
        \le \sqrt{U^2 R^2 m} \quad \text{for all } \|\mathbf{u}\| \le U,

    assuming :math:`\|\mathbf{x}_t\| \le R` and :func:`ogd_hinge_eta` as the step.

    References
    ----------
    UCL COMP0078, Online learning: "Regret Bound for OGD", equation (6).
    """
    U = check_values(U, "U", 0, None)
    R = check_values(R, "R", 0, None)
    m = check_values(m, "m", 0, None, integer=True)
    together(U=U, R=R, m=m)
    return out(np.sqrt(np.asarray(U) ** 2 * np.asarray(R) ** 2 * m))


def ogd_hinge_eta(U, R, m):
    r"""The step :math:`\eta = U/(R\sqrt m)` of OGD's regret theorem."""
    U = check_values(U, "U", 0, None, lo_open=True)
    R = check_values(R, "R", 0, None, lo_open=True)
    m = check_values(m, "m", 1, None, integer=True)
    together(U=U, R=R, m=m)
    return out(np.asarray(U) / (np.asarray(R) * np.sqrt(m)))


def ogd_hinge_regret(U, R, m, eta):
    r"""OGD's hinge-loss regret bound for any step: :math:`\frac{U^2}{2\eta} + \frac{\eta}{2} m R^2`.

    The last line but one of the notes' proof, before :math:`\eta` is tuned; it equals
    :func:`ogd_hinge` at :math:`\eta = U/(R\sqrt m)`.

    References
    ----------
    UCL COMP0078, Online learning: "Regret Bound for OGD - Proof (2)".
    """
    U = check_values(U, "U", 0, None)
    R = check_values(R, "R", 0, None)
    m = check_values(m, "m", 0, None, integer=True)
    eta = check_values(eta, "eta", 0, None, lo_open=True)
    together(U=U, R=R, m=m, eta=eta)
    return out(np.asarray(U) ** 2 / (2 * np.asarray(eta)) + np.asarray(eta) * m * np.asarray(R) ** 2 / 2)


def ogd_hinge_loss_bound(loss_u, norm_u, R, eta, t):
    r"""OGD's bound on its own total hinge loss (hence on its mistakes) against one comparator :math:`\mathbf u`.

    .. math::

        \sum_{s\le t} [1 - y_s\,\mathbf w_s\cdot\mathbf x_s]_+ \;\le\;
        L_{\mathbf u}(t) + \frac{\|\mathbf u\|^2}{2\eta} + \frac{\eta\, t R^2}{2},

    :func:`ogd_hinge_regret` with :math:`U = \|\mathbf u\|`, moved to the other side:
    :math:`L_{\mathbf u}(t)` is the hinge loss of :math:`\mathbf u` on the first :math:`t`
    rounds.  Each mistake (:math:`y_s\,\mathbf w_s\cdot\mathbf x_s \le 0`) costs a hinge loss of
    at least 1, so the right-hand side also bounds the number of mistakes.  Assumes
    :math:`\|\mathbf x_s\| \le R` and :math:`\mathbf w_1 = 0`, a fixed step :math:`\eta > 0`.
    Pass the arrays ``loss_u`` = :math:`L_{\mathbf u}(1..T)` and ``t`` = ``arange(1, T + 1)``
    for the curve.

    References
    ----------
    UCL COMP0078, Online learning: "Regret Bound for OGD - Proof (2)".
    """
    loss_u = check_values(loss_u, "loss_u", 0, None)
    norm_u = check_values(norm_u, "norm_u", 0, None)
    R = check_values(R, "R", 0, None)
    eta = check_values(eta, "eta", 0, None, lo_open=True)
    t = check_values(t, "t", 0, None, integer=True)
    together(loss_u=loss_u, norm_u=norm_u, R=R, eta=eta, t=t)
    return out(np.asarray(loss_u) + ogd_hinge_regret(norm_u, R, t, eta))


def passive_aggressive_separable(norm_u, R=1.0):
    r"""PA (Hildreth) on a separable stream: :math:`M \le \sum_t \ell_t(\mathbf{w}_{t-1})^2 \le \|\mathbf{u}\|^2 R^2`.

    Assumption: :math:`y_t\,\mathbf{u}\cdot\mathbf{x}_t \ge 1` for all :math:`t` (zero hinge
    loss) and :math:`\|\mathbf{x}_t\| \le R`.

    References
    ----------
    Passive-Aggressive, "Analysis for linearly separable streams".
    """
    norm_u = check_values(norm_u, "norm_u", 0, None)
    R = check_values(R, "R", 0, None)
    together(norm_u=norm_u, R=R)
    return out(np.asarray(norm_u) ** 2 * np.asarray(R) ** 2)


def passive_aggressive_pa1(norm_u, loss_u, C, R=1.0):
    r"""PA-I's mistake bound :math:`M \le \max\{R^2, 1/C\}\,(\|\mathbf{u}\|^2 + 2C L_{\mathbf{u}})`.

    For every :math:`\mathbf{u}`, with :math:`L_{\mathbf{u}} = \sum_t \ell_t(\mathbf{u})`
    its hinge loss and :math:`\|\mathbf{x}_t\| \le R`.  The notes prove it for
    :math:`\|\mathbf{x}_t\| = 1` (:math:`\max\{1/C, 1\}`); the paper's Theorem 4 has
    :math:`\max\{R^2, 1/C\}`.  ``loss_u`` may be the array of prefix losses (the curve).

    References
    ----------
    Passive-Aggressive, "Mistake bounds for PA-I" [Crammer et al., 2006].
    """
    norm_u = check_values(norm_u, "norm_u", 0, None)
    loss_u = check_values(loss_u, "loss_u", 0, None)
    C = check_values(C, "C", 0, None, lo_open=True)
    R = check_values(R, "R", 0, None)
    together(norm_u=norm_u, loss_u=loss_u, C=C, R=R)
    return out(np.maximum(np.asarray(R) ** 2, 1.0 / np.asarray(C))
               * (np.asarray(norm_u) ** 2 + 2.0 * np.asarray(C) * loss_u))


def passive_aggressive_pa2(norm_u, sq_loss_u, C, R=1.0):
    r"""PA-II: :math:`M \le \sum_t \ell_t^2 \le (R^2 + \tfrac{1}{2C})(\|\mathbf{u}\|^2 + 2C\sum_t \ell_t(\mathbf{u})^2)`.

    For every :math:`\mathbf{u}` with :math:`\|\mathbf{x}_t\| \le R`; ``sq_loss_u`` is
    :func:`olcore.measure.squared_hinge_loss` (or the array of its prefix values).  From the
    paper (Theorem 5), with its :math:`1/(2C)`.

    References
    ----------
    Crammer et al., "Online Passive-Aggressive Algorithms", JMLR 7 (2006), Theorem 5;
    the algorithm in Cesa-Bianchi, On-line learning.
    """
    norm_u = check_values(norm_u, "norm_u", 0, None)
    sq_loss_u = check_values(sq_loss_u, "sq_loss_u", 0, None)
    C = check_values(C, "C", 0, None, lo_open=True)
    R = check_values(R, "R", 0, None)
    together(norm_u=norm_u, sq_loss_u=sq_loss_u, C=C, R=R)
    return out((np.asarray(R) ** 2 + 1.0 / (2.0 * np.asarray(C)))
               * (np.asarray(norm_u) ** 2 + 2.0 * np.asarray(C) * sq_loss_u))


def budget_forced_mistakes(B, t):
    r"""The Fact's lower bound: on :func:`olcore.streams.adversary_budget` a learner with at most B supports
    that changes its cache only on mistakes errs at least :math:`\lfloor t/(B+1)\rfloor` times in t rounds.

    Assumptions: the learner's hypothesis is spanned by at most B supports taken from the stream, it
    changes its cache only on mistakes (as the budget Perceptrons do), and a score of 0, on an
    instance orthogonal to every support, counts as a mistake; nothing else about its rule (which
    support it evicts, how it weighs them).  A lower bound: the curve the mistakes stay **above**.

    Parameters
    ----------
    B : int or array, B >= 1
    t : int or array, t >= 0

    >>> budget_forced_mistakes(4, 12)
    2.0

    References
    ----------
    Cesa-Bianchi, On-line learning: Memory bounded learning, Fact.
    """
    B = check_values(B, "B", 1, None)
    t = check_values(t, "t", 0, None)
    together(B=B, t=t)
    return out(np.floor(np.asarray(t, dtype=float) / (np.asarray(B, dtype=float) + 1)))


def conjunction_elimination(n):
    r"""The elimination algorithm's mistake bound :math:`M \le n + 1` on conjunctions over :math:`\{0,1\}^n`.

    Assumption: the labels are a conjunction of literals (:math:`x_i` or :math:`\bar x_i`) of
    the :math:`n` attributes.  Every mistake is on a positive example; the first drops
    :math:`n` of the :math:`2n` literals and each later one at least one more
    (:func:`olcore.linear.conjunction_elimination`).  ``n`` may be an array.

    References
    ----------
    UCL COMP0078, Online learning, Problems 1.1 (which asks for :math:`O(n^2)`).
    """
    n = check_values(n, "n", 1, None, integer=True)
    return out(np.asarray(n) + 1.0)


#: Relative duality gap at which :func:`svm_opt` stops (its value is within this of the optimum).
SVM_TOL = 1e-6


def svm_opt(X, y, C, rounds=None, tol: float = SVM_TOL, max_epochs: int = 5_000, certificate: bool = False):
    r"""The soft-margin SVM optimum without intercept, :math:`\min_{\mathbf u}\tfrac12\|\mathbf u\|^2 + C\sum_t[1 - y_t\mathbf u\cdot\mathbf x_t]_+`.

    .. math::

        \text{SVM}_{OPT} = \min_{\mathbf u}\; \tfrac12\|\mathbf u\|^2 + C\sum_{t=1}^T \ell_t(\mathbf u)
        = \max_{0 \le \alpha_t \le C}\; \sum_t \alpha_t - \tfrac12\Big\|\sum_t \alpha_t y_t \mathbf x_t\Big\|^2 .

    PA-I's dual increments sum to at most this (Cesa-Bianchi, On-line learning: PA-I as dual
    ascent); the same objective as scikit-learn's ``LinearSVC(loss="hinge", fit_intercept=False)``
    (whose ``C`` is this ``C``).  Solved by dual coordinate ascent (Hsieh et al., A dual
    coordinate descent method for large-scale linear SVM, 2008), stopping when the duality gap
    is at most ``tol`` times :math:`\max(1, \text{primal})` or after ``max_epochs`` passes.  The
    value returned is the primal objective at the final :math:`\mathbf u`: **never below the
    optimum**, and above it by at most the gap (``certificate=True`` also returns the dual value,
    a lower bound on the optimum).  On streams with many margin violations and a large ``C`` the
    ascent is slow and the gap may stay above ``tol``.

    Parameters
    ----------
    X : array (T, d)
    y : array (T,) in {-1, +1}
    C : float or array, > 0
        An array gives one optimum per value (same shape).
    rounds : int or array of ints in 0..T, default=None
        Prefix lengths: the optimum of the first ``t`` rounds for each ``t`` (a curve over
        rounds; scalar ``C`` only).  ``None``: the whole stream.
    tol : float, default=1e-6
    max_epochs : int, default=5000
    certificate : bool, default=False
        Return ``(primal, dual)``, with :math:`\text{dual} \le \text{SVM}_{OPT} \le \text{primal}`.

    >>> svm_opt([[1.0], [-1.0]], [1, -1], C=1.0)      # u = 1: 1/2 + 0
    0.5
    >>> svm_opt([[1.0]], [1], C=0.25)                 # u = C ||x||: 1/32 + 0.25 * 0.75
    0.21875
    """
    X = as_matrix(X, "X")
    T = X.shape[0]
    y = as_labels(y, T, "y", (-1, 1))
    C = check_values(C, "C", 0, None, lo_open=True)
    Xc, yc = f64(X), f64(y)
    if rounds is None:
        Cs = np.atleast_1d(C).ravel()
        pd = np.array([_svm_solve(Xc, yc, float(c), np.zeros(T), tol, max_epochs)[:2] for c in Cs])
        shape = np.shape(C)
    else:
        if np.ndim(C):
            raise StreamError.bad("C", "an array together with rounds", "one C for a curve over rounds")
        rounds = check_values(rounds, "rounds", 0, T, integer=True)
        ts = np.atleast_1d(rounds).astype(int)
        pd = np.empty((ts.size, 2))
        alpha = np.zeros(T)
        for j in np.argsort(ts, kind="stable"):          # increasing prefixes, warm-started
            t = int(ts[j])
            p, d, alpha_t = _svm_solve(np.ascontiguousarray(Xc[:t]), np.ascontiguousarray(yc[:t]), float(C),
                                       alpha[:t].copy(), tol, max_epochs)
            pd[j] = p, d
            alpha[:t] = alpha_t
        shape = np.shape(rounds)
    primal, dual = out(pd[:, 0].reshape(shape)), out(pd[:, 1].reshape(shape))
    return (primal, dual) if certificate else primal


def _svm_solve(X, y, C, alpha0, tol, max_epochs):
    """(primal, dual, alpha) of one problem."""
    if X.shape[0] == 0:
        return 0.0, 0.0, alpha0
    orders = np.stack([np.random.default_rng(k).permutation(X.shape[0]) for k in range(_ORDERS)])
    primal, dual, alpha, _ = _svm_dcd(X, y, C, alpha0, tol, max_epochs, orders)
    return float(primal), float(dual), alpha


#: Fixed orders the coordinate ascent cycles through (a random order per pass converges much faster
#: than the cyclic one; these are seeded, so the value is reproducible).
_ORDERS = 8


@njit
def _svm_dcd(X, y, C, alpha, tol, max_epochs, orders):
    r"""Dual coordinate ascent on :math:`\max_{0\le\alpha\le C}\sum\alpha - \frac12\|\sum\alpha_t y_t x_t\|^2`.

    Pass ``e`` visits the coordinates in the order ``orders[e % len(orders)]``.  Returns (primal,
    dual, alpha, converged); ``alpha`` is updated in place (a warm start)."""
    T, d = X.shape
    w = np.zeros(d)
    q = np.empty(T)
    for t in range(T):
        s = 0.0
        for i in range(d):
            w[i] += alpha[t] * y[t] * X[t, i]
            s += X[t, i] * X[t, i]
        q[t] = s
    primal = 0.0
    dual = 0.0
    for epoch in range(max_epochs):
        order = orders[epoch % orders.shape[0]]
        for j in range(T):
            t = order[j]
            g = 0.0
            for i in range(d):
                g += w[i] * X[t, i]
            g = y[t] * g - 1.0                         # gradient of the dual objective (negated)
            if q[t] > 0.0:
                a = min(max(alpha[t] - g / q[t], 0.0), C)
            else:
                a = C                                  # x_t = 0: alpha_t's term is alpha_t, maximised at C
            delta = a - alpha[t]
            if delta != 0.0:
                alpha[t] = a
                for i in range(d):
                    w[i] += delta * y[t] * X[t, i]
        if epoch % 5 == 4 or epoch == max_epochs - 1:
            for i in range(d):                         # w = sum alpha_t y_t x_t afresh (no drift)
                w[i] = 0.0
            for t in range(T):
                for i in range(d):
                    w[i] += alpha[t] * y[t] * X[t, i]
            nw = 0.0
            for i in range(d):
                nw += w[i] * w[i]
            hinge = 0.0
            sa = 0.0
            for t in range(T):
                s = 0.0
                for i in range(d):
                    s += w[i] * X[t, i]
                hinge += max(0.0, 1.0 - y[t] * s)
                sa += alpha[t]
            primal = 0.5 * nw + C * hinge
            dual = sa - 0.5 * nw
            if primal - dual <= tol * max(1.0, primal):
                return primal, dual, alpha, True
    return primal, dual, alpha, False
