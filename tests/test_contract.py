"""One contract for every learner in olcore (as River's test_estimators.py and scikit-learn's
parametrize_with_checks): the fast path agrees with the reference class that mirrors the
notes, the Trace has the contract's shapes, a seed fixes the run, and bad input raises
olcore.StreamError.  The learners and how to compare them are listed in tests/learners.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from olcore import StreamError
from tests.learners import LEARNERS, LearnerSpec, run_reference
from tests.ulps import assert_close_ulps

N_STREAMS = 150          # seeded streams per learner and per kind of data (continuous, integer)
IDS = [s.name for s in LEARNERS]


def _streams(spec: LearnerSpec, integer: bool, n: int = N_STREAMS):
    for seed in range(n):
        rng = np.random.default_rng(seed + (10_000 if integer else 0))
        yield spec.make_stream(rng, integer)


def _agree(what: str, fast, ref, ulps: float, atol: float) -> None:
    """Bit for bit when ``ulps`` is 0 (the same sums in the same order), else within ``atol`` plus ``ulps`` ulps."""
    if ulps == 0:
        np.testing.assert_array_equal(np.asarray(fast), np.asarray(ref), err_msg=what)
    else:
        assert_close_ulps(fast, ref, ulps, atol, err_msg=what)


def _saturated(fast, slow, level, where):
    """Where a loss is ill-conditioned (above ``level``) both paths must be above it; elsewhere they agree."""
    fast, slow = np.asarray(fast, float), np.asarray(slow, float)
    sat = (fast > level) | (slow > level)
    assert ((fast[sat] > level) & (slow[sat] > level)).all(), where
    return np.where(sat, 0.0, fast), np.where(sat, 0.0, slow)


@pytest.mark.parametrize("integer", [False, True], ids=["continuous", "integer"])
@pytest.mark.parametrize("spec", LEARNERS, ids=IDS)
def test_fast_path_agrees_with_reference_class(spec: LearnerSpec, integer: bool):
    ulps = spec.ulps_integer if integer else spec.ulps_continuous
    for X, y, params in _streams(spec, integer):
        tr = spec.run(X, y, params)
        ref = run_reference(spec, X, y, params)
        where = f"{spec.name} {params} T={len(X)}"
        for name, fast, slow in [("predictions", tr.predictions, ref.predictions), ("losses", tr.losses, ref.losses),
                                 ("weights", tr.weights, ref.weights),
                                 *[(k, tr.extras[k], ref.extras[k]) for k in spec.extras]]:
            if name == "losses" and spec.saturates is not None:
                fast, slow = _saturated(fast, slow, spec.saturates, where)
            _agree(f"{name}: {where}", fast, slow, 0 if name in spec.exact else ulps, spec.atol)
        if spec.classifier:
            np.testing.assert_array_equal(tr.mistakes, ref.mistakes, err_msg=where)
        assert np.isfinite(tr.weights).all(), where
        if spec.check is not None:
            spec.check(tr, ref, X, y, params)


@pytest.mark.parametrize("spec", [s for s in LEARNERS if s.coverage is not None], ids=lambda s: s.name)
def test_streams_reach_the_edge_cases(spec: LearnerSpec):
    runs = [(spec.run(X, y, p), X, y, p, integer) for integer in (False, True) for X, y, p in _streams(spec, integer)]
    spec.coverage(runs)


@pytest.mark.parametrize("spec", LEARNERS, ids=IDS)
def test_trace_shapes(spec: LearnerSpec):
    for integer in (False, True):
        for X, y, params in _streams(spec, integer, 20):
            tr = spec.run(X, y, params)
            T = len(X) * params.get("epochs", 1)
            k = np.asarray(X).shape[1]
            assert tr.T == T
            assert tr.losses.shape == (T,) and tr.losses.dtype == float
            assert tr.predictions.shape == (T,)
            assert tr.weights.shape == (T + 1, k)
            if spec.classifier:
                assert tr.mistakes.shape == (T,) and tr.mistakes.dtype == bool
            if spec.kind in ("experts", "experts01", "losses"):
                assert tr.expert_losses.shape == (len(X), k)


def _same_trace(a, b) -> None:
    for name in ("losses", "predictions", "weights", "mistakes", "expert_losses"):
        x, y = getattr(a, name), getattr(b, name)
        assert (x is None) == (y is None), name
        if x is not None:
            np.testing.assert_array_equal(x, y, err_msg=name)
    assert set(a.extras) == set(b.extras)
    for k in a.extras:
        np.testing.assert_array_equal(a.extras[k], b.extras[k], err_msg=k)


@pytest.mark.parametrize("spec", LEARNERS, ids=IDS)
def test_same_input_and_seed_give_the_same_trace(spec: LearnerSpec):
    for X, y, params in _streams(spec, False, 20):
        X0, y0 = np.array(X, copy=True), None if y is None else np.array(y, copy=True)
        _same_trace(spec.run(X, y, params), spec.run(X, y, params))
        np.testing.assert_array_equal(X, X0)                   # the input is not modified
        if y is not None:
            np.testing.assert_array_equal(y, y0)


@pytest.mark.parametrize("spec", [s for s in LEARNERS if s.randomized], ids=lambda s: s.name)
def test_a_different_seed_gives_a_different_draw(spec: LearnerSpec):
    rng = np.random.default_rng(0)
    T, n = 100, 5
    X = rng.random((T, n))                                    # losses in [0, 1]: no expert dominates
    y = None
    if spec.labelled:
        y = rng.integers(0, 2, T)
        X = np.where(rng.random((T, n)) < 0.4, 1 - y[:, None], y[:, None])
    params = dict(spec.make_stream(np.random.default_rng(1), False)[2], seed=0)
    base = spec.run(X, y, params)
    for seed in range(1, 11):
        other = spec.run(X, y, dict(params, seed=seed))
        assert not np.array_equal(base.predictions, other.predictions), seed
        np.testing.assert_array_equal(base.weights, other.weights)   # only the draws change


@pytest.mark.parametrize("spec", LEARNERS, ids=IDS)
def test_bad_input_raises_stream_error(spec: LearnerSpec):
    X, y, params = next(_streams(spec, True))
    X = np.asarray(X, dtype=float)
    run = spec.run
    with pytest.raises(StreamError):                          # a 3-d array
        run(X[None], y, params)
    with pytest.raises(StreamError):                          # no columns (no expert, no feature)
        run(X[:, :0], y, params)
    if spec.labelled:
        with pytest.raises(StreamError):                      # one row, not a matrix (a 1-d X is a column)
            run(X[0], y, params)
        with pytest.raises(StreamError):                      # one label short
            run(X, np.asarray(y)[:-1], params)
        bad_y = np.asarray(y, dtype=float).copy()
        bad_y[-1] = spec.bad_label                            # a label outside the alphabet
        with pytest.raises(StreamError):
            run(X, bad_y, params)
    else:
        bad = X.copy()
        bad[-1, -1] = spec.bad_label                          # a loss outside [0, 1]
        with pytest.raises(StreamError):
            run(bad, y, params)
    for value in (np.nan, np.inf):
        bad = X.copy()
        bad[0, 0] = value
        with pytest.raises(StreamError):
            run(bad, y, params)
    for change in spec.bad_params:
        with pytest.raises(StreamError):
            run(X, y, {**params, **change})
        ref_kwargs = spec.reference_kwargs({**params, **change})
        if set(change) & set(ref_kwargs):                     # the class refuses the same parameter
            with pytest.raises(StreamError):
                spec.reference(X.shape[1], **ref_kwargs)
