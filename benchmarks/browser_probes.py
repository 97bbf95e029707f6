"""What benchmarks/bench_browser.py installs in the page (JavaScript, for Playwright's
evaluate) to time what is drawn there by the page's own clock, and what it counts of
the page's messages to the server."""

from __future__ import annotations

from collections import Counter

from deploy.page_state import BROWSER_IDLE

# Arms one step's timing, in window.benchStep, in ms on the page's clock
# (performance.now()): `pressed`, when the first keydown or pointerdown after this (the
# student's action) reached the page (a listener capturing on window, the first to run;
# its event.timeStamp is no use here: it came out up to 3 ms later than that on keys
# Playwright sends); `shown`, the first animation frame whose chart title on screen
# (the SVG text Plotly drew) starts with `prefix` (requestAnimationFrame: the DOM that
# frame goes on to paint); `frames`, how many animation frames began after the press
# up to that one (1: the first frame after the key shows the step).
ARM_STEP = """(prefix) => {
  const probe = window.benchStep = { pressed: null, shown: null, frames: 0 };
  const press = () => { if (probe.pressed === null) probe.pressed = performance.now(); };
  for (const type of ['keydown', 'pointerdown'])
    window.addEventListener(type, press, { capture: true, once: true });
  const look = () => {
    if (window.benchStep !== probe) return;
    if (probe.pressed !== null) {
      probe.frames += 1;
      for (const title of document.querySelectorAll('.js-plotly-plot .gtitle'))
        if (title.textContent.startsWith(prefix)) {
          probe.shown = performance.now();
          return;
        }
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""

# Records, once per animation frame, each new title on screen of the chart whose title
# starts with `prefix`: window.benchFrames.times (performance.now(), ms) and .titles,
# until window.benchFrames.stop is set.
RECORD_FRAMES = """(prefix) => {
  const record = window.benchFrames = { times: [], titles: [], stop: false };
  const titleNow = () => {
    for (const title of document.querySelectorAll('.js-plotly-plot .gtitle'))
      if (title.textContent.startsWith(prefix)) return title.textContent;
    return null;
  };
  let last = titleNow();  // now, not in the first frame: a key may come before that
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

# Resolves once no task has held the page's main thread more than 5 ms for 100 ms: ten
# 10 ms timers in a row, each on time. For where BROWSER_IDLE cannot be used: after a
# step of the frame player (a key press the page handles) this headless Chromium starts
# no idle period at all, though the page then runs under 1 ms of tasks a second (CDP
# Performance metrics), so requestIdleCallback only ever runs on its timeout. (So it
# does, on either app, while the pointer rests on a Plotly chart.)
MAIN_THREAD_FREE = """async () => {
  let onTime = 0;
  while (onTime < 10) {
    const asked = performance.now();
    await new Promise(done => setTimeout(done, 10));
    onTime = performance.now() - asked < 15 ? onTime + 1 : 0;
  }
}"""


def bounded(script: str, seconds: float) -> str:
    """`script` (an async function of no argument) raced against `seconds`: the page's
    evaluate returns true if it finished, false if the time ran out first."""
    return f"""() => Promise.race([
  ({script})().then(() => true),
  new Promise(done => setTimeout(() => done(false), {seconds * 1000:.0f}))])"""


BROWSER_IDLE_OR_TIMEOUT = bounded(BROWSER_IDLE, 30)
MAIN_THREAD_FREE_OR_TIMEOUT = bounded(MAIN_THREAD_FREE, 30)


class SentFrames:
    """WebSocket frames the page sends the server (Playwright's framesent), counted by
    the phase set when Playwright reports them; frames outside a phase are not counted."""

    def __init__(self, page) -> None:
        self.phase: str | None = None
        self.counts: Counter[str] = Counter()
        self.sockets: list = []
        page.on("websocket", self._opened)

    def _opened(self, socket) -> None:
        self.sockets.append(socket)
        socket.on("framesent", self._sent)

    def _sent(self, _payload) -> None:
        if self.phase is not None:
            self.counts[self.phase] += 1
