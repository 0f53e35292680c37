"""Cards the recognizer did not take for an index, looked for again where the layout and
the rules say one lies: in a column's gap, above its run, in the waste's fan
(:func:`fill_gaps`), and in Gaps' rows, any card read nowhere (:func:`find_unread`)."""

from __future__ import annotations

import math

from ..rules.describe import tableau_cards
from .config import DEFAULT, ReadConfig
from .detection import Detection
from .frame import PileReading
from .infer import _build_context, _pile_word, _sure_counts, _text


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
    (:func:`.infer.runs_are_builds`).

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
