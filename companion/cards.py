"""Cards and card notation.

A card is a flyweight: the 52 instances are built once, so equality is identity and every card
has a small integer ``code`` (``suit * 13 + rank - 1``) that the rules engine uses on its hot
paths. Two decks share the same 52 instances: two 7♥ in a two-deck game are equal for the rules.
``UNKNOWN`` (code 52) stands for a card whose identity has not been seen yet (``??``).

Input is lenient: ``7h 7H 7♥ 10h Th 10♥ qs Q♠`` (case-insensitive, ``T`` or ``10``, letters or
symbols). Output is canonical: ``10``, and suit symbols unless ``symbols=False``. JSON uses fixed
two-character codes: ``AS``, ``TH``, ``7C``, and ``??`` for an unknown card.
"""

from __future__ import annotations

from typing import Final

from .errors import InvalidCardError

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
SUITS: Final = (SPADES, HEARTS, DIAMONDS, CLUBS)
SUIT_LETTERS: Final = "shdc"
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
BLACK, RED = 0, 1
SUIT_COLOUR: Final = (BLACK, RED, RED, BLACK)

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
RANKS: Final = tuple(range(1, 14))
RANK_TEXT: Final = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_CODE: Final = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
RANK_NAMES: Final = ("", "ace", "two", "three", "four", "five", "six", "seven", "eight",
                     "nine", "ten", "jack", "queen", "king")

UNKNOWN: Final = 52
"""Code of a card whose identity is not known yet."""

_RANK_INPUT = {"A": 1, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13}
_RANK_INPUT.update({str(n): n for n in range(2, 10)})
_SUIT_INPUT = {"S": SPADES, "H": HEARTS, "D": DIAMONDS, "C": CLUBS,
               "♠": SPADES, "♥": HEARTS, "♦": DIAMONDS, "♣": CLUBS,
               "♤": SPADES, "♡": HEARTS, "♢": DIAMONDS, "♧": CLUBS}


def rank_from_text(text: str) -> int:
    """Parse a rank alone (``A``, ``2``-``9``, ``10`` or ``T``, ``J``, ``Q``, ``K``)."""
    try:
        return _RANK_INPUT[text.strip().upper()]
    except KeyError:
        raise InvalidCardError(
            f"{text!r} is not a rank: use A, 2-9, 10 (or T), J, Q or K") from None


RANKS_HELP: Final = "A, 2-9, 10 or T, J, Q, K"
SUITS_HELP: Final = "s h d c or ♠ ♥ ♦ ♣"
CARD_HELP: Final = (f"type a rank ({RANKS_HELP}) then a suit ({SUITS_HELP}), for example 7h, "
                    f"10♠ or qs")
_ASCII_SUITS: Final = str.maketrans({"♠": "s", "♥": "h", "♦": "d", "♣": "c"})


def ascii_text(text: str) -> str:
    """``text`` with its suit symbols written as letters (``--ascii``): ``SUITS_HELP``'s two
    spellings of the suits become one, not ``s h d c or s h d c``."""
    return text.replace(SUITS_HELP, "s h d c").translate(_ASCII_SUITS)


def card_problem(text: str) -> str | None:
    """What is wrong with a card typed as ``text`` when one half of it is right: the rank or
    the suit that is not one, or a missing suit; ``None`` when neither half is a rank or a
    suit (the text may be meant as something else, such as a pile)."""
    t = text.strip().replace(" ", "")
    rank, suit = t[:-1], t[-1:]
    if t.upper() in _RANK_INPUT:
        return "the suit is missing"
    rank_ok, suit_ok = rank.upper() in _RANK_INPUT, suit.upper() in _SUIT_INPUT
    if rank_ok and not suit_ok:
        return f"{suit!r} is not a suit"
    if suit_ok and not rank_ok and rank:
        return f"{rank!r} is not a rank"
    return None


class Card:
    """One of the 52 cards. Build with :meth:`parse` or :func:`card`, never directly."""

    __slots__ = ("code", "colour", "rank", "suit")
    code: int
    rank: int
    suit: int
    colour: int

    def __init__(self, rank: int, suit: int) -> None:
        self.rank = rank
        self.suit = suit
        self.code = suit * 13 + rank - 1
        self.colour = SUIT_COLOUR[suit]

    @staticmethod
    def parse(text: str) -> Card:
        """Parse ``7h``, ``10♥``, ``Th``, ``QS`` ... (case-insensitive, spaces ignored)."""
        raw = text
        text = text.strip().replace(" ", "").upper()
        if len(text) >= 2 and text[-1] in _SUIT_INPUT and text[:-1] in _RANK_INPUT:
            return CARDS[_SUIT_INPUT[text[-1]] * 13 + _RANK_INPUT[text[:-1]] - 1]
        problem = card_problem(raw)
        raise InvalidCardError(f"{raw!r} is not a card: " + (f"{problem}; " if problem else "")
                               + CARD_HELP)

    @staticmethod
    def from_json(text: str) -> Card:
        """Parse the fixed JSON code (``AS``, ``TH``, ``7C``)."""
        if len(text) == 2 and text[0] in RANK_CODE[1:] and text[1] in "SHDC":
            return CARDS[_SUIT_INPUT[text[1]] * 13 + RANK_CODE.index(text[0]) - 1]
        raise InvalidCardError(f"{text!r} is not a card code: expected e.g. AS, TH, 7C")

    def json(self) -> str:
        return RANK_CODE[self.rank] + "SHDC"[self.suit]

    def text(self, symbols: bool = True) -> str:
        return RANK_TEXT[self.rank] + (SUIT_SYMBOLS if symbols else SUIT_LETTERS)[self.suit]

    @property
    def is_red(self) -> bool:
        return self.colour == RED

    def name(self) -> str:
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Card.parse({self.text(symbols=False)!r})"

    def __reduce__(self):  # copies and pickling-free protocols keep the flyweight
        return (card_from_code, (self.code,))


CARDS: Final = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)


def card_from_code(code: int) -> Card:
    return CARDS[code]


def parse_card(text: str) -> Card:
    return Card.parse(text)


def code_text(code: int, symbols: bool = True) -> str:
    """Text of a card code; ``??`` for :data:`UNKNOWN`."""
    return "??" if code == UNKNOWN else CARDS[code].text(symbols)


def code_json(code: int) -> str:
    return "??" if code == UNKNOWN else CARDS[code].json()


def code_from_json(text: str) -> int:
    return UNKNOWN if text == "??" else Card.from_json(text).code


# Lookup tables indexed by code (UNKNOWN included), for the engine's hot paths.
RANK_OF: Final = tuple(c.rank for c in CARDS) + (0,)
SUIT_OF: Final = tuple(c.suit for c in CARDS) + (-1,)
COLOUR_OF: Final = tuple(c.colour for c in CARDS) + (-1,)
