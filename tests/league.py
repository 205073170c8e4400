"""A small league for the workbook tests, typed in by hand, and helpers to read books back."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from xlgrade.formats.csvfile import write_players_csv, write_results_csv
from xlgrade.formats.folder import write_divisions, write_settings
from xlgrade.model import EarlierSeason, Game, Player
from xlgrade.settings import Settings
from xlgrade.teams import Division
from xlgrade.workbook.build import build_workbook

__all__ = [
    "CROYDON",
    "GAMES",
    "ONE_MATCH",
    "PLAYERS",
    "SETTINGS",
    "build_league",
    "members",
    "rows_by_header",
    "write_league",
]

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


ONE_MATCH = [
    Game(home, away, "1-0", dt.date(2025, 10, 6), "Division 1", "Redmire A v Hull A", board)
    for board, home, away in (
        (1, "Ash, Ann", "Elm, Eve"),
        (2, "Graham, Amelia", "Fir, Fay"),
        (3, "Kay, Malcolm", "Oak, Olly"),
    )
]
"""One match of three boards, Redmire A (home) against Hull A, for the divisions' rules."""
# Croydon: the September list (the Players' ECF rating) for eligibility, the live rating for
# board order.
CROYDON = Division(
    "Division 1",
    max_grade=1790,
    board_order_tolerance=100,
    eligibility_figure="rating",
    board_order_figure="latest rating",
)


def write_league(
    where: Path,
    kind: str,
    players: Sequence[Player],
    games: Sequence[Game],
    settings: Settings,
    divisions: Sequence[Division],
) -> Path:
    """A league written as a book (``kind`` "book": ``where / "league.xlsm"``) or as a folder
    of CSV files (``where / "league"``), with its settings and divisions."""
    if kind == "book":
        book = where / "league.xlsm"
        book.write_bytes(build_workbook(players, games, settings, list(divisions)))
        return book
    folder = where / "league"
    folder.mkdir()
    (folder / "players.csv").write_text(write_players_csv(players), encoding="utf-8")
    (folder / "results.csv").write_text(write_results_csv(games), encoding="utf-8")
    write_settings(folder, settings)
    write_divisions(folder, divisions)
    return folder


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
