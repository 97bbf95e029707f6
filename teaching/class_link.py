"""The link from the Playground to the Class page (pure): "Ask the class" carries the
Playground's layer (its pooling fields, as its own share link writes them), its grid x
and its dL/dy (written out, whatever it came from) to /class, whose page reads them
back with the same codecs (teaching/links.py). Which layers a class can be asked about
is said here once, for the button and for the page that opens the room."""

from __future__ import annotations

import numpy as np

from teaching.class_mode.questions import LARGEST_SIDE
from teaching.links import parse_grid, write_grid

X_FIELD = "x"  # the grid x, as the Playground's link writes it
GRAD_FIELD = "gy"  # dL/dy, shaped like y, every cell > 0


def why_not_asked(x_shape: tuple[int, int], grad_output: np.ndarray) -> str | None:
    """Why the class cannot be asked about this layer (a sentence), or None when it can:
    the grid at most LARGEST_SIDE a side and every dL/dy positive, so that "the cells
    that get gradient" are the cells some window routes to, whatever the numbers."""
    rows, cols = x_shape
    if rows > LARGEST_SIDE or cols > LARGEST_SIDE:
        return (
            f"A class question takes a grid of up to {LARGEST_SIDE}×{LARGEST_SIDE}; "
            f"this one is {rows}×{cols}."
        )
    grad = np.asarray(grad_output, dtype=float)
    if not (grad > 0).all():
        return (
            "A class question needs every dL/dy positive (no zero, no negative): then "
            "the cells that get gradient do not depend on the numbers. Choose All ones "
            "or 2.5 everywhere, or edit dL/dy."
        )
    return None


def ask_params(x: np.ndarray, grad_output: np.ndarray, pool_params: dict[str, str]) -> dict:
    """The /class link's query: the pooling fields as given, x and dL/dy written out."""
    return {**pool_params, X_FIELD: write_grid(x), GRAD_FIELD: write_grid(grad_output)}


def read_layer_grids(query: dict) -> tuple[np.ndarray, np.ndarray] | None:
    """x and dL/dy from a /class link's query, or None when it carries no layer;
    ValueError naming the field when one of them does not read."""
    if X_FIELD not in query:
        return None
    grids = []
    for name in (X_FIELD, GRAD_FIELD):
        text = query.get(name)
        if text is None:
            raise ValueError(f"link value {name} is missing")
        try:
            grids.append(parse_grid(text))
        except ValueError as reason:
            raise ValueError(f"link value {name} {reason}") from None
    return grids[0], grids[1]
