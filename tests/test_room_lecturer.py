"""The lecturer's page through AppTest, on a SQLite file in a temporary folder: a room
opened from an exercise and from the Playground's link, its key kept in the browser
and restored on a reload (never in the link, never on screen), a browser without the
key asked for the recovery code with no controls, and a room run to the end: closed,
revealed, voted again, the two votes side by side."""

from __future__ import annotations

import csv
import io
import json
import sys
import time
from types import SimpleNamespace

import numpy as np
import pytest
from apptest import figure_titled, figures, no_exceptions, open_app
from streamlit.runtime.media_file_manager import MediaFileManager

from pooling import PoolConfig
from rooms import limits, store, store_reads
from rooms.schema import new_engine
from teaching.class_link import ask_params
from teaching.class_mode import codes
from teaching.class_mode import lecturer as model
from teaching.class_mode.codes import valid_token
from teaching.exercises.mistakes import known_mistakes
from teaching.exercises.model import make_problem
from ui.shared import browser

CLASS = "screens/class_page.py"
PLAYGROUND = "screens/playground.py"
ROOMS = "class-rooms"
TOKEN = "class-lecturer-token"
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


@pytest.fixture
def one_minute(monkeypatch):
    """The store's clock held at the start of this minute: a test's tries all fall in
    one window of the rate limits, however slowly the pages run."""
    held = time.time() // 60 * 60
    monkeypatch.setattr(store_reads, "time", SimpleNamespace(time=lambda: held))
    return held


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


def asked_recovery_code(app) -> str:
    """The recovery code as the lecturer gets it on their own screen: Recovery code,
    then Show (views_keys); back to the room after."""
    app.button(key="cls_keys").click().run()
    app.button(key="cls_show_code").click().run()
    (shown,) = [m.value for m in app.markdown if m.value.startswith("Recovery code: **")]
    app.button(key="cls_keys_back").click().run()
    assert no_exceptions(app) and "cls_close" in keys_on(app), app.exception
    return shown.split("**")[1]


def test_a_room_opened_from_an_exercise_asks_its_problem_and_keeps_its_key(remembered, engine):
    app, code, secret = open_from_exercise(remembered)
    assert codes.normal_code(code) == code
    assert secret is not None and store.authorize(engine, code, secret)
    asked = store.round_of(engine, code, 1).question
    assert asked.kind == "value" and asked.answer == make_problem("value", 2, 3, 4).answer
    assert set(CONTROLS) - {"cls_reveal", "cls_vote_again"} <= keys_on(app) | {"cls_end"}
    shown = texts(app)
    # The join code, large, read as "Room code ..." (the words out of sight).
    assert f'<span class="lab-unseen">Room code </span>{code}' in shown
    # The link, to type (no scheme) and to follow (the whole of it, as the QR code's).
    link = f"http://lab.example:8501/join?code={code}"
    pages = [element.proto.body for element in app.get("html")]
    assert any(f'href="{link}"' in body and f">{link[7:]}</a>" in body for body in pages)
    assert app.get("image")  # the QR code
    assert not any(secret in text for text in shown)  # the key never on screen...
    assert secret not in json.dumps(dict(app.query_params))  # ...nor in the link
    assert len(asked_recovery_code(app)) == codes.RECOVERY_LENGTH + 2
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
    reload.button(key="cls_keys").click().run()  # the code stayed in the page that made it
    assert "cls_show_code" not in keys_on(reload) and "cls_new_code" in keys_on(reload)


def test_a_browser_without_the_key_gets_the_recovery_form_and_no_controls(remembered, engine):
    first, code, _ = open_from_exercise(remembered)
    grouped = asked_recovery_code(first)
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
    # The browser keeps a key of its own for the room, not the recovery code.
    kept = model.secret_for(model.rooms_from_stored(remembered[ROOMS]), code)
    assert kept != codes.normal_recovery_code(grouped)
    assert store.authorize(engine, code, kept)


def test_a_lecturer_who_recovered_the_room_is_not_locked_out_by_wrong_codes(
    remembered, engine, one_minute
):
    """Eleven and more wrong recovery codes typed in another browser within a minute:
    that browser is told to wait, the lecturer's second device still closes the round,
    and the right code still opens the room on a third."""
    first, code, _ = open_from_exercise(remembered)
    grouped = asked_recovery_code(first)
    second = arrive(open_app(CLASS, {"room": code}), [])
    second.text_input(key="cls_recovery").input(grouped)
    second.button(key="cls_recover").click().run()
    attacker = arrive(open_app(CLASS, {"room": code}), [])
    for _ in range(12):
        attacker.text_input(key="cls_recovery").input("AAAA-AAAA-AAAA")
        attacker.button(key="cls_recover").click().run()
    assert [e.value for e in attacker.error] == [
        "Too many wrong recovery codes from this browser: wait a minute."
    ]
    second.button(key="cls_close").click().run()
    assert no_exceptions(second) and not second.error
    assert store.round_of(engine, code, 1).state == "closed"
    third = arrive(open_app(CLASS, {"room": code}), [])
    third.text_input(key="cls_recovery").input(grouped)
    third.button(key="cls_recover").click().run()
    assert not third.error and {"cls_reveal", "cls_end"} <= keys_on(third)


def test_the_recovery_form_answers_a_code_with_no_room_as_a_real_one(remembered):
    _, code, _ = open_from_exercise(remembered)
    unknown = next(c for c in ("K7QX3M", "KKKKKK") if c != code)
    said = {}
    for room_code in (code, unknown):
        other = arrive(open_app(CLASS, {"room": room_code}), [])
        other.text_input(key="cls_recovery").input("AAAA-AAAA-AAAA")
        other.button(key="cls_recover").click().run()
        said[room_code] = [e.value.replace(room_code, "CODE") for e in other.error]
    assert said[code] == said[unknown] == ["That recovery code does not open room CODE."]


def test_wrong_recovery_codes_are_counted_per_browser_across_reloads(remembered, one_minute):
    """The page's token comes back from the browser's storage, so a reload is still
    the same browser to the limits; a browser that kept none is given one."""
    _, code, _ = open_from_exercise(remembered)
    assert valid_token(remembered[TOKEN])  # the opener's browser keeps one
    token = codes.new_token()
    for _ in range(limits.RECOVERY_PER_TOKEN.count + 1):  # a reload before each try
        app = open_app(CLASS, {"room": code})
        app.session_state[browser.ARRIVED] = {ROOMS, TOKEN}
        app.session_state[browser.RECALLED] = {ROOMS: "[]", TOKEN: json.dumps(token)}
        app.run()
        app.text_input(key="cls_recovery").input("AAAA-AAAA-AAAA")
        app.button(key="cls_recover").click().run()
    assert [e.value for e in app.error] == [
        "Too many wrong recovery codes from this browser: wait a minute."
    ]
    assert remembered[TOKEN] == token


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


def test_the_live_answers_read_the_round_once_a_tick(remembered, engine, monkeypatch):
    """The projector's fragment runs every second while answers come in: it reads the
    pulse and the round once (the round it checked the room against is the one it
    draws), not the round twice."""
    app, code, _ = open_from_exercise(remembered)
    token = codes.new_token()
    store.join(engine, code, token=token)
    store.answer(engine, code, token=token, round_number=1, raw="2")
    ticks = []
    real = store.round_of

    def round_of(*args, **kwargs):
        caller = sys._getframe(1)
        while caller is not None and caller.f_code.co_name != "live_answers":
            caller = caller.f_back
        if caller is not None:
            ticks.append(args[1:])
        return real(*args, **kwargs)

    monkeypatch.setattr(store, "round_of", round_of)
    app.run()  # the page, then one tick of the fragment
    assert no_exceptions(app), app.exception
    assert "1 answer so far." in texts(app)
    assert ticks == [(code, 1)]


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


# -- the room's results -------------------------------------------------------------------


@pytest.fixture
def downloads(monkeypatch):
    """What the page hands its download buttons, by the URL the browser fetches."""
    kept = {}
    real = MediaFileManager.add

    def add(self, path_or_data, mimetype, coordinates, file_name=None, **options):
        url = real(self, path_or_data, mimetype, coordinates, file_name, **options)
        kept[url] = path_or_data
        return url

    monkeypatch.setattr(MediaFileManager, "add", add)
    return kept


def downloaded(app, downloads, key: str) -> str:
    (button,) = [b for b in app.get("download_button") if b.proto.id.endswith(key)]
    data = downloads[button.proto.url]
    return data.decode() if isinstance(data, bytes) else data


def test_the_results_and_their_csv_are_what_the_phones_sent_across_two_votes(
    remembered, engine, downloads
):
    app, code, _ = open_from_exercise(remembered)
    question = store.round_of(engine, code, 1).question
    wrong = known_mistakes(question.problem)[0]
    # Vote 1: 1 of 4 right; vote 2: 3 of 4 right. Normalized change:
    # (3/4 − 1/4) / (1 − 1/4) = (2/4) / (3/4) = 0.67.
    answer_as_students(engine, code, 1, [question.answer] + [wrong.answer] * 3)
    app.button(key="cls_reveal").click().run()
    app.button(key="cls_vote_again").click().run()
    answer_as_students(engine, code, 2, [question.answer] * 3 + [wrong.answer])
    app.button(key="cls_reveal").click().run()
    app.button(key="cls_results").click().run()
    assert no_exceptions(app), app.exception
    assert app.query_params["view"] == "results"
    shown = " ".join(texts(app))
    assert "1 question asked, voted on a second time." in shown
    assert "First vote: 1 of 4 right (25 %). Second vote: 3 of 4 right (75 %)." in shown
    assert "Change: +2 right; normalized change 0.67." in shown
    assert any(t.startswith("- ") and wrong.how in t and t.endswith(": 3 → 1") for t in texts(app))
    table = list(csv.DictReader(io.StringIO(downloaded(app, downloads, "cls_csv"))))
    assert len(table) == 1
    row = table[0]
    assert (row["answered_vote_1"], row["right_vote_1"], row["share_right_vote_1"]) == (
        "4", "1", "0.2500",
    )  # fmt: skip
    assert (row["answered_vote_2"], row["right_vote_2"], row["share_right_vote_2"]) == (
        "4", "3", "0.7500",
    )  # fmt: skip
    assert (row["change_right"], row["normalized_change"]) == ("2", "0.6667")
    assert wrong.how in row["wrong_answers_vote_1_to_vote_2"]
    app.button(key="cls_back").click().run()
    assert "view" not in app.query_params and "cls_new" in keys_on(app)


def test_the_results_survive_a_reload_and_an_ended_room(remembered, engine, downloads):
    app, code, _ = open_from_exercise(remembered)
    question = store.round_of(engine, code, 1).question
    answer_as_students(engine, code, 1, [question.answer, question.answer])
    app.button(key="cls_end").click().run()
    app.button(key="cls_results").click().run()
    before, kept = downloaded(app, downloads, "cls_csv"), remembered[ROOMS]
    reload = arrive(open_app(CLASS, {"room": code, "view": "results"}), kept)
    shown = " ".join(texts(reload))
    assert "First vote: 2 of 2 right (100 %). Not voted on a second time." in shown
    assert downloaded(reload, downloads, "cls_csv") == before
    assert "no second vote" in before


def test_before_a_room_is_opened_the_exercise_s_question_is_previewed(remembered):
    query = {"kind": "value", "level": "2", "seed": "3", "n": "4"}
    app = arrive(open_app(CLASS, query))
    problem = make_problem("value", 2, 3, 4)
    (caption,) = [c.value for c in app.caption if c.value.startswith("Preview.")]
    assert f"What is dL/dx at ({problem.cell[0]}, {problem.cell[1]})?" in caption
    titles = [f["layout"]["title"]["text"] for f in figures(app)]
    assert titles == ["x", "dL/dy"]
    app.radio(key="cls_kind").set_value("size").run()
    assert [f["layout"]["title"]["text"] for f in figures(app)] == ["x"]  # dL/dy tells
    opened, _, _ = open_from_exercise(remembered, query)
    assert [f["layout"]["title"]["text"] for f in figures(opened)] == [
        "% of the class who picked each cell"
    ] or not figures(opened)
    opened.toggle(key="cls_maps_on").set_value(True).run()  # in the answers' place
    assert [f["layout"]["title"]["text"] for f in figures(opened)] == ["x", "dL/dy"]
    assert not [pop for pop in opened.get("popover") if pop.get("plotly_chart")]


def test_the_reveal_frames_the_cells_picked_that_get_no_gradient(remembered, engine):
    query = {"kind": "cells", "level": "3", "seed": "5", "n": "2"}
    app, code, _ = open_from_exercise(remembered, query)
    question = store.round_of(engine, code, 1).question
    rows, cols = question.grid_shape
    outside = sorted(set(np.ndindex(rows, cols)) - question.answer)[:2]
    picks = sorted(question.answer) + outside  # every right cell and two that get none
    answer_as_students(engine, code, 1, [sorted(question.answer), picks])
    app.button(key="cls_reveal").click().run()
    assert no_exceptions(app), app.exception
    share = figure_titled(app, "% of the class who picked each cell")
    (frame,) = [t for t in share["data"] if t.get("name") == "wrong"]
    # Each framed cell: a closed square of 5 points and a break, from its top-left corner.
    corners = zip(frame["x"][::6], frame["y"][::6], strict=True)
    assert {(round(y + 0.5), round(x + 0.5)) for x, y in corners} == set(outside)
    legend = " ".join(c.value for c in app.caption)
    assert "Dashed: picked, but gets none (2 cells)." in legend


def test_the_projector_asks_teaching_for_its_screen_once_a_run(remembered, engine, monkeypatch):
    """Followed through the room view, each run goes into teaching once (round_screen),
    whatever the round's state: answers coming in (the fragment's first tick reuses the
    page's screen), closed, revealed, and two votes side by side."""
    from ui.class_mode.lecturer import views_room

    calls = []
    real = views_room.round_screen

    def round_screen(*args, **kwargs):
        calls.append(kwargs["state"])
        return real(*args, **kwargs)

    monkeypatch.setattr(views_room, "round_screen", round_screen)
    app, code, _ = open_from_exercise(remembered)
    question = store.round_of(engine, code, 1).question
    wrong = known_mistakes(question.problem)[0]
    answer_as_students(engine, code, 1, [question.answer, wrong.answer])
    steps = [
        (lambda: app.run(), "open"),
        (lambda: app.button(key="cls_close").click().run(), "closed"),
        (lambda: app.button(key="cls_reveal").click().run(), "revealed"),
        (lambda: app.button(key="cls_vote_again").click().run(), "open"),
    ]
    for act, state in steps:
        calls.clear()
        act()
        assert no_exceptions(app), app.exception
        assert calls == [state]
    answer_as_students(engine, code, 2, [question.answer])
    calls.clear()
    app.button(key="cls_reveal").click().run()
    assert calls == ["revealed"]
    assert "Right: 1 of 2 (50 %) in the first vote, 1 of 1 (100 %) in the second." in " ".join(
        texts(app)
    )
