"""The Streamlit glue every page uses: the page frame, lecture mode, page state and
notices, the grid editor, the pooling controls, the player, lazy tabs, the chart
wrapper, the code view and the one browser-side component."""
