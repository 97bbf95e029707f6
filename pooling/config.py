"""The pooling layer's settings, validated once when they are made.

`PoolConfig` mirrors the arguments of PyTorch's ``max_pool2d`` / ``avg_pool2d`` (and,
with ``output_size``, ``adaptive_*_pool2d``), plus ``ties``: the rule that decides where a
max window sends its gradient when several cells hold the maximum. Every check that
does not depend on the input's size happens here; the ones that do (an output smaller
than 1x1, a window lying wholly in padding) happen in `pooling.geometry`.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral
from typing import Literal, get_args

Mode = Literal["max", "avg"]
TieRule = Literal["first", "last", "split", "all"]
MODES: tuple[Mode, ...] = get_args(Mode)
TIES: tuple[TieRule, ...] = get_args(TieRule)

Pair = tuple[int, int]  # (height, width) of a setting: kernel_size, stride, ...
Cell = tuple[int, int]  # (row, column) of one cell of a plane


def _as_pair(name: str, value, minimum: int) -> Pair:
    """Turn an int or an (h, w) pair into a validated (h, w) tuple of ints."""
    items = value if isinstance(value, (tuple, list)) else (value, value)
    if len(items) != 2:
        raise ValueError(f"{name} must be one int or an (height, width) pair, got {value!r}")
    pair = []
    for item in items:
        if isinstance(item, bool) or not isinstance(item, Integral):
            raise ValueError(f"{name} must be a whole number, got {item!r}")
        if item < minimum:
            raise ValueError(f"{name} must be at least {minimum}, got {int(item)}")
        pair.append(int(item))
    return pair[0], pair[1]


@dataclass(frozen=True)
class PoolConfig:
    """One pooling layer. Ints are normalised to (h, w) pairs on construction.

    mode: "max" or "avg".
    kernel_size, stride, padding, dilation: int or (h, w); stride None means kernel_size.
    ceil_mode: round the output size up (the last window may overhang the padding).
    count_include_pad, divisor_override: average pooling's divisor, as in PyTorch.
    ties: max pooling's routing rule among equal maxima, one of TIES.
    output_size: int or (h, w) for adaptive pooling (1 = global pooling). PyTorch then
        chooses the windows itself, so kernel_size is ignored and stride, padding,
        dilation, ceil_mode and divisor_override must keep their defaults.
    """

    mode: Mode = "max"
    kernel_size: int | Pair = 2
    stride: int | Pair | None = None
    padding: int | Pair = 0
    dilation: int | Pair = 1
    ceil_mode: bool = False
    count_include_pad: bool = True
    divisor_override: int | None = None
    ties: TieRule = "first"
    output_size: int | Pair | None = None

    def __post_init__(self):
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {self.mode!r}")
        if self.ties not in TIES:
            raise ValueError(f"ties must be one of {TIES}, got {self.ties!r}")
        if self.output_size is not None:
            self._check_adaptive()
            self._set("output_size", _as_pair("output_size", self.output_size, 1))
        kernel = _as_pair("kernel_size", self.kernel_size, 1)
        stride = kernel if self.stride is None else _as_pair("stride", self.stride, 1)
        padding = _as_pair("padding", self.padding, 0)
        dilation = _as_pair("dilation", self.dilation, 1)
        for axis, (k, p) in enumerate(zip(kernel, padding, strict=True)):
            if p > k // 2:
                side = "tall" if axis == 0 else "wide"
                raise ValueError(
                    f"padding {p} is more than half the {k}-{side} window "
                    f"(padding must be at most kernel_size // 2 = {k // 2})"
                )
        if self.mode == "avg" and dilation != (1, 1):
            raise ValueError(
                f"dilation {dilation} is only defined for max pooling; "
                "average pooling needs dilation 1"
            )
        if self.divisor_override is not None:
            divisor = self.divisor_override
            if isinstance(divisor, bool) or not isinstance(divisor, Integral) or divisor < 1:
                raise ValueError(
                    f"divisor_override must be a whole number of at least 1 "
                    f"or None, got {divisor!r}"
                )
            self._set("divisor_override", int(divisor))
        for name, value in (
            ("kernel_size", kernel),
            ("stride", stride),
            ("padding", padding),
            ("dilation", dilation),
        ):
            self._set(name, value)

    def _set(self, name, value):
        object.__setattr__(self, name, value)

    def _check_adaptive(self):
        # A stride equal to the window is the default spelled out: __post_init__ writes
        # it so, and `dataclasses.replace` hands it back, so a config survives replace.
        kernel = _as_pair("kernel_size", self.kernel_size, 1)
        defaults = {
            "stride": None,
            "padding": 0,
            "dilation": 1,
            "ceil_mode": False,
            "divisor_override": None,
        }
        for name, default in defaults.items():
            value = getattr(self, name)
            if name == "stride" and value is not None and _as_pair(name, value, 1) == kernel:
                continue
            if value not in (default, (default, default)):
                raise ValueError(
                    f"{name} must stay {default} for adaptive pooling "
                    f"(output_size is set, so the windows are chosen for you)"
                )

    @property
    def adaptive(self) -> bool:
        """True when the windows come from output_size rather than kernel and stride."""
        return self.output_size is not None
