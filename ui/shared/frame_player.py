"""Frames in the browser: a player that steps and plays through frames computed once on
the server, with no script run per step. The lab's second browser-side component
(the first, browser.py, draws nothing); any page can feed it.

What it is given (`FrameSpec`): per frame, what changes on each of the page's Plotly
charts (a title, outlined and marked cells, the numbers of some cells, a curve's
point, whole traces: built by ui/figures/frame_data.py) and the frame's words (a sentence
with **bold** parts, a line, a note).
The server draws the charts at the position it knows, with st.plotly_chart as ever;
the browser then draws any other frame on them: what moves (a title, an outline,
marks) written into the chart Plotly drew, in the input's own task, so that the step
shows in the next frame; numbers and other traces after that paint, with the page's
own Plotly (window.Plotly, loaded with the first chart), through Plotly.react.

Back, Next, Play/Pause (with a speed), the slider, the ← → and P keys, and pointing
at a chart's cell (`pointer`: hovering lights that frame, a click or one tap picks it)
all run in the browser, and so do a page's own jumps (`jumps`: "10 steps" on Shift →,
"Reset" to the first frame).

Frames may come in blocks (`stream`): a page that computes its frames as they are
wanted (training, a step at a time) sends the first block; as the browser nears its
end (stepping or playing) it asks for the next once, `on_more(count)` is called and
the page sends the frames so far, which the browser takes without losing its place.

The position reaches the address bar at once (the link keeps the step) and the server
in the same message as the page's next one (any change), or in one message when Play
stops: `on_move(position)` is then called before the run.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.resources import files

import streamlit as st

from ui.shared.state import FramePlayerKeys
from ui.shared.styles import css

SPEEDS = (1, 2, 4, 8)  # frames a second Play can go at
DEFAULT_SPEED = 4  # Play's speed until the learner picks another


# The player's whole script, as the browser runs it (an ES module: its default export is
# called on every run of the page with the player's data).
PLAYER_JS = files("ui.shared").joinpath("frames.js").read_text(encoding="utf-8")
# Its look, in both themes and in lecture mode (no placeholder: lecture mode's text size
# reaches it as --lab-lecture-text, lecture.css).
PLAYER_CSS = css(__package__, "frames.css")

_component = st.components.v2.component(
    "pooling_lab_frames",
    css=PLAYER_CSS,
    js=PLAYER_JS,
    isolate_styles=False,
)


@dataclass(frozen=True)
class FrameWords:
    """What the controls say: the noun of a frame, the slider's label, the help of
    each button, and the note shown when there is a single frame."""

    noun: str
    slider: str
    slider_help: str
    single: str
    others: dict[str, str] = field(default_factory=dict)  # labels said otherwise

    def labels(self) -> dict[str, str]:
        return {
            "back": "Back",
            "next": "Next",
            "play": "Play",
            "pause": "Pause",
            "back_help": f"The {self.noun} before (← key).",
            "next_help": f"The {self.noun} after (→ key).",
            "play_help": f"Go through every {self.noun}, one after another (P key).",
            "speed": "Speed",
            "per_second": " a second",
            "slider": self.slider,
            "slider_help": self.slider_help,
            "count": f"{self.noun.capitalize()} {{n}} of {{of}}",
            "single": self.single,
        } | self.others


@dataclass(frozen=True)
class FrameSpec:
    """A player's frames. charts: per chart, ui.figures.frame_data.map_frames_data;
    words: per frame {"sentence": markdown with **bold** only, "line": text,
    "aside": 1 where the line may be left out on a projector's narrow column, and
    "note": {"kind": "error" or "info", "text": text}, a box under the words};
    pointer: {"key": a chart's key, "columns": its columns}: its cell (r, c) is
    frame r * columns + c; link: the link parameter holding the position;
    jumps: buttons of the page's own, each {"label", "help", "key" (as
    "shift+ArrowRight"), and "delta" (frames on) or "to" (a frame)};
    stream: frames in blocks, {"id": what they are frames of (a block of the same id
    and more frames extends the last), "final": no more will come, "ahead": how many
    frames before the end the browser asks for more}; first: the number the slider and
    the count give the first frame (1; 0 where frame t is "t steps taken"); speeds:
    the frames a second Play offers, speed the one it starts at."""

    count: int
    charts: list[dict]
    words: list[dict[str, str]]
    link: str
    text: FrameWords
    pointer: dict | None = None
    speeds: tuple[int, ...] = field(default=SPEEDS)
    speed: int = DEFAULT_SPEED
    jumps: tuple[dict, ...] = ()
    stream: dict | None = None
    first: int = 1

    def __post_init__(self):
        if self.speed not in self.speeds:
            raise ValueError(f"speed must be one of the speeds {self.speeds}, not {self.speed}")

    def payload(self) -> dict:
        data = {
            "count": self.count,
            "charts": self.charts,
            "words": self.words,
            "pointer": self.pointer,
            "link": self.link,
            "labels": self.text.labels(),
            "speeds": list(self.speeds),
            "speed": self.speed,
            "jumps": list(self.jumps),
            "stream": self.stream,
            "first": self.first,
        }
        digest = hashlib.blake2b(
            json.dumps(data, sort_keys=True, ensure_ascii=False).encode(), digest_size=8
        )
        return {**data, "signature": digest.hexdigest()}


def _moved(key: str, on_move: Callable[[int], None]) -> None:
    """The browser sent its position (Play stopped, or the page talks to the server)."""
    sent = (st.session_state.get(key) or {}).get("position")
    if isinstance(sent, dict) and isinstance(sent.get("position"), int):
        on_move(sent["position"])


def _wanted(key: str, on_more: Callable[[int], None], on_move: Callable[[int], None]) -> None:
    """The browser nears the end of the frames it has, `count` of them: it asks once,
    saying where it is (the run writes the link: with the step the browser shows)."""
    asked = (st.session_state.get(key) or {}).get("more")
    if isinstance(asked, dict) and isinstance(asked.get("count"), int):
        if isinstance(asked.get("position"), int):
            on_move(asked["position"])
        on_more(asked["count"])


def frame_player(
    spec_payload: dict,
    *,
    keys: FramePlayerKeys,
    position: int,
    on_move: Callable[[int], None],
    lecture: bool,
    part: str = "all",
    on_more: Callable[[int], None] | None = None,
) -> None:
    """The controls (part "controls"), or the controls and the words ("all"), of the
    player keyed `keys`, at `position`. spec_payload: FrameSpec.payload(), built once
    per input (it is what the browser plays). on_move(position): the browser moved;
    on_more(count): the browser wants the frames after its `count` (a stream's)."""
    more = (
        {}
        if on_more is None
        else {"on_more_change": lambda: _wanted(keys.player, on_more, on_move)}
    )
    _component(
        key=keys.player,
        data={
            "id": keys.player,
            "part": part,
            "frames": spec_payload,
            "position": position,
            "lecture": lecture,
        },
        on_position_change=lambda: _moved(keys.player, on_move),
        **more,
        width="stretch",
        height="content",
    )


def frame_words(*, keys: FramePlayerKeys, lecture: bool) -> None:
    """The words of the player keyed `keys`, placed apart from its controls (below the
    maps, say): the sentence and the line of the frame shown."""
    _component(
        key=keys.words,
        data={"id": keys.player, "part": "words", "lecture": lecture},
        width="stretch",
        height="content",
    )
