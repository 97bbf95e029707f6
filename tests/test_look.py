"""Figures drawn for their viewer: lecture size and the dark theme, with contrast
checked in both themes; lecture mode through AppTest."""

import numpy as np
import pytest
from apptest import figures, no_exceptions, open_app

from ui.figures import labels, style
from ui.figures.curves import line_figure
from ui.figures.grid import GridOptions, Overlay, grid_figure
from ui.figures.look import DESK, Look, styled
from ui.figures.mosaic import MosaicOptions, small_multiples

X = np.array([[1.0, 3.0, 0.5], [2.0, 0.25, 4.0], [0.0, 1.5, 2.0]])


def luminance(colour: str) -> float:
    channels = [int(colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def sample_figures():
    return [
        grid_figure(X, title="x", options=GridOptions(overlay=Overlay(marks=((0, 1),)))),
        small_multiples([X, -X], ["a", "b"], options=MosaicOptions(title="maps")),
        line_figure([3.0, 2.0, 1.5], title="loss", x_title="step", y_title="loss"),
    ]


def test_the_desk_look_leaves_a_figure_as_built():
    figure = sample_figures()[0]
    assert styled(figure, DESK) is figure


def test_lecture_numbers_are_18_px_and_the_figure_grows_with_them():
    for figure in sample_figures():
        big = styled(figure, Look(lecture=True))
        scale = style.LECTURE_CELL_FONT_PX / style.CELL_FONT_PX
        assert big.layout.height == pytest.approx(figure.layout.height * scale)
        for small, large in zip(figure.data, big.data, strict=True):
            if small.type == "heatmap" and small.texttemplate:
                assert large.textfont.size >= style.LECTURE_CELL_FONT_PX
        assert big.layout.title.font.size == pytest.approx(style.TITLE_FONT_PX * scale)


def test_a_map_laid_out_for_lecture_keeps_18_px_numbers_inside_its_cells():
    values = np.array([[13.667, 1.778, 0.5], [2.25, 10.125, 4.0], [0.0, 7.5, 3.333]])
    desk = grid_figure(values, title="y")
    big = styled(grid_figure(values, title="y", lecture=True), Look(lecture=True))
    cells = next(t for t in big.data if t.name == "value")
    assert cells.textfont.size >= style.LECTURE_CELL_FONT_PX - 1e-9
    assert all(label != "" for label in cells.text.ravel())
    margin = big.layout.margin
    cell = (big.layout.height - margin.t - margin.b) / 3
    assert labels.fits_in_cell(cells.text.ravel(), cell, cells.textfont.size)
    # Its width, scaled up, stays within the column the desk map was laid out for.
    assert 3 * cell + margin.l + margin.r <= style.HALF_PX + 1
    assert next(t for t in desk.data if t.name == "value").textfont.size >= 12


@pytest.mark.parametrize("dark", [False, True])
def test_text_and_lines_stand_out_in_both_themes(dark):
    look = Look(dark=dark)
    for figure in sample_figures():
        drawn = styled(figure, look)
        background = look.background
        assert drawn.layout.plot_bgcolor in (background, style.TRANSPARENT)
        assert contrast(drawn.layout.font.color, background) >= 7
        # A line over cells (a window's outline, a winner's frame) is a dark core over a
        # light halo of the same name + " halo": one of the two stands out on any page.
        pairs: dict[str, list[str]] = {}
        for trace in drawn.data:
            if trace.type == "scatter" and trace.mode and "lines" in trace.mode:
                pairs.setdefault(trace.name.removesuffix(" halo"), []).append(trace.line.color)
        for colours in pairs.values():
            assert max(contrast(colour, background) for colour in colours) >= 3
    if dark:
        grid_line = styled(sample_figures()[2], look).layout.xaxis.gridcolor
        assert contrast(grid_line, style.DARK_BACKGROUND) < 3


def test_a_lecture_link_opens_in_lecture_mode_and_keeps_it():
    grid = "1,2,0,1;0,9,1,0;2,1,4,1;0,3,1,8"
    app = open_app("screens/playground.py", {"lecture": "1", "tab": "step", "x": grid})
    assert no_exceptions(app) and app.session_state["lecture"] is True
    assert not any("Edit the grid" in md.value for md in app.markdown)  # no intro
    sizes = [
        trace["textfont"]["size"]
        for figure in figures(app)
        for trace in figure["data"]
        if trace.get("type") == "heatmap" and trace.get("texttemplate")
    ]
    assert sizes and min(sizes) >= style.LECTURE_CELL_FONT_PX
    app.session_state["pg_step"] = 1  # the browser's player moved on
    app.run()
    assert app.query_params["lecture"] == "1" and app.query_params["step"] == "1"
    app.toggle(key="lecture_switch").set_value(False).run()
    assert app.session_state["lecture"] is False
    assert "lecture" not in app.query_params or app.query_params["lecture"] == "0"


def test_a_bad_lecture_value_says_so_and_stays_off():
    app = open_app(None, {"lecture": "yes"})  # the page the link opens
    assert no_exceptions(app) and app.session_state["lecture"] is False
    assert any("lecture" in w.value and "must be 0 or 1" in w.value for w in app.warning)
