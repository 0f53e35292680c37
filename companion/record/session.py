"""The recorder's state machine: a typed line in, a :class:`Reply` out. No I/O.

A :class:`Session` holds the position of one game, the list of accepted moves (and reveals), a
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
* ``scan PHOTO`` (or ``scan cam0``, a webcam): in setup, the photographed layout's piles whose
  cards were all read with confidence are entered, checked like typed lines (the others are
  named, for the player to type); in play, a card that turned up is named from the photo when
  exactly one card read with confidence is new to the position. A card the photo reading
  inferred from the rules is named as such: entered in setup (checked by the player before
  `start`), left for the player to type in play (a turned-up card is recorded at once).

A refused line never changes the position.
"""

from __future__ import annotations

import contextlib
import difflib
import re
from collections import Counter
from dataclasses import dataclass, field

from ..cards import UNKNOWN, Card, ascii_text, code_json, code_text
from ..errors import (
    AmbiguousMoveError,
    CompanionError,
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
)
from ..render.text import render
from ..rules import Move, Position
from ..rules.describe import describe_move, notation
from ..rules.moves import place_text, split_moves
from ..vision.integrate import (
    CHECK_AND_TYPE,
    inferred_cards,
    inferred_line,
    layout_plan,
    new_cards,
    reveal_plan,
    uncertain_text,
    where,
)
from . import StoreError
from .layout import LayoutEntry

MAX_LINE = 200

COMMANDS: dict[str, str] = {
    "undo": "undo", "u": "undo", "redo": "redo", "moves": "moves", "?": "moves",
    "show": "show", "hint": "hint", "help": "help", "resign": "resign", "quit": "quit",
    "q": "quit", "exit": "quit", "start": "start",
}
COMMAND_WORDS = ("undo", "redo", "moves", "show", "hint", "help", "resign", "quit")

SETUP, PLAY, OVER, ENDED = "setup", "play", "over", "ended"

_SHORT = re.compile(r"^([0-9]{1,2})(:[0-9]{1,3})?$")


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


class Session:
    """One game being recorded. Build with :meth:`seeded`, :meth:`physical` or :meth:`resume`."""

    def __init__(self, start, *, log=None, game_id: int | None = None, symbols: bool = True,
                 colour: bool = False, layout: LayoutEntry | None = None, scanner=None):
        self.start = start
        # scanner(photo, camera, variant_key) -> the reading of companion.vision.scan
        self.scanner = scanner
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

    # ------------------------------------------------------------------ construction
    @classmethod
    def seeded(cls, variant, seed: int, **kw) -> Session:
        return cls(Position.deal(variant, seed), **kw)

    @classmethod
    def physical(cls, variant, **kw) -> Session:
        fresh = Position.deal(variant, None)
        slots = fresh.pending_reveals()
        if not slots:  # nothing face up at the start (Accordion): play at once
            return cls(fresh, **kw)
        return cls(fresh, layout=LayoutEntry(fresh, slots, deal_rules=True), **kw)

    @classmethod
    def resume(cls, start, entries: list[str], **kw) -> Session:
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
    def in_setup(cls, fresh, typed: dict, undo: list | None = None, **kw) -> Session:
        """A physical game whose layout was being typed when it was left (``undo``: its
        undo history as saved, so that `undo` goes on working)."""
        layout = LayoutEntry(fresh, fresh.pending_reveals(), deal_rules=True)
        layout.load_json(typed)
        layout.load_undo(undo)
        return cls(fresh, layout=layout, **kw)

    # ------------------------------------------------------------------ state
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

    # ------------------------------------------------------------------ text helpers
    def _t(self, text: str) -> str:
        return text if self.symbols else ascii_text(text)

    def card(self, code: int) -> str:
        return code_text(code, self.symbols)

    def board(self) -> str:
        return render(self.pos, symbols=self.symbols, colour=self.colour)

    def _reply(self, ok: bool, kind: str, *lines: str, board: bool = False, **kw) -> Reply:
        r = Reply(ok=ok, kind=kind, lines=[self._t(x) for x in lines if x], **kw)
        if board:
            r.board = self.board()
        return r

    # ------------------------------------------------------------------ the entry point
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

    # ------------------------------------------------------------------ setup
    def _setup_line(self, line: str, key: str) -> Reply:
        layout = self.layout
        assert layout is not None
        cmd = COMMANDS.get(key)
        if not line:
            if layout.complete:
                return self._reply(True, "empty", "Every card is named: type `start` to play, "
                                   "or correct a pile (t3: 9c).")
            return self._reply(True, "empty", layout.instructions())
        if cmd == "help":
            return self._reply(True, "help", *self._setup_help())
        if cmd == "show":
            return self._reply(True, "show", self._setup_status(), board=True)
        if cmd == "quit":
            self.phase = ENDED
            kept = f" Game {self.game_id} kept: `companion resume {self.game_id}` goes on " \
                   f"with the layout." if self.game_id is not None else ""
            return self._reply(True, "quit", "Left the layout entry." + kept, done=True)
        if cmd == "undo":
            before = {i: list(e) for i, e in layout.entered.items()}
            if not layout.undo():
                return self._reply(False, "refused", "Nothing to undo: no card is named yet.")
            if not self._save_layout():
                layout.redo_line(before)
                return self._last_store_error
            self._refresh_setup()
            return self._reply(True, "undo", "Took back the last line. " + self._setup_status(),
                               board=True)
        if cmd == "start":
            return self._start_play()
        if cmd in ("redo", "moves", "hint", "resign"):
            if layout.complete:  # every card named: what is left is to type `start`
                return self._reply(False, "refused", f"`{key}` works once play has started: "
                                   "every face-up card is named, so type `start` first (or "
                                   "correct a pile: t3: 9c).")
            return self._reply(False, "refused", f"`{key}` works once play has started; first "
                               "name the face-up cards. " + layout.instructions())
        res = layout.enter(line)
        if not res.ok:
            return self._reply(False, "refused", res.message + ".",
                               "" if _any_card(line) else self._suggest(line, ("help", "show",
                                                                                "undo", "quit",
                                                                                "start")))
        if not self._save_layout():
            layout.undo()
            return self._last_store_error
        self._refresh_setup()
        broken = layout.requirement_problem()
        warn = (f"{broken}. `start` waits for a layout that holds one." if broken else "")
        if layout.complete:
            return self._reply(True, "layout", res.message, warn,
                               f"Every face-up card is named ({layout.total}). Check the layout "
                               "against the table, then type `start` (or correct a pile: "
                               "t3: 9c).", layout.aces_text(), board=True)
        return self._reply(True, "layout", res.message, warn, layout.instructions())

    def _setup_help(self) -> list[str]:
        return [
            "Name the face-up cards of your layout, pile by pile, bottom to top.",
            "  9c 8h        cards for the pile the prompt names",
            "  ah kd 2s ... a row: one card for each pile from the prompt's pile on",
            "  t3: 9c 8h    enter or correct the pile t3",
            *(["  f: ah as     the aces that went up to the foundations while dealing"]
              if self.layout is not None and self.layout.optional else []),
            "  show         the layout so far     undo   take back the last line",
            "  start        begin play (when every card is named)     quit   leave (kept)",
            "  scan P       enter the piles read from photo P (scan cam0: webcam 0)",
            "Face-down cards stay ?? until they turn up; you will be asked for them then.",
        ]

    def _setup_status(self) -> str:
        layout = self.layout
        assert layout is not None
        if layout.complete:
            return f"All {layout.total} face-up cards named: type `start` to play."
        missing = layout.missing()
        return (f"{layout.count} of {layout.total} face-up cards named; still to name: "
                + (", ".join(missing) if len(missing) <= 6 else
                   f"{missing[0]} ... {missing[-1]} ({len(missing)} piles)") + ".")

    def _refresh_setup(self) -> None:
        """The displayed position: the deal with the cards named so far."""
        layout = self.layout
        assert layout is not None
        self.pos = layout.build(self.start)

    def _save_layout(self) -> bool:
        if self.log is None:
            return True
        import json
        try:
            self.log.set_start(json.dumps({"layout": self.layout.to_json(),
                                           "undo": self.layout.undo_json()}), SETUP)
        except StoreError as exc:
            self._last_store_error = self._reply(False, "store-error", str(exc))
            return False
        return True

    def _start_play(self) -> Reply:
        layout = self.layout
        assert layout is not None
        if not layout.complete:
            return self._reply(False, "refused", "Not every face-up card is named yet. "
                               + self._setup_status(), layout.instructions())
        broken = layout.requirement_problem()
        if broken:
            return self._reply(False, "refused", f"{broken}. Deal again and type the new "
                               "layout (correct each pile: t3: 9c), then `start`.")
        start = Position.from_json(layout.build(self.start).to_json())
        if self.log is not None:
            import json
            try:
                self.log.set_start(json.dumps(start.to_json()), PLAY)
            except StoreError as exc:
                return self._reply(False, "store-error", str(exc))
        self.start = start
        self.pos = start.copy()
        self.layout = None
        self.phase = PLAY
        self._settle()
        return self._reply(True, "start", "Play! Type a move (`help` lists what you can type).",
                           board=True)

    # ------------------------------------------------------------------ play
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

    # ------------------------------------------------------------------ corrections (physical)
    def _fix(self, line: str) -> Reply:
        """``fix t5 8s 8c`` (8♠ on t5 was misnamed: it is 8♣), or ``fix t5 8c`` / ``t5=8c``
        where t5 shows one named card (with several, the player is asked which). The whole
        game is replayed by the engine with the right card; refused, with the move that would
        no longer replay, when the correction makes a recorded move illegal."""
        usage = ("Type fix PILE WRONG CARD: the pile, the card named wrongly, then the card "
                 "really there (fix t5 8s 8c); fix t5 8c alone where t5 shows one named card.")
        if self.seeded_game:
            return self._reply(False, "refused", "In a seeded game the recorder knows every "
                               "card: type t3=CARD to report a card that differs.")
        text = line.strip().lower()
        text = text[3:] if text.startswith("fix") else text.replace("=", " ", 1)
        toks = [t for t in re.split(r"[\s,;=]+", text) if t]
        if len(toks) not in (2, 3):
            return self._reply(False, "refused", usage)
        pile = toks[0]
        if self.short_prefix and pile.isdigit():
            pile = self.short_prefix + pile
        eng = self.engine
        if pile not in eng.index:
            return self._reply(False, "refused", f"there is no pile {pile!r} here; the piles "
                               "are " + ", ".join(eng.names) + ". " + usage)
        try:
            cards = [Card.parse(t).code for t in toks[1:]]
        except InvalidCardError as exc:
            return self._reply(False, "invalid", str(exc), usage)
        old, new = (cards[0], cards[1]) if len(cards) == 2 else (None, cards[0])
        i = eng.index[pile]
        if old is None:
            # pile + card alone: only where one card can be meant; never guess among several
            old = self._fix_card_meant(pile, i, new)
            if isinstance(old, Reply):
                return old
        entries = list(self.entries)
        start_json = None
        spot = self._fix_spot(pile, i, old)
        if isinstance(spot, str):
            return self._reply(False, "refused", spot + " " + usage)
        if spot[0] == "entry":
            k = spot[1]
            wrong = old
            name = entries[k].split("=", 1)[0]
            entries[k] = f"{name}={code_json(new).lower()}"
            where = f"the card named on {name} at move {self._move_number(k)}"
        else:
            j, h = spot[1], spot[2]
            p = self.start.piles[j]
            wrong = p[h]
            data = self.start.to_json()
            data["piles"][eng.names[j]]["cards"][h] = code_json(new)
            start_json = data
            where = f"the layout's {place_text(eng.names, j, h, len(p))}"
        if wrong == new:
            return self._reply(False, "refused", f"{where} is {self.card(new)} already: "
                               "nothing changed.")
        try:
            start = Position.from_json(start_json) if start_json else self.start
        except CompanionError as exc:
            return self._reply(False, "refused", f"{self.card(new)} cannot be there: {exc}.")
        if start_json and not start.is_valid():
            return self._reply(False, "refused", f"{self.card(new)} cannot be at {where}: "
                               "the layout would hold it more often than the deck does.")
        pos = start.copy()
        for n, t in enumerate(entries):
            try:
                pos.play(t)
            except CompanionError as exc:
                reason = getattr(exc, "reason", None) or str(exc)
                return self._reply(False, "refused", f"Not corrected: with {self.card(new)} "
                                   f"as {where}, {self._entry_name(n, t)} would no longer be "
                                   f"legal ({reason}). Nothing changed; `undo` back to that "
                                   f"move first if the game went otherwise.")
        if self.log is not None:
            import json
            try:
                self.log.rewrite(json.dumps(start.to_json()) if start_json else None,
                                 [(t, "=" in t) for t in entries])
            except StoreError as exc:
                return self._reply(False, "store-error", str(exc), "Nothing was corrected.")
        self.start, self.pos, self.entries = start, pos, entries
        self.redo_stack.clear()
        lines = [f"Corrected {where}: {self.card(wrong)} → {self.card(new)}. Every move "
                 f"since replays with it."]
        if self.pending:
            lines.append(self._pending_text())
        end = self._settle()
        if end:
            lines.append(end)
        return self._reply(True, "fix", *lines, board=True, data=self._outcome_data())

    def _fix_card_meant(self, pile: str, i: int, new: int) -> int | Reply:
        """The card ``fix PILE NEW`` corrects: the one named card face up on the pile (else,
        with none there, the one card ever named on it); a refusal that asks which, or says
        none was named."""
        pos = self.pos
        shown = list(dict.fromkeys(c for c in pos.piles[i][pos.down[i]:] if c != UNKNOWN))
        if not shown:
            named = [Card.parse(e.split("=", 1)[1]).code for e in self.entries
                     if e.startswith(pile + "=")]
            p, d = self.start.piles[i], self.start.down[i]
            shown = list(dict.fromkeys([c for c in p[d:] if c != UNKNOWN] + named))
        if len(shown) == 1:
            return shown[0]
        if not shown:
            return self._reply(False, "refused", f"No card was named on {pile}: nothing to "
                               "correct. Type fix PILE WRONG CARD with the pile where the "
                               "misnamed card lies (fix t5 8s 8c).")
        listing = " ".join(self.card(c) for c in shown[-6:])
        more = "... " if len(shown) > 6 else ""
        top, typed = shown[-1], _typed(new)
        return self._reply(False, "refused", f"{pile} holds {len(shown)} named cards ({more}"
                           f"{listing}): which one is wrong? Type fix {pile} CARD {typed}, "
                           f"CARD being the card named wrongly (e.g. fix {pile} {_typed(top)} "
                           f"{typed} if it is {self.card(top)}). Nothing was changed.")

    def _fix_spot(self, pile: str, i: int, old: int):
        """Where ``old``, seen on ``pile``, was named: ("entry", k) for the reveal entry k,
        ("layout", j, h) for the typed layout's pile j, height h; else why not, in words."""
        def card_of(e: str) -> int:
            return Card.parse(e.split("=", 1)[1]).code

        entries = self.entries
        k = next((n for n in range(len(entries) - 1, -1, -1)
                  if entries[n].startswith(pile + "=") and card_of(entries[n]) == old), None)
        if k is not None:
            return ("entry", k)
        start = self.start
        p, d = start.piles[i], start.down[i]
        spots = [h for h in range(d, len(p)) if p[h] == old]
        if spots:
            return ("layout", i, spots[-1])
        # named on another pile, moved here since (K♦ into an empty t5)
        origins = [("entry", n) for n, e in enumerate(entries) if "=" in e
                   and card_of(e) == old]
        origins += [("layout", j, h) for j, q in enumerate(start.piles)
                    for h in range(start.down[j], len(q)) if q[h] == old]
        pos = self.pos
        here = old in pos.piles[i][pos.down[i]:]
        if len(origins) == 1 and here:
            return origins[0]
        card = self.card(old)
        if not origins:
            return f"{card} was never named: nothing to correct."
        piles = sorted({entries[o[1]].split("=", 1)[0] if o[0] == "entry"
                        else self.engine.names[o[1]] for o in origins})
        if here:
            return (f"{card} was named more than once ({', '.join(piles)}): type fix with "
                    f"the pile where the wrong one was named.")
        return (f"{card} is not on {pile} and was never named there (it was named on "
                f"{' and '.join(piles)}): type fix {piles[0]} {_typed(old)} CARD.")

    def _names_waiting(self, key: str) -> bool:
        """Whether ``t4=js`` names a card waiting to be named (not a correction)."""
        waiting = {self.engine.names[i] for i, _ in self.pending}
        piles = {t.split("=", 1)[0].strip() for t in re.split(r"[\s,;]+", key) if "=" in t}
        if self.short_prefix:
            piles = {self.short_prefix + p if p.isdigit() else p for p in piles}
        return bool(piles & waiting) or not piles

    def _move_number(self, k: int) -> int:
        """The number of the move entry ``k`` belongs to (a reveal: the move before it)."""
        return max(1, sum(1 for e in self.entries[:k + 1] if "=" not in e))

    def _entry_name(self, n: int, text: str) -> str:
        if "=" in text:
            return f"the card named at move {self._move_number(n)} ({text})"
        return f"move {self._move_number(n)} ({text})"

    def _waiting(self) -> str:
        if self.pending:
            return self._pending_text()
        if self.phase == OVER:
            return self._over_text()
        return "Type a move (`moves` lists them, `help` explains)."

    # ------------------------------------------------------------------ moves
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

    def _notation(self) -> list[tuple[str, str]]:
        """The variant's own move forms with what each does (the rules engine's list), the
        reveal form left out (the recorder asks for turned-up cards itself)."""
        try:
            forms = notation(self.start.variant)
        except Exception:  # a new variant the wording does not know yet
            return []
        return [(ex, what) for ex, what in forms if "=" not in ex]

    def _short_form(self) -> str:
        """``3 5 for t3 t5``: the short form of the variant's first move between two piles."""
        if not self.short_prefix:
            return ""
        pat = re.compile(rf"^{self.short_prefix}([0-9]+)$")
        for ex, _ in self._notation():
            toks = ex.split(",")[0].split()
            if len(toks) == 2 and all(pat.match(t) for t in toks):
                return " ".join(t[len(self.short_prefix):] for t in toks) + f" for {ex}"
        return ""

    def _examples(self) -> str:
        """A few moves in the variant's own notation: ``p22 p28, s or 6d 7c``."""
        forms = [ex.split(",")[0] for ex, _ in self._notation()][:3]
        if not forms:
            return "`moves` lists them"
        return ", ".join(forms[:-1]) + (" or " if len(forms) > 1 else "") + forms[-1]

    def _help(self) -> list[str]:
        forms = self._notation()
        width = max((len(ex) for ex, _ in forms), default=0)
        out = [f"Moves in {self.start.variant.name}:"]
        out += [f"  {ex.ljust(width)}  {what}" for ex, what in forms]
        short = self._short_form()
        if short:
            out.append(f"  Short form: {short}.")
        out.append("Several moves on one line are played in turn when separated by commas "
                   "(" + ", ".join(ex.split(",")[0] for ex, _ in forms[:2]) + ").")
        out.append("Commands: undo (u), redo, moves (?), show, hint, help, resign, quit (the "
                   "game is kept).")
        if not self.seeded_game:
            out.append("  scan P: name a card that turned up from photo P (scan cam0: webcam 0).")
        if self.seeded_game:
            out.append("Turned-up cards: the recorder says which card should appear; if yours "
                       "differs, type PILE=CARD (what you see, e.g. "
                       f"{self._reveal_example()}) to report a dealing error.")
        else:
            out.append("Turned-up cards: when a card turns up you are asked for it: type it "
                       "(9c); several on the waste go bottom to top (9s 8d 7c).")
            out.append("A card named wrongly (turned up, or in the layout): fix PILE WRONG "
                       "CARD, e.g. fix t5 8s 8c, puts the card really there; every move since "
                       "is replayed with it (fix t5 8c alone where t5 shows one card).")
        return out

    def _reveal_example(self) -> str:
        """``t3=9c`` with one of the variant's piles."""
        for ex, _ in self._notation_all():
            if "=" in ex:
                return ex
        return f"{self.engine.names[0]}=9c"

    def _notation_all(self) -> list[tuple[str, str]]:
        try:
            return notation(self.start.variant)
        except Exception:
            return []

    def _hint(self) -> Reply:
        if self.pending:
            return self._reply(False, "refused", ("Name the turned-up card first. " if len(self.pending) == 1
                                else "Name the turned-up cards first. ")
                               + self._pending_text())
        if self.phase == OVER:
            return self._reply(True, "hint", self._over_text())
        try:
            text = solver_hint(self.pos, self.symbols)
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

    # ------------------------------------------------------------------ reveals (physical)
    def _pending_text(self) -> str:
        pending = self.pending
        if not pending:
            return ""
        names = self.engine.names
        piles = []
        for i, _ in pending:
            if i not in piles:
                piles.append(i)
        if len(piles) == 1:
            n = len(pending)
            if n == 1:
                if piles[0] == self.engine.groups.waste:
                    return (f"Which card turned up on {names[piles[0]]}, the waste's top "
                            f"card? (e.g. 9c)")
                return f"Which card turned up on {names[piles[0]]}? (e.g. 9c)"
            return (f"{n} cards turned up on {names[piles[0]]}: name them from the bottom (the "
                    f"most covered) to the top (the one you can play), e.g. 9s 8d 7c.")
        listing = ", ".join(names[i] for i in piles)
        return (f"{len(pending)} cards turned up, on {listing}: name them in that order "
                f"({names[piles[0]]} first" + (", each pile bottom to top" if
                                               len(piles) < len(pending) else "") + ").")

    def _reveal_line(self, line: str) -> Reply:
        tokens = [t for t in re.split(r"[\s,;]+", line.strip()) if t]
        names = self.engine.names
        pending = self.pending
        bad = []
        for tok in tokens:
            if "=" in tok:
                continue
            try:
                Card.parse(tok)
            except InvalidCardError as exc:
                bad.append((tok, exc))
        if bad:
            tok, exc = bad[0]
            if len(tokens) > 1 and any(t in self.engine.index for t in tokens):  # a move
                return self._reply(False, "refused", f"{line!r} looks like a move: name the "
                                   f"turned-up card first. " + self._pending_text())
            if len(tokens) == 1:
                return self._reply(False, "refused", f"{line!r} does not name the turned-up "
                                   f"card. " + self._pending_text(), self._reveal_help(line))
            return self._reply(False, "refused", f"{tok!r} in that line is not a card: "
                               + str(exc).split(": ", 1)[-1].rstrip(".") + ". Nothing was "
                               "named; type the line again with it corrected.")
        if len(tokens) > len(pending):
            return self._reply(False, "refused", self._too_many_text(len(tokens)))
        named: Counter[int] = Counter()
        for tok in tokens:
            try:
                named[Card.parse(tok.partition("=")[2] if "=" in tok else tok).code] += 1
            except InvalidCardError:
                continue
        unseen = self.pos.unseen()
        for c, n in named.items():
            if n > 1 and 1 <= unseen[c] < n:  # more copies named than the deck still hides
                why = ("appears twice in that line: each card turned up is a different one"
                       if unseen[c] == 1 else f"appears {n} times in that line, and only "
                       f"{unseen[c]} of them are not seen yet")
                return self._reply(False, "refused", f"{self.card(c)} {why}.",
                                   "Nothing was named. " + self._pending_text())
        trial = self.pos.copy()
        moves: list[Move] = []
        for tok in tokens:
            if "=" in tok:
                try:
                    m = Move.parse(tok)
                except InvalidMoveError as exc:
                    return self._reply(False, "invalid", str(exc))
            else:
                code = Card.parse(tok).code
                left = trial.pending_reveals()
                m = Move(names[left[0][0]], None, 0, code)
            try:
                trial.play(m)
            except (IllegalMoveError, InvalidMoveError) as exc:
                reason = getattr(exc, "reason", None) or str(exc)
                seen = self._seen_at(m.card, trial) if m.card is not None else ""
                if seen:
                    # the advice names the card: `fix PILE CARD` alone may mean another one
                    at = self._seen_piles(m.card, trial)[0]
                    reason = (f"{self.card(m.card)} is already face up at {seen}; the card "
                              f"turned up must be one not seen yet. If that one was named "
                              f"wrongly, type fix {at} {_typed(m.card)} CARD first (CARD: "
                              f"the card really there), then name this one")
                return self._reply(False, "illegal", f"{m}: {reason}.",
                                   "Nothing was named. " + self._pending_text(),
                                   data={"reason": reason})
            moves.append(m)
        texts, failed = self._record_reveals(moves)
        if failed is not None:
            return failed
        return self._after_reveal(texts)

    def _reveal_help(self, line: str) -> str:
        """What can be typed while a card waits to be named (never a move)."""
        close = difflib.get_close_matches(line.lower(), ["undo", "show", "help", "quit"],
                                          n=2, cutoff=0.6)
        if close:
            return "Did you mean: " + ", ".join(close) + "?"
        return ("Type the card as you see it (9c, 10h, qs); `undo` takes back the move that "
                "turned it up, `show` draws the layout, `quit` leaves (the game is kept).")

    def _too_many_text(self, n: int) -> str:
        """``n`` cards typed for fewer places waiting: say which places are left."""
        pending = self.pending
        names = self.engine.names
        by_pile: dict[int, list[int]] = {}
        for i, k in pending:
            by_pile.setdefault(i, []).append(k)
        where = []
        named = []
        for i, ks in by_pile.items():
            where.append(self._place(i, ks[0]) if len(ks) == 1 else
                         f"{names[i]}, cards " + ", ".join(str(k + 1) for k in ks[:-1])
                         + f" and {ks[-1] + 1} from the bottom")
            p = self.pos.piles[i]
            named += [self.card(c) for c in p[self.pos.down[i]:ks[0]]][-(n - len(pending)):]
        left = len(pending)
        text = (f"{n} cards named, but only {left} {'is' if left == 1 else 'are'} still to "
                f"name: " + "; ".join(where) + ".")
        if named:
            text += (f" ({' '.join(named)} below {'it' if left == 1 else 'them'} "
                     f"{'is' if len(named) == 1 else 'are'} named already.)")
        first = names[next(iter(by_pile))]
        return text + (f" Type the {left} still to name, bottom to top." if left > 1 else
                       f" Type the card on {first}.")

    def _seen_piles(self, code: int, pos) -> list[str]:
        """The piles where ``code`` is face up in ``pos``."""
        return [self.engine.names[i] for i, p in enumerate(pos.piles)
                for k, c in enumerate(p) if c == code and k >= pos.down[i]]

    def _seen_at(self, code: int, pos) -> str:
        """Where ``code`` is face up in ``pos`` ("" if nowhere; every copy for two decks)."""
        spots = [(i, k) for i, p in enumerate(pos.piles) for k, c in enumerate(p)
                 if c == code and k >= pos.down[i]]
        if len(spots) < self.start.variant.decks:
            return ""
        return " and ".join(place_text(self.engine.names, i, k, len(pos.piles[i]))
                            for i, k in spots)

    def _record_reveals(self, moves: list) -> tuple[list[str], Reply | None]:
        """Play the checked reveal ``moves`` and save them in one step: their texts, and the
        store's error reply (every move taken back, the saved game as it was) or None."""
        texts = [str(m) for m in moves]
        for m in moves:
            self.pos.play(m)
        if not self._persist(texts):
            for _ in moves:
                self.pos.pop()
            return texts, self._last_store_error
        self.entries.extend(texts)
        self.redo_stack.clear()
        return texts, None

    def _after_reveal(self, texts: list[str], redo: bool = False) -> Reply:
        by_pile: dict[str, list[str]] = {}
        for t in texts:
            pile, _, card = t.partition("=")
            by_pile.setdefault(pile, []).append(self.card(Card.parse(card).code))
        named = "; ".join(f"{p}: " + " ".join(cs) for p, cs in by_pile.items())
        lines = [("Redid: " if redo else "Named ") + named + "."]
        data: dict = {"reveals": texts}
        if self.pending:
            lines.append(self._pending_text())
            data["pending"] = [self.engine.names[i] for i, _ in self.pending]
        end = self._settle()
        if end:
            lines.append(end)
        data.update(self._outcome_data())
        return self._reply(True, "reveal", *lines, board=not self.pending,
                           move=" ".join(texts), data=data)

    # ------------------------------------------------------------------ photos
    def _scan(self, arg: str) -> Reply:
        """``scan PHOTO`` / ``scan cam0``: the layout (setup) or a turned-up card (play)."""
        if not arg:
            return self._reply(False, "refused", "Say which photo: scan table.jpg (or scan cam0 "
                               "for webcam 0).")
        # late-bound: tests monkeypatch scan on integrate
        from ..vision.integrate import no_cards_message, parse_source, scan, source_name
        if self.phase == SETUP or self.pending:
            pass
        elif self.seeded_game:
            return self._reply(False, "refused", "In a seeded game the recorder knows every "
                               "card: nothing to read from a photo. If a card on the table "
                               "differs, type t3=CARD (the card you see).")
        else:
            return self._reply(False, "refused", "No card is waiting to be named: `scan` "
                               "enters the layout, or a card when one turns up.")
        path, camera = parse_source(arg)
        source = source_name(path, camera)
        reading = (self.scanner or scan)(path, camera, self.start.variant.key)
        if not reading["cards"]:
            return self._reply(False, "refused", no_cards_message(source)[0].upper()
                               + no_cards_message(source)[1:] + ". Nothing was entered.")
        if self.phase == SETUP:
            return self._scan_layout(reading, source)
        return self._scan_reveal(reading, source)

    def _scan_layout(self, reading, source: str) -> Reply:
        layout = self.layout
        assert layout is not None
        names = self.engine.names
        plan, todo = layout_plan(reading, layout)
        for i in list(plan):
            have = layout.entered[i]
            if have == plan[i]:
                del plan[i]
            elif have:  # typed already, and the photo differs: the player decides
                todo.append(f"{names[i]}: the photo shows "
                            + " ".join(self.card(c) for c in plan.pop(i)) + ", you typed "
                            + " ".join(self.card(c) for c in have) + f" (correct with "
                            f"{names[i]}: CARDS if needed)")
        if not plan:
            return self._reply(False, "refused", f"Nothing entered from {source}.",
                               *[("  " + t) for t in todo],
                               "" if layout.complete else layout.instructions())
        before = {i: list(e) for i, e in layout.entered.items()}
        undo_before = list(layout._undo)
        for i, codes in plan.items():
            res = layout.enter(f"{names[i]}: " + " ".join(code_json(c) for c in codes))
            if not res.ok:
                layout.entered, layout._undo = before, undo_before
                return self._reply(False, "refused", f"The cards read from {source} were "
                                   f"refused: {res.message}. Nothing was entered; type the "
                                   f"piles (or retake the photo).", *[("  " + t) for t in todo])
        layout._undo = undo_before + [before]   # one `undo` takes the whole photo back
        if not self._save_layout():
            layout.entered, layout._undo = before, undo_before
            return self._last_store_error
        self._refresh_setup()
        piles = reading.get("piles")
        empty = [n for n in (piles.empty if piles is not None else []) if names.index(n) in plan]
        entered = "; ".join(f"{names[i]}: " + " ".join(self.card(c) for c in cs)
                            for i, cs in plan.items() if names[i] not in empty)
        lines = [f"Read from {source}: {entered}."]
        if empty:
            aside = " ".join(self.card(plan[names.index(n)][0]) for n in empty)
            lines.append(f"Empty in the photo: {', '.join(empty)}, taken for the places of "
                         f"the cards the deal puts aside ({aside}: which lay where makes no "
                         "difference).")
        # a card read below the threshold and named from the rules is entered (nothing is
        # recorded before `start`, after the player has checked the layout) and named here
        taken = {names[i] for i in plan}
        inferred = [inferred_line(name, d, self.card) for name, d in inferred_cards(reading)
                    if name in taken]
        lines += inferred
        if todo:
            lines.append("Type these yourself (not entered):")
            lines += ["  " + t for t in todo]
        if layout.complete:
            lines.append(f"Every face-up card is named ({layout.total}). Check the layout "
                         "against the table, then type `start` (or correct a pile: t3: 9c).")
        else:
            lines.append(layout.instructions())
        return self._reply(True, "layout", *lines, board=layout.complete,
                           data={"scanned": {names[i]: [code_json(c) for c in cs]
                                             for i, cs in plan.items()}, "to_type": todo,
                                 "inferred": inferred})

    def _scan_reveal(self, reading, source: str) -> Reply:
        new, unsure, inferred = new_cards(reading, self.pos)
        pending = self.pending
        unsure_text = ("Not read with confidence: " + ", ".join(uncertain_text(d)
                                                                 for d in unsure) + "."
                       if unsure else "")
        # a card the rules named is not recorded (a card that turns up is, at once): named
        pile = where(reading)
        inferred_text = [inferred_line(pile.get(id(d), "in the photo"), d, self.card,
                                       then=CHECK_AND_TYPE) for d in inferred]
        if len(pending) > 1:
            reply = self._scan_reveals(reading, source)
            if reply is not None:
                return reply
        if len(new) == 1 and len(pending) == 1 and not inferred:
            reply = self._reveal_line(code_json(new[0]))
            reply.lines.insert(0, self._t(f"The photo shows one new card: {self.card(new[0])}."))
            return reply
        if not new:
            why = f"No new card read with confidence in {source}."
        elif len(new) == 1 and len(pending) == 1:
            why = (f"The photo shows one new card read with confidence ({self.card(new[0])}) "
                   f"and {len(inferred)} inferred from the rules: cannot tell which turned up.")
        elif len(new) == 1:
            why = (f"The photo shows one new card ({self.card(new[0])}), but {len(pending)} "
                   f"cards turned up.")
        else:
            why = (f"{len(new)} cards in {source} are new to the position ("
                   + " ".join(self.card(c) for c in new) + "): cannot tell which turned up.")
        return self._reply(False, "refused", why, unsure_text, *inferred_text,
                           "Type the card: " + self._pending_text())

    def _scan_reveals(self, reading, source: str) -> Reply | None:
        """Several cards waiting: each one the photo shows with confidence, in its pile and
        place, is named (as if typed); the rest are asked for. None when the photo
        names none of them."""
        plan, todo = reveal_plan(reading, self.pos)
        if not plan:
            return None
        names = self.engine.names
        trial = self.pos.copy()
        moves = []
        for i, _k, code in plan:
            m = Move(names[i], None, 0, code)
            try:
                trial.play(m)
            except (IllegalMoveError, InvalidMoveError) as exc:
                todo.append(f"{names[i]}: {self.card(code)} read, refused: "
                            + (getattr(exc, "reason", None) or str(exc)))
                continue
            moves.append(m)
        if not moves:
            return None
        texts, failed = self._record_reveals(moves)
        if failed is not None:
            return failed
        reply = self._after_reveal(texts)
        reply.lines.insert(0, self._t(f"Read from {source}: {len(moves)} of "
                                      f"{len(plan) + len(todo)} waiting cards."))
        if todo:
            at = 2 if self.pending else len(reply.lines)
            reply.lines[at:at] = ["Not read from the photo (type them):"] + [
                "  " + self._t(t) for t in todo]
        reply.data["to_type"] = todo
        return reply

    # ------------------------------------------------------------------ reveals (seeded)
    def _turned_text(self) -> str:
        names = self.engine.names
        if not self.turned:
            return ""
        by_pile: dict[int, list[int]] = {}
        for i, _, c in self.turned:
            by_pile.setdefault(i, []).append(c)
        parts = []
        for i, cs in by_pile.items():
            cards = " ".join(self.card(c) for c in cs)
            parts.append(f"{names[i]}: {cards}" + (" (bottom to top)" if len(cs) > 1 else ""))
        first = self.turned[0]
        deal = "the seed" if self.start.seed is not None else self.start.deal_name
        return (f"Turned up, as {deal} deals it: " + "; ".join(parts)
                + f". If your card differs, type {names[first[0]]}=CARD (the card you see).")

    def _redealt_text(self, before_piles) -> str:
        """A seeded Gaps redeal: the player lays the cards out as the seed deals them."""
        names = self.engine.names
        moved = [i for i, p in enumerate(self.pos.piles) if p != before_piles[i]
                 and names[i] != "x"]
        example = names[moved[0]] if moved else names[0]
        return (f"Redealt, as {self.start.deal_name} deals it: gather the cards that are not in "
                f"a kept run and lay them out as shown ({len(moved)} cells), not shuffled your "
                f"own way. If a card on the table differs, type "
                f"{example}=CARD (the card you see).")

    def _place(self, i: int, k: int) -> str:
        return place_text(self.engine.names, i, k, len(self.pos.piles[i]))

    def _seeded_report(self, line: str) -> Reply:
        """``t3=9c`` in a seeded game: the player says which card they see there. Several
        cards (``w=qs 4c 6s``) name a whole turn of the stock, bottom to top."""
        pile, _, cards = line.strip().lower().partition("=")
        pile = pile.strip()
        if self.short_prefix and pile.isdigit():
            pile = self.short_prefix + pile
        eng = self.engine
        if pile not in eng.index:
            return self._reply(False, "refused", f"there is no pile {pile!r} here; the piles "
                               "are " + ", ".join(eng.names) + ". Write t3=9c: the pile, then "
                               "the card you see there.")
        codes = []
        for tok in re.split(r"[\s,;]+", cards.strip()):
            if not tok:
                continue
            try:
                codes.append(Card.parse(tok).code)
            except InvalidCardError as exc:
                return self._reply(False, "invalid", str(exc))
        if not codes:
            return self._reply(False, "refused", f"name the card you see, e.g. {pile}=9c")
        i = eng.index[pile]
        spots = [(j, k, c) for j, k, c in self.turned if j == i]
        if len(codes) == 1 or len(spots) != len(codes):
            if len(codes) > 1:
                return self._reply(False, "refused", f"{len(codes)} cards named, but "
                                   f"{len(spots) or 'no'} card{'s' if len(spots) != 1 else ''}"
                                   f" just turned up on {pile}; name one card: {pile}=9c "
                                   f"(the top card).")
            if spots:
                spots = spots[-1:]
            else:
                p = self.pos.piles[i]
                if not p or self.pos.down[i] >= len(p):
                    return self._reply(False, "refused", f"{pile} has no face-up card to "
                                       "check.")
                spots = [(i, len(p) - 1, p[-1])]
        wrong = [(k, exp, got) for (_, k, exp), got in zip(spots, codes, strict=True)
                 if exp != got]
        checked = {(i, k) for _, k, _ in spots}
        for _, _, found in wrong:
            refused = self._face_up_elsewhere(found, checked)
            if refused:
                return self._reply(False, "refused", refused + f" Look again at {pile}: "
                                   "nothing was recorded.")
        if not wrong:
            shown = " ".join(self.card(c) for c in codes)
            return self._reply(True, "confirm", f"Right: {pile} shows {shown}, as "
                               f"{self.start.deal_name} deals it.")
        lines, data = [], []
        for k, expected, found in wrong:
            place = self._place(i, k)
            text = (f"Dealing error at {place}: expected {self.card(expected)}, found "
                    f"{self.card(found)}.")
            where = self._where(found)
            deal = self.start.deal_name
            advice = (f"{deal[0].upper() + deal[1:]} has {self.card(found)} at {where}: your "
                      f"{self.card(expected)} is probably there. Swap the two cards and play "
                      f"on; the recorder keeps to the seeded deal." if where else
                      f"{self.card(found)} is not in this deck: check the card.")
            if self.log is not None:
                try:
                    self.log.note(len(self.entries), "dealing-error", text)
                except StoreError as exc:
                    advice += f" (The note could not be saved: {exc})"
            lines += [text, advice]
            data.append({"place": place, "expected": code_json(expected),
                         "found": code_json(found)})
        return self._reply(False, "dealing-error", *lines, data={"errors": data})

    def _face_up_elsewhere(self, code: int, checked: set[tuple[int, int]]) -> str:
        """Why ``code`` cannot be the card seen at the ``checked`` places: every copy the decks
        hold is face up elsewhere on the table ("" when one may be hidden)."""
        pos = self.pos
        spots = [(i, k) for i, p in enumerate(pos.piles) for k, c in enumerate(p)
                 if c == code and k >= pos.down[i] and (i, k) not in checked]
        decks = self.start.variant.decks
        if len(spots) < decks:
            return ""
        card = self.card(code)
        where = " and ".join(self._place(i, k) for i, k in spots)
        if decks == 1:
            return f"{card} is face up at {where}; a one-deck game has only one {card}."
        return (f"{card} is face up at {where}; a {decks}-deck game has only {decks}.")

    def _where(self, code: int) -> str:
        """Where the seeded position holds ``code`` (not face up, preferably)."""
        pos = self.pos
        spots = [(i, k) for i, p in enumerate(pos.piles) for k, c in enumerate(p) if c == code]
        if not spots:
            return ""
        spots.sort(key=lambda s: s[1] >= pos.down[s[0]])  # face-down spots first
        i, k = spots[0]
        text = self._place(i, k)
        if k >= pos.down[i]:
            text += " (face up)"
        return text

    # ------------------------------------------------------------------ describing moves
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

    # ------------------------------------------------------------------ output for JSON
    def state_json(self) -> dict:
        return {
            "game": self.game_id, "phase": self.phase, "moves": list(self.entries),
            "move_count": self.move_count,
            "pending": [self.engine.names[i] for i, _ in self.pending],
            "outcome": self._outcome_data().get("outcome"),
            "position": self.pos.to_json(),
        }


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


def _turned_up(before_piles, before_down, pos) -> list[tuple[int, int, int]]:
    """(pile, height, code) of the cards a move turned face up (seeded games)."""
    def face_down(piles, down):
        c: Counter = Counter()
        for i, p in enumerate(piles):
            c.update(p[:down[i]])
        return c

    turned = face_down(before_piles, before_down) - face_down(pos.piles, pos.down)
    if not turned:
        return []
    out = []
    for i, p in enumerate(pos.piles):
        old = before_piles[i]
        for k in range(pos.down[i], len(p)):
            c = p[k]
            if turned[c] > 0 and not (before_down[i] <= k < len(old) and old[k] == c):
                out.append((i, k, c))
                turned[c] -= 1
    return out


def solver_hint(pos, symbols: bool = True) -> str | None:
    """The solver's hint as text, or None while there is no solver. The import is guarded:
    companion.solver is built alongside the recorder and may be absent or incomplete."""
    try:
        from ..solver import hints as solver_hints  # type: ignore[attr-defined]
    except ModuleNotFoundError as exc:
        if exc.name in ("companion.solver", "companion.solver.hints"):
            return None
        return f"Hints are unavailable: the solver could not load ({exc})."
    except ImportError as exc:
        return f"Hints are unavailable: the solver could not load ({exc})."
    fn = getattr(solver_hints, "hint", None)
    if fn is None:
        return None
    # The copy keeps the moves played: the hint reads the game's past so as not to lead
    # round in circles.
    try:
        try:
            result = fn(pos.copy(stack=True), symbols=symbols)
        except TypeError:
            result = fn(pos.copy(stack=True))
    except CompanionError as exc:
        return f"No hint: {exc}"
    if result is None:
        return "No hint: the solver found no move worth suggesting."
    if isinstance(result, str):
        return result
    text = getattr(result, "text", None)
    if callable(text):
        return text()
    move = getattr(result, "move", None)
    reason = getattr(result, "reason", None)
    if move is not None:
        return f"Hint: {move}" + (f": {reason}" if reason else "")
    return str(result)


def _one_slip(typed: str, word: str) -> bool:
    """``typed`` is ``word`` with one character added, dropped or changed."""
    if abs(len(typed) - len(word)) > 1 or typed == word:
        return False
    if len(typed) == len(word):
        return sum(a != b for a, b in zip(typed, word, strict=True)) == 1
    short, long_ = sorted((typed, word), key=len)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))
