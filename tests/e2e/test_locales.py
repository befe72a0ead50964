"""A whole game through the real client and the fake Discord, in a server
whose language is Russian, between a Polish and a Russian player. Private answers follow each
player's client; public posts (and the pictures' headers) follow the server."""

from __future__ import annotations

import io
from datetime import timedelta
from pathlib import Path

from PIL import Image, ImageChops

from bot.i18n import words
from bot.pictures import game_png
from engine import Game, Player
from renderer import layout
from tests.e2e.helpers import bot_on, make_server, quiet
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Message

__all__ = ["fake_discord"]  # the fixture is used by name

NAMES = {Player.PINK: "alice", Player.BLUE: "bob"}


def header_of(png: bytes, game: Game) -> Image.Image:
    """The header band of a posted picture."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return image.crop((0, 0, image.width, layout(game.width, game.height).header_height))


def header_matches(png: bytes, game: Game, locale: str) -> bool:
    """Whether the picture's header is the one drawn in ``locale`` for ``game`` (with the time
    left as the bot could have shown it: within the 60-second move clock)."""
    posted = header_of(png, game)
    for seconds in range(40, 61):
        expected = game_png(game, NAMES, clock=timedelta(seconds=seconds), words=words(locale))
        if ImageChops.difference(posted, header_of(expected, game)).getbbox() is None:
            return True
    return False


def png_of(message: Message) -> bytes:
    """The picture a post carries."""
    (picture,) = [a for a in message.attachments if a.filename.endswith(".png")]
    assert picture.is_png
    return picture.data


async def test_a_polish_and_a_russian_player_in_a_russian_server(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    fake.set_guild_locale(s.guild, "ru")
    fake.set_locale(s.alice, "pl")
    fake.set_locale(s.bob, "ru")
    async with bot_on(fake, db):
        # Private answers in the player's own language.
        rules = await (await fake.slash(s.alice, "rules", channel=s.general)).reply()
        assert rules.is_ephemeral and "okrążenie" in rules.content and "**bazą**" in rules.content
        assert len(rules.content) <= 2000 and len(rules.attachments) == 3
        help_ = await (await fake.slash(s.bob, "help", channel=s.general)).reply()
        assert help_.is_ephemeral and "окружайте точки соперника" in help_.content

        # The challenge is public: in the server's language, buttons too.
        challenge = await (
            await fake.slash(s.alice, "challenge", channel=s.general, opponent=s.bob, colour="pink")
        ).reply()
        await quiet(db)
        assert not challenge.is_ephemeral
        assert "вызывает вас на партию в точки" in challenge.content
        assert [b["label"] for b in challenge.buttons()] == ["Принять", "Отклонить", "Отозвать"]
        await fake.click(s.bob, challenge, "dots:challenge:accept:1")
        thread = await fake.wait_until(lambda: next(iter(fake.threads()), None), poll=None)
        assert thread.name == "Точки #1: alice – bob"
        await fake.wait_until(lambda: fake.posted(thread), poll=None)
        opening = fake.posted(thread)[0]
        assert "Партия начинается" in opening.content and "Ход: Розовый" in opening.content
        game = Game(10, 10)
        assert header_matches(png_of(opening), game, "ru")

        # Moves: public posts in Russian, refusals private in each player's language.
        for n, (player, point) in enumerate(
            [(s.alice, "E6"), (s.bob, "E5"), (s.alice, "D5"), (s.bob, "A1")]
        ):
            if n == 1:
                taken = await (await fake.slash(s.bob, "move", channel=thread, point="E6")).reply()
                assert taken.is_ephemeral and taken.content == "E6 уже занят."
                early = await (
                    await fake.slash(s.alice, "move", channel=thread, point="C3")
                ).reply()
                assert early.is_ephemeral and "to nie twój ruch" in early.content.lower()
            reply = await (await fake.slash(player, "move", channel=thread, point=point)).reply()
            assert not reply.is_ephemeral and f"ставит точку на {point}" in reply.content
            game.place(point)
            png = png_of(reply)
            assert header_matches(png, game, "ru"), f"move {n + 1}: not the Russian header"
            assert not header_matches(png, game, "en"), f"move {n + 1}: the English header"

        # Ending: each confirmation in the player's language, the result in the server's.
        ask = await (await fake.slash(s.alice, "end", channel=thread)).reply()
        assert ask.is_ephemeral and ask.content.startswith("Zakończyć?")
        assert [b["label"] for b in ask.buttons()] == ["Zakończ", "Graj dalej"]
        done = await fake.click(s.alice, ask, ask.custom_ids()[0])
        assert (await done.reply()).content == "Koniec twoich ruchów."
        await fake.wait_until(lambda: len(fake.posted(thread)) == 6, poll=None)
        assert "может продолжать один" in fake.posted(thread)[-1].content
        ask = await (await fake.slash(s.bob, "end", channel=thread)).reply()
        assert ask.content.startswith("Закончить? Соперник уже закончил")
        done = await fake.click(s.bob, ask, ask.custom_ids()[0])
        assert (await done.reply()).content == "Вы закончили."
        await fake.wait_until(lambda: len(fake.posted(thread)) == 7, poll=None)
        final = fake.posted(thread)[-1]
        assert "Ничья 0–0 (обе стороны закончили)." in final.content
        assert [b["label"] for b in final.buttons()] == ["Реванш", "Разбор"]
        game.end(Player.PINK)
        game.end(Player.BLUE)
        assert header_matches(png_of(final), game, "ru")

        # An admin chooses Polish for the server's posts: the next public post is Polish.
        chosen = await (
            await fake.slash(s.admin, "dots-admin settings", channel=s.general, language="pl")
        ).reply()
        assert chosen.is_ephemeral and "Language of the posts in games: polski" in chosen.content
        board = await (await fake.slash(s.carol, "leaderboard", channel=s.general)).reply()
        assert board.embeds[0]["title"] == "Ranking graczy w kropki"
        mine = await (await fake.slash(s.bob, "games", channel=s.general)).reply()
        assert (
            mine.is_ephemeral and mine.content == "Нет идущих партий. Начните через `/challenge`."
        )
    assert fake.unrouted == []
