// z of that chart's cells (the heatmap that is not padding), rows as lists, or null.
(prefix) => {
  const plot = Array.from(document.querySelectorAll('.js-plotly-plot')).find((candidate) =>
    String(candidate.layout?.title?.text ?? '').replace(/<br>/g, ' ').replace(/<[^>]+>/g, '')
      .startsWith(prefix));
  if (!plot || !plot._fullData) return null;
  const cells = plot._fullData.find(t => t.type === 'heatmap' && t.name !== 'padding'
                                         && t.name !== 'x');
  return cells ? Array.from(cells.z, row => Array.from(row, v => (v === null ? null : Number(v))))
               : null;
}
