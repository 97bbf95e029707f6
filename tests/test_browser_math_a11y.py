"""Formulas read without sight, in headless Chromium: KaTeX draws each formula as HTML
for the eye and as MathML, which a screen reader read as a run of symbols ("∂ ∂ K ( 1 N
∑ n L n )"). So the page says each formula in words beside it (ui/shared/formula.py,
teaching/spoken_math.py), and takes both KaTeX copies out of the accessibility tree:
from the tree, every formula on the pages that show them is one sentence, "Formula:
...", read once. The ledger's and the batch rule's numbers are the engine's."""

from __future__ import annotations

import re

import numpy as np
import pytest
from browser import TIMEOUT_MS, open_page, settle
from playwright.sync_api import expect
from test_batch_model import settings as batch_settings

import pooling
from teaching.formulas import batch_rule
from teaching.numbers import fmt
from teaching.spoken_math import spoken_latex

pytestmark = pytest.mark.browser

# A 5x5 x under 3x3 max windows with stride 1: x[1, 1] = 9 wins four windows, whose
# dL/dy all reach it (the Playground's "Overlap" example).
X = np.array(
    [[1, 2, 0, 1, 3], [0, 9, 1, 0, 2], [2, 1, 4, 1, 0], [0, 3, 1, 8, 1], [1, 0, 2, 1, 0]], float
)
GRID = ";".join(",".join(str(int(v)) for v in row) for row in X)
OVERLAP = f"mode=max&kh=3&kw=3&sh=1&sw=1&x={GRID}"
CELL = (1, 1)
# A paragraph of the tree that says formulas (quoted by the snapshot when it holds ":").
SAID = re.compile(r'^\s*- paragraph: "?Formula: (.+?)\."?$', re.MULTILINE)


def assert_every_formula_is_read_once_in_words(page) -> list[str]:
    """Neither KaTeX copy of any formula in the tree (its HTML and its MathML hidden),
    no math node left, and the page's sentences saying them. Returns those sentences."""
    formulas = page.locator(".katex")
    expect(formulas.first).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.locator('.katex-html:not([aria-hidden="true"])')).to_have_count(0)
    expect(page.locator('.katex-mathml:not([aria-hidden="true"])')).to_have_count(
        0, timeout=TIMEOUT_MS
    )
    tree = page.locator('[data-testid="stMain"]').aria_snapshot()
    assert not re.search(r"^\s*- math", tree, re.MULTILINE), tree
    said = SAID.findall(tree)
    assert said, tree
    return said


def ledger_terms() -> tuple[list[tuple[int, int]], float]:
    """The output cells whose window won x[CELL], and dL/dx[CELL] (upstream all ones),
    from the engine."""
    result = pooling.forward(X, pooling.PoolConfig("max", 3, stride=1))
    grad_x = pooling.backward(result, np.ones_like(result.output))
    winners = np.argwhere(result.argmax == CELL[0] * X.shape[1] + CELL[1])
    return [tuple(int(v) for v in cell) for cell in winners], float(grad_x[CELL])


def test_the_ledger_formula_is_read_in_words(page, app_url):
    """The Ledger tab's formula for x[1, 1]: dL/dx, each window's share from its y
    cell, and the total, as the engine computed them."""
    open_page(page, f"{app_url}/playground?{OVERLAP}&tab=ledger&cell={CELL[0]},{CELL[1]}")
    (said,) = assert_every_formula_is_read_once_in_words(page)
    windows, total = ledger_terms()
    assert len(windows) == 4
    assert said.startswith(f"(partial L) over (partial x {CELL[0]},{CELL[1]}) equals"), said
    for row, col in windows:
        assert f"y {row},{col}" in said, said
    assert said.endswith(f"equals {fmt(total)}"), said


def test_the_output_size_rule_is_read_in_words(page, app_url):
    """The Playground's output size, its rule opened as a person does: each line said."""
    open_page(page, f"{app_url}/playground?{OVERLAP}")
    page.get_by_text("PyTorch's rule, with these numbers").click()
    settle(page)
    spoken = assert_every_formula_is_read_once_in_words(page)
    size = pooling.forward(X, pooling.PoolConfig("max", 3, stride=1)).output.shape
    for said, n in zip(spoken, size, strict=True):  # a line for the rows, one for columns
        assert said.endswith(f"equals {n}"), said


# Step 10 holds the batch rule and the SGD step.
@pytest.mark.parametrize("path", ["batch", "lesson?step=10"])
def test_the_batch_rule_and_step_are_read_in_words(page, app_url, path):
    """Inline formulas in a sentence (markdown's $…$): the batch rule with N = 2 and the
    step with the page's learning rate, said in that order in one sentence."""
    open_page(page, f"{app_url}/{path}")
    said = " ".join(assert_every_formula_is_read_once_in_words(page))
    rule = spoken_latex(batch_rule("mean", 2))
    assert rule.endswith("N equals 2"), rule
    assert rule in said, said
    rate = fmt(batch_settings().learning_rate)
    assert f"equals {rate}" in said[said.index(rule) + len(rule) :], said
