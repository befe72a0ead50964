"""Cheap exact looks one move ahead, and the "playing alone" fill that decides when to end.

Each look tries a dot on a copy of the field: a copy is a few bytearrays, so trying every
candidate of a position costs a few milliseconds, once per decision (not per iteration).
"""

from __future__ import annotations

import time

from ai.field import RUNS, Field

# How long the rescue may look, at most, out of a move's time.
RESCUE_SECONDS = 0.25


def gains(field: Field, player: int, moves: list[int]) -> dict[int, int]:
    """For each move of ``moves`` that raises ``player``'s score at once, by how much."""
    found = {}
    for i in moves:
        if RUNS[field.pattern(i, player)] < 2 or not field.captures_at(i, player):
            continue
        trial = field.copy()
        gain = trial.place(i, player)
        if gain > 0:
            found[i] = gain
    return found


def threats(field: Field, player: int) -> dict[int, int]:
    """The points where the opponent of ``player`` would capture at once, with the loss each
    would cost ``player``: the dots to save by playing there first."""
    return gains(field, 3 - player, field.free_indices())


def fill_alone(field: Field, player: int) -> Field:
    """A copy of ``field`` after ``player`` places a dot on every point it safely can while
    the opponent does nothing (rule 6.2): what playing on alone could take at most.

    Points the opponent's rings would take at once are skipped, then retried on the next pass
    (a later dot may make them safe).
    """
    filled = field.copy()
    while True:
        placed = False
        for i in filled.free_indices():
            if not filled.taken[i] and not filled.is_suicide(i, player):
                filled.place(i, player)
                placed = True
        if not placed:
            return filled


def rescue(field: Field, player: int, *, seconds: float = RESCUE_SECONDS) -> int | None:
    """The answer to the opponent's capture threats, when ``player`` has one to answer: the
    move that leaves ``player`` best off once the opponent has taken its best capture next.

    A threat is a point where the opponent would capture at once (``threats``). The moves
    looked at: each threatened point (a dot there blocks the ring), the free points round it
    (an extension or another block), and ``player``'s own captures (taking first may break
    the ring, or win more than it loses). Each is tried and scored as what it takes less what
    the opponent's best capture then takes; standing still scores minus the biggest threat.
    Returns the best move when it does better than standing still (ties: the first looked at,
    blocks of the biggest threat first), else None (no threat, or none can be helped: the
    search decides). Costs a copy, a placement and a threat scan per move looked at; moves
    are looked at in that order until ``seconds`` have passed (the move's time budget).
    """
    started = time.perf_counter()
    danger = threats(field, player)
    if not danger:
        return None
    standing = -max(danger.values())
    opponent = 3 - player
    dirs = field.dirs
    moves: list[int] = []
    for point, _ in sorted(danger.items(), key=lambda item: -item[1]):
        for c in (point, *(point + d for d in dirs)):
            if not field.taken[c] and c not in moves:
                moves.append(c)
    for c in gains(field, player, field.free_indices()):
        if c not in moves:
            moves.append(c)
    best, best_score = None, standing
    for m in moves:
        if time.perf_counter() - started > seconds:
            break
        if field.is_suicide(m, player):
            continue
        trial = field.copy()
        gain = trial.place(m, player)
        replies = gains(trial, opponent, trial.free_indices())
        score = gain - max(replies.values(), default=0)
        if score > best_score:
            best, best_score = m, score
    return best
