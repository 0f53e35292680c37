"""The win rules' registry: every variant names a registered rule, whose test the engine
compiles and whose sentence the rules text prints."""

from __future__ import annotations

import pytest

from companion.rules import deal, load_variant, variant_keys
from companion.rules.wins import WINS, win_rule


@pytest.mark.parametrize("key", variant_keys())
def test_every_variant_names_a_registered_win_rule(key):
    v = load_variant(key)
    rule = win_rule(v)
    assert WINS[v.win] is rule and v.engine().win_rule is rule
    assert rule.phrase(v) in " ".join(v.describe())
    assert not deal(key, 1).is_won()


def test_octaves_win_rule_is_named_for_what_it_asks_not_for_the_game():
    assert load_variant("octave").win == "court-columns"
