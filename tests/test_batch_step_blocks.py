"""The Batch step-through of a batch past STEP_BLOCK examples (AppTest): it plays one
block at a time, picked by name; the slider, the count, the maps and the link name the
batch's own examples; a link the browser wrote opens at its example."""

from __future__ import annotations

import pytest
from apptest import component_data, figure_titled, no_exceptions, open_app

from ui.batch.step_frames import STEP_BLOCK, block_of, block_words, step_blocks

BATCH = "screens/batch.py"
PICKER = "bt_step_block"


def player(app) -> dict:
    return component_data(app, "bt_frames")


def shown_example(app) -> int:
    """The example the page draws: the player's frame, numbered from its block's first."""
    data = player(app)
    return data["frames"]["first"] - 1 + data["position"]


@pytest.mark.parametrize("size", [1, 50, 51, 100, 128])
def test_the_blocks_cover_the_batch_once_each_at_most_a_block_long(size):
    blocks = step_blocks(size)
    covered = [example for first, last in blocks for example in range(first, last)]
    assert covered == list(range(size))
    assert all(0 < last - first <= STEP_BLOCK for first, last in blocks)
    assert all(block_of(example, size) == blocks[example // STEP_BLOCK] for example in covered)


def test_a_batch_of_100_plays_the_block_of_the_linked_example():
    app = open_app(BATCH, {"n": "100", "tab": "step", "ex": "60"})
    assert no_exceptions(app)
    frames = player(app)["frames"]
    assert (frames["count"], frames["first"], player(app)["position"]) == (50, 51, 10)
    assert shown_example(app) == 60 and frames["link"] == "at"
    assert frames["labels"]["count"] == "Example {n} of 100"
    # The block's frames are its examples #50…#99: their sentences and the map drawn.
    assert "examples #0…#50 have reached" in frames["words"][0]["sentence"]
    assert "examples #0…#99 have reached" in frames["words"][-1]["sentence"]
    assert figure_titled(app, "#60 routes") and figure_titled(app, "mean of #0…#60")
    picker = app.radio(key=PICKER)
    assert picker.label == "Examples stepped through" and picker.value == (50, 100)
    assert picker.options == ["#0–#49", "#50–#99"]
    assert picker.help.startswith(f"{STEP_BLOCK} examples at a time")
    assert (app.query_params["ex"], app.query_params["at"]) == ("60", "10")


def test_the_reached_curve_is_the_blocks_with_its_point_at_the_example():
    app = open_app(BATCH, {"n": "100", "tab": "step", "ex": "60"})
    (line,) = [c["line"] for c in player(app)["frames"]["charts"] if c["key"] == "bt_fig_reached"]
    assert line["x"] == list(range(51, 101))  # examples in the batch so far
    curve = figure_titled(app, "Positions that received any gradient")
    now = next(trace for trace in curve["data"] if trace.get("name") == "now")
    assert list(now["x"]) == [61] and list(now["y"]) == [line["y"][10]]


def test_picking_the_last_block_starts_it_at_its_first_example():
    app = open_app(BATCH, {"n": "128", "tab": "step", "ex": "3"})
    assert app.radio(key=PICKER).value == (0, 50)
    app.radio(key=PICKER).set_value((100, 128)).run()
    assert no_exceptions(app)
    frames = player(app)["frames"]
    assert (frames["count"], frames["first"], player(app)["position"]) == (28, 101, 0)
    assert figure_titled(app, "#100 routes")
    assert block_words((100, 128)) == "#100–#127"
    assert (app.query_params["ex"], app.query_params["at"]) == ("100", "0")


def test_a_link_the_browser_wrote_in_a_block_opens_at_its_example():
    """The browser writes the place in the block (at) as it steps; ex stays the one the
    server last knew, in the same block: the link names #50 + 12."""
    app = open_app(BATCH, {"n": "100", "tab": "step", "ex": "55", "at": "12"})
    assert no_exceptions(app) and shown_example(app) == 62
    assert figure_titled(app, "#62 routes")


def test_a_batch_of_one_block_has_no_picker_and_links_the_example():
    app = open_app(BATCH, {"n": "50", "tab": "step", "ex": "49", "at": "3"})
    assert no_exceptions(app) and shown_example(app) == 49
    assert not [box for box in app.radio if box.key == PICKER]
    assert player(app)["frames"]["link"] == "ex" and "at" not in app.query_params
