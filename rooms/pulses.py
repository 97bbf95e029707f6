"""A room's pulse, kept for about a second per process (pure: no Streamlit).

Every student's page asks for its room's pulse every few seconds; 200 students of one
room on one replica would be 70 reads a second. Through this cache they cost one read
a second per room and replica: the first asker in a second reads, the others get its
answer. The read happens under the room's own lock, so askers of that room arriving
while it runs wait for it rather than read too, and askers of other rooms do not wait
for it (a slow read of one room stalls no other room's pages). The cache's own lock
guards only the dicts, never a read. The process's push (ui/class_mode/student/push.py) reads fresh
pulses of the rooms its pages follow ten times a second, past this cache.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

TTL_S = 1.0  # how old a pulse may be when handed out
MOST_ROOMS = 1024  # rooms kept at once; the oldest entry goes first beyond that


@dataclass(frozen=True)
class Kept:
    value: object
    read_at: float  # the clock when the value was read from the store


class PulseCache:
    """{code: the last pulse read and when}. `clock` is time.monotonic (a test's own
    clock in the tests)."""

    def __init__(
        self,
        ttl_s: float = TTL_S,
        *,
        most: int = MOST_ROOMS,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.ttl_s, self.most, self.clock = ttl_s, most, clock
        self._kept: dict[str, Kept] = {}
        self._readers: dict[str, threading.Lock] = {}  # {code: its lock}, as _kept
        self._lock = threading.Lock()

    def get(self, code: str, read: Callable[[], object]) -> object:
        """The pulse of `code`, read with `read()` when the one kept is older than the
        TTL. An exception from `read` goes to the caller and nothing is kept."""
        asked = self.clock()
        fresh = self._fresh(code, since=asked - self.ttl_s)
        if fresh is not None:
            return fresh.value
        with self._reader(code):
            # Read by the asker this one waited for: fresh when this one asked, however
            # long the read took (a slow store would otherwise have each waiting asker
            # find it stale in turn and read again, one after another).
            fresh = self._fresh(code, since=asked - self.ttl_s)
            if fresh is not None:
                return fresh.value
            now = self.clock()
            try:
                value = read()
            except BaseException:
                self._drop_reader(code)  # a room gone leaves no lock behind
                raise
            self.put(code, value, read_at=now)
            return value

    def _fresh(self, code: str, *, since: float) -> Kept | None:
        """The pulse kept for `code` if it was read after clock `since`."""
        with self._lock:
            kept = self._kept.get(code)
        return kept if kept is not None and kept.read_at > since else None

    def _reader(self, code: str) -> threading.Lock:
        """The room's own lock, held while its pulse is read."""
        with self._lock:
            return self._readers.setdefault(code, threading.Lock())

    def _drop_reader(self, code: str) -> None:
        with self._lock:
            if code not in self._kept:
                self._readers.pop(code, None)

    def put(self, code: str, value: object, *, read_at: float) -> None:
        """A pulse read elsewhere (a page's full run reads it fresh) at clock `read_at`:
        kept unless a later one is."""
        with self._lock:
            kept = self._kept.get(code)
            if kept is None or kept.read_at <= read_at:
                self._keep(code, Kept(value, read_at))

    def forget(self, code: str) -> None:
        with self._lock:
            self._kept.pop(code, None)
            self._readers.pop(code, None)

    def _keep(self, code: str, kept: Kept) -> None:
        self._kept.pop(code, None)  # re-inserted last: dicts keep insertion order
        self._kept[code] = kept
        while len(self._kept) > self.most:
            oldest = next(iter(self._kept))
            del self._kept[oldest]
            # An asker may still hold the old lock: at worst its room is read twice.
            self._readers.pop(oldest, None)
