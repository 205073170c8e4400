"""Starting next season from this one: the engine's hand-over, ``xlgrade new-season`` and the
ribbon's New season button."""

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from tests.functions.test_recalculate import FakeBook
from xlgrade.cli import main
from xlgrade.ecf import season_grade
from xlgrade.model import DatedPoints, EarlierSeason, Game, Player
from xlgrade.season import recalculate
from xlgrade.settings import Settings
from xlgrade.workbook import build, layout, live, package

DAY = dt.date(2025, 10, 1)
PLAYERS = [
    Player("Smith, John", code="210988J", grade=118.0, previous=EarlierSeason(20, 2400), row=2),
    Player("Jones, Alan", grade=100.0, row=3),
    Player("New, Nick", row=4),
    Player("Idle, Ivy", grade=90.0, previous=EarlierSeason(5, 450), row=5),
]
# Smith beats Jones ten times (150 a game); Nick draws Jones twice (working grade 100).
GAMES = [Game("210988J", "Jones, Alan", "1-0", DAY + dt.timedelta(days=d)) for d in range(10)] + [
    Game("New, Nick", "Jones, Alan", "½-½", DAY + dt.timedelta(days=20 + d)) for d in range(2)
]


def test_the_next_season_carries_grades_and_history_on() -> None:
    season = recalculate(PLAYERS, GAMES, Settings(season_name="2025-26"))
    players, settings = season.next_season()
    smith, jones, nick, ivy = players
    # Smith: 10 games at 150 + 20 borrowed at 120 → (1500 + 2400) / 30 = 130, category B.
    assert (smith.grade, smith.previous, smith.earlier) == (
        130.0, EarlierSeason(10, 1500.0), EarlierSeason(20, 2400)
    )  # fmt: skip
    # Jones: 12 games, (10 × 68 + 2 × 100) / 12 = 73.3 → 73, category D.
    assert jones.grade == 73.0
    # Nick: 2 games, category * — not on the published list: his grade becomes an estimate.
    assert (nick.grade, nick.estimated_grade, nick.previous) == (
        None, 100.0, EarlierSeason(2, 200.0)
    )  # fmt: skip
    # Ivy played no game: she keeps her grade; an empty season moves her history back.
    assert (ivy.grade, ivy.previous, ivy.earlier) == (
        90.0,
        EarlierSeason(0, 0.0),
        EarlierSeason(5, 450),
    )
    assert (settings.season_name, settings.season_start, settings.season_end) == (
        "2026-27", dt.date(2026, 6, 1), dt.date(2027, 5, 31)
    )  # fmt: skip


def test_the_new_season_command_writes_a_book_to_type_into(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "2025-26.xlsm"
    book.write_bytes(build.build_workbook(PLAYERS, GAMES, Settings(season_name="2025-26")))
    out = tmp_path / "2026-27.xlsm"
    assert main(["new-season", str(book), str(out)]) == 0
    assert capsys.readouterr().out == f"Wrote {out}: season 2026-27, 4 players carried on\n"
    sheets = package.read_sheets(out, layout.INPUT_SHEETS)
    header, *rows = sheets[layout.PLAYERS]
    grades = {row[header.index("Name")]: row[header.index("Grade")] for row in rows if row[1]}
    assert grades == {"Smith, John": 130, "Jones, Alan": 73, "New, Nick": None, "Idle, Ivy": 90}
    results = [row for row in sheets[layout.RESULTS][1:] if any(c is not None for c in row[:8])]
    assert results == []
    assert main(["new-season", str(book), str(out)]) == 1
    assert capsys.readouterr().err == f"Error: {out} exists; use --force to replace it\n"


class _Books:
    def __init__(self) -> None:
        self.opened: list[str] = []

    def open(self, path: str) -> None:
        self.opened.append(path)


class _App:
    def __init__(self) -> None:
        self.books = _Books()


def test_the_ribbon_button_saves_and_opens_the_new_book(tmp_path: Path) -> None:
    path = tmp_path / "league.xlsm"
    path.write_bytes(build.build_workbook(PLAYERS, GAMES, Settings(season_name="2025-26")))
    book: Any = FakeBook(package.read_sheets(path, layout.INPUT_SHEETS))
    book.fullname = str(path)
    book.app = _App()
    written = live.new_season(book)
    assert written == str(tmp_path / "2026-27.xlsm")
    assert book.app.books.opened == [written]
    again = live.new_season(book)
    assert again == str(tmp_path / "2026-27 (2).xlsm")


def test_seasons_of_a_whole_year_follow_one_another_across_29_february() -> None:
    settings = Settings(season_start=dt.date(2022, 3, 1), season_end=dt.date(2023, 2, 28))
    seasons = []
    for _ in range(2):
        _, settings = recalculate([], [], settings).next_season()
        seasons.append((settings.season_start, settings.season_end))
    assert seasons == [
        (dt.date(2023, 3, 1), dt.date(2024, 2, 29)),
        (dt.date(2024, 3, 1), dt.date(2025, 2, 28)),
    ]
    _, default = recalculate([], [], Settings()).next_season()
    assert (default.season_start, default.season_end) == (dt.date(2026, 6, 1), dt.date(2027, 5, 31))


def test_a_season_shorter_than_a_year_moves_on_a_year() -> None:
    settings = Settings(season_start=dt.date(2025, 9, 1), season_end=dt.date(2026, 4, 30))
    _, after = recalculate([], [], settings).next_season()
    assert (after.season_start, after.season_end) == (dt.date(2026, 9, 1), dt.date(2027, 4, 30))


def test_a_grade_lapses_after_three_seasons_without_a_game() -> None:
    idle = Player(
        "Idle, Ian", grade=130, previous=EarlierSeason(0, 0.0), earlier=EarlierSeason(0, 0.0), row=2
    )
    # Blank history is unknown, not idle: a grade typed in with no history carries on.
    new = Player("New, Nora", grade=140, row=5)
    assert recalculate([new], [], Settings()).next_season()[0][0].grade == 140
    recent = Player("Recent, Rob", grade=120, previous=EarlierSeason(5, 600.0), row=3)
    players, _ = recalculate([idle, recent], [], Settings()).next_season()
    assert (players[0].grade, players[0].lapsed_grade) == (None, 130)
    assert (players[1].grade, players[1].lapsed_grade) == (120, None)
    # Next season the lapsed grade is his working grade less the inactivity allowance:
    # beating him counts 130 − 20 + 50 = 160 (§2 and §6).
    winner = Player("Winner, Wes", grade=150, row=4)
    season = recalculate(
        [players[0], winner],
        [Game("Winner, Wes", "Idle, Ian", "1-0", dt.date(2026, 10, 1), row=2)],
        Settings(
            season_start=dt.date(2026, 6, 1),
            season_end=dt.date(2027, 5, 31),
            inactivity_allowance=20,
        ),
    )
    assert season.card(1).lines[0].points.points == 160


def test_most_recent_borrowing_carries_the_dated_games_on() -> None:
    # X draws 10 games with a 150 this season (150 points each, §2); he had 25 dated games of
    # 100 points last season and one two seasons back, which the next season no longer reaches.
    old = tuple(
        DatedPoints(dt.date(2024, 9, 1) + dt.timedelta(days=7 * n), 100.0) for n in range(25)
    )
    stale = DatedPoints(dt.date(2023, 9, 1), 0.0)
    x = Player("X", grade=150, previous=EarlierSeason(25, 2500.0), earlier_games=(*old, stale))
    y = Player("Y", grade=150)
    days = [dt.date(2025, 9, 3) + dt.timedelta(days=7 * n) for n in range(10)]
    games = [Game("X", "Y", "½-½", day, row=n + 2) for n, day in enumerate(days)]
    settings = Settings(borrowing="most_recent")
    players, _ = recalculate([x, y], games, settings).next_season()
    carried = players[0].earlier_games
    assert sorted(carried, key=lambda g: g.date) == [*old, *(DatedPoints(d, 150.0) for d in days)]
    # Next season, 10 games at 100 borrow the 20 most recent: this season's 10 at 150 and the
    # last 10 of the season before at 100. (1000 + 1500 + 1000) / 30 = 116.67 → 117.
    grade = season_grade(1000.0, 10, [], borrowing="most_recent", earlier_games=carried)
    assert (grade.grade, grade.borrowed_games, grade.borrowed_points) == (117, 20, 2500.0)


def test_pro_rata_borrowing_keeps_no_dated_games() -> None:
    x = Player("X", grade=150, earlier_games=(DatedPoints(dt.date(2025, 1, 1), 100.0),))
    players, _ = recalculate([x], [], Settings()).next_season()
    assert players[0].earlier_games == ()


def test_new_season_says_which_cells_it_could_not_carry_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from xlgrade.season import Table

    book = tmp_path / "league.xlsm"
    # The 2025-26 season given (the template's blank dates would be the one holding today).
    book.write_bytes(build.build_workbook((), (), Settings(season_name="2025-26")))
    players = Table(
        layout.PLAYERS_HEADERS,
        [("234567F", "Brown, Alan", "Anytown", None, None, "12O", None, None, None, None, None)],
    )
    package.write_sheets(book, {"Players": players})
    out = tmp_path / "next.xlsm"
    assert main(["new-season", str(book), str(out)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "1 cell of Settings and Players could not be read, each value left out and the rest of "
        "its row kept (they are left out of the new book):",
        "  Players row 2: cell F2 (Grade): '12O' is not a number: left out",
        f"Wrote {out}: season 2026-27, 1 players carried on",
    ]


def test_a_rated_season_carries_each_players_rating_on() -> None:
    # Ann (1600) beats Bob (1600) on 3 September 2025: 20 × (1 − .50) = +10 → 1610 and 1590,
    # both K; next season starts from those, last rated in September 2025. Cy never played and
    # has no rating; Dot's rapid rating, not played on, is carried as it was.
    from xlgrade.settings import RATING_2020

    settings = Settings(
        season_start=dt.date(2025, 9, 1), season_end=dt.date(2026, 8, 31), system=RATING_2020
    )
    players = [
        Player("Ann", rating=1600, row=2),
        Player("Bob", rating=1600, row=3),
        Player("Cy", row=4),
        Player("Dot", rapid_rating=1450, rapid_category="K", row=5),
    ]
    result = recalculate(players, [Game("Ann", "Bob", "1-0", dt.date(2025, 9, 3))], settings)
    nxt, _ = result.next_season()
    ann, bob, cy, dot = nxt
    assert (ann.rating, ann.rating_category, ann.last_rated_month) == (
        1610, "K", dt.date(2025, 9, 1),
    )  # fmt: skip
    assert (bob.rating, bob.rating_category) == (1590, "K")
    assert (cy.rating, cy.rating_category, cy.last_rated_month) == (None, None, None)
    assert (dot.rating, dot.rapid_rating, dot.rapid_category) == (None, 1450, "K")
    # Graded, the Players table's ratings stay as they were.
    graded, _ = recalculate(players, [], Settings()).next_season()
    assert [p.rating for p in graded] == [1600, 1600, None, None]


def test_new_season_writes_the_ratings_into_next_seasons_book(tmp_path: Path) -> None:
    from xlgrade.settings import RATING_2020
    from xlgrade.workbook.package import read_sheets

    settings = Settings(
        season_start=dt.date(2025, 9, 1), season_end=dt.date(2026, 8, 31), system=RATING_2020
    )
    players = [Player("Ann", rating=1600), Player("Bob", rating=1600)]
    book = tmp_path / "this.xlsm"
    book.write_bytes(
        build.build_workbook(players, [Game("Ann", "Bob", "1-0", dt.date(2025, 9, 3))], settings)
    )
    out = tmp_path / "next.xlsm"
    assert main(["new-season", str(book), str(out)]) == 0
    rows = read_sheets(out, [layout.PLAYERS])[layout.PLAYERS]
    header = list(rows[0])
    at = {h: header.index(h) for h in ("Name", "ECF rating", "ECF category", "Last rated month")}
    assert [tuple(r[i] for i in at.values()) for r in rows[1:3]] == [
        ("Ann", 1610, "K", "2025-09"),
        ("Bob", 1590, "K", "2025-09"),
    ]


def test_new_season_writes_a_p_ratings_earlier_games_into_next_seasons_book(
    tmp_path: Path,
) -> None:
    # Jarvis (P 1631, 5 earlier games by the setting P games not given) beats 2008 in
    # September: Ra = (5 × 1631 + 2008 + 1800) / 7 = 1709.0, p = 4 / 7 → .57, dp +50 → 1759,
    # P on 6 games: score 3½, opponents 8155 + 2008 = 10163, average 1693.83. Sam v Jarvis's
    # 1759 (D 249, 245–256: .81), the game in full: 20 × (0 − .81) = −16.2 → −16 → 1992, K.
    from xlgrade.settings import RATING_2020
    from xlgrade.workbook.package import read_sheets

    settings = Settings(
        season_start=dt.date(2025, 9, 1), season_end=dt.date(2026, 8, 31), system=RATING_2020
    )
    players = [Player("Jarvis", rating=1631, rating_category="P"), Player("Sam", rating=2008)]
    book = tmp_path / "this.xlsm"
    book.write_bytes(
        build.build_workbook(players, [Game("Jarvis", "Sam", "1-0", dt.date(2025, 9, 3))], settings)
    )
    out = tmp_path / "next.xlsm"
    assert main(["new-season", str(book), str(out)]) == 0
    rows = read_sheets(out, [layout.PLAYERS])[layout.PLAYERS]
    header = list(rows[0])
    names = ("Name", "ECF rating", "ECF category", "ECF P games", "ECF P score")
    at = [header.index(h) for h in names]
    assert [tuple(r[i] for i in at) for r in rows[1:3]] == [
        ("Jarvis", 1759, "P", 6, 3.5),
        ("Sam", 1992, "K", None, None),
    ]
    opposition = rows[1][header.index("ECF P opposition")]
    assert round(float(opposition), 2) == 1693.83  # type: ignore[arg-type]


def test_a_rating_below_zero_goes_through_a_season_and_into_the_next(tmp_path: Path) -> None:
    # Lo and Hi, both 10 (K), in September 2025: Hi beats Lo three times, each 20 × (0 − .50)
    # for Lo: −30 → −20; Hi +30 → 40. No source gives a floor: −20 is published, carried into
    # next season's book and read back. Next September Lo (−20) draws Hi (40): D 60 (54–61),
    # Lo's We .42: 20 × (½ − .42) = +1.6 → +2 → −18; Hi 20 × (½ − .58) = −1.6 → −2 → 38.
    from xlgrade.settings import RATING_2020
    from xlgrade.workbook.package import read_sheets

    settings = Settings(
        season_start=dt.date(2025, 9, 1), season_end=dt.date(2026, 8, 31), system=RATING_2020
    )
    players = [Player("Lo", rating=10, rating_category="K"), Player("Hi", rating=10)]
    games = [Game("Hi", "Lo", "1-0", dt.date(2025, 9, d)) for d in (3, 10, 17)]
    book = tmp_path / "this.xlsm"
    book.write_bytes(build.build_workbook(players, games, settings))
    out = tmp_path / "next.xlsm"
    assert main(["new-season", str(book), str(out)]) == 0
    rows = read_sheets(out, [layout.PLAYERS])[layout.PLAYERS]
    at = [list(rows[0]).index(h) for h in ("Name", "ECF rating", "ECF category")]
    assert [tuple(r[i] for i in at) for r in rows[1:3]] == [("Lo", -20, "K"), ("Hi", 40, "K")]
    nxt, after = recalculate(players, games, settings).next_season()
    second = recalculate(nxt, [Game("Lo", "Hi", "½-½", dt.date(2026, 9, 3))], after)
    assert not second.problems
    listed = {r[1]: r for r in second.list_table().rows}
    headers = second.list_table().headers
    rating = headers.index("Rating")
    assert (listed["Lo"][rating], listed["Hi"][rating]) == (-18, 38)
    # The same book read back: its Players cell −20 is a rating, not a problem.
    assert main(["recalc", str(out)]) == 0
