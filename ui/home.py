"""Home: the whole idea on one screen, with two numbers a and b."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from pooling import PoolConfig, backward, forward

from .figures import FONT, ROUTE_COLOUR, title_style
from .frame import chart
from .numbers import fmt

H = "home"


def two_cell_gradients(
    a: float, b: float, upstream: float, mode: str
) -> tuple[float, float, float]:
    """y, dL/da, dL/db for y = max(a, b) or mean(a, b), through the engine itself."""
    result = forward(np.array([[a, b]]), PoolConfig(mode, kernel_size=(1, 2)))
    grad = backward(result, [[upstream]])
    return float(result.output[0, 0]), float(grad[0, 0]), float(grad[0, 1])


def max_curve_figure(a: float, b: float) -> go.Figure:
    """y = max(a, b) as a function of a, b held fixed: flat (slope 0), then slope 1."""
    span = max(3.0, abs(a - b) + 2.0)
    grid = np.linspace(b - span, b + span, 201)
    figure = go.Figure()
    figure.add_trace(
        go.Scatter(
            x=grid,
            y=np.maximum(grid, b),
            mode="lines",
            line=dict(color="#2171b5", width=3),
            hoverinfo="skip",
        )
    )
    figure.add_trace(
        go.Scatter(
            x=[a],
            y=[max(a, b)],
            mode="markers",
            marker=dict(size=13, color=ROUTE_COLOUR),
            hoverinfo="skip",
        )
    )
    figure.add_annotation(x=b - span / 2, y=b, text="slope 0: a loses", showarrow=False, yshift=14)
    figure.add_annotation(
        x=b + span / 2,
        y=b + span / 2,
        text="slope 1: a wins",
        showarrow=False,
        xshift=-46,
        yshift=10,
    )
    figure.update_layout(
        title=title_style(f"y = max(a, {fmt(b)}) as a moves"),
        xaxis_title="a",
        yaxis_title="y",
        showlegend=False,
        font=FONT,
        height=300,
        margin=dict(l=50, r=16, t=44, b=40),
        plot_bgcolor="white",
        dragmode=False,
    )
    figure.update_xaxes(gridcolor="#eeeeee", zeroline=False)
    figure.update_yaxes(gridcolor="#eeeeee", zeroline=False)
    return figure


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
    return (
        f"a = b: a tie. Raising either one raises y, lowering one alone does not, so max "
        f"has a corner here. PyTorch gives the whole {fmt(upstream)} to the first cell, a. "
        f"Any split that adds up to {fmt(upstream)} is a valid choice; giving "
        f"{fmt(upstream)} to both is not (the Playground's Tie lab shows why)."
    )


def demo() -> None:
    """The two-number example: inputs, then max and average side by side."""
    inputs = st.columns(3)
    a = inputs[0].number_input("a", value=1.0, step=0.5, key=f"{H}_a", format="%g")
    b = inputs[1].number_input("b", value=3.0, step=0.5, key=f"{H}_b", format="%g")
    upstream = inputs[2].number_input(
        "Upstream gradient dL/dy",
        value=2.5,
        step=0.5,
        key=f"{H}_g",
        format="%g",
        help="What the layers above send back for y.",
    )
    left, right = st.columns(2, gap="large")
    with left:
        y, grad_a, grad_b = two_cell_gradients(a, b, upstream, "max")
        st.subheader("Max pooling: y = max(a, b)")
        metric_row(y, grad_a, grad_b)
        st.markdown(why_max(a, b, upstream, grad_a, grad_b))
        chart(max_curve_figure(a, b))
        st.caption(
            "That is why the forward pass must remember which cell won: the value y "
            "alone does not say where it came from."
        )
    with right:
        y, grad_a, grad_b = two_cell_gradients(a, b, upstream, "avg")
        st.subheader("Average pooling: y = (a + b) / 2")
        metric_row(y, grad_a, grad_b)
        st.markdown(
            f"Both cells move y by half of what they move: each gets dL/dy ÷ 2 = "
            f"**{fmt(grad_a)}**. Average pooling spreads, max pooling routes."
        )
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
    st.page_link("pages/1_playground.py", label="Playground", icon=":material/grid_on:")
    st.markdown(
        "A whole grid and a real pooling layer: window, stride, padding, dilation, "
        "ties. Step through the windows, read each cell's ledger, see the layer as a "
        "matrix, and compare the tie rules."
    )
    st.page_link("pages/2_batch.py", label="Batch", icon=":material/stacks:")
    st.markdown(
        "A tiny CNN on a mini-batch of handwritten digits: every example picks its own "
        "winners, and the gradients are averaged only where weights are shared. With "
        "the wrong way beside the right one, and a training step."
    )
