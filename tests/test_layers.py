"""The house's import map: every arrow points down and none closes a circle
(.importlinter, checked by import-linter), the pure floors import NumPy and the standard
library only, no package of ui/ is left out of the layers, and the house is sorted by
kind: every module of ui/ draws (Streamlit, Plotly), teaching/ and rooms/ draw nothing."""

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

ROOTS = ("screens", "ui", "rooms", "teaching", "cnn", "pooling")  # .importlinter's roots
PURE_FLOORS = ("pooling", "cnn", "teaching")
DRAWING = {"streamlit", "plotly", "segno"}  # segno: the join link's QR code, as SVG
# Modules of ui/ that draw nothing themselves, each with why it is there:
NOT_DRAWING = {
    # the figures' settings: colours, pixel sizes, and the dicts of layout, labels and
    # marks that every figure builder of ui.figures starts from
    "ui.figures.style": "the one visual config",
    "ui.figures.layouts": "a figure's layout, as the dict Plotly takes",
    "ui.figures.labels": "how a number fits its cell, at the figure's font size",
    "ui.figures.marks": "outlines and winners' marks, as Plotly shapes' dicts",
    "ui.figures.sizes": "how big a map is drawn, in pixels",
    # the server process's tuning, run by app.py after each page
    "ui.shared.process": "the first run's objects frozen out of the collector's walks",
    # the pages' CSS files, read once and filled in (the page draws it with st.html)
    "ui.shared.styles": "the one loader of the .css files",
}


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


def _imports_of(graph, package):
    """{module: the top-level names it imports directly} for a package and its modules."""
    modules = {package} | graph.find_descendants(package)
    return {
        m: {n.split(".")[0] for n in graph.find_modules_directly_imported_by(m)} for m in modules
    }


@pytest.mark.parametrize("package", ["teaching", "rooms"])
def test_teaching_and_rooms_draw_nothing(graph, package):
    """Neither imports Streamlit or Plotly (nor segno), so both are tested without a
    page; the rooms store takes a SQLAlchemy engine, teaching no database at all."""
    imported = set().union(*_imports_of(graph, package).values())
    assert not imported & DRAWING
    assert ("sqlalchemy" in imported) == (package == "rooms")
    assert not imported & {"ui", "screens"}


def test_every_module_of_ui_draws(graph):
    """ui/ is Streamlit and Plotly only: each module imports Streamlit, Plotly or segno,
    or a module of ui/ that does (a page's render() through its views, the step frames
    through the figures' frame data). What computes or says without drawing belongs in
    teaching/; the few exceptions are named, each with its reason, in NOT_DRAWING."""
    imports = {
        m: graph.find_modules_directly_imported_by(m) for m in {"ui"} | graph.find_descendants("ui")
    }
    draws = {m for m, names in imports.items() if {n.split(".")[0] for n in names} & DRAWING}
    while True:  # a module that imports a drawing module of ui/ draws too
        more = {m for m, names in imports.items() if names & draws} - draws
        if not more:
            break
        draws |= more
    # a package's __init__ that holds only its docstring has nothing to sort
    empty = {m for m, names in imports.items() if not names and graph.find_descendants(m)}
    assert set(imports) - draws - empty - set(NOT_DRAWING) == set()
    assert set(NOT_DRAWING) <= set(imports) - draws, "an exception that draws after all"


PAGE_PACKAGES = ("playground", "batch", "lesson", "exercises")  # ui/<page>


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
    import rooms
    import teaching
    import ui

    for package in (pooling, cnn, teaching, rooms, ui):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            importlib.import_module(module.name)
