"""Strength and speed of the computer player's levels (issue 7): matches on 10x10.

First prints what a playout costs with and without the local preference and the ring check.
Then plays hard against medium, medium against easy and easy against a uniformly random mover,
N games each with colours alternating, in a pool of worker processes. Prints the stronger side's
wins, the draws and the losses, and the max and mean seconds a move for each level.
Targets: each stronger level wins at least 80%; hard takes at most 2 s a move.
Run: python bench/ai.py [--games N] [--workers W] [--pairs hard-medium,medium-easy,easy-random]
       [--set medium.iterations=400 --set easy.rescues=0]   (to try a level's settings)
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ai
from ai.playout import Geometry, Policy, playout
from engine import Board, Game, Player

RANDOM = "random"


@dataclass(frozen=True)
class GameOutcome:
    """One game of a match: who won (a level name, or None for a draw), and each level's
    seconds per move."""

    strong: str
    weak: str
    winner: str | None
    score: str
    reason: str
    moves: int
    seconds: dict[str, list[float]]
    capped: dict[str, int]


def play(
    strong: str,
    weak: str,
    *,
    number: int,
    seed: int,
    size: int,
    levels_by_name: dict[str, ai.Level],
) -> GameOutcome:
    """Play game ``number`` of a match; the stronger level is Pink in even-numbered games."""
    pink, blue = (strong, weak) if number % 2 == 0 else (weak, strong)
    levels = {Player.PINK: pink, Player.BLUE: blue}
    game = Game(size, size)
    rng = random.Random(seed * 7919 + number)
    seconds: dict[str, list[float]] = defaultdict(list)
    capped: dict[str, int] = defaultdict(int)
    moves = 0
    while not game.is_over:
        mover = game.to_move
        assert mover is not None
        level = levels[mover]
        started = time.perf_counter()
        if level == RANDOM:
            point = rng.choice(list(game.board.free_points()))
            game.place(point, mover)
        else:
            decision = ai.choose(game, levels_by_name[level], seed=rng.randrange(2**32))
            seconds[level].append(time.perf_counter() - started)
            # A search cut short by the level's time cap ran fewer iterations than its budget
            # (a dot played alone runs no search: 0 iterations).
            if 0 < decision.iterations < levels_by_name[level].iterations:
                capped[level] += 1
            game.apply(decision.action(mover))
        moves += 1
    result = game.result
    assert result is not None
    winner = levels[result.winner] if result.winner is not None else None
    return GameOutcome(
        strong,
        weak,
        winner,
        f"{result.pink}-{result.blue}",
        result.reason,
        moves,
        dict(seconds),
        dict(capped),
    )


def playout_cost(policy: Policy, size: int, count: int = 300) -> float:
    """Milliseconds per playout from the empty board, the median of batches of 30."""
    rng = random.Random(1)
    batches = []
    for _ in range(count // 30):
        started = time.perf_counter()
        for _ in range(30):
            board = Board(size, size)
            playout(board, 1, alone=False, rng=rng, policy=policy, geometry=Geometry(board))
        batches.append((time.perf_counter() - started) / 30 * 1000)
    return sorted(batches)[len(batches) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", type=int, default=10)
    parser.add_argument("--pairs", default="hard-medium,medium-easy,easy-random")
    parser.add_argument("--progress", action="store_true", help="a line per game as it ends")
    parser.add_argument("--every", type=int, default=0, help="a table every N games")
    parser.add_argument("--set", action="append", default=[], help="level.field=value")
    args = parser.parse_args()
    levels = dict(ai.LEVELS)
    for setting in args.set:
        target, value = setting.split("=")
        name, field = target.split(".")
        kind = type(getattr(levels[name], field, None) or getattr(levels[name].policy, field))
        if hasattr(levels[name], field):
            levels[name] = dataclasses.replace(levels[name], **{field: kind(float(value))})
        else:
            policy = dataclasses.replace(levels[name].policy, **{field: kind(float(value))})
            levels[name] = dataclasses.replace(levels[name], policy=policy)
    for name in ai.LEVELS:
        print(levels[name], flush=True)
    pairs = [tuple(p.split("-")) for p in args.pairs.split(",")]
    print(f"playout from the empty {args.size}x{args.size} board, ms (median of batches):")
    for label, policy in (
        ("uniform, no ring check", Policy(local=0.0, avoid_rings=False)),
        ("local 0.5, no ring check", Policy(local=0.5, avoid_rings=False)),
        ("local 0.5, ring check (the levels)", Policy(local=0.5, avoid_rings=True)),
    ):
        print(f"  {label:<36} {playout_cost(policy, args.size):.3f}", flush=True)
    started = time.perf_counter()
    outcomes: dict[tuple[str, str], list[GameOutcome]] = defaultdict(list)
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        # Game n of every pairing before game n + 1 of any: an interrupted run still has
        # every pairing, and a table is printed every --every games.
        futures = [
            pool.submit(
                play,
                strong,
                weak,
                number=n,
                seed=args.seed,
                size=args.size,
                levels_by_name=levels,
            )
            for n in range(args.games)
            for strong, weak in pairs
        ]
        for done, future in enumerate(futures, 1):
            outcome = future.result()
            played = outcomes[(outcome.strong, outcome.weak)]
            played.append(outcome)
            if args.progress:
                print(
                    f"  {outcome.strong}-{outcome.weak} #{len(played)}: winner {outcome.winner},"
                    f" {outcome.score} ({outcome.reason}, {outcome.moves} moves)",
                    flush=True,
                )
            if done < len(futures) and args.every and not done % args.every:
                report(outcomes, pairs, args, time.perf_counter() - started)
    report(outcomes, pairs, args, time.perf_counter() - started)


def report(
    outcomes: dict[tuple[str, str], list[GameOutcome]],
    pairs: list[tuple[str, ...]],
    args: argparse.Namespace,
    wall: float,
) -> None:
    """Print the table of the games played so far."""
    seconds: dict[str, list[float]] = defaultdict(list)
    capped: dict[str, int] = defaultdict(int)
    print()
    print(
        f"{args.size}x{args.size}, standard rules, empty start, up to {args.games} games a pairing"
    )
    print(
        f"{'stronger vs weaker':<20} {'games':>5} {'wins':>5} {'draws':>6} {'losses':>7}"
        f" {'win %':>6} {'ended/full':>11}"
    )
    for strong, weak in pairs:
        games = outcomes[(strong, weak)]
        if not games:
            continue
        wins = sum(g.winner == strong for g in games)
        draws = sum(g.winner is None for g in games)
        ended = sum(g.reason == "ended" for g in games)
        print(
            f"{strong + ' vs ' + weak:<20} {len(games):>5} {wins:>5} {draws:>6}"
            f" {len(games) - wins - draws:>7} {100 * wins / len(games):>5.0f}%"
            f" {ended:>5}/{len(games) - ended:<5}"
        )
        for g in games:
            for level, values in g.seconds.items():
                seconds[level].extend(values)
                capped[level] += g.capped.get(level, 0)
    print()
    print(f"{'level':<8} {'moves':>6} {'max s/move':>11} {'mean s/move':>12} {'capped':>7}")
    for level in ai.LEVELS:
        values = seconds.get(level)
        if values:
            print(
                f"{level:<8} {len(values):>6} {max(values):>11.3f}"
                f" {sum(values) / len(values):>12.3f} {capped[level]:>7}"
            )
    print("capped: moves whose search the time cap cut short (not reproducible by seed)")
    print(f"wall time {wall:.0f} s with {args.workers} workers", flush=True)


if __name__ == "__main__":
    main()
