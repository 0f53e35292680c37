"""Face-down cards in a photo: which variants deal any, and the backs counted above each
column's first face-up card (:mod:`.backs`), checked against the deal."""

from __future__ import annotations

from dataclasses import replace

from ..rules import deal
from .detect import min_channel
from .frame import PileReading


def deals_face_down(v) -> bool:
    """Whether the variant's deal lays any card face down (its stock too): where none, no
    card back lies in a photo of its layout (Gaps, Streets and Alleys, the House games)."""
    return any(deal(v.key, None).down)


def tabs_with_backs(v) -> bool:
    """Whether the variant deals face-down cards in its tableau columns."""
    t = deal(v.key, None)
    return any(t.down[i] for i, n in enumerate(t.engine.names)
               if n.startswith("t") and n[1:].isdigit())


def count_face_down(out: PileReading, v, rgb, way, problems=True, mn=None):
    """Backs counted above the first face-up card of each tableau pile dealt with face-down
    cards (:mod:`.backs`), ``way`` being the layout's up in the photo; a count above what the
    deal put there is reported as a problem. A face-up card whose index was not read may lie
    between: the count is then taken from one face-up spacing (that of the columns read)
    further up, where it fits the deal (:func:`.backs.count_backs`)."""
    # late-bound: tests monkeypatch count_backs on backs
    from .backs import column_up, count_backs, face_up_step, vanishing
    template = deal(v.key, None)
    names = template.engine.names
    if mn is None:
        mn = min_channel(rgb)

    def upright(d):  # the corner that is upright in the photo, the layout's way up
        if d.other is not None and d.up[0] * way[0] + d.up[1] * way[1] < 0:
            return replace(d, x=d.other[0], y=d.other[1], up=d.other[2])
        return d
    piles = {name: [upright(d) for d in ds] for name, ds in out.piles.items()}
    placed = [d for ds in piles.values() for d in ds]
    step = face_up_step(piles, names)
    vp = vanishing(placed)
    for i, name in enumerate(names):
        dealt = template.down[i]
        if not dealt or name not in out.piles or not (name.startswith("t") and name[1:].isdigit()):
            continue
        pile = piles[name]
        n = count_backs(rgb, pile[0], column_up(pile, placed, vp=vp), mn, dealt, step)
        out.face_down[name] = n
        if problems and n is not None and n > dealt:
            out.problems.append(f"{name}: {n} card backs counted above the first face-up card; "
                                f"{v.name} deals {dealt} face down there")


def face_down_as_built(counted: int | None, dealt: int) -> int:
    """The face-down cards a position read from a photo gets on a pile: as counted, or as
    dealt where not counted or counted more than dealt (a pile never holds more)."""
    return counted if counted is not None and counted <= dealt else dealt
