"""The step-through's frames, computed once per input for the browser to play
(ui/playground/step_frames.py, ui/figures/frame_data.py): checked against the engine, and
replayed here as the browser replays them."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from test_text_truth import ALL, story_for

from pooling import PoolConfig
from teaching.numbers import fmt
from teaching.playground import text
from teaching.playground.model import LayerSettings, build_layer_story
from ui.figures import grid as grids
from ui.playground.step_frames import frames_data, step_maps, step_words

KEYS = {"x": "fig_x", "gx": "fig_gx", "y": "fig_y"}
PAGE_BUDGET_BYTES = 500_000
IDS = [str(story.config) for story in ALL[::3]]


def replayed(cells: dict) -> list[dict]:
    """Each frame's cells as the browser builds them: the start, then each frame's
    changes applied in turn. [{"z", "text", "hover"}] of flat lists."""
    state = {name: list(values) for name, values in cells["start"].items()}
    frames = []
    for changes in cells["changes"]:
        for index, value, label, hover in changes:
            state["z"][index], state["text"][index], state["hover"][index] = value, label, hover
        frames.append({name: list(values) for name, values in state.items()})
    return frames


@pytest.mark.parametrize("story", ALL[::3], ids=IDS)
def test_what_every_window_sends_adds_up_to_the_backward_pass(story):
    assert np.allclose(story.sent_by_window.sum(axis=0), story.grad_x, atol=1e-9)
    assert np.allclose(story.running_totals[-1], story.grad_x, atol=1e-9)
    for step in range(story.windows):
        out_cell = story.out_cell(step)
        assert np.array_equal(story.sent_by_window[step], story.sent_by(out_cell))


@pytest.mark.parametrize("story", ALL[::3], ids=IDS)
def test_the_replayed_frames_write_what_the_server_would_draw(story):
    maps = step_maps(story)
    data = frames_data(story, maps, keys=KEYS, lecture=False)
    charts = {chart["key"]: chart for chart in data["charts"]}
    numbers = maps.gx.numbers(lecture=False)
    frames = replayed(charts["fig_gx"]["cells"])
    assert len(frames) == story.windows == data["count"]
    for step, frame in enumerate(frames):
        totals = story.running_totals[step]
        assert frame["text"] == list(numbers.labels(totals).ravel())
        expected = [float(f"{v:.6g}") for v in totals.ravel()]
        assert np.allclose(frame["z"], expected, rtol=1e-5, atol=1e-12)
    # The last frame is the backward pass's dL/dx, as the map of it writes it.
    figure = grids.grid_figure(
        story.grad_x, title="g", options=grids.GridOptions(kind="gradient", fit_over=maps.gx.values)
    )
    assert frames[-1]["text"] == list(figure.data[0].text.ravel())


@pytest.mark.parametrize("story", ALL[::3], ids=IDS)
def test_each_frame_outlines_the_window_and_marks_its_winners(story):
    maps = step_maps(story)
    data = frames_data(story, maps, keys=KEYS, lecture=False)
    charts = {chart["key"]: chart for chart in data["charts"]}
    pairs = lambda flat: {(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)}  # noqa: E731
    for step in range(story.windows):
        out_cell = story.out_cell(step)
        x, gx, y = charts["fig_x"], charts["fig_gx"], charts["fig_y"]
        assert pairs(x["outline"]["cells"][step]) == set(story.window_cells(out_cell))
        assert pairs(gx["outline"]["cells"][step]) == set(
            story.window_cells(out_cell, real_only=True)
        )
        assert pairs(y["outline"]["cells"][step]) == {out_cell}
        if story.windows > 1:  # one frame: its title is the figure's, never changed
            assert x["titles"][step] == f"x: the window of y[{out_cell[0]},{out_cell[1]}]"
            assert gx["titles"][step].startswith(f"dL/dx after {step + 1} of {story.windows}")
        if story.config.mode == "max":
            assert pairs(x["marks"]["cells"][step]) == set(story.receivers(out_cell))
        else:
            assert "marks" not in x and "marks" not in gx
    assert data["pointer"] == {"key": "fig_y", "columns": story.output_shape[1]}


# (grid size, padding, lecture, column width): digits get a star; numbers such as
# −1.25 on a 16x16 grid a frame; padding's label counted; lecture size; a narrow column,
# whose cells grow for their numbers.
MARK_CASES = [(4, 0, False, 276), (16, 0, False, 276), (9, 1, False, 276), (9, 1, True, 276)]
MARK_CASES += [(6, 1, False, 150), (6, 0, True, 150)]


def mark_values(size: int) -> np.ndarray:
    """Digits on the smallest grid, numbers such as −1.25 on the others."""
    values = np.arange(float(size * size)).reshape(size, size) % 5
    return values if size <= 4 else values - 1.25


@pytest.mark.parametrize("size, padding, lecture, width", MARK_CASES)
def test_the_marks_sit_where_the_figure_puts_them(size, padding, lecture, width):
    """The browser draws each frame's winner marks with the figure's own: the same
    star or frame, sized by the same drawn cell, moved onto each cell alike."""
    story = story_for(mark_values(size), PoolConfig("max", 2, stride=1, padding=padding))
    maps = step_maps(story, width_px=width)
    chart = frames_data(story, maps, keys=KEYS, lecture=lecture)["charts"][0]
    cells = maps.x.marks[0]
    overlay = grids.Overlay(marks=cells, padding=maps.x.padding, pad_label=maps.x.pad_label)
    figure = grids.grid_figure(
        story.x,
        title="x",
        lecture=lecture,
        options=grids.GridOptions(overlay=overlay, width_px=width),
    )
    paths = chart["marks"]["paths"]
    winners = [trace for trace in figure.data if trace.name.startswith("winner")]
    assert {trace.name for trace in winners} == set(paths)
    for trace in winners:
        moved = [
            None if p is None else (col + p[0], row + p[1])
            for row, col in cells
            for p in paths[trace.name]
        ]
        drawn = [None if x is None else (x, y) for x, y in zip(trace.x, trace.y, strict=True)]
        assert drawn == moved


def test_the_mark_cases_meet_a_star_a_frame_and_a_grown_cell():
    """MARK_CASES cover what they claim: both marks, and a map grown for its numbers."""
    modes, grown = set(), False
    for size, padding, lecture, width in MARK_CASES:
        story = story_for(mark_values(size), PoolConfig("max", 2, stride=1, padding=padding))
        overlay = grids.Overlay(
            marks=story.winner_cells(), padding=(padding, padding), pad_label=story.pad_label
        )
        figure = grids.grid_figure(
            story.x,
            title="x",
            lecture=lecture,
            options=grids.GridOptions(overlay=overlay, width_px=width),
        )
        modes |= {trace.mode for trace in figure.data if trace.name == "winner"}
        grown |= bool(figure.layout.width)
    assert modes == {"markers", "lines"} and grown


NUMBER = r"−?\d+(?:\.\d+)?(?:e[−+]\d+)?"
TERM = re.compile(rf"dL/dx\[(\d+),(\d+)\]: ({NUMBER}) \+ ({NUMBER}) = ({NUMBER})")


def number(label: str) -> float:
    return float(label.replace("−", "-"))


@pytest.mark.parametrize("story", ALL[::3], ids=IDS)
def test_each_running_line_names_the_cells_the_window_sends_to_and_adds_up(story):
    for step, words in enumerate(step_words(story)):
        sent = story.sent_by_window[step]
        receiving = {tuple(int(i) for i in cell) for cell in np.argwhere(sent != 0)}
        terms = TERM.findall(words["line"])
        shares = {fmt(sent[cell]) for cell in receiving}
        if len(receiving) > 2 and len(shares) == 1:
            (share,) = shares
            said = f"each of the {len(receiving)} cells it sends to adds {share} to its dL/dx"
            assert said in words["line"] and not terms
            continue
        assert {(int(r), int(c)) for r, c, *_ in terms} == receiving, words["line"]
        for r, c, before, share, after in terms:
            cell = (int(r), int(c))
            assert share == fmt(sent[cell]) and after == fmt(story.running_totals[step][cell])
            assert number(before) + number(share) == pytest.approx(number(after), abs=2e-3)
        if not receiving:
            assert "sends 0" in words["line"]
            assert story.grad_output[story.out_cell(step)] == 0
        assert words["sentence"] == text.step_sentence(story, story.out_cell(step))


def test_a_window_that_sends_nothing_says_so():
    story = story_for(np.arange(16.0).reshape(4, 4), PoolConfig("max", 2), 0.0)
    assert (
        text.running_line(story, 0) == "y[0,0] sends 0 (its dL/dy is 0): no running total changes."
    )


@pytest.mark.parametrize(
    "config",
    [
        PoolConfig("max", 2, stride=1),
        PoolConfig("max", 3, stride=1, ties="split"),
        PoolConfig("avg", 3, stride=1, padding=1),
    ],
    ids=["max-2x2", "max-3x3-split", "avg-3x3-pad-1"],
)
@pytest.mark.parametrize("lecture", [False, True], ids=["desk", "lecture"])
def test_a_16x16_stride_1_step_through_is_sent_in_well_under_the_page_budget(config, lecture):
    rng = np.random.default_rng(1)
    x = np.round(rng.uniform(-2, 2, (16, 16)), 2)
    story = build_layer_story(LayerSettings(x, config, "random", 0))
    data = frames_data(story, step_maps(story), keys=KEYS, lecture=lecture)
    sent = len(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode())
    assert story.windows >= 196 and sent < PAGE_BUDGET_BYTES / 2, sent
