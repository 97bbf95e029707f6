"""Formulas the pages write in LaTeX from the engine's numbers."""

from __future__ import annotations

from pooling import PoolConfig
from pooling.geometry import output_length, plane_geometry, rounded_length
from teaching.numbers import fmt

LEDGER_TERMS_A_LINE = 3  # what fits a projector's main column (1280x720 at 150 %)


def ledger_formula(cell: tuple[int, int], lines, total: float) -> str:
    """'dL/dx[r,c] = share·g (from y[i,j]) + … = total' as LaTeX, three terms a line
    and the total on a line of its own, so that a cell read by nine windows still fits."""
    name = rf"\frac{{\partial L}}{{\partial x_{{{cell[0]},{cell[1]}}}}}"
    if not lines:
        return name + r" = 0 \quad\text{(no window sends anything here)}"
    terms = [
        rf"\underbrace{{{fmt(line.share)}\cdot{fmt(line.upstream)}}}"
        rf"_{{y_{{{line.output_cell[0]},{line.output_cell[1]}}}}}"
        for line in lines
    ]
    rows = [
        " + ".join(terms[start : start + LEDGER_TERMS_A_LINE])
        for start in range(0, len(terms), LEDGER_TERMS_A_LINE)
    ]
    if len(rows) == 1:
        return name + " = " + rows[0] + f" = {fmt(total)}"
    body = r" \\ &\quad + ".join(rows)
    return rf"\begin{{aligned}}{name} &= {body} \\ &= {fmt(total)}\end{{aligned}}"


def adaptive_formula(config: PoolConfig, axis: int, size: int) -> str:
    """LaTeX: adaptive pooling's chosen output length and PyTorch's window rule along one
    axis, with every window's first and last cell written out."""
    symbol, cells = ("H", "rows") if axis == 0 else ("W", "columns")
    out = config.output_size[axis]
    windows = plane_geometry(config, *((size, 1) if axis == 0 else (1, size)))
    table = windows.rows if axis == 0 else windows.cols
    spans = [
        rf"{int(index[real].min())}\text{{–}}{int(index[real].max())}"
        for index, real in zip(table.index, table.real, strict=True)
    ]
    listed = r",\ ".join(spans)
    floor = rf"\left\lfloor \frac{{i\cdot {size}}}{{{out}}}\right\rfloor"
    ceil = rf"\left\lceil \frac{{(i+1)\cdot {size}}}{{{out}}}\right\rceil"
    return (
        rf"\begin{{aligned}}{symbol}_{{out}} &= {out}\ \text{{(chosen)}}\\ "
        rf"\text{{window }} i &\text{{ reads {cells} }} {floor} \text{{ to }} {ceil} - 1"
        rf":\ {listed}\end{{aligned}}"
    )


def dropped_window(plain: int, *, stride: int, size: int, padding: int) -> str:
    """LaTeX lines: why ceil mode drops its last window. Counting the padded row's cells
    from 0 (left padding first), it would start at (plain - 1) * stride; PyTorch keeps
    it only if that is inside the left padding or the input, before padding + size."""
    start = (plain - 1) * stride
    return (
        rf"\\ &\text{{but its last window would start at padded position {start} "
        rf"(counting from 0),}}\\ &\text{{not before }} p + \text{{size}} = {padding} + {size} = "
        rf"{padding + size}\text{{: it must start in the left padding or the input}}"
        rf"\\ &\text{{so it is dropped: }}{plain} - 1 = {plain - 1}"
    )


def size_formula(config: PoolConfig, height: int, width: int) -> list[str]:
    """LaTeX, one line per axis: PyTorch's output size with the numbers in."""
    lines = []
    for axis, size in enumerate((height, width)):
        symbol = "H" if axis == 0 else "W"
        if config.adaptive:
            lines.append(adaptive_formula(config, axis, size))
            continue
        k, s = config.kernel_size[axis], config.stride[axis]
        p, d = config.padding[axis], config.dilation[axis]
        bracket = r"\left\lceil" if config.ceil_mode else r"\left\lfloor"
        close = r"\right\rceil" if config.ceil_mode else r"\right\rfloor"
        numerator = size + 2 * p - d * (k - 1) - 1
        result = output_length(size, k, s, p, d, config.ceil_mode)
        plain = rounded_length(size, k, s, p, d, config.ceil_mode)
        # Three lines: the rule, the numbers in it, their value: each fits a phone.
        line = (
            rf"\begin{{aligned}}{symbol}_{{out}} &= "
            rf"{bracket}\frac{{{symbol} + 2p - d(k-1) - 1}}{{s}}{close} + 1"
            rf"\\ &= {bracket}\frac{{{size} + 2\cdot{p} - {d}\cdot({k}-1) - 1}}{{{s}}}{close} + 1"
            rf"\\ &= {bracket}\frac{{{numerator}}}{{{s}}}{close} + 1"
        )
        if config.ceil_mode and plain != result:
            line += f" = {plain}" + dropped_window(plain, stride=s, size=size, padding=p)
        else:
            line += f" = {result}"
        lines.append(line + r"\end{aligned}")
    return lines


def batch_rule(reduction: str, count: int) -> str:
    """LaTeX: the derivative of the batch loss is the mean (or the sum) of the examples'
    own derivatives: differentiation goes inside the sum. count: N, the examples.
    Inline, it may break after its "=" and nowhere else (each side is a group, which
    KaTeX keeps on one line): a 320-px screen has no room for it on one line."""
    scale = r"\frac{1}{N}" if reduction == "mean" else ""
    return (
        rf"{{\frac{{\partial}}{{\partial K}}\Big({scale}\sum_{{n}} L_n\Big)}} = "
        rf"{{{scale}\sum_{{n}} \frac{{\partial L_n}}{{\partial K}},\quad N = {count}}}"
    )


def step_rule(reduction: str, rate: str) -> str:
    """LaTeX: one SGD step on K under the batch loss `reduction` (mean or sum)."""
    scale = r"\frac{1}{N}" if reduction == "mean" else ""
    gradient = rf"{scale}\sum_{{n}} \frac{{\partial L_n}}{{\partial K}}"
    return rf"K \leftarrow K - \eta\,{gradient},\quad \eta = {rate}"
