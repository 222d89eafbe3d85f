"""BoundReport: frozen, arrays read-only, at()/as_curve()/name, assumptions checked."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

import olcore
from olcore import StreamError, bounds
from olcore.bounds import BoundReport


def _curve_report(curve):
    return BoundReport("Relative mistake bound", "L_u + R²‖u‖² + R‖u‖√L_u", value=float(curve[-1]), curve=curve,
                       numbers={"R": 1.0, "‖u‖": 2.0})


def test_exported_from_olcore_and_bounds():
    assert olcore.BoundReport is bounds.BoundReport is BoundReport


def test_constant_report():
    r = BoundReport("Novikoff's Perceptron bound", "(R/γ)²", bounds.perceptron(1.0, 0.15),
                    latex=r"M = 7 \le (1/0.15)^2 = 44.44", numbers={"R": 1.0, "γ": 0.15},
                    source="UCL COMP0078, Online learning: Perceptron Bound [Novikoff]")
    assert r.name == "bound: (R/γ)²"
    assert r.value == pytest.approx(1 / 0.15 ** 2) and isinstance(r.value, float)
    assert r.curve is None and r.T is None
    assert r.at(0) == r.at(5) == r.value
    c = r.as_curve(4)
    assert c.shape == (4,) and np.all(c == r.value) and not c.flags.writeable
    assert r.applies and r.why_not == ""


def test_curve_is_a_frozen_copy():
    src = np.array([1.0, 2.0, 4.0])
    r = _curve_report(src)
    src[0] = 99.0
    assert r.curve[0] == 1.0 and not r.curve.flags.writeable
    with pytest.raises(ValueError):
        r.curve[1] = 0.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.value = 3.0
    with pytest.raises(TypeError):
        r.numbers["R"] = 5.0
    assert dict(r.numbers) == {"R": 1.0, "‖u‖": 2.0}


def test_at_and_as_curve_follow_the_curve():
    r = _curve_report([1.0, 2.0, 4.0])
    assert r.T == 3
    assert [r.at(t) for t in range(4)] == [1.0, 1.0, 2.0, 4.0]   # t rounds played; t = 0 starts the curve
    assert r.as_curve(3).tolist() == [1.0, 2.0, 4.0] and r.as_curve(2).tolist() == [1.0, 2.0]
    with pytest.raises(StreamError, match="t"):
        r.at(4)
    with pytest.raises(StreamError, match="t"):
        r.at(-1)
    with pytest.raises(StreamError, match="T"):
        r.as_curve(5)


def test_inf_is_allowed_nan_is_not():
    assert BoundReport("WM", "a m* + b ln n", math.inf).at(3) == math.inf
    with pytest.raises(StreamError, match="value"):
        BoundReport("x", "f", math.nan)
    with pytest.raises(StreamError, match="curve"):
        BoundReport("x", "f", 1.0, curve=[1.0, math.nan])
    with pytest.raises(StreamError, match="curve"):
        BoundReport("x", "f", 1.0, curve=np.ones((2, 2)))


def test_not_applying_needs_a_reason():
    with pytest.raises(StreamError, match="why_not"):
        BoundReport("Novikoff", "(R/γ)²", math.inf, applies=False)
    r = BoundReport("Novikoff", "(R/γ)²", math.inf, applies=False,
                    why_not="no direction separates the points with a positive margin")
    assert not r.applies and "margin" in r.why_not


def test_no_value_equality():
    a, b = _curve_report([1.0]), _curve_report([1.0])
    assert a != b and a == a          # eq=False: identity, so arrays never meet ==
