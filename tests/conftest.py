"""Fixtures shared by the whole suite."""

from __future__ import annotations

import io
import os

import pytest

from companion.cli import main
from companion.vision import synth

# The faces the vision tests draw their scenes in ship with the suite (tests/fonts/README.md), so
# a scene is the same on every machine, whatever fonts it has installed.
synth.add_font_dir(os.path.join(os.path.dirname(__file__), "fonts"))


@pytest.fixture(autouse=True)
def _private_user_data(tmp_path_factory, monkeypatch):
    """No test reads or writes the real user's games or deck calibrations: the games
    database, and the deck folder beside it, live in a fresh folder for each test (a test
    may still point COMPANION_DB elsewhere itself)."""
    folder = tmp_path_factory.mktemp("user-data")
    monkeypatch.setenv("COMPANION_DB", str(folder / "games.sqlite3"))


@pytest.fixture
def run(capsys, monkeypatch):
    """Run the CLI as a user would (``companion ARGS...``), its standard input ``stdin``
    (a pipe, not a terminal; bytes as they arrive, undecoded): (exit code, stdout, stderr)."""
    def _run(*args: str, stdin: str | bytes = "") -> tuple[int, str, str]:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin))
                            if isinstance(stdin, bytes) else io.StringIO(stdin))
        code = main(list(args))
        out, err = capsys.readouterr()
        return code, out, err
    return _run
