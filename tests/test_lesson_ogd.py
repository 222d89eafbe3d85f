"""olcore.lessons.ogd: every bound the page draws holds on seeded streams, the BoundReports are right,
the proof's terms telescope, the η sweep's minimum sits near η*, and simplex OGD vs Hedge meet their bounds."""

from __future__ import annotations

import numpy as np
import pytest

from olcore import StreamError, bounds, oco
from olcore.lessons import ogd

CASES = [("Separable", "logistic", "ball"), ("Noisy", "hinge", "box"), ("Regression", "squared", "ball"),
         ("Adversarial", "linear", "box"), ("Noisy", "logistic", "simplex")]


@pytest.mark.parametrize("source,loss,set_name", CASES)
def test_bounds_hold_at_every_round_on_seeded_streams(source, loss, set_name):
    for seed in range(4):
        s = ogd.make_stream(source, T=80, noise=0.15, seed=seed)
        for eta in (None, 0.02, 0.5):
            a = ogd.analyse(s, loss, set_name, 0.8, eta=eta, prefix_points=15)
            tol = 1e-6 * max(1.0, a.best_value) + 1e-9
            assert (a.regret <= a.proof_bound.curve + tol).all()
            assert (a.regret_prefix <= a.proof_bound.curve[a.prefix_rounds - 1] + tol).all()
            assert (a.regret_prefix >= a.regret[a.prefix_rounds - 1] - tol).all()   # prefix best is lower
            assert a.G_run <= a.G * (1 + 1e-12)
            if eta is None:
                assert a.theorem.applies and a.eta == a.eta_star
                assert a.theorem.value == pytest.approx(a.D * a.G * np.sqrt(80))
                assert (a.regret <= a.theorem.value + tol).all()
            else:
                assert not a.theorem.applies and "η = D/(G√T)" in a.theorem.why_not


def test_report_fields_and_proof_terms():
    s = ogd.make_stream("Noisy", T=60, noise=0.1, seed=3)
    a = ogd.analyse(s, "logistic", "ball", 1.0)
    assert a.theorem.name == "bound: D G √T" and a.proof_bound.name.startswith("bound: D²/(2η)")
    assert "Online gradient descent notes" in a.theorem.source and "seeds/" not in a.theorem.source
    assert a.theorem.numbers["T"] == 60 and a.proof_bound.T == 60
    assert f"{a.regret[-1]:.4g}" in a.theorem.latex
    assert (a.gap_terms <= a.proof_terms + 1e-9).all()                    # per-round inequality
    tele = (a.potential[0] - a.potential[-1]) / (2 * a.eta) + a.eta / 2 * (a.trace.extras["grad_norm"] ** 2).sum()
    assert a.proof_terms.sum() == pytest.approx(tele)                      # it telescopes
    assert a.potential[0] <= a.D ** 2 + 1e-12
    assert (a.step_dist >= a.proj_dist - 1e-12).all()                      # non-expansiveness at θ*
    assert a.regret[-1] == pytest.approx(a.trace.total_loss - a.best_value)


def test_bad_settings_raise():
    s = ogd.make_stream("Regression", T=30, noise=0.1, seed=0)
    with pytest.raises(StreamError, match="squared loss"):
        ogd.analyse(s, "logistic")
    with pytest.raises(StreamError):
        ogd.make_stream("Nope")
    with pytest.raises(StreamError):
        ogd.analyse(s, "squared", "triangle")


def test_eta_sweep_minimum_sits_near_eta_star():
    sw = ogd.sweep("Noisy", T=200, noise=0.1, loss="logistic", seeds=(0, 1, 2))
    assert sw.regrets.shape == (3, 13)
    assert sw.eta_star[0] / 4 <= sw.best_eta <= sw.eta_star[0] * 4
    assert (sw.regrets[0] <= sw.bound + 1e-6).all()          # seed 0: D²/(2η) + ηG²T/2 at every η


def test_simplex_ogd_and_hedge_meet_their_bounds_and_k_sweep():
    for seed in range(5):
        e = ogd.experts(T=300, K=8, seed=seed)
        assert e.ogd.regret[-1] <= e.ogd_bound.value
        assert e.hedge.regret[-1] <= e.hedge_bound.value
        assert np.allclose(e.ogd.weights.sum(axis=1), 1) and (e.ogd.weights >= 0).all()
    ks = ogd.k_sweep(T=300, Ks=(2, 8, 32), seeds=(0, 1))
    assert (ks.ogd <= ks.ogd_bound[None]).all() and (ks.hedge <= ks.hedge_bound[None]).all()
    assert np.allclose(ks.ogd_bound, np.sqrt(2 * ks.Ks * 300))
    assert np.allclose(ks.hedge_bound, bounds.hedge(300, ks.Ks))


def test_hinge_runs_too_large_to_certify_get_a_clear_message_not_a_long_solve():
    s = ogd.make_stream("Noisy", 2000, 0.1, 0, 20)
    with pytest.raises(StreamError, match="at most 2,500 for the hinge loss"):
        ogd.analyse(s, "hinge", "ball", 1.0)
    with pytest.raises(StreamError, match="hinge loss"):
        ogd.sweep("Noisy", 2000, 0.1, "hinge", "ball", 1.0, d=20)
    ogd.analyse(s, "logistic", "ball", 1.0)                 # the same stream with a smooth loss runs


# ---- the lecture's answers ---------------------------------------------------------------------------------

def _hand_stream():
    """Linear losses ℓ_t(θ) = y_t θ·x_t with x_t = (1, 0), y_t = −1: each gradient is (−1, 0), so with η = 0.5 in
    the box |θ_i| ≤ 1 the steps go 0 → 0.5 → 1.0 (on the boundary, not outside) → 1.5 (projected to 1) → 1.5."""
    from olcore import streams

    X = np.tile([1.0, 0.0], (4, 1))
    return streams.from_arrays("linear", X, -np.ones(4))


def test_first_projection_is_the_first_step_outside_C_by_hand():
    a = ogd.analyse(_hand_stream(), "linear", "box", 1.0, eta=0.5, prefix_points=2)
    assert ogd.first_projection(a) == 3                       # round 2 lands on the boundary: no projection
    assert list(a.projected) == [False, False, True, True]
    assert ogd.first_projection_band(a, (1, 3, 10)) == 1      # rounds 3-9
    assert ogd.first_projection_band(a, (1, 11, 51)) == 0
    never = ogd.analyse(_hand_stream(), "linear", "box", 1.0, eta=0.1, prefix_points=2)   # 4 steps of 0.1
    assert ogd.first_projection(never) == 0
    assert ogd.first_projection_band(never, (1, 11, 51)) == 3  # the "never" option


def test_regret_share_by_hand():
    # losses −θ₁: 0, −0.5, −1, −1 (total −2.5); θ* = (1, ·) pays −1 each round (−4): R_T = 1.5.
    # D = 2r√d = 2√2, G = ‖x‖ = 1, T = 4: D G √T = 4√2.
    a = ogd.analyse(_hand_stream(), "linear", "box", 1.0, eta=0.5, prefix_points=2)
    assert a.regret[-1] == pytest.approx(1.5, abs=1e-6)
    assert ogd.regret_share(a) == pytest.approx(1.5 / (4 * np.sqrt(2)), abs=1e-6)
    assert ogd.regret_share_band(a, (0.0, 0.25, 0.5, 1.0)) == 1
    assert ogd.regret_share_band(a, (0.0, 0.3, 0.5, 1.0)) == 0


def test_regret_share_at_eta_star_never_exceeds_one_and_a_small_step_costs_more():
    s = ogd.make_stream("Noisy", T=300, noise=0.1, seed=3)
    tuned = ogd.analyse(s, "logistic", "ball", 1.0, prefix_points=3)
    small = ogd.analyse(s, "logistic", "ball", 1.0, prefix_points=3, eta_mult=0.125)
    assert ogd.regret_share(tuned) <= 1.0
    assert ogd.regret_share_band(tuned, (0.0, 0.25, 0.5, 1.0)) < 3
    assert ogd.regret_share(small) > ogd.regret_share(tuned)


# ---- what the page's sentences rest on ------------------------------------------------------------

def test_the_sweeps_dashed_curve_is_lowest_where_it_is_marked_not_at_seed_0s_eta_star():
    # Noisy / squared / box / d = 5: the seeds' a-priori G differ, and the curve uses the largest
    sw = ogd.sweep("Noisy", 200, 0.1, "squared", "box", 1.0, (0, 1, 2, 3), 13, 64.0, 5)
    Gs = sw.theorem / (sw.D * np.sqrt(sw.T))
    assert sw.G == pytest.approx(Gs.max()) and Gs[0] < sw.G                   # seed 0's G is not the largest
    assert sw.bound_eta == pytest.approx(sw.D / (sw.G * np.sqrt(sw.T)))
    assert sw.bound_min == pytest.approx(sw.D * sw.G * np.sqrt(sw.T))
    i = int(np.argmin(sw.bound_curve))
    assert sw.bound_etas[i] == sw.bound_eta and sw.bound_curve[i] == pytest.approx(sw.bound_min, rel=1e-12)
    assert np.isin(sw.etas, sw.bound_etas).sum() >= len(sw.etas) - 1          # the grid's points are on the curve
    np.testing.assert_allclose(bounds.ogd_regret_eta(sw.D, sw.G, sw.T, sw.etas), sw.bound)
    # the old sentence: "its minimum, D G √T, is at η*" (seed 0's): the curve there is above its minimum
    at_star0 = float(bounds.ogd_regret_eta(sw.D, sw.G, sw.T, sw.eta_star[0]))
    assert sw.bound_eta < sw.eta_star[0] and at_star0 > sw.bound_min * (1 + 1e-6)
    assert (sw.regrets <= sw.bound[None, :] + 1e-9).all()                    # every seed under it


def test_the_proof_with_G_run_gives_its_own_bound_not_D_G_run_sqrt_T():
    # η = η*/8 on a separable logistic stream: R_T is above D G_run √T (the old sentence's bound), under
    # D²/(2η) + (η/2) G_run² T (what the proof gives at this η), which is never below D G_run √T
    for seed in range(3):
        s = ogd.make_stream("Separable", T=200, seed=seed)
        for mult in (0.125, 1.0, 8.0):
            a = ogd.analyse(s, "logistic", "ball", 1.0, prefix_points=3, eta_mult=mult)
            tidy = a.D * a.G_run * np.sqrt(a.T)
            assert a.run_G_bound == pytest.approx(a.D ** 2 / (2 * a.eta) + a.eta / 2 * a.G_run ** 2 * a.T)
            assert a.regret[-1] <= a.proof_bound.value + 1e-9 <= a.run_G_bound + 1e-9
            assert a.run_G_bound >= tidy * (1 - 1e-12)
            if mult == 0.125:
                assert a.regret[-1] > tidy


def test_adversary_share_is_every_learners_expected_regret():
    from itertools import product
    for T in range(1, 11):                                   # E|S_T| by enumerating every sign pattern
        mean_abs = np.mean([abs(sum(signs)) for signs in product((-1, 1), repeat=T)])
        assert ogd.adversary_share(T) == pytest.approx(mean_abs / (2 * np.sqrt(T)), rel=1e-12)
    assert ogd.adversary_share(10_000) == pytest.approx(1 / np.sqrt(2 * np.pi), rel=1e-4)
    # on the stream itself, for a box of half-width 0.5 in d = 3: the best fixed point's gain over D G √T
    T, h, d = 300, 0.5, 3
    C = oco.Box(h)
    shares = []
    for seed in range(400):
        s = ogd.make_stream("Adversarial", T=T, seed=seed, d=d)
        gain = -oco.solve_best_fixed(s.X, s.y, "linear", C).value
        shares.append(gain / (C.diameter(d) * 1.0 * np.sqrt(T)))
    err = np.std(shares) / np.sqrt(len(shares))
    assert abs(np.mean(shares) - ogd.adversary_share(T)) <= 4 * err


def test_per_round_slack_is_the_two_sides_difference_and_can_be_rounding_negative():
    s = ogd.make_stream("Adversarial", T=1000, seed=0)
    a = ogd.analyse(s, "linear", "box", 1.0, prefix_points=3)
    np.testing.assert_allclose(a.slack, a.proof_terms - a.gap_terms)
    assert -1e-12 < a.slack.min() < 0                      # the Adversarial preset: rounding error, not a failure
