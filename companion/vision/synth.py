"""The scene generator: photos of patience layouts, drawn by the project itself.

Card faces are drawn here in many styles (rank font, index top-left or top-right, index size and
place, 2- or 4-colour suits, pips from a font or drawn as polygons, cream or white stock, centre
pips or court panels), then composed into the layouts of real deals from the rules engine
(Klondike cascades after random legal moves, Gaps rows, the Pyramid, Golf's columns, House fans, a
waste fan), and photographed: perspective up to about 40 degrees, any rotation, uneven light,
shadows, glare, blur, noise and JPEG. Everything follows from the seed.

No card artwork from elsewhere: only fonts (DejaVu, shipped; for training optionally the free
fonts of EXTRA_TRAIN_FONTS; and any other free font given).
Ground truth comes with every scene: for each visible index corner, the card and the image
positions of its rank glyph and suit pip.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

from ..rules import deal

CW, CH = 180, 252  # card size on the flat table, in table pixels
FONT_DIR = os.path.join(os.path.dirname(os.path.dirname(__file__)), "render", "fonts")
SYSTEM_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation2",
                    "/usr/share/fonts/truetype/croscore", "/usr/share/fonts/truetype/liberation")
# where Debian puts the extra training fonts (EXTRA_TRAIN_FONTS), searched after the others
EXTRA_FONT_DIRS = ("/usr/share/fonts/truetype/noto", "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF",
                   "/usr/share/fonts/truetype/roboto/unhinted", "/usr/share/fonts/truetype/open-sans",
                   "/usr/share/fonts/truetype/lato", "/usr/share/fonts/opentype/cantarell",
                   "/usr/share/fonts/truetype/crosextra", "/usr/share/fonts/opentype/inter",
                   "/usr/share/fonts/truetype/oxygen", "/usr/share/texmf/fonts/opentype/public/tex-gyre")

# Fonts for training (DejaVu: Bitstream Vera licence) and for the held-out bench set
# (Liberation and croscore Arimo/Tinos/Cousine: SIL OFL 1.1; DejaVu Mono/Serif
# Condensed are never used in training). Missing fonts are skipped.
TRAIN_FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif-Bold.ttf",
               "DejaVuSansCondensed-Bold.ttf", "DejaVuSerif.ttf")
HELDOUT_FONTS = ("LiberationSans-Bold.ttf", "LiberationSerif-Bold.ttf", "LiberationSans-Regular.ttf",
                 "Arimo-Bold.ttf", "Tinos-Bold.ttf", "DejaVuSansMono-Bold.ttf",
                 "DejaVuSerifCondensed-Bold.ttf")
RANK_TEXT = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
# Only for training, in the widened styles (``make_scene(..., widen=True)``): more DejaVu faces
# (none of the held-out ones' families: no Mono, no Serif Condensed) and OpenCV's Hershey stroke
# fonts, drawn with cv2.putText (simplex, plain, duplex, complex, triplex, complex small).
WIDE_FONTS = ("DejaVuSansCondensed.ttf", "DejaVuSans-ExtraLight.ttf")
HERSHEY_FACES = (0, 1, 2, 3, 4, 5)
# Only for training with ``make_scene(..., extra=True)`` (``train --fonts extra``): many more real
# typefaces for the rank glyph, regular and bold, sans and serif, from Debian's free font
# packages (SIL OFL 1.1: Noto, Lato, Cantarell, Carlito, Caladea, Inter, Oxygen;
# Apache 2.0: Roboto, Open Sans; GUST: TeX Gyre Adventor, Pagella, Schola, Bonum, Cursor), drawn with the
# five TRAIN_FONTS. None of the held-out fonts' families nor their metric clones (no Liberation,
# Arimo, Tinos, Cousine, DejaVu Mono or Serif Condensed; no TeX Gyre Heros (Helvetica) or Termes
# (Times)). Two monospaced faces, Oxygen Mono and TeX Gyre Cursor (a Courier): without any,
# the recognizer read the held-out DejaVu Sans Mono's barred J as a 3 (docs/vision-notebook.md
# says how that was found). `make model` installs the packages where apt-get is.
EXTRA_TRAIN_FONTS = (
    "NotoSans-Regular.ttf", "NotoSans-Bold.ttf", "NotoSans-CondensedBold.ttf",
    "NotoSerif-Regular.ttf", "NotoSerif-Bold.ttf", "NotoSerif-CondensedBold.ttf",
    "NotoSerifDisplay-Bold.ttf", "Roboto-Regular.ttf", "Roboto-Bold.ttf",
    "RobotoCondensed-Bold.ttf", "OpenSans-Regular.ttf", "OpenSans-Bold.ttf",
    "OpenSans-CondBold.ttf", "Lato-Regular.ttf", "Lato-Black.ttf", "Cantarell-Regular.otf",
    "Cantarell-Bold.otf", "Carlito-Regular.ttf", "Carlito-Bold.ttf", "Caladea-Regular.ttf",
    "Caladea-Bold.ttf", "Inter-Regular.otf", "Inter-Bold.otf", "Oxygen-Sans.ttf",
    "Oxygen-Sans-Bold.ttf", "texgyreadventor-bold.otf", "texgyrepagella-regular.otf",
    "texgyrepagella-bold.otf", "texgyreschola-bold.otf", "texgyrebonum-bold.otf",
    "OxygenMono-Regular.ttf", "texgyrecursor-bold.otf")
# and the index pips of those scenes from one of these fonts' suit glyphs (when drawn from a font)
EXTRA_PIP_FONTS = ("DejaVuSans.ttf", "NotoSansSymbols2-Regular.ttf", "DejaVuMathTeXGyre.ttf")
EXTRA_FONT_PACKAGES = ("fonts-noto-core", "fonts-roboto-unhinted", "fonts-open-sans", "fonts-lato",
                       "fonts-cantarell", "fonts-texgyre", "fonts-crosextra-carlito",
                       "fonts-crosextra-caladea", "fonts-inter", "fonts-oxygen",
                       "fonts-dejavu-extra")


# Folders searched before all others (add_font_dir): the test suite and the benchmarks ship the
# exact faces their scenes are drawn in, so a scene never depends on what the machine has.
_SHIPPED_FONT_DIRS: list[str] = []


def add_font_dir(path: str) -> None:
    """Search ``path`` for fonts before the package's and the system's folders."""
    path = os.path.abspath(path)
    if path not in _SHIPPED_FONT_DIRS:
        _SHIPPED_FONT_DIRS.insert(0, path)


def find_font(name: str) -> str | None:
    for d in (*_SHIPPED_FONT_DIRS, FONT_DIR, *SYSTEM_FONT_DIRS, *EXTRA_FONT_DIRS):
        p = os.path.join(d, name)
        if os.path.exists(p):
            return p
    return None


def available_fonts(names) -> list[str]:
    return [p for p in (find_font(n) for n in names) if p]


@dataclass
class Style:
    """One card design."""

    font: str
    right: bool = False          # index in the top-right corner (and bottom-left)
    four_colour: bool = False
    glyph_pips: bool = False     # suit pips from the font's ♠♥♦♣, else drawn polygons
    rank_h: float = 0.11         # rank glyph height / card height
    pip_k: float = 0.85          # index pip height / rank height
    ix: float = 0.11             # index centre from the side / card width
    iy: float = 0.05             # index top from the top / card height
    gap: float = 0.18            # gap between rank and pip / rank height
    paper: tuple = (250, 250, 246)
    black: tuple = (20, 20, 25)
    red: tuple = (200, 20, 40)
    blue: tuple = (25, 60, 185)
    green: tuple = (20, 125, 50)
    back: tuple = (30, 60, 150)
    border: bool = True
    pip_font: str | None = None
    # the index's rank glyph, only in the widened training styles (the defaults draw it as text)
    hershey: int | None = None   # drawn in this Hershey face with cv2.putText instead of font
    stroke: float = 0.0          # thicker (> 0) or thinner (< 0) strokes, by this x glyph height
    width: float = 1.0           # the glyph squeezed (< 1) or stretched (> 1) sideways
    faces: dict = field(default_factory=dict, repr=False)

    @property
    def plain_rank(self) -> bool:
        return self.hershey is None and self.stroke == 0.0 and self.width == 1.0

    def ink(self, suit: int) -> tuple:
        if self.four_colour:
            return (self.black, self.red, self.blue, self.green)[suit]
        return self.black if suit in (0, 3) else self.red


def random_style(rng, fonts: list[str]) -> Style:
    u = rng.uniform
    red = (int(u(160, 225)), int(u(0, 45)), int(u(10, 60)))
    blk = int(u(5, 50))
    return Style(
        font=fonts[int(rng.integers(len(fonts)))], right=bool(rng.random() < 0.3),
        four_colour=bool(rng.random() < 0.25), glyph_pips=bool(rng.random() < 0.5),
        rank_h=u(0.085, 0.135), pip_k=u(0.65, 1.0), ix=u(0.08, 0.13), iy=u(0.035, 0.07),
        gap=u(0.12, 0.35), paper=(int(u(232, 255)), int(u(230, 253)), int(u(215, 250))),
        black=(blk, blk, blk + int(u(0, 15))), red=red,
        blue=(int(u(10, 40)), int(u(50, 90)), int(u(160, 215))),
        green=(int(u(10, 40)), int(u(110, 150)), int(u(30, 70))),
        back=tuple(int(x) for x in rng.integers(20, 170, 3)), border=bool(rng.random() < 0.6),
        pip_font=find_font("DejaVuSans.ttf"))


def widen_style(style: Style, rng) -> Style:
    """A training style whose rank glyph is drawn less like the five training fonts: in half
    the scenes a Hershey stroke font (any face, thin to heavy strokes) or another DejaVu face,
    strokes thickened or thinned, the glyph squeezed or stretched sideways. The rest of the
    design is ``style``'s. ``rng`` is the caller's own, so the scene's other draws do not move."""
    if rng.random() < 0.5:
        return style
    u = rng.uniform
    pick = rng.random()
    if pick < 0.45:
        style.hershey = int(HERSHEY_FACES[int(rng.integers(len(HERSHEY_FACES)))])
        style.stroke = u(0.05, 0.17)  # the stroke itself, x glyph height
    else:
        extra = available_fonts(WIDE_FONTS)
        if pick < 0.7 and extra:
            style.font = extra[int(rng.integers(len(extra)))]
        style.stroke = u(-0.035, 0.05) if rng.random() < 0.7 else 0.0
        if "ExtraLight" in style.font:  # thickened: a light weight, not a hairline
            style.stroke = u(0.015, 0.05)
    style.width = u(0.82, 1.18) if rng.random() < 0.7 else 1.0
    return style


_warned: set = set()


def extra_fonts() -> list[str]:
    """The training fonts with the extra typefaces (EXTRA_TRAIN_FONTS) that are installed; the
    missing ones are named once on stderr (``make model`` installs them)."""
    missing = [n for n in EXTRA_TRAIN_FONTS if not find_font(n)]
    if missing and tuple(missing) not in _warned:
        _warned.add(tuple(missing))
        import sys
        print(f"warning: {len(missing)} of {len(EXTRA_TRAIN_FONTS)} extra training fonts not "
              f"installed, skipped: {', '.join(missing)} (apt-get install "
              f"{' '.join(EXTRA_FONT_PACKAGES)})", file=sys.stderr)
    return available_fonts(TRAIN_FONTS + EXTRA_TRAIN_FONTS)


def extra_style(style: Style, rng) -> Style:
    """A training style's index pips from one of EXTRA_PIP_FONTS' suit glyphs (when the style
    draws them from a font), so that suit shapes vary too. ``rng`` is the caller's own."""
    pips = available_fonts(EXTRA_PIP_FONTS)
    if pips:
        style.pip_font = pips[int(rng.integers(len(pips)))]
    return style


def _rank_glyph(style: Style, text: str, rh: float):
    """The rank glyph of a widened style as an alpha mask (PIL "L"), cropped to its ink, about
    ``rh`` pixels high."""
    import cv2
    import numpy as np
    from PIL import Image, ImageDraw, ImageFont
    if style.hershey is not None:
        face = style.hershey
        scale = 4.0
        (tw, th), base = cv2.getTextSize(text, face, scale, 1)
        thick = max(1, round(style.stroke * th))
        pad = thick * 2 + 10
        canvas = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
        cv2.putText(canvas, text, (pad, pad + th), face, scale, 255, thick, cv2.LINE_AA)
        m = canvas
        per_px = rh / (th + thick)  # glyph pixels per canvas pixel: capitals ``rh`` high
    else:
        font = ImageFont.truetype(style.font, max(6, int(rh / 0.73)) * 2)
        layer = Image.new("L", (int(rh * 8) + 20, int(rh * 4) + 20), 0)
        ImageDraw.Draw(layer).text((10, 10), text, font=font, fill=255)
        m = np.asarray(layer).copy()
        bb = layer.getbbox()
        k = round(abs(style.stroke) * (bb[3] - bb[1])) if bb else 0
        if k:
            ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
            m = (cv2.dilate if style.stroke > 0 else cv2.erode)(m, ker)
        per_px = 0.5
    ys, xs = np.nonzero(m > 40)
    if not len(ys):
        return Image.new("L", (2, 2), 0)
    m = m[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    h = max(4, round(m.shape[0] * per_px))
    w = max(2, round(m.shape[1] * per_px * style.width))
    if text == "10" and w > 1.25 * h:  # condensed tens, as on most decks
        w = max(2, round(w * 0.85))
    return Image.fromarray(cv2.resize(m, (w, h), interpolation=cv2.INTER_AREA))


# ------------------------------------------------------------------------------------ drawing
def _pip_polygon(draw, suit, box, fill, inverted=False):
    """Draw a suit pip filling ``box`` (x0, y0, x1, y1), point down for inverted."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0

    def P(fx, fy):
        return (x0 + fx * w, (y1 - fy * h) if inverted else (y0 + fy * h))

    def circle(cx, cy, r):
        (px, py) = P(cx, cy)
        draw.ellipse((px - r * w, py - r * w, px + r * w, py + r * w), fill=fill)

    if suit == 2:  # diamond
        draw.polygon([P(0.5, 0), P(0.92, 0.5), P(0.5, 1), P(0.08, 0.5)], fill=fill)
    elif suit == 1:  # heart
        circle(0.28, 0.3, 0.27)
        circle(0.72, 0.3, 0.27)
        draw.polygon([P(0.02, 0.36), P(0.98, 0.36), P(0.5, 1.0)], fill=fill)
        draw.polygon([P(0.25, 0.1), P(0.75, 0.1), P(0.5, 0.5)], fill=fill)
    elif suit == 0:  # spade
        circle(0.28, 0.62, 0.25)
        circle(0.72, 0.62, 0.25)
        draw.polygon([P(0.5, 0.0), P(0.03, 0.6), P(0.97, 0.6)], fill=fill)
        draw.polygon([P(0.5, 0.6), P(0.3, 1.0), P(0.7, 1.0)], fill=fill)
    else:  # club
        circle(0.5, 0.24, 0.22)
        circle(0.24, 0.58, 0.22)
        circle(0.76, 0.58, 0.22)
        draw.polygon([P(0.5, 0.45), P(0.3, 1.0), P(0.7, 1.0)], fill=fill)


def _text_box(draw, font, text):
    b = draw.textbbox((0, 0), text, font=font)
    return b


def _draw_pip(img, draw, style, suit, box, inverted=False):
    from PIL import Image, ImageDraw, ImageFont
    fill = style.ink(suit)
    if not style.glyph_pips or not style.pip_font:
        _pip_polygon(draw, suit, box, fill, inverted)
        return
    x0, y0, x1, y1 = (round(v) for v in box)
    w, h = max(2, x1 - x0), max(2, y1 - y0)
    font = ImageFont.truetype(style.pip_font, int(h * 1.25))
    sym = "♠♥♦♣"[suit]
    layer = Image.new("L", (w * 3, h * 3), 0)
    ld = ImageDraw.Draw(layer)
    b = ld.textbbox((0, 0), sym, font=font)
    ld.text((w * 1.5 - (b[0] + b[2]) / 2, h * 1.5 - (b[1] + b[3]) / 2), sym, font=font, fill=255)
    bb = layer.getbbox() or (0, 0, 1, 1)
    glyph = layer.crop(bb).resize((w, h))
    if inverted:
        glyph = glyph.rotate(180)
    img.paste(Image.new("RGB", (w, h), fill), (x0, y0), glyph)


def render_face(style: Style, code: int, scale: int = 2):
    """The face of card ``code`` (suit*13 + rank-1) as an RGB image of CW x CH, and the index
    boxes: list of (rank_box, pip_box) in face pixels, first the upright corner, then the
    180-degree one."""
    if code in style.faces:
        return style.faces[code]
    from PIL import Image, ImageDraw, ImageFont
    suit, rank = divmod(code, 13)
    rank += 1
    W, H = CW * scale, CH * scale
    img = Image.new("RGB", (W, H), style.paper)
    d = ImageDraw.Draw(img)
    ink = style.ink(suit)
    if style.border:
        d.rounded_rectangle((int(W * 0.03), int(H * 0.02), W - int(W * 0.03), H - int(H * 0.02)),
                            radius=int(W * 0.05), outline=(170, 170, 175), width=scale)
    # centre: pips for number cards, a panel for courts, a big pip for aces
    cx0, cy0, cx1, cy1 = W * 0.27, H * 0.2, W * 0.73, H * 0.8
    if rank == 1:
        s = W * 0.28
        _draw_pip(img, d, style, suit, (W / 2 - s / 2, H / 2 - s * 0.55, W / 2 + s / 2, H / 2 + s * 0.55))
    elif rank >= 11:
        d.rectangle((cx0, cy0, cx1, cy1), outline=ink, width=2 * scale)
        d.rectangle((cx0 + 6 * scale, cy0 + 6 * scale, cx1 - 6 * scale, cy1 - 6 * scale),
                    fill=tuple(min(255, c // 3 + 170) for c in ink))
        f = ImageFont.truetype(style.font, int(H * 0.22))
        t = RANK_TEXT[rank]
        b = d.textbbox((0, 0), t, font=f)
        d.text((W / 2 - (b[0] + b[2]) / 2, H / 2 - (b[1] + b[3]) / 2), t, font=f, fill=ink)
    else:
        ps = W * 0.13
        rows = {2: [(0.5, 0), (0.5, 1)], 3: [(0.5, 0), (0.5, 0.5), (0.5, 1)],
                4: [(0, 0), (1, 0), (0, 1), (1, 1)], 5: [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
                6: [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
                7: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
                8: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
                9: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
                10: [(0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3),
                     (0.5, 5 / 6), (0, 1), (1, 1)]}[rank]
        for fx, fy in rows:
            px = cx0 + ps / 2 + fx * (cx1 - cx0 - ps)
            py = cy0 + ps / 2 + fy * (cy1 - cy0 - ps)
            _draw_pip(img, d, style, suit, (px - ps / 2, py - ps * 0.55, px + ps / 2, py + ps * 0.55),
                      inverted=fy > 0.5)
    # the index
    rh = style.rank_h * H
    text = RANK_TEXT[rank]
    icx = style.ix * W
    if style.right:
        icx = W - icx
    top = style.iy * H
    if style.plain_rank:
        font = ImageFont.truetype(style.font, max(6, int(rh / 0.73)))
        b = d.textbbox((0, 0), text, font=font)
        tw, th = b[2] - b[0], b[3] - b[1]
        if text == "10" and tw > 1.25 * th:  # condensed tens, as on most decks
            font2 = ImageFont.truetype(style.font, max(6, int(rh / 0.73 * 0.85)))
            b2 = d.textbbox((0, 0), text, font=font2)
            if b2[2] - b2[0] < tw:
                font, b = font2, b2
                tw, th = b[2] - b[0], b[3] - b[1]

        def draw_rank():
            d.text((icx - (b[0] + b[2]) / 2, top - b[1]), text, font=font, fill=ink)
        rank_box = (icx - tw / 2, top, icx + tw / 2, top + th)
    else:
        glyph = _rank_glyph(style, text, rh)
        tw, th = glyph.size
        at = (round(icx - tw / 2), round(top))

        def draw_rank():
            img.paste(Image.new("RGB", glyph.size, ink), at, glyph)
        rank_box = (at[0], at[1], at[0] + tw, at[1] + th)   # where the glyph lands
    draw_rank()
    ph = style.pip_k * th
    pw = ph * 0.85
    py0 = top + th + style.gap * th
    pip_box = (icx - pw / 2, py0, icx + pw / 2, py0 + ph)
    _draw_pip(img, d, style, suit, pip_box)
    # the 180-degree corner: rotate, draw the same index, rotate back
    img = img.rotate(180)
    d = ImageDraw.Draw(img)
    draw_rank()
    _draw_pip(img, d, style, suit, pip_box)
    img = img.rotate(180)
    img = img.resize((CW, CH), resample=3)

    def sc(bx):
        return tuple(v / scale for v in bx)

    def rot(bx):
        x0, y0, x1, y1 = sc(bx)
        return (CW - x1, CH - y1, CW - x0, CH - y0)

    boxes = [(sc(rank_box), sc(pip_box)), (rot(rank_box), rot(pip_box))]
    style.faces[code] = (img, boxes)
    return img, boxes


def render_back(style: Style):
    from PIL import Image, ImageDraw
    if "back" in style.faces:
        return style.faces["back"]
    img = Image.new("RGB", (CW, CH), (245, 245, 245))
    d = ImageDraw.Draw(img)
    d.rectangle((8, 8, CW - 8, CH - 8), fill=style.back)
    light = tuple(min(255, c + 60) for c in style.back)
    for k in range(-CH, CW, 12):
        d.line((k + 8, 8, k + 8 + CH, 8 + CH), fill=light, width=2)
        d.line((k + 8 + CH, 8, k + 8, 8 + CH), fill=light, width=1)
    d.rectangle((0, 0, CW - 1, CH - 1), outline=(200, 200, 200))
    style.faces["back"] = img
    return img


# ------------------------------------------------------------------------------------ layouts
@dataclass
class Placed:
    code: int | None        # None: face down
    x: float                # top-left on the flat table
    y: float
    angle: float = 0.0      # degrees, small jitter
    pile: str = ""
    order: int = 0          # index in the pile (0 = bottom)


def _random_play(pos, rng, moves: int):
    for _ in range(moves):
        # the waste may be turned over after a pass that changed nothing, as the rules once
        # let it be (they wait for another move now): a layout on the table is one either way,
        # and so every seed's scene, the model's training data and the benchmarks' photos,
        # stay as they were
        pos.idle = False
        legal = [m for m in pos.legal_moves]
        if not legal:
            break
        # prefer tableau building so that cascades grow
        weights = [3.0 if str(m).startswith("t") and " t" in str(m) else 1.0 for m in legal]
        tot = sum(weights)
        r = rng.random() * tot
        chosen = legal[-1]
        for m, w in zip(legal, weights, strict=True):
            r -= w
            if r <= 0:
                chosen = m
                break
        pos.play(str(chosen))
    return pos


def position_for(kind: str, seed: int, rng):
    """A position of the engine for a layout kind: the deal, or (klondike) after random play."""
    variant = {"klondike": "klondike", "gaps": "gaps", "pyramid": "pyramid", "golf": "golf",
               "house": "house-in-the-wood"}[kind]
    pos = deal(variant, seed)
    if kind == "klondike":
        _random_play(pos, rng, int(rng.integers(0, 60)))
    return pos


def layout(kind: str, pos, rng, layout_style: Style) -> tuple[list[Placed], tuple[int, int]]:
    """Cards on the flat table for a position, bottom card first, and the table size."""
    names = pos.engine.names
    piles = {n: (list(pos.piles[i]), pos.down[i]) for i, n in enumerate(names)}
    jit = lambda s=2.0: float(rng.normal(0, s))  # noqa: E731
    ang = lambda s=1.2: float(rng.normal(0, s))  # noqa: E731
    out: list[Placed] = []
    # cascade offset: the whole index strip (rank and pip) of a covered card shows
    st = layout_style
    step = CH * (st.iy + st.rank_h * (1 + st.gap + st.pip_k)) + rng.uniform(5, 16)
    pitch = CW * rng.uniform(1.12, 1.3)
    m = 40
    if kind in ("klondike", "golf"):
        ncol = 7
        top = m
        if kind == "klondike":
            top_row = [("s", 0), ("w", 1), ("f1", 3), ("f2", 4), ("f3", 5), ("f4", 6)]
            for name, col in top_row:
                cards, down = piles[name]
                if not cards:
                    continue
                x0 = m + col * pitch
                if name == "w":
                    shown = cards[-3:]
                    for k, c in enumerate(shown):  # a waste fan of up to three
                        out.append(Placed(c, x0 + k * CW * (layout_style.ix * 2 + 0.06) + jit(), m + jit(), ang(), "w",
                                          len(cards) - len(shown) + k))
                else:
                    for k, c in enumerate(cards[-3:]):
                        fd = name == "s"  # the stock lies face down
                        out.append(Placed(None if fd else c, x0 + jit(1), m + jit(1), ang(0.6),
                                          name, len(cards) - len(cards[-3:]) + k))
            top = m + CH * 1.25
        for col in range(ncol):
            cards, down = piles[f"t{col + 1}"]
            x0 = m + col * pitch
            y = top
            for k, c in enumerate(cards):
                fd = k < down
                out.append(Placed(None if fd else c, x0 + jit(), y + jit(1), ang(), f"t{col + 1}", k))
                y += step * (0.45 if fd else 1.0)
        if kind == "golf":
            cards, _ = piles["w"]
            ymax = max(p.y for p in out) + CH * 1.3
            for k, c in enumerate(cards[-3:]):
                out.append(Placed(c, m + pitch * 3 + k * CW * (layout_style.ix * 2 + 0.06), ymax, ang(), "w", k))
            out.append(Placed(None, m, ymax, ang(), "s", 0))
        W = int(m * 2 + pitch * ncol)
        H = int(max(p.y for p in out) + CH + m)
    elif kind == "gaps":
        pitch_y = CH * rng.uniform(1.05, 1.2)
        pitch_x = CW * rng.uniform(1.02, 1.12)
        for r, row in enumerate("abcd"):
            for c in range(13):
                cards, _ = piles[f"{row}{c + 1}"]
                if cards:
                    out.append(Placed(cards[-1], m + c * pitch_x + jit(), m + r * pitch_y + jit(),
                                      ang(), f"{row}{c + 1}", 0))
        W, H = int(m * 2 + 13 * pitch_x), int(m * 2 + 4 * pitch_y)
    elif kind == "pyramid":
        pitch_x = CW * rng.uniform(1.04, 1.15)
        dy = CH * rng.uniform(0.42, 0.55)
        k = 0
        for r in range(7):
            for c in range(r + 1):
                k += 1
                cards, _ = piles[f"p{k}"]
                if cards:
                    x = m + (6 - r) * pitch_x / 2 + c * pitch_x
                    out.append(Placed(cards[-1], x + jit(), m + r * dy + jit(), ang(), f"p{k}", 0))
        W, H = int(m * 2 + 7 * pitch_x), int(m * 2 + 6 * dy + CH)
    elif kind == "house":
        fan = CW * (layout_style.ix * 2 + 0.04) + rng.uniform(4, 14)
        per_row = 6
        col_w = CW + fan * 2 + CW * 0.25
        n = 0
        for name in names:
            if not name.startswith("t"):
                continue
            cards, _ = piles[name]
            r, c = divmod(n, per_row)
            n += 1
            for k, code in enumerate(cards):
                out.append(Placed(code, m + c * col_w + k * fan + jit(), m + r * CH * 1.12 + jit(),
                                  ang(), name, k))
        W = int(m * 2 + per_row * col_w)
        H = int(m * 2 + math.ceil(n / per_row) * CH * 1.12)
    else:
        raise ValueError(kind)
    return out, (W, H)


# ------------------------------------------------------------------------------------ scenes
@dataclass
class Scene:
    image: object            # RGB uint8 numpy array
    indices: list            # dicts: code, pile, order, corner, rank (4x2 pts), pip (4x2),
    #                          visible (> 97 % of the index uncovered), visible_frac
    cards: list              # dicts: code, pile, order, visible (an index wholly in view),
    #                          visible_frac (of its better corner), center
    kind: str
    position: object
    style: Style


def _table(rng, w, h):
    import numpy as np
    kind = rng.integers(5)
    base = {0: (35, 100, 55), 1: (120, 80, 45), 2: (60, 60, 65), 3: (185, 180, 170),
            4: (30, 45, 90)}[int(kind)]
    base = np.array(base, np.float32) + rng.normal(0, 15, 3)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    yy = np.linspace(0, 1, h, dtype=np.float32)[:, None]
    if kind == 1:  # wood grain
        xx = np.linspace(0, 1, w, dtype=np.float32)[None, :]
        grain = np.sin(yy * rng.uniform(40, 120) + np.sin(xx * 7) * 2) * 12
        img += grain[..., None]
    img += rng.normal(0, 6, (h, w, 1)).astype(np.float32)
    return img


def _rot(deg):
    a = math.radians(deg)
    return ((math.cos(a), -math.sin(a)), (math.sin(a), math.cos(a)))


def card_transform(p: Placed):
    """3x3 matrix mapping face pixels to flat-table pixels for a placed card."""
    import numpy as np
    (a, b), (c, d) = _rot(p.angle)
    cx, cy = CW / 2, CH / 2
    T = np.array([[a, b, p.x + cx - (a * cx + b * cy)], [c, d, p.y + cy - (c * cx + d * cy)],
                  [0, 0, 1]], np.float64)
    return T


def camera_homography(W, H, out_w, out_h, rng, max_tilt=40.0, fill=(0.7, 0.97)):
    """A homography from the flat table (W x H) to a photo: any rotation, tilt up to max_tilt."""
    import cv2
    import numpy as np
    rot = rng.uniform(0, 360)
    tilt = math.radians(rng.uniform(0, max_tilt))
    az = math.radians(rng.uniform(0, 360))
    pts = np.array([[0, 0], [W, 0], [W, H], [0, H]], np.float64) - (W / 2, H / 2)
    (a, b), (c, d) = _rot(rot)
    pts = pts @ np.array([[a, c], [b, d]])
    # tilt the plane about an axis at azimuth az, view with a pinhole camera
    ax = np.array([math.cos(az), math.sin(az)])
    along = pts @ ax
    perp = pts @ np.array([-ax[1], ax[0]])
    z = perp * math.sin(tilt)
    perp2 = perp * math.cos(tilt)
    flat = np.outer(along, ax) + np.outer(perp2, [-ax[1], ax[0]])
    dist = max(W, H) * rng.uniform(1.2, 2.0)
    proj = flat * (dist / (dist + z))[:, None]
    lo, hi = proj.min(0), proj.max(0)
    k = min(out_w / (hi[0] - lo[0]), out_h / (hi[1] - lo[1])) * rng.uniform(*fill)
    proj = (proj - (lo + hi) / 2) * k
    proj += (out_w / 2 + rng.uniform(-0.04, 0.04) * out_w, out_h / 2 + rng.uniform(-0.04, 0.04) * out_h)
    src = np.array([[0, 0], [W, 0], [W, H], [0, H]], np.float32)
    return cv2.getPerspectiveTransform(src, proj.astype(np.float32))


def _apply(Hm, pts):
    import numpy as np
    pts = np.asarray(pts, np.float64)
    q = np.c_[pts, np.ones(len(pts))] @ Hm.T
    return q[:, :2] / q[:, 2:3]


def _box_pts(b):
    x0, y0, x1, y1 = b
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def shake(image, rng):
    """``image`` as a phone takes it when the hand moves or the focus misses: a motion blur of
    5-13 pixels in any direction, or a Gaussian blur of sigma 1.3-3.0 (the scenes' own blur stops
    at 1.3). Training only, so that a blurred index reads unsure rather than surely wrong."""
    import cv2
    import numpy as np
    img = image.astype(np.float32)
    if rng.random() < 0.5:
        n = int(rng.integers(5, 14))
        k = np.zeros((n, n), np.float32)
        k[n // 2, :] = 1
        turn = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), float(rng.uniform(0, 180)), 1)
        k = cv2.warpAffine(k, turn, (n, n))
        img = cv2.filter2D(img, -1, k / k.sum())
    else:
        img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(1.3, 3.0)))
    return np.clip(img, 0, 255).astype(np.uint8)


def make_scene(seed: int, kind: str | None = None, fonts: list[str] | None = None,
               size: tuple[int, int] | None = None, max_tilt: float = 40.0,
               style: Style | None = None, effects: float = 1.0, widen: bool = False,
               extra: bool = False) -> Scene:
    """A photo of a layout with its ground truth; the same arguments give the same scene.
    ``widen`` (training): the rank glyphs of a random style in wider variety
    (:func:`widen_style`); the layout, the camera and the light stay those of ``seed``.
    ``extra`` (training): the rank font, when ``fonts`` is not given, from the training fonts
    and EXTRA_TRAIN_FONTS, and the index pips from one of EXTRA_PIP_FONTS (:func:`extra_style`)."""
    import cv2
    import numpy as np
    from PIL import Image, ImageDraw
    rng = np.random.default_rng(seed)
    kind = kind or ("klondike", "klondike", "gaps", "pyramid", "golf", "house")[int(rng.integers(6))]
    fonts = fonts or (extra_fonts() if extra else available_fonts(TRAIN_FONTS))
    if style is None:
        style = random_style(rng, fonts)
        if extra:
            style = extra_style(style, np.random.default_rng((seed, 62)))
        if widen:
            style = widen_style(style, np.random.default_rng((seed, 61)))
    pos = position_for(kind, int(rng.integers(1, 10**6)), rng)
    placed, (W, H) = layout(kind, pos, rng, style)
    out_w, out_h = size or ((2000, 1500) if rng.random() < 0.5 else (1500, 2000))
    # flat table: cards with alpha, and a label map of which card is on top where
    canvas = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    label = np.full((H, W), -1, np.int32)
    mask = Image.new("L", (CW, CH), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, CW - 1, CH - 1), radius=int(CW * 0.06), fill=255)
    faces = []
    for i, p in enumerate(placed):
        face = render_back(style) if p.code is None else render_face(style, p.code)[0]
        T = card_transform(p)
        rgba = face.convert("RGBA")
        rgba.putalpha(mask)
        poly = _apply(T, _box_pts((0, 0, CW, CH)))
        bx0, by0 = (math.floor(v) - 1 for v in poly.min(0))
        bx1, by1 = (math.ceil(v) + 1 for v in poly.max(0))
        bx0, by0 = max(0, bx0), max(0, by0)
        shift = np.array([[1, 0, bx0], [0, 1, by0], [0, 0, 1]], np.float64)
        inv = np.linalg.inv(T) @ shift
        warped = rgba.transform((bx1 - bx0, by1 - by0), Image.Transform.AFFINE,
                                tuple(inv[:2].ravel()), resample=Image.Resampling.BILINEAR)
        canvas.alpha_composite(warped, (bx0, by0))
        poly = poly.astype(np.int32)
        cv2.fillPoly(label, [poly], i)
        faces.append(T)
    Hm = camera_homography(W, H, out_w, out_h, rng, max_tilt)
    table = _table(rng, out_w, out_h)
    cards = cv2.warpPerspective(np.asarray(canvas), Hm, (out_w, out_h), flags=cv2.INTER_AREA
                                if False else cv2.INTER_LINEAR)
    alpha = cards[..., 3:4].astype(np.float32) / 255
    # a soft drop shadow under the cards
    sh = cv2.GaussianBlur(alpha, (0, 0), 3 + rng.uniform(0, 4))
    if sh.ndim == 2:
        sh = sh[..., None]
    shift = np.roll(sh, (int(rng.integers(-4, 5)), int(rng.integers(-4, 5))), (0, 1))
    img = table * (1 - 0.45 * shift)
    img = img * (1 - alpha) + cards[..., :3].astype(np.float32) * alpha
    # light: a smooth gradient, a cast shadow, glare
    yy, xx = np.mgrid[0:out_h, 0:out_w].astype(np.float32)
    g = 1 + effects * rng.uniform(-0.35, 0.15) * ((xx / out_w - rng.random()) ** 2
                                                  + (yy / out_h - rng.random()) ** 2)
    img *= g[..., None] * (rng.uniform(0.65, 1.1) if effects else 1)
    if effects and rng.random() < 0.5:  # cast shadow: a dark blurred polygon
        sm = np.zeros((out_h, out_w), np.float32)
        pts = (rng.random((4, 2)) * (out_w, out_h)).astype(np.int32)
        cv2.fillConvexPoly(sm, cv2.convexHull(pts), 1.0)
        sm = cv2.GaussianBlur(sm, (0, 0), rng.uniform(10, 40))
        img *= (1 - rng.uniform(0.2, 0.5) * sm)[..., None]
    if effects and rng.random() < 0.4:  # glare: a bright soft ellipse
        gm = np.zeros((out_h, out_w), np.float32)
        c = (int(rng.random() * out_w), int(rng.random() * out_h))
        cv2.ellipse(gm, c, (int(rng.uniform(30, 200)), int(rng.uniform(20, 120))),
                    rng.uniform(0, 180), 0, 360, 1.0, -1)
        gm = cv2.GaussianBlur(gm, (0, 0), rng.uniform(10, 30))
        img += (gm * rng.uniform(40, 110))[..., None]
    tint = rng.uniform(0.9, 1.1, 3) if effects else np.ones(3)
    img *= tint
    if effects:
        s = rng.uniform(0, 1.3)
        if s > 0.3:
            img = cv2.GaussianBlur(img, (0, 0), s)
        noise = np.empty(img.shape, np.float32)
        cv2.setRNGSeed(int(rng.integers(2**31)))
        cv2.randn(noise, 0, float(rng.uniform(0, 7)))
        img += noise
    img = np.clip(img, 0, 255).astype(np.uint8)
    if effects:
        ok, buf = cv2.imencode(".jpg", img[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY,
                                                        int(rng.integers(45, 95))])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)[..., ::-1].copy()
    # ground truth
    indices, card_gt = [], []
    for i, p in enumerate(placed):
        if p.code is None:
            continue
        _, boxes = render_face(style, p.code)
        T = faces[i]
        any_vis = False
        best = 0.0
        for corner, (rb, pb) in enumerate(boxes):
            region = _apply(T, _box_pts((min(rb[0], pb[0]), rb[1], max(rb[2], pb[2]), pb[3])))
            r = cv2.boundingRect(region.astype(np.float32))
            x0, y0 = max(0, r[0]), max(0, r[1])
            sub = label[y0:r[1] + r[3], x0:r[0] + r[2]]
            poly_mask = np.zeros_like(sub, np.uint8)
            cv2.fillPoly(poly_mask, [(region - (x0, y0)).astype(np.int32)], 1)
            n = poly_mask.sum()
            frac = float((sub[poly_mask > 0] == i).mean()) if n else 0.0
            vis = frac > 0.97
            any_vis |= vis
            best = max(best, frac)
            indices.append({"code": p.code, "pile": p.pile, "order": p.order, "corner": corner,
                            "rank": _apply(Hm @ T, _box_pts(rb)), "pip": _apply(Hm @ T, _box_pts(pb)),
                            "visible": vis, "visible_frac": frac})
        card_gt.append({"code": p.code, "pile": p.pile, "order": p.order, "visible": any_vis,
                        "visible_frac": best, "center": _apply(Hm @ T, [(CW / 2, CH / 2)])[0]})
    return Scene(img, indices, card_gt, kind, pos, style)
