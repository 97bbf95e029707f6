"""Pieces of the code snippets that reproduce a screen: array literals written from the
screen's own arrays, the PyTorch call of a pooling layer, and the NumPy-only loop.

Every number in a snippet comes from an array passed in here: nothing is typed in.
Floats are written with repr, the shortest text that reads back as the same float, so
a snippet rebuilds the screen's inputs to the last bit.
"""

from __future__ import annotations

import inspect

import numpy as np

from pooling import reference
from pooling.config import PoolConfig
from teaching.tolerances import SUMMATION_ORDER

# PyTorch may add a window up in another order
TOLERANCE = f"rtol={SUMMATION_ORDER}, atol={SUMMATION_ORDER}"


def number(value) -> str:
    return repr(float(value))


def nested(values: np.ndarray) -> str:
    """A nested list literal of `values`; rows of a 2-D array one per line."""
    if values.ndim == 0:
        return number(values)
    if values.ndim == 1:
        items = [str(int(v)) if values.dtype.kind in "iu" else number(v) for v in values]
        return "[" + ", ".join(items) + "]"
    inner = ",\n".join(nested(row) for row in values)
    return "[\n" + indent(inner) + ",\n]"


def indent(text: str, spaces: int = 4) -> str:
    return "\n".join(" " * spaces + line if line else line for line in text.splitlines())


def array_line(name: str, values, comment: str) -> str:
    """`name = np.array(...)  # comment`: ints stay ints (indices, labels)."""
    values = np.asarray(values)
    dtype = ", dtype=np.int64" if values.dtype.kind in "iu" else ""
    return f"{name} = np.array({nested(values)}{dtype})  # {comment}"


def pair_text(pair) -> str:
    return f"({pair[0]}, {pair[1]})"


def call(function: str, arguments: list[str]) -> str:
    """function(arguments), one argument a line."""
    return f"{function}(\n" + "".join(f"    {argument},\n" for argument in arguments) + ")"


def torch_pool_call(config: PoolConfig, source: str) -> str:
    """The torch.nn.functional call for `config` on tensor `source`; max pooling also
    returns its indices (a tuple)."""
    if config.adaptive:
        size = f"output_size={pair_text(config.output_size)}"
        if config.mode == "max":
            return call("F.adaptive_max_pool2d", [source, size, "return_indices=True"])
        return call("F.adaptive_avg_pool2d", [source, size])
    common = [
        source,
        f"kernel_size={pair_text(config.kernel_size)}",
        f"stride={pair_text(config.stride)}",
        f"padding={pair_text(config.padding)}",
    ]
    if config.mode == "max":
        extra = [f"dilation={pair_text(config.dilation)}", f"ceil_mode={config.ceil_mode}"]
        return call("F.max_pool2d", [*common, *extra, "return_indices=True"])
    extra = [
        f"ceil_mode={config.ceil_mode}",
        f"count_include_pad={config.count_include_pad}",
        f"divisor_override={config.divisor_override}",
    ]
    return call("F.avg_pool2d", [*common, *extra])


def torch_tie_note(config: PoolConfig) -> str | None:
    """Why PyTorch can't reproduce this layer's backward pass, or None if it can."""
    if config.mode == "max" and config.ties != "first":
        return (
            "PyTorch has one tie rule: a tied window's gradient goes to its first "
            f"maximum. This layer's rule is “{config.ties}”, so wherever a window is tied "
            "PyTorch's dL/dx differs. The NumPy snippet follows this layer's rule; or set "
            "the tie rule to “first”."
        )
    return None


def loop_source() -> str:
    """pooling.reference, from its first function on: pooling one window at a time, in
    plain Python and NumPy (the lab's own reference, tested against PyTorch)."""
    source = inspect.getsource(reference)
    return source[source.index("def _length") :].rstrip()


def config_line(config: PoolConfig) -> str:
    """The layer as the attributes the loop reads."""
    fields = {
        "mode": repr(config.mode),
        "kernel_size": pair_text(config.kernel_size),
        "stride": pair_text(config.stride),
        "padding": pair_text(config.padding),
        "dilation": pair_text(config.dilation),
        "ceil_mode": str(config.ceil_mode),
        "count_include_pad": str(config.count_include_pad),
        "divisor_override": str(config.divisor_override),
        "ties": repr(config.ties),
        "adaptive": str(config.adaptive),
        "output_size": "None" if config.output_size is None else pair_text(config.output_size),
    }
    body = ",\n".join(f"    {name}={value}" for name, value in fields.items())
    return f"config = SimpleNamespace(\n{body},\n)"


NUMPY_HEADER = (
    "from __future__ import annotations\n\n"
    "import math\n"
    "from types import SimpleNamespace\n\n"
    "import numpy as np\n"
)
TORCH_HEADER = "import numpy as np\nimport torch\nimport torch.nn.functional as F\n"
