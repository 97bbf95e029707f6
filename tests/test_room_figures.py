"""The projector's figures and bars, pure: the share map's percents and the answer's
outline, the bars counting every answer and marking the right one only once revealed,
two votes over the same answers, and an 8x8 map's numbers at lecture size."""

from __future__ import annotations

import numpy as np
import pytest
from test_figure_style import SIMULATIONS, seen

from teaching.class_mode import answers
from teaching.class_mode.projector import share_percents
from teaching.class_mode.questions import question_from_exercise
from teaching.class_mode.tally import tally
from teaching.exercises.mistakes import known_mistakes
from ui.figures import class_answers as room_figures
from ui.figures import style
from ui.figures.class_answers import ShareOptions
from ui.figures.labels import LINE_EM, label_px
from ui.figures.look import Look, styled
from ui.figures.sizes import drawn_cell_px
from ui.shared.twin import figure_twins


def wrong_of(question, index: int = 0):
    """The answer the question's `index`-th known mistake gives."""
    return known_mistakes(question.problem)[index].answer


# -- bars ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["value", "size"])
def test_the_bars_count_every_answer_and_mark_the_right_one_only_once_revealed(kind):
    question = question_from_exercise(kind, level=3, seed=5, number=2)
    given = [wrong_of(question), wrong_of(question), wrong_of(question, 1)]
    counted = tally(question, given)
    hidden = answers.bars(question, counted, revealed=False)
    assert sum(bar.count for bar in hidden) == counted.count
    assert not any(bar.right for bar in hidden) and all(bar.count for bar in hidden)
    shown = answers.bars(question, counted, revealed=True)
    (right,) = [bar for bar in shown if bar.right]
    assert right.count == counted.right == 0  # there, at 0: the answer is revealed
    assert [bar.order for bar in shown] == sorted(bar.order for bar in shown)


def test_past_ten_answers_the_rarest_are_summed_in_others():
    question = question_from_exercise("value", level=1, seed=2, number=1)
    given = [100.0 + n for n in range(15) for _ in range(1 + (n < 5))]
    counted = tally(question, given)
    found = answers.bars(question, counted, revealed=False)
    assert len(found) == answers.MOST_BARS and found[-1].label == "others"
    assert sum(bar.count for bar in found) == len(given)


# -- the figures -----------------------------------------------------------------------------


def test_the_share_map_writes_each_percent_and_outlines_the_answer_only_when_given():
    percents = np.array([[0, 50], [100, 25]])
    figure = room_figures.share_map(percents, title="share")
    (heatmap,) = [trace for trace in figure.data if trace.type == "heatmap"]
    assert np.array_equal(np.asarray(heatmap.z), percents)
    assert (heatmap.zmin, heatmap.zmax) == (0, 100) and heatmap.colorscale[-1][
        1
    ] == style.SHARE_SCALE[-1][1]
    assert list(np.asarray(heatmap.text).ravel()) == ["0", "50", "100", "25"]
    assert not [trace for trace in figure.data if trace.name == "answer"]
    revealed = room_figures.share_map(
        percents, title="share", options=ShareOptions(answer_cells=((0, 1), (1, 1)))
    )
    assert [trace.name for trace in revealed.data if trace.type == "scatter"] == [
        "answer halo",
        "answer",
    ]


@pytest.mark.parametrize("width", [style.ROOM_MAP_PX, style.ROOM_PAIR_MAP_PX])
def test_in_lecture_an_8_by_8_share_map_fits_its_column_with_20_px_numbers(width):
    figure = room_figures.share_map(
        np.full((8, 8), 100), title="share", options=ShareOptions(width_px=width), lecture=True
    )
    drawn = styled(figure, Look(lecture=True))
    cell = drawn_cell_px(drawn)
    font = drawn.data[0].textfont.size
    assert font >= 20
    assert cell - 2 >= font * 0.556 * 3  # "100" fits its cell
    margin = drawn.layout.margin
    assert 8 * cell + margin.l + margin.r <= width


def test_the_bars_are_green_only_where_right_and_ticked():
    figure = room_figures.answer_bars(("1", "2.5"), (3, 2), (False, True), title="answers")
    (bar,) = figure.data
    assert list(bar.marker.color) == [style.BAR_COLOUR, style.RIGHT_BAR_COLOUR]
    assert list(figure.layout.xaxis.ticktext) == ["1", "2.5 ✓"]
    assert list(bar.y) == [3, 2] and list(bar.text) == ["3", "2"]


# -- the text twins ----------------------------------------------------------------------


def bars_figure(question, counted, *, revealed: bool):
    """The projector's bars of `counted`, built as the Class page builds them."""
    found = answers.bars(question, counted, revealed=revealed)
    return room_figures.answer_bars(
        tuple(bar.label for bar in found),
        tuple(bar.count for bar in found),
        tuple(bar.right for bar in found),
        title="Answers given",
    )


def test_the_bars_twin_is_a_table_of_answer_count_and_share_of_the_same_tally():
    question = question_from_exercise("value", level=3, seed=5, number=2)
    given = [wrong_of(question)] * 3 + [question.answer] * 2 + [555.0]
    counted = tally(question, given)
    for revealed in (False, True):
        (twin,) = figure_twins(bars_figure(question, counted, revealed=revealed))
        found = answers.bars(question, counted, revealed=revealed)
        assert twin.name == "Answers given"
        assert twin.headers == (tuple(bar.label for bar in found), ("count", "share"))
        for row, bar in enumerate(found):
            share = round(100 * bar.count / len(given))
            assert twin.cells[row] == (str(bar.count), f"{share} %")
        right_rows = [row for row, bar in enumerate(found) if bar.right]
        assert twin.marks.get(answers.RIGHT_ANSWER, ()) == tuple((row, 0) for row in right_rows)
        assert len(right_rows) == revealed
    most = max(found, key=lambda bar: bar.count)
    assert most.count == 3 and counted.right == 2
    assert twin.summary() == (
        f"Answers given: 6 answers over {len(found)} bars; most given: {most.label} (3, 50 %); "
        f"the right answer: {answers.bar_label(question, question.answer)} (2, 33 %)."
    )
    assert twin.cell_text(right_rows[0], 0) == "2, the right answer"


def test_the_bars_twin_says_no_most_given_on_a_tie_nor_a_share_of_no_answers():
    question = question_from_exercise("value", level=3, seed=5, number=2)
    tied = tally(question, [wrong_of(question), question.answer])
    (twin,) = figure_twins(bars_figure(question, tied, revealed=False))
    assert "most given" not in twin.summary() and "right answer" not in twin.summary()
    (empty,) = figure_twins(bars_figure(question, tally(question, []), revealed=True))
    assert empty.cells == (("0", "0 %"),)
    assert empty.summary().startswith("Answers given: 0 answers over 1 bar; the right answer:")


def test_the_share_maps_twin_marks_the_wrong_picks_the_map_frames():
    question = question_from_exercise("cells", level=3, seed=5, number=2)
    counted = tally(question, [frozenset(question.answer), frozenset(wrong_of(question))])
    wrong = answers.wrong_picks(question, counted)
    assert wrong  # the mistake's cells are not all the answer's
    figure = room_figures.share_map(
        share_percents(counted),
        title="share",
        options=ShareOptions(answer_cells=tuple(sorted(question.answer)), wrong_cells=wrong),
    )
    (twin,) = figure_twins(figure)
    framed = {trace.name for trace in figure.data}
    assert "wrong" in framed
    assert twin.marks[room_figures.WRONG_PICK] == wrong
    assert twin.marks[room_figures.GETS_GRADIENT] == tuple(sorted(question.answer))
    row, col = wrong[0]
    share = share_percents(counted)[row, col]
    assert twin.cell_text(row, col) == f"{share} % picked it, wrong pick"
    assert "wrong pick: " in twin.summary()
    (plain,) = figure_twins(room_figures.share_map(share_percents(counted), title="s"))
    assert not plain.marks  # nothing marked until revealed


def test_two_votes_bars_stand_over_the_same_answers_and_sum_to_each_vote():
    question = question_from_exercise("value", level=3, seed=5, number=2)
    first = tally(question, [wrong_of(question), wrong_of(question), 555.0])
    second = tally(question, [question.answer, question.answer, wrong_of(question, 1)])
    before, after = answers.paired_bars(question, first, second, revealed=True)
    assert [bar.label for bar in before] == [bar.label for bar in after]
    assert sum(bar.count for bar in before) == first.count
    assert sum(bar.count for bar in after) == second.count
    assert [bar.right for bar in before] == [bar.right for bar in after]


# -- the cells picked that get no gradient ------------------------------------------------


def test_wrong_picks_are_framed_under_the_answer_s_outline_only_when_given():
    percents = np.array([[0, 50], [100, 25]])
    plain = room_figures.share_map(
        percents, title="share", options=ShareOptions(answer_cells=((1, 0),))
    )
    assert not [trace for trace in plain.data if trace.name.startswith("wrong")]
    figure = room_figures.share_map(
        percents,
        title="share",
        options=ShareOptions(answer_cells=((1, 0),), wrong_cells=((0, 1), (1, 1))),
    )
    names = [trace.name for trace in figure.data if trace.type == "scatter"]
    assert names == ["wrong edge", "wrong", "answer halo", "answer"]
    (core,) = [trace for trace in figure.data if trace.name == "wrong"]
    assert core.line.dash == style.WRONG_DASH and core.line.color == style.WRONG_COLOUR
    assert core.line.color != style.OUTLINE_COLOUR  # not the answer's outline
    closed = [i for i, x in enumerate(core.x) if x is None]
    assert len(closed) == 2  # one closed square per wrong cell
    square = list(zip(core.x[: closed[0]], core.y[: closed[0]], strict=True))
    assert square == [(0.5, -0.5), (1.5, -0.5), (1.5, 0.5), (0.5, 0.5), (0.5, -0.5)]


@pytest.mark.parametrize("width, tall", [
    (style.ROOM_MAP_PX, style.ROOM_MAP_MOST_PX), (style.ROOM_PAIR_MAP_PX, style.ROOM_PAIR_MOST_PX),
])  # fmt: skip
@pytest.mark.parametrize("lecture", [False, True])
def test_a_wrong_pick_s_frame_never_reaches_the_percent_in_its_cell(width, tall, lecture):
    """The frame's lines, centred on the cell's edges, reach WRONG_REACH_PX into it
    (CSS px: lines are not scaled); the widest percent, "100", centred, leaves more
    than that on each side and above and below, on every grid a room asks (1 to 8
    rows and columns), drawn as the projector draws it."""
    for rows in range(1, 9):
        for cols in range(1, 9):
            figure = room_figures.share_map(
                np.full((rows, cols), 100), title="share",
                options=ShareOptions(width_px=width, tall_px=tall, wrong_cells=((0, 0),)),
                lecture=lecture,
            )  # fmt: skip
            drawn = styled(figure, Look(lecture=lecture))
            cell = drawn_cell_px(drawn)
            font = drawn.data[0].textfont.size
            across = (cell - label_px("100", font)) / 2
            down = (cell - LINE_EM * font) / 2
            assert min(across, down) >= style.WRONG_REACH_PX, (rows, cols, cell, font)
            (core,) = [t for t in drawn.data if t.name == "wrong"]
            (edge,) = [t for t in drawn.data if t.name == "wrong edge"]
            assert edge.line.width / 2 == style.WRONG_REACH_PX  # unscaled, as assumed
            assert core.line.width < edge.line.width


@pytest.mark.parametrize("eyes", SIMULATIONS)
def test_a_wrong_pick_s_frame_shows_on_every_share_colour(eyes):
    """Its light core or its black line stands out on each share colour (a dark
    figure keeps its cells' colours: the frame sits on the cells in either theme)."""
    for _, cell in style.SHARE_SCALE:
        cell_l = seen(cell, eyes)[0]
        core = abs(cell_l - seen(style.WRONG_COLOUR, eyes)[0])
        edge = abs(cell_l - seen(style.ANSWER_EDGE, eyes)[0])
        assert max(core, edge) > 45, cell
