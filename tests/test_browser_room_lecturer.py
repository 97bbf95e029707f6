"""The lecturer's page in Chromium on a 1280x720 projector in lecture mode: a room
opened by a click, its QR code at least 300 px tall, and every state of the room (no
answers, answers coming in, closed, revealed, two votes side by side) on one screen
with no scrolling and no sentence under 20 px, on the tightest question the class can
be asked (an 8x8 grid, overlapping windows, padding, ties: several mistakes to name);
the dark theme too; a browser without the key gets no controls. Students answer
through the store, as their pages do."""

from __future__ import annotations

import base64
import csv
import io
import os
from urllib.parse import urlsplit

import numpy as np
import pytest
import segno
import zxingcpp
from browser import (
    TIMEOUT_MS,
    exceptions_on,
    expect_link,
    misplaced_numbers,
    open_page,
    screen_fit,
    settle,
    small_text,
)
from conftest import PROJECTOR
from PIL import Image
from playwright.sync_api import expect

from deploy.local_server import start_app, stop
from rooms import store
from rooms.schema import new_engine
from teaching.class_link import ask_params
from teaching.class_mode import codes
from teaching.exercises.mistakes import known_mistakes
from ui.figures.style import LECTURE_CELL_FONT_PX, LECTURE_TEXT_PX, QR_MODULE_BORDER

pytestmark = pytest.mark.browser

X8 = np.random.default_rng(1).integers(0, 4, (8, 8)).astype(float)  # ties in most windows
LAYER = {"mode": "max", "kh": "3", "kw": "3", "sh": "1", "sw": "1", "pad": "1", "ties": "first"}
QR_LEAST_PX = 300  # a phone at the back of a hall reads it (issue 31)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A server of its own whose rooms live in a temporary SQLite file; an engine on it."""
    folder = tmp_path_factory.mktemp("rooms")
    saved = {
        name: os.environ.get(name) for name in ("POOLING_LAB_DATA", "POOLING_LAB_DATABASE_URL")
    }
    os.environ["POOLING_LAB_DATA"] = str(folder)
    os.environ.pop("POOLING_LAB_DATABASE_URL", None)
    try:
        url, process = start_app()
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    engine = new_engine(f"sqlite:///{folder / 'rooms.sqlite3'}")
    yield url, engine
    engine.dispose()
    stop(process)


def class_link(url: str, *, lecture: bool = True) -> str:
    query = ask_params(X8, np.ones((8, 8)), LAYER)
    text = "&".join(f"{name}={value}" for name, value in query.items())
    return f"{url}/class?{text}" + ("&lecture=1" if lecture else "")


def open_room(page, url: str, *, lecture: bool = True, link: str | None = None) -> str:
    """Open a room on the Class page of `link` (by default class_link's)."""
    open_page(page, link or class_link(url, lecture=lecture))
    page.get_by_role("button", name="Open a room").click()
    page.wait_for_url("**/class?room=*", timeout=TIMEOUT_MS)
    settle(page)
    return page.url.split("room=")[1][:6]


def fits_one_screen(page, *, lecture: bool = True) -> None:
    """One screen, no inner scroller; in lecture mode no sentence under 20 px."""
    settle(page)
    fit = screen_fit(page)
    assert fit["screens"] <= 1.0 and fit["hidden"] == [], fit
    if lecture:
        assert small_text(page, LECTURE_TEXT_PX) == []
    assert exceptions_on(page) == []


def students(engine, code: str, number: int, answers: list) -> None:
    for cells in answers:
        token = codes.new_token()
        store.join(engine, code, token=token)
        store.answer(engine, code, token=token, round_number=number, raw=sorted(map(list, cells)))


@pytest.mark.parametrize("lecture", [True, False], ids=["lecture", "desk"])
def test_every_room_state_fits_the_projector_with_a_300_px_qr_code(browser, served, lecture):
    """In lecture mode, or at a desk with the menu open: a whole peer-instruction
    cycle on the projector, no state scrolling."""
    url, engine = served
    context = browser.new_context(**PROJECTOR)
    try:
        page = context.new_page()
        code = open_room(page, url, lecture=lecture)
        qr = page.locator("[data-testid=stImage] img").first
        expect(qr).to_be_visible(timeout=TIMEOUT_MS)
        assert qr.bounding_box()["height"] >= QR_LEAST_PX
        expect(page.get_by_text(f"Room code {code}", exact=True)).to_be_visible()
        expect(page.get_by_text("No answers yet.")).to_be_visible()
        fits_one_screen(page, lecture=lecture)

        question = store.round_of(engine, code, 1).question
        mistakes = [m.answer for m in known_mistakes(question.problem)]
        first = [question.answer] * 3 + [mistakes[0]] * 2 + mistakes[1:5] + [frozenset({(0, 0)})]
        students(engine, code, 1, first)
        expect(page.get_by_text(f"{len(first)} answers so far.")).to_be_visible(timeout=TIMEOUT_MS)
        fits_one_screen(page, lecture=lecture)
        page.get_by_role("button", name="Close answers").click()
        expect(page.get_by_text(f"Answers closed: {len(first)} answers.")).to_be_visible(
            timeout=TIMEOUT_MS
        )
        fits_one_screen(page, lecture=lecture)
        page.get_by_role("button", name="Reveal").click()
        expect(page.get_by_text(f"3 of {len(first)} right")).to_be_visible(timeout=TIMEOUT_MS)
        fits_one_screen(page, lecture=lecture)
        page.get_by_role("button", name="Discuss and vote again").click()
        expect(page.get_by_text("No answers yet.")).to_be_visible(timeout=TIMEOUT_MS)
        second = [question.answer] * 6 + [mistakes[0]] + mistakes[1:3] + [frozenset({(0, 0)})]
        students(engine, code, 2, second)
        expect(page.get_by_text(f"{len(second)} answers so far.")).to_be_visible(timeout=TIMEOUT_MS)
        page.get_by_role("button", name="Reveal").click()
        expect(page.get_by_text("in the second.")).to_be_visible(timeout=TIMEOUT_MS)
        fits_one_screen(page, lecture=lecture)
    finally:
        context.close()


def test_in_the_dark_the_room_screen_fits_and_its_qr_code_stays_dark_on_white(browser, served):
    url, _ = served
    context = browser.new_context(color_scheme="dark", **PROJECTOR)
    try:
        page = context.new_page()
        open_room(page, url)
        qr = page.locator("[data-testid=stImage] img").first
        expect(qr).to_be_visible(timeout=TIMEOUT_MS)
        assert qr.bounding_box()["height"] >= QR_LEAST_PX
        svg = base64.b64decode(qr.get_attribute("src").split("base64,")[1]).decode()
        assert 'fill="#fff"' in svg and 'stroke="#000"' in svg  # not the page's colours
        fits_one_screen(page)
    finally:
        context.close()


# The join code and the join link as the page draws them: the innermost element whose
# text is the code, or holds "/join?code=". One line: an inline element broken over
# lines has a box per line; a block one is less than 1.5 lines tall.
JOIN_TEXT = r"""(code) => {
  const main = document.querySelector('[data-testid=stMain]');
  const innermost = (wanted) => [...main.querySelectorAll('*')]
    .filter((node) => node.getClientRects().length && wanted(node.innerText || ''))
    .pop();
  const measure = (node) => {
    const style = getComputedStyle(node);
    return { px: parseFloat(style.fontSize), lines: node.getClientRects().length,
             height: node.getBoundingClientRect().height, line: parseFloat(style.lineHeight),
             overflow: node.parentElement.scrollWidth - node.parentElement.clientWidth,
             text: node.innerText };
  };
  const link = innermost((text) => text.includes('/join?code='));
  return {
    // Read as "Room code K7QX3M": the words are there for a screen reader only.
    code: measure(innermost((text) => text.trim().replace(/^Room code\s+/, '') === code)),
    link: measure(link),
    page: document.documentElement.scrollHeight,
  };
}"""


# The QR code has stopped moving: the menu has folded away (its slide moves the page,
# and it may not have started when the room is first drawn), wholly off the screen,
# and the code's place is the same across several frames.
QR_STILL = """() => new Promise((done) => {
  const menu = document.querySelector('[data-testid=stSidebar]');
  // Folded means no width left (its box, slid off by a transform, is no measure):
  // its width is a CSS transition, whose slow end moves the page by less than a
  // pixel a frame.
  if (menu && (menu.getAttribute('aria-expanded') !== 'false'
               || menu.offsetWidth > 0)) { done(false); return; }
  const place = () => JSON.stringify(
    document.querySelector('[data-testid=stImage] img').getBoundingClientRect());
  const before = place();
  let frames = 8;
  const look = () => {
    if (place() !== before) { done(false); return; }
    if (--frames === 0) { done(true); return; }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})"""


def quiet_modules(image: np.ndarray, module_px: int) -> float:
    """How many modules of light lie left of the QR code's first dark one, along the
    row through the middle of its top-left finder pattern. image: (H, W) grey levels
    of the QR code's own screenshot (its box, CSS px = device px here)."""
    row = image[round(module_px * (QR_MODULE_BORDER + 3.5))]
    return np.flatnonzero(row < 128)[0] / module_px


@pytest.mark.parametrize(
    ("lecture", "scheme"), [(False, "light"), (True, "light"), (False, "dark"), (True, "dark")]
)
def test_a_room_screen_is_projector_ready_in_either_mode(browser, served, lecture, scheme):
    """At 1280x720 with the menu open (desk mode) or folded (lecture mode): no scroll,
    the code and the link at 20 px or more, the link one line without its scheme, and
    the QR code, read back from a screenshot, is that link: 300 px or more, modules a
    whole number of px, 4 modules of quiet zone."""
    url, _ = served
    context = browser.new_context(color_scheme=scheme, **PROJECTOR)
    try:
        page = context.new_page()
        open_page(page, class_link(url, lecture=lecture))
        page.get_by_role("button", name="Open a room").click()
        page.wait_for_url("**/class?room=*", timeout=TIMEOUT_MS)
        qr = page.locator("[data-testid=stImage] img").first
        expect(qr).to_be_visible(timeout=TIMEOUT_MS)
        settle(page)
        sidebar = page.locator("[data-testid=stSidebar]")
        expect(sidebar).to_have_attribute("data-collapsed", "true", timeout=TIMEOUT_MS)
        page.wait_for_function(QR_STILL, timeout=TIMEOUT_MS)
        code = page.url.split("room=")[1][:6]
        shown = page.evaluate(JOIN_TEXT, code)
        assert shown["page"] <= PROJECTOR["viewport"]["height"]
        fit = screen_fit(page)
        assert fit["screens"] <= 1.0 and fit["hidden"] == [], fit
        for part in ("code", "link"):
            assert shown[part]["px"] >= LECTURE_TEXT_PX, shown
            assert shown[part]["lines"] == 1 and shown[part]["overflow"] <= 0, shown
            assert shown[part]["height"] < 1.5 * shown[part]["line"], shown
        shot = Image.open(io.BytesIO(page.screenshot())).convert("L")
        (found,) = [
            code
            for code in zxingcpp.read_barcodes(shot)
            if code.format == zxingcpp.BarcodeFormat.QRCode
        ]
        assert urlsplit(found.text).scheme == "http"
        assert shown["link"]["text"] == found.text.removeprefix("http://")
        assert found.text == f"{url}/join?code={code}"
        box = qr.bounding_box()
        modules = segno.make_qr(found.text, error="m").symbol_size(border=QR_MODULE_BORDER)[0]
        assert box["width"] == box["height"] >= QR_LEAST_PX
        module_px = box["width"] / modules
        assert module_px == int(module_px), (box, modules)
        assert box["x"] == int(box["x"]) and box["y"] == int(box["y"]), box  # on the pixel grid
        own = np.asarray(Image.open(io.BytesIO(qr.screenshot())).convert("L"))
        assert own.shape == (box["height"], box["width"])
        assert quiet_modules(own, int(module_px)) == pytest.approx(QR_MODULE_BORDER, abs=0.2)
        if not lecture:  # the room screen offers lecture mode where the lecturer looks
            page.get_by_role("button", name="Lecture mode", exact=True).click()
            expect_link(page, lecture="1")
            fits_one_screen(page, lecture=True)
        assert exceptions_on(page) == []
    finally:
        context.close()


def test_a_browser_without_the_key_sees_no_controls(browser, served):
    url, _ = served
    lecturer = browser.new_context(**PROJECTOR)
    stranger = browser.new_context(**PROJECTOR)
    try:
        code = open_room(lecturer.new_page(), url)
        page = stranger.new_page()
        open_page(page, f"{url}/class?room={code}&lecture=1")
        expect(page.get_by_text("This browser holds no key for room")).to_be_visible(
            timeout=TIMEOUT_MS
        )
        for name in ("Close answers", "Reveal", "End room", "New question"):
            expect(page.get_by_role("button", name=name)).to_have_count(0)
        assert page.locator("[data-testid=stImage]").count() == 0
    finally:
        lecturer.close()
        stranger.close()


def test_the_playground_s_ask_the_class_link_opens_a_room_on_its_layer(browser, served):
    url, engine = served
    context = browser.new_context(**PROJECTOR)
    try:
        page = context.new_page()
        open_page(page, f"{url}/playground?x=1,3,2,0;4,2,1,2;0,1,5,3;2,2,4,1&g=seed&tab=share")
        page.get_by_role("link", name="Ask the class about this layer").click()
        expect(page.locator("h1").first).to_have_text("Class", timeout=TIMEOUT_MS)
        expect(page.get_by_role("radio", name="The Playground's layer")).to_be_checked()
        settle(page)
        page.get_by_role("button", name="Open a room").click()
        page.wait_for_url("**/class?room=*", timeout=TIMEOUT_MS)
        code = page.url.split("room=")[1][:6]
        asked = store.round_of(engine, code, 1).question
        assert asked.problem.x.tolist() == [[1, 3, 2, 0], [4, 2, 1, 2], [0, 1, 5, 3], [2, 2, 4, 1]]
        assert (asked.problem.grad_output == 2.5).all()  # "2.5 everywhere", written out
    finally:
        context.close()


def boxes_meet(first: dict, second: dict) -> bool:
    return not (
        first["x"] + first["width"] <= second["x"]
        or second["x"] + second["width"] <= first["x"]
        or first["y"] + first["height"] <= second["y"]
        or second["y"] + second["height"] <= first["y"]
    )


# The largest batch question (4 examples of 6x6, 4x4 dL_n/dy): its mosaics, one example
# a row, stood 1.7 screens tall (issue 37).
BATCH_LINK = "class?kind=batch&level=5&seed=4&n=7&lecture=1"


@pytest.mark.parametrize("link", [None, BATCH_LINK], ids=["layer", "batch"])
def test_the_question_s_maps_take_the_answers_place_and_leave_the_qr_code_clear(
    browser, served, link
):
    url, _ = served
    context = browser.new_context(**PROJECTOR)
    try:
        page = context.new_page()
        open_room(page, url, link=link and f"{url}/{link}")
        qr = page.locator("[data-testid=stImage] img").first
        expect(qr).to_be_visible(timeout=TIMEOUT_MS)
        page.get_by_text("Maps", exact=True).click()
        charts = page.locator("[data-testid=stPlotlyChart]")
        expect(page.locator(".st-key-cls_fig_gy [data-testid=stPlotlyChart]")).to_be_visible(
            timeout=TIMEOUT_MS
        )
        expect(page.get_by_text("No answers yet.")).to_have_count(0)
        settle(page)
        code_box = qr.bounding_box()
        for index in range(charts.count()):
            assert not boxes_meet(code_box, charts.nth(index).bounding_box())
        assert page.locator("[data-testid=stPopoverBody]").count() == 0
        fits_one_screen(page)
        page.get_by_text("Maps", exact=True).click()
        expect(page.get_by_text("No answers yet.")).to_be_visible(timeout=TIMEOUT_MS)
    finally:
        context.close()


def test_wrong_picks_are_framed_clear_of_every_number_in_both_votes(browser, served):
    """Everyone picks every cell: each cell that gets no gradient reads 100, the widest
    percent, inside a dashed frame; no number lies under a frame or the outline, and
    the caption counts the framed cells."""
    url, engine = served
    context = browser.new_context(**PROJECTOR)
    try:
        page = context.new_page()
        code = open_room(page, url)
        question = store.round_of(engine, code, 1).question
        every = frozenset(np.ndindex(*question.grid_shape))
        framed = len(every - question.answer)
        students(engine, code, 1, [every] * 3)
        expect(page.get_by_text("3 answers so far.")).to_be_visible(timeout=TIMEOUT_MS)
        page.get_by_role("button", name="Reveal").click()
        legend = f"Dashed: picked, but gets none ({framed} cells)."
        expect(page.get_by_text(legend)).to_be_visible(timeout=TIMEOUT_MS)
        fits_one_screen(page)
        assert misplaced_numbers(page, LECTURE_CELL_FONT_PX) == []
        page.get_by_role("button", name="Discuss and vote again").click()
        expect(page.get_by_text("No answers yet.")).to_be_visible(timeout=TIMEOUT_MS)
        students(engine, code, 2, [every, question.answer, question.answer])
        expect(page.get_by_text("3 answers so far.")).to_be_visible(timeout=TIMEOUT_MS)
        page.get_by_role("button", name="Reveal").click()
        second = page.locator(".gtitle", has_text="Second vote (dashed: wrong)")  # the chart's
        expect(second).to_be_visible(timeout=TIMEOUT_MS)
        fits_one_screen(page)
        assert misplaced_numbers(page, LECTURE_CELL_FONT_PX) == []
    finally:
        context.close()


def test_the_results_view_downloads_the_csv_of_what_the_phones_sent(browser, served):
    """Two votes of 9 phones: 3 right, then 6; the Results view says so, and the CSV
    the browser downloads holds those counts and no token."""
    url, engine = served
    context = browser.new_context(accept_downloads=True, **PROJECTOR)
    try:
        page = context.new_page()
        code = open_room(page, url)
        question = store.round_of(engine, code, 1).question
        mistakes = [m.answer for m in known_mistakes(question.problem)]
        students(engine, code, 1, [question.answer] * 3 + [mistakes[0]] * 6)
        expect(page.get_by_text("9 answers so far.")).to_be_visible(timeout=TIMEOUT_MS)
        page.get_by_role("button", name="Reveal").click()
        page.get_by_role("button", name="Discuss and vote again").click()
        expect(page.get_by_text("No answers yet.")).to_be_visible(timeout=TIMEOUT_MS)
        students(engine, code, 2, [question.answer] * 6 + [mistakes[0]] * 3)
        expect(page.get_by_text("9 answers so far.")).to_be_visible(timeout=TIMEOUT_MS)
        page.get_by_role("button", name="Reveal").click()
        page.get_by_role("button", name="Results").click()
        # (6/9 − 3/9) / (1 − 3/9) = (3/9) / (6/9) = 0.5
        said = "First vote: 3 of 9 right (33 %). Second vote: 6 of 9 right (67 %). "
        said += "Change: +3 right; normalized change 0.50."
        expect(page.get_by_text(said)).to_be_visible(timeout=TIMEOUT_MS)
        with page.expect_download() as download:
            page.get_by_role("button", name="Download as CSV").click()
        with open(download.value.path(), encoding="utf-8") as file:
            (row,) = list(csv.DictReader(file))
        assert (row["answered_vote_1"], row["right_vote_1"]) == ("9", "3")
        assert (row["answered_vote_2"], row["right_vote_2"]) == ("9", "6")
        assert (row["change_right"], row["normalized_change"]) == ("3", "0.5000")
        assert row["wrong_answers_vote_1_to_vote_2"].endswith(": 6 -> 3")
        page.get_by_role("button", name="Back to the room").click()
        expect(page.get_by_text("in the second.")).to_be_visible(timeout=TIMEOUT_MS)
    finally:
        context.close()
