"""``xlgrade season FOLDER``: grade a league kept as CSV files and print its grading list, a
player's card, or its exceptions."""

from __future__ import annotations

import argparse
from typing import Any

from xlgrade.card import render_card
from xlgrade.formats.folder import read_folder_cells
from xlgrade.season import SeasonResult, Table
from xlgrade.workbook.read import grade_inputs, read_inputs

__all__ = ["format_table", "register", "run"]


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``season`` command."""
    parser = subparsers.add_parser(
        "season",
        help="grade a league kept as CSV files; print its list, a card or its exceptions",
        description=(
            "Grade the season in FOLDER (settings.csv, players.csv and results.csv, with the "
            "columns of the template workbook's sheets) and print the grading list. Every "
            "result row is graded or listed with its reason; the last line adds them up."
        ),
        epilog=(
            "Example: xlgrade season examples/league --card 'Jarvis, Robert'\n"
            "Columns of the list: games and points this season, the published grade "
            "(junior enhancement included), category, Elo equivalent."
        ),
    )
    parser.add_argument("folder", help="folder with settings.csv, players.csv, results.csv")
    parser.add_argument("--card", metavar="PLAYER", help="print this player's card (code or name)")
    parser.add_argument("--rapid", action="store_true", help="the rapidplay list instead")
    parser.add_argument(
        "--exceptions", action="store_true", help="print every row not graded, with the reason"
    )
    parser.set_defaults(func=run)


def format_table(table: Table, columns: tuple[str, ...]) -> str:
    """Some columns of a table as aligned text; numbers right-aligned."""
    picked = [table.headers.index(c) for c in columns]
    cells = [[("" if row[i] is None else str(row[i])) for i in picked] for row in table.rows]
    widths = [max([len(c)] + [len(r[k]) for r in cells]) for k, c in enumerate(columns)]
    numeric = [
        all(isinstance(row[i], int | float) or row[i] is None for row in table.rows) for i in picked
    ]

    def line(values: list[str]) -> str:
        parts = [
            v.rjust(w) if right else v.ljust(w)
            for v, w, right in zip(values, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    return "\n".join([line(list(columns))] + [line(r) for r in cells]) + "\n"


LIST_COLUMNS = ("Code", "Name", "Club", "Games", "Grade", "Category", "Junior", "Elo")


def run(args: argparse.Namespace) -> int:
    """Read the folder, grade it, print; 0 on success."""
    inputs = read_inputs(read_folder_cells(args.folder))
    season: SeasonResult = grade_inputs(inputs)
    kind = "rapid" if args.rapid else "standard"
    if args.card:
        print(render_card(season.card(season.player_index(args.card), kind)), end="")
        return 0
    if args.exceptions:
        print(format_table(season.exceptions_table(), ("Sheet", "Row", "What", "Why")), end="")
        return 0
    name = season.settings.season_name
    print(f"{'Rapidplay' if args.rapid else 'Grading'} list{f' {name}' if name else ''}")
    print(format_table(season.list_table(kind), LIST_COLUMNS), end="")
    print(season.accounting.summary())
    return 0
