"""What a map changes from one frame to the next, for the browser to draw without the
server (ui/shared/frame_player.py plays the frames on the map's own Plotly chart).

A frame changes a map's title, the cells it outlines, the cells it marks and, where
its numbers move (a running dL/dx), the cells whose number changed: nothing else, so
that 225 windows of a 16x16 grid fit in a few tens of kB. The map's figure is built
by grid.grid_figure with `fit_over` (every frame's numbers fitted at once) and
`title_lines`, both from here, so a frame the browser draws is the figure the server
would have built for it: the same labels, font, power of ten and marks. Its text twin
(teaching/map_twin) follows: a map's frame sends only the twin's name, the span of
its values and, on a dL/dx, the cells receiving a gradient (the browser says the
window, the winners and the numbers from the frame's own); a chart of whole traces
sends its twins' changed parts, numbers too unless its cells trace holds them; a
curve sends every point once and each frame's summary.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
from plotly.io.json import to_json_plotly

from pooling.config import Cell
from teaching.map_twin import (
    CURRENT,
    IN_WINDOW,
    WINNER,
    MapTwin,
    curve_abouts,
    curve_twin,
    map_twin,
    twin_frames,
    twins_in_meta,
)
from teaching.numbers import power_of_ten
from ui.figures import curves, layouts, sizes, style
from ui.figures.grid import MapNumbers, cell_and_widest, map_numbers
from ui.figures.marks import marks_traces

SIGNIFICANT = 6  # a colour needs no more digits than this


@dataclass(frozen=True)
class MapFrames:
    """One map over F frames. titles: (F,) (before a power of ten is added); windows:
    F tuples of the cells outlined, or None; marks: F tuples of the cells marked, or
    None; values: (F, H, W), the map's numbers in each frame, or None where they stay.
    shape: (H, W) of the map; padding: its padding (rows, cols); kind, pad_label,
    width_px, decimals: as grid.grid_figure takes them."""

    titles: tuple[str, ...]
    shape: tuple[int, int]
    windows: tuple[tuple[Cell, ...], ...] | None = None
    marks: tuple[tuple[Cell, ...], ...] | None = None
    values: np.ndarray | None = None
    kind: str = "value"
    padding: tuple[int, int] = (0, 0)
    pad_label: str = ""
    width_px: int = style.HALF_PX
    decimals: int = 3
    static_values: np.ndarray | None = None  # (H, W): the numbers when they stay
    receiving: bool = False  # a gradient sent into x: as grid.GridOptions.receiving

    def layout_px(self, lecture: bool) -> float:
        return self.width_px / layouts.lecture_scale(lecture)

    def column_cell(self, lecture: bool) -> int:
        """The cell grid_figure's column gives this map, padding in (sizes.cell_px)."""
        rows = self.shape[0] + 2 * self.padding[0]
        cols = self.shape[1] + 2 * self.padding[1]
        return sizes.cell_px(rows, cols, self.layout_px(lecture))

    def numbers(self, *, lecture: bool) -> MapNumbers:
        """How grid_figure writes this map's numbers, over every frame."""
        fitted = self.values if self.values is not None else self.static_values
        return map_numbers(
            np.asarray(fitted, dtype=np.float64),
            kind=self.kind,
            cell_px=self.column_cell(lecture),
            decimals=self.decimals,
            lecture=lecture,
            also=(self.pad_label,) if any(self.padding) else (),
        )

    def wrapped_titles(
        self, *, lecture: bool, numbers: MapNumbers | None = None
    ) -> tuple[list[str], int]:
        """Each frame's title as its figure writes it, and the most lines any takes.
        numbers: self.numbers(lecture=lecture) where the caller has them already (their
        fit over every frame is most of the time this takes)."""
        exponent = (numbers or self.numbers(lecture=lecture)).exponent
        suffix = f" (×{power_of_ten(exponent)})" if exponent else ""
        wrapped = [layouts.wrapped_title(t + suffix, self.layout_px(lecture)) for t in self.titles]
        most = max(lines for _, lines in wrapped)
        return [layouts.padded_title(text, lines, most)[0] for text, lines in wrapped], most


def significant(value: float) -> float | None:
    """A colour value for JSON: a few digits, None where it is not finite."""
    return float(f"{value:.{SIGNIFICANT}g}") if np.isfinite(value) else None


def _flat_cells(cells) -> list[int]:
    return [int(v) for cell in cells for v in cell]


def _mark_paths(cells_px: float, widest_px: float) -> dict[str, list[list[float] | None]]:
    """What each marks trace draws for one cell, by trace name: its points [dx, dy]
    from the cell's centre, None where its line breaks (marks.marks_traces: a star's
    one point in the corner, a frame's square along the edges)."""
    probe = marks_traces([(0, 0)], cells_px, label_px=widest_px)
    return {
        trace["name"]: [
            None if x is None else [float(x), float(y)]
            for x, y in zip(trace["x"], trace["y"], strict=True)
        ]
        for trace in probe
    }


def _cell_changes(frames: MapFrames, numbers: MapNumbers, hovers: np.ndarray) -> dict:
    """The numbers before the first frame (zeros: nothing sent yet) and, per frame,
    [flat index, colour value, label, hover] of each cell that changed. hovers:
    (F, H, W), what the hover says of each frame's numbers."""
    values = np.asarray(frames.values, dtype=np.float64)
    before = np.zeros(frames.shape)
    labels = numbers.labels(values)
    changes = []
    previous = before
    for index, current in enumerate(values):
        moved = np.flatnonzero((current != previous).ravel())
        flat_labels, flat_hovers = labels[index].ravel(), hovers[index].ravel()
        changes.append(
            [[int(i), significant(current.flat[i]), flat_labels[i], flat_hovers[i]] for i in moved]
        )
        previous = current
    return {
        "columns": int(frames.shape[1]),
        "start": {
            "z": [significant(v) for v in before.ravel()],
            "text": list(numbers.labels(before).ravel()),
            "hover": list(numbers.hover(before).ravel()),
        },
        "changes": changes,
    }


def _map_twins(frames: MapFrames, hovers: np.ndarray) -> dict:
    """The map's text twin in every frame (teaching/map_twin.twin_frames), as
    grid.grid_figure makes it for that frame: named by the title before its power of
    ten, its cells the hover's numbers, the window and the winners in words. hovers:
    (F, H, W), what the hover says of each frame's numbers. Only the names and the
    spans of values are sent per frame: the browser takes the window, the winners and
    the numbers from the frame's outline, marks and cells (`taken`: the words of each)."""
    values = _per_frame(frames, lambda numbers: numbers)
    twins = []
    for index, title in enumerate(frames.titles):
        marks = {
            IN_WINDOW: frames.windows[index] if frames.windows is not None else (),
            WINNER: frames.marks[index] if frames.marks is not None else (),
        }
        twin = map_twin(
            title, values[index], cells=hovers[index], marks=marks, receiving=frames.receiving
        )
        twins.append([twin])
    taken = {"outline": IN_WINDOW, "marks": WINNER, "cells": frames.values is not None}
    return {**twin_frames(twins, sent=("name", "span", "gets")), "taken": taken}


def _per_frame(frames: MapFrames, make) -> np.ndarray:
    """(F, H, W): make(values) of each frame's numbers; for numbers that stay, made
    once and shared by every frame (a 16x16 map's 196 frames wrote them 196 times)."""
    if frames.values is not None:
        return make(np.asarray(frames.values, dtype=np.float64))
    static = make(np.asarray(frames.static_values, dtype=np.float64))
    return np.broadcast_to(static, (len(frames.titles), *static.shape))


def map_frames_data(frames: MapFrames, *, key: str, lecture: bool) -> dict:
    """What the browser needs to draw `frames` on the chart keyed `key` (JSON-able):
    titles, outlined and marked cells as flat [row, col, ...] lists, the changed
    numbers of the cells trace (named after the map's kind) and what the text twin
    needs besides (`_map_twins`)."""
    numbers = frames.numbers(lecture=lecture)
    titles, _ = frames.wrapped_titles(lecture=lecture, numbers=numbers)
    hovers = _per_frame(frames, numbers.hover)
    data: dict = {
        "key": key,
        "titles": titles if len(set(titles)) > 1 else None,
        "twins": _map_twins(frames, hovers),
    }
    if frames.windows is not None:
        data["outline"] = {
            "names": ["window halo", "window"],
            "cells": [_flat_cells(cells) for cells in frames.windows],
        }
    if frames.marks is not None:
        pad_label = frames.pad_label if any(frames.padding) else None
        cell, widest = cell_and_widest(numbers.fit, frames.column_cell(lecture), pad_label)
        data["marks"] = {
            "paths": _mark_paths(cell, widest),
            "cells": [_flat_cells(cells) for cells in frames.marks],
        }
    if frames.values is not None:
        data["cells"] = {"trace": frames.kind, **_cell_changes(frames, numbers, hovers)}
    return data


def line_frames_data(
    y_values,
    *,
    key: str,
    trace: str,
    now: str | None,
    grow: bool,
    titles: tuple[str, str],
    first_x: int = 0,
) -> dict:
    """A curve (curves.line_figure's) over frames: frame t marks point t and, where the
    curve grows with the frames (grow), draws it up to t. y_values: (F,); the x ticks
    step as line_figure steps them for a curve of t + 1 points. titles: the chart's
    title and its x axis's (its y axis's is `trace`), for its text twin."""
    ys = [significant(value) for value in np.asarray(y_values, dtype=np.float64)]
    xs = [first_x + index for index in range(len(ys))]
    line = {"trace": trace, "x": xs, "y": ys, "now": now, "grow": grow}
    if grow:
        line["dticks"] = [curves.x_dtick(points) for points in range(1, len(ys) + 1)]
    return {
        "key": key,
        "titles": None,
        "line": line,
        "twins": _curve_twins(y_values, xs, trace=trace, titles=titles, grow=grow),
    }


def _curve_twins(
    y_values, xs: list[int], *, trace: str, titles: tuple[str, str], grow: bool
) -> dict:
    """The curve's text twin over the frames, as line_figure makes it at each: every
    point's row once ("curve"; frame t of a growing curve has the first t + 1), the
    point marked at frame t, and each frame's summary ("abouts")."""
    name, x_title = titles
    said = (x_title, trace)
    whole = curve_twin(name, xs=xs, ys=y_values, titles=said)
    abouts = curve_abouts(name, xs=xs, ys=y_values, titles=said, grow=grow)
    return {"curve": whole.parts(), "abouts": abouts, "grow": grow, "mark": CURRENT}


def traces_frames_data(
    figures, *, key: str, names: tuple[str, ...], marked: list[tuple[Cell, ...]] | None = None
) -> dict:
    """The traces `names` of one figure per frame (the server's own figures, so what
    the browser draws is what it would have sent), as per-frame attributes: only the
    attributes that differ between frames (a trace only some frames have: whole, or
    hidden). figures: F go.Figures of one builder, laid
    out alike (a frame changes traces and the title, never the layout: fit their
    numbers over every frame). marked: F tuples of the cells each frame's marks sit on;
    a trace that draws one same path on each of them in every frame (a winner's
    square, its halo) is sent as those cells and the path (`marks`, as map_frames_data
    sends them), not as its points: a tenth of the size."""
    specs = [figure.to_dict() for figure in figures]  # one copy each (200 frames: no more)
    # The title and the text twin (layout.meta: the frame's numbers) may differ.
    layouts_seen = {
        to_json_plotly({**spec["layout"], "title": None, "meta": None}) for spec in specs
    }
    if len(layouts_seen) > 1:
        raise ValueError("the frames of one chart must share its layout but for the title")
    per_frame = [
        {trace["name"]: trace for trace in json.loads(to_json_plotly(spec["data"]))}
        for spec in specs
    ]
    changed: dict[str, list[dict]] = {}
    for name in names:
        if any(name not in frame for frame in per_frame):
            # A trace some frames lack (marks where a map has none): whole where it is, so
            # the browser can add it to a figure drawn without it; hidden where it is not.
            changed[name] = [
                {**frame[name], "visible": True} if name in frame else {"visible": False}
                for frame in per_frame
            ]
            continue
        first = per_frame[0][name]
        moving = [a for a in first if any(frame[name].get(a) != first[a] for frame in per_frame)]
        if moving:
            changed[name] = [{a: frame[name].get(a) for a in moving} for frame in per_frame]
    titles = [figure.layout.title.text for figure in figures]
    data = {"key": key, "titles": titles if len(set(titles)) > 1 else None, "traces": changed}
    paths = _paths_on_cells(per_frame, changed, marked) if marked is not None else {}
    if paths:
        data["traces"] = {name: frames for name, frames in changed.items() if name not in paths}
        data["marks"] = {"paths": paths, "cells": [_flat_cells(cells) for cells in marked]}
    twins = [twins_in_meta(spec["layout"].get("meta")) for spec in specs]
    if any(twins):
        data["twins"] = _traced_twins(twins, per_frame, changed)
    return data


def _paths_on_cells(
    per_frame: list[dict], changed: dict, marked: list[tuple[Cell, ...]]
) -> dict[str, list[list[float] | None]]:
    """Trace name -> its path [dx, dy] from a cell's centre (None where the line
    breaks), for each changed trace whose x and y in every frame are that path moved
    onto each of the frame's `marked` cells, as the browser rebuilds them (frames.js:
    col + dx, row + dy, the same doubles). None of them unless all frames have marks."""
    if not all(marked) or len(marked) != len(per_frame):
        return {}
    paths = {}
    for name in changed:
        first = per_frame[0].get(name)
        if first is None or set(changed[name][0]) - {"x", "y"}:
            continue
        path = _path_of(first, marked[0])
        moved = all(
            name in frame and _moved_path(path, cells) == (frame[name]["x"], frame[name]["y"])
            for frame, cells in zip(per_frame, marked, strict=True)
        )
        if path is not None and moved:
            paths[name] = path
    return paths


def _path_of(trace: dict, cells: tuple[Cell, ...]) -> list[list[float] | None] | None:
    """The path a trace draws on each of `cells`, taken from the first: None where the
    trace's points are not the same number on each cell."""
    xs, ys = trace.get("x"), trace.get("y")
    if not isinstance(xs, list) or not isinstance(ys, list) or len(xs) % len(cells):
        return None
    row, col = cells[0]
    each = len(xs) // len(cells)
    return [
        None if x is None or y is None else [x - col, y - row]
        for x, y in zip(xs[:each], ys[:each], strict=True)
    ]


def _moved_path(path, cells) -> tuple[list, list] | None:
    if path is None:
        return None
    xs = [None if p is None else col + p[0] for _, col in cells for p in path]
    ys = [None if p is None else row + p[1] for row, _ in cells for p in path]
    return xs, ys


def _traced_twins(twins: list[list[MapTwin]], per_frame: list[dict], changed: dict) -> dict:
    """twin_frames of a chart's twins in each frame; a lone map whose numbers are its
    cells trace's hover (customdata) in every frame sends none of them: the browser
    takes them from that trace's frames (`taken`), which the chart sends already."""
    lone = all(len(found) == 1 for found in twins)
    for name in changed if lone else ():
        every = all(
            name in frame and _flat(frame[name].get("customdata")) == _flat(found[0].cells)
            for frame, found in zip(per_frame, twins, strict=True)
        )
        if every and "customdata" in changed[name][0]:
            sent = ("name", "span", "marks", "gets")
            return {**twin_frames(twins, sent=sent), "taken": {"trace": name}}
    return twin_frames(twins)


def _flat(rows) -> list | None:
    return None if rows is None else [text for row in rows for text in row]
