r"""Widrow-Hoff (Least Mean Squares): online linear regression with the square loss.

Notes
-----
The algorithm of the notes (Princeton COS 511, lecture 18, Section 1):

.. math::

    \mathbf{w}_1 = \mathbf{0}, \qquad
    \hat y_t = \mathbf{w}_t \cdot \mathbf{x}_t, \qquad
    \text{loss}_t = (\hat y_t - y_t)^2, \qquad
    \mathbf{w}_{t+1} = \mathbf{w}_t - \eta\,(\mathbf{w}_t \cdot \mathbf{x}_t - y_t)\,\mathbf{x}_t .

**Theorem 1.** If :math:`\|\mathbf{x}_t\|_2 \le 1` for all :math:`t` and
:math:`0 < \eta < 1`, then

.. math::

    L_{WH} \le \min_{\mathbf{u} \in \mathbb{R}^n}
    \left( \frac{L_{\mathbf{u}}}{1-\eta} + \frac{\|\mathbf{u}\|_2^2}{\eta} \right).

The proof fixes :math:`\mathbf{u}` and tracks the potential
:math:`\Phi_t = \|\mathbf{w}_t - \mathbf{u}\|_2^2`; with
:math:`\ell_t = \mathbf{w}_t \cdot \mathbf{x}_t - y_t` and
:math:`g_t = \mathbf{u} \cdot \mathbf{x}_t - y_t` the per-round claim is

.. math::

    \Phi_{t+1} - \Phi_t \le -\eta\,\ell_t^2 + \frac{\eta}{1-\eta}\, g_t^2 ,

which telescopes, with :math:`\Phi_1 = \|\mathbf{u}\|^2` and :math:`\Phi_{T+1} \ge 0`, to
:math:`-\|\mathbf{u}\|^2 \le -\eta L_{WH} + \frac{\eta}{1-\eta} L_{\mathbf{u}}`.
:func:`proof_quantities` returns every term of that argument.

The algorithm itself runs for any :math:`\eta > 0` and any :math:`\mathbf{x}_t`; only the
theorem needs :math:`\|\mathbf{x}_t\| \le 1` and :math:`\eta < 1`
(see :func:`olcore.bounds.check_unit_ball` and :func:`to_unit_ball`).

Reading of the notes: the scribe's line "Update w_{t+1} = w_t η(w_t·x_t y_t)x_t" lost its
minus signs in extraction; Section 1.1 writes the rule in full, which is what is implemented.
Motivation 2's objective is printed as :math:`\eta(\mathbf{w}_{t+1}\cdot\mathbf{x}-y_t)^2 +
\|\mathbf{w}_{t+1}-\mathbf{w}_t\|_2` (no square); the stated solution needs the *squared*
distance, :math:`\|\cdot\|_2^2`, as in Section 1.3: with the loss as printed (not halved), the gradient
:math:`2\eta(\mathbf w\cdot\mathbf x_t - y_t)\mathbf x_t + 2(\mathbf w - \mathbf w_t) = \mathbf 0` gives the
notes' step :math:`\mathbf w = \mathbf w_t - \eta(\mathbf w\cdot\mathbf x_t - y_t)\mathbf x_t`.

**The implicit update** (Motivation 2 solved exactly).  Minimising
:math:`\eta(\mathbf w\cdot\mathbf x_t - y_t)^2 + \|\mathbf w - \mathbf w_t\|_2^2` gives
:math:`\mathbf w_{t+1} = \mathbf w_t - \eta(\mathbf w_{t+1}\cdot\mathbf x_t - y_t)\mathbf x_t`, with
:math:`\mathbf w_{t+1}` on both sides; taking the inner product with :math:`\mathbf x_t` and solving,

.. math::

    \mathbf{w}_{t+1} = \mathbf{w}_t - \frac{\eta\,(\mathbf{w}_t\cdot\mathbf{x}_t - y_t)}
    {1 + \eta\|\mathbf{x}_t\|^2}\,\mathbf{x}_t .

The notes replace :math:`\mathbf w_{t+1}` by :math:`\mathbf w_t` on the right (the explicit rule);
the implicit rule never overshoots: its new residual is the old one times
:math:`1/(1 + \eta\|\mathbf x_t\|^2) \in (0, 1]`, whatever :math:`\eta`.  ``update="implicit"``
runs it (Theorem 1 is stated for the explicit rule only).
"""

from __future__ import annotations

import numpy as np

from .. import _sums as sums
from ..errors import StreamError
from ..trace import LazyExtras, Trace, record_rounds
from ..jit import f64, kernel, njit
from ._engine import MAX_FLOAT, finite_row_at, freeze, reject, round_arrays, big_empty
from ..validate import as_labels, as_matrix, check_param

__all__ = ["widrow_hoff", "WidrowHoff", "widrow_hoff_many", "proof_quantities", "to_unit_ball", "UPDATES"]

#: The two update rules: the notes' (``"explicit"``) and Motivation 2 solved exactly (``"implicit"``).
UPDATES = ("explicit", "implicit")


def _check_eta(eta) -> float:
    return check_param(eta, "eta", 0, None, lo_open=True)


def _check_update(update) -> bool:
    """``True`` for the implicit rule."""
    if update not in UPDATES:
        raise StreamError.bad("update", repr(update), "'explicit' or 'implicit'")
    return update == "implicit"


def widrow_hoff(X, y, eta: float = 0.1, u=None, update: str = "explicit", record="every") -> Trace:
    r"""Run Widrow-Hoff over a whole stream (the fast path).

    :math:`\mathbf{w}_1 = 0`; round :math:`t` predicts :math:`\hat y_t = \mathbf{w}_t\cdot
    \mathbf{x}_t`, suffers :math:`(\hat y_t - y_t)^2` and updates
    :math:`\mathbf{w}_{t+1} = \mathbf{w}_t - \eta(\hat y_t - y_t)\mathbf{x}_t`.

    Parameters
    ----------
    X : array (T, d)
        Feature vectors; Theorem 1 needs :math:`\|x_t\|_2 \le 1` (not enforced here).
    y : array (T,)
        Real targets.
    eta : float, default=0.1
        Learning rate, :math:`\eta > 0` (Theorem 1 needs :math:`\eta < 1`).
    u : array (d,), default=None
        A comparator.  When given, ``extras`` also holds the proof view's quantities
        for this :math:`\mathbf{u}` (see :func:`proof_quantities`).
    update : {"explicit", "implicit"}, default="explicit"
    record : "every", "final" or int, default="every"
        Which rounds' weights the trace keeps: every round's (the contract: a (T+1, d) table),
        only :math:`\mathbf w_1` and the final weights, or every ``record``-th round and the
        last (``trace.recorded_rounds``).  The losses, predictions and residuals are the same.
        The proof view (``u``) reads every round's weights: ``u`` needs ``record="every"``.

    Returns
    -------
    Trace
        ``losses`` (T,) squared errors :math:`\ell_t^2`; ``predictions`` (T,)
        :math:`\hat y_t`; ``weights`` (T+1, d), row ``t`` is :math:`\mathbf{w}_{t+1}` in
        the notes' 1-based numbering (row 0 is :math:`\mathbf{w}_1 = 0`);
        ``extras["residual"]`` (T,) :math:`\ell_t = \hat y_t - y_t`; with ``u``:
        ``potential`` (T+1,), ``potential_drop`` (T,), ``comparator_loss`` (T,)
        :math:`g_t^2`, ``claim_bound`` (T,).

    References
    ----------
    Theorem 1 of Princeton COS 511, lecture 18 (COS 511, lecture 18).
    """
    Xc = f64(as_matrix(X, "X", finite=False))          # finiteness: checked row by row in the loop
    yc = f64(as_labels(y, Xc.shape[0], "y", values=False))
    eta = _check_eta(eta)
    implicit = _check_update(update)
    if implicit and u is not None:
        raise StreamError.bad("u", "a comparator with update='implicit'",
                              "no u: Theorem 1's proof view is for the explicit rule")
    T = Xc.shape[0]
    rec = record_rounds(record, T)
    if u is not None and rec is not None:
        raise StreamError.bad("record", repr(record), "'every' with a comparator u (the proof view reads "
                              "every round's weights)")
    rec_ = np.arange(T + 1, dtype=np.int64) if rec is None else rec
    W = big_empty((rec_.shape[0], Xc.shape[1]))      # huge pages for a large table
    preds, losses = round_arrays((np.float64, T), (np.float64, T))
    bad = _rounds(Xc, yc, float(eta), implicit, rec_, W, preds, losses)
    reject(bad, lambda: (as_matrix(X, "X"), as_labels(y, T, "y")))
    freeze(W, preds, losses)
    residual = lambda: preds - yc                    # noqa: E731  (l_t = yhat_t - y_t, as the loop's)
    eager = {}
    if u is not None:
        q = _proof_from_weights(Xc, yc, W, residual(), eta, u)
        eager = {k: q[k] for k in ("residual", "potential", "potential_drop", "comparator_loss", "claim_bound")}
    return Trace(losses=losses, predictions=preds, weight_table=W, weight_rounds=rec,
                 extras=LazyExtras(eager, {"residual": residual}))


@njit
def _rounds(X, y, eta, implicit, rec, W, preds, losses):
    r"""Widrow-Hoff's rounds, compiled: writes the weights of the rounds ``rec`` into ``W``
    (``W[j]`` = :math:`\mathbf w` before round ``rec[j]``; ``rec = arange(T+1)`` for every round)
    and the predictions and squared errors (T,) into ``preds`` and ``losses``; returns ``bad``: -1, or the first row with a NaN/inf entry or label (the
    loop stops there).  ``implicit``: the step is divided by :math:`1 + \eta\|x_t\|^2`.

    The dot products are plain left-to-right sums, as the reference class's
    ``sums.dot(w, x, lanes=1)`` (:mod:`olcore._sums`): the contract test asks for its numbers bit for bit."""
    T, d = X.shape
    K = rec.shape[0]
    w = np.zeros(d)                                  # w_1 = 0
    j = 0
    bad = -1
    for t in range(T):
        if j < K and rec[j] == t:
            W[j] = w
            j += 1
        p = 0.0
        sq = 0.0
        for i in range(d):                           # yhat_t = w_t . x_t
            xi = X[t, i]                             # (not the view X[t]: its reference count costs)
            p += w[i] * xi
            sq += xi * xi                            # ||x_t||^2: NaN or inf iff an entry is (or it overflows)
        if not sq <= MAX_FLOAT and not finite_row_at(X, t):
            bad = t
            break
        if not abs(y[t]) <= MAX_FLOAT:
            bad = t
            break
        preds[t] = p
        ell = p - y[t]                               # l_t = w_t . x_t - y_t
        losses[t] = ell * ell
        step = eta * ell                             # w_{t+1} = w_t - eta (w_t . x_t - y_t) x_t
        if implicit:                                 #   ... / (1 + eta ||x_t||^2)
            step = step / (1.0 + eta * sq)
        for i in range(d):
            w[i] = w[i] - step * X[t, i]
    if bad < 0 and j < K:                            # rec ends with T: the final weights
        W[j] = w
    return bad


@kernel("widrow_hoff")
def _warm():
    for update in UPDATES:
        widrow_hoff(np.array([[1.0, 0.0], [0.0, -1.0]]), np.array([1.0, 0.5]), update=update)


def widrow_hoff_many(X, y, eta, history: bool = True) -> tuple[np.ndarray | None, np.ndarray]:
    r"""Widrow-Hoff on B streams (or B learning rates) at once.

    Used by the :math:`\eta` sweep, the online-to-batch experiment and the property
    tests.  Row ``b`` is ``widrow_hoff(X[b], y[b], eta[b])`` bit for bit: each row is a run of
    the same compiled loop.

    Parameters
    ----------
    X : array (B, T, d) or (T, d)
        One stream per row, or one stream shared by all B learning rates.
    y : array (B, T) or (T,)
    eta : float or array (B,)
    history : bool, default=True
        Whether to return the weight histories (B·(T+1)·d values: 52 MB for the sweep's 33 rates
        over 10^4 rounds at d = 20, which reads only the losses).

    Returns
    -------
    W : array (B, T+1, d), or None without ``history``
        Weight histories, ``W[b, 0] = 0``.
    losses : array (B, T)
        Squared errors :math:`(\hat y_t - y_t)^2`.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    eta = np.atleast_1d(np.asarray(eta, dtype=float))
    if eta.ndim != 1 or not np.all(np.isfinite(eta)) or np.any(eta <= 0):
        raise StreamError.bad("eta", f"{eta!r}", "positive finite learning rate(s)")
    shared = X.ndim == 2
    if shared:
        B = eta.size
        if y.shape != X.shape[:1]:
            raise StreamError.bad("X, y", f"shapes {X.shape} and {y.shape}", "(T, d) and (T,)")
    elif X.ndim != 3 or y.shape != X.shape[:2]:
        raise StreamError.bad("X, y", f"shapes {X.shape} and {y.shape}", "(B, T, d) and (B, T)")
    else:
        B = X.shape[0]
    T, d = X.shape[-2:]
    if eta.size == 1:
        eta = np.full(B, eta[0])
    if eta.size != B:
        raise StreamError.bad("eta", f"{eta.size} values", f"1 or B = {B}")
    rec = np.arange(T + 1, dtype=np.int64) if history else np.zeros(0, dtype=np.int64)
    W = np.zeros((B, T + 1, d)) if history else None
    losses = np.empty((B, T))
    preds = np.empty(T)
    Xs, ys = (f64(X), f64(y)) if shared else (None, None)
    for b in range(B):
        Xb, yb = (Xs, ys) if shared else (f64(X[b]), f64(y[b]))
        Wb = W[b] if history else np.empty((0, d))
        if _rounds(Xb, yb, float(eta[b]), False, rec, Wb, preds, losses[b]) >= 0:
            raise StreamError.bad("X, y", "NaN or inf", "finite numbers")
    return W, losses


class WidrowHoff:
    r"""Widrow-Hoff, one round at a time, line by line as in the notes (the reference path).

    ::

        Initialize w_1 = 0;  choose eta > 0
        for t = 1..T:   get x_t;  predict yhat_t = w_t . x_t;  observe y_t
                        update w_{t+1} = w_t - eta (w_t . x_t - y_t) x_t

    Parameters
    ----------
    d : int
        Dimension of :math:`\mathbf{x}_t`.
    eta : float, default=0.1
        Learning rate, :math:`\eta > 0`.
    update : {"explicit", "implicit"}, default="explicit"
        ``"implicit"``: Motivation 2 solved exactly,
        ``w_{t+1} = w_t - eta (w_t . x_t - y_t) x_t / (1 + eta ||x_t||^2)``.

    >>> wh = WidrowHoff(1, eta=1.0, update="implicit")
    >>> wh.update([1.0], 2.0)            # residual -2, step 1 * (-2) / (1 + 1)
    4.0
    >>> wh.w.tolist()                    # the explicit rule would jump to 2.0
    [1.0]
    """

    def __init__(self, d: int, eta: float = 0.1, update: str = "explicit") -> None:
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
            raise StreamError.bad("d", repr(d), "a whole number >= 1")
        self.eta = _check_eta(eta)
        self.implicit = _check_update(update)
        self.w = np.zeros(int(d))            # Initialize w_1 = 0
        self.residual: float | None = None   # the last round's l_t = w_t . x_t - y_t

    def predict(self, x) -> float:
        """:math:`\\hat y_t = \\mathbf{w}_t \\cdot \\mathbf{x}_t`."""
        return sums.dot(self.w, x, lanes=1)  # Predict yhat_t = w_t . x_t (left to right, as the loop)

    def update(self, x, y: float) -> float:
        """Observe :math:`y_t`, update, and return the round's loss :math:`(\\hat y_t - y_t)^2`."""
        x = np.asarray(x, dtype=float)
        y_hat = self.predict(x)
        ell = y_hat - float(y)               # l_t = w_t . x_t - y_t
        self.residual = ell
        step = self.eta * ell
        if self.implicit:                    # argmin eta (w . x_t - y_t)^2 + ||w - w_t||^2
            step = step / (1.0 + self.eta * sums.dot(x, x, lanes=1))
        self.w = self.w - step * x           # w_{t+1} = w_t - eta (w_t . x_t - y_t) x_t [/ (1 + eta ||x_t||^2)]
        return ell * ell


def proof_quantities(X, y, eta: float, u, trace: Trace | None = None) -> dict[str, np.ndarray | float]:
    r"""Every term of Theorem 1's potential proof for a fixed comparator :math:`\mathbf{u}`.

    .. math::

        \Phi_t = \|\mathbf{w}_t - \mathbf{u}\|_2^2,\quad
        \ell_t = \mathbf{w}_t\cdot\mathbf{x}_t - y_t,\quad
        g_t = \mathbf{u}\cdot\mathbf{x}_t - y_t,\quad
        \Phi_{t+1} - \Phi_t \le -\eta\,\ell_t^2 + \tfrac{\eta}{1-\eta} g_t^2 .

    Parameters
    ----------
    X : array (T, d)
    y : array (T,)
    eta : float
        In (0, 1) for the claim to be meaningful.
    u : array (d,)
    trace : Trace, default=None
        A Widrow-Hoff trace of this stream and ``eta`` (computed if not given).

    Returns
    -------
    dict with ``potential`` (T+1,) :math:`\Phi_1..\Phi_{T+1}`; ``potential_drop`` (T,)
    :math:`\Phi_{t+1}-\Phi_t`; ``residual`` (T,) :math:`\ell_t`; ``comparator_residual``
    (T,) :math:`g_t`; ``comparator_loss`` (T,) :math:`g_t^2`; ``claim_bound`` (T,)
    :math:`-\eta\ell_t^2 + \frac{\eta}{1-\eta}g_t^2`; ``exact_drop`` (T,), line (6) of
    the proof, :math:`-2\eta\ell_t(\mathbf{w}_t\cdot\mathbf{x}_t-\mathbf{u}\cdot\mathbf{x}_t)
    + \eta^2\ell_t^2\|\mathbf{x}_t\|^2`; and the telescoped totals ``L_wh``, ``L_u``,
    ``phi_1``, ``phi_end``.
    """
    X = as_matrix(X, "X")
    y = as_labels(y, X.shape[0], "y")
    eta = check_param(eta, "eta", 0, 1, lo_open=True, hi_open=True)
    if trace is None:
        trace = widrow_hoff(X, y, eta)
    W = trace.weights
    resid = np.asarray(trace.predictions, dtype=float) - y
    return _proof_from_weights(X, y, W, resid, eta, u)


def _proof_from_weights(X, y, W, resid, eta, u) -> dict:
    eta = check_param(eta, "eta", 0, 1, lo_open=True, hi_open=True)
    u = np.asarray(u, dtype=float).reshape(-1)
    if u.shape != (X.shape[1],) or not np.isfinite(u).all():
        raise StreamError.bad("u", f"shape {u.shape}", f"a finite vector of length d = {X.shape[1]}")
    D = W - u
    phi = np.einsum("td,td->t", D, D)
    g = X @ u - y
    claim = -eta * resid**2 + eta / (1.0 - eta) * g**2
    wx = np.einsum("td,td->t", W[:-1], X)
    exact = -2 * eta * resid * (wx - X @ u) + eta**2 * resid**2 * np.einsum("td,td->t", X, X)
    return {
        "potential": phi,
        "potential_drop": np.diff(phi),
        "residual": resid,
        "comparator_residual": g,
        "comparator_loss": g**2,
        "claim_bound": claim,
        "exact_drop": exact,
        "L_wh": float(np.sum(resid**2)),
        "L_u": float(np.sum(g**2)),
        "phi_1": float(phi[0]),
        "phi_end": float(phi[-1]),
    }


def to_unit_ball(X) -> tuple[np.ndarray, float]:
    r"""Rescale a stream so that :math:`\max_t \|\mathbf{x}_t\|_2 = 1` (when it exceeds 1).

    Dividing every :math:`\mathbf{x}_t` by :math:`R = \max_t\|\mathbf{x}_t\|` makes
    Theorem 1 apply; the comparator :math:`\mathbf{u}` becomes :math:`R\mathbf{u}`
    (same predictions), so :math:`\|\mathbf{u}\|^2` in the bound grows by :math:`R^2`.

    Returns
    -------
    X_scaled : array (T, d)
    R : float
        The factor divided by (1.0 when the stream already lies in the unit ball).
    """
    X = as_matrix(X, "X")
    R = float(np.sqrt(np.max(np.einsum("td,td->t", X, X))))
    if R <= 1.0:
        return X, 1.0
    return X / R, R
