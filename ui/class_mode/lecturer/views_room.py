"""The room on the projector (formatting and placing only): the join panel (the code,
the QR code of the join link, the link) beside the question, the controls and the
class's answers: a live count and the share map or bars while answers come in (a
fragment that runs every second), then the engine's answer over them with the share
right and the wrong answers named, then two votes side by side with the shift. Each
state fits a 1280x720 projector, in lecture mode or not."""

from __future__ import annotations

from dataclasses import fields

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from rooms import store
from teaching.class_mode.projector import RoundScreen, ShareMap, round_screen
from teaching.class_mode.tally import Tally
from ui.class_mode.lecturer import actions
from ui.class_mode.lecturer.live import RoundView, door, pulse, round_view
from ui.class_mode.lecturer.state import STATE, adopt_layer
from ui.class_mode.lecturer.views import layer_maps, question_chooser, question_maps, results_button
from ui.class_mode.lecturer.views_join import door_panel, join_panel, join_panel_px, keys_button
from ui.figures import class_answers as room_figures
from ui.figures.class_answers import ShareOptions
from ui.figures.style import (
    LECTURE_BOTTOM_PX,
    LECTURE_MAIN_PX,
    ROOM_DESK_TOP_PX,
    ROOM_JOIN_PX,
    ROOM_MAP_MOST_PX,
    ROOM_MAP_PX,
    ROOM_PAIR_MAP_PX,
    ROOM_PAIR_MOST_PX,
)
from ui.shared import browser
from ui.shared.chart import cached, chart
from ui.shared.lecture import HEADER_SEE_THROUGH_CSS, lecture_on
from ui.shared.styles import css, style_element

GONE = ("gone",)  # drawn as: no room has the code (deleted, expired)
UNREACHABLE = ("unreachable",)  # drawn as: the database did not answer
# The room screen's style (room.css): no empty room below it, its row showing what
# sticks out, the join panel never shrunk; its first line sits in the header's band,
# in either mode: see-through, and its controls take the clicks there. At a desk, a
# whole number of px above it (room_desk.css).
ROOM_SCREEN_CSS = style_element(
    css(
        __package__,
        "room.css",
        bottom_px=LECTURE_BOTTOM_PX,
        row=STATE.room_row,
        join_column=STATE.join_column,
    )
    + HEADER_SEE_THROUGH_CSS
)
DESK_TOP_CSS = style_element(css(__package__, "room_desk.css", top_px=ROOM_DESK_TOP_PX))


def room_view(code: str, current) -> None:
    """The room screen: the join panel left; the question, the controls and the
    answers right."""
    # Every read before the first element: a read that fails then leaves nothing
    # drawn (a keyed row, say) that the page's sentence about the failure would
    # draw again.
    view = round_view(code, current.round_number) if current.round_number else None
    first = first_vote(code, view, state=current.state)
    locked = door(code).locked
    screen = on_screen(view, first, state=current.state)
    if view is not None:
        adopt_layer(view.question)
    st.html(ROOM_SCREEN_CSS if lecture_on() else ROOM_SCREEN_CSS + DESK_TOP_CSS)
    row = st.container(horizontal=True, gap="medium", wrap=False, key=STATE.room_row)
    left = row.container(width=join_panel_px(code), key=STATE.join_column)
    right = row.container()
    with left:
        join_panel(code)
        door_panel(code, locked)
        keys_button(code)
    with right:
        if st.session_state[STATE.choosing] or view is None:
            browser.announce_change(ROOM_NEWS, CHOOSING, if_silent=True)
            new_question(code, can_cancel=view is not None)
        else:
            row = question_header(screen)
            controls(row, code, view, state=current.state)
            answers_view(code, view, screen, state=current.state)
    if current.state != "open" or view is None or st.session_state[STATE.choosing]:
        watch(code, drawn_as(current))


def new_question(code: str, *, can_cancel: bool) -> None:
    layer = question_chooser()
    row = st.container(horizontal=True, gap="small")
    row.button("Ask", key=STATE.ask_button, type="primary", on_click=actions.ask, args=(code,))
    if can_cancel:
        row.button("Cancel", key=STATE.cancel_button, on_click=actions.choose, args=(False,))
    layer_maps(layer)


def on_screen(view: RoundView | None, first: RoundView | None, *, state: str):
    """The round's screen, from teaching's one call (None: no round yet)."""
    if view is None:
        return None
    return round_screen(
        view.question,
        view.tally,
        number=view.round.number,
        vote=view.round.vote,
        state=state,
        first=first.tally if first is not None else None,
    )


def question_header(screen: RoundScreen):
    """Which round and where its question is from, and the question; beside two votes
    only which round (the question was on screen for both), in the controls' row.
    Returns the row the controls go in."""
    lead = f"**{screen.round_name}**, {screen.vote}"
    if screen.paired:
        row = st.container(horizontal=True, gap="small", vertical_alignment="center")
        row.markdown(lead, width="content")
        return row
    st.markdown(f"{lead} · {screen.source}. {screen.question}")
    return st.container(horizontal=True, gap="small")


def controls(row, code: str, view: RoundView, *, state: str) -> None:
    """The buttons the round's state allows, in `row`, the most likely next one first,
    the results, the room's end and the Maps toggle (the question's maps in the
    answers' place)."""
    if state == "open":
        row.button(
            "Close answers",
            key=STATE.close_button,
            type="primary",
            on_click=actions.close_answers,
            args=(code,),
        )
    if state in ("open", "closed"):
        row.button(
            "Reveal",
            key=STATE.reveal_button,
            type="primary" if state == "closed" else "secondary",
            on_click=actions.reveal,
            args=(code,),
        )
    if state in ("closed", "revealed") and view.round.vote == 1:
        row.button(
            "Discuss and vote again",
            key=STATE.vote_again_button,
            type="primary" if state == "revealed" else "secondary",
            on_click=actions.vote_again,
            args=(code,),
        )
    row.button("New question", key=STATE.new_button, on_click=actions.choose, args=(True,))
    if state == "revealed":  # the round counted and shown; the row has room for it then
        results_button(row, code)
    with row.popover("End room"):
        st.button(
            "End it for everyone",
            key=STATE.end_button,
            type="primary",
            on_click=actions.end_room,
            args=(code,),
        )
    if view.question.kind != "size":
        row.toggle("Maps", key=STATE.maps_on)  # x and dL/dy in the answers' place


def drawn_as(current) -> tuple:
    """What of the room's pulse the page was drawn for."""
    return current.round_number, current.state, current.ended


def first_vote(code: str, view: RoundView | None, *, state: str) -> RoundView | None:
    """The first vote's round, read when a revealed second vote shows it beside."""
    if view is None or state != "revealed" or view.round.first_round is None:
        return None
    return round_view(code, view.round.first_round)


ROOM_NEWS = "room_news"  # browser.announce_change's topic: the round's state, as drawn
CHOOSING = "Choose a question, then press Ask."  # the news while the chooser is drawn


def answers_view(code: str, view: RoundView, screen: RoundScreen, *, state: str) -> None:
    """The round's answers as `screen` has them (beside a revealed second vote, the
    first's too). The round's state is said when it changed since the last full run
    drew another (not on the page's first sight, and not again when a refusal was said
    between): a lecturer who cannot see the screen hears Ask, Close, Reveal and the
    shift."""
    browser.announce_change(ROOM_NEWS, screen.news, if_silent=True)
    if maps_on(view):
        maps_instead(code, view, state=state)
    elif state == "open":
        live_answers(code, (view.round.number, state, False), (view.tally, screen))
    elif screen.paired:
        two_votes(screen)
    elif state == "revealed":
        revealed(screen)
    else:
        st.markdown(screen.count)
        answers_chart(screen, key=STATE.fig_share)


def maps_on(view: RoundView) -> bool:
    """The Maps toggle is on (a size question has none: dL/dy's shape is its answer)."""
    return view.question.kind != "size" and bool(st.session_state.get(STATE.maps_on))


def maps_instead(code: str, view: RoundView, *, state: str) -> None:
    """The question's x and dL/dy in the answers' column (a popover over the page
    would cover the QR code beside it); while answers come in, the page still
    follows the room (as `watch`)."""
    problem = view.question.problem
    question_maps(
        problem.x, problem.grad_output, padding=problem.config.padding, mode=problem.config.mode
    )
    if state == "open":
        watch(code, (view.round.number, state, False))


@st.fragment(run_every=1)
def live_answers(code: str, drawn: tuple, drawn_screen: tuple[Tally, RoundScreen]) -> None:
    """Every second while answers come in: the count and the chart (small: the
    tally is worked out again only when the answers changed, and the screen with it);
    the whole page again when the room moved on (as `watch`) or cannot be read (the
    page says why). `drawn_screen`: the tally the page's run read and its screen."""
    view = moved_on(code, drawn)  # the round it read: one read of it a tick
    counted, screen = drawn_screen
    # live.round_view gives the very Tally it gave for the same answers (cached): the
    # page's run asked teaching for this screen already.
    if view.tally is not counted:
        screen = on_screen(view, None, state="open")
    # Said when it changes (a screen reader hears the class's new count); each round
    # and vote its own name: a new round's "No answers yet." is first sight, unsaid.
    with browser.says_changes(f"room_count_{view.round.number}_{view.round.vote}"):
        st.markdown(screen.count)
    answers_chart(screen, key=STATE.fig_share)


@st.fragment(run_every=1)
def watch(code: str, drawn: tuple) -> None:
    """Every second while no answers come in, or while the room cannot be read: when
    the room moved on (another device ran it, it ended or expired, it is gone, the
    database stopped or came back), the whole page is drawn again. Draws nothing."""
    moved_on(code, drawn)


def moved_on(code: str, drawn: tuple) -> RoundView | None:
    """The whole page again when the room's pulse is not the one it was drawn for
    (GONE or UNREACHABLE when it could not be read); else the round on screen as
    read with the pulse (None while the room has none)."""
    now, view = pulse_now(code)
    if now != drawn:
        st.rerun(scope="app")
    return view


def pulse_now(code: str) -> tuple[tuple, RoundView | None]:
    """drawn_as of the room's pulse and its round read now (None: no round); GONE, or
    UNREACHABLE, and None when it cannot be read (or its round cannot: the page needs
    both, and a page drawn UNREACHABLE that reran on the pulse alone would rerun at
    once, again and again)."""
    try:
        current = pulse(code)
        view = round_view(code, current.round_number) if current.round_number else None
    except store.NoSuchRoom:
        return GONE, None
    except (store.RoomError, SQLAlchemyError):
        return UNREACHABLE, None
    return drawn_as(current), view


def answers_chart(
    screen: RoundScreen,
    *,
    key: str,
    which: int = 0,
    width_px: int = ROOM_MAP_PX,
    tall_px: int = ROOM_MAP_MOST_PX,
) -> None:
    """The screen's chart number `which`: a share map (cells) or bars (numbers); none
    while a typed question has no answers (the count says so)."""
    if which >= len(screen.charts):
        return
    content = screen.charts[which]
    if isinstance(content, ShareMap):
        options = ShareOptions(
            answer_cells=content.answer_cells,
            wrong_cells=content.wrong_cells,
            width_px=width_px,
            tall_px=tall_px,
        )
        figure = cached(
            room_figures.share_map, percents=content.percents, title=content.title, options=options
        )
    else:
        # The bars' fields are their builder's parameters, by name.
        given = {field.name: getattr(content, field.name) for field in fields(content)}
        figure = cached(room_figures.answer_bars, **given, width_px=width_px)
    chart(figure, key=key)


def revealed(screen: RoundScreen) -> None:
    """The engine's answer over the class's answers; the share right; the wrong
    answers named."""
    rest = LECTURE_MAIN_PX - ROOM_JOIN_PX - ROOM_MAP_PX
    chart_place, words = st.columns([ROOM_MAP_PX, rest])
    with chart_place:
        answers_chart(screen, key=STATE.fig_share)
    with words, st.container(key=STATE.verdict_box):
        st.markdown(f"**{screen.verdict}**")
        if screen.legend:
            st.caption(screen.legend)
        for line in screen.lines:
            st.markdown(f"- {line}")


def two_votes(screen: RoundScreen) -> None:
    """The first and the second vote side by side, the answer on both, the shift;
    bars of numbers over the same answers, on the same scale."""
    left, right = st.columns(2)
    for which, (place, key) in enumerate(((left, STATE.fig_first), (right, STATE.fig_second))):
        with place:
            answers_chart(
                screen,
                key=key,
                which=which,
                width_px=ROOM_PAIR_MAP_PX,
                tall_px=ROOM_PAIR_MOST_PX,
            )
    with st.container(key=STATE.verdict_box):
        st.markdown(f"**{screen.verdict}**")
        for line in screen.lines:
            st.markdown(f"- {line}")
