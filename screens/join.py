"""Join: a student answers the lecturer's questions in class mode."""

from ui.class_mode.student import render
from ui.shared.chrome import page_frame

TITLE = "Join"
INTRO = (
    "Answer your lecturer's question from here: open the link or scan the QR code on "
    "the projector, or type the room's code."
)

page_frame(TITLE, INTRO, heading=False)  # once joined, the room's line is the heading
render(TITLE, INTRO)
