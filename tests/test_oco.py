"""olcore.oco: theory is the oracle (OGD's regret bounds, projections, optimality of θ*), the compiled
fast paths agree with the reference classes, and online logistic regression equals scikit-learn's SGD."""

from __future__ import annotations

import numpy as np
import pytest

from olcore import StreamError, bounds, oco, streams

SETS = [oco.Ball(1.0), oco.Ball(0.3), oco.Box(0.5), oco.Simplex()]
LOSSES = ["logistic", "hinge", "squared", "linear"]


def _stream(seed: int, loss: str, T=None, d=None):
    """A seeded random stream for ``loss``: classification, noisy labels, regression or random signs."""
    r = np.random.default_rng(seed)
    T = T or int(r.integers(1, 40))
    d = d or int(r.integers(1, 4))
    X = r.standard_normal((T, d)) * r.uniform(0.2, 2.0)
    if loss == "squared":
        y = X @ r.standard_normal(d) + r.normal(0, 0.5, T)
    else:
        y = np.where(r.random(T) < 0.5, -1, 1)
    return X, y


def _regret_upper(X, y, loss, C, trace):
    """Σ ℓ_t(θ_t) − (a certified lower bound on min_C Σ ℓ_t): an upper bound on the regret."""
    best = oco.solve_best_fixed(X, y, loss, C)
    assert best.gap <= 1e-6 * max(1.0, best.value)
    return trace.total_loss - best.lower, best


# -- projections -------------------------------------------------------------------------------------

@pytest.mark.parametrize("C", SETS + [oco.Box(2.0), oco.Ball(5.0)], ids=repr)
def test_projection_lands_in_C_is_idempotent_and_non_expansive(C):
    r = np.random.default_rng(1)
    for d in (1, 2, 3, 7):
        V = r.standard_normal((400, d)) * r.uniform(0.1, 5.0, size=(400, 1))
        P = C.project(V)
        assert P.shape == V.shape
        assert C.contains(P)
        np.testing.assert_allclose(C.project(P), P, atol=1e-12)                    # idempotent
        np.testing.assert_allclose(P[5], C.project(V[5]), atol=0)                 # rows == vectors
        W = r.standard_normal((400, d)) * 3
        Q = C.project(W)
        assert (np.linalg.norm(P - Q, axis=1) <= np.linalg.norm(V - W, axis=1) + 1e-12).all()
        # the notes' theorem: ||θ − θ̂|| ≥ ||Π(θ) − θ̂|| for every θ̂ in C
        assert (np.linalg.norm(V - Q, axis=1) >= np.linalg.norm(P - Q, axis=1) - 1e-12).all()
        # Π(θ) is the nearest point: no point of C (sampled) is nearer
        far = np.linalg.norm(V - Q, axis=1) >= np.linalg.norm(V - P, axis=1) - 1e-12
        assert far.all()


def test_projection_formulas():
    assert np.allclose(oco.Ball(2.0).project([3.0, 4.0]), [1.2, 1.6])
    assert np.allclose(oco.Box(1.0).project([3.0, -0.5, -7]), [1.0, -0.5, -1.0])
    assert np.allclose(oco.Simplex().project([0.0, 0.0, 0.0]), [1 / 3] * 3)
    assert np.allclose(oco.Simplex().project([2.0, 0.0]), [1.0, 0.0])
    assert np.allclose(oco.Simplex().project([0.5, 0.3, -1.0]), [0.6, 0.4, 0.0])
    assert oco.Ball(1.5).diameter(4) == 3.0
    assert oco.Box(0.5).diameter(4) == pytest.approx(2.0)
    assert oco.Simplex().diameter(5) == pytest.approx(np.sqrt(2))
    with pytest.raises(StreamError):
        oco.Ball(0.0)
    with pytest.raises(StreamError):
        oco.Ball(1.0).project([np.nan, 1.0])


def test_diameter_is_the_largest_distance_between_points_of_C():
    r = np.random.default_rng(2)
    for C in SETS:
        d = 3
        P = C.project(r.standard_normal((800, d)) * 10)
        far = max(np.linalg.norm(P[:, None] - P[None], axis=2).max(), 0)
        assert far <= C.diameter(d) + 1e-12
        assert far >= 0.8 * C.diameter(d)


# -- the theorem --------------------------------------------------------------------------------------

@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("C", SETS, ids=repr)
def test_regret_at_the_theorems_eta_is_under_DG_sqrtT_and_any_eta_under_the_proof_bound(loss, C):
    n = 40 if loss == "hinge" else 60
    for seed in range(n):
        X, y = _stream(seed, loss)
        T, d = X.shape
        D, G = C.diameter(d), oco.gradient_bound(X, y, loss, C)
        if D == 0 or G == 0:
            continue
        eta = bounds.ogd_eta(D, G, T)
        tr = oco.projected_ogd(X, y, loss, eta, C)
        assert tr.extras["grad_norm"].max() <= G * (1 + 1e-9)           # G bounds every gradient
        reg, best = _regret_upper(X, y, loss, C, tr)
        assert reg <= bounds.ogd_regret(D, G, T) + 1e-9
        eta2 = float(np.exp(np.random.default_rng(seed).uniform(np.log(1e-3), np.log(20))))
        tr2 = oco.projected_ogd(X, y, loss, eta2, C)
        reg2 = tr2.total_loss - best.lower
        assert reg2 <= bounds.ogd_proof_bound(D, eta2, float((tr2.extras["grad_norm"] ** 2).sum())) + 1e-9
        assert reg2 <= bounds.ogd_regret_eta(D, G, T, eta2) + 1e-9


def test_thousands_of_linear_and_logistic_streams():
    for seed in range(1500):
        loss = "linear" if seed % 2 else "logistic"
        C = SETS[seed % len(SETS)]
        X, y = _stream(10_000 + seed, loss)
        T, d = X.shape
        D, G = C.diameter(d), oco.gradient_bound(X, y, loss, C)
        if D == 0:
            continue
        tr = oco.projected_ogd(X, y, loss, bounds.ogd_eta(D, G, T), C)
        reg, _ = _regret_upper(X, y, loss, C, tr)
        assert reg <= bounds.ogd_regret(D, G, T) + 1e-9


def test_the_proof_per_round_inequality_holds():
    for seed in range(60):
        loss = LOSSES[seed % 4]
        C = SETS[seed % 3]
        X, y = _stream(seed, loss, T=30, d=2)
        eta = 0.05 + seed / 60
        tr = oco.projected_ogd(X, y, loss, eta, C)
        star = oco.best_fixed(X, y, loss, C)
        W = tr.weights
        pot = ((W - star) ** 2).sum(axis=1)
        lhs = oco.loss_values(X, y, W[:-1], loss) - oco.loss_values(X, y, star, loss)
        rhs = (pot[:-1] - pot[1:]) / (2 * eta) + eta / 2 * tr.extras["grad_norm"] ** 2
        assert (lhs <= rhs + 1e-9).all()
        step = tr.extras["step"]                                         # non-expansiveness at θ*
        assert (np.linalg.norm(step - star, axis=1) >= np.sqrt(pot[1:]) - 1e-9).all()


def test_random_sign_linear_losses_keep_the_regret_near_DG_sqrtT():
    ratios = []
    for seed in range(40):
        s = streams.rademacher_linear(T=400, d=2, seed=seed)
        C = oco.Box(1.0)
        D, G = C.diameter(2), oco.gradient_bound(s.X, s.y, "linear", C)
        assert G == pytest.approx(1.0)
        tr = oco.projected_ogd(s.X, s.y, "linear", bounds.ogd_eta(D, G, 400), C)
        best = oco.solve_best_fixed(s.X, s.y, "linear", C)
        ratios.append((tr.total_loss - best.value) / bounds.ogd_regret(D, G, 400))
    assert max(ratios) <= 1.0
    assert np.mean(ratios) >= 0.25          # theory: about 1/sqrt(2 pi) = 0.40 for every algorithm


# -- θ* --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("C", SETS, ids=repr)
def test_best_fixed_satisfies_first_order_conditions_and_beats_sampled_points(loss, C):
    r = np.random.default_rng(5)
    for seed in range(15):
        X, y = _stream(100 + seed, loss, T=60, d=2)
        best = oco.solve_best_fixed(X, y, loss, C)
        assert C.contains(best.theta)
        F = lambda th: oco.loss_values(X, y, th, loss).sum()   # noqa: E731
        tol = 1e-6 * max(1.0, best.value)
        assert F(best.theta) == pytest.approx(best.value, rel=1e-12, abs=1e-12)
        U = C.project(r.standard_normal((500, 2)) * 2)
        vals = oco.loss_values(np.repeat(X[None], 500, 0).reshape(-1, 2), np.tile(y, 500),
                               np.repeat(U, len(y), 0), loss).reshape(500, -1).sum(axis=1)
        assert (vals >= best.value - tol).all()
        if loss != "hinge":    # differentiable: <∇F(θ*), u − θ*> ≥ −gap for every u in C
            g = oco.loss_gradients(X, y, best.theta, loss).sum(axis=0)
            assert ((U - best.theta) @ g >= -tol - 1e-9).all()


def test_best_fixed_hinge_against_a_fine_grid():
    X, y = _stream(7, "hinge", T=50, d=2)
    C = oco.Ball(1.0)
    best = oco.solve_best_fixed(X, y, "hinge", C)
    a, rr = np.meshgrid(np.linspace(0, 2 * np.pi, 400), np.sqrt(np.linspace(0, 1, 200)))
    U = np.column_stack([(rr * np.cos(a)).ravel(), (rr * np.sin(a)).ravel()])
    vals = np.maximum(0, 1 - (U @ (y[:, None] * X).T)).sum(axis=1)
    assert best.value <= vals.min() + 1e-6 * best.value
    assert vals.min() - best.value <= 0.05                  # the grid is fine: it gets close


def test_prefix_best_matches_solving_each_prefix():
    X, y = _stream(3, "logistic", T=40, d=2)
    C = oco.Box(1.0)
    got = oco.prefix_best(X, y, "logistic", C, rounds=[1, 10, 40])
    want = [oco.solve_best_fixed(X[:t], y[:t], "logistic", C).value for t in (1, 10, 40)]
    np.testing.assert_allclose(got, want, rtol=1e-5)
    lin = oco.prefix_best(X, y, "linear", C)
    want = [oco.solve_best_fixed(X[:t], y[:t], "linear", C).value for t in range(1, 41)]
    np.testing.assert_allclose(lin, want, rtol=1e-12)


# -- the best fixed point where the logistic loss is flat ------------------------------------------------
# A prefix that some direction separates has its minimiser on the boundary of C at a large margin, where
# ln(1 + e^(−m)) ≈ e^(−m) is so flat that a fixed step 1/L crawls (the audit's upload raised "the optimality
# gap ... did not fall under 1e-06 in 12000 iterations"); every answer below is checked against a closed
# form or a grid, and its certificate is recomputed here from the gradient.

def _certified(X, y, C, best, tol=1e-6):
    """The Frank-Wolfe gap of ``best.theta``, recomputed: ∇F·θ + σ_C(−∇F) ≥ F(θ) − min_C F, within tolerance."""
    g = oco.loss_gradients(X, y, best.theta, "logistic").sum(axis=0)
    gap = float(g @ best.theta + C.support(-g))
    assert C.contains(best.theta)
    assert best.value == pytest.approx(oco.loss_values(X, y, best.theta, "logistic").sum(), rel=1e-12)
    assert gap <= tol * max(1.0, best.value) and best.gap <= tol * max(1.0, best.value)
    return gap


def _one_point_exact(t: int) -> float:
    """min over the box |θ_i| ≤ 2 of Σ_(s≤t) ln(1 + e^(−y_s θ·x)), x = (3, 4), y = +1, −1, +1, ...: after one
    round the corner θ = (2, 2) (θ·x = 14); after t = 2k rounds θ·x = 0 (k of each label), t ln 2; after
    t = 2k + 1 (k + 1 labels +1), θ·x = ln((k + 1)/k): (k + 1) ln((2k + 1)/(k + 1)) + k ln((2k + 1)/k)."""
    if t == 1:
        return float(np.log1p(np.exp(-14.0)))
    k = t // 2
    if t % 2 == 0:
        return t * np.log(2.0)
    return (k + 1) * np.log((2 * k + 1) / (k + 1)) + k * np.log((2 * k + 1) / k)


def test_best_fixed_of_one_point_repeated_with_alternating_labels_matches_the_closed_form():
    X, y = np.tile([3.0, 4.0], (95, 1)), np.where(np.arange(95) % 2 == 0, 1.0, -1.0)
    C = oco.Box(2.0)
    rounds = np.unique(np.linspace(1, 95, 10).round().astype(int))      # the page's prefixes (10 of them)
    exact = np.array([_one_point_exact(t) for t in rounds])
    got = oco.prefix_best(X, y, "logistic", C, rounds=rounds)            # raised here before
    rounding = 1e-12 * np.maximum(1.0, exact)
    assert np.all(got >= exact - rounding) and np.all(got - exact <= 1e-6 * np.maximum(1.0, exact))
    for t in (1, 2, 3, 10, 11, 95):
        best = oco.solve_best_fixed(X[:t], y[:t], "logistic", C)
        _certified(X[:t], y[:t], C, best)
        e = _one_point_exact(t)
        assert best.lower - 1e-12 * max(1.0, e) <= e <= best.value + 1e-12 * max(1.0, e)
    assert np.allclose(oco.solve_best_fixed(X[:1], y[:1], "logistic", C).theta @ [3.0, 4.0], 14.0, atol=0.1)
    assert abs(oco.solve_best_fixed(X[:10], y[:10], "logistic", C).theta @ [3.0, 4.0]) < 3e-3   # θ* = 0 among them


def _near_relatives():
    """The upload's near relatives, 95 rounds in the box of half-width 2: two points alternating (each with
    one label: separable), two points each with alternating labels, three points with balanced labels."""
    T, p = 95, np.array([[3.0, 4.0], [-1.0, 2.0], [2.0, -3.0]])
    plus_minus = np.where(np.arange(T) % 2 == 0, 1.0, -1.0)
    return {"two points, one label each": (p[np.arange(T) % 2], plus_minus),
            "two points, alternating labels each": (p[(np.arange(T) // 2) % 2], plus_minus),
            "three points, balanced labels": (p[np.arange(T) % 3], np.where((np.arange(T) // 3) % 2 == 0, 1.0, -1.0))}


@pytest.mark.parametrize("name", list(_near_relatives()))
def test_best_fixed_of_near_relatives_is_certified_and_beats_a_grid(name):
    X, y = _near_relatives()[name]
    C = oco.Box(2.0)
    g = np.linspace(-2, 2, 201)
    grid = np.stack(np.meshgrid(g, g), axis=-1).reshape(-1, 2)           # the box, every 0.02
    rounds = np.arange(1, 96)
    got = oco.prefix_best(X, y, "logistic", C, rounds=rounds)            # raised here before, for each of them
    for t in (1, 2, 3, 4, 5, 6, 12, 40, 95):
        best = oco.solve_best_fixed(X[:t], y[:t], "logistic", C)
        _certified(X[:t], y[:t], C, best)
        on_grid = np.logaddexp(0.0, -(grid @ (y[:t, None] * X[:t]).T)).sum(axis=1).min()
        assert best.value <= on_grid + best.gap + 1e-12                 # no point of the grid does better
        assert got[t - 1] == pytest.approx(best.value, rel=1e-6, abs=1e-6)
    balanced = [t for t in rounds if all(y[:t][(X[:t] == q).all(axis=1)].sum() == 0 for q in np.unique(X, axis=0))]
    for t in balanced:                                                   # every point seen as often with each label:
        assert got[t - 1] == pytest.approx(t * np.log(2.0), rel=1e-6)    # θ* = 0, F = t ln 2


# -- fast path == reference class ----------------------------------------------------------------------

@pytest.mark.parametrize("loss", LOSSES)
def test_fast_path_agrees_with_the_reference_class(loss):
    for seed in range(40):
        C = SETS[seed % len(SETS)]
        X, y = _stream(seed, loss, T=50)
        eta = 0.01 + seed / 20
        tr = oco.projected_ogd(X, y, loss, eta, C)
        ref = oco.ProjectedOGD(X.shape[1], loss, eta, C)
        losses, W = [], [ref.theta.copy()]
        for x, yt in zip(X, y):
            assert ref.predict(x) == pytest.approx(tr.predictions[len(losses)], rel=1e-9, abs=1e-12)
            losses.append(ref.update(x, yt))
            W.append(ref.theta.copy())
        np.testing.assert_allclose(tr.losses, losses, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(tr.weights, np.array(W), rtol=1e-9, atol=1e-12)
        assert tr.weights.shape == (X.shape[0] + 1, X.shape[1])
        np.testing.assert_allclose(tr.extras["grad_norm"], np.linalg.norm(
            oco.loss_gradients(X, y, tr.weights[:-1], loss), axis=1), rtol=1e-9, atol=1e-12)


def test_theta_1_is_the_projection_of_0():
    X, y = _stream(1, "linear", T=5, d=3)
    assert np.allclose(oco.projected_ogd(X, y, "linear", 0.1, oco.Simplex()).weights[0], 1 / 3)
    assert np.allclose(oco.projected_ogd(X, y, "linear", 0.1, oco.Ball(1)).weights[0], 0)


# -- OGD on the simplex -------------------------------------------------------------------------------

def test_simplex_ogd_stays_on_the_simplex_agrees_with_its_reference_and_meets_sqrt_2KT():
    for seed in range(60):
        r = np.random.default_rng(seed)
        T, K = int(r.integers(1, 300)), int(r.integers(2, 30))
        L = streams.loss_matrix(T=T, n=K, seed=seed, distribution="beta" if seed % 2 else "bernoulli").X
        eta = float(np.sqrt(2 / (K * T)))
        assert eta == pytest.approx(bounds.ogd_eta(np.sqrt(2), np.sqrt(K), T))
        tr = oco.simplex_ogd(L, eta, seed=seed)
        V = tr.weights
        assert (V >= 0).all() and np.allclose(V.sum(axis=1), 1.0)
        ref = oco.SimplexOGD(K, eta)
        for t in range(T):
            np.testing.assert_allclose(ref.v, V[t], atol=1e-12)
            assert ref.update(L[t]) == pytest.approx(tr.losses[t], abs=1e-12)
        assert tr.regret[-1] <= bounds.simplex_ogd_regret(K, T) + 1e-9
        assert tr.extras["grad_norm"].max() <= np.sqrt(K)


def test_bad_inputs_raise_stream_errors():
    X, y = _stream(1, "squared", T=5, d=2)
    with pytest.raises(StreamError, match="squared loss"):
        oco.projected_ogd(X, y, "logistic")
    with pytest.raises(StreamError):
        oco.projected_ogd(X, y, "cubic")
    with pytest.raises(StreamError):
        oco.projected_ogd(X, y, "squared", eta=0)
    with pytest.raises(StreamError):
        oco.projected_ogd(X, y, "squared", domain="ball")
    with pytest.raises(StreamError):
        oco.simplex_ogd([[0.5, 1.5]], 0.1)


# -- scikit-learn cross-check --------------------------------------------------------------------------

def test_unconstrained_logistic_ogd_equals_sklearn_sgd_one_epoch():
    sk = pytest.importorskip("sklearn.linear_model")
    import warnings
    for seed in range(5):
        s = streams.separable(T=300, d=3, gamma=0.05, noise=0.1, seed=seed)
        eta = 0.05 * (seed + 1)
        tr = oco.projected_ogd(s.X, s.y, "logistic", eta, oco.Ball(1e9))
        clf = sk.SGDClassifier(loss="log_loss", penalty=None, learning_rate="constant", eta0=eta,
                               fit_intercept=False, shuffle=False, max_iter=1, tol=None)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            clf.fit(s.X, s.y)
        np.testing.assert_allclose(tr.weights[-1], clf.coef_[0], rtol=1e-9, atol=1e-12)
