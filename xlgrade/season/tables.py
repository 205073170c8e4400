"""The season's output sheets: their columns and a block of cells for each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["CARD_HEADERS", "EXCEPTION_HEADERS", "LIST_HEADERS", "Table"]

LIST_HEADERS: Final = (
    "Code", "Name", "Club", "Games", "Points", "Grade", "Category", "Junior", "Elo",
    "Start grade", "Borrowed games", "Elo rating",
)  # fmt: skip
"""Columns of the Grading List and Rapid List sheets."""
CARD_HEADERS: Final = (
    "Code", "Name", "Game", "Date", "Opponent", "Result", "Opponent grade", "Points", "Note",
)  # fmt: skip
"""Columns of the Player Cards sheet."""
EXCEPTION_HEADERS: Final = ("Sheet", "Row", "What", "Why")
"""Columns of the Exceptions sheet."""


@dataclass(frozen=True)
class Table:
    """A block of cells for one output sheet: a header row and data rows."""

    headers: tuple[str, ...]
    rows: list[tuple[object, ...]]
