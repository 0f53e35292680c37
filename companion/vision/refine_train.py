"""Train the index refiner (:mod:`.refine`): ``python -m companion.vision.refine_train``
(``make refiner``). Training only: nothing at run time imports this module."""

from __future__ import annotations

import argparse
import json
import time

from .detect import _pairs, ink_components
from .model import save_checked
from .refine import REFINE_FILE, REFINE_META, Refiner, features
from .synth import make_scene
from .train import _inside, train


def scene_samples(seed, fonts=None, extra=True):
    """(features, rank 0-12, suit 0-3) of every index the detector pairs right in a generated
    scene (the pip and the rank glyph of a visible index corner)."""
    import numpy as np

    sc = make_scene(seed, fonts=fonts, extra=extra)
    stats, cents, peeled = ink_components(sc.image)
    pi, rj = _pairs(stats, cents, peeled)
    P, R = cents[pi].astype(np.float64), cents[rj].astype(np.float64)
    code = np.full(len(P), -1, np.int32)
    for ix in sc.indices:
        if ix["visible"] and len(P):
            code[_inside(P, ix["pip"]) & _inside(R, ix["rank"])] = ix["code"]
    pos = np.flatnonzero(code >= 0)
    return features(sc.image, P[pos], R[pos]), code[pos] % 13, code[pos] // 13


def build(seeds, extra=True):
    import numpy as np
    parts = [scene_samples(s, extra=extra) for s in seeds]
    parts = [p for p in parts if len(p[1])]
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]))


def main(argv=None):
    import cv2
    import numpy as np
    ap = argparse.ArgumentParser(description="train the index refiner (see the module's text)")
    ap.add_argument("--scenes", type=int, default=300)
    ap.add_argument("--val-scenes", type=int, default=20)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--iters", type=int, default=300)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--fonts", choices=("train", "extra"), default="extra",
                    help="rank fonts of the training scenes, as `train --fonts`")
    ap.add_argument("--out", default="models")
    a = ap.parse_args(argv)
    t0 = time.time()
    # seeds of their own (not the recognizer's 1..N), training fonts only
    F, R, S = build(range(2_000_001, 2_000_001 + a.scenes), a.fonts == "extra")
    Fv, Rv, Sv = build(range(900_001, 900_001 + a.val_scenes), False)
    t1 = time.time()
    print(f"data: {len(F)} indices from {a.scenes} scenes, {len(Fv)} validation, "
          f"{t1 - t0:.0f} s", flush=True)
    cv2.setNumThreads(a.threads)
    net, meta = train(F, R, S, a.hidden, a.iters, heads=(13, 4))
    t2 = time.time()
    meta.update({"temperature": 4.0, "weight": 1.0, "scenes": a.scenes, "hidden": a.hidden,
                 "iters": a.iters, "fonts": a.fonts, "features": int(F.shape[1])})
    qr, qs = Refiner(net, meta).predict(Fv)
    ev = {"rank_acc": float((qr.argmax(1) == Rv).mean()),
          "suit_acc": float((qs.argmax(1) == Sv).mean()), "n": len(Fv)}
    meta["validation"] = ev
    print(f"trained in {t2 - t1:.0f} s; validation: {json.dumps(ev)}", flush=True)
    save_checked(a.out, net, meta, REFINE_FILE, REFINE_META)
    print(f"wrote {a.out}/{REFINE_FILE}, {REFINE_META}, SHA256SUMS; total "
          f"{time.time() - t0:.0f} s; {int(np.prod(F.shape))} feature values")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
