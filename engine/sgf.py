"""Game records as SGF, in the form the Dots community tools read and write (rule 10.2).

``FF[4]GM[40]SZ[W:H]``; Pink is ``W`` (the first player), Blue is ``B``; a point is two letters
(``a``-``z`` then ``A``-``Z``), the column from the left and the row from the top. Our own actions
that are not dots are written as nodes the other tools skip: an empty move ``W[]`` is an end, and
``XT[]`` on it marks a time-out; a resignation is the result ``RE[W+R]``/``RE[B+R]``; a draw
by agreement is ``RE[0]`` on a game the moves leave unfinished, with ``XD[W]``/``XD[B]`` naming
the player who accepted it.
"""

from __future__ import annotations

import re

from engine.errors import DotsError
from engine.game import Action, ActionKind, Game
from engine.options import Rules, Start
from engine.point import Player, Point

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_COLOUR = {Player.PINK: "W", Player.BLUE: "B"}
_PLAYER = {"W": Player.PINK, "B": Player.BLUE}
_PROPERTY = re.compile(r"([A-Za-z]+)((?:\s*\[(?:\\.|[^\]\\])*\])+)")
_VALUE = re.compile(r"\[((?:\\.|[^\]\\])*)\]")


class SgfError(DotsError):
    """The text is not an SGF record of a Dots game this engine can replay."""


def _point_code(point: Point, height: int) -> str:
    return _LETTERS[point.x] + _LETTERS[height - 1 - point.y]


def _code_point(code: str, height: int) -> Point:
    if len(code) < 2 or code[0] not in _LETTERS or code[1] not in _LETTERS:
        raise SgfError(f"`{code}` is not an SGF point")
    return Point(_LETTERS.index(code[0]), height - 1 - _LETTERS.index(code[1]))


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def dumps(game: Game, *, pink: str | None = None, blue: str | None = None) -> str:
    """The game as SGF text; ``pink`` and ``blue`` are the players' names."""
    height = game.height
    head = [f"FF[4]GM[40]CA[UTF-8]AP[dots-discord:1]SZ[{game.width}:{height}]"]
    head.append(f"RU[{game.rules}]")
    if game.start is not Start.EMPTY:
        head.append(f"XS[{game.start}]")
    if pink:
        head.append(f"PW[{_escape(pink)}]")
    if blue:
        head.append(f"PB[{_escape(blue)}]")
    result = game.result
    if result is not None:
        head.append(f"RE[{_result_code(result.winner, result.pink, result.blue, result.reason)}]")
    last = game.record.actions[-1:]
    if last and last[0].kind == ActionKind.DRAW:
        head.append(f"XD[{_COLOUR[last[0].player]}]")
    record = game.record
    for player in Player:
        setup = [p for who, p in record.start_dots if who is player]
        if setup:
            head.append(
                "A" + _COLOUR[player] + "".join(f"[{_point_code(p, height)}]" for p in setup)
            )
    nodes = [";" + "".join(head)]
    for action in record.actions:
        colour = _COLOUR[action.player]
        if action.kind == ActionKind.DOT and action.point is not None:
            nodes.append(f";{colour}[{_point_code(action.point, height)}]")
        elif action.kind == ActionKind.END:
            nodes.append(f";{colour}[]")
        elif action.kind == ActionKind.TIME:
            nodes.append(f";{colour}[]XT[]")
        # A resignation and a draw are root properties (RE, XD): each is the last action.
    return "(" + "".join(nodes) + ")"


def _result_code(winner: Player | None, pink: int, blue: int, reason: str) -> str:
    if winner is None:
        return "0"
    colour = _COLOUR[winner]
    if reason == "resigned":
        return f"{colour}+R"
    return f"{colour}+{abs(pink - blue)}"


def loads(text: str) -> Game:
    """The game an SGF record describes, replayed move by move in the order given.

    Reads our own records and those of the community tools (zagram.org, oppai-rs): capture
    chains after a move (``W[ab.abbccbba]``) are ignored, ``AW``/``AB`` are starting dots, and
    moves need not alternate.

    Raises:
        SgfError: the text is not an SGF Dots record, or a move in it is illegal.
    """
    body = text.strip()
    if not body.startswith("(") or ";" not in body:
        raise SgfError("this is not an SGF record: it should start with `(;`")
    nodes = [_properties(node) for node in _split_nodes(body)]
    if not nodes:
        raise SgfError("the SGF record has no nodes")
    root = nodes[0]
    game_type = root.get("GM", ["40"])[0]
    if game_type != "40":
        raise SgfError(f"GM[{game_type}] is not a game of Dots (GM[40])")
    width, height = _size(root.get("SZ", ["39:32"])[0])
    rules = Rules.GROUNDING if root.get("RU", [""])[0] == Rules.GROUNDING else Rules.STANDARD
    start = root.get("XS", [Start.EMPTY])[0]
    setup: list[tuple[Player, Point]] = []
    for key, player in (("AW", Player.PINK), ("AB", Player.BLUE)):
        setup.extend((player, _code_point(code, height)) for code in root.get(key, []))
    try:
        game = Game(
            width,
            height,
            rules=rules,
            start=start if setup or start == Start.EMPTY else Start.EMPTY,
            start_dots=tuple(setup),
            any_size=True,
        )
        resigned: Player | None = None
        result = root.get("RE", [""])[0]
        if result.endswith("+R") and result[:1] in _PLAYER:
            resigned = _PLAYER[result[0]].opponent
        for node in nodes:
            for key in ("W", "B"):
                for value in node.get(key, []):
                    action = _action(key, value, "XT" in node, height)
                    if not game.is_over:
                        game.apply(action)
        if resigned is not None and not game.is_over:
            game.apply(Action(ActionKind.RESIGN, resigned))
        elif result in ("0", "Draw") and not game.is_over:
            # Drawn while moves were still left: agreed (by XD's player, else the one to move).
            accepted = _PLAYER.get(root.get("XD", [""])[0]) or game.to_move
            assert accepted is not None
            game.apply(Action(ActionKind.DRAW, accepted))
    except SgfError:
        raise
    except ValueError as error:
        raise SgfError(f"the record cannot be replayed: {error}") from error
    return game


def _action(key: str, value: str, timed_out: bool, height: int) -> Action:
    player = _PLAYER[key]
    code = value.split(".", 1)[0].strip()
    if not code:
        return Action(ActionKind.TIME if timed_out else ActionKind.END, player)
    return Action(ActionKind.DOT, player, _code_point(code, height))


def _size(value: str) -> tuple[int, int]:
    parts = value.split(":")
    try:
        if len(parts) == 1:
            return int(parts[0]), int(parts[0])
        return int(parts[0]), int(parts[1])
    except ValueError:
        raise SgfError(f"SZ[{value}] is not a board size") from None


def _split_nodes(body: str) -> list[str]:
    """The nodes of the main line: the text between ``;`` outside brackets.

    The main line is the first variation at every branch (SGF FF[4]): a tree's nodes come
    before its variations, so the main line goes on into the first ``(`` and ends at the
    first ``)``; the other variations and any later game in the file are skipped.
    """
    nodes: list[str] = []
    current: list[str] = []
    in_value = False
    escaped = False
    for char in body:
        if in_value:
            current.append(char)
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == "]":
                in_value = False
            continue
        if char == "[":
            in_value = True
            current.append(char)
        elif char == ")":
            break
        elif char == ";":
            if current:
                nodes.append("".join(current))
            current = []
        elif char != "(":
            current.append(char)
    if current and "".join(current).strip():
        nodes.append("".join(current))
    return nodes


def _properties(node: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for match in _PROPERTY.finditer(node):
        values = [
            v.replace("\\]", "]").replace("\\\\", "\\") for v in _VALUE.findall(match.group(2))
        ]
        found.setdefault(match.group(1).upper(), []).extend(values)
    return found
