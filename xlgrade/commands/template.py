"""``xlgrade template OUT``: write the empty template workbook, for xlwings Lite (``.xlsx``)
or for classic xlwings (``.xlsm``, ``--classic``)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xlgrade.commands.season import FILES

if TYPE_CHECKING:
    from xlgrade.formats.tables import Inputs

__all__ = ["EXAMPLE_LEAGUE", "example_league", "register", "run"]

EXAMPLE_LEAGUE = Path(__file__).resolve().parents[1] / "data" / "example-league"
"""The example book's league: CSV files shipped with the package (written by
``examples/make_example_league.py``)."""


def register(subparsers: Any) -> None:
    """Add the ``template`` subcommand."""
    parser = subparsers.add_parser(
        "template",
        help="write the template workbook (xlwings Lite .xlsx, or classic .xlsm)",
        description="Write the empty league template workbook (Settings, Players, Results, "
        "output sheets) to OUT. An .xlsx name gives the xlwings Lite book: no macros, the "
        "functions and buttons run by the xlwings Lite add-in (Excel 365 or 2021+ on Windows, "
        "Mac or the web) from this xlgrade, which the book's code carries. "
        "An .xlsm name, or --classic, gives the classic book: the Grading ribbon "
        "tab and its macros, for Windows desktop Excel with Python and the xlwings add-in.",
        epilog="Example: xlgrade template my-league.xlsx",
    )
    parser.add_argument("out", metavar="OUT", help="where to write it: OUT.xlsx or OUT.xlsm")
    parser.add_argument("--force", action="store_true", help="replace OUT if it exists")
    parser.add_argument(
        "--classic",
        action="store_true",
        help="the classic book (ribbon and macros, .xlsm) even where OUT is not named .xlsm",
    )
    parser.add_argument(
        "--example",
        action="store_true",
        help="fill it with the example league (shipped with xlgrade) and recalculate it",
    )
    parser.add_argument(
        "--union",
        action="store_true",
        help="a union's book (.xlsx) instead: its Leagues, Identities and Publish sheets to "
        "fill, for xlgrade recalc to grade its leagues as one season",
    )
    parser.set_defaults(func=run)


def example_league() -> Inputs:
    """The example book's league, read from :data:`EXAMPLE_LEAGUE` strictly by the one
    reader of a folder (:func:`xlgrade.formats.folder.read_folder_cells`,
    :func:`xlgrade.formats.tables.read_inputs`).

    Raises:
        FormatError: a cell of the shipped files cannot be read, naming the file and line.
    """
    from xlgrade.formats.folder import read_folder_cells
    from xlgrade.formats.tables import read_inputs

    cells = read_folder_cells(EXAMPLE_LEAGUE)
    return read_inputs(cells, strict=True, places=FILES, row_word="line")


def _route(args: argparse.Namespace) -> tuple[bool, str | None]:
    """Whether OUT is the classic book, or why the arguments do not make a book."""
    suffix = os.path.splitext(args.out)[1].lower()
    classic = args.classic or suffix == ".xlsm"
    if suffix not in (".xlsx", ".xlsm"):
        return classic, f"{args.out}: name the book .xlsx (xlwings Lite) or .xlsm (classic)"
    if classic and suffix != ".xlsm":
        return classic, f"{args.out}: the classic book holds macros; name it .xlsm"
    return classic, None


def run(args: argparse.Namespace) -> int:
    """Write the template (or the recalculated example league); 1 if OUT exists and
    ``--force`` is not given, or if OUT's name does not fit the book."""
    from xlgrade.formats.files import write_whole
    from xlgrade.workbook.build import build_workbook
    from xlgrade.workbook.lite import build_lite_workbook

    if getattr(args, "union", False):
        return _union(args)
    classic, problem = _route(args)
    if problem is not None:
        print(f"Error: {problem}", file=sys.stderr)
        return 1
    if os.path.exists(args.out) and not args.force:
        print(f"Error: {args.out} exists; use --force to replace it", file=sys.stderr)
        return 1

    def build(*season: Any) -> bytes:
        if classic:
            return build_workbook(*season)
        return build_lite_workbook(*season)

    if args.example:
        from xlgrade.workbook.recalc import recalculate_book

        league = example_league()
        divisions = tuple(league.divisions.values())
        book = build(league.players, league.games, league.settings, divisions)
        recalculate_book(args.out, data=book)  # written once, recalculated: whole or not at all
    else:
        write_whole(build(), args.out)
    print(f"Wrote {args.out}")
    return 0


def _union(args: argparse.Namespace) -> int:
    """Write an empty union's book (:func:`xlgrade.workbook.union.union_template`)."""
    from xlgrade.formats.files import write_whole
    from xlgrade.workbook.union import union_template

    problem = None
    if args.classic or args.example:
        problem = "--union makes a union's book: no --classic, no --example"
    elif os.path.splitext(args.out)[1].lower() != ".xlsx":
        problem = f"{args.out}: name the union's book .xlsx"
    elif os.path.exists(args.out) and not args.force:
        problem = f"{args.out} exists; use --force to replace it"
    if problem is not None:
        print(f"Error: {problem}", file=sys.stderr)
        return 1
    write_whole(union_template(), args.out)
    print(f"Wrote {args.out}: list the leagues on its Leagues sheet, then xlgrade recalc it")
    return 0
