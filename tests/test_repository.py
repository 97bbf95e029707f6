"""The repository holds source, not packages: a wheel or an archive is installed from a
registry, never committed (a 7 MB Pillow wheel once was)."""

import subprocess

from conftest import ROOT

ARCHIVES = (".whl", ".tar.gz", ".tgz", ".zip", ".egg")


def tracked_files() -> list[str]:
    """The files git tracks; outside a git checkout, every file below the root."""
    try:
        listed = subprocess.run(
            ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return [str(path.relative_to(ROOT)) for path in ROOT.rglob("*") if path.is_file()]
    return listed.stdout.splitlines()


def test_no_package_or_archive_is_tracked():
    assert [name for name in tracked_files() if name.endswith(ARCHIVES)] == []


def test_gitignore_keeps_packages_and_archives_out():
    rules = (ROOT / ".gitignore").read_text().split()
    assert {f"*{suffix}" for suffix in ARCHIVES} <= set(rules)
