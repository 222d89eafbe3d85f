r"""Seeded stream generators: experts, loss matrices, separable points, disjunctions, regression.

Randomness only through ``seed`` and ``np.random.default_rng(seed)``.  Each returns a
validated :class:`olcore.stream.Stream` whose ``info`` holds what the generator guarantees.
"""

from __future__ import annotations

import numpy as np

from ..errors import StreamError
from ..stream import MAX_COLUMNS, MAX_ROUNDS, Stream, _check_size, from_arrays
from ..validate import as_matrix, check_int, check_param, check_seed, check_unit_interval

__all__ = ["perfect_expert", "expert_error_rates", "loss_matrix", "separable", "disjunction",
           "regression", "simplex_stream"]


# -- expert streams -----------------------------------------------------------------------

def perfect_expert(T: int = 64, n: int = 8, seed: int = 0, p_wrong: float = 0.5) -> Stream:
    r"""Expert advice with one perfect expert among ``n``.

    The outcomes :math:`y_t` are fair coin flips; expert ``best`` (chosen at random)
    always predicts :math:`y_t`; every other expert is wrong independently with
    probability ``p_wrong`` each round.  Halving's assumption holds:
    :math:`\min_i M_i = 0`.

    Parameters
    ----------
    T : int, default=64
    n : int, default=8
    seed : int, default=0
    p_wrong : float, default=0.5

    Returns
    -------
    Stream of kind ``"experts"`` with ``info = {"best": i}``.
    """
    T = check_int(T, "T", 1, MAX_ROUNDS)
    n = check_int(n, "n", 1, MAX_COLUMNS)
    p_wrong = check_param(p_wrong, "p_wrong", 0, 1)
    rng = np.random.default_rng(check_seed(seed))
    y = rng.integers(0, 2, size=T)
    wrong = rng.random((T, n)) < p_wrong
    best = int(rng.integers(n))
    wrong[:, best] = False
    X = np.where(wrong, 1 - y[:, None], y[:, None])
    return from_arrays("experts", X, y, {"best": best})


def expert_error_rates(T: int, error_rates, seed: int = 0) -> Stream:
    r"""Experts that err independently at their own rates.

    Outcomes are fair coin flips; expert :math:`i` predicts :math:`1 - y_t` with
    probability ``error_rates[i]`` and :math:`y_t` otherwise.

    Returns
    -------
    Stream of kind ``"experts"`` with ``info = {"best": i, "best_mistakes": M}``,
    the expert with the fewest realised mistakes (lowest index on ties).
    """
    T = check_int(T, "T", 1, MAX_ROUNDS)
    p = np.asarray(error_rates, dtype=float)
    if p.ndim != 1 or p.size < 1:
        raise StreamError.bad("error_rates", f"shape {p.shape}", "a list of n >= 1 rates")
    check_unit_interval(p, "error_rates")
    rng = np.random.default_rng(check_seed(seed))
    y = rng.integers(0, 2, size=T)
    wrong = rng.random((T, p.size)) < p
    X = np.where(wrong, 1 - y[:, None], y[:, None])
    m = wrong.sum(axis=0)
    return from_arrays("experts", X, y, {"best": int(m.argmin()), "best_mistakes": int(m.min())})


def loss_matrix(T: int = 500, n: int = 10, seed: int = 0, means=None,
                distribution: str = "bernoulli") -> Stream:
    r"""An arbitrary loss matrix :math:`L \in [0,1]^{T \times n}` for Hedge.

    Expert :math:`i`'s losses are i.i.d. with mean ``means[i]`` (default: drawn
    uniformly from [0.2, 0.8]); ``distribution`` is ``"bernoulli"`` (losses in {0, 1})
    or ``"beta"`` (continuous losses, Beta with concentration 4).

    Returns
    -------
    Stream of kind ``"losses"`` with ``info = {"means": array (n,)}``.
    """
    T = check_int(T, "T", 1, MAX_ROUNDS)
    n = check_int(n, "n", 1, MAX_COLUMNS)
    rng = np.random.default_rng(check_seed(seed))
    mu = rng.uniform(0.2, 0.8, size=n) if means is None else np.asarray(means, dtype=float)
    if mu.shape != (n,):
        raise StreamError.bad("means", f"shape {mu.shape}", f"({n},)")
    check_unit_interval(mu, "means")
    if distribution == "bernoulli":
        L = (rng.random((T, n)) < mu).astype(float)
    elif distribution == "beta":
        c = 4.0
        a, b = np.maximum(mu * c, 1e-3), np.maximum((1 - mu) * c, 1e-3)
        L = rng.beta(a, b, size=(T, n))
    else:
        raise StreamError.bad("distribution", repr(distribution), "'bernoulli' or 'beta'")
    return from_arrays("losses", L, None, {"means": mu})


# -- linear classification -----------------------------------------------------------------

def separable(T: int = 200, d: int = 2, gamma: float = 0.1, R: float = 1.0,
              noise: float = 0.0, seed: int = 0) -> Stream:
    r"""A linearly separable stream with margin exactly :math:`\gamma` and radius :math:`R`.

    A unit separator :math:`v` is drawn uniformly on the sphere.  Each point is
    :math:`x_t = s_t m_t v + z_t` with sign :math:`s_t = \pm 1`, margin component
    :math:`m_t \sim U[\gamma, R]` and :math:`z_t \perp v` uniform in the (d-1)-ball of
    radius :math:`\sqrt{R^2 - m_t^2}`; so :math:`\|x_t\| \le R` and
    :math:`y_t\, v \cdot x_t = m_t \ge \gamma` with :math:`y_t = s_t`.  One point lies
    exactly on the margin and one exactly on the sphere (T >= 2), so the measured
    :math:`R` and :math:`\gamma` equal the prescribed ones.

    With ``noise > 0`` each label is flipped independently with that probability;
    the stream is then usually not separable (``info["flipped"]`` says where).

    Parameters
    ----------
    T : int, default=200
    d : int, default=2
    gamma : float, default=0.1
        Margin, 0 < gamma <= R.
    R : float, default=1.0
        Radius, R > 0.
    noise : float, default=0.0
        Label-flip probability in [0, 0.5].
    seed : int, default=0

    Returns
    -------
    Stream of kind ``"linear"`` with ``info = {"v", "gamma", "R", "noise", "flipped"}``.
    """
    T = check_int(T, "T", 1, MAX_ROUNDS)
    d = check_int(d, "d", 1, MAX_COLUMNS)
    R = check_param(R, "R", 0, None, lo_open=True)
    gamma = check_param(gamma, "gamma", 0, R, lo_open=True)
    noise = check_param(noise, "noise", 0, 0.5)
    _check_size(T, d)
    rng = np.random.default_rng(check_seed(seed))
    v = rng.standard_normal(d)
    v /= np.linalg.norm(v)
    s = np.where(rng.random(T) < 0.5, -1, 1)
    m = rng.uniform(gamma, R, size=T)
    # Extremes: one point on the margin, another on the sphere.
    m[0] = gamma
    if T >= 2:
        m[1] = R
    # z: uniform direction orthogonal to v, radius r * sqrt(R^2 - m^2), r ~ U^(1/(d-1)).
    Z = rng.standard_normal((T, d))
    Z -= np.outer(Z @ v, v)
    norms = np.linalg.norm(Z, axis=1)
    norms[norms == 0] = 1.0
    radius = np.sqrt(np.maximum(R**2 - m**2, 0.0))
    r = rng.random(T) ** (1.0 / max(d - 1, 1)) if d > 1 else np.zeros(T)
    r[0] = 1.0  # the margin point also lies on the sphere: gamma^2 + (R^2 - gamma^2) = R^2
    Z *= (r * radius / norms)[:, None]
    X = (s * m)[:, None] * v + Z
    perm = rng.permutation(T)  # the extreme points need not come first
    X, s = X[perm], s[perm]
    y = s.copy()
    flipped = rng.random(T) < noise
    y[flipped] *= -1
    return from_arrays("linear", X, y, {"v": v, "gamma": gamma, "R": R, "noise": noise,
                                        "flipped": np.flatnonzero(flipped)})


def _bernoulli_rows(rng: np.random.Generator, T: int, N: int, p: float, block: int = 1 << 16) -> np.ndarray:
    """``(rng.random((T, N)) < p).astype(np.int8)``, the same draws in the same order, made a few rows at a
    time in one small buffer: a (T, N) float64 array of fresh pages costs about 3x its draws here
    (4·10^6 entries: 50 ms against 18)."""
    X = np.empty((T, N), dtype=np.bool_)
    rows = max(1, block // N)
    buf = np.empty(rows * N)
    for r0 in range(0, T, rows):
        r1 = min(T, r0 + rows)
        chunk = buf[: (r1 - r0) * N].reshape(r1 - r0, N)
        rng.random(out=chunk)
        np.less(chunk, p, out=X[r0:r1])
    return X.view(np.int8)


def disjunction(T: int = 500, N: int = 100, k: int = 3, seed: int = 0, p: float | None = None) -> Stream:
    r"""Boolean attributes labelled by a monotone k-literal disjunction.

    :math:`y_t = x_{t,i_1} \vee \dots \vee x_{t,i_k}` for ``k`` relevant attributes
    drawn at random among ``N``.  Each attribute is 1 independently with probability
    ``p``; the default :math:`p = 1 - 2^{-1/k}` makes both labels equally likely.

    Returns
    -------
    Stream of kind ``"disjunction"`` with ``info = {"relevant": sorted indices, "k", "N"}``.
    """
    T = check_int(T, "T", 1, MAX_ROUNDS)
    N = check_int(N, "N", 1, MAX_COLUMNS)
    k = check_int(k, "k", 1, N)
    _check_size(T, N)
    p = 1.0 - 0.5 ** (1.0 / k) if p is None else check_param(p, "p", 0, 1)
    rng = np.random.default_rng(check_seed(seed))
    relevant = np.sort(rng.choice(N, size=k, replace=False))
    X = _bernoulli_rows(rng, T, N, p)
    y = X[:, relevant].max(axis=1)
    return from_arrays("disjunction", X, y, {"relevant": relevant, "k": k, "N": N})


# -- regression ---------------------------------------------------------------------------

def regression(T: int = 200, d: int = 2, seed: int = 0, noise: float = 0.1,
               u=None, norm_u: float = 1.0) -> Stream:
    r"""A regression stream :math:`y_t = u \cdot x_t + \varepsilon_t` with :math:`\|x_t\| \le 1`.

    :math:`x_t` is uniform in the unit ball of :math:`\mathbb{R}^d`, the noise
    :math:`\varepsilon_t \sim N(0, \text{noise}^2)`, and :math:`u` is a random vector
    of norm ``norm_u`` unless given.

    Returns
    -------
    Stream of kind ``"regression"`` with ``info = {"u", "noise"}``.
    """
    T = check_int(T, "T", 1, MAX_ROUNDS)
    d = check_int(d, "d", 1, MAX_COLUMNS)
    noise = check_param(noise, "noise", 0, None)
    _check_size(T, d)
    rng = np.random.default_rng(check_seed(seed))
    if u is None:
        norm_u = check_param(norm_u, "norm_u", 0, None)
        u = rng.standard_normal(d)
        u *= norm_u / np.linalg.norm(u)
    else:
        u = as_matrix(u, "u")[:, 0]
        if u.shape != (d,):
            raise StreamError.bad("u", f"length {u.size}", f"length d = {d}")
    X, y = regression_rows(rng, T, d, u, noise)
    return from_arrays("regression", X, y, {"u": u, "noise": noise})


def regression_rows(rng: np.random.Generator, T: int, d: int, u: np.ndarray, noise: float):
    """The arrays ``(X, y)`` of :func:`regression`, drawn from ``rng`` with the comparator ``u`` (d,) as
    :func:`regression` reads it, without the checks and the :class:`~olcore.stream.Stream`: for callers that
    draw many samples of a distribution whose parameters they checked once
    (:func:`olcore.online_to_batch.regression_sampler`)."""
    G = rng.standard_normal((T, d))
    G /= np.linalg.norm(G, axis=1, keepdims=True)
    X = G * (rng.random(T) ** (1.0 / d))[:, None]
    y = X @ u + noise * rng.standard_normal(T)
    return X, y


def simplex_stream(T: int = 500, n: int = 100, k: int = 2, noise: float = 0.05, seed: int = 0):
    r"""A stream whose best predictor is a sparse probability vector: EG's home ground.

    :math:`\mathbf x_t` uniform in :math:`[0,1]^n` (e.g. n experts' forecasts),
    :math:`y_t = \mathbf u\cdot\mathbf x_t + N(0,\text{noise}^2)` with :math:`\mathbf u` uniform
    on ``k`` randomly chosen coordinates (:math:`\mathbf u \ge 0`, :math:`\sum_i u_i = 1`).
    Here :math:`\|\mathbf x_t\|_\infty \le 1` but :math:`\|\mathbf x_t\|_2` is about
    :math:`\sqrt{n/3}`: an additive update must shrink its steps by that much, a
    multiplicative one need not.

    Returns
    -------
    Stream of kind ``"regression"`` with ``info = {"u", "relevant", "noise"}``.
    """
    T = check_int(T, "T", 1, MAX_ROUNDS)
    n = check_int(n, "n", 1, MAX_COLUMNS)
    k = check_int(k, "k", 1, n)
    _check_size(T, n)
    noise = check_param(noise, "noise", 0, None)
    rng = np.random.default_rng(check_seed(seed))
    relevant = np.sort(rng.choice(n, size=k, replace=False))
    u = np.zeros(n)
    u[relevant] = 1.0 / k
    X = rng.random((T, n))
    y = X @ u + noise * rng.standard_normal(T)
    return from_arrays("regression", X, y, {"u": u, "relevant": relevant, "noise": noise})


# -- online convex optimisation ----------------------------------------------------------------

def rademacher_linear(T: int = 500, d: int = 2, seed: int = 0) -> Stream:
    r"""Random-sign linear losses: the adversary of the :math:`\Omega(DG\sqrt T)` lower bound.

    Round t's loss is :math:`\ell_t(\theta) = y_t\,\theta\cdot x_t` with :math:`x_t \in \{\pm 1/\sqrt d\}^d`
    and :math:`y_t \in \{-1, +1\}`, every sign an independent fair coin, so
    :math:`\nabla\ell_t = y_tx_t` has :math:`\|\nabla\ell_t\| = 1 = G`.  Whatever the learner plays,
    :math:`\mathbb E[\ell_t(\theta_t)] = 0`, while the best fixed point of a box
    :math:`[-h, h]^d` (:math:`D = 2h\sqrt d`) gains :math:`h\,\|\sum_t y_tx_t\|_1 \approx
    h\sqrt{d}\sqrt{2T/\pi}`: the expected regret of **every** algorithm is about
    :math:`DG\sqrt T/\sqrt{2\pi}`, the order of the OGD theorem (Hazan 2022, Theorem 3.2).
    An oblivious adversary: the signs are fixed by ``seed`` before the game.

    Returns
    -------
    Stream of kind ``"linear"`` with ``info = {"G": 1.0}``.
    """
    T = check_int(T, "T", 1, MAX_ROUNDS)
    d = check_int(d, "d", 1, MAX_COLUMNS)
    _check_size(T, d)
    rng = np.random.default_rng(check_seed(seed))
    X = np.where(rng.random((T, d)) < 0.5, -1.0, 1.0) / np.sqrt(d)
    y = np.where(rng.random(T) < 0.5, -1, 1)
    return from_arrays("linear", X, y, {"G": 1.0})
