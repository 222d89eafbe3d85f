"""The experts section of olcore.bounds: values from the notes, assumptions checked."""

import math

import pytest

from olcore import StreamError, bounds


def test_halving_is_log2_n():
    assert bounds.halving(8) == 3.0
    assert bounds.halving(1) == 0.0
    assert bounds.halving(1000) == pytest.approx(9.9657842847)


def test_wm_beta_one_over_e_gives_the_263_constants():
    a, b = bounds.weighted_majority_constants(1 / math.e)
    # the notes: "choosing beta = 1/e, M <= 2.63 min_i M_i + 2.63 ln n"
    assert round(a, 2) == 2.63 and round(b, 2) == 2.63
    assert a == pytest.approx(1 / (math.log(2) + 1 - math.log(1 + math.e)))
    assert bounds.weighted_majority(10, 100, 1 / math.e) == pytest.approx(a * 10 + b * math.log(100))


def test_wm_formula_and_beta_zero_limit():
    beta = 0.5
    expect = (math.log(2) * 4 + math.log(16)) / math.log(2 / 1.5)
    assert bounds.weighted_majority(4, 16, beta) == pytest.approx(expect)
    assert bounds.weighted_majority(0, 16, 0.0) == 4.0          # Halving's log2 n
    assert bounds.weighted_majority(1, 16, 0.0) == math.inf
    # the bound decreases towards log2-type constants as beta -> 0 only when M_i = 0
    assert bounds.weighted_majority(0, 16, 1e-9) == pytest.approx(4.0, rel=1e-6)


def test_rwm_cmu_form():
    # E[M] <= (1 + eta) m* + ln N / eta with eta = 1 - beta
    assert bounds.randomized_weighted_majority(10, 4, 0.75) == pytest.approx(1.25 * 10 + math.log(4) / 0.25)
    with pytest.raises(StreamError, match="beta"):
        bounds.randomized_weighted_majority(1, 4, 0.4)        # eta > 1/2: outside the notes' assumption


def test_weighted_average_constants_b():
    # the notes' table: b = 1/eta = 1 (entropic, eta = 1), 2 (square, eta = 1/2)
    assert bounds.weighted_average(10, 1.0, "entropic") == pytest.approx(math.log(10))
    assert bounds.weighted_average(10, 0.5, "square") == pytest.approx(2 * math.log(10))
    with pytest.raises(StreamError, match="eta"):
        bounds.weighted_average(10, 1.5, "entropic")
    with pytest.raises(StreamError, match="loss"):
        bounds.weighted_average(10, 0.5, "hinge")


def test_hedge_tuning():
    m, n = 1000, 50
    eta = bounds.hedge_eta(m, n)
    assert eta == pytest.approx(math.sqrt(2 * math.log(n) / m))
    assert bounds.hedge(m, n) == pytest.approx(math.sqrt(2 * m * math.log(n)))
    assert bounds.hedge_regret(m, n, eta) == pytest.approx(bounds.hedge(m, n))
    # eta* minimises ln n / eta + eta m / 2
    for f in (0.5, 0.9, 1.1, 2.0):
        assert bounds.hedge_regret(m, n, f * eta) > bounds.hedge_regret(m, n, eta)


@pytest.mark.parametrize("call", [
    lambda: bounds.halving(0),
    lambda: bounds.weighted_majority(-1, 4, 0.5),
    lambda: bounds.weighted_majority(1, 4, 1.0),
    lambda: bounds.hedge(10, 0),
    lambda: bounds.hedge_regret(10, 3, 0.0),
])
def test_assumptions_are_checked(call):
    with pytest.raises(StreamError):
        call()
