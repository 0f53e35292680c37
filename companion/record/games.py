"""A stored game as the engine sees it: its variant, start position, moves and current position.

For the commands that read games (``show``, ``replay``, ``export``) and for other tools, e.g.
a hint for game ID::

    from companion.record.games import load_game
    from companion.record.store import open_store
    with open_store(None, read_only=True) as store:
        game = load_game(store, 3)
    pos = game.position()          # after every stored move, replayed by the engine
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..errors import CompanionError, PositionError, VariantError
from ..rules import DEAL_VERSION, Position, deal, load_variant
from . import StoreError


@dataclass
class StoredGame:
    row: object
    """The :class:`~.store.GameRow` (id, name, variant, seed, result ...)."""
    variant: object
    start: object
    """The starting :class:`~companion.rules.Position` (the seeded deal, or the typed layout)."""
    entries: list[str]
    """Moves and reveals in canonical notation, in order."""

    def position(self, upto: int | None = None):
        """The position after the first ``upto`` entries (all by default), replayed."""
        pos = self.start.copy()
        for n, text in enumerate(self.entries[:upto], 1):
            try:
                pos.play(text)
            except CompanionError as exc:
                raise StoreError(f"game {self.row.id}: stored move {n} ({text}) does not "
                                 f"replay: {getattr(exc, 'reason', None) or exc}") from None
        return pos


def variant_of(row):
    """The game's variant, with its options; a StoreError when this companion cannot rebuild
    the game (an unknown variant or option, a deal version it does not deal)."""
    if row.deal_version != DEAL_VERSION:
        newer = isinstance(row.deal_version, int) and row.deal_version > DEAL_VERSION
        raise StoreError(
            f"game {row.id} was recorded with deal version {row.deal_version}, and this "
            f"companion deals version {DEAL_VERSION}: its deal could differ here, so it is not "
            f"opened. " + ("Upgrade companion (pip install -U companion) to open it."
                           if newer else "The stored game is damaged or from an unknown "
                           "companion; `companion games` lists the others."))
    try:
        return load_variant(row.variant, row.options)
    except VariantError as exc:
        raise StoreError(f"game {row.id} is a {row.variant} game this companion cannot load: "
                         f"{exc}") from None


def start_json(row, path: str) -> dict:
    """The stored start column as JSON (a position, or ``{"layout": ...}`` during setup)."""
    try:
        data = json.loads(row.start or "{}")
        if not isinstance(data, dict):
            raise ValueError("not an object")
    except ValueError as exc:
        raise StoreError(f"game {row.id} in {path} has an unreadable start position ({exc}); "
                         f"`companion export {row.id}` shows what is stored") from None
    return data


def load_game(store, game_id: int) -> StoredGame:
    """Game ``game_id`` of ``store``; a StoreError when it is missing, still being set up, or
    unreadable."""
    row = store.game(game_id)
    v = variant_of(row)
    if row.phase == "setup":
        raise StoreError(f"game {game_id} is still being set up (its layout is not typed in "
                         f"yet): `companion resume {game_id}` goes on with it")
    if row.seed is not None:
        start = deal(v, row.seed)
    else:
        try:
            start = Position.from_json(start_json(row, store.path))
        except PositionError as exc:
            raise StoreError(f"game {game_id} in {store.path} has an invalid start position: "
                             f"{exc}") from None
    entries = [t for t, _ in store.moves(game_id)]
    return StoredGame(row, v, start, entries)
