"""The code that reproduces a screen: generated for many layers, executed (PyTorch is
installed in CI), and checked to carry only the screen's own numbers."""

import ast
import contextlib
import io
import re

import numpy as np
import pytest
from apptest import no_exceptions, open_app
from source_tree import parsed
from test_batch_model import settings as batch_settings

from cnn.network import NetConfig
from pooling import PoolConfig
from teaching.batch import code as batch_code
from teaching.batch.story import build_batch_story
from teaching.playground import code as playground_code
from teaching.playground.model import LayerSettings, build_layer_story
from teaching.snippets import torch_tie_note

X = np.array([[1, 2, 0, 1, 3], [0, 9, 1, 0, 2], [2, 1, 4, 1, 1], [0, 3, 1, 8, 0], [5, 5, 2, 2, 7]])
TIED = np.array([[1, 1, 0, 2], [1, 1, 2, 2], [3, 0, 4, 4], [0, 3, 4, 4]], dtype=float)

LAYERS = [
    PoolConfig("max", 3, stride=1, padding=1),
    PoolConfig("max", 2),
    PoolConfig("max", 2, stride=1, dilation=2, ceil_mode=True),
    PoolConfig("max", 3, stride=2, padding=1, ceil_mode=True),
    PoolConfig("avg", 3, stride=2, padding=1),
    PoolConfig("avg", 3, stride=2, padding=1, count_include_pad=False),
    PoolConfig("avg", 2, stride=2, padding=1, ceil_mode=True),
    PoolConfig("avg", 2, stride=1, divisor_override=3),
    PoolConfig("max", output_size=(2, 3)),
    PoolConfig("avg", output_size=(3, 2)),
    PoolConfig("max", output_size=1),
    PoolConfig("avg", output_size=1),
]


def run(code: str) -> str:
    """Execute a snippet as a fresh script; what it printed."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "<snippet>", "exec"), {"__name__": "__main__"})
    return printed.getvalue()


def imports(code: str) -> set[str]:
    modules = set()
    for node in ast.walk(parsed(code)):
        if isinstance(node, ast.Import):
            modules |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            modules.add(node.module.split(".")[0])
    return modules


def assigned_arrays(code: str) -> dict[str, np.ndarray]:
    """Every `name = np.array(<literals>)` or `name = <number>` of the snippet, evaluated."""
    found = {}
    for node in parsed(code).body:
        target = node.targets[0] if isinstance(node, ast.Assign) else None
        if isinstance(target, ast.Name) and isinstance(node.value, (ast.Call, ast.Constant)):
            source = ast.get_source_segment(code, node.value)
            names = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
            if names <= {"np"} and (source.startswith("np.array(") or source[0].isdigit()):
                found[target.id] = np.asarray(eval(source, {"np": np}))
    return found


def numbers_outside_the_data(code: str) -> set[str]:
    """Float literals in the code that are not in an array assignment."""
    data = assigned_arrays(code)
    body = [
        ast.get_source_segment(code, node)
        for node in parsed(code).body
        if not (isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) in data)
    ]
    return set(re.findall(r"(?<![\w.])\d+\.\d+(?:e-?\d+)?", "\n".join(body)))


@pytest.mark.parametrize("config", LAYERS, ids=str)
@pytest.mark.parametrize("upstream", ["seed", "random"])
def test_playground_numpy_snippet_runs_and_agrees_with_the_screen(config, upstream):
    story = build_layer_story(
        LayerSettings(x=X.astype(float), config=config, upstream=upstream, seed=4)
    )
    assert run(playground_code.numpy_snippet(story)).endswith("equal the numbers on screen.\n")
    data = assigned_arrays(playground_code.numpy_snippet(story))
    np.testing.assert_array_equal(data["x"], story.x)
    np.testing.assert_array_equal(data["grad_y"], story.grad_output)
    np.testing.assert_array_equal(data["y_shown"], story.output)
    np.testing.assert_array_equal(data["grad_x_shown"], story.grad_x)


@pytest.mark.torch
@pytest.mark.parametrize("config", LAYERS, ids=str)
@pytest.mark.parametrize("upstream", ["seed", "random"])
def test_playground_torch_snippet_runs_and_agrees_with_the_screen(torch, config, upstream):
    story = build_layer_story(
        LayerSettings(x=X.astype(float), config=config, upstream=upstream, seed=4)
    )
    assert run(playground_code.torch_snippet(story)).endswith("equal the numbers on screen.\n")


@pytest.mark.parametrize("ties", ["first", "last", "split", "all"])
def test_tie_rules_numpy_follows_the_page_and_only_first_has_a_torch_snippet(ties):
    config = PoolConfig("max", 2, stride=1, ties=ties)
    story = build_layer_story(LayerSettings(x=TIED, config=config, upstream="seed", seed=0))
    assert run(playground_code.numpy_snippet(story)).endswith("on screen.\n")
    note = torch_tie_note(config)
    assert note is None if ties == "first" else f"“{ties}”" in note


@pytest.mark.torch
@pytest.mark.parametrize("ties", ["first", "last", "split", "all"])
def test_pytorch_reproduces_only_its_own_tie_rule(torch, ties):
    config = PoolConfig("max", 2, stride=1, ties=ties)
    story = build_layer_story(LayerSettings(x=TIED, config=config, upstream="seed", seed=0))
    if ties == "first":
        assert run(playground_code.torch_snippet(story)).endswith("on screen.\n")
    else:
        with pytest.raises(AssertionError):  # PyTorch's first-max rule gives other dL/dx
            run(playground_code.torch_snippet(story))


def test_snippets_carry_no_number_that_is_not_on_screen():
    story = build_layer_story(
        LayerSettings(x=X * 0.37, config=LAYERS[5], upstream="random", seed=9)
    )
    for code in (playground_code.torch_snippet(story), playground_code.numpy_snippet(story)):
        assert numbers_outside_the_data(code) <= {"1.0", "0.0"}, numbers_outside_the_data(code)
    allowed = {"__future__", "math", "types", "numpy"}
    assert imports(playground_code.numpy_snippet(story)) == allowed


BATCHES = [
    {},
    {"steps": 5, "reduction": "sum", "learning_rate": 0.03},
    {"network": NetConfig(3, 2, False, PoolConfig("avg", 3, stride=2, padding=1))},
    {"network": NetConfig(2, 3, True, PoolConfig("max", output_size=(2, 2)))},
    {"network": NetConfig(1, 5, True, PoolConfig("avg", output_size=1)), "source": "noise"},
    {"network": NetConfig(2, 3, True, PoolConfig("max", 3, stride=1, dilation=2))},
]


@pytest.mark.parametrize("changes", BATCHES, ids=str)
def test_batch_numpy_snippet_runs_and_agrees_with_the_page(changes):
    story = build_batch_story(batch_settings(**changes))
    code = batch_code.numpy_snippet(story)
    assert run(code).endswith("equal the numbers on screen.\n")
    assert numbers_outside_the_data(code) <= {"1.0", "0.0"}
    data = assigned_arrays(batch_code.numpy_snippet(story))
    np.testing.assert_array_equal(data["images"], story.images)
    np.testing.assert_array_equal(data["kernels"], story.params.kernels)
    np.testing.assert_array_equal(data["grad_kernels_shown"], story.reduced.kernels)
    np.testing.assert_array_equal(data["pooled_shown"], story.trace.pool.output)
    np.testing.assert_array_equal(data["routed_shown"], story.grads.at_pool_input)
    if story.is_max:
        np.testing.assert_array_equal(data["argmax_shown"], story.trace.pool.argmax)
    else:
        assert "argmax_shown" not in data


@pytest.mark.torch
@pytest.mark.parametrize("changes", BATCHES, ids=str)
def test_batch_torch_snippet_runs_and_agrees_with_the_page(torch, changes):
    code = batch_code.torch_snippet(build_batch_story(batch_settings(**changes)))
    assert run(code).endswith("equal the numbers on screen.\n")
    assert numbers_outside_the_data(code) <= {"1.0", "0.0"}


def test_the_pages_show_the_snippets_and_the_tie_note():
    app = open_app("screens/playground.py", {"tab": "share"})
    assert no_exceptions(app)
    shown = [block.value for block in app.code]
    assert any("F.max_pool2d(" in block for block in shown)
    assert any("loop_forward_backward(x, grad_y, config)" in block for block in shown)
    tied = open_app("screens/playground.py", {"tab": "share", "ties": "split"})
    assert any("one tie rule" in info.value for info in tied.info)
    batch = open_app("screens/batch.py", {"tab": "result"})
    assert any("F.cross_entropy(" in block.value for block in batch.code)


def test_every_weight_the_batch_snippet_embeds_is_listed_on_the_page():
    app = open_app("screens/batch.py", {"tab": "result"})
    assert no_exceptions(app)
    frames = [frame.value for frame in app.dataframe]
    shown = [frame.to_numpy() for frame in frames if all(t.kind == "f" for t in frame.dtypes)]
    story = build_batch_story(batch_settings())
    data = assigned_arrays(batch_code.numpy_snippet(story))
    params = story.params
    for name, value in (("weights", params.weights), ("out_bias", params.out_bias)):
        np.testing.assert_array_equal(data[name], value)
    expected = [
        params.kernels[:, 0].reshape(-1, params.kernels.shape[-1]),
        params.bias[:, None],
        params.weights,
        params.out_bias[:, None],
    ]
    for table in expected:
        assert any(s.shape == table.shape and np.array_equal(s, table) for s in shown), table.shape
