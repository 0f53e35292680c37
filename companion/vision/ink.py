"""The readings of an index with its pip's ink ruling suits out: the ink's colour
(:func:`ink_suits`), whether the photo's deck prints its suits in the inks the rules know
(:func:`_inks_hold`), and a four-colour deck's clubs and diamonds (:func:`_four_colour`)."""

from __future__ import annotations

import math

from ..cards import CLUBS, DIAMONDS, HEARTS, SPADES
from .config import DEFAULT, ReadConfig
from .detect import percentile_sorted
from .detection import Detection, _name


def _readings(pr, ps, k=4):
    """Top-k (code, probability) over the 52 cards, from the two heads (none excluded)."""
    import numpy as np
    joint = np.outer(ps[:4], pr[:13])  # suit x rank
    flat = joint.ravel()
    order = np.argsort(-flat)[:k]
    return [(int(i), float(flat[i])) for i in order]


def _reads_of(rgb, pr, ps, pip, size, config, k=4, tint=None):
    """(readings best first as [(code, p), ...], note, the readings given the ink, the ink's
    tint (:func:`_ink_tint`), the suits' odds given the ink (four, summing to 1, or None
    where the suit head gives none)) of one candidate index from the heads' outputs ``pr`` (14) and
    ``ps`` (5), its pip at ``pip`` and ``size`` pixels from pip to rank glyph: the pip's ink
    colour rules suits out (:func:`ink_suits`). Where it rules out the best reading's suit,
    the readings given the ink are the suit head's odds among the suits left (as if the ink
    were certain); else none. ``tint``: the pip's, where measured already."""
    import numpy as np
    reads = _readings(pr, ps, k)
    note = ""
    given: list = []
    if tint is None:
        tint = _ink_tint(rgb, pip, size)
    ink, ruled_out = _ink_rules(tint, config)
    if ruled_out:
        # the pip's colour is evidence of its own: no reading in a suit not printed in
        # that ink is kept (nor offered later, when a copy too many or the other corner
        # is re-read); where the best was one, the best that is not is taken (surely only
        # if the model gives it as much)
        left = [s for s in range(4) if s not in ruled_out]
        if reads[0][0] // 13 in ruled_out:
            note = f"the pip's ink is {ink}: not {_name(reads[0][0])}"
        if len(left) == 1 and note:   # the ink names the suit: the rank head reads the rest
            reads = _readings(pr, np.eye(4)[left[0]], k)
        else:
            allowed = ps.copy()
            allowed[sorted(ruled_out)] = 0.0
            reads = _readings(pr, allowed, k)
            if note and allowed[:4].sum() > 0:
                given = _readings(pr, allowed / allowed[:4].sum(), k)
    odds = np.array(ps[:4], float)
    if ruled_out:
        odds[sorted(ruled_out)] = 0.0
    total = float(odds.sum())
    suits = tuple(float(v) for v in odds / total) if total > 0 else None
    return reads, note, given, tint, suits


def _detection(rgb, p, r, pr, ps, config, tint=None) -> Detection:
    """The reading of the index with its pip at ``p`` and its rank glyph at ``r``, from the
    heads' outputs (its pip's ink ruling suits out: :func:`_reads_of`; ``tint``: its ink,
    where measured already)."""
    d = float(math.hypot(*(r - p)))
    reads, note, given, tint, suits = _reads_of(rgb, pr, ps, p, d, config, tint=tint)
    code, conf = reads[0]
    m = (p + r) / 2
    return Detection(code, conf, float(m[0]), float(m[1]),
                     (float((r - p)[0] / d), float((r - p)[1] / d)), d, note=note,
                     alternatives=reads[1:], given_ink=given, pip_at=(float(p[0]), float(p[1])),
                     rank_at=(float(r[0]), float(r[1])), ink=tint, suits=suits)


def _four_colour(dets, threshold, config) -> None:
    """Where the photo's deck prints its clubs green or its diamonds blue
    (``config.four_colour_seen``), the readings ``dets`` of a club in black ink or a diamond in
    red are read again without that suit, in place: as :func:`_reads_of` reads a pip whose
    ink rules the best suit out (the best reading left, at the model's own odds, so below the
    threshold, and the readings given the ink for the rules to choose from). The inks are
    those the readings were made with (``Detection.ink``)."""
    tints = [d.ink for d in dets]
    inks = [_ink_word(t, config) for t in tints]
    sure = [d.confidence >= threshold and not d.note for d in dets]
    green = sum(1 for d, ink, ok in zip(dets, inks, sure, strict=True)
                if ok and ink == "green" and d.suit == CLUBS)
    blue = sum(1 for d, ink, ok in zip(dets, inks, sure, strict=True)
               if ok and ink == "blue" and d.suit == DIAMONDS)
    for d, ink, t in zip(dets, inks, tints, strict=True):
        if green >= config.four_colour_seen and ink == "not red" and d.suit == CLUBS \
                and max(t) < config.ink_grey:   # (black, not a faint green)
            why = "black, and this deck's clubs are green"
        elif blue >= config.four_colour_seen and ink == "red" and d.suit == DIAMONDS:
            why = "red, and this deck's diamonds are blue"
        else:
            continue
        reads = [(d.code, d.confidence)] + list(d.alternatives)
        left = [(c, p) for c, p in reads if c // 13 != d.suit]
        d.note = f"the pip's ink is {why}: not {_name(d.code)}"
        if not left:
            d.confidence = 0.0
            continue
        total = sum(p for _, p in left)
        d.given_ink = [(c, p / total) for c, p in left] if total > 0 else []
        (d.code, d.confidence), d.alternatives = left[0], left[1:]


def sure_tints(rgb, c, keep, dist, score) -> dict[int, tuple | None]:
    """The ink tints (:func:`_ink_tint`) of the candidates the model reads surely (``score``
    of the candidates ``keep`` over 0.9; the 200 surest), by candidate: what
    :func:`_inks_hold` judges, measured once for the readings too."""
    import numpy as np
    sure = np.flatnonzero(score > 0.9)
    return {int(keep[k]): _ink_tint(rgb, c.pip[keep[k]], float(dist[k]))
            for k in sure[np.argsort(-score[sure])][:200].tolist()}


def _inks_hold(tints, ps, config) -> bool:
    """Whether the photo's deck prints its suits in the inks the rules know (:func:`ink_suits`):
    false where a suit the model reads surely (at the candidates of ``tints``), at
    ``config.ink_judged`` judged inks or more, is mostly (``config.ink_doubt``) in one ink
    that rules it out: the deck's own colours (purple spades, orange clubs). A model wrong
    about the suits reads one suit in inks of every colour instead, which the rules correct."""
    import numpy as np
    inks: list[dict[str, int]] = [{}, {}, {}, {}]
    for i, tint in tints.items():
        word = _ink_word(tint, config)
        if word:
            seen = inks[int(np.argmax(ps[i, :4]))]
            seen[word] = seen.get(word, 0) + 1
    for suit, seen in enumerate(inks):
        judged = sum(seen.values())
        if judged >= config.ink_judged:
            word, most = max(seen.items(), key=lambda t: t[1])
            if most >= config.ink_doubt * judged and suit in _ink_rules_of(word):
                return False
    return True


def _ink_tint(rgb, pip, size):
    """How much the red, the green and the blue of the ink of the pip at ``pip`` (an index
    ``size`` pixels from pip to rank glyph) stand out from its other two channels, each
    relative to the paper's: the darkest pixels of a window round the pip against the
    window's paper. None where the window shows too little contrast to judge."""
    import numpy as np
    r = max(3, int(size * 0.35))
    x, y = round(float(pip[0])), round(float(pip[1]))
    win = rgb[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1]
    if win.size == 0:
        return None
    w = win.astype(np.float32)
    mn = w.min(2)
    ranked = np.sort(win.min(2).ravel(), kind="stable")[None]
    hi, lo = float(percentile_sorted(ranked, 95)[0]), float(ranked[0, 0])
    if hi - lo < 20:
        return None
    paper = w[mn > lo + 0.8 * (hi - lo)].mean(0) + 1
    red, green, blue = w[mn < lo + 0.4 * (hi - lo)].mean(0) / paper
    return red - max(green, blue), green - max(red, blue), blue - max(red, green)


def ink_suits(rgb, pip, size, *, config: ReadConfig = DEFAULT) -> tuple[str, set[int]]:
    """(the ink's colour in words, the suits it rules out) of the pip at ``pip`` of an index
    ``size`` pixels from pip to rank glyph: the darkest pixels of a window round the pip
    against the window's paper, so a tinted light or a photo's white balance cancels out.
    Red ink rules out spades and clubs; green ink (a four-colour deck's clubs) every other
    suit, and blue (its diamonds) likewise; grey or black ink hearts and diamonds.
    Ink too faint, or between those, to judge rules out nothing (``config.ink_red``,
    ``ink_tint``, ``ink_grey``)."""
    return _ink_rules(_ink_tint(rgb, pip, size), config)


def _ink_rules(tint, config) -> tuple[str, set[int]]:
    """:func:`ink_suits` from the ink's tint (:func:`_ink_tint`)."""
    word = _ink_word(tint, config)
    return word, _ink_rules_of(word)


def _ink_rules_of(word: str) -> set[int]:
    """The suits ink of this colour (:func:`_ink_word`) rules out."""
    return {"red": {SPADES, CLUBS}, "green": {SPADES, HEARTS, DIAMONDS},
            "blue": {SPADES, HEARTS, CLUBS}, "not red": {HEARTS, DIAMONDS}}.get(word, set())


def _ink_word(tint, config) -> str:
    """The ink's colour in words (:func:`ink_suits`) from its tint (:func:`_ink_tint`)."""
    if tint is None or not config.ink_rules:
        return ""
    rd, gd, bd = tint
    if rd > config.ink_red:
        return "red"
    if gd > config.ink_tint:
        return "green"
    if bd > config.ink_tint:
        return "blue"
    if rd < config.ink_grey and bd < config.ink_grey:
        return "not red"
    return ""
