"""Home page of the Pooling Backprop Lab."""

from ui.home import render
from ui.shared.chrome import page_frame

page_frame(
    "Pooling Backprop Lab",
    "How does the gradient get back through a pooling layer? Start with a window of "
    "just two cells, a and b, and an upstream gradient dL/dy from the layers above.",
)
render()
