"""Who is in, in headless Chromium (issue 36, items 3 and 4): the projector counts the
phones that joined and locks the room by keyboard; a new phone is refused in one
sentence with its code kept; a member's reload comes back in and answers; unlocked,
the new phone gets in. The recovery code is never in the projector's page (its text,
its HTML, its accessibility tree), in lecture mode or not: it is reached on the
lecturer's own screen, when asked.

Every wait is for a condition on the page or in the database, never a fixed time.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

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
from conftest import PHONE, PROJECTOR
from playwright.sync_api import expect
from test_browser_a11y import violations
from test_browser_room_live import expect_said

from rooms import store
from teaching.class_mode import codes
from teaching.class_mode.lecturer import door_words, joined_words
from ui.class_mode.student.views import ENDED

pytestmark = pytest.mark.browser


@pytest.fixture
def phones(browser):
    """Two phones, each a browser of its own."""
    contexts = [browser.new_context(**PHONE) for _ in range(2)]
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


def door_line(members: int, *, locked: bool) -> str:
    return f"{joined_words(members)} {door_words(locked)}"


def press_by_keyboard(page, name: str) -> None:
    """Focus the button as Tab would reach it, then Enter."""
    settle(page)
    button = page.get_by_role("button", name=name)
    button.focus()
    expect(button).to_be_focused()
    page.keyboard.press("Enter")


def test_a_locked_room_keeps_its_members_and_refuses_a_new_phone_until_unlocked(
    projector, phones, served, database
):
    lecturer = Lecturer(projector, served, database)
    problem = lecturer.question.problem
    member, newcomer = phones
    lecturer.expect_text(door_line(0, locked=False))
    token = join_by_link(member, lecturer.join_link, lecturer.code)
    lecturer.expect_text(door_line(1, locked=False))
    right = sorted(problem.answer)
    tap_cell(member, *right[0])
    expect_saved(member, problem, [right[0]])

    # Locked by keyboard: the projector draws it and says it.
    press_by_keyboard(projector, "Lock the room")
    lecturer.expect_text(door_line(1, locked=True))
    expect_said(projector, door_words(True))
    assert store.door(database, lecturer.code) == store.Door(members=1, locked=True)

    # A new phone, by the QR code's link: one sentence, the code kept in the form.
    open_page(newcomer, lecturer.join_link)
    refused = f"Room {lecturer.code} is locked: the lecturer lets no new phones join."
    expect(newcomer.get_by_text(refused)).to_be_visible(timeout=TIMEOUT_MS)
    expect(newcomer.get_by_role("textbox", name="Room code")).to_have_value(lecturer.code)

    # The member's reload comes back in, with its answer, and changes it.
    member.reload()
    expect_saved(member, problem, [right[0]])
    tap_cell(member, *right[1])
    expect_saved(member, problem, right[:2])
    assert lecturer.answer_of(token) == frozenset(right[:2])
    lecturer.expect_text("1 answer so far.")
    lecturer.expect_text(door_line(1, locked=True))

    # Unlocked: the new phone's Join gets it in.
    press_by_keyboard(projector, "Unlock")
    lecturer.expect_text(door_line(1, locked=False))
    expect_said(projector, door_words(False))
    newcomer.get_by_role("button", name="Join").click()
    tap_cell(newcomer, *right[0])
    expect_saved(newcomer, problem, [right[0]])
    lecturer.expect_text(door_line(2, locked=False))
    lecturer.expect_text("2 answers so far.")
    for page in [projector, *phones]:
        assert exceptions_on(page) == []


def drawn(page) -> str:
    """All the page gives: its HTML, its text and its accessibility tree."""
    return "\n".join(
        (page.content(), page.locator("body").inner_text(), page.locator("body").aria_snapshot())
    )


def test_the_recovery_code_is_never_in_the_projector_s_page(projector, served, database):
    lecturer = Lecturer(projector, served, database)  # in lecture mode
    lecturer.expect_text(door_line(0, locked=False))
    # The code's view in lecture mode draws no code.
    lecturer.press("Recovery code")
    lecturer.expect_text("Lecture mode is on")
    lecturer.expect_button("Back to the room")
    in_lecture = drawn(projector)
    # On the lecturer's own screen: lecture mode off, then asked for.
    lecturer.press("Turn lecture mode off")
    lecturer.press("Show the recovery code")
    shown = projector.get_by_text("Recovery code:", exact=False).first
    expect(shown).to_be_visible(timeout=TIMEOUT_MS)
    grouped = shown.inner_text().split(":", 1)[1].strip()
    plain = codes.normal_recovery_code(grouped)
    assert len(plain) == codes.RECOVERY_LENGTH
    expect(projector.get_by_text("never on the projector", exact=False)).to_be_visible()
    assert grouped not in in_lecture and plain not in in_lecture
    # Back on the room, at a desk and in lecture mode: nowhere in the page.
    lecturer.press("Back to the room")
    lecturer.expect_button("Close answers")
    settle(projector)
    for mode in ("desk", "lecture"):
        page = drawn(projector)
        assert lecturer.code in page, mode
        assert grouped not in page and plain not in page, mode
        if mode == "desk":
            switch = projector.locator("main").get_by_role("button", name="Lecture mode")
            switch.click()
            expect(switch).to_have_count(0, timeout=TIMEOUT_MS)  # lecture mode on
            settle(projector)
    # The code it showed opens the room in another browser.
    key = store.recover(database, lecturer.code, grouped, token=codes.new_token())
    assert store.authorize(database, lecturer.code, key)
    assert exceptions_on(projector) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_on_the_locked_room_and_the_code_s_view(browser, served, scheme):
    """axe-core (WCAG 2.0 to 2.2, A and AA) on the projector's room, locked, with its
    New code popover open, and on the recovery code's view with the code shown."""
    context = browser.new_context(**PROJECTOR, color_scheme=scheme)
    try:
        page = context.new_page()
        lecturer = Lecturer(page, served, None)
        lecturer.press("Lock the room")
        lecturer.expect_text(door_line(0, locked=True))
        assert violations(page) == []
        lecturer.press("New code")
        lecturer.expect_button("Start again with a new code")
        assert violations(page) == []
        page.keyboard.press("Escape")
        lecturer.press("Recovery code")
        lecturer.press("Turn lecture mode off")
        lecturer.press("Show the recovery code")
        lecturer.expect_text("Recovery code:")
        assert violations(page) == []
    finally:
        context.close()


def test_starting_again_under_a_new_code_leaves_those_who_joined_behind(
    projector, phones, served, database
):
    lecturer = Lecturer(projector, served, database)
    old, intruder = lecturer.code, phones[0]
    join_by_link(intruder, lecturer.join_link, old)
    lecturer.expect_text(door_line(1, locked=False))
    lecturer.press("New code")
    lecturer.press("Start again with a new code")
    projector.wait_for_url(lambda url: f"room={old}" not in url, timeout=TIMEOUT_MS)
    lecturer.code = parse_qs(urlsplit(projector.url).query)["room"][0]
    lecturer.expect_text(door_line(0, locked=False))
    lecturer.expect_text("No answers yet.")
    assert store.pulse(database, old).ended and not store.pulse(database, lecturer.code).ended
    expect(intruder.get_by_text(ENDED)).to_be_visible(timeout=TIMEOUT_MS)
    # The hall joins the new room from the projector's new link; then the lecturer locks.
    join_by_link(phones[1], lecturer.join_link, lecturer.code)
    lecturer.expect_text(door_line(1, locked=False))
    lecturer.press("Lock the room")
    lecturer.expect_text(door_line(1, locked=True))
    assert exceptions_on(projector) == []
