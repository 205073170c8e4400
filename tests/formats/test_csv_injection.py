"""No CSV file xlgrade writes runs as a formula in a spreadsheet, whatever its list separator
(OWASP, "CSV injection"), and each reads back to what was written: a season named
``=HYPERLINK(…)`` and a player ``Laura;=2+5;Redfern`` from a book, a TRF file and an ECF file.

A spreadsheet opening a CSV file splits its lines at its locale's separator (``,``; ``;``
where the decimal mark is a comma; a tab), honouring quotes; a cell that then begins with
``=``, ``+``, ``-`` or ``@`` (or a tab, a carriage return) is taken as a formula. The check
reads each file as such a spreadsheet would, with each separator in turn.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import itertools
from pathlib import Path

import pytest

from tests.league import GAMES, PLAYERS, SETTINGS
from tests.paths import TRF
from xlgrade.cli import main
from xlgrade.formats.csvfile import csv_text, neutralise, read_csv_file, restore
from xlgrade.formats.folder import read_folder_cells, write_divisions, write_settings
from xlgrade.model import Player
from xlgrade.teams import Division
from xlgrade.workbook.build import build_workbook

HYPERLINK = '=HYPERLINK("http://example.com/x?a=1;b=2","Click")'
LAURA = "Laura;=2+5;Redfern"
_FORMULA = ("=", "+", "-", "@")  # after any tabs and line breaks it begins with


def _live_cells(text: str) -> list[tuple[str, str]]:
    """The cells of ``text`` a spreadsheet would run, by the separator it split them by."""
    live = []
    for separator in (",", ";", "\t"):
        for row in csv.reader(io.StringIO(text, newline=""), delimiter=separator):
            live += [
                (separator, cell) for cell in row if cell.lstrip("\t\r\n").startswith(_FORMULA)
            ]
    return live


@pytest.mark.parametrize(
    ("cells", "line"),
    [
        (["Smith, John", "142"], '"Smith, John",142\r\n'),
        # Quoted, and neutralised after the ';' too: a spreadsheet splitting at ';' takes a
        # quote inside what it reads as a cell for a character, so quoting alone would not do.
        ([LAURA], '"Laura;\'=2+5;Redfern"\r\n'),
        (["=2+5", "-5", "+5", "@SUM(A1)"], "'=2+5,'-5,'+5,'@SUM(A1)\r\n"),
        (["\tx", "a\tb", 'say "hi"'], '"\'\tx","a\tb","say ""hi"""\r\n'),
        (["'=x", "'x", "1-0", "½-½", "2025-09-10", None], "''=x,'x,1-0,½-½,2025-09-10,\r\n"),
    ],
)
def test_each_cell_neutralised_and_quoted(cells: list[str | None], line: str) -> None:
    assert csv_text([cells]) == line
    assert _live_cells(line) == []


def test_what_is_neutralised_reads_back_as_it_was() -> None:
    """Every text of up to five of the characters that matter reads back (restore) as it
    was written (neutralise), and none of them is live."""
    for size in range(6):
        for chars in itertools.product("';=\t,a-", repeat=size):
            text = "".join(chars)
            assert restore(neutralise(text)) == text, repr(text)
            assert _live_cells(csv_text([["x", text]])) == [], repr(text)


def _book(tmp_path: Path) -> Path:
    players = [*PLAYERS, Player(LAURA, "654321K", "Anytown", grade=110.0)]
    path = tmp_path / "league.xlsm"
    path.write_bytes(build_workbook(players, GAMES, SETTINGS))
    return path


def _check_folder(folder: Path) -> None:
    for file in sorted(folder.glob("*.csv")):
        assert _live_cells(file.read_text(encoding="utf-8-sig")) == [], file.name


def test_an_export_runs_no_formula_and_reads_back(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    assert main(["export", str(_book(tmp_path)), "--csv", str(folder)]) == 0
    _check_folder(folder)
    assert LAURA in [p.name for p in read_csv_file(folder / "players.csv", "p").players]
    # The results: the dates, scores and defaults read as written.
    written = read_csv_file(folder / "results.csv", "results.csv").games
    assert [(g.home, g.away, g.result, g.date) for g in written] == [
        (g.home, g.away, g.result, g.date) for g in GAMES
    ]


def test_a_season_named_as_a_formula_is_written_inert_and_reads_back(tmp_path: Path) -> None:
    settings = dataclasses.replace(SETTINGS, season_name=HYPERLINK)
    division = Division("=cmd|' /C calc'!A0")
    write_settings(tmp_path, settings)
    write_divisions(tmp_path, [division])
    _check_folder(tmp_path)
    cells = read_folder_cells(tmp_path)
    values = {row[0]: row[1] for row in cells["Settings"][1:]}
    assert values["Season name"] == HYPERLINK  # the ' taken off again
    assert values["Season start"] == "2025-09-01"
    assert cells["Divisions"][1][0] == "=cmd|' /C calc'!A0"


def test_a_trf_import_runs_no_formula_and_reads_back(tmp_path: Path) -> None:
    lines = (TRF / "2020_06.trf").read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("001"))
    first = lines[at]
    lines[at] = first[:14] + LAURA.ljust(33) + first[47:]  # the name's columns, 15 to 47
    source = tmp_path / "hostile.trf"
    source.write_text("".join(lines), encoding="utf-8")
    folder = tmp_path / "league"
    assert main(["import", str(source), "--into", str(folder)]) == 0
    _check_folder(folder)
    assert LAURA in [p.name for p in read_csv_file(folder / "players.csv", "p").players]
    games = read_csv_file(folder / "results.csv", "r").games
    assert LAURA in {g.home for g in games} | {g.away for g in games}


def test_an_ecf_import_runs_no_formula_and_reads_back(tmp_path: Path) -> None:
    source = tmp_path / "hostile.txt"
    source.write_text(
        "#EVENT DETAILS\n#EVENT CODE=ABC123\n#EVENT NAME=Anytown League\n"
        "#MOVES FIRST SESSION=30\n#MINUTES FIRST SESSION=75\n#MINUTES REST OF GAME=15\n"
        f"#PLAYER LIST\n#PIN=1#ECF CODE=210988J#NAME={LAURA}\n#PIN=2#NAME=@Brown, Ann\n"
        "#OTHER RESULTS=Anytown League\n#PIN1=1#SCORE=10#PIN2=2#GAME DATE=10/09/2025\n"
        "#FINISH#\n",
        encoding="utf-8",
    )
    folder = tmp_path / "league"
    assert main(["import", str(source), "--into", str(folder)]) == 0
    _check_folder(folder)
    players = read_csv_file(folder / "players.csv", "p").players
    assert {p.name for p in players} == {LAURA, "@Brown, Ann"}
    (game,) = read_csv_file(folder / "results.csv", "r").games
    assert (game.home, game.away, game.result) == ("210988J", "@Brown, Ann", "1-0")  # by code
