"""olapp.compat's wakeups hook: the event loop woken once per batch of a session's callbacks, in their order.

Every served test (browser, hall, load client) runs on a patched server; these tests pin the
mechanism itself on a real asyncio loop in a thread, as the server runs it.
"""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace

import pytest

import app  # noqa: F401  (installs the patch, as the server's import of app.py does)
from olapp import compat, serving


@pytest.fixture
def loop_thread():
    """A running event loop in a thread of its own, and a wrapper counting its wake-ups."""
    loop = asyncio.new_event_loop()
    t = threading.Thread(target=loop.run_forever, daemon=True)
    t.start()
    wakeups = []
    real = loop.call_soon_threadsafe

    def counting(cb, *args, **kw):
        wakeups.append(cb)
        return real(cb, *args, **kw)

    loop.call_soon_threadsafe = counting
    yield loop, wakeups, real
    real(loop.stop)
    t.join(5)
    loop.close()


def _session(loop):
    return SimpleNamespace(_event_loop=loop)


def _blocked(real_call_soon) -> threading.Event:
    """Keep the loop busy until the returned event is set (scheduled without counting)."""
    release, running = threading.Event(), threading.Event()

    def block():
        running.set()
        release.wait(10)

    real_call_soon(block)
    assert running.wait(5)
    return release


def test_the_patch_is_active_on_the_installed_streamlit():
    from streamlit.runtime.app_session import AppSession
    from streamlit.runtime.runtime import Runtime

    assert compat.active("wakeups"), (
        "Streamlit's internals differ from 1.67's: check olapp/compat.py's wakeups hook against this version, "
        "then adapt or drop it (the app works without it, with more CPU per rerun)")
    assert compat.install_wakeups(), "app.py installs the patch when it is imported, as the server imports it"
    assert AppSession._call_soon_on_event_loop is compat._call_soon_on_event_loop
    assert Runtime._enqueued_some_message is compat._enqueued_some_message


def test_callbacks_queued_while_the_loop_is_busy_run_in_order_after_one_wakeup(loop_thread):
    loop, wakeups, real = loop_thread
    session = _session(loop)
    release = _blocked(real)
    seen, done = [], threading.Event()
    for i in range(100):
        compat._call_soon_on_event_loop(session, lambda i=i: seen.append(i))
    compat._call_soon_on_event_loop(session, done.set)
    assert len(wakeups) == 1, "one drain for the whole batch"
    release.set()
    assert done.wait(5)
    assert seen == list(range(100))
    # the next batch schedules a drain of its own
    again = threading.Event()
    compat._call_soon_on_event_loop(session, again.set)
    assert again.wait(5) and len(wakeups) == 2


def test_callbacks_from_many_threads_all_run_and_each_threads_order_is_kept(loop_thread):
    loop, wakeups, _ = loop_thread
    session = _session(loop)
    seen: list[tuple[int, int]] = []
    n, per = 4, 500

    def produce(k):
        for i in range(per):
            compat._call_soon_on_event_loop(session, lambda k=k, i=i: seen.append((k, i)))

    threads = [threading.Thread(target=produce, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    finished = threading.Event()
    compat._call_soon_on_event_loop(session, finished.set)
    assert finished.wait(10)
    assert len(seen) == n * per
    for k in range(n):
        assert [i for kk, i in seen if kk == k] == list(range(per))
    assert len(wakeups) <= n * per + 1


def test_an_exception_in_one_callback_is_reported_and_the_next_ones_still_run(loop_thread):
    loop, _, real = loop_thread
    session = _session(loop)
    reported, seen, done = [], [], threading.Event()
    loop.set_exception_handler(lambda _loop, context: reported.append(context["exception"]))
    release = _blocked(real)

    def boom():
        raise ValueError("bad callback")

    compat._call_soon_on_event_loop(session, lambda: seen.append(1))
    compat._call_soon_on_event_loop(session, boom)
    compat._call_soon_on_event_loop(session, lambda: seen.append(3))
    compat._call_soon_on_event_loop(session, done.set)
    release.set()
    assert done.wait(5)
    assert seen == [1, 3]
    assert len(reported) == 1 and isinstance(reported[0], ValueError)


def test_a_closed_loop_drops_the_callbacks_and_a_later_batch_is_not_stuck():
    loop = asyncio.new_event_loop()
    loop.close()
    session = _session(loop)
    compat._call_soon_on_event_loop(session, lambda: None)       # as Streamlit: dropped, no error
    batch = session.__dict__["_olab_batch"]
    assert batch.callbacks == [] and batch.scheduled is False


def test_the_sender_is_woken_only_when_it_is_not_already_due(loop_thread):
    loop, wakeups, real = loop_thread
    need = asyncio.Event()
    runtime = SimpleNamespace(_get_async_objs=lambda: SimpleNamespace(need_send_data=need, eventloop=loop))
    compat._enqueued_some_message(runtime)
    assert len(wakeups) == 1
    done = threading.Event()
    real(done.set)
    assert done.wait(5) and need.is_set()
    compat._enqueued_some_message(runtime)           # already due: the coming flush sends the message
    assert len(wakeups) == 1
    real(need.clear)                                  # the loop clears it before it flushes ...
    done.clear()
    real(done.set)
    assert done.wait(5)
    compat._enqueued_some_message(runtime)           # ... so the next message wakes it again
    assert len(wakeups) == 2


def test_the_server_collects_garbage_less_often():
    import gc


    assert gc.get_threshold()[0] >= serving.GC_THRESHOLD
    t0, t1, t2 = gc.get_threshold()
    try:
        gc.set_threshold(700, 11, 12)
        serving.collect_less()
        assert gc.get_threshold() == (serving.GC_THRESHOLD, 11, 12)      # the older generations' kept
        gc.set_threshold(0, 11, 12)
        serving.collect_less()
        assert gc.get_threshold()[0] == 0                                  # disabled stays disabled
    finally:
        gc.set_threshold(t0, t1, t2)
