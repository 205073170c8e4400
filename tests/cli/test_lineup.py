"""``xlgrade lineup BOOK|FOLDER``: a captain's check of a proposed line-up before the match,
by the division's rules and in the season's words. Nottinghamshire's rules: board order within
20, and "after 3 games … for a higher team a player may not play for a lower team"."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from tests.league import write_league
from xlgrade.cli import main
from xlgrade.commands.lineup import BREAKS
from xlgrade.formats.lineup import LINEUP_HEADERS
from xlgrade.model import Game, Player
from xlgrade.season import Table
from xlgrade.settings import Settings
from xlgrade.teams import Division
from xlgrade.workbook.package import read_sheets, write_sheets

NOTTS = Division("Division 1", board_order_tolerance=20, games_to_fix=3)
PLAYERS = [
    Player("Ash, Ann", code="123456A", grade=150.0, row=2),
    Player("Box, Ben", grade=140.0, row=3),
    Player("Cole, Cara", grade=125.0, row=4),
    Player("Dale, Dan", grade=100.0, row=5),
    Player("Elm, Eve", grade=120.0, row=6),
]
# Ash has played three games for Redmire A, on board 1 against Elm.
GAMES = [
    Game(
        "Ash, Ann", "Elm, Eve", "1-0", dt.date(2025, 9, day), "Division 1", "Redmire A v Hull A", 1
    )
    for day in (8, 15, 22)
]
SETTINGS = Settings(season_start=dt.date(2025, 6, 1), season_end=dt.date(2026, 5, 31))
PLAYING_DOWN_WHY = (
    "Ash, Ann had played 3 games for higher teams of Redmire (Redmire A 3) before 2025-09-29; "
    "after 3 a player may not play for a lower team"
)


def _words(out: str) -> list[str]:
    return [line.split("  ")[-1].strip() for line in out.splitlines()[2:]]


@pytest.mark.parametrize("kind", ["book", "folder"])
def test_a_line_up_that_breaks_two_rules_and_one_that_keeps_them(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = write_league(tmp_path, kind, PLAYERS, GAMES, SETTINGS, [NOTTS])
    (tmp_path / "played").mkdir()
    common = ["lineup", str(where), "--division", "division 1", "--team", "Redmire B"]
    # Ash (by his code) on board 1 of Redmire B after three games for Redmire A; Dale 100 on
    # board 2 and Box 140 on board 3: 140 − 100 = 40 > 20.
    code = main([*common, "--date", "29/9/2025", "--players", "123456A", "Dale, Dan", "box, ben"])
    out = capsys.readouterr().out
    assert code == BREAKS
    assert out.splitlines()[0] == (
        "The line-up of Redmire B on 2025-09-29 in division 1 breaks 2 rules:"
    )
    assert _words(out) == [
        "Ash, Ann had played 3 games for higher teams of Redmire (Redmire A 3) before "
        "2025-09-29; after 3 a player may not play for a lower team",
        "board 3, Box, Ben (140) is more than 20 above Dale, Dan (100) on board 2",
    ]
    # The same words as the season's check once the match is played.
    played = [
        Game(home, "Elm, Eve", "1-0", dt.date(2025, 9, 29), "Division 1", "Redmire B v Hull B", n)
        for n, home in enumerate(["Ash, Ann", "Dale, Dan", "Box, Ben"], start=1)
    ]
    after = write_league(tmp_path / "played", kind, PLAYERS, [*GAMES, *played], SETTINGS, [NOTTS])
    assert main(["eligibility", str(after)]) == 0
    season = [line.split("  ")[-1].strip() for line in capsys.readouterr().out.splitlines()[1:-1]]
    assert [w for w in season if "Elm" not in w] == _words(out)
    # Cole 125 above Box 140: 15 is within 20; Ash is not in it.
    assert main([*common, "--date", "2025-09-29", "--players", "Cole, Cara", "Box, Ben"]) == 0
    assert capsys.readouterr().out == (
        "The line-up of Redmire B on 2025-09-29 in division 1 keeps every rule of its division.\n"
    )


def test_a_line_up_file_and_the_refusals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = write_league(tmp_path, "folder", PLAYERS, GAMES, SETTINGS, [NOTTS])
    lineup = tmp_path / "proposed.csv"
    lineup.write_text(
        "Division,Team,Date,Board,Player\nDivision 1,Redmire B,2025-09-29,1,Cole, Cara\n"
        ",,,2,Dale, Dan\n,,,3,Box, Ben\n".replace("Cole, Cara", '"Cole, Cara"')
        .replace("Dale, Dan", '"Dale, Dan"')
        .replace("Box, Ben", '"Box, Ben"'),
        encoding="utf-8",
    )
    assert main(["lineup", str(where), "--file", str(lineup)]) == BREAKS
    assert _words(capsys.readouterr().out) == [
        "board 3, Box, Ben (140) is more than 20 above Dale, Dan (100) on board 2"
    ]
    # The folder's own lineup.csv, when nothing else is given.
    (where / "lineup.csv").write_bytes(lineup.read_bytes())
    assert main(["lineup", str(where)]) == BREAKS
    capsys.readouterr()
    assert main(["lineup", str(where), "--division", "Division 1", "--players", "Ash, Ann"]) == 1
    assert "give --team, --date with the players" in capsys.readouterr().err
    base = ["lineup", str(where), "--division", "Division 1", "--team", "Redmire B", "--date"]
    assert main([*base, "2025-09-29", "--players", "Kay, Kim"]) == 1
    assert "board 1: 'Kay, Kim' is not on the Players table" in capsys.readouterr().err
    assert main([*base, "2025-09-29", "--division", "Premier", "--players", "Ash, Ann"]) == 1
    assert (
        "division 'Premier' is not on the Divisions sheet (it has 'Division 1')"
        in capsys.readouterr().err
    )


def test_a_books_line_up_sheet_checked_on_recalculation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = write_league(tmp_path, "book", PLAYERS, GAMES, SETTINGS, [NOTTS])
    rows = [
        ("Division 1", "Redmire B", "29/09/2025", 1, "Ash, Ann"),
        (None, None, None, 2, "Cole, Cara"),
    ]
    write_sheets(book, {"Line-up": Table(LINEUP_HEADERS, rows)})
    assert main(["lineup", str(book)]) == BREAKS
    assert _words(capsys.readouterr().out) == [PLAYING_DOWN_WHY]
    assert main(["recalc", str(book)]) == 0
    capsys.readouterr()
    written = read_sheets(book, ["Line-up check"])["Line-up check"]
    assert [list(r) for r in written] == [
        ["Board", "Player", "Rule", "Why"],
        [1, "Ash, Ann", "playing down", PLAYING_DOWN_WHY],
    ]
    # A line-up that cannot be read is an Exceptions row, and the check says so.
    write_sheets(book, {"Line-up": Table(LINEUP_HEADERS, [(None, None, None, 1, "Ash, Ann")])})
    assert main(["recalc", str(book)]) == 0
    capsys.readouterr()
    exceptions = read_sheets(book, ["Exceptions"])["Exceptions"]
    assert [
        "Line-up",
        None,
        "bad line-up",
        "the Line-up sheet: no Division and no Team and no Date: give them in the line-up's "
        "columns or as --division, --team and --date: not checked",
    ] in [list(r) for r in exceptions]
