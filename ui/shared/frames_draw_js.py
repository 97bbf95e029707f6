"""The frame player's drawing, as JavaScript (joined to frames_js.JS by frames.py): a
frame put on a Plotly chart already on the page, by Plotly.react with the few traces
and the title it changes; and the charts hooked, so that they keep their frame when
Streamlit redraws them and pointing at y follows a window."""

DRAW_JS = r"""
// Charts of a frame still to draw, or put off while Plotly drew them: SETTLED waits on
// this, and so does Play.
labFrames.busy = () => Object.values(labFrames.players).some((player) => player.queued > 0)
  || Array.from(document.querySelectorAll('.js-plotly-plot')).some((plot) => plot.labPending);

// -- drawing a frame on a Plotly chart -------------------------------------------------
// The outer edges of a set of cells [r, c, r, c, ...] as segments split by nulls (the
// same path as ui/figures/marks.outline_path).
function outlinePath(flat) {
  const cells = new Set();
  for (let i = 0; i < flat.length; i += 2) cells.add(flat[i] + ',' + flat[i + 1]);
  const xs = [], ys = [];
  const sides = [[-1, 0, [-0.5, -0.5, 0.5, -0.5]], [1, 0, [-0.5, 0.5, 0.5, 0.5]],
                 [0, -1, [-0.5, -0.5, -0.5, 0.5]], [0, 1, [0.5, -0.5, 0.5, 0.5]]];
  for (let i = 0; i < flat.length; i += 2) {
    const row = flat[i], col = flat[i + 1];
    for (const [dr, dc, [x0, y0, x1, y1]] of sides) {
      if (cells.has((row + dr) + ',' + (col + dc))) continue;
      xs.push(col + x0, col + x1, null);
      ys.push(row + y0, row + y1, null);
    }
  }
  return [xs, ys];
}

function chartOf(key) {
  return document.querySelector('.st-key-' + CSS.escape(key) + ' .js-plotly-plot');
}

// The numbers of a chart's cells in every frame, [z, text, hover] as rows, built once.
function cellFrames(cells) {
  if (cells.built) return cells.built;
  const z = cells.start.z.slice(), text = cells.start.text.slice();
  const hover = cells.start.hover.slice();
  const rows = (flat) => {
    const out = [];
    for (let i = 0; i < flat.length; i += cells.columns) out.push(flat.slice(i, i + cells.columns));
    return out;
  };
  cells.built = cells.changes.map((changes) => {
    for (const [i, value, label, tip] of changes) { z[i] = value; text[i] = label; hover[i] = tip; }
    return [rows(z), rows(text), rows(hover)];
  });
  return cells.built;
}

// Whether a frame redraws this chart whole (heatmap numbers, a growing curve, the chart
// pointed at, a chart with any trace that is not a scatter) rather than moving a few
// scatter traces (moveTraces). Plotly.animate draws only the traces it moves and drops
// the subplot's other layers: a heatmap under a moving outline would lose its colours
// and numbers (plotly.js 4.2, cartesian plotOne).
function redraws(chart, pointed) {
  if (pointed || chart.cells || chart.traces || (chart.line && chart.line.grow)) return true;
  const plot = chartOf(chart.key);
  return !plot || !plot.data || plot.data.some((trace) => (trace.type || 'scatter') !== 'scatter');
}

function drawChart(chart, frame, { pointed = false } = {}) {
  const plot = chartOf(chart.key);
  if (!plot || !plot.data || !plot.layout || !window.Plotly) return false;
  // Plotly still drawing the chart (Streamlit's own draw, between its first steps and
  // the traces): a second draw now would mix the two. Tried again later (drawLater),
  // and Streamlit's draw, once done, calls for the frame (plotly_afterplot); until
  // then the chart is pending (labFrames.busy).
  plot.labPending = Boolean(plot._fullLayout && plot._fullLayout._replotting);
  if (plot.labPending) return false;
  const index = {};
  plot.data.forEach((trace, i) => { index[trace.name] = i; });
  const updates = {};  // trace name -> the attributes this frame gives it
  const put = (name, update) => {
    if (index[name] !== undefined) updates[name] = { ...updates[name], ...update };
  };
  if (chart.outline) {
    const [xs, ys] = outlinePath(chart.outline.cells[frame]);
    for (const name of chart.outline.names) put(name, { x: xs, y: ys });
  }
  if (chart.marks) {
    const flat = chart.marks.cells[frame];
    // Each marked cell gets its trace's path, moved onto it (ui/figures/frame_data._mark_paths).
    for (const [name, path] of Object.entries(chart.marks.paths)) {
      const xs = [], ys = [];
      for (let i = 0; i < flat.length; i += 2) {
        for (const point of path) {
          xs.push(point === null ? null : flat[i + 1] + point[0]);
          ys.push(point === null ? null : flat[i] + point[1]);
        }
      }
      put(name, { x: xs, y: ys });
    }
  }
  if (chart.cells) {
    const [z, text, hover] = cellFrames(chart.cells)[frame];
    put(chart.cells.trace, { z, text, customdata: hover });
  }
  if (chart.line) {
    // A curve over the frames: all of it, or (grow) as far as this frame, with a marker
    // on this frame's point.
    const { trace, x, y, now, grow } = chart.line;
    if (grow) put(trace, { x: x.slice(0, frame + 1), y: y.slice(0, frame + 1) });
    if (now) put(now, { x: [x[frame]], y: [y[frame]] });
  }
  if (chart.traces) {
    // Whole attributes of named traces, as the server's figure of each frame has them.
    for (const [name, frames] of Object.entries(chart.traces)) put(name, frames[frame]);
  }
  let title = null;
  if (chart.titles) {
    // Streamlit writes titles in bold (<b>…</b>): so is each frame's.
    const bold = (String(plot.layout.title.text).match(/^(<b>)*/) || [''])[0];
    title = bold + chart.titles[frame] + '</b>'.repeat(bold.length / 3);
  }
  if (!redraws(chart, pointed)) {
    moveTraces(plot, { frame, index, updates, title });
    return true;
  }
  const data = plot.data.slice();
  for (const [name, update] of Object.entries(updates))
    data[index[name]] = { ...data[index[name]], ...update };
  if (chart.traces) {
    // A trace the figure on the page was drawn without (a frame's whole trace): added.
    for (const [name, frames] of Object.entries(chart.traces))
      if (index[name] === undefined && frames[frame].type) data.push({ ...frames[frame] });
  }
  let layout = plot.layout;
  if (chart.line && chart.line.dticks) {
    layout = { ...layout, xaxis: { ...layout.xaxis, dtick: chart.line.dticks[frame] } };
  }
  if (title !== null) layout = { ...layout, title: { ...layout.title, text: title } };
  plot.labFrame = { frame, data };
  window.Plotly.react(plot, data, layout);
  return true;
}

// Where a chart is all scatter traces and only some move (a marker on a curve that
// stays) and the title: Plotly moves them without drawing the chart again (animate
// with no redraw), a task of about a millisecond where a redraw takes 20 ms or more
// here; the title is set on its own. Anything else needs react.
const QUICK = { transition: { duration: 0 }, frame: { duration: 0, redraw: false },
                mode: 'immediate' };

function moveTraces(plot, { frame, index, updates, title }) {
  plot.labFrame = { frame, data: plot.data };
  const names = Object.keys(updates);
  if (names.length) {
    const moved = { data: names.map((name) => updates[name]), traces: names.map((n) => index[n]) };
    window.Plotly.animate(plot, moved, QUICK).catch(() => {});  // a newer frame interrupts
  }
  if (title !== null && title !== plot.layout.title.text)
    window.Plotly.relayout(plot, { 'title.text': title });
}

// -- pointing at y -----------------------------------------------------------------------
// The chart keyed `key` in the player's frames as they are now: a hook outlives the
// frames it was made under (new frames may come before or after Streamlit's new chart).
function chartFor(player, key) {
  return (player.frames && player.frames.charts.find((chart) => chart.key === key)) || null;
}

function pointerOn(player, key) {
  const pointer = player.frames && player.frames.pointer;
  return pointer && pointer.key === key ? pointer : null;
}

function unhooked(player, key) {
  const plot = chartOf(key);
  return plot && plot.on && !(plot.labHooks && plot.labHooks.has(player)) ? plot : null;
}

// Each chart is hooked once per player; its handlers read the frames when they fire.
function hookCharts(player) {
  for (const { key } of player.frames.charts) {
    const plot = unhooked(player, key);
    if (!plot) continue;
    (plot.labHooks ||= new Set()).add(player);
    // Streamlit may draw its own figure again (a resize, a theme): draw the frame back.
    plot.on('plotly_afterplot', () => {
      if (plot.labFrame && plot.data === plot.labFrame.data && plot.labFrame.frame === player.drawn)
        return;
      requestAnimationFrame(() => {
        const chart = chartFor(player, key);
        if (chart) drawChart(chart, shown(player), { pointed: pointedAt(player, chart) });
        else plot.labPending = false;  // no longer this player's chart: nothing to wait for
      });
    });
    const windowAt = (event) => {
      const pointer = pointerOn(player, key);
      const point = event && event.points && event.points[0];
      if (!pointer || !point) return null;
      return Math.round(point.y) * pointer.columns + Math.round(point.x);
    };
    plot.on('plotly_hover', (event) => {
      const frame = windowAt(event);
      if (frame === null || frame === player.preview) return;
      player.preview = frame;
      draw(player);
    });
    plot.on('plotly_unhover', () => {
      if (player.preview === null || !pointerOn(player, key)) return;
      player.preview = null;
      draw(player);
    });
    plot.on('plotly_click', (event) => {
      const frame = windowAt(event);
      if (frame === null) return;
      if (player.playing !== null) { clearInterval(player.playing); player.playing = null; }
      moveTo(player, frame);
    });
  }
}

// Whether the player's controls or words are on the page now.
function onPage(player) {
  return Object.values(player.roots || {}).some((root) => root.isConnected);
}

// A run of the page may put a new chart element in an old one's place after the player
// has drawn (its figure at the step the server knew). Plotly fills a new chart with its
// layers as it starts drawing: that is when it is hooked, and it gets the frame shown
// (before, only a mouse move hooked it: a learner on the keys saw the server's step).
// Until the run's new frames reach the player, that is the frame of the frames it has.
function watchCharts() {
  new MutationObserver(() => {
    for (const player of Object.values(labFrames.players)) {
      if (!onPage(player)) continue;  // another page's or tab's player: not drawn here
      const charts = player.frames ? player.frames.charts : [];
      if (!charts.some(({ key }) => unhooked(player, key))) continue;
      hookCharts(player);
      draw(player);
    }
  }).observe(document.body, { childList: true, subtree: true });
}
"""
