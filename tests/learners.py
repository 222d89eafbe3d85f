"""Every contract learner of olcore, described once for tests/test_contract.py.

A :class:`LearnerSpec` names the whole-stream function (the fast path), the reference class
that mirrors the notes one round at a time and how to build it, the kind of stream the
learner reads with a seeded stream maker, its parameters, and how closely the two paths
must agree.  :func:`run_reference` plays the reference class over a stream through the one
learner protocol (:mod:`olcore.protocol`: ``predict(x)`` returns the prediction, ``update(x, y)``
the round's loss as a float, the round's extras are attributes; cycled ``epochs`` times),
recording what a Trace records, so the contract test can compare the two.

Where the reference class adds the same numbers in the same order as the compiled loop (its
dot products come from :mod:`olcore._sums`), the two paths agree bit for bit, on any CPU.
Elsewhere the tolerance is in ulps (:mod:`tests.ulps`), measured, not guessed (see the
constants before :data:`LEARNERS`), and the spec says why the two paths cannot agree exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import math

import numpy as np

from olcore import experts, linear, oco, streams
from olcore.protocol import Learner, is_mistake
from tests.ulps import assert_close_ulps

# -- one reference round -------------------------------------------------------------------
# Every reference class follows olcore.protocol.Learner, so one round is the same for all of them.


def play_round(ref, x, y, extras: Mapping[str, str]):
    """``predict(x)`` then ``update(x, y)``: (prediction, loss, {Trace extra: the attribute holding it}).

    Checks the protocol's types as it goes: the prediction is one number (not a bool, not an
    array), the loss a float."""
    p = ref.predict(x)
    assert isinstance(p, (int, float, np.integer, np.floating)) and not isinstance(p, (bool, np.bool_)), (
        f"{type(ref).__name__}.predict returned {p!r}: the protocol's prediction is one number")
    loss = ref.update(x, y)
    assert isinstance(loss, float), f"{type(ref).__name__}.update returned {loss!r}: the protocol's loss is a float"
    return p, loss, {k: getattr(ref, attr) for k, attr in extras.items()}


def _weights_property(ref):
    return np.array(ref.weights, dtype=float)


def _w(ref):
    return np.array(ref.w, dtype=float)


def _theta(ref):
    return np.array(ref.theta, dtype=float)


# -- seeded streams ------------------------------------------------------------------------
# make(rng, integer) -> (X, y, params).  "integer" streams hold small integers only, so every
# score and most weights are exactly representable; the others hold arbitrary floats.


def _binary_experts(rng, integer):
    """0/1 advice: noisy experts of varied accuracy; half the streams keep a consistent expert."""
    n, T = int(rng.integers(1, 40)), int(rng.integers(1, 60))
    y = rng.integers(0, 2, T)
    if integer:
        X = rng.integers(0, 2, (T, n))
    else:
        p = rng.random(n) * rng.uniform(0.1, 1.0)
        X = np.where(rng.random((T, n)) < p, 1 - y[:, None], y[:, None])
    if rng.random() < 0.5:
        X[:, rng.integers(n)] = y
    return X, y


def halving_stream(rng, integer):
    X, y = _binary_experts(rng, integer)
    return X, y, {}


def wm_stream(rng, integer):
    X, y = _binary_experts(rng, integer)
    beta = float(rng.choice([0.0, 0.5, 0.25])) if integer else float(rng.uniform(0.0, 0.999))
    return X, y, {"beta": beta}


def rwm_stream(rng, integer):
    X, y = _binary_experts(rng, integer)
    beta = float(rng.choice([0.5, 0.25, 0.75])) if integer else float(rng.uniform(0.01, 0.99))
    return X, y, {"beta": beta, "seed": int(rng.integers(0, 2**31))}


def wa_stream(loss):
    def make(rng, integer):
        n, T = int(rng.integers(1, 30)), int(rng.integers(1, 120))
        if integer:                              # 0/1 advice and outcomes (entropic: infinite losses)
            X, y = rng.integers(0, 2, (T, n)).astype(float), rng.integers(0, 2, T).astype(float)
        else:
            X = rng.random((T, n)) ** rng.uniform(0.3, 3)
            y = rng.integers(0, 2, T).astype(float) if rng.random() < 0.3 else rng.random(T)
        return X, y, {"eta": float(rng.uniform(0.05, 3.0)), "loss": loss}
    return make


def hedge_stream(rng, integer):
    n, T = int(rng.integers(1, 40)), int(rng.integers(1, 150))
    if integer and rng.random() < 1 / 3:          # adversarial: the current leader loses
        L, cum = np.zeros((T, n)), np.zeros(n)
        for t in range(T):
            L[t, np.argmin(cum)] = 1.0
            cum += L[t]
    elif integer:
        L = (rng.random((T, n)) < rng.random(n)).astype(float)
    else:
        L = rng.random((T, n)) * rng.random(n)
    return L, None, {"eta": float(rng.uniform(0.01, 5)), "seed": int(rng.integers(0, 2**31))}


def _signed_stream(rng, integer, T_max=120, T_min=1):
    if integer:                                  # small integers: exact scores, ties at 0 are common
        T, d = int(rng.integers(T_min, T_max)), int(rng.integers(1, 5))
        return rng.integers(-2, 3, size=(T, d)).astype(float), rng.choice([-1, 1], size=T)
    s = streams.separable(T=int(rng.integers(T_min, T_max)), d=int(rng.integers(1, 6)),
                          gamma=float(rng.uniform(0.01, 0.5)), noise=float(rng.choice([0.0, 0.1, 0.3])),
                          seed=int(rng.integers(0, 2**31)))
    return s.X, s.y


def perceptron_stream(epochs):
    def make(rng, integer):
        X, y = _signed_stream(rng, integer)
        return X, y, {"epochs": epochs if epochs == 1 else int(rng.integers(2, epochs + 1))}
    return make


def winnow_stream(rng, integer):
    N = int(rng.integers(1, 40))
    if integer:
        # Arbitrary labels (mistakes of both kinds), integer thresholds and alpha = 2, so every
        # weight is a power of 2 and every score exact: exact ties at theta are common.
        X = (rng.random((int(rng.integers(1, 150)), N)) < 0.4).astype(int)
        y = rng.integers(0, 2, size=X.shape[0])
        alpha, theta = 2.0, float(rng.integers(1, 2 * N + 1))
    else:                                        # disjunctions, non-integer factors
        s = streams.disjunction(T=int(rng.integers(1, 200)), N=N, k=int(rng.integers(1, min(N, 4) + 1)),
                                seed=int(rng.integers(0, 2**31)))
        X, y = s.X, s.y
        # any factor too (alpha^-1 by the same pow as the compiled loop's, not numpy's vector power)
        alpha = float(rng.choice([1.5, 3.0, 2.0])) if rng.random() < 0.5 else float(rng.uniform(1.1, 4.0))
        theta = None if rng.random() < 0.5 else float(rng.uniform(1, 2 * N))
    return X, y, {"alpha": alpha, "theta": theta, "epochs": int(rng.integers(1, 3))}


def ogd_stream(rng, integer):
    X, y = _signed_stream(rng, integer)
    eta = 0.5 if integer else float(rng.uniform(0.01, 2))   # eta = 1/2: margins of exactly 1 occur
    return X, y, {"eta": eta, "epochs": int(rng.integers(1, 3))}


def conservative_ogd_stream(rng, integer):
    """Conservative OGD (update only on a mistake): eta a power of 2 on integer streams, so
    eta * w^Perceptron is exact; log-uniform over 0.001..1000 on continuous ones."""
    X, y = _signed_stream(rng, integer)
    eta = float(2.0 ** rng.integers(-7, 8)) if integer else float(10 ** rng.uniform(-3, 3))
    return X, y, {"eta": eta, "epochs": int(rng.integers(1, 3)), "conservative": True}


def conjunction_stream(rng, integer):
    """Integer streams: arbitrary 0/1 labels (mistakes on negatives too).  Continuous: labels of
    a random k-literal conjunction (k = 0 is the always-true one), its literals satisfied on about
    half the rounds so that positives occur, or the worst case (n + 1 mistakes)."""
    T, n = int(rng.integers(1, 120)), int(rng.integers(1, 25))
    X = rng.integers(0, 2, (T, n))
    if integer:
        return X, rng.integers(0, 2, T), {}
    k = int(rng.integers(0, n + 1))
    if rng.random() < 0.15:                      # the worst case: the empty conjunction, one literal per mistake
        X = np.ones((n + 1, n), dtype=int) - np.eye(n + 1, n, -1, dtype=int)
        return X, np.ones(n + 1, dtype=int), {}
    idx, sign = rng.choice(n, k, replace=False), rng.integers(0, 2, k)
    force = rng.random(T) < 0.5
    X[np.ix_(force, idx)] = sign
    return X, np.all(X[:, idx] == sign, axis=1).astype(int), {}


def _signed_one_hot(rng, T, d, ys=(-1.0, 1.0)):
    """Rows +-e_i (a few zero rows): every dot product has one non-zero term, so it is exact
    whatever order a matrix-vector product or a dot sums in."""
    X = np.zeros((T, d))
    X[np.arange(T), rng.integers(0, d, T)] = rng.choice([-1.0, 1.0], T)
    X[rng.random(T) < 0.1] = 0.0
    return X


def pa_stream(variant):
    def make(rng, integer):
        # T >= 2: with T = 1 and two passes the second round re-scores the very x just projected
        # onto margin 1 (see _pa_updated).  On integer rows PA's weights are not integers, yet the
        # class sums its scores in the loop's order, so even ties at 0 and 1 are decided alike.
        X, y = _signed_stream(rng, integer, T_max=150, T_min=2)
        C = float(rng.choice([0.25, 0.5, 1.0, 2.0])) if integer else float(np.exp(rng.uniform(-3, 2)))
        return X, y, {"variant": variant, "C": C, "epochs": int(rng.integers(1, 3))}
    return make


def widrow_hoff_stream(rng, integer):
    T, d = int(rng.integers(1, 80)), int(rng.choice([1, 2, 3, 4, 5, 8, 12]))
    if integer:
        # Signed one-hot rows (and some zero rows), integer targets, eta a power of 2: every
        # product and sum is exact for these lengths, whatever order a dot product sums in.
        X = _signed_one_hot(rng, T, d)
        y = rng.integers(-3, 4, T).astype(float)
        eta = float(rng.choice([1.0, 0.5, 0.25]))
    else:
        X = rng.standard_normal((T, d)) * rng.uniform(0.1, 2)
        y = rng.standard_normal(T) * 3
        eta = float(rng.uniform(0.01, 0.9))
    return X, y, {"eta": eta}


def widrow_hoff_implicit_stream(rng, integer):
    X, y, params = widrow_hoff_stream(rng, integer)
    if not integer:
        params["eta"] = float(10 ** rng.uniform(-2, 1.5))   # any eta > 0: the implicit step never overshoots
    return X, y, dict(params, update="implicit")


def eg_stream(rng, integer):
    T, n = int(rng.integers(1, 60)), int(rng.integers(1, 8))
    if integer:
        X, y = rng.integers(-1, 2, (T, n)).astype(float), rng.integers(-1, 2, T).astype(float)
    else:
        X, y = rng.uniform(-1, 1, (T, n)), rng.uniform(-1, 1, T)
    return X, y, {"eta": float(rng.uniform(0.01, 2.0))}


def kernel_stream(budgeted):
    def make(rng, integer):
        X, y = _signed_stream(rng, integer)
        if integer:      # small integers, linear or polynomial kernels with integer constants: every score exact
            kernel = str(rng.choice(["linear", "poly"]))
            params = {"kernel": kernel, "degree": int(rng.integers(1, 4)), "coef0": float(rng.integers(0, 3))}
        else:
            kernel = str(rng.choice(["linear", "poly", "rbf", "rbf"]))
            params = {"kernel": kernel, "gamma": float(np.exp(rng.uniform(-2, 2))), "degree": int(rng.integers(1, 5)),
                      "coef0": float(rng.uniform(0, 2))}
        if budgeted:
            params.update(budget=int(rng.integers(1, 8)), seed=int(rng.integers(0, 2**31)))
        return X, y, params
    return make


def _kernel_kwargs(p):
    return {k: p[k] for k in ("kernel", "gamma", "degree", "coef0", "budget", "seed") if k in p}


def _cache(tr, ref, X, y, params):
    """The cache never exceeds B, its size is the number of supports in force, and it ends as the class's."""
    from olcore.linear import supports_at
    size = tr.extras["cache_size"]
    B = params.get("budget")
    assert size.max() <= (B if B is not None else len(X))
    for t in {0, len(X) // 2, len(X)}:
        assert size[t] == len(supports_at(tr, t))
    assert size[-1] == len(ref.model.L)
    kept = sorted(map(tuple, X[supports_at(tr, len(X))]))
    assert kept == sorted(tuple(xs) for _, xs in ref.model.L)
    np.testing.assert_array_equal(tr.extras["evicted"], tr.mistakes & (size[:-1] == (B or -1)))


# -- the specs -----------------------------------------------------------------------------

@dataclass(frozen=True)
class LearnerSpec:
    """One contract learner: fast path, reference class, streams, parameters, comparison."""

    name: str
    fast: Callable[..., Any]                     # the whole-stream function: fast(X, y, **params)
    reference: type                              # the class mirroring the notes
    reference_kwargs: Callable[[dict], dict]     # its constructor's keywords, from the parameters
    weights: Callable                             # the reference's current weights
    kind: str                                     # olcore stream kind (streams.from_arrays)
    make_stream: Callable                         # (rng, integer) -> (X, y, params)
    bad_label: Any                                # a label outside the kind's alphabet
    bad_params: tuple[dict, ...]                  # parameters the fast path must refuse
    classifier: bool = False                      # has a mistakes array
    labelled: bool = True                         # fast(X, y, ...) rather than fast(L, ...)
    randomized: bool = False                      # takes a seed that changes the play
    ulps_continuous: float = 0                    # tolerance in ulps (tests/ulps.py); 0: bit for bit
    ulps_integer: float = 0
    atol: float = 0.0                             # with ulps > 0: a gap this small always passes (FLOOR)
    exact: tuple[str, ...] = ("predictions", "mistakes")   # bit-for-bit on every stream
    why: str = ""                                 # why a tolerance is not 0
    saturates: float | None = None                # losses above this are ill-conditioned: both must exceed it
    coverage: Callable | None = None              # asserts the streams reach the learner's edge cases
    extras: Mapping[str, str] = field(default_factory=dict)   # Trace extra -> the reference's attribute after update
    check: Callable | None = None                 # extra per-learner assertions (trace, ref, X, y, params)
    
    def __repr__(self) -> str:                    # pytest ids
        return self.name

    def run(self, X, y, params) -> Any:
        """The fast path's Trace."""
        return self.fast(X, y, **params) if self.labelled else self.fast(X, **params)


@dataclass
class ReferenceRun:
    predictions: np.ndarray
    losses: np.ndarray
    mistakes: np.ndarray | None
    weights: np.ndarray
    extras: dict[str, np.ndarray]
    model: Any


def run_reference(spec: LearnerSpec, X, y, params: dict) -> ReferenceRun:
    """Play ``spec.reference`` round by round over ``(X, y)``, ``params["epochs"]`` passes.

    Each round is :func:`play_round` on ``(x_t, y_t)``; without labels (Hedge, OGD on the simplex)
    the round has no input and the row of ``X`` is the loss vector nature reveals: ``(None, X[t])``."""
    X = np.asarray(X)
    ref = spec.reference(X.shape[1], **spec.reference_kwargs(params))
    assert isinstance(ref, Learner), f"{spec.reference.__name__} does not follow olcore.protocol.Learner"
    preds, losses, mistakes, W = [], [], [], [spec.weights(ref)]
    extras: dict[str, list] = {k: [] for k in spec.extras}
    for _ in range(params.get("epochs", 1)):
        for t in range(len(X)):
            x, yt = (X[t], y[t]) if spec.labelled else (None, X[t])
            p, loss, ex = play_round(ref, x, yt, spec.extras)
            preds.append(p)
            losses.append(loss)
            mistakes.append(spec.classifier and is_mistake(p, yt))
            W.append(spec.weights(ref))
            for k in spec.extras:
                extras[k].append(ex[k])
    return ReferenceRun(np.array(preds), np.array(losses, dtype=float),
                        np.array(mistakes, dtype=bool) if spec.classifier else None,
                        np.array(W).reshape(len(W), X.shape[1]), {k: np.array(v) for k, v in extras.items()}, ref)


# per-learner checks the old hand-written harnesses made beyond predictions/losses/weights

def _compact(tr, ref, X, y, params):
    """Conservative learners store one weight row per update."""
    assert tr.weight_table.shape[0] == tr.mistakes.sum() + 1


def _compact_updates(tr, ref, X, y, params):
    assert tr.weight_table.shape[0] == tr.extras["updated"].sum() + 1


def _pa_updated(tr, ref, X, y, params):
    """PA updates iff its hinge loss is positive, in the same rounds as the class (``updated`` is
    compared as an extra).  After PA projects w onto y x.w = 1, seeing that x again with w unchanged
    is an exact tie at margin 1 that the last bit of the score decides (a step of about 1e-16 or
    none): the class sums its scores in the compiled loop's order, so it decides every such tie alike."""
    _compact_updates(tr, ref, X, y, params)
    np.testing.assert_array_equal(tr.extras["updated"], tr.losses > 0)
    np.testing.assert_array_equal(ref.extras["updated"], ref.losses > 0)

def _alma_compact(tr, ref, X, y, params):
    _compact_updates(tr, ref, X, y, params)
    assert tr.extras["k"][-1] == ref.model.k


def _selective(tr, ref, X, y, params):
    """A conservative learner that updates only on queried mistakes."""
    _compact_updates(tr, ref, X, y, params)
    upd, q = tr.extras["updated"], tr.extras["queried"]
    np.testing.assert_array_equal(upd, q & tr.mistakes)
    assert tr.extras["N"][-1] == ref.model.N



def _ogd_total(tr, ref, X, y, params):
    assert tr.total_loss == pytest_approx(ref.model.loss)
    np.testing.assert_array_equal(tr.predictions, np.sign(tr.extras["score"]))


def _perceptron_ties(tr, ref, X, y, params):
    _compact(tr, ref, X, y, params)
    ties = tr.extras["score"] == 0              # a score of exactly 0 is a mistake predicting 0
    assert np.all(tr.mistakes[ties]) and np.all(tr.predictions[ties] == 0)


def _conservative(tr, ref, X, y, params):
    """Conservative OGD is the Perceptron scaled by eta: the same mistakes, weights eta times its."""
    _ogd_total(tr, ref, X, y, params)
    p = linear.perceptron(X, y, epochs=params["epochs"])
    np.testing.assert_array_equal(tr.mistakes, p.mistakes)
    np.testing.assert_array_equal(tr.weights, params["eta"] * p.weights)     # eta times the same sums


def _eliminates(tr, ref, X, y, params):
    """Literals only leave; a mistake on a positive leaves no literal x falsifies; consistent streams
    (no negative mistake) stay within n + 1 mistakes."""
    n = np.asarray(X).shape[1]
    _compact_updates_pos(tr, y)
    assert np.all(np.diff(tr.extras["literals"]) <= 0)
    if tr.extras["m_minus"][-1] == 0:
        assert tr.mistakes.sum() <= n + 1


def _compact_updates_pos(tr, y):
    assert tr.weight_table.shape[0] == int((tr.mistakes & (np.asarray(y) == 1)).sum()) + 1


def _conjunction_cases(runs):
    consistent = [tr for tr, X, y, p, integer in runs if not integer]
    assert all(tr.extras["m_minus"][-1] == 0 for tr in consistent)      # a conjunction: no negative mistake
    assert sum(tr.mistakes.sum() == X.shape[1] + 1 for tr, X, y, p, integer in runs if not integer) > 3
    assert sum(tr.extras["m_minus"][-1] > 0 for tr, *_ in runs) > 50


def _residual(tr, ref, X, y, params):
    yy = np.tile(y, params.get("epochs", 1))
    np.testing.assert_array_equal(tr.extras["residual"], tr.predictions - yy)


def _sampled(tr, ref, X, y, params):
    np.testing.assert_array_equal(tr.extras["sampled_loss"], X[np.arange(len(X)), tr.predictions])


def _hedge_many(tr, ref, X, y, params):
    """The batched fast path (the eta sweep's): its row at this eta is this run bit for bit, so it agrees
    with the class as the trace does; its row at another eta is that rate's run, bit for bit."""
    _sampled(tr, ref, X, y, params)
    eta, seed = params["eta"], params["seed"]
    losses, sampled = experts.hedge_many(X, [eta, 3 * eta], seed=seed)
    np.testing.assert_array_equal(losses[0], tr.losses)
    np.testing.assert_array_equal(sampled[0], tr.extras["sampled_loss"])
    assert_close_ulps(losses[0], ref.losses, HEDGE_ULPS, FLOOR)
    np.testing.assert_array_equal(sampled[0], ref.extras["sampled_loss"])
    other = experts.hedge(X, 3 * eta, seed=seed)
    np.testing.assert_array_equal(losses[1], other.losses)
    np.testing.assert_array_equal(sampled[1], other.extras["sampled_loss"])


def _horizons(T):
    return np.unique([1, (T + 1) // 2, T])


def _wm_prefixes(tr, ref, X, y, params):
    """The re-runs on prefixes (tuning to the horizon): at this beta, the class's mistakes over each prefix
    (a prefix of a run is the run on the prefix); at another beta per prefix, the fast path on that
    prefix, bit for bit."""
    H, beta = _horizons(len(X)), params["beta"]
    M, _ = experts.weighted_majority_prefixes(X, y, H, np.full(len(H), beta))
    np.testing.assert_array_equal(M, [int(ref.mistakes[:h].sum()) for h in H])
    betas = (beta + np.arange(1, len(H) + 1)) / (len(H) + 1.5)          # other rates in [0, 1)
    M, _ = experts.weighted_majority_prefixes(X, y, H, betas)
    np.testing.assert_array_equal(M, [experts.weighted_majority(X[:h], y[:h], b).n_mistakes for h, b in zip(H, betas)])


def _rwm_prefixes(tr, ref, X, y, params):
    """RWM's expected mistakes on prefixes from weighted_majority_prefixes: the class's (to the contract's
    tolerance), and bit for bit the fast path's sum of ``expected_loss``, at this and at other betas."""
    H, beta, seed = _horizons(len(X)), params["beta"], params["seed"]
    _, E = experts.weighted_majority_prefixes(X, y, H, np.full(len(H), beta))
    assert_close_ulps(E, [ref.extras["expected_loss"][:h].sum() for h in H], VOTE_ULPS)
    assert E[-1] == np.sum(tr.extras["expected_loss"])
    betas = (beta + np.arange(1, len(H) + 1)) / (len(H) + 1.5)          # other rates in (0, 1)
    _, E = experts.weighted_majority_prefixes(X, y, H, betas)
    np.testing.assert_array_equal(E, [np.sum(experts.randomized_weighted_majority(X[:h], y[:h], b, seed=seed)
                                             .extras["expected_loss"]) for h, b in zip(H, betas)])


# coverage: the seeded streams must reach each learner's edge cases (runs: [(trace, X, y, params, integer)])

def _emptied(runs):
    assert sum(tr.extras["version_space"][-1] == 0 for tr, *_ in runs) > 50   # no consistent expert left


def _ties_at_zero(runs):
    assert sum(int((tr.extras["score"] == 0).sum()) for tr, *_, integer in runs if integer) > 50


def _ties_at_theta(runs):
    assert sum(int((tr.extras["score"] == (X.shape[1] if p["theta"] is None else p["theta"])).sum())
               for tr, X, y, p, integer in runs if integer) > 20


def _margins_of_one(runs):
    assert sum(int((np.tile(y, p["epochs"]) * tr.extras["score"] == 1).sum())
               for tr, X, y, p, integer in runs if integer) > 20


def _infinite_losses(runs):
    assert sum(int(np.isinf(tr.losses).sum()) for tr, *_, integer in runs if integer) > 10

def _second_order_rows(rng, integer):
    """Integer streams are signed one-hot rows: A stays diagonal and every score is one exact
    product and one division in both paths, so ties at 0 (zero rows, unseen coordinates) are decided alike."""
    if integer:
        T, d = int(rng.integers(1, 120)), int(rng.integers(1, 5))
        return _signed_one_hot(rng, T, d), rng.choice([-1, 1], size=T), float(rng.choice([0.5, 1.0, 2.0]))
    X, y = _signed_stream(rng, integer)
    return X, y, float(np.exp(rng.uniform(-3, 2)))


def second_order_stream(rng, integer):
    X, y, a = _second_order_rows(rng, integer)
    return X, y, {"a": a}


def selective_stream(rng, integer):
    X, y, a = _second_order_rows(rng, integer)
    c = float(rng.choice([0.0, 0.1, 1.0, 10.0])) if integer else float(np.exp(rng.uniform(-4, 3)))
    return X, y, {"a": a, "c": c}


def alma_stream(rng, integer):
    if integer:
        T, d = int(rng.integers(1, 120)), int(rng.integers(1, 5))
        X, y = _signed_one_hot(rng, T, d), rng.choice([-1, 1], size=T)
        X[np.all(X == 0, axis=1), 0] = 1.0       # ALMA normalises x: keep rows non-zero here
        alpha = float(rng.choice([0.5, 1.0]))
    else:
        X, y = _signed_stream(rng, integer)
        alpha = float(rng.uniform(0.05, 1.0))
    B = None if rng.random() < 0.5 else float(rng.uniform(0.5, 5))
    return X, y, {"alpha": alpha, "B": B, "C": float(rng.choice([2**0.5, 1.0, 0.5])), "epochs": int(rng.integers(1, 4))}




def _domain(rng, integer):
    """A ball, a box or the simplex (sizes exact binary fractions on integer streams)."""
    size = float(rng.choice([0.5, 1.0, 2.0])) if integer else float(np.exp(rng.uniform(-1.5, 1.5)))
    return (oco.Ball(size), oco.Box(size), oco.Simplex())[int(rng.integers(3))]


def projected_ogd_stream(loss):
    """Labels +-1 for the classification and linear losses, real targets for the squared one; any of
    the three sets; eta a power of 2 on integer streams (exact steps, margins of exactly 1 occur)."""
    def make(rng, integer):
        if loss == "squared":
            T, d = int(rng.integers(1, 80)), int(rng.integers(1, 6))
            if integer:
                X, y = rng.integers(-2, 3, (T, d)).astype(float), rng.integers(-3, 4, T).astype(float)
            else:
                X, y = rng.standard_normal((T, d)) * rng.uniform(0.1, 2), rng.standard_normal(T) * 2
        else:
            X, y = _signed_stream(rng, integer)
        eta = float(2.0 ** rng.integers(-5, 2)) if integer else float(10 ** rng.uniform(-2, 0.5))
        return X, y, {"loss": loss, "eta": eta, "domain": _domain(rng, integer)}
    return make


def simplex_ogd_stream(rng, integer):
    L, _, params = hedge_stream(rng, integer)
    eta = float(2.0 ** rng.integers(-6, 1)) if integer else float(10 ** rng.uniform(-2, 0.5))
    return L, None, {"eta": eta, "seed": params["seed"]}


def _oco_kwargs(p):
    return {"loss": p["loss"], "eta": p["eta"], "domain": p["domain"]}


def _step(tr, ref, X, y, params):
    """Each row of the trace's weights is the projection of the round's gradient step."""
    C = params["domain"]
    np.testing.assert_array_equal(tr.weights[1:], C.project(tr.extras["step"]))

def pytest_approx(v):
    import pytest
    return pytest.approx(v)


# -- tolerances -----------------------------------------------------------------------------
# Where the two paths cannot add in the same order (a log-domain loop against a class that multiplies and
# renormalises, a running kernel score against a fresh sum), they agree to within so many ulps of the larger
# value (tests/ulps.py), plus FLOOR.  Each constant is the largest gap measured on the contract's streams
# (150 continuous and 150 integer ones per learner) under OPENBLAS_CORETYPE=Prescott, Haswell and SkylakeX,
# NUMBA_CPU_NAME=generic and the host CPU (AVX-512), and numpy's AVX-512, AVX2 and SSE4 loops
# (NPY_DISABLE_CPU_FEATURES="X86_V4", "X86_V3 X86_V4"), rounded up to a power of two at least twice it.

#: A gap this small always passes: values that cancel to about 0 (a residual, a loss near 0) and the tiniest
#: exponential weights, whose own ulp is far below the roundings of the terms they came from.  About 4.5
#: ulps of 1, the size of the streams' values.
FLOOR = 1e-15
#: Weighted Majority and RWM: normalised weights beta^M_i / W and RWM's expected loss, no floor (no
#: value cancels): at most 63 ulps measured.
VOTE_ULPS = 256
#: Hedge: weights and expected losses, at most 44 ulps beyond FLOOR (1.5e4 without it, in the tiniest weights).
HEDGE_ULPS = 128
#: Weighted Average with the square loss: at most 381 ulps beyond FLOOR.
WA_SQUARE_ULPS = 1024
#: Weighted Average with the entropic loss: at most 3.0e3 ulps beyond FLOOR, in the losses
#: y ln(y/yhat) + (1-y) ln((1-y)/(1-yhat)), whose condition number is large where yhat nears y or the wrong end
#: (the predictions and weights: at most 1.3e3).
WA_ENTROPIC_ULPS = 8192
#: Exponentiated gradient: at most 1.2e3 ulps beyond FLOOR (integer streams; 19 on continuous ones).
EG_ULPS = 4096
#: Kernel Perceptron's scores: at most 1.1e3 ulps beyond FLOOR (382 with a budget); exact on integer streams.
KERNEL_ULPS = 4096

_EXP = ("The fast path sums losses and normalises once per round in the log domain (log-sum-exp "
        "over cumulative losses); the class multiplies and renormalises round after round: the same "
        "numbers by different roundings.")

_VOTE = ("Predictions, mistakes and draws agree bit for bit; the normalised weights beta^M_i / sum_j beta^M_j "
         "are the same numbers, but the compiled loop normalises in the log domain once per round while "
         "the class rescales its weight vector, so the last bit may differ.")

_KERNEL_WHY = ("The fast path keeps every future round's score and adds (or, on an eviction, subtracts) one "
               "kernel column per change; the class sums the cache's kernel values afresh each round, its "
               "polynomial kernel by pow where numba multiplies. The same sums in a different order (and, after "
               "evictions, with cancelled terms): the last bits differ, so scores and weights agree to "
               "KERNEL_ULPS on continuous streams and exactly on the integer ones; predictions and mistakes agree "
               "exactly on both. A parameter the class refuses too is checked by the contract (budget, seed, kernel).")

LEARNERS: tuple[LearnerSpec, ...] = (
    LearnerSpec("halving", experts.halving, experts.Halving, lambda p: {}, _weights_property,
                "experts", halving_stream, 2, (), classifier=True, coverage=_emptied),
    LearnerSpec("weighted_majority", experts.weighted_majority, experts.WeightedMajority,
                lambda p: {"beta": p["beta"]}, _weights_property, "experts", wm_stream, 2,
                ({"beta": 1.0}, {"beta": -0.1}, {"beta": float("nan")}), classifier=True,
                ulps_continuous=VOTE_ULPS, ulps_integer=VOTE_ULPS, why=_VOTE, check=_wm_prefixes),
    LearnerSpec("randomized_weighted_majority", experts.randomized_weighted_majority,
                experts.RandomizedWeightedMajority, lambda p: {"beta": p["beta"], "seed": p["seed"]},
                _weights_property, "experts", rwm_stream, 2,
                ({"beta": 0.0}, {"beta": 1.0}, {"seed": -1}, {"seed": 1.5}), classifier=True, randomized=True,
                extras={"expected_loss": "last_expected_loss", "chosen": "chosen"}, exact=("predictions", "mistakes", "chosen"),
                ulps_continuous=VOTE_ULPS, ulps_integer=VOTE_ULPS, why=_VOTE,
                check=_rwm_prefixes),
    LearnerSpec("weighted_average[entropic]", experts.weighted_average, experts.WeightedAverage,
                lambda p: {"eta": p["eta"], "loss": p["loss"]}, _weights_property, "experts01",
                wa_stream("entropic"), 1.5, ({"eta": 0.0}, {"eta": -1.0}, {"loss": "hinge"}), coverage=_infinite_losses,
                exact=(), saturates=-math.log(1e-12),
                ulps_continuous=WA_ENTROPIC_ULPS, ulps_integer=WA_ENTROPIC_ULPS, atol=FLOOR,
                why=_EXP + " The entropic loss ln(1/(1 - |y - yhat|)) of a yhat within rounding of the wrong "
                    "end is ill-conditioned (a last-bit change turns ln(1/1e-16) into infinity): there both "
                    "losses must be saturated."),
    LearnerSpec("weighted_average[square]", experts.weighted_average, experts.WeightedAverage,
                lambda p: {"eta": p["eta"], "loss": p["loss"]}, _weights_property, "experts01",
                wa_stream("square"), 1.5, ({"eta": 0.0}, {"eta": float("inf")}, {"loss": "hinge"}), exact=(),
                ulps_continuous=WA_SQUARE_ULPS, ulps_integer=WA_SQUARE_ULPS, atol=FLOOR, why=_EXP),
    LearnerSpec("hedge", experts.hedge, experts.Hedge, lambda p: {"eta": p["eta"], "seed": p["seed"]},
                _weights_property, "losses", hedge_stream, 1.5,
                ({"eta": 0.0}, {"eta": -1.0}, {"seed": -1}), labelled=False, randomized=True,
                ulps_continuous=HEDGE_ULPS, ulps_integer=HEDGE_ULPS, atol=FLOOR, why=_EXP,
                extras={"sampled_loss": "sampled_loss"}, check=_hedge_many, exact=("predictions", "sampled_loss")),
    LearnerSpec("perceptron[epochs=1]", linear.perceptron, linear.Perceptron, lambda p: {}, _w,
                "linear", perceptron_stream(1), 0, ({"epochs": 0}, {"epochs": 1.5}), classifier=True,
                check=_perceptron_ties, coverage=_ties_at_zero),
    LearnerSpec("perceptron[epochs>1]", linear.perceptron, linear.Perceptron, lambda p: {}, _w,
                "linear", perceptron_stream(4), 0, ({"epochs": 0}, {"epochs": 10**6}), classifier=True,
                check=_perceptron_ties, coverage=_ties_at_zero),
    LearnerSpec("winnow", linear.winnow, linear.Winnow,
                lambda p: {"alpha": p["alpha"], "theta": p["theta"]}, _w, "boolean",
                winnow_stream, 2, ({"alpha": 1.0}, {"theta": 0.0}, {"epochs": 0}), classifier=True,
                check=_compact, coverage=_ties_at_theta),
    LearnerSpec("widrow_hoff", linear.widrow_hoff, linear.WidrowHoff, lambda p: {"eta": p["eta"]},
                _w, "regression", widrow_hoff_stream, float("nan"),
                ({"eta": 0.0}, {"eta": -0.5}, {"eta": float("nan")}), extras={"residual": "residual"}, check=_residual),
    LearnerSpec("ogd_hinge", linear.ogd_hinge, linear.OGDHinge, lambda p: {"eta": p["eta"]}, _w,
                "linear", ogd_stream, 0, ({"eta": 0.0}, {"eta": -1.0}, {"epochs": 0}), classifier=True,
                extras={"score": "last_score"}, check=_ogd_total, coverage=_margins_of_one),
    *(LearnerSpec(f"passive_aggressive[{v}]", linear.passive_aggressive, linear.PassiveAggressive,
                  lambda p: {"variant": p["variant"], "C": p["C"]}, _w, "linear", pa_stream(v), 0,
                  ({"variant": "PA-III"}, {"C": 0.0}, {"C": -1.0}, {"epochs": 0}), classifier=True,
                  extras={"updated": "updated", **({"dual_increment": "dual_increment"} if v == "PA-I" else {})}, check=_pa_updated)
      for v in ("PA", "PA-I", "PA-II")),
    LearnerSpec("widrow_hoff[implicit]", linear.widrow_hoff, linear.WidrowHoff,
                lambda p: {"eta": p["eta"], "update": p["update"]}, _w, "regression",
                widrow_hoff_implicit_stream, float("nan"), ({"eta": 0.0}, {"update": "explicitly"}),
                extras={"residual": "residual"}, check=_residual),
    LearnerSpec("ogd_hinge[conservative]", linear.ogd_hinge, linear.OGDHinge,
                lambda p: {"eta": p["eta"], "conservative": p["conservative"]}, _w, "linear", conservative_ogd_stream,
                0, ({"eta": 0.0}, {"conservative": "yes"}, {"epochs": 0}), classifier=True, extras={"score": "last_score"},
                check=_conservative, coverage=_ties_at_zero),
    LearnerSpec("conjunction_elimination", linear.conjunction_elimination, linear.ConjunctionElimination,
                lambda p: {}, _w, "boolean", conjunction_stream, 2, (), classifier=True,
                check=_eliminates, coverage=_conjunction_cases),
    LearnerSpec("exponentiated_gradient", linear.exponentiated_gradient, linear.ExponentiatedGradient,
                lambda p: {"eta": p["eta"]}, _w, "regression", eg_stream, float("nan"),
                ({"eta": 0.0}, {"eta": -1.0}), extras={"residual": "residual"}, check=_residual, exact=(),
                ulps_continuous=EG_ULPS, ulps_integer=EG_ULPS, atol=FLOOR,
                why="The fast path keeps max-shifted log-weights and normalises at the end; the class "
                    "multiplies by exp and renormalises each round."),
    LearnerSpec("kernel_perceptron", linear.kernel_perceptron, linear.KernelPerceptron, _kernel_kwargs,
                _w, "linear", kernel_stream(False), 0,
                ({"kernel": "sigmoid"}, {"gamma": 0.0}, {"degree": 0}, {"coef0": -1.0}), classifier=True,
                extras={"score": "last_score"}, check=_cache, ulps_continuous=KERNEL_ULPS, atol=FLOOR, why=_KERNEL_WHY),
    LearnerSpec("budget_perceptron", linear.kernel_perceptron, linear.KernelPerceptron, _kernel_kwargs,
                _w, "linear", kernel_stream(True), 0,
                ({"budget": 0}, {"budget": 2.5}, {"seed": -1}, {"gamma": -1.0}), classifier=True,
                extras={"score": "last_score"}, check=_cache, ulps_continuous=KERNEL_ULPS, atol=FLOOR, why=_KERNEL_WHY),
    LearnerSpec("second_order_perceptron", linear.second_order_perceptron, linear.SecondOrderPerceptron,
                lambda p: {"a": p["a"]}, _w, "linear", second_order_stream, 0,
                ({"a": 0.0}, {"a": -1.0}, {"a": float("nan")}), classifier=True, check=_compact),
    LearnerSpec("selective_sampling", linear.selective_sampling, linear.SelectiveSampler,
                lambda p: {"a": p["a"], "c": p["c"]}, _w, "linear", selective_stream, 0,
                ({"a": 0.0}, {"c": -1.0}, {"c": float("nan")}), classifier=True, extras={"queried": "queried"},
                check=_selective),
    LearnerSpec("alma", linear.alma, linear.ALMA,
                lambda p: {"alpha": p["alpha"], "B": p["B"], "C": p["C"]}, _w, "linear", alma_stream, 0,
                ({"alpha": 0.0}, {"alpha": 1.5}, {"C": 0.0}, {"B": -1.0}, {"epochs": 0}), classifier=True,
                extras={"updated": "updated", "score": "last_score"}, check=_alma_compact),
    *(LearnerSpec(f"projected_ogd[{loss}]", oco.projected_ogd, oco.ProjectedOGD, _oco_kwargs, _theta,
                  "regression" if loss == "squared" else "linear", projected_ogd_stream(loss),
                  float("nan") if loss == "squared" else 2,
                  ({"eta": 0.0}, {"eta": -1.0}, {"loss": "cubic"}, {"domain": "ball"}),
                  classifier=loss in ("logistic", "hinge"), extras={"grad_norm": "grad_norm", "step": "step"},
                  check=_step)
      for loss in oco.LOSSES),
    LearnerSpec("simplex_ogd", oco.simplex_ogd, oco.SimplexOGD, lambda p: {"eta": p["eta"], "seed": p["seed"]},
                _weights_property, "losses", simplex_ogd_stream, 1.5, ({"eta": 0.0}, {"eta": -1.0}, {"seed": -1}),
                labelled=False, randomized=True, extras={"sampled_loss": "sampled_loss"}, check=_sampled),
)
