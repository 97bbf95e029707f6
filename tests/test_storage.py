"""What a page keeps in the browser across a reload: written and read back exactly,
the link still deciding what is shown, and whatever the browser hands back (it is user
input) checked: what does not fit is dropped, nothing crashes, nothing is rendered."""

import json

import numpy as np
import pytest
from apptest import errors, no_exceptions, open_app

from teaching.batch import storage as batch_storage
from teaching.exercises import storage as exercise_storage
from teaching.exercises.model import make_problem
from teaching.lesson import storage as lesson_storage
from teaching.lesson.steps import STEP_COUNT, lesson_steps
from ui.shared import browser

EXERCISES, LESSON, BATCH = "screens/exercises.py", "screens/lesson.py", "screens/batch.py"


@pytest.mark.parametrize(
    "text",
    [None, 7, ["{}"], "", "{not json", "x" * (browser.MAX_STORED_CHARS + 1), "[" * 50_000],
)
def test_stored_text_that_is_not_json_gives_nothing(text):
    assert browser.parse_stored(text) is None


def test_a_fresh_session_reads_before_it_writes():
    requests = browser.Requests(store={"ex": "{}", "ls": "{}"}, wanted={"ex", "ls", "bt"})
    data = browser.browser_data(requests, arrived={"ls"}, page="lesson")
    assert data["recall"] == ["bt", "ex"]  # not come back yet: asked for, not written
    assert data["store"] == {"ls": "{}"}


def exercise_work() -> exercise_storage.Work:
    cells, value, size = ("cells", 2, 4, 2), ("value", 1, 4, 1), ("size", 5, 9, 3)
    return exercise_storage.Work(
        first={cells: False, value: True},
        checked={cells: ("(0, 1)", False), value: ("1.5", True)},
        chosen={cells: frozenset({(0, 1), (1, 2)})},
        typed={value: {"typed": "1.5"}, size: {"rows": "3", "cols": "x"}},
    )


def round_trip(stored):
    return json.loads(json.dumps(stored))  # as the browser keeps it: JSON text


def test_exercise_work_comes_back_exactly():
    work = exercise_work()
    again = exercise_storage.from_stored(round_trip(exercise_storage.to_stored(work)))
    assert again == work


@pytest.mark.parametrize(
    "name",
    ["value_1_4_0", "value_1_4_11", "value_6_4_1", "value_01_4_1", "essay_1_4_1",
     "value_1_-4_1", "value_1_1000001_1", "value_1_4", "value_1_4_1_1", "value_1_٤_1"],
)  # fmt: skip
def test_a_problem_the_page_has_not_is_dropped(name):
    stored = {"problems": {name: {"first": True, "checked": ["1", True]}}}
    assert exercise_storage.from_stored(stored) == exercise_storage.Work()


def test_each_part_that_does_not_fit_is_dropped_and_the_rest_kept():
    rows, cols = make_problem("cells", 2, 4, 2).x.shape
    stored = {
        "problems": {
            "cells_2_4_2": {"first": 1, "checked": ["x" * 201, True], "chosen": [[rows, 0]]},
            "cells_2_4_3": {"chosen": [[0, cols - 1], [True, 0]]},
            "value_1_4_1": {"first": True, "checked": ["**2**", "yes"], "typed": {"typed": 5}},
            "value_1_4_2": {"checked": ["[link](http://x)", False], "typed": {"rows": "1"}},
            "size_5_9_3": "not an entry",
        }
    }
    work = exercise_storage.from_stored(stored)
    assert work.first == {("value", 1, 4, 1): True}
    assert work.checked == {("value", 1, 4, 2): ("[link](http://x)", False)}
    assert work.chosen == {} and work.typed == {}


@pytest.mark.parametrize("stored", [None, [], "problems", {"problems": []}, {"v": 2}])
def test_exercise_storage_of_another_shape_gives_no_work(stored):
    assert exercise_storage.from_stored(stored) == exercise_storage.Work()


def test_this_sessions_work_wins_over_the_stored():
    pid = ("value", 1, 4, 1)
    stored = exercise_storage.Work(first={pid: False}, typed={pid: {"typed": "9"}})
    current = exercise_storage.Work(first={pid: True}, checked={pid: ("2", True)})
    both = exercise_storage.merged(current, stored)
    assert both.first == {pid: True} and both.checked == {pid: ("2", True)}
    assert both.typed == {pid: {"typed": "9"}}


def test_only_the_most_recent_problems_are_kept():
    first = {("value", 1, seed, 1): True for seed in range(exercise_storage.MAX_PROBLEMS + 5)}
    stored = exercise_storage.to_stored(exercise_storage.Work(first=first))
    assert len(stored["problems"]) == exercise_storage.MAX_PROBLEMS
    assert "value_1_0_1" not in stored["problems"] and "value_1_204_1" in stored["problems"]


def test_lesson_answers_come_back_and_what_does_not_fit_is_dropped():
    steps = lesson_steps()
    stored = round_trip(lesson_storage.to_stored({1: 0, 4: 2}, {3}))
    assert lesson_storage.from_stored(stored, steps) == ({1: 0, 4: 2}, {3})
    bad = {
        "answers": {
            "0": 0,
            str(STEP_COUNT + 1): 0,
            "2": len(steps[1].choices),
            "3": True,
            "x": 1,
            "5": 1,
        },
        "shown": [0, STEP_COUNT + 1, "2", 2.0, None, 6],
    }
    assert lesson_storage.from_stored(bad, steps) == ({5: 1}, {2, 6})
    assert lesson_storage.from_stored(["answers"], steps) == ({}, set())


def edited_image() -> np.ndarray:
    return np.linspace(-1.5, 0.7, 64).reshape(8, 8) / 3  # floats JSON must keep exactly


def test_edited_digits_come_back_exactly_for_their_batch_only():
    stored = round_trip(batch_storage.to_stored((3, 8), {0: edited_image(), 5: edited_image()}))
    edits = batch_storage.from_stored(stored, (3, 8))
    assert sorted(edits) == [0, 5]
    np.testing.assert_array_equal(edits[5], edited_image())  # bit for bit
    assert batch_storage.from_stored(stored, (4, 8)) == {}  # another seed: the link's batch
    assert batch_storage.from_stored(stored, (3, 4)) == {}  # another size draws others
    stored["batch"] = [3, 4]
    assert list(batch_storage.from_stored(stored, (3, 4))) == [0]  # #5 is not in a batch of 4


@pytest.mark.parametrize(
    "image",
    [
        [[0.5] * 8] * 7,
        [[0.5] * 7] * 8,
        [[0.5] * 8] * 7 + [["0.5"] * 8],
        [[0.5] * 8] * 7 + [[True] * 8],
        [[0.5] * 8] * 7 + [[float("nan")] * 8],  # Python's JSON reads NaN
        [[0.5] * 8] * 7 + [[1e9] * 8],
        "0.5",
    ],
)
def test_an_image_that_is_not_8_by_8_numbers_in_range_is_dropped(image):
    stored = round_trip({"batch": [0, 8], "edits": {"1": image, "2": [[0.25] * 8] * 8}})
    assert list(batch_storage.from_stored(stored, (0, 8))) == [2]
    assert batch_storage.from_stored({"batch": [0, 8], "edits": {"9" * 5000: image}}, (0, 8)) == {}


# -- through the pages: the stored text as it comes back from the browser ---------------


def reopen_with(page: str, query: dict, stored: dict):
    """A fresh session on `query`'s link, then the browser's answer arriving."""
    app = open_app(page, query)
    app.session_state[browser.RECALLED] = {
        namespace: text if isinstance(text, str) else json.dumps(text)
        for namespace, text in stored.items()
    }
    app.run()
    assert no_exceptions(app)
    return app


def test_exercise_work_comes_back_and_the_link_still_says_which_problem():
    markup = "**bold** [link](http://x) :red[x] $x$"
    stored = exercise_storage.to_stored(
        exercise_storage.Work(
            first={("value", 1, 4, 1): True, ("value", 1, 4, 2): False},
            checked={("value", 1, 4, 2): ("7", False)},
            typed={("value", 1, 4, 2): {"typed": markup}, ("value", 1, 4, 1): {"typed": "1"}},
        )
    )
    app = reopen_with(
        EXERCISES, {"kind": "value", "level": "1", "seed": "4", "n": "2"}, {"ex": stored}
    )
    assert dict(app.query_params)["n"] == "2"  # the link's problem, not the last one stored
    assert app.text_input(key="ex_typed_value_1_4_2").value == markup  # a box's text only
    assert any(e.startswith("Your answer is 7, but ") for e in errors(app))  # the answer checked
    assert any("1 right at the first try, of 2" in c.value for c in app.caption)
    shown = [m.value for m in app.markdown] + [c.value for c in app.caption]
    assert not any("bold" in text for text in shown)  # never rendered as markdown


def test_lesson_answers_come_back_on_the_links_step():
    stored = lesson_storage.to_stored({1: 0, 2: 1}, {3})
    app = reopen_with(LESSON, {"step": "3"}, {"ls": stored})
    assert app.subheader[0].value.startswith("Step 3 of")  # the step's heading
    assert any("Answer:" in md.value for md in app.markdown)  # step 3 was shown
    assert any(f"Answered 2 of {STEP_COUNT} steps" in c.value for c in app.caption)
    app.button(key="ls_back").click().run()
    assert app.radio(key="ls_pick_2").value == 1
    # The question on screen was drawn unanswered before the answers came back.
    on_screen = reopen_with(LESSON, {"step": "2"}, {"ls": stored})
    assert on_screen.radio(key="ls_pick_2").value == 1
    assert any(
        lesson_steps()[1].verdict(1) == e
        for e in errors(on_screen) + [s.value for s in on_screen.success]
    )


@pytest.mark.parametrize("text", ["{not json", "[]", json.dumps({"problems": {"a": 1}})])
def test_malformed_storage_is_ignored_on_every_page(text):
    for page in (EXERCISES, LESSON, BATCH):
        app = reopen_with(page, {}, {"ex": text, "ls": text, "bt": text})
        assert errors(app) == [] and not any("Score" in c.value for c in app.caption)


def test_edits_come_back_for_the_links_batch_only():
    stored = batch_storage.to_stored((0, 2), {0: np.full((8, 8), 0.5)})
    app = reopen_with(BATCH, {"data": "edit", "n": "2"}, {"bt": stored})
    assert any(button.label == "Discard my edits" for button in app.button)
    other = reopen_with(BATCH, {"data": "edit", "n": "2", "seed": "3"}, {"bt": stored})
    assert not any(button.label == "Discard my edits" for button in other.button)


def test_a_page_counts_as_settled_only_once_the_browser_component_has_run():
    from deploy.page_state import SETTLED
    from ui.shared import browser

    assert f".st-key-{browser.KEY}" in SETTLED and "window.poolingLabBrowser" in SETTLED
    assert "window.poolingLabBrowser ||= install()" in browser.JS
