"""CSV files of players and of results, as clubs exchange them and as xlgrade writes them.

Two tables, told apart by their header row:

* **players**: ``name`` (required), ``code`` (ECF grading reference code), ``club``,
  ``date_of_birth``, ``junior``, ``grade``, ``lapsed_grade``, ``estimated_grade``,
  ``previous_games``, ``previous_points``, ``earlier_games``, ``earlier_points``, and the ECF
  rating's ``ECF rating``, ``ECF category``, ``ECF rapid rating``, ``ECF rapid category``,
  ``Last rated month``, and the divisions' rules' ``Estimated rating``, ``Latest ECF rating``,
  ``Registered team``, ``Registered from``, ``FIDE rating``, ``ECF member`` — the fields of
  :class:`xlgrade.model.Player`;
* **results**: ``home``, ``away``, ``result`` (required), ``date``, ``event``, ``match``,
  ``board``, ``time_control`` — the fields of :class:`xlgrade.model.Game`, the result as typed.

Decisions (CSV has no standard for these; RFC 4180 gives only the quoting):

* Header names are matched without regard to case, spaces, ``_`` or ``-``, and common other
  names are accepted (``ECF code``, ``Grading code``, ``White``/``Black``, ``Round``…);
  columns with other names are ignored, except a header close to a known one (``Grading``
  for ``Grade``), which is refused (:mod:`xlgrade.formats.tables`), and one naming a grade,
  which is listed. Files are written with the template workbook's headers (``Code``,
  ``Name``, …, ``Home player``, ``Result``, ``Away player``; see :data:`HEADERS`), the
  spelling of ``examples/league``, so that ``xlgrade season`` reads them back. The separator
  is a comma, a semicolon or a tab, whichever the header row uses most; a UTF-8 byte-order
  mark is dropped.
* Dates are written ``YYYY-MM-DD``; every cell is read as a workbook's is
  (:mod:`xlgrade.cells`): dates day first in every form a grader types (``1/9/25``,
  ``1 Sept 2025``…), ``junior`` yes/no/y/n/true/false/1/0/J/junior/x or blank.
* **Formula neutralising** (OWASP, "CSV injection"): every written cell that begins with
  ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a ``'`` in front, so that no
  spreadsheet runs it as a formula; on reading, a ``'`` followed by one of those characters
  is taken off again, so that a file written here reads back exactly.
* A row with more cells than the header is an error; a shorter row is read as if padded
  with blank cells (spreadsheets drop trailing blanks). Blank rows are skipped.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from xlgrade import schema
from xlgrade._rounding import quote
from xlgrade.cells import header_key, without_time_of_day
from xlgrade.errors import FormatError
from xlgrade.model import Game, Player, Problem

__all__ = [
    "HEADERS",
    "MAX_CSV_LINES",
    "PLAYER_COLUMNS",
    "RESULT_COLUMNS",
    "CsvTable",
    "column_field",
    "csv_cells",
    "csv_rows",
    "delimiter_of",
    "first_line",
    "game_cells",
    "neutralise",
    "player_cells",
    "read_csv",
    "template_headers",
    "typed_text",
    "without_time_of_day",
    "write_players_csv",
    "write_results_csv",
]

PLAYER_COLUMNS: Final = tuple(column.field for column in schema.PLAYERS_COLUMNS)
"""Columns of a players CSV, in the order they are written (the template's Players sheet's,
:data:`xlgrade.schema.PLAYERS_COLUMNS`): the ECF rating's last, as ``ECF rating``, ``ECF
category``, ``ECF rapid rating``, ``ECF rapid category`` and ``Last rated month``
(``2025-08``)."""
RESULT_COLUMNS: Final = tuple(column.field for column in schema.RESULTS_COLUMNS)
"""Columns of a results CSV, in the order they are written
(:data:`xlgrade.schema.RESULTS_COLUMNS`)."""
HEADERS: Final[Mapping[str, str]] = {
    column.field: column.header for column in (*schema.PLAYERS_COLUMNS, *schema.RESULTS_COLUMNS)
}
"""The header each column is written with: the template workbook's Players and Results
headers (:data:`xlgrade.schema.PLAYERS_HEADERS`, ``RESULTS_HEADERS``), so that
``xlgrade season`` reads every file written here."""

_ALIASES: Final[Mapping[str, str]] = {
    "player": "name", "playername": "name",
    "ecfcode": "code", "gradingcode": "code", "refcode": "code", "ecfref": "code",
    "bcfcode": "code", "ecfgradingcode": "code",
    "dob": "date_of_birth", "dateofbirth": "date_of_birth", "born": "date_of_birth",
    "white": "home", "homeplayer": "home", "black": "away", "awayplayer": "away",
    "score": "result", "gamedate": "date", "division": "event", "competition": "event",
    "round": "match", "bd": "board", "timecontrol": "time_control", "tc": "time_control",
    "lapsedgrade": "lapsed_grade", "estimatedgrade": "estimated_grade",
    "previousgames": "previous_games", "previouspoints": "previous_points",
    "earliergames": "earlier_games", "earlierpoints": "earlier_points",
}  # fmt: skip
_FORMULA_START: Final = ("=", "+", "-", "@", "\t", "\r")
_A_LINE: Final = re.compile(r"([^\r\n]*)(?:\r\n|\r|\n|\Z)")
MAX_CSV_LINES: Final = 1_048_576
"""The most lines a CSV file read may have: the rows of an Excel sheet, which a book's
Players or Results sheet could not hold more of."""


@dataclass(frozen=True)
class CsvTable:
    """What a CSV file held: players or results (the other is empty).

    Attributes:
        kind: ``"players"`` or ``"results"``.
        players: the players, each with its line as ``row``.
        games: the games, each with its line as ``row``.
        problems: read leniently, the cells that could not be read (the file's name as
            their sheet); none when read strictly.
    """

    kind: str
    players: tuple[Player, ...] = ()
    games: tuple[Game, ...] = ()
    problems: tuple[Problem, ...] = ()


def delimiter_of(header_line: str) -> str:
    """The separator a header row uses most: a comma, or the semicolon or tab a spreadsheet
    set to another locale writes."""
    return max((",", ";", "\t"), key=header_line.count)


def neutralise(cell: str) -> str:
    """A cell safe to open in a spreadsheet: ``'`` in front of text that begins with ``=``,
    ``+``, ``-``, ``@``, a tab or a carriage return (OWASP, "CSV injection"), and in front of
    text that already looks neutralised (``'=``), so that :func:`_restore` gives it back."""
    return "'" + cell if cell.lstrip("'").startswith(_FORMULA_START) else cell


def typed_text(value: object) -> object:
    """A value to hand Excel through xlwings (COM or Office.js), both of which take a text as
    if it were typed into the cell: text that begins as :func:`neutralise` says, or with
    ``'``, gets a ``'`` in front, Excel's prefix that keeps what follows as text (the prefix
    is not part of the cell's value), so that a name ``=HYPERLINK(…)`` or a result ``+/-``
    stays text and a name ``'Bob`` keeps its mark. Anything else is as it was."""
    if isinstance(value, str) and value.startswith((*_FORMULA_START, "'")):
        return "'" + value
    return value


def _restore(cell: str) -> str:
    """Undo :func:`neutralise`: one ``'`` off text of ``'`` marks and then a formula start."""
    return (
        cell[1:] if cell.startswith("'") and cell.lstrip("'").startswith(_FORMULA_START) else cell
    )


def player_cells(player: Player) -> dict[str, str]:
    """A player's cells as written, by column (:data:`PLAYER_COLUMNS`), not yet neutralised."""
    return schema.csv_text(player)


def game_cells(game: Game) -> dict[str, str]:
    """A game's cells as written, by column (:data:`RESULT_COLUMNS`), not yet neutralised."""
    g = game
    return {
        "date": g.date.isoformat() if g.date else "",
        "event": g.event,
        "match": g.match,
        "board": "" if g.board is None else str(g.board),
        "home": g.home,
        "result": g.result,
        "away": g.away,
        "time_control": g.time_control,
    }


def write_players_csv(players: Sequence[Player]) -> str:
    """The players as CSV under the template's headers (:data:`PLAYER_COLUMNS`,
    :data:`HEADERS`), every cell neutralised."""
    rows = [player_cells(p) for p in players]
    return _write(
        [HEADERS[c] for c in PLAYER_COLUMNS], [[r[c] for c in PLAYER_COLUMNS] for r in rows]
    )


def write_results_csv(games: Sequence[Game]) -> str:
    """The games as CSV under the template's headers (:data:`RESULT_COLUMNS`,
    :data:`HEADERS`), every cell neutralised."""
    rows = [game_cells(g) for g in games]
    return _write(
        [HEADERS[c] for c in RESULT_COLUMNS], [[r[c] for c in RESULT_COLUMNS] for r in rows]
    )


def read_csv(text: str, source: str = "CSV", *, strict: bool = True) -> CsvTable:
    """Read a players or results CSV (told apart by the header; see the module docstring) with
    the one reader of tables, :func:`xlgrade.formats.tables.read_table`, strictly (the first
    bad cell raises) or leniently (every bad cell a problem of :attr:`CsvTable.problems`).

    Raises:
        FormatError: ``line N: …`` quoting the cell, for a header with neither table's
            required columns, a row longer than the header, or (strict) a number, date or
            yes/no that cannot be read.
        HeaderError: a header not known but close to a known one (``Grading``).
    """
    found = first_line(text)
    if found is None:
        raise FormatError("line 1: the CSV file is empty")
    first, line = found[0] - 1, found[1]
    delimiter = delimiter_of(line)
    try:  # the header first, before the rest is read (a cell may hold a line break: then not)
        _kind([_restore(c) for c in csv_rows([line], delimiter, first + 1)[0]], first, delimiter)
    except FormatError as error:
        if "neither" in str(error):
            raise
    lines = text.count("\n") + 1
    if lines > MAX_CSV_LINES:
        raise FormatError(
            f"line {MAX_CSV_LINES + 1:,}: the file has {lines:,} lines, more than the "
            f"{MAX_CSV_LINES:,} rows of an Excel sheet (see docs/limits.md)"
        )
    rows = csv_cells(text)
    header = next((row for row in rows if any(cell.strip() for cell in row)), None)
    if header is None:
        raise FormatError(f"line {first + 1}: the CSV file has no header row")
    kind = _kind(header, first, delimiter)
    for number, row in enumerate(rows, start=1):
        if len(row) > len(header) and any(cell.strip() for cell in row[len(header) :]):
            # Empty cells past the header (a spreadsheet's "Save as CSV" leaves them) are
            # nothing; a value there has no column.
            raise FormatError(
                f"line {number}: {len(row)} cells where the header has {len(header)}: "
                f"{quote(delimiter.join(row))}"
            )
    template_headers(rows)
    from xlgrade.formats.tables import read_table  # imported once the header is known good

    read = read_table("Players" if kind == "players" else "Results", rows, strict=strict)
    problems = tuple(p._replace(sheet=source) for p in read.problems)
    if kind == "results":
        return CsvTable("results", games=tuple(read.games), problems=problems)
    return CsvTable("players", players=tuple(read.players), problems=problems)


def _kind(header: Sequence[str], first: int, delimiter: str = ",") -> str:
    """``"results"`` or ``"players"``: the table a header row (line ``first + 1``) heads.

    Raises:
        FormatError: it heads neither, quoting it.
    """
    columns = {column_field(name) for name in header}
    if {"home", "away", "result"} <= columns:
        return "results"
    if "name" in columns:
        return "players"
    raise FormatError(
        f"line {first + 1}: header {quote(delimiter.join(header))} has neither a 'name' "
        f"column (players) nor 'home', 'away' and 'result' columns (results)"
    )


def first_line(text: str) -> tuple[int, str] | None:
    """The first line of ``text`` that is not blank, and its number, read line by line up
    to it (a byte-order mark dropped): a large file is not split to find its header."""
    at, number = (1 if text.startswith("\ufeff") else 0), 1
    while at < len(text):
        found = _A_LINE.match(text, at)
        assert found is not None  # the pattern matches anywhere, the empty line at the end too
        if found.group(1).strip():
            return number, found.group(1)
        at, number = found.end(), number + 1
    return None


def csv_cells(text: str) -> list[list[str]]:
    """A CSV file's cells, row ``i`` of the list line ``i + 1`` of the file (a cell holding a
    line break aside): a byte-order mark dropped, the separator the header row uses most
    (:func:`delimiter_of`), formula neutralising undone.

    Raises:
        FormatError: ``line N: …`` for quoting that CSV does not allow.
    """
    text = text.removeprefix("\ufeff")
    header_line = (first_line(text) or (0, ""))[1]
    reader = csv.reader(
        io.StringIO(text, newline=""), delimiter=delimiter_of(header_line), strict=True
    )
    try:
        return [[_restore(cell) for cell in row] for row in reader]
    except csv.Error as error:
        raise FormatError(f"line {reader.line_num}: not readable as CSV: {error}") from None


def csv_rows(lines: Sequence[str], delimiter: str, first: int = 1) -> list[list[str]]:
    """The cells of ``lines`` (the first is line ``first`` of its file) as Python's CSV reader
    splits them, nothing undone.

    Raises:
        FormatError: ``line N: not readable as CSV: …`` for a cell the reader refuses (one
            longer than its field limit of 131,072 characters, say), N the file's line.
    """
    reader = csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter)
    try:
        return list(reader)
    except csv.Error as error:
        raise FormatError(
            f"line {first + reader.line_num - 1}: not readable as CSV: {error}"
        ) from None


def column_field(name: str) -> str:
    """The column a header cell names (``"Home player"`` and ``home`` both give ``"home"``), or
    ``""`` for one that is not read."""
    key = re.sub(r"[\s_\-]", "", name.strip().removeprefix("\ufeff")).casefold()
    plain = {c.replace("_", ""): c for c in PLAYER_COLUMNS + RESULT_COLUMNS}
    return plain.get(key) or _ALIASES.get(key, "")


def template_headers(rows: list[list[str]]) -> None:
    """Give each header cell of the first non-blank row that is another spelling of a column
    (:func:`column_field`: ``home``, ``White``, ``ECF code``, ``date_of_birth``…) the template's
    header (:data:`HEADERS`), unless the row has that header too (in place): the reader of
    tables knows the template's headers."""
    header = next((row for row in rows if any(c.strip() for c in row)), None)
    if header is None:
        return
    keys = {header_key(c) for c in header}
    for index, cell in enumerate(header):
        field = column_field(cell)
        if field and header_key(HEADERS[field]) not in keys:
            header[index] = HEADERS[field]
            keys.add(header_key(HEADERS[field]))


def _write(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(headers)
    for row in rows:
        writer.writerow([neutralise(cell) for cell in row])
    return out.getvalue()
