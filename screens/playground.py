"""Playground: edit a grid, pool it, and watch where every gradient goes."""

from ui.playground import render
from ui.shared.chrome import page_frame

page_frame(
    "Playground",
    "Edit the grid, choose a pooling layer in the sidebar, and follow each upstream "
    "gradient dL/dy back to the input cells it reaches.",
)
render()
