"""The Streamlit glue every page uses: the page chrome, lecture mode, page state and
notices, the grid editor, the pooling controls, the server-side player buttons, lazy
tabs, lecture mode's walk and maps beside words, the chart wrapper, the code view, the
frame player and the one browser-side component that draws nothing."""
