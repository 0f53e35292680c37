"""A verdict line gives one count of positions: the reason's own where it has one."""

from __future__ import annotations

import re


def test_a_lost_verdict_does_not_give_two_different_counts_of_positions(run):
    # The Wish seed 3: the proof counts 18800 positions reached; the search expanded fewer
    code, out, _ = run("solve", "wish", "--seed", "3", "--timeout", "5")
    assert code == 1
    assert out.startswith("# Lost: all 18800 reachable positions searched")
    assert len(re.findall(r"\d+ (?:reachable )?positions?", out)) == 1
    assert re.search(r"none is won \(\d+\.\d s\)\.$", out.strip())


def test_an_unknown_verdict_still_says_how_many_positions_were_searched(run):
    code, out, _ = run("solve", "forty-thieves", "--seed", "1", "--timeout", "0.5")
    assert code == 1
    assert re.fullmatch(r"# Unknown: time budget of 0\.5 s spent \(\d+ positions, \d\.\d s\)\.",
                        out.strip())
