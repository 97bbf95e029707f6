"""The lab's one vocabulary: what each pooling setting is called on screen and what it
means, in the words every page uses (the picker's labels, the help text, the
exercises' sentences, the label written in padding cells)."""

from __future__ import annotations

from dataclasses import dataclass

from pooling.config import Mode, TieRule


@dataclass(frozen=True)
class TieWords:
    """label: the picker's short name; rule: what the rule does, as a clause that reads
    after "on a tie,"; note: what a student should know besides (or "")."""

    label: str
    rule: str
    note: str = ""


MODE_LABELS: dict[Mode, str] = {"max": "Max", "avg": "Average"}
MODE_HELP = "Max keeps the largest value of each window; average keeps the mean."
TIE_WORDS: dict[TieRule, TieWords] = {
    "first": TieWords(
        "first (PyTorch)",
        "the first tied cell in reading order gets it all",
        "as in PyTorch and TensorFlow",
    ),
    "last": TieWords("last", "the last tied cell in reading order gets it all"),
    "split": TieWords("split evenly", "the tied cells share it evenly"),
    "all": TieWords(
        "all (wrong on purpose)",
        "every tied cell gets all of it",
        "so k tied cells get k times it: wrong, since a true gradient adds up to what "
        "the window sends",
    ),
}
TIE_LABELS = {rule: words.label for rule, words in TIE_WORDS.items()}


# What captions call the marks drawn on maps (their shapes and colours: ui/figures/style.py
# and ui/figures/marks.py, ui/figures/answer_marks.py; change a shape, change its words).
MARK_LEGEND = "a star (a frame on cells too small for one)"  # a window's winner
RIGHT_LEGEND = "a tick"  # a checked exercise's right pick
MISSED_LEGEND = "a dashed frame"  # a cell that receives gradient, not picked
EXTRA_LEGEND = "a cross"  # a pick that receives nothing
WRONG_LEGEND = "dashed"  # the class's share map: a cell picked that receives nothing


def tie_help() -> str:
    """The tie picker's help: every rule with its meaning."""
    rules = " ".join(
        f"{rule}: {words.rule}{f' ({words.note})' if words.note else ''}."
        for rule, words in TIE_WORDS.items()
    )
    return f"Where a max window sends its gradient when several cells hold the maximum. {rules}"


def pad_label(mode: Mode) -> str:
    """What pooling reads in a padding cell: −∞ for max (it never wins), 0 for average."""
    return "−∞" if mode == "max" else "0"
