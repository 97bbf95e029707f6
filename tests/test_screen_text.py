"""What the pages say and draw is true for the settings on screen, and readable."""

import json

import numpy as np
import pytest
from apptest import decode, errors, figure_titled, heatmap_values, no_exceptions, open_app

from ui.batch.state import TABS as BATCH_TABS
from ui.batch.views import ANNOTATE_UP_TO
from ui.figures.labels import fits_in_cell
from ui.figures.style import LECTURE_CELL_FONT_PX, MIN_CELL_FONT_PX
from ui.playground.state import TABS as PLAYGROUND_TABS

PLAYGROUND, BATCH = "screens/playground.py", "screens/batch.py"
WINNER_WORDS = ("won", "winner", "Stars", "star")


def screen_text(app) -> str:
    """The page's sentences, and the words a frame player shows at its position."""
    kinds = ("markdown", "caption", "warning", "error", "info", "subheader")
    said = [str(e.value) for kind in kinds for e in app.get(kind)]
    for element in app.get("bidi_component"):
        player = json.loads(element.proto.json)
        if player.get("frames"):
            words = player["frames"]["words"][player["position"]]
            said += [words["sentence"], words["line"], words.get("note", {}).get("text", "")]
    return "\n".join(said)


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
        assert "grey cells are padding" not in screen_text(app), name


# Maps a page draws as colour only on purpose, a caption saying to hover for the
# numbers, by chart key: the batch's digits, an example's digit beside its gradients,
# the averaged image; the per-example mosaics of a batch larger than ANNOTATE_UP_TO.
COLOUR_ONLY = ("bt_fig_batch", "bt_fig_step_image", "bt_fig_averaged")
PER_EXAMPLE = ("bt_fig_activation", "bt_fig_pooled", "bt_fig_upstream", "bt_fig_routed")


def colour_only(key: str, batch_size: int) -> bool:
    if key.endswith(COLOUR_ONLY):
        return True
    return batch_size > ANNOTATE_UP_TO and key.endswith((*PER_EXAMPLE, "bt_fig_kernel"))


def keyed_figures(app):
    """(chart key, figure JSON) of every chart on the page."""
    for chart in app.get("plotly_chart"):
        yield chart.proto.id, json.loads(chart.proto.spec)


def unlabelled_cells(trace: dict) -> int:
    """Cells of a heatmap holding a value but no label (J leaves its zeros blank)."""
    z = decode(trace["z"]).astype(float)
    text = np.asarray(trace.get("text", np.full(z.shape, "")), dtype=object)
    held = np.isfinite(z) & ((z != 0) if trace.get("name") == "J" else True)
    return int(sum(1 for label in text[held] if str(label) == ""))


@pytest.mark.parametrize("page, tabs", [(PLAYGROUND, PLAYGROUND_TABS), (BATCH, BATCH_TABS)])
@pytest.mark.parametrize("size, lecture", [("4", "0"), ("16", "0"), ("4", "1")])
def test_every_map_writes_every_number_at_12_px_or_more(page, tabs, size, lecture):
    """No map leaves its numbers out: each cell that holds a value carries a label, at
    12 px or more (18 in lecture mode), unless the page draws that map as colour only
    on purpose (COLOUR_ONLY)."""
    grid = ";".join(
        ",".join(str((r * 7 + c) % 9 - 4.25) for c in range(int(size))) for r in range(int(size))
    )
    query = {"x": grid, "n": size, "kh": "3", "kw": "3", "sh": "1", "sw": "1", "lecture": lecture}
    floor = LECTURE_CELL_FONT_PX if lecture == "1" else MIN_CELL_FONT_PX
    labelled = 0
    for name, app in every_tab(page, tabs, query):
        for key, figure in keyed_figures(app):
            for trace in figure["data"]:
                if trace.get("type") != "heatmap" or trace.get("name") in ("padding", "x"):
                    continue
                if not trace.get("texttemplate"):
                    assert colour_only(key, int(size)), (name, key)
                    continue
                labelled += 1
                assert trace["textfont"]["size"] >= floor - 1e-9, (name, key)
                assert unlabelled_cells(trace) == 0, (name, key)
    assert labelled >= len(tabs)  # the maps were there to check


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
    # The step-through moves in the browser, which sends the example it is on.
    app.session_state["bt_example"] = 2  # example 0's editor leaves the screen
    app.run()
    app.session_state["bt_example"] = 0
    app.run()
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


def test_the_issue_training_link_shows_finite_numbers():
    app = open_app(BATCH, {"relu": "0", "red": "sum", "lr": "0.3", "steps": "8", "tab": "training"})
    assert no_exceptions(app)
    said = screen_text(app)
    assert "Batch loss (sum) after" in said  # the player's words are read
    assert not any(token in said for token in ("∞", "nan", "NaN"))
    app.session_state["bt_tab"] = "Batch result"
    app.run()
    assert "nan" not in screen_text(app).lower().replace("finite", "")


def test_fit_check_measures_real_labels():
    assert fits_in_cell(["0.333", "−0.25"], 46) and not fits_in_cell(["−0.3333"], 40)
