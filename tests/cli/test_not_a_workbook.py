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
