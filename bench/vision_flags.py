"""Which scenes a reading option matters to: each scene of a set read twice, with the options
as they are and with some set otherwise, and the scenes whose reading differs listed.

The vision tests show a mechanism at work on a real scene: with the option off a card is
missed, with it on read. Such a premise holds for one model's readings; after the model is
retrained, this finds the scenes where the option still matters (or says it matters nowhere):

    python bench/vision_flags.py lone_strips=False --kind gaps --scenes 200
    python bench/vision_flags.py lend_in_pixels=False --kind gaps --base 7600000
    python bench/vision_flags.py lone_big=0 lone_twins=False --each --scenes 30

Each setting names a field of `companion.vision.config.ReadConfig`; the changed reading is
made with the defaults so replaced (the cards and the piles alike).

Per scene that differs: the cards read sure and right at an index in view that only one of the
two readings has, the sure cards only one has that are not in view (false readings), and
whether each layout is exact. Same scenes and held-out fonts as `bench/vision.py`
(``--base``: its first scene's seed, Gaps +1000, Pyramid +2000).
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.vision import KINDS, backs, layout_exact
from bench.vision_failures import _index_centres


def _setting(text):
    """(field, value) of ``NAME=VALUE`` (NAME a field of
    :class:`companion.vision.config.ReadConfig`; VALUE a Python literal)."""
    from companion.vision.config import ReadConfig
    names = [f.name for f in dataclasses.fields(ReadConfig)]
    try:
        name, value = text.split("=", 1)
        if name not in names:
            raise AttributeError(f"no setting {name}")
        return name, ast.literal_eval(value)
    except (ValueError, AttributeError, SyntaxError) as exc:
        raise SystemExit(f"cannot use {text!r} ({exc}): write NAME=VALUE, e.g. "
                         f"lone_strips=False; the settings: {', '.join(names)}") from None


def right_cards(sc, dets):
    """(cards read sure and right at an index of theirs at least half in view, sure cards
    read that no index in view shows), as card codes."""
    seen = _index_centres(sc)
    right, false = set(), set()
    for d in dets:
        if d.uncertain:
            continue
        at = [(d.x, d.y)] + ([d.other[:2]] if d.other is not None else [])
        pts = seen.get(d.code, [])
        if any(math.hypot(x - p[0], y - p[1]) < 2.5 * d.size for p in pts for x, y in at):
            right.add(d.code)
        else:
            false.add(d.code)
    return right, false


def main(argv=None):
    from companion.cards import code_text
    from companion.vision.config import DEFAULT
    from companion.vision.model import load
    from companion.vision.read import read_photo
    from companion.vision.synth import HELDOUT_FONTS, available_fonts, make_scene
    ap = argparse.ArgumentParser(description="scenes whose reading a reading option changes")
    ap.add_argument("settings", nargs="+", help="NAME=VALUE (a field of ReadConfig)")
    ap.add_argument("--kind", default="gaps", choices=sorted(KINDS))
    ap.add_argument("--scenes", type=int, default=40)
    ap.add_argument("--first", type=int, default=0, help="first scene number")
    ap.add_argument("--base", type=int, default=7_000_000,
                    help="first scene seed (Klondike; Gaps +1000, Pyramid +2000)")
    ap.add_argument("--each", action="store_true",
                    help="each setting alone against the reading as is (one reading as is a "
                         "scene), not all of them together")
    ap.add_argument("--recognizer", choices=("hog",), default=None,
                    help="hog: read with the earlier recognizer, as some vision tests do "
                         "(default: the one `companion scan` uses)")
    a = ap.parse_args(argv)
    changes = [_setting(s) for s in a.settings]
    from companion.vision.synth import add_font_dir
    add_font_dir(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "fonts"))   # the held-out faces, shipped
    fonts = available_fonts(HELDOUT_FONTS)
    if not fonts:
        print("the held-out fonts are missing from tests/fonts")
        return 1
    clf = load(recognizer=a.recognizer)
    variant = KINDS[a.kind]
    names = lambda codes: " ".join(sorted(code_text(c, False) for c in codes))  # noqa: E731
    groups = [[c] for c in changes] if a.each else [changes]
    differ = [0] * len(groups)

    def reading(sc, group):
        config = dataclasses.replace(DEFAULT, **dict(group))
        dets = read_photo(sc.image, clf, backs=backs(variant), config=config)
        right, false = right_cards(sc, dets)   # (before the piles may change them)
        return right, false, layout_exact(sc, dets, variant, config)[0]
    for k in range(a.first, a.first + a.scenes):
        seed = a.base + 1000 * list(KINDS).index(a.kind) + k
        sc = make_scene(seed, a.kind, fonts=fonts)
        r0, f0, e0 = reading(sc, [])
        for g, group in enumerate(groups):
            r1, f1, e1 = reading(sc, group)
            if (r0, f0, e0) != (r1, f1, e1):
                differ[g] += 1
                label = f" with {a.settings[g]}" if a.each else ""
                print(f"scene {k} (seed {seed}){label}: as is: exact {e0}, only right "
                      f"{names(r0 - r1) or '-'}, only false {names(f0 - f1) or '-'}; changed: "
                      f"exact {e1}, only right {names(r1 - r0) or '-'}, only false "
                      f"{names(f1 - f0) or '-'}", flush=True)
    for g in range(len(groups)):
        label = a.settings[g] if a.each else " ".join(a.settings)
        print(f"{differ[g]} of {a.scenes} scenes read otherwise with {label}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
