"""The frame player's curve and whole-trace frames (ui/figures/frame_data.py): what the
browser draws for frame t is what the server's own figure for t holds."""

from __future__ import annotations

import json

import numpy as np
import pytest
from plotly.io.json import to_json_plotly

from ui.figures.curves import line_figure
from ui.figures.frame_data import line_frames_data, traces_frames_data
from ui.figures.mosaic import small_multiples

LOSSES = [2.5, 1.75, 1.125, 0.8, 0.61, 0.5, 0.42, 0.4, 0.39, 0.385, 0.38]


def test_a_growing_curve_shows_the_points_up_to_each_frame_with_the_figures_ticks():
    data = line_frames_data(LOSSES, key="loss", trace="loss", now="now", grow=True)
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


def test_a_fixed_curve_only_moves_its_marker_from_its_first_x():
    data = line_frames_data(
        [3, 5, 8], key="reach", trace="positions", now="now", grow=False, first_x=1
    )
    assert data["line"]["x"] == [1, 2, 3] and "dticks" not in data["line"]
    assert data["line"]["grow"] is False and data["titles"] is None


def kernels(step: int) -> list[np.ndarray]:
    base = np.arange(9.0).reshape(3, 3) / 10
    return [base * (1 - step / 10), base * (1 + step / 10)]


def test_whole_trace_frames_hold_each_figures_changing_attributes_and_nothing_else():
    figures = [
        small_multiples(
            maps=kernels(step),
            titles=[f"K0 after {step}", f"K1 after {step}"],
            kind="value",
            most_columns=2,
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
    wide = small_multiples(maps=[np.full((3, 3), -0.125)] * 2, titles=["a", "b"], kind="value")
    narrow = small_multiples(maps=[np.full((3, 3), 1.0)] * 2, titles=["a", "b"], kind="value")
    with pytest.raises(ValueError, match="share its layout"):
        traces_frames_data([narrow, wide], key="k", names=("value",))
