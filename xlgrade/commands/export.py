"""``xlgrade export BOOK --ecf OUT`` / ``--csv OUT``: write a league book's players and games
as an ECF results submission file or as CSV files.

BOOK is a workbook (its Players and Results sheets are read, nothing is written to it) or a
folder of CSV files (:mod:`xlgrade.formats.folder`). For the ECF file only played games go in:
defaults and byes are left out (and counted), and whatever else the ECF would reject is
refused with every reason (:func:`xlgrade.formats.ecffile.submission_refusals`). The event
details come from the options; the event and final result dates default to the first and
last game dates.
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
from pathlib import Path
from typing import Any

from xlgrade.errors import GradingError, ResultError
from xlgrade.formats.csvfile import write_players_csv, write_results_csv
from xlgrade.formats.ecffile import EcfEvent, write_ecf_file
from xlgrade.formats.folder import read_folder
from xlgrade.model import Game, Player
from xlgrade.results import parse_game_result

__all__ = ["register", "run"]

_TEXT_OPTIONS = (
    "event_code", "event_name", "results_officer", "results_officer_address", "treasurer",
    "treasurer_address", "adjudicated",
)  # fmt: skip
_NUMBER_OPTIONS = (
    "moves_first_session", "minutes_first_session", "moves_second_session",
    "minutes_second_session", "minutes_rest_of_game", "minutes_for_game", "seconds_per_move",
)  # fmt: skip


def register(subparsers: Any) -> None:
    """Add the ``export`` subcommand."""
    parser = subparsers.add_parser(
        "export",
        help="write a book's games as an ECF results submission file or CSV",
        description=(
            "Read BOOK (a workbook or a folder of CSV files) and write an ECF results "
            "submission file (--ecf) or players.csv and results.csv (--csv)."
        ),
        epilog=(
            "Example: xlgrade export league.xlsm --ecf league.txt --event-code ABC123 "
            '--event-name "Anytown League" --results-officer "A Grader" ...'
        ),
    )
    parser.add_argument("book", metavar="BOOK", type=Path, help="workbook or CSV folder")
    out = parser.add_mutually_exclusive_group(required=True)
    out.add_argument("--ecf", metavar="OUT", type=Path, help="write the ECF file here")
    out.add_argument("--csv", metavar="OUT", type=Path, help="write the CSV files in this folder")
    event = parser.add_argument_group("ECF event details (--ecf)")
    for name in _TEXT_OPTIONS:
        event.add_argument("--" + name.replace("_", "-"), default="", metavar="TEXT")
    event.add_argument("--submission-index", default="1", metavar="N")
    event.add_argument("--event-date", metavar="DATE", help="dd/mm/yyyy or yyyy-mm-dd")
    event.add_argument("--final-result-date", metavar="DATE", help="dd/mm/yyyy or yyyy-mm-dd")
    for name in _NUMBER_OPTIONS:
        event.add_argument("--" + name.replace("_", "-"), type=int, metavar="N")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Export; 0 on success."""
    players, games = _read_book(args.book)
    if args.csv is not None:
        folder: Path = args.csv
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "players.csv").write_text(write_players_csv(players), encoding="utf-8")
        (folder / "results.csv").write_text(write_results_csv(games), encoding="utf-8")
        print(f"{folder}: {len(players)} players, {len(games)} games written")
        return 0
    played = [game for game in games if _played(game)]
    dates = sorted(game.date for game in played if game.date is not None)
    event = EcfEvent(
        submission_index=args.submission_index,
        event_date=_date(args.event_date) or (dates[0] if dates else None),
        final_result_date=_date(args.final_result_date) or (dates[-1] if dates else None),
        **{name: getattr(args, name) for name in _TEXT_OPTIONS + _NUMBER_OPTIONS},
    )
    text = write_ecf_file(event, players, played)
    args.ecf.write_text(text, encoding="utf-8")
    left = len(games) - len(played)
    print(f"{args.ecf}: {len(played)} games written; {left} defaults and byes left out")
    return 0


def _read_book(book: Path) -> tuple[list[Player], list[Game]]:
    """Players and games of a workbook (read only) or of a CSV folder."""
    if book.suffix.lower() in (".xlsm", ".xlsx"):
        from xlgrade.workbook import layout
        from xlgrade.workbook.package import read_sheets
        from xlgrade.workbook.read import read_inputs

        inputs = read_inputs(read_sheets(book, layout.INPUT_SHEETS))
        return list(inputs.players), list(inputs.games)
    if not book.is_dir():
        raise GradingError(f"{book}: not a workbook (.xlsm, .xlsx) or a folder of CSV files")
    found = read_folder(book)
    return list(found.players), list(found.games)


def _played(game: Game) -> bool:
    """Whether the game goes into the ECF file: a played game, or a result not understood
    (kept so that the refusal names it)."""
    try:
        return parse_game_result(game.result).graded
    except ResultError:
        return True


def _date(text: str | None) -> dt.date | None:
    if not text:
        return None
    match = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", text)
    try:
        if match:
            return dt.date(int(match[3]), int(match[2]), int(match[1]))
        return dt.date.fromisoformat(text)
    except ValueError:
        raise GradingError(f"date {text!r} is not a date (dd/mm/yyyy or yyyy-mm-dd)") from None
