"""A link's dropped settings are reported on every page, also when the page stops early.

A page stops early (``state.stop``) while it waits for an upload or for the first move of a game;
the note about the link's ignored settings is drawn by the app's epilogue, which such a page must
not skip (with ``st.stop()`` alone nothing more can be drawn after it).
"""

from __future__ import annotations

import pytest

from olapp import registry
from tests.helpers import plain
from tests.test_fuzz_url import open_page

UPLOADING = [lesson.slug for lesson in registry.lessons() if lesson.slug != "home"]


def _notes(at) -> list[str]:
    return [plain(w.value) for w in at.warning if "do not fit" in plain(w.value)]


@pytest.mark.parametrize("slug", UPLOADING)
def test_a_page_waiting_for_an_upload_still_reports_the_links_dropped_settings(slug):
    at = open_page(slug, {"stream": "Upload", "seed": "inf"})
    assert not at.exception, [e.message for e in at.exception]
    waiting = [i.value for i in at.info if "Upload a CSV" in i.value]
    if not waiting:
        pytest.skip(f"{slug} has no upload source under the URL key 'stream'")
    notes = _notes(at)
    assert len(notes) == 1 and "seed=inf" in notes[0], notes


def test_the_halving_game_before_its_first_move_reports_the_links_dropped_settings():
    at = open_page("halving", {"stream": "You are the adversary", "n": "inf"})
    assert not at.exception, [e.message for e in at.exception]
    assert any("No round played yet" in i.value for i in at.info), "the game did not wait for its first move"
    notes = _notes(at)
    assert len(notes) == 1 and "n=inf" in notes[0], notes


def test_a_page_that_runs_to_its_end_reports_the_note_once():
    at = open_page("perceptron", {"seed": "inf"})
    assert not at.exception, [e.message for e in at.exception]
    assert len(_notes(at)) == 1


def test_a_page_waiting_for_an_upload_in_presenter_mode_says_how_to_reach_the_upload():
    at = open_page("perceptron", {"stream": "Upload", "present": "1"})
    assert not at.exception
    waiting = [i.value for i in at.info if "CSV stream" in i.value]
    assert waiting and waiting[0].startswith("Leave presenter mode (key P) to upload"), waiting
