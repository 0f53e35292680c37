"""Published deck designs as training and evaluation data for the recognizer.

Each design is a whole 52-card deck drawn by someone else under a licence that allows its use
as data (models/README.md lists them with their licences). The files are never committed: they
are fetched from the package registries a fresh machine reaches (npm, PyPI) into a cache folder,
rasterised to faces of ``synth.CW x synth.CH``, and drawn into scenes by :func:`style` and
``synth.make_scene``, in place of the generator's own faces.

A design belongs to a *source*, its author: the benchmark holds out whole sources, never single
designs of a source it trains on. Nothing at run time imports this module.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass

from .synth import CH, CW, Style, find_font

CACHE = os.path.join("vision-data", "designs")   # relative to the working folder by default
SUIT_ORDER = "SHDC"        # companion.cards' suit order: ♠ ♥ ♦ ♣ (code = suit * 13 + rank - 1)
RANK_ORDER = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


@dataclass(frozen=True)
class Design:
    """One deck design: where its files come from and how its cards are named there."""

    name: str
    source: str              # its author: the unit a benchmark holds out
    licence: str
    registry: str            # "npm", "pypi", or "sheet": 52 faces committed in models/designs/
    package: str             # the exact release, "name@version" (npm) or "name==version" (pypi);
                             # for a sheet, the repository and commit its SVG files came from
    pattern: str             # the path of a card's file in the package: {rank} and {suit}
    ranks: tuple = RANK_ORDER
    suits: tuple = tuple(SUIT_ORDER)
    note: str = ""
    font: str = ""           # the typeface an SVG's <text> ranks are drawn in (synth.find_font)
    own_boxes: bool = False  # each face's index where its ink is (ranks not all in one place)

    def member(self, code: int) -> str:
        suit, rank = divmod(code, 13)
        return self.pattern.format(rank=self.ranks[rank], suit=self.suits[suit])


# Public-domain decks whose files live only on GitHub, which a fresh machine cannot reach: their
# faces are committed, rasterised, as one sheet each (build_sheet) in models/designs/.
SHEETS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                      "models", "designs")
_SPATZ = dict(source="spatz", registry="sheet", licence="public domain",
              package="github.com/saulspatz/SVGCards@f8df287",
              ranks=("Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King"),
              suits=("spade", "heart", "diamond", "club"))
_KENNARD = dict(source="kennard", registry="npm", licence="CC0-1.0",
                package="@heruka_urgyen/react-playing-cards@0.5.0",
                ranks=("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"))
DESIGNS = (
    Design("kennard-2colour", pattern="package/src/images/2color/{rank}{suit}.svg",
           note="Adrian Kennard's English pattern, two colours", **_KENNARD),
    Design("kennard-4colour", pattern="package/src/images/4color/{rank}{suit}.svg",
           note="the same in four colours (green clubs, blue diamonds)", **_KENNARD),
    Design("kennard-2colour-big", pattern="package/src/images/2color-bf/{rank}{suit}.svg",
           note="big index, small framed courts", **_KENNARD),
    Design("kennard-4colour-big", pattern="package/src/images/4color-bf/{rank}{suit}.svg",
           note="big index, four colours", **_KENNARD),
    Design("aguilar", source="aguilar", registry="npm", package="cardsJS@1.1.1",
           licence="LGPL-3.0 (the package says MIT; its cards/readme.txt: LGPL-3)",
           pattern="package/cards/{rank}{suit}.svg",
           note="Chris Aguilar's Vectorized Playing Cards 1.3: a classic casino deck"),
    Design("kenney", source="kenney", registry="pypi", package="arcade==3.3.3", licence="CC0-1.0",
           pattern="arcade/resources/assets/images/cards/card{suit}{rank}.png",
           suits=("Spades", "Hearts", "Diamonds", "Clubs"),
           note="Kenney's playing cards pack (140 x 190 pixels): flat, crowns for courts"),
    Design("knoll", source="knoll", registry="sheet", licence="public domain",
           package="github.com/notpeter/Vector-Playing-Cards@72cb5b2",
           pattern="cards-svg/{rank}{suit}.svg", font="Roboto-Regular.ttf", own_boxes=True,
           ranks=("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"),
           note="Byron Knoll's Vector Playing Cards: small index, English courts"),
    Design("spatz-vertical2", pattern="Decks/Vertical2/svgs/{suit}{rank}.svg",
           font="OpenSans-Regular.ttf", note="Saul Spatz's jumbo index, two colours, outlined ranks",
           **_SPATZ),
    Design("spatz-vertical4", pattern="Decks/Vertical4/svgs/{suit}{rank}.svg",
           font="Lato-Regular.ttf", note="the same in four pale colours", **_SPATZ),
    Design("spatz-accessible", pattern="Decks/Accessible/Vertical/svgs/{suit}{rank}.svg",
           font="NotoSans-Regular.ttf", note="the same in four strong colours", **_SPATZ),
)
BY_NAME = {d.name: d for d in DESIGNS}
# Sources no model of this project trains on: the benchmark's held-out split.
HELD_OUT_SOURCES = ("aguilar", "kenney")


class DesignError(RuntimeError):
    """A design could not be fetched or read; the message says why and what to do."""


def _fetch_package(d: Design, folder: str) -> str:
    """The package archive of ``d`` in ``folder``, downloaded from its registry if missing."""
    os.makedirs(folder, exist_ok=True)
    have = [f for f in os.listdir(folder) if f.endswith((".tgz", ".whl", ".zip"))]
    if have:
        return os.path.join(folder, have[0])
    # downloaded into a folder of its own, then moved in whole: two benchmarks fetching at
    # once never read each other's half-written archive
    tmp = tempfile.mkdtemp(prefix=".fetch-", dir=folder)
    try:
        if d.registry == "npm":
            cmd = ["npm", "pack", d.package, "--silent", "--pack-destination", tmp]
        else:
            cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                   "--only-binary=:all:", "-d", tmp, d.package]
        try:
            subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=600)
        except (OSError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
            detail = getattr(e, "stderr", "") or str(e)
            raise DesignError(f"could not fetch {d.package} from {d.registry} for the design "
                              f"{d.name}: {detail.strip()[-300:]}") from e
        have = [f for f in os.listdir(tmp) if f.endswith((".tgz", ".whl", ".zip"))]
        if not have:
            raise DesignError(f"{d.registry} gave no archive for {d.package}")
        os.replace(os.path.join(tmp, have[0]), os.path.join(folder, have[0]))
        return os.path.join(folder, have[0])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _members(archive: str, names: set[str]) -> dict[str, bytes]:
    """The bytes of the named members of a .tgz or .whl, read by name (never extracted to the
    paths the archive gives)."""
    out = {}
    if archive.endswith(".tgz"):
        with tarfile.open(archive, "r:gz") as t:
            for m in t.getmembers():
                if m.name in names and m.isfile():
                    out[m.name] = t.extractfile(m).read()
    else:
        with zipfile.ZipFile(archive) as z:
            for n in z.namelist():
                if n in names:
                    out[n] = z.read(n)
    return out


def _raster(data: bytes, member: str, font: str = ""):
    """A card file as an RGB PIL image of CW x CH on white (its transparent corners white);
    an SVG's text in ``font`` (a font file's name), whatever family it asks for."""
    from PIL import Image
    if member.endswith(".svg"):
        import resvg_py
        svg = data.decode("utf-8")
        fonts = []
        if font:
            path = find_font(font)
            if not path:
                raise DesignError(f"the font {font} that {member}'s ranks are drawn in is not "
                                  "installed: run make model, which installs the training fonts")
            svg = re.sub(r"font-family:[^;\"]*", f"font-family:{_family(path)}", svg)
            fonts = [path]
        data = resvg_py.svg_to_bytes(svg_string=svg, width=CW * 3, dpi=96.0,
                                     skip_system_fonts=bool(fonts), font_files=fonts or None)
    img = Image.open(io.BytesIO(data)).convert("RGBA")
    bbox = img.getchannel("A").getbbox()   # drop a transparent margin around the card
    if bbox:
        img = img.crop(bbox)
    flat = Image.new("RGBA", img.size, (255, 255, 255, 255))
    flat.alpha_composite(img)
    return flat.convert("RGB").resize((CW, CH), resample=Image.Resampling.LANCZOS)


def _family(path: str) -> str:
    from PIL import ImageFont
    return ImageFont.truetype(path, 10).getname()[0]


def sheet_path(d: Design) -> str:
    return os.path.join(SHEETS, f"{d.name}.png")


def build_sheet(d: Design, folder: str) -> str:
    """Rasterise ``d``'s 52 SVG files from ``folder`` (a copy of the repository ``d.package``
    names) into its committed sheet: 13 faces a row (A-K), a row a suit (SUIT_ORDER)."""
    from PIL import Image
    sheet = Image.new("RGB", (13 * CW, 4 * CH), "white")
    for code in range(52):
        member = d.member(code)
        with open(os.path.join(folder, member), "rb") as f:
            face = _raster(f.read(), member, d.font)
        suit, rank = divmod(code, 13)
        sheet.paste(face, (rank * CW, suit * CH))
    os.makedirs(SHEETS, exist_ok=True)
    sheet.save(sheet_path(d), format="PNG", optimize=True)
    return sheet_path(d)


def faces_folder(d: Design, cache: str = CACHE) -> str:
    """The folder of ``d``'s 52 faces as PNG (``0.png`` ... ``51.png``), fetched and rasterised
    on first use (a committed sheet: cut from it)."""
    out = os.path.join(cache, d.name)
    if all(os.path.exists(os.path.join(out, f"{c}.png")) for c in range(52)):
        return out
    if d.registry == "sheet":
        from PIL import Image
        restore = f"restore it with: git checkout -- {os.path.relpath(sheet_path(d))}"
        try:
            sheet = Image.open(sheet_path(d)).convert("RGB")
        except OSError as e:
            raise DesignError(f"the faces of {d.name} ({sheet_path(d)}) cannot be read: {e}; "
                              f"{restore}") from e
        if sheet.size != (13 * CW, 4 * CH):
            raise DesignError(f"{sheet_path(d)} is {sheet.size[0]} x {sheet.size[1]} pixels, "
                              f"not 13 x 4 faces of {CW} x {CH}; {restore}")
        faces = {code: sheet.crop((code % 13 * CW, code // 13 * CH,
                                   (code % 13 + 1) * CW, (code // 13 + 1) * CH))
                 for code in range(52)}
    else:
        archive = _fetch_package(d, os.path.join(cache, "packages", d.package.replace("/", "_")))
        wanted = {d.member(c): c for c in range(52)}
        got = _members(archive, set(wanted))
        missing = sorted(set(wanted) - set(got))
        if missing:
            raise DesignError(f"{d.package} lacks {len(missing)} faces of {d.name}, "
                              f"for example {missing[0]}")
        faces = {code: _raster(got[member], member, d.font) for member, code in wanted.items()}
    os.makedirs(out, exist_ok=True)
    for code, face in faces.items():
        path = os.path.join(out, f"{code}.png")
        part = f"{path}.{os.getpid()}.part"
        face.save(part, format="PNG")
        os.replace(part, path)   # a face is there whole or not at all
    return out


def index_boxes(img, right: bool = False):
    """Where a face's upright index lies: (rank box, pip box) in face pixels, from its ink in
    the corner (the rank the ink above the widest gap of empty rows, the pip below it)."""
    import numpy as np
    a = np.asarray(img, np.float32)
    mn = a.min(axis=2)
    paper = np.percentile(mn, 90)
    sat = a.max(axis=2) - mn
    ink = (mn < paper * 0.7) | (sat > 60)
    w0, w1 = (int(CW * 0.78), CW - 3) if right else (3, int(CW * 0.22))
    win = ink[3:int(CH * 0.33), w0:w1]
    rows = np.flatnonzero(win.any(axis=1))
    if rows.size < 4:
        return None
    # the index: the first run of inked rows and those after it up to a gap taller than itself
    runs, start = [], rows[0]
    for a_, b_ in itertools.pairwise(rows):
        if b_ - a_ > 1:
            runs.append((start, a_))
            start = b_
    runs.append((start, rows[-1]))
    rank = runs[0]
    pip = runs[1] if len(runs) > 1 else (rank[1], rank[1])

    def box(r0, r1, c0=0, c1=None):
        cols = c0 + np.flatnonzero(win[r0:r1 + 1, c0:c1].any(axis=0))
        if cols.size == 0:
            return None
        return (w0 + cols[0], 3 + r0, w0 + cols[-1] + 1, 3 + r1 + 1)
    rb = box(*rank)
    # the pip under the rank, not the centre pips or court art beside it
    half = (rb[2] - rb[0]) // 2 + 1
    pb = box(*pip, max(0, rb[0] - w0 - half), rb[2] - w0 + half) or rb
    return rb, pb


def style(d: Design, cache: str = CACHE) -> Style:
    """A synth ``Style`` whose faces are the design's own, with the index boxes the scene's
    ground truth needs (each design's median box: its index stands in one place)."""
    import numpy as np
    from PIL import Image
    folder = faces_folder(d, cache)
    faces = {c: Image.open(os.path.join(folder, f"{c}.png")).convert("RGB") for c in range(52)}
    meta_path = os.path.join(folder, "index.json")
    if os.path.exists(meta_path):
        with open(meta_path) as f:
            meta = json.load(f)
    else:
        found = [b for b in (index_boxes(faces[c]) for c in range(52)) if b]
        if len(found) < 26:
            raise DesignError(f"no index found in the top-left corner of {d.name}'s faces")
        rank = [float(v) for v in np.median([b[0] for b in found], axis=0)]
        pip = [float(v) for v in np.median([b[1] for b in found], axis=0)]
        meta = {"rank": rank, "pip": pip}
        part = f"{meta_path}.{os.getpid()}.part"
        with open(part, "w") as f:
            json.dump(meta, f)
        os.replace(part, meta_path)
    rank, pip = tuple(meta["rank"]), tuple(meta["pip"])

    def rot(b):
        return (CW - b[2], CH - b[3], CW - b[0], CH - b[1])

    def boxes(code):
        r, p = rank, pip
        if d.own_boxes:   # the face's own, where it lies near the median (no court art taken)
            own = index_boxes(faces[code])
            if own and all(abs((o[0] + o[2]) - (m[0] + m[2])) <= m[2] - m[0] + 2
                           and abs((o[1] + o[3]) - (m[1] + m[3])) <= m[3] - m[1] + 2
                           for o, m in zip(own, (rank, pip), strict=True)):
                r, p = (tuple(float(v) for v in b) for b in own)
        return [(r, p), (rot(r), rot(p))]
    st = Style(font=find_font("DejaVuSans.ttf") or "", ix=(rank[0] + rank[2]) / 2 / CW,
               iy=rank[1] / CH, border=False)
    st.faces.update({c: (faces[c], boxes(c)) for c in range(52)})
    return st
