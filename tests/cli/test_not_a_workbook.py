"""A file that is not a workbook gives ``Error: FILE: not a workbook: …``, exit code 1, and the
file is left as it was."""

from pathlib import Path

import pytest

from xlgrade.cli import main

CALAMINE_SAYS = "no zip end-of-directory record"


@pytest.mark.parametrize("command", [["recalc"], ["new-season"]])
def test_a_file_that_is_not_a_workbook(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    book = tmp_path / "league.xlsm"
    book.write_bytes(b"these are not the bytes of a workbook\n")
    extra = [str(tmp_path / "next.xlsm")] if command == ["new-season"] else []
    assert main([*command, str(book), *extra]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == f"Error: {book}: not a workbook: {CALAMINE_SAYS}"
    assert book.read_bytes() == b"these are not the bytes of a workbook\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["league.xlsm"]


_COMMANDS = {
    "recalc": ["recalc", "{book}"],
    "recalc --out": ["recalc", "{book}", "--out", "{folder}/out.xlsm"],
    "season": ["season", "{book}"],
    "eligibility": ["eligibility", "{book}"],
    "export --csv": ["export", "{book}", "--csv", "{folder}/exported"],
    "export --ecf": ["export", "{book}", "--ecf", "{folder}/league.txt"],
    "new-season": ["new-season", "{book}", "{folder}/next.xlsm"],
    "import --into": ["import", "{folder}/new.csv", "--into", "{book}"],
    "import --out": ["import", "{folder}/new.csv", "--into", "{book}", "--out", "{folder}/o.xlsm"],
}


@pytest.mark.parametrize("command", list(_COMMANDS))
@pytest.mark.parametrize("missing", ["Players", "Results"])
def test_a_league_book_without_its_players_or_results_sheet_stops_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, missing: str
) -> None:
    import warnings

    import openpyxl  # type: ignore[import-untyped]

    from tests.league import build_league

    (tmp_path / "source").mkdir()
    source = build_league(tmp_path / "source")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # openpyxl's words on the print areas it keeps
        drawn = openpyxl.load_workbook(source, keep_vba=True)
    del drawn[missing]  # the grader deleted (or renamed) the sheet
    folder = tmp_path / "league"
    folder.mkdir()
    book = folder / "league.xlsm"
    drawn.save(book)
    (folder / "new.csv").write_text(
        "Date,Division,Home player,Result,Away player\n2025-12-03,Division 1,123456A,1-0,456789E\n",
        encoding="utf-8",
    )
    before = book.read_bytes()
    argv = [part.format(book=book, folder=folder) for part in _COMMANDS[command]]
    assert main(argv) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith(f"Error: {book}: ")
    assert f"no sheet named '{missing}'" in err[-1]
    assert book.read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == ["league.xlsm", "new.csv"]
