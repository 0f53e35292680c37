"""Play: moves, undo and redo, the list of legal moves, hints, resigning, and the end of the
game (recorded in the log as it happens)."""

from __future__ import annotations

import re

from ...cards import code_json
from ...errors import (
    AmbiguousMoveError,
    CompanionError,
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
)
from .. import StoreError
from .replies import ENDED, OVER, PLAY, SETUP, Reply
from .seeded import _turned_up

_SHORT = re.compile(r"^([0-9]{1,2})(:[0-9]{1,3})?$")


class PlayMoves:
    """Moves and the commands of play."""

    def expand(self, line: str) -> str:
        """Short forms: ``3 5`` → ``t3 t5``, ``3:2 f`` → ``t3:2 f``, ``w 4`` → ``w t4``."""
        toks = line.split()
        if not self.short_prefix or not 1 <= len(toks) <= 2:
            return line
        out = []
        for tok in toks:
            m = _SHORT.match(tok)
            if m and f"{self.short_prefix}{m.group(1)}" in self.engine.index:
                tok = self.short_prefix + tok
            out.append(tok)
        return " ".join(out)

    def _move(self, line: str) -> Reply:
        pos = self.pos
        text = self.expand(line)
        if self.phase == OVER and not pos.raw_moves():
            return self._reply(False, "refused", self._over_text())
        before_piles, before_down = pos.piles[:], pos.down[:]
        try:
            move = pos.play(text)
        except AmbiguousMoveError as exc:
            return self._reply(False, "ambiguous",
                               f"{line} fits {len(exc.candidates)} moves: type one of them:",
                               *("  " + self._describe_text(c) for c in exc.candidates),
                               data={"candidates": exc.candidates})
        except IllegalMoveError as exc:
            return self._reply(False, "illegal", f"{exc.move_text}: {exc.reason}",
                               data={"reason": exc.reason})
        except (InvalidMoveError, InvalidCardError) as exc:
            why = str(exc)
            if " is not a move: type " in why:   # the engine's examples are Klondike's
                why = f"{line!r} is not a move here: type e.g. {self._examples()}."
            if len(line.split()) == 1 and not self._suggest(line).startswith("Type"):
                why = f"{line!r} is not a move or a command."
            return self._reply(False, "invalid", why, self._suggest(line),
                               data={"reason": str(exc)})
        raw = pos.history[-1]
        mtext = str(move)
        if not self._persist([mtext]):
            pos.pop()
            return self._last_store_error
        self.entries.append(mtext)
        if self.redo_stack and self.redo_stack[-1] == mtext:
            self.redo_stack.pop()
        else:
            self.redo_stack.clear()
        return self._after_move(mtext, raw, before_piles, before_down, kind="move")

    def _after_move(self, mtext, raw, before_piles, before_down, *, kind: str,
                    prefix: str = "") -> Reply:
        lines = [prefix + f"{mtext}: " + self._describe(raw, before_piles, before_down)]
        data: dict = {}
        self.turned = []
        if self.seeded_game:
            self.turned = _turned_up(before_piles, before_down, self.pos)
            if mtext == "s" and getattr(self.engine, "gaps", None):
                lines.append(self._redealt_text(before_piles))
            if self.turned:
                lines.append(self._turned_text())
                data["turned"] = [{"pile": self.engine.names[i], "card": code_json(c),
                                   "place": self._place(i, k)} for i, k, c in self.turned]
        pending = self.pending
        if pending:
            lines.append(self._pending_text())
            data["pending"] = [self.engine.names[i] for i, _ in pending]
        end = self._settle()
        if end:
            lines.append(end)
        data.update(self._outcome_data())
        return self._reply(True, kind, *lines, board=True, move=mtext, data=data)

    def _settle(self) -> str:
        """Check for the end of the game after a change; record it. The sentence to show."""
        o = self.outcome()
        if o is None:
            if self.phase == OVER:
                self.phase = PLAY
                if self.log is not None:
                    try:
                        self.log.finish(None)
                    except StoreError as exc:
                        return f"(The game could not be marked as open again: {exc})"
            return ""
        if self.phase == OVER:
            return self._over_text()
        self.phase = OVER
        if self.log is not None:
            try:
                self.log.finish(o.result(), o.termination.value, o.score)
            except StoreError as exc:
                return self._over_text() + f" (The result could not be saved: {exc})"
        return self._over_text()

    def _over_text(self) -> str:
        o = self.pos.outcome()
        if o is None:
            return ""
        score = f" Score {o.score}." if o.score is not None else ""
        if o.won:
            n = self.move_count
            return (f"Won in {n} move{'s' if n != 1 else ''}!{score} `quit` to leave, `undo` to "
                    f"look back.")
        return f"The game is lost: {o.why}.{score} `undo` takes back moves; `quit` leaves."

    def _outcome_data(self) -> dict:
        o = self.outcome()
        if o is None:
            return {}
        return {"outcome": {"result": o.result(), "termination": o.termination.value,
                            "score": o.score}}

    def _persist(self, texts: list[str]) -> bool:
        if self.log is None:
            return True
        try:
            self.log.append(len(self.entries) + 1, [(t, "=" in t) for t in texts])
        except StoreError as exc:
            self._last_store_error = self._reply(
                False, "store-error", str(exc),
                "The move was not recorded; the game is as it was. Type it again once the "
                "problem is fixed, or `quit`.")
            return False
        return True

    def _undo(self) -> Reply:
        if self.phase == SETUP:
            return self._reply(False, "refused", "Nothing to undo.")
        if not self.entries:
            return self._reply(False, "refused", "Nothing to undo: this is the start of the "
                               "game.")
        if self.log is not None:
            try:
                self.log.truncate(len(self.entries) - 1)
            except StoreError as exc:
                return self._reply(False, "store-error", str(exc), "Nothing was taken back.")
        text = self.entries.pop()
        self.pos.pop()
        self.redo_stack.append(text)
        self.turned = []
        self._confirm_resign = False
        was_over = self.phase == OVER
        self.phase = PLAY
        lines = [f"Took back {text}." + (" The game is open again." if was_over else "")]
        if self.pending:
            lines.append(self._pending_text())
        end = self._settle()
        if end:
            lines.append(end)
        return self._reply(True, "undo", *lines, board=True, move=text,
                           data=self._outcome_data())

    def _redo(self) -> Reply:
        if not self.redo_stack:
            return self._reply(False, "refused", "Nothing to redo.")
        text = self.redo_stack[-1]
        before_piles, before_down = self.pos.piles[:], self.pos.down[:]
        try:
            self.pos.play(text)
        except CompanionError:
            self.redo_stack.clear()
            return self._reply(False, "refused", f"{text} cannot be replayed here.")
        raw = self.pos.history[-1]
        if not self._persist([text]):
            self.pos.pop()
            return self._last_store_error
        self.redo_stack.pop()
        self.entries.append(text)
        if "=" in text:
            return self._after_reveal([text], redo=True)
        return self._after_move(text, raw, before_piles, before_down, kind="redo",
                                prefix="Redid ")

    def _moves(self) -> Reply:
        if self.pending:
            return self._reply(True, "moves", "No move until the turned-up card is named. "
                               + self._pending_text())
        pos = self.pos
        raws = pos.raw_moves()
        if not raws:
            return self._reply(True, "moves", "No legal move." + (
                " " + self._over_text() if self.phase == OVER else ""), data={"moves": []})
        texts = [pos.engine.text(m) for m in raws]
        width = max(len(t) for t in texts)
        lines = [f"{len(texts)} legal move{'s' if len(texts) != 1 else ''}:"]
        lines += [f"  {t.ljust(width)}  {self._describe(m, pos.piles, pos.down, now=True)}"
                  for t, m in zip(texts, raws, strict=True)]
        return self._reply(True, "moves", *lines, data={"moves": texts})

    def _show(self) -> Reply:
        n = self.move_count
        lines = [f"{n} move{'s' if n != 1 else ''} played."]
        if self.turned and self.seeded_game:
            lines.append(self._turned_text())
        lines.append(self._waiting() if (self.pending or self.phase == OVER) else "")
        return self._reply(True, "show", *lines, board=True, data=self._outcome_data())

    def _hint(self) -> Reply:
        if self.pending:
            return self._reply(False, "refused", ("Name the turned-up card first. " if len(self.pending) == 1
                                else "Name the turned-up cards first. ")
                               + self._pending_text())
        if self.phase == OVER:
            return self._reply(True, "hint", self._over_text())
        try:
            text = self._solver_hint(self.pos, self.symbols)
        except KeyboardInterrupt:
            return self._reply(True, "hint", "Hint cancelled.")
        if text is None:
            return self._reply(True, "hint", "Hints are coming with the solver.")
        return self._reply(True, "hint", *text.splitlines())

    def _resign(self) -> Reply:
        if self.log is not None:
            try:
                self.log.finish("resigned")
            except StoreError as exc:
                return self._reply(False, "store-error", str(exc), "Not resigned.")
        self.phase = ENDED
        n = self.move_count
        return self._reply(True, "resign", f"Resigned after {n} move{'s' if n != 1 else ''}.",
                           done=True)

    def _waiting(self) -> str:
        if self.pending:
            return self._pending_text()
        if self.phase == OVER:
            return self._over_text()
        return "Type a move (`moves` lists them, `help` explains)."

