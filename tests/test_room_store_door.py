"""Who is in and who holds a key, on SQLite and on a real PostgreSQL: a locked room
keeps its members and refuses new phones; a new recovery code keeps only the key that
made it; the lock column comes to a database made before it."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from room_store_helpers import (  # noqa: F401  (engine_fixture: the `engine` fixture)
    NOW,
    RIGHT,
    engine_fixture,
    open_and_ask,
    student,
)

from rooms import store
from rooms.schema import KEYS, ROOMS, new_engine
from teaching.class_mode import codes

# -- the lock ------------------------------------------------------------------------------


def test_a_locked_room_keeps_its_members_and_refuses_new_phones(engine):
    room, number = open_and_ask(engine)
    members = [student(engine, room.code, nickname=name) for name in ("Ana", "Ben")]
    assert store.door(engine, room.code, now=NOW) == store.Door(members=2, locked=False)
    assert store.lock_room(engine, room.code, secret=room.secret, locked=True, now=NOW)
    assert store.door(engine, room.code, now=NOW) == store.Door(members=2, locked=True)
    # A new phone is told in one sentence, and is not counted in.
    stranger = codes.new_token()
    with pytest.raises(store.RoomLocked) as refused:
        store.join(engine, room.code, token=stranger, nickname="Eve", now=NOW + 1)
    assert (
        str(refused.value) == f"Room {room.code} is locked: the lecturer lets no new phones join."
    )
    with pytest.raises(store.NotAllowed, match="Join the room"):
        store.answer(engine, room.code, token=stranger, round_number=number, raw=RIGHT, now=NOW)
    assert store.door(engine, room.code, now=NOW).members == 2
    # A member's reload rejoins (its nickname kept) and answers.
    pulse = store.join(engine, room.code, token=members[0], now=NOW + 2)
    assert (pulse.round_number, pulse.state) == (number, "open")
    store.answer(engine, room.code, token=members[0], round_number=number, raw=RIGHT, now=NOW + 3)
    assert store.answers(engine, room.code, number, now=NOW) == [frozenset(map(tuple, RIGHT))]
    # Unlocked, the new phone gets in.
    assert not store.lock_room(engine, room.code, secret=room.secret, locked=False, now=NOW)
    store.join(engine, room.code, token=stranger, now=NOW + 4)
    assert store.door(engine, room.code, now=NOW) == store.Door(members=3, locked=False)


def test_only_a_key_locks_a_room_and_a_lock_outlives_no_room(engine):
    room, _ = open_and_ask(engine)
    token = student(engine, room.code)
    for wrong in (token, room.recovery_code, ""):
        with pytest.raises(store.NotAllowed, match=f"does not open room {room.code}"):
            store.lock_room(engine, room.code, secret=wrong, locked=True, now=NOW)
    assert not store.door(engine, room.code, now=NOW).locked
    store.lock_room(engine, room.code, secret=room.secret, locked=True, now=NOW)
    # An expired room says so to everyone, locked or not.
    later = NOW + store.LIFETIME_S + 1
    with pytest.raises(store.NoSuchRoom):
        store.join(engine, room.code, token=codes.new_token(), now=later)
    with pytest.raises(store.NoSuchRoom):
        store.door(engine, room.code, now=later)


# -- a new recovery code ---------------------------------------------------------------------


def test_a_new_recovery_code_keeps_only_the_key_that_made_it(engine):
    room, _ = open_and_ask(engine)
    laptop = store.recover(engine, room.code, room.recovery_code, token=codes.new_token(), now=NOW)
    tablet = store.recover(engine, room.code, room.recovery_code, token=codes.new_token(), now=NOW)
    made = store.replace_recovery_code(engine, room.code, secret=laptop, now=NOW + 1)
    assert made != room.recovery_code and len(codes.normal_recovery_code(made)) == 12
    # The maker's key still runs the room; the opener's and the tablet's do not.
    assert store.authorize(engine, room.code, laptop, now=NOW + 2)
    assert store.close_round(engine, room.code, secret=laptop, now=NOW + 2) == "closed"
    for revoked in (room.secret, tablet):
        assert not store.authorize(engine, room.code, revoked, now=NOW + 2)
        with pytest.raises(store.NotAllowed, match=f"does not open room {room.code}"):
            store.reveal(engine, room.code, secret=revoked, now=NOW + 2)
        with pytest.raises(store.NotAllowed):
            store.replace_recovery_code(engine, room.code, secret=revoked, now=NOW + 2)
    # The old recovery code opens nothing; the new one does.
    with pytest.raises(store.WrongRecoveryCode):
        store.recover(engine, room.code, room.recovery_code, token=codes.new_token(), now=NOW + 3)
    grouped = codes.grouped(made).lower()
    device = store.recover(engine, room.code, grouped, token=codes.new_token(), now=NOW + 3)
    assert store.authorize(engine, room.code, device, now=NOW + 3)
    # Only digests are kept: the new code is nowhere in the database.
    with engine.connect() as connection:
        stored = connection.execute(sa.select(ROOMS)).one()
        keys = connection.execute(sa.select(KEYS.c.key_digest)).scalars().all()
    assert stored.recovery_digest == codes.digest(made) and made not in str(tuple(stored))
    assert stored.key_digest == codes.digest(laptop)
    assert keys == [codes.digest(device)]


def test_the_openers_own_new_code_revokes_every_recovered_key(engine):
    room, _ = open_and_ask(engine)
    device = store.recover(engine, room.code, room.recovery_code, token=codes.new_token(), now=NOW)
    store.replace_recovery_code(engine, room.code, secret=room.secret, now=NOW + 1)
    assert store.authorize(engine, room.code, room.secret, now=NOW + 2)
    assert not store.authorize(engine, room.code, device, now=NOW + 2)


# -- a database made before the lock -----------------------------------------------------------


def test_a_database_made_before_the_lock_gets_its_column(engine):
    room, _ = open_and_ask(engine)
    member = student(engine, room.code)
    with engine.begin() as connection:  # the table as the release before made it
        connection.exec_driver_sql(f"ALTER TABLE {ROOMS.name} DROP COLUMN locked")
    again = new_engine(engine.url.render_as_string(hide_password=False))
    try:
        columns = sa.inspect(again).get_columns(ROOMS.name)
        assert "locked" in [column["name"] for column in columns]
        assert store.door(again, room.code, now=NOW) == store.Door(members=1, locked=False)
        store.lock_room(again, room.code, secret=room.secret, locked=True, now=NOW)
        store.join(again, room.code, token=member, now=NOW + 1)
        with pytest.raises(store.RoomLocked):
            store.join(again, room.code, token=codes.new_token(), now=NOW + 1)
        # Prepared again (a second replica starting): nothing to add, nothing fails.
        new_engine(again.url.render_as_string(hide_password=False)).dispose()
    finally:
        again.dispose()
