"""Crash-test worker: plays random moves across many games through the service, printing one
line per acknowledged action ("game_id seq kind point") only after the service returned.

Run: python -m tests.bot.service_crash_worker DB SEED GAMES
The crash test SIGKILLs it at random moments and checks the database against the lines.
"""

from __future__ import annotations

import asyncio
import random
import sys
from datetime import timedelta

from bot.games import GameOptions, GameService, Refusal

WORKERS = 6


async def play(service: GameService, rng: random.Random, games: list[int], n: int) -> None:
    """Forever: pick a game, make a legal action for the player to move, report it."""
    while True:
        game_id = rng.choice(games)
        view = await service.game(game_id)
        if not view.is_running:
            new = await service.start_game(
                guild_id=1, channel_id=1, pink_id=n * 2 + 1, blue_id=n * 2 + 2,
                options=GameOptions(width=7, height=7, clock=timedelta(days=1)),
            )  # fmt: skip
            if game_id in games:  # another worker may have replaced it meanwhile
                games[games.index(game_id)] = new.game_id
            continue
        mover = view.to_move_id
        assert mover is not None
        try:
            roll = rng.random()
            if roll < 0.005:
                outcome = await service.resign(game_id=game_id, user_id=mover)
            elif roll < 0.03:
                outcome = await service.end(game_id=game_id, user_id=mover)
            else:
                free = list(view.game.board.free_points())
                outcome = await service.place(
                    game_id=game_id, user_id=mover, point=rng.choice(free).name
                )
        except Refusal:
            continue  # another worker moved in this game first
        action = outcome.action
        assert action is not None
        point = action.point.name if action.point else "-"
        seq = len(outcome.view.game.actions) - 1
        print(f"{game_id} {seq} {action.kind} {point}", flush=True)


async def main(path: str, seed: int, count: int) -> None:
    """Open the service, make sure ``count`` games run, then play with several workers."""
    rng = random.Random(seed)
    service = await GameService.open(path, rng=rng)
    running = await service.store.execute("SELECT game_id FROM games WHERE status = 'running'")
    games = [int(r[0]) for r in running]  # type: ignore[call-overload]
    while len(games) < count:
        view = await service.start_game(
            guild_id=1, channel_id=1, pink_id=len(games) * 2 + 1, blue_id=len(games) * 2 + 2,
            options=GameOptions(width=7, height=7, clock=timedelta(days=1)),
        )  # fmt: skip
        games.append(view.game_id)
    print("ready", flush=True)
    await asyncio.gather(
        *(play(service, random.Random(seed * 100 + i), games, i) for i in range(WORKERS))
    )


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
