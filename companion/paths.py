"""Where companion keeps its files: the game database, and the calibrated decks beside it."""

from __future__ import annotations

import os
from pathlib import Path

DB_FILE_NAME = "games.sqlite3"


def default_path() -> Path:
    """``COMPANION_DB`` if set, else ``games.sqlite3`` in the user data directory."""
    env = os.environ.get("COMPANION_DB", "").strip()
    if env:
        return Path(env).expanduser()
    import platformdirs
    return platformdirs.user_data_path("companion", appauthor=False) / DB_FILE_NAME
