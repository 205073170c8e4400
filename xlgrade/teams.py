"""Divisions' rules that use grades: board order, grade limits, team totals, playing down.

These are not national rules: each league's handbook sets its own (GRADING-RULES.md §13): "board
order with a tolerance (15, 20, 75, 100 points); per-player maximum; at most N players over a
grade; team total or average maximum, with a minimum counting grade, and values for ungraded
players and defaulted boards; the list used (fixed for eligibility, possibly live for board
order); registration — after N games for a higher team a player may not play for a lower one;
one team per division". A :class:`Division` holds one division's rules as the grader types them
(a blank is no such rule); the checks return each :class:`Breach` in words and numbers, for the
grader to rule on. The game is still graded as played: nothing here changes a grade.

The figure the rules use (the published grade, or the ECF rating) is an input: every check takes
each board's figure, ``None`` (or NaN in the array forms) for an ungraded player.

- :func:`team_breaches` checks one team's boards in one match; :func:`team_breaches_array` the
  same for every team of a division's season at once, the two side by side.
- :func:`team_total` is the counting total alone (the ``TEAM_TOTAL`` worksheet function).
- :func:`appearances` turns a season's result rows into the boards each team fielded, and
  :func:`season_breaches` checks them all, adding the season's rules (playing down, one team
  per division).

>>> southend = Division("Southend Minor", boards=4, max_total=440, max_grade=125,
...                     min_counting_grade=75)
>>> team_total(southend, boards_of([125, 120, 110, 74])).total
430.0
>>> [b.why for b in team_breaches(southend, boards_of([125, 125, 120, 80]))]
['the team counts 125 + 125 + 120 + 80 = 450, more than the maximum 440']
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
import math
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from xlgrade._rounding import quote
from xlgrade.errors import GradingError, ResultError, SettingError
from xlgrade.model import Game, Player
from xlgrade.results import parse_game_result
from xlgrade.season import SeasonResult, Table
from xlgrade.season.references import PlayerIndex

__all__ = [
    "BOARD_ORDER",
    "BREACH_HEADERS",
    "DIVISION_COLUMNS",
    "MAX_AVERAGE",
    "MAX_GRADE",
    "MAX_TOTAL",
    "NOT_CHECKED",
    "NO_BREACH",
    "NO_DIVISIONS",
    "ONE_TEAM",
    "PLAYERS_OVER",
    "PLAYING_DOWN",
    "RULES",
    "Appearances",
    "Board",
    "Breach",
    "Division",
    "DivisionColumn",
    "Team",
    "Total",
    "appearances",
    "board_order",
    "boards_of",
    "breach_rows",
    "division_cells",
    "figures",
    "league_breaches",
    "parse_match",
    "parse_team",
    "season_breaches",
    "team_breaches",
    "team_breaches_array",
    "team_total",
    "violations_table",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

BOARD_ORDER: Final = "board order"
"""Nottinghamshire: a player may not be "graded more than 20 points above anyone on a higher
board" (North Staffs 15, Dorset 75, Worcestershire and Northamptonshire 100)."""
MAX_GRADE: Final = "max grade"
"""Southend Minor: "no player over 125"; Sheffield 400 League 120; Somerset Division 3 145."""
PLAYERS_OVER: Final = "players over"
"""Somerset Division 2: "at most one player over 165"."""
MAX_TOTAL: Final = "max total"
"""Southend Minor: team total at most 440; Sheffield "400 League" 400; North Staffs 725 to 400."""
MAX_AVERAGE: Final = "max average"
"""Somerset Division 3: average at most 125."""
PLAYING_DOWN: Final = "playing down"
"""Nottinghamshire: "after 3 games … for a higher team a player may not play for a lower team"."""
ONE_TEAM: Final = "one team per division"
"""Croydon, North Staffs: a player plays for one team of a division."""
RULES: Final = (
    BOARD_ORDER,
    MAX_GRADE,
    PLAYERS_OVER,
    MAX_TOTAL,
    MAX_AVERAGE,
    PLAYING_DOWN,
    ONE_TEAM,
)
"""Every rule a breach may name, in the order a team's breaches are listed."""

BREACH_HEADERS: Final = ("Division", "Date", "Match", "Team", "Board", "Player", "Rule", "Why")
"""Columns of the Violations sheet and of ``xlgrade eligibility``."""

ColumnKind = Literal["text", "integer", "number", "yes/no"]


@dataclass(frozen=True, slots=True)
class DivisionColumn:
    """One column of the Divisions table (sheet or ``divisions.csv``).

    Attributes:
        header: the column's header.
        field: the :class:`Division` field it sets.
        kind: how its cells are read; a blank cell is no such rule.
        meaning: what it says, for the layout document and the template.
    """

    header: str
    field: str
    kind: ColumnKind
    meaning: str


DIVISION_COLUMNS: Final = (
    DivisionColumn("Division", "name", "text", "As in the Results' Division column."),
    DivisionColumn("Boards", "boards", "integer", "Boards a team plays."),
    DivisionColumn("Max grade", "max_grade", "number", "No player over this."),
    DivisionColumn("Max players over", "max_players_over", "integer", "At most this many …"),
    DivisionColumn("Over grade", "over_grade", "number", "… players over this."),
    DivisionColumn("Max total", "max_total", "number", "Team's counting total at most this."),
    DivisionColumn("Max average", "max_average", "number", "Team's counting average at most."),
    DivisionColumn("Min counting grade", "min_counting_grade", "number", "Lower grades count so."),
    DivisionColumn("Ungraded grade", "ungraded_grade", "number", "An ungraded player counts so."),
    DivisionColumn(
        "Default grade", "default_grade", "number", "A defaulted or missing board counts so."
    ),
    DivisionColumn(
        "Board order tolerance",
        "board_order_tolerance",
        "number",
        "No player more than this above anyone on a higher board.",
    ),
    DivisionColumn(
        "Games to fix to higher team",
        "games_to_fix",
        "integer",
        "After this many games for a higher team of his club, not for this lower one.",
    ),
    DivisionColumn(
        "One team per division", "one_team", "yes/no", "A player plays for one team of it."
    ),
)
"""The Divisions table's columns, in order; a blank cell is no such rule."""


@dataclass(frozen=True, slots=True)
class Division:
    """One division's rules, as the grader types them on the Divisions sheet. ``None`` (a blank
    cell) is no such rule.

    Attributes:
        name: the division, as the Results' Division column names it.
        boards: boards a team plays; with ``default_grade``, missing boards count as defaults.
        max_grade: no player's figure over this (Southend Minor 125).
        max_players_over: at most this many players over ``over_grade`` (Somerset Div 2: 1).
        over_grade: the figure ``max_players_over`` counts players over (Somerset Div 2: 165).
        max_total: the team's counting total at most this (Southend Minor 440).
        max_average: the team's counting average at most this (Somerset Div 3: 125).
        min_counting_grade: figures under this count as this (Southend Minor 75).
        ungraded_grade: an ungraded player counts as this (Sheffield 80); blank: as the
            minimum counting grade, else he is not counted.
        default_grade: a defaulted or missing board counts as this (Sheffield 80); blank: it is
            not counted and missing boards are not looked for.
        board_order_tolerance: no player more than this above anyone on a higher board
            (Nottinghamshire 20).
        games_to_fix: after this many games for a higher team of his club a player may not play
            for a lower team in this division (Nottinghamshire 3).
        one_team: a player plays for one team of this division (Croydon).
        row: the input row, for messages.
    """

    name: str
    boards: int | None = None
    max_grade: float | None = None
    max_players_over: int | None = None
    over_grade: float | None = None
    max_total: float | None = None
    max_average: float | None = None
    min_counting_grade: float | None = None
    ungraded_grade: float | None = None
    default_grade: float | None = None
    board_order_tolerance: float | None = None
    games_to_fix: int | None = None
    one_team: bool = False
    row: int | None = None

    def __post_init__(self) -> None:
        where = f"division {quote(self.name)}: " if self.name else ""
        for column in DIVISION_COLUMNS:
            value = getattr(self, column.field)
            if column.kind in ("number", "integer") and value is not None:
                if isinstance(value, bool) or not isinstance(value, int | float):
                    raise SettingError(f"{where}{column.header} {quote(value)} is not a number")
                if not math.isfinite(value) or value < 0:
                    raise SettingError(f"{where}{column.header} {quote(value)} is not 0 or more")
                if column.kind == "integer" and value != int(value):
                    raise SettingError(f"{where}{column.header} {quote(value)} is not whole")
        for field in ("boards", "games_to_fix"):
            if getattr(self, field) == 0:
                header = next(c.header for c in DIVISION_COLUMNS if c.field == field)
                raise SettingError(f"{where}{header} 0 is not 1 or more (blank: no such rule)")
        if (self.max_players_over is None) != (self.over_grade is None):
            raise SettingError(
                f"{where}'Max players over' and 'Over grade' go together: give both or neither"
            )


def division_cells(division: Division) -> tuple[object, ...]:
    """A division's row of the Divisions table, in :data:`DIVISION_COLUMNS` order: whole numbers
    as ``int``, ``yes`` for a rule that is on, ``None`` (a blank cell) for no such rule.

    >>> division_cells(Division("Minor", boards=4, max_total=440.0, one_team=True))
    ('Minor', 4, None, None, None, 440, None, None, None, None, None, None, 'yes')
    """
    out: list[object] = []
    for column in DIVISION_COLUMNS:
        value = getattr(division, column.field)
        if column.kind == "yes/no":
            out.append("yes" if value else None)
        elif isinstance(value, float) and value.is_integer():
            out.append(int(value))
        else:
            out.append(value)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Board:
    """One board of a team in one match.

    Attributes:
        number: the board number, 1 the top board.
        player: the player's name ("" where nobody played).
        figure: the figure the rules use (grade or rating); ``None`` for an ungraded player.
        defaulted: nobody played for the team on this board (a default, or a missing board).
        missing: the board is not in the results at all (counted as a default).
    """

    number: int
    player: str = ""
    figure: float | None = None
    defaulted: bool = False
    missing: bool = False


def boards_of(figures: Sequence[float | None]) -> tuple[Board, ...]:
    """Boards 1, 2, … with these figures (``None``: ungraded), unnamed: a captain's team sheet.

    >>> boards_of([125, None])
    (Board(number=1, player='', figure=125, defaulted=False, missing=False), Board(number=2, \
player='', figure=None, defaulted=False, missing=False))
    """
    return tuple(Board(number, "", figure) for number, figure in enumerate(figures, start=1))


@dataclass(frozen=True, slots=True)
class Breach:
    """One rule broken, for the grader to rule on: a line of the Violations sheet.

    Attributes:
        rule: one of :data:`RULES`.
        why: the rule and why, in numbers ("board 3, Kay (134) is more than 20 above Graham
            (112) on board 2").
        board: the board it concerns; ``None`` for a rule of the whole team.
        player: the player it concerns ("" for a rule of the whole team).
        division, date, match, team: where it happened.
        row: the input row of the board's game, for messages.
    """

    rule: str
    why: str
    board: int | None = None
    player: str = ""
    division: str = ""
    date: dt.date | None = None
    match: str = ""
    team: str = ""
    row: int | None = None


# --------------------------------------------------------------------------------------------
# Teams and matches


@dataclass(frozen=True, slots=True)
class Team:
    """A team as a match names it: ``Redmire Chess Club B`` is the club ``Redmire Chess Club``'s
    team ``B``.

    Attributes:
        name: as written, spaces tidied.
        club: the name without the team's letter or number.
        rank: 0 for the first team (``A`` or ``1``), 1 for the second…; ``None`` when the name
            ends in neither (the club's only team).
    """

    name: str
    club: str
    rank: int | None


_SUFFIX: Final = re.compile(r"(.*\S)\s+([A-Za-z]|\d{1,2})")
_VERSUS: Final = re.compile(r"\s+(?:v|vs)\.?\s+", re.IGNORECASE)


def parse_team(name: str) -> Team:
    """A team name read: the club and the team's place among the club's teams, from the name's
    last word, one letter or number ("the teams' names ending in a letter or number: A above B").

    >>> parse_team("Whinmoor Chess Club B")
    Team(name='Whinmoor Chess Club B', club='Whinmoor Chess Club', rank=1)
    >>> parse_team("Ulverdale 1").rank, parse_team("Ulverdale").rank
    (0, None)
    """
    tidy = " ".join(name.split())
    found = _SUFFIX.fullmatch(tidy)
    if found is None:
        return Team(tidy, tidy, None)
    club, suffix = found.groups()
    rank = int(suffix) - 1 if suffix.isdigit() else ord(suffix.upper()) - ord("A")
    return Team(tidy, club, rank)


def parse_match(text: str) -> tuple[Team, Team]:
    """The home and away teams of a Results ``Match`` cell, ``Home team v Away team``.

    >>> [t.name for t in parse_match("Ulverdale A v Whinmoor Chess Club B")]
    ['Ulverdale A', 'Whinmoor Chess Club B']

    Raises:
        GradingError: the text names no two teams, quoting it.
    """
    parts = _VERSUS.split(f" {text.strip()} ".replace("\n", " "))
    parts = [part.strip() for part in parts]
    if len(parts) != 2 or not all(parts):
        raise GradingError(f"match {quote(text)} is not 'Home team v Away team'")
    return parse_team(parts[0]), parse_team(parts[1])


# --------------------------------------------------------------------------------------------
# One team in one match


def _number(value: float) -> str:
    """A figure as a message shows it: whole numbers plain, others to two decimals at most."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0")


def _with_missing(division: Division, boards: Sequence[Board]) -> list[Board]:
    """The boards in order, with the division's missing boards added as defaults where the
    division gives a value for defaulted boards ("a match whose team has fewer games than boards
    counts the missing boards as defaults where the division says so")."""
    out = sorted(boards, key=lambda b: b.number)
    if division.boards is not None and division.default_grade is not None:
        present = {b.number for b in out}
        missing = [n for n in range(1, division.boards + 1) if n not in present]
        if missing:
            out = sorted(
                [*out, *(Board(n, defaulted=True, missing=True) for n in missing)],
                key=lambda b: b.number,
            )
    return out


def _counting(division: Division, board: Board) -> tuple[float | None, str]:
    """What a board counts in the team's total, and a note where it is not the player's own
    figure (``None``: not counted)."""
    if board.defaulted:
        what = "missing" if board.missing else "defaulted"
        if division.default_grade is None:
            return None, f"board {board.number} {what}, not counted"
        default = division.default_grade
        return default, f"board {board.number} {what} counts as {_number(default)}"
    if board.figure is None:
        ungraded = division.ungraded_grade
        if ungraded is None:
            ungraded = division.min_counting_grade
        if ungraded is None:
            return None, f"{_on_board(board)} not counted"
        return ungraded, f"{_on_board(board)} counts as {_number(ungraded)}"
    floor = division.min_counting_grade
    if floor is not None and board.figure < floor:
        return floor, f"{_on_board(board)} counts as {_number(floor)}"
    return float(board.figure), ""


@dataclass(frozen=True, slots=True)
class Total:
    """A team's counting total (:func:`team_total`).

    Attributes:
        total: the sum of the counted values.
        counted: how many boards count (the average's divisor).
        values: each board's counted value in board order, ``None`` where it does not count.
        notes: where a value is not the player's own figure, why ("Dixon 74 counts as 75").
    """

    total: float
    counted: int
    values: tuple[float | None, ...]
    notes: tuple[str, ...]

    @property
    def average(self) -> float:
        """The counting average, NaN when no board counts."""
        return self.total / self.counted if self.counted else math.nan

    def sum_text(self) -> str:
        """The sum written out: ``125 + 120 + 110 + 75 = 430``."""
        terms = " + ".join(_number(v) for v in self.values if v is not None) or "0"
        return f"{terms} = {_number(self.total)}"

    def notes_text(self) -> str:
        """The notes after a message: ``: board 4 (74) counts as 75``, or nothing."""
        return f": {'; '.join(self.notes)}" if self.notes else ""


def team_total(division: Division, boards: Sequence[Board]) -> Total:
    """The team's counting total: each player's figure, figures under the minimum counting grade
    as that grade, ungraded players and defaulted (or missing) boards at the division's values.

    Rules (GRADING-RULES.md §13, issue 15's handbooks): Southend Minor "grades under 75 count as
    75"; Sheffield 400 League "minimum counting 80, ungraded and defaulted boards count 80";
    North Staffs "defaults at the minimum". An ungraded player counts as the ``Ungraded grade``,
    else as the minimum counting grade, else not at all; a defaulted board as the ``Default
    grade``, else not at all (a decision: the handbooks say no more).

    >>> total = team_total(Division("Southend Minor", min_counting_grade=75),
    ...                    boards_of([125, 120, 110, 74]))
    >>> total.sum_text(), total.notes
    ('125 + 120 + 110 + 75 = 430', ('board 4 (74) counts as 75',))
    """
    values: list[float | None] = []
    notes: list[str] = []
    for board in _with_missing(division, boards):
        value, note = _counting(division, board)
        values.append(value)
        if note:
            notes.append(note)
    counted = [v for v in values if v is not None]
    return Total(float(sum(counted)), len(counted), tuple(values), tuple(notes))


def _on_board(board: Board) -> str:
    """``Kay (134) on board 3``, or ``board 3 (134)`` for a board with no name."""
    figure = "ungraded" if board.figure is None else _number(board.figure)
    if board.player:
        return f"{board.player} ({figure}) on board {board.number}"
    return f"board {board.number} ({figure})"


def _first(board: Board) -> str:
    """``board 3, Kay (134)``, or ``board 3 (134)`` for a board with no name."""
    figure = "ungraded" if board.figure is None else _number(board.figure)
    if board.player:
        return f"board {board.number}, {board.player} ({figure})"
    return f"board {board.number} ({figure})"


def _order_why(tolerance: float, low: Board, high: Board) -> str:
    return f"{_first(low)} is more than {_number(tolerance)} above {_on_board(high)}"


def _max_why(limit: float, board: Board) -> str:
    return f"{_first(board)} is over the maximum grade {_number(limit)}"


def _over_why(limit: int, over: float, boards: Sequence[Board]) -> str:
    listed = ", ".join(_on_board(b) for b in boards)
    players = "player is" if len(boards) == 1 else "players are"
    return f"{len(boards)} {players} over {_number(over)}: {listed}; at most {limit} may be"


def _total_why(limit: float, total: Total) -> str:
    return (
        f"the team counts {total.sum_text()}, more than the maximum {_number(limit)}"
        f"{total.notes_text()}"
    )


def _average_why(limit: float, total: Total) -> str:
    average = math.floor(total.average * 100 + 0.5) / 100 if total.counted else 0.0
    return (
        f"the team's average is {_number(total.total)} / {total.counted} = {_number(average)}, "
        f"more than the maximum {_number(limit)}{total.notes_text()}"
    )


def _played(board: Board) -> bool:
    return not board.defaulted and board.figure is not None


def board_order(tolerance: float, boards: Sequence[Board]) -> tuple[Breach | None, ...]:
    """For each board in order, the board-order breach or ``None``: a player may not be more
    than ``tolerance`` above anyone on a higher board. Each breach names the higher board's
    player with the lowest figure (the topmost of equals). Ungraded players and defaulted boards
    are not compared.

    Rule: Nottinghamshire, "not more than 20 above anyone on a higher board" (GRADING-RULES.md
    §13); exactly the tolerance above is not more than it.

    >>> [b and b.why for b in board_order(20, boards_of([140, 112, 134]))]
    [None, None, 'board 3 (134) is more than 20 above board 2 (112)']
    """
    ordered = sorted(boards, key=lambda b: b.number)
    out: list[Breach | None] = []
    lowest: Board | None = None
    for board in ordered:
        breach = None
        if _played(board) and lowest is not None:
            assert board.figure is not None
            assert lowest.figure is not None
            if board.figure - lowest.figure > tolerance and lowest.number < board.number:
                why = _order_why(tolerance, board, lowest)
                breach = Breach(BOARD_ORDER, why, board.number, board.player)
        out.append(breach)
        if _played(board) and (
            lowest is None or (board.figure is not None and board.figure < _figure(lowest))
        ):
            lowest = board
    return tuple(out)


def _figure(board: Board) -> float:
    assert board.figure is not None
    return board.figure


def team_breaches(division: Division, boards: Sequence[Board]) -> tuple[Breach, ...]:
    """Every rule of ``division`` one team's ``boards`` in one match break, in the order of
    :data:`RULES`: board order and maximum grade board by board, then the players over a grade,
    the total and the average of the whole team.

    Rules (GRADING-RULES.md §13): board order with a tolerance (:func:`board_order`); "no player
    over 125" (a figure equal to the maximum is not over it); "at most one player over 165";
    the team's counting total (:func:`team_total`) or its average at most the maximum. An
    ungraded player is checked for no maximum: he has no figure.

    >>> notts = Division("Nottinghamshire", board_order_tolerance=20)
    >>> team_breaches(notts, [Board(2, "Graham", 112), Board(3, "Kay", 134)])[0].why
    'board 3, Kay (134) is more than 20 above Graham (112) on board 2'
    """
    ordered = sorted(boards, key=lambda b: b.number)
    found: list[Breach] = []
    if division.board_order_tolerance is not None:
        found.extend(b for b in board_order(division.board_order_tolerance, ordered) if b)
    if division.max_grade is not None:
        limit = division.max_grade
        found.extend(
            Breach(MAX_GRADE, _max_why(limit, b), b.number, b.player)
            for b in ordered
            if _played(b) and _figure(b) > limit
        )
    if division.max_players_over is not None and division.over_grade is not None:
        over_grade = division.over_grade
        over = [b for b in ordered if _played(b) and _figure(b) > over_grade]
        if len(over) > division.max_players_over:
            why = _over_why(division.max_players_over, over_grade, over)
            found.append(Breach(PLAYERS_OVER, why))
    if division.max_total is not None or division.max_average is not None:
        total = team_total(division, ordered)
        if division.max_total is not None and total.total > division.max_total:
            found.append(Breach(MAX_TOTAL, _total_why(division.max_total, total)))
        if (
            division.max_average is not None
            and total.counted
            and total.average > division.max_average
        ):
            found.append(Breach(MAX_AVERAGE, _average_why(division.max_average, total)))
    return tuple(found)


# --------------------------------------------------------------------------------------------
# Every team of a division at once


def team_breaches_array(
    division: Division,
    team: npt.ArrayLike,
    number: npt.ArrayLike,
    figure: npt.ArrayLike,
    defaulted: npt.ArrayLike,
    players: Sequence[str] | None = None,
) -> list[tuple[int, Breach]]:
    """:func:`team_breaches` for many teams at once: board ``k`` is board ``number[k]`` of team
    ``team[k]`` (0, 1, …), played by ``players[k]`` with ``figure[k]`` (NaN: ungraded), or
    ``defaulted[k]``. Returns ``(team, breach)`` pairs, team by team and in each team in the
    order :func:`team_breaches` gives, which it equals for every team.

    The checks (counting values, totals, maxima, players over, the lowest higher board) are done
    on whole columns; only the breaches' messages are written one by one.
    """
    teams = np.asarray(team, dtype=np.int64).reshape(-1)
    numbers = np.asarray(number, dtype=np.int64).reshape(-1)
    figures = np.asarray(figure, dtype=np.float64).reshape(-1)
    absent = np.asarray(defaulted, dtype=np.bool_).reshape(-1)
    names = list(players) if players is not None else [""] * teams.size
    if not teams.size:
        return []
    count = int(teams.max()) + 1
    missing = np.zeros(teams.size, dtype=np.bool_)
    if division.boards is not None and division.default_grade is not None:
        # Boards 1..Boards that a team has no row for count as defaults.
        present = np.zeros((count, division.boards + 1), dtype=np.bool_)
        inside = numbers <= division.boards
        present[teams[inside], numbers[inside]] = True
        present[:, 0] = True
        present[np.setdiff1d(np.arange(count), teams), :] = True
        gap_team, gap_number = np.nonzero(~present)
        teams = np.concatenate([teams, gap_team])
        numbers = np.concatenate([numbers, gap_number])
        figures = np.concatenate([figures, np.full(gap_team.size, np.nan)])
        absent = np.concatenate([absent, np.ones(gap_team.size, dtype=np.bool_)])
        missing = np.concatenate([missing, np.ones(gap_team.size, dtype=np.bool_)])
        names += [""] * gap_team.size
    order = np.lexsort((numbers, teams))
    teams, numbers, missing = teams[order], numbers[order], missing[order]
    figures, absent = figures[order], absent[order]
    names = [names[k] for k in order.tolist()]
    played = ~absent & ~np.isnan(figures)
    starts = np.flatnonzero(np.r_[True, teams[1:] != teams[:-1]])
    found: list[tuple[int, int, int, Breach]] = []  # team, rule, position, breach

    def board(k: int) -> Board:
        shown = None if np.isnan(figures[k]) else float(figures[k])
        return Board(int(numbers[k]), names[k], shown, bool(absent[k]), bool(missing[k]))

    def members(t: int) -> list[int]:
        first = int(np.searchsorted(teams, t, side="left"))
        last = int(np.searchsorted(teams, t, side="right"))
        return list(range(first, last))

    if division.board_order_tolerance is not None and teams.size:
        tolerance = division.board_order_tolerance
        # The lowest figure on a higher board: a running minimum that restarts at each team,
        # made by lifting every earlier team's figures above any later team's.
        values = np.where(played, figures, np.inf)
        finite = values[np.isfinite(values)]
        span = float(finite.max() - finite.min()) + 1.0 if finite.size else 1.0
        lifted = values + (teams.max() - teams) * span
        running = np.minimum.accumulate(lifted)
        before = np.r_[np.inf, running[:-1]]
        before[starts] = np.inf
        lowest = before - (teams.max() - teams) * span
        # The higher board must be a strictly higher board number (equal numbers are not).
        for k in np.flatnonzero(played & (figures - lowest > tolerance)).tolist():
            group = members(int(teams[k]))
            higher = [
                j
                for j in group
                if j < k and played[j] and numbers[j] < numbers[k] and figures[j] == lowest[k]
            ]
            if higher:
                low, high = board(k), board(higher[0])
                why = _order_why(tolerance, low, high)
                found.append(
                    (int(teams[k]), 0, k, Breach(BOARD_ORDER, why, low.number, low.player))
                )
    if division.max_grade is not None:
        limit = division.max_grade
        for k in np.flatnonzero(played & (figures > limit)).tolist():
            b = board(k)
            found.append(
                (int(teams[k]), 1, k, Breach(MAX_GRADE, _max_why(limit, b), b.number, b.player))
            )
    if division.max_players_over is not None and division.over_grade is not None:
        over = played & (figures > division.over_grade)
        counts = np.bincount(teams[over], minlength=count)
        for t in np.flatnonzero(counts > division.max_players_over).tolist():
            boards = [board(k) for k in members(t) if over[k]]
            why = _over_why(division.max_players_over, division.over_grade, boards)
            found.append((t, 2, 0, Breach(PLAYERS_OVER, why)))
    if division.max_total is not None or division.max_average is not None:
        value = np.where(played, figures, np.nan)
        if division.min_counting_grade is not None:
            value = np.where(played, np.maximum(figures, division.min_counting_grade), np.nan)
        ungraded = division.ungraded_grade
        if ungraded is None:
            ungraded = division.min_counting_grade
        if ungraded is not None:
            value = np.where(~absent & np.isnan(figures), ungraded, value)
        if division.default_grade is not None:
            value = np.where(absent, division.default_grade, value)
        counted = ~np.isnan(value)
        totals = np.bincount(teams[counted], weights=value[counted], minlength=count)
        counts = np.bincount(teams[counted], minlength=count)
        over_total = np.zeros(count, dtype=np.bool_)
        over_average = np.zeros(count, dtype=np.bool_)
        if division.max_total is not None:
            over_total = totals > division.max_total
        if division.max_average is not None:
            with np.errstate(invalid="ignore", divide="ignore"):
                over_average = (counts > 0) & (totals / counts > division.max_average)
        for t in np.flatnonzero(over_total | over_average).tolist():
            total = team_total(division, [board(k) for k in members(t)])
            if over_total[t] and division.max_total is not None:
                found.append((t, 3, 0, Breach(MAX_TOTAL, _total_why(division.max_total, total))))
            if over_average[t] and division.max_average is not None:
                why = _average_why(division.max_average, total)
                found.append((t, 4, 0, Breach(MAX_AVERAGE, why)))
    found.sort(key=lambda entry: entry[:3])
    return [(t, breach) for t, _, _, breach in found]


# --------------------------------------------------------------------------------------------
# A season's teams

NOT_CHECKED: Final = "not checked"
"""The rule column of a Results row whose boards could not be checked, with the reason."""


@dataclass(frozen=True)
class Appearances:
    """A season's boards: one entry per side of each Results row, as columns.

    Attributes:
        division: the row's division, as typed.
        date: the row's date (``None`` if it has none).
        match: the row's match, as typed.
        team: the side's team (:func:`parse_match`).
        board: the board number, ``-1`` where the row gives none (boards then follow the rows).
        player: the player's index in the Players table, ``-1`` for nobody (a default).
        name: the player's name ("" for nobody).
        figure: the figure the rules use, NaN for an ungraded player.
        defaulted: nobody played for the team on this board.
        row: the Results row.
        unchecked: rows whose boards cannot be checked, as :data:`NOT_CHECKED` breaches with
            the reason.
    """

    division: tuple[str, ...]
    date: tuple[dt.date | None, ...]
    match: tuple[str, ...]
    team: tuple[Team, ...]
    board: IntArray
    player: IntArray
    name: tuple[str, ...]
    figure: FloatArray
    defaulted: BoolArray
    row: tuple[int | None, ...]
    unchecked: tuple[Breach, ...] = ()


def _side_defaulted(score: float | None, graded: bool, present: bool) -> bool:
    """Whether a side of a row defaulted: nobody named, or the score of a side that lost by
    default (``0-1 def``: the home side defaulted; ``0-0 def``: both)."""
    if not present:
        return True
    return not graded and score is not None and score == 0.0


def appearances(
    games: Sequence[Game],
    home: Sequence[int],
    away: Sequence[int],
    figures: Sequence[float | None],
    names: Sequence[str],
    divisions: Mapping[str, Division] | None = None,
    reasons: tuple[Mapping[int, str], Mapping[int, str]] = ({}, {}),
) -> Appearances:
    """The boards each team fielded, from the Results rows: the home player plays for the
    match's home team (``Home team v Away team``), the away player for the away team.

    ``home[r]``/``away[r]`` are row ``r``'s players' indices into ``figures`` (each player's
    figure, ``None`` if ungraded) and ``names``; ``-1`` where the cell names nobody known. A
    side with nobody named, or which lost by default (``0-1 def``), is a defaulted board. The
    same board of the same team in the same match entered again (both clubs send the card) is
    counted once. Only rows of ``divisions`` (all rows when ``None``) are taken; a row whose
    match names no two teams, or whose player is not on the Players table, is listed in
    :attr:`Appearances.unchecked` with the reason (``reasons[0][r]``, ``reasons[1][r]``: why row
    ``r``'s home or away player is not known, where the caller knows), never skipped in silence.
    """
    wanted = None if divisions is None else {_division_key(name) for name in divisions}
    teams_of: dict[str, tuple[Team, Team] | str] = {}
    results: dict[str, tuple[float | None, float | None, bool]] = {}
    kept: list[tuple[int, Team, int, bool]] = []  # row index, team, player, defaulted
    unchecked: list[Breach] = []
    seen: set[tuple[object, ...]] = set()
    for r, game in enumerate(games):
        if wanted is not None and _division_key(game.event) not in wanted:
            continue
        text = str(game.match or "")
        teams = teams_of.get(text)
        if teams is None:
            try:
                teams = teams_of[text] = parse_match(text)
            except GradingError as error:
                teams = teams_of[text] = str(error)
        if isinstance(teams, str):
            unchecked.append(_located(Breach(NOT_CHECKED, teams, game.board), game))
            continue
        result = results.get(game.result)
        if result is None:
            try:
                parsed = parse_game_result(game.result)
                result = (parsed.home, parsed.away, parsed.graded)
            except ResultError:
                result = (None, None, True)
            results[game.result] = result
        sides = (
            (teams[0], home[r], game.home, result[0], reasons[0]),
            (teams[1], away[r], game.away, result[1], reasons[1]),
        )
        for team, index, typed, score, unknown in sides:
            named = bool(str(typed or "").strip())
            if named and index < 0:
                reason = unknown.get(r, f"{quote(typed)} is not on the Players table")
                why = f"{reason}: the board is not checked"
                breach = Breach(NOT_CHECKED, why, game.board, str(typed), team=team.name)
                unchecked.append(_located(breach, game))
                continue
            key = (game.event, game.date, text, team.name, game.board, index)
            if game.board is not None and key in seen:
                continue
            seen.add(key)
            kept.append((r, team, index if named else -1, _side_defaulted(score, result[2], named)))
    rows = [games[r] for r, _, _, _ in kept]
    players = [p for _, _, p, _ in kept]
    return Appearances(
        division=tuple(g.event for g in rows),
        date=tuple(g.date for g in rows),
        match=tuple(str(g.match or "") for g in rows),
        team=tuple(t for _, t, _, _ in kept),
        board=np.array([-1 if g.board is None else g.board for g in rows], dtype=np.int64),
        player=np.array(players, dtype=np.int64),
        name=tuple(names[p] if p >= 0 else "" for p in players),
        figure=np.array(
            [math.nan if p < 0 or figures[p] is None else figures[p] for p in players],
            dtype=np.float64,
        ),
        defaulted=np.array([d for _, _, _, d in kept], dtype=np.bool_),
        row=tuple(g.row for g in rows),
        unchecked=tuple(unchecked),
    )


def _located(breach: Breach, game: Game) -> Breach:
    """``breach`` placed at ``game``'s division, date, match and row."""
    return dataclasses.replace(
        breach, division=game.event, date=game.date, match=str(game.match or ""), row=game.row
    )


def _division_key(name: object) -> str:
    """A division's name as compared: case and spacing ignored."""
    return " ".join(str(name or "").split()).casefold()


def season_breaches(divisions: Mapping[str, Division], boards: Appearances) -> list[Breach]:
    """Every rule of ``divisions`` (by name; case and spacing ignored) the season's ``boards``
    break, and the rows not checked, in date order; a match that breaks no rule gives nothing.

    Each team in each match is checked by :func:`team_breaches_array` (a team's boards are the
    rows of its division, date, match and side; rows without a board number take their places
    in row order). Then the season's rules, in date order, undated rows not counted:

    - **Playing down** (Nottinghamshire: "after 3 games on higher boards for a higher team a
      player may not play for a lower team"): a player who has played ``Games to fix`` games
      or more for higher teams of the club (``A`` above ``B``, ``1`` above ``2``), on earlier
      days, may not play for a lower team in this division.
    - **One team per division** (Croydon, North Staffs): a player who has played for one team
      of the division may not play for another.
    """
    by_key = {_division_key(name): division for name, division in divisions.items()}
    found: list[Breach] = list(boards.unchecked)
    keys = [_division_key(name) for name in boards.division]
    members: dict[str, list[int]] = defaultdict(list)
    for k, key in enumerate(keys):
        if key in by_key:
            members[key].append(k)
    for key, entries in members.items():
        division = by_key[key]
        groups: dict[tuple[object, ...], int] = {}
        group = np.empty(len(entries), dtype=np.int64)
        number = np.empty(len(entries), dtype=np.int64)
        filled: dict[int, int] = defaultdict(int)
        for position, k in enumerate(entries):
            team_key = (boards.date[k], boards.match[k], boards.team[k].name)
            g = groups.setdefault(team_key, len(groups))
            group[position] = g
            filled[g] += 1
            given = int(boards.board[k])
            number[position] = given if given > 0 else filled[g]
        first = {g: entries[p] for p, g in reversed(list(enumerate(group.tolist())))}
        at = {(int(group[p]), int(number[p])): entries[p] for p in range(len(entries))}
        chosen = np.array(entries, dtype=np.int64)
        for g, breach in team_breaches_array(
            division,
            group,
            number,
            boards.figure[chosen],
            boards.defaulted[chosen],
            [boards.name[k] for k in entries],
        ):
            k = first[g] if breach.board is None else at.get((g, breach.board), first[g])
            found.append(
                dataclasses.replace(
                    breach,
                    division=boards.division[k],
                    date=boards.date[k],
                    match=boards.match[k],
                    team=boards.team[k].name,
                    row=boards.row[k] if breach.board is not None else boards.row[first[g]],
                )
            )
    found.extend(_season_rules(by_key, keys, boards))
    return sorted(found, key=_breach_order)


def _breach_order(breach: Breach) -> tuple[object, ...]:
    rule = RULES.index(breach.rule) if breach.rule in RULES else -1
    return (
        breach.date or dt.date.max,
        _division_key(breach.division),
        breach.match,
        breach.team,
        breach.board if breach.board is not None else 10**9,
        rule,
        breach.row or 0,
    )


def _season_rules(
    by_key: Mapping[str, Division], keys: Sequence[str], boards: Appearances
) -> list[Breach]:
    """Playing down and one team per division, in date order (see :func:`season_breaches`)."""
    found: list[Breach] = []
    fixing = any(d.games_to_fix is not None for d in by_key.values())
    single = {key for key, d in by_key.items() if d.one_team}
    if not fixing and not single:
        return found
    played = [
        k
        for k in range(len(keys))
        if boards.player[k] >= 0 and not boards.defaulted[k] and boards.date[k] is not None
    ]
    played.sort(key=lambda k: (boards.date[k], boards.row[k] or 0, k))
    # Games so far of each player for each team of each club, counted at the day's end.
    history: dict[tuple[int, str], dict[str, tuple[int, int]]] = defaultdict(dict)
    first_team: dict[tuple[int, str], int] = {}
    for day, same_day in itertools.groupby(played, key=lambda k: boards.date[k]):
        assert day is not None
        today = list(same_day)
        for k in today:
            player = int(boards.player[k])
            team = boards.team[k]
            key = keys[k]
            limit = by_key[key].games_to_fix if key in by_key else None
            if limit is not None and team.rank is not None:
                higher = {
                    name: games
                    for name, (rank, games) in history[(player, team.club.casefold())].items()
                    if rank < team.rank
                }
                total = sum(higher.values())
                if total >= limit:
                    listed = ", ".join(f"{name} {n}" for name, n in sorted(higher.items()))
                    why = (
                        f"{boards.name[k]} had played {total} {_games(total)} for higher teams "
                        f"of {team.club} ({listed}) before {day.isoformat()}; after {limit} a "
                        "player may not play for a lower team"
                    )
                    found.append(_at(boards, k, PLAYING_DOWN, why))
            if key in single:
                earlier = first_team.setdefault((player, key), k)
                if boards.team[earlier].name != team.name:
                    first_day = boards.date[earlier]
                    assert first_day is not None
                    why = (
                        f"{boards.name[k]} played for {boards.team[earlier].name} in "
                        f"{boards.division[k]} on {first_day.isoformat()}; a player plays for "
                        "one team of the division"
                    )
                    found.append(_at(boards, k, ONE_TEAM, why))
        for k in today:
            _count(history, boards, k)
    return found


def _games(count: int) -> str:
    return "game" if count == 1 else "games"


def _count(
    history: dict[tuple[int, str], dict[str, tuple[int, int]]], boards: Appearances, k: int
) -> None:
    team = boards.team[k]
    if team.rank is None:
        return
    games = history[(int(boards.player[k]), team.club.casefold())]
    rank, count = games.get(team.name, (team.rank, 0))
    games[team.name] = (rank, count + 1)


def _at(boards: Appearances, k: int, rule: str, why: str) -> Breach:
    given = int(boards.board[k])
    return Breach(
        rule,
        why,
        given if given > 0 else None,
        boards.name[k],
        boards.division[k],
        boards.date[k],
        boards.match[k],
        boards.team[k].name,
        boards.row[k],
    )


def breach_rows(breaches: Sequence[Breach]) -> list[tuple[object, ...]]:
    """The breaches as rows of :data:`BREACH_HEADERS`: the Violations sheet and the listing."""
    return [
        (
            b.division,
            b.date.isoformat() if b.date else "",
            b.match,
            b.team,
            "" if b.board is None else b.board,
            b.player,
            b.rule,
            b.why,
        )
        for b in breaches
    ]


# --------------------------------------------------------------------------------------------
# A league's season


_FIGURE_FIELDS: Final = {"grade": "grade", "rating": "rating"}
"""The :class:`~xlgrade.model.Player` field holding each figure the rules may use (the setting
``Eligibility figure``, :data:`xlgrade.settings.ELIGIBILITY_FIGURES`)."""


def figures(players: Sequence[Player], figure: str = "grade") -> list[float | None]:
    """Each player's figure for the divisions' rules: his published grade at the start of the
    season (``"grade"``), or his ECF rating (``"rating"``); ``None`` where he has none.

    Rule: GRADING-RULES.md §13, "the list used (fixed for eligibility…)": the Players table's
    figures are the season's fixed list.
    """
    field = _FIGURE_FIELDS.get(figure)
    if field is None:
        raise SettingError(f"figure {quote(figure)} is not one of {', '.join(_FIGURE_FIELDS)}")
    out: list[float | None] = []
    for player in players:
        value = getattr(player, field, None)
        out.append(None if value is None else float(value))
    return out


def league_breaches(result: SeasonResult, divisions: Mapping[str, Division]) -> list[Breach]:
    """Every breach of ``divisions``' rules in the season ``result`` was graded from, and the
    rows that could not be checked (:func:`season_breaches`), with the figure its settings name
    (``Eligibility figure``). The games are all the Results rows as typed, graded or not: a
    breach is the grader's to rule on, and the game is still graded as played.
    """
    if not divisions:
        return []
    which = result.settings.eligibility_figure
    shown = figures(result.players, which)
    if result.players and all(f is None for f in shown):
        why = (
            f"no player has {'a grade' if which == 'grade' else 'an ECF rating'} on the Players "
            "table (the setting 'Eligibility figure' is "
            f"{quote(which)}): no rule that uses a figure can be checked"
        )
        return [Breach(NOT_CHECKED, why)]
    index = PlayerIndex(result.players)
    games = result.games
    home, home_fails = index.indices([str(g.home or "") for g in games])
    away, away_fails = index.indices([str(g.away or "") for g in games])
    boards = appearances(
        games,
        home.tolist(),
        away.tolist(),
        shown,
        [p.name for p in result.players],
        divisions,
        ({r: f.why for r, f in home_fails.items()}, {r: f.why for r, f in away_fails.items()}),
    )
    return season_breaches(divisions, boards)


NO_DIVISIONS: Final = "No division has rules: type them on the Divisions sheet."
"""The Violations sheet of a book whose Divisions sheet is empty."""
NO_BREACH: Final = "No rule of the Divisions sheet is broken."
"""The Violations sheet of a season that keeps every rule."""


def violations_table(divisions: Mapping[str, Division], breaches: Sequence[Breach]) -> Table:
    """The Violations sheet: one row per breach (:data:`BREACH_HEADERS`), or a note saying
    there is none, or that no division has rules."""
    if not divisions:
        return Table(("Note",), [(NO_DIVISIONS,)])
    if not breaches:
        return Table(("Note",), [(NO_BREACH,)])
    return Table(BREACH_HEADERS, breach_rows(breaches))
