"""Every setting of a season, in one table: its name, its label on the Settings sheet, its kind,
its default, the values it may take, and the source of the default.

The table is the :class:`Settings` dataclass itself: each field is declared with
:func:`_setting`, whose arguments are that setting's row, and :data:`SETTINGS` lists the rows
in the order of the template's Settings sheet. Everything that handles settings reads them
from here: the engine's check (:func:`check`), the template builder and the workbook reader
(:mod:`xlgrade.workbook`), the CSV folder's ``settings.csv`` (:mod:`xlgrade.formats.folder`)
and the layout document (``docs/workbook-layout.md``, checked by a test). A new setting is
one more field here.

A setting's cell is read by its kind (:func:`read_cell`, through :mod:`xlgrade.cells`): a
blank cell is the default; ``none`` or ``off`` turns off a number that may be off (the
horizon); a number outside the setting's range is refused. The season's dates are the one
exception: left out, they are the season in which the games were played
(:func:`season_of`).
"""

from __future__ import annotations

import datetime as dt
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final, Literal

from xlgrade import cells
from xlgrade._rounding import quote
from xlgrade.convert import FORMULAS
from xlgrade.ecf import DEFAULT_HORIZON, GAMES_FOR_FULL_GRADE, MAX_GRADE, MAX_SEASON_GAMES
from xlgrade.ecf_rating import (
    FULL_RATING_GAMES,
    JUNIOR_K_RULES,
    P_METHODS,
    PARTIAL_NOMINALS,
    PARTIAL_OPPONENT_RULES,
    RATING_ROUNDINGS,
    RETURNING_NOMINALS,
)
from xlgrade.elo import DIFFERENCE_RULES, K_POLICIES
from xlgrade.errors import GradingError, SettingError
from xlgrade.model import BORROWING_RULES, CATEGORY_RULE_SETS

__all__ = [
    "ELIGIBILITY_FIGURES",
    "ELO_PERIODS",
    "GRADING_1997",
    "RATING_2020",
    "SEASON_END",
    "SEASON_START",
    "SETTINGS",
    "SYSTEMS",
    "Kind",
    "Season",
    "Setting",
    "Settings",
    "by_label",
    "by_name",
    "cell_text",
    "cell_value",
    "check",
    "check_value",
    "filled",
    "likely_label",
    "read_cell",
    "season_of",
    "shown",
    "text_rows",
]

Kind = Literal["text", "date", "number", "optional number", "integer", "choice", "yes/no"]
"""How a setting's cell is read: ``optional number`` is a number that ``none`` turns off."""

ELIGIBILITY_FIGURES: Final = ("grade", "rating")
"""The figures a division's rules may use: the published grade, or the ECF rating."""
ELO_PERIODS: Final = ("season", "month")
"""The Elo rating periods: the whole season, or each calendar month."""
GRADING_1997: Final = "ECF grading (1997 rules)"
"""The system of the 1997 leaflet: three-digit grades, a season at a time (docs/rules.md
§2 to §6)."""
RATING_2020: Final = "ECF rating (2020 rules)"
"""The ECF's system since July 2020: four-digit ratings, month by month (docs/rules.md
§12, :mod:`xlgrade.ecf_rating`)."""
SYSTEMS: Final = (GRADING_1997, RATING_2020)
"""The systems a season is worked out in, the default first."""
SEASON_START: Final = (6, 1)
"""(month, day) a season starts on: 1 June (docs/rules.md §11, "1 June to 31 May")."""
SEASON_END: Final = (5, 31)
"""(month, day) a season ends on: 31 May."""
_OFF: Final = frozenset({"none", "off", "no"})
"""Words that turn off a setting that may be off."""


@dataclass(frozen=True, slots=True)
class Setting:
    """One setting: one row of the table.

    Attributes:
        name: the :class:`Settings` field.
        label: the text of its row in the Settings sheet's ``Setting`` column (and in
            ``settings.csv``).
        kind: how its cell is read (:data:`Kind`).
        default: the value used when it is not given.
        meaning: the explanation shown beside it on the Settings sheet.
        source: where the default comes from.
        low: the least a number may be.
        high: the most a number may be.
        above_low: the number must be more than ``low``, not equal to it.
        choices: the values a ``choice`` may take (also the cell's drop-down list).
        optional: ``None`` is a value it may take (turned off, or not given).
        template: the value the template workbook is shipped with.
        on_sheet: whether the Settings sheet has a row for it.
    """

    name: str
    label: str
    kind: Kind
    default: object
    meaning: str
    source: str
    low: float = -math.inf
    high: float = math.inf
    above_low: bool = False
    choices: tuple[str, ...] = ()
    optional: bool = False
    template: object = None
    on_sheet: bool = True

    @property
    def field(self) -> str:
        """The :class:`Settings` field (the name the workbook layout used)."""
        return self.name


_SAME: Final = object()


def _setting(
    label: str,
    kind: Kind,
    default: object,
    meaning: str,
    source: str,
    *,
    low: float = -math.inf,
    high: float = math.inf,
    above_low: bool = False,
    choices: tuple[str, ...] = (),
    optional: bool = False,
    template: object = _SAME,
    on_sheet: bool = True,
) -> Any:
    """A field of :class:`Settings` carrying its row of the table (named when the class is
    made)."""
    row = Setting(
        "",
        label,
        kind,
        default,
        meaning,
        source,
        low,
        high,
        above_low,
        choices,
        optional or default is None or kind == "optional number",
        default if template is _SAME else template,
        on_sheet,
    )
    return field(default=default, metadata={"setting": row})


@dataclass(frozen=True, slots=True)
class Settings:
    """Every setting of a season, with the sources' defaults (one field, one row of the table:
    the arguments of each field are its label, kind, default, meaning and source).

    Attributes:
        season_name: shown on the lists, e.g. "2025-26".
        season_start: first day of the season; 1 June (docs/rules.md §11). A Settings
            sheet or ``settings.csv`` that leaves it out, and a recalculation given no
            settings (:func:`xlgrade.season.recalculate`), get the season the games were
            played in (:func:`season_of`); a ``Settings`` made without it has the table's
            2025-06-01, a value that does not depend on any games.
        season_end: last day of the season; 31 May.
        horizon: the grading horizon in points (YCA: "The limit fixed was 40"); ``None``
            turns it off.
        min_games: games a grade is based on before borrowing stops (30, 1997 leaflet).
        borrowing: ``"pro_rata"`` (1997 leaflet, YCA; default) or ``"most_recent"``.
        category_rules: ``"bcf1997"`` (default) or ``"ecf2015"``.
        junior_age_date: the day on which juniors' ages are taken; ``None`` means the day
            after the season ends, when the new list takes effect (a decision: the sources
            do not say).
        elo_k_policy: a K policy name from :mod:`xlgrade.elo`; ``None`` runs no Elo.
        elo_period: ``"season"`` or ``"month"``: the Elo rating period.
        elo_rule: the edition of FIDE's 400-point rule for the Elo column
            (:data:`xlgrade.elo.DIFFERENCE_RULES`); under ``"400-2022"`` an Elo period is the
            event of its one upgrade a player (a decision).
        elo_rapid_rule: the same for the rapid list; FIDE's rapid and blitz chapter
            (``"rapid-blitz"``) by default.
        conversion: ECF→Elo formula for the Elo equivalent column.
        floor_at_zero: game points below zero count as 0 (published ECF practice).
        list_star: include players of category ``*`` in the published list.
        inactivity_allowance: points taken off a lapsed grade used as a working grade.
        unanchored_grade: working grade for ungraded players with no graded opponent in
            their group; ``None`` leaves them unanchored (reported, not graded).
        under_12_divisions: divisions (comma-separated) whose players are all under 12: all
            moves in one hour are enough (1997 leaflet, rule C).
        under_10_divisions: the same for players all under 10: three-quarters of an hour.
        default_time_control: time control of rows that leave it blank.
        eligibility_figure: ``"grade"`` (the published grade at the start of the season) or
            ``"rating"`` (the ECF rating): the figure the divisions' rules use
            (:mod:`xlgrade.teams`).
        system: :data:`GRADING_1997` (default: grades, a season at a time) or
            :data:`RATING_2020` (ECF ratings, month by month over the season's months).
        p_method: the ECF rating's P-method formula (:data:`xlgrade.ecf_rating.P_METHODS`;
            FIDE table 8.1a by default, a decision).
        partial_opponent: how a K-method game against a partially rated opponent counts:
            ``"full"`` (default) or ``"half"`` (:data:`xlgrade.ecf_rating.PARTIAL_OPPONENT_RULES`).
        junior_k: a junior's k, 40 only in months above expectation (``"performance"``,
            default) or in every month (``"always"``; :data:`xlgrade.ecf_rating.JUNIOR_K_RULES`).
        returning_nominal: a returning player's fictional opponent, his last full rating
            (``"last"``, default) or the higher of it and the usual nominal (``"higher"``).
        partial_nominal: a partially rated player's fictional opponent, that of his first P
            month (``"first"``, default) or each month's (``"current"``).
        rating_rounding: the K method's rounding (:data:`xlgrade.ecf_rating.RATING_ROUNDINGS`).
        p_games_not_given: the earlier games of a P rating whose ``ECF P games`` is blank.
        tolerance: convergence tolerance of working grades, in grade points.
    """

    season_name: str = _setting(
        "Season name",
        "text",
        "",
        "Shown on the lists (blank, with both dates blank: the games' season, e.g. 2026-27).",
        "a decision",
    )
    season_start: dt.date = _setting(
        "Season start",
        "date",
        dt.date(2025, 6, 1),
        "First day (blank: 1 June of the season holding most of the games).",
        "docs/rules.md §11: the season runs from 1 June to 31 May",
        template=None,
    )
    season_end: dt.date = _setting(
        "Season end",
        "date",
        dt.date(2026, 5, 31),
        "Last day (blank: 31 May of that season, or a year after the start given).",
        "docs/rules.md §11",
        template=None,
    )
    horizon: float | None = _setting(
        "Horizon",
        "optional number",
        DEFAULT_HORIZON,
        "Grading horizon in points (none: no horizon; blank: 40).",
        "YCA, The 40 Point Grading Horizon: 'The limit fixed was 40'",
        low=0,
    )
    min_games: int = _setting(
        "Minimum games",
        "integer",
        GAMES_FOR_FULL_GRADE,
        "Games before borrowing from earlier seasons stops.",
        "1997 leaflet: 'If there are less than 30 games in the current year…'",
        low=0,
        high=MAX_SEASON_GAMES,
    )
    borrowing: Literal["pro_rata", "most_recent"] = _setting(
        "Borrowing rule",
        "choice",
        "pro_rata",
        "How games are borrowed from earlier seasons.",
        "1997 leaflet and YCA: a proportion of the earlier seasons' results",
        choices=BORROWING_RULES,
    )
    category_rules: Literal["bcf1997", "ecf2015"] = _setting(
        "Category rules",
        "choice",
        "bcf1997",
        "Which rule set gives the grade categories.",
        "1997 leaflet (categories A to E, *)",
        choices=CATEGORY_RULE_SETS,
    )
    junior_age_date: dt.date | None = _setting(
        "Junior age date",
        "date",
        None,
        "Day juniors' ages are taken on (blank: the day after the season ends).",
        "a decision: the sources do not say",
    )
    elo_k_policy: str | None = _setting(
        "Elo K policy",
        "choice",
        None,
        "K policy for the Elo rating column (blank: no Elo ratings).",
        "a decision: Elo ratings are not part of ECF grading",
        choices=K_POLICIES,
    )
    elo_period: Literal["season", "month"] = _setting(
        "Elo period",
        "choice",
        "season",
        "Elo rating period: the whole season, or each calendar month.",
        "a decision: one season is the grading period",
        choices=ELO_PERIODS,
    )
    elo_rule: str = _setting(
        "Elo 400-point rule",
        "choice",
        "400",
        "Edition of FIDE's 400-point rule for the Elo column (400-2022: one upgrade a player "
        "an Elo period; rapid-blitz: games 600 apart with a player above 2600 not rated).",
        "FIDE Rating Regulations 8.3.1 (docs/rules.md §9): the rule from July 2009",
        choices=tuple(DIFFERENCE_RULES),
    )
    elo_rapid_rule: str = _setting(
        "Elo rapid 400-point rule",
        "choice",
        "rapid-blitz",
        "The same for the Rapid List's Elo column (blank: FIDE's rapid and blitz chapter).",
        "FIDE Rapid and Blitz Rating Regulations 7.3.1 (docs/rules.md §9)",
        choices=tuple(DIFFERENCE_RULES),
    )
    conversion: Literal["fide", "national", "ecf2020"] = _setting(
        "Conversion",
        "choice",
        "fide",
        "ECF to Elo formula for the Elo equivalent.",
        "xlgrade.convert: the FIDE formula first",
        choices=FORMULAS,
    )
    floor_at_zero: bool = _setting(
        "Floor at zero",
        "yes/no",
        True,
        "Game points below 0 count as 0.",
        "published ECF practice",
    )
    list_star: bool = _setting(
        "List category *",
        "yes/no",
        False,
        "Publish players of category * too.",
        "1997 leaflet: category * grades are not published",
    )
    inactivity_allowance: float = _setting(
        "Inactivity allowance",
        "number",
        0.0,
        "Points taken off a lapsed grade used as a working grade.",
        "a decision: the sources give no figure",
        low=0,
        high=MAX_GRADE,
    )
    unanchored_grade: float | None = _setting(
        "Unanchored grade",
        "optional number",
        None,
        "Working grade for newcomers who only played each other (blank: not graded).",
        "a decision: the sources do not say",
        low=0,
        high=MAX_GRADE,
    )
    under_12_divisions: str = _setting(
        "Under-12 divisions",
        "text",
        "",
        "Divisions whose players are all under 12 (comma-separated): all moves in 1 hour count.",
        "1997 leaflet, rule C",
    )
    under_10_divisions: str = _setting(
        "Under-10 divisions",
        "text",
        "",
        "Divisions whose players are all under 10: all moves in 45 minutes count.",
        "1997 leaflet, rule C",
    )
    default_time_control: str = _setting(
        "Default time control",
        "text",
        "",
        "Time control of rows that leave it blank.",
        "a decision: the league's usual time control",
    )
    eligibility_figure: Literal["grade", "rating"] = _setting(
        "Eligibility figure",
        "choice",
        "grade",
        "Which figure the Divisions sheet's rules use: the published grade, or the ECF rating.",
        "docs/rules.md §13: leagues set their limits by grades, or since 2020 by ratings",
        choices=ELIGIBILITY_FIGURES,
    )
    system: str = _setting(
        "System",
        "choice",
        GRADING_1997,
        "ECF grading (1997 rules): grades for the season; ECF rating (2020 rules): ratings "
        "month by month.",
        "docs/rules.md §12: the ECF's ratings replaced grades in July 2020; the seeds "
        "describe the grading",
        choices=SYSTEMS,
    )
    p_method: str = _setting(
        "P-method formula",
        "choice",
        P_METHODS[0],
        "ECF rating: the P method's performance formula (fide-8.1a, logistic, linear-400).",
        "a decision (docs/rules.md §12): the ECF's pages do not give it; FIDE table 8.1a, "
        "the table the K method's expected scores come from",
        choices=P_METHODS,
    )
    # -- The ECF rating's open choices (xlgrade.ecf_rating.DECISIONS), each with its source.
    partial_opponent: str = _setting(
        "Partial opponents",
        "choice",
        PARTIAL_OPPONENT_RULES[0],
        "ECF rating: a K-method game against a partially rated opponent counts in full (the "
        "newer help page), or half (the older page's 'K of 40 for that opponent').",
        "the ECF's newer rating help page (rating.englishchess.org.uk/sandbox/help/"
        "help_rating.php, the 36-month text) has no halving sentence; half: the older page "
        "(ecfrating.org.uk/v2/help/help_rating.php, 'prior 60 months'): 'When using an "
        "opponents Partial Rating use a K of 40 for that opponent. This has the effect of "
        "reducing any rating adjustment by 50%'",
        choices=PARTIAL_OPPONENT_RULES,
    )
    junior_k: str = _setting(
        "Junior k",
        "choice",
        JUNIOR_K_RULES[0],
        "ECF rating: a junior's k is 40 in months above expectation and 20 below "
        "(performance), or 40 in every month (always).",
        "the ECF's rating officer, ecforum.org.uk t=11960, 30 July 2021: 'a k-factor of 40 in "
        "months of above expectation performance and a k-factor of 20 for months of below "
        "expectation performance'",
        choices=JUNIOR_K_RULES,
    )
    returning_nominal: str = _setting(
        "Returning player's nominal",
        "choice",
        RETURNING_NOMINALS[0],
        "ECF rating: a returning player's fictional opponent is his last full rating (last), "
        "or the higher of it and the usual nominal (higher).",
        "the ECF's rating categories (June 2022): 'treated as a new player with one dummy game "
        "assuming a draw against an opponent with the players last full rating'",
        choices=RETURNING_NOMINALS,
    )
    partial_nominal: str = _setting(
        "Partial player's nominal",
        "choice",
        PARTIAL_NOMINALS[0],
        "ECF rating: a partially rated player's fictional opponent stays that of his first P "
        "month (first), or is each month's (current).",
        "a decision: the help page's one 'fictional draw against a fictional opponent of "
        "nominal rating' is one game, played when the P rating begins",
        choices=PARTIAL_NOMINALS,
    )
    rating_rounding: str = _setting(
        "Rating rounding",
        "choice",
        RATING_ROUNDINGS[0],
        "ECF rating: the K method's month change is rounded to a whole number and added "
        "(change), or added unrounded and the new rating rounded (rating).",
        "unsourced: no ECF page says how a rating is made whole; change is FIDE's rounding of "
        "a period's change",
        choices=RATING_ROUNDINGS,
    )
    p_games_not_given: int = _setting(
        "P games not given",
        "integer",
        5,
        "ECF rating: the earlier games a P rating on Players is taken to be on when ECF P games "
        "is blank (0: none, his P rating this season on this season's games alone).",
        "a decision (docs/rules.md §12): the ECF's list gives no count; a partial rating is on "
        "1 to 9 games, 5 the middle",
        low=0,
        high=FULL_RATING_GAMES - 1,
    )
    # -- End of the ECF rating's open choices.
    tolerance: float = _setting(
        "Tolerance",
        "number",
        0.01,
        "Convergence tolerance of working grades, in grade points.",
        "a decision: a hundredth of a grade point",
        low=0,
        above_low=True,
        on_sheet=False,
    )

    @property
    def age_date(self) -> dt.date:
        """The day juniors' ages are taken on: ``junior_age_date`` or the day after the season."""
        return self.junior_age_date or self.season_end + dt.timedelta(days=1)


SETTINGS: Final[tuple[Setting, ...]] = tuple(
    replace(f.metadata["setting"], name=f.name) for f in fields(Settings)
)
"""The table: every setting, in the order of the Settings sheet (those not on it last)."""
_BY_KEY: Final = {cells.header_key(s.label): s for s in SETTINGS}
_BY_NAME: Final = {s.name: s for s in SETTINGS}


def by_label(label: object) -> Setting | None:
    """The setting whose label is ``label`` (compared as headers are: case, spaces, dots,
    dashes and underscores ignored), or ``None``."""
    return _BY_KEY.get(cells.header_key(label))


def by_name(name: str) -> Setting:
    """The setting of the :class:`Settings` field ``name``.

    Raises:
        KeyError: no setting has that name.
    """
    return _BY_NAME[name]


def likely_label(label: object) -> str | None:
    """The label of a Settings sheet row that ``label``, not itself a label, was probably
    meant to be (``"Horizen"`` → ``"Horizon"``), or ``None``."""
    return cells.likely_header(label, [s.label for s in SETTINGS if s.on_sheet])


def shown(value: object) -> str:
    """A setting's value as a message quotes it: a date as ISO text, anything else quoted."""
    return value.isoformat() if isinstance(value, dt.date) else quote(value)


def cell_value(settings: Settings | None, spec: Setting) -> object:
    """The value the Settings sheet holds for ``spec``'s setting of ``settings`` (``None``:
    the template's value): ``yes`` or ``no`` for a yes/no setting, ``none`` for one turned
    off whose default is on (a blank cell reads as the default), else the value itself (the
    template leaves empty text blank)."""
    value = spec.template if settings is None else getattr(settings, spec.name)
    if spec.kind == "yes/no":
        return "yes" if value else "no"
    if value is None and settings is None:
        return None  # the template leaves it blank: the season's dates, from the games
    if value is None and spec.default is not None:
        return "none"
    return None if value == "" and settings is None else value


def cell_text(settings: Settings | None, spec: Setting) -> str:
    """:func:`cell_value` as the text of a ``settings.csv`` cell: dates ISO, whole numbers
    without ``.0``, blank for none."""
    value = cell_value(settings, spec)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    return cells.text(value)


def text_rows(settings: Settings | None) -> list[tuple[str, str]]:
    """The settings as ``(label, text)`` pairs, one for each row of the Settings sheet, as
    ``settings.csv`` holds them (:func:`cell_text`)."""
    return [(spec.label, cell_text(settings, spec)) for spec in SETTINGS if spec.on_sheet]


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def check_value(spec: Setting, value: object) -> None:
    """Refuse ``value`` for the setting ``spec`` unless it is of the setting's kind and within
    its range or choices.

    Raises:
        SettingError: naming the setting and quoting the value.
    """
    what = f"{spec.label} {shown(value)}"
    if value is None:
        if spec.optional:
            return
        raise SettingError(f"{what} must be given")
    if spec.kind in ("number", "optional number", "integer"):
        if spec.kind == "integer" and not (isinstance(value, int) and _is_number(value)):
            raise SettingError(f"{what} is not a whole number")
        if not _is_number(value):
            raise SettingError(f"{what} is not a number")
        number = float(value)  # type: ignore[arg-type]
        if number < spec.low or (spec.above_low and number == spec.low) or number > spec.high:
            raise SettingError(f"{what} is not {_range(spec)}")
    elif spec.kind == "choice":
        if value not in spec.choices:
            raise SettingError(f"{what} is not one of {', '.join(map(repr, spec.choices))}")
    elif spec.kind == "date":
        if not isinstance(value, dt.date):
            raise SettingError(f"{what} is not a date")
    elif spec.kind == "yes/no":
        if not isinstance(value, bool):
            raise SettingError(f"{what} is not yes or no")
    elif not isinstance(value, str):
        raise SettingError(f"{what} is not text")


def _range(spec: Setting) -> str:
    """The range of a number setting in words: ``from 0 to 400``, ``0 or more``, ``more than
    0``."""
    if spec.above_low:
        return f"more than {spec.low:g}"
    if math.isinf(spec.high):
        return f"{spec.low:g} or more"
    return f"from {spec.low:g} to {spec.high:g}"


def check(settings: Settings) -> None:
    """Refuse settings no season can be graded with: each value of its setting's kind and
    within its range or choices (:func:`check_value`), and a season that ends on or after
    the day it starts.

    Raises:
        SettingError: naming the first setting at fault and quoting its value.
    """
    for spec in SETTINGS:
        check_value(spec, getattr(settings, spec.name))
    if settings.season_end < settings.season_start:
        raise SettingError(
            f"the season ends ({settings.season_end}) before it starts ({settings.season_start})"
        )


def read_cell(spec: Setting, value: object) -> object:
    """The value of the setting ``spec`` that a cell holding ``value`` gives: a blank cell is
    the default; ``none``/``off`` turns off a setting that may be off; otherwise the cell is
    read by the setting's kind (:mod:`xlgrade.cells`) and checked (:func:`check_value`).

    Raises:
        GradingError: the cell cannot be read as the setting's kind, or is out of its range
            (the message quotes it).
    """
    if cells.blank(value):
        return spec.default
    if spec.optional and spec.kind != "text" and cells.text(value).lower() in _OFF:
        return None
    read: object
    if spec.kind == "text":
        read = cells.text(value)
    elif spec.kind == "date":
        read = cells.date(value)
    elif spec.kind in ("number", "optional number"):
        read = cells.number(value)
    elif spec.kind == "integer":
        read = cells.whole(value)
    elif spec.kind == "yes/no":
        read = cells.yes_no(value)
    else:
        # A choice is matched without regard to case and spaces at either end.
        typed = cells.text(value).strip().casefold()
        read = next((c for c in spec.choices if c.casefold() == typed), typed)
        if read not in spec.choices:
            raise SettingError(f"{cells.quote(value)} is not one of {', '.join(spec.choices)}")
    try:
        check_value(spec, read)
    except SettingError:
        raise SettingError(f"{cells.quote(value)} is not {_range(spec)}") from None
    return read


@dataclass(frozen=True, slots=True)
class Season:
    """The season the games were played in, when the settings do not say.

    Attributes:
        start: its first day, 1 June.
        end: its last day, 31 May.
        games: how many dated games were played in it.
        dated: how many games had a date at all.
    """

    start: dt.date
    end: dt.date
    games: int
    dated: int

    @property
    def name(self) -> str:
        """The season's name as lists show it: ``"2025-26"``."""
        return f"{self.start.year}-{self.end.year % 100:02d}"

    @property
    def note(self) -> str:
        """What was decided, in words, for the console and the Exceptions sheet."""
        span = f"the {self.name} season ({self.start} to {self.end})"
        if self.dated == 0:
            return f"{span}, the one holding today: no game is dated"
        if self.games == self.dated:
            return f"{span}, the one the games were played in"
        return (
            f"{span}, the one holding most of the games ({self.games} of the {self.dated} "
            "dated games; the others are outside it)"
        )


def _start_of(day: dt.date) -> dt.date:
    """1 June of the season ``day`` falls in."""
    year = day.year if (day.month, day.day) >= SEASON_START else day.year - 1
    return dt.date(year, *SEASON_START)


def season_of(dates: Iterable[dt.date | None], today: dt.date | None = None) -> Season:
    """The season (1 June to 31 May, docs/rules.md §11) the games dated ``dates`` were
    played in. Games spanning several seasons: the season holding the most of them, the later
    one on a tie (a decision: a league grades the season it is in). No dated game: the season
    holding ``today`` (by default the day it is run)."""
    starts = Counter(_start_of(d) for d in dates if isinstance(d, dt.date))
    dated = sum(starts.values())
    if starts:
        start = max(starts, key=lambda s: (starts[s], s))
    else:
        start = _start_of(today or dt.date.today())
    end = dt.date(start.year + 1, *SEASON_END)
    return Season(start, end, starts.get(start, 0), dated)


def filled(
    values: Mapping[str, object], dates: Iterable[dt.date | None]
) -> tuple[dict[str, object], Season | None]:
    """``values`` (setting name → value read) with the season's dates filled in when one or
    both are not given: from the other date given (a season is a year), else from the games
    (:func:`season_of`), a blank season name then that season's (``"2026-27"``); and the
    season worked out from the games, if it was."""
    out = dict(values)
    start, end = out.get("season_start"), out.get("season_end")
    if isinstance(start, dt.date) and isinstance(end, dt.date):
        return out, None
    if isinstance(start, dt.date):
        out["season_end"] = _a_year_on(start) - dt.timedelta(days=1)
        return out, None
    if isinstance(end, dt.date):
        out["season_start"] = _a_year_on(end, -1) + dt.timedelta(days=1)
        return out, None
    season = season_of(dates)
    out["season_start"], out["season_end"] = season.start, season.end
    if not out.get("season_name"):
        out["season_name"] = season.name
    return out, season


def _a_year_on(day: dt.date, years: int = 1) -> dt.date:
    """The same day ``years`` years on (28 February for 29 February in a common year)."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return day.replace(year=day.year + years, day=28)


def _checked_table() -> None:
    """Refuse, when the module loads, a table whose defaults its own checks refuse."""
    for spec in SETTINGS:
        try:
            check_value(spec, spec.default)
        except GradingError as error:  # pragma: no cover - a wrong row in the table
            raise AssertionError(f"settings table: {spec.name}: {error}") from None


_checked_table()
