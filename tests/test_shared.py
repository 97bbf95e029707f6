"""The shared helpers: how link values are shown, numbers written, link fields read."""

import numpy as np
import pytest

from teaching.links import Field, int_in, label_in, restore
from teaching.numbers import common_exponent, fmt, power_of_ten
from ui.shared.state import literal, notice_text


@pytest.mark.parametrize(
    "given, shown",
    [
        ("[x](https://e.org)", "` [x](https://e.org) `"),
        ("a`b", "`` a`b ``"),
        ("``", "``` `` ```"),
        ("two\n\nlines", "` two lines `"),
        ("", "(empty)"),
    ],
)
def test_literal_makes_a_code_span_that_cannot_close_early(given, shown):
    assert literal(given) == shown


def test_a_notice_keeps_the_visitors_text_apart_from_the_sentence():
    notices = restore([Field("k", "kh", 2, int, str)], {"kh": "<b>9</b>"}, {})
    (notice,) = notices
    assert notice.given == "<b>9</b>" and "invalid literal" in notice.reason
    assert notice_text(notice).startswith("Link value **kh** = ` <b>9</b> ` ")


def test_numbers_are_short_at_every_size():
    assert fmt(1e308) == "1e+308" and fmt(-2.5e7) == "−2.5e+07"
    assert fmt(1_000_000) == "1000000" and fmt(1 / 3) == "0.333" and fmt(-0.0) == "0"
    assert fmt(2e-5) == "2.0e−05" and fmt(float("nan")) == "NaN" and fmt(float("-inf")) == "−∞"


def test_tiny_maps_are_written_in_a_power_of_ten():
    assert common_exponent(np.array([0.0047, -0.0012]), 2) == -3
    assert common_exponent(np.array([0.5, 0.0012]), 2) == 0
    assert common_exponent(np.zeros(3), 2) == 0
    assert power_of_ten(-3) == "10⁻³"


def test_a_choice_kept_by_short_name():
    parse, write = label_in({"ties": "Tie lab", "step": "Step through"})
    assert parse("ties") == "Tie lab" and write("Step through") == "step"
    with pytest.raises(ValueError, match="must be one of ties, step"):
        parse("Tie lab")


def test_literal_cuts_a_long_text_short_and_says_so():
    shown = literal("9" * 100_000)
    assert shown == "` " + "9" * 40 + "… `"
    notices = restore([Field("k", "kh", 2, int_in(1, 8), str)], {"kh": "x" * 5000}, {})
    assert len(notice_text(notices[0])) < 200


def test_the_vocabulary_names_every_mode_and_tie_rule_of_the_engine():
    from pooling.config import MODES, TIES
    from teaching.words import MODE_LABELS, TIE_WORDS, pad_label, tie_help

    assert set(MODE_LABELS) == set(MODES) and set(TIE_WORDS) == set(TIES)
    assert all(f"{rule}: {TIE_WORDS[rule].rule}" in tie_help() for rule in TIES)
    assert (pad_label("max"), pad_label("avg")) == ("−∞", "0")


def test_the_first_run_freezes_what_it_loaded_once(monkeypatch):
    import gc

    from ui.shared import process

    monkeypatch.setitem(process._state, "frozen", False)
    before = gc.get_freeze_count()
    try:
        process.freeze_after_first_run()
        frozen = gc.get_freeze_count()
        assert frozen > before  # the loaded objects are out of the collector's walks
        kept = object.__new__(type("Kept", (), {}))  # made after: still collected as before
        process.freeze_after_first_run()  # a later run freezes nothing more
        assert gc.get_freeze_count() == frozen and gc.is_tracked(kept)
    finally:
        gc.unfreeze()


# -- the figure cache's frozen figures -------------------------------------------------


def test_a_frozen_figure_makes_its_dict_once_and_copies_leave_it_as_made():
    import copy
    import pickle

    import plotly.graph_objects as go

    from ui.shared.chart import FrozenFigure

    figure = go.Figure(go.Heatmap(z=[[1, 2], [3, 4]]))
    figure.__class__ = FrozenFigure
    made = figure.to_dict()
    assert figure.to_dict() is made  # made once
    as_made = copy.deepcopy(made)
    for copied in (copy.deepcopy(figure), pickle.loads(pickle.dumps(figure))):
        assert copied.to_dict()["data"][0]["z"] == [[1, 2], [3, 4]]
    assert figure.to_dict() == as_made  # Plotly's copies added nothing to the shared dict


def _draw_frozen(figure) -> None:
    import streamlit as st

    st.plotly_chart(figure, key="frozen")


def test_a_frozen_figures_json_is_plotlys_own_and_written_once_for_every_draw():
    """st.plotly_chart writes a figure's dict as JSON on every run; a frozen figure's is
    written on its first draw and kept (ui/shared/chart._json_once): the spec sent is
    Plotly's own JSON of the figure, the same text object in every later run."""
    import plotly.graph_objects as go
    import plotly.io
    from plotly.io._json import to_json as plotly_to_json
    from streamlit.testing.v1 import AppTest

    from ui.shared.chart import FrozenFigure

    figure = go.Figure(go.Heatmap(z=[[1, 2], [3, 4]], text=[["a", "b"], ["c", "d"]]))
    own = plotly_to_json(go.Figure(figure), validate=False)
    figure.__class__ = FrozenFigure
    app = AppTest.from_function(_draw_frozen, args=(figure,)).run()
    sent = app.get("plotly_chart")[0].proto.spec
    assert sent == own
    kept = figure.to_dict().json
    assert kept == own
    app.run()
    assert figure.to_dict().json is kept  # not written again
    # A plain figure, or a dict, is written by Plotly each time, as before.
    plain = go.Figure(go.Heatmap(z=[[1, 2], [3, 4]]))
    assert plotly.io.to_json(plain) == plotly_to_json(plain)


def test_a_built_figure_is_kept_for_every_session_and_the_least_used_goes_first():
    """ui/shared/chart.FIGURES: one figure a key, built once; past MOST, the one used
    longest ago is built again when asked."""
    import plotly.graph_objects as go

    from ui.figures.look import Look
    from ui.shared.chart import _Figures

    figures, built = _Figures(), []
    figures.MOST = 2

    def build(name: str):
        def make() -> go.Figure:
            built.append(name)
            return go.Figure(layout={"title": {"text": name}})

        return make

    look = Look(dark=False, lecture=False)
    first = figures.get(("a", "1", look), build("a"))
    assert figures.get(("a", "1", look), build("a")) is first
    figures.get(("b", "1", look), build("b"))
    figures.get(("a", "1", look), build("a"))  # "a" used last: "b" is the oldest now
    figures.get(("c", "1", look), build("c"))
    assert figures.get(("a", "1", look), build("a")) is first
    figures.get(("b", "1", look), build("b"))
    assert built == ["a", "b", "c", "b"]
    figures.clear()
    figures.get(("a", "1", look), build("a"))
    assert built[-1] == "a" and len(built) == 5
