"""Cheap exact looks one move ahead, and the "playing alone" fill that decides when to end.

Each look tries a dot on a copy of the field: a copy is a few bytearrays, so trying every
candidate of a position costs a few milliseconds, once per decision (not per iteration).
"""

from __future__ import annotations

from ai.field import RUNS, Field


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
