"""The compiled core: the fast paths run numba-compiled loops, the record= option, the cache
directory fallback and warm-up.  (Fast path == reference class over all learners is the
contract test's job; here: agreement where the compiled loops changed the arithmetic.)"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba.core.registry import CPUDispatcher

import olcore
from olcore import StreamError, _sums, experts, jit, linear
from tests.learners import FLOOR, HEDGE_ULPS, VOTE_ULPS, WA_ENTROPIC_ULPS
from tests.ulps import assert_close_ulps

def _mod(name):  # the module (olcore.linear.perceptron is also the name of a function)
    return importlib.import_module(name)


perc_mod, winnow_mod, pa_mod, wh_mod, eg_mod = (_mod(f"olcore.linear.{m}") for m in (
    "perceptron", "winnow", "passive_aggressive", "widrow_hoff", "eg"))
halving_mod, wm_mod, hedge_mod, wa_mod = (_mod(f"olcore.experts.{m}") for m in (
    "halving", "weighted_majority", "hedge", "weighted_average"))

KERNELS = {
    "perceptron": perc_mod._rounds, "winnow": winnow_mod._rounds, "hinge (OGD, PA)": pa_mod.hinge_rounds,
    "widrow_hoff": wh_mod._rounds, "eg": eg_mod._rounds, "halving": halving_mod._rounds,
    "weighted_majority": wm_mod._rounds, "hedge": hedge_mod._rounds, "weighted_average": wa_mod._rounds,
}


def test_jit_is_not_disabled_in_the_tests():
    assert os.environ.get("NUMBA_DISABLE_JIT", "0") in ("", "0")


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_every_fast_path_is_a_compiled_numba_kernel(name):
    k = KERNELS[name]
    assert isinstance(k, CPUDispatcher), f"{name}: {type(k)}"
    assert k._cache.__class__.__name__ == "FunctionCache"        # cache=True: on disk


def test_warm_compiles_every_kernel_with_one_signature_each():
    olcore.warm()
    assert set(jit.KERNELS) >= {"perceptron", "winnow", "ogd_hinge", "passive_aggressive", "widrow_hoff",
                                "exponentiated_gradient", "halving", "weighted_majority", "hedge",
                                "weighted_average"}
    for name, k in KERNELS.items():
        assert len(k.signatures) == 1, f"{name} compiled for {k.signatures}"
    # inputs of other dtypes (ints, bools, Fortran order) reuse the same compiled loop
    rng = np.random.default_rng(0)
    X = np.asfortranarray((rng.random((50, 3)) < 0.5).astype(np.int32))
    linear.perceptron(X * 2 - 1, np.where(X[:, 0] > 0, 1, -1))
    experts.halving(X.astype(bool), X[:, 1])
    Xr = np.where(X > 0, 1.0, -1.0)
    Xr.setflags(write=False)                                     # read-only input (a frozen Stream)
    linear.perceptron(Xr, Xr[:, 0].copy())
    assert len(perc_mod._rounds.signatures) == 1 and len(halving_mod._rounds.signatures) == 1


def test_batched_expert_paths_run_the_same_compiled_loops():
    """experts.hedge_many and experts.weighted_majority_prefixes call the loops with the types hedge() and
    weighted_majority() use (the prefixes are read-only C-contiguous views): no second compile."""
    olcore.warm()
    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, (60, 5))
    y = rng.integers(0, 2, 60)
    experts.hedge_many((X != y[:, None]).astype(float), [0.1, 2.0], seed=1)
    experts.hedge_many(rng.random((30, 70)) * 3, [0.5], B=3.0)
    experts.weighted_majority_prefixes(X, y, [1, 17, 60], [0.0, 0.5, 0.9])
    experts.weighted_majority_prefixes(X.astype(np.int8), y.astype(bool), [60], [0.3])
    assert len(hedge_mod._rounds.signatures) == 1, hedge_mod._rounds.signatures
    assert len(wm_mod._rounds.signatures) == 1, wm_mod._rounds.signatures


def test_the_max_margin_searchs_helper_compiles_once():
    """comparators._pair (the search's argmin/argmax over the points in use) is compiled, warmed, and called
    with one signature whatever stream the search runs on."""
    from olcore import comparators

    olcore.warm()
    assert isinstance(comparators._pair, CPUDispatcher) and "max_margin_direction" in jit.KERNELS
    rng = np.random.default_rng(2)
    comparators.max_margin_direction(rng.integers(-2, 3, (30, 3)), np.where(rng.random(30) < 0.5, 1, -1))
    Xr = rng.standard_normal((20, 2))
    Xr.setflags(write=False)
    comparators.max_margin_direction(Xr, np.where(Xr[:, 0] > 0, 1.0, -1.0), max_iter=50)
    assert len(comparators._pair.signatures) == 1, comparators._pair.signatures


def test_warm_in_background_starts_one_thread_per_process():
    t1 = olcore.warm_in_background()
    t2 = olcore.warm_in_background()
    assert t1 is t2
    t1.join(timeout=120)
    assert not t1.is_alive()


# -- cache directory -------------------------------------------------------------------------

def test_cache_dir_beside_the_package_when_writable(tmp_path):
    assert jit.choose_cache_dir(tmp_path, {}) is None
    assert jit.choose_cache_dir(tmp_path, {"NUMBA_CACHE_DIR": "/somewhere"}) is None


def _deny_writes_under(prefix: str) -> str:
    """Python source that makes ``os.access(path, W_OK)`` false under ``prefix`` (as for a
    read-only install; chmod alone does not stop root, which runs these tests in CI)."""
    return (f"import os; _access = os.access; os.access = lambda p, m, **k: "
            f"False if (m & os.W_OK and str(p).startswith({prefix!r})) else _access(p, m, **k)\n")


def test_read_only_package_falls_back_to_a_writable_cache_dir(tmp_path, monkeypatch):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, m, **k: False if str(p).startswith(str(pkg)) else real_access(p, m, **k))
    chosen = jit.choose_cache_dir(pkg, {"XDG_CACHE_HOME": str(tmp_path / "xdg")})
    assert chosen == str(tmp_path / "xdg" / "olcore" / "numba")
    assert Path(chosen).is_dir()
    assert jit.choose_cache_dir(pkg, {"NUMBA_CACHE_DIR": str(tmp_path)}) is None   # explicit wins
    assert jit.choose_cache_dir(tmp_path, {}) is None                                # writable: default


def test_read_only_install_runs_and_caches_in_the_fallback_dir(tmp_path):
    """A copy of olcore in a directory it cannot write: importing sets NUMBA_CACHE_DIR, a
    run compiles, and the compiled loop lands in the fallback cache, not beside the module."""
    root = Path(__file__).resolve().parents[1]
    site = tmp_path / "site"
    site.mkdir()
    subprocess.run(["cp", "-r", str(root / "olcore"), str(site)], check=True)
    for p in list((site / "olcore").rglob("__pycache__")):
        subprocess.run(["rm", "-rf", str(p)], check=True)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(XDG_CACHE_HOME=str(tmp_path / "xdg"), PYTHONPATH=str(site), PYTHONDONTWRITEBYTECODE="1")
    code = (_deny_writes_under(str(site)) +
            "import olcore, numpy as np; from olcore import linear\n"
            "print(os.environ['NUMBA_CACHE_DIR'])\n"
            "print(linear.perceptron(np.eye(2), np.ones(2)).n_mistakes)\n")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=300, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    cache, mistakes = out.stdout.split()
    assert cache == str(tmp_path / "xdg" / "olcore" / "numba") and mistakes == "2"
    assert any(Path(cache).rglob("perceptron*.nbi"))
    assert not any((site / "olcore").rglob("*.nbi"))


# -- record= --------------------------------------------------------------------------------

def _expert_runs(rng, T=120, n=7):
    X = (rng.random((T, n)) < 0.5).astype(int)
    y = (rng.random(T) < 0.5).astype(int)
    L = rng.random((T, n))
    P = rng.random((T, n))
    q = rng.random(T)
    return [
        lambda **kw: experts.halving(X, y, **kw),
        lambda **kw: experts.weighted_majority(X, y, 0.7, **kw),
        lambda **kw: experts.randomized_weighted_majority(X, y, 0.7, seed=3, **kw),
        lambda **kw: experts.weighted_average(P, q, 0.5, "square", **kw),
        lambda **kw: experts.weighted_average(P, q, 1.0, "entropic", **kw),
        lambda **kw: experts.hedge(L, 0.3, seed=2, **kw),
    ]


@pytest.mark.parametrize("record", ["final", 1, 7, 50, 500])
def test_expert_record_keeps_exactly_the_rows_it_names(record):
    for run in _expert_runs(np.random.default_rng(11)):
        full, part = run(), run(record=record)
        T = full.T
        rounds = part.recorded_rounds
        expect = ([0, T] if record == "final" else sorted(set(range(0, T + 1, record)) | {T}))   # "final": first and last
        assert rounds.tolist() == expect
        np.testing.assert_array_equal(part.weights_on(rounds), full.weights_on(rounds))
        np.testing.assert_array_equal(part.weights_at(T), full.weights_at(T))
        for name in ("losses", "predictions", "expert_losses"):
            np.testing.assert_array_equal(getattr(part, name), getattr(full, name))
        assert part.extras.keys() == full.extras.keys()
        if len(rounds) < T + 1:
            missing = int(np.setdiff1d(np.arange(T + 1), rounds)[0])
            with pytest.raises(StreamError, match="not recorded"):
                part.weights_at(missing)
            with pytest.raises(StreamError, match="not recorded"):
                part.weights  # noqa: B018
        else:
            np.testing.assert_array_equal(part.weights, full.weights)


def test_large_expert_run_does_not_build_the_history():
    rng = np.random.default_rng(0)
    L = rng.random((5000, 1000))
    tr = experts.hedge(L, 0.05, record="final")
    assert tr.weight_table.shape == (2, 1000)          # the first and the last weights
    np.testing.assert_allclose(tr.weights_at(5000).sum(), 1.0, rtol=1e-12)
    tr2 = experts.hedge(L, 0.05, record=25)
    assert tr2.weight_table.shape == (201, 1000)


@pytest.mark.parametrize("bad", ["some", 0, -3, 2.5, True, None])
def test_bad_record_is_a_stream_error(bad):
    with pytest.raises(StreamError, match="record"):
        experts.hedge(np.zeros((3, 2)), record=bad)
    with pytest.raises(StreamError, match="record"):
        linear.perceptron(np.eye(2), np.ones(2), record=bad)


@pytest.mark.parametrize("learner", ["perceptron", "winnow", "ogd", "PA", "PA-I", "PA-II"])
def test_linear_record_final_keeps_everything_but_the_table(learner):
    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 4))
    y = np.where(rng.random(300) < 0.5, 1.0, -1.0)
    if learner == "perceptron":
        run = lambda **kw: linear.perceptron(X, y, epochs=3, v=np.ones(4), **kw)  # noqa: E731
    elif learner == "winnow":
        Xb = (X > 0).astype(int)
        run = lambda **kw: linear.winnow(Xb, (y > 0).astype(int), alpha=1.5, epochs=2, **kw)  # noqa: E731
    elif learner == "ogd":
        run = lambda **kw: linear.ogd_hinge(X, y, eta=0.3, epochs=2, **kw)  # noqa: E731
    else:
        run = lambda **kw: linear.passive_aggressive(X, y, learner, C=0.5, epochs=2, **kw)  # noqa: E731
    full, fin = run(), run(record="final")
    assert fin.recorded_rounds.tolist() == [0, full.T]
    np.testing.assert_array_equal(fin.weights_at(full.T), full.weights_at(full.T))
    np.testing.assert_array_equal(fin.losses, full.losses)
    np.testing.assert_array_equal(fin.mistakes, full.mistakes)
    assert fin.extras.keys() == full.extras.keys()
    for k in full.extras:
        np.testing.assert_allclose(fin.extras[k], full.extras[k], rtol=1e-12, atol=1e-12)
    with pytest.raises(StreamError, match="not recorded"):
        fin.weights_at(1)


# -- agreement where the compiled loops changed the arithmetic ------------------------------

def test_replayed_weight_table_is_the_loops_weights_bit_for_bit():
    """The table is rebuilt after the loop: its rows must be exactly the weights the loop
    scored with (checked through the scores, which the loop computed with its own w, summed in
    the order of ``olcore._sums.dot``)."""
    rng = np.random.default_rng(7)
    for _ in range(20):
        X = rng.normal(size=(200, 5))
        y = np.where(rng.random(200) < 0.5, 1.0, -1.0)
        for tr in (linear.perceptron(X, y, epochs=2), linear.passive_aggressive(X, y, "PA-I", 0.3),
                   linear.ogd_hinge(X, y, 0.2)):
            W = tr.weights[:-1]
            Xt = np.tile(X, (tr.T // X.shape[0], 1))
            np.testing.assert_array_equal([_sums.dot(w, x) for w, x in zip(W, Xt)], tr.extras["score"])
            np.testing.assert_array_equal(tr.weights_at(tr.T), tr.weight_table[-1])


def test_epochs_cycle_and_clean_pass_shortcut_equals_the_reference():
    """Several epochs on a separable stream: the loop stops recomputing after a clean pass;
    the trace must equal a round-by-round reference run over the cycled stream."""
    rng = np.random.default_rng(3)
    for _ in range(10):
        X = rng.integers(-3, 4, size=(40, 3)).astype(float)
        y = np.where(X @ np.array([1.0, -2.0, 0.5]) >= 0, 1.0, -1.0)
        tr = linear.perceptron(X, y, epochs=6)
        ref = linear.Perceptron(3)
        for t in range(tr.T):
            x = X[t % 40]
            np.testing.assert_array_equal(tr.weights_at(t), ref.w)
            assert tr.predictions[t] == ref.predict(x)
            assert tr.mistakes[t] == ref.update(x, y[t % 40])
        np.testing.assert_array_equal(tr.weights_at(tr.T), ref.w)


def test_expert_loops_agree_with_the_reference_classes():
    rng = np.random.default_rng(4)
    for _ in range(10):
        T, n = 60, int(rng.integers(2, 9))
        X = (rng.random((T, n)) < 0.5).astype(int)
        y = (rng.random(T) < 0.5).astype(int)
        beta = float(rng.uniform(0.05, 0.95))
        tr = experts.weighted_majority(X, y, beta)
        ref = experts.WeightedMajority(n, beta)
        for t in range(T):
            assert_close_ulps(tr.weights_at(t), ref.weights, VOTE_ULPS)      # the contract's tolerances
            assert tr.predictions[t] == ref.predict(X[t])
            ref.update(X[t], y[t])
        L = rng.random((T, n))
        tr = experts.hedge(L, 0.7)
        ref = experts.Hedge(n, 0.7)
        for t in range(T):
            assert_close_ulps(tr.weights_at(t), ref.weights, HEDGE_ULPS, FLOOR)
            assert_close_ulps(tr.losses[t], ref.weights @ L[t], HEDGE_ULPS, FLOOR)
            ref.update(L[t])
        P, q = rng.random((T, n)), rng.random(T)
        P[rng.random((T, n)) < 0.1] = 0.0
        q[rng.random(T) < 0.3] = 1.0
        tr = experts.weighted_average(P, q, 1.0, "entropic")
        ref = experts.WeightedAverage(n, 1.0, "entropic")
        for t in range(T):
            assert_close_ulps(tr.weights_at(t), ref.weights, WA_ENTROPIC_ULPS, FLOOR)
            assert_close_ulps(tr.predictions[t], ref.predict(P[t]), WA_ENTROPIC_ULPS, FLOOR)
            ref.update(P[t], q[t])


# -- input checks folded into the compiled loops ----------------------------------------------

def _full_check_message(fn):
    with pytest.raises(StreamError) as info:
        fn()
    return str(info.value)


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
def test_a_bad_entry_found_by_the_loop_raises_the_full_checks_message(value):
    """The loops check each row as they read it; the error must be the one the up-front checks
    (olcore.validate) gave: the field, the first bad entry's row and column, what is expected."""
    from olcore.validate import as_labels, as_matrix

    rng = np.random.default_rng(2)
    for r, c in [(0, 0), (57, 2), (199, 3)]:
        X = rng.normal(size=(200, 4))
        y = np.where(rng.random(200) < 0.5, 1.0, -1.0)
        X[r, c] = value
        X[r + 1 if r < 199 else 0, 1] = value                  # a second one: the first is named
        want = _full_check_message(lambda: as_matrix(X, "X"))
        assert f"row {1 if r == 199 else r + 1}," in want
        for run in (lambda: linear.perceptron(X, y), lambda: linear.perceptron(X, y, epochs=3),
                    lambda: linear.passive_aggressive(X, y, "PA-I"), lambda: linear.ogd_hinge(X, y),
                    lambda: linear.ogd_hinge(X, y, conservative=True),
                    lambda: linear.widrow_hoff(X, y), lambda: linear.widrow_hoff(X, y, record="final")):
            assert _full_check_message(run) == want
        yb = y.copy()
        yb[r] = value
        want_y = _full_check_message(lambda: as_labels(yb, 200, "y"))
        Z = np.zeros_like(X)
        for run in (lambda: linear.perceptron(Z, yb), lambda: linear.widrow_hoff(Z, yb),
                    lambda: linear.passive_aggressive(Z, yb, "PA")):
            assert _full_check_message(run) == want_y
    y2 = np.ones(200)
    y2[77] = 0.0
    assert "row 78" in _full_check_message(lambda: linear.perceptron(np.ones((200, 2)), y2))


def test_huge_finite_rows_are_not_mistaken_for_bad_ones():
    """x . x overflows to inf for finite entries near 1e200: the loop must look at the entries."""
    X = np.array([[1e200, 1.0], [1.0, -1e200], [0.5, 0.5]])
    y = np.array([1.0, -1.0, 1.0])
    with np.errstate(invalid="ignore", over="ignore"):
        tr = linear.perceptron(X, y)
        assert tr.T == 3 and tr.mistakes[0]
        linear.passive_aggressive(X, y, "PA-II")
        linear.widrow_hoff(X / 1e150, y)


def test_expert_loops_check_their_entries_and_leave_the_callers_arrays_alone():
    rng = np.random.default_rng(3)
    L = rng.random((50, 6))
    L0 = L.copy()
    tr = experts.hedge(L, 0.3)
    assert L.flags.writeable and np.array_equal(L, L0)          # not frozen, not changed
    L[10, 2] = 7.0                                               # the trace holds its own copy
    assert tr.expert_losses[10, 2] == L0[10, 2]
    for bad, what in [(np.nan, "nan at row 11, column 3"), (1.5, "1.5 at row 11, column 3"), (-0.5, "-0.5 at row 11")]:
        L[10, 2] = bad
        assert what in _full_check_message(lambda: experts.hedge(L, 0.3))
    X = (rng.random((50, 6)) < 0.5).astype(np.int8)
    y = (rng.random(50) < 0.5).astype(np.int8)
    ref = experts.weighted_majority(X, y, 0.3)
    for Xv, yv in [(X.astype(bool), y.astype(bool)), (X.astype(float), y.astype(float)),
                   (X.astype(np.uint8), y.astype(int)), (np.asfortranarray(X.astype(np.int32)), y)]:
        tr = experts.weighted_majority(Xv, yv, 0.3)
        np.testing.assert_array_equal(tr.weights, ref.weights)
        np.testing.assert_array_equal(tr.predictions, ref.predictions)
        assert Xv.flags.writeable
    Xb = X.astype(np.uint8)
    Xb[20, 4] = 255
    assert "255 at row 21, column 5" in _full_check_message(lambda: experts.weighted_majority(Xb, y))
    yb = y.astype(float)
    yb[5] = 0.5
    assert "0.5 at row 6" in _full_check_message(lambda: experts.randomized_weighted_majority(X, yb))


#: Hedge at eta up to 5000: the two paths round the exponents eta S_{t,i} differently, and an error of one
#: ulp in an exponent of size E is about E ulps in the weight e^{-E}: at most 2.6e4 ulps beyond FLOOR measured
#: (eta = 200 and 5000; 178 at eta = 3), under the CPUs and libraries the contract's tolerances were measured on
#: (tests/learners.py).
LARGE_ETA_ULPS = 2**17


@pytest.mark.parametrize("eta", [0.05, 3.0, 200.0, 5000.0])
def test_hedge_table_of_exponentials_and_underflow_fallback_agree_with_the_reference(eta):
    """Whole-number losses use a table of e^{-eta k}; a huge eta underflows the one-round-stale
    shift and the loop shifts again by the best expert; mixed streams switch to exp per expert."""
    rng = np.random.default_rng(int(eta))
    for kind in ("01", "integers", "mixed"):
        T, n = 120, 9
        L = (rng.random((T, n)) < 0.4).astype(float)
        B = 1.0
        if kind == "integers":
            B = 3.0
            L = rng.integers(0, 4, (T, n)).astype(float)
        elif kind == "mixed":
            L[60:] = rng.random((60, n))
        tr = experts.hedge(L, eta, B=B)
        ref = experts.Hedge(n, eta, B=B)
        for t in range(T):
            assert_close_ulps(tr.weights_at(t), ref.weights, LARGE_ETA_ULPS, FLOOR)
            assert_close_ulps(tr.losses[t], ref.weights @ L[t], LARGE_ETA_ULPS, FLOOR)
            ref.update(L[t])
        assert np.isfinite(tr.extras["rel_entropy"]).all()


def test_widrow_hoff_record_keeps_the_rows_it_names():
    rng = np.random.default_rng(6)
    X, y = rng.normal(size=(90, 3)), rng.normal(size=90)
    full = linear.widrow_hoff(X, y, 0.05)
    for record, rounds in [("final", [0, 90]), (25, [0, 25, 50, 75, 90]), (1, list(range(91)))]:
        part = linear.widrow_hoff(X, y, 0.05, record=record)
        assert part.recorded_rounds.tolist() == rounds
        np.testing.assert_array_equal(part.weights_on(rounds), full.weights_on(rounds))
        np.testing.assert_array_equal(part.losses, full.losses)
        np.testing.assert_array_equal(part.extras["residual"], full.extras["residual"])
    with pytest.raises(StreamError, match="record"):
        linear.widrow_hoff(X, y, 0.05, u=np.ones(3), record="final")
    with pytest.raises(StreamError, match="record"):
        linear.widrow_hoff(X, y, 0.05, record="some")


def test_exp_lanes_is_within_one_ulp_of_libm_and_underflows_like_it():
    rng = np.random.default_rng(12)
    x = np.concatenate([-rng.random(20000) * 760, -rng.random(2000) * 1e-6, -np.arange(0, 760, 0.25),
                        [0.0, -0.0, -745.2, -745.1, -744.4, -708.4, -708.3, -1400.0, -1e9, -np.inf, 1e-300]])

    @jit.njit
    def lanes(x, out):
        for i in range(x.shape[0]):
            out[i] = jit.exp_lanes(x[i])

    got = np.empty_like(x)
    lanes(x, got)
    want = np.exp(x)
    ulps = np.abs(got - want) / np.spacing(np.maximum(want, np.finfo(float).tiny))
    normal = want >= np.finfo(float).tiny
    assert ulps[normal].max() <= 1.0
    assert np.abs(got[~normal] - want[~normal]).max() <= 2 * np.finfo(float).smallest_subnormal * 2**10
    assert (got[want == 0] == 0).all() and (got[x == 0] == 1.0).all()


def test_hedge_copies_a_writable_loss_matrix_compactly_and_shares_a_read_only_one():
    """Whole-number losses are copied as int8 (float64 made on first read), a stream that turns
    fractional midway switches to a float64 copy, a read-only matrix is shared; every trace holds
    the losses it was run on whatever the caller does to its array afterwards, and pickles."""
    import pickle

    rng = np.random.default_rng(8)
    for kind in ("01", "integers", "mixed", "float"):
        L = (rng.random((90, 7)) < 0.4).astype(float)
        B = 1.0
        if kind == "integers":
            B, L = 100.0, rng.integers(0, 101, (90, 7)).astype(float)
        elif kind == "mixed":
            L[50:] = rng.random((40, 7))
        elif kind == "float":
            L = rng.random((90, 7))
        L0 = L.copy()
        tr = experts.hedge(L, 0.4, B=B)
        ref = experts.hedge(L0.copy(), 0.4, B=B)
        L[:] = 0.5                                              # the caller reuses its array
        assert L.flags.writeable
        np.testing.assert_array_equal(tr.expert_losses, L0)
        assert tr.expert_losses.dtype == np.float64 and not tr.expert_losses.flags.writeable
        np.testing.assert_array_equal(tr.weights, ref.weights)
        back = pickle.loads(pickle.dumps(experts.hedge(L0.copy(), 0.4, B=B)))
        np.testing.assert_array_equal(back.expert_losses, L0)
        np.testing.assert_array_equal(back.regret, ref.regret)
    Lr = L0.copy()
    Lr.setflags(write=False)
    assert np.shares_memory(experts.hedge(Lr, 0.4).expert_losses, Lr)


@pytest.mark.parametrize("learner", ["perceptron", "PA", "PA-I", "PA-II", "ogd", "ogd_conservative"])
def test_loops_write_the_same_weight_table_as_the_replay(monkeypatch, learner):
    """With record='every' the loop writes one table row per update itself; a run too large for
    that room replays the updates after the loop instead: the same rows either way."""
    run, mod = {
        "perceptron": (lambda X, y, e: linear.perceptron(X, y, epochs=e), perc_mod),
        "ogd": (lambda X, y, e: linear.ogd_hinge(X, y, 0.3, epochs=e), pa_mod),
        "ogd_conservative": (lambda X, y, e: linear.ogd_hinge(X, y, 0.3, epochs=e, conservative=True), pa_mod),
    }.get(learner, (lambda X, y, e: linear.passive_aggressive(X, y, learner, C=0.7, epochs=e), pa_mod))
    rng = np.random.default_rng(9)
    for _ in range(20):
        T, d = int(rng.integers(1, 300)), int(rng.integers(1, 8))
        X = rng.normal(size=(T, d))
        y = np.where(rng.random(T) < 0.5, 1.0, -1.0)
        epochs = int(rng.integers(1, 4))
        tr = run(X, y, epochs)
        with monkeypatch.context() as m:
            m.setattr(mod, "TABLE_ROOM", 0)
            replayed = run(X, y, epochs)
        np.testing.assert_array_equal(tr.weight_table, replayed.weight_table)
        np.testing.assert_array_equal(tr.weight_index, replayed.weight_index)
        assert not tr.weight_table.flags.writeable and tr.weight_table.shape[0] == tr.weight_index[-1] + 1


def test_a_kernel_compiled_by_the_warming_child_is_only_loaded_by_the_server(tmp_path):
    """The server's process loads from the disk cache what the child compiled: no compile of its
    own (a compile holds the GIL and numba's compiler lock, stalling every page)."""
    script = (
        "import olcore, olcore.jit as jit\n"
        "from olcore.linear import conjunction as c\n"
        "assert jit.warm_in_child(['conjunction_elimination']) == 0\n"
        "jit.warm(['conjunction_elimination'])\n"
        "print(sum(d.stats.cache_hits[s] for d in (c._rounds, c._replay) for s in d.stats.cache_hits),"
        "      sum(d.stats.cache_misses[s] for d in (c._rounds, c._replay) for s in d.stats.cache_misses))\n")
    hits, misses = map(int, _in_fresh_cache(script, tmp_path).split())
    assert hits >= 1 and misses == 0, (hits, misses)


def test_the_server_knows_whether_the_disk_cache_has_every_kernel(tmp_path):
    """A server starts compiling children only when the cache lacks a kernel (a fresh install or
    changed sources); a complete cache is only loaded."""
    script = (
        "import olcore, olcore.jit as jit\n"
        "from olcore.linear import conjunction as c\n"
        "assert len(jit._DISPATCHERS) > 20 and c._rounds in jit._DISPATCHERS\n"
        "assert not jit.cache_is_complete()\n"
        "jit._DISPATCHERS[:] = [c._rounds, c._replay]\n"
        "assert not jit.cache_is_complete()\n"
        "jit.warm(['conjunction_elimination'])\n"
        "assert jit.cache_is_complete()\n"
        "print('ok')\n")
    assert _in_fresh_cache(script, tmp_path).strip() == "ok"


def _in_fresh_cache(script: str, cache) -> str:
    """Run ``script`` in a new interpreter whose numba cache is the empty directory ``cache``; its output."""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "NUMBA_CACHE_DIR": str(cache)})
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout
