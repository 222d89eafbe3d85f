r"""Online-to-batch conversion by averaging (Theorem 2 of Princeton COS 511, lecture 18).

Notes
-----
Given an i.i.d. sample :math:`S = \langle(\mathbf x_1,y_1),\dots,(\mathbf x_m,y_m)\rangle`
from :math:`D`, run Widrow-Hoff for :math:`T = m` rounds in the order given and output the
average of the weight vectors it *used*,

.. math::

    \mathbf v = \frac1m \sum_{t=1}^m \mathbf w_t

(:math:`\mathbf w_1 = \mathbf 0, \dots, \mathbf w_m`; the final :math:`\mathbf w_{m+1}` is not
included).  With :math:`R_{\mathbf v} = \mathbb E_{(\mathbf x,y)\sim D}[(\mathbf v\cdot\mathbf x-y)^2]`,

.. math::

    \mathbb E_S[R_{\mathbf v}] \le \min_{\mathbf u}\left(\frac{R_{\mathbf u}}{1-\eta}
    + \frac{\|\mathbf u\|_2^2}{\eta m}\right)

(Jensen on the square, then Observation 3: :math:`\mathbf w_t` is independent of
:math:`(\mathbf x_t, y_t)`, then Theorem 1).  The theorem bounds the *expected* risk, so
:func:`learning_curve` averages over many independent samples.

Every risk here is a quadratic in :math:`\mathbf v`,
:math:`R_{\mathbf v} = \mathbf v^\top\Sigma\mathbf v - 2\mathbf c^\top\mathbf v + s`
with :math:`\Sigma = \mathbb E[\mathbf x\mathbf x^\top]`, :math:`\mathbf c = \mathbb E[y\mathbf x]`,
:math:`s = \mathbb E[y^2]` (:class:`QuadraticRisk`): exact for a held-out sample (its empirical
moments) and for the synthetic stream of :func:`olcore.streams.regression`, where
:math:`\mathbf x` is uniform in the unit ball so :math:`\Sigma = I/(d+2)`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .. import bounds, streams
from ..errors import StreamError
from ..linear.widrow_hoff import widrow_hoff_many
from ..stream import _check_size
from ..streams.generators import regression_rows
from ..validate import as_labels, as_matrix, check_int, check_param, check_seed

__all__ = [
    "QuadraticRisk", "averaged", "running_average", "regression_sampler", "bootstrap_sampler",
    "learning_curve",
]


@dataclass(frozen=True, eq=False)
class QuadraticRisk:
    r"""The square-loss risk :math:`R_{\mathbf v} = \mathbf v^\top\Sigma\mathbf v - 2\mathbf c^\top\mathbf v + s`.

    Parameters
    ----------
    Sigma : array (d, d)
        :math:`\mathbb E[\mathbf x\mathbf x^\top]`.
    c : array (d,)
        :math:`\mathbb E[y\,\mathbf x]`.
    s : float
        :math:`\mathbb E[y^2]`.
    """

    Sigma: np.ndarray
    c: np.ndarray
    s: float

    @classmethod
    def from_sample(cls, X, y) -> "QuadraticRisk":
        """The empirical risk on a (held-out) sample: the mean of :math:`(\\mathbf v\\cdot\\mathbf x_i - y_i)^2`."""
        A = as_matrix(X, "X")
        v = as_labels(y, A.shape[0], "y")
        n = A.shape[0]
        return cls(A.T @ A / n, A.T @ v / n, float(v @ v / n))

    @classmethod
    def regression_stream(cls, u, noise: float) -> "QuadraticRisk":
        r"""The exact risk under :func:`olcore.streams.regression`'s distribution:
        :math:`\mathbf x` uniform in the unit ball of :math:`\mathbb R^d`, :math:`y = \mathbf u\cdot\mathbf x
        + N(0,\sigma^2)`, so :math:`R_{\mathbf v} = \|\mathbf v - \mathbf u\|^2/(d+2) + \sigma^2`."""
        u = np.asarray(u, dtype=float).reshape(-1)
        noise = check_param(noise, "noise", 0, None)
        d = u.size
        k = 1.0 / (d + 2)
        return cls(np.eye(d) * k, u * k, float(u @ u) * k + noise**2)

    @property
    def d(self) -> int:
        return int(self.c.size)

    def __call__(self, V) -> np.ndarray | float:
        """Risk of one vector (d,) or of many (..., d)."""
        V = np.asarray(V, dtype=float)
        r = np.einsum("...i,ij,...j->...", V, self.Sigma, V) - 2.0 * (V @ self.c) + self.s
        r = np.maximum(r, 0.0)  # a risk is >= 0; rounding can dip below at the minimiser
        return float(r) if r.ndim == 0 else r

    def minimiser(self, eta: float, m: int) -> np.ndarray:
        r"""The :math:`\mathbf u` minimising :math:`\frac{R_{\mathbf u}}{1-\eta} + \frac{\|\mathbf u\|^2}{\eta m}`:
        :math:`\left(\frac{\Sigma}{1-\eta} + \frac{I}{\eta m}\right)\mathbf u = \frac{\mathbf c}{1-\eta}`."""
        eta = check_param(eta, "eta", 0, 1, lo_open=True, hi_open=True)
        m = check_int(m, "m", 1)
        a, b = 1.0 / (1.0 - eta), 1.0 / (eta * m)
        return np.linalg.solve(a * self.Sigma + b * np.eye(self.d), a * self.c)

    def theorem2(self, eta: float, m) -> np.ndarray | float:
        r"""Theorem 2's right-hand side :math:`\min_{\mathbf u}(\frac{R_{\mathbf u}}{1-\eta} +
        \frac{\|\mathbf u\|^2}{\eta m})` for one sample size or an array of them.

        With :math:`a = 1/(1-\eta)`, :math:`b = 1/(\eta m)` and :math:`\Sigma = Q\Lambda Q^\top`,
        :math:`\hat{\mathbf c} = Q^\top\mathbf c`: the value is
        :math:`a s - \sum_i a^2\hat c_i^2/(a\lambda_i + b)`.
        """
        eta = check_param(eta, "eta", 0, 1, lo_open=True, hi_open=True)
        ms = np.asarray(m, dtype=float)
        if np.any(ms < 1) or not np.all(np.isfinite(ms)):
            raise StreamError.bad("m", repr(m), "sample size(s) >= 1")
        lam, Q = np.linalg.eigh(self.Sigma)
        lam = np.maximum(lam, 0.0)
        ch = Q.T @ self.c
        a = 1.0 / (1.0 - eta)
        b = (1.0 / (eta * ms))[..., None]
        val = a * self.s - np.sum(a * a * ch**2 / (a * lam + b), axis=-1)
        val = np.maximum(val, 0.0)
        return float(val) if val.ndim == 0 else val

    def theorem2_for(self, u, eta: float, m: int) -> float:
        """Theorem 2's bound for one given comparator ``u`` (via :func:`olcore.bounds.online_to_batch`)."""
        u = np.asarray(u, dtype=float)
        return bounds.online_to_batch(self(u), float(u @ u), eta, m)


def running_average(W) -> np.ndarray:
    r"""All averages at once: row :math:`m-1` is :math:`\mathbf v_m = \frac1m\sum_{t=1}^m \mathbf w_t`.

    Parameters
    ----------
    W : array (..., T+1, d)
        A Widrow-Hoff weight history (``trace.weights`` or :func:`widrow_hoff_many`'s W);
        its last row :math:`\mathbf w_{T+1}` is not used.

    Returns
    -------
    array (..., T, d)
        Since running on the first :math:`m` points of a sample *is* running on a sample of
        size :math:`m`, :math:`\mathbf v_m` is the output for sample size :math:`m`.
    """
    W = np.asarray(W, dtype=float)
    T = W.shape[-2] - 1
    if T < 1:
        raise StreamError.bad("W", f"{T + 1} row(s)", "a weight history of at least 2 rows (T >= 1)")
    csum = np.cumsum(W[..., :T, :], axis=-2)
    return csum / np.arange(1, T + 1)[:, None]


def averaged(W) -> np.ndarray:
    r""":math:`\mathbf v = \frac1m\sum_{t=1}^m \mathbf w_t` for a history ``W`` (m+1, d)."""
    W = np.asarray(W, dtype=float)
    if W.ndim != 2 or W.shape[0] < 2:
        raise StreamError.bad("W", f"shape {W.shape}", "(m+1, d) with m >= 1")
    return W[:-1].mean(axis=0)


Sampler = Callable[[int, np.random.Generator], tuple[np.ndarray, np.ndarray]]


def regression_sampler(u, noise: float) -> Sampler:
    """Fresh samples from :func:`olcore.streams.regression`'s distribution with this ``u`` and noise.

    A sample of size ``m`` drawn with ``rng`` is ``streams.regression(T=m, d=u.size,
    seed=int(rng.integers(2**32)), noise=noise, u=u)``'s ``(X, y)``, value for value: the same
    draws (:func:`olcore.streams.generators.regression_rows`), with ``u`` and ``noise`` checked once
    here instead of a stream built and validated per sample (a learning curve draws 50-200 of them).
    """
    u = np.asarray(u, dtype=float).reshape(-1)
    d = u.size
    u_rows = as_matrix(u, "u")[:, 0]                  # as streams.regression reads a given u
    noise = check_param(noise, "noise", 0, None)

    def sample(m: int, rng: np.random.Generator):
        seed = int(rng.integers(2**32))
        m = check_int(m, "T", 1, streams.MAX_ROUNDS)
        _check_size(m, d)
        X, y = regression_rows(np.random.default_rng(seed), m, d, u_rows, noise)
        if not (np.isfinite(X).all() and np.isfinite(y).all()):    # (a noise so large y overflows)
            s = streams.regression(T=m, d=d, seed=seed, noise=noise, u=u)      # raises its StreamError
            return s.X, s.y
        X.setflags(write=False)
        y.setflags(write=False)
        return X, y

    return sample


def bootstrap_sampler(X, y) -> Sampler:
    """I.i.d. samples (with replacement) from the empirical distribution of a stream's rows.

    Its exact risk is :meth:`QuadraticRisk.from_sample` of the same rows, so an uploaded
    stream gets a distribution :math:`D` for which Theorem 2 can be checked exactly.
    """
    A = as_matrix(X, "X")
    v = as_labels(y, A.shape[0], "y")

    def sample(m: int, rng: np.random.Generator):
        idx = rng.integers(A.shape[0], size=m)
        return A[idx], v[idx]

    return sample


def learning_curve(sample: Sampler, risk: QuadraticRisk, eta: float, m_max: int,
                   repeats: int = 50, seed: int = 0) -> dict[str, np.ndarray]:
    r"""Risk of the averaged vector and of the last iterate against Theorem 2, for m = 1..m_max.

    Draws ``repeats`` independent samples of size ``m_max``, runs Widrow-Hoff on each (all at
    once), and for every prefix length :math:`m` measures :math:`R_{\mathbf v_m}` (the average
    of :math:`\mathbf w_1..\mathbf w_m`) and :math:`R_{\mathbf w_{m+1}}` (the last iterate).

    Parameters
    ----------
    sample : callable (m, rng) -> (X (m, d), y (m,))
        Draws an i.i.d. sample from :math:`D` (:func:`regression_sampler`,
        :func:`bootstrap_sampler`).
    risk : QuadraticRisk
        :math:`R` under the same :math:`D` (exact, or a held-out sample's).
    eta : float in (0, 1)
    m_max : int >= 1
    repeats : int, default=50
    seed : int, default=0

    Returns
    -------
    dict with ``m`` (M,), ``risk_avg`` and ``risk_last`` (repeats, M), their means
    ``mean_avg``, ``mean_last`` (M,) and standard errors ``se_avg``, ``se_last`` (M,),
    ``bound`` (M,) Theorem 2's right-hand side, and ``best_risk`` :math:`\min_{\mathbf u} R_{\mathbf u}`.
    """
    eta = check_param(eta, "eta", 0, 1, lo_open=True, hi_open=True)
    m_max = check_int(m_max, "m_max", 1, streams.MAX_ROUNDS)
    repeats = check_int(repeats, "repeats", 1, 10_000)
    rng = np.random.default_rng(check_seed(seed))
    Xs, ys = zip(*(sample(m_max, rng) for _ in range(repeats)))
    X = np.stack(Xs)
    y = np.stack(ys)
    if X.shape[-1] != risk.d:
        raise StreamError.bad("sample", f"dimension {X.shape[-1]}", f"the risk's dimension {risk.d}")
    W, _ = widrow_hoff_many(X, y, eta)
    V = running_average(W)                 # (R, M, d): v_m
    r_avg = risk(V)
    r_last = risk(W[:, 1:, :])             # w_{m+1}
    ms = np.arange(1, m_max + 1)
    sq = np.sqrt(repeats)
    lam = np.linalg.eigvalsh(risk.Sigma)
    u_best = np.linalg.lstsq(risk.Sigma, risk.c, rcond=None)[0] if lam.max() > 0 else np.zeros(risk.d)
    return {
        "m": ms,
        "risk_avg": r_avg,
        "risk_last": r_last,
        "mean_avg": r_avg.mean(axis=0),
        "mean_last": r_last.mean(axis=0),
        "se_avg": r_avg.std(axis=0, ddof=1) / sq if repeats > 1 else np.zeros(m_max),
        "se_last": r_last.std(axis=0, ddof=1) / sq if repeats > 1 else np.zeros(m_max),
        "bound": risk.theorem2(eta, ms),
        "best_risk": np.float64(risk(u_best)),
    }
