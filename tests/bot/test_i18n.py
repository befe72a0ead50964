"""The catalogues (complete, placeholders kept, plural forms), the locale rules, the translated
slash commands within Discord's limits, and the sentences rendered per language."""

from __future__ import annotations

import asyncio
import io
import json
import string
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import discord
import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po
from PIL import Image, ImageChops

from bot import text
from bot.cogs.client import GameBot
from bot.cogs.info import HELP, rule_examples
from bot.cogs.locales import Locales
from bot.cogs.names import mention, mentions, picture_names
from bot.cogs.translator import command_text, is_language_neutral
from bot.error_words import error_message
from bot.games import GameOptions, GameService, GameView, IllegalMove, NoSuchGame, computer_id
from bot.games.game_clock import GameClock
from bot.i18n import (
    LOCALES,
    TRANSLATED,
    _,
    counted,
    locale_from_environment,
    normalize,
    po_text,
    translate,
    words,
)
from bot.pictures import game_png
from engine import Game, Player, Rules, Start
from tests.fakediscord.limits import is_command_name

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "e2e" / "golden" / "commands.json"
PLURAL_FORMS = {"pl": 3, "ru": 3, "uk": 3}


def catalogue(locale: str):  # type: ignore[no-untyped-def]
    return read_po(io.StringIO(po_text(locale)), locale=locale)


def fields(message: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(message) if name is not None}


def marked_in_code() -> set[str]:
    """Every msgid the code marks (what ``pybabel extract`` with babel.cfg finds)."""
    keywords = {**DEFAULT_KEYWORDS, "N_": None}
    found = set()
    for folder in ("bot", "renderer"):
        for _file, _line, message, _comments, _context in extract_from_dir(
            ROOT / folder, method_map=[("**.py", "python")], keywords=keywords
        ):
            found.add(message[0] if isinstance(message, tuple) else message)
    return found


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_message_of_the_code_has_a_translation_without_fallback(locale: str) -> None:
    entries = {m.id[0] if m.pluralizable else m.id: m for m in catalogue(locale) if m.id}
    missing = sorted(marked_in_code() - set(entries))
    assert not missing, f"{locale}: not in the catalogue (run pybabel extract/update): {missing}"
    for msgid, message in entries.items():
        assert not message.fuzzy, f"{locale}: fuzzy {msgid!r}"
        forms = message.string if message.pluralizable else (message.string,)
        assert all(form.strip() for form in forms), f"{locale}: untranslated {msgid!r}"


@pytest.mark.parametrize("locale", TRANSLATED)
def test_placeholders_match_the_english_in_every_translation(locale: str) -> None:
    for message in catalogue(locale):
        if not message.id:
            continue
        if message.pluralizable:
            english = fields(message.id[0]) | fields(message.id[1])
            for form in message.string:
                assert fields(form) | {"n"} == english | {"n"}, (locale, message.id[0], form)
        else:
            assert fields(message.string) == fields(message.id), (locale, message.id)
        # Markdown that changes how Discord shows a message stays paired.
        for form in message.string if message.pluralizable else (message.string,):
            assert form.count("**") % 2 == 0 and form.count("`") % 2 == 0, (locale, form)


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_plural_entry_has_the_languages_number_of_forms(locale: str) -> None:
    cat = catalogue(locale)
    assert cat.num_plurals == PLURAL_FORMS[locale]
    plurals = [m for m in cat if m.id and m.pluralizable]
    assert plurals
    for message in plurals:
        assert len(message.string) == PLURAL_FORMS[locale], (locale, message.id)


@pytest.mark.parametrize(
    ("locale", "shown"),
    [
        ("pl", ["1 kropka", "2 kropki", "5 kropek", "12 kropek", "22 kropki", "25 kropek"]),
        ("ru", ["1 точка", "2 точки", "5 точек", "12 точек", "22 точки", "21 точка"]),
        ("uk", ["1 точка", "2 точки", "5 точок", "12 точок", "22 точки", "21 точка"]),
        ("en", ["1 dot", "2 dots", "5 dots", "12 dots", "22 dots", "21 dots"]),
    ],
)
def test_counts_take_the_plural_form_of_the_language(locale: str, shown: list[str]) -> None:
    counts = [1, 2, 5, 12, 22, 25] if locale == "pl" else [1, 2, 5, 12, 22, 21]
    assert [counted(locale, "{n} dot", "{n} dots", n) for n in counts] == shown


@pytest.mark.parametrize(
    ("given", "locale"),
    [
        ("pl", "pl"),
        ("ru", "ru"),
        ("uk", "uk"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("de", "en"),
        (None, "en"),
        ("ru_RU.UTF-8", "ru"),
        ("pl_PL@euro", "pl"),
        (discord.Locale.polish, "pl"),
        (discord.Locale.ukrainian, "uk"),
        (discord.Locale.american_english, "en"),
    ],
)
def test_locales_are_read_from_discord_and_posix_names(given: object, locale: str) -> None:
    assert normalize(given) == locale


def test_the_terminal_follows_language_lc_all_lc_messages_lang_in_that_order() -> None:
    assert locale_from_environment({"LANG": "ru_RU.UTF-8"}) == "ru"
    assert locale_from_environment({"LANG": "ru_RU.UTF-8", "LC_MESSAGES": "pl_PL.UTF-8"}) == "pl"
    assert locale_from_environment({"LC_ALL": "uk_UA.UTF-8", "LC_MESSAGES": "pl_PL"}) == "uk"
    assert locale_from_environment({"LANGUAGE": "pl:ru", "LANG": "en_US.UTF-8"}) == "pl"
    assert locale_from_environment({"LANG": "C.UTF-8"}) == "en"
    assert locale_from_environment({}) == "en"


def test_a_service_refusal_is_rendered_in_the_readers_language() -> None:
    refusal = NoSuchGame(_("there is no game #{game_id}", game_id=12))
    assert str(refusal) == "there is no game #12"
    assert refusal.render("pl") == "nie ma gry #12"
    assert refusal.render("ru") == "нет партии #12"
    assert refusal.render("uk") == "немає партії #12"


def test_the_engines_errors_are_translated_by_their_type_and_fields() -> None:
    game = Game(10, 10)
    game.place("C3")
    with pytest.raises(ValueError, match="taken") as taken:
        game.place("C3")
    assert translate("pl", error_message(taken.value)) == "C3 jest już zajęty"
    with pytest.raises(ValueError, match="off the board") as off:
        game.place("Z9")
    assert translate("ru", error_message(off.value)) == (
        "Z9 за пределами поля: столбцы A–J, строки 1–10"
    )
    # A refusal that carries the engine's error (play.py's IllegalMove) too.
    assert IllegalMove(taken.value).render("uk") == "C3 уже зайнятий"
    assert str(IllegalMove(taken.value)) == "C3 is already taken"
    # An error the words do not know is shown in English, not lost.
    assert error_message(ValueError("something new")) == "something new"


def test_the_shared_sentences_speak_each_language() -> None:
    game = Game(7, 7, rules="grounding")
    for point in ("A4", "G1", "B4", "G2", "C4", "G3", "D4", "G4", "D5", "G5", "F6", "A1"):
        game.place(point)
    names = {Player.PINK: "<@1>", Player.BLUE: "<@2>"}
    assert text.turn_line(game, names, locale="pl") == "Ruch: Różowy, <@1>."
    assert text.turn_line(game, names, locale="ru") == "Ход: Розовый, <@1>."
    assert text.scores_line(game, locale="uk") == "Рожевий 0 · Синій 0"
    prompt = text.end_confirmation(game, Player.PINK, locale="ru")
    assert "1 ваша точка не заземлена" in prompt
    assert text.action_line(game, names, locale="pl") == "Niebieski (<@2>) stawia kropkę na A1."
    assert text.record_line(games=5, wins=3, losses=2, draws=0, locale="ru").startswith(
        "5 партий: побед 3"
    )
    assert text.format_duration(text.CLOCK_CHOICES["1 day"] * 3, locale="pl") == "3 dni"


async def test_the_computer_and_the_starts_are_named_in_the_readers_language() -> None:
    hard = computer_id("hard")
    view = SimpleNamespace(pink_id=7, blue_id=hard)
    names = await picture_names(cast("GameBot", SimpleNamespace(names={7: "ann"})), view, "ru")
    assert names == {Player.PINK: "ann", Player.BLUE: "Компьютер (сложный)"}
    assert mention(hard, "pl") == "Komputer (trudny)" and mention(7, "pl") == "<@7>"
    assert mentions(cast("GameView", view), "uk")[Player.BLUE] == "Комп'ютер (складний)"
    described = text.describe_game_options(
        GameOptions(rules=Rules.STANDARD, start=Start.DOUBLE_CROSS), locale="ru"
    )
    assert "начало: двойной скрест" in described
    assert "start: krzyż" in text.describe_local_game(
        Game(10, 10, start="cross"), opponent="x", locale="pl"
    )


def test_the_pictures_header_is_drawn_in_the_readers_language() -> None:
    game = Game(10, 10)
    game.place("E5")
    english = Image.open(io.BytesIO(game_png(game, {Player.PINK: "ann", Player.BLUE: "bob"})))
    russian = Image.open(
        io.BytesIO(game_png(game, {Player.PINK: "ann", Player.BLUE: "bob"}, words=words("ru")))
    )
    assert english.size == russian.size
    # The board is the same; only the header differs.
    width, height = english.size
    header = (0, 0, width, 60)
    board = (0, 80, width, height)
    assert ImageChops.difference(english.convert("RGB"), russian.convert("RGB")).getbbox()
    assert (
        ImageChops.difference(
            english.convert("RGB").crop(board), russian.convert("RGB").crop(board)
        ).getbbox()
        is None
    )
    assert ImageChops.difference(
        english.convert("RGB").crop(header), russian.convert("RGB").crop(header)
    ).getbbox()
    assert words("ru").to_move.format(mover="bob") == "Ход: bob"


def test_the_golden_command_schema_is_translated_within_discords_limits() -> None:
    schema = json.loads(GOLDEN.read_text(encoding="utf-8"))
    checked = 0

    def check(item: dict, *, where: str) -> None:  # type: ignore[type-arg]
        nonlocal checked
        assert is_command_name(item["name"]), where
        for name in (item.get("name_localizations") or {}).values():
            assert is_command_name(name), (where, name)
        description = item.get("description", "")
        if description:
            localised = item.get("description_localizations") or {}
            assert set(localised) == set(TRANSLATED), (where, "description")
            for text_ in [description, *localised.values()]:
                assert 1 <= len(text_) <= 100, (where, text_)
            checked += 1
        choices = item.get("choices") or []
        assert len(choices) <= 25, where
        for choice in choices:
            localised = choice.get("name_localizations") or {}
            if not is_language_neutral(choice["name"]):
                assert set(localised) == set(TRANSLATED), (where, choice["name"])
            for name in [choice["name"], *localised.values()]:
                assert 1 <= len(name) <= 100, (where, name)
            checked += 1
        for option in item.get("options") or []:
            check(option, where=f"{where} {option['name']}")

    for command in schema:
        check(command, where=command["name"])
    assert checked > 50


def test_command_texts_are_translated_part_by_part_and_none_when_unknown() -> None:
    assert command_text("pl", "easy: takes what it is given") == "łatwy: bierze, co dostanie"
    assert command_text("ru", "not a sentence of ours") is None
    assert is_language_neutral("39x32") and is_language_neutral("polski")


@pytest.mark.parametrize("locale", LOCALES)
def test_the_longest_texts_fit_discords_limits_in_every_language(locale: str) -> None:
    rules = translate(locale, text.RULES_SUMMARY)
    captions = "\n".join(caption for caption, _game, _marks in rule_examples(locale))
    assert len(rules) + 2 + len(captions) + 40 <= 2000, locale
    assert len(translate(locale, HELP)) <= 2000, locale
    assert len(translate(locale, text.TOKEN_HELP)) <= 2000, locale


async def test_a_burst_in_a_new_server_reads_its_chosen_language_once() -> None:
    reads: list[int] = []

    async def guild_locale(*, guild_id: int) -> str | None:
        reads.append(guild_id)
        await asyncio.sleep(0.01)
        return "pl"

    service = SimpleNamespace(guild_locale=guild_locale)
    locales = Locales(lambda: cast("GameService", service), lambda _guild_id: None)
    shown = await asyncio.gather(*(locales.of_guild(5) for _ in range(50)))
    assert shown == ["pl"] * 50 and reads == [5]
    assert not locales.is_loading(5)  # nothing left behind: a later failure would read again
    assert await locales.of_guild(5) == "pl" and reads == [5]


def test_a_challenge_or_rematch_shows_its_game_clock_and_takebacks() -> None:
    clock = GameClock(timedelta(minutes=5), timedelta(seconds=5))
    described = text.describe_game_options(GameOptions(game_clock=clock, rated=False), locale="en")
    assert "game clock 5+5" in described and "takebacks allowed" in described
    assert "server's default clock" not in described
