"""Rounds per second: olcore beside scikit-learn and River, one process, same seeded streams.

    python -m benchmarks.throughput                  # the full table (a few minutes on 2 cores)
    python -m benchmarks.throughput --quick          # T = 10^4, fewer River rounds: a smoke run

Perceptron and Winnow: T = 10^5 rounds, d in {2, 20, 200}, separable and 15 %-noisy streams.
  * olcore ``linear.perceptron(X, y)`` / ``linear.winnow(X, y)`` (whole stream, one call);
  * scikit-learn ``Perceptron(penalty=None, eta0=1, fit_intercept=False, shuffle=False,
    max_iter=1, tol=None).fit(X, y)``: one ordered epoch, the textbook Perceptron (Cython);
  * River ``linear_model.Perceptron().learn_one`` in a Python loop over rows converted to
    dicts before the clock starts (on the first ``--river-rounds`` rounds: River is slow).
  No library has Winnow, so on the Winnow streams (``streams.disjunction`` with N = d and,
  for the noisy case, 15 % of the labels flipped) the peers run their Perceptron on the same
  rows (labels mapped to -1/+1 / booleans); the ratio is reported, no target applies.

Experts: n = 1000 experts, T = 5000 rounds (T * n is capped at 5 * 10^6 by olcore's input checks)
(``--expert-rounds``), advice from ``streams.expert_error_rates`` (rates uniform in [0.1, 0.5]);
Hedge runs on the 0/1 loss matrix L = [advice != outcome] and, second row, on continuous losses
(x_i - y)^2 with advice and outcomes uniform in [0, 1]; Weighted Majority on the 0/1 advice with
beta = e^{-eta}.  River's ``EWARegressor`` has 1000 trivial regressors, regressor i predicting
feature i (the advice of expert i), so its squared loss (x_i - y)^2 is exactly Hedge's loss;
learning rate = Hedge's eta.  With beta = e^{-eta} WM's weights are EWA's on the 0/1 loss too,
and the benchmark checks all three agree with River's weights.

Widrow-Hoff, PA-I and PA-II: T = 10^5, d = 20 (``streams.regression`` / ``streams.separable``
with 15 % noise): ``linear.widrow_hoff`` beside ``SGDRegressor(learning_rate="constant",
eta0=eta, penalty=None)`` one ordered epoch; ``linear.passive_aggressive(variant="PA-I"|"PA-II")``
beside ``SGDClassifier(loss="hinge", learning_rate="pa1"|"pa2", eta0=C, penalty=None)``.

Every timing is the best of 5 (``time.perf_counter``), after one untimed call (numba compiles
or loads its cache there).  Ratios = olcore rounds/s divided by the peer's.  Targets:
Perceptron >= 2x scikit-learn and >= 100x River on every stream; Widrow-Hoff, PA-I and PA-II
>= 2x scikit-learn; Hedge and WM >= 200x River's EWARegressor.  Every olcore row is measured in
both record modes and both ratios are printed with their own PASS/MISS: "every" is the default
``record="every"`` (the trace keeps every round's weights: one row per update for the
conservative learners, the whole (T+1) x k history for Widrow-Hoff and the experts), "final" is
``record="final"`` (the first and final weights only: what the peers keep, like with like).  Peak memory is
the largest growth of the process's resident set during one call, its result still alive
(sampled every 0.5 ms from /proc/self/statm, and once more before the result is dropped: numba's
allocations are invisible to tracemalloc, and a compiled loop holds the GIL, so transient arrays
freed inside one call are not seen).  "check": the final
weights equal the peer's (same algorithm, same order) to 1e-9.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import math
import os
import platform
import sys
import time
import warnings

import numpy as np

import olcore
from olcore import experts, linear, streams

TARGETS = {  # (algorithm, peer, stream kind) -> minimum ratio
    ("Perceptron", "sklearn", "separable"): 2.0,
    ("Perceptron", "sklearn", "noisy"): 2.0,
    ("Perceptron", "River", "separable"): 100.0,
    ("Perceptron", "River", "noisy"): 100.0,
    ("Widrow-Hoff", "sklearn", "regression"): 2.0,
    ("PA-I", "sklearn", "noisy"): 2.0,
    ("PA-II", "sklearn", "noisy"): 2.0,
    ("Hedge", "River", "-"): 200.0,
    ("Weighted Majority", "River", "-"): 200.0,
}


class PeakRSS:
    """Largest growth of this process's resident set while the block runs (bytes)."""

    PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

    def _rss(self) -> int:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * self.PAGE

    def __enter__(self):
        import threading

        gc.collect()
        try:  # hand freed heap pages back to the OS, so reused memory shows as growth again
            import ctypes

            ctypes.CDLL("libc.so.6").malloc_trim(0)
        except (OSError, AttributeError):
            pass
        self.base = self.peak = self._rss()
        self._stop = threading.Event()

        def sample():
            while not self._stop.wait(0.0005):
                self.peak = max(self.peak, self._rss())

        self._t = threading.Thread(target=sample, daemon=True)
        self._t.start()
        return self

    def __exit__(self, *exc):
        self.peak = max(self.peak, self._rss())
        self._stop.set()
        self._t.join()
        self.mb = (self.peak - self.base) / 2**20


def peak_mb(fn) -> float:
    """Peak growth of the resident set while ``fn()`` runs and while its result is alive (the
    last sample is taken before the result is dropped: a compiled loop holds the GIL, so the
    sampling thread cannot look during it, and a trace freed right after the call would be missed)."""
    try:
        with PeakRSS() as p:
            out = fn()
        del out
        return p.mb
    except OSError:           # no /proc: not Linux
        return float("nan")


def best_of(fn, repeat: int = 5) -> float:
    """Best wall time of ``repeat`` calls of ``fn`` (seconds)."""
    return best_of_each([fn], repeat)[0]


def best_of_each(fns, repeat: int = 5) -> list[float]:
    """Best wall time of ``repeat`` calls of each of ``fns`` (seconds), the calls taken in turn
    (a, b, c, a, b, c, ...): on a shared machine whose speed drifts over seconds, a ratio of two
    timings taken in turn compares like with like, where timings taken one function after the
    other compare one period of the machine with another."""
    best = [math.inf] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            gc.collect()
            t0 = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - t0)
    return best


# -- peers --------------------------------------------------------------------------------------

def sklearn_epoch(X: np.ndarray, y: np.ndarray):
    """scikit-learn's Perceptron, one ordered epoch over (X, y); returns the fitted model."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron

    clf = Perceptron(penalty=None, eta0=1.0, fit_intercept=False, shuffle=False, max_iter=1, tol=None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf.fit(X, y)
    return clf


def river_rows(X: np.ndarray, y: np.ndarray, m: int):
    """The first m rounds as River wants them: dicts of features and boolean labels."""
    rows = [dict(enumerate(r)) for r in X[:m].tolist()]
    labels = [bool(v > 0) for v in y[:m].tolist()]
    return rows, labels


def river_perceptron(rows, labels):
    from river import linear_model

    model = linear_model.Perceptron()
    learn = model.learn_one
    for x, t in zip(rows, labels):
        learn(x, t)
    return model


def river_ewa(n: int, eta: float):
    """River's EWARegressor over n trivial regressors; regressor i predicts feature i."""
    from river import base

    try:
        from river.ensemble import EWARegressor
    except ImportError:  # older River kept it in river.expert
        from river.expert import EWARegressor

    class Advice(base.Regressor):
        """A trivial expert: predicts its own column of the advice, never learns."""

        def __init__(self, i: int = 0):
            self.i = i

        def learn_one(self, x, y):
            return None

        def predict_one(self, x):
            return x[self.i]

    return EWARegressor([Advice(i) for i in range(n)], learning_rate=eta)


# -- the table ------------------------------------------------------------------------------------

def fmt_rate(r: float) -> str:
    if r >= 1e6:
        return f"{r / 1e6:7.2f} M"
    if r >= 1e3:
        return f"{r / 1e3:7.1f} k"
    return f"{r:7.0f}  "


@contextlib.contextmanager
def stream_cap(cells: int):
    """Lift the generators' size cap (``streams.MAX_CELLS``, 5 * 10^6 values, a guard for the
    app's users) for this benchmark only: T = 10^5 at d = 200 is 2 * 10^7 values."""
    from olcore import stream as leaf      # the cap lives in the leaf module (olcore.stream)

    old = leaf.MAX_CELLS
    leaf.MAX_CELLS = max(old, cells)
    try:
        yield
    finally:
        leaf.MAX_CELLS = old


def sk_quiet(make, X, y):
    """Fit a scikit-learn model for one epoch without its ConvergenceWarning."""
    from sklearn.exceptions import ConvergenceWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return make().fit(X, y)


def same(a, b) -> str:
    return "w == sklearn" if np.allclose(a, b, rtol=1e-9, atol=1e-9) else "w != sklearn!"


def linear_rows(T: int, dims, river_rounds: dict[int, int], seed: int, repeat: int):
    """Measure Perceptron and Winnow beside the peers; yield one result dict per stream."""
    for algo in ("Perceptron", "Winnow"):
        for d in dims:
            for kind, noise in (("separable", 0.0), ("noisy", 0.15)):
                if algo == "Perceptron":
                    with stream_cap(T * d):
                        s = streams.separable(T=T, d=d, gamma=0.1, noise=noise, seed=seed)
                    X, y = np.ascontiguousarray(s.X, dtype=float), s.y.astype(float)
                    run = lambda rec="every": linear.perceptron(X, y, record=rec)  # noqa: E731
                    yp = y
                else:
                    with stream_cap(T * d):
                        s = streams.disjunction(T=T, N=d, k=min(3, d), seed=seed)
                    X, y = s.X, s.y.copy()
                    if noise:
                        flip = np.random.default_rng(seed + 1).random(T) < noise
                        y[flip] = 1 - y[flip]
                    run = lambda rec="every": linear.winnow(X, y, record=rec)  # noqa: E731
                    yp = np.where(y > 0, 1.0, -1.0)
                Xf = np.ascontiguousarray(X, dtype=float)
                tr = run()
                m = min(T, river_rounds[d])
                rows, labels = river_rows(Xf, yp, m)
                t_ol, t_fin, t_sk, t_rv = best_of_each([run, lambda: run("final"), lambda: sklearn_epoch(Xf, yp),
                                                        lambda r=rows, lab=labels: river_perceptron(r, lab)], repeat)
                del rows, labels
                mem = (peak_mb(run), peak_mb(lambda: run("final")), peak_mb(lambda: sklearn_epoch(Xf, yp)))
                check = ""
                if algo == "Perceptron":  # same algorithm: the final weights must agree
                    check = same(sklearn_epoch(Xf, yp).coef_.ravel(), tr.weights_at(tr.T))
                yield {"algo": algo, "d": d, "kind": kind, "mistakes": int(tr.n_mistakes), "T": T,
                       "ol": T / t_ol, "fin": T / t_fin, "sk": T / t_sk, "rv": m / t_rv, "rv_rounds": m,
                       "mem": mem, "check": check}


def verdict(algo, peer, kind, ratio):
    tgt = TARGETS.get((algo, peer, kind))
    if tgt is None:
        return "", ""
    return f">= {tgt:g}x", "PASS" if ratio >= tgt else "MISS"


def print_linear(results) -> list[str]:
    misses = []
    head = (f"{'algorithm':<11}{'d':>4} {'stream':<10}{'mistakes':>9} {'every r/s':>10} {'final r/s':>10}"
            f" {'sklearn r/s':>12} {'every':>7} {'final':>7} {'target':>7} {'':9} {'River r/s':>10}"
            f" {'every':>7} {'target':>8} {'':4} {'peak MB every/final/sk':>22}  check")
    print(head)
    print("-" * len(head))
    for r in results:
        rs, rf, rr = r["ol"] / r["sk"], r["fin"] / r["sk"], r["ol"] / r["rv"]
        ts, vs = verdict(r["algo"], "sklearn", r["kind"], rs)
        _, vf = verdict(r["algo"], "sklearn", r["kind"], rf)
        tr_, vr = verdict(r["algo"], "River", r["kind"], rr)
        if vs == "MISS" or vf == "MISS":
            misses.append(f"{r['algo']} d={r['d']} {r['kind']}: {rs:.3g}x sklearn with record='every', "
                          f"{rf:.3g}x with record='final' (target {ts})")
        if vr == "MISS":
            misses.append(f"{r['algo']} d={r['d']} {r['kind']}: {rr:.3g}x River (target {tr_})")
        mem = "/".join(f"{m:.0f}" for m in r["mem"])
        both = f"{vs or '':4}/{vf or '':4}" if vs else ""
        print(f"{r['algo']:<11}{r['d']:>4} {r['kind']:<10}{r['mistakes']:>9} {fmt_rate(r['ol']):>10}"
              f" {fmt_rate(r['fin']):>10} {fmt_rate(r['sk']):>12} {rs:>6.3g}x {rf:>6.3g}x {ts:>7} {both:9}"
              f" {fmt_rate(r['rv']):>10} {rr:>6.3g}x {tr_:>8} {vr:4} {mem:>22}  {r['check']}", flush=True)
    print("every = olcore's default record='every' (the trace keeps every round's weights: one table row per "
          "mistake); final = record='final' (first and final weights only: what the peers keep). "
          "PASS/MISS: every/final. River is compared with record='every'.")
    return misses


def regression_rows(T: int, d: int, seed: int, repeat: int):
    """Widrow-Hoff, PA-I, PA-II beside scikit-learn's SGD one ordered epoch, both record modes."""
    from sklearn.linear_model import SGDClassifier, SGDRegressor

    with stream_cap(T * d):
        reg = streams.regression(T=T, d=d, seed=seed)
        cls = streams.separable(T=T, d=d, gamma=0.1, noise=0.15, seed=seed)
    Xr, yr = np.ascontiguousarray(reg.X, dtype=float), reg.y.astype(float)
    Xc, yc = np.ascontiguousarray(cls.X, dtype=float), cls.y.astype(float)
    eta, C = 0.05, 0.5
    cases = [
        ("Widrow-Hoff", "regression", Xr, yr, lambda rec="every": linear.widrow_hoff(Xr, yr, eta, record=rec),
         lambda: SGDRegressor(loss="squared_error", learning_rate="constant", eta0=eta, penalty=None,
                              fit_intercept=False, shuffle=False, max_iter=1, tol=None)),
    ]
    for name, lr in (("PA-I", "pa1"), ("PA-II", "pa2")):
        cases.append((name, "noisy", Xc, yc,
                      lambda rec="every", name=name: linear.passive_aggressive(Xc, yc, name, C, record=rec),
                      lambda lr=lr: SGDClassifier(loss="hinge", learning_rate=lr, eta0=C, penalty=None,
                                                  fit_intercept=False, shuffle=False, max_iter=1, tol=None)))
    for name, kind, X, y, run, make in cases:
        tr = run()
        t_ol, t_fin, t_sk = best_of_each([run, lambda: run("final"), lambda: sk_quiet(make, X, y)], repeat)
        mem = (peak_mb(run), peak_mb(lambda: run("final")), peak_mb(lambda: sk_quiet(make, X, y)))
        check = same(sk_quiet(make, X, y).coef_.ravel(), tr.weights_at(tr.T))
        yield {"algo": name, "d": d, "kind": kind, "T": T, "ol": T / t_ol, "fin": T / t_fin, "sk": T / t_sk,
               "mem": mem, "check": check}


def print_regression(results) -> list[str]:
    misses = []
    head = (f"{'algorithm':<12}{'d':>4} {'stream':<11} {'every r/s':>10} {'final r/s':>10} {'sklearn r/s':>12}"
            f" {'every':>7} {'final':>7} {'target':>7} {'':9} {'peak MB every/final/sk':>22}  check")
    print(head)
    print("-" * len(head))
    for r in results:
        ratio, rf = r["ol"] / r["sk"], r["fin"] / r["sk"]
        t, v = verdict(r["algo"], "sklearn", r["kind"], ratio)
        _, vf = verdict(r["algo"], "sklearn", r["kind"], rf)
        if v == "MISS" or vf == "MISS":
            misses.append(f"{r['algo']} d={r['d']}: {ratio:.3g}x sklearn with record='every', {rf:.3g}x with "
                          f"record='final' (target {t})")
        mem = "/".join(f"{m:.0f}" for m in r["mem"])
        print(f"{r['algo']:<12}{r['d']:>4} {r['kind']:<11} {fmt_rate(r['ol']):>10} {fmt_rate(r['fin']):>10}"
              f" {fmt_rate(r['sk']):>12} {ratio:>6.3g}x {rf:>6.3g}x {t:>7} {v:4}/{vf:4}"
              f" {mem:>22}  {r['check']}", flush=True)
    print("every = record='every' (Widrow-Hoff: the (T+1, d) history; PA: one row per update); "
          "final = record='final' (first and final weights, like the peer).")
    return misses


def expert_rows(T: int, n: int, river_rounds: int, seed: int, repeat: int):
    """Hedge on 0/1 losses and on continuous losses, Weighted Majority, beside River's EWARegressor.

    River's regressor i predicts feature i; its squared loss (x_i - y)^2 is Hedge's loss.  On the
    0/1 advice that is the 0/1 loss [x_i != y]; the continuous stream has advice and outcomes
    uniform in [0, 1], so the losses (x_i - y)^2 are arbitrary floats (no table of exponentials).
    Weighted Majority runs with beta = e^{-eta}: then its weights are EWA's on the 0/1 loss.
    """
    rng = np.random.default_rng(seed)
    s = streams.expert_error_rates(T, rng.uniform(0.1, 0.5, size=n), seed=seed)
    X, y = s.X, s.y
    L = (X != y[:, None]).astype(float)
    Pc = rng.random((T, n))                          # continuous advice and outcomes in [0, 1]
    qc = rng.random(T)
    Lc = (Pc - qc[:, None]) ** 2
    eta = math.sqrt(8 * math.log(n) / T)
    beta = math.exp(-eta)
    runs = {"hedge": lambda rec="every": experts.hedge(L, eta, record=rec),
            "hedge_c": lambda rec="every": experts.hedge(Lc, eta, record=rec),
            "wm": lambda rec="every": experts.weighted_majority(X, y, beta, record=rec)}
    out = {}
    m = min(T, river_rounds)

    def river_data(A, b):
        return [dict(enumerate(r)) for r in A[:m].astype(float).tolist()], [float(v) for v in b[:m]]

    data = {"01": river_data(X, y), "c": river_data(Pc, qc)}

    def ewa(key):
        rows, targets = data[key]
        model = river_ewa(n, eta)
        for x, t in zip(rows, targets):
            model.learn_one(x, t)
        return model

    rv = {}
    for key, run in runs.items():     # each olcore run timed in turn with River on the same losses
        run()
        t_ev, t_fin, t_peer = best_of_each([run, lambda: run("final"), lambda: ewa("c" if key == "hedge_c" else "01")],
                                           repeat)
        out[key], out[key + "_final"] = T / t_ev, T / t_fin
        out[key + "_mem"] = (peak_mb(run), peak_mb(lambda: run("final")))
        rv[key] = m / t_peer
    # same algorithm: River's weights after m rounds equal Hedge's allocation v_{m+1} (same losses,
    # same eta), and WM's with beta = e^{-eta} on the 0/1 loss
    w01, wc = np.asarray(ewa("01").weights), np.asarray(ewa("c").weights)
    agree = {"hedge": np.allclose(w01, experts.hedge(L[:m], eta).weights_at(m), rtol=1e-9, atol=1e-12),
             "hedge_c": np.allclose(wc, experts.hedge(Lc[:m], eta).weights_at(m), rtol=1e-9, atol=1e-12),
             "wm": np.allclose(w01, experts.weighted_majority(X[:m], y[:m], beta).weights_at(m), rtol=1e-9,
                               atol=1e-12)}
    out.update({"rv": rv, "rv_rounds": m, "T": T,
                "n": n, "eta": eta, "agree": agree})
    return out


def print_experts(r) -> list[str]:
    misses = []
    head = (f"{'algorithm':<27}{'n':>6}{'T':>6} {'every r/s':>10} {'final r/s':>10} {'River r/s':>10}"
            f" {'every':>8} {'final':>8} {'target':>8} {'':9} {'peak MB every/final':>20}  check")
    print(head)
    print("-" * len(head))
    rows = (("Hedge (0/1 losses)", "hedge", "Hedge"), ("Hedge (continuous losses)", "hedge_c", "Hedge"),
            ("Weighted Majority", "wm", "Weighted Majority"))
    for name, key, algo in rows:
        rv = r["rv"][key]
        ratio, rf = r[key] / rv, r[key + "_final"] / rv
        ts, v = verdict(algo, "River", "-", ratio)
        _, vf = verdict(algo, "River", "-", rf)
        if v == "MISS" or vf == "MISS":
            misses.append(f"{name} n={r['n']}: {ratio:.3g}x River EWARegressor with record='every', {rf:.3g}x "
                          f"with record='final' (target {ts})")
        mem = "/".join(f"{m:.0f}" for m in r[key + "_mem"])
        check = "w == River" if r["agree"][key] else "w != River!"
        print(f"{name:<27}{r['n']:>6}{r['T']:>6} {fmt_rate(r[key]):>10} {fmt_rate(r[key + '_final']):>10}"
              f" {fmt_rate(rv):>10} {ratio:>7.3g}x {rf:>7.3g}x {ts:>8} {v:4}/{vf:4} {mem:>20}  {check}")
    print(f"River: EWARegressor over {r['n']} trivial regressors (regressor i predicts expert i's advice, so its "
          f"squared loss is the loss Hedge sees), learning_rate = eta = {r['eta']:.4g}, timed on the first "
          f"{r['rv_rounds']} rounds (its cost per round does not depend on t); check: its weights after those "
          "rounds equal olcore's (Weighted Majority with beta = e^-eta).  every = record='every' (the (T+1) x n "
          "allocation table), final = record='final'.")
    return misses


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="T = 10^4 and fewer River rounds (smoke run)")
    ap.add_argument("--rounds", type=int, default=100_000, help="T for Perceptron and Winnow")
    ap.add_argument("--dims", type=int, nargs="+", default=[2, 20, 200])
    ap.add_argument("--river-rounds", type=int, default=None,
                    help="River's rounds per stream (default 20000 for d <= 20, 5000 for d = 200)")
    ap.add_argument("--experts", type=int, default=1000, help="n for Hedge / Weighted Majority")
    ap.add_argument("--expert-rounds", type=int, default=5_000,
                    help="T for Hedge / Weighted Majority (T * n <= 5 * 10^6, olcore's input cap)")
    ap.add_argument("--river-expert-rounds", type=int, default=500, help="River EWARegressor's rounds")
    ap.add_argument("--repeat", type=int, default=5, help="best of this many timings (taken in turn with the peer's)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", choices=["linear", "regression", "experts"], default=None)
    args = ap.parse_args(argv)
    if args.quick:
        args.rounds, args.expert_rounds, args.river_expert_rounds = 10_000, 2_000, 100
    T = args.rounds
    rr = {d: (args.river_rounds or (20_000 if d <= 20 else 5_000)) for d in args.dims}
    if args.quick and args.river_rounds is None:
        rr = {d: 2_000 for d in args.dims}

    import river
    import sklearn

    print(f"# throughput: rounds per second (best of {args.repeat}, time.perf_counter)")
    import numba

    print(f"# python {platform.python_version()}, numpy {np.__version__}, numba {numba.__version__}, "
          f"scikit-learn {sklearn.__version__}, river {river.__version__}; {os.cpu_count()} CPUs; "
          f"load average {os.getloadavg()[0]:.2f} at start")
    olcore.warm()
    misses: list[str] = []
    if args.only in (None, "linear"):
        print(f"\n## Perceptron and Winnow: T = {T:,}; River on the first {sorted(set(rr.values()))} rounds; "
              f"sklearn = Perceptron.fit, one ordered epoch (load average {os.getloadavg()[0]:.2f})")
        if T * max(args.dims) > streams.MAX_CELLS:
            print(f"## streams.MAX_CELLS ({streams.MAX_CELLS:,}, the app's guard) lifted for the generators here")
        print("## Winnow rows: peers run their Perceptron on the same disjunction rows (no library has Winnow)")
        misses += print_linear(linear_rows(T, args.dims, rr, args.seed, args.repeat))
    if args.only in (None, "regression"):
        print(f"\n## Widrow-Hoff, PA-I, PA-II: T = {T:,}, d = 20; sklearn = SGDRegressor / SGDClassifier one ordered "
              f"epoch (load average {os.getloadavg()[0]:.2f})")
        misses += print_regression(regression_rows(T, 20, args.seed, args.repeat))
    if args.only in (None, "experts"):
        print(f"\n## Experts: n = {args.experts}, T = {args.expert_rounds:,} (load average {os.getloadavg()[0]:.2f})")
        misses += print_experts(expert_rows(args.expert_rounds, args.experts, args.river_expert_rounds,
                                            args.seed, args.repeat))
    print(f"\n# load average {os.getloadavg()[0]:.2f} at end")
    if misses:
        print("# MISSED targets:")
        for m in misses:
            print("#   " + m)
    else:
        print("# all targets met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
