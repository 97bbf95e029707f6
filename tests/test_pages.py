"""Home and Playground through AppTest: every control path, no exception anywhere."""

import numpy as np
import pytest
from apptest import (
    component_data,
    errors,
    expander_labels,
    figure_titled,
    figures,
    heatmap_values,
    no_exceptions,
    open_app,
)

from teaching.playground.presets import PRESETS

PLAYGROUND = "screens/playground.py"


# -- home -------------------------------------------------------------------------------


def metrics(app) -> list[str]:
    return [metric.value for metric in app.metric]


def test_home_shows_the_seed_numbers():
    app = open_app()
    assert no_exceptions(app)
    # a=1, b=3, dL/dy=2.5: max routes all to b; average gives each 1.25.
    assert metrics(app) == ["3", "0", "2.5", "2", "1.25", "1.25"]


def test_home_follows_the_winner_and_explains_ties():
    app = open_app()
    app.number_input(key="home_a").set_value(5.0).run()
    assert metrics(app)[:3] == ["5", "2.5", "0"]
    app.number_input(key="home_a").set_value(3.0).run()
    assert metrics(app)[:3] == ["3", "2.5", "0"]  # tie: the first cell, a
    assert any("a tie" in md.value for md in app.markdown)


# -- playground: defaults and presets ----------------------------------------------------


def test_playground_default_is_the_seed_window():
    app = open_app(PLAYGROUND)
    assert no_exceptions(app) and errors(app) == []
    assert heatmap_values(figure_titled(app, "Input x"), "value") == [[1.0, 3.0], [2.0, 0.5]]
    assert heatmap_values(figure_titled(app, "Output y"), "value") == [[3.0]]
    assert heatmap_values(figure_titled(app, "dL/dx"), "gradient") == [[0, 1.0], [0, 0]]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_loads_and_renders(preset):
    app = open_app(PLAYGROUND)
    app.button(key=f"pg_preset_{preset}").click().run()
    assert no_exceptions(app) and errors(app) == []
    grid = np.array(heatmap_values(figure_titled(app, "Input x"), "value"), dtype=float)
    assert np.isfinite(grid).all()


def test_seed_preset_with_its_upstream_routes_2_5_to_the_winner():
    app = open_app(PLAYGROUND)
    app.button(key="pg_preset_seed").click().run()
    assert app.radio(key="pg_upstream").value == "seed"
    assert heatmap_values(figure_titled(app, "dL/dx"), "gradient") == [[0, 2.5], [0, 0]]


def test_overlap_preset_accumulates_from_several_windows():
    app = open_app(PLAYGROUND)
    app.button(key="pg_preset_overlap").click().run()
    grad = np.array(heatmap_values(figure_titled(app, "dL/dx"), "gradient"))
    counts = np.array(heatmap_values(figure_titled(app, "Windows reading each cell"), "count"))
    assert grad.max() > 1  # the 9 wins several 3x3 windows: gradients add up
    assert counts.max() == 9 and grad.sum() == 9.0  # 3x3 outputs, all ones upstream


# -- playground: controls ----------------------------------------------------------------


def test_average_mode_spreads_evenly():
    app = open_app(PLAYGROUND)
    app.radio(key="pg_mode").set_value("avg").run()
    assert no_exceptions(app)
    assert heatmap_values(figure_titled(app, "dL/dx"), "gradient") == [[0.25, 0.25], [0.25, 0.25]]


@pytest.mark.parametrize(
    "ties, expected_total", [("first", 1), ("last", 1), ("split", 1), ("all", 2)]
)
def test_every_tie_policy(ties, expected_total):
    app = open_app(PLAYGROUND, {"x": "4,1;4,0"})
    app.selectbox(key="pg_ties").set_value(ties).run()
    assert no_exceptions(app)
    grad = np.array(heatmap_values(figure_titled(app, "dL/dx"), "gradient"))
    assert grad.sum() == expected_total


def test_tie_lab_flags_the_all_rule():
    app = open_app(PLAYGROUND, {"tab": "ties"})
    app.button(key="pg_preset_ties").click().run()
    table = next(frame.value for frame in app.dataframe if "rule" in frame.value.columns)
    verdict = dict(zip(table["rule"], table["sums agree"], strict=True))
    assert verdict["first"] == verdict["last"] == verdict["split"] == "yes"
    assert verdict["all"].startswith("no")
    central = dict(zip(table["rule"], table["= central diff."], strict=True))
    assert central["split"] == "yes"  # the preset's ties are all two-way


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"pg_pad": 2}, "padding 2 is more than half the 2-tall window"),
        ({"pg_kh": 8, "pg_kw": 8}, "output height would be"),
        ({"pg_kh": 2, "pg_pad": 1, "pg_dil": 2, "pg_sh": 2}, None),
    ],
)
def test_invalid_combinations_show_a_message_and_keep_the_work(changes, message):
    app = open_app(PLAYGROUND)
    app.button(key="pg_preset_ints").click().run()
    grid_before = heatmap_values(figure_titled(app, "Input x"), "value")
    for key, value in changes.items():
        app.number_input(key=key).set_value(value)
    app.run()
    assert no_exceptions(app)
    if message is None:
        return
    assert any(message in error for error in errors(app)), errors(app)
    for key, value in changes.items():
        assert app.session_state[key] == value  # settings kept
    assert (app.session_state["pg_grid_current"] == np.array(grid_before)).all()  # grid kept
    app.number_input(key="pg_pad").set_value(0)
    app.number_input(key="pg_kh").set_value(2)
    app.number_input(key="pg_kw").set_value(2).run()
    assert errors(app) == []
    assert heatmap_values(figure_titled(app, "Input x"), "value") == grid_before


def test_the_folded_editor_opens_again_on_the_grid_edited_before_it_was_closed():
    """An edit kept as the user's grid while the fold was closed (Streamlit dropped the
    editor's own edits with it): opening the fold again starts the editor from it, with
    no traceback, and the sizes stay."""
    app = open_app(PLAYGROUND)
    app.session_state["pg_grid_fold"] = True  # opened
    app.run()
    assert len(app.dataframe) == 1 and no_exceptions(app)  # the editor
    app.session_state["pg_grid_fold"] = False  # closed
    app.run()
    assert len(app.dataframe) == 0
    edited = np.array([[7.0, 3.0], [2.0, 0.5]])
    app.session_state["pg_grid_current"] = edited  # what the editor had kept
    app.run()
    app.session_state["pg_grid_fold"] = True  # opened again
    app.run()
    assert no_exceptions(app), app.exception
    assert heatmap_values(figure_titled(app, "Input x"), "value") == edited.tolist()
    assert (app.session_state["pg_grid_base"] == edited).all()  # the editor starts from it
    assert app.number_input(key="pg_grid_rows").value == 2


def test_resizing_keeps_the_values_that_still_fit():
    app = open_app(PLAYGROUND)
    app.number_input(key="pg_grid_rows").set_value(3).run()
    app.number_input(key="pg_grid_cols").set_value(4).run()
    grid = heatmap_values(figure_titled(app, "Input x"), "value")
    assert grid == [[1, 3, 0, 0], [2, 0.5, 0, 0], [0, 0, 0, 0]]


def test_ceil_mode_and_divisor_override():
    app = open_app(PLAYGROUND, {"x": "1,2,3;4,5,6;7,8,9", "mode": "avg"})
    app.toggle(key="pg_ceil").set_value(True).run()
    assert heatmap_values(figure_titled(app, "Output y"), "value") == [[3.0, 4.5], [7.5, 9.0]]
    app.toggle(key="pg_cip").set_value(False)
    app.number_input(key="pg_div").set_value(2).run()
    assert heatmap_values(figure_titled(app, "Output y"), "value") == [[6.0, 4.5], [7.5, 4.5]]


def test_upstream_choices():
    app = open_app(PLAYGROUND, {"x": "1,2,3,4;5,6,7,8"})
    for kind in ("random", "seed", "custom", "ones"):
        app.radio(key="pg_upstream").set_value(kind).run()
        assert no_exceptions(app) and errors(app) == []
    app.radio(key="pg_upstream").set_value("seed").run()
    assert heatmap_values(figure_titled(app, "Upstream dL/dy"), "gradient") == [[2.5, 2.5]]


def test_step_through_and_ledger():
    app = open_app(PLAYGROUND, {"tab": "step"})
    app.button(key="pg_preset_overlap").click().run()
    app.session_state["pg_step"] = 4  # what the browser's player sends when Play stops
    app.run()
    assert no_exceptions(app)
    assert figure_titled(app, "dL/dx after 5 of 9 windows")
    player = component_data(app, "pg_frames")
    assert player["position"] == 4 and player["frames"]["count"] == 9
    assert app.query_params["step"] == "4"
    app.session_state["pg_tab"] = "Ledger"
    app.run()
    app.selectbox(key="pg_cell").set_value((1, 1)).run()
    formula = [latex.value for latex in app.latex if "x_{1,1}" in latex.value]
    # The 9 at (1, 1) wins the four 3x3 windows that contain it, each sending 1.
    assert formula and formula[0].strip("$\n").endswith(r"&= 4\end{aligned}")


# -- playground: adaptive and global pooling ------------------------------------------------

OVERLAP_X = "1,2,0,1,3;0,9,1,0,2;2,1,4,1,0;0,3,1,8,1;1,0,2,1,0"


def test_adaptive_windows_overlap_and_route_like_the_others():
    app = open_app(PLAYGROUND, {"x": OVERLAP_X})
    app.radio(key="pg_sizing").set_value("output").run()
    assert no_exceptions(app) and errors(app) == []
    # 5 cells into 2: windows read 0-2 and 2-4, so row and column 2 belong to both.
    assert heatmap_values(figure_titled(app, "Output y"), "value") == [[9, 4], [4, 8]]
    counts = heatmap_values(figure_titled(app, "Windows reading each cell"), "count")
    assert counts[2][2] == 4 and counts[0][0] == 1
    grad = heatmap_values(figure_titled(app, "dL/dx"), "gradient")
    assert grad[1][1] == 1 and grad[2][2] == 2 and grad[3][3] == 1  # the 4 wins twice
    # The rule is folded (its LaTeX would load KaTeX on every open); its label has the size.
    assert "**Output size** 2 × 2" in [text.value for text in app.markdown]
    assert "PyTorch's rule, with these numbers" in expander_labels(app)
    assert app.latex == []
    app.session_state["pg_size_fold"] = True  # opened
    app.run()
    formula = "\n".join(latex.value for latex in app.latex)
    assert r"0\text{–}2,\ 2\text{–}4" in formula and "(chosen)" in formula
    assert app.query_params["sizing"] == "output" and app.query_params["oh"] == "2"


def test_global_pooling_is_output_size_one():
    app = open_app(
        PLAYGROUND, {"x": OVERLAP_X, "sizing": "output", "oh": "1", "ow": "1", "mode": "avg"}
    )
    assert no_exceptions(app) and errors(app) == []
    (y,) = heatmap_values(figure_titled(app, "Output y"), "value")
    assert y == [pytest.approx(44 / 25)]  # the mean of all 25 cells (they sum to 44)
    app.session_state["pg_tab"] = "Step through"
    app.run()
    (words,) = component_data(app, "pg_frames")["frames"]["words"]  # one window
    assert "the mean of its 25 cells" in words["sentence"]


def test_an_adaptive_link_restores_and_the_batch_page_takes_it_too():
    app = open_app(PLAYGROUND, {"sizing": "output", "oh": "3", "ow": "1"})
    assert app.session_state["pg_sizing"] == "output" and app.session_state["pg_oh"] == 3
    batch = open_app(
        "screens/batch.py", {"sizing": "output", "oh": "2", "ow": "2", "tab": "result"}
    )
    assert no_exceptions(batch) and errors(batch) == []


def test_same_y_different_winner_on_the_matrix_tab():
    app = open_app(PLAYGROUND, {"tab": "matrix", "g": "seed"})
    assert no_exceptions(app)
    values = [
        heatmap_values(f, "value")
        for f in figures(app)
        if any(t.get("name") == "titles" and "y: this x" in t["text"] for t in f["data"])
    ]
    (mosaic,) = values
    cells = [value for row in mosaic for value in row if value == value]  # NaN: the gaps
    assert cells == [3.0, 3.0]  # y is 3 for both inputs, however the maps are laid out
    assert any("differ in 2 cells" in md.value for md in app.markdown)
