"""How a figure is drawn for its viewer: light or dark (the viewer's Streamlit theme),
and at lecture size (bigger numbers for the back of a room). Builders draw the light,
desk-size figure; `styled` turns it into any other look, so the builders stay simple
and every figure on every page follows the look alike. The colours of both looks are
style's."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from ui.figures import layouts, style

SIZED = ("font", "textfont", "tickfont", "marker", "pad", "margin")


@dataclass(frozen=True)
class Look:
    dark: bool = False
    lecture: bool = False

    @property
    def scale(self) -> float:
        """How much bigger everything is drawn: lecture numbers at 18 px, not 13."""
        return layouts.lecture_scale(self.lecture)

    @property
    def background(self) -> str:
        return style.DARK_BACKGROUND if self.dark else style.BACKGROUND

    @property
    def text(self) -> str:
        return style.DARK_TEXT if self.dark else style.TITLE_TEXT


DESK = Look()


def styled(figure: go.Figure, look: Look) -> go.Figure:
    """A copy of `figure` (built for DESK) drawn for `look`."""
    if look == DESK:
        return figure
    spec = figure.to_plotly_json()
    if look.lecture:
        width = spec["layout"].get("width")  # a figure that keeps its own width
        spec["layout"] = _scaled(spec["layout"], look.scale)
        if width:
            spec["layout"]["width"] = width * look.scale
        spec["data"] = [_scaled(trace, look.scale) for trace in spec["data"]]
    if look.dark:
        _darken(spec, look)
    return go.Figure(spec)


def _scaled(node, scale: float, sized: bool = False):
    """Sizes (fonts, markers, paddings, margins, the height) times `scale`."""
    if isinstance(node, dict):
        scaled = {}
        for name, value in node.items():
            inside = sized or name in SIZED
            if name == "height" or (inside and name == "size"):
                scaled[name] = _times(value, scale)
            elif inside and name in ("l", "r", "t", "b") and isinstance(value, (int, float)):
                scaled[name] = value * scale
            else:
                scaled[name] = _scaled(value, scale, inside and isinstance(value, dict))
        return scaled
    if isinstance(node, list):
        return [_scaled(item, scale, sized) for item in node]
    return node


def _times(value, scale: float):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value * scale
    if isinstance(value, (list, tuple, np.ndarray)):
        return (np.asarray(value, dtype=float) * scale).tolist()
    return value


def _darken(spec: dict, look: Look) -> None:
    layout = spec["layout"]
    # See-through: the page's own dark shows (look.background is about it, for contrast).
    layout["plot_bgcolor"] = style.TRANSPARENT
    layout["paper_bgcolor"] = style.TRANSPARENT
    layout.setdefault("font", {})["color"] = look.text
    title = layout.get("title")
    if isinstance(title, dict):
        title.setdefault("font", {})["color"] = look.text
    for name, axis in layout.items():
        if name.startswith(("xaxis", "yaxis")) and isinstance(axis, dict):
            if axis.get("gridcolor") in style.DARK_LINES:
                axis["gridcolor"] = style.DARK_LINES[axis["gridcolor"]]
    for trace in spec["data"]:
        line = trace.get("line")
        if isinstance(line, dict) and line.get("color") in style.DARK_LINES:
            line["color"] = style.DARK_LINES[line["color"]]
        textfont = trace.get("textfont")
        if trace.get("type") == "scatter" and isinstance(textfont, dict):
            if textfont.get("color") == style.TITLE_TEXT:  # titles written as text marks
                textfont["color"] = look.text
