"""The computer's review of a game: reproducible, it finds the blunder and what beats it."""

from __future__ import annotations

import pytest

from ai.review import (
    MAX_ITERATIONS,
    MIN_ITERATIONS,
    REPLAY_MARGIN,
    Estimate,
    Gain,
    Review,
    Threat,
    Verdict,
    assemble,
    estimate,
    iterations_for,
    judge_replay,
    review,
    what_it_leaves,
    what_it_wins,
)
from engine import Game, Player, Point, Record

# Blue's six dots C4..E5 in a ring of Pink's that lacks only F4; Blue's 9th dot, J2, leaves
# it open and Pink's F4 closes the ring round all six.
PINK = ["B4", "B5", "C6", "D6", "E6", "F5", "E3", "D3", "C3"]
BLUE = ["C4", "D4", "E4", "C5", "D5", "E5", "H8", "H9"]
BLUNDER = 18  # J2, the 18th action
BUDGET = 150


def blunder_game() -> Game:
    """The hand-made game with one clear blunder (see above), played on a few moves after."""
    game = Game(10, 10)
    for pink, blue in zip(PINK, BLUE, strict=False):
        game.place(pink)
        game.place(blue)
    game.place(PINK[-1])
    game.place("J2")
    game.place("F4")
    for name in ("B8", "J3", "C8", "J4"):
        game.place(name)
    return game


def test_the_review_names_the_move_that_left_six_dots_to_be_captured() -> None:
    game = blunder_game()
    assert game.score(Player.PINK) == 6
    result = review(game.record, seed=3, iterations=BUDGET)
    blue = result.turning_of(Player.BLUE)
    assert 1 <= len(blue) <= 3
    blunder = next(t for t in blue if t.move == BLUNDER)
    assert blunder.played == Point.parse("J2")
    assert blunder.preferred == Point.parse("F4")
    assert blunder.wins == Gain("save", 6)
    assert blunder.left is not None
    assert (blunder.left.point, blunder.left.dots) == (Point.parse("F4"), 6)
    assert blunder.after < blunder.before


def test_a_review_is_reproducible_for_a_seed() -> None:
    record = blunder_game().record
    first = review(record, seed=11, iterations=40)
    assert review(record, seed=11, iterations=40) == first
    # Split into ranges, as the bot's workers do, the estimates are the same.
    parts = [
        *estimate(record, 0, 10, seed=11, iterations=40),
        *estimate(record, 10, len(record.actions) + 1, seed=11, iterations=40),
    ]
    assert assemble(record, parts, seed=11, iterations=40) == first


def test_a_review_survives_its_json() -> None:
    result = review(blunder_game().record, seed=5, iterations=30)
    assert Review.from_json(result.to_json()) == result


def test_the_estimates_follow_the_game_and_the_final_position_is_its_result() -> None:
    game = blunder_game()
    game.resign(Player.BLUE)
    result = review(game.record, seed=2, iterations=30)
    assert len(result.estimates) == len(game.actions) + 1
    assert result.estimates[-1] == 1.0
    assert result.scores[-1] == 6
    assert [(c.move, c.player, c.dots) for c in result.captures] == [(19, Player.PINK, 6)]
    pink, blue = result.summaries
    assert (pink.moves, blue.moves) == (12, 11)


def test_what_a_move_wins_is_read_by_the_rules() -> None:
    game = blunder_game()
    before_blunder = Game.at_start(game.record)
    for action in game.actions[: BLUNDER - 1]:
        before_blunder.apply(action)
    after_blunder = Game.at_start(game.record)
    for action in game.actions[:BLUNDER]:
        after_blunder.apply(action)
    assert what_it_wins(after_blunder, Point.parse("F4")) == Gain("capture", 6)
    assert what_it_wins(before_blunder, Point.parse("F4")) == Gain("save", 6)
    assert what_it_wins(before_blunder, Point.parse("A10")) == Gain("none")
    assert what_it_leaves(before_blunder, Point.parse("A10")) is not None
    assert what_it_leaves(after_blunder, Point.parse("F4")) is None


def test_the_budget_shrinks_with_the_game_within_its_bounds() -> None:
    small = Record(10, 10, actions=blunder_game().record.actions)
    assert iterations_for(small) == MAX_ITERATIONS
    assert iterations_for(Game(39, 32).record) == MAX_ITERATIONS
    long_game = Record(39, 32, actions=blunder_game().record.actions * 40)
    assert iterations_for(long_game) == MIN_ITERATIONS


def test_assembling_refuses_estimates_that_do_not_cover_the_game() -> None:
    record = blunder_game().record
    with pytest.raises(ValueError, match="1 estimates for 24 positions"):
        assemble(record, [Estimate(0.5, 0, None, 1)], seed=1, iterations=1)


def test_the_estimates_are_pinks_chance_the_same_way_on_both_players_turns() -> None:
    # A level game each search sees optimistically for its mover (0.6 whoever moves): read
    # as it is, Pink's chance would zig-zag 0.6, 0.4, 0.6 ...; steadied it stays one half.
    game = Game(10, 10)
    for name in ["E5", "F5", "E6", "F6", "E7", "F7"]:
        game.place(name)
    record = game.record
    looks = [
        Estimate(0.6 if n % 2 == 0 else 0.4, 0, Point.parse("A1"), 100)
        for n in range(len(record.actions) + 1)
    ]
    made = assemble(record, looks, seed=1, iterations=100)
    assert made.estimates == (0.5,) * len(looks)
    assert all(s.mistakes == 0 for s in made.summaries)
    # One real drop (Blue's 4th action F6 loses 0.3 of Blue's chance) stays a drop.
    looks[4] = Estimate(0.9, 0, Point.parse("A1"), 100)
    looks[5] = Estimate(0.7, 0, Point.parse("A1"), 100)
    looks[6] = Estimate(0.9, 0, Point.parse("A1"), 100)
    made = assemble(record, looks, seed=1, iterations=100)
    assert made.estimates[:4] == (0.5,) * 4
    assert made.estimates[4] > 0.7
    assert made.turning_of(Player.BLUE)[0].move == 4


def test_a_replayed_blunder_accepts_the_saving_move_and_refuses_what_leaves_the_six_dots() -> None:
    record = blunder_game().record
    f4 = Point.parse("F4")

    def judged(name: str) -> Verdict:
        return judge_replay(
            record, BLUNDER, Point.parse(name), preferred=f4, seed=3, iterations=BUDGET
        )

    assert judged("F4").good and judged("F4").by == "preferred"
    played = judged("J2")
    assert not played.good and played.by == "played"
    for elsewhere in ("A1", "F3", "G7"):
        verdict = judged(elsewhere)
        assert not verdict.good and verdict.by == "leaves"
        assert verdict.left == Threat(f4, 6)


def test_a_replayed_mistake_accepts_a_move_the_search_finds_as_good_as_the_preferred() -> None:
    # Pink's quiet second dot: far from everything, the search sees no move much better than
    # another, so a neighbour of the preferred move is as good as it, judged by the search.
    game = Game(10, 10)
    for name in ["E5", "F6", "A10"]:
        game.place(name)
    record = game.record
    verdict = judge_replay(
        record, 3, Point.parse("E6"), preferred=Point.parse("E7"), seed=1, iterations=BUDGET
    )
    assert verdict.by == "search"
    assert verdict.good == (verdict.chance >= verdict.best - REPLAY_MARGIN)
    assert verdict.good
