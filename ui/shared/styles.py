"""The lab's CSS lives in .css files beside the module that uses it; this is the one
loader for all of them. A file that styles one element by its key (Streamlit's
`.st-key-<key>` class) or by a number the code knows (a size in px) holds a named
placeholder, `${name}`, filled here (string.Template: CSS itself never writes `$`)."""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from string import Template

UNSEEN = "lab-unseen"  # page.css keeps an element of this class out of sight, not out of speech


@cache
def stylesheet(package: str, name: str) -> Template:
    """The CSS file `name` of `package` (a module's __package__), read once."""
    return Template(files(package).joinpath(name).read_text(encoding="utf-8"))


def css(package: str, name: str, /, **values: object) -> str:
    """The CSS file's text with its placeholders filled (a missing value raises KeyError)."""
    return stylesheet(package, name).substitute(values)


def style_element(text: str) -> str:
    """CSS as a page element for st.html (markup, not a rule: the one place it is written)."""
    return f"<style>{text}</style>"
