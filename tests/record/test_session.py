"""The recorder's state machine, driven line by line as a player types."""

from __future__ import annotations

import json
import random
import sys
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rechelp import FailingConnection, lost_game, near_won

from companion.app.session import Session
from companion.cards import RANK_OF, Card, code_text
from companion.record.store import GameLog, Store
from companion.rules import Position, deal, load_variant, variant_keys


def code(text: str) -> int:
    return Card.parse(text).code


def seeded(seed=1, store=None, variant="klondike", options=None):
    v = load_variant(variant, options or {})
    s = Session.seeded(v, seed)
    if store is not None:
        gid = store.create_game(variant=v.key, options=v.changed_options(), seed=seed,
                                deal_version=1)
        s.log, s.game_id = GameLog(store, gid), gid
    return s


def physical(variant="klondike", store=None):
    s = Session.physical(load_variant(variant))
    if store is not None:
        gid = store.create_game(variant=variant, options={}, seed=None, deal_version=1,
                                start="{}", phase="setup")
        s.log, s.game_id = GameLog(store, gid), gid
    return s


def started_klondike(store=None):
    """A physical Klondike game with the seven face-up cards typed as one row."""
    s = physical(store=store)
    assert s.handle("ah kd 2s qc 3d 4c 5h").ok
    assert s.handle("start").ok
    return s


# ------------------------------------------------------------------------------ moves

def test_a_move_is_played_redrawn_and_described():
    s = seeded()
    r = s.handle("t1 t7")
    assert r.ok and r.move == "t1 t7"
    assert "7♥ from t1 onto 8♣" in r.lines[0]
    assert r.board is not None and "t7" in r.board
    assert s.entries == ["t1 t7"]
    assert s.prompt() == "move 2> "


def test_short_form_numbers_name_tableau_piles():
    s = seeded()
    assert s.handle("1 7").move == "t1 t7"
    r = s.handle("3 5")  # t3 t5: 2♥ on K♦
    assert not r.ok and "2♥ cannot go on K♦" in r.text


def test_a_card_alone_plays_its_only_move_or_lists_the_choices():
    s = seeded(5)
    key = s.pos.key()
    r = s.handle("8d")
    assert not r.ok and r.kind == "ambiguous"
    assert r.data["candidates"] == ["t7 t2", "t7 t3"]
    assert "8♦ from t7 onto 9♣" in r.text and "8♦ from t7 onto 9♠" in r.text
    assert s.pos.key() == key
    assert s.handle("8d t2").move == "t7 t2"


def test_an_illegal_move_is_refused_with_the_reason_and_nothing_changes():
    s = seeded()
    key = s.pos.key()
    r = s.handle("t2 t5")
    assert not r.ok and r.kind == "illegal"
    assert "Klondike builds down in alternating colours" in r.text
    assert s.pos.key() == key and s.entries == []


@pytest.mark.parametrize(("typed", "suggested"), [("udno", "undo"), ("shwo", "show"),
                                                  ("t1 t77", "t1 t7"), ("hlep", "help")])
def test_a_typo_gets_a_suggestion(typed, suggested):
    r = seeded().handle(typed)
    assert not r.ok
    assert f"Did you mean: {suggested}" in r.text


def test_undo_and_redo():
    s = seeded()
    s.handle("t1 t7")
    s.handle("s")
    after_two = s.pos.key()
    assert s.handle("u").move == "s"
    assert s.handle("undo").move == "t1 t7"
    assert s.pos.key() == deal("klondike", 1).key()
    assert not s.handle("undo").ok
    assert s.handle("redo").move == "t1 t7"
    assert s.handle("redo").move == "s"
    assert s.pos.key() == after_two
    assert not s.handle("redo").ok


def test_a_new_move_clears_the_redo_stack():
    s = seeded()
    s.handle("t1 t7")
    s.handle("undo")
    s.handle("s")
    assert not s.handle("redo").ok


def test_moves_lists_every_legal_move_in_words():
    r = seeded().handle("?")
    assert r.data["moves"] == ["t1 t7", "s"]
    assert "7♥ from t1 onto 8♣" in r.text


def test_help_show_and_the_empty_line_change_nothing():
    s = seeded()
    key = s.pos.key()
    for line in ("help", "show", "", "   "):
        assert s.handle(line).ok
    assert s.pos.key() == key


def test_ascii_display_has_no_suit_symbols():
    s = Session.seeded(load_variant("klondike"), 1, symbols=False)
    text = s.handle("t1 t7").text + s.handle("t3 t5").text
    assert "7h from t1 onto 8c" in text
    assert not set("♠♥♦♣") & set(text)


def test_quit_ends_the_session_and_later_lines_are_refused():
    s = seeded()
    r = s.handle("quit")
    assert r.done and s.done
    assert not s.handle("t1 t7").ok


def test_resign_asks_for_confirmation(store):
    s = seeded(store=store)
    r = s.handle("resign")
    assert r.ok and not r.done and "Type `resign` (or yes) to confirm" in r.text
    r = s.handle("t1 t7")  # a move plays on
    assert r.move == "t1 t7" and r.lines[0] == "Not resigned."
    s.handle("resign")
    r = s.handle("no")
    assert r.ok and "Not resigned" in r.text and s.phase == "play"
    s.handle("resign")
    assert s.handle("resign").done
    assert store.game(s.game_id).result == "resigned"


@pytest.mark.parametrize("answer", ["yes", "y", "YES"])
def test_yes_confirms_a_resignation(store, answer):
    s = seeded(store=store)
    s.handle("resign")
    r = s.handle(answer)
    assert r.ok and r.done and "Resigned after 0 moves." in r.text
    assert store.game(s.game_id).result == "resigned"


def test_hint_without_a_solver_says_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "companion.solver.hints", None)
    package = sys.modules.get("companion.solver")
    if package is not None:
        monkeypatch.delattr(package, "hints", raising=False)
    r = seeded().handle("hint")
    assert r.ok and r.text == "Hints are coming with the solver."


def test_hint_asks_the_solver_when_there_is_one():
    pytest.importorskip("companion.solver.hints")
    s = Session(near_won())
    r = s.handle("hint")
    assert r.ok and "t1 f" in r.text


# ------------------------------------------------------------------------------ end of game

def test_a_win_is_detected_and_recorded_and_undo_reopens_it(store):
    gid = store.create_game(variant="klondike", options={}, seed=None, deal_version=1)
    s = Session(near_won(), log=GameLog(store, gid), game_id=gid)
    r = s.handle("t1 f")
    assert r.data["outcome"]["result"] == "won"
    assert "Won in 1 move!" in r.text and s.prompt() == "game over> "
    assert store.game(gid).result == "won"
    assert s.handle("undo").ok
    assert store.game(gid).result is None and s.prompt() == "move 1> "


def test_a_lost_game_is_detected(store):
    seed, moves = lost_game()
    s = seeded(seed, store, options={"passes": 1})
    for m in moves:
        assert s.handle(m).ok, m
    assert s.phase == "over" and "lost" in s.handle("show").text
    row = store.game(s.game_id)
    assert row.result == "lost" and row.termination in ("no-moves", "blocked")


# ------------------------------------------------------------------------------ physical deals

def test_layout_entry_checks_each_line():
    s = physical()
    r = s.handle("ah kd ah")
    assert not r.ok and "A♥ would be in the layout 2 times" in r.text
    r = s.handle("ah kd 2s qc 3d 4c 5h 6h")
    assert not r.ok and "too many cards" in r.text
    r = s.handle("t3: 2s 3s")
    assert not r.ok and "too many cards for t3: it shows 1 face-up card, you typed 2" in r.text
    r = s.handle("zz")
    assert not r.ok and "is not a card" in r.text
    assert s.layout.count == 0


def test_a_card_the_variant_does_not_use_is_refused():
    s = physical("wish")
    r = s.handle("5h")
    assert not r.ok and "5♥ is not in a Wish deck" in r.text


def test_a_two_deck_game_takes_a_card_twice_but_not_three_times():
    s = physical("forty-thieves")
    assert s.handle("7c 7c 8d 9s").ok  # t1, bottom to top
    r = s.handle("7c")
    assert not r.ok and "holds it 2 times" in r.text


def test_layout_can_be_corrected_and_undone_before_play():
    s = physical()
    assert s.handle("ah kd 2s qc 3d 4c 5h").ok
    assert s.handle("t2: kh").ok
    assert s.layout.entered[s.engine.index["t2"]] == [code("kh")]
    assert s.handle("undo").ok
    assert s.handle("start").ok
    assert s.pos.pile("t2")[-1] == code("kd")
    assert s.pos.pending_reveals() == []


def test_golf_layout_entry_names_the_tableau_rows_then_the_waste():
    s = physical("golf")
    text = s.layout.instructions()
    assert "one card for each pile from t1 on (t1-t7, then w)" in text and "t1-w" not in text
    r = s.handle("ac 2c 3c 4c 5c 6c 7c 8c")  # a row runs on to the waste card
    assert r.ok and s.layout.entered[s.engine.index["w"]] == [code("8c")]
    assert "(t1-t7)" in s.layout.instructions()
    r = s.handle("x9: 9c")
    assert not r.ok and "the piles to name are t1-t7, w" in r.text


def test_a_pile_typed_again_says_what_it_replaced_and_what_is_missing():
    # issue 49: `t7: 2c` replaced a Golf pile of three without a word
    s = physical("golf")
    t7 = s.engine.index["t7"]
    assert s.handle("t7: 3h 4h 5h").ok
    r = s.handle("t7: 2c")
    assert r.ok and s.layout.entered[t7] == [code("2c")]
    assert "t7 had 3 cards (3♥ 4♥ 5♥), now 1: 2♣; 4 still to name there" in r.text
    assert "type the pile whole: t7: 3h 4h 5h 2c" in r.text
    k = physical()
    assert k.handle("ah kd 2s qc 3d 4c 5h").ok
    r = k.handle("t3: 5c")
    assert r.ok and "t3: 5♣, replacing 2♠" in r.text


def test_a_row_shorter_than_the_piles_says_which_piles_are_still_missing():
    # issue 49: six cards were taken as t1-t6 without a word about t7
    s = physical()
    r = s.handle("kh kd kc ks qh qd")
    assert r.ok and s.layout.missing() == ["t7"]
    assert "6 cards given for 7 piles: one each on t1-t6; t7 still missing" in r.text
    r = s.handle("2c")
    assert r.ok and "still missing" not in r.text and s.layout.complete
    full = physical()
    assert "missing" not in full.handle("ah kd 2s qc 3d 4c 5h").text


def test_play_does_not_start_before_every_card_is_named():
    s = physical()
    s.handle("ah kd")
    r = s.handle("start")
    assert not r.ok and "t3, t4, t5, t6, t7" in r.text
    assert s.phase == "setup"


def test_a_turned_up_card_is_asked_for_and_checked():
    s = started_klondike()
    r = s.handle("t4 t2")
    assert r.ok and "Which card turned up on t4?" in r.text
    assert s.prompt() == "card on t4> "
    key = s.pos.key()
    r = s.handle("t1 f")  # a move while a card waits: refused
    assert not r.ok and s.pos.key() == key
    r = s.handle("ah")
    assert not r.ok and "A♥ is already face up at t1" in r.text and s.pos.key() == key
    assert s.handle("js").ok
    assert s.entries == ["t4 t2", "t4=js"]
    assert s.prompt() == "move 2> "


def test_draw_three_waste_cards_are_named_bottom_to_top():
    s = started_klondike()
    r = s.handle("s")
    assert "3 cards turned up on w: name them from the bottom" in r.text
    assert s.prompt() == "cards on w, bottom to top> "
    assert s.handle("9s 8d").ok
    assert s.handle("7c").ok
    assert s.entries[-3:] == ["w=9s", "w=8d", "w=7c"]
    assert s.pos.pile("w") == (code("9s"), code("8d"), code("7c"))


def test_the_last_waste_card_asked_for_is_the_top_one():
    s = started_klondike()
    s.handle("s")
    r = s.handle("9s 8d")
    assert r.ok and "Which card turned up on w, the waste's top card?" in r.text


def test_a_card_named_twice_in_one_line_is_refused_as_such():
    s = started_klondike()
    s.handle("s")
    key = s.pos.key()
    r = s.handle("9s 9s 8d")
    assert not r.ok and s.pos.key() == key
    assert "9♠ appears twice in that line" in r.text
    assert "already face up" not in r.text
    assert "3 cards turned up on w" in r.text


def test_undo_takes_back_a_misnamed_card():
    s = started_klondike()
    s.handle("t4 t2")
    s.handle("js")
    assert s.handle("undo").move == "t4=js"
    assert s.prompt() == "card on t4> "
    assert s.handle("jh").ok
    assert s.entries[-1] == "t4=jh"


def test_reveal_with_too_many_cards_is_refused_whole():
    s = started_klondike()
    s.handle("t4 t2")
    key = s.pos.key()
    r = s.handle("js jh")
    assert not r.ok and s.pos.key() == key
    assert "2 cards named, but only 1 is still to name: t4" in r.text


def test_the_reveal_prompt_helps_with_what_applies_there():
    s = started_klondike()
    s.handle("t4 t2")
    r = s.handle("s")   # a move: not a card, and no move is suggested
    assert not r.ok and "'s' does not name the turned-up card" in r.text
    assert "Did you mean: s" not in r.text and "`moves`" not in r.text
    assert "`undo` takes back the move that turned it up" in r.text
    r = s.handle("xx")
    assert "`moves`" not in r.text and "Type the card as you see it" in r.text
    assert "Did you mean: undo?" in s.handle("undi").text
    r = s.handle("help")
    assert r.text.startswith("Now: Which card turned up on t4?")


def test_one_bad_card_in_a_line_of_reveals_is_named():
    s = physical("spider")
    while s.phase == "setup" and not s.layout.complete:
        pool = sorted((s.layout.deck - Counter(c for _, _, c in s.layout.cards())).elements())
        s.handle(" ".join(code_text(c) for c in pool[:s.layout.remaining(s.layout.current)]))
    assert s.handle("start").ok and s.handle("s").ok and len(s.pending) == 10
    r = s.handle("1c 2c 3c 4c 5c 6c 7c 8c 9c 10c")
    assert not r.ok and "'1c' in that line is not a card" in r.text
    assert "does not name the turned-up card" not in r.text and len(s.pending) == 10


def test_retyping_named_waste_cards_says_which_are_left():
    s = started_klondike()
    s.handle("s")
    assert s.handle("9s").ok
    key = s.pos.key()
    r = s.handle("9s 8d 7c")
    assert not r.ok and s.pos.key() == key
    assert "3 cards named, but only 2 are still to name: w, cards 2 and 3 from the bottom" \
        in r.text
    assert "9♠ below them is named already" in r.text and "already been seen" not in r.text
    assert s.handle("8d 7c").ok


# ------------------------------------------------------------------------------ seeded reveals

def test_a_seeded_game_says_which_card_turns_up():
    s = seeded(1)
    r = s.handle("s")
    assert "Turned up, as the seed deals it: w: Q♠ 4♣ 6♠ (bottom to top)" in r.text
    assert [t["card"] for t in r.data["turned"]] == ["QS", "4C", "6S"]


def test_a_seeded_mismatch_is_a_dealing_error_with_its_place(store):
    s = seeded(1, store)
    key = s.pos.key()
    r = s.handle("t2=9c")
    assert not r.ok and r.kind == "dealing-error"
    assert "Dealing error at t2, card 2 from the bottom: expected 6♥, found 9♣." in r.text
    assert "Seed 1 has 9♣ at t3, card 2 from the bottom" in r.text
    assert s.pos.key() == key and s.entries == []
    assert store.game(s.game_id).notes[0]["kind"] == "dealing-error"
    assert s.handle("t2=6h").ok


def test_a_card_face_up_elsewhere_is_not_a_dealing_error(store):
    """K♦ has just gone to t1: naming it as the card turned up on t5 is a slip, refused, and
    no note is kept."""
    s = seeded(1, store)
    assert s.handle("1 7").ok and s.handle("5 1").ok
    r = s.handle("t5=kd")
    assert not r.ok and r.kind == "refused"
    assert "K♦ is face up at t1; a one-deck game has only one K♦" in r.text
    assert "nothing was recorded" in r.text and "Dealing error" not in r.text
    assert s.handle("s").ok
    r = s.handle("w=qs")
    assert not r.ok and "Q♠ is face up at w, card 1 from the bottom" in r.text
    assert store.game(s.game_id).notes == []
    # a card that may be hidden is still a dealing error
    assert s.handle("w=10h").kind == "dealing-error"


def test_a_seeded_stock_turn_can_be_checked_card_by_card():
    s = seeded(1)
    s.handle("s")
    assert s.handle("w=qs 4c 6s").kind == "confirm"
    r = s.handle("w=qs 4c 5s")
    assert r.kind == "dealing-error"
    assert "w, card 3 from the bottom: expected 6♠, found 5♠" in r.text
    assert "the stock (s), card 3 from the top" in r.text


# ------------------------------------------------------------------------------ persistence

def test_every_accepted_change_is_in_the_database_before_the_reply(store):
    s = started_klondike(store)
    for line in ("t4 t2", "js", "s", "9s 8d 7c", "undo"):
        s.handle(line)
        assert [t for t, _ in store.moves(s.game_id)] == s.entries


def test_a_failed_write_refuses_the_move_and_keeps_the_game(store):
    s = seeded(1, store)
    s.handle("t1 t7")
    key = s.pos.key()
    store._conn = FailingConnection(store._conn)
    for line in ("s", "undo"):
        r = s.handle(line)
        assert not r.ok and r.kind == "store-error"
        assert "the disk is full" in r.text and store.path in r.text
        assert s.pos.key() == key and s.entries == ["t1 t7"]
    store._conn = store._conn._conn
    assert [t for t, _ in store.moves(s.game_id)] == ["t1 t7"]
    assert s.handle("s").ok


def test_resume_replays_the_stored_moves(store):
    s = started_klondike(store)
    for line in ("t4 t2", "js", "s", "9s 8d 7c"):
        s.handle(line)
    from companion.rules import Position
    row = store.game(s.game_id)
    import json
    again = Session.resume(Position.from_json(json.loads(row.start)),
                           [t for t, _ in store.moves(s.game_id)])
    assert again.pos.key() == s.pos.key()
    assert again.move_count == 2


# ------------------------------------------------------------------------------ hypothesis

LINES = st.one_of(
    st.sampled_from(["undo", "u", "redo", "moves", "?", "show", "help", "resign", "n", "",
                     "s", "t1 t7", "3 5", "7h", "w t2", "t1 f", "w f", "t3:2 t5", "t9 t1",
                     "t1=9c", "w=ah", "ah", "9s 8d 7c", "start", "t3: 2s", "kd", "quit",
                     "t2=6h", "x y z", "=", "t1:0 t2", "1 2 3"]),
    st.text(alphabet="tswfp0123456789 =:?ahkdcqj♠♥♦♣,", max_size=12),
    st.text(max_size=30),
)


def _check_lines(session, lines):
    for line in lines:
        parts = session._parts(line)
        if len(parts) > 1:
            # several moves on a line are its parts typed in turn, up to the first refused
            # (what came before that stands; the line whole is tested elsewhere): each part
            # is held to the promise on its own
            for part in parts:
                reply = _check_line(session, part)
                if not reply.ok or reply.done:
                    break
        else:
            _check_line(session, line)


def _check_line(session, line):
    key, entries = session.pos.key(), list(session.entries)
    reply = session.handle(line)
    assert isinstance(reply.text, str)
    if not reply.ok:
        assert session.pos.key() == key, line
        assert session.entries == entries, line
    if session.log is not None and session.phase != "setup":
        stored = [t for t, _ in session.log.store.moves(session.game_id)]
        assert stored == session.entries
    return reply


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(LINES, max_size=25), variant=st.sampled_from(["klondike", "spider"]))
def test_random_lines_never_raise_and_refusals_change_nothing(lines, variant):
    with Store(":memory:") as mem:
        s = seeded(1, mem, variant=variant)
        _check_lines(s, lines)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(LINES, max_size=25))
def test_random_lines_in_a_physical_game(lines):
    with Store(":memory:") as mem:
        s = physical(store=mem)
        _check_lines(s, ["ah kd 2s qc 3d 4c 5h", "start", *lines])


# ------------------------------------------------------------------------------ every variant

@pytest.mark.parametrize("key", variant_keys())
def test_every_variant_can_be_laid_out_and_played_through_the_session(key):
    """Type a random layout, then random legal moves, naming each card as it turns up; the
    store always holds exactly the accepted entries."""
    rng = random.Random(key)
    with Store(":memory:") as mem:
        s = physical(key, store=mem)
        while s.phase == "setup" and not s.layout.complete:
            pool = list((s.layout.deck - Counter(c for _, _, c in s.layout.cards())).elements())
            ranks, _ = s.layout.allowed.get(s.layout.current, (None, ""))
            pool = [c for c in pool if ranks is None or RANK_OF[c] in ranks]
            cards = rng.sample(pool, s.layout.remaining(s.layout.current))
            assert s.handle(" ".join(code_text(c) for c in cards)).ok
        if s.phase == "setup" and s.layout.requirement_problem():
            # a first row the rules deal again (no A or K): put an ace or a king in it
            piles, ranks, _ = s.layout.requires[0]
            used = Counter(c for _, _, c in s.layout.cards())
            card = next(c for c in (s.layout.deck - used).elements() if RANK_OF[c] in ranks)
            assert s.handle(f"{s.engine.names[piles[0]]}: {code_text(card)}").ok
        if s.phase == "setup":
            assert s.handle("start").ok
        for _ in range(60):
            if s.phase != "play":
                break
            if s.pending:
                pool = sorted(s.pos.unseen().elements())
                line = " ".join(code_text(c) for c in rng.sample(pool, len(s.pending)))
            else:
                line = rng.choice([str(m) for m in s.pos.legal_moves] + ["undo"])
            r = s.handle(line)
            assert r.ok or (line == "undo" and not s.entries), (line, r.text)
            assert [t for t, _ in mem.moves(s.game_id)] == s.entries


def test_a_failed_write_during_layout_entry_keeps_the_layout(store):
    s = physical(store=store)
    assert s.handle("ah kd").ok
    entered = {i: list(e) for i, e in s.layout.entered.items()}
    store._conn = FailingConnection(store._conn, "attempt to write a readonly database")
    for line in ("2s qc", "undo"):
        r = s.handle(line)
        assert not r.ok and "read-only" in r.text
        assert s.layout.entered == entered
    store._conn = store._conn._conn
    assert s.handle("undo").ok and s.layout.count == 0


def test_a_line_is_a_pile_or_a_row_across_the_piles():
    s = physical("forty-thieves")
    names = s.engine.index
    assert s.handle("2h 3h 4h 5h 6h 7h 8h 9h 10h jh").ok  # more than t1 takes: a row
    assert [s.layout.entered[names[f"t{k}"]] for k in (1, 10)] == [[code("2h")], [code("jh")]]
    assert s.handle("2c 3c 4c").ok  # three cards: the rest of t1, bottom to top
    assert s.layout.entered[names["t1"]] == [code(c) for c in ("2h", "2c", "3c", "4c")]
    assert s.prompt() == "t2 (3 cards, after 1)> "


# ------------------------------------------------------------------------------ deal plans

def test_a_physical_gaps_layout_is_checked_against_the_deal():
    """Gaps' default deal (deal=s3) starts each row with a 2: the rules engine says so, and
    the recorder refuses a card the deal cannot put there, with the reason."""
    s = physical("gaps")
    r = s.handle("5h 2s")
    assert not r.ok
    assert "5♥ cannot be on a1" in r.text and "puts the 2s on a1, b1, c1, d1" in r.text
    assert s.layout.count == 0
    # a Montana line (aces in column 1) is refused whole
    r = s.handle("as 2s 3s 4s 5s 6s 7s 8s 9s 10s js qs ks")
    assert not r.ok and "A♠ cannot be on a1" in r.text and s.layout.count == 0
    # a 2 past column 1 is refused too: all four are at the start of the rows
    assert s.handle("2s").ok
    r = s.handle("2h")
    assert not r.ok and "2♥ cannot be on a2" in r.text


def test_a_montana_deal_of_gaps_takes_any_card_anywhere():
    s = Session.physical(load_variant("gaps", {"deal": "standard"}))
    assert s.handle("as 2s 3s 4s 5s 6s 7s 8s 9s 10s js qs ks").ok


def test_lucas_foundations_take_only_the_aces():
    s = physical("lucas")
    r = s.handle("f1: ks")
    assert not r.ok and "this deal puts the aces on f1-f8" in r.text
    r = s.handle("ah 2h 3h")
    assert not r.ok and "A♥ cannot be on t1" in r.text


@pytest.mark.parametrize(("variant", "own", "klondike"), [
    ("pyramid", "p22 p28", "t3 t5"), ("gaps", "b7 b2", "t3 t5"), ("accordion", "p7 p6", "t3 t5"),
])
def test_help_and_a_bad_move_use_the_variants_own_notation(variant, own, klondike):
    s = seeded(1, variant=variant)
    text = s.handle("help").text
    assert own in text and klondike not in text and "w t2" not in text
    reply = s.handle("3 5 f")
    assert not reply.ok and own in reply.text and klondike not in reply.text


def test_help_gives_the_short_form_of_the_variants_piles():
    assert "Short form: 22 28 for p22 p28." in seeded(1, variant="pyramid").handle("help").text
    assert "Short form: 3 5 for t3 t5." in seeded(1).handle("help").text


def test_several_moves_on_one_line_are_played_in_turn():
    s = seeded(1)
    reply = s.handle("t1 t7, s")
    assert reply.ok and s.entries == ["t1 t7", "s"]
    assert [p["input"] for p in reply.data["parts"]] == ["t1 t7", "s"]
    reply = s.handle("3 5; w t7")
    assert not reply.ok and s.entries == ["t1 t7", "s"]
    assert "Stopped at 3 5: w t7 not played." in reply.text
    # the last part refused: what came before it was played, and the reply says so
    reply = s.handle("s, 0")
    assert not reply.ok and s.entries == ["t1 t7", "s", "s"]
    assert "s, before 0, stands (`undo` takes it back)." in reply.text


def test_a_physical_move_and_the_card_it_turns_up_on_one_line():
    s = started_klondike()
    reply = s.handle("t4 t2, js")
    assert reply.ok and s.entries[-2:] == ["t4 t2", "t4=js"]


def test_a_seeded_gaps_redeal_says_to_lay_the_cards_out_as_shown():
    s = seeded(1, variant="gaps")
    while True:
        moves = [str(m) for m in s.pos.legal_moves if str(m) != "s"]
        if not moves:
            break
        assert s.handle(moves[0]).ok
    reply = s.handle("s")
    assert reply.ok
    assert "Redealt, as seed 1 deals it" in reply.text
    assert "lay them out as shown" in reply.text and "not shuffled your own way" in reply.text


def _pile_text(pos, name):
    return " ".join(code_text(c, symbols=False) for c in pos.piles[pos.engine.index[name]])


def test_intelligence_physical_layout_takes_the_aces_that_went_up_while_dealing(store):
    seeded_pos = deal("intelligence", 1)
    names = seeded_pos.engine.names
    up = [_pile_text(seeded_pos, n) for n in names if n[0] == "f" and _pile_text(seeded_pos, n)]
    assert up, "seed 1 sends aces up while dealing"
    s = physical("intelligence", store=store)
    reply = s.handle("t1: ah qc 4h")
    assert not reply.ok and "goes straight to a foundation" in reply.text
    for k in range(1, 19):
        assert s.handle(f"t{k}: " + _pile_text(seeded_pos, f"t{k}")).ok
    assert s.handle("f: " + " ".join(up)).ok
    assert s.handle("start").ok
    # the layout is the seed's, the stock a card shorter for each ace that went up
    for n in names:
        if n != "s":
            assert _pile_text(s.pos, n) == _pile_text(seeded_pos, n)
    assert len(s.pos.piles[s.engine.index["s"]]) == len(
        seeded_pos.piles[seeded_pos.engine.index["s"]])


def test_tournament_first_row_without_an_ace_or_king_is_not_started():
    s = physical("tournament")
    for k, suit in enumerate("shdcsh", 1):
        assert s.handle(f"t{k}: 2{suit} 3{suit} 4{suit} 5{suit}").ok
    reply = s.handle("r1: 6c")
    assert reply.ok and "must hold" not in reply.text
    reply = s.handle("7c 8c 9c 10c jc qc 6d")
    assert reply.ok and s.layout.complete
    assert "The row dealt to r1-r8 must hold an A or a K" in reply.text
    assert "gather the whole pack, shuffle it again and deal afresh" in reply.text
    reply = s.handle("start")
    assert not reply.ok and "deal afresh" in reply.text and s.phase == "setup"
    assert s.handle("r8: kd").ok and s.handle("start").ok


def test_fix_corrects_a_misnamed_card_and_the_saved_game(store):
    s = started_klondike(store)            # ah kd 2s qc 3d 4c 5h
    assert s.handle("t4 t2").ok            # Q♣ onto K♦
    assert s.handle("js").ok               # t4's new top card, named wrongly
    assert s.handle("s").ok and s.pending
    reply = s.handle("js")                 # the real J♠ turns up on the waste
    assert not reply.ok and "fix t4 js CARD first" in reply.text
    reply = s.handle("fix t4 jc")          # J♠ is the one card face up on t4
    assert reply.ok and "Corrected the card named on t4 at move 1: J♠ → J♣" in reply.text
    assert s.handle("js").ok
    assert s.entries == ["t4 t2", "t4=jc", "s", "w=js"]
    resumed = Session.resume(Position.from_json(json.loads(store.game(s.game_id).start)),
                             [t for t, _ in store.moves(s.game_id)])
    assert resumed.entries == s.entries


def test_fix_corrects_a_layout_card_and_refuses_one_that_breaks_a_move(store):
    s = started_klondike(store)
    assert s.handle("t4 t2").ok            # Q♣ onto K♦
    reply = s.handle("t2=kd kh")           # K♥ under a black queen: still legal
    assert reply.ok and "the layout's t2, card 2 from the bottom: K♦ → K♥" in reply.text
    reply = s.handle("fix t2 kh kc")       # a black king would make move 1 illegal
    assert not reply.ok and "move 1 (t4 t2) would no longer be legal" in reply.text
    assert "Nothing changed" in reply.text
    assert s.start.piles[s.engine.index["t2"]][-1] == code("kh")
    reply = s.handle("fix t2 kh ah")       # A♥ is on t1 already
    assert not reply.ok and s.handle("fix t9 ah").ok is False


GOLF_LAYOUT = ["t1: 2h 3h 4h 5h 6h", "t2: 7h 8h 9h 10h jh", "t3: qh kh ah 2c 3c",
               "t4: 4c 5c 6c 7c 8c", "t5: 2s jd 4d as 9s", "t6: 9c 10c jc qc kc",
               "t7: kd 3d 5d 6d 7d", "w: 8d"]


def test_fix_with_pile_and_card_never_changes_a_card_the_player_did_not_name(store):
    # issue 49: `fix t5 ac` changed t5's top card, 9♠, when A♠ (card 4) was meant
    s = physical("golf", store=store)
    for line in GOLF_LAYOUT + ["start", "s"]:
        assert s.handle(line).ok, line
    reply = s.handle("as")                 # the real A♠ turns up: t5's was misnamed
    assert not reply.ok and "type fix t5 as CARD first" in reply.text
    start = s.start.to_json()
    reply = s.handle("fix t5 ac")          # t5 shows five cards: which one?
    assert not reply.ok and "which one is wrong" in reply.text
    assert "(2♠ J♦ 4♦ A♠ 9♠)" in reply.text and "fix t5 CARD ac" in reply.text
    assert s.start.to_json() == start and s.pending
    assert json.loads(store.game(s.game_id).start) == start
    reply = s.handle("fix t5 as ac")
    assert reply.ok and "the layout's t5, card 4 from the bottom: A♠ → A♣" in reply.text
    assert s.handle("as").ok
    t5 = s.pos.piles[s.engine.index["t5"]]
    assert [code_text(c, symbols=False) for c in t5] == ["2s", "Jd", "4d", "Ac", "9s"]


def test_fix_on_a_waste_of_several_cards_asks_which_one():
    s = started_klondike()
    assert s.handle("s").ok and s.handle("9d 5c 7d").ok
    assert s.handle("s").ok and s.pending
    entries = list(s.entries)
    reply = s.handle("fix w 9c")           # it changed 7♦, the last card named on w
    assert not reply.ok and "w holds 3 named cards (9♦ 5♣ 7♦)" in reply.text
    assert s.entries == entries
    reply = s.handle("fix w 9d 9c")
    assert reply.ok and "9♦ → 9♣" in reply.text
    assert s.entries == ["s", "w=9c", "w=5c", "w=7d", "s"]


def test_fix_with_pile_and_card_takes_the_one_card_there_even_if_named_elsewhere():
    s = started_klondike()                 # ah kd 2s qc 3d 4c 5h
    assert s.handle("t1 f").ok and s.handle("t2 t1").ok and s.handle("8s").ok
    reply = s.handle("fix t1 kh")          # t1 shows K♦ alone, named on t2 in the layout
    assert reply.ok and "the layout's t2, card 2 from the bottom: K♦ → K♥" in reply.text
    reply = s.handle("fix t2 8c")          # 8♠, the one card on t2
    assert reply.ok and "8♠ → 8♣" in reply.text and s.entries[-1] == "t2=8c"


def test_a_refused_card_names_the_legal_moves_instead_of_no_move_at_all():
    # issue 49: "(no move at all is left)" while `moves` listed s read as a lost game
    s = seeded(7)
    moves = ("t7 f, t2 t4, t1 t2, t5 t2, t2:3 t4, s, s, t4:5 t6, s, s, s, s, s, s, s, s, "
             "s, s, s, s")
    assert s.handle(moves).ok
    assert s.handle("moves").data["moves"] == ["s"]
    reply = s.handle("4h")
    assert not reply.ok and "4♥ has no legal move here (legal moves: s)" in reply.text
    assert "no move at all" not in reply.text


def test_the_stock_s_last_card_is_not_turn_1_cards():
    from rechelp import codes, klondike_json
    s = Session.resume(Position.from_json(klondike_json(
        {"t1": codes("9h"), "s": codes("3d 4d 5d 6c")}, down={"s": 4})), [])
    assert "turn 3 cards from the stock to the waste" in s.handle("s").text
    assert "s  turn the stock's last card to the waste" in s.handle("moves").text
    reply = s.handle("s")
    assert reply.ok and "s: turn the stock's last card to the waste" in reply.text
    assert "1 cards" not in reply.text


def test_a_card_typed_under_others_is_said_to_be_covered():
    s = seeded(7)
    assert s.handle("t7 f, t2 t4, t1 t2, t5 t2, t2:3 t4, s, s, t4:5 t6").ok
    assert s.handle(", ".join(["s"] * 12)).ok
    reply = s.handle("kd")                 # issue 49: said "not face up anywhere"
    assert not reply.ok and "K♦ is in the waste under 7 cards; only the top card" in reply.text
    reply = s.handle("t3 8h")              # named 3♠ and 6♥, cards not typed
    assert not reply.ok and "8♥ is not the top card of t6: 7♣ 6♥ 5♠ 4♥ 3♠ lie on it" \
        in reply.text


def test_a_move_typed_while_a_card_waits_asks_for_the_card_first():
    s = started_klondike()
    assert s.handle("t4 t2").ok and s.pending
    reply = s.handle("t1 t7")
    assert not reply.ok and "looks like a move: name the turned-up card first" in reply.text
    assert "not a suit" not in reply.text


def test_quitting_a_finished_game_does_not_offer_to_resume_it(store):
    s = seeded(1, store=store)
    s.phase = "over"
    reply = s.handle("quit")
    assert "it is over" in reply.text and "resume" not in reply.text


def test_a_game_lost_to_an_idle_pass_says_no_other_move_is_left():
    from rechelp import codes, klondike_json

    from companion.cli.engine_cmds import _outcome_text
    from companion.cli.games_cmds import _outcome_line
    start = Position.from_json(klondike_json({"t1": codes("9h"), "s": codes("3d 4d 5d")}))
    s = Session.resume(start, [])
    for _ in range(2):
        s.handle("s")
    r = s.handle("s")  # the new pass turns up the same cards: nothing changed
    want = "the last pass through the stock changed nothing and no other move is left"
    assert f"The game is lost: {want}." in r.text and "a whole pass" not in r.text
    assert _outcome_line(s.pos) == f"Lost: {want}." == _outcome_text(s.pos)


@pytest.mark.parametrize("typed", ["t9 t1", "t5 t9"])
def test_no_unrelated_move_is_suggested_for_a_pile_that_does_not_exist(typed):
    # seed 1's legal moves are t1 t7 and s: "t9 t1" is no slip of either
    r = seeded().handle(typed)
    assert not r.ok and "Did you mean" not in r.text
    assert "there is no pile 't9'" in r.text


def test_a_hint_asked_while_several_cards_wait_names_them_in_the_plural():
    s = physical("klondike")
    s.handle("ah kd 2s qc 3d 4c 5h")
    s.handle("start")
    s.handle("s")
    r = s.handle("hint")
    assert not r.ok and "Name the turned-up cards first." in r.text
