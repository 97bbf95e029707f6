// The Plotly element whose title (Streamlit wraps titles in <b>; a long one is broken
// into lines by <br>, read as a space) starts with `prefix`.
(prefix) => {
  for (const plot of document.querySelectorAll('.js-plotly-plot')) {
    const raw = plot.layout && plot.layout.title && plot.layout.title.text;
    if (raw && raw.replace(/<br>/g, ' ').replace(/<[^>]+>/g, '').startsWith(prefix)) return plot;
  }
  return null;
}
