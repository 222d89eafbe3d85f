"""Text from outside (URL keys and values, a file's name and cells) is shown literally: no link, image,
code span, formula or autolink can come out of it (olapp.state.inert, used by every echo)."""

from __future__ import annotations

import re

import pytest

from olapp.state import inert
from tests.helpers import plain, run_page

HOSTILE = ["x`[pwn](http://evil.example/a)`", "![p](http://evil.example/i.png)", "<img src=x onerror=alert(1)>",
           "javascript:alert(1)", "www.evil.example", "http://evil.example", "$x^2$", "**b** _i_ ~~s~~",
           "[a]: http://evil.example", "line\nbreak\r\x00", "me@evil.example"]


@pytest.mark.parametrize("text", HOSTILE)
def test_inert_text_has_no_unescaped_markdown_and_reads_the_same(text):
    md = inert(text)
    unescaped = re.sub(r"\\.", "", md)                   # what is left once every escape pair is removed
    assert not re.search(r"""[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~]""", unescaped), md
    assert "\n" not in md and "\x00" not in md
    assert plain(md) == re.sub(r"[\x00-\x1f\x7f]", " ", text)
    assert not re.search(r"(?i)https?\\?:|www\\?\.|ftp|mailto|@[^\u2060]", md.replace("\\", "")), md   # no autolink start


def test_inert_cuts_long_text():
    assert plain(inert("a" * 100, limit=30)) == "a" * 30 + "…"


def test_inert_breaks_every_autolink_start_and_keeps_numbers():
    assert "\u2060" not in inert("T = 1.5e3, 0.25")
    for url in ("http://evil.example", "HTTPS://evil.example", "www.evil.example", "me@evil.example"):
        assert "\u2060" in inert(url), url


@pytest.mark.parametrize("key, value", [("x`[pwn](http://evil.example)`", "inf"),
                                        ("x`![p](http://evil.example/i.png)`", "inf"),
                                        ("seed", "1e5000`[pwn](http://evil.example)")])
def test_a_crafted_link_is_echoed_inert_in_the_note(key, value):
    at = run_page("pages/perceptron.py", query={key: value})
    notes = [w.value for w in at.warning if "This link had settings" in w.value]
    assert notes, [w.value for w in at.warning]
    assert "](" not in notes[0] and "`" not in notes[0].replace("\\`", ""), notes[0]
    assert inert(key, 30) in notes[0]


def test_a_crafted_scene_value_is_echoed_inert():
    at = run_page("pages/halving.py", query={"scene": "1`[x](http://evil.example)"})
    said = " ".join(w.value for w in at.warning)
    assert "is not a scene" in said and "](" not in said
