"""Which performance machinery pays: each piece measured on and off, on the same workload, interleaved.

    python -m benchmarks.machinery             # about 7 min on the 2-core machine
    python -m benchmarks.machinery --quick     # about 2 min: fewer repetitions and rounds, /perceptron only
    python -m benchmarks.machinery --part inproc --only raw_figure

A piece of machinery stays only if it buys at least 10 % of a rerun's or a play's cost today.
For each piece the same workload runs with the piece on and with it off, the two sides taking turns
(ABAB..., the order swapped every pair, or rotated every round), so the other work on the machine
falls on both sides alike.  The table gives the median of each side with its quartiles, the share
of the cost the piece buys, ``(off - on) / off``, how many pairs (or rounds) were cheaper with it on,
and the verdict: KEEP when the share is 10 % or more on some workload, else DROP.

The pieces:

=================  =====================================================  ========================================
piece              on                                                     off (what the benchmark puts instead)
=================  =====================================================  ========================================
``memo``           ``olapp.cache.memo`` (tokens, per-object stream and    ``st.cache_resource(max_entries=96,
                   array keys, shared results)                            hash_funcs=...)`` per memoised function:
                                                                          a Stream hashed by ``stream_hash`` on
                                                                          every call, an olcore result by ``id``
                                                                          (written here, patched in)
``collect_less``   ``olapp.serving.collect_less``: gc threshold 20,000    Python's default 700
``plotly_dict``    the hook in ``olapp.compat``                           ``fig.to_dict()`` (``OLAB_HOOKS_OFF``)
``chart_element``  the hook in ``olapp.compat``                           ``st.plotly_chart`` (``OLAB_HOOKS_OFF``)
``turns``          ``olapp.turns.TURNS`` (runs take turns)                ``turn()`` and ``aside()`` patched to do
                                                                          nothing in the server process
``json_memo``      a figure's JSON kept per figure                        ``controls._spec`` on every draw
                   (``controls.chart``'s ``per_object``)                  (``controls.cache`` proxied here)
``raw_figure``     ``RawFigure`` for Play's frames (``figures.RAW``)      ``Fig.build`` makes a ``go.Figure`` while
                                                                          the frames are built
=================  =====================================================  ========================================

Two servers run with nothing off (``base`` and ``base2``): a served row's "on" is their mean, and the
"A/A control" rows (``base2`` against ``base``) show how far two processes of the same code differ on
the same workloads (up to about 10 % here on a hall's CPU per rerun): the noise floor of the served rows.

Two ways of measuring, both with the app's code unchanged on disk:

* **in process** (``--part inproc``): ``AppTest`` from ``app.py`` as in :mod:`benchmarks.pages`
  (one ``ScriptCache``), the CPU time of this process (``time.process_time``: the script thread and
  AppTest's own handling of the messages, a few ms a rerun, so shares here are slight
  underestimates) for one rerun: nothing changed (warm), a new round of the player, a new seed,
  and one Play (the Play press that builds the frames, with the play's memo tables emptied first,
  and the Pause after it).  A toggle is switched between two runs; each side has a session and a
  seed of its own.
* **served** (``--part served``): one server per variant, all started at once by this module
  (``python -m benchmarks.machinery --server VARIANT``: it applies the variant in the server's own
  process, then runs ``streamlit run app.py``), driven by :class:`scripts.stclient.Session` as in
  :mod:`benchmarks.load`.  Each round visits every server in a rotated order: 16 warm reruns of
  one session (``--warm-reruns``); ``--sessions`` (20) sessions open /perceptron at once (a page
  load), then rerun 3 times at once with seeds of their own, then 3 times with seeds shared by all
  of them.  CPU is
  the server process's CPU clock (``clock_gettime`` on the process, all threads, ns).  The warm
  reruns take turns rerun by rerun across the servers (each a pair with the base server's rerun of
  the same turn); the hall's figures are one value per server and round (CPU per load or rerun over
  the phase, p95 of the phase's 60 rerun latencies, resident memory after the round).

Only 127.0.0.1 is contacted; every server is stopped on every exit path.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import inspect
import json
import logging
import math
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

from benchmarks.load import cpu_seconds, rss_mb

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app.py"
THRESHOLD = 0.10        # a piece stays if it buys at least this share of a cost
BLAS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


# -- statistics -------------------------------------------------------------------------------------
def quantile(xs, q: float) -> float:
    xs = sorted(xs)
    if not xs:
        return float("nan")
    pos = (len(xs) - 1) * q
    lo, hi = math.floor(pos), math.ceil(pos)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def p95(xs) -> float:
    """The 95th percentile by the nearest rank (as benchmarks.load)."""
    xs = sorted(xs)
    return xs[max(0, min(len(xs) - 1, math.ceil(0.95 * len(xs)) - 1))] if xs else float("nan")


@dataclasses.dataclass
class Row:
    piece: str
    workload: str
    unit: str
    on: list[float]
    off: list[float]
    note: str = ""
    info: bool = False          # a figure that explains the others, not a cost the verdict reads
    how: str = ""

    @property
    def share(self) -> float:
        a, b = statistics.median(self.on), statistics.median(self.off)
        return (b - a) / b if b else float("nan")

    @property
    def wins(self) -> str:
        return f"{sum(a < b for a, b in zip(self.on, self.off))}/{min(len(self.on), len(self.off))}"

    @property
    def verdict(self) -> str:
        if self.piece == "A/A control":
            return "(noise)"
        if self.info:
            return "(info)"
        return "KEEP" if self.share >= THRESHOLD else "DROP"


def fmt(x: float, unit: str) -> str:
    return f"{x:.2f}" if unit == "s" else f"{x:.0f}" if unit == "MB" else f"{x:.1f}"


def print_table(rows: list[Row]) -> None:
    head = (f"{'piece':<14} {'workload':<60} {'measured':<18} {'median on [IQR]':>22} {'median off [IQR]':>22} "
            f"{'buys':>6} {'on<off':>6}  verdict")
    print(head)
    print("-" * len(head))
    for r in rows:
        on = f"{fmt(statistics.median(r.on), r.unit)} [{fmt(quantile(r.on, .25), r.unit)}-{fmt(quantile(r.on, .75), r.unit)}]"
        off = f"{fmt(statistics.median(r.off), r.unit)} [{fmt(quantile(r.off, .25), r.unit)}-{fmt(quantile(r.off, .75), r.unit)}]"
        share = f"{100 * r.share:>5.0f}%" if math.isfinite(r.share) else f"{'-':>6}"
        print(f"{r.piece:<14} {r.workload[:60]:<60} {r.how:<18} {on:>22} {off:>22} {share} {r.wins:>6}  {r.verdict}")
    print()
    pieces: dict[str, list[Row]] = {}
    for r in rows:
        pieces.setdefault(r.piece, []).append(r)
    for piece, rs in pieces.items():
        if piece == "A/A control":
            worst = max(rs, key=lambda r: abs(r.share))
            print(f"# A/A control (two base servers): differences up to {100 * abs(worst.share):.0f} % "
                  f"(\"{worst.workload}\", {worst.how}): the noise floor of the served rows")
            continue
        rs = [r for r in rs if not r.info and math.isfinite(r.share)] or rs
        best = max(rs, key=lambda r: r.share)
        verdict = "KEEP" if best.share >= THRESHOLD else "DROP"
        print(f"# {piece}: {verdict} (largest share {100 * best.share:.0f} % on \"{best.workload}\", {best.how})")
    for r in rows:
        if r.note:
            print(f"#   {r.piece}, {r.workload} ({r.how}): {r.note}")


# -- the machine's load -----------------------------------------------------------------------------
def _busy() -> float:
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return (sum(v[:8]) - v[3] - v[4]) / os.sysconf("SC_CLK_TCK")


class Load:
    """The machine's load over a part: load averages, and the CPU other work used (all CPU busy time
    less this process's and its servers')."""

    def __init__(self) -> None:
        self.t0, self.busy0, self.self0, self.la0 = time.monotonic(), _busy(), time.process_time(), os.getloadavg()

    def line(self, servers_cpu: float = 0.0) -> str:
        wall = time.monotonic() - self.t0
        other = _busy() - self.busy0 - (time.process_time() - self.self0) - servers_cpu
        la1 = os.getloadavg()
        return (f"{wall:.0f} s; load average {'/'.join(f'{x:.2f}' for x in self.la0)} at the start, "
                f"{'/'.join(f'{x:.2f}' for x in la1)} at the end (1/5/15 min); other work used "
                f"{max(0.0, other) / wall:.2f} of the {os.cpu_count()} cores meanwhile")


# -- the public alternative to olapp.cache.memo --------------------------------------------------------
def resource_memo(max_entries: int | None = None):
    """``memo(fn, *args, **kwargs)`` on ``st.cache_resource``: one cached function per memoised function
    (``max_entries`` each, as ``olapp.cache.MAX_ENTRIES``), the same object returned to every caller.

    ``hash_funcs``: a :class:`olcore.stream.Stream` by its content (``olapp.cache.stream_hash``, on every
    call: the public API has no per-object memo), every other olcore dataclass (an analysis, a Trace, a
    report: results handed on to figure builders) by ``id``, functions by their name.  (``id`` is
    correct while the result lives; an app would have to keep results alive while they key entries.
    Without a hash function for the results, Streamlit hashes a dataclass through ``dataclasses.asdict``,
    which deep-copies it, and fails on this app's results.)
    An argument Streamlit cannot hash makes the call run uncached, as ``memo`` does."""
    import importlib
    import pkgutil

    import streamlit as st
    from streamlit.runtime.caching.cache_errors import UnhashableParamError

    import olcore
    from olapp import cache
    from olcore.stream import Stream

    max_entries = max_entries or cache.MAX_ENTRIES
    hash_funcs: dict = {Stream: cache.stream_hash,
                        types.FunctionType: lambda f: (f.__module__, f.__qualname__),
                        types.MethodType: lambda m: (m.__func__.__module__, m.__func__.__qualname__, id(m.__self__))}
    for mod in pkgutil.walk_packages(olcore.__path__, "olcore."):
        try:
            module = importlib.import_module(mod.name)
        except Exception:  # noqa: BLE001 - a module being edited: its types are hashed by Streamlit's default
            continue
        for obj in vars(module).values():
            if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj is not Stream:
                hash_funcs.setdefault(obj, id)
    wrapped: dict = {}
    uncached: dict[str, int] = {}

    def memo(fn, *args, **kwargs):
        if inspect.ismethod(fn):
            base, args = fn.__func__, (fn.__self__, *args)
        else:
            base = fn
        cached = wrapped.get(base)
        if cached is None:
            def call(*a, **kw):
                return base(*a, **kw)
            # the cache's key is the function's module, qualified name and source: one per function
            call.__qualname__ = f"memo[{getattr(base, '__module__', '')}.{getattr(base, '__qualname__', repr(base))}]"
            cached = wrapped[base] = st.cache_resource(call, max_entries=max_entries, show_spinner=False,
                                                       hash_funcs=hash_funcs)
        try:
            return cached(*args, **kwargs)
        except UnhashableParamError:
            name = getattr(base, "__qualname__", repr(base))
            uncached[name] = uncached.get(name, 0) + 1
            return base(*args, **kwargs)

    memo.uncached = uncached          # calls Streamlit could not key, by function
    return memo


# -- the variants, applied in a server's own process ---------------------------------------------------
SERVED = ("base", "base2", "collect_less", "turns", "memo", "chart_element", "plotly_dict")


def apply_variant(variant: str) -> None:
    """Switch one piece off in this process, before Streamlit imports app.py (``base``: nothing)."""
    if variant in ("chart_element", "plotly_dict"):
        os.environ["OLAB_HOOKS_OFF"] = variant
    elif variant == "collect_less":
        from olapp import serving
        serving.collect_less = lambda: None
    elif variant == "turns":
        from olapp import turns
        turns.TURNS.turn = contextlib.nullcontext          # an instance attribute hides the method
        turns.TURNS.aside = contextlib.nullcontext
    elif variant == "memo":
        from olapp import cache
        cache.memo = resource_memo()
    elif variant != "base":
        raise SystemExit(f"unknown variant {variant!r}")


def server_main(variant: str, port: int, status_path: str) -> None:
    """``python -m benchmarks.machinery --server VARIANT --port P``: ``streamlit run app.py`` with one
    piece off (``base2``: none, a second base server, the A/A control); four times a second it writes
    what is in force (gc threshold, hooks, turns, memo) and the garbage collector's time so far to
    ``status_path``."""
    import threading

    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    for var in BLAS:
        os.environ.setdefault(var, "1")
    apply_variant("base" if variant == "base2" else variant)
    from olapp import cache, compat, turns        # here, not in the thread below: imports racing one another fail
    import gc

    collected = {"time": [0.0, 0.0, 0.0], "count": [0, 0, 0], "long": []}    # long: (wall clock, generation, s)
    started: list[float] = [0.0]

    def on_gc(phase: str, info: dict) -> None:           # (a collection holds the GIL from start to stop)
        if phase == "start":
            started[0] = time.perf_counter()
            return
        d, g = time.perf_counter() - started[0], info["generation"]
        collected["time"][g] += d
        collected["count"][g] += 1
        if d >= 0.005:
            collected["long"].append((time.time(), g, d))

    gc.callbacks.append(on_gc)

    def _write(st: dict) -> None:                         # atomically: the client reads it meanwhile
        Path(status_path + ".tmp").write_text(json.dumps(st))
        os.replace(status_path + ".tmp", status_path)

    def report() -> None:
        while True:
            time.sleep(0.25)
            try:
                st = {"variant": variant, "gc": gc.get_threshold(),
                      "collected": {k: list(v) for k, v in collected.items()},     # (copies: a collection may add)
                      "hooks_off": sorted(k for k, v in compat._status.items() if v is not None),
                      "turns": "turn" not in vars(turns.TURNS), "memo": cache.memo.__module__}
                _write(st)
            except Exception as exc:  # noqa: BLE001
                _write({"error": repr(exc)})

    threading.Thread(target=report, daemon=True).start()
    from streamlit.web import cli
    sys.argv = ["streamlit", "run", str(APP), "--server.address", "127.0.0.1", "--server.port", str(port),
                "--server.headless", "true", "--browser.gatherUsageStats", "false",
                "--server.fileWatcherType", "none"]
    cli.main()


# -- in process: AppTest ------------------------------------------------------------------------------
class Toggles:
    """Each in-process piece's switch: ``with toggles.off(piece):`` runs with it off."""

    def __init__(self) -> None:
        from olapp import cache, compat, controls, figures

        self.cache, self.compat, self.controls, self.figures = cache, compat, controls, figures
        self.status = compat.status()            # every hook checked once, so a switch costs nothing
        self.memo_on = cache.memo
        self.memo_off = resource_memo()
        self.notes: dict[str, str] = {}
        for name in ("plotly_dict", "chart_element"):
            if self.status.get(name) is not None:
                self.notes[name] = f"the hook is already off here ({self.status[name]}): on = off"

    @contextlib.contextmanager
    def off(self, piece: str):
        c = self
        if piece == "memo":
            c.cache.memo = c.memo_off
            try:
                yield
            finally:
                c.cache.memo = c.memo_on
        elif piece in ("plotly_dict", "chart_element"):
            saved = c.compat._status.get(piece)
            c.compat._status[piece] = "switched off (benchmarks.machinery)"
            try:
                yield
            finally:
                c.compat._status[piece] = saved
        elif piece == "json_memo":
            real = c.controls.cache

            class NoSpecMemo:
                def __getattr__(self, name):
                    return getattr(real, name)

                @staticmethod
                def per_object(obj, slot, compute):
                    if isinstance(slot, tuple) and slot and slot[0] == "spec":
                        return compute()
                    return real.per_object(obj, slot, compute)

            c.controls.cache = NoSpecMemo()
            try:
                yield
            finally:
                c.controls.cache = real
        elif piece == "raw_figure":
            Fig, RAW = c.figures.Fig, c.figures.RAW
            build = Fig.build

            def plain_build(self, layout, *, height=420):
                token = RAW.set(False)
                try:
                    return build(self, layout, height=height)
                finally:
                    RAW.reset(token)

            Fig.build = plain_build
            try:
                yield
            finally:
                Fig.build = build
        else:
            raise KeyError(piece)


_seeds = iter(range(50_000, 10**9))


class Side:
    """One side of a comparison: an AppTest session of its own (its own seed) on a page."""

    def __init__(self, page: str, timeout: float, sliders: dict | None = None, seed: int | None = None):
        from benchmarks.pages import new_app

        self.at = new_app(page, timeout)
        self.at.run()
        self.seed(seed if seed is not None else next(_seeds))
        for key, value in (sliders or {}).items():
            self.at.slider(key=key).set_value(value)
        self.at.run()
        self._check()
        T = int(self.at.slider(key="t").max) if self._has("slider", "t") else 0
        self.rounds = random.Random(7).sample(range(T + 1), T + 1)      # the same rounds on both sides

    def _has(self, kind: str, key: str) -> bool:
        return any(w.key == key for w in self.at.get(kind))

    def _check(self) -> None:
        if self.at.exception:
            raise RuntimeError("; ".join((e.message or "").splitlines()[0][:200] for e in self.at.exception))

    def seed(self, s: int) -> None:
        self.at.number_input(key="seed").set_value(s)

    def warm(self) -> None:
        self.at.run()

    def new_seed(self) -> None:
        self.seed(next(_seeds))
        self.at.run()

    def new_round(self) -> None:
        cur = self.at.slider(key="t").value
        r = self.rounds.pop()
        if r == cur:
            r = self.rounds.pop()
        self.at.slider(key="t").set_value(r)
        self.at.run()

    def play(self, cache) -> None:
        """One Play from round 0 with its frames built (the play's memo tables emptied first), then Pause."""
        for name in [n for n in list(cache._tables) if n[0] == "olapp.animation" or n[1] == "_with_frames"]:
            del cache._tables[name]
        self.at.button(key="t_playbtn").click()
        self.at.run()
        self.frames = sum(len(c.proto.spec) for c in self.at.get("plotly_chart") if "olab_frames" in c.proto.spec)
        self.at.button(key="t_playbtn").click()
        self.at.run()


def compare_inproc(toggles: Toggles, piece: str, page: str, action: str, pairs: int, timeout: float,
                   sliders: dict | None = None) -> tuple[list[float], list[float], str]:
    """``pairs`` runs of ``action`` on each side, the sides taking turns (on, off, off, on, ...);
    the CPU milliseconds of this process for each."""
    same = next(_seeds) if action == "play" else None       # a play: the same run on both sides
    on, off = Side(page, timeout, sliders, same), None
    with toggles.off(piece):
        off = Side(page, timeout, sliders, same)
    note = ""

    def once(side: Side, switched: bool) -> float:
        do = (lambda: side.play(toggles.cache)) if action == "play" else getattr(side, action)
        with toggles.off(piece) if switched else contextlib.nullcontext():
            t0 = time.process_time()
            do()
            dt = time.process_time() - t0
        side._check()
        return 1000 * dt

    for warmup in range(2 if action != "play" else 1):      # untimed: imports, first compiles, caches
        once(on, False)
        once(off, True)
    a, b = [], []
    for i in range(pairs):
        order = ((on, False), (off, True)) if i % 2 == 0 else ((off, True), (on, False))
        for side, switched in order:
            (b if switched else a).append(once(side, switched))
    if action == "play":
        note = f"frames JSON sent: {on.frames / 1e6:.2f} MB on, {off.frames / 1e6:.2f} MB off"
    return a, b, note


def part_inproc(args) -> list[Row]:
    os.chdir(ROOT)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    for var in BLAS:
        os.environ.setdefault(var, "1")
    from benchmarks.pages import LOG, new_app, share_script_cache

    share_script_cache()
    logging.getLogger("streamlit.error_util").addHandler(LOG)
    logging.getLogger("streamlit").setLevel(logging.ERROR)
    warm = new_app("home", args.timeout)
    warm.run()
    import olcore
    olcore.warm()
    toggles = Toggles()
    n = args.pairs
    P = "/perceptron"
    plan = [
        ("memo", "perceptron", "warm", n, None, f"a warm rerun of {P} at defaults"),
        ("memo", "perceptron", "new_round", n, None, f"a rerun at a new round of {P} (Step/scrub)"),
        ("memo", "perceptron", "new_seed", max(4, n // 2), None, f"a rerun of {P} with a new seed"),
        ("plotly_dict", "perceptron", "new_round", n, None, f"a rerun at a new round of {P}"),
        ("plotly_dict", "perceptron", "new_seed", max(4, n // 2), None, f"a rerun of {P} with a new seed"),
        ("chart_element", "perceptron", "warm", n, None, f"a warm rerun of {P} at defaults"),
        ("chart_element", "perceptron", "new_round", n, None, f"a rerun at a new round of {P}"),
        ("json_memo", "perceptron", "warm", n, None, f"a warm rerun of {P} at defaults"),
        ("raw_figure", "perceptron", "play", max(3, n // 3), None, f"one play of {P} (T = 60): Play + Pause"),
        ("chart_element", "perceptron", "play", max(3, n // 3), None, f"one play of {P} (T = 60): Play + Pause"),
        ("plotly_dict", "perceptron", "play", max(3, n // 3), None, f"one play of {P} (T = 60): Play + Pause"),
    ]
    if not args.quick:
        W = "/wm_vs_hedge"
        big = {"T": 2000}
        plan += [
            ("memo", "wm_vs_hedge", "warm", n, None, f"a warm rerun of {W} at defaults"),
            ("memo", "wm_vs_hedge", "new_seed", max(4, n // 3), None, f"a rerun of {W} with a new seed"),
            ("plotly_dict", "perceptron", "new_round", max(4, n // 2), big, f"a rerun at a new round of {P}?T=2000"),
            ("chart_element", "wm_vs_hedge", "warm", n, None, f"a warm rerun of {W} at defaults"),
            ("json_memo", "wm_vs_hedge", "warm", n, None, f"a warm rerun of {W} at defaults"),
            ("raw_figure", "perceptron", "play", 3, big, f"one play of {P}?T=2000: Play + Pause"),
        ]
    if args.only:
        plan = [p for p in plan if p[0] in args.only]
    rows = []
    for piece, page, action, pairs, sliders, label in plan:
        t0 = time.monotonic()
        try:
            a, b, note = compare_inproc(toggles, piece, page, action, pairs, args.timeout, sliders)
        except Exception as exc:  # noqa: BLE001 - reported, the other rows go on
            print(f"# {piece}, {label}: FAILED {type(exc).__name__}: {exc}", flush=True)
            continue
        if piece == "memo" and toggles.memo_off.uncached:
            note += f"st.cache_resource could not key (ran uncached): {toggles.memo_off.uncached}"
        note = "; ".join(x for x in (note, toggles.notes.get(piece, "")) if x)
        rows.append(Row(piece, label + ", CPU ms", "ms", a, b, note, how=f"in process, {len(a)} pairs"))
        r = rows[-1]
        print(f"#   {piece:<14} {label:<52} on {statistics.median(a):7.1f} off {statistics.median(b):7.1f} ms "
              f"({100 * r.share:+.0f} %, {r.wins} pairs cheaper on; {time.monotonic() - t0:.0f} s)", flush=True)
    return rows


# -- served: one server per variant -----------------------------------------------------------------
def process_cpu(pid: int) -> float:
    """CPU seconds of process ``pid`` (every thread, dead ones included), from its CPU clock."""
    try:
        return time.clock_gettime(((~pid) << 3) | 2)     # MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)
    except OSError:
        return cpu_seconds(pid)          # /proc's ticks (benchmarks.load)


class Server:
    def __init__(self, variant: str, tmp: str):
        from scripts.served_app import free_port

        self.variant, self.port = variant, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.status_path = os.path.join(tmp, f"{variant}.status")
        self.log = open(os.path.join(tmp, f"{variant}.log"), "w+b")
        env = {k: v for k, v in os.environ.items() if k != "OLAB_HOOKS_OFF"}
        self.proc = subprocess.Popen([sys.executable, "-m", "benchmarks.machinery", "--server", variant,
                                      "--port", str(self.port), "--status", self.status_path],
                                     cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.pid = self.proc.pid
        self.rounds: list[dict] = []
        self.warm_session = None
        self.gc_seen, self.gc_full_seen = 0.0, 0

    def cpu(self) -> float:
        return process_cpu(self.pid)

    def status(self) -> dict:
        for _ in range(5):
            try:
                return json.loads(Path(self.status_path).read_text())
            except (OSError, ValueError):
                time.sleep(0.1)
        return {}

    def stop(self) -> None:
        from scripts.served_app import stop
        stop(self.proc)
        self.log.close()


async def warm_reruns(order: list[Server], k: int, args) -> None:
    """Warm reruns (nothing changed) of each server's own session, the servers taking turns rerun by
    rerun; the server's CPU for each rerun (its process CPU clock, read before and after)."""
    for s in order:
        s.rounds.append({"errors": [], "warm": []})
    for _ in range(args.warm_reruns):
        for s in order:
            c0 = s.cpu()
            run = await s.warm_session.set_widget("seed", 7)
            s.rounds[k]["warm"].append(1000 * (s.cpu() - c0))
            if not run.ok:
                s.rounds[k]["errors"].append(f"warm: {run.status} {run.errors[:1]}")


async def hall(srv: Server, k: int, args) -> None:
    """``--sessions`` sessions open one link at once, then rerun 3 times at once with seeds of their own,
    then 3 times with seeds shared by all of them."""
    from scripts.stclient import Session

    out = srv.rounds[k]
    n = args.sessions
    base_seed = 1_000_000 * (k + 1)
    sessions = [Session(srv.base, "perceptron", f"seed={base_seed + 900}", timeout=args.run_timeout)
                for i in range(n)]             # arrivals on one link (its run computed once, by the first)
    try:
        c0 = srv.cpu()
        loads = await asyncio.gather(*(x.connect() for x in sessions), return_exceptions=True)
        out["load_cpu"] = 1000 * (srv.cpu() - c0) / n
        live = [x for x, r in zip(sessions, loads) if not isinstance(r, BaseException)]
        out["errors"] += [f"load: {r!r}"[:160] for r in loads if isinstance(r, BaseException)]

        async def wave(seed_of) -> tuple[float, list[float]]:
            lat: list[float] = []

            async def loop(i: int, x) -> None:
                for j in range(1, 4):
                    run = await x.set_widget("seed", seed_of(i, j))
                    lat.append(run.seconds)
                    if not run.ok:
                        out["errors"].append(f"rerun: {run.status} {run.errors[:1]}")

            c0 = srv.cpu()
            done = await asyncio.gather(*(loop(i, x) for i, x in enumerate(live)), return_exceptions=True)
            out["errors"] += [f"rerun: {r!r}"[:160] for r in done if isinstance(r, BaseException)]
            return 1000 * (srv.cpu() - c0) / max(1, len(lat)), lat

        out["own_cpu"], own = await wave(lambda i, j: base_seed + 10 * i + j)
        out["own_p95"], out["own_lat"] = p95(own), own
        out["shared_cpu"], shared = await wave(lambda i, j: base_seed + 500 + j)
        out["shared_p95"], out["shared_lat"] = p95(shared), shared
    finally:
        await asyncio.gather(*(x.close() for x in sessions), return_exceptions=True)
    out["rss"] = rss_mb(srv.pid)


#: (metric, unit, workload) per piece measured on the served app.
SERVED_ROWS = {
    "base2": [("warm", "ms", "a warm rerun of /perceptron at defaults, server CPU ms"),
              ("load_cpu", "ms", "a page load: {n} sessions open one link at once, CPU ms each"),
              ("own_cpu", "ms", "{n} sessions rerunning at once, own seeds, server CPU ms/rerun"),
              ("shared_cpu", "ms", "{n} sessions rerunning at once, shared seeds, CPU ms/rerun"),
              ("own_p95", "s", "{n} sessions rerunning at once, own seeds, p95 s"),
              ("shared_p95", "s", "{n} sessions rerunning at once, shared seeds, p95 s")],
    "collect_less": [("gc_time", "s", "time in the garbage collector per round, s"),
                     ("gc_max", "ms", "the longest collection in a round, ms"),("load_cpu", "ms", "a page load: {n} sessions open one link at once, CPU ms each"),
                     ("own_cpu", "ms", "{n} sessions rerunning at once, own seeds, server CPU ms/rerun"),
                     ("own_p95", "s", "{n} sessions rerunning at once, own seeds, p95 s"),
                     ("warm", "ms", "a warm rerun of /perceptron at defaults, server CPU ms")],
    "turns": [("own_p95", "s", "{n} sessions rerunning at once, own seeds, p95 s"),
              ("shared_p95", "s", "{n} sessions rerunning at once, shared seeds, p95 s"),
              ("own_cpu", "ms", "{n} sessions rerunning at once, own seeds, server CPU ms/rerun")],
    "memo": [("warm", "ms", "a warm rerun of /perceptron at defaults, server CPU ms"),
             ("own_cpu", "ms", "{n} sessions rerunning at once, own seeds, server CPU ms/rerun"),
             ("shared_cpu", "ms", "{n} sessions rerunning at once, shared seeds, CPU ms/rerun"),
             ("load_cpu", "ms", "a page load: {n} sessions open one link at once, CPU ms each"),
             ("rss", "MB", "the server's resident memory after each round, MB")],
    "chart_element": [("warm", "ms", "a warm rerun of /perceptron at defaults, server CPU ms"),
                      ("shared_cpu", "ms", "{n} sessions rerunning at once, shared seeds, CPU ms/rerun"),
                      ("load_cpu", "ms", "a page load: {n} sessions open one link at once, CPU ms each")],
    "plotly_dict": [("own_cpu", "ms", "{n} sessions rerunning at once, own seeds, server CPU ms/rerun")],
}


async def part_served_async(servers: list[Server], args) -> None:
    from scripts.served_app import wait_healthy
    from scripts.stclient import Session

    loop = asyncio.get_running_loop()
    await asyncio.gather(*(loop.run_in_executor(None, wait_healthy, s.base, 180.0, s.proc, None) for s in servers))
    for s in servers:                              # first views one at a time: imports, kernels, first run
        async with Session.open(s.base, "perceptron", "seed=1", timeout=args.run_timeout) as first:
            if not first.last.ok:
                raise RuntimeError(f"{s.variant}: first view {first.last.status} {first.last.errors[:1]}")
        s.warm_session = Session(s.base, "perceptron", "seed=7", timeout=args.run_timeout)
        await s.warm_session.connect()
        for _ in range(3):
            await s.warm_session.set_widget("seed", 7)
    await asyncio.sleep(0.6)
    for s in servers:
        c = s.status().get("collected", {})
        s.gc_seen, s.gc_full_seen = sum(c.get("time", [0.0])), c.get("count", [0, 0, 0])[2]
    print(f"#   {len(servers)} servers up and warm: " + ", ".join(s.variant for s in servers), flush=True)
    try:
        for k in range(args.rounds):
            order = servers[k % len(servers):] + servers[:k % len(servers)]
            if k % 2:
                order = order[::-1]
            t0 = time.monotonic()
            t_start = time.time()
            await warm_reruns(order, k, args)
            for s in order:
                await hall(s, k, args)
            await asyncio.sleep(0.6)                  # the servers' status: written four times a second
            for s in servers:
                c = s.status().get("collected", {})
                total = sum(c.get("time", [])) if c else float("nan")
                s.rounds[k]["gc_time"] = total - s.gc_seen
                s.gc_seen = total
                s.rounds[k]["gc_full"] = c.get("count", [0, 0, 0])[2] - s.gc_full_seen if c else float("nan")
                s.gc_full_seen = c.get("count", [0, 0, 0])[2] if c else 0
                s.rounds[k]["gc_max"] = 1000 * max((d for t, g, d in c.get("long", []) if t >= t_start), default=0.0)
            print(f"#   round {k + 1}/{args.rounds}: {time.monotonic() - t0:.0f} s, load average "
                  f"{os.getloadavg()[0]:.2f}; warm/own-seed CPU ms, p95 own/shared s: " + ", ".join(
                      f"{s.variant} {statistics.median(s.rounds[-1]['warm']):.1f}/{s.rounds[-1]['own_cpu']:.0f} "
                      f"{s.rounds[-1]['own_p95']:.2f}/{s.rounds[-1]['shared_p95']:.2f}" for s in servers), flush=True)
    finally:
        for s in servers:
            if s.warm_session is not None:
                await s.warm_session.close()


def part_served(args) -> tuple[list[Row], float]:
    """The served rows: each variant against the mean of the two base servers (``base``, ``base2``) in
    the same round (or, for warm reruns, the same turn); the A/A control row is ``base`` against ``base2``."""
    variants = ["base", "base2"] + [v for v in SERVED[2:] if not args.only or v in args.only]
    tmp = tempfile.mkdtemp(prefix="olab-machinery-")
    servers: list[Server] = []
    done = False
    try:
        for v in variants:
            servers.append(Server(v, tmp))
        asyncio.run(part_served_async(servers, args))
        used = sum(s.cpu() for s in servers)
        statuses = {s.variant: s.status() for s in servers}
        done = True
    finally:
        for s in servers:
            s.stop()
        if done:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"# the servers' logs: {tmp}", file=sys.stderr)
    for v, st in statuses.items():
        c = st.pop("collected", {})
        print(f"#   server {v}: {st}; collections (young, middle, full) {c.get('count')}, "
              f"{sum(c.get('time', [0.0])):.2f} s in all")
    base, base2 = servers[0], servers[1]

    def values(srv: Server | None, metric: str) -> list[float]:
        if srv is None:                           # the two base servers' mean, round by round (turn by turn)
            return [(a + b) / 2 for a, b in zip(values(base, metric), values(base2, metric))]
        if metric == "warm":
            return sum((r["warm"] for r in srv.rounds), [])
        return [r[metric] for r in srv.rounds]

    def latencies(srv: Server, metric: str) -> list[float]:
        return sum((r[metric.replace("p95", "lat")] for r in srv.rounds), [])

    rows = []
    n = args.sessions
    for s in servers[1:]:
        ref = base if s is base2 else None
        errors = sum(len(r["errors"]) for x in (base, base2, s) for r in x.rounds)
        for metric, unit, label in SERVED_ROWS.get(s.variant, []):
            note = f"{errors} errors" if errors else ""
            on, off = values(ref, metric), values(s, metric)
            how = f"served, {len(on)} {'pairs' if metric == 'warm' else 'rounds'}"
            if metric.endswith("p95"):
                lat_on = latencies(base, metric) + ([] if ref is base else latencies(base2, metric))
                note = "; ".join(x for x in (note, f"p95 over all rounds: on {p95(lat_on):.2f} s, "
                                                     f"off {p95(latencies(s, metric)):.2f} s") if x)
            if metric == "gc_time":
                note = "; ".join(x for x in (note, "full collections per round: on " + ", ".join(
                    f"{a}+{b}" for a, b in zip(values(base, "gc_full"), values(base2, "gc_full")))
                    + " (base+base2); off " + ", ".join(str(x) for x in values(s, "gc_full"))) if x)
            piece = "A/A control" if s is base2 else s.variant
            rows.append(Row(piece, label.format(n=n), unit, on, off, note, info=metric.startswith("gc_"), how=how))
    return rows, used


# -- main ----------------------------------------------------------------------------------------------
class HardLimit(BaseException):
    pass


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions and rounds, /perceptron only (about 2 min)")
    ap.add_argument("--part", choices=("all", "inproc", "served"), default="all")
    ap.add_argument("--only", action="append", default=None, help="only these pieces (repeatable)")
    ap.add_argument("--pairs", type=int, default=None, help="in process: on/off pairs per row (default 16, quick 8)")
    ap.add_argument("--rounds", type=int, default=None, help="served: rounds (default 6, quick 2)")
    ap.add_argument("--sessions", type=int, default=None, help="served: sessions at once (default 20, quick 10)")
    ap.add_argument("--warm-reruns", type=int, default=None, help="served: warm reruns per server and round (default 16, quick 8)")
    ap.add_argument("--timeout", type=float, default=120.0, help="AppTest timeout per run (s)")
    ap.add_argument("--run-timeout", type=float, default=60.0, help="served: one page load or rerun's timeout (s)")
    ap.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    ap.add_argument("--hard-limit", type=float, default=1500.0, help="the whole run stops after this (s)")
    ap.add_argument("--server", metavar="VARIANT", help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--status", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.server:
        server_main(args.server, args.port, args.status)
        return 0
    args.pairs = args.pairs or (8 if args.quick else 16)
    args.rounds = args.rounds or (2 if args.quick else 6)
    args.sessions = args.sessions or (10 if args.quick else 20)
    args.warm_reruns = args.warm_reruns or (8 if args.quick else 16)

    def _stop(*_):
        raise HardLimit("hard limit reached" if _ and _[0] == signal.SIGALRM else "terminated")

    signal.signal(signal.SIGALRM, _stop)
    signal.signal(signal.SIGTERM, _stop)
    signal.alarm(int(args.hard_limit))
    import streamlit

    print(f"# benchmarks.machinery{' --quick' if args.quick else ''}: streamlit {streamlit.__version__}, "
          f"{os.cpu_count()} CPUs, load average {'/'.join(f'{x:.2f}' for x in os.getloadavg())} at the start")
    rows: list[Row] = []
    loads = []
    try:
        if args.part in ("all", "inproc"):
            print(f"## in process (AppTest, {args.pairs} on/off pairs per row, taking turns)", flush=True)
            load = Load()
            rows += part_inproc(args)
            loads.append(f"in process: {load.line()}")
            print(f"#   {loads[-1]}", flush=True)
        if args.part in ("all", "served"):
            print(f"## served (one server per variant, {args.rounds} rounds, servers in a rotated order; "
                  f"{args.sessions} sessions)", flush=True)
            load = Load()
            served_rows, used = part_served(args)
            rows += served_rows
            loads.append(f"served: {load.line(used)}")
            print(f"#   {loads[-1]}", flush=True)
    except (HardLimit, KeyboardInterrupt) as exc:
        print(f"# stopped: {exc or type(exc).__name__} (servers stopped)", file=sys.stderr)
    finally:
        signal.alarm(0)
    print()
    print(f"# buys = (median off - median on) / median off: the share of the cost without the piece that it "
          f"saves; KEEP at >= {100 * THRESHOLD:.0f} %; on<off = pairs (in process) or rounds (served) cheaper "
          f"with the piece on; served 'on' = the mean of the two base servers (A/A control: base2 against base)")
    print_table(rows)
    for line in loads:
        print(f"# machine: {line}")
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": [dataclasses.asdict(r) | {"share": r.share} for r in rows],
                                               "load": loads}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
