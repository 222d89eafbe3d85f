"""Shared helpers of the expert algorithms: input checks and log-domain normalisation.

Exponential weights are held as log-weights and normalised with log-sum-exp, so no
learning rate in the UI range (eta up to 100, beta down to 0.001) and no stream of up to
10^5 rounds underflows to a zero-sum weight vector.
"""

from __future__ import annotations

import numpy as np

from ..errors import StreamError
from ..jit import f64, njit
from ..stream import from_arrays
from ..trace import record_rounds  # noqa: F401  (the experts' modules import it from here)

__all__ = ["advice_int8", "advice_checks", "expert_stream", "normalise_log", "log_beta_times", "entropic_loss", "square_loss",
           "LOSSES", "record_rounds", "frozen", "normalise_into"]


def frozen(a: np.ndarray) -> np.ndarray:
    """Mark a fresh array (and the fresh arrays it views) read-only so :class:`olcore.Trace`
    shares it instead of copying it."""
    b = a
    while isinstance(b, np.ndarray):
        b.setflags(write=False)
        b = b.base
    return a


@njit
def normalise_into(logw, v):
    r"""Log-sum-exp: writes :math:`v_i = e^{\ln w_i} / \sum_j e^{\ln w_j}` into ``v`` and
    returns :math:`\ln \sum_j w_j` (``-inf`` and a zero ``v`` when every weight is 0)."""
    n = logw.shape[0]
    m = -np.inf
    for i in range(n):
        m = max(m, logw[i])
    if m == -np.inf:
        for i in range(n):
            v[i] = 0.0
        return -np.inf
    Z = 0.0
    for i in range(n):
        v[i] = np.exp(logw[i] - m)
        Z += v[i]
    for i in range(n):
        v[i] /= Z
    return m + np.log(Z)


def expert_stream(kind: str, X, y=None):
    """Validate ``(X, y)`` as a stream of ``kind`` and return ``(X, y)`` as C-contiguous
    float64 arrays (the one type the compiled loops take)."""
    s = from_arrays(kind, X, y)
    Xf = f64(s.X)
    yf = None if s.y is None else f64(s.y)
    return Xf, yf


_BYTE_KINDS = (np.dtype(np.int8), np.dtype(np.uint8), np.dtype(np.bool_))


def advice_int8(X, y):
    """0/1 advice ``X`` (T, n) and outcomes ``y`` (T,) as C-contiguous int8 arrays for a compiled
    loop that checks every entry is 0 or 1 as it reads it (``bad`` row, then :func:`advice_checks`).

    Byte arrays (int8, uint8, bool: what the generators give) are viewed, not copied or read;
    anything else is checked here (finite, 0 or 1) and converted.  Shapes and the size limit are
    checked here.  The caller's arrays are never modified (nor frozen)."""
    from ..stream import _check_size

    Xa = X if isinstance(X, np.ndarray) else None
    if Xa is not None and Xa.dtype in _BYTE_KINDS and Xa.ndim == 2 and Xa.shape[0] >= 1 and Xa.shape[1] >= 1:
        Xi = np.ascontiguousarray(Xa).view(np.int8)
    else:
        Xi = _binary(X, "X", 2)
    T, n = Xi.shape
    _check_size(T, n)
    if isinstance(y, np.ndarray) and y.dtype in _BYTE_KINDS and y.shape == (T,):
        yi = np.ascontiguousarray(y).view(np.int8)
    else:
        from ..validate import as_labels

        yi = as_labels(y, T, "y", (0, 1)).astype(np.int8)
    Xi, yi = np.ascontiguousarray(Xi).view(), np.ascontiguousarray(yi).view()   # C order: one signature
    Xi.setflags(write=False)                         # read-only views: one compiled signature
    yi.setflags(write=False)
    return Xi, yi


def _binary(X, name, ndim):
    from ..validate import as_matrix, check_binary

    A = as_matrix(X, name)
    check_binary(A, name)
    return A.astype(np.int8)


def advice_checks(X, y) -> None:
    """The full checks of an expert stream (raise the StreamError naming the first bad entry),
    on copies: :func:`olcore.stream.from_arrays` freezes the arrays it is given."""
    from ..stream import from_arrays

    from_arrays("experts", np.array(X, copy=True), None if y is None else np.array(y, copy=True))


def normalise_log(logw: np.ndarray):
    r"""Normalise log-weights along the last axis: :math:`v_i = w_i / \sum_j w_j`.

    Returns ``(v, log_total)`` where ``log_total`` is :math:`\ln \sum_j w_j`.  A row whose
    log-weights are all :math:`-\infty` (an empty version space, only possible with
    :math:`\beta = 0`) gives a zero row and ``log_total = -inf``.
    """
    logw = np.asarray(logw, dtype=float)
    m = logw.max(axis=-1, keepdims=True)
    dead = ~np.isfinite(m)
    m_safe = np.where(dead, 0.0, m)
    with np.errstate(invalid="ignore"):
        w = np.exp(logw - m_safe)
    s = w.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        v = np.where(dead, 0.0, w / np.where(dead, 1.0, s))
        log_total = np.where(dead, -np.inf, m_safe + np.log(np.where(dead, 1.0, s)))
    return v, log_total[..., 0]


def log_beta_times(M: np.ndarray, beta: float) -> np.ndarray:
    r""":math:`\ln \beta^{M} = M \ln\beta`, with :math:`0^0 = 1` when :math:`\beta = 0`."""
    M = np.asarray(M)
    if beta == 0.0:
        return np.where(M == 0, 0.0, -np.inf)
    return M * np.log(beta)


def _xlogx_ratio(a, b):
    # a ln(a/b) with 0 ln(0/b) = 0 and a ln(a/0) = +inf for a > 0
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(a > 0, a * (np.log(np.where(a > 0, a, 1.0)) - np.log(b)), 0.0)
    return out


def entropic_loss(y, yhat):
    r"""Entropic (log) loss :math:`L_{en}(y,\hat y) = y\ln\frac{y}{\hat y} + (1-y)\ln\frac{1-y}{1-\hat y}`.

    With :math:`0 \ln 0 = 0`; it is :math:`+\infty` when :math:`\hat y` is the wrong extreme.
    """
    y = np.asarray(y, dtype=float)
    yhat = np.asarray(yhat, dtype=float)
    return _xlogx_ratio(y, yhat) + _xlogx_ratio(1.0 - y, 1.0 - yhat)


def square_loss(y, yhat):
    r"""Square loss :math:`L_{sq}(y,\hat y) = (y - \hat y)^2`."""
    return (np.asarray(y, dtype=float) - np.asarray(yhat, dtype=float)) ** 2


LOSSES = {"entropic": entropic_loss, "square": square_loss}


def check_loss(loss) -> str:
    if loss not in LOSSES:
        raise StreamError.bad("loss", repr(loss), "'entropic' or 'square'")
    return loss
