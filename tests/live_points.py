"""A book's live points columns called as Excel calls them, beside the season's own points.

Each points column's stored formula (``Home points`` / ``Away points`` on Results) is found in
the book's file, its ``SEASON_POINTS`` call's arguments are taken from the book's own cells as
Excel hands them over (a table with its header row for ``Table[[#All]]``, a fixed range for
``Sheet!$A$1:$B$n``, a text for ``"home"``), and the function is called through both routes
(:mod:`xlgrade.workbook.excel_calls`). The season's answer for each row comes from the
engine's lists: the points of the graded row on the standard or rapid list, or the first
Exceptions line of the row not graded.

    python -m tests.live_points workbook/example-league.xlsm

prints, for each book, column and route, how many Results rows the live cell and the season
agree on (and the first rows they do not).
"""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlgrade.season import SeasonResult
from xlgrade.workbook import layout
from xlgrade.workbook.container import package_members, part_text
from xlgrade.workbook.excel_calls import classic_call, officejs_call
from xlgrade.workbook.formulas import POINTS_HEADERS
from xlgrade.workbook.package import read_sheets
from xlgrade.workbook.read import grade_inputs
from xlgrade.workbook.recalc import read_book_inputs
from xlgrade.workbook.relationships import sheet_parts
from xlgrade.workbook.tables import find_table

__all__ = ["LiveColumn", "agreement", "call_arguments", "engine_column", "live_columns", "main"]

_CALL = re.compile(r"(?<![A-Za-z0-9_.])(?:_xldudf_)?SEASON_POINTS\(")
_CELL = re.compile(r'<c r="([A-Z]+)(\d+)"[^>]*?><f([^>]*)>([^<]*)</f>')
_RANGE = re.compile(r"^(?:'?([^'!]+)'?!)?\$?([A-Z]{1,3})\$?(\d+):\$?([A-Z]{1,3})\$?(\d+)$")
_TABLE_ALL = re.compile(r"^(\w+)\[\[?#All\]\]?$")


@dataclass(frozen=True)
class LiveColumn:
    """One points column of a book as its file holds it.

    Attributes:
        header: ``Home points`` or ``Away points``.
        cell: the formula's cell (``M2``).
        ref: the array formula's range (``M2:M301``).
        attributes: the ``<f>`` element's attributes and the cell's ``cm`` (``cm="1"``).
        formula: the stored formula's text.
        arguments: the ``SEASON_POINTS`` call's arguments as Excel hands them over.
        rows: the Results table's data rows (the rows the column must cover).
    """

    header: str
    cell: str
    ref: str
    attributes: str
    formula: str
    arguments: tuple[Any, ...]
    rows: int


def _column(letters: str) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - 64
    return number - 1


def call_arguments(text: str, start: int) -> list[str]:
    """The arguments of the call whose ``(`` is at ``start``, split at its top-level commas."""
    depth, quoted, out, begun = 0, False, [], start + 1
    for position in range(start, len(text)):
        char = text[position]
        if char == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
            if depth == 0:
                out.append(text[begun:position].strip())
                return out
        elif char == "," and depth == 1:
            out.append(text[begun:position].strip())
            begun = position + 1
    raise AssertionError(f"no end to the call in {text!r}")


def _block(cells: Sequence[Sequence[object]], top: int, left: int, bottom: int, right: int) -> Any:
    """Sheet rows ``top``..``bottom`` and columns ``left``..``right`` (from 0) of ``cells``."""
    out = []
    for number in range(top, bottom + 1):
        row = cells[number - 1] if number - 1 < len(cells) else []
        out.append([row[c] if c < len(row) else None for c in range(left, right + 1)])
    return out


def _tables(data: bytes) -> dict[str, tuple[str, int, int, int, int]]:
    """Each Excel table's name → its sheet and range (first row, first column, last row, last
    column)."""
    names = {m.name: m for m in package_members(data)[0]}
    out = {}
    for sheet, part in sheet_parts(data).items():
        table = find_table(data, sheet, part, names)
        if table is None:
            continue
        tag = re.search(r"<(?:\w+:)?table\b[^>]*>", table.xml)
        assert tag is not None
        name = re.search(r'\bdisplayName="([^"]+)"', tag.group(0))
        ref = re.search(r'\bref="([A-Z]+)(\d+):([A-Z]+)(\d+)"', tag.group(0))
        assert name is not None
        assert ref is not None
        out[name[1]] = (
            sheet, int(ref[2]), _column(ref[1]), int(ref[4]), _column(ref[3])
        )  # fmt: skip
    return out


def _argument(text: str, data: bytes, sheets: dict[str, list[list[object]]]) -> Any:
    """One argument of the call as Excel hands it over, from the book's own cells."""
    if text.startswith('"') and text.endswith('"'):
        return text[1:-1]
    tables = _tables(data)
    found = _TABLE_ALL.match(text)
    if found is not None:
        sheet, top, left, bottom, right = tables[found[1]]
        return _block(sheets[sheet], top, left, bottom, right)
    found = _RANGE.match(text)
    if found is not None and found[1] is not None:
        top, bottom = int(found[3]), int(found[5])
        return _block(sheets[found[1]], top, _column(found[2]), bottom, _column(found[4]))
    raise AssertionError(f"an argument this reader does not take: {text!r}")


def live_columns(path: str | Path) -> list[LiveColumn]:
    """The book's points columns, each with its call's arguments taken from the book."""
    data = Path(path).read_bytes()
    parts = sheet_parts(data)
    members = {m.name: m for m in package_members(data)[0]}
    text = part_text(data, members, parts[layout.RESULTS])
    sheets = read_sheets(data, list(parts))
    header = sheets[layout.RESULTS][0]
    rows = _tables(data)["ResultsTable"]
    out = []
    for name in POINTS_HEADERS:
        letters = _letters(header.index(name))
        for cell, number, attributes, stored in _CELL.findall(text):
            if cell != letters or int(number) != 2:
                continue
            formula = html.unescape(stored)
            call = _CALL.search(formula)
            assert call is not None, f"{name}: no SEASON_POINTS call in {formula!r}"
            texts = call_arguments(formula, call.end() - 1)
            opening = re.search(rf'<c r="{cell}{number}"[^>]*>', text)
            assert opening is not None
            cm = re.search(r'\bcm="(\d+)"', opening.group(0))
            ref = re.search(r'\bref="([^"]+)"', attributes)
            out.append(
                LiveColumn(
                    name,
                    f"{cell}{number}",
                    ref[1] if ref else "",
                    attributes + (f' cm="{cm[1]}"' if cm else ""),
                    formula,
                    tuple(_argument(t, data, sheets) for t in texts),
                    rows[3] - rows[1],
                )
            )
    return out


def _letters(index: int) -> str:
    letters, number = "", index + 1
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def engine_column(result: SeasonResult, header: str, rows: int) -> list[object]:
    """What each of the Results table's ``rows`` data rows (sheet rows 2 on) gets from the
    season: the player's points on the standard or rapid list for a graded row, else
    ``not graded:`` and the *What* of the row's first Exceptions line, else a blank."""
    side = 0 if header == "Home points" else 1
    points: dict[int, float] = {}
    for graded in (result.standard, result.rapid):
        both = (graded.white_points.tolist(), graded.black_points.tolist())
        for index, row in enumerate(graded.rows.tolist()):
            number = result.games[row].row
            assert number is not None
            points[number] = both[side][index]
    reasons: dict[int, str] = {}
    for sheet, number, what, _ in result.exceptions_table().rows:
        if sheet == layout.RESULTS and isinstance(number, int):
            reasons.setdefault(number, str(what))
    for graded in (result.standard, result.rapid):  # rated: rows rated but not graded
        for row in graded.lost.tolist():
            number = result.games[row].row
            assert number is not None
            reasons.setdefault(number, "no working grade")
    done = "rated" if result.rated else "graded"
    return [
        points[n] if n in points else f"not {done}: {reasons[n]}" if n in reasons else ""
        for n in range(2, rows + 2)
    ]


def agreement(path: str | Path, route: str) -> dict[str, tuple[int, int, list[str]]]:
    """For each points column of the book: the rows where the live cell, called through
    ``route`` (``classic`` or ``lite``), equals the season's answer, the rows, and the first
    few that differ (sheet row, live, season)."""
    data = Path(path).read_bytes()
    result = grade_inputs(read_book_inputs(data, path))
    out = {}
    for column in live_columns(path):
        call = classic_call if route == "classic" else officejs_call
        answer = call("SEASON_POINTS", *column.arguments)
        live = [row[0] for row in answer] if isinstance(answer, list) else [answer]
        want = engine_column(result, column.header, column.rows)
        same = sum(a == b for a, b in zip(live, want, strict=False))
        differ = [
            f"row {n + 2}: {a!r} / {b!r}"
            for n, (a, b) in enumerate(zip(live, want, strict=False))
            if a != b
        ]
        if len(live) != len(want):
            differ.insert(0, f"{len(live)} live rows for {len(want)} table rows")
        out[column.header] = (same, len(want), differ[:5])
    return out


def main(paths: Sequence[str]) -> None:
    """Print each book's agreement, column by column, in both routes."""
    for path in paths:
        for route in ("classic", "lite"):
            for header, (same, rows, differ) in agreement(path, route).items():
                print(f"{path} {route} {header}: {same} of {rows} rows agree")
                for line in differ:
                    print(f"    {line}")


if __name__ == "__main__":
    main(sys.argv[1:])
