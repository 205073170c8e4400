"""``xlgrade eligibility BOOK|FOLDER``: every breach of the divisions' rules in a season (team
eligibility and board order, :mod:`xlgrade.teams`), for the grader to rule on."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xlgrade.commands.season import format_table

if TYPE_CHECKING:
    from xlgrade.teams import Breach

__all__ = ["register", "run", "summary"]


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``eligibility`` command."""
    parser = subparsers.add_parser(
        "eligibility",
        help="list every breach of the divisions' rules: board order, grade limits, playing down",
        description=(
            "Check each team in each match of BOOK (a league workbook) or FOLDER (a league "
            "kept as CSV files) against its division's rules on the Divisions sheet "
            "(divisions.csv in a folder): board order, maximum grade, players over a grade, "
            "team total and averages, a FIDE cap, playing down, the normal team, one team per "
            "division, registered players and non-members' games, each by the figure the "
            "division names (grade, rating, rapid rating, latest rating) with each ungraded "
            "player's estimate. Every breach is "
            "listed with its division, date, match, team, board, player, rule and why, in "
            "numbers; then a count. A breach is the grader's to rule on: the exit code is 0 "
            "with breaches listed, and not 0 only when the input cannot be read."
        ),
        epilog="Example: xlgrade eligibility examples/league",
    )
    parser.add_argument("source", metavar="BOOK|FOLDER", help="a league workbook or CSV folder")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """List the breaches and their count; 0 whatever they are.

    Raises:
        GradingError: the input cannot be read (not a league workbook or folder, or a header
            that stops the run: :func:`xlgrade.workbook.league.open_league`).
        OSError: the file or folder cannot be read.
    """
    from xlgrade.commands import open_printing_notes
    from xlgrade.season import Table
    from xlgrade.teams import BREACH_HEADERS, NO_DIVISIONS, breach_rows, league_breaches
    from xlgrade.workbook import layout
    from xlgrade.workbook.read import grade_inputs

    league = open_printing_notes(Path(args.source), "xlgrade eligibility")
    inputs = league.inputs
    where = league.places[layout.DIVISIONS]
    for problem in inputs.problems:
        if problem.sheet == layout.DIVISIONS:
            print(f"note: {where} row {problem.row}: {problem.why}")
    if not inputs.divisions:
        print(NO_DIVISIONS.replace("the Divisions sheet", "the Divisions sheet (divisions.csv)"))
        return 0
    breaches = league_breaches(grade_inputs(inputs), inputs.divisions, inputs.rating_history)
    if breaches:
        print(format_table(Table(BREACH_HEADERS, breach_rows(breaches)), BREACH_HEADERS), end="")
    print(summary(breaches, len(inputs.divisions)))
    for note in league.notes:
        print(note)
    return 0


def summary(breaches: list[Breach], divisions: int) -> str:
    """The count line: the breaches by rule, the matches they are in, the boards not checked.

    >>> summary([], 2)
    'No rule of the 2 divisions is broken.'
    """
    from xlgrade.teams import NOT_CHECKED

    found = [b for b in breaches if b.rule != NOT_CHECKED]
    unchecked = len(breaches) - len(found)
    of = f"{divisions} division{'s' if divisions != 1 else ''}"
    if found:
        rules = Counter(b.rule for b in found)
        matches = len({(b.division, b.date, b.match) for b in found})
        kinds = ", ".join(f"{n} {rule}" for rule, n in sorted(rules.items()))
        line = (
            f"{len(found)} breach{'es' if len(found) != 1 else ''} of the rules of {of} in "
            f"{matches} match{'es' if matches != 1 else ''} ({kinds})"
        )
    else:
        line = f"No rule of the {of} is broken"
    if unchecked:
        line += f"; {unchecked} board{'s' if unchecked != 1 else ''} not checked"
    return line + "."
