"""No header line of a picture is cut: every sentence the headers say (whose turn, with a clock,
results, a stop's preview, a replay's frames), in every language, with long names, on the
narrowest board, is drawn whole; the header grows a line rather than lose a word. The sticker
book's title and its stickers' names too."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.cogs.stickers import MISSING, TALLY, book_title
from bot.games.stickers import book_entries
from bot.i18n import LOCALES, translate, words
from engine import ActionKind, EndReason, Game, Player, Result, Rules
from renderer import layout, render_gif, render_png
from renderer import words as renderer_words
from renderer.header import Header, fitted, header_text
from renderer.picture import scene_of
from renderer.stickers import NAME_SIZES, name_lines, render_sticker_book, title_lines
from renderer.words import Words, preview_line, replay_line, result_line, turn_line
from tests.renderer.pixels import decode

P, B = Player.PINK, Player.BLUE
# As long as display names commonly are, with letters wider than most.
LONG_NAMES = ("Aleksandra Wiśniewska", "Bartholomew Kowalczyk")
# As long as Discord lets a display name be (32 characters).
LONGEST_NAMES = ("Aleksandra Wiśniewska-Kowalczyk", "Bartholomew Kowalczyk-Wiśniewski")
TIMES = ("59:59", "0:42")


def sentences(said: Words, names: tuple[str, str]) -> Iterator[str]:
    """Every header sentence ``said`` can make for players ``names``: each template with each
    of its variants (every end reason, winner and draw; with and without a clock; every count
    form; every replay frame's kind)."""
    for reason in EndReason:
        for winner in (P, B, None):
            yield result_line(Result(winner, 120, 87, reason), names, said)
            yield result_line(Result(winner, 1, 0, reason), names, said)
    for mover in Player:
        for ended in (False, True):
            for clock in ("", "59:59", said.seconds.format(s=42)):
                yield turn_line(mover, names, opponent_ended=ended, clock=clock, words=said)
    for player in Player:
        for handed in (0, 1, 2, 5, 22, 125):
            yield preview_line(player, names, handed, said)
    everyone = [frozenset(), frozenset({P}), frozenset({B}), frozenset(Player)]
    for rules in Rules:
        for total in (1, 3, 5, 22, 1248):
            for ends in (0, 1, 2):
                for ended in everyone:
                    yield replay_line(0, (total, ends), names, ended, rules, said)
                    yield replay_line(total, (total, ends), names, ended, rules, said)


def every_sentence(said: Words) -> set[str]:
    """The sentences for long names and for players shown by their colours."""
    every = set(sentences(said, LONG_NAMES)) | set(sentences(said, LONGEST_NAMES))
    return every | set(sentences(said, (said.pink, said.blue)))


def _marked(value: object) -> object:
    """A stand-in for a field of ``Words`` that shows wherever it is used."""
    if callable(value):
        return lambda n: "MARKED"
    if isinstance(value, dict):
        return dict.fromkeys(value, "MARKED")
    return "MARKED {line} {winner} {mover} {player} {first} {move}"


def test_every_words_field_is_in_some_sentence() -> None:
    """A sentence added to ``Words`` is covered by the tests below, or this test fails."""
    plain = every_sentence(words("en"))
    for field in dataclasses.fields(Words):
        value = _marked(getattr(words("en"), field.name))
        marked = dataclasses.replace(words("en"), **{field.name: value})
        if field.name in ("pink", "blue"):
            marked = dataclasses.replace(words("en"), **{field.name: "MARKED"})
        try:
            changed = every_sentence(marked) != plain
        except (KeyError, IndexError):
            changed = True  # the marked template was formatted: it is in use
        assert changed, f"no sentence uses Words.{field.name}: add it to sentences()"


@pytest.mark.parametrize("size", [(5, 5), (10, 10), (39, 32), (52, 52)])
@pytest.mark.parametrize("locale", LOCALES)
def test_no_header_sentence_is_cut(locale: str, size: tuple[int, int]) -> None:
    said = words(locale)
    narrow = layout(*size)
    grew = 0
    for sentence in sorted(every_sentence(said)):
        for names in (LONG_NAMES, LONGEST_NAMES, (said.pink, said.blue)):
            header = Header(names, (120, 87), sentence, P, TIMES)
            lay = fitted(narrow, [header])
            shown = header_text(lay, header)
            assert shown.names == names, (locale, sentence)
            assert " ".join(shown.status) == " ".join(sentence.split()), (locale, sentence)
            assert not any("…" in line for line in shown.status), (locale, sentence)
            grew += lay.status_rows > 1
    assert grew or size != (5, 5)  # on the narrowest board, long sentences need more lines


@pytest.mark.parametrize("locale", LOCALES)
def test_the_stop_preview_is_drawn_whole_at_every_size(locale: str) -> None:
    said = words(locale)
    for width, height in ((5, 5), (10, 10), (16, 16), (39, 32)):
        game = Game(width, height, rules="grounding")
        for n, pink in enumerate(("B2", "C2", "B3", "C3", "D3"), start=1):
            game.place(pink, P)
            game.place(f"A{n}", B)
        preview = game.stop_preview(P)
        names = dict(zip(Player, LONG_NAMES, strict=True))
        scene = scene_of(layout(width, height), game, names=names, preview=preview, words=said)
        lay = fitted(layout(width, height), [scene.header])
        shown = header_text(lay, scene.header)
        assert " ".join(shown.status) == preview_line(P, LONG_NAMES, len(preview.dots), said)
        assert shown.names == LONG_NAMES
        png = decode(render_png(game, names=names, preview=preview, words=said))
        assert png.size == lay.size  # the picture has the room the header needs


def test_a_header_that_fits_keeps_the_picture_as_it_was() -> None:
    game = Game(10, 10)
    png = decode(render_png(game, names=("alice", "bob")))
    assert png.size == layout(10, 10).size


def test_a_replay_makes_room_for_its_longest_frame() -> None:
    said = words("uk")
    game = Game(5, 5)
    for name in ("B2", "D4", "C3"):
        game.place(name)
    game.end()
    game.place("B4")
    game.end()
    names = dict(zip(Player, LONG_NAMES, strict=True))
    gif = Image.open(io.BytesIO(render_gif(game, names=names, words=said)))
    replay = Game.at_start(game.record)
    played = renderer_words.played(game.actions)
    lines = [replay_line(0, played, LONG_NAMES, replay.ended, replay.rules, said)]
    placed = 0
    for action in game.actions:
        replay.apply(action)
        placed += action.kind == ActionKind.DOT
        if replay.result is None:
            lines.append(replay_line(placed, played, LONG_NAMES, replay.ended, replay.rules, said))
    assert replay.result is not None
    lines.append(result_line(replay.result, LONG_NAMES, said))
    lay = fitted(layout(5, 5), [Header(LONG_NAMES, (0, 0), line) for line in lines])
    assert lay.name_rows == 2  # long names, one a line
    assert gif.size == lay.size  # as tall as its longest frame needs


@pytest.mark.parametrize("locale", LOCALES)
def test_the_sticker_book_says_its_title_and_every_name_whole(locale: str) -> None:
    entries = [
        (i, translate(locale, name), n % 2) for n, (i, name, _) in enumerate(book_entries({}))
    ]
    tally = translate(locale, TALLY).format(have=99, total=99)
    for name in (*LONG_NAMES, "Aleksandra Wiśniewska-Kowalczyk von Hohenzollern"):
        title = book_title(name, locale)
        assert " ".join(title_lines(title, tally)) == title
    for _, name, _ in entries:
        size, lines = name_lines(name)
        assert " ".join(lines) == name and size >= NAME_SIZES[-1], (locale, name)
    long = book_title(LONG_NAMES[0] + " " + LONG_NAMES[1], locale)
    book = decode(
        render_sticker_book(
            entries,
            long,
            tally=translate(locale, TALLY),
            missing=translate(locale, MISSING),
        )
    )
    assert book.height > decode(render_sticker_book(entries, "Ada")).height  # the title wrapped
