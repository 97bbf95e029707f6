"""What a browser checks to know a served page of the lab has settled, shared by the
browser tests and the browser benchmark (JavaScript, for Playwright's wait_for_function).
"""

# The script is idle, nothing on the page is stale, every lazily loaded element is in
# place of its skeleton, every formula is typeset (its markdown container is empty until
# KaTeX has loaded), the lab's browser component (ui/shared/browser.py) has run its
# script where the page mounts it, and every Plotly chart is drawn.
SETTLED = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (document.querySelector('.st-key-lab_browser') && !window.poolingLabBrowser) return false;
  if (document.querySelector('[data-stale="true"], [data-testid="stSkeleton"]')) return false;
  for (const text of document.querySelectorAll('[data-testid="stMarkdownContainer"]'))
    if (!text.childNodes.length) return false;
  const charts = Array.from(document.querySelectorAll('[data-testid="stPlotlyChart"]'));
  return charts.every(chart => chart.querySelector('.js-plotly-plot .main-svg'));
}"""

# The Plotly element whose title (Streamlit wraps titles in <b>) starts with `prefix`.
FIND_CHART = """(prefix) => {
  for (const plot of document.querySelectorAll('.js-plotly-plot')) {
    const raw = plot.layout && plot.layout.title && plot.layout.title.text;
    if (raw && raw.replace(/<[^>]+>/g, '').startsWith(prefix)) return plot;
  }
  return null;
}"""

# z of that chart's cells (the heatmap that is not padding), rows as lists, or null.
CHART_Z = f"""(prefix) => {{
  const plot = ({FIND_CHART})(prefix);
  if (!plot || !plot._fullData) return null;
  const cells = plot._fullData.find(t => t.type === 'heatmap' && t.name !== 'padding'
                                         && t.name !== 'x');
  return cells ? Array.from(cells.z, row => Array.from(row, v => (v === null ? null : Number(v))))
               : null;
}}"""

# The full title text of the chart whose title starts with `prefix`, or null.
CHART_TITLE = f"""(prefix) => {{
  const plot = ({FIND_CHART})(prefix);
  return plot ? plot.layout.title.text.replace(/<[^>]+>/g, '') : null;
}}"""

# Where cell (row, col) of that chart is on screen: Plotly's own axis mapping (d2p).
CELL_PIXEL = f"""([prefix, row, col]) => {{
  const plot = ({FIND_CHART})(prefix);
  const layout = plot._fullLayout, box = plot.getBoundingClientRect();
  return [box.left + layout.xaxis._offset + layout.xaxis.d2p(col),
          box.top + layout.yaxis._offset + layout.yaxis.d2p(row)];
}}"""

# Resolves once the page's main thread has been idle (requestIdleCallback with 40 ms or
# more to spare) three times in a row: the browser has finished drawing what it got.
BROWSER_IDLE = """async () => {
  let quiet = 0;
  while (quiet < 3) {
    const spare = await new Promise(done =>
      requestIdleCallback(deadline => done(deadline.timeRemaining()), {timeout: 1000}));
    quiet = spare >= 40 ? quiet + 1 : 0;
  }
  return true;
}"""
