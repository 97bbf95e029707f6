"""The exercises: seeded problems with the engine's answers, and every kind checked
right, wrong and malformed through AppTest."""

import numpy as np
import pytest
from apptest import errors, no_exceptions, open_app

from pooling import PoolConfig, backward, forward
from pooling.geometry import plane_geometry
from teaching.exercises.answers import parse_number
from teaching.exercises.model import LEVELS, SET_SIZE, make_problem
from teaching.numbers import fmt

EXERCISES = "screens/exercises.py"


def test_a_set_is_the_same_for_everyone_and_another_seed_differs():
    first = [make_problem("value", 3, 11, n) for n in range(1, SET_SIZE + 1)]
    again = [make_problem("value", 3, 11, n) for n in range(1, SET_SIZE + 1)]
    other = [make_problem("value", 3, 12, n) for n in range(1, SET_SIZE + 1)]
    assert [p.answer for p in first] == [p.answer for p in again]
    assert [(p.cell, p.answer) for p in first] != [(p.cell, p.answer) for p in other]


@pytest.mark.parametrize("level", LEVELS)
def test_answers_are_the_engines(level):
    for number in range(1, SET_SIZE + 1):
        cells = make_problem("cells", level, 5, number)
        grad = backward(forward(cells.x, cells.config), cells.grad_output)
        assert cells.answer == {tuple(map(int, c)) for c in np.argwhere(grad != 0)}
        value = make_problem("value", level, 5, number)
        grad = backward(forward(value.x, value.config), value.grad_output)
        assert value.answer == grad[value.cell] != 0
        size = make_problem("size", level, 5, number)
        assert size.answer == plane_geometry(size.config, *size.x.shape).output_shape
    if level == 4:
        assert any(make_problem("cells", 4, 5, n).config.ties != "first" for n in range(1, 11))


def test_a_level_needs_its_idea():
    one_window = [make_problem("value", 1, 2, n) for n in range(1, 11)]
    assert all(p.x.shape == p.config.kernel_size and p.grad_output.size == 1 for p in one_window)
    assert all(make_problem("cells", 3, 2, n).config.padding != (0, 0) for n in range(1, 11))
    assert all(make_problem("size", 5, 2, n).config.ceil_mode for n in range(1, 11))


@pytest.mark.parametrize(
    "text, reason",
    [
        ("", "empty"),
        ("abc", "not a number"),
        ("1e9", "far larger"),
        ("nan", "finite"),
        ("inf", "finite"),
        ("1/0", "not a number"),
        ("1/2/3", "not a number"),
        ("1" + "0" * 310 + "/1", "far larger"),
        ("9" * 400, "far larger"),
        ("1e300/1e-300", "far larger"),
        ("1e9999999", "far larger"),
        ("-inf/2", "finite"),
    ],
)
def test_malformed_answers_get_a_reason(text, reason):
    with pytest.raises(ValueError, match=reason):
        parse_number(text)
    assert parse_number("−2,5") == -2.5 and parse_number("7/3") == pytest.approx(7 / 3)
    assert parse_number("-3/-4") == 0.75 and parse_number("0.5/2") == 0.25


def test_a_long_answer_is_echoed_cut_short():
    app, _problem, name = open_problem("value")
    submit(app, **{f"ex_typed_{name}": "7" * 100_000 + "x"})
    (warning,) = [w.value for w in app.warning]
    assert "not a number" in warning and len(warning) < 200 and "…" in warning
    assert app.text_input(key=f"ex_typed_{name}").value == "7" * 100_000 + "x"  # kept whole


def submit(app, **typed):
    for key, value in typed.items():
        app.text_input(key=key).input(value)
    next(button for button in app.button if button.label == "Check").click().run()


def open_problem(kind: str, level: int = 3, seed: int = 4, number: int = 2):
    app = open_app(
        EXERCISES, {"kind": kind, "level": str(level), "seed": str(seed), "n": str(number)}
    )
    assert no_exceptions(app) and errors(app) == []
    return app, make_problem(kind, level, seed, number), f"{kind}_{level}_{seed}_{number}"


@pytest.mark.parametrize("kind", ["value", "batch"])
def test_typed_answers_right_wrong_and_malformed(kind):
    app, problem, name = open_problem(kind)
    key = f"ex_typed_{name}"
    submit(app, **{key: "twelve"})
    assert any("is not a number" in w.value for w in app.warning) and errors(app) == []
    assert app.text_input(key=key).value == "twelve"  # the typed text is kept
    wrong = float(problem.answer) + 1
    submit(app, **{key: f"{wrong:g}"})
    assert any(e.startswith(f"Your answer is {fmt(wrong, 4)}, but ") for e in errors(app))
    said = "\n".join(m.value for m in app.markdown) + str([x.value for x in app.get("latex")])
    assert ("partial L" in said) if kind == "value" else ("example" in said)
    submit(app, **{key: f"{float(problem.answer):.2f}"})
    assert any("Right" in s.value for s in app.success)
    assert any("0 right at the first try, of 1" in c.value for c in app.caption)


def test_output_size_right_wrong_and_malformed():
    app, problem, name = open_problem("size", level=5)
    rows, cols = f"ex_rows_{name}", f"ex_cols_{name}"
    submit(app, **{rows: "", cols: "3"})
    assert any("is empty" in w.value for w in app.warning)
    submit(app, **{rows: "2.5", cols: "3"})
    assert any("whole number" in w.value for w in app.warning)
    submit(app, **{rows: str(problem.answer[0] + 1), cols: str(problem.answer[1])})
    said = f"Your answer is {problem.answer[0] + 1} × {problem.answer[1]}, but the output size is "
    assert any(e.startswith(said) for e in errors(app))
    assert any("rceil" in x.value for x in app.get("latex"))  # ceil mode's formula
    submit(app, **{rows: str(problem.answer[0]), cols: str(problem.answer[1])})
    assert any("Right" in s.value for s in app.success)


def test_clicked_cells_are_checked_and_explained():
    app, problem, _ = open_problem("cells", level=4)
    pid = ("cells", 4, 4, 2)
    wrong = set(problem.answer)
    wrong.remove(min(wrong))
    app.session_state["ex_chosen"] = {pid: frozenset(wrong)}  # what the clicks leave
    app.run()
    app.button(key="ex_check_cells").click().run()
    assert any("Not quite" in e for e in errors(app))
    assert any("a cell you missed" in m.value for m in app.markdown)
    app.session_state["ex_chosen"] = {pid: problem.answer}
    app.run()
    app.button(key="ex_check_cells").click().run()
    assert any("Right" in s.value for s in app.success)


def test_the_set_lives_in_the_link_and_bad_links_say_so():
    app, _, _ = open_problem("value", level=2, seed=9, number=3)
    app.button(key="ex_next").click().run()
    assert dict(app.query_params) == {"kind": "value", "level": "2", "seed": "9", "n": "4"}
    bad = open_app(EXERCISES, {"kind": "essay", "level": "9", "n": "x"})
    assert no_exceptions(bad)
    assert len([w for w in bad.warning if "Link value" in w.value]) == 3


def test_the_score_counts_first_tries_in_words_that_fit_the_count():
    app, problem, name = open_problem("value", number=1)
    submit(app, **{f"ex_typed_{name}": f"{float(problem.answer) + 1:g}"})
    said = [c.value for c in app.caption if c.value.startswith("Score")]
    assert said == [
        "Score: 0 right at the first try, of 1 problem checked (kept in this "
        "browser, not in the link)."
    ]
    next(button for button in app.button if button.label == "Next").click().run()
    _, second, _ = open_problem("value", number=2)
    submit(app, **{"ex_typed_value_3_4_2": f"{float(second.answer):g}"})
    said = [c.value for c in app.caption if c.value.startswith("Score")]
    assert said and said[0].startswith("Score: 1 right at the first try, of 2 problems checked")


@pytest.mark.parametrize("kind", ["cells", "value", "size", "batch"])
def test_an_exercise_says_its_layer_as_the_class_page_does(kind):
    """One layer in words (teaching/layer_words.py): an exercise's question names every
    setting its answer depends on (the stride and padding of both axes read from the
    layer, not from its first axis), the tie rule exactly where a window of x ties, and
    the divisor only where a gradient's value is asked."""
    from dataclasses import replace

    from teaching.exercises.text import question
    from teaching.layer_words import layer_words, ties_matter

    said_ties = 0
    for level in LEVELS:
        for number in range(1, SET_SIZE + 1):
            problem = make_problem(kind, level, 3, number)
            asked = question(problem)
            asks = (
                "value"
                if kind == "value" or (kind == "batch" and not problem.asks_count)
                else "cells"
            )
            asks = "size" if kind == "size" else asks
            assert layer_words(problem.config, problem.x, kind=asks) in asked
            tied = kind != "size" and ties_matter(problem.x, problem.config)
            assert ("on a tie" in asked) == tied
            said_ties += tied
    if kind == "size":
        assert said_ties == 0
    else:
        assert said_ties > 0  # level 4's grids of 0-3 tie
    rectangular = replace(make_problem("value", 1, 3, 1), config=PoolConfig("max", (2, 1)))
    assert "window 2×1" in question(rectangular)
