"""Photo-reading benchmark (`make bench-vision`).

Generates scenes with fonts never used in training (Liberation, Arimo/Tinos, DejaVu Mono and
Serif Condensed: whichever are installed) and seeds far from the training seeds, reads them,
and prints per-card precision and recall, the whole-layout exact-match rate for Klondike, Gaps
and Pyramid, and the latency per 12-megapixel JPEG (decode + read + piles) on this machine.

    python bench/vision.py [--scenes N] [--latency N]
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

KINDS = {"klondike": "klondike", "gaps": "gaps", "pyramid": "pyramid"}


def score_scene(sc, dets):
    """(true positives, sure detections, visible cards, uncertain count) for one scene."""
    vis = {}
    for ix in sc.indices:
        if ix["visible"]:
            c = ix["rank"].mean(0) * 0.5 + ix["pip"].mean(0) * 0.5
            vis.setdefault(ix["code"], []).append(c)
    sure = [d for d in dets if not d.uncertain]
    tp = 0
    found = set()
    for d in sure:
        pts = vis.get(d.code, [])
        if any(math.hypot(d.x - p[0], d.y - p[1]) < 2.5 * d.size for p in pts) \
                and d.code not in found:
            tp += 1
            found.add(d.code)
    return tp, len(sure), len(vis), len(dets) - len(sure)


def layout_exact(sc, dets, variant):
    from companion.vision.piles import map_piles
    truth = {}
    for c in sorted(sc.cards, key=lambda c: c["order"]):
        if c["visible"]:
            truth.setdefault(c["pile"], []).append(c["code"])
    if variant == "klondike":  # foundations show their top card only
        truth = {k: (v[-1:] if k.startswith("f") else v) for k, v in truth.items()}
    reading = map_piles(dets, variant)
    read = {k: [d.code for d in v] for k, v in reading.piles.items()}
    if variant == "klondike":
        read = {k: (v[-1:] if k.startswith("f") else v) for k, v in read.items()}
    unsure = any(d.uncertain for v in reading.piles.values() for d in v)
    return read == truth and not unsure


def main(argv=None):
    from companion.vision.image import load_photo
    from companion.vision.model import load
    from companion.vision.read import read_cards
    from companion.vision.synth import HELDOUT_FONTS, available_fonts, make_scene
    ap = argparse.ArgumentParser(description="photo-reading benchmark")
    ap.add_argument("--scenes", type=int, default=20, help="scenes per layout kind")
    ap.add_argument("--latency", type=int, default=3, help="12-megapixel photos timed")
    a = ap.parse_args(argv)
    fonts = available_fonts(HELDOUT_FONTS)
    if not fonts:
        print("no held-out font installed (apt-get install fonts-liberation2 fonts-croscore)")
        return 1
    clf = load()
    print(f"held-out fonts: {', '.join(os.path.basename(f) for f in fonts)}")
    print(f"{'layout':10} {'scenes':>6} {'precision':>10} {'recall':>8} {'uncertain':>10} "
          f"{'exact':>7} {'read s':>7}")
    tot = [0, 0, 0, 0]
    for kind, variant in KINDS.items():
        agg = [0, 0, 0, 0]
        exact = 0
        times = []
        for k in range(a.scenes):
            sc = make_scene(7_000_000 + 1000 * list(KINDS).index(kind) + k, kind, fonts=fonts)
            t = time.perf_counter()
            dets = read_cards(sc.image, clf)
            times.append(time.perf_counter() - t)
            for i, v in enumerate(score_scene(sc, dets)):
                agg[i] += v
            exact += layout_exact(sc, dets, variant)
        for i in range(4):
            tot[i] += agg[i]
        prec = agg[0] / agg[1] if agg[1] else float("nan")
        rec = agg[0] / agg[2] if agg[2] else float("nan")
        print(f"{kind:10} {a.scenes:6d} {prec:10.1%} {rec:8.1%} {agg[3]:10d} "
              f"{exact / a.scenes:7.0%} {statistics.median(times):7.2f}")
    prec = tot[0] / tot[1] if tot[1] else float("nan")
    print(f"{'all':10} {3 * a.scenes:6d} {prec:10.1%} {tot[0] / max(1, tot[2]):8.1%} {tot[3]:10d}")
    # latency on 12-megapixel JPEGs, end to end
    import cv2
    lat = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(a.latency):
            sc = make_scene(8_000_000 + k, "klondike", fonts=fonts, size=(4000, 3000))
            path = os.path.join(tmp, f"p{k}.jpg")
            cv2.imwrite(path, sc.image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 90])
            t = time.perf_counter()
            rgb, _ = load_photo(path)
            dets = read_cards(rgb, clf)
            from companion.vision.piles import map_piles
            map_piles(dets, "klondike")
            lat.append(time.perf_counter() - t)
    print(f"latency per 12-megapixel photo (4000x3000 JPEG, load + read + piles, {os.cpu_count()} "
          f"CPUs): median {statistics.median(lat):.2f} s, max {max(lat):.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
