"""What xlgrade writes is what it reads: every book a command writes opens again in ``xlgrade
recalc``, and a book its own reader would refuse is not written (checked in the temporary file,
before the rename).

The unreadable book: a sheet part that declares an XML entity in a DOCTYPE and uses it in a cell
(``<!DOCTYPE x [<!ENTITY e "v">]>`` … ``&e;``), well-formed XML that the spreadsheet reader
refuses. ``xlgrade ratings`` reads only the Players sheet, so it used to copy such a Results,
Settings or Divisions sheet into a book ``recalc`` then refused, and exit 0.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest

from tests.league import build_league
from tests.paths import ROOT
from xlgrade.cli import main
from xlgrade.errors import FormatError
from xlgrade.workbook import layout
from xlgrade.workbook.package import write_package
from xlgrade.workbook.relationships import sheet_parts

LIST = ROOT / "tests" / "data" / "ecf" / "rating-list-header-2022-10.csv"
NEW_GAME = (
    "Date,Division,Home player,Result,Away player\n2025-12-03,Division 1,123456A,1-0,456789E\n"
)


def _with_entity(data: bytes, sheet: str) -> bytes:
    """The package with an entity declared in ``sheet``'s part and used in its first text."""
    part = sheet_parts(data)[sheet]
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as old, zipfile.ZipFile(out, "w") as new:
        for info in old.infolist():
            content = old.read(info)
            if info.filename == part:
                text = content.decode("utf-8")
                at = text.index("?>") + 2 if text.startswith("<?xml") else 0
                text = f'{text[:at]}<!DOCTYPE x [<!ENTITY e "v">]>{text[at:]}'
                text = re.sub(r"(<(?:\w+:)?t(?: [^>]*)?>)([^<]*)", r"\1\2&e;", text, count=1)
                content = text.encode("utf-8")
            new.writestr(info, content, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


@pytest.mark.parametrize("sheet", [layout.SETTINGS, layout.RESULTS, layout.DIVISIONS])
def test_ratings_does_not_write_a_book_recalc_would_refuse(
    sheet: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "league.xlsm"
    book.write_bytes(_with_entity(build_league(tmp_path, "clean.xlsm").read_bytes(), sheet))
    before = book.read_bytes()
    assert main(["recalc", str(book), "--out", str(tmp_path / "recalculated.xlsm")]) == 1
    refused = capsys.readouterr().err.splitlines()[-1]
    assert refused.startswith(f"Error: {book}: sheet '{sheet}' cannot be read: ")
    assert main(["ratings", str(LIST), "--into", str(book)]) == 1
    said = capsys.readouterr().err.splitlines()[-1]
    assert said.startswith(
        f"Error: {book}: nothing was written: xlgrade would not read the book it would write "
        f"(sheet '{sheet}' cannot be read: "
    )
    assert "unrecognized entity" in said
    assert book.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clean.xlsm", "league.xlsm"]


@pytest.mark.parametrize(
    "command",
    [
        ["recalc", "{book}"],
        ["recalc", "{book}", "--out", "{folder}/out.xlsx"],
        ["import", "{folder}/new.csv", "--into", "{book}"],
        ["ratings", str(LIST), "--into", "{book}"],
        ["new-season", "{book}", "{folder}/out.xlsm"],
        ["new-season", "{book}", "{folder}/out.xlsx"],
    ],
    ids=lambda argv: " ".join(argv[:1] + [a for a in argv if a.startswith("--")]),
)
def test_every_book_a_command_writes_opens_again_in_recalc(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = build_league(tmp_path)
    (tmp_path / "new.csv").write_text(NEW_GAME, encoding="utf-8")
    argv = [part.format(book=book, folder=tmp_path) for part in command]
    assert main(argv) == 0
    written = [p for p in tmp_path.iterdir() if p.name.startswith("out.")] or [book]
    (out,) = written
    capsys.readouterr()
    assert main(["recalc", str(out)]) == 0, capsys.readouterr().err


def test_the_check_is_made_before_the_rename(tmp_path: Path) -> None:
    # The writer refuses the package after writing its temporary file, before the rename:
    # the target is as it was, and the test's own hook (called last, just before the rename)
    # is never reached.
    target = build_league(tmp_path)
    before = target.read_bytes()
    bad = _with_entity(before, layout.RESULTS)
    reached: list[str] = []
    with pytest.raises(FormatError, match=r"nothing was written: xlgrade would not read"):
        write_package(bad, target, before_rename=reached.append)
    assert reached == []
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["league.xlsm"]
    write_package(before, target, before_rename=reached.append)  # a readable book is written
    assert len(reached) == 1
