"""The /mistakes_to_risk analysis: theory is the oracle.

- On thousands of seeded samples (several distributions, both learners, several n and δ) each bound fails
  no more often than δ allows: a one-sided binomial test at level LEVEL = 0.001 (the null "P(fail) <= δ"
  is rejected when P(Bin(R, δ) >= failures) < 0.001).  The same test rejects a bound that is too tight.
- The ensemble is the learner's own run; the penalised choice is the arg-min of its criterion; the unseen-error
  counts equal a brute-force count; held-out estimates agree with the exact risks.
"""

import math

import numpy as np
import pytest

from olcore import StreamError, bounds, linear, streams
from olcore import online_to_batch as o2b
from olcore.lessons import mistakes_to_risk as lesson
from olcore.lessons.mistakes_to_risk import LEVEL, binomial_tail

CONFIGS = [  # (source, n, d, noise, learner, delta, reps): 2,900 samples in all
    ("Label noise", 200, 5, 0.1, "perceptron", 0.5, 600),
    ("Separable", 200, 3, 0.0, "perceptron", 0.2, 500),
    ("Overlapping classes", 100, 2, 0.2, "pa", 0.5, 600),
    ("Label noise", 300, 10, 0.3, "pa", 0.2, 400),
    ("Overlapping classes", 50, 5, 0.05, "perceptron", 0.5, 800),
]


@pytest.fixture(scope="module", params=CONFIGS, ids=[f"{c[0]}-{c[4]}-n{c[1]}-delta{c[5]}" for c in CONFIGS])
def reps(request):
    source, n, d, noise, learner, delta, R = request.param
    return lesson.repetitions(source, n, d, noise, 7, learner, delta, R)


def test_every_bound_fails_no_more_often_than_delta(reps):
    fails = reps.failures()
    for name, k in fails.items():
        assert binomial_tail(k, reps.R, reps.delta) >= LEVEL, (name, k, reps.R, reps.delta)
    assert reps.p_values() == {k: binomial_tail(v, reps.R, reps.delta) for k, v in fails.items()}


def test_the_binomial_test_rejects_a_bound_that_is_too_tight(reps):
    """M_n/n alone (no deviation term) is not a bound at level delta: the same test catches it."""
    k = int((reps.average > reps.mistakes / reps.n).sum())
    assert binomial_tail(k, reps.R, min(reps.delta, 0.2) / 10) < LEVEL


def test_binomial_tail_is_the_exact_sum():
    R, p = 30, 0.2
    for k in (0, 1, 5, 12, 30):
        exact = sum(math.comb(R, j) * p**j * (1 - p) ** (R - j) for j in range(k, R + 1))
        assert binomial_tail(k, R, p) == pytest.approx(exact, rel=1e-10)
    assert binomial_tail(31, R, p) == 0.0


# -- the ensemble is the learner's own run ------------------------------------------------------------------

@pytest.mark.parametrize("learner", ["perceptron", "pa", "pa1"])
@pytest.mark.parametrize("seed", range(5))
def test_ensemble_equals_the_learners_run(learner, seed):
    s = lesson.make_stream("Label noise", 300, 4, 0.15, seed)
    ens = o2b.ensemble(s.X, s.y, learner)
    tr = {"perceptron": lambda: linear.perceptron(s.X, s.y),
          "pa": lambda: linear.passive_aggressive(s.X, s.y, "PA"),
          "pa1": lambda: linear.passive_aggressive(s.X, s.y, "PA-I", C=1.0)}[learner]()
    assert np.array_equal(ens.weights, tr.weights)
    assert np.array_equal(ens.mistakes, tr.mistakes)
    assert int(ens.M[-1]) == int(np.sum(tr.mistakes))
    W = tr.weights
    assert np.allclose(ens.averaged(), o2b.averaged(W), rtol=1e-12, atol=1e-12)


def test_ensemble_matches_the_reference_perceptron_line_by_line():
    s = lesson.make_stream("Overlapping classes", 200, 3, 0.2, 3)
    ens = o2b.ensemble(s.X, s.y)
    ref = linear.Perceptron(3)
    for t, (x, y) in enumerate(zip(s.X, s.y)):
        assert np.array_equal(ens.weights[t], ref.w)
        assert bool(ref.update(x, y)) == bool(ens.mistakes[t])
    assert np.array_equal(ens.weights[-1], ref.w)


def test_alma_hook_registers_a_learner():
    calls = []

    def run(X, y, **kw):
        calls.append(kw)
        return linear.perceptron(X, y)

    o2b.register_learner("test_hook", "Hooked", run, alpha=0.9)
    try:
        s = lesson.make_stream("Separable", 50, 2, 0.0, 0)
        ens = o2b.ensemble(s.X, s.y, "test_hook")
        assert calls == [{"alpha": 0.9}] and ens.learner == "test_hook"
    finally:
        del o2b.LEARNERS["test_hook"]


# -- the penalised choice -----------------------------------------------------------------------------------

def brute_unseen_errors(X, y, ens):
    W = ens.weights
    return np.array([sum(y[i] * (W[t] @ X[i]) <= 0 for i in range(t, len(y))) for t in range(len(y))], float)


@pytest.mark.parametrize("learner", ["perceptron", "pa"])
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("delta", [0.01, 0.3])
def test_choice_is_the_argmin_of_its_criterion(learner, seed, delta):
    s = lesson.make_stream("Label noise", 120, 3, 0.2, seed)
    ens = o2b.ensemble(s.X, s.y, learner)
    c = o2b.choose_penalised(s.X, s.y, ens, delta)
    n = ens.n
    assert np.array_equal(c.errors, brute_unseen_errors(s.X, s.y, ens))
    assert np.array_equal(c.m, n - np.arange(n))
    assert np.allclose(c.criterion, bounds.holdout_risk(c.errors, c.m, delta / (3 * n)), rtol=1e-13)
    assert np.allclose(c.estimate + c.penalty, c.criterion, rtol=1e-13)
    assert c.t_star == int(np.argmin(c.criterion))
    assert np.all(c.criterion[c.t_star] <= c.criterion)
    assert c.bound == c.criterion[c.t_star]
    assert np.all(c.penalty > 0)


def test_unseen_errors_start_with_the_online_mistake():
    """e_t - e_{t+1} is round t+1's mistake whenever H_{t+1} = H_t (the same error test as the learner)."""
    s = lesson.make_stream("Label noise", 400, 5, 0.1, 1)
    ens = o2b.ensemble(s.X, s.y)
    e = o2b.holdout_errors(s.X, s.y, ens)
    same = ens.index[1:-1] == ens.index[:-2]
    assert np.array_equal((e[:-1] - e[1:])[same], ens.mistakes[:-1][same].astype(float))
    assert e[-1] == float(ens.mistakes[-1])


# -- risks: held out, exact ---------------------------------------------------------------------------------

@pytest.mark.parametrize("source,noise", [("Separable", 0.0), ("Label noise", 0.2), ("Overlapping classes", 0.15)])
def test_exact_risk_matches_a_large_fresh_sample(source, noise):
    D = lesson.make_distribution(source, 4, noise, 5)
    rng = np.random.default_rng(11)
    W = np.vstack([rng.standard_normal((6, 4)), np.zeros((1, 4))])
    X, y = D.sample(200_000, rng)
    mc = o2b.sample_risk(W, X, y)
    sd = np.sqrt(np.maximum(mc * (1 - mc), 1e-12) / len(y))
    assert np.all(np.abs(D.risk(W) - mc) <= 5 * sd + 1e-12)
    assert D.risk(W)[-1] == 1.0                                   # w = 0 errs everywhere
    assert D.bayes_risk == pytest.approx(noise, abs=1e-12)


@pytest.mark.parametrize("source", lesson.SOURCES)
@pytest.mark.parametrize("learner", ["perceptron", "pa"])
def test_analysis_on_held_out_data(source, learner):
    s = lesson.make_stream(source, 400, 5, 0.1, 2)
    a = lesson.analyse(s, source, 5, 0.1, 2, learner, 0.05, n_holdout=20_000)
    n = a.n
    assert a.risk.shape == (n + 1,) and a.risk[0] == 1.0
    sd = np.sqrt(np.maximum(a.exact * (1 - a.exact), 1e-4) / a.n_holdout)
    assert np.all(np.abs(a.risk - a.exact) <= 5 * sd)             # the held-out estimate is close to exact
    assert np.allclose(a.average, np.cumsum(a.risk[:n]) / np.arange(1, n + 1))
    assert np.allclose(a.martingale, np.arange(1, n + 1) * (a.average - a.M / np.arange(1, n + 1)))
    assert np.allclose(a.bounds.envelope, np.arange(1, n + 1) * a.bounds.average - a.M)
    rep = a.average_report
    assert rep.applies and rep.curve.shape == (n,) and np.all(rep.curve <= 1.0)
    assert rep.value == pytest.approx(bounds.average_risk(int(a.M[-1]), n, 0.05))
    assert a.chosen_report.value == a.choice.bound
    assert a.chosen_mistakes_report.value == pytest.approx(bounds.chosen_risk(int(a.M[-1]), n, 0.05))
    assert a.risk_chosen == a.risk[a.t_star] and a.risk_last == a.risk[n]
    # the held-out sample is not the training sample: the held-out risk of H_n differs from its training error
    assert a.training_stream.T == n and np.array_equal(a.training_stream.X, s.X)


def test_upload_is_shuffled_and_halved():
    s = lesson.make_stream("Label noise", 300, 3, 0.1, 4)
    up = streams.from_arrays("linear", s.X, s.y)
    a = lesson.analyse(up, lesson.UPLOAD, seed=1)
    assert a.n == 150 and a.n_holdout == 150 and a.exact is None and a.bayes_risk is None
    Xtr, ytr, Xh, yh = lesson.split_upload(up, 1)
    rows = {tuple(r) for r in s.X}
    assert {tuple(r) for r in Xtr} | {tuple(r) for r in Xh} == rows
    assert not ({tuple(r) for r in Xtr} & {tuple(r) for r in Xh})
    assert np.allclose(a.risk, o2b.sample_risk(a.ens.table, Xh, yh)[a.ens.index])
    r = lesson.repetitions(lesson.UPLOAD, 100, seed=0, reps=20, upload=up)
    assert r.R == 20 and r.bayes_risk is None


def test_large_uploads_are_capped():
    s = lesson.make_stream("Separable", 4500, 2, 0.0, 0)
    up = streams.from_arrays("linear", s.X, s.y)
    a = lesson.analyse(up, lesson.UPLOAD, seed=0)
    assert a.n == lesson.UPLOAD_N_MAX and a.n_holdout == 4500 - lesson.UPLOAD_N_MAX
    big = streams.from_arrays("linear", np.vstack([s.X, s.X]), np.concatenate([s.y, s.y]))
    r = lesson.repetitions(lesson.UPLOAD, 50, seed=0, reps=3, upload=big)
    assert r.R == 3


@pytest.mark.parametrize("call", [
    lambda: lesson.make_distribution("Overlapping classes", 3, 0.0, 0),
    lambda: lesson.make_distribution("Nope", 3, 0.1, 0),
    lambda: lesson.make_stream("Label noise", 1, 3, 0.1, 0),
    lambda: o2b.ensemble([[1.0]], [1], "alma-not-yet"),
    lambda: lesson.analyse(streams.from_arrays("linear", [[1.0]] * 4, [1, -1, 1, 1]), lesson.UPLOAD),
    lambda: lesson.repetitions(lesson.UPLOAD, 10, reps=2),
    lambda: o2b.choose_penalised([[1.0]], [1], o2b.ensemble([[1.0]], [1]), 1.5),
])
def test_bad_settings_raise_stream_error(call):
    with pytest.raises(StreamError):
        call()


# -- the presets' claims hold at their settings ---------------------------------------------------------------

def _preset_run(name):
    from olapp.lessons.mistakes_to_risk import PRESETS
    v = next(p for p in PRESETS if p.name == name).values
    s = lesson.make_stream(v["stream"], v["n"], v["d"], v.get("noise", 0.1), v["seed"])
    return lesson.analyse(s, v["stream"], v["d"], v.get("noise", 0.1), v["seed"], v["learner"], v["delta"])


def test_preset_claims():
    a = _preset_run("Perceptron, 10% label noise")
    assert 0.4 * a.average[-1] <= a.risk_chosen <= 0.6 * a.average[-1]          # "about half"
    assert a.average[-1] - a.M[-1] / a.n <= a.average_report.value - a.M[-1] / a.n
    a = _preset_run("Larger sample: the mistake-only bound of Ĥ becomes informative")
    assert a.chosen_mistakes_report.value < 1.0


def test_alma_is_offered_and_its_ensemble_is_its_own_run():
    s = lesson.make_stream("Separable", 200, 2, 0.0, 3)
    ens = o2b.ensemble(s.X, s.y, "alma")
    run = linear.alma(s.X, s.y, alpha=0.9)
    assert np.array_equal(ens.mistakes, run.mistakes)
    assert np.allclose(ens.weights[-1], run.weights[-1])


# ---- the lecture's answers ---------------------------------------------------------------------------------

def _by_hand(M, average, bound):
    """An analysis-shaped record of n = len(M) rounds: M_t, the running average risk and Step 1's bound at n."""
    from types import SimpleNamespace

    return SimpleNamespace(M=np.asarray(M), average=np.asarray(average, float), n=len(M),
                           average_report=SimpleNamespace(value=bound))


def test_mistakes_band_and_average_vs_mistakes_by_hand():
    a = _by_hand([1, 1, 2, 2], [1.0, 0.6, 0.55, 0.45], 0.9)     # M_n/n = 2/4 = 0.5, average 0.45: below
    assert lesson.mistakes_band(a, (0, 2, 3)) == 1
    assert lesson.mistakes_band(a, (0, 3)) == 0
    assert lesson.average_vs_mistakes(a) == 0
    assert lesson.average_vs_mistakes(_by_hand([1, 1, 2, 2], [1.0, 0.7, 0.6, 0.5], 0.9)) == 0   # equal: "at or below"
    assert lesson.average_vs_mistakes(_by_hand([1, 1, 2, 2], [1.0, 0.7, 0.6, 0.55], 0.9)) == 1
    assert lesson.average_vs_mistakes(_by_hand([1, 1, 2, 2], [1.0, 0.9, 0.9, 0.95], 0.9)) == 2


def test_the_answers_read_the_run():
    s = lesson.make_stream("Label noise", 300, 3, 0.1, 2)
    a = lesson.analyse(s, "Label noise", 3, 0.1, 2, "perceptron", 0.05)
    M = int(linear.perceptron(s.X, s.y).mistakes.sum())               # the one pass, recounted
    assert int(a.M[-1]) == M
    assert lesson.mistakes_band(a, (0, M, M + 1)) == 1
    assert (lesson.average_vs_mistakes(a) >= 1) == (a.martingale[-1] > 0)
