"""The lesson page's views: one step on screen (formatting and placing only)."""

from __future__ import annotations

import streamlit as st

from ..figures import grid as grids
from ..figures.style import HALF_PX
from ..shared.chart import cached, chart
from ..shared.player import back_and_next
from .model import Step
from .state import STATE, answered, go, show_answer
from .steps import STEP_COUNT, lesson_steps


def step_view() -> None:
    number = STATE.step_shown()
    step = lesson_steps()[number - 1]
    st.progress(number / STEP_COUNT, text=f"Step {number} of {STEP_COUNT}: {step.title}")
    st.markdown(step.idea)
    example_view(step, number)
    question_view(step, number)
    navigation(number)
    score_view()


def example_view(step: Step, number: int) -> None:
    if not step.example:
        return
    columns = st.columns(max(2, len(step.example)))  # room for lecture-size titles
    for index, (column, grid) in enumerate(zip(columns, step.example, strict=False)):
        with column:
            figure = cached(
                grids.grid_figure,
                values=grid.values,
                title=grid.title,
                kind=grid.kind,
                overlay=grids.Overlay(marks=grid.marks),
                width_px=HALF_PX,
            )
            chart(figure, key=STATE.figure(number, index))


def question_view(step: Step, number: int) -> None:
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
        on_change=answered,
        args=(number,),
    )
    picked = state[key]
    if picked is not None:
        choice = step.choices[picked]
        (st.success if choice.right else st.error)(step.verdict(picked))
    if picked is not None or number in STATE.revealed():
        reveal_view(step)
    else:
        st.button(
            "Show the answer", key=STATE.show_button(number), on_click=show_answer, args=(number,)
        )


def reveal_view(step: Step) -> None:
    right = step.choices[step.right_choice].text
    with st.container(border=True):
        st.markdown(f"**Answer: {right}.**\n\n{step.reveal}")
        if step.mistake:
            st.markdown(f"*A common mistake:* {step.mistake}")


def navigation(number: int) -> None:
    back_and_next(
        st.container(horizontal=True, gap="small"),
        keys=(STATE.back, STATE.next),
        labels=("Previous step", "Next step"),
        on_move=go,
        at_first=number == 1,
        at_last=number == STEP_COUNT,
        noun="step",
    )


def score_view() -> None:
    answers = STATE.answers_given()
    if not answers:
        return
    steps = lesson_steps()
    right = sum(steps[number - 1].choices[choice].right for number, choice in answers.items())
    st.caption(
        f"Answered {len(answers)} of {STEP_COUNT} steps, {right} right at the first try "
        "(kept in this browser, not in the link)."
    )
