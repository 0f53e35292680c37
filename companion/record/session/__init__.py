"""The recorder's state machine: a typed line in, a :class:`Reply` out. No I/O.

A :class:`Recorder` holds the position of one game, the list of accepted moves (and reveals), a
redo stack, and an optional log (:class:`~.store.GameLog`) that every accepted change is written
through *before* the session shows it: when the log refuses (read-only database, full disk), the
change is taken back and the reply says why, so the game in memory and on disk stay the same.

Phases: ``setup`` (a physical deal: the player names the face-up cards), ``play``, ``over`` (won
or lost: ``undo`` reopens the game) and ``ended`` (after ``quit`` or ``resign``).

What a line can be, in play:

* a move in the engine's notation (``t3 t5``, ``t3:4 t5``, ``w f``, ``s``), in card notation
  (``7h t4``, ``7h`` alone), or a short form (``3 5`` for ``t3 t5``);
* a command: ``undo``/``u``, ``redo``, ``moves``/``?``, ``show``, ``hint``, ``help``, ``resign``,
  ``quit``;
* in a physical game, when cards have turned up: the cards (``9c``, or ``9s 8d 7c`` for three on
  the waste, bottom to top), or the reveal notation ``t3=9c``;
* in a seeded game: ``t3=9c`` to report the card actually seen there (a mismatch is a dealing
  error, reported with its place);
* ``scan PHOTO`` (or ``scan cam0``, a webcam): the layout, or a card that turned up, read from
  a photo (:mod:`companion.app.session`).

A refused line never changes the position.

:class:`Recorder` is put together from one mixin per concern: :mod:`.setup` (the layout of a
physical deal), :mod:`.play` (moves, undo, hints, the end of the game), :mod:`.reveals` (cards
named as they turn up), :mod:`.fix` (corrections), :mod:`.seeded` (the seeded-deal check),
:mod:`.helptext` and :mod:`.replies` (what the player reads). This module holds the state and
the entry point, :meth:`Recorder.handle`. The board, the solver's hint and ``scan`` come from
the layers above (record imports neither render, solver nor vision): the commands build
:class:`companion.app.session.Session`, which plugs them in.
"""

from __future__ import annotations

import re

from ...errors import CompanionError
from ...rules import Position
from ...rules.moves import split_moves
from .. import StoreError
from ..layout import LayoutEntry
from .fix import Corrections
from .helptext import HelpText
from .play import PlayMoves
from .replies import COMMAND_WORDS, COMMANDS, ENDED, MAX_LINE, OVER, PLAY, SETUP, Replies, Reply
from .reveals import Reveals
from .seeded import SeededCheck
from .setup import SetupPhase

__all__ = ["COMMANDS", "COMMAND_WORDS", "ENDED", "MAX_LINE", "OVER", "PLAY", "SETUP", "Recorder",
           "Reply"]


class Recorder(SetupPhase, PlayMoves, Reveals, Corrections, SeededCheck, HelpText, Replies):
    """One game being recorded. Build with :meth:`seeded`, :meth:`physical` or :meth:`resume`,
    on :class:`companion.app.session.Session`, which draws the board, hints and reads photos."""

    def __init__(self, start, *, log=None, game_id: int | None = None, symbols: bool = True,
                 colour: bool = False, layout: LayoutEntry | None = None):
        self.start = start
        self.pos = start.copy()
        self.log = log
        self.game_id = game_id
        self.symbols = symbols
        self.colour = colour
        self.layout = layout
        self.phase = SETUP if layout is not None else PLAY
        self.entries: list[str] = []
        self.redo_stack: list[str] = []
        self.turned: list[tuple[int, int, int]] = []
        self._confirm_resign = False
        self._last_store_error = Reply(False, "store-error")
        self.engine = start.engine
        names = set(self.engine.names)
        self.short_prefix = "t" if "t1" in names else ("p" if "p1" in names else "")

    @classmethod
    def seeded(cls, variant, seed: int, **kw) -> Recorder:
        return cls(Position.deal(variant, seed), **kw)

    @classmethod
    def physical(cls, variant, **kw) -> Recorder:
        fresh = Position.deal(variant, None)
        slots = fresh.pending_reveals()
        if not slots:  # nothing face up at the start (Accordion): play at once
            return cls(fresh, **kw)
        return cls(fresh, layout=LayoutEntry(fresh, slots, deal_rules=True), **kw)

    @classmethod
    def resume(cls, start, entries: list[str], **kw) -> Recorder:
        """A session at the end of ``entries`` (texts as stored), each replayed through the
        engine. Raises IllegalMoveError (or another CompanionError) naming the first entry that
        no longer replays."""
        s = cls(start, **kw)
        s._replay(entries)
        return s

    def _replay(self, entries: list[str]) -> None:
        for n, text in enumerate(entries, 1):
            try:
                self.pos.play(text)
            except CompanionError as exc:
                raise StoreError(f"game {self.game_id}: stored move {n} ({text}) does not "
                                 f"replay: {getattr(exc, 'reason', None) or exc}") from None
            self.entries.append(text)
        if self.outcome() is not None:
            self.phase = OVER

    @classmethod
    def in_setup(cls, fresh, typed: dict, undo: list | None = None, **kw) -> Recorder:
        """A physical game whose layout was being typed when it was left (``undo``: its
        undo history as saved, so that `undo` goes on working)."""
        layout = LayoutEntry(fresh, fresh.pending_reveals(), deal_rules=True)
        layout.load_json(typed)
        layout.load_undo(undo)
        return cls(fresh, layout=layout, **kw)

    # What the application layer plugs in (companion.app.session.Session).

    def board(self) -> str:
        """The position drawn as text."""
        raise NotImplementedError

    def _solver_hint(self, pos, symbols: bool) -> str | None:
        """The solver's hint as text, or None while there is no solver."""
        raise NotImplementedError

    def _scan(self, arg: str) -> Reply:
        """``scan PHOTO`` / ``scan cam0``."""
        raise NotImplementedError

    @property
    def seeded_game(self) -> bool:
        """Every card known: a seeded deal, or a PySolFC game (dealt by its number)."""
        return self.start.known_deal

    @property
    def pending(self) -> list[tuple[int, int]]:
        return self.pos.pending_reveals() if self.phase != SETUP else []

    @property
    def move_count(self) -> int:
        """Moves played, reveals not counted."""
        return sum(1 for e in self.entries if "=" not in e)

    @property
    def done(self) -> bool:
        return self.phase == ENDED

    def prompt(self) -> str:
        if self.phase == SETUP:
            assert self.layout is not None
            return self.layout.prompt()
        if self.phase == ENDED:
            return ""
        if self._confirm_resign:
            return "resign? > "
        pending = self.pending
        if pending:
            names = self.engine.names
            i = pending[0][0]
            same = sum(1 for j, _ in pending if j == i)
            if same > 1:
                return f"cards on {names[i]}, bottom to top> "
            return f"card on {names[i]}> "
        if self.phase == OVER:
            return "game over> "
        return f"move {self.move_count + 1}> "

    def outcome(self):
        if self.phase == SETUP or self.pending:
            return None
        return self.pos.outcome()

    def handle(self, line: str) -> Reply:
        """Answer one typed line. Never raises for bad input; a refusal changes nothing."""
        if not isinstance(line, str):
            line = str(line)
        if self.phase == ENDED:
            return self._reply(False, "ended", "This game is closed: start or resume one.",
                               done=True)
        line = line.strip()
        if len(line) > MAX_LINE:
            return self._reply(False, "refused", f"That line is {len(line)} characters long; "
                               f"type one move or command at a time.")
        key = line.lower()
        if self._confirm_resign:
            self._confirm_resign = False
            if key in ("resign", "yes", "y"):
                return self._resign()
            if key in ("n", "no", ""):
                return self._reply(True, "resign", "Not resigned: play on.")
            reply = self.handle(line)   # a move or a command: play on with it
            reply.lines.insert(0, "Not resigned.")
            return reply
        parts = self._parts(line)
        if len(parts) > 1:
            return self._several(parts)
        try:
            if key.split(" ", 1)[0] == "scan":
                return self._scan(line[4:].strip())
            if self.phase == SETUP:
                return self._setup_line(line, key)
            return self._play_line(line, key)
        except StoreError as exc:
            return self._reply(False, "store-error", str(exc))
        except CompanionError as exc:
            return self._reply(False, "refused", str(exc))

    def _parts(self, line: str) -> list[str]:
        """Several moves on one line, separated by commas or semicolons (as `companion check
        --moves-file` reads them): each is played in turn. Not in setup (a row of cards may be
        written with commas), while cards wait to be named (``9s, 8d, 7c`` names them), for
        ``scan`` or for a seeded game's ``w=qs, 4c, 5s``."""
        if self.phase not in (PLAY, OVER) or self.pending or not re.search(r"[,;]", line) \
                or line.lower().startswith("scan") or ("=" in line and self.seeded_game):
            return [line]
        parts = split_moves([line])
        return parts if len(parts) > 1 else [line]

    def _several(self, parts: list[str]) -> Reply:
        """Each part as if typed alone, in turn; the first refusal stops the rest."""
        lines: list[str] = []
        replies = []
        last = None
        for n, part in enumerate(parts):
            r = self.handle(part)
            replies.append({"input": part, **r.to_json()})
            lines += r.lines
            last = r
            if not r.ok:
                rest = parts[n + 1:]
                if rest:
                    lines.append(f"Stopped at {part}: " + ", ".join(rest) + " not played"
                                 + ("; what came before it stands (`undo` takes it back)."
                                    if n else "."))
                elif n:
                    lines.append(f"{', '.join(parts[:n])}, before {part}, stands (`undo` "
                                 f"takes it back).")
                break
            if r.done:
                break
        assert last is not None
        board = self.board() if any(x.get("kind") in ("move", "reveal", "undo", "redo")
                                    for x in replies) and last.ok else last.board
        return Reply(ok=all(x["ok"] for x in replies), kind=last.kind, lines=lines,
                     board=board, move=last.move, done=last.done,
                     data={**last.data, "parts": replies})

    def _play_line(self, line: str, key: str) -> Reply:
        if not line:
            return self._reply(True, "empty", self._waiting())
        cmd = COMMANDS.get(key)
        if cmd == "undo":
            return self._undo()
        if cmd == "redo":
            return self._redo()
        if cmd == "moves":
            return self._moves()
        if cmd == "show":
            return self._show()
        if cmd == "help":
            now = ["Now: " + self._pending_text() + " Moves wait until it is named."] \
                if self.pending else []
            return self._reply(True, "help", *now, *self._help())
        if cmd == "hint":
            return self._hint()
        if cmd == "quit":
            over = self.phase == OVER
            self.phase = ENDED
            n = self.move_count
            kept = (f"Game {self.game_id} kept ({n} move{'s' if n != 1 else ''}"
                    + ("; it is over: `companion show " + str(self.game_id) + "` shows it)."
                       if over else f"): `companion resume {self.game_id}` goes on.")
                    if self.game_id is not None else "Left the game.")
            return self._reply(True, "quit", kept, done=True)
        if cmd == "resign":
            if self.phase == OVER:
                return self._reply(False, "refused", "The game is over already; `quit` leaves "
                                   "it, `undo` takes back moves.")
            self._confirm_resign = True
            return self._reply(True, "resign", "Resign this game? It is then closed for good. "
                               "Type `resign` (or yes) to confirm; no, or a move, plays on.")
        if cmd == "start":
            return self._reply(False, "refused", "The game has started already.")
        if key.split(" ", 1)[0] == "fix" or ("=" in line and not self.seeded_game
                                               and not self._names_waiting(key)):
            return self._fix(line)
        if self.pending:
            return self._reveal_line(line)
        if "=" in line and self.seeded_game:
            return self._seeded_report(line)
        return self._move(line)

    def state_json(self) -> dict:
        return {
            "game": self.game_id, "phase": self.phase, "moves": list(self.entries),
            "move_count": self.move_count,
            "pending": [self.engine.names[i] for i, _ in self.pending],
            "outcome": self._outcome_data().get("outcome"),
            "position": self.pos.to_json(),
        }
