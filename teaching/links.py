"""Share links: every setting of a page lives in the URL's query string.

A page declares its fields once (`Field`): session-state key, URL name, default and how
to read and write the value. `restore` reads the URL into session state on the first run
of a session, falling back to the default with a short notice for any value that is
missing its mark; `publish` writes the current values back on every run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

MAX_GRID = 16
MAX_VALUE = 1e6  # grid values beyond this overflow sums and crowd the cells
SEED_MAX = 10**6  # every seed a page draws from, typed or in a link: 0 to this


@dataclass(frozen=True)
class Field:
    key: str  # st.session_state key of the widget or value
    url: str  # name in the query string
    default: Any
    parse: Callable[[str], Any]  # raises ValueError with a short reason
    write: Callable[[Any], str] = str


def int_in(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise ValueError("not a whole number") from None
        if not low <= value <= high:
            raise ValueError(f"must be from {low} to {high}")
        return value

    return parse


def one_of(options) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in options:
            raise ValueError(f"must be one of {', '.join(options)}")
        return text

    return parse


def flag(text: str) -> bool:
    if text not in ("0", "1"):
        raise ValueError("must be 0 or 1")
    return text == "1"


def write_flag(value: bool) -> str:
    return "1" if value else "0"


def parse_grid(text: str) -> np.ndarray:
    """'1,3;2,0.5' -> [[1, 3], [2, 0.5]]: rows split by ';', cells by ','. Spaces
    around a value are allowed. A ValueError says what is wrong and where (never
    quoting the text: the page shows the user's text in its own box)."""
    rows = [row.split(",") for row in text.split(";")]
    if not 1 <= len(rows) <= MAX_GRID:
        raise ValueError(f"has {len(rows)} rows; it must have 1 to {MAX_GRID}")
    if not 1 <= len(rows[0]) <= MAX_GRID:
        raise ValueError(f"row 0 has {len(rows[0])} values; a row must have 1 to {MAX_GRID}")
    for number, row in enumerate(rows):
        if len(row) != len(rows[0]):
            raise ValueError(
                f"row {number} has {_values(len(row))} and row 0 has {_values(len(rows[0]))}: "
                "rows must all have the same length"
            )
    grid = np.empty((len(rows), len(rows[0])))
    for (row, col), cell in np.ndenumerate(np.array(rows, dtype=object)):
        try:
            grid[row, col] = float(cell)
        except ValueError:
            what = "is empty" if not cell.strip() else "holds something that is not a number"
            raise ValueError(f"row {row}, column {col} {what}") from None
    check_values(grid)
    return grid


def _values(count: int) -> str:
    return f"{count} value" + ("" if count == 1 else "s")


def check_values(grid: np.ndarray) -> None:
    """ValueError naming the first cell that is not a number in ±MAX_VALUE."""
    for (row, col), value in np.ndenumerate(grid):
        if not np.isfinite(value):
            raise ValueError(
                f"Row {row}, column {col} is empty or not a number: type a number there."
            )
        if abs(value) > MAX_VALUE:
            raise ValueError(
                f"Row {row}, column {col} holds {value:g}; values must be between "
                f"−{MAX_VALUE:g} and {MAX_VALUE:g}."
            )


def write_grid(grid: np.ndarray) -> str:
    return ";".join(",".join(f"{value:.6g}" for value in row) for row in np.asarray(grid))


def label_in(labels: dict[str, str]) -> tuple[Callable[[str], str], Callable[[str], str]]:
    """Parse and write functions for a choice kept in the link by a short name
    (`labels`: name -> on-screen label), such as the open tab."""
    names = {label: name for name, label in labels.items()}

    def parse(text: str) -> str:
        if text not in labels:
            raise ValueError(f"must be one of {', '.join(labels)}")
        return labels[text]

    return parse, names.__getitem__


def parse_cell(text: str) -> tuple[int, int]:
    parts = text.split(",")
    try:
        row, col = (int(part) for part in parts)
    except ValueError:
        raise ValueError("must be two whole numbers, 'row,col'") from None
    if row < 0 or col < 0:
        raise ValueError("must not be negative")
    return row, col


def write_cell(cell: tuple[int, int]) -> str:
    return f"{cell[0]},{cell[1]}"


@dataclass(frozen=True)
class Notice:
    """A link value that could not be used. `given` is the visitor's text, kept apart
    from the sentence so that it is never rendered as markdown."""

    name: str  # the URL name
    given: str  # what the link held (cut short where it is shown: state.literal)
    reason: str  # why it was refused ("must be from 1 to 8")
    fallback: str  # what is used instead


def restore(fields: list[Field], query: dict, state) -> list[Notice]:
    """Put each field's URL value (or default) into `state`; return a notice for each
    value that could not be used."""
    notices = []
    for field in fields:
        text = query.get(field.url)
        value = field.default
        if text is not None:
            try:
                value = field.parse(text)
            except ValueError as error:
                notices.append(Notice(field.url, text, str(error), field.write(field.default)))
        state[field.key] = value
    return notices


def snapshot(fields: list[Field], state) -> dict[str, str]:
    """The query string that restores the current values."""
    return {field.url: field.write(state[field.key]) for field in fields if field.key in state}
