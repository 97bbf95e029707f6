"""Figure builders, tested on the data they hand to Plotly."""

import numpy as np
import plotly.graph_objects as go
import pytest

from teaching.numbers import fmt, symmetric_range
from ui.figures import grid as grids
from ui.figures import labels, marks, sizes, style
from ui.figures.curves import line_figure, max_curve_figure
from ui.figures.matrix import jacobian_figure
from ui.figures.mosaic import MosaicOptions, small_multiples


def trace(figure, name):
    return next(t for t in figure.data if t.name == name)


def test_grid_is_matrix_oriented_square_and_annotated():
    values = np.array([[1.0, 2.5, -3.0], [0.125, 1 / 3, 7.0]])
    figure = grids.grid_figure(values, title="x")
    cells = trace(figure, "value")
    np.testing.assert_array_equal(cells.z, values)
    assert list(cells.y) == [0, 1] and list(cells.x) == [0, 1, 2]
    low, high = figure.layout.yaxis.range
    assert low > high  # row 0 on top
    assert figure.layout.yaxis.scaleanchor == "x" and figure.layout.yaxis.scaleratio == 1
    assert cells.text.tolist() == [["1", "2.5", "−3"], ["0.125", "0.333", "7"]]
    assert cells.texttemplate == "%{text}"
    assert cells.textfont.size >= 12  # a fixed size: Plotly would shrink it to fit


def test_gradient_scale_is_centred_on_zero():
    figure = grids.grid_figure(
        np.array([[0.5, -2.0], [1.0, 0.0]]), title="g", options=grids.GridOptions(kind="gradient")
    )
    cells = trace(figure, "gradient")
    assert cells.zmin == -2.0 and cells.zmax == 2.0
    assert symmetric_range(np.zeros((2, 2))) == 1.0  # all zeros: a usable range


def test_padding_window_and_winners_are_drawn():
    overlay = grids.Overlay(
        window=((-1, -1), (-1, 0), (0, -1), (0, 0)), marks=((1, 2),), padding=(1, 1), pad_label="−∞"
    )
    figure = grids.grid_figure(
        np.arange(6.0).reshape(2, 3), title="x", options=grids.GridOptions(overlay=overlay)
    )
    padding = trace(figure, "padding")
    assert padding.z.shape == (4, 5)
    assert np.isnan(padding.z[1:3, 1:4]).all() and not np.isnan(padding.z[0]).any()
    assert padding.text[0, 0] == "−∞" and padding.text[1, 1] == ""
    outline = trace(figure, "window")
    xs = [x for x in outline.x if x is not None]
    ys = [y for y in outline.y if y is not None]
    assert (min(xs), max(xs), min(ys), max(ys)) == (-1.5, 0.5, -1.5, 0.5)
    star = trace(figure, "winner")
    assert (star.x[0], star.y[0]) == (2.3, 0.7)  # the top-right corner of cell (1, 2)
    # Around the cells, room for the outer half of the outline (and its halo) that runs
    # along the padding's edge: the plot area would cut it.
    cell = sizes.drawn_cell_px(figure)
    halo = trace(figure, "window halo").line.width
    left, right = figure.layout.xaxis.range
    bottom, top = figure.layout.yaxis.range
    for spare in (-1.5 - left, right - 3.5, -1.5 - top, bottom - 2.5):
        assert spare * cell >= halo / 2


def test_a_dilated_window_outlines_only_the_cells_it_reads():
    cells = ((0, 0), (0, 2), (2, 0), (2, 2))  # 2x2 window, dilation 2
    xs, ys = marks.outline_path(cells)
    segments = [
        ((xs[i], ys[i]), (xs[i + 1], ys[i + 1])) for i in range(0, len(xs), 3)
    ]  # (start, end, None) triples
    assert len(segments) == 16  # four separate squares, four edges each
    centre = (1, 1)  # a cell the window skips: no edge runs through it
    for (x0, y0), (x1, y1) in segments:
        assert not (min(x0, x1) < centre[1] < max(x0, x1) and y0 == y1 == centre[0])


def test_click_targets_sit_on_every_cell_centre_and_can_be_clicked():
    figure = grids.grid_figure(
        np.zeros((2, 3)), title="y", options=grids.GridOptions(clickable=True)
    )
    targets = trace(figure, "pick")
    assert list(zip(targets.y, targets.x, strict=True)) == [
        (r, c) for r in range(2) for c in range(3)
    ]
    assert targets.marker.opacity == 0
    # With hoverinfo "skip" Plotly selects nothing on a click.
    assert targets.hoverinfo != "skip" and figure.layout.clickmode == "event+select"


def test_small_multiples_tile_every_map_on_one_colour_scale():
    maps = [np.array([[1.0, -4.0]]), np.array([[2.0, 0.5]]), np.array([[0.0, 3.0]])]
    figure = small_multiples(
        maps, ["a", "b", "c"], options=MosaicOptions(most_columns=2, marks=[[(0, 1)], [], []])
    )
    (cells,) = [t for t in figure.data if isinstance(t, go.Heatmap)]
    assert cells.zmin == -4.0 and cells.zmax == 4.0
    # Tiles are 2 wide plus a gap column, 1 tall plus a title row: map i sits at
    # row (i // 2) * 2 + 1, column (i % 2) * 3.
    np.testing.assert_array_equal(cells.z[1, 0:2], maps[0][0])
    np.testing.assert_array_equal(cells.z[1, 3:5], maps[1][0])
    np.testing.assert_array_equal(cells.z[3, 0:2], maps[2][0])
    assert np.isnan(cells.z[0]).all() and np.isnan(cells.z[:, 2]).all()  # title row, gap
    assert cells.text[1, 1] == "−4"
    titles = trace(figure, "titles")
    assert list(titles.text) == ["a", "b", "c"] and list(titles.y) == [0, 0, 2]
    star = trace(figure, "winner")
    assert (star.x[0], star.y[0]) == (1.3, 0.7)
    assert figure.layout.yaxis.range[0] > figure.layout.yaxis.range[1]


def test_tiny_gradients_are_written_in_a_power_of_ten_not_in_e_notation():
    maps = [np.array([[0.0047, -0.0012]]), np.array([[0.0009, 0.0]])]
    figure = small_multiples(maps, ["a", "b"], options=MosaicOptions(title="dL/dK"))
    cells = trace(figure, "gradient")
    assert cells.text[1, 0] == "4.7" and cells.text[1, 1] == "−1.2"
    assert "10⁻³" in figure.layout.title.text
    assert not any("e" in str(label) for label in cells.text.ravel())


def test_many_small_maps_are_colour_only_with_numbers_on_hover():
    maps = [np.full((6, 6), 0.25) for _ in range(8)]
    figure = small_multiples(maps, [str(n) for n in range(8)], options=MosaicOptions(annotate=True))
    cells = trace(figure, "gradient")
    # fit_mosaic chooses as many columns as keep cells wide enough for the numbers
    assert cells.texttemplate == "%{text}"
    assert figure.layout.height > 300
    crowded = small_multiples(
        maps, [str(n) for n in range(8)], options=MosaicOptions(annotate=False)
    )
    assert trace(crowded, "gradient").texttemplate is None
    assert "%{z" in trace(crowded, "gradient").hovertemplate


@pytest.mark.parametrize("count, shape", [(1, (3, 3)), (4, (6, 6)), (8, (6, 6)), (3, (12, 12))])
def test_a_mosaic_writes_every_number_of_every_map_in_a_cell_that_holds_it(count, shape):
    rng = np.random.default_rng(count)
    maps = [rng.normal(size=shape) * 3 for _ in range(count)]
    figure = small_multiples(
        maps, [f"#{n}" for n in range(count)], options=MosaicOptions(kind="value")
    )
    cells = trace(figure, "value")
    z = np.asarray(cells.z, dtype=float)
    text = np.asarray(cells.text)
    assert cells.texttemplate == "%{text}" and cells.textfont.size >= style.MIN_CELL_FONT_PX
    assert all(text[np.isfinite(z)] != "") and all(text[~np.isfinite(z)] == "")
    rows = z.shape[0]
    margin = figure.layout.margin
    held = (figure.layout.height - margin.t - margin.b) / (rows + 0.2)  # range: -0.7 .. rows-0.5
    assert labels.fits_in_cell(text[np.isfinite(z)], held, cells.textfont.size)


def test_each_map_of_a_mosaic_is_as_wide_as_its_title():
    titles = ["dL/dK, kernel 0", "dL/dK, kernel 1"]
    figure = small_multiples(
        [np.full((3, 3), 0.5)] * 2, titles, lecture=True, options=MosaicOptions(width_px=250)
    )
    cells = trace(figure, "gradient")
    rows = np.asarray(cells.z).shape[0]
    margin = figure.layout.margin
    cell = (figure.layout.height - margin.t - margin.b) / (rows + 0.2)
    widest = max(map(len, titles)) * style.MAP_TITLE_PX * style.TITLE_CHAR_EM
    assert 3 * cell >= widest


def test_a_long_title_wraps_to_its_column_and_the_figure_grows_by_its_lines():
    title = "S (rows: outputs, columns: x's cells)"
    short = grids.grid_figure(np.zeros((2, 8)), title="S", options=grids.GridOptions(width_px=250))
    long = grids.grid_figure(np.zeros((2, 8)), title=title, options=grids.GridOptions(width_px=250))
    lines = long.layout.title.text.split("<br>")
    assert len(lines) == 2 and " ".join(lines) == title
    assert all(len(line) * 16 * style.TITLE_CHAR_EM <= 250 for line in lines)
    grown = long.layout.height - short.layout.height
    assert grown == style.TITLE_LINE_PX and long.layout.margin.t - short.layout.margin.t == grown
    assert long.layout.title.pad.t == short.layout.title.pad.t + style.TITLE_LINE_PX


def test_a_mosaic_in_a_power_of_ten_says_so_and_colours_in_the_same_units():
    maps = [np.array([[0.0047, -0.0012]]), np.array([[0.0009, 0.0]])]
    untitled = small_multiples(maps, ["a", "b"])
    assert untitled.layout.title.text == "In units of 10⁻³"
    cells = trace(untitled, "gradient")
    assert cells.text[1, 0] == "4.7" and cells.z[1, 0] == pytest.approx(4.7)
    assert cells.zmax == pytest.approx(4.7)  # the colour bar reads in the labels' units
    plain = small_multiples(maps, ["a", "b"], options=MosaicOptions(title="dL/dK", annotate=False))
    assert plain.layout.title.text == "dL/dK" and trace(plain, "gradient").zmax == 0.0047


def test_jacobian_figure_holds_the_matrix():
    matrix = np.array([[0.0, 1.0, 0.0, 0.0], [0.25, 0.25, 0.25, 0.25]])
    figure = jacobian_figure(matrix, out_shape=(1, 2), in_shape=(2, 2), title="J")
    cells = figure.data[0]
    np.testing.assert_array_equal(cells.z, matrix)
    assert list(cells.y) == ["y0,0", "y0,1"] and list(cells.x)[1] == "x0,1"
    assert cells.text[1, 0] == fmt(0.25)
    assert cells.texttemplate == "%{text}" and (cells.text != "").sum() == 5  # every non-zero


def test_a_large_jacobian_writes_every_non_zero_entry():
    matrix = np.kron(np.eye(9), np.full((1, 4), 1 / 3))[:, :36]  # 9 outputs, 36 inputs
    figure = jacobian_figure(matrix, out_shape=(3, 3), in_shape=(6, 6), title="J")
    cells = figure.data[0]
    assert cells.texttemplate == "%{text}" and cells.textfont.size >= 12
    assert ((cells.text != "") == (matrix != 0)).all()


def test_max_curve_is_flat_then_slope_one():
    figure = max_curve_figure(1.0, 3.0)
    curve = figure.data[0]
    slopes = np.diff(curve.y) / np.diff(curve.x)
    assert set(np.round(slopes, 9)) <= {0.0, 1.0}
    assert tuple(figure.data[1].x) == (1.0,) and tuple(figure.data[1].y) == (3.0,)


@pytest.mark.parametrize("a, b", [(1.0, 3.0), (-4.0, 2.5), (7.0, 0.0)])
def test_the_slope_labels_sit_on_the_side_the_line_leaves_empty(a, b):
    """Each label's lower corner is a point of the line; the flat one's box lies above
    it, the rising one's above and to the left: at any font size the line misses them."""
    flat, rising = max_curve_figure(a, b).layout.annotations
    assert flat.y == b and (flat.xanchor, flat.yanchor) == ("left", "bottom") and flat.x < b
    assert rising.x > b and rising.y == rising.x  # on the slope-1 part, y = a
    assert (rising.xanchor, rising.yanchor) == ("right", "bottom") and (rising.xshift or 0) <= 0


def test_line_figure_counts_steps_in_whole_numbers():
    figure = line_figure([3.0, 2.0, 1.5], title="loss", x_title="step", y_title="loss")
    assert figure.layout.xaxis.tickformat == "d" and figure.layout.xaxis.dtick >= 1


def test_winner_marks_move_off_the_number_when_a_cell_is_small():
    values = np.arange(256.0).reshape(16, 16) % 10
    overlay = grids.Overlay(marks=((0, 0),))
    small = trace(
        grids.grid_figure(values, title="x", options=grids.GridOptions(overlay=overlay)), "winner"
    )
    # A square along the cell's edges, where a window's outline runs: clear of its number.
    corners = list(zip(small.x, small.y, strict=True))
    assert small.mode == "lines" and corners[:5] == [
        (-0.5, -0.5),
        (0.5, -0.5),
        (0.5, 0.5),
        (-0.5, 0.5),
        (-0.5, -0.5),
    ]
    large = trace(
        grids.grid_figure(values[:4, :4], title="x", options=grids.GridOptions(overlay=overlay)),
        "winner",
    )
    assert large.marker.symbol == "star"


def test_a_winners_frame_keeps_to_the_outlines_room_and_shows_over_it():
    """A frame runs along its cell's edges, as a window's outline does, and reaches no
    further into the cell (so a number clear of one is clear of the other: a snug cell
    keeps OUTLINE_ROOM_PX across it). Drawn over the outline, in its colours the other
    way round, the winner still shows where the two meet."""
    from ui.figures import style

    values = np.arange(256.0).reshape(16, 16) % 10
    overlay = grids.Overlay(window=((0, 0), (0, 1), (1, 0), (1, 1)), marks=((0, 0),))
    figure = grids.grid_figure(values, title="x", options=grids.GridOptions(overlay=overlay))
    names = [t.name for t in figure.data]
    frame, frame_edges = trace(figure, "winner"), trace(figure, "winner halo")
    outline, outline_halo = trace(figure, "window"), trace(figure, "window halo")
    assert frame.mode == frame_edges.mode == "lines"
    assert frame_edges.line.width <= outline_halo.line.width < style.OUTLINE_ROOM_PX
    assert names.index("winner halo") > names.index("window")  # drawn over the outline
    assert frame.line.color == outline_halo.line.color != frame_edges.line.color
    assert frame_edges.line.color == outline.line.color


def test_tiny_tiles_number_their_maps_on_hover_instead_of_titles():
    from ui.figures.mosaic import titles_fit

    maps = [np.full((8, 8), float(n)) for n in range(64)]
    figure = small_multiples(
        maps, [f"#{n}" for n in range(64)], options=MosaicOptions(kind="value", annotate=False)
    )
    assert not any(t.name == "titles" for t in figure.data)
    cells = trace(figure, "value")
    assert cells.customdata[1, 0] == 0 and cells.customdata[1, 9] == 1  # map numbers
    assert cells.hovertemplate.startswith("#%{customdata}")
    assert not titles_fit(64, 8, most_columns=8) and titles_fit(8, 8, most_columns=4)


def test_maps_of_two_decimals_are_written_in_whole_hundredths_without_a_colour_bar():
    """Lesson step 10's lecture mosaic: units=-2 writes 0.53 as 53 and says so in the
    title; without the colour bar three 3x3 maps share a row of half the projector."""
    from teaching.numbers import whole_units

    maps = [np.array([[-0.53, 0.05, 1.45]] * 3), np.full((3, 3), 0.2), np.full((3, 3), -0.1)]
    assert whole_units(np.stack(maps), most_decimals=3) == -2
    assert whole_units(np.array([1.0, 2.0]), most_decimals=3) == 0
    figure = small_multiples(
        maps,
        ["a", "b", "c"],
        options=MosaicOptions(units=-2, colour_bar=False, width_px=style.LECTURE_MAPS_PX),
    )
    cells = figure.data[0]
    assert figure.layout.title.text.endswith("10⁻²") and cells.showscale is False
    assert {"−53", "5", "145", "20", "−10"} <= set(np.asarray(cells.text).ravel())
