"""The Batch page's Winners tab: each sentence's facts computed again from the batch
(teaching/batch/winners.py), and the tab through AppTest at the first seed's size."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from apptest import decode, errors, figure_titled, no_exceptions, open_app
from test_text_truth_batch import batch_settings

from pooling import PoolConfig, forward
from teaching.batch.story import build_batch_story
from teaching.batch.winners import (
    picks_sentence,
    split_comparison,
    split_sentence,
    window_rows,
    windows_of,
)

BATCH = "screens/batch.py"
SEED_LINK = {"n": "100", "tab": "winners"}


def seed_story(**changes):
    return build_batch_story(batch_settings(size=100, **changes))


def argmax_winners(story, feature: int, window) -> dict[tuple[int, int], int]:
    """{cell: examples} from PyTorch's stored argmax of each example (rule "first")."""
    argmax = forward(story.trace.activation, story.config.pool).argmax
    width = story.trace.activation.shape[3]
    found: dict[tuple[int, int], int] = {}
    for index in argmax[:, feature, window[0], window[1]]:
        cell = divmod(int(index), width)
        found[cell] = found.get(cell, 0) + 1
    return found


@pytest.mark.parametrize("feature", [0, 1])
def test_the_picks_sentence_counts_the_distinct_winners_of_each_window(feature):
    story = seed_story()
    for window in windows_of(story):
        found = argmax_winners(story, feature, window)
        rows = window_rows(story, feature, window)
        assert {row.cell: row.examples for row in rows} == found
        assert sum(row.share for row in rows) == pytest.approx(1.0)
        said = picks_sentence(story, feature, window)
        assert f"Window {window}, kernel {feature}:" in said
        if len(found) > 1:
            assert f"{len(found)} distinct cells won it across the 100 examples" in said
        else:
            assert f"one cell, {next(iter(found))}, won it in all 100 examples" in said
        assert "only to its own winner;" in said  # one winner each: the rule "first"
        assert len(said.split()) <= 35


def test_each_row_received_the_sum_of_its_examples_upstream_gradient():
    story = seed_story()
    argmax = forward(story.trace.activation, story.config.pool).argmax
    window = story.winners.busiest_window(0)
    upstream = story.grads.at_pool_output[:, 0, window[0], window[1]]
    for row in window_rows(story, 0, window):
        picked = argmax[:, 0, window[0], window[1]] == row.cell[0] * 6 + row.cell[1]
        assert row.received == pytest.approx(upstream[picked].sum(), abs=1e-12)


def test_tied_winners_are_said_as_the_tie_rule_shares_them():
    network = replace(batch_settings().network, pool=PoolConfig("max", 2, ties="split"))
    story = build_batch_story(batch_settings(size=20, network=network))
    tied = [
        window
        for window in windows_of(story)
        if story.winners.counts[(0, *window)].sum() > story.size
    ]
    assert tied  # ReLU's zeros tie
    assert "only to its own winners (tied cells share" in picks_sentence(story, 0, tied[0])


def test_the_split_sentence_states_the_gaps_it_shows():
    story = seed_story()
    compared = split_comparison(story, 0)
    numeric = story.numeric_kernels[0, 0]
    even_gap = np.abs(story.split_kernels["even"][0] - numeric).max()
    said = split_sentence(story, 0)
    assert compared.split_gap == even_gap > 1e-3
    assert f"by up to {even_gap:.2g}" in said
    assert f"(the right way: {np.abs(story.right_kernels[0] - numeric).max():.1e})" in said
    assert "does not change L_n" in said and len(said.split()) <= 40


def test_with_one_example_every_window_has_one_winner_and_the_ways_agree():
    network = replace(batch_settings().network, relu=False)  # ReLU's zeros would tie
    story = build_batch_story(batch_settings(size=1, network=network))
    said = split_sentence(story, 0)
    assert said.startswith("Every window of kernel 0 has one winner across the batch")
    assert np.array_equal(story.split_kernels["even"], story.right_kernels)


def test_the_seed_link_opens_the_winners_tab_at_100_digits():
    app = open_app(BATCH, SEED_LINK)
    assert no_exceptions(app) and errors(app) == []
    story = seed_story()
    window = story.winners.busiest_window(0)
    text = "\n".join(md.value for md in app.markdown)
    assert picks_sentence(story, 0, window) in text
    assert split_sentence(story, 0) in text
    picks = figure_titled(app, "examples that picked each cell")
    (cells,) = [trace for trace in picks["data"] if trace.get("type") == "heatmap"]
    np.testing.assert_array_equal(decode(cells["z"]), story.winners.plane_counts(0))
    table = app.table[0].value
    assert table["examples"].sum() == 100


def test_another_window_is_counted_when_picked():
    app = open_app(BATCH, SEED_LINK)
    app.selectbox(key="bt_window").set_value((2, 1)).run()
    assert no_exceptions(app)
    story = seed_story()
    text = "\n".join(md.value for md in app.markdown)
    assert picks_sentence(story, 0, (2, 1)) in text


def test_lecture_mode_walks_the_two_screens():
    app = open_app(BATCH, {**SEED_LINK, "lecture": "1", "screen": "2"})
    assert no_exceptions(app) and errors(app) == []
    text = "\n".join(md.value for md in app.markdown)
    assert "**2 of 2** · Split over every winner?" in text
    assert split_sentence(seed_story(), 0) in text


def test_average_pooling_says_there_is_nothing_to_count():
    app = open_app(BATCH, {**SEED_LINK, "mode": "avg"})
    assert no_exceptions(app) and errors(app) == []
    assert any("Average pooling picks no cell" in md.value for md in app.markdown)


@pytest.mark.parametrize(
    "page, query, lecture",
    [
        (None, {}, False),
        ("screens/lesson.py", {"step": "7"}, False),
        ("screens/lesson.py", {"step": "7", "lecture": "1"}, True),
    ],
    ids=["home", "lesson", "lesson-lecture"],
)
def test_home_and_the_lessons_batch_step_link_to_the_seeds_batch(page, query, lecture):
    app = open_app(page, query)
    assert no_exceptions(app)
    (link,) = [
        l.proto for l in app.get("page_link") if l.proto.page == "batch" and "100" in l.proto.label
    ]
    assert link.query_string == "n=100&tab=winners" + ("&lecture=1" if lecture else "")


def test_the_other_lesson_steps_do_not_link_to_it():
    app = open_app("screens/lesson.py", {"step": "8"})
    assert not [l for l in app.get("page_link") if "100" in l.proto.label]
