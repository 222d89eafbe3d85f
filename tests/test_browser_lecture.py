"""Lecture mode in a real browser: the clicker's PageDown moves to the next scene, and a question
answered shows its reveal (olapp/lecture.py)."""

from __future__ import annotations

import re

from olapp import registry
from olcore.lessons import halving
from olapp.content import halving as text
from scripts.served_app import wait_ready

SCREEN = {"width": 1920, "height": 1080}


def _scene_is(page, k: int) -> None:
    page.wait_for_function(f"() => new URL(location.href).searchParams.get('scene') === '{k}'", timeout=30_000)
    wait_ready(page)
    page.get_by_text(re.compile(rf"scene {k} of \d+")).first.wait_for(timeout=30_000)


def test_page_down_moves_to_the_next_scene_and_a_question_reveals_its_answer(browser, base_url):
    scenes = registry.lesson("halving").lecture
    ctx = browser.new_context(viewport=SCREEN)
    page = ctx.new_page()
    try:
        page.goto(f"{base_url}/halving?scene=1&present=1")
        _scene_is(page, 1)
        page.locator("h1").first.click()
        page.keyboard.press("PageDown")                       # what a presenter's clicker sends
        _scene_is(page, 2)
        assert page.get_by_text(scenes[1].title).count() >= 1
        assert "present=1" in page.url
        # scene 2 asks before the round is played: the player is held at round 0
        q = scenes[1].question
        v = scenes[1].values
        a = halving.analyse(halving.make_stream(text.CODES[v["stream"]], v["n"], v["T"], v["p"], v["extra"], v["seed"]))
        truth = q.right_answer(a)
        box = page.locator(".st-key-lecture_question input[type='number']")
        box.fill(str(truth))
        box.press("Enter")
        check = page.get_by_role("button", name=re.compile("^Check"))
        page.wait_for_function("() => [...document.querySelectorAll('.st-key-lecture_question button')]"
                               ".some(b => /Check/.test(b.textContent) && !b.disabled)", timeout=30_000)
        check.click()
        reveal = page.locator(".st-key-lecture_reveal")
        reveal.wait_for(timeout=30_000)
        said = reveal.inner_text()
        assert "Right." in said and f"the run gives {truth}" in said
        # the scene plays on to the reveal round, in the browser; PageUp while it plays, and the play ends at
        # once: its report must neither make Streamlit drop the key's click nor, rerun with the address bar's
        # scene=2, undo the move
        page.wait_for_function(f"() => new URL(location.href).searchParams.get('t') === '{q.reveal}'", timeout=30_000)
        page.keyboard.press("PageUp")
        page.evaluate("() => { const p = window.__olabPlayers.t; if (p.nonce) p.stop(true); }")
        _scene_is(page, 1)
    finally:
        ctx.close()
