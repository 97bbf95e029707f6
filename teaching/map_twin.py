"""A map's text twin: what a screen reader reads instead of a picture of numbers. Its
name (the map's title), one summary sentence read first (its shape, its smallest and
largest value, what is marked on it) and its cells as text with their marks in words
("winner", "in the current window"). Built from what a figure builder already holds;
ui/shared/twin.py puts it on the page. Pure: no Streamlit, no Plotly.

The twin travels inside its figure (layout.meta["twin"], `as_meta`), so the figure
cache keeps the two together and the chart wrapper needs nothing else to show it. A
chart the browser steps through frames (ui/shared/frames.js) gets its twins of every
frame too (`twin_frames`), so what a screen reader reads is the frame on screen; the
words of its sentences (TWIN_WORDS) go with them, so they are written here only."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from pooling.config import Cell
from teaching.numbers import fmt

WINNER = "winner"
IN_WINDOW = "in the current window"
PICKED = "picked"
# A checked answer's cells ("right pick", not "right": a verdict on the page begins
# "Right:", and the twin should not read as a second verdict).
RIGHT, MISSED, EXTRA = "right pick", "missed", "extra pick"
LISTED_CELLS = 4  # a mark on more cells than this is counted, not listed, in the summary

# The words of a twin's summary, cells and rows: their one home. MapTwin says them here,
# and they travel with its parts (`parts`) to the browser, which fills in the numbers of
# the frame it draws (ui/shared/frames.js, `fill`: each {name} replaced by its value).
# A pair is [one, many].
TWIN_WORDS = {
    "summary": "{name}: {rows} by {columns}{span}",
    "rows": ["{n} row", "{n} rows"],
    "columns": ["{n} column", "{n} columns"],
    "mark": "{word}: {where}",
    "between_parts": "; ",
    "end": ".",
    "block": "{rows}, {columns}",
    "block_rows": ["row {first}", "rows {first} to {last}"],
    "block_columns": ["column {first}", "columns {first} to {last}"],
    "cell": "row {row}, column {column}",
    "between_cells": " and ",
    "many": "{n} cells, marked in the table",
    "padding": ["{n} padding cell", "{n} padding cells"],
    "with_padding": "{cells} and {padding}",
    "cell_words": ", ",
    "row_name": "row {row}",
    "column_name": "column {column}",
    "listed": LISTED_CELLS,
    # What a gradient map's cells receive (`receivers`), said after its marks.
    "gets": "{cells} gets {value}",
    "gets_each": "{cells} get {value} each",
    "gets_many": "{n} cells get a nonzero gradient, the largest in size {largest}",
    "gets_at": "{value} at {cells}",
    "gets_rest": "every other cell gets 0",
    "cells": "{n} cells",
}


def _said(words: str | list[str], number: int) -> str:
    """A [one, many] pair's form for `number`, filled in ("1 row", "4 rows")."""
    return words[0 if number == 1 else 1].format(n=number)


@dataclass(frozen=True)
class MapTwin:
    """One map as text. cells: (H, W) the numbers as the map says them (strings);
    low, high: its smallest and largest finite value (None when it has none);
    marks: {words: the marked cells (row, col)}, in the order the summary says them.
    Marked cells outside the grid (a window reaching into the padding) are kept: the
    summary says so; the table marks only the cells it has. headers: the rows' and the
    columns' names where they are not "row r" and "column c" (a matrix's "y0,1").
    about: the summary a builder writes itself (a curve's: `curve_twin`), said instead
    of the map's shape, range and marks."""

    name: str
    cells: tuple[tuple[str, ...], ...]
    low: float | None
    high: float | None
    marks: dict[str, tuple[Cell, ...]] = field(default_factory=dict)
    headers: tuple[tuple[str, ...], tuple[str, ...]] | None = None  # (rows', columns')
    about: str | None = None
    gets: str | None = None  # what its cells receive, in words (`receivers`)

    def row_header(self, row: int) -> str:
        return self.headers[0][row] if self.headers else TWIN_WORDS["row_name"].format(row=row)

    def column_header(self, col: int) -> str:
        if self.headers:
            return self.headers[1][col]
        return TWIN_WORDS["column_name"].format(column=col)

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.cells), len(self.cells[0]) if self.cells else 0

    def cell_text(self, row: int, col: int) -> str:
        """The cell's number, then its marks in words: "5, winner, in the current window"."""
        words = [word for word, marked in self.marks.items() if (row, col) in marked]
        return TWIN_WORDS["cell_words"].join([self.cells[row][col], *words])

    def cell_texts(self) -> list[str]:
        """Every cell's `cell_text`, in reading order: each mark's cells looked up once
        (a 16x16 map over 196 frames asked 150,000 cells)."""
        words: dict[Cell, list[str]] = {}
        for word, marked in self.marks.items():
            for cell in dict.fromkeys(marked):  # a cell listed twice is said once
                words.setdefault(cell, []).append(word)
        return [
            TWIN_WORDS["cell_words"].join([text, *words[(row, col)]])
            if (row, col) in words
            else text
            for row, numbers in enumerate(self.cells)
            for col, text in enumerate(numbers)
        ]

    def summary(self) -> str:
        """One sentence: "x: 4 rows by 4 columns, from 0 to 6; in the current window:
        rows 0 to 1, columns 0 to 1; winner: row 0, column 1." (or `about`)"""
        if self.about is not None:
            return self.about
        rows, cols = self.shape
        words = TWIN_WORDS
        parts = [
            words["summary"].format(
                name=self.name,
                rows=_said(words["rows"], rows),
                columns=_said(words["columns"], cols),
                span=self.span(),
            )
        ]
        parts += [
            words["mark"].format(word=word, where=_where(marked, self.shape))
            for word, marked in self.marks.items()
        ]
        parts += [self.gets] if self.gets else []
        return words["between_parts"].join(parts) + words["end"]

    def span(self) -> str:
        """What the summary says of the values: ", from −4 to 3", ", every value 3", or
        "" for a map with no finite value."""
        if self.low is None or self.high is None:
            return ""
        if self.low == self.high:
            return f", every value {fmt(self.low)}"
        return f", from {fmt(self.low)} to {fmt(self.high)}"

    def parts(self) -> dict:
        """What the summary and the cells' texts are made of, as twin_frames sends them:
        {"name", "span", "about", "gets", "headers": [rows', columns'] or None, "shape": [H, W],
        "cells": the numbers in reading order, "marks": [[words, flat [r, c, ...]], ...]
        in the summary's order, "words": TWIN_WORDS, the sentences they go into}."""
        return {
            "words": TWIN_WORDS,
            "name": self.name,
            "span": self.span(),
            "about": self.about,
            "gets": self.gets,
            "headers": None if self.headers is None else [list(names) for names in self.headers],
            "shape": list(self.shape),
            "cells": [text for row in self.cells for text in row],
            "marks": [
                [word, [i for cell in cells for i in cell]] for word, cells in self.marks.items()
            ],
        }

    def marked(self, marks: dict[str, tuple[Cell, ...]]) -> MapTwin:
        """The same map with `marks` said too (those marking no cell left out)."""
        more = {word: tuple(cells) for word, cells in marks.items() if tuple(cells)}
        return replace(self, marks={**self.marks, **more})

    def as_meta(self) -> dict:
        """JSON-able, for a figure's layout.meta (from_meta reads it back)."""
        return {
            "name": self.name,
            "cells": [list(row) for row in self.cells],
            "low": self.low,
            "high": self.high,
            "marks": [[word, [list(cell) for cell in cells]] for word, cells in self.marks.items()],
            "headers": None if self.headers is None else [list(names) for names in self.headers],
            "about": self.about,
        } | ({"gets": self.gets} if self.gets else {})  # only a map sent into x has it

    @classmethod
    def from_meta(cls, meta: dict) -> MapTwin:
        return cls(
            name=str(meta["name"]),
            cells=tuple(tuple(str(text) for text in row) for row in meta["cells"]),
            low=meta["low"],
            high=meta["high"],
            marks={
                word: tuple((int(r), int(c)) for r, c in cells) for word, cells in meta["marks"]
            },
            headers=None if meta.get("headers") is None else tuple(map(tuple, meta["headers"])),
            about=meta.get("about"),
            gets=meta.get("gets"),
        )


def twins_in_meta(meta) -> list[MapTwin]:
    """The twins a figure's builder left in its layout.meta (`as_meta`): none where
    the meta holds none (a figure without twins, or no meta at all)."""
    found = meta.get("twin") if isinstance(meta, dict) else None
    return [MapTwin.from_meta(twin) for twin in found or ()]


def map_twin(
    name: str,
    values: np.ndarray,
    *,
    cells: np.ndarray,
    marks: dict[str, Iterable[Cell]],
    receiving: bool = False,
) -> MapTwin:
    """The twin of a map of `values` (H, W), whose cells read `cells` (H, W) strings;
    marks: {words: cells}, those marking no cell left out; receiving: a gradient sent
    into x, whose summary names the cells it reaches (`receivers`)."""
    finite = np.asarray(values, dtype=np.float64)
    finite = finite[np.isfinite(finite)]
    return MapTwin(
        name=name,
        cells=tuple(tuple(str(text) for text in row) for row in np.asarray(cells, dtype=object)),
        low=float(finite.min()) if finite.size else None,
        high=float(finite.max()) if finite.size else None,
        marks={word: tuple(cells) for word, cells in marks.items() if tuple(cells)},
        gets=receivers(values) if receiving else None,
    )


def receivers(values: np.ndarray) -> str | None:
    """The cells of a gradient map (H, W) that receive a nonzero gradient, in words, so
    a listener need not read every cell: each amount with its cells ("row 2, column 2
    gets 1", "rows 0 to 1, columns 0 to 1 get 0.25 each") where few cells or one amount;
    else their count and the largest in size; then "every other cell gets 0" where any
    cell gets 0. None where every cell gets one amount, 0 or not (the span says
    "every value ..." then)."""
    values = np.asarray(values, dtype=np.float64)
    nonzero = [(int(r), int(c)) for r, c in np.argwhere(values != 0)]
    if not nonzero or np.all(values == values.flat[0]):
        return None
    by_value: dict[float, list[Cell]] = {}
    for cell in nonzero:
        by_value.setdefault(float(values[cell]), []).append(cell)
    # The largest in size first; of two as large, the positive one.
    amounts = sorted(by_value, key=lambda value: (-abs(value), -value))
    words = TWIN_WORDS
    if len(nonzero) <= LISTED_CELLS or len(amounts) == 1:
        said = [_gets(by_value[value], value) for value in amounts]
    else:
        largest = [value for value in amounts if abs(value) == abs(amounts[0])]
        at = TWIN_WORDS["between_cells"].join(
            words["gets_at"].format(value=fmt(value), cells=_cells_said(by_value[value]))
            for value in largest
        )
        said = [words["gets_many"].format(n=len(nonzero), largest=at)]
    if len(nonzero) < values.size:
        said.append(words["gets_rest"])
    return words["between_parts"].join(said)


def _gets(cells: list[Cell], value: float) -> str:
    """ "row 2, column 2 gets 1"; "rows 0 to 1, columns 0 to 1 get 0.25 each"."""
    template = TWIN_WORDS["gets"] if len(cells) == 1 else TWIN_WORDS["gets_each"]
    return template.format(cells=_cells_said(cells), value=fmt(value))


def _cells_said(cells: list[Cell]) -> str:
    """Cells as a block, one by one (a few) or counted (many): never "marked"."""
    if len(cells) > LISTED_CELLS:
        return _block(cells) or TWIN_WORDS["cells"].format(n=len(cells))
    return _block(cells) or _listed(cells)


# What twin_frames sends of each frame (the shape never changes).
PARTS = ("name", "span", "about", "gets", "headers", "marks", "cells")


def twin_frames(frames: Sequence[Sequence[MapTwin]], *, sent: Sequence[str] = PARTS) -> dict:
    """One chart's twins over F frames, for the browser to write into the twins on the
    page as it draws each frame (ui/shared/frames.js, which says them as `summary` and
    `cell_text` do, in the TWIN_WORDS each twin's parts carry). JSON-able. frames: F
    lists of the chart's twins, as many in each and each of one shape over the frames.
    Returns {"start": frame 0's twins, each as `parts` gives it, "changes": per frame,
    [twin, what, value] for each part that is not the frame before's: `what` is "name",
    "span", "about", "gets", "headers", "marks" or a cell's flat index (its number); none for
    frame 0}.
    The parts and not the sentences: a window moving over a 16x16 map changes a few of
    them a frame, where every sentence changes (196 frames' sentences were 130 kB).
    sent: the parts whose changes are sent (the others the browser has from the
    frame's own data: a step map's window and numbers)."""
    parts_by_frame = [[twin.parts() for twin in twins] for twins in frames]
    if not parts_by_frame:
        return {"start": [], "changes": []}
    if any(len(twins) != len(parts_by_frame[0]) for twins in parts_by_frame):
        raise ValueError("every frame of a chart has as many maps")
    changes = []
    previous = parts_by_frame[:1] + parts_by_frame[:-1]
    for before, now in zip(previous, parts_by_frame, strict=True):
        changes.append(
            [
                [index, what, value]
                for index, (old, new) in enumerate(zip(before, now, strict=True))
                for what, value in _changed(old, new)
                if what in sent or (isinstance(what, int) and "cells" in sent)
            ]
        )
    return {"start": parts_by_frame[0], "changes": changes}


def _changed(old: dict, new: dict) -> list[tuple[str | int, object]]:
    if old["shape"] != new["shape"]:
        raise ValueError("a map keeps its shape over the frames")
    parts = [(what, new[what]) for what in PARTS[:-1] if new[what] != old[what]]
    cells = [
        (i, text)
        for i, (was, text) in enumerate(zip(old["cells"], new["cells"], strict=True))
        if was != text
    ]
    return parts + cells


CURRENT = "current point"  # a curve's point now (its marker)


def curve_twin(
    name: str,
    *,
    xs: Sequence[int | str],
    ys: np.ndarray,
    titles: tuple[str, str],
    current: int | None = None,
) -> MapTwin:
    """A line chart's twin: a row per point, headed by its x ("step 3"), holding its y;
    titles: (the x axis's, the y axis's); current: the index of the point marked now.
    Its summary: "Loss: 4 points, step 0 to 3; loss from 0.2 to 1.5; current point:
    step 3, loss 0.2." ys: (N,)."""
    ys = np.asarray(ys, dtype=np.float64)
    x_title, y_title = titles
    finite = ys[np.isfinite(ys)]
    twin = MapTwin(
        name=name,
        cells=tuple((fmt(y),) for y in ys),
        low=float(finite.min()) if finite.size else None,
        high=float(finite.max()) if finite.size else None,
        marks={} if current is None else {CURRENT: ((current, 0),)},
        headers=(tuple(f"{x_title} {x}" for x in xs), (y_title,)),
    )
    rows = twin.headers[0]
    about = _curve_about(
        name,
        titles=titles,
        xs=[str(x) for x in xs],
        span=(twin.low, twin.high),
        current=None if current is None else (rows[current], twin.cells[current][0]),
    )
    return replace(twin, about=about)


def curve_abouts(
    name: str, *, xs: Sequence[int], ys: np.ndarray, titles: tuple[str, str], grow: bool
) -> list[str]:
    """The summary of curve_twin(..., current=t) at each frame t of a curve whose
    frames mark point t and, where it grows, show its first t + 1 points: each number
    written once and the running extremes carried, where a twin a frame wrote every
    point at every frame (200 steps took 32 ms). ys: (N,)."""
    ys = np.asarray(ys, dtype=np.float64)
    x_title, y_title = titles
    cells = [fmt(y) for y in ys]
    finite = np.where(np.isfinite(ys), ys, np.nan)
    if grow:  # fmin and fmax pass over NaN: the extremes of the finite points so far
        lows, highs = np.fmin.accumulate(finite), np.fmax.accumulate(finite)
    else:
        lows = np.full(len(ys), np.nanmin(finite) if np.isfinite(finite).any() else np.nan)
        highs = np.full(len(ys), np.nanmax(finite) if np.isfinite(finite).any() else np.nan)
    labels = [str(x) for x in xs]
    abouts = []
    for frame in range(len(ys)):
        shown = frame + 1 if grow else len(ys)
        low, high = lows[frame], highs[frame]
        abouts.append(
            _curve_about(
                name,
                titles=titles,
                xs=labels[:shown],
                span=(None, None) if np.isnan(low) else (float(low), float(high)),
                current=(f"{x_title} {labels[frame]}", cells[frame]),
            )
        )
    return abouts


def _curve_about(
    name: str,
    *,
    titles: tuple[str, str],
    xs: list[str],
    span: tuple[float | None, float | None],
    current: tuple[str, str] | None,
) -> str:
    """ "Loss: 4 points, step 0 to 3; loss from 0.2 to 1.5; current point: step 3,
    loss 0.2." xs: the points' x labels; span: (low, high) of the finite ys, or Nones;
    current: (the marked point's row name, its y as written), or None."""
    x_title, y_title = titles
    said = [f"{name}: {_count(len(xs), 'point')}"]
    if xs:
        said[0] += f", {x_title} {xs[0]}" + (f" to {xs[-1]}" if len(xs) > 1 else "")
    low, high = span
    if low is not None and high is not None:
        said.append(_curve_span(y_title, low, high, points=len(xs)))
    if current is not None:
        said.append(f"{CURRENT}: {current[0]}, {y_title} {current[1]}")
    return "; ".join(said) + "."


def max_curve_twin(name: str, *, a: float, b: float, span: float) -> MapTwin:
    """The twin of y = max(a, b) drawn as a moves over b − span to b + span, b held:
    its corner and ends as a table (a's now marked), and what the curve shows."""
    points = sorted({b - span, b, b + span, a})
    twin = curve_twin(
        name,
        xs=[fmt(x) for x in points],
        ys=np.maximum(points, b),
        titles=("a =", "y"),
        current=points.index(a),
    )
    about = (
        f"{name}: y stays at {fmt(b)} while a is less than {fmt(b)} (slope 0: a loses), then "
        f"rises with a (slope 1: a wins); a is now {fmt(a)}, so y is {fmt(max(a, b))}."
    )
    return replace(twin, about=about)


def _curve_span(y_title: str, low: float, high: float, *, points: int) -> str:
    """ "loss from 0.2 to 1.5"; "loss 1.5" for one point, "… at every point" for more."""
    if low != high:
        return f"{y_title} from {fmt(low)} to {fmt(high)}"
    return f"{y_title} {fmt(low)}" + (" at every point" if points > 1 else "")


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _where(cells: tuple[Cell, ...], shape: tuple[int, int]) -> str:
    """Where cells lie, in words: a block as its rows and columns, a few cells one by
    one, many as a count; cells outside the grid (padding) said apart; a cell listed
    twice said once (as cell_texts marks it)."""
    cells = tuple(dict.fromkeys(cells))
    inside = [(r, c) for r, c in cells if 0 <= r < shape[0] and 0 <= c < shape[1]]
    outside = len(cells) - len(inside)
    said = _block(inside) or _listed(inside)
    if outside:
        padding = _said(TWIN_WORDS["padding"], outside)
        said = TWIN_WORDS["with_padding"].format(cells=said, padding=padding) if inside else padding
    return said


def _block(cells: list[Cell]) -> str | None:
    """ "rows 0 to 1, columns 2 to 3" when cells fill that block exactly (more than one)."""
    if len(cells) < 2:
        return None
    rows = sorted({r for r, _ in cells})
    cols = sorted({c for _, c in cells})
    full = len(set(cells)) == len(rows) * len(cols)
    if not full or rows != list(range(rows[0], rows[-1] + 1)):
        return None
    if cols != list(range(cols[0], cols[-1] + 1)):
        return None
    return TWIN_WORDS["block"].format(
        rows=_span(rows, TWIN_WORDS["block_rows"]), columns=_span(cols, TWIN_WORDS["block_columns"])
    )


def _span(numbers: list[int], words: list[str]) -> str:
    """A run of numbers in words: "row 2" or "rows 0 to 1"."""
    return words[0 if len(numbers) == 1 else 1].format(first=numbers[0], last=numbers[-1])


def _listed(cells: list[Cell]) -> str:
    if len(cells) > LISTED_CELLS:
        return TWIN_WORDS["many"].format(n=len(cells))
    return TWIN_WORDS["between_cells"].join(
        TWIN_WORDS["cell"].format(row=r, column=c) for r, c in sorted(cells)
    )
