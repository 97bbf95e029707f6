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
// which screen readers do not read); frames.js says its step's sentence in it too.
const LIVE_ID = 'pooling-lab-live';
const HIDDEN = 'position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;'
  + 'clip-path:inset(50%);white-space:nowrap;';

// The region sits in a closed shadow root: screen readers read it as any other node,
// but a page's text search (a test's get_by_text) does not find the same words twice,
// once on screen and once in the region. Kept on window: both scripts write to it.
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

// -- A map's picture out of the accessibility tree, where its text twin stands -------
// ui/shared/twin.py puts a map's text twin (class lab-twin) just before its chart; a
// screen reader would read the chart after it as a run of digits and tick labels, so
// the chart is hidden from it (it holds nothing that takes focus: no tool bar).
const CHART = '[data-testid="stPlotlyChart"]';

function chartAfter(twin) {
  const box = twin.closest('[data-testid="stElementContainer"]');
  const next = box && box.nextElementSibling;
  if (!next) return null;
  return next.matches(CHART) || next.querySelector(':scope > ' + CHART)
    ? next : next.querySelector(CHART);
}

function hideTwinnedCharts() {
  for (const twin of document.querySelectorAll('.lab-twin')) {
    const chart = chartAfter(twin);
    if (chart && chart.getAttribute('aria-hidden') !== 'true') chart.setAttribute('aria-hidden', 'true');
  }
}

function watchTwins() {
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; hideTwinnedCharts(); });
  }).observe(document.body, { childList: true, subtree: true });
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

function install() {
  const lab = { groups: [], enter: [], sent: null, pages: [], leaving: null, calls: 0,
                leaveMs: 0 };
  document.addEventListener('touchstart', hoverUnderFinger, { capture: true, passive: true });
  watchTwins();
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

export default function ({ data, setStateValue }) {
  const lab = (window.poolingLabBrowser ||= install());
  const call = ++lab.calls;
  lab.groups = data.focus || [];
  lab.enter = data.enter || [];
  lab.pages = data.pages || [];
  lab.leaveMs = data.leave_after_ms;
  if (lab.leaving?.to === data.page) lab.leaving = null;  // arrived
  for (const [namespace, text] of Object.entries(data.store || {})) write(namespace, text);
  if (typeof data.announce === 'string' && data.announce !== lab.said) say(data.announce);
  lab.said = data.announce;
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
