"""The known mistakes of the batch exercises (pure: NumPy, the standard library and the
engine): a shared bias's dL/db at one position, and how many positions a batch reaches.
What a Mistake is: teaching/exercises/mistakes.py."""

from __future__ import annotations

import numpy as np

from pooling import batch_gradients
from teaching.exercises.mistakes_gradient import Mistake, sign_mistake, transposed_cell
from teaching.exercises.model import Problem


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
