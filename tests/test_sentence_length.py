"""Every sentence a projector shows is short enough to read from the back of a room: at
most MOST_WORDS words, on every lecture screen of every page and tab (the screens
tests/test_browser_cut_charts.py walks in the browser, here through AppTest), and in
every part of every Lesson step (its idea, question, choices, verdicts, the answer's
parts and the mistake). Longer reasoning is folded under a "Why?" expander, which a
projector does not show until asked: text inside an expander is not counted."""

from __future__ import annotations

import json
import re

import pytest
from apptest import no_exceptions, open_app
from test_browser_cut_charts import lecture_screens

from teaching.lesson.steps import lesson_steps
from ui.lesson.views import answer_parts

MOST_WORDS = 35
PAGES = {
    "": None,
    "playground": "screens/playground.py",
    "batch": "screens/batch.py",
    "lesson": "screens/lesson.py",
    "exercises": "screens/exercises.py",
}
FORMULA = re.compile(r"\$[^$]+\$")  # a LaTeX formula reads as one thing
MARKUP = re.compile(r"\*\*|\*|`|^#+ |^- |^\d+\. ", re.MULTILINE)
# A sentence ends at . ! or ? followed by a space and a capital, a quote or a bracket;
# not inside a number (0.5) and not after a single letter (e.g. "x. y" never occurs).
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z“\"(#])")
WORD = re.compile(r"\S+")


def sentences(text: str) -> list[str]:
    """The sentences of a markdown text: each line (a list item, a table row) on its
    own, each formula one word, split where a sentence ends."""
    said = []
    for line in MARKUP.sub("", text).splitlines():
        line = FORMULA.sub("FORMULA", line).strip()
        said += [part for part in SENTENCE_END.split(line) if part.strip()]
    return said


def words(sentence: str) -> int:
    return len([w for w in WORD.findall(sentence) if any(ch.isalnum() for ch in w)])


def too_long(texts) -> list[tuple[int, str]]:
    return [(words(s), s) for text in texts for s in sentences(text) if words(s) > MOST_WORDS]


def test_the_counter_counts_sentences_words_and_formulas():
    text = "**y = 3** at x[0,1], 0.5 each. Then $\\frac{a}{b} = c$ is one word.\n- A list item"
    assert sentences(text) == [
        "y = 3 at x[0,1], 0.5 each.",
        "Then FORMULA is one word.",
        "A list item",
    ]
    assert [words(s) for s in sentences(text)] == [6, 5, 3]  # "=" is no word
    assert too_long(["word " * 36]) and not too_long(["word " * 35])


# -- the Lesson, every part of every step -----------------------------------------------------


@pytest.mark.parametrize("number", range(1, len(lesson_steps()) + 1))
def test_every_lesson_sentence_is_short(number):
    step = lesson_steps()[number - 1]
    texts = [step.idea, step.question, *answer_parts(step)]
    texts += [step.verdict(index) for index in range(len(step.choices))]
    texts += [choice.text for choice in step.choices]
    assert too_long(texts) == []


# -- every lecture screen, as AppTest draws it ------------------------------------------------

SAID = ("markdown", "caption", "info", "warning", "error", "success", "subheader", "title")


def shown_texts(node) -> list[str]:
    """What the screen says outside every expander: its sentences, the options of its
    radios and what a frame player shows at its position."""
    kind = getattr(node, "type", None)
    if kind == "expander":
        return []  # folded: read only when asked
    if kind in SAID:
        return [str(node.value)]
    if kind == "radio":
        return [str(option) for option in node.options]
    if kind == "bidi_component":
        player = json.loads(node.proto.json)
        if not player.get("frames"):
            return []
        shown = player["frames"]["words"][player["position"]]
        return [shown["sentence"], shown["line"], shown.get("note", {}).get("text", "")]
    children = getattr(node, "children", None)
    if not children or kind in SAID:
        return []
    nodes = children.values() if isinstance(children, dict) else children
    return [text for child in nodes for text in shown_texts(child)]


def query_of(path: str) -> tuple[str | None, dict]:
    page, _, query = path.partition("?")
    fields = dict(part.split("=", 1) for part in query.split("&") if part)
    return PAGES[page], {**fields, "lecture": "1"}


@pytest.mark.parametrize("path", lecture_screens(), ids=lambda path: path or "home")
def test_every_sentence_on_a_lecture_screen_is_short(path):
    page, query = query_of(path)
    app = open_app(page, query)
    assert no_exceptions(app), [e.value for e in app.exception]
    texts = shown_texts(app.main)
    assert texts  # the screen said something
    assert too_long(texts) == []
