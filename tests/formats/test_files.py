"""Files written whole or not at all (:mod:`xlgrade.formats.files`): the lock beside the
target, the path resolved once, a file open in Excel or LibreOffice refused, temporary files a
killed run left removed, a failed write (a full disk) naming the file and leaving it as it was."""

from __future__ import annotations

import errno
import os
import stat
import sys
import threading
from pathlib import Path

import pytest

from xlgrade.errors import InUseError
from xlgrade.formats import files
from xlgrade.formats.files import (
    check_target,
    lock_path,
    locked,
    new_temporary,
    open_elsewhere,
    stale_temporaries,
    write_whole,
)

POSIX = pytest.mark.skipif(sys.platform == "win32", reason="symbolic links and flock")


def _in_thread(target: Path, wait: float) -> BaseException | None:
    """What taking ``target``'s lock in another thread raises, if anything."""
    caught: list[BaseException] = []

    def take() -> None:
        try:
            with locked(target, wait=wait):
                pass
        except BaseException as error:
            caught.append(error)

    thread = threading.Thread(target=take)
    thread.start()
    thread.join()
    return caught[0] if caught else None


def test_a_held_lock_makes_another_writer_wait_then_refuses_it(tmp_path: Path) -> None:
    book = tmp_path / "book.xlsm"
    book.write_bytes(b"old")
    with locked(book):
        assert os.path.exists(lock_path(book))
        error = _in_thread(book, wait=0.2)
    assert isinstance(error, InUseError)
    assert str(error) == (
        f"{book}: another xlgrade run is writing it (its lock file '.book.xlsm.xlgrade-lock' "
        "is held); waited 0.2 s: run again when that run has finished"
    )
    # Released: the next writer takes it at once, and the lock file is gone.
    assert _in_thread(book, wait=0) is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.xlsm"]


def test_a_writer_waits_for_the_lock_and_then_writes(tmp_path: Path) -> None:
    book = tmp_path / "book.xlsm"
    book.write_bytes(b"old")
    order: list[str] = []
    thread = threading.Thread(target=lambda: (write_whole(b"second", book), order.append("2")))
    with locked(book):
        thread.start()
        thread.join(0.3)
        assert thread.is_alive()  # queued behind the lock
        write_whole(b"first", book)  # the holder's own write takes the lock again at once
        order.append("1")
    thread.join()
    assert order == ["1", "2"]
    assert book.read_bytes() == b"second"


@POSIX
def test_the_path_is_resolved_once_when_the_lock_is_taken(tmp_path: Path) -> None:
    real, victim = tmp_path / "book.xlsm", tmp_path / "victim.txt"
    real.write_bytes(b"old")
    victim.write_bytes(b"keep me")
    with locked(real) as path:
        real.unlink()
        real.symlink_to(victim)  # swapped for a link between the reading and the writing
        write_whole(b"new", path)
    assert victim.read_bytes() == b"keep me"
    assert not real.is_symlink()
    assert real.read_bytes() == b"new"


@POSIX
def test_a_link_given_is_followed_once(tmp_path: Path) -> None:
    real, link = tmp_path / "book.xlsm", tmp_path / "link.xlsm"
    real.write_bytes(b"old")
    link.symlink_to(real)
    with locked(link) as path:
        assert path == str(real)
        write_whole(b"new", path)
    assert link.is_symlink()
    assert real.read_bytes() == b"new"


@pytest.mark.parametrize(
    ("owner", "program"), [("~$book.xlsm", "Excel"), (".~lock.book.xlsm#", "LibreOffice")]
)
def test_a_book_open_in_a_spreadsheet_program_is_refused(
    tmp_path: Path, owner: str, program: str
) -> None:
    book = tmp_path / "book.xlsm"
    book.write_bytes(b"old")
    (tmp_path / owner).write_bytes(b"")
    assert open_elsewhere(book) == owner
    with pytest.raises(InUseError) as caught:
        write_whole(b"new", book)
    assert str(caught.value) == (
        f"{book}: the file is open in {program} ({owner!r} is beside it): close it there and "
        f"run again, or {program}'s next save would overwrite what xlgrade writes (if "
        f"{program} is not running, delete {owner!r})"
    )
    assert book.read_bytes() == b"old"
    assert open_elsewhere(tmp_path / "other.xlsm") is None


def test_temporary_files_a_killed_run_left_are_removed_by_the_next(tmp_path: Path) -> None:
    book = tmp_path / "book.xlsm"
    book.write_bytes(b"old")
    handle, left = new_temporary(book)
    os.close(handle)
    assert Path(left).name.startswith(".xlgrade-book.xlsm-")
    others = [tmp_path / ".xlgrade-other.xlsm-abcd1234.tmp", tmp_path / "mine.tmp"]
    for other in others:
        other.write_bytes(b"")
    assert stale_temporaries(book) == [left]
    write_whole(b"new", book)
    assert not os.path.exists(left)
    assert all(other.exists() for other in others)  # not this book's: left alone
    assert stale_temporaries(tmp_path / "missing" / "book.xlsm") == []


def _full_disk(handle: int) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_names_the_file_and_leaves_it_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = tmp_path / "results.csv"
    book.write_bytes(b"old rows")
    monkeypatch.setattr(files.os, "fsync", _full_disk)
    with pytest.raises(OSError, match="No space left on device") as caught:
        write_whole(b"new rows", book)
    assert caught.value.filename == str(book)
    assert book.read_bytes() == b"old rows"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.csv"]


def test_an_error_that_names_its_file_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(source: str, target: str) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", target)

    monkeypatch.setattr(files.os, "replace", refuse)
    with pytest.raises(PermissionError) as caught:
        write_whole(b"new", tmp_path / "book.xlsm")
    assert caught.value.filename == str(tmp_path / "book.xlsm")
    assert list(tmp_path.iterdir()) == []


def test_an_interrupted_write_removes_its_temporary_file(tmp_path: Path) -> None:
    def interrupt(temporary: str) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_whole(b"new", tmp_path / "book.xlsm", before_rename=interrupt)
    assert list(tmp_path.iterdir()) == []


def test_a_folder_is_locked_as_a_whole_and_made_if_missing(tmp_path: Path) -> None:
    folder = tmp_path / "league"
    with locked(folder, folder=True) as path:
        assert path == str(folder)
        assert folder.is_dir()
        assert os.path.exists(tmp_path / ".league.xlgrade-lock")
    assert not os.path.exists(tmp_path / ".league.xlgrade-lock")


def test_a_lock_file_that_cannot_be_made_names_the_target(tmp_path: Path) -> None:
    folder = tmp_path / "gone"
    with pytest.raises(FileNotFoundError) as caught, locked(folder / "book.xlsm"):
        pass
    assert caught.value.filename == str(folder / "book.xlsm")


def test_a_temporary_file_that_cannot_be_made_names_the_target(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError) as caught:
        new_temporary(tmp_path / "gone" / "book.xlsm")
    assert caught.value.filename == str(tmp_path / "gone" / "book.xlsm")


def test_check_target_returns_the_path_to_write(tmp_path: Path) -> None:
    assert check_target(tmp_path / "new.xlsm") == str(tmp_path / "new.xlsm")


def test_files_written_together_are_all_put_back_when_a_rename_fails(tmp_path: Path) -> None:
    from xlgrade.formats.files import write_together

    old, new = tmp_path / "old.csv", tmp_path / "new.csv"
    old.write_bytes(b"old\n")
    old.chmod(0o640)
    renamed: list[str] = []

    def third_fails(temporary: str) -> None:
        renamed.append(temporary)
        if len(renamed) == 3:
            raise OSError(errno.EIO, "Input/output error", temporary)

    with pytest.raises(OSError, match="Input/output error"):
        write_together(
            {old: b"replaced\n", new: b"made\n", tmp_path / "third.csv": b"x\n"},
            before_rename=third_fails,
        )
    # The two renamed are undone: the old file back, the new one gone; nothing left beside.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.csv"]
    assert old.read_bytes() == b"old\n"
    write_together({old: b"replaced\n", new: b"made\n"})
    assert (old.read_bytes(), new.read_bytes()) == (b"replaced\n", b"made\n")
    assert old.stat().st_mode & 0o777 == 0o640  # the permissions it had
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.csv", "old.csv"]


# --- A platform without file locks (Pyodide, in which xlwings Lite runs) -------------------


def _no_locks(how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the platform lock no files, as ``how`` says: Pyodide's ``sys.platform``, no
    ``fcntl`` module, an ``fcntl`` without ``flock``, or a ``flock`` the file system refuses."""
    import fcntl
    import types

    if how == "emscripten":
        monkeypatch.setattr(files.sys, "platform", "emscripten")
    elif how == "no fcntl":
        monkeypatch.setitem(sys.modules, "fcntl", None)  # import fcntl raises ImportError
    elif how == "no flock":
        bare = types.ModuleType("fcntl")
        bare.LOCK_EX, bare.LOCK_NB = fcntl.LOCK_EX, fcntl.LOCK_NB  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, "fcntl", bare)
    else:

        def refused(handle: int, operation: int) -> None:
            raise OSError(errno.ENOSYS, "Function not implemented")

        monkeypatch.setattr(fcntl, "flock", refused)


@POSIX
@pytest.mark.parametrize("how", ["emscripten", "no fcntl", "no flock", "flock not implemented"])
def test_without_file_locks_a_write_is_still_whole_and_leaves_nothing_beside_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    first, second = tmp_path / "2026-27.xlsx", tmp_path / "notes.csv"
    first.write_bytes(b"old")
    _no_locks(how, monkeypatch)
    if how in ("emscripten", "no fcntl", "no flock"):
        assert not files.has_file_locks()
    write_whole(b"new book", first)
    files.write_together({first: b"newer book", second: b"notes"})
    assert (first.read_bytes(), second.read_bytes()) == (b"newer book", b"notes")
    # A failed write leaves the target as it was, and neither its lock file nor a temporary.
    monkeypatch.setattr(files.os, "fsync", _full_disk)
    with pytest.raises(OSError, match="No space left on device"):
        write_whole(b"lost", first)
    assert first.read_bytes() == b"newer book"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["2026-27.xlsx", "notes.csv"]


@POSIX
def test_the_platform_here_locks_files_and_a_lock_that_fails_otherwise_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import fcntl

    assert files.has_file_locks()

    def broken(handle: int, operation: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(fcntl, "flock", broken)
    with pytest.raises(OSError, match="Input/output error") as caught:
        write_whole(b"new", tmp_path / "book.xlsx")
    assert caught.value.filename == str(tmp_path / "book.xlsx")
    assert not (tmp_path / "book.xlsx").exists()


@pytest.mark.parametrize("code", [errno.EINVAL, errno.ENOSYS, errno.ENOTSUP])
def test_a_file_system_with_no_disk_to_flush_to_is_written_all_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    # Emscripten's in-memory file system: fsync refused as not supported.
    def nothing_to_flush(handle: int) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(files.os, "fsync", nothing_to_flush)
    write_whole(b"book", tmp_path / "book.xlsx")
    assert (tmp_path / "book.xlsx").read_bytes() == b"book"


# --- Permissions, and a platform without os.link, fsync or chmod ---------------------------


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@POSIX
@pytest.mark.parametrize(
    ("umask", "platform", "mode"),
    [
        (0o022, "linux", 0o644),  # 0o666 less the umask, as any program's new file
        (0o027, "linux", 0o640),
        (0o077, "linux", 0o600),
        # A umask that would leave the owner unable to read the file: the ordinary bits.
        (0o777, "linux", 0o644),
        (0o377, "linux", 0o644),
        # Pyodide (xlwings Lite), which starts with umask 0o777: the ordinary bits whatever
        # the umask, every file written there being one to download.
        (0o777, "emscripten", 0o644),
        (0o077, "emscripten", 0o644),
    ],
)
def test_a_new_file_gets_the_umask_mode_and_is_never_unreadable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, umask: int, platform: str, mode: int
) -> None:
    monkeypatch.setattr(files.sys, "platform", platform)
    before = os.umask(umask)
    try:
        write_whole(b"book", tmp_path / "book.xlsx")
        files.write_together({tmp_path / "a.csv": b"a\n", tmp_path / "b.csv": b"b\n"})
    finally:
        os.umask(before)
    assert [_mode(tmp_path / name) for name in ("book.xlsx", "a.csv", "b.csv")] == [mode] * 3


@POSIX
@pytest.mark.parametrize("link", ["missing", "no hard links", "not implemented"])
def test_without_hard_links_files_written_together_are_still_put_back_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, link: str
) -> None:
    # Pyodide 0.27 has no os.link; a FAT disk or a network share refuses one.
    from xlgrade.formats.files import write_together

    if link == "missing":
        monkeypatch.delattr(files.os, "link")
    else:

        def refused(source: str, target: str) -> None:
            if link == "no hard links":
                raise OSError(errno.EPERM, "Operation not permitted", source)
            raise NotImplementedError("link")

        monkeypatch.setattr(files.os, "link", refused)
    old, other = tmp_path / "old.csv", tmp_path / "other.csv"
    old.write_bytes(b"old\n")
    old.chmod(0o640)
    other.write_bytes(b"other\n")
    renamed: list[str] = []

    def second_fails(temporary: str) -> None:
        renamed.append(temporary)
        if len(renamed) == 2:
            raise OSError(errno.EIO, "Input/output error", temporary)

    with pytest.raises(OSError, match="Input/output error"):
        write_together({old: b"replaced\n", other: b"replaced\n"}, before_rename=second_fails)
    # The first rename undone from the copy kept of the old file, with its permissions.
    assert (old.read_bytes(), other.read_bytes()) == (b"old\n", b"other\n")
    assert _mode(old) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.csv", "other.csv"]
    write_together({old: b"replaced\n", other: b"replaced too\n"})
    assert (old.read_bytes(), other.read_bytes()) == (b"replaced\n", b"replaced too\n")
    assert _mode(old) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.csv", "other.csv"]


@POSIX
def test_without_fsync_chmod_or_fcntl_a_write_is_whole_and_makes_no_lock_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("fsync", "chmod", "link"):
        monkeypatch.delattr(files.os, name)
    monkeypatch.setitem(sys.modules, "fcntl", None)
    assert not files.has_file_locks()
    target, other = tmp_path / "book.xlsx", tmp_path / "notes.csv"
    target.write_bytes(b"old")
    beside: list[list[str]] = []

    def look(temporary: str) -> None:
        beside.append(sorted(p.name for p in tmp_path.iterdir()))

    write_whole(b"new book", target, before_rename=look)
    files.write_together({target: b"newer book", other: b"notes"}, before_rename=look)
    assert (target.read_bytes(), other.read_bytes()) == (b"newer book", b"notes")
    # Nothing to hold, so no lock file: only the target and the temporary files.
    assert not [name for names in beside for name in names if name.endswith("xlgrade-lock")]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.xlsx", "notes.csv"]


@POSIX
@pytest.mark.parametrize("code", [errno.EPERM, errno.ENOTSUP])
def test_a_file_system_that_refuses_chmod_is_written_all_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    # A FAT disk refuses a mode it cannot keep (EPERM); the file keeps the one it was made with.
    def refused(path: str, mode: int) -> None:
        raise OSError(code, os.strerror(code), path)

    monkeypatch.setattr(files.os, "chmod", refused)
    write_whole(b"book", tmp_path / "book.xlsx")
    assert (tmp_path / "book.xlsx").read_bytes() == b"book"


def test_a_chmod_that_fails_otherwise_is_an_error_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(path: str, mode: int) -> None:
        raise OSError(errno.EIO, "Input/output error", path)

    monkeypatch.setattr(files.os, "chmod", broken)
    with pytest.raises(OSError, match="Input/output error"):
        write_whole(b"book", tmp_path / "book.xlsx")
    assert list(tmp_path.iterdir()) == []
