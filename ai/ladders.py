"""A ladder reader: forced capture sequences (chains of threats the opponent must answer).

A ladder in Dots: a dot threatens to close a ring (next move it would capture); the opponent
must answer on the point that would close it (or capture first); the next dot threatens again,
and so on until a ring closes (the ladder works) or the opponent escapes (to the edge, to its
own dots, or by a capture of its own). The one-move looks of ai/tactics.py see a capture and a
threat one move ahead; this reads the whole chain, a few moves deep, only along forcing moves:

- the attacker plays only dots after which it threatens a capture next to them;
- the defender answers only on the points that would close the attacker's rings, or with a
  capture of its own next to the fight (a capture breaks a ladder);
- the ladder works when every answer leaves the attacker a capture within ``depth`` moves.

What it costs: a Field copy and a placement per move read, bounded by ``nodes`` in all, so a
read stays within a few milliseconds per root move however big the board. Hard reads ladders
once per decision, for its root priors (ai/player.py), not in the playouts.
"""

from __future__ import annotations

import time

from ai.field import RUNS, Field

DEPTH = 5
NODES = 600
SECONDS = 0.1


def ladder_starts(
    field: Field,
    player: int,
    moves: list[int],
    *,
    depth: int = DEPTH,
    nodes: int = NODES,
    seconds: float = SECONDS,
) -> dict[int, int]:
    """The moves of ``moves`` that start a working ladder for ``player``: whatever the
    opponent answers, ``player`` captures within ``depth`` more moves. Each with the net gain
    (dots) the ladder ends with. Plain captures are left to ai/tactics.py's ``gains``.

    ``moves`` are read in their order until ``nodes`` placements and ring tests are spent or
    ``seconds`` have passed (a ladder half read counts as not working), so put the likeliest
    first."""
    reader = _Reader(player, field.score[player] - field.score[3 - player], nodes, seconds)
    found: dict[int, int] = {}
    mine, theirs = field.around[player], field.around[3 - player]
    # Forks (depth 0) for every move first, then the longer ladders with what is left.
    for reach in (0, depth) if depth else (0,):
        for m in moves:
            if reader.spent():
                return found
            # A threat needs own dots to ring with and opponent dots to ring round.
            if m in found or field.taken[m] or not mine[m] or not theirs[m]:
                continue
            trial = field.copy()
            reader.nodes -= 1
            if trial.place(m, player) > 0 or trial.live[m] != player:
                continue
            gain = reader.answered(trial, m, reach)
            if gain > 0:
                found[m] = gain
    return found


def _near(field: Field, centres: tuple[int, ...]) -> list[int]:
    """The free points within two king steps of ``centres``, each once."""
    stride = field.stride
    taken = field.taken
    seen: set[int] = set()
    found = []
    for centre in centres:
        for dy in (-2, -1, 0, 1, 2):
            row = centre + dy * stride
            for c in range(row - 2, row + 3):
                if 0 <= c < len(taken) and not taken[c] and c not in seen:
                    seen.add(c)
                    found.append(c)
    return found


class _Reader:
    """One read of ladders for ``attacker``: what is left of the budget (placements and ring
    tests, and the time, checked at every answer read) and the score margin it started at."""

    def __init__(self, attacker: int, origin: int, nodes: int, seconds: float) -> None:
        self.attacker = attacker
        self.origin = origin
        self.nodes = nodes
        self.deadline = time.perf_counter() + seconds

    def spent(self) -> bool:
        """Whether the budget is spent."""
        return self.nodes <= 0 or time.perf_counter() > self.deadline

    def gain(self, field: Field) -> int:
        """The attacker's net gain since the read began."""
        return field.score[self.attacker] - field.score[3 - self.attacker] - self.origin

    def captures(self, field: Field, player: int, centres: tuple[int, ...]) -> list[int]:
        """The points near ``centres`` where a dot of ``player`` captures now."""
        around = field.around[player]
        found = []
        for c in _near(field, centres):
            if RUNS[around[c]] >= 2:
                self.nodes -= 1
                if field.captures_at(c, player):
                    found.append(c)
        return found

    def answered(self, field: Field, last: int, depth: int) -> int:
        """The attacker has just played ``last``: the net gain it is sure of whatever the
        defender answers (0: the defender escapes, or the attacker threatened nothing)."""
        attacker = self.attacker
        threats = self.captures(field, attacker, (last,))
        if not threats:
            return 0
        defender = 3 - attacker
        counters = self.captures(field, defender, (last, *threats))
        worst = -1
        for answer in threats + [c for c in counters if c not in threats]:
            if self.spent():
                return 0
            self.nodes -= 1
            trial = field.copy()
            trial.place(answer, defender)
            gain = self.attack(trial, (answer, last), depth)
            if gain <= 0:
                return 0
            worst = gain if worst < 0 else min(worst, gain)
        return max(worst, 0)

    def attack(self, field: Field, recent: tuple[int, int], depth: int) -> int:
        """The attacker to move after the defender's answer ``recent[0]``: the net gain it
        can force (0: none within ``depth`` more moves)."""
        attacker = self.attacker
        if self.gain(field) > 0:
            return self.gain(field)  # the answer was thrown into a ring
        best = 0
        for c in self.captures(field, attacker, recent):
            self.nodes -= 1
            trial = field.copy()
            trial.place(c, attacker)
            best = max(best, self.gain(trial))
        if best > 0 or depth <= 0:
            return best
        theirs = field.around[3 - attacker]
        for c in _near(field, recent):
            if self.spent():
                return 0
            if not theirs[c]:
                continue  # a threat stands next to the dots it rings
            self.nodes -= 1
            trial = field.copy()
            if trial.place(c, attacker) > 0 or trial.live[c] != attacker:
                continue
            gain = self.answered(trial, c, depth - 1)
            if gain > 0:
                return gain
        return 0
