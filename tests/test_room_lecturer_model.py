"""The lecturer's page, pure: the keys a browser gives back, the join link, the
question in words, every sentence the projector says about the answers (each count,
"no", "every" and share computed here from the answers themselves), the Playground's
link and the QR code. The bars and the projector's figures: test_room_figures.py."""

from __future__ import annotations

import re

import numpy as np
import pytest
import segno

from pooling import PoolConfig
from teaching import class_link
from teaching.class_mode import answers, questions
from teaching.class_mode import lecturer as model
from teaching.class_mode.questions import question_from_exercise, question_from_layer
from teaching.class_mode.tally import tally
from teaching.exercises.mistakes import known_mistakes
from ui.class_mode.lecturer.qr import qr_image
from ui.figures import style

SECRET = "A" * 43
OTHER = "b" * 43


# -- the keys this browser keeps ------------------------------------------------------------


@pytest.mark.parametrize(
    "stored",
    [None, "K7QX3M", {"code": "K7QX3M"}, [1, "x", None], [{"code": "K7QX3M"}]],
)
def test_stored_keys_that_are_not_a_list_of_rooms_give_none(stored):
    assert model.rooms_from_stored(stored) == []


def test_stored_keys_keep_valid_rooms_once_newest_first_at_most_five():
    stored = [
        {"code": "k7qx-3m", "secret": SECRET},  # typed form: normalised
        {"code": "K7QX3M", "secret": OTHER},  # the same room again: the first kept
        {"code": "OOOOOO", "secret": SECRET},  # O is not in the alphabet
        {"code": "AAAAAA", "secret": "short"},
        {"code": "AAAAAA", "secret": "<script>" * 4},
        *({"code": code * 6, "secret": OTHER} for code in "ACDEFGH"),
    ]
    ring = model.rooms_from_stored(stored)
    assert [key.code for key in ring] == ["K7QX3M", "AAAAAA", "CCCCCC", "DDDDDD", "EEEEEE"]
    assert ring[0].secret == SECRET
    assert model.rooms_to_stored(ring)[0] == {"code": "K7QX3M", "secret": SECRET}


def test_a_new_key_goes_first_and_replaces_its_room_s_old_one():
    old = [model.RoomKey("AAAAAA", SECRET), model.RoomKey("CCCCCC", SECRET)]
    ring = model.with_room(old, model.RoomKey("CCCCCC", OTHER))
    assert ring == [model.RoomKey("CCCCCC", OTHER), model.RoomKey("AAAAAA", SECRET)]
    session = [model.RoomKey("DDDDDD", OTHER)]
    assert [k.code for k in model.merged_rooms(session, old)] == ["DDDDDD", "AAAAAA", "CCCCCC"]
    assert model.secret_for(ring, "CCCCCC") == OTHER
    assert model.secret_for(model.without_room(ring, "CCCCCC"), "CCCCCC") is None


# -- the join link --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("page_url", "root"),
    [
        ("http://127.0.0.1:8501/class", "http://127.0.0.1:8501/"),
        ("https://lab.example.org/pool/class/", "https://lab.example.org/pool/"),
        ("http://h:1/", "http://h:1/"),
    ],
)
def test_the_app_root_drops_the_page_s_path(page_url, root):
    assert model.app_root(page_url, "class") == root
    assert model.join_link(root, "join", "K7QX3M") == f"{root}join?code=K7QX3M"


# -- the question in words -------------------------------------------------------------------


def test_a_cell_question_says_the_upstream_it_has():
    x = np.arange(16.0).reshape(4, 4)
    config = PoolConfig("max", 2)
    same = question_from_layer("cells", x=x, config=config, grad_output=np.full((2, 2), 2.5))
    assert "Every cell of y sends back dL/dy = 2.5." in model.question_words(same)
    mixed = question_from_layer("cells", x=x, config=config, grad_output=[[1.0, 2.0], [1.0, 1.0]])
    assert "Every cell of y sends back a positive dL/dy." in model.question_words(mixed)


# -- sentences about the answers ------------------------------------------------------------


@pytest.mark.parametrize(("share", "shown"), [(0, 0), (0.001, 1), (0.5, 50), (0.996, 99), (1, 100)])
def test_a_percent_never_says_none_of_some_nor_all_of_not_all(share, shown):
    assert answers.percent(share) == shown


def numbers_in(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


@pytest.mark.parametrize("count", [0, 1, 2, 7])
def test_the_count_sentence_counts_the_answers(count):
    question = question_from_exercise("value", level=1, seed=2, number=1)
    counted = tally(question, [question.answer] * count)
    for state in ("open", "closed"):
        sentence = answers.count_sentence(counted.count, state=state)
        if counted.count == 0:
            assert "No answers" in sentence or "nobody answered" in sentence
        else:
            assert numbers_in(sentence) == [counted.count]
            assert ("answers" in sentence) == (counted.count != 1)


def wrong_of(question, index: int = 0):
    return known_mistakes(question.problem)[index].answer


@pytest.mark.parametrize("kind", ["cells", "value", "size"])
@pytest.mark.parametrize(("right", "wrong"), [(0, 0), (1, 0), (0, 1), (3, 0), (0, 3), (2, 3)])
def test_the_right_sentence_is_true_for_the_answers(kind, right, wrong):
    question = question_from_exercise(kind, level=3, seed=5, number=2)
    given = [question.answer] * right + [wrong_of(question)] * wrong
    counted = tally(question, given)
    assert (counted.count, counted.right) == (right + wrong, right)  # counted, not typed
    sentence = answers.right_sentence(counted)
    if counted.count == 0:
        assert sentence.startswith("Nobody answered")
    elif counted.count == 1:
        assert sentence == (
            "The one answer is right." if counted.right else "The one answer is wrong."
        )
    elif counted.right == counted.count:
        assert sentence.startswith("Everyone is right") and numbers_in(sentence) == [counted.count]
    elif counted.right == 0:
        assert sentence.startswith("Nobody is right") and numbers_in(sentence) == [0, counted.count]
    else:
        share = round(100 * counted.right / counted.count)
        assert numbers_in(sentence) == [counted.right, counted.count, share]


def lines_total(lines: list[str]) -> int:
    """The answers the wrong-answer lines account for: each line's first count."""
    total = 0
    for line in lines:
        found = re.search(r"(\d+) (?:more |wrong )?answers?\b", line)
        total += int(found.group(1))
    return total


@pytest.mark.parametrize("kind", ["cells", "value", "size"])
def test_the_wrong_lines_name_each_mistake_with_its_count_and_sum_to_the_wrong(kind):
    question = question_from_exercise(kind, level=3, seed=5, number=2)
    mistakes = known_mistakes(question.problem)
    other = (7.77 if kind == "value" else (60, 60)) if kind != "cells" else frozenset({(0, 0)})
    given = [question.answer, other, other] + [m.answer for m in mistakes[:5] for _ in range(2)]
    counted = tally(question, given)
    lines = answers.wrong_lines(question, counted)
    assert lines_total(lines) == counted.count - counted.right
    named = [w for w in counted.wrong if w.mistake is not None]
    for line, wrong in zip(lines, named[: answers.MOST_NAMED], strict=False):
        assert line.startswith(f"{wrong.count} answer") and wrong.how_all in line
    if counted.other:
        assert f"Other: {counted.other} wrong answer" in lines[-1]


def test_mistakes_that_pick_the_same_cells_are_named_together_on_the_projector():
    # x = 1 2 2, windows 1×2 at stride 1, ties "first": right {(0, 1)}; "last",
    # "split" and "all" all give {(0, 1), (0, 2)} (worked in test_room_tally.py).
    question = question_from_layer(
        "cells", x=[[1, 2, 2]], config=PoolConfig("max", (1, 2), stride=1),
        grad_output=np.ones((1, 2)),
    )  # fmt: skip
    both = frozenset({(0, 1), (0, 2)})
    first = tally(question, [both, both, question.answer])
    (line,) = answers.wrong_lines(question, first)
    assert line == (
        "2 answers: the cells you get if you break ties by another rule (last, split "
        "evenly, or all)."
    )
    second = tally(question, [both, question.answer, question.answer])
    (moved,) = answers.shift_lines(question, first, second)
    assert moved == (
        "The cells, what you get if you break ties by another rule (last, split evenly, or "
        "all): 2 → 1."
    )


def test_the_wrong_picks_are_the_cells_picked_that_get_no_gradient_and_the_legend_counts_them():
    # The 4x4 grid of test_room_tally.py: right {(1,0), (0,2), (3,0), (2,2)}; "last"
    # adds (1, 3) and (3, 1), which get no gradient under "first".
    question = question_from_layer(
        "cells", x=[[1, 3, 2, 0], [4, 2, 1, 2], [0, 1, 5, 3], [2, 2, 4, 1]],
        config=PoolConfig("max", 2), grad_output=np.ones((2, 2)),
    )  # fmt: skip
    right = question.answer
    last = frozenset({(1, 0), (1, 3), (3, 1), (2, 2)})
    first = tally(question, [right, last, last])
    assert answers.wrong_picks(question, first) == ((1, 3), (3, 1))
    assert not set(answers.wrong_picks(question, first)) & right
    everything = tally(question, [frozenset(np.ndindex(4, 4))])
    assert len(answers.wrong_picks(question, everything)) == 16 - 4
    assert answers.share_legend(question, first) == (
        "Outlined: the cells that get gradient. Dashed: picked, but gets none (2 cells)."
    )
    second = tally(question, [right, right, right])
    assert answers.wrong_picks(question, second) == ()
    assert answers.share_legend(question, second) == "Outlined: the cells that get gradient."
    assert answers.vote_title("First vote", question, first) == "First vote (dashed: wrong)"
    assert answers.vote_title("Second vote", question, second) == "Second vote"
    value = question_from_exercise("value", level=2, seed=1, number=4)
    assert answers.wrong_picks(value, tally(value, [1.0])) == ()


def test_no_wrong_lines_when_everyone_is_right_and_other_counts_unknown_answers():
    question = question_from_exercise("value", level=2, seed=1, number=4)
    assert answers.wrong_lines(question, tally(question, [question.answer] * 4)) == []
    strange = tally(question, [123.45, 123.45])
    assert answers.wrong_lines(question, strange) == [
        "Other: 2 wrong answers no known mistake gives."
    ]


def test_the_shift_says_each_vote_s_share_and_each_mistake_before_and_after():
    question = question_from_exercise("value", level=2, seed=1, number=4)
    mistake = known_mistakes(question.problem)[0]
    first = tally(question, [question.answer] + [mistake.answer] * 3)
    second = tally(question, [question.answer] * 3 + [mistake.answer])
    sentence = answers.shift_sentence(first, second)
    assert numbers_in(sentence) == [first.right, first.count, 25, second.right, second.count, 75]
    (line,) = answers.shift_lines(question, first, second)
    assert line.endswith(": 3 → 1.") and mistake.how in line
    empty = tally(question, [])
    assert answers.shift_sentence(empty, second).startswith("Right: no answers in the first vote")


# -- the Playground's link and the QR code -----------------------------------------------


def test_the_link_s_largest_grid_is_the_question_s():
    assert class_link.LARGEST_SIDE is questions.LARGEST_SIDE  # one home: questions


def test_the_ask_link_carries_x_and_dl_dy_back_exactly_and_says_why_not():
    x = np.array([[1.5, -2.0, 3.0], [0.25, 4.0, 1e-3]])
    grad = np.array([[2.5]])
    params = class_link.ask_params(x, grad, {"mode": "max", "kh": "2"})
    assert params["mode"] == "max"
    back_x, back_grad = class_link.read_layer_grids(params)
    assert np.array_equal(back_x, x) and np.array_equal(back_grad, grad)
    assert class_link.read_layer_grids({"mode": "max"}) is None
    with pytest.raises(ValueError, match="gy"):
        class_link.read_layer_grids({"x": "1,2"})
    assert class_link.why_not_asked((8, 8), np.ones((4, 4))) is None
    assert "9×8" in class_link.why_not_asked((9, 8), np.ones((4, 4)))
    assert "positive" in class_link.why_not_asked((4, 4), np.array([[1.0, 0.0]]))
    assert "positive" in class_link.why_not_asked((4, 4), np.array([[1.0, -1.0]]))


def test_the_qr_code_is_at_least_as_big_as_asked_in_whole_pixels_per_module():
    image = qr_image(
        "http://127.0.0.1:8501/join?code=K7QX3M",
        least_px=style.QR_LEAST_PX,
        dark=style.QR_DARK,
        light=style.QR_LIGHT,
        border=style.QR_MODULE_BORDER,
    )
    assert image.svg.startswith("<svg") and f'width="{image.side}"' in image.svg
    assert style.QR_LEAST_PX <= image.side < 1.2 * style.QR_LEAST_PX
    # The standard's quiet zone, 4 modules on each side, in the image's whole pixels.
    symbol = segno.make_qr("http://127.0.0.1:8501/join?code=K7QX3M", error="m")
    modules = symbol.symbol_size(border=0)[0] + 2 * 4
    assert style.QR_MODULE_BORDER == 4 and image.side % modules == 0


@pytest.mark.parametrize(
    ("link", "typed"),
    [
        ("http://127.0.0.1:8501/join?code=K7QX3M", "127.0.0.1:8501/join?code=K7QX3M"),
        ("https://lab.example.edu/pool/join?code=K7QX3M", "lab.example.edu/pool/join?code=K7QX3M"),
    ],
)
def test_the_link_to_type_is_the_join_link_without_its_scheme(link, typed):
    assert model.typed_link(link) == typed


def test_the_shift_sums_every_wrong_answer_it_does_not_name():
    question = question_from_exercise("value", level=3, seed=5, number=2)
    named = [m.answer for m in known_mistakes(question.problem)]
    first = tally(question, [named[0]] * 3 + [named[1]] * 2 + [named[2], 555.0])
    second = tally(question, [question.answer] * 5 + [named[2], 555.0])
    lines = answers.shift_lines(question, first, second)
    assert len(lines) == answers.MOST_NAMED + 1
    listed = [numbers_in(line.rsplit(":", 1)[1]) for line in lines[:-1]]
    rest = numbers_in(lines[-1])
    assert lines[-1].startswith("Other wrong answers")
    assert sum(b for b, _ in listed) + rest[0] == first.count - first.right
    assert sum(a for _, a in listed) + rest[1] == second.count - second.right
