"""FIDE Tournament Report File (TRF): read a tournament's players and every round's result.

Layout implemented: FIDE Handbook C.04 Annex 2, *Tournament Report File* as revised in 2016
(TRF-16), which keeps the fixed columns of Christian Krause's 2006 layout; the 2026 revision
(TRF-26) is read as far as it agrees (``###`` comment lines and new header codes are tolerated
and kept). Columns are counted from 1, as the layout counts them.

Tournament section: a three-digit code ending in ``2`` and the text from column 5 (012 name,
022 city, 032 federation, 042/052 start and end dates, 102 chief arbiter, 122 time control,
132 round dates from column 92 in steps of 10, 162 the points of each result code).

Player section (``001``): 5–8 starting rank, 10 sex, 11–13 title, 15–47 name, 49–52 FIDE
rating, 54–56 federation, 58–68 FIDE ID, 70–79 birth date, 81–84 points, 86–89 final rank;
then one block of ten columns a round from column 92: 92–95 the opponent's starting rank
(``0000`` or blanks: none), 97 colour (``w``/``b``, ``-`` or blank: none), 99 the result code.

Result codes (letters in any case): ``1`` ``=`` ``0`` rated games; ``+`` ``-`` forfeits;
``W`` ``D`` ``L`` games of less than one move; ``H`` half-point bye, ``F`` full-point bye,
``U`` pairing-allocated bye, ``Z`` or blank zero-point bye (absent). Only ``1 = 0`` are games
in which moves were made; everything else is kept as *not graded* with its reason
(docs/rules.md §1).

Decisions where the layout is silent or real files differ from it:

* A ``001`` line whose fields are not in their columns is an error naming the line and quoting
  it, not a player: a character in one of the blank columns between the fields (4, 9, 14, 48,
  53, 57, 69, 80, 85), or a name (columns 15-47) holding two blanks in a row, which no real
  report's names do and which text shifted out of its columns does.
* Lines are split on any line ending; trailing blanks may be missing (short lines are read as
  if padded with blanks).
* Any line whose first three characters are three digits, three letters (``XXR``, ``BBU``,
  ``DAT``, national rating records such as ``ENG``) or ``###`` followed by a blank or the end
  of the line is TRF; unknown codes are kept but not read. Any other line makes the file
  "not a TRF file" (:class:`~xlgrade.errors.FormatError`, ``line N: …``).
* The number of rounds is the largest of ``XXR``, the round dates on line 132 and the blocks
  any player line holds; missing blocks are blank (a zero-point bye, as the layout says).
* Points of each code: the TRF-26 defaults (win, forfeit win, full-point and pairing-allocated
  bye 1; draw and half-point bye ½; the rest 0), changed by a 162 line (read by order, not
  by column) or by the older JaVaFo lines, which give the points of a kind of result, as
  JaVaFo and bbpPairings read them: ``BBW`` every win (``1 + W`` and the full-point bye
  ``F``), ``BBD`` every draw (``= D`` and the half-point bye ``H``), ``BBL`` a loss
  (``0 L``), ``BBZ`` the zero-point bye (``Z``, blank), ``BBF`` the forfeit loss (``-``),
  ``BBU`` the pairing-allocated bye (``U``; without a ``BBU`` line, or a 162 ``P``, it
  scores as ``BBW``). A file with both a 162 line and ``BB?`` lines is scored by the
  ``BB?`` lines where both set the points of a code.
* A ``+`` with no opponent (``0000``) is scored as a pairing-allocated bye and a ``-`` with no
  opponent as a zero-point bye, as bbpPairings scores them (the same points by default).
* Dates: header dates are read in the forms found in real files (``YYYY/MM/DD``,
  ``DD/MM/YYYY``, ``DD. MM. YYYY``, ``Month D, YYYY``) and kept as text as well; a form not
  understood gives no date rather than an error. Birth dates ``YYYY/MM/DD`` or
  ``YYYY.MM.DD`` give a date; a year alone gives none (the year is kept).
* Limits (``docs/limits.md``): at most :data:`MAX_ROUNDS` rounds and :data:`MAX_ENTRIES`
  round entries (players × rounds, the blanks a short line or ``XXR`` implies included); a
  whole number has ASCII digits only (``²`` is refused, though Python's ``isdigit`` takes it)
  and at most nine of them.
* The file's own totals are checked, not trusted: a player's points that differ from the sum
  of his round results, and a pairing not seen the same way from both sides, are reported
  as problems; the file still loads.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from xlgrade._rounding import quote
from xlgrade.errors import FormatError
from xlgrade.formats.csvfile import first_line
from xlgrade.model import Game, Player, Problem

__all__ = [
    "DEFAULT_POINTS",
    "MAX_ENTRIES",
    "MAX_ROUNDS",
    "RESULT_CODES",
    "Tournament",
    "TrfImport",
    "TrfPlayer",
    "TrfRound",
    "check_tournament",
    "looks_like_trf",
    "parse_trf",
    "starts_like_trf",
    "tournament_games",
]

RESULT_CODES: Final[Mapping[str, str]] = {
    "1": "win",
    "=": "draw",
    "0": "loss",
    "+": "forfeit win",
    "-": "forfeit loss",
    "W": "win in a game of less than one move",
    "D": "draw in a game of less than one move",
    "L": "loss in a game of less than one move",
    "H": "half-point bye",
    "F": "full-point bye",
    "U": "pairing-allocated bye",
    "Z": "zero-point bye (absent)",
}
"""The round result codes of TRF-16 (column 99) and what each means; blank reads as ``Z``."""

# The TRF-26 scoring classes (line 162) that each round code is scored as.
_SCORING_CLASS: Final[Mapping[str, str]] = {
    "1": "W", "+": "W", "W": "W", "F": "W",
    "=": "D", "D": "D", "H": "D",
    "0": "L", "L": "L",
    "-": "A", "Z": "A",
    "U": "P",
}  # fmt: skip

DEFAULT_POINTS: Final[Mapping[str, float]] = {"W": 1.0, "D": 0.5, "L": 0.0, "A": 0.0}
"""Points of each TRF-26 scoring class by default (W win, D draw, L loss, A absence); the
pairing-allocated bye ``P`` scores as ``W`` and the unknown result ``X`` as ``D``."""

# The older JaVaFo lines ("BBW 3.0") and the codes whose points each sets. BBW sets the
# pairing-allocated bye too unless a BBU line (or a 162 P) gives it (see parse_trf).
_BB_CODES: Final[Mapping[str, tuple[str, ...]]] = {
    "BBW": ("1", "+", "W", "F"), "BBD": ("=", "D", "H"), "BBL": ("0", "L"),
    "BBZ": ("Z",), "BBF": ("-",), "BBU": ("U",),
}  # fmt: skip
# What a forfeit code with no opponent (0000) is scored as: a bye.
_UNPAIRED: Final[Mapping[str, str]] = {"+": "U", "-": "Z"}
_OPPOSITE: Final[Mapping[str, str]] = {
    "1": "0", "0": "1", "=": "=", "+": "-", "-": "+", "W": "L", "L": "W", "D": "D",
}  # fmt: skip
_GAME_CODES: Final = frozenset("1=0+-WDL")
_BYE_CODES: Final = frozenset("HFUZ")
_LINE_CODE = re.compile(r"(?:\d{3}|[A-Za-z]{3}|###)(?: |$)")
_FIRST_ROUND = 91  # column 92, counted from 0
_GAPS: Final = (4, 9, 14, 48, 53, 57, 69, 80, 85)
"""The blank columns between the fields of a 001 line, before the rounds."""
_ROUND_WIDTH = 10
MAX_ROUNDS: Final = 999
"""The most rounds a TRF holds for xlgrade: a double round-robin of 500 players."""
MAX_ENTRIES: Final = 1_000_000
"""The most round entries (players × rounds): 9,999 players, the layout's most, of 100 rounds."""
_WHOLE: Final = re.compile(r"[0-9]{1,9}")
_MONTHS: Final = {
    name: number
    for number, names in enumerate(
        [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
         ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
         ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
         ("dec", "december")],
        start=1,
    )
    for name in names
}  # fmt: skip


@dataclass(frozen=True)
class TrfRound:
    """One round of one player, as columns 92–99 (and each later block) give it.

    Attributes:
        round: the round number, from 1.
        opponent: the opponent's starting rank; ``None`` for ``0000`` or blanks.
        colour: ``"w"``, ``"b"`` or ``"-"`` (none; blank reads as ``-``).
        code: the result code in capitals; a blank reads as ``"Z"``.
        text: the block as written, for messages.
    """

    round: int
    opponent: int | None
    colour: str
    code: str
    text: str

    @property
    def meaning(self) -> str:
        """The code in words (:data:`RESULT_CODES`)."""
        return RESULT_CODES[self.code]


@dataclass(frozen=True)
class TrfPlayer:
    """One ``001`` line.

    Attributes:
        rank: starting rank (columns 5–8).
        sex: ``"m"``, ``"w"`` (or ``"f"``), or blank.
        title: GM, IM, WGM, FM, … or the one-letter forms of 2006 (``g``, ``m``, ``f``); blank
            if none.
        name: as written ("Lastname, Firstname").
        rating: FIDE rating; ``None`` when blank or 0 (unrated).
        federation: three-letter FIDE federation code, or blank.
        fide_id: the FIDE ID as written (digits), or blank.
        birth: the birth date as written.
        birth_date: the birth date when the file gives a whole date.
        points: the player's points as the file gives them; ``None`` if blank.
        place: the final rank; ``None`` if blank.
        rounds: every round, in order.
        line: the line number in the file.
    """

    rank: int
    sex: str
    title: str
    name: str
    rating: int | None
    federation: str
    fide_id: str
    birth: str
    birth_date: dt.date | None
    points: float | None
    place: int | None
    rounds: tuple[TrfRound, ...]
    line: int


@dataclass(frozen=True)
class Tournament:
    """A whole tournament report.

    Attributes:
        header: every tournament line as (code, text from column 5), in file order; ``###``
            comments and unknown codes included.
        players: every ``001`` line, in file order.
        rounds: the number of rounds (see the module's decisions).
        round_dates: the date of each round where line 132 gives it.
        points: points of each scoring class (W, D, L, A, P, X) this file uses.
        code_points: points of individual codes set by ``BB?`` lines (each line's codes:
            see the module's decisions).
        source: the file's name, for messages.
    """

    header: tuple[tuple[str, str], ...]
    players: tuple[TrfPlayer, ...]
    rounds: int
    round_dates: tuple[dt.date | None, ...]
    points: tuple[tuple[str, float], ...]
    code_points: tuple[tuple[str, float], ...]
    source: str = "TRF"

    def field(self, code: str) -> str:
        """The text of the first header line with this code (``"012"`` the name…), or ``""``."""
        return next((text for key, text in self.header if key == code), "")

    @property
    def name(self) -> str:
        """Tournament name (line 012)."""
        return self.field("012")

    @property
    def city(self) -> str:
        """City (line 022)."""
        return self.field("022")

    @property
    def start(self) -> dt.date | None:
        """Date of start (line 042), if its form is understood."""
        return _header_date(self.field("042"))

    @property
    def end(self) -> dt.date | None:
        """Date of end (line 052), if its form is understood."""
        return _header_date(self.field("052"))

    @property
    def time_control(self) -> str:
        """Allotted times per moves/game (line 122), as written."""
        return self.field("122")

    def score(self, code: str, *, paired: bool = True) -> float:
        """Points the file gives a round result code (TRF-26 line 162; ``BB?`` lines).

        ``paired`` is whether the entry names an opponent: a ``+`` without one scores as a
        pairing-allocated bye, a ``-`` without one as a zero-point bye."""
        if not paired:
            code = _UNPAIRED.get(code, code)
        own = dict(self.code_points)
        if code in own:
            return own[code]
        classes = dict(self.points)
        scoring = _SCORING_CLASS[code]
        if scoring == "P":
            return classes.get("P", classes["W"])
        return classes[scoring]

    def player(self, rank: int) -> TrfPlayer | None:
        """The player with this starting rank, or ``None``."""
        return next((p for p in self.players if p.rank == rank), None)


@dataclass(frozen=True)
class TrfImport:
    """A tournament turned into xlgrade's values, with nothing lost.

    Every round entry of every player ends up in exactly one place: the two entries of a
    pairing seen the same way from both sides make one :class:`~xlgrade.model.Game` (a
    forfeit or a game of less than one move keeps a result text that
    :func:`xlgrade.results.parse_game_result` reads as not graded); every other entry (a bye,
    an absence, a pairing the two sides disagree on) is one :class:`~xlgrade.model.Problem`
    in ``not_graded``. So ``2 * len(games) + len(not_graded) == entries``.

    Attributes:
        players: one per ``001`` line.
        games: one per pairing.
        not_graded: one per round entry that is not part of a game.
        file_problems: what the file itself gets wrong (points that are not the sum of the
            results); not round entries.
        entries: the number of round entries read (players × rounds).
        no_estimate: the rated players ``grade_from_rating`` gave no grade, as (name, FIDE
            rating).
    """

    players: tuple[Player, ...]
    games: tuple[Game, ...]
    not_graded: tuple[Problem, ...]
    file_problems: tuple[Problem, ...]
    entries: int
    no_estimate: tuple[tuple[str, int], ...] = ()

    @property
    def problems(self) -> tuple[Problem, ...]:
        """Everything to show a grader: entries not graded, then the file's own faults."""
        return self.not_graded + self.file_problems


def starts_like_trf(line: str) -> bool:
    """Whether ``line`` (a file's first non-blank line) starts as a TRF's lines do: a TRF line
    code (three digits, three letters or ``###``), then a blank."""
    return _LINE_CODE.match(line) is not None


def looks_like_trf(text: str) -> bool:
    """Whether the text starts the way a TRF does: its first non-blank line has a TRF line code
    (:func:`starts_like_trf`) and some line is a ``001`` line."""
    first = first_line(text)
    if first is None or not starts_like_trf(first[1]):
        return False
    # A substring search, not a split of a large file into lines:
    return text.startswith("001") or "\n001" in text or "\r001" in text


def parse_trf(text: str, source: str = "TRF") -> Tournament:
    """Read a Tournament Report File (TRF-16; 2006 and TRF-26 files as the module describes).

    Raises:
        FormatError: ``line N: …`` quoting the text, for a line that is not TRF, a starting
            rank, rating, points, opponent, colour or result code that cannot be read, a
            starting rank used twice, or a file without player lines.
    """
    header: list[tuple[str, str]] = []
    players: list[TrfPlayer] = []
    xxr = xxr_line = 0
    points = dict(DEFAULT_POINTS)
    given: dict[str, float] = {}
    seen: dict[int, int] = {}
    lines = text.splitlines()
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        if not _LINE_CODE.match(line):
            raise FormatError(
                f"line {number}: not a TRF line (a TRF line starts with a three-character "
                f"code such as '001' or '012' and a blank): {_shown(line)}"
            )
        code = line[:3]
        if code == "001":
            player = _player(line, number)
            if player.rank in seen:
                raise FormatError(
                    f"line {number}: starting rank {player.rank} is already used on line "
                    f"{seen[player.rank]}: {_shown(line)}"
                )
            seen[player.rank] = number
            players.append(player)
        elif code == "XXR":
            xxr = _whole(line[4:].strip(), number, "number of rounds", line)
            xxr_line = number
        elif code == "162":
            points.update(_scoring(line, number))
        elif code in _BB_CODES:
            given[code] = _number(line[4:].strip(), number, "points", line)
        if code != "001":
            header.append((code, line[4:].strip() if code != "132" else line[4:]))
    if not players:
        raise FormatError(
            f"line {max(len(lines), 1)}: not a TRF file: it has no player lines (001)"
        )
    code_points = {c: value for bb, value in given.items() for c in _BB_CODES[bb]}
    if "BBW" in given and "BBU" not in given and "P" not in points:
        code_points["U"] = given["BBW"]
    dates = _round_dates(next((text for key, text in header if key == "132"), ""))
    rounds = max([xxr, len(dates), *(len(p.rounds) for p in players)])
    if rounds > MAX_ROUNDS or rounds * len(players) > MAX_ENTRIES:
        longest = max(players, key=lambda p: len(p.rounds))
        said = (
            f"line {xxr_line}: XXR gives {xxr} rounds"
            if rounds == xxr
            else f"line {longest.line}: the player line holds {rounds} rounds"
        )
        raise FormatError(
            f"{said}; with {len(players)} players that is {rounds * len(players):,} round "
            f"entries: more than the {MAX_ROUNDS} rounds or {MAX_ENTRIES:,} entries xlgrade "
            "reads (see docs/limits.md)"
        )
    padded = tuple(_pad(p, rounds) for p in players)
    return Tournament(
        header=tuple(header),
        players=padded,
        rounds=rounds,
        round_dates=tuple(dates) + (None,) * (rounds - len(dates)),
        points=tuple(points.items()),
        code_points=tuple(code_points.items()),
        source=source,
    )


def check_tournament(tournament: Tournament) -> tuple[Problem, ...]:
    """What the file gets wrong about itself: each player's points against the sum of his round
    results as the file scores them, and each pairing against the opponent's own entry
    (same round, each other as opponent, opposite colours, opposite results). TRF-16 makes
    both checkable; the layout requires the points column for pairing programs."""
    problems: list[Problem] = []
    by_rank = {p.rank: p for p in tournament.players}
    for player in tournament.players:
        if player.points is not None:
            total = sum(
                tournament.score(r.code, paired=r.opponent is not None) for r in player.rounds
            )
            if abs(total - player.points) > 1e-9:
                problems.append(
                    Problem(
                        tournament.source,
                        player.line,
                        "points",
                        f"{quote(player.name)} has {player.points:g} points in the file but his "
                        f"round results add up to {total:g}",
                    )
                )
        problems += _cut_short(tournament, player)
        for entry in player.rounds:
            why = _pairing_fault(by_rank, player, entry)
            if why is not None:
                problems.append(Problem(tournament.source, player.line, "pairing", why))
    return tuple(problems)


def _cut_short(tournament: Tournament, player: TrfPlayer) -> list[Problem]:
    """What says a player line was cut short (a file truncated, or edited by hand): no round
    data at all where the tournament has rounds, or a round with an opponent but no result
    code. Each is read as the layout reads blanks (a zero-point bye), and named."""
    said = f"the line of {quote(player.name)}"
    if tournament.rounds and not any(entry.text.strip() for entry in player.rounds):
        return [
            Problem(
                tournament.source,
                player.line,
                "cut short",
                f"{said} has no round data (from column {_FIRST_ROUND + 1}), though the tournament "
                f"has {tournament.rounds} rounds: read as absent from every round; the file "
                "may be cut short",
            )
        ]
    return [
        Problem(
            tournament.source,
            player.line,
            "cut short",
            f"{said} gives round {entry.round} an opponent ({entry.opponent}) but no result "
            f"code (column {_FIRST_ROUND + 8 + (entry.round - 1) * _ROUND_WIDTH}): read as "
            "absent from it; the file may be cut short",
        )
        for entry in player.rounds
        if entry.opponent is not None and not entry.text[8:9].strip()
    ]


def tournament_games(
    tournament: Tournament,
    *,
    grade_from_rating: Callable[[int], float | None] | None = None,
    time_control: str | None = None,
) -> TrfImport:
    """Turn a tournament into players, games and not-graded entries (see :class:`TrfImport`).

    Games are written from White's side ("1-0", "½-½", "0-1"); forfeits as "1-0 def",
    "0-1 def" or "0-0 def" (both forfeited); games of less than one move as "1-0 nm", "½-½ nm",
    "0-1 nm" — all read by :func:`xlgrade.results.parse_game_result`. A pairing without
    colours (a forfeit) is written from the side of the lower starting rank. Each game carries
    the tournament name as its event, "Round N" as its match, the round's date (line 132) and
    the time control (line 122, or ``time_control`` when given; "90 minutes + 30 seconds per
    move" is written "90+30", the form :mod:`xlgrade.eligibility` reads).

    ``grade_from_rating`` turns a FIDE rating into an ECF grade, stored as the player's
    estimated grade (only when the caller asks; e.g.
    :func:`xlgrade.formats.importing.fide_estimate`); a rating it gives ``None`` for leaves the
    player without one, listed in :attr:`TrfImport.no_estimate`.
    Players are named as the file names them; a name used by two players gets " (N)" added,
    N the starting rank, so that the games stay apart.
    """
    names = _unique_names(tournament)
    estimates = {
        p.rank: grade_from_rating(p.rating)
        for p in tournament.players
        if grade_from_rating is not None and p.rating is not None
    }
    players = tuple(
        Player(
            name=names[p.rank],
            date_of_birth=p.birth_date,
            estimated_grade=estimates.get(p.rank),
            row=p.line,
        )
        for p in tournament.players
    )
    no_estimate = tuple(
        (names[p.rank], p.rating)
        for p in tournament.players
        if p.rating is not None and p.rank in estimates and estimates[p.rank] is None
    )
    control = _time_control(tournament.time_control) if time_control is None else time_control
    games: list[Game] = []
    not_graded: list[Problem] = []
    entries = 0
    by_rank = {p.rank: p for p in tournament.players}
    for player in tournament.players:
        for entry in player.rounds:
            entries += 1
            fault = _pairing_fault(by_rank, player, entry)
            if entry.opponent is None or entry.code in _BYE_CODES or fault is not None:
                not_graded.append(_not_graded(tournament, player, entry, fault))
                continue
            opponent = by_rank[entry.opponent]  # no fault: the opponent exists
            if not _writes_game(player, entry):
                continue
            white, black, code = (
                (player, opponent, entry.code)
                if entry.colour != "b"
                else (opponent, player, _OPPOSITE[entry.code])
            )
            double = entry.code == "-" == opponent.rounds[entry.round - 1].code
            games.append(
                Game(
                    home=names[white.rank],
                    away=names[black.rank],
                    result="0-0 def" if double else _GAME_TEXT[code],
                    date=tournament.round_dates[entry.round - 1],
                    event=tournament.name,
                    match=f"Round {entry.round}",
                    time_control=control,
                    row=white.line,
                )
            )
    return TrfImport(
        players=players,
        games=tuple(games),
        not_graded=tuple(not_graded),
        file_problems=tuple(
            p for p in check_tournament(tournament) if p.what in ("points", "cut short")
        ),
        entries=entries,
        no_estimate=no_estimate,
    )


# Result text of a game from White's (or the first-written player's) side, by White's code.
_GAME_TEXT: Final[Mapping[str, str]] = {
    "1": "1-0", "=": "½-½", "0": "0-1",
    "+": "1-0 def", "-": "0-1 def",
    "W": "1-0 nm", "D": "½-½ nm", "L": "0-1 nm",
}  # fmt: skip


_WORDY_CONTROL = re.compile(
    r"(\d+)\s*(?:minutes?|mins?|m|')\s*(?:\+\s*(\d+)\s*(?:seconds?|secs?|s|\")"
    r"(?:\s*(?:per|a|/)\s*move)?)?",
    re.IGNORECASE,
)


def _time_control(text: str) -> str:
    """Line 122 in the short form of :mod:`xlgrade.eligibility` where it is written in words:
    "90 minutes + 30 seconds per move" is "90+30", "90 min" is "90"; anything else as written
    (a decision: line 122 is free text in TRF-16)."""
    match = _WORDY_CONTROL.fullmatch(text.strip())
    if match is None:
        return text.strip()
    return match[1] if match[2] is None else f"{match[1]}+{match[2]}"


def _writes_game(player: TrfPlayer, entry: TrfRound) -> bool:
    """Which of a pairing's two entries writes the game: White's; with no colours the lower
    starting rank's. A double forfeit is written once, from the lower starting rank."""
    assert entry.opponent is not None
    if entry.colour == "w":
        return True
    if entry.colour == "b":
        return False
    return player.rank < entry.opponent


def _not_graded(
    tournament: Tournament, player: TrfPlayer, entry: TrfRound, fault: str | None
) -> Problem:
    """The Problem row of an entry that is not part of a game."""
    where = f"{quote(player.name)}, round {entry.round} ({quote(entry.text.strip() or 'blank')})"
    if fault is not None:
        return Problem(tournament.source, player.line, "inconsistent pairing", fault)
    if entry.code in _BYE_CODES:
        what = "bye" if entry.code != "Z" else "absent"
        return Problem(
            tournament.source, player.line, what, f"{where}: {entry.meaning}, not graded"
        )
    return Problem(
        tournament.source,
        player.line,
        "no opponent",
        f"{where}: {entry.meaning} with no opponent, scored as a bye; not graded",
    )


def _pairing_fault(
    by_rank: Mapping[int, TrfPlayer], player: TrfPlayer, entry: TrfRound
) -> str | None:
    """Why this entry and its opponent's do not describe the same pairing, or ``None``."""
    where = f"{quote(player.name)} round {entry.round} ({quote(entry.text.strip())})"
    if entry.opponent is None:
        return None
    if entry.code in _BYE_CODES:
        return f"{where}: a bye code with an opponent, {entry.opponent}"
    if entry.opponent == player.rank:
        return f"{where}: paired against himself"
    opponent = by_rank.get(entry.opponent)
    if opponent is None:
        return f"{where}: opponent {entry.opponent} is not in the file"
    other = opponent.rounds[entry.round - 1]
    theirs = f"{quote(opponent.name)} round {entry.round} ({quote(other.text.strip() or 'blank')})"
    if other.opponent != player.rank:
        return f"{where} but {theirs}"
    colours = {entry.colour, other.colour}
    if colours not in ({"w", "b"}, {"-"}):
        return f"{where}: colours do not match {theirs}"
    if other.code != _OPPOSITE[entry.code] and not (entry.code == other.code == "-"):
        return f"{where}: result does not match {theirs}"
    return None


def _unique_names(tournament: Tournament) -> dict[int, str]:
    """Each starting rank's name; a name two players share gets " (rank)" added."""
    counts: dict[str, int] = {}
    for p in tournament.players:
        counts[p.name] = counts.get(p.name, 0) + 1
    return {
        p.rank: p.name if counts[p.name] == 1 and p.name else f"{p.name} ({p.rank})".strip()
        for p in tournament.players
    }


def _player(line: str, number: int) -> TrfPlayer:
    """Read one 001 line."""
    padded = line.ljust(_FIRST_ROUND)
    stray = [column for column in _GAPS if padded[column - 1] != " "]
    if stray:
        raise FormatError(
            f"line {number}: player line not in the TRF columns (column {stray[0]}, between "
            f"two fields, holds {quote(padded[stray[0] - 1])}): {_shown(line)}"
        )
    name = padded[14:47].strip()
    if "  " in name:
        raise FormatError(
            f"line {number}: player line not in the TRF columns (the name, columns 15-47, "
            f"is {quote(name)}): {_shown(line)}"
        )
    rank = _whole(padded[4:8].strip(), number, "starting rank (columns 5-8)", line)
    if not 1 <= rank <= 9999:
        raise FormatError(f"line {number}: starting rank {rank} is not 1 to 9999: {_shown(line)}")
    rating_text = padded[48:52].strip()
    rating = _whole(rating_text, number, "rating (columns 49-52)", line) if rating_text else 0
    fide_id = padded[57:68].strip()
    if fide_id and not (fide_id.isascii() and fide_id.isdigit()):
        raise FormatError(
            f"line {number}: FIDE ID (columns 58-68) {quote(fide_id)} is not a number: "
            f"{_shown(line)}"
        )
    points_text = padded[80:84].strip()
    place_text = padded[85:89].strip()
    birth = padded[69:79].strip()
    rounds: list[TrfRound] = []
    if len(line.rstrip()) > _FIRST_ROUND + MAX_ROUNDS * _ROUND_WIDTH:
        raise FormatError(
            f"line {number}: the player line holds more than {MAX_ROUNDS} rounds, the most "
            f"xlgrade reads (see docs/limits.md): {_shown(line)}"
        )
    for index, start in enumerate(range(_FIRST_ROUND, len(line), _ROUND_WIDTH), start=1):
        rounds.append(_round(line[start - 1 : start + _ROUND_WIDTH - 1], index, number, line))
    while rounds and not rounds[-1].text.strip():
        rounds.pop()
    return TrfPlayer(
        rank=rank,
        sex=padded[9].strip(),
        title=padded[10:13].strip(),
        name=name,
        rating=rating or None,
        federation=padded[53:56].strip(),
        fide_id=fide_id,
        birth=birth,
        birth_date=_birth_date(birth),
        points=_number(points_text, number, "points (columns 81-84)", line)
        if points_text
        else None,
        place=_whole(place_text, number, "rank (columns 86-89)", line) if place_text else None,
        rounds=tuple(rounds),
        line=number,
    )


def _round(block: str, index: int, number: int, line: str) -> TrfRound:
    """Read one round block: the ten columns from 91 (a blank before the opponent), 92–95
    opponent, 97 colour, 99 result."""
    block = block.ljust(_ROUND_WIDTH)
    opponent_text = block[1:5].strip()
    if opponent_text and not _WHOLE.fullmatch(opponent_text):
        raise FormatError(
            f"line {number}: round {index}: opponent {quote(opponent_text)} is not a starting "
            f"rank: "
            f"{_shown(line)}"
        )
    colour = block[6].lower() if block[6].strip() else "-"
    if colour not in ("w", "b", "-"):
        raise FormatError(
            f"line {number}: round {index}: colour {quote(block[6])} is not w, b or -: "
            f"{_shown(line)}"
        )
    code = block[8].upper() if block[8].strip() else "Z"
    if code not in RESULT_CODES:
        raise FormatError(
            f"line {number}: round {index}: result code {quote(block[8])} is not one of "
            f"{' '.join(RESULT_CODES)}: {_shown(line)}"
        )
    opponent = int(opponent_text) if opponent_text else 0
    return TrfRound(index, opponent or None, colour, code, block.rstrip())


def _pad(player: TrfPlayer, rounds: int) -> TrfPlayer:
    """Add blank (zero-point bye) rounds up to the tournament's number of rounds."""
    if len(player.rounds) >= rounds:
        return player
    extra = tuple(
        TrfRound(n, None, "-", "Z", "") for n in range(len(player.rounds) + 1, rounds + 1)
    )
    return dataclasses.replace(player, rounds=player.rounds + extra)


def _scoring(line: str, number: int) -> dict[str, float]:
    """Read a TRF-26 162 line: a class letter (W D L A P X) and its points, repeated (the layout
    puts them at columns 6 and 7-10, then every 9 columns; read by order, not by column, as
    a decision, so that a hand-made line with other spacing is read the same)."""
    text = line[4:].strip()
    pairs = re.findall(r"([A-Za-z])\s*(\d{1,2}(?:\.\d)?)(?:\s+|$)", text)
    if not pairs or "".join(f"{a}{b}" for a, b in pairs) != re.sub(r"\s", "", text):
        raise FormatError(
            f"line {number}: scoring line not understood (a code W, D, L, A, P or X and its "
            f"points, repeated): {_shown(line)}"
        )
    found: dict[str, float] = {}
    for letter, value in pairs:
        if letter.upper() not in ("W", "D", "L", "A", "P", "X"):
            raise FormatError(
                f"line {number}: scoring code {quote(letter)} is not W, D, L, A, P or X: "
                f"{_shown(line)}"
            )
        found[letter.upper()] = float(value)
    return found


def _round_dates(text: str) -> list[dt.date | None]:
    """Line 132: a YY/MM/DD date from column 92 in steps of 10; blanks or unreadable dates give
    ``None``."""
    line = "132 " + text
    dates: list[dt.date | None] = []
    for start in range(_FIRST_ROUND, len(line), _ROUND_WIDTH):
        piece = line[start : start + 8].strip()
        match = re.fullmatch(r"(\d{2})/(\d{2})/(\d{2})", piece)
        day = None
        if match:
            day = _date(2000 + int(match[1]), int(match[2]), int(match[3]))
        dates.append(day)
    while dates and dates[-1] is None:
        dates.pop()
    return dates


def _date(year: int, month: int, day: int) -> dt.date | None:
    """The date, or ``None`` for an impossible one (a header date is optional information)."""
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def _header_date(text: str) -> dt.date | None:
    """Read a header date in the forms real files use; ``None`` if not understood."""
    text = text.strip()
    forms = (
        (r"(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})", (1, 2, 3)),
        (r"(\d{1,2})\.? ?[/.-]? ?(\d{1,2})\.? ?[/.-]? ?(\d{4})", (3, 2, 1)),
    )
    for pattern, (y, m, d) in forms:
        match = re.fullmatch(pattern, text)
        if match:
            return _date(int(match[y]), int(match[m]), int(match[d]))
    match = re.fullmatch(r"([A-Za-z]+)\.? (\d{1,2}),? (\d{4})", text)
    if match and match[1].lower() in _MONTHS:
        return _date(int(match[3]), _MONTHS[match[1].lower()], int(match[2]))
    return None


def _birth_date(text: str) -> dt.date | None:
    """A whole birth date (``YYYY/MM/DD``, ``YYYY.MM.DD``, ``YYYY-MM-DD``), else ``None``."""
    match = re.fullmatch(r"(\d{4})[/.-](\d{2})[/.-](\d{2})", text)
    if match:
        return _date(int(match[1]), int(match[2]), int(match[3]))
    return None


def _whole(text: str, number: int, what: str, line: str) -> int:
    if not _WHOLE.fullmatch(text):
        raise FormatError(
            f"line {number}: {what} {quote(text)} is not a whole number: {_shown(line)}"
        )
    return int(text)


def _number(text: str, number: int, what: str, line: str) -> float:
    if not re.fullmatch(r"\d{1,4}(?:\.\d{1,2})?", text):
        raise FormatError(f"line {number}: {what} {quote(text)} is not a number: {_shown(line)}")
    return float(text)


def _shown(line: str) -> str:
    """The line as a message quotes it (:func:`xlgrade._rounding.quote`): its first 100
    characters, then how many it has."""
    return quote(line, 102)
