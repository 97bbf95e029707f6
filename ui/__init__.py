"""Streamlit and Plotly glue shared by the pages. `ui.figures` is pure Plotly."""
