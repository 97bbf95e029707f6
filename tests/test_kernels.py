"""Every kernel of the dispatch table, forced through its public API (`kernels=`),
against the loop on small inputs and against the general path (`windows.route`) on
inputs big enough to run at the real chunk size, over threads: for every tie rule it
claims, with NaN, -inf, padding, dilation, ceil mode, non-contiguous and float32 input.
"""

import dataclasses
import zlib

import numpy as np
import pytest
from strategies import random_config

from pooling import PoolConfig, backward, forward, windows
from pooling.fast import KERNELS
from pooling.fast.chunks import chunk_slices, splits
from pooling.geometry import plane_geometry
from pooling.reference import loop_forward_backward

# Layers that between them reach every kernel: padding, dilation, ceil mode, uneven
# sizes, and windows of more than 127 taps (tap numbers past int8).
LAYERS = [
    dict(kernel_size=2),
    dict(kernel_size=1),
    dict(kernel_size=(1, 2), dilation=(3, 1)),  # a 1-tall window: its dilation still tiles
    dict(kernel_size=3, stride=1),
    dict(kernel_size=3, stride=1, padding=1, count_include_pad=False),
    dict(kernel_size=2, stride=1, padding=1, dilation=2),
    dict(kernel_size=3, stride=2, padding=1),
    dict(kernel_size=3, stride=2, padding=1, ceil_mode=True, divisor_override=4),
    dict(kernel_size=(2, 3), stride=(3, 1), dilation=(2, 1), ceil_mode=True),
    dict(kernel_size=(1, 4), stride=(1, 2), padding=(0, 2)),
    dict(kernel_size=2, stride=3),
    dict(kernel_size=3, stride=3, padding=1, ceil_mode=True, count_include_pad=False),
    dict(kernel_size=(4, 3), stride=(2, 3), dilation=(1, 2), padding=(2, 1), ceil_mode=True),
    dict(kernel_size=12, stride=1, padding=6),
    dict(kernel_size=12, stride=2, padding=3),
    dict(kernel_size=(12, 11), stride=(12, 11)),
]
INPUTS = ["ties", "nan", "-inf", "float32", "non-contiguous"]


def claims() -> list:
    """(kernel, mode, ties) for every mode and tie rule each kernel claims."""
    params = []
    for kernel in KERNELS:
        if kernel.max_forward is not None:
            for ties in sorted(kernel.ties):
                params.append(pytest.param(kernel, "max", ties, id=f"{kernel.name}-max-{ties}"))
        if kernel.avg_forward is not None or kernel.avg_backward is not None:
            params.append(pytest.param(kernel, "avg", "first", id=f"{kernel.name}-avg"))
    return params


def seed(*words: str) -> int:
    return zlib.crc32(" ".join(words).encode())


def layer(mode: str, ties: str, settings: dict) -> PoolConfig | None:
    if mode == "avg" and settings.get("dilation", 1) != 1:
        return None  # average pooling has no dilation
    if mode == "max":
        settings = {k: v for k, v in settings.items() if k not in ("divisor_override",)}
    return PoolConfig(mode, ties=ties, **settings)


def make_input(rng, shape, kind: str) -> np.ndarray:
    """(N, C, H, W) of `kind`: small integers (ties everywhere), with NaN or many -inf
    (whole windows of it), float32 normals, or a non-contiguous view of integers."""
    x = rng.integers(-2, 3, shape).astype(np.float64)
    if kind == "nan":
        x[rng.random(shape) < 0.1] = np.nan
    elif kind == "-inf":
        x[rng.random(shape) < 0.5] = -np.inf
        x[..., :4, :4] = -np.inf  # padded corner windows of nothing but -inf
    elif kind == "float32":
        x = rng.standard_normal(shape).astype(np.float32)
    elif kind == "non-contiguous":
        wide = rng.integers(-2, 3, shape[:3] + (2 * shape[3],)).astype(np.float64)
        x = wide[..., ::2]
        assert not x.flags.c_contiguous
    return x


def run(kernel, x, config):
    """Forward and backward with `kernel` first in the table, so it runs wherever it
    takes the step; the rest of the table covers the steps it has not (tiles has an
    average backward but no average forward). Also which steps it ran."""
    table = (kernel, *KERNELS)
    result = forward(x, config, kernels=table)
    grad = np.random.default_rng(1).standard_normal(result.output.shape)
    grad_x = backward(result, grad, kernels=table)
    planes = int(np.prod(x.shape[:-2]))
    ran = {"forward"} if result.kernel == kernel.name else set()
    if config.mode == "avg" and kernel.takes("avg_backward", config, result.geometry, planes):
        ran.add("backward")
    return result, grad, grad_x, ran


@pytest.mark.parametrize("kernel, mode, ties", claims())
def test_kernel_equals_the_loop_on_small_inputs(kernel, mode, ties):
    rng = np.random.default_rng(seed(kernel.name, mode, ties))
    ran_on = []
    for settings in LAYERS:
        config = layer(mode, ties, settings)
        if config is None:
            continue
        for kind in INPUTS:
            x = make_input(rng, (2, 2, int(rng.integers(7, 15)), int(rng.integers(7, 15))), kind)
            try:
                plane_geometry(config, *x.shape[2:])
            except ValueError:
                continue  # the layer does not fit this input
            result, grad, grad_x, ran = run(kernel, x, config)
            if not ran:
                continue
            ran_on.append((settings, kind))
            for n, c in np.ndindex(x.shape[:2]):
                output, argmax, expected = loop_forward_backward(x[n, c], grad[n, c], config)
                if mode == "max":
                    np.testing.assert_array_equal(result.output[n, c], output)
                    np.testing.assert_array_equal(result.argmax[n, c], argmax)
                else:  # sums in another order: last-bit rounding
                    np.testing.assert_allclose(result.output[n, c], output, rtol=1e-13, atol=1e-13)
                np.testing.assert_allclose(grad_x[n, c], expected, rtol=1e-12, atol=1e-12)
    assert {kind for _, kind in ran_on} == set(INPUTS), ran_on
    assert len({str(settings) for settings, _ in ran_on}) >= 2, ran_on


def big_case(kernel, config, rng, kind):
    """An input the kernel takes, as big as it runs in real use: past two chunks (so
    over threads) for a chunked kernel, the most planes it takes for the small one."""
    height, width = 40, 37
    planes = 2 * (1 << 22) // (height * width * 8) + 7
    geometry = plane_geometry(config, height, width)
    step = "max_forward" if config.mode == "max" else "avg_backward"
    if kernel.avg_forward is not None and config.mode == "avg":
        step = "avg_forward"
    while planes > 1 and not kernel.takes(step, config, geometry, planes):
        planes //= 2
    if not kernel.takes(step, config, geometry, planes):
        return None
    return make_input(rng, (planes, 1, height, width), kind)


def general_path(x, config, grad):
    """Output, argmax and dL/dx from windows.route and windows.scatter, a slice of
    planes at a time (their window copies are big)."""
    planes = x.reshape((-1,) + x.shape[-2:]).astype(np.float64)
    geometry = plane_geometry(config, *planes.shape[1:])
    grad_planes = grad.reshape((-1,) + geometry.output_shape)
    outputs, argmaxes, grads = [], [], []
    for start in range(0, planes.shape[0], 64):
        part = slice(start, start + 64)
        output, argmax, routing = windows.route(planes[part], geometry, config)
        outputs.append(output)
        argmaxes.append(argmax)
        grads.append(windows.scatter(routing, grad_planes[part], planes[0].size))
    argmax = None if config.mode == "avg" else np.concatenate(argmaxes)
    return np.concatenate(outputs), argmax, np.concatenate(grads)


@pytest.mark.parametrize("kernel, mode, ties", claims())
def test_kernel_equals_the_general_path_at_its_real_size(kernel, mode, ties):
    rng = np.random.default_rng(seed(kernel.name, mode, ties, "big"))
    kinds = ["nan", "float32", "-inf", "non-contiguous"]
    ran_on = []
    for settings in LAYERS:
        config = layer(mode, ties, settings)
        kind = kinds[len(ran_on) % len(kinds)]
        x = None if config is None else big_case(kernel, config, rng, kind)
        if x is None:
            continue
        result, grad, grad_x, ran = run(kernel, x, config)
        assert ran, (settings, kind)
        ran_on.append((settings, kind, x.shape))
        output, argmax, expected = general_path(x, config, grad)
        shape = result.output.shape
        np.testing.assert_allclose(result.output, output.reshape(shape), rtol=1e-13, atol=0)
        if mode == "max":
            np.testing.assert_array_equal(result.argmax, argmax.reshape(shape))
        np.testing.assert_allclose(grad_x, expected.reshape(x.shape), rtol=1e-12, atol=1e-12)
        if len(ran_on) == 3:
            break
    assert ran_on, "the kernel took none of the layers"
    if kernel.name != "small":  # the small kernel's real size is one small call
        count, height, width = ran_on[0][2][0], *ran_on[0][2][2:]
        assert splits(count, height * width * 8)
        assert len(chunk_slices(count, height * width * 8)) >= 2


def features(config: PoolConfig, height: int, width: int) -> set[str]:
    """What a layer exercises: padding, dilation, a ceil mode that adds a window."""
    found = set()
    if config.padding != (0, 0):
        found.add("padding")
    if config.dilation != (1, 1):
        found.add("dilation")
    if config.ceil_mode:
        floor = dataclasses.replace(config, ceil_mode=False)
        try:
            floor_shape = plane_geometry(floor, height, width).output_shape
        except ValueError:  # floor mode has no window at all here
            floor_shape = None
        if floor_shape != plane_geometry(config, height, width).output_shape:
            found.add("ceil mode")
    return found


def taken_features(kernel, configs, sizes) -> set[str]:
    found = set()
    for config in configs:
        for height, width in sizes:
            try:
                geometry = plane_geometry(config, height, width)
            except ValueError:
                continue
            steps = ("max_forward",) if config.mode == "max" else ("avg_forward", "avg_backward")
            if any(kernel.takes(step, config, geometry, 4) for step in steps):
                found |= features(config, height, width)
    return found


@pytest.mark.parametrize("kernel", KERNELS, ids=[kernel.name for kernel in KERNELS])
def test_the_fixed_layers_reach_whatever_each_kernel_takes(kernel):
    """Whatever a kernel takes among many random layers (padding, dilation, ceil mode),
    it meets in LAYERS too, so the two tests above check it there."""
    rng = np.random.default_rng(seed(kernel.name, "reach"))
    sizes = [(7, 9), (10, 13), (14, 14)]
    drawn = [random_config(rng, mode) for mode in ("max", "avg") for _ in range(150)]
    fixed = [c for mode in ("max", "avg") for s in LAYERS if (c := layer(mode, "first", s))]
    assert taken_features(kernel, drawn, sizes) <= taken_features(kernel, fixed, sizes)
