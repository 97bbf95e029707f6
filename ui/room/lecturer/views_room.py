"""The room on the projector (formatting and placing only): the join panel (the code,
the QR code of the join link, the link, the controls) beside the class's answers: a
live count and the share map or bars while answers come in (a fragment that runs
every second), then the engine's answer over them with the share right and the wrong
answers named, then two votes side by side with the shift. In lecture mode each state
fits a 1280x720 projector."""

from __future__ import annotations

import streamlit as st

from ...figures import room as room_figures
from ...figures.style import (
    LECTURE_MAIN_PX,
    QR_DARK,
    QR_DESK_PX,
    QR_LECTURE_PX,
    QR_LIGHT,
    QR_MODULE_BORDER,
    ROOM_CODE_DESK_PX,
    ROOM_CODE_LECTURE_PX,
    ROOM_JOIN_PX,
    ROOM_MAP_PX,
    ROOM_PAIR_MAP_PX,
)
from ...pure.qr import qr_image
from ...shared.chart import cached, chart
from ...shared.lecture import lecture_on
from ...shared.state import literal
from . import actions
from .live import RoundView, pulse, round_view, share_percents, students_link
from .model import (
    bars,
    count_sentence,
    question_words,
    right_sentence,
    shift_lines,
    shift_sentence,
    wrong_lines,
)
from .state import STATE
from .views import question_chooser, question_maps

VOTES = {1: "first vote", 2: "second vote"}


def vote_name(vote: int) -> str:
    return VOTES.get(vote, f"vote {vote}")


@st.cache_resource(max_entries=64, show_spinner=False)
def _qr(link: str, least_px: int):
    return qr_image(link, least_px=least_px, dark=QR_DARK, light=QR_LIGHT, border=QR_MODULE_BORDER)


def join_panel(code: str) -> None:
    """The code, large; the QR code of the join link; the link."""
    lecture = lecture_on()
    code_px = ROOM_CODE_LECTURE_PX if lecture else ROOM_CODE_DESK_PX
    with st.container(key=STATE.code_box):
        st.html(
            f"<style>.st-key-{STATE.code_box} p {{ font-size: {code_px}px; "
            "font-family: monospace; letter-spacing: 0.12em; line-height: 1.1; "
            "margin: 0; font-weight: 700; }</style>"
        )
        st.markdown(code)  # six characters of codes.ALPHABET: no markup can hide in it
    link = students_link(code)
    image = _qr(link, QR_LECTURE_PX if lecture else QR_DESK_PX)
    st.image(image.svg, width=image.side, caption=None)
    st.caption(f"Join at {literal(link)}")


def controls(code: str, shown: RoundView | None, *, state: str) -> None:
    """The buttons the round's state allows, the most likely next one first."""
    row = st.container(horizontal=True, gap="small")
    vote = shown.round.vote if shown else 1
    if state == "open":
        row.button(
            "Close answers",
            key=STATE.close_button,
            type="primary",
            on_click=actions.close_answers,
            args=(code,),
        )
    if state in ("open", "closed"):
        primary = "primary" if state == "closed" else "secondary"
        row.button(
            "Reveal", key=STATE.reveal_button, type=primary, on_click=actions.reveal, args=(code,)
        )
    if state in ("closed", "revealed") and vote == 1:
        primary = "primary" if state == "revealed" else "secondary"
        row.button(
            "Discuss and vote again",
            key=STATE.vote_again_button,
            type=primary,
            on_click=actions.vote_again,
            args=(code,),
        )
    row.button("New question", key=STATE.new_button, on_click=actions.choose, args=(True,))
    with row.popover("End room"):
        st.button(
            "End it for everyone",
            key=STATE.end_button,
            type="primary",
            on_click=actions.end_room,
            args=(code,),
        )


def extras(code: str, shown: RoundView | None) -> None:
    """Folded: the recovery code (in the session that opened the room), the maps."""
    recovery = st.session_state[STATE.recovery_codes].get(code)
    if recovery is not None:
        with st.expander("Recovery code (for another device)", icon=":material/key:"):
            st.markdown(
                f"**{recovery}** opens this room in another browser. It is shown once: note it now."
            )
    if shown is not None and shown.question.kind != "size":
        problem = shown.question.problem
        with st.expander("The question's maps", icon=":material/grid_on:"):
            question_maps(
                problem.x,
                problem.grad_output,
                padding=problem.config.padding,
                mode=problem.config.mode,
            )


def room_view(code: str, current) -> None:
    """The room screen: join panel and controls left, the answers right."""
    rest = LECTURE_MAIN_PX - ROOM_JOIN_PX
    left, right = st.columns([ROOM_JOIN_PX, rest], gap="medium")
    shown = round_view(code, current.round_number) if current.round_number else None
    choosing = st.session_state[STATE.choosing] or shown is None
    with left:
        join_panel(code)
        if not choosing:
            controls(code, shown, state=current.state)
        extras(code, shown)
    with right:
        if choosing:
            new_question(code, can_cancel=shown is not None)
        else:
            question_header(shown)
            answers_view(code, shown, state=current.state)
    watch(code, (current.round_number, current.state, current.ended))


def new_question(code: str, *, can_cancel: bool) -> None:
    question_chooser(in_room=True)
    row = st.container(horizontal=True, gap="small")
    row.button("Ask", key=STATE.ask_button, type="primary", on_click=actions.ask, args=(code,))
    if can_cancel:
        row.button("Cancel", key=STATE.cancel_button, on_click=actions.choose, args=(False,))


def question_header(shown: RoundView) -> None:
    found = shown.round
    st.markdown(f"**Round {found.number}**, {vote_name(found.vote)} · {shown.question.source}")
    st.markdown(question_words(shown.question))


def answers_view(code: str, shown: RoundView, *, state: str) -> None:
    if state == "open":
        live_answers(code, shown.round.number)
    elif state == "revealed" and shown.round.first_round is not None:
        first = round_view(code, shown.round.first_round)
        two_votes(first, shown)
    elif state == "revealed":
        revealed(shown)
    else:
        st.markdown(count_sentence(shown.tally.count, state="closed"))
        answers_chart(shown, revealed=False, key=STATE.fig_share)


@st.fragment(run_every=1)
def live_answers(code: str, number: int) -> None:
    """Every second while answers come in: the count and the chart (small: the
    tally is worked out again only when the answers changed)."""
    shown = round_view(code, number)
    st.markdown(count_sentence(shown.tally.count, state="open"))
    answers_chart(shown, revealed=False, key=STATE.fig_share)


@st.fragment(run_every=1)
def watch(code: str, drawn: tuple) -> None:
    """Every second: when the room moved on (another device ran it, it ended or
    expired), the whole page is drawn again. Draws nothing."""
    now = pulse(code)
    if (now.round_number, now.state, now.ended) != drawn:
        st.rerun(scope="app")


def answers_chart(
    shown: RoundView,
    *,
    revealed: bool,
    key: str,
    width_px: int = ROOM_MAP_PX,
    title: str | None = None,
) -> None:
    question, counted = shown.question, shown.tally
    if question.kind == "cells":
        answer = tuple(sorted(question.answer)) if revealed else ()
        figure = cached(
            room_figures.share_map,
            percents=share_percents(counted),
            title=title or "% of the class who picked each cell",
            answer_cells=answer,
            width_px=width_px,
        )
    else:
        found = bars(question, counted, revealed=revealed)
        figure = cached(
            room_figures.answer_bars,
            labels=tuple(bar.label for bar in found),
            counts=tuple(bar.count for bar in found),
            right=tuple(bar.right for bar in found),
            title=title or "Answers given",
            width_px=width_px,
        )
    chart(figure, key=key)


def revealed(shown: RoundView) -> None:
    """The engine's answer over the class's answers; the share right; the wrong
    answers named."""
    chart_place, words = st.columns([ROOM_MAP_PX, LECTURE_MAIN_PX - ROOM_JOIN_PX - ROOM_MAP_PX])
    with chart_place:
        answers_chart(shown, revealed=True, key=STATE.fig_share)
    with words:
        st.markdown(f"**{right_sentence(shown.tally)}**")
        if shown.question.kind == "cells":
            st.caption("Outlined: the cells that get gradient.")
        for line in wrong_lines(shown.question, shown.tally):
            st.markdown(f"- {line}")


def two_votes(first: RoundView, second: RoundView) -> None:
    """The first and the second vote side by side, the answer on both, the shift."""
    left, right = st.columns(2)
    for place, shown, key in ((left, first, STATE.fig_first), (right, second, STATE.fig_second)):
        with place:
            title = f"{vote_name(shown.round.vote).capitalize()}: % who picked each cell"
            if shown.question.kind != "cells":
                title = f"{vote_name(shown.round.vote).capitalize()}: answers given"
            answers_chart(shown, revealed=True, key=key, width_px=ROOM_PAIR_MAP_PX, title=title)
    st.markdown(f"**{shift_sentence(first.tally, second.tally)}**")
    for line in shift_lines(second.question, first.tally, second.tally):
        st.markdown(f"- {line}")
