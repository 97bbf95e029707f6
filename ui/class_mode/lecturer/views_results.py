"""The room's results on the lecturer's page (formatting and placing only): each
question asked, its first and second vote, the change between them, the wrong answers
named with their counts, and the whole as a CSV download. Read from the store on every
run (store.every_round), so a reload or another replica shows the same; worked out in
results.py."""

from __future__ import annotations

import streamlit as st

from rooms import store
from teaching.class_mode.lecturer import question_words
from teaching.class_mode.results import (
    QuestionResult,
    change_words,
    gain_words,
    results,
    results_csv,
    summary,
)
from teaching.class_mode.results import vote_words as said_vote
from ui.class_mode.database import engine
from ui.class_mode.lecturer import actions
from ui.class_mode.lecturer.state import STATE


def results_view(code: str) -> None:
    """The results of room `code` (RoomError when it is gone: the page says so)."""
    found = results(store.every_round(engine(), code))
    row = st.container(horizontal=True, gap="small", vertical_alignment="center")
    row.markdown(f"**Results of room {code}.** {summary(found)}", width="content")
    row.button(
        "Back to the room",
        key=STATE.back_button,
        icon=":material/arrow_back:",
        on_click=actions.show_results,
        args=(code, False),
    )
    if found:
        row.download_button(
            "Download as CSV",
            data=results_csv(found),
            file_name=f"room-{code}-results.csv",
            mime="text/csv",
            key=STATE.csv_button,
            icon=":material/download:",
            on_click="ignore",
        )
    for result in found:
        question_block(result)


def question_block(result: QuestionResult) -> None:
    """One question: what was asked, each vote, the change, the wrong answers."""
    rounds = f"round {result.first.round_number}"
    if result.second is not None:
        rounds = f"rounds {result.first.round_number} and {result.second.round_number}"
    lead = f"**Question {result.number}** ({rounds}) · {result.question.source}."
    st.markdown(f"{lead} {question_words(result.question)}")
    votes = f"First vote: {said_vote(result.first)}."
    if result.second is None:
        votes += " Not voted on a second time."
    else:
        votes += (
            f" Second vote: {said_vote(result.second)}. Change: {change_words(result)}; "
            f"normalized change {gain_words(result)}."
        )
    st.markdown(votes)
    for wrong in result.wrong:
        counts = f"{wrong.first}" if wrong.second is None else f"{wrong.first} → {wrong.second}"
        st.markdown(f"- {wrong.words[0].upper()}{wrong.words[1:]}: {counts}")
