"""Where a control change's time goes, the lab beside the floor (Playwright + Debian
Chromium, warm servers): the breakdown behind bench_browser.py's "change" ratio.

    python benchmarks/bench_change.py [--root OTHER_CHECKOUT] [--repeats 9]
        [--lab-script benchmarks/one_component_app.py]

Same servers, link and actions as bench_browser.py (the floor's "Window height" +, the
lab's sidebar Max -> Average), runs alternating, each in a new browser context. Each
phase is timed in the page, by its own clock, from the pointer going down on the
control:

- request: the page's rerun request leaving on the WebSocket;
- first message: the first message the server sent back;
- drawn: the watched chart's numbers changed (the floor's "Output y", the lab's
  "dL/dx"; requestAnimationFrame, as bench_browser.py); the messages that came before
  it (their number and bytes), the last of them, and from it to drawn;
- long tasks: main-thread tasks over 50 ms from the press to drawn, summed (the page
  building its elements and Plotly drawing charts);
- run's last message: the last message of the whole run (Streamlit draws elements as
  they come, so the chart may change before the script has finished), and the run's
  messages and bytes, counted once the page has settled;
- charts drawn anew: Plotly charts whose element was replaced by the run (Streamlit
  remounts a chart whose figure changed: its whole draw, not an update).

It prints medians per phase for both apps and the lab's extra, and asserts nothing.
With --lab-script, another app is served in the lab's place from the same checkout:
benchmarks/one_component_app.py, the Both passes maps in one custom component with the
Pooling radio alone (or the whole sidebar), is the yardstick for what a Playground
redrawn through one component could reach.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import browser_apps as apps  # noqa: E402
from benchmarks.browser_probes import BROWSER_IDLE_OR_TIMEOUT  # noqa: E402
from deploy.page_state import CHART_Z, SETTLED  # noqa: E402

# Installed before the page's own scripts: every WebSocket message, sent or received,
# with the page's clock and its size in bytes, in window.benchSocket.
RECORD_SOCKET = """(() => {
  const log = window.benchSocket = [];
  const Socket = window.WebSocket, send = Socket.prototype.send;
  const size = (data) => data.byteLength ?? data.size ?? data.length ?? 0;
  Socket.prototype.send = function (data) {
    log.push({ sent: true, at: performance.now(), bytes: size(data) });
    return send.call(this, data);
  };
  window.WebSocket = function (...args) {
    const socket = new Socket(...args);
    socket.addEventListener('message', (event) =>
      log.push({ sent: false, at: performance.now(), bytes: size(event.data) }));
    return socket;
  };
  window.WebSocket.prototype = Socket.prototype;
  Object.assign(window.WebSocket, Socket);
})();"""

# Arms one change: marks every chart element now on the page (REDRAWN counts the
# others), clears the socket log, and records in window.benchChange when the pointer
# goes down, each long task, and the first animation frame whose chart `prefix` holds
# numbers other than `old`.
ARM_CHANGE = f"""([prefix, old]) => {{
  for (const plot of document.querySelectorAll('.js-plotly-plot')) plot.benchOld = true;
  window.benchSocket.length = 0;
  const probe = window.benchChange = {{ pressed: null, drawn: null, tasks: [] }};
  window.addEventListener('pointerdown', () => {{ probe.pressed ??= performance.now(); }},
                          {{ capture: true, once: true }});
  new PerformanceObserver((list) => {{
    for (const task of list.getEntries()) probe.tasks.push([task.startTime, task.duration]);
  }}).observe({{ type: 'longtask' }});
  const numbers = ({CHART_Z});
  const look = () => {{
    const now = probe.pressed === null ? null : numbers(prefix);
    if (now !== null && JSON.stringify(now) !== JSON.stringify(old)) {{
      probe.drawn = performance.now();
      return;
    }}
    requestAnimationFrame(look);
  }};
  requestAnimationFrame(look);
}}"""
REDRAWN = """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
  .filter((plot) => !plot.benchOld).length"""

PHASES = (
    ("request (ms)", "request"),
    ("first message (ms)", "first"),
    ("drawn (ms)", "drawn"),
    ("  messages before it", "messages"),
    ("  kB before it", "kilobytes"),
    ("  last of them (ms)", "last"),
    ("  from it to drawn (ms)", "render"),
    ("long tasks to drawn (ms)", "long"),
    ("run's last message (ms)", "finished"),
    ("  run's messages", "run_messages"),
    ("  run's kB", "run_kilobytes"),
    ("charts drawn anew", "redrawn"),
)


def one_change(browser, url: str, *, chart: str, control) -> dict:
    """A new student opens the Playground, waits for it to settle, and changes `control`
    (a function of the page giving its locator); each phase in ms from the press."""
    context = browser.new_context(viewport=apps.VIEWPORT)
    context.add_init_script(RECORD_SOCKET)
    page = context.new_page()
    page.goto(f"{url}/playground?{apps.QUERY}")
    page.wait_for_function(SETTLED, timeout=apps.WAIT_MS)
    # A chart a custom component draws (one_component_app.py) is not one SETTLED knows.
    page.wait_for_function(f"() => ({CHART_Z})({chart!r}) !== null", timeout=apps.WAIT_MS)
    page.evaluate(BROWSER_IDLE_OR_TIMEOUT)
    page.evaluate(ARM_CHANGE, [chart, page.evaluate(CHART_Z, chart)])
    control(page).click()
    page.wait_for_function("() => window.benchChange.drawn !== null", timeout=apps.WAIT_MS)
    page.wait_for_function(SETTLED, timeout=apps.WAIT_MS)
    probe, socket = page.evaluate("() => [window.benchChange, window.benchSocket]")
    probe["redrawn"] = page.evaluate(REDRAWN)
    context.close()
    return phases(probe, socket)


def phases(probe: dict, socket: list[dict]) -> dict:
    """The press, the socket log and the drawn frame as the PHASES (ms from the press);
    RuntimeError if the page sent no request after the press or heard nothing back
    before the chart changed."""
    start, drawn = probe["pressed"], probe["drawn"]
    request = next((m["at"] for m in socket if m["sent"] and m["at"] >= start), None)
    if request is None:
        raise RuntimeError("the page sent the server nothing after the press")
    came = [m for m in socket if not m["sent"] and m["at"] >= request]
    before = [m for m in came if m["at"] <= drawn]
    if not before:
        raise RuntimeError("the chart changed before any message came back")
    return {
        "request": request - start,
        "first": came[0]["at"] - start,
        "drawn": drawn - start,
        "messages": len(before),
        "kilobytes": sum(m["bytes"] for m in before) / 1000,
        "last": before[-1]["at"] - start,
        "render": drawn - before[-1]["at"],
        "long": sum(length for begun, length in probe["tasks"] if start <= begun <= drawn),
        "finished": came[-1]["at"] - start,
        "run_messages": len(came),
        "run_kilobytes": sum(m["bytes"] for m in came) / 1000,
        "redrawn": probe["redrawn"],
    }


def report(floor: list[dict], lab: list[dict]) -> None:
    median = statistics.median
    print(f"{'':<26} {'floor':>8} {'lab':>8} {'lab extra':>10}")
    for label, name in PHASES:
        sides = [median(run[name] for run in runs) for runs in (floor, lab)]
        print(f"{label:<26} {sides[0]:8.1f} {sides[1]:8.1f} {sides[1] - sides[0]:10.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="lab checkout to serve")
    parser.add_argument("--repeats", type=int, default=9, help="changes on each app")
    parser.add_argument(
        "--lab-script",
        type=Path,
        default=None,
        help="serve this app as the lab (benchmarks/one_component_app.py: the yardstick)",
    )
    args = parser.parse_args()
    controls = {"floor": ("Output y", apps.floor_control), "lab": ("dL/dx", apps.lab_control)}
    runs = {name: [] for name in controls}
    served = apps.served_with_chromium(args.root, args.lab_script)
    with served as (floor_url, lab_url, browser):
        urls = {"floor": floor_url, "lab": lab_url}
        for repeat in range(max(1, args.repeats) + 1):  # the first of each warms up
            for name, (chart, control) in controls.items():
                run = one_change(browser, urls[name], chart=chart, control=control)
                if repeat:
                    runs[name].append(run)
    lab = apps.described(args.root) + (f", serving {args.lab_script}" if args.lab_script else "")
    print(f"floor: {apps.FLOOR_APP}\nlab:   {lab}")
    print(f"{len(runs['lab'])} changes on each, alternating, after one warm-up of each;")
    print("medians, in ms from the pointer going down on the control (page clock)")
    report(runs["floor"], runs["lab"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
