"""Home page of the Pooling Backprop Lab."""

from ui.frame import page_frame
from ui.home import demo, page_links

page_frame(
    "Pooling Backprop Lab",
    "How does the gradient get back through a pooling layer? Start with a window of "
    "just two cells, a and b, and an upstream gradient dL/dy from the layers above.",
)
demo()
page_links()
