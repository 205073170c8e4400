"""Many leagues graded as one season (docs/rules.md §14): players known across leagues, the
same game once, the lists at each scope."""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt

import pytest

from tests.paths import ROOT
from xlgrade.card import render_card
from xlgrade.errors import GradingError
from xlgrade.model import EarlierSeason, Game, Player
from xlgrade.season.reconcile import ListedPlayer
from xlgrade.season.union import (
    ECF_LIST,
    NOT_IDENTIFIED,
    Decision,
    LeagueSeason,
    UnionSeason,
    grade_union,
)
from xlgrade.settings import Settings

SEASON = Settings(season_start=dt.date(2025, 9, 1), season_end=dt.date(2026, 5, 31))
DAY = dt.date(2025, 10, 1)
CLUB_FILE = ROOT / "tests" / "data" / "ecf" / "club-members-names-and-codes.csv"
MK = "Milton Keynes"


def union_of(*leagues: LeagueSeason, **kwargs: object) -> UnionSeason:
    return grade_union(leagues, settings=SEASON, **kwargs)  # type: ignore[arg-type]


def joined(union: UnionSeason) -> dict[tuple[str, str], str]:
    """Each join as (first league's name, joined league's name) → why."""
    return {
        (join.members[0].name, member.name): why
        for join in union.joins
        for member, why in zip(join.members[1:], join.why, strict=True)
    }


def club_members() -> list[dict[str, str]]:
    with CLUB_FILE.open(encoding="utf-8", newline="") as stream:
        return list(csv.DictReader(stream))


# -- the real club's members as the club and as the ECF's list name them ----------------------


def test_the_club_file_is_read_as_it_is() -> None:
    members = club_members()
    # 49 members; 46 with a code, and 47 with the list's name (Joseph Assante's has no code).
    assert len(members) == 49
    assert sum(1 for m in members if m["ecfcode"]) == 46
    assert sum(1 for m in members if m["ecfname"]) == 47


def test_the_club_and_the_list_with_codes_are_joined_by_code_and_their_names_agree() -> None:
    members = club_members()
    club = LeagueSeason(
        "Club",
        [Player(m["name"], m["ecfcode"] or None, MK, row=i) for i, m in enumerate(members, 2)],
        [],
    )
    listed = [(i, m) for i, m in enumerate(members, 2) if m["ecfname"]]
    ecf = LeagueSeason(
        "List", [Player(m["ecfname"], m["ecfcode"] or None, MK, row=i) for i, m in listed], []
    )
    union = union_of(club, ecf)
    found = joined(union)
    # 46 codes, each on both sides; and Joseph Assante, on both with no code, by name and club.
    assert len(found) == 47
    assert not union.undecided
    for _i, m in listed:
        if m["ecfcode"]:
            assert found[m["name"], m["ecfname"]].startswith(f"ECF code {m['ecfcode']}")
    # The forms of the names, read by hand from the file:
    assert found["Adrian Elwin", "Elwin, Adrian G"].endswith("(initials)")
    assert found["Dave Wells", "Wells, Dave"].endswith("(same name)")
    assert found["Dexter Caplin Lazard", "Lazard, Dexter"].endswith("(initials)")
    assert found["James Alexander", "Alexander, NO'D James"].endswith("(a forename left out)")
    assert found["Ozan Senturk", "Senturk, N Ozan NE"].endswith("(a forename left out)")
    assert found["Joseph Assante", "Assante, Joseph"] == "the same name and club, no code"
    # 49 club rows and 47 list rows, all of them joined, make 49 players.
    assert len(union.result.players) == 49


def test_the_club_without_codes_is_joined_by_name_and_club_or_not_decided() -> None:
    """The club's sheet with no codes, the ECF's names with them: the names decide."""
    members = club_members()
    club = LeagueSeason(
        "Club", [Player(m["name"], None, MK, row=i) for i, m in enumerate(members, 2)], []
    )
    listed = [(i, m) for i, m in enumerate(members, 2) if m["ecfname"]]
    ecf = LeagueSeason(
        "List", [Player(m["ecfname"], m["ecfcode"] or None, MK, row=i) for i, m in listed], []
    )
    union = union_of(club, ecf)
    found = joined(union)
    undecided = {u.member.name: u for u in union.undecided}
    # A forename left out is a doubt without a code: these two are the grader's to decide.
    assert set(undecided) == {"James Alexander", "Ozan Senturk"}
    assert undecided["James Alexander"].why.startswith(
        "the names agree only with a forename left out"
    )
    assert [c.name for c in undecided["Ozan Senturk"].candidates] == ["Senturk, N Ozan NE"]
    # Every other list row is joined: 47 list rows less the two.
    assert len(found) == 45
    assert (
        found["Adrian Elwin", "Elwin, Adrian G"] == "the names agree (initials) and the same club"
    )
    # Two Mabogunjes of one club: each to his own.
    assert ("Olajide Mabogunje", "Mabogunje, Olajide") in found
    assert ("Ayomide Mabogunje", "Mabogunje, Ayomide David") in found
    assert ("Olajide Mabogunje", "Mabogunje, Ayomide David") not in found


def test_the_club_without_codes_takes_its_codes_from_the_ecf_list() -> None:
    """The club's sheet alone, no code on it, and the ECF's list: a member whose name agrees
    with one list player's (the same name or initials) of his club takes that code."""
    members = club_members()
    club = LeagueSeason(
        "Club", [Player(m["name"], None, MK, row=i) for i, m in enumerate(members, 2)], []
    )
    listed = [
        ListedPlayer(m["ecfcode"], m["ecfname"], MK, None, None, line=i)
        for i, m in enumerate(members, 2)
        if m["ecfcode"]
    ]
    union = union_of(club, listed=listed)
    coded = {p.name: p.code for p in union.result.players if p.code}
    # 46 codes on the list; James Alexander's and Ozan Senturk's names agree with theirs only
    # with a forename left out, which is not enough without a code: 44 codes taken.
    assert len(coded) == 44
    assert coded["Adrian Elwin"] == "110244J"
    assert "James Alexander" not in coded
    assert "Ozan Senturk" not in coded
    why = {j.members[0].name: j.first_why for j in union.joins}
    assert why["Adrian Elwin"] == (
        "no code; 'Elwin, Adrian G' of 'Milton Keynes' on the ECF's list (line 2) has his "
        "name and club: 110244J"
    )
    # A list player of another club gives no code.
    elsewhere = [dataclasses.replace(e, club="Bedford") for e in listed]
    assert not any(p.code for p in union_of(club, listed=elsewhere).result.players)


# -- small leagues for each case of the rule -----------------------------------------------


def league(name: str, players: list[Player], games: list[Game] | None = None) -> LeagueSeason:
    return LeagueSeason(name, players, games or [], settings=SEASON)


def game(home: str, away: str, result: str = "1-0", row: int = 2, **kw: object) -> Game:
    return Game(home, away, result, kw.pop("date", DAY), row=row, **kw)  # type: ignore[arg-type]


def test_two_j_smiths_of_different_clubs_are_not_decided_and_their_games_are_held() -> None:
    north = league(
        "North",
        [
            Player("Smith, J", club="Anytown", grade=120.0, row=2),
            Player("Able, Ann", club="Anytown", grade=110.0, row=3),
        ],
        [game("Smith, J", "Able, Ann", row=2)],
    )
    south = league(
        "South",
        [
            Player("Smith, J", club="Beeton", grade=150.0, row=2),
            Player("Best, Bob", club="Beeton", grade=140.0, row=3),
        ],
        [game("Best, Bob", "Smith, J", "0-1", row=5)],
    )
    union = union_of(north, south)
    assert not union.joins
    assert {(u.member.league, u.member.row) for u in union.undecided} == {
        ("North", 2),
        ("South", 2),
    }
    north_smith = next(u for u in union.undecided if u.member.league == "North")
    assert north_smith.why == "the names agree (same name) but the clubs differ: not decided"
    assert north_smith.held == (("North", 2),)
    season = union.result
    assert season.accounting.standard_graded == 0
    held = [(p.sheet, p.row) for p in season.problems if p.what == NOT_IDENTIFIED]
    assert held == [("North Results", 2), ("South Results", 5)]
    assert season.accounting.balanced


def test_the_graders_decision_that_they_are_two_grades_both() -> None:
    north = league("North", [Player("Smith, J", club="Anytown", grade=120.0, row=2),
                             Player("Able, Ann", club="Anytown", grade=110.0, row=3)],
                   [game("Smith, J", "Able, Ann", row=2)])  # fmt: skip
    south = league("South", [Player("Smith, J", club="Beeton", grade=150.0, row=2),
                             Player("Best, Bob", club="Beeton", grade=140.0, row=3)],
                   [game("Best, Bob", "Smith, J", "0-1", row=5)])  # fmt: skip
    two = Decision("North", "Smith, J", "South", "Smith, J", same=False, row=2)
    union = union_of(north, south, decisions=[two])
    assert not union.undecided
    assert union.result.accounting.standard_graded == 2
    names = sorted(p.name for p in union.result.players)
    # Two of one name in the union are told apart by their clubs.
    assert names == ["Able, Ann", "Best, Bob", "Smith, J (Anytown)", "Smith, J (Beeton)"]


def test_the_graders_decision_that_they_are_one_joins_them_across_clubs() -> None:
    north = league("North", [Player("Smith, J", club="Anytown", grade=120.0, row=2)])
    south = league("South", [Player("Smith, John", club="Beeton", row=7)])
    one = Decision("South", "Smith, John", "North", "Smith, J", same=True, row=3)
    union = union_of(north, south, decisions=[one])
    assert not union.undecided
    assert joined(union) == {
        ("Smith, J", "Smith, John"): "the grader's decision (Identities row 3)"
    }


def test_a_decision_that_names_no_player_is_listed_not_applied() -> None:
    north = league("North", [Player("Smith, J", club="Anytown", row=2)])
    wrong = Decision("North", "Smyth, J", "Nowhere", "Smith, J", same=True, row=4)
    union = union_of(north, decisions=[wrong])
    problem = next(p for p in union.result.problems if p.sheet == "Identities")
    assert (problem.row, problem.what) == (4, "decision not applied")
    assert "'Smyth, J'" in problem.why


def test_one_code_on_two_names_holds_back_every_row_of_it() -> None:
    north = league("North", [Player("Kay, Malcolm", "634605E", "Redmire", grade=161.0, row=2),
                             Player("Able, Ann", club="Redmire", grade=110.0, row=3)],
                   [game("634605E", "Able, Ann", row=2)])  # fmt: skip
    south = league("South", [Player("Kay, Michael", "634605E", "Redmire", row=4)])
    union = union_of(north, south)
    assert {u.member.name for u in union.undecided} == {"Kay, Malcolm", "Kay, Michael"}
    assert all(u.why.startswith("one code 634605E on two names") for u in union.undecided)
    assert union.result.accounting.standard_graded == 0
    # The grader says the list's player of that code is the North's Malcolm: South's Michael
    # is then another person.
    two = Decision("North", "634605E", "South", "Kay, Michael", same=False, row=2)
    decided = union_of(north, south, decisions=[two])
    assert not decided.undecided
    assert decided.result.accounting.standard_graded == 1


def test_a_code_that_disagrees_with_the_lists_name_is_not_decided_until_the_grader_says() -> None:
    north = league("North", [Player("Kay, Michael", "634605E", "Redmire", grade=161.0, row=2),
                             Player("Able, Ann", club="Redmire", grade=110.0, row=3)],
                   [game("634605E", "Able, Ann", row=2)])  # fmt: skip
    listed = [ListedPlayer("634605E", "Kay, Malcolm", "Redmire", 1800, "K")]
    union = union_of(north, listed=listed)
    (doubt,) = union.undecided
    assert doubt.why == "code 634605E is 'Kay, Malcolm' on the ECF's list, not 'Kay, Michael'"
    assert doubt.held == (("North", 2),)
    his = Decision("North", "634605E", ECF_LIST, "634605E", same=True, row=2)
    assert not union_of(north, listed=listed, decisions=[his]).undecided


def test_a_different_date_of_birth_is_another_person() -> None:
    born = dt.date(1980, 1, 1)
    north = league("North", [Player("Smith, John", club="Anytown", date_of_birth=born, row=2)])
    south = league(
        "South", [Player("Smith, John", club="Anytown", date_of_birth=dt.date(2001, 1, 1), row=2)]
    )
    union = union_of(north, south)
    # Same name and club with no code would join them; a date of birth each, not the same.
    assert not union.undecided
    assert len(union.result.players) == 2
    same_day = league("South", [Player("Smith, J", club="Beeton", date_of_birth=born, row=2)])
    assert joined(union_of(north, same_day)) == {
        ("Smith, John", "Smith, J"): "the names agree (initials) and the same date of birth"
    }


# -- the same game once ----------------------------------------------------------------


def two_leagues(north_games: list[Game], south_games: list[Game]) -> UnionSeason:
    ann = Player("Able, Ann", "420178E", "Anytown", grade=120.0, row=2)
    bob = Player("Best, Bob", "277875A", "Beeton", grade=140.0, row=3)
    return union_of(
        league("North", [ann, bob], north_games), league("South", [ann, bob], south_games)
    )


def test_a_match_both_leagues_report_is_counted_once_naming_the_other_leagues_row() -> None:
    union = two_leagues([game("420178E", "277875A", "1-0", row=7)],
                        [game("Able, Ann", "Best, Bob", "1-0", row=3)])  # fmt: skip
    season = union.result
    assert season.accounting.standard_graded == 1
    (dup,) = [p for p in season.problems if p.what == "duplicate game"]
    assert (dup.sheet, dup.row) == ("South Results", 3)
    assert dup.why.startswith("the same game as North row 7")
    # Ann's card has the game once, naming its league.
    card = season.card(season.player_index("420178E"))
    assert [line.game.league for line in card.lines] == ["North"]
    assert "North" in render_card(card)


def test_two_reports_with_different_results_are_a_conflict_with_both_sources() -> None:
    union = two_leagues([game("420178E", "277875A", "1-0", row=7)],
                        [game("420178E", "277875A", "0-1", row=3)])  # fmt: skip
    season = union.result
    assert season.accounting.standard_graded == 0
    conflict = [(p.sheet, p.row) for p in season.problems if p.what == "duplicate disagrees"]
    assert conflict == [("North Results", 7), ("South Results", 3)]
    why = next(p.why for p in season.problems if p.what == "duplicate disagrees")
    assert "North row 7 '1-0', South row 3 '0-1'" in why


def test_two_reports_with_the_colours_turned_are_counted_once_and_listed() -> None:
    union = two_leagues([game("420178E", "277875A", "1-0", row=7)],
                        [game("277875A", "420178E", "0-1", row=3)])  # fmt: skip
    season = union.result
    assert season.accounting.standard_graded == 1
    (turned,) = [p for p in season.problems if p.what == "colours disagree"]
    assert (turned.sheet, turned.row) == ("South Results", 3)
    # Within one league the other club entering the match its own way is no conflict.
    one = two_leagues([game("420178E", "277875A", "1-0", row=7),
                       game("277875A", "420178E", "0-1", row=8)], [])  # fmt: skip
    assert [p.what for p in one.result.problems if p.sheet == "North Results"] == ["duplicate game"]


def test_one_match_on_two_days_is_a_conflict_neither_graded() -> None:
    match = "Anytown A v Beeton A"
    union = two_leagues(
        [game("420178E", "277875A", "1-0", row=7, match=match)],
        [game("420178E", "277875A", "1-0", row=3, match=match, date=dt.date(2025, 10, 8))],
    )
    season = union.result
    assert season.accounting.standard_graded == 0
    found = sorted((p.sheet, p.row) for p in season.problems if p.what == "reports disagree")
    assert found == [("North Results", 7), ("South Results", 3)]
    assert season.accounting.balanced
    assert season.accounting.rows == 2


def test_a_row_its_league_cannot_resolve_is_listed_under_that_league() -> None:
    union = two_leagues([game("420178E", "Nobody, N", row=7)], [])
    (problem,) = [p for p in union.result.problems if p.sheet == "North Results"]
    assert (problem.row, problem.what) == (7, "unknown player")
    assert union.result.accounting.rows == 1


# -- one season, published at each scope --------------------------------------------------


def scoped() -> UnionSeason:
    ann = Player("Able, Ann", "420178E", "Anytown", grade=120.0, row=2)
    bob = Player("Best, Bob", "277875A", "Beeton", grade=140.0, row=3)
    cat = Player(
        "Cole, Cat", "175850A", "Carlton", grade=100.0, previous=EarlierSeason(9, 900), row=4
    )
    north = [
        game("420178E", "277875A", "1-0", row=r, date=DAY + dt.timedelta(r)) for r in range(2, 32)
    ]
    south = [
        game("175850A", "Able, Ann", "0-1", row=r, date=DAY + dt.timedelta(r)) for r in range(2, 5)
    ]
    return grade_union(
        [LeagueSeason("North", [ann, bob], north, county="Northshire"),
         LeagueSeason("South", [ann, cat], south, county="Southshire")],
        settings=SEASON,
    )  # fmt: skip


def test_every_game_of_every_league_is_on_the_players_card() -> None:
    season = scoped().result
    card = season.card(season.player_index("Able, Ann"))
    assert len(card.lines) == 33
    assert sum(line.game.league == "South" for line in card.lines) == 3


@pytest.mark.parametrize(
    ("scope", "name", "names"),
    [
        ("union", "", {"Able, Ann", "Best, Bob", "Cole, Cat"}),
        ("league", "South", {"Able, Ann", "Cole, Cat"}),
        ("county", "northshire", {"Able, Ann", "Best, Bob"}),
        ("club", "Carlton", {"Cole, Cat"}),
    ],
)
def test_the_list_at_each_scope(scope: str, name: str, names: set[str]) -> None:
    table = scoped().list_table(scope=scope, name=name)
    assert {row[table.headers.index("Name")] for row in table.rows} == names


def test_the_list_in_the_categories_asked_for() -> None:
    union = scoped()
    table = union.list_table(categories=["a"])
    at = table.headers.index("Category")
    # Ann and Bob have 30 games or more (category A); Cat 3, and 9 last season (E, §4).
    assert {row[at] for row in table.rows} == {"A"}
    leagues = {row[1]: row[-1] for row in union.list_table().rows}
    assert leagues["Able, Ann"] == "North, South"


def test_an_unknown_scope_or_name_is_refused_naming_it() -> None:
    with pytest.raises(GradingError, match="no league of the union is called 'West'"):
        scoped().list_table(scope="league", name="West")
    with pytest.raises(GradingError, match="scope 'region'"):
        scoped().list_table(scope="region")


def test_two_leagues_of_one_name_are_refused() -> None:
    with pytest.raises(GradingError, match="two leagues of the union are called 'north'"):
        union_of(league("North", []), league("north", []))


def test_a_rated_union_rates_every_leagues_games_and_its_card_names_them() -> None:
    from xlgrade.season.rating_card import render_rating_card
    from xlgrade.settings import RATING_2020

    rated = dataclasses.replace(SEASON, system=RATING_2020)
    ann = Player("Able, Ann", "420178E", "Anytown", rating=1600.0, row=2)
    bob = Player("Best, Bob", "277875A", "Beeton", rating=1700.0, row=3)
    north = LeagueSeason("North", [ann, bob], [game("420178E", "277875A", "1-0", row=2)])
    south = LeagueSeason(
        "South", [ann, bob],
        [game("277875A", "420178E", "1/2-1/2", row=9, date=dt.date(2025, 11, 5))],
    )  # fmt: skip
    season = grade_union([north, south], settings=rated).result
    assert season.rated
    card = season.rating_card(season.player_index("420178E"))
    assert [g.league for m in card.months for g in m.games] == ["North", "South"]
    assert "  League" in render_rating_card(card)


def test_a_second_meeting_one_league_reports_is_no_conflict_in_either_order() -> None:
    """North has the match home and away (October, January), South the October one only:
    South's report is North's October game; January is a game of its own, whichever league
    comes first."""
    match = "Anytown A v Beeton A"
    north = [
        game("420178E", "277875A", "1-0", row=7, match=match),
        game("277875A", "420178E", "1-0", row=9, match=match, date=dt.date(2026, 1, 7)),
    ]
    south = [game("420178E", "277875A", "1-0", row=3, match=match)]  # fmt: skip
    for union in (two_leagues(north, south), two_leagues(south, north)):
        season = union.result
        assert not [p for p in season.problems if p.what == "reports disagree"]
        assert season.accounting.standard_graded == 2
        assert [p.what for p in season.problems if p.sheet.endswith("Results")] == [
            "duplicate game"
        ]
