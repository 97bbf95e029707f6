"""Every page reads without sight, in headless Chromium: axe-core (the rules of WCAG 2.0,
2.1 and 2.2 at levels A and AA, as European and US audits run them) finds nothing on
any page or Playground tab, in the light and the dark theme, in lecture mode and on a
phone, with no exemption; a code block that scrolls is a tab stop the arrow keys
scroll. And the Playground's maps, as a screen
reader gets them from the accessibility tree: each named by its title, its summary
sentence first, its cells in a table by row and column with the engine's numbers, and
the chart itself hidden from it.
A page's polite live region says the step's sentence after an arrow key."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from axe_playwright_python.sync_playwright import Axe
from browser import TIMEOUT_MS, live_regions, open_page, resized, settle, steady
from conftest import PHONE, PROJECTOR
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect
from test_browser_cut_charts import cut_charts
from test_browser_overflow import CUT_OFF

import pooling
from teaching.numbers import fmt
from ui.shared.twin import figure_twins

pytestmark = pytest.mark.browser

RULES = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]},
    # Only the violations are looked at: axe then keeps one node of each rule that
    # passes instead of every one (3x faster on a Playground tab).
    "resultTypes": ["violations"],
}
AXE_SCRIPT = Axe().axe_script  # axe-core, as axe-playwright-python bundles it
# The violations alone come back from the page: the full results (every rule that passed,
# or does not apply) would be serialised for nothing.
RUN_AXE = """(options) => axe.run(document, options).then((results) => results.violations.map(
  (violation) => ({
    id: violation.id,
    impact: violation.impact,
    targets: violation.nodes.map((node) => node.target[0]),
  })))"""
PAGES = [
    "",
    "playground",
    *(f"playground?tab={tab}" for tab in ("step", "ledger", "matrix", "ties", "share")),
    "batch",
    "batch?n=100&tab=winners",  # the first seed's batch: counts, the asker's idea
    "lesson",
    "lesson?step=3",
    "exercises",
    "class",
    "join",
]
DESK = dict(viewport={"width": 1400, "height": 900})
MODES = {
    "light": DESK | {"color_scheme": "light"},
    "dark": DESK | {"color_scheme": "dark"},
    "lecture": PROJECTOR,
    "phone": PHONE,
}

# Nothing on the page is stale: while a run goes on, Streamlit fades the elements it
# has not drawn again yet, and axe would measure the faded colours (a page that polls,
# the Join page, can start a run at any moment).
NOTHING_STALE = "() => !document.querySelector('[data-stale=\"true\"]')"


# Every code block and formula that scrolls is a tab stop by now (browser.js marks it
# when its size is first reported).
SCROLLERS_MARKED = """() => [
  ...document.querySelectorAll('[data-testid="stCode"] pre, .katex-display'),
].every((box) => box.dataset.labScroller !== undefined)"""


# In the other theme only the colours change: the rules that read them.
CONTRAST_RULES = {
    "runOnly": {"type": "rule", "values": ["color-contrast", "link-in-text-block"]},
    "resultTypes": ["violations"],
}
# The page drawn for a theme: the run that drew it told the browser component so.
DRAWN_FOR = "(dark) => window.poolingLabBrowser && window.poolingLabBrowser.drawnDark === dark"


def in_the_other_theme(page, look: Callable[[object], list], *, redrawn: bool = True) -> list:
    """What `look(page)` finds once the viewer's theme is switched from dark to light
    with no click (the system's, as a visitor's may be): the page redraws itself for it
    (browser.js watchTheme), a run as any. Then switched back to dark, and, `redrawn`,
    drawn dark again, so the page goes on as it was (a page opened next at another link
    needs no wait)."""
    page.emulate_media(color_scheme="light")
    try:
        page.wait_for_function(DRAWN_FOR, arg=False, timeout=TIMEOUT_MS)
        settle(page)
        return look(page)
    finally:
        page.emulate_media(color_scheme="dark")
        if redrawn:
            page.wait_for_function(DRAWN_FOR, arg=True, timeout=TIMEOUT_MS)
            settle(page)


def light_contrast(page, *, redrawn: bool = True) -> list[str]:
    """axe-core's contrast findings on the page in the light theme (in_the_other_theme)."""
    rules = CONTRAST_RULES
    return in_the_other_theme(page, lambda page: violations(page, rules=rules), redrawn=redrawn)


def violations(page, *, rules: dict = RULES) -> list[str]:
    """axe-core's findings on the page, every one: "rule (impact): target"."""
    page.wait_for_function(NOTHING_STALE, timeout=TIMEOUT_MS)
    page.wait_for_function(SCROLLERS_MARKED, timeout=TIMEOUT_MS)
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SCRIPT)  # once a page load
    return [
        f"{violation['id']} ({violation['impact']}): {target}"
        for violation in page.evaluate(RUN_AXE, rules)
        for target in violation["targets"]
    ]


def test_the_axe_runner_finds_what_is_there(page):
    """The lean run (violations only) still names each element that breaks a rule."""
    page.set_content(
        '<html lang="en"><head><title>t</title></head><body><main>'
        '<img src="a.png" id="bare"><p style="color:#777;background:#888">faint</p>'
        "</main></body></html>"
    )
    found = violations(page)
    assert "image-alt (critical): #bare" in found
    assert any(finding.startswith("color-contrast (serious)") for finding in found)


@pytest.mark.parametrize("path", PAGES, ids=[path or "home" for path in PAGES])
@pytest.mark.parametrize("mode", list(MODES))
def test_axe_finds_nothing(context_pages, app_url, mode, path):
    page = context_pages(mode, MODES[mode])
    url = f"{app_url}/{path}"
    if mode == "lecture":
        url += ("&" if "?" in path else "?") + "lecture=1"
    open_page(page, url)
    assert violations(page) == []
    assert untwinned(page) == []
    if mode == "phone":  # test_browser_cut_charts.py leaves these links' charts to here
        assert cut_charts(page, own_scroller=True) == []
    if mode == "lecture":  # the projector at 200 % zoom (WCAG 1.4.4): nothing cut
        resized(page, ZOOMED_PROJECTOR)
        try:
            assert steady(page, cut_in_own_box) == []
        finally:
            resized(page, PROJECTOR["viewport"])


# What a 1280x720 projector at 200 % zoom leaves a page.
ZOOMED_PROJECTOR = {"width": 640, "height": 360}


def cut_in_own_box(page) -> list:
    """What scrolls the page sideways or is cut (a wide map or a data table may scroll
    in a box of its own)."""
    return page.evaluate(CUT_OFF, True) + cut_charts(page, own_scroller=True)


# The luminance of the first map title's fill: Plotly writes it in the title's style.
TITLE_LUMINANCE = """() => {
  const title = document.querySelector('.gtitle');
  const rgb = title && getComputedStyle(title).fill.match(/\\d+(\\.\\d+)?/g);
  if (!rgb) return null;
  const [r, g, b] = rgb.map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}"""


def test_a_theme_switched_with_no_run_redraws_the_page_for_it(browser, app_url):
    """The page's CSS and maps are drawn by the server for the theme of its run. The
    viewer's system switched from dark to light (and back) with no click: the page asks
    for a run and is drawn for the new theme (a map title dark on light, then light on
    dark), with nothing axe-core finds and every chart twinned. Before, the light page
    kept the dark look's pale titles and orange labels (2.3:1)."""
    context = browser.new_context(**PROJECTOR, color_scheme="dark")
    try:
        page = context.new_page()
        open_page(page, f"{app_url}/playground?lecture=1")
        page.wait_for_function(f"() => ({TITLE_LUMINANCE})() > 0.5", timeout=TIMEOUT_MS)
        for scheme, drawn in (("light", "< 0.5"), ("dark", "> 0.5")):
            page.emulate_media(color_scheme=scheme)
            page.wait_for_function(f"() => ({TITLE_LUMINANCE})() {drawn}", timeout=TIMEOUT_MS)
            settle(page)
            assert violations(page) == [], scheme
            assert untwinned(page) == [], scheme
    finally:
        context.close()


SCROLLED = "(box) => [box.scrollLeft, box.scrollTop]"


@pytest.mark.parametrize(
    ("path", "name", "key", "scrolled"),
    [
        ("playground?tab=share", "Code", "PageDown", (0, 1)),
        ("playground?tab=matrix", "Formula", "ArrowRight", (1, 0)),
    ],
    ids=["code", "formula"],
)
def test_a_block_that_scrolls_is_a_tab_stop_the_keys_scroll(
    page, app_url, path, name, key, scrolled
):
    """The Share tab's code (a box of fixed height) and the Matrix tab's formula (wider
    than its column): each a region named by what it holds, reached by Tab, and a key
    scrolls it, down or sideways."""
    open_page(page, f"{app_url}/{path}")
    box = page.get_by_role("region", name=name, exact=True).first
    expect(box).to_have_attribute("tabindex", "0", timeout=TIMEOUT_MS)
    assert box.evaluate(SCROLLED) == [0, 0]
    box.evaluate("(box) => box.previousElementSibling?.focus?.()")
    for _ in range(60):  # from the element before it (or the page), Tab by Tab
        if box.evaluate("(box) => document.activeElement === box"):
            break
        page.keyboard.press("Tab")
    expect(box).to_be_focused()
    page.keyboard.press(key)
    page.wait_for_function(
        "([box, want]) => [box.scrollLeft, box.scrollTop].every((v, i) => (v > 0) === !!want[i])",
        arg=[box.element_handle(), list(scrolled)],
        timeout=TIMEOUT_MS,
    )


# Every chart on the page: its picture out of the accessibility tree (or a grid the
# keyboard reaches, its picture out), and before it its text twins (ui/shared/twin.py),
# each a figure named by its map, a summary that begins with that name, and a table of
# that name whose every row has its header and as many cells as there are columns.
UNTWINNED = """() => {
  const found = [];
  for (const chart of document.querySelectorAll('[data-testid="stPlotlyChart"]')) {
    const keyed = chart.closest('[class*="st-key-"]');
    const key = Array.from(keyed?.classList || []).find((c) => c.startsWith('st-key-'))?.slice(7);
    const plot = chart.querySelector('.js-plotly-plot');
    const title = (plot?.layout?.title?.text || key || '?').replace(/<[^>]+>/g, '');
    const hidden = chart.getAttribute('aria-hidden') === 'true'
      || (chart.getAttribute('role') === 'grid' && plot?.getAttribute('aria-hidden') === 'true');
    if (!hidden) found.push(title + ': its picture is in the tree');
    const twins = document.querySelectorAll(`.lab-twin[data-chart="${CSS.escape(key)}"]`);
    if (!twins.length) found.push(title + ': no text twin');
    for (const twin of twins) {
      const name = twin.getAttribute('aria-label') || '';
      const columns = twin.querySelectorAll('thead th[scope="col"]').length;
      const rows = Array.from(twin.querySelectorAll('tbody tr'));
      if (!name) found.push(title + ': a twin without a name');
      if (!twin.querySelector('p')?.textContent.startsWith(name + ': '))
        found.push(name + ': no summary');
      if (twin.querySelector('caption')?.textContent !== name) found.push(name + ': no table');
      if (!rows.length || !columns || rows.some((row) => row.querySelectorAll('th[scope="row"]')
          .length !== 1 || row.querySelectorAll('td').length !== columns))
        found.push(name + ': a table without its headers or cells');
    }
  }
  return found;
}"""


def untwinned(page) -> list[str]:
    """What UNTWINNED finds wanting on the page ([] when every chart has its twins),
    once the browser component has had its look at the charts drawn. Not looked at
    again once found whole: a page that polls (a room's projector) draws its charts
    anew every few seconds, each new one in the tree for the moment before the
    component hides it."""
    try:
        page.wait_for_function(f"() => ({UNTWINNED})().length === 0", timeout=TIMEOUT_MS)
    except PlaywrightTimeout:
        return page.evaluate(UNTWINNED)  # what is still wanting, for the caller's assert
    return []


# -- the maps as a screen reader reads them ---------------------------------------------------

X = np.array([[1.0, 3.0], [2.0, 0.5]])  # the Playground's default x, max pooling 2x2


def engine():
    """y and dL/dx of the default view (upstream all ones), from the engine."""
    result = pooling.forward(X, pooling.PoolConfig("max", 2))
    grad_x = pooling.backward(result, np.ones_like(result.output))
    winner = divmod(int(result.argmax[0, 0]), X.shape[1])
    return result.output, grad_x, winner


def test_the_playgrounds_maps_read_as_name_summary_and_table(page, app_url):
    output, grad_x, (wr, wc) = engine()
    assert np.argwhere(grad_x).tolist() == [[wr, wc]]  # one window: its winner alone receives
    open_page(page, f"{app_url}/playground")
    window = "in the current window: rows 0 to 1, columns 0 to 1"
    expected = {
        "Input x": (
            f"Input x: 2 rows by 2 columns, from {fmt(X.min())} to {fmt(X.max())}; "
            f"{window}; winner: row {wr}, column {wc}.",
            [
                (0, 0, f"{fmt(X[0, 0])}, in the current window"),
                (wr, wc, f"{fmt(X[wr, wc])}, in the current window, winner"),
                (1, 1, f"{fmt(X[1, 1])}, in the current window"),
            ],
        ),
        "Output y": (
            f"Output y: 1 row by 1 column, every value {fmt(output[0, 0])}; "
            "in the current window: row 0, column 0.",
            [(0, 0, f"{fmt(output[0, 0])}, in the current window")],
        ),
        "dL/dx": (
            f"dL/dx: 2 rows by 2 columns, from {fmt(grad_x.min())} to {fmt(grad_x.max())}; "
            f"row {wr}, column {wc} gets {fmt(grad_x[wr, wc])}; every other cell gets 0.",
            [(r, c, fmt(grad_x[r, c])) for r, c in ((0, 0), (wr, wc), (1, 0))],
        ),
    }
    # No chart tool bar button to tab through (Plotly leaves its empty container).
    assert page.locator(".modebar-container .modebar-btn").count() == 0
    # The pictures are out of the accessibility tree, where their twins stand.
    charts = page.locator('[data-testid="stPlotlyChart"]')
    expect(charts.first).to_have_attribute("aria-hidden", "true", timeout=TIMEOUT_MS)
    pictures = '[data-testid="stPlotlyChart"]:not([aria-hidden="true"]):not([role="grid"])'
    expect(page.locator(pictures)).to_have_count(0)
    # A map that takes picks is a grid the keyboard reaches: only its picture is hidden.
    expect(page.locator('[role="grid"][data-testid="stPlotlyChart"]')).to_have_count(2)
    expect(page.locator('[role="grid"] .js-plotly-plot:not([aria-hidden="true"])')).to_have_count(0)
    for name, (summary, cells) in expected.items():
        figure = page.get_by_role("figure", name=name, exact=True)
        expect(figure).to_have_count(1, timeout=TIMEOUT_MS)
        snapshot = figure.aria_snapshot()
        assert f'- paragraph: "{summary}"' in snapshot, snapshot
        table = figure.get_by_role("table", name=name, exact=True)
        for row, col, text in cells:
            line = table.get_by_role("row").nth(row + 1)  # under the column headers
            expect(line.get_by_role("rowheader")).to_have_text(f"row {row}")
            header = table.get_by_role("columnheader").nth(col)
            expect(header).to_have_text(f"column {col}")
            expect(line.get_by_role("cell").nth(col)).to_have_text(text)


def test_the_live_region_says_the_step_after_an_arrow_key(page, app_url):
    """On the Step through tab of a 5x5 x with nine 3x3 windows, → moves to window 2;
    the page's one polite live region then says that window's sentence, as on screen."""
    grid = "1,2,0,1,3;0,9,1,0,2;2,1,4,1,0;0,3,1,8,1;1,0,2,1,0"
    open_page(page, f"{app_url}/playground?tab=step&mode=max&kh=3&kw=3&sh=1&sw=1&x={grid}")
    page.wait_for_function("() => !!(window.poolingLabFrames && window.poolingLabFrames.ready)")
    page.keyboard.press("ArrowRight")
    expect(page.locator(".lab-frames .count").first).to_have_text("Window 2 of 9")
    sentence = page.locator(".lab-frames p.sentence").first.inner_text()
    page.wait_for_function("(said) => window.poolingLabLive?.textContent === said", arg=sentence)
    assert live_regions(page) == [("status", sentence)]


def test_a_step_taken_in_the_browser_is_what_the_maps_twins_say(page, app_url):
    """Two → presses on the Step through tab (frames the browser draws, no run of the
    page): x's twin then names window 3, says its rows, columns and winner, and dL/dx's
    twin says the running totals after three windows, all from the engine."""
    rows = [[1, 2, 0, 1, 3], [0, 9, 1, 0, 2], [2, 1, 4, 1, 0], [0, 3, 1, 8, 1], [1, 0, 2, 1, 0]]
    x = np.array(rows, dtype=float)
    grid = ";".join(",".join(str(v) for v in row) for row in rows)
    open_page(page, f"{app_url}/playground?tab=step&mode=max&kh=3&kw=3&sh=1&sw=1&g=ones&x={grid}")
    page.wait_for_function("() => !!(window.poolingLabFrames && window.poolingLabFrames.ready)")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator(".lab-frames .count").first).to_have_text("Window 3 of 9")
    result = pooling.forward(x, pooling.PoolConfig("max", 3, stride=1))
    winners = [divmod(int(result.argmax[0, col]), 5) for col in range(3)]
    sent = np.zeros_like(x)
    for cell in winners:  # dL/dy is all ones: each window sends 1 to its winner
        sent[cell] += 1.0
    wr, wc = winners[2]
    name = "x: the window of y[0,2]"
    figure = page.get_by_role("figure", name=name, exact=True)
    expect(figure).to_have_count(1, timeout=TIMEOUT_MS)
    expect(figure.locator("p")).to_have_text(
        f"{name}: 5 rows by 5 columns, from {fmt(x.min())} to {fmt(x.max())}; in the current "
        f"window: rows 0 to 2, columns 2 to 4; winner: row {wr}, column {wc}."
    )
    table = figure.get_by_role("table", name=name, exact=True)
    cell = table.get_by_role("row").nth(wr + 1).get_by_role("cell").nth(wc)
    expect(cell).to_have_text(f"{fmt(x[wr, wc])}, in the current window, winner")
    expect(table.get_by_role("row").nth(1).get_by_role("cell").nth(0)).to_have_text(fmt(x[0, 0]))
    totals = page.get_by_role("figure", name="dL/dx after 3 of 9 windows", exact=True)
    expect(totals.locator("p")).to_contain_text(f"from {fmt(sent.min())} to {fmt(sent.max())}")
    line = totals.get_by_role("table").get_by_role("row").nth(wr + 1)
    expect(line.get_by_role("cell").nth(wc)).to_have_text(
        f"{fmt(sent[wr, wc])}, in the current window, winner"
    )


TWIN_CASES = {
    "max-pad-ties": ("max", 3, 2, 1, "2,2,0,1,3,1;2,9,1,0,2,0;2,1,4,1,0,5;0,3,1,8,1,1;1,0,2,1,0,7"),
    "avg-overlap": ("avg", 2, 1, 0, "1,2,0,1;0,9,1,0;2,1,4,1;0,3,1,8"),
}


@pytest.mark.parametrize("case", TWIN_CASES, ids=list(TWIN_CASES))
def test_the_twins_the_browser_writes_say_what_the_server_would_at_every_step(page, app_url, case):
    """Every frame of the Step through tab: the name, the summary and every cell's text
    the browser puts together for x, dL/dx and y (frames.js, twinSaid) are those the
    server's figures of that step hold (teaching/map_twin: summary, cell_texts)."""
    from teaching.playground.model import LayerSettings, build_layer_story
    from ui.playground.state import STATE
    from ui.playground.step_frames import step_maps
    from ui.playground.views_step import pointer_figure, step_figures

    mode, kernel, stride, padding, grid = TWIN_CASES[case]
    x = np.array([[float(v) for v in row.split(",")] for row in grid.split(";")])
    config = pooling.PoolConfig(mode, kernel, stride=stride, padding=padding)
    story = build_layer_story(LayerSettings(x, config, "ones", 0))
    maps = step_maps(story)
    wanted = {STATE.fig_step_x: [], STATE.fig_step_gx: [], STATE.fig_step_y: []}
    for step in range(story.windows):
        x_figure, gx_figure = step_figures(story, maps, step, lecture=False)
        figures = [x_figure, gx_figure, pointer_figure(story, maps.y, step)]
        for key, figure in zip(wanted, figures, strict=True):
            wanted[key].append(
                [
                    {
                        "name": t.name,
                        "summary": t.summary(),
                        "cells": t.cell_texts(),
                        "rows": [t.row_header(row) for row in range(t.shape[0])],
                    }
                    for t in figure_twins(figure)
                ]
            )
    link = f"mode={mode}&kh={kernel}&kw={kernel}&sh={stride}&sw={stride}&pad={padding}"
    open_page(page, f"{app_url}/playground?tab=step&g=ones&{link}&x={grid}")
    page.wait_for_function("() => !!(window.poolingLabFrames && window.poolingLabFrames.ready)")
    said = page.evaluate(
        """([keys, count]) => Object.fromEntries(keys.map((key) => [key,
             Array.from({length: count}, (_, f) => window.poolingLabFrames.twinsSaid(key, f))]))""",
        [list(wanted), story.windows],
    )
    assert said == wanted


# Every animation and transition the page runs, with its length, as it starts: looked
# for at every animation frame (a transition lives from its start to its end).
WATCH_MOTION = """() => {
  window.labMotion = [];
  const look = () => {
    for (const running of document.getAnimations()) {
      const length = running.effect?.getComputedTiming?.().duration;
      const target = running.effect?.target;
      if (length > 0) window.labMotion.push(
        `${running.animationName || running.transitionProperty}: ${length} ms on `
        + (target?.getAttribute?.('data-testid') || target?.tagName));
    }
    requestAnimationFrame(look);
  };
  look();
}"""


def test_with_reduced_motion_play_and_a_run_of_the_page_move_nothing(browser, app_url):
    """A viewer who asks for reduced motion: Play goes through all nine windows of a
    4x4 x (2x2 windows, stride 1), frame by frame, and a run of the page (another tab)
    follows, with not one animation or transition of any length on the page."""
    context = browser.new_context(viewport={"width": 1400, "height": 900}, reduced_motion="reduce")
    try:
        page = context.new_page()
        grid = "1,2,0,1;0,9,1,0;2,1,4,1;0,3,1,8"
        open_page(page, f"{app_url}/playground?tab=step&mode=max&kh=2&kw=2&sh=1&sw=1&x={grid}")
        page.wait_for_function("() => !!(window.poolingLabFrames && window.poolingLabFrames.ready)")
        page.evaluate(WATCH_MOTION)
        page.get_by_role("button", name="Play").click()
        count = page.locator(".lab-frames .count").first
        expect(count).to_have_text("Window 9 of 9", timeout=TIMEOUT_MS)
        expect(page.get_by_role("button", name="Play")).to_be_visible()  # stopped at the end
        page.get_by_role("tab", name="Ledger").click()
        settle(page)
        assert page.evaluate("() => window.labMotion") == []
    finally:
        context.close()
