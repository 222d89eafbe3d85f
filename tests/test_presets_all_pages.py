"""Every lecture preset on every lesson page runs without an exception and draws its bound."""

import pytest

from olapp import registry
from tests.helpers import bound_traces, figures, run_page

LESSONS = [entry.path for entry in registry.lessons()]          # every lesson of the registry
CUSTOM = "(your own settings)"
#: Presets whose view draws no bound because the notes prove none for it: (page, preset) -> why, and a
#: text the view must show instead (the measured claim).
NO_BOUND = {("pages/online_svm.py", "Selective sampling: half the labels"): (
    "the notes give the selective sampler's rule and its empirical performance on RCV1, no bound",
    "the sampler asked for")}


def preset_box(at):
    boxes = [s for s in at.selectbox if s.label == "Lecture preset"]
    assert boxes, "no 'Lecture preset' selector on the page"
    return boxes[0]


@pytest.mark.parametrize("page", LESSONS)
def test_each_preset_runs_and_shows_a_bound(page):
    at = run_page(page)
    names = [o for o in preset_box(at).options if o != CUSTOM]
    assert len(names) >= 2, f"{page} offers fewer than two lecture presets: {names}"
    for name in names:
        preset_box(at).set_value(name).run()
        assert not at.exception, (page, name, [e.message for e in at.exception])
        bounds = [t for f in figures(at) for t in bound_traces(f)]
        reveal = [b for b in at.button if b.label.startswith("Reveal y")]
        if not bounds and reveal:
            # "you are the adversary": nothing is drawn until the user plays a round; play two
            reveal[0].click().run()
            [b for b in at.button if b.label.startswith("Reveal y")][-1].click().run()
            assert not at.exception, (page, name, [e.message for e in at.exception])
            bounds = [t for f in figures(at) for t in bound_traces(f)]
        notes = [i.value for i in at.info if name in i.value]
        if not bounds and (page, name) in NO_BOUND:
            shown = " ".join(m.value for m in list(at.markdown) + list(at.caption))
            assert NO_BOUND[page, name][1] in shown, (page, name)
        elif not bounds:
            # a preset may deliberately break the theorem's assumption; then the page must say so
            said = " ".join(m.value for m in list(at.warning) + list(at.info) + list(at.markdown))
            assert "assumption" in said.lower() or "does not apply" in said.lower(), (page, name)
        assert notes, f"{page}: preset {name!r} shows no note naming it"
