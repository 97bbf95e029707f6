"""What of the Exercises page outlives a reload (pure: no Streamlit): for each problem,
the first try's result (the score), the last answer checked, the cells clicked and the
text typed; to and from the JSON the browser keeps (ui.shared.browser).

What comes back was written by a browser, so it is user input: each entry is checked
against the problem it names, and one that does not fit is dropped, never shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pooling.config import Cell
from teaching.exercises.model import KINDS, LEVELS, SET_SIZE, Kind, make_problem
from teaching.links import SEED_MAX

ProblemId = tuple[Kind, int, int, int]  # kind, level, seed, number
MAX_PROBLEMS = 200  # the most recent problems kept; a class set has SET_SIZE
MAX_TEXT = 200  # characters of one typed or checked answer


def typed_fields(kind: Kind) -> tuple[str, ...]:
    """The text inputs of a problem of `kind`: height and width, or one answer."""
    return ("rows", "cols") if kind == "size" else ("typed",)


@dataclass
class Work:
    """A learner's work, by problem. first: right at the first try; checked: (the
    answer as checked, right); chosen: the cells clicked; typed: {field: text}."""

    first: dict[ProblemId, bool] = field(default_factory=dict)
    checked: dict[ProblemId, tuple[str, bool]] = field(default_factory=dict)
    chosen: dict[ProblemId, frozenset[Cell]] = field(default_factory=dict)
    typed: dict[ProblemId, dict[str, str]] = field(default_factory=dict)

    def problems(self) -> list[ProblemId]:
        """Every problem worked on, each once, in the order first met."""
        seen = dict.fromkeys([*self.first, *self.checked, *self.chosen, *self.typed])
        return list(seen)


def problem_name(pid: ProblemId) -> str:
    return "_".join(map(str, pid))


def problem_of(name: object) -> ProblemId | None:
    """The problem a stored name stands for, or None when it names none."""
    if not isinstance(name, str) or name.count("_") != 3:
        return None
    kind, *numbers = name.split("_")
    if kind not in KINDS or not all(part.isdigit() and part.isascii() for part in numbers):
        return None
    level, seed, number = map(int, numbers)
    pid = (kind, level, seed, number)
    fits = level in LEVELS and 0 <= seed <= SEED_MAX and 1 <= number <= SET_SIZE
    return pid if fits and problem_name(pid) == name else None


def to_stored(work: Work) -> dict:
    """The work as JSON-able data, the most recent MAX_PROBLEMS problems."""
    stored = {}
    for pid in work.problems()[-MAX_PROBLEMS:]:
        entry = {}
        if pid in work.first:
            entry["first"] = work.first[pid]
        if pid in work.checked:
            entry["checked"] = list(work.checked[pid])
        if work.chosen.get(pid):
            entry["chosen"] = sorted(list(cell) for cell in work.chosen[pid])
        if work.typed.get(pid):
            entry["typed"] = dict(work.typed[pid])
        stored[problem_name(pid)] = entry
    return {"problems": stored}


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and len(value) <= MAX_TEXT else None


def _cells(value: object, pid: ProblemId) -> frozenset[Cell] | None:
    """Clicked cells, each inside the problem's x, or None."""
    if pid[0] != "cells" or not isinstance(value, list):
        return None
    rows, cols = make_problem(*pid).x.shape
    cells = set()
    for cell in value:
        if not (isinstance(cell, list) and len(cell) == 2):
            return None
        row, col = cell
        if not all(type(n) is int for n in cell) or not (0 <= row < rows and 0 <= col < cols):
            return None
        cells.add((row, col))
    return frozenset(cells)


def _read_entry(work: Work, pid: ProblemId, entry: dict) -> None:
    """One problem's stored parts into `work`, each part only when it fits."""
    if type(entry.get("first")) is bool:
        work.first[pid] = entry["first"]
    checked = entry.get("checked")
    if isinstance(checked, list) and len(checked) == 2 and type(checked[1]) is bool:
        if (given := _text(checked[0])) is not None:
            work.checked[pid] = (given, checked[1])
    if (cells := _cells(entry.get("chosen"), pid)) is not None:
        work.chosen[pid] = cells
    typed = entry.get("typed")
    if isinstance(typed, dict):
        texts = {name: _text(typed.get(name)) for name in typed_fields(pid[0])}
        if texts := {name: text for name, text in texts.items() if text}:
            work.typed[pid] = texts


def from_stored(stored: object) -> Work:
    """The work in `stored` (as the browser gave it back); what does not fit is left
    out, and anything that is not this page's data gives no work at all."""
    work = Work()
    problems = stored.get("problems") if isinstance(stored, dict) else None
    if not isinstance(problems, dict):
        return work
    for name, entry in list(problems.items())[-MAX_PROBLEMS:]:
        pid = problem_of(name)
        if pid is not None and isinstance(entry, dict):
            _read_entry(work, pid, entry)
    return work


def merged(current: Work, stored: Work) -> Work:
    """The stored work with this session's on top: what the learner did here wins."""
    return Work(
        first={**stored.first, **current.first},
        checked={**stored.checked, **current.checked},
        chosen={**stored.chosen, **current.chosen},
        typed={**stored.typed, **current.typed},
    )
