"""The Batch page's one screen on one update from a batch of two (the question “two
losses of 2 and −2: do they cancel, and how is each weight updated?”): the two losses
before and after the step, each example's kernel gradient, their mean (or sum), the
step with its learning rate, and the rule that the gradient of the batch loss is the
mean (or sum) of the examples' own. Formatting and placing only: every number comes
from teaching.batch.pair."""

from __future__ import annotations

import streamlit as st

from teaching.batch.pair import PairStory
from teaching.formulas import batch_rule, step_rule
from teaching.numbers import fmt
from ui.batch.state import STATE
from ui.figures import grid as grids
from ui.figures.mosaic import MosaicOptions, small_multiples
from ui.figures.style import LECTURE_MAIN_PX, NARROW_PX
from ui.shared import formula
from ui.shared.beside import Placed, maps_in_a_row
from ui.shared.chart import cached, chart
from ui.shared.lecture import lecture_on

LOSS_DECIMALS = 3
TREND_WORDS = {1: "up", -1: "down", 0: "same"}


def grid_row(
    maps: list, titles: list[str], *, key: str, kinds: list[str] | None = None, first: int = 0
) -> None:
    """Kernel-sized grids side by side, one column each (gradients unless `kinds`; a
    column left empty for None); first: the index of the first map in the figures' keys
    (a row after another)."""
    kinds = kinds or ["gradient"] * len(maps)
    for index, column in enumerate(st.columns(len(maps))):
        if maps[index] is None:
            continue
        with column:
            figure = cached(
                grids.grid_figure,
                values=maps[index],
                title=titles[index],
                options=grids.GridOptions(kind=kinds[index], width_px=NARROW_PX, decimals=2),
            )
            chart(figure, key=STATE.pair_figure(key, first + index))


def update_stage(pair: PairStory) -> None:
    """One screen: the losses before and after, the rule and the step, the maps of the
    step, and what the numbers say to the question."""
    word = pair.reduction
    # One element, the sentence and the formulas: a projector cannot spare the gap. Two
    # formulas, an em space between: a phone wraps between them, and inside the first
    # only after its "=" (batch_rule), the second in braces not at all.
    formula.markdown(  # with the formulas' spoken forms
        f"**4 · One step from the batch.** {losses_line(pair)}\n\n"
        f"${batch_rule(word, 2)}$\u2003${{{step_rule(word, fmt(pair.rate))}}}$"
    )
    gradients = [*pair.kernel_grads, pair.batch_grad]
    kernels = [pair.kernel_before, pair.kernel_after(word)]
    titles = ["dL_0/dK", "dL_1/dK", f"{word} dL/dK", "K before", "K after"]
    if lecture_on():
        lecture_maps(gradients, kernels, titles, answer=answer_line(pair))
        return
    # Three a row, wide enough for their numbers on a 1024-px screen.
    grid_row(gradients, titles[:3], key="update")
    grid_row([*kernels, None], titles[3:], key="update", kinds=["value"] * 2, first=3)
    st.markdown(answer_line(pair))


def lecture_maps(gradients: list, kernels: list, titles: list[str], *, answer: str) -> None:
    """The projector's row: the three kernel gradients in one mosaic on one colour
    scale, K before and after in another, each as narrow as its 18-px numbers allow
    (five maps with their own margins were wider than 1280 px), the answer under them,
    as wide as the page. Where the row has no room for both (a projector at 150 %), the
    kernels go under the gradients."""
    rows = [(gradients, titles[:3], "gradient"), (kernels, titles[3:], "value")]
    placed = [
        Placed(
            cached(
                small_multiples,
                maps=maps,
                titles=names,
                options=MosaicOptions(
                    kind=kind,
                    most_columns=len(maps),
                    width_px=LECTURE_MAIN_PX,  # room for every map in one row
                    colour_bar=False,  # every number is written: its room goes to the cells
                    own_width=True,
                    snug=True,
                ),
            ),
            STATE.pair_figure("update", index),
        )
        for index, (maps, names, kind) in enumerate(rows)
    ]
    maps_in_a_row(placed)
    st.markdown(answer)


def losses_line(pair: PairStory) -> str:
    """Each example's loss and the pair's, before → after the step, and which way each
    went."""
    word = pair.reduction
    befores = [*pair.losses_before, pair.losses["before"]]
    afters = [*pair.losses_after, pair.losses[word]]
    names = [f"#{n} “{pair.batch.labels[n]}”" for n in (0, 1)] + [word]
    parts = [
        f"{name} {fmt(before, LOSS_DECIMALS)} → {fmt(after, LOSS_DECIMALS)} ({TREND_WORDS[trend]})"
        for name, before, after, trend in zip(
            names, befores, afters, pair.loss_trends(LOSS_DECIMALS), strict=True
        )
    ]
    return "Losses before → after: " + " · ".join(parts) + "."


def answer_line(pair: PairStory) -> str:
    """What the numbers on screen say to “do the losses cancel?”."""
    word = pair.reduction
    opposed = pair.opposed_entries
    size = pair.kernel_grads[0].size
    grads = pair.kernel_grads  # (2, k, k)
    silent = [n for n in (0, 1) if not grads[n].any()]
    if len(silent) == 2:
        pull = f"neither example sends kernel {pair.feature} any gradient, so it does not move."
    elif silent:
        pull = (
            f"#{silent[0]} sends kernel {pair.feature} no gradient, so the {word} follows "
            f"#{1 - silent[0]}'s alone: nothing cancels."
        )
    elif opposed:
        pull = (
            f"in {opposed} of K's {size} entries the two pull opposite ways and partly "
            f"cancel in the {word}."
        )
    elif (grads[0] * grads[1] > 0).all():
        pull = f"the two pull every entry of K the same way: nothing cancels in the {word}."
    else:
        pull = (
            "where both pull an entry of K, they pull it the same way: nothing cancels in "
            f"the {word}."
        )
    kernels = "" if pair.batch.config.kernels == 1 else " (every kernel takes its own step)"
    return (
        "Losses never cancel in the step: it reads only their gradients (and a cross-entropy "
        f"loss is never negative); {pull} This step moves the kernels alone{kernels}; the "
        "other weights are held still."
    )
