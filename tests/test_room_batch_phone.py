"""A batch question on a student's phone (the Join page) through AppTest: the window's
cells saved tap by tap on its positions map, the mean typed, and once revealed the
first seed's idea named in the phone's verdict."""

from __future__ import annotations

from apptest import errors, figure_titled, figures, no_exceptions
from room_student_app import (  # noqa: F401  (the room and room_engine fixtures)
    in_page_order,
    room_engine_fixture,
    room_fixture,
    send,
    shown_text,
    student,
    tap,
)

from teaching.class_mode.student import answer_text
from teaching.exercises.mistakes import known_mistakes
from teaching.exercises.mistakes_batch import IDEA, window_winners
from teaching.exercises.model import SET_SIZE, make_problem
from ui.class_mode.student.state import STATE

POSITIONS = "positions (1: in the window)"


def number_asking(*, mean: bool, level: int = 1, seed: int = 0) -> int:
    return next(
        n
        for n in range(1, SET_SIZE + 1)
        if (p := make_problem("batch", level, seed, n)).window is not None and p.asks_mean == mean
    )


def test_taps_on_the_positions_map_save_the_windows_cells_and_the_reveal_names_the_pick(room):
    problem = room.ask("batch", level=1, seed=0, number=number_asking(mean=False))
    app = student({"code": room.code})
    token = app.session_state[STATE.token]
    said = " ".join(shown_text(app))
    assert "Which cells of this window receive gradient from at least one example?" in said
    titles = [figure["layout"]["title"]["text"] for figure in figures(app)]
    assert titles == ["x_n", POSITIONS]  # dL_n/dy (1 to 3 each) does not decide the cells
    alone = sorted(window_winners(problem)[0])
    for cell in alone:
        tap(app, *cell)
    assert no_exceptions(app) and room.answer_of(token) == frozenset(alone)
    assert f"Your answer: {answer_text(problem, set(alone))} (saved)." in " ".join(shown_text(app))
    assert not app.get("text_input")  # one tap a cell: no box to type in
    room.reveal()
    app.run()
    (verdict,) = errors(app)
    assert "take example #0's winner alone" in verdict
    drawn = {trace.get("name") for trace in figure_titled(app, POSITIONS)["data"]}
    assert {"right", "missed"} <= drawn
    assert any(c.value.startswith("On the positions map, ") for c in app.caption)


def test_the_mean_is_typed_and_the_ideas_number_is_named_once_revealed(room):
    problem = room.ask("batch", level=1, seed=0, number=number_asking(mean=True))
    app = student({"code": room.code})
    token = app.session_state[STATE.token]
    assert [f["layout"]["title"]["text"] for f in figures(app)] == ["x_n", "dL_n/dy"]
    drawn = in_page_order(app.main)  # the box under the question, above the mosaics
    box = next(i for i, n in enumerate(drawn) if n.type == "text_input")
    assert box < next(i for i, n in enumerate(drawn) if n.type == "plotly_chart")
    idea = next(m for m in known_mistakes(problem) if m.name == "split_over_winners")
    send(app, text=repr(float(idea.answer)))
    assert room.answer_of(token) == idea.answer
    room.reveal()
    app.run()
    (verdict,) = errors(app)
    assert IDEA in verdict
