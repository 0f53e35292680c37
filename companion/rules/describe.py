"""The rules of a variant in the project's own words, generated from its pieces.

The same parameters that decide legality write these sentences, so they cannot drift apart.
This text is what `companion variants VARIANT` shows and what the setup sheets will print.
"""

from __future__ import annotations

from ..cards import RANK_TEXT
from .deal import pile_list

_NUM = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
        8: "eight", 9: "nine", 10: "ten", 12: "twelve", 13: "thirteen"}


def _n(k: int) -> str:
    return _NUM.get(k, str(k))


def describe(v) -> list[str]:
    lines: list[str] = []
    ranks = v.rank_values
    if len(ranks) == 13:
        deck = "one deck of 52 cards" if v.decks == 1 else f"{_n(v.decks)} decks, {v.deck_size} cards"
    else:
        names = ", ".join(RANK_TEXT[r] for r in ranks)
        deck = f"a {v.deck_size}-card deck: {names} of each suit"
    lines.append(f"Cards: {deck}.")
    lines += _deal(v)
    eng = v.engine()
    if v.tableau and v.tableau.move != "none":
        t = v.tableau
        lines.append(f"Tableau ({_n(t.count)} piles): {t.build.phrase()}; {t.move_phrase()}; "
                     f"{t.space_phrase()}" + (f"; at most {t.max_cards} cards a pile"
                                              if t.max_cards else "") + ".")
    if v.tableau and any(s.face == "down" for s in v.deal):
        lines.append("A face-down card is turned up as soon as it is uncovered.")
    for f in v.foundations:
        if v.pairs:
            lines.append(f"Removed cards go to the discard pile {eng.names[eng.F[0]]}.")
            continue
        text = f"Foundations ({_n(f.count)}): {f.phrase()}"
        if not f.complete_runs:
            text += "; " + ("the top card may come back to the tableau" if f.returns
                            else "cards never come back from them")
        elif f.auto:
            text += " as soon as it is complete"
        else:
            text += " when the player chooses (type the pile then f)"
        lines.append(text + ".")
    if v.waste and v.waste.build:
        b = v.waste.build
        text = "Tableau cards go one at a time onto the waste, one rank up or down, " \
               "suits ignored, no turning the corner"
        if b.closed:
            text += f"; nothing goes on a {' or '.join(b.closed)}"
        lines.append(text + ".")
    if v.pairs:
        p = v.pairs
        lines.append(p.phrase()[0].upper() + p.phrase()[1:] + ".")
    if v.pyramid:
        lines.append("A pyramid card is available when both cards covering it have gone; the "
                     "card turned up on the stock and the top card of the waste are available "
                     "too. A card covered only by its partner cannot pair with it.")
    if v.accordion:
        reach = " or ".join(("next to it" if r == 1 else f"{_n(r)} to its left")
                            for r in v.accordion.reach)
        lines.append(f"A pile goes onto the pile {reach} (only leftwards) when their top cards "
                     f"share a suit or a rank; the whole pile moves and the gap closes.")
    if v.gaps:
        g = v.gaps
        lines.append("Fill a gap with the card one rank higher, in the same suit, than the card "
                     "to its left; a gap after a king or after another gap is dead.")
        lines.append(f"When every gap is dead, redeal ({_n(g.redeals)} redeals): keep each row's "
                     f"run from its 2 up in suit, gather the rest with the aces, "
                     + ("shuffle, " if g.shuffle else "")
                     + "deal them into the empty places row by row, and take the aces out "
                       "again.")
    if v.stock:
        lines.append(_stock(v))
    lines.append(_win(v))
    lines += list(v.notes)
    return lines


def _deal(v) -> list[str]:
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
        elif s.step == "packets":
            top = ", the top one face up" if s.turn_top else ""
            out.append(f"Deal {_n(len(piles))} piles of {_n(s.size)} cards {face}{top} "
                       f"({where}), one pile at a time.")
        elif s.step == "pull":
            out.append(f"Take the {RANK_TEXT[_rank(s.rank)]}s out first and place them face up "
                       f"in {where}, in the order they come.")
        elif s.step == "remove":
            out.append(f"Then take the {RANK_TEXT[_rank(s.rank)]}s out of the layout and put "
                       f"them aside in {where}: the places they leave are the gaps.")
    if v.stock:
        out.append("The rest of the cards form the stock, face down." if v.deal
                   else "All the cards start in the stock, face down.")
    return out


def _rank(text: str) -> int:
    from ..cards import rank_from_text
    return rank_from_text(text)


def _where(names, piles) -> str:
    """``t1-t7`` or ``a2-a13, b2-b13``: runs of consecutive piles with one prefix."""
    runs: list[list[int]] = []
    for i in piles:
        if runs and i == runs[-1][-1] + 1 and \
                names[i].rstrip("0123456789") == names[runs[-1][0]].rstrip("0123456789"):
            runs[-1].append(i)
        else:
            runs.append([i])
    return ", ".join(names[r[0]] if len(r) == 1 else f"{names[r[0]]}-{names[r[-1]]}"
                     for r in runs)


def _stock(v) -> str:
    st = v.stock
    passes = ("unlimited passes: turn the waste over as the new stock when the stock is empty"
              if st.passes == 0 else "one pass, no redeal" if st.passes == 1
              else f"{_n(st.passes)} passes in all")
    if st.deal == "waste":
        if st.turn_up:
            return f"Stock (type s): turn up the top stock card in place; the next s moves it " \
                   f"to the waste and turns up the next; {passes}."
        n = "one card" if st.draw == 1 else f"{_n(st.draw)} cards"
        extra = "; only the top card of the waste is playable" if st.draw > 1 else \
            "; the top card of the waste is playable"
        return f"Stock (type s): turn {n} onto the waste{extra}; {passes}."
    if st.deal == "tableau":
        cond = ", only when no tableau pile is empty" if st.no_empty_tableau else ""
        return f"Stock (type s): deal one card face up onto every tableau pile{cond}."
    if st.deal == "line":
        return "Stock (type s): deal the next card face up at the right end of the line; " \
               "play may stop for moves at any time."
    return "No stock."


def _win(v) -> str:
    return {
        "foundations": f"Won when all {v.deck_size} cards are on the foundations"
                       + (" (removed)." if v.pairs else "."),
        "tableau-empty": "Won when the tableau is cleared. Score: cards left in the tableau "
                         "(lower is better); minus the stock cards left when it is cleared.",
        "pyramid-empty": "Won when the 28 cards of the pyramid are removed.",
        "one-pile": "Won when all the cards are in one pile.",
        "gaps-rows": "Won when every row runs from its 2 to its king in one suit, with the gap "
                     "at the end.",
    }[v.win] + " Lost when no move is left" + (
        ", or when a whole pass through the stock changes nothing." if v.stock and
        v.stock.passes == 0 else ".")
