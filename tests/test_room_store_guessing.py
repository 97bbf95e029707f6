"""Who the rooms' limits hold back, on SQLite and PostgreSQL: the one who tries wrong,
never the lecturer holding a key or typing the right code. Wrong recovery codes per
browser and per address, codes with no room answered and counted as real ones, rooms
opened per browser and per address, refused answers counted. Windows are crossed by
passing a later `now`."""

from __future__ import annotations

from dataclasses import replace

import pytest
import sqlalchemy as sa
from room_store_helpers import (  # noqa: F401  (engine_fixture: the `engine` fixture)
    NOW,
    RIGHT,
    engine_fixture,
    open_and_ask,
    rows,
    student,
    value_question,
)

from rooms import limits, store, store_reads
from rooms.schema import ROOMS
from teaching.class_mode import codes

WRONG = "AAAA-AAAA-AAAA"  # a recovery code's shape; no room's (one in 6e16)
HALL, ELSEWHERE = "198.51.100.7", "203.0.113.40"  # two networks' addresses


def unknown_code(*taken: str) -> str:
    """A join code no room here has."""
    while True:
        code = codes.new_code()
        if code not in taken:
            return code


def try_recovery(engine, code, typed, *, token, now, address=None) -> str:
    """What the recovery form would say: "key" when it opened the room, else the
    refusal's kind and sentence."""
    try:
        store.recover(engine, code, typed, token=token, address=address, now=now)
    except store.RoomError as error:
        return f"{type(error).__name__}: {error}"
    return "key"


# -- the lecturer is never locked out ---------------------------------------------------------


def test_wrong_recovery_codes_from_another_browser_never_lock_the_lecturer_out(engine):
    """The issue's scenario: a room taken over on a second device, then 11 and more
    wrong recovery codes from another browser within the minute."""
    room, _ = open_and_ask(engine)
    lecturer = codes.new_token()
    second = store.recover(engine, room.code, codes.grouped(room.recovery_code), token=lecturer,
                           now=NOW)  # fmt: skip
    attacker = codes.new_token()
    said = [try_recovery(engine, room.code, WRONG, token=attacker, now=NOW + 1) for _ in range(15)]
    wrong = f"WrongRecoveryCode: That recovery code does not open room {room.code}."
    assert said[: limits.RECOVERY_PER_TOKEN.count] == [wrong] * limits.RECOVERY_PER_TOKEN.count
    assert set(said[limits.RECOVERY_PER_TOKEN.count :]) == {
        "TooFast: Too many wrong recovery codes from this browser: wait a minute."
    }
    # Within the same minute, both devices of the lecturer work, Close included ...
    assert store.authorize(engine, room.code, second, now=NOW + 2)
    assert store.close_round(engine, room.code, secret=second, now=NOW + 2) == "closed"
    assert store.reveal(engine, room.code, secret=room.secret, now=NOW + 2) == "revealed"
    # ... and the right recovery code still opens the room on a third one.
    third = store.recover(engine, room.code, room.recovery_code, token=lecturer, now=NOW + 3)
    assert store.vote_again(engine, room.code, secret=third, now=NOW + 3) == 2


def test_wrong_recovery_codes_are_limited_per_address_never_the_right_one(engine, monkeypatch):
    monkeypatch.setattr(
        limits, "RECOVERY_PER_ADDRESS", replace(limits.RECOVERY_PER_ADDRESS, count=5)
    )
    room, _ = open_and_ask(engine)
    said = [try_recovery(engine, room.code, WRONG, token=codes.new_token(), address=HALL,
                         now=NOW) for _ in range(7)]  # fmt: skip
    assert (
        said[:5] == [f"WrongRecoveryCode: That recovery code does not open room {room.code}."] * 5
    )
    assert (
        said[5:] == ["TooFast: Too many wrong recovery codes from this network: wait a minute."] * 2
    )
    # The right code, from the same network, within the minute: compared first, it opens.
    assert try_recovery(engine, room.code, room.recovery_code, token=codes.new_token(),
                        address=HALL, now=NOW + 1) == "key"  # fmt: skip
    assert "WrongRecoveryCode" in try_recovery(engine, room.code, WRONG,
                                               token=codes.new_token(), address=ELSEWHERE,
                                               now=NOW + 1)  # fmt: skip
    assert "WrongRecoveryCode" in try_recovery(engine, room.code, WRONG, token=codes.new_token(),
                                               address=HALL, now=NOW + 60)  # fmt: skip


def test_a_right_recovery_code_gives_its_tries_back(engine):
    room, _ = open_and_ask(engine)
    token = codes.new_token()
    for second in range(3 * limits.RECOVERY_PER_TOKEN.count):
        assert try_recovery(engine, room.code, room.recovery_code, token=token,
                            now=NOW + second / 10) == "key"  # fmt: skip
    assert "WrongRecoveryCode" in try_recovery(engine, room.code, WRONG, token=token, now=NOW + 9)


# -- codes with no room ------------------------------------------------------------------------


def test_the_recovery_form_answers_and_counts_unknown_codes_as_real_ones(engine):
    room, _ = open_and_ask(engine)
    unknown = unknown_code(room.code)
    said = {}
    for code in (room.code, unknown):  # one browser each, twelve tries
        token = codes.new_token()
        said[code] = [try_recovery(engine, code, WRONG, token=token, now=NOW) for _ in range(12)]
    assert [text.replace(room.code, "CODE") for text in said[room.code]] == [
        text.replace(unknown, "CODE") for text in said[unknown]
    ]
    per_token = limits.RECOVERY_PER_TOKEN.count
    assert said[unknown][per_token:] == [
        "TooFast: Too many wrong recovery codes from this browser: wait a minute."
    ] * (12 - per_token)


def test_two_thousand_codes_from_one_browser_hit_the_limit_on_both_forms(engine):
    room, _ = open_and_ask(engine)
    token = codes.new_token()
    guesses = [unknown_code(room.code) for _ in range(2000)]
    said = [try_recovery(engine, code, WRONG, token=token, now=NOW + i / 100)
            for i, code in enumerate(guesses)]  # fmt: skip
    refused = [text.startswith("TooFast") for text in said]
    assert sum(not r for r in refused) == limits.RECOVERY_PER_TOKEN.count
    assert refused[limits.RECOVERY_PER_TOKEN.count :] == [True] * (2000 - 10)
    assert {text.split(" room ")[0] for text in said[:10]} == {
        "WrongRecoveryCode: That recovery code does not open"
    }
    joined = []
    for i, code in enumerate(guesses):
        try:
            store.join(engine, code, token=token, now=NOW + i / 100)
        except store.RoomError as error:
            joined.append(type(error).__name__)
    assert joined.count("NoSuchRoom") == limits.JOIN_PER_TOKEN.count
    assert joined.count("TooFast") == 2000 - joined.count("NoSuchRoom")
    # The browser is held back, not the room: the real code joins from another one.
    student(engine, room.code, now=NOW + 19)


# -- opening rooms ----------------------------------------------------------------------------


def test_a_hundred_rooms_a_minute_from_one_browser_are_held_back(engine):
    token = codes.new_token()
    opened, said = 0, set()
    for i in range(100):
        try:
            store.open_room(engine, token=token, now=NOW + i * 0.6)
            opened += 1
        except store.TooFast as error:
            said.add(str(error))
    assert opened == limits.OPEN_PER_TOKEN.count
    assert said == {"Too many rooms opened from this browser: wait a minute."}
    assert rows(engine, ROOMS) == limits.OPEN_PER_TOKEN.count
    store.open_room(engine, token=codes.new_token(), now=NOW + 59)  # another browser
    store.open_room(engine, token=token, now=NOW + 60)  # the next minute


def test_rooms_opened_from_one_network_are_limited_never_elsewhere(engine, monkeypatch):
    monkeypatch.setattr(limits, "OPEN_PER_ADDRESS", replace(limits.OPEN_PER_ADDRESS, count=4))
    for _ in range(4):
        store.open_room(engine, token=codes.new_token(), address=HALL, now=NOW)
    with pytest.raises(store.TooFast, match="from this network"):
        store.open_room(engine, token=codes.new_token(), address=HALL, now=NOW + 59)
    store.open_room(engine, token=codes.new_token(), address=ELSEWHERE, now=NOW + 59)
    store.open_room(engine, token=codes.new_token(), address=HALL, now=NOW + 60)
    assert rows(engine, ROOMS) == 6


# -- refused writes count -----------------------------------------------------------------------


def test_refused_answers_count_against_the_browsers_limit(engine, monkeypatch):
    monkeypatch.setattr(limits, "ANSWER_PER_TOKEN", replace(limits.ANSWER_PER_TOKEN, count=6))
    room, number = open_and_ask(engine, value_question())
    token = student(engine, room.code)
    stranger = codes.new_token()  # never joined
    for raw in ("abc", float("inf"), [[0, 0]]):  # malformed: refused
        with pytest.raises(store_reads.InvalidAnswer):
            store.answer(engine, room.code, token=token, round_number=number, raw=raw, now=NOW)
    with pytest.raises(store.NoSuchRound):
        store.answer(engine, room.code, token=token, round_number=9, raw=1, now=NOW)
    said = []
    for _ in range(7):
        try:
            store.answer(engine, room.code, token=stranger, round_number=number, raw=1, now=NOW)
        except store.RoomError as error:
            said.append(type(error).__name__)
    assert said == ["NotAllowed"] * 6 + ["TooFast"]  # a token that never joined: counted
    store.close_round(engine, room.code, secret=room.secret, now=NOW)
    for _ in range(2):  # a closed round: refused, counted (the token's 5th and 6th)
        with pytest.raises(store.RoundClosed):
            store.answer(engine, room.code, token=token, round_number=number, raw=1, now=NOW)
    with pytest.raises(store.TooFast, match="from this browser"):
        store.answer(engine, room.code, token=token, round_number=number, raw=1, now=NOW)
    assert store_reads.answer_count(engine, room.code, number, now=NOW) == 0  # nothing stored


def test_refused_joins_count_against_the_browsers_limit(engine, monkeypatch):
    monkeypatch.setattr(limits, "JOIN_PER_TOKEN", replace(limits.JOIN_PER_TOKEN, count=3))
    room, _ = open_and_ask(engine)
    token = codes.new_token()
    for _ in range(3):
        with pytest.raises(store.NoSuchRoom):
            store.join(engine, unknown_code(room.code), token=token, now=NOW)
    with pytest.raises(store.TooFast, match="from this browser"):
        store.join(engine, room.code, token=token, now=NOW)  # a real code too
    assert store_reads.member_count(engine, room.code, now=NOW) == 0
    store.join(engine, room.code, token=token, now=NOW + 60)


# -- found in review: a third vote, answers to codes with no room, a rejoin's nickname ---------


def test_a_question_votes_twice_at_most(engine):
    """A double click on "Discuss and vote again" (or a second device) makes no vote 3,
    which the results, pairing vote 1 with vote 2, would leave out."""
    room, first = open_and_ask(engine)
    second = store.vote_again(engine, room.code, secret=room.secret, now=NOW + 1)
    assert store.round_of(engine, room.code, second, now=NOW + 1).vote == 2
    with pytest.raises(store.NoSuchRound, match="second vote"):
        store.vote_again(engine, room.code, secret=room.secret, now=NOW + 2)
    assert store.pulse(engine, room.code, now=NOW + 2).round_number == second == first + 1


def test_answers_to_codes_with_no_room_are_counted_per_address(engine):
    """An answer to a code with no room is refused as a join to one is, and counted with
    them per address: fresh tokens cannot probe codes through the answer form for free."""
    room, number = open_and_ask(engine)
    said = []
    for _ in range(limits.UNKNOWN_PER_ADDRESS.count + 5):
        try:
            store.answer(engine, unknown_code(room.code), token=codes.new_token(),
                         round_number=number, raw=RIGHT, address=HALL, now=NOW + 1)  # fmt: skip
        except store.RoomError as error:
            said.append(type(error).__name__)
    assert said == ["NoSuchRoom"] * limits.UNKNOWN_PER_ADDRESS.count + ["TooFast"] * 5
    with pytest.raises(store.NoSuchRoom):
        store.join(engine, unknown_code(room.code), token=codes.new_token(), address=ELSEWHERE,
                   now=NOW + 1)  # fmt: skip


def test_a_rejoin_keeps_the_nickname_given(engine):
    """A reload rejoins from the link with no nickname: the one given stays."""
    room, _ = open_and_ask(engine)
    token = student(engine, room.code, nickname="Ada")
    store.join(engine, room.code, token=token, nickname="", now=NOW + 1)
    with engine.connect() as connection:
        kept = connection.execute(sa.text("select nickname from room_members")).scalars().all()
    assert kept == ["Ada"]
