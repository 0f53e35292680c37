"""Fixtures shared by the whole suite."""

from __future__ import annotations

import pytest

from companion.cli import main


@pytest.fixture
def run(capsys):
    """Run the CLI as a user would (``companion ARGS...``): (exit code, stdout, stderr)."""
    def _run(*args: str) -> tuple[int, str, str]:
        code = main(list(args))
        out, err = capsys.readouterr()
        return code, out, err
    return _run
