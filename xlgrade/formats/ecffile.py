"""The ECF results submission file: write a season's gradable games for the ECF; read one back.

Layout implemented: the ECF grading/rating office's *results submission file* (the text form),
as its field definitions name the fields. The file is a run of fields, each ``#NAME=value``
or ``#NAME``; several may share a line; spaces in field names are ignored and case does not
count. Four parts, in order:

* ``#EVENT DETAILS`` then ``EVENT CODE``, ``SUBMISSION INDEX``, ``EVENT NAME``,
  ``EVENT DATE``, ``FINAL RESULT DATE``, ``RESULTS OFFICER``, ``RESULTS OFFICER ADDRESS``,
  ``TREASURER``, ``TREASURER ADDRESS`` (all required) and a time control: ``MINUTES FOR
  GAME``, or ``MOVES FIRST SESSION`` + ``MINUTES FIRST SESSION`` with ``MINUTES REST OF
  GAME`` and/or ``MOVES SECOND SESSION`` + ``MINUTES SECOND SESSION``; optional
  ``SECONDS PER MOVE``, ``ADJUDICATED`` and the ``INFORM …`` fields.
* ``#PLAYER LIST`` then, for each player, ``#PIN=n`` and ``ECF CODE`` (``BCF CODE`` read as
  the same), ``NAME`` ("Surname, Forenames"; ``SURNAME`` + ``FORENAME``/``INITIALS`` read
  too), ``CLUB NAME`` (``CLUB`` read too), ``DATE OF BIRTH`` and other optional fields.
* ``#MATCH RESULTS=`` (a match), ``#OTHER RESULTS=`` or ``#SECTION RESULTS=``, then for each
  game ``#PIN1=a#SCORE=s#PIN2=b`` and optional ``COLOUR`` (of PIN1), ``BOARD``, ``ROUND``,
  ``GAME DATE``; ``RESULTS DATE`` gives a date to the games after it that have none.
* ``#FINISH#``.

SCORE is from PIN1's side: ``10`` win, ``01`` loss, ``55`` draw; the default forms ``1d``
(PIN1 won by default), ``d1`` (PIN2 won by default), ``dd`` (double default) are read as
not-graded results. Dates are ``dd/mm/yyyy``.

Decisions where the layout leaves a choice:

* Written: ``FINAL RESULT DATE`` (the field definitions' name; ``FINAL RESULTS DATE`` is read
  as the same). Only players with a game in the file are listed, numbered from 1 in the
  order given. A game with a ``match`` goes under ``#MATCH RESULTS=<match>`` (with its
  board); one without under ``#OTHER RESULTS=<event>``, where its home player is White
  (``#COLOUR=WHITE``); match games carry no colour (the league sheet does not say who had
  White).
* Refused on writing (:class:`SubmissionError`, every reason listed): a required event
  field blank, no time control, a game whose player is not in the player list (or fits
  more than one), an ECF code whose check letter is wrong, a default or any other result
  that is not a played game, a result not understood, a game without a date. The ECF rates
  only played games: defaults belong in the grader's exceptions, not in the submission.
* Read back: a game's players are named by ECF code where the player list gives one, else by
  NAME; a game under OTHER/SECTION RESULTS whose COLOUR says PIN1 had Black is turned round
  so that home is White. Every game gets the EVENT NAME as its event, the MATCH RESULTS
  text (or the ROUND) as its match, and the event's time control in the text form of
  :mod:`xlgrade.eligibility` (:attr:`EcfEvent.time_control`: ``MINUTES FOR GAME=25`` is
  "25", a rapidplay game; 40 moves in 90 minutes, then 30, with 30 seconds a move is
  "40/90+30, 30+30"), so that the season grades it on the list its time control belongs to.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from xlgrade import cells
from xlgrade._rounding import quote
from xlgrade.errors import FormatError, GradingError, ResultError
from xlgrade.model import Game, Player
from xlgrade.names import canonical_code, split_name
from xlgrade.results import parse_game_result

__all__ = [
    "MAX_BOARD",
    "REQUIRED_EVENT_FIELDS",
    "EcfEvent",
    "EcfSubmission",
    "SubmissionError",
    "looks_like_ecf_file",
    "read_ecf_file",
    "submission_refusals",
    "write_ecf_file",
]

REQUIRED_EVENT_FIELDS: Final = (
    "EVENT CODE", "SUBMISSION INDEX", "EVENT NAME", "EVENT DATE", "FINAL RESULT DATE",
    "RESULTS OFFICER", "RESULTS OFFICER ADDRESS", "TREASURER", "TREASURER ADDRESS",
)  # fmt: skip
"""Event fields the ECF requires, in the order they are written."""

_SCORES: Final = {"10": "1-0", "01": "0-1", "55": "½-½", "1D": "1-0 def", "D1": "0-1 def",
                  "DD": "0-0 def"}  # fmt: skip
_TURNED: Final = {"1-0": "0-1", "0-1": "1-0", "½-½": "½-½", "1-0 def": "0-1 def",
                  "0-1 def": "1-0 def", "0-0 def": "0-0 def"}  # fmt: skip
_EVENT_FIELDS: Final = {
    "EVENTCODE": "event_code", "SUBMISSIONINDEX": "submission_index", "EVENTNAME": "event_name",
    "EVENTDATE": "event_date", "FINALRESULTDATE": "final_result_date",
    "FINALRESULTSDATE": "final_result_date", "RESULTSOFFICER": "results_officer",
    "RESULTSOFFICERADDRESS": "results_officer_address", "TREASURER": "treasurer",
    "TREASURERADDRESS": "treasurer_address", "MOVESFIRSTSESSION": "moves_first_session",
    "MINUTESFIRSTSESSION": "minutes_first_session", "MOVESSECONDSESSION": "moves_second_session",
    "MINUTESSECONDSESSION": "minutes_second_session", "MINUTESRESTOFGAME": "minutes_rest_of_game",
    "MINUTESFORGAME": "minutes_for_game", "SECONDSPERMOVE": "seconds_per_move",
    "ADJUDICATED": "adjudicated",
}  # fmt: skip
_IGNORED_EVENT: Final = frozenset(
    {"INFORMGRANDPRIX", "INFORMFIDE", "INFORMCHESSMOVES", "INFORMUNION", "ENVIRONMENT",
     "RESULTSDUPLICATED", "COMMENT"}
)  # fmt: skip
_PLAYER_FIELDS: Final = frozenset(
    {"ECFCODE", "BCFCODE", "NAME", "SURNAME", "FORENAME", "INITIALS", "GENDER", "TITLE",
     "DATEOFBIRTH", "CLUBCODE", "CLUBNAME", "CLUB", "CLUBCOUNTY", "ECFNO", "BCFNO", "FIDENO",
     "COMMENT"}
)  # fmt: skip
_GAME_FIELDS: Final = frozenset(
    {"SCORE", "PIN2", "COLOUR", "BOARD", "ROUND", "GAMEDATE", "COMMENT"}
)  # fmt: skip
_SECTIONS: Final = frozenset({"MATCHRESULTS", "OTHERRESULTS", "SECTIONRESULTS"})
_WHOLE: Final = re.compile(r"[0-9]{1,9}")  # ASCII digits: ``str.isdigit`` takes ``²`` too
MAX_BOARD: Final = cells.MAX_BOARD
"""The highest board number a game of an ECF file takes (:data:`xlgrade.cells.MAX_BOARD`)."""


@dataclass(frozen=True)
class EcfEvent:
    """The ``#EVENT DETAILS`` part. Blank text and ``None`` mean "not given".

    Attributes:
        event_code: the code the ECF gave the event.
        submission_index: 1 for the first file of the event, 2 for the next…
        event_name: the event's name.
        event_date: first day of play.
        final_result_date: last day of play.
        results_officer: who answers for the results.
        results_officer_address: his address (or e-mail).
        treasurer: who pays the game fee.
        treasurer_address: his address (or e-mail).
        moves_first_session: moves in the first session.
        minutes_first_session: minutes each for them.
        moves_second_session: moves in the second session.
        minutes_second_session: minutes each for them.
        minutes_rest_of_game: minutes each for the rest of the game.
        minutes_for_game: minutes each for all moves.
        seconds_per_move: increment in seconds.
        adjudicated: whether unfinished games were adjudicated ("yes"/"no" as written).
    """

    event_code: str = ""
    submission_index: str = ""
    event_name: str = ""
    event_date: dt.date | None = None
    final_result_date: dt.date | None = None
    results_officer: str = ""
    results_officer_address: str = ""
    treasurer: str = ""
    treasurer_address: str = ""
    moves_first_session: int | None = None
    minutes_first_session: int | None = None
    moves_second_session: int | None = None
    minutes_second_session: int | None = None
    minutes_rest_of_game: int | None = None
    minutes_for_game: int | None = None
    seconds_per_move: int | None = None
    adjudicated: str = ""

    @property
    def time_control(self) -> str:
        """The event's time control in the text form :func:`xlgrade.eligibility.classify`
        reads; ``""`` when the fields give none.

        ``MINUTES FOR GAME`` is "all moves in" ("25"); otherwise the sessions in order, each
        "moves/minutes", then ``MINUTES REST OF GAME`` ("30/75, 15"). ``SECONDS PER MOVE``
        is added to every period ("60+30", "40/90+30, 30+30"): the ECF's field is the
        increment of the whole game. The first session needs both its moves and its minutes,
        and a second session is read only after a first; a field without its partner is left
        out.
        """
        increment = f"+{self.seconds_per_move}" if self.seconds_per_move else ""
        if self.minutes_for_game:
            return f"{self.minutes_for_game}{increment}"
        if not (self.moves_first_session and self.minutes_first_session):
            return ""
        periods = [f"{self.moves_first_session}/{self.minutes_first_session}{increment}"]
        if self.moves_second_session and self.minutes_second_session:
            periods.append(f"{self.moves_second_session}/{self.minutes_second_session}{increment}")
        if self.minutes_rest_of_game:
            periods.append(f"{self.minutes_rest_of_game}{increment}")
        return ", ".join(periods)


@dataclass(frozen=True)
class EcfSubmission:
    """A results submission file read back.

    Attributes:
        event: the event details.
        players: the player list, each with the line of its ``#PIN`` as ``row``.
        games: the games, each with the line of its ``#PIN1`` as ``row``.
    """

    event: EcfEvent
    players: tuple[Player, ...]
    games: tuple[Game, ...]


_SHOWN: Final = 20
"""Reasons a refusal's message lists; ``reasons`` holds them all."""


class SubmissionError(GradingError):
    """What the ECF would reject in a submission; ``reasons`` lists every one."""

    def __init__(self, reasons: Sequence[str]) -> None:
        self.reasons = tuple(reasons)
        shown = self.reasons[:_SHOWN]
        more = len(self.reasons) - len(shown)
        listed = "\n".join(f"  {reason}" for reason in shown)
        if more:
            listed += f"\n  … and {more} more"
        super().__init__(
            f"the ECF would reject this submission ({len(self.reasons)} "
            f"reason{'s' if len(self.reasons) != 1 else ''}):\n{listed}"
        )


def looks_like_ecf_file(text: str) -> bool:
    """Whether the text starts as a results submission file does: ``#EVENT DETAILS``."""
    start = text.removeprefix("\ufeff").lstrip()
    return re.sub(r"\s", "", start[:40]).upper().startswith("#EVENTDETAILS")


def submission_refusals(
    event: EcfEvent, players: Sequence[Player], games: Sequence[Game]
) -> tuple[str, ...]:
    """Every reason the ECF would reject a submission of these games (module docstring)."""
    reasons = [f"event field {name} is blank" for name in _missing_event_fields(event)]
    if not _has_time_control(event):
        reasons.append(
            "event has no time control: give MINUTES FOR GAME, or MOVES FIRST SESSION and "
            "MINUTES FIRST SESSION with MINUTES REST OF GAME or a second session"
        )
    if event.submission_index and not _WHOLE.fullmatch(event.submission_index):
        reasons.append(f"SUBMISSION INDEX {quote(event.submission_index)} is not a whole number")
    for player in players:
        if player.code and canonical_code(player.code) is None:
            reasons.append(
                f"player {quote(player.name)}: ECF code {quote(player.code)} is not valid (check "
                f"letter)"
            )
    resolve = _Resolver(players)
    for number, game in enumerate(games, start=1):
        # Named as the Exceptions sheet names it when the row is known.
        where = f"Results row {game.row}" if game.row is not None else f"game {number}"
        for side in (game.home, game.away):
            why = resolve.why_not(side)
            if why:
                reasons.append(f"{where}: {why}")
        try:
            result = parse_game_result(game.result)
        except ResultError as error:
            reasons.append(f"{where}: {error}")
        else:
            if not result.graded:
                reasons.append(
                    f"{where}: result {quote(game.result)} is a default ({result.reason}); "
                    "the ECF rates only played games"
                )
        if game.date is None:
            reasons.append(f"{where}: no game date")
    return tuple(reasons)


def write_ecf_file(event: EcfEvent, players: Sequence[Player], games: Sequence[Game]) -> str:
    """The results submission file for these games (layout and decisions: module docstring).

    Raises:
        SubmissionError: listing every reason the ECF would reject it
            (:func:`submission_refusals`).
    """
    reasons = submission_refusals(event, players, games)
    if reasons:
        raise SubmissionError(reasons)
    resolve = _Resolver(players)
    lines = ["#EVENT DETAILS"]
    for name in REQUIRED_EVENT_FIELDS:
        lines.append(f"#{name}={_event_value(event, name)}")
    for name in (
        "MOVES FIRST SESSION", "MINUTES FIRST SESSION", "MOVES SECOND SESSION",
        "MINUTES SECOND SESSION", "MINUTES REST OF GAME", "MINUTES FOR GAME",
        "SECONDS PER MOVE", "ADJUDICATED",
    ):  # fmt: skip
        value = _event_value(event, name)
        if value:
            lines.append(f"#{name}={value}")
    pins: dict[int, int] = {}
    order: list[Player] = []
    for game in games:
        for side in (game.home, game.away):
            index = resolve.index(side)
            if index not in pins:
                pins[index] = len(pins) + 1
                order.append(players[index])
    lines.append("#PLAYER LIST")
    for pin, player in enumerate(order, start=1):
        entry = f"#PIN={pin}"
        code = canonical_code(player.code)
        if code:
            entry += f"#ECF CODE={code}"
        entry += f"#NAME={_clean(split_name(player.name).ecf_form)}"
        lines.append(entry)
        if player.club:
            lines.append(f"#CLUB NAME={_clean(player.club)}")
        if player.date_of_birth:
            lines.append(f"#DATE OF BIRTH={player.date_of_birth:%d/%m/%Y}")
    sections: dict[tuple[str, str], list[Game]] = {}
    for game in games:
        key = ("MATCH RESULTS", game.match) if game.match else ("OTHER RESULTS", game.event)
        sections.setdefault(key, []).append(game)
    for (kind, title), section in sections.items():
        lines.append(f"#{kind}={_clean(title)}")
        for game in section:
            result = parse_game_result(game.result)
            score = {1.0: "10", 0.5: "55", 0.0: "01"}[result.home or 0.0]
            home, away = pins[resolve.index(game.home)], pins[resolve.index(game.away)]
            entry = f"#PIN1={home}#SCORE={score}#PIN2={away}"
            if kind == "OTHER RESULTS":
                entry += "#COLOUR=WHITE"
            elif game.board is not None:
                entry += f"#BOARD={game.board}"
            assert game.date is not None  # refused above otherwise
            entry += f"#GAME DATE={game.date:%d/%m/%Y}"
            lines.append(entry)
    lines.append("#FINISH#")
    return "\n".join(lines) + "\n"


def read_ecf_file(text: str, source: str = "ECF file") -> EcfSubmission:
    """Read a results submission file (layout and decisions: module docstring).

    Raises:
        FormatError: ``line N: …`` quoting the field, for a file that does not start with
            ``#EVENT DETAILS``, an unknown or misplaced field, a PIN used twice or not in the
            player list, a SCORE, number or date that cannot be read, a result without
            PIN2 or SCORE, or a file that ends without ``#FINISH``.
    """
    del source  # messages name lines; the caller names the file
    event: dict[str, object] = {}
    players: dict[str, dict[str, str]] = {}
    player_rows: dict[str, int] = {}
    games: list[tuple[int, dict[str, str], str, str]] = []
    part = ""
    section_kind = section_title = ""
    results_date = ""
    current: dict[str, str] | None = None
    finished = False
    last = 0
    for number, name, value, raw in _fields(text):
        last = number
        if not part:
            if name != "EVENTDETAILS":
                raise FormatError(
                    f"line {number}: not an ECF results submission file: it starts with "
                    f"{_shown(raw)}, not '#EVENT DETAILS'"
                )
            part = "event"
            continue
        if name == "FINISH":
            finished = True
            break
        if name == "PLAYERLIST":
            if part != "event":
                raise FormatError(f"line {number}: {_shown(raw)} out of place")
            part = "players"
            continue
        if name in _SECTIONS:
            if part == "event":
                raise FormatError(f"line {number}: {_shown(raw)} before '#PLAYER LIST'")
            part, section_kind, section_title, results_date = "results", name, value, ""
            current = None
            continue
        if part == "event":
            if name in _EVENT_FIELDS:
                event[_EVENT_FIELDS[name]] = _event_field(_EVENT_FIELDS[name], value, number)
            elif name not in _IGNORED_EVENT:
                raise FormatError(f"line {number}: unknown event field {_shown(raw)}")
        elif part == "players":
            if name == "PIN":
                if value in players:
                    raise FormatError(f"line {number}: PIN {quote(value)} is already used")
                current = players.setdefault(value, {})
                player_rows[value] = number
            elif name in _PLAYER_FIELDS and current is not None:
                current[name] = value
            elif name == "COMMENT":
                continue
            else:
                raise FormatError(
                    f"line {number}: {_shown(raw)} is not a player field after a #PIN"
                )
        else:
            if name == "PIN1":
                current = {"PIN1": value}
                games.append((number, current, section_kind, section_title))
                if results_date:
                    current["RESULTSDATE"] = results_date
            elif name == "RESULTSDATE":
                results_date = value
            elif name == "WHITEON" or (name == "COMMENT" and current is None):
                continue
            elif name in _GAME_FIELDS and current is not None:
                current[name] = value
            else:
                raise FormatError(
                    f"line {number}: {_shown(raw)} is not a result field after a #PIN1"
                )
    if not part:
        raise FormatError("line 1: not an ECF results submission file: it is empty")
    if not finished:
        raise FormatError(f"line {last}: the file ends without '#FINISH'")
    people = {pin: _player(fields_, player_rows[pin]) for pin, fields_ in players.items()}
    event_value = EcfEvent(**event)  # type: ignore[arg-type]
    return EcfSubmission(
        event=event_value,
        players=tuple(people.values()),
        games=tuple(_game(n, f, kind, title, people, event_value) for n, f, kind, title in games),
    )


def _fields(text: str) -> list[tuple[int, str, str, str]]:
    """Every field as (line, NAME without spaces in capitals, value, as written)."""
    found: list[tuple[int, str, str, str]] = []
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("#"):
            if not found:
                raise FormatError(
                    f"line {number}: not an ECF results submission file: it starts with "
                    f"{_shown(stripped)}, not '#EVENT DETAILS'"
                )
            raise FormatError(f"line {number}: text outside a '#' field: {_shown(stripped)}")
        for piece in stripped.split("#")[1:]:
            if not piece.strip():
                continue
            name, equals, value = piece.partition("=")
            key = re.sub(r"\s", "", name).upper()
            found.append((number, key, value.strip(), "#" + piece.strip()))
            if not equals and key not in ("EVENTDETAILS", "PLAYERLIST", "FINISH"):
                raise FormatError(f"line {number}: field {_shown('#' + piece.strip())} has no '='")
    return found


_DATE_ATTRIBUTES: Final = frozenset({"event_date", "final_result_date"})
_TEXT_ATTRIBUTES: Final = frozenset(
    {"event_code", "submission_index", "event_name", "results_officer",
     "results_officer_address", "treasurer", "treasurer_address", "adjudicated"}
)  # fmt: skip


def _event_field(attribute: str, value: str, number: int) -> object:
    """An event field's value in the type :class:`EcfEvent` holds it in."""
    if attribute in _DATE_ATTRIBUTES:
        return _date(value, number) if value else None
    if attribute not in _TEXT_ATTRIBUTES:
        if not value:
            return None
        if not _WHOLE.fullmatch(value):
            raise FormatError(f"line {number}: {quote(value)} is not a whole number")
        return int(value)
    return value


def _player(found: dict[str, str], row: int) -> Player:
    name = found.get("NAME", "")
    if not name and found.get("SURNAME"):
        forenames = found.get("FORENAME") or found.get("INITIALS", "")
        name = f"{found['SURNAME']}, {forenames}" if forenames else found["SURNAME"]
    if not name:
        raise FormatError(f"line {row}: the player has no NAME")
    code = found.get("ECFCODE") or found.get("BCFCODE") or None
    born = found.get("DATEOFBIRTH", "")
    return Player(
        name=name,
        code=code,
        club=found.get("CLUBNAME") or found.get("CLUB") or found.get("CLUBCODE", ""),
        date_of_birth=_date(born, row) if born else None,
        row=row,
    )


def _game(
    number: int,
    found: dict[str, str],
    kind: str,
    title: str,
    people: dict[str, Player],
    event: EcfEvent,
) -> Game:
    for need in ("SCORE", "PIN2"):
        if need not in found:
            raise FormatError(
                f"line {number}: the result of PIN1 {quote(found['PIN1'])} has no {need}"
            )
    score = found["SCORE"].upper()
    if score not in _SCORES:
        raise FormatError(
            f"line {number}: SCORE {quote(found['SCORE'])} is not 10, 01, 55, 1d, d1 or dd"
        )
    sides = []
    for pin in (found["PIN1"], found["PIN2"]):
        if pin not in people:
            raise FormatError(f"line {number}: PIN {quote(pin)} is not in the player list")
        sides.append(people[pin].code or people[pin].name)
    result = _SCORES[score]
    colour = found.get("COLOUR", "").upper()
    if colour not in ("", "WHITE", "BLACK", "W", "B"):
        raise FormatError(f"line {number}: COLOUR {quote(found['COLOUR'])} is not WHITE or BLACK")
    if kind != "MATCHRESULTS" and colour in ("BLACK", "B"):
        sides.reverse()
        result = _TURNED[result]
    board_text = found.get("BOARD", "")
    if board_text and not _WHOLE.fullmatch(board_text):
        raise FormatError(f"line {number}: BOARD {quote(board_text)} is not a whole number")
    if board_text:
        try:
            cells.board(board_text)
        except GradingError as error:
            raise FormatError(f"line {number}: BOARD {error} (see docs/limits.md)") from None
    day = found.get("GAMEDATE") or found.get("RESULTSDATE", "")
    match = title if kind == "MATCHRESULTS" else found.get("ROUND", "")
    return Game(
        home=sides[0],
        away=sides[1],
        result=result,
        date=_date(day, number) if day else None,
        event=event.event_name,
        match=match,
        board=int(board_text) if board_text else None,
        time_control=event.time_control,
        row=number,
    )


class _Resolver:
    """Finds the player a game names: by valid ECF code, the name as written, or the
    normalised name where exactly one player has it."""

    def __init__(self, players: Sequence[Player]) -> None:
        self.by_code: dict[str, list[int]] = {}
        self.by_name: dict[str, list[int]] = {}
        self.by_key: dict[tuple[str, tuple[str, ...]], list[int]] = {}
        for index, player in enumerate(players):
            code = canonical_code(player.code)
            if code:
                self.by_code.setdefault(code, []).append(index)
            self.by_name.setdefault(player.name.strip(), []).append(index)
            self.by_key.setdefault(split_name(player.name).key, []).append(index)

    def _candidates(self, text: str) -> list[int]:
        code = canonical_code(text.strip())
        if code:
            return self.by_code.get(code, [])
        return self.by_name.get(text.strip()) or self.by_key.get(split_name(text).key, [])

    def why_not(self, text: str) -> str:
        found = self._candidates(text)
        if not found:
            return f"player {quote(text)} is not in the player list"
        if len(found) > 1:
            return f"player {quote(text)} fits {len(found)} players in the player list"
        return ""

    def index(self, text: str) -> int:
        return self._candidates(text)[0]


def _missing_event_fields(event: EcfEvent) -> list[str]:
    return [name for name in REQUIRED_EVENT_FIELDS if not _event_value(event, name)]


def _has_time_control(event: EcfEvent) -> bool:
    if event.minutes_for_game:
        return True
    first = bool(event.moves_first_session and event.minutes_first_session)
    second = bool(event.moves_second_session and event.minutes_second_session)
    return first and (bool(event.minutes_rest_of_game) or second)


def _event_value(event: EcfEvent, name: str) -> str:
    value = getattr(event, name.lower().replace(" ", "_"))
    if value is None:
        return ""
    if isinstance(value, dt.date):
        return f"{value:%d/%m/%Y}"
    return _clean(str(value))


def _clean(text: str) -> str:
    """A value safe inside the file: no ``#`` (it separates fields) and no line breaks."""
    return " ".join(text.replace("#", " ").split())


def _date(text: str, number: int) -> dt.date:
    match = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", text.strip())
    if match:
        try:
            return dt.date(int(match[3]), int(match[2]), int(match[1]))
        except ValueError:
            pass
    raise FormatError(f"line {number}: date {quote(text)} is not a date (dd/mm/yyyy)")


def _shown(text: str) -> str:
    """A field as a message quotes it (:func:`xlgrade._rounding.quote`): its first 80
    characters, then how many it has."""
    return quote(text, 82)
