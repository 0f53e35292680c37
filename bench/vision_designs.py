"""Photo reading on published deck designs (`make bench-vision` runs it after bench/vision.py).

Every scene is drawn with the faces of a real, openly licensed deck design
(`companion/vision/designs.py`, fetched from npm and PyPI on first use into vision-data/), laid
out and photographed as bench/vision.py's are, and read as `companion scan` reads. One line per
design, then the designs pooled by split: the *held-out* sources (designs.HELD_OUT_SOURCES) are
never trained on, by any model of this project; the others may be.

    python bench/vision_designs.py [--scenes N] [--design NAME ...] [--base SEED] [--calibrated]

With ``--calibrated`` each design is read a second time with the calibration that one photo of
Gaps seed 3 as dealt in that design teaches (`companion scan --calibrate`): the figure for
"any deck after one calibration photo".
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.vision import KINDS, backs, dealt_scene, layout_exact, score_scene


def _style(design):
    from companion.vision import designs
    return designs.style(design, os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "vision-data", "designs"))


def calibrated(design, clf):
    """The calibration one photo of Gaps seed 3 as dealt in ``design`` teaches, and a line
    saying what it learnt (or why it was refused: then None)."""
    from companion.vision import VisionError
    from companion.vision.calibrate import deck_from_photo
    sc = dealt_scene(_style(design))
    try:
        deck, got = deck_from_photo(sc.image, "gaps", 3, design.name, "the calibration photo",
                                    clf)
    except VisionError as e:
        return None, f"refused: {e}"
    return deck, (f"{got['cards']} cards placed, {got['agree']} read as dealt by the model "
                  f"alone; {got['ranks']} ranks, {got['suits']} suits taught, weight "
                  f"{got['weight']:g}")


def run_design(design, scenes: int, base: int, clf, deck=None):
    """[true positives, sure readings, visible cards, uncertain, right sure readings],
    exact layouts by kind, and the read times, for ``scenes`` scenes a layout kind."""
    from companion.vision.read import read_photo
    from companion.vision.synth import make_scene
    style = _style(design)
    agg = [0, 0, 0, 0, 0]
    exact, times = {}, []
    for kind, variant in KINDS.items():
        exact[kind] = 0
        for k in range(scenes):
            sc = make_scene(base + 1000 * list(KINDS).index(kind) + k, kind, style=style)
            t = time.perf_counter()
            dets = read_photo(sc.image, clf, backs=backs(variant), deck=deck)
            times.append(time.perf_counter() - t)
            ex, _, _ = layout_exact(sc, dets, variant)
            exact[kind] += ex
            got = score_scene(sc, dets)
            for i in range(5):
                agg[i] += got[i]
    return agg, exact, times


def _line(name, agg, exact, scenes, times=None):
    rec = agg[0] / agg[2] if agg[2] else float("nan")
    prec = agg[4] / agg[1] if agg[1] else float("nan")
    ex = " ".join(f"{exact[k] / scenes:5.0%}" for k in KINDS)
    t = f" {statistics.median(times):6.2f}" if times else ""
    return f"{name:22} {rec:8.2%} {prec:10.2%} {agg[3]:9d}  {ex}{t}"


def _pool(pooled, split, agg, exact, scenes):
    p = pooled.setdefault(split, [[0] * 5, dict.fromkeys(KINDS, 0), 0])
    p[0] = [x + y for x, y in zip(p[0], agg, strict=True)]
    for k in KINDS:
        p[1][k] += exact[k]
    p[2] += scenes


def main(argv=None):
    from companion.vision import designs
    from companion.vision.model import load
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=10, help="scenes per layout kind and design")
    ap.add_argument("--design", action="append", choices=sorted(designs.BY_NAME),
                    help="only this design (again for more; default: all)")
    ap.add_argument("--base", type=int, default=9_000_000,
                    help="first scene seed (Klondike; Gaps +1000, Pyramid +2000)")
    ap.add_argument("--calibrated", action="store_true",
                    help="each design read again with the calibration of one photo of its "
                         "Gaps seed 3 deal")
    a = ap.parse_args(argv)
    chosen = [designs.BY_NAME[n] for n in a.design] if a.design else list(designs.DESIGNS)
    clf = load()
    from companion.vision.model import MODEL_DIR
    print(f"{a.scenes} scenes a layout per design, seeds from {a.base}; the model in {MODEL_DIR}")
    print(f"{'design (source)':22} {'recall':>8} {'precision':>10} {'uncertain':>9}  "
          f"{'  '.join(k[:4] for k in KINDS)}  read s")
    pooled = {}
    for d in chosen:
        try:
            agg, exact, times = run_design(d, a.scenes, a.base, clf)
        except designs.DesignError as e:
            print(f"{d.name}: skipped: {e}")
            continue
        split = "held out" if d.source in designs.HELD_OUT_SOURCES else "trainable"
        print(_line(f"{d.name} ({d.source})", agg, exact, a.scenes, times) + f"  {split}")
        _pool(pooled, split, agg, exact, a.scenes)
        if a.calibrated:
            deck, said = calibrated(d, clf)
            if deck is None:   # read as it stands: a refused calibration changes nothing
                print(f"  calibrated: {said}")
            else:
                agg, exact, times = run_design(d, a.scenes, a.base, clf, deck=deck)
                print(_line("  calibrated", agg, exact, a.scenes, times) + f"  ({said})")
            _pool(pooled, f"{split}, calibrated", agg, exact, a.scenes)
    for split, (agg, exact, n) in pooled.items():
        print(_line(f"all {split}", agg, exact, n))
    print("recall: wholly visible cards read sure and right; precision: sure readings right; "
          "then the share of layouts read exactly (every pile, no card uncertain); read s: "
          "median seconds to read a 2000x1500 photo in-process")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
