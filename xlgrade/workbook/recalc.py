"""Recalculate a workbook file without Excel: read its input sheets, grade the season, and
rewrite only its output sheets (``xlgrade recalc``)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from xlgrade.errors import GradingError
from xlgrade.formats.files import locked
from xlgrade.model import Problem
from xlgrade.season import SeasonResult
from xlgrade.settings import RATING_2020
from xlgrade.workbook import layout
from xlgrade.workbook.package import (
    read_league_sheets,
    write_package,
    write_sheets,
)
from xlgrade.workbook.read import Inputs, grade_inputs, output_tables, read_inputs

__all__ = [
    "REQUIRED_SHEETS",
    "RecalcSummary",
    "mend_book",
    "new_season_book",
    "read_book_inputs",
    "read_league_sheets",
    "recalculate_book",
    "summarise",
]

REQUIRED_SHEETS: Final = layout.REQUIRED_SHEETS
"""The sheets a league workbook cannot do without
(:data:`xlgrade.workbook.layout.REQUIRED_SHEETS`)."""


@dataclass(frozen=True)
class RecalcSummary:
    """What a recalculation did, for the terminal.

    Attributes:
        players: Players rows read.
        games: Results rows read (graded or not).
        graded: games graded, on the standard and the rapid list together.
        exceptions: problems on the Exceptions sheet.
        sheets: the sheets written.
        accounting: the season's accounting of result rows, in one line.
        unread: the reader's problems with the Settings and Players sheets (each unreadable
            value left out, the rest of its row kept).
        not_graded: result rows not graded (``games`` less those graded).
        other_exceptions: the Exceptions sheet's lines besides one for each row not graded,
            by sheet, as (sheet, count): a player's problems, a problem of a whole sheet.
        rated: the season was rated (``System``: the ECF rating), not graded.
        mended: ``note:`` lines for what the book had lost and what was put back
            (:func:`mend_book`): an xlwings Lite book saved by LibreOffice.
    """

    players: int
    games: int
    graded: int
    exceptions: int
    sheets: tuple[str, ...]
    accounting: str
    unread: tuple[Problem, ...] = ()
    not_graded: int = 0
    other_exceptions: tuple[tuple[str, int], ...] = ()
    rated: bool = False
    mended: tuple[str, ...] = ()


def mend_book(data: bytes, where: str) -> tuple[bytes, tuple[str, ...]]:
    """The book ``data`` (read from ``where``, its package already checked by
    :func:`read_book_inputs`) with what an xlwings Lite book lost put back
    (:func:`xlgrade.workbook.lite.mend_lite_book`), and the ``note:`` line that says so; any
    other book as it is, with no line."""
    from xlgrade.workbook.lite import damage_note, lite_damage, mend_lite_book

    damage = lite_damage(data)
    if damage is None:
        return data, ()
    mended, put_back = mend_lite_book(data)
    return mended, (
        damage_note(where, damage, "put back from this xlgrade: " + "; ".join(put_back)),
    )


def recalculate_book(
    path: str | os.PathLike[str],
    out: str | os.PathLike[str] | None = None,
    *,
    progress: Callable[[str], None] | None = None,
    data: bytes | None = None,
) -> RecalcSummary:
    """Recalculate the workbook at ``path``; write it back atomically (or to ``out``).

    Only the output sheets change; see :func:`xlgrade.workbook.package.write_sheets`. With
    ``data``, the book is that package, not yet written (``xlgrade template --example``):
    ``path`` is written once, recalculated, and need not exist before.
    ``progress`` receives a line for each step. Where the book will be written is checked
    before the season is graded (:func:`xlgrade.formats.files.check_target`) and locked
    from the reading to the writing (:func:`xlgrade.formats.files.locked`): another run that
    writes it waits, and the path is resolved once.

    Raises:
        FormatError: the file is not a workbook, or not a league workbook
            (:func:`read_league_sheets`).
        HeaderError: a header stops the run (:attr:`xlgrade.formats.tables.Inputs.stopped`):
            nothing is graded and nothing is written, so the book keeps the lists of its last
            good run (and ``out`` is not made).
        GradingError: the season cannot be graded (a setting that stops it); nothing is
            written either.
        OSError: the book cannot be read, or cannot be written where asked, naming the path.
    """
    say = progress or (lambda line: None)
    say(f"Reading {os.fspath(path)}")
    if data is None:
        with open(path, "rb"):  # a missing book is named before anything is locked
            pass
    with locked(out if out is not None else path) as target:
        source = path if out is not None else target
        if data is None:
            with open(source, "rb") as stream:
                data = stream.read()
        inputs = read_book_inputs(data, path)  # the package checked before it is mended
        data, mended = mend_book(data, os.fspath(path))
        inputs.refuse_stopped(
            then=f"; nothing was graded and {os.fspath(out)} was not written"
            if out is not None
            else f"; nothing was graded and {os.fspath(path)} was not changed: its lists are "
            "those of its last good run"
        )
        rating = inputs.settings.system == RATING_2020
        say("Rating month by month" if rating else "Grading")
        result = grade_inputs(inputs)
        tables = output_tables(result, inputs.divisions, inputs.rating_history, inputs.lineup)
        say(f"Writing {', '.join(tables)}")
        write_sheets(source, tables, target, data=data)
    return summarise(inputs, result, tuple(tables), mended)


def summarise(
    inputs: Inputs, result: SeasonResult, sheets: Sequence[str], mended: Sequence[str] = ()
) -> RecalcSummary:
    """The :class:`RecalcSummary` of grading ``inputs`` into ``result`` and writing ``sheets``
    (``mended``: :attr:`RecalcSummary.mended`)."""
    accounting = result.accounting
    by_sheet = Counter(p.sheet for p in result.problems)
    by_sheet[layout.RESULTS] -= accounting.excepted
    return RecalcSummary(
        players=len(inputs.players),
        games=accounting.rows,
        graded=accounting.standard_graded + accounting.rapid_graded,
        exceptions=len(result.problems),
        sheets=tuple(sheets),
        accounting=accounting.summary(),
        unread=_unread(inputs),
        not_graded=accounting.excepted,
        other_exceptions=tuple((sheet, n) for sheet, n in by_sheet.items() if n > 0),
        rated=accounting.rated,
        mended=tuple(mended),
    )


def _unread(inputs: Inputs) -> tuple[Problem, ...]:
    """The reader's problems with the Settings and Players sheets."""
    return tuple(p for p in inputs.problems if p.sheet in (layout.SETTINGS, layout.PLAYERS))


def new_season_book(
    path: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    progress: Callable[[str], None] | None = None,
    keep_engine: bool = True,
) -> tuple[int, str, tuple[Problem, ...], tuple[str, ...]]:
    """Write a new book at ``out`` for the season after the one in the book at ``path``:
    the template with the Players table carried on (:meth:`SeasonResult.next_season`), the
    Divisions sheet's rules as they are, no results, and the settings a year on. Returns the
    number of players, the new season's name, and the reader's problems with the Settings and
    Players sheets (values left out of the new book), as :attr:`RecalcSummary.unread`, and
    ``note:`` lines for what the book at ``path`` had lost (an xlwings Lite book saved by
    LibreOffice: :func:`xlgrade.workbook.lite.lite_damage`). A
    Lite book (``out`` named ``.xlsx``) carries the engine of the book at ``path`` where it
    is this xlgrade's or a released one (:func:`xlgrade.workbook.lite.carried_engine`), else
    this xlgrade's, as it does where the book carries none or has lost it, or ``keep_engine``
    is false; a ``note:`` line says which. The
    write is atomic (a temporary file renamed into place); ``out`` is checked before the
    season is graded.

    Raises:
        FormatError: the file is not a workbook, or not a league workbook
            (:func:`read_league_sheets`); the engine of a Lite book was changed or cut short,
            and ``keep_engine`` is true (the message says how to get it back).
        OSError: the book cannot be read, or ``out`` cannot be written, naming the path.
    """
    say = progress or (lambda line: None)
    say(f"Reading {os.fspath(path)}")
    with open(path, "rb") as source:
        data = source.read()
    if os.path.exists(out) and os.path.samefile(path, out):
        raise GradingError(
            f"{os.fspath(out)} is this season's book itself: give next season's book another "
            "name, so that this season's results are kept"
        )
    with locked(out) as target:
        inputs = read_book_inputs(data, path)
        inputs.refuse_stopped()
        notes = _lost_engine_notes(data, os.fspath(path), os.fspath(out), keep_engine)
        players, settings = grade_inputs(inputs).next_season()
        divisions = list(inputs.divisions.values())  # the league's rules carry on
        say(f"Writing {os.fspath(out)}")
        if os.fspath(out).lower().endswith(".xlsx"):  # the xlwings Lite book: no macros
            from xlgrade.workbook.lite import build_lite_workbook, carried_engine, running_engine

            # The season's engine carries on where it can be trusted, unless a newer one is
            # asked for; either way the notes say which.
            if keep_engine:
                engine, which = carried_engine(data, os.fspath(path))
            else:
                engine, which = None, f"this xlgrade's engine ({running_engine()}), as asked"
            notes = (*notes, f"note: {os.fspath(out)} carries {which}")
            package = build_lite_workbook(players, (), settings, divisions, engine=engine)
        else:
            from xlgrade.workbook.build import build_workbook

            package = build_workbook(players, (), settings, divisions)
        write_package(package, target)
    return len(players), settings.season_name, _unread(inputs), notes


def _lost_engine_notes(data: bytes, where: str, out: str, keep_engine: bool) -> tuple[str, ...]:
    """The ``note:`` line for next season's book of a Lite book that lost its parts: the new
    book is whole, with this xlgrade's engine where the old one's is lost."""
    from xlgrade.workbook.lite import damage_note, lite_damage

    damage = lite_damage(data)
    if damage is None:
        return ()
    if damage.engine and not damage.addin and keep_engine:
        from xlgrade.workbook.lite import book_engine

        book_engine(data, where)  # changed or cut short: refused, saying how to get it back
    if not out.lower().endswith(".xlsx"):
        return (damage_note(where, damage),)
    engine = "this xlgrade's engine" if damage.engine or not keep_engine else "its engine"
    return (damage_note(where, damage, f"next season's {out} is whole, with {engine}"),)


def read_book_inputs(data: bytes, path: str | os.PathLike[str]) -> Inputs:
    """The input sheets of the package ``data`` read from ``path``
    (:func:`read_league_sheets`) and read as tables (:func:`xlgrade.workbook.read.read_inputs`),
    with the reader's notes of merged cells and hidden rows first among the problems.

    Raises:
        FormatError: as :func:`read_league_sheets`.
    """
    notes: list[Problem] = []
    inputs = read_inputs(read_league_sheets(data, path, notes))
    inputs.problems[:0] = notes
    return inputs
