"""Commands that write: two imports into one book at once both land; a book swapped for a
symbolic link between the reading and the writing does not overwrite the link's target; a book
open in Excel is refused; a full disk names the file and leaves every file whole."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.league import build_league
from tests.paths import ROOT, TRF
from xlgrade.cli import main
from xlgrade.formats import files
from xlgrade.formats.files import locked
from xlgrade.workbook import recalc
from xlgrade.workbook.package import read_sheets

SMALL_TRF = TRF / "2020_06.trf"
POSIX = pytest.mark.skipif(sys.platform == "win32", reason="symbolic links")


def _results(book: Path) -> int:
    rows = read_sheets(book, ["Results"])["Results"][1:]
    return sum(1 for row in rows if any(value is not None for value in row))


def test_two_imports_at_once_both_land(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = build_league(tmp_path)
    before = _results(book)
    command = [sys.executable, "-m", "xlgrade", "import", str(SMALL_TRF), "--into", str(book)]
    with locked(book):
        # The other run starts while this one holds the book; it waits, then reads what
        # this one wrote (the same file: --again, or it is refused as imported before).
        command.append("--again")
        other = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert main(["import", str(SMALL_TRF), "--into", str(book)]) == 0
    out, err = other.communicate(timeout=120)
    assert other.returncode == 0, err.decode()
    assert "56 games added" in capsys.readouterr().out
    assert b"56 games added" in out
    assert _results(book) == before + 2 * 56
    assert sorted(p.name for p in tmp_path.iterdir()) == ["league.xlsm"]


@POSIX
def test_a_book_swapped_for_a_link_during_recalc_leaves_the_links_target(
    tmp_path: Path,
) -> None:
    book = build_league(tmp_path)
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"keep me")

    def swap(line: str) -> None:
        if line.startswith("Writing"):
            book.rename(tmp_path / "moved.xlsm")
            book.symlink_to(victim)

    recalc.recalculate_book(book, progress=swap)
    assert victim.read_bytes() == b"keep me"
    assert not book.is_symlink()
    assert "Grading List" in read_sheets(book, ["Grading List"])


@pytest.mark.parametrize("command", ["recalc", "import"])
def test_a_book_open_in_excel_is_refused_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    book = build_league(tmp_path)
    (tmp_path / "~$league.xlsm").write_bytes(b"")
    before = book.read_bytes()
    argv = ["recalc", str(book)] if command == "recalc" else ["import", str(SMALL_TRF)]
    if command == "import":
        argv += ["--into", str(book)]
    assert main(argv) == 1
    err = capsys.readouterr().err.splitlines()[-1]
    assert err.startswith(f"Error: {book}: the file is open in Excel ('~$league.xlsm' is")
    assert "close it there and run again" in err
    assert book.read_bytes() == before


def _full_disk(handle: int) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def test_export_csv_on_a_full_disk_names_the_file_and_keeps_the_old_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    book = build_league(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.csv").write_text("old\n")
    monkeypatch.setattr(files.os, "fsync", _full_disk)
    assert main(["export", str(book), "--csv", str(out), "--force"]) == 1
    assert capsys.readouterr().err == (f"Error: No space left on device: {out / 'players.csv'}\n")
    assert (out / "results.csv").read_text() == "old\n"
    assert sorted(p.name for p in out.iterdir()) == ["results.csv"]


def test_a_folder_import_on_a_full_disk_leaves_no_temporary_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "league"
    monkeypatch.setattr(files.os, "fsync", _full_disk)
    assert main(["import", str(SMALL_TRF), "--into", str(folder)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Error: No space left on device: ")
    assert err.rstrip().endswith(".csv")
    assert sorted(p.name for p in folder.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["league"]


def test_an_os_error_without_a_file_is_not_followed_by_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(path: object, *args: object, **kwargs: object) -> None:
        raise OSError(errno.EIO, "Input/output error")

    book = build_league(tmp_path)
    monkeypatch.setattr(recalc, "write_sheets", fail)
    assert main(["recalc", str(book)]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == "Error: Input/output error"
    assert os.path.exists(book)


def _files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (lock files and temporary files included), by path."""
    if not folder.exists():
        return {}
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _disk_full_at(monkeypatch: pytest.MonkeyPatch, write: int) -> list[int]:
    """Make the disk full at the ``write``-th file flushed to it; returns the count of flushes."""
    real, count = os.fsync, [0]

    def fsync(handle: int) -> None:
        count[0] += 1
        if count[0] == write:
            _full_disk(handle)
        real(handle)

    monkeypatch.setattr(files.os, "fsync", fsync)
    return count


_RATINGS = (
    (ROOT / "tests" / "data" / "ecf" / "rating-list-header-2022-10.csv").read_text(encoding="utf-8")
    + '"123456A","Smith, John",,,"M","ENG",1650,"K",1662,"K",1580,"P",1590,"P"'
    + ',"","","",""' * 4
    + ',"ANY1","Anytown",""\n'
)
"""A list in the ECF's published layout (October 2022), one player on it."""


def _command(kind: str, tmp_path: Path) -> tuple[list[str], Path, int]:
    """A command that writes, the folder it writes in (made ready, with old files where it
    replaces some), and the number of files it writes."""
    out = tmp_path / "out"
    out.mkdir()
    if kind == "export --csv":
        book = build_league(tmp_path)
        for name in ("players.csv", "results.csv", "settings.csv"):
            (out / name).write_text(f"old {name}\n")
        return ["export", str(book), "--csv", str(out), "--force"], out, 3
    if kind == "import --into FOLDER":  # players, results and a new settings.csv
        (out / "players.csv").write_text('Name,Grade\n"Old, Player",100\n')
        return ["import", str(SMALL_TRF), "--into", str(out)], out, 3
    if kind == "ratings --into FOLDER":
        (tmp_path / "list.csv").write_text(_RATINGS)
        (out / "players.csv").write_text('Code,Name,Grade\n123456A,"Smith, John",127\n')
        return ["ratings", str(tmp_path / "list.csv"), "--into", str(out)], out, 1
    if kind == "new-season":
        book = build_league(tmp_path)
        (out / "next.xlsm").write_text("an old book\n")
        return ["new-season", str(book), str(out / "next.xlsm"), "--force"], out, 1
    assert kind.startswith("template")
    (out / "book.xlsm").write_text("an old book\n")
    return ["template", str(out / "book.xlsm"), "--force", *kind.split()[1:]], out, 1


_WRITERS = (
    "export --csv", "import --into FOLDER", "ratings --into FOLDER", "new-season", "template",
    "template --example",
)  # fmt: skip


@pytest.mark.parametrize("kind", _WRITERS)
def test_a_command_that_writes_writes_all_its_files_or_none(
    kind: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    command, out, writes = _command(kind, tmp_path)
    before = _files(out)
    for write in range(1, writes + 1):  # the disk full at each file written in turn
        with monkeypatch.context() as patched:
            _disk_full_at(patched, write)
            assert main(command) == 1, (kind, write)
        said = capsys.readouterr().err.splitlines()[-1]
        assert said.startswith(f"Error: No space left on device: {out}"), said
        assert _files(out) == before, (kind, write)  # every file as it was, nothing left over
    count = _disk_full_at(monkeypatch, 0)  # no full disk: all written, each file once
    assert main(command) == 0
    assert count[0] == writes
    after = _files(out)
    assert len(after) == len(before | after)  # no file left behind beside them
    assert all(after[name] != old for name, old in before.items() if name in after)


def test_export_csv_past_the_file_size_limit_leaves_the_folder_as_it_was(
    tmp_path: Path,
) -> None:
    # ulimit -f: a file may grow to 600 bytes, so players.csv (504 bytes, written first) fits
    # and results.csv (651) does not: EFBIG, with SIGXFSZ ignored so that the write fails.
    import resource
    import signal

    book = build_league(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "players.csv").write_text("old\n")
    command = [sys.executable, "-m", "xlgrade", "export", str(book), "--csv", str(out)]

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (600, 600))

    run = subprocess.run(
        [*command, "--force"], cwd=ROOT, capture_output=True, text=True, preexec_fn=limited
    )
    assert run.returncode == 1, run.stderr
    assert run.stderr.startswith("Error: File too large: ")
    assert _files(out) == {"players.csv": b"old\n"}


@pytest.mark.parametrize("command", ["recalc", "import"])
def test_an_out_over_a_file_needs_force(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = build_league(tmp_path)
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"my notes\n")
    args = {
        "recalc": ["recalc", str(book)],
        "import": ["import", str(SMALL_TRF), "--into", str(book)],
    }
    assert main([*args[command], "--out", str(notes)]) == 1
    assert capsys.readouterr().err == f"Error: {notes} exists; use --force to replace it\n"
    assert notes.read_bytes() == b"my notes\n"
    assert main([*args[command], "--out", str(notes), "--force"]) == 0
    assert "Grading List" in read_sheets(notes, ["Grading List"])


def _linked_folder(tmp_path: Path, name: str) -> tuple[Path, Path]:
    """A league folder whose ``name`` is a symbolic link to a file outside it."""
    folder = tmp_path / "league"
    assert main(["export", str(build_league(tmp_path)), "--csv", str(folder)]) == 0
    outside = tmp_path / "outside.csv"
    (folder / name).rename(outside)
    (folder / name).symlink_to(outside)
    return folder, outside


@POSIX
@pytest.mark.parametrize("name", ["players.csv", "results.csv", "settings.csv"])
@pytest.mark.parametrize(
    "command",
    [
        ["import", str(SMALL_TRF), "--into", "{folder}"],
        ["export", "{book}", "--csv", "{folder}", "--force"],
        ["season", "{folder}"],
    ],
    ids=["import --into FOLDER", "export --csv FOLDER", "season FOLDER"],
)
def test_a_link_in_a_league_folder_is_refused_by_name(
    name: str, command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, outside = _linked_folder(tmp_path, name)
    before = outside.read_bytes()
    capsys.readouterr()
    args = [a.format(folder=folder, book=tmp_path / "league.xlsm") for a in command]
    assert main(args) == 1
    assert capsys.readouterr().err == (
        f"Error: {folder / name}: a symbolic link (to {str(outside)!r}): xlgrade reads and "
        "writes only a league folder's own files; put the file itself there instead of the "
        "link\n"
    )
    assert outside.read_bytes() == before
    assert (folder / name).is_symlink()


@POSIX
def test_a_dangling_link_is_not_written_through(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "league"
    folder.mkdir()
    (folder / "settings.csv").symlink_to(tmp_path / "made-outside.csv")
    assert main(["import", str(SMALL_TRF), "--into", str(folder)]) == 1
    assert "settings.csv: a symbolic link" in capsys.readouterr().err
    assert not (tmp_path / "made-outside.csv").exists()
    assert sorted(p.name for p in folder.iterdir()) == ["settings.csv"]


@POSIX
@pytest.mark.parametrize(
    "command", [["import", str(SMALL_TRF), "--into", "{folder}"], ["season", "{folder}"]]
)
def test_a_pipe_in_a_league_folder_is_refused_not_waited_on(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "league"
    folder.mkdir()
    os.mkfifo(folder / "players.csv")
    assert main([a.format(folder=folder) for a in command]) == 1
    assert capsys.readouterr().err == (
        f"Error: {folder / 'players.csv'}: not a file (a device, a pipe or a socket): xlgrade "
        "reads and writes only a league folder's own files; move it away and run again\n"
    )
