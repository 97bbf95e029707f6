"""What the pages say and draw is true for the settings on screen, and readable."""

import numpy as np
import pytest
from apptest import errors, figure_titled, figures, heatmap_values, no_exceptions, open_app

from ui.batch.state import TABS as BATCH_TABS
from ui.figures.style import fits_in_cell
from ui.playground.state import TABS as PLAYGROUND_TABS

PLAYGROUND, BATCH = "pages/1_playground.py", "pages/2_batch.py"
WINNER_WORDS = ("won", "winner", "Stars", "star")


def screen_text(app) -> str:
    kinds = ("markdown", "caption", "warning", "error", "info", "subheader")
    return "\n".join(str(e.value) for kind in kinds for e in app.get(kind))


def every_tab(page, tabs, query):
    for name in tabs:
        app = open_app(page, {**query, "tab": name})
        assert no_exceptions(app), (name, [e.value for e in app.exception])
        yield name, app


@pytest.mark.parametrize("page, tabs", [(PLAYGROUND, PLAYGROUND_TABS), (BATCH, BATCH_TABS)])
def test_average_mode_never_speaks_of_winners(page, tabs):
    query = {"mode": "avg", "x": "1,2,0,4;3,3,1,0;0,1,2,2;5,0,1,1", "kh": "2", "kw": "2"}
    for name, app in every_tab(page, tabs, query):
        said = screen_text(app)
        for word in WINNER_WORDS:
            assert word not in said, (name, word, said)


def test_max_mode_without_padding_speaks_of_no_padding():
    for name, app in every_tab(PLAYGROUND, PLAYGROUND_TABS, {"mode": "max", "pad": "0"}):
        assert "Grey cells are padding" not in screen_text(app), name


@pytest.mark.parametrize("page, tabs", [(PLAYGROUND, PLAYGROUND_TABS), (BATCH, BATCH_TABS)])
@pytest.mark.parametrize("size", ["4", "16"])
def test_every_number_drawn_is_12_px_or_more_and_fits_its_cell(page, tabs, size):
    grid = ";".join(
        ",".join(str((r * 7 + c) % 9 - 4.25) for c in range(int(size))) for r in range(int(size))
    )
    query = {"x": grid, "n": size, "kh": "3", "kw": "3", "sh": "1", "sw": "1"}
    for name, app in every_tab(page, tabs, query):
        for figure in figures(app):
            for trace in figure["data"]:
                if trace.get("texttemplate"):
                    assert trace.get("textfont", {}).get("size", 0) >= 12, (name, trace.get("name"))


def test_a_repeated_chart_cannot_crash_the_page():
    for _name, app in every_tab(
        BATCH, BATCH_TABS, {"mode": "avg", "kh": "1", "kw": "1", "sh": "1", "sw": "1"}
    ):
        assert errors(app) == []


def test_a_dilated_window_is_outlined_cell_by_cell_on_screen():
    app = open_app(PLAYGROUND)
    app.button(key="pg_preset_ints").click().run()
    for key, value in {
        "pg_kh": 3,
        "pg_kw": 3,
        "pg_pad": 1,
        "pg_dil": 2,
        "pg_sh": 1,
        "pg_sw": 1,
    }.items():
        app.number_input(key=key).set_value(value)
    app.run()
    assert no_exceptions(app) and errors(app) == []
    outline = next(t for t in figure_titled(app, "Input x")["data"] if t.get("name") == "window")
    edges = len([x for x in outline["x"] if x is None])
    assert edges == 9 * 4  # nine separate cells, four edges each: no solid box


def test_the_all_rule_is_called_wrong_beside_dl_dx():
    app = open_app(PLAYGROUND, {"x": "4,1;4,0", "ties": "all"})
    assert any("wrong on purpose" in w.value and "adds up to 2" in w.value for w in app.warning)
    app.selectbox(key="pg_ties").set_value("first").run()
    assert not any("wrong on purpose" in w.value for w in app.warning)


def test_an_edited_upstream_survives_choosing_another_and_back():
    app = open_app(PLAYGROUND, {"g": "custom", "x": "1,2,3,4;5,6,7,8"})
    # AppTest cannot type into a data editor: record what grid_editor keeps after an edit.
    app.session_state["pg_gy_current"] = np.array([[3.0, -1.5]])
    app.radio(key="pg_upstream").set_value("ones").run()  # the editor leaves the screen
    assert heatmap_values(figure_titled(app, "Upstream dL/dy"), "gradient") == [[1.0, 1.0]]
    app.radio(key="pg_upstream").set_value("custom").run()
    assert heatmap_values(figure_titled(app, "Upstream dL/dy"), "gradient") == [[3.0, -1.5]]
    assert app.query_params["gy"] == "3,-1.5"


def test_an_edited_pixel_survives_looking_at_another_example():
    app = open_app(BATCH, {"data": "edit", "n": "3", "tab": "step"})
    edited = app.session_state["bt_img0_3_0_current"].copy()
    edited[0, 0] = 0.75
    # AppTest cannot type into a data editor: record what the edit leaves behind.
    app.session_state["bt_img0_3_0_current"] = edited
    app.session_state["bt_edits"] = {0: edited}
    app.slider(key="bt_example").set_value(2).run()  # example 0's editor leaves the screen
    app.slider(key="bt_example").set_value(0).run()
    assert app.session_state["bt_img0_3_0_base"][0, 0] == 0.75  # the editor shows it again
    assert app.session_state["bt_edits"][0][0, 0] == 0.75
    app.button(key="bt_discard").click().run()
    assert app.session_state["bt_edits"] == {}


def test_home_bounds_its_numbers_and_writes_large_ones_short():
    app = open_app()
    for key in ("home_a", "home_b", "home_g"):
        widget = app.number_input(key=key)
        assert widget.min == -1e6 and widget.max == 1e6
    app.number_input(key="home_a").set_value(1e6).run()
    assert no_exceptions(app)
    assert all(len(metric.value) <= 8 for metric in app.metric)


def test_a_runaway_learning_rate_is_said_in_words():
    app = open_app(
        BATCH, {"relu": "0", "red": "sum", "lr": "3", "steps": "40", "n": "64", "tab": "training"}
    )
    assert no_exceptions(app)
    said = screen_text(app)
    assert "ran away" in said and "smaller learning rate" in said
    assert not any(token in said for token in ("∞", "nan", "NaN"))
    assert all("∞" not in m.value and "NaN" not in m.value for m in app.metric)


def test_the_issue_training_link_shows_finite_numbers():
    app = open_app(BATCH, {"relu": "0", "red": "sum", "lr": "0.3", "steps": "8", "tab": "training"})
    assert no_exceptions(app)
    assert all("∞" not in m.value and "NaN" not in m.value for m in app.metric)
    app.session_state["bt_tab"] = "Batch result"
    app.run()
    assert "nan" not in screen_text(app).lower().replace("finite", "")


def test_fit_check_measures_real_labels():
    assert fits_in_cell(["0.333", "−0.25"], 46) and not fits_in_cell(["−0.3333"], 40)
