"""Every bound broadcasts: f(array)[i] == f(scalar_i), and a bad entry gives a StreamError naming it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from olcore import StreamError, bounds
from olcore.validate import check_values

K = 12   # entries per random array


def _ints(lo, hi):
    return lambda r: r.integers(lo, hi + 1, size=K)


def _reals(lo, hi):
    return lambda r: r.uniform(lo, hi, size=K)


# name -> (function, {argument: sampler of K valid values}, {argument: an invalid entry})
CASES = {
    "halving": (bounds.halving, {"n": _ints(1, 5000)}, {"n": 0}),
    "weighted_majority": (bounds.weighted_majority,
                          {"best_mistakes": _ints(0, 50), "n": _ints(1, 100), "beta": _reals(0.01, 0.99)},
                          {"best_mistakes": -1, "n": 0.5, "beta": 1.0}),
    "weighted_majority_regret": (bounds.weighted_majority_regret,
                                 {"best_mistakes": _ints(0, 50), "n": _ints(1, 100), "beta": _reals(0.01, 0.99)},
                                 {"best_mistakes": math.nan, "beta": -0.1}),
    "randomized_weighted_majority": (bounds.randomized_weighted_majority,
                                     {"best_mistakes": _reals(0, 40), "n": _ints(1, 100), "beta": _reals(0.5, 0.99)},
                                     {"best_mistakes": -0.5, "beta": 0.3}),
    "randomized_weighted_majority_regret": (bounds.randomized_weighted_majority_regret,
                                            {"best_mistakes": _reals(0, 40), "n": _ints(1, 100),
                                             "beta": _reals(0.5, 0.99)},
                                            {"n": 0, "beta": 1.0}),
    "weighted_average": (bounds.weighted_average, {"n": _ints(1, 100), "eta": _reals(0.01, 1.0)},
                         {"eta": 1.5}),
    "hedge": (bounds.hedge, {"m": _ints(0, 1000), "n": _ints(1, 100)}, {"m": 2.5, "n": 0}),
    "hedge_eta": (bounds.hedge_eta, {"m": _ints(1, 1000), "n": _ints(1, 100)}, {"m": 0}),
    "hedge_regret": (bounds.hedge_regret, {"m": _ints(0, 1000), "n": _ints(1, 100), "eta": _reals(0.01, 3)},
                     {"m": -1, "eta": 0.0}),
    "perceptron": (bounds.perceptron, {"R": _reals(1.0, 3.0), "gamma": _reals(0.05, 1.0)},
                   {"R": 0.0, "gamma": 5.0}),
    "perceptron_nonseparable": (bounds.perceptron_nonseparable,
                                {"loss_u": _reals(0, 50), "norm_u": _reals(0, 10), "R": _reals(0.1, 3)},
                                {"loss_u": -1.0, "norm_u": math.inf, "R": 0.0}),
    "perceptron_disjunction": (bounds.perceptron_disjunction, {"k": _ints(0, 10), "N": _ints(10, 1000)},
                               {"k": 11000, "N": 0}),
    "winnow": (bounds.winnow, {"k": _ints(0, 10), "N": _ints(10, 1000)}, {"k": 2000, "N": 3.5}),
    "winnow_general": (bounds.winnow_general,
                       {"k": _ints(0, 10), "N": _ints(10, 1000), "alpha": _reals(1.1, 4), "theta": _reals(1, 500)},
                       {"alpha": 1.0, "theta": 0.0}),
    "ogd_hinge": (bounds.ogd_hinge, {"U": _reals(0, 5), "R": _reals(0, 3), "m": _ints(0, 1000)}, {"m": -3}),
    "ogd_hinge_eta": (bounds.ogd_hinge_eta, {"U": _reals(0.1, 5), "R": _reals(0.1, 3), "m": _ints(1, 1000)},
                      {"U": 0.0}),
    "ogd_hinge_regret": (bounds.ogd_hinge_regret,
                         {"U": _reals(0, 5), "R": _reals(0, 3), "m": _ints(0, 1000), "eta": _reals(0.01, 2)},
                         {"eta": -1.0}),
    "ogd_hinge_loss_bound": (bounds.ogd_hinge_loss_bound,
                             {"loss_u": _reals(0, 50), "norm_u": _reals(0, 5), "R": _reals(0, 3),
                              "eta": _reals(0.01, 2), "t": _ints(0, 1000)},
                             {"loss_u": math.nan, "t": 1.5}),
    "passive_aggressive_separable": (bounds.passive_aggressive_separable,
                                     {"norm_u": _reals(0, 5), "R": _reals(0, 3)}, {"norm_u": -2.0}),
    "passive_aggressive_pa1": (bounds.passive_aggressive_pa1,
                               {"norm_u": _reals(0, 5), "loss_u": _reals(0, 50), "C": _reals(0.01, 10),
                                "R": _reals(0, 3)}, {"C": 0.0, "loss_u": -1e-3}),
    "passive_aggressive_pa2": (bounds.passive_aggressive_pa2,
                               {"norm_u": _reals(0, 5), "sq_loss_u": _reals(0, 50), "C": _reals(0.01, 10),
                                "R": _reals(0, 3)}, {"sq_loss_u": -1.0}),
    "widrow_hoff": (bounds.widrow_hoff,
                    {"loss_u": _reals(0, 50), "norm_u_sq": _reals(0, 10), "eta": _reals(0.01, 0.99)},
                    {"eta": 1.0, "loss_u": -1.0}),
    "widrow_hoff_best_eta": (bounds.widrow_hoff_best_eta, {"loss_u": _reals(0, 50), "norm_u_sq": _reals(0, 10)},
                             {"norm_u_sq": -1.0}),
    "widrow_hoff_tuned": (bounds.widrow_hoff_tuned, {"loss_u": _reals(0, 50), "norm_u_sq": _reals(0, 10)},
                          {"loss_u": math.inf}),
    "online_to_batch": (bounds.online_to_batch,
                        {"risk_u": _reals(0, 5), "norm_u_sq": _reals(0, 10), "eta": _reals(0.01, 0.99),
                         "m": _ints(1, 1000)}, {"m": 0, "eta": 0.0}),
    # online-to-batch for classifiers (olcore.bounds.risk)
    "average_risk": (bounds.average_risk, {"mistakes": _ints(0, 50), "n": _ints(50, 500), "delta": _reals(0.01, 0.9)},
                     {"mistakes": -1, "n": 0, "delta": 1.0}),
    "chosen_risk": (bounds.chosen_risk, {"mistakes": _ints(0, 50), "n": _ints(50, 500), "delta": _reals(0.01, 0.9)},
                    {"mistakes": math.nan, "n": 2.5, "delta": 0.0}),
    "holdout_risk": (bounds.holdout_risk, {"errors": _ints(0, 20), "m": _ints(20, 200), "delta": _reals(1e-6, 0.9)},
                     {"errors": -2, "m": 0, "delta": -0.1}),
    "holdout_risk_lower": (bounds.holdout_risk_lower,
                           {"errors": _ints(0, 20), "m": _ints(20, 200), "delta": _reals(1e-6, 0.9)},
                           {"errors": math.inf, "m": 1.5}),
    "bernstein_deviation": (bounds.bernstein_deviation, {"K": _reals(0, 100), "L": _reals(0, 20)}, {"K": -1.0, "L": math.nan}),
}


def _sample(name, seed):
    _, samplers, _ = CASES[name]
    r = np.random.default_rng(seed)
    return {a: s(r) for a, s in samplers.items()}


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("name", sorted(CASES))
def test_array_in_gives_the_curve_of_scalar_values(name, seed):
    f = CASES[name][0]
    args = _sample(name, seed)
    curve = f(**args)
    assert isinstance(curve, np.ndarray) and curve.shape == (K,)
    for i in range(K):
        one = f(**{a: v[i].item() for a, v in args.items()})
        assert isinstance(one, float)
        assert curve[i] == pytest.approx(one, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("name", sorted(CASES))
def test_one_array_argument_among_scalars(name):
    f = CASES[name][0]
    args = _sample(name, 7)
    for a in args:
        mixed = {b: (v if b == a else v[0].item()) for b, v in args.items()}
        curve = f(**mixed)
        assert curve.shape == (K,)
        for i in (0, K // 2, K - 1):
            one = f(**{b: (v[i] if b == a else v[0]).item() for b, v in args.items()})
            assert curve[i] == pytest.approx(one, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_bad_entry_in_an_array_names_the_field_value_and_index(name):
    f, _, bad = CASES[name]
    for a, value in bad.items():
        args = _sample(name, 3)
        arr = args[a].astype(float)
        arr[3] = value
        args[a] = arr
        with pytest.raises(StreamError) as e:
            f(**args)
        msg = str(e.value)
        assert e.value.field == a and msg.startswith(a + ":")
        assert "index 3" in msg and "expected" in msg
        with pytest.raises(StreamError):                # and as a scalar
            f(**{b: (value if b == a else v[0].item()) for b, v in _sample(name, 3).items()})


@pytest.mark.parametrize("name", sorted(n for n in CASES if len(CASES[n][1]) >= 2))
def test_arrays_of_different_lengths_are_refused(name):
    f = CASES[name][0]
    args = _sample(name, 4)
    first = next(iter(args))
    args[first] = args[first][:-1]
    with pytest.raises(StreamError, match="one shape"):
        f(**args)


def test_prefix_curves_the_pages_draw():
    # WM regret is the mistake bound minus min_i M_i; at beta = 0, log2 n while perfect, then inf
    m = np.array([0, 0, 1, 2])
    assert np.array_equal(bounds.weighted_majority_regret(m, 8, 0.0), [3.0, 3.0, math.inf, math.inf])
    a, b = bounds.weighted_majority_constants(0.5)
    assert bounds.weighted_majority_regret(m, 8, 0.5) == pytest.approx((a - 1) * m + b * math.log(8))
    assert bounds.randomized_weighted_majority_regret(m, 8, 0.75) == pytest.approx(0.25 * m + math.log(8) / 0.25)
    t = np.arange(1, 6)
    assert bounds.hedge_regret(t, 10, 0.3) == pytest.approx(math.log(10) / 0.3 + 0.3 * t / 2)
    # OGD: L_u + |u|^2/(2 eta) + eta t R^2 / 2
    L = np.array([0.0, 0.5, 0.5, 1.5, 2.0])
    assert bounds.ogd_hinge_loss_bound(L, 2.0, 1.5, 0.1, t) == pytest.approx(L + 4 / 0.2 + 0.1 * t * 2.25 / 2)
    # Perceptron on a k-disjunction: (4k + 1)(N + 1); Winnow over a sweep of N
    N = np.array([10, 100, 1000])
    assert np.array_equal(bounds.perceptron_disjunction(3, N), 13.0 * (N + 1))
    assert bounds.winnow(3, N) == pytest.approx(2 + 9 * (np.log2(N) + 1))


def test_wm_constants_broadcast():
    a, b = bounds.weighted_majority_constants(np.array([0.0, 1 / math.e]))
    assert a[0] == math.inf and b[0] == pytest.approx(1 / math.log(2))
    assert a[1] == pytest.approx(b[1]) and a[1] == pytest.approx(2.63, abs=0.01)


class TestCheckValues:
    def test_scalar_gives_float_and_array_gives_readonly_array(self):
        assert check_values(0.5, "eta", 0, 1) == 0.5 and isinstance(check_values(0.5, "eta", 0, 1), float)
        assert check_values(np.float32(2), "n", 1, integer=True) == 2
        assert check_values(np.array(3.0), "x") == 3.0
        a = check_values([1, 2, 3], "m", 0, integer=True)
        assert isinstance(a, np.ndarray) and a.dtype == float and not a.flags.writeable

    @pytest.mark.parametrize("value, kw, found", [
        ([0.5, 1.0], dict(lo=0, hi=1, hi_open=True), "1 at index 1"),
        ([[0.1, 0.2], [0.3, -1]], dict(lo=0), "-1 at index (1, 1)"),
        ([1, 2.5], dict(lo=0, integer=True), "2.5 at index 1"),
        ([0.0, math.nan], dict(), "nan at index 1"),
        ([0.0, 0.0], dict(lo=0, lo_open=True), "0 at index 0"),
    ])
    def test_bad_entries(self, value, kw, found):
        with pytest.raises(StreamError) as e:
            check_values(value, "x", **kw)
        assert str(e.value).startswith(f"x: found {found}; expected")

    def test_non_numbers(self):
        for v in (["a", 1], "abc", None, True):
            with pytest.raises(StreamError, match="^x:"):
                check_values(v, "x")
