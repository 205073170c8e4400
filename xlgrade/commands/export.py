"""``xlgrade export BOOK --ecf OUT`` / ``--csv OUT``: write a league book's players and games
as an ECF results submission file or as CSV files.

BOOK is a workbook (its Players and Results sheets are read, nothing is written to it) or a
folder of CSV files (:mod:`xlgrade.formats.folder`). The CSV files hold every row as it is.

The ECF file holds only what the season grades: the book is graded first, as ``xlgrade
season`` and ``xlgrade recalc`` grade it (:func:`xlgrade.workbook.read.grade_inputs`, with
the book's settings), and only the rows that pass its checks go in. Left out, each listed on
the terminal with the season's reason: defaults and byes, unknown players, results not
understood, games dated outside the season, time controls not understood or not gradable,
the second and later entries of one game (the first goes in, once), rows the reader could
not read. A row that passes the checks but that the season cannot grade only because its
players have no working grade (an unanchored group) goes in: the ECF grades it from its own
list.

Standard play or rapidplay, as the event requires: a submission has one time control, the
event's (the options), and the ECF rates the two on separate lists, so a standard event
takes the rows graded on the standard list and a rapidplay event those on the rapidplay
list; the rows of the other list are left out with that reason. (An event without a time
control takes both, and is refused for it.) Whatever else the ECF would reject is refused
with every reason (:func:`xlgrade.formats.ecffile.submission_refusals`). The event details
come from the options; the event and final result dates default to the first and last
dates of the games written.
"""

from __future__ import annotations

import argparse
import contextlib
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xlgrade._rounding import quote
from xlgrade.errors import GradingError
from xlgrade.formats import DIVISIONS_FILE, SETTINGS_FILE

if TYPE_CHECKING:
    import datetime as dt

    from xlgrade.formats.ecffile import EcfEvent
    from xlgrade.model import Game, Player, Problem
    from xlgrade.season import GradedList, SeasonResult
    from xlgrade.workbook.league import League

__all__ = ["register", "run"]

_TEXT_OPTIONS = (
    "event_code", "event_name", "results_officer", "results_officer_address", "treasurer",
    "treasurer_address", "adjudicated",
)  # fmt: skip
_SHOWN = 20
"""Rows left out that the terminal lists before their count."""
_NUMBER_OPTIONS = (
    "moves_first_session", "minutes_first_session", "moves_second_session",
    "minutes_second_session", "minutes_rest_of_game", "minutes_for_game", "seconds_per_move",
)  # fmt: skip


_HELP = {
    "event_code": "the code the ECF gave the event",
    "event_name": "the event's name",
    "results_officer": "who answers for the results",
    "results_officer_address": "the results officer's address or e-mail",
    "treasurer": "who pays the game fee",
    "treasurer_address": "the treasurer's address or e-mail",
    "adjudicated": "whether unfinished games were adjudicated (yes or no)",
    "moves_first_session": "moves in the first session (30 for 30 moves in 75 minutes)",
    "minutes_first_session": "minutes each for the first session's moves",
    "moves_second_session": "moves in the second session",
    "minutes_second_session": "minutes each for the second session's moves",
    "minutes_rest_of_game": "minutes each for the rest of the game",
    "minutes_for_game": "minutes each for all the moves (e.g. 25 for a rapidplay)",
    "seconds_per_move": "increment in seconds per move",
}
"""Each event option's help: the ECF file's field (:class:`xlgrade.formats.ecffile.EcfEvent`)."""


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
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace the ECF file, or the CSV files in the folder, if they exist",
    )
    event = parser.add_argument_group(
        "ECF event details (--ecf)",
        "The #EVENT DETAILS of the submission; the time control is the event's, and decides "
        "whether the standard or the rapidplay games go in.",
    )
    for name in _TEXT_OPTIONS:
        event.add_argument(
            "--" + name.replace("_", "-"), default="", metavar="TEXT", help=_HELP[name]
        )
    event.add_argument(
        "--submission-index",
        default="1",
        metavar="N",
        help="1 for the event's first file, 2 for the next (default: 1)",
    )
    event.add_argument(
        "--event-date",
        metavar="DATE",
        help="the first day of play, dd/mm/yyyy or yyyy-mm-dd (default: the first game's date)",
    )
    event.add_argument(
        "--final-result-date",
        metavar="DATE",
        help="the last day of play, dd/mm/yyyy or yyyy-mm-dd (default: the last game's date)",
    )
    for name in _NUMBER_OPTIONS:
        event.add_argument("--" + name.replace("_", "-"), type=int, metavar="N", help=_HELP[name])
    parser.set_defaults(func=run)


_CSV_FILES = ("players.csv", "results.csv", SETTINGS_FILE, DIVISIONS_FILE)
"""The files ``--csv`` writes in its folder."""


def run(args: argparse.Namespace) -> int:
    """Export; 0 on success (see the module's description).

    Raises:
        GradingError: BOOK is not a workbook or a folder, a date option is not a date, the
            event's time control is not gradable, or OUT exists and ``--force`` is not given.
        SubmissionError: what the ECF would reject, every reason listed; nothing is written.
    """
    from xlgrade.commands import refuse_to_replace
    from xlgrade.formats.files import locked

    if args.csv is not None:
        folder: Path = args.csv
        refuse_to_replace([folder / name for name in _CSV_FILES], args.force)
        if folder.exists() and not folder.is_dir():
            raise GradingError(f"{folder}: not a folder: --csv names the folder to write")
        # The folder locked from the check to the writing, as an import or ratings into it
        # holds it: a run writing it at the same time waits, and none is overwritten half-way.
        made = not folder.exists()
        try:
            with locked(folder, folder=True):
                return _export_csv(args, folder)
        except BaseException:
            if made:  # nothing was written: the folder made for the lock goes again
                with contextlib.suppress(OSError):
                    folder.rmdir()
            raise
    refuse_to_replace([args.ecf], args.force)
    with locked(args.ecf):
        refuse_to_replace([args.ecf], args.force)  # again: another run may have made it
        return _export_ecf(args)


def _export_csv(args: argparse.Namespace, folder: Path) -> int:
    """Write the book's players, results, settings and divisions to ``folder``, all or none."""
    from xlgrade.commands import open_printing_notes, refuse_to_replace
    from xlgrade.formats.csvfile import write_players_csv, write_results_csv
    from xlgrade.formats.files import folder_file, write_together
    from xlgrade.formats.folder import divisions_csv, settings_csv

    refuse_to_replace([folder / name for name in _CSV_FILES], args.force)
    league = open_printing_notes(args.book, "xlgrade export")
    inputs = league.inputs
    players, games = _rows_as_read(league)
    files = {
        folder / "players.csv": write_players_csv(players).encode("utf-8"),
        folder / "results.csv": write_results_csv(games).encode("utf-8"),
    }
    # The season's settings go with them, so that the folder grades as the book does.
    has_settings = league.has_settings
    if has_settings:
        files[folder / SETTINGS_FILE] = settings_csv(inputs.settings)
    written = "settings, " if has_settings else ""
    # And the divisions' rules, so that it is checked as the book is.
    if inputs.divisions:
        files[folder / DIVISIONS_FILE] = divisions_csv(list(inputs.divisions.values()))
        written += "divisions, "
    for path in files:  # a link there is refused, never written through
        folder_file(path)
    folder.mkdir(parents=True, exist_ok=True)
    write_together(files)  # all the files or none: a full disk leaves the folder as it was
    print(f"{folder}: {written}{len(players)} players, {len(games)} games written")
    return 0


def _export_ecf(args: argparse.Namespace) -> int:
    """Write the book's games the ECF rates to the ECF file ``args.ecf``."""
    from xlgrade.commands import open_printing_notes
    from xlgrade.formats.ecffile import EcfEvent, write_ecf_file
    from xlgrade.formats.files import write_whole
    from xlgrade.season import RAPID, STANDARD
    from xlgrade.workbook.read import grade_inputs

    details = {name: getattr(args, name) for name in _TEXT_OPTIONS + _NUMBER_OPTIONS}
    event_date, final_date = _date(args.event_date), _date(args.final_result_date)
    league = open_printing_notes(args.book, "xlgrade export")
    inputs = league.inputs
    kinds = _event_kinds(EcfEvent(**details), inputs.settings.system)
    season = grade_inputs(inputs)
    lists = {STANDARD: season.standard, RAPID: season.rapid}
    taken = sorted(row for kind in kinds for row in _rows(lists[kind]))
    games = [inputs.games[row] for row in taken]
    dates = sorted(game.date for game in games if game.date is not None)
    event = EcfEvent(
        submission_index=args.submission_index,
        event_date=event_date or (dates[0] if dates else None),
        final_result_date=final_date or (dates[-1] if dates else None),
        **details,
    )
    text = write_ecf_file(event, inputs.players, games)
    write_whole(text.encode("utf-8"), args.ecf)
    left = _left_out(inputs.games, season, kinds, event.time_control)
    for line in _listing(left) + league.notes:
        print(line)
    defaults = sum(1 for what, _ in left if what == "default")
    summary = f"{args.ecf}: {len(games)} games written; {defaults} defaults and byes left out"
    others = Counter(what for what, _ in left if what != "default")
    if others:
        reasons = ", ".join(f"{n} {what}" for what, n in sorted(others.items()))
        summary += f"; {others.total()} other rows left out ({reasons})"
    print(summary)
    return 0


def _event_kinds(event: EcfEvent, system: str) -> tuple[str, ...]:
    """The lists whose rows the event submits: the one its time control is on by the
    acceptance rules of the season's ``system``; both for an event without one (refused for
    that by :func:`write_ecf_file`).

    Raises:
        GradingError: the event's time control is not gradable (rated: not rated).
    """
    from xlgrade.eligibility import classify
    from xlgrade.season import RAPID, STANDARD
    from xlgrade.settings import RATING_2020

    control = event.time_control
    if not control:
        return (STANDARD, RAPID)
    playable = classify(control, system=system)
    if playable.kind == "not gradable":
        counted = "rated" if system == RATING_2020 else "gradable"
        raise GradingError(
            f"the event's time control {quote(control)} is not {counted} ({playable.reason}): "
            "give the time control of the games to submit"
        )
    return (playable.kind,)


def _left_out(
    games: list[Game], season: SeasonResult, kinds: tuple[str, ...], control: str
) -> list[tuple[str, str]]:
    """Each Results row not written, as (what, the line that says why), in row order: the
    list it is graded on when that is not the event's, else the season's reason."""
    from xlgrade.season import RAPID, STANDARD
    from xlgrade.workbook import layout

    why: dict[int, Problem] = {}
    for problem in season.problems:
        if problem.sheet == layout.RESULTS and problem.row is not None:
            why.setdefault(problem.row, problem)
    rows = {game.row for game in games}
    left = [(row, p.what, p.why) for row, p in why.items() if row not in rows]  # unread rows
    lists = {STANDARD: season.standard, RAPID: season.rapid}
    other = {r for kind in lists if kind not in kinds for r in _rows(lists[kind])}
    taken = {r for kind in kinds for r in _rows(lists[kind])}
    kind, own = ("standard play", "rapidplay") if kinds == (RAPID,) else ("rapidplay", "standard")
    for index, game in enumerate(games):
        row = game.row if game.row is not None else 0
        if index in other:
            text = f"graded on the {kind} list; the event's time control {quote(control)} is {own}"
            left.append((row, kind, text))
        elif index not in taken:
            found = why[row]
            left.append((row, found.what, found.why))
    return [(what, f"Results row {row}: {what}: {text}") for row, what, text in sorted(left)]


def _rows(graded: GradedList) -> list[int]:
    """The rows of one list that pass the season's checks: graded, or lost for want of a
    working grade."""
    return [int(r) for r in (*graded.rows, *graded.lost)]


def _listing(left: list[tuple[str, str]]) -> list[str]:
    """The rows left out, as the refusal lists its reasons: the first few, then a count."""
    if not left:
        return []
    rows = "1 row" if len(left) == 1 else f"{len(left)} rows"
    lines = [f"left out of the ECF file ({rows}):"]
    lines += [f"  {line}" for _, line in left[:_SHOWN]]
    if len(left) > _SHOWN:
        lines.append(f"  … and {len(left) - _SHOWN} more")
    return lines


def _rows_as_read(league: League) -> tuple[list[Player], list[Game]]:
    """Players and games of a workbook, or of a CSV folder, whose rows are written again as
    its own reader gives them (:func:`xlgrade.formats.folder.read_folder`)."""
    from xlgrade.formats.folder import read_folder

    if league.book:
        return list(league.inputs.players), list(league.inputs.games)
    found = read_folder(league.path)
    return list(found.players), list(found.games)


def _date(text: str | None) -> dt.date | None:
    """A date option, read as a date cell is (:func:`xlgrade.cells.date`: day first)."""
    from xlgrade import cells

    try:
        return cells.date(text)
    except GradingError as error:
        raise GradingError(f"date {error}") from None
