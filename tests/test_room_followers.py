"""The process's list of students' pages to redraw (rooms/followers.py): a
page drawn from another pulse than its room's is due once, again only after the retry
time or once its run could not start; a page that shows no room, or whose room could
not be read, is never due; a page drawn anew stops being due."""

from __future__ import annotations

from rooms.followers import Followers

OPEN_1 = (1, "open", 1, False)
OPEN_2 = (2, "open", 1, False)


def test_a_page_behind_its_room_is_due_once_then_after_the_retry_time():
    followers = Followers(retry_s=3.0)
    followers.follow("a", "K7QX3M", OPEN_1)
    followers.follow("b", "K7QX3M", OPEN_2)
    assert followers.due({"K7QX3M": OPEN_2}, now=10.0) == ["a"]
    assert followers.due({"K7QX3M": OPEN_2}, now=12.9) == []
    assert followers.due({"K7QX3M": OPEN_2}, now=13.0) == ["a"]
    followers.unask("a")  # its run could not start: asked again at once
    assert followers.due({"K7QX3M": OPEN_2}, now=13.1) == ["a"]
    followers.follow("a", "K7QX3M", OPEN_2)  # drawn anew
    assert followers.due({"K7QX3M": OPEN_2}, now=20.0) == []


def test_a_room_gone_is_a_change_and_a_room_unread_is_none():
    followers = Followers()
    followers.follow("a", "K7QX3M", OPEN_1)
    assert followers.due({}, now=0.0) == []  # the room could not be read
    assert followers.due({"K7QX3M": None}, now=0.0) == ["a"]  # no room has the code now


def test_a_page_that_left_its_room_is_not_followed():
    followers = Followers()
    followers.follow("a", "K7QX3M", OPEN_1)
    followers.follow("b", "ZZ22ZZ", OPEN_1)
    followers.follow("a", None, None)
    followers.forget("b")
    assert followers.rooms() == set()
    assert followers.due({"K7QX3M": OPEN_2, "ZZ22ZZ": OPEN_2}, now=0.0) == []


def test_the_class_mode_docs_say_how_often_the_process_and_the_page_look():
    from conftest import ROOT

    from ui.class_mode.student.live import POLL_S
    from ui.class_mode.student.push import PUSH_S

    words = " ".join((ROOT / "docs" / "class-mode.md").read_text(encoding="utf-8").split())
    assert round(1 / PUSH_S) == 10 and "ten times a second" in words
    assert POLL_S == 4 and "looks for itself every four seconds" in words


def test_a_few_pages_are_asked_at_a_time_and_each_redrawn_frees_a_place():
    followers = Followers(retry_s=3.0)
    for index in range(5):
        followers.follow(f"s{index}", "K7QX3M", OPEN_1)
    assert followers.due({"K7QX3M": OPEN_2}, now=0.0, most=2) == ["s0", "s1"]
    assert followers.due({"K7QX3M": OPEN_2}, now=0.1, most=2) == []  # two in flight
    followers.follow("s0", "K7QX3M", OPEN_2)  # redrawn
    assert followers.due({"K7QX3M": OPEN_2}, now=0.2, most=2) == ["s2"]
    # s1 was asked 3 s ago and never redrew: asked again beside s2, still in flight
    assert followers.due({"K7QX3M": OPEN_2}, now=3.1, most=2) == ["s1"]
