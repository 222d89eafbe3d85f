"""olcore.lessons.winnow: the analysis the /winnow page draws. Theory is the oracle: every bound and
proof step the page shows holds on seeded random and adversarial streams, for every α offered."""

import math
import pickle

import numpy as np
import pytest

from olcore import StreamError, bounds, comparators, streams
from olcore.lessons import winnow as lesson
from olcore.linear import Winnow
from olcore.stream import MAX_CELLS, from_arrays

ALPHAS = [1.5, 2.0, 3.0]


def upload(s):
    """The stream as an upload would give it: no known relevant set."""
    return from_arrays("disjunction", s.X, s.y)


def check_run(a):
    """Every inequality the page draws, on one analysis."""
    e = a.trace.extras
    m_p, m_m = e["m_plus"][1:], e["m_minus"][1:]
    assert a.bound.applies
    assert a.n_mistakes < a.bound.value
    assert a.m_plus <= a.promotions.value + 1e-9
    assert np.all(m_m < a.demotions.curve + 1e-9)          # m⁻_t < c + α m⁺_t at every round
    assert np.all(np.cumsum(a.trace.mistakes) < a.bound.value)
    assert np.all(a.potential > 0)
    assert np.all(a.potential <= a.potential_upper * (1 + 1e-12))
    np.testing.assert_allclose(a.potential, a.trace.weights.sum(axis=1))
    assert np.all(np.diff(a.coloured_weights, axis=0) >= 0)   # relevant weights are never divided
    np.testing.assert_array_equal(m_p + m_m, np.cumsum(a.trace.mistakes))


@pytest.mark.parametrize("alpha", ALPHAS)
def test_bounds_hold_on_random_disjunctions(alpha):
    rng = np.random.default_rng(int(alpha * 10))
    worst = 0.0
    for i in range(120):
        N = int(np.exp(rng.uniform(np.log(2), np.log(2000))))
        k = int(rng.integers(1, min(N, 10) + 1))
        a = lesson.analyse(lesson.make_stream(int(rng.integers(20, 600)), N, k, i), alpha)
        check_run(a)
        assert a.k == k and not a.found
        worst = max(worst, a.n_mistakes / a.bound.value)
    assert worst > 0.2                                   # the runs come near enough to mean something


@pytest.mark.parametrize("alpha", ALPHAS)
@pytest.mark.parametrize("seed", range(6))
def test_bounds_hold_against_an_adaptive_adversary(alpha, seed):
    # From a pool of disjunction-labelled examples, always show one the learner gets wrong.
    rng = np.random.default_rng(seed)
    N, k = int(rng.integers(4, 200)), int(rng.integers(1, 4))
    pool = streams.disjunction(T=600, N=N, k=k, seed=seed, p=float(rng.uniform(0.01, 0.3)))
    wn = Winnow(N, alpha=alpha)
    X, y = [], []
    for _ in range(300):
        wrong = np.flatnonzero((pool.X @ wn.w > N).astype(int) != pool.y)
        j = int(wrong[0]) if wrong.size else 0
        X.append(pool.X[j])
        y.append(pool.y[j])
        wn.update(pool.X[j], pool.y[j])
    a = lesson.analyse(upload(from_arrays("disjunction", np.array(X), np.array(y))), alpha)
    check_run(a)                       # the found disjunction is consistent, so every step holds
    assert a.n_mistakes >= 1


@pytest.mark.parametrize("N", [2, 4, 8, 64, 1024])
def test_promotions_reach_log2N_plus_1_when_N_is_a_power_of_2(N):
    # x1 alone, labelled 1: its weight goes 1, 2, ..., N and is promoted once more at exactly N,
    # so m⁺ = log₂N + 1: the notes' strict m⁺ < k(log₂N + 1) fails, the page's ≤ holds.
    X = np.zeros((int(math.log2(N)) + 4, N), dtype=np.int8)
    X[:, 0] = 1
    a = lesson.analyse(from_arrays("disjunction", X, np.ones(len(X), dtype=np.int8)), 2.0)
    assert a.k == 1 and a.found
    assert a.m_plus == math.log2(N) + 1 == pytest.approx(a.promotions.value)
    assert a.n_mistakes < a.bound.value
    assert "power of 2" in a.bound.statement and "m⁺ ≤ k(log₂N + 1)" in a.bound.statement


def test_report_fields_at_alpha_2_and_in_general():
    s = lesson.make_stream(500, 100, 3, 0)
    a = lesson.analyse(s, 2.0)
    assert a.bound.formula == "2 + 3k(log₂N + 1)"
    assert a.bound.value == pytest.approx(bounds.winnow(3, 100))
    assert "2 + 3\\cdot 3" in a.bound.latex and f"{a.bound.value:.4g}" in a.bound.latex
    assert dict(a.bound.numbers) == {"k": 3, "N": 100, "alpha": 2.0, "theta": 100.0}
    assert a.bound.source.startswith("CMU 16-831, Online linear classification") and "seeds/" not in a.bound.source
    assert a.potential_formula == "N + N·m⁺ − N·m⁻/2"
    assert a.demotions.formula == "2 + 2m⁺"
    assert a.demotions.latex == r"m^- = %d < 2 + 2m^+ = %d" % (a.m_minus, 2 + 2 * a.m_plus)
    assert f"m^+ = {a.m_plus}" in a.promotions.latex
    b = lesson.analyse(s, 3.0)
    assert b.bound.formula == "Nα/((α−1)θ) + (α+1)k(log_α θ + 1)"
    assert b.bound.value == pytest.approx(bounds.winnow_general(3, 100, 3.0, 100.0))
    assert b.promotions.value == pytest.approx(3 * (math.log(100) / math.log(3) + 1))
    assert b.demotions.value == pytest.approx(100 / ((1 - 1 / 3) * 100) + 3 * b.m_plus)
    assert "general α" in b.bound.source and "α = 3" in b.promotions.statement
    assert b.potential_formula == "N + (α−1)θ·m⁺ − (1−1/α)θ·m⁻"


def test_upload_finds_a_consistent_disjunction():
    s = streams.disjunction(T=300, N=50, k=3, seed=4)
    a = lesson.analyse(upload(s), 2.0)
    assert a.found
    np.testing.assert_array_equal(a.relevant, comparators.consistent_disjunction(s.X, s.y))
    pred = s.X[:, a.relevant].max(axis=1)
    np.testing.assert_array_equal(pred, s.y)             # it labels every row
    check_run(a)


def test_no_disjunction_means_no_bound_and_says_why():
    xor = from_arrays("disjunction", np.array([[1, 0], [0, 1], [1, 1], [1, 0]]), np.array([1, 1, 0, 1]))
    a = lesson.analyse(xor, 2.0)
    assert a.relevant is None and a.k is None
    for r in (a.bound, a.promotions, a.demotions):
        assert not r.applies and r.value == math.inf and "no OR of attributes" in r.why_not
    assert a.trace.T == 4 and a.coloured.size == 0 and a.others.shape == (len(a.trace.weight_table), 3)


def test_all_negative_stream_is_the_empty_disjunction():
    s = from_arrays("disjunction", np.eye(6, dtype=np.int8), np.zeros(6, dtype=np.int8))
    a = lesson.analyse(s, 2.0)
    assert a.k == 0 and a.bound.applies and a.bound.value == pytest.approx(2.0)
    assert a.n_mistakes < 2


def test_weight_rows_follow_the_mistakes():
    a = lesson.analyse(lesson.make_stream(400, 200, 4, 3), 2.0)
    np.testing.assert_array_equal(a.change_rounds, np.flatnonzero(a.trace.mistakes) + 1)
    assert a.rows_at(0) == 1 and a.rows_at(a.T) == len(a.trace.weight_table)
    W = a.trace.weight_table
    rest = np.setdiff1d(np.arange(a.N), a.relevant)
    np.testing.assert_allclose(a.others[:, 1], np.median(W[:, rest], axis=1))
    np.testing.assert_allclose(a.coloured_weights, W[:, a.relevant])


def test_stream_is_cut_to_five_million_values():
    assert lesson.rounds_for(3000, 10000) == MAX_CELLS // 10000 == 500
    assert lesson.rounds_for(300, 100) == 300
    assert lesson.make_stream(3000, 10000, 3, 0).T == 500
    with pytest.raises(StreamError):
        lesson.make_stream(100, 10, 11, 0)                 # k > N
    with pytest.raises(StreamError):
        lesson.analyse(lesson.make_stream(100, 10, 2, 0), 1.0)   # α must exceed 1


def test_sweep_bounds_hold_and_the_perceptrons_bound_is_linear_in_N():
    s = lesson.sweep(3, 3)
    assert s.winnow.shape == s.perceptron.shape == (3, len(lesson.SWEEP_NS)) and s.n_seeds == 3
    np.testing.assert_array_equal(s.Ns, lesson.SWEEP_NS)
    np.testing.assert_allclose(s.perceptron_bound, (4 * 3 + 1) * (s.Ns + 1.0))
    np.testing.assert_allclose(s.winnow_bound, 2 + 9 * (np.log2(s.Ns) + 1))
    assert np.all(s.winnow < s.winnow_bound) and np.all(s.perceptron <= s.perceptron_bound)
    assert np.all(s.perceptron <= s.rounds) and np.all(s.winnow <= s.rounds)
    # the Perceptron's mistakes grow, but far less than its bound (REVIEW: "grow like N" was false)
    p = s.perceptron.mean(axis=0)
    assert p[-1] > p[0] and p[-1] / p[0] < (s.Ns[-1] / s.Ns[0]) / 10
    assert p[-1] > s.winnow.mean(axis=0)[-1]


def test_analysis_pickles_for_the_cache():
    a = lesson.analyse(lesson.make_stream(200, 30, 2, 1), 1.5)
    b = pickle.loads(pickle.dumps(a))
    assert b.bound.value == a.bound.value and dict(b.bound.numbers) == dict(a.bound.numbers)
    np.testing.assert_array_equal(b.demotions.curve, a.demotions.curve)
    s = pickle.loads(pickle.dumps(lesson.sweep(2, 2, T=50, Ns=(10, 20))))
    assert s.winnow.shape == (2, 2)


# ---- conjunctions: the elimination algorithm -----------------------------------------------

def test_elimination_panel_bounds_hold_on_many_conjunction_streams():
    from olcore.lessons import winnow as W
    rng = np.random.default_rng(77)
    hit = 0
    for i in range(400):
        n = int(rng.integers(1, 40))
        k = int(rng.integers(0, n + 1))
        s = W.conjunction_stream(int(rng.integers(1, 300)), n, k, int(rng.integers(0, 2**31)), worst=bool(i % 2))
        e = W.elimination(s)
        assert e.report.applies and e.trace.n_mistakes <= e.report.value == n + 1
        assert e.trace.n_mistakes <= n - k + 1
        assert e.trace.extras["m_minus"][-1] == 0
        hit += e.trace.n_mistakes == n - k + 1
        assert e.demorgan_report.applies
        assert e.demorgan.n_mistakes < e.demorgan_report.value             # Winnow's bound, by De Morgan
        lits = s.info["literals"]
        y = np.all([s.X[:, j] == v for j, v in lits], axis=0) if lits else np.ones(len(s.y), bool)
        np.testing.assert_array_equal(s.y, y.astype(int))
    assert hit > 150                                                     # the worst-case order reaches n - k + 1


def test_elimination_panel_flags_a_stream_no_conjunction_labels():
    from olcore import streams as S
    from olcore.lessons import winnow as W
    X = np.array([[1, 1], [1, 1], [0, 0]])
    s = S.from_arrays("disjunction", X, np.array([1, 0, 0]))           # the same x labelled 1 then 0
    e = W.elimination(s)
    assert not e.report.applies and "negative" in e.report.why_not
    assert not e.demorgan_report.applies


# ---- the lecture's answers (olapp/content/winnow.py, LECTURE) --------------------------------------------------

def test_lecture_counts_by_hand():
    """N = 4, label x1. Round 1 promotes x1..x3 (score 3 ≤ θ = 4), round 2 demotes x2..x4 (2 + 2 + 1 > 4),
    rounds 3 and 4 promote x1 (scores 2, then 4, not above θ), round 5 is right (8 > 4)."""
    X = np.array([[1, 1, 1, 0], [0, 1, 1, 1], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]])
    y = np.array([1, 0, 1, 1, 1])
    a = lesson.analyse(from_arrays("disjunction", X, y), 2.0)
    assert (a.m_plus, a.m_minus, a.n_mistakes) == (3, 1, 4)
    assert lesson.mistakes_band(a, (0, 4)) == 1 and lesson.mistakes_band(a, (0, 5)) == 0
    assert lesson.promotions_band(a, (0, 3)) == 1 and lesson.promotions_band(a, (0, 4)) == 0
    assert lesson.promotions_band(a, (4, 8)) == -1


def test_promotions_stay_within_the_proofs_first_step():
    """m⁺ ≤ k(log₂N + 1) on generated streams: the band of m⁺ never passes the step's bound."""
    for N, k, seed in [(100, 3, 0), (100, 3, 1), (1000, 3, 0), (64, 5, 2)]:
        a = lesson.analyse(lesson.make_stream(500, N, k, seed), 2.0)
        cap = k * (math.log2(N) + 1)
        assert a.m_plus <= cap
        assert lesson.promotions_band(a, (0, math.floor(cap) + 1)) == 0
