"""Calls as xlwings Lite makes them, through ``xlwings.server`` (the Office.js protocol): a
worksheet function's (:func:`excel_call`) and a script's book as Lite hands it over
(:func:`book_payload`). The Pyodide check (tests/pyodide/) replays the same payloads."""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

from tests.paths import TRF
from xlgrade.formats.csvfile import write_players_csv, write_results_csv
from xlgrade.generate import generate_league
from xlgrade.model import Player
from xlgrade.workbook.excel_calls import OMITTED, officejs_call

Grid = list[list[Any]]
MADRID = TRF / "san_viator_2018.trf"


def excel_call(module: ModuleType, name: str, *args: Any) -> Any:
    """``name`` called as xlwings Lite calls it: every argument a matrix (rows of cells) or
    ``None`` when left out, the answer as Excel receives it (rows of cells)."""
    given = [OMITTED if a is None else a for a in args]
    return officejs_call(name, *given, module=module, caller="Results!I2")


def officejs_cell(value: object) -> object:
    """A cell as Office.js reads it: numbers, text, booleans; a date as its serial number."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime | dt.date):
        day = value.date() if isinstance(value, dt.datetime) else value
        return float((day - dt.date(1899, 12, 30)).days)
    return value


def book_tables(book: Path) -> dict[str, list[tuple[str, str]]]:
    """Each sheet's Excel tables, as (name, range) pairs."""
    from openpyxl import load_workbook

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # openpyxl's note on the whole-column print areas
        workbook = load_workbook(io.BytesIO(book.read_bytes()))
    return {ws.title: list(ws.tables.items()) for ws in workbook.worksheets}


def table_json(name: str, ref: str) -> dict[str, Any]:
    """A table as the payload describes it (its header row first, no totals)."""
    start, end = ref.split(":")
    first_row = int("".join(c for c in start if c.isdigit()))
    body = f"{start.rstrip('0123456789')}{first_row + 1}:{end}"
    return {
        "name": name,
        "range_address": ref,
        "header_row_range_address": f"{start}:{end.rstrip('0123456789')}{first_row}",
        "data_body_range_address": body,
        "totals_row_range_address": None,
        "show_headers": True,
        "show_totals": False,
        "table_style": "TableStyleMedium2",
        "show_autofilter": True,
    }


def book_payload(
    sheets: dict[str, Grid], tables: dict[str, list[tuple[str, str]]] | None = None
) -> dict[str, Any]:
    """The book as xlwings Lite sends it to a script (``getBookData``)."""
    import xlwings as xw

    width = {name: max((len(r) for r in grid), default=0) for name, grid in sheets.items()}
    return {
        "client": "Office.js",
        "version": xw.__version__,
        "book": {"name": "league.xlsx", "active_sheet_index": 0, "selection": "A1"},
        "names": [],
        "sheets": [
            {
                "name": name,
                "values": [
                    [officejs_cell(v) for v in row] + [""] * (width[name] - len(row))
                    for row in grid
                ]
                or [[]],
                "pictures": [],
                "shapes": [],
                "charts": [],
                "notes": [],
                "tables": [table_json(*t) for t in (tables or {}).get(name, [])],
                "print_area": None,
                "visibility": "Visible",
                "show_gridlines": True,
                "pivot_tables": [],
            }
            for name, grid in sheets.items()
        ],
    }


def import_files(folder: Path) -> dict[str, Path]:
    """Files to import into the example league: the Madrid TRF (new players, byes and
    absences), a players CSV of two new players, and a results CSV of return games between
    the league's own players (a week after each of its first six games, sides swapped)."""
    league = generate_league()
    players = folder / "new-players.csv"
    players.write_text(write_players_csv([Player("Newman, Ann", grade=101.0),
                                          Player("Oldham, Bob", estimated_grade=88.0)]),
                       encoding="utf-8")  # fmt: skip
    results = folder / "return-games.csv"
    again = [dataclasses.replace(g, home=g.away, away=g.home, result="½-½", row=None,
                                 date=g.date + dt.timedelta(days=7) if g.date else None)
             for g in league.games[:6]]  # fmt: skip
    results.write_text(write_results_csv(again), encoding="utf-8")
    return {"trf": MADRID, "players": players, "results": results}
