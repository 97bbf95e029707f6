"""The tests' PostgreSQL (deploy/postgres.py, tests/postgres.py): it starts with a
private (0700) temporary folder, which it leaves closed, and a run shares one cluster,
a database each, removed at the end."""

from __future__ import annotations

import os
import stat
import tempfile

import pytest
import sqlalchemy as sa
from conftest import skip_or_fail
from postgres import DIRECTORY, own_database, shared_cluster_url, stop_shared_cluster

from deploy.postgres import missing


def answers(url: str) -> str:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            return connection.exec_driver_sql("SELECT current_database()").scalar()
    finally:
        engine.dispose()


@pytest.fixture
def private_tmpdir(tmp_path, monkeypatch):
    """$TMPDIR as a folder only its owner may enter, for this test's tempfile calls."""
    folder = tmp_path / "private"
    folder.mkdir(mode=0o700)
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_one_cluster_a_run_in_a_private_tmpdir(private_tmpdir, tmp_path):
    reason = missing()
    if reason:
        skip_or_fail(reason)
    run = tmp_path / "run"
    run.mkdir()
    try:
        url = shared_cluster_url(run)
        assert shared_cluster_url(run) == url  # the second worker reads the first's
        directory = (run / DIRECTORY).read_text(encoding="utf-8")
        if os.geteuid() == 0:  # PostgreSQL runs as postgres: outside the closed folder
            assert not directory.startswith(str(private_tmpdir))
        assert stat.S_IMODE(private_tmpdir.stat().st_mode) == 0o700  # left closed
        first, second = own_database(url, "rooms_gw0"), own_database(url, "rooms_gw1")
        assert (answers(first), answers(second)) == ("rooms_gw0", "rooms_gw1")
    finally:
        stop_shared_cluster(run)
    assert not os.path.exists(directory)
    with pytest.raises(sa.exc.OperationalError):
        answers(first)
