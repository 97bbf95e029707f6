// The frame player's script (ui/shared/frame_player.py), an ES module: its default export is
// called on every run of the page with the player's data. Its look is frames.css.
const labFrames = (window.poolingLabFrames ||= { players: {}, installed: false });
const EDITABLE = 'input, textarea, select, [contenteditable="true"], [role="slider"], '
  + '[role="radio"], [role="tab"], [role="option"], [role="combobox"], '
  + '[data-testid="stDataFrame"], [data-testid="stDataFrameResizable"]';
const KEYS = { ArrowLeft: -1, ArrowRight: 1 };
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

// -- the text twins of a frame ------------------------------------------------------------
// What a screen reader reads of a chart is its twins (ui/shared/twin.py: a figure named by
// the map, a summary, a table), written by the server at the step it knew: each frame the
// browser draws writes them too, from the parts teaching/map_twin.twin_frames sends (the
// first frame's, then each frame's changes) and, on a step map, the frame's own window,
// winners and numbers (`taken`). Their words come with the parts (map_twin.TWIN_WORDS,
// their one home): here only the frame's numbers and cells are filled in, and the choice
// MapTwin makes between them (a block, a few cells, a count) made again
// (tests/test_browser_a11y.py compares every frame): sending each frame's sentences
// instead took 130 kB on a 16x16 map.

// A template with each {name} replaced by values[name].
const fill = (template, values) => template.replace(/\{(\w+)\}/g, (_, name) => String(values[name]));
// A [one, many] pair's form for `number`.
const said = (pair, number, values) => fill(pair[number === 1 ? 0 : 1], { n: number, ...values });

function twinFrames(twins) {
  if (twins.built) return twins.built;
  let now = twins.start;
  twins.built = twins.changes.map((changes) => {
    now = now.map((twin) => ({ ...twin, cells: twin.cells.slice() }));
    for (const [index, what, value] of changes) {
      if (typeof what === 'number') now[index].cells[what] = value; else now[index][what] = value;
    }
    return now;
  });
  return twins.built;
}

// A curve's twin at `frame` (frame_data._curve_twins): its rows so far, the point marked.
function curveAt({ curve, abouts, grow, mark }, frame) {
  const count = grow ? frame + 1 : curve.cells.length;
  return [{ ...curve, about: abouts[frame], shape: [count, 1], cells: curve.cells.slice(0, count),
            headers: [curve.headers[0].slice(0, count), curve.headers[1]],
            marks: [[mark, [frame, 0]]] }];
}

// The chart's twins at `frame`: [{name, span, about, headers, shape, cells, marks}].
function twinsAt(chart, frame) {
  if (chart.twins.curve) return curveAt(chart.twins, frame);
  const twins = twinFrames(chart.twins)[frame];
  const taken = chart.twins.taken;
  if (!taken) return twins;
  if (taken.trace) return [{ ...twins[0], cells: chart.traces[taken.trace][frame].customdata.flat() }];
  const marks = [];
  if (chart.outline) marks.push([taken.outline, chart.outline.cells[frame]]);
  if (chart.marks) marks.push([taken.marks, chart.marks.cells[frame]]);
  const cells = taken.cells ? cellFrames(chart.cells)[frame][2].flat() : twins[0].cells;
  return [{ ...twins[0], cells, marks: marks.filter(([, flat]) => flat.length) }];
}

const spanned = (numbers, pair) => said(pair, numbers.length,
  { first: numbers[0], last: numbers[numbers.length - 1] });
const unbroken = (numbers) => numbers.every((n, i) => n === numbers[0] + i);

// Where cells [[r, c], ...] lie, in words (map_twin._where, _block, _listed): a cell
// listed twice said once.
function where(listed, [rows, cols], words) {
  const cells = [...new Map(listed.map((cell) => [cell.join(','), cell])).values()];
  const inside = cells.filter(([r, c]) => r >= 0 && r < rows && c >= 0 && c < cols);
  const outside = cells.length - inside.length;
  const sorted = (numbers) => [...new Set(numbers)].sort((a, b) => a - b);
  const rowsOf = sorted(inside.map(([r]) => r)), colsOf = sorted(inside.map(([, c]) => c));
  const distinct = new Set(inside.map(([r, c]) => r + ',' + c)).size;
  let cellsSaid;
  if (inside.length >= 2 && distinct === rowsOf.length * colsOf.length
      && unbroken(rowsOf) && unbroken(colsOf)) {
    cellsSaid = fill(words.block, { rows: spanned(rowsOf, words.block_rows),
                                    columns: spanned(colsOf, words.block_columns) });
  } else if (inside.length > words.listed) {
    cellsSaid = fill(words.many, { n: inside.length });
  } else {
    cellsSaid = inside.slice().sort(([r1, c1], [r2, c2]) => r1 - r2 || c1 - c2)
      .map(([r, c]) => fill(words.cell, { row: r, column: c })).join(words.between_cells);
  }
  if (!outside) return cellsSaid;
  const padding = said(words.padding, outside);
  return inside.length ? fill(words.with_padding, { cells: cellsSaid, padding }) : padding;
}

const pairs = (flat) => Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i], flat[2 * i + 1]]);

// A twin's summary, its cells' texts and its rows' names (MapTwin.summary, cell_texts,
// row_header), in the words it was sent with.
function twinSaid(twin) {
  const { words } = twin;
  const [rows, cols] = twin.shape;
  const marks = twin.marks.map(([word, flat]) => [word, pairs(flat)]);
  const summary = twin.about ?? [
    fill(words.summary, { name: twin.name, rows: said(words.rows, rows),
                          columns: said(words.columns, cols), span: twin.span }),
    ...marks.map(([word, cells]) => fill(words.mark, { word, where: where(cells, twin.shape, words) })),
    ...(twin.gets ? [twin.gets] : []),  // said whole by the server (map_twin.receivers)
  ].join(words.between_parts) + words.end;
  const marked = new Map();
  for (const [word, cells] of marks) {
    for (const [r, c] of cells) {
      const at = r * cols + c;
      if (r < 0 || r >= rows || c < 0 || c >= cols) continue;
      const list = marked.get(at) || [];
      if (!list.includes(word)) list.push(word);
      marked.set(at, list);
    }
  }
  const cells = twin.cells.map((text, at) => [text, ...(marked.get(at) || [])].join(words.cell_words));
  const names = twin.headers ? twin.headers[0]
    : Array.from({ length: rows }, (_, r) => fill(words.row_name, { row: r }));
  return { name: twin.name, summary, cells, rows: names };
}

function setText(node, text) {
  if (node && node.textContent !== text) node.textContent = text;
}

function writeTwins(chart, frame) {
  const figures = document.querySelectorAll(`.lab-twin[data-chart="${CSS.escape(chart.key)}"]`);
  if (!figures.length) return;
  const twins = twinsAt(chart, frame);
  figures.forEach((figure, index) => {
    if (!twins[index]) return;
    const { name, summary, cells, rows } = twinSaid(twins[index]);
    if (figure.getAttribute('aria-label') !== name) figure.setAttribute('aria-label', name);
    setText(figure.querySelector('caption'), name);
    setText(figure.querySelector('p'), summary);
    const body = figure.querySelector('tbody');
    if (body && body.rows.length !== rows.length) body.replaceChildren(...tableRows(rows, cells));
    figure.querySelectorAll('tbody th').forEach((head, row) => setText(head, rows[row]));
    figure.querySelectorAll('tbody td').forEach((cell, flat) => setText(cell, cells[flat]));
  });
}

// A table's rows as ui/shared/twin.py writes them (a growing curve gains one a frame):
// the row's name, then its cells.
function tableRows(rows, cells) {
  const cols = cells.length / rows.length;
  return rows.map((name, row) => {
    const line = document.createElement('tr');
    const head = Object.assign(document.createElement('th'), { scope: 'row', textContent: name });
    line.append(head, ...cells.slice(row * cols, (row + 1) * cols).map(
      (text) => Object.assign(document.createElement('td'), { textContent: text })));
    return line;
  });
}

// What the twins of the chart keyed `key` say at `frame`, for a test to compare with the
// server's: [{name, summary, cells, rows}].
labFrames.twinsSaid = (key, frame) => {
  for (const player of Object.values(labFrames.players)) {
    const chart = chartFor(player, key);
    if (chart && chart.twins) return twinsAt(chart, frame).map(twinSaid);
  }
  return null;
};

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

// What `frame` gives the chart's traces and title: {index (trace name -> its place in
// plot.data), updates (trace name -> attributes), title (or null)}.
function frameUpdates(chart, frame, plot) {
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
  return { index, updates, title };
}

// Whether the chart can be drawn now: on the page, drawn by Plotly and not being drawn.
function drawable(plot) {
  if (!plot || !plot.data || !plot.layout || !window.Plotly) return false;
  // Plotly still drawing the chart (Streamlit's own draw, between its first steps and
  // the traces): a second draw now would mix the two. Tried again later (drawLater),
  // and Streamlit's draw, once done, calls for the frame (plotly_afterplot); until
  // then the chart is pending (labFrames.busy).
  plot.labPending = Boolean(plot._fullLayout && plot._fullLayout._replotting);
  return !plot.labPending;
}

function drawChart(chart, frame, { pointed = false } = {}) {
  const plot = chartOf(chart.key);
  if (!drawable(plot)) return false;
  const { index, updates, title } = frameUpdates(chart, frame, plot);
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

// -- the quick draw: what moves, written into what Plotly drew ---------------------------
// A step moves a map's title, its window's outline and its marks; Plotly would draw the
// whole chart again for that (every cell's number: 20 to 60 ms on a 16x16 map, a task
// the paint waits on). So the input's own task writes them straight into the chart's
// SVG, as Plotly draws them (the same paths, at the axes' own pixels), with a running
// map's changed colours and numbers (writeCells), and the step shows in the first frame
// after the input. A chart whose other traces change (a curve, whole traces) is drawn
// by Plotly, after that paint (draw); one written here gets Plotly's model of it
// brought up to date without a draw (keepModel).

// A chart's scatter traces as drawn: trace name -> {node, trace (Plotly's full trace)}.
function drawnTraces(plot) {
  const found = {};
  for (const node of plot.querySelectorAll('.scatterlayer .trace')) {
    const trace = node.__data__ && node.__data__[0] && node.__data__[0].trace;
    if (trace) found[trace.name] = { node, trace };
  }
  return found;
}

function axesOf(plot, trace) {
  const name = (id) => id.charAt(0) + 'axis' + id.slice(1);
  return [plot._fullLayout[name(trace.xaxis || 'x')], plot._fullLayout[name(trace.yaxis || 'y')]];
}

// Segments split by nulls as one SVG path (Plotly draws one path a segment: the same
// lines); '' for none.
function linePath(xs, ys, xa, ya) {
  let path = '', pen = false;
  for (let i = 0; i < xs.length; i++) {
    if (xs[i] === null || ys[i] === null) { pen = false; continue; }
    path += (pen ? 'L' : 'M') + xa.c2p(xs[i]).toFixed(2) + ',' + ya.c2p(ys[i]).toFixed(2);
    pen = true;
  }
  return path;
}

// Moves a drawn scatter trace's lines and markers to `update`'s x and y; false where
// the SVG has no element to move (nothing was drawn of it: Plotly must draw it).
function moveDrawn({ node, trace }, update, plot) {
  const mode = String(trace.mode);
  const [xa, ya] = axesOf(plot, trace);
  const { x: xs, y: ys } = update;
  if (mode.includes('lines')) {
    const lines = node.querySelectorAll('path.js-line');
    const path = linePath(xs, ys, xa, ya);
    if (!lines.length) return !path;
    lines.forEach((line, i) => line.setAttribute('d', i ? '' : path));
  }
  if (mode.includes('markers')) {
    const points = Array.from(node.querySelectorAll('path.point'));
    const places = [];
    xs.forEach((x, i) => { if (x !== null && ys[i] !== null) places.push([xa.c2p(x), ya.c2p(ys[i])]); });
    if (places.length && !points.length) return false;
    while (points.length < places.length) {
      const copy = points[points.length - 1].cloneNode(true);
      points[points.length - 1].after(copy);
      points.push(copy);
    }
    points.slice(places.length).forEach((point) => point.remove());
    places.forEach(([x, y], i) => points[i].setAttribute('transform', `translate(${x.toFixed(2)},${y.toFixed(2)})`));
  }
  return mode.includes('lines') || mode.includes('markers');
}

const ENTITIES = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

// Writes a title of the same lines into Plotly's title text, line by line; false where
// its lines are drawn otherwise (more text pieces than one a line: Plotly must draw it).
function writeTitle(plot, title) {
  const text = plot.querySelector('.gtitle');
  if (!text) return false;
  const wanted = title.split(/<br\s*\/?>/i)
    .map((line) => line.replace(/<[^>]+>/g, '').replace(/&[a-z#0-9]+;/g, (e) => ENTITIES[e] ?? e));
  const lines = text.querySelectorAll('tspan.line');
  const holders = lines.length ? Array.from(lines) : [text];
  if (holders.length !== wanted.length) return false;
  const nodes = holders.map((holder) => {
    const found = [];
    const walk = document.createTreeWalker(holder, NodeFilter.SHOW_TEXT);
    // Plotly leaves empty text nodes around a line's text: only those with text count.
    while (walk.nextNode()) if (walk.currentNode.data) found.push(walk.currentNode);
    return found;
  });
  if (nodes.some((found, i) => found.length > 1 || (!found.length && wanted[i].trim()))) return false;
  nodes.forEach(([node], i) => { if (node && node.data !== wanted[i]) node.data = wanted[i]; });
  text.setAttribute('data-unformatted', title);
  return true;
}

// -- a heatmap's numbers, written into what Plotly drew ---------------------------------
// A running dL/dx changes a few cells a step; Plotly draws every cell's colour and label
// again for that (a task of 30 to 100 ms on a 16x16 map: Play's longest). Here the
// cells' colours are painted again into an image as Plotly paints them (plotly.js
// src/traces/heatmap/plot.js: a canvas the size of the plot, one rectangle a cell less
// the gaps, its colour from the trace's colour scale as components/colorscale/helpers.js
// interpolates it) and only the labels whose text changed get their text and colour.
// tests/test_browser_quick_draw.py checks the image and the labels against Plotly's own.
const XLINK = 'http://www.w3.org/1999/xlink';
const probe = document.createElement('canvas').getContext('2d');

// A CSS colour as [r, g, b, a], r, g and b 0 to 255 (the browser reads it).
function rgbaOf(color) {
  probe.fillStyle = '#000';
  probe.fillStyle = color;
  const read = probe.fillStyle;
  if (read.startsWith('#')) return [1, 3, 5].map((i) => parseInt(read.slice(i, i + 2), 16)).concat(1);
  const parts = read.match(/[\d.]+/g).map(Number);
  return parts.length === 3 ? parts.concat(1) : parts;
}

// The trace's colour of a value (Plotly's makeColorScaleFuncFromTrace: a clamped
// piecewise-linear scale over zmin..zmax, each component interpolated as d3 does,
// a * (1 - t) + b * t), with r, g and b rounded as the heatmap paints them; undefined
// for a cell with no number (left clear).
function colourScale(full) {
  let scale = full.colorscale;
  if (full.reversescale) scale = scale.slice().reverse().map(([at, color]) => [1 - at, color]);
  const low = full.zmin, high = full.zmax;
  const domain = scale.map(([at]) => low + at * (high - low));
  const range = scale.map(([, color]) => rgbaOf(color));
  return (value) => {
    if (value === null || value === undefined || !Number.isFinite(value)) return undefined;
    let j = 1;
    while (j < domain.length - 1 && domain[j] <= value) j += 1;
    const span = domain[j] - domain[j - 1] || 1 / (domain[j] - domain[j - 1]);
    const t = Math.max(0, Math.min(1, (value - domain[j - 1]) / span));
    const mixed = range[j - 1].map((a, i) => a * (1 - t) + range[j][i] * t);
    return [Math.round(mixed[0]), Math.round(mixed[1]), Math.round(mixed[2]), mixed[3]];
  };
}

// Plotly's label colour on a cell (Color.contrast, textfont colour "auto"): white on a
// dark cell, its dark grey on a light one, by WCAG contrast with either.
function luminance([r, g, b]) {
  const linear = (c) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}
const WHITE = 'rgb(255, 255, 255)', DARK = 'rgb(68, 68, 68)';
function labelColour(rgba) {
  const lum = luminance(rgba);
  const contrast = (other) => (Math.max(lum, other) + 0.05) / (Math.min(lum, other) + 0.05);
  return contrast(1) > contrast(luminance([68, 68, 68])) ? WHITE : DARK;
}

// The cell edges' pixels along an axis, as Plotly rounds and clips them into its image.
function edgePixels(axis, edges, start, size) {
  return Array.from(edges, Number).map((edge) => Math.min(Math.max(Math.round(axis.c2p(edge) - start), 0), size));
}

// Writes frame `z`, `text` (rows) into the heatmap trace `index` as drawn; false where
// it is not drawn as this knows how (no image, a smoothed or gapless fast image, labels
// to add or remove, a label of HTML, a colour bar or colour axis, an automatic range:
// Plotly must draw it).
function writeCells(plot, index, { z, text }) {
  const full = plot._fullData && plot._fullData.find((trace) => trace.index === index);
  const group = Array.from(plot.querySelectorAll('.hm')).find(
    (node) => node.__data__ && node.__data__[0] && node.__data__[0].trace.index === index);
  const image = group && group.querySelector('image');
  if (!image || !full || full.zsmooth || full.zauto || full._colorAx || full.showscale
      || !(full.xgap || full.ygap) || full.opacity !== 1) return false;
  const [xa, ya] = axesOf(plot, full);
  const cells = group.__data__[0];
  const left = Number(image.getAttribute('x')), top = Number(image.getAttribute('y'));
  const width = Number(image.getAttribute('width')), height = Number(image.getAttribute('height'));
  const xs = edgePixels(xa, cells.x, left, width), ys = edgePixels(ya, cells.y, top, height);
  const colourOf = colourScale(full);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const paint = canvas.getContext('2d');
  const xgap = full.xgap || 0, ygap = full.ygap || 0;
  for (let r = 0; r < z.length; r++) {
    const [y0, y1] = [ys[r], ys[r + 1]].sort((a, b) => a - b);
    for (let c = 0; c < z[r].length; c++) {
      const [x0, x1] = [xs[c], xs[c + 1]].sort((a, b) => a - b);
      const rgba = colourOf(z[r][c]);
      if (!rgba || x0 === x1 || y0 === y1) continue;
      paint.fillStyle = `rgba(${rgba.join(',')})`;
      paint.fillRect(x0 + Math.floor(xgap / 2), y0 + Math.floor(ygap / 2), x1 - x0 - xgap, y1 - y0 - ygap);
    }
  }
  if (!writeLabels(group, { full, cells, xa, ya, z, text, colourOf })) return false;
  image.setAttributeNS(XLINK, 'xlink:href', canvas.toDataURL('image/png'));
  cells.z = z.map((row) => row.map((v) => (v === null ? undefined : v)));
  if (cells.text) cells.text = text;
  return true;
}

// Cell centres along an axis (Plotly's xCenter, or halfway between edges), as plain
// numbers: a figure's x may come as a typed array (int8: 147 would read -109).
const centres = (edges, given) => (given ? Array.from(given, Number)
  : Array.from(edges, Number).slice(0, -1).map((edge, i) => (edge + Number(edges[i + 1])) / 2));

// The labels whose text changed get the new text and its colour; false where a label is
// to appear or go (Plotly draws none for an empty text) or is more than plain text.
function writeLabels(group, { full, cells, xa, ya, z, text, colourOf }) {
  if (!full.texttemplate) return true;
  if (full.texttemplate !== '%{text}' || (full.textfont.color && full.textfont.color !== 'auto')) return false;
  const byPlace = new Map();
  for (const label of group.querySelectorAll('g.heatmap-label text'))
    byPlace.set(label.__data__.x + ',' + label.__data__.y, label);
  const columns = centres(cells.x, cells.xCenter).map((x) => Math.round(xa.c2p(x)));
  const rows = centres(cells.y, cells.yCenter).map((y) => Math.round(ya.c2p(y)));
  const writes = [];
  for (let r = 0; r < text.length; r++) {
    for (let c = 0; c < text[r].length; c++) {
      const label = byPlace.get(columns[c] + ',' + rows[r]);
      const wanted = String(text[r][c] ?? '');
      const value = z[r][c] ?? undefined;
      if (label && label.textContent === wanted && label.__data__.z === value) continue;
      const rgba = colourOf(value);
      if (!label || !wanted || !rgba || /[<&]/.test(wanted) || label.childElementCount) return false;
      writes.push([label, wanted, labelColour(rgba), value]);
    }
  }
  for (const [label, wanted, colour, value] of writes) {
    label.textContent = wanted;
    label.setAttribute('data-unformatted', wanted);
    label.style.fill = colour;
    Object.assign(label.__data__, { t: wanted, z: value });
  }
  return true;
}

// Plotly's model of a chart brought to what quickDraw wrote, without a draw: the
// traces' x and y and the title. Plotly's own next draw of it (Streamlit's, a resize)
// draws the frame again (plotly_afterplot: labFrame names no data).
function keepModel(plot, { frame, index, updates, title }) {
  const data = plot.data.slice();
  for (const [name, update] of Object.entries(updates)) {
    data[index[name]] = { ...data[index[name]], ...update };
    const full = plot._fullData && plot._fullData.find((trace) => trace.index === index[name]);
    if (full) Object.assign(full, update, { _input: data[index[name]] });
  }
  plot.data = data;
  if (title !== null) {
    plot.layout = { ...plot.layout, title: { ...plot.layout.title, text: title } };
    if (plot._fullLayout && plot._fullLayout.title) plot._fullLayout.title.text = title;
  }
  plot.labFrame = { frame, data: null };
}

// Draws what moves of `frame` on the chart at once: "drawn" (all of it), "plotly" (its
// numbers or other traces still to draw: drawChart) or "missing" (no chart to draw on).
function quickDraw(chart, frame) {
  const plot = chartOf(chart.key);
  if (!drawable(plot)) return 'missing';
  const found = frameUpdates(chart, frame, plot);
  const drawn = drawnTraces(plot);
  let whole = Boolean(chart.traces || chart.line);
  for (const [name, update] of Object.entries(found.updates)) {
    const done = chart.cells && name === chart.cells.trace
      ? writeCells(plot, found.index[name], update)
      : drawn[name] && 'x' in update && moveDrawn(drawn[name], update, plot);
    if (!done) whole = true;
  }
  if (found.title !== null && found.title !== plot.layout.title.text
      && !writeTitle(plot, found.title)) whole = true;
  if (whole) return 'plotly';
  keepModel(plot, { frame, ...found });
  return 'drawn';
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

// The frame of the cell of y under the pointer (cell (r, c) is frame r * columns + c),
// from the chart's own axes; null off its cells.
function cellUnder(plot, { clientX, clientY }, player) {
  const layout = plot._fullLayout;
  if (!layout || !layout.xaxis || !layout.yaxis) return null;
  const { xaxis: xa, yaxis: ya } = layout;
  const box = plot.getBoundingClientRect();
  const col = Math.round(xa.p2c(clientX - box.left - xa._offset));
  const row = Math.round(ya.p2c(clientY - box.top - ya._offset));
  const { columns } = player.frames.pointer;
  const rows = Math.ceil(player.frames.count / columns);
  return row >= 0 && row < rows && col >= 0 && col < columns ? row * columns + col : null;
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
    // The pointer over a cell of y shows its window: the page's own pointer events
    // (Plotly's hover event comes at most every 50 ms and only after its hover label is
    // drawn), one a frame (Chromium sends pointermove once per animation frame, the
    // moves between coalesced into it: the last is where the pointer is now).
    // A finger dragged sideways across y follows too (up and down still scrolls the
    // page): the browser leaves a sideways drag to the page's pointer events.
    if (pointerOn(player, key)) plot.style.touchAction = 'pan-y';
    plot.addEventListener('pointermove', (event) => {
      if (!pointerOn(player, key)) return;
      const moves = event.getCoalescedEvents ? event.getCoalescedEvents() : [];
      const frame = cellUnder(plot, moves.length ? moves[moves.length - 1] : event, player);
      if (frame === player.preview) return;
      player.preview = frame;
      draw(player);
    });
    plot.addEventListener('pointerleave', () => {
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

// -- the step on a pick grid ---------------------------------------------------------------
// The chart pointed at (y) is a pick grid too (browser.js): its ringed cell, the one a
// screen reader hears on the grid, follows the step, and the step's cell is the one it
// holds selected. browser.js asks for the cell as it draws the ring; each draw tells it
// (followStep) to draw it again, with the twins, after the step's paint (the ring's
// place is read from the layout). The step, not a hover's preview; and Play moves it
// only when it stops or pauses: the cell under the focus renamed at every frame would be
// said at every frame, and Play says nothing until it stops.
labFrames.stepCell = (key) => {
  for (const player of Object.values(labFrames.players)) {
    const pointer = onPage(player) && pointerOn(player, key);
    const at = player.followed ?? player.position;
    if (pointer) return [Math.floor(at / pointer.columns), at % pointer.columns];
  }
  return null;
};

function followStep(player) {
  if (!player.frames.pointer || player.playing !== null) return;
  player.followed = player.position;
  window.poolingLabFollowStep?.(player.frames.pointer.key);
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

// -- one player: its frames, where it is, and the parts that show it -------------------
// speed: frames a second, the page's default (frame_player.DEFAULT_SPEED) until one is chosen.
function newPlayer(id) {
  return { id, frames: null, position: 0, preview: null, playing: null, speed: null,
           dirty: false, sent: 0, parts: {}, serverPosition: null, signature: null,
           linkTimer: null, asked: null, target: null, waited: 0, queued: 0 };
}

// Frames in blocks (a stream): more may come after the last frame the browser has.
function open(player) {
  const stream = player.frames.stream;
  return Boolean(stream && !stream.final);
}

// A request for more frames not answered by then is asked again (askAhead).
const ASK_AGAIN_MS = 3000;

// Ask the server once for the frames after the last one kept, when the position is
// within `ahead` frames of it. The position goes along in the same message: the server
// writes the link again as it runs, and must not write an old step into it.
function askAhead(player) {
  if (!open(player) || !player.ask) return;
  const count = player.frames.count;
  if (player.position < count - 1 - player.frames.stream.ahead || player.asked === count) return;
  player.asked = count;
  player.dirty = false;
  player.serverPosition = player.position;
  player.ask(count, player.position);
  // A request lost on a busy server (a rerun dropping the trigger) is asked again while
  // the player still waits at the end for it.
  clearTimeout(player.reask);
  player.reask = setTimeout(() => {
    const waiting = player.target !== null || player.playing !== null;
    if (player.frames.count !== count || !waiting) return;
    player.asked = null;
    askAhead(player);
  }, ASK_AGAIN_MS);
}

// The chart pointed at to follow a window: Plotly's hover and click on it need a whole
// redraw of it (a quick move of its traces loses the hover a click reads).
function pointedAt(player, chart) {
  return Boolean(pointerOn(player, chart.key));
}

function shown(player) {
  return player.preview !== null ? player.preview : player.position;
}

// Runs `callback` in a task of its own right after the next frame is painted: a
// message posted from that frame's animation callback comes once its style, layout and
// paint are done (requestIdleCallback would wait longer: this Chromium starts no idle
// period after a key the page handled).
const afterPaints = [];
const paintedChannel = new MessageChannel();
paintedChannel.port1.onmessage = () => { const next = afterPaints.shift(); if (next) next(); };

function afterPaint(callback) {
  requestAnimationFrame(() => {
    afterPaints.push(callback);
    paintedChannel.port2.postMessage(null);
  });
}

function draw(player) {
  if (!player.frames) return;
  const frame = shown(player);
  player.drawn = frame;
  const drawing = (player.drawing = (player.drawing || 0) + 1);
  // What moves is drawn in this task (quickDraw), with the controls and the words: the
  // next frame shows the step. After its paint, the text twins; then the charts it
  // could not write (whole traces, curves: Plotly draws the whole chart, 20 ms or more
  // each on a slow machine), one a frame, in the page's order. A newer frame drops what
  // is left of an older one.
  const whole = [];
  let missing = false;  // a chart not on the page yet, or not drawn by Plotly yet
  for (const chart of player.frames.charts) {
    const drawn = quickDraw(chart, frame);
    if (drawn === 'plotly') whole.push(chart);
    missing = drawn === 'missing' || missing;
  }
  for (const part of Object.values(player.parts)) part.render(player);
  let twins = true;
  player.queued = whole.length + 1;  // what is left to draw of this frame (labFrames.busy)
  const drawNext = () => {
    if (player.drawing !== drawing) return;
    if (twins) {
      twins = false;
      for (const chart of player.frames.charts) if (chart.twins) writeTwins(chart, frame);
      followStep(player);
    } else {
      const chart = whole.shift();
      missing = !drawChart(chart, frame, { pointed: pointedAt(player, chart) }) || missing;
    }
    player.queued = whole.length;
    if (whole.length) afterPaint(drawNext);
    else if (missing) drawLater(player);
  };
  afterPaint(drawNext);
}

// Charts Streamlit puts on the page after the player (another screen of a lecture's
// walk, a chart still loading Plotly) get the frame shown when they come: looked for
// every 100 ms for a few seconds after each draw that missed one.
const LOOKS_FOR_CHARTS = 50;

function drawLater(player) {
  if (player.later || (player.looked || 0) >= LOOKS_FOR_CHARTS) return;
  player.looked = (player.looked || 0) + 1;
  player.later = setTimeout(() => {
    player.later = null;
    hookCharts(player);
    draw(player);
  }, 100);
}

function writeLink(player) {
  // The address bar keeps the step at once (throttled: a held arrow key repeats fast);
  // the server is told when the page next talks to it, or when Play stops.
  clearTimeout(player.linkTimer);
  player.linkTimer = setTimeout(() => {
    try {
      const url = new URL(window.location.href);
      url.searchParams.set(player.frames.link, String(player.position));
      window.history.replaceState(window.history.state, '', url.toString());
    } catch { /* a browser refusing history writes: the server's link stays */ }
  }, 150);
}

function tellServer(player) {
  if (!player.dirty || !player.send) return;
  player.dirty = false;
  player.sent += 1;
  player.serverPosition = player.position;
  player.send({ position: player.position, seq: player.sent });
}

function moveTo(player, position, { tell = false } = {}) {
  const last = player.frames.count - 1;
  // Beyond the frames kept, while more may come: go as far as there are, and on when
  // they arrive.
  player.target = position > last && open(player) ? position : null;
  const next = Math.min(Math.max(position, 0), last);
  if (next !== player.position) {
    player.position = next;
    player.dirty = next !== player.serverPosition;
    writeLink(player);
    sayStep(player);
  }
  draw(player);
  askAhead(player);
  if (tell) tellServer(player);
}

function stop(player) {
  if (player.playing === null) return;
  clearInterval(player.playing);
  player.playing = null;
  writeLink(player);
  tellServer(player);  // one message when Play stops, none per frame
  draw(player);
  sayStep(player);
}

// -- what a screen reader hears: the step's sentence, in the page's live region --------
// The region is browser.js's (window.poolingLabSay: every page with a player mounts that
// component); Play says nothing until it stops.
function sayStep(player) {
  const words = player.frames.words[player.position];
  if (!words || player.playing !== null || !onPage(player)) return;
  window.poolingLabSay?.(words.sentence.split('**').join(''));
}

function play(player) {
  if (player.playing !== null) return stop(player);
  if (player.position >= player.frames.count - 1 && !open(player)) moveTo(player, 0);  // again
  player.playing = setInterval(() => {
    // A frame still being drawn (a busy machine): Play waits for it, a tick or a few.
    player.waited = labFrames.busy() && player.waited < 4 ? player.waited + 1 : 0;
    if (player.waited) return;
    if (player.position >= player.frames.count - 1) {
      if (open(player)) return askAhead(player);  // the next block is on its way: wait
      return stop(player);
    }
    player.position += 1;
    player.dirty = player.position !== player.serverPosition;
    draw(player);
    askAhead(player);
  }, 1000 / player.speed);
  draw(player);
}

function halt(player) {
  if (player.playing === null) return;
  clearInterval(player.playing);
  player.playing = null;
}

function step(player, delta) {
  halt(player);
  moveTo(player, player.position + delta);
}

function jump(player, to) {
  if ('to' in to) { halt(player); moveTo(player, to.to); } else step(player, to.delta);
}

// -- the parts: controls, words --------------------------------------------------------
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'text') node.textContent = value; else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}

// A sentence with **bold** parts, as text nodes: nothing in it is read as HTML.
function sentence(markdown) {
  const paragraph = el('p', { class: 'sentence' });
  markdown.split('**').forEach((piece, i) => {
    paragraph.append(i % 2 ? el('strong', { text: piece }) : document.createTextNode(piece));
  });
  return paragraph;
}

function controlsPart(root, player, words) {
  const labels = player.frames.labels;
  // A key hint is shown, not read: the button's aria-keyshortcuts says it (its name stays
  // its label: "Back", not "Back ←").
  const back = el('button', { type: 'button', 'data-act': 'back', title: labels.back_help,
                              'aria-keyshortcuts': 'ArrowLeft' },
                  labels.back, el('kbd', { text: '←', 'aria-hidden': 'true' }));
  const next = el('button', { type: 'button', 'data-act': 'next', title: labels.next_help,
                              'aria-keyshortcuts': 'ArrowRight' },
                  labels.next, el('kbd', { text: '→', 'aria-hidden': 'true' }));
  const playButton = el('button', { type: 'button', 'data-act': 'play', title: labels.play_help,
                                    'aria-keyshortcuts': 'P' });
  const speed = el('select', { 'aria-label': labels.speed });
  for (const perSecond of player.frames.speeds) {
    const option = el('option', { value: String(perSecond), text: perSecond + labels.per_second });
    if (perSecond === player.speed) option.selected = true;
    speed.append(option);
  }
  const slider = el('input', { type: 'range', min: '1', max: String(player.frames.count),
                               'aria-label': labels.slider, title: labels.slider_help });
  const count = el('span', { class: 'count' });
  const jumps = player.frames.jumps.map((to) => {
    const button = el('button', { type: 'button', 'data-act': 'jump', title: to.help }, to.label);
    if (to.key) {
      button.append(el('kbd', { text: keyLabel(to.key), 'aria-hidden': 'true' }));
      button.setAttribute('aria-keyshortcuts', to.key.replace('shift+', 'Shift+'));
    }
    button.onclick = () => jump(player, to);
    return [button, to];
  });
  back.onclick = () => step(player, -1);
  next.onclick = () => step(player, 1);
  playButton.onclick = () => play(player);
  speed.onchange = () => {
    player.speed = Number(speed.value);
    if (player.playing !== null) { stop(player); play(player); }
  };
  slider.oninput = () => step(player, Number(slider.value) - 1 - player.position);
  const speedLabel = el('label', {}, labels.speed + ' ', speed);
  // A projector's column is narrow and short: the buttons on a row, the slider and the
  // speed on the next (dL/dx's title counts the windows); a desk has room for the
  // speed in the buttons' row and a count in the slider's.
  const buttons = [back, next, ...jumps.map(([button]) => button), playButton];
  const rows = root.classList.contains('lecture')
    ? [el('div', { class: 'row' }, ...buttons),
       el('div', { class: 'row' }, slider, speed)]
    : [el('div', { class: 'row' }, ...buttons, speedLabel),
       el('label', { class: 'slide' }, labels.slider, slider, count)];
  root.replaceChildren(...rows, words);
  return (p) => {
    const at = shown(p);
    const end = p.position >= p.frames.count - 1 && !open(p);
    const focused = root.getRootNode().activeElement;
    back.disabled = p.position <= 0;
    next.disabled = end;
    for (const [button, to] of jumps)
      button.disabled = 'to' in to ? p.position === to.to : (to.delta > 0 ? end : p.position <= 0);
    // A button disabled under the focus (Back at the first window) would drop it.
    if (focused?.disabled && buttons.includes(focused)) buttons.find((b) => !b.disabled)?.focus();
    playButton.replaceChildren(el('span', { 'aria-hidden': 'true', text: p.playing !== null ? '❚❚ ' : '▶ ' }),
                               p.playing !== null ? labels.pause : labels.play,
                               el('kbd', { text: 'P', 'aria-hidden': 'true' }));
    slider.value = String(p.position + 1);
    // Frames numbered from `first` (1: "window 1 of 9"; 0: "0 steps taken" is the first).
    const first = p.frames.first ?? 1;
    slider.setAttribute('aria-valuetext', String(p.position + first));
    count.textContent = labels.count.replace('{n}', at + first)
      .replace('{of}', p.frames.count - 1 + first);
  };
}

function wordsPart(root) {
  return (p) => {
    const words = p.frames.words[shown(p)];
    const line = el('p', { class: 'line' + (words.aside ? ' aside' : ''), text: words.line });
    const parts = [sentence(words.sentence), line];
    const note = words.note;
    if (note) parts.push(el('p', { class: 'note ' + note.kind, text: note.text }));
    root.replaceChildren(...parts);
  };
}

function mountPart(player, part, root, lecture) {
  const box = el('div', { class: 'lab-frames' + (lecture ? ' lecture' : '') });
  // The root also holds Streamlit's <style> of this component: only our box is replaced.
  for (const old of root.querySelectorAll(':scope > .lab-frames')) old.remove();
  root.append(box);
  let render;
  if (part === 'words') render = wordsPart(box);
  else if (player.frames.count < 2) {
    // One frame: its note instead of the controls; the words with it only where no
    // words part of their own shows them (part "all"), never twice on the page.
    box.append(el('p', { text: player.frames.labels.single }));
    if (part === 'controls') render = () => {};
    else {
      const words = el('div');
      box.append(words);
      render = wordsPart(words);
    }
  } else if (part === 'controls') render = controlsPart(box, player, el('div'));
  else {
    const words = el('div');
    const renderControls = controlsPart(box, player, words);
    const renderWords = wordsPart(words);
    render = (p) => { renderControls(p); renderWords(p); };
  }
  player.parts[part] = { render };
}

// -- keys, and telling the server before the page talks to it --------------------------
// "shift+ArrowRight" as a person reads it on a key cap.
function keyLabel(key) {
  return key.replace('shift+', 'Shift ').replace('ArrowRight', '→').replace('ArrowLeft', '←');
}

function keyName(event) {
  return (event.shiftKey ? 'shift+' : '') + event.key;
}

const OWN_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'p', 'P', 'Shift', 'Control', 'Alt', 'Meta']);

// A key a player acts on (or a modifier on its own): the page's server hears nothing.
function playersKey(event) {
  if (OWN_KEYS.has(event.key) && !(event.altKey || event.ctrlKey || event.metaKey)) return true;
  return Object.values(labFrames.players).some(
    (p) => p.frames && p.frames.jumps.some((j) => j.key === keyName(event)));
}
function activePlayer() {
  return Object.values(labFrames.players).find((p) => p.frames && onPage(p));
}

function ours(target) {
  if (!(target instanceof Element)) return false;
  if (target.closest('.lab-frames')) return true;
  return Object.values(labFrames.players).some((p) => p.frames && p.frames.charts.some(
    (chart) => target.closest('.st-key-' + CSS.escape(chart.key))));
}

function install() {
  document.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    const player = activePlayer();
    if (!player || player.frames.count < 2) return;
    const target = event.target instanceof Element ? event.target : null;
    if (target && target.closest(EDITABLE) && !target.closest('.lab-frames')) return;
    if (target && target.closest('.lab-frames input, .lab-frames select')) return;
    const to = player.frames.jumps.find((j) => j.key === keyName(event));
    if (to) jump(player, to);
    else if (event.key in KEYS && !event.shiftKey) step(player, KEYS[event.key]);
    else if (event.key === 'p' || event.key === 'P') play(player);
    else return;
    event.preventDefault();
    event.stopPropagation();
  });
  // Anything else the page sends the server carries the step along, in the same message.
  // A key is sent on by Streamlit (a button's shortcut, Page Down for a lecture's walk)
  // unless a player takes it or it is typed into a field, where only Enter and Tab send.
  const before = (event) => {
    if (ours(event.target)) return;
    if (event.type === 'keydown') {
      const field = event.target instanceof Element && event.target.closest(EDITABLE);
      if (field ? !['Enter', 'Tab'].includes(event.key) : playersKey(event)) return;
    }
    // Focus leaving an input commits it; leaving the page's body (clicked) sends nothing.
    if (event.type === 'focusout' && !(event.target instanceof Element
                                       && event.target.closest(EDITABLE))) return;
    for (const player of Object.values(labFrames.players)) tellServer(player);
  };
  for (const type of ['click', 'change', 'keydown', 'pointerup', 'focusout'])
    document.addEventListener(type, before, true);
  watchCharts();
  labFrames.installed = true;
}

export default function ({ data, setStateValue, setTriggerValue, parentElement }) {
  if (!labFrames.installed) install();
  const player = (labFrames.players[data.id] ||= newPlayer(data.id));
  player.roots ||= {};
  player.roots[data.part] = parentElement;
  if (data.frames) {
    player.send = (value) => setStateValue('position', value);
    player.ask = (count, position) => setTriggerValue('more', { count, position });
    if (data.frames.signature !== player.signature) {
      // The next block of the same stream: the frames grow, the place and Play stay.
      const grown = player.frames && player.frames.stream && data.frames.stream
        && player.frames.stream.id === data.frames.stream.id
        && data.frames.count >= player.frames.count;
      if (!grown) {
        halt(player);
        player.preview = null;
        player.serverPosition = null;
        player.target = null;
      }
      player.frames = data.frames;
      player.speed ??= data.frames.speed;
      player.signature = data.frames.signature;
      player.asked = null;
      if (grown && player.target !== null) moveTo(player, player.target);
    }
    if (data.position !== player.serverPosition) {
      player.position = Math.min(data.position, player.frames.count - 1);
      player.serverPosition = data.position;
      player.dirty = false;
    }
    // The run just wrote the link with the step the server knew: the browser's is on.
    if (player.dirty) writeLink(player);
  }
  for (const [part, root] of Object.entries(player.roots)) {
    if (player.frames && (!player.parts[part] || player.parts[part].root !== root
                          || player.parts[part].signature !== player.signature)) {
      mountPart(player, part, root, data.lecture);
      player.parts[part].root = root;
      player.parts[part].signature = player.signature;
    }
  }
  if (!player.frames) return;
  player.looked = 0;  // a run of the page may bring charts: look for them again
  hookCharts(player);
  draw(player);
  labFrames.ready = true;
}
