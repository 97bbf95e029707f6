"""The projector when its room cannot be read, through AppTest: a database that does
not answer (the store's reads raise SQLAlchemy's OperationalError, as psycopg's refused
connection does) and a room deleted under it are said in a plain sentence, with no
traceback and no error box, and the room and its count come back once the database
answers again. The served projector with a real PostgreSQL stopped and started:
tests/test_browser_room_outage.py."""

from __future__ import annotations

import time

import pytest
import sqlalchemy as sa
from apptest import no_exceptions
from test_room_lecturer import (  # noqa: F401  (the fixtures)
    data_folder,
    engine,
    open_from_exercise,
    remembered,
    texts,
)

from rooms import store, store_prune
from rooms.schema import ROOMS
from teaching.class_mode.codes import new_token

UNREACHABLE = "the class's database does not answer right now"


def refused(*args, **kwargs):
    raise sa.exc.OperationalError("SELECT rooms", {}, ConnectionRefusedError("refused"))


def test_a_database_that_does_not_answer_is_said_and_the_count_comes_back(
    remembered,  # noqa: F811
    engine,  # noqa: F811
    monkeypatch,
):
    app, code, _ = open_from_exercise(remembered)
    token = new_token()
    store.join(engine, code, token=token)
    store.answer(engine, code, token=token, round_number=1, raw="2")
    app.run()
    assert "1 answer so far." in texts(app)
    with monkeypatch.context() as blink:
        blink.setattr(store, "pulse", refused)
        app.run()
        assert no_exceptions(app), app.exception
        shown = " ".join(texts(app))
        assert f"Room {code}: {UNREACHABLE}" in shown and "tries again every second" in shown
        assert not app.error  # a plain sentence, not an error box
        assert "cls_close" not in {button.key for button in app.button}
    app.run()  # the database answers again (the watch's next tick reruns the page)
    assert no_exceptions(app), app.exception
    assert "1 answer so far." in texts(app)
    assert UNREACHABLE not in " ".join(texts(app))


def test_a_round_that_cannot_be_read_mid_draw_leaves_no_half_page(
    remembered,  # noqa: F811
    monkeypatch,
):
    """The pulse reads, the round does not: the sentence, and no control drawn twice
    (the sentence's page draws its own)."""
    app, code, _ = open_from_exercise(remembered)
    monkeypatch.setattr(store, "round_of", refused)
    app.run()
    assert no_exceptions(app), app.exception
    assert UNREACHABLE in " ".join(texts(app))


@pytest.mark.parametrize(
    ("pruned", "said"),
    [(False, " has ended: students can no longer answer"), (True, ": no room has this code now")],
    ids=["expired", "deleted"],
)
def test_a_room_expired_or_deleted_mid_lecture_is_said(remembered, engine, pruned, said):  # noqa: F811
    app, code, _ = open_from_exercise(remembered)
    with engine.begin() as connection:
        connection.execute(sa.update(ROOMS).where(ROOMS.c.code == code).values(expires_at=1.0))
        if pruned:  # as the store prunes expired rooms: the row and its rounds go
            assert store_prune.delete_expired(connection, now=time.time()) == 1
    app.run()
    assert no_exceptions(app), app.exception
    assert any(f"Room {code}{said}" in text for text in texts(app)), texts(app)
    assert not app.error
    assert [button.key for button in app.button] == ["cls_new"]  # open a new one


def test_a_button_pressed_while_the_database_does_not_answer_says_so(remembered, monkeypatch):  # noqa: F811
    """Close answers with the database gone: a sentence, no traceback; the round stays
    open, and the button works once the database answers again."""
    app, code, _ = open_from_exercise(remembered)
    with monkeypatch.context() as blink:
        blink.setattr(store, "close_round", refused)
        app.button(key="cls_close").click().run()
        assert no_exceptions(app), app.exception
        assert any("database did not answer: nothing was changed" in e.value for e in app.error)
    app.button(key="cls_close").click().run()
    assert no_exceptions(app), app.exception
    assert "cls_close" not in {button.key for button in app.button}  # closed now
