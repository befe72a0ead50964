"""The refusals of the service, the options and the buttons, rendered in each language."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from bot.cogs.options import clock_option, game_options, time_option
from bot.cogs.posts import fit_list
from bot.games import Refusal
from bot.games.challenges import _closed_message, limit_message
from bot.games.computer import COMPUTER_IDS, COMPUTER_NAMES, computer_name
from bot.games.core import result_message
from bot.games.game_clock import describe_left
from bot.games.rematch import existing_message
from bot.i18n import _, translate
from bot.storage.rows import ChallengeRow
from bot.storage.store import OverLimitError
from engine import EndReason, Player, Result

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def challenge(**changes: object) -> ChallengeRow:
    row = ChallengeRow(
        challenge_id=1, guild_id=1, channel_id=1, message_id=None, challenger_id=10,
        opponent_id=20, width=10, height=10, rules="standard", start="empty", clock=None,
        colour="random", rated=True, status="open", created=NOW.timestamp() - 60,
        expires=NOW.timestamp() - 1, game_id=None,
    )  # fmt: skip
    return replace(row, **changes)  # type: ignore[arg-type]


def test_the_limit_refusals_count_in_each_language() -> None:
    mine = OverLimitError("challenges", 10, 3)
    assert str(limit_message(mine, 10)).startswith("you already have 3 open challenges")
    assert translate("pl", limit_message(mine, 10)).startswith("masz już 3 otwarte wyzwania")
    five = OverLimitError("games", 20, 5)
    assert translate("ru", limit_message(five, 10)).startswith("у <@20> уже идёт 5 партий")
    assert translate("uk", limit_message(five, 20)).startswith("у вас уже триває 5 партій")
    one = OverLimitError("computer", 10, 1)
    assert str(limit_message(one, 10)).startswith("you already have 1 game against the computer")
    assert "1 trwającą grę z komputerem" in translate("pl", limit_message(one, 10))


def test_a_closed_challenge_says_why_in_each_language() -> None:
    assert str(_closed_message(challenge(), NOW)) == "this challenge has expired"
    assert translate("ru", _closed_message(challenge(), NOW)) == "этот вызов истёк"
    taken = challenge(status="accepted", expires=NOW.timestamp() + 60)
    assert str(_closed_message(taken, NOW)) == "this challenge was already accepted, by <@20>"
    assert translate("pl", _closed_message(taken, NOW)) == (
        "to wyzwanie zostało już przyjęte przez <@20>"
    )
    declined = challenge(status="declined")
    assert str(_closed_message(declined, NOW)) == "this challenge was already declined"
    assert translate("uk", _closed_message(declined, NOW)) == "цей виклик уже відхилено"


def test_a_second_rematch_is_refused_in_each_language() -> None:
    offer = challenge(rematch_of=7, expires=NOW.timestamp() - 1)
    expired = existing_message(offer, user_id=10, now=NOW.timestamp())
    assert str(expired) == (
        "the rematch offer of game #7 has expired: challenge again with /challenge"
    )
    assert translate("uk", expired) == (
        "пропозиція реваншу за партію #7 спливла: викличте знову через /challenge"
    )
    waiting = replace(offer, expires=NOW.timestamp() + 60)
    assert translate("ru", existing_message(waiting, user_id=10, now=NOW.timestamp())) == (
        "вы уже попросили реванш за партию #7: ждём ответа <@20>"
    )
    assert translate("pl", existing_message(waiting, user_id=20, now=NOW.timestamp())) == (
        "<@10> już proponuje ci rewanż za grę #7: odpowiedz przyciskami pod propozycją"
    )
    played = replace(offer, status="accepted", game_id=8)
    assert translate("pl", existing_message(played, user_id=10, now=NOW.timestamp())) == (
        "gra #7 ma już rewanż: gra #8"
    )


def test_the_game_over_refusal_carries_the_result_in_each_language() -> None:
    won = Result(Player.BLUE, 3, 5, EndReason.RESIGNED)
    drawn = Result(None, 2, 2, EndReason.STOP)
    # The English reads exactly as the engine says it.
    assert str(result_message(won)) == won.describe() == "Blue wins 5–3 (resignation)"
    assert str(result_message(drawn)) == drawn.describe()
    over = _("the game is over: {result}", result=result_message(won))
    assert translate("pl", over) == "gra jest zakończona: Wygrywa Niebieski 5–3 (poddanie)"
    assert translate("ru", result_message(drawn)).startswith("Ничья 2–2")


def test_the_computers_name_shows_its_level_in_each_language() -> None:
    hard = COMPUTER_IDS["hard"]
    assert computer_name(hard) == "Computer (hard)"
    assert computer_name(hard, "pl") == "Komputer (trudny)"
    assert computer_name(COMPUTER_IDS["easy"], "ru") == "Компьютер (лёгкий)"
    assert computer_name(COMPUTER_IDS["medium"], "uk") == "Комп'ютер (середній)"
    # Shown in any language, the name is still known as the computer's.
    assert {"Computer (easy)", "Komputer (łatwy)", "Комп'ютер (складний)"} <= COMPUTER_NAMES


def test_the_option_and_button_refusals_and_the_list_tail_speak_each_language() -> None:
    with pytest.raises(Refusal) as late:
        clock_option(10)
    assert str(late.value) == "a move clock is 30 s to 7 days"
    assert late.value.render("pl") == "czas na ruch wynosi od 30 s do 7 dni"
    with pytest.raises(Refusal) as both:
        game_options("10x10", "standard", "empty", 60, "random", rated=True, time="5+5")
    assert both.value.render("uk").startswith("виберіть або час на хід (`clock`)")
    points = [f"A{n}" for n in range(1, 30)]
    english = fit_list(points, 40)
    assert english == "A1, A2, A3, A4, A5, A6, A7 … and 22 more"
    assert fit_list(points, 40, locale="ru").endswith("A7 … и ещё 22")
    assert len(fit_list(points, 40, locale="pl")) <= 40


def test_the_game_clock_refusals_and_days_left_speak_each_language() -> None:
    with pytest.raises(Refusal) as wrong:
        time_option("soon")
    assert str(wrong.value).startswith("time: 'soon' is not a game clock: write it like 5+5")
    assert wrong.value.render("ru").startswith("time: 'soon' — не часы партии: напишите")
    with pytest.raises(Refusal) as long:
        time_option("31d+0")
    assert str(long.value) == "a game clock gives at most 30 days each"
    assert long.value.render("pl") == "zegar gry daje każdemu najwyżej 30 dni"
    with pytest.raises(Refusal) as empty:
        time_option(" ")
    assert empty.value.render("uk").startswith("вкажіть годинник партії: напишіть")
    left = timedelta(days=2, hours=3, minutes=59)
    assert describe_left(left) == "2d 3h"
    assert describe_left(left, "ru") == "2 д 3 ч"
    assert describe_left(timedelta(minutes=4, seconds=59), "pl") == "4:59"
