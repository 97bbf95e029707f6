"""The students' page (Join) through AppTest, answering: saved at once and changed
until the round closes, refused after, bad sizes said with their own rule, and the
answer revealed over the student's own, a second vote and an ended room."""

from __future__ import annotations

import pytest
from apptest import errors, figure_titled, no_exceptions
from room_student_app import (  # noqa: F401  (the room and room_engine fixtures)
    in_page_order,
    pick_chart_id,
    room_engine_fixture,
    room_fixture,
    select,
    send,
    shown_text,
    student,
    tap,
    warnings,
)
from streamlit.testing.v1 import AppTest

from rooms import store
from teaching.class_mode import codes
from teaching.class_mode.questions import LARGEST_OUTPUT_SIDE
from teaching.class_mode.student import answer_text
from ui.class_mode.student.state import STATE
from ui.shared.state import literal

# -- answering --------------------------------------------------------------------------


def test_a_tap_saves_a_cell_at_once_and_a_second_tap_takes_it_back(room):
    problem = room.ask("cells")
    app = student({"code": room.code})
    token = app.session_state[STATE.token]
    first, second = sorted(problem.answer)[:2]
    tap(app, *first)
    assert no_exceptions(app)
    assert room.answer_of(token) == frozenset({first})
    tap(app, *second)
    assert room.answer_of(token) == frozenset({first, second})
    said = f"Your answer: {answer_text(problem, {first, second})} (saved)."
    assert any(text.startswith(said) for text in shown_text(app))
    picks = figure_titled(app, "x")
    assert any(trace.get("name") == "your pick" for trace in picks["data"])
    tap(app, *first)
    assert room.answer_of(token) == frozenset({second})


def two_taps_before_a_redraw(code: str, token: str, round_number: int, cells: list) -> None:
    """The page's script for the test below: the student is in the room (as a run
    before left them) and two taps' callbacks run with no drawing between them, as
    when a second tap stops the run the first one started before it drew the page."""
    from types import SimpleNamespace

    import streamlit as st

    from ui.class_mode.student import actions
    from ui.class_mode.student.state import STATE, enter_room, init_state

    init_state()
    enter_room(code, "")
    for taps, (row, col) in enumerate(cells):
        chart = STATE.pick_chart(round_number, taps)
        point = {"x": col, "y": row}
        st.session_state[chart] = SimpleNamespace(selection=SimpleNamespace(points=[point]))
        actions.tapped(round_number, taps, token)


def test_two_taps_before_the_page_is_drawn_again_both_count(room):
    """The second tap starts from what the first one saved, not from the answer last
    drawn (which would drop the first tap)."""
    problem = room.ask("cells")
    token = codes.new_token()
    store.join(room.engine, room.code, token=token)
    first, second = sorted(problem.answer)[:2]
    app = AppTest.from_function(
        two_taps_before_a_redraw,
        kwargs={"code": room.code, "token": token, "round_number": room.round,
                "cells": [first, second]},
    )  # fmt: skip
    app.run()
    assert no_exceptions(app)
    assert room.answer_of(token) == frozenset({first, second})


def a_tap_in_a_tab_that_read_the_room_before(code: str, token: str, round_number: int, cell):
    """The page's script for the test below: this tab read the room before the other
    tab's tap (it holds no answer), then is tapped once."""
    from types import SimpleNamespace

    import streamlit as st

    from ui.class_mode.student import actions
    from ui.class_mode.student.state import STATE, enter_room, init_state, note_saved

    init_state()
    enter_room(code, "")
    note_saved(round_number, None)
    chart = STATE.pick_chart(round_number, 0)
    point = {"x": cell[1], "y": cell[0]}
    st.session_state[chart] = SimpleNamespace(selection=SimpleNamespace(points=[point]))
    actions.tapped(round_number, 0, token)


def test_a_tap_adds_to_what_another_tab_of_the_browser_saved_since_this_one_drew(room):
    """Two tabs of one browser share its token: a tap in one starts from the answer the
    store holds (the other tab's tap), not from the one this tab last drew."""
    problem = room.ask("cells")
    token = codes.new_token()
    store.join(room.engine, room.code, token=token)
    first, second = sorted(problem.answer)[:2]
    store.answer(room.engine, room.code, token=token, round_number=room.round, raw=[list(first)])
    app = AppTest.from_function(
        a_tap_in_a_tab_that_read_the_room_before,
        kwargs={"code": room.code, "token": token, "round_number": room.round, "cell": second},
    )
    app.run()
    assert no_exceptions(app)
    assert room.answer_of(token) == frozenset({first, second})


def one_tap_called_back_twice(code: str, token: str, round_number: int, cell):
    """The page's script for the test below: one tap's callback, then the same
    callback again with the same chart and selection (a replayed tap)."""
    from types import SimpleNamespace

    import streamlit as st

    from ui.class_mode.student import actions
    from ui.class_mode.student.state import STATE, enter_room, init_state

    init_state()
    enter_room(code, "")
    chart = STATE.pick_chart(round_number, 0)
    point = {"x": cell[1], "y": cell[0]}
    st.session_state[chart] = SimpleNamespace(selection=SimpleNamespace(points=[point]))
    actions.tapped(round_number, 0, token)
    actions.tapped(round_number, 0, token)


def test_a_tap_called_back_again_is_toggled_once(room):
    """A replayed tap (the same chart key and cell) does not take the cell back."""
    cell, token, _ = one_cell_script_run(room, one_tap_called_back_twice)
    assert room.answer_of(token) == frozenset({cell})


def one_cell_script_run(room, script):
    """`script` run by AppTest for a new member of a cells round, given one of its
    cells: (the cell, the member's token, the app run), after a run with no exception."""
    problem = room.ask("cells")
    token = codes.new_token()
    store.join(room.engine, room.code, token=token)
    cell = sorted(problem.answer)[0]
    app = AppTest.from_function(
        script,
        kwargs={"code": room.code, "token": token, "round_number": room.round, "cell": cell},
    )
    app.run()
    assert no_exceptions(app)
    return cell, token, app


# Where a tap's callback is stopped: each a step that can be its last.
CUTS = {
    "reading its selection": ("clicked_cell", False),
    "reading the stored answer": ("my_answer", False),
    "before the write": ("answer", False),
    "after the write": ("answer", True),
}


def cut_short_once(monkeypatch, *, cut: str) -> None:
    """The next call of the step `cut` (CUTS) stops its callback as a request arriving
    at a session-state access there does (before its call, or after it)."""
    from streamlit.runtime.scriptrunner import RerunData, RerunException

    from ui.class_mode.student import actions

    name, after = CUTS[cut]
    owner = actions if name == "clicked_cell" else store
    step = getattr(owner, name)
    cuts = []

    def cut_step(*args, **kwargs):
        if not cuts:
            cuts.append(True)
            if after:
                step(*args, **kwargs)
            raise RerunException(RerunData())
        return step(*args, **kwargs)

    monkeypatch.setattr(owner, name, cut_step)


@pytest.mark.parametrize("cut", list(CUTS))
def test_a_tap_whose_callback_is_stopped_short_is_saved_once_by_the_next_run(
    room, monkeypatch, cut
):
    """The tap a callback could not finish is finished by the page's next run: saved
    (not lost), and toggled once (not taken back by a second toggle); the next tap
    adds to it."""
    problem = room.ask("cells")
    app = student({"code": room.code})
    token = app.session_state[STATE.token]
    first, second = sorted(problem.answer)[:2]
    cut_short_once(monkeypatch, cut=cut)
    chart = pick_chart_id(app)
    select(app, chart, *first)
    # The request that stopped it: a browser's carries every widget's state (the
    # selection on x among them; AppTest's run would carry what its tree drew).
    select(app, chart, *first)
    assert no_exceptions(app)
    assert room.answer_of(token) == frozenset({first})
    said = f"Your answer: {answer_text(problem, {first})} (saved)."
    assert any(text.startswith(said) for text in shown_text(app))
    tap(app, *second)
    assert room.answer_of(token) == frozenset({first, second})


def a_tap_noted_then_the_room_left(code: str, token: str, round_number: int, cell):
    """The page's script for the test below: a tap noted in room `code` and not saved,
    the student leaves and joins again, and a run finishes the taps left; then a tap
    noted in another room."""
    import streamlit as st

    from ui.class_mode.student import actions
    from ui.class_mode.student.state import (
        STATE,
        PendingTap,
        enter_room,
        init_state,
        leave_room,
    )

    init_state()
    enter_room(code, "")
    st.session_state[STATE.pick_drawn] = (round_number, 0)
    st.session_state[STATE.pending_tap] = PendingTap(code, round_number, 0, cell)
    leave_room()
    enter_room(code, "")
    actions.finish_taps(token)
    st.session_state[STATE.pending_tap] = PendingTap("K7QX3M", round_number, 0, cell)
    actions.finish_taps(token)


def test_a_tap_left_unsaved_is_dropped_once_its_room_is_left(room):
    """Leaving the room drops its unsaved tap; a tap noted in another room than the
    one joined now is never saved into this one."""
    cell, token, app = one_cell_script_run(room, a_tap_noted_then_the_room_left)
    assert room.answer_of(token) is None
    assert STATE.pending_tap not in app.session_state


def test_a_number_is_saved_changed_and_a_malformed_one_explained(room):
    problem = room.ask("value")
    app = student({"code": room.code})
    token = app.session_state[STATE.token]
    outline = next(t for t in figure_titled(app, "x")["data"] if t.get("name") == "window")
    r, c = problem.cell  # the cell asked about, outlined on x as the question says
    assert {x for x in outline["x"] if x is not None} == {c - 0.5, c + 0.5}
    assert {y for y in outline["y"] if y is not None} == {r - 0.5, r + 0.5}
    send(app, text="7/3")
    assert room.answer_of(token) == pytest.approx(7 / 3)
    send(app, text="-1,5")
    assert room.answer_of(token) == -1.5
    send(app, text="**two**")
    assert any(w.startswith("Your answer ` **two** ` is not a number") for w in warnings(app))
    assert room.answer_of(token) == -1.5
    # Said under the box, and the line under it no longer calls the box's text saved.
    order = [getattr(e, "key", None) or getattr(e, "value", None) for e in in_page_order(app.main)]
    box = order.index(STATE.number)
    assert order[box + 1].startswith("Your answer ` **two** ` is not a number")
    kept = answer_text(problem, -1.5)
    assert f"Saved: {kept}; the text in the box was not sent." in " ".join(shown_text(app))
    assert "(saved)" not in " ".join(shown_text(app))
    send(app, text="2.5")  # a good one: the refusal goes
    assert room.answer_of(token) == 2.5 and warnings(app) == []
    assert f"Your answer: {answer_text(problem, 2.5)} (saved)." in " ".join(shown_text(app))


def test_a_size_is_saved_from_its_two_boxes(room):
    problem = room.ask("size")
    app = student({"code": room.code})
    token = app.session_state[STATE.token]
    rows, cols = problem.answer
    send(app, STATE.rows, str(rows), room_cols=str(cols))
    assert room.answer_of(token) == (rows, cols)
    send(app, STATE.rows, "0", room_cols=str(cols))
    assert any(f"is not a whole number from 1 to {LARGEST_OUTPUT_SIDE}" in w for w in warnings(app))
    assert room.answer_of(token) == (rows, cols)


@pytest.mark.parametrize("typed", ["abc", "2.5", "0", "-3", "1e400", "65"])
def test_a_side_that_is_no_size_is_said_with_the_sizes_own_rule(room, typed):
    """An output side is a whole number from 1 to LARGEST_OUTPUT_SIDE: the warning says
    so, never the number box's examples (2.5, 7/3), which are no side."""
    problem = room.ask("size")
    app = student({"code": room.code})
    rows, _ = problem.answer
    send(app, STATE.rows, str(rows), room_cols=typed)
    (said,) = warnings(app)
    rule = f"is not a whole number from 1 to {LARGEST_OUTPUT_SIDE}."
    assert said == f"Output width {literal(typed)} {rule}"
    assert "2.5" not in said.removeprefix(f"Output width {literal(typed)}")
    assert room.answer_of(app.session_state[STATE.token]) is None


def top_place(app, key: str) -> int:
    """Where, among the page's top-level elements, the widget `key` sits."""
    for index, node in app.main.children.items():
        inside = in_page_order(node) if hasattr(node, "children") else [node]
        if any(getattr(each, "key", None) == key for each in inside):
            return index
    raise AssertionError(f"no widget {key}")


def test_a_warning_that_comes_and_goes_moves_no_answer_box(room):
    """The browser keeps a box's typing only while the box keeps its place: a refusal
    said under the boxes must not shift them, coming or going (the notices' box and
    the refusal's are drawn on every run)."""
    problem = room.ask("size")
    app = student({"code": room.code})
    places = {top_place(app, STATE.rows)}
    send(app, STATE.rows, "x", room_cols="0")
    (said,) = warnings(app)  # both boxes' reasons, in one sentence under them
    assert "Output height ` x `" in said and "Output width ` 0 `" in said
    places.add(top_place(app, STATE.rows))
    app.run()  # a poll's run: the boxes still hold the text refused, still said
    assert warnings(app) == [said]
    places.add(top_place(app, STATE.rows))
    rows, cols = problem.answer
    send(app, STATE.rows, str(rows), room_cols=str(cols))
    assert warnings(app) == []
    places.add(top_place(app, STATE.rows))
    assert len(places) == 1


def test_an_answer_after_the_round_closed_is_refused_with_the_pages_sentence(room):
    problem = room.ask("cells")
    app = student({"code": room.code})
    token = app.session_state[STATE.token]
    cell = sorted(problem.answer)[0]
    tap(app, *cell)
    room.close()  # the page has not heard yet: it still shows x to tap
    other = next(c for c in sorted(problem.answer) if c != cell)
    tap(app, *other)
    assert "Voting on this question has closed: your saved answer stays as it was." in warnings(app)
    assert room.answer_of(token) == frozenset({cell})
    assert any(w.startswith("Voting has closed") for w in warnings(app))
    assert not [c for c in app.get("plotly_chart") if "-room_pick_" in c.proto.id]


def test_a_new_round_starts_with_empty_boxes(room):
    room.ask("value")
    app = student({"code": room.code})
    send(app, text="3")
    room.ask("value", seed=5)
    app.run()
    assert app.text_input(key=STATE.number).value == ""
    assert "No answer saved yet. You can change it until voting closes." in shown_text(app)


# -- revealed, voted again, ended -------------------------------------------------------


def test_the_revealed_answer_is_drawn_over_the_picks_with_a_sentence(room):
    problem = room.ask("cells")
    app = student({"code": room.code})
    right, *rest = sorted(problem.answer)
    tap(app, *right)
    room.reveal()
    app.run()
    drawn = {trace.get("name") for trace in figure_titled(app, "x")["data"]}
    assert {"right", "missed"} <= drawn and "your pick" not in drawn
    said = errors(app)[0] if rest else app.success[0].value
    assert said.startswith("Not quite: 1 right," if rest else "Right:")
    assert any(c.value.startswith("On x, ") for c in app.caption)


def test_once_revealed_the_verdict_comes_first_and_no_instruction_stays(room):
    """On a phone the verdict must be above the fold: right under the round's heading,
    before the question and the maps; tapping and discussing are over."""
    problem = room.ask("cells")
    app = student({"code": room.code})
    first_round = room.round
    tap(app, *sorted(problem.answer)[0])
    room.close()
    room.again()
    app.run()
    tap(app, *sorted(problem.answer)[0])
    room.reveal()
    app.run()
    drawn = in_page_order(app.main)
    verdict = next(i for i, n in enumerate(drawn) if n.type == "error")
    question = next(i for i, n in enumerate(drawn) if "receive gradient" in str(n.value))
    chart = next(i for i, n in enumerate(drawn) if n.type == "plotly_chart")
    assert verdict < question < chart
    said = shown_text(app)
    assert not any("Tap" in text or "Discuss with" in text for text in said)
    assert f"Your first vote: {answer_text(problem, {sorted(problem.answer)[0]})}." in said
    assert room.round != first_round


def test_a_student_who_did_not_answer_is_told_so_and_shown_the_answer(room):
    problem = room.ask("value")
    app = student({"code": room.code})
    room.reveal()
    app.run()
    (said,) = errors(app)
    assert (
        said
        == f"You did not answer: dL/dx at {problem.cell} is {answer_text(problem, problem.answer)}."
    )


def test_a_known_mistake_is_named_once_revealed(room):
    problem = room.ask("value", level=2, seed=4, number=2)
    from teaching.exercises.mistakes import known_mistakes

    mistake = known_mistakes(problem)[0]
    app = student({"code": room.code})
    send(app, text=repr(float(mistake.answer)))
    room.reveal()
    app.run()
    (said,) = errors(app)
    assert f"what you get if you {mistake.how}" in said


def test_a_second_vote_shows_the_first_and_takes_a_new_answer(room):
    problem = room.ask("cells")
    app = student({"code": room.code})
    token = app.session_state[STATE.token]
    first_round = room.round
    cell = sorted(problem.answer)[0]
    tap(app, *cell)
    room.close()
    room.again()
    app.run()
    assert any(f"vote again on round {first_round}'s question" in text for text in shown_text(app))
    first = answer_text(problem, {cell})
    assert any(f"Your first vote: {first}." in c.value for c in app.caption)
    assert "No answer saved yet. You can change it until voting closes." in shown_text(app)
    tap(app, *cell)
    assert room.answer_of(token) == frozenset({cell})
    assert room.answer_of(token, first_round) == frozenset({cell})


def test_an_ended_room_says_so_and_leave_goes_back_to_the_form(room):
    app = student({"code": room.code})
    room.end()
    app.run()
    assert any("ended this room" in info.value for info in app.info)
    app.button(key=STATE.leave).click().run()
    assert "code" not in dict(app.query_params)
    assert app.text_input(key=STATE.join_code).value == ""
