"""A lecture hall on one link, measured with Streamlit's own protocol: no browsers, only sessions.

    python -m benchmarks.load                                  # (a) and (b) below, 6-10 min here
    python -m benchmarks.load --part reruns --lesson perceptron --sessions 5
    python -m benchmarks.load --part arrivals --replicas 1 2   # (b) on one replica, then on two

Every client is :class:`scripts.stclient.Session`: the HTTP GETs a browser makes before its
websocket, then ``BackMsg`` protobufs on ``ws://127.0.0.1:PORT/_stcore/stream`` and the
``ForwardMsg`` replies up to ``script_finished``, as Streamlit's frontend does.  A browser would
also download the frontend's static files (about 2.3 MB, from its cache after the first visit)
and draw the charts: neither is measured here, only what the server does.

(a) **Reruns, one replica.** For every lesson of ``olapp.registry.lessons()``: one lone session
    opens the lesson first (its first visit in the process: the "cold" column), then ``--sessions``
    (20) sessions open it, each with its own seed (``?seed=100+i``); then all of them at once
    rerun ``--reruns`` (3) times back to back, each rerun changing the seed input as the browser
    sends it (``widget_states`` plus the URL's query string), timed from the BackMsg to
    ``script_finished``.  Every rerun has a seed of its own (nothing cached helps), or with
    ``--same-seeds`` every session takes the same seeds (one cached result per seed, shared by
    all sessions).  Target: p95 <= 1 s, no errors.
(b) **Arrivals, replicas behind HAProxy** (``scripts.hall``, cookie affinity): ``--arrivals`` (100)
    sessions open the same link (``--link``) evenly spread over ``--window`` (10) seconds, each
    timed from its first GET to its first ``script_finished`` (the first full view).  Before them
    the link is opened once on each replica directly, as a lecturer checks it (``--cold``: not).
    Target: p95 <= 2 s with two replicas, no errors.
(c) **Server cost**: CPU seconds (utime + stime from ``/proc/<pid>/stat``) per rerun and per new
    session, and resident memory (``VmRSS``) per open session, for each server process.
(d) **Isolation**: in (a) each session's seed input must come back with its own seed on load, and
    its last view (the digest of every element drawn, see ``scripts.stclient``) must equal the
    view a lone session gets from a fresh link with that session's final seed; in (b) all sessions
    must see the same view.

Servers are started here on free loopback ports (``scripts.served_app.serve_process``,
``scripts.hall.hall``) and stopped on every exit path; every wait has a timeout, each part has
a hard limit and a SIGALRM backstop ends the whole run.  Only 127.0.0.1 is contacted.  The machine's
load average is printed beside the figures: on a shared 2-core machine they are upper bounds.
(The earlier browser-driven version, which on 2 cores measured the browsers, is in git history.)
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import signal
import sys
import time

from scripts.served_app import serve_process
from scripts.stclient import Session

RERUN_P95 = 1.0     # s, (a)
ARRIVAL_P95 = 2.0   # s, (b)
_TICK = os.sysconf("SC_CLK_TCK")


# -- /proc ------------------------------------------------------------------------------------
def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (all its threads)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def loadavg() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def pct(xs: list[float], q: float) -> float:
    """The q-quantile by the nearest rank (p95 of 60 samples is the 57th smallest)."""
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[max(0, min(len(xs) - 1, math.ceil(q * len(xs)) - 1))]


def _err(exc: BaseException) -> str:
    text = str(exc).splitlines()[0][:160] if str(exc) else ""
    return f"{type(exc).__name__}: {text}".rstrip(": ")


# -- (a) reruns -------------------------------------------------------------------------------
async def reruns(base: str, pid: int, slug: str, args) -> dict:
    n, R = args.sessions, args.reruns
    out: dict = {"lesson": slug, "errors": [], "lat": [], "loads": []}
    t0 = time.perf_counter()
    try:
        async with Session.open(base, slug, f"seed={args.seed0}", timeout=args.run_timeout) as lone:
            out["cold"] = lone.last.seconds
            out["errors"] += [f"warm-up: {e}" for e in lone.last.errors]
    except Exception as exc:  # noqa: BLE001 - reported, never hangs
        out["errors"].append(f"warm-up: {_err(exc)}")
    cpu0, rss0 = cpu_seconds(pid), rss_mb(pid)
    sessions = [Session(base, slug, f"seed={args.seed0 + i}", timeout=args.run_timeout) for i in range(n)]
    try:
        loaded = await asyncio.gather(*(s.connect() for s in sessions), return_exceptions=True)
        cpu1 = cpu_seconds(pid)
        live = []
        echo_ok = 0
        for i, (s, r) in enumerate(zip(sessions, loaded)):
            if isinstance(r, BaseException):
                out["errors"].append(f"session {i} load: {_err(r)}")
                continue
            out["loads"].append(r.seconds)
            out["errors"] += [f"session {i} load: {e}" for e in r.errors]
            echo_ok += r.server_values.get("seed") == args.seed0 + i
            live.append((i, s))
        out["seed_echo"] = echo_ok

        def seed(i: int, k: int) -> int:
            if args.same_seeds:            # the class follows the lecturer: one result, shared by every session
                return 1000 + k
            return 1000 + 10 * i + k       # every session's every rerun has a seed of its own

        async def loop(i: int, s: Session) -> None:
            for k in range(1, R + 1):
                run = await s.set_widget("seed", seed(i, k))
                out["lat"].append(run.seconds)
                if not run.ok:
                    out["errors"].append(f"session {i} rerun {k}: status {run.status} {run.errors[:1]}")

        t_reruns = time.perf_counter()
        done = await asyncio.gather(*(loop(i, s) for i, s in live), return_exceptions=True)
        out["rerun_wall"] = time.perf_counter() - t_reruns
        for (i, _), r in zip(live, done):
            if isinstance(r, BaseException):
                out["errors"].append(f"session {i} reruns: {_err(r)}")
        cpu2, rss2 = cpu_seconds(pid), rss_mb(pid)
        out["cpu_per_load"] = (cpu1 - cpu0) / max(1, len(live))
        out["cpu_per_rerun"] = (cpu2 - cpu1) / max(1, len(out["lat"]))
        out["rss_per_session"] = (rss2 - rss0) / max(1, len(live))
        out["rss"] = rss2
        finals = {i: (seed(i, R), s.last.digest) for i, s in live if len(s.runs) == R + 1 and s.last.ok}
    finally:
        await asyncio.gather(*(s.close() for s in sessions), return_exceptions=True)

    # (d) isolation: each session's last view == a lone session's view of a fresh link with its seed
    gate = asyncio.Semaphore(4)

    async def reference(i: int, sd: int) -> tuple[int, str]:
        async with gate, Session.open(base, slug, f"seed={sd}", timeout=args.run_timeout) as ref:
            return i, ref.last.digest

    refs = await asyncio.gather(*(reference(i, sd) for i, (sd, _) in finals.items()), return_exceptions=True)
    same = foreign = 0
    for r in refs:
        if isinstance(r, BaseException):
            out["errors"].append(f"isolation reference: {_err(r)}")
            continue
        i, digest = r
        if digest == finals[i][1]:
            same += 1
        else:
            foreign += 1
    out["isolated"], out["foreign"] = same, foreign
    out["distinct_views"] = len({d for _, d in finals.values()})
    out["checked"] = len(finals)
    out["wall"] = time.perf_counter() - t0
    return out


def print_reruns(rows: list[dict], args) -> bool:
    n, R = args.sessions, args.reruns
    how = "all to the same seeds" if args.same_seeds else "each to seeds of its own"
    print(f"\n## (a) {n} sessions x {R} reruns at once (seed changed, {how}), one replica; "
          f"target p95 <= {RERUN_P95:g} s, no errors")
    print(f"{'lesson':<18} {'cold s':>6} {'load p50':>8} {'load max':>8} {'rerun p50':>9} {'p95':>6} {'max':>6}"
          f"  {'p95 target':<10} {'errors':>6} {'CPU s/load':>10} {'CPU s/rerun':>11} {'MB/session':>10}"
          f" {'RSS MB':>7}  isolation")
    ok = True
    for r in rows:
        lat = r["lat"]
        p95 = pct(lat, 0.95)
        met = bool(lat) and len(lat) == n * R and p95 <= RERUN_P95 and not r["errors"]
        ok &= met
        iso = (f"{r.get('isolated', 0)}/{n} own view, {r.get('foreign', 0)} foreign, "
               f"{r.get('seed_echo', 0)}/{n} seed echoed, {r.get('distinct_views', 0)} distinct views")
        print(f"{r['lesson']:<18} {r.get('cold', float('nan')):>6.1f} {pct(r['loads'], .5):>8.2f}"
              f" {max(r['loads'], default=float('nan')):>8.2f} {pct(lat, .5):>9.2f} {p95:>6.2f}"
              f" {max(lat, default=float('nan')):>6.2f}  {'MET' if met else 'MISSED':<10} {len(r['errors']):>6}"
              f" {r.get('cpu_per_load', float('nan')):>10.3f} {r.get('cpu_per_rerun', float('nan')):>11.3f}"
              f" {r.get('rss_per_session', float('nan')):>10.2f} {r.get('rss', float('nan')):>7.0f}  {iso}")
    for r in rows:
        for e in r["errors"][:5]:
            print(f"  {r['lesson']}: {e}")
        if len(r["errors"]) > 5:
            print(f"  {r['lesson']}: ... {len(r['errors']) - 5} more errors")
    leaks = sum(r.get("foreign", 0) for r in rows)
    checked = sum(r.get("checked", 0) for r in rows)
    echo_missing = sum(len(r["loads"]) - r.get("seed_echo", 0) for r in rows)
    iso_ok = leaks == 0 and echo_missing == 0
    iso = ("FAIL" if not iso_ok else "PASS" if checked == n * len(rows) else
           f"PASS on the {checked} sessions checked of {n * len(rows)} (the others failed, see errors)")
    met = sum(1 for r in rows if r['lat'] and pct(r['lat'], .95) <= RERUN_P95 and not r['errors'])
    print(f"(a) {'MET' if ok else 'MISSED'}: the target met on {met}/{len(rows)} lessons; "
          f"isolation {iso} ({leaks} foreign views, {echo_missing} loads without their own seed); "
          f"rerun latency = BackMsg sent -> script_finished; CPU s/rerun = the server's CPU over the rerun phase / reruns; "
          f"MB/session = the server's resident memory after the reruns less before the sessions opened, per session "
          f"(below 0 when the shared memo, which keeps a bounded number of results, freed more than the sessions added)")
    return ok and iso_ok


# -- (b) arrivals -----------------------------------------------------------------------------
async def arrivals(h, args) -> dict:
    page, _, query = args.link.lstrip("/").partition("?")
    n, window = args.arrivals, args.window
    pids = [p.pid for p in h.procs]
    if not args.cold:   # the lecturer checks the link once on every replica before the class
        for rb in h.replicas:
            try:
                async with Session.open(rb, page, query, timeout=args.run_timeout) as lone:
                    out_cold = lone.last.seconds
            except Exception as exc:  # noqa: BLE001
                out_cold = float("nan")
                print(f"#   warm-up of {rb}: {_err(exc)}", file=sys.stderr)
            print(f"#   warm-up: {rb}/{page} first view {out_cold:.1f} s (not counted)", flush=True)
    cpu0 = [cpu_seconds(p) for p in pids]
    rss0 = [rss_mb(p) for p in pids]
    out: dict = {"errors": [], "first": [], "replica": {}, "digests": set()}
    sessions: list[Session] = []
    t_start = time.perf_counter()

    async def one(j: int) -> None:
        await asyncio.sleep(max(0.0, t_start + j * window / n - time.perf_counter()))
        s = Session(h.base, page, query, timeout=args.run_timeout)
        sessions.append(s)
        try:
            run = await s.connect()
        except Exception as exc:  # noqa: BLE001
            out["errors"].append(f"arrival {j}: {_err(exc)}")
            return
        out["first"].append(run.seconds)
        out["replica"][s.replica] = out["replica"].get(s.replica, 0) + 1
        out["digests"].add(run.digest)
        if not run.ok:
            out["errors"].append(f"arrival {j}: status {run.status} {run.errors[:1]}")

    try:
        await asyncio.gather(*(one(j) for j in range(n)))
        out["wall"] = time.perf_counter() - t_start
        out["cpu"] = [cpu_seconds(p) - c for p, c in zip(pids, cpu0)]
        out["rss_per_session"] = [(rss_mb(p) - r) for p, r in zip(pids, rss0)]
        out["rss"] = [rss_mb(p) for p in pids]
        out["stats"] = {k: v.get("stot") for k, v in h.stats().items()}
    finally:
        await asyncio.gather(*(s.close() for s in sessions), return_exceptions=True)
    return out


def print_arrivals(r: dict, replicas: int, args) -> bool:
    first = r["first"]
    p95 = pct(first, 0.95)
    met = len(first) == args.arrivals and p95 <= ARRIVAL_P95 and not r["errors"]
    print(f"\n## (b) {args.arrivals} sessions open {args.link} within {args.window:g} s, {replicas} replica(s) "
          f"behind HAProxy; target p95 <= {ARRIVAL_P95:g} s (two replicas), no errors")
    print(f"first full view (first GET -> script_finished): p50 {pct(first, .5):.2f} s, p95 {p95:.2f} s, "
          f"max {max(first, default=float('nan')):.2f} s over {len(first)} sessions (last one done "
          f"{r.get('wall', float('nan')):.1f} s after the first arrival); errors {len(r['errors'])}; "
          f"{'MET' if met else 'MISSED'}")
    n_on = max(1, len(first))
    for i, (c, m, rs) in enumerate(zip(r.get("cpu", []), r.get("rss_per_session", []), r.get("rss", [])), start=1):
        k = r["replica"].get(f"r{i}", 0) if replicas > 1 or "r1" in r["replica"] else n_on
        print(f"  replica r{i}: {k} sessions, CPU {c:.1f} s ({c / max(1, k):.3f} s per new session), "
              f"RSS {rs:.0f} MB (+{m / max(1, k):.2f} MB per open session); HAProxy connections served: "
              f"{r.get('stats', {}).get(f'r{i}')}")
    print(f"  isolation: {len(r['digests'])} distinct view(s) among {len(first)} sessions of one link "
          f"({'PASS' if len(r['digests']) <= 1 else 'FAIL'})")
    for e in r["errors"][:8]:
        print(f"  {e}")
    return met and len(r["digests"]) <= 1


# -- main -------------------------------------------------------------------------------------
class HardLimit(BaseException):
    pass


def main(argv=None) -> int:
    from olapp import registry

    slugs = [lesson.slug for lesson in registry.lessons()]
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", choices=("all", "reruns", "arrivals"), default="all")
    ap.add_argument("--lesson", action="append", choices=slugs, help="(a) only these lessons (repeatable)")
    ap.add_argument("--sessions", type=int, default=20, help="(a) sessions per lesson")
    ap.add_argument("--reruns", type=int, default=3, help="(a) reruns per session")
    ap.add_argument("--same-seeds", action="store_true",
                    help="(a) every session reruns with the same seeds (a shared cached result: only the "
                         "per-session cost is left), instead of seeds of its own")
    ap.add_argument("--blas-default", action="store_true",
                    help="(a) leave the server's BLAS threads at the library's default (a thread per core) "
                         "instead of one per replica as scripts.hall sets them")
    ap.add_argument("--seed0", type=int, default=100, help="(a) session i opens ?seed=seed0+i")
    ap.add_argument("--arrivals", type=int, default=100, help="(b) sessions arriving")
    ap.add_argument("--window", type=float, default=10.0, help="(b) seconds over which they arrive")
    ap.add_argument("--link", default="/perceptron?seed=7", help="(b) the link every session opens")
    ap.add_argument("--replicas", type=int, nargs="+", default=[2], help="(b) replica counts to measure")
    ap.add_argument("--cold", action="store_true",
                    help="(b) no warm-up: the first arrivals on each replica pay its imports and first run")
    ap.add_argument("--run-timeout", type=float, default=60.0, help="one page load or rerun's timeout (s)")
    ap.add_argument("--hard-limit", type=float, default=1500.0, help="the whole run stops after this (s)")
    args = ap.parse_args(argv)

    def _alarm(*_):
        raise HardLimit(f"hard limit of {args.hard_limit:.0f} s reached")

    def _term(*_):
        raise HardLimit("terminated")

    signal.signal(signal.SIGALRM, _alarm)
    signal.signal(signal.SIGTERM, _term)
    signal.alarm(int(args.hard_limit))
    t0 = time.monotonic()
    c0 = os.times()
    ok = True
    print(f"# benchmarks.load: {os.cpu_count()} CPUs, load average {loadavg()} (1/5/15 min) at the start")
    try:
        if args.part in ("all", "reruns"):
            rows = []
            from scripts.hall import REPLICA_ENV, replica_env

            env = None if args.blas_default else {k: replica_env()[k] for k in REPLICA_ENV}
            print(f"# (a) one replica, as scripts.hall starts it: "
                  f"{'numpy BLAS threads left at the default' if env is None else env}", flush=True)
            with serve_process(timeout=120, env=env) as (base, proc):
                for slug in args.lesson or slugs:
                    left = args.hard_limit - (time.monotonic() - t0)
                    rows.append(asyncio.run(asyncio.wait_for(reruns(base, proc.pid, slug, args), max(10, left))))
                    print(f"#   {slug}: {rows[-1]['wall']:.0f} s, load average {loadavg()}", flush=True)
            ok &= print_reruns(rows, args)
        if args.part in ("all", "arrivals"):
            from scripts.hall import hall

            for k in args.replicas:
                with hall(k, timeout=120) as h:
                    left = args.hard_limit - (time.monotonic() - t0)
                    r = asyncio.run(asyncio.wait_for(arrivals(h, args), max(10, left)))
                met = print_arrivals(r, k, args)
                if k >= 2:                  # the target is for two replicas; fewer are shown for comparison
                    ok &= met
                print(f"#   load average {loadavg()}", flush=True)
    except (HardLimit, asyncio.TimeoutError, KeyboardInterrupt) as exc:
        print(f"# stopped: {exc or type(exc).__name__} (servers stopped)", file=sys.stderr)
        ok = False
    finally:
        signal.alarm(0)
    c1 = os.times()
    print(f"\n# wall {time.monotonic() - t0:.0f} s; this client's own CPU {c1.user + c1.system - c0.user - c0.system:.1f} s "
          f"(it shares the machine with the servers); load average {loadavg()} at the end")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
