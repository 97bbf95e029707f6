"""What of the Lesson outlives a reload (pure: no Streamlit): the choice first made at
each step answered (the score) and the steps whose answer was shown, to and from the
JSON the browser keeps (ui.shared.browser).

What comes back was written by a browser, so it is user input: a step that is not a
lesson step, or a choice that step does not have, is dropped.
"""

from __future__ import annotations

from collections.abc import Sequence

from teaching.lesson.model import Step


def to_stored(answers: dict[int, int], shown: set[int]) -> dict:
    """answers: {step number: choice index}; shown: step numbers revealed unanswered."""
    return {
        "answers": {str(number): choice for number, choice in sorted(answers.items())},
        "shown": sorted(shown),
    }


def _step_number(value: object, count: int) -> int | None:
    """A step number 1..count, given as a whole number or its digits ("3")."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 3:
        value = int(value)
    return value if type(value) is int and 1 <= value <= count else None


def from_stored(stored: object, steps: Sequence[Step]) -> tuple[dict[int, int], set[int]]:
    """(answers, shown) from `stored`, keeping only what fits the lesson's `steps`."""
    answers: dict[int, int] = {}
    shown: set[int] = set()
    if not isinstance(stored, dict):
        return answers, shown
    given = stored.get("answers")
    for key, choice in given.items() if isinstance(given, dict) else ():
        number = _step_number(key, len(steps))
        if number is not None and type(choice) is int:
            if 0 <= choice < len(steps[number - 1].choices):
                answers[number] = choice
    listed = stored.get("shown")
    for value in listed[: len(steps)] if isinstance(listed, list) else ():
        if (number := _step_number(value, len(steps))) is not None:
            shown.add(number)
    return answers, shown
