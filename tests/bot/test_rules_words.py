"""What the bot tells players about the rules is what docs/RULES.md says: ending keeps the score
open (rule 6.1), a stop that hands nothing over says so, a replay counts dots and ends apart, and
/rules explains the bigger ring and the edge with pictures that show no turn."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot import text
from bot.cogs.info import rule_examples
from bot.i18n import LOCALES, TRANSLATED, is_translated, words
from engine import ActionKind, Game, Player
from renderer import layout, render_png
from renderer import words as headers
from tests.bot.discord_inprocess import Member, World

ROOT = Path(__file__).resolve().parents[2]
CAT = Member(940_000_000_000_000_003, "cat")
NAMES = {Player.PINK: "Pink", Player.BLUE: "Blue"}


def rule(number: str) -> str:
    """The text of one numbered rule of docs/RULES.md, on one line."""
    rules = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    found = re.search(rf"- \*\*{re.escape(number)}\*\*(.*?)(?=\n- \*\*|\n\n)", rules, re.S)
    assert found, number
    return " ".join(found.group(1).split())


def all_grounded_stop() -> Game:
    """Grounding rules, both players' five dots on an edge: Pink's stop hands nothing over."""
    game = Game(7, 7, rules="grounding")
    for point in ("A1", "G1", "A2", "G2", "A3", "G3", "A4", "G4", "A5", "G5"):
        game.place(point)
    return game


def test_the_end_confirmation_says_the_score_can_still_change_as_rule_6_1_does() -> None:
    assert "bigger ring" in rule("6.1") and "score can still change" in rule("6.1")
    prompt = text.end_confirmation(Game(7, 7), Player.PINK)
    assert "score stands" not in prompt
    assert "score can still change" in prompt and "bigger ring" in prompt
    assert "cannot be taken back" in prompt
    for locale in TRANSLATED:
        assert text.end_confirmation(Game(7, 7), Player.PINK, locale=locale) != prompt, locale


def test_the_rules_do_not_refer_to_a_folder_a_clone_lacks() -> None:
    rules = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    for folder in re.findall(r"`([\w.-]+/)`", rules):
        assert (ROOT / "docs" / folder).exists() or (ROOT / folder).exists(), folder


@pytest.mark.parametrize("locale", LOCALES)
def test_a_stop_that_hands_over_nothing_says_every_dot_is_grounded(locale: str) -> None:
    game = all_grounded_stop()
    prompt = text.end_confirmation(game, Player.PINK, locale=locale)
    game.end()
    assert game.is_over and not game.handed_over
    line = text.action_line(game, NAMES, locale=locale)
    for said in (prompt, line):
        assert not re.search(r"\b0\s+\w", said), said  # "0 dots", "0 kropek" (scores stay)
    if locale == "en":
        assert "All your dots are grounded: nothing would be handed over" in prompt
        assert line == "Pink stops: every dot is grounded, so nothing is handed over."


def test_a_stop_by_time_out_that_hands_over_nothing_says_every_dot_is_grounded() -> None:
    game = all_grounded_stop()
    game.time_out()
    assert game.is_over and not game.handed_over
    line = text.action_line(game, NAMES)
    assert "0 dots" not in line and "every dot is grounded" in line


def replayed(game: Game) -> list[str]:
    """Every replay frame's line of ``game``, as the GIF shows them (English)."""
    replay = Game.at_start(game.record)
    played = headers.played(game.actions)
    lines = [headers.replay_line(0, played, ("alice", "bob"), replay.ended, replay.rules)]
    for shown, action in enumerate(game.actions, 1):
        replay.apply(action)
        placed = sum(a.kind == ActionKind.DOT for a in game.actions[:shown])
        lines.append(
            headers.replay_line(placed, played, ("alice", "bob"), replay.ended, replay.rules)
        )
    return lines


def test_a_replay_counts_the_dots_and_the_ends_apart() -> None:
    game = Game(10, 10)
    for n in range(10):
        game.place(f"{'ABCDEFGHIJ'[n]}1")
        game.place(f"{'ABCDEFGHIJ'[n]}10")
    game.end()
    game.end()
    assert len(game.actions) == 22
    lines = replayed(game)
    assert lines[0] == "Start: 20 dots, 2 ends, standard rules"
    assert lines[11] == "Dot 11 of 20"
    assert lines[20] == "Dot 20 of 20"
    assert lines[21] == "Dot 20 of 20 · alice ended"
    assert not any("22" in line for line in lines)
    assert (
        words("pl")
        .replay_start.format(played=words("pl").dots(20) + ", " + words("pl").ends(2), rules="x")
        .startswith("Start: 20 kropek, 2 zakończenia")
    )


def test_a_replay_of_a_game_without_ends_counts_only_its_dots() -> None:
    game = Game(7, 7)
    for point in ("B2", "E5", "C3"):
        game.place(point)
    assert replayed(game) == [
        "Start: 3 dots, standard rules",
        "Dot 1 of 3",
        "Dot 2 of 3",
        "Dot 3 of 3",
    ]


def test_the_rules_say_a_bigger_ring_takes_a_base_back_and_edge_dots_are_never_captured() -> None:
    summary = str(text.RULES_SUMMARY)
    assert "bigger ring around a base takes the whole base back" in summary
    assert "edge of the board can never be captured" in summary
    assert "still count" in summary  # ending does not freeze the score (rule 6.1)
    for locale in TRANSLATED:
        assert is_translated(locale, text.RULES_SUMMARY), locale


async def test_rules_pictures_show_the_picture_number_and_no_turn(world: World) -> None:
    calls = await world.harness.slash(CAT, "rules")
    sent = [c for c in calls if c.path.startswith("/webhooks/")][-1]
    assert "bigger ring" in sent.content and "can never be captured" in sent.content
    assert len(sent.files) == len(rule_examples())
    for n, ((_name, png), (_caption, game, marks)) in enumerate(
        zip(sent.files, rule_examples(), strict=True), 1
    ):
        lay = layout(game.width, game.height)
        header = (0, 0, lay.image_width, lay.header_height)
        shown = Image.open(io.BytesIO(png)).convert("RGB").crop(header)
        as_a_turn = render_png(game, names=NAMES, marks=marks)
        neutral = render_png(game.board, names=NAMES, marks=marks, status=f"Picture {n}")
        for other, same in ((as_a_turn, False), (neutral, True)):
            expected = Image.open(io.BytesIO(other)).convert("RGB").crop(header)
            assert (ImageChops.difference(shown, expected).getbbox() is None) is same, n
