"""The code keeps the house style that ruff.toml sets: ruff's lint rules pass and every
file is formatted as `ruff format` writes it. Run here, so CI (which runs only the
test command) catches a slip that only a hand-run ruff caught before."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT


@pytest.mark.parametrize(
    "command",
    [["check", "--no-cache", "."], ["format", "--check", "--no-cache", "."]],
    ids=["lint", "format"],
)
def test_ruff_passes(command):
    """A failure prints ruff's own findings: the file, the line and the rule."""
    ran = subprocess.run(
        [sys.executable, "-m", "ruff", *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
