"""Comparator searches: the max-margin direction, a consistent disjunction, and the bounds they feed."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from olcore import StreamError, bounds, comparators, linear, measure, streams


def _brute_force_margin(X, y, n=400_000):
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    V = np.column_stack([np.cos(a), np.sin(a)])
    m = (y[:, None] * (X @ V.T)).min(axis=0)
    return float(m.max())


@pytest.mark.parametrize("seed", range(6))
def test_max_margin_matches_brute_force_angle_search_in_2d(seed):
    r = np.random.default_rng(seed)
    s = streams.separable(T=int(r.integers(5, 80)), d=2, gamma=float(r.uniform(0.02, 0.4)), seed=seed)
    v, g = comparators.max_margin_direction(s.X, s.y)
    assert np.linalg.norm(v) == pytest.approx(1.0)
    assert g == pytest.approx(measure.margin(s.X, s.y, v), abs=1e-15)       # gamma is v's own margin
    assert g >= s.info["gamma"] - 1e-12                                      # at least the generator's v
    bf = _brute_force_margin(s.X.astype(float), s.y.astype(float))
    assert g >= bf - 1e-9                       # no grid direction does better
    assert g <= bf + 2e-5                       # and the grid (step 1.6e-5 rad) comes within its resolution


def test_a_tiny_hand_example():
    # points (1, 1) labelled +1 and (1, -1) labelled -1: best direction (0, 1), margin 1
    v, g = comparators.max_margin_direction([[1.0, 1.0], [1.0, -1.0]], [1, -1])
    assert v == pytest.approx([0.0, 1.0], abs=1e-7) and g == pytest.approx(1.0, abs=1e-7)
    # one point: the direction is the point itself
    v, g = comparators.max_margin_direction([[3.0, 4.0]], [-1])
    assert v == pytest.approx([-0.6, -0.8]) and g == pytest.approx(5.0)


@pytest.mark.parametrize("seed", range(4))
def test_not_separable_gives_a_nonpositive_margin(seed):
    s = streams.separable(T=60, d=2, gamma=0.05, noise=0.3, seed=seed)
    assert len(s.info["flipped"])
    X, y = s.X.astype(float), s.y.astype(float)
    v, g = comparators.max_margin_direction(X, y)
    assert _brute_force_margin(X, y, 20_000) <= 0       # the stream is really not separable
    assert g <= 0 and g == pytest.approx(measure.margin(X, y, v))
    # the same point with both labels: no separator at all
    v, g = comparators.max_margin_direction([[1.0, 0.5], [1.0, 0.5], [0.2, 1]], [1, -1, 1])
    assert g <= 0 and np.linalg.norm(v) == pytest.approx(1.0)


@pytest.mark.parametrize("d, seed", [(3, 0), (5, 1), (10, 2), (20, 3)])
def test_max_margin_agrees_with_scikit_learn_linear_svc(d, seed):
    svm = pytest.importorskip("sklearn.svm")
    s = streams.separable(T=300, d=d, gamma=0.1, seed=seed)
    X, y = s.X.astype(float), s.y.astype(float)
    v, g = comparators.max_margin_direction(X, y)
    clf = svm.LinearSVC(C=1e4, loss="hinge", fit_intercept=False, tol=1e-10, max_iter=1_000_000, dual=True)
    clf.fit(X, y)
    g_sk = measure.margin(X, y, clf.coef_[0])
    assert g >= g_sk - 1e-9                   # ours is at least as good as the approximate SVM
    assert g == pytest.approx(g_sk, rel=1e-3)  # and they agree


def test_best_direction_beats_the_perceptrons_own_direction():
    s = streams.separable(T=200, d=2, gamma=0.05, seed=11)
    tr = linear.perceptron(s.X, s.y, epochs=20)
    own = measure.margin(s.X, s.y, tr.weights[-1])
    _, g = comparators.max_margin_direction(s.X, s.y)
    assert g >= own - 1e-12
    R = measure.radius(s.X)
    assert bounds.perceptron(R, g) <= bounds.perceptron(R, max(own, 1e-9))


def test_max_margin_bad_input():
    with pytest.raises(StreamError, match="y"):
        comparators.max_margin_direction([[1.0, 0.0]], [0])
    with pytest.raises(StreamError, match="X"):
        comparators.max_margin_direction([[np.nan, 0.0]], [1])


def _max_margin_as_written(X, y, tol=1e-9, max_iter=200_000):
    """max_margin_direction's pairwise Frank-Wolfe as it was first written (numpy call by call): the
    reference its faster loop must follow step for step."""
    import math

    X = np.asarray(X, dtype=float)
    Z = np.asarray(y, dtype=float)[:, None] * X
    T, d = Z.shape
    R = measure.radius(X)
    if R == 0:
        v = np.zeros(d)
        v[0] = 1.0
        return v, 0.0
    eps = tol * R
    sq = np.einsum("td,td->t", Z, Z)
    p = np.zeros(T)
    j = int(np.argmin(sq))
    p[j] = 1.0
    w = Z[j].copy()
    best_v, best_g = None, -math.inf
    for _ in range(max_iter):
        nw = float(np.sqrt(w @ w))
        if nw <= eps:
            break
        g = Z @ w
        s = int(np.argmin(g))
        if g[s] / nw > best_g:
            best_g, best_v = g[s] / nw, w / nw
        if nw - g[s] / nw <= eps:
            break
        act = np.flatnonzero(p > 0)
        a = int(act[np.argmax(g[act])])
        dvec = Z[s] - Z[a]
        dd = float(dvec @ dvec)
        if dd == 0.0:
            break
        step = min(max((g[a] - g[s]) / dd, 0.0), p[a])
        if step == 0.0:
            break
        p[s] += step
        p[a] -= step
        if p[a] < 1e-15:
            p[a] = 0.0
        w += step * dvec
    if best_v is None:
        nw = float(np.sqrt(w @ w))
        if nw > 0:
            best_v = w / nw
        else:
            best_v = np.zeros(d)
            best_v[0] = 1.0
    v = best_v / np.linalg.norm(best_v)
    return v, float((Z @ v).min())


def _streams_for_the_search():
    """Separable and not, normalised and raw, ties (small integers, repeated points, a point and its mirror),
    tiny and huge scales, one point, d from 1 to 100, a few steps and many."""
    rng = np.random.default_rng(17)
    out = []
    for i in range(48):
        T, d = int(rng.integers(1, 90)), int(rng.choice([1, 2, 3, 5, 20, 100]))
        if i % 4 == 0:
            X = rng.integers(-3, 4, (T, d)).astype(float)                       # ties everywhere
        elif i % 4 == 1:
            X = np.repeat(rng.standard_normal((max(T // 3, 1), d)), 3, axis=0)    # repeated points
        else:
            X = rng.standard_normal((T, d)) * 10.0 ** rng.uniform(-6, 6)
        if not X.any():
            X[0, 0] = 1.0
        if i % 2:
            y = rng.choice([-1.0, 1.0], len(X))
        else:
            y = np.where(X @ rng.standard_normal(d) >= 0, 1.0, -1.0)
        if i % 5 == 0:
            X = X / np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1e-300)
        out.append((X, y, [1e-9, 1e-7, 1e-3][i % 3], int(rng.choice([1, 7, 300, 3000]))))
    out.append((np.array([[1.0, 0.5], [1.0, 0.5], [0.2, 1.0]]), np.array([1.0, -1.0, 1.0]), 1e-9, 200_000))
    out.append((np.array([[3.0, 4.0], [-3.0, -4.0]]), np.array([1.0, 1.0]), 1e-9, 200_000))
    return out


def test_max_margin_direction_takes_the_steps_as_written_bit_for_bit():
    for X, y, tol, it in _streams_for_the_search():
        v0, g0 = _max_margin_as_written(X, y, tol, it)
        v1, g1 = comparators.max_margin_direction(X, y, tol, it)
        assert v1.dtype == v0.dtype and v1.tobytes() == v0.tobytes(), (X.shape, tol, it)
        assert type(g1) is type(g0) and np.float64(g1).tobytes() == np.float64(g0).tobytes()


def test_the_searchs_index_pair_is_numpys_argmin_and_argmax():
    rng = np.random.default_rng(5)
    pick = comparators._pair
    for n in range(1, 40):
        for kind in range(6):
            g = rng.integers(-2, 3, n).astype(float) if kind < 3 else rng.standard_normal(n)
            if kind in (1, 4):
                g[rng.random(n) < 0.3] = np.nan
            if kind in (2, 5):
                g[rng.random(n) < 0.5] = -np.inf
                g[rng.random(n) < 0.2] = np.inf
            used = rng.random(n) < [0.0, 0.1, 0.5, 1.0][kind % 4]
            s, a = pick(g, used)
            assert s == np.argmin(g)
            act = np.flatnonzero(used)
            assert a == (act[np.argmax(g[act])] if act.size else -1), (g, used)


# ---- consistent_disjunction ------------------------------------------------------------------

def _consistent(X, y, S):
    return np.array_equal(X[:, list(S)].any(axis=1) if len(S) else np.zeros(len(y), bool), y == 1)


@pytest.mark.parametrize("seed", range(40))
def test_consistent_disjunction_against_every_subset(seed):
    r = np.random.default_rng(seed)
    T, N = int(r.integers(1, 12)), int(r.integers(1, 7))
    X = (r.random((T, N)) < r.uniform(0.1, 0.6)).astype(int)
    if seed % 2:      # half the streams are labelled by a hidden disjunction
        S0 = r.choice(N, size=int(r.integers(1, N + 1)), replace=False)
        y = X[:, S0].max(axis=1)
    else:
        y = r.integers(0, 2, size=T)
    exists = any(_consistent(X, y, S) for k in range(N + 1) for S in itertools.combinations(range(N), k))
    got = comparators.consistent_disjunction(X, y)
    assert (got is not None) == exists
    if got is not None:
        assert _consistent(X, y, got) and list(got) == sorted(set(got.tolist()))


@pytest.mark.parametrize("seed", range(3))
def test_consistent_disjunction_on_generated_streams(seed):
    s = streams.disjunction(T=300, N=50, k=4, seed=seed)
    S = comparators.consistent_disjunction(s.X, s.y)
    assert S is not None and _consistent(s.X, s.y, S) and len(S) <= 50
    assert bounds.consistent_disjunction is comparators.consistent_disjunction


def test_consistent_disjunction_edge_cases_and_bad_input():
    assert comparators.consistent_disjunction([[1, 0], [0, 1]], [0, 0]).tolist() == []   # all negative
    assert comparators.consistent_disjunction([[1, 0], [1, 0]], [1, 0]) is None          # same row, two labels
    with pytest.raises(StreamError, match="X"):
        comparators.consistent_disjunction([[2, 0]], [1])
    with pytest.raises(StreamError, match="y"):
        comparators.consistent_disjunction([[1, 0]], [-1])


# ---- the bounds these feed hold on real runs -------------------------------------------------------

@pytest.mark.parametrize("N, k, seed", [(10, 1, 0), (40, 3, 1), (100, 2, 2), (200, 5, 3)])
def test_perceptron_disjunction_bound_and_its_comparator(N, k, seed):
    s = streams.disjunction(T=400, N=N, k=k, seed=seed)
    X = np.column_stack([s.X, np.ones(s.T)]).astype(float)      # bias attribute
    y = 2.0 * s.y - 1.0
    u = np.zeros(N + 1)
    u[s.info["relevant"]] = 2.0
    u[-1] = -1.0
    assert (y * (X @ u)).min() >= 1.0                             # the docstring's comparator
    assert u @ u == 4 * k + 1 and measure.radius(X) ** 2 <= N + 1
    tr = linear.perceptron(X, y, epochs=3)
    assert tr.n_mistakes <= bounds.perceptron_disjunction(k, N)


@pytest.mark.parametrize("eta, noise, seed", [(0.1, 0.0, 0), (0.5, 0.1, 1), (0.03, 0.2, 2)])
def test_ogd_hinge_loss_bound_holds_after_every_round(eta, noise, seed):
    s = streams.separable(T=300, d=3, gamma=0.1, noise=noise, seed=seed)
    X, y = s.X.astype(float), s.y.astype(float)
    u = s.info["v"] / s.info["gamma"]
    Lu = np.cumsum(np.maximum(0.0, 1.0 - y * (X @ u)))
    t = np.arange(1, s.T + 1)
    curve = bounds.ogd_hinge_loss_bound(Lu, np.linalg.norm(u), measure.radius(X), eta, t)
    tr = linear.ogd_hinge(X, y, eta=eta)
    assert np.all(np.cumsum(tr.losses) <= curve + 1e-9)
    assert np.all(np.cumsum(tr.mistakes) <= curve + 1e-9)


def test_nonseparable_perceptron_curve_holds_after_every_round():
    s = streams.separable(T=400, d=2, gamma=0.1, noise=0.1, seed=5)
    X, y = s.X.astype(float), s.y.astype(float)
    best = bounds.best_u_nonseparable(X, y)
    Lu = np.cumsum(np.maximum(0.0, 1.0 - y * (X @ best["u"])))
    curve = bounds.perceptron_nonseparable(Lu, best["norm_u"], best["R"])
    assert curve[-1] == pytest.approx(best["bound"])
    tr = linear.perceptron(X, y)
    assert np.all(np.cumsum(tr.mistakes) <= curve + 1e-9)


def test_the_two_widrow_hoff_eta_names_differ_and_agree_at_the_optimum():
    s = streams.regression(T=200, d=3, noise=0.3, seed=0)
    eta, B = bounds.widrow_hoff_optimal_eta(s.X, s.y)
    u = bounds.widrow_hoff_comparator(s.X, s.y, eta)
    L = float(np.sum((s.X @ u - s.y) ** 2))
    assert bounds.widrow_hoff_best_eta(L, float(u @ u)) == pytest.approx(eta, abs=1e-4)
    assert bounds.widrow_hoff_tuned(L, float(u @ u)) == pytest.approx(B, rel=1e-6)


# ---- separability with a certificate ----------------------------------------------------

def _thin_margin_stand_in(seed=0, T=500, d=10):
    """A stand-in for raw breast cancer: separable through the origin, but features in units up to a million apart,
    so the margin is about 1e-7 of R: the Frank-Wolfe search gives up on it, the whitened search does not."""
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(d)
    v /= np.linalg.norm(v)
    X = rng.standard_normal((T, d))
    m = X @ v
    y = np.where(m >= 0, 1.0, -1.0)
    X += ((np.sign(m) * np.maximum(np.abs(m), 1e-7) - m)[:, None]) * v       # every |v·x| >= 1e-7
    return X * 10.0 ** rng.uniform(-3, 3, d), y


def _check_certificate(s, X, y):
    X, y = np.asarray(X, float), np.asarray(y, float)
    Z = y[:, None] * X
    R = measure.radius(X)
    assert s.R == R and s.rounding == pytest.approx(2 * (X.shape[1] + 1) * np.finfo(float).eps * R)
    assert np.linalg.norm(s.v) == pytest.approx(1.0) and s.gamma == float((Z @ s.v).min())    # measured, not assumed
    if s.verdict == "separable":
        assert s.gamma > s.rounding and s.weights is None and s.epsilon == np.inf
    else:
        assert s.gamma <= s.rounding
    if s.weights is not None:
        lam = s.weights
        assert np.all(lam >= 0) and np.sum(lam) == pytest.approx(1.0, abs=1e-12)
        assert np.linalg.norm(Z.T @ lam) <= s.epsilon                     # the certificate's epsilon covers the sum
        assert s.gamma <= s.epsilon                                        # no direction beats it: v included
        if s.verdict == "not separable":
            assert s.epsilon <= 1e-9 * R


def test_separability_certifies_the_thin_margin_of_raw_breast_cancer():
    """The raw breast-cancer upload is separable through the origin (a linear program finds margin ~4e-5 with
    R ~ 5e3); the page called it "not separable" from the Frank-Wolfe search, which gives up on such a margin."""
    datasets = pytest.importorskip("sklearn.datasets")
    d = datasets.load_breast_cancer()
    X, y = d.data, np.where(d.target == 1, 1.0, -1.0)
    _, g = comparators.max_margin_direction(X, y, tol=1e-6, max_iter=20_000)
    assert g <= 0                                           # the old verdict, from this search alone
    s = comparators.separability(X, y)
    assert s.verdict == "separable" and s.separable and not s.max_margin
    assert 1e-5 < s.gamma < 1e-4 and s.steps > 0 and "interior-point" in s.effort
    _check_certificate(s, X, y)
    assert np.all(y * (X @ s.v) > 0)


@pytest.mark.parametrize("seed", range(3))
def test_separability_finds_a_separator_the_frank_wolfe_search_misses(seed):
    X, y = _thin_margin_stand_in(seed)
    _, g = comparators.max_margin_direction(X, y, tol=1e-6, max_iter=20_000)
    assert g <= 2 * 11 * np.finfo(float).eps * measure.radius(X)     # undecided by the first search alone
    s = comparators.separability(X, y)
    assert s.verdict == "separable" and not s.max_margin
    _check_certificate(s, X, y)


@pytest.mark.parametrize("noise, seed", [(0.05, 0), (0.1, 1), (0.3, 2)])
def test_separability_gives_a_farkas_certificate_on_noisy_streams(noise, seed):
    s0 = streams.separable(T=200, d=2, gamma=0.15, noise=noise, seed=seed)
    X, y = s0.X.astype(float), s0.y.astype(float)
    s = comparators.separability(X, y)
    assert s.verdict == "not separable" and not s.separable
    _check_certificate(s, X, y)
    assert s.epsilon <= 1e-12
    assert _brute_force_margin(X, y, 20_000) <= s.epsilon                 # every grid direction: at most epsilon


@pytest.mark.parametrize("delta", [1e-3, 1e-6, 1e-9])
def test_separability_just_inside_and_just_outside_the_hull(delta):
    """(1, 0), (-1, delta), (-1, -delta): the origin is inside their hull, at depth about delta/2, so no line
    separates them; with (-1, 2 delta) instead of (-1, -delta) the origin is outside by about delta/2, and the
    direction (delta/2, 1) separates them."""
    X = np.array([[1.0, 0.0], [-1.0, delta], [-1.0, -delta]])
    y = np.ones(3)
    s = comparators.separability(X, y)
    assert s.verdict == "not separable"
    _check_certificate(s, X, y)
    assert s.epsilon < delta / 4                                          # sharper than the depth
    X[2, 1] = 2 * delta
    s = comparators.separability(X, y)
    assert s.verdict == "separable"
    _check_certificate(s, X, y)


def test_separability_degenerate_streams():
    s = comparators.separability([[0.0, 0.0], [1.0, 1.0]], [1, 1])      # a point at the origin: y v·0 = 0
    assert s.verdict == "not separable" and s.epsilon <= 1e-12
    s = comparators.separability([[1.0, 2.0], [1.0, 2.0]], [1, -1])      # one point, both labels
    assert s.verdict == "not separable" and s.weights @ np.array([1.0, 1.0]) == pytest.approx(1.0)
    s = comparators.separability([[3.0, 4.0]], [-1])                       # one point: its own direction
    assert s.verdict == "separable" and s.max_margin and s.v == pytest.approx([-0.6, -0.8])
    rng = np.random.default_rng(3)                                         # d > T: rows independent, separable
    s = comparators.separability(rng.standard_normal((20, 50)), rng.choice([-1, 1], 20))
    assert s.verdict == "separable"
    with pytest.raises(StreamError, match="y"):
        comparators.separability([[1.0, 0.0]], [0])


def test_separability_says_undecided_when_its_search_is_cut_short(monkeypatch):
    s0 = streams.separable(T=200, d=2, gamma=0.15, noise=0.1, seed=0)
    monkeypatch.setattr(comparators, "_IPM_BUDGET", 0)
    s = comparators.separability(s0.X, s0.y)
    assert s.verdict == "undecided" and s.weights is None and s.epsilon == np.inf
    assert "skipped" in s.effort and "20,000 Frank-Wolfe steps" in s.effort


def test_separability_certifies_repeated_points_with_both_labels_exactly():
    """Real data often repeats a row with both labels: the origin is then the midpoint of z_s and z_t = -z_s, on the
    hull's boundary, where an interior-point search converges slowly; the pair is checked first, bit for bit."""
    rng = np.random.default_rng(4)
    X = rng.standard_normal((23, 30)) * 10.0 ** rng.uniform(-4, 4, 30)
    X = np.repeat(X, 2, axis=0)
    y = rng.choice([-1.0, 1.0], 46)
    y[1] = -y[0]                                                          # row 0 twice, once with each label
    s = comparators.separability(X, y)
    assert s.verdict == "not separable" and s.steps == 0 and "two opposite points" in s.effort
    _check_certificate(s, X, y)
    assert np.count_nonzero(s.weights) == 2
    Z = y[:, None] * X
    assert not (Z.T @ s.weights).any()                                     # exactly zero, not just small
