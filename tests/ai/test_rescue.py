"""No unanswered threat: hard saves a dot or group the opponent could take next move, on every
size, before any search (ai/tactics.py ``rescue``). The positions are built by hand after the
ones our games were lost by: a dot left walled in on three sides, a small group with one gap
left, two threats at once."""

from __future__ import annotations

import pytest

import ai
from ai.field import Field
from ai.tactics import rescue
from engine import Game, Player, Point

SIZES = [(10, 10), (20, 20), (39, 32)]


def game_after(moves: str, width: int, height: int) -> Game:
    """A game after alternating dots named in ``moves`` (Pink first)."""
    game = Game(width, height)
    for name in moves.split():
        game.place(name)
    return game


def capture_threats(game: Game, player: Player) -> dict[Point, int]:
    """The points where ``player`` would raise its score with one dot now, with the gain."""
    found = {}
    for point in game.board.free_points():
        trial = game.board.copy()
        gain = trial.place(point, player).gain(player)
        if gain > 0:
            found[point] = gain
    return found


# Blue's E5 walled in on three sides by Pink (E6, D5, F5): E4 would take it.
THREE_SIDES = "E6 E5 D5 H9 F5"
# Blue's E5-E4 in Pink's pocket (E6, D5, F5, D4, F4): E3 would take both.
POCKET = "E6 E5 D5 E4 F5 H9 D4 H7 F4"
# The pocket, and Blue's B8 walled in on three sides by Pink (B9, A8, C8): B7 would take it.
TWO_THREATS = "E6 E5 D5 E4 F5 H9 D4 H7 F4 B8 B9 J2 A8 J4 C8"


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("moves", [THREE_SIDES, POCKET])
def test_hard_saves_a_threatened_dot_or_group_on_every_size(
    moves: str, width: int, height: int
) -> None:
    game = game_after(moves, width, height)
    assert game.to_move is Player.BLUE and capture_threats(game, Player.PINK)
    decision = ai.choose(game, "hard", seed=1, iterations=30)
    assert decision.kind == "dot" and decision.point is not None
    assert decision.iterations == 0  # answered before any search
    game.place(decision.point)
    assert capture_threats(game, Player.PINK) == {}


def test_of_two_threats_the_bigger_is_answered() -> None:
    game = game_after(TWO_THREATS, 10, 10)
    threats = capture_threats(game, Player.PINK)
    assert threats == {Point.parse("E3"): 2, Point.parse("B7"): 1}
    field = Field.from_board(game.board)
    saving = rescue(field, 2)
    assert saving is not None
    game.place(game.board.point_at(saving))
    assert capture_threats(game, Player.PINK) == {Point.parse("B7"): 1}


def test_a_capture_that_breaks_the_ring_is_the_better_rescue() -> None:
    # Pink's E6, D5 and F5 wall in Blue's E5 (E4 would take it), but Pink's F5 is itself in
    # Blue's F6, G5 and E5: Blue's F4 takes it, which breaks the wall and wins a dot.
    game = game_after("E6 E5 D5 F6 F5 G5 A1", 10, 10)
    assert capture_threats(game, Player.PINK) == {Point.parse("E4"): 1}
    saving = rescue(Field.from_board(game.board), 2)
    assert saving is not None and game.board.point_at(saving) == Point.parse("F4")
    game.place("F4")
    assert game.score(Player.BLUE) == 1 and capture_threats(game, Player.PINK) == {}


def test_no_threat_no_rescue_and_the_search_decides() -> None:
    game = game_after("E6 E5 D5 H9", 10, 10)
    assert capture_threats(game, Player.BLUE) == {}
    assert rescue(Field.from_board(game.board), 1) is None


def test_easy_and_medium_do_not_use_the_guard() -> None:
    # The beginners' levels stay as they were: only hard answers threats before searching.
    assert ai.LEVELS["hard"].guard
    assert not ai.LEVELS["easy"].guard and not ai.LEVELS["medium"].guard


def test_the_rescue_keeps_to_its_time() -> None:
    # With no time at all it looks at no move and leaves the decision to the search.
    game = game_after(POCKET, 10, 10)
    field = Field.from_board(game.board)
    assert rescue(field, 2) is not None
    assert rescue(field, 2, seconds=0.0) is None
