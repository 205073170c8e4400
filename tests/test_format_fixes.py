"""Points of the JaVaFo ``BB?`` lines in a TRF, the time control an ECF results file gives its
games, and which rows ``xlgrade export --ecf`` submits.

Reference values: the ``BB?`` meanings as JaVaFo and bbpPairings read them (BBW every win,
full-point bye included; BBD every draw, half-point bye included; BBL a loss; BBZ the
zero-point bye; BBF the forfeit loss; BBU the pairing-allocated bye, else as BBW), the round
codes read from column 99 + 10k of the real report, and the season's own checks
(``xlgrade season``).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import shutil
from pathlib import Path

import pytest

from xlgrade.cli import main
from xlgrade.eligibility import classify
from xlgrade.errors import FormatError
from xlgrade.formats.ecffile import EcfEvent, read_ecf_file, write_ecf_file
from xlgrade.formats.trf import check_tournament, parse_trf
from xlgrade.model import Game, Player

ROOT = Path(__file__).resolve().parent.parent
MADRID = ROOT / "tests" / "data" / "trf" / "san_viator_2018.trf"
TEMPLATE = ROOT / "workbook" / "xlgrade-template.xlsm"
ROUNDS = 7  # SOURCES.md

# Points of each round code in a 3-1-0 event, as BBW 3.0 and BBD 1.0 define it.
THREE_ONE_NIL = {"1": 3, "+": 3, "W": 3, "F": 3, "U": 3, "=": 1, "D": 1, "H": 1,
                 "0": 0, "L": 0, "-": 0, "Z": 0, " ": 0}  # fmt: skip


def _madrid() -> str:
    if not MADRID.is_file():
        pytest.fail(f"data file {MADRID} is missing: the reports are bundled in tests/data/trf")
    return MADRID.read_text(encoding="ascii")


def _codes(line: str) -> str:
    """The round codes of a 001 line, read from column 99 + 10k."""
    return line.ljust(91 + 10 * ROUNDS)[98::10][:ROUNDS].upper()


def _rescored(text: str, points: dict[str, int]) -> str:
    """The report with each player's points (columns 81-84) the sum of his codes' points."""
    lines = []
    for line in text.splitlines():
        if line.startswith("001"):
            total = sum(points[code] for code in _codes(line))
            line = f"{line[:80]}{total:4.1f}{line[84:]}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def _player(rank: int, name: str, points: str, *rounds: str) -> str:
    return f"001 {rank:4d}      {name:<33} {'':<32}{points:>4} {'':4}" + "".join(
        f"  {r}" for r in rounds
    )


# --- TRF: the BB? lines -------------------------------------------------------------------


def test_a_forfeit_loss_line_leaves_the_full_point_byes_alone() -> None:
    text = _madrid()
    # The report has full-point byes (F) and forfeit losses (-), both as the defaults score them.
    codes = "".join(_codes(line) for line in text.splitlines() if line.startswith("001"))
    assert codes.count("F") == 3
    assert codes.count("-") == 15
    tournament = parse_trf("BBF  0.0\n" + text, MADRID.name)
    assert (tournament.score("F"), tournament.score("-")) == (1.0, 0.0)
    assert check_tournament(tournament) == ()


def test_a_three_one_nil_report_adds_up() -> None:
    text = _rescored(_madrid(), THREE_ONE_NIL)
    codes = "".join(_codes(line) for line in text.splitlines() if line.startswith("001"))
    assert all(codes.count(c) for c in "+FHU")  # every code the old reading got wrong is here
    tournament = parse_trf("BBW  3.0\nBBD  1.0\n" + text, MADRID.name)
    assert {code: tournament.score(code) for code in "1+WFU=DH0L-Z"} == {
        code: float(points) for code, points in THREE_ONE_NIL.items() if code != " "
    }
    assert check_tournament(tournament) == ()
    # A total that really is wrong is still reported.
    first = next(line for line in text.splitlines() if line.startswith("001"))
    wrong = text.replace(first, f"{first[:80]}{float(first[80:84]) + 1:4.1f}{first[84:]}", 1)
    problems = check_tournament(parse_trf("BBW  3.0\nBBD  1.0\n" + wrong, MADRID.name))
    assert [(p.row, p.what) for p in problems] == [(16, "points")]  # line 14, after two more


def test_each_line_sets_the_codes_of_its_kind_of_result() -> None:
    lines = "BBW  3.0\nBBD  1.5\nBBL  0.5\nBBZ  0.2\nBBF  0.1\nBBU  2.0\n"
    tournament = parse_trf(lines + _player(1, "Smith, John", "0.0"))
    assert {code: tournament.score(code) for code in "1+WF=DH0LZ-U"} == {
        "1": 3.0, "+": 3.0, "W": 3.0, "F": 3.0, "=": 1.5, "D": 1.5, "H": 1.5,
        "0": 0.5, "L": 0.5, "Z": 0.2, "-": 0.1, "U": 2.0,
    }  # fmt: skip
    # A forfeit with no opponent is a bye: "+" the pairing-allocated one, "-" zero points.
    assert tournament.score("+", paired=False) == 2.0
    assert tournament.score("-", paired=False) == 0.2


def test_the_pairing_allocated_bye_scores_as_a_win_unless_given() -> None:
    player = _player(1, "Smith, John", "0.0")
    assert parse_trf("BBW  3.0\n" + player).score("U") == 3.0
    assert parse_trf("BBU  1.0\nBBW  3.0\n" + player).score("U") == 1.0
    assert parse_trf("162  P 1.0\nBBW  3.0\n" + player).score("U") == 1.0


def test_unpaired_forfeits_are_checked_as_byes() -> None:
    # bbpPairings scores "0000 - +" as the pairing-allocated bye and "0000 - -" as absent.
    text = "BBW  3.0\nBBU  1.0\n" + "\n".join(
        [
            _player(1, "Smith, John", "4.0", "   2 w 1", "0000 - +"),
            _player(2, "Brown, Ann", "0.0", "   1 b 0", "0000 - -"),
        ]
    )
    assert check_tournament(parse_trf(text)) == ()


def test_a_bb_line_that_is_not_a_number_is_named() -> None:
    with pytest.raises(FormatError) as error:
        parse_trf("BBW  three\n" + _player(1, "Smith, John", "0.0"))
    assert str(error.value) == "line 1: points 'three' is not a number: 'BBW  three'"


# --- ECF file: the event's time control on every game --------------------------------------

EVENT = EcfEvent(
    event_code="ABC123", submission_index="1", event_name="Anytown Rapidplay",
    event_date=dt.date(2025, 10, 1), final_result_date=dt.date(2025, 10, 1),
    results_officer="A Grader", results_officer_address="1 High St", treasurer="T Reasurer",
    treasurer_address="2 Low St",
)  # fmt: skip
PLAYERS = (Player("Smith, John", club="Anytown"), Player("Brown, Ann", club="Beeton"))
GAMES = (Game("Smith, John", "Brown, Ann", "1-0", dt.date(2025, 10, 1), "Anytown Rapidplay"),)


@pytest.mark.parametrize(
    ("fields", "text", "kind"),
    [
        ({"minutes_for_game": 25}, "25", "rapid"),
        ({"minutes_for_game": 90}, "90", "standard"),
        ({"minutes_for_game": 15, "seconds_per_move": 10}, "15+10", "rapid"),
        ({"minutes_for_game": 60, "seconds_per_move": 30}, "60+30", "standard"),
        (
            {"moves_first_session": 30, "minutes_first_session": 75, "minutes_rest_of_game": 15},
            "30/75, 15",
            "standard",
        ),
        (
            {
                "moves_first_session": 40,
                "minutes_first_session": 90,
                "minutes_rest_of_game": 30,
                "seconds_per_move": 30,
            },
            "40/90+30, 30+30",
            "standard",
        ),
        (
            {
                "moves_first_session": 40,
                "minutes_first_session": 100,
                "moves_second_session": 20,
                "minutes_second_session": 50,
                "minutes_rest_of_game": 15,
            },
            "40/100, 20/50, 15",
            "standard",
        ),
        (
            {
                "moves_first_session": 40,
                "minutes_first_session": 100,
                "moves_second_session": 20,
                "minutes_second_session": 50,
            },
            "40/100, 20/50",
            "standard",
        ),
    ],
)
def test_games_read_back_carry_the_events_time_control(
    fields: dict[str, int], text: str, kind: str
) -> None:
    event = EcfEvent(**{**EVENT.__dict__, **fields})
    submission = read_ecf_file(write_ecf_file(event, PLAYERS, GAMES))
    assert submission.event.time_control == text
    assert [g.time_control for g in submission.games] == [text]
    assert classify(text).kind == kind


def test_fields_without_their_partner_give_no_time_control() -> None:
    assert EcfEvent().time_control == ""
    assert EcfEvent(moves_first_session=40, minutes_rest_of_game=30).time_control == ""
    assert EcfEvent(minutes_first_session=90, seconds_per_move=30).time_control == ""


# --- export --ecf: only what the season grades -----------------------------------------------

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


def test_a_folder_without_settings_is_graded_with_the_defaults(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [("2024-10-01", "Div 1", f"Round {n}", "1", "Smith, John", "1-0", "Brown, Ann", "")
            for n in range(1, 23)]  # fmt: skip
    league = _league(tmp_path / "league", rows, settings=None)
    out = tmp_path / "old.txt"
    dates = ["--event-date", "01/10/2024", "--final-result-date", "01/10/2024"]
    assert main(["export", str(league), "--ecf", str(out), *DETAILS, *STANDARD_EVENT, *dates]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "left out of the ECF file (22 rows):"
    assert lines[1] == (
        "  Results row 2: date outside season: 2024-10-01 is outside the season 2025-06-01 to "
        "2026-05-31"
    )
    assert lines[21:] == [
        "  … and 2 more",
        f"note: {league / 'settings.csv'} not found: default settings used (season 2025-06-01 "
        "to 2026-05-31)",
        f"{out}: 0 games written; 0 defaults and byes left out; 22 other rows left out "
        "(22 date outside season)",
    ]
    assert _written(out) == []


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
