"""The replays /export sends: rendered in a worker process, one render for
simultaneous exports of a game."""

from __future__ import annotations

import asyncio

import pytest

from bot.cogs.info import Replays
from bot.pictures import game_gif
from engine import Game, Player

NAMES = {Player.PINK: "alice", Player.BLUE: "bob"}


async def test_the_worker_renders_the_same_replay_as_the_bot() -> None:
    game = Game(6, 6)
    for point in ("C3", "C4", "D3", "D4"):
        game.place(point)
    replays = Replays()
    try:
        assert await replays.render(1, game, NAMES) == game_gif(game, NAMES)
    finally:
        replays.close()


async def test_exports_of_one_game_at_once_share_one_render(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    replays = Replays()
    rendered: list[Game] = []

    async def render(game: Game, names: dict[Player, str], header: object = None) -> bytes:
        rendered.append(game)
        await asyncio.sleep(0.05)
        return b"GIF89a"

    monkeypatch.setattr(replays, "_render", render)
    game = Game(5, 5)
    results = await asyncio.gather(*(replays.render(7, game, NAMES) for _ in range(12)))
    assert results == [b"GIF89a"] * 12 and rendered == [game]
    # Once done, the next export of that game renders again (a running game changes).
    await replays.render(7, game, NAMES)
    assert len(rendered) == 2
