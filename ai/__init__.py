"""The computer player: Monte-Carlo tree search on its own Field (pure: no I/O, seeded).

The search (ai/search.py) plays its playouts (ai/playout.py) on ai/field.py's Field, a compact
board that gives the engine's captures and scores exactly (tests/ai/test_field.py checks it
against engine/board.py move by move); the engine stays the reference for the rules. Where
numba is installed the playouts run compiled (ai/compiled.py, through the one seam
ai/kernel.py, checked against the engine the same way), else in pure Python.

``choose(game, level, seed)`` returns a Decision: ``Decision("dot", point)`` or
``Decision("end")`` (a stop under grounding rules); ``decision.action(player)`` is the engine
Action to apply. It reads the game and never changes it, so it can run off the event loop::

    decision = await loop.run_in_executor(
        pool, ai.choose_from_record, game.record, "hard", seed
    )

with a ProcessPoolExecutor (a Record and a Game both pickle) or a thread pool. Levels are
"easy", "medium" and "hard" (``LEVELS``); the budget is a count of search iterations, so the
same position, level and seed give the same decision unless the level's time cap cut it short
or hard searched on from the tree it kept from its previous turn (ai/trees.py; ``reuse=False``
searches afresh). ``choose(..., seconds=S)`` searches for S seconds instead (equal-time
matches in bench/ai.py). Hard also reads ladders at the root (ai/ladders.py), plays a small
opening book on the standard starts (ai/book.py) and answers the opponent's capture threats
before any search (ai/tactics.py ``rescue``). A search uses the compiled playouts only when the
kernel was ready as it began, so a decision is reproducible once the kernel is loaded.
"""

from ai.levels import LEVELS, Level, level_named
from ai.player import Decision, choose, choose_from_record
from ai.playout import Policy

__all__ = ["LEVELS", "Decision", "Level", "Policy", "choose", "choose_from_record", "level_named"]
