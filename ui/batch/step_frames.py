"""The Batch page's step-through, one frame per example added to the batch (pure: no
Streamlit): every map the tab draws, built once per input for every example, and what
the browser plays (ui/shared/frame_player.py) taken from those very figures, so a frame the
browser draws is the figure the server would have sent for that example.

The maps: the example's image; the routing map it sends back (its winners starred for
max pooling); the running mean (or sum) of the routing maps so far, on the routing
maps' colour scale; the running mean (or sum) of dL/dK. A curve of the positions the
batch has reached keeps its shape; its marker moves with the example.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from teaching.batch.step_words import step_sentence
from teaching.batch.story import BatchStory
from ui.figures import grid as grids
from ui.figures import style
from ui.figures.frame_data import MapFrames, line_frames_data, significant, traces_frames_data
from ui.figures.look import Look, styled

REACHED_TITLE = "Positions that received any gradient"
REACHED_X = "examples in the batch so far"  # the curve's x axis
REACHED_Y = "positions"  # the curve trace's name (line_figure names it after its y title)


@dataclass(frozen=True)
class StepLayout:
    """How wide each map is drawn, and whether its titles name the example's label:
    the desk's 2x2 grid, or the projector's two screens."""

    image_px: int
    routed_px: int
    kernel_px: int
    labelled: bool  # the routed map's title names the label (its image is elsewhere)
    lecture: bool


DESK = StepLayout(
    image_px=style.HALF_PX,
    routed_px=style.HALF_PX,
    kernel_px=style.HALF_PX,
    labelled=False,
    lecture=False,
)
PROJECTOR = StepLayout(
    image_px=style.CORNER_PX,
    routed_px=style.ROUTING_MAP_PX,
    kernel_px=style.KERNEL_MAP_PX,
    labelled=True,
    lecture=True,
)
MAPS = ("image", "routed", "mean", "kernel")
# Examples a step-through plays at once: a batch of 128 sent every frame at once took
# 800 kB; a block of 50 stays far under the page's 500 kB.
STEP_BLOCK = 50


def step_blocks(size: int) -> list[tuple[int, int]]:
    """(first, past the last) example of each block of STEP_BLOCK of a batch of `size`."""
    return [(start, min(start + STEP_BLOCK, size)) for start in range(0, size, STEP_BLOCK)]


def block_of(example: int, size: int) -> tuple[int, int]:
    """The block that holds `example`."""
    return step_blocks(size)[example // STEP_BLOCK]


def block_words(block: tuple[int, int]) -> str:
    """A block as its picker says it: the examples' names, as their maps' titles are."""
    return f"#{block[0]}–#{block[1] - 1}"


def _title_lines(titles: list[str], values, *, kind: str, width_px: int, lecture: bool) -> int:
    """The most lines any of `titles` wraps to in a map `width_px` wide, its power of ten
    (fitted over every frame's values, (F, H, W)) said in it."""
    frames = MapFrames(
        titles=tuple(titles),
        shape=values.shape[1:],
        values=values,
        kind=kind,
        decimals=2,
        width_px=width_px,
    )
    return frames.wrapped_titles(lecture=lecture)[1]


def map_titles(story: BatchStory, layout: StepLayout) -> dict[str, list[str]]:
    """Each map's title for each example (before a power of ten is added)."""
    examples = range(story.size)
    routes = [
        f"#{e} “{story.labels[e]}” routes" if layout.labelled else f"#{e} routes" for e in examples
    ]
    return {
        "image": [f"#{e}: “{story.labels[e]}”" for e in examples],
        "routed": routes,
        "mean": [f"{story.reduction} of #0…#{e}" for e in examples],
        "kernel": [f"{story.reduction} dL/dK, #0…#{e}" for e in examples],
    }


def step_map_figures(
    story: BatchStory,
    feature: int,
    *,
    layout: StepLayout,
    look: Look,
    block: tuple[int, int] | None = None,
) -> dict[str, list[go.Figure]]:
    """Per map name (MAPS), one figure per example of `block` ((first, past the last);
    every example where None), drawn for `look`. Numbers are fitted over every example
    of the batch, so each frame's cells read alike, in every block."""
    shown = range(*(block or (0, story.size)))
    routing = story.routing(feature)  # (N, H, W)
    running = story.routing_running(feature)  # (N, H, W)
    kernel = story.kernel_running(feature)  # (N, kh, kw)
    titles = map_titles(story, layout)
    shared = (routing, running)
    maps = {
        "image": (story.images, dict(width_px=layout.image_px, annotate=False)),
        "routed": (routing, dict(width_px=layout.routed_px, shared_range=shared)),
        "mean": (running, dict(width_px=layout.routed_px, shared_range=shared)),
        "kernel": (kernel, dict(width_px=layout.kernel_px)),
    }
    figures = {}
    for name, (values, options) in maps.items():
        gradient = name != "image"
        lines = _title_lines(
            titles[name],
            values,
            kind="gradient" if gradient else "value",
            width_px=options["width_px"],
            lecture=layout.lecture,
        )
        figures[name] = [
            styled(
                lean(
                    grids.grid_figure(
                        values=values[e],
                        title=titles[name][e],
                        lecture=layout.lecture,
                        options=grids.GridOptions(
                            title_lines=lines,
                            **(
                                _gradient_options(story, feature, e, name, values)
                                if gradient
                                else {}
                            ),
                            **options,
                        ),
                    )
                ),
                look,
            )
            for e in shown
        ]
    return figures


def lean(figure: go.Figure) -> go.Figure:
    """`figure`, its map's numbers sent as no more than the colour
    needs: z at frame_data.SIGNIFICANT digits (a batch of 128 sends 128 frames of each
    map: 8-byte doubles took a third of them), and no cell labels where none are
    written (a colour-only map: the hover says its numbers)."""
    spec = figure.to_plotly_json()
    for trace, drawn in zip(spec["data"], figure.data, strict=True):
        if trace.get("type") != "heatmap":
            continue
        z = np.asarray(drawn.z, dtype=np.float64)  # (H, W)
        trace["z"] = [[significant(value) for value in row] for row in z]
        if trace.get("texttemplate") is None:
            trace.pop("text", None)
    return go.Figure(spec)


def _gradient_options(story: BatchStory, feature: int, example: int, name: str, values) -> dict:
    marks = story.winner_cells(example, feature) if name == "routed" else ()
    return dict(
        kind="gradient", decimals=2, fit_over=values, overlay=grids.Overlay(marks=tuple(marks))
    )


def step_frames(
    story: BatchStory,
    feature: int,
    figures: dict[str, list[go.Figure]],
    *,
    keys: dict[str, str],
    block: tuple[int, int] | None = None,
) -> dict:
    """What the browser plays (a FrameSpec's fields but the link and the words' labels):
    per chart key (keys: map name or "reached" -> the chart's key) its frames, and each
    example's sentence, for the examples of `block` (figures: step_map_figures' of it;
    every example where None). The curve is the block's part of it (reached_points)."""
    shown = range(*(block or (0, story.size)))
    charts = []
    for name, key in keys.items():
        if name == "reached":
            reached, first_x = reached_points(story, feature, block=(shown.start, shown.stop))
            charts.append(
                line_frames_data(
                    reached,
                    key=key,
                    trace=REACHED_Y,
                    now="now",
                    grow=False,
                    titles=(REACHED_TITLE, REACHED_X),
                    first_x=first_x,
                )
            )
            continue
        names = tuple(dict.fromkeys(t.name for figure in figures[name] for t in figure.data))
        marked = [story.winner_cells(e, feature) for e in shown]
        charts.append(
            traces_frames_data(
                figures[name], key=key, names=names, marked=marked if name == "routed" else None
            )
        )
    words = [{"sentence": step_sentence(story, feature, e), "line": ""} for e in shown]
    return {"count": len(shown), "charts": charts, "words": words}


def reached_points(story: BatchStory, feature: int, *, block: tuple[int, int]):
    """The curve of positions reached over the examples of `block`, (n,), and the x of
    its first point (examples in the batch so far: the block's first example + 1)."""
    return story.positions_reached(feature)[block[0] : block[1]], block[0] + 1
