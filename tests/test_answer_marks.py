"""The marks of an exercise's answer on x: each kind its own, never a winner's star,
each visible on every cell colour (also to colour-blind eyes), clear of the number."""

import numpy as np
import pytest
from test_figure_style import SIMULATIONS, seen

from ui.figures import style
from ui.figures.answer_marks import AnswerMarks, answer_map, corner_box, mark_traces
from ui.figures.grid import Overlay
from ui.figures.look import Look, styled

CORES = {
    "your pick": style.PICK_COLOUR,
    "right": style.RIGHT_COLOUR,
    "extra": style.EXTRA_COLOUR,
    "missed": style.MISSED_COLOUR,
}


@pytest.mark.parametrize("eyes", SIMULATIONS)
@pytest.mark.parametrize("mark", CORES)
def test_answer_marks_stand_out_on_every_cell_colour(eyes, mark):
    """A light core on a black edge: one of the two contrasts with any cell, in either
    theme (a dark figure keeps its cells' colours; the marks sit on the cells)."""
    cells = [colour for scale in style.SCALES.values() for _, colour in scale]
    for cell in cells:
        cell_l = seen(cell, eyes)[0]
        core = abs(cell_l - seen(CORES[mark], eyes)[0])
        edge = abs(cell_l - seen(style.ANSWER_EDGE, eyes)[0])
        assert max(core, edge) > 45, (mark, cell)


def test_the_pick_is_not_a_winner_s_star_and_each_mark_differs():
    picks = mark_traces(AnswerMarks(picks=((0, 0),)), cell_px=40)
    (pick,) = picks
    assert pick["marker"]["symbol"] == "circle" and pick["marker"]["color"] != style.MARK_COLOUR
    checked = mark_traces(
        AnswerMarks(right=((0, 0),), missed=((1, 1),), extra=((0, 1),)), cell_px=40
    )
    names = [trace["name"] for trace in checked]
    assert names == ["right edge", "right", "extra edge", "extra", "missed edge", "missed"]
    cores = {trace["name"]: trace["line"] for trace in checked if "edge" not in trace["name"]}
    assert cores["missed"]["dash"] == style.MISSED_DASH and cores["right"]["dash"] == "solid"
    assert len({line["color"] for line in cores.values()}) == 3


def test_a_tick_or_a_cross_stays_in_its_corner_clear_of_the_number():
    """The number sits in the middle of its cell; a tick or a cross stays in the
    top-left corner, inside the cell, on the cells the exercises draw (a 7x7 x with its
    padding: 31 px in lecture mode, 35 on a desk)."""
    for cell_px in (31, 35, 46):
        left, top, side = corner_box((2, 3), cell_px)
        assert left > 3 - 0.5 and top > 2 - 0.5  # inside the cell
        assert left + side < 3 - 0.15 and top + side < 2 - 0.15  # clear of the middle


def test_the_answer_map_draws_the_marks_under_the_click_targets():
    x = np.arange(16.0).reshape(4, 4)
    marks = AnswerMarks(right=((0, 1),), missed=((2, 2), (3, 3)), extra=((1, 0),))
    figure = answer_map(
        x, title="x", overlay=Overlay(), marks=marks, width_px=style.ANSWER_MAP_PX, clickable=True
    )
    names = [trace.name for trace in figure.data]
    assert names[-1] == "pick" and "right" in names and "missed" in names and "extra" in names
    missed = next(trace for trace in figure.data if trace.name == "missed")
    corners = [v for v in missed.x if v is not None]
    assert min(corners) > 2 - 0.5 and max(corners) < 3 + 0.5  # frames inside cells 2 and 3
    lecture = styled(
        answer_map(
            x,
            title="x",
            overlay=Overlay(),
            marks=AnswerMarks(picks=((0, 0),)),
            width_px=style.ANSWER_MAP_PX,
            lecture=True,
        ),
        Look(lecture=True),
    )
    dot = next(trace for trace in lecture.data if trace.name == "your pick")
    assert dot.marker.size > style.PICK_PX[0]  # drawn bigger with everything else
