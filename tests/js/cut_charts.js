// Charts cut off: every Plotly chart of the page, compared with the viewport and with
// every ancestor whose overflow-x is not `visible` (a box that clips or scrolls what
// sticks out of it). A chart sticking out of one of them by more than a rounding is
// cut there, by that many px. `ownScroller`: a wide map may scroll inside the box of
// its own that ui/shared/chart.py gives a figure with its own width (.st-key-scroll_*
// holding .st-key-wide_*, the chart inside); past that box the box itself is measured,
// which must be whole. Returns [{chart, by, px}, ...], the biggest cut of each chart.
(ownScroller) => {
  const ROUNDING_PX = 1;
  const cuts = [];
  const nameOf = (element) => {
    const keyed = Array.from(element.classList).find((c) => c.startsWith('st-key-'));
    return keyed || element.getAttribute('data-testid') || element.tagName.toLowerCase();
  };
  const titleOf = (plot) => {
    const raw = plot.layout && plot.layout.title && plot.layout.title.text;
    const text = (raw || '').replace(/<br>/g, ' ').replace(/<[^>]+>/g, '').trim();
    const keyed = plot.closest('[class*="st-key-"]');
    return text || (keyed ? nameOf(keyed) : 'untitled chart');
  };
  // A chart's own scroller: a box scrolling sideways whose key says it is the scroller
  // chart.py made, and whose only child is the wide box the chart sits in.
  const isOwnScroller = (box, plot) => {
    const scroller = Array.from(box.classList).find((c) => c.startsWith('st-key-scroll_'));
    if (!scroller) return false;
    const wide = box.querySelector('[class*="st-key-wide_"]');
    return !!wide && wide.contains(plot) && wide.querySelectorAll('.js-plotly-plot').length === 1;
  };
  // The part of the page an element shows: its padding box (scroll bars left out).
  const clipOf = (element) => {
    const box = element.getBoundingClientRect();
    const left = box.left + element.clientLeft;
    return { left, right: left + element.clientWidth };
  };
  for (const plot of document.querySelectorAll('[data-testid=stMain] .js-plotly-plot')) {
    // Not drawn: a folded part (a closed expander's inside keeps the boxes of its last
    // layout, never redone while it is closed, and is laid out again when opened).
    if (!plot.getClientRects().length || !plot.checkVisibility()) continue;
    let drawn = { left: Infinity, right: -Infinity };
    for (const part of [plot, ...plot.querySelectorAll('.main-svg')]) {
      const box = part.getBoundingClientRect();
      drawn = { left: Math.min(drawn.left, box.left), right: Math.max(drawn.right, box.right) };
    }
    const title = titleOf(plot);
    let worst = { chart: title, by: null, px: 0 };
    const compare = (clip, by) => {
      const px = Math.max(clip.left - drawn.left, drawn.right - clip.right);
      if (px > worst.px) worst = { chart: title, by, px: Math.round(px) };
    };
    for (let box = plot.parentElement; box && box !== document.documentElement;
      box = box.parentElement) {
      if (getComputedStyle(box).overflowX === 'visible') continue;
      if (ownScroller && isOwnScroller(box, plot)) {
        drawn = box.getBoundingClientRect(); // scrolled into sight: the scroller must be whole
        continue;
      }
      compare(clipOf(box), nameOf(box));
    }
    compare({ left: 0, right: window.innerWidth }, 'viewport');
    if (worst.px > ROUNDING_PX) cuts.push(worst);
  }
  return cuts;
}
