"""The season's output sheets: their columns and a block of cells for each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = [
    "CARD_HEADERS",
    "EXCEPTION_HEADERS",
    "LIST_HEADERS",
    "RATING_CARD_HEADERS",
    "RATING_LIST_HEADERS",
    "Table",
]

LIST_HEADERS: Final = (
    "Code", "Name", "Club", "Games", "Points", "Grade", "Category", "Junior", "Elo",
    "Start grade", "Borrowed games", "Elo rating",
)  # fmt: skip
"""Columns of the Grading List and Rapid List sheets."""
CARD_HEADERS: Final = (
    "Code", "Name", "Game", "Date", "Opponent", "Result", "Opponent grade", "Points", "Note",
)  # fmt: skip
"""Columns of the Player Cards sheet."""
RATING_LIST_HEADERS: Final = (
    "Code", "Name", "Club", "Games", "Start rating", "Start category", "Rating", "Category",
    "Change", "Monthly path", "Last rated month",
)  # fmt: skip
"""Columns of the Grading List and Rapid List sheets when the season is rated (ECF rating, 2020
rules): the rating and category at the start of the season and after it, the rated games, the
change, the rating after each month played (``1650 → 1662 → 1655``) and the month of the last
rated game."""
RATING_CARD_HEADERS: Final = (
    "Code", "Name", "Month", "Method", "Game", "Date", "Opponent", "Result", "Opponent rating",
    "Expected", "k", "Change", "Rating", "Category", "Note",
)  # fmt: skip
"""Columns of the Player Cards sheet when the season is rated: month by month, each game's
opponent rating as used, expected score, k and change (K method), the month's totals and the
rating after it; for the P method the games, the nominal opponent and the performance."""
EXCEPTION_HEADERS: Final = ("Sheet", "Row", "What", "Why")
"""Columns of the Exceptions sheet."""


@dataclass(frozen=True)
class Table:
    """A block of cells for one output sheet: a header row and data rows."""

    headers: tuple[str, ...]
    rows: list[tuple[object, ...]]
