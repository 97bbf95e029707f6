"""The lesson page's views: one step on screen (formatting and placing only).

On a desk or a phone a step reads top to bottom: idea, example, question, answer. In
lecture mode it must fit one projector screen, so it sits in two columns (the idea and
its maps beside the question and its answer) and an answer of several paragraphs, or
with a common mistake, is shown one part at a time: the → key walks through the parts
before it goes on to the next step."""

from __future__ import annotations

from contextlib import nullcontext
from functools import partial

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from teaching.lesson.model import Grid, Step
from teaching.lesson.steps import STEP_COUNT, lesson_steps
from teaching.lesson.steps_layer import LAYER_STEPS
from teaching.numbers import DECIMALS, whole_units
from ui.figures import grid as grids
from ui.figures.mosaic import MosaicOptions, small_multiples
from ui.figures.sizes import drawn_width
from ui.figures.style import HALF_PX, LECTURE_HALF_PX
from ui.lesson.state import STATE, check, show_answer, walk
from ui.shared import browser, formula
from ui.shared.chart import cached, chart
from ui.shared.chrome import seed_batch_link
from ui.shared.lecture import lecture_on

BATCH_STEP = len(LAYER_STEPS) + 1  # the first batch step: "each example routes its own"


def step_view() -> None:
    number = STATE.step_shown()
    step = lesson_steps()[number - 1]
    lecture = lecture_on()
    # Lecture mode: Previous and Next share the title's row, above the columns.
    header = st.container(horizontal=True, vertical_alignment="bottom") if lecture else st
    # The step's title is a heading (Next step brings the focus there) that says where
    # the step is in the lesson: a progress bar would say it a second time.
    where = f"Step {number} of {STEP_COUNT}: {step.title}"
    with header.container(key=STATE.heading):
        st.subheader(where, anchor=False)
    if not lecture:  # the learner's own score, not the class's screen
        score_view()
    if lecture:
        # Three maps or more need 3/5 of the width in one row; else half and half.
        example_side, question_side = st.columns(2)
    else:
        example_side = question_side = nullcontext()
    with example_side:
        formula.markdown(step.idea)  # its formulas, if any, with their spoken forms
        example_view(step, number, lecture=lecture)
    with question_side:
        parts = question_view(step, number, lecture=lecture)
    navigation(header if lecture else st, number, parts=parts)
    if number == BATCH_STEP:  # the seed's batch of 100 is one click away
        seed_batch_link()


def example_view(step: Step, number: int, *, lecture: bool) -> None:
    if not step.example:
        return
    if lecture and one_mosaic(step.example):
        chart(mosaic_of(step.example), key=STATE.figure(number, 0))
        return
    figures = [
        cached(
            grids.grid_figure,
            values=grid.values,
            title=grid.title,
            options=grids.GridOptions(
                kind=grid.kind, overlay=grids.Overlay(marks=grid.marks), width_px=HALF_PX
            ),
        )
        for grid in step.example
    ]
    if lecture:  # side by side where half the page has room for them, else stacked
        row = st.container(horizontal=True)
        columns = [row.container(width=int(max(HALF_PX, drawn_width(f)))) for f in figures]
    else:
        columns = st.columns(max(2, len(figures)))  # room for lecture-size titles
    for index, (column, figure) in enumerate(zip(columns, figures, strict=False)):
        with column:
            chart(figure, key=STATE.figure(number, index))


def one_mosaic(maps: tuple[Grid, ...]) -> bool:
    """Whether a step's maps are drawn as one mosaic in lecture mode: three or more of
    one shape and kind (three separate maps would not fit beside each other in half the
    projector; one mosaic, its maps a thin gap apart on one colour scale, does)."""
    return len(maps) > 2 and len({(m.values.shape, m.kind) for m in maps}) == 1


def mosaic_of(maps: tuple[Grid, ...]) -> go.Figure:
    """The maps side by side in whole numbers (hundredths, for maps of two decimals,
    said in the figure's title) and no colour bar, so that three fit a row at lecture
    size."""
    return cached(
        small_multiples,
        maps=[m.values for m in maps],
        titles=[m.title for m in maps],
        options=MosaicOptions(
            kind=maps[0].kind,
            marks=[list(m.marks) for m in maps],
            most_columns=len(maps),
            width_px=LECTURE_HALF_PX,
            colour_bar=False,  # every number is written; its room goes to a third map
            units=whole_units(np.stack([m.values for m in maps]), most_decimals=DECIMALS),
        ),
    )


def question_view(step: Step, number: int, *, lecture: bool) -> int:
    """The question, its choices, the verdict and the answer. Returns how many parts
    the answer on screen is walked through (1 outside lecture mode, or unanswered)."""
    state = st.session_state
    key = STATE.pick(number)
    answers = STATE.answers_given()
    if key not in state and number in answers:
        state[key] = answers[number]  # back on a step answered before
    st.markdown(f"**Question.** {step.question}")
    st.radio(
        "Your answer",
        range(len(step.choices)),
        format_func=lambda index: step.choices[index].text,
        index=None,
        key=key,
        label_visibility="collapsed" if lecture else "visible",  # the question says it
    )
    picked = state[key]
    judged = picked is not None and picked == STATE.checked_choice(number)
    if judged:
        choice = step.choices[picked]
        # Read once, by the focus Check moves onto it (state.check): a quiet alert.
        with st.container(key=STATE.verdict), browser.quiet_alerts("lesson_verdict"):
            (st.success if choice.right else st.error)(step.verdict(picked))
    else:  # Check, and while nothing is shown, Show the answer, in one row
        row = st.container(horizontal=True, gap="small")
        row.button(
            "Check",
            key=STATE.check_button(number),
            type="primary",
            icon=":material/check:",
            on_click=check,
            args=(number,),
            disabled=picked is None,
        )
        if number not in STATE.revealed():
            row.button(
                "Show the answer",
                key=STATE.show_button(number),
                on_click=show_answer,
                args=(number,),
            )
            return 1
    if not lecture:
        reveal_view(step)
        return 1
    parts = answer_parts(step)
    answer_box(step, parts[STATE.part_shown(len(parts))])
    return len(parts)


def answer_parts(step: Step) -> tuple[str, ...]:
    """Lecture mode's answer, a part at a time: each paragraph, then the mistake."""
    mistake = (mistake_text(step.mistake),) if step.mistake else ()
    return step.reveal_paragraphs + mistake


def mistake_text(mistake: str) -> str:
    return f"*A common mistake:* {mistake}"


def answer_box(step: Step, text: str) -> None:
    right = step.choices[step.right_choice].text
    with st.container(border=True, key=STATE.answer):
        st.markdown(f"**Answer: {right}.**\n\n{text}")


def reveal_view(step: Step) -> None:
    """The whole answer at once (a desk or a phone scrolls)."""
    right = step.choices[step.right_choice].text
    with st.container(border=True, key=STATE.answer):
        st.markdown(f"**Answer: {right}.**\n\n{step.reveal}")
        if step.mistake:
            st.markdown(mistake_text(step.mistake))


def navigation(where, number: int, *, parts: int) -> None:
    """Previous and Next in a row of `where`, also on the ← and → keys. While the
    answer on screen has parts before or after the one shown (lecture mode), they walk
    through those."""
    part = STATE.part_shown(parts)
    row = where.container(horizontal=True, gap="small", width="content")
    for delta, more, edge, key, arrow in (
        (-1, part > 0, number == 1, STATE.back, "left"),
        (1, part < parts - 1, number == STEP_COUNT, STATE.next, "right"),
    ):
        back = delta < 0
        what = "The answer's part" if more else "The step"
        row.button(
            f"{'Previous' if back else 'Next'} {'part' if more else 'step'}",
            key=key,
            icon=":material/arrow_back:" if back else ":material/arrow_forward:",
            on_click=partial(walk, parts=parts),
            args=(delta,),
            disabled=edge and not more,
            shortcut=arrow,
            help=f"{what} {'before' if back else 'after'} ({'←' if back else '→'} key).",
        )


def score_view() -> None:
    """Under the step's title, in the same place on every step (a line that moved with
    the step's length could be left over from the step before while a run is cut
    short, and read twice)."""
    answers = STATE.answers_given()
    box = st.container(key=STATE.score)  # drawn empty too: what follows keeps its place
    if not answers:
        return
    steps = lesson_steps()
    right = sum(steps[number - 1].choices[choice].right for number, choice in answers.items())
    box.caption(
        f"Answered {len(answers)} of {STEP_COUNT} steps, {right} right at the first try "
        "(kept in this browser, not in the link)."
    )
