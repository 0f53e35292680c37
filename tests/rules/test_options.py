"""Options that keep a second reading of RULES.md: each changes exactly the rule it names."""

from __future__ import annotations

from handmade import position, texts

from companion.cards import RANK_OF
from companion.rules import deal


def _gaps_grid(rows: dict[str, str]) -> dict[str, str]:
    """``{"a": "2s 3s __ ..."}`` → cell piles; ``__`` is a gap."""
    out = {}
    for r, text in rows.items():
        for c, tok in enumerate(text.split(), 1):
            if tok != "__":
                out[f"{r}{c}"] = tok
    return out


def test_gaps_standard_deal_deals_all_52_and_2s_fill_row_starts():
    pos = deal("gaps", 4, {"deal": "standard"})
    cells = [pos.pile(f"{r}{c}") for r in "abcd" for c in range(1, 14)]
    assert sum(1 for c in cells if not c) == 4 and len(pos.pile("x")) == 4
    # a gap in column 1 takes any 2 that is not already starting a row
    grid = _gaps_grid({
        "a": "__ 3s 4s 5s 6s 7s 8s 9s 10s js qs ks 2s",
        "b": "2h 3h 4h 5h 6h 7h 8h 9h 10h jh qh kh __",
        "c": "2d 3d 4d 5d 6d 7d 8d 9d 10d jd qd kd __",
        "d": "2c 3c 4c 5c 6c 7c 8c 9c 10c jc qc kc __",
    })
    grid["x"] = "as ah ad ac"
    p = position("gaps", grid, options={"deal": "standard"})
    assert texts(p) == {"a13 a1"}
    p.play("a13 a1")
    assert p.is_won()


def test_gaps_default_deal_has_no_gap_in_column_one():
    for seed in range(1, 30):
        pos = deal("gaps", seed)
        assert all(pos.pile(f"{r}1") and RANK_OF[pos.pile(f"{r}1")[0]] == 2 for r in "abcd")


def test_gaps_redeal_after_sequence_puts_each_gap_after_the_kept_run():
    pos = deal("gaps", 4, {"redeal_gaps": "after-sequence", "redeal_anytime": "true"})
    kept = pos.engine.kept_runs(pos.piles)
    pos.play("s")
    for r, k in zip("abcd", kept, strict=True):
        assert not pos.pile(f"{r}{k + 1}")  # the gap right after the run
        assert all(pos.pile(f"{r}{c}") for c in range(1, 14) if c != k + 1)
    assert len(pos.pile("x")) == 4


def test_gaps_redeal_anytime_offers_s_while_fills_remain():
    assert "s" not in texts(deal("gaps", 4))
    assert "s" in texts(deal("gaps", 4, {"redeal_anytime": "true"}))


def test_force_aces_makes_the_ace_go_up_first():
    piles = {"t1": "ah", "t2": "8c", "t3": "7c"}
    free = position("forty-thieves", piles)
    assert {"t1 f", "t3 t2"} <= texts(free)
    forced = position("forty-thieves", piles, options={"force_aces": "true"})
    assert texts(forced) == {"t1 f"}
    verdict = forced.check("t3 t2")
    assert not verdict.ok


def test_new_options_do_not_change_old_fingerprints():
    # The fingerprint names the game: only options that differ from their defaults count.
    a = deal("forty-thieves", 9)
    b = deal("forty-thieves", 9, {"force_aces": "false"})
    assert a.fingerprint() == b.fingerprint()
    assert deal("forty-thieves", 9, {"force_aces": "true"}).fingerprint() != a.fingerprint()
