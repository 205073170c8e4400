"""``xlgrade recalc`` and ``xlgrade new-season`` on awkward files: a workbook that is not a league
book is refused untouched; the output place is checked before any grading; the written file keeps
the permission bits of the one it replaces; a read-only book is refused; a symbolic link is
followed."""

from __future__ import annotations

import io
import os
import stat
import sys
import zipfile
from pathlib import Path

import pytest

from tests.league import build_league
from xlgrade.cli import main
from xlgrade.formats import files
from xlgrade.formats.files import check_target
from xlgrade.workbook import recalc
from xlgrade.workbook.package import write_package

POSIX = pytest.mark.skipif(sys.platform == "win32", reason="POSIX permission bits")

_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG = "http://schemas.openxmlformats.org/package/2006/relationships"


def plain_workbook(*sheets: str) -> bytes:
    """An ordinary workbook with empty sheets named ``sheets``, as a spreadsheet saves one."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as book:
        overrides = "".join(
            f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
            for i in range(1, len(sheets) + 1)
        )
        book.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.'
            'org/package/2006/content-types"><Default Extension="rels" ContentType="application/'
            'vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" '
            'ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="'
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            f"{overrides}</Types>",
        )
        book.writestr(
            "_rels/.rels",
            f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{_PKG}"><Relationship '
            f'Id="rId1" Type="{_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        )
        entries = "".join(
            f'<sheet name="{name}" sheetId="{i}" r:id="rId{i}"/>'
            for i, name in enumerate(sheets, start=1)
        )
        book.writestr(
            "xl/workbook.xml",
            f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{_NS}" xmlns:r="{_REL}">'
            f"<sheets>{entries}</sheets></workbook>",
        )
        rels = "".join(
            f'<Relationship Id="rId{i}" Type="{_REL}/worksheet" Target="worksheets/sheet{i}.xml"/>'
            for i in range(1, len(sheets) + 1)
        )
        book.writestr(
            "xl/_rels/workbook.xml.rels",
            f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{_PKG}">{rels}'
            "</Relationships>",
        )
        for i in range(1, len(sheets) + 1):
            book.writestr(
                f"xl/worksheets/sheet{i}.xml",
                f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{_NS}"><sheetData/>'
                "</worksheet>",
            )
    return buffer.getvalue()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the command line: its exit code, standard output and standard error."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def mode(path: Path) -> int:
    """A file's permission bits."""
    return stat.S_IMODE(os.stat(path).st_mode)


# Defect 1: a workbook that is not a league book


def test_a_blank_workbook_is_refused_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "plain.xlsx"
    book.write_bytes(plain_workbook("Sheet"))
    before = book.read_bytes()
    code, out, err = run(capsys, "recalc", str(book))
    assert (code, out) == (1, "")
    assert err == (
        f"Reading {book}\nError: {book}: not a league workbook: it has no sheet named 'Players' "
        "nor 'Results' (xlgrade template OUT.xlsm writes an empty one)\n"
    )
    assert book.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["plain.xlsx"]


def test_a_book_without_results_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "half.xlsx"
    book.write_bytes(plain_workbook("Settings", "Players"))
    code, _, err = run(capsys, "recalc", str(book), "--out", str(tmp_path / "out.xlsx"))
    assert code == 1
    assert err.endswith(
        f"Error: {book}: not a league workbook: it has no sheet named 'Results' "
        "(xlgrade template OUT.xlsm writes an empty one)\n"
    )
    assert not (tmp_path / "out.xlsx").exists()


def test_new_season_refuses_a_blank_workbook(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "plain.xlsx"
    book.write_bytes(plain_workbook("Sheet"))
    code, _, err = run(capsys, "new-season", str(book), str(tmp_path / "next.xlsm"))
    assert code == 1
    assert err.endswith(
        f"Error: {book}: not a league workbook: it has no sheet named 'Players' nor 'Results' "
        "(xlgrade template OUT.xlsm writes an empty one)\n"
    )
    assert not (tmp_path / "next.xlsm").exists()


def test_a_missing_settings_sheet_is_still_only_a_problem(tmp_path: Path) -> None:
    raw = recalc.read_league_sheets(plain_workbook("Players", "Results"), tmp_path / "b.xlsx")
    assert sorted(raw) == ["Players", "Results"]


# Defect 3: the output place is checked first


def test_recalc_out_in_a_missing_folder_is_refused_before_grading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = build_league(tmp_path)
    out = tmp_path / "nodir" / "y.xlsm"
    code, stdout, err = run(capsys, "recalc", str(book), "--out", str(out))
    assert (code, stdout) == (1, "")
    # Refused as the output is locked, before the book is read.
    assert err == f"Error: the folder {str(tmp_path / 'nodir')!r} does not exist: {out}\n"


def test_new_season_out_in_a_missing_folder_is_refused_before_grading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = build_league(tmp_path)
    out = tmp_path / "nodir" / "y.xlsm"
    code, stdout, err = run(capsys, "new-season", str(book), str(out))
    assert (code, stdout) == (1, "")
    # Refused as the output is locked, before the book is read.
    assert err == f"Error: the folder {str(tmp_path / 'nodir')!r} does not exist: {out}\n"


def test_a_relative_out_names_the_folder_as_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    build_league(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "recalc", "league.xlsm", "--out", "nodir/y.xlsm")
    assert code == 1
    assert err.endswith("Error: the folder 'nodir' does not exist: nodir/y.xlsm\n")
    assert sorted(os.listdir(tmp_path)) == ["league.xlsm"]


def test_out_that_is_a_folder_or_below_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = build_league(tmp_path)
    code, _, err = run(capsys, "recalc", str(book), "--out", str(tmp_path))
    assert code == 1
    assert err.endswith(f"Error: Is a directory: {tmp_path}\n")
    below = book / "y.xlsm"
    code, _, err = run(capsys, "recalc", str(book), "--out", str(below))
    assert code == 1
    assert err.endswith(f"Error: {str(book)!r} is not a folder: {below}\n")


def test_a_folder_that_cannot_be_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    book = build_league(tmp_path)
    out = tmp_path / "y.xlsm"
    real = os.access
    monkeypatch.setattr(
        files.os, "access", lambda path, how: False if path == str(tmp_path) else real(path, how)
    )
    code, _, err = run(capsys, "recalc", str(book), "--out", str(out))
    assert code == 1
    assert err.endswith(f"Error: the folder {str(tmp_path)!r} cannot be written: {out}\n")


def test_a_failed_temporary_file_names_the_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(**_: object) -> tuple[int, str]:
        raise PermissionError(13, "Permission denied", str(tmp_path / ".xlgrade-x.tmp"))

    monkeypatch.setattr(files.tempfile, "mkstemp", refuse)
    with pytest.raises(PermissionError) as error:
        write_package(b"PK", tmp_path / "y.xlsm")
    assert (error.value.strerror, error.value.filename) == (
        "Permission denied",
        str(tmp_path / "y.xlsm"),
    )


# Defect 2: permissions, read-only books and symbolic links


@POSIX
def test_in_place_recalc_keeps_the_permission_bits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = build_league(tmp_path)
    for bits in (0o644, 0o640, 0o664):
        os.chmod(book, bits)
        assert run(capsys, "recalc", str(book))[0] == 0
        assert mode(book) == bits


@POSIX
def test_a_new_out_file_gets_the_umask_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = build_league(tmp_path)
    old = os.umask(0o027)
    try:
        assert run(capsys, "recalc", str(book), "--out", str(tmp_path / "new.xlsm"))[0] == 0
        assert run(capsys, "new-season", str(book), str(tmp_path / "next.xlsm"))[0] == 0
    finally:
        os.umask(old)
    assert mode(tmp_path / "new.xlsm") == 0o640
    assert mode(tmp_path / "next.xlsm") == 0o640


@POSIX
def test_a_read_only_book_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = build_league(tmp_path)
    os.chmod(book, 0o444)
    before = book.read_bytes()
    try:
        code, out, err = run(capsys, "recalc", str(book))
    finally:
        os.chmod(book, 0o644)
    assert (code, out) == (1, "")
    assert err == f"Reading {book}\nError: the file is read-only, so it was not replaced: {book}\n"
    assert book.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["league.xlsm"]


@POSIX
def test_new_season_force_over_a_read_only_book_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = build_league(tmp_path)
    out = tmp_path / "next.xlsm"
    out.write_bytes(b"old")
    os.chmod(out, 0o444)
    try:
        code, _, err = run(capsys, "new-season", str(book), str(out), "--force")
    finally:
        os.chmod(out, 0o644)
    assert code == 1
    assert err.endswith(f"Error: the file is read-only, so it was not replaced: {out}\n")
    assert out.read_bytes() == b"old"


@POSIX
def test_a_symbolic_link_is_followed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = build_league(tmp_path)
    os.chmod(book, 0o640)
    before = book.read_bytes()
    link = tmp_path / "link.xlsm"
    link.symlink_to(book.name)
    code, out, _ = run(capsys, "recalc", str(link))
    assert code == 0
    assert out.endswith(f"Wrote {link}\n")
    assert link.is_symlink()
    assert os.readlink(link) == book.name
    assert book.read_bytes() != before
    assert mode(book) == 0o640
    assert sorted(os.listdir(tmp_path)) == ["league.xlsm", "link.xlsm"]


def test_check_target_returns_the_file_to_write(tmp_path: Path) -> None:
    book = tmp_path / "a.xlsm"
    assert check_target(book) == str(book)
    book.write_bytes(b"x")
    if sys.platform != "win32":
        link = tmp_path / "b.xlsm"
        link.symlink_to(book)
        assert check_target(link) == str(book)


def test_new_season_will_not_replace_this_seasons_book(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = build_league(tmp_path)
    before = book.read_bytes()
    link = tmp_path / "next.xlsm"
    link.symlink_to(book.name)
    for out in (book, link):
        assert main(["new-season", str(book), str(out), "--force"]) == 1
        assert capsys.readouterr().err.splitlines()[-1] == (
            f"Error: {out} is this season's book itself: give next season's book another name, "
            "so that this season's results are kept"
        )
    assert book.read_bytes() == before


def test_recalc_of_a_folder_points_to_season(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "league"
    folder.mkdir()
    assert main(["recalc", str(folder)]) == 1
    assert capsys.readouterr().err == (
        f"Error: {folder} is a folder: xlgrade recalc rewrites a workbook (.xlsm, .xlsx); "
        f"`xlgrade season {folder}` grades a league kept as CSV files\n"
    )
    assert list(folder.iterdir()) == []
