"""The load benchmark's client (scripts/stclient.py) keeps the frontend's message cache.

A browser keeps every message the server marks cacheable (a chart of 10 KB or more), sends their
hashes with each rerun, and receives an unchanged chart as a reference to it.  The client must do
the same, or the load benchmark makes the server send bytes that no browser would receive.
"""

from __future__ import annotations

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from scripts.stclient import ProtocolError, Run, Session
from tests.helpers import run_coroutine


def _element(text: str, cacheable: bool, path: int) -> tuple[ForwardMsg, bytes]:
    f = ForwardMsg()
    f.hash = f"h-{text}"
    f.delta.new_element.markdown.body = text
    f.metadata.cacheable = cacheable
    f.metadata.delta_path.extend([0, path])
    return f, f.SerializeToString()


def _ref(text: str, path: int) -> ForwardMsg:
    f = ForwardMsg()
    f.ref_hash = f"h-{text}"
    f.metadata.cacheable = True
    f.metadata.delta_path.extend([0, path])
    return f


def test_cacheable_messages_are_kept_references_resolved_in_place_and_unused_entries_expire():
    s = Session("http://127.0.0.1:1", "page")
    run = Run()
    big, raw = _element("big chart", True, 3)
    small, raw_small = _element("small text", False, 4)
    assert s._through_cache(big, raw, run) is big and s._through_cache(small, raw_small, run) is small
    assert list(s.message_cache) == ["h-big chart"]            # only what the server marked cacheable

    got = s._through_cache(_ref("big chart", 7), b"", run)     # the same chart, drawn elsewhere this time
    assert got.delta.new_element.markdown.body == "big chart"
    assert list(got.metadata.delta_path) == [0, 7] and run.refs == 1
    with pytest.raises(ProtocolError, match="never cached"):
        s._through_cache(_ref("small text", 4), b"", run)

    # used in run 0; max age 2: kept after runs 1 and 2, dropped once 3 runs passed without it
    s._age_cache()
    s._age_cache()
    assert "h-big chart" in s.message_cache
    s._through_cache(_ref("big chart", 3), b"", run)          # used again in run 2: its age restarts
    s._age_cache()
    s._age_cache()
    assert "h-big chart" in s.message_cache
    s._age_cache()
    assert s.message_cache == {}


def test_an_unchanged_chart_is_sent_as_a_reference_and_draws_the_same_view(base_url):
    """Against the served app: a rerun with nothing changed receives /perceptron's charts as
    references (far fewer bytes) and resolves them to the same view; after a seed change and back,
    within the server's cache age, the first view's charts are references again."""

    async def go():
        async with Session.open(base_url, "perceptron", "seed=3", timeout=120) as s:
            first = s.last
            assert first.ok and first.refs == 0 and s.message_cache, "the first view caches its charts"
            same = await s._rerun()
            assert same.ok and same.refs >= 2, same.refs
            assert same.digest == first.digest
            assert same.bytes < first.bytes / 2, (same.bytes, first.bytes)
            other = await s.set_widget("seed", 4)
            assert other.ok and other.digest != first.digest
            back = await s.set_widget("seed", 3)
            assert back.ok and back.refs >= 2 and back.digest == first.digest

    run_coroutine(go, 300)
