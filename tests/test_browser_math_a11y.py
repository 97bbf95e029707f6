"""Formulas read without sight, in headless Chromium: KaTeX draws each formula twice, as
HTML for the eye and as MathML for screen readers. From the accessibility tree (what a
screen reader is given), every formula on the pages that show them is one `math` node
holding every symbol drawn on screen, and nothing of the drawn copy (it is hidden from
the tree, so a formula is not read twice). The ledger's and the batch rule's numbers are
the engine's."""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest
from browser import TIMEOUT_MS, open_page, settle
from playwright.sync_api import expect
from test_batch_model import settings as batch_settings

import pooling
from teaching.numbers import fmt

pytestmark = pytest.mark.browser

# A 5x5 x under 3x3 max windows with stride 1: x[1, 1] = 9 wins four windows, whose
# dL/dy all reach it (the Playground's "Overlap" example).
X = np.array(
    [[1, 2, 0, 1, 3], [0, 9, 1, 0, 2], [2, 1, 4, 1, 0], [0, 3, 1, 8, 1], [1, 0, 2, 1, 0]], float
)
GRID = ";".join(",".join(str(int(v)) for v in row) for row in X)
OVERLAP = f"mode=max&kh=3&kw=3&sh=1&sw=1&x={GRID}"
CELL = (1, 1)
# Zero-width and other spaces KaTeX puts between the drawn glyphs.
SPACING = re.compile(r"[\s\u200b\u00a0]")
SPOKEN = re.compile(r"^- math: (.+)$")


def spoken_formulas(page) -> list[str]:
    """The text a screen reader gets for each formula (.katex) on the page, in order;
    asserts that the formula gives the tree nothing but its one math node."""
    spoken = []
    for formula in page.locator(".katex").all():
        snapshot = formula.aria_snapshot()
        match = SPOKEN.match(snapshot)
        assert match, snapshot  # one math node: the drawn copy adds nothing
        spoken.append(match.group(1))
    return spoken


def glyphs(text: str) -> Counter:
    return Counter(SPACING.sub("", text))


def assert_every_formula_is_read_once_and_whole(page) -> list[str]:
    """Each formula: its drawn HTML hidden from the tree (aria-hidden), one math node,
    and every glyph drawn on screen among the symbols read. Returns what is read."""
    formulas = page.locator(".katex")
    expect(formulas.first).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.locator('.katex-html:not([aria-hidden="true"])')).to_have_count(0)
    spoken = spoken_formulas(page)
    drawn = formulas.evaluate_all("all => all.map(f => f.querySelector('.katex-html').textContent)")
    for said, seen in zip(spoken, drawn, strict=True):
        assert glyphs(seen) - glyphs(said) == Counter(), (seen, said)
    # The page's tree holds each formula as math, once.
    tree = page.locator('[data-testid="stMain"]').aria_snapshot()
    assert len(re.findall(r"^\s*- math: ", tree, re.MULTILINE)) == len(spoken), tree
    return spoken


def ledger_terms() -> tuple[list[tuple[int, int]], float]:
    """The output cells whose window won x[CELL], and dL/dx[CELL] (upstream all ones),
    from the engine."""
    result = pooling.forward(X, pooling.PoolConfig("max", 3, stride=1))
    grad_x = pooling.backward(result, np.ones_like(result.output))
    winners = np.argwhere(result.argmax == CELL[0] * X.shape[1] + CELL[1])
    return [tuple(int(v) for v in cell) for cell in winners], float(grad_x[CELL])


def test_the_ledger_formula_is_read_as_math(page, app_url):
    """The Ledger tab's formula for x[1, 1]: dL/dx, each window's share from its y
    cell, and the total, as the engine computed them."""
    open_page(page, f"{app_url}/playground?{OVERLAP}&tab=ledger&cell={CELL[0]},{CELL[1]}")
    (said,) = assert_every_formula_is_read_once_and_whole(page)
    windows, total = ledger_terms()
    assert len(windows) == 4
    assert said.startswith(f"∂ L ∂ x {CELL[0]} , {CELL[1]} ="), said
    for row, col in windows:
        assert f"y {row} , {col}" in said, said
    assert said.endswith(f"= {fmt(total)}"), said


def test_the_output_size_rule_is_read_as_math(page, app_url):
    """The Playground's output size, its rule opened as a person does: each line math."""
    open_page(page, f"{app_url}/playground?{OVERLAP}")
    page.get_by_text("PyTorch's rule, with these numbers").click()
    settle(page)
    spoken = assert_every_formula_is_read_once_and_whole(page)
    size = pooling.forward(X, pooling.PoolConfig("max", 3, stride=1)).output.shape
    for said, n in zip(spoken, size, strict=True):  # a line for the rows, one for columns
        assert said.endswith(f"= {n}"), said


# Step 10 holds the batch rule and the SGD step.
@pytest.mark.parametrize("path", ["batch", "lesson?step=10"])
def test_the_batch_rule_and_step_are_read_as_math(page, app_url, path):
    """Inline formulas in a sentence (markdown's $…$): the batch rule with N = 2 and the
    step with the page's learning rate."""
    open_page(page, f"{app_url}/{path}")
    rule, step = assert_every_formula_is_read_once_and_whole(page)
    assert rule.startswith("∂ ∂ K ( 1 N ∑ n L n ) = 1 N ∑ n ∂ L n ∂ K"), rule
    assert rule.endswith("N = 2"), rule
    assert step.startswith("K ← K − η"), step
    assert step.endswith(f"η = {fmt(batch_settings().learning_rate)}"), step
