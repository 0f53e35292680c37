"""The game recorder: games kept in SQLite, a plain-text record format, and the session that
turns typed lines into checked moves.

* :mod:`.store`: the SQLite database (WAL, schema version and migrations, one transaction per
  accepted move);
* :mod:`.format`: the PGN-like text record (export, and import that replays every move);
* :mod:`.session`: the recorder state machine (a line in, a reply out; no I/O);
* :mod:`.layout`: typing the visible cards of a dealt layout (physical games and the verifier).

Nothing here imports click; the terminal loop lives in :mod:`companion.cli.play_cmds`.
"""

from __future__ import annotations

from ..errors import CompanionError


class StoreError(CompanionError):
    """The game database cannot be opened, read or written. The message names the file and
    what to do; the database is never overwritten."""


class RecordError(CompanionError):
    """A game record (the text format) that cannot be read or does not replay.

    ``line`` is the 1-based line number where the problem is, when there is one."""

    def __init__(self, message: str, line: int | None = None):
        self.line = line
        super().__init__(f"line {line}: {message}" if line else message)


__all__ = ["RecordError", "StoreError"]
