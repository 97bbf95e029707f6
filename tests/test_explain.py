"""What the lab explains agrees with the backward pass it explains."""

import numpy as np
import pytest

from pooling import TIES, PoolConfig, backward, forward
from pooling.explain import coverage, ledger, shares
from pooling.geometry import plane_geometry


def test_coverage_counts_windows_per_cell():
    counts = coverage(PoolConfig("max", 3, stride=1, padding=1), 4, 4)
    assert counts.tolist() == [[4, 6, 6, 4], [6, 9, 9, 6], [6, 9, 9, 6], [4, 6, 6, 4]]
    # Floor mode drops the last row and column: nobody reads them.
    assert coverage(PoolConfig("avg", 2), 3, 3).tolist() == [[1, 1, 0], [1, 1, 0], [0, 0, 0]]


def test_window_cells_include_padding_unless_asked_for_real_ones():
    geometry = plane_geometry(PoolConfig("max", 3, stride=2, padding=1), 5, 5)
    everything = [(row, col) for row in (-1, 0, 1) for col in (-1, 0, 1)]
    assert list(geometry.window_cells((0, 0))) == everything
    assert list(geometry.window_cells((0, 0), real_only=True)) == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_adaptive_window_can_be_smaller_than_the_largest():
    geometry = plane_geometry(PoolConfig("avg", output_size=3), 5, 5)
    # rows and cols [0, 2), [1, 4), [3, 5): the corner window reads 4 cells, the middle 9
    assert geometry.window_cells((0, 0)) == ((0, 0), (0, 1), (1, 0), (1, 1))
    assert len(geometry.window_cells((1, 1))) == geometry.taps == 9


@pytest.mark.parametrize("ties", TIES)
@pytest.mark.parametrize("mode", ["max", "avg"])
def test_ledger_lines_add_up_to_the_gradient(mode, ties):
    rng = np.random.default_rng(4)
    x = rng.integers(0, 3, (5, 6)).astype(np.float64)
    config = PoolConfig(mode, 3, stride=1, padding=1, ties=ties)
    grad = rng.standard_normal(forward(x, config).output.shape)
    grad_x = backward(forward(x, config), grad)
    for cell in np.ndindex(x.shape):
        lines = ledger(x, grad, config, cell)
        assert sum(line.amount for line in lines) == pytest.approx(grad_x[cell], abs=1e-12)
        for line in lines:
            assert line.amount == line.share * line.upstream


def test_shares_are_one_map_per_output_cell():
    x = np.array([[1.0, 3.0], [2.0, 0.5]])
    maps = shares(x, PoolConfig("max", 2))
    assert maps.shape == (1, 1, 2, 2)
    assert maps[0, 0].tolist() == [[0, 1], [0, 0]]
    with pytest.raises(ValueError, match="one \\(H, W\\) plane"):
        shares(x[None], PoolConfig())


def test_window_cells_keep_padding_but_not_ceil_overhang():
    # 5 x 4 cells, kernel 3, stride 2, padding 1, ceil mode: windows start at -1, 1, 3
    # both ways. The last reads rows 3, 4 and 5 (padding) and columns 3, 4 (padding)
    # and 5, which lies past the padding: ceil mode's overhang, not a cell.
    geometry = plane_geometry(PoolConfig("max", 3, stride=2, padding=1, ceil_mode=True), 5, 4)
    assert geometry.output_shape == (3, 3)
    assert geometry.window_cells((0, 0)) == tuple((r, c) for r in (-1, 0, 1) for c in (-1, 0, 1))
    assert geometry.window_cells((2, 2)) == tuple((r, c) for r in (3, 4, 5) for c in (3, 4))
    assert geometry.window_cells((2, 2), real_only=True) == ((3, 3), (4, 3))
    no_padding = plane_geometry(PoolConfig("max", 2, stride=2, ceil_mode=True), 3, 3)
    assert no_padding.window_cells((1, 1)) == ((2, 2),)  # row and column 3: overhang


@pytest.mark.parametrize("include_pad, override", [(True, None), (False, None), (True, 5)])
def test_divisor_breakdown_agrees_with_the_divisor_and_the_loop(include_pad, override):
    config = PoolConfig(
        "avg", 3, stride=2, padding=1, ceil_mode=True,
        count_include_pad=include_pad, divisor_override=override,
    )  # fmt: skip
    x = np.ones((6, 5))
    geometry = plane_geometry(config, *x.shape)
    output = forward(x, config).output  # a mean of ones: real cells / divisor
    for out_cell in np.ndindex(*geometry.output_shape):
        parts = geometry.divisor_of(out_cell)
        assert parts.value == geometry.divisor[out_cell]
        assert parts.real_cells == len(geometry.window_cells(out_cell, real_only=True))
        assert parts.padded_cells == len(geometry.window_cells(out_cell))
        expected = override or (parts.padded_cells if include_pad else parts.real_cells)
        assert parts.value == expected and parts.override == (override is not None)
        assert output[out_cell] == pytest.approx(parts.real_cells / expected)


def test_argmax_cells_decode_the_engines_indices_into_rows_and_columns():
    from pooling.explain import argmax_cells

    x = np.random.default_rng(3).normal(size=(2, 3, 5, 7))
    result = forward(x, PoolConfig("max", 2, stride=1))
    cells = argmax_cells(result.argmax, 7)
    assert cells.shape == (*result.argmax.shape, 2)
    n, c, i, j = 1, 2, 3, 4
    row, col = cells[n, c, i, j]
    assert x[n, c, row, col] == result.output[n, c, i, j] and i <= row <= i + 1 <= 4
