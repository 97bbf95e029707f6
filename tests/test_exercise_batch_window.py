"""The batch exercises' window questions (issue 37, item 5): which cells of one window
receive gradient from at least one example, and the mean gradient a cell receives over
the batch, with the first seed's idea ("split each window's gradient over every cell
that was a maximum in any example") named as a mistake. Answers against plain loops and
PyTorch; the Exercises page through AppTest."""

from __future__ import annotations

import numpy as np
import pytest
from apptest import decode, errors, figures, no_exceptions, open_app

from cnn.split_winners import split_routing, window_shares
from pooling.geometry import plane_geometry
from teaching.exercises.answers import Verdict
from teaching.exercises.mistakes import diagnose, known_mistakes
from teaching.exercises.mistakes_batch import IDEA, window_winners
from teaching.exercises.model import LEVELS, SET_SIZE, make_problem
from teaching.exercises.replies import cells_reply, typed_reply
from teaching.exercises.text import explanation, question
from teaching.numbers import fmt

EXERCISES = "screens/exercises.py"
SEEDS = range(4)


def window_problems(*, mean: bool, levels=tuple(LEVELS)):
    """Every window question of the batch sets at `levels`, seeds 0-3."""
    for level in levels:
        for seed in SEEDS:
            for number in range(1, SET_SIZE + 1):
                problem = make_problem("batch", level, seed, number)
                if problem.window is not None and problem.asks_mean == mean:
                    yield problem


def loop_winners(problem) -> list[set]:
    """Per example, the cell of the problem's window holding its maximum, the first in
    reading order among equals (PyTorch's rule, the tie rule of levels 1 to 3)."""
    height, width = problem.x.shape[1:]
    cells = plane_geometry(problem.config, height, width).window_cells(
        problem.window, real_only=True
    )
    found = []
    for plane in problem.x:
        best = cells[0]
        for cell in cells:
            if plane[cell] > plane[best]:
                best = cell
        found.append({best})
    return found


def loop_idea_mean(problem) -> np.ndarray:
    """(H, W): the first seed's idea written out: each window's dL_n/dy split evenly
    over every cell that won it in any example (argmax, first among equals), then the
    mean over the examples."""
    count, height, width = problem.x.shape
    geometry = plane_geometry(problem.config, height, width)
    total = np.zeros((height, width))
    for window in np.ndindex(*geometry.output_shape):
        cells = geometry.window_cells(window, real_only=True)
        won = set()
        for plane in problem.x:
            won.add(max(cells, key=lambda cell, p=plane: (p[cell], -cells.index(cell))))
        for n in range(count):
            for cell in won:
                total[cell] += problem.grad_output[n][window] / len(won)
    return total / count


def torch_mean_gradient(problem) -> np.ndarray:
    """(H, W): d(mean over the batch of Σ y_n·dL_n/dy)/dx summed over the examples, the
    mean of the examples' dL_n/dx, by PyTorch's max_pool2d."""
    torch = pytest.importorskip("torch")
    config = problem.config
    x = torch.tensor(problem.x[:, None], requires_grad=True)
    y = torch.nn.functional.max_pool2d(
        x,
        config.kernel_size,
        stride=config.stride,
        padding=config.padding,
        ceil_mode=config.ceil_mode,
    )
    loss = (y * torch.tensor(problem.grad_output[:, None])).sum(dim=(1, 2, 3)).mean()
    loss.backward()
    return x.grad.numpy()[:, 0].sum(axis=0)


NO_TIES = (1, 2, 3)  # from level 4 on, a tie rule is drawn (PyTorch's is "first")


def test_both_window_questions_are_drawn_at_every_level():
    for level in LEVELS:
        assert any(True for _ in window_problems(mean=False, levels=(level,)))
        assert any(True for _ in window_problems(mean=True, levels=(level,)))


@pytest.mark.parametrize("mean", [False, True])
def test_each_batch_is_small_and_its_window_has_different_winners(mean):
    for problem in window_problems(mean=mean):
        shares = window_winners(problem)
        assert 3 <= len(problem.x) <= 4 and problem.x.shape[1] <= 7
        # dL_n/dy 1 to 3: x_n alone decides the cells (the phone draws x_n alone for them)
        assert ((problem.grad_output >= 1) & (problem.grad_output <= 3)).all()
        assert len({cell for cells in shares for cell in cells}) >= 2


def test_the_cells_that_receive_gradient_are_a_loops():
    for problem in window_problems(mean=False, levels=NO_TIES):
        union = set().union(*loop_winners(problem))
        assert problem.answer == frozenset(union)
        assert problem.pick_plane.sum() == len(
            plane_geometry(problem.config, *problem.x.shape[1:]).window_cells(
                problem.window, real_only=True
            )
        )


def test_the_mean_gradient_is_pytorchs():
    checked = 0
    for problem in window_problems(mean=True, levels=NO_TIES):
        assert problem.answer == pytest.approx(torch_mean_gradient(problem)[problem.cell])
        checked += 1
    assert checked >= 10


def test_the_ideas_number_is_a_hand_written_loops_and_is_never_the_answer():
    for problem in window_problems(mean=True, levels=NO_TIES):
        idea = next(m for m in known_mistakes(problem) if m.name == "split_over_winners")
        assert idea.answer == pytest.approx(loop_idea_mean(problem)[problem.cell])
        assert not np.isclose(idea.answer, problem.answer)


def test_a_typed_answer_of_the_ideas_number_is_named_by_it():
    problem = next(window_problems(mean=True))
    idea = loop_idea_mean(problem)[problem.cell]
    assert diagnose(problem, idea).name == "split_over_winners"
    reply = typed_reply(problem, float(idea))
    assert not reply.right and IDEA in reply.mistake
    r, c = problem.cell
    assert f"the mean gradient at ({r}, {c}) over the batch is {fmt(problem.answer, 4)}" in (
        reply.said
    )


def test_the_other_mean_mistakes_are_what_they_say():
    problem = next(p for p in window_problems(mean=True) if len(known_mistakes(p)) >= 4)
    per_example = torch_mean_gradient(problem) * len(problem.x)  # the examples' sum
    found = {m.name: m.answer for m in known_mistakes(problem)}
    if "reduction" in found:
        assert found["reduction"] == pytest.approx(per_example[problem.cell])
    assert found["sign"] == -problem.answer


def test_a_pick_of_one_examples_winner_is_named_and_the_right_picks_are_said():
    problem = next(window_problems(mean=False, levels=(1,)))
    first = frozenset(loop_winners(problem)[0])
    reply = cells_reply(problem, first)
    assert not reply.right and "example #0's winner alone" in reply.mistake
    right = cells_reply(problem, problem.answer)
    r, c = problem.window
    assert right.right and right.said.startswith(
        f"Right: the {len(problem.answer)} cells of window ({r}, {c}) that some example picks"
    )
    every = frozenset((r, c) for r, c in zip(*np.nonzero(problem.pick_plane), strict=True))
    assert diagnose(problem, every).name == "whole_window"


def test_the_idea_reaches_the_right_cells_with_a_share_of_every_example():
    """The explanation's sentence: the idea reaches the same cells, and gives each of
    them a share of every example's gradient."""
    for problem in window_problems(mean=False, levels=NO_TIES):
        words, _ = explanation(problem, Verdict(False))
        assert f"together they reach {len(problem.answer)}." in words
        assert "Splitting over every winner reaches the same cells" in words
        shares = window_shares(problem.x[:, None], problem.config)
        routed = split_routing(shares, problem.grad_output[:, None], "even")[:, 0]
        for cell in problem.answer:  # every example's gradient reaches every winner
            assert (routed[(slice(None), *cell)] > 0).all()
        assert all(m.name != "split_over_winners" for m in known_mistakes(problem))


def test_the_question_says_what_is_asked():
    cells = next(window_problems(mean=False))
    assert "**Which cells of this window receive gradient from at least one example?**" in (
        question(cells)
    )
    mean = next(window_problems(mean=True))
    r, c = mean.cell
    assert f"**How much gradient does x at ({r}, {c}) receive over the batch**" in question(mean)


def find_pid(*, mean: bool) -> tuple:
    for number in range(1, SET_SIZE + 1):
        problem = make_problem("batch", 1, 0, number)
        if problem.window is not None and problem.asks_mean == mean:
            return ("batch", 1, 0, number), problem
    raise AssertionError("no such problem in set 0")


def open_pid(pid) -> object:
    kind, level, seed, number = pid
    app = open_app(
        EXERCISES, {"kind": kind, "level": str(level), "seed": str(seed), "n": str(number)}
    )
    assert no_exceptions(app) and errors(app) == []
    return app


def test_the_page_checks_a_windows_picks_and_names_one_examples_winner():
    pid, problem = find_pid(mean=False)
    app = open_pid(pid)
    plane = next(f for f in figures(app) if "positions" in f["layout"]["title"]["text"])
    assert np.array_equal(decode(plane["data"][0]["z"]), problem.pick_plane)
    app.session_state["ex_chosen"] = {pid: frozenset(loop_winners(problem)[0])}
    app.run()
    app.button(key="ex_check_cells").click().run()
    said = " ".join(errors(app))
    assert "Not quite" in said and "example #0's winner alone" in said
    assert any("On the positions map" in c.value for c in app.caption)
    app.session_state["ex_chosen"] = {pid: problem.answer}
    app.run()
    app.button(key="ex_check_cells").click().run()
    assert any(s.value.startswith("Right: the ") for s in app.success)


def test_the_page_names_the_ideas_number_as_the_askers_mistake():
    pid, problem = find_pid(mean=True)
    app = open_pid(pid)
    idea = loop_idea_mean(problem)[problem.cell]
    name = "ex_typed_" + "_".join(map(str, pid))
    app.text_input(key=name).input(f"{idea:.4f}")
    next(button for button in app.button if button.label == "Check").click().run()
    assert any(IDEA in e for e in errors(app))
    assert any("0 where another cell won" in m.value for m in app.markdown)
    app.text_input(key=name).input(f"{problem.answer:.2f}")
    next(button for button in app.button if button.label == "Check").click().run()
    assert any("Right" in s.value for s in app.success)


def test_the_weighted_split_is_listed_only_where_it_gives_another_number():
    for problem in window_problems(mean=True):
        found = {m.name: m.answer for m in known_mistakes(problem)}
        if "split_by_wins" in found:
            assert not np.isclose(found["split_by_wins"], found["split_over_winners"])


def test_on_a_projector_a_window_shows_x_n_alone_and_its_explanation_under_why():
    """Lecture mode: dL_n/dy (1 to 3 everywhere) does not decide the cells, so x_n is
    drawn alone beside the positions map; after a wrong Check the reason waits under
    "Why?" (the browser test holds the screen to 720 px)."""
    pid, problem = find_pid(mean=False)
    query = dict(zip(("kind", "level", "seed", "n"), map(str, pid), strict=True))
    app = open_app(EXERCISES, {**query, "lecture": "1"})
    titles = [f["layout"]["title"]["text"] for f in figures(app)]
    assert titles[0] == "x_n" and len(titles) == 2 and titles[1].startswith("positions")
    app.session_state["ex_chosen"] = {pid: frozenset(loop_winners(problem)[0])}
    app.run()
    app.button(key="ex_check_cells").click().run()
    assert no_exceptions(app) and "example #0's winner alone" in " ".join(errors(app))
    (why,) = [e for e in app.expander if e.label == "Why?"]
    said = [m.value for m in why.markdown]
    assert len(said) == 1 and said[0].startswith("Each example sends its gradient only")
