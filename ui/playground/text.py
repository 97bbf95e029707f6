"""Sentences and formulas with the current numbers filled in (pure).

Each sentence is built from the settings it describes, so it is true for them: max or
average, the tie rule, padding, count_include_pad and divisor_override.
"""

from __future__ import annotations

from pooling import PoolConfig

from ..figures.style import MARK_LEGEND
from ..shared.numbers import fmt
from .model import Cell, Divisor, Lesson


def cell_name(prefix: str, cell: Cell) -> str:
    return f"{prefix}[{cell[0]},{cell[1]}]"


def input_caption(lesson: Lesson) -> str:
    """What the marks on the input map mean, for the settings on screen."""
    parts = []
    if any(lesson.config.padding):
        parts.append(f"Grey cells are padding: pooling reads {lesson.pad_label} there.")
    parts.append("Outlined: the cells the current window reads.")
    if lesson.config.mode == "max":
        parts.append(f"Each cell that won a window has {MARK_LEGEND}.")
    return " ".join(parts)


def coverage_caption(lesson: Lesson) -> str:
    """What the count map says about overlap, for the windows on screen."""
    most = int(lesson.coverage.max())
    unread = int((lesson.coverage == 0).sum())
    if most > 1:
        said = (
            f"Windows overlap: a cell read by several windows (up to {most} here) can be "
            "sent a share by each of them, and its gradient is the sum of those shares "
            "(the Ledger tab lists them)."
        )
    else:
        said = "No two windows share a cell: each cell gets at most one window's share."
    if unread:
        said += (
            f" {unread} cell{'s are' if unread > 1 else ' is'} read by no window at all, "
            "so its gradient is 0 whatever dL/dy is."
        )
    return said


def divisor_reason(divisor: Divisor, config: PoolConfig) -> str:
    """Why this average window divides by what it divides by."""
    count = fmt(divisor.value)
    real = divisor.real_cells
    if divisor.override:
        return (
            f"its window's sum divided by {count}, the divisor override, whatever the window holds"
        )
    padding = divisor.padded_cells - real
    if padding and config.count_include_pad:
        return (
            f"its window's sum divided by {count}: count_include_pad counts the {padding} "
            f"padding cell{'s' * (padding > 1)} in the window as well as its {real} real cells"
        )
    if padding:
        return (
            f"the mean of its {real} real cells: with count_include_pad off, the "
            f"{padding} padding cell{'s' * (padding > 1)} in the window are not counted"
        )
    return f"the mean of its {real} cells"


def step_sentence(lesson: Lesson, out_cell: Cell) -> str:
    """What window `out_cell` sends back, and why, as markdown."""
    upstream = lesson.grad_output[out_cell]
    receivers = lesson.receivers(out_cell)
    name = f"{cell_name('y', out_cell)} = {fmt(lesson.output[out_cell])}"
    if lesson.config.mode == "avg":
        divisor = lesson.divisor(out_cell)
        share = upstream / divisor.value
        return (
            f"{name} is {divisor_reason(divisor, lesson.config)}. So each of its "
            f"{len(receivers)} real cells gets dL/dy ÷ {fmt(divisor.value)} = "
            f"{fmt(upstream)} ÷ {fmt(divisor.value)} = **{fmt(share)}**."
        )
    read = len(lesson.window_cells(out_cell, real_only=True))
    cells = ", ".join(cell_name("x", cell) for cell in receivers)
    if len(receivers) == 1:
        others = read - 1
        rest = (
            f"; the other {others} cell{'s' * (others != 1)} of the window get 0" if others else ""
        )
        return (
            f"{name} came from {cells}: only that cell moves y, with slope 1, so it gets "
            f"the whole dL/dy = **{fmt(upstream)}**{rest}."
        )
    amounts = ", ".join(fmt(lesson.sent_by(out_cell)[cell]) for cell in receivers)
    sentence = (
        f"{name} is tied between {cells}; under the tie rule “{lesson.config.ties}” "
        f"they get {amounts}."
    )
    if lesson.config.ties == "all":
        sentence += " That hands out more than dL/dy: the rule is wrong on purpose."
    return sentence


def inflation_warning(lesson: Lesson) -> str:
    """Said beside dL/dx while the tie rule "all" gives a wrong gradient."""
    return (
        f"Tie rule “all” is wrong on purpose: {lesson.tied_windows} window"
        f"{'s hold' if lesson.tied_windows > 1 else ' holds'} a tie and every tied cell "
        f"gets the whole dL/dy, so dL/dx adds up to {fmt(lesson.grad_x.sum())} although the "
        f"windows send {fmt(lesson.grad_output.sum())}. A true gradient cannot add up to "
        "more than is sent; the Tie lab tab shows its gradient check failing."
    )


def matrix_sentence(lesson: Lesson) -> str:
    kind = (
        "a 0/1 selection matrix: one 1 per row, at the cell that gets the gradient"
        if lesson.config.mode == "max" and lesson.config.ties in ("first", "last")
        else "one row per window holding the share of dL/dy each cell gets"
    )
    if lesson.config.mode == "avg":
        kind = "1/divisor at every real cell of each window"
    gap = lesson.transpose_gap
    said = fmt(gap) if gap == 0 else f"{gap:.1e} (rounding)"
    return (
        f"For this x the layer is linear, **y = J x**, with J {kind}. Backward is "
        f"**dL/dx = Jᵀ dL/dy**: here the largest gap between Jᵀ dL/dy and dL/dx is {said}."
    )


def _column(values) -> str:
    return r"\begin{bmatrix}" + r"\\".join(fmt(v) for v in values) + r"\end{bmatrix}"


def transpose_formula(matrix, grad_output, grad_x) -> str:
    """dL/dx = Jᵀ g written out: J: (M, N); grad_output: (M,); grad_x: (N,)."""
    rows = r"\\".join(" & ".join(fmt(v) for v in row) for row in matrix.T)
    return (
        r"\frac{\partial L}{\partial x} = J^\top g = \begin{bmatrix}"
        + rows
        + r"\end{bmatrix}"
        + _column(grad_output)
        + " = "
        + _column(grad_x)
    )


def twin_sentence(lesson: Lesson, twin: Lesson) -> str:
    """Why the forward pass must keep the winners, with the two lessons' numbers."""
    differ = int((lesson.grad_x != twin.grad_x).sum())
    return (
        f"Both inputs pool to the same y, cell for cell, yet their gradients differ in "
        f"{differ} cells: y alone cannot say where its gradient goes. So the forward pass "
        "keeps each window's winner (PyTorch keeps its index, the argmax) for the backward "
        "pass to route by."
    )


def no_twin_reason(lesson: Lesson) -> str:
    """Why max pooling's winners cannot be moved here without changing y."""
    if lesson.config.mode != "max":
        return (
            "Average pooling has no winner: every cell of a window gets its share whatever x holds."
        )
    if lesson.coverage.max() > 1:
        return (
            "These windows overlap, so moving one window's winner could change a neighbour's "
            "maximum. Make the stride at least the window (the Seed or Ties preset) to see two "
            "inputs with the same y and different winners."
        )
    return (
        "Every window holds one value throughout, so there is no other cell to move its winner to."
    )
