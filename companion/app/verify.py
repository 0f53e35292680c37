"""Verify: a dealt layout checked card by card against a seeded deal, whichever way it came in
(typed into a :class:`~companion.record.layout.LayoutEntry`, a JSON position, or a photo).

Each input kind gathers the cards it can check and hands them to :func:`layout_report`, the one
comparison: every card not where the deal puts it becomes the same mismatch record.
"""

from __future__ import annotations

import difflib

from ..cards import UNKNOWN, code_json, code_text
from ..rules.moves import place_text
from .photo import inferred_line, uncertain_text


def layout_report(deal_pos, seen, symbols: bool, *, missing=(), problems=()) -> dict:
    """The report of `companion verify`: ``seen`` is (pile, height, code) of every card checked,
    in the order listed; ``missing`` the places (or piles) not checked, ``problems`` lines about
    piles not as dealt."""
    names = deal_pos.engine.names
    mismatches = []
    for i, k, code in seen:
        want = deal_pos.piles[i][k]
        if code != want:
            mismatches.append({
                "pile": names[i], "height": k,
                "place": place_text(names, i, k, len(deal_pos.piles[i])),
                "expected": code_json(want), "found": code_json(code),
                "expected_text": code_text(want, symbols), "found_text": code_text(code, symbols)})
    return {"checked": len(seen), "mismatches": mismatches, "missing": list(missing),
            "problems": list(problems)}


def entry_report(deal_pos, entry, symbols: bool) -> dict:
    """The typed layout against the deal (piles not typed in are ``missing``)."""
    return layout_report(deal_pos, entry.cards(), symbols, missing=entry.missing())


def position_report(deal_pos, given, symbols: bool) -> dict:
    """A JSON position against the deal: every card it names (not the unknown ones), and a
    problem for each pile whose count of cards, or of face-down cards, is not as dealt."""
    names = deal_pos.engine.names
    seen, problems = [], []
    for i, name in enumerate(names):
        want, got = deal_pos.piles[i], given.piles[i]
        if len(want) != len(got):
            problems.append(f"{name}: {len(got)} card{'s' if len(got) != 1 else ''} in your "
                            f"layout, the deal puts {len(want)} there")
        elif deal_pos.down[i] != given.down[i]:
            problems.append(f"{name}: {given.down[i]} face down in your layout, the deal has "
                            f"{deal_pos.down[i]}")
        seen += [(i, k, got[k]) for k in range(min(len(want), len(got))) if got[k] != UNKNOWN]
    return layout_report(deal_pos, seen, symbols, problems=problems)


def photo_report(deal_pos, reading, symbols: bool) -> dict:
    """The photographed layout against a seeded deal, pile by pile (the piles the player lays
    out face up: not the stock or foundations; the waste where the deal turns a card up on
    it, as Golf's). The report of :func:`layout_report`, with ``read`` (the cards read in the
    photo), ``uncertain`` (cards read without confidence: not checked), ``missing`` (cards
    of the deal not found in the photo), ``extra`` (per pile, the cards read beyond the
    face-up cards the deal puts there: each pile one line of ``problems``), ``unplaced``
    (cards read sure but in no pile: one line of ``problems``) and ``inferred`` (cards read
    below the threshold and named from the rules: checked, and named for the player to look
    at)."""
    eng = deal_pos.engine
    names = eng.names
    g = eng.groups
    # (a waste the deal leaves empty has no slots)
    skip = set(g.foundation_set) | {g.stock, g.aside}
    piles = reading["piles"].piles if reading["piles"] is not None else {}
    seen, problems, unsure, unread, inferred = [], [], [], [], []
    extra_cards: dict[str, list[str]] = {}

    for i, name in enumerate(names):
        if i in skip:
            continue
        down = deal_pos.down[i]
        slots = list(range(down, len(deal_pos.piles[i])))
        if not slots:
            continue
        dets = piles.get(name, [])
        want = [deal_pos.piles[i][k] for k in slots]
        got = [d.code for d in dets]
        if len(got) == len(want):
            pairs = list(zip(slots, dets, strict=True))
            extra = []
        else:
            pairs, extra = [], []
            sm = difflib.SequenceMatcher(a=want, b=got, autojunk=False)
            for tag, a0, a1, b0, b1 in sm.get_opcodes():
                if tag == "equal" or (tag == "replace" and a1 - a0 == b1 - b0):
                    pairs += list(zip(slots[a0:a1], dets[b0:b1], strict=True))
                    continue
                for k in slots[a0:a1]:
                    unread.append(place_text(names, i, k, len(deal_pos.piles[i])))
                extra += dets[b0:b1]
        for k, d in pairs:
            if d.uncertain:
                unsure.append({"place": place_text(names, i, k, len(deal_pos.piles[i])),
                               "read": code_json(d.code), "confidence": round(d.confidence, 3),
                               "text": f"{place_text(names, i, k, len(deal_pos.piles[i]))}: "
                                       f"{uncertain_text(d)}"})
                continue
            seen.append((i, k, d.code))
            if d.inferred is not None:
                place = place_text(names, i, k, len(deal_pos.piles[i]))
                inferred.append({"place": place, "card": code_json(d.code),
                                 "read": code_json(d.inferred[0]),
                                 "read_confidence": round(d.inferred[1], 3),
                                 "text": inferred_line(place, d,
                                                       lambda c: code_text(c, symbols))})
        if extra:
            extra_cards[name] = [code_json(d.code) + ("?" if d.uncertain else "")
                                 for d in extra]
            problems.append(f"{name}: {_cards(len(extra))} more in the photo than the "
                            f"{_n_up(len(want))} the deal puts there: "
                            + " ".join(code_text(d.code, symbols) + ("?" if d.uncertain else "")
                                       for d in extra))
    mapped = {id(d) for ds in piles.values() for d in ds}
    loose = [d for d in reading["cards"] if id(d) not in mapped and not d.uncertain]
    if not (loose and reading["piles"] is not None and reading["piles"].unplaced):
        loose = []
    if loose:
        problems.append(f"{_cards(len(loose))} read but not placed in a pile: "
                        + " ".join(code_text(d.code, symbols) for d in loose))
    # "read" first: the JSON keeps the order it always had
    return {"read": len(reading["cards"]),
            **layout_report(deal_pos, seen, symbols, missing=unread, problems=problems),
            "uncertain": unsure, "inferred": inferred, "extra": extra_cards,
            "unplaced": [code_json(d.code) for d in loose]}


def _n_up(n: int) -> str:
    return f"{n} face-up card{'s' if n != 1 else ''}"


def _cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"
