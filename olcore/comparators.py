r"""Comparator searches: the best :math:`\mathbf u` (or direction, or rate) for a bound on a given stream.

A bound holds for *every* comparator :math:`\mathbf u`; these functions search the stream for
the one that makes it smallest (or, for Novikoff's bound, the direction with the largest
margin), then evaluate the formula of :mod:`olcore.bounds`.  They are re-exported by
:mod:`olcore.bounds` (``bounds.best_u_nonseparable`` etc.), where they used to live.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .bounds.linear import perceptron_nonseparable
from .bounds.regression import widrow_hoff
from .errors import StreamError
from .jit import kernel, njit
from .measure import UnitBallReport, check_unit_ball, hinge_loss, radius, xy
from .validate import as_labels, as_matrix, check_binary, check_int, check_param

__all__ = [
    "best_u_nonseparable", "max_margin_direction", "consistent_disjunction",
    "widrow_hoff_clairvoyant", "widrow_hoff_comparator", "widrow_hoff_min", "widrow_hoff_optimal_eta",
    "widrow_hoff_theorem", "WidrowHoffBound", "widrow_hoff_prefix_min", "separability", "Separability",
]


# ---- linear classification ----------------------------------------------------------------

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
    X, y = xy(X, y)
    T, d = X.shape
    R = radius(X)
    cands = []
    if directions is not None:
        D = np.atleast_2d(np.asarray(directions, dtype=float))
        if D.shape[1] != d:
            raise StreamError.bad("directions", f"shape {D.shape}", f"(m, {d})")
        n = np.linalg.norm(D, axis=1)
        cands.append(D[n > 0] / n[n > 0, None])
    if d == 2:
        a = np.linspace(0, 2 * np.pi, n_angles, endpoint=False)
        cands.append(np.column_stack([np.cos(a), np.sin(a)]))
    if not cands or sum(c.shape[0] for c in cands) == 0:
        raise StreamError.bad("directions", "none", "candidate directions for u (required when d != 2)")
    D = np.vstack(cands)
    Z = np.sort((X @ D.T) * y[:, None], axis=0)          # (T, m) margins, ascending
    csum = np.vstack([np.zeros(D.shape[0]), np.cumsum(Z, axis=0)])
    scales = np.geomspace(1e-3, 1e4, n_scales) / max(R, 1e-300)
    best = (math.inf, None, 0.0, 0.0)
    for j in range(D.shape[0]):
        z = Z[:, j]
        s = scales if z[0] <= 0 else np.append(scales, 1.0 / z[0])
        cnt = np.searchsorted(z, 1.0 / s, side="left")   # rounds with s z_t < 1
        L = np.maximum(cnt - s * csum[cnt, j], 0.0)
        a = R * s
        B = L + a * a + a * np.sqrt(L)
        i = int(np.argmin(B))
        if B[i] < best[0]:
            best = (float(B[i]), s[i] * D[j], float(L[i]), float(s[i]))
    bound, u, _, norm_u = best
    loss_u = hinge_loss(X, y, u)   # exact, not the cumsum value
    return {"bound": perceptron_nonseparable(loss_u, norm_u, R), "u": u, "loss_u": loss_u,
            "norm_u": norm_u, "R": R}


def max_margin_direction(X, y, tol: float = 1e-9, max_iter: int = 200_000):
    r"""The unit separator through the origin with the largest margin, and that margin.

    .. math::

        \gamma^* = \max_{\|\mathbf v\| = 1} \min_t y_t\,\mathbf v\cdot\mathbf x_t
        = \min_{\mathbf p \in \Delta_T} \Big\|\sum_t p_t\, y_t \mathbf x_t\Big\|
        \quad (\text{when positive}),

    the hard-margin SVM without intercept.  By minimax duality the best direction is the
    point of the convex hull of :math:`\mathbf z_t = y_t\mathbf x_t` nearest the origin,
    normalised: :math:`\mathbf v^* = \mathbf w^*/\|\mathbf w^*\|`, :math:`\gamma^* = \|\mathbf w^*\|`.
    The nearest point is found by pairwise Frank-Wolfe (the Mitchell-Demyanov-Malozemov
    algorithm): move weight from the hull point with the largest :math:`\mathbf z_t\cdot\mathbf w`
    in use to the one with the smallest, with an exact line search.  Every iterate certifies
    :math:`\min_t \mathbf z_t\cdot\mathbf w/\|\mathbf w\| \le \gamma^* \le \|\mathbf w\|`; it stops
    when the two differ by at most ``tol`` times :math:`R = \max_t\|\mathbf x_t\|`.

    This is the :math:`\gamma` of Novikoff's bound (:func:`olcore.bounds.perceptron`) for a
    stream whose separator is not known: the bound holds for every unit separator, so the
    best one gives the smallest bound; the Perceptron's own final direction usually has a
    smaller margin.

    Parameters
    ----------
    X : array (T, d)
    y : array (T,) in {-1, +1}
    tol : float, default=1e-9
        Relative accuracy of :math:`\gamma` (in units of :math:`R`).
    max_iter : int, default=200000

    Returns
    -------
    (v, gamma) : (array (d,), float)
        ``v`` a unit vector and ``gamma`` its margin :math:`\min_t y_t\,\mathbf v\cdot\mathbf x_t`
        (exactly measured, so ``v`` separates with margin ``gamma`` whenever ``gamma > 0``).
        ``gamma <= 0`` means not separable through the origin (no direction has a margin
        above ``tol * R``); ``v`` is then the direction with the largest margin among those
        the search tried, not the best overall (without a separator that problem is not
        convex).  If ``max_iter`` runs out first, the best direction found is returned (its
        ``gamma`` is still its exact margin, so a valid, slightly smaller, Novikoff margin).

    References
    ----------
    UCL COMP0078, Online learning: Perceptron Bound [Novikoff];
    Mitchell, Dem'yanov and Malozemov, "Finding the point of a polyhedron closest to the
    origin", SIAM J. Control 12 (1974); Lacoste-Julien and Jaggi, "On the global linear
    convergence of Frank-Wolfe optimization variants", NeurIPS 2015.
    """
    X = as_matrix(X, "X")
    yv = as_labels(y, X.shape[0], "y", (-1, 1))
    tol = check_param(tol, "tol", 0, None, lo_open=True)
    max_iter = check_int(max_iter, "max_iter", 1, None)
    Z = yv[:, None] * X
    T, d = Z.shape
    R = radius(X)
    if R == 0:
        v = np.zeros(d)
        v[0] = 1.0
        return v, 0.0
    eps = tol * R
    sq = np.einsum("td,td->t", Z, Z)
    p = np.zeros(T)
    j = int(np.argmin(sq))
    p[j] = 1.0
    w = Z[j].copy()
    best_v, best_g = None, -math.inf
    # (each step as numpy computes it, with fewer calls around the arithmetic: up to 3000 steps a call on
    # /online_svm, where the calls cost more than the sums; tests/test_comparators.py checks the steps
    # against the plain writing of the algorithm bit for bit)
    used = p > 0                           # the points in use (p_t > 0), kept up to date below
    for _ in range(max_iter):
        nw = math.sqrt(w @ w)              # = float(np.sqrt(w @ w)): one correctly rounded square root
        if nw <= eps:                      # the origin is (nearly) in the hull: no positive margin
            break
        g = Z @ w
        s, a = _pair(g, used)              # np.argmin(g); the largest g_t in use, the first of equals
        gs = float(g[s])                   # (Python floats from here: the same IEEE operations, fewer calls)
        m = gs / nw
        if m > best_g:
            best_g, best_v = m, w / nw
        if nw - m <= eps:                  # certified: gamma* in [g_s/|w|, |w|]
            break
        if a < 0:                          # nothing in use (p sums to 1: never): numpy's error, as written
            act = np.flatnonzero(used)
            a = act[np.argmax(g[act])]
        dvec = Z[s] - Z[a]
        dd = float(dvec @ dvec)
        if dd == 0.0:
            break
        pa = float(p[a])
        step = min(max((float(g[a]) - gs) / dd, 0.0), pa)
        if step == 0.0:
            break
        p[s] += step
        p[a] = pa = pa - step
        if pa < 1e-15:
            p[a] = pa = 0.0
        used[s] = p[s] > 0
        used[a] = pa > 0
        w += step * dvec
    if best_v is None:
        nw = float(np.sqrt(w @ w))
        if nw > 0:
            best_v = w / nw
        else:
            best_v = np.zeros(d)
            best_v[0] = 1.0
    v = best_v / np.linalg.norm(best_v)
    return v, float((Z @ v).min())


@njit
def _pair(g, used):
    """``(np.argmin(g), t)`` with ``t`` the index among ``used`` that ``np.argmax(g[used])`` picks (-1 if none is
    used): the first of equal values, the first NaN if there is one, as numpy's argmin and argmax.  Only
    comparisons: the indices are numpy's exactly."""
    s = 0
    low = g[0]
    if not np.isnan(low):
        for i in range(1, g.shape[0]):
            x = g[i]
            if x < low:
                s, low = i, x
            elif np.isnan(x):
                s = i
                break
    a = -1
    high = 0.0
    for i in range(g.shape[0]):
        if used[i]:
            x = g[i]
            if np.isnan(x):
                a = i
                break
            if a < 0 or x > high:
                a, high = i, x
    return s, a


@kernel("max_margin_direction")
def _warm_pair():
    _pair(np.array([0.5, -1.0, 2.0]), np.array([True, False, True]))


def consistent_disjunction(X, y):
    r"""Sorted attribute indices of a monotone disjunction that labels every row, or ``None`` if none does.

    A disjunction :math:`y = \bigvee_{i\in S} x_i` is consistent iff no attribute of
    :math:`S` is 1 in a negative row and every positive row has an attribute of :math:`S` on.
    So only the attributes never 1 in a negative row are allowed; their union labels the
    stream iff any disjunction does.  A greedy cover of the positive rows by allowed
    attributes then gives a small consistent :math:`S` (finding the smallest is set cover);
    :math:`k = |S|` makes Winnow's theorem (:func:`olcore.bounds.winnow`) apply.

    Parameters
    ----------
    X : array (T, N) in {0, 1}
    y : array (T,) in {0, 1}

    Returns
    -------
    int array (k,), sorted, or None
        ``None`` when no monotone disjunction labels the stream; an empty array when every
        label is 0 (the empty disjunction).

    References
    ----------
    CMU 16-831, section 4 (Winnow and monotone disjunctions).
    """
    A = check_binary(as_matrix(X, "X"), "X")
    v = as_labels(y, A.shape[0], "y", (0, 1))
    Xb = A.astype(bool)
    pos = v == 1
    allowed = np.flatnonzero(~Xb[~pos].any(axis=0))
    P = Xb[pos][:, allowed]
    if not P.any(axis=1).all():
        return None
    chosen, uncovered = [], np.ones(len(P), dtype=bool)
    while uncovered.any():
        j = int(P[uncovered].sum(axis=0).argmax())
        chosen.append(int(allowed[j]))
        uncovered &= ~P[:, j]
    return np.array(sorted(chosen), dtype=int)


# ---- regression (Widrow-Hoff, Theorem 1) ----------------------------------------------------

def widrow_hoff_clairvoyant(X, y) -> np.ndarray:
    r"""The clairvoyant comparator :math:`\arg\min_{\mathbf u} L_{\mathbf u}` (least squares).

    The minimum-norm least-squares solution (``numpy.linalg.lstsq``); its loss is the
    smallest achievable :math:`\min_{\mathbf u} L_{\mathbf u}` of the notes.
    """
    A = as_matrix(X, "X")
    v = as_labels(y, A.shape[0], "y")
    return np.linalg.lstsq(A, v, rcond=None)[0]


def _spectrum(X, y):
    """Singular values s, c = U^T y, V^T and the residual outside X's column space.

    Computed from the eigendecomposition of the smaller Gram matrix (X^T X or X X^T):
    several times faster than an SVD for wide or tall X; directions with
    s^2 <= 1e-12 * s_max^2 are treated as exact zeros (they then add c_i^2 to r0 instead,
    which is the same contribution to L_u up to that tolerance).
    """
    A = as_matrix(X, "X")
    v = as_labels(y, A.shape[0], "y")
    T, d = A.shape
    if d <= T:
        lam, V = np.linalg.eigh(A.T @ A)
        keep = lam > 1e-12 * max(float(lam.max()), 1e-300)
        s = np.sqrt(lam[keep])
        Vt = V[:, keep].T
        c = (Vt @ (A.T @ v)) / s
    else:
        lam, U = np.linalg.eigh(A @ A.T)
        keep = lam > 1e-12 * max(float(lam.max()), 1e-300)
        s = np.sqrt(lam[keep])
        U = U[:, keep]
        c = U.T @ v
        Vt = (U.T @ A) / s[:, None]
    r0 = max(float(v @ v) - float(c @ c), 0.0)
    return s, c, Vt, r0


def widrow_hoff_spectrum(X, y) -> tuple:
    r"""What every Theorem 1 quantity of a stream is computed from: the singular values :math:`s` of
    :math:`X`, :math:`\mathbf c = U^\top\mathbf y`, :math:`V^\top` and the residual of :math:`\mathbf y` outside
    :math:`X`'s column space.  Pass it as ``spectrum=`` to :func:`widrow_hoff_comparator`,
    :func:`widrow_hoff_min`, :func:`widrow_hoff_optimal_eta` and :func:`widrow_hoff_theorem` with the
    same ``X`` and ``y``, to compute it once for several of them (the same numbers: they compute
    exactly this when it is not given)."""
    return _spectrum(X, y)


def widrow_hoff_comparator(X, y, eta: float, *, spectrum=None) -> np.ndarray:
    r"""The :math:`\mathbf u` minimising Theorem 1's right-hand side for this stream and :math:`\eta`.

    :math:`\frac{\|X\mathbf u - \mathbf y\|^2}{1-\eta} + \frac{\|\mathbf u\|^2}{\eta}` is a
    ridge problem with :math:`\lambda = (1-\eta)/\eta`:

    .. math::

        \mathbf u^*_\eta = \left(X^\top X + \tfrac{1-\eta}{\eta} I\right)^{-1} X^\top \mathbf y .

    As :math:`\eta \to 1` it tends to the (minimum-norm) least-squares :math:`\mathbf u`.
    """
    eta = check_param(eta, "eta", 0, 1, lo_open=True, hi_open=True)
    s, c, Vt, _ = _spectrum(X, y) if spectrum is None else spectrum
    lam = (1.0 - eta) / eta
    return Vt.T @ (s * c / (s**2 + lam))


def widrow_hoff_min(X, y, eta, *, spectrum=None):
    r""":math:`\min_{\mathbf u}\left(\frac{L_{\mathbf u}}{1-\eta} + \frac{\|\mathbf u\|^2}{\eta}\right)`,
    the right-hand side of Theorem 1, for one :math:`\eta` (float) or an array of them.

    With the SVD :math:`X = U S V^\top`, :math:`\mathbf c = U^\top\mathbf y`,
    :math:`\lambda = (1-\eta)/\eta` and :math:`r_0 = \|\mathbf y - U\mathbf c\|^2`:
    :math:`L_{\mathbf u^*} = r_0 + \sum_i (\lambda c_i/(s_i^2+\lambda))^2`,
    :math:`\|\mathbf u^*\|^2 = \sum_i (s_i c_i/(s_i^2+\lambda))^2`.
    """
    etas = np.asarray(eta, dtype=float)
    if not np.all(np.isfinite(etas)) or np.any((etas <= 0) | (etas >= 1)):
        raise StreamError.bad("eta", f"{eta!r}", "learning rate(s) in (0, 1)")
    return _min_from_spectrum(_spectrum(X, y) if spectrum is None else spectrum, etas)


def _min_from_spectrum(spec, etas):
    s, c, _, r0 = spec
    etas = np.asarray(etas, dtype=float)
    lam = ((1.0 - etas) / etas)[..., None]
    den = s**2 + lam
    loss = r0 + np.sum((lam * c / den) ** 2, axis=-1)
    norm = np.sum((s * c / den) ** 2, axis=-1)
    out = loss / (1.0 - etas) + norm / etas
    return float(out) if out.ndim == 0 else out


def widrow_hoff_optimal_eta(X, y, tol: float = 1e-10, *, spectrum=None) -> tuple[float, float]:
    r"""The :math:`\eta \in (0,1)` minimising :math:`B(\eta) = \min_{\mathbf u}\left(
    \frac{L_{\mathbf u}}{1-\eta} + \frac{\|\mathbf u\|^2}{\eta}\right)`, and :math:`B` there.

    :math:`(\mathbf u, \eta) \mapsto L_{\mathbf u}/(1-\eta) + \|\mathbf u\|^2/\eta` is jointly
    convex (perspectives of convex quadratics), so :math:`B` is convex in :math:`\eta` and a
    golden-section search finds its minimum.  The value equals
    :math:`\min_{\mathbf u} (\sqrt{L_{\mathbf u}} + \|\mathbf u\|)^2`.

    Not :func:`olcore.bounds.widrow_hoff_best_eta`: that one is a formula for one fixed
    comparator :math:`\mathbf u`; this one searches the stream, re-optimising :math:`\mathbf u` for
    every :math:`\eta`.

    Returns
    -------
    (eta, bound) : tuple of float
    """
    spec = _spectrum(X, y) if spectrum is None else spectrum  # one SVD; every evaluation below is O(min(T, d))

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


@dataclass(frozen=True)
class WidrowHoffBound:
    """Theorem 1 evaluated on one stream: the bound, its minimising comparator, the assumption."""

    eta: float
    bound: float
    u: np.ndarray
    loss_u: float
    norm_u_sq: float
    assumption: UnitBallReport


def widrow_hoff_theorem(X, y, eta: float, *, spectrum=None) -> WidrowHoffBound:
    r"""Theorem 1's right-hand side on this stream, with the comparator attaining the minimum
    (:func:`widrow_hoff_comparator`) and the check of :math:`\|\mathbf x_t\| \le 1`."""
    A = as_matrix(X, "X")
    v = as_labels(y, A.shape[0], "y")
    u = widrow_hoff_comparator(A, v, eta, spectrum=spectrum)
    L = float(np.sum((A @ u - v) ** 2))
    N = float(u @ u)
    return WidrowHoffBound(eta, widrow_hoff(L, N, eta), u, L, N, check_unit_ball(A))


def widrow_hoff_prefix_min(X, y, eta: float, rounds) -> np.ndarray:
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
    A = as_matrix(X, "X")
    v = as_labels(y, A.shape[0], "y")
    eta = check_param(eta, "eta", 0, 1, lo_open=True, hi_open=True)
    ts = np.asarray(rounds, dtype=np.intp).reshape(-1)
    if ts.size and (ts.min() < 1 or ts.max() > A.shape[0]):
        raise StreamError.bad("rounds", f"{ts.min()}..{ts.max()}", f"prefix lengths in 1..{A.shape[0]}")
    order = np.argsort(ts, kind="stable")
    d = A.shape[1]
    lam = (1.0 - eta) / eta
    Gs = np.empty((ts.size, d, d))                  # A_t + lambda I, b_t and c_t of each prefix asked for
    bs = np.empty((ts.size, d))
    cs = np.empty(ts.size)
    G = np.zeros((d, d))
    b = np.zeros(d)
    c = 0.0
    done = 0
    eye = lam * np.eye(d)
    for i in order:
        t = int(ts[i])
        if t > done:
            seg, ys = A[done:t], v[done:t]
            G += seg.T @ seg
            b += seg.T @ ys
            c += float(ys @ ys)
            done = t
        np.add(G, eye, out=Gs[i])
        bs[i], cs[i] = b, c
    sol = np.linalg.solve(Gs, bs[:, :, None])[:, :, 0]          # one call: LAPACK per prefix
    fit = np.array([bk @ sk for bk, sk in zip(bs, sol)], dtype=float)   # b_t . (A_t + lambda I)^{-1} b_t
    return np.maximum(cs - fit, 0.0) / (1.0 - eta)


# ---- separability through the origin, with a certificate --------------------------------------

#: Effort of the certificate search: interior-point steps, and the largest T·r² (flops of one step) it takes on.
_IPM_STEPS, _IPM_BUDGET = 80, 4e8


@dataclass(frozen=True, eq=False)
class Separability:
    r"""Whether a hyperplane through the origin separates a labelled stream, and the certificate.

    With :math:`\mathbf z_t = y_t\mathbf x_t`, exactly one of two things is true (Gordan's
    alternative): some :math:`\mathbf v` has :math:`\mathbf z_t\cdot\mathbf v > 0` for every
    :math:`t`, or the origin lies in the convex hull of the :math:`\mathbf z_t`.  A certificate of
    the first is a separator; of the second, weights :math:`\lambda_t \ge 0`, :math:`\sum_t\lambda_t = 1`
    with :math:`\sum_t\lambda_t\mathbf z_t = \mathbf 0`: then every unit :math:`\mathbf v` has
    :math:`\min_t \mathbf z_t\cdot\mathbf v \le \sum_t \lambda_t\mathbf z_t\cdot\mathbf v = 0`.  In floating
    point the sum is :math:`\varepsilon`-small, not 0, and the certificate says: every unit
    :math:`\mathbf v` has :math:`\min_t \mathbf z_t\cdot\mathbf v \le \|\sum_t\lambda_t\mathbf z_t\| \le \varepsilon`.

    Attributes
    ----------
    verdict : str
        ``"separable"`` (``v`` separates: its measured margin ``gamma`` exceeds the rounding
        allowance ``rounding``), ``"not separable"`` (``weights`` certify that no unit direction has a
        margin above ``epsilon``, and ``epsilon <= farkas_tol * R``) or ``"undecided"`` (neither was
        found: the margin, if any, is too thin for the search, or the search was cut short).
    v : array (d,)
        A unit vector: the separator, or the direction with the largest margin found.
    gamma : float
        :math:`\min_t y_t\,\mathbf v\cdot\mathbf x_t`, measured.
    max_margin : bool
        ``v`` is the max-margin direction to within ``tol * R`` (certified by the Frank-Wolfe search
        of :func:`max_margin_direction`); otherwise a separator found by the interior-point search
        on the whitened points, whose margin may be smaller than the largest.
    weights : array (T,) or None
        The weights :math:`\lambda` with the smallest :math:`\|\sum_t\lambda_t\mathbf z_t\|` found.
    epsilon : float
        Every unit :math:`\mathbf v` has :math:`\min_t y_t\,\mathbf v\cdot\mathbf x_t \le` ``epsilon``
        (``math.inf`` without weights): :math:`\|\sum_t\lambda_t\mathbf z_t\|` plus a rounding allowance.
    rounding : float
        A computed margin at most this could be rounding: :math:`2(d+1)\,2^{-52}R`.
    R : float
    steps : int
        Interior-point steps taken (0 when the Frank-Wolfe search settled it).
    effort : str
        What was tried, in words (for "no separating direction was found after ...").
    """

    verdict: str
    v: np.ndarray
    gamma: float
    max_margin: bool
    weights: np.ndarray | None
    epsilon: float
    rounding: float
    R: float
    steps: int
    effort: str

    @property
    def separable(self) -> bool:
        return self.verdict == "separable"


def _whitened(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""(Zw, B): the points :math:`\mathbf z_t = y_t\mathbf x_t` in whitened coordinates, :math:`Z_w = ZB`
    with :math:`Z_w^\top Z_w = I_r`, and the map back, so that :math:`\mathbf z_t\cdot(B\mathbf w) =
    \mathbf z_{w,t}\cdot\mathbf w`.  From the thin SVD :math:`X = USV^\top` (not the Gram matrix, whose
    eigenvalues lose half the digits: raw data with features in units a million apart needs them all):
    :math:`Z_w = \operatorname{diag}(\mathbf y)U_r`, :math:`B = V_rS_r^{-1}`, :math:`r` the singular values
    above :math:`\max(T, d)\,2^{-52}s_{\max}`."""
    U, sv, Vt = np.linalg.svd(X, full_matrices=False)
    keep = sv > max(X.shape) * np.finfo(float).eps * max(float(sv.max()), 1e-300)
    return y[:, None] * U[:, keep], Vt[keep].T / sv[keep]


def _hull_ipm(Z: np.ndarray, steps: int, visit) -> int:
    r"""Primal-dual interior-point steps (Mehrotra's predictor-corrector) on the nearest point of the
    convex hull of the rows of ``Z`` to the origin: :math:`\min \frac12\|Z^\top\boldsymbol\lambda\|^2`
    over the simplex.  With :math:`Q = ZZ^\top` the optimality conditions are :math:`Q\boldsymbol\lambda
    - \mu\mathbf 1 = \mathbf s \ge 0`, :math:`\mathbf 1^\top\boldsymbol\lambda = 1`, :math:`\lambda_t s_t = 0`
    (at the optimum :math:`\mu = \|Z^\top\boldsymbol\lambda\|^2`, the squared margin); each Newton system
    is solved through the Woodbury identity with an :math:`r\times r` Cholesky factor.  ``visit(lam)`` is
    called on every iterate and returns True to stop.  Returns the number of steps taken."""
    T, r = Z.shape
    lam = np.full(T, 1.0 / T)
    q = Z @ (Z.T @ lam)
    mu = float(q.min()) - (float(np.abs(q).max()) + 1.0)
    s = q - mu
    ones = np.ones(T)

    def longest(x, dx):
        neg = dx < 0
        return min(1.0, float((-x[neg] / dx[neg]).min())) if neg.any() else 1.0

    for k in range(steps):
        w = Z.T @ lam
        if visit(lam):
            return k
        q = Z @ w
        rd = q - mu - s
        rp = float(lam.sum()) - 1.0
        gap = float(lam @ s)
        if gap < 1e-300 or (gap <= 1e-10 * float(w @ w) and float(q.min()) > 0):
            return k                                   # (converged on a separator, or nothing left to gain)
        dinv = lam / s
        ZD = Z * dinv[:, None]
        try:
            C = np.linalg.cholesky(np.eye(r) + Z.T @ ZD)
        except np.linalg.LinAlgError:
            return k

        def solve_m(v):          # (D + Z Z^T)^{-1} v, D = diag(s / lam)
            t = np.linalg.solve(C.T, np.linalg.solve(C, Z.T @ (dinv * v)))
            return dinv * v - ZD @ t

        m1 = solve_m(ones)
        den = float(m1.sum())

        def direction(rc):
            mg = solve_m(-rd - rc / lam)
            dmu = (-rp - float(mg.sum())) / den
            dlam = mg + dmu * m1
            return dlam, dmu, (-rc - s * dlam) / lam

        dl, dm, ds = direction(lam * s)                                    # predictor (affine scaling)
        a = min(longest(lam, dl), longest(s, ds))
        sigma = (float((lam + a * dl) @ (s + a * ds)) / gap) ** 3
        dl, dm, ds = direction(lam * s - sigma * gap / T + dl * ds)        # corrector, centred
        a = 0.99 * min(longest(lam, dl), longest(s, ds))
        if not (a > 0 and np.isfinite(dl).all() and np.isfinite(ds).all()):
            return k
        lam = np.maximum(lam + a * dl, 1e-300)
        s = np.maximum(s + a * ds, 1e-300)
        mu += a * dm
    visit(lam)
    return steps


def _refine_weights(Zw: np.ndarray, lam: np.ndarray) -> np.ndarray:
    r"""Weights on the support of ``lam`` with :math:`\sum\lambda_t\mathbf z_{w,t}` closer to 0: the
    smallest correction onto :math:`\{\boldsymbol\lambda : Z_w^\top\boldsymbol\lambda = 0,\ \mathbf 1^\top
    \boldsymbol\lambda = 1\}` (a least-squares solve), taken while it stays non-negative (entries below
    zero by less than :math:`10^{-12}` of the largest are set to 0)."""
    S = np.flatnonzero(lam > 1e-9 * float(lam.max()))
    A = np.vstack([Zw[S].T, np.ones((1, S.size))])
    out = lam[S].copy()
    for _ in range(3):
        res = np.concatenate([-(Zw[S].T @ out), [1.0 - float(out.sum())]])
        new = out + np.linalg.lstsq(A, res, rcond=None)[0]
        if not np.all(new >= -1e-12 * float(new.max())):
            break
        out = np.maximum(new, 0.0)
    full = np.zeros_like(lam)
    full[S] = out
    return full


def _opposite_rows(Z: np.ndarray) -> tuple[int, ...] | None:
    r"""An exact certificate when there is one of the simplest kind: a row :math:`\mathbf z_t = \mathbf 0`
    (a point at the origin: ``(t,)``), or two rows with :math:`\mathbf z_s = -\mathbf z_t` (the same point
    with both labels, or a point and its mirror with one label: ``(s, t)``); else ``None``.  Compared bit
    for bit, so the weights (1) or (½, ½) sum them to exactly :math:`\mathbf 0`."""
    zero = np.flatnonzero(~Z.any(axis=1))
    if zero.size:
        return (int(zero[0]),)
    seen = {}
    for t, row in enumerate(Z + 0.0):                 # (+ 0.0: -0.0 and 0.0 compare as the same bytes)
        seen.setdefault(row.tobytes(), t)
    for t, row in enumerate(-Z + 0.0):
        s = seen.get(row.tobytes())
        if s is not None:
            return (s, t)
    return None


def separability(X, y, tol: float = 1e-6, max_iter: int = 20_000, farkas_tol: float = 1e-9) -> Separability:
    r"""Decide whether a hyperplane through the origin separates ``(X, y)``, with a certificate either way.

    1. The max-margin search (:func:`max_margin_direction`, ``tol``, ``max_iter``): if its direction's
       measured margin exceeds the rounding allowance, the stream is separable, and that direction
       is the max-margin one to within ``tol * R``.
    2. A point at the origin, or two points with :math:`\mathbf z_s = -\mathbf z_t` (the same point with both
       labels: common in real data), is an exact certificate of the second kind (:func:`_opposite_rows`).
    3. Otherwise the same question on the **whitened** points :math:`Z_w = ZB`, :math:`Z_w^\top Z_w = I`:
       an invertible linear map of the features changes margins but not which directions separate
       (:math:`\mathbf z_t\cdot B\mathbf w = \mathbf z_{w,t}\cdot\mathbf w`), and on badly scaled data
       (features in units a thousand times apart) a margin of :math:`10^{-8}R` can become one of
       :math:`10^{-4}`.  Interior-point steps (:func:`_hull_ipm`) find the point of the whitened hull
       nearest the origin; each iterate gives a candidate separator :math:`B\mathbf w` and candidate
       weights :math:`\boldsymbol\lambda`, both checked on the original points.
    4. The weights are refined on their support (:func:`_refine_weights`) and the best certificate is
       kept.

    Every verdict is checked on the original ``X`` (see :class:`Separability`), never assumed: a
    separator's margin is measured and must exceed :math:`2(d+1)2^{-52}R` (a bound on the rounding
    of a d-term dot product); the weights' :math:`\varepsilon` is the computed
    :math:`\|\sum_t\lambda_t y_t\mathbf x_t\|` plus :math:`(T + d + 4)\,2^{-52}R`.

    Parameters
    ----------
    X : array (T, d)
    y : array (T,) in {-1, +1}
    tol, max_iter : float, int
        Passed to :func:`max_margin_direction`.
    farkas_tol : float, default=1e-9
        Weights certify "not separable" when their :math:`\varepsilon \le` ``farkas_tol`` :math:`\cdot R`.

    Returns
    -------
    Separability

    References
    ----------
    Gordan's theorem of the alternative (e.g. Boyd and Vandenberghe, *Convex Optimization*, 2004, §5.8);
    Gilbert, "An iterative procedure for computing the minimum of a quadratic form on a convex set",
    SIAM J. Control 4 (1966) (the nearest point of the hull); Mehrotra, "On the implementation of a
    primal-dual interior point method", SIAM J. Optim. 2 (1992).
    """
    X, yv = xy(X, y)
    T, d = X.shape
    R = radius(X)
    eps = float(np.finfo(float).eps)
    rounding = 2.0 * (d + 1) * eps * R
    v0, g0 = max_margin_direction(X, yv, tol=tol, max_iter=max_iter)
    searched = f"the max-margin search (up to {max_iter:,} Frank-Wolfe steps)"
    if g0 > rounding:
        return Separability("separable", v0, float(g0), True, None, math.inf, rounding, R, 0, searched)
    Z = yv[:, None] * X
    if R == 0:                                   # every point at the origin: any one of them is a certificate
        lam = np.zeros(T)
        lam[0] = 1.0
        return Separability("not separable", v0, float(g0), False, lam, 0.0, rounding, R, 0, searched)
    best = {"v": v0, "gamma": float(g0), "lam": None, "eps": math.inf}

    def weigh(lam) -> None:
        lam = np.maximum(lam, 0.0)
        total = math.fsum(lam)
        if not total > 0:
            return
        lam = lam / total
        e = float(np.linalg.norm(Z.T @ lam)) + (T + d + 4) * eps * R
        if e < best["eps"]:
            best["lam"], best["eps"] = lam, e

    exact = _opposite_rows(Z)
    if exact is not None:                        # a point at the origin, or z_s = -z_t: an exact certificate
        lam = np.zeros(T)
        lam[list(exact)] = 1.0 / len(exact)
        weigh(lam)
        return Separability("not separable", v0, float(g0), False, best["lam"], best["eps"], rounding, R, 0,
                            searched + " and a check for a point at the origin or two opposite points y_t x_t")
    if T * min(T, d) ** 2 > _IPM_BUDGET:
        effort = (searched + f" (the interior-point search was skipped: {T:,} points in d = {d} is beyond its "
                  "budget)")
        return Separability("undecided", v0, float(g0), False, None, math.inf, rounding, R, 0, effort)
    Zw, B = _whitened(X, yv)

    def visit(lam) -> bool:
        w = Zw.T @ lam
        if float((Zw @ w).min()) > 0:            # a separator of the whitened points: check it on X
            v = B @ w
            n = float(np.linalg.norm(v))
            if n > 0:
                v = v / n
                g = float((Z @ v).min())
                if g > best["gamma"]:
                    best["v"], best["gamma"] = v, g
        weigh(lam)
        return best["gamma"] <= rounding and best["eps"] <= farkas_tol * R

    steps = _hull_ipm(Zw, _IPM_STEPS, visit)
    if best["gamma"] <= rounding and best["lam"] is not None:
        weigh(_refine_weights(Zw, best["lam"]))
    effort = searched + f" and {steps} interior-point steps on the whitened points"
    if best["gamma"] > rounding:
        return Separability("separable", best["v"], best["gamma"], False, None, math.inf, rounding, R, steps, effort)
    verdict = "not separable" if best["eps"] <= farkas_tol * R else "undecided"
    return Separability(verdict, best["v"], best["gamma"], False, best["lam"], best["eps"], rounding, R, steps, effort)
