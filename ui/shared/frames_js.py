"""The browser side of the frame player (ui/shared/frame_player.py), as text: its script.
Its look is frames.LAYOUT_CSS and style.FRAME_PLAYER_COLOURS."""

JS = r"""
const labFrames = (window.poolingLabFrames ||= { players: {}, installed: false });
const EDITABLE = 'input, textarea, select, [contenteditable="true"], [role="slider"], '
  + '[role="radio"], [role="tab"], [role="option"], [role="combobox"], '
  + '[data-testid="stDataFrame"], [data-testid="stDataFrameResizable"]';
const KEYS = { ArrowLeft: -1, ArrowRight: 1 };
// DRAWING

// -- one player: its frames, where it is, and the parts that show it -------------------
function newPlayer(id) {
  return { id, frames: null, position: 0, preview: null, playing: null, speed: 4,
           dirty: false, sent: 0, parts: {}, serverPosition: null, signature: null,
           linkTimer: null, asked: null, target: null, waited: 0, queued: 0 };
}

// Frames in blocks (a stream): more may come after the last frame the browser has.
function open(player) {
  const stream = player.frames.stream;
  return Boolean(stream && !stream.final);
}

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

const ASK_AGAIN_MS = 3000;

// The chart pointed at to follow a window: Plotly's hover and click on it need a whole
// redraw of it (a quick move of its traces loses the hover a click reads).
function pointedAt(player, chart) {
  return Boolean(pointerOn(player, chart.key));
}

function shown(player) {
  return player.preview !== null ? player.preview : player.position;
}

function draw(player) {
  if (!player.frames) return;
  const frame = shown(player);
  player.drawn = frame;
  const drawing = (player.drawing = (player.drawing || 0) + 1);
  // The charts whose traces only move at once; those redrawn whole (20 ms or more each
  // on a slow machine) one an animation frame, in the page's order (the running
  // dL/dx before y): the step shows within a frame or two and the rest follows. A newer
  // frame drops what is left of an older one.
  const whole = [];
  let missing = false;  // a chart not on the page yet, or not drawn by Plotly yet
  for (const chart of player.frames.charts) {
    const pointed = pointedAt(player, chart);
    if (redraws(chart, pointed)) whole.push([chart, pointed]);
    else missing = !drawChart(chart, frame) || missing;
  }
  const drawNext = () => {
    if (player.drawing !== drawing) return;
    player.queued = whole.length;  // charts of this frame not drawn yet (labFrames.busy)
    if (!whole.length) return missing && drawLater(player);
    const [chart, pointed] = whole.shift();
    missing = !drawChart(chart, frame, { pointed }) || missing;
    requestAnimationFrame(drawNext);
  };
  drawNext();
  for (const part of Object.values(player.parts)) part.render(player);
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
    } catch (error) { /* a browser refusing history writes: the server's link stays */ }
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

// PARTS

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
"""
