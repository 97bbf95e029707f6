"""The Batch step-through's frames (ui/batch/step_frames.py): replayed on the figure the
server draws first, each frame is the figure the server would draw for that example;
the curve's marker sits on the positions reached; each sentence is the page's own."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from plotly.io.json import to_json_plotly
from test_map_twin import frames_parts
from test_text_truth_batch import batch_settings

from pooling import PoolConfig
from teaching.batch.step_words import step_sentence
from teaching.batch.story import build_batch_story
from ui.batch.step_frames import (
    DESK,
    PROJECTOR,
    STEP_BLOCK,
    step_blocks,
    step_frames,
    step_map_figures,
)
from ui.figures.look import Look
from ui.shared.twin import figure_twins

KEYS = {name: f"k_{name}" for name in ("image", "routed", "mean", "kernel", "reached")}
LOOKS = [Look(dark=False, lecture=False), Look(dark=True, lecture=True)]


def story_for(mode: str, *, size: int = 8, relu: bool = True):
    network = batch_settings().network
    network = replace(network, pool=PoolConfig(mode, 2), relu=relu)
    return build_batch_story(batch_settings(network=network, size=size))


def traces(figure) -> dict[str, dict]:
    return {t["name"]: t for t in json.loads(to_json_plotly(figure.to_dict()))["data"]}


def marks_moved(chart: dict, frame: int) -> dict[str, dict]:
    """The marks traces' x and y at `frame`, as frames.js builds them: each trace's path
    moved onto each marked cell (col + dx, row + dy)."""
    if "marks" not in chart:
        return {}
    flat = chart["marks"]["cells"][frame]
    cells = list(zip(flat[::2], flat[1::2], strict=True))
    return {
        name: {
            "x": [None if p is None else col + p[0] for _, col in cells for p in path],
            "y": [None if p is None else row + p[1] for row, _ in cells for p in path],
        }
        for name, path in chart["marks"]["paths"].items()
    }


@pytest.mark.parametrize("mode", ["max", "avg"])
@pytest.mark.parametrize("layout", [DESK, PROJECTOR], ids=["desk", "projector"])
def test_each_replayed_frame_is_the_figure_of_its_example(mode, layout):
    story = story_for(mode)
    look = LOOKS[layout.lecture]
    figures = step_map_figures(story, 0, layout=layout, look=look)
    data = step_frames(story, 0, figures, keys=KEYS)
    by_key = {chart["key"]: chart for chart in data["charts"]}
    for name in ("image", "routed", "mean", "kernel"):
        chart = by_key[KEYS[name]]
        drawn = traces(figures[name][0])  # what the server sent at example #0
        for example, figure in enumerate(figures[name]):
            for trace, frames in chart["traces"].items():
                if trace in drawn:
                    drawn[trace] = {**drawn[trace], **frames[example]}
                elif frames[example].get("type"):
                    drawn[trace] = dict(frames[example])
            for trace, moved in marks_moved(chart, example).items():
                drawn[trace] = {**drawn[trace], **moved}
            wanted = traces(figure)
            for trace, attributes in wanted.items():
                assert {a: drawn[trace].get(a) for a in attributes} == attributes
            title = (chart["titles"] or [figures[name][0].layout.title.text])[example]
            assert title == figure.layout.title.text
    assert data["count"] == story.size


def test_the_winners_squares_go_as_their_cells_and_one_path():
    """The routed map's winner squares and their halo: each frame's winners' cells (the
    story's own) and the path drawn on each, not the squares' points."""
    story = story_for("max")
    figures = step_map_figures(story, 0, layout=DESK, look=LOOKS[0])
    data = step_frames(story, 0, figures, keys=KEYS)
    (routed,) = [c for c in data["charts"] if c["key"] == KEYS["routed"]]
    assert set(routed["marks"]["paths"]) == {"winner", "winner halo"}
    assert not set(routed["traces"]) & {"winner", "winner halo"}
    for example, flat in enumerate(routed["marks"]["cells"]):
        assert flat == [v for cell in story.winner_cells(example, 0) for v in cell]


@pytest.mark.parametrize("mode", ["max", "avg"])
def test_the_curve_marks_the_positions_reached_and_each_sentence_is_the_pages(mode):
    story = story_for(mode)
    figures = step_map_figures(story, 1, layout=DESK, look=LOOKS[0])
    data = step_frames(story, 1, figures, keys=KEYS)
    (line,) = [c["line"] for c in data["charts"] if c["key"] == KEYS["reached"]]
    assert line["y"] == [float(v) for v in story.positions_reached(1)]
    assert line["x"] == list(range(1, story.size + 1)) and line["grow"] is False
    for example, words in enumerate(data["words"]):
        assert words["sentence"] == step_sentence(story, 1, example)


@pytest.mark.parametrize("size", [64, 100, 128])
def test_a_big_batch_is_stepped_through_in_blocks_of_all_its_examples(size):
    """The blocks are the batch's examples, each once and in order, STEP_BLOCK at most."""
    blocks = step_blocks(size)
    assert [n for first, last in blocks for n in range(first, last)] == list(range(size))
    assert all(0 < last - first <= STEP_BLOCK for first, last in blocks)


def test_a_full_block_is_sent_well_under_the_page_budget():
    """A full block's frames (the most a page is sent: every block holds STEP_BLOCK
    examples at most), as Streamlit sends them (json.dumps: ASCII, a "−" six bytes),
    well under the page's 500 kB, on a desk and on the projector. One full block of a
    batch of 128 stands for every block: its frames grow with its examples alone."""
    story = story_for("max", size=128)
    block = step_blocks(story.size)[0]
    assert block[1] - block[0] == STEP_BLOCK
    for layout in (DESK, PROJECTOR):
        look = LOOKS[layout.lecture]
        figures = step_map_figures(story, 0, layout=layout, look=look, block=block)
        data = step_frames(story, 0, figures, keys=KEYS, block=block)
        assert data["count"] == STEP_BLOCK
        assert len(json.dumps(data)) < 300_000


@pytest.mark.parametrize("mode", ["max", "avg"])
def test_each_frames_text_twins_are_those_of_the_figure_of_its_example(mode):
    """The twins' parts the browser has for each example (sent, or taken from the
    cells trace's hover) are those the server's figure of that example holds."""
    story = story_for(mode)
    figures = step_map_figures(story, 0, layout=DESK, look=LOOKS[0])
    data = step_frames(story, 0, figures, keys=KEYS)
    by_key = {chart["key"]: chart for chart in data["charts"]}
    for name in ("image", "routed", "mean", "kernel"):
        chart = by_key[KEYS[name]]
        taken = chart["twins"].get("taken", {}).get("trace")
        for example, (said, figure) in enumerate(
            zip(frames_parts(chart["twins"]), figures[name], strict=True)
        ):
            if taken:
                numbers = chart["traces"][taken][example]["customdata"]
                said = [{**said[0], "cells": [text for row in numbers for text in row]}]
            assert said == [twin.parts() for twin in figure_twins(figure)], (name, example)
