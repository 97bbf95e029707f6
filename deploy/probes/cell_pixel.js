// Where cell (row, col) of that chart is on screen: Plotly's own axis mapping (d2p).
([prefix, row, col]) => {
  const plot = Array.from(document.querySelectorAll('.js-plotly-plot')).find((candidate) =>
    String(candidate.layout?.title?.text ?? '').replace(/<br>/g, ' ').replace(/<[^>]+>/g, '')
      .startsWith(prefix));
  const layout = plot._fullLayout, box = plot.getBoundingClientRect();
  return [box.left + layout.xaxis._offset + layout.xaxis.d2p(col),
          box.top + layout.yaxis._offset + layout.yaxis.d2p(row)];
}
