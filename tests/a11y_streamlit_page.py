"""A bare Streamlit page, no lab code: the three elements whose axe-core findings come
from Streamlit itself (tests/test_browser_a11y.py serves it with the lab's
.streamlit/config.toml and shows each finding here too).

- A primary button in the dark theme: Streamlit writes its label white on the primary
  colour, and writes a select slider's value in the primary colour on the page.
- A code block wider than its box: Streamlit's scrolling <pre> cannot take focus, and
  its keywords are in a blue short of 4.5:1, whatever the theme.
- A formula wider than its column: Streamlit's KaTeX block scrolls and cannot take focus.
"""

import streamlit as st

st.title("Streamlit's own")
st.select_slider("Level", options=[1, 2, 3], key="level")
st.button("Check", type="primary", key="check")
LONG_LINE = "x = " + " + ".join(f"value_{n}" for n in range(60))
st.code(f"import numpy as np\nfor n in range(3):\n    {LONG_LINE}\n", language="python", height=120)
st.latex(r" + ".join(rf"\frac{{a_{{{n}}}}}{{b_{{{n}}}}}" for n in range(60)))
