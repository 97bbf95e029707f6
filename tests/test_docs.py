"""The README stays a first screen, not a manual: at most about 150 lines, with the
rest in docs/. Every relative link of README.md and docs/*.md leads to a file that
exists and, where it names one, to a heading of that file (GitHub's anchors). The
README's picture is a real screenshot: a PNG of the laptop size, kept small."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import ROOT
from PIL import Image

README_MOST_LINES = 150
PICTURE = ROOT / "docs" / "playground.png"
PICTURE_MOST_BYTES = 300_000  # a screenshot in a palette; a raw one is 10 times that
LAPTOP = (1400, 900)
LINK = re.compile(r"\]\(([^)\s]+)\)")  # [text](target) and ![alt](target); alt may wrap
HEADING = re.compile(r"^#{1,6} +(.+?) *$", re.MULTILINE)
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens
    ("The engine's speed" -> "the-engines-speed")."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def anchors(document: Path) -> set[str]:
    # a "# comment" in a code block is no heading
    text = FENCE.sub("", document.read_text(encoding="utf-8"))
    return {anchor(heading) for heading in HEADING.findall(text)}


def relative_links(document: Path) -> list[str]:
    text = FENCE.sub("", document.read_text(encoding="utf-8"))
    return [target for target in LINK.findall(text) if not re.match(r"[a-z]+:", target)]


def test_the_readme_is_a_first_screen():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MOST_LINES


def test_the_readme_links_every_docs_page():
    linked = {Path(target.split("#")[0]).name for target in relative_links(ROOT / "README.md")}
    pages = {path.name for path in (ROOT / "docs").glob("*.md")}
    assert pages <= linked, f"docs pages the README does not link: {sorted(pages - linked)}"


def test_every_relative_link_leads_somewhere():
    broken = []
    for document in documents():
        for target in relative_links(document):
            path, _, fragment = target.partition("#")
            found = (document.parent / path).resolve() if path else document
            if not found.exists():
                broken.append(f"{document.relative_to(ROOT)}: {target} (no such file)")
            elif fragment and fragment not in anchors(found):
                broken.append(f"{document.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, "\n".join(broken)


def test_the_anchor_rule_is_githubs():
    assert anchor("The engine's speed") == "the-engines-speed"
    assert anchor("Tests and style") == "tests-and-style"
    assert anchor("Code that reproduces the screen") == "code-that-reproduces-the-screen"


def test_the_readme_shows_a_real_screenshot_kept_small():
    assert "](docs/playground.png)" in (ROOT / "README.md").read_text(encoding="utf-8")
    with Image.open(PICTURE) as picture:
        assert picture.format == "PNG" and picture.size == LAPTOP
    assert PICTURE.stat().st_size <= PICTURE_MOST_BYTES
