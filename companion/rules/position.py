"""Positions: piles of card codes, face-down counts, the stock's pass, and an undo stack.

A position is plain data: ``piles`` is a list of tuples of card codes (bottom to top),
``down[i]`` how many cards at the bottom of pile *i* are face down. Copies are cheap (the tuples
are shared), ``key()`` is a compact ``bytes`` value for transposition tables, and the JSON form
round-trips exactly. All legality questions go to the variant's :class:`~.engine.Engine`.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cards import (
    CARD_HELP,
    CARDS,
    RANK_TEXT,
    UNKNOWN,
    Card,
    card_problem,
    code_from_json,
    code_json,
    code_text,
)
from ..errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    PositionError,
    VariantError,
)
from .deal import DEAL_VERSION, dealt, fingerprint, lay_out
from .engine import MOVE, PAIR, REVEAL, STOCK, Engine, Raw, RawMove
from .explain import explain, explain_cards
from .moves import PILE_RE, Move
from .variant import Variant, find_variant, load_variant

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence

    from .engine import Piles
    from .explain import CardSpec

    # An undo entry: the piles, face-down counts, pass and idle flag before a move, and the
    # move (or the turns of one :meth:`Position.push_turns`).
    _Entry = tuple[Piles, list[int], int, bool, Raw | tuple[Raw, ...]]


class Termination(enum.Enum):
    WON = "won"
    """The variant's goal is reached."""
    NO_MOVES = "no-moves"
    """No legal move is left: no stock deal, no redeal."""
    BLOCKED = "blocked"
    """Unlimited passes, a whole pass through the stock changed nothing, and no other move is
    left."""


_ENDS = {Termination.WON: "the goal of the game is reached",
         Termination.NO_MOVES: "no legal move is left",
         Termination.BLOCKED: "the last pass through the stock changed nothing and no other "
                              "move is left"}


@dataclass(frozen=True)
class Outcome:
    termination: Termination
    score: int | None = None

    @property
    def won(self) -> bool:
        return self.termination is Termination.WON

    @property
    def why(self) -> str:
        """Why the game ended, in a player's words ("no legal move is left")."""
        return _ENDS[self.termination]

    def result(self) -> str:
        return "won" if self.won else "lost"


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.ok


class Status(enum.IntFlag):
    VALID = 0
    UNKNOWN_CARD_FOR_VARIANT = 1
    TOO_MANY_COPIES = 2
    WRONG_CARD_COUNT = 4
    BAD_FACE_DOWN = 8
    PILE_TOO_FULL = 16


class Position:
    __slots__ = ("_stack", "down", "engine", "idle", "pass_no", "piles", "pysol", "seed")

    def __init__(self, engine: Engine, piles: Iterable[Iterable[int]], down: Iterable[int], *,
                 pass_no: int = 1, idle: bool = False, seed: int | None = None,
                 pysol: int | None = None) -> None:
        self.engine = engine
        self.piles: list[tuple[int, ...]] = [tuple(p) for p in piles]
        self.down: list[int] = list(down)
        self.pass_no = pass_no
        self.idle = idle
        self.seed = seed
        self.pysol = pysol   # the PySolFC game number of the deal (companion.pysolfc), or None
        self._stack: list[_Entry] = []

    # ------------------------------------------------------------------ construction
    @classmethod
    def deal(cls, variant: Variant | str, seed: int | None = None,
             options: dict[str, object] | None = None) -> Position:
        """The seeded deal (every card known), or with ``seed=None`` a physical deal whose
        cards are all ``??`` until the player names the face-up ones."""
        v = variant if isinstance(variant, Variant) else load_variant(variant, options)
        if seed is not None:
            _, piles, down = dealt(v, seed)
        else:
            piles, down = lay_out(v, [UNKNOWN] * v.deck_size)
        return cls(v.engine(), piles, down, seed=seed)

    @property
    def variant(self) -> Variant:
        return self.engine.variant

    def copy(self, stack: bool = False) -> Position:
        p = Position.__new__(Position)
        p.engine = self.engine
        p.piles = self.piles[:]
        p.down = self.down[:]
        p.pass_no = self.pass_no
        p.idle = self.idle
        p.seed = self.seed
        p.pysol = self.pysol
        p._stack = self._stack[:] if stack else []
        return p

    # ------------------------------------------------------------------ identity
    def key(self) -> bytes:
        """A compact, hashable image of the state (what the solver stores)."""
        return self._key_of(self.piles, self.down, self.pass_no, self.idle)

    def _key_of(self, piles: Piles, down: list[int], pass_no: int, idle: bool) -> bytes:
        unlimited = self.engine.passes == 0
        tail = bytes((0 if unlimited else min(pass_no, 255), idle))
        return bytes(down) + b"\xff".join(map(bytes, piles)) + tail

    def keys_met(self) -> list[bytes]:
        """The :meth:`key` of each position the moves played here started from, oldest first
        (reveals included): the game's past, which the hint reads so as not to go round in
        circles."""
        return [self._key_of(*entry[:4]) for entry in self._stack]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.engine is other.engine \
            and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"<Position {self.variant.identity}, {self.deal_name}, {len(self._stack)} " \
               f"moves played>"

    @property
    def known_deal(self) -> bool:
        """Whether every card of the deal is known: a seeded deal or a PySolFC game."""
        return self.seed is not None or self.pysol is not None

    @property
    def deal_name(self) -> str:
        """``seed 42``, ``PySolFC game 123456`` or ``physical deal``."""
        if self.pysol is not None:
            return f"PySolFC game {self.pysol}"
        return "physical deal" if self.seed is None else f"seed {self.seed}"

    # ------------------------------------------------------------------ piles
    def pile(self, name: str) -> tuple[int, ...]:
        return self.piles[self._pile_index(name)]

    def face_down(self, name: str) -> int:
        return self.down[self._pile_index(name)]

    def _pile_index(self, name: str) -> int:
        try:
            return self.engine.index[name]
        except KeyError:
            raise PositionError(self._no_pile(name)) from None

    def _no_pile(self, name: str) -> str:
        return f"there is no pile {name!r} in {self.variant.name}; its piles are " \
               + _name_ranges(self.engine.names)

    # ------------------------------------------------------------------ moves
    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def raw_moves(self) -> list[Raw]:
        return self.engine.gen(self)

    def push_raw(self, m: Raw) -> None:
        """Apply a raw move without checking it (the solver's and replay's fast path)."""
        self._stack.append((self.piles[:], self.down[:], self.pass_no, self.idle, m))
        self.engine.apply(self, m)

    def push_turns(self, stock: Raw, k: int,
                   talon: tuple[tuple[int, ...], tuple[int, ...], int, int, bool]) -> None:
        """Turn the stock ``k`` times at once (``stock`` is the stock action), to ``talon``:
        (stock, waste, the stock's face-down count, pass number, idle) as ``k`` pushes of
        ``stock`` leave them, which the caller knows (the solver keeps each talon's cycle).
        Valid only where the stock action changes nothing but those (a stock dealt to the
        waste, no refilling). One :meth:`pop` undoes the ``k`` turns; :attr:`history` lists
        them one by one."""
        self._stack.append((self.piles[:], self.down[:], self.pass_no, self.idle,
                            (stock,) * k))
        S, W = self.engine.groups.stock, self.engine.groups.waste
        self.piles[S], self.piles[W], self.down[S], self.pass_no, self.idle = talon

    def pop(self) -> Raw | tuple[Raw, ...]:
        """Undo the last move (or the turns of one :meth:`push_turns`); returns it (the turns:
        a tuple of them)."""
        if not self._stack:
            raise IndexError("no move to undo")
        self.piles, self.down, self.pass_no, self.idle, m = self._stack.pop()
        return m

    @property
    def history(self) -> list[Raw]:
        out: list[Raw] = []
        for entry in self._stack:
            m = entry[-1]
            if type(m[0]) is tuple:  # the turns of a push_turns
                out.extend(m)  # type: ignore[arg-type]  # (narrowed by the test above)
            else:
                out.append(m)  # type: ignore[arg-type]
        return out

    def to_raw(self, move: Move) -> Raw:
        """The raw legal move for ``move``; IllegalMoveError with the reason if there is none."""
        if move.is_reveal:
            return self._reveal_raw(move)
        eng = self.engine
        if move.src == "s" and move.dst is None:
            # The stock action; Gaps has no pile s but redeals with it.
            for m in self.raw_moves():
                if m[0] == STOCK:
                    return m
            raise IllegalMoveError(str(move), self._explain(move))
        foundations = eng.groups.foundation_set
        for name in (move.src, move.dst):
            if name is not None and name not in eng.index and not (name == "f" and foundations):
                raise IllegalMoveError(str(move), self._no_pile(name))
        src = eng.index.get(move.src, -1)
        dst_f = move.dst == "f" or eng.index.get(move.dst or "", -1) in foundations
        legal = self.raw_moves()
        for m in legal:
            if eng.move_of(m) == move:
                return m
        for m in legal:
            mv = eng.move_of(m)
            if mv.src != move.src:
                continue
            if move.dst is None and eng.pairs and mv.dst == "f" and not move.count:
                return m  # a card removed on its own, named by its place alone (p22 for p22 f)
            if move.count and mv.dst == move.dst == "f" and m[0] == MOVE and \
                    m[2] == move.count:
                return m  # a complete suit lifted off with its count given (t1:13 f)
        if dst_f and move.dst != "f":
            # An explicit foundation (f2): legal when that very pile takes the card.
            f = eng.index[move.dst]  # type: ignore[index]  # (dst_f: not None)
            for m in legal:
                if m[0] == MOVE and m[1] == src and m[3] in foundations and (
                        move.count in (0, m[2])):
                    p = self.piles[f]
                    card = self.piles[src][-m[2]]
                    fits = (card in eng.f_base[f]) if not p else (
                        len(p) < eng.f_max[f] and card in eng.f_on[f][p[-1]])
                    if eng.complete_runs:
                        fits = not p
                    if fits:
                        return RawMove(m[0], m[1], m[2], f)
        raise IllegalMoveError(str(move), self._explain(move))

    def _reveal_raw(self, move: Move) -> Raw:
        eng = self.engine
        if move.src not in eng.index:
            raise IllegalMoveError(str(move), self._no_pile(move.src))
        i = eng.index[move.src]
        if (i, ) not in {(j,) for j, _ in self.pending_reveals()}:
            raise IllegalMoveError(str(move), f"{move.src} has no turned-up card waiting to be "
                                              f"named")
        code: int = move.card  # type: ignore[assignment]  # (a reveal has a card)
        if code == UNKNOWN:
            raise IllegalMoveError(str(move), "name the card that was turned up, e.g. t3=9c")
        if code not in self.unseen():
            c = CARDS[code]
            why = "is not in this variant's deck" if c.rank not in self.variant.rank_values \
                else "has already been seen" + (
                    " (twice: both decks' copies)" if self.variant.decks == 2 else "")
            raise IllegalMoveError(str(move), f"{c} {why}; the card turned up must be one "
                                              f"still unseen")
        return RawMove(REVEAL, i, code, -1)

    def check(self, move: Move | str) -> Verdict:
        """Whether ``move`` is legal here, and if not, the reason a player understands.

        Text is read as :meth:`parse_move` reads it (card notation included); an ambiguous
        text is refused with its candidates."""
        try:
            if isinstance(move, str):
                self.parse_move(move)
            else:
                self.to_raw(move)
        except (IllegalMoveError, InvalidMoveError, AmbiguousMoveError) as exc:
            return Verdict(False, getattr(exc, "reason", None) or str(exc))
        return Verdict(True)

    def push(self, move: Move) -> None:
        """Apply ``move``, a legal move (IllegalMoveError with the reason if it is not; a raw
        move goes to :meth:`push_raw`, text to :meth:`play`)."""
        self.push_raw(self.to_raw(move))

    def play(self, text: str | Move) -> Move:
        """Parse (leniently), check and apply; returns the canonical move. Raises Invalid-,
        Illegal- or AmbiguousMoveError and leaves the position unchanged on refusal."""
        move = self.parse_move(text) if isinstance(text, str) else text
        self.push_raw(self.to_raw(move))
        return move

    def parse_move(self, text: str) -> Move:
        """Lenient input → the canonical legal move.

        Accepts pile notation (``t3 t5``) and card notation: a card for the source
        (``7h t4``), for the target (``t6 8s``), alone (``7h``: its only legal move) or as a
        pair (``5c 8d``). Raises InvalidMoveError, IllegalMoveError or AmbiguousMoveError.
        """
        try:
            move = Move.parse(text)
        except InvalidMoveError:
            if "=" in text:  # a reveal whose card is not one: Move.parse says why
                raise
            move = None
        if move is not None and (move.is_reveal or move == Move("s") or all(
                t is None or t in self.engine.index or t == "f" for t in (move.src, move.dst))):
            raw = self.to_raw(move)
            if not move.is_reveal and move != Move("s") and (
                    move.dst is None or (move.count and move.dst == "f")):
                return self.engine.move_of(raw)  # p22 → p22 f, t1:13 f → t1 f
            return move
        return self._parse_card_notation(text)

    def _parse_card_notation(self, text: str) -> Move:
        eng = self.engine
        typed = text.strip().split()
        tokens = [t.lower() for t in typed]
        if not 1 <= len(tokens) <= 2:
            raise InvalidMoveError(f"{text!r} is not a move: type e.g. t3 t5, 7h t4 or 7h")
        specs: list[CardSpec] = []
        for tok, as_typed in zip(tokens, typed, strict=True):
            if tok in eng.index or (tok == "f" and eng.groups.foundations):
                specs.append(("pile", tok))
                continue
            try:
                specs.append(("card", Card.parse(tok).code))
            except InvalidCardError:
                problem = card_problem(as_typed)
                if PILE_RE.match(tok) and (tok[-1].isdigit() or problem is None):
                    raise InvalidMoveError(self._no_pile(tok)) from None
                if tok.isdigit():   # the recorder's short form (3 5) typed elsewhere
                    missing = [f"t{t}" for t in tokens if t.isdigit() and f"t{t}" not in eng.index]
                    if missing:
                        raise InvalidMoveError(self._no_pile(missing[0])) from None
                    long_form = " ".join(f"t{t}" if t.isdigit() else t for t in tokens)
                    raise InvalidMoveError(
                        f"{as_typed!r} is not a pile name: write {long_form} (only the "
                        "recorder's prompt takes the short form)") from None
                where = f" in {text.strip()!r}" if len(tokens) > 1 else ""
                raise InvalidMoveError(
                    f"{as_typed!r}{where} is neither a pile of {self.variant.name} ("
                    + _name_ranges(eng.names) + ") nor a card: "
                    + (f"{problem}; " if problem else "") + CARD_HELP) from None
        matches = [m for m in self.raw_moves() if m[0] != STOCK and self._matches(m, specs)]
        texts = sorted({eng.text(m) for m in matches})
        if not texts:
            raise IllegalMoveError(text.strip(), self._explain_cards(specs))
        if len(texts) > 1:
            raise AmbiguousMoveError(text.strip(), texts)
        return eng.move_of(matches[0])

    def _matches(self, m: Raw, specs: Sequence[tuple[str, object]]) -> bool:
        """Whether raw move ``m`` fits the tokens (pile names or cards) the player typed."""
        kind, a, n, b = m
        mv = self.engine.move_of(m)
        piles = self.piles

        def fits(spec: tuple[str, object], name: str | None, card: int) -> bool:
            return name == spec[1] if spec[0] == "pile" else card == spec[1]

        if kind == PAIR:
            ends = [(mv.src, piles[a][-1]), (mv.dst, piles[b][-1])]
            if len(specs) == 1:
                return any(fits(specs[0], *e) for e in ends)
            return (fits(specs[0], *ends[0]) and fits(specs[1], *ends[1])) or \
                (fits(specs[0], *ends[1]) and fits(specs[1], *ends[0]))
        lifted = piles[a][-n] if kind == MOVE else piles[a][-1]
        if not fits(specs[0], mv.src, lifted):
            return False
        if len(specs) == 1:
            return True
        spec = specs[1]
        if spec[0] == "pile":
            return mv.dst == spec[1]
        return bool(piles[b]) and piles[b][-1] == spec[1]

    def _explain_cards(self, specs: Sequence[CardSpec]) -> str:
        return explain_cards(self, specs)

    def _explain(self, move: Move) -> str:
        return explain(self, move)

    # ------------------------------------------------------------------ hidden cards
    def pending_reveals(self) -> list[tuple[int, int]]:
        """(pile, height) of every face-up card not named yet, bottom to top."""
        out = []
        for i, p in enumerate(self.piles):
            d = self.down[i]
            for k in range(d, len(p)):
                if p[k] == UNKNOWN:
                    out.append((i, k))
        return out

    def unseen(self) -> Counter[int]:
        """The cards not yet identified anywhere in the position (a multiset of codes)."""
        v = self.variant
        deck = Counter(c.code for c in CARDS if c.rank in v.rank_values)
        for c in deck:
            deck[c] = v.decks
        for p in self.piles:
            for c in p:
                if c != UNKNOWN:
                    deck[c] -= 1
        return +deck

    def reveal(self, pile: str, card: Card | str) -> None:
        """Name the lowest face-up unknown card of ``pile`` (checked against the unseen)."""
        if isinstance(card, str):
            card = Card.parse(card)
        self.push_raw(self.to_raw(Move(pile, None, 0, card.code)))

    # ------------------------------------------------------------------ game over
    def is_won(self) -> bool:
        """Whether the game is won, by the variant's win rule (:mod:`.wins`)."""
        return self.engine.won(self)

    def pass_was_idle(self) -> bool:
        """Unlimited passes, the stock is spent, and the whole last pass changed nothing: the
        piles are those the pass began from, and the waste is not turned over again until
        another move is made. The game is lost here only when no move is left
        (:meth:`is_blocked`)."""
        eng = self.engine
        groups = eng.groups
        return (eng.may_block and self.idle and not self.piles[groups.stock]
                and bool(self.piles[groups.waste]))

    def is_blocked(self) -> bool:
        """A whole pass through the stock changed nothing (:meth:`pass_was_idle`) and no
        other move is left (RULES.md 0.4: lost when no legal move is left and no redeal
        remains)."""
        return self.pass_was_idle() and not self.engine.gen(self)

    def outcome(self) -> Outcome | None:
        if self.is_won():
            return Outcome(Termination.WON, self.score())
        if self.is_blocked():
            return Outcome(Termination.BLOCKED, self.score())
        if not self.raw_moves():
            return Outcome(Termination.NO_MOVES, self.score())
        return None

    def score(self) -> int | None:
        """The score, where the win rule keeps one (Golf's: see :mod:`.wins`)."""
        score = self.engine.win_rule.score
        return score(self) if score else None

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        eng = self.engine
        v = eng.variant
        # "pysol" only where there is one, so that every other position's JSON, and with it
        # the fingerprints of the seeds catalogue, stays as it was
        pysol = {} if self.pysol is None else {"pysol": self.pysol}
        return {
            "variant": v.key,
            "options": {k: val for k, val in v.options},
            "seed": self.seed,
            "deal_version": DEAL_VERSION,
            "piles": {name: {"cards": [code_json(c) for c in self.piles[i]],
                             "face_down": self.down[i]}
                      for i, name in enumerate(eng.names)},
            "state": {"pass": self.pass_no, "idle": self.idle},
            **pysol,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], *, validate: bool = False) -> Position:
        """Parse the JSON form defensively; a PositionError names the field that is wrong.

        With ``validate`` the position must also be a possible one (:meth:`validate`): every
        card as often as the decks hold it, every card of the deck(s) accounted for."""
        v = _json_variant(data)
        eng = v.engine()
        raw_piles = data["piles"]
        piles, down = _json_piles(v, eng, raw_piles)
        pass_no, idle = _json_state(data)
        seed, pysol = _json_origin(data)
        dv = data.get("deal_version", DEAL_VERSION)
        if dv != DEAL_VERSION:
            raise PositionError(f"this position uses deal version {_shown(dv)}; this companion "
                                f"deals version {DEAL_VERSION}")
        pos = cls(eng, piles, down, pass_no=pass_no, idle=idle, seed=seed, pysol=pysol)
        if validate:
            problems = pos.problems()
            absent = [n for n in eng.names if n not in raw_piles and n not in _MAY_OMIT
                      and not n.startswith("f")]
            if problems and absent:
                problems.append("the file has no entry for pile"
                                + ("s " if len(absent) > 1 else " ") + _name_ranges(absent))
            if problems:
                raise PositionError(_cannot_be(v, problems))
        return pos

    def fingerprint(self) -> str:
        """SHA-256 of the canonical JSON, with only the options that differ from their
        defaults (the game's identity): a new option added later, whose default keeps the old
        rules, leaves every existing fingerprint as it was."""
        data = self.to_json()
        data["options"] = self.variant.changed_options()
        return fingerprint(data)

    # ------------------------------------------------------------------ validity
    def status(self) -> Status:
        v = self.variant
        st = Status.VALID
        counts = Counter(c for p in self.piles for c in p)
        unknown = counts.pop(UNKNOWN, 0)
        for code, n in counts.items():
            if CARDS[code].rank not in v.rank_values:
                st |= Status.UNKNOWN_CARD_FOR_VARIANT
            elif n > v.decks:
                st |= Status.TOO_MANY_COPIES
        if sum(counts.values()) + unknown != v.deck_size:
            st |= Status.WRONG_CARD_COUNT
        for i, p in enumerate(self.piles):
            if self.down[i] > len(p):
                st |= Status.BAD_FACE_DOWN
        eng = self.engine
        if eng.tmax and any(len(self.piles[i]) > eng.tmax for i in eng.groups.tableau):
            st |= Status.PILE_TOO_FULL
        return st

    def is_valid(self) -> bool:
        return self.status() == Status.VALID

    def problems(self) -> list[str]:
        """What makes this position impossible, one sentence each (empty when it is a possible
        one): a card not in the variant's deck, a card more often than the decks hold it,
        cards missing or too many, face-down counts, a pile over its limit, a foundation out
        of order, a pass beyond the variant's last."""
        v = self.variant
        eng = self.engine
        groups = eng.groups
        names = eng.names
        out: list[str] = []
        where: dict[int, list[str]] = {}
        unknown = 0
        for i, p in enumerate(self.piles):
            for c in p:
                if c == UNKNOWN:
                    unknown += 1
                else:
                    where.setdefault(c, []).append(names[i])
        foreign = [c for c in where if CARDS[c].rank not in v.rank_values]
        if foreign:
            out.append(_cards_list(foreign, where) + (" are" if len(foreign) > 1 else " is")
                       + f" not in {v.name}'s deck ({_deck_text(v)})")
        copies = "one" if v.decks == 1 else "two" if v.decks == 2 else str(v.decks)
        for c in sorted(where):
            n = len(where[c])
            if c not in foreign and n > v.decks:
                times = {2: "twice", 3: "three times"}.get(n, f"{n} times")
                out.append(f"{code_text(c)} is there {times} (in {', '.join(where[c])}), but "
                           f"{'the deck holds' if v.decks == 1 else f'the {copies} decks hold'}"
                           f" only {copies}")
        deck = self.unseen()
        missing = sorted(c for c in deck for _ in range(deck[c]))
        total = sum(len(p) for p in self.piles)
        if unknown == 0 and missing:
            shown = [code_text(c) for c in missing[:12]]
            more = f" and {len(missing) - 12} more" if len(missing) > 12 else ""
            out.append(f"{_count(len(missing), 'card')} of the deck "
                       f"{'is' if len(missing) == 1 else 'are'} in no pile: "
                       + ", ".join(shown) + more)
        elif unknown and total != v.deck_size:
            out.append(f"the piles hold {_count(total, 'card')} ({unknown} not seen yet, as "
                       f"??), but {v.name} is played with {v.deck_size}")
        for i, p in enumerate(self.piles):
            if not 0 <= self.down[i] <= len(p):
                out.append(f"{names[i]} has {self.down[i]} face down but "
                           f"{_count(len(p), 'card')}")
        if eng.tmax:
            for i in groups.tableau:
                if len(self.piles[i]) > eng.tmax:
                    out.append(f"{names[i]} holds {_count(len(self.piles[i]), 'card')}; a pile "
                               f"of {v.name} holds at most {eng.tmax}")
        if not eng.complete_runs and not eng.pairs:  # a pairs game's f is its discards
            for f in groups.foundations:
                p = self.piles[f]
                if UNKNOWN in p:  # a card not named yet (a physical deal's aces): unknowable
                    continue
                bad = next((k for k, c in enumerate(p) if not (
                    c in eng.f_base[f] if k == 0 else c in eng.f_on[f][p[k - 1]])), None)
                if bad is not None:
                    what = "start" if bad == 0 else f"go on {code_text(p[bad - 1])}"
                    out.append(f"{code_text(p[bad])} cannot {what} in foundation {names[f]}")
                elif len(p) > eng.f_max[f]:
                    out.append(f"foundation {names[f]} holds {len(p)} cards, at most "
                               f"{eng.f_max[f]}")
        if groups.stock >= 0 and eng.passes and self.pass_no > eng.passes:
            out.append(f"state.pass is {self.pass_no}, but this {v.name} allows "
                       f"{eng.passes} pass{'es' if eng.passes != 1 else ''} through the stock")
        return out

    def validate(self) -> None:
        """Raise a PositionError naming what makes this position impossible (see
        :meth:`problems`); a position loaded from a file is checked so before it is used."""
        problems = self.problems()
        if problems:
            raise PositionError(_cannot_be(self.variant, problems))

    def text(self, symbols: bool = True) -> str:
        """One line per pile: ``t3: ## ## 9♣ 8♥`` (``##`` face down)."""
        lines = []
        for i, name in enumerate(self.engine.names):
            p = self.piles[i]
            cells = ["##" if k < self.down[i] else code_text(c, symbols) for k, c in enumerate(p)]
            lines.append(f"{name}: " + " ".join(cells))
        return "\n".join(lines)


class LegalMoves:
    """A lazy view of the legal moves: iterate, ``in``, ``len``, ``bool``; repr lists them."""

    def __init__(self, position: Position):
        self.position = position

    def __iter__(self) -> Iterator[Move]:
        eng = self.position.engine
        return (eng.move_of(m) for m in self.position.raw_moves())

    def __len__(self) -> int:
        return len(self.position.raw_moves())

    count = __len__

    def __bool__(self) -> bool:
        return bool(self.position.raw_moves())

    def __contains__(self, move: object) -> bool:
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except InvalidMoveError:
                return False
        return isinstance(move, Move) and not move.is_reveal and \
            self.position.check(move).ok

    def __repr__(self) -> str:
        return "<LegalMoves: " + ", ".join(str(m) for m in self) + ">"


_MAY_OMIT = frozenset({"w", "x"})


def _json_variant(data: object) -> Variant:
    """The variant a position's JSON form names, with its options; the form's shape checked."""
    if not isinstance(data, dict):
        raise PositionError("a position must be a JSON object with 'variant' and 'piles'")
    if "variant" not in data or "piles" not in data:
        missing = "variant" if "variant" not in data else "piles"
        raise PositionError(f"the position has no {missing!r} entry (`companion deal "
                            f"klondike --seed 1 --json` shows the form)")
    if not isinstance(data["variant"], str):
        raise PositionError(f"'variant' must be a variant's name such as \"klondike\", "
                            f"not {_shown(data['variant'])}")
    options = data.get("options")
    if options is not None and not isinstance(options, dict):
        raise PositionError(f"'options' must be an object of option name → value, such as "
                            f"{{\"draw\": 1}}, not {_shown(options)}")
    try:
        return load_variant(find_variant(data["variant"]), dict(options or {}))
    except VariantError as exc:
        raise PositionError(str(exc)) from None


def _json_piles(v: Variant, eng: Engine,
                raw_piles: object) -> tuple[list[list[int]], list[int]]:
    """The JSON form's ``piles``: the cards and face-down count of every pile of ``eng``."""
    if not isinstance(raw_piles, dict):
        raise PositionError("'piles' must be an object of pile name → {\"cards\": [...], "
                            "\"face_down\": N}, not " + _shown(raw_piles))
    unknown = set(raw_piles) - set(eng.names)
    if unknown:
        raise PositionError(f"no pile {sorted(unknown)[0]!r} in {v.name}; its piles are "
                            + _name_ranges(eng.names))
    piles, down = [], []
    for name in eng.names:
        cards, fd = _json_pile(name, raw_piles.get(name, {"cards": [], "face_down": 0}))
        piles.append(cards)
        down.append(fd)
    return piles, down


def _json_pile(name: str, entry: object) -> tuple[list[int], int]:
    """One pile's entry of the JSON form: (cards, face-down count)."""
    if not isinstance(entry, dict):
        raise PositionError(f"pile {name} must be an object such as {{\"cards\": "
                            f"[\"7H\"], \"face_down\": 0}}, not {_shown(entry)}")
    raw_cards = entry.get("cards", [])
    if not isinstance(raw_cards, list):
        raise PositionError(f"pile {name}: 'cards' must be a list of card codes such as "
                            f"[\"??\", \"7H\"] (bottom to top), not "
                            f"{_shown(raw_cards)}")
    cards = []
    for c in raw_cards:
        if not isinstance(c, str):
            raise PositionError(f"pile {name}: {_shown(c)} is not a card code: expected "
                                f"e.g. \"AS\", \"TH\", \"7C\", or \"??\" for a card "
                                f"not seen yet")
        try:
            cards.append(code_from_json(c.strip().upper()))
        except InvalidCardError as exc:
            raise PositionError(f"pile {name}: {exc} (\"??\" for a card not seen "
                                f"yet)") from None
    fd = entry.get("face_down", 0)
    if type(fd) is not int or not 0 <= fd <= len(cards):
        raise PositionError(f"pile {name}: 'face_down' must be a whole number from 0 to "
                            f"{len(cards)} (its cards), not {_shown(fd)}")
    return cards, fd


def _json_state(data: dict[str, Any]) -> tuple[int, bool]:
    """The JSON form's ``state``: (pass number, idle)."""
    state = data.get("state")
    if state is None:
        state = {}
    if not isinstance(state, dict):
        raise PositionError(f"'state' must be an object such as {{\"pass\": 1, \"idle\": "
                            f"false}}, not {_shown(state)}")
    pass_no = state.get("pass", 1)
    if type(pass_no) is not int or pass_no < 1:
        raise PositionError(f"'state.pass' must be a whole number from 1 (the first pass "
                            f"through the stock), not {_shown(pass_no)}")
    idle = state.get("idle", False)
    if type(idle) is not bool:
        raise PositionError(f"'state.idle' must be true or false, not {_shown(idle)}")
    return pass_no, idle


def _json_origin(data: dict[str, Any]) -> tuple[int | None, int | None]:
    """The JSON form's ``seed`` and ``pysol`` (PySolFC game number), each None if absent."""
    seed = data.get("seed")
    if seed is not None and (type(seed) is not int or not 0 <= seed < 2**32):
        raise PositionError(f"'seed' must be a whole number from 0 to {2**32 - 1}, or null "
                            f"for a deck shuffled by hand, not {_shown(seed)}")
    pysol = data.get("pysol")
    if pysol is not None:
        # lazy: pysolfc deals through the rules (the cycle in tests/test_layers.py)
        from ..pysolfc import FIRST_GAME, LAST_GAME
        if type(pysol) is not int or not FIRST_GAME <= pysol <= LAST_GAME:
            raise PositionError(f"'pysol' must be a PySolFC game number from {FIRST_GAME} "
                                f"to {LAST_GAME}, or absent, not {_shown(pysol)}")
        if seed is not None:
            raise PositionError("a position has a 'seed' or a 'pysol' game number, not "
                                "both")
    return seed, pysol
"""Piles a hand-written position may leave out when they are empty (foundations too)."""


def _shown(value: object) -> str:
    """A JSON value as the file has it, shortened: for messages about bad fields."""
    import json
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _cards_list(codes: Iterable[int], where: dict[int, list[str]]) -> str:
    return ", ".join(f"{code_text(c)} (in {', '.join(sorted(set(where[c])))})"
                     for c in sorted(codes))


def _deck_text(v: Variant) -> str:
    ranks = v.rank_values
    span = "A to K" if ranks == tuple(range(1, 14)) else ", ".join(RANK_TEXT[r] for r in ranks)
    return f"{v.deck_size} cards: {span}" + (f", {v.decks} decks" if v.decks > 1 else "")


def _cannot_be(v: Variant, problems: list[str]) -> str:
    return (f"this {v.name} position cannot be: " + "; ".join(problems)
            + ". Every card of the deck must be in exactly one place (?? for a card not seen "
              "yet); `companion deal " + v.key + " --seed 1 --json` shows a whole position")


def _name_ranges(names: Iterable[str]) -> str:
    """``t1-t7, f1-f4, s, w`` from the full list."""
    groups: list[list[str]] = []
    for n in names:
        prefix = n.rstrip("0123456789")
        if groups and groups[-1][0].rstrip("0123456789") == prefix and n != prefix:
            groups[-1].append(n)
        else:
            groups.append([n])
    return ", ".join(g[0] if len(g) == 1 else f"{g[0]}-{g[-1]}" for g in groups)
