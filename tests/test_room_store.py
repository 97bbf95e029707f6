"""The rooms' store on SQLite and on a real PostgreSQL (every test runs on both): a
room's life, who may do what, and what is refused."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa
from room_store_helpers import (  # noqa: F401  (engine_fixture: the `engine` fixture)
    NOW,
    RIGHT,
    cells_question,
    engine_fixture,
    open_and_ask,
    rows,
    student,
    value_question,
)

from rooms import store, store_reads, store_students
from rooms.schema import KEYS, MEMBERS, ROOMS
from teaching.class_mode import codes

# -- the life of a room --------------------------------------------------------------------


def test_a_whole_peer_instruction_cycle(engine):
    room = store.open_room(engine, token=codes.new_token(), now=NOW)
    assert store.pulse(engine, room.code, now=NOW) == store.Pulse(
        room.code, 0, "waiting", 0, False, NOW + store.LIFETIME_S
    )
    ann, bob, cy = (student(engine, room.code) for _ in range(3))
    first = store.ask(engine, room.code, secret=room.secret, question=cells_question(), now=NOW)
    assert first == 1
    assert store.pulse(engine, room.code, now=NOW).state == "open"
    store.answer(engine, room.code, token=ann, round_number=1, raw=RIGHT, now=NOW)
    store.answer(engine, room.code, token=bob, round_number=1, raw=[[1, 0]], now=NOW)
    # Bob changes his answer: still one answer of his.
    store.answer(engine, room.code, token=bob, round_number=1, raw=[[1, 0], [2, 2]], now=NOW)
    assert store_reads.answer_count(engine, room.code, 1, now=NOW) == 2
    assert store.my_answer(engine, room.code, token=bob, round_number=1, now=NOW) == {
        (1, 0),
        (2, 2),
    }
    assert store.my_answer(engine, room.code, token=cy, round_number=1, now=NOW) is None
    assert store.close_round(engine, room.code, secret=room.secret, now=NOW) == "closed"
    with pytest.raises(store.RoundClosed):
        store.answer(engine, room.code, token=cy, round_number=1, raw=RIGHT, now=NOW)
    with pytest.raises(store.RoundClosed):
        store.answer(engine, room.code, token=ann, round_number=1, raw=[[0, 0]], now=NOW)
    assert sorted(map(sorted, store.answers(engine, room.code, 1, now=NOW))) == sorted(
        [sorted(map(tuple, RIGHT)), [(1, 0), (2, 2)]]
    )
    assert store.reveal(engine, room.code, secret=room.secret, now=NOW) == "revealed"
    assert store.close_round(engine, room.code, secret=room.secret, now=NOW) == "revealed"
    second = store.vote_again(engine, room.code, secret=room.secret, now=NOW)
    assert second == 2
    pulse = store.pulse(engine, room.code, now=NOW)
    assert (pulse.round_number, pulse.state, pulse.vote) == (2, "open", 2)
    again = store.round_of(engine, room.code, 2, now=NOW)
    assert (again.vote, again.first_round, again.state) == (2, 1, "open")
    assert again.question.answer == cells_question().answer
    assert store.round_of(engine, room.code, 1, now=NOW).state == "revealed"
    assert store.answers(engine, room.code, 2, now=NOW) == []
    store.answer(engine, room.code, token=cy, round_number=2, raw=RIGHT, now=NOW)
    assert store_reads.answer_count(engine, room.code, 2, now=NOW) == 1
    store.end_room(engine, room.code, secret=room.secret, now=NOW)
    pulse = store.pulse(engine, room.code, now=NOW)
    assert pulse.ended and pulse.state == "closed"
    with pytest.raises(store.RoundClosed):
        store.answer(engine, room.code, token=cy, round_number=2, raw=RIGHT, now=NOW)
    with pytest.raises(store.RoomEnded):
        store.ask(engine, room.code, secret=room.secret, question=cells_question(), now=NOW)
    assert store_reads.answer_count(engine, room.code, 2, now=NOW) == 1  # kept for the lecturer


def test_a_phones_view_reads_in_one_go_what_the_separate_reads_say(engine):
    """store.phone_view, the one read a student's page is drawn from, agrees with the
    pulse, the round and the browser's answers read one by one: waiting, open with and
    without an answer, a second vote with the first vote's answer, ended and expired."""
    room = store.open_room(engine, token=codes.new_token(), now=NOW)
    ann, bob = (student(engine, room.code) for _ in range(2))

    def agrees(token, *, mine, first_vote=None):
        view = store.phone_view(engine, room.code, token=token, now=NOW)
        pulse = store.pulse(engine, room.code, now=NOW)
        assert view.pulse == pulse
        assert (view.mine, view.first_vote) == (mine, first_vote)
        if view.round is not None:
            assert view.round == store.round_of(engine, room.code, pulse.round_number, now=NOW)
        return view

    assert agrees(ann, mine=None).round is None  # waiting for the first question
    store.ask(engine, room.code, secret=room.secret, question=cells_question(), now=NOW)
    store.answer(engine, room.code, token=ann, round_number=1, raw=RIGHT, now=NOW)
    assert agrees(ann, mine=store.my_answer(engine, room.code, token=ann, round_number=1, now=NOW))
    assert agrees(bob, mine=None).round.state == "open"
    store.reveal(engine, room.code, secret=room.secret, now=NOW)
    store.vote_again(engine, room.code, secret=room.secret, now=NOW)
    store.answer(engine, room.code, token=ann, round_number=2, raw=[[1, 0]], now=NOW)
    first = store.my_answer(engine, room.code, token=ann, round_number=1, now=NOW)
    view = agrees(ann, mine={(1, 0)}, first_vote=first)
    assert (view.round.number, view.round.vote, view.round.first_round) == (2, 2, 1)
    assert agrees(bob, mine=None).round.number == 2
    later = NOW + store.LIFETIME_S + 1  # expired, not deleted yet: ended, as pulse says
    expired = store.phone_view(engine, room.code, token=ann, now=later)
    assert expired.pulse == store.pulse(engine, room.code, now=later) and expired.pulse.ended
    assert expired.round is None
    store.end_room(engine, room.code, secret=room.secret, now=NOW)
    assert agrees(ann, mine=None).round is None
    with pytest.raises(store.NoSuchRoom):
        store.phone_view(engine, "ZZZZZZ", token=ann, now=NOW)


def test_a_new_question_closes_the_round_before(engine):
    room, first = open_and_ask(engine)
    token = student(engine, room.code)
    second = store.ask(engine, room.code, secret=room.secret, question=value_question(), now=NOW)
    assert (first, second) == (1, 2)
    assert store.round_of(engine, room.code, 1, now=NOW).state == "closed"
    with pytest.raises(store.RoundClosed):
        store.answer(engine, room.code, token=token, round_number=1, raw=RIGHT, now=NOW)
    assert store.answer(engine, room.code, token=token, round_number=2, raw="1/4", now=NOW) == 0.25
    assert store.vote_again(engine, room.code, secret=room.secret, now=NOW) == 3
    third = store.round_of(engine, room.code, 3, now=NOW)
    assert (third.vote, third.first_round, third.question.kind) == (2, 2, "value")


def test_nothing_to_close_or_vote_on_before_a_question(engine):
    room = store.open_room(engine, token=codes.new_token(), now=NOW)
    for control in (store.close_round, store.reveal, store.vote_again):
        with pytest.raises(store.NoSuchRound):
            control(engine, room.code, secret=room.secret, now=NOW)
    with pytest.raises(store.NoSuchRound):
        store.round_of(engine, room.code, 1, now=NOW)


# -- who may do what -------------------------------------------------------------------------


def test_only_a_key_controls_the_room_and_the_recovery_code_gets_one(engine):
    room, _ = open_and_ask(engine)
    token = student(engine, room.code)
    assert store.authorize(engine, room.code, room.secret, now=NOW)
    other = store.open_room(engine, token=codes.new_token(), now=NOW)
    # A recovery code is no key: it only buys one through `recover` (counted there).
    for wrong in (token, "", other.secret, room.recovery_code, room.secret[:-1]):
        assert not store.authorize(engine, room.code, wrong, now=NOW)
        for control in (store.close_round, store.reveal, store.vote_again, store.end_room):
            with pytest.raises(store.NotAllowed, match=f"does not open room {room.code}"):
                control(engine, room.code, secret=wrong, now=NOW)
    with pytest.raises(store.NotAllowed):
        store.ask(engine, room.code, secret=token, question=cells_question(), now=NOW)
    assert store.pulse(engine, room.code, now=NOW).state == "open"  # nothing changed
    # On another device, the recovery code (as typed, grouped) gets a key of its own.
    typed = codes.grouped(room.recovery_code).lower()
    device = store.recover(engine, room.code, typed, token=codes.new_token(), now=NOW)
    assert device not in (room.secret, room.recovery_code)
    assert store.reveal(engine, room.code, secret=device, now=NOW) == "revealed"
    assert store.authorize(engine, room.code, room.secret, now=NOW)  # the opener's too
    assert not store.authorize(engine, other.code, device, now=NOW)  # that room's only


def test_only_digests_of_the_key_and_recovery_code_are_stored(engine):
    room = store.open_room(engine, token=codes.new_token(), now=NOW)
    with engine.connect() as connection:
        stored = connection.execute(sa.select(ROOMS)).one()
    assert stored.key_digest == codes.digest(room.secret)
    assert stored.recovery_digest == codes.digest(room.recovery_code)
    assert room.secret not in str(tuple(stored)) and room.recovery_code not in str(tuple(stored))
    device = store.recover(engine, room.code, room.recovery_code, token=codes.new_token(), now=NOW)
    with engine.connect() as connection:
        (kept,) = connection.execute(sa.select(KEYS.c.key_digest)).scalars()
    assert kept == codes.digest(device)


def test_students_must_join_with_a_valid_token(engine):
    room, number = open_and_ask(engine)
    with pytest.raises(store.NotAllowed, match="Join the room"):
        store.answer(
            engine, room.code, token=codes.new_token(), round_number=number, raw=RIGHT, now=NOW
        )
    for bad in ("short", "x" * 31 + "!", None):
        with pytest.raises(store.NotAllowed, match="token"):
            store.join(engine, room.code, token=bad, now=NOW)
    token = student(engine, room.code)
    for number in (7, 0, "1", None, True):
        with pytest.raises(store.NoSuchRound):
            store.answer(engine, room.code, token=token, round_number=number, raw=RIGHT, now=NOW)


def test_codes_are_normalised_and_unknown_ones_refused(engine):
    room, _ = open_and_ask(engine)
    spaced = f"{room.code[:3].lower()}-{room.code[3:]}"
    assert store.join(engine, spaced, token=codes.new_token(), now=NOW).code == room.code
    with pytest.raises(store.NoSuchRoom, match="6 letters or digits"):
        store.join(engine, "K7QX", token=codes.new_token(), now=NOW)
    unknown = "33333" + ("4" if room.code != "333334" else "6")
    with pytest.raises(store.NoSuchRoom, match="No room has this code"):
        store.join(engine, unknown, token=codes.new_token(), now=NOW)
    with pytest.raises(store.NoSuchRoom):
        store.pulse(engine, unknown, now=NOW)


def test_nicknames_are_plain_short_text(engine):
    room, _ = open_and_ask(engine)
    typed = "  <b>Ann</b>\x00\n" + "x" * 10  # 24 characters as sent: the box's cap
    assert len(typed) == store_students.NICKNAME_LENGTH
    student(engine, room.code, nickname=typed)
    with engine.connect() as connection:
        nickname = connection.execute(sa.select(MEMBERS.c.nickname)).scalar_one()
    assert nickname == "<b>Ann</b> " + "x" * 10
    with pytest.raises(store_reads.TooLong, match="nickname is longer than 24 characters"):
        student(engine, room.code, nickname=typed + "x")  # refused, not cut
    assert store_reads.member_count(engine, room.code, now=NOW) == 1


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ([[4, 0]], "Cell (4, 0) is outside the 4×4 grid"),
        ([[0, 0], [0, 0]], "picked twice"),
        ("[[0, 0]]", "a set of picked cells"),
        ([[0, 0]] * 17, "at most 16 cells"),
    ],
)
def test_bad_answers_are_refused_and_not_stored(engine, raw, reason):
    room, number = open_and_ask(engine)
    token = student(engine, room.code)
    with pytest.raises(store_reads.InvalidAnswer, match=re.escape(reason)):
        store.answer(engine, room.code, token=token, round_number=number, raw=raw, now=NOW)
    assert store_reads.answer_count(engine, room.code, number, now=NOW) == 0


def test_bad_numbers_are_refused(engine):
    room, number = open_and_ask(engine, value_question())
    token = student(engine, room.code)
    for raw, reason in (("inf", "finite"), ("2e6", "far larger"), (float("nan"), "finite")):
        with pytest.raises(store_reads.InvalidAnswer, match=reason):
            store.answer(engine, room.code, token=token, round_number=number, raw=raw, now=NOW)
    assert store_reads.answer_count(engine, room.code, number, now=NOW) == 0
