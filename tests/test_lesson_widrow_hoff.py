"""olcore.lessons.widrow_hoff tested directly: theory is the oracle.

Every bound the page draws (Theorem 1 on every prefix, the proof's claim and its telescoped sum,
Theorem 2 within two standard errors) holds on many seeded random and adversarial streams; the
BoundReports carry the run's numbers; an assumption that fails is reported, with why.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from olcore import StreamError, bounds, comparators, streams
from olcore.lessons import widrow_hoff as wh


def _adversarial(T: int, d: int, seed: int) -> streams.Stream:
    """Unit vectors on the sphere's surface (‖x‖ = 1 exactly) with labels chosen against the learner's
    current prediction (large and of the opposite sign)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((T, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    w = np.zeros(d)
    y = np.empty(T)
    for t in range(T):
        p = w @ X[t]
        y[t] = -np.sign(p or 1.0) * 3.0
        w -= 0.5 * (p - y[t]) * X[t]
    return streams.from_arrays("regression", X, y)


STREAMS = ([("random", s, lambda s=s: streams.regression(T=120, d=1 + s % 5, seed=s, noise=0.1 * (s % 7),
                                                         norm_u=0.5 * (s % 6)))
            for s in range(12)]
           + [("adversarial", s, lambda s=s: _adversarial(80, 1 + s % 4, s)) for s in range(6)])


@pytest.mark.parametrize("kind,seed,make", STREAMS, ids=[f"{k}-{s}" for k, s, _ in STREAMS])
@pytest.mark.parametrize("eta", [0.05, 0.5, 0.95])
def test_theorem1_and_the_proof_hold(kind, seed, make, eta):
    a = wh.analyse(make(), eta)
    th = a.theorem1
    assert th.applies and th.curve.shape == (a.T,)
    assert np.all(a.cumulative <= th.curve * (1 + 1e-9) + 1e-9)          # every prefix
    assert th.value == pytest.approx(bounds.widrow_hoff(a.loss_u_star, a.norm_u_star_sq, eta))
    assert th.curve[-1] == pytest.approx(th.value, rel=1e-9)
    assert th.value == pytest.approx(comparators.widrow_hoff_min(a.X, a.y, eta), rel=1e-9)
    assert np.all(np.diff(th.curve) >= -1e-9 * (1 + th.curve[1:]))       # a prefix's bound never decreases
    assert a.claim_violations == 0
    assert np.all(a.potential_drop <= a.claim + 1e-9)
    assert np.all(a.potential <= a.telescoped + 1e-9)
    assert a.potential[0] == pytest.approx(a.norm_u_star_sq)
    assert -a.potential[0] <= a.potential[-1] - a.potential[0] + 1e-9 <= a.telescoped_rhs + 2e-9
    assert a.clairvoyant_loss <= a.loss_u_star + 1e-9


def test_report_fields():
    s = streams.regression(T=200, d=2, seed=0, noise=0.3, norm_u=1.5)
    a = wh.analyse(s, 0.2)
    th = a.theorem1
    assert th.formula == wh.FORMULA_T1 and th.name == "bound: " + wh.FORMULA_T1
    assert th.source.startswith("Princeton COS 511") and "seeds/" not in th.source
    assert "Theorem 1" in th.statement
    assert f"{a.loss:.4f}" in th.latex and f"{th.value:.4f}" in th.latex
    assert th.numbers["L_WH"] == pytest.approx(a.loss) and th.numbers["eta"] == 0.2
    assert np.allclose(a.u_true, s.info["u"]) and a.noise == pytest.approx(0.3)
    assert pickle.loads(pickle.dumps(a)).theorem1.value == th.value         # st.cache_data pickles it


def test_outside_the_unit_ball_rescaled_or_reported():
    rng = np.random.default_rng(4)
    X = rng.uniform(-3, 3, size=(60, 2))
    s = streams.from_arrays("regression", X, X @ np.array([1.0, -0.5]) + 0.1 * rng.standard_normal(60))
    assert not wh.unit_ball(s).ok
    raw = wh.analyse(s, 0.5, rescale=False)
    assert not raw.theorem1.applies and "does not apply" in raw.theorem1.why_not and raw.R == 1.0
    scaled = wh.analyse(s, 0.5, rescale=True)
    R = np.sqrt((X**2).sum(1).max())
    assert scaled.theorem1.applies and scaled.R == pytest.approx(R)
    assert np.allclose(scaled.X * R, X)
    assert np.all(scaled.cumulative <= scaled.theorem1.curve + 1e-9)
    # outside the ball the claim can fail, and the analysis counts where
    assert raw.claim_violations == int(np.sum(raw.potential_drop > raw.claim + 1e-9 * (1 + np.abs(raw.claim))))


def test_tuning_finds_the_minimum_of_the_sweep():
    s = streams.regression(T=300, d=3, seed=2, noise=0.5, norm_u=2.0)
    tu = wh.tuning(s)
    assert np.all(tu.final_loss <= tu.bound + 1e-9)
    assert tu.bound_best <= tu.bound.min() + 1e-9
    assert abs(tu.eta_best - tu.etas[np.argmin(tu.bound)]) <= 0.011
    assert tu.eta_best_loss in tu.etas


@pytest.mark.parametrize("T,n", [(40, 60), (300, 100), (120, 3)])
def test_dual_prefix_curve_equals_the_primal_one(T, n):
    """T <= d, T > d where the dual is still the cheaper (the page's EG stream), and a small d."""
    s = streams.simplex_stream(T=T, n=n, k=2, seed=1)
    X = s.X / np.sqrt((s.X**2).sum(1).max())
    for eta in (0.1, 0.7):
        primal = comparators.widrow_hoff_prefix_min(X, s.y, eta, np.arange(1, T + 1))
        assert np.allclose(wh._prefix_curve_dual(X, s.y, eta), primal, rtol=1e-9, atol=1e-12)
        assert np.allclose(wh._prefix_curve(X, s.y, eta), primal, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_theorem2_holds_within_two_standard_errors(seed):
    s = streams.regression(T=100, d=3, seed=seed, noise=0.4, norm_u=1.5)
    c = wh.online_to_batch(s, 0.3, m_max=200, repeats=50, seed=seed)
    th = c.theorem2
    assert th.applies and c.exact_distribution and th.curve.shape == (200,)
    assert np.all(c.mean_avg - 2 * c.se_avg <= th.curve + 1e-9)
    assert th.value == pytest.approx(th.curve[-1]) and th.source.startswith("Princeton COS 511")
    assert c.best_risk == pytest.approx(0.4**2)
    up = wh.online_to_batch(streams.from_arrays("regression", s.X, s.y), 0.3, 100, 20, seed)
    assert not up.exact_distribution and up.n_test == 100
    assert np.all(up.mean_avg - 2 * up.se_avg <= up.theorem2.curve + 1e-9)


def test_eg_vs_wh():
    e = wh.eg_vs_wh(100, 1.0, 0)
    assert e.T == 300 and 0.01 <= e.eta_wh <= 0.99 and e.R > 1
    assert e.theorem1.applies and np.all(e.cum_wh <= e.theorem1.curve + 1e-9)
    assert 0 <= e.mass <= 1 + 1e-9
    a = wh.eg_vs_wh(100, 1.0, 0)
    assert np.array_equal(a.cum_eg, e.cum_eg)                 # seeded


def test_bad_settings_raise_stream_error():
    s = streams.regression(T=20, d=2, seed=0)
    for bad in (0.0, 1.0, float("nan")):
        with pytest.raises(StreamError):
            wh.analyse(s, bad)
    with pytest.raises(StreamError):
        wh.online_to_batch(s, 0.5, 0, 10, 0)
    with pytest.raises(StreamError):
        wh.eg_vs_wh(0, 1.0, 0)


# ---- the implicit update and the rate remark ---------------------------------------------

def _regression_streams(n=200):
    rng = np.random.default_rng(404)
    for i in range(n):
        if i % 3 == 0:                                       # adversarial-ish: large targets, correlated x
            T, d = int(rng.integers(1, 150)), int(rng.integers(1, 5))
            X = np.cumsum(rng.standard_normal((T, d)), axis=1) * rng.uniform(0.1, 3)
            y = rng.choice([-1.0, 1.0], T) * rng.uniform(0, 20, T)
            yield streams.from_arrays("regression", X, y)
        else:
            yield streams.regression(T=int(rng.integers(1, 300)), d=int(rng.integers(1, 6)),
                                     seed=int(rng.integers(0, 2**31)), noise=float(rng.uniform(0, 2)),
                                     norm_u=float(rng.uniform(0, 4)))


def test_implicit_panel_rate_bound_holds_after_every_round():
    rng = np.random.default_rng(5)
    for s in _regression_streams():
        eta = float(rng.uniform(0.01, 0.99))
        i = wh.implicit(s, eta, rescale=True)
        assert i.rate_bound.applies
        assert np.all(i.rate_wh <= i.rate_bound.curve * (1 + 1e-9) + 1e-12)
        assert np.all(i.rate_bound.curve >= i.rate_u / (1 - eta) - 1e-12)
        assert np.all((i.shrink > 0) & (i.shrink <= 1))
        np.testing.assert_array_equal(i.loss_explicit, wh.analyse(s, eta, True).cumulative)
        assert (i.W_explicit is None) == (i.d != 2)


def test_implicit_update_is_the_explicit_step_shrunk():
    s = streams.regression(T=50, d=2, seed=1, noise=0.5, norm_u=2.0)
    i = wh.implicit(s, 0.5)
    W, X, y = i.W_implicit, s.X / max(1.0, float(np.linalg.norm(s.X, axis=1).max())), s.y
    for t in range(i.T):
        r = W[t] @ X[t] - y[t]
        np.testing.assert_allclose(W[t + 1], W[t] - 0.5 * r * X[t] * i.shrink[t], rtol=1e-12, atol=1e-14)


def test_implicit_without_rescaling_says_the_bound_may_fail():
    s = streams.from_arrays("regression", np.array([[3.0, 0.0], [0.0, 2.0]]), np.array([1.0, -1.0]))
    i = wh.implicit(s, 0.5, rescale=False)
    assert not i.rate_bound.applies and "1" in i.rate_bound.why_not


# ---- the lecture's answers (olapp/content/widrow_hoff.py, LECTURE) ---------------------------------------------

def test_lecture_answers_by_hand_noise_free():
    """x_t = 1, y_t = 1, η = 1/2: w = 0, 1/2, 3/4, 7/8, 15/16 and losses 1, 1/4, 1/16, 1/64. The bound's u* is the
    ridge solution 4/(4 + 1) = 0.8, so Φ = 0.64, 0.09, 0.0025, 0.005625, 0.01890625: w passes u* and Φ rises in
    rounds 3 and 4."""
    a = wh.analyse(streams.from_arrays("regression", np.ones((4, 1)), np.ones(4)), 0.5)
    total = 1 + 1 / 4 + 1 / 16 + 1 / 64
    assert wh.loss_share(a, 0) == 0.0
    assert wh.loss_share(a, 1) == pytest.approx(1 / total)
    assert wh.loss_share(a, 4) == pytest.approx(1.0)
    assert wh.loss_share_band(a, 1, (0.0, 0.25, 0.5, 0.75)) == 3
    assert wh.rate_ratio(a, 2) == np.inf                      # u = 1 has no loss at all
    assert wh.rate_ratio_band(a, 2, (0.0, 1.1)) == 1
    assert [wh.potential_rises(a, t) for t in range(5)] == [0, 0, 0, 1, 2]
    assert wh.potential_rises_band(a, 4, (0, 1, 3)) == 1
    with pytest.raises(StreamError):
        wh.loss_share(a, 5)


def test_rate_ratio_by_hand():
    """x = 1, 1 and y = 1, −1, η = 1/2: the least-squares u is 0 (losses 1, 1); Widrow-Hoff pays 1, then
    (1/2 + 1)² = 9/4."""
    a = wh.analyse(streams.from_arrays("regression", np.ones((2, 1)), np.array([1.0, -1.0])), 0.5)
    assert wh.rate_ratio(a, 1) == pytest.approx(1.0)
    assert wh.rate_ratio(a, 2) == pytest.approx((1 + 9 / 4) / 2)
    assert wh.rate_ratio_band(a, 2, (0.0, 1.1, 1.5, 3.0)) == 2


# ---- a suggested eta is one the theorem allows, numbers a student can read -----------------

def _claims_false(words) -> list:
    from olcore.claims import claims_of

    return [c.what for c in claims_of(words) if not c.holds]


def _diabetes_like(seed=0, T=300, d=10):
    """A stand-in for sklearn's diabetes with its raw target: features with ‖x‖ about 0.1 (inside the unit ball),
    targets around 150: the bound is smallest as η → 0 (u = 0 wins), so η* lies below the slider."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((T, d)) * 0.03
    y = 150 + 5000 * (X @ rng.standard_normal(d)) * 0.01 + 50 * rng.standard_normal(T)
    return streams.from_arrays("regression", X, y)


def _suggestion_is_allowed_and_named(stream):
    """Tune on ``stream``: the suggested η is one of the slider's, inside (0, 1), with the smallest bound there,
    named exactly by the button, and no text rounds η* to 0.00 or 1.000."""
    from olapp.content import widrow_hoff as text

    tu = wh.tuning(stream)
    X, y, _ = wh._as_run(stream, True)
    assert tu.eta_slider in wh.SLIDER_ETAS and 0 < tu.eta_slider < 1              # the theorem's 0 < η < 1
    np.testing.assert_allclose(tu.slider_bound, comparators.widrow_hoff_min(X, y, wh.SLIDER_ETAS), rtol=1e-12)
    assert tu.bound_slider == float(tu.slider_bound.min())
    assert text.eta_button(tu) == f"Use η = {tu.eta_slider:.2f}"                  # names exactly what it sets
    for words in (text.eta_star(tu), text.sweep(tu, 0.2), text.eta_metric(tu)):
        assert "0.00" not in words and "1.000" not in words and not _claims_false(words)
    return tu


def test_eta_below_the_slider_is_said_so_and_the_button_sets_0_01():
    """The raw diabetes target: the page offered "Use η* ≈ 0.00" and quietly set η = 0.01."""
    tu = _suggestion_is_allowed_and_named(_diabetes_like())
    assert tu.side == "below" and tu.eta_best < 0.01 and tu.eta_slider == 0.01
    assert np.all(np.diff(tu.slider_bound) >= 0)                                   # the bound grows over the slider
    from olapp.content import widrow_hoff as text

    assert text.eta_metric(tu) == "below 0.01" and "Σ_t y_t²" in text.eta_star(tu)


def test_raw_diabetes_target_gets_an_allowed_eta():
    datasets = pytest.importorskip("sklearn.datasets")
    X, y = datasets.load_diabetes(return_X_y=True)
    tu = _suggestion_is_allowed_and_named(streams.from_arrays("regression", X, y))
    assert tu.side == "below" and tu.eta_slider == 0.01
    X, y = datasets.load_diabetes(return_X_y=True, scaled=False)              # outside the unit ball: rescaled
    tu = _suggestion_is_allowed_and_named(streams.from_arrays("regression", X, y))
    assert tu.side == "inside" and abs(tu.eta_slider - tu.eta_best) <= 0.01


def test_noise_free_eta_above_the_slider_and_a_zero_loss_read_as_zero():
    """The noise-free preset printed η* = 1.000 (the theorem needs η < 1) and min L_u = 6.286e-29."""
    from olapp.content import widrow_hoff as text

    s = streams.regression(T=1000, d=2, seed=0, noise=0.0, norm_u=1.5)
    tu = _suggestion_is_allowed_and_named(s)
    assert tu.side == "above" and 0.99 < tu.eta_best < 1 and tu.eta_slider == 0.99
    assert text.eta_metric(tu) == "above 0.99"
    a = wh.analyse(s, 0.9)
    values, _ = text.readout(a, tu)
    assert values["Clairvoyant min_u L_u"] == "0 (to rounding)" and a.clairvoyant_loss < 1e-20
    assert "e-" not in " ".join(values.values()) and "e+" not in " ".join(values.values())
    assert "1.000" not in text.run_line(a, tu) and not _claims_false(text.run_line(a, tu))


@pytest.mark.parametrize("seed", range(4))
def test_the_slider_suggestion_is_next_to_eta_star_inside(seed):
    tu = _suggestion_is_allowed_and_named(streams.regression(T=150, d=3, seed=seed, noise=0.5, norm_u=1.0))
    assert tu.side == "inside" and abs(tu.eta_slider - tu.eta_best) <= 0.01
