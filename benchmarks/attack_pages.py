"""The pages the attack benchmark (benchmarks/bench_attacks.py) drives over Streamlit's
protocol, from a loopback source address of their own (127.0.0.0/8: one address
stands for one device or network): the lecturer's Class page (open a room, type a
recovery code, the room's own controls) and a student's Join page (the join form).
A phone joining by the link is deploy/room_client.Student.

What a page said is read from its run: an error or warning box is a refusal; the
Class page says its refusals in error boxes, the Join page a wrong code in an error
box and a refusal (too many, ...) in a warning.
"""

from __future__ import annotations

import json

from deploy.room_client import ROOMS_NAMESPACE, TOKEN_NAMESPACE, browser_answer
from deploy.stream_client import Run, Session

LECTURER_TOKEN = "class-lecturer-token"  # ui/class_mode/lecturer/state.TOKEN
OPEN, NEW = "cls_open", "cls_new"  # ... STATE.open_button, new_button
RECOVERY, RECOVER = "cls_recovery", "cls_recover"  # ... STATE.recovery, recover_button
JOIN_CODE, JOIN_NICKNAME, JOIN = "join_code", "join_nickname", "join_button"


def said(run: Run) -> str:
    """What the run's page said in an error or warning box (or raised), first only."""
    trouble = run.exceptions + run.errors + run.warnings
    return trouble[0][:140] if trouble else ""


class ClassPage:
    """A browser on the Class page (/class, or /class?room=CODE) holding `token` and
    the keys `rooms` ([{"code", "secret"}]) in its storage."""

    def __init__(self, url: str, *, token: str, source: str | None, room: str = "", rooms=()):
        query = f"room={room}" if room else ""
        self.session = Session(url, "class", query, source=source)
        self.token, self.rooms = token, list(rooms)

    async def open(self) -> Run:
        await self.session.open()
        stored = {
            ROOMS_NAMESPACE: json.dumps(self.rooms) if self.rooms else None,
            LECTURER_TOKEN: json.dumps(self.token),
        }
        return await self.session.rerun(browser_answer(**stored))

    def has(self, key: str) -> bool:
        return key in self.session.drawn

    async def press(self, key: str) -> Run:
        return await self.session.rerun((key, "trigger_value", True))

    async def open_room(self) -> Run:
        """Open a room with the chooser's question (from the opening screen; from a
        room's screen, "Open a new room" first)."""
        if not self.has(OPEN) and self.has(NEW):
            await self.press(NEW)
        return await self.press(OPEN)

    def in_room(self) -> bool:
        """Whether the page shows a room it holds the key of (the link names a room
        and no recovery form is drawn)."""
        return "room=" in self.session.query and not self.has(RECOVERY)

    async def recover(self, text: str) -> Run:
        """`text` typed in the recovery box, then "Open the room here"."""
        return await self.session.rerun(
            widgets=((RECOVERY, "string_value", text), (RECOVER, "trigger_value", True))
        )

    async def close(self) -> None:
        await self.session.close()


class JoinForm:
    """A browser on the Join page without a link, holding `token`: the join form."""

    def __init__(self, url: str, *, token: str, source: str | None):
        self.session = Session(url, "join", "", source=source)
        self.token = token

    async def open(self) -> Run:
        await self.session.open()
        return await self.session.rerun(browser_answer(**{TOKEN_NAMESPACE: json.dumps(self.token)}))

    async def join(self, code: str, nickname: str = "") -> Run:
        return await self.session.rerun(
            widgets=(
                (JOIN_CODE, "string_value", code),
                (JOIN_NICKNAME, "string_value", nickname),
                (JOIN, "trigger_value", True),
            )
        )

    def joined(self) -> bool:
        return JOIN not in self.session.drawn

    async def close(self) -> None:
        await self.session.close()
