// The full title text of the chart whose title starts with `prefix`, or null.
(prefix) => {
  const titles = Array.from(document.querySelectorAll('.js-plotly-plot'), (plot) =>
    String(plot.layout?.title?.text ?? '').replace(/<br>/g, ' ').replace(/<[^>]+>/g, ''));
  return titles.find((title) => title && title.startsWith(prefix)) ?? null;
}
