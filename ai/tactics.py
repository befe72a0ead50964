"""Cheap exact looks one move ahead, and the "playing alone" fill that decides when to end.

Each look tries a dot on a copy of the board: a copy is a few bytearrays, so trying every
candidate of a 10x10 position costs a few milliseconds, once per decision (not per iteration).
"""

from __future__ import annotations

from ai.playout import Geometry, is_suicide
from engine import Board, Player


def gains(board: Board, player: int, moves: list[int], geometry: Geometry) -> dict[int, int]:
    """For each move of ``moves`` that raises ``player``'s score at once, by how much."""
    me = Player(player)
    before = board.score(me)
    found = {}
    for i in moves:
        if not _touches(board, i, player, geometry):
            continue
        trial = board.copy()
        trial.place_index(i, player)
        gain = trial.score(me) - before
        if gain > 0:
            found[i] = gain
    return found


def threats(board: Board, player: int, geometry: Geometry) -> dict[int, int]:
    """The points where the opponent of ``player`` would capture at once, with the loss each
    would cost ``player``: the dots to save by playing there first."""
    return gains(board, 3 - player, board.free_indices(), geometry)


def fill_alone(board: Board, player: int, geometry: Geometry) -> Board:
    """A copy of ``board`` after ``player`` places a dot on every point it safely can while
    the opponent does nothing (rule 6.2): what playing on alone could take at most.

    Points the opponent's rings would take at once are skipped, then retried on the next pass
    (a later dot may make them safe). Costs a board copy per point tried.
    """
    filled = board.copy()
    while True:
        placed = False
        for i in filled.free_indices():
            if filled.is_free_index(i) and not is_suicide(filled, i, player, geometry):
                filled.place_index(i, player)
                placed = True
        if not placed:
            return filled


def _touches(board: Board, i: int, player: int, geometry: Geometry) -> bool:
    """Whether a dot of ``player`` on ``i`` touches two separate runs of its own live dots,
    which every dot that closes a ring does (else it closes nothing)."""
    live = board.live_at
    runs = 0
    previous = live(i + geometry.dirs[7]) == player
    for step in geometry.dirs:
        current = live(i + step) == player
        if current and not previous:
            runs += 1
        previous = current
    return runs >= 2
