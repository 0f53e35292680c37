"""Helpers for the recorder's tests: hand-made positions, a lost line, a failing database."""

from __future__ import annotations

import random
import sqlite3

from companion.cards import Card
from companion.rules import Position, deal


def codes(text: str) -> list[str]:
    return [Card.parse(t).json() for t in text.split()]


def suit_run(suit: str, top: str = "K") -> list[str]:
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    return codes(" ".join(r + suit for r in ranks[:ranks.index(top) + 1]))


def klondike_json(piles: dict[str, list[str]], *, down: dict[str, int] | None = None,
                  options: dict | None = None) -> dict:
    """A Klondike position (seed None: a game whose start the player typed)."""
    down = down or {}
    return {"variant": "klondike", "options": options or {}, "seed": None, "deal_version": 1,
            "piles": {name: {"cards": cards, "face_down": down.get(name, 0)}
                      for name, cards in piles.items()},
            "state": {"pass": 1, "idle": False}}


def near_won() -> Position:
    """Every card on the foundations but K♠, which is alone on t1: `t1 f` wins."""
    return Position.from_json(klondike_json({
        "f1": suit_run("s", "Q"), "f2": suit_run("h"), "f3": suit_run("d"), "f4": suit_run("c"),
        "t1": codes("ks")}))


def lost_game(seed: int = 3, rng_seed: int = 11) -> tuple[int, list[str]]:
    """(seed, moves) of a Klondike game with one pass through the stock (--option passes=1),
    played at random until it is lost: reproducible, since the deal and the RNG are seeded."""
    for s in range(seed, seed + 50):
        pos = deal("klondike", s, {"passes": 1})
        rng = random.Random(rng_seed)
        moves = []
        while pos.outcome() is None and len(moves) < 400:
            m = rng.choice(pos.raw_moves())
            moves.append(pos.engine.text(m))
            pos.push_raw(m)
        o = pos.outcome()
        if o is not None and not o.won:
            return s, moves
    raise AssertionError("no lost game found")


class FailingConnection:
    """Wraps a sqlite3 connection; every write raises OperationalError(message)."""

    def __init__(self, conn, message: str = "database or disk is full"):
        self._conn = conn
        self.message = message

    def execute(self, sql, *args):
        if sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
            raise sqlite3.OperationalError(self.message)
        return self._conn.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._conn, name)
