"""The frame player's parts, as JavaScript (joined to frames_js.JS by frames.py): its
controls (Back, Next, the page's jumps, Play with a speed, the slider) and its words
(a frame's sentence, line and note), built as DOM nodes with text only: nothing a
frame says is read as HTML."""

PARTS_JS = r"""
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
  const jumps = player.frames.jumps.map((to) => {
    const button = el('button', { type: 'button', 'data-act': 'jump', title: to.help }, to.label);
    if (to.key) button.append(el('kbd', { text: keyLabel(to.key) }));
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
    back.disabled = p.position <= 0;
    next.disabled = end;
    for (const [button, to] of jumps)
      button.disabled = 'to' in to ? p.position === to.to : (to.delta > 0 ? end : p.position <= 0);
    playButton.replaceChildren((p.playing !== null ? '❚❚ ' + labels.pause : '▶ ' + labels.play),
                               el('kbd', { text: 'P' }));
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
"""
