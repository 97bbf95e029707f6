"""Sentences and formulas with the current numbers filled in (pure).

Each sentence is built from the settings it describes, so it is true for them: max or
average, the tie rule, padding, count_include_pad and divisor_override.
"""

from __future__ import annotations

import numpy as np

from pooling import PoolConfig
from pooling.config import Cell
from pooling.geometry import Divisor
from teaching.numbers import fmt
from teaching.playground.model import LayerStory
from teaching.playground.ties import TieRow
from teaching.words import MARK_LEGEND


def cell_name(prefix: str, cell: Cell) -> str:
    return f"{prefix}[{cell[0]},{cell[1]}]"


def input_caption(story: LayerStory) -> str:
    """What the marks on the input map mean, for the settings on screen."""
    parts = []
    # Each sentence names x: on a projector the words of x and y share one column.
    if any(story.config.padding):
        parts.append(f"On x, grey cells are padding: pooling reads {story.pad_label} there.")
    parts.append("On x, the outline marks the cells the current window reads.")
    if story.config.mode == "max":
        parts.append(f"Each cell of x that won a window has {MARK_LEGEND}.")
    return " ".join(parts)


def coverage_caption(story: LayerStory) -> str:
    """What the count map says about overlap, for the windows on screen."""
    most = int(story.coverage.max())
    unread = int((story.coverage == 0).sum())
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


def step_sentence(story: LayerStory, out_cell: Cell) -> str:
    """What window `out_cell` sends back, and why, as markdown."""
    upstream = story.grad_output[out_cell]
    receivers = story.receivers(out_cell)
    name = f"{cell_name('y', out_cell)} = {fmt(story.output[out_cell])}"
    if story.config.mode == "avg":
        divisor = story.divisor(out_cell)
        share = upstream / divisor.value
        return (
            f"{name} is {divisor_reason(divisor, story.config)}. So each of its "
            f"{len(receivers)} real cells gets dL/dy ÷ {fmt(divisor.value)} = "
            f"{fmt(upstream)} ÷ {fmt(divisor.value)} = **{fmt(share)}**."
        )
    read = len(story.window_cells(out_cell, real_only=True))
    cells = ", ".join(cell_name("x", cell) for cell in receivers)
    tied = story.tied_cells(out_cell)
    if len(tied) > 1:
        return tie_sentence(story, out_cell, name)
    others = read - 1
    rest = f"; the other {others} cell{'s' * (others != 1)} of the window get 0" if others else ""
    return (
        f"{name} came from {cells}: only that cell moves y, with slope 1, so it gets "
        f"the whole dL/dy = **{fmt(upstream)}**{rest}."
    )


def tie_sentence(story: LayerStory, out_cell: Cell, name: str) -> str:
    """A tied max window: who the tie rule gives its dL/dy to, and how much in all."""
    upstream = story.grad_output[out_cell]
    tied = story.tied_cells(out_cell)
    sent = story.sent_by(out_cell)
    names = ", ".join(cell_name("x", cell) for cell in tied)
    amounts = ", ".join(f"{cell_name('x', cell)} {fmt(sent[cell])}" for cell in tied)
    rule = story.config.ties
    sentence = f"{name} is tied between {names}; under the tie rule “{rule}” they get {amounts}."
    if rule != "all":
        return sentence + f" In all: **{fmt(sent.sum())}**, the window's dL/dy."
    count = len(tied)
    if upstream == 0:
        return sentence + (
            f" With dL/dy = 0 that is still **0** in all, but the rule is wrong on purpose: any "
            f"other dL/dy would be handed out {count} times."
        )
    return sentence + (
        f" That hands out {count} × {fmt(upstream)} = **{fmt(count * upstream)}** for a "
        f"dL/dy of {fmt(upstream)}; a true gradient hands out exactly dL/dy, so the rule is "
        "wrong on purpose."
    )


def inflation_warning(story: LayerStory) -> str:
    """Said with dL/dx while the tie rule "all" is on and a window holds a tie."""
    windows = story.tied_windows
    sentence = (
        f"Tie rule “all” is wrong on purpose: {windows} window"
        f"{'s hold' if windows > 1 else ' holds'} a tie, and every tied cell gets the whole "
        "dL/dy, so a window whose maximum k cells share hands out k times its dL/dy. "
    )
    sent, total = fmt(story.grad_output.sum()), fmt(story.grad_x.sum())
    if not story.sums_agree:
        return sentence + (
            f"Here dL/dx adds up to {total} while the windows send {sent}; the true gradient "
            "of max pooling adds up to exactly what is sent. The Tie lab tab checks it."
        )
    if story.tied_windows_sending:
        return sentence + (
            f"Here dL/dx still adds up to what the windows send, {sent}, only because the "
            "extra amounts cancel out; the cells' values are still wrong (see the Tie lab tab)."
        )
    return sentence + (
        "Here every tied window's dL/dy is 0, so k times it is still 0 and dL/dx comes out "
        "right; any other dL/dy would not."
    )


def matrix_sentence(story: LayerStory) -> str:
    """What J is and where y = J x holds, for the mode and tie rule on screen."""
    gap = story.transpose_gap
    said = fmt(gap) if gap == 0 else f"{gap:.1e} (rounding)"
    backward = (
        f"Backward is **dL/dx = Jᵀ dL/dy**: here the largest gap between Jᵀ dL/dy and "
        f"dL/dx is {said}."
    )
    if story.linear_everywhere:
        return (
            "Average pooling is linear: **y = J x** for every x, with J holding 1/divisor at "
            f"every real cell of each window. {backward}"
        )
    if story.config.ties in ("first", "last"):
        kind = "a 0/1 selection matrix: one 1 per row, at the cell that gets the gradient"
    else:
        kind = "one row per window holding the share of dL/dy each cell gets"
    if story.tied_windows == 0:
        local = (
            "Max pooling is piecewise linear: around this x, as long as no window's winner "
            f"changes, **y = J x**, with J {kind}."
        )
    elif story.config.ties == "all":
        local = (
            f"Here {story.tied_windows} window(s) hold a tie, where max has a corner and no "
            f"single J: J is {kind}, and under “all” a tied row holds several 1s, so J x is "
            "not even y there."
        )
    else:
        local = (
            f"Here {story.tied_windows} window(s) hold a tie, where max has a corner: y = J x "
            f"holds at this x, with J {kind} (the tie rule's choice), but not around it."
        )
    return f"{local} {backward}"


def ledger_caption(story: LayerStory, cell: Cell) -> str:
    """How many windows read `cell` and how many give it a share of their dL/dy."""
    read, lines = int(story.coverage[cell]), story.ledger(cell)
    return (
        f"{cell_name('x', cell)} is read by {read} window{'s' * (read != 1)}; "
        f"{len(lines)} of them give{'s' * (len(lines) == 1)} it a share of their dL/dy. The sum "
        "of what they send is its gradient."
    )


def tie_lab_sentence(story: LayerStory) -> str:
    """Which splits of a tied window's dL/dy are true gradients, in short sentences."""
    windows = story.tied_windows
    return (
        f"{windows} window{'s hold' if windows > 1 else ' holds'} a tie. A rule that gives "
        "each tied cell a fraction of dL/dy, every fraction between 0 and 1 and all adding "
        "up to 1, gives a valid gradient; giving every tied cell all of dL/dy does not."
    )


def tie_lab_caption(rows: list[TieRow]) -> str:
    """The shift test and the central differences, with this screen's numbers: rows
    from tie_lab, one per tie rule, all sharing one measured slope dL/dt."""
    slope = rows[0].slope
    failing = [
        f"“{row.ties}” adds up to {fmt(row.total)} and fails"
        for row in rows
        if not row.total_matches
    ]
    verdict = f"here {'; '.join(failing)}" if failing else "here every rule passes"
    central = [row.ties for row in rows if row.matches_central]
    shift = (
        "The shift test: raise every cell of x by t and every max rises by t. So a true "
        f"gradient's cells add up to dL/dt = {fmt(slope)}, the slope of L along that "
        f"move; {verdict}."
    )
    if len(central) == len(rows):
        return f"{shift} Central differences agree with every rule: each tied window's dL/dy is 0."
    matched = f"only “{central[0]}” matches them" if central else "no rule matches them"
    one_winner = set(ONE_WINNER) & set(central)
    said = "with every one-winner rule, PyTorch's included" if not one_winner else "with some rules"
    return f"{shift} Central differences disagree {said}: {matched}."


ONE_WINNER = ("first", "last")  # the tie rules that give a tied window's dL/dy to one cell
TIE_LAB_WHY = (
    "A tied cell nudged up moves y, nudged down it does not: max has a corner there, and "
    "no single derivative. A central difference averages the two one-sided slopes, so "
    "each tied cell gets half of its window's dL/dy. With two tied cells that is “split”; "
    "with k ≥ 3 it adds up to k/2 times dL/dy and matches no rule, unless dL/dy is 0. Any "
    "rule that passes the shift test gives a valid gradient at the corner (a subgradient); "
    "PyTorch keeps the first cell."
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


def same_y_sentence(story: LayerStory, same_y: LayerStory) -> str:
    """Why the forward pass must keep the winners, with the two stories' numbers."""
    differ = int((story.grad_x != same_y.grad_x).sum())
    same = "the same y, cell for cell" if (story.output == same_y.output).all() else "another y"
    keep = (
        "So the forward pass keeps each window's winner (PyTorch keeps its index, the "
        "argmax) for the backward pass to route by."
    )
    if differ == 0:
        return (
            f"Both inputs pool to {same}, and here their gradients agree too: every window "
            f"whose winner moved sends dL/dy = 0. With any other dL/dy they would differ. {keep}"
        )
    return (
        f"Both inputs pool to {same}, yet their gradients differ in {differ} cell"
        f"{'s' * (differ != 1)}: y alone cannot say where its gradient goes. {keep}"
    )


def no_same_y_reason(story: LayerStory) -> str:
    """Why max pooling's winners cannot be moved here without changing y."""
    if story.config.mode != "max":
        return (
            "Average pooling has no winner: every cell of a window gets its share whatever x holds."
        )
    if story.coverage.max() > 1:
        return (
            "These windows overlap, so moving one window's winner could change a neighbour's "
            "maximum. Make the stride at least the window (the Seed or Ties preset) to see two "
            "inputs with the same y and different winners."
        )
    return (
        "Every window holds one value throughout, so there is no other cell to move its winner to."
    )


def sums_up(story: LayerStory, step: int) -> bool:
    """Whether window `step` sends more than two cells one same amount: its running
    line then says how many and how much, not each cell's sum."""
    sent = story.sent_by_window[step]
    amounts = {fmt(value) for value in sent[sent != 0]}
    return int((sent != 0).sum()) > 2 and len(amounts) == 1


def running_line(story: LayerStory, step: int) -> str:
    """What window `step` (reading order) adds to the running dL/dx: each receiving
    cell's total before, plus what it is sent, equals its total after; or, where more
    than two cells are sent one same amount, how many and how much."""
    sent = story.sent_by_window[step]
    after = story.running_totals[step]
    before = story.running_totals[step - 1] if step else np.zeros_like(after)
    cells = [tuple(int(i) for i in cell) for cell in np.argwhere(sent != 0)]
    if not cells:
        out_cell = story.out_cell(step)
        upstream = fmt(story.grad_output[out_cell])
        return (
            f"{cell_name('y', out_cell)} sends 0 (its dL/dy is {upstream}): "
            "no running total changes."
        )
    if sums_up(story, step):  # an average window, or a tie under "all"
        shares = {fmt(sent[cell]) for cell in cells}
        return (
            f"Running totals: each of the {len(cells)} cells it sends to adds "
            f"{shares.pop()} to its dL/dx."
        )
    terms = [
        f"{cell_name('dL/dx', cell)}: {fmt(before[cell])} + {fmt(sent[cell])} = {fmt(after[cell])}"
        for cell in cells
    ]
    return "Running totals: " + "; ".join(terms) + "."
