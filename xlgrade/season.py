"""The season recalculation: a league's players and result rows → a published grading list,
a rapidplay list, every player's calculation card, and the exceptions.

The steps, each documented where it happens:

1. **Players** are indexed by ECF code and by name. A code whose check letter is wrong, a code
   entered twice, and two players of the same name and club with no code are reported.
2. **Checks before grading**: every result row is resolved and checked in this order, and the
   first failure is its one reason in the exceptions: unknown (or ambiguous) player, a player
   paired with himself, result not understood, date outside the season, time control not
   understood, time control not gradable, default (kept, not graded), the same game entered
   twice. Rapidplay rows go to the rapid list. Nothing is dropped silently:
   :class:`Accounting` adds it up.
3. **Working grades** for ungraded players (:mod:`xlgrade.estimate`).
4. **Grades**: each game's points for both players with the horizon from each player's own
   start grade, season grades with borrowing, categories, junior enhancements, the published
   list.
5. **Elo beside it** when the settings name a K policy.

Everything per game is done on whole columns with numpy; only distinct texts (player
references, result texts, time controls, dates) are parsed one by one, once each.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import gc
import itertools
import math
import numbers
import operator
import re
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

import numpy as np
import numpy.typing as npt

from xlgrade._rounding import round_half_away
from xlgrade.card import Card, CardGame, CardLine, format_points
from xlgrade.convert import (
    ECF_CODE_LETTERS,
    ECF_CODE_WEIGHTS,
    FORMULAS,
    ecf_to_elo,
    parse_ecf_code,
)
from xlgrade.ecf import (
    MAX_GRADE,
    WIN_LOSS_MARGIN,
    GamePoints,
    age_on,
    junior_enhancement,
    round_half_up,
    season_grade,
)
from xlgrade.eligibility import classify
from xlgrade.elo import K_POLICIES
from xlgrade.errors import CodeError, GradingError, SettingError
from xlgrade.estimate import WorkingGrades, working_grades
from xlgrade.model import (
    BORROWING_RULES,
    CATEGORY_RULE_SETS,
    DatedPoints,
    EarlierSeason,
    Game,
    Player,
    Problem,
    Settings,
)
from xlgrade.results import GameResult, parse_game_result

__all__ = [
    "CARD_HEADERS",
    "EXCEPTION_HEADERS",
    "LIST_HEADERS",
    "Accounting",
    "GradedList",
    "SeasonResult",
    "Table",
    "name_key",
    "recalculate",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

LIST_HEADERS: Final = (
    "Code", "Name", "Club", "Games", "Points", "Grade", "Category", "Junior", "Elo",
    "Start grade", "Borrowed games", "Elo rating",
)  # fmt: skip
"""Columns of the Grading List and Rapid List sheets."""
CARD_HEADERS: Final = (
    "Code", "Name", "Game", "Date", "Opponent", "Result", "Opponent grade", "Points", "Note",
)  # fmt: skip
"""Columns of the Player Cards sheet."""
EXCEPTION_HEADERS: Final = ("Sheet", "Row", "What", "Why")
"""Columns of the Exceptions sheet."""

STANDARD: Final = "standard"
RAPID: Final = "rapid"


@dataclass(frozen=True)
class Table:
    """A block of cells for one output sheet: a header row and data rows."""

    headers: tuple[str, ...]
    rows: list[tuple[object, ...]]


_AMBIGUOUS: Final = -1
"""Index stored for a reference that does not name exactly one player."""
_PUNCTUATION: Final = str.maketrans(dict.fromkeys("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", " "))


def name_key(name: str) -> str:
    """A player's name reduced for matching: case, punctuation and word order ignored.

    "Smith, John A." and "John A Smith" have the same key; initials stay distinct from names
    ("J Smith" is not "John Smith").

    >>> name_key("Smith, John A.") == name_key("John A Smith")
    True
    """
    return " ".join(sorted(name.casefold().translate(_PUNCTUATION).split()))


def _turned_round(name: str) -> str:
    """ "Smith, John A" → "John A Smith"; "" for a name with no comma."""
    surname, comma, forenames = name.partition(",")
    return f"{forenames.strip()} {surname.strip()}" if comma else ""


def _valid_codes(codes: Sequence[str]) -> BoolArray:
    """Whether each code is six digits and the right check letter, all at once (§8).

    The seven-character codes are read as one block of code points (UTF-32), so that the
    digits, the letter and the check are tested on whole columns."""
    ok = np.zeros(len(codes), dtype=np.bool_)
    seven = np.fromiter(map(len, codes), np.int64, len(codes)) == 7
    if not seven.any():
        return ok
    block = "".join(itertools.compress(codes, seven.tolist())).encode("utf-32-le")
    raw = np.frombuffer(block, dtype=np.uint32).reshape(-1, 7)
    digits = raw[:, :6].astype(np.int64) - ord("0")
    lower = raw[:, 6] | 0x20  # an ASCII letter in lower case
    shaped = ((digits >= 0) & (digits <= 9)).all(axis=1) & (lower >= ord("a")) & (lower <= ord("z"))
    remainder = np.where(shaped[:, None], digits, 0) @ np.array(ECF_CODE_WEIGHTS) % 11
    letter = lower - 0x20
    letters = np.frombuffer(ECF_CODE_LETTERS.encode("ascii"), dtype=np.uint8)
    ok[seven] = shaped & (letters[remainder] == letter)
    return ok


@dataclass(frozen=True)
class Accounting:
    """Every result row, accounted for.

    ``rows == standard_graded + rapid_graded + excepted`` always holds; ``by_reason`` breaks
    down the excepted rows by the kind of problem.
    """

    rows: int
    standard_graded: int
    rapid_graded: int
    excepted: int
    by_reason: dict[str, int] = field(default_factory=dict)

    @property
    def balanced(self) -> bool:
        """Whether every row is either graded or excepted, once."""
        return self.rows == self.standard_graded + self.rapid_graded + self.excepted

    def summary(self) -> str:
        """One line for the terminal."""
        reasons = ", ".join(f"{n} {what}" for what, n in sorted(self.by_reason.items()))
        return (
            f"{self.rows} result rows: {self.standard_graded} graded, "
            f"{self.rapid_graded} rapidplay, {self.excepted} not graded"
            + (f" ({reasons})" if reasons else "")
        )


@dataclass(frozen=True)
class GradedList:
    """One list (standard or rapidplay): per-game and per-player arrays.

    ``lost`` are rows that passed the checks but cannot be graded: games between players of
    an unanchored group with no default grade.

    Per game (one entry per graded row of this list): ``rows`` (index into the input games),
    ``white``/``black`` player indices, ``white_score``, and for each side the opponent's
    grade as used, the points and whether the horizon applied.

    Per player: ``games``, ``points``, ``grade`` (NaN without a game), ``exact``,
    ``total_games``, ``total_points``, ``borrowed_games``, ``borrowed_points``, ``category``
    (``""`` for none), ``enhancement``, ``working`` (the working grades).
    """

    kind: str
    lost: IntArray
    rows: IntArray
    white: IntArray
    black: IntArray
    white_score: FloatArray
    white_opponent_grade: FloatArray
    black_opponent_grade: FloatArray
    white_points: FloatArray
    black_points: FloatArray
    white_horizon: BoolArray
    black_horizon: BoolArray
    games: IntArray
    points: FloatArray
    grade: FloatArray
    exact: FloatArray
    total_games: IntArray
    total_points: FloatArray
    borrowed_games: IntArray
    borrowed_points: FloatArray
    category: npt.NDArray[np.str_]
    enhancement: IntArray
    working: WorkingGrades
    elo: FloatArray | None
    order: IntArray
    starts: IntArray


_T = TypeVar("_T")


def _encode(values: Sequence[Hashable]) -> tuple[list[Hashable], IntArray]:
    """The distinct values, in first-seen order, and each value's position among them.

    Parsing is then done once per distinct value (a season has a few hundred result texts and
    match dates however many rows it has), and per-row arrays are gathered with numpy.
    """
    positions = {value: i for i, value in enumerate(dict.fromkeys(values))}
    codes = np.fromiter(map(positions.__getitem__, values), np.int64, len(values))
    return list(positions), codes


@dataclass(frozen=True)
class _Fail:
    what: str
    why: str


class _Players:
    """The Players table indexed for resolving references in result rows."""

    def __init__(self, players: Sequence[Player]) -> None:
        self.players = players
        self.problems: list[Problem] = []
        self._names: dict[str, list[int]] | None = None
        self._resolved: dict[Hashable, int | _Fail] = {}
        n = len(players)
        typed = [(p.code or "").strip() for p in players]
        canonical = [code if code.isupper() else code.upper() for code in typed]
        valid = _valid_codes(typed)
        coded = np.fromiter(map(bool, typed), np.bool_, n)
        for index in np.flatnonzero(coded & ~valid).tolist():
            try:
                canonical[index] = parse_ecf_code(typed[index])
            except CodeError as error:
                why = f"{error}; games are matched to it as typed"
                self._problem(players[index], "bad code", why)
        # The first player with a code has it: later ones are reported.
        self.codes: dict[str, int] = dict(
            zip(reversed(canonical), range(n - 1, -1, -1), strict=True)
        )
        self.codes.pop("", None)
        if len(self.codes) < int(coded.sum()):
            for index in np.flatnonzero(coded).tolist():
                first_index = self.codes[canonical[index]]
                if first_index != index:
                    first = players[first_index]
                    self._problem(
                        players[index],
                        "duplicate code",
                        f"code {typed[index]!r} is also {first.name!r} (row {first.row}); "
                        "games with this code are credited to the first",
                    )
        self.canonical = canonical
        # References as typed that name exactly one player: codes, and names as written or
        # turned round ("Smith, John" ↔ "John Smith"). Most rows resolve here at once.
        written = [" ".join(p.name.split()) for p in players]
        turned = [_turned_round(name) for name in written]
        forms = [*written, *filter(None, turned)]
        owners = np.concatenate(
            [np.arange(n), np.flatnonzero(np.fromiter(map(bool, turned), np.bool_, n))]
        )
        self.exact: dict[str, int] = dict(zip(forms, owners.tolist(), strict=True))
        if len(self.exact) < len(forms):
            # A form is ambiguous when one of its owners is not its last one, the one the
            # dictionary kept: all such forms are found at once.
            last = np.fromiter(map(self.exact.__getitem__, forms), np.int64, len(forms))
            shared = itertools.compress(forms, (last != owners).tolist())
            self.exact.update(dict.fromkeys(shared, _AMBIGUOUS))
        self.exact.update(self.codes)
        same: dict[tuple[str, str], list[int]] = defaultdict(list)
        for index in np.flatnonzero(~coded).tolist():
            player = players[index]
            same[(name_key(player.name), player.club.strip().casefold())].append(index)
        for members in same.values():
            if len(members) > 1:
                rows = ", ".join(str(players[m].row) for m in members)
                for m in members:
                    self._problem(
                        players[m],
                        "same name and club",
                        f"{players[m].name!r} of {players[m].club!r} appears {len(members)} "
                        f"times with no code (rows {rows}): give each a code",
                    )

    @property
    def names(self) -> dict[str, list[int]]:
        """Players by :func:`name_key`, built the first time a reference needs it."""
        if self._names is None:
            self._names = defaultdict(list)
            # name_key for every player at once: case and punctuation on one joined string.
            joined = "\n".join(p.name.replace("\n", " ") for p in self.players)
            folded = joined.casefold().translate(_PUNCTUATION).split("\n")
            for index, words in enumerate(folded):
                self._names[" ".join(sorted(words.split()))].append(index)
        return self._names

    def indices(self, references: Sequence[str]) -> tuple[IntArray, dict[int, _Fail]]:
        """Each row's player index for one side's ``references`` (−1 where none), and why for
        the rows with none.

        Exact matches (codes, names as written) cost one dictionary lookup each, at C speed;
        only the few other references go through :meth:`resolve`.
        """
        found = np.array(
            list(map(self.exact.get, references, itertools.repeat(_AMBIGUOUS))),
            dtype=np.int64,
        ).reshape(len(references))
        failures: dict[int, _Fail] = {}
        resolved_before = self._resolved
        for position in np.flatnonzero(found == _AMBIGUOUS).tolist():
            reference = references[position]
            resolved = resolved_before.get(reference)
            if resolved is None:
                resolved = resolved_before[reference] = self.resolve(reference)
            if isinstance(resolved, _Fail):
                failures[position] = resolved
            else:
                found[position] = resolved
        return found, failures

    def _problem(self, player: Player, what: str, why: str) -> None:
        self.problems.append(Problem("Players", player.row, what, why))

    def resolve(self, reference: Hashable) -> int | _Fail:
        """The player index a result row's reference (code or name) names, or why not."""
        if isinstance(reference, str):
            hit = self.exact.get(reference, _AMBIGUOUS)
            if hit != _AMBIGUOUS:
                return hit
        text = str(reference).strip() if reference is not None else ""
        if not text:
            return _Fail("unknown player", "player is blank")
        compact = text.replace(" ", "").upper()
        if re.fullmatch(r"\d{6}[A-Z]", compact):
            if compact in self.codes:
                return self.codes[compact]
            try:
                parse_ecf_code(compact)
            except CodeError as error:
                return _Fail("bad code", f"{error}: not matched to any player")
            return _Fail("unknown player", f"no player has code {text!r}")
        candidates = self.names.get(name_key(text), [])
        if len(candidates) == 1:
            return candidates[0]
        if not candidates:
            return _Fail("unknown player", f"no player is called {text!r}")
        rows = ", ".join(str(self.players[c].row) for c in candidates)
        return _Fail(
            "ambiguous player",
            f"{len(candidates)} players are called {text!r} (rows {rows}): use the code",
        )


def _parse_result(text: Hashable) -> GameResult | _Fail:
    try:
        return parse_game_result(text)
    except GradingError as error:
        return _Fail("result not understood", str(error))


_RESULT_FAIL: Final = -1.0

_SHEET_PROBLEMS: Final = frozenset({"missing sheet", "missing column"})
"""Reader problems about a whole sheet rather than one of its rows."""


class _TimeControls:
    def __init__(self, default: str, under: int | None = None) -> None:
        self.default = default
        self.under = under

    def kind(self, text: Hashable) -> str | _Fail:
        control = str(text).strip() if text is not None else ""
        control = control or self.default
        if not control:
            return STANDARD
        try:
            playable = classify(control, all_players_under=self.under)
        except GradingError as error:
            return _Fail("time control not understood", str(error))
        if playable.kind == "not gradable":
            return _Fail("time control not gradable", f"{control!r}: {playable.reason}")
        return playable.kind


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
        settings: the season's settings (the sources' defaults if ``None``).
        problems: rows the reader could not turn into players or games (a text where a grade
            belongs…): they go to the exceptions and the accounting as they are.
    """
    settings = _day_settings(settings or Settings())
    _check_settings(settings)
    with _collector_paused():
        players = _texts(players)
        players, bad_values, columns = _checked_players(players)
        players, bad_births = _checked_births(players, settings.age_date)
        undated = _borrowing_possible(players, settings)
        return _recalculate(
            players, columns, games, settings, [*problems, *bad_values, *bad_births, *undated]
        )


def _borrowing_possible(players: Sequence[Player], settings: Settings) -> list[Problem]:
    """Why "most recent" borrowing cannot be done, if it cannot.

    GRADING-RULES.md §3: the "most recent" variant "needs game dates". A player with no dated
    earlier games borrows his earlier seasons' totals pro rata rather than nothing (the list
    and his card alike). When no player has any (a workbook or CSV files hold only totals),
    the problem says so once.
    """
    if settings.borrowing != "most_recent" or any(p.earlier_games for p in players):
        return []
    if not any(p.previous or p.earlier for p in players):
        return []
    why = (
        "the 'most_recent' borrowing rule needs each player's dated earlier games, and none "
        "are given (the Players table holds each season's totals): earlier seasons are "
        "borrowed pro rata"
    )
    return [Problem("Settings", None, "borrowing", why)]


def _check_settings(settings: Settings) -> None:
    """Refuse settings no season can be graded with, naming the setting and quoting it."""

    def finite(value: object) -> bool:
        return (
            isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        )

    if settings.horizon is not None and not (finite(settings.horizon) and settings.horizon >= 0):
        raise SettingError(f"horizon {settings.horizon!r} must be a number of points, 0 or more")
    if not (isinstance(settings.min_games, int) and settings.min_games >= 0):
        raise SettingError(
            f"minimum games {settings.min_games!r} must be a whole number, 0 or more"
        )
    if not (finite(settings.tolerance) and settings.tolerance > 0):
        raise SettingError(f"tolerance {settings.tolerance!r} must be a positive number")
    if not finite(settings.inactivity_allowance):
        raise SettingError(
            f"inactivity allowance {settings.inactivity_allowance!r} is not a number"
        )
    if settings.unanchored_grade is not None and not finite(settings.unanchored_grade):
        raise SettingError(f"unanchored grade {settings.unanchored_grade!r} is not a number")
    for words, grade in (
        ("unanchored grade", settings.unanchored_grade),
        ("inactivity allowance", settings.inactivity_allowance),
    ):
        if grade is not None and not 0 <= grade <= MAX_GRADE:
            raise SettingError(f"{words} {grade!r} is not from 0 to {MAX_GRADE:g}")
    if settings.season_end < settings.season_start:
        raise SettingError(
            f"the season ends ({settings.season_end}) before it starts ({settings.season_start})"
        )
    named = (
        ("borrowing rule", settings.borrowing, BORROWING_RULES),
        ("category rules", settings.category_rules, CATEGORY_RULE_SETS),
        ("Elo rating period", settings.elo_period, ("season", "month")),
        ("Elo conversion", settings.conversion, FORMULAS),
        ("Elo K policy", settings.elo_k_policy, (None, *K_POLICIES)),
    )
    for words, value, allowed in named:
        if value not in allowed:
            choices = ", ".join(repr(a) for a in allowed if a is not None)
            raise SettingError(f"{words} {value!r} is not one of {choices}")


def _shown(value: object) -> str:
    """A value for a message: a date as ISO text, anything else quoted."""
    return value.isoformat() if isinstance(value, dt.date) else repr(value)


def _day(value: dt.date) -> dt.date:
    """A date, with the time of day dropped from a datetime (a spreadsheet cell may hold one)."""
    return value.date() if isinstance(value, dt.datetime) else value


def _as_day(value: dt.date | None) -> dt.date | None:
    """:func:`_day` of a date that may be missing."""
    return None if value is None else _day(value)


def _day_settings(settings: Settings) -> Settings:
    """``settings`` with its dates as dates: a datetime compares with no date."""
    days = {
        name: _as_day(getattr(settings, name))
        for name in ("season_start", "season_end", "junior_age_date")
        if isinstance(getattr(settings, name), dt.datetime)
    }
    return dataclasses.replace(settings, **days) if days else settings  # type: ignore[arg-type]


_GRADE_FIELDS: Final = (
    ("grade", "start grade"),
    ("estimated_grade", "estimated grade"),
    ("lapsed_grade", "lapsed grade"),
)


_NUMBERS: Final = frozenset({int, float, type(None)})
_SEASONS: Final = frozenset({EarlierSeason, type(None)})


@dataclass(frozen=True)
class _PlayerColumns:
    """The Players table's numbers as arrays, each value :func:`_checked_players` leaves out
    read as missing: NaN for a grade, no games and no points for an earlier season."""

    grade: FloatArray
    estimated_grade: FloatArray
    lapsed_grade: FloatArray
    previous_games: IntArray
    previous_points: FloatArray
    earlier_games: IntArray
    earlier_points: FloatArray


def _checked_players(
    players: Sequence[Player],
) -> tuple[Sequence[Player], list[Problem], _PlayerColumns]:
    """Players whose grades or earlier seasons are not usable numbers, reported and with those
    values left out (a bad start grade makes the player ungraded); the others as they are.

    Whole columns are checked at once; only suspect values are looked at one by one. The
    columns read for the check are also returned as arrays, so that the grades are worked out
    from them without reading every player again."""

    def number(value: object) -> bool:
        # numpy's scalars count as numbers; True and False do not.
        return isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_)

    def usable(value: object) -> bool:
        return value is None or (number(value) and math.isfinite(value))  # type: ignore[arg-type]

    def season_usable(value: object) -> bool:
        if value is None:
            return True
        games, points = getattr(value, "games", None), getattr(value, "points", None)
        return (
            isinstance(games, numbers.Integral)
            and not isinstance(games, bool | np.bool_)
            and int(games) >= 0
            and number(points)
            and math.isfinite(points)  # type: ignore[arg-type]
        )

    fixes: dict[int, dict[str, object]] = defaultdict(dict)
    problems: list[Problem] = []
    number_columns: list[npt.NDArray[Any]] = []
    for field_name, words in _GRADE_FIELDS:
        values = _column(players, field_name)
        suspects: Iterable[int] = range(len(values))
        column: FloatArray | None = None
        nones = values.count(None)
        if nones == len(values):  # most players have no estimate and no lapsed grade
            column = np.full(len(values), np.nan)
            suspects = ()
        elif set(map(type, values)) <= _NUMBERS:
            column = np.array(values, dtype=np.float64).reshape(len(values))  # None reads as NaN
            missing = ~np.isfinite(column)
            # Only when there are more missing numbers than Nones is a value not finite.
            suspects = () if int(missing.sum()) == nones else np.flatnonzero(missing).tolist()
        for i in suspects:
            value = values[i]
            if not usable(value):
                values[i] = None
                fixes[i][field_name] = None
                problems.append(
                    Problem(
                        "Players",
                        players[i].row,
                        "bad grade",
                        f"{words} {value!r} of {players[i].name!r} is not a number: left out",
                    )
                )
        if column is None or suspects:
            column = _floats(values)  # what is left once unusable values are left out
        with np.errstate(invalid="ignore"):
            off_scale = np.flatnonzero((column < 0) | (column > MAX_GRADE))
        for i in off_scale.tolist():
            problems.append(
                Problem(
                    "Players",
                    players[i].row,
                    "bad grade",
                    f"{words} {values[i]!r} of {players[i].name!r} is not a grade on the ECF "
                    f"scale (0 to {MAX_GRADE:g}): left out",
                )
            )
            values[i] = None
            fixes[i][field_name] = None
            column[i] = np.nan
        number_columns.append(column)
    for field_name, words in (("previous", "previous season"), ("earlier", "earlier season")):
        seasons = _column(players, field_name)
        suspects = range(len(seasons))
        if set(map(type, seasons)) <= _SEASONS:
            games = [0 if s is None else s.games for s in seasons]  # type: ignore[attr-defined]
            points = [0.0 if s is None else s.points for s in seasons]  # type: ignore[attr-defined]
            if (
                set(map(type, games)) <= {int}
                and set(map(type, points)) <= {int, float}
                and (not games or min(games) >= 0)
                and bool(np.isfinite(np.array(points, dtype=np.float64)).all())
            ):
                suspects = ()
        for i in suspects:
            season = seasons[i]
            if not season_usable(season):
                seasons[i] = None
                fixes[i][field_name] = None
                problems.append(
                    Problem(
                        "Players",
                        players[i].row,
                        "bad earlier season",
                        f"{words} {season!r} of {players[i].name!r} is not a whole number of "
                        "games and a number of points: left out",
                    )
                )
        if suspects:
            games = [0 if s is None else s.games for s in seasons]  # type: ignore[attr-defined]
            points = [0.0 if s is None else s.points for s in seasons]  # type: ignore[attr-defined]
        number_columns.append(np.array(games, dtype=np.int64).reshape(len(seasons)))
        number_columns.append(np.array(points, dtype=np.float64).reshape(len(seasons)))
    columns = _PlayerColumns(*number_columns)
    if not fixes:
        return players, problems, columns
    fixed = list(players)
    for i, changes in fixes.items():
        fixed[i] = dataclasses.replace(fixed[i], **changes)  # type: ignore[arg-type]
    return fixed, problems, columns


_TEXT_FIELDS: Final = ("name", "club", "code")


def _texts(players: Sequence[Player]) -> Sequence[Player]:
    """Players whose name, club or code is not text, with it read as text (a number typed as
    a code becomes its digits, a missing name or club an empty one), so that every check
    can quote it; the code's check then reports a code that is not a code."""
    fixes: dict[int, dict[str, str]] = defaultdict(dict)
    for field_name in _TEXT_FIELDS:
        values = _column(players, field_name)
        if set(map(type, values)) <= {str} or (
            field_name == "code" and set(map(type, values)) <= {str, type(None)}
        ):
            continue
        for i, value in enumerate(values):
            if type(value) is not str and not (field_name == "code" and value is None):
                fixes[i][field_name] = "" if value is None else str(value)
    if not fixes:
        return players
    fixed = list(players)
    for i, changes in fixes.items():
        fixed[i] = dataclasses.replace(fixed[i], **changes)  # type: ignore[arg-type]
    return fixed


def _checked_births(
    players: Sequence[Player], age_date: dt.date
) -> tuple[Sequence[Player], list[Problem]]:
    """Players whose date of birth is not a date on or before ``age_date`` (the day juniors'
    ages are taken), reported and with it left out; a datetime is read as its day."""
    births = _column(players, "date_of_birth")
    if births.count(None) == len(births):
        return players, []
    fixes: dict[int, dt.date | None] = {}
    problems: list[Problem] = []
    for i, born in enumerate(births):
        if born is None or (type(born) is dt.date and born <= age_date):
            continue
        day = _day(born) if isinstance(born, dt.date) else None
        if day is not None and day <= age_date:
            fixes[i] = day
            continue
        fixes[i] = None
        why = (
            "is not a date"
            if day is None
            else f"is after {age_date.isoformat()}, the day ages are taken"
        )
        problems.append(
            Problem(
                "Players",
                players[i].row,
                "bad date of birth",
                f"date of birth {_shown(born)} of {players[i].name!r} {why}: left out",
            )
        )
    if not fixes:
        return players, problems
    fixed = list(players)
    for i, day in fixes.items():
        fixed[i] = dataclasses.replace(fixed[i], date_of_birth=day)
    return fixed, problems


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
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
    columns: _PlayerColumns,
    games: Sequence[Game],
    settings: Settings,
    problems: Sequence[Problem],
) -> SeasonResult:
    index = _Players(players)
    n = len(games)
    # One column at a time: a comprehension reads a field of every game faster than any
    # other way, and each column is then worked on at C speed.
    white, home_failures = index.indices([game.home for game in games])
    black, away_failures = index.indices([game.away for game in games])
    result_values, result_code = _encode([game.result for game in games])
    date_values, date_code = _encode([game.date for game in games])
    tc_values, tc_code = _encode([game.time_control for game in games])

    results_found = [_parse_result(v) for v in result_values]
    times = _TimeControls(settings.default_time_control)
    kinds_found = [times.kind(v) for v in tc_values]
    start, end = settings.season_start, settings.season_end
    dates_found = [_as_date(d) for d in date_values]

    def per_row(found: Sequence[_T], value: Callable[[_T], float], codes: IntArray) -> FloatArray:
        table = np.array([value(f) for f in found], dtype=np.float64)
        gathered: FloatArray = table[codes] if table.size else np.zeros(0)
        return gathered

    score = per_row(
        results_found,
        lambda r: r.home if isinstance(r, GameResult) and r.home is not None else _RESULT_FAIL,
        result_code,
    )
    graded_result = per_row(
        results_found, lambda r: isinstance(r, GameResult) and r.graded, result_code
    ).astype(np.bool_)
    date_ok = per_row(dates_found, lambda d: not isinstance(d, _Fail), date_code).astype(np.bool_)
    in_season = per_row(
        dates_found, lambda d: not isinstance(d, dt.date) or start <= d <= end, date_code
    ).astype(np.bool_)
    month = per_row(
        dates_found, lambda d: d.year * 12 + d.month if isinstance(d, dt.date) else 0, date_code
    ).astype(np.int64)
    day = per_row(
        dates_found, lambda d: d.toordinal() if isinstance(d, dt.date) else 0, date_code
    ).astype(np.int64)
    # Rule C's allowances: divisions whose players are all under 12 (or 10) may play all moves
    # in one hour (three-quarters of an hour). Their rows are classified again with it.
    young = _young_divisions(settings)
    if young:
        by_age = {age: _TimeControls(settings.default_time_control, age) for age in (12, 10)}
        extra: dict[tuple[int, int], int] = {}
        for row, game in enumerate(games):
            event = game.event if isinstance(game.event, str) else str(game.event or "")
            age = young.get(event.strip().casefold())
            if age is not None:
                key = (int(tc_code[row]), age)
                if key not in extra:
                    extra[key] = len(kinds_found)
                    kinds_found.append(by_age[age].kind(tc_values[key[0]]))
                tc_code[row] = extra[key]
    rapid = per_row(kinds_found, lambda k: k == RAPID, tc_code).astype(np.bool_)
    tc_ok = per_row(kinds_found, lambda k: not isinstance(k, _Fail), tc_code).astype(np.bool_)
    reason: dict[int, _Fail] = {}
    ok = np.ones(n, dtype=np.bool_)

    def home(r: int) -> _Fail:
        return home_failures[r]

    def away(r: int) -> _Fail:
        return away_failures[r]

    def results(r: int) -> GameResult | _Fail:
        return results_found[int(result_code[r])]

    def kinds(r: int) -> str | _Fail:
        return kinds_found[int(tc_code[r])]

    def dates(r: int) -> dt.date | _Fail | None:
        return dates_found[int(date_code[r])]

    # Rows failing a check, in the order of precedence; the first reason is kept.
    def mark(mask: BoolArray, why: Callable[[int], _Fail]) -> None:
        for row in np.flatnonzero(mask & ok).tolist():
            reason[row] = why(row)
        ok[mask] = False

    mark(white < 0, home)
    mark(black < 0, away)
    mark(
        (white == black) & (white >= 0),
        lambda r: _Fail("self pairing", f"{games[r].home!r} is paired with himself"),
    )
    understood = per_row(results_found, lambda r: isinstance(r, GameResult), result_code)
    mark(understood == 0, lambda r: _result_fail(results(r)))
    mark(~date_ok, lambda r: _fail_of(dates(r)))
    mark(
        ~in_season,
        lambda r: _Fail(
            "date outside season",
            f"{dates(r)} is outside the season {start.isoformat()} to {end.isoformat()}",
        ),
    )
    mark(~tc_ok, lambda r: _fail_of(kinds(r)))
    # A default or bye, with a score (kept for the match) or without one (nothing to grade).
    defaulted = ok & (~graded_result | (score == _RESULT_FAIL))
    mark(
        defaulted,
        lambda r: _Fail("default", f"{games[r].result!r}: {_result_reason(results(r))}"),
    )
    _mark_duplicates(games, day, rapid, white, black, score, ok | defaulted, defaulted, reason)
    ok[list(reason)] = False
    all_problems = list(problems) + index.problems
    by_reason: dict[str, int] = defaultdict(int)
    for row in sorted(reason):
        fail = reason[row]
        all_problems.append(Problem("Results", games[row].row, fail.what, fail.why))
        by_reason[fail.what] += 1
    arrays = _PlayerArrays.of(players, columns, settings)
    lists = {
        kind: _grade_list(
            kind, players, arrays, settings, np.flatnonzero(ok & mask), white, black, score, month
        )
        for kind, mask in ((STANDARD, ~rapid), (RAPID, rapid))
    }
    for graded in lists.values():
        for row in graded.lost.tolist():
            fail = _Fail(
                "no working grade",
                "both players are ungraded and their group has no graded opponent; set "
                "'Unanchored grade' to grade it",
            )
            all_problems.append(Problem("Results", games[row].row, fail.what, fail.why))
            by_reason[fail.what] += 1
    if settings.unanchored_grade is not None:
        # §6: an unanchored group is reported even when the grader's default grades it.
        for kind, graded in lists.items():
            for group in graded.working.unanchored:
                names = ", ".join(repr(players[m].name) for m in group[:5])
                more = f" and {len(group) - 5} more" if len(group) > 5 else ""
                for m in group:
                    all_problems.append(
                        Problem(
                            "Players",
                            players[m].row,
                            "unanchored",
                            f"{players[m].name!r} is one of {len(group)} ungraded players "
                            f"({names}{more}) with no graded opponent on the {kind} list: "
                            f"given the unanchored grade {_number(settings.unanchored_grade)}",
                        )
                    )
    # Rows the reader could not turn into games are excepted once each, under the first of
    # the reader's reasons for the row; a problem of the whole sheet is no row.
    unread: dict[int, str] = {}
    for problem in problems:
        line = problem.row
        if problem.sheet == "Results" and line is not None and problem.what not in _SHEET_PROBLEMS:
            unread.setdefault(line, problem.what)
    for what in unread.values():
        by_reason[what] += 1
    accounting = Accounting(
        rows=n + len(unread),
        standard_graded=int(lists[STANDARD].rows.size),
        rapid_graded=int(lists[RAPID].rows.size),
        excepted=sum(by_reason.values()),
        by_reason=dict(by_reason),
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
    )


def _young_divisions(settings: Settings) -> dict[str, int]:
    """Division names (case ignored) of the under-12 and under-10 settings, with the age."""
    young: dict[str, int] = {}
    for text, age in ((settings.under_12_divisions, 12), (settings.under_10_divisions, 10)):
        for name in text.split(","):
            if name.strip():
                young[name.strip().casefold()] = age
    return young


def _as_date(value: object) -> dt.date | _Fail | None:
    """A row's date as a date: a datetime's day; ``None`` stays undated; anything else fails."""
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    return _Fail("date not understood", f"date {value!r} is not a date")


def _fail_of(value: object) -> _Fail:
    assert isinstance(value, _Fail)
    return value


def _result_fail(value: GameResult | _Fail) -> _Fail:
    if isinstance(value, _Fail):
        return value
    return _Fail("default", f"{value.text!r}: {value.reason}")


def _result_reason(value: GameResult | _Fail) -> str:
    return value.reason or "" if isinstance(value, GameResult) else value.why


def _mark_duplicates(
    games: Sequence[Game],
    days: IntArray,
    rapid: BoolArray,
    white: IntArray,
    black: IntArray,
    score: FloatArray,
    ok: BoolArray,
    defaulted: BoolArray,
    reason: dict[int, _Fail],
) -> None:
    """The same game entered twice: on the same list (standard or rapid), the same two players
    on the same date, whichever of them is named first (one club may enter the match the other
    way round); undated rows are the same game only within the same event and match.

    When both clubs enter one match, every entry after the first that agrees with it is
    excepted as a duplicate. When the entries disagree on the result, none of them is graded:
    xlgrade cannot know which is right, so all are listed for the grader to correct; so too
    when one club enters a default and the other a played game (``ok`` holds the rows still
    to grade and the ``defaulted`` ones). Entries whose match column names different rounds
    are different games (:func:`_same_game`).
    """
    rows = np.flatnonzero(ok)
    if rows.size == 0:
        return
    day = days[rows]
    low = np.minimum(white[rows], black[rows])
    high = np.maximum(white[rows], black[rows])
    undated = day == 0
    if undated.any():
        # Undated rows: a fixture number from the event and match stands in for the day.
        fixtures: dict[tuple[str, str], int] = {}
        for position in np.flatnonzero(undated).tolist():
            game = games[int(rows[position])]
            day[position] = fixtures.setdefault((game.event, game.match), len(fixtures) + 1)
    # One int64 key per row: the day counted from the first (ordinals stay below 2²⁰ until
    # the year 2870), a bit for the list, and each player; as few bits as the season needs,
    # so that a radix sort takes few passes.
    day -= day.min()
    player_bits = int(high.max()).bit_length()
    key = (
        (day << (2 * player_bits + 1))
        | (rapid[rows].astype(np.int64) << (2 * player_bits))
        | (low << player_bits)
        | high
    )
    bound = 1 << (int(day.max()).bit_length() + 2 * player_bits + 1)
    order = _stable_order(key, bound)  # members of a run are sorted again below
    ordered = key[order]
    same = ordered[1:] == ordered[:-1]
    if not same.any():
        return
    # Runs of equal keys: the score from the lower-numbered player's side must agree.
    sorted_rows = rows[order]
    as_low = np.where(
        white[sorted_rows] == low[order], score[sorted_rows], 1.0 - score[sorted_rows]
    )
    boundary = np.concatenate([[True], ~same])
    starts = np.flatnonzero(boundary)
    sizes = np.diff(np.append(starts, ordered.size))
    repeated = sizes > 1
    for begin, size in zip(starts[repeated].tolist(), sizes[repeated].tolist(), strict=True):
        entries = sorted(
            zip(
                sorted_rows[begin : begin + size].tolist(),
                as_low[begin : begin + size].tolist(),
                strict=True,
            )
        )
        for group in _same_game(games, entries):
            kinds = {bool(defaulted[row]) for row, _ in group}
            if len(group) > 1 and kinds != {True}:  # a default entered twice stays a default
                agree = len(kinds) == 1 and len({s for _, s in group}) == 1
                _mark_group(games, [row for row, _ in group], agree, reason)


def _round_number(match: object) -> int | None:
    """The round a row's match column names ("3", "R3", "Rd 3", "Round 3"), else ``None``."""
    if isinstance(match, int) and not isinstance(match, bool):
        return match
    found = _ROUND.fullmatch(str(match).strip()) if isinstance(match, str) else None
    return int(found.group(1)) if found else None


_ROUND: Final = re.compile(r"(?:r|rd|rnd|round)?\.?\s*(\d+)", re.IGNORECASE)


def _same_game(
    games: Sequence[Game], entries: list[tuple[int, float]]
) -> list[list[tuple[int, float]]]:
    """Entries (row, score) of the same two players on one day and list, split into games.

    They are one game entered more than once, unless their match column names two or more
    different rounds: then the players met once a round (a rapidplay or a congress playing
    two rounds a day), and the entries of each round are one game; entries naming no round
    go together.
    """
    rounds = [_round_number(games[row].match) for row, _ in entries]
    if len({r for r in rounds if r is not None}) < 2:
        return [entries]
    by_round: dict[int | None, list[tuple[int, float]]] = defaultdict(list)
    for entry, number in zip(entries, rounds, strict=True):
        by_round[number].append(entry)
    return list(by_round.values())


def _mark_group(
    games: Sequence[Game], members: list[int], agree: bool, reason: dict[int, _Fail]
) -> None:
    """One game entered ``len(members)`` times: every entry after the first is a duplicate
    when all ``agree`` on the result; none is graded when they do not."""
    first = games[members[0]]
    if agree:
        for m in members[1:]:
            reason[m] = _Fail(
                "duplicate game",
                f"the same game as row {first.row} ({first.home!r} v {first.away!r}, "
                f"{games[m].result!r}): graded once",
            )
        return
    listed = ", ".join(f"row {games[m].row} {games[m].result!r}" for m in members)
    for m in members:
        reason[m] = _Fail(
            "duplicate disagrees",
            f"the same game entered {len(members)} times with different results "
            f"({listed}): not graded until corrected",
        )


def _column(players: Sequence[Player], name: str) -> list[object]:
    return list(map(operator.attrgetter(name), players))


def _floats(values: list[object]) -> FloatArray:
    """Numbers with ``None`` as NaN."""
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


def _known_grades(
    columns: _PlayerColumns, settings: Settings
) -> tuple[FloatArray, BoolArray, FloatArray]:
    """Per player: grade to use if known (start, estimate, lapsed less allowance; NaN if none),
    whether it is the published start grade, and the start grade (NaN if ungraded)."""
    start = columns.grade
    ungraded = np.isnan(start)
    known = start.copy()
    if ungraded.any():
        estimate = columns.estimated_grade
        lapsed = columns.lapsed_grade - settings.inactivity_allowance
        known = np.where(ungraded, np.where(np.isnan(estimate), lapsed, estimate), start)
    return known, ~ungraded, start


def _stable_order(keys: IntArray, bound: int) -> IntArray:
    """``np.argsort(keys, kind="stable")`` for keys in ``[0, bound)``, in linear time.

    numpy sorts keys of 16 bits or fewer by radix; wider keys are sorted the same way 16 bits
    at a time (least significant first, each pass stable), so the time grows linearly with the
    number of keys whatever their width, where a comparison sort grows as n·log n.
    """
    order: IntArray = np.argsort((keys & 0xFFFF).astype(np.uint16), kind="stable")
    for shift in range(16, max(bound - 1, 1).bit_length(), 16):
        digit = ((keys[order] >> shift) & 0xFFFF).astype(np.uint16)
        order = order[np.argsort(digit, kind="stable")]
    return order


def _round_half_up(values: FloatArray) -> FloatArray:
    """:func:`xlgrade.ecf.round_half_up` of each value (NaN stays NaN), so that the list and
    the cards never round a grade differently: whole columns at once, and any value within a
    millionth of a half handed to that function itself."""
    out: FloatArray = np.floor(values + 0.5)
    fraction = values - np.floor(values)
    near = np.flatnonzero(np.isfinite(values) & (np.abs(fraction - 0.5) < 1e-6))
    for i in near.tolist():
        out[i] = round_half_up(float(values[i]))
    return out


@dataclass(frozen=True)
class _PlayerArrays:
    """Per-player values both lists need, computed once."""

    known: FloatArray
    published: BoolArray
    start: FloatArray
    previous_games: IntArray
    previous_points: FloatArray
    earlier_games: IntArray
    earlier_points: FloatArray
    enhancement: IntArray

    @classmethod
    def of(
        cls, players: Sequence[Player], columns: _PlayerColumns, settings: Settings
    ) -> _PlayerArrays:
        known, published, start = _known_grades(columns, settings)
        return cls(
            known,
            published,
            start,
            columns.previous_games,
            columns.previous_points,
            columns.earlier_games,
            columns.earlier_points,
            _enhancements(players, settings),
        )


def _grade_list(
    kind: str,
    players: Sequence[Player],
    arrays: _PlayerArrays,
    settings: Settings,
    rows: IntArray,
    white_all: IntArray,
    black_all: IntArray,
    score_all: FloatArray,
    month_all: IntArray,
) -> GradedList:
    n = len(players)
    white, black, score = white_all[rows], black_all[rows], score_all[rows]
    known, published, start = arrays.known, arrays.published, arrays.start
    working = working_grades(
        known,
        white,
        black,
        score,
        published=published,
        unanchored_grade=settings.unanchored_grade,
        tolerance=settings.tolerance,
    )
    grade_of = working.grades
    # Rows between players of an unanchored group with no default cannot be graded.
    unanchored = np.isnan(grade_of[white]) | np.isnan(grade_of[black])
    lost = rows[unanchored]
    if unanchored.any():
        keep = ~unanchored
        rows, white, black, score = rows[keep], white[keep], black[keep], score[keep]

    def side(own: FloatArray, opponent: FloatArray, s: FloatArray) -> tuple[FloatArray, BoolArray]:
        counted = opponent
        if settings.horizon is not None:
            limit = settings.horizon
            clipped = np.clip(opponent, own - limit, own + limit)
            counted = np.where(np.isnan(own), opponent, clipped)
        points = counted + (2.0 * s - 1.0) * WIN_LOSS_MARGIN
        if settings.floor_at_zero:
            points = np.maximum(points, 0.0)
        return points, counted != opponent

    w_opp, b_opp = grade_of[black], grade_of[white]
    w_points, w_horizon = side(start[white], w_opp, score)
    b_points, b_horizon = side(start[black], b_opp, 1.0 - score)

    games = np.bincount(white, minlength=n) + np.bincount(black, minlength=n)
    points = (
        np.bincount(white, w_points, minlength=n) + np.bincount(black, b_points, minlength=n)
    ).astype(np.float64)
    prev_g, prev_p = arrays.previous_games, arrays.previous_points
    earl_g, earl_p = arrays.earlier_games, arrays.earlier_points
    if kind == RAPID:
        # The Players table records standard-play history only, and rapidplay is "graded on
        # a separate list" (1997 leaflet): a rapid grade borrows nothing and its category
        # counts this season's rapid games alone.
        prev_g, earl_g = np.zeros_like(prev_g), np.zeros_like(earl_g)
        prev_p, earl_p = np.zeros_like(prev_p), np.zeros_like(earl_p)
    target = settings.min_games
    need = np.maximum(target - games, 0)
    take1 = np.minimum(need, prev_g)
    share1 = np.where(prev_g > 0, prev_p * take1 / np.maximum(prev_g, 1), 0.0)
    take2 = np.minimum(need - take1, earl_g)
    share2 = np.where(earl_g > 0, earl_p * take2 / np.maximum(earl_g, 1), 0.0)
    borrowed_games = take1 + take2
    borrowed_points = share1 + share2
    if settings.borrowing == "most_recent" and kind == STANDARD:
        for i in np.flatnonzero((games > 0) & (need > 0)).tolist():
            p = players[i]
            if not p.earlier_games:
                continue  # no dated games: his seasons' totals, pro rata (_borrowing_possible)
            result = season_grade(
                float(points[i]),
                int(games[i]),
                [p.previous, p.earlier],
                min_games=target,
                borrowing="most_recent",
                earlier_games=p.earlier_games,
            )
            borrowed_games[i] = result.borrowed_games
            borrowed_points[i] = result.borrowed_points
    total_games = games + borrowed_games
    total_points = points + borrowed_points
    played = games > 0
    exact = np.where(played, total_points / np.maximum(total_games, 1), np.nan)
    grade = np.where(played, _round_half_up(exact), np.nan)
    category = _categories(games, prev_g, earl_g, settings)
    enhancement = arrays.enhancement
    # The cards' order: each player's games together.
    order = _stable_order(np.concatenate([white, black]), n)
    starts = np.concatenate([[0], np.cumsum(games)])
    return GradedList(
        kind,
        lost,
        rows,
        white,
        black,
        score,
        w_opp,
        b_opp,
        w_points,
        b_points,
        w_horizon,
        b_horizon,
        games,
        points,
        grade,
        exact,
        total_games,
        total_points,
        borrowed_games,
        borrowed_points,
        category,
        enhancement,
        working,
        _elo(players, arrays, settings, white, black, score, grade_of, month_all[rows])
        if settings.elo_k_policy
        else None,
        order,
        starts,
    )


def _categories(
    current: IntArray, previous: IntArray, earlier: IntArray, settings: Settings
) -> npt.NDArray[np.str_]:
    """Vectorised :func:`xlgrade.ecf.category` (1997 leaflet; ECF 2015 as a setting)."""
    two = current + previous
    three = two + earlier
    conditions = [
        current >= 30,
        (two >= 30) & (current >= 20),
        (three >= 30) & (current >= 10),
        (three >= 15) & (current >= 5),
    ]
    names = ["A", "B", "C", "D"]
    if settings.category_rules == "ecf2015":
        conditions += [(three >= 9) & (current >= 1), (three >= 5) & (current >= 1)]
        names += ["E", "F"]
    else:
        conditions += [(three >= 10) & (current >= 1)]
        names += ["E"]
    conditions.append(current >= 1)
    names.append("*")
    chosen: npt.NDArray[np.str_] = np.select(conditions, names, default="")
    return chosen


def _enhancements(players: Sequence[Player], settings: Settings) -> IntArray:
    """Junior enhancements (§5), worked out only for players with a birth date or the flag."""
    on = settings.age_date
    births = _column(players, "date_of_birth")
    flags = _column(players, "junior")
    out = np.zeros(len(players), dtype=np.int64)
    for i in np.flatnonzero(
        np.fromiter(
            (b is not None or bool(f) for b, f in zip(births, flags, strict=True)),
            np.bool_,
            len(players),
        )
    ).tolist():
        born = births[i]
        age = age_on(born, on) if isinstance(born, dt.date) else None
        out[i] = junior_enhancement(age, junior=bool(flags[i]))
    return out


def _elo(
    players: Sequence[Player],
    arrays: _PlayerArrays,
    settings: Settings,
    white: IntArray,
    black: IntArray,
    score: FloatArray,
    grade_of: FloatArray,
    month: IntArray,
) -> FloatArray:
    """Elo ratings for the same games (GRADING-RULES.md §9), starting from each player's grade
    (or working grade) converted by the season's conversion formula; one rating period for the
    season, or one per calendar month."""
    from xlgrade.elo import k_factor, rate_period_elo

    policy = settings.elo_k_policy
    assert policy is not None
    ratings = np.array(
        [
            float(ecf_to_elo(float(g), settings.conversion)) if not np.isnan(g) else np.nan
            for g in grade_of
        ]
    )
    rated = ~np.isnan(ratings)
    history = arrays.previous_games + arrays.earlier_games
    born = np.array(
        [p.date_of_birth.year if p.date_of_birth is not None else 0 for p in players],
        dtype=np.int64,
    )
    flagged = np.array([p.junior and p.date_of_birth is None for p in players], dtype=np.bool_)
    under_18 = np.array(
        [
            p.date_of_birth is not None and age_on(p.date_of_birth, settings.age_date) < 18
            for p in players
        ],
        dtype=np.bool_,
    )
    both = rated[white] & rated[black]
    if settings.elo_period == "month":
        months = np.unique(month[both]).tolist()
        periods = [(both & (month == m), (m - 1) // 12) for m in months]
    else:
        periods = [(both, settings.season_end.year)]
    current = np.where(rated, ratings, 0.0)
    played = np.zeros(len(players), np.int64)
    for mask, year in periods:
        # Chesterfield: "Junior players have 45" (a junior as the grading list counts one, under
        # 18); FIDE: a junior "until the end of the year of their 18th birthday".
        if policy == "chesterfield":
            junior = flagged | under_18
        else:
            junior = flagged | ((born > 0) & (year - born <= 18))
        w, b, s = white[mask], black[mask], score[mask]
        in_period = np.bincount(w, minlength=len(players)) + np.bincount(b, minlength=len(players))
        ks = np.array(
            [
                k_factor(
                    policy,  # type: ignore[arg-type]
                    games=int(history[i] + played[i]),
                    rating=float(current[i]),
                    junior=bool(junior[i]),
                    games_in_period=int(in_period[i]),
                )
                for i in range(len(players))
            ],
            dtype=np.float64,
        )
        period = rate_period_elo(current, w, b, s, ks)
        current = period.rating
        played += in_period
    return np.where(rated, current, np.nan)


@dataclass(frozen=True)
class SeasonResult:
    """A recalculated season: both lists, the exceptions and the accounting.

    Tables for the workbook come from :meth:`tables`; a player's card from :meth:`card`.
    """

    players: tuple[Player, ...]
    games: tuple[Game, ...]
    settings: Settings
    standard: GradedList
    rapid: GradedList
    problems: tuple[Problem, ...]
    accounting: Accounting
    codes: tuple[str, ...]

    def player_index(self, reference: str) -> int:
        """The index of the player with this code or name."""
        found = _Players(self.players).resolve(reference)
        if isinstance(found, _Fail):
            raise GradingError(found.why)
        return found

    def card(self, player: int, kind: str = STANDARD) -> Card:
        """The calculation card of player ``player`` on the standard (or rapid) list."""
        graded = self.standard if kind == STANDARD else self.rapid
        p = self.players[player]
        lines: list[CardLine] = []
        sides = graded.order[graded.starts[player] : graded.starts[player + 1]]
        m = graded.rows.size
        entries = []
        for position in sides.tolist():
            as_white = position < m
            g = position if as_white else position - m
            row = int(graded.rows[g])
            opponent = int(graded.black[g] if as_white else graded.white[g])
            score = float(graded.white_score[g] if as_white else 1.0 - graded.white_score[g])
            opp_grade = float(
                graded.white_opponent_grade[g] if as_white else graded.black_opponent_grade[g]
            )
            points = float(graded.white_points[g] if as_white else graded.black_points[g])
            horizon = bool(graded.white_horizon[g] if as_white else graded.black_horizon[g])
            played = _as_date(self.games[row].date)
            day = played if isinstance(played, dt.date) else dt.date.min
            entries.append((day, row, opponent, score, opp_grade, points, horizon))
        entries.sort(key=lambda e: (e[0], e[1]))
        own = p.grade
        for number, (day, _, opponent, score, opp_grade, points, horizon) in enumerate(
            entries, start=1
        ):
            limit = self.settings.horizon
            counted = opp_grade
            if own is not None and limit is not None:
                counted = min(max(opp_grade, own - limit), own + limit)
            game = CardGame(
                score,
                opp_grade,
                bool(graded.working.estimated[opponent]),
                self.players[opponent].name,
                day.isoformat() if day != dt.date.min else "",
            )
            lines.append(CardLine(number, game, GamePoints(points, opp_grade, counted, horizon)))
        # A rapid grade borrows nothing: the history on the Players table is standard play.
        standard = kind == STANDARD
        season = season_grade(
            float(graded.points[player]),
            int(graded.games[player]),
            [p.previous, p.earlier] if standard else [],
            min_games=self.settings.min_games,
            borrowing=self.settings.borrowing if standard and p.earlier_games else "pro_rata",
            earlier_games=p.earlier_games if standard else (),
            category_rules=self.settings.category_rules,
        )
        return Card(
            p.name,
            own,
            tuple(lines),
            season,
            self.settings.horizon,
            int(graded.enhancement[player]),
        )

    def list_table(self, kind: str = STANDARD) -> Table:
        """The Grading List (or Rapid List): players with a category the list publishes."""
        graded = self.standard if kind == STANDARD else self.rapid
        publish = {"A", "B", "C", "D", "E", "F"} | ({"*"} if self.settings.list_star else set())
        rows: list[tuple[object, ...]] = []
        order = sorted(
            (i for i in range(len(self.players)) if str(graded.category[i]) in publish),
            key=lambda i: (
                -(graded.grade[i] + graded.enhancement[i]),
                name_key(self.players[i].name),
            ),
        )
        for i in order:
            p = self.players[i]
            published = int(graded.grade[i]) + int(graded.enhancement[i])
            elo_rating = graded.elo[i] if graded.elo is not None else None
            rows.append(
                (
                    self.codes[i] or None,
                    p.name,
                    p.club or None,
                    int(graded.games[i]),
                    _number(graded.points[i]),
                    published,
                    str(graded.category[i]),
                    int(graded.enhancement[i]) or None,
                    round_half_away(float(ecf_to_elo(published, self.settings.conversion))),
                    _number(p.grade) if p.grade is not None else None,
                    int(graded.borrowed_games[i]) or None,
                    None if elo_rating is None or np.isnan(elo_rating) else int(elo_rating),
                )
            )
        return Table(LIST_HEADERS, rows)

    def cards_table(self, kind: str = STANDARD) -> Table:
        """Every graded player's card as rows of the Player Cards sheet."""
        graded = self.standard if kind == STANDARD else self.rapid
        rows: list[tuple[object, ...]] = []
        scores = {1.0: "1", 0.5: "½", 0.0: "0"}
        for i in np.flatnonzero(graded.games > 0).tolist():
            card = self.card(i, kind)
            code = self.codes[i] or None
            for line in card.lines:
                shown = format_points(line.game.opponent_grade)
                rows.append(
                    (
                        code,
                        card.name,
                        line.number,
                        line.game.date or None,
                        line.game.opponent,
                        scores[line.game.score],
                        f"[{shown}]" if line.game.estimated else shown,
                        format_points(line.points.points)
                        + ("*" if line.points.horizon_applied else ""),
                        None,
                    )
                )
            season = card.grade
            for b in season.borrowed:
                note = f"borrowed {b.games} of {b.season_games} games, {b.seasons_back} back"
                rows.append(
                    (code, card.name, None, None, None, None, None, format_points(b.points), note)
                )
            note = (
                f"{format_points(season.total_points)} / {season.total_games} = "
                f"{season.exact:.2f} → {season.grade}, category {season.category}"
            )
            if card.junior_enhancement:
                note += f"; junior +{card.junior_enhancement} → {card.published_grade}"
            rows.append((code, card.name, None, None, None, None, None, None, note))
        return Table(CARD_HEADERS, rows)

    def exceptions_table(self) -> Table:
        """The Exceptions sheet: one row per problem, with the accounting's summary last."""
        rows: list[tuple[object, ...]] = [(p.sheet, p.row, p.what, p.why) for p in self.problems]
        rows.append((None, None, "summary", self.accounting.summary()))
        return Table(EXCEPTION_HEADERS, rows)

    def next_season(self) -> tuple[list[Player], Settings]:
        """The Players table and settings to start the next season from this one.

        Decisions (the sources describe a season, not the hand-over):

        - A player on this season's published list starts next season with his published
          grade (junior enhancement included, as the list prints it).
        - A player graded this season but not published (category ``*`` when the list leaves
          it out) keeps his old grade; if he had none, his season grade becomes his
          *estimated grade*, a working grade to start from.
        - Every player's history moves back a season: this season's games and points become
          *previous*, the old *previous* becomes *earlier* (a season with no games counts as
          a season). Under the "most recent" borrowing rule, this season's dated games join
          the dated earlier games, and those older than the new *earlier* season are dropped;
          under pro rata no dated games are kept.
        - A grade lapses after three seasons without a standard-play game (this one and the two
          before it): it moves to *lapsed grade*, so that next season it is used as a working
          grade less the inactivity allowance (1997 leaflet: "If a player has had a grade in
          the past, then this can be used with an allowance for the length of inactivity").
        - The season's dates move on a year. A season of a whole year is followed by the next
          whole year from the day after it ends, so that no day (29 February) falls between
          two seasons; a name like "2025-26" becomes "2026-27".
        """
        graded = self.standard
        publish = {"A", "B", "C", "D", "E", "F"} | ({"*"} if self.settings.list_star else set())
        start, end = _next_dates(self.settings.season_start, self.settings.season_end)
        dated = self._dated_games() if self.settings.borrowing == "most_recent" else {}
        kept_from = _years_on(self.settings.season_start, -1)  # the new *earlier* season
        players: list[Player] = []
        for i, p in enumerate(self.players):
            games = int(graded.games[i])
            grade, estimate, lapsed = p.grade, p.estimated_grade, p.lapsed_grade
            if games and str(graded.category[i]) in publish:
                grade = float(int(graded.grade[i]) + int(graded.enhancement[i]))
                estimate = None
            elif games and p.grade is None:
                estimate = float(graded.grade[i])
            # Blank history is unknown, not idle: only recorded empty seasons count.
            idle = games == 0 and all(
                s is not None and s.games == 0 for s in (p.previous, p.earlier)
            )
            if idle and grade is not None:
                grade, lapsed = None, grade
            earlier_games: tuple[DatedPoints, ...] = ()
            if dated:
                old_games = [
                    g
                    for g in p.earlier_games
                    if isinstance(g.date, dt.date) and _day(g.date) >= kept_from
                ]
                earlier_games = (*dated.get(i, ()), *old_games)
            players.append(
                dataclasses.replace(
                    p,
                    grade=grade,
                    estimated_grade=estimate,
                    lapsed_grade=lapsed if grade is None else None,
                    previous=EarlierSeason(games, float(graded.points[i])),
                    earlier=p.previous,
                    earlier_games=earlier_games,
                )
            )
        old = self.settings
        name = old.season_name
        years = re.fullmatch(r"(\d{4})([-/–])(\d{2}|\d{4})", name.strip())
        if years:
            first = int(years[1]) + 1
            second = str(first + 1)[-len(years[3]) :]
            name = f"{first}{years[2]}{second}"
        settings = dataclasses.replace(
            old,
            season_name=name,
            season_start=start,
            season_end=end,
            junior_age_date=_a_year_on(old.junior_age_date) if old.junior_age_date else None,
        )
        return players, settings

    def _dated_games(self) -> dict[int, list[DatedPoints]]:
        """Each player's dated standard-play games of this season with their points."""
        graded = self.standard
        out: dict[int, list[DatedPoints]] = defaultdict(list)
        sides = (
            (graded.white, graded.white_points),
            (graded.black, graded.black_points),
        )
        for players, points in sides:
            for row, player, value in zip(
                graded.rows.tolist(), players.tolist(), points.tolist(), strict=True
            ):
                day = _as_date(self.games[row].date)
                if isinstance(day, dt.date):
                    out[player].append(DatedPoints(day, value))
        return out

    def tables(self) -> dict[str, Table]:
        """Every output sheet's block of cells, by sheet name."""
        out = {
            "Grading List": self.list_table(STANDARD),
            "Player Cards": self.cards_table(STANDARD),
            "Exceptions": self.exceptions_table(),
        }
        if self.rapid.rows.size:
            out["Rapid List"] = self.list_table(RAPID)
        return out


def _next_dates(start: dt.date, end: dt.date) -> tuple[dt.date, dt.date]:
    """The next season's first and last days: a whole year from the day after ``end`` when
    this season is a whole year, else both dates a year on."""
    one_day = dt.timedelta(days=1)
    if _a_year_on(start) - one_day == end:
        following = end + one_day
        return following, _a_year_on(following) - one_day
    return _a_year_on(start), _a_year_on(end)


def _a_year_on(day: dt.date) -> dt.date:
    """The same day a year later (28 February for 29 February)."""
    return _years_on(day, 1)


def _years_on(day: dt.date, years: int) -> dt.date:
    """The same day ``years`` later (or earlier); 28 February for 29 February."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return day.replace(year=day.year + years, day=28)


def _number(value: float | np.floating[npt.NBitBase]) -> float | int:
    as_float = float(value)
    return int(as_float) if as_float.is_integer() else round(as_float, 1)
