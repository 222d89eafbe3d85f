r"""Weighted Majority (deterministic) and Randomized Weighted Majority.

Notes
-----
**Weighted Majority** (UCL notes).  Expert :math:`i` carries the weight
:math:`w_{t,i} = \beta^{M_{t,i}}` where :math:`M_{t,i}` is its number of mistakes before
trial :math:`t` (:math:`w_{1,i} = 1`, :math:`W_t = \sum_i w_{t,i}`).  The master predicts
the larger weighted vote (ties predict 1),

.. math::

    \hat y_t = \mathbf{1}\Big[\sum_{i: x_{t,i}=1} w_{t,i} \ \ge \sum_{i: x_{t,i}=0} w_{t,i}\Big],

and the weights of wrong experts are multiplied by :math:`\beta \in [0, 1)`
(:math:`\beta = 0` is Halving).  Since :math:`W_{t+1} \le \frac{1+\beta}{2} W_t` on a
mistake and :math:`W_{m+1} \ge \beta^{M_i}`,

.. math::

    \beta^{M_i} \le W_{m+1} \le n\Big(\frac{1+\beta}{2}\Big)^{M}
    \quad\Longrightarrow\quad
    M \le \frac{\ln\frac1\beta}{\ln\frac{2}{1+\beta}} M_i + \frac{1}{\ln\frac{2}{1+\beta}} \ln n ,

which for :math:`\beta = 1/e` reads :math:`M \le 2.63 \min_i M_i + 2.63 \ln n`.

**Randomized Weighted Majority** (CMU notes, Algorithm 2, with :math:`\eta = 1 - \beta`):
the same weights, but the master samples one expert :math:`I \sim w_t / \Phi_t` and
predicts its advice.  For :math:`\eta \le 1/2`,

.. math::

    \mathbb{E}[M] \le (1 + \eta)\, m^* + \frac{\ln N}{\eta} .

The CMU notes write the update as :math:`w \leftarrow w(1 - \eta\,\mathbf 1[\text{wrong}])`
with :math:`x, y \in \{-1, 1\}`; here, as in the UCL notes, :math:`x, y \in \{0, 1\}` and
the factor is :math:`\beta = 1 - \eta`.

References
----------
UCL COMP0078, Online learning ("Number of mistakes of the WM
algorithm"); CMU 16-831, Online linear classification (Algorithms 1 and 2 and the
RWMA bound :math:`\mathbb E[M] \le (1+\eta)m + \log N/\eta`).
"""

from __future__ import annotations

import numpy as np

from ..errors import StreamError
from ..trace import LazyArray, Trace
from ..validate import check_int, check_param, check_seed, check_values
from ..jit import big_empty, bits_float, exp_lanes, float_bits, kernel, njit
from ._common import advice_checks, advice_int8, frozen, log_beta_times, normalise_log, record_rounds

__all__ = ["weighted_majority", "randomized_weighted_majority", "weighted_majority_prefixes", "WeightedMajority",
           "RandomizedWeightedMajority"]


def _vote(w, x) -> int:
    """1 where the weight voting 1 is at least the weight voting 0 (ties predict 1).

    The sums run over the experts in order, as the notes write them; with weights in units of
    the best expert's (``beta**(M_i - min_j M_j)``) experts of equal weight tie exactly.
    """
    q1 = 0.0
    q0 = 0.0
    for w_i, x_i in zip(w, x):
        if x_i == 1:
            q1 += w_i
        else:
            q0 += w_i
    return int(q1 >= q0)


def weighted_majority(X, y, beta: float = 0.5, record="every") -> Trace:
    r"""Run deterministic Weighted Majority on a whole stream (one loop compiled with numba).

    Parameters
    ----------
    X : array (T, n) of {0, 1}
        Expert advice.
    y : array (T,) of {0, 1}
        Outcomes.
    beta : float, default=0.5
        Penalty factor :math:`\beta \in [0, 1)`; :math:`\beta = 0` is Halving.
    record : "every", "final" or int, default="every"
        Which rounds' weights the trace keeps: every round (the contract), the final
        weights only, or every ``record``-th round and the last (``trace.recorded_rounds``).

    Returns
    -------
    Trace
        ``predictions``, ``losses`` = ``mistakes`` (T,), ``weights`` (T+1, n) normalised
        :math:`w_t / W_t`, ``expert_losses`` (T, n) and, for the proof view, ``extras``
        (each (T+1,), entry ``t`` before round ``t``, the last after the final round):
        ``log_W`` :math:`\ln W_t`; ``log_W_lower`` :math:`\ln \beta^{\min_i M_{t,i}}`
        (the lower bound :math:`W_t \ge \beta^{M_{t,i}}` for the best expert so far);
        ``log_W_upper`` :math:`\ln n + M_t \ln\frac{1+\beta}{2}` with :math:`M_t` the
        master's mistakes so far.
    """
    Xi, yi = advice_int8(X, y)
    beta = check_param(beta, "beta", 0.0, 1.0, hi_open=True)
    T, n = Xi.shape
    rec = record_rounds(record, T)
    W, EL, rec_ = _outputs(rec, T, n)
    pred, mistakes, losses, _, _, log_W, best_M, bad = _rounds(Xi, yi, beta, _log(beta), np.empty(0), rec_, W, EL)
    if bad >= 0:
        advice_checks(X, y)
    M_master = np.concatenate([[0], np.cumsum(mistakes)])
    log_lower = log_beta_times(best_M, beta)
    log_upper = np.log(n) + M_master * np.log((1 + beta) / 2)
    return Trace(losses=frozen(losses), predictions=frozen(pred), weight_table=frozen(W),
                 weight_rounds=rec, mistakes=frozen(mistakes), expert_losses=_lazy_losses(EL),
                 extras={"log_W": log_W, "log_W_lower": log_lower, "log_W_upper": log_upper})


def randomized_weighted_majority(X, y, beta: float = 0.5, seed: int = 0, record="every") -> Trace:
    r"""Run Randomized Weighted Majority on a whole stream (one loop compiled with numba).

    In round ``t`` one uniform :math:`u_t` is drawn from ``np.random.default_rng(seed)``
    and the expert :math:`I_t = \min\{i : \sum_{j \le i} v_{t,j} > u_t\}` is followed.

    Parameters
    ----------
    X : array (T, n) of {0, 1}
    y : array (T,) of {0, 1}
    beta : float, default=0.5
        :math:`\beta = 1 - \eta \in (0, 1)`; the CMU bound needs :math:`\beta \ge 1/2`.
    seed : int, default=0
    record : "every", "final" or int, default="every"
        Which rounds' weights the trace keeps (see :func:`weighted_majority`).

    Returns
    -------
    Trace
        ``predictions`` (the sampled expert's advice), ``losses`` = ``mistakes`` (T,) the
        realised mistakes, ``weights`` (T+1, n), ``expert_losses`` and ``extras``:
        ``expected_loss`` (T,) :math:`v_t \cdot \mathbf 1[x_t \ne y_t]` and ``chosen`` (T,)
        the sampled expert :math:`I_t`.
    """
    Xi, yi = advice_int8(X, y)
    beta = check_param(beta, "beta", 0.0, 1.0, lo_open=True, hi_open=True)
    rng = np.random.default_rng(check_seed(seed))
    T, n = Xi.shape
    rec = record_rounds(record, T)
    u = rng.random(T)
    W, EL, rec_ = _outputs(rec, T, n)
    pred, mistakes, losses, chosen, expected, _, _, bad = _rounds(Xi, yi, beta, _log(beta), u, rec_, W, EL)
    if bad >= 0:
        advice_checks(X, y)
    return Trace(losses=frozen(losses), predictions=frozen(pred), weight_table=frozen(W),
                 weight_rounds=rec, mistakes=frozen(mistakes), expert_losses=_lazy_losses(EL),
                 extras={"expected_loss": frozen(expected), "chosen": frozen(chosen)})


def weighted_majority_prefixes(X, y, horizons, betas) -> tuple[np.ndarray, np.ndarray]:
    r"""Deterministic WM re-run on the first :math:`h_k` rounds at :math:`\beta_k`, for each ``k``: its
    mistakes and its expected loss only.

    .. math::

        M_k = \sum_{t \le h_k} [\hat y_t \ne y_t], \qquad
        E_k = \sum_{t \le h_k} v_t \cdot \mathbf 1[x_t \ne y_t],
        \qquad v_{t,i} \propto \beta_k^{M_{t,i}} .

    :math:`v_t\cdot\mathbf 1[x_t \ne y_t]` is also the probability that Randomized WM with the same
    :math:`\beta_k > 0` errs in round :math:`t` (it has WM's weights), so :math:`E_k` is RWM's expected
    number of mistakes, whatever its seed.  Used to re-run WM and RWM with a rate tuned to each
    horizon.  Bit for bit, ``M[k]`` is ``weighted_majority(X[:h], y[:h], b).n_mistakes`` and (for
    :math:`b > 0`) ``E[k]`` is ``np.sum(randomized_weighted_majority(X[:h], y[:h], b, seed).extras["expected_loss"])``
    (``h, b = horizons[k], betas[k]``): runs of the same compiled loop on the prefixes, without
    their traces.

    Parameters
    ----------
    X : array (T, n) of {0, 1}
    y : array (T,) of {0, 1}
        Checked whole, also past the longest horizon.
    horizons : array (K,) of whole numbers in 1..T
    betas : array (K,) in [0, 1)

    Returns
    -------
    M : int array (K,)
    E : float array (K,)
    """
    Xi, yi = advice_int8(X, y)
    T, n = Xi.shape
    H = np.atleast_1d(check_values(horizons, "horizons", 1, T, integer=True))
    bs = np.atleast_1d(check_values(betas, "beta", 0.0, 1.0, hi_open=True))
    if H.ndim != 1 or bs.shape != H.shape:
        raise StreamError.bad("horizons, betas", f"shapes {H.shape} and {bs.shape}", "(K,) and (K,)")
    H, bs = H.astype(np.int64).tolist(), bs.tolist()
    top = max(H, default=0)                          # the runs check rows 1..top as they read them
    if not (_binary_entries(Xi[top:]) and _binary_entries(yi[top:])):
        advice_checks(X, y)
    rec, W, EL, u = np.zeros(0, np.int64), np.empty((0, n)), np.empty((T, n), np.int8), np.empty(0)
    M = np.empty(len(H), dtype=np.int64)
    E = np.empty(len(H))
    for k, (h, beta) in enumerate(zip(H, bs)):
        _, mistakes, _, _, expected, _, _, bad = _rounds(Xi[:h], yi[:h], beta, _log(beta), u, rec, W, EL)
        if bad >= 0:
            advice_checks(X, y)
        M[k] = int(mistakes.sum())
        E[k] = np.sum(expected)
    return frozen(M), frozen(E)


def _binary_entries(a: np.ndarray) -> bool:
    return not ((a != 0) & (a != 1)).any()


def _outputs(rec, T: int, n: int):
    """The weight table (allocated by numpy: huge pages for large arrays, see
    :func:`olcore.jit.big_empty`) and the experts' 0/1 losses as int8 (an eighth of the bytes of
    float64; the trace makes its float64 ``expert_losses`` from them when first read)."""
    rec_ = np.arange(T + 1) if rec is None else rec
    return big_empty((rec_.shape[0], n)), big_empty((T, n), np.int8), rec_


def _as_float64(a: np.ndarray) -> np.ndarray:
    return a.astype(np.float64)


def _lazy_losses(EL: np.ndarray) -> LazyArray:
    return LazyArray(EL.shape, _as_float64, frozen(EL))


def _log(beta: float) -> float:
    return float(np.log(beta)) if beta > 0 else -np.inf


_EPS = float(np.finfo(float).eps)


@njit(fastmath=("reassoc", "nsz", "contract"))
def _pass(X, t, yt, M, lo, log_beta, alive, w, EL):
    r"""One round's pass over the experts, in vector lanes: the weights
    :math:`\tilde w_i = \beta^{M_i - \min_j M_j} = e^{(M_i - \min_j M_j)\ln\beta}`
    (:func:`olcore.jit.exp_lanes`; ``log_beta`` is :math:`-10^{300}` for :math:`\beta = 0`, so the
    best experts get :math:`e^{0} = 1` and the others 0; every weight is 0 when ``alive`` is 0) into
    ``w``; the sums :math:`\sum_i \tilde w_i`, the votes :math:`\sum_{x_i=1}\tilde w_i`,
    :math:`\sum_{x_i=0}\tilde w_i` and :math:`\sum_i \tilde w_i [x_i \ne y_t]`, all **reordered**
    (``fastmath`` reassociation); the experts' 0/1 losses into ``EL[t]`` and the mistake counts
    :math:`M_i \mathrel{+}= [x_{t,i} \ne y_t]` (held as float64: whole numbers, exact, and in lanes).
    Returns the number of entries not 0 or 1, the four sums, and the new :math:`\min_i M_i` and
    :math:`\max_i M_i` (taken over the bits of the counts as int64, in the same order as the
    values since they are :math:`\ge 0`: a float minimum would keep LLVM from vectorising)."""
    n = M.shape[0]
    bad = 0
    Z = 0.0
    q1 = 0.0
    q0 = 0.0
    e = 0.0
    new_lo = float_bits(np.inf)
    hi = np.int64(0)
    for i in range(n):
        x = X[t, i]
        bad += (x != 0) & (x != 1)
        wi = alive * exp_lanes((M[i] - lo) * log_beta)
        w[i] = wi
        Z += wi
        one = 1.0 if x == 1 else 0.0                 # products with 0 and 1 are exact
        q1 += wi * one
        q0 += wi - wi * one
        err = x != yt
        errf = 1.0 if err else 0.0
        e += wi * errf
        EL[t, i] = err
        Mi = M[i] + errf
        M[i] = Mi
        bits = float_bits(Mi)
        new_lo = min(new_lo, bits)
        hi = max(hi, bits)
    return bad, Z, q1, q0, e, bits_float(new_lo), bits_float(hi)


@njit
def _exact_vote(X, t, yt, M, lo, beta, ex):
    r"""The vote as the notes (and :class:`WeightedMajority`) add it: :math:`\beta^{M_i - \min_j M_j}`
    by ``**``, summed left to right over the experts voting 1 and over those voting 0; ties predict
    1.  ``M`` already holds the counts after round ``t`` (the round's mistakes are taken back)."""
    q1 = 0.0
    q0 = 0.0
    for i in range(M.shape[0]):
        x = X[t, i]
        k = int(M[i] - lo) - (x != yt)
        if ex[k] < 0.0:
            ex[k] = beta ** k
        if x == 1:
            q1 += ex[k]
        else:
            q0 += ex[k]
    return 1 if q1 >= q0 else 0


@njit
def _rounds(X, y, beta, log_beta, u, rec, W, EL):
    r"""(Randomized) Weighted Majority's rounds, compiled, in the log domain.

    :math:`\ln w_{t,i} = M_{t,i} \ln\beta` (0 while :math:`M_{t,i} = 0`, so :math:`\beta = 0`
    works).  ``X`` (T, n) and ``y`` (T,) are 0/1 int8, checked as they are read.  One pass per
    round in vector lanes (:func:`_pass`) takes the weights in units of the best expert's,
    :math:`W_t`, the votes, the expected loss and the experts' losses, and counts the mistakes.

    The vote: the pass's sums are reordered and its weights are :math:`e^{k\ln\beta}`, not
    :math:`\beta^k`, so they may differ from the notes' left-to-right sums of :math:`\beta^k` by at
    most ``tol`` below (each sum of n terms by :math:`n\epsilon` of the total, each weight by
    :math:`2\epsilon(k|\ln\beta| + 2)`).  When the two votes differ by more than ``tol`` that
    decides the prediction exactly as the notes' sums would; otherwise (exact ties, which
    0/1 streams make often, and near-ties) the vote is taken again left to right with
    :math:`\beta^k` (:func:`_exact_vote`), so predictions agree with the reference class bit for bit.

    Returns the prediction (T,) (the weighted vote, or with ``u`` the sampled expert's
    advice; ties predict 1), the mistakes (bool) and 0/1 losses (T,), the expert sampled with ``u``
    (T,), the expected loss :math:`v_t\cdot\mathbf 1[x_t\ne y_t]` (T,), :math:`\ln W_t` (T+1,),
    :math:`\min_i M_{t,i}` (T+1,) and ``bad``; writes the weights of the rounds ``rec`` into ``W``
    and the experts' 0/1 losses into ``EL`` (T, n) int8; ``bad`` (the first row with an entry not 0
    or 1, else -1).
    """
    T, n = X.shape
    M = np.zeros(n)                                  # M_{1,i} = 0: w_{1,i} = 1 (whole numbers)
    pred = np.empty(T, dtype=np.int8)
    mistakes = np.empty(T, dtype=np.bool_)
    losses = np.empty(T)
    chosen = np.zeros(T, dtype=np.int64)
    expected = np.zeros(T)
    log_W = np.empty(T + 1)
    best_M = np.zeros(T + 1, dtype=np.int64)
    sample = u.shape[0] == T
    w = np.empty(n)                                  # w_{t,i} / max_j w_{t,j}
    ex = np.full(T + 1, -1.0)                        # beta^k, made when an exact vote needs it
    spread = 0.0 if beta == 0.0 else -log_beta       # |ln beta| (weights exactly 0 or 1 when beta = 0)
    lb = max(log_beta, -1e300)                       # beta = 0: e^{k lb} is 1 for k = 0, else 0
    lo = 0.0                                         # min_i M_{t,i}
    hi = 0.0                                         # max_i M_{t,i}
    bad = -1
    j = 0
    for t in range(T + 1):
        top = 0.0 if lo == 0 else lo * log_beta      # max_i ln w_{t,i} (the best expert)
        dead = top == -np.inf                        # beta = 0 and every expert wrong once: w_t = 0
        alive = 0.0 if dead else 1.0
        keep = j < rec.shape[0] and rec[j] == t
        if t == T:                                   # the final weights
            Z = 0.0
            if not dead:
                for i in range(n):
                    wi = exp_lanes((M[i] - lo) * lb)
                    w[i] = wi
                    Z += wi
            log_W[t] = top + np.log(Z) if not dead else -np.inf
            if keep:
                for i in range(n):
                    W[j, i] = 0.0 if dead else w[i] / Z
            break
        yt = y[t]
        if yt != 0 and yt != 1:
            bad = t
            break
        nbad, Z, q1, q0, e, new_lo, new_hi = _pass(X, t, yt, M, lo, lb, alive, w, EL)
        if nbad:
            bad = t
            break
        log_W[t] = top + np.log(Z) if not dead else -np.inf
        if keep:
            if dead:
                for i in range(n):
                    W[j, i] = 0.0
            else:
                for i in range(n):                   # v_t = w_t / W_t
                    W[j, i] = w[i] / Z
            j += 1
        if sample:                                   # RWM: I_t = #{i : v_1 + ... + v_i <= u_t}
            c = 0.0
            k = n                                    # every weight 0: every prefix sum is 0 <= u_t
            if not dead:
                k = 0
                for i in range(n):
                    c += w[i] / Z
                    if c <= u[t]:
                        k += 1
                    else:
                        break                        # the prefix sums never decrease
            chosen[t] = min(k, n - 1)
            p = X[t, chosen[t]]
        elif dead:
            p = 1                                    # 0 against 0: a tie
        else:
            tol = Z * (4.0 * (n + 2) * _EPS + 4.0 * _EPS * ((hi - lo) * spread + 2.0))
            if q1 - q0 > tol:
                p = 1
            elif q0 - q1 > tol:
                p = 0
            else:                                    # a tie or nearly: the notes' sums decide
                p = _exact_vote(X, t, yt, M, lo, beta, ex)
        pred[t] = p
        mistakes[t] = p != yt
        losses[t] = 1.0 if p != yt else 0.0
        expected[t] = 0.0 if dead else e / Z
        best_M[t + 1] = int(new_lo)
        lo = new_lo
        hi = new_hi
    return pred, mistakes, losses, chosen, expected, log_W, best_M, bad


@kernel("weighted_majority")
def _warm():
    weighted_majority(np.array([[1, 0], [1, 1]]), np.array([1, 0]))
    randomized_weighted_majority(np.array([[1, 0], [1, 1]]), np.array([1, 0]))


class WeightedMajority:
    r"""Weighted Majority, one round at a time (reference path; mirrors the UCL notes).

    Keeps each expert's mistake count :math:`M_{t,i}`; the weight is
    :math:`w_{t,i} = \beta^{M_{t,i}}` (held in the log domain).

    Parameters
    ----------
    n : int
    beta : float, default=0.5
    """

    def __init__(self, n: int, beta: float = 0.5) -> None:
        self.n = check_int(n, "n", 1)
        self.beta = check_param(beta, "beta", 0.0, 1.0, hi_open=True)
        self.M = np.zeros(self.n, dtype=np.int64)    # M_{1,i} = 0, so w_{1,i} = 1

    @property
    def weights(self) -> np.ndarray:
        """Normalised weights :math:`w_{t,i} / W_t`."""
        return normalise_log(log_beta_times(self.M, self.beta))[0]

    @property
    def log_total_weight(self) -> float:
        r""":math:`\ln W_t`."""
        return float(normalise_log(log_beta_times(self.M, self.beta))[1])

    def predict(self, x) -> int:
        """The larger weighted vote; ties predict 1 (votes in units of the best expert's weight)."""
        if self.beta == 0.0 and self.M.min() > 0:
            return 1                                   # every weight 0: 0 against 0 is a tie
        relative = [self.beta ** int(m - self.M.min()) for m in self.M]
        return _vote(relative, np.asarray(x))

    def update(self, x, y) -> float:
        """Suffer the mistake :math:`[\\hat y_t \\ne y_t]`, then multiply the weights of wrong experts by beta:
        :math:`M_{t+1,i} = M_{t,i} + [x_{t,i} \\ne y_t]`.  Returns the mistake (0.0 or 1.0)."""
        mistake = float(self.predict(x) != y)
        self.M = self.M + (np.asarray(x) != y)
        return mistake


class RandomizedWeightedMajority(WeightedMajority):
    r"""Randomized Weighted Majority, one round at a time (mirrors CMU Algorithm 2).

    ``predict`` samples :math:`I \sim w_t/\Phi_t` (one uniform draw per call; :math:`I` is kept as
    ``chosen``) and returns expert :math:`I`'s advice; ``update`` charges that draw's mistake
    :math:`[x_{t,I} \ne y_t]` (its probability :math:`v_t \cdot \mathbf 1[x_t \ne y_t]` is kept as
    ``last_expected_loss``) and multiplies the wrong experts' weights by :math:`\beta = 1 - \eta`.

    Parameters
    ----------
    n : int
    beta : float, default=0.5
    seed : int, default=0
    """

    def __init__(self, n: int, beta: float = 0.5, seed: int = 0) -> None:
        super().__init__(n, beta)
        self.beta = check_param(beta, "beta", 0.0, 1.0, lo_open=True, hi_open=True)
        self.rng = np.random.default_rng(check_seed(seed))
        self.chosen: int | None = None                 # the expert I the last predict drew
        self.last_expected_loss: float | None = None

    def predict(self, x) -> int:
        """Draw :math:`I \\sim v_t` (one uniform draw) and predict its advice :math:`x_{t,I}`."""
        v = self.weights
        u = self.rng.random()
        self.chosen = min(int((np.cumsum(v) <= u).sum()), self.n - 1)   # I ~ Multinomial(v)
        return int(np.asarray(x)[self.chosen])

    def update(self, x, y) -> float:
        """Suffer :math:`[x_{t,I} \\ne y_t]` for the expert :math:`I` that ``predict`` drew, then the
        update of WM.  Returns the mistake (0.0 or 1.0)."""
        x = np.asarray(x)
        self.last_expected_loss = self.expected_loss(x, y)   # the probability of that mistake
        mistake = float(x[self.chosen] != y)
        self.M = self.M + (x != y)                           # M_{t+1,i} = M_{t,i} + [x_{t,i} != y_t]
        return mistake

    def expected_loss(self, x, y) -> float:
        """:math:`v_t \\cdot \\mathbf 1[x_t \\ne y_t]`, the probability of a mistake this round."""
        return float((self.weights * (np.asarray(x) != y)).sum())
