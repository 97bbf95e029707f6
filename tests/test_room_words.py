"""The question's layer in words (teaching/layer_words.py), said the same on the projector
and on a student's phone: every setting that shapes the answer named, the tie rule
exactly where a window of x has a tie, what cannot change the answer left out."""

from __future__ import annotations

from itertools import product

import numpy as np

from pooling import TIES, PoolConfig, backward, forward
from teaching import layer_words as words

TIED = np.array(
    [[4.0, 4.0, 1.0, 0.0], [2.0, 0.0, 3.0, 3.0], [5.0, 1.0, 2.0, 2.0], [5.0, 5.0, 2.0, 0.0]]
)
DISTINCT = np.arange(16.0).reshape(4, 4)


def test_the_tie_rule_is_named_exactly_when_a_window_of_x_has_a_tie():
    for ties, kernel, stride in product(TIES, (2, 3), (1, 2)):
        for x in (TIED, DISTINCT):
            config = PoolConfig("max", kernel, stride=stride, ties=ties)
            result = forward(x, config)
            windows_with_a_tie = any(
                np.count_nonzero(
                    x[r * stride : r * stride + kernel, c * stride : c * stride + kernel] == value
                )
                > 1
                for (r, c), value in np.ndenumerate(result.output)
            )
            assert words.ties_matter(x, config) == windows_with_a_tie
            assert ("on a tie" in words.layer_words(config, x)) == windows_with_a_tie
    assert not words.ties_matter(TIED, PoolConfig("avg", 2))


def test_the_layer_words_name_each_setting_that_shapes_the_question():
    said = words.layer_words(
        PoolConfig("avg", 3, stride=2, padding=1, count_include_pad=False), DISTINCT
    )
    assert said == (
        "average pooling, window 3×3, stride 2, padding 1, the divisor does not count padding cells"
    )
    counted = words.layer_words(PoolConfig("avg", 3, stride=1, padding=1), DISTINCT)
    assert counted.endswith("the divisor counts padding cells")
    override = words.layer_words(PoolConfig("avg", 2, divisor_override=3), DISTINCT)
    assert override.endswith("every window divides by 3") and "padding" not in override
    assert (
        words.layer_words(PoolConfig("avg", 2), DISTINCT) == "average pooling, window 2×2, stride 2"
    )
    wide = words.layer_words(
        PoolConfig("max", (2, 3), stride=(1, 2), dilation=(1, 2), ceil_mode=True), DISTINCT
    )
    assert wide == "max pooling, window 2×3, stride (1, 2), dilation (1, 2), ceil mode"
    assert words.layer_words(PoolConfig("max", output_size=1), DISTINCT).startswith(
        "global max pooling"
    )
    assert "output of 2 × 3" in words.layer_words(PoolConfig("avg", output_size=(2, 3)), DISTINCT)


def test_a_setting_that_cannot_change_the_answer_is_left_out():
    """The divisor scales amounts (not which cells get some, nor the size); no tie rule
    changes an output size."""
    padded = PoolConfig("avg", 3, stride=2, padding=1, count_include_pad=False)
    assert "divisor" in words.layer_words(padded, DISTINCT, kind="value")
    for kind in ("cells", "size"):
        assert "divisor" not in words.layer_words(padded, DISTINCT, kind=kind)
    tied = PoolConfig("max", 2, ties="split")
    assert "on a tie" in words.layer_words(tied, TIED, kind="cells")
    assert "on a tie" not in words.layer_words(tied, TIED, kind="size")
    cells = {kind: frozenset() for kind in ("first", "split")}
    for rule in cells:
        grad = backward(forward(TIED, PoolConfig("max", 2, ties=rule)), np.ones((2, 2)))
        cells[rule] = frozenset(zip(*np.nonzero(grad), strict=True))
    assert cells["first"] != cells["split"]  # so the rule matters for cells
    for include in (True, False):  # the divisor does not: the same cells get gradient
        config = PoolConfig("avg", 3, stride=2, padding=1, count_include_pad=include)
        grad = backward(forward(DISTINCT, config), np.ones((2, 2)))
        assert np.count_nonzero(grad) == DISTINCT.size


def test_what_y_sends_back_is_said_as_it_is():
    assert words.upstream_words(np.ones((2, 2))) == "Every cell of y sends back dL/dy = 1."
    assert words.upstream_words(np.full((2, 2), 0.5)) == "Every cell of y sends back dL/dy = 0.5."
    assert "positive" in words.upstream_words(np.array([[1.0, 2.0]]))
