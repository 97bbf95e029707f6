"""Running the kernel the table chose: a chunk of planes at a time, on every core
(`pooling.fast.chunks`), with the NaN argmax repaired afterwards; and max pooling's
backward, one scatter of the argmax for every kernel.
"""

from __future__ import annotations

import numpy as np

from pooling import windows
from pooling.config import PoolConfig
from pooling.fast.chunks import for_each_chunk, splits
from pooling.fast.kernel import Kernel
from pooling.geometry import PlaneGeometry


def forward(kernel: Kernel, planes: np.ndarray, geometry: PlaneGeometry, config: PoolConfig):
    """kernel's forward pass over planes (P, H, W): output (P, OH, OW) and argmax
    (P, OH, OW) int64 (None for average pooling)."""
    shape = planes.shape[:1] + geometry.output_shape
    output = np.empty(shape)
    count, plane_bytes = planes.shape[0], planes[0].nbytes
    whole = not splits(count, plane_bytes)  # one call, no slices: small inputs are common
    if config.mode == "avg":
        avg_forward = kernel.avg_forward
        if whole:
            avg_forward(planes, geometry, output)
            return output, None

        def average(chunk: slice) -> None:
            avg_forward(planes[chunk], geometry, output[chunk])

        for_each_chunk(average, count, plane_bytes)
        return output, None
    argmax = np.empty(shape, dtype=np.int64)
    max_forward, ties = kernel.max_forward, config.ties
    if whole:
        max_forward(planes, geometry, ties, output, argmax)
        maybe_nan = np.isnan(output.sum())  # a NaN, or inf - inf: rare
    else:
        flagged = []  # chunks whose sum is NaN; list.append is safe across threads

        def maximum(chunk: slice) -> None:
            max_forward(planes[chunk], geometry, ties, output[chunk], argmax[chunk])
            if np.isnan(output[chunk].sum()):
                flagged.append(chunk)

        for_each_chunk(maximum, count, plane_bytes)
        maybe_nan = bool(flagged)
    if maybe_nan:
        _fix_nan_argmax(planes, geometry, config, output, argmax)
    return output, argmax


def _fix_nan_argmax(planes, geometry: PlaneGeometry, config: PoolConfig, output, argmax):
    """A window holding NaN: PyTorch's argmax is its last NaN. The general path knows
    that rule; it runs on the planes that need it."""
    nan_planes = np.flatnonzero(np.isnan(output).any(axis=(1, 2)))
    if nan_planes.size:
        _, argmax[nan_planes], _ = windows.route(planes[nan_planes], geometry, config)


def scatter_winners(argmax: np.ndarray, grad_output: np.ndarray, plane_size: int) -> np.ndarray:
    """Max pooling's backward: each window's dL/dy added into its winner's cell.

    argmax, grad_output: (P, OH, OW). Returns dL/dx (P, H*W)."""
    if not splits(grad_output.shape[0], plane_size * 8):
        return windows.scatter_add(argmax, grad_output, plane_size)  # one bincount, no copy
    grad_x = np.empty((grad_output.shape[0], plane_size))

    def work(chunk: slice) -> None:
        grad_x[chunk] = windows.scatter_add(argmax[chunk], grad_output[chunk], plane_size)

    for_each_chunk(work, grad_output.shape[0], plane_size * 8)  # float64 input planes
    return grad_x


def avg_backward(kernel: Kernel, grad_output: np.ndarray, geometry: PlaneGeometry):
    """kernel's average-pooling backward of grad_output (P, OH, OW): dL/dx (P, H*W)."""
    plane_size = geometry.rows.size * geometry.cols.size
    grad_x = np.empty((grad_output.shape[0], plane_size))
    backward = kernel.avg_backward

    def work(chunk: slice) -> None:
        backward(grad_output[chunk], geometry, grad_x[chunk])

    for_each_chunk(work, grad_output.shape[0], plane_size * 8)  # float64 input planes
    return grad_x
