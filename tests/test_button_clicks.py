"""A button's action happens exactly once per click: through its callback as usual, and also when the
click reaches a session that never drew the button, so Streamlit skips the callback (a browser that
reconnected to another replica of a lecture hall): ``olapp.state.button``."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _script():
    import streamlit as st

    from olapp import state

    ss = st.session_state
    ss.setdefault("n", 0)

    def step():
        ss["n"] += 1

    class Fresh:
        """Streamlit's button in a session born after the click: returns True, its callback not run."""

        def button(self, *args, **options):
            return True

    where = Fresh() if ss.pop("fresh", False) else st
    state.button("Step", key="step", on_click=step, where=where)
    st.write(f"n = {ss['n']}")


def _n(at) -> str:
    return at.markdown[-1].value


def test_a_click_runs_the_callback_once():
    at = AppTest.from_function(_script).run()
    assert _n(at) == "n = 0"
    at.button(key="step").click().run()
    assert _n(at) == "n = 1"
    at.run()
    assert _n(at) == "n = 1"


def test_a_click_whose_callback_streamlit_skipped_still_acts_once():
    at = AppTest.from_function(_script)
    at.session_state["fresh"] = True
    at.run()
    assert not at.exception
    assert _n(at) == "n = 1"          # acted, and reran to show it
    at.run()
    assert _n(at) == "n = 1"
