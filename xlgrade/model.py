"""The values a season is made of: players, games, earlier seasons and the season's settings.

All frozen: the engine never changes its inputs. The season's settings,
:class:`xlgrade.settings.Settings`, are defined with the table of settings. Games keep the text
the grader typed (the player references, the result, the time control) so that every check can
quote it back; :mod:`xlgrade.season` resolves and parses them. ``row`` fields carry the input
row (sheet row or file line) so that exceptions can name it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Final, NamedTuple

__all__ = [
    "BORROWING_RULES",
    "CATEGORY_RULE_SETS",
    "DatedPoints",
    "EarlierSeason",
    "Game",
    "Player",
    "Problem",
]

BORROWING_RULES: Final = ("pro_rata", "most_recent")
"""Names of the borrowing rules (see :func:`xlgrade.ecf.season_grade`)."""
CATEGORY_RULE_SETS: Final = ("bcf1997", "ecf2015")
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
        rating: the ECF rating (standard play) at the start of the season, from the Players
            table's ``ECF rating`` column (filled from the ECF's list by ``xlgrade ratings``);
            the figure of the divisions' rules when the setting ``Eligibility figure`` is
            ``rating``; and the rating the ECF rating (2020 rules) rates the season from.
        rating_category: that rating's category on the list (``ECF category``: A, K or P;
            P is a partial rating); ``None`` when not given.
        p_games, p_score, p_opposition: for a partial (category P) rating, the rated games
            it is on, his score in them and their opponents' average rating (``ECF P games``,
            ``ECF P score``, ``ECF P opposition``): the P method counts them in every month
            until he has 10 (docs/rules.md §12); ``None`` when not given.
        rapid_rating: the ECF rapidplay rating at the start of the season (``ECF rapid
            rating``), the start of the rapid list's rating.
        rapid_category: its category (``ECF rapid category``).
        rapid_p_games, rapid_p_score, rapid_p_opposition: the same for a partial rapidplay
            rating (``ECF rapid P games``, ``ECF rapid P score``, ``ECF rapid P opposition``).
        results_12_months, rapid_results_12_months: his rated results in the 12 calendar
            months before the season on each list (``ECF results in 12 months``, ``ECF rapid
            results in 12 months``): category A is 30 or more (docs/rules.md §12); ``None``
            when not given.
        last_rated_month: the month of his last rated game, as its first day (``Last rated
            month``; the 36-month rule of the ECF rating); ``None`` when not known.
        estimated_rating: the grading officer's or captain's estimate of an unrated player's
            ECF rating (``Estimated rating``), for the divisions' rules that use ratings
            (:mod:`xlgrade.teams`).
        latest_rating: his latest ECF rating (``Latest ECF rating``), for a division whose rules
            use the live rating (Croydon's board order) rather than the season's fixed list.
        registered_team: the team he is registered, nominated or starred to (``Registered
            team``); "" for none.
        registered_from: the day the registration takes effect (``Registered from``); ``None``:
            the whole season.
        fide_rating: his FIDE rating (``FIDE rating``), for a division's FIDE cap.
        ecf_member: whether he is an ECF member (``ECF member``); ``None`` when not known.
        league_registered: the day he was registered with the league (``League
            registered``), for a division that lets only registered players play
            (Cheltenham); ``None``: not registered.
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
    rating: float | None = None
    rating_category: str | None = None
    p_games: int | None = None
    p_score: float | None = None
    p_opposition: float | None = None
    rapid_rating: float | None = None
    rapid_category: str | None = None
    rapid_p_games: int | None = None
    rapid_p_score: float | None = None
    rapid_p_opposition: float | None = None
    results_12_months: int | None = None
    rapid_results_12_months: int | None = None
    last_rated_month: dt.date | None = None
    estimated_rating: float | None = None
    latest_rating: float | None = None
    registered_team: str = ""
    registered_from: dt.date | None = None
    fide_rating: float | None = None
    ecf_member: bool | None = None
    league_registered: dt.date | None = None


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
        league: the league that reported it, in a union of leagues' seasons
            (:mod:`xlgrade.season.union`); ``""`` in one league's season.
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
    league: str = ""


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
