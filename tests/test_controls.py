"""The shared round player: step, back, next event, reset, scrub and clamping to T."""

from streamlit.testing.v1 import AppTest


def player_app():
    import numpy as np
    import streamlit as st

    from olapp.controls import round_player

    T = st.number_input("T", 0, 100, 10, key="T")
    events = np.zeros(T, dtype=bool)
    events[[e for e in (3, 7) if e < T]] = True
    t = round_player(T, key="t", events=events)
    st.write(f"t={t}")


def shown_t(at):
    return int([m.value for m in at.markdown if m.value.startswith("t=")][0][2:])


def button(at, key):
    return at.button(key=key)


def test_player_steps_and_jumps_to_events():
    at = AppTest.from_function(player_app, default_timeout=30).run()
    assert not at.exception
    assert shown_t(at) == 10  # the whole run by default
    button(at, "t_reset").click().run()
    assert shown_t(at) == 0
    button(at, "t_step").click().run()
    button(at, "t_step").click().run()
    assert shown_t(at) == 2
    button(at, "t_next").click().run()
    assert shown_t(at) == 4  # just after the event in 0-based round 3
    button(at, "t_next").click().run()
    assert shown_t(at) == 8
    assert button(at, "t_next").disabled  # no later event
    button(at, "t_back").click().run()
    assert shown_t(at) == 7
    at.slider(key="t").set_value(5).run()
    assert shown_t(at) == 5


def test_player_clamps_when_the_stream_gets_shorter():
    at = AppTest.from_function(player_app, default_timeout=30).run()
    at.slider(key="t").set_value(9).run()
    at.number_input(key="T").set_value(4).run()
    assert not at.exception
    assert shown_t(at) <= 4
    at.number_input(key="T").set_value(0).run()
    assert not at.exception
    assert shown_t(at) == 0


def test_play_is_ready_at_the_end_and_replays_from_round_0():
    at = AppTest.from_function(player_app, default_timeout=30).run()
    assert shown_t(at) == 10 and at.button(key="t_step").disabled  # the whole run, nothing to step
    play = at.button(key="t_playbtn")
    assert not play.disabled and play.label == "Play"
    play.click().run()
    assert not at.exception
    assert shown_t(at) == 0  # replays from the start
    assert at.session_state["t_play"] and at.button(key="t_playbtn").label == "Pause"
    at.button(key="t_playbtn").click().run()
    assert not at.session_state["t_play"] and at.button(key="t_playbtn").label == "Play"


def test_pressing_play_mid_run_continues_from_there_and_a_step_pauses():
    at = AppTest.from_function(player_app, default_timeout=30)
    at.query_params["t"] = "4"
    at.run()
    at.button(key="t_playbtn").click().run()
    assert shown_t(at) == 4 and at.session_state["t_play"]
    at.button(key="t_step").click().run()
    assert shown_t(at) == 5 and not at.session_state["t_play"]


def test_player_buttons_have_keyboard_shortcuts():
    from olapp.controls import SHORTCUTS

    at = AppTest.from_function(player_app, default_timeout=30).run()
    for name in ("reset", "back", "step", "next"):
        assert at.button(key=f"t_{name}").proto.shortcut.lower() == SHORTCUTS[name].lower()
    assert at.button(key="t_playbtn").proto.shortcut.lower() == SHORTCUTS["play"].lower()
    assert len(set(SHORTCUTS.values())) == len(SHORTCUTS)


def preset_app():
    import streamlit as st

    from olapp.controls import Preset, preset_selector

    presets = [Preset("Small", "a small run", {"n": 3, "eta": 0.5}),
               Preset("Large", "a large run", {"n": 30, "eta": 0.1})]
    cur = preset_selector(presets)
    n = st.number_input("n", 1, 100, 10, key="n")
    eta = st.slider("eta", 0.0, 1.0, 0.3, key="eta")
    st.write(f"n={n} eta={eta} preset={cur.name if cur else None}")


def test_choosing_a_preset_sets_the_widgets_and_shows_its_note():
    at = AppTest.from_function(preset_app, default_timeout=30).run()
    assert at.markdown[-1].value == "n=10 eta=0.3 preset=None"
    at.selectbox(key="preset").set_value("Large").run()
    assert not at.exception
    assert at.markdown[-1].value == "n=30 eta=0.1 preset=Large"
    assert "a large run" in at.info[0].value
    at.number_input(key="n").set_value(31).run()  # explore from there: no longer the preset
    assert at.markdown[-1].value == "n=31 eta=0.1 preset=None"


def test_player_reads_the_round_from_a_fresh_link():
    at = AppTest.from_function(player_app, default_timeout=30)
    at.query_params["t"] = "3"
    at.run()
    assert shown_t(at) == 3
    assert not at.button(key="t_step").disabled  # not at the end: stepping is possible
    button(at, "t_back").click().run()
    assert shown_t(at) == 2  # back from 3, not from T


def test_preset_note_names_the_chosen_preset_when_two_match():
    def app():
        import streamlit as st

        from olapp.controls import Preset, preset_selector

        preset_selector([Preset("First", "first note", {"n": 3}), Preset("Second", "second note", {"n": 3})])
        st.number_input("n", 1, 100, 10, key="n")

    at = AppTest.from_function(app, default_timeout=30).run()
    at.selectbox(key="preset").set_value("Second").run()
    assert "second note" in at.info[0].value


def test_choosing_a_preset_shows_its_whole_run():
    def app():
        import streamlit as st

        from olapp.controls import Preset, preset_selector, round_player

        preset_selector([Preset("Long", "a long run", {"T": 40})])
        T = st.number_input("T", 1, 100, 10, key="T")
        st.write(f"t={round_player(T, key='t')}")

    at = AppTest.from_function(app, default_timeout=30).run()
    at.slider(key="t").set_value(2).run()
    assert shown_t(at) == 2
    at.selectbox(key="preset").set_value("Long").run()
    assert not at.exception
    assert shown_t(at) == 40


def code_app():
    from olapp.controls import show_code
    from olcore.linear import Perceptron

    show_code(Perceptron, "Show the code: Perceptron")


def test_the_code_is_sent_only_once_its_expander_is_opened():
    at = AppTest.from_function(code_app, default_timeout=30).run()
    assert at.expander[0].label == "Show the code: Perceptron"
    assert len(at.code) == 0, "the closed expander's code was sent"
    at.session_state["code_olcore_linear_perceptron_Perceptron"] = True       # the visitor opens it
    at.run()
    assert not at.exception
    assert len(at.code) == 1 and "class Perceptron" in at.code[0].value
