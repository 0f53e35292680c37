"""With a variant: the detections grouped into piles, and a candidate position checked by the
rules engine.

The photo is turned so that the layout's "up" points up; distances are measured in index sizes
(the pip-rank distance), so the grouping does not depend on the photo's scale. Which layout
to read is the variant's table shape (:mod:`.shape`, from its pieces, never its name):
cascaded columns (the games whose tableau piles are t1...tN, with a top row of stock, waste
and foundations where one lies above them, as in Klondike), a grid's rows (Gaps), a
pyramid's rows, rows of fans (the House games), columns with the waste below (Golf).
Face-down cards in a column are counted from their backs (:mod:`.backs`) when the photo is
given, checked against the deal (a pile never holds more face-down cards than were dealt
there); where they cannot be counted they are taken as dealt, and the reading says so.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from ..cards import RANK_CODE, UNKNOWN, Card, code_text
from ..errors import CompanionError
from ..rules import Position, deal, face_up_runs_are_builds, load_variant
from ..rules.describe import foundation_cards, tableau_cards
from .config import DEFAULT, ReadConfig
from .detect import min_channel
from .read import COPY_TOO_MANY, Detection, _same_card, dominant_up
from .shape import GRID_ROWS, table_shape


@dataclass
class PileReading:
    variant: str
    piles: dict                       # pile name -> list of Detection, bottom first
    problems: list = field(default_factory=list)
    unplaced: list = field(default_factory=list)
    position: object = None           # Position or None
    status: object = None
    face_down: dict = field(default_factory=dict)   # pile -> backs counted (None: not counted)
    room: int = 0                     # piles the columns could still shift right (t1 empty)
    as_dealt: list = field(default_factory=list)    # piles whose face-down cards are as dealt
    empty: list = field(default_factory=list)       # places taken for the deal's gaps (Gaps)
    aside: list = field(default_factory=list)       # ... and the cards the deal put aside


def _frame(dets, up, unit=None):
    """Coordinates with up = (0, -1): x right, y down, in units of the median index size."""
    import statistics
    if unit is None:
        unit = statistics.median(d.size for d in dets) if dets else 1.0
    ux, uy = up
    # right vector = (-uy, ux) for up in image coordinates (y down)
    rx, ry = -uy, ux
    return [((d.x * rx + d.y * ry) / unit, -(d.x * ux + d.y * uy) / unit) for d in dets]


def _clusters(values, gap):
    """Groups of indices of values split where consecutive sorted values differ by > gap."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    groups, cur = [], []
    for i in order:
        if cur and values[i] - values[cur[-1]] > gap:
            groups.append(cur)
            cur = []
        cur.append(i)
    if cur:
        groups.append(cur)
    return groups


def map_piles(dets, variant_key: str, rgb=None, flip: bool | None = None,
              infer: bool = True, *, config: ReadConfig = DEFAULT) -> PileReading:
    """The detections grouped into the variant's piles; ``rgb`` (the working image the
    detections were read in) lets face-down cards be counted from their backs.

    The photo's perspective is undone first (:func:`rectify`); the layout is then read both
    ways up (a card whose two corners both show does not say which is its top) and the
    reading with fewer problems and fewer cards left out is kept; then the one with more
    card backs above its columns; then the one closer to the photo's own up (a layout that
    reads the same both ways, like Gaps, is taken as photographed from the player's side).
    ``flip``: force the way (False: the indices' majority up, True: the other). ``infer``:
    resolve uncertain cards from the rules where only one reading fits (the build, the
    foundations, Gaps' rows: :func:`infer_from_build` and the others; they change those
    detections in place), and look again for cards the rows must hold (:func:`find_unread`,
    which adds them to ``dets``). ``config``: the reading's thresholds and switches
    (:class:`~companion.vision.config.ReadConfig`)."""
    v = load_variant(variant_key)
    shape = table_shape(v)
    if infer:
        find_unread(dets, v, config=config)
    flat = rectify(dets)
    if _spread(flat) < 0.5 * _spread(dets) or _spread(flat) > 2 * _spread(dets):
        from dataclasses import replace  # a perspective fit gone wrong: the photo as it is
        flat = [replace(d) for d in dets]
    # a grid of face-up cards (Gaps) looks the same turned round (every card shows both
    # corners): each card read at one corner is given its other, and the photo's own up
    # names the way
    both_ways = shape.both_ways
    if both_ways:
        _lend_corners(flat, config)
    up = dominant_up(flat)
    up0 = dominant_up(dets)
    mn = None
    if rgb is not None:
        mn = min_channel(rgb)
    best = None
    signs = (1, -1) if flip is None else ((-1,) if flip else (1,))
    backs = rgb is not None and tabs_with_backs(v)
    for sign in signs:
        way = (sign * up[0], sign * up[1])
        turned = [_turned(d, way) for d in flat]
        first = _map(turned, way, v, config)
        # fewer columns than piles (t1 emptied, or not read): the columns may start further
        # right; the top row's places and the face-down counts say where
        for shift in range(first.room + 1):
            out = first if not shift else _map(turned, way, v, config, shift)
            score = [len(out.problems) + len(out.unplaced), 0, sign * up0[1], 0, shift]
            if both_ways:
                # the reading whose row a lies nearer the photo's top edge (where a photo
                # turned a quarter round leaves the indices' own up no guide)
                lower = _first_row_lower(_in_photo(out, flat, dets), shape) \
                    if config.rows_by_place else None
                score[0], score[2] = score[2] if lower is None else lower, score[0]
            if backs:
                # backs lie above a column's first face-up card: tells the way up when the
                # corners cannot (every card with both corners showing); counted in the
                # photo, on the detections as read there
                img_way = (sign * up0[0], sign * up0[1])
                seen = _in_photo(out, flat, dets)
                count_face_down(seen, v, rgb, img_way, problems=False, mn=mn)
                n = sum(n or 0 for n in seen.face_down.values())
                score[1] = -n
                score[3] = _over_dealt(seen, v)   # a count can be one too many: last
                # and they outweigh a card or two left over: read the wrong way up, a
                # layout shows none above its columns
                score[0] -= n // config.backs_per_card
            if best is None or score < best[0]:
                best = (score, out, sign)
    out, sign = _in_photo(best[1], flat, dets), best[2]
    way = (sign * up0[0], sign * up0[1])
    if rgb is not None:
        count_face_down(out, v, rgb, way, mn=mn)
    if infer:
        recheck_builds(out, dets, v, config=config)
        infer_from_build(out, dets, v, config=config)
        fill_gaps(out, dets, v, config=config)
        infer_from_foundations(out, dets, v, config=config)
        infer_by_elimination(out, v, dets)
    build_position(out, v)
    return out


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


def fill_gaps(out: PileReading, dets, v, *, config: ReadConfig = DEFAULT) -> list:
    """Cards the recognizer did not take for an index, read where a tableau pile's layout and
    the rules say a card lies:

    - in a gap: two cards of a face-up run, read sure, about two steps apart (one card's step
      missing between them; or at least ``config.gap_apart`` index sizes), that do not build on
      each other;
    - at the head of a run: one step above its first card read sure;
    - in the waste's fan: halfway between two cards read sure ``config.fan_gap`` apart, or a
      step before the first of two neighbours (the fan's deepest card), any card not read
      elsewhere, but only a candidate read at least ``config.fan_sure``.

    The detector's candidate index there (:meth:`~companion.vision.read.Latent.near`), however
    unlikely the recognizer found it to be an index, is read by the heads (with the refiner,
    the pip's ink and a deck's calibration); the card is taken when, given that it is an index,
    its best reading is a card the build allows there (between the two, or on the first),
    not read sure elsewhere as often as the deck has it, and at least ``config.gap_sure``
    probable (``inferred`` says what was read and why). A wrong reading would have to be one
    of the two or so cards the build allows there. Only in variants whose face-up runs are builds
    (:func:`runs_are_builds`).

    Returns the detections added (to ``dets`` and their pile, in order)."""
    latent = getattr(dets, "latent", None)
    ctx = _build_context(out, v)
    if latent is None or ctx is None:
        return []
    build, piles, step = ctx
    word = _pile_word(v)
    sure = _sure_counts(dets)
    done = []

    def read_at(x, y, size, up, fits, where, least=0.0, p_min=config.gap_sure):
        d = _look_at(latent, x, y, size, up, fits, where, p_min, least)
        if d is not None:
            dets.append(d)
            sure[d.code] = sure.get(d.code, 0) + 1
            done.append(d)
        return d

    def between(a, b, fits, where, p_min=config.gap_sure):
        """The second look halfway between two cards of a pile, facing as they do."""
        up = (a.up[0] + b.up[0], a.up[1] + b.up[1])
        n = math.hypot(*up) or 1.0
        return read_at((a.x + b.x) / 2, (a.y + b.y) / 2, (a.size + b.size) / 2,
                       (up[0] / n, up[1] / n), fits, where, p_min=p_min)

    def free(x) -> bool:
        return sure.get(x, 0) < v.decks

    def known(d) -> bool:
        return not d.uncertain and d.inferred is None

    for ds in piles.values():
        j = 0
        while j + 1 < len(ds):
            a, b = ds[j], ds[j + 1]
            j += 1
            if not (known(a) and known(b)) or build.allows(a.code, b.code):
                continue
            far = math.hypot(b.x - a.x, b.y - a.y) / max(a.size, b.size, 1e-6)
            if not min(config.adjacent * step, config.gap_apart) < far < 2.6 * step:
                continue
            fits = [x for x in range(52) if free(x)
                    and build.allows(a.code, x) and build.allows(x, b.code)]
            d = between(a, b, fits,
                        f"where the {word}'s run leaves a gap, a card its build allows there")
            if d is not None:
                ds.insert(j, d)
        if ds and known(ds[0]):
            a = ds[0]
            vx, vy = a.up[0] * step * a.size, a.up[1] * step * a.size
            # a step read from the sizes (where the pile gives none of its own) is off where
            # the photo's perspective makes this pile's step another: a little nearer and
            # further are looked at too
            steps = config.above_steps
            if len(ds) > 1 and math.hypot(a.x - ds[1].x, a.y - ds[1].y) \
                    <= config.adjacent * step * max(a.size, ds[1].size):
                vx, vy = a.x - ds[1].x, a.y - ds[1].y   # the pile's own step
                steps = (1.0,)
            fits = [x for x in range(52) if free(x) and build.allows(x, a.code)]
            for f in steps:
                d = read_at(a.x + f * vx, a.y + f * vy, a.size, a.up, fits,
                            f"above the {word}'s run, a card its build allows there",
                            0.0 if f == 1.0 else config.above_sure)
                if d is not None:
                    ds.insert(0, d)
                    break
    # the waste's fan: any card may lie there, so only a candidate read surely
    fan = out.piles.get("w", [])
    j = 0
    while j + 1 < len(fan):
        a, b = fan[j], fan[j + 1]
        j += 1
        if not (known(a) and known(b)) or a.up[0] * b.up[0] + a.up[1] * b.up[1] < 0.8:
            continue   # (a card seen by its other corner lies elsewhere)
        far = math.hypot(b.x - a.x, b.y - a.y) / max(a.size, b.size, 1e-6)
        if not config.fan_gap[0] <= far <= config.fan_gap[1]:
            continue
        d = between(a, b, [x for x in range(52) if free(x)],
                    "where the waste's fan leaves a gap", p_min=config.fan_sure)
        if d is not None:
            fan.insert(j, d)
    if len(fan) == 2 and all(map(known, fan)) \
            and fan[0].up[0] * fan[1].up[0] + fan[0].up[1] * fan[1].up[1] >= 0.8:
        a, b = fan
        if math.hypot(b.x - a.x, b.y - a.y) / max(a.size, b.size, 1e-6) <= config.fan_gap[0]:
            d = read_at(2 * a.x - b.x, 2 * a.y - b.y, a.size, a.up,
                        [x for x in range(52) if free(x)],
                        "a step before the waste's fan", p_min=config.fan_sure)
            if d is not None:
                fan.insert(0, d)
    return done


def _look_at(latent, x, y, size, up, fits, where, p_min, least=0.0):
    """The second look of :func:`fill_gaps`: the detector's likeliest candidate index about
    (x, y), read by the heads, as a detection when its best reading is one of ``fits`` at
    least ``p_min`` probable (given that it is an index) and the recognizer took it for an
    index at least ``least``; else None. ``where`` says where it was looked for (in its
    note)."""
    if not fits:
        return None
    found = latent.near(x, y, size, up)
    if not found:
        return None
    obj, reads, pip, rank = found[0]
    code, p = reads[0]
    if code not in fits or p < p_min or obj < least:
        return None
    d = Detection(code, p, (pip[0] + rank[0]) / 2, (pip[1] + rank[1]) / 2, up,
                  math.hypot(rank[0] - pip[0], rank[1] - pip[1]),
                  alternatives=reads[1:4], pip_at=pip, rank_at=rank)
    why = f"found on a second look {where}"
    d.inferred = (code, p, why)
    d.note = f"read {p:.0%} as {_text(code)}; {why} (first taken {obj:.0%} for an index)"
    return d


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
    import statistics
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
    from collections import Counter

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


def find_unread(dets, v, *, config: ReadConfig = DEFAULT) -> list:
    """Gaps: every card but the aces lies in the rows, so a card read nowhere in the photo is
    there all the same. The photo's candidate indices not read at first (a rank glyph and its
    pip blurred into one blob and cut at its waist, among them: see
    :class:`~companion.vision.read.Latent`) are looked at again, and one taken for an index
    (``config.objectness``) whose best reading is such a card, at least
    ``config.unread_sure`` probable, where no card is read, is taken (``inferred`` says what was
    read and why). Before the cards are placed in the rows, so that they are placed too.

    Returns the detections added (to ``dets``)."""
    import numpy as np

    deck = tableau_cards(v)
    latent = getattr(dets, "latent", None)
    if deck is None or latent is None or not len(latent.c.pip):
        return []
    unread = deck - {d.code for d in dets if not d.uncertain}
    if not unread or len(unread) > config.unread_max:
        return []
    c, k = latent.c, latent.scale
    # the candidates taken for an index whose best reading is a card unread
    idx = np.flatnonzero(latent.obj >= config.objectness)
    best = latent.ps[idx, :4].argmax(1) * 13 + latent.pr[idx, :13].argmax(1)
    look = idx[np.isin(best, sorted(unread))].tolist()
    why = "found on a second look: a card that lies in the rows and was not read elsewhere"
    done = []
    for i in look:
        pip, rank = c.pip[i] / k, c.rank[i] / k
        size = float(np.hypot(*(rank - pip)))
        x, y = (pip + rank) / 2
        if size <= 0 or any(math.hypot(x - d.x, y - d.y) < 0.7 * max(size, d.size) for d in dets):
            continue
        up = tuple((rank - pip) / size)
        for obj, reads, p_at, _ in latent.near(x, y, size, up):
            if max(abs(p_at[0] - pip[0]), abs(p_at[1] - pip[1])) > 0.5:
                continue   # another candidate there
            code, p = reads[0]
            if code in unread and p >= config.unread_sure and obj >= config.objectness:
                d = Detection(code, p, float(x), float(y), (float(up[0]), float(up[1])), size,
                              alternatives=reads[1:4], pip_at=tuple(map(float, pip)),
                              rank_at=tuple(map(float, rank)))
                d.inferred = (code, p, why)
                d.note = f"read {p:.0%} as {_text(code)}; {why} (first taken {obj:.0%} for an index)"
                dets.append(d)
                unread.discard(code)
                done.append(d)
            break
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


def rectify(dets):
    """Copies of the detections with the perspective of the photo undone, up to an affine map.

    Under perspective the size of an index varies across the photo: with the table-to-photo
    homography's denominator 1 + g.p, an index's size goes as (1 + g.p)^1.5. A least-squares
    fit of size^(2/3) over the indices gives g; p -> p / (1 + g.p) then leaves an affine view
    of the table, where columns are parallel and evenly spaced."""
    from dataclasses import replace

    import numpy as np
    if len(dets) < 8:
        return [replace(d) for d in dets]
    P = np.array([(d.x, d.y) for d in dets], np.float64)
    m = P.mean(0)
    scale = float(np.abs(P - m).max()) or 1.0
    Q = (P - m) / scale
    z = np.array([d.size for d in dets], np.float64) ** (2 / 3)
    A = np.c_[np.ones(len(Q)), Q]
    keep = np.ones(len(Q), bool)
    coef = None
    for _ in range(3):
        coef, *_ = np.linalg.lstsq(A[keep], z[keep], rcond=None)
        res = np.abs(A @ coef - z) / np.maximum(z, 1e-6)
        keep = res < max(0.08, float(np.percentile(res, 80)))
        if keep.sum() < 6:
            return [replace(d) for d in dets]
    if coef is None or coef[0] <= 0:
        return [replace(d) for d in dets]
    g = coef[1:] / coef[0]
    den = 1 + Q @ g
    if den.min() < 0.3:
        return [replace(d) for d in dets]

    def h(q):
        return q / (1 + q @ g)

    out = []
    for d, q in zip(dets, Q, strict=True):
        a = h(q)
        tip = h(q + np.array(d.up) * d.size / scale)
        vec = (tip - a) * scale
        n = float(np.hypot(*vec)) or 1.0
        other = d.other
        if other is not None:
            qo = (np.array(other[:2]) - m) / scale
            ao = h(qo) * scale
            to = h(qo + np.array(other[2]) * d.size / scale) * scale - ao
            no = float(np.hypot(*to)) or 1.0
            other = (float(ao[0]), float(ao[1]), (float(to[0] / no), float(to[1] / no)))
        out.append(replace(d, x=float(a[0] * scale), y=float(a[1] * scale),
                           up=(float(vec[0] / n), float(vec[1] / n)), size=n, other=other))
    return out


def _spread(dets) -> float:
    """The layout's extent in index sizes."""
    import statistics
    if len(dets) < 2:
        return 1.0
    xs, ys = [d.x for d in dets], [d.y for d in dets]
    unit = statistics.median(d.size for d in dets) or 1.0
    return max(max(xs) - min(xs), max(ys) - min(ys)) / unit


def _turned(d, way):
    """``d`` as seen with the layout's up = ``way``: a card whose two corners were read is
    placed at the corner that is upright that way."""
    from dataclasses import replace
    if d.other is not None and d.up[0] * way[0] + d.up[1] * way[1] < 0:
        x, y, up = d.other
        t = replace(d, x=x, y=y, up=up)
    else:
        t = replace(d)
    t._src = getattr(d, "_src", d)
    return t


def _first_row_lower(out: PileReading, shape) -> float | None:
    """How much lower in the photo the first row's cards lie than the last row's (mean
    pixels; rows named by their piles' first letter, a to d in Gaps), or None with either
    empty."""
    rows: dict[str, list[float]] = {}
    for name, ds in out.piles.items():
        rows.setdefault(name[0], []).extend(d.y for d in ds)
    first, last = rows.get("a"), rows.get(GRID_ROWS[shape.grid[0] - 1])
    if not first or not last:
        return None
    return sum(first) / len(first) - sum(last) / len(last)


def _in_photo(out: PileReading, flat, dets) -> PileReading:
    """A copy of ``out`` (read on the rectified copies ``flat``) holding the detections as
    read in the photo, ``dets``."""
    from dataclasses import replace
    orig = {id(f): d for f, d in zip(flat, dets, strict=True)}
    return replace(out, piles={name: [orig[id(getattr(d, "_src", d))] for d in ds]
                               for name, ds in out.piles.items()},
                   unplaced=[orig[id(getattr(d, "_src", d))] for d in out.unplaced],
                   problems=list(out.problems), face_down={})


def _over_dealt(out: PileReading, v) -> int:
    """How many piles have more face-down cards counted than the variant deals there."""
    t = deal(v.key, None)
    dealt = dict(zip(t.engine.names, t.down, strict=True))
    return sum(1 for name, n in out.face_down.items() if n is not None and n > dealt.get(name, 0))


def _map(dets, up, v, config, shift: int = 0) -> PileReading:
    """The grouping itself, on rectified detections, for one way up; ``shift``: the columns
    (and the top row above them) start that many piles to the right (t1 empty or unread).
    ``room`` in the result: how many piles the columns found could still shift right."""
    from functools import partial

    names = v.engine().names
    shape = table_shape(v)
    # cards whose "up" disagrees with the layout (bottom corners of top cards) carry no order
    upright = [d for d in dets if d.up[0] * up[0] + d.up[1] * up[1] > 0.5]
    ids = {id(d) for d in upright}
    out = PileReading(v.key, {}, unplaced=[d for d in dets if id(d) not in ids])
    if not upright:
        out.problems.append("no upright card index found")
        return out
    import statistics
    unit = statistics.median(d.size for d in upright)
    xy = _frame(upright, up, unit)
    xs = [p[0] for p in xy]
    ys = [p[1] for p in xy]
    tabs = [n for n in names if n.startswith("t") and n[1:].isdigit()]
    if shape.grid:
        weak = None
        if config.place_sure_first:
            sure = {d.code for d in dets if not d.uncertain}
            weak = [2 if d.uncertain and d.confidence < config.threshold
                    else 1 if config.copies_placed_last and d.uncertain and d.code in sure
                    else 0
                    for d in upright]
        grid_rows = shape.grid[0]
        placed, rest, nrows = _lean_fit(
            xs, ys, partial(_gaps_places, weak=weak, grid=shape.grid), gap=2.5)
        if nrows != grid_rows:
            out.problems.append(f"found {nrows} rows of cards; {v.name} has {grid_rows}")
        out.unplaced.extend(upright[i] for i in rest)
        for (r, col), i in sorted(placed.items()):
            _put(out, f"{GRID_ROWS[r]}{col}", upright[i], names)
    elif shape.pyramid:
        # rows are evenly spaced and each row's cards sit half a pitch to either side of the
        # apex column, so a card missed does not shift the others
        nrows = shape.pyramid
        placed, rest, _ = _lean_fit(
            xs, ys, partial(_pyramid_places, nrows=nrows, config=config), gap=1.8)
        out.unplaced.extend(upright[i] for i in rest)
        _bottom_row_turned(out, placed, upright, xs, ys, dets, up, unit, config, nrows)
        for r in range(nrows):
            got = sum(1 for (rr, _) in placed if rr == r)
            if got != r + 1:
                out.problems.append(f"row {r + 1} of the pyramid: read {got} of {r + 1} cards")
        for (r, c), i in sorted(placed.items()):
            _put(out, f"p{r * (r + 1) // 2 + c + 1}", upright[i], names)
    elif shape.fans:
        _map_fans(out, upright, xs, ys, tabs, names, v)
    elif tabs:   # columns (and the layouts not read otherwise yet: wings, squared piles)
        idx = list(range(len(upright)))
        top: list[int] = []
        if shape.top_row:  # the top row (waste fan, foundations) lies apart, above
            # per column of cards (a photo at an angle shears the rows, not the columns):
            # the cards above a wide gap at the top of the column
            cols = []    # (a column's indices, top to bottom; where the tableau starts)
            for g in _clusters(xs, 2.5):
                col = sorted(g, key=lambda i: ys[i])
                cols.append((col, next((b for a, b in itertools.pairwise(range(len(col)))
                                        if ys[col[b]] - ys[col[a]] > 5.0), 0)))
            # the line of the columns' heads (their first tableau cards; sheared in a photo
            # at an angle); a gap whose upper cards lie about as low as that line is a card
            # not read in a column, not the gap below the top row
            head_line = _line_fit([(xs[col[b]], ys[col[b]]) for col, b in cols])
            cols = [(col, b if b and max(ys[i] for i in col[:b])
                     < _at(head_line, xs[col[b]]) - 5.0 else 0) for col, b in cols]
            head_line = _line_fit([(xs[col[b]], ys[col[b]]) for col, b in cols])
            whole = [col for col, b in cols if not b]
            for col, b in cols:
                top += col[:b]
            # a column of cards wholly above the heads' line lies in the top row (the waste
            # fan spreads sideways), where no column showed the gap, that is: once one did,
            # the top row's own height decides, since the columns' heads lie lower the more
            # cards are face down above them (one with none can rise 5 sizes above the line)
            if not top:
                for col in whole:
                    x = sum(xs[i] for i in col) / len(col)
                    if max(ys[i] for i in col) < _at(head_line, x) - 5.0:
                        top += col
            if top:  # and what lies about as high as the top row's cards found (the row
                # sheared as the heads are: along the line through them, as low as the lowest)
                row_line = _line_fit([(xs[i], ys[i]) for i in top])
                low = max(ys[i] - _at(row_line, xs[i]) for i in top) + 2.0
                # and a column lying wholly nearer the top row than the heads' line (the
                # row taken as sheared as the heads are): a waste fan's top card, beside the
                # stock but lower than a foundation's card in a photo turned round and
                # tilted, where the row's line through that one card is flat
                b = head_line[1]
                row_a = statistics.median(ys[i] - b * xs[i] for i in top)
                for col in whole:
                    x = sum(xs[i] for i in col) / len(col)
                    hi = max(ys[i] for i in col)
                    rise, row = _at(head_line, x) - hi, _at(head_line, x) - (row_a + b * x)
                    above = config.top_by_rise and rise > 5.0 and rise >= config.top_nearer * row
                    if col[0] not in top and (hi <= _at(row_line, x) + low or above):
                        top += col
            # the heads' line once more, without the columns found to lie in the top row
            in_top = set(top)
            heads = [(xs[col[b]], ys[col[b]]) for col, b in cols if col[b] not in in_top]
            head_line = _line_fit(heads) if heads else head_line
        bottom: list[int] = []
        if shape.waste_below:  # Golf's waste lies apart, below the columns
            ymax = max(ys)
            band = [i for i in idx if ys[i] > ymax - 3.0]
            above = [ys[i] for i in idx if i not in band]
            if above and min(ys[i] for i in band) - max(above) > 5.0:
                bottom = band
        tab = [i for i in idx if i not in top and i not in bottom]
        groups = [[tab[k] for k in g] for g in _clusters([xs[i] for i in tab], 2.5)]
        centres = [sum(xs[i] for i in g) / len(g) for g in groups]
        steps = [b - a for a, b in itertools.pairwise(centres) if b - a > 4.0]
        pitch = min(steps) if steps else 1.0
        near = sorted(st for st in steps if st < 1.5 * pitch)
        pitch = near[len(near) // 2] if near else pitch
        numbers = _column_numbers(centres, pitch, len(tabs)) if steps else [0] * len(centres)
        last = max(numbers, default=0)
        grid = _Grid(centres, numbers, pitch) if steps else None
        out.room = max(0, len(tabs) - 1 - last - shift) if groups else 0
        for g, number in zip(groups, numbers, strict=True):
            c = number + shift
            if c >= len(tabs):
                out.unplaced.extend(upright[i] for i in g)
                continue
            for i in sorted(g, key=lambda i: ys[i]):
                _put(out, tabs[c], upright[i], names)
        if len(groups) > len(tabs):
            out.problems.append(f"found {len(groups)} columns of cards; {v.name} has "
                                f"{len(tabs)} tableau piles")
        row: list = [(xs[i], upright[i]) for i in top]
        offset = _corner_offset(dets, up)
        waste_col, stock_col = shape.top_column("w"), shape.top_column("s")
        if top and tab:
            # cards of a fan seen by their other corner (an index at top-right shows its
            # bottom-left corner when fanned to the right): upside down, under the top row
            # (as far below as a card's lower index lies from its upper one, and 2.5 sizes
            # more for the perspective not wholly undone, or 9 sizes; never below the heads'
            # line)
            tall = max(9.0, abs(offset[1]) / unit + 2.5) \
                if offset else 9.0
            lo, hi = min(ys[i] for i in top) - 1.0, max(ys[i] for i in top) + tall
            flipped = [d for d in out.unplaced if d.up[0] * up[0] + d.up[1] * up[1] < -0.5]
            for d, (fx, fy) in zip(flipped, _frame(flipped, up, unit), strict=True):
                if _foundation_seen_turned(d, offset, up, unit, grid, shift, shape):
                    continue   # left to _place_flipped: a foundation's card, not the fan's
                if waste_col is not None and lo <= fy <= min(hi, _at(head_line, fx) - 1.0):
                    row.append((fx, d, "w"))   # only the waste fans out in the top row
                    out.unplaced.remove(d)
        placed = [((math.floor(grid.column(fx) + 0.3) if grid else 0) + shift, d, pile)
                  for fx, d, *pile in sorted(row, key=lambda t: t[0])]
        # the stock lies face down: a face-up card over its column, where the waste's column
        # has a card too, is the fan's deepest (a top row with none in the waste's column
        # tells that the columns start further right)
        fan_from_stock = config.stock_column_fan and None not in (waste_col, stock_col) \
            and any(c == waste_col and not pile for c, _, pile in placed)
        for c, d, pile in placed:
            target = pile[0] if pile else shape.top_pile(c)
            if not target and c == stock_col and fan_from_stock:
                target = "w"
            if target:
                _put(out, target, d, names)
            else:
                out.unplaced.append(d)
        for i in sorted(bottom, key=lambda i: xs[i]):  # the waste fan, left to right
            _put(out, "w", upright[i], names)
        if shape.top_row and tab:
            _place_flipped(out, offset, up, unit, grid, shift, head_line, tabs, names, shape,
                           config)
    else:
        out.problems.append(f"piles of {v.name} are not mapped from photos yet; cards only")
        out.unplaced.extend(upright)
    return out


def _column_numbers(centres, pitch, most: int) -> list[int]:
    """Each column's number (the first 0) from the steps between the columns' centres, left
    to right: a step of about two of its neighbours' is an empty column between. Each step is
    measured against the steps near it (two either side) that span one column by the photo's
    ``pitch``, not against that pitch: a perspective not wholly undone leaves the columns on
    one side further apart (up to twice as far in a steep photo). Where that numbers more
    columns than the game's ``most``, the pitch was one short step (a false reading beside a
    column): the median step is tried instead."""
    import statistics
    steps = [b - a for a, b in itertools.pairwise(centres)]

    def numbered(pitch):
        numbers = [0]
        for k, st in enumerate(steps):
            # the step and its neighbours that span one column, as the pitch says
            one = [steps[j] for j in range(max(0, k - 2), min(len(steps), k + 3))
                   if 0.6 * pitch <= steps[j] <= 1.5 * pitch]
            numbers.append(numbers[-1] + round(st / statistics.median(one or [pitch])))
        return numbers
    numbers = numbered(pitch)
    wide = [st for st in steps if st > 4.0]
    if numbers[-1] >= most and wide:
        other = numbered(statistics.median(wide))
        if other[-1] < numbers[-1]:
            return other
    return numbers


class _Grid:
    """Where the tableau's columns lie across the frame: a column's number at any x, from
    the columns found (their centres and numbers; a photo's perspective, not wholly undone,
    can leave the columns further apart on one side), and past either end, the step there
    (``pitch`` with one column)."""

    def __init__(self, centres, numbers, pitch):
        self.marks = []
        for cx, c in zip(centres, numbers, strict=True):
            if not self.marks or c > self.marks[-1][1]:
                self.marks.append((cx, c))
        ends = (self.marks[:2], self.marks[-2:])
        self.steps = [(m[1][0] - m[0][0]) / (m[1][1] - m[0][1]) if len(m) == 2 else pitch
                      for m in ends]

    def column(self, x) -> float:
        (a, i), (b, j) = self.marks[0], self.marks[-1]
        if x <= a:
            return i + (x - a) / self.steps[0]
        if x >= b:
            return j + (x - b) / self.steps[1]
        for (a, i), (b, j) in itertools.pairwise(self.marks):
            if x <= b:
                return i + (j - i) * (x - a) / (b - a)
        return j   # not reached


def _upright_index_at(u, offset, up, pixels=True):
    """Where the upright index of the card whose upside-down index ``u`` was read lies
    (working pixels), from this deck's corner-to-corner ``offset`` (:func:`_corner_offset`;
    ``pixels``: whether it is in pixels, else in index sizes)."""
    ox, oy = offset
    rx, ry = -up[1], up[0]
    k = 1.0 if pixels else u.size
    return (u.x + (ox * rx + oy * up[0]) * k, u.y + (ox * ry + oy * up[1]) * k)


def _foundation_seen_turned(u, offset, up, unit, grid, shift, shape) -> bool:
    """Whether an upside-down index read in the top row belongs to a card whose upright index
    lies over a foundation's column: that card lies on a foundation, not in the waste's fan
    (which spreads from its own column, short of the foundations)."""
    if offset is None or grid is None:
        return False
    ex, ey = _upright_index_at(u, offset, up)
    fx = (ex * -up[1] + ey * up[0]) / unit
    target = shape.top_pile(math.floor(grid.column(fx) + 0.3) + shift)
    return bool(target) and target.startswith("f")


def _place_flipped(out, offset, up, unit, grid, shift, head_line, tabs, names, shape, config):
    """Cards read only by their upside-down index (the upright one covered, or not read): the
    cards whose two corners were both read show where a card's upright index lies from its
    other one in this deck and photo (``offset``, :func:`_corner_offset`); a lone upside-down
    index placed there that falls on a column's top card or an empty foundation, where no card
    was read, is put in that pile; those that fall on the waste, where no card of the fan was
    read upright, make its fan, in order (the top of the waste whose upright index is out of
    the photo's reach is read by its other corner alone)."""
    from dataclasses import replace
    rx, ry = -up[1], up[0]
    if offset is None or grid is None:
        return

    def frame(x, y):
        return (x * rx + y * ry) / unit, -(x * up[0] + y * up[1]) / unit

    def place(u, ex, ey, target):
        out.unplaced.remove(u)
        t = replace(u, x=ex, y=ey, up=up)
        t._src = getattr(u, "_src", u)
        _put(out, target, t, names)

    fan = []
    for u in [d for d in out.unplaced if d.other is None and not d.uncertain
              and d.up[0] * up[0] + d.up[1] * up[1] < -0.5]:
        ex, ey = _upright_index_at(u, offset, up)
        fx, fy = frame(ex, ey)
        if fy < _at(head_line, fx) - 3.0:   # the top row: an empty foundation
            target = shape.top_pile(math.floor(grid.column(fx) + 0.3) + shift)
            if config.flipped_fan and target == "w" and not out.piles.get("w"):
                fan.append((fx, u, ex, ey))   # the waste's fan, seen only so
                continue
            if not target or not target.startswith("f") or out.piles.get(target):
                continue
        else:
            c = round(grid.column(fx)) + shift
            if not 0 <= c < len(tabs):
                continue
            target = tabs[c]
            pile = [frame(d.x, d.y) for d in out.piles.get(target, [])]
            if any(math.hypot(px - fx, py - fy) < 1.5 for px, py in pile) \
                    or any(py > fy for _, py in pile):
                continue   # a card read there, or below: not the column's top card
            if pile and fy - max(py for _, py in pile) > config.cascade_gap:
                continue   # too far below the column's last card to lie on it
        place(u, ex, ey, target)
    for _, u, ex, ey in sorted(fan, key=lambda t: t[0]):
        place(u, ex, ey, "w")


def _lend_corners(dets, config) -> None:
    """Gaps' cards lie apart, both corners in view: a card read at one corner only is given
    its other corner (in place, on the rectified copies), where the cards read at both have
    theirs (the median offset, in the card's own frame), so that its reading does not
    depend on which way up the layout is taken; else one way would place the cards read at
    one corner, the other way not, and the fewer cards left over would choose the way
    instead of the photo's own up. The offset in pixels, or in each card's index size
    (``config.lend_in_pixels``)."""
    import statistics
    offs = []
    for d in dets:
        if d.other is not None:
            (ux, uy), dx, dy = d.up, d.other[0] - d.x, d.other[1] - d.y
            k = 1.0 if config.lend_in_pixels else d.size
            offs.append(((dy * ux - dx * uy) / k, (dx * ux + dy * uy) / k))
    if len(offs) < 3:
        return
    offset = statistics.median(o[0] for o in offs), statistics.median(o[1] for o in offs)
    for d in dets:
        if d.other is None:
            d.other = (*_upright_index_at(d, offset, d.up, config.lend_in_pixels),
                       (-d.up[0], -d.up[1]))


def _corner_offset(dets, up):
    """Where a card's upright index lies from its other one in this deck and photo, (right,
    up) in pixels, the median over the cards (turned to ``up``) whose two corners were
    both read; None for fewer than two such cards. In pixels, not in each card's own index
    size: that size (pip to rank glyph) grows with the rank glyph's width where the two lie
    side by side (a Q's index a third larger than a 2's); the card's does not."""
    import statistics
    rx, ry = -up[1], up[0]
    offs = []
    for d in dets:
        if d.other is None:
            continue
        if abs(d.other[0] - d.x) + abs(d.other[1] - d.y) > 1e-6:
            fx, fy = d.other[:2]
        else:
            src = getattr(d, "_src", d)
            fx, fy = src.x, src.y
        dx, dy = d.x - fx, d.y - fy
        offs.append((dx * rx + dy * ry, dx * up[0] + dy * up[1]))
    if len(offs) < 2:
        return None
    return statistics.median(o[0] for o in offs), statistics.median(o[1] for o in offs)


def _line_fit(pts):
    """(a, b) of the line y = a + b x through ``pts`` that most of them follow (Theil-Sen: the
    median slope between pairs, then the median intercept), so a few points far off it (a
    top-row column among the tableau's) do not move it; (a, 0) for fewer than two points."""
    import statistics
    if not pts:
        return (0.0, 0.0)
    slopes = [(y2 - y1) / (x2 - x1) for (x1, y1), (x2, y2) in itertools.combinations(pts, 2)
              if abs(x2 - x1) > 2.0]
    b = statistics.median(slopes) if slopes else 0.0
    return (statistics.median(y - b * x for x, y in pts), b)


def _at(line, x) -> float:
    return line[0] + line[1] * x


LEAN_TURNS = tuple(d for k in range(1, 21) for d in (k, -k))
"""Degrees the rows of a layout may still lean by after the photo is set upright, tried in
turn (by :func:`_lean_fit`) while cards are left over: the way up is taken from the indices, a
few degrees off, and a steep photo's perspective undone leaves an affine view, in which the
rows may lean well off square to the cards' up."""


def _lean_fit(xs, ys, places, gap):
    """A layout in rows (Gaps, the Pyramid) fitted to the cards at (xs, ys): rows found at
    the frame's angle, then, while cards are left over, at angles up to 20 degrees either
    side (rows that lean merge into one: :data:`LEAN_TURNS`), keeping the fit that places
    the most cards.
    ``places(rows, cy, dy, xs, pitch)`` fits one angle's rows: (place -> card, cards left
    over); ``gap``: the least step in height between two rows (index sizes). Returns the
    places, the cards left over and the number of rows found."""
    best = None
    for deg in (0,) + LEAN_TURNS:
        t = math.radians(deg)
        c, s = math.cos(t), math.sin(t)
        rx = [x * c - y * s for x, y in zip(xs, ys, strict=True)]
        ry = [x * s + y * c for x, y in zip(xs, ys, strict=True)]
        rows = _clusters(ry, gap)
        cy = [sum(ry[i] for i in row) / len(row) for row in rows]
        steps = [b - a for a, b in itertools.pairwise(cy)]
        dy = sorted(steps)[len(steps) // 2] if steps else 1.0
        pitch = _pitch(rx, rows) or 1.0
        placed, rest = places(rows, cy, dy, rx, pitch)
        if best is None or len(placed) > len(best[0]):
            best = (placed, rest, len(rows))
        if not best[1]:
            break
    return best


def _grid_columns(rows, xs, pitch, most) -> dict:
    """Item -> its column's number (the leftmost found 0), for items in ``rows`` (lists of
    indices into ``xs``) lying on a grid of columns about ``pitch`` apart. The columns need
    not stand square to the rows (the perspective undone leaves an affine view, which may
    shear; a hand-dealt layout drifts): each row is slid by the median offset (less than
    half a pitch) between its items and their nearest in the row above. The items of all rows are then
    grouped where they line up, and the groups numbered by the steps between them (a
    perspective not wholly undone spreads the columns on one side; see
    :func:`_column_numbers`, ``most`` columns at most)."""
    import bisect
    import statistics
    slide = [0.0]
    for above, row in itertools.pairwise(rows):
        ref = sorted(xs[i] for i in above)
        offs = []
        for i in row:
            k = bisect.bisect_left(ref, xs[i])
            near = min(ref[max(0, k - 1):k + 1], key=lambda x: abs(x - xs[i]))
            if abs(xs[i] - near) < 0.5 * pitch:
                offs.append(xs[i] - near)
        slide.append(slide[-1] + (statistics.median(offs) if offs else 0.0))
    at = {i: xs[i] - slide[r] for r, row in enumerate(rows) for i in row}
    items = list(at)
    groups = [[items[k] for k in g] for g in _clusters([at[i] for i in items], 0.45 * pitch)]
    centres = [sum(at[i] for i in g) / len(g) for g in groups]
    numbers = _column_numbers(centres, pitch, most)
    return {i: n for g, n in zip(groups, numbers, strict=True) for i in g}


def _gaps_places(rows, cy, dy, xs, pitch, weak=None, grid=(4, 13)):
    """Gaps' ``grid`` (rows, columns: four rows of thirteen): (row 0-3, column 1-13) -> card,
    and the cards left over; columns numbered from the leftmost found (of any row). ``weak``
    (by index): how doubtful each card is (0 sure, higher later); a card takes a place only
    after the less doubtful of its row."""
    placed, rest = {}, []
    nrows, ncols = grid
    if len(rows) != nrows:
        return placed, [i for row in rows for i in row]
    column = _grid_columns(rows, xs, pitch, ncols)
    for r, row in enumerate(rows):
        for i in sorted(row, key=lambda i: int(weak[i]) if weak else 0):
            col = column[i] + 1
            if 1 <= col <= ncols and (r, col) not in placed:
                placed[(r, col)] = i
            else:
                rest.append(i)
    return placed, rest


def _bottom_row_turned(out, placed, upright, xs, ys, dets, up, unit, config, nrows=7) -> None:
    """The Pyramid's bottom row shows its cards' lower corners too: a card read there alone
    (upside down, left over by the fit) takes the bottom row's place where its upright
    corner lies, by the deck's corner-to-corner offset and the lattice of the cards placed
    (fitted: column and row -> frame), when that place is free and the corner within a
    third of a step of it (the offset is the deck's median: the perspective is not wholly
    undone). The card moves from ``out.unplaced`` to ``upright`` and ``placed``."""
    import numpy as np
    turned = [d for d in out.unplaced if d.up[0] * up[0] + d.up[1] * up[1] < -0.5]
    offset = _corner_offset(dets, up) if turned else None
    if offset is None or len(placed) < 6:
        return
    lat = np.array([(c - r / 2, r, 1.0) for r, c in placed], np.float64)
    got = np.array([(xs[i], ys[i]) for i in placed.values()], np.float64)
    fit, *_ = np.linalg.lstsq(lat, got, rcond=None)   # (3, 2): column, row, origin
    A = fit[:2].T
    if abs(np.linalg.det(A)) < 1e-6:
        return
    Ainv = np.linalg.inv(A)
    ux, uy = up
    for u in turned:
        ex, ey = _upright_index_at(u, offset, up)
        f = np.array(((ex * -uy + ey * ux) / unit, -(ex * ux + ey * uy) / unit)) - fit[2]
        k, r = Ainv @ f
        c = k + r / 2
        rr, cc = round(r), round(c)
        last = nrows - 1
        if rr == last and 0 <= cc <= last and (last, cc) not in placed and \
                abs(r - rr) < config.bottom_row_near and abs(c - cc) < 0.35:
            placed[(last, cc)] = len(upright)
            upright.append(u)
            out.unplaced.remove(u)


def _pyramid_shear(rows, rel, first, xs) -> float:
    """How far each row's centre lies beside the row above's (least squares over the rows
    read whole, their number ``rel`` + ``first`` from the apex, 0 to 6), or 0 with fewer
    than three such rows: a whole row's centre is the apex column's place on it."""
    pts = [(r + first, sum(xs[i] for i in row) / len(row))
           for row, r in zip(rows, rel, strict=True) if len(row) == r + first + 1]
    if len(pts) < 3:
        return 0.0
    mr = sum(r for r, _ in pts) / len(pts)
    mx = sum(x for _, x in pts) / len(pts)
    den = sum((r - mr) ** 2 for r, _ in pts)
    return sum((r - mr) * (x - mx) for r, x in pts) / den if den else 0.0


def _pyramid_places(rows, cy, dy, xs, pitch, nrows=7, config: ReadConfig = DEFAULT):
    """(row, place in row) -> card, and the cards left over: the rows found are evenly spaced
    (``dy`` apart) and each card sits half a ``pitch`` to either side of the one above, so
    the fit that places the most cards is taken, over which row the first row found is
    (the apex, or a lower one when whole rows were missed), where the apex column is (a
    card missed shifts nothing) and whether the rows shear (``config.pyramid_shear``)."""
    rel = [round((c - cy[0]) / dy) if dy else k for k, c in enumerate(cy)]
    cards = [(i, r) for row, r in zip(rows, rel, strict=True) for i in row]
    best, best_score = {}, None
    for first in range(nrows):
        if rel[-1] + first > nrows - 1:
            break
        rs = [(i, r + first) for i, r in cards]
        for shear in {0.0, _pyramid_shear(rows, rel, first, xs)} if config.pyramid_shear \
                else {0.0}:
            at = {i: xs[i] - shear * r for i, r in rs}
            apexes = {round((at[i] - pitch * (c - r / 2)) / pitch * 4) / 4
                      for i, r in rs for c in range(r + 1)}
            for a in apexes:
                apex = a * pitch
                placed, off = {}, 0.0
                for i, r in rs:
                    f = (at[i] - apex) / pitch + r / 2
                    c = round(f)
                    if 0 <= c <= r and (r, c) not in placed:
                        placed[(r, c)] = i
                        off += abs(f - c)
                score = (len(placed), -off)
                if best_score is None or score > best_score:
                    best, best_score = placed, score
    used = set(best.values())
    return best, [i for i, _ in cards if i not in used]


def _along_fans(xs, ys):
    """The frame turned so that the fans run along x: a fan's cards are each other's nearest
    neighbours, so the direction between nearest neighbours (the closer half of them, taken
    modulo a half turn) is the fans' own. The photo's perspective, not wholly undone, can
    leave the rows leaning a little against the indices' up, and rows that lean merge into
    one. Within 30 degrees; else the frame as it is."""
    import numpy as np
    if len(xs) < 5:
        return xs, ys
    p = np.array([xs, ys], np.float64).T
    dist = np.hypot(*(p[None] - p[:, None]).transpose(2, 0, 1))
    np.fill_diagonal(dist, np.inf)
    j = dist.argmin(1)
    d = dist[np.arange(len(p)), j]
    v = p[j] - p
    a = (np.arctan2(v[:, 1], v[:, 0]) + math.pi / 2) % math.pi - math.pi / 2
    keep = (d > 0) & (d <= np.median(d))
    if not keep.any():
        return xs, ys
    t = float(np.median(a[keep]))
    if abs(t) > math.radians(30):
        return xs, ys
    c, s = math.cos(t), math.sin(t)
    return ([x * c + y * s for x, y in zip(xs, ys, strict=True)],
            [y * c - x * s for x, y in zip(xs, ys, strict=True)])


def _map_fans(out, upright, xs, ys, tabs, names, v):
    """Fans: rows of cards (clustered by height), split into fans where the step between
    neighbours is much wider than the fan's own; each fan's place in a grid of rows and
    columns (so an emptied fan leaves its number free) gives its pile. The bottom card lies at
    the end away from the card that shows both its corners (the top card, wholly in view);
    without that evidence, at the left. Fans are taken to spread to the right, as the player
    sees them."""
    import statistics
    xs, ys = _along_fans(xs, ys)
    rows = _clusters(ys, 2.5)
    fans = []             # (row centre y, [indices sorted by x])
    steps = []
    for row in rows:
        s = sorted(row, key=lambda i: xs[i])
        steps += [xs[b] - xs[a] for a, b in itertools.pairwise(s)]
    small = [st for st in steps if st <= 1.5 * min(steps)] if steps else []
    step = statistics.median(small) if small else 2.0
    for row in rows:
        s = sorted(row, key=lambda i: xs[i])
        cur = [s[0]]
        for a, b in itertools.pairwise(s):
            if xs[b] - xs[a] > max(2.5 * step, step + 2.0):
                fans.append(cur)
                cur = []
            cur.append(b)
        fans.append(cur)
    # which way the fans spread: the top card, wholly in view, shows both its corners
    vote = 0
    for f in fans:
        if len(f) > 1:
            vote += (upright[f[-1]].other is not None) - (upright[f[0]].other is not None)
    spread = -1 if vote < 0 else 1
    fans = [f if spread > 0 else f[::-1] for f in fans]
    starts = [xs[f[0]] for f in fans]
    cy = [sum(ys[i] for i in f) / len(f) for f in fans]
    # column pitch: the nearest fan starts in one row; row pitch: between row centres
    gaps_x = []
    for a, b in itertools.pairwise(range(len(fans))):
        if abs(cy[a] - cy[b]) < 2.5:
            gaps_x.append(abs(starts[b] - starts[a]))
    gaps_x = [g for g in gaps_x if g > 2.0]
    near = [g for g in gaps_x if g < 1.5 * min(gaps_x)] if gaps_x else []
    pitch = statistics.median(near) if near else 1.0
    rcy = sorted({round(sum(ys[i] for i in row) / len(row), 3) for row in rows})
    dys = [b - a for a, b in itertools.pairwise(rcy)]
    dy = statistics.median([d for d in dys if d < 1.5 * min(dys)]) if dys else 1.0
    # fans spread to the right as the player sees them: fans spreading left mean the layout
    # is read upside down, so t1 (top left for the player) is at the bottom right here
    ytop = rcy[0] if spread > 0 else rcy[-1]
    row_of = [round(abs(y - ytop) / dy) if dys else 0 for y in cy]
    column = {}
    if near:
        by_row: dict[int, list] = {}
        for k, r in enumerate(row_of):
            by_row.setdefault(r, []).append(k)
        column = _grid_columns([by_row[r] for r in sorted(by_row)], starts, pitch, len(tabs))
    ncol = max(column.values(), default=0) + 1
    placed = {}
    for k, f in enumerate(fans):
        c = column.get(k, 0)
        c = c if spread > 0 else ncol - 1 - c
        n = row_of[k] * ncol + c
        if n >= len(tabs) or n in placed:
            out.unplaced.extend(upright[i] for i in f)
            continue
        placed[n] = f
        for i in f:
            _put(out, tabs[n], upright[i], names)
    if len(fans) != len(tabs):
        out.problems.append(f"found {len(fans)} fans of cards; {v.name} deals {len(tabs)} "
                            f"(an emptied fan stays empty)")


def deals_face_down(v) -> bool:
    """Whether the variant's deal lays any card face down (its stock too): where none, no
    card back lies in a photo of its layout (Gaps, Streets and Alleys, the House games)."""
    return any(deal(v.key, None).down)


def tabs_with_backs(v) -> bool:
    """Whether the variant deals face-down cards in its tableau columns."""
    t = deal(v.key, None)
    return any(t.down[i] for i, n in enumerate(t.engine.names)
               if n.startswith("t") and n[1:].isdigit())


def count_face_down(out: PileReading, v, rgb, way, problems=True, mn=None):
    """Backs counted above the first face-up card of each tableau pile dealt with face-down
    cards (:mod:`.backs`), ``way`` being the layout's up in the photo; a count above what the
    deal put there is reported as a problem. A face-up card whose index was not read may lie
    between: the count is then taken from one face-up spacing (that of the columns read)
    further up, where it fits the deal (:func:`.backs.count_backs`)."""
    from dataclasses import replace

    # late-bound: tests monkeypatch count_backs on backs
    from .backs import column_up, count_backs, face_up_step, vanishing
    template = deal(v.key, None)
    names = template.engine.names
    if mn is None:
        mn = min_channel(rgb)

    def upright(d):  # the corner that is upright in the photo, the layout's way up
        if d.other is not None and d.up[0] * way[0] + d.up[1] * way[1] < 0:
            return replace(d, x=d.other[0], y=d.other[1], up=d.other[2])
        return d
    piles = {name: [upright(d) for d in ds] for name, ds in out.piles.items()}
    placed = [d for ds in piles.values() for d in ds]
    step = face_up_step(piles, names)
    vp = vanishing(placed)
    for i, name in enumerate(names):
        dealt = template.down[i]
        if not dealt or name not in out.piles or not (name.startswith("t") and name[1:].isdigit()):
            continue
        pile = piles[name]
        n = count_backs(rgb, pile[0], column_up(pile, placed, vp=vp), mn, dealt, step)
        out.face_down[name] = n
        if problems and n is not None and n > dealt:
            out.problems.append(f"{name}: {n} card backs counted above the first face-up card; "
                                f"{v.name} deals {dealt} face down there")


def _pitch(xs, rows):
    """The step between neighbours in a row of a layout in rows (Gaps, the Pyramid): the
    median of the steps near the median step (a missed card makes one step of two, a stray
    reading beside a card one too short to set the pitch)."""
    import statistics
    diffs = []
    for row in rows:
        s = sorted(xs[i] for i in row)
        diffs += [b - a for a, b in itertools.pairwise(s) if b - a > 2.0]
    if not diffs:
        return 0.0
    m = statistics.median(diffs)
    near = [d for d in diffs if 0.7 * m < d < 1.4 * m]
    return statistics.median(near or diffs)


def _put(out, name, det, names):
    if name not in names:
        out.unplaced.append(det)
        return
    out.piles.setdefault(name, []).append(det)


def face_down_as_built(counted: int | None, dealt: int) -> int:
    """The face-down cards a position read from a photo gets on a pile: as counted, or as
    dealt where not counted or counted more than dealt (a pile never holds more)."""
    return counted if counted is not None and counted <= dealt else dealt


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
    from collections import Counter

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


def angle_deg(up) -> float:
    return math.degrees(math.atan2(up[0], -up[1]))
