"""PySolFC's numbered deals: "PySolFC game 123456" dealt on the table.

PySolFC names every deal by a game number (its title bar shows ``game #123456``). Numbers 1 to
31999 shuffle with the Microsoft-compatible generator that FreeCell made famous (PySolFC's
Klondike game 1 deals the same pack order as MS FreeCell deal 1); 32000 and above with
Python's Mersenne Twister, up to the 20 digits PySolFC gives its random games. The generators
and the layouts come from the ``pysol-cards`` package, which PySolFC itself shuffles with; this
module maps its piles onto ours and finds the pack order that our own dealing procedure turns
into the same layout (what a setup sheet prints).

Only variants whose layout pysol-cards deals are offered (:data:`GAMES`). The module imports
only the cards and errors at load time, so the CLI can name those variants in its help
without loading the engine; pysol-cards and the rules are imported where a deal is made.
"""

from __future__ import annotations

from .cards import UNKNOWN
from .errors import VariantError

GAMES: dict[str, tuple[str, str]] = {
    # our variant: (pysol-cards' game id, PySolFC's name of the game)
    "klondike": ("klondike_by_threes", "Klondike (Draw 3)"),
    "solitaire": ("klondike", "Klondike"),
    "golf": ("golf", "Golf"),
    "streets-and-alleys": ("streets_and_alleys", "Streets and Alleys"),
}
"""The variants a PySolFC game number can deal. PySolFC numbers the deals of our other
variants too (Spider, Forty Thieves, Pyramid ...), but pysol-cards lays out none of them,
and Harp there is a two-deck game where pysol-cards has only the one-deck Small Harp."""

FIRST_GAME = 1
"""PySolFC refuses game 0 (its MS-compatible generator starts at 1)."""
LAST_GAME = 10**20 - 1
"""The largest number PySolFC gives a game: it shows game numbers in 20 digits."""
MS_GAMES = 32000
"""Game numbers below this shuffle with the MS-compatible generator, as PySolFC's
``construct_random`` decides (pysol-cards' own ``Game.deal`` switches one number later)."""

FIRST_TURN = ("klondike", "solitaire")
"""PySolFC's Klondike opens with the stock turned once already (``dealCards`` in its
``startGame``); our deal stops before that turn, as our dealing procedure does."""

SUPPORTED_TEXT = ", ".join(list(GAMES)[:-1]) + " and " + list(GAMES)[-1]

NUMBER_HELP = (f"PySolFC's game number N (its title bar shows 'game #N'; 1 to {LAST_GAME}): "
               f"the same cards as PySolFC deals, for {SUPPORTED_TEXT}.")
"""What ``--pysol N`` is, for the commands' --help."""


def number_problem(n: int) -> str | None:
    """Why ``n`` is not a PySolFC game number, or None."""
    if FIRST_GAME <= n <= LAST_GAME:
        return None
    return (f"{n} is not a PySolFC game number: they run from {FIRST_GAME} to {LAST_GAME} "
            f"(PySolFC shows them in its title bar, e.g. 'game #123456')")


def unsupported_text(key: str) -> str:
    """The refusal for a variant without PySolFC deals here, naming those that have them."""
    return (f"{key} has no PySolFC numbered deal here: pysol-cards, PySolFC's deal generator, "
            f"lays out only {SUPPORTED_TEXT} among companion's variants. Use --seed N for "
            f"companion's own numbered deals of {key}.")


def game_name(v) -> str:
    """PySolFC's name of the game variant ``v`` deals as (Klondike by the cards it turns: the
    deal is the same)."""
    if v.key in FIRST_TURN:
        return "Klondike" if v.stock.draw == 1 else "Klondike (Draw 3)"
    return GAMES[v.key][1]


def first_turn_note(v) -> str:
    """What to tell a player of PySolFC's deal of ``v`` whose opening PySolFC plays one
    move further ("" where the layouts are the same)."""
    if v.key not in FIRST_TURN:
        return ""
    draw = v.stock.draw
    cards = "card" if draw == 1 else f"{draw} cards"
    return (f"PySolFC turns the first {cards} of the stock onto the waste as it deals; here "
            f"that turn is your first move, s.")


def _check(v, n: int) -> None:
    if v.key not in GAMES:
        raise VariantError(unsupported_text(v.key))
    problem = number_problem(n)
    if problem:
        raise VariantError(problem)


def _code(card) -> int:
    """Our code of a pysol-cards card (its suits run C S H D, ours ♠ ♥ ♦ ♣)."""
    return (3, 0, 1, 2)[card.suit] * 13 + card.rank - 1


class _Catch:
    """A pysol-cards renderer that keeps the cards it is asked to write (Golf's tee card is
    only reachable through the foundations line it renders)."""

    def __init__(self):
        self.cards: list = []

    def l_concat(self, cards) -> str:
        self.cards = list(cards)
        return ""


def board(key: str, n: int):
    """pysol-cards' board of PySolFC game ``n`` of our variant ``key``: its columns (bottom
    card first, ``flipped`` face down) and, where the game has one, its talon (next card
    first)."""
    from pysol_cards.cards import createCards, ms_rearrange
    from pysol_cards.deal_game import Game
    from pysol_cards.random import LCRandom31, MTRandom
    from pysol_cards.random_base import RandomBase
    game = Game(GAMES[key][0], n, RandomBase.DEALS_PYSOLFC)
    cards = createCards(game.get_num_decks())
    # The generator as PySolFC picks it, not as Game.deal does: they differ at game 32000.
    if n < MS_GAMES:
        rng = LCRandom31(n)
        cards = ms_rearrange(cards)
    else:
        rng = MTRandom(n)
    rng.shuffle(cards)
    game.new_cards(cards[::-1])   # the talon deals from the end of the shuffled list
    getattr(game, game.game_class)()
    return game.board


def dealt_piles(v, n: int) -> tuple[list[list[int]], list[int]]:
    """Our piles (bottom card first) and face-down counts for PySolFC game ``n`` of ``v``.

    Tableau columns are PySolFC's rows in order (left to right; Streets and Alleys: the left
    wing top down, then the right wing); the stock holds the talon, its top card the one
    PySolFC deals next; Golf's first talon card is on the waste. A VariantError if the
    layout does not have the shape our deal plan gives ``v`` (it would not be our game)."""
    from .rules.deal import lay_out
    _check(v, n)
    b = board(v.key, n)
    names = v.pile_names
    piles: list[list[int]] = [[] for _ in names]
    down = [0] * len(names)
    tableau = [i for i, name in enumerate(names) if name[0] == "t" and name[1:].isdigit()]
    cols = b.columns.cols
    if len(cols) != len(tableau):
        raise VariantError(f"{v.key}: PySolFC's {game_name(v)} has {len(cols)} columns, "
                           f"ours {len(tableau)}")
    for i, col in zip(tableau, cols, strict=True):
        piles[i] = [_code(c) for c in col]
        down[i] = sum(1 for c in col if c.flipped)
    talon = [_code(c) for c in b.talon] if b.with_talon else []
    if b.raw_foundations_cb is not None:   # Golf: the card teed off onto the waste
        caught = _Catch()
        b.raw_foundations_cb(caught)
        piles[names.index("w")] = [_code(c) for c in caught.cards]
    if talon:
        s = names.index("s")
        piles[s] = talon[::-1]
        down[s] = len(talon)
    shape, shape_down = lay_out(v, [UNKNOWN] * v.deck_size)
    if [len(p) for p in piles] != [len(p) for p in shape] or down != shape_down:
        raise VariantError(f"{v.key}: PySolFC's {game_name(v)} is not laid out as our "
                           f"deal plan lays it out")
    return piles, down


def deal(v, n: int):
    """The :class:`~companion.rules.Position` of PySolFC game ``n`` of variant ``v``."""
    from .rules import Position
    piles, down = dealt_piles(v, n)
    return Position(v.engine(), piles, down, pysol=n)


def deck_order(v, n: int) -> list[int]:
    """The whole pack, top card first, that our dealing procedure for ``v`` (the one a setup
    sheet prints) turns into PySolFC game ``n``'s layout: stack it so and deal."""
    from .rules.deal import fresh_deck, lay_out
    piles, down = dealt_piles(v, n)
    # Deal the fresh pack (every card once: the variants here are one-deck games) to learn
    # where our plan puts the k-th card, then put there the card PySolFC has in that place.
    fresh = fresh_deck(v)
    placed, _ = lay_out(v, fresh)
    where = {card: (i, k) for i, p in enumerate(placed) for k, card in enumerate(p)}
    order = [piles[i][k] for i, k in (where[card] for card in fresh)]
    if lay_out(v, order) != (piles, down):   # pragma: no cover - a guard on the inversion
        raise VariantError(f"{v.key}: no pack order deals PySolFC game {n} by our plan")
    return order
