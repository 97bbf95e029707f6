// Every heatmap that writes numbers in its cells, checked against where Plotly drew
// them. For each such trace: the title of its chart, how many cells hold a value (a
// finite z; J leaves its zeros blank), how many labels were drawn (`g.hm` groups hold
// one trace's `.heatmap-label text` elements, bound to its calcdata; a trace with no
// group on the page drew none), the smallest
// font size drawn, each label whose box is not inside its own cell (the cell's
// pixel box from the axes' c2p plus the plot area's offset, less the gap between
// cells), each label whose digits a filled marker or a line covers, and how many filled
// markers the chart drew (none found would make that check say nothing). A list, one
// entry per trace.
() => {
  const SLACK_PX = 0.5, INK_TOP_EM = 0.2, INK_BOTTOM_EM = 0.2, BEARING_PX = 1;
  // A trace's x and y axes in the full layout ('x2' is layout.xaxis2).
  const axesOf = (layout, trace) => [
    layout[trace.xaxis === 'x' ? 'xaxis' : 'xaxis' + trace.xaxis.slice(1)],
    layout[trace.yaxis === 'y' ? 'yaxis' : 'yaxis' + trace.yaxis.slice(1)]];
  // The filled markers a chart's scatter traces draw (an arrow head, a winner's star),
  // each with its trace's name. Open ones are left out (a hollow mark is drawn around
  // what it marks; a winner's frame is a line, checked with the lines), and so are
  // transparent ones (click targets), which draw nothing.
  const visibleMarks = (plot) => {
    const marks = [];
    for (const trace of plot.querySelectorAll('.scatterlayer .trace')) {
      const name = trace.__data__ && trace.__data__[0] && trace.__data__[0].trace
        && trace.__data__[0].trace.name;
      if (parseFloat(getComputedStyle(trace).opacity) < 0.05) continue;
      for (const point of trace.querySelectorAll('path.point')) {
        const look = getComputedStyle(point);
        if (parseFloat(look.opacity) < 0.05 || look.fill === 'none'
            || parseFloat(look.fillOpacity) < 0.05) continue;
        const r = point.getBoundingClientRect();
        if (r.width && r.height)
          marks.push({trace: name, left: r.left, right: r.right, top: r.top, bottom: r.bottom});
      }
    }
    return marks;
  };
  // The lines of a chart's scatter traces (a window's outline and its halo, a route),
  // each segment's box with its line's width: all run along the cells' edges.
  const visibleLines = (plot, box) => {
    const lines = [], layout = plot._fullLayout;
    for (const trace of plot._fullData || []) {
      if (trace.type !== 'scatter' || !String(trace.mode).includes('lines')
          || trace.visible !== true || trace.opacity < 0.05) continue;
      const [xa, ya] = axesOf(layout, trace);
      const half = ((trace.line && trace.line.width) || 0) / 2;
      const px = (x) => box.left + xa._offset + xa.c2p(x);
      const py = (y) => box.top + ya._offset + ya.c2p(y);
      for (let i = 0; i + 1 < trace.x.length; i++) {
        const [x0, y0, x1, y1] = [trace.x[i], trace.y[i], trace.x[i + 1], trace.y[i + 1]];
        if ([x0, y0, x1, y1].some((v) => v === null || v === undefined)) continue;
        lines.push({trace: trace.name,
                    left: Math.min(px(x0), px(x1)) - half, right: Math.max(px(x0), px(x1)) + half,
                    top: Math.min(py(y0), py(y1)) - half, bottom: Math.max(py(y0), py(y1)) + half});
      }
    }
    return lines;
  };
  const found = [];
  for (const plot of document.querySelectorAll('.js-plotly-plot')) {
    const layout = plot._fullLayout;
    if (!layout) continue;
    const given = plot.layout && plot.layout.title && plot.layout.title.text;
    const title = (given || '').replace(/<br>/g, ' ').replace(/<[^>]+>/g, '');
    const box = plot.getBoundingClientRect();
    const marks = visibleMarks(plot), over = marks.concat(visibleLines(plot, box));
    // Every heatmap trace Plotly holds, drawn or not: a trace whose group is missing
    // from the page (a layer removed) counts as no label drawn.
    const groups = new Map();
    for (const group of plot.querySelectorAll('g.hm')) {
      const drawn = group.__data__ && group.__data__[0] && group.__data__[0].trace;
      if (drawn) groups.set(drawn.uid, group);
    }
    for (const trace of plot._fullData || []) {
      if (trace.type !== 'heatmap' || !trace.texttemplate || trace.visible !== true) continue;
      const group = groups.get(trace.uid);
      const [xa, ya] = axesOf(layout, trace);
      const rows = trace.z.length, cols = trace.z[0].length;
      const xs = Array.from({length: cols}, (_, i) =>
        xa.type === 'category' ? i : Number(trace.x ? trace.x[i] : i));
      const ys = Array.from({length: rows}, (_, i) =>
        ya.type === 'category' ? i : Number(trace.y ? trace.y[i] : i));
      const half = Math.abs(xa.c2p(1) - xa.c2p(0)) / 2;
      const halfY = Math.abs(ya.c2p(1) - ya.c2p(0)) / 2;
      let expected = 0;
      for (let r = 0; r < rows; r++)
        for (let c = 0; c < cols; c++) {
          const z = trace.z[r][c];
          if (z !== null && Number.isFinite(Number(z)) && !(trace.name === 'J' && Number(z) === 0))
            expected++;
        }
      const labels = Array.from(group ? group.querySelectorAll('.heatmap-label text') : [])
        .filter(t => t.textContent !== '');
      const outside = [], covered = [];
      let smallest = Infinity;
      for (const label of labels) {
        const font = parseFloat(getComputedStyle(label).fontSize);
        smallest = Math.min(smallest, font);
        const r = label.getBoundingClientRect();
        // The digits' own box: a text box runs from the font's ascent, above a digit's
        // top, to its descent, under the baseline, and holds each end's side bearing.
        const inkTop = r.top + INK_TOP_EM * font, inkBottom = r.bottom - INK_BOTTOM_EM * font;
        const inkLeft = r.left + BEARING_PX, inkRight = r.right - BEARING_PX;
        for (const mark of over)
          if (mark.left < inkRight - SLACK_PX && mark.right > inkLeft + SLACK_PX
              && mark.top < inkBottom - SLACK_PX && mark.bottom > inkTop + SLACK_PX)
            covered.push(`${label.textContent} under a mark of ${mark.trace}`);
        const cx = (r.left + r.right) / 2 - box.left - xa._offset;
        const cy = (r.top + r.bottom) / 2 - box.top - ya._offset;
        let col = 0, row = 0;
        for (let c = 1; c < cols; c++)
          if (Math.abs(xa.c2p(xs[c]) - cx) < Math.abs(xa.c2p(xs[col]) - cx)) col = c;
        for (let q = 1; q < rows; q++)
          if (Math.abs(ya.c2p(ys[q]) - cy) < Math.abs(ya.c2p(ys[row]) - cy)) row = q;
        const left = box.left + xa._offset + xa.c2p(xs[col]) - half + (trace.xgap || 0) / 2;
        const right = box.left + xa._offset + xa.c2p(xs[col]) + half - (trace.xgap || 0) / 2;
        const top = box.top + ya._offset + ya.c2p(ys[row]) - halfY + (trace.ygap || 0) / 2;
        const bottom = box.top + ya._offset + ya.c2p(ys[row]) + halfY - (trace.ygap || 0) / 2;
        if (r.left < left - SLACK_PX || r.right > right + SLACK_PX
            || r.top < top - SLACK_PX || r.bottom > bottom + SLACK_PX)
          outside.push(`${label.textContent} at ${row},${col}: ` +
            `${r.width.toFixed(1)}x${r.height.toFixed(1)} in ${(right - left).toFixed(1)}` +
            `x${(bottom - top).toFixed(1)}`);
      }
      found.push({title, trace: trace.name, expected, drawn: labels.length,
                  smallest: labels.length ? smallest : null, outside, covered,
                  marks: marks.length,
                  width: Math.round(box.width)});
    }
  }
  return found;
}
