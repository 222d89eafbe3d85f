"""olcore.bounds.risk: each closed form solves the inequality it claims to invert, and the constants of the
Step 2 chain hold.  The oracle is the notes' Bernstein inequality, evaluated directly."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from olcore import StreamError, bounds
from olcore.bounds.risk import C1, _harmonic


def S(K, L):
    return L / 3 + math.sqrt(L * L / 9 + 2 * L * K)


@given(st.floats(0, 1e4), st.floats(1e-3, 50))
def test_deviation_makes_bernsteins_bound_equal_e_to_the_minus_L(K, L):
    s = bounds.bernstein_deviation(K, L)
    assert s == pytest.approx(S(K, L))
    assert s * s / (2 * (s / 3 + K)) == pytest.approx(L, rel=1e-9)


@given(st.integers(1, 5000), st.floats(0, 1), st.sampled_from([0.001, 0.05, 0.3, 0.9]))
def test_average_risk_is_the_largest_A_with_A_minus_M_below_S_of_2A_plus_1(n, frac, delta):
    M = math.floor(frac * n)
    L = math.log(bounds.peeling_cells(n) / delta)
    A = n * bounds.average_risk(M, n, delta)
    assert A - M == pytest.approx(S(2 * A + 1, L), rel=1e-9)        # the boundary of the solved inequality
    for a in (A * 1.001 + 1e-6, A * 1.1 + 1):                      # beyond it the inequality fails
        assert a - M > S(2 * a + 1, L)
    simplified = M + 14 * L / 3 + math.sqrt(2 * L * (2 * M + 1))  # the page's simplified form is larger
    assert A <= simplified + 1e-9


def test_peeling_grid_reaches_n():
    for n in range(1, 3000):
        J = bounds.peeling_cells(n)
        assert 2 ** (J - 1) >= n and (J == 1 or 2 ** (J - 2) < n)


@given(st.integers(1, 3000), st.floats(0, 1), st.floats(1e-6, 0.9))
def test_holdout_bounds_solve_the_fixed_K_inequalities(m, frac, delta):
    e = math.floor(frac * m)
    L = math.log(1 / delta)
    q = m * bounds.holdout_risk(e, m, delta)
    assert q - e == pytest.approx(S(q, L), rel=1e-9)
    q_lo = m * bounds.holdout_risk_lower(e, m, delta)
    if q_lo > 0:
        assert e - q_lo == pytest.approx(S(q_lo, L), rel=1e-7, abs=1e-9)
    assert q_lo <= e <= q


@settings(max_examples=300)
@given(st.integers(1, 5000), st.floats(0, 1), st.floats(0.05, 40), st.floats(0, 1))
def test_the_step_2_chain_constant_c1(m, p, L, where):
    """Whenever e - mp < S(mp) (the lower side holds), U <= p + (c1 L + 2 sqrt(2 L m p)) / m."""
    q = m * p
    e = min(m, where * (q + S(q, L)))                    # any e the lower side allows
    U = (e + 4 * L / 3 + math.sqrt(16 * L * L / 9 + 2 * L * e)) / m
    assert U <= p + (C1 * L + 2 * math.sqrt(2 * L * q)) / m + 1e-12


def test_chosen_risk_formula_and_order():
    n, M, delta = 2000, 150, 0.05
    B = n * bounds.average_risk(M, n, delta / 3)
    L = math.log(3 * n / delta)
    H = sum(1 / k for k in range(1, n + 1))
    assert bounds.chosen_risk(M, n, delta) == pytest.approx((B + C1 * L * H + 2 * math.sqrt(2 * L * H * B)) / n)
    assert bounds.chosen_risk(M, n, delta) > bounds.average_risk(M, n, delta) > M / n
    assert float(_harmonic(1)) == 1.0


def test_broadcasting_gives_the_scalar_values():
    M = np.array([0, 3, 10, 50])
    t = np.array([1, 10, 100, 1000])
    for f in (bounds.average_risk, bounds.chosen_risk, bounds.holdout_risk):
        curve = f(M, t, 0.1)
        assert isinstance(curve, np.ndarray)
        assert np.allclose(curve, [f(int(a), int(b), 0.1) for a, b in zip(M, t)])
        assert isinstance(f(3, 10, 0.1), float)


def test_bounds_grow_with_confidence_and_mistakes():
    assert bounds.average_risk(10, 100, 0.01) > bounds.average_risk(10, 100, 0.1)
    assert bounds.average_risk(20, 100, 0.1) > bounds.average_risk(10, 100, 0.1)
    assert bounds.holdout_risk(5, 100, 0.01) > bounds.holdout_risk(5, 100, 0.1)


@pytest.mark.parametrize("call", [
    lambda: bounds.average_risk(11, 10, 0.1),
    lambda: bounds.average_risk(1, 10, 0.0),
    lambda: bounds.average_risk(1, 10, 1.0),
    lambda: bounds.average_risk(-1, 10, 0.5),
    lambda: bounds.holdout_risk(3, 2, 0.5),
    lambda: bounds.chosen_risk(1, 0, 0.5),
    lambda: bounds.average_risk([1, 2], [3, 4, 5], 0.5),
])
def test_bad_input_raises_stream_error(call):
    with pytest.raises(StreamError):
        call()
