"""Stickers (issue 13 item 5): each earned in a scripted game that should earn it, not in one
that should not, at most once per game, only by the players who collect."""

from __future__ import annotations

import pytest

from bot.games.stickers import (
    BIG_CAPTURE,
    Earned,
    Sticker,
    book_entries,
    counts_of,
    new_sticker_line,
    stickers_of_game,
    stickers_of_last_action,
)
from engine import Game, Player, Point, Rules
from engine.game import Action
from renderer.demo import sample_game
from renderer.stickers import EMBLEMS
from tests.engine.helpers import SYMMETRIES, game_state, transform, transformed_size

PINK, BLUE = Player.PINK, Player.BLUE
_WHO = {"P": PINK, "B": BLUE}


def scripted(
    width: int,
    height: int,
    script: str,
    sym: tuple[bool, bool, bool] = (False, False, False),
    rules: Rules = Rules.STANDARD,
) -> Game:
    """A game from ``"P:D5 C4 B:D4 P:end"``: ``P:``/``B:`` names the player of what follows,
    ``end``/``resign`` are actions, anything else a dot (mapped by ``sym``). Dots need not
    alternate (``Game.apply``, as for an imported record)."""
    w, h = transformed_size(sym, width, height)
    game = Game(w, h, rules=rules)
    player: Player | None = None
    for token in script.split():
        if ":" in token:
            who, _, token = token.partition(":")
            player = _WHO[who]
            if not token:
                continue
        assert player is not None
        if token in ("end", "resign", "time"):
            game.apply(Action(token, player))  # type: ignore[arg-type]
        else:
            point = transform(Point.parse(token), sym, width, height)
            game.apply(Action("dot", player, point))
    return game


def earned(game: Game, players: tuple[Player, ...] = (PINK, BLUE)) -> set[tuple[Player, Sticker]]:
    return {(e.player, e.sticker) for e in stickers_of_game(game, players)}


def index_of(game: Game, sticker: Sticker, player: Player) -> int:
    (found,) = [e for e in stickers_of_game(game) if e.sticker is sticker and e.player is player]
    return found.action


# A Blue dot inside a Pink diamond; the last Pink dot closes the ring.
CAPTURE = "B:E5 P:E6 D5 F5 E4"
# An empty Pink ring (rule 4.6), then Blue walks into it (rule 4.4).
EMPTY_RING = "P:D5 C4 E4 D3"
# Five Blue dots in a row inside a Pink ring; four for the near miss.
FIVE = "B:D5 E5 F5 G5 H5 P:C5 D6 E6 F6 G6 H6 D4 E4 F4 G4 H4 I5"
FOUR = "B:D5 E5 F5 G5 P:C5 D6 E6 F6 G6 D4 E4 F4 G4 H5"
# Pink D3 closes the ring around C3 and the ring around E3 at once.
TWO_RINGS = "B:C3 E3 P:C4 B3 C2 E4 F3 E2 D3"
# Blue's diamond of radius 2 around the Pink base of CAPTURE: a bigger ring (rules 4.5, 5.2).
BIGGER = CAPTURE + " B:E7 D6 C5 D4 E3 F4 G5 F6"


@pytest.mark.parametrize("sym", SYMMETRIES)
def test_first_capture_and_not_for_an_empty_ring(sym: tuple[bool, bool, bool]) -> None:
    game = scripted(9, 9, CAPTURE, sym)
    assert earned(game) == {(PINK, Sticker.FIRST_CAPTURE)}
    assert index_of(game, Sticker.FIRST_CAPTURE, PINK) == 4
    assert earned(scripted(9, 9, EMPTY_RING, sym)) == set()


def test_first_capture_is_earned_once_at_the_first() -> None:
    game = scripted(12, 9, CAPTURE + " B:I5 P:I6 H5 J5 I4")
    assert game.score(PINK) == 2
    assert stickers_of_game(game) == [Earned(PINK, Sticker.FIRST_CAPTURE, 4)]


@pytest.mark.parametrize("sym", SYMMETRIES)
def test_big_capture_needs_five_at_once(sym: tuple[bool, bool, bool]) -> None:
    five = scripted(11, 9, FIVE, sym)
    assert five.last_placement is not None and five.last_placement.gain(PINK) == BIG_CAPTURE
    assert earned(five) == {(PINK, Sticker.FIRST_CAPTURE), (PINK, Sticker.BIG_CAPTURE)}
    four = scripted(11, 9, FOUR, sym)
    assert four.score(PINK) == 4
    assert earned(four) == {(PINK, Sticker.FIRST_CAPTURE)}


def test_five_captured_one_by_one_is_no_big_capture() -> None:
    rings = " ".join(f"B:{c}5 P:{c}6 {chr(ord(c) - 1)}5 {chr(ord(c) + 1)}5 {c}4" for c in "CGKOS")
    game = scripted(22, 9, rings)
    assert game.score(PINK) == 5
    assert Sticker.BIG_CAPTURE not in {s for _, s in earned(game)}


@pytest.mark.parametrize("sym", SYMMETRIES)
def test_one_dot_closing_two_bases(sym: tuple[bool, bool, bool]) -> None:
    game = scripted(7, 5, TWO_RINGS, sym)
    assert game.last_placement is not None and len(game.last_placement.bases) == 2
    assert (PINK, Sticker.DOUBLE_BASE) in earned(game)
    # The same two bases closed by two dots: D3 placed before the rings' last dots.
    apart = scripted(7, 5, "B:C3 E3 P:D3 C4 B3 E4 F3 E2 C2")
    assert len(apart.board.bases) == 2
    assert earned(apart) == {(PINK, Sticker.FIRST_CAPTURE)}


@pytest.mark.parametrize("sym", SYMMETRIES)
def test_bigger_ring_around_a_base(sym: tuple[bool, bool, bool]) -> None:
    game = scripted(9, 9, BIGGER, sym)
    assert game.score(PINK) == 0 and game.score(BLUE) == 4
    assert earned(game) == {
        (PINK, Sticker.FIRST_CAPTURE),
        (BLUE, Sticker.FIRST_CAPTURE),
        (BLUE, Sticker.BIGGER_RING),
    }
    # The same Blue ring around Pink dots that no base holds: a capture, not a bigger ring.
    plain = scripted(9, 9, "P:E6 D5 F5 E4 B:E7 D6 C5 D4 E3 F4 G5 F6", sym)
    assert plain.score(BLUE) == 4
    assert earned(plain) == {(BLUE, Sticker.FIRST_CAPTURE)}


@pytest.mark.parametrize("sym", SYMMETRIES)
def test_trap_of_an_empty_ring(sym: tuple[bool, bool, bool]) -> None:
    game = scripted(7, 7, EMPTY_RING + " B:D4", sym)
    assert game.score(PINK) == 1
    # Earned by the ring's owner on the opponent's dot.
    assert earned(game) == {(PINK, Sticker.FIRST_CAPTURE), (PINK, Sticker.EMPTY_RING_TRAP)}
    assert index_of(game, Sticker.EMPTY_RING_TRAP, PINK) == 4
    # Worked case 3: Blue's dot in the ring closes Blue's own base first, so no trap.
    case3 = scripted(7, 7, "P:D5 C4 D3 E4 B:E5 F4 E3 D4", sym)
    assert case3.score(BLUE) == 1 and case3.score(PINK) == 0
    assert earned(case3) == {(BLUE, Sticker.FIRST_CAPTURE)}


def test_comeback_is_a_win_by_the_score_from_behind() -> None:
    behind = "P:E5 B:E6 D5 F5 E4"  # Blue leads 1-0
    back = " B:J5 P:J6 I5 K5 J4 B:N5 P:N6 M5 O5 N4"  # Pink takes two
    game = scripted(16, 9, behind + back + " P:end B:end")
    assert game.result is not None and game.result.winner is PINK
    assert (PINK, Sticker.COMEBACK) in earned(game)
    assert index_of(game, Sticker.COMEBACK, PINK) == len(game.actions) - 1
    # Ahead all along: no comeback.
    ahead = scripted(16, 9, back + " P:end B:end")
    assert ahead.result is not None and ahead.result.winner is PINK
    assert Sticker.COMEBACK not in {s for _, s in earned(ahead)}
    # Behind, then level: a draw is no win.
    level = scripted(16, 9, behind + " B:J5 P:J6 I5 K5 J4 P:end B:end")
    assert level.result is not None and level.result.winner is None
    assert Sticker.COMEBACK not in {s for _, s in earned(level)}
    # Behind when the opponent resigned: a win, but not by the score.
    resigned = scripted(16, 9, behind + " B:resign")
    assert resigned.result is not None and resigned.result.winner is PINK
    assert Sticker.COMEBACK not in {s for _, s in earned(resigned)}


def _grounding(pink: list[str], blue: list[str]) -> Game:
    game = Game(10, 10, rules=Rules.GROUNDING)
    for mine, theirs in zip(pink, blue, strict=True):
        game.place(mine, PINK)
        game.place(theirs, BLUE)
    game.end(PINK)  # a stop (rule 8.2)
    return game


def test_win_after_the_opponents_stop() -> None:
    game = _grounding(["D5", "E5", "F5", "G5", "D7"], ["A1", "A2", "A3", "A4", "A5"])
    assert game.result is not None and game.result.winner is BLUE and game.result.blue == 5
    assert earned(game) == {(BLUE, Sticker.WIN_AFTER_STOP)}
    # A stop that hands over nothing is a draw: nobody wins after it.
    drawn = _grounding(["J1", "J2", "J3", "J4", "J5"], ["A1", "A2", "A3", "A4", "A5"])
    assert drawn.result is not None and drawn.result.winner is None
    assert earned(drawn) == set()
    # Both ended under standard rules: no stop.
    ended = scripted(10, 10, CAPTURE + " P:end B:end")
    assert ended.result is not None and ended.result.winner is PINK
    assert Sticker.WIN_AFTER_STOP not in {s for _, s in earned(ended)}


def test_full_page_for_who_played_a_game_to_its_end_on_39x32() -> None:
    game = scripted(39, 32, "P:T16 B:U16 P:end B:end")
    assert game.is_over
    assert earned(game) == {(PINK, Sticker.FULL_PAGE), (BLUE, Sticker.FULL_PAGE)}
    assert index_of(game, Sticker.FULL_PAGE, BLUE) == 3
    # Blue resigned without placing a dot: only Pink played the page.
    assert earned(scripted(39, 32, "P:T16 B:resign")) == {(PINK, Sticker.FULL_PAGE)}
    # Not over yet, or a smaller page.
    assert earned(scripted(39, 32, "P:T16 B:U16")) == set()
    assert earned(scripted(39, 31, "P:T16 B:U16 P:end B:end")) == set()
    assert earned(scripted(32, 39, "P:T16 B:U16 P:end B:end")) == set()


def test_against_the_computer_only_the_person_collects() -> None:
    game = scripted(9, 9, BIGGER)
    assert earned(game, (PINK,)) == {(PINK, Sticker.FIRST_CAPTURE)}
    assert earned(game, (BLUE,)) == {(BLUE, Sticker.FIRST_CAPTURE), (BLUE, Sticker.BIGGER_RING)}


def test_the_game_is_not_touched_and_the_last_action_is_announced() -> None:
    game = scripted(9, 9, BIGGER)
    before = game_state(game)
    assert stickers_of_last_action(game) == [
        Earned(BLUE, Sticker.FIRST_CAPTURE, 12),
        Earned(BLUE, Sticker.BIGGER_RING, 12),
    ]
    assert game_state(game) == before
    game.pop()
    assert stickers_of_last_action(game) == []


def test_counts_book_and_words() -> None:
    games = [scripted(9, 9, CAPTURE), scripted(9, 9, BIGGER), scripted(7, 7, EMPTY_RING + " B:D4")]
    all_earned = [e for g in games for e in stickers_of_game(g)]
    counts = counts_of(all_earned, PINK)
    assert counts == {Sticker.FIRST_CAPTURE: 3, Sticker.EMPTY_RING_TRAP: 1}
    entries = book_entries(counts)
    assert [e[0] for e in entries] == [str(s) for s in Sticker]
    assert ("first_capture", "First capture", 3) in entries
    assert ("full_page", "Full page", 0) in entries
    assert new_sticker_line(Sticker.EMPTY_RING_TRAP, first_ever=True) == "New sticker! Trap"
    assert new_sticker_line(Sticker.EMPTY_RING_TRAP, first_ever=False) == "Sticker: Trap"


def test_ids_are_stable_and_every_sticker_has_words_and_an_emblem() -> None:
    # Stored ids: renaming one loses players' stickers, so they are pinned here.
    assert [str(s) for s in Sticker] == [
        "first_capture",
        "big_capture",
        "double_base",
        "bigger_ring",
        "empty_ring_trap",
        "comeback",
        "win_after_stop",
        "full_page",
    ]
    assert len({s.label for s in Sticker}) == len(Sticker)
    assert all(s.description.endswith(".") for s in Sticker)
    assert set(EMBLEMS) == {str(s) for s in Sticker}
    assert Sticker.parse(" Full_Page ") is Sticker.FULL_PAGE
    with pytest.raises(ValueError, match="not a sticker"):
        Sticker.parse("gold star")


@pytest.mark.parametrize(("width", "height", "seed"), [(39, 32, 11), (16, 12, 4)])
def test_move_by_move_equals_the_replay(width: int, height: int, seed: int) -> None:
    # A greedy random game full of bases: what each move's post would announce, given what the
    # game earned before, adds up to what a replay of the whole game finds.
    full = sample_game(width, height, 10_000, seed=seed)
    assert full.is_over
    game = Game.at_start(full.record)
    so_far: list[Earned] = []
    for action in full.actions:
        game.apply(action)
        new = stickers_of_last_action(game, earlier=so_far)
        assert all(e.action == len(game.actions) - 1 for e in new)
        so_far += new
    assert so_far == stickers_of_game(full)
    # The random game reaches most stickers, so the comparison covers them.
    assert len({e.sticker for e in so_far}) >= 3
