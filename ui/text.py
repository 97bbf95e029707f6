"""Sentences and formulas with the current numbers filled in (pure)."""

from __future__ import annotations

from pooling import PoolConfig
from pooling.geometry import AXIS_NAMES, output_length, rounded_length

from .numbers import fmt


def size_formula(config: PoolConfig, height: int, width: int) -> list[str]:
    """LaTeX, one line per axis: PyTorch's output size with the numbers in."""
    lines = []
    for axis, size in enumerate((height, width)):
        symbol = "H" if axis == 0 else "W"
        if config.adaptive:
            lines.append(
                rf"\text{{{AXIS_NAMES[axis]}}}:\ {symbol}_{{out}} = {config.output_size[axis]}"
                r"\ \text{(adaptive: chosen)}"
            )
            continue
        k, s = config.kernel_size[axis], config.stride[axis]
        p, d = config.padding[axis], config.dilation[axis]
        bracket = r"\left\lceil" if config.ceil_mode else r"\left\lfloor"
        close = r"\right\rceil" if config.ceil_mode else r"\right\rfloor"
        numerator = size + 2 * p - d * (k - 1) - 1
        result = output_length(size, k, s, p, d, config.ceil_mode)
        plain = rounded_length(size, k, s, p, d, config.ceil_mode)
        # Two lines: the rule, then the numbers, so it fits a narrow screen.
        line = (
            rf"\begin{{aligned}}{symbol}_{{out}} &= "
            rf"{bracket}\frac{{{symbol} + 2p - d(k-1) - 1}}{{s}}{close} + 1"
            rf"\\ &= {bracket}\frac{{{size} + 2\cdot{p} - {d}\cdot({k}-1) - 1}}{{{s}}}{close} + 1"
            rf" = {bracket}\frac{{{numerator}}}{{{s}}}{close} + 1"
        )
        if config.ceil_mode and plain != result:
            line += (
                rf" = {plain}\\ &\text{{but the last window would start past the padding: }}"
                rf"{plain} - 1 = {result}"
            )
        else:
            line += f" = {result}"
        lines.append(line + r"\end{aligned}")
    return lines


def ledger_formula(cell: tuple[int, int], lines, total: float) -> str:
    """'dL/dx[r,c] = share·g (from y[i,j]) + … = total' as LaTeX."""
    name = rf"\frac{{\partial L}}{{\partial x_{{{cell[0]},{cell[1]}}}}}"
    if not lines:
        return name + r" = 0 \quad\text{(no window sends anything here)}"
    terms = [
        rf"\underbrace{{{fmt(line.share)}\cdot{fmt(line.upstream)}}}_{{y_{{{line.output_cell[0]},{line.output_cell[1]}}}}}"
        for line in lines
    ]
    return name + " = " + " + ".join(terms) + f" = {fmt(total)}"


def _column(values) -> str:
    return r"\begin{bmatrix}" + r"\\".join(fmt(v) for v in values) + r"\end{bmatrix}"


def transpose_product(matrix, grad_output, grad_x) -> str:
    """dL/dx = Jᵀ g written out: J: (M, N); grad_output: (M,); grad_x: (N,)."""
    rows = r"\\".join(" & ".join(fmt(v) for v in row) for row in matrix.T)
    return (
        r"\frac{\partial L}{\partial x} = J^\top g = \begin{bmatrix}"
        + rows
        + r"\end{bmatrix}"
        + _column(grad_output)
        + " = "
        + _column(grad_x)
    )
