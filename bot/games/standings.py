"""A tournament's points and standings, and how a board's result is decided.

Points: a win 1, a draw ½, a loss 0; a bye the tournament's bye points. Tiebreaks, in order:
for a Swiss, Buchholz cut-1 (the opponents' points, the lowest left out), then Buchholz (all
the opponents' points); for a round robin, Sonneborn–Berger (the points of the opponents
beaten, half those of the opponents drawn); then the direct encounter (the points scored in the
games among the players still tied), then the rating at the start, then the starting number.
A bye adds no opponent.

A board is decided by its game (``decide``): a game played to its end by its result, except
that a player who never placed a dot loses by forfeit; a game stopped at the round's deadline,
or aborted, by the rule "a game with no dot is a double loss, a player who never placed a dot
loses by forfeit, else the higher score wins".
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.games.pairing import Format, Seeded
from bot.storage.rows import PairingRow


class Outcome(StrEnum):
    """How a board was decided; the values are what ``tournament_pairings`` stores."""

    GAME = "game"  # the game's own result
    ADJUDICATED = "adjudicated"  # unfinished at the deadline: by the score
    FORFEIT = "forfeit"  # a player never placed a dot, or withdrew
    DOUBLE_LOSS = "double_loss"  # no dot at all
    BYE = "bye"


@dataclass(frozen=True, slots=True)
class Decision:
    """A board's points for Pink and Blue and how they were decided."""

    pink: float
    blue: float
    outcome: Outcome


def decide(
    *, finished: bool, winner: int | None, dots: tuple[int, int], scores: tuple[int, int]
) -> Decision:
    """A board's result from its game: ``finished`` (played to its end, ``winner`` 1 Pink,
    2 Blue, None a draw), else by ``dots`` placed and ``scores`` (Pink's, Blue's).

    A player who never placed a dot while the other did loses by forfeit, unless they won
    (their opponent resigned); a game with no dot at all that did not finish is a double
    loss; an unfinished game is won by the higher score, drawn on equal scores."""
    pink_dots, blue_dots = dots
    absent = (pink_dots == 0) != (blue_dots == 0)
    if finished and not (absent and winner is None):
        if winner is None:
            return Decision(0.5, 0.5, Outcome.GAME)
        return Decision(1.0, 0.0, Outcome.GAME) if winner == 1 else Decision(0.0, 1.0, Outcome.GAME)
    if pink_dots == 0 and blue_dots == 0:
        return Decision(0.0, 0.0, Outcome.DOUBLE_LOSS)
    if absent:
        pink_won = blue_dots == 0
        return Decision(float(pink_won), float(not pink_won), Outcome.FORFEIT)
    pink, blue = scores
    if pink == blue:
        return Decision(0.5, 0.5, Outcome.ADJUDICATED)
    return Decision(float(pink > blue), float(blue > pink), Outcome.ADJUDICATED)


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings: the rank (equal lines share none: every tie is broken),
    the player, their points and tiebreaks (``first``, ``second``: Buchholz cut-1 and Buchholz
    for a Swiss, Sonneborn–Berger and 0 for a round robin), games played, wins, draws, losses."""

    rank: int
    user_id: int
    points: float
    first: float
    second: float
    direct: float
    rating: float
    played: int
    wins: int
    draws: int
    losses: int
    withdrawn: bool


def standings(
    format_: Format, players: Sequence[Seeded], pairings: Iterable[PairingRow]
) -> list[Standing]:
    """The standings after the decided boards of ``pairings`` (see the module's docstring)."""
    points: dict[int, float] = dict.fromkeys((p.user_id for p in players), 0.0)
    # Each player's scores against each opponent, one entry per decided board.
    against: dict[int, list[tuple[int, float]]] = defaultdict(list)
    tally: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # played, won, drawn, lost
    for row in pairings:
        if row.pink_points is None:
            continue  # not decided yet
        if row.blue_id is None:
            points[row.pink_id] = points.get(row.pink_id, 0.0) + row.pink_points
            continue
        blue_points = row.blue_points or 0.0
        for me, them, mine in (
            (row.pink_id, row.blue_id, row.pink_points),
            (row.blue_id, row.pink_id, blue_points),
        ):
            points[me] = points.get(me, 0.0) + mine
            against[me].append((them, mine))
            counts = tally[me]
            counts[0] += 1
            counts[1 if mine == 1 else 2 if mine == 0.5 else 3] += 1
    firsts: dict[int, tuple[float, float]] = {}
    for player in players:
        opponents = [points.get(them, 0.0) for them, _mine in against[player.user_id]]
        if format_ == Format.SWISS:
            total = sum(opponents)
            cut = total - min(opponents) if opponents else 0.0
            firsts[player.user_id] = (cut, total)
        else:
            sb = sum(mine * points.get(them, 0.0) for them, mine in against[player.user_id])
            firsts[player.user_id] = (sb, 0.0)
    by_id = {p.user_id: p for p in players}

    def key(user_id: int) -> tuple[float, float, float]:
        return (points[user_id], *firsts[user_id])

    groups: dict[tuple[float, float, float], list[int]] = defaultdict(list)
    for player in players:
        groups[key(player.user_id)].append(player.user_id)
    direct: dict[int, float] = {}
    for tied in groups.values():
        members = set(tied)
        for user_id in tied:
            direct[user_id] = (
                sum(mine for them, mine in against[user_id] if them in members)
                if len(tied) > 1
                else 0.0
            )
    order = sorted(
        (p.user_id for p in players),
        key=lambda u: (
            *(-x for x in key(u)),
            -direct[u],
            -by_id[u].rating,
            by_id[u].seed,
        ),
    )
    lines = []
    for rank, user_id in enumerate(order, 1):
        played, won, drawn, lost = tally[user_id]
        first, second = firsts[user_id]
        lines.append(
            Standing(
                rank=rank,
                user_id=user_id,
                points=points[user_id],
                first=first,
                second=second,
                direct=direct[user_id],
                rating=by_id[user_id].rating,
                played=played,
                wins=won,
                draws=drawn,
                losses=lost,
                withdrawn=by_id[user_id].withdrawn,
            )
        )
    return lines


def format_points(value: float) -> str:
    """Points as a tournament table writes them: ``2``, ``2½``, ``½``."""
    whole, half = divmod(round(value * 2), 2)
    if not half:
        return str(whole)
    return "½" if whole == 0 else f"{whole}½"
