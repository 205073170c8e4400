"""Which games count: standard play, rapidplay (a separate list) or neither, by the rules of
the system in use (:data:`RULES`, one table a system).

**ECF grading (1997 rules).** Source: the 1997 BCF leaflet, *Eligibility of Games for
Grading* (docs/rules.md §11):

    A. At least a thirty-move session is played at a speed no faster than an average of
       2 minutes a move
    B. When a quickplay finish is applied, at least 10 minutes extra are allowed to each player
       after a session of 40 moves or more and at least 15 minutes extra … after a session of
       30 moves or more.
    C. Where each player has to complete all his moves in a fixed time, the fixed time is not
       less than one and a quarter hours … tournaments only containing players aged under 12 …
       one hour … under 10 … three-quarters of an hour.
    D. Where Fischer mode is used, each player should have a minimum of 1 hour, plus a minimum
       of 30 seconds for each move.

Rapidplay (from 15 to under 60 minutes each, increments counted over 60 moves) is graded on a
separate list; lightning and correspondence are not graded.

Time controls are written in a short text form, per player:

=================  ===========================================================
``75`` / ``G/75``  all moves in 75 minutes (rule C)
``30/75, 15``      30 moves in 75 minutes, then 15 minutes to finish (A and B)
``40/100``         40 moves in 100 minutes, sessions repeating (rule A)
``60+30``          Fischer: 60 minutes plus 30 seconds a move (rule D)
``40/90+30, 30+30``  FIDE style: moves/minutes + increment, then the rest
``rapid``          a rapidplay game whose exact control is not recorded
``blitz``          a blitz game; ``lightning`` (also ``bullet``); ``correspondence``
=================  ===========================================================

**ECF rating (2020 rules).** Sources: the ECF's "Rules for acceptance of games for rating"
(englishchess.org.uk, effective from September 2020) and its rating help page "Game
eligibility for rating" (ecfrating.org.uk; docs/rules.md §11b):

    Rapidplay: each player must have at least 10 minutes, and less than 60 minutes, for all
    moves, the initial control and any later control or quickplay finish included; in
    Fischer mode the time is counted on the assumption that the game lasts 60 moves.
    Standardplay: each player has more time than the rapidplay maximum.
    Lightning, correspondence and online games are excluded; defaults, byes and absences
    are not rated.

So a control is read by one figure, each player's minutes for all moves over 60 moves
(:meth:`TimeControl.minutes_for_all_moves`): 60 or more is standard play (``75+10``,
``90+15``, ``60``, ``60+10``, ``45+15``), 10 to under 60 rapidplay (``15``, ``30``,
``25+5``), under 10 not rated. Rules A to D and the age allowances of rule C are the
leaflet's and do not apply. Decisions where the pages are silent: a delay (``25d5``) counts
as an increment does (docs/rules.md §11b, "an increment (Fischer) or delay"), and so does
an increment in any period; sessions with a move count repeat until the 60 moves are
reached.

Blitz is left out: the ECF's rating list has blitz columns, but neither page above gives the
blitz list's rate of play (the help page names only rapidplay and standard play, and excludes
lightning). The one statement found is a club's page quoting it, and its two seasons' versions
differ on the upper bound (3 minutes or more and "up to a maximum of 10", then "less than
10"). So a game under 10 minutes, ``blitz`` included, is not rated, and the reason says so.

Minutes may be written ``75m`` and seconds ``30s``; a delay is written ``d`` and its seconds
after the minutes (``25d5``, "25 minutes with a 5-second delay a move"); spaces are ignored.

Graded by the 1997 rules, decisions where the leaflet is silent: a control whose first period
has an increment is Fischer mode and rule D applies to that period (and rule A to a first
period with a move count, its time including the increments of those moves); an increment
only in a later period ("30/75, 15+10") only adds time, so rules A and B apply as without it;
a control that is neither standard nor between 15 and 60 minutes over 60 moves is "not
gradable", with the rule it fails as the reason; a delay counts as an increment does;
``blitz`` is lightning, which the leaflet does not grade.

>>> classify("30/75, 15").kind
'standard'
>>> classify("74").reason
'all moves in 74 minutes is under 75 minutes (rule C)'
>>> classify("75+10", system=RATING_2020).kind
'standard'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Final, Literal

from xlgrade._rounding import quote
from xlgrade.errors import TimeControlError
from xlgrade.settings import GRADING_1997, RATING_2020

__all__ = [
    "RULES",
    "AcceptanceRules",
    "Band",
    "Period",
    "Playability",
    "TimeControl",
    "classify",
    "parse_time_control",
]

MINUTES_PER_MOVE: Final = 2.0
"""Rule A: "no faster than an average of 2 minutes a move"."""
SESSION_MOVES: Final = 30
"""Rule A: "At least a thirty-move session"."""
FIXED_TIME_MINUTES: Final = {None: 75.0, 12: 60.0, 10: 45.0}
"""Rule C: 1¼ hours; one hour if all players are under 12; ¾ hour if all are under 10."""
FISCHER_BASE_MINUTES: Final = 60.0
"""Rule D: "a minimum of 1 hour"."""
FISCHER_INCREMENT_SECONDS: Final = 30.0
"""Rule D: "a minimum of 30 seconds for each move"."""
RAPID_MOVES: Final = 60
"""Rapidplay: increments are counted over 60 moves."""
RAPID_MINUTES: Final = (15.0, 60.0)
"""Rapidplay: from 15 to under 60 minutes each."""

RATED_MOVES: Final = 60
"""ECF rating (2020 rules): "the duration of the game is 60 moves"."""
RATED_RAPID_MINUTES: Final = (10.0, 60.0)
"""ECF rating (2020 rules): rapidplay is "at least 10 minutes, and less than 60 minutes, for
all moves"; standard play has more."""

Kind = Literal["standard", "rapid", "not gradable"]


@dataclass(frozen=True)
class Period:
    """One period of a time control, per player.

    Attributes:
        moves: moves to be made in the period; ``None`` for the rest of the game.
        minutes: time for the period.
        increment: seconds added per move (Fischer mode), or of delay a move; 0 for none.
        delay: the seconds are a delay (``25d5``), not an increment.
    """

    moves: int | None
    minutes: float
    increment: float = 0.0
    delay: bool = False


@dataclass(frozen=True)
class TimeControl:
    """A parsed time control: its periods, or a keyword (``rapid``, ``blitz``, ``correspondence``).

    Attributes:
        periods: the periods in order; empty for a keyword.
        keyword: ``"rapid"``, ``"lightning"`` or ``"correspondence"``, else ``None``.
        text: the text as typed.
    """

    periods: tuple[Period, ...]
    keyword: str | None
    text: str

    def minutes_over(self, moves: int) -> float:
        """Minutes a player has for the first ``moves`` moves, increments included."""
        total = 0.0
        played = 0
        for period in self.periods:
            if played >= moves:
                break
            span = moves - played if period.moves is None else min(period.moves, moves - played)
            total += period.minutes + span * period.increment / 60.0
            played += span if period.moves is None else period.moves
            if period.moves is None:
                break
        return total

    def minutes_for_all_moves(self, moves: int = RATED_MOVES) -> float:
        """Minutes a player has for all the moves of a game of ``moves`` moves: every period
        in full, up to and including the finish, even one that begins after the ``moves``th
        move (the ECF: "the initial control and any later control or quickplay finish
        included", so ``40/35, 20/15, 15`` is 35 + 15 + 15 = 65 and ``60/50, 15`` is 65),
        increments and delays over the moves of the ``moves`` made in it, and a last period
        with a move count repeated until the moves are made (ECF rating, 2020 rules: the
        module's description)."""
        total = 0.0
        played = 0
        for period in self.periods:
            span = moves - played if period.moves is None else min(period.moves, moves - played)
            total += period.minutes + max(span, 0) * period.increment / 60.0
            played += moves if period.moves is None else period.moves
        last = self.periods[-1] if self.periods else None
        while last is not None and last.moves is not None and played < moves:
            span = min(last.moves, moves - played)
            total += last.minutes + span * last.increment / 60.0
            played += last.moves
        return total


@dataclass(frozen=True)
class Playability:
    """Whether games at a time control are graded, and on which list.

    Attributes:
        kind: ``"standard"``, ``"rapid"`` or ``"not gradable"`` (on no list of the system:
            not graded, or not rated).
        reason: for anything not standard, which rule it fails, in words.
    """

    kind: Kind
    reason: str | None


@dataclass(frozen=True)
class Band:
    """One row of a system's table: the games whose minutes over 60 moves are at least
    ``low`` and less than ``high`` go on list ``kind`` (``"not gradable"``: on none).

    Attributes:
        kind: the list, or ``"not gradable"``.
        low: the least minutes over 60 moves, inclusive.
        high: the most, exclusive.
        words: the reason given for a game in the band, ``{minutes}`` its minutes.
    """

    kind: Kind
    low: float
    high: float
    words: str


@dataclass(frozen=True)
class AcceptanceRules:
    """The acceptance rules of one system: how a control's minutes are counted, the bands by
    those minutes, and what its keywords are.

    Attributes:
        system: the ``System`` setting's value (:data:`xlgrade.settings.SYSTEMS`).
        source: the rules' source, as the reasons cite it.
        leaflet: standard play is decided first by the 1997 leaflet's rules A to D
            (:func:`_standard_failure`); the bands then place what fails them. Otherwise the
            bands alone decide, by :meth:`TimeControl.minutes_for_all_moves`.
        bands: the rows of the table, by minutes over 60 moves.
        keywords: the list and reason of each keyword (:class:`TimeControl.keyword`).
    """

    system: str
    source: str
    leaflet: bool
    bands: tuple[Band, ...]
    keywords: dict[str, Playability]

    def band(self, minutes: float) -> Band | None:
        """The band ``minutes`` over 60 moves fall in, ``None`` for none."""
        for band in self.bands:
            if band.low <= minutes < band.high:
                return band
        return None


SOURCE_1997: Final = "1997 leaflet"
SOURCE_2020: Final = "ECF rules for acceptance of games for rating, September 2020"

RULES: Final[dict[str, AcceptanceRules]] = {
    GRADING_1997: AcceptanceRules(
        GRADING_1997,
        SOURCE_1997,
        leaflet=True,
        bands=(
            Band("rapid", RAPID_MINUTES[0], RAPID_MINUTES[1],
                 "{minutes} minutes over 60 moves is rapidplay"),
            Band("not gradable", 0.0, RAPID_MINUTES[0],
                 "{minutes} minutes over 60 moves is lightning"),
        ),
        keywords={
            "rapid": Playability("rapid", "rapidplay is graded on a separate list"),
            "blitz": Playability("not gradable", "lightning chess is not graded"),
            "lightning": Playability("not gradable", "lightning chess is not graded"),
            "correspondence": Playability(
                "not gradable", "correspondence chess is not graded here"
            ),
        },
    ),
    RATING_2020: AcceptanceRules(
        RATING_2020,
        SOURCE_2020,
        leaflet=False,
        bands=(
            Band("standard", RATED_RAPID_MINUTES[1], math.inf, ""),
            Band("rapid", RATED_RAPID_MINUTES[0], RATED_RAPID_MINUTES[1],
                 f"{{minutes}} minutes each for all moves (60 moves assumed) is rapidplay: at "
                 f"least 10 and less than 60 minutes ({SOURCE_2020})"),
            Band("not gradable", 0.0, RATED_RAPID_MINUTES[0],
                 f"{{minutes}} minutes each for all moves (60 moves assumed) is under the "
                 f"rapidplay minimum of 10 minutes: not rated ({SOURCE_2020})"),
        ),
        keywords={
            "rapid": Playability("rapid", f"rapidplay is rated on a separate list ({SOURCE_2020})"),
            "blitz": Playability(
                "not gradable",
                f"blitz is under the rapidplay minimum of 10 minutes: not rated ({SOURCE_2020})",
            ),
            "lightning": Playability(
                "not gradable", "lightning games are excluded (ECF rating help, eligibility)"
            ),
            "correspondence": Playability(
                "not gradable", "correspondence games are excluded (ECF rating help, eligibility)"
            ),
        },
    ),
}  # fmt: skip
"""The acceptance rules of each system (docs/rules.md §11 and §11b): the ``System``
setting picks one."""


_KEYWORDS: Final = {
    "rapid": "rapid", "rapidplay": "rapid", "quickplay": "rapid",
    "blitz": "blitz", "lightning": "lightning", "bullet": "lightning",
    "correspondence": "correspondence", "corr": "correspondence", "email": "correspondence",
}  # fmt: skip
_NUMBER = r"(\d+(?:\.\d+)?)"
_PERIOD = re.compile(
    rf"^(?:(?P<moves>\d+)/)?(?:g/)?{_NUMBER.replace('(', '(?P<minutes>', 1)}m?"
    rf"(?:\+{_NUMBER.replace('(', '(?P<increment>', 1)}s?"
    rf"|d{_NUMBER.replace('(', '(?P<delay>', 1)}s?)?$"
)

_SPACES = re.compile(r"\s+")
_PERIOD_BREAK = re.compile(r"[,;]")


def parse_time_control(text: str) -> TimeControl:
    """Read a time control in xlgrade's text form (see the module's table).

    Raises:
        TimeControlError: quoting the text and saying which part was not understood.
    """
    if not isinstance(text, str):
        raise TimeControlError(f"time control {quote(text)} is not text")
    compact = _SPACES.sub("", text.lower().replace("min", "m").replace("sec", "s"))
    if not compact:
        raise TimeControlError("time control is blank")
    if compact in _KEYWORDS:
        return TimeControl((), _KEYWORDS[compact], text)
    periods: list[Period] = []
    parts = _PERIOD_BREAK.split(compact)
    for index, part in enumerate(parts):
        match = _PERIOD.match(part)
        if match is None:
            raise TimeControlError(f"time control {quote(text)}: part {quote(part)} not understood")
        moves = int(match["moves"]) if match["moves"] else None
        minutes = float(match["minutes"])
        delay = match["delay"] is not None
        added = match["delay"] if delay else match["increment"]
        increment = float(added) if added else 0.0
        if moves is not None and moves <= 0:
            raise TimeControlError(f"time control {quote(text)}: {moves} moves is not a session")
        if moves is None and index != len(parts) - 1:
            raise TimeControlError(
                f"time control {quote(text)}: {quote(part)} has no move count but is not the last "
                f"period"
            )
        periods.append(Period(moves, minutes, increment, delay))
    return TimeControl(tuple(periods), None, text)


def classify(
    control: str | TimeControl,
    *,
    system: str = GRADING_1997,
    all_players_under: int | None = None,
) -> Playability:
    """Whether games at ``control`` count as standard play, rapidplay, or not at all, by the
    acceptance rules of ``system`` (:data:`RULES`; the season's ``System`` setting).

    Args:
        control: a time control, as text or parsed.
        system: :data:`xlgrade.settings.GRADING_1997` (the default) or
            :data:`xlgrade.settings.RATING_2020`.
        all_players_under: 12 or 10 when every player in the event is under that age, for
            rule C's allowances (one hour, three-quarters of an hour); the 2020 rules have
            none, so it is not used there.
    """
    rules = RULES.get(system)
    if rules is None:
        raise TimeControlError(f"system {quote(system)} is not one of {list(RULES)}")
    tc = parse_time_control(control) if isinstance(control, str) else control
    if all_players_under not in FIXED_TIME_MINUTES:
        raise TimeControlError(
            f"all_players_under {quote(all_players_under)} must be 12, 10 or None (rule C)"
        )
    if tc.keyword is not None:
        return rules.keywords[tc.keyword]
    failure = None
    if rules.leaflet:
        failure = _standard_failure(tc, all_players_under)
        if failure is None:
            return Playability("standard", None)
        minutes = tc.minutes_over(RAPID_MOVES)
    else:
        minutes = tc.minutes_for_all_moves(RATED_MOVES)
    band = rules.band(minutes)
    if band is None:
        return Playability("not gradable", failure)
    if band.kind == "standard":
        return Playability("standard", None)
    return Playability(band.kind, band.words.format(minutes=f"{minutes:g}"))


def _standard_failure(tc: TimeControl, under: int | None) -> str | None:
    """Which rule stops ``tc`` being standard play, in words; ``None`` if it is standard."""
    first = tc.periods[0]
    if first.increment > 0:
        if first.minutes < FISCHER_BASE_MINUTES:
            return (
                f"Fischer mode with {first.minutes:g} minutes is under "
                f"{FISCHER_BASE_MINUTES:g} minutes (rule D)"
            )
        if first.increment < FISCHER_INCREMENT_SECONDS:
            return (
                f"Fischer mode with {first.increment:g} seconds a move is under "
                f"{FISCHER_INCREMENT_SECONDS:g} seconds (rule D)"
            )
        if first.moves is not None:
            return _session_failure(tc)
        return None
    if first.moves is None:
        needed = FIXED_TIME_MINUTES[under]
        if first.minutes < needed:
            who = "" if under is None else f" for players all under {under}"
            return (
                f"all moves in {first.minutes:g} minutes is under {needed:g} minutes{who} (rule C)"
            )
        return None
    session = _session_failure(tc)
    if session is not None:
        return session
    finish = tc.periods[-1]
    if finish.moves is None and len(tc.periods) > 1:
        moves_before = sum(p.moves or 0 for p in tc.periods[:-1])
        needed = 10.0 if moves_before >= 40 else 15.0
        if finish.minutes < needed:
            return (
                f"a quickplay finish of {finish.minutes:g} minutes after {moves_before} moves "
                f"is under {needed:g} minutes (rule B)"
            )
    return None


def _session_failure(tc: TimeControl) -> str | None:
    """Rule A on the first session: at least 30 moves, at least 2 minutes a move."""
    first = tc.periods[0]
    assert first.moves is not None
    if first.moves < SESSION_MOVES:
        return f"a first session of {first.moves} moves is under {SESSION_MOVES} moves (rule A)"
    minutes = tc.minutes_over(first.moves)
    if minutes < MINUTES_PER_MOVE * first.moves:
        return (
            f"{first.moves} moves in {minutes:g} minutes is faster than "
            f"{MINUTES_PER_MOVE:g} minutes a move (rule A)"
        )
    return None
