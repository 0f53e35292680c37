"""The rules of a variant in the project's own words, generated from its pieces.

The same parameters that decide legality write these sentences, so they cannot drift apart.
This text is what `companion variants VARIANT` shows and what the setup sheets will print.
"""

from __future__ import annotations

from ..cards import RANK_TEXT, code_text
from .deal import pile_list

_NUM = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
        8: "eight", 9: "nine", 10: "ten", 12: "twelve", 13: "thirteen"}


def _n(k: int) -> str:
    return _NUM.get(k, str(k))


def deal_lines(v) -> list[str]:
    """How to deal, step by step (what a setup sheet prints under "How to deal")."""
    lines = _deal(v)
    if any(s.aces_up for s in v.deal):
        lines.append("An ace met while dealing goes straight to a foundation and the next card "
                     "takes its place.")
    return lines


def describe(v) -> list[str]:
    lines: list[str] = []
    ranks = v.rank_values
    if len(ranks) == 13:
        deck = "one deck of 52 cards" if v.decks == 1 else f"{_n(v.decks)} decks, {v.deck_size} cards"
    else:
        names = ", ".join(RANK_TEXT[r] for r in ranks)
        deck = f"a {v.deck_size}-card deck: {names} of each suit"
    lines.append(f"Cards: {deck}.")
    lines += deal_lines(v)
    eng = v.engine()
    if v.tableau and v.tableau.move != "none":
        t = v.tableau
        lines.append(f"Tableau ({_n(t.count)} piles): {t.build.phrase()}; {t.move_phrase()}; "
                     f"{t.space_phrase()}" + (f"; at most {t.max_cards} cards a pile"
                                              if t.max_cards else "") + ".")
    if v.tableau and any(s.face == "down" for s in v.deal):
        lines.append("A face-down card is turned up as soon as it is uncovered.")
    if v.reserve:
        lines.append(_reserve(v))
    for f in v.foundations:
        if v.pairs:
            lines.append(f"Removed cards go to the discard pile {eng.names[eng.F[0]]}.")
            continue
        first = eng.F[sum(g.count for g in v.foundations[:v.foundations.index(f)])]
        where = _where(eng.names, list(range(first, first + f.count)))
        text = f"Foundations ({_n(f.count)}, {where}): {f.phrase()}"
        if f.max_cards < 13:
            text += f", up to the {RANK_TEXT[f.max_cards]}"
        if f.transfer:
            text += "; when the two foundations of a suit meet, cards may pass from one to " \
                    "the other, one at a time"
        if not f.complete_runs:
            text += "; " + ("the top card may come back to the tableau" if f.returns
                            else "cards never come back to the tableau")
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
    from ..cards import RANK_NAMES
    name = RANK_NAMES[_rank(rank)]
    return name + ("es" if name.endswith("x") else "s")


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


def _reserve(v) -> str:
    r = v.reserve
    names = f"r1-r{r.count}" if r.count > 1 else "r1"
    text = f"Reserve ({names}): the top card of each is available to the foundations" + (
        " and the tableau" if v.tableau and v.tableau.build.direction != "none" else "")
    text += "; nothing is built on it"
    if r.accepts != "none":
        what = "a card" if r.accepts == "card" else "a card or a run"
        src = " or ".join({"t": "the top of a tableau pile", "w": "the waste"}[x]
                          for x in r.sources)
        when = {"always": "", "stock-empty": ", once the whole stock has been dealt",
                "last-pass": ", in the last pass"}[r.when]
        text += f"; an empty place takes {what} from {src}{when}"
    return text + "."


def _stock(v) -> str:
    st = v.stock
    if st.redeal == "shuffle":
        return f"Stock: never played from directly; it refills emptied piles. Redeal (type s, " \
               f"{_n(st.passes - 1)} times): gather the tableau and the stock, shuffle, and " \
               f"deal again as at the start."
    passes = ("unlimited passes: turn the waste over as the new stock when the stock is empty"
              if st.passes == 0 else "one pass, no redeal" if st.passes == 1
              else f"{_n(st.passes)} passes in all")
    if st.redeal == "gather":
        passes = f"{_n(st.passes)} passes in all: when the stock is empty, type s to put each " \
                 f"tableau pile on the one to its left, turn the packet over as the new stock " \
                 f"and deal again"
    if st.reserve_on_redeal:
        passes += f"; at the redeal {_n(st.reserve_on_redeal)} cards go face up to the reserve"
    if st.strict_last_pass:
        passes += "; in the last pass every card turned must be played at once, or the game " \
                  "is lost"
    if st.deal == "waste":
        if st.turn_up:
            return f"Stock (type s): turn up the top stock card in place; the next s moves it " \
                   f"to the waste and turns up the next; {passes}."
        n = "one card" if st.draw == 1 else f"{_n(st.draw)} cards"
        extra = "; only the top card of the waste is playable" if st.draw > 1 else \
            "; the top card of the waste is playable"
        return f"Stock (type s): turn {n} onto the waste{extra}; {passes}."
    if st.deal == "tableau":
        cond = ", only when no tableau pile is empty" if st.no_empty_tableau else \
            ", empty piles included"
        n = "one card" if st.per_pile == 1 else f"{_n(st.per_pile)} cards"
        more = f"; {passes}" if st.passes != 1 else ""
        return f"Stock (type s): deal {n} face up onto every tableau pile{cond}{more}."
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
        "tableau-full": f"Won when every tableau pile holds {v.tableau.max_cards if v.tableau else 13} cards.",
        "octave": "Won when every foundation runs from ace to ten and the court cards stand in "
                  "the tableau as columns of K, Q, J in alternating colours.",
    }[v.win] + " Lost when no move is left" + (
        ", or when a whole pass through the stock changes nothing." if v.stock and
        v.stock.passes == 0 else ".")


def notation(v) -> list[tuple[str, str]]:
    """The move forms a variant uses, with what each means (for `companion rules`, sheets)."""
    eng = v.engine()
    out: list[tuple[str, str]] = []
    t = v.tableau
    has_f = bool(eng.F) and not v.pairs
    if v.pairs:
        a, b = ("p12", "p20") if v.pyramid else ("t1", "t5")
        out.append((f"{a} {b}", "remove the two available cards as a pair"))
        if v.pairs.singles:
            out.append(("p7 f", f"remove a {' or '.join(v.pairs.singles)} on its own"))
        if v.pyramid:
            out.append(("s w", "pair the card turned up on the stock with the waste's top card"))
    if t and t.move != "none" and (t.build.direction != "none" or t.space != "none"):
        out.append(("t3 t5", "the top card of t3 onto t5"))
        if t.move not in ("single",) or t.space_unit:
            out.append(("t3:4 t5", "four cards of t3 as one unit onto t5"))
    if has_f and eng.complete_runs:
        out.append(("t3 f", "lift the finished suit (K down to A) off t3"))
    elif has_f:
        out.append(("t3 f", "t3's top card to the foundation it fits (t3 f2 names one)"))
    if v.waste and v.waste.build:
        out.append(("t3 w", "t3's top card onto the waste"))
    elif eng.W >= 0:
        out.append(("w t2", "the waste's top card onto t2" + (" (w f: to a foundation)"
                                                              if has_f else "")))
    if eng.R:
        if t and t.build.direction != "none":
            out.append(("r1 t2", "the top card of reserve pile r1 onto t2 (r1 f: to a "
                                 "foundation)"))
        else:
            out.append(("r1 f", "the top card of reserve pile r1 to a foundation"))
        if v.reserve.accepts != "none":
            out.append(("t3 r1", "into the empty reserve place r1"
                        + (" (w r1 from the waste)" if "w" in v.reserve.sources else "")))
    if eng.f_returns:
        out.append(("f1 t3", "a foundation's top card back onto t3"))
    if eng.f_transfer:
        out.append(("f1 f5", "a card from one foundation onto the other of its suit"))
    if v.accordion:
        out.append(("p7 p6", "the pile at p7 onto the pile next to it (p7 p4: three to its left)"))
    if v.gaps:
        out.append(("b7 b2", "the card in cell b7 into the gap at b2"))
        out.append(("s", "redeal, when every gap is blocked"))
    elif v.stock:
        out.append(("s", {
            "waste": "turn the stock onto the waste (a new pass when it is empty)",
            "tableau": "deal from the stock onto the tableau",
            "line": "deal the next card at the end of the line",
            "none": "redeal",
        }[v.stock.deal] if v.stock.redeal != "shuffle" else "redeal"))
    if any(s.face == "down" for s in v.deal) or v.stock:
        out.append(("t3=9c", "a reveal: name the card just turned up (games from a shuffled deck)"))
    out.append(("7h t4, 7h", "card notation: the engine finds the pile, or the only legal move"))
    return out


def describe_move(eng, raw, piles, down, symbols: bool = True) -> str:
    """What a raw move does, in words, from the piles before it: ``7♥ from t1 onto 8♣``,
    ``K♠ from t5 to the empty t3`` ... (the recorder's echo, hints, move listings)."""
    from .engine import FOLD, MOVE, PAIR, REVEAL, STOCK

    def ct(c):
        return code_text(c, symbols)

    kind, a, n, b = raw
    names = eng.names
    if kind == MOVE:
        src = piles[a]
        lifted = src[-n:]
        what = ct(lifted[0]) if n == 1 else f"{n} cards, {ct(lifted[0])} to {ct(lifted[-1])},"
        if b in eng.Fset:
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
            return "redeal the cards out of order"
        s = piles[eng.S] if eng.S >= 0 else ()
        if st is not None and st.deal == "tableau":
            return f"deal a row from the stock ({min(len(s), len(eng.T))} cards)"
        if st is not None and st.deal == "line":
            return "deal the next card to the line"
        if not s:
            return "turn the waste over: a new pass through the stock"
        if down[eng.S] < len(s):
            return "the turned stock card goes to the waste"
        if st is not None and not st.turn_up and st.draw > 1:
            return f"turn {min(st.draw, len(s))} cards from the stock to the waste"
        return "turn the stock"
    if kind == PAIR:
        return f"remove {ct(piles[a][-1])} and {ct(piles[b][-1])}"
    if kind == FOLD:
        return f"{ct(piles[a][-1])} from {names[a]} onto {ct(piles[b][-1])} at {names[b]}"
    if kind == REVEAL:
        return f"{names[a]} is {ct(n)}"
    return eng.text(raw)


def move_effect(eng, raw, piles, down) -> str:
    """What a move leads to that a player cares about: ``, turning up a face-down card in t5``,
    ``, emptying t1`` (empty when nothing of note)."""
    from .engine import MOVE
    kind, a, n, _ = raw
    if kind != MOVE or a not in eng.Tset:
        return ""
    left = len(piles[a]) - n
    if left and left == down[a]:
        return f", turning up a face-down card in {eng.names[a]}"
    tab = eng.variant.tableau
    if not left and len(eng.T) > 1 and tab is not None and tab.space != "none":
        return f", emptying {eng.names[a]}"
    return ""


def tableau_cards(v) -> set[int] | None:
    """The cards that lie on the tableau of ``v`` whatever the moves, where the rules fix them:
    Gaps (one deck) keeps every card but the gap rank's in its rows (moves and redeals only
    move cards within them; the gap rank's lie aside). None where cards leave the tableau or
    come to it.

    A photo of the rows then says which cards must be in it, read or not (`companion scan`
    uses it to settle uncertain and missing readings)."""
    from ..cards import RANK_OF, rank_from_text
    if not v.gaps or v.decks != 1:
        return None
    gap = rank_from_text(v.gaps.gap_rank)
    return {c for c in range(52) if RANK_OF[c] != gap}


def foundation_cards(v, top: int) -> list[int] | None:
    """The cards a foundation of ``v`` holds when ``top`` is the card seen on it, bottom first
    and ``top`` last, where the rules fix them: a foundation that starts with its base rank and
    builds up (or down) in one suit without turning the corner holds every card of ``top``'s
    suit from the base to ``top`` (Klondike: 4♥ on top means A♥ 2♥ 3♥ 4♥ there). ``[]`` when
    no foundation of ``v`` can show ``top``; None when the rules do not fix what lies under
    it (several foundation groups, a build in colours, Spider's complete runs lifted off).

    A photo of the table shows only a foundation's top card: this says which cards are
    therefore not anywhere else (`companion scan` uses it to settle an uncertain reading)."""
    from ..cards import RANK_OF, SUIT_OF, rank_from_text
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
