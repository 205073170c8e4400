"""The season in the ECF rating (2020 rules): rated month by month over the season's months
(docs/rules.md §12). Every figure is worked by hand in the test from FIDE table 8.1b
(expected scores), table 8.1a (the P method's dp) and the ECF's statements, never taken from
the code's output."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import numpy as np
import pytest

from xlgrade.errors import SettingError
from xlgrade.model import Game, Player
from xlgrade.season import RAPID, STANDARD, recalculate
from xlgrade.season.rating_card import render_rating_card
from xlgrade.settings import GRADING_1997, RATING_2020, Settings, by_name, read_cell

RATED = Settings(
    season_name="2025-26",
    season_start=dt.date(2025, 9, 1),
    season_end=dt.date(2026, 8, 31),
    system=RATING_2020,
)
SEP, OCT = dt.date(2025, 9, 10), dt.date(2025, 10, 2)


def _games(*rows: tuple[str, str, str, dt.date | None]) -> list[Game]:
    return [
        Game(home, away, result, day, row=number)
        for number, (home, result, away, day) in enumerate(rows, start=2)
    ]


def _row(table: object, name: str) -> dict[str, object]:
    headers = table.headers  # type: ignore[attr-defined]
    found = [dict(zip(headers, r, strict=True)) for r in table.rows if r[1] == name]  # type: ignore[attr-defined]
    assert len(found) == 1, name
    return found[0]


PLAYERS = [
    Player("Able, Ann", rating=1600, row=2),
    Player("Best, Bob", rating=1600, row=3),
    Player("Cole, Cy", row=4),
]


def test_the_setting_is_one_row_of_the_table_read_in_any_case() -> None:
    spec = by_name("system")
    assert spec.label == "System"
    assert spec.choices == ("ECF grading (1997 rules)", "ECF rating (2020 rules)")
    assert Settings().system == GRADING_1997
    assert read_cell(spec, " ecf RATING (2020 rules) ") == RATING_2020
    assert read_cell(spec, None) == GRADING_1997
    with pytest.raises(SettingError, match="'Elo' is not one of"):
        read_cell(spec, "Elo")


def test_two_months_worked_by_hand() -> None:
    season = recalculate(
        PLAYERS,
        _games(
            ("Able, Ann", "1-0", "Best, Bob", SEP),
            ("Cole, Cy", "1-0", "Able, Ann", SEP),
            ("Cole, Cy", "½-½", "Best, Bob", SEP),
            ("Able, Ann", "1-0", "Cole, Cy", OCT),
        ),
        RATED,
    )
    # September. Cy is new (P method): opponents 1600 and 1600 and the fictional 1800,
    # Ra = 5000 / 3 = 1666.67; he scored 1 + ½ and the draw's ½: p = 2 / 3 = .67, table 8.1a
    # dp = +125: 1791.67 → 1792, partial.
    # Ann (K, k 20): v Bob (D 0) .50, v Cy at his "B" 1792 (D 192, 189–197) .25, Cy's game
    # counting in full (the newer help page): 20 × (1 − .50) + 20 × (0 − .25) = +5 → 1605.
    # Bob: 20 × (0 − .50) + 20 × (½ − .25) = −5 → 1595.
    # October. Cy still partial: his earlier games (opponents 3200, score 1½) and this one, a
    # loss to Ann at 1605: Ra = (3200 + 1605 + 1800) / 4 = 1651.25, p = (1½ + 0 + ½) / 4 = .50,
    # dp 0 → 1651. Ann v Cy at 1651 (D 46, 40–46): We .44, W 1: 20 × .56 = 11.2 → +11 → 1616.
    table = season.list_table()
    assert table.headers == (
        "Code", "Name", "Club", "Games", "Start rating", "Start category", "Rating",
        "Category", "Change", "Monthly path", "Last rated month",
    )  # fmt: skip
    assert [r[1] for r in table.rows] == ["Cole, Cy", "Able, Ann", "Best, Bob"]
    ann = _row(table, "Able, Ann")
    assert (ann["Games"], ann["Start rating"], ann["Rating"], ann["Change"]) == (3, 1600, 1616, 16)
    assert ann["Monthly path"] == "1600 → 1605 → 1616"
    assert (ann["Category"], ann["Last rated month"]) == ("K", "2025-10")
    bob = _row(table, "Best, Bob")
    assert (bob["Rating"], bob["Monthly path"], bob["Last rated month"]) == (
        1595, "1600 → 1595", "2025-09",
    )  # fmt: skip
    cy = _row(table, "Cole, Cy")
    assert (cy["Start rating"], cy["Start category"], cy["Rating"], cy["Category"]) == (
        None, None, 1651, "P",
    )  # fmt: skip
    assert cy["Monthly path"] == "1792 → 1651"
    assert season.accounting.summary() == ("4 result rows: 4 rated, 0 rapidplay, 0 not rated")


def test_only_the_games_of_a_month_count_in_it() -> None:
    # 30 September and 1 October are two months. September: 20 × (1 − .50) = +10 → 1610 and
    # 1590. October: 1610 v 1590, D 20 (18–25): .53 and .47: +20 × .47 = 9.4 → +9 → 1619,
    # −9 → 1581. (In one month it would be W 2, We 1.00: +20 → 1620.)
    season = recalculate(
        PLAYERS[:2],
        _games(
            ("Able, Ann", "1-0", "Best, Bob", dt.date(2025, 9, 30)),
            ("Able, Ann", "1-0", "Best, Bob", dt.date(2025, 10, 1)),
        ),
        RATED,
    )
    table = season.list_table()
    assert _row(table, "Able, Ann")["Monthly path"] == "1600 → 1610 → 1619"
    assert _row(table, "Best, Bob")["Monthly path"] == "1600 → 1590 → 1581"


def test_an_undated_row_is_excepted_with_its_one_reason_and_the_rows_balance() -> None:
    games = _games(
        ("Able, Ann", "1-0", "Best, Bob", SEP),
        ("Able, Ann", "1-0", "Best, Bob", None),
        ("Able, Ann", "1-0", "Nobody", None),
    )
    season = recalculate(PLAYERS, games, RATED)
    results = [(p.row, p.what) for p in season.problems if p.sheet == "Results"]
    assert results == [(3, "no date"), (4, "unknown player")]
    assert season.accounting.balanced
    assert season.accounting.by_reason == {"no date": 1, "unknown player": 1}
    # Graded by the 1997 rules an undated game is graded as it always was.
    graded = recalculate(PLAYERS, games, dataclasses.replace(RATED, system=GRADING_1997))
    assert "no date" not in [p.what for p in graded.problems]


def test_a_last_rated_month_in_the_season_or_after_it_is_reported_and_left_out() -> None:
    # Bob's "Last rated month" is January 2030, after the season's first month (September
    # 2025): reported on his Players row and read as blank, so he is on the current list (the
    # month before the season) at 1600, rated by the K method: 20 × (0 − .50) = −10 → 1590.
    players = [PLAYERS[0], dataclasses.replace(PLAYERS[1], last_rated_month=dt.date(2030, 1, 1))]
    season = recalculate(players, _games(("Able, Ann", "1-0", "Best, Bob", SEP)), RATED)
    assert [(p.sheet, p.row, p.what, p.why) for p in season.problems] == [
        ("Players", 3, "bad last rated month",
         "last rated month 2030-01 of 'Best, Bob' is not before the season's first month "
         "2025-09: left out"),
    ]  # fmt: skip
    bob = _row(season.list_table(), "Best, Bob")
    assert (bob["Start category"], bob["Rating"], bob["Last rated month"]) == ("K", 1590, "2025-09")
    # September 2025 itself is in the season: the same.
    players[1] = dataclasses.replace(PLAYERS[1], last_rated_month=dt.date(2025, 9, 1))
    season = recalculate(players, _games(("Able, Ann", "1-0", "Best, Bob", SEP)), RATED)
    assert [p.what for p in season.problems] == ["bad last rated month"]
    # August 2025, the month before, is as it should be.
    players[1] = dataclasses.replace(PLAYERS[1], last_rated_month=dt.date(2025, 8, 1))
    assert not recalculate(players, _games(("Able, Ann", "1-0", "Best, Bob", SEP)), RATED).problems


def test_a_category_without_its_rating_is_reported_and_left_out() -> None:
    # Cy has an ECF category K but no ECF rating, and a rapid category P with no rapid rating:
    # both reported, on his row's one Exceptions line; he is new on both lists. Standard:
    # (1600 + 1800) / 2 = 1700, p (1 + ½) / 2 = .75, table 8.1a dp +193 → 1893, partial (P).
    cy = dataclasses.replace(PLAYERS[2], rating_category="K", rapid_category="P")
    season = recalculate([PLAYERS[0], cy], _games(("Cole, Cy", "1-0", "Able, Ann", SEP)), RATED)
    assert [(p.row, p.what, p.why) for p in season.problems] == [
        (4, "category without a rating",
         "ECF category 'K' of 'Cole, Cy' has no ECF rating beside it: left out; also "
         "ECF rapid category 'P' of 'Cole, Cy' has no ECF rapid rating beside it: left out"),
    ]  # fmt: skip
    row = _row(season.list_table(), "Cole, Cy")
    assert (row["Start category"], row["Rating"], row["Category"]) == (None, 1893, "P")


def test_a_rated_seasons_duplicates_say_rated() -> None:
    # Both clubs entered Ann v Bob of 10 September alike, and Ann v Cy of 2 October with two
    # results: the first is rated once (20 × (1 − .50) = +10 → 1610), the second not at all.
    games = _games(
        ("Able, Ann", "1-0", "Best, Bob", SEP),
        ("Best, Bob", "0-1", "Able, Ann", SEP),
        ("Able, Ann", "1-0", "Cole, Cy", OCT),
        ("Cole, Cy", "1-0", "Able, Ann", OCT),
    )
    season = recalculate(PLAYERS, games, RATED)
    why = {p.row: p.why for p in season.problems if p.sheet == "Results"}
    assert why[3].endswith("): rated once")
    assert why[4].endswith("): not rated until corrected")
    assert why[5].endswith("): not rated until corrected")
    assert _row(season.list_table(), "Able, Ann")["Rating"] == 1610
    assert season.accounting.summary() == (
        "4 result rows: 1 rated, 0 rapidplay, 3 not rated (2 duplicate disagrees, 1 duplicate game)"
    )


def test_a_junior_has_k_40_and_a_new_junior_his_age_times_100_on_the_first_of_the_month() -> None:
    players = [
        Player("Young, Yan", rating=1600, date_of_birth=dt.date(2010, 1, 1), row=2),
        Player("Old, Olga", rating=1600, row=3),
        Player("New, Ned", date_of_birth=dt.date(2014, 9, 2), row=4),
        Player("Adult, Al", rating=1500, row=5),
    ]
    season = recalculate(
        players,
        _games(
            ("Young, Yan", "1-0", "Old, Olga", SEP),
            ("New, Ned", "1-0", "Adult, Al", SEP),
        ),
        RATED,
    )
    table = season.list_table()
    # Yan is 15, and his month is above expectation: k 40 × (1 − .50) = +20 → 1620; Olga k 20:
    # −10 → 1590.
    assert _row(table, "Young, Yan")["Rating"] == 1620
    assert _row(table, "Old, Olga")["Rating"] == 1590
    # Ned is 10 on 1 September 2025 (11 on the 2nd): nominal 1000. Ra = (1500 + 1000) / 2 =
    # 1250, p = (1 + ½) / 2 = .75, table 8.1a dp +193 → 1443.
    # Al v Ned at 1443 (D 57, 54–61): .58; W 0, the game in full: 20 × (−.58) = −11.6 → −12
    # → 1488.
    assert _row(table, "New, Ned")["Rating"] == 1443
    assert _row(table, "Adult, Al")["Rating"] == 1488


def test_rapid_is_a_list_of_its_own_with_a_nominal_100_less() -> None:
    players = [
        Player("Able, Ann", rating=1600, rapid_rating=1500, row=2),
        Player("Cole, Cy", rating=1700, row=3),
    ]
    games = [
        Game("Cole, Cy", "Able, Ann", "½-½", SEP, time_control="30 min", row=2),
    ]
    season = recalculate(players, games, RATED)
    assert season.accounting.summary() == "1 result rows: 0 rated, 1 rapidplay, 0 not rated"
    # Cy has no rapid rating: P method with a nominal of 1800 − 100 = 1700. Ra = (1500 + 1700)
    # / 2 = 1600, p = (½ + ½) / 2 = .50, dp 0 → 1600. His standard 1700 is not used.
    # Ann (rapid 1500) v 1600 (D 100, 98–106): .36; W ½: 20 × .14 = 2.8 → +3 → 1503.
    rapid = season.list_table(RAPID)
    assert _row(rapid, "Cole, Cy")["Rating"] == 1600
    assert _row(rapid, "Able, Ann")["Monthly path"] == "1500 → 1503"
    standard = season.list_table(STANDARD)
    assert _row(standard, "Able, Ann")["Rating"] == 1600
    assert _row(standard, "Able, Ann")["Games"] == 0


def test_a_returning_player_and_the_36_month_rule() -> None:
    players = [
        Player("Back, Ben", rating=1900, last_rated_month=dt.date(2022, 8, 1), row=2),
        Player("Able, Ann", rating=1600, row=3),
        Player("Gone, Gil", rating=1700, last_rated_month=dt.date(2021, 1, 1), row=4),
        Player("Kept, Kim", rating=1750, rating_category="A", row=5),
    ]
    season = recalculate(players, _games(("Back, Ben", "½-½", "Able, Ann", SEP)), RATED)
    table = season.list_table()
    # Ben's last rated game was August 2022, 37 months before September 2025: unrated, so a
    # new player whose nominal opponent is his last full rating, 1900 (higher than 1800):
    # Ra = (1600 + 1900) / 2 = 1750, p = .50, dp 0 → 1750, partial.
    ben = _row(table, "Back, Ben")
    assert (ben["Start category"], ben["Rating"], ben["Category"]) == (None, 1750, "P")
    # Gil (January 2021) did not play: unrated, not on the list. Kim, A on the list, stays A.
    assert "Gone, Gil" not in [r[1] for r in table.rows]
    kim = _row(table, "Kept, Kim")
    assert (kim["Games"], kim["Start category"], kim["Rating"]) == (0, "A", 1750)


def test_the_p_formula_and_the_partial_opponent_rule_are_settings() -> None:
    players = [Player("Able, Ann", rating=1600, row=2), Player("Cole, Cy", row=3)]
    games = _games(("Able, Ann", "1-0", "Cole, Cy", SEP))
    # Cy: Ra = (1600 + 1800) / 2 = 1700, p = (0 + ½) / 2 = .25; table 8.1a dp −193 → 1507,
    # partial. Ann v 1507 (D 93, 91–98): We .63; counted in full (the newer help page, the
    # default): 20 × .37 = 7.4 → +7 → 1607.
    table = recalculate(players, games, RATED).list_table()
    assert (_row(table, "Cole, Cy")["Rating"], _row(table, "Able, Ann")["Rating"]) == (1507, 1607)
    # Halved against a partial opponent (the older page, the setting): 10 × .37 = 3.7 → +4.
    half = dataclasses.replace(RATED, partial_opponent="half")
    assert _row(recalculate(players, games, half).list_table(), "Able, Ann")["Rating"] == 1604
    # The logistic formula: 400 · log10(.25 / .75) = −190.85 → 1509.15 → 1509; Ann v 1509
    # (D 91) still .63 → 1607.
    logistic = dataclasses.replace(RATED, p_method="logistic")
    season = recalculate(players, games, logistic)
    assert _row(season.list_table(), "Cole, Cy")["Rating"] == 1509
    month = season.rating_card(1).months[0]
    assert month.difference == pytest.approx(-190.85, abs=0.01)
    assert read_cell(by_name("p_method"), "Logistic") == "logistic"


def test_a_p_cards_sums_are_written_as_a_grader_writes_them() -> None:
    # Cy, new, plays Ann on ten days of September: 7 wins, 3 losses. With the fictional draw
    # n = 11: Ra = (10 × 1600 + 1800) / 11 = 17800 / 11 = 1618.18; p = (7 + ½) / 11 = .68,
    # table 8.1a dp +133: 1751.18 → 1751, on 10 games a full rating (category K).
    results = ["0-1"] * 7 + ["1-0"] * 3
    days = [dt.date(2025, 9, day) for day in range(1, 11)]
    games = _games(
        *(("Able, Ann", r, "Cole, Cy", day) for r, day in zip(results, days, strict=True))
    )
    season = recalculate([PLAYERS[0], PLAYERS[2]], games, RATED)
    card = render_rating_card(season.rating_card(1))
    assert "Ra = (16000 + 1800) / 11 = 1618.18; p = (7 + ½) / 11 = 0.68; dp = +133" in card
    assert "Ra + dp = 1751 (full; pass A 1751), category K" in card


# The controls leagues play, rated by the ECF's 2020 acceptance rules (docs/rules.md §11b):
# 75+10, 90+15, G/60, 60+10 and 45+15 are standard play; G/15 and 30+0 rapidplay; 5+3 (8
# minutes over 60 moves) is under rapidplay's 10 minutes: not rated. The same in a book, a
# folder, and from an ECF results file imported as its control is written.
LEAGUE_PLAYERS = [
    Player("Able, Ann", "123456A", rating=1600, rapid_rating=1500, row=2),
    Player("Best, Bob", "234567F", rating=1600, rapid_rating=1500, row=3),
]
LEAGUE_GAMES = [
    Game("123456A", "234567F", result, dt.date(2025, 9, day), "Division 1",
         time_control=control, row=row)
    for row, (control, result, day) in enumerate(
        [("75+10", "1-0", 2), ("90+15", "1-0", 9), ("G/60", "1-0", 16), ("60+10", "½-½", 23),
         ("45+15", "½-½", 30), ("G/15", "1-0", 3), ("30+0", "½-½", 10), ("5+3", "1-0", 17)],
        start=2,
    )
]  # fmt: skip


def _league_expected(season: object) -> None:
    # Standard, September: Ann v Bob (both 1600) five times, We .50 each: W 3 + ½ + ½ = 4,
    # We 2.5: 20 × 1.5 = +30 → 1630; Bob −30 → 1570. Rapid: twice, W 1 + ½ = 1.5, We 1.0:
    # 20 × .5 = +10 → 1510; Bob 1490.
    standard = season.list_table(STANDARD)  # type: ignore[attr-defined]
    rapid = season.list_table(RAPID)  # type: ignore[attr-defined]
    assert [(_row(standard, n)["Games"], _row(standard, n)["Rating"]) for n in
            ("Able, Ann", "Best, Bob")] == [(5, 1630), (5, 1570)]  # fmt: skip
    assert [(_row(rapid, n)["Games"], _row(rapid, n)["Rating"]) for n in
            ("Able, Ann", "Best, Bob")] == [(2, 1510), (2, 1490)]  # fmt: skip
    assert season.accounting.summary() == (  # type: ignore[attr-defined]
        "8 result rows: 5 rated, 2 rapidplay, 1 not rated (1 time control not rated)"
    )
    [problem] = season.problems  # type: ignore[attr-defined]
    assert (problem.row, problem.what, problem.why) == (
        9, "time control not rated",
        "'5+3': 8 minutes each for all moves (60 moves assumed) is under the rapidplay minimum "
        "of 10 minutes: not rated (ECF rules for acceptance of games for rating, September "
        "2020)",
    )  # fmt: skip


def test_the_controls_leagues_play_are_rated_as_the_ecf_rates_them() -> None:
    _league_expected(recalculate(LEAGUE_PLAYERS, LEAGUE_GAMES, RATED))
    # Graded by the 1997 rules the five standard controls fail rule D or C (docs/rules.md
    # §11): 10 and 15 seconds a move are under 30; 45 minutes is under 60; all moves in 60
    # minutes is under 75. G/15 and 30+0 are rapidplay; 5+3 is lightning.
    graded = recalculate(
        LEAGUE_PLAYERS, LEAGUE_GAMES, dataclasses.replace(RATED, system=GRADING_1997)
    )
    assert graded.accounting.by_reason["time control not gradable"] == 6
    assert graded.accounting.standard_graded == 0


def test_a_book_and_a_folder_rate_the_controls_as_typed(tmp_path: Path) -> None:
    from xlgrade.formats.csvfile import write_players_csv, write_results_csv
    from xlgrade.formats.folder import read_folder_cells, write_settings
    from xlgrade.workbook import layout
    from xlgrade.workbook.build import build_workbook
    from xlgrade.workbook.package import read_sheets
    from xlgrade.workbook.read import grade_inputs, read_inputs

    book = tmp_path / "league.xlsm"
    book.write_bytes(build_workbook(LEAGUE_PLAYERS, LEAGUE_GAMES, RATED))
    _league_expected(grade_inputs(read_inputs(read_sheets(book, layout.INPUT_SHEETS))))
    folder = tmp_path / "league"
    write_settings(folder, RATED)
    (folder / "players.csv").write_text(write_players_csv(LEAGUE_PLAYERS), encoding="utf-8")
    (folder / "results.csv").write_text(write_results_csv(LEAGUE_GAMES), encoding="utf-8")
    _league_expected(grade_inputs(read_inputs(read_folder_cells(folder))))


def _ecf_file(minutes: int, seconds: int | None, games: str) -> str:
    increment = f"#SECONDS PER MOVE={seconds}\n" if seconds else ""
    return (
        "#EVENT DETAILS\n#EVENT CODE=ABC123\n#SUBMISSION INDEX=1\n#EVENT NAME=Anytown League\n"
        "#EVENT DATE=01/09/2025\n#FINAL RESULT DATE=30/09/2025\n#RESULTS OFFICER=A Grader\n"
        "#RESULTS OFFICER ADDRESS=1 High St\n#TREASURER=T Reasurer\n#TREASURER ADDRESS=2 Low St\n"
        f"#MINUTES FOR GAME={minutes}\n{increment}"
        "#PLAYER LIST\n#PIN=1#ECF CODE=123456A#NAME=Able, Ann\n"
        "#PIN=2#ECF CODE=234567F#NAME=Best, Bob\n"
        f"#OTHER RESULTS=Anytown League\n{games}#FINISH#\n"
    )


def test_an_ecf_results_file_keeps_its_control_and_the_season_rates_it(tmp_path: Path) -> None:
    from xlgrade.cli import main
    from xlgrade.formats.csvfile import read_csv, write_players_csv
    from xlgrade.formats.folder import read_folder_cells, write_settings
    from xlgrade.workbook.read import grade_inputs, read_inputs

    folder = tmp_path / "league"
    write_settings(folder, RATED)
    (folder / "players.csv").write_text(write_players_csv(LEAGUE_PLAYERS), encoding="utf-8")
    # 75 minutes and 10 seconds a move: two wins for Ann; all moves in 15 minutes: one.
    standard = tmp_path / "standard.txt"
    standard.write_text(_ecf_file(75, 10, "#PIN1=1#SCORE=10#PIN2=2#GAME DATE=02/09/2025\n"
                                          "#PIN1=2#SCORE=01#PIN2=1#GAME DATE=09/09/2025\n"),
                        encoding="utf-8")  # fmt: skip
    rapid = tmp_path / "rapid.txt"
    rapid.write_text(
        _ecf_file(15, None, "#PIN1=1#SCORE=10#PIN2=2#GAME DATE=03/09/2025\n"), encoding="utf-8"
    )
    for path in (standard, rapid):
        assert main(["import", str(path), "--into", str(folder)]) == 0
    games = read_csv((folder / "results.csv").read_text(encoding="utf-8")).games
    assert sorted(g.time_control for g in games) == ["15", "75+10", "75+10"]
    season = grade_inputs(read_inputs(read_folder_cells(folder)))
    # Standard: W 2, We 1.0 (1600 v 1600 twice): 20 × 1 = +20 → 1620, Bob 1580. Rapid (both
    # 1500): W 1, We .50: +10 → 1510, Bob 1490.
    assert _row(season.list_table(STANDARD), "Able, Ann")["Rating"] == 1620
    assert _row(season.list_table(STANDARD), "Best, Bob")["Rating"] == 1580
    assert _row(season.list_table(RAPID), "Able, Ann")["Rating"] == 1510
    assert season.accounting.summary() == "3 result rows: 2 rated, 1 rapidplay, 0 not rated"


def test_a_list_of_a_few_players_is_rated_over_them_and_shown_for_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Ten players; two play one rapid game, and one more has a rapid rating: the rapid list is
    # rated over those three alone and widened to the table. Ann (rapid 1500) beats Cy (none:
    # nominal 1700): Cy Ra = (1500 + 1700) / 2 = 1600, p = (0 + ½) / 2 = .25, dp −193 → 1407;
    # Ann v 1407 (D 93, 91–98) .63, the game in full (Partial opponents, full): 20 × .37 =
    # 7.4 → +7 → 1507. Dot's 1650 stays, category K.
    from xlgrade.season import rating

    players = [
        Player("Able, Ann", rating=1600, rapid_rating=1500, row=2),
        Player("Cole, Cy", row=3),
        Player("Dean, Dot", rapid_rating=1650, row=4),
        *(Player(f"Else, E{i}", rating=1600, row=5 + i) for i in range(7)),
    ]
    games = [
        Game("Able, Ann", "Cole, Cy", "1-0", SEP, time_control="30", row=2),
        Game("Else, E0", "Else, E1", "1-0", OCT, time_control="75+10", row=3),
    ]
    season = recalculate(players, games, RATED)
    assert season.rated[RAPID].taken is not None
    rapid = season.list_table(RAPID)
    assert (_row(rapid, "Able, Ann")["Rating"], _row(rapid, "Cole, Cy")["Rating"]) == (1507, 1407)
    assert (_row(rapid, "Dean, Dot")["Rating"], _row(rapid, "Dean, Dot")["Category"]) == (1650, "K")
    # The same list rated over the whole table has every figure of every month alike.
    monkeypatch.setattr(rating, "_SUBSET_SHARE", -1.0)
    whole = recalculate(players, games, RATED)
    assert whole.rated[RAPID].taken is None

    def same(a: object, b: object) -> bool:
        x, y = np.asarray(a), np.asarray(b)
        return np.array_equal(x, y, equal_nan=x.dtype.kind == "f")

    for part, full in zip(season.rated[RAPID].results, whole.rated[RAPID].results, strict=True):
        for field in dataclasses.fields(part):
            a, b = getattr(part, field.name), getattr(full, field.name)
            if field.name != "state":
                assert same(a, b), field.name
                continue
            for f in dataclasses.fields(a):
                x, y = getattr(a, f.name), getattr(b, f.name)
                pairs = zip(x, y, strict=True) if f.name == "recent" else [(x, y)]
                assert all(same(p, q) for p, q in pairs), f.name
    assert rapid == whole.list_table(RAPID)
    assert render_rating_card(season.rating_card(0, RAPID)) == render_rating_card(
        whole.rating_card(0, RAPID)
    )


def test_a_player_marked_junior_without_a_birth_date_has_k_40_and_the_adults_nominal() -> None:
    # SEASON_DECISIONS["junior-no-birth-date"]. Kay (1600, junior, no birth date) beats Olga
    # (1600): k 40 × (1 − .50) = +20 → 1620; Olga k 20: −10 → 1590. Ned, new and marked junior
    # with no birth date, draws Al (1500): nominal 1800, the adult's: Ra = (1500 + 1800) / 2 =
    # 1650, p = (½ + ½) / 2 = .50, dp 0 → 1650.
    players = [
        Player("Kid, Kay", rating=1600, junior=True, row=2),
        Player("Old, Olga", rating=1600, row=3),
        Player("New, Ned", junior=True, row=4),
        Player("Adult, Al", rating=1500, row=5),
    ]
    games = _games(("Kid, Kay", "1-0", "Old, Olga", SEP), ("New, Ned", "½-½", "Adult, Al", SEP))
    table = recalculate(players, games, RATED).list_table()
    assert [_row(table, n)["Rating"] for n in ("Kid, Kay", "Old, Olga", "New, Ned")] == [
        1620, 1590, 1650,
    ]  # fmt: skip


def test_a_juniors_card_says_why_his_k_is_20_or_40_in_a_month() -> None:
    # Junior k "performance": Yan (15, 1600) loses to Olga (1600) in September: W 0, We .50,
    # below expectation, so k 20: 20 × (0 − .50) = −10 → 1590; Olga +10 → 1610. In October he
    # beats her: D 20 (18–25) gives him .47, above expectation, so k 40: 40 × .53 = 21.2 → +21
    # → 1611. With "always" he has k 40 both months and the card gives no reason.
    players = [
        Player("Young, Yan", rating=1600, date_of_birth=dt.date(2010, 1, 1), row=2),
        Player("Old, Olga", rating=1600, row=3),
    ]
    games = _games(("Old, Olga", "1-0", "Young, Yan", SEP), ("Young, Yan", "1-0", "Old, Olga", OCT))
    season = recalculate(players, games, RATED)
    card = render_rating_card(season.rating_card(0))
    assert "2025-09: K method, from 1600, k 20 (junior, below expectation)\n" in card
    assert "2025-10: K method, from 1590, k 40 (junior, above expectation)\n" in card
    assert "  1590 +21 = 1611, category K" in card
    olga = render_rating_card(season.rating_card(1))
    assert "2025-09: K method, from 1600, k 20\n" in olga
    always = recalculate(players, games, dataclasses.replace(RATED, junior_k="always"))
    card = render_rating_card(always.rating_card(0))
    assert "2025-09: K method, from 1600, k 40\n" in card
    assert "(junior" not in card


def test_a_junior_at_expectation_has_k_20_and_his_card_says_so() -> None:
    # Yan (15, 1600) draws Olga (1600): W ½ = We .50, not above expectation: k 20, change 0.
    players = [
        Player("Young, Yan", rating=1600, date_of_birth=dt.date(2010, 1, 1), row=2),
        Player("Old, Olga", rating=1600, row=3),
    ]
    season = recalculate(players, _games(("Young, Yan", "½-½", "Old, Olga", SEP)), RATED)
    card = render_rating_card(season.rating_card(0))
    assert "2025-09: K method, from 1600, k 20 (junior, at expectation)\n" in card


def _jarvis(**settings: object) -> tuple[float, str, int]:
    """Jarvis (P 1631 on the list) beats a 2008 player once, in September: his rating and
    category after it and the games his P rating is on."""
    record: dict[str, float] = settings.pop("p", {})  # type: ignore[assignment]
    players = [
        Player("Jarvis, Jo", rating=1631, rating_category="P", row=2, **record),  # type: ignore[arg-type]
        Player("Strong, Sam", rating=2008, row=3),
    ]
    season = recalculate(
        players, _games(("Jarvis, Jo", "1-0", "Strong, Sam", SEP)),
        dataclasses.replace(RATED, **settings),
    )  # fmt: skip
    row = _row(season.list_table(), "Jarvis, Jo")
    month = season.rated[STANDARD].results[0]
    return row["Rating"], row["Category"], int(month.p_games[0])  # type: ignore[return-value]


def test_a_p_players_earlier_games_count_in_his_p_rating() -> None:
    # docs/rules.md §12: the P method is "a performance over all rated games", with a fictional
    # draw against 1800. Jarvis's earlier games, the list's 1631 standing for their opponents
    # and half of them his score, and this month's win over 2008:
    # 5 earlier (the setting P games not given): Ra = (5 × 1631 + 2008 + 1800) / 7 = 11963 / 7
    #   = 1709.0, p = (2½ + 1 + ½) / 7 = .571 → .57, dp +50 (table 8.1a) → 1759, partial on 6;
    # 3 earlier: Ra = (4893 + 2008 + 1800) / 5 = 1740.2, p = 3 / 5 = .60, dp +72 → 1812;
    # 9 earlier: Ra = (14679 + 3808) / 11 = 1680.64, p = 6 / 11 = .545 → .55, dp +36 → 1717,
    #   now on 10 games: a full rating, category K;
    # none (the season's games alone): Ra = (2008 + 1800) / 2 = 1904, p = .75, dp +193 → 2097.
    assert _jarvis() == (1759, "P", 6)
    assert _jarvis(p={"p_games": 5}) == (1759, "P", 6)
    assert _jarvis(p_games_not_given=3) == (1812, "P", 4)
    assert _jarvis(p={"p_games": 9}) == (1717, "K", 10)
    assert _jarvis(p_games_not_given=0) == (2097, "P", 1)
    # His own record where known: 4 games scoring 3 against opponents averaging 1500:
    # Ra = (6000 + 2008 + 1800) / 6 = 1634.67, p = (3 + 1 + ½) / 6 = .75, dp +193 → 1828.
    assert _jarvis(p={"p_games": 4, "p_score": 3, "p_opposition": 1500}) == (1828, "P", 5)


def test_a_p_record_that_cannot_be_is_reported_and_read_as_blank() -> None:
    players = [
        Player("Jarvis, Jo", rating=1631, rating_category="P", p_games=12, row=2),
        Player("Strong, Sam", rating=2008, rating_category="K", p_games=3, row=3),
        Player("Third, Tom", rating=1500, rating_category="P", p_games=2, p_score=2.5, row=4),
    ]
    season = recalculate(players, [], RATED)
    assert [(p.row, p.what, p.why) for p in season.problems] == [
        (2, "bad P record", "ECF P games 12: a P rating is on fewer than 10 games of "
         "'Jarvis, Jo': left out"),
        (3, "bad P record", "ECF P record beside a rating that is not category P of "
         "'Strong, Sam': left out"),
        (4, "bad P record", "ECF P score 2.5 in 2 games of 'Third, Tom': left out"),
    ]  # fmt: skip


def test_a_p_record_carries_on_into_the_next_season_and_to_a_full_rating() -> None:
    # Season 1: Pat, new, plays five 1600s in September 2025 and scores 2½ (two wins, a draw,
    # two losses): Ra = (8000 + 1800) / 6 = 1633.33, p = (2½ + ½) / 6 = .50, dp 0 → 1633, P
    # on 5 games. Next season his Players row carries them: 5 games, score 2½, opposition 1600.
    ones = [Player(f"One {i}", rating=1600, row=3 + i) for i in range(5)]
    results = ("1-0", "1-0", "½-½", "0-1", "0-1")
    first = recalculate(
        [Player("Pat", row=2), *ones],
        _games(*(("Pat", r, f"One {i}", SEP) for i, r in enumerate(results))),
        RATED,
    )
    nxt, settings = first.next_season()
    pat = nxt[0]
    assert (pat.rating, pat.rating_category) == (1633, "P")
    assert (pat.p_games, pat.p_score, pat.p_opposition) == (5, 2.5, 1600.0)
    assert nxt[1].p_games is None  # a full rating carries none
    # Season 2: five 1700s in September 2026, 2½ again. On all ten games and the draw:
    # Ra = (8000 + 8500 + 1800) / 11 = 1663.64, p = (5 + ½) / 11 = .50, dp 0 → 1664, a full
    # rating on 10 games: category K. (This season's games alone would give
    # (8500 + 1800) / 6 = 1716.67 → 1717, still P.)
    sevens = [Player(f"Seven {i}", rating=1700, row=8 + i) for i in range(5)]
    day = dt.date(2026, 9, 10)
    second = recalculate(
        [*nxt, *sevens],
        _games(*(("Pat", r, f"Seven {i}", day) for i, r in enumerate(results))),
        settings,
    )
    row = _row(second.list_table(), "Pat")
    assert (row["Rating"], row["Category"]) == (1664, "K")
    card = render_rating_card(second.rating_card(second.player_index("Pat")))
    assert (
        "Start of the season: 1633, category P, on 5 earlier games (opposition 1600, score 2½)\n"
    ) in card
    assert "  10 games, 5 of them before this month (opponents 8000, score 2½)" in card


def test_category_a_follows_the_results_of_the_last_12_months() -> None:
    # The ECF's rating categories: "Category A — A player who has 30 or more rated results in
    # the previous 12 calendar months". ECF results in 12 months is spread over the 12 months
    # before the season, the odd ones in the latest: Ann's 36 are 3 a month; Bob's 28 are 2 a
    # month and 3 in the latest four. Carl is A with the count blank: 30 in August 2025.
    players = [
        Player("Ann", rating=1600, rating_category="A", results_12_months=36, row=2),
        Player("Bob", rating=1600, rating_category="K", results_12_months=28, row=3),
        Player("Carl", rating=1600, rating_category="A", row=4),
    ]
    season = recalculate(
        players, _games(*(("Bob", "½-½", "Carl", dt.date(2025, 9, d)) for d in (1, 8, 15, 22))),
        RATED,
    )  # fmt: skip
    months = season.rated[STANDARD].results
    # After September: Ann 36 − 3 (September 2024 leaves) = 33, A; Bob 28 − 2 + 4 = 30, A;
    # Carl 30 + 4 = 34, A. After October: Ann 30, A. After November: Ann 27, K.
    assert months[0].category.tolist() == ["A", "A", "A"]
    assert [str(m.category[0]) for m in months[:3]] == ["A", "A", "K"]
    # October: Bob's 30 less October 2024's 2 = 28, K.
    assert str(months[1].category[1]) == "K"
    # After the season the 12 months are the season's own: September's 4 games for Bob and
    # Carl, none for Ann; new-season carries the counts on.
    nxt, _ = season.next_season()
    assert [(p.rating_category, p.results_12_months) for p in nxt] == [
        ("K", None), ("K", 4), ("K", 4),
    ]  # fmt: skip
