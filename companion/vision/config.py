"""The photo reading's tunables: every threshold and on/off switch of :mod:`.read`, in one
frozen object passed to the reading (``config=``), never patched.

    from dataclasses import replace
    from companion.vision.config import DEFAULT
    read_photo(rgb, config=replace(DEFAULT, lone_pips=False))

Sizes are index sizes (pip to rank glyph) unless said otherwise; "sure" values are the
model's probability (objectness times the two heads' best, where it reads an index). A
switch's history (the scenes that turned on it) is in ``docs/vision-notebook.md`` and the
commit that brought it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReadConfig:
    # --- reading the cards (:mod:`.read`)
    # below this confidence a reading is reported uncertain, never silently as a card
    threshold: float = 0.6
    # a candidate the model takes for an index at least this much is read as one
    objectness: float = 0.5
    # a blob freed from a larger one (an edge, a back's pattern) is more often a line than a
    # glyph: an index using one is read only this sure
    freed_sure: float = 0.9
    # median index size (working pixels) below which a finer image is read: small indices
    # merge rank and pip into one blob, or read less surely
    small: float = 16.0
    # the finer image's zoom brings the median index to zoom_aim pixels, 1.25 to max_zoom times
    max_zoom: float = 1.6
    zoom_aim: float = 20.0
    # the finer reading is kept on a tie of sure cards: it sees small indices in more detail
    finer_on_tie: bool = True
    # small indices: the first reading stops at its candidates' sizes and the finer one
    # alone is made (the first never had more sure cards; it saves its time)
    finer_at_once: bool = True
    # every this many candidates read first to judge the sizes (0: all at once), on photos
    # with early_min candidates or more, once early_enough of the sample are indices
    early_sizes: int = 4
    early_min: int = 400
    early_enough: int = 25
    # one deck's indices are all of a size: one this many times the sure ones' median is
    # ink of several cards taken together (0: off)
    size_ratio: float = 2.5
    # ... and one under this times its three nearest sure neighbours' is a bit of pattern
    # or border taken for an index (0: off)
    small_ratio: float = 0.55
    # an index under this many photo pixels is read surely only when tiny_sure: so small,
    # the model's wrong readings are as sure as its right ones below that
    tiny: float = 8.0
    tiny_sure: float = 0.95
    # the pip's ink rules suits out: red when its red beats green and blue by ink_red
    # (no black suit is printed so), green or blue (a four-colour deck's clubs, diamonds)
    # by ink_tint, neither red nor blue (no heart or diamond) under ink_grey
    ink_red: float = 0.2
    ink_tint: float = 0.15
    ink_grey: float = 0.06
    # a glyph's fragments joined into one blob make a crop the model was not trained on:
    # an index using one is read only this sure
    joined_sure: float = 0.95
    # a rank glyph and its pip blurred together are cut at the blob's waist: such an index
    # is read only this sure, else left to the second look (0: never read)
    waist_sure: float = 0.95
    # a pip whose rank glyph is no blob of its own (joined to other ink, or faint) is read
    # by where its glyph should lie
    lone_pips: bool = True
    # ... and a rank glyph whose pip joined the table's strip, by where its pip should lie
    lone_glyphs: bool = True
    # a guessed index not read is looked at again with the table's strips painted over,
    # if the model took it for an index at least lone_again (most guesses are bare paper)
    lone_strips: bool = True
    lone_again: float = 0.3
    # a place guessed from the neighbours is weaker evidence than a glyph found
    lone_sure: float = 0.95
    # a lone pip's size (box's longer side) against its neighbours' index size
    lone_lo: float = 0.35
    lone_hi: float = 1.1
    # no blob of its own within this many index sizes of the guessed glyph: else that pair
    # was looked at already, or it is the next pip of a card's centre
    lone_clear: float = 0.4
    # only a blob at most this long counts there (0: any): a longer one is a strip of table
    lone_big: float = 2.0
    # the lone blob's own box does not count there: an aslant index's pip box reaches it
    lone_not_itself: bool = True
    # ink where the glyph should be, in the contrast-normal crop (0 ink, 1 paper): at least
    # lone_ink of the window darker than lone_dark, some darker than lone_darkest (the
    # paper's shading beside a pip is not)
    lone_dark: float = 0.7
    lone_ink: float = 0.15
    lone_darkest: float = 0.6
    # a guessed index is read where its card was read already at the card's other corner
    # (the two make one card; else a card half covered at one corner is left out)
    lone_twins: bool = True
    # a blob that is a whole index (glyph and pip run together) is read, its size against
    # its neighbours' from merged_lo to merged_hi, only merged_sure sure
    merged: bool = True
    merged_lo: float = 0.9
    merged_hi: float = 2.6
    merged_sure: float = 0.95
    # copies too many of a card are weighed with its twin in colour (♠/♣, ♥/♦): a small
    # index's clubs and spades look alike; at most twins_most copies at once
    swap_twins: bool = True
    twins_most: int = 4
    # this many clubs read surely in green ink (or diamonds in blue) make the deck a
    # four-colour one, whose black "clubs" are spades and red "diamonds" hearts (0: off)
    four_colour_seen: int = 3
    # a copy too many may be merged with a corner across its card read as its twin in colour
    twin_corners: bool = True


DEFAULT = ReadConfig()
"""The settings `companion scan` reads with."""
