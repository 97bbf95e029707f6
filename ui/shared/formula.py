"""Formulas with a spoken form (teaching/spoken_math.py): KaTeX's MathML was read as a
run of symbols ("∂ ∂ K ( 1 N ∑ n L n )"), so beside each formula the page writes what it
says in words, out of sight, and browser.js takes that formula's MathML out of the
accessibility tree (the sentence stands for it, as a map's text twin does)."""

from __future__ import annotations

import re
from html import escape

import streamlit as st

from teaching.spoken_math import spoken_latex

CLASS = "lab-spoken"  # chrome.PAGE_CSS keeps it out of sight and out of the layout
INLINE = re.compile(r"\$([^$]+)\$")  # a markdown text's inline formulas, $...$


def latex(formula: str) -> None:
    """st.latex(formula), then its spoken form, both in one box with no gap: the
    sentence, out of the layout, must not add a gap to the page (a projector's step
    is measured to the pixel)."""
    with st.container(gap=None):
        st.latex(formula)
        spoken(spoken_latex(formula))


def markdown(text: str) -> None:
    """st.markdown(text), then the spoken forms of its inline formulas ($...$), if any,
    in one box with no gap (as `latex`)."""
    formulas = INLINE.findall(text)
    if not formulas:
        st.markdown(text)
        return
    with st.container(gap=None):
        st.markdown(text)
        spoken(". ".join(spoken_latex(formula) for formula in formulas))


def spoken(words: str) -> None:
    """The words a screen reader reads for the formulas drawn just before (escaped:
    never markup)."""
    st.html(f'<p class="{CLASS}">Formula: {escape(words)}.</p>')
