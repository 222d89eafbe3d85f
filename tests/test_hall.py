"""A lecture hall on one link (scripts/hall.py): two replicas behind Debian's HAProxy.

A CSV uploaded through the balancer reaches the page (its upload is a ``PUT /_stcore/upload_file/
<session id>/...`` that only the replica holding the session's websocket accepts), for browsers
placed on each of the two replicas.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
from urllib.parse import urlparse

import pytest

from olcore import streams
from scripts.hall import COOKIE, haproxy_config, haproxy_path, hall
from scripts.served_app import wait_ready
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
