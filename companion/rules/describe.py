"""The rules of a variant in the project's own words, generated from its pieces.

The same parameters that decide legality write these sentences, so they cannot drift apart.
This text is what `companion variants VARIANT` shows and what the setup sheets will print.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import RANK_NAMES, RANK_OF, RANK_TEXT, SUIT_OF, UNKNOWN, code_text, rank_from_text
from .deal import _DealAgain, fresh_deck, lay_out, pile_list
from .engine import FOLD, MOVE, PAIR, REVEAL, STOCK, Mechanic
from .mechanics import accordion, foundations, gaps, pairs, reserve, stock, tableau, waste
from .mechanics.base import number_word as _n
from .mechanics.base import where as _where
from .position import Position
from .wins import win_rule

if TYPE_CHECKING:
    from collections.abc import Sequence

    from . import pieces as P
    from .engine import Engine, Piles, Raw
    from .variant import Variant


def summary(v: Variant, template: str | None = None) -> str:
    """The one-line description of ``v`` as configured: the catalogue's sentence with its
    ``{fields}`` filled from the variant's own pieces, so that an option that changes a rule
    changes the line too (``{draw}``: ``three cards at a time``; ``{passes}``: ``unlimited
    passes``, ``one pass``; ``{redeals}``: ``no redeal``, ``two redeals``; ``{unit}``: what
    moves on the tableau; ``{space}``: what fills a space). Raises KeyError for an unknown
    field (the loader reports it against the file)."""
    return (v.summary if template is None else template).format_map(_SummaryFields(v))


class _SummaryFields(dict[str, str]):
    def __init__(self, v: Variant) -> None:
        super().__init__()
        self.v = v

    def __missing__(self, name: str) -> str:
        v = self.v
        st, t = v.stock, v.tableau
        if name == "draw" and st:
            return ("one card" if st.draw == 1 else f"{_n(st.draw)} cards") + " at a time"
        if name == "passes" and st:
            return "unlimited passes" if st.passes == 0 else \
                "one pass" if st.passes == 1 else f"{_n(st.passes)} passes"
        if name == "redeals" and st:
            return "unlimited redeals" if st.passes == 0 else "no redeal" if st.passes == 1 \
                else "one redeal" if st.passes == 2 else f"{_n(st.passes - 1)} redeals"
        if name == "unit" and t:
            return {"single": "one card moves at a time", "run": "runs move"}.get(
                t.move, t.move_phrase())
        if name == "space" and t:
            return {"waste": "spaces are filled only from the waste",
                    "any": "any card may fill a space" if t.move == "single"
                    else "any card or run may fill a space"}.get(t.space, t.space_phrase())
        raise KeyError(name)


def deal_lines(v: Variant) -> list[str]:
    """How to deal, step by step (what a setup sheet prints under "How to deal")."""
    lines = _deal(v)
    if v.tableau and v.tableau.layout == "squared":
        t = [i for i, n in enumerate(v.pile_names) if n[0] == "t" and n[1:].isdigit()]
        # after the deal onto the piles, before the stock's line
        lines.insert(len(lines) - bool(v.stock),
                     f"Square up each tableau pile ({_where(v.pile_names, t)}) as it is "
                     f"dealt: only its top card shows.")
    if any(s.aces_up for s in v.deal):
        lines.append("An ace met while dealing goes straight to a foundation and the next card "
                     "takes its place.")
    return lines


def layout_legend(v: Variant) -> str:
    """What a setup sheet says beside "Layout": every pile of ``v`` by the name the player
    types, grouped by what it is (``tableau t1-t7, foundations f1-f4, stock s, waste w``), and,
    only where the deal puts cards face down, how those are drawn."""
    eng = v.engine()
    names = eng.names
    nf = len(eng.groups.foundations)
    groups: list[tuple[str, list[int]]] = [
        ("tableau", list(eng.groups.tableau)),
        ("discard pile" if v.pairs else "foundations" if nf > 1 else "foundation",
         list(eng.groups.foundations)),
        ("reserve", list(eng.groups.reserve)),
        ("pyramid" if v.pyramid else "line", list(eng.groups.pyramid)),
    ]
    parts = [f"{what} {_where(names, piles)}" for what, piles in groups if piles]
    named = {i for _, piles in groups for i in piles}
    if v.gaps:
        g = v.gaps
        cells = list(eng.groups.grid)
        # the whole grid in a few words: "rows a1-a13 to d1-d13"
        first = _where(names, cells[:g.columns])
        last = _where(names, cells[-g.columns:])
        parts.append(f"rows {first} to {last}" if g.rows > 1 else f"row {first}")
        named.update(cells)
    for what, i in (("stock", eng.groups.stock), ("waste", eng.groups.waste)):
        if i >= 0:
            parts.append(f"{what} {names[i]}")
            named.add(i)
    if eng.groups.aside >= 0:
        removed = [s.rank for s in v.deal if s.step == "remove"]
        what = f"the {_plural(removed[0])} put aside" if removed else "cards put aside"
        parts.append(f"{what} {names[eng.groups.aside]}")
        named.add(eng.groups.aside)
    # a pile of a kind not named above still gets its name on the list
    rest = [i for i in range(len(names)) if i not in named]
    if rest:
        parts.append(f"other piles {_where(names, rest)}")
    text = "pile names as you type them: " + ", ".join(parts)
    _, down = lay_out(v, [UNKNOWN] * v.deck_size)
    if any(down):
        text += "; face-down cards are backs, named in small print"
    return text


def describe(v: Variant) -> list[str]:
    lines: list[str] = []
    ranks = v.rank_values
    if len(ranks) == 13:
        deck = "one deck of 52 cards" if v.decks == 1 else f"{_n(v.decks)} decks, {v.deck_size} cards"
    else:
        names = ", ".join(RANK_TEXT[r] for r in ranks)
        deck = f"a {v.deck_size}-card deck: {names} of each suit"
    lines.append(f"Cards: {deck}.")
    lines += deal_lines(v)
    # each mechanic's sentences, from its module
    lines += tableau.rules_text(v)
    lines += reserve.rules_text(v)
    lines += foundations.rules_text(v)
    lines += waste.rules_text(v)
    lines += pairs.rules_text(v)
    lines += accordion.rules_text(v)
    lines += gaps.rules_text(v)
    lines += stock.rules_text(v, _last_deal)
    lines.append(_win(v))
    lines += list(v.notes)
    return lines


def _deal(v: Variant) -> list[str]:
    out = []
    names = v.pile_names
    for s in v.deal:
        piles = pile_list(v, s.piles)
        where = _where(names, piles)
        face = "face down" if s.face == "down" else "face up"
        if s.step == "triangle":
            out.append(f"Deal {_n(len(piles))} piles ({where}) in passes from left to right: "
                       f"each pass puts one card face up on the next pile and one card face "
                       f"down on every pile to its right.")
        elif s.step == "rows":
            out.append(f"Deal {_n(s.rows)} rows of {_n(len(piles))} cards {face} ({where}), "
                       f"one card to each pile in turn.")
        elif s.step == "row" and v.pyramid and len(piles) > 1:
            out.append(f"Deal {len(piles)} cards face up into a pyramid ({where}), row by row "
                       f"from the top: 1, 2, ... {v.pyramid.rows} cards, each row half covering "
                       f"the one above.")
        elif s.step in ("row", "to"):
            what = "one card" if len(piles) == 1 else f"a row of {_n(len(piles))} cards"
            out.append(f"Deal {what} {face} to {where}.")
            if s.require:
                out.append("If none of them is " + " or ".join(
                    f"{'an' if r == 'A' else 'a'} {r}" for r in s.require)
                    + ", gather the whole pack, shuffle it again and deal afresh.")
        elif s.step == "packets":
            top = ", the top one face up" if s.turn_top else ""
            several = len(piles) > 1
            out.append(f"Deal {_n(len(piles)) + ' piles' if several else 'one pile'} of "
                       f"{_n(s.size)} cards {face}{top} ({where})"
                       + (", one pile at a time." if several else "."))
        elif s.step == "pull":
            out.append(f"Take the {_plural(s.rank)} out first and place them face up "
                       f"in {where}, in the order they come.")
        elif s.step == "remove":
            out.append(f"Then take the {_plural(s.rank)} out of the layout and put "
                       f"them aside in {where}: the places they leave are the gaps.")
    if v.stock:
        out.append("The rest of the cards form the stock, face down." if v.deal
                   else "All the cards start in the stock, face down.")
    return out


def _plural(rank: str) -> str:
    name = RANK_NAMES[_rank(rank)]
    return name + ("es" if name.endswith("x") else "s")


def _rank(text: str) -> int:
    return rank_from_text(text)


def _last_deal(v: Variant) -> str:
    """Where the stock does not share out evenly (Spider 10 x 5: 54 cards, ten piles): how
    many full deals there are, and where the last short one goes (as the engine deals it,
    pile by pile from the first)."""
    try:
        piles, _ = lay_out(v, fresh_deck(v))
    except _DealAgain:  # pragma: no cover (a plan that redeals; its stock's size is the same)
        return ""
    size = len(piles[v.pile_names.index("s")])
    t = [i for i, n in enumerate(v.pile_names) if n[0] == "t" and n[1:].isdigit()]
    per = v.stock.per_pile  # type: ignore[union-attr]  # (a stock dealt to the tableau)
    full, rest = divmod(size, per * len(t))
    if not rest:
        return ""
    return f"; {_n(full)} such deals, then a last deal of {_n(rest)} " \
           f"card{'s' if rest != 1 else ''} onto {_where(v.pile_names, t[:-(-rest // per)])}"


def _win(v: Variant) -> str:
    return win_rule(v).phrase(v) + " Lost when no move is left" + (
        ". A whole pass through the stock that changes nothing is not turned over again "
        "until another move is made." if v.stock and
        v.stock.passes == 0 else ".")


def notation(v: Variant) -> list[tuple[str, str]]:
    """The move forms ``v`` uses, as it is configured, with what each means (for `companion
    rules` and the sheets). Every example names the variant's own piles and is a kind of move
    its engine makes: a form appears only where a move generator of the engine makes such
    moves (tests/rules/test_notation_examples.py plays each example through the parser)."""
    eng = v.engine()
    groups = eng.groups
    names = eng.names
    gens = eng.mechanics
    T = [names[i] for i in groups.tableau]
    F = [names[i] for i in groups.foundations]
    out: list[tuple[str, str]] = []
    # two tableau piles to show moves between (t3 and t5 where there are enough)
    t_a = T[min(2, len(T) - 2)] if len(T) > 1 else (T[0] if T else "")
    t_b = T[min(4, len(T) - 1)] if len(T) > 1 else ""
    f_one = f" ({t_a} {F[1]} names one)" if len(F) > 1 else ""
    if Mechanic.PAIRS in gens:
        out.extend(_pair_forms(v, eng, T))
    tableau_moves = Mechanic.TABLEAU in gens and len(T) > 1
    if tableau_moves:
        out.extend(_tableau_forms(eng, T, t_a, t_b))
    if Mechanic.DISCARD_SUITS in gens:
        out.append((f"{t_a} f", f"lift the finished suit (K down to A) off {t_a}"))
    elif Mechanic.TO_FOUNDATIONS in gens and T:
        out.append((f"{t_a} f", f"{t_a}'s top card to the foundation it fits{f_one}"))
    if Mechanic.ONTO_WASTE in gens:
        out.append((f"{t_a} w", f"{t_a}'s top card onto the waste"))
    if groups.waste >= 0 and Mechanic.WASTE_TO_TABLEAU in gens and T:
        out.append((f"w {T[1] if len(T) > 1 else T[0]}",
                    f"the waste's top card onto {T[1] if len(T) > 1 else T[0]}"
                    + (" (w f: to a foundation)" if Mechanic.TO_FOUNDATIONS in gens else "")))
    elif groups.waste >= 0 and Mechanic.TO_FOUNDATIONS in gens:
        out.append(("w f", "the waste's top card to the foundation it fits"))
    if Mechanic.STOCK_TO_SPACE in gens:
        out.append((f"s {t_b}", f"the stock's top card into the space {t_b}"))
    if groups.reserve:
        out.extend(_reserve_forms(eng, T, t_a))
    if Mechanic.FROM_FOUNDATIONS in gens and T:
        out.append((f"{F[0]} {t_a}", f"a foundation's top card back onto {t_a}"))
    if Mechanic.FOUNDATION_TRANSFERS in gens:
        group = v.foundations[0].count
        out.append((f"{F[0]} {F[group]}", f"a card from {F[0]} onto {F[group]}, the other "
                                          f"foundation of its suit"))
    if Mechanic.FOLDS in gens:
        a = names[groups.pyramid[6]]
        reach = [names[groups.pyramid[6 - k]] for k in eng.accordion.reach]
        others = [f"{a} {b}: {_n(k)} to its left" for k, b in zip(eng.accordion.reach[1:],
                                                                  reach[1:], strict=True)]
        out.append((f"{a} {reach[0]}", f"the pile at {a} onto the pile "
                    + ("next to it" if eng.accordion.reach[0] == 1
                       else f"{_n(eng.accordion.reach[0])} to its left")
                    + (f" ({'; '.join(others)})" if others else "")))
    if Mechanic.GAPS in gens:
        cols = eng.gaps.columns
        a, b = names[groups.grid[cols + 6]], names[groups.grid[cols + 1]]
        out.append((f"{a} {b}", f"the card in cell {a} into the gap at {b}"))
    stock = _stock_action(v)
    if stock:
        out.append(("s", stock))
    reveal = _reveal_pile(v)
    if reveal:
        out.append((f"{reveal}=9c", f"a reveal: the card just turned up on {reveal} is 9♣ "
                                    f"(when playing a shuffled deck)"))
    card = _card_example(v, gens, T)
    if card:
        out.append(card)
    return out


def _pair_forms(v: Variant, eng: Engine, T: list[str]) -> list[tuple[str, str]]:
    """:func:`notation`'s forms for removing pairs."""
    groups, names = eng.groups, eng.names
    out: list[tuple[str, str]] = []
    if v.pyramid:
        bottom = [names[i] for i in groups.pyramid[-v.pyramid.rows:]]
        a, b = bottom[0], bottom[-1]
    else:
        a, b = T[0], T[min(4, len(T) - 1)]
    out.append((f"{a} {b}", "remove the two available cards as a pair"))
    if eng.pairs.singles and groups.foundations:
        out.append((f"{b} f", f"remove a {' or '.join(eng.pairs.singles)} on its own"))
    if v.stock and v.stock.turn_up and groups.waste >= 0:
        out.append(("s w", f"pair the card turned up on the stock with the waste's top "
                           f"card ({b} s, {b} w: with a pyramid card)"))
    return out


def _tableau_forms(eng: Engine, T: list[str], t_a: str, t_b: str) -> list[tuple[str, str]]:
    """:func:`notation`'s forms for moves between tableau piles ``t_a`` and ``t_b``."""
    out = [(f"{t_a} {t_b}", f"the top card of {t_a} onto {t_b}")]
    if eng.unit == "single-or-whole-pile":
        out.append((f"{t_a}:4 {t_b}", f"all of {t_a} (four cards, say) as one unit onto "
                                      f"{t_b}"))
    elif eng.unit not in ("single", "none"):
        out.append((f"{t_a}:4 {t_b}", f"four cards of {t_a} as one unit onto {t_b}"))
    elif eng.space_unit:
        out.append((f"{t_a}:4 {T[-1]}", f"four cards of {t_a} as one unit into the space "
                                        f"{T[-1]}"))
    return out


def _reserve_forms(eng: Engine, T: list[str], t_a: str) -> list[tuple[str, str]]:
    """:func:`notation`'s forms for the reserve (its first pile as the example)."""
    gens = eng.mechanics
    out: list[tuple[str, str]] = []
    r = eng.names[eng.groups.reserve[0]]
    to_f = " (" + r + " f: to a foundation)" if Mechanic.TO_FOUNDATIONS in gens else ""
    if Mechanic.RESERVE_TO_TABLEAU in gens and T:
        out.append((f"{r} {T[1]}", f"the top card of reserve pile {r} onto {T[1]}{to_f}"))
    elif Mechanic.TO_FOUNDATIONS in gens:
        out.append((f"{r} f", f"the top card of reserve pile {r} to a foundation"))
    if Mechanic.TO_RESERVE in gens:
        src = [x for x in eng.reserve.sources if x == "w" or T]
        first = t_a if src[0] == "t" else "w"
        out.append((f"{first} {r}", f"into the empty reserve place {r}"
                    + (" (w " + r + " from the waste)" if len(src) > 1 else "")))
    return out


def _stock_action(v: Variant) -> str:
    """What ``s`` does in ``v`` (empty when it has no stock action)."""
    st = v.stock
    if v.gaps:
        return gaps.redeal_action(v.gaps)
    if not st:
        return ""
    if st.redeal == "waste":
        start = Position.deal(v, None)
        if not start.piles[start.engine.groups.stock]:
            return ""  # the deal used every card (Accordion dealt all out): s never does a thing
    again = st.passes != 1
    if st.redeal == "shuffle":
        return f"redeal: gather, shuffle and deal again ({_n(st.passes - 1)} " \
               f"redeal{'s' if st.passes != 2 else ''} in all)"
    if st.deal == "waste":
        text = "turn up the stock's top card; the next s moves it to the waste" \
            if st.turn_up else "turn the stock onto the waste"
        if again:
            text += " (a new pass when the stock is empty" + (
                "" if st.passes == 0 else f"; {_n(st.passes)} passes in all") + ")"
        return text
    if st.deal == "tableau":
        text = "deal from the stock onto the tableau"
        if again and st.redeal == "gather":
            text += " (when it is empty: gather the piles for a new pass)"
        return text
    if st.deal == "line":
        return "deal the next card at the end of the line"
    return "redeal"


def _reveal_pile(v: Variant) -> str:
    """A pile where a card is turned up during play and named by a reveal (``t3=9c``): a
    tableau pile with cards dealt face down, else the pile the stock turns a card onto
    (the waste, the stock itself in Pyramid, the line in Accordion); empty when every card
    is dealt face up and none is turned up later."""
    start = Position.deal(v, None)
    eng = start.engine
    names = eng.names
    down = [names[i] for i in eng.groups.tableau if start.down[i]]
    if down:
        return "t3" if "t3" in down else down[0]
    before = set(start.pending_reveals())
    for m in start.raw_moves():
        if m[0] == STOCK:
            start.push_raw(m)
            new = [names[i] for i, k in start.pending_reveals() if (i, k) not in before]
            if new:
                return "t3" if "t3" in new else new[0]
            break
    return ""


def _card_example(v: Variant, gens: frozenset[Mechanic], T: list[str]) -> tuple[str, str] | None:
    """Card notation as ``v`` takes it: a card onto a pile (or onto a card), or a pair."""
    if Mechanic.PAIRS in gens:
        p: P.Pairs = v.pairs  # type: ignore[assignment]  # (a pairs game)
        ranks = sorted(v.rank_values, key=lambda r: (abs(r - 6), r))
        a = next(r for r in ranks if any(p.matches(_code(r, 2), _code(q, 3)) for q in ranks))
        b = next(q for q in ranks if p.matches(_code(a, 2), _code(q, 3)))
        return (f"{RANK_TEXT[a]}d {RANK_TEXT[b]}c".lower(),
                "card notation: remove these two cards, wherever they lie")
    if Mechanic.FOLDS in gens:
        return ("7h 7s, 7h", "card notation: the pile topped by 7h onto the one topped by 7s, "
                             "or 7h's only move")
    if Mechanic.GAPS in gens:
        return (f"7h {v.pile_names[v.gaps.columns + 1]}, 7h",  # type: ignore[union-attr]
                "card notation: the engine finds the cell, or the card's only move")
    if Mechanic.ONTO_WASTE in gens:
        return ("7h w, 7h", "card notation: the engine finds the pile, or the only legal move")
    if T and Mechanic.TABLEAU in gens:
        dst = T[min(3, len(T) - 1)]
        return (f"7h {dst}, 7h", "card notation: the engine finds the pile, or the only legal "
                                 "move")
    if Mechanic.TO_FOUNDATIONS in gens:
        return ("7h f, 7h", "card notation: the engine finds the pile, or the only legal move")
    return None


def _code(rank: int, suit: int) -> int:
    return suit * 13 + rank - 1


def describe_move(eng: Engine, raw: Raw, piles: Piles, down: Sequence[int],
                  symbols: bool = True) -> str:
    """What a raw move does, in words, from the piles before it: ``7♥ from t1 onto 8♣``,
    ``K♠ from t5 to the empty t3`` ... (the recorder's echo, hints, move listings)."""
    groups = eng.groups

    def ct(c: int) -> str:
        return code_text(c, symbols)

    kind, a, n, b = raw
    names = eng.names
    if kind == MOVE:
        src = piles[a]
        lifted = src[-n:]
        what = ct(lifted[0]) if n == 1 else f"{n} cards, {ct(lifted[0])} to {ct(lifted[-1])},"
        if b in groups.foundation_set:
            if eng.complete_runs:
                return f"the run {ct(lifted[0])} to {ct(lifted[-1])} off {names[a]}"
            return f"{what} from {names[a]} to the foundation {names[b]}"
        dest = piles[b]
        if dest:
            return f"{what} from {names[a]} onto {ct(dest[-1])}"
        return f"{what} from {names[a]} to the empty {names[b]}"
    if kind == STOCK:
        st = eng.variant.stock
        if eng.gaps:
            return gaps.REDEAL_DONE
        s = piles[groups.stock] if groups.stock >= 0 else ()
        if st is not None and st.deal == "tableau":
            return f"deal a row from the stock ({min(len(s), len(groups.tableau))} cards)"
        if st is not None and st.deal == "line":
            return "deal the next card to the line"
        if not s:
            return "turn the waste over: a new pass through the stock"
        if down[groups.stock] < len(s):
            return "the turned stock card goes to the waste"
        if st is not None and not st.turn_up and st.draw > 1:
            if len(s) == 1:  # not "turn 1 cards"
                return "turn the stock's last card to the waste"
            return f"turn {min(st.draw, len(s))} cards from the stock to the waste"
        return "turn the stock"
    if kind == PAIR:
        return f"remove {ct(piles[a][-1])} and {ct(piles[b][-1])}"
    if kind == FOLD:
        return f"{ct(piles[a][-1])} from {names[a]} onto {ct(piles[b][-1])} at {names[b]}"
    if kind == REVEAL:
        return f"{names[a]} is {ct(n)}"
    return eng.text(raw)


def move_effect(eng: Engine, raw: Raw, piles: Piles, down: Sequence[int]) -> str:
    """What a move leads to that a player cares about: ``, turning up a face-down card in t5``,
    ``, emptying t1`` (empty when nothing of note)."""
    groups = eng.groups
    kind, a, n, _ = raw
    if kind != MOVE or a not in groups.tableau_set:
        return ""
    left = len(piles[a]) - n
    if left and left == down[a]:
        return f", turning up a face-down card in {eng.names[a]}"
    tab = eng.variant.tableau
    if not left and len(groups.tableau) > 1 and tab is not None and tab.space != "none":
        return f", emptying {eng.names[a]}"
    return ""


def tableau_cards(v: Variant) -> set[int] | None:
    """The cards that lie on the tableau of ``v`` whatever the moves, where the rules fix them:
    Gaps (one deck) keeps every card but the gap rank's in its rows (moves and redeals only
    move cards within them; the gap rank's lie aside). None where cards leave the tableau or
    come to it.

    A photo of the rows then says which cards must be in it, read or not (`companion scan`
    uses it to settle uncertain and missing readings)."""
    if not v.gaps or v.decks != 1:
        return None
    gap = rank_from_text(v.gaps.gap_rank)
    return {c for c in range(52) if RANK_OF[c] != gap}


def foundation_cards(v: Variant, top: int) -> list[int] | None:
    """The cards a foundation of ``v`` holds when ``top`` is the card seen on it, bottom first
    and ``top`` last, where the rules fix them: a foundation that starts with its base rank and
    builds up (or down) in one suit without turning the corner holds every card of ``top``'s
    suit from the base to ``top`` (Klondike: 4♥ on top means A♥ 2♥ 3♥ 4♥ there). ``[]`` when
    no foundation of ``v`` can show ``top``; None when the rules do not fix what lies under
    it (several foundation groups, a build in colours, Spider's complete runs lifted off).

    A photo of the table shows only a foundation's top card: this says which cards are
    therefore not anywhere else (`companion scan` uses it to settle an uncertain reading)."""
    if len(v.foundations) != 1:
        return None
    f = v.foundations[0]
    b = f.build
    if f.complete_runs or f.transfer or b.wrap or b.suits != "same-suit" \
            or b.direction not in ("up", "down"):
        return None
    base, rank, suit = rank_from_text(f.base), RANK_OF[top], SUIT_OF[top]
    step = 1 if b.direction == "up" else -1
    ranks = list(range(base, rank + step, step))
    if not ranks or ranks[-1] != rank or len(ranks) > f.max_cards:
        return []
    return [suit * 13 + r - 1 for r in ranks]
