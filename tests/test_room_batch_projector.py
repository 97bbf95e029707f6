"""A batch question on the lecturer's Class page through AppTest: chosen and previewed
with the examples' mosaics, asked, and revealed with the first seed's idea named with
its count of students (a SQLite file in a temporary folder, as tests/test_room_lecturer.py)."""

from __future__ import annotations

from apptest import figures, no_exceptions, open_app

# The Class page's fixtures: each test's rooms in a SQLite file of its own (autouse), its
# engine, and what the page hands the browser to keep.
from test_room_lecturer import data_folder, engine, remembered  # noqa: F401

from rooms import store
from teaching.class_mode import codes
from teaching.class_mode import lecturer as model
from teaching.exercises.mistakes import known_mistakes
from teaching.exercises.mistakes_batch import IDEA
from teaching.numbers import fmt
from ui.shared import browser

CLASS = "screens/class_page.py"
ROOMS = "class-rooms"
QUERY = {"kind": "batch", "level": "1", "seed": "0", "n": "1"}


def arrive(app):
    app.session_state[browser.ARRIVED] = {ROOMS}
    app.session_state[browser.RECALLED] = {}
    app.run()
    assert no_exceptions(app), app.exception
    return app


def texts(app) -> list[str]:
    return [m.value for m in app.markdown] + [c.value for c in app.caption]


def titles(app) -> list[str]:
    return [figure["layout"]["title"]["text"] for figure in figures(app)]


def test_a_batch_question_is_previewed_asked_and_revealed_with_the_idea_counted(remembered, engine):  # noqa: F811
    app = arrive(open_app(CLASS, QUERY))
    (caption,) = [c for c in texts(app) if c.startswith("Preview (exercise set 0 at level 1")]
    assert "examples, one layer:" in caption and "over the batch?" in caption
    assert titles(app) == ["x_n", "dL_n/dy"]
    app.button(key="cls_open").click().run()
    assert no_exceptions(app), app.exception
    code = app.query_params["room"]
    assert model.secret_for(model.rooms_from_stored(remembered[ROOMS]), code) is not None
    question = store.round_of(engine, code, 1).question
    assert question.kind == "batch" and question.problem.asks_mean
    idea = next(
        m.answer for m in known_mistakes(question.problem) if m.name == "split_over_winners"
    )
    for raw in [idea, idea, question.answer]:
        token = codes.new_token()
        store.join(engine, code, token=token)
        store.answer(engine, code, token=token, round_number=1, raw=repr(float(raw)))
    app.button(key="cls_reveal").click().run()
    shown = texts(app)
    assert "**1 of 3 right (33 %).**" in shown
    assert any(
        t.startswith(f"- 2 answers gave {fmt(idea, 4)}: what you get if you {IDEA}") for t in shown
    )
    assert titles(app) == ["Answers given"]
    app.toggle(key="cls_maps_on").set_value(True).run()
    assert no_exceptions(app) and titles(app) == ["x_n", "dL_n/dy"]
