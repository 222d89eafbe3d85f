"""The ulp comparison of the contract test (tests/ulps.py) and the ordered sums of the reference
classes (olcore/_sums.py): both must be able to fail."""

import numpy as np
import pytest

from olcore import _sums as sums
from olcore.linear import _engine
from tests.ulps import assert_close_ulps, ulp_distance


def test_ulp_distance_counts_roundings_of_the_larger_value():
    one = 1.0
    assert ulp_distance(one, np.nextafter(one, 2)) == 1            # one ulp of 1 (2^-52)
    assert ulp_distance(np.nextafter(one, 0), one) == 0.5          # half an ulp of 1 (the ulp below 1 is 2^-53)
    assert ulp_distance(3.0, 3.0) == 0 and ulp_distance(np.inf, np.inf) == 0
    assert ulp_distance(np.inf, 1.0) == np.inf and ulp_distance(np.nan, 1.0) == np.inf


def test_assert_close_ulps_passes_within_and_fails_beyond():
    a = np.array([1.0, 1e-300, 0.0, np.inf])
    b = a.copy()
    b[0] = 1.0 + 4 * 2.0**-52                                     # 4 ulps above 1
    assert_close_ulps(a, b, 4)
    with pytest.raises(AssertionError, match=r"1 of 4 entries .* 4 ulps"):
        assert_close_ulps(a, b, 3)
    c = a.copy()
    c[2] = 1e-16                                                   # a value that cancelled to about 0
    with pytest.raises(AssertionError, match="index \\(2,\\)"):
        assert_close_ulps(a, c, 1000)
    assert_close_ulps(a, c, 1000, atol=1e-15)
    with pytest.raises(AssertionError):
        assert_close_ulps([np.inf], [np.finfo(float).max], 1e300)
    with pytest.raises(AssertionError, match="shapes"):
        assert_close_ulps([1.0], [1.0, 1.0], 1)


@pytest.mark.parametrize("d", [1, 2, 3, 4, 5, 7, 8, 9, 13, 40])
def test_dot_adds_in_the_compiled_loops_order_bit_for_bit(d):
    """``sums.dot`` is ``_engine.dot``'s four running sums; ``lanes=1`` is a plain left-to-right loop,
    and the two orders give different last bits (so the order is really tested)."""
    rng = np.random.default_rng(d)
    differ = 0
    for _ in range(200):
        a, b = rng.standard_normal(d) * 10.0 ** rng.integers(-3, 4, d), rng.standard_normal(d)
        s4 = sums.dot(a, b)
        assert s4 == _engine.dot(a, b)
        s1 = 0.0
        for ai, bi in zip(a.tolist(), b.tolist()):
            s1 += ai * bi
        assert sums.dot(a, b, lanes=1) == s1
        differ += s4 != s1
    if d >= 5:
        assert differ > 0
    M = rng.standard_normal((d, d))
    np.testing.assert_array_equal(sums.matvec(M, a), [sums.dot(row, a, lanes=1) for row in M])
    with pytest.raises(ValueError):
        sums.dot(a, b, lanes=2)
    with pytest.raises(ValueError):
        sums.dot(a, b[:-1] if d > 1 else [1.0, 2.0])
