"""``xlgrade eligibility BOOK|FOLDER``: every breach listed with its division, date, match, team,
board, player, rule and why, then a count; exit code 0 with breaches, not 0 only for input
that cannot be read."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import pytest

from tests.league import CROYDON, ONE_MATCH, write_league
from tests.paths import EXAMPLES
from xlgrade.cli import main
from xlgrade.formats.csvfile import write_players_csv, write_results_csv
from xlgrade.formats.folder import write_divisions, write_settings
from xlgrade.model import Game, Player
from xlgrade.settings import Settings
from xlgrade.teams import Division
from xlgrade.workbook import layout
from xlgrade.workbook.build import build_workbook
from xlgrade.workbook.package import read_sheets

PLAYERS = [
    Player("Ash, Ann", grade=140.0, row=2),
    Player("Graham, Amelia", grade=112.0, row=3),
    Player("Kay, Malcolm", grade=134.0, row=4),
    Player("Elm, Eve", grade=100.0, row=5),
    Player("Fir, Fay", grade=90.0, row=6),
    Player("Oak, Olly", grade=80.0, row=7),
]
GAMES = ONE_MATCH
SETTINGS = Settings(season_start=dt.date(2025, 6, 1), season_end=dt.date(2026, 5, 31))
# Nottinghamshire's board order (20) and a total of at most 380 for three boards.
NOTTS = Division("Division 1", board_order_tolerance=20, max_total=380)


def folder(path: Path, divisions: list[Division]) -> Path:
    (path / "players.csv").write_text(write_players_csv(PLAYERS), encoding="utf-8")
    (path / "results.csv").write_text(write_results_csv(GAMES), encoding="utf-8")
    write_settings(path, SETTINGS)
    if divisions:
        write_divisions(path, divisions)
    return path


EXPECTED = [
    # 134 − 112 = 22 > 20; Redmire's total 140 + 112 + 134 = 386 > 380; Hull's is 270.
    "Division    Date        Match               Team       Board  Player        Rule         Why",
    "Division 1  2025-10-06  Redmire A v Hull A  Redmire A  3      Kay, Malcolm  board order  "
    "board 3, Kay, Malcolm (134) is more than 20 above Graham, Amelia (112) on board 2",
    "Division 1  2025-10-06  Redmire A v Hull A  Redmire A                       max total    "
    "the team counts 140 + 112 + 134 = 386, more than the maximum 380",
    "2 breaches of the rules of 1 division in 1 match (1 board order, 1 max total).",
]


def test_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eligibility", str(folder(tmp_path, [NOTTS]))]) == 0
    assert capsys.readouterr().out.splitlines() == EXPECTED


def test_a_book(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = tmp_path / "league.xlsm"
    book.write_bytes(build_workbook(PLAYERS, GAMES, SETTINGS, [NOTTS]))
    assert main(["eligibility", str(book)]) == 0
    assert capsys.readouterr().out.splitlines() == EXPECTED


def test_a_season_that_keeps_the_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lenient = Division("Division 1", board_order_tolerance=25, max_total=400)
    assert main(["eligibility", str(folder(tmp_path, [lenient]))]) == 0
    assert capsys.readouterr().out == "No rule of the 1 division is broken.\n"


def test_no_divisions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eligibility", str(folder(tmp_path, []))]) == 0
    assert capsys.readouterr().out == (
        "No division has rules: type them on the Divisions sheet (divisions.csv).\n"
    )


def test_a_rule_that_cannot_be_read_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder(tmp_path, [NOTTS])
    text = (tmp_path / "divisions.csv").read_text(encoding="utf-8").replace(",380,", ",lots,")
    (tmp_path / "divisions.csv").write_text(text, encoding="utf-8")
    assert main(["eligibility", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        f"note: {tmp_path / 'divisions.csv'} row 2: cell F2 (Max total): 'lots' is not a "
        "number: not checked"
    )
    assert out[-1] == "1 breach of the rules of 1 division in 1 match (1 board order)."


def test_the_example_league(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eligibility", str(EXAMPLES / "league")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].endswith("; 4 boards not checked.")


def test_unreadable_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.xlsm").write_text("not a workbook", encoding="utf-8")
    assert main(["eligibility", str(tmp_path / "notes.xlsm")]) == 1
    assert "not a workbook" in capsys.readouterr().err
    assert main(["eligibility", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        f"Error: {tmp_path}: no players.csv and no results.csv: a season folder holds "
        "players.csv and results.csv (and settings.csv, else the default settings are used; "
        "divisions.csv holds the divisions' rules)\n"
    )
    assert main(["eligibility", str(tmp_path / "missing.xlsm")]) == 1


def test_a_book_exported_to_csv_keeps_its_divisions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "league.xlsm"
    book.write_bytes(build_workbook(PLAYERS, GAMES, SETTINGS, [NOTTS]))
    out = tmp_path / "csv"
    assert main(["export", str(book), "--csv", str(out)]) == 0
    assert capsys.readouterr().out == f"{out}: settings, divisions, 6 players, 3 games written\n"
    assert main(["eligibility", str(out)]) == 0
    assert capsys.readouterr().out.splitlines() == EXPECTED


def test_the_rules_can_use_the_ecf_rating(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Dorset's board order, 75 rating points: Kay's ECF rating 1740 is 90 above Graham's 1650.
    # By the grades (134 against 112, 22 apart) the same order keeps the rule.
    ratings = {"Ash, Ann": 1800.0, "Graham, Amelia": 1650.0, "Kay, Malcolm": 1740.0}
    rated = [dataclasses.replace(p, rating=ratings.get(p.name, 1500.0)) for p in PLAYERS]
    book = tmp_path / "league.xlsm"
    by_rating = dataclasses.replace(SETTINGS, eligibility_figure="rating")
    dorset = Division("Division 1", board_order_tolerance=75)
    book.write_bytes(build_workbook(rated, GAMES, by_rating, [dorset]))
    assert main(["eligibility", str(book)]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "Division 1  2025-10-06  Redmire A v Hull A  Redmire A      3  Kay, Malcolm  board order  "
        "board 3, Kay, Malcolm (1740) is more than 75 above Graham, Amelia (1650) on board 2; "
        "by the ECF rating",
        "1 breach of the rules of 1 division in 1 match (1 board order).",
    ]
    book.write_bytes(build_workbook(rated, GAMES, SETTINGS, [dorset]))
    assert main(["eligibility", str(book)]) == 0
    assert capsys.readouterr().out == "No rule of the 1 division is broken.\n"


def test_a_figure_no_player_has_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ungraded = [Player(p.name, row=p.row) for p in PLAYERS]
    book = tmp_path / "league.xlsm"
    book.write_bytes(build_workbook(ungraded, GAMES, SETTINGS, [NOTTS]))
    assert main(["eligibility", str(book)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2].endswith(
        "not checked  no player has a grade on the Players table (the setting 'Eligibility "
        "figure' is 'grade'): no rule that uses a figure can be checked"
    )
    assert out[-1] == "No rule of the 1 division is broken; 1 board not checked."


def test_an_import_into_the_book_keeps_the_violations(tmp_path: Path) -> None:
    # A return match, Redmire away with the same boards: both of EXPECTED's breaches again.
    book = tmp_path / "league.xlsm"
    book.write_bytes(build_workbook(PLAYERS, GAMES, SETTINGS, [NOTTS]))
    more = [dataclasses.replace(g, date=dt.date(2025, 10, 13), match="Hull A v Redmire A",
                                home=g.away, away=g.home, result="0-1") for g in GAMES]  # fmt: skip
    results = tmp_path / "results.csv"
    results.write_text(write_results_csv(more), encoding="utf-8")
    assert main(["import", str(results), "--into", str(book)]) == 0
    violations = read_sheets(book, [layout.VIOLATIONS])[layout.VIOLATIONS]
    listed = [row[6] for row in violations[1:] if row and row[0] == "Division 1"]
    assert listed == ["board order", "max total", "board order", "max total"]


@pytest.mark.parametrize("name", ["2026-27.xlsm", "2026-27.xlsx"])
def test_next_seasons_book_keeps_the_divisions_rules(name: str, tmp_path: Path) -> None:
    book = tmp_path / "league.xlsm"
    book.write_bytes(build_workbook(PLAYERS, GAMES, SETTINGS, [NOTTS]))
    out = tmp_path / name
    assert main(["new-season", str(book), str(out)]) == 0
    before, after = (read_sheets(p, [layout.DIVISIONS])[layout.DIVISIONS] for p in (book, out))
    assert after == before
    assert after[1][0] == "Division 1"  # the rules' row, not only the header


@pytest.mark.parametrize("kind", ["book", "folder"])
def test_an_ungraded_player_s_estimate_is_used(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Kay is ungraded; the grading officer's estimate of 134 goes on the Players table's
    # Estimated grade: 134 − 112 = 22 > 20, and 140 + 112 + 134 = 386 > 380, as when graded.
    estimated = [
        dataclasses.replace(p, grade=None, estimated_grade=134.0) if p.name == "Kay, Malcolm" else p
        for p in PLAYERS
    ]
    if kind == "book":
        where = tmp_path / "league.xlsm"
        where.write_bytes(build_workbook(estimated, GAMES, SETTINGS, [NOTTS]))
    else:
        where = folder(tmp_path, [NOTTS])
        (where / "players.csv").write_text(write_players_csv(estimated), encoding="utf-8")
    assert main(["eligibility", str(where)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].endswith(
        "board 3, Kay, Malcolm (134, estimated grade) is more than 20 above Graham, Amelia (112) "
        "on board 2"
    )
    assert out[2].endswith(
        "the team counts 140 + 112 + 134 = 386, more than the maximum 380: Kay, Malcolm (134, "
        "estimated grade) on board 3"
    )


RATED = [
    Player("Ash, Ann", rating=1800.0, latest_rating=1800.0, rapid_rating=1550.0, row=2),
    Player("Graham, Amelia", rating=1700.0, latest_rating=1640.0, rapid_rating=1500.0, row=3),
    Player("Kay, Malcolm", rating=1740.0, latest_rating=1760.0, rapid_rating=1450.0, row=4),
    Player("Elm, Eve", rating=1500.0, rapid_rating=1650.0, row=5),
    Player("Fir, Fay", rating=1620.0, row=6),
    Player("Oak, Olly", estimated_rating=1610.0, row=7),
]
RAPID_GAMES = [
    Game(home, away, "1-0", dt.date(2025, 10, 8), "Rapid", "Hull A v Redmire B", board)
    for board, home, away in (
        (1, "Elm, Eve", "Ash, Ann"),
        (2, "Fir, Fay", "Graham, Amelia"),
        (3, "Oak, Olly", "Kay, Malcolm"),
    )
]
# Croydon (tests.league.CROYDON), and a rapid division: rapid ratings, falling back to the
# standard one, then the player's estimate.
RAPID = Division("Rapid", max_grade=1600, eligibility_figure="rapid rating, rating, estimate")


@pytest.mark.parametrize("kind", ["book", "folder"])
def test_a_fixed_list_for_eligibility_the_latest_for_board_order_and_a_rapid_division(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = GAMES + RAPID_GAMES
    where = write_league(tmp_path, kind, RATED, games, SETTINGS, [CROYDON, RAPID])
    assert main(["eligibility", str(where)]) == 0
    whys = [line.split("  ")[-1].strip() for line in capsys.readouterr().out.splitlines()[1:-1]]
    assert whys == [
        # September's list: Ash 1800 > 1790. By it Kay (1740) is 40 above Graham (1700); the
        # live ratings make it 1760 − 1640 = 120 > 100.
        "board 1, Ash, Ann (1800) is over the maximum rating 1790; by the ECF rating",
        "board 3, Kay, Malcolm (1760) is more than 100 above Graham, Amelia (1640) on board 2; "
        "by the latest ECF rating",
        # Rapid: Elm's rapid rating 1650; Fir has none, his standard 1620; Oak neither, his
        # estimate 1610: all three over 1600. Redmire's rapid ratings are 1550 and below.
        "board 1, Elm, Eve (1650) is over the maximum rating 1600; by the ECF rapid rating",
        "board 2, Fir, Fay (1620, ECF rating) is over the maximum rating 1600; by the ECF rapid "
        "rating",
        "board 3, Oak, Olly (1610, estimated rating) is over the maximum rating 1600; by the ECF "
        "rapid rating",
    ]


@pytest.mark.parametrize("kind", ["book", "folder"])
def test_a_registered_player(kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Kay is registered to Redmire A from 1 October and plays for Redmire B on 13 October: a
    # registered player may not play for a lower team.
    people = [
        dataclasses.replace(p, registered_team="Redmire A", registered_from=dt.date(2025, 10, 1))
        if p.name == "Kay, Malcolm"
        else p
        for p in PLAYERS
    ]
    lower = Game("Kay, Malcolm", "Oak, Olly", "1-0", dt.date(2025, 10, 13), "Division 1",
                 "Redmire B v Hull B", 1)  # fmt: skip
    plain = Division("Division 1")
    if kind == "book":
        where = tmp_path / "league.xlsm"
        where.write_bytes(build_workbook(people, [*GAMES, lower], SETTINGS, [plain]))
    else:
        where = folder(tmp_path, [plain])
        (where / "players.csv").write_text(write_players_csv(people), encoding="utf-8")
        (where / "results.csv").write_text(write_results_csv([*GAMES, lower]), encoding="utf-8")
    assert main(["eligibility", str(where)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].endswith(
        "registered player  Kay, Malcolm is registered to Redmire A from 2025-10-01; a "
        "registered player may not play for a lower team"
    )
    assert out[-1] == "1 breach of the rules of 1 division in 1 match (1 registered player)."


@pytest.mark.parametrize("kind", ["book", "folder"])
def test_juniors_fide_ratings_and_members_from_the_players_table(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Kay (134) is a junior: Northamptonshire's board order of 20 allows 20 + 100 for the pair
    # (134 − 112 = 22 is within 120). Ash's FIDE rating 2050 is over a cap of 2000. Oak is no
    # ECF member, with a limit of 0 games.
    people = [
        dataclasses.replace(p, junior=True)
        if p.name == "Kay, Malcolm"
        else dataclasses.replace(p, fide_rating=2050.0)
        if p.name == "Ash, Ann"
        else dataclasses.replace(p, ecf_member=False)
        if p.name == "Oak, Olly"
        else p
        for p in PLAYERS
    ]
    rule = Division(
        "Division 1",
        board_order_tolerance=20,
        junior_allowance=100,
        max_fide=2000,
        max_non_member_games=0,
    )
    if kind == "book":
        where = tmp_path / "league.xlsm"
        where.write_bytes(build_workbook(people, GAMES, SETTINGS, [rule]))
    else:
        where = folder(tmp_path, [rule])
        (where / "players.csv").write_text(write_players_csv(people), encoding="utf-8")
    assert main(["eligibility", str(where)]) == 0
    whys = [line.split("  ")[-1].strip() for line in capsys.readouterr().out.splitlines()[1:-1]]
    assert whys == [  # Hull A's side first, then Redmire A's
        "Oak, Olly is not an ECF member and had played 0 games in Division 1 before 2025-10-06; a "
        "non-member plays at most 0",
        "board 1, Ash, Ann (FIDE 2050) is over the maximum FIDE rating 2000",
    ]
