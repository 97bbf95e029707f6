"""What the exercises say (pure: no Streamlit): each problem's question, and the right
answer explained with the engine's own ledger, size formula or batch sums."""

from __future__ import annotations

import numpy as np

from pooling.batch import batch_gradients
from pooling.explain import ledger
from teaching.exercises.answers import Verdict
from teaching.exercises.mistakes_batch import window_winners
from teaching.exercises.model import Problem
from teaching.formulas import ledger_formula, size_formula
from teaching.layer_words import layer_words
from teaching.numbers import fmt


def asked_layer(problem: Problem) -> str:
    """The problem's layer in words (teaching/layer_words.py, as the Class page says it):
    a batch's count of positions reached is a question about cells, its bias gradient
    one about a value."""
    kind = problem.kind
    if kind == "batch":
        kind = "cells" if problem.asks_count or problem.picks_cells else "value"
    return layer_words(problem.config, problem.x, kind=kind)


def question(problem: Problem) -> str:
    layer = asked_layer(problem)
    if problem.kind == "cells":
        return (
            f"Layer: {layer}. Every cell of y sends back dL/dy = 1. **Pick every cell of x "
            "that receives gradient**, then check."
        )
    if problem.kind == "value":
        r, c = problem.cell
        return (
            f"Layer: {layer}. The map dL/dy holds each window's upstream gradient. "
            f"**What is dL/dx at ({r}, {c})?** Two decimals are enough."
        )
    if problem.kind == "size":
        height, width = problem.x.shape
        return f"An input of {height} × {width} cells. Layer: {layer}. **What is the output size?**"
    lead = batch_lead(problem)
    if problem.asks_count:
        return lead + " **How many positions receive gradient from at least one example?**"
    if problem.window is not None:
        return lead + " " + window_question(problem)
    r, c = problem.cell
    return lead + (
        f" A bias b is added at every position of every example's input (one b, shared by "
        f"the batch), and the loss is the **{problem.reduction}** over the examples. "
        f"**What is dL/db at ({r}, {c})?** Two decimals are enough."
    )


def batch_lead(problem: Problem) -> str:
    """What a batch question starts with: its examples, its layer."""
    count = problem.x.shape[0]
    layer = asked_layer(problem)
    return f"{count} examples through the same layer: {layer}. Each sends back its own dL_n/dy."


def window_question(problem: Problem, *, then: str | None = None) -> str:
    """A batch's window question: which of its cells receive gradient, or the mean a
    cell receives (the loss is the mean over the examples); `then`: what to do after
    (by default the Exercises page's: pick, then check; two decimals)."""
    if problem.picks_cells:
        wr, wc = problem.window
        ask = (
            f"Window ({wr}, {wc}) of y reads the cells marked 1 on the positions map. "
            "**Which cells of this window receive gradient from at least one example?**"
        )
        return f"{ask} {'Pick them there, then check.' if then is None else then}".strip()
    r, c = problem.cell
    ask = (
        "The loss is the **mean** over the examples. **How much gradient does "
        f"x at ({r}, {c}) receive over the batch**, the mean of its dL_n/dx?"
    )
    return f"{ask} {'Two decimals are enough.' if then is None else then}".strip()


def explanation(problem: Problem, verdict: Verdict) -> tuple[str, list[str]]:
    """(markdown, LaTeX lines) saying why the right answer is right: for cells, the
    ledger of the first cell missed (else of the first extra one)."""
    if problem.kind == "size":
        height, width = problem.x.shape
        return "PyTorch's formula, axis by axis:", size_formula(problem.config, height, width)
    if problem.kind == "batch":
        return batch_explanation(problem), []
    cell = problem.cell or next(iter(sorted(verdict.missing or verdict.extra)), None)
    if cell is None:
        return "", []
    lines = ledger(problem.x, problem.grad_output, problem.config, cell)
    total = sum(line.amount for line in lines)
    where = f"({cell[0]}, {cell[1]})"
    lead = f"The ledger of {where}: every window that sends it something."
    if problem.kind == "cells" and cell in verdict.missing:
        lead = f"The ledger of {where}, a cell you missed: every window that sends it something."
    elif problem.kind == "cells":
        lead = f"You picked {where}, which no window sends anything to: its ledger is empty."
    return lead, [ledger_formula(cell, lines, total)]


def batch_explanation(problem: Problem) -> str:
    result = batch_gradients(
        problem.x[:, None],
        problem.grad_output[:, None],
        problem.config,
        problem.reduction or "mean",
    )
    per_example = result.per_example[:, 0]
    if problem.picks_cells:
        return window_cells_explanation(problem)
    if problem.asks_count:
        reached = [int((grad != 0).sum()) for grad in per_example]
        union = int((per_example != 0).any(axis=0).sum())
        each = ", ".join(f"#{n}: {count}" for n, count in enumerate(reached))
        if union > max(reached):
            why = "because their winners are not all in the same places"
        else:
            why = "no more than the widest one alone: the others' winners lie within its own"
        return (
            f"Each example routes to its own winners ({each} positions); together they "
            f"reach {union}, {why}."
        )
    r, c = problem.cell
    values = [fmt(value) for value in per_example[:, r, c]]
    word = "mean" if problem.reduction == "mean" else "sum"
    combined = " + ".join(values)
    formula = f"({combined}) / {len(values)}" if word == "mean" else combined
    total = fmt(float(np.asarray(problem.answer)), 4)
    if problem.asks_mean:
        return (
            f"Each example's own dL_n/dx at ({r}, {c}): {', '.join(values)} (0 where "
            f"another cell won). Their mean: {formula} = {total}."
        )
    return (
        f"Each example's own dL_n/dx at ({r}, {c}): {', '.join(values)}. The shared bias "
        f"gets their {word}: {formula} = {total}."
    )


def window_cells_explanation(problem: Problem) -> str:
    """Each example's winners of the window, and that the first seed's idea reaches the
    same cells (it goes wrong in the amounts, not the cells)."""
    per_example = window_winners(problem)
    each = "; ".join(
        f"#{n}: {', '.join(f'({r}, {c})' for r, c in sorted(cells))}"
        for n, cells in enumerate(per_example)
    )
    return (
        f"Each example sends its gradient only to the cells it picks ({each}); together "
        f"they reach {len(problem.answer)}. Splitting over every winner reaches the same "
        "cells, but gives each a share of every example's gradient."
    )
