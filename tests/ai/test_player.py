"""The computer player's decisions: legal, tactically sound, ending and stopping by the rules."""

from __future__ import annotations

import pickle
import random
import time
from typing import Any

import pytest

import ai
from ai import player
from ai.search import Node, SearchResult
from engine import Action, Game, GameOverError, Player, Point

# Small budgets keep the suite fast; the tactics under test must hold even so.
FEW = 60


def game_after(moves: str, *, size: int = 10, rules: str = "standard") -> Game:
    """A game after alternating dots named in ``moves`` (Pink first); "end" ends for the mover."""
    game = Game(size, size, rules=rules)
    for name in moves.split():
        if name == "end":
            game.end()
        else:
            game.place(name)
    return game


def random_game(rng: random.Random, *, rules: str = "standard") -> Game:
    """A game after a random number of uniformly random legal dots."""
    game = Game(rules=rules)
    for _ in range(rng.randrange(0, 95)):
        if game.is_over:
            break
        game.place(rng.choice(list(game.board.free_points())))
    return game


def capture_threats(game: Game, player: Player) -> list[Point]:
    """The points where ``player`` would raise its score with one dot now."""
    found = []
    for point in game.board.free_points():
        trial = game.board.copy()
        if trial.place(point, player).gain(player) > 0:
            found.append(point)
    return found


@pytest.mark.parametrize("rules", ["standard", "grounding"])
def test_always_a_legal_decision(rules: str) -> None:
    rng = random.Random(7)
    checked = 0
    while checked < 25:
        game = random_game(rng, rules=rules)
        if game.is_over:
            continue
        mover = game.to_move
        assert mover is not None
        decision = ai.choose(game, "easy", seed=checked, iterations=20)
        if decision.kind == "dot":
            assert decision.point is not None
            assert game.board.is_free(decision.point)
        game.apply(decision.action(mover))  # raises if the engine refuses it
        checked += 1


def test_a_whole_game_between_levels_is_legal_to_the_end() -> None:
    game = Game(6, 6)
    moves = 0
    while not game.is_over:
        mover = game.to_move
        assert mover is not None
        level = "easy" if mover is Player.PINK else "medium"
        game.apply(ai.choose(game, level, seed=moves, iterations=30).action(mover))
        moves += 1
    assert game.result is not None
    assert moves <= 6 * 6 + 2


@pytest.mark.parametrize("level", ["easy", "hard"])
@pytest.mark.parametrize("seed", range(3))
def test_takes_a_free_capture(seed: int, level: str) -> None:
    # Blue's E5 is walled in on three sides by Pink; E4 closes the ring.
    game = game_after("E6 E5 D5 J9 F5 A9")
    assert capture_threats(game, Player.PINK) == [Point.parse("E4")]
    decision = ai.choose(game, level, seed=seed, iterations=FEW)
    assert decision.point == Point.parse("E4")


@pytest.mark.parametrize("level", ["medium", "hard"])
@pytest.mark.parametrize("seed", range(3))
def test_saves_a_dot_about_to_be_surrounded(seed: int, level: str) -> None:
    # Pink threatens E4 around Blue's E5; Blue to move must stop that (easy may not see it).
    game = game_after("E6 E5 D5 J9 F5")
    assert capture_threats(game, Player.PINK) == [Point.parse("E4")]
    decision = ai.choose(game, level, seed=seed, iterations=FEW)
    assert decision.kind == "dot" and decision.point is not None
    game.place(decision.point)
    assert capture_threats(game, Player.PINK) == []


# Pink has taken B2 with A2 B1 C2 B3 (all linked to the edge); Blue's dots are all on the edge,
# where nothing can take them: Pink leads 1-0 and neither side can gain anything more.
SETTLED = "A2 B2 B1 G7 C2 G6 B3 G5"


def test_ends_when_ahead_with_nothing_to_gain() -> None:
    game = game_after(SETTLED, size=7)
    assert game.score(Player.PINK) == 1 and game.to_move is Player.PINK
    decision = ai.choose(game, "easy", seed=1, iterations=FEW)
    assert decision.kind == "end"


def test_plays_on_when_a_dot_is_still_to_be_taken() -> None:
    # As SETTLED, but Blue's last dot stands inside the board at D4: Pink can still take it.
    game = game_after("A2 B2 B1 G7 C2 G6 B3 D4", size=7)
    assert game.score(Player.PINK) == 1
    decision = ai.choose(game, "easy", seed=1, iterations=FEW)
    assert decision.kind == "dot"


def test_plays_on_when_behind() -> None:
    # The colours of SETTLED swapped: Blue leads, so Pink must not end.
    game = game_after("B2 A2 G7 B1 G6 C2 G5 B3", size=7)
    assert game.score(Player.BLUE) == 1 and game.to_move is Player.PINK
    assert ai.choose(game, "easy", seed=1, iterations=FEW).kind == "dot"


def test_stops_under_grounding_rules_when_ahead_and_grounded() -> None:
    game = game_after(SETTLED + " A7 G4", size=7, rules="grounding")
    preview = game.stop_preview()
    assert preview.allowed and preview.dots == () and not preview.loses
    assert ai.choose(game, "easy", seed=1, iterations=FEW).kind == "end"


def test_does_not_stop_when_the_stop_would_hand_over_the_lead() -> None:
    # Pink leads 1-0 but its dots at E5 and E4 stand free in the board: a stop hands them over.
    game = game_after(SETTLED + " E5 G4 E4 G3", size=7, rules="grounding")
    preview = game.stop_preview()
    assert preview.allowed and len(preview.dots) == 2 and preview.loses
    assert ai.choose(game, "easy", seed=1, iterations=FEW).kind == "dot"


def test_plays_on_alone_after_the_opponent_ended_then_ends() -> None:
    # Blue ends with a dot at D4 that Pink can still surround: Pink plays on until it has it.
    game = game_after("A2 B2 B1 G7 C2 G6 B3 D4 A7 end", size=7)
    assert Player.BLUE in game.ended and game.to_move is Player.PINK
    before = game.score(Player.PINK)
    decisions = 0
    while not game.is_over:
        decision = ai.choose(game, "easy", seed=decisions, iterations=FEW)
        game.apply(decision.action(Player.PINK))
        decisions += 1
        assert decisions < 20
    assert game.score(Player.PINK) > before
    assert game.result is not None and game.result.reason == "ended"


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_same_seed_same_decision(level: str) -> None:
    game = random_game(random.Random(3))
    first = ai.choose(game, level, seed=42, iterations=150, max_seconds=60)
    again = ai.choose(game, level, seed=42, iterations=150, max_seconds=60)
    assert first == again
    assert first.value == again.value and first.iterations == again.iterations == 150
    # Another seed searches another way (the value it reports differs).
    other = ai.choose(game, level, seed=43, iterations=150, max_seconds=60)
    assert other.value != first.value


def is_taken_at_once(game: Game, point: Point, player: Player) -> bool:
    """The engine's truth: a dot there is inside a base straight after it is placed."""
    trial = game.board.copy()
    trial.place(point, player)
    return not trial.is_live(point)


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_never_plays_into_an_enemy_ring_when_another_move_exists(level: str) -> None:
    # Pink's empty ring round D4 (and random positions): the computer never throws a dot in.
    checked = 0
    game = game_after("D5 J9 C4 J8 E4 J7 D3")
    for seed in range(4):
        decision = ai.choose(game, level, seed=seed, iterations=FEW)
        assert decision.point != Point.parse("D4")
    rng = random.Random(17)
    while checked < 12:
        game = random_game(rng)
        mover = game.to_move
        if mover is None or game.is_over:
            continue
        safe = [p for p in game.board.free_points() if not is_taken_at_once(game, p, mover)]
        decision = ai.choose(game, level, seed=checked, iterations=FEW)
        if decision.kind == "dot" and safe:
            assert decision.point is not None
            assert not is_taken_at_once(game, decision.point, mover)
            checked += 1


def test_hard_keeps_to_its_time_budget_on_the_biggest_board() -> None:
    # 39x32 (rule 1.1's largest), 300 dots in: the level's cap holds the move under 2 s.
    rng = random.Random(3)
    game = Game(39, 32)
    for _ in range(300):
        game.place(rng.choice(list(game.board.free_points())))
    hard = ai.level_named("hard")
    started = time.perf_counter()
    decision = ai.choose(game, hard, seed=1)
    spent = time.perf_counter() - started
    assert decision.kind == "dot"
    assert 0 < decision.iterations < hard.iterations  # the cap, not the count, ended it
    assert spent < hard.max_seconds + 0.5


def test_choose_leaves_the_game_as_it_was() -> None:
    game = random_game(random.Random(5))
    picture, record = game.board.picture(), game.record
    ai.choose(game, "easy", seed=1, iterations=FEW)
    assert game.board.picture() == picture and game.record == record


def test_a_pickled_game_and_its_record_give_the_same_decision() -> None:
    game = random_game(random.Random(11))
    copy = pickle.loads(pickle.dumps(game))
    expected = ai.choose(game, "easy", seed=9, iterations=FEW)
    assert ai.choose(copy, "easy", seed=9, iterations=FEW) == expected
    record = pickle.loads(pickle.dumps(game.record))
    assert ai.choose_from_record(record, "easy", seed=9, iterations=FEW) == expected
    # The decision travels back from a worker process too.
    back = pickle.loads(pickle.dumps(expected))
    assert back == expected and back.value == expected.value


def test_decision_action_is_an_engine_action() -> None:
    dot = ai.Decision("dot", Point.parse("C3"))
    assert dot.action(Player.BLUE) == Action("dot", Player.BLUE, Point.parse("C3"))
    assert ai.Decision("end").action(Player.PINK) == Action("end", Player.PINK)


def test_refuses_a_finished_game_and_an_unknown_level() -> None:
    game = game_after("A1 end end", size=7)
    with pytest.raises(GameOverError):
        ai.choose(game, "easy", seed=1)
    with pytest.raises(ValueError, match="not a level"):
        ai.choose(Game(), "grandmaster", seed=1)


def test_alone_on_a_big_board_it_closes_in_without_wasting_dots() -> None:
    # Blue ends at once with two dots standing in the open: Pink surrounds both (four dots
    # each at most, as they stand apart) and ends, instead of filling the board.
    game = game_after("J10 D4 A10 G7 A1 end")
    assert game.ended == {Player.BLUE}
    decisions = 0
    while not game.is_over and decisions < 20:
        assert game.to_move is Player.PINK
        game.apply(ai.choose(game, "hard", seed=decisions).action(Player.PINK))
        decisions += 1
    assert game.is_over
    assert game.score(Player.PINK) == 2 and game.score(Player.BLUE) == 0
    assert decisions <= 9  # eight dots and the end


def test_a_time_budget_searches_for_about_that_long() -> None:
    game = game_after("E5 F6 F5 E6")
    started = time.perf_counter()
    decision = ai.choose(game, "hard", seed=1, seconds=0.3)
    spent = time.perf_counter() - started
    assert decision.kind == "dot" and decision.iterations > 0
    assert 0.25 < spent < 1.0


def test_hard_searches_on_from_the_subtree_of_its_last_move() -> None:
    game = game_after("E5 F6 F5 E6")
    first = ai.choose(game, "hard", seed=1, iterations=200, max_seconds=60)
    assert first.reused == 0 and first.point is not None
    game.place(first.point)
    # The opponent's reply most searched below the move played: the tree holds it.
    reply = ai.choose(game, "hard", seed=2, iterations=200, max_seconds=60, reuse=False)
    assert reply.point is not None
    game.place(reply.point)
    again = ai.choose(game, "hard", seed=3, iterations=200, max_seconds=60)
    assert again.reused > 0
    # Without reuse (or for a position no kept tree leads to) the search starts afresh.
    fresh = ai.choose(game, "hard", seed=3, iterations=200, max_seconds=60, reuse=False)
    assert fresh.reused == 0
    assert ai.choose(game_after("A1 J10"), "hard", seed=3, iterations=50).reused == 0


def test_a_reused_tree_still_gives_a_legal_move_to_the_end() -> None:
    game = Game(7, 7)
    reused = 0
    while not game.is_over:
        mover = game.to_move
        assert mover is not None
        decision = ai.choose(game, "hard", seed=len(game.actions), iterations=80)
        reused += decision.reused > 0
        game.apply(decision.action(mover))  # raises if the engine refuses it
    assert reused > 3


def test_a_move_leaves_its_tree_to_be_freed_at_the_start_of_the_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Freeing a big tree as the move returns would come after the search's deadline.
    events: list[str] = []

    class Watched(Node):
        __slots__ = ()

        def __del__(self) -> None:
            events.append("freed")

    real = player.search

    def watched_search(*args: Any, **kwargs: Any) -> SearchResult:
        events.append("search")
        result = real(*args, **kwargs)
        if events == ["search"]:
            assert result.root is not None and result.root.children is not None
            result.root.children.append(Watched(-1, 0))
        return result

    monkeypatch.setattr(player, "search", watched_search)
    game = game_after("E5 F6 F5 E6")
    ai.choose(game, "hard", seed=1, iterations=50, reuse=False)
    events.append("returned")
    ai.choose(game, "hard", seed=2, iterations=50, reuse=False)
    assert events == ["search", "returned", "freed", "search"]
