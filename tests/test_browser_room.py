"""Class mode in headless Chromium, as a class uses it: the lecturer opens a room on the
Class page (a 1280x720 projector in lecture mode), students join by its link (one of
them on a 390x844 touch phone), answer by tapping x at a cell's pixel, the projector
counts them and draws the share map, then the reveal and a second vote; a student's
browser has no key to control the room; and when the replica serving a student dies
mid-round, the page comes back with the same token, shows the answer saved and takes a
change, and the lecturer keeps control. The rooms live in a SQLite file of the test's
own (POOLING_LAB_DATABASE_URL in the served apps' environment).

Every wait is for a condition on the page or in the database, never a fixed time.
"""

from __future__ import annotations

import shutil
import time

import pytest
from browser import (
    TIMEOUT_MS,
    exceptions_on,
    open_page,
    replica_of,
    settle,
    wait_for_title,
)
from browser_room import (  # database, served, projector: the module's fixtures
    EXERCISE,
    TOKEN_JS,
    Lecturer,
    database_fixture,  # noqa: F401
    expect_saved,
    join_by_link,
    projector_fixture,  # noqa: F401
    served_fixture,  # noqa: F401
    tap_cell,
)
from conftest import PHONE, PROJECTOR, skip_or_fail
from playwright.sync_api import expect

from deploy.cluster import Cluster
from deploy.local_server import free_port, start_app
from deploy.page_state import CELL_PIXEL
from rooms import store
from teaching.class_mode import codes
from teaching.class_mode.questions import question_from_exercise
from teaching.class_mode.student import cells_text
from teaching.exercises.model import make_problem
from ui.class_mode.student.state import TOKEN_COOKIE

pytestmark = pytest.mark.browser

DESKTOP = dict(viewport={"width": 1400, "height": 900})
POSITIONS = "positions (1: in the window)"  # a batch window's map to pick on


@pytest.fixture
def students(browser):
    """Three students: a touch phone and two laptops, each a browser of its own."""
    contexts = [browser.new_context(**options) for options in (PHONE, DESKTOP, DESKTOP)]
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


def test_a_class_joins_by_the_link_taps_its_answers_sees_the_reveal_and_votes_again(
    projector, students, served, database
):
    lecturer = Lecturer(projector, served, database)
    problem = lecturer.question.problem
    assert lecturer.join_link == f"{served}/join?code={lecturer.code}"
    tokens = [join_by_link(page, lecturer.join_link, lecturer.code) for page in students]
    assert len(set(tokens)) == 3  # one per browser
    right = sorted(problem.answer)
    picks = [{right[0], right[1]}, set(right), {right[0]}]
    for page, cells in zip(students, picks, strict=True):
        for count, cell in enumerate(sorted(cells), start=1):
            tap_cell(page, *cell)
            expect_saved(page, problem, sorted(cells)[:count])
    lecturer.expect_text("3 answers so far.")
    lecturer.expect_shares(picks)
    # The student on the phone takes a cell back with a second tap: the map follows.
    tap_cell(students[0], *right[1])
    expect_saved(students[0], problem, [right[0]])
    assert lecturer.answer_of(tokens[0]) == frozenset({right[0]})
    picks[0] = {right[0]}
    lecturer.expect_shares(picks)
    lecturer.press("Reveal")
    for page in students:  # each page sees the reveal by polling: no reload, no tap
        expect(page.get_by_text("On x, ")).to_be_visible(timeout=TIMEOUT_MS)
    expect(students[0].get_by_text("Not quite")).to_be_visible()
    expect(students[1].get_by_text("Right: all")).to_be_visible()
    lecturer.expect_text("1 of 3 right (33 %).")
    first_round = lecturer.round
    lecturer.press("Discuss and vote again")
    lecturer.round += 1
    phone = students[0]
    expect(phone.get_by_text(f"Your first vote: {cells_text([right[0]])}.")).to_be_visible(
        timeout=TIMEOUT_MS
    )
    settle(phone)
    tap_cell(phone, *right[-1])
    expect_saved(phone, problem, [right[-1]])
    assert lecturer.answer_of(tokens[0]) == frozenset({right[-1]})
    assert lecturer.answer_of(tokens[0], first_round) == frozenset({right[0]})
    lecturer.expect_text("1 answer so far.")
    for page in [projector, *students]:
        assert exceptions_on(page) == []


def test_a_student_without_the_key_cannot_control_the_room(projector, students, served, database):
    lecturer = Lecturer(projector, served, database)
    student = students[1]
    open_page(student, f"{served}/class?room={lecturer.code}")
    expect(
        student.get_by_text(f"This browser holds no key for room {lecturer.code}")
    ).to_be_visible(timeout=TIMEOUT_MS)
    for control in ("Close answers", "Reveal", "Discuss and vote again", "New question"):
        expect(student.get_by_role("button", name=control)).to_have_count(0)
    # Nor does the student's join page offer any: it answers, that is all.
    join_by_link(student, lecturer.join_link, lecturer.code)
    wait_for_title(student, "x")
    for control in ("Close answers", "Reveal", "Open the room here"):
        expect(student.get_by_role("button", name=control)).to_have_count(0)
    assert store.pulse(database, lecturer.code).state == "open"
    assert exceptions_on(student) == []


@pytest.fixture(scope="module")
def cluster(database):
    if shutil.which("haproxy") is None:
        skip_or_fail("haproxy is not installed (apt-get install haproxy)")
    running = Cluster(2, free_port()).start()
    yield running
    running.stop()


def test_a_students_page_survives_its_replica_with_the_same_token_and_answer(
    browser, cluster, database
):
    lecturer_context = browser.new_context(**PROJECTOR)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    dead = None
    try:
        lecturer = Lecturer(lecturer_context.new_page(), cluster.url, database)
        problem = lecturer.question.problem
        first, second = sorted(problem.answer)[:2]
        token = join_by_link(page, lecturer.join_link, lecturer.code)
        tap_cell(page, *first)
        expect_saved(page, problem, [first])
        dead = replica_of(page)
        for each in (page, lecturer.page):
            each.evaluate("() => { window.labBeforeTheKill = true; }")
        cluster.processes[dead].kill()
        cluster.processes[dead].wait()
        # The page reconnects through the proxy to the live replica and reloads from its
        # link: the same token from the browser's storage, the answer read back.
        page.wait_for_function("() => window.labBeforeTheKill === undefined", timeout=60_000)
        expect_saved(page, problem, [first])
        assert page.evaluate(TOKEN_JS) == token and replica_of(page) != dead
        tap_cell(page, *second)
        expect_saved(page, problem, [first, second])
        assert lecturer.answer_of(token) == frozenset({first, second})
        # The lecturer keeps control (its page too came back, where it lived on the dead
        # replica, with the key from its browser): it counts the change and reveals.
        if replica_of(lecturer.page) == dead:
            lecturer.page.wait_for_function(
                "() => window.labBeforeTheKill === undefined", timeout=60_000
            )
        lecturer.expect_text("1 answer so far.")
        lecturer.expect_shares([[first, second]])
        lecturer.press("Reveal")
        expect(page.get_by_text("On x, ")).to_be_visible(timeout=TIMEOUT_MS)
        assert exceptions_on(page) == [] and exceptions_on(lecturer.page) == []
    finally:
        context.close()
        lecturer_context.close()
        if dead is not None:
            port = int(cluster.replica_urls[dead].rsplit(":", 1)[1])
            cluster.processes[dead] = start_app(port=port)[1]


def test_a_reloaded_phone_draws_its_room_without_asking_its_browser_for_the_token(
    browser, served, database
):
    """Once joined, the browser keeps the token in a cookie for this site alone; a
    reload (as after a replica's death) brings it with the page's connection, and the
    page draws the room without asking the browser component for what it stored (it
    never sends an answer, so no second run waits for one)."""
    made = store.open_room(database, token=codes.new_token())
    store.ask(database, made.code, secret=made.secret, question=question_from_exercise(**EXERCISE))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        token = join_by_link(page, f"{served}/join?code={made.code}", made.code)
        (kept,) = [cookie for cookie in context.cookies() if cookie["name"] == TOKEN_COOKIE]
        assert kept["value"] == token and kept["path"] == "/" and kept["sameSite"] == "Strict"
        assert kept["expires"] > time.time() + 179 * 24 * 3600
        page.reload()
        expect(page.get_by_text(f"Room {made.code}")).to_be_visible(timeout=TIMEOUT_MS)
        expect(x_map(page)).to_be_visible(timeout=TIMEOUT_MS)
        settle(page)
        assert page.evaluate("() => window.poolingLabBrowser.sent") is None
        assert page.evaluate(TOKEN_JS) == token and exceptions_on(page) == []
    finally:
        context.close()


def test_a_size_corrected_after_a_warning_is_sent_as_typed(browser, served, database):
    """A warning at the top of the page goes away on the next run: the boxes under it
    must keep their place, or the browser draws them anew and drops what is being
    typed into the second box while the first one's change is sent."""
    made = store.open_room(database, token=codes.new_token())
    question = question_from_exercise("size", level=2, seed=4, number=2)
    store.ask(database, made.code, secret=made.secret, question=question)
    rows, cols = question.answer
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        token = join_by_link(page, f"{served}/join?code={made.code}", made.code)
        expect(page.get_by_label("Output width")).to_be_visible(timeout=TIMEOUT_MS)
        page.get_by_label("Output height").fill("<b>3</b>")
        page.get_by_label("Output width").fill("0")
        page.get_by_label("Output width").press("Enter")
        expect(page.get_by_text("Output width 0 is not a whole number")).to_be_visible(
            timeout=TIMEOUT_MS
        )
        settle(page)
        # Quickly, as a phone's autofill or a fast thumb: the second box is typed into
        # while the run the first box's change started is still on its way.
        page.get_by_label("Output height").fill(str(rows))
        page.get_by_label("Output width").fill(str(cols))
        page.get_by_label("Output width").press("Enter")
        expect(page.get_by_text(f"Your answer: {rows} × {cols} (saved).")).to_be_visible(
            timeout=TIMEOUT_MS
        )
        settle(page)
        assert page.get_by_label("Output width").input_value() == str(cols)
        assert store.my_answer(database, made.code, token=token, round_number=1) == (rows, cols)
        assert exceptions_on(page) == []
    finally:
        context.close()


# Where an element ends, in px from the top of the page (whatever is scrolled): on
# a phone the page must hold it above PHONE's 844 px without a scroll.
PAGE_BOTTOM = """(node) => {
  let bottom = node.getBoundingClientRect().bottom + window.scrollY;
  for (let box = node.parentElement; box; box = box.parentElement) bottom += box.scrollTop;
  return bottom;
}"""
PHONE_HEIGHT = PHONE["viewport"]["height"]


def above_the_fold(page, *found) -> None:
    """Each of `found` (locators) is shown, and ends within the phone's first screen."""
    for each in found:
        expect(each).to_be_visible(timeout=TIMEOUT_MS)
        bottom = each.evaluate(PAGE_BOTTOM)
        assert bottom <= PHONE_HEIGHT, (each, bottom)


def x_map(page):
    return page.locator(".js-plotly-plot", has=page.locator(".gtitle", has_text="x")).first


def test_on_a_phone_the_question_its_answer_and_its_state_fit_one_screen(browser, served, database):
    """At 390x844 with touch: once joined, one line names the room (no title, no
    intro), and x, the answer and its state fit the first screen at each step: the
    first vote, the reveal, the second vote; a number's maps, box and state too."""
    made = store.open_room(database, token=codes.new_token())
    question = question_from_exercise("cells", level=2, seed=4, number=2)
    store.ask(database, made.code, secret=made.secret, question=question)
    right = sorted(question.answer)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        join_by_link(page, f"{served}/join?code={made.code}", made.code)
        expect(page.get_by_text(f"Room {made.code}")).to_be_visible(timeout=TIMEOUT_MS)
        expect(page.locator("h1")).to_have_count(0)
        expect(page.get_by_text("Answer your lecturer's question from here")).to_have_count(0)
        tap_cell(page, *right[0])
        expect_saved(page, question.problem, [right[0]])
        above_the_fold(page, x_map(page), page.get_by_text(cells_text([right[0]]) + " (saved)."))
        store.close_round(database, made.code, secret=made.secret)
        store.reveal(database, made.code, secret=made.secret)
        verdict = page.get_by_text("Not quite")
        above_the_fold(page, verdict, x_map(page), page.get_by_text("On x, "))
        store.vote_again(database, made.code, secret=made.secret)
        first = page.get_by_text(f"Your first vote: {cells_text([right[0]])}.")
        expect(first).to_be_visible(timeout=TIMEOUT_MS)
        settle(page)
        tap_cell(page, *right[1])
        expect_saved(page, question.problem, [right[1]])
        saved = page.get_by_text(f"Your answer: {cells_text([right[1]])} (saved).")
        above_the_fold(page, first, x_map(page), saved)

        value = question_from_exercise("value", level=2, seed=4, number=2)
        store.ask(database, made.code, secret=made.secret, question=value)
        box = page.get_by_label("Your answer")
        expect(box).to_be_visible(timeout=TIMEOUT_MS)
        settle(page)
        box.fill("3")
        box.press("Enter")
        expect(page.get_by_text("Your answer: 3 (saved).")).to_be_visible(timeout=TIMEOUT_MS)
        above_the_fold(
            page,
            x_map(page),
            page.get_by_role("button", name="Send"),
            page.get_by_text("Your answer: 3 (saved)."),
        )
        assert exceptions_on(page) == []
    finally:
        context.close()


def test_on_a_phone_a_refused_number_is_said_under_its_box_and_not_called_saved(
    browser, served, database
):
    """ "abc" after a saved 3: the reason is said right under the box, in sight while
    typing, and the line under it no longer says "(saved)" beside the box's text."""
    made = store.open_room(database, token=codes.new_token())
    question = question_from_exercise("value", level=2, seed=4, number=2)
    store.ask(database, made.code, secret=made.secret, question=question)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        token = join_by_link(page, f"{served}/join?code={made.code}", made.code)
        box = page.get_by_label("Your answer")
        expect(box).to_be_visible(timeout=TIMEOUT_MS)
        settle(page)
        box.fill("3")
        box.press("Enter")
        expect(page.get_by_text("Your answer: 3 (saved).")).to_be_visible(timeout=TIMEOUT_MS)
        settle(page)
        box.fill("abc")
        box.press("Enter")
        refusal = page.get_by_text("Your answer abc is not a number")
        expect(refusal).to_be_visible(timeout=TIMEOUT_MS)
        settle(page)
        expect(page.get_by_text("Saved: 3; the text in the box was not sent.")).to_be_visible()
        expect(page.get_by_text("(saved)")).to_have_count(0)
        shown = refusal.bounding_box()  # in the viewport, as it is scrolled now
        assert 0 <= shown["y"] and shown["y"] + shown["height"] <= PHONE_HEIGHT, shown
        under = shown["y"] - (box.bounding_box()["y"] + box.bounding_box()["height"])
        assert 0 <= under <= 40, under  # right under the box
        above_the_fold(page, refusal, page.get_by_text("Saved: 3;"))
        assert store.my_answer(database, made.code, token=token, round_number=1) == 3
        assert exceptions_on(page) == []
    finally:
        context.close()


def test_on_a_phone_a_batch_windows_cells_are_tapped_on_its_positions_map(
    browser, served, database
):
    """A batch question (issue 37): a phone taps each cell of the window that some
    example picks, one tap a cell, at the cell's pixel on the positions map; each tap
    is saved, and the reveal says the picks are right, with the map's legend."""
    made = store.open_room(database, token=codes.new_token())
    number = next(  # the first window question on the cells of set 0, level 1
        n
        for n in range(1, 11)
        if (p := make_problem("batch", 1, 0, n)).window is not None and not p.asks_mean
    )
    question = question_from_exercise("batch", level=1, seed=0, number=number)
    store.ask(database, made.code, secret=made.secret, question=question)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        token = join_by_link(page, f"{served}/join?code={made.code}", made.code)
        picked = []
        for cell in sorted(question.answer):
            settle(page)
            wait_for_title(page, POSITIONS)
            plot = page.locator(".js-plotly-plot", has=page.locator(".gtitle", has_text=POSITIONS))
            plot.first.scroll_into_view_if_needed()
            x, y = page.evaluate(CELL_PIXEL, [POSITIONS, *cell])
            page.touchscreen.tap(x, y)
            picked.append(cell)
            expect_saved(page, question.problem, picked)
        assert store.my_answer(database, made.code, token=token, round_number=1) == question.answer
        store.reveal(database, made.code, secret=made.secret)
        expect(page.get_by_text("Right: the ")).to_be_visible(timeout=TIMEOUT_MS)
        expect(page.get_by_text("On the positions map, ")).to_be_visible(timeout=TIMEOUT_MS)
        assert exceptions_on(page) == []
    finally:
        context.close()
