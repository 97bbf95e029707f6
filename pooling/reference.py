"""The loop: pooling written one window at a time, as a textbook would.

This is the reference the fast kernels and the general path are tested against, and
what the lab shows as "the loop". It shares no code with them on purpose (it imports
only the config): it recomputes the output size and every window from the formulas,
and scans windows the way PyTorch's CPU kernels do.
"""

from __future__ import annotations

import math

import numpy as np

from pooling.config import PoolConfig


def _length(size, kernel, stride, padding, dilation, ceil_mode):
    numerator = size + 2 * padding - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)
    length = math.floor(numerator / stride) + 1
    if ceil_mode and (length - 1) * stride >= size + padding:
        length -= 1
    return length


def _windows(config: PoolConfig, height: int, width: int):
    """Yield (oh, ow, cells, divisor): cells are the (h, w) a window reads, in reading
    order, padding left out; divisor is average pooling's (None for max)."""
    if config.adaptive:
        out_h, out_w = config.output_size
        for oh in range(out_h):
            h0, h1 = (oh * height) // out_h, math.ceil((oh + 1) * height / out_h)
            for ow in range(out_w):
                w0, w1 = (ow * width) // out_w, math.ceil((ow + 1) * width / out_w)
                cells = [(h, w) for h in range(h0, h1) for w in range(w0, w1)]
                yield oh, ow, cells, len(cells)
        return
    (kh, kw), (sh, sw) = config.kernel_size, config.stride
    (ph, pw), (dh, dw) = config.padding, config.dilation
    out_h = _length(height, kh, sh, ph, dh, config.ceil_mode)
    out_w = _length(width, kw, sw, pw, dw, config.ceil_mode)
    if out_h < 1 or out_w < 1:
        raise ValueError(f"output size would be {out_h}x{out_w}")
    for oh in range(out_h):
        for ow in range(out_w):
            h0, w0 = oh * sh - ph, ow * sw - pw
            cells = [(h0 + i * dh, w0 + j * dw) for i in range(kh) for j in range(kw)]
            cells = [(h, w) for h, w in cells if 0 <= h < height and 0 <= w < width]
            if not cells:
                raise ValueError(f"window ({oh}, {ow}) lies wholly in padding")
            yield oh, ow, cells, _divisor(config, h0, w0, height, width, len(cells))


def _divisor(config, h0, w0, height, width, real_cells):
    if config.divisor_override is not None:
        return config.divisor_override
    if not config.count_include_pad:
        return real_cells
    (kh, kw), (ph, pw) = config.kernel_size, config.padding
    h1, w1 = min(h0 + kh, height + ph), min(w0 + kw, width + pw)
    return (h1 - h0) * (w1 - w0)


def _max_shares(values, ties):
    """Forward of one max window: (value, PyTorch's winner position, share per cell)."""
    best, winner = -math.inf, 0
    for position, value in enumerate(values):
        if value > best or math.isnan(value):
            best, winner = value, position
    if math.isnan(best):
        return best, winner, [1.0 if p == winner else 0.0 for p in range(len(values))]
    tied = [p for p, value in enumerate(values) if value == best]
    if ties == "last":
        winner = tied[-1]
    if ties in ("first", "last"):
        return best, winner, [1.0 if p == winner else 0.0 for p in range(len(values))]
    share = 1.0 / len(tied) if ties == "split" else 1.0
    return best, winner, [share if p in tied else 0.0 for p in range(len(values))]


def loop_forward_backward(x, grad_output, config: PoolConfig):
    """Output, argmax and dL/dx of one (H, W) plane, a window at a time.

    x: (H, W); grad_output: (OH, OW) or None. Returns output (OH, OW), argmax (OH, OW)
    int64 (None for avg) and grad_x (H, W) (None without grad_output).
    """
    x = np.asarray(x, dtype=np.float64)
    height, width = x.shape
    windows = list(_windows(config, height, width))
    out_h, out_w = windows[-1][0] + 1, windows[-1][1] + 1
    output = np.zeros((out_h, out_w))
    argmax = np.zeros((out_h, out_w), dtype=np.int64) if config.mode == "max" else None
    grad_x = None if grad_output is None else np.zeros_like(x)
    for oh, ow, cells, divisor in windows:
        values = [float(x[h, w]) for h, w in cells]
        if config.mode == "max":
            output[oh, ow], winner, shares = _max_shares(values, config.ties)
            argmax[oh, ow] = cells[winner][0] * width + cells[winner][1]
        else:
            output[oh, ow] = sum(values) / divisor
            shares = [1.0 / divisor] * len(cells)
        if grad_x is not None:
            for (h, w), share in zip(cells, shares, strict=True):
                if share:
                    grad_x[h, w] += share * grad_output[oh, ow]
    return output, argmax, grad_x
