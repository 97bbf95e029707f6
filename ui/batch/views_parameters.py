"""Every weight of the tiny CNN as it stands on screen, folded away under the batch
result: the code that reproduces the page starts from exactly these numbers, so a
learner can see where each of them comes from."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from teaching.batch.story import BatchStory
from ui.batch.state import STATE


def parameter_tables(story: BatchStory) -> dict[str, pd.DataFrame]:
    """Caption -> table, one per parameter array. kernels: (F, 1, k, k) as F blocks of
    k rows; bias (F,); weights (10, F*PH*PW), a row per digit; out_bias (10,)."""
    params = story.params
    kernels = params.kernels[:, 0]
    features, size = kernels.shape[0], kernels.shape[1]
    kernel_rows = kernels.reshape(features * size, size)
    kernel_index = [f"kernel {f}, row {r}" for f in range(features) for r in range(size)]
    digits = [f"digit {d}" for d in range(params.weights.shape[0])]
    return {
        "Kernels K (what the batch step updates)": pd.DataFrame(kernel_rows, index=kernel_index),
        "Convolution biases, one per kernel": pd.DataFrame(
            {"bias": params.bias}, index=[f"kernel {f}" for f in range(features)]
        ),
        "Linear layer: a row of weights per digit, over the flattened pooling output": (
            pd.DataFrame(params.weights, index=digits)
        ),
        "Linear layer biases": pd.DataFrame({"bias": params.out_bias}, index=digits),
    }


def parameters_view(story: BatchStory) -> None:
    taken = story.settings.steps
    when = "before any step" if taken == 0 else f"after {taken} steps"
    with st.expander(f"Every weight of the network, {when}"):
        st.caption(
            "The code that reproduces this tab (“Check it in your own notebook”) is built "
            "from these numbers."
        )
        for index, (caption, table) in enumerate(parameter_tables(story).items()):
            st.markdown(f"**{caption}**")
            st.dataframe(table, key=STATE.parameters_table(index))
