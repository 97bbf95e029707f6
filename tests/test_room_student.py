"""The students' page (Join) through AppTest: joining by the link and by a typed code,
bad codes said in a sentence, the browser's token made once and reused, answers saved
at once and changed until the round closes, refused after, and the answer revealed over
the student's own. The lecturer acts through the store, as the Class page does.

The browser's side (its storage, a tap on x) is played as the browser would send it:
the stored token arrives in session state as the component hands it over
(ui/shared/browser.py), a tap is the chart's selection event.
"""

from __future__ import annotations

import json

import pytest
from apptest import errors, figure_titled, no_exceptions, open_app
from streamlit.proto.WidgetStates_pb2 import WidgetState

from ui.room import store
from ui.room.database import URL_VARIABLE
from ui.room.questions import LARGEST_OUTPUT_SIDE, question_from_exercise
from ui.room.schema import new_engine
from ui.room.student.model import answer_text, valid_token
from ui.room.student.state import STATE, TOKEN_NAMESPACE
from ui.shared import browser
from ui.shared.state import literal

JOIN = "screens/join.py"


@pytest.fixture(scope="module")
def room_engine(tmp_path_factory):
    """The page's database (through ui.room.database, from the environment) and the
    test's engine on the same SQLite file."""
    url = f"sqlite:///{tmp_path_factory.mktemp('rooms') / 'rooms.sqlite3'}"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(URL_VARIABLE, url)
        made = new_engine(url)
        yield made
        made.dispose()


@pytest.fixture
def room(room_engine):
    """A room with its lecturer's key: ask(kind), close(), reveal(), again(), end()."""
    return Lecturer(room_engine, store.open_room(room_engine))


class Lecturer:
    def __init__(self, engine, new_room):
        self.engine, self.code, self.secret = engine, new_room.code, new_room.secret

    def ask(self, kind: str, *, level: int = 2, seed: int = 4, number: int = 2):
        question = question_from_exercise(kind, level=level, seed=seed, number=number)
        self.round = store.ask(self.engine, self.code, secret=self.secret, question=question)
        return question.problem

    def close(self):
        store.close_round(self.engine, self.code, secret=self.secret)

    def reveal(self):
        store.reveal(self.engine, self.code, secret=self.secret)

    def again(self):
        self.round = store.vote_again(self.engine, self.code, secret=self.secret)

    def end(self):
        store.end_room(self.engine, self.code, secret=self.secret)

    def answer_of(self, token: str, round_number: int | None = None):
        number = self.round if round_number is None else round_number
        return store.my_answer(self.engine, self.code, token=token, round_number=number)


def arrive(app, stored=None):
    """The browser's answer comes back: what it kept under the token's namespace (None:
    nothing), then the run it triggers."""
    app.session_state[browser.ARRIVED] = {TOKEN_NAMESPACE}
    kept = {} if stored is None else {TOKEN_NAMESPACE: json.dumps(stored)}
    app.session_state[browser.RECALLED] = kept
    return app.run()


def student(query: dict | None = None, stored=None):
    app = open_app(JOIN, query)
    assert no_exceptions(app)
    return arrive(app, stored)


def shown_text(app) -> list[str]:
    kinds = ("markdown", "caption", "info", "warning", "error", "success", "subheader")
    return [element.value for kind in kinds for element in app.get(kind)]


def in_page_order(block) -> list:
    """Every element under `block`, depth first: the order the page shows them in."""
    found = []
    for node in block.children.values():
        found.extend(in_page_order(node) if hasattr(node, "children") else [node])
    return found


def warnings(app) -> list[str]:
    return [warning.value for warning in app.warning]


def tap(app, row: int, col: int):
    """A tap on cell (row, col) of x: the selection event the chart sends."""
    (chart,) = [c for c in app.get("plotly_chart") if "-room_pick_" in c.proto.id]
    states = app._tree.get_widget_states()
    point = {"x": col, "y": row, "curve_number": 0, "point_number": 0, "point_index": 0}
    selection = {"points": [point], "point_indices": [0], "box": [], "lasso": []}
    states.widgets.append(
        WidgetState(id=chart.proto.id, string_value=json.dumps({"selection": selection}))
    )
    return app._run(states)


def send(app, key: str = STATE.number, text: str = "", **more: str):
    app.text_input(key=key).input(text)
    for other, value in more.items():
        app.text_input(key=other).input(value)
    app.button(key=STATE.send).click()
    return app.run()


# -- joining ----------------------------------------------------------------------------


def test_the_page_waits_for_the_browser_before_it_makes_a_token(room):
    app = open_app(JOIN, {"code": room.code})
    assert STATE.token not in app.session_state
    assert any(text.startswith("Opening") for text in shown_text(app))
    arrive(app)
    assert valid_token(app.session_state[STATE.token])


def test_the_link_joins_the_room_and_stays_in_the_link(room):
    app = student({"code": room.code.lower()})
    assert no_exceptions(app) and errors(app) == []
    assert dict(app.query_params)["code"] == room.code
    assert any(f"Room **{room.code}**" in text for text in shown_text(app))
    assert any("question appears here" in info.value for info in app.info)


def test_a_typed_code_with_a_nickname_joins_and_the_nickname_stays_plain(room):
    app = student()
    code = room.code
    app.text_input(key=STATE.join_code).input(f" {code[:3].lower()}-{code[3:]} ")
    app.text_input(key=STATE.join_nickname).input("**Ana** [x](http://a)\n yy")
    app.button(key=STATE.join_button).click().run()
    assert no_exceptions(app) and errors(app) == []
    header = next(text for text in shown_text(app) if text.startswith("Room **"))
    assert header == f"Room **{code}** as ` **Ana** [x](http://a) yy `"
    assert dict(app.query_params)["code"] == code


@pytest.mark.parametrize("given", ["<b>K7QX3M</b>", "K7QX3", "12345678", "K7QX3M!", "**x**", " "])
def test_a_link_whose_code_is_not_a_code_is_said_and_leaves_the_link(room, given):
    app = student({"code": given})
    assert no_exceptions(app)
    (said,) = errors(app)
    assert said.startswith(f"The link's code {literal(given)} is not a join code. ")
    assert "code" not in dict(app.query_params)
    assert app.text_input(key=STATE.join_code).value == ""  # the form, empty


def test_an_unknown_code_is_said_for_a_link_and_for_a_typed_code(room):
    unknown = next(c for c in ("K7QX3M", "KKKKKK", "M3XQ7K") if c != room.code)
    app = student({"code": unknown})
    (said,) = errors(app)
    assert said.startswith(f"The link's code {unknown} opens no room")
    app.text_input(key=STATE.join_code).input(unknown)
    app.button(key=STATE.join_button).click().run()
    (said,) = errors(app)
    assert said.startswith(f"The code {unknown} opens no room")
    app.text_input(key=STATE.join_code).input("")
    app.button(key=STATE.join_button).click().run()
    assert any("Type the room's code first" in text for text in warnings(app))


# -- the token --------------------------------------------------------------------------


def test_the_token_is_made_once_kept_in_the_browser_and_reused(room):
    room.ask("value")
    first = student({"code": room.code})
    token = first.session_state[STATE.token]
    send(first, text="2")
    assert first.session_state[STATE.token] == token  # not made again by later runs
    assert room.answer_of(token) == 2.0
    # A reload: a new session, the same browser.
    again = student({"code": room.code}, stored=token)
    assert again.session_state[STATE.token] == token
    assert "Your answer: 2 (saved). You can change it until voting closes." in shown_text(again)
    assert again.text_input(key=STATE.number).value == "2"
    # Something that is not a token is replaced by a new one.
    other = student({"code": room.code}, stored={"token": token})
    assert valid_token(other.session_state[STATE.token]) not in (None, token)


def browser_data(app) -> dict:
    """What this run hands the browser component (ui/shared/browser.py)."""
    (component,) = app.get("bidi_component")
    return json.loads(component.proto.json)


def test_the_page_asks_for_the_token_then_hands_it_back_on_every_run(room):
    app = open_app(JOIN, {"code": room.code})
    assert browser_data(app)["recall"] == [TOKEN_NAMESPACE]  # asked, nothing written yet
    assert browser_data(app)["store"] == {}
    arrive(app)
    token = app.session_state[STATE.token]
    for _ in range(2):
        assert browser_data(app)["store"] == {TOKEN_NAMESPACE: json.dumps(token)}
        assert browser_data(app)["recall"] == []
        app.run()


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
    assert f"Your answer: {answer_text(problem, -1.5)} (saved)." in " ".join(shown_text(app))


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
    """The browser keeps a box's typing only while the box keeps its place: a warning
    said once must not shift the boxes (the notices' box is drawn on every run)."""
    room.ask("size")
    app = student({"code": room.code})
    places = {top_place(app, STATE.rows)}
    send(app, STATE.rows, "x", room_cols="0")
    assert len(warnings(app)) == 2
    places.add(top_place(app, STATE.rows))
    app.run()
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
    from ui.exercises.mistakes import known_mistakes

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
    assert any(f"vote again on round {first_round}" in s.value for s in app.subheader)
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
