"""The known mistakes of the batch exercises (pure: NumPy, the standard library and the
engine): a shared bias's dL/db at one position, how many positions a batch reaches,
the cells of one window that receive gradient from at least one example, and the mean
gradient a cell receives over the batch, where the first seed's idea ("split each
window's gradient over every cell that was a maximum in any example") is a mistake.
What a Mistake is: teaching/exercises/mistakes.py."""

from __future__ import annotations

import numpy as np

from cnn.split_winners import split_routing, window_shares
from pooling import batch_gradients
from pooling.geometry import plane_geometry
from teaching.exercises.mistakes_gradient import Mistake, sign_mistake, transposed_cell
from teaching.exercises.model import Problem, idea_mean
from teaching.numbers import plural


def bias_mistakes(problem: Problem) -> list[Mistake]:
    """The other reduction, one example alone or one left out, the cell read
    transposed, dL/dy left out, the sign flipped."""
    grad, reduction = problem.grad_output, problem.reduction or "mean"
    count = len(problem.x)
    other = "sum" if reduction == "mean" else "mean"
    found = [
        Mistake(
            "reduction",
            batch_total(problem, grad, other),
            f"add up the {count} examples' gradients"
            if other == "sum"
            else f"divide the examples' sum by {count}",
            f"the loss is the mean over the {count} examples, so their sum is divided by {count}"
            if reduction == "mean"
            else "the loss is the sum over the examples: nothing is divided",
        )
    ]
    for n in range(count):
        alone = np.zeros_like(grad)
        alone[n] = grad[n]
        found.append(
            Mistake(
                "one_example",
                batch_total(problem, alone, "sum"),
                f"take example #{n}'s gradient alone",
                "the bias is shared by the batch, so every example's gradient counts",
            )
        )
    for n in range(count):
        without = grad.copy()
        without[n] = 0
        found.append(
            Mistake(
                "left_out_example",
                batch_total(problem, without, reduction),
                f"leave out example #{n}",
                "every example sends the shared bias its own gradient",
            )
        )
    found.append(transposed_cell(problem, lambda p: batch_total(p, grad, reduction)))
    found.append(
        Mistake(
            "no_upstream",
            batch_total(problem, np.ones_like(grad), reduction),
            "leave out dL_n/dy (as if every window sent 1)",
            "each window sends its share times its own dL_n/dy",
        )
    )
    found.append(sign_mistake(problem))
    return [m for m in found if m is not None]


def batch_total(problem: Problem, grad_output: np.ndarray, reduction: str | None) -> float:
    """dL/db at the problem's cell: the examples' gradients there, reduced."""
    result = batch_gradients(
        problem.x[:, None], grad_output[:, None], problem.config, reduction or "mean"
    )
    return float(result.reduced[0][problem.cell])


# -- how many positions a batch reaches --------------------------------------------------


def count_mistakes(problem: Problem) -> list[Mistake]:
    """One example's positions alone; every example's count added up."""
    result = batch_gradients(
        problem.x[:, None], problem.grad_output[:, None], problem.config, "sum"
    )
    reached = [int((grad != 0).sum()) for grad in result.per_example[:, 0]]
    found = [
        Mistake(
            "one_example",
            count,
            f"count example #{n}'s positions alone",
            "a position counts when any example sends it gradient",
        )
        for n, count in enumerate(reached)
    ]
    found.append(
        Mistake(
            "counted_twice",
            sum(reached),
            "add up each example's count",
            "a position that several examples reach counts once",
        )
    )
    return found


# -- one window over the batch -------------------------------------------------------------

IDEA = "split each window's gradient evenly over every cell any example picked"
IDEA_TRUTH = (
    "a cell that is not example n's maximum does not change L_n, so it gets none of "
    "example n's gradient"
)


def window_winners(problem: Problem) -> list[frozenset]:
    """Per example, the cells of the problem's window that receive its gradient."""
    shares = window_shares(problem.x[:, None], problem.config)[:, 0][(slice(None), *problem.window)]
    return [frozenset((int(r), int(c)) for r, c in np.argwhere(share != 0)) for share in shares]


def window_cells_mistakes(problem: Problem) -> list[Mistake]:
    """One example's winners alone, only the cells every example picks, every cell the
    window reads. The first seed's idea reaches the very cells that are right (it goes
    wrong in the amounts), so it is no mistake here."""
    per_example = window_winners(problem)
    found = [
        Mistake(
            "one_example",
            cells,
            f"take example #{n}'s winner alone",
            "a cell receives gradient when any example picks it",
        )
        for n, cells in enumerate(per_example)
    ]
    found.append(
        Mistake(
            "every_example",
            frozenset.intersection(*per_example),
            "keep only the cells every example picks",
            "one example that picks a cell is enough to send it gradient",
        )
    )
    height, width = problem.x.shape[-2:]
    geometry = plane_geometry(problem.config, height, width)
    found.append(
        Mistake(
            "whole_window",
            frozenset(geometry.window_cells(problem.window, real_only=True)),
            "pick every cell the window reads",
            "max pooling sends each example's gradient to its winner alone",
        )
    )
    return found


def window_mean_mistakes(problem: Problem) -> list[Mistake]:
    """The first seed's idea (evenly, or by how often each cell won), the sum for the
    mean, the mean over the examples that picked the cell only, dL_n/dy left out."""
    x, grad, config, cell = problem.x, problem.grad_output, problem.config, problem.cell
    count = len(x)
    weighted = split_routing(window_shares(x[:, None], config), grad[:, None], "weighted")
    per_example = batch_gradients(x[:, None], grad[:, None], config, "sum").per_example[:, 0]
    picked = int((per_example[(slice(None), *cell)] != 0).sum())
    evenly = float(idea_mean(x, grad, config)[cell])
    by_wins = float(weighted[:, 0].mean(axis=0)[cell])
    found = [Mistake("split_over_winners", evenly, IDEA, IDEA_TRUTH)]
    if not np.isclose(by_wins, evenly):  # the same split where each winner won as often
        how = "split each window's gradient over its winners by how often each won"
        found.append(Mistake("split_by_wins", by_wins, how, IDEA_TRUTH))
    found += [
        Mistake(
            "reduction",
            float(per_example[(slice(None), *cell)].sum()),
            f"add up the {count} examples' gradients",
            f"the mean over the {count} examples divides their sum by {count}",
        ),
    ]
    if 0 < picked < count:
        found.append(
            Mistake(
                "winners_mean",
                float(per_example[(slice(None), *cell)].sum()) / picked,
                f"divide by the {plural(picked, 'example')} that picked it",
                f"the mean is over all {count} examples: the others add 0",
            )
        )
    found.append(
        Mistake(
            "no_upstream",
            batch_total(problem, np.ones_like(grad), "mean"),
            "leave out dL_n/dy (as if every window sent 1)",
            "each window sends its share times its own dL_n/dy",
        )
    )
    found.append(sign_mistake(problem))
    return found
