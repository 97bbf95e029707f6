"""Typed page state: every session-state and widget key is named once, in a state
declaration (ui/shared/state.py or a page's state.py); the choice types (mode, tie
rule, upstream, exercise kind) are Literal types whose members every comparison uses;
presets name the fields they set.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import get_args

import numpy as np
import pytest
from source_tree import parsed

from pooling.batch import REDUCTIONS
from pooling.config import MODES, TIES, Mode, TieRule
from teaching.batch.data import SOURCES, Source
from teaching.exercises.model import KINDS, Kind
from teaching.playground.model import UPSTREAMS, Upstream
from teaching.playground.presets import PRESETS, PresetSettings
from ui.batch.state import STATE as BATCH
from ui.exercises.state import STATE as EXERCISES
from ui.lesson.state import STATE as LESSON
from ui.playground.state import STATE as PLAYGROUND
from ui.shared.controls import SIZINGS, Sizing

ROOT = Path(__file__).resolve().parent.parent
DECLARATIONS = {"ui.playground": PLAYGROUND, "ui.batch": BATCH, "ui.lesson": LESSON}
DECLARATIONS["ui.exercises"] = EXERCISES
KEY_CALLS = ("get", "pop", "setdefault")


def _session_state_names(tree: ast.AST) -> set[str]:
    """Names bound to st.session_state (`state = st.session_state`)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Attribute):
            if node.value.attr == "session_state":
                names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def _is_state(node: ast.AST, names: set[str]) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr == "session_state"
    return isinstance(node, ast.Name) and node.id in names


def _key_places(tree: ast.AST) -> list[ast.AST]:
    """Every expression used as a key: a widget's key=, a session-state index, the key
    of state.get/pop/setdefault, the left side of `... in state`."""
    names = _session_state_names(tree)
    places = []
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "key":
            places.append(node.value)
        elif isinstance(node, ast.Subscript) and _is_state(node.value, names):
            places.append(node.slice)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in KEY_CALLS and _is_state(node.func.value, names) and node.args:
                places.append(node.args[0])
        elif isinstance(node, ast.Compare) and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            if _is_state(node.comparators[0], names):
                places.append(node.left)
    return places


def built_keys(source: str) -> list[int]:
    """Lines where a key is built with an f-string: in a key place itself, or in a
    variable that is then used in one."""
    tree = parsed(source)
    places = _key_places(tree)
    lines = [
        node.lineno
        for place in places
        for node in ast.walk(place)
        if isinstance(node, ast.JoinedStr)
    ]
    used = {place.id for place in places if isinstance(place, ast.Name)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.JoinedStr):
            if any(isinstance(t, ast.Name) and t.id in used for t in node.targets):
                lines.append(node.lineno)
    return sorted(lines)


def test_the_scan_finds_every_way_a_key_was_built_before():
    source = "\n".join(
        [
            'st.button("Go", key=f"{P}_go")',  # 1
            "state = st.session_state",
            'state[f"{prefix}_ready"] = True',  # 3
            'st.session_state.pop(f"{prefix}_notices", [])',  # 4
            'if f"{prefix}_base" not in state: pass',  # 5
            'shown = f"{key}_shown"',  # 6
            'st.slider("x", key=shown)',
            'st.download_button("a", file_name=f"{stem}_torch.py", key=KEYS.code)',
            'chart(figure, key=STATE.pair_figure("input", 0))',
        ]
    )
    assert built_keys(source) == [1, 3, 4, 5, 6]


def test_no_key_is_built_with_an_f_string_outside_the_state_declarations():
    found = {}
    for path in sorted((ROOT / "ui").rglob("*.py")):
        if path.name == "state.py":
            continue  # the declarations: a key may be built there, from ids
        lines = built_keys(path.read_text())
        if lines:
            found[str(path.relative_to(ROOT))] = lines
    assert not found, found


def declared_keys(declaration) -> set[str]:
    """Every key a declaration names, its bundles' (pool, grids, players) included."""
    keys, todo = set(), [dataclasses.astuple(declaration)]
    while todo:
        for value in todo.pop():
            if isinstance(value, str):
                keys.add(value)
            elif isinstance(value, tuple):
                todo.append(value)
    return keys


@pytest.mark.parametrize("package", sorted(DECLARATIONS))
def test_each_page_declares_its_keys_under_its_own_prefix_and_links_only_those(package):
    declaration = DECLARATIONS[package]
    own = [value for value in dataclasses.astuple(declaration) if isinstance(value, str)]
    assert len(own) == len(set(own))  # no key named twice
    prefix = declaration.page.ready.removesuffix("_ready")
    box = ("scroll_", "wide_")  # a scrolling chart's boxes, named after the chart
    for key in declared_keys(declaration):
        assert key.removeprefix(box[0]).removeprefix(box[1]).startswith(f"{prefix}_"), key
    assert {field.key for field in declaration.fields} <= declared_keys(declaration)


def test_the_pages_share_no_key():
    sets = [declared_keys(declaration) for declaration in DECLARATIONS.values()]
    assert sum(map(len, sets)) == len(set().union(*sets))


def test_each_choice_type_lists_its_choices():
    assert MODES == get_args(Mode) == ("max", "avg")
    assert TIES == get_args(TieRule) == ("first", "last", "split", "all")
    assert UPSTREAMS == get_args(Upstream)
    assert tuple(KINDS) == get_args(Kind)
    assert tuple(SOURCES) == get_args(Source)
    assert tuple(SIZINGS) == get_args(Sizing)


# What a name holds, where a comparison spells one of its values.
CHOICES = {
    "mode": MODES,
    "ties": TIES,
    "rule": TIES,
    "upstream": UPSTREAMS,
    "chosen_upstream": UPSTREAMS,
    "source": tuple(SOURCES),
    "chosen_source": tuple(SOURCES),
    "reduction": REDUCTIONS,
    "kind_name": tuple(KINDS),
}
EXERCISE_CHOICES = {**CHOICES, "kind": tuple(KINDS)}  # elsewhere "kind" is a map's


def _name_of(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else None


def _spelled(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant)]
    return []


def misspelled_choices(source: str, choices: dict) -> list[tuple[int, str]]:
    wrong = []
    for node in ast.walk(parsed(source)):
        if not isinstance(node, ast.Compare) or len(node.ops) != 1:
            continue
        if not isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):
            continue
        for named, other in ((node.left, node.comparators[0]), (node.comparators[0], node.left)):
            allowed = choices.get(_name_of(named))
            if allowed is not None:
                wrong += [(node.lineno, text) for text in _spelled(other) if text not in allowed]
    return wrong


def test_the_check_finds_a_misspelled_choice():
    source = 'if config.mode == "average": pass\nif ties in ("first", "lst"): pass'
    assert misspelled_choices(source, CHOICES) == [(1, "average"), (2, "lst")]


def test_every_comparison_spells_a_member_of_its_choice_type():
    """What a type checker would say of the Literal types, without one."""
    wrong = {}
    for folder in ("ui", "pooling", "cnn"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            exercise = path.parent.name == "exercises"
            found = misspelled_choices(path.read_text(), EXERCISE_CHOICES if exercise else CHOICES)
            if found:
                wrong[str(path.relative_to(ROOT))] = found
    assert not wrong, wrong


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_each_preset_names_fields_of_the_page_and_values_its_link_accepts(name):
    start = PRESETS[name].make(np.random.default_rng(0))
    keys = PLAYGROUND.preset_keys()
    assert set(start.settings) <= set(PresetSettings.__annotations__) <= set(keys)
    fields = {field.key: field for field in PLAYGROUND.fields}
    for setting, value in start.settings.items():
        field = fields[keys[setting]]
        assert field.parse(field.write(value)) == value


def test_a_playground_link_can_name_every_window_the_widgets_allow():
    # The widest output any allowed layer makes of the largest grid, by brute force over
    # the widgets' limits: the link's step bound must reach its last window, no further.
    from pooling.geometry import output_length
    from teaching.links import MAX_GRID
    from ui.playground.state import STATE
    from ui.shared.controls import DILATION_MAX, KERNEL_MAX, OUTPUT_MAX, PADDING_MAX

    widest = max(
        output_length(MAX_GRID, kernel, 1, padding, dilation, ceil)
        for kernel in range(1, KERNEL_MAX + 1)
        for padding in range(min(PADDING_MAX, kernel // 2) + 1)
        for dilation in range(1, DILATION_MAX + 1)
        for ceil in (False, True)
    )
    widest = max(widest, OUTPUT_MAX)  # adaptive pooling sets the output itself
    assert STATE.STEP_MAX == widest * widest - 1
