"""Helpers of the tournament tests: a plan, entrants, a round's games played to a chosen
result through the service, and the checks every tournament must pass (no pair twice,
colours balanced)."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

from bot.games import GameOptions, GameService
from bot.games.pairing import Format
from bot.games.tournament_models import Pairing
from bot.games.tournaments import TournamentPlan

HOUR = timedelta(hours=1)


def plan(
    format_: Format = Format.SWISS, *, rounds: int = 3, cycles: int = 1, cap: int = 16
) -> TournamentPlan:
    """A plan of unrated games on a 10x10 board with a one-hour move clock, two-day rounds."""
    return TournamentPlan(
        format=format_,
        options=GameOptions(clock=HOUR, rated=False),
        round_length=timedelta(days=2),
        max_players=cap,
        rounds=rounds,
        cycles=cycles,
    )


async def win(service: GameService, game_id: int, winner: int) -> None:
    """``winner`` wins the game: each player places a dot, then the loser resigns."""
    view = await service.game(game_id)
    await service.place(game_id=game_id, user_id=view.pink_id, point="B2")
    await service.place(game_id=game_id, user_id=view.blue_id, point="H8")
    loser = view.blue_id if winner == view.pink_id else view.pink_id
    await service.resign(game_id=game_id, user_id=loser)


async def draw(service: GameService, game_id: int) -> None:
    """A 0–0 draw: each player places a dot, then both end."""
    view = await service.game(game_id)
    await service.place(game_id=game_id, user_id=view.pink_id, point="B2")
    await service.place(game_id=game_id, user_id=view.blue_id, point="H8")
    await service.end(game_id=game_id, user_id=view.pink_id)
    await service.end(game_id=game_id, user_id=view.blue_id)


def assert_no_pair_twice(boards: list[Pairing]) -> None:
    """No two players meet twice."""
    pairs = Counter(frozenset((b.pink_id, b.blue_id)) for b in boards if b.blue_id is not None)
    assert max(pairs.values()) == 1, pairs


def assert_colours_balanced(boards: list[Pairing], *, within: int = 1) -> None:
    """Each player's Pink and Blue games differ by at most ``within``."""
    balance: Counter[int] = Counter()
    for b in boards:
        if b.blue_id is not None and b.game_id is not None:
            balance[b.pink_id] += 1
            balance[b.blue_id] -= 1
    assert all(abs(v) <= within for v in balance.values()), balance
