"""Cross-check against scikit-learn's implementations (skipped where scikit-learn is missing).

Settings verified in DESIGN.md: ``Perceptron(penalty=None, eta0=1, fit_intercept=False,
shuffle=False)`` is the textbook Perceptron; ``SGDClassifier(loss="hinge",
learning_rate="pa1"|"pa2", eta0=C, penalty=None)`` is PA-I / PA-II (with 1/(2C)), and
``learning_rate="constant"`` is OGD on the hinge loss.  scikit-learn updates its hinge on
``y p <= 1`` where we use ``< 1``: irrelevant on continuous data.
"""

import warnings

import numpy as np
import pytest

from olcore import linear, streams

sklearn_lm = pytest.importorskip("sklearn.linear_model")


def _fit(est, X, y, epochs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # ConvergenceWarning for max_iter = epochs, tol=None
        est.fit(X, y)
    return est.coef_.ravel()


def _stream(seed, noise):
    rng = np.random.default_rng(seed)
    return streams.separable(T=int(rng.integers(20, 300)), d=int(rng.integers(2, 6)),
                             gamma=0.05, noise=noise, seed=seed)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("epochs", [1, 3])
def test_perceptron_matches_sklearn(seed, epochs):
    s = _stream(seed, 0.1 if seed % 2 else 0.0)
    est = sklearn_lm.Perceptron(penalty=None, eta0=1.0, fit_intercept=False, shuffle=False,
                                max_iter=epochs, tol=None)
    coef = _fit(est, s.X, s.y, epochs)
    tr = linear.perceptron(s.X, s.y, epochs=epochs)
    np.testing.assert_allclose(tr.weights_at(tr.T), coef, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("variant,rate", [("PA-I", "pa1"), ("PA-II", "pa2")])
@pytest.mark.parametrize("C", [0.1, 1.0])
def test_passive_aggressive_matches_sgdclassifier(seed, variant, rate, C):
    s = _stream(seed, 0.2)
    est = sklearn_lm.SGDClassifier(loss="hinge", learning_rate=rate, eta0=C, penalty=None,
                                   fit_intercept=False, shuffle=False, max_iter=1, tol=None)
    coef = _fit(est, s.X, s.y, 1)
    tr = linear.passive_aggressive(s.X, s.y, variant=variant, C=C)
    np.testing.assert_allclose(tr.weights_at(tr.T), coef, rtol=1e-8, atol=1e-9)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("eta", [0.05, 0.5])
def test_ogd_matches_constant_rate_hinge_sgd(seed, eta):
    s = _stream(seed, 0.2)
    est = sklearn_lm.SGDClassifier(loss="hinge", learning_rate="constant", eta0=eta, penalty=None,
                                   fit_intercept=False, shuffle=False, max_iter=1, tol=None)
    coef = _fit(est, s.X, s.y, 1)
    tr = linear.ogd_hinge(s.X, s.y, eta=eta)
    np.testing.assert_allclose(tr.weights_at(tr.T), coef, rtol=1e-8, atol=1e-9)
