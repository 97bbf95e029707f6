"""Every chart goes on screen through `chart`; every figure worth keeping is built
through `cached`."""

from __future__ import annotations

import hashlib
import inspect
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable

import plotly.graph_objects as go
import plotly.io
import streamlit as st

from pooling.config import Cell
from ui.figures.look import Look, styled
from ui.shared.lecture import current_look
from ui.shared.styles import css, style_element
from ui.shared.twin import show_twins

# No Plotly tool bar: its buttons (Download as PNG, Reset axes, zoom) were three tab
# stops a chart that a keyboard user has no use for, and zoom has none on a grid. A
# chart's image is downloaded from the Playground's Share tab.
CHART_CONFIG = {"displayModeBar": False, "displaylogo": False}


def chart(
    figure: go.Figure,
    *,
    key: str,
    on_select: Callable[[], None] | None = None,
    scroll: tuple[str, str] | None = None,
    picked=None,
) -> None:
    """Show a figure without Plotly's tool bar (CHART_CONFIG), after its maps' text
    twins (ui/shared/twin.py), if its builder made any. The key is required: two charts
    with equal figures would otherwise share an element id. `on_select` turns clicks on
    its points into a callback. A figure with a width of its own (its numbers need it)
    keeps it where the column is narrower (a phone) and scrolls sideways in a box of its
    own, so its numbers stay readable; `scroll` names the box's key and the wide box's
    inside it (by default "scroll_<key>" and "wide_<key>"). `picked`: a pick grid's
    cells picked now, (row, col) each (twin.show_twins)."""
    show_twins(
        figure, key=key, picked=picked
    )  # what a screen reader reads first, instead of the picture
    if figure.layout.width:
        scroll = scroll or scroll_boxes(key)
        # A box that scrolls, holding one at least as wide as the figure: the chart
        # is drawn as wide as the box it sits in.
        box, wide = scroll
        with st.container(key=box), st.container(key=wide):
            # Style only: Streamlit puts it in the page's head, taking no room.
            sized = css(
                __package__, "scroll.css", box=box, wide=wide, width_px=int(figure.layout.width)
            )
            st.html(style_element(sized))
            _draw(figure, key=key, on_select=on_select)
        return
    _draw(figure, key=key, on_select=on_select)


def scroll_boxes(key: str) -> tuple[str, str]:
    """The keys of the boxes a chart with its own width scrolls in, named after it."""
    return f"scroll_{key}", f"wide_{key}"


def _draw(figure: go.Figure, *, key: str, on_select: Callable[[], None] | None) -> None:
    if on_select is None:
        st.plotly_chart(figure, config=CHART_CONFIG, key=key)
    else:
        st.plotly_chart(
            figure, config=CHART_CONFIG, key=key, on_select=on_select, selection_mode="points"
        )


class FrozenSpec(dict):
    """A frozen figure's dict, which keeps the JSON Plotly writes of it (`json`), so
    that it is written once per process, not once per run of every page that draws it."""

    json: str | None = None


class FrozenFigure(go.Figure):
    """A figure the cache shares and nobody changes, whose dict (what st.plotly_chart
    asks for on every run, by a deep copy with every array turned to base64: most of
    a warm rerun's time) is made once, on the first call, and whose JSON (what
    st.plotly_chart writes of that dict on every run: a tenth of a phone's run at a
    round change) is written once, on the first draw (`_json_once`). The dict is
    shared too: read it, never change it."""

    _frozen_dict: FrozenSpec | None = None

    def to_dict(self) -> FrozenSpec:
        if self._frozen_dict is None:
            self._frozen_dict = FrozenSpec(super().to_dict())
        return self._frozen_dict

    def __reduce__(self):
        # Plotly's copy and pickle add keys to the dict to_dict returns: here, a fresh
        # one (a plain figure), so that the shared dict stays as made.
        return go.Figure, (super().to_dict(),)


_plotly_to_json = plotly.io.to_json


def _json_once(fig, validate=True, pretty=False, remove_uids=True, engine=None) -> str:
    """plotly.io.to_json, which st.plotly_chart calls on the figure's dict on every run:
    a frozen figure's dict (FrozenSpec) is written once and its JSON kept with it
    (every run wrote the same 6-kB text again: 1.5-2.7 ms of a pick map's run on a
    phone). Any other figure, or other options, is Plotly's own call. Streamlit reaches
    the function through the module (`plotly.io.to_json`), so it is replaced there."""
    if not isinstance(fig, FrozenSpec) or (pretty, remove_uids, engine) != (False, True, None):
        return _plotly_to_json(
            fig, validate=validate, pretty=pretty, remove_uids=remove_uids, engine=engine
        )
    if fig.json is None:  # two first draws at once write the same text twice: harmless
        fig.json = _plotly_to_json(fig, validate=False)
    return fig.json


plotly.io.to_json = _json_once


class _Figures:
    """The process's built figures, {(builder's name, arguments' digest, look): figure},
    the `MOST` used last (least recently used out first).

    Not st.cache_resource: its key is Streamlit's hash of every argument, and each call
    read the function's signature again (inspect) to name them. That was 6 % of a
    phone's run when a new round reaches it (a round pushed to 100 phones on one
    replica, py-spy; docs/benchmarks.md), where this key is one tuple."""

    MOST = 512

    def __init__(self) -> None:
        self._kept: OrderedDict[tuple[str, str, Look], go.Figure] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str, Look], build: Callable[[], go.Figure]) -> go.Figure:
        """The figure kept under `key`, else `build()` kept. Two sessions asking for a
        new one at once both build it, outside the lock (one is kept: equal figures)."""
        with self._lock:
            figure = self._kept.get(key)
            if figure is not None:
                self._kept.move_to_end(key)
                return figure
        figure = build()
        with self._lock:
            figure = self._kept.setdefault(key, figure)
            self._kept.move_to_end(key)
            while len(self._kept) > self.MOST:
                self._kept.popitem(last=False)
        return figure

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


FIGURES = _Figures()  # one per process: a figure is shared by every session


def _built(
    name: str, digest: str, builder: Callable[..., go.Figure], arguments: dict, look: Look
) -> go.Figure:
    def build() -> go.Figure:
        drawn = arguments
        if look.lecture and "lecture" in inspect.signature(builder).parameters:
            # Maps lay their cells out for lecture-size numbers before `styled` scales them.
            drawn = {**arguments, "lecture": True}
        figure = styled(builder(**drawn), look)
        figure.__class__ = FrozenFigure  # the same figure, no copy: only to_dict differs
        return figure

    return FIGURES.get((name, digest, look), build)


def cached(builder: Callable[..., go.Figure], **arguments) -> go.Figure:
    """builder(**arguments), built once per distinct arguments for the whole process.

    Figures are shared between sessions and never changed after they are built
    (st.plotly_chart copies a figure before it serialises it), so a rerun that does not
    change a chart's inputs costs no figure building at all. Each figure is drawn for
    the viewer's look (theme, lecture mode).
    """
    name = f"{builder.__module__}.{builder.__qualname__}"
    return _built(name, arguments_digest(arguments), builder, arguments, current_look())


def arguments_digest(arguments: dict) -> str:
    """A figure's arguments as a short key. Streamlit's own hashing walks every
    argument object by object (a window's cells, a list of maps), which was most of a
    warm rerun of the Batch page; pickle writes them in C. Equal digests mean equal
    pickles, so equal arguments; equal arguments pickled apart (a set built in another
    order) only cost a build."""
    return hashlib.blake2b(pickle.dumps(arguments, protocol=5), digest_size=20).hexdigest()


def clicked_cell(key: str) -> Cell | None:
    """The (row, column) of the cell last clicked on the chart under `key` (its click
    points sit at cell centres: ui/figures/grid.click_trace), or None."""
    selection = st.session_state.get(key)
    points = selection.selection.points if selection is not None else []
    if not points:
        return None
    return int(round(points[0]["y"])), int(round(points[0]["x"]))
