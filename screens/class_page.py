"""Class: ask the whole room one question, and show on the projector what it answered."""

from ui.class_mode.lecturer import render
from ui.shared.chrome import page_frame

page_frame(
    "Class",
    "Ask the whole class one question at once: students answer on their phones, and "
    "the projector shows the share that picked each cell or typed each number, then "
    "the right answer and the mistakes behind the wrong ones.",
)
render()
