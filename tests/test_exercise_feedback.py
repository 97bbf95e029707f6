"""The Exercises page's feedback through AppTest: the reply speaks of the number typed
and names the known mistake that gives it; two decimals are enough either way they are
rounded; an empty answer is said plainly; checked cells are drawn right, missed and
extra on x, with a legend that counts them."""

import numpy as np
from apptest import errors, figures, no_exceptions, open_app

from pooling.explain import ledger
from teaching.exercises.model import make_problem
from teaching.numbers import fmt

EXERCISES = "screens/exercises.py"


def open_problem(kind: str, level: int, seed: int, number: int):
    app = open_app(
        EXERCISES, {"kind": kind, "level": str(level), "seed": str(seed), "n": str(number)}
    )
    assert no_exceptions(app) and errors(app) == []
    return app, make_problem(kind, level, seed, number), f"{kind}_{level}_{seed}_{number}"


def type_and_check(app, key: str, text: str) -> None:
    app.text_input(key=key).input(text)
    app.button(key="ex_check_typed").click().run()


def test_a_window_left_out_is_named_in_the_reply():
    app, problem, name = open_problem("value", 3, 4, 2)
    lines = ledger(problem.x, problem.grad_output, problem.config, problem.cell)
    left_out = next(  # a window whose leaving out gives a number no other line gives
        line for line in lines if sum(1 for other in lines if other.amount == line.amount) == 1
    )
    typed = problem.answer - left_out.amount
    type_and_check(app, f"ex_typed_{name}", f"{typed:g}")
    (said,) = errors(app)
    r, c = problem.cell
    out_r, out_c = left_out.output_cell
    assert said == (
        f"Your answer is {fmt(typed)}, but dL/dx at ({r}, {c}) is {fmt(problem.answer)}. "
        f"{fmt(typed)} is what you get if you leave out the window of y[{out_r},{out_c}], "
        f"which sends {fmt(left_out.amount)}: every window that reads ({r}, {c}) sends it "
        "its share, and overlapping windows add up."
    )
    assert not any("The answer is" in text for text in errors(app))


def test_a_number_no_mistake_gives_is_said_to_be_so():
    app, problem, name = open_problem("value", 3, 4, 2)
    type_and_check(app, f"ex_typed_{name}", "1234.5")
    (said,) = errors(app)
    assert said.endswith("No known mistake gives 1234.5.")
    assert said.startswith("Your answer is 1234.5, but dL/dx at ")


def test_two_decimals_rounded_or_cut_short_are_right():
    app, problem, name = open_problem("value", 5, 4, 4)
    assert problem.answer == 8 / 3
    for typed in ("2.66", "2.67", "8/3"):
        type_and_check(app, f"ex_typed_{name}", typed)
        (said,) = [s.value for s in app.success]
        assert said.startswith("Right: dL/dx at ") and errors(app) == []
    type_and_check(app, f"ex_typed_{name}", "2.66")
    assert [s.value for s in app.success][0].endswith(
        "is 2.6667, and your 2.66 is within 0.01 of it: two decimals are enough."
    )
    type_and_check(app, f"ex_typed_{name}", "2.65")
    assert errors(app)[0].startswith("Your answer is 2.65, but dL/dx at ")


def test_an_empty_answer_is_said_plainly():
    app, _, name = open_problem("value", 3, 4, 2)
    type_and_check(app, f"ex_typed_{name}", "   ")
    (warning,) = [w.value for w in app.warning]
    assert warning == "Your answer is empty: type a number there, then check."
    size, _, size_name = open_problem("size", 2, 4, 1)
    size.text_input(key=f"ex_cols_{size_name}").input("3")
    size.button(key="ex_check_typed").click().run()
    assert [w.value for w in size.warning] == [
        "Output height is empty: type a number there, then check."
    ]
    assert not any("(empty)" in w.value for w in size.warning)


def test_a_size_mistake_is_named():
    app, problem, name = open_problem("size", 3, 4, 1)
    rows, cols = problem.answer
    padding = problem.config.padding[0]
    assert padding
    app.text_input(key=f"ex_rows_{name}").input(str(cols))
    app.text_input(key=f"ex_cols_{name}").input(str(rows))
    app.button(key="ex_check_typed").click().run()
    (said,) = errors(app)
    assert said.startswith(
        f"Your answer is {cols} × {rows}, but the output size is {rows} × {cols}."
    )
    if rows != cols:
        assert "swap height and width" in said or "is what you get if you" in said


def marks_on_x(app) -> dict[str, set]:
    """The answer marks drawn on x: {trace name: the cells it is drawn in}."""
    (x,) = [f for f in figures(app) if f["layout"]["title"]["text"] == "x"]
    found = {}
    for trace in x["data"]:
        if trace.get("name") in ("your pick", "right", "missed", "extra"):
            points = [
                (round(y), round(xv))
                for xv, y in zip(trace["x"], trace["y"], strict=True)
                if xv is not None
            ]
            found[trace["name"]] = set(points)
    return found


def test_checked_cells_are_drawn_right_missed_and_extra_with_a_counted_legend():
    app, problem, _ = open_problem("cells", 2, 4, 2)
    pid = ("cells", 2, 4, 2)
    answer = sorted(problem.answer)
    spare = next(c for c in np.ndindex(problem.x.shape) if c not in problem.answer)
    picks = frozenset(answer[1:]) | {spare}
    app.session_state["ex_chosen"] = {pid: picks}
    app.run()
    assert marks_on_x(app) == {"your pick": set(picks)}  # before checking: the picks
    app.button(key="ex_check_cells").click().run()
    right = len(answer) - 1
    assert errors(app) == [f"Not quite: {right} right, 1 missed, 1 extra."]
    drawn = marks_on_x(app)
    assert drawn["right"] == set(answer[1:]) and drawn["extra"] == {spare}
    assert drawn["missed"] == {answer[0]} and "your pick" not in drawn
    legends = [c.value for c in app.caption if c.value.startswith("On x,")]
    assert legends == [
        f"On x, a tick marks each of your {right} right picks, a dashed frame the cell "
        "you missed, a cross your 1 extra pick (receiving nothing)."
    ]
    said = " ".join(m.value for m in app.markdown) + " ".join(errors(app))
    assert ", ".join(f"({r}, {c})" for r, c in answer) not in said  # drawn, not listed
    # Cleared after the check: no picks, no marks, no reply about picks no longer there.
    app.button(key="ex_clear").click().run()
    assert errors(app) == [] and marks_on_x(app) == {}


def test_a_right_pick_of_one_cell_is_said_in_the_singular():
    app, problem, _ = open_problem("cells", 1, 4, 1)
    assert len(problem.answer) == 1
    app.session_state["ex_chosen"] = {("cells", 1, 4, 1): problem.answer}
    app.run()
    app.button(key="ex_check_cells").click().run()
    ((r, c),) = problem.answer
    assert [s.value for s in app.success] == [
        f"Right: ({r}, {c}) is the only cell that receives gradient."
    ]
    assert any("of 1 problem checked" in cap.value for cap in app.caption)
    assert not any("1 problems" in cap.value for cap in app.caption)
