"""An editable number grid that keeps the user's work.

`st.data_editor` keeps its edits relative to the data it was given, so its output is
never fed back in as its input: the grid handed to the editor (the *base*) only
changes when something outside the editor replaces it (a preset, a resize, a link), and
then the editor gets a new key. The last valid edited grid is kept as *current*, which a
resize starts from. Each editor's keys (GridKeys) come from its page's state declaration.

Beside a folded editor, the grid as text in the link's format (`grid_text_field`): a
named field a keyboard and a screen reader use as any text box, where the data grid's
cells are hard to reach and edit without sight.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from teaching.links import MAX_GRID, check_values, parse_grid, write_grid
from ui.figures.style import EDITOR_COLUMN_PX, INDEX_COLUMN_PX
from ui.shared import browser
from ui.shared.state import GridKeys


def set_grid(keys: GridKeys, grid: np.ndarray) -> None:
    """Replace the grid from outside the editor (preset, resize, link)."""
    _restart_editor(keys, grid)
    st.session_state[keys.rows], st.session_state[keys.cols] = np.shape(grid)


def _restart_editor(keys: GridKeys, grid: np.ndarray) -> None:
    """Hand `grid` to a new editor (a new key) as the user's grid; the size inputs
    are left alone (the caller sets them, or they already match)."""
    state = st.session_state
    state[keys.base] = np.array(grid, dtype=np.float64)
    state[keys.current] = state[keys.base]
    state[keys.version] = state.get(keys.version, 0) + 1


def current_grid(keys: GridKeys) -> np.ndarray:
    """The last valid grid the user made."""
    return st.session_state[keys.current]


def resized(grid: np.ndarray, shape: tuple[int, int], fill: float = 0.0) -> np.ndarray:
    """grid cut or extended to `shape`; the values that still fit are kept."""
    out = np.full(shape, fill)
    rows, cols = min(shape[0], grid.shape[0]), min(shape[1], grid.shape[1])
    out[:rows, :cols] = grid[:rows, :cols]
    return out


def _resize(keys: GridKeys) -> None:
    shape = (st.session_state[keys.rows], st.session_state[keys.cols])
    set_grid(keys, resized(current_grid(keys), shape))


def size_inputs(keys: GridKeys) -> None:
    """Row and column counts, 1 to MAX_GRID; changing them keeps what still fits."""
    for column, (label, key) in zip(
        st.columns(2), (("Rows", keys.rows), ("Columns", keys.cols)), strict=True
    ):
        column.number_input(
            label,
            1,
            MAX_GRID,
            key=key,
            on_change=_resize,
            args=(keys,),
            help="Values that still fit are kept.",  # its range: the field's min and max
        )


def parse_edited(frame: pd.DataFrame) -> np.ndarray:
    """The edited table as a float grid; ValueError naming the first bad cell."""
    values = frame.apply(pd.to_numeric, errors="coerce").to_numpy(dtype=np.float64)
    check_values(values)
    return values


def grid_editor(
    keys: GridKeys,
    caption: str,
    *,
    columns: list[str] | None = None,
    index: list[str] | None = None,
    column_px: int = EDITOR_COLUMN_PX,
) -> np.ndarray | None:
    """Show the editor; return the edited grid, or None after saying what is wrong.
    `columns` and `index` name the grid's columns and rows (by default its columns
    are numbered from 0 and its rows go unnamed)."""
    state = st.session_state
    editor_key = keys.editor(state[keys.version])
    if editor_key not in state and not np.array_equal(state[keys.current], state[keys.base]):
        # The editor was off screen for a run (another choice, another example, its
        # fold closed), and Streamlit dropped its edits with it: start it again from
        # the user's grid. Its shape is the size inputs' already (they may be drawn
        # above it in this run, and then cannot be set).
        _restart_editor(keys, state[keys.current])
        editor_key = keys.editor(state[keys.version])
    base = state[keys.base]
    columns = columns or [str(c) for c in range(base.shape[1])]
    edited = st.data_editor(
        pd.DataFrame(base, columns=columns, index=index),
        key=editor_key,
        width="content",
        column_config={
            "_index": st.column_config.Column(width=INDEX_COLUMN_PX),
            **{
                c: st.column_config.NumberColumn(c, format="plain", width=column_px)
                for c in columns
            },
        },
    )
    st.caption(caption)
    try:
        grid = parse_edited(edited)
    except ValueError as error:
        browser.announce(str(error))
        with browser.quiet_alerts(f"{keys.fold}_refused"):  # said by announce, once
            st.error(str(error))
        return None
    state[keys.current] = grid
    return grid


def text_label(name: str) -> str:
    """The text field's name: what it holds and how it is written."""
    return f"{name} as text: rows split by ;, values by ,"


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _shape_words(shape: tuple[int, int]) -> str:
    return f"{_counted(shape[0], 'row')} and {_counted(shape[1], 'column')}"


def _reason(error: ValueError) -> str:
    """parse_grid's or check_values' reason, fit to follow "was not taken:"."""
    reason = str(error).rstrip(".")
    if reason.startswith("has "):  # it speaks of the text as a whole
        return f"it {reason}"
    return reason[:1].lower() + reason[1:]  # check_values starts a sentence ("Row 0, ...")


def _take_text(keys: GridKeys, name: str, shape: tuple[int, int] | None, why: str) -> None:
    """The text typed becomes the grid (the editor starts again from it, the size
    inputs follow), or its refusal is kept, and with it the text as typed (`shape`,
    when given: the one shape the grid may have, `why` says why)."""
    state = st.session_state
    typed = state[keys.text]
    try:
        grid = parse_grid(typed.strip())
    except ValueError as error:
        state[keys.text_refused] = (f"{name} as text was not taken: {_reason(error)}.", typed)
        return
    if shape is not None and grid.shape != tuple(shape):
        said = (
            f"{name} as text was not taken: it has {_shape_words(grid.shape)}, "
            f"and must have {_shape_words(shape)} ({why})."
        )
        state[keys.text_refused] = (said, typed)
        return
    state[keys.text_refused] = None
    set_grid(keys, grid)


def grid_text_field(
    keys: GridKeys, *, name: str, shape: tuple[int, int] | None = None, why: str = ""
) -> None:
    """The grid as text in the link's format ("1,3;2,0.5"), following the grid while
    nothing typed there is refused; typed and Enter (or leaving it), the grid becomes
    what it says; a refusal is said under it, the text kept as typed (also when the
    field left the screen for a while). `name` says which grid ("x", "dL/dy"); a grid
    of one fixed `shape` (rows, columns) refuses any other, saying `why` it is that."""
    state = st.session_state
    refused = state.get(keys.text_refused)
    if refused is None:
        state[keys.text] = write_grid(current_grid(keys))
    elif keys.text not in state:  # Streamlit drops a widget's value in a run without it
        state[keys.text] = refused[1]
    st.text_input(
        text_label(name), key=keys.text, on_change=_take_text, args=(keys, name, shape, why)
    )
    if refused is not None:
        browser.announce(refused[0])
        with browser.quiet_alerts(f"{keys.text}_refused"):  # said by announce, once
            st.error(refused[0], icon=":material/error:")


def folded_grid_editor(keys: GridKeys, caption: str, *, label: str, name: str, folded: bool):
    """grid_editor in an expander whose content runs only while it is open
    (on_change="rerun"), or straight on the page when not `folded` (lecture mode folds
    a page's inputs already). Folded, the page opens without the editor's scripts (the
    data grid and Arrow, about 1.3 MB: a seventh of the floor app's open time) and the
    grid is the user's last valid one. Returns as grid_editor does. Under it, the grid
    as text (grid_text_field, `name`: the grid's, "x"), open or folded."""
    if not folded:
        grid = grid_editor(keys, caption)
    else:
        fold = st.expander(label, key=keys.fold, on_change="rerun", icon=":material/edit:")
        if fold.open:
            with fold:
                grid = grid_editor(keys, caption)
        else:
            grid = current_grid(keys)
    grid_text_field(keys, name=name)
    return grid
