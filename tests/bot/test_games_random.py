"""Random sequences of use-cases: memory and database agree after every step and a restart."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

import pytest

from bot.games import GameOptions, GameService, Refusal
from bot.games.convert import rebuild
from tests.bot.service_fakes import FakeTime, new_game, open_service

PLAYERS = (1, 2, 3, 4)


async def check_agrees(service: GameService, game_id: int) -> None:
    """The service's view of a game equals a fresh replay of the database."""
    loaded = await service.store.games.game_with_actions(game_id)
    assert loaded is not None
    row, actions = loaded
    view = await service.game(game_id)
    replay = rebuild(row, actions)
    assert [str(a) for a in view.game.actions] == [str(a) for a in replay.actions]
    assert view.game.board.picture() == replay.board.picture()
    assert view.status == row.status and row.moves == len(actions)
    assert (view.deadline is None) == (row.status != "running")
    if row.status == "over":
        assert view.result == replay.result


@pytest.mark.parametrize("seed", range(12))
async def test_random_use_cases_keep_memory_and_database_equal(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    clock = FakeTime()
    path = tmp_path / "dots.sqlite3"
    service = await open_service(path, clock, seed=seed)
    options = GameOptions(width=6, height=6, rules=rng.choice(["standard", "grounding"]))
    games = [
        (await new_game(service, pink=1, blue=2, options=options)).game_id,
        (await new_game(service, pink=3, blue=4, options=options)).game_id,
    ]
    for _ in range(150):
        slot = rng.randrange(2)
        game_id = games[slot]
        if not (await service.game(game_id)).is_running:
            await check_agrees(service, game_id)
            pink, blue = (1, 2) if slot == 0 else (3, 4)
            games[slot] = game_id = (
                await new_game(service, pink=pink, blue=blue, options=options)
            ).game_id
        mover = (await service.game(game_id)).to_move_id
        user = mover if mover is not None and rng.random() < 0.7 else rng.choice(PLAYERS)
        op = rng.random()
        try:
            if op < 0.85:
                point = f"{'ABCDEF'[rng.randrange(6)]}{rng.randrange(1, 8)}"
                await service.place(game_id=game_id, user_id=user, point=point)
            elif op < 0.90:
                await service.end(game_id=game_id, user_id=user)
            elif op < 0.91:
                await service.resign(game_id=game_id, user_id=user)
            elif op < 0.95:
                clock.advance(timedelta(seconds=rng.choice([30, 61])))
                view = await service.game(game_id)
                if view.deadline is not None:
                    await service.time_out(game_id=game_id, deadline=view.deadline)
            elif op < 0.97:
                await service.abort(game_id=game_id, user_id=user)
            else:
                await service.close()
                service = await open_service(path, clock, seed=seed)
        except Refusal:
            pass
        await check_agrees(service, game_id)
    await service.close()
    again = await open_service(path, clock)
    for (game_id,) in await again.store.execute("SELECT game_id FROM games"):
        await check_agrees(again, int(game_id))  # type: ignore[call-overload]
    await again.close()
