"""Batch: each example routed on its own, the average taken where weights are shared."""

from ui.batch import render
from ui.shared.chrome import page_frame

page_frame(
    "Batch",
    "In a batch every example goes through the pooling layer on its own (under max "
    "pooling, with its own max cells). Follow a tiny CNN on real digits: each example is "
    "routed on its own, and the examples' gradients are combined (mean or sum) only where "
    "parameters are shared.",
)
render()
