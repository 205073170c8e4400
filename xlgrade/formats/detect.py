"""Read a file of any kind xlgrade imports, told apart by its content, not its name.

Order of the checks (a decision): an ECF results submission file starts with
``#EVENT DETAILS``; a TRF's first line has a TRF line code and it has ``001`` lines; the ECF's
rating list (:mod:`xlgrade.formats.ratinglist`) is refused with a pointer to
``xlgrade ratings``, which reads it; anything else is read as CSV, whose header must name a
players or a results table. A file that is none
of these gets the CSV reader's ``line N: …`` error.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from xlgrade.errors import FormatError
from xlgrade.formats.csvfile import first_line, read_csv
from xlgrade.formats.ecffile import looks_like_ecf_file, read_ecf_file
from xlgrade.formats.ratinglist import looks_like_rating_list
from xlgrade.formats.trf import looks_like_trf, parse_trf, tournament_games
from xlgrade.model import Game, Player, Problem

__all__ = ["MAX_FILE_BYTES", "Imported", "decode", "read_any", "read_file"]


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
"""The largest file to import (100 MiB): a national season's 200,000 games are about 12 MB as
a results CSV, and the readers hold each row's values, several times the file's bytes."""


def read_file(path: str | os.PathLike[str], notes: list[str] | None = None) -> str:
    """The text of the file to import at ``path`` (:func:`decode`; its note to ``notes``),
    refused by its size before it is read when past :data:`MAX_FILE_BYTES`.

    Raises:
        FormatError: the file is too large, saying how large.
        OSError: it cannot be read, naming it.
    """
    size = os.stat(path).st_size
    if size > MAX_FILE_BYTES:
        raise FormatError(
            f"the file is {size:,} bytes, more than the {MAX_FILE_BYTES:,} xlgrade imports "
            "(see docs/limits.md)"
        )
    with open(path, "rb") as stream:
        return decode(stream.read(), notes)


def _head(text: str) -> str:
    """The start of ``text`` up to its first non-blank line (what the kind of a CSV file is
    told by), so that a large file is not split to tell it."""
    found = first_line(text)
    return "" if found is None else "\n" * (found[0] - 1) + found[1]


def decode(data: bytes, notes: list[str] | None = None) -> str:
    """File bytes as text, in the encoding they most likely are (a decision): UTF-8 (a
    byte-order mark dropped); UTF-16 after its byte-order mark (a spreadsheet's "Unicode
    text"); else Windows-1252, which pairing programs and spreadsheets on Windows write, or
    ISO-8859-1 when a byte is none of Windows-1252's. Read as either of those last two, the
    text may not be what was meant: a note saying so, naming the first byte that is not UTF-8
    and its line, goes to ``notes`` when given."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass  # not UTF-16 after all: read as the bytes below say
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        bad = error.start
    try:
        text, encoding = data.decode("cp1252"), "Windows-1252"
    except UnicodeDecodeError:
        text, encoding = data.decode("latin-1"), "ISO-8859-1"
    if notes is not None:
        line = data.count(b"\n", 0, bad) + 1
        notes.append(
            f"not UTF-8 (byte 0x{data[bad]:02X} on line {line} is not UTF-8): read as "
            f"{encoding}, so check its accented letters; save the file as UTF-8 to be sure"
        )
    return text


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
        raise FormatError(
            "line 1: this is the ECF's rating list, not players or results: "
            "`xlgrade ratings LIST --into TARGET` fills the Players table's ratings from it"
        )
    table = read_csv(text, source)
    count = len(table.players) if table.kind == "players" else len(table.games)
    return Imported(
        f"{table.kind} CSV", table.players, table.games, (), f"{count} {table.kind} rows read"
    )
