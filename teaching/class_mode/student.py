"""What the students' page computes (pure: no Streamlit): a stored token checked, the
layer and the question in words true for the question on screen, an answer as the
page writes it, the reply once the answer is revealed, and whether the room's pulse
says the page must be drawn again. (A nickname is made plain by the store:
rooms/store_students.py.)

A question's `problem` is an Exercises problem (teaching/exercises/model.Problem: x (H, W),
grad_output shaped like y, the engine's answer), so the Exercises' replies and mistake
analysis apply to it unchanged.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from teaching.class_mode import codes
from teaching.class_mode.questions import Question
from teaching.class_mode.tally import wrong_answer
from teaching.exercises.model import Problem
from teaching.exercises.replies import (
    Reply,
    cells_reply,
    mistake_sentence,
    quantity,
    typed_reply,
    written_answer,
)
from teaching.exercises.text import batch_lead, window_question
from teaching.layer_words import layer_words, upstream_words
from teaching.numbers import fmt


def token_or_none(stored: object) -> str | None:
    """The token a browser kept, or None when what came back is not one (it is user
    input: any JSON at all; codes.valid_token says whether text is a token's shape)."""
    if codes.valid_token(stored):
        return stored
    return None


# -- the question in words ----------------------------------------------------------------


# Every phone in a process draws the same round's Problem (store.question_of parses a
# question once) once or twice a run, and its layer's words run the pooling twice
# (layer_words.ties_matter): 6 % of a phone's CPU at a round change, kept here.
# A Problem is hashed by identity (eq=False), so one is never taken for another.
@lru_cache(maxsize=64)
def question_text(problem: Problem, *, state: str = "open") -> str:
    """The question, as markdown (every part computed from the problem). What to do
    with the page (pick, take back, how many decimals) only while the round is open:
    once it closes, picks and typing no longer act. "Pick", not "tap": a cell is
    picked by a tap, a click or the keyboard (Enter on the grid's ringed cell)."""
    if problem.kind == "batch":
        return batch_question_text(problem, state=state)
    layer = f"Layer: {layer_words(problem.config, problem.x, kind=problem.kind)}."
    upstream = upstream_words(problem.grad_output)
    if problem.kind == "cells" and state == "open":
        return (
            f"{layer} {upstream} **Pick every cell of x that "
            "receives gradient.** Pick a cell again to take it back."
        )
    if problem.kind == "cells":
        return f"{layer} {upstream} **Which cells of x receive gradient?**"
    if problem.kind == "value":
        r, c = problem.cell
        ask = (
            f"{layer} The map dL/dy holds each window's upstream gradient. "
            f"**What is dL/dx at ({r}, {c})**, the cell outlined on x?"
        )
        return f"{ask} Two decimals are enough." if state == "open" else ask
    height, width = problem.x.shape
    return f"An input of {height} × {width} cells. {layer} **What is the output size?**"


def batch_question_text(problem: Problem, *, state: str) -> str:
    """A batch's window question (teaching/exercises/text.py's words), with what to do
    while the round is open."""
    if not state == "open":
        then = ""
    elif problem.picks_cells:
        then = "Pick a cell again to take it back."
    else:
        then = "Two decimals are enough."
    return f"{batch_lead(problem)} {window_question(problem, then=then)}"


def first_vote_text(problem: Problem, first_vote, *, state: str) -> str:
    """A second vote's reminder: discuss and vote again while it is open; after, only
    what this browser voted the first time (None: it did not vote)."""
    first = "you did not vote" if first_vote is None else answer_text(problem, first_vote)
    said = f"Your first vote: {first}."
    if state == "open":
        return f"Discuss with your neighbours, then vote again. {said}"
    return said


# -- answers ------------------------------------------------------------------------------


def cells_text(cells) -> str:
    """'(0, 1), (2, 2)' in reading order, or 'no cells'."""
    ordered = sorted(cells)
    return ", ".join(f"({r}, {c})" for r, c in ordered) if ordered else "no cells"


def answer_text(problem: Problem, answer) -> str:
    """A saved answer as the page writes it: cells, a number, or 'H × W'."""
    if problem.picks_cells:
        return cells_text(answer)
    return written_answer(problem, answer)


def box_text(problem: Problem, answer) -> tuple[str, ...]:
    """A saved answer as the answer boxes hold it (the number box; rows and columns)."""
    if problem.kind == "size":
        return str(answer[0]), str(answer[1])
    return (fmt(float(answer), 6).replace("−", "-"),)


def revealed_reply(question: Question, answer) -> Reply:
    """What the page says once the answer is revealed, about this student's answer
    (None: they gave none): the Exercises' reply, its mistake named as the projector
    names it (tally.wrong_answer: every known mistake that gives the answer, together;
    x = 1 2 2 with ties "first": "break ties by another rule (last, split evenly, or
    all)", not "last" alone)."""
    problem = question.problem
    if answer is None:
        if problem.picks_cells:
            count = len(problem.answer)
            cells = "the cell that receives" if count == 1 else f"the {count} cells that receive"
            plane = "x" if problem.kind == "cells" else "the positions map"
            return Reply(False, f"You did not answer. Framed on {plane}: {cells} gradient.")
        right = written_answer(problem, problem.answer)
        return Reply(False, f"You did not answer: {quantity(problem)} is {right}.")
    if problem.picks_cells:
        reply = cells_reply(problem, frozenset(answer))
    else:
        reply = typed_reply(problem, answer)
    named = None if reply.right else wrong_answer(question, answer)
    if named is None or named.mistake is None:
        return reply
    return replace(
        reply, mistake=mistake_sentence(problem, answer, how=named.how_all, truth=named.truth_all)
    )


# -- the pulse ----------------------------------------------------------------------------


def pulse_key(pulse) -> tuple | None:
    """What of a room's pulse the page is drawn from (round, state, vote, ended); None
    when there is no pulse (the room is gone)."""
    if pulse is None:
        return None
    return (pulse.round_number, pulse.state, pulse.vote, pulse.ended)


def must_redraw(seen: tuple | None, pulse) -> bool:
    """The page was drawn from pulse `seen`; does `pulse` call for drawing it again?"""
    return pulse_key(pulse) != seen
