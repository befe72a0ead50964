"""Glicko-2 against the worked example of Glickman's paper, and its properties."""

from __future__ import annotations

import pytest

from bot.ratings import Rating, rate_game, update


def test_the_papers_worked_example() -> None:
    player = Rating(1500, 200, 0.06)
    after = update(
        player, [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    )
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_no_games_only_widens_the_deviation() -> None:
    after = update(Rating(1600, 100, 0.06), [])
    assert after.rating == 1600 and after.rd > 100


def test_one_game_is_zero_sum_between_equals_and_a_draw_moves_nothing() -> None:
    win, loss = rate_game(Rating(), Rating(), 1.0)
    assert win.rating - 1500 == pytest.approx(1500 - loss.rating)
    assert win.rating > 1600 and win.rd < 350 and win.is_provisional
    draw_a, draw_b = rate_game(Rating(), Rating(), 0.5)
    assert draw_a.rating == pytest.approx(1500) and draw_b.rating == pytest.approx(1500)


def test_beating_a_stronger_player_gains_more() -> None:
    upset, _ = rate_game(Rating(1500, 80), Rating(1800, 80), 1.0)
    expected, _ = rate_game(Rating(1500, 80), Rating(1200, 80), 1.0)
    assert upset.rating - 1500 > expected.rating - 1500 > 0


def test_ratings_settle_out_of_provisional() -> None:
    a, b = Rating(), Rating()
    for i in range(30):
        a, b = rate_game(a, b, float(i % 2))
    assert not a.is_provisional and a.rd >= 30
