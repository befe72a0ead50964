"""The computer player: Monte-Carlo tree search over the engine (pure: no I/O, seeded).

Use ``choose(game, level, seed)`` for a Decision (a dot or an end); ``choose_from_record`` takes
a Record instead, for a process pool.
"""

from ai.levels import LEVELS, Level, level_named
from ai.player import Decision, choose, choose_from_record
from ai.playout import Policy

__all__ = ["LEVELS", "Decision", "Level", "Policy", "choose", "choose_from_record", "level_named"]
