"""Shared fixtures for the recorder's tests: databases, hand-made positions, a CLI runner."""

from __future__ import annotations

import io

import pytest

from companion.cli import main
from companion.record.store import Store


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / "games.sqlite3")


@pytest.fixture
def store(db_path):
    s = Store(db_path)
    yield s
    s.close()


@pytest.fixture
def run(capsys, monkeypatch):
    """Run the CLI in-process: ``run(*args, stdin="lines")`` → (exit code, stdout, stderr)."""
    def _run(*args: str, stdin: str = "") -> tuple[int, str, str]:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        code = main(list(args))
        out, err = capsys.readouterr()
        return code, out, err
    return _run
