"""A seeded sweep of random links and random widget sequences through AppTest.

Whatever a link or a click holds, a page shows a short message and never a traceback,
and no text from the link is ever rendered as markdown: it may only appear inside a
code span.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from apptest import open_app
from streamlit.testing.v1.errors import AppTestError

from teaching.exercises.model import make_problem
from ui.batch.state import FIELDS as BATCH_FIELDS
from ui.exercises.state import FIELDS as EXERCISE_FIELDS
from ui.lesson.state import FIELDS as LESSON_FIELDS
from ui.playground.state import FIELDS as PLAYGROUND_FIELDS
from ui.shared.lecture import LECTURE

PAGES = {
    page: [field.url for field in fields] + [LECTURE]
    for page, fields in (
        ("screens/playground.py", PLAYGROUND_FIELDS),
        ("screens/batch.py", BATCH_FIELDS),
        ("screens/lesson.py", LESSON_FIELDS),
        ("screens/exercises.py", EXERCISE_FIELDS),
    )
}
# Text a visitor might put in a link to make the lab's own page show something else.
HOSTILE = [
    "[click me](https://example.org/x)",
    "<https://example.org/x>",
    "![p](https://example.org/p.png)",
    "<img src=https://example.org/p.png>",
    ":red[example.org] :material/home:",
    "$\\href{https://example.org}{x}$",
    "`` ` ``example.org",
    "**example.org**\n\n# example.org",
]
PLAIN = ["0", "1", "2", "3", "8", "-1", "99", "1e9", "nan", "", "max", "avg", "mean", "sum", "x"]
CODE_SPAN = re.compile(r"(`+) .*? \1", re.DOTALL)
LINK_CASES = 320
WIDGET_SEQUENCES = 40


def random_value(rng: np.random.Generator, name: str) -> str:
    roll = rng.random()
    if roll < 0.25:
        return str(rng.choice(HOSTILE))
    if roll < 0.35 and name in ("x", "gy"):
        rows, cols = rng.integers(1, 18, 2)
        return ";".join(
            ",".join(str(rng.integers(-9, 10)) for _ in range(cols)) for _ in range(rows)
        )
    if roll < 0.45 and name == "tab":
        return str(
            rng.choice(["forward", "step", "ties", "matrix", "pair", "examples", "training"])
        )
    return str(rng.choice(PLAIN))


def text_outside_code(app) -> str:
    shown = [
        e.value
        for kind in ("markdown", "caption", "warning", "error", "info")
        for e in app.get(kind)
    ]
    return CODE_SPAN.sub("", "\n".join(str(text) for text in shown))


def assert_page_is_sound(app, context) -> None:
    assert not app.exception, (context, [e.value for e in app.exception])
    outside = text_outside_code(app)
    assert "example.org" not in outside, (context, outside)


def link_cases():
    rng = np.random.default_rng(20261122)
    for index in range(LINK_CASES):
        page = list(PAGES)[index % len(PAGES)]
        count = min(int(rng.integers(1, 6)), len(PAGES[page]))
        names = rng.choice(PAGES[page], size=count, replace=False)
        yield page, {str(name): random_value(rng, str(name)) for name in names}


def test_random_links_never_break_a_page_nor_inject_markdown():
    for page, query in link_cases():
        assert_page_is_sound(open_app(page, query), (page, query))


PLAYGROUND_ACTIONS = [
    ("radio", "pg_mode", ["max", "avg"]),
    ("radio", "pg_sizing", ["window", "output", "window"]),
    ("number_input", "pg_oh", [1, 2, 5]),
    ("number_input", "pg_kh", [1, 2, 3, 5, 8]),
    ("number_input", "pg_kw", [1, 2, 3, 8]),
    ("number_input", "pg_sh", [1, 2, 3]),
    ("number_input", "pg_sw", [1, 2, 4]),
    ("number_input", "pg_pad", [0, 1, 2, 4]),
    ("number_input", "pg_dil", [1, 2, 4]),
    ("toggle", "pg_ceil", [True, False]),
    ("toggle", "pg_cip", [True, False]),
    ("number_input", "pg_div", [0, 1, 7]),
    ("selectbox", "pg_ties", ["first", "last", "split", "all"]),
    ("radio", "pg_upstream", ["ones", "random", "seed", "custom"]),
    ("number_input", "pg_grid_rows", [1, 3, 16]),
    ("number_input", "pg_grid_cols", [1, 4, 16]),
    ("button", "pg_preset_", ["seed", "ties", "ints", "floats", "digit", "overlap"]),
    ("tab", "pg_tab", ["Both passes", "Step through", "Ledger", "Matrix", "Tie lab"]),
]
BATCH_ACTIONS = [
    ("radio", "bt_mode", ["max", "avg"]),
    ("radio", "bt_sizing", ["window", "output"]),
    ("number_input", "bt_kh", [1, 2, 3, 6]),
    ("number_input", "bt_sh", [1, 2]),
    ("number_input", "bt_pad", [0, 1, 2]),
    ("number_input", "bt_size", [1, 2, 9, 64]),
    ("number_input", "bt_kernels", [1, 4]),
    ("number_input", "bt_ksize", [1, 3, 5]),
    ("toggle", "bt_relu", [True, False]),
    ("radio", "bt_reduction", ["mean", "sum"]),
    ("selectbox", "bt_source", ["digits", "noise", "edit"]),
    ("tab", "bt_tab", ["Two examples", "Per example", "Batch result", "Training"]),
    ("state", "bt_steps", [1, 13, 0, 200]),  # the training player's step, from the browser
]


def act(app, kind: str, key: str, value) -> None:
    if kind == "button":
        app.button(key=f"{key}{value}").click()
    elif kind in ("tab", "state"):  # a tab clicked; a frame player's position sent
        app.session_state[key] = value
    else:
        getattr(app, kind)(key=key).set_value(value)
    app.run()


@pytest.mark.parametrize(
    "page, actions",
    [("screens/playground.py", PLAYGROUND_ACTIONS), ("screens/batch.py", BATCH_ACTIONS)],
)
def test_random_widget_sequences_never_break_a_page(page, actions):
    rng = np.random.default_rng(7)
    performed = 0
    for sequence in range(WIDGET_SEQUENCES // 2):
        app = open_app(page)
        done = []
        for _ in range(5):
            kind, key, values = actions[int(rng.integers(len(actions)))]
            value = values[int(rng.integers(len(values)))]
            try:
                act(app, kind, key, value)
            except (KeyError, AppTestError):
                continue  # not on screen (an error above it) or disabled: a person can't either
            done.append((key, value))
            assert_page_is_sound(app, (page, sequence, done))
        performed += len(done)
    assert performed >= 0.7 * 5 * (WIDGET_SEQUENCES // 2)  # the sweep really acted


ADAPTIVE_TABS = ["forward", "step", "ledger", "matrix", "ties", "share"]


@pytest.mark.parametrize("tab", ADAPTIVE_TABS)
@pytest.mark.parametrize(
    "layer",
    [
        {"mode": "max", "oh": "2", "ow": "3"},
        {"mode": "max", "oh": "1", "ow": "1", "ties": "split"},
        {"mode": "avg", "oh": "3", "ow": "2", "ties": "all"},
    ],
    ids=str,
)
def test_adaptive_pooling_opens_every_playground_tab(tab, layer):
    query = {"sizing": "output", "x": "1,3,3;2,0,3;3,1,2;0,3,1", **layer, "tab": tab}
    app = open_app("screens/playground.py", query)
    assert_page_is_sound(app, query)
    assert not app.warning or all("Link value" not in w.value for w in app.warning), query


EXERCISE_ANSWERS = [
    "1" + "0" * 310 + "/1",
    "9" * 400,
    "1e300/1e-300",
    "1e9999999",
    "-1e400",
    "1/0",
    "1/2/3",
    "nan",
    "[x](https://example.org)",
    "7" * 100_000,
]


def typed_seed(kind: str, level: int = 3) -> int:
    """The first seed whose first problem of `kind` is answered in a box (a batch set
    also asks window questions answered by picking cells)."""
    return next(
        seed for seed in range(5, 100) if not make_problem(kind, level, seed, 1).picks_cells
    )


@pytest.mark.parametrize("kind", ["value", "batch", "size"])
def test_exercise_answers_beyond_float_range_get_a_message(kind):
    query = {"kind": kind, "level": "3", "seed": str(typed_seed(kind))}
    app = open_app("screens/exercises.py", query)
    boxes = [box for box in app.text_input if box.key.startswith("ex_")]
    for answer in EXERCISE_ANSWERS:
        for box in boxes:
            box.input(answer)
        next(button for button in app.button if button.label == "Check").click().run()
        assert_page_is_sound(app, (kind, answer[:20]))
        assert app.warning, (kind, answer[:20])  # a short reason, the text kept
        assert all(len(w.value) < 300 for w in app.warning), (kind, answer[:20])
