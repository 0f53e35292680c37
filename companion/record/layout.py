"""Typing the visible cards of a dealt layout, checked as they are typed.

Used by ``companion play --physical`` (the player names the face-up cards of the deal they
shuffled) and by ``companion verify`` (the player names what they dealt, and the verifier
compares it with the seeded deal).

The cards are asked for pile by pile, in the engine's pile order, each pile bottom to top. A
line holds:

* cards for the current pile (``9c 8h``), or more cards than it still needs: a *row*, one card
  for each pile from the current one on (``ah kd 2s qc 3d 4c 5h`` for Klondike's seven piles);
* a pile name first (``t3: 9c 8h`` or ``t3 9c 8h``) to enter or correct that pile.

The reply says what a pile typed again held before, and which piles a row shorter than the
piles still open left out: no card is dropped without a word.

Each line is checked before anything is kept: every token a card, every card one the variant
uses, no card more often than the decks hold, no pile given more cards than it shows. A refused
line changes nothing. ``undo`` takes back the last accepted line.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ..cards import CARDS, RANK_TEXT, UNKNOWN, Card, code_from_json, code_json, code_text
from ..errors import InvalidCardError
from ..rules import Move, Position
from ..rules.deal import deal_aces_up, deal_ranks, deal_requires

_SPLIT = re.compile(r"[\s,;]+")
_PILE_NAME = re.compile(r"^[a-z]{1,2}[0-9]{1,2}$")


class _Refused(Exception):
    """A line :meth:`LayoutEntry.enter` refuses, with the message it shows."""


def _split_name(text: str) -> tuple[str | None, str]:
    """A line's leading pile name (``t3: 9c`` or ``t3 9c``), if any, and the rest."""
    head, sep, rest = text.partition(":")
    head = head.strip()
    if sep and head and not _SPLIT.search(head):
        return head, rest
    first, _, rest = text.partition(" ")
    if _PILE_NAME.match(first) and not _looks_like_card(first):
        return first, rest
    return None, text


@dataclass
class EntryResult:
    ok: bool
    message: str
    assigned: list[tuple[int, list[int]]]


class LayoutEntry:
    """The cards still to be named for a set of ``slots`` ((pile, height) pairs)."""

    def __init__(self, position, slots: list[tuple[int, int]], *, deal_rules: bool = False):
        self.variant = position.variant
        # deal_rules: refuse a card the variant's deal plan cannot put on a pile (the rules
        # engine says which ranks each pile can be dealt: Gaps' 2s start the rows)
        self.allowed: dict[int, tuple[frozenset[int], str]] = {}
        # optional: piles that may or may not get a card (Intelligence's foundations, where an
        # ace met while dealing goes); requires: what a dealt row must hold (Tournament)
        self.optional: list[int] = []
        self.requires: list[tuple[list[int], frozenset[int], str]] = []
        if deal_rules:
            self.allowed = deal_ranks(self.variant)
            self.requires = deal_requires(self.variant)
            self.optional = [i for i in deal_aces_up(self.variant)
                             if not position.piles[i]]
        self.names = position.engine.names
        self.index = position.engine.index
        self.order: list[int] = []
        self.heights: dict[int, list[int]] = {}
        for i, k in slots:
            if i not in self.heights:
                self.order.append(i)
                self.heights[i] = []
            self.heights[i].append(k)
        for i in self.optional:
            if i not in self.heights:
                self.order.append(i)
                self.heights[i] = [0]
        self.entered: dict[int, list[int]] = {i: [] for i in self.order}
        self._undo: list[dict[int, list[int]]] = []
        ranks = self.variant.rank_values
        self.deck = Counter({c.code: self.variant.decks for c in CARDS if c.rank in ranks})
        prefixes = {n.rstrip("0123456789") for n in self.names}
        self.short_prefix = "t" if "t" in prefixes else ("p" if "p" in prefixes else "")

    # ------------------------------------------------------------------ state
    @property
    def total(self) -> int:
        return sum(len(h) for i, h in self.heights.items() if i not in self.optional) \
            + sum(len(self.entered[i]) for i in self.optional)

    @property
    def count(self) -> int:
        return sum(len(e) for e in self.entered.values())

    def need(self, pile: int) -> int:
        return len(self.heights[pile])

    def remaining(self, pile: int) -> int:
        return self.need(pile) - len(self.entered[pile])

    @property
    def complete(self) -> bool:
        return all(self.remaining(i) == 0 for i in self.order if i not in self.optional)

    @property
    def current(self) -> int | None:
        return next((i for i in self.order if self.remaining(i) > 0
                     and i not in self.optional), None)

    def missing(self) -> list[str]:
        return [self.names[i] for i in self.order if self.remaining(i) > 0
                and i not in self.optional]

    def aces_text(self) -> str:
        """How to name the aces that went up while dealing ("" when the deal sends none)."""
        if not self.optional:
            return ""
        f = self.optional
        return (f"Aces that went up to the foundations while dealing: f: ah as (they go on "
                f"{self.names[f[0]]}, {self.names[f[1]]} ...; none: type nothing).")

    def requirement_problem(self) -> str:
        """The deal's requirement a fully named row breaks (Tournament's first row with no
        ace or king), in words; "" when none is broken (or the row is not named yet)."""
        for piles, ranks, why in self.requires:
            if any(i not in self.heights or self.remaining(i) for i in piles):
                continue
            if not any(CARDS[c].rank in ranks for i in piles for c in self.entered[i]):
                return why[0].upper() + why[1:]
        return ""

    def cards(self) -> list[tuple[int, int, int]]:
        """(pile, height, code) of every card named so far."""
        return [(i, self.heights[i][n], c) for i in self.order
                for n, c in enumerate(self.entered[i])]

    def prompt(self) -> str:
        i = self.current
        if i is None:
            return "layout> "
        need, left = self.need(i), self.remaining(i)
        if need == 1:
            return f"{self.names[i]}> "
        done = need - left
        return f"{self.names[i]} ({left} card{'s' if left != 1 else ''}" \
               f"{', after ' + str(done) if done else ''})> "

    def instructions(self) -> str:
        i = self.current
        if i is None:
            return ""
        need, left = self.need(i), self.remaining(i)
        rest = [p for p in self.order if self.remaining(p) > 0]
        pile_part = (f"{self.names[i]} shows {need} face-up card{'s' if need != 1 else ''}"
                     + (", bottom to top" if need > 1 else "")
                     + (f" ({need - left} named, {left} to go)" if left < need else ""))
        row = (f"; or a row, one card for each pile from {self.names[i]} on "
               f"({', then '.join(_runs([self.names[p] for p in rest]))})"
               if len(rest) > 1 else "")
        aces = (" " + self.aces_text()) if self.optional else ""
        return f"Type the cards: {pile_part}{row}. `t3: 9c` corrects a pile.{aces}"

    # ------------------------------------------------------------------ input
    def enter(self, line: str) -> EntryResult:
        try:
            return self._enter(line)
        except _Refused as exc:
            return self._refuse(str(exc))

    def _enter(self, line: str) -> EntryResult:
        """:meth:`enter`, a refusal raised as :class:`_Refused`."""
        name, text = _split_name(line.strip().lower())
        if name == "f" and self.optional:
            return self._enter_aces(text)
        explicit = self._pile_named(name)
        codes = self._typed_codes(text, explicit)
        plan, replace, open_piles = self._plan(codes, explicit)
        self._check_allowed(plan)
        new = {i: (list(cs) if replace else self.entered[i] + cs) for i, cs in plan.items()}
        self._check_counts(new)
        before = {i: list(e) for i, e in self.entered.items()}
        self._undo.append(before)
        for i, cs in new.items():
            self.entered[i] = cs
        assigned = [(i, list(cs) if replace else cs) for i, cs in plan.items()]
        if replace and explicit is not None and before[explicit] \
                and before[explicit] != new[explicit]:
            # a pile typed again replaces what it held: say so, never drop cards silently
            return EntryResult(True, self._replaced_text(explicit, before[explicit]), assigned)
        summary = "; ".join(f"{self.names[i]}: " + " ".join(code_text(c) for c in new[i])
                            for i, _ in assigned)
        if not replace and len(plan) > 1 and len(codes) < len(open_piles):
            # a row shorter than the piles open: which piles it filled, which it left
            left = [self.names[i] for i in open_piles[len(codes):]]
            summary += (f". {len(codes)} cards given for {len(open_piles)} piles: one each on "
                        + _ranges([self.names[i] for i in plan]) + "; " + _ranges(left)
                        + " still missing (a card left out in between? correct that pile: "
                        "t3: 9c, or `undo`)")
        return EntryResult(True, summary, assigned)

    def _pile_named(self, name: str | None) -> int | None:
        """The pile a line names first (its index), None when it names none."""
        if name is None:
            return None
        if name.isdigit() and self.short_prefix:
            name = self.short_prefix + name
        if name not in self.index or self.index[name] not in self.heights:
            raise _Refused(f"there is no pile {name!r} to fill: the piles to name "
                           f"are " + _ranges([self.names[i] for i in self.order]))
        return self.index[name]

    def _typed_codes(self, text: str, explicit: int | None) -> list[int]:
        """The cards of a line, each one of the variant's deck."""
        tokens = [t for t in _SPLIT.split(text) if t]
        if not tokens:
            if explicit is not None:
                raise _Refused(f"name the cards of {self.names[explicit]} after its name, "
                               f"e.g. {self.names[explicit]}: 9c 8h")
            raise _Refused("type the cards you see, e.g. 9c 8h (or `help`)")
        codes = []
        for tok in tokens:
            try:
                codes.append(Card.parse(tok).code)
            except InvalidCardError as exc:
                raise _Refused(str(exc)) from None
        ranks = self.variant.rank_values
        for c in codes:
            if CARDS[c].rank not in ranks:
                raise _Refused(
                    f"{code_text(c)} is not in a {self.variant.name} deck (its ranks are "
                    + " ".join(RANK_TEXT[r] for r in sorted(ranks)) + ")")
        return codes

    def _plan(self, codes: list[int],
              explicit: int | None) -> tuple[dict[int, list[int]], bool, list[int]]:
        """Where each card goes: (pile -> cards, whether they replace the pile's cards, the
        piles open for a row)."""
        open_piles: list[int] = []
        if explicit is not None:
            if len(codes) > self.need(explicit):
                n = self.need(explicit)
                raise _Refused(
                    f"too many cards for {self.names[explicit]}: it shows {n} face-up "
                    f"card{'s' if n != 1 else ''}, you typed {len(codes)}")
            return {explicit: codes}, True, open_piles
        cur = self.current
        if cur is None:
            raise _Refused("every card is named already: type `start`, or correct a "
                           "pile with its name first (t3: 9c)")
        plan = {}
        if len(codes) <= self.remaining(cur):
            plan[cur] = codes
        else:
            open_piles = [i for i in self.order[self.order.index(cur):]
                          if self.remaining(i) > 0]
            if len(codes) > len(open_piles):
                raise _Refused(
                    f"too many cards: {self.names[cur]} takes {self.remaining(cur)} more, "
                    f"and a row from {self.names[cur]} on takes {len(open_piles)}; you "
                    f"typed {len(codes)}")
            for i, c in zip(open_piles, codes, strict=False):
                plan[i] = [c]
        return plan, False, open_piles

    def _check_allowed(self, plan: dict[int, list[int]]) -> None:
        """What the deal can put on each pile."""
        for i, cs in plan.items():
            if i not in self.allowed:
                continue
            ranks, why = self.allowed[i]
            for c in cs:
                if CARDS[c].rank not in ranks:
                    takes = (f"; {self.names[i]} takes {_a_rank(next(iter(ranks)))}"
                             if len(ranks) == 1 else "")
                    raise _Refused(f"{code_text(c)} cannot be on {self.names[i]}: {why}"
                                   f"{takes}. Check the layout against the deal")

    def _check_counts(self, new: dict[int, list[int]]) -> None:
        """Duplicates against the deck, the piles of ``new`` as it has them."""
        counts: Counter[int] = Counter()
        for i in self.order:
            counts.update(new.get(i, self.entered[i]))
        for c, n in counts.items():
            if n > self.deck[c]:
                where = [self.names[i] for i in self.order
                         for x in new.get(i, self.entered[i]) if x == c]
                limit = ("once" if self.deck[c] == 1 else f"{self.deck[c]} times")
                raise _Refused(
                    f"{code_text(c)} would be in the layout {n} times ({', '.join(where)}); a "
                    f"{self.variant.name} deck holds it {limit}. Check the card, or correct "
                    f"the pile it is on (t3: 9c)")

    def _replaced_text(self, i: int, old: list[int]) -> str:
        """``t7 had 3 cards (3♥ 4♥ 5♥), now 1: 2♣; 4 still to name there``."""
        name, now = self.names[i], self.entered[i]
        cards = " ".join(code_text(c) for c in now)
        was = " ".join(code_text(c) for c in old)
        if len(old) == len(now):
            text = f"{name}: {cards}, replacing {was}"
        else:
            text = (f"{name} had {len(old)} card{'s' if len(old) != 1 else ''} ({was}), now "
                    f"{len(now)}: {cards}")
        left = self.remaining(i)
        if left:
            text += f"; {left} still to name there"
            if len(old) + len(now) <= self.need(i):  # perhaps meant as more cards on it
                whole = " ".join(_typed(c) for c in old + now)
                text += f" (to add to the cards it had, type the pile whole: {name}: {whole})"
        return text

    def _enter_aces(self, text: str) -> EntryResult:
        """``f: ah as``: the aces that went up while dealing, on the foundations in order
        (replacing what was named there; ``f:`` alone: none went up)."""
        f = self.optional
        tokens = [t for t in _SPLIT.split(text) if t]
        if len(tokens) > len(f):
            return self._refuse(f"{len(tokens)} aces named; there are {len(f)} foundations")
        line = "; ".join(f"{self.names[i]}: {tok}" for i, tok in zip(f, tokens, strict=False))
        before = {i: list(e) for i, e in self.entered.items()}
        undo_before = list(self._undo)
        for i in f:
            self.entered[i] = []
        for part in line.split("; ") if line else []:
            res = self.enter(part)
            if not res.ok:
                self.entered, self._undo = before, undo_before
                return res
        self._undo = undo_before + [before]
        summary = "; ".join(f"{self.names[i]}: " + code_text(self.entered[i][0]) for i in f
                            if self.entered[i]) or "no ace went up while dealing"
        return EntryResult(True, summary, [(i, list(self.entered[i])) for i in f])

    def build(self, start):
        """The position ``start`` (the physical deal) with the named cards: each one named by
        the engine as a reveal; an ace that went up while dealing is put on its foundation
        and a card less stays in the stock."""
        pos = start.copy()
        self.apply(pos)
        up = [(i, self.entered[i][0]) for i in self.optional if self.entered[i]]
        if not up:
            return pos
        data = pos.to_json()
        for i, c in up:
            data["piles"][self.names[i]]["cards"] = [code_json(c)]
        s = data["piles"]["s"]
        s["cards"] = s["cards"][:len(s["cards"]) - len(up)]
        s["face_down"] = max(0, s["face_down"] - len(up))
        return Position.from_json(data)

    def undo(self) -> bool:
        """Take back the last accepted line."""
        if not self._undo:
            return False
        self.entered = self._undo.pop()
        return True

    def redo_line(self, entered: dict[int, list[int]]) -> None:
        """Put back what :meth:`undo` took (when the undo could not be saved)."""
        self._undo.append(self.entered)
        self.entered = entered

    def _refuse(self, message: str) -> EntryResult:
        return EntryResult(False, message, [])

    # ------------------------------------------------------------------ persistence
    def to_json(self) -> dict:
        return {self.names[i]: [code_json(c) for c in self.entered[i]] for i in self.order
                if self.entered[i]}

    def _named(self, data) -> dict[int, list[int]]:
        """The cards named per pile in ``data`` (as :meth:`to_json` writes them); a pile
        this layout does not ask for, or a pile whose cards cannot be read, is left out."""
        out: dict[int, list[int]] = {}
        for name, cards in data.items():
            i = self.index.get(name)
            if i is None or i not in self.heights or not isinstance(cards, list):
                continue
            try:
                codes = [code_from_json(str(c)) for c in cards][: self.need(i)]
            except InvalidCardError:
                continue
            out[i] = [c for c in codes if c != UNKNOWN]
        return out

    def load_json(self, data) -> None:
        """Restore what was typed (as :meth:`to_json` wrote it); bad data is ignored."""
        if isinstance(data, dict):
            self.entered.update(self._named(data))

    def undo_json(self) -> list[dict]:
        """The undo history (what was named before each accepted line), as :meth:`to_json`
        writes a layout: kept with the layout so that `undo` works after a resume."""
        return [{self.names[i]: [code_json(c) for c in e[i]] for i in self.order if e.get(i)}
                for e in self._undo]

    def load_undo(self, data) -> None:
        """Restore the undo history (as :meth:`undo_json` wrote it). Without one (a layout
        saved by an older companion) each named pile is one step, the last pile first."""
        steps: list[dict[int, list[int]]] = []
        if isinstance(data, list):
            for step in data:
                if isinstance(step, dict):
                    steps.append({i: [] for i in self.order} | self._named(step))
        else:
            so_far: dict[int, list[int]] = {i: [] for i in self.order}
            for i in self.order:
                if self.entered[i]:
                    steps.append({j: list(cs) for j, cs in so_far.items()})
                    so_far[i] = list(self.entered[i])
        self._undo = steps

    def apply(self, position) -> None:
        """Name the entered cards in ``position`` (a physical deal), pile by pile, bottom to
        top; the engine checks each one."""
        for i in self.order:
            if i in self.optional:   # not a reveal: see build()
                continue
            for c in self.entered[i]:
                position.play(Move(self.names[i], None, 0, c))


def _typed(code: int) -> str:
    """A card as the player types it: ``2c``, ``10h``."""
    return code_text(code, symbols=False).lower()


def _a_rank(rank: int) -> str:
    """``a 2``, ``an ace``, ``an 8``."""
    word = {1: "ace", 11: "jack", 12: "queen", 13: "king"}.get(rank, RANK_TEXT[rank])
    return ("an " if word[0] in "a8e" else "a ") + word


def _looks_like_card(tok: str) -> bool:
    try:
        Card.parse(tok)
    except InvalidCardError:
        return False
    return True


def _runs(names: list[str]) -> list[str]:
    """Pile names in runs: numbered piles of one kind in a row as ``t1-t7`` (four or more),
    any other pile (``w``) on its own."""
    runs: list[list[str]] = []
    for name in names:
        m = re.fullmatch(r"([a-z]+)(\d+)", name)
        if runs and m:
            last = re.fullmatch(r"([a-z]+)(\d+)", runs[-1][-1])
            if last and last[1] == m[1] and int(last[2]) + 1 == int(m[2]):
                runs[-1].append(name)
                continue
        runs.append([name])
    out: list[str] = []
    for run in runs:
        out += [f"{run[0]}-{run[-1]}"] if len(run) > 3 else run
    return out


def _ranges(names: list[str]) -> str:
    return ", ".join(_runs(names))
