"""A tournament's pairings by well-kept libraries (never our own algorithm): FIDE Dutch for a
Swiss round by ``py4swiss``, FIDE Berger tables for a round robin by ``caissify-pairings``.

Both are stateless: each call is told the players' history (results, colours, byes, who met
whom), computed here from the stored pairings. Pink moves first, so Pink is the libraries'
White. Players are given to them by their starting number (``seed``).
"""

from __future__ import annotations

import functools
import signal
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from enum import StrEnum

from caissify_pairings import generate_pairings
from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError
from py4swiss.trf import ParsedTrf
from py4swiss.trf.codes import PlayerCode
from py4swiss.trf.results import ColorToken, ResultToken, RoundResult, ScoringPointSystemCode
from py4swiss.trf.sections import PlayerSection, XSection

from bot.games.workers import new_pool, run_or_thread, shut
from bot.storage.rows import PairingRow


@dataclass(frozen=True, slots=True)
class Seeded:
    """A player as the pairing sees them: their user id, starting number and rating."""

    user_id: int
    seed: int
    rating: float
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class Board:
    """One board of a round: Pink (moves first) and Blue (None: Pink has the bye)."""

    pink_id: int
    blue_id: int | None


class PairingFailed(Exception):  # noqa: N818 (a state of the tournament, reported by the caller)
    """No pairing of this round exists under the rules (every possible pair has met)."""


class Format(StrEnum):
    """A tournament's format; the values are what the tournaments table stores."""

    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"


def round_robin_rounds(players: int, cycles: int) -> int:
    """How many rounds a round robin of ``players`` plays (an odd count adds a bye seat)."""
    seats = players + players % 2
    return (seats - 1) * cycles


def pair_round(
    format_: Format,
    players: Sequence[Seeded],
    history: Sequence[PairingRow],
    *,
    round_: int,
    rounds: int,
    cycles: int = 1,
    bye_points: float = 1.0,
) -> list[Board]:
    """The boards of round ``round_`` (1-based) of ``rounds``, in table order, byes last.

    A Swiss round pairs only the players still playing (by py4swiss, whose Dutch engine gives
    the pairings bbpPairings gives); a round robin follows its table for everyone (a
    withdrawn player's boards are the caller's to forfeit).

    Raises:
        PairingFailed: the library finds no legal pairing.
    """
    by_seed = {p.seed: p for p in players}
    if format_ == Format.ROUND_ROBIN:
        entries = [_entry(p) for p in players]
        raw = generate_pairings(
            "round_robin", entries, set(), round_, rounds, cycles=cycles, bye_type="U"
        )
        pairs = [(int(p["white_id"]), p.get("black_id")) for p in raw]
        seats = [(white, None if black is None else int(black)) for white, black in pairs]
    else:
        trf = swiss_history(players, history, rounds=rounds, bye_points=bye_points)
        try:
            found = DutchEngine.generate_pairings(trf)
        except PairingError as error:
            raise PairingFailed(f"round {round_}: {error}") from error
        seats = [(p.white, p.black or None) for p in found]
        seated = [seed for pair in seats for seed in pair if seed is not None]
        if sorted(seated) != sorted(p.seed for p in players if not p.withdrawn):
            raise PairingFailed(f"round {round_}: the library left players unpaired")
    return [
        Board(by_seed[pink].user_id, None if blue is None else by_seed[blue].user_id)
        for pink, blue in seats
    ]


def _entry(player: Seeded) -> dict[str, object]:
    """A player as caissify-pairings' round robin takes them."""
    return {
        "id": player.seed,
        "name": str(player.user_id),
        "score": 0.0,
        "rating": round(player.rating),
        "starting_number": player.seed,
        "pairing_number": player.seed,
        "color_hist": [],
        "float_history": [],
        "bye_count": 0,
    }


def swiss_history(
    players: Sequence[Seeded], history: Sequence[PairingRow], *, rounds: int, bye_points: float
) -> ParsedTrf:
    """The tournament so far as a FIDE tournament report (TRF), py4swiss's input: each
    player's result, colour and opponent in each round; the withdrawn left out of the next.

    A board decided without a game (a forfeit) counts as a forfeit (``+``/``-``: no colour,
    no game played for the rules of the Dutch system), but its two players are still never
    paired again (a forbidden pair): no pair meets twice in our Swiss."""
    seed_of = {p.user_id: p.seed for p in players}
    results: dict[int, list[RoundResult]] = {p.seed: [] for p in players}
    tenths = dict.fromkeys(results, 0)
    forbidden: set[tuple[int, int]] = set()
    for round_ in sorted({row.round for row in history}):
        for row in (r for r in history if r.round == round_):
            for user_id, opponent, points, colour in _sides(row, bye_points):
                seed = seed_of[user_id]
                other = 0 if opponent is None else seed_of[opponent]
                token = _token(points, bye=opponent is None, played=colour != _NONE)
                results[seed].append(RoundResult(id=other, color=colour, result=token))
                tenths[seed] += round(points * 10)
                if other and colour == _NONE:
                    forbidden.add((min(seed, other), max(seed, other)))
        for done in results.values():
            if len(done) < round_:  # withdrawn before this round: not paired in it
                done.append(RoundResult(id=0, color=_NONE, result=ResultToken.ZERO_POINT_BYE))
    x_section = XSection(
        number_of_rounds=rounds,
        zeroed_ids={p.seed for p in players if p.withdrawn},
        forbidden_pairs=forbidden,
    )
    x_section.scoring_point_system.apply_code(
        ScoringPointSystemCode.PAIRING_ALLOCATED_BYE, round(bye_points * 10)
    )
    sections = [
        PlayerSection(
            code=PlayerCode.PLAYER,
            starting_number=p.seed,
            name=str(p.user_id),
            fide_rating=round(p.rating),
            points_times_ten=tenths[p.seed],
            rank=p.seed,
            results=results[p.seed],
        )
        for p in sorted(players, key=lambda p: p.seed)
    ]
    return ParsedTrf(player_sections=sections, x_section=x_section)


def _token(points: float, *, bye: bool, played: bool) -> ResultToken:
    """A result as the tournament report writes it."""
    if bye:
        return ResultToken.PAIRING_ALLOCATED_BYE
    if not played:
        return ResultToken.FORFEIT_WIN if points >= 1 else ResultToken.FORFEIT_LOSS
    return ResultToken.WIN if points >= 1 else ResultToken.DRAW if points else ResultToken.LOSS


def _sides(row: PairingRow, bye_points: float) -> list[tuple[int, int | None, float, ColorToken]]:
    """Each side of a decided board: (player, opponent, points, colour; no colour for a board
    decided without a game)."""
    played = row.game_id is not None and row.outcome not in _UNPLAYED
    if row.blue_id is None:
        points = bye_points if row.pink_points is None else row.pink_points
        return [(row.pink_id, None, points, ColorToken.BYE_OR_NOT_PAIRED)]
    pink, blue = (ColorToken.WHITE, ColorToken.BLACK) if played else (_NONE, _NONE)
    return [
        (row.pink_id, row.blue_id, row.pink_points or 0.0, pink),
        (row.blue_id, row.pink_id, row.blue_points or 0.0, blue),
    ]


_NONE = ColorToken.BYE_OR_NOT_PAIRED
# How a board decided without a game played is stored (``standings.Outcome``'s values).
_UNPLAYED = frozenset({"forfeit", "double_loss"})


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the bot's own process handles Ctrl-C


# Fields this small are paired in-process (milliseconds); larger ones in a worker process, so
# that a round of 256 (a second or so of py4swiss's Python around its compiled matching,
# bench/tournament.py) never stalls the bot.
IN_PROCESS = 16


class Pairer:
    """Pairs rounds off the event loop: small fields at once, larger ones in one worker
    process (started on first use)."""

    def __init__(self) -> None:
        self._pool: Executor | None = None

    async def pair(
        self,
        format_: Format,
        players: Sequence[Seeded],
        history: Sequence[PairingRow],
        **round_: int | float,
    ) -> list[Board]:
        """``pair_round`` (the same arguments), in the worker for a large field.

        Raises:
            PairingFailed: see ``pair_round``.
        """
        call = functools.partial(pair_round, format_, list(players), list(history), **round_)  # type: ignore[arg-type]
        if len(players) <= IN_PROCESS:
            return call()
        if self._pool is None:
            self._pool = new_pool(
                processes=True, workers=1, name="pairing", initializer=_ignore_interrupts
            )
        return await run_or_thread(self._pool, call, restart=self.close)

    def close(self) -> None:
        """Stop the worker (a pairing under way is dropped; its step is retried)."""
        pool, self._pool = self._pool, None
        shut(pool)
