"""Uncertain cards of the piles read named from the rules, never by guessing: by the
tableau's build (:func:`infer_from_build`, :func:`recheck_builds`), the foundations
(:func:`infer_from_foundations`) and, in Gaps, by elimination (:func:`infer_by_elimination`).
The second looks at the photo for cards not read are in :mod:`.second_look`."""

from __future__ import annotations

import itertools
import math
import statistics
from collections import Counter

from ..cards import code_text
from ..rules import face_up_runs_are_builds
from ..rules.describe import foundation_cards, tableau_cards
from .config import DEFAULT, ReadConfig
from .frame import PileReading
from .resolve import COPY_TOO_MANY, _same_card


def runs_are_builds(v) -> bool:
    """Whether the rules make every tableau pile's face-up cards a build (the rules engine's
    :func:`companion.rules.face_up_runs_are_builds`)."""
    return face_up_runs_are_builds(v)


def _is_tab(name) -> bool:
    return name.startswith("t") and name[1:].isdigit()


def infer_from_build(out: PileReading, dets, v, *, config: ReadConfig = DEFAULT) -> list:
    """Resolve uncertain cards of the tableau piles' face-up runs from the rules, never by
    guessing: a card's readings (the best and the alternatives at least
    ``config.min_alternative`` probable) are kept when the card is not already read sure as often
    as the deck has it, and the variant's build (the rules engine's
    ``variant.tableau.build.allows``) lets it lie on the card below it and take the card above
    it in the pile. The bottom card of a run (on face-down cards, or on nothing) has no card
    below; a neighbour that is itself uncertain (or inferred), or so far away that a card may have been
    missed between them, says nothing. When the neighbours constrain the card and exactly one
    reading fits, that reading is taken: the detection is no longer uncertain and carries
    ``inferred`` (what was read, its probability, why). Otherwise it stays uncertain. A card
    read sure but left uncertain as a copy too many (the same card read sure elsewhere) has
    its rank trusted and its suit doubted: every suit of its rank is a reading too (as
    :func:`recheck_builds` takes a sure card that breaks the build). Nothing is inferred in
    variants whose runs need not be builds (:func:`runs_are_builds`).

    Returns the detections inferred."""
    ctx = _build_context(out, v)
    if ctx is None:
        return []
    build, piles, step = ctx
    why = f"the only reading the {_pile_word(v)}'s build allows"
    sure = _sure_counts(dets)
    done = []
    for ds in piles.values():
        for j, d in enumerate(ds):
            if not d.uncertain:
                continue
            lower = _neighbour(ds, j, j - 1, step, config)
            upper = _neighbour(ds, j, j + 1, step, config)
            if lower is None and upper is None:
                continue   # nothing in the pile constrains the card
            read = [(d.code, d.confidence)] + list(d.alternatives) + list(d.given_ink)
            readings = read
            if d.note.endswith(COPY_TOO_MANY) and d.confidence >= config.threshold:
                # read sure but a copy too many: its rank is trusted, its suit is what the
                # model reads worst on a deck it has not seen (see :func:`recheck_builds`)
                readings = read + [(s * 13 + d.code % 13, d.confidence) for s in range(4)]
            fits = []
            for code, p in readings:
                if p < config.min_alternative or code in (c for c, _ in fits):
                    continue
                if sure.get(code, 0) >= v.decks:
                    continue   # every copy of it is read elsewhere in the photo
                if lower is not None and not build.allows(lower, code):
                    continue
                if upper is not None and not build.allows(code, upper):
                    continue
                fits.append((code, p))
            if len(fits) != 1:
                continue
            code, p = fits[0]
            told = why
            if not any(c == code and q >= config.min_alternative for c, q in read):
                told = f"a copy too many; {_of_its_rank(v)}"   # (by its rank alone)
            d.inferred = (d.code, d.confidence, told)
            d.note = f"read {d.confidence:.0%} as {_text(d.code)}; {told}"
            d.code, d.confidence, d.uncertain = code, p, False
            sure[code] = sure.get(code, 0) + 1
            done.append(d)
    return done


def _pile_word(v) -> str:
    """What the variant's tableau piles are called in a note: ``column`` or ``pile``."""
    return "column" if v.tableau.layout == "columns" else "pile"


def _of_its_rank(v) -> str:
    """Why a card read sure was given another suit of its rank (a note's words)."""
    return f"the only card of its rank the {_pile_word(v)}'s build allows"


def _build_context(out: PileReading, v):
    """What the build checks of a photo's columns need: (the variant's build, the tableau
    piles read, the median step between neighbouring cards in card sizes), or None where
    the variant's face-up runs need not be builds or no pile has two cards."""
    if not runs_are_builds(v):
        return None
    piles = {n: ds for n, ds in out.piles.items() if _is_tab(n)}
    steps = [math.hypot(b.x - a.x, b.y - a.y) / max(a.size, b.size, 1e-6)
             for ds in piles.values() for a, b in itertools.pairwise(ds)]
    if not steps:
        return None
    return v.tableau.build, piles, statistics.median(steps)


def _sure_counts(dets) -> dict[int, int]:
    """How many times each card is read sure in the photo."""
    sure: dict[int, int] = {}
    for d in dets:
        if not d.uncertain:
            sure[d.code] = sure.get(d.code, 0) + 1
    return sure


def recheck_builds(out: PileReading, dets, v, *, config: ReadConfig = DEFAULT) -> list:
    """A card read sure that breaks the build with both its neighbours (read sure, close
    enough for no card to be missed between) is misread, not the two of them: its suit (or
    colour) is what the model reads worst on a deck it has not seen. So is a card at either
    end of a run (on face-down cards or nothing, or the pile's last) that breaks the build
    with its one neighbour when the photo also shows that card more often than the deck has
    it (each reading alone could be the wrong one; together they point at this one). Its
    rank as read, in the one suit that fits the neighbours and is not read sure elsewhere,
    is taken from the rules (``inferred``), and the other reading of the card, left uncertain
    as a copy too many, is sure again; where no suit or several do, it is marked uncertain,
    never kept as read. Only in variants whose face-up runs are builds
    (:func:`runs_are_builds`).

    Returns the detections changed."""
    ctx = _build_context(out, v)
    if ctx is None:
        return []
    build, piles, step = ctx
    sure = _sure_counts(dets)
    seen: dict[int, int] = {}
    for o in dets:
        seen[o.code] = seen.get(o.code, 0) + 1
    done = []
    for ds in piles.values():
        for j, d in enumerate(ds):
            if d.uncertain or d.inferred is not None:
                continue
            lower = _neighbour(ds, j, j - 1, step, config)
            upper = _neighbour(ds, j, j + 1, step, config)
            if lower is None and upper is None:
                continue
            if (lower is not None and build.allows(lower, d.code)) \
                    or (upper is not None and build.allows(d.code, upper)):
                continue
            if (lower is None and j > 0) or (upper is None and j < len(ds) - 1) \
                    or ((lower is None or upper is None) and seen.get(d.code, 0) <= v.decks):
                continue   # a neighbour unread or too far, or one neighbour alone
            rank = d.code % 13
            fits = [s * 13 + rank for s in range(4)
                    if s * 13 + rank != d.code and sure.get(s * 13 + rank, 0) < v.decks
                    and (lower is None or build.allows(lower, s * 13 + rank))
                    and (upper is None or build.allows(s * 13 + rank, upper))]
            sure[d.code] -= 1
            seen[d.code] -= 1
            if lower is None or upper is None:
                _sure_again(dets, d, sure, v, config)
            if len(fits) == 1:
                why = _of_its_rank(v)
                d.inferred = (d.code, d.confidence, why)
                d.note = f"read {d.confidence:.0%} as {_text(d.code)}; {why}"
                d.code = fits[0]
                sure[d.code] = sure.get(d.code, 0) + 1
                seen[d.code] = seen.get(d.code, 0) + 1
            else:
                d.uncertain = True
                if lower is not None and upper is not None:
                    d.note = (f"{_text(d.code)} does not fit the build between {_text(lower)} "
                              f"and {_text(upper)}")
                elif upper is not None:
                    d.note = f"{_text(upper)} cannot lie on {_text(d.code)}"
                else:
                    d.note = f"{_text(d.code)} cannot lie on {_text(lower)}"
            done.append(d)
    return done


def _sure_again(dets, d, sure, v, config):
    """The other readings of ``d``'s card left uncertain only as a copy too many are sure
    again, as far as the deck has copies: ``d`` was the copy too many."""
    for o in sorted(dets, key=lambda o: -o.confidence):
        if o is not d and o.code == d.code and o.uncertain and o.inferred is None \
                and o.confidence >= config.threshold and o.note.endswith(COPY_TOO_MANY) \
                and sure.get(o.code, 0) < v.decks:
            o.uncertain, o.note = False, ""
            sure[o.code] = sure.get(o.code, 0) + 1


def infer_from_foundations(out: PileReading, dets, v, *, config: ReadConfig = DEFAULT) -> list:
    """Resolve an uncertain foundation top card from the rules: a foundation seen by its top
    card holds the cards under it that the rules fix (the rules engine's
    :func:`companion.rules.describe.foundation_cards`: Klondike's 4♥ means A♥-4♥ there), so a
    reading is kept only when none of the cards it puts there is read sure elsewhere in the
    photo or held by another foundation read sure, as often as the deck has it. When exactly
    one of several readings at least ``config.min_alternative`` probable is kept, it is taken
    (``inferred`` says what was read and why); otherwise the card stays uncertain. Nothing is
    inferred in variants whose foundations' cards the rules do not fix.

    Returns the detections inferred."""
    names = [n for n in out.piles if n.startswith("f") and n[1:].isdigit() and out.piles[n]]
    if not names or foundation_cards(v, 0) is None:
        return []
    why = "the only reading the foundations allow"
    done = []
    for name in names:
        d = out.piles[name][-1]
        if not d.uncertain:
            continue
        sure = Counter(o.code for o in dets if not o.uncertain and o is not d)
        for other in names:
            top = out.piles[other][-1]
            if other != name and not top.uncertain:
                sure.update((foundation_cards(v, top.code) or [])[:-1])
        fits, likely = [], set()
        for code, p in [(d.code, d.confidence)] + list(d.alternatives):
            if p < config.min_alternative or code in likely:
                continue
            likely.add(code)
            held = foundation_cards(v, code)
            if held and all(sure[c] < v.decks for c in held):
                fits.append((code, p))
        if len(fits) != 1 or len(likely) < 2:
            continue   # the rules leave several readings, or had nothing to settle
        code, p = fits[0]
        d.inferred = (d.code, d.confidence, why)
        d.note = f"read {d.confidence:.0%} as {_text(d.code)}; {why}"
        d.code, d.confidence, d.uncertain = code, p, False
        done.append(d)
    return done


def infer_by_elimination(out: PileReading, v, dets=None) -> list:
    """Gaps: every card but the gap rank's lies in the rows, once, whatever the moves
    (:func:`companion.rules.describe.tableau_cards`). Where the cards read sure there are all different and
    as many cards are not read sure as readings in the rows are uncertain, each uncertain
    reading is one of those cards: one that is among its readings (any of the four likeliest)
    and no other's is taken, and so on while one is left (``inferred`` says what was read and
    why). A card of the gap rank read sure in the rows is read wrong: it is made uncertain
    first. A reading that is no card at all, with a card missed elsewhere, keeps the counts
    equal: the readings' test leaves it uncertain. The card's other corner, read as that card
    but left out of the rows for disagreeing with this one, joins it (out of ``out.unplaced``
    and ``dets``).

    Returns the detections inferred."""
    deck = tableau_cards(v)
    if deck is None:
        return []
    # the rows' cells (a1 ... d13), not an aside pile of the gap rank's cards
    placed = [d for name, ds in out.piles.items() if name[1:].isdigit() for d in ds]
    for d in placed:
        if not d.uncertain and d.code not in deck:
            d.uncertain = True
            d.note = (f"read {d.confidence:.0%} as {_text(d.code)}, but the rows hold no "
                      f"{v.gaps.gap_rank} (taken out to make the gaps)")
    sure = [d.code for d in placed if not d.uncertain]
    unsure = [d for d in placed if d.uncertain]
    if not unsure or len(set(sure)) != len(sure):
        return []
    unread = deck - set(sure)
    if len(unread) != len(unsure):
        return []
    why = "the only card not read elsewhere in the rows"
    done = []
    while unsure:
        options = {id(d): {d.code, *(c for c, _ in d.alternatives)} & unread for d in unsure}
        d = next((d for d in unsure if len(options[id(d)]) == 1), None)
        if d is None:
            break
        code = options[id(d)].pop()
        p = d.confidence if code == d.code else dict(d.alternatives)[code]
        d.inferred = (d.code, d.confidence, why)
        d.note = f"read {d.confidence:.0%} as {_text(d.code)}; {why}"
        d.code, d.confidence, d.uncertain = code, p, False
        unread.discard(code)
        unsure.remove(d)
        done.append(d)
        twin = next((o for o in out.unplaced if o.code == code
                     and (_same_card(d, o) or _same_card(o, d))), None)
        if twin is not None:
            d.corners, d.other = 2, (twin.x, twin.y, twin.up)
            out.unplaced.remove(twin)
            if dets is not None and twin in dets:
                dets.remove(twin)
    return done


def _neighbour(ds, j, k, step, config):
    """The code of card ``k`` of a pile as a constraint on card ``j``: None where there is no
    such card, it is not read sure, or it lies too far for nothing to be missed between."""
    if not 0 <= k < len(ds) or ds[k].uncertain or ds[k].inferred is not None:
        return None
    d, o = ds[j], ds[k]
    far = math.hypot(o.x - d.x, o.y - d.y) / max(o.size, d.size, 1e-6)
    return o.code if far <= config.adjacent * step else None


def inferred_text(d, card=None) -> str:
    """``read 54% as Q♣; the only reading the column's build allows``: how an inferred card
    was named (``card``: code -> text, default with suit symbols)."""
    code, p, why = d.inferred
    return f"read {p:.0%} as {(card or _text)(code)}; {why}"


def _text(code) -> str:
    """A card in a note or a problem (``10♥``): as the rest of the output writes it (the
    commands show them through their display, letters under ``--ascii``)."""
    return code_text(code)
