"""The lecturer's page through AppTest, on a SQLite file in a temporary folder: a room
opened from an exercise and from the Playground's link, its key kept in the browser
and restored on a reload (never in the link, never on screen), a browser without the
key asked for the recovery code with no controls, and a room run to the end: closed,
revealed, voted again, the two votes side by side."""

from __future__ import annotations

import json

import numpy as np
import pytest
from apptest import figures, no_exceptions, open_app

from pooling import PoolConfig
from ui.exercises.mistakes import known_mistakes
from ui.exercises.model import make_problem
from ui.pure.class_link import ask_params
from ui.room import codes, store
from ui.room.lecturer import model
from ui.room.schema import new_engine
from ui.shared import browser

CLASS = "screens/room.py"
PLAYGROUND = "screens/playground.py"
ROOMS = "class-rooms"
CONTROLS = ("cls_close", "cls_reveal", "cls_vote_again", "cls_new", "cls_end")


@pytest.fixture(autouse=True)
def data_folder(tmp_path, monkeypatch):
    """Each test's rooms in a SQLite file of its own."""
    monkeypatch.setenv("POOLING_LAB_DATA", str(tmp_path))
    monkeypatch.delenv("POOLING_LAB_DATABASE_URL", raising=False)
    monkeypatch.setenv("POOLING_LAB_PUBLIC_URL", "http://lab.example:8501/")
    return tmp_path


@pytest.fixture
def engine(data_folder):
    made = new_engine(f"sqlite:///{data_folder / 'rooms.sqlite3'}")
    yield made
    made.dispose()


@pytest.fixture
def remembered(monkeypatch):
    """What the page hands the browser to keep, by namespace (the last of each)."""
    kept = {}
    real = browser.remember

    def remember(namespace, value):
        kept[namespace] = json.loads(json.dumps(value))
        real(namespace, value)

    monkeypatch.setattr(browser, "remember", remember)
    return kept


def arrive(app, stored=None):
    """The browser's answer for the lecturer's keys comes back (`stored`: its JSON)."""
    app.session_state[browser.ARRIVED] = {ROOMS}
    app.session_state[browser.RECALLED] = {} if stored is None else {ROOMS: json.dumps(stored)}
    app.run()
    assert no_exceptions(app), app.exception
    return app


def texts(app) -> list[str]:
    found = [m.value for m in app.markdown] + [c.value for c in app.caption]
    found += [e.value for e in app.error] + [w.value for w in app.warning]
    return found + [i.value for i in app.info] + [s.value for s in app.success]


def keys_on(app) -> set[str]:
    return {button.key for button in app.button}


def open_from_exercise(remembered, query=None):
    app = arrive(open_app(CLASS, query or {"kind": "value", "level": "2", "seed": "3", "n": "4"}))
    app.button(key="cls_open").click().run()
    assert no_exceptions(app), app.exception
    code = app.query_params["room"]
    return app, code, model.secret_for(model.rooms_from_stored(remembered[ROOMS]), code)


def test_a_room_opened_from_an_exercise_asks_its_problem_and_keeps_its_key(remembered, engine):
    app, code, secret = open_from_exercise(remembered)
    assert codes.normal_code(code) == code
    assert secret is not None and store.authorize(engine, code, secret)
    asked = store.round_of(engine, code, 1).question
    assert asked.kind == "value" and asked.answer == make_problem("value", 2, 3, 4).answer
    assert set(CONTROLS) - {"cls_reveal", "cls_vote_again"} <= keys_on(app) | {"cls_end"}
    shown = texts(app)
    assert code in shown  # the join code, large
    # The link, to type (no scheme) and to follow (the whole of it, as the QR code's).
    link = f"http://lab.example:8501/join?code={code}"
    pages = [element.proto.body for element in app.get("html")]
    assert any(f'href="{link}"' in body and f">{link[7:]}</a>" in body for body in pages)
    assert app.get("image")  # the QR code
    assert not any(secret in text for text in shown)  # the key never on screen...
    assert secret not in json.dumps(dict(app.query_params))  # ...nor in the link
    (recovery,) = [e for e in app.expander if "Recovery code" in e.label]
    assert any(codes.RECOVERY_LENGTH + 2 == len(m.value.split("**")[1]) for m in recovery.markdown)
    assert "0 answers" not in " ".join(shown) and "No answers yet." in shown


def test_a_room_opened_from_the_playground_s_link_asks_about_its_layer(remembered, engine):
    x = np.array([[1.0, 3.0, 2.0, 0.0], [4.0, 2.0, 1.0, 2.0], [0.0, 1.0, 5.0, 3.0]])
    grad = np.array([[2.5, 1.0]])
    pool = {"mode": "max", "kh": "2", "kw": "2", "sh": "2", "sw": "2", "ties": "first"}
    app = arrive(open_app(CLASS, ask_params(x, grad, pool)))
    assert app.radio(key="cls_source").value == "The Playground's layer"
    app.radio(key="cls_kind").set_value("cells").run()
    app.button(key="cls_open").click().run()
    code = app.query_params["room"]
    assert "x" not in app.query_params  # the link names the room only now
    asked = store.round_of(engine, code, 1).question
    assert np.array_equal(asked.problem.x, x) and np.array_equal(asked.problem.grad_output, grad)
    assert asked.problem.config == PoolConfig("max", 2)
    assert asked.answer == frozenset(
        {(1, 0), (0, 2)}
    )  # 4 wins the left window, the first 2 the right


@pytest.mark.parametrize(
    ("x", "grad", "said"),
    [
        (";".join(["1,2,3,4,5,6,7,8,9"] * 9), "1", "1 to 8 rows and columns"),
        ("0,1;2,3", "1,1", "shaped like y"),
        ("0,1;2,3", "-1", "positive"),
    ],
)
def test_a_link_whose_layer_no_room_can_take_is_not_offered(x, grad, said):
    """The layer is refused when the link is read, with the room's own reason, and
    the page offers exercises only."""
    app = arrive(open_app(CLASS, {"x": x, "gy": grad, "mode": "max", "kh": "2", "kw": "2"}))
    assert no_exceptions(app)
    assert not [radio for radio in app.radio if radio.key == "cls_source"]
    (warning,) = [w.value for w in app.warning if "cannot be asked" in w.value]
    assert said in warning


@pytest.mark.parametrize(
    ("x", "grad", "reason"),
    [
        ("0,1;2,3", "0", "positive"),
        ("0,1;2,3", "-1", "positive"),
        (";".join([",".join(["1"] * 9)] * 9), "1,1,1,1;1,1,1,1;1,1,1,1;1,1,1,1", "8×8"),
    ],
)
def test_the_playground_says_why_a_layer_cannot_be_asked(x, grad, reason):
    query = {"x": x, "g": "custom", "gy": grad, "tab": "share"}
    app = open_app(PLAYGROUND, query)
    assert no_exceptions(app)
    captions = [c.value for c in app.caption if c.value.startswith("Ask the class:")]
    assert captions and reason in captions[0]


def test_the_playground_links_a_layer_it_can_ask_to_the_class_page():
    app = open_app(PLAYGROUND, {"x": "0,1;2,3", "tab": "share"})
    (link,) = [link for link in app.get("page_link") if "Ask the class" in link.proto.label]
    assert "x=0%2C1%3B2%2C3" in link.proto.query_string or "x=0,1;2,3" in link.proto.query_string


def test_the_key_comes_back_from_the_browser_after_a_reload(remembered):
    _, code, _ = open_from_exercise(remembered)
    kept = remembered[ROOMS]  # what the browser holds now
    reload = open_app(CLASS, {"room": code})
    assert not keys_on(reload) & set(CONTROLS)  # nothing yet: the browser has not answered
    assert any("Looking for room" in c.value for c in reload.caption)
    arrive(reload, kept)
    assert {"cls_close", "cls_new"} <= keys_on(reload)
    assert not [e for e in reload.expander if "Recovery code" in e.label]  # shown once only


def test_a_browser_without_the_key_gets_the_recovery_form_and_no_controls(remembered, engine):
    first, code, _ = open_from_exercise(remembered)
    (recovery,) = [e for e in first.expander if "Recovery code" in e.label]
    grouped = recovery.markdown[0].value.split("**")[1]
    other = arrive(open_app(CLASS, {"room": code}), [])
    assert not keys_on(other) & {"cls_close", "cls_reveal", "cls_vote_again", "cls_end"}
    assert not [f for f in figures(other)]  # no projector either
    other.text_input(key="cls_recovery").input("AAAA-AAAA-AAAA")
    other.button(key="cls_recover").click().run()
    assert any("does not open room" in e.value for e in other.error)
    assert "cls_close" not in keys_on(other)
    other.text_input(key="cls_recovery").input(grouped.lower())
    other.button(key="cls_recover").click().run()
    assert {"cls_close", "cls_reveal"} <= keys_on(other)
    assert store.authorize(engine, code, codes.normal_recovery_code(grouped))


def answer_as_students(engine, code, round_number, answers):
    for raw in answers:
        token = codes.new_token()
        store.join(engine, code, token=token)
        store.answer(engine, code, token=token, round_number=round_number, raw=raw)


def test_close_reveal_and_vote_again_say_what_the_class_did(remembered, engine):
    app, code, _ = open_from_exercise(remembered)
    question = store.round_of(engine, code, 1).question
    wrong = known_mistakes(question.problem)[0]
    answer_as_students(engine, code, 1, [question.answer, wrong.answer, wrong.answer])
    app.run()
    assert "3 answers so far." in texts(app)
    app.button(key="cls_close").click().run()
    assert "Answers closed: 3 answers." in texts(app)
    assert "cls_close" not in keys_on(app) and "cls_vote_again" in keys_on(app)
    app.button(key="cls_reveal").click().run()
    shown = texts(app)
    assert "1 of 3 right (33 %)." in " ".join(shown)
    assert any(text.startswith("- 2 answers gave") and wrong.how in text for text in shown)
    app.button(key="cls_vote_again").click().run()
    assert store.pulse(engine, code).vote == 2
    assert "No answers yet." in texts(app)
    answer_as_students(engine, code, 2, [question.answer, question.answer, wrong.answer])
    app.button(key="cls_reveal").click().run()
    shown = " ".join(texts(app))
    assert "Right: 1 of 3 (33 %) in the first vote, 2 of 3 (67 %) in the second." in shown
    assert ": 2 → 1." in shown
    titles = [f["layout"]["title"]["text"] for f in figures(app)]
    assert any(t.startswith("First vote") for t in titles)
    assert any(t.startswith("Second vote") for t in titles)
    assert "cls_vote_again" not in keys_on(app)


def test_nobody_answered_is_said_as_such(remembered):
    app, _, _ = open_from_exercise(remembered)
    app.button(key="cls_reveal").click().run()
    assert "Nobody answered; the right answer is drawn." in " ".join(texts(app))


def test_ending_the_room_leaves_no_controls(remembered, engine):
    app, code, _ = open_from_exercise(remembered)
    app.button(key="cls_end").click().run()
    assert store.pulse(engine, code).ended
    assert not keys_on(app) & {"cls_close", "cls_reveal", "cls_end"}
    assert any("has ended" in i.value for i in app.info)


def test_a_new_question_in_the_same_room_is_a_new_round(remembered, engine):
    app, code, _ = open_from_exercise(remembered)
    app.button(key="cls_new").click().run()
    app.radio(key="cls_kind").set_value("size").run()
    app.button(key="cls_ask").click().run()
    assert store.pulse(engine, code).round_number == 2
    assert store.round_of(engine, code, 2).question.kind == "size"
    assert "What is the output size?" in " ".join(texts(app))


def test_a_room_link_that_is_not_a_code_is_said_and_the_opening_screen_shown():
    app = arrive(open_app(CLASS, {"room": "**bold**"}))
    assert any("Link value **room**" in w.value for w in app.warning)
    assert "cls_open" in keys_on(app)


def test_a_room_on_a_playground_layer_offers_it_again_after_a_reload(remembered, engine):
    query = ask_params(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[1.0]]), {"mode": "avg"})
    app = arrive(open_app(CLASS, query))
    app.button(key="cls_open").click().run()
    code, kept = app.query_params["room"], remembered[ROOMS]
    reload = arrive(open_app(CLASS, {"room": code}), kept)
    reload.button(key="cls_new").click().run()
    assert reload.radio(key="cls_source").value == "The Playground's layer"
    reload.radio(key="cls_kind").set_value("value").run()
    reload.button(key="cls_ask").click().run()
    asked = store.round_of(engine, code, 2).question
    assert asked.kind == "value" and asked.answer == 0.25  # avg of a 2×2 window: 1/4 each
