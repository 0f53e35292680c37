"""A candidate position from the piles read: read cards where read, ``??`` elsewhere,
face-down cards as counted, checked by the rules engine; its problems as notes."""

from __future__ import annotations

from collections import Counter

from ..cards import RANK_CODE, UNKNOWN, Card, code_text
from ..errors import CompanionError
from ..rules import Position, deal
from .face_down import face_down_as_built
from .frame import PileReading
from .shape import table_shape


def build_position(out: PileReading, v):
    """A candidate position: read cards where read, ``??`` elsewhere, face-down cards as
    counted (as dealt where not counted, or counted more than dealt)."""
    template = deal(v.key, None).to_json()
    piles = template["piles"]
    shape = table_shape(v)
    for name, dets in out.piles.items():
        fd = piles.get(name, {}).get("face_down", 0)
        if name.startswith("f"):   # foundations: only the top card shows
            top = dets[-1]
            # the cards under it, where the foundation's build says how many (A up to it)
            n = shape.foundation_cards(name, top.rank)
            cards = ["??"] * (n - 1) + [_json(top)]
            piles[name] = {"cards": cards, "face_down": 0}
            continue
        counted = out.face_down.get(name)
        fd = face_down_as_built(counted, fd)
        if fd and fd != counted:   # not from the count
            out.as_dealt.append(name)
        cards = ["??"] * fd + [_json(d) for d in dets]
        piles[name] = {"cards": cards, "face_down": fd}
        for d in dets:
            if d.uncertain:
                out.problems.append(f"{name}: {code_text(d.code)}? uncertain "
                                    f"({d.note}, {d.confidence:.0%})")
    _gaps_of_the_deal(out, v, piles)
    # the rest of the deck: unseen, in the stock if there is one
    used = sum(len(p["cards"]) for n, p in piles.items() if n != "s")
    if "s" in piles:
        rest = max(0, v.deck_size - used)
        piles["s"] = {"cards": ["??"] * rest, "face_down": rest}
    template["seed"] = None
    try:
        pos = Position.from_json(template)
    except CompanionError as exc:
        out.problems.append(f"the position read is not valid: {exc}")
        return
    out.position = pos
    out.status = pos.status()
    for flag in type(out.status):
        if flag.value and flag in out.status:
            out.problems.append(f"position check: {flag.name.lower().replace('_', ' ')}"
                                + (_copies_text(out, pos, v) if flag.name == "TOO_MANY_COPIES"
                                   else ""))


def _gaps_of_the_deal(out: PileReading, v, piles) -> None:
    """Where the deal leaves places empty and puts cards aside (Gaps: the four aces out,
    four gaps), the places no card was read on are those gaps when there are as many of
    them as the deal leaves, and the cards put aside lie aside (``out.empty``); the rules
    say which: any seeded deal of the variant, against its deal unseeded (every place
    waiting for a card). More places unread, or fewer, stay waiting: which are gaps is not
    known."""
    sample = deal(v.key, 1).to_json()["piles"]
    gaps = [n for n, p in sample.items() if not p["cards"] and piles.get(n, {}).get("cards")]
    if not gaps:
        return
    aside = {n: p for n, p in sample.items() if p["cards"] and not piles.get(n, {}).get("cards")}
    unread = [n for n, p in piles.items() if n not in out.piles and n not in aside
              and p["cards"] and p["face_down"] < len(p["cards"])]
    if len(unread) != len(gaps):
        return
    for n in unread:
        piles[n] = {"cards": [], "face_down": 0}
    piles.update(aside)
    out.empty = unread
    out.aside = [Card.parse(c).code for p in aside.values() for c in p["cards"]]


def _copies_text(out: PileReading, pos, v) -> str:
    """``: 10♥ twice (t3, t6)``: the cards read more often than the variant's decks hold
    them, and the piles they were read in."""
    counts = Counter(c for p in pos.piles for c in p if c != UNKNOWN)
    where: dict[int, list[str]] = {}
    for name, dets in out.piles.items():
        for d in dets:
            where.setdefault(d.code, []).append(name)
    over = sorted(c for c, n in counts.items() if n > v.decks)
    if not over:
        return ""
    times = {2: "twice", 3: "three times"}
    return ": " + ", ".join(f"{code_text(c)} {times.get(counts[c], f'{counts[c]} times')}"
                            + (f" ({', '.join(where[c])})" if c in where else "")
                            for c in over)


def _json(d):
    return RANK_CODE[d.rank] + "SHDC"[d.suit]
