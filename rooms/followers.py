"""Which students' pages to redraw when a room moves on (pure: no Streamlit).

Every student's page, after each full run, says which room it shows and the pulse key
it was drawn from (teaching.class_mode.student.pulse_key). The process reads each
followed room's pulse a few times a second (one read per room, however many pages),
and every page drawn from another pulse is due for a redraw, asked once and then
again only after `retry_s` (its run may be waiting behind a hundred others; the page
says it is done by following with the new key).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

RETRY_S = 3.0  # a page asked to redraw is asked again only after this long


@dataclass
class Follow:
    code: str
    drawn: tuple | None  # teaching.class_mode.student.pulse_key of the pulse the page shows
    asked_at: float = float("-inf")  # when it was last asked to redraw


class Followers:
    """{session id: the room its page shows and the pulse it was drawn from}."""

    def __init__(self, retry_s: float = RETRY_S):
        self.retry_s = retry_s
        self._follows: dict[str, Follow] = {}
        self._lock = threading.Lock()

    def follow(self, session: str, code: str | None, drawn: tuple | None) -> None:
        """The page of `session` now shows room `code` drawn from pulse key `drawn`
        (None for `code`: no room, it follows none)."""
        with self._lock:
            if code is None:
                self._follows.pop(session, None)
                return
            kept = self._follows.get(session)
            if kept is None or kept.code != code or kept.drawn != drawn:
                self._follows[session] = Follow(code, drawn)

    def forget(self, session: str) -> None:
        with self._lock:
            self._follows.pop(session, None)

    def unask(self, session: str) -> None:
        """The redraw asked of `session` did not start (it was running): ask at once
        next time."""
        with self._lock:
            kept = self._follows.get(session)
            if kept is not None:
                kept.asked_at = float("-inf")

    def rooms(self) -> set[str]:
        """The codes some page follows."""
        with self._lock:
            return {kept.code for kept in self._follows.values()}

    def due(self, keys: dict[str, tuple | None], *, now: float, most: int = 8) -> list[str]:
        """The sessions whose page was drawn from another pulse than `keys` ({code:
        the pulse key read now}; a room missing from it could not be read and is left
        alone), each marked asked at `now`: at most `most` asked and not yet redrawn
        at once. Runs that share a process's cores all end late together; a few at a
        time, the first pages show the round while the last still wait."""
        with self._lock:
            behind = [
                (session, kept)
                for session, kept in self._follows.items()
                if kept.code in keys and keys[kept.code] != kept.drawn
            ]
            pending = sum(now - kept.asked_at < self.retry_s for _, kept in behind)
            found = []
            for session, kept in behind:
                if len(found) >= most - pending:
                    break
                if now - kept.asked_at >= self.retry_s:
                    kept.asked_at = now
                    found.append(session)
            return found
