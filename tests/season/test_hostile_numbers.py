"""Huge numbers in a player's earlier seasons or in Minimum games are reported and left out,
not an ``OverflowError`` from the season's arrays (docs/limits.md: at most 9,999 games and
9,999 × (400 + 50) points a season)."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from tests.paths import EXAMPLES
from xlgrade.cli import main
from xlgrade.ecf import MAX_SEASON_GAMES, MAX_SEASON_POINTS
from xlgrade.errors import SettingError
from xlgrade.model import EarlierSeason, Game, Player
from xlgrade.season import recalculate
from xlgrade.settings import Settings

DAY = dt.date(2025, 10, 1)
SEASON = Settings(season_start=dt.date(2025, 9, 1), season_end=dt.date(2026, 5, 31))


def test_the_limits_are_the_plausible_most() -> None:
    # 9,999 games a season; a win scores the opponent's grade + 50, the grade at most 400.
    assert (MAX_SEASON_GAMES, MAX_SEASON_POINTS) == (9_999, 9_999 * 450)


@pytest.mark.parametrize(
    "earlier",
    [EarlierSeason(10**300, 1000.0), EarlierSeason(10**20, 1000.0), EarlierSeason(10, 1e300)],
    ids=["games-10**300", "games-10**20", "points-1e300"],
)
def test_a_huge_earlier_season_is_left_out_with_a_problem(earlier: EarlierSeason) -> None:
    players = [Player("A", grade=150.0, row=2), Player("B", grade=120.0, previous=earlier, row=3)]
    season = recalculate(players, [Game("A", "B", "1-0", DAY, row=2)], SEASON)
    (problem,) = [p for p in season.problems if p.sheet == "Players"]
    assert (problem.row, problem.what) == (3, "bad earlier season")
    assert "(0 to 9,999)" in problem.why
    assert season.accounting.standard_graded == 1


def test_a_huge_minimum_games_is_refused() -> None:
    with pytest.raises(SettingError, match=r"^Minimum games 10{20} is not from 0 to 9999"):
        recalculate([], [], Settings(min_games=10**20))


@pytest.mark.parametrize("value", ["1e300", "9" * 400], ids=["1e300", "400-digits"])
def test_huge_numbers_in_a_folder_are_cell_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    folder = tmp_path / "league"
    shutil.copytree(EXAMPLES / "league", folder)
    settings = (folder / "settings.csv").read_text()
    (folder / "settings.csv").write_text(
        settings.replace("Minimum games,30", f"Minimum games,{value}")
    )
    players = (folder / "players.csv").read_text()
    assert ",7,935," in players
    (folder / "players.csv").write_text(players.replace(",7,935,", f",{value},935,", 1))
    assert main(["season", str(folder), "--exceptions"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert any(line.startswith("Settings    6  bad setting  ") for line in lines)
    assert any(line.startswith("Players     2  ") for line in lines)
