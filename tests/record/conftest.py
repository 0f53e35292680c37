"""Shared fixtures for the recorder's tests: databases, hand-made positions, a CLI runner."""

from __future__ import annotations

import pytest

from companion.record.store import Store


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / "games.sqlite3")


@pytest.fixture
def store(db_path):
    s = Store(db_path)
    yield s
    s.close()


