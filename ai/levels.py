"""The computer's levels: how hard it searches. Calibrated by matches (bench/ai.py)."""

from __future__ import annotations

from dataclasses import dataclass

from ai.playout import Policy


@dataclass(frozen=True, slots=True)
class Level:
    """One level: iterations of the search per move (the budget, so a seed reproduces a move),
    the UCT exploration constant, the playout policy, whether the root's one-move look gives
    a head start to captures and to rescues (blocking the opponent's capture), and a safety cap
    in seconds (hit only on a loaded machine; a capped search is not reproducible)."""

    name: str
    iterations: int
    exploration: float
    policy: Policy
    captures: bool = True
    rescues: bool = True
    max_seconds: float = 1.5


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        # Easy takes a free capture but does not see the opponent's threats coming.
        Level("easy", iterations=30, exploration=1.0, policy=Policy(local=0.5), rescues=False),
        Level("medium", iterations=300, exploration=0.7, policy=Policy(local=0.5)),
        Level("hard", iterations=1500, exploration=0.5, policy=Policy(local=0.5)),
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
