"""Weighted Average: regret <= ln(n)/eta on many streams, the entropic telescoping identity, fast == class."""

import numpy as np
import pytest

from olcore import StreamError, bounds, experts
from olcore.experts._common import entropic_loss
from tests.learners import LEARNERS, run_reference


def _stream(rng, binary_y=False, binary_x=False):
    n = int(rng.integers(1, 30))
    T = int(rng.integers(1, 150))
    X = rng.integers(0, 2, (T, n)).astype(float) if binary_x else rng.random((T, n)) ** rng.uniform(0.3, 3)
    y = rng.integers(0, 2, T).astype(float) if binary_y else rng.random(T)
    return X, y


def _regret(tr):
    return tr.losses.sum() - tr.expert_losses.sum(axis=0).min()


@pytest.mark.parametrize("loss", ["entropic", "square"])
def test_regret_bound_on_a_thousand_random_streams(loss):
    rng = np.random.default_rng(10 if loss == "entropic" else 11)
    eta_max = bounds.WEIGHTED_AVERAGE_ETA_MAX[loss]
    tight = 0.0
    for k in range(1000):
        X, y = _stream(rng, binary_y=k % 3 == 0)
        eta = eta_max if k % 2 else float(rng.uniform(0.01, 1.0)) * eta_max
        tr = experts.weighted_average(X, y, eta, loss)
        b = bounds.weighted_average(X.shape[1], eta, loss)
        r = _regret(tr)
        assert r <= b + 1e-9
        tight = max(tight, r / b if b > 0 else 0)
    assert tight > 0.1


def test_entropic_eta_one_telescopes_exactly():
    """L_en(y_t, yhat_t) - L_en(y_t, x_{t,i*}) = d(e_i*, v_t) - d(e_i*, v_{t+1}) for every round."""
    rng = np.random.default_rng(12)
    for _ in range(200):
        X, y = _stream(rng, binary_y=True)
        X = np.clip(X, 1e-3, 1 - 1e-3)
        tr = experts.weighted_average(X, y, 1.0, "entropic")
        i = int(tr.extras["best"])
        d = tr.extras["rel_entropy"]
        assert d[0] == pytest.approx(np.log(X.shape[1]))
        per_round = tr.losses - tr.expert_losses[:, i]
        assert np.allclose(per_round, d[:-1] - d[1:], atol=1e-9)
        # and the bound's two steps: d(u, v_1) <= ln n, d(u, v_{m+1}) >= 0
        assert d[-1] >= -1e-12


def test_infinite_entropic_losses_give_no_nan():
    # binary advice: a wrong expert has entropic loss +inf and drops out
    X = np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]], float)
    y = np.array([1, 1, 1], float)
    tr = experts.weighted_average(X, y, 1.0, "entropic")
    assert not np.isnan(tr.weights).any()
    assert np.allclose(tr.weights.sum(axis=1), 1)
    # every weighted expert infinitely wrong in round 2: the weights are kept (normaliser 0)
    X = np.array([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]])
    y = np.array([1.0, 1.0, 1.0])
    tr = experts.weighted_average(X, y, 1.0, "entropic")
    assert tr.weights[1].tolist() == [0.0, 1.0]
    assert tr.weights[2].tolist() == [0.0, 1.0]
    assert np.isinf(tr.losses[1]) and tr.losses[2] == pytest.approx(np.log(2))
    ref = run_reference(next(s for s in LEARNERS if s.name == "weighted_average[entropic]"), X, y,
                        {"eta": 1.0, "loss": "entropic"})
    assert np.allclose(tr.weights, ref.weights)


def test_large_eta_long_stream_is_finite():
    rng = np.random.default_rng(14)
    X, y = rng.random((100_000, 10)), rng.random(100_000)
    tr = experts.weighted_average(X, y, 100.0, "square")
    assert np.isfinite(tr.weights).all() and np.allclose(tr.weights.sum(axis=1), 1)


def test_entropic_loss_values():
    assert entropic_loss(1, 0.5) == pytest.approx(np.log(2))
    assert entropic_loss(0, 0.25) == pytest.approx(-np.log(0.75))
    assert entropic_loss(0.5, 0.5) == pytest.approx(0.0)
    assert np.isinf(entropic_loss(1, 0))


def test_bad_parameters():
    with pytest.raises(StreamError, match="loss"):
        experts.weighted_average([[0.5]], [0.5], 1.0, "hinge")
    with pytest.raises(StreamError, match="eta"):
        experts.weighted_average([[0.5]], [0.5], 0.0)
    with pytest.raises(StreamError, match="X"):
        experts.weighted_average([[1.5]], [0.5])
    with pytest.raises(StreamError, match="eta"):
        bounds.weighted_average(3, 0.6, "square")
