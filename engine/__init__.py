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
    OptionError,
    StopNotAllowedError,
)
from engine.game import Action, Game, Record, Result, StopPreview
from engine.options import (
    MAX_SIZE,
    MIN_SIZE,
    Colour,
    EndReason,
    Level,
    Rules,
    Start,
    check_options,
    check_size,
)
from engine.point import NAMED_SIZES, Player, Point, column_name, describe_board, parse_size
from engine.starts import start_dots

__all__ = [
    "MAX_SIZE",
    "MIN_SIZE",
    "NAMED_SIZES",
    "Action",
    "Base",
    "Board",
    "Colour",
    "DotsError",
    "EndReason",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "InsideBaseError",
    "InvalidPointError",
    "Level",
    "NotYourTurnError",
    "OccupiedError",
    "OffBoardError",
    "OptionError",
    "Placement",
    "Player",
    "Point",
    "Record",
    "Result",
    "Rules",
    "Start",
    "StopNotAllowedError",
    "StopPreview",
    "check_options",
    "check_size",
    "column_name",
    "describe_board",
    "parse_size",
    "start_dots",
]
