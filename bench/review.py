"""What a review costs: the time to review a 10x10, a 20x20 and a 39x32 game at the review's own
budget (ai/review.py: ``iterations_for``), and the game service's first answers (a move's
commit, what a player waits for before the bot answers) while a review runs in its worker
process, against the same answers with no review running.

The games are random legal games (each dot next to an earlier one, so rings and captures
happen); their length is the one given per size. Prints one line per size and a table of the
answers' p50/p99.

Run: nice -n 10 python bench/review.py [--sizes 10 20 39] [--answers 200] [--sample N]

``--pictures DIR`` writes the README's pictures of a review instead (``review-graph.png`` and
``review-turning-point.png``: a hand-made 10x10 game in which Blue leaves six dots to be
captured, reviewed at the review's own budget) and prints the turning points.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent.parent)

from ai.review import estimate, iterations_for, review  # noqa: E402
from bot.games import GameService  # noqa: E402
from bot.games.models import GameOptions  # noqa: E402
from bot.games.reviews import Reviewer  # noqa: E402
from engine import Game, Player, Point, Record  # noqa: E402

# Size (width, height) and moves of the reviewed games.
GAMES = {10: ((10, 10), 70), 20: ((20, 20), 250), 39: ((39, 32), 600)}


def random_game(width: int, height: int, moves: int, seed: int = 1) -> Record:
    """A random legal game: each dot on a free point next to an earlier one when there is
    one (a king step), else anywhere."""
    rng = random.Random(seed)
    game = Game(width, height)
    placed: list[Point] = []
    while len(game.actions) < moves and not game.is_over:
        board = game.board
        near = [
            Point(p.x + dx, p.y + dy)
            for p in placed[-12:]
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            if 0 <= p.x + dx < width and 0 <= p.y + dy < height
        ]
        free = [p for p in near if board.is_free(p)] or list(board.free_points())
        if not free:
            break
        point = rng.choice(free)
        game.place(point)
        placed.append(point)
    return game.record


def review_times(sizes: list[int], sample: int) -> None:
    """Review one game per size in this process (as the worker does) and print the time:
    wall and CPU seconds (the CPU time does not depend on what else the machine runs). With
    ``sample`` > 1 only every ``sample``-th position is searched and the whole review's time
    is extrapolated from them (said so in the line)."""
    for size in sizes:
        (width, height), moves = GAMES[size]
        record = random_game(width, height, moves)
        per = iterations_for(record)
        total = len(record.actions) + 1
        wall, cpu = time.perf_counter(), time.process_time()
        if sample <= 1:
            searched = total
            capped = review(record, seed=1).capped
        else:
            looks = [
                look
                for position in range(0, total, sample)
                for look in estimate(record, position, position + 1, seed=1, iterations=per)
            ]
            searched = len(looks)
            capped = sum(1 for look in looks if 0 < look.iterations < per)
        scale = total / searched
        wall = (time.perf_counter() - wall) * scale
        cpu = (time.process_time() - cpu) * scale
        how = "" if sample <= 1 else f", extrapolated from {searched} positions"
        print(
            f"{width}x{height}, {len(record.actions)} moves: {per} iterations a position,"
            f" {wall:.0f} s wall, {cpu:.0f} s CPU ({cpu / total * 1000:.0f} ms CPU a"
            f" position{how}; {capped} of {searched} searches cut by the time cap)",
            flush=True,
        )


async def answers(service: GameService, count: int) -> list[float]:
    """The seconds of ``count`` moves' commits (two players, a 39x32 game)."""
    options = GameOptions(width=39, height=32, colour="pink", rated=False)
    made = await service.challenge(
        guild_id=1, channel_id=2, challenger_id=11, opponent_id=22, options=options
    )
    view = await service.accept(challenge_id=made.challenge_id, user_id=22)
    rng = random.Random(3)
    free = [Point(x, y) for x in range(39) for y in range(32)]
    rng.shuffle(free)
    times = []
    for n in range(count):
        user = 11 if n % 2 == 0 else 22
        started = time.perf_counter()
        await service.place(game_id=view.game_id, user_id=user, point=free[n].name)
        times.append(time.perf_counter() - started)
        await asyncio.sleep(0.005)
    return times


async def lag(count: int) -> None:
    """The first answers' p50/p99 without and with a review (20x20) running."""
    with tempfile.TemporaryDirectory() as folder:
        service = await GameService.open(Path(folder) / "bench.sqlite3")
        service.reviews.reviewer = Reviewer(processes=True)
        idle = await answers(service, count)
        (width, height), moves = GAMES[20]
        record = random_game(width, height, moves)
        # The review goes through the service's worker, as /review's does.
        options = GameOptions(width=width, height=height, colour="pink", rated=False)
        made = await service.challenge(
            guild_id=1, channel_id=2, challenger_id=33, opponent_id=44, options=options
        )
        view = await service.accept(challenge_id=made.challenge_id, user_id=44)
        for n, action in enumerate(record.actions):
            assert action.point is not None
            user = 33 if n % 2 == 0 else 44
            await service.place(game_id=view.game_id, user_id=user, point=action.point.name)
        await service.resign(game_id=view.game_id, user_id=44)
        task = asyncio.ensure_future(service.review(game_id=view.game_id, user_id=55))
        await asyncio.sleep(2.0)  # the worker has started and searches
        busy = await answers(service, count)
        running = not task.done()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await service.close()
    print(f"first answers (a move's commit), {count} each:")
    for name, values in (("no review", idle), ("a review running", busy)):
        ordered = sorted(values)
        p99 = ordered[min(len(ordered) - 1, round(0.99 * len(ordered)))]
        print(f"  {name:18} p50 {statistics.median(values) * 1000:6.1f} ms"
              f"  p99 {p99 * 1000:6.1f} ms")  # fmt: skip
    print(f"  (the review was still running at the end: {running})")


# The README's game: Blue's six dots C4..E5 in a ring of Pink's that lacks F4; Blue's J2
# leaves it open and Pink's F4 closes it (tests/ai/test_review.py plays the same game).
PICTURE_GAME = [
    "B4",
    "C4",
    "B5",
    "D4",
    "C6",
    "E4",
    "D6",
    "C5",
    "E6",
    "D5",
    "F5",
    "E5",
    "E3",
    "H8",
    "D3",
    "H9",
    "C3",
    "J2",
    "F4",
    "B8",
    "J3",
    "C8",
    "J4",
]
PICTURE_GAME_ID = 12


def pictures(out: Path) -> None:
    """Write the README's pictures of a review into ``out``."""
    from bot.review_text import graph_title, picture_status  # noqa: PLC0415
    from renderer.review import GraphWords, Mark, render_before, render_graph  # noqa: PLC0415

    game = Game(10, 10)
    for name in PICTURE_GAME:
        game.place(name)
    made = review(game.record, seed=PICTURE_GAME_ID)
    names = {Player.PINK: "Ann", Player.BLUE: "Bob"}
    graph = render_graph(
        made.estimates,
        captures=[(c.move, c.player, c.dots) for c in made.captures],
        marks=[Mark(t.move, t.player) for t in made.turning],
        words=GraphWords(graph_title(PICTURE_GAME_ID, names, "en"), "move"),
    )
    out.mkdir(parents=True, exist_ok=True)
    (out / "review-graph.png").write_bytes(graph)
    blunder = next(t for t in made.turning if t.played == Point.parse("J2"))
    turning = render_before(
        game.record,
        blunder.move,
        preferred=blunder.preferred,
        names=names,
        status=picture_status(blunder, "en"),
    )
    (out / "review-turning-point.png").write_bytes(turning)
    print("estimates:", " ".join(f"{e:.2f}" for e in made.estimates))
    for t in made.turning:
        print(f"  move {t.move} {t.player.name} {t.played.name} ({t.before:.2f} -> {t.after:.2f})"
              f", preferred {t.preferred.name if t.preferred else '-'}, wins {t.wins}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="*", default=[10, 20, 39], choices=GAMES)
    parser.add_argument("--answers", type=int, default=200)
    parser.add_argument(
        "--sample", type=int, default=1, help="search every Nth position only and extrapolate"
    )
    parser.add_argument("--pictures", type=Path, help="write the README's pictures there")
    args = parser.parse_args()
    if args.pictures is not None:
        pictures(args.pictures)
        return
    review_times(args.sizes, args.sample)
    asyncio.run(lag(args.answers))


if __name__ == "__main__":
    main()
