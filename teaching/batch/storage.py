"""What of the Batch page outlives a reload (pure: no Streamlit): the digits the
learner edited and the batch they belong to, to and from the JSON the browser keeps
(ui.shared.browser).

What comes back was written by a browser, so it is user input: an image that is not
8 × 8 numbers within the grid's limits, or an example outside the batch, is dropped.
Edits made to another batch (another seed or size) do not come back: the link says
which batch is shown.
"""

from __future__ import annotations

import numpy as np

from teaching.digits import IMAGE_SIZE
from teaching.links import check_values

Batch = tuple[int, int]  # (seed, size): which digits are drawn


def to_stored(batch: Batch, edits: dict[int, np.ndarray]) -> dict:
    """edits: {example: its edited (8, 8) image}; numbers as Python floats, which JSON
    writes back exactly."""
    return {
        "batch": list(batch),
        "edits": {str(example): np.asarray(image).tolist() for example, image in edits.items()},
    }


def _image(value: object) -> np.ndarray | None:
    """An (8, 8) image of finite numbers within the grid's limits, or None."""
    rows = value if isinstance(value, list) and len(value) == IMAGE_SIZE else None
    if rows is None or not all(isinstance(row, list) and len(row) == IMAGE_SIZE for row in rows):
        return None
    if not all(type(v) in (int, float) for row in rows for v in row):
        return None
    image = np.array(rows, dtype=np.float64)
    try:
        check_values(image)
    except ValueError:
        return None
    return image


def from_stored(stored: object, batch: Batch) -> dict[int, np.ndarray]:
    """The edits in `stored` when they belong to `batch`, each checked; else none."""
    if not isinstance(stored, dict) or stored.get("batch") != list(batch):
        return {}
    given = stored.get("edits")
    edits = {}
    for key, value in given.items() if isinstance(given, dict) else ():
        digits = isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 3
        example = int(key) if digits else -1
        image = _image(value) if 0 <= example < batch[1] else None
        if image is not None:
            edits[example] = image
    return edits
