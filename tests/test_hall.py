"""A lecture hall on one link (scripts/hall.py): two replicas behind Debian's HAProxy.

A CSV uploaded through the balancer reaches the page (its upload is a ``PUT /_stcore/upload_file/
<session id>/...`` that only the replica holding the session's websocket accepts), for browsers
placed on each of the two replicas.  The hall heals: a replica killed under two browsers is
restarted, both browsers show their view again within 5 s (the killed one's rebuilt on the other
replica, saying so once), the first click after it is not lost, and the hall runs two replicas again.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from urllib.parse import parse_qs, urlparse

import pytest

from olapp import reconnect
from olcore import streams
from scripts.hall import COOKIE, REPLICA_NAME, Hall, Replica, haproxy_config, haproxy_path, hall
from scripts.served_app import free_port, wait_ready
from tests.helpers import run_coroutine
from scripts.stclient import Session

pytestmark = pytest.mark.browser


def _need_haproxy() -> str:
    exe = haproxy_path()
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set but haproxy is missing: install Debian's 'haproxy' (see .ci/run)")
        pytest.skip("haproxy not installed (apt-get install haproxy)")
    return exe


@pytest.fixture(scope="module")
def two_replicas():
    _need_haproxy()
    with hall(2, timeout=120) as h:
        # each replica's first visit of the page (its imports) at once, straight to the replica
        async def warm():
            async def one(base):
                async with Session.open(base, "perceptron", "stream=Upload", timeout=120):
                    pass
            await asyncio.gather(*(one(b) for b in h.replicas))

        run_coroutine(warm, 180)
        yield h


def test_the_generated_config_is_valid_haproxy(tmp_path):
    exe = _need_haproxy()
    cfg = tmp_path / "haproxy.cfg"
    cfg.write_text(haproxy_config("127.0.0.1", 8501, [8601, 8602, 8603]))
    out = subprocess.run([exe, "-c", "-f", str(cfg)], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stdout + out.stderr
    text = cfg.read_text()
    assert f"cookie {COOKIE} insert" in text and text.count("cookie r") == 3


def test_uploads_through_the_balancer_reach_the_page_on_both_replicas(browser, two_replicas):
    h = two_replicas
    port = urlparse(h.base).port
    s = streams.separable(T=80, d=3, gamma=0.1, seed=2)
    data = streams.to_csv(s).encode()
    contexts, replicas = [], {}
    try:
        for _ in range(4):   # leastconn sends a new browser to the replica with fewer open connections
            ctx = browser.new_context(viewport={"width": 1300, "height": 1400})
            contexts.append(ctx)
            page = ctx.new_page()
            uploads = []
            page.on("response", lambda r, uploads=uploads: uploads.append(r) if "/_stcore/upload_file/" in r.url else None)
            page.goto(h.base + "/perceptron?stream=Upload")
            wait_ready(page, charts=False, timeout_ms=90_000)
            page.locator("[data-testid=stFileUploaderDropzoneInput]").first.set_input_files(
                files=[{"name": "mine.csv", "mimeType": "text/csv", "buffer": data}])
            page.wait_for_timeout(800)
            wait_ready(page, charts=True, timeout_ms=90_000)
            assert page.locator("[data-testid=stException]").count() == 0
            assert page.locator("[data-testid=stAlertContentError]").count() == 0
            assert "After 80 of 80 rounds" in page.locator("[data-testid=stMain]").inner_text()
            assert uploads and all(urlparse(r.url).port == port and r.ok for r in uploads), \
                [(r.url, r.status) for r in uploads]
            cookie = {c["name"]: c["value"] for c in ctx.cookies()}.get(COOKIE)
            replicas[cookie] = replicas.get(cookie, 0) + 1
            if {"r1", "r2"} <= set(replicas):
                break
        assert set(replicas) == {"r1", "r2"}, f"browsers per replica (affinity cookie): {replicas}"
        stats = h.stats()
        assert all(int(stats[r]["stot"]) > 0 for r in ("r1", "r2")), stats
    finally:
        for ctx in contexts:
            ctx.close()


def test_protocol_sessions_through_the_balancer_see_the_same_view_on_either_replica(two_replicas):
    """The load benchmark's client (scripts.stclient): two sessions land on the two replicas; after
    the first reruns to the second's seed, both show the same view, which differs from its own before."""
    h = two_replicas

    async def go():
        async with Session.open(h.base, "perceptron", "seed=3", timeout=90) as a, \
                Session.open(h.base, "perceptron", "seed=4", timeout=90) as b:
            assert a.last.ok and b.last.ok, (a.last.errors, b.last.errors)
            assert a.last.server_values["seed"] == 3 and b.last.server_values["seed"] == 4
            assert {a.replica, b.replica} == {"r1", "r2"}
            before = a.last.digest
            run = await a.set_widget("seed", 4)
            assert run.ok and a.query["seed"] == "4"
            assert run.digest == b.last.digest != before

    run_coroutine(go, 240)


# -- the hall heals ------------------------------------------------------------------------------

def test_the_config_marks_a_dead_replica_down_fast_and_sends_its_browsers_elsewhere():
    text = haproxy_config("127.0.0.1", 8501, [8601, 8602])
    assert "option redispatch 1" in text and "retry-on conn-failure" in text
    assert "check inter 1s fastinter 300ms downinter 1s fall 2 rise 2" in text
    assert "timeout check 30s" in text             # a busy replica answers late: it is not dropped
    options = [line.split("#")[0] for line in text.splitlines()]
    assert not any("observe layer4" in line for line in options)   # it would hold a redispatched request a second
    assert REPLICA_NAME == reconnect.ENV


def test_a_replica_that_dies_at_start_is_restarted_after_a_growing_pause(tmp_path):
    """The supervision alone (no balancer, no app): a replica that exits at once each time it starts
    is started again at once the first time, then after 1 s, then after 2 s; each time in one line."""
    said, starts = [], []

    def launch(name, port, log):
        starts.append(time.monotonic())
        return subprocess.Popen(["false"])

    port = free_port()
    r = Replica("r1", port, subprocess.Popen(["false"]), tmp_path / "r1.log")
    r.proc.wait()
    h = Hall("http://127.0.0.1:1", [r.base], [r.proc], None, tmp_path / "cfg", tmp_path / "sock",
             members=[r], launch=launch, say=said.append)
    end = time.monotonic() + 3.6
    while time.monotonic() < end:
        h.heal()
        time.sleep(0.05)
    for proc in h.procs:
        proc.wait()
    line = f"replica r1 exited (code 1); restarting it on 127.0.0.1:{port}"
    assert said[0] == line, said
    assert all(got.startswith(f"{line} in {n} s (it died 0 s after its last start)")
               for got, n in zip(said[1:], (1, 2, 4))), said
    assert len(starts) == 3 and len(said) in (3, 4), (said, starts)
    assert starts[1] - starts[0] >= 1.0 and starts[2] - starts[1] >= 2.0, starts
    assert h.procs[0] is r.proc and r.restarts == 3


def test_the_reconnect_notice_reads_the_websocket_request_and_shows_on_its_lesson_only(monkeypatch):
    """The frontend asks for its last session (a third subprotocol) only when it reconnects."""
    assert reconnect.reconnected({"Sec-WebSocket-Protocol": "streamlit, tok, 0f1e-aa"})
    assert not reconnect.reconnected({"Sec-WebSocket-Protocol": "streamlit, tok"})
    assert not reconnect.reconnected({"sec-websocket-protocol": "streamlit, tok, "})
    assert not reconnect.reconnected({})

    from streamlit.testing.v1 import AppTest

    def script():
        import streamlit as st

        from olapp import reconnect

        reconnect.notice(st.session_state.get("path", "perceptron"))

    monkeypatch.delenv(reconnect.ENV, raising=False)
    monkeypatch.setattr(reconnect, "reconnected", lambda headers: True)
    at = AppTest.from_function(script, default_timeout=30).run()
    assert not at.warning                            # outside a hall: nothing
    monkeypatch.setenv(reconnect.ENV, "r2")
    at = AppTest.from_function(script, default_timeout=30).run()
    assert [w.value for w in at.warning] == [reconnect.NOTICE]
    at.run()
    assert [w.value for w in at.warning] == [reconnect.NOTICE]      # once on the page, on every run there
    at.session_state["path"] = "winnow"
    at.run()
    assert not at.warning                            # another lesson: read, gone
    at.session_state["path"] = "perceptron"
    at.run()
    assert not at.warning
    monkeypatch.setattr(reconnect, "reconnected", lambda headers: False)
    at = AppTest.from_function(script, default_timeout=30).run()
    assert not at.warning                            # a session opened by a page load: nothing


READOUT = "After {t} of 60 rounds"
#: The view is back: the round's readout drawn by a run of the current session (not a stale element
#: left from the lost one; the player's buttons are drawn before it), the notice when expected, no
#: "Connection error".  ``idle`` also waits for the run to end (no status widget, nothing stale).
_VIEW = """([readout, notice, idle]) => {
    const main = document.querySelector('[data-testid=stMain]');
    if (!main) return false;
    const text = main.innerText;
    const shown = [...main.querySelectorAll('[data-testid=stElementContainer]')]
        .filter(e => e.innerText.includes(readout));
    return shown.length > 0 && shown.every(e => e.getAttribute('data-stale') !== 'true')
        && (notice === null || text.includes(notice))
        && !document.body.innerText.includes('Connection error')
        && (!idle || (!document.querySelector('[data-testid=stStatusWidget]')
                      && !main.querySelector('[data-stale=true]')));
}"""


def test_a_killed_replica_is_restarted_and_its_browsers_are_served_by_the_other(browser, two_replicas):
    """kill -9 one of two replicas under two browsers: both show their view again within 5 s (the
    killed one's rebuilt on the other replica, saying once that it reconnected and that an upload
    must be uploaded again), a Step click right after moves the round by one, the hall says what it
    does and runs two live replicas again within 30 s."""
    h = two_replicas
    h.wait_whole(60)                   # a test before may have left a replica restarting
    pages, contexts = {}, []
    try:
        for _ in range(6):             # leastconn: a new browser goes to the replica with fewer connections
            ctx = browser.new_context(viewport={"width": 1300, "height": 1400})
            contexts.append(ctx)
            page = ctx.new_page()
            page.goto(h.base + "/perceptron?T=60&seed=3&t=5")
            wait_ready(page, charts=False, timeout_ms=90_000)
            cookie = {c["name"]: c["value"] for c in ctx.cookies()}.get(COOKIE)
            pages.setdefault(cookie, page)
            if {"r1", "r2"} <= set(pages):
                break
        assert {"r1", "r2"} <= set(pages), f"browsers per replica (affinity cookie): {list(pages)}"
        victim, other = pages["r1"], pages["r2"]
        for page in (victim, other):
            page.wait_for_function(_VIEW, arg=[READOUT.format(t=5), None, True], timeout=30_000)
            assert reconnect.NOTICE not in page.locator("[data-testid=stMain]").inner_text()
        before = len(h.events)
        old_pid = h.procs[0].pid
        downs = int(h.stats()["r1"]["chkdown"])        # HAProxy's count of r1's UP -> DOWN transitions
        sockets = {"victim": [], "other": []}
        victim.on("websocket", lambda ws: sockets["victim"].append(ws.url))
        other.on("websocket", lambda ws: sockets["other"].append(ws.url))

        t0 = time.monotonic()
        h.procs[0].send_signal(signal.SIGKILL)
        victim.wait_for_function(_VIEW, arg=[READOUT.format(t=5), reconnect.NOTICE, False], polling=50,
                                 timeout=10_000)
        victim_back = time.monotonic() - t0
        # the first click after the reconnect reaches the new session's callback
        victim.get_by_role("button", name="Step").first.click()
        other.wait_for_function(_VIEW, arg=[READOUT.format(t=5), None, True], polling=50, timeout=10_000)
        other_back = time.monotonic() - t0
        print(f"\nafter the kill: the killed replica's browser back in {victim_back:.2f} s, "
              f"the other's view checked at {other_back:.2f} s")
        assert victim_back <= 5.0 and other_back <= 5.0, (victim_back, other_back)
        victim.wait_for_function(_VIEW, arg=[READOUT.format(t=6), reconnect.NOTICE, True], timeout=15_000)
        stepped = time.monotonic() - t0
        text = victim.locator("[data-testid=stMain]").inner_text()
        assert text.count(reconnect.NOTICE) == 1, text[:1500]
        assert victim.locator("[data-testid=stAlert]").filter(has_text=reconnect.NOTICE).count() == 1
        assert reconnect.NOTICE not in other.locator("[data-testid=stMain]").inner_text()
        assert {c["name"]: c["value"] for c in victim.context.cookies()}.get(COOKIE) == "r2"
        assert parse_qs(urlparse(victim.url).query).get("t") == ["6"], victim.url     # one round, not two
        assert len(sockets["victim"]) == 1 and sockets["other"] == [], sockets   # the other was never cut off
        print(f"the Step click after the reconnect showed round 6 at {stepped:.2f} s")

        h.wait_whole(max(1.0, 30 - (time.monotonic() - t0)))
        whole_at = time.monotonic() - t0
        print(f"the hall whole again {whole_at:.1f} s after the kill; it said: {[e for _, e in h.events[before:]]}")
        assert whole_at <= 30
        assert h.procs[0].pid != old_pid and h.procs[0].poll() is None
        stats = h.stats()
        assert all(stats[r]["status"].startswith("UP") for r in ("r1", "r2")), stats
        assert int(stats["r1"]["chkdown"]) == downs + 1, stats["r1"]     # its health check marked it down meanwhile
        port = urlparse(h.replicas[0]).port
        lines = [e for _, e in h.events[before:]]
        assert lines[0] == f"replica r1 exited (signal 9 SIGKILL); restarting it on 127.0.0.1:{port}", lines
        assert any(line.startswith(f"replica r1 is back on 127.0.0.1:{port}") for line in lines), lines
    finally:
        for ctx in contexts:
            ctx.close()
