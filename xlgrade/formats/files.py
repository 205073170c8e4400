"""Writing the files xlgrade makes — books, CSV folders, ECF files — whole or not at all.

Every write goes to a temporary file beside the target, named ``.xlgrade-NAME-XXXXXXXX.tmp``,
is flushed to disk and renamed over the target; if anything fails on the way (a full disk, an
interrupted run) the target is left as it was and the temporary file is removed. A run killed
outright leaves its temporary file behind: the next run that writes the same target removes it
(:func:`locked`).

Writers of one target queue: :func:`locked` holds an advisory lock on a file beside the target
(``.NAME.xlgrade-lock``) for the whole read-modify-write, so two imports into one book at once
both land, one after the other; a run that waits longer than :data:`LOCK_WAIT` seconds is
refused. The target's path is resolved once, when the lock is taken: a symbolic link there is
followed then, and what is written later goes to that file even if the link is changed in the
meantime. A target open in Excel or LibreOffice (their owner files ``~$NAME`` and
``.~lock.NAME#`` beside it) is refused before any work, since their next save would overwrite
what xlgrade wrote.

Where the platform has no file locks (:func:`has_file_locks`: Pyodide, in which xlwings Lite
runs, keeps its files in the one interpreter's memory and its ``flock`` does nothing or is
missing; a file system whose ``flock`` says it has none), :func:`locked` takes no lock and
the write goes on: each write is still whole or not at all, but two runs writing one target
at once are not queued (in xlwings Lite there is only ever the one run).

Each other call to the file system has a way round for a platform that lacks it: no
``os.fsync`` (or one the file system refuses) writes without flushing; no ``os.link`` (Pyodide
0.27 has none) or a file system without hard links keeps the replaced file as a copy; a
``chmod`` the platform or file system refuses leaves the mode it gives. A new file gets the
permission bits of any new file, 0o666 less the umask, unless that would leave its owner
unable to read or write it, or the platform is Pyodide: then :data:`ORDINARY_MODE`. Pyodide
0.27 starts with umask 0o777, under which every file would be made with mode 000, and one
the grader is to download from xlwings Lite's Files could not be read.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import BinaryIO, Final

from xlgrade.errors import FormatError, InUseError

__all__ = [
    "LOCK_WAIT",
    "ORDINARY_MODE",
    "check_target",
    "folder_file",
    "has_file_locks",
    "lock_path",
    "locked",
    "new_file_mode",
    "new_temporary",
    "open_elsewhere",
    "stale_temporaries",
    "write_together",
    "write_whole",
]

LOCK_WAIT: Final = 60.0
"""Seconds a run waits for another run writing the same target before it is refused."""
ORDINARY_MODE: Final = 0o644
"""A new file's permission bits where the umask would make it unreadable, and in Pyodide
(:func:`new_file_mode`): its owner reads and writes it, everyone else reads it."""
_UNSUPPORTED: Final = frozenset({errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP})
"""What a call says where the platform or the file system does not do it."""
_POLL: Final = 0.05
_NAME_IN_TEMP: Final = 100  # characters of the target's name kept in a temporary file's name
_held = threading.local()


def _shown(path: str) -> str:
    return os.path.dirname(path) or "."


def open_elsewhere(target: str | os.PathLike[str]) -> str | None:
    """The owner file beside ``target`` that says a spreadsheet program has it open, if any:
    Excel's ``~$NAME`` or LibreOffice's ``.~lock.NAME#``."""
    path = os.fspath(target)
    folder, name = os.path.split(path)
    for owner in (f"~${name}", f".~lock.{name}#"):
        if os.path.lexists(os.path.join(folder, owner)):
            return owner
    return None


def check_target(target: str | os.PathLike[str]) -> str:
    """Check that a file can be written at ``target`` before any work is done for it, and
    return the path to write: ``target`` itself, or the file a symbolic link there points to.

    Raises:
        FileNotFoundError: the folder ``target`` would go in does not exist.
        NotADirectoryError: that folder is a file.
        IsADirectoryError: ``target`` is a folder.
        PermissionError: ``target`` is read-only, or its folder cannot be written.
        InUseError: ``target`` is open in Excel or LibreOffice.

    Each names ``target`` as given, not the temporary file the write goes through.
    """
    given = os.fspath(target)
    real = os.path.realpath(given) if os.path.islink(given) else given
    folder = os.path.dirname(os.path.abspath(real))
    shown = _shown(real)
    if not os.path.exists(folder):
        raise FileNotFoundError(errno.ENOENT, f"the folder {shown!r} does not exist", given)
    if not os.path.isdir(folder):
        raise NotADirectoryError(errno.ENOTDIR, f"{shown!r} is not a folder", given)
    if os.path.isdir(real):
        raise IsADirectoryError(errno.EISDIR, "Is a directory", given)
    if os.path.exists(real):
        mode = os.stat(real).st_mode
        if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(real, os.W_OK):
            raise PermissionError(
                errno.EACCES, "the file is read-only, so it was not replaced", given
            )
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, f"the folder {shown!r} cannot be written", given)
    owner = open_elsewhere(real)
    if owner is not None:
        program = "Excel" if owner.startswith("~$") else "LibreOffice"
        raise InUseError(
            f"{given}: the file is open in {program} ({owner!r} is beside it): close it there "
            f"and run again, or {program}'s next save would overwrite what xlgrade writes "
            f"(if {program} is not running, delete {owner!r})"
        )
    return real


def folder_file(path: str | os.PathLike[str]) -> bool:
    """Whether a league folder's file ``path`` is there to read or replace: a regular file
    (``True``) or nothing (``False``). A symbolic link is refused, since reading or writing
    it would reach a file outside the folder; so is a device, a pipe or a socket (reading
    one may never end) and a folder, by name.

    Raises:
        FormatError: ``path`` is a link or not a regular file, naming it and what to do.
    """
    given = os.fspath(path)
    try:
        mode = os.lstat(given).st_mode
    except FileNotFoundError:
        return False
    if stat.S_ISLNK(mode):
        raise FormatError(
            f"{given}: a symbolic link (to {os.readlink(given)!r}): xlgrade reads and writes "
            "only a league folder's own files; put the file itself there instead of the link"
        )
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "not a file (a device, a pipe or a socket)"
        raise FormatError(
            f"{given}: {kind}: xlgrade reads and writes only a league folder's own files; "
            "move it away and run again"
        )
    return True


def lock_path(target: str | os.PathLike[str]) -> str:
    """The lock file of ``target``: ``.NAME.xlgrade-lock`` beside it."""
    folder, name = os.path.split(os.path.abspath(os.fspath(target)))
    return os.path.join(folder, f".{name}.xlgrade-lock")


def _temporary_prefix(real: str) -> str:
    return f".xlgrade-{os.path.basename(real)[:_NAME_IN_TEMP]}-"


def stale_temporaries(target: str | os.PathLike[str]) -> list[str]:
    """The temporary files beside ``target`` named as xlgrade names those it writes ``target``
    through (``.xlgrade-NAME-XXXXXXXX.tmp``). Found while :func:`locked` holds ``target``'s
    lock, they are left by a run that was killed."""
    real = os.path.abspath(os.fspath(target))
    folder = os.path.dirname(real)
    pattern = re.compile(re.escape(_temporary_prefix(real)) + r"[a-z0-9_]{8}\.tmp")
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return sorted(
        os.path.join(folder, name)
        for name in names
        if pattern.fullmatch(name) and os.path.isfile(os.path.join(folder, name))
    )


_NO_LOCKS: Final = frozenset(
    {errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EINVAL, errno.ENOLCK}
)
"""What ``flock`` says on a file system that has no locks (an NFS mount without its lock
service, say): the write goes on unlocked (:func:`locked`)."""


def _try_lock(handle: int) -> bool:
    """Take the exclusive lock on the open ``handle`` if no other run holds it: whether it
    was taken. Where the platform has no file locks (:func:`has_file_locks`), or the file
    system says it has none (:data:`_NO_LOCKS`), there is nothing to wait for: taken."""
    if sys.platform == "win32":  # pragma: no cover - the tests run on POSIX
        import msvcrt

        try:
            msvcrt.locking(handle, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    if not has_file_locks():
        return True
    import fcntl

    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError as error:
        if error.errno in _NO_LOCKS:
            return True
        raise
    return True


def has_file_locks() -> bool:
    """Whether the platform locks files (:func:`locked`): not in Pyodide (xlwings Lite), whose
    Emscripten file system lives in the one interpreter's memory (its ``flock`` does nothing,
    where the ``fcntl`` module has it at all), nor where ``fcntl.flock`` is missing."""
    if sys.platform == "win32":  # pragma: no cover - the tests run on POSIX
        return True
    if sys.platform == "emscripten":
        return False
    try:
        import fcntl
    except ImportError:
        return False
    return callable(getattr(fcntl, "flock", None))


def _flush(stream: BinaryIO) -> None:
    """Flush what was written to ``stream`` to the disk; on a file system with nothing to
    flush it to (Emscripten's in memory: ``fsync`` refused as not supported), or a platform
    without ``os.fsync``, nothing: the rename that follows still makes the write whole."""
    stream.flush()
    fsync = getattr(os, "fsync", None)
    if fsync is None:
        return
    try:
        fsync(stream.fileno())
    except OSError as error:
        if error.errno not in _UNSUPPORTED:
            raise


def _chmod(path: str, mode: int) -> None:
    """Give ``path`` (a temporary file of ours) the permission bits ``mode``; where the
    platform has no ``chmod`` or the file system refuses one (EPERM from a FAT disk, say),
    the file keeps the bits it was made with."""
    chmod = getattr(os, "chmod", None)
    if chmod is None:
        return
    try:
        chmod(path, mode)
    except NotImplementedError:
        return
    except OSError as error:
        if error.errno not in _UNSUPPORTED | {errno.EPERM}:
            raise


def _same_file(handle: int, path: str) -> bool:
    try:
        now = os.stat(path)
    except FileNotFoundError:
        return False
    held = os.fstat(handle)
    return (held.st_dev, held.st_ino) == (now.st_dev, now.st_ino)


def _acquire(lock: str, given: str, wait: float) -> int:
    """An open handle on ``lock`` holding its exclusive lock, waiting at most ``wait`` s."""
    deadline = time.monotonic() + wait
    while True:
        try:
            handle = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as error:
            raise type(error)(error.errno, error.strerror, given) from None
        try:
            taken = _try_lock(handle)
        except OSError as error:
            os.close(handle)
            raise type(error)(error.errno, error.strerror, given) from None
        # Locked, and not a lock file its last holder has just removed:
        if taken and _same_file(handle, lock):
            return handle
        os.close(handle)
        if time.monotonic() >= deadline:
            raise InUseError(
                f"{given}: another xlgrade run is writing it (its lock file "
                f"{os.path.basename(lock)!r} is held); waited {wait:g} s: run again when "
                "that run has finished"
            )
        time.sleep(_POLL)


@contextlib.contextmanager
def locked(
    target: str | os.PathLike[str], *, folder: bool = False, wait: float = LOCK_WAIT
) -> Iterator[str]:
    """Hold ``target``'s advisory lock (:func:`lock_path`) for the block; yields the path to
    read and write, resolved once here (a symbolic link followed, :func:`check_target`).
    With ``folder``, ``target`` is a folder of files written together (a CSV league), locked
    as a whole and made if it is missing.

    Other xlgrade runs that write ``target`` wait until the block ends, at most ``wait``
    seconds each. The same thread takes the lock again without waiting (a write inside an
    import). On taking it, temporary files a killed run left for ``target``
    (:func:`stale_temporaries`) are removed.

    Raises:
        InUseError: another run held the lock for longer than ``wait`` seconds, or
            ``target`` is open in Excel or LibreOffice.
        OSError: as :func:`check_target`.
    """
    given = os.fspath(target)
    held: dict[str, int] = getattr(_held, "paths", None) or {}
    _held.paths = held
    if folder:
        if not os.path.lexists(given):  # a file there is for the caller to name
            os.makedirs(given)
        resolved = given
    elif os.path.abspath(given) in held:
        resolved = given
    else:
        resolved = check_target(given)
    key = os.path.abspath(resolved)
    if key in held:
        held[key] += 1
        try:
            yield resolved
        finally:
            held[key] -= 1
        return
    lock = lock_path(key)
    # Without file locks there is nothing to hold, so no lock file is made.
    handle = _acquire(lock, given, wait) if has_file_locks() else None
    held[key] = 1
    try:
        for stale in stale_temporaries(key):
            with contextlib.suppress(OSError):
                os.unlink(stale)
        yield resolved
    finally:
        del held[key]
        if handle is not None:
            with contextlib.suppress(OSError):  # Windows keeps an open file; then it stays
                os.unlink(lock)
            os.close(handle)


def new_temporary(target: str | os.PathLike[str]) -> tuple[int, str]:
    """A new temporary file beside ``target``, named for it (``.xlgrade-NAME-XXXXXXXX.tmp``,
    which :func:`stale_temporaries` finds): its open handle and its path.

    Raises:
        OSError: the file cannot be made, naming ``target``.
    """
    real = os.path.abspath(os.fspath(target))
    try:
        return tempfile.mkstemp(
            prefix=_temporary_prefix(real), suffix=".tmp", dir=os.path.dirname(real)
        )
    except OSError as error:
        raise type(error)(error.errno, error.strerror, os.fspath(target)) from None


def new_file_mode() -> int:
    """The permission bits a new file gets: 0o666 less the process's umask, as any program's
    new file; :data:`ORDINARY_MODE` where that would leave its owner unable to read or write
    it (the umask 0o777 Pyodide 0.27 starts with gives 000), where the platform has no umask,
    and in Pyodide (xlwings Lite) whatever the umask, where every file written is one the
    grader is to download."""
    umask = getattr(os, "umask", None)
    if umask is None or sys.platform == "emscripten":
        return ORDINARY_MODE
    mask = umask(0o022)  # reading the umask means setting it; it is put back at once
    umask(mask)
    mode = 0o666 & ~mask
    return mode if mode & 0o600 == 0o600 else ORDINARY_MODE


def write_whole(
    content: bytes,
    target: str | os.PathLike[str],
    *,
    before_rename: Callable[[str], None] | None = None,
) -> None:
    """Write ``content`` to ``target`` whole or not at all: a temporary file beside it, flushed
    to disk and renamed over it, under ``target``'s lock (:func:`locked`); on any failure the
    target is left as it was and the temporary file removed.

    A read-only file is refused and a symbolic link followed (:func:`check_target`). The new
    file keeps the replaced file's permission bits, or gets those of any new file (0o666 less
    the umask). ``before_rename`` (for tests) is called with the temporary file's name just
    before the rename.

    Raises:
        OSError: the file cannot be written (a full disk, say), naming ``target``.
        InUseError: as :func:`locked`.
    """
    given = os.fspath(target)
    with locked(given) as real:
        try:
            mode = stat.S_IMODE(os.stat(real).st_mode)
        except FileNotFoundError:
            mode = new_file_mode()
        handle, temporary = new_temporary(real)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(content)
                _flush(stream)
            _chmod(temporary, mode)
            if before_rename is not None:
                before_rename(temporary)
            os.replace(temporary, real)
        except OSError as error:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
            if error.filename is None:
                raise type(error)(error.errno, error.strerror, given) from None
            raise
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
            raise


def write_together(
    contents: Mapping[str, bytes] | Mapping[Path, bytes],
    *,
    before_rename: Callable[[str], None] | None = None,
) -> None:
    """Write several files whole, all of them or none (a CSV folder, say), each as
    :func:`write_whole` writes one: under its lock, through a temporary file beside it that
    is flushed to disk, keeping the permissions of the file it replaces.

    Every temporary file is written before any is renamed, so a full disk or a failed write
    leaves every target as it was. The renames follow (they write no data); a rename that
    fails puts back the files already replaced, each kept beforehand (:func:`_rename_all`).
    ``before_rename`` (for tests) is called with each temporary file's name before its rename.

    Raises:
        OSError: a file cannot be written, naming it; none is then changed.
        InUseError: as :func:`locked`.
    """
    given = [os.fspath(target) for target in contents]
    with contextlib.ExitStack() as stack:
        # Locked in one order, whatever the caller's, so that two runs never wait on each other.
        resolved = {t: stack.enter_context(locked(t)) for t in sorted(given, key=os.path.abspath)}
        reals = [resolved[target] for target in given]
        written: list[tuple[str, str, str | None]] = []  # (temporary, target, kept old file)
        try:
            for target, real, content in zip(given, reals, contents.values(), strict=True):
                try:
                    mode = stat.S_IMODE(os.stat(real).st_mode)
                except FileNotFoundError:
                    mode = new_file_mode()
                handle, temporary = new_temporary(real)
                written.append((temporary, real, None))
                try:
                    with os.fdopen(handle, "wb") as stream:
                        stream.write(content)
                        _flush(stream)
                    _chmod(temporary, mode)
                except OSError as error:
                    if error.filename is None:
                        raise type(error)(error.errno, error.strerror, target) from None
                    raise
            _rename_all(written, before_rename)
        finally:
            for temporary, _, kept in written:
                for leftover in (temporary, kept):
                    if leftover is not None:
                        with contextlib.suppress(FileNotFoundError):
                            os.unlink(leftover)


def _rename_all(
    written: list[tuple[str, str, str | None]], before_rename: Callable[[str], None] | None
) -> None:
    """Rename each temporary file over its target; on a failure, put back those replaced.
    Each old target is kept first, named as a temporary file beside it (:func:`_keep`); a
    copy that fails leaves every target as it was."""
    for index, (temporary, real, _old) in enumerate(written):
        if os.path.exists(real):
            handle, kept = new_temporary(real)  # a name of ours beside it
            os.close(handle)
            written[index] = (temporary, real, kept)
            os.unlink(kept)
            _keep(real, kept)
    done: list[int] = []
    try:
        for index, (temporary, real, _old) in enumerate(written):
            if before_rename is not None:
                before_rename(temporary)
            os.replace(temporary, real)
            done.append(index)
    except BaseException:
        for index in reversed(done):
            target, old = written[index][1:]
            with contextlib.suppress(OSError):
                if old is None:
                    os.unlink(target)
                else:
                    os.replace(old, target)
        raise


def _keep(real: str, kept: str) -> None:
    """Keep the file ``real`` as ``kept`` too, to put back if a rename fails: a hard link;
    where the platform has no ``os.link`` (Pyodide 0.27) or the file system no hard links
    (a FAT disk, some network shares), a copy with its permission bits."""
    link = getattr(os, "link", None)
    if link is not None:
        try:
            link(real, kept)
        except (OSError, NotImplementedError):
            pass
        else:
            return
    shutil.copyfile(real, kept)
    _chmod(kept, stat.S_IMODE(os.stat(real).st_mode))
