"""Regenerate the card model from scratch: ``python -m companion.vision.train`` (``make model``).

1. Generate scenes with :mod:`.synth` (training fonts only, or with ``--fonts extra`` many more
   free typefaces; seeds 1..N).
2. Extract every index candidate exactly as recognition does (:mod:`.detect`) and label it from
   the scene's ground truth: (rank, suit) when the pip and the rank glyph of a visible index
   corner, otherwise "none".
3. Train one OpenCV ANN_MLP (two heads: rank + none, suit + none) with RPROP, write it as
   OpenCV YAML (gzip), its normalisation and temperature as JSON, and their SHA-256 sums.
Runs on a CPU; numbers of scenes and threads are options.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from .model import META_FILE, MODEL_FILE, N_RANK, N_SUIT, SUMS_FILE, Classifier, save_checked
from .synth import extra_fonts, make_scene


def _inside(pts, poly, tol=1.5):
    x0, y0 = poly.min(0) - tol
    x1, y1 = poly.max(0) + tol
    return (pts[:, 0] >= x0) & (pts[:, 0] <= x1) & (pts[:, 1] >= y0) & (pts[:, 1] <= y1)


def label_candidates(cands, scene):
    """Per candidate: rank class 0-13 (13 = none) and suit class 0-4 (4 = none)."""
    import numpy as np
    n = len(cands.pip)
    rank = np.full(n, 13, np.int32)
    suit = np.full(n, 4, np.int32)
    for ix in scene.indices:
        if not ix["visible"]:
            continue
        hit = _inside(cands.pip, ix["pip"]) & _inside(cands.rank, ix["rank"])
        s, r = divmod(ix["code"], 13)
        rank[hit] = r
        suit[hit] = s
    return rank, suit


def scene_samples(seed, neg_ratio=2.0, fonts=None, widen=False, extra=False):
    import numpy as np

    # late-bound: tests monkeypatch candidates on detect
    from .detect import candidates
    sc = make_scene(seed, fonts=fonts, widen=widen, extra=extra)
    c = candidates(sc.image, waists=False)  # (as the model files were trained)
    r, s = label_candidates(c, sc)
    pos = np.flatnonzero(r < 13)
    neg = np.flatnonzero(r == 13)
    rng = np.random.default_rng(seed + 10**6)
    k = min(len(neg), int(max(20, neg_ratio * len(pos))))
    neg = rng.choice(neg, k, replace=False) if k else neg
    idx = np.concatenate([pos, neg])
    return c.features[idx], r[idx], s[idx]


def _worker(args):
    return scene_samples(*args)


def build_dataset(seeds, workers=2, widen=False, extra=False):
    import numpy as np
    if workers > 1:
        from multiprocessing import get_context
        with get_context("fork").Pool(workers) as pool:
            parts = pool.map(_worker, [(s, 2.0, None, widen, extra) for s in seeds], chunksize=4)
    else:
        parts = [scene_samples(s, widen=widen, extra=extra) for s in seeds]
    F = np.concatenate([p[0] for p in parts])
    R = np.concatenate([p[1] for p in parts])
    S = np.concatenate([p[2] for p in parts])
    return F, R, S


def train(F, R, S, hidden=96, iters=400, heads=None):
    """An ``ANN_MLP`` with two heads (``heads``: their sizes, the recognizer's rank and suit
    with "none" by default), trained by RPROP on targets +1/-1, and its normalisation."""
    import cv2
    import numpy as np

    n_rank, n_suit = heads or (N_RANK, N_SUIT)
    mu = F.mean(0)
    sd = F.std(0) + 1e-3
    X = ((F - mu) / sd).astype(np.float32)
    Y = np.full((len(F), n_rank + n_suit), -1.0, np.float32)
    Y[np.arange(len(F)), R] = 1
    Y[np.arange(len(F)), n_rank + S] = 1
    net = cv2.ml.ANN_MLP_create()
    net.setLayerSizes(np.array([X.shape[1], hidden, n_rank + n_suit]))
    net.setActivationFunction(cv2.ml.ANN_MLP_SIGMOID_SYM, 0, 0)
    net.setTrainMethod(cv2.ml.ANN_MLP_RPROP, 0.05)
    net.setTermCriteria((cv2.TERM_CRITERIA_MAX_ITER + cv2.TERM_CRITERIA_EPS, iters, 1e-5))
    net.train(cv2.ml.TrainData_create(X, cv2.ml.ROW_SAMPLE, Y))
    return net, {"mean": mu.tolist(), "std": sd.tolist()}


def evaluate(net, meta, F, R, S):

    clf = Classifier(net, meta)
    pr, ps = clf.predict(F)
    ok_r = (pr.argmax(1) == R).mean()
    ok_s = (ps.argmax(1) == S).mean()
    posm = R < 13
    both = ((pr.argmax(1) == R) & (ps.argmax(1) == S))[posm].mean() if posm.any() else float("nan")
    return {"rank_acc": float(ok_r), "suit_acc": float(ok_s), "index_acc": float(both),
            "n": len(F), "n_index": int(posm.sum())}


def main(argv=None):
    import cv2

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=400)
    ap.add_argument("--val-scenes", type=int, default=40)
    ap.add_argument("--hidden", type=int, default=96)
    ap.add_argument("--iters", type=int, default=500)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--widen", action=argparse.BooleanOptionalAction, default=False,
                    help="rank glyphs in wider variety in half the training scenes "
                         "(synth.widen_style); validation scenes stay plain")
    ap.add_argument("--fonts", choices=("train", "extra"), default="train",
                    help="rank fonts of the training scenes: the five DejaVu faces (train), or "
                         "those and synth.EXTRA_TRAIN_FONTS with varied pip fonts (extra; missing "
                         "ones skipped with a warning); validation scenes stay on the five")
    ap.add_argument("--out", default="models")
    a = ap.parse_args(argv)
    t0 = time.time()
    extra = a.fonts == "extra"
    if extra:
        print(f"rank fonts: {', '.join(os.path.basename(f) for f in extra_fonts())}", flush=True)
    F, R, S = build_dataset(range(1, a.scenes + 1), a.workers, a.widen, extra)
    Fv, Rv, Sv = build_dataset(range(900_001, 900_001 + a.val_scenes), a.workers)
    t1 = time.time()
    print(f"data: {len(F)} training candidates ({(R < 13).sum()} index corners) from "
          f"{a.scenes} scenes, {len(Fv)} validation, {t1 - t0:.0f} s", flush=True)
    cv2.setNumThreads(a.workers)
    net, meta = train(F, R, S, a.hidden, a.iters)
    t2 = time.time()
    meta.update({"temperature": 4.0, "scenes": a.scenes, "hidden": a.hidden, "iters": a.iters,
                 "widen": a.widen, "fonts": a.fonts, "features": int(F.shape[1])})
    ev = evaluate(net, meta, Fv, Rv, Sv)
    meta["validation"] = ev
    print(f"trained in {t2 - t1:.0f} s; validation: {json.dumps(ev)}", flush=True)
    save_checked(a.out, net, meta, MODEL_FILE, META_FILE)   # the refiner's lines are kept
    size = os.path.getsize(os.path.join(a.out, MODEL_FILE))
    print(f"wrote {a.out}/{MODEL_FILE} ({size // 1024} KB), {META_FILE}, {SUMS_FILE}; "
          f"total {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
