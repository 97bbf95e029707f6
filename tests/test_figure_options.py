"""The figure builders take their options as one frozen dataclass (grid.GridOptions,
mosaic.MosaicOptions, class_answers.ShareOptions) and are cut into short functions: the
figures they build are the very ones the keyword builders built before (issue 40). Each
case's digest is of the figure's JSON (but its template) as the builder made it before
the change (grid_figure's, small_multiples' and share_map's options passed as keywords
then); the cases cover every option."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest
from plotly.utils import PlotlyJSONEncoder

from ui.figures import class_answers, grid, matrix, mosaic, routing
from ui.figures.class_answers import ShareOptions
from ui.figures.grid import GridOptions, Overlay
from ui.figures.mosaic import MosaicOptions

rng = np.random.default_rng(7)
x = rng.normal(size=(4, 5)).round(3)
g = rng.normal(size=(2, 2)).round(3)
tiny = rng.normal(size=(3, 3)) * 1e-4
maps = [rng.normal(size=(3, 3)).round(2) for _ in range(6)]
many = [rng.normal(size=(4, 4)) for _ in range(40)]
frames = np.stack([x, x * 2, x - 1])

GRID = [
    ("grid_plain", dict(values=x, title="x"), {}, False),
    (
        "grid_gradient",
        dict(values=g, title="dL/dy"),
        dict(kind="gradient", shared_range=(g, x), width_px=300),
        False,
    ),
    (
        "grid_overlay",
        dict(values=x, title="x"),
        dict(
            overlay=Overlay(
                window=((0, 0), (0, 1), (-1, 0)), marks=((0, 1),), padding=(1, 1), pad_label="−∞"
            ),
            clickable=True,
            decimals=3,
        ),
        False,
    ),
    ("grid_tiny", dict(values=tiny, title="dL/dx"), dict(kind="gradient"), True),
    ("grid_colour", dict(values=x, title="x"), dict(annotate=False, kind="count"), False),
    (
        "grid_frames",
        dict(values=x, title="x frame"),
        dict(fit_over=frames, title_lines=2, width_px=500),
        True,
    ),
]
MOSAIC = [
    ("mosaic_plain", dict(maps=maps, titles=[f"#{i}" for i in range(6)]), {}, False),
    (
        "mosaic_marks",
        dict(maps=maps, titles=[f"map {i}" for i in range(6)]),
        dict(
            kind="value",
            marks=[[(0, 0)], [], [(1, 1), (2, 2)], [], [], []],
            most_columns=3,
            title="Maps",
        ),
        True,
    ),
    (
        "mosaic_colour",
        dict(maps=many, titles=[str(i) for i in range(40)]),
        dict(annotate=False),
        False,
    ),
    (
        "mosaic_units",
        dict(maps=maps[:2], titles=["a", "b"]),
        dict(units=-2, colour_bar=False, own_width=True, snug=True, width_px=400),
        False,
    ),
    ("mosaic_tiny", dict(maps=[tiny, tiny * 2], titles=["t0", "t1"]), dict(title="Tiny"), True),
]
ROUTING = [
    (
        "routing",
        dict(grad_output=g, sent=np.where(np.abs(x) > 0.5, x, 0.0)),
        dict(out_cell=(0, 1), window=((0, 2), (0, 3), (1, 2), (1, 3)), title="Routes"),
        False,
    ),
    (
        "routing_lecture",
        dict(grad_output=g, sent=np.zeros((4, 5))),
        dict(
            out_cell=(1, 1), window=((2, 2),), title="None sent", shared_range=(g, x), width_px=500
        ),
        True,
    ),
]
drawn = np.random.default_rng(11)  # the digests below were taken with these numbers
jacobian = np.where(drawn.random((4, 16)) > 0.7, drawn.normal(size=(4, 16)).round(2), 0.0)
percents = drawn.integers(0, 101, (5, 5))
JACOBIAN = [
    ("jacobian", dict(matrix=jacobian), dict(out_shape=(2, 2), in_shape=(4, 4), title="J"), False),
    (
        "jacobian_lecture",
        dict(matrix=np.abs(jacobian) * 3),
        dict(out_shape=(2, 2), in_shape=(4, 4), title="J big"),
        True,
    ),
]
SHARE = [
    ("share_plain", dict(percents=percents, title="Picks"), {}, False),
    (
        "share_revealed",
        dict(percents=percents, title="Picks"),
        dict(
            answer_cells=((0, 0), (1, 2)), wrong_cells=((4, 4), (0, 1)), width_px=500, tall_px=300
        ),
        True,
    ),
]
_fit = mosaic.mosaic_fit(
    np.stack(maps),
    [f"#{i}" for i in range(6)],
    kind="gradient",
    most_columns=4,
    layout_px=600,
    lecture=False,
)
MOSAIC.append(
    (
        "mosaic_fitted",
        dict(maps=maps, titles=[f"#{i}" for i in range(6)]),
        dict(fitted=_fit, width_px=600),
        False,
    )
)

BEFORE = {
    "grid_plain": "4af075b687c97204e071db73",
    "grid_gradient": "e92c0322ea8dd942028c9890",
    "grid_overlay": "3a5af92d526a969a4e0a17e7",
    "grid_tiny": "73e7fcdfb7fbfe1fdfa2dc7d",
    "grid_colour": "0dfb976942c3a0e0c4ef56dd",
    "grid_frames": "f899e3fcb15e14e0d9bfc52c",
    "mosaic_plain": "97342ae99fc6c76078e06d1b",
    "mosaic_marks": "4d26760e8335970eeb4b6419",
    "mosaic_colour": "411122f2dcbc86adef74c115",
    "mosaic_units": "4561620df88cabfe3df0af1b",
    "mosaic_tiny": "5a1b387251f813526c161aa3",
    "mosaic_fitted": "b41422fced06eaae2ae0f831",
    # Since its "sent to x" twin names the cells it reaches (map_twin.receivers): a
    # new part of the figure's meta, the figure otherwise the same.
    "routing": "351ef9677d8ab4fdf50a4af5",
    "routing_lecture": "d58435076f189544b70cd9a5",
    # matrix.jacobian_figure and class_answers.share_map before they were cut in
    # parts (share_map's options passed as keywords then)
    "jacobian": "769eb4c7d276a977314559c9",
    "jacobian_lecture": "4e0026ec8833c923dc9a129f",
    "share_plain": "3de22f7fc058f4f5203470b0",
    "share_revealed": "68bda6c7fd00b267e8ad1245",
}
CASES = [(*case, grid.grid_figure) for case in GRID]
CASES += [(*case, mosaic.small_multiples) for case in MOSAIC]
CASES += [(*case, routing.routing_figure) for case in ROUTING]
CASES += [(*case, matrix.jacobian_figure) for case in JACOBIAN]
CASES += [(*case, class_answers.share_map) for case in SHARE]


def digest(figure) -> str:
    """The figure's JSON but its template (Streamlit, once imported, sets another
    default template, which is no part of what the builder draws)."""
    drawn = figure.to_plotly_json()
    drawn["layout"].pop("template", None)
    text = json.dumps(drawn, cls=PlotlyJSONEncoder, sort_keys=True)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def options(build, chosen: dict) -> dict:
    if build is grid.grid_figure:
        return {"options": GridOptions(**chosen)}
    if build is mosaic.small_multiples:
        return {"options": MosaicOptions(**chosen)}
    if build is class_answers.share_map:
        return {"options": ShareOptions(**chosen)}
    return chosen


@pytest.mark.parametrize(
    ("name", "data", "chosen", "lecture", "build"),
    CASES,
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_the_figure_is_the_one_built_before_the_options_moved(name, data, chosen, lecture, build):
    assert digest(build(**data, **options(build, chosen), lecture=lecture)) == BEFORE[name]
