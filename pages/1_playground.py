"""Playground: edit a grid, pool it, and watch where every gradient goes."""

from ui.frame import page_frame
from ui.playground import render

page_frame(
    "Playground",
    "Edit the grid, choose a pooling layer in the sidebar, and follow each upstream "
    "gradient dL/dy back to the input cells it reaches.",
)
render()
