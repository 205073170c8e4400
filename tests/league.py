"""A small league for the workbook tests, typed in by hand, and helpers to read books back."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from dataclasses import replace
from pathlib import Path

from xlgrade.model import EarlierSeason, Game, Player
from xlgrade.settings import Settings
from xlgrade.workbook.build import build_workbook

__all__ = ["GAMES", "PLAYERS", "SETTINGS", "build_league", "members", "rows_by_header"]

SETTINGS = Settings(
    season_name="2025-26", season_start=dt.date(2025, 9, 1), season_end=dt.date(2026, 5, 31)
)
_PLAYERS = (
    Player("Smith, John", "123456A", "Anytown", grade=142.0, previous=EarlierSeason(20, 2900.0)),
    Player("Brown, Alan", "234567F", "Anytown", grade=180.0),
    Player("Green, Mary", "345678L", "Beeton", grade=120.0, junior=True),
    Player("White, Peter", "456789E", "Beeton", grade=100.0),
    Player("Black, Susan", "567890A", "Cuxton", grade=155.0, date_of_birth=dt.date(2010, 3, 4)),
    Player("Grey, Tom", None, "Cuxton", grade=None, estimated_grade=90.0),
)
_PAIRS = (
    ("123456A", "1-0", "234567F"),
    ("345678L", "½-½", "456789E"),
    ("567890A", "0-1", "123456A"),
    ("Grey, Tom", "1-0", "456789E"),
    ("234567F", "1-0", "345678L"),
    ("456789E", "0-1", "567890A"),
    ("123456A", "½-½", "345678L"),
    ("234567F", "1-0 def", "Grey, Tom"),
    ("567890A", "1-0", "Grey, Tom"),
    ("345678L", "0-1", "234567F"),
)
PLAYERS = tuple(replace(p, row=number) for number, p in enumerate(_PLAYERS, start=2))
"""The Players rows, numbered as on the sheet (the header is row 1)."""
_GAMES = tuple(
    Game(home, away, result, date=dt.date(2025, 10, 1) + dt.timedelta(days=7 * i),
         event="Division 1", match=f"Match {i // 2 + 1}", board=i % 2 + 1, time_control="75")
    for i, (home, result, away) in enumerate(_PAIRS)
)  # fmt: skip
GAMES = tuple(replace(g, row=number) for number, g in enumerate(_GAMES, start=2))
"""The Results rows, numbered as on the sheet."""


def build_league(folder: Path, name: str = "league.xlsm") -> Path:
    """The template filled with the small league, written to ``folder / name``."""
    path = folder / name
    path.write_bytes(build_workbook(PLAYERS, GAMES, SETTINGS))
    return path


def members(data: bytes) -> dict[str, bytes]:
    """A package's members, uncompressed, by name."""
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        return {name: package.read(name) for name in package.namelist()}


def rows_by_header(rows: list[list[object]]) -> list[dict[str, object]]:
    """A sheet's rows (header first) as dictionaries by header."""
    header = [str(h) for h in rows[0]]
    return [dict(zip(header, row, strict=False)) for row in rows[1:]]
