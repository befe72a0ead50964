"""Strength and speed of the computer player's levels.

First prints playouts per second before (the old search's playouts, on the engine's Board) and
after (ai/playout.py on ai/field.py), side by side, on 10x10, 20x20 and 39x32 (--speed-sizes;
each side runs in a process of its own, in batches taken in turn so a shared machine's load
hits all alike). With --baseline REF it also measures the playouts of git commit REF's
computer and engine the same way and prints this tree's against them, with the ratios.
Then plays the pairings, N games each with colours alternating, in a pool of worker processes,
and prints the stronger side's wins, draws and losses and each level's seconds per move.
Level names: easy, medium, hard (ai/levels.py), ``old-hard`` (hard as it was before the
computer got its own Field, AMAF and priors: the ``ai`` package at git commit
bench/baseline.py OLD_SEARCH, checked out into a temporary worktree and run on this tree's
engine in a process of its own) and ``random`` (a uniformly random mover).
--seconds S gives every search S seconds a move instead of its level's iteration budget
(equal time for both sides, as in --pairs hard-old-hard --seconds 1).
Targets: each stronger level wins at least 80%; the new hard beats old-hard at least 75%.
Run: python bench/ai.py [--games N[,M]] [--workers W] [--size 10|39x32[,20]] [--seconds 1]
       [--record FILE]   (each game as it ends, one JSON line; a rerun with the same FILE
                          and settings plays only the games not in it, then prints all)
       [--pairs hard-old-hard,hard-medium,medium-easy,easy-random]
       [--set medium.iterations=400 --set easy.rescues=0]   (to try a level's settings)
       [--like hard2=hard --set hard2.reuse=0 --pairs hard-hard2]   (a level against a variant)
       [--baseline REF [--speed-seconds 3]]   (playouts per second against another commit)
       [--old REF]   (old-hard is hard as it was at commit REF: the new hard against the last)
   hard against old-hard, in one run (one pool of workers, the long 20x20 games first):
                  python bench/ai.py --pairs hard-old-hard --seconds 1 --size 20,10 --games 40,100
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import random
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from baseline import OLD_SEARCH, ROOT, Tree, checkout, interleaved, ratio

import ai
import ai.kernel
from ai import book, collector
from engine import Action, Game, Player, Start

RANDOM = "random"
OLD = "old-hard"


@dataclass(frozen=True)
class GameOutcome:
    """One game of a match: who won (a level name, or None for a draw), and each level's
    seconds per move."""

    strong: str
    weak: str
    number: int
    size: str
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
    size: str,
    levels_by_name: dict[str, ai.Level],
    seconds: float | None = None,
    start: str = "empty",
    old_search: Path | None = None,
) -> GameOutcome:
    """Play game ``number`` of a match; the stronger level is Pink in even-numbered games.

    ``old_search``: the tree whose ``ai`` plays ``old-hard`` (needed when it plays)."""
    pink, blue = (strong, weak) if number % 2 == 0 else (weak, strong)
    levels = {Player.PINK: pink, Player.BLUE: blue}
    width, _, height = size.partition("x")
    game = Game(int(width), int(height or width), start=start, seed=seed * 7919 + number)
    rng = random.Random(seed * 7919 + number)
    timings: dict[str, list[float]] = defaultdict(list)
    capped: dict[str, int] = defaultdict(int)
    # The old search's process is started (its packages imported, its compiled kernel loaded
    # where it has one) before any clock runs, and so is this tree's kernel (compiled at the
    # first game, like the old one's).
    old = _old_tree(old_search) if OLD in levels.values() and old_search is not None else None
    ai.kernel.warm_up(wait=True)
    moves = 0
    while not game.is_over:
        mover = game.to_move
        assert mover is not None
        level = levels[mover]
        started = time.perf_counter()
        if level == RANDOM:
            point = rng.choice(list(game.board.free_points()))
            game.place(point, mover)
        elif level == OLD:
            assert old is not None, "old-hard plays from a checkout of OLD_SEARCH"
            kind, point, iterations, budget = old.ask(
                "old_choose", record=game.record, seed=rng.randrange(2**32), seconds=seconds
            )
            timings[level].append(time.perf_counter() - started)
            if seconds is None and 0 < iterations < budget:
                capped[level] += 1
            game.apply(Action(kind, mover, point))
        else:
            decision = ai.choose(
                game, levels_by_name[level], seed=rng.randrange(2**32), seconds=seconds
            )
            timings[level].append(time.perf_counter() - started)
            # A search cut short by the level's time cap ran fewer iterations than its budget
            # (a dot played alone runs no search: 0 iterations).
            if seconds is None and 0 < decision.iterations < levels_by_name[level].iterations:
                capped[level] += 1
            game.apply(decision.action(mover))
        moves += 1
    result = game.result
    assert result is not None
    winner = levels[result.winner] if result.winner is not None else None
    return GameOutcome(
        strong,
        weak,
        number,
        size,
        winner,
        f"{result.pink}-{result.blue}",
        result.reason,
        moves,
        dict(timings),
        dict(capped),
    )


_OLD_TREES: dict[Path, Tree] = {}


def _old_tree(old_search: Path) -> Tree:
    """This worker's process of the old search: the ``ai`` of ``old_search`` on this tree's
    engine, started at its first game and kept for the worker's life (it ends with it)."""
    tree = _OLD_TREES.get(old_search)
    if tree is None:
        tree = _OLD_TREES[old_search] = Tree(ROOT, ai_root=old_search)
        tree.ask("where")  # its imports done and its compiled kernel loaded
    return tree


def speed_table(
    sizes: list[str], old_search: Path, *, seconds: float, baseline: tuple[str, Path] | None
) -> None:
    """Print the playouts per second from the empty board, each side in a process of its own
    and all sides' batches in turn: before (the old search's playouts on the engine's Board),
    after (a Field, the same policy), after with the levels' policy (urgent answers); with
    ``baseline`` (a commit and its tree) also that tree's two after columns, and the ratios."""
    print("playouts per second from the empty board (before: the old search on the engine's")
    print("Board, policy local=0.5; after: Field, same policy; after+urgent: Field, the levels'")
    print(f"policy), {seconds:g} s of batches a column")
    header = f"{'size':<7} {'before':>8} {'after':>8} {'x':>5} {'after+urgent':>13}"
    if baseline is not None:
        ref = baseline[0][:10]
        header += f" | {ref + ' after':>17} {ref + ' +urgent':>19}"
    print(header)
    with ExitStack() as stack:
        old = stack.enter_context(Tree(ROOT, ai_root=old_search))
        here = stack.enter_context(Tree(ROOT))
        there = stack.enter_context(Tree(baseline[1])) if baseline is not None else None
        for size in sizes:
            width, height = (int(n) for n in size.split("x"))
            kwargs = {"width": width, "height": height}
            sides = [
                (old, "old_playouts", kwargs),
                (here, "field_playouts", {**kwargs, "urgent": False}),
                (here, "field_playouts", {**kwargs, "urgent": True}),
            ]
            if there is not None:
                sides += [
                    (there, "field_playouts", {**kwargs, "urgent": False}),
                    (there, "field_playouts", {**kwargs, "urgent": True}),
                ]
            figures = interleaved(sides, seconds)
            before, after, urgent = (count / spent for count, spent, _ in figures[:3])
            line = f"{size:<7} {before:>8.1f} {after:>8.1f} {after / before:>5.2f} {urgent:>13.1f}"
            if there is not None:
                ref_after, ref_urgent = (count / spent for count, spent, _ in figures[3:])
                line += f" | {ref_after:>17.1f} {ref_urgent:>19.1f}"
            print(line, flush=True)
            if baseline is not None:
                ref = baseline[0]
                print(f"        after, this tree / {ref}: {ratio(figures[1], figures[3])}")
                print(f"        after+urgent, this tree / {ref}: {ratio(figures[2], figures[4])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", default="100", help="N a pairing, or N,M,... one per --size")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--size", default="10", help="10 (square) or 39x32; several: 20,10 (one pool)"
    )
    parser.add_argument("--start", default="empty", choices=[s.value for s in Start])
    parser.add_argument("--pairs", default="hard-old-hard,hard-medium,medium-easy,easy-random")
    parser.add_argument("--seconds", type=float, default=None, help="seconds a move, all sides")
    parser.add_argument("--speed-sizes", default="10x10,20x20,39x32", help="'' to skip")
    parser.add_argument("--speed-seconds", type=float, default=1.0, help="a column and size")
    parser.add_argument(
        "--baseline", metavar="REF", help="playouts per second against this git commit too"
    )
    parser.add_argument(
        "--old",
        metavar="REF",
        default=OLD_SEARCH,
        help=f"the commit whose hard plays old-hard (default {OLD_SEARCH}; e.g. the last hard)",
    )
    parser.add_argument("--progress", action="store_true", help="a line per game as it ends")
    parser.add_argument("--record", type=Path, help="a JSON line a game; a rerun resumes")
    parser.add_argument("--every", type=int, default=0, help="a table every N games")
    parser.add_argument("--set", action="append", default=[], help="level.field=value")
    parser.add_argument(
        "--like", action="append", default=[], help="new=level: a copy of a level to --set"
    )
    parser.add_argument(
        "--derive-book", type=int, default=0, help="N: print ai/book.py's lines, N iterations"
    )
    parser.add_argument(
        "--times", default="", help="WxH: each level's seconds a move there, then stop"
    )
    args = parser.parse_args()
    if args.times:
        move_times(args.times)
        return
    if args.derive_book:
        derive_book(args.derive_book)
        return
    levels = dict(ai.LEVELS)
    for like in args.like:
        new, base = like.split("=")
        levels[new] = dataclasses.replace(levels[base], name=new)
    for setting in args.set:
        target, value = setting.split("=")
        name, field = target.split(".")
        kind = type(getattr(levels[name], field, None) or getattr(levels[name].policy, field))
        if hasattr(levels[name], field):
            levels[name] = dataclasses.replace(levels[name], **{field: kind(float(value))})
        else:
            policy = dataclasses.replace(levels[name].policy, **{field: kind(float(value))})
            levels[name] = dataclasses.replace(levels[name], policy=policy)
    for level in levels.values():
        print(level, flush=True)
    pairs = [_pair(p, levels) for p in args.pairs.split(",") if p]
    # The checkouts outlive the matches' worker pool, whose old-hard runs from one of them.
    with ExitStack() as trees:
        old_search = None
        if args.speed_sizes or any(OLD in pair for pair in pairs):
            old_search = trees.enter_context(checkout(args.old))
        if args.speed_sizes:
            assert old_search is not None
            baseline = None
            if args.baseline:
                baseline = (args.baseline, trees.enter_context(checkout(args.baseline)))
            speed_table(
                args.speed_sizes.split(","),
                old_search,
                seconds=args.speed_seconds,
                baseline=baseline,
            )
        play_matches(args, pairs, levels, old_search)


def play_matches(
    args: argparse.Namespace,
    pairs: list[tuple[str, str]],
    levels: dict[str, ai.Level],
    old_search: Path | None,
) -> None:
    """Play the pairings (the games of ``args.record`` read, not replayed) and print the
    tables; ``old_search`` is the tree whose ``ai`` plays old-hard."""
    sizes = args.size.split(",")
    counts = [int(n) for n in args.games.split(",")]
    if len(counts) == 1:
        counts *= len(sizes)
    if len(counts) != len(sizes):
        raise SystemExit("--games: one count, or one per --size")
    games = dict(zip(sizes, counts, strict=True))
    started = time.perf_counter()
    outcomes: dict[tuple[str, str, str], list[GameOutcome]] = defaultdict(list)
    settings = {"seed": args.seed, "seconds": args.seconds, "start": args.start, "set": args.set}
    if args.old != OLD_SEARCH:
        settings["old"] = args.old
    recorded = _recorded(args.record, settings) if args.record else {}
    for outcome in recorded.values():
        outcomes[(outcome.size, outcome.strong, outcome.weak)].append(outcome)
    if recorded:
        print(f"{len(recorded)} games read from {args.record}; playing the others", flush=True)
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        # Game n of every size and pairing before game n + 1 of any (the sizes in the order
        # given: the longest games first keep the pool busy to the end): an interrupted run
        # still has every pairing, and a table is printed every --every games.
        futures = [
            (
                size,
                pool.submit(
                    play,
                    strong,
                    weak,
                    number=n,
                    seed=args.seed,
                    size=size,
                    levels_by_name=levels,
                    seconds=args.seconds,
                    start=args.start,
                    old_search=old_search,
                ),
            )
            for n in range(max(counts))
            for size in sizes
            if n < games[size]
            for strong, weak in pairs
            if (size, strong, weak, n) not in recorded
        ]
        for done, (size, future) in enumerate(futures, 1):
            outcome = future.result()
            played = outcomes[(size, outcome.strong, outcome.weak)]
            played.append(outcome)
            if args.record:
                with args.record.open("a") as record:
                    line = {"settings": settings, **dataclasses.asdict(outcome)}
                    record.write(json.dumps(line) + "\n")
            if args.progress:
                print(
                    f"  {size} {outcome.strong}-{outcome.weak} #{len(played)}: winner"
                    f" {outcome.winner}, {outcome.score} ({outcome.reason}, {outcome.moves} moves)",
                    flush=True,
                )
            if done < len(futures) and args.every and not done % args.every:
                for shown in sizes:
                    report(outcomes, pairs, args, size=shown, count=games[shown], levels=levels)
    for size in sizes:
        report(outcomes, pairs, args, size=size, count=games[size], levels=levels)
    print(
        f"wall time {time.perf_counter() - started:.0f} s with {args.workers} workers", flush=True
    )


def _recorded(
    path: Path, settings: dict[str, object]
) -> dict[tuple[str, str, str, int], GameOutcome]:
    """The games of an earlier run of the same settings in ``path`` (a line each, as
    ``--record`` writes them), by (size, stronger, weaker, game number)."""
    if not path.exists():
        return {}
    games: dict[tuple[str, str, str, int], GameOutcome] = {}
    for line in path.read_text().splitlines():
        fields = json.loads(line)
        if fields.pop("settings") == settings:
            game = GameOutcome(**fields)
            games[(game.size, game.strong, game.weak, game.number)] = game
    return games


def move_times(size: str, positions: int = 3) -> None:
    """Print each level's seconds a move on a ``size`` board, in random positions after 0,
    100, 300 and 600 random dots, as many of them as leave a quarter of the board free (the
    level's own budget and time cap, as in the bot). Beside them, hard's mean iterations a
    move as the bot plays, with Python's cyclic collector kept off its tree (ai/collector.py),
    and in the same positions with the collector running through its search, and their ratio.
    """
    width, height = (int(n) for n in size.split("x"))
    ai.kernel.warm_up(wait=True)  # the steady state: the compiled kernel loaded
    kept_off = collector.paused
    print(f"seconds a move on {size}, {positions} positions each (max / mean);")
    print("hard's iterations a move, the collector kept off / running through the search")
    print(f"{'dots':>5} " + " ".join(f"{name:>15}" for name in ai.LEVELS) + f"{'iterations':>17}")
    rng = random.Random(5)
    for dots in (n for n in (0, 100, 300, 600) if n <= width * height * 3 // 4):
        spent: dict[str, list[float]] = defaultdict(list)
        iterations: dict[bool, list[int]] = defaultdict(list)
        for _ in range(positions):
            game = Game(width, height)
            for _ in range(dots):
                game.place(rng.choice(list(game.board.free_points())))
            for name in ai.LEVELS:
                seed = rng.randrange(2**32)
                started = time.perf_counter()
                decision = ai.choose(game, name, seed=seed, reuse=False)
                spent[name].append(time.perf_counter() - started)
                if name == "hard":
                    iterations[True].append(decision.iterations)
                    collector.paused = _collector_running
                    try:
                        running = ai.choose(game, name, seed=seed, reuse=False)
                    finally:
                        collector.paused = kept_off
                    iterations[False].append(running.iterations)
        off, on = (sum(iterations[k]) / positions for k in (True, False))
        print(
            f"{dots:>5} "
            + " ".join(
                f"{max(spent[n]):>7.2f} / {sum(spent[n]) / len(spent[n]):<5.2f}" for n in ai.LEVELS
            )
            + f"  {off:>5.0f} / {on:<5.0f} {off / on if on else 1:4.2f}x",
            flush=True,
        )


@contextlib.contextmanager
def _collector_running() -> Iterator[None]:
    """In place of ``collector.paused``: the collector left running through the search."""
    yield


def derive_book(iterations: int, length: int = 3) -> None:
    """Print the opening book's lines (ai/book.py): on the 20x20 reference board, from each
    start, hard searching ``iterations`` a move (no time cap) plays ``length`` moves; each
    is a line. A count, not a time: the same lines on a loaded machine."""
    for start in (Start.CROSS, Start.DOUBLE_CROSS, Start.TRIPLE_CROSS):
        game = Game(book.REFERENCE, book.REFERENCE, start=start)
        print(f"    Start.{start.name}: {{", flush=True)
        for _ in range(length):
            mover = game.to_move
            assert mover is not None
            decision = ai.choose(
                game, "hard", seed=1, iterations=iterations, max_seconds=3600, reuse=False
            )
            assert decision.point is not None
            played = " ".join(a.point.name for a in game.actions if a.point is not None)
            print(
                f'        "{played}": "{decision.point.name}",'
                f"  # {decision.iterations} iterations, value {decision.value:.2f}",
                flush=True,
            )
            game.apply(decision.action(mover))
        print("    },", flush=True)


def _pair(text: str, levels: dict[str, ai.Level]) -> tuple[str, str]:
    """``hard-old-hard`` -> ("hard", "old-hard"): the first dash that leaves two names."""
    names = {*levels, OLD, RANDOM}
    for k, char in enumerate(text):
        if char == "-" and text[:k] in names and text[k + 1 :] in names:
            return text[:k], text[k + 1 :]
    raise SystemExit(f"{text}: a pairing is two of {', '.join(sorted(names))} joined by '-'")


def report(
    outcomes: dict[tuple[str, str, str], list[GameOutcome]],
    pairs: list[tuple[str, str]],
    args: argparse.Namespace,
    *,
    size: str,
    count: int,
    levels: dict[str, ai.Level],
) -> None:
    """Print the table of the games played so far on the ``size`` board."""
    seconds: dict[str, list[float]] = defaultdict(list)
    capped: dict[str, int] = defaultdict(int)
    print()
    budget = f"{args.seconds} s a move each" if args.seconds else "the levels' budgets"
    board = size if "x" in size else f"{size}x{size}"
    print(f"{board}, standard rules, {args.start} start, {budget}, up to {count} a pairing")
    print(
        f"{'stronger vs weaker':<20} {'games':>5} {'wins':>5} {'draws':>6} {'losses':>7}"
        f" {'win %':>6} {'ended/full':>11}"
    )
    for strong, weak in pairs:
        games = outcomes[(size, strong, weak)]
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
    for level in (*levels, OLD):
        values = seconds.get(level)
        if values:
            print(
                f"{level:<8} {len(values):>6} {max(values):>11.3f}"
                f" {sum(values) / len(values):>12.3f} {capped[level]:>7}"
            )
    print(
        "capped: moves whose search the time cap cut short (not reproducible by seed)", flush=True
    )


if __name__ == "__main__":
    main()
