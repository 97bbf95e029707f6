"""What benchmarks/bench_step.py installs in the page (JavaScript, for Playwright's
evaluate): one input's timeline by the page's own clock (performance.now(), ms), and
where its main-thread time went (Chromium's CPU profile, sorted by what ran)."""

from __future__ import annotations

from collections import Counter

# Arms one input's timing in window.benchInput. `pressed`: the first keydown, pointermove
# or pointerdown after this (a window listener capturing: the first to run); `handled`:
# the end of the frame player's own keydown listener (a later listener on the same
# document, which its stopPropagation does not stop); `changed`: the first DOM change
# after the press (a MutationObserver's first callback: at the end of the task's script
# that made it); `shown`: the first animation frame whose chart title on screen (the
# SVG text Plotly drew) starts with `prefix` and `frames` the frames begun up to it (1:
# the first frame after the input); `painted`: a task queued from that frame, which
# runs once its style, layout and paint are done; `tasks`: long tasks [start, ms].
ARM_INPUT = r"""(prefix) => {
  const probe = window.benchInput = { pressed: null, handled: null, changed: null,
                                      shown: null, painted: null, frames: 0, tasks: [] };
  const press = () => { if (probe.pressed === null) probe.pressed = performance.now(); };
  for (const type of ['keydown', 'pointermove', 'pointerdown'])
    window.addEventListener(type, press, { capture: true, once: true });
  document.addEventListener('keydown', () => {
    if (probe.handled === null) probe.handled = performance.now();
  }, { once: true });
  const watch = new MutationObserver(() => {
    if (probe.pressed === null || probe.changed !== null) return;
    probe.changed = performance.now();
    watch.disconnect();
  });
  watch.observe(document.body, { subtree: true, childList: true, attributes: true,
                                 characterData: true });
  const tasks = new PerformanceObserver((list) => {
    for (const task of list.getEntries()) probe.tasks.push([task.startTime, task.duration]);
  });
  tasks.observe({ type: 'longtask' });
  const channel = new MessageChannel();
  channel.port1.onmessage = () => { probe.painted = performance.now(); tasks.disconnect(); };
  const squeezed = (text) => text.replace(/\s/g, '');  // a title wrapped in lines
  const look = () => {
    if (window.benchInput !== probe) return;
    if (probe.pressed !== null) {
      probe.frames += 1;
      for (const title of document.querySelectorAll('.js-plotly-plot .gtitle'))
        if (squeezed(title.textContent).startsWith(squeezed(prefix))) {
          probe.shown = performance.now();
          channel.port2.postMessage(null);
          return;
        }
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""

# The floor's one-heatmap redraw, as a page of the lab would do it in the browser: the
# → key adds 1 to every number of the chart titled `title` (Plotly.restyle of z and its
# text) and names the step in its title, in the key's own task.
FLOOR_STEP = """(title) => {
  const plot = Array.from(document.querySelectorAll('.js-plotly-plot'))
    .find((p) => p.layout.title.text.replace(/<[^>]+>/g, '') === title);
  let step = 0;
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowRight') return;
    step += 1;
    const z = Array.from(plot._fullData[0].z, (row) => Array.from(row, (v) => v + 1));
    window.Plotly.update(plot, { z: [z] }, { 'title.text': `${title} ${step}` }, [0]);
  });
}"""

# Records, once per animation frame, each new title on screen starting with `prefix`
# (window.benchFrames.times, ms, and .titles) and every long task
# (window.benchFrames.tasks, [start, ms]), until window.benchFrames.stop is set.
RECORD_PLAY = """(prefix) => {
  const record = window.benchFrames = { times: [], titles: [], tasks: [], stop: false };
  const titleNow = () => {
    for (const title of document.querySelectorAll('.js-plotly-plot .gtitle'))
      if (title.textContent.startsWith(prefix)) return title.textContent;
    return null;
  };
  new PerformanceObserver((list) => {
    if (record.stop) return;
    for (const task of list.getEntries()) record.tasks.push([task.startTime, task.duration]);
  }).observe({ type: 'longtask' });
  let last = titleNow();
  const look = () => {
    if (record.stop) return;
    const text = titleNow();
    if (text !== null && text !== last) {
      record.times.push(performance.now());
      record.titles.push(text);
      last = text;
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""

# What a sample of the CPU profile was running, by its stack: the text twins (the
# frame player's functions that build and write them), Plotly, the frame player's
# other work, Streamlit (its own bundle), the browser's garbage collector, or other.
TWIN_FUNCTIONS = frozenset(
    {"writeTwins", "twinsAt", "twinSaid", "twinFrames", "where", "tableRows", "curveAt",
     "writeTwinsLater", "twinWrites"}
)  # fmt: skip


def _kind(stack: list[dict]) -> str:
    """The kind of work of one sample, stack [innermost ... outermost] of callFrames."""
    names = {frame["functionName"] for frame in stack}
    urls = [frame["url"] for frame in stack]
    if names & TWIN_FUNCTIONS:
        return "twins"
    if any("lotly" in url for url in urls):
        return "Plotly"
    if any(name in {"drawChart", "draw", "moveTo", "step", "play", "quickDraw"} for name in names):
        return "player"
    innermost = stack[0]["functionName"] if stack else ""
    if innermost == "(garbage collector)":
        return "GC"
    if innermost in {"(program)", "(idle)", "(root)"}:
        return "idle"
    return "page (Streamlit, other)"


def profile_kinds(profile: dict) -> Counter:
    """ms of the samples of the CDP Profiler's `profile` by kind (_kind)."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {child: node["id"] for node in profile["nodes"] for child in node.get("children", ())}
    spent: Counter = Counter()
    for sample, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
        stack, node = [], sample
        while node is not None:
            stack.append(nodes[node]["callFrame"])
            node = parent.get(node)
        spent[_kind(stack)] += delta / 1000
    return spent
