"""Exercises: predict where the gradient goes, then check."""

from ui.exercises import render
from ui.shared.chrome import page_frame

page_frame(
    "Exercises",
    "Work out where the gradient goes, type or click your answer, and check it. A wrong "
    "answer is explained with the same ledger the lab computes. Share the link: everyone "
    "who opens it gets the same set.",
)
render()
