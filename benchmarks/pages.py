"""Server time per rerun and chart JSON size of every page, under Streamlit's AppTest.

    python -m benchmarks.pages                       # every page registered in app.py
    python -m benchmarks.pages --page perceptron     # one page (repeatable)

For each page (``AppTest.from_file("app.py")`` + ``switch_page("pages/<name>.py")``):

* cold: the first run of the page with ``st.cache_data`` cleared (imports are warmed up once
  beforehand by a run of the home page, reported separately);
* default: the median wall time of ``--reruns`` further reruns with nothing changed (warm
  cache): what a student pays for any interaction that does not change the run;
* largest: every slider and number input on the page is set to its ``max_value`` (read from
  the widget protos, no per-page list; seed inputs, keys ending in ``seed``, are not sizes and
  keep their value unless ``--max-seeds``), repeated until nothing changes (new widgets can appear,
  ranges can grow), then the cache is cleared: "largest cold" is the first run that computes
  the largest run, "largest warm" the median of the reruns after it.  This is done at the
  default choices and again for each other option of each selectbox and radio (a stream
  source can enable size controls); the worst is reported, every variant is listed below;
* chart JSON: the sum of ``len(proto.spec)`` over the page's plotly charts, at default and at
  the largest settings.

The time is the wall time of ``AppTest.run()``: the script run plus AppTest's own handling of
the messages (each script compiled once, as the server does), a slight overestimate of the server's time.  Targets: <= 100 ms at the
defaults (warm), <= 1 s at the largest settings (cold), <= 1.5 MB of chart JSON per page.
Placeholder pages ("coming soon") are reported as such.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import statistics
import sys
import time
from pathlib import Path

from scripts.apptools import LastError, registered_pages

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app.py"
TARGET_DEFAULT_S = 0.100
TARGET_LARGEST_S = 1.0
TARGET_JSON = 1.5e6
#: widgets whose maximum is set at "largest"; read generically from each widget's proto
SIZE_WIDGETS = ("slider", "number_input")
#: not sizes: a seed changes the stream, not its cost (``--max-seeds`` sets them to max too)
NOT_SIZES = re.compile(r"(^|_)seed$")
MAX_SEEDS = False


def share_script_cache() -> None:
    """Compile each script once, as the server does (one ``ScriptCache`` per runtime).

    AppTest makes a new ``ScriptCache`` for every run, so every run would recompile app.py and
    the page (about 20 ms each, with Streamlit's "magic" AST pass): a cost no served rerun pays.
    """
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.testing.v1 import app_test, local_script_runner

    shared = ScriptCache()
    app_test.ScriptCache = local_script_runner.ScriptCache = lambda: shared


def new_app(page: str, timeout: float):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(APP), default_timeout=timeout)
    at.switch_page(f"pages/{page}.py")
    return at


def timed_run(at) -> float:
    LOG.last = ""
    t0 = time.perf_counter()
    at.run()
    return time.perf_counter() - t0


def clear_cache() -> None:
    import streamlit as st

    from olapp import cache

    st.cache_data.clear()
    st.cache_resource.clear()
    cache.clear()


def chart_json(at) -> tuple[int, int]:
    """(number of plotly charts, total length of their JSON specs)."""
    charts = at.get("plotly_chart")
    return len(charts), sum(len(el.proto.spec) for el in charts)


LOG = LastError()


def errors(at) -> list[str]:
    if LOG.last:
        return [LOG.last]
    return [e.message.splitlines()[0][:160] if e.message else repr(e) for e in at.exception]


def is_placeholder(at) -> bool:
    texts = [getattr(el, "value", "") or "" for el in list(at.info) + list(at.markdown)]
    return any("coming soon" in str(t).lower() for t in texts) and not at.get("plotly_chart")


def set_all_to_max(at, rounds: int = 6) -> list[str]:
    """Set every slider and number input to its max_value, rerunning until a fixed point.

    Returns the settings applied, as "key=value".  A range slider keeps its lower end and
    moves its upper end to the max.
    """
    applied: dict[str, object] = {}
    for _ in range(rounds):
        changed = False
        for kind in SIZE_WIDGETS:
            for w in at.get(kind):
                if w.disabled or w.max is None or (not MAX_SEEDS and NOT_SIZES.search(w.key or "")):
                    continue
                hi = w.max
                val = w.value
                ints = isinstance(val, int) or (isinstance(val, (tuple, list)) and val
                                                and isinstance(val[0], int))
                if ints and float(hi).is_integer():
                    hi = int(hi)
                if isinstance(val, (tuple, list)):   # a range slider: widen to the top
                    new = (val[0], hi)
                else:
                    new = hi
                if val != new:
                    w.set_value(new)
                    applied[w.key or w.label] = new
                    changed = True
        if not changed:
            break
        LOG.last = ""
        at.run()
        if at.exception:
            break
    return [f"{k}={v}" for k, v in applied.items()]


def selector_variants(at, limit: int) -> list[tuple[str, str, object]]:
    """(kind, key, option) for every non-default option of every selectbox and radio."""
    out = []
    for kind in ("selectbox", "radio"):
        for w in at.get(kind):
            if w.disabled or not w.key:
                continue
            for opt in w.options:
                if opt != w.value:
                    out.append((kind, w.key, opt))
    return out[:limit]


def largest(page: str, timeout: float, reruns: int, variant=None) -> dict:
    """Sizes at max (after choosing ``variant``, a selector option), then a cold and warm run."""
    at = new_app(page, timeout)
    at.run()
    label = "defaults"
    if variant is not None:
        kind, key, opt = variant
        w = next((w for w in at.get(kind) if w.key == key), None)
        if w is None:
            return {"label": f"{key}={opt}", "skipped": True}
        w.set_value(opt)
        LOG.last = ""
        try:
            at.run()
        except ValueError:
            # AppTest sees a format_func's labels, not the options behind them, and cannot set such
            # a selectbox (its widget state fails on the label); the option is not measured
            return {"label": f"{key}={opt}", "skipped": True}
        label = f"{key}={opt}"
    out = {"label": label}
    if not at.exception:
        out["settings"] = set_all_to_max(at)
    if at.exception:
        out["error"] = f"{label}, largest: " + "; ".join(errors(at))
        return out
    clear_cache()
    out["cold"] = timed_run(at)
    if at.exception:
        out["error"] = f"{label}, largest: " + "; ".join(errors(at))
        return out
    out["warm"] = statistics.median(timed_run(at) for _ in range(max(1, reruns // 2)))
    out["charts"], out["json"] = chart_json(at)
    return out


def measure(page: str, reruns: int, timeout: float, variants: int) -> dict:
    out: dict = {"page": page}
    clear_cache()
    at = new_app(page, timeout)
    out["cold"] = timed_run(at)
    if at.exception:
        out["error"] = "default: " + "; ".join(errors(at))
        return out
    if is_placeholder(at):
        out["placeholder"] = True
        return out
    out["default"] = statistics.median(timed_run(at) for _ in range(reruns))
    out["charts"], out["json"] = chart_json(at)
    runs = [largest(page, timeout, reruns)]
    runs += [largest(page, timeout, reruns, v) for v in selector_variants(at, variants)]
    out["skipped"] = [r["label"] for r in runs if r.get("skipped")]
    runs = [r for r in runs if not r.get("skipped")]
    out["largest_runs"] = runs
    bad = [r for r in runs if "error" in r]
    if bad:
        out["error"] = bad[0]["error"]
    ok = [r for r in runs if "cold" in r]
    if ok:
        worst = max(ok, key=lambda r: r["cold"])
        out["largest_cold"], out["largest"], out["settings"] = worst["cold"], worst["warm"], worst["settings"]
        out["largest_label"] = worst["label"]
        out["json_max"] = max(r["json"] for r in ok)
        out["json_max_label"] = max(ok, key=lambda r: r["json"])["label"]
    return out


def ms(s: float | None) -> str:
    return "-" if s is None else f"{1000 * s:8.0f}"


def mb(b: int | None) -> str:
    return "-" if b is None else f"{b / 1e6:6.3f}"


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def report(results: list[dict]) -> list[str]:
    misses = []
    head = (f"{'page':<13}{'cold ms':>9}{'default ms':>11} {'':4}{'largest cold ms':>16} {'':4}{'largest warm ms':>16}"
            f"{'charts':>7}{'JSON MB':>9}{'JSON@max MB':>12} {'':4}")
    print(head)
    print("-" * len(head))
    for r in results:
        p = r["page"]
        if r.get("placeholder"):
            print(f"{p:<13}{ms(r['cold']):>9}  placeholder page (coming soon): not measured")
            continue
        if "default" not in r:
            print(f"{p:<13}{ms(r.get('cold')):>9}  EXCEPTION {r.get('error')}")
            misses.append(f"{p}: {r.get('error')}")
            continue
        vd = verdict(r["default"] <= TARGET_DEFAULT_S)
        lc = r.get("largest_cold")
        vl = verdict(lc is not None and lc <= TARGET_LARGEST_S and "error" not in r)
        jmax = max(r["json"], r.get("json_max") or 0)
        vj = verdict(jmax <= TARGET_JSON)
        print(f"{p:<13}{ms(r['cold']):>9}{ms(r['default']):>11} {vd:4}{ms(lc):>16} {vl:4}{ms(r.get('largest')):>16}"
              f"{r['charts']:>7}{mb(r['json']):>9}{mb(r.get('json_max')):>12} {vj:4}", flush=True)
        if vd == "MISS":
            misses.append(f"{p}: {1000 * r['default']:.0f} ms per rerun at defaults (target <= 100 ms)")
        if vl == "MISS":
            if lc is not None and lc > TARGET_LARGEST_S:
                misses.append(f"{p}: {1000 * lc:.0f} ms at the largest settings ({r['largest_label']}; "
                              "target <= 1000 ms)")
            if "error" in r:
                misses.append(f"{p}: exception {r['error']}")
        if vj == "MISS":
            misses.append(f"{p}: {jmax / 1e6:.2f} MB of chart JSON (target <= 1.5 MB)")
    print()
    for r in results:
        if r.get("skipped"):
            print(f"# {r['page']}: not measured at the largest settings (AppTest cannot choose a selectbox "
                  f"option shown through a format_func): {', '.join(r['skipped'])}")
        for v in r.get("largest_runs", []):
            if "cold" in v:
                print(f"# {r['page']}, {v['label']} with sizes at max ({', '.join(v['settings']) or 'none'}): "
                      f"cold {1000 * v['cold']:.0f} ms, warm {1000 * v['warm']:.0f} ms, "
                      f"{v['charts']} charts, {v['json'] / 1e6:.3f} MB JSON")
            else:
                print(f"# {r['page']}, {v['label']}: EXCEPTION {v.get('error')}")
    return misses


def startup(root: Path, page: str, cache_dir: str | None, timeout: float = 300.0,
            arrive_after: float = 0.0) -> tuple[float, float, float]:
    """Seconds from ``streamlit run`` to (health check answered, the page's first run finished for a
    session speaking Streamlit's protocol, first chart drawn in Chromium after that).

    ``root``: the checkout to serve; ``cache_dir``: the NUMBA_CACHE_DIR of the server (a fresh
    empty directory measures a cold numba cache); ``arrive_after``: seconds between the health check
    and the first visit (a hall arrives some time after the lecturer starts the server); the times
    of the view and the chart are then counted from that visit.  Only 127.0.0.1 is contacted.
    """
    import subprocess
    import tempfile
    import urllib.request

    from playwright.sync_api import sync_playwright

    from scripts.served_app import CHART, CHROMIUM_ARGS, chromium_path, free_port

    port = free_port()
    env = dict(os.environ)
    env.pop("NUMBA_CACHE_DIR", None)
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = cache_dir
    cmd = [sys.executable, "-m", "streamlit", "run", str(root / "app.py"), "--server.address", "127.0.0.1",
           "--server.port", str(port), "--server.headless", "true", "--browser.gatherUsageStats", "false",
           "--server.fileWatcherType", "none"]
    log = tempfile.TemporaryFile()
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=root, stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        while True:
            try:
                with urllib.request.urlopen(base + "/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.05)
            if proc.poll() is not None or time.perf_counter() - t0 > timeout:
                raise RuntimeError("server did not start")
        t_health = time.perf_counter() - t0
        time.sleep(arrive_after)
        if arrive_after:
            t0 = time.perf_counter()          # the view and the chart counted from the visit
        import asyncio

        from scripts.stclient import Session

        async def first_view():
            async with Session.open(base, page, timeout=timeout) as s:
                if not s.last.ok:
                    raise RuntimeError(f"/{page} answered with {s.last.errors or s.last.status}")

        asyncio.run(first_view())
        t_view = time.perf_counter() - t0
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            tab = browser.new_page()
            tab.goto(f"{base}/{page}")
            tab.wait_for_selector(CHART, timeout=timeout * 1000)
            t_chart = time.perf_counter() - t0
            browser.close()
        return t_health, t_view, t_chart
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main_startup(args) -> int:
    import shutil
    import subprocess
    import tempfile

    roots = [Path(r).resolve() for r in (args.startup_root or [str(ROOT)])]
    print(f"# server start to /{args.startup} answered: streamlit run -> health -> the page's first run "
          f"finished (Streamlit's protocol) -> Chromium draws the page's first chart; load average "
          f"{os.getloadavg()[0]:.2f} at start")
    for root in roots:
        cold = tempfile.mkdtemp(prefix="olcore-numba-cold-")
        try:
            for label, cache in (("cold numba cache", cold), ("with cache", cold)):
                if label == "with cache":      # the cold server may have stopped before its warm-up ended
                    subprocess.run([sys.executable, "-c", "import olcore; olcore.warm()"], cwd=root, check=True,
                                   env={**os.environ, "NUMBA_CACHE_DIR": cache})
                h, v, c = startup(root, args.startup, cache, arrive_after=args.arrive_after)
                after = f"   (visit {args.arrive_after:g} s after health: view and chart from the visit)" \
                    if args.arrive_after else ""
                print(f"{str(root):<40} {label:<17} health {h:6.2f} s   first view {v:6.2f} s   "
                      f"first chart {c:6.2f} s{after}", flush=True)
        finally:
            shutil.rmtree(cold, ignore_errors=True)
    print(f"# load average {os.getloadavg()[0]:.2f} at end")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--page", action="append", default=None, help="page name, e.g. perceptron; repeatable")
    ap.add_argument("--reruns", type=int, default=7, help="warm reruns for each median")
    ap.add_argument("--variants", type=int, default=8,
                    help="largest settings: also try up to this many selectbox/radio options per page")
    ap.add_argument("--timeout", type=float, default=120.0, help="AppTest timeout per run (s)")
    ap.add_argument("--max-seeds", action="store_true", help="also set seed inputs to their max at 'largest'")
    ap.add_argument("--startup", metavar="PAGE", default=None,
                    help="instead: time server start to the first chart of PAGE, cold and warm numba cache")
    ap.add_argument("--startup-root", action="append", default=None,
                    help="checkout(s) to serve for --startup (default: this one); repeatable")
    ap.add_argument("--arrive-after", type=float, default=0.0, metavar="S",
                    help="--startup: the first visit comes S seconds after the server answers its health check")
    args = ap.parse_args(argv)
    share_script_cache()
    if args.startup:
        return main_startup(args)
    global MAX_SEEDS
    MAX_SEEDS = args.max_seeds
    logging.getLogger("streamlit.error_util").addHandler(LOG)  # propagate=False there
    os.chdir(ROOT)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    pages = args.page or registered_pages()
    unknown = set(pages) - set(registered_pages())
    if unknown:
        ap.error(f"not registered in app.py: {sorted(unknown)}")

    import streamlit

    print(f"# pages: server time per rerun under AppTest (median of {args.reruns} warm reruns), chart JSON")
    print(f"# streamlit {streamlit.__version__}; {os.cpu_count()} CPUs; load average "
          f"{os.getloadavg()[0]:.2f} at start")
    t0 = time.perf_counter()
    warm = new_app("home", args.timeout)
    warm.run()
    print(f"# import warm-up (first run of the app in this process): {1000 * (time.perf_counter() - t0):.0f} ms")
    import olcore

    t0 = time.perf_counter()
    olcore.warm()
    print(f"# olcore.warm() after it (the app starts it in a background thread; numba cache at "
          f"{olcore.jit.cache_dir()}): {1000 * (time.perf_counter() - t0):.0f} ms\n")
    results = []
    for p in pages:
        results.append(measure(p, args.reruns, args.timeout, args.variants))
        print(f"# measured {p}", file=sys.stderr, flush=True)
    misses = report(results)
    print(f"\n# targets: default (warm) <= 100 ms, largest (cold) <= 1000 ms, chart JSON <= 1.5 MB; "
          f"load average {os.getloadavg()[0]:.2f} at end")
    if misses:
        print("# MISSED targets:")
        for m in misses:
            print("#   " + m)
    else:
        print("# all targets met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
