"""The grids beside x that a keyboard and a screen reader edit as text (issue 39: every
editor has a named text field in the link's grid format): the Playground's dL/dy and the
Batch page's edited examples, through AppTest. A typed grid is taken and the engine's
numbers follow; a text of the wrong shape is refused by a sentence naming the shape
needed, the text kept; the field follows an edit made elsewhere."""

import numpy as np
from apptest import errors, figure_titled, figures, heatmap_values, no_exceptions, open_app

from pooling import PoolConfig
from pooling.ops import backward, forward
from teaching.links import write_grid
from ui.shared.grid_editor import text_label

PLAYGROUND = "screens/playground.py"
BATCH = "screens/batch.py"
X = "1,2,3,4;5,6,7,8"  # 2 × 4: the default 2 × 2 window, stride 2, gives y 1 × 2


def field(app, name: str):
    (box,) = [box for box in app.text_input if box.label == text_label(name)]
    return box


# -- the Playground's dL/dy --------------------------------------------------------------


def dl_dx(app) -> list:
    return heatmap_values(figure_titled(app, "dL/dx"), "gradient")


def test_dl_dy_typed_as_text_is_routed_to_dl_dx():
    app = open_app(PLAYGROUND, {"g": "custom", "x": X})
    assert field(app, "dL/dy").value == "1,1"
    field(app, "dL/dy").set_value("3, -1.5").run()
    assert no_exceptions(app) and errors(app) == []
    assert heatmap_values(figure_titled(app, "Upstream dL/dy"), "gradient") == [[3.0, -1.5]]
    # Max pooling sends each window's dL/dy to its largest x: 6 at (1, 1), 8 at (1, 3).
    assert dl_dx(app) == [[0.0, 0.0, 0.0, 0.0], [0.0, 3.0, 0.0, -1.5]]
    x = np.array([[1.0, 2, 3, 4], [5, 6, 7, 8]])
    engine = backward(forward(x, PoolConfig(kernel_size=2)), np.array([[3.0, -1.5]]))
    assert dl_dx(app) == engine.tolist()
    assert app.query_params["gy"] in ("3,-1.5", ["3,-1.5"])
    assert field(app, "dL/dy").value == "3,-1.5"


def test_dl_dy_text_of_another_shape_is_refused_naming_y_shape_and_kept():
    app = open_app(PLAYGROUND, {"g": "custom", "x": X})
    before = dl_dx(app)
    field(app, "dL/dy").set_value("3;-1.5").run()
    assert no_exceptions(app)
    (refusal,) = errors(app)
    assert refusal == (
        "dL/dy as text was not taken: it has 2 rows and 1 column, and must have 1 row "
        "and 2 columns (one value per cell of the output y)."
    )
    assert field(app, "dL/dy").value == "3;-1.5" and dl_dx(app) == before
    field(app, "dL/dy").set_value("1,x").run()
    assert errors(app) == [
        "dL/dy as text was not taken: row 0, column 1 holds something that is not a number."
    ]
    # Another upstream and back: the refusal and the text typed are both still there.
    app.radio(key="pg_upstream").set_value("ones").run()
    app.radio(key="pg_upstream").set_value("custom").run()
    assert field(app, "dL/dy").value == "1,x" and len(errors(app)) == 1
    field(app, "dL/dy").set_value("2,2").run()
    assert errors(app) == [] and dl_dx(app) == [[0.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 2.0]]


def test_dl_dy_text_follows_y_when_the_layer_changes_its_shape():
    app = open_app(PLAYGROUND, {"g": "custom", "x": X})
    field(app, "dL/dy").set_value("3,-1.5").run()
    app.number_input(key="pg_sw").set_value(1).run()  # stride 1 across: y is 1 × 3
    assert no_exceptions(app) and errors(app) == []
    kept = heatmap_values(figure_titled(app, "Upstream dL/dy"), "gradient")
    assert kept == [[3.0, -1.5, 1.0]]  # what fits is kept, the new cell is 1
    assert field(app, "dL/dy").value == write_grid(np.array(kept))


def test_an_x_the_layer_does_not_fit_is_said_while_dl_dy_is_edited():
    app = open_app(PLAYGROUND, {"g": "custom", "x": X})
    field(app, "x").set_value("1;2;3").run()  # 3 × 1: the 2 × 2 window does not fit
    assert no_exceptions(app)
    (said,) = errors(app)  # before, "Edit it" left the page blank, saying nothing
    assert said.startswith("This layer does not fit the 3×1 grid: the window is 2 cells")
    field(app, "x").set_value(X).run()
    assert errors(app) == [] and field(app, "dL/dy").value == "1,1"


# -- the Batch page's edited examples ----------------------------------------------------


def first_pixels(app) -> np.ndarray:
    """The batch figure's first map, as drawn (under its title row)."""
    from apptest import decode

    images = next(f for f in figures(app) if any(t.get("name") == "titles" for t in f["data"]))
    return decode(images["data"][0]["z"])


def test_an_example_typed_as_text_reaches_the_network():
    app = open_app(BATCH, {"data": "edit", "n": "2"})
    name = "Example #0's pixels"
    drawn = app.session_state["bt_img0_2_0_current"]
    assert field(app, name).value == write_grid(drawn)
    typed = np.full((8, 8), 0.25)
    typed[0, 0] = 0.75
    field(app, name).set_value(write_grid(typed)).run()
    assert no_exceptions(app) and errors(app) == []
    assert np.array_equal(app.session_state["bt_edits"][0], typed)
    assert first_pixels(app)[1, 0] == 0.75  # the batch figure draws what the network reads
    assert field(app, name).value == write_grid(typed)
    app.button(key="bt_discard").click().run()  # an edit made elsewhere: the text follows
    assert app.session_state["bt_edits"] == {}
    assert field(app, name).value == write_grid(drawn)


def test_an_example_text_that_is_not_8_by_8_is_refused_and_kept():
    app = open_app(BATCH, {"data": "edit", "n": "3"})
    name = "Example #0's pixels"
    seven = ";".join(["0,1,0,1,0,1,0,1"] * 7)
    field(app, name).set_value(seven).run()
    assert no_exceptions(app) and app.session_state["bt_edits"] == {}
    assert errors(app) == [
        "Example #0's pixels as text was not taken: it has 7 rows and 8 columns, and must "
        "have 8 rows and 8 columns (the size of every image the network reads)."
    ]
    assert field(app, name).value == seven
    app.session_state["bt_example"] = 2  # the step-through moved: example #2's editor
    app.run()
    assert field(app, "Example #2's pixels").value and errors(app) == []
    app.session_state["bt_example"] = 0
    app.run()
    assert field(app, name).value == seven and len(errors(app)) == 1


# -- the Batch page's five weights (the seed's question: do 2 and -2 cancel?) -------------

WEIGHTS = "The gradients of #1 and #2"


def batch_row(app) -> list[str]:
    frames = [frame.value for frame in app.dataframe]
    return next(f for f in frames if "batch (mean)" in f.index).iloc[0].tolist()


def test_five_weights_typed_as_text_give_their_mean_and_say_what_cancels():
    app = open_app(BATCH, {"tab": "weights"})
    assert field(app, WEIGHTS).value == "1.5,-2,1.1,0.4,-0.9;1.2,2.3,-1.1,-0.8,-0.7"
    field(app, WEIGHTS).set_value("2,1,0,0,4;-2,3,0,0,-4").run()
    assert no_exceptions(app) and errors(app) == []
    assert batch_row(app) == ["0", "2", "0", "0", "0"]  # (2 − 2)/2, (1 + 3)/2, ...
    (said,) = [c.value for c in app.caption if "cancel" in c.value]
    assert said.startswith("w1, w5: the examples pull in opposite directions")  # not w3, w4
    app.session_state["bt_tab"] = "Training"  # another tab and back: the table is kept
    app.run()
    app.session_state["bt_tab"] = "Five weights"
    app.run()
    assert field(app, WEIGHTS).value == "2,1,0,0,4;-2,3,0,0,-4"
    assert batch_row(app) == ["0", "2", "0", "0", "0"]


def test_five_weights_text_of_another_shape_is_refused_and_kept():
    app = open_app(BATCH, {"tab": "weights"})
    field(app, WEIGHTS).set_value("2,-2").run()
    assert no_exceptions(app)
    assert errors(app) == [
        "The gradients of #1 and #2 as text was not taken: it has 1 row and 2 columns, and "
        "must have 2 rows and 5 columns (a row per example, a value per weight)."
    ]
    assert field(app, WEIGHTS).value == "2,-2"
    assert batch_row(app) == ["1.35", "0.15", "0", "−0.2", "−0.8"]  # the table kept
