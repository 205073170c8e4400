"""The values a season is made of: players, games, earlier seasons and the season's settings.

All frozen: the engine never changes its inputs. Games keep the text the grader typed (the
player references, the result, the time control) so that every check can quote it back;
:mod:`xlgrade.season` resolves and parses them. ``row`` fields carry the input row (sheet row
or file line) so that exceptions can name it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal, NamedTuple

__all__ = [
    "BORROWING_RULES",
    "CATEGORY_RULE_SETS",
    "DatedPoints",
    "EarlierSeason",
    "Game",
    "Player",
    "Problem",
    "Settings",
]

BORROWING_RULES = ("pro_rata", "most_recent")
"""Names of the borrowing rules (see :func:`xlgrade.ecf.season_grade`)."""
CATEGORY_RULE_SETS = ("bcf1997", "ecf2015")
"""Names of the category rule sets (see :func:`xlgrade.ecf.category`)."""


@dataclass(frozen=True, slots=True)
class EarlierSeason:
    """One earlier season's totals, as a grading list records them.

    Attributes:
        games: games graded in that season.
        points: grading points credited for them (not rounded).
    """

    games: int
    points: float


@dataclass(frozen=True, slots=True)
class DatedPoints:
    """One earlier graded game, for the "most recent games" borrowing rule.

    Attributes:
        date: the day the game was played.
        points: the points it was credited with.
    """

    date: dt.date
    points: float


@dataclass(frozen=True, slots=True)
class Player:
    """A player as the grader's Players table records him.

    Attributes:
        name: as written ("Smith, John A" or "John A Smith").
        code: ECF grading reference code (six digits and a check letter), if known.
        club: club name, used to tell apart players with the same name.
        date_of_birth: for the junior enhancement by age.
        junior: a junior whose age is unknown gets the smallest enhancement.
        grade: the published grade at the start of the season; ``None`` if ungraded.
        lapsed_grade: an old grade from an earlier list, used as a working grade.
        estimated_grade: the grader's own estimate, used first as a working grade.
        previous: totals of the previous season (the first one borrowed from).
        earlier: totals of the season before that.
        earlier_games: dated games of earlier seasons, for "most recent" borrowing.
        row: input row, for messages.
    """

    name: str
    code: str | None = None
    club: str = ""
    date_of_birth: dt.date | None = None
    junior: bool = False
    grade: float | None = None
    lapsed_grade: float | None = None
    estimated_grade: float | None = None
    previous: EarlierSeason | None = None
    earlier: EarlierSeason | None = None
    earlier_games: tuple[DatedPoints, ...] = ()
    row: int | None = None


@dataclass(frozen=True, slots=True)
class Game:
    """One game row as typed: both players, the result from the home (white) side.

    Attributes:
        home: the home/white player as typed: an ECF code or a name.
        away: the away/black player as typed.
        result: the result text from the home side ("1-0", "½-½", "0-1 def"…).
        date: when it was played; ``None`` if the row has no date.
        event: event or division.
        match: round or match ("Anytown A v Beeton B").
        board: board number.
        time_control: as typed (see :mod:`xlgrade.eligibility`); blank means the season's
            default time control.
        row: input row, for messages.
    """

    home: str
    away: str
    result: str
    date: dt.date | None = None
    event: str = ""
    match: str = ""
    board: int | None = None
    time_control: str = ""
    row: int | None = None


@dataclass(frozen=True, slots=True)
class Settings:
    """Every setting of a season, with the sources' defaults.

    Attributes:
        season_name: shown on the lists, e.g. "2025-26".
        season_start: first day of the season; 1 June by default (GRADING-RULES.md §11).
        season_end: last day of the season; 31 May by default.
        horizon: the grading horizon in points (YCA: "The limit fixed was 40"); ``None``
            turns it off.
        floor_at_zero: game points below zero count as 0 (published ECF practice).
        min_games: games a grade is based on before borrowing stops (30, 1997 leaflet).
        borrowing: ``"pro_rata"`` (1997 leaflet, YCA; default) or ``"most_recent"``.
        category_rules: ``"bcf1997"`` (default) or ``"ecf2015"``.
        list_star: include players of category ``*`` in the published list.
        junior_age_date: the day on which juniors' ages are taken; ``None`` means the day
            after the season ends, when the new list takes effect (a decision: the sources
            do not say).
        inactivity_allowance: points taken off a lapsed grade used as a working grade.
        unanchored_grade: working grade for ungraded players with no graded opponent in
            their group; ``None`` leaves them unanchored (reported, not graded).
        tolerance: convergence tolerance of working grades, in grade points.
        default_time_control: time control of rows that leave it blank.
        under_12_divisions: divisions (comma-separated) whose players are all under 12: all
            moves in one hour are enough (1997 leaflet, rule C).
        under_10_divisions: the same for players all under 10: three-quarters of an hour.
        elo_k_policy: a K policy name from :mod:`xlgrade.elo`; ``None`` runs no Elo.
        elo_period: ``"season"`` or ``"month"``: the Elo rating period.
        conversion: ECF→Elo formula for the Elo equivalent column.
    """

    season_name: str = ""
    season_start: dt.date = dt.date(2025, 6, 1)
    season_end: dt.date = dt.date(2026, 5, 31)
    horizon: float | None = 40.0
    floor_at_zero: bool = True
    min_games: int = 30
    borrowing: Literal["pro_rata", "most_recent"] = "pro_rata"
    category_rules: Literal["bcf1997", "ecf2015"] = "bcf1997"
    list_star: bool = False
    junior_age_date: dt.date | None = None
    inactivity_allowance: float = 0.0
    unanchored_grade: float | None = None
    tolerance: float = 0.01
    default_time_control: str = ""
    under_12_divisions: str = ""
    under_10_divisions: str = ""
    elo_k_policy: str | None = None
    elo_period: Literal["season", "month"] = "season"
    conversion: Literal["fide", "national", "ecf2020"] = "fide"

    @property
    def age_date(self) -> dt.date:
        """The day juniors' ages are taken on: ``junior_age_date`` or the day after the season."""
        return self.junior_age_date or self.season_end + dt.timedelta(days=1)


class Problem(NamedTuple):
    """An input row that was not graded, and why: one line of the Exceptions sheet.

    A named tuple rather than a dataclass: a national season makes thousands of them, and a
    tuple is built several times faster.

    Attributes:
        sheet: where the row came from ("Results", "Players", a file name).
        row: the row or line number there; ``None`` for a problem of the whole input.
        what: the kind of problem, short and fixed ("unknown player", "default"…).
        why: the reason in words, quoting the input.
    """

    sheet: str
    row: int | None
    what: str
    why: str
