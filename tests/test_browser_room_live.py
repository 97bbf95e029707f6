"""Class mode's changes reach a screen reader (issue 29, item 3): the page's one polite
live region (browser.js, window.poolingLabLive) says the projector's new count as
phones answer (browser.says_changes: the count is redrawn by a fragment, with no full
run), and nothing while the count stays; a phone's region says what its answer got (the
saved answer after a tap or a typed number, the reason a number was refused), and the
room's news (voting closed, the verdict, the next question).

Every sentence is computed (teaching.class_mode), every wait is for a condition on the
page, never a fixed time.
"""

from __future__ import annotations

import pytest
from browser import TIMEOUT_MS, exceptions_on, open_page, settle
from browser_room import (  # database, served, projector: the module's fixtures
    Lecturer,
    database_fixture,  # noqa: F401
    expect_saved,
    join_by_link,
    projector_fixture,  # noqa: F401
    served_fixture,  # noqa: F401
    tap_cell,
)
from conftest import PHONE
from playwright.sync_api import expect

from rooms import store
from teaching.class_mode import codes
from teaching.class_mode.answers import count_sentence, right_sentence
from teaching.class_mode.questions import question_from_exercise
from teaching.class_mode.student import answer_text, cells_text, question_text, revealed_reply
from teaching.class_mode.tally import tally
from teaching.exercises.answers import parse_number
from ui.class_mode.lecturer.views_room import CHOOSING
from ui.class_mode.student.views import CLOSED
from ui.shared.browser import SAY_GAP_MS, spoken
from ui.shared.state import literal

pytestmark = pytest.mark.browser

CHANGE_IT = " You can change it until voting closes."
# Every text the region is given from now on, with the page's clock: [[text, ms]].
LOG_SAID = """() => {
  window.labSaid = [];
  const watch = (region) => {
    const note = () => window.labSaid.push([region.textContent, performance.now()]);
    if (region.textContent) note();
    new MutationObserver(note)
      .observe(region, { childList: true, characterData: true, subtree: true });
  };
  if (window.poolingLabLive) { watch(window.poolingLabLive); return; }
  // Made on the first saying, its text set in the same task: seen at that task's end.
  const made = new MutationObserver(() => {
    if (!window.poolingLabLive) return;
    made.disconnect();
    watch(window.poolingLabLive);
  });
  made.observe(document.body, { childList: true });
}"""
# The page's clock when `text` is first seen on screen (polled as the page draws).
SEEN_AT = """(text) => {
  const found = [...document.querySelectorAll('[data-testid="stMarkdownContainer"]')]
    .some((node) => node.innerText.trim() === text && !node.closest('[data-stale="true"]'));
  return found ? performance.now() : false;
}"""


@pytest.fixture
def phone(browser):
    context = browser.new_context(**PHONE)
    yield context.new_page()
    context.close()


def expect_said(page, text: str) -> None:
    """The region's text becomes `text`."""
    page.wait_for_function(
        "(text) => window.poolingLabLive?.textContent === text", arg=text, timeout=TIMEOUT_MS
    )


def said(page) -> list[str]:
    return [text for text, _ in page.evaluate("() => window.labSaid")]


def seen_at(page, text: str) -> float:
    return page.wait_for_function(SEEN_AT, arg=text, timeout=TIMEOUT_MS).json_value()


def answer_from_the_store(database, code: str, cell) -> None:
    """One more student, answering without a browser (the projector counts them all)."""
    token = codes.new_token()
    store.join(database, code, token=token, nickname="")
    store.answer(database, code, token=token, round_number=1, raw=[list(cell)])


def test_the_projector_says_each_new_count_once_and_the_phone_its_answer_and_the_news(
    projector, phone, served, database
):
    lecturer = Lecturer(projector, served, database)
    problem = lecturer.question.problem
    right = sorted(problem.answer)
    lecturer.expect_text(count_sentence(0, state="open"))
    settle(projector)
    projector.evaluate(LOG_SAID)
    join_by_link(phone, lecturer.join_link, lecturer.code)

    # A tap on the phone: the phone says its saved answer, the projector the new count.
    tap_cell(phone, *right[0])
    expect_saved(phone, problem, [right[0]])
    expect_said(phone, f"Your answer: {cells_text([right[0]])} (saved).{CHANGE_IT}")
    one = count_sentence(1, state="open")
    expect_said(projector, one)
    assert said(projector) == [one]

    # A second cell and its taking back: the share map is drawn twice more by the
    # projector's fragment, the count stays 1, and nothing more is said there.
    tap_cell(phone, *right[1])
    expect_saved(phone, problem, right[:2])
    lecturer.expect_shares([right[:2]])
    tap_cell(phone, *right[1])
    expect_saved(phone, problem, [right[0]])
    expect_said(phone, f"Your answer: {cells_text([right[0]])} (saved).{CHANGE_IT}")
    lecturer.expect_shares([[right[0]]])
    assert said(projector) == [one]

    # Three more answers, the last two close together: each saying waits SAY_GAP_MS
    # after the one before, and a count overtaken within the gap is never said.
    answer_from_the_store(database, lecturer.code, right[0])
    expect_said(projector, count_sentence(2, state="open"))
    two_said_at = projector.evaluate("() => window.labSaid.at(-1)[1]")
    answer_from_the_store(database, lecturer.code, right[0])
    seen_at(projector, count_sentence(3, state="open"))
    answer_from_the_store(database, lecturer.code, right[1])
    four_seen_at = seen_at(projector, count_sentence(4, state="open"))
    expect_said(projector, count_sentence(4, state="open"))
    log = projector.evaluate("() => window.labSaid")
    texts = [text for text, _ in log]
    assert all(before != after for before, after in zip(texts, texts[1:], strict=False)), texts
    times = [at for _, at in log]
    gaps = [after - before for before, after in zip(times, times[1:], strict=False)]
    assert all(gap >= SAY_GAP_MS - 50 for gap in gaps), gaps
    if four_seen_at < two_said_at + SAY_GAP_MS - 200:  # 3 was overtaken within the gap
        assert texts == [one, count_sentence(2, state="open"), count_sentence(4, state="open")]

    # Answers closed: both screens say so (a full run's sentence on the projector).
    lecturer.press("Close answers")
    expect_said(projector, count_sentence(4, state="closed"))
    expect_said(phone, CLOSED)

    # Revealed: the projector says the share right, the phone its verdict.
    lecturer.press("Reveal")
    answers = [frozenset({right[0]})] * 3 + [frozenset({right[1]})]
    expect_said(projector, right_sentence(tally(lecturer.question, answers)))
    reply = revealed_reply(lecturer.question, frozenset({right[0]}))
    expect_said(phone, spoken(f"{reply.said} {reply.mistake}".strip()))

    # The next question: the projector says the chooser, then the round open; the
    # phone says the question; the new round's "No answers yet." is unsaid (first
    # sight of that round's count).
    lecturer.press("New question")
    expect_said(projector, CHOOSING)
    lecturer.press("Ask")
    lecturer.round += 1
    lecturer.expect_text(count_sentence(0, state="open"))
    asked = question_from_exercise("cells", level=2, seed=4, number=2).problem
    expect_said(phone, spoken(f"**Round 2**. {question_text(asked, state='open')}"))
    expect_said(projector, "Round 2, first vote: answers are open.")
    settle(projector)
    assert count_sentence(0, state="open") not in said(projector)
    for page in (projector, phone):
        assert exceptions_on(page) == []


def test_a_count_waiting_for_the_gap_is_dropped_when_answers_close(projector, served, database):
    """Two answers in a row: the first count is said at once, the second waits for the
    gap; the lecturer closes answers meanwhile. The closed count is said, and the open
    count that waited never is after it (no longer true), nor at all if it waited."""
    lecturer = Lecturer(projector, served, database)
    right = sorted(lecturer.question.problem.answer)
    lecturer.expect_text(count_sentence(0, state="open"))
    settle(projector)
    projector.evaluate(LOG_SAID)
    answer_from_the_store(database, lecturer.code, right[0])
    expect_said(projector, count_sentence(1, state="open"))
    answer_from_the_store(database, lecturer.code, right[0])
    seen_at(projector, count_sentence(2, state="open"))
    waiting = projector.evaluate("() => window.poolingLabBrowser.sayTimer !== null")
    lecturer.press("Close answers")
    closed = count_sentence(2, state="closed")
    expect_said(projector, closed)
    assert projector.evaluate("() => window.poolingLabBrowser.sayTimer") is None
    texts = said(projector)
    assert texts[texts.index(closed) + 1 :] == []
    if waiting:
        assert count_sentence(2, state="open") not in texts, texts


def test_a_phone_says_why_a_typed_number_was_refused_then_what_was_saved(phone, served, database):
    made = store.open_room(database, token=codes.new_token())
    question = question_from_exercise("value", level=2, seed=4, number=2)
    store.ask(database, made.code, secret=made.secret, question=question)
    token = join_by_link(phone, f"{served}/join?code={made.code}", made.code)
    box = phone.get_by_label("Your answer")
    expect(box).to_be_visible(timeout=TIMEOUT_MS)
    settle(phone)
    box.fill("abc")
    box.press("Enter")
    with pytest.raises(ValueError) as reason:
        parse_number("abc")
    refused = spoken(f"Your answer {literal('abc')} {reason.value}.")
    expect_said(phone, f"{refused} Saved: nothing; the text in the box was not sent.{CHANGE_IT}")
    settle(phone)
    box.fill("3")
    box.press("Enter")
    phone.wait_for_function(
        "() => window.poolingLabLive?.textContent.startsWith('Your answer:')", timeout=TIMEOUT_MS
    )
    kept = store.my_answer(database, made.code, token=token, round_number=1)
    assert kept == 3
    expect_said(phone, f"Your answer: {answer_text(question.problem, kept)} (saved).{CHANGE_IT}")
    assert exceptions_on(phone) == []


def test_a_phone_says_why_a_typed_code_joins_no_room(phone, served):
    """The join form's refusal, a notice above the form, reaches the region too."""
    typed = "K7-Q!"
    with pytest.raises(ValueError) as reason:
        codes.normal_code(typed)
    open_page(phone, f"{served}/join")
    field = phone.get_by_role("textbox", name="Room code")
    expect(field).to_be_visible(timeout=TIMEOUT_MS)
    field.fill(typed)
    field.press("Enter")
    expect_said(phone, spoken(f"The code {literal(typed)} is not a join code. {reason.value}"))
    assert exceptions_on(phone) == []
