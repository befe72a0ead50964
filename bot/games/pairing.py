"""A tournament's pairings, by the ``caissify-pairings`` library (never our own algorithm):
FIDE Dutch for a Swiss round, FIDE Berger tables for a round robin.

The library is stateless: each call is told the players' history (scores, colours, floats,
byes and who met whom), computed here from the stored pairings. Pink moves first, so Pink is
the library's White. Players are given to it by their starting number (``seed``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import signal
import warnings
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from enum import StrEnum

from caissify_pairings import MissingFloatHistoryWarning, generate_pairings

from bot.storage.rows import PairingRow

log = logging.getLogger(__name__)

# Fields this small are paired in-process (milliseconds); larger ones in a worker process: the
# library's Dutch pairing matches by networkx's pure-Python maximum weight matching, seconds
# for 64 players and minutes for 256 (bench/tournament.py), which must not stall the bot.
IN_PROCESS = 16


class Format(StrEnum):
    """A tournament's format; the values are what the tournaments table stores."""

    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"


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

    A Swiss round pairs only the players still playing; a round robin follows its table for
    everyone (a withdrawn player's boards are the caller's to forfeit).

    Raises:
        PairingFailed: the library finds no legal pairing.
    """
    by_seed = {p.seed: p for p in players}
    if format_ == Format.ROUND_ROBIN:
        entries = [_entry(p, 0.0) for p in players]
        raw = generate_pairings(
            "round_robin", entries, set(), round_, rounds, cycles=cycles, bye_type="U"
        )
    else:
        active = [p for p in players if not p.withdrawn]
        entries, met = _swiss_entries(active, history, bye_points)
        with warnings.catch_warnings():
            # A missing float history would be a bug of ours: fail, not pair silently.
            warnings.simplefilter("error", MissingFloatHistoryWarning)
            try:
                raw = generate_pairings("dutch", entries, met, round_, rounds, bye_value=bye_points)
            except (ValueError, RuntimeError) as error:
                raise PairingFailed(str(error)) from error
        seated = [p["white_id"] for p in raw] + [p["black_id"] for p in raw if p.get("black_id")]
        if sorted(int(s) for s in seated) != sorted(p.seed for p in active):
            raise PairingFailed(f"round {round_}: the library left players unpaired")
    boards = []
    for pairing in sorted(raw, key=lambda p: int(p["table"])):
        pink = by_seed[int(pairing["white_id"])].user_id
        black = pairing.get("black_id")
        boards.append(Board(pink, None if black is None else by_seed[int(black)].user_id))
    return boards


def _entry(player: Seeded, score: float) -> dict[str, object]:
    return {
        "id": player.seed,
        "name": str(player.user_id),
        "score": score,
        "rating": round(player.rating),
        "starting_number": player.seed,
        "pairing_number": player.seed,
        "color_hist": [],
        "float_history": [],
        "bye_count": 0,
    }


def _swiss_entries(
    players: Sequence[Seeded], history: Sequence[PairingRow], bye_points: float
) -> tuple[list[dict[str, object]], set[tuple[int, int]]]:
    """The library's view of each player (score, colours, floats, byes) after the rounds in
    ``history``, and the pairs that met (as starting numbers)."""
    seed_of = {p.user_id: p.seed for p in players}
    entries = {p.user_id: _entry(p, 0.0) for p in players}
    scores = dict.fromkeys(entries, 0.0)
    met: set[tuple[int, int]] = set()
    for round_ in sorted({row.round for row in history}):
        before = dict(scores)
        for row in (r for r in history if r.round == round_):
            for user_id, opponent, points, colour in _sides(row, bye_points):
                if user_id not in entries:
                    continue  # withdrawn: no longer paired
                entry = entries[user_id]
                scores[user_id] += points
                entry["color_hist"].append(colour)  # type: ignore[attr-defined]
                if opponent is None:
                    entry["bye_count"] = int(entry["bye_count"]) + 1  # type: ignore[call-overload]
                    entry["float_history"].append("down")  # type: ignore[attr-defined]
                    continue
                if opponent in seed_of:
                    met.add((seed_of[user_id], seed_of[opponent]))
                mine, theirs = before[user_id], before.get(opponent, 0.0)
                drift = "down" if mine > theirs else "up" if mine < theirs else "none"
                entry["float_history"].append(drift)  # type: ignore[attr-defined]
                if colour == "none" and points >= 1:
                    count = int(entry.get("forfeit_win_count", 0))  # type: ignore[call-overload]
                    entry["forfeit_win_count"] = count + 1
    for user_id, entry in entries.items():
        entry["score"] = scores[user_id]
    return list(entries.values()), met


def _sides(row: PairingRow, bye_points: float) -> list[tuple[int, int | None, float, str]]:
    """Each side of a decided board: (player, opponent, points, colour as the library names
    it: "none" for a board decided without a game)."""
    played = row.game_id is not None
    if row.blue_id is None:
        points = bye_points if row.pink_points is None else row.pink_points
        return [(row.pink_id, None, points, "none")]
    return [
        (row.pink_id, row.blue_id, row.pink_points or 0.0, "white" if played else "none"),
        (row.blue_id, row.pink_id, row.blue_points or 0.0, "black" if played else "none"),
    ]


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the bot's own process handles Ctrl-C


class Pairer:
    """Pairs rounds off the event loop: small fields at once, larger ones in one worker
    process (started on first use)."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

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
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_ignore_interrupts,
            )
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, call)
        except BrokenProcessPool:
            log.warning("the pairing worker died; pairing in a thread")
            self.close()
            return await asyncio.to_thread(call)

    def close(self) -> None:
        """Stop the worker (a pairing under way is dropped; its step is retried)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
