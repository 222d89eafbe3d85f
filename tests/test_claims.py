"""Every sentence about the run that can be false at some settings holds for the run beside it.

A text that states an inequality, a count, a monotonicity or a "never"/"always" is written with
:func:`olcore.claims.claim` (the words and their truth condition, both from the run). Here every
registered lesson is rendered at its defaults, at every lecture preset and at every scene of its
lecture (and after each scene's question is answered); every text shown through ``st.markdown``,
``st.caption``, the alert boxes or ``st.metric`` is collected, and every claim it carries must hold.
A new lesson is checked as soon as it is registered.
"""

from __future__ import annotations

import threading

import pytest

from olapp import registry
from olcore.claims import Claim, claim, claims_of, join, text
from tests.helpers import run_page

_shown: list[Claim] = []
_lock = threading.Lock()


def _record(args, kwargs) -> None:
    found = tuple(c for a in (*args, *kwargs.values()) for c in claims_of(a))
    if found:
        with _lock:
            _shown.extend(found)


def _recording(method):
    def recorder(self, *args, **kwargs):
        _record(args, kwargs)
        return method(self, *args, **kwargs)
    return recorder


def _recording_function(fn):            # st.markdown & co. are bound to the main container at import
    def recorder(*args, **kwargs):
        _record(args, kwargs)
        return fn(*args, **kwargs)
    return recorder


@pytest.fixture
def shown(monkeypatch):
    """The claims of every text the app shows while the test runs."""
    import streamlit as st
    from streamlit.elements.alert import AlertMixin
    from streamlit.elements.markdown import MarkdownMixin
    from streamlit.elements.metric import MetricMixin

    for cls, names in ((MarkdownMixin, ("markdown", "caption")), (AlertMixin, ("info", "warning", "success", "error")),
                       (MetricMixin, ("metric",))):
        for name in names:
            monkeypatch.setattr(cls, name, _recording(getattr(cls, name)))
            monkeypatch.setattr(st, name, _recording_function(getattr(st, name)))
    with _lock:
        _shown.clear()
    yield _shown


def _false(claims) -> list[str]:
    return [f"{c.what!r} (shown as {c.words!r})" for c in claims if not c.holds]


# -- the mechanism -------------------------------------------------------------------------------

def test_a_text_keeps_its_claims_through_concatenation_and_join():
    a = claim("never negative", True, "slack >= 0")
    b = claim("a smaller bound", False)
    t = text("Smallest slack: 0 (", a, "). ") + b
    assert str(t) == "Smallest slack: 0 (never negative). a smaller bound"
    assert [c.what for c in claims_of(t)] == ["slack >= 0", "a smaller bound"]
    j = join("\n\n", ["x", t, "y"])
    assert claims_of(j) == claims_of(t) and str(j).count("\n\n") == 2
    assert claims_of("plain") == () and claims_of(f"{t}") == ()        # an f-string drops them: use text()


def test_the_recorder_catches_a_false_claim_shown_by_a_page(shown, monkeypatch):
    import olapp.content.perceptron as content

    monkeypatch.setattr(content, "INTRO", text(content.INTRO, " ", claim("Always wrong.", False, "a planted claim")))
    run_page("pages/perceptron.py")
    assert _false(shown) == ["'a planted claim' (shown as 'Always wrong.')"]


# -- every view of every lesson ------------------------------------------------------------------

VIEWS = [(e, "defaults", None) for e in registry.lessons()]
VIEWS += [(e, "preset", p.name) for e in registry.lessons() for p in e.presets]
VIEWS += [(e, "scene", k) for e in registry.lessons() for k in range(1, len(e.lecture) + 1)]


def _id(view) -> str:
    entry, kind, which = view
    return f"{entry.slug}-{kind}" + ("" if which is None else f"-{which}")


def _answer_right(at, entry, k) -> None:
    """Answer scene ``k``'s question (any answer: the claims after the reveal are checked)."""
    q = entry.lecture[k - 1].question
    key = f"lecture_q{k}"
    if q is None or key not in at.session_state:
        return
    widget = at.radio(key=key) if q.kind == "choice" else at.number_input(key=key)
    widget.set_value(next(iter(q.options)) if q.kind == "choice" else widget.value or 0).run()
    at.button(key=f"{key}_check").click().run()


@pytest.mark.parametrize("view", VIEWS, ids=[_id(v) for v in VIEWS])
def test_every_claim_shown_holds(view, shown):
    entry, kind, which = view
    if kind == "scene":
        at = run_page(entry.path, query={"scene": which})
        _answer_right(at, entry, which)
    else:
        at = run_page(entry.path)
        if kind == "preset":
            at.selectbox(key="preset").set_value(which).run()
    assert not at.exception, [e.message for e in at.exception]
    assert _false(shown) == []
    if kind == "defaults":        # every lesson states its measures against their bounds: claims
        assert shown, f"/{entry.slug}: no claim shown at the defaults"
