"""The tiny network on a mini-batch, computed: the batch story (forward, backward,
SGD), its data, its training trajectory and the pair of examples the Batch page and the
Lesson both tell. Pure: no Streamlit, no Plotly."""
