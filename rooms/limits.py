"""Rate limits that hold back only the one who sends too much, counted in the process.

Who is counted. Every limit is per browser token AND, when the page knows it, per
network address (rooms/addresses.py: Streamlit's peer, or X-Forwarded-For from a
trusted proxy). Nothing is counted per room or for everyone together: a count that
many share is one a stranger can use up, and the room's members and its lecturer
would be refused for someone else's traffic. And nothing shared is counted before the
store knows who is asking (store.py, store_students.py):
- a member's rejoin (a reload, a replica's death) is never counted nor refused: the
  membership is read first, and a rejoin writes nothing unless its nickname changes;
- a member's answer is counted against its own token only (ANSWER_PER_TOKEN), never
  against its address: a hall behind one NAT address shares that;
- the right recovery code is never refused for anyone's wrong ones: it is compared
  first, and only a wrong one is counted (below, why no per-room cap is needed);
- a device holding a room's key is checked by a read and never counted.

Why in the process, not in the database. A refused event must cost no database write:
a count kept in a table is a write (and, on SQLite, the file's one writer lock) per
event, refused ones included, so a flood of refused joins or answers slowed every
answer of the room behind it. Here a count is a dict entry under a lock (thread-safe:
Streamlit runs each session in a thread of its own), and a refusal is raised before any
write transaction begins. The trade-off: each replica counts alone, so a client whose
events are spread over R replicas gets up to R times each number below. That is
accepted because nothing here guards a secret by counting (the codes are long enough,
below), and what must hold for every replica together is held elsewhere: HAProxy's
stick tables (deploy/haproxy.cfg.template) count each source's new connections and
requests in the one proxy in front of every replica, and a replica's sessions stay on
it (sticky cookie), so one browser's events all land in one process. What must be
shared and exact (members, answers, keys, rooms) is in the database.

Each limit is a fixed window of `window_s` seconds; a burst of at most twice a limit
passes at a window's edge, harmless for these. Windows long past are forgotten as
time moves on, so the counts hold only the last two windows of subjects.

The numbers, per minute, and why. A 500-seat hall behind one NAT address, joining
within two minutes (most in the first), is the case the per-address numbers are sized
for: every student's join is one event of the address, the room code mistyped by a few
percent, and their answers are not counted per address at all.
- JOIN_PER_TOKEN 30: joins (and nickname changes) by one browser, real code or not.
  A page joins once per session; 30 is far above a person and stops one browser
  probing codes.
- JOIN_PER_ADDRESS 600: new members from one address. 500 students in two minutes is
  at most 500 in one window (even all in the same minute), with room to spare for
  students on two devices. A script making fresh tokens on one address brings at
  most 600 a minute per replica into a room; a lecturer who sees strangers locks it.
- UNKNOWN_PER_ADDRESS 60: joins and answers to codes with no room, per address (and
  per token, under JOIN_PER_TOKEN). A hall mistyping 10 % of 500 joins in two minutes
  is 50; a student who mistypes is told "no room has this code" unless the same
  address sent 60 of them within the minute. Guessing: there are 25**6 = 244,140,625
  codes; at 60 a minute for a room's 12 hours one address makes 43,200 guesses per
  replica, and with 100 rooms open each hits one with probability 100 / 244,140,625:
  about 1.8 % per address and replica in 12 hours, and a hit only lets one join a
  poll (which the lecturer can lock).
- ANSWER_PER_TOKEN 120: answers by one browser, refused ones included (malformed, a
  closed round, a token that never joined). Cell questions save on every tap; two a
  second for a minute is more than any hand. A browser over it is refused before the
  database is read.
- RECOVERY_PER_TOKEN 10 and RECOVERY_PER_ADDRESS 60: wrong recovery codes per browser
  and per address. A browser past its 10 is refused before its try is looked at (only
  its own tries count there); past the address's 60, a wrong code is told "too many"
  but the right one, compared first, still opens the room, so a script in the
  lecturer's own hall cannot lock the lecturer out. Why no per-room cap: a recovery
  code is 12 characters of 25, 25**12 = 5.96e16 codes, log2 = 55.7 bits. One replica
  checks at most a few thousand tries a second (each a database read and a SHA-256);
  at 10,000 a second for a room's whole 12 hours that is 4.3e8 tries, a chance of
  4.3e8 / 5.96e16 = 7e-9 of finding the code. A per-room cap would add nothing to that
  and would let anyone lock the lecturer out of their room.
- OPEN_PER_TOKEN 10 and OPEN_PER_ADDRESS 30: rooms opened per browser and per
  address. A lecturer opens one room per class (a few when trying things out); 30 a
  minute leaves a department behind one address room for dozens of lecturers, and
  caps what one address leaves in the database at 21,600 rooms per replica in a
  room's 12 hours (they expire and are pruned). Another lecturer elsewhere is never
  refused for it.
"""

from __future__ import annotations

import threading
import weakref
from collections import Counter
from dataclasses import dataclass


@dataclass(frozen=True)
class Limit:
    """At most `count` events per `window_s` seconds for one subject."""

    name: str
    count: int
    window_s: int = 60


JOIN_PER_TOKEN = Limit("join-token", 30)
JOIN_PER_ADDRESS = Limit("join-address", 600)
UNKNOWN_PER_ADDRESS = Limit("unknown-address", 60)
ANSWER_PER_TOKEN = Limit("answer-token", 120)
RECOVERY_PER_TOKEN = Limit("recovery-token", 10)
RECOVERY_PER_ADDRESS = Limit("recovery-address", 60)
OPEN_PER_TOKEN = Limit("open-token", 10)
OPEN_PER_ADDRESS = Limit("open-address", 30)
LIMITS = (
    JOIN_PER_TOKEN,
    JOIN_PER_ADDRESS,
    UNKNOWN_PER_ADDRESS,
    ANSWER_PER_TOKEN,
    RECOVERY_PER_TOKEN,
    RECOVERY_PER_ADDRESS,
    OPEN_PER_TOKEN,
    OPEN_PER_ADDRESS,
)


class Counts:
    """The fixed-window counts of one process for one database (thread-safe).
    A subject of None (no address known: a page run without a connection) is never
    counted nor refused: None is not one client, and counting it would make it a
    count that everyone without an address shares."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._windows: dict[int, Counter] = {}  # {window start: {(limit, subject): n}}
        self._newest = 0

    def _window(self, limit: Limit, now: float) -> Counter:
        start = int(now // limit.window_s) * limit.window_s
        if start > self._newest:  # time moved on: forget windows long past
            self._newest = start
            longest = max(each.window_s for each in LIMITS)
            for old in [old for old in self._windows if old < start - longest]:
                del self._windows[old]
        return self._windows.setdefault(start, Counter())

    def hit(self, limit: Limit, subject, *, now: float) -> bool:
        """Count one event of `subject` under `limit`; True while within it."""
        if subject is None:
            return True
        with self._lock:
            counts = self._window(limit, now)
            counts[limit.name, subject] += 1
            return counts[limit.name, subject] <= limit.count

    def within(self, limit: Limit, subject, *, now: float) -> bool:
        """Whether one more event of `subject` would be within `limit` (not counted)."""
        if subject is None:
            return True
        with self._lock:
            return self._window(limit, now)[limit.name, subject] < limit.count

    def windows(self) -> int:
        """How many windows are kept (for the tests: old ones go)."""
        with self._lock:
            return len(self._windows)


_counts: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # {engine: Counts}
_counts_lock = threading.Lock()


def counts(engine) -> Counts:
    """This process's counts for `engine`'s database (one per engine: a test's new
    engine starts with none counted, as a new replica does)."""
    with _counts_lock:
        found = _counts.get(engine)
        if found is None:
            found = _counts[engine] = Counts()
        return found
