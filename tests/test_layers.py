"""The house's import map: every arrow points down and none closes a circle
(.importlinter, checked by import-linter), the pure floors import NumPy and the standard
library only, and no package of ui/ is left out of the layers."""

from __future__ import annotations

import ast
import configparser
import re
import sys

import grimp
import pytest
from conftest import ROOT
from importlinter.cli import lint_imports
from source_tree import parsed

ROOTS = ("screens", "ui", "cnn", "pooling")  # .importlinter's root packages
PURE_FLOORS = ("pooling", "cnn", "teaching", "teaching.batch")


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph(*ROOTS, include_external_packages=True, cache_dir=None)


def test_every_import_contract_is_kept(monkeypatch):
    """A failure prints the broken contract and the import chain that breaks it."""
    monkeypatch.chdir(ROOT)
    config = str(ROOT / ".importlinter")
    assert lint_imports(config_filename=config, no_cache=True, no_logo=True) == 0


@pytest.mark.parametrize("floor", PURE_FLOORS)
def test_a_pure_floor_imports_numpy_and_the_standard_library_only(graph, floor):
    """import-linter can forbid named packages but not allow only some, so this one is
    checked here: besides the house's own modules, only NumPy and the standard library."""
    modules = {floor} | graph.find_descendants(floor)
    imported = set().union(*(graph.find_modules_directly_imported_by(m) for m in modules))
    outside = {name.split(".")[0] for name in imported} - set(ROOTS)
    assert outside - set(sys.stdlib_module_names) == {"numpy"}


def test_every_package_of_ui_is_in_a_layer():
    """A new page package (or a new floor) outside the layers would escape the contract."""
    contracts = configparser.ConfigParser()
    contracts.read(ROOT / ".importlinter")
    layers = contracts["importlinter:contract:layers"]["layers"]
    named = set(re.findall(r"[\w.]+", layers))
    packages = {f"ui.{path.parent.name}" for path in (ROOT / "ui").glob("*/__init__.py")} | {
        f"ui.{path.stem}" for path in (ROOT / "ui").glob("*.py") if path.stem != "__init__"
    }
    assert packages <= named
    assert set(ROOTS) - {"ui"} <= named


PAGE_PACKAGES = ("playground", "batch", "lesson", "exercises")


@pytest.mark.parametrize("package", PAGE_PACKAGES)
def test_a_page_package_names_its_views_as_views(package):
    """Each page package has its state and its views; a `*_view` function is defined in
    a views module (views.py or views_*.py) and nowhere else, and no module is named
    `*_view` (a views module's name starts with views)."""
    folder = ROOT / "ui" / package
    names = {path.stem for path in folder.glob("*.py")}
    assert {"state", "views"} <= names
    assert not [name for name in names if name.endswith("_view")]
    views_elsewhere = [
        (path.name, node.name)
        for path in folder.glob("*.py")
        if not path.stem.startswith("views")
        for node in ast.walk(parsed(path.read_text()))
        if isinstance(node, ast.FunctionDef) and node.name.endswith("_view")
    ]
    assert views_elsewhere == []


def test_every_module_of_the_lab_imports():
    """A name imported from where it no longer lives fails here, not on a page."""
    import importlib
    import pkgutil

    import cnn
    import pooling
    import ui

    for package in (pooling, cnn, ui):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            importlib.import_module(module.name)
