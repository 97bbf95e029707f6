"""Python source parsed for the tests that read code (snippets, screen text, styles,
imports): `parsed` is `ast.parse` with the garbage collector paused while the tree is
built.

Why: CPython 3.11 checks its own recursion count around building an AST and raised a
false "SystemError: AST constructor recursion depth mismatch" once in a full run, after
the class-mode tests had left threads and pooled database connections behind (cpython
gh-106905 describes such false alarms). Our guess, not proven: a collection running
their finalizers mid-build; with the collector paused none can run there.
"""

from __future__ import annotations

import ast
import gc


def parsed(code: str) -> ast.Module:
    """`ast.parse(code)`, no collection running meanwhile."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return ast.parse(code)
    finally:
        if enabled:
            gc.enable()
