"""olcore.lessons.perceptron: the theory is the oracle.  Every bound the page draws holds on seeded
random, noisy, replayed, typed-like and adversarial streams; the reports say when they apply."""

import math
import pickle

import numpy as np
import pytest

from olcore import StreamError, bounds, linear, streams
from olcore.comparators import max_margin_direction
from olcore.lessons import perceptron as P
from olcore.report import BoundReport


def random_points(seed, T=12, d=2):
    """Typed-like points: anywhere in a box, labels by a random line through the origin (or random)."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(T, d))
    w = rng.standard_normal(d)
    y = np.where(X @ w >= 0, 1, -1)
    if seed % 3 == 0:
        y = rng.choice([-1, 1], size=T)          # usually not separable
    return streams.from_arrays("linear", X, y)


def adversary(seed, T=80, gamma=0.1):
    """Each round the adversary picks, among points on the unit circle with margin >= gamma w.r.t. a
    hidden v, one the current Perceptron gets wrong (if any): as many mistakes as it can force."""
    rng = np.random.default_rng(seed)
    a0 = rng.uniform(0, 2 * np.pi)
    v = np.array([np.cos(a0), np.sin(a0)])
    ang = np.linspace(0, 2 * np.pi, 720, endpoint=False)
    C = np.column_stack([np.cos(ang), np.sin(ang)])
    ok = np.abs(C @ v) >= gamma
    C = C[ok]
    labels = np.sign(C @ v)
    p = linear.Perceptron(2)
    X, y = [], []
    for _ in range(T):
        wrong = np.flatnonzero(labels * (C @ p.w) <= 0)
        i = int(rng.choice(wrong)) if wrong.size else int(rng.integers(len(C)))
        X.append(C[i])
        y.append(int(labels[i]))
        p.update(C[i], labels[i])
    return streams.from_arrays("linear", np.array(X), np.array(y))


def assert_under(curve, report):
    b = report.as_curve(len(curve))
    assert np.all(np.asarray(curve, float) <= b + 1e-9), (np.max(curve - b), report.formula)


STREAMS = ([("generated", P.generated_stream(T, g, nz, s), "Generated")
            for s, (T, g, nz) in enumerate([(60, 0.15, 0.0), (200, 0.05, 0.0), (300, 0.15, 0.1), (100, 0.03, 0.0),
                                             (500, 0.2, 0.05), (50, 0.5, 0.3)])]
           + [("typed", random_points(s), "Typed") for s in range(12)]
           + [("upload-3d", random_points(s, T=40, d=3), "Upload") for s in range(4)]
           + [("adversary", adversary(s), "Generated") for s in range(4)])


@pytest.mark.parametrize("epochs", [1, 3])
@pytest.mark.parametrize("name,stream,source", STREAMS, ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(STREAMS)])
def test_every_drawn_bound_holds(name, stream, source, epochs):
    a = P.analyse(stream, epochs, source)
    cum = a.cum_mistakes
    assert a.T == stream.T * epochs and len(cum) == a.T
    assert_under(cum, a.bound)
    assert_under(cum, a.nonseparable)                 # holds for every u, separable or not
    if a.separable:
        assert a.novikoff.applies and a.bound is a.novikoff
        assert a.trace.n_mistakes <= a.novikoff.value + 1e-9
        assert a.gamma > 0 and np.all(a.y * (a.X @ a.v) >= a.gamma - 1e-12)
    else:
        assert not a.novikoff.applies and a.bound is a.nonseparable and math.isinf(a.novikoff.value)
    # the comparison: each learner under its own bound
    c = P.compare(stream, epochs, 0.3, 0.1, a.u)
    for k, rep in c.bounds.items():
        assert_under(np.cumsum(c.traces[k].mistakes), rep)
    np.testing.assert_array_equal(c.traces["Perceptron"].mistakes, a.trace.mistakes)


@pytest.mark.parametrize("name,stream,source", STREAMS[:10], ids=[n for n, _, _ in STREAMS[:10]])
def test_proof_quantities_are_squeezed(name, stream, source):
    a = P.analyse(stream, 2, source)
    p = a.proof
    assert len(p.M) == a.trace.n_mistakes + 1
    np.testing.assert_allclose(p.norm ** 2, a.trace.extras["norm_sq"][np.r_[0, np.flatnonzero(a.trace.mistakes) + 1]])
    assert np.all(p.norm <= p.upper + 1e-9)             # ‖w‖ <= √M R
    assert np.all(p.w_dot >= p.lower - 1e-9)            # w·v >= Mγ, or w·u/‖u‖ >= (M − L_u)/‖u‖
    assert np.all(p.w_dot <= p.norm + 1e-9)             # Cauchy-Schwarz with a unit vector
    if a.separable:
        assert p.meet == pytest.approx(a.novikoff.value)
        np.testing.assert_allclose(p.lower, p.M * a.gamma)
    # the same numbers as the learner's own v= extras (the other API), on the separable case
    if a.separable:
        tr = linear.perceptron(a.X, a.y, epochs=2, v=a.v)
        idx = np.r_[0, np.flatnonzero(tr.mistakes) + 1]
        np.testing.assert_allclose(p.w_dot, tr.extras["w_dot_v"][idx])


def test_typed_default_points_use_the_max_margin_direction():
    """REVIEW: the page showed 6.32 (the Perceptron's own final direction); the best direction gives 3.73."""
    from olapp.content.perceptron import TYPED
    s = P.typed_stream(TYPED["x1"], TYPED["x2"], TYPED["y"])
    a = P.analyse(s, 1, "Typed")
    v, g = max_margin_direction(s.X, s.y)
    assert a.v_from == "max-margin" and a.gamma == pytest.approx(g, rel=1e-5)
    assert a.novikoff.value == pytest.approx(3.73, abs=0.005)
    # no direction on a fine grid has a larger margin
    ang = np.linspace(0, 2 * np.pi, 100_000, endpoint=False)
    D = np.column_stack([np.cos(ang), np.sin(ang)])
    assert ((s.X @ D.T) * s.y[:, None]).min(axis=0).max() <= a.gamma + 1e-6
    # the Perceptron's own direction is worse: its bound is larger
    w = a.trace.weights_at(a.T)
    assert bounds.perceptron(a.R, bounds.margin(s.X, s.y, w)) > a.novikoff.value + 1
    assert "max-margin" in a.novikoff.statement


def test_generated_stream_uses_the_generators_separator():
    a = P.analyse(P.generated_stream(200, 0.1, 0.0, 0), 1)
    assert a.v_from == "generator" and a.gamma == pytest.approx(0.1) and a.R == pytest.approx(1.0)
    assert a.novikoff.value == pytest.approx(100.0)
    assert a.novikoff.numbers["gamma"] == pytest.approx(0.1) and a.novikoff.numbers["R"] == pytest.approx(1.0)
    assert r"\left(\frac{1}{0.1}\right)^2 = 100" in a.novikoff.latex
    assert a.novikoff.source.startswith("UCL COMP0078, Online learning") and "seeds/" not in a.novikoff.source
    assert a.novikoff.curve is None and a.novikoff.applies


def test_why_not_is_worded_by_source():
    noisy = P.generated_stream(200, 0.15, 0.1, 0)
    a = P.analyse(noisy, 1, "Generated")
    assert not a.separable and a.n_flipped == len(noisy.info["flipped"]) > 0
    assert f"flipped {a.n_flipped} labels" in a.novikoff.why_not
    xor = streams.from_arrays("linear", np.array([[1, 0], [-1, 0], [0, 1], [0, -1]]), np.array([1, 1, -1, -1]))
    for source in ("Typed", "Upload"):
        b = P.analyse(xor, 1, source)
        assert not b.novikoff.applies
        assert "no line through the origin separates these points" in b.novikoff.why_not
        assert "flip" not in b.novikoff.why_not and "noise" not in b.novikoff.why_not
        assert b.nonseparable.applies and b.nonseparable.curve.shape == (4,)
        assert b.nonseparable.source.startswith("Cesa-Bianchi, On-line learning")


def test_nonseparable_report_numbers_and_curve():
    a = P.analyse(P.generated_stream(300, 0.15, 0.1, 2), 2)
    r = a.nonseparable
    L = float(a.loss_u[-1])
    assert r.numbers["L_u"] == pytest.approx(L) and r.numbers["norm_u"] == pytest.approx(a.norm_u)
    assert r.value == pytest.approx(bounds.perceptron_nonseparable(L, a.norm_u, a.R))
    np.testing.assert_allclose(r.curve, bounds.perceptron_nonseparable(a.loss_u, a.norm_u, a.R))
    assert r.curve[-1] == pytest.approx(r.value)
    # L_u is the hinge loss of u over the replayed stream
    assert L == pytest.approx(2 * bounds.hinge_loss(a.X, a.y, a.u))
    assert f"{r.value:.4g}" in r.latex


def test_convergence_summary():
    a = P.analyse(P.generated_stream(100, 0.03, 0.0, 1), 12)
    assert a.per_pass.sum() == a.trace.n_mistakes and len(a.per_pass) == 12
    assert a.converged_pass is not None and a.per_pass[a.converged_pass - 1] == 0
    assert np.all(a.per_pass[: a.converged_pass - 1] > 0)
    assert np.all(a.per_pass[a.converged_pass - 1:] == 0)      # once a pass is clean, w never moves again
    assert a.last_mistake == np.flatnonzero(a.trace.mistakes)[-1] + 1
    noisy = P.analyse(P.generated_stream(200, 0.15, 0.05, 0), 5)
    assert noisy.converged_pass is None and np.all(noisy.per_pass > 0)


def test_at_round_facts():
    a = P.analyse(P.generated_stream(60, 0.15, 0.0, 0), 2)
    for t in range(0, a.T + 1, 7):
        v = P.at_round(a, t)
        assert v.M == int(np.sum(a.trace.mistakes[:t]))
        np.testing.assert_array_equal(v.w, a.trace.weights_at(t))
        seen = slice(0, v.n_seen)
        assert v.wrong_seen == int(np.sum(a.y[seen] * (a.X[seen] @ v.w) <= 0))
        assert (v.update is not None) == (t > 0 and bool(a.trace.mistakes[t - 1]))
        assert len(v.path) == v.M + 1
        # the wedge: its directions classify every seen point (read from one pass over the stream:
        # the same arcs as the points seen so far give on their own)
        assert v.arcs == P.consistent_arcs(a.X[seen], a.y[seen])
        for a0, a1 in v.arcs:
            mid = np.array([np.cos((a0 + a1) / 2), np.sin((a0 + a1) / 2)])
            assert np.all(a.y[seen] * (a.X[seen] @ mid) > 0)
    assert P.at_round(a, 0).last is None and P.at_round(a, a.T).n_seen == 60


def test_compare_bounds_and_pa_only_without_loss():
    s = P.generated_stream(200, 0.15, 0.0, 3)
    a = P.analyse(s, 1)
    c = P.compare(s, 1, 1.0, 0.1, a.u)
    assert set(c.bounds) == {"Perceptron", "PA", "PA-I", "PA-II", "OGD"}
    assert c.bounds["PA"].value == pytest.approx(a.novikoff.value)     # ‖u‖²R² with u = v/γ
    t = np.arange(1, a.T + 1)
    np.testing.assert_allclose(c.bounds["OGD"].curve, bounds.ogd_hinge_loss_bound(a.loss_u, a.norm_u, a.R, 0.1, t))
    np.testing.assert_allclose(c.bounds["PA-II"].curve, bounds.passive_aggressive_pa2(a.norm_u, a.sq_loss_u, 1.0, a.R))
    # OGD's bound is on its hinge loss, which is at least its mistakes
    assert np.all(np.cumsum(c.traces["OGD"].losses) <= c.bounds["OGD"].curve + 1e-9)
    noisy = P.generated_stream(200, 0.15, 0.1, 0)
    b = P.analyse(noisy, 1)
    assert "PA" not in P.compare(noisy, 1, 1.0, 0.1, b.u).bounds


def test_reports_pickle_for_the_cache():
    a = P.analyse(P.generated_stream(100, 0.15, 0.1, 0), 1)
    b = pickle.loads(pickle.dumps(a))
    for r, s in ((a.novikoff, b.novikoff), (a.nonseparable, b.nonseparable)):
        assert isinstance(s, BoundReport) and s.value == r.value and dict(s.numbers) == dict(r.numbers)
        assert s.applies == r.applies and s.why_not == r.why_not and s.latex == r.latex
    np.testing.assert_array_equal(a.nonseparable.curve, b.nonseparable.curve)


def test_bad_streams_raise_stream_error():
    with pytest.raises(StreamError):
        P.typed_stream([None, 0.5], [0.1, 0.2], [1, -1])
    with pytest.raises(StreamError):
        P.typed_stream([], [], [])
    with pytest.raises(StreamError, match="origin"):
        P.analyse(streams.from_arrays("linear", np.zeros((3, 2)), np.array([1, -1, 1])), 1)
    with pytest.raises(StreamError):
        P.analyse(streams.disjunction(T=20, N=5, k=1), 1)
    with pytest.raises(StreamError):
        P.analyse(P.generated_stream(20, 0.1, 0.0, 0), 0)


# ---- going deeper: OGD's tuned regret, conservative OGD, hinge, regularisation, PA-I's dual --

def _many_streams(n=300):
    """Seeded random streams of every kind the page can hold, plus the Perceptron's adversary."""
    rng = np.random.default_rng(1919)
    for i in range(n):
        kind = i % 4
        if kind == 0:
            yield P.generated_stream(int(rng.integers(5, 200)), float(rng.uniform(0.02, 0.5)),
                                     float(rng.choice([0.0, 0.05, 0.2])), int(rng.integers(0, 2**31)))
        elif kind == 1:
            yield random_points(int(rng.integers(0, 10**6)), T=int(rng.integers(2, 60)), d=int(rng.integers(1, 5)))
        elif kind == 2:
            yield adversary(int(rng.integers(0, 10**6)), T=int(rng.integers(5, 60)))
        else:                                    # integer points: ties at score 0 and margin 1
            X = rng.integers(-2, 3, (int(rng.integers(2, 50)), 2)).astype(float)
            X[np.all(X == 0, axis=1)] = 1.0
            yield streams.from_arrays("linear", X, rng.choice([-1, 1], len(X)))


def test_ogd_regret_with_the_tuned_eta_stays_under_its_bound():
    for i, s in enumerate(_many_streams()):
        a = P.analyse(s, 1 + i % 3)
        r = P.ogd_regret(s, a.epochs, a.u)
        if not r.report.applies:
            continue
        assert r.eta == pytest.approx(r.U / (r.R * math.sqrt(r.m)))
        assert_under(r.regret, r.report)                          # the proof's curve, after every round
        assert r.regret[-1] <= r.report.value + 1e-9              # U R sqrt(m) at t = m
        assert r.report.curve[-1] == pytest.approx(r.report.value)
        ogd = linear.ogd_hinge(s.X, s.y, eta=r.eta, epochs=a.epochs)
        np.testing.assert_allclose(r.regret, np.cumsum(ogd.losses)
                                   - np.cumsum(np.tile(np.maximum(0, 1 - s.y * (s.X @ a.u)), a.epochs)), atol=1e-9)


def test_ogd_regret_without_a_comparator_says_why():
    s = P.generated_stream(20, 0.2, 0.0, 0)
    r = P.ogd_regret(s, 1, np.zeros(2))
    assert not r.report.applies and "u is 0" in r.report.why_not


def test_conservative_ogd_matches_the_perceptron_at_every_eta():
    for i, s in enumerate(_many_streams(120)):
        c = P.conservative(s, 1 + i % 3)
        assert c.same_mistakes
        assert c.scale_error < 1e-12 and c.max_angle < 1e-3
        assert set(c.norms) == set(P.CONSERVATIVE_ETAS)
        p = linear.perceptron(s.X, s.y, epochs=1 + i % 3)
        assert c.mistakes == p.n_mistakes
        for e, n in c.norms.items():
            np.testing.assert_allclose(n, e * np.linalg.norm(p.weights[1:], axis=1), rtol=1e-12, atol=0)


def test_hinge_loss_bounds_the_mistakes_at_every_length():
    for s in _many_streams(120):
        a = P.analyse(s, 1)
        h = P.hinge_view(s, a.u)
        assert np.all(h.hinge >= h.mistakes - 1e-9)
        assert h.hinge[0] == len(s.y)                             # s = 0: every margin 0, hinge 1 each
        assert h.mistakes == int(np.sum(s.y * (s.X @ a.u) <= 0))
        if h.mistakes == 0:                                       # separable by u: reaches 0 in range
            assert h.hinge[-1] == pytest.approx(0, abs=1e-9)


def test_regularised_view_objectives_sit_above_their_minimum():
    for i, s in enumerate(_many_streams(80)):
        lam = [0.05, 0.5, 5.0][i % 3]
        g = P.regularised(s, lam)
        C = 1 / (2 * lam)
        ogd = linear.ogd_hinge(s.X, s.y, eta=C)
        np.testing.assert_array_equal(g.traces["OGD, η = 1/(2λ)"].weights, ogd.weights)
        for f in g.objective.values():
            assert np.all(f >= g.minimum - 1e-9 * np.maximum(1, g.minimum))
        assert 0 <= g.clipped <= g.updates
        # the exact step minimises L_hi(y, w.x) + lam ||w - w_t||^2: no worse than OGD's step from the same w_t
        pa = g.traces["exact proximal step (PA-I, C = 1/(2λ))"]
        for t in range(min(len(s.y), 30)):
            w0, w1 = pa.weights[t], pa.weights[t + 1]
            def F(w):
                return max(0.0, 1 - s.y[t] * (w @ s.X[t])) + lam * np.sum((w - w0) ** 2)
            step = w0 + C * s.y[t] * s.X[t] if s.y[t] * (w0 @ s.X[t]) < 1 else w0
            assert F(w1) <= F(step) + 1e-9 and F(w1) <= F(w0) + 1e-12


def test_pa1_dual_ascent_stays_under_svm_opt_and_pays_at_mistakes():
    for i, s in enumerate(_many_streams(200)):
        C = [0.01, 0.3, 1.0, 10.0][i % 4]
        d = P.dual_ascent(s, C)
        assert d.cumulative[-1] <= d.report.value * (1 + 1e-12) + 1e-12
        assert np.all(d.cumulative[d.rounds - 1] <= d.prefix_opt * (1 + 1e-12) + 1e-12)
        assert np.all(np.diff(d.cumulative) >= 0)                 # each D_t(alpha_t) >= D_t(0) = 0
        m = d.mistakes
        assert np.all(d.increments[m] >= d.floor - 1e-12)
        assert 2 * d.floor * m.sum() <= 2 * d.report.value + 1e-9   # min(C, 1/R^2) M <= 2 SVM_OPT
        assert d.floor == pytest.approx(min(C, 1 / float(np.max(np.sum(s.X**2, axis=1)))) / 2)
        assert d.report.numbers["dual_gap"] >= -1e-9


# ---- verdicts about the data carry a certificate; a bound at least T says so ----------------------

def _csv_stream(X, y):
    """The stream as the app reads an upload (a CSV of 10 significant digits, as the issue's reporter wrote it)."""
    import io

    buf = io.StringIO()
    buf.write(",".join([f"x{i + 1}" for i in range(X.shape[1])] + ["y"]) + "\n")
    np.savetxt(buf, np.column_stack([X, y]), delimiter=",", fmt="%.10g")
    return streams.read_csv(buf.getvalue(), "linear")


def _claims_hold(words) -> list:
    from olcore.claims import claims_of

    return [c.what for c in claims_of(words) if not c.holds]


def test_raw_breast_cancer_is_separable_and_its_bound_is_said_to_be_trivial():
    """Item 15: the raw breast-cancer upload was called "not separable ... no line through the origin separates these
    points" while a linear program finds a separating line (margin about 4e-5); the bound shown, 168 <= 569, was just
    T and the page did not say so."""
    from olapp.content import perceptron as text

    datasets = pytest.importorskip("sklearn.datasets")
    d = datasets.load_breast_cancer()
    a = P.analyse(_csv_stream(d.data, np.where(d.target == 1, 1, -1)), 1, "Upload")
    assert a.verdict == "separable" and a.separable and a.v_from == "search"
    assert a.gamma == pytest.approx(float((a.y * (a.X @ a.v)).min())) and a.gamma > 0
    assert a.novikoff.applies and "not separable" not in a.novikoff.statement
    assert a.novikoff.value >= a.T and a.trivial
    for words in (text.run_line(a), text.readout(a), text.mistakes(a, True)):
        assert f"is not below the T = {a.T} rounds played" in words and not _claims_hold(words)
    assert "not necessarily the max-margin direction" in a.novikoff.statement


def test_a_thin_margin_stand_in_is_separable_too():
    rng = np.random.default_rng(0)
    T, d = 300, 8
    v = rng.standard_normal(d)
    X = rng.standard_normal((T, d))
    m = X @ v
    y = np.where(m >= 0, 1, -1)
    X += ((np.sign(m) * np.maximum(np.abs(m), 1e-6) - m)[:, None]) * v / (v @ v)
    X *= 10.0 ** rng.uniform(-3, 3, d)
    assert max_margin_direction(X, y, tol=1e-6, max_iter=20_000)[1] <= 0      # what the page used to conclude from
    a = P.analyse(streams.from_arrays("linear", X, y), 2, "Upload")
    assert a.verdict == "separable" and np.all(y * (X @ a.v) > 0)


def test_not_separable_says_so_with_its_farkas_certificate():
    a = P.analyse(P.generated_stream(200, 0.15, 0.1, 0), 1)
    assert a.verdict == "not separable" and a.separation.epsilon <= 1e-12
    w = a.novikoff.why_not
    assert "not separable" in w and "Farkas certificate" in w and "(R/ε)²" in w and not _claims_hold(w)
    lam = a.separation.weights
    assert np.linalg.norm((a.y[:, None] * a.X).T @ lam) <= a.separation.epsilon


def test_without_a_certificate_the_page_says_no_separating_direction_was_found(monkeypatch):
    """When neither a separator nor a Farkas certificate is found, no verdict about the data is given."""
    from olapp.content import perceptron as text
    from olcore import comparators

    monkeypatch.setattr(comparators, "_IPM_BUDGET", 0)          # the certificate search is cut short
    a = P.analyse(P.generated_stream(200, 0.15, 0.1, 0), 3)
    assert a.verdict == "undecided" and not a.separable
    w = a.novikoff.why_not
    assert "No separating direction was found" in w and "(after the max-margin search" in w
    assert "not separable" not in w and "no line through the origin separates" not in w
    kind, msg = text.convergence(a)
    assert "no separating direction was found" in msg and "no line through the origin" not in msg
    assert "none was found" in text.data_space(a, a.T)
    from olapp.figures import perceptron as figs

    assert figs.mistakes(a, a.T).layout.title.text == "Mistakes (no separator found)"


def test_the_hinge_scene_counts_the_points_the_unit_v_pays_for():
    """Item 12: "the unit v pays hinge loss on every point" -- on 199 of 200 (the generator puts one point at
    y v·x = R = 1).  The caption counts them; the narration no longer says "every point"."""
    from olapp.content import perceptron as text

    a = P.analyse(P.generated_stream(200, 0.1, 0.0, 0), 1)
    h = P.hinge_view(P.generated_stream(200, 0.1, 0.0, 0), a.u)
    assert h.unit_paying == 199 and h.T == 200
    words = text.hinge_scale(h)
    assert "the unit û pays hinge loss on 199 of the 200 points" in words and not _claims_hold(words)
    scene = next(s for s in text.LECTURE if s.title.startswith("The hinge loss"))
    assert "pays hinge loss on every point," not in scene.narration
    assert "with margin y v·x below 1" in scene.narration


def test_the_conservative_scene_draws_three_staircases_a_factor_eta_apart():
    """Item 11: the scene said "η = 0.01, 1 and 100: one staircase"; the chart draws three, a factor η apart."""
    from olapp.content import perceptron as text

    scene = next(s for s in text.LECTURE if s.title == "The Perceptron is conservative OGD")
    assert "one staircase" not in scene.narration and "three staircases" in scene.narration
    v = scene.values
    c = P.conservative(P.generated_stream(v["T"], v["gamma"], v["noise"], v["seed"]), v["epochs"])
    assert c.same_mistakes and c.scale_error <= 1e-9 and len(c.norms) == 3      # what the narration says
    words = text.conservative(c)
    assert "3 staircases are parallel" in words and not _claims_hold(words)


def test_sci_writes_numbers_a_student_reads():
    assert P.sci(1.6586e16) == "1.7 × 10¹⁶" and P.sci(3.86e-5) == "3.9 × 10⁻⁵" and P.sci(44.444) == "44.44"


def _preset(name):
    from olapp.content.perceptron import PRESETS

    p = next(p for p in PRESETS if p.name == name)
    v = p.values
    return p.note, P.generated_stream(v["T"], v["gamma"], v["noise"], v["seed"]), v


def test_every_preset_note_holds_at_its_settings():
    """A preset's note is shown exactly at its settings: each fact it states about the run is checked there."""
    note, s, v = _preset("Cycle until it converges")
    a = P.analyse(s, v["epochs"])
    assert "stops erring during pass 9" in note and (a.last_mistake - 1) // a.pass_length + 1 == 9
    assert a.trace.n_mistakes <= a.bound.value / 10 and "(R/γ)² ≈ 1111" in note          # "far inside"
    note, s, v = _preset("Noisy labels: the non-separable bound")
    assert "no v separates the stream" in note and P.analyse(s, v["epochs"]).verdict == "not separable"
    note, s, v = _preset("Noisy labels, replayed: it never converges")
    a = P.analyse(s, v["epochs"])
    assert "every pass makes mistakes again" in note and np.all(a.per_pass > 0) and a.verdict == "not separable"
    ends = a.pass_length * np.arange(1, a.epochs + 1)
    assert np.all(a.cum_mistakes[ends - 1] <= a.nonseparable.curve[ends - 1])              # "holds after every pass"
    note, s, v = _preset("The Perceptron is conservative OGD (η irrelevant)")
    c = P.conservative(s, v["epochs"])
    assert "errs on exactly the Perceptron's rounds" in note and c.same_mistakes and c.scale_error <= 1e-9
    note, s, v = _preset("PA-I climbs the SVM dual")
    d = P.dual_ascent(s, v["C"])
    assert "add up to less than SVM_OPT" in note and d.cumulative[-1] < d.report.value
    assert "each mistake adds at least min(C, 1/R²)/2" in note and d.increments[d.mistakes].min() >= d.floor
    from olapp.content.perceptron import PRESETS

    typed = next(p for p in PRESETS if p.name.startswith("You are the adversary")).note
    assert "stay below" not in typed and "at most (R/γ)²" in typed      # Novikoff: M <= (R/γ)², not M < (R/γ)²


def test_the_noisy_scene_says_no_v_separates_and_its_settings_agree():
    from olapp.content import perceptron as text

    scene = next(s for s in text.LECTURE if s.title.startswith("Noisy labels"))
    v = scene.values
    a = P.analyse(P.generated_stream(v["T"], v["gamma"], v["noise"], v["seed"]), v["epochs"])
    assert "no v separates the stream" in scene.narration and a.verdict == "not separable"
