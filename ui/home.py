"""Home: the whole idea on one screen, with two numbers a and b."""

from __future__ import annotations

import numpy as np
import streamlit as st

from pooling import PoolConfig, backward, forward
from teaching.lesson.steps import STEP_COUNT
from teaching.links import MAX_VALUE
from teaching.numbers import fmt
from ui.figures.curves import max_curve_figure
from ui.shared import browser
from ui.shared.chart import cached, chart
from ui.shared.chrome import page_link, seed_batch_link

KEY_A, KEY_B, KEY_UPSTREAM, KEY_CURVE = "home_a", "home_b", "home_g", "home_curve"  # widgets
BOUNDS = dict(min_value=-MAX_VALUE, max_value=MAX_VALUE)  # as the grids: no overflow


def two_cell_gradients(
    a: float, b: float, upstream: float, mode: str
) -> tuple[float, float, float]:
    """y, dL/da, dL/db for y = max(a, b) or mean(a, b), through the engine itself."""
    result = forward(np.array([[a, b]]), PoolConfig(mode, kernel_size=(1, 2)))
    grad = backward(result, [[upstream]])
    return float(result.output[0, 0]), float(grad[0, 0]), float(grad[0, 1])


def why_max(a: float, b: float, upstream: float, grad_a: float, grad_b: float) -> str:
    if a > b:
        return (
            f"a is larger, so near here y = a. Nudge a and y moves just as much (slope 1): "
            f"dL/da = dL/dy · 1 = **{fmt(grad_a)}**. Nudge b and nothing happens (slope 0): "
            f"dL/db = **0**."
        )
    if b > a:
        return (
            f"b is larger, so near here y = b: dL/db = dL/dy · 1 = **{fmt(grad_b)}**, "
            f"and a, which does not move y, gets dL/da = **0**."
        )
    return tie_words(upstream)


def tie_words(upstream: float) -> str:
    """Which splits of a tie of a and b are gradients, by the shift test, in short
    sentences (the reason in full: TIE_WHY, under "Why?")."""
    said = (
        f"a = b: a tie. PyTorch gives the whole {fmt(upstream)} to the first cell, a. "
        "The shift test: raise a and b by t and y rises by t, so dL/da + dL/db must equal "
        f"dL/dy = {fmt(upstream)}."
    )
    if upstream == 0:
        return said + " With dL/dy = 0, every split gives both 0."
    return said + (
        f" Giving a a fraction between 0 and 1 of it and b the rest passes; {fmt(upstream)} "
        f"to both fails: together they would get {fmt(2 * upstream)}."
    )


TIE_WHY = (
    "Raising a or b alone raises y, lowering one alone does not: max has a corner at a "
    "tie, and no single slope. Every split that passes the shift test is a valid "
    "gradient there; PyTorch picks the first cell. The Playground's Tie lab compares the "
    "rules."
)


def average_words(share: float) -> str:
    """Why each cell of an average of two gets half of dL/dy."""
    return (
        f"y = (a + b) / 2, so nudging a or b moves y by half the nudge: each gets "
        f"dL/dy ÷ 2 = **{fmt(share)}**. Average pooling spreads, max pooling routes."
    )


def render() -> None:
    """The page under its title and intro: the demo, the links on, and the browser
    component last (it takes the curve's picture out of a screen reader's way, where
    its text twin stands)."""
    demo()
    page_links()
    browser.mount()


def demo() -> None:
    """The two-number example: inputs, then max and average side by side."""
    inputs = st.columns(3)
    limits = f"From −{fmt(MAX_VALUE)} to {fmt(MAX_VALUE)}."
    # The range is said once, under the three boxes (each box's min and max hold it
    # too): a help button on each was one more stop that only repeated it.
    a = inputs[0].number_input("a", value=1.0, step=0.5, key=KEY_A, format="%g", **BOUNDS)
    b = inputs[1].number_input("b", value=3.0, step=0.5, key=KEY_B, format="%g", **BOUNDS)
    upstream = inputs[2].number_input(
        "Upstream gradient dL/dy",
        value=2.5,
        step=0.5,
        key=KEY_UPSTREAM,
        format="%g",
        help="What the layers above send back for y.",
        **BOUNDS,
    )
    st.caption(f"a, b and dL/dy: each {limits[0].lower()}{limits[1:]}")
    left, right = st.columns(2, gap="large")
    with left:
        y, grad_a, grad_b = two_cell_gradients(a, b, upstream, "max")
        st.subheader("Max pooling: y = max(a, b)")
        metric_row(y, grad_a, grad_b)
        st.markdown(why_max(a, b, upstream, grad_a, grad_b))
        if a == b:
            with st.expander("Why?", key="home_why_tie"):
                st.markdown(TIE_WHY)
        chart(cached(max_curve_figure, a=a, b=b), key=KEY_CURVE)
        st.caption(
            "That is why the forward pass must remember which cell won: the value y "
            "alone does not say where it came from."
        )
    with right:
        y, grad_a, grad_b = two_cell_gradients(a, b, upstream, "avg")
        st.subheader("Average pooling: y = (a + b) / 2")
        metric_row(y, grad_a, grad_b)
        st.markdown(average_words(grad_a))
        st.markdown(
            "**In a real layer** every window works like this, on its own. Where "
            "windows overlap, a cell collects what each of its windows sends it."
        )


def metric_row(y: float, grad_a: float, grad_b: float) -> None:
    cells = st.columns(3)
    cells[0].metric("y", fmt(y))
    cells[1].metric("dL/da", fmt(grad_a))
    cells[2].metric("dL/db", fmt(grad_b))


def page_links() -> None:
    st.divider()
    st.subheader("Go further")
    page_link(
        "Playground",
        "A whole grid and a real pooling layer: window, stride, padding, dilation, "
        "ties. Step through the windows, read each cell's ledger, see the layer as a "
        "matrix, and compare the tie rules.",
    )
    page_link(
        "Batch",
        "A tiny CNN on a mini-batch of handwritten digits: every example is routed on its "
        "own, and the gradients are combined only where weights are shared. With "
        "the wrong way compared with the right one, and a training step.",
    )
    seed_batch_link()
    page_link(
        "Lesson",
        f"{STEP_COUNT} steps, one idea each: a small live example, a question to answer first, "
        "then the answer with the engine's numbers. Send a class straight to a step.",
    )
    page_link(
        "Exercises",
        "Seeded problems from one window to overlap, padding, ties and ceil mode, checked "
        "on the spot and explained with the cell's ledger. One link, one set for a class.",
    )
    page_link(
        "Class",
        "For a lecturer: ask the whole room one question. Students join from a QR code "
        "and answer on their phones; the projector shows where the class went, then the "
        "right answer, the mistakes behind the wrong ones, and a second vote.",
    )
    page_link(
        "Join",
        "For a student in class: open the lecturer's link, scan the QR code on the "
        "projector, or type the room's 6-character code, and answer from here.",
    )
