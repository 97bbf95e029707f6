"""The browser side of the frame player (ui/shared/frames.py), as text: its script.
Its look is style.FRAME_PLAYER_CSS."""

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
           linkTimer: null };
}

function shown(player) {
  return player.preview !== null ? player.preview : player.position;
}

function draw(player) {
  if (!player.frames) return;
  const frame = shown(player);
  player.drawn = frame;
  for (const chart of player.frames.charts) {
    if (!drawChart(chart, frame)) player.pending = true;
  }
  for (const part of Object.values(player.parts)) part.render(player);
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
  const next = Math.min(Math.max(position, 0), last);
  if (next !== player.position) {
    player.position = next;
    player.dirty = next !== player.serverPosition;
    writeLink(player);
  }
  draw(player);
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
  if (player.position >= player.frames.count - 1) moveTo(player, 0);  // again from the start
  player.playing = setInterval(() => {
    if (player.position >= player.frames.count - 1) return stop(player);
    player.position += 1;
    player.dirty = player.position !== player.serverPosition;
    draw(player);
  }, 1000 / player.speed);
  draw(player);
}

function step(player, delta) {
  if (player.playing !== null) {
    clearInterval(player.playing);
    player.playing = null;
  }
  moveTo(player, player.position + delta);
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
  const back = el('button', { type: 'button', 'data-act': 'back', title: labels.back_help },
                  labels.back, el('kbd', { text: '←' }));
  const next = el('button', { type: 'button', 'data-act': 'next', title: labels.next_help },
                  labels.next, el('kbd', { text: '→' }));
  const playButton = el('button', { type: 'button', 'data-act': 'play', title: labels.play_help });
  const speed = el('select', { 'aria-label': labels.speed });
  for (const perSecond of player.frames.speeds) {
    const option = el('option', { value: String(perSecond), text: perSecond + labels.per_second });
    if (perSecond === player.speed) option.selected = true;
    speed.append(option);
  }
  const slider = el('input', { type: 'range', min: '1', max: String(player.frames.count),
                               'aria-label': labels.slider, title: labels.slider_help });
  const count = el('span', { class: 'count' });
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
  const rows = root.classList.contains('lecture')
    ? [el('div', { class: 'row' }, back, next, playButton),
       el('div', { class: 'row' }, slider, speed)]
    : [el('div', { class: 'row' }, back, next, playButton, speedLabel),
       el('label', { class: 'slide' }, labels.slider, slider, count)];
  root.replaceChildren(...rows, words);
  return (p) => {
    const at = shown(p);
    back.disabled = p.position <= 0;
    next.disabled = p.position >= p.frames.count - 1;
    playButton.replaceChildren((p.playing !== null ? '❚❚ ' + labels.pause : '▶ ' + labels.play),
                               el('kbd', { text: 'P' }));
    slider.value = String(p.position + 1);
    slider.setAttribute('aria-valuetext', String(p.position + 1));
    count.textContent = labels.count.replace('{n}', at + 1).replace('{of}', p.frames.count);
  };
}

function wordsPart(root) {
  return (p) => {
    const words = p.frames.words[shown(p)];
    const line = el('p', { class: 'line' + (words.aside ? ' aside' : ''), text: words.line });
    root.replaceChildren(sentence(words.sentence), line);
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
    box.append(el('p', { text: player.frames.labels.single }));
    const words = el('div');
    box.append(words);
    render = wordsPart(words);
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
function activePlayer() {
  return Object.values(labFrames.players).find(
    (p) => p.frames && Object.values(p.roots || {}).some((root) => root.isConnected));
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
    if (event.key in KEYS) step(player, KEYS[event.key]);
    else if (event.key === 'p' || event.key === 'P') play(player);
    else return;
    event.preventDefault();
    event.stopPropagation();
  });
  // Anything else the page sends the server carries the step along, in the same message.
  const before = (event) => {
    if (ours(event.target)) return;
    if (event.type === 'keydown' && !['Enter', 'Tab', ' '].includes(event.key)) return;
    for (const player of Object.values(labFrames.players)) tellServer(player);
  };
  for (const type of ['click', 'change', 'keydown', 'pointerup', 'focusout'])
    document.addEventListener(type, before, true);
  // A chart drawn after the player (lower on a phone's page, or redrawn by Streamlit) is
  // hooked before Plotly reads the pointer over it: hover and click follow at once.
  document.addEventListener('mousemove', () => {
    for (const player of Object.values(labFrames.players)) if (player.frames) hookCharts(player);
  }, true);
  labFrames.installed = true;
}

export default function ({ data, setStateValue, parentElement }) {
  if (!labFrames.installed) install();
  const player = (labFrames.players[data.id] ||= newPlayer(data.id));
  player.roots ||= {};
  player.roots[data.part] = parentElement;
  if (data.frames) {
    player.send = (value) => setStateValue('position', value);
    if (data.frames.signature !== player.signature) {
      if (player.playing !== null) { clearInterval(player.playing); player.playing = null; }
      player.frames = data.frames;
      player.signature = data.frames.signature;
      player.preview = null;
      player.serverPosition = null;
    }
    if (data.position !== player.serverPosition) {
      player.position = Math.min(data.position, player.frames.count - 1);
      player.serverPosition = data.position;
      player.dirty = false;
    }
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
  hookCharts(player);
  draw(player);
  labFrames.ready = true;
}
"""
