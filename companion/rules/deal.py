"""Seeded deals: the project's own documented shuffle, and the deal plans of the variants.

The shuffle must give the same layout forever, on every platform, so it is written out here
rather than taken from :mod:`random` (whose algorithm Python does not promise). It is documented
in ``seeds/README.md`` well enough for another program to reproduce a deal:

* the deck in its fresh order: for each deck copy, suits ♠ ♥ ♦ ♣, ranks A..K (only the variant's
  ranks);
* a SplitMix64 generator whose state starts at ``seed + stream * 2**32`` (stream 0 for the deal,
  stream *k* for the shuffle before redeal *k*);
* a Fisher–Yates shuffle from the last position down: for ``i = n-1 .. 1``, draw 64-bit values
  until one is below ``2**64 - 2**64 % (i+1)``, take it modulo ``i+1`` as ``j``, swap ``i`` and
  ``j``;
* the result is read top card first: index 0 is dealt first.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from ..cards import CARDS, RANK_OF, RANK_TEXT, UNKNOWN, rank_from_text
from ..errors import VariantError
from .shuffle import MAX_SEED as MAX_SEED
from .shuffle import SplitMix64 as SplitMix64
from .shuffle import shuffled as shuffled
from .variant import DEAL_VERSION, Variant

if TYPE_CHECKING:
    from .pieces import DealStep


def fresh_deck(v: Variant) -> list[int]:
    ranks = v.rank_values
    return [c.code for _ in range(v.decks) for c in CARDS if c.rank in ranks]


class _DealAgain(Exception):
    """A deal step's requirement failed (Tournament): shuffle the pack again and redeal."""


RESHUFFLE_STREAM = 100
"""Stream of the k-th reshuffle of a deal whose plan asks for one (``RESHUFFLE_STREAM + k``)."""


def dealt(v: Variant, seed: int) -> tuple[list[int], list[list[int]], list[int]]:
    """The deck order (top first) that the seed gives, and the layout dealt from it."""
    fresh = fresh_deck(v)
    for k in range(1000):
        deck = shuffled(fresh, seed, stream=0 if k == 0 else RESHUFFLE_STREAM + k)
        try:
            piles, down = lay_out(v, deck)
        except _DealAgain:
            continue
        return deck, piles, down
    raise VariantError(f"{v.key}: no acceptable deal in 1000 shuffles")  # pragma: no cover


def deck_order(v: Variant, seed: int) -> list[int]:
    """The whole deck, top card first, as the seed shuffles it: stack it so and deal."""
    return dealt(v, seed)[0]


def pile_list(v: Variant, spec: str) -> list[int]:
    """``t`` (a whole group), ``t1-t4``, ``a2-a13,b2-b13``, ``w`` → pile indices."""
    names = v.pile_names
    index = {n: i for i, n in enumerate(names)}
    out: list[int] = []
    for part in spec.split(","):
        part = part.strip()
        if part in index:
            out.append(index[part])
        elif "-" in part:
            lo, hi = part.split("-")
            try:
                a, b = index[lo], index[hi]
            except KeyError:
                raise VariantError(f"{v.key}: deal names unknown piles {part!r}") from None
            out.extend(range(a, b + 1))
        else:
            group = [i for i, n in enumerate(names) if n.rstrip("0123456789") == part]
            if not group:
                raise VariantError(f"{v.key}: deal names unknown piles {part!r}")
            out.extend(group)
    return out


def lay_out(v: Variant, deck: list[int]) -> tuple[list[list[int]], list[int]]:
    """Deal ``deck`` (top first) by the variant's plan: pile contents and face-down counts.

    What is left becomes the stock, its top card the next one the plan would have dealt.
    """
    table = _Table(v, deck)
    for step in v.deal:
        table.do(step, pile_list(v, step.piles))
    return table.finish()


class _Table:
    """The piles as :func:`lay_out` deals them, and the cards still in hand (``rest``)."""

    def __init__(self, v: Variant, deck: list[int]) -> None:
        self.v = v
        self.names = v.pile_names
        self.piles: list[list[int]] = [[] for _ in self.names]
        self.down = [0] * len(self.names)
        self.rest = list(deck)
        self.foundations = [i for i, n in enumerate(self.names) if n[0] == "f"]

    def put(self, i: int, card: int, face: str) -> None:
        if face == "down":
            if self.down[i] != len(self.piles[i]):
                raise VariantError(f"{self.v.key}: deal puts a face-down card on a face-up one")
            self.down[i] += 1
        self.piles[i].append(card)

    def take(self) -> int:
        if not self.rest:
            raise VariantError(f"{self.v.key}: the deal plan needs more cards than the deck has")
        return self.rest.pop(0)

    def take_up(self, aces_up: bool) -> int:
        """The next card; with ``aces_up`` aces go to empty foundations as they come."""
        while True:
            card = self.take()
            if aces_up and card != UNKNOWN and RANK_OF[card] == 1:
                home = next((f for f in self.foundations if not self.piles[f]), None)
                if home is not None:
                    self.piles[home].append(card)
                    continue
            return card

    def do(self, step: DealStep, targets: list[int]) -> None:
        """One step of the plan (a kind it does not know does nothing)."""
        if step.step in ("row", "to", "rows"):
            self.rows(step, targets)
        elif step.step == "triangle":
            self.triangle(targets)
        elif step.step == "packets":
            self.packets(step, targets)
        elif step.step == "pull":
            self.pull(step, targets)
        elif step.step == "remove":
            self.remove(step, targets)

    def rows(self, step: DealStep, targets: list[int]) -> None:
        dealt_now = []
        for _ in range(step.rows if step.step == "rows" else 1):
            for i in targets:
                card = self.take_up(step.aces_up)
                dealt_now.append(card)
                self.put(i, card, step.face)
        if step.require and UNKNOWN not in dealt_now:
            wanted = {rank_from_text(r) for r in step.require}
            if not any(RANK_OF[c] in wanted for c in dealt_now):
                raise _DealAgain

    def triangle(self, targets: list[int]) -> None:
        for k, i in enumerate(targets):
            self.put(i, self.take(), "up")
            for j in targets[k + 1:]:
                self.put(j, self.take(), "down")

    def packets(self, step: DealStep, targets: list[int]) -> None:
        for i in targets:
            for n in range(step.size):
                last = n == step.size - 1
                self.put(i, self.take_up(step.aces_up),
                         "up" if (last and step.turn_top) else step.face)

    def pull(self, step: DealStep, targets: list[int]) -> None:
        rank = rank_from_text(step.rank)
        pulled = [c for c in self.rest if c != UNKNOWN and RANK_OF[c] == rank]
        if UNKNOWN in self.rest:
            pulled = [UNKNOWN] * len(targets)
        if len(pulled) != len(targets):
            raise VariantError(f"{self.v.key}: the deal pulls {len(pulled)} cards of rank "
                               f"{step.rank} for {len(targets)} piles")
        for i, c in zip(targets, pulled, strict=True):
            self.rest.remove(c)
            self.put(i, c, "up")

    def remove(self, step: DealStep, targets: list[int]) -> None:
        rank = rank_from_text(step.rank)
        (dest,) = targets
        for i, p in enumerate(self.piles):
            if i != dest and p and p[-1] != UNKNOWN and RANK_OF[p[-1]] == rank \
                    and len(p) == 1:
                self.piles[dest].append(p.pop())

    def finish(self) -> tuple[list[list[int]], list[int]]:
        """What is left becomes the stock (an error where there is none)."""
        if self.v.stock:
            s = self.names.index("s")
            self.piles[s] = self.rest[::-1]
            self.down[s] = len(self.rest)
        elif self.rest:
            raise VariantError(f"{self.v.key}: the deal plan leaves {len(self.rest)} cards and "
                               f"there is no stock")
        return self.piles, self.down


def deal_ranks(v: Variant) -> dict[int, tuple[frozenset[int], str]]:
    """What the deal plan lets a shuffled deck put face up on each pile, by rank.

    ``{pile index: (ranks allowed there, why)}`` for the piles the plan restricts: a ``pull``
    step gives its piles every card of one rank (Gaps' 2s at the start of the rows, Lucas'
    aces), so those piles take only that rank and the piles dealt from the rest never hold it.
    A pile the plan does not restrict is left out. The recorder checks a typed layout with it.
    """
    names = v.pile_names
    ranks = frozenset(v.rank_values)
    deal_opt = dict(v.options).get("deal")
    how = f" (deal={deal_opt})" if isinstance(deal_opt, str) else ""
    pulled: dict[int, tuple[int, list[int]]] = {}   # rank -> (step number, piles)
    for n, step in enumerate(v.deal):
        if step.step == "pull":
            pulled[rank_from_text(step.rank)] = (n, pile_list(v, step.piles))
    out: dict[int, tuple[frozenset[int], str]] = {}
    up = deal_aces_up(v)
    if up and len(up) >= 4 * v.decks and 1 in ranks:
        # every ace met while dealing finds an empty foundation: none stays in the layout
        f_where = f"{names[up[0]]}-{names[up[-1]]}" if len(up) > 2 else ", ".join(
            names[i] for i in up)
        why = f"an ace met while dealing goes straight to a foundation ({f_where})"
        for i in up:
            out[i] = (frozenset({1}), "only aces go up to the foundations while dealing")
        for step in v.deal:
            if step.aces_up:
                for i in pile_list(v, step.piles):
                    out[i] = (ranks - {1}, why)
    if not pulled:
        return out

    def plural(rank: int) -> str:
        return {1: "aces", 11: "jacks", 12: "queens", 13: "kings"}.get(
            rank, f"{RANK_TEXT[rank]}s")

    def listing(piles: list[int]) -> str:
        if len(piles) > 4 and piles == list(range(piles[0], piles[-1] + 1)):
            return f"{names[piles[0]]}-{names[piles[-1]]}"
        return ", ".join(names[i] for i in piles)

    for rank, (_, piles) in pulled.items():
        why = f"this deal{how} puts the {plural(rank)} on {listing(piles)}"
        for i in piles:
            out[i] = (frozenset({rank}), why)
    for n, step in enumerate(v.deal):
        if step.step in ("pull", "remove"):
            continue
        gone = {r: p for r, (k, p) in pulled.items() if k < n}
        if not gone:
            continue
        allowed = ranks - set(gone)
        why = "; ".join(f"this deal{how} puts all the {plural(r)} on {listing(p)}"
                        for r, p in gone.items())
        for i in pile_list(v, step.piles):
            if i not in out:
                out[i] = (frozenset(allowed), why)
    return out


def deal_aces_up(v: Variant) -> list[int]:
    """The foundations an ace met while dealing goes straight to (Intelligence: the plan's
    ``aces_up`` steps), in the order they fill; empty when the plan sends no ace up. A shuffled
    deck can send none, some or all of them up, so a typed layout names them."""
    if not any(step.aces_up for step in v.deal):
        return []
    return [i for i, n in enumerate(v.pile_names) if n[0] == "f"]


def deal_requires(v: Variant) -> list[tuple[list[int], frozenset[int], str]]:
    """The plan's requirements on what a step deals (Tournament's first row must hold an ace or
    a king): ``(piles, ranks one of which must be there, the rule in words)`` per step."""
    names = v.pile_names
    out = []
    for step in v.deal:
        if not step.require:
            continue
        piles = pile_list(v, step.piles)
        where = (f"{names[piles[0]]}-{names[piles[-1]]}" if len(piles) > 2
                 else ", ".join(names[i] for i in piles))
        wanted = " or ".join(f"{'an' if r == 'A' else 'a'} {r}" for r in step.require)
        out.append((piles, frozenset(rank_from_text(r) for r in step.require),
                    f"the row dealt to {where} must hold {wanted}: if it holds neither, gather "
                    f"the whole pack, shuffle it again and deal afresh"))
    return out


def fingerprint(position_json: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of a position (sorted keys, no spaces, ASCII)."""
    text = json.dumps(position_json, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


__all__ = ["DEAL_VERSION", "deal_aces_up", "deal_ranks", "deal_requires", "deck_order", "fingerprint", "fresh_deck", "lay_out", "shuffled"]
