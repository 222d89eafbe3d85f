r"""Hedge (HA-1 expected loss, HA-2 sampled play): exponential weights on loss vectors.

Notes
-----
On each trial the learner plays an allocation :math:`v_t \in \Delta_n`, nature returns a
loss vector :math:`\ell_t \in [0,1]^n`, and

.. math::

    L_{HA} \mathrel{+}= v_t \cdot \ell_t, \qquad
    v_{t+1,i} = \frac{v_{t,i}\, e^{-\eta \ell_{t,i}}}{\sum_{j} v_{t,j}\, e^{-\eta \ell_{t,j}}} .

HA-2 samples :math:`\hat y_t \sim v_t` and suffers :math:`\ell_{t,\hat y_t}`, whose
expectation is :math:`v_t\cdot\ell_t`.  The proof's per-round inequality is

.. math::

    v_t\cdot\ell_t - u\cdot\ell_t \le \frac1\eta\big(d(u,v_t) - d(u,v_{t+1})\big)
        + \frac\eta2 \sum_i v_{t,i}\ell_{t,i}^2 ,

which telescopes to :math:`\mathbb E[L_{HA}] - \min_i L_i \le \frac{\ln n}{\eta} + \frac{\eta m}{2}`;
with :math:`\eta = \sqrt{2\ln n / m}`,

.. math::

    \mathbb E[L_{HA}(S)] - \min_i L_i(S) \le \sqrt{2 m \ln n} .

**Losses in** :math:`[0, B]` (the notes ask how to prove a theorem then): run at
:math:`\eta/B`, i.e. :math:`v_{t+1,i} \propto v_{t,i} e^{-\eta\ell_{t,i}/B}`.  These are the
weights of Hedge at :math:`\eta` on :math:`\ell/B \in [0,1]`, whose regret is :math:`1/B` of the
regret on :math:`\ell`, so the regret is at most :math:`B(\ln n/\eta + \eta m/2)`, i.e.
:math:`B\sqrt{2m\ln n}` at :math:`\eta^*` (:func:`olcore.bounds.hedge` with ``B``).

References
----------
UCL COMP0078, Online learning ("The Hedge Algorithm (HA)",
"Hedge - Theorem" [LW94, FS97] and its two-part proof).
"""

from __future__ import annotations

import numpy as np

from ..trace import LazyArray, Trace
from ..errors import StreamError
from ..validate import as_matrix, check_int, check_param, check_seed, check_values
from ..jit import big_empty, bits_float, exp_lanes, f64, float_bits, kernel, njit
from ..stream import _check_size as check_size
from ._common import expert_stream, frozen, normalise_log, record_rounds

__all__ = ["hedge", "hedge_many", "Hedge"]


def _losses_in_range(L, B: float) -> np.ndarray:
    """``L`` as a C-contiguous float64 (T, n) array with every entry in [0, B] (else a StreamError)."""
    A = as_matrix(L, "L")
    bad = (A < 0) | (A > B)
    if bad.any():
        r, c = (int(i) for i in np.argwhere(bad)[0])
        raise StreamError.bad("L", f"{A[r, c]:g} at row {r + 1}, column {c + 1}", f"losses in [0, B] = [0, {B:g}]")
    return np.ascontiguousarray(A, dtype=np.float64)


def hedge(L, eta: float = 0.1, seed: int = 0, record="every", B: float = 1.0) -> Trace:
    r"""Run Hedge on a whole loss matrix (one loop compiled with numba, in the log domain).

    Parameters
    ----------
    L : array (T, n) in [0, B]
        ``L[t, i]`` is expert ``i``'s loss in round ``t``; an entry outside :math:`[0, B]` is a
        ``StreamError``.
    eta : float, default=0.1
        Learning rate :math:`\eta > 0` (:func:`olcore.bounds.hedge_eta` gives the tuned one);
        the update uses :math:`\eta/B`.
    seed : int, default=0
        Seed of the HA-2 play: one uniform :math:`u_t` per round from
        ``np.random.default_rng(seed)``; :math:`\hat y_t = \min\{i: \sum_{j\le i} v_{t,j} > u_t\}`.
    record : "every", "final" or int, default="every"
        Which rounds' allocations the trace keeps: every round (the contract), the final
        one only, or every ``record``-th round and the last (``trace.recorded_rounds``).
        With T = 10^5 and n = 10^3, ``"every"`` is an 800 MB table.
    B : float, default=1.0
        The loss range :math:`[0, B]`; Hedge runs at :math:`\eta/B` (the weights of Hedge at
        :math:`\eta` on :math:`\ell/B`).  :math:`B = 1` is the notes' algorithm.

    Returns
    -------
    Trace
        ``losses`` (T,) the HA-1 expected loss :math:`v_t\cdot\ell_t`; ``predictions`` (T,)
        the HA-2 sampled expert :math:`\hat y_t`; ``weights`` (T+1, n) the allocations
        :math:`v_t`; ``expert_losses`` = ``L``; ``extras``: ``sampled_loss`` (T,)
        :math:`\ell_{t,\hat y_t}`, ``second_moment`` (T,) :math:`\sum_i v_{t,i}(\ell_{t,i}/B)^2`
        (the proof's term, on the rescaled losses),
        ``rel_entropy`` (T+1,) :math:`d(e_{i^*}, v_t) = -\ln v_{t,i^*}` for the best expert
        in hindsight :math:`i^*` (lowest index on ties) and ``best`` (:math:`i^*`).
    """
    B = check_param(B, "B", 0.0, None, lo_open=True)
    eta = check_param(eta, "eta", 0.0, None, lo_open=True)
    A = _loss_matrix(L, B)
    rng = np.random.default_rng(check_seed(seed))
    T, n = A.shape
    rec = record_rounds(record, T)
    u = rng.random(T)
    Lk = f64(A)                    # read-only view (one compiled signature whatever the caller passed)
    fresh = not (isinstance(L, np.ndarray) and np.may_share_memory(Lk, L))
    shared = fresh or not _writable_anywhere(Lk)   # else the caller could change it under the trace
    # a writable input is copied by the loop: as int8 while its losses are whole numbers (an
    # eighth of the bytes; the trace makes the float64 expert_losses from it when first read)
    whole = not shared and B < 128 and T > 0 and bool(np.all(Lk[0] == np.floor(Lk[0])))
    out = big_empty((T, n)) if not shared and not whole else np.empty((0, 0))
    snap = big_empty((T, n), np.int8) if whole else np.empty((0, 0), np.int8)
    rec_ = np.arange(T + 1) if rec is None else rec
    W = big_empty((rec_.shape[0], n))                 # huge pages for a large table
    expected, second, chosen, log_total, S, out, bad = _rounds(Lk, eta / B, float(B), u, rec_, out, snap, W)
    if bad >= 0:
        _bad_losses(L, B, bad)
    if shared:
        Lt = frozen(Lk)
    elif out.shape[0] == T:
        Lt = frozen(out)
    else:
        Lt = LazyArray((T, n), _as_float64, frozen(snap))
    second = second / (B * B)
    best = int(np.argmin(S))
    S_best = np.zeros(T + 1)
    np.cumsum(Lk[:, best], out=S_best[1:])
    rel = -(-(eta / B) * S_best - log_total)          # d(e_best, v_t) = -ln v_{t,best}
    return Trace(losses=frozen(expected), predictions=frozen(chosen), weight_table=frozen(W), weight_rounds=rec,
                 expert_losses=Lt,
                 extras={"sampled_loss": Lk[np.arange(T), chosen], "second_moment": second,
                         "rel_entropy": rel, "best": np.array(best)})


def hedge_many(L, etas, seed: int = 0, B: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    r"""Hedge on one loss matrix at several learning rates: each run's HA-1 and HA-2 losses only.

    .. math::

        \mathtt{losses}_{j,t} = v^{(j)}_t\cdot\ell_t, \qquad
        \mathtt{sampled\_loss}_{j,t} = \ell_{t,\hat y^{(j)}_t}, \qquad
        v^{(j)}_{t,i} \propto e^{-\eta_j \sum_{s<t} \ell_{s,i}/B} .

    Used by the :math:`\eta` sweep, which reads one number per run.  Row ``j`` is
    ``hedge(L, etas[j], seed, B=B)`` bit for bit: a run of the same compiled loop on the same
    draws :math:`u_t` (one seed for every rate), without the trace's weight table, copy of ``L``
    and proof extras.

    Parameters
    ----------
    L : array (T, n) in [0, B]
        As for :func:`hedge`; an entry outside :math:`[0, B]` is a ``StreamError``.
    etas : float or array (P,)
        Learning rates :math:`\eta_j > 0`; run ``j`` updates with :math:`\eta_j/B`.
    seed : int, default=0
        Seed of the HA-2 draws, shared by every rate (as ``hedge(L, eta_j, seed)`` draws them).
    B : float, default=1.0
        The loss range, as for :func:`hedge`.

    Returns
    -------
    losses : array (P, T)
        The HA-1 expected losses :math:`v_t\cdot\ell_t` of each run (``hedge(...).losses``).
    sampled_loss : array (P, T)
        The HA-2 losses :math:`\ell_{t,\hat y_t}` (``hedge(...).extras["sampled_loss"]``).
    """
    B = check_param(B, "B", 0.0, None, lo_open=True)
    etas = np.atleast_1d(check_values(etas, "eta", 0.0, None, lo_open=True))
    if etas.ndim != 1 or etas.size == 0:
        raise StreamError.bad("etas", f"shape {etas.shape}", "one or more learning rates, shape (P,)")
    etas = etas.tolist()
    A = _loss_matrix(L, B)
    T, n = A.shape
    u = np.random.default_rng(check_seed(seed)).random(T)
    Lk = f64(A)
    rec, out, snap, W = np.zeros(0, np.int64), np.empty((0, 0)), np.empty((0, 0), np.int8), np.empty((0, n))
    losses = np.empty((len(etas), T))
    sampled = np.empty((len(etas), T))
    rows = np.arange(T)
    for j, eta in enumerate(etas):
        expected, _, chosen, _, _, _, bad = _rounds(Lk, eta / B, float(B), u, rec, out, snap, W)
        if bad >= 0:
            _bad_losses(L, B, bad)
        losses[j] = expected
        sampled[j] = Lk[rows, chosen]
    return frozen(losses), frozen(sampled)


def _loss_matrix(L, B: float) -> np.ndarray:
    """``L`` as a matrix (its ranges are checked entry by entry in the loop)."""
    A = as_matrix(L, "X" if B == 1.0 else "L", finite=False)
    if B == 1.0:
        check_size(*A.shape)
    return A


def _bad_losses(L, B: float, bad: int):
    """Raise for the loss matrix the loop stopped on at row ``bad``: the full checks name its first bad
    entry, else the row."""
    if B == 1.0:
        expert_stream("losses", np.array(L, copy=True) if isinstance(L, np.ndarray) else L)
    else:
        _losses_in_range(L, B)
    raise StreamError.bad("L", f"bad losses in row {bad + 1}", f"losses in [0, {B:g}]")


def _as_float64(a: np.ndarray) -> np.ndarray:
    return a.astype(np.float64)


def _writable_anywhere(a: np.ndarray) -> bool:
    """Some array in ``a``'s chain of views is writable (its owner could change it later)."""
    while isinstance(a, np.ndarray):
        if a.flags.writeable:
            return True
        a = a.base
    return a is not None and type(a).__name__ != "_MemInfo" and not isinstance(a, bytes)


BLOCK = 64                                           # experts per block of the HA-2 prefix sums


@njit(fastmath=("reassoc", "nsz"))
def _row_check(L, t, B, w):
    r"""One pass over row ``t``: how many losses are in :math:`[0, B]` (NaN counts as bad), how many
    are not whole numbers, :math:`\sum_i w_i\ell_{t,i}` and :math:`\sum_i w_i\ell_{t,i}^2`.

    The two float sums are **reordered** (``fastmath`` reassociation: LLVM adds them in vector
    lanes), so they may differ from left-to-right sums in the last bits; the counts are exact."""
    good = 0
    frac = 0
    e = 0.0
    e2 = 0.0
    for i in range(L.shape[1]):
        li = L[t, i]
        good += (li >= 0.0) & (li <= B)
        frac += li != np.floor(li)
        wl = w[i] * li
        e += wl
        e2 += wl * li
    return good, frac, e, e2


@njit(fastmath=("reassoc", "nsz", "contract"))
def _add_losses(L, t, S, eta, m, w, bsum):
    r""":math:`S_i \mathrel{+}= \ell_{t,i}` and the next weights :math:`\tilde w_i = e^{-\eta S_i - m}`
    (:func:`olcore.jit.exp_lanes`), block by block, with the block sums of :math:`\tilde w` in
    ``bsum`` (**reordered** sums); returns :math:`\min_i S_i`.  The row must have been checked.

    The minimum is taken over the bits of :math:`S_i` as int64 (for floats :math:`\ge 0` they are
    in the same order as the values): a float minimum would keep LLVM from vectorising the loop."""
    n = S.shape[0]
    lo = float_bits(np.inf)
    for b in range(bsum.shape[0]):
        s = 0.0
        a = b * BLOCK
        for k in range(min(n - a, BLOCK)):           # (i = a + k: numba's range(a, z) is not vectorised)
            i = a + k
            si = S[i] + L[t, i]
            S[i] = si
            lo = min(lo, float_bits(si))
            wi = exp_lanes(-eta * si - m)
            w[i] = wi
            s += wi
        bsum[b] = s
    return bits_float(lo)


@njit(fastmath=("reassoc", "nsz", "contract"))
def _weights(S, eta, m, w, bsum):
    r"""The weights :math:`\tilde w_i = e^{-\eta S_i - m}` again (see :func:`_add_losses`)."""
    n = S.shape[0]
    for b in range(bsum.shape[0]):
        s = 0.0
        a = b * BLOCK
        for k in range(min(n - a, BLOCK)):
            i = a + k
            wi = exp_lanes(-eta * S[i] - m)
            w[i] = wi
            s += wi
        bsum[b] = s


@njit(fastmath=("reassoc", "nsz"))
def _block_total(bsum):
    Z = 0.0
    for b in range(bsum.shape[0]):
        Z += bsum[b]
    return Z


@njit
def _copy_row(L, t, out):
    for i in range(L.shape[1]):
        out[t, i] = L[t, i]


@njit
def _copy_row8(L, t, snap):
    for i in range(L.shape[1]):
        snap[t, i] = np.int8(L[t, i])


@njit
def _draw(w, bsum, thr):
    r"""HA-2: :math:`\#\{i : \tilde w_1 + \dots + \tilde w_i \le \mathit{thr}\}`, skipping whole
    blocks whose sum keeps the prefix at or below ``thr`` (the prefix sums never decrease)."""
    n = w.shape[0]
    c = 0.0
    for b in range(bsum.shape[0]):
        if c + bsum[b] <= thr:
            c += bsum[b]
            continue
        k = b * BLOCK
        for i in range(b * BLOCK, min(n, b * BLOCK + BLOCK)):
            c += w[i]
            if c <= thr:
                k += 1
            else:
                return k
        return k
    return n


@njit
def _rounds(L, eta, B, u, rec, out, snap, W):
    r"""Hedge's rounds, compiled, in the log domain: :math:`\ln w_{t,i} = -\eta S_{t,i}` with
    :math:`S_{t,i}` expert i's cumulative loss before round t, held as

    .. math::

        \tilde w_{t,i} = e^{\ln w_{t,i} - m_t},\quad m_t = -\eta \min_j S_{t-1,j},\qquad
        v_{t,i} = \tilde w_{t,i} \Big/ \sum_j \tilde w_{t,j},\quad
        \ln \textstyle\sum_i w_{t,i} = m_t + \ln \sum_j \tilde w_{t,j}

    (log-sum-exp, shifted by the best cumulative loss of the round before, which is known when
    the round's losses are added: so one pass per round adds the losses and makes the next
    weights; when that leaves the best weight below :math:`e^{-1}` (:math:`\eta` times the best
    expert's loss above 1) the weights are made again with the exact shift, so tiny weights do
    not underflow earlier than with the exact shift).  The exponentials are
    :func:`olcore.jit.exp_lanes` (within 1 ulp of libm's, computed four at a time).

    Each round is a few simple loops LLVM vectorises: the row's check and the sums
    :math:`\sum_i \tilde w_{t,i}\ell_{t,i}`, :math:`\sum_i \tilde w_{t,i}\ell_{t,i}^2`
    (:func:`_row_check`), the cumulative losses and the next weights with their sums by blocks of
    ``BLOCK`` experts (:func:`_add_losses`), and the HA-2 draw, which skips whole blocks
    (:func:`_draw`).  The sums :math:`W_t`, :math:`v_t\cdot\ell_t` and
    :math:`\sum_i v_{t,i}\ell_{t,i}^2` are **reordered** (``fastmath`` reassociation: added in
    vector lanes and by blocks), so they may differ from left-to-right sums in the last bits; the
    draw's prefix sums are the block sums, then left to right inside the block that decides.

    Checks every row before it uses it (losses in [0, B]; ``bad`` = the first bad row, else -1).
    When ``out`` has T rows, ``L`` is copied into it; when ``snap`` (int8) has T rows, ``L`` is
    copied into it while its losses are whole numbers, and at the first row that is not, ``L``
    is copied into a new float64 ``out`` from then on (the earlier rows from ``snap``).  Writes
    the allocations of the rounds ``rec`` into ``W``.  Returns the expected loss
    :math:`v_t\cdot\ell_t` (T,), :math:`\sum_i v_{t,i}\ell_{t,i}^2` (T,), the HA-2 choice (T,),
    :math:`\ln\sum_i w_{t,i}` (T+1,), the final :math:`S` (n,), ``out`` and ``bad``.
    """
    T, n = L.shape
    copy = out.shape[0] == T and T > 0
    copy8 = snap.shape[0] == T and T > 0 and not copy
    nb = (n + BLOCK - 1) // BLOCK
    S = np.zeros(n)                                  # cumulative losses: v_1 uniform
    w = np.ones(n)                                   # e^{ln w_{t,i} - m_t}
    bsum = np.empty(nb)
    for b in range(nb):
        bsum[b] = min(n, b * BLOCK + BLOCK) - b * BLOCK
    Z = float(n)
    m = 0.0
    shift = 0.0                                      # min_j S_{t,j}: the next round's m is -eta * shift
    expected = np.empty(T)
    second = np.empty(T)
    chosen = np.empty(T, dtype=np.int64)
    log_total = np.empty(T + 1)
    bad = -1
    j = 0
    for t in range(T + 1):
        log_total[t] = m + np.log(Z)                 # ln W_t
        if j < rec.shape[0] and rec[j] == t:
            for i in range(n):
                W[j, i] = w[i] / Z                   # v_t
            j += 1
        if t == T:
            break
        good, frac, e, e2 = _row_check(L, t, B, w)
        if good != n:                                # NaN, inf or outside [0, B]
            bad = t
            break
        chosen[t] = min(_draw(w, bsum, u[t] * Z), n - 1)   # HA-2: #{i : v_1 + ... + v_i <= u_t}
        expected[t] = e / Z                          # HA-1: v_t . l_t
        second[t] = e2 / Z
        if copy8 and frac:                           # the int8 copy ends here: float64 from now on
            out = np.empty((T, n))
            for r in range(t):
                for i in range(n):
                    out[r, i] = snap[r, i]
            copy = True
            copy8 = False
        if copy8:
            _copy_row8(L, t, snap)
        elif copy:
            _copy_row(L, t, out)
        m_next = -eta * shift                        # w_{t+1,i} = e^{-eta S_{t+1,i} - m_{t+1}}
        lo = _add_losses(L, t, S, eta, m_next, w, bsum)
        if eta * (lo - shift) > 1.0:                 # the best weight fell below e^{-1}: shift by the
            m_next = -eta * lo                       # best again, so small weights do not underflow
            _weights(S, eta, m_next, w, bsum)
        Z = _block_total(bsum)
        m = m_next
        shift = lo
    return expected, second, chosen, log_total, S, out, bad


@kernel("hedge")
def _warm():
    hedge(np.array([[0.0, 1.0], [0.5, 0.0]]), 0.5)


class Hedge:
    r"""Hedge, one round at a time (reference path; mirrors the HA-1/HA-2 boxes).

    A Hedge round has no input: the learner plays, then nature reveals the loss vector
    :math:`\ell_t`.  ``predict()`` draws the expert :math:`\hat y_t \sim v_t` (HA-2, one uniform
    draw, kept as ``chosen``); the allocation :math:`v_t` (HA-1) is ``weights``.
    ``update(None, loss)`` suffers :math:`v_t\cdot\ell_t`, applies the normalised multiplicative
    update and returns :math:`v_t\cdot\ell_t` (the drawn expert's loss is ``sampled_loss``).

    >>> h = Hedge(2, eta=1.0)
    >>> h.predict(), h.update(None, [0.0, 1.0])     # v_1 = (1/2, 1/2): suffer 1/2
    (1, 0.5)
    >>> h.sampled_loss, h.weights.round(3).tolist()
    (1.0, [0.731, 0.269])

    Parameters
    ----------
    n : int
    eta : float, default=0.1
    seed : int, default=0
    B : float, default=1.0
        Losses in :math:`[0, B]`; the update uses :math:`\eta/B`.
    """

    def __init__(self, n: int, eta: float = 0.1, seed: int = 0, B: float = 1.0) -> None:
        self.n = check_int(n, "n", 1)
        self.eta = check_param(eta, "eta", 0.0, None, lo_open=True)
        self.B = check_param(B, "B", 0.0, None, lo_open=True)
        self.rng = np.random.default_rng(check_seed(seed))
        self.logv = np.full(self.n, -np.log(self.n))       # v_1 = (1/n, ..., 1/n)
        self.chosen: int | None = None                      # the expert the last predict drew
        self.sampled_loss: float | None = None              # its loss, once revealed

    @property
    def weights(self) -> np.ndarray:
        """The allocation :math:`v_t \\in \\Delta_n` (HA-1)."""
        return np.exp(self.logv)

    def predict(self, x=None) -> int:
        """HA-2: draw the expert :math:`\\hat y_t \\sim v_t`.  The round has no input (``x`` is ignored)."""
        self.chosen = self.sample()
        return self.chosen

    def sample(self) -> int:
        """:math:`\\hat y_t \\sim v_t` (one uniform draw)."""
        u = self.rng.random()
        return min(int((np.cumsum(self.weights) <= u).sum()), self.n - 1)

    def update(self, x, y=None) -> float:
        r"""Nature reveals :math:`\ell_t` (``y``; ``x`` is None); suffer :math:`v_t\cdot\ell_t`, then
        :math:`v_{t+1,i} = v_{t,i} e^{-\eta\ell_{t,i}/B} / \sum_j v_{t,j} e^{-\eta\ell_{t,j}/B}`.
        Returns :math:`v_t\cdot\ell_t`.  ``update(loss)``, the loss vector alone, works too."""
        loss = np.asarray(x if y is None else y, dtype=float)
        suffered = float(self.weights @ loss)                           # HA-1: L_HA += v_t . l_t
        if self.chosen is not None:
            self.sampled_loss = float(loss[self.chosen])                # HA-2: the drawn expert's loss
        logw = self.logv - (self.eta / self.B) * loss
        _, log_z = normalise_log(logw)
        self.logv = logw - log_z
        return suffered
