// The lab's browser component's script (ui/shared/browser.py), an ES module: its default
// export is called on every run of the page with the component's data.
const PREFIX = 'pooling-lab:';
const ARROWS = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'];

// maxChars: the longest text kept (browser.MAX_STORED_CHARS); longer is not sent.
function read(namespace, maxChars) {
  try {
    const text = window.localStorage.getItem(PREFIX + namespace);
    return text !== null && text.length <= maxChars ? text : null;
  } catch {
    return null;  // storage switched off: nothing comes back
  }
}

function write(namespace, text) {
  try {
    window.localStorage.setItem(PREFIX + namespace, text);
  } catch {
    // full or switched off: the work stays for this session only
  }
}

// A cookie the page keeps (browser.keep_cookie: its name and value need no quoting), sent
// with the next page's connection; written again once a page load, so it lasts maxAgeS
// after the last page that kept it.
function keepCookie(lab, name, value, maxAgeS) {
  if (lab.cookies[name] === value) return;
  lab.cookies[name] = value;
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${value}; Path=/; Max-Age=${maxAgeS}; SameSite=Strict${secure}`;
}

const boxOf = (key) => document.querySelector('.st-key-' + CSS.escape(key));

// The listed radio group holding `node`, with its element container, or null.
function groupOf(lab, node) {
  if (!(node instanceof Element)) return null;
  for (const group of lab.groups) {
    const box = node.closest('.st-key-' + CSS.escape(group.key));
    if (box) return { group, box };
  }
  return null;
}

const chosen = (box) => !!box.querySelector('input[type="radio"]:checked');

function leave(box) {
  const active = document.activeElement;
  if (active && box.contains(active) && chosen(box)) active.blur();
}

// -- The page's one polite live region ------------------------------------------------
// Made once, outside Streamlit's tree (a node Streamlit redraws would be a new region,
// which screen readers do not read). frames.js says its step's sentence in it through
// window.poolingLabSay.
const LIVE_ID = 'pooling-lab-live';
const HIDDEN = 'position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;'
  + 'clip-path:inset(50%);white-space:nowrap;';

// The region sits in a closed shadow root: screen readers read it as any other node,
// but a page's text search (a test's get_by_text) does not find the same words twice,
// once on screen and once in the region. Kept on window: a test reads it there.
// Made when the script is installed (install), empty, not on the first saying: a
// region added to the page with its text already in it is not read by every screen
// reader (they watch the regions they already know of).
function liveRegion() {
  if (window.poolingLabLive?.isConnected) return window.poolingLabLive;
  const host = Object.assign(document.createElement('div'), { id: LIVE_ID });
  host.setAttribute('style', HIDDEN);
  const region = document.createElement('div');
  region.setAttribute('role', 'status');
  region.setAttribute('aria-live', 'polite');
  host.attachShadow({ mode: 'closed' }).append(region);
  document.body.append(host);
  window.poolingLabLive = region;
  return region;
}

function say(text) {
  liveRegion().textContent = text;
}
window.poolingLabSay = say;

// -- Text a fragment redraws, said when it changes ------------------------------------
// browser.says_changes(name) draws a container keyed SAY_PREFIX + name (its CSS class
// st-key- and that key). A fragment redraws it without a full run, so no data reaches
// this script then: the page's mutations are watched instead. A container's visible
// text is said when it changed since last looked at, and only once nothing in it is
// stale (Streamlit marks what a run in progress has not drawn yet: data-stale). Not
// on first sight: a page load (or a new name: a new round's count) says nothing of
// what is simply there. Never the same text twice in a row. At most one saying every
// lab.sayGapMs: a change within the gap waits for its end, and the latest text of
// every container changed by then is said, once (a count that ticks every second is
// said as it stands, not tick by tick). The memory is by name for the document's
// life: a container drawn again after it left the page compares with what it said.
// The containers' class: Streamlit's st-key- and browser.SAY_PREFIX, sent with the data
// (its one home is the Python that keys them).
const sayClass = (lab) => 'st-key-' + lab.sayPrefix;

function sayName(lab, box) {
  return [...box.classList].find((name) => name.startsWith(sayClass(lab))) ?? null;
}

function sayNow(lab) {
  lab.sayTimer = null;
  const texts = [];
  for (const [name, entry] of lab.sayings) {  // in the order first seen
    if (entry.seen === entry.said || !entry.seen) continue;
    entry.said = entry.seen;
    // A container gone from the page (the round closed while its count waited for the
    // gap) says nothing: its text is no longer true.
    if (document.querySelector('.' + CSS.escape(name))) texts.push(entry.seen);
  }
  if (!texts.length) return;
  lab.sayAt = performance.now();
  say(texts.join(' '));
}

// A full run's sentence was said: what the containers waited to say is older than it.
function quiet(lab) {
  clearTimeout(lab.sayTimer);
  lab.sayTimer = null;
  for (const entry of lab.sayings.values()) entry.said = entry.seen;
  lab.sayAt = performance.now();
}

function lookForChanges(lab) {
  let changed = false;
  if (!lab.sayPrefix) return;  // no data yet
  for (const box of document.querySelectorAll(`[class*="${sayClass(lab)}"]`)) {
    const name = sayName(lab, box);
    if (!name || box.closest('[data-stale="true"]') || box.querySelector('[data-stale="true"]')) {
      continue;  // drawn in full later: looked at again then
    }
    const text = box.innerText.trim();
    const entry = lab.sayings.get(name);
    if (!entry) {
      lab.sayings.set(name, { seen: text, said: text });  // first sight
    } else if (text !== entry.seen) {
      entry.seen = text;
      changed = true;
    }
  }
  if (!changed || lab.sayTimer !== null) return;
  const wait = lab.sayAt === null ? 0 : lab.sayAt + lab.sayGapMs - performance.now();
  if (wait <= 0) sayNow(lab);
  else lab.sayTimer = setTimeout(() => sayNow(lab), wait);
}

// -- A map's picture out of the accessibility tree, where its text twin stands -------
// ui/shared/twin.py puts a map's text twin (class lab-twin) before its chart, naming the
// chart's key (data-chart); a screen reader would read the chart as a run of digits and
// tick labels, so the chart is hidden from it (it holds nothing that takes focus: no
// tool bar).
const CHART = '[data-testid="stPlotlyChart"]';

// Every chart under the twin's key: while a run redraws the page, the key's old box and
// its new one can both be there, and hiding the first alone left the drawn one in the
// tree (a likely cause of one loaded CI run that saw a second vote's share map
// unhidden for 30 s; not reproduced alone).
function chartsOf(twin) {
  const key = twin.getAttribute('data-chart');
  if (!key) return [];
  const boxes = document.querySelectorAll('.st-key-' + CSS.escape(key));
  return Array.from(boxes, (box) => (box.matches(CHART) ? box : box.querySelector(CHART)))
    .filter(Boolean);
}

function hideTwinnedCharts(lab) {
  for (const twin of document.querySelectorAll('.lab-twin[data-chart]')) {
    for (const chart of chartsOf(twin)) hideChart(lab, chart, twin);
  }
}

function hideChart(lab, chart, twin) {
  const picks = pickPlotIn(chart);
  // A chart that takes picks is a grid the keyboard reaches (below): only its picture
  // is hidden, never the element holding the focus.
  const hidden = picks ? picks.plot : chart;
  if (picks) {
    chart.removeAttribute('aria-hidden');
    keyboardGrid(lab, picks, twin);
  }
  if (hidden.getAttribute('aria-hidden') !== 'true') hidden.setAttribute('aria-hidden', 'true');
}

// -- A box that scrolls is a tab stop ------------------------------------------------
// A code block (st.code: its <pre> scrolls, in a box of fixed height or sideways) and a
// formula wider than its column (a KaTeX display) scroll, and a keyboard scrolls only
// what has the focus (WCAG 2.1.1): while one overflows its box, it is a tab stop, a
// region named by what it holds. Its size is watched: it is looked at again when it
// changes (a tab shown, a phone turned, a code block redrawn longer).
const SCROLLERS = [['[data-testid="stCode"] pre', 'Code'], ['.katex-display', 'Formula']];
const SCROLLS = ['auto', 'scroll'];

function scrolls(node) {
  const style = getComputedStyle(node);
  return (SCROLLS.includes(style.overflowX) && node.scrollWidth > node.clientWidth + 1)
    || (SCROLLS.includes(style.overflowY) && node.scrollHeight > node.clientHeight + 1);
}

function markScroller(node, name) {
  if (scrolls(node)) {
    if (node.getAttribute('tabindex') === '0') return;
    node.setAttribute('tabindex', '0');
    node.setAttribute('role', 'region');
    node.setAttribute('aria-label', name);
  } else if (node.hasAttribute('tabindex')) {
    for (const attribute of ['tabindex', 'role', 'aria-label']) node.removeAttribute(attribute);
  }
}

function watchScrollers(lab) {
  lab.scrollSizes ||= new ResizeObserver((entries) => {
    for (const { target } of entries) markScroller(target, target.dataset.labScroller);
  });
  for (const [selector, name] of SCROLLERS) {
    for (const node of document.querySelectorAll(selector)) {
      if (node.dataset.labScroller) {
        markScroller(node, name);  // same size, maybe other content
        continue;
      }
      node.dataset.labScroller = name;
      lab.scrollSizes.observe(node);  // its first report comes at once
    }
  }
}

// -- A button's shortcut is not part of its name --------------------------------------
// Streamlit writes a button's shortcut (st.button(shortcut=...)) as a <kbd> labelled
// "Shortcut →" inside it, so the button was read "Next step Shortcut →". The key goes
// to the button's aria-keyshortcuts instead, and the <kbd> out of the tree (its key
// still shows).
const KEY_NAMES = { '→': 'ArrowRight', '←': 'ArrowLeft', '↑': 'ArrowUp', '↓': 'ArrowDown' };

function nameShortcuts() {
  for (const hint of document.querySelectorAll('button kbd:not([aria-hidden])')) {
    const shown = hint.textContent.trim();
    hint.setAttribute('aria-hidden', 'true');
    hint.closest('button')?.setAttribute('aria-keyshortcuts', KEY_NAMES[shown] ?? shown);
  }
}

// -- A radio option is read once ----------------------------------------------------
// Streamlit names a radio by its label's text and leaves that text in the tree beside
// it, so each option was read twice (the radio, then its paragraph). The radio takes
// the text as its name; the paragraph, still shown and still a click target, leaves
// the tree.
function nameRadios() {
  for (const option of document.querySelectorAll('[data-testid="stRadioOption"]')) {
    const input = option.querySelector('input[type="radio"]');
    const text = option.querySelector('[data-testid="stMarkdownContainer"]');
    if (!input || !text) continue;
    const name = text.textContent.trim();
    if (input.getAttribute('aria-label') !== name) input.setAttribute('aria-label', name);
    if (text.getAttribute('aria-hidden') !== 'true') text.setAttribute('aria-hidden', 'true');
  }
}

// -- A slider is named once ---------------------------------------------------------
// Streamlit labels a slider's input both by aria-label and by aria-labelledby (itself
// and its group, each "Level"): it was read "Level Level". The aria-label stays; the
// value shown over the thumb is its aria-valuetext already, so that text leaves the tree.
function nameSliders() {
  for (const input of document.querySelectorAll('[data-testid="stSlider"] input[type="range"]')) {
    if (input.hasAttribute('aria-label')) input.removeAttribute('aria-labelledby');
  }
  for (const value of document.querySelectorAll('[data-testid="stSliderThumbValue"]:not([aria-hidden])')) {
    value.setAttribute('aria-hidden', 'true');
  }
}

// -- The focus moved on purpose (browser.focus_on) ------------------------------------
// After an action that redrew the page, to the element keyed so once it is drawn and
// nothing in it is stale: its first control, else its first heading, else the element
// itself (made focusable by script only). A Streamlit alert in it is no longer a live
// region: the focus reads it, once.
const FOCUSABLE = 'button:not(:disabled), input:not(:disabled), textarea, select, a[href], '
  + '[tabindex="0"]';
const HEADING = 'h1, h2, h3, h4, h5, h6';
const FOCUS_WAIT_MS = 50;
const FOCUS_TRIES = 200;  // 10 s: a slow run's element still gets it

function focusWhenDrawn(lab, move, tries) {
  if (move.count !== lab.focusCount) return;  // a later request came
  const box = boxOf(move.key);
  const stale = !box || box.closest('[data-stale="true"]') || box.querySelector('[data-stale="true"]');
  if (stale) {
    if (tries > 0) setTimeout(() => focusWhenDrawn(lab, move, tries - 1), FOCUS_WAIT_MS);
    return;
  }
  const active = document.activeElement;
  if (move.if_lost && active && active !== document.body) return;  // the viewer is somewhere
  for (const alert of box.querySelectorAll('[data-testid="stAlertContainer"][role]')) {
    alert.removeAttribute('role');
  }
  const target = box.querySelector(FOCUSABLE) ?? box.querySelector(HEADING) ?? box;
  if (!target.matches(FOCUSABLE)) target.setAttribute('tabindex', '-1');
  target.focus();
}

// -- An alert the page says another way is no live region (browser.quiet_alerts) -----
// Streamlit's alerts are live regions (role alert or status), so one the page also says
// through its own live region or the focus was read twice. In a container keyed
// lab_quiet_<name>, an alert loses its role as it is drawn: from the mutation
// observer's callback, which runs before the browser updates its accessibility tree.
const QUIET_ALERTS = '[class*="st-key-lab_quiet_"] [data-testid="stAlertContainer"][role]';

function quietAlerts() {
  for (const alert of document.querySelectorAll(QUIET_ALERTS)) alert.removeAttribute('role');
}

// -- A folded menu is out of the tab order ---------------------------------------------
// On a phone (or wherever the menu is folded) Streamlit slides the menu off screen but
// leaves its links in the tab order: eleven stops, unseen, before the page's content.
// Folded (data-collapsed="true"), it is inert: no focus, out of the tree; unfolded, as ever.
function inertFoldedMenu() {
  const menu = document.querySelector('[data-testid="stSidebar"]');
  if (!menu) return;
  const folded = menu.getAttribute('data-collapsed') === 'true';
  if (folded !== menu.hasAttribute('inert')) menu.toggleAttribute('inert', folded);
}

const SCRIPT_STATE = 'data-test-script-state';  // on stApp: running or notRunning (settlePick)

// -- A formula's spoken form stands for its MathML (ui/shared/formula.py) -------------
// The page writes a formula's words (class lab-spoken) in the element right after the
// formula's: KaTeX's MathML there leaves the tree, so the formula is read once, in words.
function hideSpokenMath() {
  for (const words of document.querySelectorAll('.lab-spoken')) {
    const drawn = words.closest('[data-testid="stElementContainer"]')?.previousElementSibling;
    for (const math of drawn?.querySelectorAll('.katex-mathml:not([aria-hidden])') ?? []) {
      math.setAttribute('aria-hidden', 'true');
    }
  }
}

// -- One watch of the page, for the twins' charts and the said containers -----------
// What is on the page when the component first mounts (it mounts last in a run: a page
// may have drawn all it draws before), then each change, looked at once an animation
// frame: a node added or gone may be a chart to hide or a container to say; a text or
// a data-stale change only a container's (the charts' layout is not read for it).
function watchPage(lab) {
  let queued = null;  // null, or whether the charts are to be looked at too
  const look = (charts) => {
    if (queued !== null) { queued ||= charts; return; }
    queued = charts;
    requestAnimationFrame(() => {
      if (queued) {
        hideTwinnedCharts(lab);
        watchScrollers(lab);
        nameShortcuts();
        nameRadios();
        nameSliders();
        hideSpokenMath();
      }
      queued = null;
      lookForChanges(lab);
      settlePick(lab);
    });
  };
  new MutationObserver((records) => {
    quietAlerts();  // at once, not a frame later: before the screen reader hears of them
    inertFoldedMenu();
    if (lab.pick && records.some((record) => record.attributeName === SCRIPT_STATE)) {
      lab.pick.ran = true;  // a run began (or ended) since the pick's click
    }
    look(records.some((record) => record.type === 'childList'));
  })
    .observe(document.body, {
      childList: true, subtree: true, characterData: true,
      attributes: true, attributeFilter: ['data-stale', SCRIPT_STATE, 'data-collapsed'],
    });
  quietAlerts();
  inertFoldedMenu();
  look(true);
}

// -- The keyboard picks a chart's cell (the W3C ARIA grid pattern) --------------------
// A chart that takes picks carries grid.click_trace's invisible points, named "pick",
// at its cell centres. Its chart element becomes one tab stop (role grid, named by the
// chart's title, described by its twin's summary); the arrow keys move a focus ring
// over its cells and Enter or Space picks the ringed cell by the pointer's own path (a
// hover at the cell's centre, then a press and release there), so the pick is the
// same selection, the same callback and the same rerun as a click. The ringed cell is
// kept per chart across reruns, and a chart picked from the keyboard gets the focus
// back when its rerun redraws it.
const PICK = 'pick';
const REFOCUS_MS = 15_000;  // a rerun slower than this after Enter leaves focus be
const HOVER_TRIES = 20;  // Plotly throttles hovers (about 50 ms apart): try again
// Dark and light together: one or the other is at 3:1 or more on any cell colour, in
// either theme (WCAG 2.4.11, 1.4.11).
const RING_STYLE = 'position:absolute;pointer-events:none;box-sizing:border-box;z-index:2;'
  + 'border:3px solid #111111;box-shadow:0 0 0 2px #ffffff, inset 0 0 0 2px #ffffff;'
  + 'border-radius:2px;opacity:0;';

function pickTrace(plot) {
  return plot._fullData?.find((trace) => trace.name === PICK && trace.type === 'scatter') ?? null;
}

// The Plotly plot with a pick trace in `chart` and the element that takes the focus.
function pickPlotIn(chart) {
  const plot = chart.matches('.js-plotly-plot') ? chart : chart.querySelector('.js-plotly-plot');
  const trace = plot && pickTrace(plot);
  const grid = plot && plot.closest(CHART);
  return trace && grid ? { plot, trace, grid } : null;
}

const plainTitle = (plot) => String(plot.layout?.title?.text ?? '')
  .replace(/<br>/g, ' ').replace(/<[^>]+>/g, '').trim();

// [rows, cols] of the pick points (one per cell, in reading order).
function shapeOf(trace) {
  return [Math.max(...trace.y) + 1, Math.max(...trace.x) + 1];
}

// A chart's name for the ring's memory: its page and title. Not its element's key: a
// pick chart may take a new key on every pick (the Exercises page's does, so that a
// second click on a cell is a click again).
const gridKey = (grid) =>
  window.location.pathname + '|' + plainTitle(grid.querySelector('.js-plotly-plot'));

// Cell (row, col)'s box in the plot, in px from the plot's top left (Plotly's axes).
function cellBox(plot, row, col) {
  const { xaxis, yaxis } = plot._fullLayout;
  const xs = [xaxis.d2p(col - 0.5), xaxis.d2p(col + 0.5)];
  const ys = [yaxis.d2p(row - 0.5), yaxis.d2p(row + 0.5)];
  return {
    left: xaxis._offset + Math.min(...xs), top: yaxis._offset + Math.min(...ys),
    width: Math.abs(xs[1] - xs[0]), height: Math.abs(ys[1] - ys[0]),
  };
}

function cellText(trace, cols, [row, col]) {
  const value = trace.customdata?.[row * cols + col];
  return `row ${row}, column ${col}` + (value === undefined ? '' : `: ${value}`);
}

// The ringed cell: an owned row and gridcell (aria-activedescendant points at it),
// drawn as the ring over the cell.
function ringOf(grid) {
  let row = grid.querySelector(':scope > .lab-pick-row');
  if (!row) {
    row = Object.assign(document.createElement('div'), { className: 'lab-pick-row' });
    row.setAttribute('role', 'row');
    const cell = Object.assign(document.createElement('div'), { className: 'lab-pick-cell' });
    cell.setAttribute('role', 'gridcell');
    cell.id = 'lab-pick-' + Math.random().toString(36).slice(2);
    cell.setAttribute('style', RING_STYLE);
    row.append(cell);
    grid.append(row);
  }
  return row.firstChild;
}

// The cell a frame player's step is on, on a grid that follows it (frames.js: y in Step
// through), or null. A step the grid has not followed yet moves its ring there: the
// next focus on the grid reads the step's cell; arrows move the ring on from it.
function followedStep(lab, grid, key) {
  const step = window.poolingLabFrames?.stepCell?.(grid.dataset.labChart) ?? null;
  if (step && lab.followed.get(key) !== step.join(',')) {
    lab.followed.set(key, step.join(','));
    lab.cells.set(key, step);
  }
  return step;
}

// A frame player's step moved (frames.js): the ring of the grid keyed `chartKey` follows
// it. The focus stays where it is.
function followStep(lab, chartKey) {
  const grid = document.querySelector(`[role=grid][data-lab-chart="${CSS.escape(chartKey)}"]`);
  const found = grid && pickPlotIn(grid);
  if (found) drawRing(lab, found);
}

function drawRing(lab, found) {
  const { plot, trace, grid } = found;
  const [rows, cols] = shapeOf(trace);
  const key = gridKey(grid);
  const step = followedStep(lab, grid, key);
  const [row, col] = lab.cells.get(key) ?? [0, 0];
  const at = [Math.min(row, rows - 1), Math.min(col, cols - 1)];
  lab.cells.set(key, at);
  const ring = ringOf(grid);
  const box = cellBox(plot, ...at);
  const plotBox = plot.getBoundingClientRect(), gridBox = grid.getBoundingClientRect();
  Object.assign(ring.style, {
    left: `${plotBox.left - gridBox.left + box.left}px`, top: `${plotBox.top - gridBox.top + box.top}px`,
    width: `${box.width}px`, height: `${box.height}px`,
    opacity: document.activeElement === grid ? '1' : '0',  // in the grid's tree either way
  });
  ring.parentElement.setAttribute('aria-rowindex', String(at[0] + 1));
  ring.setAttribute('aria-colindex', String(at[1] + 1));
  ring.setAttribute('aria-label', cellText(trace, cols, at));
  // The step's cell is the one selected, as the Both passes tab's y holds its window.
  const picked = step ? new Set([step.join(',')]) : pickedCells(grid);
  if (picked) ring.setAttribute('aria-selected', String(picked.has(at.join(','))));
  else ring.removeAttribute('aria-selected');
  grid.setAttribute('aria-activedescendant', ring.id);
  return at;
}

function keyboardGrid(lab, found, twin) {
  const { plot, trace, grid } = found;
  const [rows, cols] = shapeOf(trace);
  grid.dataset.labChart = twin.getAttribute('data-chart');
  grid.setAttribute('role', 'grid');
  grid.setAttribute('tabindex', '0');
  grid.setAttribute('aria-label', plainTitle(plot) || twin.getAttribute('aria-label') || 'map');
  grid.setAttribute('aria-rowcount', String(rows));
  grid.setAttribute('aria-colcount', String(cols));
  const summary = twin.querySelector('p');
  if (summary) {
    summary.id ||= 'lab-twin-' + Math.random().toString(36).slice(2);
    grid.setAttribute('aria-describedby', summary.id);
  }
  if (getComputedStyle(grid).position === 'static') grid.style.position = 'relative';
  if (!grid.dataset.labPick) {
    grid.dataset.labPick = '1';
    grid.addEventListener('keydown', (event) => onGridKey(lab, grid, event));
    grid.addEventListener('focus', () => { const now = pickPlotIn(grid); if (now) drawRing(lab, now); });
    grid.addEventListener('blur', () => { ringOf(grid).style.opacity = '0'; });
    grid.addEventListener('focusout', (event) => {
      if (event.relatedTarget) { lab.refocus = null; return; }
      // Gone from the page under the focus: a run put a new chart in its place (Play
      // stopping tells the server its step). The focus comes back to the new one, as
      // after Enter. A grid still on the page lost it to the page itself (a click).
      const key = gridKey(grid);
      queueMicrotask(() => {
        if (!grid.isConnected) lab.refocus = { key, until: performance.now() + REFOCUS_MS };
      });
    });
  }
  drawRing(lab, found);
  const back = lab.refocus;
  if (back && back.key === gridKey(grid) && performance.now() < back.until
      && document.activeElement !== grid
      && (!document.activeElement || document.activeElement === document.body)) {
    grid.focus({ preventScroll: true });
  }
}

const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

function onGridKey(lab, grid, event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const found = pickPlotIn(grid);
  if (!found) return;
  const [rows, cols] = shapeOf(found.trace);
  const key = gridKey(grid);
  const [row, col] = lab.cells.get(key) ?? [0, 0];
  let to;
  if (event.key in MOVES) {
    const [down, right] = MOVES[event.key];
    to = [Math.max(0, Math.min(rows - 1, row + down)), Math.max(0, Math.min(cols - 1, col + right))];
  } else if (event.key === 'Home') to = [row, 0];
  else if (event.key === 'End') to = [row, cols - 1];
  else if (event.key === 'Enter' || event.key === ' ') {
    event.preventDefault();
    event.stopPropagation();
    lab.refocus = { key, until: performance.now() + REFOCUS_MS };
    // Said once the page has taken the pick (awaitPick), or that the click could not
    // be made (the hover never found the cell).
    const cell = cellText(found.trace, cols, [row, col]);
    pickCell(found, [row, col], HOVER_TRIES, (clicked) => {
      if (clicked) awaitPick(lab, grid, [row, col], cell);
      else say('Not picked: ' + cell + '. Press Enter again.');
    });
    return;
  } else return;
  event.preventDefault();  // no page scroll, no step of a frame player (frames.js)
  event.stopPropagation();
  lab.cells.set(key, to);
  drawRing(lab, found);
  ringOf(grid).scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

// -- What a pick grid holds picked, and whether a pick took ---------------------------
// The page writes the cells a pick grid holds picked on its twin (twin.show_twins,
// data-picked="r,c;r,c"): the ringed cell is aria-selected when it is one of them.
// A pick from the keyboard is said as the page holds it: "Picked" when the cell is
// picked now, "Pick taken back" when it was and is no longer (a second pick takes a
// cell back), "Not picked" when nothing changed (answers closed) or nothing came
// within PICK_WAIT_MS.
// When is that known? At once when the twin's cells changed at the cell: only the pick
// changes them. When they did not, once the run the click started has ended, which two
// signs tell: the app's script state seen to change (data-test-script-state), or this
// script called at the end of a run (its data changed). Neither alone is enough: React
// may draw a run's start and end in one render (a fast run in a slow browser), so the
// script state never changes on the page; and an unchanged run sends no new data.
// A run already under way at the click may end without the pick: its end is no sign
// (busy), the next one is.
const PICK_WAIT_MS = 15_000;

function twinOf(grid) {
  const key = grid.dataset.labChart;
  return key ? document.querySelector(`.lab-twin[data-chart="${CSS.escape(key)}"]`) : null;
}

function picksOf(twin) {
  const text = twin?.getAttribute('data-picked');
  return text === null || text === undefined ? null : new Set(text ? text.split(';') : []);
}

function pickedCells(grid) {
  return picksOf(twinOf(grid));
}

function awaitPick(lab, grid, [row, col], cell) {
  const before = pickedCells(grid);
  if (!before) {  // a chart whose picks the page does not tell: the click is all we know
    say('Picked ' + cell);
    return;
  }
  const at = `${row},${col}`;
  // The grid by its page and title: a page may key its chart anew after a pick.
  // By its name too: a pick may retitle its chart (the Playground's y names the window).
  const pending = {
    key: gridKey(grid), name: grid.getAttribute('aria-label'), at, cell,
    was: before.has(at), ran: false, busy: !scriptIdle(),
  };
  lab.pick = pending;
  setTimeout(() => {
    if (lab.pick === pending) settlePick(lab, { late: true });
  }, PICK_WAIT_MS);
}

function scriptIdle() {
  const app = document.querySelector('[data-testid="stApp"]');
  return app?.getAttribute(SCRIPT_STATE) === 'notRunning';
}

// This script was called: a run has ended since the click (unless it was under way then).
function pickRunEnded(lab) {
  const pending = lab.pick;
  if (!pending) return;
  if (pending.busy) pending.busy = false;
  else pending.ran = true;
  settlePick(lab);
}

// `late`: PICK_WAIT_MS have passed: said as the page holds it now, or not picked.
function settlePick(lab, { late = false } = {}) {
  const pending = lab.pick;
  if (!pending) return;
  const grids = [...document.querySelectorAll('[role=grid][data-lab-chart]')];
  const grid = grids.find((found) => gridKey(found) === pending.key)
    ?? grids.find((found) => found.getAttribute('aria-label') === pending.name);
  const twin = grid && twinOf(grid);
  // Not drawn yet (a chart keyed anew is drawn after the run) or not in full: later.
  const drawn = twin && !twin.closest('[data-stale="true"]');
  const now = drawn ? picksOf(twin) ?? new Set() : null;
  const changed = now !== null && now.has(pending.at) !== pending.was;
  const ended = now !== null && pending.ran && scriptIdle();
  if (!changed && !ended && !late) return;
  lab.pick = null;
  if (now === null) say('Not picked: ' + pending.cell + '. Press Enter again.');
  else if (now.has(pending.at)) say('Picked ' + pending.cell);
  else if (pending.was) say('Pick taken back: ' + pending.cell);
  else say('Not picked: ' + pending.cell + (ended ? '.' : '. Press Enter again.'));
}

// Pick (row, col) as the pointer does: a hover at the cell's centre makes it the
// plot's hover point; a press and release there with no drag is Plotly's click.
function pickCell({ plot }, [row, col], tries, done) {
  const layer = plot.querySelector('.nsewdrag');
  if (!layer) {
    done(false);
    return;
  }
  const box = cellBox(plot, row, col), plotBox = plot.getBoundingClientRect();
  const at = { clientX: plotBox.left + box.left + box.width / 2,
               clientY: plotBox.top + box.top + box.height / 2,
               bubbles: true, cancelable: true, view: window, button: 0 };
  layer.dispatchEvent(new MouseEvent('mousemove', at));
  const hovered = (plot._hoverdata || []).some((point) =>
    point.data?.name === PICK && point.x === col && point.y === row);
  if (!hovered) {
    if (tries > 0) setTimeout(() => pickCell({ plot }, [row, col], tries - 1, done), 60);
    else done(false);
    return;
  }
  layer.dispatchEvent(new MouseEvent('mousedown', { ...at, buttons: 1 }));
  document.dispatchEvent(new MouseEvent('mouseup', at));
  done(true);
}

// -- Touch: one tap picks a chart's cell ----------------------------------------------
// Plotly picks the point its last hover found (kept on the plot, computed on
// mousemove). A finger sends no mousemove before it taps: the browser makes one up only
// after the tap, so a first tap picked nothing (it only showed the tooltip) and a second
// picked the cell of the first. So when a finger lands on a plot's drag layer (the
// rectangle over its cells, class nsewdrag), the hover runs there first, at the finger,
// and the tap's click picks the cell under it. Passive: scrolling stays the browser's.
function hoverUnderFinger(event) {
  const touch = event.touches.length === 1 ? event.touches[0] : null;
  const layer = touch && event.target instanceof Element && event.target.closest('.nsewdrag');
  if (!layer) return;
  const at = { clientX: touch.clientX, clientY: touch.clientY };
  layer.dispatchEvent(new MouseEvent('mousemove', { ...at, bubbles: true, view: window }));
}

// -- Leaving a page: its late request must not pull the learner back -----------------
// A click on a link to another page asks the server for that page; but a request the
// old page makes before the new one arrives names the old page, and the server runs
// that one: the click is lost. So once a page link is followed (or the browser goes
// back or forward), the stored work asked for by a page being left waits; it is dropped
// when that page goes, and sent if the page is still there lab.leaveMs later
// (browser.LEAVE_AFTER_MS: the link led nowhere). A click before this script first runs
// in the tab is not seen.
// Streamlit's own page links (menu, top bar, st.page_link): the only links that change
// the page in place. Any other link (an anchor, a download, a file) leaves it be.
const PAGE_LINKS = ['stSidebarNavLink', 'stTopNavLink', 'stTopNavDropdownLink',
  'stPageLink-NavLink'].map((id) => `a[href][data-testid="${id}"]`).join(', ');

function pageOf(lab, pathname) {
  const path = pathname.replace(/\/+$/, '');
  return lab.pages.find((page) => page && path.endsWith('/' + page)) ?? '';
}

function followed(event) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
    return null;  // a new tab or window: this page stays
  }
  const link = event.target instanceof Element && event.target.closest(PAGE_LINKS);
  if (!link || (link.target && link.target !== '_self')) return null;
  try {
    const url = new URL(link.href, document.baseURI);
    return url.origin === window.location.origin ? url : null;
  } catch {
    return null;  // an address the browser cannot read leads nowhere
  }
}

// On a phone the menu lies over the page, and Streamlit leaves it open after a page
// link in it was followed: the new page would arrive under it. So it folds then, as a
// tap on its « does; where it leaves the page room (a wider screen) it stays.
function foldMenuOver(node) {
  const menu = node.closest('[data-testid="stSidebar"]');
  const page = document.querySelector('[data-testid="stMain"]');
  if (!menu || !page) return;
  if (menu.getBoundingClientRect().right <= page.getBoundingClientRect().left + 1) return;
  menu.querySelector('[data-testid="stSidebarCollapseButton"] button')?.click();
}

function leaving(lab, pathname) {
  lab.leaving = { to: pageOf(lab, pathname), at: performance.now() };
}

const leavingElsewhere = (lab, page) =>
  lab.leaving !== null && lab.leaving.to !== page && performance.now() - lab.leaving.at < lab.leaveMs;

// When the server behind a page goes away (a replica died, the server restarted),
// Streamlit reconnects to whichever process answers but reruns nothing: the new
// process would meet the student's next click as a new session, whose first run reads
// the settings from the link and overwrites that click. So once the connection is back
// after a loss, the page reloads itself from its link (always current: every run
// publishes it), and the new process shows the same screen at once.
const LOST = ['PINGING_SERVER', 'DISCONNECTED_FOREVER'];  // only ever after a lost connection
const CONNECTION_LOOK_MS = 250;

function reloadAfterReconnect() {
  let lost = false;
  setInterval(() => {
    const app = document.querySelector('[data-testid="stApp"]');
    const state = app && app.getAttribute('data-test-connection-state');
    if (LOST.includes(state)) lost = true;
    else if (state === 'CONNECTED' && lost) window.location.reload();
  }, CONNECTION_LOOK_MS);
}

// The page's own CSS and its charts are written by the server for the theme of its
// last run (ui/shared/lecture.current_look). A theme changed with no run (the system's
// dark mode switched, or Streamlit's settings) would leave a light page with the dark
// look's pale titles and orange labels, below AA contrast: so when the theme the page
// is shown in differs from the one it was drawn for, the page asks for a run, once per
// theme (were Streamlit to report the old theme still, no loop).
const THEME_LOOK_MS = 500;

function shownDark() {
  const app = document.querySelector('[data-testid="stApp"]');
  const rgb = app && getComputedStyle(app).backgroundColor.match(/\d+(\.\d+)?/g);
  if (!rgb || rgb.length < 3) return null;
  const [r, g, b] = rgb.map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255 < 0.5;
}

function watchTheme(lab) {
  setInterval(() => {
    const dark = shownDark();
    if (dark === null || lab.drawnDark === null || dark === lab.drawnDark) return;
    if (lab.themeAsked === dark || !lab.askRun) return;
    lab.themeAsked = dark;
    lab.askRun('theme', dark ? 'dark' : 'light');
  }, THEME_LOOK_MS);
}

function install() {
  const lab = { groups: [], enter: [], sent: null, pages: [], leaving: null, calls: 0,
                leaveMs: 0, cells: new Map(), followed: new Map(), refocus: null,
                sayings: new Map(), sayAt: null, sayTimer: null, sayGapMs: 0, focusCount: 0,
                drawnDark: null, themeAsked: null, askRun: null, cookies: {} };
  liveRegion();  // there, empty, before anything is said in it
  document.addEventListener('touchstart', hoverUnderFinger, { capture: true, passive: true });
  document.addEventListener('mousedown', (event) => { if (event.isTrusted) lab.refocus = null; }, true);
  watchPage(lab);
  window.poolingLabFollowStep = (chartKey) => followStep(lab, chartKey);
  reloadAfterReconnect();
  watchTheme(lab);
  document.addEventListener('click', (event) => {
    const url = followed(event);
    if (!url) return;
    leaving(lab, url.pathname);
    setTimeout(() => foldMenuOver(event.target), 0);  // once Streamlit has the click
  }, true);
  window.addEventListener('popstate', () => leaving(lab, window.location.pathname));
  // A choice made (mouse or touch): focus leaves the group, after Streamlit has seen it.
  document.addEventListener('click', (event) => {
    const found = groupOf(lab, event.target);
    if (!found) return;
    leave(found.box);
    setTimeout(() => leave(found.box), 0);
  });
  // An arrow key on a group already answered must not change the answer: it goes to
  // the page's Previous or Next instead. Before a choice, arrows keep their meaning.
  document.addEventListener('keydown', (event) => {
    if (!ARROWS.includes(event.key)) return;
    const found = groupOf(lab, event.target);
    if (!found || !chosen(found.box)) return;
    event.preventDefault();
    event.stopPropagation();
    event.target.blur();
    const button = found.group.arrows[event.key];
    const box = button && boxOf(button);
    if (box) box.querySelector('button')?.click();
  }, true);
  // Enter in a listed text input presses its button, once Streamlit has the text.
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || !(event.target instanceof HTMLInputElement)) return;
    const pair = lab.enter.find((candidate) =>
      candidate.inputs.some((key) => event.target.closest('.st-key-' + CSS.escape(key))));
    if (!pair) return;
    setTimeout(() => boxOf(pair.button)?.querySelector('button')?.click(), 0);
  });
  return lab;
}

export default function ({ data, setStateValue, setTriggerValue }) {
  const lab = (window.poolingLabBrowser ||= install());
  const call = ++lab.calls;
  lab.askRun = setTriggerValue;
  if (data.dark !== lab.drawnDark) lab.themeAsked = null;  // drawn anew: may ask again
  lab.drawnDark = data.dark;
  lab.groups = data.focus || [];
  lab.enter = data.enter || [];
  lab.pages = data.pages || [];
  lab.leaveMs = data.leave_after_ms;
  lab.sayGapMs = data.say_gap_ms;
  lab.sayPrefix = data.say_prefix;
  if (lab.leaving?.to === data.page) lab.leaving = null;  // arrived
  for (const [namespace, text] of Object.entries(data.store || {})) write(namespace, text);
  for (const [name, value] of Object.entries(data.cookies || {})) {
    keepCookie(lab, name, value, data.cookie_max_age_s);
  }
  if (typeof data.announce === 'string' && data.announce !== lab.said) {
    say(data.announce);
    quiet(lab);
  }
  lab.said = data.announce;
  if (data.move_focus && data.move_focus.count !== lab.focusCount) {
    lab.focusCount = data.move_focus.count;
    focusWhenDrawn(lab, data.move_focus, FOCUS_TRIES);
  }
  pickRunEnded(lab);
  const wanted = data.recall || [];
  if (!wanted.length) return undefined;
  const found = Object.fromEntries(
    wanted.map((namespace) => [namespace, read(namespace, data.max_stored_chars)]));
  const message = JSON.stringify(found);
  const send = () => {
    if (call !== lab.calls) return;  // a later run's data came, or the page went
    if (leavingElsewhere(lab, data.page)) {
      setTimeout(send, 100);
      return;
    }
    if (message === lab.sent) return;  // already on its way
    lab.sent = message;
    setStateValue('recalled', found);
  };
  send();
  return () => {
    if (call === lab.calls) lab.calls += 1;  // unmounted: its request is off
    lab.sent = null;  // a page mounted again asks again (a request lost to a page change)
  };
}
