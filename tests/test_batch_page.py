"""The Batch page through AppTest: data, network and pooling paths, checks, training."""

import json

import numpy as np
import pytest
from apptest import component_data, errors, figure_titled, figures, no_exceptions, open_app

BATCH = "screens/batch.py"


def markdown_text(app) -> str:
    return "\n".join(md.value for md in app.markdown)


def test_only_the_open_tab_runs():
    app = open_app(BATCH)
    assert "Checked on the spot" not in [h.value for h in app.subheader]
    app.session_state["bt_tab"] = "Batch result"  # what a click on the tab does
    app.run()
    assert "Checked on the spot" in [h.value for h in app.subheader]
    assert app.query_params["tab"] == "result"


def test_batch_page_renders_with_its_checks():
    app = open_app(BATCH, {"tab": "result"})
    assert no_exceptions(app) and errors(app) == []
    text = markdown_text(app)
    assert "largest gap over every parameter 0" in text
    assert "The wrong way" in text
    # The figure of the batch tiles every image of it, with its title.
    first = figures(app)[0]
    titles = next(trace for trace in first["data"] if trace.get("name") == "titles")
    assert len(titles["text"]) == 8 and titles["text"][0] == "“1”"  # #0's label


@pytest.mark.parametrize("source", ["digits", "noise", "edit"])
def test_every_data_source(source):
    app = open_app(BATCH)
    app.selectbox(key="bt_source").set_value(source).run()
    assert no_exceptions(app) and errors(app) == []


@pytest.mark.parametrize("size", [1, 2, 64, 128])
def test_batch_sizes(size):
    app = open_app(BATCH)
    app.number_input(key="bt_size").set_value(size).run()
    assert no_exceptions(app) and errors(app) == []
    assert f"The batch: {size} example" in "\n".join(h.value for h in app.subheader)


def test_network_and_pooling_variants():
    app = open_app(BATCH)
    app.number_input(key="bt_kernels").set_value(4)
    app.number_input(key="bt_ksize").set_value(2)
    app.toggle(key="bt_relu").set_value(False)
    app.radio(key="bt_mode").set_value("avg")
    app.number_input(key="bt_kh").set_value(3)
    app.number_input(key="bt_sh").set_value(1)
    app.number_input(key="bt_pad").set_value(1).run()
    assert no_exceptions(app) and errors(app) == []
    app.radio(key="bt_feature").set_value(3).run()
    assert no_exceptions(app)
    app.session_state["bt_tab"] = "Batch result"
    app.radio(key="bt_reduction").set_value("sum").run()
    assert "sum of the routing maps" in str(figures(app))


def test_a_network_that_does_not_fit_says_so():
    app = open_app(BATCH)
    app.number_input(key="bt_ksize").set_value(5)
    app.number_input(key="bt_kh").set_value(8).run()
    assert no_exceptions(app)
    assert any("does not fit" in error for error in errors(app))


def test_step_through_sends_every_example_and_opens_at_the_linked_one():
    app = open_app(BATCH, {"tab": "step", "ex": "3"})
    assert no_exceptions(app)
    player = component_data(app, "bt_frames")
    frames = player["frames"]
    assert player["position"] == 3 and frames["count"] == 8 and frames["link"] == "ex"
    assert "examples #0…#3 have reached" in frames["words"][3]["sentence"]
    assert figure_titled(app, "#3 routes") and figure_titled(app, "mean of #0…#3")
    charts = {chart["key"] for chart in frames["charts"]}
    assert charts == {
        "bt_fig_step_image",
        "bt_fig_step_routed",
        "bt_fig_step_mean",
        "bt_fig_step_kernel",
        "bt_fig_reached",
    }
    assert app.query_params["ex"] == "3"


def training_player(app) -> dict:
    return component_data(app, "bt_train_frames")


def test_training_plays_frames_from_the_step_the_link_keeps():
    app = open_app(BATCH, {"tab": "training"})
    player = training_player(app)
    frames = player["frames"]
    assert player["position"] == 0 and frames["count"] == 21  # steps 0..20, the first block
    assert not frames["stream"]["final"] and frames["first"] == 0
    assert [jump["label"] for jump in frames["jumps"]] == ["10 steps", "Reset"]
    assert frames["labels"]["next"] == "1 step" and frames["labels"]["slider"] == "Steps taken"
    losses = [float(w["sentence"].split("**")[1]) for w in frames["words"]]
    assert losses[20] < losses[0]  # the steps lower the loss
    app.session_state["bt_steps"] = 13  # what the browser sends when Play stops
    app.run()
    assert app.query_params["steps"] == "13" and training_player(app)["position"] == 13
    kernels = next(f for f in figures(app) if "after step 13" in str(f))
    assert "K0 after step 13" in str(kernels)
    reopened = open_app(BATCH, dict(app.query_params.items()))
    player = training_player(reopened)
    assert player["position"] == 13 and player["frames"]["count"] == 13 + 20 + 1
    assert player["frames"]["words"][:21] == training_player(app)["frames"]["words"]


def test_another_learning_rate_is_another_run():
    app = open_app(BATCH, {"tab": "training", "steps": "5"})
    stream = training_player(app)["frames"]["stream"]["id"]
    app.select_slider(key="bt_lr").set_value(0.3).run()
    player = training_player(app)
    assert player["frames"]["stream"]["id"] != stream and player["position"] == 5
    assert "θ − 0.3 · dL/dθ" in player["frames"]["words"][5]["line"]


def test_a_runaway_rate_ends_the_frames_at_its_last_finite_step():
    link = {"tab": "training", "lr": "1.0", "n": "2", "relu": "0", "steps": "40"}
    app = open_app(BATCH, link)
    assert no_exceptions(app) and errors(app) == []
    player = training_player(app)
    frames = player["frames"]
    last = frames["count"] - 1
    assert frames["stream"]["final"] and player["position"] == last < 20
    assert app.query_params["steps"] == str(last)  # the link follows
    note = frames["words"][last]["note"]
    assert note["kind"] == "error"
    assert f"Step {last + 1} ran away" in note["text"]
    assert f"what you see is after step {last}" in note["text"]


def test_worked_example_gives_the_seed_mean():
    app = open_app(BATCH, {"tab": "weights"})
    frames = [frame.value for frame in app.dataframe]
    mean_row = next(f for f in frames if "batch (mean)" in f.index)
    assert mean_row.iloc[0].tolist() == ["1.35", "0.15", "0", "−0.2", "−0.8"]


@pytest.mark.parametrize(
    "query", [{"n": "0"}, {"n": "500"}, {"data": "faces"}, {"lr": "7"}, {"steps": "x"}, {"f": "9"}]
)
def test_tampered_links_fall_back_with_a_notice(query):
    app = open_app(BATCH, query)
    assert no_exceptions(app)
    assert any("Link value" in w.value for w in app.warning)


def test_a_batch_past_128_is_refused_by_name_and_the_other_settings_kept():
    app = open_app(BATCH, {"n": "129", "f": "3", "k": "2", "tab": "result"})
    assert no_exceptions(app) and errors(app) == []
    (notice,) = [w.value for w in app.warning if "Link value" in w.value]
    assert "must be from 1 to 128" in notice
    assert app.session_state["bt_size"] == 8  # the default, said in the notice
    assert (app.session_state["bt_kernels"], app.session_state["bt_ksize"]) == (3, 2)
    assert app.query_params["f"] == "3" and app.query_params["tab"] == "result"
    assert app.number_input(key="bt_size").max == 128


def test_the_engine_refuses_a_batch_past_its_limit_by_name():
    from teaching.batch.data import BATCH_MAX, sample_batch

    images, labels = sample_batch("digits", BATCH_MAX, 0)
    assert images.shape == (128, 8, 8) and len(set(map(tuple, images.reshape(128, -1)))) == 128
    for size in (0, 129, 2.5):
        with pytest.raises(ValueError, match="batch size must be"):
            sample_batch("digits", size, 0)


def test_an_invalid_pooling_layer_names_its_rule():
    app = open_app(BATCH, {"kh": "2", "pad": "2"})
    assert no_exceptions(app)
    assert any("padding 2 is more than half the 2-tall window" in e for e in errors(app))


def test_edited_pixels_reach_the_network_until_the_batch_changes():
    from apptest import decode

    def first_pixel(app):
        images = next(f for f in figures(app) if any(t.get("name") == "titles" for t in f["data"]))
        return decode(images["data"][0]["z"])[1, 0]  # under the first map's title row

    app = open_app(BATCH, {"data": "edit", "n": "2"})
    assert any("Edit example #0" in md.value for md in app.markdown)
    # What the editor hands back after the user typed 0.75 into pixel (0, 0).
    edited = app.session_state["bt_img0_2_0_current"].copy()
    edited[0, 0] = 0.75
    app.session_state["bt_img0_2_0_base"] = edited  # what set_grid does
    app.session_state["bt_img0_2_0_current"] = edited
    app.session_state["bt_img0_2_0_version"] += 1
    app.run()
    assert no_exceptions(app) and first_pixel(app) == 0.75
    app.number_input(key="bt_seed").set_value(1).run()
    assert app.session_state["bt_edits"] == {} and first_pixel(app) != 0.75


def test_per_example_shows_a_batch_of_100_sixteen_at_a_time():
    from apptest import decode
    from test_text_truth_batch import batch_settings

    from teaching.batch.story import build_batch_story
    from ui.batch.views_examples import EXAMPLES_PAGE, example_pages

    app = open_app(BATCH, {"n": "100", "tab": "examples", "ex": "40"})
    assert no_exceptions(app) and errors(app) == []
    assert example_pages(100)[-1] == (96, 100) and len(example_pages(100)) == 7
    picker = app.selectbox(key="bt_examples_page")
    assert picker.value == (32, 48)  # the page of example #40, the one stepped to
    app.selectbox(key="bt_examples_page").set_value((96, 100)).run()
    assert no_exceptions(app)
    (pooled,) = [
        json.loads(c.proto.spec)
        for c in app.get("plotly_chart")
        if c.proto.id.endswith("bt_fig_pooled")
    ]
    cells = next(t for t in pooled["data"] if t.get("type") == "heatmap")
    drawn = decode(cells["z"])
    story = build_batch_story(batch_settings(size=100))
    wanted = story.trace.pool.output[96:100, 0]
    assert np.isfinite(drawn).sum() == wanted.size  # four maps, not a hundred
    np.testing.assert_allclose(np.sort(drawn[np.isfinite(drawn)]), np.sort(wanted.ravel()))
    assert EXAMPLES_PAGE == 16
    lecture = open_app(BATCH, {"n": "100", "tab": "examples", "lecture": "1", "screen": "2"})
    assert no_exceptions(lecture) and errors(lecture) == []
    assert lecture.selectbox(key="bt_examples_page").value == (0, 16)
