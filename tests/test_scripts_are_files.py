"""No JavaScript is written in a Python string of the app or its serving: the scripts
the browser runs (ui/shared/*.js, the page probes of deploy/probes/) are files, which ESLint lints
(tests/test_js_lint.py) and an editor reads as what they are. The rule is the issue's:
no `<script`, `=>`, `function(` or `document.` anywhere in a Python file of ui/,
deploy/ or app.py. Nor is CSS: every rule is in a .css file beside the module that
uses it, read by ui/shared/styles.py (the frame player's look, ui/shared/frames.css,
the page's, lecture mode's, a room's), with a named placeholder where a rule is keyed
per element or sized by a number the code knows."""

from __future__ import annotations

import ast
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


# -- No CSS in a Python string: every rule is in a .css file (ui/shared/styles.py) ---------

# A rule (`selector { property: value; }`), or two declarations in a row (`position:
# absolute; width: 1px;`), in a string the code builds (docstrings are prose and left
# out; an f-string is read with its placeholders as "X").
CSS_MARKS = re.compile(
    r"[\w\]\)*>-]\s*\{\{?\s*[\w-]+\s*:[^{};]*;|\b[a-z-]+:\s*[^;{}]+;\s*[a-z-]+:\s*[^;{}]+;"
)
# A <style> element: markup that holds CSS, written in one place only, the loader's
# style_element, which wraps the text of a .css file.
STYLE_TAG = re.compile(r"<style", re.IGNORECASE)
STYLE_WRAPPER = "ui/shared/styles.py"
CSS_FILES = sorted((ROOT / "ui").rglob("*.css"))


def built_strings(tree: ast.AST):
    """(line, text) of every string the module builds: docstrings left out, an f-string
    whole (its placeholders as "X"), adjacent literals already joined by the parser."""
    docstrings, parts = set(), set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
        if isinstance(node, ast.JoinedStr):
            parts |= {id(value) for value in node.values}
    for node in ast.walk(tree):
        if id(node) in docstrings or id(node) in parts:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value
        elif isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "X" for v in node.values)
            yield node.lineno, text


def test_no_python_file_writes_css():
    found = {}
    for path in python_files():
        name = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        lines = [
            line
            for line, text in built_strings(tree)
            if CSS_MARKS.search(text) or (STYLE_TAG.search(text) and name != STYLE_WRAPPER)
        ]
        if lines:
            found[name] = lines
    assert not found, f"CSS in a Python string (put it in a .css file): {found}"


def test_every_css_file_is_whole_and_every_placeholder_is_named():
    """Braces that pair up, declarations that end in `;`, and placeholders of the
    ${name} form only (string.Template's other forms would be read as CSS)."""
    for path in CSS_FILES:
        text = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
        assert all(mark.startswith("${") for mark in re.findall(r"\$.?", text)), path.name
        text = re.sub(r"\$\{\w+\}", "X", text)
        depth = 0
        for char in text:
            depth += {"{": 1, "}": -1}.get(char, 0)
            assert depth >= 0, path.name
        assert depth == 0, path.name
        for block in re.findall(r"\{([^{}]*)\}", text):
            assert not block.strip() or block.strip().endswith(";"), (path.name, block)


def test_each_page_style_is_its_css_file_filled_in():
    from ui.class_mode.lecturer import views_room
    from ui.class_mode.student import views as student_views
    from ui.shared import browser, chrome, lecture

    for text in (
        chrome.PAGE_CSS,
        chrome.theme_css(dark=True),
        chrome.theme_css(dark=False),
        lecture.LECTURE_CSS,
        browser.CSS,
        views_room.ROOM_SCREEN_CSS,
        views_room.DESK_TOP_CSS,
        student_views.HIDDEN_CSS,
        student_views.JOINED_CSS,
    ):
        assert "$" not in text and "{" in text
    assert f".st-key-{browser.KEY} {{ display: none; }}" in browser.CSS


def test_the_css_rule_sees_what_it_looks_for():
    for css in (
        ".st-key-X { display: none; }",
        "[data-testid='stMain'] {{ padding-top: 3px; }}",
        "position: absolute; width: 1px;",
    ):
        assert CSS_MARKS.search(css), css
    assert STYLE_TAG.search("<STYLE>.x{}</style>")
    for prose in ("Note: the map {shown} holds one number.", "a: b", "Layer: max 2×2; stride 2"):
        assert not CSS_MARKS.search(prose), prose
    strings = dict(built_strings(ast.parse('"""a { b: c; }"""\nX = f"p {{ q: {1}px; }}"\n')))
    assert strings == {2: "p { q: Xpx; }"}
