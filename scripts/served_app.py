"""Serve the app on loopback and drive headless Chromium: used by browser tests and screenshots.

    python -m scripts.served_app --port 8601 --page /perceptron --out /tmp/shots/perceptron.png

Only 127.0.0.1 is ever contacted.  Chromium is Debian's (``/usr/bin/chromium``); no browser
is downloaded.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("OLAB_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
]
CHART = "[data-testid=stPlotlyChart] .js-plotly-plot .main-svg"


def chromium_path() -> str | None:
    """Path of the Chromium binary, or None when it is not installed."""
    if Path(CHROMIUM).exists():
        return CHROMIUM
    return shutil.which("chromium")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve(port: int | None = None, timeout: float = 60.0, log_path: str | Path | None = None):
    """Start ``streamlit run app.py`` on 127.0.0.1:port; yield the base URL; stop it after.

    The server's output goes to ``log_path`` when given (a test reads it), else to a temp file.
    """
    with serve_process(port, timeout=timeout, log_path=log_path) as (base, _proc):
        yield base


def streamlit_command(port: int, *extra: str) -> list[str]:
    """The command line of one app server on 127.0.0.1:port (``extra``: more ``--option value`` pairs)."""
    return [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
            "--server.address", "127.0.0.1", "--server.port", str(port), "--server.headless", "true",
            "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none", *extra]


@contextlib.contextmanager
def serve_process(port: int | None = None, timeout: float = 60.0, log_path: str | Path | None = None,
                  extra: tuple[str, ...] = (), env: dict[str, str] | None = None):
    """Like :func:`serve`, yielding ``(base_url, process)``: the process's pid lets a benchmark read
    its CPU time and memory in ``/proc``.  ``extra``: more ``streamlit run`` options; ``env``: more
    environment variables for the server."""
    port = port or free_port()
    cmd = streamlit_command(port, *extra)
    # The server's log goes to a file: a pipe nobody reads fills up (64 KB of warnings) and
    # then blocks every script thread in logging.emit, freezing the app mid-page.
    log = open(log_path, "w+b") if log_path else tempfile.TemporaryFile()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                            env={**os.environ, **env} if env else None)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, timeout, proc, log)
        yield base, proc
    finally:
        stop(proc)
        log.close()


def wait_healthy(base: str, timeout: float, proc: subprocess.Popen | None = None, log=None) -> None:
    """Wait until ``base + /_stcore/health`` answers 200; raise if ``proc`` exits or time runs out."""
    deadline = time.monotonic() + timeout
    while True:
        if proc is not None and proc.poll() is not None:
            tail = ""
            if log is not None:
                log.seek(0)
                tail = log.read().decode(errors="replace")[-2000:]
            raise RuntimeError(f"{proc.args[0]} exited with {proc.returncode}: {tail}")
        try:
            with urllib.request.urlopen(base + "/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"no answer on {base}/_stcore/health within {timeout:.0f} s")
        time.sleep(0.3)


def stop(proc: subprocess.Popen, grace: float = 10.0) -> None:
    """Terminate ``proc`` (SIGTERM), and kill it if it has not exited after ``grace`` seconds."""
    if proc.poll() is None:
        proc.terminate()
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def launch(playwright):
    """Headless Debian Chromium through Playwright."""
    exe = chromium_path()
    if exe is None:
        raise RuntimeError("Chromium not found: install Debian's package 'chromium' (apt-get install chromium)")
    return playwright.chromium.launch(executable_path=exe, headless=True, args=CHROMIUM_ARGS)


def wait_ready(page, charts: bool = True, timeout_ms: int = 60_000) -> None:
    """Wait until the app has finished running and (optionally) a chart has drawn."""
    page.wait_for_selector("[data-testid=stApp]", timeout=timeout_ms)
    page.wait_for_selector("[data-testid=stMainBlockContainer] h1", state="attached", timeout=timeout_ms)
    if charts:
        page.wait_for_selector(CHART, timeout=timeout_ms)
    # the status widget shows while a script runs
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=timeout_ms)
    page.wait_for_timeout(500)


def screenshot(base: str, path: str, out: str, width: int = 1400, height: int = 900,
               full_page: bool = True, charts: bool = True, dark: bool = False) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        ctx = browser.new_context(viewport={"width": width, "height": height},
                                  color_scheme="dark" if dark else "light")
        page = ctx.new_page()
        page.goto(base + path)
        wait_ready(page, charts=charts)
        if full_page:
            # Streamlit scrolls inside its own container, so Playwright's full_page sees one screen:
            # grow the window to the content's height, let every chart draw, then shoot.
            tall = page.evaluate(
                "() => Math.max(...[...document.querySelectorAll('[data-testid=stMain], "
                "[data-testid=stMainBlockContainer], [data-testid=stAppViewContainer]')]"
                ".map(e => e.scrollHeight), document.body.scrollHeight)")
            page.set_viewport_size({"width": width, "height": min(int(tall) + 40, 20_000)})
            page.wait_for_timeout(1500)
            wait_ready(page, charts=charts)
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=out, full_page=full_page)
        browser.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=None)
    ap.add_argument("--page", action="append", default=None,
                    help="URL path (and query), e.g. /perceptron?seed=3; repeatable")
    ap.add_argument("--out", action="append", default=None, help="PNG path, one per --page")
    ap.add_argument("--width", type=int, default=1400)
    ap.add_argument("--no-charts", action="store_true", help="do not wait for a plotly chart")
    ap.add_argument("--dark", action="store_true", help="prefer the dark colour scheme")
    ap.add_argument("--first-screen", type=int, default=None, metavar="HEIGHT",
                    help="shoot only the first screen of this height (e.g. 1080) instead of the whole page")
    args = ap.parse_args()
    pages = args.page or ["/"]
    outs = args.out or [f"/tmp/shots/{(p.strip('/') or 'home').split('?')[0]}.png" for p in pages]
    with serve(args.port) as base:
        for path, out in zip(pages, outs):
            screenshot(base, path, out, width=args.width, charts=not args.no_charts, dark=args.dark,
                       height=args.first_screen or 900, full_page=args.first_screen is None)
            print(out)


if __name__ == "__main__":
    main()
