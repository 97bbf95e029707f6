"""The Playground's last tab: the share link, the grids as CSV files, and code that
reproduces the screen."""

from __future__ import annotations

import io
from urllib.parse import urlencode

import numpy as np
import streamlit as st

from teaching.class_link import ask_params, why_not_asked
from teaching.links import snapshot
from teaching.playground.model import LayerStory
from ui.playground import cache
from ui.playground.state import STATE
from ui.shared.code_view import reproduce_view
from ui.shared.lecture import with_lecture


def share_view(story: LayerStory) -> None:
    st.markdown("**Share this screen**: the link holds every setting, both grids and this tab.")
    st.code(share_link(), language=None, wrap_lines=True)
    ask_the_class(story)
    st.markdown("**Download the grids** (CSV).")
    grids_to_save = {
        "x": story.x,
        "y": story.output,
        "dL_dy": story.grad_output,
        "dL_dx": story.grad_x,
    }
    for column, (name, grid) in zip(
        st.columns(len(grids_to_save)), grids_to_save.items(), strict=True
    ):
        column.download_button(
            f"{name}.csv",
            csv_text(grid),
            file_name=f"{name}.csv",
            mime="text/csv",
            key=STATE.csv_button(name),
            width="stretch",
        )
    torch_code, numpy_code = cache.snippets(story.settings)
    reproduce_view(
        keys=STATE.code,
        file_stem="pooling_playground",
        config=story.config,
        torch_code=torch_code,
        numpy_code=numpy_code,
    )


def ask_the_class(story: LayerStory) -> None:
    """A link to the Class page carrying this layer, x and dL/dy (a room asks the
    class about them); where a class question cannot take them, why."""
    reason = why_not_asked(story.x.shape, story.grad_output)
    if reason is not None:
        st.caption(f"Ask the class: {reason}")
        return
    pool = snapshot(STATE.pool.fields, st.session_state)
    st.page_link(
        "screens/class_page.py",
        label="Ask the class about this layer",
        icon=":material/co_present:",
        query_params=with_lecture(ask_params(story.x, story.grad_output, pool)),
    )


def share_link() -> str:
    query = urlencode(st.query_params.to_dict(), safe=",;")
    base = (st.context.url or "").split("?")[0]
    return f"{base}?{query}"


def csv_text(grid: np.ndarray) -> str:
    buffer = io.StringIO()
    np.savetxt(buffer, grid, delimiter=",", fmt="%.10g")
    return buffer.getvalue()
