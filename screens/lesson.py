"""The guided lesson: ten steps through the backward pass of pooling."""

from ui.lesson import render
from ui.shared.chrome import page_frame

page_frame(
    "Lesson",
    "Ten steps from one max window to a whole batch's weight update. Each step shows a "
    "small example, asks one question, then shows the answer with the engine's numbers.",
)
render()
