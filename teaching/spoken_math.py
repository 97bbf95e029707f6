"""A formula's spoken form: the LaTeX the pages write (teaching/formulas.py, the
Playground's matrix product, the Batch rule) as words a screen reader says, where
KaTeX's MathML was read as a run of symbols ("∂ ∂ K ( 1 N ∑ n L n )"). Only the
commands those formulas use are known; any other command is said by its name, never
dropped. Pure: no Streamlit."""

from __future__ import annotations

import re

# \name -> what is said (a space around each keeps the words apart).
WORDS = {
    "partial": "partial ",
    "cdot": " times ",
    "times": " times ",
    "leftarrow": " becomes ",
    "eta": " eta ",
    "top": " transpose ",
    "lfloor": " floor of (",
    "rfloor": ") ",
    "lceil": " ceiling of (",
    "rceil": ") ",
    "quad": ", ",
    "qquad": ", ",
    ",": " ",
    " ": " ",
    ";": " ",
    "dots": " and so on ",
    "ldots": " and so on ",
    "cdots": " and so on ",
    "infty": " infinity ",
    "pm": " plus or minus ",
}
SILENT = {"left", "right", "Big", "big", "Bigg", "bigg", "displaystyle", "limits"}
SIGNS = {"=": " equals ", "+": " plus ", "-": " minus ", "−": " minus ", "<": " less than "}
TOKEN = re.compile(r"\\[A-Za-z]+|\\.|[{}_^&]|\\\\|[^\\{}_^&]")


def spoken_latex(latex: str) -> str:
    """What `latex` says, in words: "partial L over partial x 1,2 equals 0.5 times 2
    (from y 0,1) equals 1"."""
    tokens = TOKEN.findall(latex.replace(r"\\", "\n"))
    words, _ = _sequence(tokens, 0)
    words = re.sub(r"\s+", " ", words)
    words = re.sub(r"\s+([,;:.)])", r"\1", words)
    words = re.sub(r"\(\s+", "(", words)
    words = re.sub(r"([,;])(\s*[,;])+", r"\1", words)  # ";," and ",," said once
    return words.strip(" ;,")


def _grouped(words: str) -> str:
    """A fraction's part: in parentheses when it is more than one word, so that
    "(H plus 2p) over s" is not heard as "H plus (2p over s)"."""
    words = words.strip()
    return f"({words})" if " " in words else words


def _sequence(tokens: list[str], at: int) -> tuple[str, int]:
    """Words up to the group's closing brace (or the end); returns (words, next index)."""
    said = []
    while at < len(tokens) and tokens[at] != "}":
        words, at = _item(tokens, at)
        said.append(words)
    return "".join(said), at + 1


def _argument(tokens: list[str], at: int) -> tuple[str, int]:
    """One argument: a braced group or a single token."""
    if at < len(tokens) and tokens[at] == "{":
        return _sequence(tokens, at + 1)
    return _item(tokens, at)


def _item(tokens: list[str], at: int) -> tuple[str, int]:
    token = tokens[at]
    if token == "{":
        return _sequence(tokens, at + 1)
    if token == "\n":
        return "; ", at + 1
    if token == "&":
        return " ", at + 1
    if token == "_":
        below, at = _argument(tokens, at + 1)
        return f" {below} ", at
    if token == "^":
        above, at = _argument(tokens, at + 1)
        return (above if "transpose" in above else f" to the power {above} "), at
    if token.startswith("\\"):
        return _command(token[1:], tokens, at + 1)
    return SIGNS.get(token, token), at + 1


def _command(name: str, tokens: list[str], at: int) -> tuple[str, int]:
    if name == "frac":
        top, at = _argument(tokens, at)
        bottom, at = _argument(tokens, at)
        return f" {_grouped(top)} over {_grouped(bottom)} ", at
    if name == "text":
        words, at = _argument(tokens, at)
        return words, at
    if name == "sum":
        below = ""
        if at < len(tokens) and tokens[at] == "_":
            below, at = _argument(tokens, at + 1)
            below = f" over {below.strip()}"
        return f" the sum{below} of ", at
    if name == "underbrace":
        body, at = _argument(tokens, at)
        if at < len(tokens) and tokens[at] == "_":
            under, at = _argument(tokens, at + 1)
            return f" {body.strip()} (from {under.strip()}) ", at
        return body, at
    if name in ("begin", "end"):
        kind, at = _argument(tokens, at)
        if kind == "bmatrix":
            return (" the matrix with rows: " if name == "begin" else "; end of matrix; "), at
        return " ", at
    if name in SILENT:
        return " ", at
    return WORDS.get(name, f" {name} "), at
