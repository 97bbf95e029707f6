"""The exercises page's reply views (formatting and placing only): the reply to an
answer checked, with the known mistake it comes from, the explanation of the right
answer, the legend of the marks on x, and the score."""

from __future__ import annotations

import streamlit as st

from teaching.exercises.answers import Verdict, check_cells, checked_value
from teaching.exercises.model import Problem
from teaching.exercises.replies import Reply, cells_reply, marks_legend, typed_reply
from teaching.exercises.text import explanation
from ui.exercises.state import STATE, ProblemId, chosen_cells
from ui.shared import browser, formula
from ui.shared.lecture import lecture_on


def checked_reply(problem: Problem, pid: ProblemId) -> Reply | None:
    """The reply to the answer checked for `pid`, or None before a check."""
    checked = STATE.checked_answer(pid)
    if checked is None:
        return None
    text, right = checked
    if problem.picks_cells:
        return cells_reply(problem, chosen_cells(pid))
    given = checked_value(problem, text)
    if given is None:  # kept by a browser in a form that no longer reads: the result alone
        return Reply(right, "Right." if right else "Not quite.")
    return typed_reply(problem, given)


def reply_view(problem: Problem, pid: ProblemId) -> None:
    """What was given against the answer, and the mistake it comes from."""
    reply = checked_reply(problem, pid)
    if reply is None:
        return
    said = reply.said if reply.right else f"{reply.said} {reply.mistake}".strip()
    browser.announce(said)  # said by the page's live region, once: the alert is quiet
    with browser.quiet_alerts("exercise_verdict"):
        if reply.right:
            st.success(said, icon=":material/check_circle:")
        else:
            st.error(said, icon=":material/cancel:")


def explanation_view(problem: Problem, pid: ProblemId) -> None:
    """After a wrong answer: why the right one is right (a ledger, the size formula or
    the batch's sums). On a projector a batch window's waits under "Why?": its positions
    map, reply and legend fill the screen (a known mistake's reply took it past 720 px)."""
    reply = checked_reply(problem, pid)
    if reply is None or reply.right:
        return
    verdict = check_cells(problem, chosen_cells(pid)) if problem.picks_cells else Verdict(False)
    lead, formulas = explanation(problem, verdict)
    folded = lecture_on() and problem.kind == "batch" and problem.picks_cells
    with st.expander("Why?", key=STATE.why) if folded else st.container():
        if lead:
            st.markdown(lead)
        for line in formulas:
            formula.latex(line)  # with its spoken form


def legend_view(problem: Problem, pid: ProblemId) -> None:
    """Under x, once picks are checked: what each mark means, with its count."""
    if not problem.picks_cells or STATE.checked_answer(pid) is None:
        return
    plane = "x" if problem.kind == "cells" else "the positions map"
    legend = marks_legend(check_cells(problem, chosen_cells(pid)), plane=plane)
    if legend:
        st.caption(legend)


def score_view() -> None:
    """The first tries' score (where it is kept is said outside lecture mode)."""
    first = STATE.first_tries()
    if first:
        kept = "" if lecture_on() else " (kept in this browser, not in the link)"
        st.caption(
            f"Score: {sum(first.values())} right at the first try, of {len(first)} "
            f"problem{'s' * (len(first) != 1)} checked{kept}."
        )
