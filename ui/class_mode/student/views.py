"""The students' page views (formatting and placing only): the join form, the room's
header, the question with its maps, the answer form, and the reply once the answer is
revealed. Phone first: one column, maps stacked (st.columns stack on a phone); the
map to tap is wide enough for a finger per cell.
"""

from __future__ import annotations

import streamlit as st

from rooms.store import ANSWER_TEXT_LENGTH, CODE_TEXT_LENGTH, NICKNAME_LENGTH, PhoneView
from teaching.class_mode.student import (
    answer_text,
    box_text,
    first_vote_text,
    question_text,
    revealed_reply,
)
from teaching.exercises.answers import check_cells
from teaching.exercises.model import Problem
from teaching.exercises.replies import marks_legend
from teaching.words import pad_label
from ui.class_mode.student import actions
from ui.class_mode.student.state import STATE, Notice, fill_boxes, refusal, take_notices
from ui.figures import grid as grids
from ui.figures.style import ANSWER_MAP_PX, JOINED_TOP_PX, PHONE_PAIR_MAP_PX
from ui.shared import browser
from ui.shared.batch_question import batch_mosaics
from ui.shared.chart import cached, chart
from ui.shared.state import literal
from ui.shared.styles import css, style_element
from ui.shared.tappable import tappable_x

ICONS = {"error": ":material/error:", "warning": ":material/warning:", "info": ":material/info:"}
HIDDEN_CSS = style_element(css(__package__, "poll_hidden.css", poll=STATE.poll))
# Joined, the page starts with the room's line instead of a title (JOINED_TOP_PX).
JOINED_CSS = style_element(css(__package__, "joined.css", top_px=JOINED_TOP_PX))


ENDED = "The lecturer has ended this room. Thank you for taking part!"
WAITING = "You are in. The lecturer's question appears here as soon as it is asked."
CLOSED = "Voting has closed: wait for the lecturer."
ROUND_NEWS = "room_round"  # browser.announce_change's topic: the round as the page draws it


def notices_view(notices: list[Notice] | None = None) -> None:
    """The notices, in a box drawn on every run even when empty: a notice that comes or
    goes must not shift the widgets below it, or the browser draws them anew and loses
    what is being typed into them (a size's second box, say). Said too: what else the
    run says (what a sending got, the round's news) gives way to them."""
    shown = take_notices() if notices is None else notices
    with st.container(key=STATE.notices_box), browser.quiet_alerts("notices"):
        for notice in shown:
            getattr(st, notice.kind)(notice.text, icon=ICONS[notice.kind])
    if shown:
        browser.announce(" ".join(notice.text for notice in shown))


def waiting_for_browser() -> None:
    st.caption("Opening… (this page keeps your answers under a random token in this browser)")


def join_form(token: str) -> None:
    """The code and an optional nickname; Join (Enter in either box joins too)."""
    st.text_input(
        "Room code",
        key=STATE.join_code,
        max_chars=CODE_TEXT_LENGTH,
        # Not a made-up code (one would be read as a real one); no help stop that
        # says the same as this.
        placeholder="6 letters or digits, as on the projector",
    )
    st.text_input(
        "Nickname (optional)",
        key=STATE.join_nickname,
        max_chars=NICKNAME_LENGTH,
        help=f"Plain text, at most {NICKNAME_LENGTH} characters. You can stay anonymous.",
    )
    browser.enter_presses([STATE.join_code, STATE.join_nickname], STATE.join_button)
    st.button(
        "Join",
        key=STATE.join_button,
        type="primary",
        icon=":material/login:",
        on_click=actions.join_pressed,
        args=(token,),
    )


def room_header(code: str, nickname: str) -> None:
    """The room's one line, in place of the page's title and intro (a phone's screen
    is the question's), clear of Streamlit's header band."""
    st.html(JOINED_CSS)
    row = st.container(horizontal=True, gap="small", vertical_alignment="center")
    named = f" as {literal(nickname)}" if nickname else ""
    row.markdown(f"Room **{code}**{named}", width="stretch")
    row.button("Leave", key=STATE.leave, icon=":material/logout:", on_click=actions.leave)


def room_view(now: PhoneView, *, token: str) -> None:
    """The room as it stands; what changed since the last run drew it is said (a new
    question, voting closed, the verdict, the end), after what this run's sending got."""
    pulse = now.pulse
    if pulse.ended:
        with browser.quiet_alerts("ended"):  # said by announce_change
            st.info(ENDED, icon=":material/done_all:")
        browser.announce_change(ROUND_NEWS, ENDED, if_silent=True)
        return
    if pulse.state == "waiting":
        with browser.quiet_alerts("waiting"):
            st.info(WAITING, icon=":material/hourglass_top:")
        browser.announce_change(ROUND_NEWS, WAITING, if_silent=True)
        return
    room_round, problem = now.round, now.round.question.problem
    sent = st.session_state.pop(STATE.sent, None) == room_round.number
    vote = (
        f" · vote again on round {room_round.first_round}'s question" if room_round.vote > 1 else ""
    )
    heading = f"**Round {room_round.number}**{vote}"
    st.markdown(heading)  # one line: the question is the screen's
    news = f"{heading}. {question_text(problem, state='open')}"
    if room_round.state == "revealed":  # the verdict first: on a phone, above the fold
        # Said by announce_change below (or read by the focus): a quiet alert.
        with st.container(key=STATE.verdict_box), browser.quiet_alerts("verdict"):
            news = verdict_view(room_round.question, now.mine)
        # The reveal took away the grid that had the focus: on to the verdict.
        browser.focus_on(STATE.verdict_box, if_lost=True)
    status_line(room_round.state, now)
    with st.container(key=STATE.question_box):
        st.markdown(question_text(problem, state=room_round.state))
    typed = room_round.state == "open" and not problem.picks_cells
    # A batch's mosaics are taller than a phone's screen: its box comes first.
    box_first = typed and problem.kind == "batch"
    if box_first:
        typed_form(problem, room_round.number, now.mine, token=token)
        answer_state(problem, now, sent=sent)
    maps(problem, now, token=token)
    if typed and not box_first:
        typed_form(problem, room_round.number, now.mine, token=token)
    if not box_first:
        answer_state(problem, now, sent=sent)
    if room_round.state == "closed":
        news = CLOSED
    browser.announce_change(ROUND_NEWS, news, if_silent=True)


def answer_state(problem: Problem, now: PhoneView, *, sent: bool) -> None:
    """Under the answer: once revealed, what the marks mean; else what is saved (and,
    after a sending, why it was refused, said aloud)."""
    room_round = now.round
    if room_round.state == "revealed":
        legend_view(problem, now.mine)
        return
    refused = refusal(room_round.number) if room_round.state == "open" else None
    said = saved_line(problem, room_round.state, now.mine, refused=refused is not None)
    if sent:  # what the sending got: why not (under the boxes), then what is saved
        browser.announce(" ".join((*(refused.texts if refused else ()), said)), if_silent=True)


def status_line(state: str, now: PhoneView) -> None:
    """Where the round is; in a second vote, what this browser voted the first time."""
    problem = now.round.question.problem
    if now.round.vote > 1:
        st.caption(first_vote_text(problem, now.first_vote, state=state))
    if state == "closed":
        with browser.quiet_alerts("closed"):  # said by room_view's announce_change
            st.warning(CLOSED, icon=":material/lock:")


def saved_line(problem: Problem, state: str, mine, *, refused: bool = False) -> str:
    """What the store holds for this browser; after a refused sending, that the box's
    text is not it. Returns the line."""
    if refused:
        kept = "nothing" if mine is None else answer_text(problem, mine)
        said = f"Saved: {kept}; the text in the box was not sent."
    elif mine is None:
        said = "No answer saved yet." if state == "open" else "You did not answer."
    else:
        said = f"Your answer: {answer_text(problem, mine)} (saved)."
    if state == "open":
        said += " You can change it until voting closes."
    st.caption(said)
    return said


def maps(problem: Problem, now: PhoneView, *, token: str) -> None:
    """x (to tap, for cells), and dL/dy beside it for a value."""
    if problem.kind == "size":
        return
    config = problem.config
    overlay = grids.Overlay(padding=config.padding, pad_label=pad_label(config.mode))
    if problem.kind == "batch":
        # The window's cells: every dL_n/dy is 1 to 3, so only x_n decides; on a
        # phone its mosaic alone keeps the positions map near the question.
        batch_mosaics(
            problem.x,
            None if problem.picks_cells else problem.grad_output,
            (st.container(), st.container()),
            keys=STATE.fig_batch,
            width_px=None,
        )
    if problem.picks_cells:
        pick_map(problem, now, overlay=overlay, token=token)
    if problem.kind in ("cells", "batch"):
        return
    overlay = grids.Overlay(
        window=(problem.cell,), padding=overlay.padding, pad_label=overlay.pad_label
    )
    # Side by side on a phone too (wrap=False): stacked, the two maps would push the
    # answer's box below the fold.
    left, right = st.columns(2, wrap=False)
    with left:
        pair_map(problem.x, title="x", overlay=overlay, key=STATE.fig_x)
    with right:
        pair_map(problem.grad_output, title="dL/dy", kind="gradient", key=STATE.fig_gy)


def pair_map(values, *, title: str, key: str, kind: str = "value", overlay=None) -> None:
    """A map to read in half a phone's column: x (H, W) or dL/dy (OH, OW)."""
    overlay = overlay or grids.Overlay()
    figure = cached(
        grids.grid_figure,
        values=values,
        title=title,
        options=grids.GridOptions(kind=kind, overlay=overlay, width_px=PHONE_PAIR_MAP_PX),
    )
    chart(figure, key=key)


def pick_map(problem: Problem, now: PhoneView, *, overlay, token: str) -> None:
    room_round = now.round
    tappable = room_round.state == "open"
    mine = frozenset(now.mine or ())
    checked = room_round.state == "revealed"
    if not tappable:
        tappable_x(
            problem, mine, checked=checked, overlay=overlay, width_px=ANSWER_MAP_PX, key=STATE.fig_x
        )
        return
    number, clicks = room_round.number, st.session_state[STATE.clicks]
    st.session_state[STATE.pick_drawn] = (number, clicks)  # the next run finishes its tap
    tappable_x(
        problem,
        mine,
        checked=checked,
        overlay=overlay,
        width_px=ANSWER_MAP_PX,
        key=STATE.pick_chart(number, clicks),
        on_select=lambda: actions.tapped(number, clicks, token),
    )


def typed_form(problem: Problem, round_number: int, mine, *, token: str) -> None:
    """The number box, or the two size boxes, and Send (Enter sends too)."""
    texts = () if mine is None else box_text(problem, mine)
    if problem.kind == "size":
        keys = (STATE.rows, STATE.cols)
        fill_boxes(round_number, texts, keys)
        left, right = st.columns(2)
        left.text_input("Output height", key=STATE.rows, max_chars=ANSWER_TEXT_LENGTH)
        right.text_input("Output width", key=STATE.cols, max_chars=ANSWER_TEXT_LENGTH)
        on_send = actions.send_size
    else:
        keys = (STATE.number,)
        fill_boxes(round_number, texts, keys)
        st.text_input(
            "Your answer", key=STATE.number, placeholder="2.5 or 7/3", max_chars=ANSWER_TEXT_LENGTH
        )
        on_send = actions.send_number
    refusal_view(round_number)
    browser.enter_presses(list(keys), STATE.send)
    st.button(
        "Send",
        key=STATE.send,
        type="primary",
        icon=":material/send:",
        on_click=on_send,
        args=(round_number, token),
    )


def refusal_view(round_number: int) -> None:
    """Under the boxes, in a box drawn on every run (the boxes above keep their place
    either way): why the last sending was not saved."""
    # Said with what the sending got (room_view's announce): a quiet alert.
    with st.container(key=STATE.refusal_box), browser.quiet_alerts("refusal"):
        said = refusal(round_number)
        if said is not None:
            getattr(st, said.kind)(" ".join(said.texts), icon=ICONS[said.kind])


def verdict_view(question, mine) -> str:
    """The answer revealed: one sentence about this browser's answer, with the known
    mistakes it comes from (named together, as the projector names them). Returns it."""
    reply = revealed_reply(question, mine)
    if reply.right:
        st.success(reply.said, icon=":material/check_circle:")
        return reply.said
    said = f"{reply.said} {reply.mistake}".strip()
    st.error(said, icon=":material/cancel:")
    return said


def legend_view(problem: Problem, mine) -> None:
    """Under x (or a batch window's positions), once revealed: what each mark on it
    means (cells only)."""
    if problem.picks_cells:
        plane = "x" if problem.kind == "cells" else "the positions map"
        legend = marks_legend(check_cells(problem, frozenset(mine or ())), plane=plane)
        if legend:
            st.caption(legend)
