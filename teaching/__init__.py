"""Pure helpers of the pages: the page list, the vocabulary (words), the tolerances,
number formatting, formulas, code snippets, the digit images and the share-link codecs.
NumPy and the engine only: no Streamlit, no Plotly."""
