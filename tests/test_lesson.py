"""The guided lesson: every step's numbers from the engine, every step's question
answered right and wrong through AppTest, and the step in the link."""

import numpy as np
import pytest
from apptest import errors, no_exceptions, open_app

from teaching.lesson.steps import STEP_COUNT, lesson_steps

LESSON = "screens/lesson.py"


def test_eleven_steps_each_with_exactly_one_right_choice():
    steps = lesson_steps()
    assert len(steps) == STEP_COUNT == 11
    for step in steps:
        assert sum(choice.right for choice in step.choices) == 1
        assert len({choice.text for choice in step.choices}) == len(step.choices)
    positions = {step.right_choice for step in steps}
    assert len(positions) > 1  # the right answer is not always in the same place


def test_the_seed_numbers_come_out_exactly():
    steps = lesson_steps()
    first = steps[0].choices[steps[0].right_choice].text
    assert first == "Only x[0,1]: it gets 2.5; the others get 0"
    assert "0.5 each" in steps[2].choices[steps[2].right_choice].text
    assert "(1.35, 0.15, 0, −0.2, −0.8)" in steps[6].choices[steps[6].right_choice].text
    mistakes = " ".join(step.mistake or "" for step in steps)
    beliefs = (
        "gets the whole dL/dy",
        "average the examples into one",
        "cancel",
        "losses are averaged",
    )
    for belief in beliefs:
        assert belief.lower() in mistakes.lower(), belief
    assert steps[10].title == "The pool has no weights"


@pytest.mark.parametrize("number", range(1, STEP_COUNT + 1))
def test_each_step_right_wrong_and_shown(number):
    step = lesson_steps()[number - 1]
    app = open_app(LESSON, {"step": str(number)})
    assert no_exceptions(app) and errors(app) == []
    assert app.subheader[0].value == f"Step {number} of {STEP_COUNT}: {step.title}"
    assert not any("Answer:" in md.value for md in app.markdown)  # the question comes first
    wrong = next(i for i, choice in enumerate(step.choices) if not choice.right)
    app.radio(key=f"ls_pick_{number}").set_value(wrong).run()
    # A choice alone is not judged (WCAG 3.2.2): Check is.
    assert errors(app) == [] and app.session_state["ls_answers"] == {}
    assert not any("Answer:" in md.value for md in app.markdown)
    app.button(key=f"ls_check_{number}").click().run()
    # The verdict says right or wrong in words, not by the box's colour alone.
    assert errors(app) == [f"Not quite: {step.choices[wrong].why}"]
    assert any("Answer:" in md.value for md in app.markdown)
    app.radio(key=f"ls_pick_{number}").set_value(step.right_choice).run()
    assert errors(app) == [] and not app.success  # the verdict was on the other choice
    app.button(key=f"ls_check_{number}").click().run()
    assert [s.value for s in app.success] == [f"Right: {step.choices[step.right_choice].why}"]
    assert app.session_state["ls_answers"] == {number: wrong}  # the first answer counts
    fresh = open_app(LESSON, {"step": str(number)})
    fresh.button(key=f"ls_show_{number}").click().run()
    assert any("Answer:" in md.value for md in fresh.markdown)


def test_the_step_lives_in_the_link_and_the_keys_move_it():
    app = open_app(LESSON, {"step": "5", "lecture": "1"})
    app.button(key="ls_next").click().run()
    assert app.query_params["step"] == "6" and app.query_params["lecture"] == "1"
    app.button(key="ls_back").click().run()
    app.button(key="ls_back").click().run()
    assert app.query_params["step"] == "4"
    assert open_app(LESSON, {"step": "4"}).subheader[0].value.startswith("Step 4 of")


@pytest.mark.parametrize("bad", ["0", "12", "two", ""])
def test_a_bad_step_in_the_link_says_so(bad):
    app = open_app(LESSON, {"step": bad})
    assert no_exceptions(app)
    assert any("Link value **step**" in w.value for w in app.warning)
    assert app.session_state["ls_step"] == 1


def test_step_examples_are_engine_numbers():
    from pooling import PoolConfig, backward, forward

    step = lesson_steps()[3]  # overlap
    x = step.example[0].values
    result = forward(x, PoolConfig("max", 2, stride=1))
    grad = backward(result, np.ones(result.output.shape))
    assert step.choices[step.right_choice].text == f"{grad[1, 1]:g}"
