"""olcore.lessons.halving: the analysis behind /halving, with the theorem as the oracle.

Every bound the page draws (M ≤ log₂ n, |C| ≤ n/2^M_t, |C| ≥ 1) must hold on many seeded
random and adversarial streams; the BoundReport must say when its assumption fails.
"""

import math
import pickle

import numpy as np
import pytest

from olcore import StreamError, streams
from olcore.experts import Halving
from olcore.lessons import halving as h


def check_run(a):
    """The drawn bounds hold and the analysis agrees with its own definitions."""
    T, n = a.T, a.n
    assert a.alive.shape == (T + 1, n) and a.sizes.shape == (T + 1,) and a.cum_mistakes.shape == (T,)
    assert np.array_equal(a.sizes, a.alive.sum(axis=1))
    ceiling = a.ceiling.as_curve(T)
    assert np.allclose(ceiling, n / 2.0 ** a.cum_mistakes)                  # n / 2^M_t, written once
    assert np.all(a.sizes[1:] <= ceiling + 1e-9)                           # the proof's ceiling always holds
    assert np.all(np.diff(a.sizes) <= 0)                                   # experts are never restored
    kept = a.kept_on_mistakes()
    assert all(k <= 0.5 for k in kept)                                     # each mistake at least halves
    on_m, without = a.crossed_out()
    assert on_m + without == n - a.sizes[-1]
    assert a.bound.value == pytest.approx(math.log2(n))
    if a.bound.applies:
        assert a.sizes[-1] >= 1 and a.empty_after is None
        assert a.M <= math.log2(n) + 1e-12                                 # the theorem
    else:
        assert a.sizes[-1] == 0 and a.empty_after is not None
        assert a.sizes[a.empty_after] == 0 and a.sizes[a.empty_after - 1] > 0
        assert f"after round {a.empty_after}" in a.bound.why_not
    return a


def test_the_lecture_run_is_the_slide():
    a = check_run(h.analyse(h.lecture_stream()))
    assert a.n == 8 and a.T == 3 and a.M == 2
    assert a.trace.predictions.tolist() == [1, 1, 0] and a.trace.mistakes.tolist() == [True, False, True]
    assert a.sizes.tolist() == [8, 4, 3, 1]
    assert a.alive[-1].tolist() == [False, False, False, True, False, False, False, False]   # E4
    assert a.best == 3 and a.bound.applies and not a.tight
    assert a.bound.latex.startswith(r"M = 2 \;\le\; \log_2 n = \log_2 8 = 3")
    rows = a.proof_rows()
    assert [(r["round"], r["|C_t| before"], r["|C_t+1| after"], r["after / before"], r["n / 2^M"]) for r in rows] \
        == [(1, 8, 4, "0.500", "4"), (3, 3, 1, "0.333", "2")]
    assert a.proof_rows(2) == rows[:1] and a.proof_rows(0) == []
    assert a.crossed_out() == (6, 1)                                       # round 2, no mistake, crossed out E3: the minority
    assert a.mistakes_until(0) == 0 and a.mistakes_until(2) == 1 and a.mistakes_until(3) == 2


def test_the_analysis_agrees_with_the_reference_class():
    s = streams.perfect_expert(T=50, n=37, seed=3, p_wrong=0.3)
    a = h.analyse(s)
    ref = Halving(37)
    for t in range(a.T):
        assert ref.predict(s.X[t]) == a.trace.predictions[t]
        ref.update(s.X[t], s.y[t])
    assert np.array_equal(a.X, s.X) and np.array_equal(a.y, s.y)


@pytest.mark.parametrize("seed", range(40))
def test_bounds_hold_on_random_streams_with_a_perfect_expert(seed):
    rng = np.random.default_rng(seed)
    n, T, p = int(rng.integers(2, 1025)), int(rng.integers(1, 300)), float(rng.uniform(0, 1))
    a = check_run(h.analyse(h.make_stream("perfect", n, T, p, 0, seed)))
    assert a.bound.applies and a.sizes[-1] >= 1 and a.alive[-1, a.best]


@pytest.mark.parametrize("n", list(range(2, 70)) + [127, 128, 129, 500, 1000, 1023, 1024])
def test_the_adversary_forces_exactly_floor_log2_n(n):
    a = check_run(h.analyse(h.make_stream("adversary", n, 1, 0.5, 5, n)))
    assert a.M == math.floor(math.log2(n)) == a.floor_log2_n and a.tight
    assert a.forced_rounds == a.floor_log2_n
    assert a.trace.mistakes[:a.forced_rounds].all() and not a.trace.mistakes[a.forced_rounds:].any()


@pytest.mark.parametrize("seed", range(30))
def test_games_and_streams_without_a_consistent_expert(seed):
    """Random outcomes in the game, and random advice: the ceiling still holds; the theorem applies
    exactly when some expert is never wrong."""
    rng = np.random.default_rng(1000 + seed)
    n = int(rng.integers(2, 40))
    moves = rng.integers(0, 2, size=int(rng.integers(1, 30))).tolist()
    g = h.game(n, moves, seed)
    a = check_run(h.analyse(g.played))
    assert a.T == len(moves) and a.y.tolist() == moves
    X = rng.integers(0, 2, size=(int(rng.integers(1, 60)), n))
    a = check_run(h.analyse(streams.from_arrays("experts", X, rng.integers(0, 2, size=X.shape[0]), {})))
    assert a.bound.applies == bool((X == a.y[:, None]).all(axis=0).any())


def test_the_bound_report_when_the_assumption_fails():
    X = np.array([[1, 0], [1, 0], [0, 1]])
    a = check_run(h.analyse(streams.from_arrays("experts", X, np.array([1, 0, 0]), {})))
    r = a.bound
    assert not r.applies and a.empty_after == 2 and a.empty_by(2) and not a.empty_by(1) and a.empty_by(3)
    assert "No expert is consistent" in r.why_not and "after round 2" in r.why_not
    assert "does not apply" in r.latex and not a.tight
    assert a.trace.predictions[2] == 1                                     # 0 votes against 0: a tie predicts 1


def test_bound_report_fields():
    a = h.analyse(h.make_stream("perfect", 100, 80, 0.2, 0, 5))
    r = a.bound
    assert r.formula == "log₂ n" and r.name == "bound: log₂ n" and r.curve is None
    assert r.numbers["n"] == 100 and r.numbers["M"] == a.M and r.numbers["log2_n"] == pytest.approx(math.log2(100))
    for rep in (r, a.ceiling):
        assert rep.source.startswith("UCL COMP0078, Online learning") and "seeds/" not in rep.source + rep.statement
    assert "consistent expert" in r.statement and r.applies and r.why_not == ""
    assert a.ceiling.T == a.T and a.ceiling.value == pytest.approx(100 / 2 ** a.M)
    back = pickle.loads(pickle.dumps(a))                                   # st.cache_data pickles the analysis
    assert back.bound.latex == r.latex and dict(back.bound.numbers) == dict(r.numbers)
    assert np.array_equal(back.ceiling.curve, a.ceiling.curve)


def test_a_thousand_experts_rounds_without_a_mistake_cross_out_the_wrong_minority():
    """REVIEW section 1: the preset's claim. Mistakes keep at most half; rounds without one cross out too."""
    a = check_run(h.analyse(h.make_stream("perfect", 1000, 60, 0.5, 0, 0)))
    kept = a.kept_on_mistakes()
    assert kept and max(kept) <= 0.5
    on_m, without = a.crossed_out()
    assert without > 0                                     # not only mistakes shrink the version space
    quiet = ~a.trace.mistakes & (a.sizes[:-1] > 0)
    assert (a.sizes[1:][quiet] < a.sizes[:-1][quiet]).any()
    assert a.M < math.log2(1000) / 2


def test_the_game():
    g = h.game(8, [], 0)
    assert g.played is None and g.alive.all() and g.votes_one + g.votes_zero == 8
    assert g.yhat_next == int(g.votes_one >= g.votes_zero)
    moves = []
    for _ in range(3):                                     # always contradict Halving: 3 forced mistakes
        moves.append(1 - h.game(8, moves, 0).yhat_next)
    a = h.analyse(h.game(8, moves, 0).played)
    assert a.M == 3 and a.bound.applies and a.sizes[-1] == 1
    g = h.game(8, moves, 0)
    (only,) = [x for _, x in g.advice() if x is not None]
    a = h.analyse(h.game(8, moves + [1 - only], 0).played)  # contradict the last consistent expert
    assert not a.bound.applies and a.empty_after == 4
    big = h.game(100, [1], 0)
    assert len(big.advice()) == 24 and [i for i, x in big.advice()] == sorted(i for i, x in big.advice())


def test_parse_moves_and_bad_settings():
    assert h.parse_moves("0110") == [0, 1, 1, 0] and h.parse_moves("") == []
    for raw in ("01x", "<script>", "2", "0" * (h.MAX_MOVES + 1)):
        assert h.parse_moves(raw) is None
    with pytest.raises(StreamError):
        h.make_stream("nonsense")
    with pytest.raises(StreamError):
        h.make_stream("perfect", n=0)
    with pytest.raises(StreamError):
        h.analyse(streams.loss_matrix(T=5, n=3, seed=0))
    with pytest.raises(StreamError):
        h.version_space_ceiling(8, -1)
    assert h.version_space_ceiling(8, 2) == 2.0
    assert np.allclose(h.version_space_ceiling(8, np.array([0, 1, 3])), [8, 4, 1])
