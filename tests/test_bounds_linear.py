"""The linear-classification section of olcore.bounds: values, assumptions, measuring helpers."""

import math

import numpy as np
import pytest

from olcore import StreamError, bounds, streams


def test_perceptron_bound_values_and_assumptions():
    assert bounds.perceptron(1.0, 0.1) == pytest.approx(100.0)
    assert bounds.perceptron(2.0, 0.5) == pytest.approx(16.0)
    for R, g in [(1.0, 0.0), (0.0, 0.1), (1.0, -0.1), (1.0, 2.0), (float("nan"), 0.1)]:
        with pytest.raises(StreamError):
            bounds.perceptron(R, g)


def test_nonseparable_bound_reduces_to_novikoff():
    # u = v / gamma with zero hinge loss: L + R^2 ||u||^2 + R ||u|| sqrt(L) = (R / gamma)^2
    for R, g in [(1.0, 0.1), (3.0, 0.2)]:
        assert bounds.perceptron_nonseparable(0.0, 1 / g, R) == pytest.approx(bounds.perceptron(R, g))
    # hand value: L = 4, ||u|| = 2, R = 1: 4 + 4 + 2*2 = 12
    assert bounds.perceptron_nonseparable(4.0, 2.0, 1.0) == pytest.approx(12.0)
    with pytest.raises(StreamError):
        bounds.perceptron_nonseparable(-1.0, 1.0)


def test_winnow_bounds():
    assert bounds.winnow(1, 1) == pytest.approx(5.0)            # 2 + 3 * 1 * (0 + 1)
    assert bounds.winnow(2, 1024) == pytest.approx(2 + 6 * 11)
    for k, N in [(1, 10), (3, 1000), (5, 77)]:
        assert bounds.winnow_general(k, N, 2.0, N) == pytest.approx(bounds.winnow(k, N))
    with pytest.raises(StreamError):
        bounds.winnow(5, 3)
    with pytest.raises(StreamError):
        bounds.winnow_general(1, 10, alpha=1.0)


def test_ogd_bounds_and_tuned_eta_minimises_the_general_bound():
    U, R, m = 3.0, 2.0, 400
    assert bounds.ogd_hinge(U, R, m) == pytest.approx(U * R * 20)
    eta = bounds.ogd_hinge_eta(U, R, m)
    assert eta == pytest.approx(U / (R * 20))
    assert bounds.ogd_hinge_regret(U, R, m, eta) == pytest.approx(bounds.ogd_hinge(U, R, m))
    for f in (0.3, 0.9, 1.1, 4.0):
        assert bounds.ogd_hinge_regret(U, R, m, eta * f) > bounds.ogd_hinge(U, R, m)


def test_pa_bounds_values():
    # max(R^2, 1/C) (||u||^2 + 2 C L)
    assert bounds.passive_aggressive_pa1(2.0, 3.0, C=0.5, R=1.0) == pytest.approx(2 * (4 + 3))
    assert bounds.passive_aggressive_pa1(2.0, 3.0, C=2.0, R=3.0) == pytest.approx(9 * (4 + 12))
    assert bounds.passive_aggressive_pa2(1.0, 1.0, C=1.0, R=1.0) == pytest.approx(1.5 * 3)
    assert bounds.passive_aggressive_separable(4.0, 0.5) == pytest.approx(4.0)
    with pytest.raises(StreamError):
        bounds.passive_aggressive_pa1(1.0, 1.0, C=0.0)


def test_measuring_helpers_by_hand():
    X = np.array([[3.0, 4.0], [1.0, 0.0], [0.0, -2.0]])
    y = np.array([1, 1, -1])
    assert bounds.radius(X) == pytest.approx(5.0)
    # v = (1, 1)/sqrt 2: margins 7/sqrt2, 1/sqrt2, 2/sqrt2 -> min 1/sqrt2; v need not be unit
    assert bounds.margin(X, y, [1.0, 1.0]) == pytest.approx(1 / math.sqrt(2))
    assert bounds.margin(X, y, [0.0, -1.0]) == pytest.approx(-4.0)
    # u = (0.5, 0): y u.x = 1.5, 0.5, 0 -> hinge 0 + 0.5 + 1
    assert bounds.hinge_loss(X, y, [0.5, 0.0]) == pytest.approx(1.5)
    assert bounds.squared_hinge_loss(X, y, [0.5, 0.0]) == pytest.approx(1.25)
    with pytest.raises(StreamError):
        bounds.margin(X, y, [0.0, 0.0])
    with pytest.raises(StreamError):
        bounds.hinge_loss(X, y, [1.0, 2.0, 3.0])


def test_generator_margin_and_radius_are_measured_back():
    s = streams.separable(T=300, d=4, gamma=0.2, R=2.0, seed=3)
    assert bounds.radius(s.X) == pytest.approx(2.0)
    assert bounds.margin(s.X, s.y, s.info["v"]) == pytest.approx(0.2)


@pytest.mark.parametrize("seed", range(10))
def test_best_u_beats_every_scaled_generator_direction(seed):
    s = streams.separable(T=200, d=2, gamma=0.1, noise=0.15, seed=seed)
    best = bounds.best_u_nonseparable(s.X, s.y, directions=[s.info["v"]])
    R = bounds.radius(s.X)
    for c in np.geomspace(0.1, 100, 30):
        u = c * s.info["v"]
        assert best["bound"] <= bounds.perceptron_nonseparable(bounds.hinge_loss(s.X, s.y, u), c, R) * (1 + 1e-6) + 1e-6


def test_best_u_on_separable_stream_is_at_most_novikoff():
    s = streams.separable(T=200, d=3, gamma=0.2, seed=1)
    best = bounds.best_u_nonseparable(s.X, s.y, directions=[s.info["v"]])
    nov = bounds.perceptron(bounds.radius(s.X), bounds.margin(s.X, s.y, s.info["v"]))
    assert best["bound"] <= nov * (1 + 1e-9)
    with pytest.raises(StreamError):
        bounds.best_u_nonseparable(s.X, s.y)   # d = 3 needs candidate directions
