"""Class: ask the whole room one question, and show on the projector what it answered."""

from ui.class_mode.lecturer import render, room_in_link
from ui.shared.chrome import page_frame

TITLE = "Class"
INTRO = (
    "Ask the whole class one question at once: students answer on their phones, and "
    "the projector shows the share that picked each cell or typed each number, then "
    "the right answer and the mistakes behind the wrong ones."
)

# A room's screen has a heading of its own (the join code), and the projector's width.
page_frame(TITLE, INTRO, heading=False, menu_folded=room_in_link())
render(TITLE, INTRO)
