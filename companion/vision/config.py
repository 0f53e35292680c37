"""The photo reading's tunables: every threshold and on/off switch of :mod:`.read` and
:mod:`.piles`, in one frozen object passed to the reading (``config=``), never patched.

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
    # a candidate the model takes for an index (neither head says "none") at least this
    # much is read as one; most candidates are centre pips, court panels, backs, table
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
    # alone is made, saving the first's time (it is made whole where the finer reads none)
    finer_at_once: bool = True
    # every this many candidates read first to judge the sizes, so a photo read finer is
    # not read whole first (0: all at once); only on photos with early_min candidates or
    # more (fewer take little time), once early_enough of the sample are indices
    early_sizes: int = 4
    early_min: int = 400
    early_enough: int = 25
    # one deck's indices are all of a size: one this many times the sure ones' median is
    # ink of several cards taken together (0: off)
    size_ratio: float = 2.5
    # ... and one under this times its three nearest sure neighbours' is a bit of pattern
    # or border taken for an index (0: off)
    small_ratio: float = 0.55
    # an index under this many of the photo's own pixels is misread more often: it is read
    # surely only when the model is tiny_sure sure of it
    tiny: float = 8.0
    tiny_sure: float = 0.95
    # the pip's ink rules suits out: red when its red beats green and blue by ink_red
    # (no black suit is printed so), green or blue (a four-colour deck's clubs, diamonds)
    # by ink_tint, neither red nor blue (no heart or diamond) under ink_grey
    ink_red: float = 0.2
    ink_tint: float = 0.15
    ink_grey: float = 0.06
    # ... only where the deck prints its suits so: where a suit the model reads surely, at
    # ink_judged judged inks or more, is mostly (ink_doubt) in one ink that rules it out,
    # the deck's colours are its own (purple spades, orange clubs) and the ink rules nothing
    # out in that photo (above 1: the ink always rules)
    ink_doubt: float = 0.5
    ink_judged: int = 4
    ink_rules: bool = True
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
    # a blob that is a whole index (glyph and pip run together) is read: one merged_lo to
    # merged_hi times its neighbours' index size, only merged_sure sure
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

    # --- grouping into piles (:mod:`.piles`)
    # this many more backs above the columns one way up outweigh one card more left over
    backs_per_card: int = 3
    # a reading less probable than this is not considered when a card is inferred
    min_alternative: float = 0.05
    # two cards of a pile are neighbours (none missed between) within this many usual steps
    adjacent: float = 1.6
    # a card found on the second look where the build says one lies: at least this probable
    gap_sure: float = 0.5
    # above a run's first card, with no step of its own: these steps looked at (the sizes'
    # first), those but the first only for a candidate taken for an index above_sure
    above_steps: tuple[float, ...] = (1.0, 0.8, 1.2, 1.4)
    above_sure: float = 0.5
    # two sure cards of the waste's fan this far apart (index sizes) may have one unread
    # between; nearer, one may lie a step before them. Any card may lie in the fan: only a
    # reading fan_sure probable is taken there
    fan_gap: tuple[float, float] = (1.8, 7.0)
    fan_sure: float = 0.95
    # two sure cards of a run that do not build, this far apart, are looked between even
    # where the usual step makes them neighbours
    gap_apart: float = 1.8
    # Gaps: a candidate read as a card read nowhere is taken when this probable, and only
    # with at most unread_max such cards missing (else the photo is read too poorly to trust)
    unread_sure: float = 0.95
    unread_max: int = 6
    # Gaps: the first row is the one nearer the photo's top edge (the indices' up says
    # little in a photo turned a quarter round)
    rows_by_place: bool = True
    # most index sizes between the indices of two cards cascaded one on the other
    cascade_gap: float = 6.0
    # Klondike: a column wholly above the heads' line, top_nearer of the way to the top row
    # and 5 index sizes above the line, is the top row's
    top_by_rise: bool = True
    top_nearer: float = 0.7
    # Klondike: a face-up card over the stock's column is the waste fan's deepest (the
    # stock lies face down), where the waste's column has a card too
    stock_column_fan: bool = True
    # Gaps: the corner lent to a card read at one corner is placed in pixels, not index
    # sizes (an index's size grows with its glyph's width; the card's does not)
    lend_in_pixels: bool = True
    # a waste showing no upright index is made of the cards read by their other corners there
    flipped_fan: bool = True
    # Gaps: a card read below the threshold takes a place after the others of its row, so a
    # card read there surely keeps it
    place_sure_first: bool = True
    # ... and a copy too many after the sure cards: a misread corner must not push out the
    # same card's other corner
    copies_placed_last: bool = True
    # Pyramid: a card read upside down takes a free bottom-row place within this many row
    # steps of the row's line (the corner offset is a median; the perspective stays a little)
    bottom_row_near: float = 0.45
    # Pyramid: the rows may shear (an affine view): each fit is tried square and sheared
    pyramid_shear: bool = True


DEFAULT = ReadConfig()
"""The settings `companion scan` reads with."""
