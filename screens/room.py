"""Class: ask the whole room one question, and show on the projector what it answered."""

from ui.room.lecturer import render
from ui.shared.frame import page_frame

TITLE = "Class"
INTRO = (
    "Ask the whole class one question at once: students answer on their phones, and "
    "the projector shows the share that picked each cell or typed each number, then "
    "the right answer and the mistakes behind the wrong ones."
)

page_frame(TITLE, INTRO, heading=False)  # a room's screen has its own: the join code
render(TITLE, INTRO)
