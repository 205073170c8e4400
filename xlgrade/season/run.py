"""The season recalculation, step by step (see :mod:`xlgrade.season`)."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import gc
import operator
from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import Final

import numpy as np

from xlgrade import cells
from xlgrade._rounding import quote
from xlgrade.card import shown_number
from xlgrade.model import Game, Player, Problem
from xlgrade.season.checks import (
    RAPID,
    ROW_NOTES,
    SHEET_PROBLEMS,
    STANDARD,
    first_failures,
    read_rows,
)
from xlgrade.season.duplicates import mark_duplicates
from xlgrade.season.lists import GradedList, PlayerArrays, grade_list
from xlgrade.season.players import (
    PlayerColumns,
    borrowing_possible,
    checked_births,
    checked_players,
    with_texts,
)
from xlgrade.season.rating import RatingColumns, checked_last_rated, rate_list
from xlgrade.season.references import PlayerIndex
from xlgrade.season.result import (
    Accounting,
    SeasonResult,
)
from xlgrade.season.shared import Fail
from xlgrade.settings import RATING_2020, Settings, season_of
from xlgrade.settings import check as check_settings

__all__ = ["collector_paused", "one_line_a_row", "one_line_sheet", "recalculate", "results_sheet"]


def recalculate(
    players: Sequence[Player],
    games: Sequence[Game],
    settings: Settings | None = None,
    problems: Sequence[Problem] = (),
) -> SeasonResult:
    """Recalculate a season: see the module's description for the steps.

    Args:
        players: the Players table.
        games: every result row, as typed.
        settings: the season's settings. ``None``: the sources' defaults for the season the
            games were played in, 1 June to 31 May (docs/rules.md §11;
            :func:`xlgrade.settings.season_of`), as the readers take it when no season is
            given, and a note on the exceptions saying which (a :class:`Settings` made in
            code keeps the dates it is given, the table's own defaults if none).
        problems: rows the reader could not turn into players or games (a text where a grade
            belongs…): they go to the exceptions and the accounting as they are.
    """
    if settings is None:
        season = season_of(game.date for game in games)
        settings = Settings(season_start=season.start, season_end=season.end)
        note = Problem("Settings", None, "season from the games", f"no settings: {season.note}")
        problems = [*problems, note]
    settings = _day_settings(settings)
    check_settings(settings)  # each setting of its kind and range: xlgrade.settings
    with collector_paused():
        players = with_texts(players)
        players, bad_values, columns = checked_players(players)
        players, bad_births = checked_births(players, settings.age_date)
        bad_months: list[Problem] = []
        rating_columns = None
        if settings.system == RATING_2020:
            players, bad_months, rating_columns = checked_last_rated(players, settings)
        undated = borrowing_possible(players, settings)
        return _recalculate(
            players, columns, games, settings,
            [*problems, *bad_values, *bad_births, *bad_months, *undated], rating_columns,
        )  # fmt: skip


def _day_settings(settings: Settings) -> Settings:
    """``settings`` with its dates as dates: a datetime compares with no date."""
    days = {
        name: cells.day(getattr(settings, name))
        for name in ("season_start", "season_end", "junior_age_date")
        if isinstance(getattr(settings, name), dt.datetime)
    }
    return dataclasses.replace(settings, **days) if days else settings  # type: ignore[arg-type]


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Keep Python's cyclic garbage collector off the inputs while a season is worked out.

    A season allocates many small objects (parsed values, problems, arrays) beside the hundreds
    of thousands its inputs already hold. Every object that exists at the start is frozen
    (:func:`gc.freeze`) so that automatic collections walk only what the recalculation makes,
    and is unfrozen at the end.
    """
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _recalculate(
    players: Sequence[Player],
    columns: PlayerColumns,
    games: Sequence[Game],
    settings: Settings,
    problems: Sequence[Problem],
    rating_columns: RatingColumns | None = None,
) -> SeasonResult:
    """The steps after the Players table's checks (see :mod:`xlgrade.season`); rated, the
    lists are rated from ``rating_columns`` (:func:`checked_last_rated`)."""
    index = PlayerIndex(players)
    rows = read_rows(games, index, settings)
    ok, defaulted, reason = first_failures(rows)
    mark_duplicates(
        games, rows.day, rows.rapid, rows.white, rows.black, rows.score, ok | defaulted,
        defaulted, reason, "rated" if settings.system == RATING_2020 else "graded",
    )  # fmt: skip
    ok[list(reason)] = False
    arrays = PlayerArrays.of(players, columns, settings)
    standard_rows, rapid_rows = np.flatnonzero(ok & ~rows.rapid), np.flatnonzero(ok & rows.rapid)
    sides, resolved = rows.sides(), rows.resolved()
    del rows  # the checks' columns are not needed to grade
    kinds = ((STANDARD, standard_rows), (RAPID, rapid_rows))
    rating = settings.system == RATING_2020
    played = {kind: sides.taken(graded) for kind, graded in kinds}
    del sides  # each list holds its own rows' columns
    # Rated, the lists are still graded by the 1997 rules: the Divisions' limits may be in
    # grades and next season's Players carry the grades on. It is 4–8 % of a rated national
    # season (benchmarks/bench_ecf_rating.py), so none of it is skipped. It comes first, so
    # that it works in the memory the checks freed, as a graded season's does, and the
    # months rated, which are kept, come after.
    lists = {
        kind: grade_list(kind, players, arrays, settings, graded, played[kind])
        for kind, graded in kinds
    }
    # Rated, each list is rated from the same rows' columns it is graded from.
    rated = (
        {kind: rate_list(kind, settings, rated_rows, played.pop(kind), rating_columns)
         for kind, rated_rows in kinds}
        if rating_columns is not None
        else {}
    )  # fmt: skip
    # Rated, every row that passed the checks counts: none waits for a working grade.
    excepted = _excepted_rows(games, reason, {} if rating else lists)
    all_problems = _with_notes(
        one_line_a_row(
            [
                *[p for p in problems if p.what not in ROW_NOTES],
                *index.problems,
                *excepted,
                *([] if rating else _unanchored(players, settings, lists)),
            ]
        ),
        [p for p in problems if p.what in ROW_NOTES],
    )
    by_reason: dict[str, int] = defaultdict(int)
    for problem in excepted:
        by_reason[problem.what] += 1
    unread = _unread_rows(problems)
    for what in unread.values():
        by_reason[what] += 1
    counted = rated or lists
    accounting = Accounting(
        rows=len(games) + len(unread),
        standard_graded=int(counted[STANDARD].rows.size),
        rapid_graded=int(counted[RAPID].rows.size),
        excepted=sum(by_reason.values()),
        by_reason=dict(by_reason),
        rated=rating,
    )
    return SeasonResult(
        players=tuple(players),
        games=tuple(games),
        settings=settings,
        standard=lists[STANDARD],
        rapid=lists[RAPID],
        problems=tuple(all_problems),
        accounting=accounting,
        codes=tuple(index.canonical),
        resolved=resolved,
        rated=rated,
    )


def _excepted_rows(
    games: Sequence[Game], reason: dict[int, Fail], lists: dict[str, GradedList]
) -> list[Problem]:
    """The rows not graded, in row order with their first reason, then the rows of an
    unanchored group with no default grade (they passed the checks but cannot be graded)."""
    out = [
        Problem(results_sheet(games[row]), games[row].row, reason[row].what, reason[row].why)
        for row in sorted(reason)  # the rows alone: no pair is made for each
    ]
    why = (
        "both players are ungraded and their group has no graded opponent; set "
        "'Unanchored grade' to grade it"
    )
    for graded in lists.values():
        out.extend(
            Problem(results_sheet(games[row]), games[row].row, "no working grade", why)
            for row in graded.lost.tolist()
        )
    return out


def _unanchored(
    players: Sequence[Player], settings: Settings, lists: dict[str, GradedList]
) -> list[Problem]:
    """§6: an unanchored group is reported even when the grader's default grades it."""
    if settings.unanchored_grade is None:
        return []
    out: list[Problem] = []
    for kind, graded in lists.items():
        for group in graded.working.unanchored:
            names = ", ".join(quote(players[m].name) for m in group[:5])
            more = f" and {len(group) - 5} more" if len(group) > 5 else ""
            out.extend(
                Problem(
                    "Players",
                    players[m].row,
                    "unanchored",
                    f"{quote(players[m].name)} is one of {len(group)} ungraded players "
                    f"({names}{more}) with no graded opponent on the {kind} list: "
                    f"given the unanchored grade {shown_number(settings.unanchored_grade)}",
                )
                for m in group
            )
    return out


def _with_notes(problems: list[Problem], notes: Sequence[Problem]) -> list[Problem]:
    """``problems`` with the reader's notes (:data:`ROW_NOTES`): a Results or Players row
    listed for a reason has its notes at the end of its line ("; also …"); every other note is
    a line of its own, before the problems."""
    if not notes:
        return problems
    on_row: dict[tuple[str, int], list[str]] = defaultdict(list)
    for note in notes:
        if one_line_sheet(note.sheet) and note.row is not None:
            on_row[note.sheet, note.row].append(note.why)
    out: list[Problem] = []
    folded: set[tuple[str, int]] = set()
    for problem in problems:
        key = (problem.sheet, problem.row or 0)
        if key in on_row and problem.what not in SHEET_PROBLEMS:
            problem = problem._replace(why="; also ".join([problem.why, "; ".join(on_row[key])]))
            folded.add(key)
        out.append(problem)
    kept = [n for n in notes if (n.sheet, n.row or 0) not in folded]
    return [*kept, *out]


_ONE_LINE_SHEETS: Final = ("Results", "Players")
"""The sheets whose rows get one line each on the Exceptions sheet (and each league's, in a
union: ``"Northfield Results"``)."""


def results_sheet(game: Game) -> str:
    """The sheet a game's row is named on: ``"Results"``, or in a union of leagues the
    league's, ``"Northfield Results"`` (:mod:`xlgrade.season.union`)."""
    return f"{game.league} Results" if game.league else "Results"


def one_line_sheet(sheet: str) -> bool:
    """Whether ``sheet`` is one whose rows get a line each (:data:`_ONE_LINE_SHEETS`)."""
    return sheet in _ONE_LINE_SHEETS or sheet.endswith((" Results", " Players"))


_SHEET_AND_ROW: Final = operator.itemgetter(0, 1)
"""A problem's sheet and row (the first two fields of :class:`Problem`)."""


def one_line_a_row(problems: Sequence[Problem]) -> list[Problem]:
    """One line for each Results or Players row among ``problems``: the first of its problems
    (in the order they come: the reader reads a row's cells in the order of the season's checks,
    left to right on Players, and the season's checks of the Players table follow), the others
    after it in the same line ("; also …"), at the place of the first. A problem of a whole
    sheet, or of no row, is a line of its own, as every problem of the other sheets is.

    >>> lines = one_line_a_row([Problem("Players", 2, "bad grade", "cell B2: 'x'"),
    ...     Problem("Settings", 3, "bad setting", "cell B3"),
    ...     Problem("Players", 2, "bad games", "cell C2: 'y'")])
    >>> [(p.sheet, p.row, p.what, p.why) for p in lines]  # doctest: +NORMALIZE_WHITESPACE
    [('Players', 2, 'bad grade', "cell B2: 'x'; also cell C2: 'y'"),
     ('Settings', 3, 'bad setting', 'cell B3')]
    """
    # Each problem's (sheet, row) hashed: no pair is kept, and two on one row hash alike, so
    # a season with none (most) is seen at once; a clash of hashes only takes the long way.
    if len(set(map(hash, map(_SHEET_AND_ROW, problems)))) == len(problems):
        return list(problems)  # no two on one row: every problem is a line
    rows: dict[tuple[str, int], list[Problem]] = {}
    out: list[Problem | tuple[str, int]] = []
    for problem in problems:
        line = problem.row
        if not one_line_sheet(problem.sheet) or line is None or problem.what in SHEET_PROBLEMS:
            out.append(problem)
        elif (problem.sheet, line) in rows:
            rows[problem.sheet, line].append(problem)
        else:
            rows[problem.sheet, line] = [problem]
            out.append((problem.sheet, line))
    return [item if isinstance(item, Problem) else _one_line(rows[item]) for item in out]


def _one_line(problems: list[Problem]) -> Problem:
    """A row's first problem, with the others' words after its own (``"; also …"``); the
    problem itself when it is the row's only one (most rows: no copy made)."""
    first = problems[0]
    if len(problems) == 1:
        return first
    return first._replace(why="; also ".join([first.why, "; ".join(p.why for p in problems[1:])]))


def _unread_rows(problems: Sequence[Problem]) -> dict[tuple[str, int], str]:
    """Rows the reader could not turn into games, each under the first of the reader's
    reasons for it (they are excepted once each); a problem of the whole sheet is no row.
    In a union each league's Results rows are its own (:func:`results_sheet`)."""
    unread: dict[tuple[str, int], str] = {}
    for problem in problems:
        line = problem.row
        if (
            (problem.sheet == "Results" or problem.sheet.endswith(" Results"))
            and line is not None
            and problem.what not in SHEET_PROBLEMS
            and problem.what not in ROW_NOTES
        ):
            unread.setdefault((problem.sheet, line), problem.what)
    return unread
