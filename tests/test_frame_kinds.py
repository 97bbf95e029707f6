"""The frame player's curve and whole-trace frames (ui/figures/frame_data.py): what the
browser draws for frame t is what the server's own figure for t holds."""

from __future__ import annotations

import json

import numpy as np
import pytest
from plotly.io.json import to_json_plotly

from ui.figures.curves import line_figure
from ui.figures.frame_data import line_frames_data, traces_frames_data
from ui.figures.mosaic import MosaicOptions, small_multiples
from ui.shared.twin import figure_twins

LOSSES = [2.5, 1.75, 1.125, 0.8, 0.61, 0.5, 0.42, 0.4, 0.39, 0.385, 0.38]


def curve_said(twins: dict, frame: int) -> dict:
    """A curve's twin at `frame` as the browser puts it together (frames.js, twinsAt)."""
    curve = twins["curve"]
    shown = frame + 1 if twins["grow"] else len(curve["cells"])
    return {
        "summary": twins["abouts"][frame],
        "rows": curve["headers"][0][:shown],
        "cells": curve["cells"][:shown],
        "marks": {twins["mark"]: ((frame, 0),)},
    }


def figure_said(figure) -> dict:
    (twin,) = figure_twins(figure)
    cells = [text for row in twin.cells for text in row]
    return {
        "summary": twin.summary(),
        "rows": list(twin.headers[0]),
        "cells": cells,
        "marks": twin.marks,
    }


def test_a_growing_curve_shows_the_points_up_to_each_frame_with_the_figures_ticks():
    data = line_frames_data(
        LOSSES, key="loss", trace="loss", now="now", grow=True, titles=("t", "step")
    )
    line = data["line"]
    assert line["x"] == list(range(len(LOSSES))) and line["y"] == LOSSES
    for frame in range(len(LOSSES)):
        figure = line_figure(
            LOSSES[: frame + 1], title="t", x_title="step", y_title="loss", marker_at=frame
        )
        curve, now = figure.data
        assert list(curve.y) == line["y"][: frame + 1]
        assert list(curve.x) == line["x"][: frame + 1]
        assert [now.x[0], now.y[0]] == [line["x"][frame], line["y"][frame]]
        assert figure.layout.xaxis.dtick == line["dticks"][frame]
        assert curve_said(data["twins"], frame) == figure_said(figure)


def test_a_fixed_curve_only_moves_its_marker_from_its_first_x():
    data = line_frames_data(
        [3, 5, 8],
        key="reach",
        trace="positions",
        now="now",
        grow=False,
        titles=("Reached", "examples"),
        first_x=1,
    )
    assert data["line"]["x"] == [1, 2, 3] and "dticks" not in data["line"]
    assert data["line"]["grow"] is False and data["titles"] is None
    for frame in range(3):
        figure = line_figure(
            [3, 5, 8],
            title="Reached",
            x_title="examples",
            y_title="positions",
            marker_at=frame,
            first_x=1,
        )
        assert curve_said(data["twins"], frame) == figure_said(figure)
    assert data["twins"]["abouts"][1] == (
        "Reached: 3 points, examples 1 to 3; positions from 3 to 8; current point: "
        "examples 2, positions 5."
    )


def kernels(step: int) -> list[np.ndarray]:
    base = np.arange(9.0).reshape(3, 3) / 10
    return [base * (1 - step / 10), base * (1 + step / 10)]


def test_whole_trace_frames_hold_each_figures_changing_attributes_and_nothing_else():
    figures = [
        small_multiples(
            maps=kernels(step),
            titles=[f"K0 after {step}", f"K1 after {step}"],
            options=MosaicOptions(kind="value", most_columns=2),
        )
        for step in range(4)
    ]
    data = traces_frames_data(figures, key="kernels", names=("value", "titles"))
    for step, figure in enumerate(figures):
        drawn = {t["name"]: t for t in json.loads(to_json_plotly(figure.to_dict()))["data"]}
        for name, frames in data["traces"].items():
            for attribute, value in frames[step].items():
                assert drawn[name][attribute] == value
    assert {"z", "text"} <= set(data["traces"]["value"][0])
    assert set(data["traces"]["titles"][0]) == {"text"}  # where the titles sit stays
    assert "type" not in data["traces"]["value"][0] and data["titles"] is None


def test_frames_laid_out_apart_are_refused():
    wide = small_multiples(
        maps=[np.full((3, 3), -0.125)] * 2, titles=["a", "b"], options=MosaicOptions(kind="value")
    )
    narrow = small_multiples(
        maps=[np.full((3, 3), 1.0)] * 2, titles=["a", "b"], options=MosaicOptions(kind="value")
    )
    with pytest.raises(ValueError, match="share its layout"):
        traces_frames_data([narrow, wide], key="k", names=("value",))
