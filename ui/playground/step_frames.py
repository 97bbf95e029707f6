"""The step-through's frames, one per window, computed once per input (pure): what each
window changes on the maps (x's outline and winners, the running dL/dx, y's current
cell), its sentence and its line of running totals. The browser plays them
(ui/shared/frame_player.py); the step maps' figures are built from the same `StepMaps`, so
the figure the server sends and every frame the browser draws on it read alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from teaching.playground import text
from teaching.playground.model import LayerStory
from ui.figures.frame_data import MapFrames, map_frames_data
from ui.figures.style import HALF_PX

POINTER_TITLE = "y: point at a cell to follow"


@dataclass(frozen=True)
class StepMaps:
    """The step-through's three maps over every window: x with the window, the running
    dL/dx, and y with its current cell (pointing at one of its cells follows it)."""

    x: MapFrames
    gx: MapFrames
    y: MapFrames


def step_maps(story: LayerStory, *, width_px: int = HALF_PX) -> StepMaps:
    """The maps of every window in reading order. width_px: the step maps' column."""
    cells = [story.out_cell(step) for step in range(story.windows)]
    mode_max = story.config.mode == "max"
    marks = tuple(story.receivers(cell) if mode_max else () for cell in cells)
    x = MapFrames(
        titles=tuple(f"x: the window of {text.cell_name('y', cell)}" for cell in cells),
        shape=story.x.shape,
        windows=tuple(story.window_cells(cell) for cell in cells),
        marks=marks if mode_max else None,
        static_values=story.x,
        padding=story.config.padding,
        pad_label=story.pad_label,
        width_px=width_px,
    )
    gx = MapFrames(
        titles=tuple(
            f"dL/dx after {step + 1} of {story.windows} windows" for step in range(story.windows)
        ),
        shape=story.x.shape,
        windows=tuple(story.window_cells(cell, real_only=True) for cell in cells),
        marks=marks if mode_max else None,
        values=story.running_totals,
        kind="gradient",
        receiving=True,
        width_px=width_px,
    )
    y = MapFrames(
        titles=(POINTER_TITLE,) * story.windows,
        shape=story.output_shape,
        windows=tuple((cell,) for cell in cells),
        static_values=story.output,
    )
    return StepMaps(x=x, gx=gx, y=y)


def step_words(story: LayerStory) -> list[dict]:
    """Each window's sentence (markdown: **bold** only) and line of running totals;
    "aside": 1 where the line only sums up what the map shows (several cells sent one
    amount), which a projector's narrow column leaves out."""
    words = []
    for step in range(story.windows):
        said = {
            "sentence": text.step_sentence(story, story.out_cell(step)),
            "line": text.running_line(story, step),
        }
        if text.sums_up(story, step):
            said["aside"] = 1
        words.append(said)
    return words


def frames_data(story: LayerStory, maps: StepMaps, *, keys: dict[str, str], lecture: bool) -> dict:
    """Everything the browser plays (JSON-able): per map (keys: "x", "gx", "y" -> the
    chart's element key; a map without a key is not on screen) its frames, and the
    words. A cell (row, col) of y is window row * columns + col."""
    charts = [
        map_frames_data(getattr(maps, name), key=key, lecture=lecture) for name, key in keys.items()
    ]
    return {
        "count": story.windows,
        "charts": charts,
        "words": step_words(story),
        "pointer": {"key": keys["y"], "columns": story.output_shape[1]} if "y" in keys else None,
    }
