"""Weighted Majority and Hedge beyond the UCL form: the CMU form of WM, RWM at η = 1/√T, Problems 3.2, WA's equality, losses in [0, B].

Theory is the oracle: every new bound holds on thousands of seeded random and adversarial streams.
"""

import math

import numpy as np
import pytest

from olcore import StreamError, bounds, experts, streams
from olcore.lessons import wm_vs_hedge as lesson

TOL = 1e-9


def _expert_streams(count, seed0):
    """Seeded random 0/1 expert streams (independent noise, correlated experts) and adversaries."""
    rng = np.random.default_rng(seed0)
    for k in range(count):
        T = int(rng.integers(1, 120))
        n = int(rng.integers(1, 12))
        kind = k % 4
        if kind == 0:                                  # independent experts, random rates
            y = (rng.random(T) < 0.5).astype(float)
            X = np.where(rng.random((T, n)) < rng.random(n), 1 - y[:, None], y[:, None])
        elif kind == 1:                                # random advice and outcomes
            X = (rng.random((T, n)) < 0.5).astype(float)
            y = (rng.random(T) < 0.5).astype(float)
        elif kind == 2:                                # alternating leaders (RWM's hard oblivious case)
            X = np.tile(np.arange(n) % 2, (T, 1)).astype(float)
            y = (np.arange(T) % 2).astype(float)
        else:                                          # adversary: the opposite of WM's vote at a random beta
            s = streams.adversary_wm(T, float(rng.uniform(0.01, 0.99)))
            X, y = np.asarray(s.X, float), np.asarray(s.y, float)
        yield X, y


def test_wm_cmu_form_and_regret_form_1_hold_and_never_undercut_the_ucl_form():
    checked = 0
    rng = np.random.default_rng(1)
    for X, y in _expert_streams(2000, 0):
        eta = float(rng.choice([0.5, rng.uniform(1e-3, 0.5)]))
        tr = experts.weighted_majority(X, y, 1 - eta)
        n = X.shape[1]
        best = (X != y[:, None]).cumsum(axis=0).min(axis=1)
        M = tr.cumulative_loss
        cmu = bounds.weighted_majority_cmu(best, n, eta)
        assert np.all(M <= cmu + TOL)
        assert np.all(M - best <= bounds.weighted_majority_cmu_regret(best, n, eta) + TOL)
        assert np.all(bounds.weighted_majority(best, n, 1 - eta) <= cmu + TOL)
        checked += 1
    assert checked == 2000


def test_cmu_form_values_and_assumptions():
    assert bounds.weighted_majority_cmu(10, 4, 0.25) == pytest.approx(2 * math.log(4) / 0.25 + 2 * 1.25 * 10)
    assert bounds.weighted_majority_cmu_regret(10, 4, 0.25) == pytest.approx(2 * math.log(4) / 0.25 + 1.5 * 10)
    curve = bounds.weighted_majority_cmu(np.array([0.0, 1.0, 1.0]), 4, 0.5)
    assert isinstance(curve, np.ndarray) and curve.shape == (3,)
    for bad in (0.0, 0.51, -0.1):
        with pytest.raises(StreamError, match="eta"):
            bounds.weighted_majority_cmu(1, 4, bad)


def test_rwm_at_one_over_root_T_is_no_regret_on_random_and_adversarial_streams():
    for X, y in _expert_streams(1500, 2):
        T, n = X.shape
        if T < 4:
            continue
        eta = bounds.randomized_weighted_majority_eta(T)
        assert eta == pytest.approx(1 / math.sqrt(T)) and eta <= 0.5
        tr = experts.randomized_weighted_majority(X, y, 1 - eta, seed=T)
        best = (X != y[:, None]).sum(axis=0).min()
        regret = tr.extras["expected_loss"].sum() - best
        assert regret <= bounds.randomized_weighted_majority_regret(best, n, 1 - eta) + TOL
        assert regret <= math.sqrt(T) * (1 + math.log(n)) + TOL        # so regret / T <= (1 + ln n)/√T -> 0
    assert np.allclose(bounds.randomized_weighted_majority_eta(np.array([4, 100])), [0.5, 0.1])


def test_problems_3_2_beta_T_gives_sublinear_two_regret():
    for X, y in _expert_streams(2000, 3):
        T, n = X.shape
        beta_T = bounds.weighted_majority_two_regret_beta(T, n)
        assert 0.5 <= beta_T < 1
        M = experts.weighted_majority(X, y, beta_T).n_mistakes
        m = int((X != y[:, None]).sum(axis=0).min())
        assert M - 2 * m <= bounds.weighted_majority_two_regret(m, n, beta_T) + TOL
        assert M - 2 * m <= bounds.weighted_majority_two_regret_tuned(T, n) + TOL
    T = np.array([100, 10_000, 1_000_000])
    tuned = bounds.weighted_majority_two_regret_tuned(T, 10)
    assert np.allclose(tuned, 4 * np.sqrt(T * math.log(10)))           # T >= 4 ln n: exactly 4√(T ln n)
    assert np.all(np.diff(tuned / T) < 0)                                # sublinear: per round it falls
    # a fixed beta keeps a(beta) > 2: its 2-regret bound grows linearly in m*
    a, _ = bounds.weighted_majority_constants(np.array([0.1, 0.5, 0.9, 0.999]))
    assert np.all(a > 2)


def test_hedge_on_losses_in_0_B():
    rng = np.random.default_rng(4)
    for _ in range(1500):
        T, n = int(rng.integers(1, 150)), int(rng.integers(2, 20))
        B = float(np.exp(rng.uniform(np.log(0.05), np.log(200))))
        if rng.random() < 0.5:
            L = B * rng.random((T, n)) * rng.random(n)
        else:                                                           # the leader loses B
            L, cum = np.zeros((T, n)), np.zeros(n)
            for t in range(T):
                L[t, np.argmin(cum)] = B
                cum += L[t]
        eta = bounds.hedge_eta(T, n)
        tr = experts.hedge(L, eta, B=B)
        regret = tr.losses.sum() - L.sum(axis=0).min()
        assert regret <= bounds.hedge(T, n, B) + TOL * max(1.0, B)
        e2 = float(np.exp(rng.uniform(np.log(0.01), np.log(20))))
        tr2 = experts.hedge(L, e2, B=B)
        assert tr2.losses.sum() - L.sum(axis=0).min() <= bounds.hedge_regret(T, n, e2, B) + TOL * max(1.0, B)
        # the rescaling argument: the weights are Hedge's at eta on L / B, the loss B times it
        ref = experts.hedge(L / B, e2)
        assert np.allclose(tr2.weights, ref.weights, rtol=1e-12, atol=1e-15)
        assert np.allclose(tr2.losses, B * ref.losses, rtol=1e-12, atol=1e-12)
    assert bounds.hedge(100, 4, 3.0) == pytest.approx(3 * math.sqrt(200 * math.log(4)))
    assert bounds.hedge(100, 4) == pytest.approx(math.sqrt(200 * math.log(4)))


def test_hedge_B_out_of_range_losses_and_reference_class():
    with pytest.raises(StreamError, match=r"\[0, B\] = \[0, 2\]"):
        experts.hedge([[0.5, 2.5]], 0.1, B=2.0)
    with pytest.raises(StreamError, match="L"):
        experts.hedge([[-0.1, 0.5]], 0.1, B=2.0)
    with pytest.raises(StreamError):
        experts.hedge([[0.5, 1.5]], 0.1)                               # B = 1: the notes' [0, 1]
    with pytest.raises(StreamError, match="B"):
        experts.hedge([[0.5, 0.5]], 0.1, B=0.0)
    with pytest.raises(StreamError, match="B"):
        bounds.hedge(10, 3, B=-1.0)
    rng = np.random.default_rng(5)
    for _ in range(50):
        T, n, B = int(rng.integers(1, 60)), int(rng.integers(1, 8)), float(rng.uniform(0.1, 50))
        L = B * rng.random((T, n))
        fast = experts.hedge(L, 0.7, B=B)
        ref = experts.Hedge(n, 0.7, B=B)
        for t in range(T):
            assert np.allclose(ref.weights, fast.weights[t], rtol=1e-12, atol=1e-15)
            ref.update(L[t])
        assert np.allclose(ref.weights, fast.weights[T], rtol=1e-12, atol=1e-15)


def test_weighted_average_equality_holds_to_1e9_per_round():
    rng = np.random.default_rng(6)
    for k in range(1000):
        T, n = int(rng.integers(1, 200)), int(rng.integers(1, 30))
        X = rng.uniform(0.01, 0.99, (T, n)) if k % 2 else lesson.soften((rng.random((T, n)) < 0.5), "entropic")
        y = (rng.random(T) < rng.random()).astype(float)
        tr = experts.weighted_average(X, y, 1.0, "entropic")
        i = int(tr.extras["best"])
        d = tr.extras["rel_entropy"]
        lhs = tr.losses - tr.expert_losses[:, i]
        assert np.all(np.abs(lhs - (d[:-1] - d[1:])) <= 1e-9)
        assert d[0] == pytest.approx(math.log(n), abs=1e-12)
        assert lhs.sum() <= math.log(n) + 1e-9
        # for every u in the simplex, not only the best expert: d(u, v) from the recorded weights
        u = rng.dirichlet(np.ones(n))
        V = tr.weights
        if V.min() > 1e-300:
            du = np.sum(u * (np.log(u) - np.log(V)), axis=1)
            lhs_u = tr.losses - tr.expert_losses @ u
            assert np.all(np.abs(lhs_u - (du[:-1] - du[1:])) <= 1e-9)


def test_lesson_panels_on_random_and_adversarial_streams():
    cases = [lesson.make_stream("noisy", int(T), int(n), r, 0.5, s)
             for s, (T, n, r) in enumerate([(10, 2, 0.0), (300, 7, 0.2), (900, 30, 0.45), (1, 3, 0.3)])]
    cases += [lesson.make_stream("adversary", T, 2, 0.3, b, 0) for T in (10, 401) for b in (0.0, 0.3, 0.9)]
    for s in cases:
        for eta, beta in ((0.1, 1 / math.e), (0.5, 0.0), (0.01, 0.95)):
            ta = lesson.tuning(s, eta, beta, seed=3, points=12)
            assert np.all(ta.wm_mistakes <= ta.cmu.curve + TOL) and np.all(ta.wm_mistakes <= ta.ucl.curve + TOL)
            assert np.all(ta.ucl.curve <= ta.cmu.curve + TOL)
            assert np.all(ta.wm_regret <= ta.form1.curve + TOL) and np.all(ta.rwm_regret <= ta.form2.curve + TOL)
            assert np.all(ta.tuned_avg <= ta.tuned_avg_bound + TOL)
            assert np.all(ta.fixed_avg <= ta.fixed_avg_bound + TOL) and np.all(ta.wm_avg <= ta.wm_avg_bound + TOL)
            assert np.all(ta.two_regret <= ta.two_bound_ucl + TOL) and np.all(ta.two_regret <= ta.two_bound + TOL)
            if ta.two_bound_fixed is not None:
                assert np.all(ta.two_regret_fixed <= ta.two_bound_fixed + TOL)
            else:
                assert beta == 0.0
            assert ta.horizons[-1] == s.T and ta.two.value == pytest.approx(ta.two_bound[-1])
            for rep in (ta.ucl, ta.cmu, ta.form1, ta.form2, ta.two):
                assert rep.applies and rep.name.startswith("bound: ") and "seeds/" not in rep.source
        we = lesson.wa_equality(s)
        assert we.gap <= 1e-9 and np.all(we.cum_lhs <= math.log(s.X.shape[1]) + 1e-9)
        assert np.allclose(we.cum_lhs, we.cum_rhs, atol=1e-9)
        for B in (0.5, 1.0, 100.0):
            sh = lesson.scaled_hedge(s, B)
            assert np.all(sh.regret <= sh.report.curve + TOL * B)
            assert np.all(sh.naive_regret <= sh.naive_report.curve + TOL * B)
            if s.X.shape[1] > 1:
                assert sh.report.value == pytest.approx(bounds.hedge(s.T, s.X.shape[1], B))
    # on the WM adversary a fixed eta has a flat regret per round and eta = 1/sqrt(T) a falling one
    ta = lesson.tuning(lesson.make_stream("adversary", 2000, 2, 0.3, 0.9, 0), 0.1, 0.9)
    assert ta.tuned_avg[-1] < 0.5 * ta.fixed_avg[-1] and ta.wm_avg[-1] == pytest.approx(0.5)
    with pytest.raises(StreamError):
        lesson.tuning(streams.regression(T=20, d=2, seed=0))
    with pytest.raises(StreamError, match="eta"):
        lesson.tuning(cases[0], eta=0.6)
    with pytest.raises(StreamError, match="B"):
        lesson.scaled_hedge(cases[0], B=0.0)
