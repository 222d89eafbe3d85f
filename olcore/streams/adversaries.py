r"""Adversaries that build a stream by driving a learner: they may import the learners.

Source: UCL COMP0078, Online learning (problems 3.1 and 4);
Cesa-Bianchi, On-line learning, "Memory bounded learning" (the Fact).
"""

from __future__ import annotations

import numpy as np

from ..errors import StreamError
from ..experts import Halving, WeightedMajority
from ..stream import MAX_COLUMNS, MAX_ROUNDS, Stream, _check_size, from_arrays
from ..validate import check_int, check_param, check_seed

__all__ = ["adversary_consistent", "adversary_wm", "adversary_budget"]


def adversary_consistent(n: int = 8, learner=None, labels=None, extra_rounds: int = 0,
                         seed: int = 0) -> Stream:
    r"""An adaptive adversary that forces a mistake every round yet keeps a consistent expert.

    Let :math:`C_t` be the experts consistent so far.  While :math:`|C_t| \ge 2` the
    adversary shows advice that splits :math:`C_t`: its first
    :math:`\lfloor |C_t|/2 \rfloor` members (by index) predict 1, the others 0 (experts
    outside :math:`C_t` predict seeded coin flips).  It asks the learner for
    :math:`\hat y_t`, then reveals :math:`y_t = 1 - \hat y_t`.  The experts that agreed
    with :math:`y_t` stay consistent, at least :math:`\lfloor |C_t|/2 \rfloor` of them, so a
    deterministic learner errs in each of at least :math:`\lfloor\log_2 n\rfloor` rounds
    while some expert is never wrong.  Against Halving (ties predict 1) exactly
    :math:`\lfloor |C_t|/2 \rfloor` survive, so Halving makes exactly
    :math:`\lfloor\log_2 n\rfloor` mistakes: its bound is tight (problem 4 of the notes).

    Then ``extra_rounds`` rounds follow in which every expert's advice is a seeded coin
    flip and :math:`y_t` is the (first) surviving expert's advice, so it stays consistent.

    With ``labels`` the outcomes are not chosen by the adversary but given (the page's
    "you are the adversary" mode): round ``t`` reveals ``labels[t]``; the advice still
    splits :math:`C_t` while :math:`|C_t| \ge 2` and is coin flips afterwards, so a label
    sequence may leave no consistent expert.

    Parameters
    ----------
    n : int, default=8
        Number of experts (1..MAX_COLUMNS).
    learner : object with ``predict(x)`` and ``update(x, y)``, default=None
        A fresh deterministic learner over ``n`` experts; ``None`` means
        ``olcore.experts.Halving(n)``.  It is driven in place.
    labels : sequence of {0, 1}, default=None
    extra_rounds : int, default=0
    seed : int, default=0

    Returns
    -------
    Stream of kind ``"experts"`` with ``info``: ``best`` (a consistent expert, or the one
    with fewest mistakes), ``best_mistakes``, ``forced_rounds`` (rounds played while
    :math:`|C_t| \ge 2`) and ``learner_predictions`` (the :math:`\hat y_t` the learner gave).
    """
    n = check_int(n, "n", 1, MAX_COLUMNS)
    extra_rounds = check_int(extra_rounds, "extra_rounds", 0, MAX_ROUNDS)
    rng = np.random.default_rng(check_seed(seed))
    if learner is None:
        learner = Halving(n)
    if labels is not None:
        labels = np.asarray(labels)
        if labels.ndim != 1 or labels.size > MAX_ROUNDS or not np.isin(labels, (0, 1)).all():
            raise StreamError.bad("labels", f"{labels.tolist()[:10]}", "a list of 0/1 outcomes")
    C = np.ones(n, dtype=bool)
    rows, ys, preds = [], [], []
    forced = 0
    t = 0
    while True:
        if labels is not None:
            if t >= labels.size:
                break
        elif C.sum() < 2:
            if t >= forced + extra_rounds:
                break
        x = rng.integers(0, 2, size=n).astype(np.int8)
        idx = np.flatnonzero(C)
        splitting = idx.size >= 2
        if splitting:
            x[idx] = 0
            x[idx[: idx.size // 2]] = 1
        yhat = int(learner.predict(x))
        if labels is not None:
            y_t = int(labels[t])
        elif splitting:
            y_t = 1 - yhat
        else:
            y_t = int(x[idx[0]]) if idx.size else int(rng.integers(0, 2))
        forced += bool(splitting and labels is None)
        learner.update(x, y_t)
        C &= x == y_t
        rows.append(x)
        ys.append(y_t)
        preds.append(yhat)
        t += 1
    if not rows:  # n == 1 and no extra rounds: one uninformative round
        x = np.zeros(n, dtype=np.int8)
        yhat = int(learner.predict(x))
        learner.update(x, 0)
        rows, ys, preds = [x], [0], [yhat]
    X = np.array(rows, dtype=np.int8)
    y = np.array(ys, dtype=np.int8)
    m = (X != y[:, None]).sum(axis=0)
    return from_arrays("experts", X, y, {
        "best": int(m.argmin()), "best_mistakes": int(m.min()), "forced_rounds": forced,
        "learner_predictions": np.array(preds, dtype=np.int8), "adversary": "consistent"})


def adversary_wm(T: int = 100, beta: float = 0.5, n: int = 2) -> Stream:
    r"""The stream of exercise 3.1: deterministic Weighted Majority errs every round.

    Even-indexed experts always predict 0, odd-indexed ones always 1.  The adversary
    runs deterministic WM with ``beta`` (ties predict 1) and reveals
    :math:`y_t = 1 - \hat y_t`, so WM makes :math:`T` mistakes, while the two groups
    share those :math:`T` mistakes and the best expert makes at most :math:`\lfloor T/2\rfloor`:
    WM's loss is **at least twice** the best expert's.  With two experts and
    :math:`0 < \beta < 1` WM's vote alternates, so the best expert errs exactly
    :math:`\lfloor T/2\rfloor` times (exactly twice for even :math:`T`); at :math:`\beta = 0`
    (Halving) both experts are crossed out within two rounds, WM then predicts 1 forever,
    and the always-0 expert errs once: the ratio is :math:`T`.  No deterministic master can
    have sublinear :math:`c`-regret for :math:`c < 2`.  The
    stream is fixed before any coin is flipped, so against it Randomized WM and Hedge
    (oblivious adversary) stay close to the best expert.

    Parameters
    ----------
    T : int, default=100
    beta : float, default=0.5
        The WM penalty factor the stream is built against, in [0, 1).
    n : int, default=2
        Number of experts (>= 2).

    Returns
    -------
    Stream of kind ``"experts"`` with ``info``: ``best``, ``best_mistakes``, ``beta``,
    ``wm_mistakes`` (= T) and ``adversary`` = ``"wm"``.
    """
    T = check_int(T, "T", 1, MAX_ROUNDS)
    n = check_int(n, "n", 2, MAX_COLUMNS)
    beta = check_param(beta, "beta", 0.0, 1.0, hi_open=True)
    _check_size(T, n)
    wm = WeightedMajority(n, beta)
    x = (np.arange(n) % 2).astype(np.int8)
    y = np.empty(T, dtype=np.int8)
    for t in range(T):
        y[t] = 1 - wm.predict(x)
        wm.update(x, int(y[t]))
    X = np.broadcast_to(x, (T, n))
    m = (X != y[:, None]).sum(axis=0)
    return from_arrays("experts", X, y, {"best": int(m.argmin()), "best_mistakes": int(m.min()),
                                         "beta": beta, "wm_mistakes": T, "adversary": "wm"})


def adversary_budget(B: int = 5, T: int = 120, seed: int | None = None) -> Stream:
    r"""The Fact's sequence: any learner with at most B supports errs without end.

    The instances cycle through the B + 1 unit vectors :math:`\mathbf e_1, \dots, \mathbf e_{B+1}` of
    :math:`\mathbb R^{B+1}` (round t shows :math:`\mathbf e_{(t \bmod (B+1)) + 1}`), each always with the same
    label :math:`y_i` (alternating :math:`+1, -1, \dots`; with ``seed`` drawn uniformly).  The comparator
    :math:`\mathbf u = \sum_i y_i\mathbf e_i` has :math:`y_t\,\mathbf u\cdot\mathbf x_t = 1` in every round
    (zero hinge loss) and :math:`\|\mathbf u\| = \sqrt{B+1}`; its unit direction separates with margin
    :math:`1/\sqrt{B+1}`, so Novikoff allows the (unbudgeted) Perceptron at most :math:`B + 1` mistakes.

    A learner whose hypothesis is spanned by at most B supports taken from the stream (with the linear kernel,
    :math:`f = \sum_{s\in\mathcal L}\alpha_s\mathbf x_s`) always misses some :math:`\mathbf e_j`, on which its
    score is 0.  If it changes its cache only on mistakes (the budget Perceptrons do), every window of B + 1
    consecutive rounds shows that :math:`\mathbf e_j` while the cache stays fixed, so it errs at least once in
    every B + 1 rounds (a score of 0 counts as a mistake, the notes' test :math:`\hat y_t y_t \le 0`); a learner
    that guesses a label on a score of 0 errs with probability 1/2 there when the labels are random (``seed``).
    Hence at least :math:`\lfloor T/(B+1)\rfloor` mistakes: unbounded, although :math:`\mathbf u` has zero
    hinge loss.  B supports, fewer than :math:`U^2 = \|\mathbf u\|^2 = B + 1`, are not enough (the notes'
    :math:`B \ge U^2` is necessary), while the kernel Perceptron, which stores B + 1 supports here, stops erring.

    Parameters
    ----------
    B : int, default=5
        The budget played against, 1 <= B < 10000.
    T : int, default=120
    seed : int or None, default=None
        ``None``: labels alternate; else drawn with ``np.random.default_rng(seed)``.

    Returns
    -------
    Stream of kind ``"linear"`` with ``info``: ``B``, ``u`` (B+1,), ``norm_u`` = :math:`\sqrt{B+1}`,
    ``gamma`` = :math:`1/\sqrt{B+1}`, ``R`` = 1 and ``adversary`` = ``"budget"``.

    >>> s = adversary_budget(2, 5)
    >>> s.X.astype(int).tolist(), s.y.tolist()
    ([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 0]], [1, -1, 1, 1, -1])
    """
    B = check_int(B, "B", 1, MAX_COLUMNS - 1)
    T = check_int(T, "T", 1, MAX_ROUNDS)
    _check_size(T, B + 1)
    if seed is None:
        labels = np.where(np.arange(B + 1) % 2 == 0, 1, -1)
    else:
        labels = np.where(np.random.default_rng(check_seed(seed)).random(B + 1) < 0.5, -1, 1)
    idx = np.arange(T) % (B + 1)
    X = np.zeros((T, B + 1))
    X[np.arange(T), idx] = 1.0
    y = labels[idx].astype(np.int8)
    return from_arrays("linear", X, y, {"B": B, "u": labels.astype(float), "norm_u": float(np.sqrt(B + 1)),
                                        "gamma": float(1 / np.sqrt(B + 1)), "R": 1.0, "adversary": "budget"})
