"""Helpers for driving pages with streamlit.testing.v1.AppTest."""

from __future__ import annotations

import base64
import json

import numpy as np
from conftest import ROOT
from streamlit.testing.v1 import AppTest

TIMEOUT_S = 60


def open_app(page: str | None = None, query: dict | None = None) -> AppTest:
    """Run the app (app.py opens the home page), then switch to `page` if given."""
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT_S)
    if query:  # as a browser opening the link: the first run already sees it
        app.query_params.update(query)
    app.run()
    if page is not None:
        if query:
            app.query_params.update(query)
        app.switch_page(page).run()
    return app


def figures(app: AppTest) -> list[dict]:
    """Every Plotly figure on the page, as the JSON the browser receives."""
    return [json.loads(chart.proto.spec) for chart in app.get("plotly_chart")]


def figure_titled(app: AppTest, title: str) -> dict:
    for figure in figures(app):
        text = figure.get("layout", {}).get("title", {}).get("text", "")
        if text == title:
            return figure
    raise AssertionError(
        f"no figure titled {title!r}; titles: "
        f"{[f['layout'].get('title', {}).get('text') for f in figures(app)]}"
    )


def decode(array) -> np.ndarray:
    """Plotly 7 sends numeric arrays as {"dtype", "bdata" (base64), "shape"}."""
    if isinstance(array, dict) and "bdata" in array:
        values = np.frombuffer(base64.b64decode(array["bdata"]), dtype=np.dtype(array["dtype"]))
        shape = [int(n) for n in str(array.get("shape", values.size)).split(",")]
        return values.reshape(shape)
    return np.array(array, dtype=float)


def heatmap_values(figure: dict, name: str) -> list:
    """z of the heatmap trace called `name` (its kind: value, gradient or count), as
    nested lists of floats."""
    for trace in figure["data"]:
        if trace.get("type") == "heatmap" and trace.get("name") == name:
            return decode(trace["z"]).astype(float).tolist()
    raise AssertionError(f"no heatmap named {name!r}")


def no_exceptions(app: AppTest) -> bool:
    return len(app.exception) == 0


def errors(app: AppTest) -> list[str]:
    return [error.value for error in app.error]


def expander_labels(app: AppTest) -> list[str]:
    return [expander.label for expander in app.expander]


def component_data(app: AppTest, key: str) -> dict:
    """The data a browser component keyed `key` was given (ui/shared/frame_player.py ...)."""
    for element in app.get("bidi_component"):
        if element.proto.id.endswith(f"-{key}"):
            return json.loads(element.proto.json)
    raise AssertionError(f"no component keyed {key!r}")
