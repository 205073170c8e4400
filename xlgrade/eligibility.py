"""Which games are gradable: standard play, rapidplay (a separate list) or not graded.

Source: the 1997 BCF leaflet, *Eligibility of Games for Grading* (GRADING-RULES.md §11):

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
``blitz``          lightning (also ``lightning``); ``correspondence`` (``corr``)
=================  ===========================================================

Minutes may be written ``75m`` and seconds ``30s``; spaces are ignored. Decisions where the
leaflet is silent: a control whose first period has an increment is Fischer mode and rule D
applies to that period (and rule A to a first period with a move count, its time including the
increments of those moves); an increment only in a later period ("30/75, 15+10") only adds
time, so rules A and B apply as without it; a control that is neither standard nor between 15
and 60 minutes over 60 moves is "not gradable", with the rule it fails as the reason.

>>> classify("30/75, 15").kind
'standard'
>>> classify("74").reason
'all moves in 74 minutes is under 75 minutes (rule C)'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from xlgrade._rounding import quote
from xlgrade.errors import TimeControlError

__all__ = [
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

Kind = Literal["standard", "rapid", "not gradable"]


@dataclass(frozen=True)
class Period:
    """One period of a time control, per player.

    Attributes:
        moves: moves to be made in the period; ``None`` for the rest of the game.
        minutes: time for the period.
        increment: seconds added per move (Fischer mode); 0 for none.
    """

    moves: int | None
    minutes: float
    increment: float = 0.0


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


@dataclass(frozen=True)
class Playability:
    """Whether games at a time control are graded, and on which list.

    Attributes:
        kind: ``"standard"``, ``"rapid"`` or ``"not gradable"``.
        reason: for anything not standard, which rule it fails, in words.
    """

    kind: Kind
    reason: str | None


_KEYWORDS: Final = {
    "rapid": "rapid", "rapidplay": "rapid", "quickplay": "rapid",
    "blitz": "lightning", "lightning": "lightning", "bullet": "lightning",
    "correspondence": "correspondence", "corr": "correspondence", "email": "correspondence",
}  # fmt: skip
_NUMBER = r"(\d+(?:\.\d+)?)"
_PERIOD = re.compile(
    rf"^(?:(?P<moves>\d+)/)?(?:g/)?{_NUMBER.replace('(', '(?P<minutes>', 1)}m?"
    rf"(?:\+{_NUMBER.replace('(', '(?P<increment>', 1)}s?)?$"
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
        increment = float(match["increment"]) if match["increment"] else 0.0
        if moves is not None and moves <= 0:
            raise TimeControlError(f"time control {quote(text)}: {moves} moves is not a session")
        if moves is None and index != len(parts) - 1:
            raise TimeControlError(
                f"time control {quote(text)}: {quote(part)} has no move count but is not the last "
                f"period"
            )
        periods.append(Period(moves, minutes, increment))
    return TimeControl(tuple(periods), None, text)


def classify(
    control: str | TimeControl,
    *,
    all_players_under: int | None = None,
) -> Playability:
    """Whether games at ``control`` are graded as standard play, rapidplay, or not at all.

    Args:
        control: a time control, as text or parsed.
        all_players_under: 12 or 10 when every player in the event is under that age, for
            rule C's allowances (one hour, three-quarters of an hour).
    """
    tc = parse_time_control(control) if isinstance(control, str) else control
    if all_players_under not in FIXED_TIME_MINUTES:
        raise TimeControlError(
            f"all_players_under {quote(all_players_under)} must be 12, 10 or None (rule C)"
        )
    if tc.keyword == "rapid":
        return Playability("rapid", "rapidplay is graded on a separate list")
    if tc.keyword == "lightning":
        return Playability("not gradable", "lightning chess is not graded")
    if tc.keyword == "correspondence":
        return Playability("not gradable", "correspondence chess is not graded here")
    failure = _standard_failure(tc, all_players_under)
    if failure is None:
        return Playability("standard", None)
    over_60 = tc.minutes_over(RAPID_MOVES)
    low, high = RAPID_MINUTES
    if low <= over_60 < high:
        return Playability("rapid", f"{over_60:g} minutes over 60 moves is rapidplay")
    if over_60 < low:
        return Playability("not gradable", f"{over_60:g} minutes over 60 moves is lightning")
    return Playability("not gradable", failure)


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
