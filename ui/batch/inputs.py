"""The Batch page's inputs: data, network and pooling controls in the sidebar, and the
editor for "Digits you edit"."""

from __future__ import annotations

import numpy as np
import streamlit as st

from pooling.batch import REDUCTIONS
from teaching.batch.data import SOURCES
from teaching.links import SEED_MAX
from ui.batch.state import STATE, batch_identity, discard_edits, drop_editors, keep_edit
from ui.shared.grid_editor import grid_editor, grid_text_field, set_grid
from ui.shared.state import GridKeys

REDUCTION_LABELS = {"mean": "mean (1/N Σ)", "sum": "sum (Σ)"}
IMAGE_WHY = "the size of every image the network reads"


def sidebar_controls() -> None:
    with st.sidebar:
        st.subheader("Batch")
        st.selectbox(
            "Data",
            tuple(SOURCES),
            key=STATE.source,
            format_func=SOURCES.get,
            help="scikit-learn's bundled 8×8 handwritten digits, random noise, "
            "or digits whose pixels you edit.",
        )
        left, right = st.columns(2)
        most = STATE.BATCH_MAX
        # The range in the label: a help button that only repeated it was one more stop.
        left.number_input(f"Batch size (1 to {most})", 1, most, key=STATE.size)
        right.number_input(
            "Seed", 0, SEED_MAX, key=STATE.seed, help="Picks the examples and the starting weights."
        )
        st.subheader("Network")
        left, right = st.columns(2)
        left.number_input(
            "Kernels",
            1,
            STATE.KERNELS_MAX,
            key=STATE.kernels,
            help="Learnable k×k convolution kernels, each with a bias.",
        )
        right.number_input("Kernel size", 1, STATE.KERNEL_SIZE_MAX, key=STATE.ksize)
        st.toggle("ReLU after the convolution", key=STATE.relu)
        st.radio(
            "Loss over the batch",
            REDUCTIONS,
            key=STATE.reduction,
            horizontal=True,
            format_func=REDUCTION_LABELS.get,
            help="Mean divides by N; summing and multiplying by 1/N later is the same.",
        )
        st.subheader("Pooling layer")
        STATE.pool.draw()


def editor_keys(example: int) -> GridKeys:
    """The editor of `example` in this batch (a new batch, new editors)."""
    seed, size = batch_identity()
    return STATE.image_editor(seed, size, example)


def forget_editors() -> None:
    """Discard button: the edits go, and the editors start again from the digits."""
    discard_edits()
    drop_editors()


def image_editor(image: np.ndarray) -> None:
    """The editor for the current example; `image`: (8, 8), as the network sees it."""
    state = st.session_state
    example = STATE.example_shown()
    keys = editor_keys(example)
    if keys.base not in state:
        set_grid(keys, image)
    st.markdown(
        f"**Edit example #{example}** (pick another with the slider in *Step through*). "
        "Pixels go from 0 (white) to 1 (ink)."
    )
    grid = grid_editor(keys, "Your edits are kept in this browser, not in the link.")
    grid_text_field(keys, name=f"Example #{example}'s pixels", shape=image.shape, why=IMAGE_WHY)
    if state[STATE.edits]:
        st.button(
            "Discard my edits", key=STATE.discard, on_click=forget_editors, icon=":material/undo:"
        )
    if grid is not None and not np.array_equal(grid, image):
        keep_edit(example, grid)
        st.rerun()  # run the network again on the edited image
