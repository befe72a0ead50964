"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013), as lichess uses them.

Every rated game is its own rating period for both players (as on lichess): no time decay of
the deviation between games. A rating is provisional while its deviation (RD) is above 110.
Pure arithmetic: no I/O. (The ``glicko2`` package on PyPI is a 2009 mutable-object port with no
types or tests we could rely on; this module is small and tested against the paper.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.storage.rows import RatingValues

SCALE = 173.7178  # 400 / ln(10): Glicko-2's conversion from the Glicko scale
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
PROVISIONAL_RD = 110.0
TAU = 0.5  # the system constant: how fast volatility may change (the paper's example uses 0.5)
EPSILON = 1e-6
MIN_RD = 30.0  # a floor, as lichess uses, so a regular player's rating still moves


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the familiar scale: rating, deviation (RD) and volatility."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    @property
    def is_provisional(self) -> bool:
        """Whether the rating is still uncertain (RD above 110)."""
        return self.rd > PROVISIONAL_RD


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(
    player: Rating, results: list[tuple[Rating, float]], *, tau: float = TAU, min_rd: float = 0.0
) -> Rating:
    """The player's rating after one rating period with ``results`` (opponent, score in
    {0, 0.5, 1}); with no results only the deviation grows (step 6 of the paper)."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, max(min_rd, phi_star * SCALE), sigma)
    inv_v = 0.0
    delta_sum = 0.0
    for opponent, score in results:
        mu_j = (opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = opponent.rd / SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        inv_v += g * g * e * (1.0 - e)
        delta_sum += g * (score - e)
    v = 1.0 / inv_v
    delta = v * delta_sum
    sigma_new = _new_volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return Rating(mu_new * SCALE + DEFAULT_RATING, max(min_rd, phi_new * SCALE), sigma_new)


def _new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois algorithm for the new volatility."""
    a = math.log(sigma * sigma)
    delta2, phi2 = delta * delta, phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate_game(a: Rating, b: Rating, score_a: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them; ``score_a`` is 1, 0.5 or 0."""
    return (
        update(a, [(b, score_a)], min_rd=MIN_RD),
        update(b, [(a, 1.0 - score_a)], min_rd=MIN_RD),
    )


def rate_stored(
    pink: RatingValues | None, blue: RatingValues | None, score_pink: float
) -> tuple[tuple[Rating, Rating], tuple[Rating, Rating]]:
    """Each player's (rating before, rating after) a game between them, from their stored
    ratings (None: a first rated game, from the default rating); the rules the Store is given
    when a rated game ends."""
    a, b = (Rating() if r is None else Rating(r.rating, r.rd, r.volatility) for r in (pink, blue))
    new_a, new_b = rate_game(a, b, score_pink)
    return (a, new_a), (b, new_b)
