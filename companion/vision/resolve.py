"""The photo resolved as a whole (:func:`resolve`): a card's two corners merged, copies
too many of a card re-read or weighed against its twin in colour, low confidence flagged."""

from __future__ import annotations

import itertools
import math
from collections import Counter

from .config import DEFAULT, ReadConfig
from .detection import Detection, _name

COPY_TOO_MANY = "seen more often than the deck has it"
"""How the note of a reading marked uncertain only because its card was read as often as the
deck has it elsewhere ends (:func:`resolve`)."""


def dominant_up(dets):
    """The layout's "up" direction: the axis of most index corners, signed by the majority."""
    if not dets:
        return (0.0, -1.0)
    sx = sum(math.cos(2 * math.atan2(d.up[1], d.up[0])) for d in dets)
    sy = sum(math.sin(2 * math.atan2(d.up[1], d.up[0])) for d in dets)
    a = math.atan2(sy, sx) / 2
    ax = (math.cos(a), math.sin(a))
    pos = sum(1 for d in dets if d.up[0] * ax[0] + d.up[1] * ax[1] > 0)
    if pos < len(dets) - pos:
        ax = (-ax[0], -ax[1])
    return ax


def resolve(dets, decks=1, threshold=None, *, config: ReadConfig = DEFAULT):
    """Each card at most ``decks`` times: merge a card's two corners, re-read or flag
    duplicates, flag low confidence (below ``threshold``, None: ``config.threshold``)."""
    threshold = config.threshold if threshold is None else threshold
    up = dominant_up(dets)
    dets = sorted(dets, key=lambda t: -t.confidence)
    # the two corners of one card: same reading, opposite "up"; keep the upright one's place
    merged: list[Detection] = []
    for t in dets:
        twins = [o for o in merged if o.code == t.code and o.corners == 1
                 and o.up[0] * t.up[0] + o.up[1] * t.up[1] < -0.5]
        if decks > 1:  # two copies exist: only a corner where the same card's other is
            twins = sorted((o for o in twins if _same_card(o, t)),
                           key=lambda o: math.hypot(o.x - t.x, o.y - t.y))
        elif len(twins) > 1 and config.twin_corners:
            # one copy, read at more places than its two corners: the corner across the card
            # first (the others are other cards read as this one: :func:`_twin_corners`)
            twins.sort(key=lambda o: (not _diagonal(o, t), math.hypot(o.x - t.x, o.y - t.y)))
        twin = twins[0] if twins else None
        reads = None
        if twin is None and t.confidence < threshold:
            # the two corners of one card read differently, this one unsurely: one card
            # when they lie across the card from each other and agree once combined
            twin, reads = _unsure_twin(t, merged)
        if twin is not None:
            twin.corners = 2
            if reads is None:   # the same glyph twice: no surer than its better reading
                twin.confidence = max(twin.confidence, t.confidence)
            else:
                twin.code, twin.confidence = reads[0]
                twin.alternatives = reads[1:4]
                twin.suits = _joint_suits(twin.suits, t.suits)
            _join_corners(twin, t, up)
            continue
        merged.append(t)
    if config.twin_corners:
        merged = _twin_corners(merged, decks, up)
    if config.swap_twins:
        _swap_twins(merged, decks, config)
    merged.sort(key=lambda t: -t.confidence)
    counts: dict[int, int] = {}
    for t in merged:
        if counts.get(t.code, 0) >= decks:
            alt = next(((c, p) for c, p in t.alternatives if counts.get(c, 0) < decks
                        and p > 0.15), None)
            if alt is not None:
                t.note = f"re-read: {_name(t.code)} was already seen"
                t.code, t.confidence = alt
                t.uncertain = True
            else:
                t.uncertain = True
                t.note = f"{_name(t.code)} {COPY_TOO_MANY}"
        counts[t.code] = counts.get(t.code, 0) + 1
        if t.confidence < threshold:
            t.uncertain = True
            t.note = t.note or "low confidence"
    return merged


_TWIN_SUIT = (3, 2, 1, 0)
"""Each suit's twin in colour, the other suit of its ink (♠ and ♣, ♥ and ♦)."""
TWIN_READ = "which is read surer elsewhere: taken for"
"""The words of the note of a card named by weighing it against its twin (:func:`_swap_twins`):
``scan`` shows it beside a card read sure too, since the model read the other suit."""


def _twin_of(code: int) -> int:
    """The card of ``code``'s rank in the other suit of its ink (♠ and ♣, ♥ and ♦)."""
    s, r = divmod(code, 13)
    return _TWIN_SUIT[s] * 13 + r


def _joint_suits(a, b):
    """Two corners' suit odds combined as independent evidence (None where either is
    unknown)."""
    if a is None or b is None:
        return None
    prod = [x * y for x, y in zip(a, b, strict=True)]
    total = sum(prod)
    return tuple(v / total for v in prod) if total > 0 else None


def _swap_twins(merged, decks, config) -> None:
    """Copies too many of a card, where its twin in colour is read fewer than ``decks`` times:
    the readings are resolved together, as the photo holds each card ``decks`` times at
    most. A small index's ♣ and ♠ look alike, and the model may read a deck's clubs as
    spades with every sign of being sure; yet where the real spade is read too, it reads it
    surer still. Each of the copies is the card itself, its twin, or some other card (the
    odds its readings leave); every way of naming them that the deck allows is weighed by
    the product of their odds, and each copy takes the name most of the weight gives it,
    as sure as that share (so the threshold and the notes judge it as any other reading).
    A copy whose reading gives its twin no odds at all (its ink rules it out) is left to
    :func:`resolve`'s re-reading, as is a group of more than ``config.twins_most`` copies."""
    counts = Counter(t.code for t in merged)
    for code, n in list(counts.items()):
        if n <= decks or n > config.twins_most:
            continue
        s, twin = code // 13, _twin_of(code)
        room = decks - counts.get(twin, 0)
        group = [t for t in merged if t.code == code]
        if room <= 0 or any(t.suits is None or t.suits[s] <= 0 for t in group):
            continue
        # each copy's odds: the card (0), its twin (1), another card (2)
        odds = []
        for t in group:
            p = t.confidence
            q = p * t.suits[twin // 13] / t.suits[s]
            odds.append((p, q, max(0.0, 1.0 - p - q)))
        weight = [[0.0, 0.0, 0.0] for _ in group]
        for names in itertools.product(range(3), repeat=len(group)):
            if names.count(0) > decks or names.count(1) > room:
                continue
            w = math.prod(o[k] for o, k in zip(odds, names, strict=True))
            for i, k in enumerate(names):
                weight[i][k] += w
        for t, w in zip(group, weight, strict=True):
            total = sum(w)
            if total <= 0:
                continue
            k = max(range(2), key=lambda j: w[j])
            t.confidence = w[k] / total
            if k == 1:
                t.note = f"read as {_name(code)}, {TWIN_READ} {_name(twin)}"
                t.alternatives = [(code, w[0] / total)] + \
                    [(c, p) for c, p in t.alternatives if c not in (code, twin)]
                t.code = twin
            else:
                t.alternatives = [(twin, w[1] / total)] + \
                    [(c, p) for c, p in t.alternatives if c not in (code, twin)]


def joint_readings(a, b) -> list:
    """Two readings of one card (its two corners) combined as independent evidence: the
    product of their probabilities, normalised over the 52 cards (a card neither lists gets
    an even share of what its list leaves), best first as [(code, p), ...]."""
    pa = {a.code: a.confidence, **{c: p for c, p in a.alternatives if c != a.code}}
    pb = {b.code: b.confidence, **{c: p for c, p in b.alternatives if c != b.code}}
    fa = max(1e-4, (1 - sum(pa.values())) / (52 - len(pa)))
    fb = max(1e-4, (1 - sum(pb.values())) / (52 - len(pb)))
    raw = {c: pa.get(c, fa) * pb.get(c, fb) for c in set(pa) | set(pb)}
    total = sum(raw.values()) + (52 - len(raw)) * fa * fb
    return sorted(((c, p / total) for c, p in raw.items()), key=lambda t: -t[1])


def _unsure_twin(t, merged):
    """The other corner of the uncertain ``t``'s card among the single corners read so far,
    and the joint readings: a corner facing the other way, across the card from ``t`` (as
    far across as a card's width allows, not straight along a column), whose readings both
    list the best combined one, the best reading of one of them, which is then surer than
    either corner alone. The other corner may be read sure (a J♥ read 99 % at one corner and
    3♥ 57 %, J♥ 41 %, at the other is one J♥, not a J♥ and a 3♥). (None, None) if none. (Two
    corners read alike are merged as they are: the same glyph read twice is no independent
    evidence.)"""
    best = None
    for o in merged:
        if o.corners != 1 \
                or o.up[0] * t.up[0] + o.up[1] * t.up[1] >= -0.5 or not _diagonal(o, t):
            continue
        reads = joint_readings(o, t)
        code, p = reads[0]
        listed_a = code == o.code or any(c == code for c, _ in o.alternatives)
        listed_b = code == t.code or any(c == code for c, _ in t.alternatives)
        if listed_a and listed_b and code in (o.code, t.code) \
                and p > max(o.confidence, t.confidence):
            dist = math.hypot(o.x - t.x, o.y - t.y)
            if best is None or dist < best[0]:
                best = (dist, o, reads)
    return (best[1], best[2]) if best else (None, None)


def _twin_corners(merged, decks, up) -> list:
    """``merged`` with each copy too many read at one corner merged with its card's other
    corner where that was read as its twin in colour (:data:`_TWIN_SUIT`): a single corner
    facing the other way, across the card (:func:`_diagonal`; the nearest). The card's rank
    is as sure as the surer corner reads it; its suit is named by the two corners' suit odds
    together (each corner's product), as sure as that share. A card read 4♣ 99.8 % at one
    corner (♠ 0.16 %) and 4♠ 99.1 % at the other (♣ 0.85 %) is one 4♣ at 84 %, not a 4♣
    and a copy too many of the 4♠ read elsewhere. Where the odds together name the copy's
    suit, the card is still one, and :func:`_swap_twins` weighs it against the other copies
    (a K♣ read K♠ 99.98 % at one corner and K♣ 96 % at the other, the real K♠ read at both
    of its corners 99.995 %: one K♣, 99 %). The corners of one card read alike elsewhere are
    joined first, across the card before along a column (:func:`resolve`)."""
    counts = Counter(t.code for t in merged)
    out = list(merged)
    for a in sorted(merged, key=lambda t: t.confidence):
        if a not in out or a.corners != 1 or counts[a.code] <= decks or a.suits is None:
            continue
        twin_code = _twin_of(a.code)
        s, ts = a.code // 13, twin_code // 13
        near = [b for b in out if b.code == twin_code and b.corners == 1 and b.suits is not None
                and b.up[0] * a.up[0] + b.up[1] * a.up[1] < -0.5 and _diagonal(b, a)]
        if not near:
            continue
        b = min(near, key=lambda o: math.hypot(o.x - a.x, o.y - a.y))
        suits = _joint_suits(a.suits, b.suits)
        if suits is None or a.suits[s] <= 0 or b.suits[ts] <= 0:
            continue
        # each corner's confidence is its rank's odds times its suit's
        rank_p = max(min(1.0, a.confidence / a.suits[s]), min(1.0, b.confidence / b.suits[ts]))
        reads = sorted([(twin_code, rank_p * suits[ts]), (a.code, rank_p * suits[s])],
                       key=lambda x: -x[1])
        out.remove(a)
        counts[a.code] -= 1
        counts[b.code] -= 1
        b.code, b.confidence = reads[0]
        b.alternatives = reads[1:] + [(c, q) for c, q in b.alternatives
                                      if c not in (twin_code, a.code)][:2]
        b.suits, b.corners = suits, 2
        counts[b.code] += 1
        _join_corners(b, a, up)
    return out


def _join_corners(card, corner, up) -> None:
    """``corner`` taken for ``card``'s other corner: the card's place is the more upright
    one's (``up``: the layout's), the other kept as ``other``."""
    if (corner.up[0] * up[0] + corner.up[1] * up[1]) > (card.up[0] * up[0] + card.up[1] * up[1]):
        card.other = (card.x, card.y, card.up)
        card.x, card.y, card.up = corner.x, corner.y, corner.up
    else:
        card.other = (corner.x, corner.y, corner.up)


def _diagonal(a, b) -> bool:
    """Whether two opposite corners lie as a card's two indices do: :func:`_same_card`, and
    across the card by 0.35 to 2 times the distance along it (the corners of cards cascaded
    in one column lie straight along it)."""
    if not _same_card(a, b):
        return False
    size = max(a.size, b.size)
    dx, dy = b.x - a.x, b.y - a.y
    along = -(dx * a.up[0] + dy * a.up[1]) / size
    across = abs(dx * a.up[1] - dy * a.up[0]) / size
    return 0.35 * along <= across <= 2.0 * along


def _same_card(a, b) -> bool:
    """Whether two opposite corners can be the two indices of one card: each lies "below"
    the other (against its up), 2.5 to 12 index sizes away along the card (a card is about
    as wide as that length)."""
    size = max(a.size, b.size)
    dx, dy = b.x - a.x, b.y - a.y
    along = -(dx * a.up[0] + dy * a.up[1]) / size
    across = abs(dx * a.up[1] - dy * a.up[0]) / size
    return 2.5 <= along <= 12.0 and across < 1.5 * along
