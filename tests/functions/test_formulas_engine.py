"""The worksheet functions inside a real formula engine.

A workbook is built with openpyxl whose cells call the functions — whole-column formulas that
spill (entered as array formulas over the spill range), single-cell formulas, references,
literals, SUM/COUNT around them — and PyPI ``formulas`` evaluates it with the functions
registered. Each function is registered through an adapter that hands over cells as xlwings
does with ``ndim=2``: every argument as rows of cells, numbers as floats, empty and error cells
as ``None``. The values must be those of calling :mod:`xlgrade` directly, and the sources'.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

formulas = pytest.importorskip("formulas")
openpyxl = pytest.importorskip("openpyxl")

import numpy as np  # noqa: E402
import schedula as sh  # noqa: E402
import xlgrade_udfs as xl  # noqa: E402
from formulas.ranges import Ranges  # noqa: E402
from formulas.tokens.operand import XlError  # noqa: E402
from openpyxl.worksheet.formula import ArrayFormula  # noqa: E402

from tests.worked_examples import YCA_GAMES  # noqa: E402
from xlgrade import convert, ecf, elo, glicko  # noqa: E402
from xlgrade.model import EarlierSeason  # noqa: E402

SCORE = {"½": 0.5, 1: 1.0, 0: 0.0}
# The YCA 142 player's card (tests/worked_examples.py) as typed into cells: "½" or 1 or 0, and
# the working grade in brackets.
YCA_CARD: list[tuple[str | int, int | str]] = [
    ("½" if game.score == 0.5 else int(game.score),
     f"[{game.opponent}]" if game.estimated else game.opponent)
    for game in YCA_GAMES
]  # fmt: skip
# 1997 leaflet: (points, games, previous points, previous games, earlier points, games).
LEAFLET = [
    (3400, 34, None, None, None, None),
    (2900, 25, 1400, 10, None, None),
    (2600, 18, 1000, 8, 1800, 12),
    (700, 8, 560, 6, 630, 7),
]
# Chesterfield page: 1778 against six opponents.
CHESTERFIELD = [(1828, "½"), (2178, 0), (1678, 1), (1728, "½"), (1978, 1), (2078, 0)]


def _cell(value: Any) -> Any:
    if value is sh.EMPTY or isinstance(value, XlError):
        return None
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | float | np.integer | np.floating):
        return float(value)
    return value


def _as_xlwings(value: Any) -> list[list[Any]]:
    """An argument as xlwings hands it over with ``ndim=2``: rows of cells."""
    if isinstance(value, Ranges):
        value = value.value
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            return [[_cell(value.item())]]
        if value.ndim == 1:
            value = value.reshape(1, -1)
        return [[_cell(v) for v in row] for row in value.tolist()]
    return [[_cell(value)]]


def _registered(function: Any) -> Any:
    def call(*args: Any) -> Any:
        answer = function(*(_as_xlwings(a) for a in args))
        return np.array(answer, dtype=object) if isinstance(answer, list) else answer

    return call


@pytest.fixture(scope="module")
def engine() -> Any:
    table = formulas.get_functions()
    saved = {name: table.get(name) for name in xl.FUNCTIONS}
    for name, function in xl.FUNCTIONS.items():
        table[name] = _registered(function)
    yield formulas
    for name, previous in saved.items():
        if previous is None:
            table.pop(name, None)
        else:
            table[name] = previous


def _build(path: Path) -> None:
    book = openpyxl.Workbook()
    card = book.active
    card.title = "Card"
    card["A1"], card["B1"] = "Own grade", 142
    card["A2"], card["B2"] = "Horizon", 40
    card.append([])
    card.append(["Game", "Result", "Opponent", "Points (spill)", "Points (per cell)"])
    first, last = 5, 5 + len(YCA_CARD) + 1  # the card, a default and an empty row
    for game, (result, opponent) in enumerate(YCA_CARD, start=1):
        card.append([game, result, opponent])
    card.append([18, "1-0 def", 120])
    card.append([19, None, None])
    card[f"D{first}"] = ArrayFormula(
        f"D{first}:D{last}", f"=GRADE_POINTS($B$1,C{first}:C{last},B{first}:B{last},$B$2)"
    )
    for row in range(first, last + 1):
        card[f"E{row}"] = f"=GRADE_POINTS($B$1,C{row},B{row})"
    card["G1"] = f"=SUM(D{first}:D{last})"
    card["G2"] = f"=SEASON_GRADE(G1,COUNT(D{first}:D{last}))"
    card["G3"] = f"=SEASON_GRADE(G1,COUNT(D{first}:D{last}),2754,19,3300,24)"
    card["G4"] = f"=GRADE_CATEGORY(COUNT(D{first}:D{last}),19,24)"
    card["G5"] = f"=PERFORMANCE_GRADE(C{first}:C{last},B{first}:B{last})"
    card["G6"] = f"=GRADE_POINTS($B$1,C{first + 9},B{first + 9},$H$1)"  # H1 blank: 40

    players = book.create_sheet("List")
    players.append(["Points", "Games", "Prev points", "Prev games", "Earlier points",
                    "Earlier games", "Age", "Code"])  # fmt: skip
    codes = ["210988J", "210988K", None, "123456A"]
    ages = [10, 15, None, 40]
    for row, age, code in zip(LEAFLET, ages, codes, strict=True):
        players.append([*row, age, code])
    n = 1 + len(LEAFLET)
    spills = {
        "I": "=SEASON_GRADE(A2:A{n},B2:B{n},C2:C{n},D2:D{n},E2:E{n},F2:F{n})",
        "J": "=GRADE_CATEGORY(B2:B{n},D2:D{n},F2:F{n})",
        "K": '=ECF_TO_ELO(I2:I{n},"national")',
        "L": '=RATING_CLASS(I2:I{n},"ecf")',
        "M": "=JUNIOR_ENHANCEMENT(G2:G{n})",
        "N": "=ECF_CODE_VALID(H2:H{n})",
        "O": "=I2:I{n}+M2:M{n}",
    }
    for column, formula in spills.items():
        players[f"{column}2"] = ArrayFormula(f"{column}2:{column}{n}", formula.format(n=n))

    rated = book.create_sheet("Elo")
    rated.append(["Rating", 1778, "K", 45])
    for rating, result in CHESTERFIELD:
        rated.append([None, rating, result])
    rated["D2"] = ArrayFormula("D2:D7", "=ELO_EXPECTED($B$1,B2:B7)")
    rated["F1"] = "=ELO_NEW_RATING(B1,B2:B7,C2:C7,D1)"
    rated["F2"] = "=ELO_CHANGE(B1,B2:B7,C2:C7,D1)"
    rated["F3"] = "=ELO_PERFORMANCE(B2:B7,C2:C7)"
    rated["F4"] = '=ELO_INITIAL(B2:B7,C2:C7,"chesterfield")'
    rated["F5"] = '=ELO_K(B1,150,15,"chesterfield")'
    rated["F6"] = "=ELO_DP(0.7)"
    rated["F7"] = "=FIDE_TO_USCF(B1)"
    rated["F8"] = '=ECF_CODE_LETTER("210988")'
    rated["F9"] = "=GRADE_EXPECTED(150,130)"
    rated["F10"] = ArrayFormula(
        "F10:G10", "=GLICKO(1500,200,{1400;1550;1700},{30;100;300},{1;0;0})"
    )
    rated["F11"] = ArrayFormula(
        "F11:H11", "=GLICKO2(1500,200,0.06,{1400;1550;1700},{30;100;300},{1;0;0})"
    )
    book.save(path)


@pytest.fixture(scope="module")
def values(engine: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("formulas") / "season.xlsx"
    _build(path)
    solution = engine.ExcelModel().loads(str(path)).finish().calculate()
    prefix = f"'[{path.name}]"
    out: dict[str, Any] = {}
    for key, ranges in solution.items():
        if not key.startswith(prefix):
            continue
        sheet, _, ref = key[len(prefix) :].partition("'!")
        out[f"{sheet.upper()}!{ref}"] = [[_cell(v) for v in row] for row in ranges.value.tolist()]
    return out


def test_points_column_spills_as_the_engine_computes(values: dict[str, Any]) -> None:
    expected = [ecf.game_points(142, _grade(o), SCORE[r]).points for r, o in YCA_CARD]
    got = values["CARD!D5:D23"]
    assert got == [[p] for p in expected] + [["not graded: won by default"], [""]]
    assert sum(expected) == 2405  # YCA: "Total points gained = 2405"


def test_one_formula_per_row_gives_the_same(values: dict[str, Any]) -> None:
    per_cell = [values[f"CARD!E{row}"][0][0] for row in range(5, 24)]
    assert per_cell == [row[0] for row in values["CARD!D5:D23"]]


def test_formulas_around_the_points(values: dict[str, Any]) -> None:
    assert values["CARD!G1"] == [[2405.0]]
    assert values["CARD!G2"] == [[ecf.season_grade(2405, 17).grade]] == [[141]]
    borrowed = ecf.season_grade(2405, 17, [EarlierSeason(19, 2754), EarlierSeason(24, 3300)])
    assert values["CARD!G3"] == [[borrowed.grade]] == [[143]]
    assert values["CARD!G4"] == [[ecf.category(17, 19, 24)]] == [["C"]]
    games = [(_grade(o), SCORE[r]) for r, o in YCA_CARD]
    performance = ecf.performance_grade([g for g, _ in games], [s for _, s in games])
    assert values["CARD!G5"] == [[ecf.round_half_up(performance)]]


def test_a_blank_horizon_cell(values: dict[str, Any]) -> None:
    # Game 10: 142 beats 100; a blank horizon cell is the Settings sheet's default 40, so 100
    # counts as 142 − 40 = 102 and the win is 152, as on the card.
    assert values["CARD!G6"] == [[ecf.game_points(142, 100, 1.0, horizon=40).points]]
    assert values["CARD!G6"] == [[152.0]]


def test_players_columns_spill(values: dict[str, Any]) -> None:
    grades = [
        ecf.season_grade(
            p, g, [EarlierSeason(pg, pp) if pg else None, EarlierSeason(eg, ep) if eg else None]
        ).grade
        for p, g, pp, pg, ep, eg in LEAFLET
    ]
    assert grades == [100, 120, 140, 90]  # the 1997 leaflet's table
    assert values["LIST!I2:I5"] == [[g] for g in grades]
    categories = [ecf.category(g, pg or 0, eg or 0) for _, g, _, pg, _, eg in LEAFLET]
    assert values["LIST!J2:J5"] == [[c] for c in categories] == [["A"], ["B"], ["C"], ["D"]]
    assert values["LIST!K2:K5"] == [[convert.ecf_to_elo(g, "national")] for g in grades]
    assert values["LIST!L2:L5"] == [[convert.rating_class(g, "ecf").name] for g in grades]
    assert values["LIST!M2:M5"] == [[10], [6], [0], [0]]
    assert values["LIST!N2:N5"] == [[True], [False], [""], [convert.ecf_code_valid("123456A")]]
    # Excel's own + over two spilled columns: grade plus junior enhancement.
    assert values["LIST!O2:O5"] == [[110.0], [126.0], [140.0], [90.0]]


def test_elo_sheet(values: dict[str, Any]) -> None:
    opponents = [r for r, _ in CHESTERFIELD]
    scores = [SCORE[s] for _, s in CHESTERFIELD]
    assert values["ELO!D2:D7"] == [[elo.expected_score(1778, o)] for o in opponents]
    assert values["ELO!F1"] == [[elo.new_rating(1778, opponents, scores, 45)]] == [[1818]]
    assert values["ELO!F2"] == [[elo.rating_change(1778, opponents, scores, 45)]]
    assert values["ELO!F3"] == [[elo.performance_rating(opponents, scores)]]
    initial = elo.initial_rating(opponents, scores, "chesterfield").rating
    assert values["ELO!F4"] == [[initial]]
    k = elo.k_factor("chesterfield", games=150, rating=1778, junior=True)
    assert values["ELO!F5"] == [[k]] == [[45]]
    assert values["ELO!F6"] == [[elo.dp_from_score(0.7)]] == [[149]]
    assert values["ELO!F7"] == [[convert.fide_to_uscf(1778)]]
    assert values["ELO!F8"] == [["J"]]
    assert values["ELO!F9"] == [[ecf.expected_score(150, 130)]] == [[0.7]]


def test_glicko_rows(values: dict[str, Any]) -> None:
    opponents = [glicko.GlickoRating(1400, 30), glicko.GlickoRating(1550, 100),
                 glicko.GlickoRating(1700, 300)]  # fmt: skip
    one = glicko.glicko_update(glicko.GlickoRating(1500, 200), opponents, [1, 0, 0])
    assert values["ELO!F10:G10"] == [[one.rating, one.rd]]
    two = glicko.glicko2_update(
        glicko.Glicko2Rating(1500, 200, 0.06),
        [glicko.Glicko2Rating(o.rating, o.rd) for o in opponents],
        [1, 0, 0],
    )
    assert values["ELO!F11:H11"] == [[two.rating, two.rd, two.volatility]]
    assert round(two.rating, 2) == 1464.05  # Glickman's example, exact arithmetic


def _grade(opponent: object) -> float:
    return 136.0 if opponent == "[136]" else float(opponent)  # type: ignore[arg-type]
