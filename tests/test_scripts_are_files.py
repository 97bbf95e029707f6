"""No JavaScript is written in a Python string of the app or its serving: the scripts
the browser runs (ui/shared/*.js, the page probes of deploy/probes/) and the frame
player's look (ui/shared/frames.css) are files, which ESLint lints
(tests/test_js_lint.py) and an editor reads as what they are. The rule is the issue's:
no `<script`, `=>`, `function(` or `document.` anywhere in a Python file of ui/,
deploy/ or app.py."""

from __future__ import annotations

import re

from conftest import ROOT

SCRIPT_MARKS = re.compile(r"<script|=>|function\s*\(|document\.")


def python_files() -> list:
    return sorted([*(ROOT / "ui").rglob("*.py"), *(ROOT / "deploy").rglob("*.py"), ROOT / "app.py"])


def test_no_python_file_holds_javascript():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in python_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if SCRIPT_MARKS.search(line)
    ]
    assert not found, "JavaScript in Python (put it in a .js file):\n" + "\n".join(found)


def test_the_rule_sees_what_it_looks_for():
    for script in ("<script>", "(prefix) => {", "function(x) {", "function (x) {", "document.body"):
        assert SCRIPT_MARKS.search(script), script
    assert not SCRIPT_MARKS.search("the frames a document holds, >= 2")


def test_the_page_probes_are_the_files_of_deploy_probes():
    from deploy import page_state

    for name in ("settled", "find_chart", "chart_z", "chart_title", "cell_pixel", "map_labels"):
        script = (ROOT / "deploy" / "probes" / f"{name}.js").read_text(encoding="utf-8")
        assert getattr(page_state, name.upper()) == script


def test_the_frame_player_looks_as_its_css_file_says():
    from ui.shared import frame_player

    css = (ROOT / "ui" / "shared" / "frames.css").read_text(encoding="utf-8")
    assert frame_player.PLAYER_CSS == css
    assert "var(--lab-lecture-text)" in css


def test_lecture_mode_sets_the_player_s_text_size():
    from ui.figures.style import LECTURE_TEXT_PX
    from ui.shared.lecture import LECTURE_CSS

    assert f"--lab-lecture-text: {LECTURE_TEXT_PX}px;" in LECTURE_CSS
