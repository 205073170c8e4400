"""Read a file of any kind xlgrade imports, told apart by its content, not its name.

Order of the checks (a decision): an ECF results submission file starts with
``#EVENT DETAILS``; a TRF's first line has a TRF line code and it has ``001`` lines; the ECF's
rating list (:mod:`xlgrade.formats.ratinglist`) is refused with a pointer to
``xlgrade ratings``, which reads it; anything else is read as CSV, whose header must name a
players or a results table. A file that is none
of these gets the CSV reader's ``line N: …`` error.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final

from xlgrade.errors import FormatError
from xlgrade.formats.csvfile import (
    MAX_CSV_LINES,
    CsvTable,
    first_line,
    read_csv,
    read_csv_file,
)
from xlgrade.formats.ecffile import looks_like_ecf_file, read_ecf_file
from xlgrade.formats.encoding import decode, read_streamed
from xlgrade.formats.ratinglist import looks_like_rating_list
from xlgrade.formats.trf import looks_like_trf, parse_trf, starts_like_trf, tournament_games
from xlgrade.model import Game, Player, Problem

__all__ = [
    "MAX_FILE_BYTES",
    "Imported",
    "decode",
    "import_file",
    "read_any",
    "read_file",
    "refuse_too_large",
]


@dataclass(frozen=True)
class Imported:
    """What one file held, whatever its kind.

    Attributes:
        kind: ``"TRF"``, ``"ECF file"``, ``"players CSV"`` or ``"results CSV"``.
        players: its players.
        games: its games.
        problems: round entries not graded and the file's own faults (TRF only).
        accounting: one line saying that nothing was lost.
        no_estimate: rated players given no estimated grade, as (name, rating) (TRF only;
            see :attr:`xlgrade.formats.trf.TrfImport.no_estimate`).
    """

    kind: str
    players: tuple[Player, ...]
    games: tuple[Game, ...]
    problems: tuple[Problem, ...]
    accounting: str
    no_estimate: tuple[tuple[str, int], ...] = ()


MAX_FILE_BYTES: Final = 100 * 2**20
"""The largest file to import, and the largest CSV file of a league folder read (100 MiB): a
national season's 200,000 games are about 12 MB as a results CSV, and the readers hold each
row's values, several times the file's bytes."""


_SPECIAL: Final = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def refuse_too_large(path: str | os.PathLike[str], verb: str = "imports") -> None:
    """Refuse the file at ``path`` by its size, unread, when past :data:`MAX_FILE_BYTES`: a
    file to import (``verb`` "imports") or a league folder's CSV file ("reads"). A path that
    is not a regular file (a device such as ``/dev/zero``, which never ends, a named pipe,
    which waits for a writer) is refused by what it is, unopened: its size says nothing.

    Raises:
        FormatError: saying how large it is, or what it is.
        OSError: it cannot be read.
    """
    status = os.stat(path)
    if not stat.S_ISREG(status.st_mode):
        kind = next((said for test, said in _SPECIAL if test(status.st_mode)), "no regular file")
        raise FormatError(f"it is {kind}, not a file: xlgrade {verb} files only")
    size = status.st_size
    if size > MAX_FILE_BYTES:
        raise FormatError(
            f"the file is {size:,} bytes, more than the {MAX_FILE_BYTES:,} xlgrade {verb} "
            "(see docs/limits.md)"
        )


def read_file(
    path: str | os.PathLike[str], notes: list[str] | None = None, verb: str = "imports"
) -> str:
    """The text of the file to import at ``path`` (:func:`decode`; its note to ``notes``),
    or of another file read whole (a rating list: ``verb`` "reads"),
    refused by its size before it is read when past :data:`MAX_FILE_BYTES`, and read no
    further than that if it grows meanwhile.

    Raises:
        FormatError: the file is too large, saying how large, or is not a file.
        OSError: it cannot be read, naming it.
    """
    refuse_too_large(path, verb)
    with open(path, "rb") as stream:
        raw = stream.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise FormatError(
            f"the file grew past the {MAX_FILE_BYTES:,} bytes xlgrade {verb} while it "
            "was read (see docs/limits.md)"
        )
    return decode(raw, notes)


def _head(text: str) -> str:
    """The start of ``text`` up to its first non-blank line (what the kind of a CSV file is
    told by), so that a large file is not split to tell it."""
    found = first_line(text)
    return "" if found is None else "\n" * (found[0] - 1) + found[1]


def _head_of(lines: Iterator[str]) -> str:
    """The start of a file's lines up to its first non-blank line, as :func:`_head` gives it
    (the blank lines before it counted, not kept)."""
    for number, line in enumerate(lines):
        text = line.removeprefix("\ufeff") if number == 0 else line
        if text.strip():
            return "\n" * number + text.rstrip("\r\n")
        if number >= MAX_CSV_LINES:
            break
    return ""


def _has_player_lines(lines: Iterator[str]) -> bool:
    return any(line.startswith("001") for line in lines)


def import_file(
    path: str | os.PathLike[str],
    source: str,
    notes: list[str] | None = None,
    *,
    grade_from_rating: Callable[[int], float | None] | None = None,
    time_control: str | None = None,
) -> Imported:
    """Read the file to import at ``path`` (of any kind :func:`read_any` reads), refused by
    its size before it is read when past :data:`MAX_FILE_BYTES`. A TRF or an ECF file is read
    whole (:func:`read_file`), a CSV file as a stream
    (:func:`xlgrade.formats.csvfile.read_csv_file`: its header checked before the rest is
    read); the kind is told by the file's first non-blank line (and, when that starts as a
    TRF's lines do, whether a line is a ``001`` line), read first. A file that is not UTF-8
    is said so in a note to ``notes`` (:func:`xlgrade.formats.encoding.not_utf8_note`).

    Raises:
        FormatError: the file is too large, or ``line N: …`` from the reader of its kind.
        OSError: it cannot be read, naming it.
    """
    refuse_too_large(path)
    head = read_streamed(path, _head_of)
    first = head.lstrip("\n")
    if looks_like_ecf_file(head) or (
        starts_like_trf(first) and read_streamed(path, _has_player_lines)
    ):
        return read_any(
            read_file(path, notes),
            source,
            grade_from_rating=grade_from_rating,
            time_control=time_control,
        )
    if looks_like_rating_list(head):
        raise FormatError(_RATING_LIST)
    return _csv_import(read_csv_file(path, source, notes=notes))


def _csv_import(table: CsvTable) -> Imported:
    count = len(table.players) if table.kind == "players" else len(table.games)
    return Imported(
        f"{table.kind} CSV", table.players, table.games, (), f"{count} {table.kind} rows read"
    )


_RATING_LIST: Final = (
    "line 1: this is the ECF's rating list, not players or results: "
    "`xlgrade ratings LIST --into TARGET` fills the Players table's ratings from it"
)


def read_any(
    text: str,
    source: str,
    *,
    grade_from_rating: Callable[[int], float | None] | None = None,
    time_control: str | None = None,
) -> Imported:
    """Read a TRF, an ECF results submission file or a players/results CSV (module docstring).

    ``grade_from_rating`` and ``time_control`` apply to a TRF only (see
    :func:`xlgrade.formats.trf.tournament_games`).

    Raises:
        FormatError: ``line N: …`` from the reader of the kind the content looks like.
    """
    if looks_like_ecf_file(text):
        submission = read_ecf_file(text, source)
        return Imported(
            "ECF file",
            submission.players,
            submission.games,
            (),
            f"{len(submission.players)} players and {len(submission.games)} results read",
        )
    if looks_like_trf(text):
        tournament = parse_trf(text, source)
        imported = tournament_games(
            tournament, grade_from_rating=grade_from_rating, time_control=time_control
        )
        return Imported(
            "TRF",
            imported.players,
            imported.games,
            imported.problems,
            f"{imported.entries} round entries = 2 x {len(imported.games)} games + "
            f"{len(imported.not_graded)} not graded",
            imported.no_estimate,
        )
    if looks_like_rating_list(_head(text)):
        raise FormatError(_RATING_LIST)
    return _csv_import(read_csv(text, source))
