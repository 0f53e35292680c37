"""The rule vocabulary: a small set of frozen pieces that every variant is composed from.

Each piece is data with two duties: answer a question fast (through tables the engine builds once)
and explain itself in words (``phrase``), so that the text a player reads is generated from the
same parameters that decide legality and cannot drift from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import COLOUR_OF, RANK_OF, RANK_TEXT, SUIT_OF, UNKNOWN, rank_from_text

DIRECTIONS = ("down", "up", "up-or-down", "none")
SUIT_RULES = ("same-suit", "alternate-colour", "any-suit", "any-but-own", "same-colour")
MOVE_UNITS = ("single", "run", "same-suit-run", "face-up-block", "face-up-block-only",
              "single-or-whole-pile", "none")
SPACE_RULES = ("any", "kings", "none", "waste", "auto-waste-stock", "auto-stock",
               "reserve-then-waste", "any-or-stock")
SPACE_SOURCES = ("t", "w", "s", "r", "f")
STOCK_DEALS = ("waste", "tableau", "line", "none")
REDEALS = ("waste", "gather", "shuffle", "none")

_SUIT_PHRASE = {
    "same-suit": "in suit",
    "alternate-colour": "in alternating colours",
    "any-suit": "regardless of suit",
    "any-but-own": "in any suit but its own",
    "same-colour": "in the same colour",
}


@dataclass(frozen=True)
class Build:
    """What may be placed on what: ``upper`` goes on ``lower`` when this allows it."""

    direction: str = "down"
    suits: str = "any-suit"
    wrap: bool = False
    closed: tuple[str, ...] = ()
    """Ranks that take no card at all (dead-king Golf: nothing on a K)."""

    def allows(self, lower: int, upper: int) -> bool:
        if lower == UNKNOWN or upper == UNKNOWN or self.direction == "none":
            return False
        lr, ur = RANK_OF[lower], RANK_OF[upper]
        if self.closed and RANK_TEXT[lr] in self.closed:
            return False
        if self.wrap:
            down, up = (lr - ur) % 13 == 1, (ur - lr) % 13 == 1
        else:
            down, up = lr - ur == 1, ur - lr == 1
        if self.direction == "down" and not down:
            return False
        if self.direction == "up" and not up:
            return False
        if self.direction == "up-or-down" and not (up or down):
            return False
        return self.suit_ok(lower, upper)

    def suit_ok(self, lower: int, upper: int) -> bool:
        s = self.suits
        if s == "same-suit":
            return SUIT_OF[lower] == SUIT_OF[upper]
        if s == "alternate-colour":
            return COLOUR_OF[lower] != COLOUR_OF[upper]
        if s == "any-but-own":
            return SUIT_OF[lower] != SUIT_OF[upper]
        if s == "same-colour":
            return COLOUR_OF[lower] == COLOUR_OF[upper]
        return True

    def table(self) -> list[list[bool]]:
        """``table[lower][upper]`` for every pair of codes, UNKNOWN included."""
        return [[self.allows(lo, up) for up in range(53)] for lo in range(53)]

    def suit_phrase(self) -> str:
        """``in alternating colours`` and the like."""
        return _SUIT_PHRASE[self.suits]

    def phrase(self) -> str:
        """``builds down in alternating colours`` and the like."""
        if self.direction == "none":
            return "allows no building"
        text = f"builds {self.direction.replace('-', ' ')} {self.suit_phrase()}"
        if self.wrap:
            text += ", turning the corner from K to A"
        if self.closed:
            text += f", and nothing goes on a {' or '.join(self.closed)}"
        return text


@dataclass(frozen=True)
class Tableau:
    count: int
    build: Build = field(default_factory=Build)
    move: str = "single"
    """Move unit: ``single`` (top card), ``run`` (any tail in build order), ``same-suit-run``,
    ``face-up-block`` (all face-up cards, or the top card), ``face-up-block-only``, ``none``."""
    space: str = "any"
    """What fills an empty pile: ``any`` card or unit, ``kings`` (or a run headed by one), ``none``."""
    max_cards: int = 0
    """Most cards a pile may hold (0: no limit)."""
    layout: str = "columns"
    """How the piles are dealt and drawn: ``columns`` (cascades), ``rows`` (fans), ``wings``,
    ``squared`` (each pile squared up, only its top card showing: La Nivernaise)."""

    def move_phrase(self) -> str:
        return {
            "single": "only the top card of a pile moves",
            "run": "any run of face-up cards in sequence moves as a unit",
            "same-suit-run": "a run moves as a unit only when it is in sequence and in one suit",
            "face-up-block": "the top card moves alone, or all face-up cards of a pile together",
            "face-up-block-only": "all face-up cards of a pile move together, as one unit",
            "single-or-whole-pile": "only the top card moves, or a whole pile as one unit",
            "none": "cards do not move between piles",
        }[self.move] + (", and a run headed by a king may move into a space"
                        if self.space_unit == "run" and self.move == "single" else "")

    space_unit: str = ""
    """Units that may move into a space, when they differ from ``move`` (Harp: K-headed runs)."""
    refill: int = 0
    """An emptied pile is at once dealt this many cards from the stock (Tournament, Intelligence)."""
    fill_first: bool = True
    """With ``reserve-then-waste``: a space must be filled before any other move."""
    space_from: tuple[str, ...] = ()
    """Where a card that fills a space may come from, as pile letters: ``t`` (the tableau),
    ``w`` (the waste, the card turned from the stock), ``s`` (the stock), ``r`` (a reserve),
    ``f`` (a foundation, where its cards come back); empty: wherever the rules move cards
    from (Emperor as S4 tells it: ``["t", "w"]``, no foundation card into a space)."""

    def space_phrase(self) -> str:
        if self.refill:
            return f"an emptied pile at once gets {self.refill} new cards from the stock"
        return self._space_phrase() + self._space_from_phrase()

    def _space_from_phrase(self) -> str:
        if not self.space_from:
            return ""
        names = {"t": "the tableau", "w": "the waste", "s": "the stock", "r": "a reserve",
                 "f": "a foundation"}
        got = [names[k] for k in SPACE_SOURCES if k in self.space_from]
        text = got[0] if len(got) == 1 else ", ".join(got[:-1]) + " or " + got[-1]
        return f" (only from {text})"

    def _space_phrase(self) -> str:
        return {
            "any": "any card or movable unit may fill a space",
            "any-or-stock": "any card or movable unit, or the top card of the stock, may fill "
                            "a space",
            "kings": "only a king, or a run headed by a king, may fill a space",
            "none": "an empty pile is never filled again",
            "waste": "a space is filled only from the waste (the card turned from the stock)",
            "auto-waste-stock": "a space is filled at once with the waste's top card, or the "
                                "stock's when the waste is empty (any card once both are gone)",
            "auto-stock": "a space is filled at once from the stock while it lasts, then by "
                          "any card or unit",
            "reserve-then-waste": "a space is filled from a reserve pile (your choice), then, "
                                  "when both are empty, from the waste"
                                  + (", before any other move" if self.fill_first else ""),
        }[self.space]


@dataclass(frozen=True)
class Foundations:
    count: int
    base: str = "A"
    build: Build = field(default_factory=lambda: Build("up", "same-suit"))
    max_cards: int = 13
    returns: bool = False
    """Whether the top card may come back to the tableau."""
    complete_runs: bool = False
    """Spider: a foundation takes only a complete K→A run in one suit, lifted off a pile."""
    auto: bool = False
    """With ``complete_runs``: the run is lifted off by itself as soon as it is complete."""
    per_suit: bool = False
    """Each pile of the group holds one suit, in the order ♠ ♥ ♦ ♣ (count 4)."""
    force_aces: bool = False
    """An ace that can go up must go up before any other move (S0 Emperor, S1 Napoleon)."""
    transfer: bool = False
    """Tournament: a foundation's top card may move onto another foundation that takes it."""

    @property
    def base_rank(self) -> int:
        return rank_from_text(self.base)

    def phrase(self) -> str:
        if self.complete_runs:
            return "a complete suit from K down to A is lifted off to the foundations"
        base = "an ace" if self.base == "A" else "a king" if self.base == "K" else f"a {self.base}"
        return f"each starts with {base} and {self.build.phrase()}"


@dataclass(frozen=True)
class Stock:
    deal: str = "waste"
    """Where a stock action puts cards: ``waste``, ``tableau`` (one per pile), ``line``, ``none``."""
    draw: int = 1
    passes: int = 1
    """Passes through the stock in all; 0 means unlimited."""
    no_empty_tableau: bool = False
    """Spider: no deal while any tableau pile is empty."""
    turn_up: bool = False
    """Pyramid: the top stock card is turned up in place and is playable there."""
    per_pile: int = 1
    """With ``deal = "tableau"``: cards dealt onto each pile in one deal (Tournament: 4)."""
    redeal: str = "waste"
    """What a new pass does: turn the ``waste`` over, ``gather`` the tableau piles into a new
    stock (Tournament), ``shuffle`` the tableau and stock and deal again (Intelligence)."""
    reserve_on_redeal: int = 0
    """Octave: at the redeal, deal this many cards face up onto the reserve."""
    strict_last_pass: bool = False
    """Octave: in the last pass each turned card must be played at once, or the game is lost."""


@dataclass(frozen=True)
class Reserve:
    """Piles ``r1..rN`` whose top card is playable and which are never built on."""

    count: int
    accepts: str = "none"
    """What an empty reserve pile takes: ``none``, a ``card`` (a free cell), or a ``unit``."""
    sources: tuple[str, ...] = ("t",)
    """Where such a card may come from: ``t`` (a tableau top), ``w`` (the waste)."""
    when: str = "always"
    """``always``, ``stock-empty`` (Miss Milligan's weaving) or ``last-pass`` (Octave)."""
    move: str = "single"
    """What leaves a reserve pile: its top card, or a ``run`` (Miss Milligan's cell)."""


@dataclass(frozen=True)
class Waste:
    build: Build | None = None
    """Golf: tableau cards are built on the waste."""


@dataclass(frozen=True)
class Pairs:
    match: str = "sum"
    """``sum``: two cards whose values add up to ``total``; ``rank``: two cards of one rank."""
    total: int = 13
    singles: tuple[str, ...] = ()
    """Ranks removed on their own (Pyramid's kings)."""

    def matches(self, a: int, b: int) -> bool:
        if a == UNKNOWN or b == UNKNOWN:
            return False
        if self.match == "sum":
            return RANK_OF[a] + RANK_OF[b] == self.total
        return RANK_OF[a] == RANK_OF[b]

    def phrase(self) -> str:
        if self.match == "sum":
            text = f"two available cards whose values add up to {self.total} are removed together"
        else:
            text = "two available cards of the same rank are removed together"
        if self.singles:
            text += f"; a {' or '.join(self.singles)} is removed on its own"
        return text


@dataclass(frozen=True)
class Pyramid:
    rows: int = 7


@dataclass(frozen=True)
class Accordion:
    reach: tuple[int, ...] = (1, 3)


@dataclass(frozen=True)
class Gaps:
    rows: int = 4
    columns: int = 13
    redeals: int = 2
    shuffle: bool = True
    gap_rank: str = "A"
    """The rank taken out to make the gaps."""
    gaps_after: str = "random"
    """Where a redeal leaves the gaps: ``random`` (where the aces fall, S3) or ``sequence``
    (right after each row's kept run, Montana)."""
    anytime: bool = False
    """Redeal whenever the player likes (PySolFC), not only when every gap is dead (S3)."""


@dataclass(frozen=True)
class DealStep:
    step: str
    piles: str = ""
    face: str = "up"
    rows: int = 1
    size: int = 1
    rank: str = ""
    turn_top: bool = False
    aces_up: bool = False
    """Intelligence: an ace met while dealing goes to a foundation and is replaced."""
    require: tuple[str, ...] = ()
    """Tournament: if none of the cards this step deals has one of these ranks, the whole
    pack is shuffled again (the next stream) and dealt afresh."""


DEAL_STEPS = ("row", "rows", "triangle", "to", "pull", "packets", "remove")


@dataclass(frozen=True)
class OptionSpec:
    name: str
    help: str
    default: object
    values: tuple[object, ...] = ()
    kind: str = "choice"
    """``choice`` (one of ``values``), ``int`` (>= ``minimum``; ``unlimited`` = 0), ``bool``."""
    minimum: int = 0
    unlimited: bool = False
    """With ``kind = "int"``: 0 means no limit, written and typed as ``unlimited``."""
    sets: object = field(default=None, compare=False)
    """A dotted key the value is written to, or a mapping value -> {dotted key: value}."""

