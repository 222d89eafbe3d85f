"""olapp.turns: runs take turns in arrival order, give the turn up while they wait, never wait for ever."""

from __future__ import annotations

import threading

from olapp import cache
from olapp.turns import Turns

WAIT = 30.0     # a generous bound for any step of these tests (a stuck test fails instead of hanging)


def _until(cond) -> None:
    done = threading.Event()
    for _ in range(3000):
        if cond():
            return
        done.wait(0.01)
    raise AssertionError("condition never held")


def _run_in_turn(turns: Turns, name: str, log: list, hold: threading.Event | None = None) -> threading.Thread:
    def body():
        with turns.turn():
            log.append((name, turns.holds()))
            if hold is not None:
                assert hold.wait(WAIT)
    th = threading.Thread(target=body, daemon=True)
    th.start()
    return th


def test_runs_take_the_turn_in_the_order_they_came():
    turns, log, first = Turns(patience=WAIT), [], threading.Event()
    threads = [_run_in_turn(turns, "first", log, hold=first)]
    _until(lambda: log)
    for i in range(5):                         # each one joins the line before the next starts
        threads.append(_run_in_turn(turns, f"run {i}", log))
        _until(lambda: turns.waiting() == i + 1)
    assert log == [("first", True)]            # nobody runs while the turn is taken
    first.set()
    for th in threads:
        th.join(WAIT)
    assert log == [("first", True)] + [(f"run {i}", True) for i in range(5)]
    assert not turns.holds() and turns.waiting() == 0 and turns._holder is None


def test_a_run_that_steps_aside_lets_the_line_go_on_and_comes_back_first():
    turns, log = Turns(patience=WAIT), []
    inside, resume = threading.Event(), threading.Event()

    def stepping():
        with turns.turn():
            log.append("A before")
            with turns.aside():
                inside.set()
                assert resume.wait(WAIT)
            log.append(("A after", turns.holds()))

    a = threading.Thread(target=stepping, daemon=True)
    hold_b = threading.Event()
    a.start()
    assert inside.wait(WAIT)
    b = _run_in_turn(turns, "B", log, hold=hold_b)      # gets the turn A gave up
    _until(lambda: ("B", True) in log)
    c = _run_in_turn(turns, "C", log)                   # arrives while B has the turn
    _until(lambda: turns.waiting() == 1)
    resume.set()                                        # A wants its turn back: ahead of C
    _until(lambda: turns.waiting() == 2)
    hold_b.set()
    for th in (a, b, c):
        th.join(WAIT)
    assert log == ["A before", ("B", True), ("A after", True), ("C", True)]


def test_a_run_goes_ahead_without_the_turn_when_patience_runs_out():
    turns, log, stuck = Turns(patience=0.05), [], threading.Event()
    holder = _run_in_turn(turns, "stuck", log, hold=stuck)
    _until(lambda: log)
    late = _run_in_turn(turns, "late", log)
    late.join(WAIT)
    assert log == [("stuck", True), ("late", False)]   # it ran, without the turn, while the other held it
    assert turns.waiting() == 0                         # and left the line
    stuck.set()
    holder.join(WAIT)
    assert turns._holder is None and turns.waiting() == 0
    with turns.turn():                                  # the turn still works afterwards
        assert turns.holds()


def test_a_turn_within_a_turn_is_the_same_turn():
    turns = Turns(patience=WAIT)
    with turns.turn():
        with turns.turn():
            assert turns.holds()
        assert turns.holds()
    assert turns._holder is None


def test_waiting_for_another_sessions_computation_gives_the_turn_up(monkeypatch):
    """A run in its turn that needs a result another thread is computing waits without the turn, so a
    run that needs something else goes on meanwhile; the waiting run then gets the shared result."""
    turns = Turns(patience=WAIT)
    monkeypatch.setattr(cache, "TURNS", turns)
    computing, finish, log = threading.Event(), threading.Event(), []

    def slow(x):
        computing.set()
        assert finish.wait(WAIT)
        return ("slow", x)

    results = {}
    c = threading.Thread(target=lambda: results.setdefault("C", cache.memo(slow, 41)), daemon=True)
    c.start()                                           # computes outside any turn (a run past its patience)
    assert computing.wait(WAIT)

    def waiter():
        with turns.turn():
            log.append("A in turn")
            results["A"] = cache.memo(slow, 41)
            log.append(("A got it", turns.holds()))

    a = threading.Thread(target=waiter, daemon=True)
    a.start()
    _until(lambda: "A in turn" in log and not turns.holds() and turns._holder is None)
    b = _run_in_turn(turns, "B", log)                   # the turn is free while A waits
    b.join(WAIT)
    finish.set()
    for th in (a, c):
        th.join(WAIT)
    assert log == ["A in turn", ("B", True), ("A got it", True)]
    assert results["A"] is results["C"] == ("slow", 41)
    cache.clear()
