"""One contract for every learner in olcore (as River's test_estimators.py and scikit-learn's
parametrize_with_checks): the fast path agrees with the reference class that mirrors the
notes, played through the one learner protocol (olcore.protocol), the Trace has the contract's
shapes, a seed fixes the run, and bad input raises olcore.StreamError.  The learners and how
to compare them are listed in tests/learners.py; a public learner of olcore.linear,
olcore.experts or olcore.oco missing from that list fails the census below.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import types
import typing

import numpy as np
import pytest

from olcore import StreamError, Trace, experts, linear, oco
from olcore.protocol import Learner
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


# -- the census: every public learner is in the contract, and follows the protocol ----------------

def _public_modules(*packages):
    """The packages and modules given, with every public submodule of a package (each has its own ``__all__``)."""
    for mod in packages:
        yield mod
        for info in pkgutil.iter_modules(getattr(mod, "__path__", [])):
            if not info.name.startswith("_"):
                yield importlib.import_module(f"{mod.__name__}.{info.name}")


HOMES = ("olcore.linear", "olcore.experts", "olcore.oco")


def public_learners(*modules) -> tuple[list, list[str]]:
    """The public learners of ``modules`` (each name in their ``__all__``): the classes with a ``predict`` or
    an ``update``, and the functions whose return annotation is :class:`olcore.Trace` (the whole-stream runs).
    Also returns the public functions defined in :data:`HOMES` without a return annotation, which the census
    cannot classify (a re-exported helper from elsewhere, such as a stream generator, is not one)."""
    found, unknown = [], []
    for mod in modules:
        for name in getattr(mod, "__all__", ()):
            obj = getattr(mod, name)
            if inspect.isclass(obj):
                if hasattr(obj, "predict") or hasattr(obj, "update"):
                    found.append(obj)
            elif inspect.isfunction(obj):
                hints = typing.get_type_hints(obj)
                if "return" not in hints:
                    if obj.__module__.startswith(HOMES):
                        unknown.append(f"{mod.__name__}.{name}")
                elif hints["return"] is Trace:
                    found.append(obj)
    return list(dict.fromkeys(found)), sorted(set(unknown))


def _missing(learners) -> list[str]:
    covered = {s.fast for s in LEARNERS} | {s.reference for s in LEARNERS}
    return sorted(f"{o.__module__}.{o.__qualname__}" for o in learners if o not in covered)


PUBLIC, UNANNOTATED = public_learners(*_public_modules(linear, experts, oco))


def test_every_public_learner_is_in_the_contract():
    assert not UNANNOTATED, (f"annotate the return type of {UNANNOTATED}, so that the census can tell "
                             "whether each is a whole-stream learner (-> Trace)")
    assert not _missing(PUBLIC), (f"{_missing(PUBLIC)} are public learners missing from the contract: "
                                  "add a LearnerSpec to tests/learners.py")
    # the census sees what it should: both paths of each family, oco's included
    for obj in (linear.perceptron, linear.Perceptron, experts.hedge, experts.Hedge, oco.projected_ogd,
                oco.ProjectedOGD, oco.simplex_ogd, oco.SimplexOGD, linear.selective_sampling):
        assert obj in PUBLIC, obj
    for obj in (oco.best_fixed, oco.Ball, experts.hedge_many, linear.rkhs_margin):
        assert obj not in PUBLIC, obj


def test_the_census_catches_a_learner_left_out():
    mod = types.ModuleType("olcore.linear.newcomer")

    def newcomer(X, y) -> Trace:
        raise NotImplementedError

    def unannotated(X, y):
        raise NotImplementedError

    class Newcomer:
        def predict(self, x):
            return 0

        def update(self, x, y):
            return 0.0

    unannotated.__module__ = mod.__name__
    mod.newcomer, mod.Newcomer, mod.unannotated, mod.perceptron = newcomer, Newcomer, unannotated, linear.perceptron
    mod.__all__ = ["newcomer", "Newcomer", "unannotated", "perceptron"]
    found, unknown = public_learners(mod)
    assert found == [newcomer, Newcomer, linear.perceptron]
    assert unknown == ["olcore.linear.newcomer.unannotated"]
    assert [m.rsplit(".", 1)[-1] for m in _missing(found)] == ["Newcomer", "newcomer"]


def _parameters(method) -> list[str]:
    return [p.name for p in inspect.signature(method).parameters.values()][1:]


@pytest.mark.parametrize("cls", [o for o in PUBLIC if inspect.isclass(o)], ids=lambda c: c.__name__)
def test_every_reference_class_follows_the_protocol(cls):
    """``predict(x)`` and ``update(x, y)``, those names in that order, nothing else required
    (the types they return are checked on every round of the contract's runs: tests/learners.py)."""
    assert issubclass(cls, Learner)
    assert _parameters(cls.predict)[:1] == ["x"], cls
    assert _parameters(cls.update)[:2] == ["x", "y"], cls
    for method in (cls.predict, cls.update):
        extra = [p for p in list(inspect.signature(method).parameters.values())[1:] if p.name not in ("x", "y")]
        assert all(p.default is not inspect.Parameter.empty for p in extra), (method, extra)
