"""One wake-up of the server's event loop per batch of a run's messages, instead of two per message.

Streamlit 1.67 hands each message a script run produces (every element: 40 to 70 per lesson run)
from the script's thread to the server's event loop with ``loop.call_soon_threadsafe``
(``AppSession._call_soon_on_event_loop``), which writes a byte to the loop's self-pipe and wakes it.
On the loop, queueing the message for the browser wakes it once more
(``Runtime._enqueued_some_message``, another ``call_soon_threadsafe``).  Measured on this 2-core
machine, those wake-ups are about a tenth of a rerun's CPU, in a hall where every rerun counts
(issue 17).  :func:`install` changes both, process-wide:

- a session's callbacks go to a queue of its own; only the first callback of a batch schedules a
  drain on the loop, and the drain runs every queued callback, in the order they came (an
  exception in one is reported to the loop's exception handler, as asyncio does, and the next
  ones still run);
- the sender is not woken again while its ``need_send_data`` event is already set: the loop clears
  the event *before* it flushes the sessions' queues, so a message queued while the event is set
  is in the queue that the coming flush sends.

Both are Streamlit internals.  :func:`install` patches only a Streamlit whose two methods look as
they do in 1.67 (names, signatures, the attributes they use); on any other it leaves Streamlit
alone and the app works the same, only with a little more CPU per rerun.  ``tests/test_serving.py``
checks the patch is active on the installed Streamlit, keeps the order of callbacks, survives an
exception and a closed loop, and that a served lesson draws the same view with and without it.
"""

from __future__ import annotations

import gc
import inspect
import logging
import threading
from typing import Callable

__all__ = ["install", "installed", "collect_less", "GC_THRESHOLD"]

_LOG = logging.getLogger(__name__)
_state = {"installed": False}
_install_lock = threading.Lock()


class _Batch:
    """A session's callbacks waiting for the event loop, and whether a drain is scheduled."""

    __slots__ = ("lock", "callbacks", "scheduled")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.callbacks: list[Callable[[], None]] = []
        self.scheduled = False


def _batch_of(session) -> _Batch:
    batch = session.__dict__.get("_olab_batch")
    if batch is None:                                   # setdefault: one batch even if two threads race here
        batch = session.__dict__.setdefault("_olab_batch", _Batch())
    return batch


def _call_soon_on_event_loop(self, callback: Callable[[], None]) -> None:
    """``AppSession._call_soon_on_event_loop``, batched: see the module docstring."""
    batch = _batch_of(self)
    with batch.lock:
        batch.callbacks.append(callback)
        if batch.scheduled:
            return
        batch.scheduled = True
    loop = self._event_loop

    def drain() -> None:
        with batch.lock:
            callbacks, batch.callbacks = batch.callbacks, []
            batch.scheduled = False
        for cb in callbacks:
            try:
                cb()
            except Exception as exc:        # as asyncio's Handle._run: report it, go on with the next
                loop.call_exception_handler({"message": f"Exception in callback {cb!r}", "exception": exc})

    try:
        loop.call_soon_threadsafe(drain)
    except RuntimeError:                    # as Streamlit: a closed loop (shutdown) drops the callbacks
        with batch.lock:
            batch.callbacks.clear()
            batch.scheduled = False
        if not loop.is_closed():
            raise
        _LOG.debug("Dropped event-loop callbacks: the loop is closed")


def _enqueued_some_message(self) -> None:
    """``Runtime._enqueued_some_message``, without a wake-up while the sender is already due."""
    async_objs = self._get_async_objs()
    if async_objs.need_send_data.is_set():
        return
    async_objs.eventloop.call_soon_threadsafe(async_objs.need_send_data.set)


def _looks_like_1_67(AppSession, Runtime) -> bool:
    """Whether the two methods (and what the replacements use) are there as in Streamlit 1.67."""
    try:
        call_soon = AppSession._call_soon_on_event_loop
        enqueued = Runtime._enqueued_some_message
        src_call_soon = inspect.getsource(call_soon)
        src_enqueued = inspect.getsource(enqueued)
    except (AttributeError, OSError, TypeError):
        return False
    return (list(inspect.signature(call_soon).parameters) == ["self", "callback"]
            and list(inspect.signature(enqueued).parameters) == ["self"]
            and "self._event_loop.call_soon_threadsafe(callback)" in src_call_soon
            and "call_soon_threadsafe(async_objs.need_send_data.set)" in src_enqueued
            and hasattr(Runtime, "_get_async_objs"))


def install() -> bool:
    """Batch the event-loop wake-ups of every session of this process (idempotent); returns whether
    the patch is active (``False`` on a Streamlit whose internals differ from 1.67's)."""
    with _install_lock:
        if _state["installed"]:
            return True
        try:
            from streamlit.runtime.app_session import AppSession
            from streamlit.runtime.runtime import Runtime
        except ImportError:
            return False
        if not _looks_like_1_67(AppSession, Runtime):
            _LOG.info("Streamlit's event-loop internals differ from 1.67's: wake-ups left unbatched")
            return False
        AppSession._call_soon_on_event_loop = _call_soon_on_event_loop
        Runtime._enqueued_some_message = _enqueued_some_message
        _state["installed"] = True
        return True


def installed() -> bool:
    """Whether :func:`install` patched Streamlit in this process."""
    return _state["installed"]


#: Allocations (net of frees) between two of Python's young-generation collections in a server
#: process; Python's default is 700.
GC_THRESHOLD = 20_000


def collect_less() -> None:
    """Raise the garbage collector's first threshold to :data:`GC_THRESHOLD` (process-wide; the
    older generations' thresholds are kept).

    A rerun allocates hundreds of thousands of short-lived objects (figures, their JSON, messages),
    and the server holds some 150,000-370,000 long-lived ones (modules, the shared memo).  With the
    default threshold the collector ran about 800 young, 70 middle and 5-6 full collections in a
    load run of two lessons (20 sessions each opening a lesson and rerunning it 3 times with seeds of
    their own, ``python -m benchmarks.load --part reruns --lesson wm_vs_hedge --lesson halving``):
    2.0 s of collection, each full one 130-380 ms during which no session is served.  With 20,000:
    24 young, 2 middle and no full collection, 0.5 s in all; the server's CPU per page load went
    0.127 -> 0.078 s (/wm_vs_hedge) and 0.109 -> 0.077 s (/halving), its resident memory did not
    change (415-418 MB), and the reruns' CPU stayed within this machine's noise.  Objects that are
    garbage only as a cycle live a little longer; everything else is freed by reference counting,
    as before."""
    t0, t1, t2 = gc.get_threshold()
    if 0 < t0 < GC_THRESHOLD:                   # (0: collection disabled by someone else: left alone)
        gc.set_threshold(GC_THRESHOLD, t1, t2)
