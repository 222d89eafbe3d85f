"""Generators: seeded, reproducible, and they keep their promises."""

import numpy as np
import pytest

from olcore import StreamError, streams

SEEDS = range(40)


def test_same_seed_same_stream_and_different_seed_different_stream():
    for gen in (lambda s: streams.perfect_expert(50, 8, seed=s),
                lambda s: streams.separable(50, 3, 0.1, seed=s),
                lambda s: streams.disjunction(50, 30, 3, seed=s),
                lambda s: streams.regression(50, 3, seed=s),
                lambda s: streams.loss_matrix(50, 4, seed=s)):
        a, b, c = gen(1), gen(1), gen(2)
        np.testing.assert_array_equal(a.X, b.X)
        assert not np.array_equal(a.X, c.X)
        if a.y is not None:
            np.testing.assert_array_equal(a.y, b.y)


def test_generators_do_not_touch_the_global_rng():
    np.random.seed(123)
    before = np.random.random()
    np.random.seed(123)
    streams.separable(100, 4, 0.1, seed=5)
    streams.perfect_expert(100, 4, seed=5)
    assert np.random.random() == before


@pytest.mark.parametrize("seed", SEEDS)
def test_perfect_expert_is_perfect(seed):
    s = streams.perfect_expert(T=200, n=16, seed=seed)
    best = s.info["best"]
    assert np.array_equal(s.X[:, best], s.y)
    assert s.kind == "experts" and set(np.unique(s.X)) <= {0, 1}


def test_expert_error_rates_are_roughly_respected():
    s = streams.expert_error_rates(20_000, [0.05, 0.3, 0.5], seed=0)
    rates = (s.X != s.y[:, None]).mean(axis=0)
    np.testing.assert_allclose(rates, [0.05, 0.3, 0.5], atol=0.015)
    assert s.info["best"] == 0
    assert s.info["best_mistakes"] == int((s.X[:, 0] != s.y).sum())


def test_loss_matrix_in_unit_interval():
    for dist in ("bernoulli", "beta"):
        s = streams.loss_matrix(300, 5, seed=1, distribution=dist)
        assert s.y is None and s.X.min() >= 0 and s.X.max() <= 1


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("d, gamma, R", [(1, 0.3, 1.0), (2, 0.1, 1.0), (5, 0.05, 2.0), (50, 0.2, 0.5)])
def test_separable_stream_has_exactly_the_prescribed_margin_and_radius(seed, d, gamma, R):
    s = streams.separable(T=300, d=d, gamma=gamma, R=R, seed=seed)
    v = s.info["v"]
    assert np.isclose(np.linalg.norm(v), 1.0)
    margins = s.y * (s.X @ v)
    norms = np.linalg.norm(s.X, axis=1)
    tol = 1e-12 * max(R, 1)
    assert margins.min() >= gamma - tol
    assert norms.max() <= R + tol
    # the extremes are attained, so measured R and gamma equal the prescribed ones
    assert np.isclose(margins.min(), gamma) and np.isclose(norms.max(), R)
    assert set(np.unique(s.y)) <= {-1, 1}


def test_separable_noise_flips_the_recorded_labels():
    s = streams.separable(T=2000, d=3, gamma=0.1, noise=0.15, seed=4)
    margins = s.y * (s.X @ s.info["v"])
    wrong = np.flatnonzero(margins < 0)
    np.testing.assert_array_equal(wrong, s.info["flipped"])
    assert 0.1 < wrong.size / 2000 < 0.2


@pytest.mark.parametrize("seed", SEEDS)
def test_disjunction_labels_are_the_or_of_the_relevant_attributes(seed):
    s = streams.disjunction(T=400, N=60, k=1 + seed % 5, seed=seed)
    rel = s.info["relevant"]
    assert len(rel) == s.info["k"] == len(set(rel.tolist()))
    expected = np.zeros(400, dtype=bool)
    for i in rel:
        expected |= s.X[:, i] == 1
    np.testing.assert_array_equal(s.y == 1, expected)
    assert 0.3 < s.y.mean() < 0.7  # the default p balances the labels


@pytest.mark.parametrize("T, N, k, seed", [(400, 10_000, 3, 0), (7, 3, 1, 5), (1000, 30, 5, 2), (2, 10_000, 2, 9), (3, 7, 7, 4),
                                           (500, 10_000, 10, 1)])
def test_disjunction_draws_the_same_stream_as_one_big_draw(T, N, k, seed):
    """The attributes are drawn a few rows at a time; a link's stream must stay the one a single
    ``rng.random((T, N)) < p`` drew (old links keep opening the view they opened)."""
    s = streams.disjunction(T=T, N=N, k=k, seed=seed)
    rng = np.random.default_rng(seed)
    relevant = np.sort(rng.choice(N, size=k, replace=False))
    X = (rng.random((T, N)) < 1.0 - 0.5 ** (1.0 / k)).astype(np.int8)
    np.testing.assert_array_equal(s.info["relevant"], relevant)
    np.testing.assert_array_equal(s.X, X)
    assert s.X.dtype == np.int8 and not s.X.flags.writeable


@pytest.mark.parametrize("seed", SEEDS)
def test_regression_inputs_lie_in_the_unit_ball(seed):
    s = streams.regression(T=300, d=1 + seed % 6, seed=seed, noise=0.0)
    assert np.linalg.norm(s.X, axis=1).max() <= 1 + 1e-12
    np.testing.assert_allclose(s.y, s.X @ s.info["u"])
    assert np.isclose(np.linalg.norm(s.info["u"]), 1.0)


@pytest.mark.parametrize("call, field", [
    (lambda: streams.separable(T=0), "T"),
    (lambda: streams.separable(gamma=0.0), "gamma"),
    (lambda: streams.separable(gamma=2.0, R=1.0), "gamma"),
    (lambda: streams.separable(noise=0.7), "noise"),
    (lambda: streams.separable(d=2, seed=-1), "seed"),
    (lambda: streams.perfect_expert(n=0), "n"),
    (lambda: streams.disjunction(N=5, k=6), "k"),
    (lambda: streams.loss_matrix(distribution="cauchy"), "distribution"),
    (lambda: streams.expert_error_rates(10, [0.1, 1.5]), "error_rates"),
    (lambda: streams.regression(d=2, u=[1, 2, 3]), "u"),
    (lambda: streams.separable(T=100_001), "T"),
    (lambda: streams.separable(gamma=float("nan")), "gamma"),
])
def test_bad_generator_arguments_raise_stream_error(call, field):
    with pytest.raises(StreamError) as e:
        call()
    assert e.value.field == field
