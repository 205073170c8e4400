"""``xlgrade import`` and ``xlgrade export`` on real files in a temporary folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from xlgrade.cli import main
from xlgrade.formats.csvfile import read_csv
from xlgrade.formats.ecffile import read_ecf_file

MADRID = Path(__file__).parent / "data" / "trf" / "san_viator_2018.trf"


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
    # Importing again adds no player twice: all 137 are matched by name.
    assert main(["import", str(_madrid()), "--into", str(league)]) == 0
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
