"""A folder of CSV files standing for a league book: ``settings.csv``, ``players.csv``,
``results.csv``, ``divisions.csv`` (the Divisions sheet's columns) and ``problems.csv`` (the
layouts of :mod:`xlgrade.formats.csvfile`, under the template workbook's headers; settings as
``Setting``, ``Value``; problems as sheet, row, what, why). ``xlgrade import --into FOLDER``
adds to them; ``xlgrade export FOLDER`` and ``xlgrade season FOLDER`` read them.

Adding never rewrites what is there: the new rows go after the existing ones, each cell under
the existing header that names its column (in the header's own spelling, separator and line
ending). Only a value with no column to go in changes the header: the column is added at its
end, under the template's header. A missing file is made with the template's headers.
"""

from __future__ import annotations

import csv
import functools
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from xlgrade._rounding import quote
from xlgrade.cells import header_key
from xlgrade.errors import FormatError, GradingError
from xlgrade.formats import (
    DIVISIONS_FILE,
    PLAYERS_FILE,
    PROBLEMS_FILE,
    RATINGS_FILE,
    RESULTS_FILE,
    SETTINGS_FILE,
    detect,
)
from xlgrade.formats.csvfile import (
    HEADERS,
    column_field,
    csv_records,
    csv_rows,
    csv_text,
    delimiter_of,
    game_cells,
    player_cells,
    read_csv_file,
    restore,
    write_players_csv,
    write_results_csv,
)
from xlgrade.formats.encoding import decode, read_streamed
from xlgrade.formats.files import folder_file, write_together, write_whole
from xlgrade.model import Game, Player, Problem
from xlgrade.settings import Settings, text_rows
from xlgrade.teams import DIVISION_COLUMNS, Division, division_cells

__all__ = [
    "DIVISIONS_FILE",
    "PLAYERS_FILE",
    "PROBLEMS_FILE",
    "RESULTS_FILE",
    "SETTINGS_FILE",
    "FolderBook",
    "add_to_folder",
    "divisions_csv",
    "read_folder",
    "read_folder_cells",
    "settings_csv",
    "write_divisions",
    "write_settings",
]

_PROBLEM_COLUMNS: Final = ("sheet", "row", "what", "why")


@dataclass(frozen=True)
class FolderBook:
    """What a folder holds.

    Attributes:
        players: from ``players.csv`` (empty if the file is missing).
        games: from ``results.csv`` (empty if the file is missing).
        problems: from ``problems.csv`` (empty if the file is missing).
        unread: read leniently, the cells of ``players.csv`` and ``results.csv`` that could
            not be read (none when read strictly).
    """

    players: tuple[Player, ...]
    games: tuple[Game, ...]
    problems: tuple[Problem, ...]
    unread: tuple[Problem, ...] = ()


def read_folder(
    folder: str | os.PathLike[str], *, strict: bool = True, notes: list[str] | None = None
) -> FolderBook:
    """Read the folder's ``players.csv``, ``results.csv`` and ``problems.csv``; a missing file
    reads as empty. The players and results are read by the one reader of tables, in blocks
    of rows as each file is read (:func:`xlgrade.formats.csvfile.read_csv_file`): strictly, the
    first cell that cannot be read raises; leniently (``strict=False``, as ``xlgrade season``
    reads a folder), each is a problem of :attr:`FolderBook.unread` and the rest is read. A
    file that is not UTF-8 is said so in a note to ``notes``, naming it (:func:`_named`).

    Raises:
        FormatError: ``players.csv: line N: …`` from a file that cannot be read.
        HeaderError: a header that stops the run (:mod:`xlgrade.formats.tables`).
    """
    path = Path(folder)
    players: tuple[Player, ...] = ()
    games: tuple[Game, ...] = ()
    unread: list[Problem] = []
    for name in (PLAYERS_FILE, RESULTS_FILE):
        if not folder_file(path / name):
            continue
        said: list[str] = []
        try:
            detect.refuse_too_large(path / name, "reads")
            table = read_csv_file(path / name, name, strict=strict, notes=said)
        except GradingError as error:
            raise type(error)(f"{name}: {error}") from None
        _named(path / name, said, notes)
        players, games = players + table.players, games + table.games
        unread += table.problems
    problems: list[Problem] = []
    if folder_file(path / PROBLEMS_FILE):
        said = []
        problems = read_streamed(path / PROBLEMS_FILE, _problems, said)
        _named(path / PROBLEMS_FILE, said, notes)
    return FolderBook(players, games, tuple(problems), tuple(unread))


def _all_rows(lines: Iterator[str], *, templated: bool) -> list[list[str]]:
    return list(csv_records(lines, templated=templated))


def _problems(lines: Iterator[str]) -> list[Problem]:
    """The problems of a folder's ``problems.csv`` (sheet, row, what, why; the header first)."""
    problems = []
    for number, row in enumerate(csv.reader(lines)):
        if number and len(row) >= 4:
            cells = [c[1:] if c.startswith("'") else c for c in row[:4]]
            row_number = int(cells[1]) if cells[1].isdigit() else None
            problems.append(Problem(cells[0], row_number, cells[2], cells[3]))
    return problems


def _named(file: Path, said: list[str], notes: list[str] | None) -> None:
    """The notes said of reading ``file`` (that it is not UTF-8) to ``notes``, each after the
    file's path: ``league/players.csv: not UTF-8 (…)``."""
    if notes is not None:
        notes += [f"{file}: {note}" for note in said]


def read_folder_cells(
    folder: str | os.PathLike[str], notes: list[str] | None = None
) -> dict[str, list[list[str]]]:
    """The folder's ``settings.csv``, ``players.csv`` and ``results.csv`` as raw cells, keyed by
    the workbook sheet each stands for ("Settings", "Players", "Results"; and "Divisions" from
    ``divisions.csv``), header row first —
    the form :func:`xlgrade.formats.tables.read_inputs` reads, so a folder and a workbook are
    checked cell by cell alike. A missing file is left out (the reader reports it).

    The other spellings of a header that :mod:`xlgrade.formats.csvfile` reads (``home``,
    ``away``, ``event``, ``date_of_birth``…, as earlier versions wrote them) are given as the
    template's header, unless the file has that header too
    (:func:`xlgrade.formats.csvfile.template_headers`). Each file is read as a stream, its
    rows checked as they are read (:func:`xlgrade.formats.csvfile.csv_records`); a file that
    is not UTF-8 is said so in a note to ``notes``, naming it (``league/players.csv: not UTF-8
    (…)``).

    Raises:
        FileNotFoundError: ``folder`` is not a folder.
        FormatError: ``players.csv: line N: …`` for quoting that CSV does not allow.
    """
    from xlgrade.formats.tables import collector_paused

    path = Path(folder)
    if not path.is_dir():
        raise FileNotFoundError(2, "No such folder", str(path))
    with collector_paused():
        return _folder_cells(path, notes)


def _folder_cells(path: Path, notes: list[str] | None) -> dict[str, list[list[str]]]:
    cells: dict[str, list[list[str]]] = {}
    for sheet, name in (
        ("Settings", SETTINGS_FILE),
        ("Players", PLAYERS_FILE),
        ("Results", RESULTS_FILE),
        ("Divisions", DIVISIONS_FILE),
        ("Ratings", RATINGS_FILE),
    ):
        if folder_file(path / name):
            templated = sheet in ("Players", "Results")
            said: list[str] = []
            try:
                detect.refuse_too_large(path / name, "reads")
                cells[sheet] = read_streamed(
                    path / name, functools.partial(_all_rows, templated=templated), said
                )
            except FormatError as error:
                raise FormatError(f"{name}: {error}") from None
            _named(path / name, said, notes)
    return cells


def divisions_csv(divisions: Sequence[Division]) -> bytes:
    """The bytes of a folder's ``divisions.csv``: the Divisions sheet's headers and a row for
    each division's rules (:func:`xlgrade.teams.division_cells`; a blank cell is no such rule)."""
    rows: list[list[object]] = [[column.header for column in DIVISION_COLUMNS]]
    rows += [list(division_cells(division)) for division in divisions]
    return csv_text(rows, newline="\n").encode("utf-8")  # neutralised, quoted (csv_text)


def write_divisions(folder: str | os.PathLike[str], divisions: Sequence[Division]) -> Path:
    """Write the folder's ``divisions.csv`` (:func:`divisions_csv`), whole or not at all."""
    path = Path(folder) / DIVISIONS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    folder_file(path)
    write_whole(divisions_csv(divisions), path)
    return path


def settings_csv(settings: Settings) -> bytes:
    """The bytes of a folder's ``settings.csv``: a ``Setting,Value`` row for each row of the
    template's Settings sheet, named as there (:func:`xlgrade.settings.text_rows`): dates
    ISO, ``yes``/``no``, ``none`` for a setting turned off, blank for none."""
    rows = [("Setting", "Value"), *text_rows(settings)]
    return csv_text(rows, newline="\n").encode("utf-8")  # neutralised, quoted (csv_text)


def write_settings(folder: str | os.PathLike[str], settings: Settings) -> Path:
    """Write the folder's ``settings.csv`` (:func:`settings_csv`), whole or not at all."""
    path = Path(folder) / SETTINGS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    folder_file(path)
    write_whole(settings_csv(settings), path)
    return path


def add_to_folder(
    folder: str | os.PathLike[str],
    players: Sequence[Player],
    games: Sequence[Game],
    problems: Sequence[Problem],
    settings: Settings | None = None,
) -> None:
    """Add players, games and problems after the rows already in the folder's files (see the
    module docstring); the folder and any missing file are made. With ``settings``, its
    ``settings.csv`` is written too (:func:`settings_csv`).

    Every file is worked out before any is written, and all are written together or none
    (:func:`xlgrade.formats.files.write_together`), so a failure leaves the old files whole.

    Raises:
        FormatError: ``results.csv: line N: …`` quoting the header, for a file whose header
            lacks a column every row needs (``Name``; ``Home player``, ``Result``,
            ``Away player``); nothing is written then.
    """
    path = Path(folder)
    problem_rows = [
        {
            "sheet": p.sheet,
            "row": "" if p.row is None else str(p.row),
            "what": p.what,
            "why": p.why,
        }
        for p in problems
    ]
    # Each file's rows, or its whole text, made only for the one of the two it takes (a new
    # file, or rows after those there): both at once held a large import twice.
    plans: tuple[tuple[str, Callable[[], Any], Callable[[], str], Any, Any, Any], ...] = (
        (
            PLAYERS_FILE,
            lambda: [player_cells(p) for p in players],
            lambda: write_players_csv(players),
            HEADERS,
            column_field,
            ("name",),
        ),
        (
            RESULTS_FILE,
            lambda: [game_cells(g) for g in games],
            lambda: write_results_csv(games),
            HEADERS,
            column_field,
            ("home", "result", "away"),
        ),
        (
            PROBLEMS_FILE,
            lambda: problem_rows,
            lambda: _new_problems(problem_rows),
            {c: c for c in _PROBLEM_COLUMNS},
            _problem_field,
            _PROBLEM_COLUMNS,
        ),
    )
    texts: dict[str, bytes] = {}
    adding = {PLAYERS_FILE: players, RESULTS_FILE: games, PROBLEMS_FILE: problem_rows}
    for name, rows, new, headers, field_of, required in plans:
        file = path / name
        data = file.read_bytes() if folder_file(file) else b""
        if not decode(data).strip():
            texts[name] = new().encode("utf-8")
        elif adding[name]:
            texts[name] = _appended(name, data, rows(), headers, field_of, required)
    if settings is not None:
        folder_file(path / SETTINGS_FILE)  # a link or a pipe refused, not written through
        texts[SETTINGS_FILE] = settings_csv(settings)
    path.mkdir(parents=True, exist_ok=True)
    write_together({path / name: content for name, content in texts.items()})


def _problem_field(header: str) -> str:
    key = header_key(header)
    return {"file": "sheet", "line": "row"}.get(key, key if key in _PROBLEM_COLUMNS else "")


def _new_problems(rows: Sequence[Mapping[str, str]]) -> str:
    return _lines([list(_PROBLEM_COLUMNS)], ",", "\r\n") + _lines(
        [[row[c] for c in _PROBLEM_COLUMNS] for row in rows], ",", "\r\n"
    )


def _lines(rows: Sequence[Sequence[str]], delimiter: str, newline: str) -> str:
    return csv_text(rows, delimiter, newline)


def _appended(
    name: str,
    data: bytes,
    rows: Sequence[Mapping[str, str]],
    headers: Mapping[str, str],
    field_of: Callable[[str], str],
    required: Sequence[str],
) -> bytes:
    """The file's text with ``rows`` added under its own header, as UTF-8 (a byte-order mark
    kept); the text already there is kept as it is."""
    text = decode(data)
    lines = text.splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.strip())
    header_line = lines[first].rstrip("\r\n")
    delimiter = delimiter_of(header_line)
    try:
        header = csv_rows([header_line], delimiter, first + 1)[0]
    except FormatError as error:
        raise FormatError(f"{name}: {error}") from None
    fields = [field_of(cell) for cell in header]
    missing = [headers[c] for c in required if c not in fields]
    if missing:
        raise FormatError(
            f"{name}: line {first + 1}: header {quote(header_line)} has no column "
            + ", ".join(repr(m) for m in missing)
            + ": nothing was added"
        )
    newline = "\r\n" if "\r\n" in text else "\n"
    extra = [c for c in headers if c not in fields and any(row.get(c) for row in rows)]
    if extra:
        cells = [restore(cell) for cell in header] + [headers[c] for c in extra]
        lines[first] = _lines([cells], delimiter, newline)
        fields += extra
    taken = [field if field not in fields[:i] else "" for i, field in enumerate(fields)]
    body = "".join(lines)
    if not body.endswith(("\n", "\r")):
        body += newline
    body += _lines(
        [[row.get(f, "") if f else "" for f in taken] for row in rows],
        delimiter,
        newline,
    )
    bom = "\ufeff" if data.startswith(b"\xef\xbb\xbf") else ""
    return (bom + body).encode("utf-8")
