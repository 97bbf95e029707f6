"""The browser scripts (every .js file of the app, and the linter's own config) pass
ESLint, pinned in package.json and installed by `npm ci` (eslint.config.js says which
rules). Where Node or the installed linter is missing the test skips with the reason;
in CI (CI=true) that is a failure."""

from __future__ import annotations

import json
import shutil
import subprocess

from conftest import ROOT, skip_or_fail

ESLINT = ROOT / "node_modules" / ".bin" / "eslint"
SKIPPED_DIRS = {"node_modules", ".git", ".venv"}


def scripts() -> list[str]:
    """Every .js file of the checkout outside node_modules, relative to ROOT."""
    return sorted(
        str(path.relative_to(ROOT))
        for path in ROOT.rglob("*.js")
        if not SKIPPED_DIRS.intersection(path.relative_to(ROOT).parts)
    )


def test_the_browser_scripts_are_files():
    """The components' scripts live in .js files (none is stitched from Python text)."""
    assert {
        "ui/shared/frames.js",
        "ui/shared/browser.js",
        "deploy/probes/settled.js",
        "deploy/probes/map_labels.js",
        "eslint.config.js",
    } <= set(scripts())


def test_every_script_passes_eslint():
    """A failure lists each finding: the file, the line, the rule and its message."""
    if shutil.which("node") is None:
        skip_or_fail("Node is not installed: the JavaScript linter cannot run")
    if not ESLINT.exists():
        skip_or_fail("ESLint is not installed: run `npm ci` at the repository root")
    ran = subprocess.run(
        [str(ESLINT), "--format", "json", "--max-warnings", "0", *scripts()],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert ran.stdout.strip(), ran.stderr  # ESLint itself failed (its config, say)
    findings = [
        f"{report['filePath']}:{message.get('line')}: {message.get('ruleId')}: {message['message']}"
        for report in json.loads(ran.stdout)
        for message in report["messages"]
    ]
    assert not findings, "\n".join(findings)
    assert ran.returncode == 0, ran.stderr
