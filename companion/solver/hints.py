"""Hints that never peek: the best next move, a reason a player understands, and a verdict.

What the player has not seen stays unknown. The cards treated as unseen are those in face-down
slots (``??`` in a game from a real deck; in a seeded game the engine knows them, but the hint
does not look), except the stock's cards after its first pass, which the player has turned over
once, and any shuffle a later redeal makes. Each *sample* deals the unseen cards at random into
those slots and gives the redeals a random seed (the multiset is exactly
what the player has not seen, so every sample is consistent with everything known); each
sample is solved, the root moves that already won in earlier samples are tried first, and the
move that wins in the most samples is the hint. Its share of samples is the estimated chance
(for thoughtful play: knowing the sample's cards, so an upper bound on a player's chance).

With ``peek=True`` (or when nothing is hidden, as in an open game) the one real position is
solved and the verdict is exact: won (with a winning line) or proved lost, or unknown.

When the suggested move wins and the budget allows, the other legal moves are checked too: if
every one of them is proved lost, the reason says the move is "the only move that keeps the
game winnable". With samples, the weaker "the only move that won in any sample" is said only
when every sample was decided and, in each sample the move won, every other move was proved
lost there. Neither is ever said without those proofs.

The hint knows the game's past (the positions its moves started from: ``Position.keys_met``,
or ``met``) and never leads round in circles: a move back to a position already met in the
game (the undo of the last move among them) is proposed only where it won in strictly more
samples than the best other move, counting for it only the samples where no other move was
found to win, and never back to a position met twice already. Where every sample is lost, or
every move leads back, the hint proposes nothing and says so: "no move improves the position:
the game looks lost".
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import UNKNOWN
from ..rules.describe import describe_move, move_effect
from ..rules.engine import Raw
from ..rules.position import Outcome, Position
from ..rules.variant import Variant
from .search import LOST, UNKNOWN_VERDICT, WON, Limits, SolverError, knowledge, solve, stuck_reason


@dataclass
class Hint:
    move: str | None
    """The suggested move in canonical notation (None when the game is over, waits for a
    card to be named, or no move improves the position: ``looks_lost``)."""
    reason: str
    """One line on what the move does, for a player."""
    verdict: str
    """``won``, ``lost``, ``unknown``: exact with ``peek`` or an open game; with samples,
    always ``unknown`` (samples estimate a chance, they prove nothing)."""
    basis: str
    """How the verdict was reached, in words."""
    chance: float | None = None
    """With samples: the share of samples the suggested move wins (a lower bound when some
    are undecided); None when none won and some are undecided (not known)."""
    samples: int = 0
    wins: int = 0
    """Samples the suggested move won."""
    undecided: int = 0
    """Samples whose search ran out of budget."""
    peeked: bool = False
    line: list[str] = field(default_factory=list)
    """With peek (or an open game) and a win: the whole winning line."""
    only: str | None = None
    """Why the move stands alone: ``legal`` (no other legal move), ``winnable`` (every other
    legal move proved lost: exact verdicts only), ``samples`` (every other move proved lost
    in every sample the move won, and every sample decided); None otherwise."""
    others_lost: int = 0
    """With ``only`` = ``winnable`` or ``samples``: how many other legal moves were proved
    lost."""
    seconds: float = 0.0
    looks_lost: bool = False
    """No move is proposed though the game goes on: every sample was lost, or every legal move
    leads back to a position already met in the game."""
    why: str = ""
    """One line on why this move beat the runner-up (``hint --explain``). With samples, each
    sample won counts for one move, the first of the win found there."""

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "reason": self.reason, "verdict": self.verdict,
                "basis": self.basis, "chance": self.chance, "samples": self.samples,
                "wins": self.wins, "undecided": self.undecided, "peeked": self.peeked,
                "line": self.line, "only": self.only, "others_lost": self.others_lost,
                "looks_lost": self.looks_lost, "why": self.why,
                "seconds": round(self.seconds, 3)}

    def text(self) -> str:
        if self.move is None:
            return f"{self.reason}\n{self.basis}"
        return f"Hint: {self.move}: {self.reason}.\n{self.basis}"


# -- what is hidden ---------------------------------------------------------------------------------

def hidden_slots(pos: Position) -> list[tuple[int, int]]:
    """(pile, height) of every card the player has not seen, bottom to top."""
    kn = knowledge(pos.variant)
    out = []
    for i, p in enumerate(pos.piles):
        d = pos.down[i]
        stock_seen = i == kn.S and pos.pass_no > 1
        for k, c in enumerate(p):
            if c == UNKNOWN or (k < d and not stock_seen):
                out.append((i, k))
    return out


def shuffles_later(variant: Variant) -> bool:
    """Whether a later redeal shuffles cards (Gaps): a future no player can know."""
    v = variant
    if v.gaps is not None and v.gaps.shuffle and v.gaps.redeals:
        return True
    return v.stock is not None and getattr(v.stock, "redeal", "") == "shuffle"


def unseen_cards(pos: Position, slots: Sequence[tuple[int, int]]) -> list[int]:
    """The multiset of cards behind ``slots``: the known codes there, plus ``pos.unseen()``
    for the ``??`` ones."""
    pool = [pos.piles[i][k] for i, k in slots if pos.piles[i][k] != UNKNOWN]
    pool += list(Counter(pos.unseen()).elements())
    unknown_slots = sum(1 for i, k in slots if pos.piles[i][k] == UNKNOWN)
    named = len(pool) - (len(slots) - unknown_slots)
    if named != unknown_slots:
        raise SolverError(
            f"the position has {unknown_slots} unseen card slots but {named} cards are "
            f"unaccounted for: check the piles against the variant's deck "
            f"(`companion moves --position` shows the position)")
    # in a canonical order: from one rng seed, the same samples whatever lies face down
    return sorted(pool)


def sample(pos: Position, slots: Sequence[tuple[int, int]], pool: list[int],
           rng: random.Random) -> Position:
    """A copy of ``pos`` with the unseen cards dealt at random into ``slots``."""
    cards = pool[:]
    rng.shuffle(cards)
    q = pos.copy()
    piles = [list(p) for p in q.piles]
    for (i, k), c in zip(slots, cards, strict=True):
        piles[i][k] = c
    q.piles = [tuple(p) for p in piles]
    # A redeal that shuffles (Gaps) follows the seed: the player cannot know that shuffle
    # either, so each sample gets its own.
    q.seed = rng.randrange(2**32)
    return q


# -- reasons ------------------------------------------------------------------------------------------

def describe(pos: Position, m: Raw, symbols: bool = True) -> str:
    """What raw move ``m`` does, in words, naming only cards the player can see."""
    eng = pos.engine
    return describe_move(eng, m, pos.piles, pos.down, symbols) + \
        move_effect(eng, m, pos.piles, pos.down)


ONLY_WORDS = {
    "legal": "the only legal move",
    "winnable": "the only move that keeps the game winnable",
    "samples": "the only move that won in any sample",
}


def _reason(pos: Position, m: Raw, symbols: bool, only: str | None) -> str:
    what = describe(pos, m, symbols)
    return f"{what}; {ONLY_WORDS[only]}" if only else what


def others_lost(pos: Position, best: Raw, deadline: float) -> int | None:
    """How many legal moves of ``pos`` (every card known) other than ``best`` there are, when
    each one is proved lost before ``deadline`` (a ``time.perf_counter()`` value); None as
    soon as one of them wins or is not decided in time: nothing is claimed without a proof."""
    kn = knowledge(pos.variant)
    others = [m for m in pos.raw_moves() if m != best]
    # The likeliest winners first: one win ends the check at once.
    others.sort(key=lambda m: -kn.score(pos, m))

    def stop() -> bool:
        return time.perf_counter() > deadline

    for m in others:
        left = deadline - time.perf_counter()
        if left <= 0:
            return None
        q = pos.copy()
        q.push_raw(m)
        r = solve(q, Limits(seconds=left), stop=stop, short=False)
        if r.verdict != LOST:
            return None
    return len(others)


def _over_basis(over: Outcome) -> str:
    """The basis line of a game already over, as `companion check` words its end."""
    score = f" Score {over.score}." if over.score is not None else ""
    return f"{'Won' if over.won else 'Lost'}: {over.why}." + score


# -- the game's past ---------------------------------------------------------------------------------

LOOKS_LOST = "No move improves the position: the game looks lost."


def returning(pos: Position, legal: Iterable[Raw], met: Counter[bytes]) -> dict[Raw, int]:
    """The moves of ``legal`` that lead back to a position already met in the game (``met``:
    how often each position's key was met), each with how often its position was met."""
    out: dict[Raw, int] = {}
    if not met:
        return out
    for m in legal:
        q = pos.copy()
        q.push_raw(m)
        n = met.get(q.key(), 0)
        if n:
            out[m] = n
    return out


def _winning_child(pos: Position, moves: Sequence[Raw],
                   until: float) -> tuple[Raw, list[str]] | None:
    """The first of ``moves`` found to win in ``pos`` (every card known) before ``until``
    (a ``time.perf_counter()`` value), with its winning line: (move, line), or None."""
    for n, m in enumerate(moves):
        left = until - time.perf_counter()
        if left <= 0:
            return None
        q = pos.copy()
        q.push_raw(m)
        # each move left gets an equal share of the time left: one slow search must not
        # starve the others
        r = solve(q, Limits(seconds=left / (len(moves) - n)), short=False,
                  stop=lambda: time.perf_counter() > until)
        if r.verdict == WON:
            return m, [pos.engine.text(m), *r.moves]
    return None


def _back_note(pos: Position, m: Raw) -> str:
    return f"{pos.engine.text(m)} leads back to a position already met in this game"


# -- the hint ------------------------------------------------------------------------------------------

def hint(pos: Position, *, peek: bool = False, samples: int = 10, seconds: float = 1.0,
         rng_seed: int | None = None, symbols: bool = True,
         met: Iterable[bytes] | None = None) -> Hint:
    """The best next move in ``pos`` (left unchanged) within about ``seconds``.

    ``met``: the keys (:meth:`Position.key`) of the positions met so far in the game, each
    as often as it was met; by default those the moves played on ``pos`` started from
    (:meth:`Position.keys_met`: a game replayed from its moves, as `companion hint ID` and
    `companion play` have it)."""
    start = time.perf_counter()
    over = pos.outcome()
    if over is not None:
        reason = "The game is won." if over.won else "The game is over: no move can change it."
        return Hint(None, reason, WON if over.won else LOST, _over_basis(over), why=reason,
                    seconds=time.perf_counter() - start)
    if peek and any(UNKNOWN in p for p in pos.piles):
        raise SolverError("--peek needs every card known, and this position has cards not "
                          "seen yet (??); leave out --peek to sample them")
    slots = [] if peek else hidden_slots(pos)
    pending = pos.pending_reveals()
    if pending:
        name = pos.variant.pile_names[pending[0][0]]
        reason = f"First name the card turned up on {name} (e.g. {name}=9c)."
        return Hint(None, reason, UNKNOWN_VERDICT,
                    "Unknown: a hint needs every face-up card named.", why=reason,
                    seconds=time.perf_counter() - start)
    met = Counter(pos.keys_met() if met is None else met)
    if not slots and (peek or not shuffles_later(pos.variant)):
        return _exact(pos, seconds, start, peek, symbols, met)
    return _sampled(pos, slots, samples, seconds, start, rng_seed, symbols, met)


def _exact(pos: Position, seconds: float, start: float, peek: bool, symbols: bool,
           met: Counter[bytes]) -> Hint:
    r = solve(pos, Limits(seconds=seconds))
    what = "--peek: every card known" if peek else "nothing is hidden"
    legal = pos.raw_moves()
    back = returning(pos, legal, met)
    free = [m for m in legal if m not in back]
    alone = "legal" if len(legal) == 1 else None
    if r.verdict == WON:
        m, line = r.raw[0], r.moves
        if m in back and free:
            # A proved win that starts by going back: a winning move that makes progress is
            # preferred when one is found in the time left (a win back is still a win).
            kn = knowledge(pos.variant)
            child = _winning_child(pos, sorted(free, key=lambda x: -kn.score(pos, x)),
                                   start + seconds)
            if child is not None:
                m, line = child
        found = f"Won: a winning line of {_count(len(line), 'move')} exists"
        basis = f"{found} ({what}); `companion solve` prints one."
        lost = 0
        if alone is None:
            # Within what is left of the budget: is every other move a proved loss?
            n = others_lost(pos, m, start + seconds)
            if n is not None:
                alone, lost = "winnable", n
                basis = (f"{found}, and {_others(n)} was proved lost ({what}); "
                         f"`companion solve` prints one.")
        why = f"it starts a winning line of {_count(len(line), 'move')} (proved)"
        if alone == "winnable":
            why += f"; {_others(lost)} was proved lost"
        return Hint(line[0], _reason(pos, m, symbols, alone), WON, basis, chance=1.0,
                    peeked=peek, line=line, only=alone, others_lost=lost,
                    why=f"{line[0]}: {why}.", seconds=time.perf_counter() - start)
    if r.verdict == LOST:
        # (the proof in its own words, as `companion solve` prints it: its count of
        # positions, not the sum over every search that ran beside it)
        proof = (f"{r.reason} ({what})" if r.reason else
                 f"no line wins ({_count(r.states, 'position')} searched, {what})")
        lost_why = (f"Lost: {stuck_reason(pos, r.stuck, symbols)} ({what})" if r.stuck else
                    f"Lost: {proof}")
        if not free:
            reason = "No move improves the position: the game is lost."
            return Hint(None, reason, LOST, f"{lost_why}; every legal move ({_texts(pos, legal)}) "
                        f"leads back to a position already met in this game.", chance=0.0,
                        peeked=peek, looks_lost=True, why=reason,
                        seconds=time.perf_counter() - start)
        m = _heuristic_move(pos, free)
        return Hint(pos.engine.text(m), _reason(pos, m, symbols, alone), LOST,
                    f"{lost_why}; this move keeps the most options.", chance=0.0, peeked=peek,
                    only=alone, why=f"{pos.engine.text(m)}: the game is proved lost; this move "
                                    f"keeps the most options.",
                    seconds=time.perf_counter() - start)
    basis = f"Unknown: the search ran out of time after {r.nodes} positions ({what})."
    if not free:
        return Hint(None, LOOKS_LOST, UNKNOWN_VERDICT,
                    f"{basis} Every legal move ({_texts(pos, legal)}) leads back to a position "
                    f"already met in this game.", peeked=peek, looks_lost=True,
                    why=LOOKS_LOST, seconds=time.perf_counter() - start)
    m = _heuristic_move(pos, free)
    return Hint(pos.engine.text(m), _reason(pos, m, symbols, alone), UNKNOWN_VERDICT, basis,
                peeked=peek, only=alone,
                why=f"{pos.engine.text(m)}: the search ran out of time; this move keeps the "
                    f"most options.", seconds=time.perf_counter() - start)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _others(n: int) -> str:
    return "the other legal move" if n == 1 else f"each of the {n} other legal moves"


def _texts(pos: Position, moves: Iterable[Raw]) -> str:
    return ", ".join(pos.engine.text(m) for m in moves)


def _heuristic_move(pos: Position, moves: Sequence[Raw] | None = None) -> Raw:
    kn = knowledge(pos.variant)
    ms = pos.raw_moves() if moves is None else moves
    return max(ms, key=lambda m: kn.score(pos, m))


def _sampled(pos: Position, slots: list[tuple[int, int]], k: int, seconds: float, start: float,
             rng_seed: int | None, symbols: bool, met: Counter[bytes]) -> Hint:
    rng = random.Random(rng_seed)
    pool = unseen_cards(pos, slots)
    legal = pos.raw_moves()
    back = returning(pos, legal, met)
    free = [m for m in legal if m not in back]
    kn = knowledge(pos.variant)
    k = max(1, k)
    per = max(seconds / k, 0.01)
    votes: Counter[Raw] = Counter()  # samples won, by the first move of the win found
    # samples won only through a move back to a position already met: no other move was
    # found to win there
    back_wins: Counter[Raw] = Counter()
    won_any = undecided = 0
    deadline = start + seconds * 1.5
    done = 0
    won_samples: list[Position] = []  # the samples won, to check the other moves in them afterwards
    for _ in range(k):
        q = sample(pos, slots, pool, rng)
        prefer = [m for m, _ in votes.most_common()]
        r = solve(q, Limits(seconds=per), prefer=prefer, short=False,
                  stop=lambda: time.perf_counter() > deadline)
        done += 1
        if r.verdict == WON:
            won_any += 1
            first = r.raw[0]
            if first in back:
                # The win found goes back first: does a move that makes progress win too?
                order = sorted(free, key=lambda m: (-votes[m], -kn.score(q, m)))
                found = _winning_child(q, order, min(deadline, time.perf_counter() + per))
                if found is None:
                    back_wins[first] += 1
                else:
                    votes[found[0]] += 1
                    won_samples.append(q)
            else:
                votes[first] += 1
                won_samples.append(q)
        elif r.verdict == UNKNOWN_VERDICT:
            undecided += 1
        if time.perf_counter() > deadline:
            break
    what = (f"deal{'s' if done != 1 else ''} of the {_count(len(pool), 'unseen card')}"
            if pool else f"shuffle{'s' if done != 1 else ''} of the redeals")
    ranked = votes.most_common()
    # A move back counts only where it won strictly more, and never back to a position met
    # twice already: the hint has gone on from there twice, so going back is a circle.
    backs = sorted(((n, m) for m, n in back_wins.items() if back[m] < 2),
                   key=lambda x: -x[0])
    went_back = bool(backs) and backs[0][0] > (ranked[0][1] if ranked else 0)
    m: Raw | None
    if went_back:
        wins, m = backs[0]
    elif ranked:
        m, wins = ranked[0]
    else:
        wins = 0
        m = _heuristic_move(pos, free) if free else None
    if m is None or (won_any == 0 and undecided == 0):
        if won_any == 0 and undecided == 0:
            basis = f"None of {done} {what} wins."
            why = f"Every one of the {done} samples was lost"
        else:
            basis = (f"Every legal move ({_texts(pos, legal)}) leads back to a position "
                     f"already met in this game.")
            why = "Every legal move leads back to a position already met in this game"
        basis += " Thoughtful play: each sample is solved knowing its cards."
        return Hint(None, LOOKS_LOST, UNKNOWN_VERDICT, basis,
                    chance=0.0 if not undecided else None, samples=done,
                    undecided=undecided, looks_lost=True, why=f"{why}.",
                    seconds=time.perf_counter() - start)
    # With no win and some sample undecided, the chance is not known (the text says so):
    # no 0 % in the JSON either.
    chance = None if (wins == 0 and undecided) else wins / done
    verdict = UNKNOWN_VERDICT  # samples estimate a chance; they prove nothing
    basis = f"Wins in {wins} of {done} {what} "
    if undecided:
        basis += (f"(estimated chance at least {chance:.0%}: {undecided} undecided)." if wins
                  else f"({undecided} undecided: the chance is not known).")
    else:
        basis += f"(estimated chance {chance:.0%})."
    text = pos.engine.text(m)
    if went_back:
        basis += (" It leads back to a position already met in this game, and won only "
                  "where no other move was found to win.")
    elif backs:
        n, b = backs[0]
        basis += f" {_back_note(pos, b)}: it won in {n} where no other move was found to win."
    # the runner-up: the next move by samples won, moves back included
    rivals = [(n, x) for x, n in ranked if x != m] + [(n, x) for n, x in backs if x != m]
    rivals.sort(key=lambda x: -x[0])
    if wins:
        # (each sample won counts for one move: the first of the win found there)
        why = f"{text} led the win found in {wins} of {done} samples"
        why += (f"; the runner-up, {pos.engine.text(rivals[0][1])}, in {rivals[0][0]}"
                if rivals else "; no other move led one")
        if went_back:
            why += " (it leads back to a position already met, but wins more)"
    else:
        why = (f"{text}: no sample was won ({_count(undecided, 'undecided')}); this move "
               f"keeps the most options")
    alone, lost = ("legal" if len(legal) == 1 else None), 0
    if alone is None and wins and not undecided and len(votes) == 1 and not back_wins \
            and not went_back:
        # Every sample was decided and only this move ever came first in a win; say it is
        # the only one that won only if every other move is proved lost in each sample it
        # won (a sample lost as a whole is lost whatever the move).
        n_lost = None
        for q in won_samples:
            n_lost = others_lost(q, m, deadline)
            if n_lost is None:
                break
        if n_lost is not None:
            alone, lost = "samples", n_lost
            basis += f" {_others(n_lost).capitalize()} lost in every sample."
    basis += " Thoughtful play: each sample is solved knowing its cards."
    return Hint(text, _reason(pos, m, symbols, alone), verdict, basis,
                chance=chance, samples=done, wins=wins, undecided=undecided, only=alone,
                others_lost=lost, why=f"{why}.", seconds=time.perf_counter() - start)
