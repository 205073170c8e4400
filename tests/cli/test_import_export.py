"""``xlgrade import`` and ``xlgrade export`` on real files in a temporary folder.

``xlgrade export``: what the user sees for a book that is not one, a bad date, and a
workbook exported to CSV.

Which rows ``xlgrade export --ecf`` submits: those the season's own checks (``xlgrade season``)
grade.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import shutil
from pathlib import Path

import pytest

from tests.paths import TEMPLATE, TRF
from xlgrade.cli import main
from xlgrade.formats.csvfile import read_csv
from xlgrade.formats.ecffile import read_ecf_file

MADRID = TRF / "san_viator_2018.trf"


def _madrid() -> Path:
    if not MADRID.is_file():
        pytest.fail(f"data file {MADRID} is missing: the reports are bundled in tests/data/trf")
    return MADRID


def test_import_madrid_into_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    league = tmp_path / "league"
    assert main(["import", str(_madrid()), "--into", str(league)]) == 0
    out = capsys.readouterr().out.splitlines()
    # 137 players x 7 rounds (062 and SOURCES.md).
    assert out[0].startswith("san_viator_2018.trf (TRF): 959 round entries = 2 x ")
    players = read_csv((league / "players.csv").read_text(encoding="utf-8")).players
    games = read_csv((league / "results.csv").read_text(encoding="utf-8")).games
    problems = (league / "problems.csv").read_text(encoding="utf-8").splitlines()
    assert len(players) == 137
    assert 2 * len(games) + len(problems) - 1 == 959
    # Importing again (--again) adds no player twice: all 137 are matched by name.
    assert main(["import", str(_madrid()), "--into", str(league), "--again"]) == 0
    assert "0 players added, 137 already there" in capsys.readouterr().out


def test_export_ecf_and_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    league = tmp_path / "league"
    main(["import", str(_madrid()), "--into", str(league)])
    out = tmp_path / "madrid.txt"
    details = [
        "--event-code", "MAD2018", "--event-name", "San Viator B", "--results-officer", "A",
        "--results-officer-address", "B", "--treasurer", "C", "--treasurer-address", "D",
        "--minutes-for-game", "90", "--seconds-per-move", "30",
    ]  # fmt: skip
    assert main(["export", str(league), "--ecf", str(out), *details]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{out}: 396 games written; 15 defaults and byes left out"
    )  # 182 + 141 + 73 played games; 8 + 7 forfeits (counted from the file's codes)
    submission = read_ecf_file(out.read_text(encoding="utf-8"))
    assert len(submission.games) == 396
    assert str(submission.event.event_date) == "2018-04-08"  # first round, line 132
    back = tmp_path / "back"
    assert main(["import", str(out), "--into", str(back)]) == 0
    assert "396 games" in capsys.readouterr().out


def test_export_refused_with_reasons(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    league = tmp_path / "league"
    main(["import", str(_madrid()), "--into", str(league)])
    capsys.readouterr()
    assert main(["export", str(league), "--ecf", str(tmp_path / "x.txt")]) == 1
    error = capsys.readouterr().err.splitlines()
    assert error[:3] == [
        "Error: the ECF would reject this submission (7 reasons):",
        "  event field EVENT CODE is blank",
        "  event field EVENT NAME is blank",
    ]
    assert not (tmp_path / "x.txt").exists()


def test_export_csv_over_an_earlier_export_is_refused_unless_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "league.xlsm"
    shutil.copy(TEMPLATE, book)
    out = tmp_path / "csv"
    assert main(["export", str(book), "--csv", str(out)]) == 0
    written = {p.name: p.read_bytes() for p in out.iterdir()}
    (out / "results.csv").write_text("edited by hand\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["export", str(book), "--csv", str(out)]) == 1
    assert sorted(written) == ["players.csv", "results.csv", "settings.csv"]
    names = ", ".join(str(out / name) for name in ("players.csv", "results.csv", "settings.csv"))
    assert capsys.readouterr().err == f"Error: {names} exist; use --force to replace them\n"
    assert (out / "results.csv").read_text(encoding="utf-8") == "edited by hand\n"
    assert main(["export", str(book), "--csv", str(out), "--force"]) == 0
    assert {p.name: p.read_bytes() for p in out.iterdir()} == written


def test_export_ecf_over_a_file_is_refused_unless_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "league.txt"
    out.write_text("keep\n", encoding="utf-8")
    assert main(["export", str(TEMPLATE), "--ecf", str(out), "--event-code", "A"]) == 1
    assert capsys.readouterr().err == f"Error: {out} exists; use --force to replace it\n"
    assert out.read_text(encoding="utf-8") == "keep\n"


def test_export_csv_round_trip(tmp_path: Path) -> None:
    league, copy = tmp_path / "league", tmp_path / "copy"
    main(["import", str(_madrid()), "--into", str(league)])
    assert main(["export", str(league), "--csv", str(copy)]) == 0
    for name in ("players.csv", "results.csv"):
        first = read_csv((league / name).read_text(encoding="utf-8"))
        second = read_csv((copy / name).read_text(encoding="utf-8"))
        assert first == second


def test_not_an_importable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("hello world\n", encoding="utf-8")
    assert main(["import", str(bad), "--into", str(tmp_path / "x")]) == 1
    assert capsys.readouterr().err == (
        "Error: notes.txt: line 1: header 'hello world' has neither a 'name' column (players) "
        "nor 'home', 'away' and 'result' columns (results)\n"
    )


def test_broken_trf_line_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = _madrid().read_text(encoding="ascii").replace("    65 w 1", "    65 w 7", 1)
    bad = tmp_path / "broken.trf"
    bad.write_text(text, encoding="ascii")
    assert main(["import", str(bad), "--into", str(tmp_path / "x")]) == 1
    assert capsys.readouterr().err.startswith(
        "Error: broken.trf: line 15: round 1: result code '7' is not one of "
        "1 = 0 + - W D L H F U Z: '001    2 m    San Felipe Gonzalez, Tomas"
    )


def test_a_workbook_that_does_not_exist_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "league.xlsm"
    assert main(["import", str(_madrid()), "--into", str(book)]) == 1
    assert capsys.readouterr().err == f"Error: No such file or directory: {book}\n"
    assert not book.exists()


def test_a_file_that_is_not_a_book_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a league\n", encoding="utf-8")
    assert main(["export", str(notes), "--csv", str(tmp_path / "out")]) == 1
    assert capsys.readouterr().err == (
        f"Error: {notes} is a file but not a workbook (.xlsm, .xlsx): xlgrade export reads a "
        "league workbook or a folder that holds players.csv and results.csv (and settings.csv)\n"
    )
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("date", ["31/02/2025", "2025-13-01", "next Tuesday"])
def test_a_bad_event_date_is_refused(
    date: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    league = tmp_path / "league"
    league.mkdir()
    out = tmp_path / "league.txt"
    assert main(["export", str(league), "--ecf", str(out), "--event-date", date]) == 1
    assert capsys.readouterr().err == f"Error: date {date!r} is not a date\n"
    assert not out.exists()


def test_the_empty_template_exports_no_player_and_no_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "league.xlsm"
    shutil.copy(TEMPLATE, book)
    before = book.read_bytes()
    out = tmp_path / "csv"
    assert main(["export", str(book), "--csv", str(out)]) == 0
    assert capsys.readouterr().out == f"{out}: settings, 0 players, 0 games written\n"
    assert sorted(path.name for path in out.iterdir()) == [
        "players.csv",
        "results.csv",
        "settings.csv",
    ]
    assert book.read_bytes() == before  # the book is only read


SETTINGS = "Setting,Value\nSeason name,2025-26\nSeason start,2025-06-01\nSeason end,2026-05-31\n"
PLAYERS_CSV = (
    'Code,Name,Club,Grade\n,"Smith, John",Anytown,150\n,"Brown, Ann",Beeton,140\n'
    ',"Green, Carl",Anytown,130\n,"White, Dora",Beeton,120\n'
)
ROWS = [  # results.csv rows 2 to 9, and what the season makes of each
    ("2025-10-01", "Div 1", "A v B", "1", "Smith, John", "1-0", "Brown, Ann", ""),  # graded
    ("2025-10-01", "Div 1", "A v B", "2", "Green, Carl", "½-½", "White, Dora", ""),  # graded
    ("2025-10-01", "Div 1", "B v A", "2", "White, Dora", "½-½", "Green, Carl", ""),  # again
    ("2025-10-08", "Div 1", "A v B", "1", "Smith, John", "0-1 def", "Brown, Ann", ""),
    ("2025-10-15", "Blitz", "", "", "Smith, John", "1-0", "Green, Carl", "blitz"),
    ("2026-07-01", "Div 1", "", "", "Brown, Ann", "0-1", "Green, Carl", ""),  # after the season
    ("2025-10-22", "Div 1", "", "", "Nobody, Known", "1-0", "Green, Carl", ""),
    ("2025-11-01", "Rapid", "", "", "Brown, Ann", "1-0", "White, Dora", "25"),
]
HEADER = ("Date", "Division", "Match", "Board", "Home player", "Result", "Away player",
          "Time control")  # fmt: skip
DETAILS = [
    "--event-code", "ABC123", "--event-name", "Anytown League", "--results-officer", "A",
    "--results-officer-address", "B", "--treasurer", "C", "--treasurer-address", "D",
]  # fmt: skip
STANDARD_EVENT = ["--moves-first-session", "30", "--minutes-first-session", "75",
                  "--minutes-rest-of-game", "15"]  # fmt: skip


def _results_csv(rows: list[tuple[str, ...]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([HEADER, *rows])
    return out.getvalue()


def _league(folder: Path, rows: list[tuple[str, ...]], settings: str | None = SETTINGS) -> Path:
    folder.mkdir()
    if settings is not None:
        (folder / "settings.csv").write_text(settings, encoding="utf-8")
    (folder / "players.csv").write_text(PLAYERS_CSV, encoding="utf-8")
    (folder / "results.csv").write_text(_results_csv(rows), encoding="utf-8")
    return folder


def _written(out: Path) -> list[tuple[str, str, str, dt.date | None]]:
    return [(g.home, g.away, g.result, g.date) for g in read_ecf_file(out.read_text("utf-8")).games]


def test_export_writes_only_the_rows_the_season_grades(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    league = _league(tmp_path / "league", ROWS)
    out = tmp_path / "league.txt"
    assert main(["export", str(league), "--ecf", str(out), *DETAILS, *STANDARD_EVENT]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "left out of the ECF file (6 rows):",
        "  Results row 4: duplicate game: the same game as row 3 ('Green, Carl' v "
        "'White, Dora', '½-½'): graded once",
        "  Results row 5: default: '0-1 def': away won by default",
        "  Results row 6: time control not gradable: 'blitz': lightning chess is not graded",
        "  Results row 7: date outside season: 2026-07-01 is outside the season 2025-06-01 to "
        "2026-05-31",
        "  Results row 8: unknown player: no player is called 'Nobody, Known'",
        "  Results row 9: rapidplay: graded on the rapidplay list; the event's time control "
        "'30/75, 15' is standard",
        f"{out}: 2 games written; 1 defaults and byes left out; 5 other rows left out "
        "(1 date outside season, 1 duplicate game, 1 rapidplay, 1 time control not gradable, "
        "1 unknown player)",
    ]
    day = dt.date(2025, 10, 1)
    assert _written(out) == [
        ("Smith, John", "Brown, Ann", "1-0", day),
        ("Green, Carl", "White, Dora", "½-½", day),
    ]
    event = read_ecf_file(out.read_text(encoding="utf-8")).event
    assert (event.event_date, event.final_result_date) == (day, day)  # the games written


def test_a_rapidplay_event_writes_the_rapidplay_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    league = _league(tmp_path / "league", ROWS)
    out = tmp_path / "rapid.txt"
    assert (
        main(["export", str(league), "--ecf", str(out), *DETAILS, "--minutes-for-game", "25"]) == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:3] == [
        "  Results row 2: standard play: graded on the standard play list; the event's time "
        "control '25' is rapidplay",
        "  Results row 3: standard play: graded on the standard play list; the event's time "
        "control '25' is rapidplay",
    ]
    assert lines[-1] == (
        f"{out}: 1 games written; 1 defaults and byes left out; 6 other rows left out "
        "(1 date outside season, 1 duplicate game, 2 standard play, 1 time control not "
        "gradable, 1 unknown player)"
    )
    assert _written(out) == [("Brown, Ann", "White, Dora", "1-0", dt.date(2025, 11, 1))]


def test_an_event_whose_time_control_is_not_gradable_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    league = _league(tmp_path / "league", ROWS)
    out = tmp_path / "blitz.txt"
    assert (
        main(["export", str(league), "--ecf", str(out), *DETAILS, "--minutes-for-game", "5"]) == 1
    )
    assert capsys.readouterr().err == (
        "Error: the event's time control '5' is not gradable (5 minutes over 60 moves is "
        "lightning): give the time control of the games to submit\n"
    )
    assert not out.exists()


def test_a_folder_without_settings_is_graded_in_the_season_of_its_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 1 October 2024 falls in the season 1 June 2024 to 31 May 2025 (docs/rules.md §11).
    rows = [("2024-10-01", "Div 1", f"Round {n}", "1", "Smith, John", "1-0", "Brown, Ann", "")
            for n in range(1, 23)]  # fmt: skip
    league = _league(tmp_path / "league", rows, settings=None)
    out = tmp_path / "old.txt"
    dates = ["--event-date", "01/10/2024", "--final-result-date", "01/10/2024"]
    assert main(["export", str(league), "--ecf", str(out), *DETAILS, *STANDARD_EVENT, *dates]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"note: {league / 'settings.csv'} not found: default settings used, for the 2024-25 "
        "season (2024-06-01 to 2025-05-31), the one the games were played in",
        f"{out}: 22 games written; 0 defaults and byes left out",
    ]
    assert len(_written(out)) == 22


def test_a_workbook_is_graded_with_its_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "league.xlsm"
    shutil.copy(TEMPLATE, book)
    out = tmp_path / "book.txt"
    dates = ["--event-date", "01/10/2025", "--final-result-date", "01/10/2025"]
    assert main(["export", str(book), "--ecf", str(out), *DETAILS, *STANDARD_EVENT, *dates]) == 0
    assert capsys.readouterr().out == f"{out}: 0 games written; 0 defaults and byes left out\n"


def test_a_rapidplay_event_exported_and_imported_is_graded_as_rapidplay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        ("2025-10-01", "Rapid", "", "", "Smith, John", "1-0", "Brown, Ann", "25"),
        ("2025-10-01", "Rapid", "", "", "Green, Carl", "0-1", "White, Dora", "25"),
        ("2025-10-01", "Rapid", "", "", "Smith, John", "½-½", "White, Dora", "25"),
    ]
    league = _league(tmp_path / "league", rows)
    out = tmp_path / "rapid.txt"
    assert (
        main(["export", str(league), "--ecf", str(out), *DETAILS, "--minutes-for-game", "25"]) == 0
    )
    assert capsys.readouterr().out == f"{out}: 3 games written; 0 defaults and byes left out\n"
    # A new folder with the same players (and their grades) takes the file in.
    back = tmp_path / "back"
    back.mkdir()
    shutil.copy(league / "players.csv", back / "players.csv")
    assert main(["import", str(out), "--into", str(back)]) == 0
    capsys.readouterr()
    results = list(csv.DictReader(io.StringIO((back / "results.csv").read_text("utf-8"))))
    assert [row["Time control"] for row in results] == ["25", "25", "25"]
    assert main(["season", str(back)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "3 result rows: 0 graded, 3 rapidplay, 0 not graded"
    )


def test_export_csv_keeps_the_ecf_ratings(tmp_path: Path) -> None:
    from xlgrade.formats.folder import read_folder
    from xlgrade.model import Player
    from xlgrade.workbook.build import build_workbook

    players = (
        Player("Able, Ann", "123456A", rating=1650, rating_category="A", rapid_rating=1580,
               rapid_category="P", last_rated_month=dt.date(2025, 7, 1)),
        Player("Best, Bob"),
    )  # fmt: skip
    book = tmp_path / "rated.xlsm"
    book.write_bytes(build_workbook(players))
    folder = tmp_path / "out"
    assert main(["export", str(book), "--csv", str(folder)]) == 0
    header = (folder / "players.csv").read_text(encoding="utf-8").splitlines()[0]
    assert "ECF rating,ECF category,ECF rapid rating,ECF rapid category,Last rated month," in header
    ann, bob = read_folder(folder).players
    assert (ann.rating, ann.rating_category, ann.rapid_rating, ann.rapid_category) == (
        1650, "A", 1580, "P",
    )  # fmt: skip
    assert ann.last_rated_month == dt.date(2025, 7, 1)
    assert (bob.rating, bob.rating_category, bob.last_rated_month) == (None, None, None)


def test_the_events_control_is_put_on_a_list_by_the_books_system() -> None:
    from xlgrade.commands.export import _event_kinds
    from xlgrade.errors import GradingError
    from xlgrade.formats.ecffile import EcfEvent
    from xlgrade.season import STANDARD
    from xlgrade.settings import GRADING_1997, RATING_2020

    # 75 minutes + 10 seconds a move: 85 minutes over 60 moves, standard play when rated
    # (docs/rules.md §11b); rule D of the 1997 leaflet wants 30 seconds a move.
    event = EcfEvent(minutes_for_game=75, seconds_per_move=10)
    assert _event_kinds(event, RATING_2020) == (STANDARD,)
    with pytest.raises(GradingError, match=r"'75\+10' is not gradable \(Fischer mode"):
        _event_kinds(event, GRADING_1997)
    with pytest.raises(GradingError, match=r"'5' is not rated \(5 minutes each"):
        _event_kinds(EcfEvent(minutes_for_game=5), RATING_2020)


def test_export_csv_keeps_the_divisions_player_columns(tmp_path: Path) -> None:
    from xlgrade.formats.folder import read_folder
    from xlgrade.model import Player
    from xlgrade.workbook.build import build_workbook

    ann = Player("Able, Ann", estimated_rating=1610.0, latest_rating=1720.0,
                 registered_team="Redmire A", registered_from=dt.date(2025, 10, 1),
                 fide_rating=1850.0, ecf_member=False)  # fmt: skip
    book = tmp_path / "league.xlsm"
    book.write_bytes(build_workbook([ann, Player("Best, Bob", ecf_member=True)]))
    folder = tmp_path / "out"
    assert main(["export", str(book), "--csv", str(folder)]) == 0
    read, bob = read_folder(folder).players
    assert (read.estimated_rating, read.latest_rating, read.fide_rating) == (1610, 1720, 1850)
    assert (read.registered_team, read.registered_from) == ("Redmire A", dt.date(2025, 10, 1))
    assert (read.ecf_member, bob.ecf_member, bob.registered_team) == (False, True, "")


@pytest.mark.parametrize(
    ("data", "text", "note"),
    [
        # "Müller" from Windows: 0xFC is no UTF-8, and Windows-1252's "ü".
        (
            "Name,Grade\nSmith J,150\nMüller K,120\n".encode("cp1252"),
            "Müller K",
            "not UTF-8 (byte 0xFC on line 3 is not UTF-8): read as Windows-1252, so check its "
            "accented letters; save the file as UTF-8 to be sure",
        ),
        # 0x81 is none of Windows-1252's characters: ISO-8859-1 reads every byte.
        (
            b"Name,Grade\nSmith J,150\nK\x81hn K,120\n",
            "K\x81hn K",
            "not UTF-8 (byte 0x81 on line 3 is not UTF-8): read as ISO-8859-1, so check its "
            "accented letters; save the file as UTF-8 to be sure",
        ),
        # A spreadsheet's "Unicode text" is UTF-16 after its byte-order mark: read, no note.
        ("Name,Grade\nSmith J,150\nMüller K,120\n".encode("utf-16"), "Müller K", None),
    ],
)
def test_a_file_not_in_utf8_is_read_as_it_most_likely_is_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, text: str, note: str | None
) -> None:
    source = tmp_path / "players.csv"
    source.write_bytes(data)
    assert main(["import", str(source), "--into", str(tmp_path / "league")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if "UTF-8" in line] == (
        [f"note: players.csv: {note}"] if note else []
    )
    assert text in (tmp_path / "league" / "players.csv").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "command",
    [
        ["season", "{folder}"],
        ["season", "{folder}", "--exceptions"],
        ["export", "{folder}", "--csv", "{out}"],
        ["eligibility", "{folder}"],
        ["import", str(TRF / "san_viator_2018.trf"), "--into", "{folder}"],
    ],
)
def test_every_command_that_reads_a_folder_says_a_file_is_not_utf8(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    # The example league's players.csv saved by a spreadsheet on Windows: line 3's club
    # "Neue Rüstung" has "ü" as the byte 0xFC, which is no UTF-8.
    from tests.paths import ROOT

    folder = tmp_path / "league"
    shutil.copytree(ROOT / "examples" / "league", folder)
    players = folder / "players.csv"
    text = players.read_text(encoding="utf-8")
    assert text.splitlines()[2].startswith('616274F,"Abbott, Jennifer W",New Rishworth,')
    players.write_bytes(text.replace("New Rishworth", "Neue Rüstung", 1).encode("cp1252"))
    args = [a.format(folder=folder, out=tmp_path / "out") for a in command]
    assert main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if "UTF-8" in line] == [
        f"note: {players}: not UTF-8 (byte 0xFC on line 3 is not UTF-8): read as Windows-1252, "
        "so check its accented letters; save the file as UTF-8 to be sure"
    ]


def test_a_folder_file_not_utf8_is_said_even_when_the_command_then_stops(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "league"
    folder.mkdir()
    (folder / "players.csv").write_bytes("Name,Grading\nMüller K,120\n".encode("cp1252"))
    (folder / "results.csv").write_text("Home player,Result,Away player\n", encoding="utf-8")
    assert main(["season", str(folder)]) == 1
    said = capsys.readouterr()
    assert said.out.startswith(f"note: {folder / 'players.csv'}: not UTF-8 (byte 0xFC on line 2")
    assert "did you mean 'Grade'?" in said.err
