"""Where a page shows the code that reproduces it: PyTorch and NumPy-only snippets, each
copyable (st.code has a copy button) and downloadable."""

from __future__ import annotations

import streamlit as st

from pooling import PoolConfig
from teaching.snippets import torch_tie_note
from ui.figures.style import CODE_HEIGHT_PX

SHOWN_UP_TO = 30_000  # characters; a longer snippet (a big noisy batch) is a download only


def reproduce_view(
    *,
    keys: tuple[str, str],
    file_stem: str,
    config: PoolConfig,
    torch_code: str,
    numpy_code: str,
    code_shown: bool = True,
) -> None:
    """The snippets of a screen whose pooling layer is `config`; torch_code is shown only
    when PyTorch can reproduce that layer (else the page says why). The downloads are
    file_stem_torch.py and file_stem_numpy.py; keys: their buttons' (torch, numpy).
    Without `code_shown`, the downloads only (a projector has no room for a box that
    scrolls)."""
    torch_note = torch_tie_note(config)
    st.markdown(
        "**Check it in your own notebook.** Each snippet rebuilds this screen's inputs, "
        "prints what it computes and asserts that it equals the numbers here."
    )
    torch_tab, numpy_tab = st.tabs(["PyTorch", "NumPy only"])
    with torch_tab:
        if torch_note:
            st.info(torch_note, icon=":material/info:")
        else:
            snippet(torch_code, file_name=f"{file_stem}_torch.py", key=keys[0], boxed=code_shown)
    with numpy_tab:
        snippet(numpy_code, file_name=f"{file_stem}_numpy.py", key=keys[1], boxed=code_shown)


def snippet(code: str, *, file_name: str, key: str, boxed: bool = True) -> None:
    """`code` in a box that scrolls (boxed, and short enough), and its download."""
    if boxed and len(code) <= SHOWN_UP_TO:
        st.code(code, language="python", height=CODE_HEIGHT_PX)
    elif boxed:
        st.caption(
            f"This snippet is {len(code) // 1000} kB long (every number of the batch is in "
            "it), too long to show here: download it."
        )
    st.download_button(
        file_name,
        code,
        file_name=file_name,
        mime="text/x-python",
        key=key,
        icon=":material/download:",
    )
