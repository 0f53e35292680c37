"""Train the convolutional recognizer: ``python -m companion.vision.convnet`` (``make model``).

The recognizer reads each candidate index's upright crop (:func:`companion.vision.detect.crops`,
32x40, the min channel and R, G, B on the crop's own contrast: :func:`.model.prepare`) with a
small convolutional network: three 3x3 convolutions (8, 16, 32 channels; ReLU, 2x2 max-pool
after each), a dense layer of 128 (ReLU) and 19 outputs, the two heads of the ANN_MLP it
replaces (rank A-K or none, suit or none). It is written as ONNX and run by ``cv2.dnn``.

1. Generate scenes with :mod:`.synth` (``--fonts extra``: the rank glyphs in many free
   typefaces; seeds 1..N, ``--gaps`` more scenes all of Gaps, whose four rows of thirteen
   make the smallest indices a photo has, and ``--designs`` more drawn with the faces of each
   published design that may be trained on, :mod:`.designs`) and take every candidate the detector makes, as at
   run time, labelled from the scene's truth (:func:`label`: an index corner at least half in
   view is its card); all index corners and twice as many others.
2. Train with Adam (cross-entropy on each head, a cosine learning rate, each batch shifted by
   up to 2 pixels), in JAX on the CPU (an optional training tool: ``pip install
   'companion[train]'``; nothing at run time needs it).
3. Fit the softmax temperature on validation scenes of the five DejaVu faces (seeds 900,001
   on), write ``cards-cnn.onnx`` (with the ``onnx`` package) and ``cards-cnn.json``, and their
   lines of ``SHA256SUMS``. Where the sums name the ONNX file, ``model.load`` reads with it.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from . import designs
from .model import CNN_FILE, CNN_META, prepare, softmax_heads, write_sums
from .synth import TRAIN_FONTS, available_fonts, make_scene, shake
from .train import _inside

WIDTHS, HIDDEN = (8, 16, 32), 128
VAL_SEEDS = range(900_001, 900_041)
GAPS_SEED = 3_000_000           # the extra Gaps scenes (``--gaps``): seeds 3,000,001 on
DESIGN_SEED = 4_000_000         # the designs' scenes: 100,000 seeds a design, in DESIGNS order
SHOWN, HIDDEN_MOST = 0.5, 0.2   # an index this much in view is one; this little, none


def label(cands, scene):
    """Per candidate: rank 0-13 and suit 0-4 (13, 4: not an index), or rank -1 (left out of
    training). An index corner at least half in view (:data:`SHOWN`) is its card: a card
    tucked a little under the next still shows which card it is, and the layout needs it
    (face-down cards are counted above it); one mostly covered (under :data:`HIDDEN_MOST`) is
    no index; those between are neither, left out."""
    import numpy as np

    n = len(cands.pip)
    rank = np.full(n, 13, np.int32)
    suit = np.full(n, 4, np.int32)
    # the corners least in view first, so a candidate on two takes the better one's label
    for ix in sorted(scene.indices, key=lambda ix: ix["visible_frac"]):
        if ix["visible_frac"] < HIDDEN_MOST:
            continue
        hit = _inside(cands.pip, ix["pip"]) & _inside(cands.rank, ix["rank"])
        if ix["visible_frac"] < SHOWN:
            rank[hit] = -1
            continue
        suit[hit], rank[hit] = divmod(ix["code"], 13)
    return rank, suit


_STYLES: dict = {}


def _design_style(name):
    """A published design's faces as a synth style, loaded once a process."""
    if name not in _STYLES:
        _STYLES[name] = designs.style(designs.BY_NAME[name])
    return _STYLES[name]


def scene_crops(seed, fonts=None, extra=True, neg_ratio=2.0, kind=None, design=None,
                shaken=0.0):
    """(min-channel crops, RGB crops, rank 0-13, suit 0-4) of a generated scene's candidates
    (:func:`label`): every index corner and up to ``neg_ratio`` times as many others (at
    least 20). ``kind``: the layout (:func:`.synth.make_scene`; None: drawn by the seed);
    ``design``: the faces of that published design instead of drawn ones; ``shaken``: the
    share of scenes photographed blurred (:func:`.synth.shake`), drawn by the seed."""
    import numpy as np

    # late-bound: tests monkeypatch candidates on detect
    from .detect import candidates
    style = _design_style(design) if design else None
    sc = make_scene(seed, kind=kind, fonts=fonts, extra=extra, style=style)
    blur = np.random.default_rng((seed, 7))   # its own stream: the scene is the same either way
    if blur.random() < shaken:
        sc.image = shake(sc.image, blur)
    c = candidates(sc.image, waists=False, describe=False)
    r, s = label(c, sc)
    pos, neg = np.flatnonzero((r >= 0) & (r < 13)), np.flatnonzero(r == 13)
    rng = np.random.default_rng(seed + 10**6)
    k = min(len(neg), int(max(20, neg_ratio * len(pos))))
    idx = np.concatenate([pos, rng.choice(neg, k, replace=False) if k else neg])
    g, cc = c.crops
    return g[idx], cc[idx], r[idx], s[idx]


def _scene_crops(args):
    seed, fonts, extra, kind, design, shaken = args
    return scene_crops(seed, fonts, extra, kind=kind, design=design, shaken=shaken)


def build(seeds, fonts=None, extra=True, workers=2, kind=None, design=None, shaken=0.0):
    """The crops of many scenes, concatenated: (g, c, rank, suit)."""
    import numpy as np
    tasks = [(s, fonts, extra, kind, design, shaken) for s in seeds]
    if workers > 1:
        from multiprocessing import get_context
        with get_context("fork").Pool(workers) as pool:
            parts = pool.map(_scene_crops, tasks, chunksize=2)
    else:
        parts = [_scene_crops(t) for t in tasks]
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(4))


def _jax():
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        raise SystemExit("training the convolutional recognizer needs JAX (CPU is enough): "
                         "pip install 'companion[train]'") from None
    return jax, jnp


def init(seed=0):
    import numpy as np
    rng = np.random.default_rng(seed)
    p, cin = {}, 4
    for i, w in enumerate(WIDTHS):
        p[f"c{i}"] = rng.normal(0, np.sqrt(2 / (cin * 9)), (w, cin, 3, 3)).astype(np.float32)
        p[f"b{i}"] = np.zeros(w, np.float32)
        cin = w
    flat = cin * 5 * 4
    p["d"] = rng.normal(0, np.sqrt(2 / flat), (flat, HIDDEN)).astype(np.float32)
    p["db"] = np.zeros(HIDDEN, np.float32)
    p["o"] = rng.normal(0, np.sqrt(1 / HIDDEN), (HIDDEN, 19)).astype(np.float32)
    p["ob"] = np.zeros(19, np.float32)
    return p


def forward(p, x):
    """The network's 19 outputs for inputs x (n, 4, 40, 32), in JAX (as the ONNX graph)."""
    jax, jnp = _jax()
    for i in range(len(WIDTHS)):
        x = jax.lax.conv_general_dilated(x, p[f"c{i}"], (1, 1), "SAME",
                                         dimension_numbers=("NCHW", "OIHW", "NCHW"))
        x = jax.nn.relu(x + p[f"b{i}"][None, :, None, None])
        x = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")
    x = jax.nn.relu(x.reshape(x.shape[0], -1) @ p["d"] + p["db"])
    return x @ p["o"] + p["ob"]


def fit(X, R, S, epochs=14, batch=128, rate=2e-3, seed=0, log=print):
    """Weights (a dict of arrays) trained on inputs X (:func:`.model.prepare`), rank R, suit S."""
    import numpy as np
    jax, jnp = _jax()

    def loss(p, x, r, s):
        z = forward(p, x)
        lr, ls = jax.nn.log_softmax(z[:, :14]), jax.nn.log_softmax(z[:, 14:])
        return -(jnp.take_along_axis(lr, r[:, None], 1).mean()
                 + jnp.take_along_axis(ls, s[:, None], 1).mean())

    @jax.jit
    def step(p, m, v, t, x, r, s, lr):
        val, g = jax.value_and_grad(loss)(p, x, r, s)
        m = jax.tree.map(lambda a, b: 0.9 * a + 0.1 * b, m, g)
        v = jax.tree.map(lambda a, b: 0.999 * a + 0.001 * b * b, v, g)
        p = jax.tree.map(lambda a, b, c: a - lr * (b / (1 - 0.9 ** t))
                         / (jnp.sqrt(c / (1 - 0.999 ** t)) + 1e-8), p, m, v)
        return p, m, v, val

    p = {k: jnp.asarray(a) for k, a in init(seed).items()}
    m = jax.tree.map(jnp.zeros_like, p)
    v = jax.tree.map(jnp.zeros_like, p)
    rng = np.random.default_rng(seed)
    R, S = R.astype(np.int32), S.astype(np.int32)
    t = 0
    for ep in range(epochs):
        t0, perm, total = time.time(), rng.permutation(len(X)), 0.0
        lr = rate * 0.5 * (1 + np.cos(np.pi * ep / epochs))
        for at in range(0, len(X) - batch + 1, batch):
            j = perm[at:at + batch]
            t += 1
            dy, dx = rng.integers(-2, 3, 2)
            x = np.roll(X[j], (int(dy), int(dx)), (2, 3))
            p, m, v, val = step(p, m, v, t, x, R[j], S[j], lr)
            total += float(val)
        log(f"epoch {ep + 1}/{epochs}: loss {total / max(1, len(X) // batch):.4f}, "
            f"{time.time() - t0:.0f} s")
    return {k: np.asarray(a) for k, a in p.items()}


def outputs(p, X, batch=2048):
    import numpy as np
    jax, _ = _jax()
    f = jax.jit(forward)
    return np.concatenate([np.asarray(f(p, X[at:at + batch]), np.float64)
                           for at in range(0, len(X), batch)] or [np.zeros((0, 19))])


def temperature(z, R, S):
    """The softmax temperature (0.3-2.0, steps of 0.025) that fits the validation best (the
    two heads' mean negative log-likelihood)."""
    import numpy as np

    def nll(T):
        total = 0.0
        for a, b, y in ((0, 14, R), (14, 19, S)):
            q = z[:, a:b] * T
            q = q - q.max(1, keepdims=True)
            lp = q - np.log(np.exp(q).sum(1, keepdims=True))
            total -= lp[np.arange(len(y)), y].mean()
        return total
    grid = np.round(np.arange(0.3, 2.0001, 0.025), 3)
    return float(grid[int(np.argmin([nll(T) for T in grid]))])


def to_onnx(p, path):
    """Write the weights as an ONNX graph (opset 13) that ``cv2.dnn`` runs: input ``x``
    (n, 4, 40, 32), output ``z`` (n, 19)."""
    import numpy as np
    try:
        import onnx
        from onnx import TensorProto, helper, numpy_helper
    except ImportError:
        raise SystemExit("writing the recognizer needs the onnx package: "
                         "pip install 'companion[train]'") from None
    nodes, inits = [], []

    def const(name):
        inits.append(numpy_helper.from_array(np.asarray(p[name], np.float32), name))

    x = "x"
    for i in range(len(WIDTHS)):
        const(f"c{i}")
        const(f"b{i}")
        nodes += [helper.make_node("Conv", [x, f"c{i}", f"b{i}"], [f"conv{i}"],
                                   pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
                  helper.make_node("Relu", [f"conv{i}"], [f"relu{i}"]),
                  helper.make_node("MaxPool", [f"relu{i}"], [f"pool{i}"], kernel_shape=[2, 2],
                                   strides=[2, 2])]
        x = f"pool{i}"
    for name in ("d", "db", "o", "ob"):
        const(name)
    nodes += [helper.make_node("Flatten", [x], ["flat"], axis=1),
              helper.make_node("Gemm", ["flat", "d", "db"], ["h"]),
              helper.make_node("Relu", ["h"], ["hr"]),
              helper.make_node("Gemm", ["hr", "o", "ob"], ["z"])]
    graph = helper.make_graph(
        nodes, "cards", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 4, 40, 32])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, ["n", 19])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="companion")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)


def scores(z, T, R, S):
    """Validation figures: the rank head, the suit head, and both right on index corners."""

    pr, ps = softmax_heads(z, (14, 5), T)
    isx = R < 13
    both = (pr.argmax(1) == R) & (ps.argmax(1) == S)
    return {"rank_acc": float((pr.argmax(1) == R).mean()),
            "suit_acc": float((ps.argmax(1) == S).mean()),
            "index_both": float(both[isx].mean()), "n": len(R)}


def main(argv=None):
    ap = argparse.ArgumentParser(description="train the convolutional card recognizer "
                                             "(see the module's text)")
    ap.add_argument("--scenes", type=int, default=500)
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--fonts", choices=("train", "extra"), default="extra",
                    help="rank fonts of the training scenes: the five DejaVu faces, or those "
                         "and synth.EXTRA_TRAIN_FONTS")
    ap.add_argument("--gaps", type=int, default=0,
                    help="this many more scenes, all Gaps (seeds 3,000,001 on): four rows of "
                         "thirteen, the smallest indices a layout photo has")
    ap.add_argument("--designs", type=int, default=0,
                    help="this many more scenes with the faces of each published design that "
                         "may be trained on (designs.DESIGNS less HELD_OUT_SOURCES), fetched "
                         "into vision-data/ on first use (needs the [designs] extra)")
    ap.add_argument("--shaken", type=float, default=0.0,
                    help="the share of training scenes photographed blurred (motion or focus, "
                         "synth.shake), so blurred indices read unsure instead of surely wrong")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", default="models")
    a = ap.parse_args(argv)
    _jax()
    import numpy as np

    t0 = time.time()
    g, c, R, S = build(range(1, a.scenes + 1), extra=a.fonts == "extra", workers=a.workers,
                       shaken=a.shaken)
    if a.gaps:
        more = build(range(GAPS_SEED + 1, GAPS_SEED + a.gaps + 1), extra=a.fonts == "extra",
                     workers=a.workers, kind="gaps", shaken=a.shaken)
        g, c, R, S = (np.concatenate([x, y]) for x, y in zip((g, c, R, S), more, strict=True))
    trained_designs = []
    if a.designs:
        for i, d in enumerate(designs.DESIGNS):
            if d.source in designs.HELD_OUT_SOURCES:
                continue
            _design_style(d.name)   # fetched and rasterised once, before the workers fork
            first = DESIGN_SEED + 100_000 * i + 1
            more = build(range(first, first + a.designs), extra=a.fonts == "extra",
                         workers=a.workers, design=d.name, shaken=a.shaken)
            g, c, R, S = (np.concatenate([x, y]) for x, y in zip((g, c, R, S), more,
                                                                  strict=True))
            trained_designs.append(d.name)
    gv, cv, Rv, Sv = build(VAL_SEEDS, fonts=available_fonts(TRAIN_FONTS), extra=False,
                           workers=a.workers)
    X, Xv = prepare(g, c), prepare(gv, cv)
    t1 = time.time()
    print(f"data: {len(X)} candidates ({int((R < 13).sum())} index corners) from {a.scenes} "
          f"scenes, {len(Xv)} validation; {t1 - t0:.0f} s", flush=True)
    p = fit(X, R, S, a.epochs, log=lambda s: print(s, flush=True))
    t2 = time.time()
    z = outputs(p, Xv)
    T = temperature(z, Rv, Sv)
    meta = {"temperature": T, "input": [4, 40, 32], "widths": list(WIDTHS), "hidden": HIDDEN,
            "scenes": a.scenes, "gaps": a.gaps, "epochs": a.epochs, "fonts": a.fonts,
            "designs": {"scenes": a.designs, "names": trained_designs}, "shaken": a.shaken,
            "validation": scores(z, T, Rv, Sv)}
    print(f"trained in {t2 - t1:.0f} s; temperature {T}; validation: "
          f"{json.dumps(meta['validation'])}", flush=True)
    os.makedirs(a.out, exist_ok=True)
    to_onnx(p, os.path.join(a.out, CNN_FILE))
    with open(os.path.join(a.out, CNN_META), "w", encoding="utf-8") as f:
        json.dump(meta, f)
    write_sums(a.out, (CNN_FILE, CNN_META))
    print(f"wrote {a.out}/{CNN_FILE}, {CNN_META}, SHA256SUMS; total {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
