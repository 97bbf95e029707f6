"""The students' page (Join) through AppTest, shared by its test modules: a room on a
SQLite file the page reaches through the environment, a lecturer acting through the
store as the Class page does, and the browser's side played as the browser would send
it: the stored token arrives in session state as the component hands it over
(ui/shared/browser.py), a tap is the chart's selection event.
"""

from __future__ import annotations

import json

import pytest
from apptest import no_exceptions, open_app
from room_store_helpers import rooms_file
from streamlit.proto.WidgetStates_pb2 import WidgetState

from rooms import store
from teaching.class_mode import codes
from teaching.class_mode.questions import question_from_exercise
from ui.class_mode.student.state import STATE, TOKEN_NAMESPACE
from ui.shared import browser

JOIN = "screens/join.py"


@pytest.fixture(scope="module", name="room_engine")
def room_engine_fixture(tmp_path_factory):
    """The page's database (through ui.class_mode.database, from the environment) and the
    test's engine on the same SQLite file."""
    with rooms_file(tmp_path_factory) as made:
        yield made


@pytest.fixture(name="room")
def room_fixture(room_engine):
    """A room with its lecturer's key: ask(kind), close(), reveal(), again(), end()."""
    return Lecturer(room_engine, store.open_room(room_engine, token=codes.new_token()))


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
    return select(app, pick_chart_id(app), row, col)


def pick_chart_id(app) -> str:
    """The widget id of the x to tap on the page."""
    (chart,) = [c for c in app.get("plotly_chart") if "-room_pick_" in c.proto.id]
    return chart.proto.id


def select(app, chart_id: str, row: int, col: int):
    """A run whose request carries the chart `chart_id`'s selection of (row, col), as
    a browser's carries every widget's state (a tap's, or any request after it)."""
    states = app._tree.get_widget_states()
    point = {"x": col, "y": row, "curve_number": 0, "point_number": 0, "point_index": 0}
    selection = {"points": [point], "point_indices": [0], "box": [], "lasso": []}
    states.widgets.append(
        WidgetState(id=chart_id, string_value=json.dumps({"selection": selection}))
    )
    return app._run(states)


def send(app, key: str = STATE.number, text: str = "", **more: str):
    app.text_input(key=key).input(text)
    for other, value in more.items():
        app.text_input(key=other).input(value)
    app.button(key=STATE.send).click()
    return app.run()
