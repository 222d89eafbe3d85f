"""Every run has a budget: the wide upload against a served replica, and the estimates against the runs.

    python -m benchmarks.budget                  # (a): the 16 MB wide file on /online_svm, another student meanwhile
    python -m benchmarks.budget --calibrate      # (b): olcore.budget's estimates beside measured runs
    python -m benchmarks.budget --calibrate --cases online_svm.analyse_second_order --sizes 300x2000

(a) **The wide upload.** A server is started on a free loopback port (``scripts.served_app``) and left to
    finish its kernel warm-up (its children compiling numba kernels).  A session
    (:class:`scripts.stclient.Session`) opens ``/online_svm?part=Second-order+Perceptron&stream=Upload``
    and uploads a CSV of 300 rows × 10,000 feature columns + y (15.8 MB) as the browser does
    (``BackMsg.file_urls_request``, ``PUT /_stcore/upload_file/<session>/<file>``, then the uploader's
    ``file_uploader_state_value`` in a rerun), timed from the start of the upload to the end of the rerun
    that shows the budget's message.  0.2 s into that rerun another session opens ``/perceptron`` (its
    first view; the lesson was opened once before by a third session, as in a lecture), timed from its
    first GET to ``script_finished``.  Then the smaller views offered are taken (the columns first) until
    the view runs.  ``--repeat`` (3) uploads, one after the other, each by a new session.  The replica's
    resident memory is sampled every 20 ms: the server process plus its children (a large upload is
    read in a child process, :func:`olapp.controls._read_upload`).  Targets: message < 5 s, replica < 1 GB,
    the other view < 1 s.
(b) **Calibration.** Each analysis an upload can reach (:data:`olcore.budget.ESTIMATES`) is run on seeded
    random streams of a few sizes (10% of the labels flipped), each in a fresh subprocess (one BLAS
    thread, numba kernels warmed on a tiny stream first): its CPU seconds and its peak of traced memory
    (``tracemalloc``: numpy's arrays) beside :func:`olcore.budget.estimate`.  The estimates aim at a ratio
    estimate/measured between about 0.5 and 5 (they err on the large side where the work depends on
    the data: iterative solvers converge sooner on easy streams).

Only 127.0.0.1 is contacted.  On a shared 2-core machine the times are upper bounds: the load average is
printed beside them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.load import rss_mb

ROOT = Path(__file__).resolve().parent.parent
TARGET_MESSAGE, TARGET_RSS, TARGET_OTHER = 5.0, 2**30, 1.0


# -- (b) calibration ------------------------------------------------------------------------------------

def _stream(kind: str, T: int, d: int, seed: int = 0, noise: float = 0.1):
    """A seeded random stream of ``kind``: uniform features in [-1, 1] (a linear stream labelled by a random
    direction, ``noise`` of its labels flipped), random 0/1 advice, a disjunction of three attributes."""
    import numpy as np

    from olcore import streams

    rng = np.random.default_rng(seed)
    if kind in ("linear", "oco", "regression"):
        X = rng.uniform(-1, 1, (T, d))
        u = rng.standard_normal(d)
        if kind == "regression":
            return streams.from_arrays(kind, X, X @ u * 0.1 + 0.1 * rng.standard_normal(T))
        y = np.where(X @ u >= 0, 1, -1) * np.where(rng.random(T) < noise, -1, 1)
        return streams.from_arrays(kind, X, y)
    X = (rng.random((T, d)) < 0.5).astype(int)
    y = X[:, :3].max(axis=1) if kind == "disjunction" else (rng.random(T) < 0.5).astype(int)
    return streams.from_arrays(kind, X, y)


def _cases() -> dict:
    """name -> (stream kind, function, arguments(stream, u) -> (args, kwargs)): each as its page calls it, at
    the page's heaviest settings where a setting multiplies the work (``u()``: the Perceptron lesson's
    comparator for the stream, which its later views take)."""
    from olcore.lessons import (halving, kernel_perceptron as kp, mistakes_to_risk as m2r, ogd, online_svm as svm,
                                perceptron as pc, widrow_hoff as wh, winnow, wm_vs_hedge as wm)

    return {
        "halving.analyse": ("experts", halving.analyse, lambda s, u: ((s,), {})),
        "kernel_perceptron.analyse": ("linear", kp.analyse, lambda s, u: ((s, "rbf", 2.0, 2, 1.0), {})),
        "kernel_perceptron.budget_run": ("linear", kp.budget_run, lambda s, u: ((s, 100, 0, "rbf", 2.0, 2, 1.0), {})),
        "mistakes_to_risk.analyse": ("linear", m2r.analyse, lambda s, u: ((s, "Upload", 5, 0.1, 0, "perceptron", 0.05), {})),
        "mistakes_to_risk.repetitions": ("linear", m2r.repetitions, lambda s, u: (
            ("Upload", min(min(s.T // 2, m2r.UPLOAD_N_MAX), m2r.REP_N_MAX), 5, 0.1, 0, "perceptron", 0.05, 200, s), {})),
        "ogd.analyse": ("oco", ogd.analyse, lambda s, u: ((s, "logistic", "ball", 1.0, None, 10, 1.0), {})),
        "ogd.sweep": ("oco", ogd.sweep, lambda s, u: (("Noisy", s.T, 0.1, "logistic", "ball", 1.0, tuple(range(8)), 13,
                                                     64.0, 2), {})),
        "ogd.experts": ("oco", ogd.experts, lambda s, u: ((s.T, 200, 0), {})),
        "ogd.k_sweep": ("oco", ogd.k_sweep, lambda s, u: ((s.T,), {})),
        "online_svm.analyse_alma": ("linear", svm.analyse_alma, lambda s, u: ((s, 0.5, 50), {})),
        "online_svm.analyse_second_order": ("linear", svm.analyse_second_order, lambda s, u: ((s, 1.0), {})),
        "online_svm.analyse_selective": ("linear", svm.analyse_selective, lambda s, u: ((s, 0.1, 1.0), {})),
        "perceptron.analyse": ("linear", pc.analyse, lambda s, u: ((s, 20, "Upload"), {})),
        "perceptron.compare": ("linear", pc.compare, lambda s, u: ((s, 20, 1.0, 0.1, u()), {})),
        "perceptron.ogd_regret": ("linear", pc.ogd_regret, lambda s, u: ((s, 20, u()), {})),
        "perceptron.conservative": ("linear", pc.conservative, lambda s, u: ((s, 20), {})),
        "perceptron.hinge_view": ("linear", pc.hinge_view, lambda s, u: ((s, u()), {})),
        "perceptron.regularised": ("linear", pc.regularised, lambda s, u: ((s, 0.05), {})),
        "perceptron.dual_ascent": ("linear", pc.dual_ascent, lambda s, u: ((s, 10.0), {})),
        "widrow_hoff.unit_ball": ("regression", wh.unit_ball, lambda s, u: ((s,), {})),
        "widrow_hoff.tuning": ("regression", wh.tuning, lambda s, u: ((s, True), {})),
        "widrow_hoff.analyse": ("regression", wh.analyse, lambda s, u: ((s, 0.2, True), {})),
        "widrow_hoff.online_to_batch": ("regression", wh.online_to_batch, lambda s, u: ((s, 0.2, 500, 50, 0, True), {})),
        "widrow_hoff.implicit": ("regression", wh.implicit, lambda s, u: ((s, 0.2, True), {})),
        "winnow.analyse": ("disjunction", winnow.analyse, lambda s, u: ((s, 2.0), {})),
        "wm_vs_hedge.analyse": ("experts", wm.analyse, lambda s, u: ((s, 0.368, 0.1, "square", 0.5, 1.0, 0, False), {})),
        "wm_vs_hedge.wa_equality": ("experts", wm.wa_equality, lambda s, u: ((s,), {})),
        "wm_vs_hedge.tuning": ("experts", wm.tuning, lambda s, u: ((s, 0.1, 0.368, 0), {})),
        "wm_vs_hedge.scaled_hedge": ("experts", wm.scaled_hedge, lambda s, u: ((s, 10.0), {})),
        "wm_vs_hedge.sweep": ("experts", wm.sweep, lambda s, u: ((s, "upload", 0.3, 0), {})),
    }


SIZES = ((200, 20), (200, 200), (200, 1000), (800, 20), (800, 200), (800, 1000), (3200, 20), (3200, 200))


def measure_one(name: str, T: int, d: int) -> dict:
    """Run one case in this process (after a warm-up on a tiny stream): CPU seconds, traced peak, estimate."""
    import time as _time
    import tracemalloc

    from olcore import budget

    kind, fn, make_args = _cases()[name]
    from olcore.lessons import perceptron as pc

    small = _stream(kind, 20, min(d, 3))
    try:
        a, k = make_args(small, lambda: pc.analyse(small, 1, "Upload").u)
        fn(*a, **k)
    except Exception:                      # (a tiny stream may not suit every analysis: the warm-up is best effort)
        pass
    s = _stream(kind, T, d)
    args, kwargs = make_args(s, lambda: pc.analyse(s, 1, "Upload").u)
    cost = budget.estimate(fn, *args, **kwargs)
    c0 = _time.process_time()
    err = None
    try:
        fn(*args, **kwargs)
    except Exception as exc:               # a StreamError is a measurement too (the page would show it)
        err = f"{type(exc).__name__}: {str(exc)[:100]}"
    cpu = _time.process_time() - c0
    peak = None
    if err is None:
        tracemalloc.start()
        fn(*args, **kwargs)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return {"case": name, "T": T, "d": d, "cpu": cpu, "peak": peak, "est_s": cost.seconds, "est_b": cost.bytes,
            "err": err}


def calibrate(names: list[str], sizes, timeout: float) -> None:
    from olcore import budget

    print(f"{'analysis':34s} {'T':>6s} {'d':>6s} | {'est s':>8s} {'cpu s':>8s} {'ratio':>6s} | "
          f"{'est MB':>8s} {'peak MB':>8s} {'ratio':>6s}")
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    for name in names:
        for T, d in sizes:
            kind, fn, make_args = _cases()[name]
            a, k = make_args(budget.Size(kind, T, d), lambda: None)
            est = budget.estimate(fn, *a, **k)
            if est is not None and (est.seconds > 20 * timeout or est.bytes > 4 * 2**30):
                print(f"{name:34s} {T:6d} {d:6d} | {est.seconds:8.3g} {'(not run: over 4 GB or long)':>26s}")
                continue
            try:
                out = subprocess.run([sys.executable, "-m", "benchmarks.budget", "--one", name, str(T), str(d)],
                                     cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
                r = json.loads(out.stdout.strip().splitlines()[-1])
            except (subprocess.TimeoutExpired, IndexError, json.JSONDecodeError):
                print(f"{name:34s} {T:6d} {d:6d} | {est.seconds if est else float('nan'):8.3g} "
                      f"{'> ' + str(int(timeout)) + ' s':>8s}")
                continue
            rs = r["est_s"] / max(r["cpu"], 1e-3)
            mb = (r["peak"] or 0) / 2**20
            rb = r["est_b"] / max(r["peak"] or 1, 2**20)
            print(f"{name:34s} {T:6d} {d:6d} | {r['est_s']:8.3g} {r['cpu']:8.3g} {rs:6.2f} | "
                  f"{r['est_b'] / 2**20:8.1f} {mb:8.1f} {rb:6.2f} {r['err'] or ''}", flush=True)


# -- (a) the wide upload on a served replica -----------------------------------------------------------------

def wide_csv(T: int = 300, d: int = 10_000, seed: int = 0) -> bytes:
    """The issue's wide file: ``T`` rows of ``d`` features in [-1, 1] (two decimals) and a label y in {-1, +1}."""
    import io

    import numpy as np

    rng = np.random.default_rng(seed)
    X = np.round(rng.uniform(-1, 1, (T, d)), 2)
    y = np.where(rng.standard_normal(T) > 0, 1, -1)
    buf = io.StringIO()
    buf.write(",".join([f"x{i}" for i in range(1, d + 1)] + ["y"]) + "\n")
    np.savetxt(buf, np.column_stack([X, y]), delimiter=",", fmt="%.2f")
    return buf.getvalue().encode()


def rss_peak(pid: int) -> int:
    """Peak resident memory of process ``pid`` (``VmHWM``), bytes."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


def _children(pid: int) -> list[int]:
    out = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out += [int(c) for c in f.read().split()]
    except OSError:
        pass
    return out + [g for c in out for g in _children(c)]


async def replica_rss(pid: int, peak: dict, every: float = 0.02) -> None:
    """Sample the resident memory of the server process and its children (a child reads a large upload)
    until cancelled; ``peak["total"]`` is the largest sum seen, ``peak["children"]`` the largest children's."""
    while True:
        pids = _children(pid)
        kids = sum(_rss_or_0(c) for c in pids)
        if _rss_or_0(pid) + kids > peak.get("total", 0):
            peak["total"] = _rss_or_0(pid) + kids
            peak["who"] = [_cmdline(c) for c in pids]
        peak["children"] = max(peak.get("children", 0), kids)
        await asyncio.sleep(every)


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")[:80]
    except OSError:
        return "?"


def _rss_or_0(pid: int) -> int:
    try:
        return rss_now(pid)
    except OSError:
        return 0


def rss_now(pid: int) -> int:
    """Resident bytes of process ``pid`` (0 when /proc does not say)."""
    mb = rss_mb(pid)
    return 0 if mb != mb else int(mb * 2**20)          # nan: no VmRSS line


async def upload(session, key: str, name: str, data: bytes) -> None:
    """Upload ``data`` to the file uploader with user key ``key`` as the frontend does (the rerun that reads
    it is the caller's: ``session._rerun()``).

    1. ``BackMsg.file_urls_request`` (a request id, the file name, the session id) -> ``ForwardMsg
       .file_urls_response`` with the file's ``file_id`` and ``upload_url``;
    2. ``PUT <upload_url>`` with the file as ``multipart/form-data`` (field ``file``), the XSRF cookie and header;
    3. the uploader's widget state ``file_uploader_state_value`` (the file's id, name, size and URLs) is set
       for the next rerun."""
    import uuid

    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    from scripts.stclient import ProtocolError, http_get  # noqa: F401  (same client as the other sessions)

    wid = session.widget_ids.get(key)
    if wid is None:
        raise ProtocolError(f"no uploader with key {key!r} (widgets: {sorted(session.widget_ids)})")
    req = BackMsg()
    rid = uuid.uuid4().hex
    req.file_urls_request.request_id = rid
    req.file_urls_request.file_names.append(name)
    req.file_urls_request.session_id = session.session_id
    await session.ws.send(req.SerializeToString())
    while True:
        f = ForwardMsg()
        f.ParseFromString(await asyncio.wait_for(session.ws.recv(), session.timeout))
        if f.WhichOneof("type") == "file_urls_response" and f.file_urls_response.response_id == rid:
            urls = f.file_urls_response.file_urls[0]
            break
    url = urls.upload_url if urls.upload_url.startswith("http") else session.base + urls.upload_url
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
            f"Content-Type: text/csv\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    await _put(url, body, boundary, session.cookies, session.timeout)
    w = WidgetState(id=wid)
    info = w.file_uploader_state_value.uploaded_file_info.add()
    info.file_id = urls.file_id
    info.name = name
    info.size = len(data)
    info.file_urls.CopyFrom(urls)
    session.widget_states[wid] = w


async def _put(url: str, body: bytes, boundary: str, cookies: dict, timeout: float) -> None:
    from urllib.parse import urlparse

    u = urlparse(url)
    reader, writer = await asyncio.wait_for(asyncio.open_connection(u.hostname, u.port), timeout)
    xsrf = cookies.get("_streamlit_xsrf", "")
    head = (f"PUT {u.path} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\n"
            f"Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {len(body)}\r\n"
            f"Cookie: {'; '.join(f'{k}={v}' for k, v in cookies.items())}\r\nX-Xsrftoken: {xsrf}\r\n"
            "Connection: close\r\n\r\n")
    writer.write(head.encode() + body)
    await writer.drain()
    status = await asyncio.wait_for(reader.readline(), timeout)
    writer.close()
    if b" 20" not in status:
        rest = await reader.read(500)
        raise RuntimeError(f"PUT {u.path}: {status!r} {rest!r}")


def _watch(session) -> dict:
    """Note, for each run of ``session``, the budget's messages and offers it draws (``seen["messages"]``,
    ``seen["offers"]``: cleared by the caller before a run)."""
    seen: dict = {"messages": [], "offers": []}
    through = session._through_cache

    def spy(f, data, run):
        f = through(f, data, run)
        if f.WhichOneof("type") == "delta" and f.delta.WhichOneof("type") == "new_element":
            e = f.delta.new_element
            kind = e.WhichOneof("type")
            if kind == "alert" and "too large to compute here" in e.alert.body:
                seen["messages"].append(e.alert.body)
            elif kind == "button" and e.button.id.rsplit("-", 1)[-1] in ("budget_columns", "budget_rows"):
                seen["offers"].append(e.button.id.rsplit("-", 1)[-1])
        return f

    session._through_cache = spy
    return seen


async def _one_upload(base: str, pid: int, page: str, query: str, key: str, data: bytes) -> dict:
    """One student uploads the wide file while another opens /perceptron; then the smaller views are taken
    (the columns first) until the view runs."""
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    from scripts.stclient import Session

    out: dict = {}
    async with Session.open(base, page, query, timeout=120) as s:
        seen = _watch(s)
        t0 = time.perf_counter()
        await upload(s, key, "wide.csv", data)                      # the file is on the server: the rerun reads it
        out["put"] = time.perf_counter() - t0
        rerun = asyncio.ensure_future(s._rerun())
        await asyncio.sleep(0.2)                                    # ... and meanwhile another student arrives
        async with Session.open(base, "perceptron", "") as other:
            out["other"] = other.last.seconds
            out["other_ok"] = other.last.ok
        run = await rerun
        out["message"] = time.perf_counter() - t0
        out["message_ok"] = run.status is not None and not run.errors and len(seen["messages"]) == 1
        out["first"] = seen["messages"][:1]
        out["taken"] = []
        for _ in range(4):                                          # take the offers until the view runs
            if not seen["messages"] or not seen["offers"]:
                break
            offer = "budget_columns" if "budget_columns" in seen["offers"] else seen["offers"][0]
            wid = s.widget_ids[offer]
            seen["messages"].clear()
            seen["offers"].clear()
            t1 = time.perf_counter()
            s.widget_states[wid] = WidgetState(id=wid, trigger_value=True)
            run2 = await s._rerun()
            s.widget_states.pop(wid, None)
            out["taken"].append((offer, time.perf_counter() - t1, run2.ok))
        out["view_runs"] = not seen["messages"]
    return out


async def _scenario(base: str, pid: int, page: str, query: str, key: str, data: bytes, repeats: int) -> dict:
    from scripts.stclient import Session

    out: dict = {}
    deadline = time.monotonic() + 300                                 # the server's kernel warm-up (children
    while _children(pid) and time.monotonic() < deadline:             # compiling numba kernels) is over first
        await asyncio.sleep(0.5)
    async with Session.open(base, "perceptron", "") as warm:          # the lesson opened once before (a lecture)
        out["perceptron_cold"] = warm.last.seconds
    async with Session.open(base, "perceptron", "") as lone:          # a new session's first view, alone
        out["other_alone"] = lone.last.seconds
    out["rss_before"] = rss_now(pid)
    peak: dict = {}
    sampler = asyncio.ensure_future(replica_rss(pid, peak))
    out["runs"] = [await _one_upload(base, pid, page, query, key, data) for _ in range(repeats)]
    sampler.cancel()
    out["rss_peak"] = rss_peak(pid)
    out["replica_peak"] = peak.get("total", 0)
    out["children_peak"] = peak.get("children", 0)
    out["children_at_peak"] = peak.get("who", [])
    return out


def scenario(page: str, query: str, key: str, repeats: int = 3) -> dict:
    from scripts.served_app import serve_process

    data = wide_csv()
    with serve_process(timeout=90) as (base, proc):
        return {"bytes": len(data), **asyncio.run(_scenario(base, proc.pid, page, query, key, data, repeats))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calibrate", action="store_true", help="(b): estimates beside measured runs")
    ap.add_argument("--cases", nargs="*", help="analyses (module.function of olcore.lessons) for --calibrate")
    ap.add_argument("--sizes", nargs="*", help="TxD sizes for --calibrate, e.g. 300x2000")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per measured run (--calibrate)")
    ap.add_argument("--one", nargs=3, metavar=("CASE", "T", "D"), help=argparse.SUPPRESS)
    ap.add_argument("--page", default="online_svm")
    ap.add_argument("--query", default="part=Second-order+Perceptron&stream=Upload")
    ap.add_argument("--repeat", type=int, default=3, help="uploads in (a), one after the other")
    args = ap.parse_args()
    if args.one:
        print(json.dumps(measure_one(args.one[0], int(args.one[1]), int(args.one[2]))))
        return
    if args.calibrate:
        sizes = [tuple(int(v) for v in s.split("x")) for s in args.sizes] if args.sizes else SIZES
        calibrate(args.cases or list(_cases()), sizes, args.timeout)
        return
    r = scenario(args.page, args.query, f"{args.page}_upload", args.repeat)
    load = os.getloadavg()
    runs = r["runs"]
    print(f"wide file: {r['bytes'] / 2**20:.1f} MB, 300 rows x 10,000 columns, on /{args.page}?{args.query}; "
          f"{len(runs)} uploads, one after the other, each a new session")
    for i, u in enumerate(runs, 1):
        taken = "; ".join(f"{k.removeprefix('budget_')} {t:.2f} s{'' if ok else ' (errors)'}" for k, t, ok in u["taken"])
        print(f"  upload {i}: budget's message after {u['message']:5.2f} s (PUT {u['put']:.2f} s; ok={u['message_ok']})"
              f" | another session's first /perceptron meanwhile {u['other']:.2f} s (ok={u['other_ok']})"
              f" | smaller views taken: {taken or 'none'}; the view then runs: {u['view_runs']}")
    if runs and runs[0]["first"]:
        print("  the message:", runs[0]["first"][0].replace("\n\n", " ")[:400])
    msg = sorted(u["message"] for u in runs)
    other = sorted(u["other"] for u in runs)
    print(f"  time to the budget's message:          median {msg[len(msg) // 2]:.2f} s, max {msg[-1]:.2f} s   "
          f"(target < {TARGET_MESSAGE:g} s)")
    print(f"  replica's peak RSS:                    {r['replica_peak'] / 2**20:.0f} MB   (target < 1 GB; the server's "
          f"VmHWM {r['rss_peak'] / 2**20:.0f} MB, {r['rss_before'] / 2**20:.0f} MB before the uploads; the child reading "
          f"a file at most {r['children_peak'] / 2**20:.0f} MB; sampled every 20 ms)")
    print(f"  another session's first view:          median {other[len(other) // 2]:.2f} s, max {other[-1]:.2f} s   "
          f"(target < {TARGET_OTHER:g} s; alone, before the uploads: {r['other_alone']:.2f} s; the lesson's first "
          f"view in the process: {r['perceptron_cold']:.2f} s)")
    print(f"  load average: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} (2 cores, shared)")


if __name__ == "__main__":
    main()
