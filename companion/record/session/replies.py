"""What the session says: :class:`Reply`, the phases and command words, and the text helpers
every part of the session uses (cards in the player's symbols, moves described in words)."""

from __future__ import annotations

import contextlib
import difflib
import re
from dataclasses import dataclass, field

from ...cards import Card, ascii_text, code_text
from ...errors import CompanionError, InvalidCardError
from ...rules.describe import describe_move
from ...rules.moves import place_text

MAX_LINE = 200

COMMANDS: dict[str, str] = {
    "undo": "undo", "u": "undo", "redo": "redo", "moves": "moves", "?": "moves",
    "show": "show", "hint": "hint", "help": "help", "resign": "resign", "quit": "quit",
    "q": "quit", "exit": "quit", "start": "start",
}
COMMAND_WORDS = ("undo", "redo", "moves", "show", "hint", "help", "resign", "quit")

SETUP, PLAY, OVER, ENDED = "setup", "play", "over", "ended"


@dataclass
class Reply:
    """What the session answers to one line."""

    ok: bool = True
    kind: str = ""
    lines: list[str] = field(default_factory=list)
    board: str | None = None
    move: str | None = None
    done: bool = False
    data: dict = field(default_factory=dict)

    @property
    def text(self) -> str:
        return "\n".join(self.lines + ([self.board] if self.board else []))

    def to_json(self) -> dict:
        out = {"ok": self.ok, "kind": self.kind, "message": "\n".join(self.lines)}
        if self.move is not None:
            out["move"] = self.move
        out.update(self.data)
        return out


class Replies:
    """Text for the player: cards in the session's symbols, replies, moves in words, typos."""

    def _t(self, text: str) -> str:
        return text if self.symbols else ascii_text(text)

    def card(self, code: int) -> str:
        return code_text(code, self.symbols)

    def _reply(self, ok: bool, kind: str, *lines: str, board: bool = False, **kw) -> Reply:
        r = Reply(ok=ok, kind=kind, lines=[self._t(x) for x in lines if x], **kw)
        if board:
            r.board = self.board()
        return r

    def _place(self, i: int, k: int) -> str:
        return place_text(self.engine.names, i, k, len(self.pos.piles[i]))

    def _describe_text(self, text: str) -> str:
        try:
            move = self.pos.parse_move(text)
            raw = self.pos.to_raw(move)
        except CompanionError:
            return text
        return f"{text.ljust(8)} {self._describe(raw, self.pos.piles, self.pos.down, now=True)}"

    def _describe(self, raw, piles, down, now: bool = False) -> str:
        """What a raw move does, in words, from the piles before it (``now``: not played yet)."""
        try:
            return describe_move(self.engine, raw, piles, down, self.symbols)
        except Exception:  # a new variant's move that the wording does not know yet
            return self.engine.text(raw)

    def _suggest(self, line: str, extra: tuple[str, ...] = ()) -> str:
        words = list(COMMAND_WORDS) + list(extra)
        if self.phase != SETUP:
            with contextlib.suppress(CompanionError):
                words += [str(m) for m in self.pos.legal_moves]
        close = difflib.get_close_matches(line.lower(), list(COMMAND_WORDS) + list(extra),
                                          n=3, cutoff=0.6)
        # a move is suggested only for a one-character slip (t1 t77): any two short moves
        # look alike by ratio, and "t9 t1" is no typo of "t2 t3"
        close += [m for m in words[len(COMMAND_WORDS) + len(extra):]
                  if _one_slip(line.lower(), m)][:3]
        if not close:
            return (f"Type a move such as {self._examples()} (`moves` lists the legal moves, "
                    f"`help` explains)." if self.phase != SETUP else "")
        return "Did you mean: " + ", ".join(close) + "?"


def _any_card(line: str) -> bool:
    for tok in re.split(r"[\s,;:]+", line):
        try:
            Card.parse(tok)
            return True
        except InvalidCardError:
            continue
    return False


def _typed(code: int) -> str:
    """A card as the player types it: ``as``, ``10h``."""
    return code_text(code, symbols=False).lower()


def _one_slip(typed: str, word: str) -> bool:
    """``typed`` is ``word`` with one character added, dropped or changed."""
    if abs(len(typed) - len(word)) > 1 or typed == word:
        return False
    if len(typed) == len(word):
        return sum(a != b for a, b in zip(typed, word, strict=True)) == 1
    short, long_ = sorted((typed, word), key=len)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))
