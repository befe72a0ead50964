"""Tournament standings and results, checked against tables worked out by hand; and the
pairing library's rounds as the bot stores them (no pair twice, colours balanced, byes)."""

from __future__ import annotations

import pytest

from bot.games.pairing import (
    Format,
    Pairer,
    PairingFailed,
    Seeded,
    pair_round,
    round_robin_rounds,
)
from bot.games.standings import Decision, Outcome, decide, format_points, standings
from bot.storage.rows import PairingRow

A, B, C, D, E = 1, 2, 3, 4, 5


def board(*cells: float | None) -> PairingRow:
    """A decided board: round, board number, Pink, Blue (None: a bye), Pink's and Blue's points."""
    round_, n, pink, blue, pp, bp = cells
    assert round_ is not None and n is not None and pink is not None
    game = None if blue is None else int(100 * round_ + n)
    blue_id = None if blue is None else int(blue)
    outcome = "bye" if blue is None else "game"
    return PairingRow(9, int(round_), int(n), int(pink), blue_id, game, pp, bp, outcome)


def players(*ratings: float) -> list[Seeded]:
    return [Seeded(i + 1, i + 1, r) for i, r in enumerate(ratings)]


def test_swiss_standings_equal_the_table_worked_out_by_hand() -> None:
    # R1: A 1-0 B, C ½-½ D, E bye. R2: E 0-1 A, B 1-0 C, D bye. R3: A ½-½ C, D 1-0 E, B bye.
    rows = [
        board(1, 1, A, B, 1, 0), board(1, 2, C, D, 0.5, 0.5), board(1, 3, E, None, 1, 0),
        board(2, 1, E, A, 0, 1), board(2, 2, B, C, 1, 0), board(2, 3, D, None, 1, 0),
        board(3, 1, A, C, 0.5, 0.5), board(3, 2, D, E, 1, 0), board(3, 3, B, None, 1, 0),
    ]  # fmt: skip
    lines = standings(Format.SWISS, players(1600, 1550, 1500, 1450, 1400), rows)
    # By hand: points A 2½, D 2½, B 2, C 1, E 1. Buchholz (opponents' points; byes add none):
    # A: B 2 + E 1 + C 1 = 4, cut-1 3; D: C 1 + E 1 = 2, cut-1 1; B: A 2½ + C 1 = 3½, cut 2½;
    # C: D 2½ + B 2 + A 2½ = 7, cut 5; E: A 2½ + D 2½ = 5, cut 2½.
    table = [(s.user_id, s.points, s.first, s.second) for s in lines]
    assert table == [
        (A, 2.5, 3.0, 4.0),
        (D, 2.5, 1.0, 2.0),
        (B, 2.0, 2.5, 3.5),
        (C, 1.0, 5.0, 7.0),
        (E, 1.0, 2.5, 5.0),
    ]
    assert [s.rank for s in lines] == [1, 2, 3, 4, 5]
    a = lines[0]
    assert (a.played, a.wins, a.draws, a.losses) == (3, 2, 1, 0)
    e = lines[-1]
    assert (e.played, e.wins, e.draws, e.losses) == (2, 0, 0, 2)


def test_round_robin_ties_go_to_sonneborn_berger_then_direct_then_rating() -> None:
    # A 1-0 B, C ½-½ D | A ½-½ C, B 1-0 D | D 1-0 A, B 1-0 C.
    rows = [
        board(1, 1, A, B, 1, 0), board(1, 2, C, D, 0.5, 0.5),
        board(2, 1, A, C, 0.5, 0.5), board(2, 2, B, D, 1, 0),
        board(3, 1, D, A, 1, 0), board(3, 2, B, C, 1, 0),
    ]  # fmt: skip
    lines = standings(Format.ROUND_ROBIN, players(1500, 1500, 1500, 1500), rows)
    # Points: B 2, A 1½, D 1½, C 1. SB: A = B 2·1 + C 1·½ = 2½; D = C 1·½ + A 1½·1 = 2.
    assert [(s.user_id, s.points, s.first) for s in lines] == [
        (B, 2.0, 1.5 + 1.0),  # beat D (1½) and C (1)
        (A, 1.5, 2.5),
        (D, 1.5, 2.0),
        (C, 1.0, 0.5 * 1.5 + 0.5 * 1.5),
    ]
    # A cycle (A beats B, B beats C, C beats A; all beat D): points, SB and the direct
    # encounter are equal among A, B, C, so the rating decides.
    cycle = [
        board(1, 1, A, B, 1, 0), board(1, 2, C, D, 1, 0),
        board(2, 1, C, A, 1, 0), board(2, 2, B, D, 1, 0),
        board(3, 1, A, D, 1, 0), board(3, 2, B, C, 1, 0),
    ]  # fmt: skip
    lines = standings(Format.ROUND_ROBIN, players(1500, 1600, 1550, 1700), cycle)
    assert [s.user_id for s in lines] == [B, C, A, D]
    assert [s.direct for s in lines[:3]] == [1.0, 1.0, 1.0]


def test_the_direct_encounter_breaks_a_tie_its_two_players_played() -> None:
    # B 1-0 A, D 1-0 C | A 1-0 D, E 1-0 B. A, B and E have 1 point and SB 1 each (A beat D,
    # B beat A, E beat B, each of 1 point); among them B and E scored 1, A none: B and E are
    # ahead of A, though A is rated higher.
    rows = [
        board(1, 1, B, A, 1, 0), board(1, 2, D, C, 1, 0),
        board(2, 1, A, D, 1, 0), board(2, 2, E, B, 1, 0),
    ]  # fmt: skip
    lines = standings(Format.ROUND_ROBIN, players(1900, 1500, 1500, 1500, 1500), rows)
    assert [(s.user_id, s.points, s.first, s.direct) for s in lines] == [
        (B, 1.0, 1.0, 1.0),
        (E, 1.0, 1.0, 1.0),
        (A, 1.0, 1.0, 0.0),
        (D, 1.0, 0.0, 0.0),
        (C, 0.0, 0.0, 0.0),
    ]


def test_a_board_is_decided_by_its_game_or_by_the_rule_for_unfinished_games() -> None:
    assert decide(finished=True, winner=2, dots=(5, 5), scores=(0, 0)) == Decision(
        0, 1, Outcome.GAME
    )
    assert decide(finished=True, winner=None, dots=(5, 4), scores=(0, 0)) == Decision(
        0.5, 0.5, Outcome.GAME
    )
    # Blue never placed a dot and ran out of time (a 0-0 end): Blue forfeits.
    assert decide(finished=True, winner=None, dots=(1, 0), scores=(0, 0)) == Decision(
        1, 0, Outcome.FORFEIT
    )
    # Pink resigned before Blue placed a dot: the result stands.
    assert decide(finished=True, winner=2, dots=(1, 0), scores=(0, 0)) == Decision(
        0, 1, Outcome.GAME
    )
    assert decide(finished=False, winner=None, dots=(0, 0), scores=(0, 0)) == Decision(
        0, 0, Outcome.DOUBLE_LOSS
    )
    assert decide(finished=False, winner=None, dots=(0, 3), scores=(0, 0)) == Decision(
        0, 1, Outcome.FORFEIT
    )
    assert decide(finished=False, winner=None, dots=(4, 3), scores=(1, 0)) == Decision(
        1, 0, Outcome.ADJUDICATED
    )
    assert decide(finished=False, winner=None, dots=(4, 4), scores=(2, 2)) == Decision(
        0.5, 0.5, Outcome.ADJUDICATED
    )


def test_points_are_written_with_halves() -> None:
    assert [format_points(x) for x in (0, 0.5, 1, 2.5, 10)] == ["0", "½", "1", "2½", "10"]


def _play_swiss(count: int, rounds: int) -> list[PairingRow]:
    """A Swiss played by the library's pairings, the lower starting number winning."""
    field = players(*(2000 - 10 * i for i in range(count)))
    history: list[PairingRow] = []
    for round_ in range(1, rounds + 1):
        for n, b in enumerate(pair_round(Format.SWISS, field, history, round_=round_,
                                         rounds=rounds), 1):  # fmt: skip
            if b.blue_id is None:
                history.append(board(round_, n, b.pink_id, None, 1, 0))
            else:
                pink_wins = b.pink_id < b.blue_id
                history.append(board(round_, n, b.pink_id, b.blue_id, pink_wins, not pink_wins))
    return history


def test_a_swiss_never_pairs_two_players_twice_and_balances_colours() -> None:
    history = _play_swiss(9, 5)
    pairs = [frozenset((h.pink_id, h.blue_id)) for h in history if h.blue_id is not None]
    assert len(pairs) == len(set(pairs))
    byes = [h.pink_id for h in history if h.blue_id is None]
    assert len(byes) == 5 and len(set(byes)) == 5  # one bye a round, never twice
    for player in range(1, 10):
        pink = sum(1 for h in history if h.pink_id == player and h.blue_id is not None)
        blue = sum(1 for h in history if h.blue_id == player)
        assert abs(pink - blue) <= 1 or pink + blue == 5, (player, pink, blue)


def test_a_double_round_robin_meets_every_pair_twice_with_colours_swapped() -> None:
    field = players(1500, 1500, 1500, 1500)
    rounds = round_robin_rounds(4, 2)
    assert rounds == 6
    games = [
        (b.pink_id, b.blue_id)
        for r in range(1, rounds + 1)
        for b in pair_round(Format.ROUND_ROBIN, field, [], round_=r, rounds=rounds, cycles=2)
    ]
    assert len(games) == 12
    assert sorted(games) == sorted((blue, pink) for pink, blue in games)  # each both ways
    assert round_robin_rounds(5, 1) == 5  # an odd count sits one out each round


def test_a_256_player_round_seats_every_player_once() -> None:
    field = players(*(2400 - i for i in range(256)))
    boards = pair_round(Format.SWISS, field, [], round_=1, rounds=8)
    assert len(boards) == 128
    seated = [b.pink_id for b in boards] + [b.blue_id for b in boards]
    assert sorted(seated) == list(range(1, 257))  # type: ignore[type-var]


def test_a_withdrawn_player_sits_out_and_a_forfeited_pair_never_meets_again() -> None:
    field = players(1600, 1500, 1400, 1300)
    # Round 1: 1 beat 3 over the board; 4 never moved against 2 (a forfeit, no game played).
    history = [
        board(1, 1, 1, 3, 1, 0),
        PairingRow(1, 1, 2, 2, 4, 12, 1.0, 0.0, Outcome.FORFEIT),
    ]
    withdrawn = [Seeded(p.user_id, p.seed, p.rating, p.user_id == 3) for p in field]
    boards = pair_round(Format.SWISS, withdrawn, history, round_=2, rounds=3)
    seated = {b.pink_id for b in boards} | {b.blue_id for b in boards}
    assert 3 not in seated
    assert [b for b in boards if b.blue_id is None] != []  # three players: one bye
    # With 1 and 3 out, only 2 and 4 are left: they met (by forfeit), so no pairing exists.
    two_left = [Seeded(p.user_id, p.seed, p.rating, p.user_id in (1, 3)) for p in field]
    with pytest.raises(PairingFailed):
        pair_round(Format.SWISS, two_left, history, round_=2, rounds=3)


async def test_a_large_field_is_paired_in_the_worker_process_like_in_process() -> None:
    field = players(*(2000 - i for i in range(20)))
    history = _play_swiss(20, 1)
    pairer = Pairer()
    try:
        boards = await pairer.pair(Format.SWISS, field, history, round_=2, rounds=3)
        assert pairer._pool is not None  # twenty players: off the event loop
    finally:
        pairer.close()
    assert boards == pair_round(Format.SWISS, field, history, round_=2, rounds=3)
