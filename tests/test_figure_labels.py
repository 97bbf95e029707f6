"""Numbers on maps are never left out: a label too wide is shrunk to the floor, then
rounded (never moving a number by more than 5 %), then given a bigger cell."""

import numpy as np
import pytest

from ui.figures import grid as grids
from ui.figures import labels, style


def holds(texts, cell: float, font_px: float) -> bool:
    """Whether a drawn cell holds every label with a window outline's room across it
    (what a grown map's snug cell keeps, sizes.snug_cell; a cell the labels fit
    without growing keeps more, LABEL_SLACK_PX, across and up)."""
    return cell >= labels.widest_px(texts, font_px) + style.OUTLINE_ROOM_PX


def trace(figure, name):
    return next(t for t in figure.data if t.name == name)


def cell_px(figure, rows):
    """A map's cell size as laid out: the plot's height over its rows."""
    margin = figure.layout.margin
    return (figure.layout.height - margin.t - margin.b) / rows


def test_a_label_too_wide_is_shrunk_then_rounded_then_given_a_bigger_cell():
    # 13.667 needs 48 px at 13 px: at 12 px it fits a 46-px cell with every decimal.
    shrunk = labels.fit_labels([[13.667]], cell_px=46, decimals=3)
    assert shrunk.labels.tolist() == [["13.667"]] and shrunk.font_px == style.MIN_CELL_FONT_PX
    assert shrunk.cell_px == 46
    # In 40 px even 12 px is too wide: one decimal fewer.
    rounded = labels.fit_labels([[13.667]], cell_px=40, decimals=3)
    assert rounded.labels.tolist() == [["13.67"]] and rounded.decimals == 2
    assert rounded.cell_px == 40
    # In 20 px nothing fits, even at one decimal and 12 px: the cell grows to fit.
    grown = labels.fit_labels([[13.667]], cell_px=20, decimals=3)
    assert grown.labels.tolist() == [["13.7"]] and grown.decimals == labels.MIN_DECIMALS
    assert grown.font_px == style.MIN_CELL_FONT_PX and grown.cell_px > 20
    assert labels.fits_in_cell(grown.labels.ravel(), grown.cell_px, grown.font_px)
    # Rounding never moves a number by more than 5 %: 0.19 keeps its digits, in a bigger cell.
    kept_digits = labels.fit_labels([[0.19, -0.25]], cell_px=20, decimals=2)
    assert kept_digits.labels.tolist() == [["0.19", "−0.25"]] and kept_digits.cell_px > 20
    # A label that fits is left alone.
    kept = labels.fit_labels([[0.5, 1.0]], cell_px=46, decimals=3)
    assert kept.labels.tolist() == [["0.5", "1"]] and kept.font_px == style.CELL_FONT_PX


def test_lecture_labels_are_never_shrunk_below_18_px_on_screen():
    fit = labels.fit_labels([[13.667]], cell_px=46, decimals=3, lecture=True)
    assert fit.font_px * style.LECTURE_SCALE >= style.LECTURE_CELL_FONT_PX - 1e-9
    assert fit.labels.tolist() == [["13.67"]]  # rounded, not shrunk


def test_a_map_of_wide_numbers_keeps_every_number_and_the_hover_keeps_them_exact():
    wide = np.full((16, 16), -0.123)
    figure = grids.grid_figure(wide, title="x")
    cells = trace(figure, "value")
    assert cells.texttemplate == "%{text}" and cells.textfont.size >= style.MIN_CELL_FONT_PX
    assert all(label != "" for label in cells.text.ravel())
    # Its cells grew for the numbers, and the map keeps its own, least width: it is
    # drawn at the snug cell, its height laid out for that cell, which keeps across each
    # number the room of a window's outline (sizes.snug_cell).
    drawn = cell_px(figure, 16)
    assert holds(cells.text.ravel(), drawn, cells.textfont.size)
    width_cell = (figure.layout.width - figure.layout.margin.l - figure.layout.margin.r) / 16
    assert 0 <= width_cell - drawn < 1  # the width draws the cell the height is laid out for
    assert cells.text[0, 0] == "−0.12" and cells.customdata[0, 0] == "−0.123"


@pytest.mark.parametrize("lecture", [False, True])
@pytest.mark.parametrize("size", [2, 5, 9, 16])
def test_every_map_of_any_size_writes_every_number_in_a_cell_that_holds_it(size, lecture):
    values = np.arange(size * size).reshape(size, size) * 1.2345 - 40
    overlay = grids.Overlay(padding=(1, 1), pad_label="−∞")
    figure = grids.grid_figure(
        values, title="x", lecture=lecture, options=grids.GridOptions(overlay=overlay)
    )
    cells, padding = trace(figure, "value"), trace(figure, "padding")
    floor = style.LECTURE_CELL_FONT_PX / style.LECTURE_SCALE if lecture else 12
    assert cells.textfont.size >= floor and padding.textfont.size == cells.textfont.size
    assert all(label != "" for label in cells.text.ravel())
    held = cell_px(figure, size + 2)
    assert holds([*cells.text.ravel(), "−∞"], held, cells.textfont.size)


def test_a_colour_only_map_says_no_power_of_ten():
    tiny = np.array([[0.0042, -0.0011]])
    figure = grids.grid_figure(
        tiny, title="dL/dK", options=grids.GridOptions(kind="gradient", annotate=False)
    )
    assert figure.layout.title.text == "dL/dK" and trace(figure, "gradient").texttemplate is None


def test_a_map_of_tiny_gradients_is_written_in_a_power_of_ten_and_hovers_the_truth():
    figure = grids.grid_figure(
        np.array([[0.0042, -0.0011]]), title="dL/dK", options=grids.GridOptions(kind="gradient")
    )
    cells = trace(figure, "gradient")
    assert cells.text.tolist() == [["4.2", "−1.1"]] and figure.layout.title.text == "dL/dK (×10⁻³)"
    assert cells.customdata.tolist() == [["0.0042", "−0.0011"]]
