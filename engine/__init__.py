"""The Dots engine: the rules of RULES.md in pure Python (standard library only, no I/O)."""

from engine.board import Base, Board, Placement
from engine.errors import (
    DotsError,
    GameOverError,
    IllegalMoveError,
    InsideBaseError,
    InvalidPointError,
    NotYourTurnError,
    OccupiedError,
    OffBoardError,
    StopNotAllowedError,
)
from engine.game import Action, Game, Record, Result, StopPreview
from engine.point import NAMED_SIZES, Player, Point, column_name, describe_board, parse_size

__all__ = [
    "NAMED_SIZES",
    "Action",
    "Base",
    "Board",
    "DotsError",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "InsideBaseError",
    "InvalidPointError",
    "NotYourTurnError",
    "OccupiedError",
    "OffBoardError",
    "Placement",
    "Player",
    "Point",
    "Record",
    "Result",
    "StopNotAllowedError",
    "StopPreview",
    "column_name",
    "describe_board",
    "parse_size",
]
