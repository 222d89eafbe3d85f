"""The shared test helper for "a curve stays under its bound" must be able to fail."""

import numpy as np
import pytest

from tests.helpers import assert_under_bound


def test_passes_on_arrays_scalars_and_within_tolerance():
    assert_under_bound([0, 1, 2], [0, 1, 2])
    assert_under_bound(np.arange(5), 4)
    assert_under_bound([1.0 + 1e-10], [1.0])                  # within tol
    assert_under_bound([0.5, 1.5], [1.0, 2.0], strict=True)


def test_fails_on_a_violating_array_with_the_first_round_and_both_values():
    with pytest.raises(AssertionError, match=r"index 2 \(first of 2\).*3\.0 vs bound 2\.5"):
        assert_under_bound([0, 1, 3, 4], [1, 2, 2.5, 3])
    with pytest.raises(AssertionError, match="index 0"):
        assert_under_bound([1.0 + 1e-6], [1.0])               # beyond tol
    with pytest.raises(AssertionError):
        assert_under_bound([1.0], [1.0], strict=True)         # equal is not strictly below
    with pytest.raises(AssertionError, match="NaN"):
        assert_under_bound([np.nan], [1.0])


def test_traces_constant_segment_and_same_x():
    curve = {"name": "M_t", "x": [1, 2, 3, 4], "y": [0, 1, 1, 2]}
    assert_under_bound(curve, {"name": "bound: 2", "x": [1, 4], "y": [2, 2]})
    with pytest.raises(AssertionError, match=r"M_t is not .* bound: 1\.5 at x = 4"):
        assert_under_bound(curve, {"name": "bound: 1.5", "x": [1, 4], "y": [1.5, 1.5]})
    assert_under_bound(curve, {"name": "b", "x": [1, 2, 3, 4], "y": [1, 1, 1, 2]})
    with pytest.raises(AssertionError, match="x = 2"):
        assert_under_bound(curve, {"name": "b", "x": [1, 2, 3, 4], "y": [1, 0.5, 1, 2]})


def test_refuses_curves_it_cannot_align():
    with pytest.raises(AssertionError, match="different x"):
        assert_under_bound({"x": [1, 2, 3], "y": [0, 0, 0]}, {"x": [2, 3, 4], "y": [1, 1, 1]})
    with pytest.raises(AssertionError, match="cannot compare"):
        assert_under_bound([0, 0, 0], [1, 1])
    with pytest.raises(AssertionError, match="cannot compare"):
        assert_under_bound([0, 0, 0], {"x": [1, 3], "y": [1, 2]})   # a sloped 2-point segment
    with pytest.raises(AssertionError, match="empty"):
        assert_under_bound([], [1.0])
