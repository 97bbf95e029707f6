// The script is idle, nothing on the page is stale, every lazily loaded element is in
// place of its skeleton, every formula is typeset (its markdown container is empty until
// KaTeX has loaded), the lab's browser component (ui/shared/browser.py) has run its
// script where the page mounts it, every Plotly chart is drawn and none is being drawn
// (Plotly's _replotting, from the start of a draw to its traces), no frame player
// has charts of its frame left to draw (ui/shared/frames.js), and every font face the
// page uses has loaded.
() => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (document.querySelector('.st-key-lab_browser') && !window.poolingLabBrowser) return false;
  if (document.querySelector('[data-stale="true"], [data-testid="stSkeleton"]')) return false;
  // A face the page has just asked for (a lecture's bigger numbers) is still loading:
  // its text is drawn meanwhile in a wider stand-in (CI measured a 30.5-px "−53" in a
  // 30.1-px cell that holds it once the face is in).
  if (document.fonts && document.fonts.status !== 'loaded') return false;
  for (const text of document.querySelectorAll('[data-testid="stMarkdownContainer"]'))
    if (!text.childNodes.length) return false;
  if (window.poolingLabFrames && window.poolingLabFrames.busy && window.poolingLabFrames.busy())
    return false;
  const charts = Array.from(document.querySelectorAll('[data-testid="stPlotlyChart"]'));
  return charts.every(chart => {
    const plot = chart.querySelector('.js-plotly-plot');
    const drawing = plot && plot._fullLayout && plot._fullLayout._replotting;
    return plot && plot.querySelector('.main-svg') && !drawing;
  });
}
