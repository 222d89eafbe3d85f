"""Conservative OGD (an update on mistakes only) makes the same mistakes at every learning rate;
plain OGD does not."""

from __future__ import annotations

import numpy as np

from olcore import linear, streams


def _stream(rng):
    s = streams.separable(T=int(rng.integers(1, 150)), d=int(rng.integers(1, 5)),
                          gamma=float(rng.uniform(0.01, 0.4)), noise=float(rng.choice([0.0, 0.1, 0.3])),
                          seed=int(rng.integers(0, 2**31)))
    return s.X, s.y.astype(float)


def test_conservative_ogd_mistakes_do_not_depend_on_eta():
    rng = np.random.default_rng(13)
    for _ in range(1000):
        X, y = _stream(rng)
        epochs = int(rng.integers(1, 4))
        runs = [linear.ogd_hinge(X, y, eta=eta, epochs=epochs, conservative=True) for eta in (0.01, 1.0, 100.0)]
        p = linear.perceptron(X, y, epochs=epochs)
        for eta, tr in zip((0.01, 1.0, 100.0), runs):
            np.testing.assert_array_equal(tr.mistakes, p.mistakes)
            np.testing.assert_array_equal(tr.weights, eta * p.weights)
        np.testing.assert_array_equal(runs[1].weights, p.weights)   # eta = 1 is the Perceptron


def test_conservative_ogd_keeps_exact_ties_at_every_eta():
    """Integer points: scores of exactly 0 are common; eta (v . x) keeps them 0 (a mistake) for every eta."""
    rng = np.random.default_rng(15)
    ties = 0
    for _ in range(500):
        T = int(rng.integers(2, 60))
        X, y = rng.integers(-2, 3, (T, 2)).astype(float), rng.choice([-1.0, 1.0], T)
        p = linear.perceptron(X, y)
        for eta in (0.01, 0.1, 0.3, 100.0, 1e-3):
            tr = linear.ogd_hinge(X, y, eta=eta, conservative=True)
            np.testing.assert_array_equal(tr.mistakes, p.mistakes)
            np.testing.assert_array_equal(tr.extras["score"] == 0, p.extras["score"] == 0)
        ties += int((p.extras["score"] == 0).sum())
    assert ties > 500


def test_plain_ogd_does_depend_on_eta():
    """The difference conservativeness makes: updating on margins below 1 makes eta matter."""
    rng = np.random.default_rng(14)
    differ = 0
    for _ in range(100):
        X, y = _stream(rng)
        a, b = (linear.ogd_hinge(X, y, eta=eta) for eta in (0.01, 100.0))
        differ += not np.array_equal(a.mistakes, b.mistakes)
    assert differ > 30

