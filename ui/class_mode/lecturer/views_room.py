"""The room on the projector (formatting and placing only): the join panel (the code,
the QR code of the join link, the link) beside the question, the controls and the
class's answers: a live count and the share map or bars while answers come in (a
fragment that runs every second), then the engine's answer over them with the share
right and the wrong answers named, then two votes side by side with the shift. Each
state fits a 1280x720 projector, in lecture mode or not."""

from __future__ import annotations

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from rooms import store
from teaching.class_mode.answers import (
    Bar,
    bars,
    count_sentence,
    paired_bars,
    right_sentence,
    share_legend,
    shift_lines,
    shift_sentence,
    vote_title,
    wrong_lines,
    wrong_picks,
)
from teaching.class_mode.lecturer import question_words
from ui.class_mode.lecturer import actions
from ui.class_mode.lecturer.live import RoundView, door, pulse, round_view, share_percents
from ui.class_mode.lecturer.state import STATE, adopt_layer
from ui.class_mode.lecturer.views import layer_maps, question_chooser, question_maps, results_button
from ui.class_mode.lecturer.views_join import door_panel, join_panel, join_panel_px, keys_button
from ui.figures import class_answers as room_figures
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

VOTES = {1: "first vote", 2: "second vote"}
GONE = ("gone",)  # drawn as: no room has the code (deleted, expired)
UNREACHABLE = ("unreachable",)  # drawn as: the database did not answer
# Below the room, Streamlit's 160 px of empty room goes in either mode (lecture mode's
# CSS does so already): the screen ends at its content, and 720 px hold it. Above it,
# a whole number of px at a desk: the QR code starts on a whole pixel. The row that
# never wraps would scroll what sticks out of it (a chart's last pixels): it shows
# them, as columns do.
ROOM_SCREEN_CSS = (
    '<style>[data-testid="stMain"] [data-testid="stMainBlockContainer"] '
    f"{{ padding-bottom: {LECTURE_BOTTOM_PX}px; }} "
    f".st-key-{STATE.room_row} {{ overflow: visible; }} "
    # The join panel keeps its width: shrunk by a wide answer column beside it, it
    # would centre the QR code on a fraction of a pixel and blur every module's edge.
    f".st-key-{STATE.join_column} {{ flex-shrink: 0; }} "
    # The room's first line sits in the header's band, in either mode: see-through,
    # and its controls take the clicks there.
    f"{HEADER_SEE_THROUGH_CSS}</style>"
)
DESK_TOP_CSS = (
    '<style>[data-testid="stMain"] [data-testid="stMainBlockContainer"] '
    f"{{ padding-top: {ROOM_DESK_TOP_PX}px; }}</style>"
)


def vote_name(vote: int) -> str:
    return VOTES.get(vote, f"vote {vote}")


def room_view(code: str, current) -> None:
    """The room screen: the join panel left; the question, the controls and the
    answers right."""
    # Every read before the first element: a read that fails then leaves nothing
    # drawn (a keyed row, say) that the page's sentence about the failure would
    # draw again.
    shown = round_view(code, current.round_number) if current.round_number else None
    first = first_vote(code, shown, state=current.state)
    locked = door(code).locked
    if shown is not None:
        adopt_layer(shown.question)
    st.html(ROOM_SCREEN_CSS if lecture_on() else ROOM_SCREEN_CSS + DESK_TOP_CSS)
    row = st.container(horizontal=True, gap="medium", wrap=False, key=STATE.room_row)
    left = row.container(width=join_panel_px(code), key=STATE.join_column)
    right = row.container()
    with left:
        join_panel(code)
        door_panel(code, locked)
        keys_button(code)
    with right:
        if st.session_state[STATE.choosing] or shown is None:
            browser.announce_change(ROOM_NEWS, CHOOSING, if_silent=True)
            new_question(code, can_cancel=shown is not None)
        else:
            row = question_header(shown, state=current.state)
            controls(row, code, shown, state=current.state)
            answers_view(code, shown, first, state=current.state)
    if current.state != "open" or shown is None or st.session_state[STATE.choosing]:
        watch(code, drawn_as(current))


def new_question(code: str, *, can_cancel: bool) -> None:
    layer = question_chooser()
    row = st.container(horizontal=True, gap="small")
    row.button("Ask", key=STATE.ask_button, type="primary", on_click=actions.ask, args=(code,))
    if can_cancel:
        row.button("Cancel", key=STATE.cancel_button, on_click=actions.choose, args=(False,))
    layer_maps(layer)


def question_header(shown: RoundView, *, state: str):
    """Which round and where its question is from, and the question; beside two votes
    only which round (the question was on screen for both), in the controls' row.
    Returns the row the controls go in."""
    found = shown.round
    if state == "revealed" and found.first_round is not None:
        row = st.container(horizontal=True, gap="small", vertical_alignment="center")
        row.markdown(f"**Round {found.number}**, {vote_name(found.vote)}", width="content")
        return row
    lead = f"**Round {found.number}**, {vote_name(found.vote)} · {shown.question.source}."
    st.markdown(f"{lead} {question_words(shown.question)}")
    return st.container(horizontal=True, gap="small")


def controls(row, code: str, shown: RoundView, *, state: str) -> None:
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
    if state in ("closed", "revealed") and shown.round.vote == 1:
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
    if shown.question.kind != "size":
        row.toggle("Maps", key=STATE.maps_on)  # x and dL/dy in the answers' place


def drawn_as(current) -> tuple:
    """What of the room's pulse the page was drawn for."""
    return current.round_number, current.state, current.ended


def first_vote(code: str, shown: RoundView | None, *, state: str) -> RoundView | None:
    """The first vote's round, read when a revealed second vote shows it beside."""
    if shown is None or state != "revealed" or shown.round.first_round is None:
        return None
    return round_view(code, shown.round.first_round)


ROOM_NEWS = "room_news"  # browser.announce_change's topic: the round's state, as drawn
CHOOSING = "Choose a question, then press Ask."  # the news while the chooser is drawn


def room_news(shown: RoundView, first: RoundView | None, *, state: str) -> str:
    """The round's state in one sentence: open for answers, the closed count, the
    share right once revealed, or the shift between two votes."""
    if state == "open":
        return f"Round {shown.round.number}, {vote_name(shown.round.vote)}: answers are open."
    if state == "closed":
        return count_sentence(shown.tally.count, state="closed")
    if first is not None:
        return shift_sentence(first.tally, shown.tally)
    return right_sentence(shown.tally)


def answers_view(code: str, shown: RoundView, first: RoundView | None, *, state: str) -> None:
    """`first`: the first vote's round beside a revealed second vote (None otherwise).
    The round's state is said when it changed since the last full run drew another
    (not on the page's first sight, and not again when a refusal was said between):
    a lecturer who cannot see the screen hears Ask, Close, Reveal and the shift."""
    browser.announce_change(ROOM_NEWS, room_news(shown, first, state=state), if_silent=True)
    if maps_on(shown):
        maps_instead(code, shown, state=state)
    elif state == "open":
        live_answers(code, (shown.round.number, state, False))
    elif first is not None:
        two_votes(first, shown)
    elif state == "revealed":
        revealed(shown)
    else:
        st.markdown(count_sentence(shown.tally.count, state="closed"))
        answers_chart(shown, revealed=False, key=STATE.fig_share)


def maps_on(shown: RoundView) -> bool:
    """The Maps toggle is on (a size question has none: dL/dy's shape is its answer)."""
    return shown.question.kind != "size" and bool(st.session_state.get(STATE.maps_on))


def maps_instead(code: str, shown: RoundView, *, state: str) -> None:
    """The question's x and dL/dy in the answers' column (a popover over the page
    would cover the QR code beside it); while answers come in, the page still
    follows the room (as `watch`)."""
    problem = shown.question.problem
    question_maps(
        problem.x, problem.grad_output, padding=problem.config.padding, mode=problem.config.mode
    )
    if state == "open":
        watch(code, (shown.round.number, state, False))


@st.fragment(run_every=1)
def live_answers(code: str, drawn: tuple) -> None:
    """Every second while answers come in: the count and the chart (small: the
    tally is worked out again only when the answers changed); the whole page again
    when the room moved on (as `watch`) or cannot be read (the page says why)."""
    shown = moved_on(code, drawn)  # the round it read: one read of it a tick
    # Said when it changes (a screen reader hears the class's new count); each round
    # and vote its own name: a new round's "No answers yet." is first sight, unsaid.
    with browser.says_changes(f"room_count_{shown.round.number}_{shown.round.vote}"):
        st.markdown(count_sentence(shown.tally.count, state="open"))
    answers_chart(shown, revealed=False, key=STATE.fig_share)


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
    now, shown = pulse_now(code)
    if now != drawn:
        st.rerun(scope="app")
    return shown


def pulse_now(code: str) -> tuple[tuple, RoundView | None]:
    """drawn_as of the room's pulse and its round read now (None: no round); GONE, or
    UNREACHABLE, and None when it cannot be read (or its round cannot: the page needs
    both, and a page drawn UNREACHABLE that reran on the pulse alone would rerun at
    once, again and again)."""
    try:
        current = pulse(code)
        shown = round_view(code, current.round_number) if current.round_number else None
    except store.NoSuchRoom:
        return GONE, None
    except (store.RoomError, SQLAlchemyError):
        return UNREACHABLE, None
    return drawn_as(current), shown


def answers_chart(
    shown: RoundView,
    *,
    revealed: bool,
    key: str,
    width_px: int = ROOM_MAP_PX,
    tall_px: int = ROOM_MAP_MOST_PX,
    title: str | None = None,
    paired: tuple[list[Bar], int] | None = None,
) -> None:
    """The share map (cells) or the bars (numbers) of one round; `paired`: the bars
    over both votes' answers and the count both axes reach."""
    question, counted = shown.question, shown.tally
    if question.picks_cells:
        figure = cached(
            room_figures.share_map,
            percents=share_percents(counted),
            title=title or "% of the class who picked each cell",
            answer_cells=tuple(sorted(question.answer)) if revealed else (),
            wrong_cells=wrong_picks(question, counted) if revealed else (),
            width_px=width_px,
            tall_px=tall_px,
        )
    else:
        found, most = paired or (bars(question, counted, revealed=revealed), None)
        if not found:  # no answers, and none revealed: the count says so
            return
        figure = cached(
            room_figures.answer_bars,
            labels=tuple(bar.label for bar in found),
            counts=tuple(bar.count for bar in found),
            right=tuple(bar.right for bar in found),
            title=title or "Answers given",
            width_px=width_px,
            most=most,
        )
    chart(figure, key=key)


def revealed(shown: RoundView) -> None:
    """The engine's answer over the class's answers; the share right; the wrong
    answers named."""
    rest = LECTURE_MAIN_PX - ROOM_JOIN_PX - ROOM_MAP_PX
    chart_place, words = st.columns([ROOM_MAP_PX, rest])
    with chart_place:
        answers_chart(shown, revealed=True, key=STATE.fig_share)
    with words, st.container(key=STATE.verdict_box):
        st.markdown(f"**{right_sentence(shown.tally)}**")
        if shown.question.picks_cells:
            st.caption(share_legend(shown.question, shown.tally))
        for line in wrong_lines(shown.question, shown.tally):
            st.markdown(f"- {line}")


def two_votes(first: RoundView, second: RoundView) -> None:
    """The first and the second vote side by side, the answer on both, the shift;
    bars of numbers over the same answers, on the same scale."""
    question = second.question
    pairs = [None, None]
    if not question.picks_cells:
        both = paired_bars(question, first.tally, second.tally, revealed=True)
        most = max(bar.count for vote in both for bar in vote)
        pairs = [(vote, most) for vote in both]
    left, right = st.columns(2)
    places = ((left, first, STATE.fig_first, pairs[0]), (right, second, STATE.fig_second, pairs[1]))
    for place, shown, key, paired in places:
        with place:
            answers_chart(
                shown,
                revealed=True,
                key=key,
                width_px=ROOM_PAIR_MAP_PX,
                tall_px=ROOM_PAIR_MOST_PX,
                title=vote_title(vote_name(shown.round.vote).capitalize(), question, shown.tally),
                paired=paired,
            )
    with st.container(key=STATE.verdict_box):
        st.markdown(f"**{shift_sentence(first.tally, second.tally)}**")
        for line in shift_lines(question, first.tally, second.tally):
            st.markdown(f"- {line}")
