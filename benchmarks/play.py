"""Play in the browser, measured: server CPU and chart redraws while one browser plays a lesson.

    python -m benchmarks.play                          # /perceptron, 2000 rounds at 200 rounds/s (10 s)
    python -m benchmarks.play --page /winnow --query T=2000

Starts the app on 127.0.0.1 (``scripts.served_app.serve``) and one headless Debian Chromium at
1920 x 1080 in presenter mode (the lesson's main charts on the first screen).  It plays the run
twice with the player's speed at its maximum (200 rounds a second): the first Play builds the
frames (``cold``), the second replays them from the cache every session shares (``warm``).  For
each play it reports the server process's CPU seconds from the key press to the round reported
back at the end (user + system, from ``/proc``), the wall time, the seconds until the first frame
(``start``: the key press until the driver starts, once the page has the frames and the browser has
drawn them and the texts of every round), and how many times the charts
were redrawn in the browser (``advances``: animation ticks in which the visible charts moved) and
the milliseconds ``Plotly.react`` took per advance (all visible charts together).

Target: while one browser plays a lesson for 10 s the server uses under 0.3 s of CPU,
and the chart advances at least 150 times.  Only 127.0.0.1 is contacted; the run stops by itself
(``--timeout`` per play).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

from olapp.controls import PLAY_SPEEDS
from scripts.served_app import launch, serve, wait_ready

TARGET_CPU_S = 0.3
TARGET_ADVANCES = 150
STATE = ("() => { const p = (window.__olabPlayers || {}).t; "
         "return p ? {nonce: p.nonce, started: p.started, advances: p.advances, round: p.round, draw_ms: p.drawMs, full: p.full, "
         "charts: [...p.charts].map(([gd, c]) => [((c.layout || {}).title || {}).text || '?', c.draws || 0, "
         "Math.round((c.drawMs || 0) / (c.draws || 1))])} : null }")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process (and its reaped children), in seconds, from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def server_pid(port: str) -> int:
    out = subprocess.check_output(["pgrep", "-f", f"streamlit run .*--server.port {port}"]).split()
    return int(out[0])


def play_once(page, pid: int, timeout: float) -> dict:
    page.locator("h1").first.click()
    c0, w0 = cpu_seconds(pid), time.perf_counter()
    page.keyboard.press("k")
    page.wait_for_function(f"() => {{ const s = ({STATE})(); return s && s.nonce; }}", timeout=timeout * 1000)
    page.wait_for_function(f"() => {{ const s = ({STATE})(); return s && (s.started || !s.nonce); }}",
                           timeout=timeout * 1000, polling=20)
    started = time.perf_counter() - w0
    page.wait_for_function(f"() => {{ const s = ({STATE})(); return s && !s.nonce; }}", timeout=timeout * 1000)
    wait_ready(page)
    state = page.evaluate(STATE)
    return {"cpu": cpu_seconds(pid) - c0, "wall": time.perf_counter() - w0, "start": started, "advances": state["advances"],
            "round": state["round"], "draw": state["draw_ms"] / max(state["advances"], 1), "full": state["full"],
            "charts": state["charts"]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--page", default="/perceptron")
    ap.add_argument("--query", default="T=2000", help="settings of the run (URL query, without present=1)")
    ap.add_argument("--speed", type=int, default=200, choices=PLAY_SPEEDS, help="rounds per second")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds allowed for one play")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with serve(log_path=os.devnull) as base, sync_playwright() as p:
        pid = server_pid(base.rsplit(":", 1)[1])
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1920, "height": 1080})
            page.goto(f"{base}{args.page}?present=1&{args.query}")
            wait_ready(page)
            thumb = page.locator(".st-key-player_t [data-testid=stSlider]").last.locator("input[type=range]")
            thumb.focus()
            page.keyboard.press("Home")
            for _ in range(PLAY_SPEEDS.index(args.speed)):
                page.keyboard.press("ArrowRight")
            wait_ready(page)
            rows = [("cold (frames built)", play_once(page, pid, args.timeout)),
                    ("warm (frames shared)", play_once(page, pid, args.timeout))]
        finally:
            browser.close()
    print(f"Play in the browser: {args.page}?{args.query}, presenter mode, 1920 x 1080, {args.speed} rounds/s "
          f"(load average {os.getloadavg()[0]:.2f})")
    print(f"{'play':<22} {'wall s':>7} {'start s':>8} {'server CPU s':>13} {'advances':>9} {'ms/advance':>11} {'last round':>11} {'full redraws':>13}")
    for name, r in rows:
        print(f"{name:<22} {r['wall']:>7.1f} {r['start']:>8.2f} {r['cpu']:>13.3f} {r['advances']:>9} {r['draw']:>11.0f} {r['round']:>11} {r['full']:>13}")
    for name, r in rows:
        print(f"  {name}: per chart (redraws, ms from a redraw's start to plotly.js done): " + "; ".join(
            f"{title.replace('<b>', '').replace('</b>', '')[:40]} {n}, {ms} ms" for title, n, ms in r["charts"] if n))
    warm = rows[1][1]
    ok = warm["cpu"] < TARGET_CPU_S and warm["advances"] >= TARGET_ADVANCES
    print(f"target (warm): server CPU < {TARGET_CPU_S} s and >= {TARGET_ADVANCES} advances: "
          f"{'met' if ok else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
