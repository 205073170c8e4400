"""Starting next season from this one: the engine's hand-over, ``xlgrade new-season`` and the
ribbon's New season button."""

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from test_udfs_recalculate import FakeBook

from xlgrade.cli import main
from xlgrade.model import EarlierSeason, Game, Player, Settings
from xlgrade.season import recalculate
from xlgrade.workbook import build, layout, live, package

DAY = dt.date(2025, 10, 1)
PLAYERS = [
    Player("Smith, John", code="210988J", grade=118.0, previous=EarlierSeason(20, 2400), row=2),
    Player("Jones, Alan", grade=100.0, row=3),
    Player("New, Nick", row=4),
    Player("Idle, Ivy", grade=90.0, previous=EarlierSeason(5, 450), row=5),
]
# Smith beats Jones ten times (150 a game); Nick draws Jones twice (working grade 100).
GAMES = [Game("210988J", "Jones, Alan", "1-0", DAY + dt.timedelta(days=d)) for d in range(10)] + [
    Game("New, Nick", "Jones, Alan", "½-½", DAY + dt.timedelta(days=20 + d)) for d in range(2)
]


def test_the_next_season_carries_grades_and_history_on() -> None:
    season = recalculate(PLAYERS, GAMES, Settings(season_name="2025-26"))
    players, settings = season.next_season()
    smith, jones, nick, ivy = players
    # Smith: 10 games at 150 + 20 borrowed at 120 → (1500 + 2400) / 30 = 130, category B.
    assert (smith.grade, smith.previous, smith.earlier) == (
        130.0, EarlierSeason(10, 1500.0), EarlierSeason(20, 2400)
    )  # fmt: skip
    # Jones: 12 games, (10 × 68 + 2 × 100) / 12 = 73.3 → 73, category D.
    assert jones.grade == 73.0
    # Nick: 2 games, category * — not on the published list: his grade becomes an estimate.
    assert (nick.grade, nick.estimated_grade, nick.previous) == (
        None, 100.0, EarlierSeason(2, 200.0)
    )  # fmt: skip
    # Ivy played no game: she keeps her grade; an empty season moves her history back.
    assert (ivy.grade, ivy.previous, ivy.earlier) == (
        90.0,
        EarlierSeason(0, 0.0),
        EarlierSeason(5, 450),
    )
    assert (settings.season_name, settings.season_start, settings.season_end) == (
        "2026-27", dt.date(2026, 6, 1), dt.date(2027, 5, 31)
    )  # fmt: skip


def test_the_new_season_command_writes_a_book_to_type_into(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "2025-26.xlsm"
    book.write_bytes(build.build_workbook(PLAYERS, GAMES, Settings(season_name="2025-26")))
    out = tmp_path / "2026-27.xlsm"
    assert main(["new-season", str(book), str(out)]) == 0
    assert capsys.readouterr().out == f"Wrote {out}: season 2026-27, 4 players carried on\n"
    sheets = package.read_sheets(out, layout.INPUT_SHEETS)
    header, *rows = sheets[layout.PLAYERS]
    grades = {row[header.index("Name")]: row[header.index("Grade")] for row in rows if row[1]}
    assert grades == {"Smith, John": 130, "Jones, Alan": 73, "New, Nick": None, "Idle, Ivy": 90}
    results = [row for row in sheets[layout.RESULTS][1:] if any(c is not None for c in row[:8])]
    assert results == []
    assert main(["new-season", str(book), str(out)]) == 1
    assert capsys.readouterr().err == f"Error: {out} exists; use --force to replace it\n"


class _Books:
    def __init__(self) -> None:
        self.opened: list[str] = []

    def open(self, path: str) -> None:
        self.opened.append(path)


class _App:
    def __init__(self) -> None:
        self.books = _Books()


def test_the_ribbon_button_saves_and_opens_the_new_book(tmp_path: Path) -> None:
    path = tmp_path / "league.xlsm"
    path.write_bytes(build.build_workbook(PLAYERS, GAMES, Settings(season_name="2025-26")))
    book: Any = FakeBook(package.read_sheets(path, layout.INPUT_SHEETS))
    book.fullname = str(path)
    book.app = _App()
    written = live.new_season(book)
    assert written == str(tmp_path / "2026-27.xlsm")
    assert book.app.books.opened == [written]
    again = live.new_season(book)
    assert again == str(tmp_path / "2026-27 (2).xlsm")
