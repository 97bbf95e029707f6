"""The Playground's share links through AppTest: a link restores its screen, a tampered
or invalid one falls back with a notice that names the rule, and grid values are
checked cell by cell."""

import numpy as np
import pytest
from apptest import (
    errors,
    figure_titled,
    figures,
    heatmap_values,
    no_exceptions,
    open_app,
)

from teaching.links import write_grid
from ui.shared.grid_editor import text_label

PLAYGROUND = "screens/playground.py"


# -- playground: share links ---------------------------------------------------------------


def test_link_round_trip_restores_the_screen():
    app = open_app(PLAYGROUND)
    app.button(key="pg_preset_overlap").click().run()
    app.radio(key="pg_mode").set_value("avg")
    app.selectbox(key="pg_ties").set_value("split").run()
    link = dict(app.query_params)
    assert link["mode"] == "avg" and link["kh"] == "3" and link["sh"] == "1"
    reopened = open_app(PLAYGROUND, {k: v if isinstance(v, str) else v[0] for k, v in link.items()})
    assert (
        no_exceptions(reopened)
        and reopened.warning == []
        or all("Link value" not in w.value for w in reopened.warning)
    )
    for key in ("pg_mode", "pg_kh", "pg_sh", "pg_ties"):
        assert reopened.session_state[key] == app.session_state[key]
    assert heatmap_values(figure_titled(reopened, "Input x"), "value") == heatmap_values(
        figure_titled(app, "Input x"), "value"
    )


@pytest.mark.parametrize(
    "query",
    [
        {"kh": "abc"},
        {"kh": "99"},
        {"mode": "median"},
        {"x": "1,2;3"},
        {"x": "1,a"},
        {"x": ";".join(["1"] * 17)},
        {"ties": "random"},
        {"ceil": "yes"},
        {"cell": "1"},
        {"step": "-3"},
        {"x": "1,nan"},
        {"g": "zeros"},
        {"screen": "5"},
        {"screen": "two"},
    ],
)
def test_tampered_links_fall_back_with_a_notice(query):
    app = open_app(PLAYGROUND, query)
    assert no_exceptions(app)
    notices = [w.value for w in app.warning]
    assert any("Link value" in notice and list(query)[0] in notice for notice in notices), notices


def test_link_with_an_invalid_combination_shows_the_rule():
    app = open_app(PLAYGROUND, {"kh": "3", "kw": "3", "pad": "2"})
    assert no_exceptions(app)
    assert any("padding 2 is more than half the 3-tall window" in e for e in errors(app))


def test_link_step_beyond_the_grid_is_clamped():
    app = open_app(PLAYGROUND, {"step": "200", "cell": "40,40"})
    assert no_exceptions(app) and errors(app) == []
    assert app.session_state["pg_step"] == 0 and app.session_state["pg_cell"] == (1, 1)


def test_grid_values_are_checked_cell_by_cell():
    import pandas as pd

    from ui.shared.grid_editor import parse_edited

    assert parse_edited(pd.DataFrame([[1.0, "2.5"]])).tolist() == [[1.0, 2.5]]
    with pytest.raises(ValueError, match="Row 0, column 1 is empty or not a number"):
        parse_edited(pd.DataFrame([[1.0, np.nan]]))
    with pytest.raises(ValueError, match="Row 1, column 0 is empty or not a number"):
        parse_edited(pd.DataFrame([[1.0, 2.0], ["abc", 3.0]]))
    with pytest.raises(ValueError, match="Row 0, column 0 holds 1e\\+09; values must be between"):
        parse_edited(pd.DataFrame([[1e9]]))


def test_a_link_with_a_huge_value_falls_back_with_a_notice():
    app = open_app(PLAYGROUND, {"x": "1,2;3,1e300"})
    assert no_exceptions(app)
    assert any("Link value **x**" in w.value and "between" in w.value for w in app.warning)


def titles(app) -> list[str]:
    return [figure["layout"]["title"]["text"] for figure in figures(app)]


def test_in_lecture_mode_both_passes_shows_one_screen_and_a_link_opens_on_its_screen():
    """A projector's screen each: the forward pass's two maps, then the backward
    pass's; on a desk all six charts, one under the other, with no walk."""
    first = open_app(PLAYGROUND, {"lecture": "1"})
    assert no_exceptions(first)
    assert titles(first) == ["Input x", "Output y"]
    assert "**1 of 4** · The forward pass: x and y" in [m.value for m in first.markdown]
    second = open_app(PLAYGROUND, {"lecture": "1", "screen": "2"})
    assert titles(second) == ["Upstream dL/dy", "dL/dx"]
    desk = open_app(PLAYGROUND, {"screen": "2"})
    assert len(titles(desk)) == 6
    assert not any(" of 4** · " in m.value for m in desk.markdown)


# -- x as text, beside its data grid (issue 39: x editable from the keyboard) ----------------


def x_text(app):
    (box,) = [box for box in app.text_input if box.label == text_label("x")]
    return box


def test_x_typed_as_text_becomes_x_and_the_text_follows_a_preset():
    app = open_app(PLAYGROUND)
    assert x_text(app).value == write_grid(current_x(app))
    x_text(app).set_value("1, 2, 0; 0, 9, 1; 2, 1, 4").run()
    typed = np.array([[1, 2, 0], [0, 9, 1], [2, 1, 4]])
    assert np.array_equal(current_x(app), typed) and errors(app) == []
    assert heatmap_values(figure_titled(app, "Input x"), "value") == typed.tolist()
    assert (app.session_state["pg_grid_rows"], app.session_state["pg_grid_cols"]) == (3, 3)
    assert app.query_params["x"] in ("1,2,0;0,9,1;2,1,4", ["1,2,0;0,9,1;2,1,4"])
    app.button(key="pg_preset_overlap").click().run()
    assert x_text(app).value == write_grid(current_x(app))  # the text follows x


@pytest.mark.parametrize(
    "typed, said",
    [
        ("1,2;3", "row 1 has 1 value and row 0 has 2 values: rows must all have the same length."),
        ("1,a;3,4", "row 0, column 1 holds something that is not a number."),
        ("1,;3,4", "row 0, column 1 is empty."),
        (";".join(["1"] * 17), "it has 17 rows; it must have 1 to 16."),
        ("1,2e7", "row 0, column 1 holds 2e+07; values must be between −1e+06 and 1e+06."),
        ("1,nan", "row 0, column 1 is empty or not a number: type a number there."),
    ],
)
def test_x_text_that_does_not_read_is_refused_by_name_and_kept_as_typed(typed, said):
    app = open_app(PLAYGROUND)
    before = current_x(app).copy()
    x_text(app).set_value(typed).run()
    assert no_exceptions(app)
    (refusal,) = errors(app)
    assert refusal == f"x as text was not taken: {said}"  # one sentence, one full stop
    assert x_text(app).value == typed  # the user's text kept
    assert np.array_equal(current_x(app), before)
    app.run()  # another run keeps both
    assert x_text(app).value == typed and errors(app) == [refusal]
    x_text(app).set_value("5,6;7,8").run()
    assert errors(app) == [] and current_x(app).tolist() == [[5.0, 6.0], [7.0, 8.0]]


def current_x(app) -> np.ndarray:
    return np.asarray(app.session_state["pg_grid_current"])
