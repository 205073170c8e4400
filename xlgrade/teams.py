"""Divisions' rules that use grades: board order, grade limits, team totals, playing down.

These are not national rules: each league's handbook sets its own (docs/rules.md §13): "board
order with a tolerance (15, 20, 75, 100 points); per-player maximum; at most N players over a
grade; team total or average maximum, with a minimum counting grade, and values for ungraded
players and defaulted boards; the list used (fixed for eligibility, possibly live for board
order); registration — after N games for a higher team a player may not play for a lower one;
one team per division". A :class:`Division` holds one division's rules as the grader types them
(a blank is no such rule); the checks return each :class:`Breach` in words and numbers, for the
grader to rule on. The game is still graded as played: nothing here changes a grade.

More kinds, read in seventeen handbooks (§13, issue 23): estimated grades for ungraded players;
registered players; playing down counted on certain boards, by division, or against the normal
team; exemptions by figure; a fixed list for eligibility and the live rating for board order;
rapid ratings falling back to standard then an estimate; junior allowances and adjacent boards
in board order; minimum and top-N averages, a FIDE cap and a limit on non-members' games.

The figure each rule uses is an input: every check takes each board's figure, ``None`` (or NaN
in the array forms) for a player with none, and where it came from (:attr:`Board.source`).
:func:`player_figures` makes them from the Players table, by a division's list of figures
(:func:`figure_list`, :data:`FIGURES`), each player's estimate last (:data:`ESTIMATES`).

- :func:`team_breaches` checks one team's boards in one match; :func:`team_breaches_array` the
  same for every team of a division's season at once, the two side by side.
- :func:`team_total` is the counting total alone (the ``TEAM_TOTAL`` worksheet function).
- :func:`appearances` turns a season's result rows into the boards each team fielded, and
  :func:`season_breaches` checks them all, adding the season's rules (playing down, the normal
  team, one team per division, registrations, non-members' games); teams are ranked in their
  clubs by :func:`rank_teams`. :func:`league_breaches` does it all for a recalculated season.

>>> southend = Division("Southend Minor", boards=4, max_total=440, max_grade=125,
...                     min_counting_grade=75)
>>> team_total(southend, boards_of([125, 120, 110, 74])).total
430.0
>>> [b.why for b in team_breaches(southend, boards_of([125, 125, 120, 80]))]
['the team counts 125 + 125 + 120 + 80 = 450, more than the maximum 440']
"""

from __future__ import annotations

import bisect
import dataclasses
import datetime as dt
import functools
import itertools
import math
import operator
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from xlgrade import cells, convert
from xlgrade._rounding import quote
from xlgrade.ecf import age_on
from xlgrade.ecf_rating import JUNIOR_UNDER
from xlgrade.editions import ListChoice, RatingHistory, edition_name, list_choice
from xlgrade.errors import GradingError, ResultError, SettingError
from xlgrade.model import Game, Player
from xlgrade.results import parse_game_result
from xlgrade.season import SeasonResult, Table

__all__ = [
    "BELOW_NORMAL",
    "BOARD_LIMIT",
    "BOARD_ORDER",
    "BREACH_HEADERS",
    "DIVISION_COLUMNS",
    "ESTIMATES",
    "FIGURES",
    "LEAGUE_REGISTERED",
    "MAX_AVERAGE",
    "MAX_FIDE",
    "MAX_GRADE",
    "MAX_TOTAL",
    "MIN_AVERAGE",
    "NON_MEMBER",
    "NOT_CHECKED",
    "NO_BREACH",
    "NO_DIVISIONS",
    "ONE_TEAM",
    "ONE_TEAM_ROUND",
    "PLAYERS_OVER",
    "PLAYING_DOWN",
    "P_RATINGS",
    "REGISTERED",
    "RESERVES",
    "RULES",
    "RULE_KINDS",
    "TOP_AVERAGE",
    "Appearances",
    "Board",
    "BoardLimit",
    "Breach",
    "Division",
    "DivisionColumn",
    "DivisionFigures",
    "Figure",
    "LineUp",
    "ListFigures",
    "OrderRule",
    "PlayerFigures",
    "RuleKind",
    "Team",
    "Total",
    "allocations",
    "appearances",
    "board_limits",
    "board_order",
    "boards_of",
    "breach_rows",
    "declared_order",
    "division_cells",
    "figure_list",
    "figures",
    "in_force",
    "league_breaches",
    "lineup_breaches",
    "parse_match",
    "parse_team",
    "player_figures",
    "rank_teams",
    "round_ends",
    "season_breaches",
    "team_breaches",
    "team_breaches_array",
    "team_total",
    "violations_table",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
IndexArray = npt.NDArray[np.intp]
"""Positions (teams, players, rows): numpy's index type, int32 on a 32-bit platform."""
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
BELOW_NORMAL: Final = "below normal team"
"""LMS: a player "cannot play two teams below their normal team"."""
MIN_AVERAGE: Final = "min average"
"""4NCL: a team's average at least a minimum."""
TOP_AVERAGE: Final = "top average"
"""4NCL: the top four boards' average at most a maximum."""
BOARD_LIMIT: Final = "board limit"
"""Worcestershire: board 1 open, "the remaining 3 players having ratings below 1850"."""
MAX_FIDE: Final = "max FIDE rating"
"""4NCL: no player's FIDE rating over a cap."""
NON_MEMBER: Final = "non-member games"
"""Croydon, North Staffs: games by players who are not ECF members are limited."""
RESERVES: Final = "reserve places"
"""Bournemouth & District: a team may use a "maximum of 10 Reserve Places"."""
ONE_TEAM_ROUND: Final = "one team a round"
"""Leicestershire cups: a player plays for one team in a round."""
LEAGUE_REGISTERED: Final = "league registration"
"""Cheltenham: a player is registered with the league before his first game."""
REGISTERED: Final = "registered player"
"""Sheffield, Bristol, Oxfordshire…: a registered (nominated, starred) player may not play for a
lower team, or in a lower division."""

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
    DivisionColumn(
        "Eligibility figure",
        "eligibility_figure",
        "text",
        "The figure the limits use, fallbacks after commas (blank: the setting).",
    ),
    DivisionColumn(
        "Board order figure",
        "board_order_figure",
        "text",
        "The figure board order uses (blank: the eligibility figure).",
    ),
    DivisionColumn(
        "P ratings", "p_ratings", "text", "count, estimate or ignore: how a P rating counts."
    ),
    DivisionColumn("Level", "level", "integer", "1 the top division, 2 the next…"),
    DivisionColumn(
        "Team order", "team_order", "text", "Teams highest first (Club: A, B; …), as declared."
    ),
    DivisionColumn(
        "Fix by games on top boards",
        "fix_top_boards",
        "integer",
        "Only games on the top this many boards fix a player.",
    ),
    DivisionColumn(
        "Fix by games above bottom boards",
        "fix_above_bottom",
        "integer",
        "Only games above the bottom this many boards fix a player.",
    ),
    DivisionColumn(
        "Playing down by division",
        "down_by_division",
        "yes/no",
        "Fixed and registered players may not play in a lower division (by Level).",
    ),
    DivisionColumn(
        "Teams below normal team",
        "max_below_normal",
        "integer",
        "Not more than this many teams below the team he plays most for.",
    ),
    DivisionColumn(
        "One team exemption margin",
        "one_team_margin",
        "number",
        "Exempt from one team per division: this far below the average limit.",
    ),
    DivisionColumn(
        "Board order higher by",
        "board_order_higher_by",
        "number",
        "No player this much or more above anyone on a higher board.",
    ),
    DivisionColumn(
        "Junior allowance",
        "junior_allowance",
        "number",
        "Board order allows this much more for each junior in the pair.",
    ),
    DivisionColumn(
        "Adjacent boards within",
        "adjacent_within",
        "number",
        "Adjacent boards this close or closer may be either way round.",
    ),
    DivisionColumn("Min average", "min_average", "number", "Team's counting average at least."),
    DivisionColumn("Top boards", "top_boards", "integer", "The top this many boards' average …"),
    DivisionColumn("Max top average", "max_top_average", "number", "… at most this."),
    DivisionColumn("Max FIDE rating", "max_fide", "number", "No player's FIDE rating over this."),
    DivisionColumn(
        "Max non-member games",
        "max_non_member_games",
        "integer",
        "A player who is not an ECF member plays at most this many games.",
    ),
    DivisionColumn(
        "Non-member pool",
        "non_member_pool",
        "text",
        "Divisions of one pool count a non-member's games together (blank: the division alone).",
    ),
    DivisionColumn(
        "Rating list",
        "rating_list",
        "text",
        "The limits' ratings from this list of the Ratings sheet: an edition (September 2025) "
        "or match date (blank: the Players table's).",
    ),
    DivisionColumn(
        "Board order list",
        "board_order_list",
        "text",
        "Board order's ratings from this list, as Rating list (blank: the Rating list).",
    ),
    DivisionColumn(
        "Max reserve places",
        "max_reserve_places",
        "integer",
        "A team's boards by players not registered to it, at most this many a season.",
    ),
    DivisionColumn(
        "League registration",
        "league_registration",
        "yes/no",
        "A player plays only from the day he is registered with the league (Players).",
    ),
    DivisionColumn(
        "One team a round",
        "one_team_round",
        "yes/no",
        "A player plays for one team in a round (a cup).",
    ),
    DivisionColumn(
        "Round ends",
        "round_ends",
        "text",
        "The day each round is to be played by, in order (blank: each match date a round).",
    ),
    DivisionColumn(
        "Board limits",
        "board_limits",
        "text",
        "Limits of some boards: 2-4 below 1850 (board 1 open); parts apart by ;.",
    ),
)
"""The Divisions table's columns, in order; a blank cell is no such rule."""

P_RATINGS: Final = ("count", "estimate", "ignore")
"""How a P (partial) rating counts (the Divisions column ``P ratings``): as any rating, as an
estimate (said so on a breach, and a player's own ``Estimated rating`` comes first), or not at
all (the next figure of the list is used). Dorset treats P ratings apart."""


@dataclass(frozen=True, slots=True)
class Figure:
    """One figure a rule may use: a Players column and the scale it is on.

    Attributes:
        name: as a Divisions cell names it.
        field: the :class:`~xlgrade.model.Player` field.
        scale: ``"grade"`` or ``"rating"``; a list of fallbacks keeps to one scale.
        label: as a breach names it.
        category: the field of the figure's category (P: partial), if it has one.
        converted: the field is a grade, converted to a rating (the ECF's 2020 seeding, 7.5 ×
            grade + 700: :func:`xlgrade.convert.grade_to_ecf_rating`).
    """

    name: str
    field: str
    scale: str
    label: str
    category: str | None = None
    converted: bool = False


FIGURES: Final = (
    Figure("grade", "grade", "grade", "grade"),
    Figure("rating", "rating", "rating", "ECF rating", "rating_category"),
    Figure("rapid rating", "rapid_rating", "rating", "ECF rapid rating", "rapid_category"),
    Figure("latest rating", "latest_rating", "rating", "latest ECF rating"),
    Figure("converted grade", "grade", "rating", "grade as a rating", converted=True),
)
"""The figures a division's rules may use (``Eligibility figure``, ``Board order figure``):
``grade`` the published grade at the start of the season (Players ``Grade``), ``rating`` the
ECF rating of the season's fixed list (``ECF rating``, the list of the month the grader took
it from: Croydon's September list), ``rapid rating`` the rapidplay one (``ECF rapid rating``),
``latest rating`` the live rating (``Latest ECF rating``), ``converted grade`` the grade as a
rating, 7.5 × grade + 700 (Worcestershire: a rating, else "a converted grade" where "no current
rating is available", then an estimate)."""
ESTIMATES: Final = {
    "grade": Figure("estimate", "estimated_grade", "grade", "estimated grade"),
    "rating": Figure("estimate", "estimated_rating", "rating", "estimated rating"),
}
"""The estimate each scale falls back to last, per player (Players ``Estimated grade`` or
``Estimated rating``), before the division's value for an ungraded player."""
_FIGURE_NAMES: Final = {
    **{figure.name: figure.name for figure in FIGURES},
    "standard rating": "rating",
    "standard": "rating",
    "ecf rating": "rating",
    "rapid": "rapid rating",
    "ecf rapid rating": "rapid rating",
    "latest": "latest rating",
    "live rating": "latest rating",
    "latest ecf rating": "latest rating",
    "grade converted": "converted grade",
    "grade as a rating": "converted grade",
    "converted": "converted grade",
}


def figure_list(text: str) -> tuple[Figure, ...]:
    """The figures a Divisions cell names, first choice first (``rapid rating, rating``: the
    rapid rating, else the standard one), on one scale; ``estimate`` may end the list (it ends
    every list anyway: :data:`ESTIMATES`).

    >>> [f.name for f in figure_list("Rapid rating, standard rating, estimate")]
    ['rapid rating', 'rating']

    Raises:
        SettingError: a figure not known, or a list mixing grades and ratings, quoting it.
    """
    names = [" ".join(part.split()).casefold() for part in re.split(r"[,;]|\bthen\b", text)]
    names = [name for name in names if name]
    if names and names[-1] == "estimate":
        names.pop()
    known = {figure.name: figure for figure in FIGURES}
    out: list[Figure] = []
    for name in names:
        if name not in _FIGURE_NAMES:
            choices = ", ".join(figure.name for figure in FIGURES)
            raise SettingError(
                f"figure {quote(name)} of {quote(text)} is not one of {choices} (or estimate, last)"
            )
        out.append(known[_FIGURE_NAMES[name]])
    if not out:
        raise SettingError(f"{quote(text)} names no figure")
    if len({figure.scale for figure in out}) > 1:
        raise SettingError(
            f"{quote(text)} mixes grades and ratings: a list of figures keeps to one scale "
            "('converted grade' is a grade as a rating, 7.5 × grade + 700)"
        )
    return tuple(out)


def round_ends(text: str) -> tuple[dt.date, ...]:
    """The days a ``Round ends`` cell gives, apart by ``,`` or ``;``, in order: round 1 is to
    be played by the first, round 2 by the second…

    >>> round_ends("31/10/2025; 2025-12-15")
    (datetime.date(2025, 10, 31), datetime.date(2025, 12, 15))

    Raises:
        SettingError: a day not read, or days out of order, quoting it.
    """
    out: list[dt.date] = []
    for part in (p.strip() for p in re.split(r"[,;]", text)):
        if not part:
            continue
        try:
            day = cells.date(part)
        except GradingError as error:
            raise SettingError(f"round end {error}") from None
        assert day is not None
        if out and day <= out[-1]:
            raise SettingError(f"round ends {quote(text)} are not in order")
        out.append(day)
    if not out:
        raise SettingError(f"{quote(text)} names no round's end")
    return tuple(out)


def _round_of(division: Division, day: dt.date) -> tuple[object, str]:
    """The round of a match on ``day`` and its words: the first round not ended (``Round
    ends``; after the last, a round of its own), else the day itself."""
    if division.round_ends is None:
        return day, f"the round of {day.isoformat()}"
    ends = round_ends(division.round_ends)
    number = bisect.bisect_left(ends, day) + 1
    if number > len(ends):
        return number, f"the round after {ends[-1].isoformat()}"
    return number, f"round {number} (to {ends[number - 1].isoformat()})"


@dataclass(frozen=True, slots=True)
class BoardLimit:
    """A limit of some boards: a player on boards ``first`` to ``last`` (``None``: every board
    from ``first``) has a figure below ``limit`` (``below``) or at most it."""

    first: int
    last: int | None
    limit: float
    below: bool

    def covers(self, number: int) -> bool:
        """Whether board ``number`` is one of the limit's boards."""
        return number >= self.first and (self.last is None or number <= self.last)

    def breaks(self, figure: float) -> bool:
        """Whether ``figure`` breaks the limit."""
        return figure >= self.limit if self.below else figure > self.limit

    @property
    def boards_text(self) -> str:
        """``boards 2-4``, ``board 1``, ``boards 2 on``."""
        if self.last is None:
            return f"boards {self.first} on"
        if self.last == self.first:
            return f"board {self.first}"
        return f"boards {self.first}-{self.last}"


_BOARD_LIMIT: Final = re.compile(
    r"(?:boards?\s+)?(\d+)\s*(?:(?:-|to|–)\s*(\d+)|(\+|on|and\s+below))?\s+"
    r"(below|under|at\s+most|not\s+over|max(?:imum)?)\s+(\d+(?:\.\d+)?)",
    re.IGNORECASE,
)


def board_limits(text: str) -> tuple[BoardLimit, ...]:
    """The limits a ``Board limits`` cell gives, parts apart by ``;``: ``2-4 below 1850`` (a
    figure under 1850 on boards 2 to 4), ``2+ below 1850`` (board 2 and every one below it),
    ``5 at most 1700`` (1700 allowed). Boards not named are open.

    >>> board_limits("2-4 below 1850")
    (BoardLimit(first=2, last=4, limit=1850.0, below=True),)

    Raises:
        SettingError: a part not of that form, or boards the wrong way round, quoting it.
    """
    out: list[BoardLimit] = []
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        found = _BOARD_LIMIT.fullmatch(" ".join(part.split()))
        if found is None:
            raise SettingError(
                f"board limit {quote(part)} is not of the form '2-4 below 1850' or '5 at most 1700'"
            )
        first = int(found[1])
        last = None if found[3] else int(found[2] or found[1])
        if first < 1 or (last is not None and last < first):
            raise SettingError(f"board limit {quote(part)}: the boards are not 1 or more, in order")
        below = found[4].casefold() in ("below", "under")
        out.append(BoardLimit(first, last, float(found[5]), below))
    if not out:
        raise SettingError(f"{quote(text)} names no board limit")
    return tuple(out)


@dataclass(frozen=True, slots=True)
class OrderRule:
    """A board-order rule: a player may not be more than ``limit`` above anyone on a higher
    board (``at_least``: ``limit`` or more, the handbook's "not above a player N points
    higher"), ``junior_allowance`` more for each junior in the pair, and adjacent boards
    ``adjacent`` or less apart may be either way round."""

    limit: float
    at_least: bool = False
    junior_allowance: float = 0.0
    adjacent: float | None = None


@dataclass(frozen=True, slots=True)
class Division:
    """One division's rules, as the grader types them on the Divisions sheet. ``None`` (a blank
    cell) is no such rule.

    Attributes:
        name: the division, as the Results' Division column names it.
        boards: boards a team plays; with ``default_grade``, missing boards count as defaults.
        max_grade: no player's figure over this (Southend Minor 125).
        max_players_over: at most this many players over ``over_grade`` (Somerset Div 2: 1).
        board_limits: limits of some boards (:func:`board_limits`): Worcestershire's board 1
            open and "the remaining 3 players having ratings below 1850", ``2-4 below 1850``.
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
        eligibility_figure: the figure the limits (all but board order) use, with fallbacks
            (:func:`figure_list`); ``None``: the setting ``Eligibility figure``.
        board_order_figure: the figure board order uses; ``None``: the eligibility figure.
        p_ratings: how a P rating counts (:data:`P_RATINGS`); ``None``: as any rating.
        level: the division's place, 1 the top (for playing down by division).
        team_order: teams declared highest first (``Club: Team 1, Team 2; …``): their ranking
            where the names do not give it (Northumbria).
        fix_top_boards: only games on the top this many boards of a higher team fix a player
            (Sheffield 2).
        fix_above_bottom: only games above the bottom this many boards the team played or
            won by default in that match fix a player (Nottinghamshire C4: 2).
        down_by_division: a fixed or registered player may not play in a lower division (by
            ``level``); a lower team of his club in the same division is allowed (Sheffield).
        max_below_normal: a player may play not more than this many teams below his normal
            team, the team of his club he has played most for (LMS: 1).
        one_team_margin: a player whose figure is this far or more below the division's
            average limit (``max_average``, else ``max_total`` / ``boards``) is exempt from one
            team per division (North Staffs 10).
        board_order_higher_by: board order worded "not above a player N points higher": a
            player N or more above anyone on a higher board breaks it (North Staffs 15);
            ``board_order_tolerance`` is the "more than N" wording. One or the other.
        junior_allowance: board order allows this much more for each junior in the pair
            (Northamptonshire: "up to 100 points for each junior in the pair").
        adjacent_within: adjacent boards this close or closer may be either way round
            (Shropshire 10).
        min_average: the team's counting average at least this (4NCL).
        top_boards: with ``max_top_average``, the top this many boards' counting average at
            most that (4NCL's top four).
        max_top_average: see ``top_boards``.
        max_fide: no player's FIDE rating over this (4NCL's FIDE cap).
        max_non_member_games: a player whom the Players' ``ECF member`` says is not a member
            plays at most this many games in the division (Croydon, North Staffs).
        non_member_pool: divisions naming the same pool count a non-member's games together
            (Croydon: "up to three games in the main divisions, or six games in the Rapidplay
            Division": its main divisions one pool, the rapid one alone); ``None``: the
            division counts its own.
        max_reserve_places: a team uses at most this many reserve places in the season, a
            board played for it by a player not registered to it that day (Players
            ``Registered team``; Bournemouth: "maximum of 10 Reserve Places").
        league_registration: a player plays in the division only from the day he is
            registered with the league (Players ``League registered``; Cheltenham).
        one_team_round: a player plays for one team in a round of this division (a cup:
            Leicestershire).
        round_ends: the day each round is to be played by, in order (:func:`round_ends`): a
            match is in the first round not yet ended on its date; ``None``: each match date
            is a round.
        rating_list: the edition of the rating list (the Ratings sheet) the limits' ratings
            are taken from: a month (Croydon's "the September list"), or ``match date``, the
            list in force on the match's date (:func:`xlgrade.editions.list_choice`);
            ``None``: the Players table's ratings.
        board_order_list: the same for board order (Croydon: "the live monthly rating used
            to determine board order"); ``None``: ``rating_list``.
        row: the input row, for messages.
    """

    name: str
    boards: int | None = None
    max_grade: float | None = None
    max_players_over: int | None = None
    board_limits: str | None = None
    over_grade: float | None = None
    max_total: float | None = None
    max_average: float | None = None
    min_counting_grade: float | None = None
    ungraded_grade: float | None = None
    default_grade: float | None = None
    board_order_tolerance: float | None = None
    games_to_fix: int | None = None
    one_team: bool = False
    eligibility_figure: str | None = None
    board_order_figure: str | None = None
    p_ratings: str | None = None
    level: int | None = None
    team_order: str | None = None
    fix_top_boards: int | None = None
    fix_above_bottom: int | None = None
    down_by_division: bool = False
    max_below_normal: int | None = None
    one_team_margin: float | None = None
    board_order_higher_by: float | None = None
    junior_allowance: float | None = None
    adjacent_within: float | None = None
    min_average: float | None = None
    top_boards: int | None = None
    max_top_average: float | None = None
    max_fide: float | None = None
    max_non_member_games: int | None = None
    non_member_pool: str | None = None
    max_reserve_places: int | None = None
    league_registration: bool = False
    one_team_round: bool = False
    round_ends: str | None = None
    rating_list: str | None = None
    board_order_list: str | None = None
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
        for field in ("boards", "games_to_fix", "level", "fix_top_boards", "top_boards"):
            if getattr(self, field) == 0:
                header = next(c.header for c in DIVISION_COLUMNS if c.field == field)
                raise SettingError(f"{where}{header} 0 is not 1 or more (blank: no such rule)")
        if (self.max_players_over is None) != (self.over_grade is None):
            raise SettingError(
                f"{where}'Max players over' and 'Over grade' go together: give both or neither"
            )
        try:
            for text in (self.eligibility_figure, self.board_order_figure):
                if text is not None:
                    figure_list(text)
            if self.team_order is not None:
                declared_order(self.team_order)
            for text in (self.rating_list, self.board_order_list):
                if text is not None:
                    list_choice(text)
            if self.board_limits is not None:
                board_limits(self.board_limits)
            if self.round_ends is not None:
                round_ends(self.round_ends)
        except SettingError as error:
            raise SettingError(f"{where}{error}") from None
        if self.p_ratings is not None and self.p_ratings.strip().casefold() not in P_RATINGS:
            raise SettingError(
                f"{where}P ratings {quote(self.p_ratings)} is not one of {', '.join(P_RATINGS)}"
            )
        if self.board_order_tolerance is not None and self.board_order_higher_by is not None:
            raise SettingError(
                f"{where}'Board order tolerance' (more than N) and 'Board order higher by' (N or "
                "more) say one rule two ways: give one"
            )
        ordered = self.board_order_tolerance is not None or self.board_order_higher_by is not None
        for field, header in (
            ("junior_allowance", "Junior allowance"),
            ("adjacent_within", "Adjacent boards within"),
        ):
            if getattr(self, field) is not None and not ordered:
                raise SettingError(
                    f"{where}{header!r} needs 'Board order tolerance' or 'Board order higher by' "
                    "(strict order: a tolerance of 0)"
                )
        if (self.top_boards is None) != (self.max_top_average is None):
            raise SettingError(
                f"{where}'Top boards' and 'Max top average' go together: give both or neither"
            )
        if self.one_team_margin is not None and self.average_limit is None:
            raise SettingError(
                f"{where}'One team exemption margin' needs an average limit: 'Max average', or "
                "'Max total' and 'Boards'"
            )

    @property
    def order_rule(self) -> OrderRule | None:
        """The division's board-order rule (``None``: board order is not checked)."""
        at_least = self.board_order_higher_by is not None
        limit = self.board_order_higher_by if at_least else self.board_order_tolerance
        if limit is None:
            return None
        return OrderRule(limit, at_least, self.junior_allowance or 0.0, self.adjacent_within)

    @property
    def average_limit(self) -> float | None:
        """The division's average limit: ``Max average``, else ``Max total`` / ``Boards``."""
        if self.max_average is not None:
            return self.max_average
        if self.max_total is not None and self.boards is not None:
            return self.max_total / self.boards
        return None

    def figures(self, default: str = "grade") -> tuple[Figure, ...]:
        """The figures the limits use, first choice first (``default``: the setting)."""
        return figure_list(self.eligibility_figure or default)

    def order_figures(self, default: str = "grade") -> tuple[Figure, ...]:
        """The figures board order uses, first choice first."""
        return figure_list(self.board_order_figure or self.eligibility_figure or default)

    @property
    def lists(self) -> tuple[ListChoice | None, ListChoice | None]:
        """The editions the limits and board order take their ratings from
        (:func:`xlgrade.editions.list_choice`; ``None``: the Players table's)."""
        limits = None if self.rating_list is None else list_choice(self.rating_list)
        if self.board_order_list is None:
            return limits, limits
        return limits, list_choice(self.board_order_list)


def division_cells(division: Division) -> tuple[object, ...]:
    """A division's row of the Divisions table, in :data:`DIVISION_COLUMNS` order: whole numbers
    as ``int``, ``yes`` for a rule that is on, ``None`` (a blank cell) for no such rule.

    >>> division_cells(Division("Minor", boards=4, max_total=440.0, one_team=True))[:13]
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
        source: where the figure came from when it is not the rule's first choice ("estimated
            grade", "ECF rating" for a rapid limit's fallback); "" when it is.
        junior: the player is a junior (board order's junior allowance).
        fide: the player's FIDE rating (the FIDE cap); ``None`` where he has none.
    """

    number: int
    player: str = ""
    figure: float | None = None
    defaulted: bool = False
    missing: bool = False
    source: str = ""
    junior: bool = False
    fide: float | None = None


def boards_of(figures: Sequence[float | None]) -> tuple[Board, ...]:
    """Boards 1, 2, … with these figures (``None``: ungraded), unnamed: a captain's team sheet.

    >>> boards_of([125, None])[1]
    Board(number=2, player='', figure=None, defaulted=False, missing=False, source='', \
junior=False, fide=None)
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
        rank: 0 for the first team (``A``, ``1`` or ``I``), 1 for the second…; ``None`` when the
            name ends in none of these (the club's only team) and no order is declared.
        suffix: the letter, number or Roman numeral the name ends in ("" for none).
    """

    name: str
    club: str
    rank: int | None
    suffix: str = ""


_SUFFIX: Final = re.compile(r"(.*\S)\s+([A-Za-z]|\d{1,2}|[IVXivx]{2,5})")
_VERSUS: Final = re.compile(r"\s+(?:v|vs)\.?\s+", re.IGNORECASE)
_ROMAN: Final = {
    numeral: value
    for value, numeral in enumerate(
        [
            "I",
            "II",
            "III",
            "IV",
            "V",
            "VI",
            "VII",
            "VIII",
            "IX",
            "X",
            "XI",
            "XII",
            "XIII",
            "XIV",
            "XV",
            "XVI",
            "XVII",
            "XVIII",
            "XIX",
            "XX",
        ],
        1,
    )
}


def parse_team(name: str) -> Team:
    """A team name read: the club and the team's place among the club's teams, from the name's
    last word, one letter, a number or a Roman numeral of two letters or more ("the teams'
    names ending in a letter or number: A above B"). A single ``I``, ``V`` or ``X`` reads as a
    letter here; :func:`rank_teams` reads it as a numeral where the club's teams are numbered so
    ("Cowley I" above "Cowley II", not the ninth team).

    >>> parse_team("Whinmoor Chess Club B")
    Team(name='Whinmoor Chess Club B', club='Whinmoor Chess Club', rank=1, suffix='B')
    >>> parse_team("Ulverdale 1").rank, parse_team("Ulverdale").rank, parse_team("Cowley III").rank
    (0, None, 2)
    """
    tidy = " ".join(name.split())
    found = _SUFFIX.fullmatch(tidy)
    if found is None:
        return Team(tidy, tidy, None)
    club, suffix = found.groups()
    if suffix.isdigit():
        rank = int(suffix) - 1
    elif len(suffix) == 1:
        rank = ord(suffix.upper()) - ord("A")
    elif suffix.upper() in _ROMAN:
        rank = _ROMAN[suffix.upper()] - 1
    else:
        return Team(tidy, tidy, None)
    return Team(tidy, club, rank, suffix)


def declared_order(text: str) -> list[tuple[str, list[str]]]:
    """The teams a ``Team order`` cell declares, club by club, highest first: clubs apart by
    ``;``, teams by ``,``, the club's name and ``:`` before its teams if wished (``Gosforth:
    Gosforth Pegasus, Gosforth Phoenix``; without it, the club the first team's name gives).

    >>> declared_order("Gosforth: Gosforth Pegasus, Gosforth Phoenix; Cowley 2, Cowley 1")
    [('Gosforth', ['Gosforth Pegasus', 'Gosforth Phoenix']), ('Cowley', ['Cowley 2', 'Cowley 1'])]

    Raises:
        SettingError: a group naming no team, or one team twice, quoting it.
    """
    out: list[tuple[str, list[str]]] = []
    seen: set[str] = set()
    for group in text.split(";"):
        if not group.strip():
            continue
        club, _, teams = group.rpartition(":")
        names = [" ".join(name.split()) for name in teams.split(",")]
        names = [name for name in names if name]
        if not names:
            raise SettingError(f"team order {quote(group.strip())} names no team")
        for name in names:
            if name.casefold() in seen:
                raise SettingError(f"team order names {quote(name)} twice")
            seen.add(name.casefold())
        out.append((" ".join(club.split()) or parse_team(names[0]).club, names))
    return out


def rank_teams(teams: Sequence[Team], declared: Sequence[str] = ()) -> dict[str, Team]:
    """Each team (by name, case ignored) with its club and rank among the club's teams: by the
    order ``Team order`` cells declare (``declared``, top division first), else by the name's
    letter, number or numeral.

    Rules: teams ranked "by a declared order where the Divisions give one, else by name (A/B,
    1/2, I/II/III)" (issue 23; Northumbria lets clubs declare their teams' ranking). A declared
    club's teams rank in the order written, above its teams not declared (a decision), which
    keep their names' order. A club whose suffixed teams all end in Roman numerals (I, II, …) is
    numbered so, a single ``I`` its first team.

    >>> ranks = rank_teams([parse_team("Cowley I"), parse_team("Cowley II")])
    >>> ranks["cowley i"].rank, ranks["cowley ii"].rank
    (0, 1)
    >>> ranks = rank_teams([parse_team("Forest Hall"), parse_team("Forest Hall B")],
    ...                    ["Forest Hall: Forest Hall B, Forest Hall"])
    >>> ranks["forest hall"].rank, ranks["forest hall b"].rank
    (1, 0)
    """
    groups = [group for text in declared for group in declared_order(text)]
    listed = {name.casefold() for _, names in groups for name in names}
    by_club: dict[str, list[Team]] = defaultdict(list)
    for team in teams:
        if team.name.casefold() not in listed:
            by_club[team.club.casefold()].append(team)
    out: dict[str, Team] = {}
    for club, names in groups:
        for place, name in enumerate(names):
            out[name.casefold()] = Team(name, club, place, parse_team(name).suffix)
        below = len(names)
        parsed = {parse_team(name).club.casefold() for name in names} | {club.casefold()}
        for key in parsed:
            for team in by_club.pop(key, []):
                rank = None if team.rank is None else below + team.rank
                out[team.name.casefold()] = dataclasses.replace(team, club=club, rank=rank)
    for members in by_club.values():
        suffixed = [t for t in members if t.suffix]
        roman = bool(suffixed) and all(t.suffix.upper() in _ROMAN for t in suffixed)
        for team in members:
            if roman and team.suffix:
                team = dataclasses.replace(team, rank=_ROMAN[team.suffix.upper()] - 1)
            out[team.name.casefold()] = team
    return out


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


@functools.lru_cache(maxsize=8192)
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


def _shown_text(figure: float | None, source: str) -> str:
    """A figure as a breach shows it: ``134``, ``134, estimated grade`` where it is not the
    rule's first choice, ``ungraded``."""
    if figure is None or figure != figure:
        return "ungraded"
    return f"{_number(figure)}, {source}" if source else _number(figure)


def _on_text(number: int, player: str, shown: str) -> str:
    """``Kay (134) on board 3``, or ``board 3 (134)`` for a board with no name."""
    if player:
        return f"{player} ({shown}) on board {number}"
    return f"board {number} ({shown})"


def _first_text(number: int, player: str, shown: str) -> str:
    """``board 3, Kay (134)``, or ``board 3 (134)`` for a board with no name."""
    if player:
        return f"board {number}, {player} ({shown})"
    return f"board {number} ({shown})"


def _shown(board: Board) -> str:
    return _shown_text(board.figure, board.source)


def _on_board(board: Board) -> str:
    return _on_text(board.number, board.player, _shown(board))


def _first(board: Board) -> str:
    return _first_text(board.number, board.player, _shown(board))


def _count_value(
    division: Division,
    number: int,
    player: str,
    figure: float | None,
    source: str,
    defaulted: bool,
    missing: bool,
) -> tuple[float | None, str]:
    """What a board counts in the team's total, and a note where it is not the player's own
    first-choice figure (``None``: not counted); ``figure`` ``None`` or NaN: ungraded."""
    if defaulted:
        what = "missing" if missing else "defaulted"
        if division.default_grade is None:
            return None, f"board {number} {what}, not counted"
        default = division.default_grade
        return default, f"board {number} {what} counts as {_number(default)}"
    if figure is None or figure != figure:
        ungraded = division.ungraded_grade
        if ungraded is None:
            ungraded = division.min_counting_grade
        shown = _on_text(number, player, "ungraded")
        if ungraded is None:
            return None, f"{shown} not counted"
        return ungraded, f"{shown} counts as {_number(ungraded)}"
    floor = division.min_counting_grade
    if floor is not None and figure < floor:
        return (
            floor,
            f"{_on_text(number, player, _shown_text(figure, source))} counts as {_number(floor)}",
        )
    return float(figure), _on_text(number, player, _shown_text(figure, source)) if source else ""


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


def _total(values: Sequence[float | None], notes: Sequence[str]) -> Total:
    counted = [v for v in values if v is not None]
    return Total(float(sum(counted)), len(counted), tuple(values), tuple(n for n in notes if n))


def team_total(division: Division, boards: Sequence[Board]) -> Total:
    """The team's counting total: each player's figure, figures under the minimum counting grade
    as that grade, ungraded players and defaulted (or missing) boards at the division's values.

    Rules (docs/rules.md §13, issue 15's handbooks): Southend Minor "grades under 75 count as
    75"; Sheffield 400 League "minimum counting 80, ungraded and defaulted boards count 80";
    North Staffs "defaults at the minimum". An ungraded player without an estimate counts as
    the ``Ungraded grade``, else as the minimum counting grade, else not at all; a defaulted
    board as the ``Default grade``, else not at all (a decision: the handbooks say no more).

    >>> total = team_total(Division("Southend Minor", min_counting_grade=75),
    ...                    boards_of([125, 120, 110, 74]))
    >>> total.sum_text(), total.notes
    ('125 + 120 + 110 + 75 = 430', ('board 4 (74) counts as 75',))
    """
    counted = [
        _count_value(division, b.number, b.player, b.figure, b.source, b.defaulted, b.missing)
        for b in _with_missing(division, boards)
    ]
    return _total([v for v, _ in counted], [n for _, n in counted])


def _order_why(rule: OrderRule, low: str, high: str, juniors: int, adjacent: bool) -> str:
    allowed = rule.limit + rule.junior_allowance * juniors
    how = "or more above" if rule.at_least else "above"
    amount = f"{_number(allowed)} {how}" if rule.at_least else f"more than {_number(allowed)} {how}"
    why = f"{low} is {amount} {high}"
    if juniors and rule.junior_allowance:
        pair = "junior" if juniors == 1 else "juniors"
        why += (
            f" ({_number(rule.limit)} + {juniors} × {_number(rule.junior_allowance)} for the "
            f"pair's {pair})"
        )
    if adjacent and rule.adjacent is not None:
        why += f"; adjacent boards may be {_number(rule.adjacent)} apart"
    return why


def _scale(label: str) -> str:
    """What a rule's maximum is called: a ``rating`` where its figure is one, else a grade."""
    return "rating" if "rating" in label else "grade"


def _max_why(limit: float, first: str, what: str = "grade") -> str:
    return f"{first} is over the maximum {what} {_number(limit)}"


def _over_why(limit: int, over: float, listed: Sequence[str]) -> str:
    players = "player is" if len(listed) == 1 else "players are"
    return (
        f"{len(listed)} {players} over {_number(over)}: {', '.join(listed)}; at most {limit} may be"
    )


def _total_why(limit: float, total: Total) -> str:
    return (
        f"the team counts {total.sum_text()}, more than the maximum {_number(limit)}"
        f"{total.notes_text()}"
    )


def _average_text(total: Total) -> str:
    average = math.floor(total.average * 100 + 0.5) / 100 if total.counted else 0.0
    return f"{_number(total.total)} / {total.counted} = {_number(average)}"


def _average_why(limit: float, total: Total) -> str:
    return (
        f"the team's average is {_average_text(total)}, more than the maximum {_number(limit)}"
        f"{total.notes_text()}"
    )


def _min_average_why(limit: float, total: Total) -> str:
    return (
        f"the team's average is {_average_text(total)}, less than the minimum {_number(limit)}"
        f"{total.notes_text()}"
    )


def _top_why(boards: int, limit: float, top: Total) -> str:
    average = math.floor(top.average * 100 + 0.5) / 100
    return (
        f"the top {boards} boards count {top.sum_text()}, an average of {_number(average)}, more "
        f"than the maximum {_number(limit)}{top.notes_text()}"
    )


def _played(board: Board) -> bool:
    return not board.defaulted and board.figure is not None


def _pair_excess(
    rule: OrderRule, low: float, high: float, juniors: int, adjacent: bool
) -> float | None:
    """How far the lower board's figure ``low`` is past what the rule allows above ``high``
    (``None``: within it)."""
    diff = low - high
    allowed = rule.limit + rule.junior_allowance * juniors
    breaks = diff >= allowed if rule.at_least else diff > allowed
    if not breaks or (adjacent and rule.adjacent is not None and diff <= rule.adjacent):
        return None
    return diff - allowed


def board_order(tolerance: float | OrderRule, boards: Sequence[Board]) -> tuple[Breach | None, ...]:
    """For each board in order, the board-order breach or ``None``: a player may not be more
    than ``tolerance`` above anyone on a higher board (an :class:`OrderRule` for the variants).
    Each breach names the higher board's player the rule is most broken against (the lowest
    figure, without variants; the topmost of equals). Ungraded players and defaulted boards are
    not compared.

    Rules: Nottinghamshire, "not more than 20 above anyone on a higher board" (docs/rules.md
    §13), exactly the tolerance above being not more than it; North Staffs, "not above a player
    15 points higher" (``at_least``: 15 or more breaks it); Northamptonshire, "up to 100 points
    for each junior in the pair"; Shropshire, adjacent boards within 10 interchangeable.

    >>> [b and b.why for b in board_order(20, boards_of([140, 112, 134]))]
    [None, None, 'board 3 (134) is more than 20 above board 2 (112)']
    """
    rule = tolerance if isinstance(tolerance, OrderRule) else OrderRule(float(tolerance))
    ordered = sorted(boards, key=lambda b: b.number)
    out: list[Breach | None] = []
    for k, board in enumerate(ordered):
        breach = None
        if _played(board):
            best: tuple[float, Board] | None = None
            for high in ordered[:k]:
                if not _played(high) or high.number >= board.number:
                    continue
                juniors = int(board.junior) + int(high.junior)
                adjacent = board.number - high.number == 1
                excess = _pair_excess(rule, _figure(board), _figure(high), juniors, adjacent)
                if excess is not None and (best is None or excess > best[0]):
                    best = (excess, high)
            if best is not None:
                high = best[1]
                why = _order_why(
                    rule,
                    _first(board),
                    _on_board(high),
                    int(board.junior) + int(high.junior),
                    board.number - high.number == 1,
                )
                breach = Breach(BOARD_ORDER, why, board.number, board.player)
        out.append(breach)
    return tuple(out)


def _figure(board: Board) -> float:
    assert board.figure is not None
    return board.figure


class _Team(NamedTuple):
    """One team's boards in one match as a rule's scalar check takes them: by board number,
    the boards board order compares (the same boards by its own figure), and the label of the
    limits' figure (:attr:`PlayerFigures.label`)."""

    ordered: Sequence[Board]
    compared: Sequence[Board]
    label: str


def team_breaches(
    division: Division,
    boards: Sequence[Board],
    order: Sequence[Board] | None = None,
    *,
    label: str = "",
    order_label: str = "",
) -> tuple[Breach, ...]:
    """Every rule of ``division`` one team's ``boards`` in one match break, in the order of
    :data:`RULE_KINDS`: board order, the maximum grade and the FIDE cap board by board, then the
    players over a grade, the total and the averages of the whole team. Board order compares
    the boards ``order`` (the same boards with the division's ``Board order figure``) where
    given. ``label`` and ``order_label`` name the figures (:attr:`PlayerFigures.label`): a
    breach of a rule by a figure ends by saying which (``; by the latest ECF rating``).

    Rules (docs/rules.md §13): board order (:func:`board_order`); "no player over 125" (a
    figure equal to the maximum is not over it); "at most one player over 165"; the team's
    counting total (:func:`team_total`) or its average at most the maximum; 4NCL's minimum
    average, top-four average and FIDE cap. An ungraded player without an estimate is checked
    for no maximum: he has no figure.

    >>> notts = Division("Nottinghamshire", board_order_tolerance=20)
    >>> team_breaches(notts, [Board(2, "Graham", 112), Board(3, "Kay", 134)])[0].why
    'board 3, Kay (134) is more than 20 above Graham (112) on board 2'
    """
    ordered = sorted(boards, key=lambda b: b.number)
    compared = ordered if order is None else sorted(order, key=lambda b: b.number)
    team = _Team(ordered, compared, label)
    found: list[Breach] = []
    total: Total | None = None
    for kind in _kinds_on(division, _TEAM_READS):
        if kind.reads == "boards":
            found.extend(kind.check(division, team))
            continue
        if total is None:
            total = team_total(division, ordered)
        breach = kind.check(division, total)
        if breach is not None:
            found.append(breach)
    return tuple(_labelled(found, label, order_label))


def _labelled(found: Sequence[Breach], label: str, order_label: str) -> list[Breach]:
    """The breaches with the figure each rule used (its kind's ``by``) said at the end, where it
    has a label."""
    if not label and not order_label:
        return list(found)
    named_by = {"figure": label, "order": order_label, "": ""}
    out = []
    for b in found:
        named = named_by[_KINDS[b.rule].by]
        out.append(Breach(b.rule, f"{b.why}; by the {named}", b.board, b.player) if named else b)
    return out


def _order_check(division: Division, team: _Team) -> list[Breach]:
    """Board order (:func:`board_order`) on the boards it compares."""
    rule = division.order_rule
    assert rule is not None
    return [b for b in board_order(rule, team.compared) if b]


def _max_check(division: Division, team: _Team) -> list[Breach]:
    """No player's figure over ``Max grade``."""
    limit = division.max_grade
    assert limit is not None
    return [
        Breach(MAX_GRADE, _max_why(limit, _first(b), _scale(team.label)), b.number, b.player)
        for b in team.ordered
        if _played(b) and _figure(b) > limit
    ]


def _limit_of(limits: Sequence[BoardLimit], number: int, figure: float) -> BoardLimit | None:
    """The first of ``limits`` covering board ``number`` that ``figure`` breaks."""
    return next((lim for lim in limits if lim.covers(number) and lim.breaks(figure)), None)


def _board_limit_check(division: Division, team: _Team) -> list[Breach]:
    """Each board's limit (``Board limits``)."""
    assert division.board_limits is not None
    limits = board_limits(division.board_limits)
    found = []
    for b in team.ordered:
        if _played(b):
            broken = _limit_of(limits, b.number, _figure(b))
            if broken is not None:
                why = _board_limit_why(broken, _first(b), _scale(team.label))
                found.append(Breach(BOARD_LIMIT, why, b.number, b.player))
    return found


def _board_limit_why(limit: BoardLimit, first: str, what: str = "grade") -> str:
    how = "below" if limit.below else "at most"
    return f"{first} is not {how} {_number(limit.limit)}, the {what} limit on {limit.boards_text}"


def _fide_check(division: Division, team: _Team) -> list[Breach]:
    """No player's FIDE rating over ``Max FIDE rating``."""
    cap = division.max_fide
    assert cap is not None
    return [
        Breach(MAX_FIDE, _fide_why(cap, b.number, b.player, b.fide), b.number, b.player)
        for b in team.ordered
        if not b.defaulted and b.fide is not None and b.fide > cap
    ]


def _fide_why(cap: float, number: int, player: str, fide: float) -> str:
    return _max_why(cap, _first_text(number, player, f"FIDE {_number(fide)}"), "FIDE rating")


def _over_check(division: Division, team: _Team) -> list[Breach]:
    """At most ``Max players over`` players over ``Over grade``."""
    most, over_grade = division.max_players_over, division.over_grade
    assert most is not None
    assert over_grade is not None
    over = [_on_board(b) for b in team.ordered if _played(b) and _figure(b) > over_grade]
    if len(over) <= most:
        return []
    return [Breach(PLAYERS_OVER, _over_why(most, over_grade, over))]


def _max_total_check(division: Division, total: Total) -> Breach | None:
    """The team's counting total at most ``Max total``."""
    limit = division.max_total
    assert limit is not None
    return Breach(MAX_TOTAL, _total_why(limit, total)) if total.total > limit else None


def _max_average_check(division: Division, total: Total) -> Breach | None:
    """The team's counting average at most ``Max average``."""
    limit = division.max_average
    assert limit is not None
    if not total.counted or total.average <= limit:
        return None
    return Breach(MAX_AVERAGE, _average_why(limit, total))


def _min_average_check(division: Division, total: Total) -> Breach | None:
    """The team's counting average at least ``Min average``."""
    limit = division.min_average
    assert limit is not None
    if not total.counted or total.average >= limit:
        return None
    return Breach(MIN_AVERAGE, _min_average_why(limit, total))


def _top_average_check(division: Division, total: Total) -> Breach | None:
    """The top ``Top boards`` boards' counting average at most ``Max top average``."""
    boards, limit = division.top_boards, division.max_top_average
    assert boards is not None
    assert limit is not None
    top = _total(total.values[:boards], ())
    if not top.counted or top.average <= limit:
        return None
    return Breach(TOP_AVERAGE, _top_why(boards, limit, top))


# --------------------------------------------------------------------------------------------
# Every team of a division at once


@dataclass(frozen=True)
class _Rows:
    """A division's boards as the array form takes them, one entry per board: team, board
    number, figure (NaN: none), board order's figure, FIDE rating, junior, defaulted, missing
    (a board the team has no row for), player, figure's source and board order's source."""

    teams: IndexArray
    numbers: IntArray
    figures: FloatArray
    ordering: FloatArray
    fides: FloatArray
    young: BoolArray
    absent: BoolArray
    missing: BoolArray
    names: list[str]
    labels: list[str]
    order_labels: list[str]

    def with_gaps(self, division: Division) -> _Rows:
        """These rows and, where the division counts a default, one defaulted row for each
        board 1..``Boards`` a team has no row for."""
        if division.boards is None or division.default_grade is None:
            return self
        teams, numbers = self.teams, self.numbers
        count = int(teams.max()) + 1
        present = np.zeros((count, division.boards + 1), dtype=np.bool_)
        inside = numbers <= division.boards
        present[teams[inside], numbers[inside]] = True
        present[:, 0] = True
        present[np.setdiff1d(np.arange(count), teams), :] = True
        gap_team, gap_number = np.nonzero(~present)
        gaps = gap_team.size
        none, no, yes = np.full(gaps, np.nan), np.zeros(gaps, np.bool_), np.ones(gaps, np.bool_)
        blank = [""] * gaps
        labels = self.labels + blank
        same = self.order_labels is self.labels
        return _Rows(
            np.concatenate([teams, gap_team]),
            np.concatenate([numbers, gap_number]),
            np.concatenate([self.figures, none]),
            np.concatenate([self.ordering, none]),
            np.concatenate([self.fides, none]),
            np.concatenate([self.young, no]),
            np.concatenate([self.absent, yes]),
            np.concatenate([self.missing, yes]),
            self.names + blank,
            labels,
            labels if same else self.order_labels + blank,
        )

    def sorted(self) -> _Rows:
        """The rows by team, then board number."""
        order = np.lexsort((self.numbers, self.teams))
        picked = order.tolist()
        labels = [self.labels[k] for k in picked]
        same = self.order_labels is self.labels
        return _Rows(
            self.teams[order],
            self.numbers[order],
            self.figures[order],
            self.ordering[order],
            self.fides[order],
            self.young[order],
            self.absent[order],
            self.missing[order],
            [self.names[k] for k in picked],
            labels,
            labels if same else [self.order_labels[k] for k in picked],
        )


@dataclass(frozen=True)
class _Sorted:
    """The rows sorted by team and board (:meth:`_Rows.sorted`), with each team's place
    (``group``, 0, 1, …), its rows ``starts[g]:ends[g]``, each row's ``position`` in its
    team, which rows were ``played`` (not defaulted, with a figure), and the values the
    messages need as Python objects."""

    rows: _Rows
    starts: IndexArray
    ends: IndexArray
    group: IndexArray
    position: IndexArray
    played: BoolArray
    number_of: list[int]
    figure_of: list[float]
    ordering_of: list[float]
    group_of: list[int]
    start_of: list[int]
    end_of: list[int]
    label: str = ""

    @classmethod
    def of(cls, rows: _Rows, label: str = "") -> _Sorted:
        teams = rows.teams
        count = teams.size
        starts = np.flatnonzero(np.r_[True, teams[1:] != teams[:-1]])
        ends = np.r_[starts[1:], count]
        group = np.repeat(np.arange(starts.size), ends - starts)
        return cls(
            rows,
            starts,
            ends,
            group,
            np.arange(count) - starts[group],
            ~rows.absent & ~np.isnan(rows.figures),
            rows.numbers.tolist(),
            rows.figures.tolist(),
            rows.ordering.tolist(),
            group.tolist(),
            starts.tolist(),
            ends.tolist(),
            label,
        )

    @property
    def team_count(self) -> int:
        return int(self.starts.size)

    def place(self, g: int, rule: str, k: int = 0) -> int:
        """A breach's sort key: by team, then rule (as :data:`RULES` orders them), then row."""
        return (g * len(RULES) + _RANK[rule]) * (self.rows.teams.size + 1) + k

    def _shown(self, k: int, by_order: bool) -> str:
        if by_order:
            return _shown_text(self.ordering_of[k], self.rows.order_labels[k])
        return _shown_text(self.figure_of[k], self.rows.labels[k])

    def first(self, k: int, by_order: bool = False) -> str:
        """Row ``k`` as a breach's subject: ``board 3, Kay (134)``."""
        return _first_text(self.number_of[k], self.rows.names[k], self._shown(k, by_order))

    def on(self, k: int, by_order: bool = False) -> str:
        """Row ``k`` as a breach's object: ``Graham (112) on board 2``."""
        return _on_text(self.number_of[k], self.rows.names[k], self._shown(k, by_order))


_Found = list[tuple[int, int, Breach]]
"""Breaches found on whole columns, each with its sort key (:meth:`_Sorted.place`) and team."""


def _order_found(division: Division, s: _Sorted) -> _Found:
    """Board order on a teams × boards × boards block (:func:`board_order`)."""
    rule = division.order_rule
    assert rule is not None
    rows, group, position = s.rows, s.group, s.position
    compared = ~rows.absent & ~np.isnan(rows.ordering)
    width = int(position.max()) + 1
    block = np.full((s.team_count, width), np.nan)
    block[group[compared], position[compared]] = rows.ordering[compared]
    board_no = np.full((s.team_count, width), -1, dtype=np.int64)
    board_no[group, position] = rows.numbers
    junior_no = np.zeros((s.team_count, width))
    junior_no[group, position] = rows.young
    # [team, lower board k, higher board j]
    diff = block[:, :, None] - block[:, None, :]
    gap = board_no[:, :, None] - board_no[:, None, :]
    allowed = rule.limit + rule.junior_allowance * (junior_no[:, :, None] + junior_no[:, None, :])
    with np.errstate(invalid="ignore"):
        breaks = (diff >= allowed) if rule.at_least else (diff > allowed)
        breaks &= gap > 0
        if rule.adjacent is not None:
            breaks &= ~((gap == 1) & (diff <= rule.adjacent))
    excess = np.where(breaks, diff - allowed, -np.inf)
    best = np.argmax(excess, axis=2)
    hit_team, hit_at = np.nonzero(breaks.any(axis=2))
    young_of = rows.young.astype(np.int64).tolist()
    number_of, start_of = s.number_of, s.start_of
    found: _Found = []
    for g, p, j in zip(
        hit_team.tolist(), hit_at.tolist(), best[hit_team, hit_at].tolist(), strict=True
    ):
        k, high = start_of[g] + p, start_of[g] + j
        why = _order_why(
            rule,
            s.first(k, True),
            s.on(high, True),
            young_of[k] + young_of[high],
            number_of[k] - number_of[high] == 1,
        )
        breach = Breach(BOARD_ORDER, why, number_of[k], rows.names[k])
        found.append((s.place(g, BOARD_ORDER, k), g, breach))
    return found


def _max_found(division: Division, s: _Sorted) -> _Found:
    """The maximum grade (or rating), board by board."""
    limit = division.max_grade
    assert limit is not None
    found: _Found = []
    for k in np.flatnonzero(s.played & (s.rows.figures > limit)).tolist():
        why = _max_why(limit, s.first(k), _scale(s.label))
        breach = Breach(MAX_GRADE, why, s.number_of[k], s.rows.names[k])
        found.append((s.place(s.group_of[k], MAX_GRADE, k), s.group_of[k], breach))
    return found


def _board_limit_found(division: Division, s: _Sorted) -> _Found:
    """Each board's limit (``Board limits``), every board at once."""
    assert division.board_limits is not None
    limits = board_limits(division.board_limits)
    numbers, figures = s.rows.numbers, s.rows.figures
    hit = np.zeros(numbers.size, dtype=np.bool_)
    for lim in limits:
        inside = numbers >= lim.first
        if lim.last is not None:
            inside &= numbers <= lim.last
        with np.errstate(invalid="ignore"):
            hit |= s.played & inside & (figures >= lim.limit if lim.below else figures > lim.limit)
    found: _Found = []
    for k in np.flatnonzero(hit).tolist():
        broken = _limit_of(limits, s.number_of[k], s.figure_of[k])
        assert broken is not None
        why = _board_limit_why(broken, s.first(k), _scale(s.label))
        breach = Breach(BOARD_LIMIT, why, s.number_of[k], s.rows.names[k])
        found.append((s.place(s.group_of[k], BOARD_LIMIT, k), s.group_of[k], breach))
    return found


def _fide_found(division: Division, s: _Sorted) -> _Found:
    """The FIDE cap, board by board."""
    cap = division.max_fide
    assert cap is not None
    rows = s.rows
    with np.errstate(invalid="ignore"):
        capped = ~rows.absent & (rows.fides > cap)
    found: _Found = []
    for k in np.flatnonzero(capped).tolist():
        why = _fide_why(cap, s.number_of[k], rows.names[k], float(rows.fides[k]))
        breach = Breach(MAX_FIDE, why, s.number_of[k], rows.names[k])
        found.append((s.place(s.group_of[k], MAX_FIDE, k), s.group_of[k], breach))
    return found


def _over_found(division: Division, s: _Sorted) -> _Found:
    """At most ``Max players over`` players over ``Over grade``, team by team."""
    most, over_grade = division.max_players_over, division.over_grade
    assert most is not None
    assert over_grade is not None
    over = s.played & (s.rows.figures > over_grade)
    counts = np.bincount(s.group[over], minlength=s.team_count)
    over_of = over.tolist()
    found: _Found = []
    for g in np.flatnonzero(counts > most).tolist():
        listed = [s.on(k) for k in range(s.start_of[g], s.end_of[g]) if over_of[k]]
        found.append(
            (s.place(g, PLAYERS_OVER), g, Breach(PLAYERS_OVER, _over_why(most, over_grade, listed)))
        )
    return found


def _counted_values(division: Division, s: _Sorted) -> FloatArray:
    """What each board counts in its team's total (:func:`_count_value`; NaN: not counted)."""
    rows, played = s.rows, s.played
    figures = rows.figures
    value = np.where(played, figures, np.nan)
    if division.min_counting_grade is not None:
        value = np.where(played, np.maximum(figures, division.min_counting_grade), np.nan)
    ungraded = division.ungraded_grade
    if ungraded is None:
        ungraded = division.min_counting_grade
    if ungraded is not None:
        value = np.where(~rows.absent & np.isnan(figures), ungraded, value)
    if division.default_grade is not None:
        value = np.where(rows.absent, division.default_grade, value)
    return value


@dataclass(frozen=True)
class _Counted:
    """Every team's counting total at once, as the total rules' array checks read it: what
    each board counts (``value``, NaN: not counted, :func:`_counted_values`) and, by team,
    the total, the boards counted and the average (NaN where none is)."""

    s: _Sorted
    value: FloatArray
    counted: BoolArray
    totals: FloatArray
    counts: IntArray
    average: FloatArray

    @classmethod
    def of(cls, division: Division, s: _Sorted) -> _Counted:
        value = _counted_values(division, s)
        counted = ~np.isnan(value)
        group, team_count = s.group, s.team_count
        totals = np.asarray(
            np.bincount(group[counted], weights=value[counted], minlength=team_count), np.float64
        )
        counts = np.bincount(group[counted], minlength=team_count)
        with np.errstate(invalid="ignore", divide="ignore"):
            average = totals / counts
        return cls(s, value, counted, totals, counts, average)


def _max_total_suspects(division: Division, c: _Counted) -> BoolArray:
    """The teams whose counting total is over ``Max total``."""
    limit = division.max_total
    assert limit is not None
    return c.totals > limit


def _max_average_suspects(division: Division, c: _Counted) -> BoolArray:
    """The teams whose counting average is over ``Max average``."""
    limit = division.max_average
    assert limit is not None
    return (c.counts > 0) & (c.average > limit)


def _min_average_suspects(division: Division, c: _Counted) -> BoolArray:
    """The teams whose counting average is under ``Min average``."""
    limit = division.min_average
    assert limit is not None
    return (c.counts > 0) & (c.average < limit)


def _top_average_suspects(division: Division, c: _Counted) -> BoolArray:
    """The teams whose top ``Top boards`` boards average over ``Max top average``."""
    boards, limit = division.top_boards, division.max_top_average
    assert boards is not None
    assert limit is not None
    s, value = c.s, c.value
    top = c.counted & (s.position < boards)
    top_totals = np.bincount(s.group[top], weights=value[top], minlength=s.team_count)
    top_counts = np.bincount(s.group[top], minlength=s.team_count)
    return (top_counts > 0) & (top_totals / top_counts > limit)


def _totals_found(
    division: Division, c: _Counted, suspect: BoolArray, kinds: Sequence[RuleKind]
) -> _Found:
    """The total rules ``kinds`` on each team their array checks find ``suspect``, each such
    team's counting total written out and checked by the rules' scalar checks."""
    s = c.s
    rows = s.rows
    # A board's note (:func:`_count_value`) only where it has one: not counted at its own
    # first-choice figure.
    noted = ~s.played | np.array([bool(label) for label in rows.labels], dtype=np.bool_)
    if division.min_counting_grade is not None:
        noted |= s.played & (rows.figures < division.min_counting_grade)
    absent_of, missing_of, noted_of = rows.absent.tolist(), rows.missing.tolist(), noted.tolist()
    value_of = [None if v != v else v for v in c.value.tolist()]
    figure_of, number_of, names, labels = s.figure_of, s.number_of, rows.names, rows.labels
    found: _Found = []
    for g in np.flatnonzero(suspect).tolist():
        first_row, end_row = s.start_of[g], s.end_of[g]
        values = value_of[first_row:end_row]
        notes = [
            _count_value(
                division,
                number_of[k],
                names[k],
                None if figure_of[k] != figure_of[k] else figure_of[k],
                labels[k],
                absent_of[k],
                missing_of[k],
            )[1]
            for k in range(first_row, end_row)
            if noted_of[k]
        ]
        counted_values = [v for v in values if v is not None]
        total = Total(
            float(sum(counted_values)),
            len(counted_values),
            tuple(values),
            tuple(n for n in notes if n),
        )
        for kind in kinds:
            breach = kind.check(division, total)
            if breach is not None:
                found.append((s.place(g, breach.rule), g, breach))
    return found


def team_breaches_array(
    division: Division,
    team: npt.ArrayLike,
    number: npt.ArrayLike,
    figure: npt.ArrayLike,
    defaulted: npt.ArrayLike,
    players: Sequence[str] | None = None,
    *,
    sources: Sequence[str] | None = None,
    order_figure: npt.ArrayLike | None = None,
    order_sources: Sequence[str] | None = None,
    juniors: npt.ArrayLike | None = None,
    fide: npt.ArrayLike | None = None,
    label: str = "",
    order_label: str = "",
) -> list[tuple[int, Breach]]:
    """:func:`team_breaches` for many teams at once: board ``k`` is board ``number[k]`` of team
    ``team[k]`` (0, 1, …), played by ``players[k]`` with ``figure[k]`` (NaN: ungraded) from
    ``sources[k]`` (:attr:`Board.source`), or ``defaulted[k]``; board order compares
    ``order_figure[k]`` (from ``order_sources[k]``) where given; ``juniors[k]`` and
    ``fide[k]`` as :attr:`Board.junior` and :attr:`Board.fide`; ``label`` and
    ``order_label`` as :func:`team_breaches` takes them. Returns ``(team, breach)``
    pairs, team by team and in each team in the order :func:`team_breaches` gives, which it
    equals for every team.

    Every rule kind's array check (:data:`RULE_KINDS`) is done on whole columns (board order on
    a teams × boards × boards block; the total rules find the teams that may break them, whose
    totals are then written out); the breaches found are then sorted by team and the table's
    order, each board's text made once.
    """
    teams = np.asarray(team, dtype=np.intp).reshape(-1)
    size = teams.size
    if not size:
        return []
    figures = np.asarray(figure, dtype=np.float64).reshape(-1)
    labels = list(sources) if sources is not None else [""] * size
    rows = _Rows(
        teams,
        np.asarray(number, dtype=np.int64).reshape(-1),
        figures,
        figures if order_figure is None else np.asarray(order_figure, np.float64).reshape(-1),
        np.full(size, np.nan) if fide is None else np.asarray(fide, np.float64).reshape(-1),
        np.zeros(size, np.bool_) if juniors is None else np.asarray(juniors, np.bool_).reshape(-1),
        np.asarray(defaulted, dtype=np.bool_).reshape(-1),
        np.zeros(size, dtype=np.bool_),
        list(players) if players is not None else [""] * size,
        labels,
        labels
        if order_figure is None
        else (list(order_sources) if order_sources is not None else [""] * size),
    )
    s = _Sorted.of(rows.with_gaps(division).sorted(), label)
    found: _Found = []
    counted: _Counted | None = None
    suspect = np.zeros(s.team_count, dtype=np.bool_)
    totalled: list[RuleKind] = []
    for kind in _kinds_on(division, _TEAM_READS):
        assert kind.check_array is not None
        if kind.reads == "boards":
            found.extend(kind.check_array(division, s))
            continue
        if counted is None:
            counted = _Counted.of(division, s)
        with np.errstate(invalid="ignore", divide="ignore"):
            suspect |= kind.check_array(division, counted)
        totalled.append(kind)
    if counted is not None:
        found.extend(_totals_found(division, counted, suspect, totalled))
    found.sort(key=operator.itemgetter(0))
    said = _labelled([breach for *_, breach in found], label, order_label)
    team_of = s.rows.teams.tolist()
    return [(team_of[s.start_of[g]], b) for (_, g, _), b in zip(found, said, strict=True)]


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
    player: IndexArray
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
    scores: Sequence[tuple[float | None, float | None, bool]] | None = None,
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
    ``scores[r]`` is row ``r``'s home and away scores and whether it is graded, where the caller
    has read the results (:meth:`xlgrade.season.checks.Resolved.scores`); else each distinct
    result is read here.
    """
    wanted = None if divisions is None else {_division_key(name) for name in divisions}
    events: dict[str, bool] = {}
    taken: list[int] = []
    for r, game in enumerate(games):
        event = game.event
        asked = events.get(event)
        if asked is None:
            asked = events[event] = wanted is None or _division_key(event) in wanted
        if asked:
            taken.append(r)
    unchecked: list[Breach] = []
    # Each distinct match text read once: its two teams, or why it names none.
    teams_of: dict[str, tuple[Team, Team] | str] = {}
    texts = [str(games[r].match or "") for r in taken]
    for text in set(texts):
        try:
            teams_of[text] = parse_match(text)
        except GradingError as error:
            teams_of[text] = str(error)
    rows: list[int] = []
    pairs: list[tuple[Team, Team]] = []
    for r, text in zip(taken, texts, strict=True):
        teams = teams_of[text]
        if isinstance(teams, str):
            unchecked.append(_located(Breach(NOT_CHECKED, teams, games[r].board), games[r]))
        else:
            rows.append(r)
            pairs.append(teams)
    # Each distinct result read once, unless the caller has read them.
    if scores is not None:
        read = [scores[r] for r in rows]
    else:
        results: dict[str, tuple[float | None, float | None, bool]] = {}
        for text in {games[r].result for r in rows}:
            try:
                parsed = parse_game_result(text)
                results[text] = (parsed.home, parsed.away, parsed.graded)
            except ResultError:
                results[text] = (None, None, True)
        read = [results[games[r].result] for r in rows]
    # The sides, home then away of each row, as columns.
    count = len(rows)
    side_team = [t for pair in pairs for t in pair]
    side_row = [r for r in rows for _ in (0, 1)]
    index = [i for r in rows for i in (home[r], away[r])]
    typed = [t for r in rows for t in (games[r].home, games[r].away)]
    named = [bool(str(t or "").strip()) for t in typed]
    side_score = [x for result in read for x in (result[0], result[1])]
    graded = [result[2] for result in read for _ in (0, 1)]
    keep = [True] * (2 * count)
    for k in range(2 * count):
        if named[k] and index[k] < 0:
            r = side_row[k]
            reason = reasons[k % 2].get(r, f"{quote(typed[k])} is not on the Players table")
            why = f"{reason}: the board is not checked"
            breach = Breach(NOT_CHECKED, why, games[r].board, str(typed[k]), team=side_team[k].name)
            unchecked.append(_located(breach, games[r]))
            keep[k] = False
    player = [i if n else -1 for i, n in zip(index, named, strict=True)]
    defaulted = [
        _side_defaulted(score, grade, n)
        for score, grade, n in zip(side_score, graded, named, strict=True)
    ]
    kept = _first_entered(games, side_row, side_team, player, keep)
    chosen = [games[side_row[k]] for k in kept]
    players = [player[k] for k in kept]
    figure_of = np.array([math.nan if f is None else f for f in figures], dtype=np.float64)
    people = np.array(players, dtype=np.intp)
    return Appearances(
        division=tuple(g.event for g in chosen),
        date=tuple(g.date for g in chosen),
        match=tuple(str(g.match or "") for g in chosen),
        team=tuple(side_team[k] for k in kept),
        board=np.array([-1 if g.board is None else g.board for g in chosen], dtype=np.int64),
        player=people,
        name=tuple(names[p] if p >= 0 else "" for p in players),
        figure=np.where(people >= 0, figure_of[np.maximum(people, 0)], math.nan)
        if figure_of.size
        else np.full(people.size, math.nan),
        defaulted=np.array([defaulted[k] for k in kept], dtype=np.bool_),
        row=tuple(g.row for g in chosen),
        unchecked=tuple(unchecked),
    )


def _first_entered(
    games: Sequence[Game],
    side_row: Sequence[int],
    side_team: Sequence[Team],
    player: Sequence[int],
    keep: Sequence[bool],
) -> list[int]:
    """The sides kept, in order: the same board of the same team in the same match entered
    again (both clubs send the card) is counted once, its first entry kept; a side without a
    board number is always kept. (A match text names its home team first, so the same team
    is the same side of two rows of one match.)"""
    size = len(side_row)
    if not size:
        return []
    places: dict[tuple[object, ...], int] = {}
    row_place = {
        r: places.setdefault(
            (games[r].event, games[r].date, str(games[r].match or ""), games[r].board),
            len(places),
        )
        for r in dict.fromkeys(side_row)
        if games[r].board is not None
    }
    place = np.array([row_place.get(r, -1) for r in side_row], dtype=np.int64)
    side = np.arange(size, dtype=np.int64) % 2
    people = np.array(player, dtype=np.int64)
    kept = np.array(keep, dtype=np.bool_)
    boarded = kept & (place >= 0)
    order = np.flatnonzero(boarded)
    order = order[np.lexsort((order, people[order], side[order], place[order]))]
    same = np.zeros(order.size, dtype=np.bool_)
    if order.size > 1:
        a, b = order[1:], order[:-1]
        same[1:] = (place[a] == place[b]) & (side[a] == side[b]) & (people[a] == people[b])
    kept[order[same]] = False
    return np.flatnonzero(kept).tolist()


def _located(breach: Breach, game: Game) -> Breach:
    """``breach`` placed at ``game``'s division, date, match and row."""
    return dataclasses.replace(
        breach, division=game.event, date=game.date, match=str(game.match or ""), row=game.row
    )


def _division_key(name: object) -> str:
    """A division's name as compared: case and spacing ignored."""
    return " ".join(str(name or "").split()).casefold()


def season_breaches(
    divisions: Mapping[str, Division],
    boards: Appearances,
    figures: Mapping[str, DivisionFigures] | None = None,
    registrations: Sequence[tuple[str, dt.date | None]] = (),
    *,
    juniors: Sequence[bool] = (),
    fide: Sequence[float | None] = (),
    members: Sequence[bool | None] = (),
    league_registered: Sequence[dt.date | None] = (),
) -> list[Breach]:
    """Every rule of ``divisions`` (by name; case and spacing ignored) the season's ``boards``
    break, and the rows not checked, in date order; a match that breaks no rule gives nothing.

    ``figures`` gives a division's own figures by player (its ``Eligibility figure`` and
    ``Board order figure``, estimates filled: :func:`player_figures`); a division without
    uses ``boards.figure``. ``registrations[p]`` is player ``p``'s registered team and the day
    it takes effect (``("", None)``: none); ``juniors[p]``, ``fide[p]`` and ``members[p]``
    whether he is a junior, his FIDE rating and whether he is an ECF member (``None``: not
    known), and ``league_registered[p]`` the day he was registered with the league, where the
    divisions' rules ask.

    Each team in each match is checked by :func:`team_breaches_array` (a team's boards are the
    rows of its division, date, match and side; rows without a board number take their places
    in row order). Then the season's rules, in date order (:func:`_season_rules`).
    """
    by_key = {_division_key(name): division for name, division in divisions.items()}
    own = {_division_key(name): found for name, found in (figures or {}).items()}
    found: list[Breach] = list(boards.unchecked)
    known = {name: _division_key(name) for name in set(boards.division)}
    keys = [known[name] for name in boards.division]
    size = len(keys)
    entry_figure = boards.figure.copy()
    entry_source = np.full(size, "", dtype=object)
    entry_board = np.where(boards.board > 0, boards.board, 0)
    entry_boards = np.zeros(size, dtype=np.int64)
    junior_of = np.array([bool(j) for j in juniors], dtype=np.float64)
    fide_of = np.array([math.nan if f is None else f for f in fide], dtype=np.float64)
    grouped = _TeamGroups.of(boards, keys, by_key)
    texts: dict[int, npt.NDArray[np.object_]] = {}
    for key, chosen in grouped.divisions.items():
        division = by_key[key]
        entries = chosen.tolist()
        global_group, group = np.unique(grouped.group[chosen], return_inverse=True)
        group = group.astype(np.intp)
        number = grouped.number[chosen]
        first = [grouped.first[g] for g in global_group.tolist()]
        entry_board[chosen] = number
        entry_boards[chosen] = _played_below(group, number, boards.defaulted[chosen])
        days = [boards.date[k] for k in entries]
        for part, eligible, ordering in _list_parts(
            own.get(key), days, group, found, boards, first
        ):
            sub = chosen[part]
            people = boards.player[sub]
            sources: list[str] | None = None
            order_figure: FloatArray | None = None
            order_sources: list[str] | None = None
            label = order_label = ""
            if eligible is not None and ordering is not None:
                label, order_label = eligible.label, ordering.label
                entry_figure[sub] = _by_player(eligible.value, people)
                sources = _by_player_text(eligible.source, people, texts)
                entry_source[sub] = sources
                order_figure = _by_player(ordering.value, people)
                order_sources = (
                    sources
                    if ordering.source is eligible.source
                    else _by_player_text(ordering.source, people, texts)
                )
            for g, breach in team_breaches_array(
                division,
                group[part],
                number[part],
                entry_figure[sub],
                boards.defaulted[sub],
                [boards.name[k] for k in sub.tolist()],
                sources=sources,
                order_figure=order_figure,
                order_sources=order_sources,
                juniors=_by_player(junior_of, people, 0.0) > 0,
                fide=_by_player(fide_of, people),
                label=label,
                order_label=order_label,
            ):
                if breach.board is None:
                    k = first[g]
                else:
                    k = grouped.at(int(global_group[g]), breach.board)
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
    read = _Entries(keys, entry_board, entry_boards, entry_figure, tuple(entry_source.tolist()))
    found.extend(_season_rules(by_key, boards, read, registrations, members, league_registered))
    return sorted(found, key=_breach_order)


def _played_below(group: IntArray, number: IntArray, defaulted: BoolArray) -> IntArray:
    """For each board, how many boards below it its team played or won by default in that
    match (Nottinghamshire C4: "above the bottom two boards played or won by default"): a
    defaulted board, or one not in the results, is not one of them."""
    order = np.lexsort((-number, group))
    played = (~defaulted[order]).astype(np.int64)
    counted = np.cumsum(played) - played  # boards of higher number before it, all teams
    sorted_group = group[order]
    starts = np.flatnonzero(np.r_[True, sorted_group[1:] != sorted_group[:-1]])
    before = np.repeat(counted[starts], np.diff(np.r_[starts, order.size]))
    out = np.empty(order.size, dtype=np.int64)
    out[order] = counted - before
    return out


def _list_parts(
    pair: DivisionFigures | None,
    days: Sequence[dt.date | None],
    group: IntArray,
    found: list[Breach],
    boards: Appearances,
    first: Sequence[int],
) -> list[tuple[IntArray, PlayerFigures | None, PlayerFigures | None]]:
    """A division's boards (by position) split by the figures they are checked with: one part
    for a division with fixed figures (``pair``'s, or none), one a pair of editions in force
    for a division taking a list by date (:class:`ListFigures`). A team in a match under no
    loaded edition is not checked: one :data:`NOT_CHECKED` breach says why, in ``found``."""
    everything = np.arange(len(days))
    if pair is None:
        return [(everything, None, None)]
    eligible, ordering = pair
    if isinstance(eligible, PlayerFigures) and isinstance(ordering, PlayerFigures):
        return [(everything, eligible, ordering)]
    chosen: dict[dt.date | None, tuple[PlayerFigures | str, PlayerFigures | str]] = {}
    keys: list[tuple[int, int] | str] = []
    made: dict[tuple[int, int], tuple[PlayerFigures, PlayerFigures]] = {}
    for day in days:
        if day not in chosen:
            chosen[day] = (_at_day(eligible, day), _at_day(ordering, day))
        limits, order = chosen[day]
        if isinstance(limits, str) or isinstance(order, str):
            keys.append(limits if isinstance(limits, str) else str(order))
            continue
        pair_key = (id(limits), id(order))
        made[pair_key] = (limits, order)
        keys.append(pair_key)
    parts: dict[tuple[int, int], list[int]] = defaultdict(list)
    said: set[int] = set()
    group_of = group.tolist()
    for position, entry in enumerate(keys):
        if isinstance(entry, tuple):
            parts[entry].append(position)
        elif group_of[position] not in said:
            said.add(group_of[position])
            k = first[group_of[position]]
            why = f"{entry}: the team is not checked"
            found.append(
                dataclasses.replace(_at(boards, k, NOT_CHECKED, why), board=None, player="")
            )
    return [(np.array(p, dtype=np.intp), *made[key]) for key, p in parts.items()]


def _at_day(figures: PlayerFigures | ListFigures, day: dt.date | None) -> PlayerFigures | str:
    return figures if isinstance(figures, PlayerFigures) else figures.at(day)


@dataclass(frozen=True)
class _TeamGroups:
    """The boards of the divisions with rules grouped into teams in matches, as columns: each
    board's team in its match (``group``: its division, date, match and team) and its board
    number (as given, else its place among its team's boards in row order), and by team its
    first board (``first``) and its boards in order (``members`` from ``starts``)."""

    divisions: dict[str, IntArray]
    group: IntArray
    number: IntArray
    first: list[int]
    members: IntArray
    starts: IntArray
    board: IntArray

    @classmethod
    def of(
        cls, boards: Appearances, keys: Sequence[str], by_key: Mapping[str, Division]
    ) -> _TeamGroups:
        size = len(keys)
        key_id = _codes(keys)
        ruled = np.array([key in by_key for key in dict.fromkeys(keys)], dtype=np.bool_)
        inside = np.flatnonzero(ruled[key_id]) if size else np.zeros(0, dtype=np.intp)
        group = np.full(size, -1, dtype=np.intp)
        dates = np.array([-1 if d is None else d.toordinal() for d in boards.date], dtype=np.int64)
        group[inside] = _grouped(
            key_id[inside],
            dates[inside],
            _codes(boards.match)[inside],
            _codes([t.name for t in boards.team])[inside],
        )
        names = list(dict.fromkeys(keys))
        by_key_order = inside[np.argsort(key_id[inside], kind="stable")]
        present, starts_at = np.unique(key_id[by_key_order], return_index=True)
        parts = np.split(by_key_order, starts_at[1:].tolist()) if present.size else []
        rows = {names[i]: part for i, part in zip(present.tolist(), parts, strict=True)}
        groups = range(int(group.max(initial=-1)) + 1)
        inside = np.flatnonzero(group >= 0)
        members = inside[np.argsort(group[inside], kind="stable")]
        counts = np.bincount(group[inside], minlength=len(groups))
        starts = np.r_[0, np.cumsum(counts)[:-1]] if len(groups) else np.zeros(0, np.int64)
        place = np.zeros(size, dtype=np.int64)
        place[members] = np.arange(members.size) - np.repeat(starts, counts) + 1
        number = np.where(boards.board > 0, boards.board, place)
        first = members[starts].tolist() if len(groups) else []
        return cls(rows, group, number, first, members, starts.astype(np.int64), boards.board)

    def at(self, g: int, board: int) -> int:
        """The board ``board`` of team ``g``'s boards (its last entry of that number), else
        its first board."""
        start = int(self.starts[g])
        end = int(self.starts[g + 1]) if g + 1 < self.starts.size else self.members.size
        found = [int(k) for k in self.members[start:end] if int(self.number[k]) == board]
        return found[-1] if found else self.first[g]


def _codes(values: Sequence[object]) -> IntArray:
    """Each value's number, 0, 1, … in the order the distinct values first come."""
    seen: dict[object, int] = {}
    for v in values:
        if v not in seen:
            seen[v] = len(seen)
    return np.array([seen[v] for v in values], dtype=np.intp)


def _grouped(*columns: IntArray) -> IntArray:
    """Each row's group of equal ``columns``, numbered 0, 1, … in the order the groups first
    come."""
    size = columns[0].size
    if not size:
        return np.zeros(0, dtype=np.intp)
    order = np.lexsort(columns[::-1])
    change = np.zeros(size, dtype=np.bool_)
    change[0] = True
    for column in columns:
        c = column[order]
        change[1:] |= c[1:] != c[:-1]
    sorted_group = np.cumsum(change) - 1
    group = np.empty(size, dtype=np.intp)
    group[order] = sorted_group
    first = np.full(int(sorted_group[-1]) + 1, size, dtype=np.intp)
    np.minimum.at(first, group, np.arange(size))
    renumber = np.empty(first.size, dtype=np.intp)
    renumber[np.argsort(first, kind="stable")] = np.arange(first.size)
    return renumber[group]


def _by_player_text(
    texts: tuple[str, ...], people: IntArray, made: dict[int, npt.NDArray[np.object_]]
) -> list[str]:
    """``texts[p]`` for each player index ``p``; "" for ``-1`` (nobody). ``made`` keeps each
    distinct tuple's array (every division of a league shares its players' sources)."""
    table = made.get(id(texts))
    if table is None:
        table = made[id(texts)] = np.array([*texts, ""], dtype=object)
    return table[np.where((people >= 0) & (people < len(texts)), people, len(texts))].tolist()  # type: ignore[no-any-return]


def _by_player(values: FloatArray, people: IndexArray, fill: float = math.nan) -> FloatArray:
    """``values[p]`` for each player index ``p``; ``fill`` for ``-1`` (nobody) and for a player
    ``values`` does not reach."""
    out = np.full(people.size, fill)
    known = (people >= 0) & (people < values.size)
    out[known] = values[people[known]]
    return out


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


@dataclass(frozen=True)
class _Entries:
    """What the season's rules read of each board beside :class:`Appearances`: its division
    (as compared), board number (filled in row order where none was given), how many boards
    below it its team played or won by default in the match (:func:`_played_below`), and the
    figure of the division's limits with where it came from."""

    key: Sequence[str]
    board: IntArray
    boards: IntArray
    figure: FloatArray
    source: tuple[str, ...]


class _Played(NamedTuple):
    """One kind of game of a player for a team, as the season's rules count it."""

    team: str
    rank: int | None
    division: str
    level: int | None
    board: int
    below: int


@dataclass
class _Season:
    """What the season's rules read beside a board while the season is walked in date order:
    the boards and their entries, the teams ranked in their clubs, each team's division level,
    the players' registrations and memberships, and what the rules have counted so far (each
    player's first team in each division, his games in divisions limiting non-members)."""

    boards: Appearances
    entries: _Entries
    ranks: Mapping[str, Team]
    team_level: Mapping[str, int | None]
    registrations: Sequence[tuple[tuple[str, dt.date | None], ...]]
    members: Sequence[bool | None]
    league_registered: Sequence[dt.date | None] = ()
    first_team: dict[tuple[int, str], int] = dataclasses.field(default_factory=dict)
    pools: Mapping[str, str] = dataclasses.field(default_factory=dict)
    non_member_games: dict[tuple[int, str], int] = dataclasses.field(
        default_factory=lambda: defaultdict(int)
    )

    round_team: dict[tuple[int, str, object], int] = dataclasses.field(default_factory=dict)
    reserve_places: dict[tuple[str, str], int] = dataclasses.field(
        default_factory=lambda: defaultdict(int)
    )

    def allocated(self, player: int, day: dt.date) -> tuple[str, dt.date | None] | None:
        """The team player ``player`` is registered to on ``day`` and since when (``None``:
        none), of his allocations (:func:`allocations`)."""
        if player < 0 or player >= len(self.registrations):
            return None
        return in_force(self.registrations[player], day)


def _season_rules(
    by_key: Mapping[str, Division],
    boards: Appearances,
    entries: _Entries,
    registrations: Sequence[tuple[str, dt.date | None]],
    members: Sequence[bool | None] = (),
    league_registered: Sequence[dt.date | None] = (),
) -> list[Breach]:
    """The season's rules (the kinds of :data:`RULE_KINDS` that read ``"season"``, in its
    order), in date order, undated rows not counted; a game counts from the day after it was
    played (games the same day do not fix a player):

    - **Playing down** (Nottinghamshire: "after 3 games … for a higher team a player may not
      play for a lower team"): a player who has played ``Games to fix`` games or more for
      higher teams of the club may not play for a lower team in this division; only games on
      the top K boards count (Sheffield: ``Fix by games on top boards`` 2), or above the bottom
      K boards the team played or won by default in that match (Nottinghamshire C4: "above
      the bottom two boards played or won by default", whatever its ``Boards``); ``Playing down by
      division`` counts games in higher divisions and forbids a lower division (Sheffield), a
      lower team in the same division being allowed.
    - **Below the normal team** (LMS: "cannot play two teams below their normal team"): not
      more than ``Teams below normal team`` below the team of his club he has played most for
      (ties: the higher team).
    - **One team per division** (Croydon, North Staffs): a player who has played for one team
      of the division may not play for another; with ``One team exemption margin``, a player
      whose figure is that far or more below the division's average limit is exempt (North
      Staffs: "at least 10 below").
    - **Registered players** (Sheffield, Bristol, Bury & Rochdale, Oxfordshire,
      Northamptonshire): from the day his registration takes effect, a player registered to a
      team may not play for a lower team of its club, or, where the division plays down by
      division, in a lower division than the registered team's.
    - **One team a round** (Leicestershire cups): a player who has played for one team in a
      round of the division may not play for another in it, games of the same day counted;
      a round is the match's date, or by ``Round ends`` the first round not ended.
    - **League registration** (Cheltenham): a player plays only from the day he is
      registered with the league (Players ``League registered``; that day is in time).
    - **Reserve places** (Bournemouth & District: "maximum of 10 Reserve Places"): a board
      played for a team by a player not registered to it that day is one of its reserve
      places, at most ``Max reserve places`` a season, counted as they come.
    - **Games by non-members** (Croydon, North Staffs): a player whom the Players' ``ECF
      member`` says is not a member plays at most ``Max non-member games`` games, counted in
      the division, or in the divisions of its ``Non-member pool`` together (Croydon: "up to
      three games in the main divisions, or six games in the Rapidplay Division").
    """
    found: list[Breach] = []
    kinds = {key: _kinds_on(division, ("season",)) for key, division in by_key.items()}
    allotted: list[tuple[tuple[str, dt.date | None], ...]] = []
    faults: dict[int, str] = {}
    for p, (text, start) in enumerate(registrations):
        try:
            allotted.append(allocations(text, start))
        except GradingError as error:
            allotted.append(())
            faults[p] = str(error)
    for k, p in enumerate(boards.player.tolist()):
        if p in faults:
            why = f"Registered team: {faults.pop(p)}: his registration is not checked"
            found.append(dataclasses.replace(_at(boards, k, NOT_CHECKED, why), board=None))
    registered = any(allotted)
    if not registered and not any(kind.switches for on in kinds.values() for kind in on):
        return found
    declared = [
        d.team_order
        for d in sorted(by_key.values(), key=lambda d: (d.level or 10**9, d.row or 0))
        if d.team_order
    ]
    distinct = {id(team): team for team in boards.team}.values()
    listed = [*distinct, *(parse_team(team) for each in allotted for team, _ in each)]
    ranks = rank_teams(list({team.name.casefold(): team for team in listed}.values()), declared)
    team_level: dict[str, int | None] = {}
    for d in by_key.values():
        for _, names in declared_order(d.team_order or ""):
            for name in names:
                team_level.setdefault(name.casefold(), d.level)
    sides = {
        (id(team), key): (team, key) for team, key in zip(boards.team, entries.key, strict=True)
    }
    for team, key in sides.values():
        division = by_key.get(key)
        level = division.level if division is not None else None
        team_level.setdefault(team.name.casefold(), level)
    state = _Season(boards, entries, ranks, team_level, allotted, members, league_registered)
    state.pools = {key: _pool(key, division) for key, division in by_key.items()}
    walked = _Walked.of(boards, entries, kinds, allotted, members)
    played = walked.order
    # Each mover's games so far for each club, counted at the day's end: each kind of game
    # (team, division, board) once, with how many.
    history: dict[tuple[int, str], dict[_Played, int]] = defaultdict(dict)
    person = boards.player.tolist()
    ranked = {id(team): ranks[team.name.casefold()] for team in distinct}
    team_of = {k: ranked[id(boards.team[k])] for k in played}
    club_of = {k: team.club.casefold() for k, team in team_of.items()}
    board_of, width_of = entries.board.tolist(), entries.boards.tolist()
    mover, date_of = walked.mover, boards.date
    for day, same_day in itertools.groupby(played, key=lambda k: date_of[k]):
        assert day is not None
        today = list(same_day)
        for k in today:
            division = by_key.get(entries.key[k])
            if division is None:
                continue
            team = team_of[k]
            past = history[(person[k], club_of[k])] if mover[k] else {}
            for kind in walked.kinds_of(k):
                why = kind.check(division, state, k, team, past, day)
                if why is not None:
                    found.append(_at(boards, k, kind.name, why))
        for k in today:
            team = team_of[k]
            division = by_key.get(entries.key[k])
            if division is not None:
                for kind in walked.kinds_of(k):
                    if kind.record is not None:
                        kind.record(state, k)
            if not mover[k]:
                continue
            game = _Played(
                team.name,
                team.rank,
                boards.division[k],
                division.level if division else None,
                board_of[k],
                width_of[k],
            )
            past = history[(person[k], club_of[k])]
            past[game] = past.get(game, 0) + 1
    return found


@dataclass(frozen=True)
class _Walked:
    """Which boards the season's rules walk, in date order, and which of their kinds each is
    checked by: a kind's ``who`` (:class:`RuleKind`) says whose games can break it, so a player
    who plays for one team all season is not walked for playing down or one team, nor a member
    for the non-members' limit.

    Attributes:
        order: the boards walked (played, with a player and a date), by date, row and place.
        mover: by board, whether its player plays for more than one team (or division).
        kinds: by board, its division's season kinds that apply to its player.
    """

    order: list[int]
    mover: list[bool]
    kinds: list[tuple[RuleKind, ...]]

    def kinds_of(self, k: int) -> tuple[RuleKind, ...]:
        return self.kinds[k]

    @classmethod
    def of(
        cls,
        boards: Appearances,
        entries: _Entries,
        kinds: Mapping[str, tuple[RuleKind, ...]],
        allotted: Sequence[tuple[tuple[str, dt.date | None], ...]],
        members: Sequence[bool | None],
    ) -> _Walked:
        size = len(entries.key)
        people = boards.player
        dated = np.array([day is not None for day in boards.date], dtype=np.bool_)
        live = (people >= 0) & ~boards.defaulted & dated
        key_id = _codes(entries.key)
        sides = (
            _codes([team.name.casefold() for team in boards.team])
            * (int(key_id.max(initial=0)) + 1)
            + key_id
        )
        mover_of = np.zeros(int(people.max(initial=-1)) + 1, dtype=np.bool_)
        if live.any():
            pairs = np.unique(np.stack([people[live], sides[live]]), axis=1)
            counts = np.bincount(pairs[0], minlength=mover_of.size)
            mover_of = counts > 1
        mover = np.zeros(size, dtype=np.bool_)
        mover[live] = mover_of[people[live]]
        registered = np.array([bool(a) for a in allotted], dtype=np.bool_)
        outsider = np.array([m is False for m in members], dtype=np.bool_)

        def has(flags: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
            out = np.zeros(size, dtype=np.bool_)
            known = live & (people < flags.size)
            out[known] = flags[people[known]]
            return out

        flags = mover * 4 + has(registered) * 2 + has(outsider)
        names = list(dict.fromkeys(entries.key))
        table: dict[int, tuple[RuleKind, ...]] = {}
        for i, name in enumerate(names):
            for code in range(8):
                who = {"movers": code & 4, "registered": code & 2, "non-members": code & 1}
                table[i * 8 + code] = tuple(
                    kind for kind in kinds.get(name, ()) if kind.who == "all" or who[kind.who]
                )
        place = key_id * 8 + flags
        any_kind = np.array([bool(table[c]) for c in range(len(names) * 8)], dtype=np.bool_)
        chosen = [table[c] for c in place.tolist()]
        wanted = live & (any_kind[place] | mover) if size else live
        walked = np.flatnonzero(wanted).tolist()
        walked.sort(key=lambda k: (boards.date[k], boards.row[k] or 0, k))
        return cls(walked, mover.tolist(), chosen)


def _playing_down(
    division: Division,
    state: _Season,
    k: int,
    team: Team,
    past: Mapping[_Played, int],
    day: dt.date,
) -> str | None:
    """The playing-down breach of board ``k``, if any (:func:`_season_rules`; the division
    fixes players)."""
    limit = division.games_to_fix
    assert limit is not None
    top, bottom = division.fix_top_boards, division.fix_above_bottom

    def counts(game: _Played) -> bool:
        if division.down_by_division:
            level = division.level
            higher = level is not None and game.level is not None and game.level < level
        else:
            higher = team.rank is not None and game.rank is not None
            higher = higher and game.rank < team.rank  # type: ignore[operator]
        return (
            higher
            and (top is None or game.board <= top)
            and (bottom is None or game.below >= bottom)
        )

    counted = [(game, n) for game, n in past.items() if counts(game)]
    total = sum(n for _, n in counted)
    if total < limit:
        return None
    tally: dict[str, int] = defaultdict(int)
    for game, n in counted:
        tally[game.division if division.down_by_division else game.team] += n
    return _playing_down_why(division, state.boards.name[k], team, total, tally, day)


def _playing_down_why(
    division: Division, player: str, team: Team, total: int, tally: Mapping[str, int], day: dt.date
) -> str:
    """Playing down's message: the games that fixed the player, where, and the limit."""
    top, bottom, limit = division.fix_top_boards, division.fix_above_bottom, division.games_to_fix
    listed = ", ".join(f"{name} {n}" for name, n in sorted(tally.items()))
    where = ""
    if top is not None:
        where += f" on the top {top} {_boards(top)}"
    if bottom is not None:
        where += f" above the bottom {bottom} {_boards(bottom)}"
    if division.down_by_division:
        return (
            f"{player} had played {total} {_games(total)}{where} for {team.club} in "
            f"higher divisions ({listed}) before {day.isoformat()}; after {limit} a player may "
            "not play in a lower division"
        )
    return (
        f"{player} had played {total} {_games(total)}{where} for higher teams of "
        f"{team.club} ({listed}) before {day.isoformat()}; after {limit} a player may not play "
        "for a lower team"
    )


def _below_normal(
    division: Division,
    state: _Season,
    k: int,
    team: Team,
    past: Mapping[_Played, int],
    day: dt.date,
) -> str | None:
    """The breach of board ``k`` of the normal-team rule, if any (:func:`_season_rules`)."""
    limit = division.max_below_normal
    if limit is None or team.rank is None:
        return None
    tally: dict[str, tuple[int, int]] = {}
    for game, n in past.items():
        if game.rank is not None:
            games, _ = tally.get(game.team, (0, game.rank))
            tally[game.team] = (games + n, game.rank)
    if not tally:
        return None
    normal, (games, rank) = max(tally.items(), key=lambda item: (item[1][0], -item[1][1]))
    below = team.rank - rank
    if below <= limit:
        return None
    return _below_normal_why(state.boards.name[k], normal, games, day, team, below, limit)


def _below_normal_why(
    player: str, normal: str, games: int, day: dt.date, team: Team, below: int, limit: int
) -> str:
    """The normal-team rule's message: the normal team, its games, how far below."""
    return (
        f"{player}'s normal team is {normal} ({games} {_games(games)} before "
        f"{day.isoformat()}); {team.name} is {below} teams below it, more than {limit}"
    )


def _one_team(
    division: Division,
    state: _Season,
    k: int,
    team: Team,
    past: Mapping[_Played, int],
    day: dt.date,
) -> str | None:
    """The one-team-per-division breach of board ``k``, if any (:func:`_season_rules`; the
    division has the rule)."""
    boards, entries = state.boards, state.entries
    player = int(boards.player[k])
    figure = float(entries.figure[k])
    margin, limit = division.one_team_margin, division.average_limit
    if margin is not None and limit is not None and figure <= limit - margin:
        return None  # exempt; NaN (no figure) is not
    earlier = state.first_team.setdefault((player, entries.key[k]), k)
    if boards.team[earlier].name == boards.team[k].name:
        return None
    return _one_team_why(division, state, k, earlier)


def _one_team_why(division: Division, state: _Season, k: int, earlier: int) -> str:
    """One team per division's message: the first team, and the exemption the player misses."""
    boards, entries = state.boards, state.entries
    first_day = boards.date[earlier]
    assert first_day is not None
    why = (
        f"{boards.name[k]} played for {boards.team[earlier].name} in {boards.division[k]} on "
        f"{first_day.isoformat()}; a player plays for one team of the division"
    )
    margin, limit = division.one_team_margin, division.average_limit
    if margin is not None and limit is not None:
        figure = float(entries.figure[k])
        shown = Board(0, "", None if math.isnan(figure) else figure, source=entries.source[k])
        why += (
            f" (exempt at {_number(margin)} or more below the average limit {_number(limit)}, "
            f"{_number(limit - margin)} or less: {boards.name[k]} has {_shown(shown)})"
        )
    return why


def _registered(
    division: Division,
    state: _Season,
    k: int,
    team: Team,
    past: Mapping[_Played, int],
    day: dt.date,
) -> str | None:
    """The registration breach of board ``k``, if any (:func:`_season_rules`)."""
    boards = state.boards
    allotted = state.allocated(int(boards.player[k]), day)
    if allotted is None:
        return None
    name, start = allotted
    own = state.ranks[parse_team(name).name.casefold()]
    if own.club.casefold() != team.club.casefold() or own.name.casefold() == team.name.casefold():
        return None
    if division.down_by_division:
        level, registered = division.level, state.team_level.get(own.name.casefold())
        if level is None or registered is None or level <= registered:
            return None
    elif own.rank is None or team.rank is None or team.rank <= own.rank:
        return None
    return _registered_why(division, boards.name[k], own, start, boards.division[k])


_FROM: Final = re.compile(r"(.*?\S)\s+from\s+(\S.*)", re.IGNORECASE)


def allocations(text: str, start: dt.date | None = None) -> tuple[tuple[str, dt.date | None], ...]:
    """A player's team allocations from a ``Registered team`` cell: one team, or successive
    teams apart by ``;``, each after the first with the day it takes effect (``Redmire B;
    Redmire A from 2025-11-02``: B until 1 November, A after); the first takes effect on
    ``start`` (``Registered from``; ``None``: the whole season).

    >>> allocations("Redmire B; Redmire A from 2/11/2025")
    (('Redmire B', None), ('Redmire A', datetime.date(2025, 11, 2)))

    Raises:
        GradingError: a later team without its day, a day not read, or days out of order,
            quoting the cell.
    """
    parts = [" ".join(part.split()) for part in text.split(";")]
    parts = [part for part in parts if part]
    out: list[tuple[str, dt.date | None]] = []
    for place, part in enumerate(parts):
        found = _FROM.fullmatch(part)
        if found is None:
            if place:
                raise GradingError(
                    f"{quote(part)} of {quote(text)} needs the day it takes effect "
                    "('Redmire A from 2025-11-02')"
                )
            out.append((part, start))
            continue
        try:
            day = cells.date(found[2])
        except GradingError as error:
            raise GradingError(f"{quote(text)}: {error}") from None
        previous = out[-1][1] if out else None
        if previous is not None and day is not None and day <= previous:
            raise GradingError(f"{quote(text)}: the days are not in order")
        out.append((found[1], day))
    return tuple(out)


def in_force(
    allotted: Sequence[tuple[str, dt.date | None]], day: dt.date
) -> tuple[str, dt.date | None] | None:
    """The allocation of ``allotted`` in force on ``day``: the last that has taken effect."""
    current = None
    for team, since in allotted:
        if since is None or since <= day:
            current = (team, since)
    return current


def _registered_why(
    division: Division, player: str, own: Team, start: dt.date | None, played_in: str
) -> str:
    """The registration rule's message: the registered team, from when, and what it forbids."""
    since = f" from {start.isoformat()}" if start is not None else ""
    if division.down_by_division:
        return (
            f"{player} is registered to {own.name}{since}, a team of a higher division "
            f"than {played_in}; a registered player may not play in a lower division"
        )
    return (
        f"{player} is registered to {own.name}{since}; a registered player may not play "
        "for a lower team"
    )


def _non_member(
    division: Division,
    state: _Season,
    k: int,
    team: Team,
    past: Mapping[_Played, int],
    day: dt.date,
) -> str | None:
    """The breach of board ``k`` of the limit on non-members' games, if any: his games in the
    division's pool (``Non-member pool``; blank: the division alone) before the day."""
    limit, members = division.max_non_member_games, state.members
    player = int(state.boards.player[k])
    if limit is None or player >= len(members) or members[player] is not False:
        return None
    pool = state.pools[state.entries.key[k]]
    games = state.non_member_games.get((player, pool), 0)
    if games < limit:
        return None
    if division.non_member_pool is not None:
        where = f"the {division.non_member_pool.strip()} divisions"
    else:
        where = state.boards.division[k]
    return _non_member_why(state.boards.name[k], games, day, limit, where)


def _reserve(
    division: Division,
    state: _Season,
    k: int,
    team: Team,
    past: Mapping[_Played, int],
    day: dt.date,
) -> str | None:
    """The reserve-place breach of board ``k``, if any: a board played for the team by a
    player not registered to it that day is one of its reserve places, counted as they come
    (board by board, match by match: the places of one match count in it), the team's
    ``Max reserve places`` and no more in the season."""
    limit = division.max_reserve_places
    assert limit is not None
    allotted = state.allocated(int(state.boards.player[k]), day)
    own = "" if allotted is None else allotted[0]
    if own and parse_team(own).name.casefold() == team.name.casefold():
        return None
    key = (state.entries.key[k], team.name.casefold())
    state.reserve_places[key] += 1
    used = state.reserve_places[key]
    if used <= limit:
        return None
    return _reserve_why(state.boards.name[k], team.name, own, used, limit)


def _reserve_why(player: str, team: str, own: str, used: int, limit: int) -> str:
    """The reserve places' message: whose team he is, the place, the limit."""
    registered = f"registered to {own}" if own else "registered to no team"
    return (
        f"{player} ({registered}) is a reserve for {team}: its reserve place {used} of the "
        f"season; a team has at most {limit}"
    )


def _one_team_round(
    division: Division,
    state: _Season,
    k: int,
    team: Team,
    past: Mapping[_Played, int],
    day: dt.date,
) -> str | None:
    """The one-team-a-round breach of board ``k``, if any: the player played for another team
    in the same round of the division (games of the same day count: a round's matches are
    often played on one day)."""
    boards = state.boards
    here, words = _round_of(division, day)
    key = (int(boards.player[k]), state.entries.key[k], here)
    earlier = state.round_team.setdefault(key, k)
    if boards.team[earlier].name == team.name:
        return None
    return _one_team_round_why(boards.name[k], boards.team[earlier].name, words, boards.division[k])


def _one_team_round_why(player: str, first: str, words: str, division: str) -> str:
    """One team a round's message: the team he played for first in the round."""
    return (
        f"{player} played for {first} in {words} of {division}; a player plays for one team a round"
    )


def _league_registered(
    division: Division,
    state: _Season,
    k: int,
    team: Team,
    past: Mapping[_Played, int],
    day: dt.date,
) -> str | None:
    """The league-registration breach of board ``k``, if any: the player has no ``League
    registered`` day, or a later one than the match's (registered on the day is in time)."""
    player = int(state.boards.player[k])
    registered = state.league_registered
    since = registered[player] if 0 <= player < len(registered) else None
    if since is not None and since <= day:
        return None
    return _league_registered_why(state.boards.name[k], since, day)


def _league_registered_why(player: str, since: dt.date | None, day: dt.date) -> str:
    """The league registration's message: not registered, or registered after the match."""
    if since is None:
        return (
            f"{player} is not registered with the league (no 'League registered' day); a "
            "player is registered before he plays"
        )
    return (
        f"{player} was registered with the league on {since.isoformat()}, after this game of "
        f"{day.isoformat()}; a player is registered before he plays"
    )


def _pool(key: str, division: Division) -> str:
    """The pool a division counts non-members' games in: its ``Non-member pool`` (case and
    spacing ignored), else its own."""
    if division.non_member_pool is not None:
        return "pool " + _division_key(division.non_member_pool)
    return "division " + key


def _non_member_why(player: str, games: int, day: dt.date, limit: int, where: str = "") -> str:
    """The non-members' limit's message: the games played (and where), the limit."""
    counted = f" in {where}" if where else ""
    return (
        f"{player} is not an ECF member and had played {games} {_games(games)}{counted} before "
        f"{day.isoformat()}; a non-member plays at most {limit}"
    )


def _count_non_member(state: _Season, k: int) -> None:
    """A game in a division that limits non-members' games, counted for its player in the
    division's pool."""
    pool = state.pools[state.entries.key[k]]
    state.non_member_games[(int(state.boards.player[k]), pool)] += 1


def _games(count: int) -> str:
    return "game" if count == 1 else "games"


def _boards(count: int) -> str:
    return "board" if count == 1 else "boards"


# --------------------------------------------------------------------------------------------
# The kinds of rule

Reads = Literal["boards", "total", "season"]
"""What a kind of rule checks (:attr:`RuleKind.reads`)."""


@dataclass(frozen=True, slots=True)
class RuleKind:
    """One kind of rule of the Divisions table: a row of :data:`RULE_KINDS`.

    Attributes:
        name: the rule a breach names (:attr:`Breach.rule`, one of :data:`RULES`).
        columns: the :class:`Division` fields (:data:`DIVISION_COLUMNS`) it reads.
        switches: those of ``columns`` that turn it on, any one given (none: it is on wherever
            its input is, as registrations are on the Players table).
        reads: what it checks, which says its checks' forms:

            - ``"boards"``: one team's boards in one match. ``check(division, team)`` takes a
              :class:`_Team` and returns its breaches; ``check_array(division, s)`` takes every
              team of the division (:class:`_Sorted`) and returns them with their sort keys.
            - ``"total"``: a team's counting total. ``check(division, total)`` takes a
              :class:`Total` and returns the breach or ``None``; ``check_array(division,
              counted)`` takes every team's (:class:`_Counted`) and returns which teams may
              break it, whose totals are then written out and checked by ``check``.
            - ``"season"``: each game against the player's earlier games, the season walked
              once in date order (:func:`_season_rules`). ``check(division, season, k, team,
              past, day)`` returns the breach's why or ``None``; there is no array form.
        by: the figure its breaches say they used, where the division names one: ``"figure"``
            the limits' (``Eligibility figure``), ``"order"`` board order's, ``""`` none.
        check: its scalar form.
        check_array: its array form (``None`` for a season rule).
        message: writes a breach's why, for both forms.
        record: a season rule's count of each game at the day's end (``None``: the games each
            player has played for each team, which every season rule is given, suffice).
        who: whose games a season rule can break, so that the others' are not walked:
            ``"movers"`` players who play for more than one team (or one team in more than one
            division) in the season, ``"registered"`` players with a ``Registered team``,
            ``"non-members"`` players whose ``ECF member`` is no, ``"all"`` every player.
    """

    name: str
    columns: tuple[str, ...]
    switches: tuple[str, ...]
    reads: Reads
    by: Literal["figure", "order", ""]
    check: Callable[..., Any]
    check_array: Callable[..., Any] | None
    message: Callable[..., str]
    record: Callable[[_Season, int], None] | None = None
    who: Literal["movers", "registered", "non-members", "all"] = "all"

    def on(self, division: Division) -> bool:
        """Whether ``division`` has this rule: one of its switches is given."""
        if not self.switches:
            return True
        values = [getattr(division, f) for f in self.switches]
        return any(value is not None and value is not False for value in values)


RULE_KINDS: Final = (
    RuleKind(
        BOARD_ORDER,
        ("board_order_tolerance", "board_order_higher_by", "junior_allowance", "adjacent_within"),
        ("board_order_tolerance", "board_order_higher_by"),
        "boards",
        "order",
        _order_check,
        _order_found,
        _order_why,
    ),
    RuleKind(
        MAX_GRADE,
        ("max_grade",),
        ("max_grade",),
        "boards",
        "figure",
        _max_check,
        _max_found,
        _max_why,
    ),
    RuleKind(
        BOARD_LIMIT,
        ("board_limits",),
        ("board_limits",),
        "boards",
        "figure",
        _board_limit_check,
        _board_limit_found,
        _board_limit_why,
    ),
    RuleKind(
        MAX_FIDE, ("max_fide",), ("max_fide",), "boards", "", _fide_check, _fide_found, _fide_why
    ),
    RuleKind(
        PLAYERS_OVER,
        ("max_players_over", "over_grade"),
        ("max_players_over", "over_grade"),
        "boards",
        "figure",
        _over_check,
        _over_found,
        _over_why,
    ),
    RuleKind(
        MAX_TOTAL,
        ("max_total",),
        ("max_total",),
        "total",
        "figure",
        _max_total_check,
        _max_total_suspects,
        _total_why,
    ),
    RuleKind(
        MAX_AVERAGE,
        ("max_average",),
        ("max_average",),
        "total",
        "figure",
        _max_average_check,
        _max_average_suspects,
        _average_why,
    ),
    RuleKind(
        MIN_AVERAGE,
        ("min_average",),
        ("min_average",),
        "total",
        "figure",
        _min_average_check,
        _min_average_suspects,
        _min_average_why,
    ),
    RuleKind(
        TOP_AVERAGE,
        ("top_boards", "max_top_average"),
        ("top_boards", "max_top_average"),
        "total",
        "figure",
        _top_average_check,
        _top_average_suspects,
        _top_why,
    ),
    RuleKind(
        PLAYING_DOWN,
        ("games_to_fix", "fix_top_boards", "fix_above_bottom", "down_by_division", "level"),
        ("games_to_fix",),
        "season",
        "",
        _playing_down,
        None,
        _playing_down_why,
        who="movers",
    ),
    RuleKind(
        BELOW_NORMAL,
        ("max_below_normal",),
        ("max_below_normal",),
        "season",
        "",
        _below_normal,
        None,
        _below_normal_why,
        who="movers",
    ),
    RuleKind(
        ONE_TEAM,
        ("one_team", "one_team_margin"),
        ("one_team",),
        "season",
        "",
        _one_team,
        None,
        _one_team_why,
        who="movers",
    ),
    RuleKind(
        REGISTERED,
        ("down_by_division", "level"),
        (),
        "season",
        "",
        _registered,
        None,
        _registered_why,
        who="registered",
    ),
    RuleKind(
        ONE_TEAM_ROUND,
        ("one_team_round", "round_ends"),
        ("one_team_round",),
        "season",
        "",
        _one_team_round,
        None,
        _one_team_round_why,
        who="movers",
    ),
    RuleKind(
        LEAGUE_REGISTERED,
        ("league_registration",),
        ("league_registration",),
        "season",
        "",
        _league_registered,
        None,
        _league_registered_why,
    ),
    RuleKind(
        RESERVES,
        ("max_reserve_places",),
        ("max_reserve_places",),
        "season",
        "",
        _reserve,
        None,
        _reserve_why,
    ),
    RuleKind(
        NON_MEMBER,
        ("max_non_member_games", "non_member_pool"),
        ("max_non_member_games",),
        "season",
        "",
        _non_member,
        None,
        _non_member_why,
        _count_non_member,
        who="non-members",
    ),
)
"""Every kind of rule of the Divisions table, one entry each, in the order a team's breaches
are listed: its columns, what it reads, its check in scalar and array form, its message. A new
kind is one entry here (and its functions); its columns are rows of :data:`DIVISION_COLUMNS`."""

RULES: Final = tuple(kind.name for kind in RULE_KINDS)
"""Every rule a breach may name, in the order a team's breaches are listed (:data:`RULE_KINDS`)."""

_KINDS: Final = {kind.name: kind for kind in RULE_KINDS}
_RANK: Final = {rule: place for place, rule in enumerate(RULES)}
"""Each rule's place in :data:`RULES`: the order of a team's breaches."""
_TEAM_READS: Final = ("boards", "total")
"""What the checks of one team in one match read (:func:`team_breaches`)."""

assert {f for kind in RULE_KINDS for f in kind.columns} <= {c.field for c in DIVISION_COLUMNS}


@functools.lru_cache(maxsize=1024)
def _kinds_on(division: Division, reads: tuple[str, ...]) -> tuple[RuleKind, ...]:
    """The kinds of rule ``division`` has that read ``reads``, in the table's order (kept for
    each division: the scalar form asks once a team)."""
    return tuple(kind for kind in RULE_KINDS if kind.reads in reads and kind.on(division))


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


@dataclass(frozen=True)
class PlayerFigures:
    """Each player's figure for one rule of one division, and where it came from.

    Attributes:
        value: the figure by player index, NaN where he has none (ungraded, no estimate).
        source: "" where it is the rule's first choice, else its label ("estimated grade",
            "ECF rating" for a rapid limit's fallback).
        label: the rule's first choice as a breach names it ("latest ECF rating"); "" for the
            grade, which needs no saying.
    """

    value: FloatArray
    source: tuple[str, ...]
    label: str = ""


@dataclass(frozen=True)
class ListFigures:
    """A rule's figures by edition of the rating list, for a division whose ``Rating list``
    (or ``Board order list``) is ``match date``, or an edition that may not be loaded.

    Attributes:
        choice: the division's list (:data:`xlgrade.editions.MATCH_DATE` or a month).
        history: the editions loaded.
        figures: the rule's figures on each edition loaded (:func:`player_figures`).
    """

    choice: ListChoice
    history: RatingHistory
    figures: Mapping[dt.date, PlayerFigures]

    def at(self, day: dt.date | None) -> PlayerFigures | str:
        """The figures of the edition the division takes for a match on ``day``, or why
        there is none."""
        month = self.history.edition(self.choice, day)
        if month is not None and month in self.figures:
            return self.figures[month]
        loaded = f"(loaded: {self.history.loaded()})"
        if isinstance(self.choice, dt.date):
            named = edition_name(self.choice)
            return f"the division's {named} list is not on the Ratings sheet {loaded}"
        if day is None:
            return "the division takes the list in force on the match date and the row has no date"
        return f"no rating list loaded was in force on {day.isoformat()} {loaded}"


DivisionFigures = tuple[PlayerFigures | ListFigures, PlayerFigures | ListFigures]
"""A division's figures by player (:func:`player_figures`): for its limits, and for board order;
by edition where it takes a list by date (:class:`ListFigures`)."""


def _is_partial(category: object) -> bool:
    return isinstance(category, str) and category.strip().upper().startswith("P")


_LISTED: Final = {
    "rating": "rating",
    "rating_category": "category",
    "rapid_rating": "rapid_rating",
    "rapid_category": "rapid_category",
}
"""The Players fields an edition of the rating list gives (:class:`ListedRating`'s fields)."""


def _figure_of(player: Player, field: str, edition: tuple[RatingHistory, dt.date] | None) -> object:
    """A player's ``field``: from the edition where it gives that field, else his own."""
    if edition is None or field not in _LISTED:
        return getattr(player, field, None)
    history, month = edition
    listed = history.entry(player.code, month)
    return None if listed is None else getattr(listed, _LISTED[field])


def player_figures(
    players: Sequence[Player],
    chain: Sequence[Figure],
    p_ratings: str | None = None,
    edition: tuple[RatingHistory, dt.date] | None = None,
) -> PlayerFigures:
    """Each player's figure for a rule using the figures ``chain`` (first choice first): the
    first he has, else his estimate on the chain's scale (Players ``Estimated grade`` or
    ``Estimated rating``), else none (the division's ``Ungraded grade`` then counts for him).

    Rules (docs/rules.md §13; issue 23's handbooks): "estimated or temporary grades for
    ungraded players, given per player by the grading officer or captain (most leagues)"; rapid
    divisions limit by "rapid ratings … falling back to standard then an estimate"; a P rating
    counts as any (``p_ratings`` blank or ``count``), as an estimate (``estimate``: the
    player's own estimate first, else the P rating, said so), or not at all (``ignore``).
    With ``edition`` (the editions loaded and one of them), the ratings and categories are
    that edition's, by ECF code (a player not on it has none), and the label names it.
    """
    how = (p_ratings or "count").strip().casefold()
    estimate = ESTIMATES[chain[0].scale] if chain else None
    values = np.full(len(players), np.nan)
    sources: list[str] = []
    for k, player in enumerate(players):
        found: tuple[float, str] | None = None
        for place, figure in enumerate(chain):
            value = _figure_of(player, figure.field, edition)
            if not isinstance(value, int | float):
                continue
            label = "" if place == 0 else figure.label
            category = (
                None if figure.category is None else _figure_of(player, figure.category, edition)
            )
            if figure.category is not None and _is_partial(category):
                if how == "ignore":
                    continue
                if how == "estimate":
                    own = None if estimate is None else getattr(player, estimate.field, None)
                    if own is not None:
                        found = (float(own), estimate.label if estimate else "")
                    else:
                        found = (float(value), f"{figure.label} P, as an estimate")
                    break
            found = (
                float(convert.grade_to_ecf_rating(value)) if figure.converted else float(value),
                label,
            )
            break
        if found is None and estimate is not None:
            own = getattr(player, estimate.field, None)
            if own is not None:
                found = (float(own), estimate.label)
        if found is not None:
            values[k] = found[0]
        sources.append("" if found is None else found[1])
    label = "" if not chain or chain[0].name == "grade" else chain[0].label
    if edition is not None and chain and chain[0].field in _LISTED:
        label = f"{label} of the {edition_name(edition[1])} list"
    return PlayerFigures(values, tuple(sources), label)


def figures(players: Sequence[Player], figure: str = "grade") -> list[float | None]:
    """Each player's figure for the divisions' rules: his published grade at the start of the
    season (``"grade"``), or his ECF rating (``"rating"``), or another list of
    :func:`figure_list`; his estimate where he has none (:func:`player_figures`); ``None``
    where he has neither.

    Rule: docs/rules.md §13, "the list used (fixed for eligibility…)": the Players table's
    figures are the season's fixed list.
    """
    found = player_figures(players, figure_list(figure))
    return [None if math.isnan(v) else float(v) for v in found.value.tolist()]


def league_breaches(
    result: SeasonResult,
    divisions: Mapping[str, Division],
    ratings: RatingHistory | None = None,
    lineup: LineUp | None = None,
) -> list[Breach]:
    """Every breach of ``divisions``' rules in the season ``result`` was graded from, and the
    rows that could not be checked (:func:`season_breaches`), each division with its own
    figures (``Eligibility figure`` and ``Board order figure``, blank: the setting
    ``Eligibility figure``; each player's estimate where he has none) and the players'
    registrations. The games are all the Results rows as typed, graded or not, each row's players
    and result as the season resolved them (:attr:`SeasonResult.resolved`): a breach is the
    grader's to rule on, and the game is still graded as played. A division with a ``Rating
    list`` (or ``Board order list``) takes its ratings from that edition of ``ratings`` (the
    Ratings sheet), or from the edition in force on each match's date. With ``lineup``, the
    proposed line-up is checked as a match of the season (:func:`lineup_breaches`).
    """
    if not divisions:
        return []
    which = result.settings.eligibility_figure
    players = result.players
    shown = figures(players, which)
    if (
        players
        and all(f is None for f in shown)
        and not any(
            d.eligibility_figure or d.board_order_figure or d.rating_list or d.board_order_list
            for d in divisions.values()
        )
    ):
        why = (
            f"no player has {'a grade' if which == 'grade' else 'an ECF rating'} on the Players "
            "table (the setting 'Eligibility figure' is "
            f"{quote(which)}): no rule that uses a figure can be checked"
        )
        return [Breach(NOT_CHECKED, why)]
    made: dict[tuple[object, ...], PlayerFigures] = {}
    history = ratings if ratings is not None else RatingHistory((), {})

    def of(
        chain: tuple[Figure, ...], p_ratings: str | None, month: dt.date | None = None
    ) -> PlayerFigures:
        key = (tuple(f.name for f in chain), p_ratings, month)
        if key not in made:
            edition = None if month is None else (history, month)
            made[key] = player_figures(players, chain, p_ratings, edition)
        return made[key]

    def chosen(
        chain: tuple[Figure, ...], p_ratings: str | None, choice: ListChoice | None
    ) -> PlayerFigures | ListFigures:
        if choice is None:
            return of(chain, p_ratings)
        if isinstance(choice, dt.date) and choice in history.by_month:
            return of(chain, p_ratings, choice)
        months = history.months if not isinstance(choice, dt.date) else ()
        return ListFigures(choice, history, {m: of(chain, p_ratings, m) for m in months})

    own: dict[str, DivisionFigures] = {}
    for name, d in divisions.items():
        limits, order = d.lists
        own[name] = (
            chosen(d.figures(which), d.p_ratings, limits),
            chosen(d.order_figures(which), d.p_ratings, order),
        )
    resolved = result.resolved
    games, home, away = list(result.games), resolved.white.tolist(), resolved.black.tolist()
    scores = resolved.scores()
    if lineup is not None:
        proposed = lineup.games(players)
        games += proposed
        home += [index for index, _ in lineup.players(players)]
        away += [-1] * len(proposed)
        scores += [(None, None, True)] * len(proposed)
    boards = appearances(
        games,
        home,
        away,
        shown,
        [p.name for p in players],
        divisions,
        (
            {r: f.why for r, f in resolved.home_failures.items()},
            {r: f.why for r, f in resolved.away_failures.items()},
        ),
        scores,
    )
    registrations = [(p.registered_team, p.registered_from) for p in players]
    on = result.settings.age_date
    juniors = [
        p.junior if p.date_of_birth is None else age_on(p.date_of_birth, on) < JUNIOR_UNDER
        for p in players
    ]
    return season_breaches(
        divisions,
        boards,
        own,
        registrations,
        juniors=juniors,
        fide=[p.fide_rating for p in players],
        members=[p.ecf_member for p in players],
        league_registered=[p.league_registered for p in players],
    )


LINEUP_OPPONENT: Final = "the opponents"
"""The other side of a proposed line-up's match (:class:`LineUp`): it has no boards."""


@dataclass(frozen=True)
class LineUp:
    """A captain's proposed line-up: the team's players, board by board, for a match on a day.

    Attributes:
        division: the division, as the Divisions sheet names it.
        team: the team (``Redmire A``).
        date: the match's day.
        boards: ``(board, player)`` in board order: the player by ECF code or name, as on the
            Players table ("" for a board left empty: a default).
    """

    division: str
    team: str
    date: dt.date
    boards: tuple[tuple[int, str], ...]

    @property
    def match(self) -> str:
        """The proposed match as a Results ``Match`` cell names it."""
        return f"{self.team} v {LINEUP_OPPONENT}"

    def players(self, players: Sequence[Player]) -> list[tuple[int, str]]:
        """Each board's player index in ``players`` (−1: none) and the reason it has none:
        a code or a name (case and spacing ignored) of one Players row.

        Raises:
            GradingError: a player not on the Players table, or a name on several rows,
                naming the board and quoting it.
        """
        by_code: dict[str, int] = {}
        by_name: dict[str, list[int]] = defaultdict(list)
        for index, p in enumerate(players):
            if p.code:
                by_code["".join(p.code.split()).upper()] = index
            by_name[" ".join(p.name.split()).casefold()].append(index)
        out: list[tuple[int, str]] = []
        for number, typed in self.boards:
            text = " ".join(typed.split())
            if not text:
                out.append((-1, ""))
                continue
            code = by_code.get(text.replace(" ", "").upper())
            named = by_name.get(text.casefold(), [])
            if code is not None:
                out.append((code, ""))
            elif len(named) == 1:
                out.append((named[0], ""))
            elif named:
                raise GradingError(
                    f"board {number}: {quote(typed)} is the name of {len(named)} Players rows: "
                    "give the player's ECF code"
                )
            else:
                raise GradingError(f"board {number}: {quote(typed)} is not on the Players table")
        return out

    def games(self, players: Sequence[Player]) -> list[Game]:
        """The line-up as Results rows of its match (no row numbers: a breach of it is the
        line-up's); the opponents have no boards. ``players`` checks the names first."""
        self.players(players)
        return [
            Game(typed, "", "", self.date, self.division, self.match, number)
            for number, typed in self.boards
        ]


def lineup_breaches(
    result: SeasonResult,
    divisions: Mapping[str, Division],
    lineup: LineUp,
    ratings: RatingHistory | None = None,
) -> list[Breach]:
    """Every rule of the line-up's division the proposed line-up would break, played on its
    day after the season's games so far: its boards' rules (board order, limits, totals) and
    the season's (playing down, one team, registrations, reserve places…), each breach as the
    season's checks write it (:func:`league_breaches`). A captain's check before the match.

    Raises:
        GradingError: the division is not on the Divisions sheet, the team is not of the
            ``Home v Away`` form a match takes, or a player is not on the Players table.
    """
    wanted = _division_key(lineup.division)
    chosen = {name: d for name, d in divisions.items() if _division_key(name) == wanted}
    if not chosen:
        known = ", ".join(repr(name) for name in divisions) or "none"
        raise GradingError(
            f"division {quote(lineup.division)} is not on the Divisions sheet (it has {known})"
        )
    if parse_match(lineup.match)[0].name != " ".join(lineup.team.split()):
        raise GradingError(f"team {quote(lineup.team)} is not a team's name")
    found = league_breaches(result, divisions, ratings, lineup)
    team = " ".join(lineup.team.split())
    return [
        b
        for b in found
        if b.match == lineup.match and b.date == lineup.date and b.team in (team, "")
    ]


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
