"""Projector-ready under AppTest: citations by course, typed points in the link, the live tally."""

from __future__ import annotations

import re

import pytest

from olcore import StreamError
from olcore.lessons import perceptron as lesson
from scripts.apptools import registered_pages
from tests.helpers import run_page

LESSONS = [p for p in registered_pages() if p != "home"]


def _texts(node) -> list[str]:
    """Every string a page sends for ``node`` and below: bodies, labels, help texts, code, captions."""
    out = []
    proto = getattr(node, "proto", None)
    if proto is not None:
        out.append(str(proto))
    children = getattr(node, "children", None)
    if isinstance(children, dict):
        for child in children.values():
            out.extend(_texts(child))
    return out


@pytest.mark.parametrize("slug", LESSONS)
def test_no_page_text_names_a_file_under_seeds(slug):
    at = run_page(f"pages/{slug}.py")
    text = "\n".join(_texts(at._tree))
    assert len(text) > 1000, "the walk found the page's text"
    found = re.findall(r"seeds/\S*", text)
    assert not found, f"/{slug} names {found[:3]}"


def test_the_walk_finds_a_planted_seeds_citation():
    def app():
        import streamlit as st

        with st.expander("Show the code"):
            st.code("see seeds/000_x.txt")
        st.markdown("x" * 1000)

    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(app).run()
    assert "seeds/000_x.txt" in "\n".join(_texts(at._tree))


POINTS = ([0.5, -0.5, 0.25, -0.75], [0.5, -0.5, 0.875, 0.125], [1, -1, 1, -1])


def test_typed_points_round_trip_through_their_encoding():
    text = lesson.encode_points(*POINTS)
    assert lesson.parse_points(text) == tuple(list(c) for c in POINTS)
    assert re.fullmatch(r"[-0-9._~e]+", text), "URL-safe characters only"


@pytest.mark.parametrize("bad", ["1_2", "1_2_3", "a_b_1", "inf_0_1", "0_0_1~" * 201, "1_2_1_4"])
def test_bad_typed_points_are_rejected_with_a_message(bad):
    with pytest.raises(StreamError, match="typed points"):
        lesson.parse_points(bad)


def _rounds_shown(at) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("After **"))


def test_a_typed_points_link_opens_the_same_points_in_a_fresh_session():
    link = lesson.encode_points(*POINTS)
    at = run_page("pages/perceptron.py", query={"stream": "Typed", "pts": link})
    assert _rounds_shown(at).startswith("After **4** of 4 rounds")
    assert at.query_params["pts"] == [link] or at.query_params["pts"] == link
    assert not at.warning


def test_a_bad_typed_points_link_warns_and_shows_the_example_points():
    at = run_page("pages/perceptron.py", query={"stream": "Typed", "pts": "1_2_3"})
    assert any("typed points could not be read" in w.value for w in at.warning)
    assert _rounds_shown(at).startswith("After **6** of 6 rounds")   # the example table


def test_the_tally_reads_the_bound_at_the_players_round():
    at = run_page("pages/perceptron.py", query={"t": "5"})
    line = _rounds_shown(at)
    assert line.startswith("After **5** of 60 rounds: mistakes **")
    assert "≤ (R/γ)²" in line
