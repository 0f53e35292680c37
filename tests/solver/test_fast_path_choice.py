"""The solver's fast searches are chosen for the games they were written for, and for no
other: which of ``Knowledge``'s predicates (the ones ``solve`` asks to pick a search) hold on
the deals of every variant, with each of its options in turn. They read the engine's
mechanics (``Engine.mechanics``); a generator renamed or rewritten must not turn one off."""

from __future__ import annotations

import json

import pytest

from companion.rules import deal, load_variant, variant_keys
from companion.solver.search import knowledge

PREDICATES = ("exhaustible", "talon_exhaustible", "sink_exhaustible", "line_exhaustible",
              "pairs_exhaustible", "pyramid_talon_exhaustible")

# (variant, its options as JSON) -> the one predicate that holds on its deals; none elsewhere.
CHOSEN = {
    ("streets-and-alleys", "{}"): "exhaustible",                # _exhaust
    ("klondike", "{}"): "talon_exhaustible",                    # _exhaust_talon
    ("klondike", '{"draw": 1}'): "talon_exhaustible",
    ("klondike", '{"foundation_return": true}'): "talon_exhaustible",
    ("solitaire", "{}"): "talon_exhaustible",
    ("solitaire", '{"draw": 3}'): "talon_exhaustible",
    ("solitaire", '{"foundation_return": true}'): "talon_exhaustible",
    ("golf", "{}"): "sink_exhaustible",                         # _exhaust_sink
    ("golf", '{"kings_block": true}'): "sink_exhaustible",
    ("accordion", "{}"): "line_exhaustible",                    # _exhaust_line
    ("accordion", '{"deal": "all"}'): "line_exhaustible",
    ("pyramid", "{}"): "pairs_exhaustible",                     # _exhaust_pairs
    ("pyramid", '{"passes": 1}'): "pyramid_talon_exhaustible",  # _exhaust_pyramid
    ("pyramid", '{"passes": 3}'): "pyramid_talon_exhaustible",
    ("pyramid", '{"goal": "clear-all"}'): "pyramid_talon_exhaustible",
}


def _cases():
    for key in variant_keys():
        yield key, {}
        for spec in load_variant(key).option_specs:
            if spec.kind == "choice":
                values = list(spec.values)
            elif spec.kind == "bool":
                values = [True, False]
            else:
                values = [0, 1, 3]
            for value in values:
                if value != spec.default and (spec.kind != "int" or value >= spec.minimum
                                              or (value == 0 and spec.unlimited)):
                    yield key, {spec.name: value}


@pytest.mark.parametrize("key,options", list(_cases()))
def test_the_fast_searches_chosen(key, options):
    v = load_variant(key, dict(options))
    want = CHOSEN.get((key, json.dumps(options, sort_keys=True)))
    for seed in (1, 2):
        pos = deal(v, seed)
        kn = knowledge(pos.variant)
        held = [p for p in PREDICATES if getattr(kn, p)(pos)]
        assert held == ([want] if want else []), (key, options, seed)
