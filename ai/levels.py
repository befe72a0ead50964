"""The computer's levels: how hard it searches. Calibrated by matches (bench/ai.py)."""

from __future__ import annotations

from dataclasses import dataclass

from ai.playout import Policy


@dataclass(frozen=True, slots=True)
class Level:
    """One level: iterations of the search per move (the budget, so a seed reproduces a move),
    the UCT exploration constant, the playout policy, whether the root's one-move look gives
    a head start to captures and to rescues (blocking the opponent's capture), a safety cap
    in seconds (hit on big boards and loaded machines; a capped search is not reproducible),
    the AMAF constant K (``rave``; 0: plain UCT), whether new nodes get pattern priors and
    whether the subtree of the move played is kept for the next turn (``reuse``, ai/trees.py)
    and whether the root reads ladders, forced capture sequences (``ladders``, ai/ladders.py),
    whether it plays the opening book's lines on the standard starts (``book``, ai/book.py),
    and whether it answers the opponent's capture threats before any search (``guard``:
    ai/tactics.py ``rescue``, a dot or group the opponent could take next move is saved when
    it can be)."""

    name: str
    iterations: int
    exploration: float
    policy: Policy
    captures: bool = True
    rescues: bool = True
    max_seconds: float = 1.5
    rave: float = 300.0
    patterns: bool = True
    reuse: bool = False
    ladders: bool = False
    book: bool = False
    guard: bool = False


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        # Easy takes a free capture but does not see the opponent's threats coming.
        # Easy and medium search as they always did (plain UCT: no AMAF, no pattern priors,
        # no urgent answers in the playouts), only on the faster Field.
        Level(
            "easy",
            iterations=30,
            exploration=1.0,
            policy=Policy(local=0.5),
            rescues=False,
            rave=0.0,
            patterns=False,
        ),
        Level(
            "medium",
            iterations=300,
            exploration=0.7,
            policy=Policy(local=0.5),
            rave=0.0,
            patterns=False,
        ),
        # Hard: AMAF (RAVE) statistics, pattern priors, urgent answers in the playouts, and
        # the tree of its last move kept for its next, ladders read at the root, and the
        # opening book on the standard starts.
        Level(
            "hard",
            iterations=1500,
            exploration=0.2,
            policy=Policy(local=0.5, urgent=0.5),
            reuse=True,
            ladders=True,
            book=True,
            guard=True,
        ),
    )
}


def level_named(name: str) -> Level:
    """The level called ``name``.

    Raises:
        ValueError: no level has that name.
    """
    try:
        return LEVELS[name.lower()]
    except KeyError:
        raise ValueError(f"`{name}` is not a level: choose {', '.join(LEVELS)}") from None
