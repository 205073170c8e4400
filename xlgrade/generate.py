"""Realistic, deterministic test data: leagues and a national-scale season with known faults.

A generated season is what a grader would have in front of him: a Players table (codes, names,
clubs, dates of birth, juniors, published grades, estimates and lapsed grades for the ungraded,
two earlier seasons' totals and, for some players, the dated games behind them) and a Results
table of league matches (dated match nights, 4–6 boards, results typed in the many forms
graders use). Every player has a *true strength* on the ECF scale; results are drawn from the
strength difference, so a correct grading engine recovers the strengths roughly.

Faults are injected at a requested rate and every one is recorded in
:attr:`GeneratedSeason.injected`, so that tests can check the season engine reports each one:
defaults, result typos, unknown names, self pairings, dates outside the season, rapid and
non-gradable time controls, codes with a wrong check letter, the same game or the same match
entered twice (sometimes disagreeing on a result), and two players with the same name and club
and no code.

Everything is drawn from ``numpy.random.default_rng(seed)``: the same seed gives the same season
on every run and every machine. Nothing here reads or writes files except :func:`write_csv`.

Conventions (decisions of this generator, relied on by its tests):

- ``row`` numbers are the lines of the CSV files :func:`write_csv` writes: the header is line 1,
  so the first player and the first game are row 2.
- A match is written ``"<home team> v <away team>"``, a team ``"<club> <letter>"``
  (``"Ashbury A"``); the home team's player is in the home column on every board and the
  result is from his side. The home player has White on odd boards.
- A name used in the results (rather than a code) belongs to exactly one player in the Players
  table; a player whose name is shared is always referred to by his code.
- A duplicate entry (the same game, or the same match entered by both clubs) is recorded on the
  *later* row; the first entry is clean. Two players with the same name and club are both
  recorded; the later one is added at the end of the Players table, and neither plays.

>>> season = generate_league(seed=7, players=20, games=60)
>>> len(season.players), len(season.games)
(20, 60)
>>> season == generate_league(seed=7, players=20, games=60)
True
"""

from __future__ import annotations

import csv
import datetime as dt
import gc
import math
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from xlgrade import schema
from xlgrade.codes import ECF_CODE_LETTERS, ecf_code_letter, ecf_code_letters
from xlgrade.ecf import DEFAULT_HORIZON, ELO_POINTS_PER_GRADE, score_margins
from xlgrade.formats.ratinglist import ListRating, RatingEntry, write_rating_list
from xlgrade.model import DatedPoints, EarlierSeason, Game, Player
from xlgrade.names import canonical_code, split_name
from xlgrade.settings import Settings, text_rows
from xlgrade.teams import Board, Division, appearances, team_total

__all__ = [
    "FAULT_KINDS",
    "PLAYER_COLUMNS",
    "RESULT_COLUMNS",
    "SETTING_COLUMNS",
    "GeneratedRatingList",
    "GeneratedSeason",
    "Injected",
    "Sheet",
    "generate_league",
    "generate_national",
    "generate_rating_list",
    "league_divisions",
    "settings_rows",
    "write_csv",
]

FAULT_KINDS: Final = (
    "unknown player",
    "self pairing",
    "duplicate game",
    "duplicate disagrees",
    "bad result",
    "date outside season",
    "default",
    "not gradable time control",
    "rapid",
    "bad code check letter",
    "same name and club",
)
"""The kinds of fault the generator injects, named like the season engine's checks."""

_WRITTEN: Final = tuple(
    c
    for c in schema.PLAYERS_COLUMNS
    if c not in schema.RATING_COLUMNS and c not in schema.TEAM_COLUMNS
)
PLAYER_COLUMNS: Final = tuple(c.header for c in _WRITTEN)
"""Column headers of the template's Players table, in order, but for the ECF rating's columns
(:data:`xlgrade.schema.RATING_COLUMNS`), which a graded season leaves blank, and the
divisions' rules' own (:data:`~xlgrade.schema.TEAM_COLUMNS`)."""

RESULT_COLUMNS: Final = schema.RESULTS_HEADERS
"""Column headers of the template's Results table, in order."""

SETTING_COLUMNS: Final = ("Setting", "Value")
"""Column headers of ``settings.csv``: one row per :class:`~xlgrade.model.Settings` field."""

Sheet = Literal["Players", "Results"]
"""The table a fault is in."""

# --- Scale of the simulation (ECF grade points unless said otherwise) -----------------------

# True strengths: adults and juniors drawn apart, which makes the whole population about
# normal around 130 with a spread of 35 (the figures).
_ADULT_MEAN, _ADULT_SD = 135.0, 33.0
_JUNIOR_MEAN, _JUNIOR_SD = 88.0, 30.0
_JUNIOR_SHARE: Final = 0.10
"""Share of juniors among the players."""
_PUBLISHED_NOISE_SD: Final = 7.0
"""Spread of a published grade around the player's true strength."""
_ESTIMATE_NOISE_SD: Final = 15.0
"""Spread of a grader's estimate (or a lapsed grade) around the true strength."""
_WHITE_ADVANTAGE: Final = 4.0
"""Grade points the player with White is worth above his strength."""
_DRAW_PEAK: Final = 0.34
"""Draw probability between equal players; it falls with the strength gap (overall 20–30 %)."""
_DRAW_WIDTH: Final = 90.0
"""Strength gap (grade points) over which the draw probability falls by a factor e."""
_ROSTER_SIZE: Final = 8.5
"""Average number of players on a team's roster."""
_LEAGUE_ROSTER_SIZE: Final = 6.5
"""Average roster of a team in a small local league (more teams, fewer reserves)."""
_DIVISION_TEAMS: Final = 8
"""Teams in a division, about (a league with fewer has a single division)."""
_LEAGUE_CLUBS: Final = 12
"""Clubs in one local league of the national season."""
_GAMES_PER_SEASON: Final = 13.0
"""Mean games an average player had in each earlier season."""
_SAME_NAME_RATE: Final = 30.0
"""One same-name-and-club pair per this many faulty rows' worth of players (at least one)."""

# How often each row fault is injected, relative to the others (the duplicate share covers both
# "duplicate game" and "duplicate disagrees").
_ROW_FAULT_WEIGHTS: Final[dict[str, float]] = {
    "default": 0.20,
    "bad result": 0.09,
    "unknown player": 0.10,
    "self pairing": 0.05,
    "date outside season": 0.08,
    "rapid": 0.09,
    "not gradable time control": 0.07,
    "bad code check letter": 0.08,
    "duplicate": 0.24,
}
_DISAGREE_MATCH: Final = 0.35
_DISAGREE_SINGLE: Final = 0.25

# Result texts as graders type them, with how often each form is used.
_WIN_FORMS: Final = (("1-0", 0.84), ("1:0", 0.1), ("W", 0.06))
_DRAW_FORMS: Final = (("½-½", 0.45), ("1/2-1/2", 0.3), ("=-=", 0.15), ("0.5-0.5", 0.1))
_LOSS_FORMS: Final = (("0-1", 0.9), ("0:1", 0.1))
_DEFAULT_TEXTS: Final = ("1-0 def", "0-1 def", "+", "-+", "dd", "+-")
_BAD_RESULT_TEXTS: Final = ("1-O", "10", "x", "O-1", "1-1", "01")
_RAPID_CONTROLS: Final = ("rapid", "25+10", "15+10")
_UNGRADABLE_CONTROLS: Final = ("blitz", "5+3", "3+2")
_STANDARD_CONTROL: Final = "90+30"

# fmt: off
_FIRST_NAMES: Final = (
    "Adam", "Alan", "Alice", "Amelia", "Andrew", "Anna", "Anthony", "Arthur", "Barry", "Ben",
    "Brian", "Carl", "Catherine", "Charles", "Charlotte", "Chris", "Clare", "Colin", "Craig",
    "Daniel", "David", "Dennis", "Derek", "Edward", "Eleanor", "Emily", "Emma", "Frank", "Gary",
    "George", "Gordon", "Graham", "Hannah", "Harry", "Helen", "Henry", "Ian", "Isabel", "Jack",
    "James", "Jane", "Jason", "Jennifer", "John", "Jonathan", "Joseph", "Julian", "Karen",
    "Keith", "Kevin", "Laura", "Lee", "Leonard", "Lucy", "Malcolm", "Margaret", "Mark",
    "Martin", "Matthew", "Michael", "Neil", "Nicholas", "Nigel", "Oliver", "Owen", "Patrick",
    "Paul", "Peter", "Philip", "Rachel", "Raymond", "Richard", "Robert", "Roger", "Ruth",
    "Samuel", "Sarah", "Simon", "Sophie", "Stephen", "Stuart", "Susan", "Terence", "Thomas",
    "Timothy", "Trevor", "Victoria", "William",
)
_SURNAMES: Final = (
    "Abbott", "Ainsworth", "Allen", "Appleby", "Archer", "Ashworth", "Atkins", "Bailey",
    "Barker", "Barlow", "Barnes", "Bateman", "Baxter", "Bennett", "Birch", "Blackburn",
    "Bolton", "Bradshaw", "Brooks", "Buckley", "Burgess", "Butler", "Carter", "Chadwick",
    "Chapman", "Clarke", "Coleman", "Collins", "Cooper", "Cox", "Crawford", "Crossley",
    "Dalton", "Davies", "Dawson", "Dixon", "Dobson", "Draper", "Duckworth", "Dyson", "Edwards",
    "Ellis", "Emerson", "Farrar", "Fielding", "Fisher", "Fletcher", "Forster", "Foster",
    "Fowler", "Garside", "Gibson", "Goodwin", "Graham", "Green", "Greenwood", "Hall", "Hammond",
    "Hardcastle", "Hargreaves", "Harper", "Harrison", "Hartley", "Hayes", "Heaton", "Hewitt",
    "Hill", "Holden", "Holmes", "Horsfall", "Howarth", "Hughes", "Hutchinson", "Ingham",
    "Jackson", "Jarvis", "Jenkins", "Johnson", "Kay", "Kendall", "Kershaw", "Knight", "Lambert",
    "Lawson", "Leach", "Lister", "Lord", "Marsden", "Marshall", "Mason", "Metcalfe", "Mitchell",
    "Moorhouse", "Morley", "Naylor", "Newton", "Nicholson", "Norton", "Oldroyd", "Owen",
    "Parker", "Parkin", "Pearson", "Pickering", "Pollard", "Potter", "Preston", "Priestley",
    "Ramsden", "Redfern", "Reynolds", "Rhodes", "Richardson", "Riley", "Robinson", "Rowley",
    "Sanderson", "Saville", "Scholes", "Sharp", "Shaw", "Simpson", "Slater", "Spencer",
    "Stanley", "Stead", "Sutcliffe", "Swift", "Taylor", "Thornton", "Tillotson", "Townend",
    "Turner", "Walker", "Walsh", "Ward", "Waterhouse", "Watson", "Webster", "Whiteley",
    "Whitworth", "Wilkinson", "Womersley", "Wood", "Wright", "Yates",
)
# Surnames used only for unknown players, so that they match nobody in the Players table.
_STRANGER_SURNAMES: Final = (
    "Quarmby", "Ollerenshaw", "Pennington-Hale", "Threlfall", "Uttley", "Vickerstaff",
    "Wolstenholme", "Yewdall", "Zouch", "Brindlecombe", "Cattermole", "Dimmock",
)
_INITIALS: Final = "ABCDEFGHJKLMNPRSTW"
_TOWNS: Final = (
    "Ashbury", "Barnwick", "Bexford", "Blackmoor", "Bramley Cross", "Brantwick", "Burnside",
    "Calderbridge", "Carrow", "Castleford Vale", "Cheswick", "Clayhithe", "Coldharbour",
    "Cragmoor", "Dalebrook", "Denholme Green", "Dunmere", "Eastwold", "Elmstead", "Farleigh",
    "Fenby", "Fernhill", "Foxholme", "Gatebeck", "Glenthorpe", "Greystoke Bridge",
    "Hallowfield", "Hartsdale", "Hawkridge", "Heathcote", "Holmbury", "Ivybridge Moor",
    "Keldwith", "Kirkby Fell", "Langmere", "Larkhill", "Lindow", "Longridge", "Marbeck",
    "Marshfield", "Milnthorpe Edge", "Moorcroft", "Netherby", "Northam", "Oakhurst",
    "Oldcastle", "Ormsby", "Pendlebury Vale", "Pickhill", "Queensbury Moor", "Ravensworth",
    "Redmire", "Rishworth", "Rookby", "Saltmarsh", "Sandholme", "Scarcliffe", "Shawbury",
    "Skelbrook", "Stainby", "Stonegate", "Swaledale", "Thornbury Lea", "Thwaite", "Ulverdale",
    "Upperby", "Wardle Cross", "Westholme", "Whinmoor", "Wickersley Moor", "Windle",
    "Wolverdale", "Wrenbury", "Yarrowby",
)
# fmt: on
_CLUB_SUFFIXES: Final = ("", " Chess Club", " Knights", " Rooks", " Athenaeum", " Castle")
_CLUB_PREFIXES: Final = ("", "North ", "South ", "Old ", "New ")
_TEAM_LETTERS: Final = "ABCDEFGH"
_NEVER: Final = -1e3
"""Log-chance of being picked of a member who does not play (far below any Gumbel draw)."""


@dataclass(frozen=True)
class Injected:
    """One fault the generator put into the data on purpose.

    Attributes:
        sheet: ``"Players"`` or ``"Results"``.
        row: the row there, counted as in the CSV files (the first data row is 2).
        kind: one of :data:`FAULT_KINDS`.
        detail: what was done, in words, for a failing test's message.
    """

    sheet: Sheet
    row: int
    kind: str
    detail: str


@dataclass(frozen=True)
class GeneratedSeason:
    """A generated season: the grader's inputs and the ground truth behind them.

    Attributes:
        players: the Players table, in row order.
        games: the Results table, in row order.
        settings: the season's settings (season dates, horizon, …).
        injected: every fault put in on purpose, by sheet and row.
        strengths: each player's true strength on the ECF scale, in the order of ``players``.
        home_index: for each game, the index in ``players`` of the player meant by the home
            reference; ``-1`` where it names nobody (an injected unknown player).
        away_index: the same for the away reference.
        divisions: the Divisions sheet's rules (:func:`league_divisions`; none for a national
            season).
    """

    players: tuple[Player, ...]
    games: tuple[Game, ...]
    settings: Settings
    injected: tuple[Injected, ...]
    strengths: tuple[float, ...]
    home_index: tuple[int, ...]
    away_index: tuple[int, ...]
    divisions: tuple[Division, ...] = ()

    def injected_rows(self, sheet: Sheet = "Results") -> dict[int, str]:
        """The injected faults of one sheet as ``{row: kind}``."""
        return {fault.row: fault.kind for fault in self.injected if fault.sheet == sheet}


# --- Public entry points ------------------------------------------------------------------


def generate_league(
    seed: int = 2025,
    players: int = 40,
    games: int = 300,
    *,
    ungraded: float = 0.10,
    faulty: float = 0.05,
    start_year: int = 2025,
) -> GeneratedSeason:
    """A local league: a few clubs with one or more teams each, in one or two divisions.

    Args:
        seed: the random seed; the same seed always gives the same league.
        players: rows of the Players table (including injected same-name players).
        games: rows of the Results table (including injected duplicates).
        ungraded: share of players with no published grade.
        faulty: share of faulty rows in the Results table; each kind of fault appears at
            least once when there are enough faulty rows for all of them.
        start_year: the season runs from 1 June of this year to 31 May of the next.

    The league's divisions have rules (:func:`league_divisions`).
    """
    season = _generate(seed, players, games, ungraded, faulty, start_year, national=False)
    return replace(season, divisions=league_divisions(season))


def league_divisions(season: GeneratedSeason) -> tuple[Division, ...]:
    """Rules for each division of ``season``, as a league handbook sets them (docs/rules.md
    §13): its boards; no player more than 20 above anyone on a higher board (Nottinghamshire);
    after 3 games for a higher team not for a lower one; one team per division; grades under
    100 count as 100, and so do defaulted and missing boards; and a maximum total one less
    than the strongest team fielded, so that a few matches break it."""
    names = list(dict.fromkeys(g.event for g in season.games))
    rules = {
        name: Division(
            name,
            boards=max((g.board or 1 for g in season.games if g.event == name), default=1),
            min_counting_grade=100,
            default_grade=100,
            board_order_tolerance=20,
            games_to_fix=3,
            one_team=True,
        )
        for name in names
    }
    boards = appearances(
        season.games,
        season.home_index,
        season.away_index,
        [p.grade for p in season.players],
        [p.name for p in season.players],
    )
    teams: dict[tuple[object, ...], list[Board]] = {}
    for k, name in enumerate(boards.division):
        key = (name, boards.date[k], boards.match[k], boards.team[k].name)
        figure = None if math.isnan(boards.figure[k]) else float(boards.figure[k])
        number = int(boards.board[k])
        teams.setdefault(key, []).append(
            Board(number, boards.name[k], figure, bool(boards.defaulted[k]))
        )
    strongest: dict[str, float] = {}
    for team_key, team in teams.items():
        name = str(team_key[0])
        total = team_total(rules[name], team).total
        strongest[name] = max(total, strongest.get(name, 0.0))
    return tuple(
        replace(rules[name], max_total=strongest[name] - 1) if name in strongest else rules[name]
        for name in names
    )


def generate_national(
    seed: int = 2025,
    players: int = 15_000,
    games: int = 200_000,
    *,
    ungraded: float = 0.05,
    faulty: float = 0.03,
    start_year: int = 2025,
) -> GeneratedSeason:
    """A national season: many local leagues of about twelve clubs, each with its divisions.

    The arguments are those of :func:`generate_league`; the defaults are the national-scale
    test of the issue (15,000 players, 200,000 games, 5 % ungraded, 3 % faulty rows).
    """
    return _generate(seed, players, games, ungraded, faulty, start_year, national=True)


@dataclass(frozen=True)
class GeneratedRatingList:
    """A generated ECF rating list for a generated season, and what was put in on purpose.

    Attributes:
        text: the CSV, as :func:`xlgrade.formats.ratinglist.write_rating_list` writes it.
        left_out: codes of the season's players the list leaves out.
        renamed: codes whose name on the list is another player's forename (a name to check).
        extra: codes on the list of players not in the season.
    """

    text: str
    left_out: tuple[str, ...]
    renamed: tuple[str, ...]
    extra: tuple[str, ...]


_LIST_NOISE_SD: Final = 25.0
"""Spread (rating points) of a listed rating around the 2020 seeding of the grade."""
_RAPID_SHARE: Final = 0.6
"""Share of listed players with a rapidplay rating too."""
_BLITZ_SHARE: Final = 0.2
"""Share of listed players with a blitz rating (a partial one: the OTB blitz list is young)."""
_LEFT_OUT_SHARE: Final = 0.03
"""Share of the season's players with a code whom the list leaves out (at least one)."""


def generate_rating_list(
    season: GeneratedSeason, seed: int = 2025, *, extra: int = 5
) -> GeneratedRatingList:
    """A realistic ECF rating list for ``season``'s players (no real person's data).

    Every player with a valid code is listed but a few left out; his standard rating is the
    2020 seeding of his grade (7.5 × grade + 700) or of his true strength for an ungraded
    player (category P), with some spread; a share has a rapid rating, fewer a blitz one; one
    listed name has another forename; ``extra`` players not in the season are added.

    Raises:
        ValueError: the season has no player with a valid ECF code.
    """
    rng = np.random.default_rng(seed)
    coded: list[tuple[int, Player, str]] = []
    for i, p in enumerate(season.players):
        code = canonical_code(p.code)
        if code is not None and all(code != c for _, _, c in coded):
            coded.append((i, p, code))
    if not coded:
        raise ValueError("the season has no player with a valid ECF code to list")
    count = max(1, round(_LEFT_OUT_SHARE * len(coded)))
    leave = {int(k) for k in rng.choice(len(coded), count, replace=False)}
    rename = min(k for k in range(len(coded)) if k not in leave)
    entries: list[RatingEntry] = []
    left_out: list[str] = []
    renamed: list[str] = []
    for k, (i, player, code) in enumerate(coded):
        if k in leave:
            left_out.append(code)
            continue
        grade = player.grade if player.grade is not None else season.strengths[i]
        rating = round(7.5 * grade + 700 + rng.normal(0, _LIST_NOISE_SD))
        category = ("A" if rng.random() < 0.15 else "K") if player.grade is not None else "P"
        revised = rating + round(rng.normal(0, 8))
        figures = {"standard": ListRating(rating, category, revised, category)}
        if rng.random() < _RAPID_SHARE:
            rapid = rating + round(rng.normal(0, 60))
            figures["rapid"] = ListRating(rapid, "K", rapid, "K")
        if rng.random() < _BLITZ_SHARE:
            blitz = rating + round(rng.normal(0, 80))
            figures["blitz"] = ListRating(blitz, "P", blitz, "P")
        person = split_name(player.name)
        forenames = " ".join(person.forenames)
        if k == rename:
            # Another first name from the generator's list: a name for the grader to check.
            taken = person.forenames[0] if person.forenames else ""
            forenames = next(f for f in _FIRST_NAMES if f[0] != taken[:1])
            renamed.append(code)
        name = f"{person.surname}, {forenames}".rstrip(", ")
        entries.append(_list_entry(rng, code, name, player.club, figures))
    codes = {c for _, _, c in coded}
    extras: list[str] = []
    while len(extras) < extra:
        digits = f"{int(rng.integers(100000, 999999))}"
        code = digits + ecf_code_letter(digits)
        if code in codes:
            continue
        codes.add(code)
        extras.append(code)
        surname = _STRANGER_SURNAMES[len(extras) % len(_STRANGER_SURNAMES)]
        name = f"{surname}, {_FIRST_NAMES[int(rng.integers(0, len(_FIRST_NAMES)))]}"
        rating = int(rng.integers(1000, 2300))
        standard = {"standard": ListRating(rating, "K", rating, "K")}
        entries.append(_list_entry(rng, code, name, "Elsewhere", standard))
    return GeneratedRatingList(
        write_rating_list(entries), tuple(left_out), tuple(renamed), tuple(extras)
    )


def _list_entry(
    rng: np.random.Generator,
    code: str,
    name: str,
    club: str,
    figures: dict[str, ListRating],
) -> RatingEntry:
    # The ECF's membership number is a plain number (docs/rules.md §12).
    member = str(int(rng.integers(10000, 999999))) if rng.random() < 0.7 else ""
    fide = str(int(rng.integers(400000, 999999))) if rng.random() < 0.2 else ""
    letters = "".join(ch for ch in club.upper() if ch.isalpha())
    return RatingEntry(
        code=code,
        name=name,
        member_no=member,
        fide_no=fide,
        gender="M" if rng.random() < 0.85 else "F",
        nation="ENG",
        title="",
        club_code=f"{letters[:3]}1" if letters else "",
        club_name=club,
        ratings=figures,
        line=0,
    )


def settings_rows(settings: Settings) -> list[tuple[str, str]]:
    """The settings as ``(name, value)`` text pairs, one per row of the template's Settings
    sheet and named as there: :func:`xlgrade.settings.text_rows`."""
    return text_rows(settings)


def write_csv(season: GeneratedSeason, folder: str | Path) -> tuple[Path, Path, Path]:
    """Write ``players.csv``, ``results.csv`` and ``settings.csv`` into ``folder``.

    UTF-8 without a byte-order mark, ``\\n`` line ends, the template's column headers
    (:data:`PLAYER_COLUMNS`, :data:`RESULT_COLUMNS`), dates as ``yyyy-mm-dd``. Dated earlier
    games are not written. Returns the three paths.
    """
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    players_path = target / "players.csv"
    results_path = target / "results.csv"
    settings_path = target / "settings.csv"
    _write_table(players_path, PLAYER_COLUMNS, (_player_cells(p) for p in season.players))
    _write_table(results_path, RESULT_COLUMNS, (_game_cells(g) for g in season.games))
    _write_table(settings_path, SETTING_COLUMNS, settings_rows(season.settings))
    return players_path, results_path, settings_path


# --- Writers ------------------------------------------------------------------------------


def _player_cells(player: Player) -> list[str]:
    text = schema.csv_text(player)
    return [text[c.field] for c in _WRITTEN]


def _game_cells(game: Game) -> list[str]:
    return list(schema.game_csv_text(game).values())


def _write_table(path: Path, header: Sequence[str], rows: Iterable[Sequence[str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


# --- The simulation -----------------------------------------------------------------------

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
ObjectArray = npt.NDArray[np.object_]


@dataclass
class _People:
    """The base population (before injected same-name players), one array entry a player."""

    strength: FloatArray
    junior: BoolArray
    dob: list[dt.date | None]
    grade: FloatArray  # NaN where ungraded
    estimate: FloatArray  # NaN where none
    lapsed: FloatArray  # NaN where none
    has_code: BoolArray
    codes: list[str | None]
    activity: FloatArray  # how much a player plays, season after season; mean 1
    log_pick: FloatArray  # log of the chance of being picked for a match this season
    seeding: FloatArray  # what captains order boards by


@dataclass
class _League:
    """Clubs, teams and divisions; teams are numbered division by division."""

    club_names: list[str]
    player_club: IntArray
    player_team: IntArray
    team_names: list[str]
    division_names: list[str]
    division_start: IntArray  # first team of each division
    division_teams: IntArray  # teams in each division
    division_boards: IntArray
    division_weekday: IntArray  # 0 Monday … 4 Friday
    division_control: list[str]  # time control typed on every row, or ""
    roster: IntArray  # team × roster place → player, -1 past the end


@dataclass
class _Rows:
    """The Results table being built, one array entry a row."""

    match: IntArray  # sort key: the match, duplicates after every original
    board: IntArray
    home: IntArray  # player index, -1 unknown
    away: IntArray
    date: IntArray  # date ordinal as written
    date_key: IntArray  # date ordinal the row sorts by (its match night)
    division: IntArray
    match_text: ObjectArray
    home_ref: ObjectArray
    away_ref: ObjectArray
    result: ObjectArray
    control: ObjectArray


def _generate(
    seed: int,
    n_players: int,
    n_games: int,
    ungraded: float,
    faulty: float,
    start_year: int,
    *,
    national: bool,
) -> GeneratedSeason:
    """Both generators: check the arguments and run the simulation."""
    if n_players < 12:
        raise ValueError(f"players {n_players!r} must be at least 12 (two teams of six)")
    if n_games < 1:
        raise ValueError(f"games {n_games!r} must be at least 1")
    if not 0.0 <= ungraded <= 1.0:
        raise ValueError(f"ungraded {ungraded!r} must be a share between 0 and 1")
    if not 0.0 <= faulty <= 0.5:
        raise ValueError(f"faulty {faulty!r} must be a share between 0 and 0.5")
    with _no_gc():
        return _simulate(seed, n_players, n_games, ungraded, faulty, start_year, national)


@contextmanager
def _no_gc() -> Iterator[None]:
    """Hold off the cyclic garbage collector while millions of small objects are built: the
    values made here hold no cycles, and its repeated passes over them would triple the time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _simulate(
    seed: int,
    n_players: int,
    n_games: int,
    ungraded: float,
    faulty: float,
    start_year: int,
    national: bool,
) -> GeneratedSeason:
    """Draw people, clubs, matches, results and faults; build the tables."""
    rng = np.random.default_rng(seed)
    start = dt.date(start_year, 6, 1)
    settings = Settings(
        season_name=f"{start_year}-{(start_year + 1) % 100:02d}",
        season_start=start,
        season_end=dt.date(start_year + 1, 5, 31),
        default_time_control="",
    )
    n_faulty = round(faulty * n_games)
    n_pairs = 0 if n_faulty == 0 else max(1, round(n_players * faulty / _SAME_NAME_RATE))
    n_base = n_players - n_pairs
    people = _draw_people(rng, n_base, ungraded, settings)
    first, initial, surname = _draw_names(rng, people)
    unique = _unique_names(first, initial, surname)
    pairs = _pick_same_name(rng, people, unique, n_pairs)
    league = _draw_league(rng, people, national=national)
    counts = _allocate(n_faulty, len(_ROW_FAULT_WEIGHTS))
    row_faults = dict(zip(_ROW_FAULT_WEIGHTS, counts, strict=True))
    n_dup = min(row_faults.pop("duplicate"), n_games // 2)
    rows, match_boards = _draw_matches(rng, people, league, n_games - n_dup, settings)
    for p in pairs:
        people.has_code[p] = False
        people.codes[p] = None
    names_fs = [_name(first[i], initial[i], surname[i], surname_first=False) for i in range(n_base)]
    names_sf = [_name(first[i], initial[i], surname[i], surname_first=True) for i in range(n_base)]
    refs = _References(people, unique, names_fs, names_sf)
    rows.home_ref = refs.draw(rng, rows.home)
    rows.away_ref = refs.draw(rng, rows.away)
    injected: list[tuple[int, str, str]] = []  # (index into rows, kind, detail) before sorting
    # The players given a namesake never play (no row refers to them ambiguously).
    assert not (np.isin(rows.home, pairs) | np.isin(rows.away, pairs)).any()
    n_rows = len(rows.home)
    rows, copied, dup_faults = _duplicate(rng, rows, match_boards, n_dup, refs)
    injected.extend(dup_faults)
    taken = np.ones(len(rows.home), dtype=bool)  # the second entries are all faults already
    taken[:n_rows] = copied
    injected.extend(_inject_row_faults(rng, rows, row_faults, taken, refs, settings))
    order = np.lexsort((rows.board, rows.match, rows.date_key))
    position = np.empty_like(order)
    position[order] = np.arange(len(order))
    games = _build_games(rows, order, league)
    faults = [
        Injected("Results", int(position[r]) + 2, kind, detail) for r, kind, detail in injected
    ]
    players, strengths = _build_players(rng, people, league, names_sf, pairs, settings)
    for number, p in enumerate(pairs):
        twin = n_base + number
        club = league.club_names[league.player_club[p]]
        detail = f"{names_sf[p]!r} of {club!r} is in rows {p + 2} and {twin + 2}, with no code"
        faults.append(Injected("Players", p + 2, "same name and club", detail))
        faults.append(Injected("Players", twin + 2, "same name and club", detail))
    faults.sort(key=lambda fault: (fault.sheet, fault.row))
    return GeneratedSeason(
        players=players,
        games=games,
        settings=settings,
        injected=tuple(faults),
        strengths=strengths,
        home_index=tuple(rows.home[order].tolist()),
        away_index=tuple(rows.away[order].tolist()),
    )


def _allocate(total: int, kinds: int) -> list[int]:
    """Split ``total`` faulty rows over the kinds by their weights (largest remainder), giving
    each kind one first when there are enough to go round."""
    weights = np.array(list(_ROW_FAULT_WEIGHTS.values()))
    base = np.ones(kinds, dtype=np.int64) if total >= kinds + 2 else np.zeros(kinds, np.int64)
    rest = total - int(base.sum())
    share = weights / weights.sum() * rest
    counts = base + np.floor(share).astype(np.int64)
    remainder = share - np.floor(share)
    for k in np.argsort(-remainder, kind="stable")[: total - int(counts.sum())]:
        counts[k] += 1
    return [int(c) for c in counts]


def _draw_people(rng: np.random.Generator, n: int, ungraded: float, settings: Settings) -> _People:
    """Strengths, juniors and their dates of birth, grades, estimates, codes, activity."""
    junior = rng.random(n) < _JUNIOR_SHARE
    strength = np.where(
        junior, rng.normal(_JUNIOR_MEAN, _JUNIOR_SD, n), rng.normal(_ADULT_MEAN, _ADULT_SD, n)
    )
    strength = np.clip(strength, 5.0, 265.0)
    # Dates of birth: most juniors (ages 8–17 on the age date), a few adults (18–75).
    age_date = settings.age_date
    age = np.where(junior, rng.integers(8, 18, n), rng.integers(18, 76, n))
    has_dob = np.where(junior, rng.random(n) < 0.8, rng.random(n) < 0.1)
    day = rng.integers(1, 365, n)
    anchors = {
        a: dt.date(age_date.year - a - 1, age_date.month, 1).toordinal() for a in range(8, 76)
    }
    offset = age_date.day - 1
    dob: list[dt.date | None] = [
        dt.date.fromordinal(anchors[a] + offset + d) if flag else None
        for a, d, flag in zip(age.tolist(), day.tolist(), has_dob.tolist(), strict=True)
    ]
    # Ungraded newcomers: some with a grader's estimate, some with a lapsed grade.
    is_ungraded = np.zeros(n, dtype=bool)
    is_ungraded[rng.choice(n, size=round(ungraded * n), replace=False)] = True
    kind = rng.random(n)
    nan = np.full(n, np.nan)
    grade = np.where(is_ungraded, nan, np.round(strength + rng.normal(0, _PUBLISHED_NOISE_SD, n)))
    grade = np.maximum(grade, 0.0)
    guess = np.maximum(np.round(strength + rng.normal(0, _ESTIMATE_NOISE_SD, n)), 0.0)
    estimate = np.where(is_ungraded & (kind < 0.3), guess, nan)
    lapsed = np.where(is_ungraded & (kind >= 0.3) & (kind < 0.55), guess - 5.0, nan)
    has_code = ~np.isnan(grade) | ~np.isnan(lapsed)
    digits = rng.choice(900_000, size=n, replace=False) + 100_000
    letters = ecf_code_letters(digits)
    codes: list[str | None] = [
        f"{d}{letter}" if flag else None
        for d, letter, flag in zip(digits.tolist(), letters, has_code.tolist(), strict=True)
    ]
    activity = rng.lognormal(0.0, 0.7, n)
    activity /= activity.mean()
    seeding = strength + rng.normal(0, 10.0, n)
    return _People(
        strength=strength,
        junior=junior,
        dob=dob,
        grade=grade,
        estimate=estimate,
        lapsed=lapsed,
        has_code=has_code,
        codes=codes,
        activity=activity,
        log_pick=np.log(activity),
        seeding=seeding,
    )


def _wrong_letter(code: str, shift: int) -> str:
    """The same code with a check letter that is wrong (``shift`` 1–10 places on)."""
    right = ECF_CODE_LETTERS.index(code[6])
    return code[:6] + ECF_CODE_LETTERS[(right + shift) % len(ECF_CODE_LETTERS)]


def _place_names(
    rng: np.random.Generator, n: int, suffixes: Sequence[str], prefixes: Sequence[str]
) -> list[str]:
    """``n`` different made-up names of clubs or leagues."""
    pool = [p + t + s for p in prefixes for t in _TOWNS for s in suffixes]
    picked = [pool[i] for i in rng.permutation(len(pool))[: min(n, len(pool))].tolist()]
    while len(picked) < n:
        picked.append(f"{pool[len(picked) % len(pool)]} {len(picked) // len(pool) + 1}")
    return picked


def _draw_league(rng: np.random.Generator, people: _People, *, national: bool) -> _League:
    """Clubs of 1–4 teams, players on teams by strength, teams in divisions, local leagues."""
    n = len(people.strength)
    n_teams = max(2, round(n / (_ROSTER_SIZE if national else _LEAGUE_ROSTER_SIZE)))
    teams_per_club = [0.35, 0.35, 0.2, 0.1] if national else [0.55, 0.35, 0.1, 0.0]
    per_club: list[int] = []
    while sum(per_club) < n_teams:
        per_club.append(int(rng.choice(4, p=teams_per_club)) + 1)
    per_club[-1] -= sum(per_club) - n_teams
    if per_club[-1] == 0:
        per_club.pop()
    n_clubs = len(per_club)
    club_names = _place_names(rng, n_clubs, _CLUB_SUFFIXES, _CLUB_PREFIXES)
    team_club = np.repeat(np.arange(n_clubs), per_club)
    team_letter = np.concatenate([np.arange(k) for k in per_club])
    roster_size = np.full(n_teams, n // n_teams)
    roster_size[rng.choice(n_teams, size=n % n_teams, replace=False)] += 1
    # Players join clubs at random; within a club the strongest play for the A team.
    slot_team = np.repeat(np.arange(n_teams), roster_size)
    player_club = team_club[slot_team][rng.permutation(n)]
    by_club = np.lexsort((-people.seeding, player_club))
    player_team = np.empty(n, dtype=np.intp)  # positions: numpy's index type, for bincount
    player_team[by_club] = slot_team  # slots are ordered by club, then team letter
    # Local leagues of about _LEAGUE_CLUBS clubs; in each, teams ranked by strength into divisions.
    league_of_club = (
        np.arange(n_clubs) // _LEAGUE_CLUBS if national else np.zeros(n_clubs, np.int64)
    )
    if national and n_clubs > _LEAGUE_CLUBS and n_clubs % _LEAGUE_CLUBS < 3:
        league_of_club[league_of_club == league_of_club.max()] -= 1  # no tiny last league
    team_strength = np.bincount(player_team, weights=people.strength, minlength=n_teams)
    team_strength = team_strength / roster_size
    team_names = [
        f"{club_names[c]} {_TEAM_LETTERS[k]}"
        for c, k in zip(team_club.tolist(), team_letter.tolist(), strict=True)
    ]
    division_of_team = np.empty(n_teams, dtype=np.intp)
    division_names: list[str] = []
    division_rank: list[int] = []
    team_league = league_of_club[team_club]
    n_leagues = int(league_of_club.max()) + 1
    towns = _place_names(rng, n_leagues, ("",), _CLUB_PREFIXES)
    for lg in range(n_leagues):
        teams = np.flatnonzero(team_league == lg)
        teams = teams[np.argsort(-team_strength[teams], kind="stable")]
        n_div = max(1, len(teams) // _DIVISION_TEAMS)
        town = f"{towns[lg]} & District" if national else ""
        for k, chunk in enumerate(np.array_split(teams, n_div)):
            division_of_team[chunk] = len(division_names)
            division_names.append(f"{town} Division {k + 1}".strip())
            division_rank.append(k)
    # Renumber teams division by division so that each division's teams are contiguous.
    order = np.lexsort((np.arange(n_teams), division_of_team))
    new_number = np.empty(n_teams, dtype=np.intp)
    new_number[order] = np.arange(n_teams)
    player_team = new_number[player_team]
    team_names = [team_names[t] for t in order.tolist()]
    roster_size = roster_size[order]
    division_of_team = division_of_team[order]
    n_div_total = len(division_names)
    division_teams = np.bincount(division_of_team, minlength=n_div_total)
    division_start = np.concatenate([[0], np.cumsum(division_teams)[:-1]]).astype(np.int64)
    rank = np.array(division_rank, dtype=np.int64)
    # Boards: 6 in a top division, fewer below; never more than the smallest team's players
    # less one, nor than its members who play this season (see _pick_same_name).
    playing = np.bincount(player_team, weights=people.log_pick > _NEVER, minlength=n_teams)
    smallest = np.array([roster_size[division_of_team == d].min() for d in range(n_div_total)])
    most = np.array([playing[division_of_team == d].min() for d in range(n_div_total)])
    division_boards = np.minimum(np.maximum(6 - rank, 4), np.minimum(smallest - 1, most))
    division_boards = np.maximum(division_boards, 1).astype(np.int64)
    division_weekday = rng.integers(0, 5, n_div_total)
    division_control = [
        _STANDARD_CONTROL if flag else "" for flag in (rng.random(n_div_total) < 0.3).tolist()
    ]
    roster = np.full((n_teams, int(roster_size.max())), -1, dtype=np.int64)
    by_team = np.lexsort((-people.seeding, player_team))
    team_first = np.concatenate([[0], np.cumsum(roster_size)[:-1]])
    place = np.arange(n) - team_first[player_team[by_team]]
    roster[player_team[by_team], place] = by_team
    return _League(
        club_names,
        player_club,
        player_team,
        team_names,
        division_names,
        division_start,
        division_teams,
        division_boards,
        division_weekday,
        division_control,
        roster,
    )


def _match_nights(
    rng: np.random.Generator, weekday: int, nights: int, settings: Settings
) -> IntArray:
    """``nights`` different match nights (date ordinals) of a division, on its weekday where
    there are enough of those, mostly September to April."""
    start, end = settings.season_start.toordinal(), settings.season_end.toordinal()
    term_from = dt.date(settings.season_start.year, 9, 1).toordinal()
    term_to = dt.date(settings.season_end.year, 4, 30).toordinal()
    days = np.arange(start, end + 1)
    if nights > len(days):
        raise ValueError(
            f"{nights} match nights do not fit in one season: too many games for the players"
        )
    on_weekday = days[(days - 1) % 7 == weekday]  # ordinal 1 (1 January of year 1) was a Monday
    pool = on_weekday if nights <= len(on_weekday) else days
    chance = np.where((pool >= term_from) & (pool <= term_to), 1.0, 0.12)
    picked: IntArray = rng.choice(pool, size=nights, replace=False, p=chance / chance.sum())
    return picked


def _draw_matches(
    rng: np.random.Generator, people: _People, league: _League, n_rows: int, settings: Settings
) -> tuple[_Rows, IntArray]:
    """Matches between teams of a division until there are ``n_rows`` board games; the last
    match may be cut short. Returns the rows and each match's number of boards."""
    # Each match night of a division pairs its teams at random; a team plays once a night.
    # Nights are drawn for a few more games than needed; a random choice of the matches is
    # then kept (the others were not played or not sent in), the last one cut short.
    teams, boards_of = league.division_teams, league.division_boards
    per_night = teams // 2
    weight = np.where(per_night > 0, teams * boards_of, 0).astype(np.float64)
    wanted = n_rows * 1.08 * weight / weight.sum()
    nights = np.ceil(wanted / np.maximum(per_night * boards_of, 1)).astype(np.int64) + 1
    nights[per_night == 0] = 0
    parts: list[tuple[IntArray, IntArray, IntArray, IntArray]] = []
    for d in np.flatnonzero(nights).tolist():
        n_nights, k = int(nights[d]), int(per_night[d])
        dates = _match_nights(rng, int(league.division_weekday[d]), n_nights, settings)
        draw = np.argsort(rng.random((n_nights, int(teams[d]))), axis=1)
        first, second = draw[:, 0 : 2 * k : 2].ravel(), draw[:, 1 : 2 * k : 2].ravel()
        swap = rng.random(len(first)) < 0.5
        home_local, away_local = np.where(swap, second, first), np.where(swap, first, second)
        start = league.division_start[d]
        parts.append(
            (np.full(len(first), d), start + home_local, start + away_local, np.repeat(dates, k))
        )
    division = np.concatenate([p[0] for p in parts]).astype(np.int64)
    home_team = np.concatenate([p[1] for p in parts]).astype(np.int64)
    away_team = np.concatenate([p[2] for p in parts]).astype(np.int64)
    night = np.concatenate([p[3] for p in parts]).astype(np.int64)
    keep = rng.permutation(len(division))
    boards = boards_of[division[keep]]
    cumulative = np.cumsum(boards)
    if int(cumulative[-1]) < n_rows:  # pragma: no cover - the 8 % margin makes this unreachable
        raise AssertionError("not enough matches drawn")
    last = int(np.searchsorted(cumulative, n_rows))
    short = int(keep[last])  # the last match kept is cut short
    keep = np.sort(keep[: last + 1])
    division, home_team, away_team, dates = (
        division[keep], home_team[keep], away_team[keep], night[keep]
    )  # fmt: skip
    boards = boards_of[division].copy()
    boards[int(np.searchsorted(keep, short))] -= int(boards.sum()) - n_rows
    width = int(league.division_boards.max())
    home = _pick_players(rng, people, league.roster[home_team], width)
    away = _pick_players(rng, people, league.roster[away_team], width)
    valid = np.arange(width)[None, :] < boards[:, None]
    match_of_row, slot = np.nonzero(valid)
    r_home, r_away = home[match_of_row, slot], away[match_of_row, slot]
    board = slot + 1
    # The home player has White on odd boards.
    gap = people.strength[r_home] - people.strength[r_away]
    gap += np.where(board % 2 == 1, _WHITE_ADVANTAGE, -_WHITE_ADVANTAGE)
    outcome = _outcomes(rng, gap)
    match_texts = np.array(
        [
            f"{league.team_names[h]} v {league.team_names[a]}"
            for h, a in zip(home_team.tolist(), away_team.tolist(), strict=True)
        ],
        dtype=object,
    )
    controls = np.array(league.division_control, dtype=object)[division[match_of_row]]
    rows = _Rows(
        match=match_of_row.astype(np.int64),
        board=board.astype(np.int64),
        home=r_home,
        away=r_away,
        date=dates[match_of_row],
        date_key=dates[match_of_row],
        division=division[match_of_row],
        match_text=match_texts[match_of_row],
        home_ref=np.empty(0, dtype=object),
        away_ref=np.empty(0, dtype=object),
        result=_result_texts(rng, outcome),
        control=controls,
    )
    return rows, boards


def _pick_players(
    rng: np.random.Generator, people: _People, rosters: IntArray, width: int
) -> IntArray:
    """For each match, ``width`` different players of the team's roster drawn with chances
    proportional to their activity (Gumbel top-k), in board order (strongest first)."""
    safe = np.maximum(rosters, 0)
    keys = np.where(rosters >= 0, people.log_pick[safe], -np.inf)
    keys = keys + rng.gumbel(size=rosters.shape)
    top = np.argsort(-keys, axis=1, kind="stable")[:, :width]
    chosen = np.take_along_axis(rosters, top, axis=1)
    order = np.argsort(-people.seeding[np.maximum(chosen, 0)], axis=1, kind="stable")
    return np.take_along_axis(chosen, order, axis=1)


def _outcomes(rng: np.random.Generator, gap: FloatArray) -> IntArray:
    """0 home win, 1 draw, 2 away win, from the strength gap (home minus away, grade points):
    expected score on the Elo curve (gap × 8), draws most likely between equals."""
    expected = 1.0 / (1.0 + 10.0 ** (-gap * ELO_POINTS_PER_GRADE / 400.0))
    draw = np.minimum(
        _DRAW_PEAK * np.exp(-((gap / _DRAW_WIDTH) ** 2)), 2 * np.minimum(expected, 1 - expected)
    )
    win = expected - draw / 2
    u = rng.random(len(gap))
    return np.where(u < win, 0, np.where(u < win + draw, 1, 2)).astype(np.int64)


def _result_texts(rng: np.random.Generator, outcome: IntArray) -> ObjectArray:
    """Result texts from the home side, in the forms graders type."""
    texts = np.empty(len(outcome), dtype=object)
    for code, forms in enumerate((_WIN_FORMS, _DRAW_FORMS, _LOSS_FORMS)):
        where = np.flatnonzero(outcome == code)
        labels = np.array([text for text, _ in forms], dtype=object)
        chances = np.array([p for _, p in forms])
        texts[where] = labels[rng.choice(len(forms), size=len(where), p=chances / chances.sum())]
    return texts


def _outcome_of(text: str) -> int:
    """0, 1 or 2 for a clean result text this module wrote."""
    for code, forms in enumerate((_WIN_FORMS, _DRAW_FORMS, _LOSS_FORMS)):
        if any(text == form for form, _ in forms):
            return code
    raise ValueError(f"result {text!r} is not one the generator writes")


# --- Names and how the results refer to players --------------------------------------------


def _name_key(first: IntArray, initial: IntArray, surname: IntArray) -> IntArray:
    return (first * (len(_INITIALS) + 1) + initial + 1) * len(_SURNAMES) + surname


def _draw_names(rng: np.random.Generator, people: _People) -> tuple[IntArray, IntArray, IntArray]:
    """First name, middle initial (-1 for none) and surname of each player. A player with no
    code is known by name alone, so his name is made one that nobody else has."""
    n = len(people.strength)
    first = rng.integers(0, len(_FIRST_NAMES), n)
    surname = rng.integers(0, len(_SURNAMES), n)
    initial = np.where(rng.random(n) < 0.3, rng.integers(0, len(_INITIALS), n), -1)
    for _ in range(100):
        clash = ~people.has_code & ~_unique_names(first, initial, surname)
        k = int(clash.sum())
        if k == 0:
            return first, initial, surname
        first[clash] = rng.integers(0, len(_FIRST_NAMES), k)
        surname[clash] = rng.integers(0, len(_SURNAMES), k)
        initial[clash] = rng.integers(0, len(_INITIALS), k)
    raise ValueError("too many players without a code to give each a name of his own")


def _unique_names(first: IntArray, initial: IntArray, surname: IntArray) -> BoolArray:
    """Whether each player's name is used by no other player."""
    key = _name_key(first, initial, surname)
    _, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
    unique: BoolArray = counts[inverse.ravel()] == 1
    return unique


def _name(first: int, initial: int, surname: int, *, surname_first: bool) -> str:
    """ "John A Smith" or "Smith, John A"."""
    given = _FIRST_NAMES[first] + ("" if initial < 0 else " " + _INITIALS[initial])
    return f"{_SURNAMES[surname]}, {given}" if surname_first else f"{given} {_SURNAMES[surname]}"


def _pick_same_name(
    rng: np.random.Generator, people: _People, unique: BoolArray, n_pairs: int
) -> list[int]:
    """Players who will get a namesake in their own club, both with no code: players whose
    name is their own, those without a code first. They are members who have not played this
    season (they are never picked), so that no results row becomes ambiguous unless a
    team is short of players."""
    candidates = np.flatnonzero(unique)
    order = np.lexsort((rng.random(len(candidates)), people.has_code[candidates]))
    pairs = [int(p) for p in candidates[order[:n_pairs]]]
    people.log_pick[pairs] = _NEVER
    return pairs


class _References:
    """How a results row refers to a player: by ECF code, or by name in either order."""

    def __init__(
        self, people: _People, unique: BoolArray, names_fs: list[str], names_sf: list[str]
    ) -> None:
        self.has_code = people.has_code
        self.codes = np.array(people.codes, dtype=object)
        self.unique = unique
        self.forename_first = np.array(names_fs, dtype=object)
        self.surname_first = np.array(names_sf, dtype=object)

    def draw(self, rng: np.random.Generator, who: IntArray) -> ObjectArray:
        """References to the players ``who``: a code 70 % of the time where there is one (always
        where the name is shared), else the name, "Surname, Forename" about a third of the time."""
        by_code = self.has_code[who] & (~self.unique[who] | (rng.random(len(who)) < 0.7))
        name = np.where(
            rng.random(len(who)) < 0.65, self.forename_first[who], self.surname_first[who]
        )
        refs: ObjectArray = np.where(by_code, self.codes[who], name)
        return refs


# --- Faults ----------------------------------------------------------------------------------


def _take(rng: np.random.Generator, free: BoolArray, k: int) -> list[int]:
    """``k`` rows drawn from the free ones (fewer if there are not enough), in row order."""
    candidates = np.flatnonzero(free)
    k = min(k, len(candidates))
    picked = rng.choice(candidates, size=k, replace=False) if k else candidates[:0]
    return sorted(int(r) for r in picked)


def _append_rows(rows: _Rows, source: IntArray, shift: int) -> _Rows:
    """The rows with copies of rows ``source`` appended (match keys moved on by ``shift``)."""

    def grow(
        column: npt.NDArray[np.generic], extra: npt.NDArray[np.generic]
    ) -> npt.NDArray[np.generic]:
        return np.concatenate([column, extra])

    return _Rows(
        match=grow(rows.match, rows.match[source] + shift).astype(np.int64),
        board=grow(rows.board, rows.board[source]).astype(np.int64),
        home=grow(rows.home, rows.home[source]).astype(np.int64),
        away=grow(rows.away, rows.away[source]).astype(np.int64),
        date=grow(rows.date, rows.date[source]).astype(np.int64),
        date_key=grow(rows.date_key, rows.date_key[source]).astype(np.int64),
        division=grow(rows.division, rows.division[source]).astype(np.int64),
        match_text=grow(rows.match_text, rows.match_text[source]).astype(object),
        home_ref=grow(rows.home_ref, rows.home_ref[source]).astype(object),
        away_ref=grow(rows.away_ref, rows.away_ref[source]).astype(object),
        result=grow(rows.result, rows.result[source]).astype(object),
        control=grow(rows.control, rows.control[source]).astype(object),
    )


def _duplicate(
    rng: np.random.Generator,
    rows: _Rows,
    match_boards: IntArray,
    n_dup: int,
    refs: _References,
) -> tuple[_Rows, BoolArray, list[tuple[int, str, str]]]:
    """Enter ``n_dup`` rows a second time: whole matches (both clubs sent the results in) for
    about 70 %, single games for the rest. The second entry refers to the players in its own
    way and types the result in its own form; sometimes one board disagrees on the result.
    Returns the rows, which of the original rows were copied, and the injected faults."""
    n_rows, n_matches = len(rows.home), len(match_boards)
    if n_dup == 0:
        return rows, np.zeros(n_rows, dtype=bool), []
    whole: list[int] = []
    used = 0
    for m in rng.permutation(n_matches).tolist():
        if used >= 0.7 * n_dup or n_dup - used < 4:
            break
        if match_boards[m] <= n_dup - used:
            whole.append(m)
            used += int(match_boards[m])
    in_whole = np.isin(rows.match, whole)
    singles = _take(rng, ~in_whole, n_dup - used)
    copied = in_whole.copy()
    copied[singles] = True
    source = np.flatnonzero(copied)
    out = _append_rows(rows, source, n_matches)
    out.home_ref[n_rows:] = refs.draw(rng, rows.home[source])
    out.away_ref[n_rows:] = refs.draw(rng, rows.away[source])
    outcome = np.array([_outcome_of(str(t)) for t in rows.result[source]], dtype=np.int64)
    disagree = np.zeros(len(source), dtype=bool)
    single_set = set(singles)
    for j, r in enumerate(source.tolist()):
        if r in single_set:
            disagree[j] = rng.random() < _DISAGREE_SINGLE
    for m in whole:
        if rng.random() < _DISAGREE_MATCH:
            boards = np.flatnonzero(rows.match[source] == m)
            disagree[int(rng.choice(boards))] = True
    changed = (outcome + 1 + rng.integers(0, 2, len(source))) % 3
    out.result[n_rows:] = _result_texts(rng, np.where(disagree, changed, outcome))
    faults: list[tuple[int, str, str]] = []
    for j, r in enumerate(source.tolist()):
        what = f"{rows.match_text[r]} board {rows.board[r]}"
        if disagree[j]:
            detail = (
                f"{what} entered again with result {out.result[n_rows + j]!r}"
                f" (first entry {rows.result[r]!r})"
            )
            faults.append((n_rows + j, "duplicate disagrees", detail))
        else:
            faults.append((n_rows + j, "duplicate game", f"{what} entered again"))
    return out, copied, faults


def _inject_row_faults(
    rng: np.random.Generator,
    rows: _Rows,
    counts: dict[str, int],
    taken: BoolArray,
    refs: _References,
    settings: Settings,
) -> list[tuple[int, str, str]]:
    """Put one fault into each of some rows not yet used, ``counts[kind]`` rows of each kind;
    changes ``rows`` in place and returns the faults as (row index, kind, detail)."""
    free = ~taken
    faults: list[tuple[int, str, str]] = []
    coded = refs.has_code[rows.home] | refs.has_code[rows.away]
    for r in _take(rng, free & coded, counts["bad code check letter"]):
        free[r] = False
        home_side = bool(refs.has_code[rows.home[r]]) and (
            not refs.has_code[rows.away[r]] or rng.random() < 0.5
        )
        player = int(rows.home[r] if home_side else rows.away[r])
        code = str(refs.codes[player])
        wrong = _wrong_letter(code, int(rng.integers(1, len(ECF_CODE_LETTERS))))
        (rows.home_ref if home_side else rows.away_ref)[r] = wrong
        side = "home" if home_side else "away"
        detail = f"{side} player code {wrong!r} has a wrong check letter (should be {code!r})"
        faults.append((r, "bad code check letter", detail))
    start, end = settings.season_start.toordinal(), settings.season_end.toordinal()
    for kind in (
        "default",
        "bad result",
        "unknown player",
        "self pairing",
        "date outside season",
        "rapid",
        "not gradable time control",
    ):
        for r in _take(rng, free, counts[kind]):
            free[r] = False
            if kind == "default":
                text = _DEFAULT_TEXTS[int(rng.integers(len(_DEFAULT_TEXTS)))]
                rows.result[r] = text
                detail = f"result {text!r} is a default"
            elif kind == "bad result":
                text = _BAD_RESULT_TEXTS[int(rng.integers(len(_BAD_RESULT_TEXTS)))]
                rows.result[r] = text
                detail = f"result {text!r} is mistyped"
            elif kind == "unknown player":
                given = _FIRST_NAMES[int(rng.integers(len(_FIRST_NAMES)))]
                family = _STRANGER_SURNAMES[int(rng.integers(len(_STRANGER_SURNAMES)))]
                name = f"{given} {family}" if rng.random() < 0.65 else f"{family}, {given}"
                side = "home" if rng.random() < 0.5 else "away"
                (rows.home_ref if side == "home" else rows.away_ref)[r] = name
                (rows.home if side == "home" else rows.away)[r] = -1
                detail = f"{side} player {name!r} is not in the Players table"
            elif kind == "self pairing":
                rows.away[r] = rows.home[r]
                rows.away_ref[r] = refs.draw(rng, rows.home[r : r + 1])[0]
                detail = f"{rows.home_ref[r]!r} is paired with himself ({rows.away_ref[r]!r})"
            elif kind == "date outside season":
                days = int(rng.integers(1, 61))
                rows.date[r] = start - days if rng.random() < 0.5 else end + days
                when = dt.date.fromordinal(int(rows.date[r])).isoformat()
                detail = f"date {when} is outside the season"
            else:
                pool = _RAPID_CONTROLS if kind == "rapid" else _UNGRADABLE_CONTROLS
                control = pool[int(rng.integers(len(pool)))]
                rows.control[r] = control
                detail = f"time control {control!r}"
            faults.append((r, kind, detail))
    return faults


# --- Building the frozen values ---------------------------------------------------------------


class _Dates:
    """Date objects by ordinal, each built once."""

    def __init__(self) -> None:
        self._cache: dict[int, dt.date] = {}

    def __call__(self, ordinal: int) -> dt.date:
        date = self._cache.get(ordinal)
        if date is None:
            date = self._cache[ordinal] = dt.date.fromordinal(ordinal)
        return date


def _build_games(rows: _Rows, order: IntArray, league: _League) -> tuple[Game, ...]:
    """The Results table in row order."""
    days, inverse = np.unique(rows.date[order], return_inverse=True)
    date_of_day = np.array([dt.date.fromordinal(d) for d in days.tolist()], dtype=object)
    names = np.array(league.division_names, dtype=object)
    columns = zip(
        rows.home_ref[order].tolist(),
        rows.away_ref[order].tolist(),
        rows.result[order].tolist(),
        date_of_day[inverse.ravel()].tolist(),
        names[rows.division[order]].tolist(),
        rows.match_text[order].tolist(),
        rows.board[order].tolist(),
        rows.control[order].tolist(),
        range(2, len(order) + 2),
        strict=True,
    )
    return tuple(Game(*column) for column in columns)


def _history(
    rng: np.random.Generator, people: _People, settings: Settings
) -> tuple[list[EarlierSeason | None], list[EarlierSeason | None], list[list[DatedPoints]]]:
    """The previous and the earlier season's totals of each graded player, and for about a
    quarter of them the dated games behind the totals (points by the 1997 leaflet: opponent
    ± 50 after the 40-point horizon, floored at 0)."""
    n = len(people.strength)
    graded = ~np.isnan(people.grade)
    present = [graded & (rng.random(n) < 0.92)]
    present.append(graded & (rng.random(n) < np.where(present[0], 0.8, 0.3)))
    dated = (present[0] | present[1]) & (rng.random(n) < 0.25)
    dates = _Dates()
    totals: list[list[EarlierSeason | None]] = []
    owners_all: list[IntArray] = []
    days_all: list[IntArray] = []
    points_all: list[FloatArray] = []
    for back, here in enumerate(present, start=1):
        drift = np.where(people.junior, -12.0 * back, rng.normal(0.0, 5.0, n) * back)
        then = np.round(np.maximum(people.strength + drift, 5.0))
        games = np.where(here, rng.poisson(_GAMES_PER_SEASON * people.activity), 0)
        spread = 35.0 / np.sqrt(np.maximum(games, 1))
        points = np.round(np.maximum(then + rng.normal(0.0, 1.0, n) * spread, 0.0) * games)
        # The counts as numpy's index type: np.repeat refuses int64 where that is int32.
        owners = np.repeat(np.arange(n), np.where(here & dated, games, 0).astype(np.intp))
        own: FloatArray = then[owners].astype(np.float64)
        opponent = np.maximum(np.round(rng.normal(own, 25.0)), 0.0)
        score = 1.0 - _outcomes(rng, own - opponent) / 2.0
        counted = np.clip(opponent, own - DEFAULT_HORIZON, own + DEFAULT_HORIZON)
        game_points = np.maximum(counted + score_margins(score), 0.0)
        points = np.where(here & dated, np.bincount(owners, game_points, minlength=n), points)
        first = dt.date(settings.season_start.year - back, 9, 1).toordinal()
        last = dt.date(settings.season_start.year - back + 1, 4, 30).toordinal()
        owners_all.append(owners)
        days_all.append(rng.integers(first, last + 1, len(owners)))
        points_all.append(game_points)
        totals.append(
            [
                EarlierSeason(g, p) if h else None
                for g, p, h in zip(games.tolist(), points.tolist(), here.tolist(), strict=True)
            ]
        )
    owners = np.concatenate(owners_all)
    days = np.concatenate(days_all)
    game_points = np.concatenate(points_all)
    by_date = np.lexsort((days, owners))
    earlier_games: list[list[DatedPoints]] = [[] for _ in range(n)]
    for p, d, pts in zip(
        owners[by_date].tolist(), days[by_date].tolist(), game_points[by_date].tolist(), strict=True
    ):
        earlier_games[p].append(DatedPoints(dates(d), pts))
    return totals[0], totals[1], earlier_games


def _number_or_none(value: float) -> float | None:
    return None if math.isnan(value) else float(value)


def _build_players(
    rng: np.random.Generator,
    people: _People,
    league: _League,
    names: list[str],
    pairs: list[int],
    settings: Settings,
) -> tuple[tuple[Player, ...], tuple[float, ...]]:
    """The Players table and the true strengths; the namesakes of ``pairs`` come last."""
    previous, earlier, earlier_games = _history(rng, people, settings)
    clubs = [league.club_names[c] for c in league.player_club.tolist()]
    players = [
        Player(
            names[i],
            people.codes[i],
            clubs[i],
            people.dob[i],
            bool(people.junior[i]),
            _number_or_none(float(people.grade[i])),
            _number_or_none(float(people.lapsed[i])),
            _number_or_none(float(people.estimate[i])),
            previous[i],
            earlier[i],
            tuple(earlier_games[i]),
            i + 2,
        )
        for i in range(len(names))
    ]
    strengths = [float(s) for s in people.strength]
    for p in pairs:
        row = len(players) + 2
        if rng.random() < 0.5:  # the same person entered twice
            twin = players[p]
            players.append(replace(twin, code=None, row=row))
            strengths.append(strengths[p])
        else:  # a namesake who joined the same club and has not played yet
            players.append(Player(players[p].name, None, players[p].club, row=row))
            strengths.append(float(np.clip(rng.normal(_ADULT_MEAN, _ADULT_SD), 5.0, 265.0)))
    return tuple(players), tuple(strengths)
