"""The computer's levels: how hard it searches. Calibrated by matches (bench/ai.py)."""

from __future__ import annotations

from dataclasses import dataclass

from ai.playout import Policy


@dataclass(frozen=True, slots=True)
class Level:
    """One level: iterations of the search per move (the budget, so a seed reproduces a move),
    the UCT exploration constant, the playout policy, whether the root gets the one-move
    tactical look (captures and rescues), and a safety cap in seconds."""

    name: str
    iterations: int
    exploration: float
    policy: Policy
    tactics: bool = True
    max_seconds: float = 2.0


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("easy", iterations=50, exploration=1.0, policy=Policy(local=0.5)),
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
