"""TRF import: the real reports (tests/data/trf, copies of TRF_SHARED) as they are,
malformed input, fuzzing.

Reference values come from the files themselves, read here column by column as the TRF-16
layout places them (points in columns 81-84, round results in column 99 + 10k), and from
SOURCES.md (number of rounds), never from the parser under test.

The JaVaFo ``BB?`` lines: the meanings as JaVaFo and bbpPairings read them (BBW every win,
full-point bye included; BBD every draw, half-point bye included; BBL a loss; BBZ the
zero-point bye; BBF the forfeit loss; BBU the pairing-allocated bye, else as BBW), the round
codes read from column 99 + 10k of the real report. A player line whose fields are not in their
columns is an error naming the line and quoting it.


"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.paths import TRF
from xlgrade.cli import main
from xlgrade.errors import FormatError
from xlgrade.formats.trf import (
    Tournament,
    check_tournament,
    looks_like_trf,
    parse_trf,
    tournament_games,
)
from xlgrade.results import parse_game_result

DATA = TRF
MADRID = TRF / "san_viator_2018.trf"
FILES = ("san_viator_2018.trf", "example1.trf", "2020_06.trf")
# SOURCES.md: 7 rounds, 7 rounds, 10 rounds.
ROUNDS = {"san_viator_2018.trf": 7, "example1.trf": 7, "2020_06.trf": 10}
# TRF-26 default points of each round code (the layout's table; blank is Z).
SPEC_POINTS = {"1": 1, "+": 1, "W": 1, "F": 1, "U": 1, "=": 0.5, "D": 0.5, "H": 0.5,
               "0": 0, "L": 0, "-": 0, "Z": 0, " ": 0}  # fmt: skip


def _text(name: str) -> str:
    path = DATA / name
    if not path.is_file():
        pytest.fail(f"data file {path} is missing: the reports are bundled in tests/data/trf")
    return path.read_text(encoding="ascii")


def _player_lines(name: str) -> list[str]:
    return [line for line in _text(name).splitlines() if line.startswith("001")]


def _load(name: str) -> Tournament:
    return parse_trf(_text(name), name)


@pytest.mark.parametrize("name", FILES)
def test_real_file_loads_with_its_players_and_rounds(name: str) -> None:
    tournament = _load(name)
    lines = _player_lines(name)
    assert len(tournament.players) == len(lines) == int(tournament.field("062"))
    assert tournament.rounds == ROUNDS[name]
    rated = sum(1 for line in lines if line[48:52].strip() not in ("", "0"))
    assert sum(1 for p in tournament.players if p.rating) == rated


@pytest.mark.parametrize("name", FILES)
def test_points_equal_the_sum_of_round_results_as_the_file_scores_them(name: str) -> None:
    tournament = _load(name)
    for line, player in zip(_player_lines(name), tournament.players, strict=True):
        file_points = float(line[80:84])
        results = line.ljust(91 + 10 * ROUNDS[name])[98::10][: ROUNDS[name]]
        assert sum(SPEC_POINTS[code.upper()] for code in results) == file_points, line
        assert player.points == file_points
        assert sum(tournament.score(r.code) for r in player.rounds) == file_points
    assert [p for p in check_tournament(tournament) if p.what == "points"] == []


@pytest.mark.parametrize("name", FILES)
def test_every_pairing_is_seen_the_same_way_from_both_sides(name: str) -> None:
    tournament = _load(name)
    # The three real files are consistent: no pairing problem is reported for them.
    assert check_tournament(tournament) == ()
    # And read independently from the text: A's opponent in round r has A as opponent.
    lines = {int(line[4:8]): line.ljust(91 + 10 * ROUNDS[name]) for line in _player_lines(name)}
    for rank, line in lines.items():
        for r in range(ROUNDS[name]):
            opponent = line[91 + 10 * r : 95 + 10 * r].strip()
            if opponent and int(opponent):
                back = lines[int(opponent)][91 + 10 * r : 95 + 10 * r].strip()
                assert int(back) == rank


@pytest.mark.parametrize("name", FILES)
def test_every_round_entry_is_a_game_or_a_reason(name: str) -> None:
    tournament = _load(name)
    imported = tournament_games(tournament)
    lines = _player_lines(name)
    entries = len(lines) * ROUNDS[name]
    assert imported.entries == entries
    assert 2 * len(imported.games) + len(imported.not_graded) == entries
    codes = "".join(line.ljust(91 + 10 * ROUNDS[name])[98::10][: ROUNDS[name]] for line in lines)
    rated_entries = sum(codes.count(c) for c in "1=0")
    games = [parse_game_result(game.result) for game in imported.games]
    assert 2 * sum(1 for g in games if g.graded) == rated_entries
    byes = sum(codes.upper().count(c) for c in "HFUZ ")
    assert sum(1 for p in imported.not_graded if p.what in ("bye", "absent")) == byes
    for problem in imported.not_graded:
        assert problem.why
        assert problem.sheet == name
        assert problem.row is not None


def test_first_madrid_player_field_by_field() -> None:
    # 001    1 m    Sarabia Utrilla, Joaquin          1750 ESP     2268957 1981        2.0  118
    #   0000 - Z  0000 - F    76 w 1  0000 - Z  0000 - Z  0000 - Z  0000 - Z
    tournament = _load("san_viator_2018.trf")
    first = tournament.players[0]
    assert (first.rank, first.sex, first.title, first.name) == (
        1,
        "m",
        "",
        "Sarabia Utrilla, Joaquin",
    )
    assert (first.rating, first.federation, first.fide_id, first.birth) == (
        1750,
        "ESP",
        "2268957",
        "1981",
    )
    assert (first.birth_date, first.points, first.place) == (None, 2.0, 118)
    assert [(r.opponent, r.colour, r.code) for r in first.rounds] == [
        (None, "-", "Z"),
        (None, "-", "F"),
        (76, "w", "1"),
        (None, "-", "Z"),
        (None, "-", "Z"),
        (None, "-", "Z"),
        (None, "-", "Z"),
    ]
    assert tournament.name == "XXX Torneo San Viator - Memorial Pepe Domaica (B)"
    assert str(tournament.start) == "2018-04-08"  # 042 08/04/2018
    assert str(tournament.end) == "2018-06-10"  # 052 10/06/2018
    assert [str(d) for d in tournament.round_dates] == [
        "2018-04-08", "2018-04-15", "2018-04-22", "2018-05-06",
        "2018-05-13", "2018-05-20", "2018-05-27",
    ]  # fmt: skip


def test_madrid_round_three_game_and_byes() -> None:
    imported = tournament_games(_load("san_viator_2018.trf"))
    game = next(g for g in imported.games if g.home == "Sarabia Utrilla, Joaquin")
    # Player 76's own line is the other side of "76 w 1".
    assert (game.away, game.result, game.match, str(game.date)) == (
        "Nunez Valladares, Domingo",
        "1-0",
        "Round 3",
        "2018-04-22",
    )
    assert game.time_control == "90+30"  # 122: 90 minutes + 30 seconds per move
    first = [p for p in imported.not_graded if p.row == 14]
    assert [p.what for p in first] == ["absent", "bye", "absent", "absent", "absent", "absent"]
    assert (
        first[1].why
        == "'Sarabia Utrilla, Joaquin', round 2 ('0000 - F'): full-point bye, not graded"
    )


def test_madrid_forfeits_are_kept_as_defaults() -> None:
    # Player 5, round 1: "68 b +" -> player 68 lost by forfeit as White.
    imported = tournament_games(_load("san_viator_2018.trf"))
    game = next(
        g for g in imported.games if g.away == "Baltasar Garza, Antonio" and g.match == "Round 1"
    )
    assert game.result == "0-1 def"
    parsed = parse_game_result(game.result)
    assert (parsed.graded, parsed.reason) == (False, "away won by default")


def test_older_conventions_of_example1() -> None:
    tournament = _load("example1.trf")
    first = tournament.players[0]
    assert (first.title, first.birth, str(first.birth_date)) == ("g", "1969.12.06", "1969-12-06")
    assert str(tournament.start) == "2005-07-28"  # 042 28. 07. 2005
    withdrawn = tournament.player(13)
    assert withdrawn is not None
    assert [r.code for r in withdrawn.rounds] == ["-"] + ["Z"] * 6
    imported = tournament_games(tournament)
    assert imported.games[0].time_control == "40/120, 60"


def test_grades_from_ratings_only_when_asked() -> None:
    tournament = _load("san_viator_2018.trf")
    assert tournament_games(tournament).players[0].estimated_grade is None
    asked = tournament_games(tournament, grade_from_rating=lambda r: (r - 1250) / 5)
    assert asked.players[0].estimated_grade == 100.0  # (1750 - 1250) / 5
    assert asked.players[2].estimated_grade is None  # rating 0: unrated


def test_looks_like_trf() -> None:
    assert looks_like_trf(_text("2020_06.trf"))
    assert not looks_like_trf("name,code\nSmith,123456A\n")
    assert not looks_like_trf("#EVENT DETAILS\n#FINISH#\n")


# A small, consistent two-round report to break in the malformed cases.
GOOD = (
    "012 Test Open\n"
    "001    1 m    Smith, John                       1800 ENG     1234567 1980/01/02  1.5    1"
    "     2 w 1     2 b =\n"
    "001    2 w    Brown, Ann                        1700 ENG     7654321 1990/05/06  0.5    2"
    "     1 b 0     1 w =\n"
)


def test_small_file_reads() -> None:
    tournament = parse_trf(GOOD, "t.trf")
    imported = tournament_games(tournament)
    assert [(g.home, g.away, g.result) for g in imported.games] == [
        ("Smith, John", "Brown, Ann", "1-0"),
        ("Brown, Ann", "Smith, John", "½-½"),
    ]
    assert check_tournament(tournament) == ()
    assert str(tournament.players[0].birth_date) == "1980-01-02"


def _quote(line: str) -> str:
    """How messages quote a long line: its first 100 characters and an ellipsis, then its
    length."""
    return repr(line[:100] + "…") + f" ({len(line):,} characters)"


def _brown(old: str, new: str) -> tuple[str, str]:
    """GOOD with Brown's line changed, and that line as a message quotes it."""
    line = GOOD.splitlines()[2].replace(old, new)
    return GOOD.replace(GOOD.splitlines()[2], line), _quote(line)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "name,code\nSmith,123456A\n",
            "line 1: not a TRF line (a TRF line starts with a three-character code such as "
            "'001' or '012' and a blank): 'name,code'",
        ),
        ("012 Only a header\n", "line 1: not a TRF file: it has no player lines (001)"),
        ("", "line 1: not a TRF file: it has no player lines (001)"),
        (
            _brown("001    2", "001    x")[0],
            "line 3: starting rank (columns 5-8) 'x' is not a whole number: "
            + _brown("001    2", "001    x")[1],
        ),
        (
            _brown("001    2", "001    1")[0],
            "line 3: starting rank 1 is already used on line 2: "
            + _brown("001    2", "001    1")[1],
        ),
        (
            _brown("1 b 0", "1 b 7")[0],
            "line 3: round 1: result code '7' is not one of 1 = 0 + - W D L H F U Z: "
            + _brown("1 b 0", "1 b 7")[1],
        ),
        (
            _brown("1 b 0", "1 x 0")[0],
            "line 3: round 1: colour 'x' is not w, b or -: " + _brown("1 b 0", "1 x 0")[1],
        ),
        (
            _brown("0.5    2", "0,5    2")[0],
            "line 3: points (columns 81-84) '0,5' is not a number: "
            + _brown("0.5    2", "0,5    2")[1],
        ),
        (
            _brown("1700 ENG", "17x0 ENG")[0],
            "line 3: rating (columns 49-52) '17x0' is not a whole number: "
            + _brown("1700 ENG", "17x0 ENG")[1],
        ),
        (
            _brown("     1 b 0", "    1x b 0")[0],
            "line 3: round 1: opponent '1x' is not a starting rank: "
            + _brown("     1 b 0", "    1x b 0")[1],
        ),
        (
            _brown("7654321", "76543x1")[0],
            "line 3: FIDE ID (columns 58-68) '76543x1' is not a number: "
            + _brown("7654321", "76543x1")[1],
        ),
        ("XXR ten\n" + GOOD, "line 1: number of rounds 'ten' is not a whole number: 'XXR ten'"),
        (
            "162 W one\n" + GOOD,
            "line 1: scoring line not understood (a code W, D, L, A, P or X and its points, "
            "repeated): '162 W one'",
        ),
        ("162 Q 1.0\n" + GOOD, "line 1: scoring code 'Q' is not W, D, L, A, P or X: '162 Q 1.0'"),
    ],
)
def test_malformed_input_message(text: str, message: str) -> None:
    with pytest.raises(FormatError) as error:
        parse_trf(text)
    assert str(error.value) == message


def test_broken_pairings_are_reported_and_not_graded() -> None:
    broken = GOOD.replace("     1 b 0     1 w =", "     1 b 1     1 w =")
    tournament = parse_trf(broken, "t.trf")
    problems = check_tournament(tournament)
    assert [(p.row, p.what, p.why) for p in problems] == [
        (
            2,
            "pairing",
            "'Smith, John' round 1 ('2 w 1'): result does not match 'Brown, Ann' round 1 ('1 b 1')",
        ),
        (
            3,
            "points",
            "'Brown, Ann' has 0.5 points in the file but his round results add up to 1.5",
        ),
        (
            3,
            "pairing",
            "'Brown, Ann' round 1 ('1 b 1'): result does not match 'Smith, John' round 1 ('2 w 1')",
        ),
    ]
    imported = tournament_games(tournament)
    assert [g.match for g in imported.games] == ["Round 2"]
    assert [p.what for p in imported.not_graded] == ["inconsistent pairing"] * 2
    assert 2 * len(imported.games) + len(imported.not_graded) == imported.entries == 4


def test_one_sided_pairing_is_reported() -> None:
    broken = GOOD.replace("     1 w =\n", "  0000 - H\n")
    problems = check_tournament(parse_trf(broken, "t.trf"))
    assert [p.why for p in problems if p.what == "pairing"] == [
        "'Smith, John' round 2 ('2 b ='): but 'Brown, Ann' round 2 ('0000 - H')".replace(
            "): but", ") but"
        )
    ]


def test_header_codes_of_trf26_and_comments_are_tolerated() -> None:
    text = "### made by hand\n222 5400+30\n162 W 1.0    D 0.5    L 0.0    A 0.0\n" + GOOD
    tournament = parse_trf(text)
    assert ("###", "made by hand") in tournament.header
    assert tournament.field("222") == "5400+30"
    assert check_tournament(tournament) == ()


def test_scoring_line_changes_the_points() -> None:
    # 162: a win is worth 3 points (TRF-26 "Scoring point system"), so Smith's 1.5 is wrong.
    tournament = parse_trf("162  W 3.0\n" + GOOD)
    assert tournament.score("1") == 3.0
    assert tournament.score("U") == 3.0
    assert [p.why for p in check_tournament(tournament)] == [
        "'Smith, John' has 1.5 points in the file but his round results add up to 3.5"
    ]


# Fuzzing: any text gives a Tournament or a FormatError, nothing else.
_SEED = (
    (DATA / "2020_06.trf").read_text(encoding="ascii") if (DATA / "2020_06.trf").is_file() else GOOD
)


def _check_any(text: str) -> None:
    try:
        tournament = parse_trf(text)
    except FormatError as error:
        message = str(error)
    else:
        message = ""
    if message:
        assert re.match(r"line \d+: ", message)
        return
    imported = tournament_games(tournament)
    assert 2 * len(imported.games) + len(imported.not_graded) == imported.entries
    check_tournament(tournament)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from(" 0123456789wb=+-HFUZWDLx.,\n#XRmf"), max_size=400))
def test_fuzz_random_text(text: str) -> None:
    _check_any(text)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=len(_SEED) - 1),
            st.sampled_from(list(" 0123456789wb=+-HFUZ\nx")),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_fuzz_mutated_real_file(edits: list[tuple[int, str]]) -> None:
    text = list(_SEED)
    for position, char in edits:
        text[position] = char
    _check_any("".join(text))


def test_large_file_is_read() -> None:
    # 3000 players, 11 rounds: everything is indexed by starting rank, nothing is quadratic.
    lines = []
    for rank in range(1, 3001):
        opponent = rank + 1 if rank % 2 else rank - 1
        colour, code = ("w", "1") if rank % 2 else ("b", "0")
        rounds = "".join(f"  {opponent:4d} {colour} {code}" for _ in range(11))
        points = "11.0" if rank % 2 else " 0.0"
        lines.append(
            f"001 {rank:4d}      {'Player ' + str(rank):<33} {'':<32}{points} {'':4}{rounds}"
        )
    imported = tournament_games(parse_trf("\n".join(lines)))
    assert len(imported.games) == 1500 * 11
    assert imported.not_graded == ()


MADRID_ROUNDS = 7  # SOURCES.md

# Points of each round code in a 3-1-0 event, as BBW 3.0 and BBD 1.0 define it.
THREE_ONE_NIL = {"1": 3, "+": 3, "W": 3, "F": 3, "U": 3, "=": 1, "D": 1, "H": 1,
                 "0": 0, "L": 0, "-": 0, "Z": 0, " ": 0}  # fmt: skip


def _madrid() -> str:
    if not MADRID.is_file():
        pytest.fail(f"data file {MADRID} is missing: the reports are bundled in tests/data/trf")
    return MADRID.read_text(encoding="ascii")


def _codes(line: str) -> str:
    """The round codes of a 001 line, read from column 99 + 10k."""
    return line.ljust(91 + 10 * MADRID_ROUNDS)[98::10][:MADRID_ROUNDS].upper()


def _rescored(text: str, points: dict[str, int]) -> str:
    """The report with each player's points (columns 81-84) the sum of his codes' points."""
    lines = []
    for line in text.splitlines():
        if line.startswith("001"):
            total = sum(points[code] for code in _codes(line))
            line = f"{line[:80]}{total:4.1f}{line[84:]}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def _player(rank: int, name: str, points: str, *rounds: str) -> str:
    return f"001 {rank:4d}      {name:<33} {'':<32}{points:>4} {'':4}" + "".join(
        f"  {r}" for r in rounds
    )


# --- TRF: the BB? lines -------------------------------------------------------------------


def test_a_forfeit_loss_line_leaves_the_full_point_byes_alone() -> None:
    text = _madrid()
    # The report has full-point byes (F) and forfeit losses (-), both as the defaults score them.
    codes = "".join(_codes(line) for line in text.splitlines() if line.startswith("001"))
    assert codes.count("F") == 3
    assert codes.count("-") == 15
    tournament = parse_trf("BBF  0.0\n" + text, MADRID.name)
    assert (tournament.score("F"), tournament.score("-")) == (1.0, 0.0)
    assert check_tournament(tournament) == ()


def test_a_three_one_nil_report_adds_up() -> None:
    text = _rescored(_madrid(), THREE_ONE_NIL)
    codes = "".join(_codes(line) for line in text.splitlines() if line.startswith("001"))
    assert all(codes.count(c) for c in "+FHU")  # every code the old reading got wrong is here
    tournament = parse_trf("BBW  3.0\nBBD  1.0\n" + text, MADRID.name)
    assert {code: tournament.score(code) for code in "1+WFU=DH0L-Z"} == {
        code: float(points) for code, points in THREE_ONE_NIL.items() if code != " "
    }
    assert check_tournament(tournament) == ()
    # A total that really is wrong is still reported.
    first = next(line for line in text.splitlines() if line.startswith("001"))
    wrong = text.replace(first, f"{first[:80]}{float(first[80:84]) + 1:4.1f}{first[84:]}", 1)
    problems = check_tournament(parse_trf("BBW  3.0\nBBD  1.0\n" + wrong, MADRID.name))
    assert [(p.row, p.what) for p in problems] == [(16, "points")]  # line 14, after two more


def test_each_line_sets_the_codes_of_its_kind_of_result() -> None:
    lines = "BBW  3.0\nBBD  1.5\nBBL  0.5\nBBZ  0.2\nBBF  0.1\nBBU  2.0\n"
    tournament = parse_trf(lines + _player(1, "Smith, John", "0.0"))
    assert {code: tournament.score(code) for code in "1+WF=DH0LZ-U"} == {
        "1": 3.0, "+": 3.0, "W": 3.0, "F": 3.0, "=": 1.5, "D": 1.5, "H": 1.5,
        "0": 0.5, "L": 0.5, "Z": 0.2, "-": 0.1, "U": 2.0,
    }  # fmt: skip
    # A forfeit with no opponent is a bye: "+" the pairing-allocated one, "-" zero points.
    assert tournament.score("+", paired=False) == 2.0
    assert tournament.score("-", paired=False) == 0.2


def test_the_pairing_allocated_bye_scores_as_a_win_unless_given() -> None:
    player = _player(1, "Smith, John", "0.0")
    assert parse_trf("BBW  3.0\n" + player).score("U") == 3.0
    assert parse_trf("BBU  1.0\nBBW  3.0\n" + player).score("U") == 1.0
    assert parse_trf("162  P 1.0\nBBW  3.0\n" + player).score("U") == 1.0


def test_unpaired_forfeits_are_checked_as_byes() -> None:
    # bbpPairings scores "0000 - +" as the pairing-allocated bye and "0000 - -" as absent.
    text = "BBW  3.0\nBBU  1.0\n" + "\n".join(
        [
            _player(1, "Smith, John", "4.0", "   2 w 1", "0000 - +"),
            _player(2, "Brown, Ann", "0.0", "   1 b 0", "0000 - -"),
        ]
    )
    assert check_tournament(parse_trf(text)) == ()


def test_a_bb_line_that_is_not_a_number_is_named() -> None:
    with pytest.raises(FormatError) as error:
        parse_trf("BBW  three\n" + _player(1, "Smith, John", "0.0"))
    assert str(error.value) == "line 1: points 'three' is not a number: 'BBW  three'"


def test_a_player_line_out_of_its_columns_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.trf"
    junk.write_text("012 Junk\n001    1 m    Foo, Bar  xx\n", encoding="ascii")
    assert main(["import", str(junk), "--into", str(tmp_path / "imp")]) == 1
    assert capsys.readouterr().err == (
        "Error: junk.trf: line 2: player line not in the TRF columns (the name, columns 15-47, "
        "is 'Foo, Bar  xx'): '001    1 m    Foo, Bar  xx'\n"
    )
    assert not (tmp_path / "imp").exists()


def test_a_character_between_two_fields_is_an_error() -> None:
    line = "001    1 m    Foo, Bar" + " " * 25 + "x1500"
    with pytest.raises(FormatError) as error:
        parse_trf(f"012 Junk\n{line}\n")
    assert str(error.value) == (
        "line 2: player line not in the TRF columns (column 48, between two fields, holds "
        f"'x'): {line!r}"
    )


# --- TRF: a file cut short ----------------------------------------------------------------


def test_a_player_line_with_no_round_data_where_rounds_are_declared_is_named() -> None:
    # The file stops inside Brown's line, in her birth date: her rounds are gone.
    cut = GOOD[: GOOD.index("1990/05")]
    tournament = parse_trf(cut, "t.trf")
    assert tournament.rounds == 2  # Smith's line holds two rounds
    problems = tournament_games(tournament).file_problems
    assert [(p.row, p.what, p.why) for p in problems] == [
        (
            3,
            "cut short",
            "the line of 'Brown, Ann' has no round data (from column 92), though the tournament "
            "has 2 rounds: read as absent from every round; the file may be cut short",
        )
    ]


def test_a_round_with_an_opponent_but_no_result_is_named() -> None:
    # Cut after round 2's colour on Brown's line (column 107): no result code (column 109).
    cut = GOOD.rstrip("\n")[:-2] + "\n"
    problems = [p for p in check_tournament(parse_trf(cut, "t.trf")) if p.what == "cut short"]
    assert [(p.row, p.why) for p in problems] == [
        (
            3,
            "the line of 'Brown, Ann' gives round 2 an opponent (1) but no result code (column "
            "109): read as absent from it; the file may be cut short",
        )
    ]


def test_a_whole_file_has_no_cut_short_line() -> None:
    assert [p for p in check_tournament(parse_trf(_madrid())) if p.what == "cut short"] == []
