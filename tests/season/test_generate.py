"""The test-data generator: deterministic, the requested sizes and rates, realistic results,
and every fault it injects recorded — checked against an audit that reads only the tables."""

from __future__ import annotations

import csv
import datetime as dt
import re
import runpy
import statistics
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from tests.lint import banned_imports
from tests.paths import ROOT
from xlgrade.convert import ecf_code_valid
from xlgrade.ecf import age_on
from xlgrade.errors import ResultError
from xlgrade.generate import (
    FAULT_KINDS,
    PLAYER_COLUMNS,
    RESULT_COLUMNS,
    GeneratedSeason,
    generate_league,
    generate_national,
    settings_rows,
    write_csv,
)
from xlgrade.results import parse_game_result

EXAMPLE = ROOT / "examples" / "league"
SCRIPT = ROOT / "examples" / "make_example_league.py"
BOOK_LEAGUE = ROOT / "xlgrade" / "data" / "example-league"

CODE = re.compile(r"[0-9]{6}[A-Za-z]")
RAPID = {"rapid", "25+10", "15+10"}
NOT_GRADABLE = {"blitz", "5+3", "3+2"}
STANDARD = {"", "90+30"}


@pytest.fixture(scope="module")
def league() -> GeneratedSeason:
    return generate_league(seed=11)


@pytest.fixture(scope="module")
def national() -> GeneratedSeason:
    """The national generator at a tenth of its size."""
    return generate_national(seed=3, players=1_500, games=20_000)


def _surname_first(name: str) -> str:
    """ "John A Smith" → "Smith, John A" (the Players table's form)."""
    given, _, surname = name.rpartition(" ")
    return f"{surname}, {given}"


def audit(season: GeneratedSeason) -> dict[tuple[str, int | None], str]:
    """The faults in a season found from its tables alone, as {(sheet, row): kind}: what a
    correct season engine must report."""
    found: dict[tuple[str, int | None], str] = {}
    by_code = {p.code: i for i, p in enumerate(season.players) if p.code}
    by_name: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(season.players):
        by_name[p.name].append(i)
    name_club = Counter((p.name, p.club) for p in season.players if p.code is None)
    for p in season.players:
        if p.code is None and name_club[p.name, p.club] > 1:
            found["Players", p.row] = "same name and club"
    settings = season.settings
    first_entry: dict[tuple[object, ...], float | None] = {}
    for game in season.games:
        assert game.row is not None
        assert game.date is not None
        kinds: list[str] = []

        def resolve(ref: str, kinds: list[str] = kinds) -> int | None:
            if CODE.fullmatch(ref):
                if not ecf_code_valid(ref):
                    kinds.append("bad code check letter")
                    return None
                return by_code[ref]
            name = ref if "," in ref else _surname_first(ref)
            matches = by_name.get(name, [])
            if not matches:
                kinds.append("unknown player")
                return None
            if len(matches) > 1:
                kinds.append("same name and club")
                return None
            return matches[0]

        home, away = resolve(game.home), resolve(game.away)
        if home is not None and home == away:
            kinds.append("self pairing")
        if not settings.season_start <= game.date <= settings.season_end:
            kinds.append("date outside season")
        if game.time_control in RAPID:
            kinds.append("rapid")
        elif game.time_control in NOT_GRADABLE:
            kinds.append("not gradable time control")
        else:
            assert game.time_control in STANDARD
        score: float | None = None
        try:
            result = parse_game_result(game.result)
        except ResultError:
            kinds.append("bad result")
        else:
            if not result.graded:
                kinds.append("default")
            score = result.home
        entry = (game.date, game.match, game.board)
        if entry in first_entry:
            same = first_entry[entry] == score
            kinds.append("duplicate game" if same else "duplicate disagrees")
        else:
            first_entry[entry] = score
        assert len(kinds) <= 1, f"row {game.row} has more than one fault: {kinds}"
        if kinds:
            found["Results", game.row] = kinds[0]
    return found


def recorded(season: GeneratedSeason) -> dict[tuple[str, int | None], str]:
    return {(fault.sheet, fault.row): fault.kind for fault in season.injected}


# --- Determinism and sizes -------------------------------------------------------------------


def test_same_seed_same_season() -> None:
    assert generate_league(seed=5) == generate_league(seed=5)
    small = {"players": 300, "games": 3_000}
    assert generate_national(seed=5, **small) == generate_national(seed=5, **small)


def test_other_seed_other_season() -> None:
    assert generate_league(seed=5).games != generate_league(seed=6).games


def test_sizes_and_row_numbers(league: GeneratedSeason, national: GeneratedSeason) -> None:
    for season, players, games in ((league, 40, 300), (national, 1_500, 20_000)):
        assert len(season.players) == len(season.strengths) == players
        assert len(season.games) == len(season.home_index) == len(season.away_index) == games
        assert [p.row for p in season.players] == list(range(2, players + 2))
        assert [g.row for g in season.games] == list(range(2, games + 2))


def test_arguments_checked() -> None:
    with pytest.raises(ValueError, match="players"):
        generate_league(players=5)
    with pytest.raises(ValueError, match="faulty"):
        generate_league(faulty=0.9)
    with pytest.raises(ValueError, match="ungraded"):
        generate_league(ungraded=-0.1)


def test_no_faults_when_none_asked_for() -> None:
    season = generate_league(seed=2, faulty=0.0)
    assert season.injected == ()
    assert audit(season) == {}


# --- Faults: every one recorded, at the requested rate ----------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3, 2025])
def test_every_fault_in_a_league_is_recorded(seed: int) -> None:
    season = generate_league(seed=seed)
    assert audit(season) == recorded(season)


def test_every_fault_nationally_is_recorded(national: GeneratedSeason) -> None:
    assert audit(national) == recorded(national)
    assert {fault.kind for fault in national.injected} == set(FAULT_KINDS)


def test_fault_rates(national: GeneratedSeason) -> None:
    rows = [fault for fault in national.injected if fault.sheet == "Results"]
    assert len(rows) / len(national.games) == pytest.approx(0.03, abs=0.002)
    kinds = Counter(fault.kind for fault in rows)
    assert kinds["default"] > kinds["self pairing"] > 0
    duplicates = kinds["duplicate game"] + kinds["duplicate disagrees"]
    assert 0.15 < duplicates / len(rows) < 0.35
    assert 0 < kinds["duplicate disagrees"] < kinds["duplicate game"]
    graded = [p.grade is not None for p in national.players]
    assert graded.count(False) / len(graded) == pytest.approx(0.05, abs=0.01)


def test_a_whole_match_is_entered_twice(national: GeneratedSeason) -> None:
    doubled = Counter(
        national.games[fault.row - 2].match
        for fault in national.injected
        if fault.kind.startswith("duplicate")
    )
    assert max(doubled.values()) >= 4


def test_example_league_has_every_kind_of_fault() -> None:
    example = runpy.run_path(str(SCRIPT))["example_league"]()
    assert {fault.kind for fault in example.injected} == set(FAULT_KINDS)


def test_faults_carry_details(league: GeneratedSeason) -> None:
    for fault in league.injected:
        assert fault.kind in FAULT_KINDS
        assert fault.detail


# --- Clean data is clean ---------------------------------------------------------------------


def test_codes_valid_and_unique(national: GeneratedSeason) -> None:
    codes = [p.code for p in national.players if p.code is not None]
    assert all(ecf_code_valid(code) for code in codes)
    assert len(set(codes)) == len(codes)
    assert len(codes) > 0.9 * len(national.players)


def test_dates_in_season_except_injected(national: GeneratedSeason) -> None:
    start, end = national.settings.season_start, national.settings.season_end
    outside = {g.row for g in national.games if g.date is not None and not start <= g.date <= end}
    assert outside == {f.row for f in national.injected if f.kind == "date outside season"}
    assert national.settings.season_start == dt.date(2025, 6, 1)
    assert national.settings.season_end == dt.date(2026, 5, 31)


def test_results_parse_except_injected(national: GeneratedSeason) -> None:
    bad = recorded(national)
    forms: Counter[str] = Counter()
    for game in national.games:
        if bad.get(("Results", game.row)) in ("bad result", "default"):
            continue
        result = parse_game_result(game.result)
        assert result.graded
        forms[game.result] += 1
    assert {"1-0", "0-1", "½-½", "1/2-1/2", "=-=", "1:0", "W"} <= set(forms)


def test_references_name_the_right_players(national: GeneratedSeason) -> None:
    bad = recorded(national)
    for game, home, away in zip(
        national.games, national.home_index, national.away_index, strict=True
    ):
        kind = bad.get(("Results", game.row))
        for ref, index in ((game.home, home), (game.away, away)):
            if index < 0:
                assert kind == "unknown player"
                continue
            player = national.players[index]
            if CODE.fullmatch(ref):
                assert ref == player.code or kind == "bad code check letter"
            else:
                assert ref in (player.name, " ".join(reversed(player.name.split(", "))))


def test_names_in_both_orders_and_codes(national: GeneratedSeason) -> None:
    refs = [g.home for g in national.games]
    assert any("," in ref for ref in refs)
    assert any(CODE.fullmatch(ref) for ref in refs)
    assert any(" " in ref and "," not in ref for ref in refs)


# --- Realism -----------------------------------------------------------------------------------


def test_stronger_players_score_more(national: GeneratedSeason) -> None:
    bad = recorded(national)
    strength = national.strengths
    by_gap: dict[int, list[float]] = defaultdict(list)
    draws = played = 0
    for game, h, a in zip(national.games, national.home_index, national.away_index, strict=True):
        if ("Results", game.row) in bad:
            continue
        score = parse_game_result(game.result).home
        assert score is not None
        gap = strength[h] - strength[a]
        by_gap[min(max(round(gap / 20), -2), 2)].append(score)
        draws += score == 0.5
        played += 1
    means = [statistics.fmean(by_gap[k]) for k in (-2, -1, 0, 1, 2)]
    assert means == sorted(means)
    assert means[0] < 0.25
    assert means[4] > 0.75
    assert 0.4 < means[2] < 0.6
    assert 0.15 < draws / played < 0.35


def test_strengths_and_grades(national: GeneratedSeason) -> None:
    strengths = national.strengths
    assert statistics.fmean(strengths) == pytest.approx(130, abs=8)
    assert statistics.stdev(strengths) == pytest.approx(35, abs=7)
    for player, strength in zip(national.players, strengths, strict=True):
        if player.grade is not None:
            assert abs(player.grade - strength) < 40
        if player.estimated_grade is not None:
            assert player.grade is None


def test_ungraded_kinds(national: GeneratedSeason) -> None:
    ungraded = [p for p in national.players if p.grade is None]
    assert any(p.estimated_grade is not None for p in ungraded)
    assert any(p.lapsed_grade is not None for p in ungraded)
    assert any(p.estimated_grade is None and p.lapsed_grade is None for p in ungraded)
    assert all(p.code is None for p in ungraded if p.lapsed_grade is None)


def test_juniors(national: GeneratedSeason) -> None:
    on = national.settings.age_date
    juniors = [p for p in national.players if p.junior]
    assert 0.05 < len(juniors) / len(national.players) < 0.15
    aged = [p for p in juniors if p.date_of_birth is not None]
    assert all(8 <= age_on(p.date_of_birth, on) <= 17 for p in aged if p.date_of_birth)
    assert 0 < len(juniors) - len(aged) < len(aged)
    adults = [p for p in national.players if not p.junior and p.date_of_birth is not None]
    assert adults
    assert all(p.date_of_birth and age_on(p.date_of_birth, on) >= 18 for p in adults)


def test_earlier_seasons(national: GeneratedSeason) -> None:
    with_games = [p for p in national.players if p.earlier_games]
    assert with_games
    start = national.settings.season_start
    for player in with_games:
        assert all(g.date < start for g in player.earlier_games)
        dates = [g.date for g in player.earlier_games]
        assert dates == sorted(dates)
        previous_start = start.replace(year=start.year - 1)
        recent = [g.points for g in player.earlier_games if g.date >= previous_start]
        older = [g.points for g in player.earlier_games if g.date < previous_start]
        for totals, games in ((player.previous, recent), (player.earlier, older)):
            if games:
                assert totals is not None
                assert totals.games == len(games)
                assert totals.points == pytest.approx(sum(games))
    for player, strength in zip(national.players, national.strengths, strict=True):
        if player.previous is not None and player.previous.games >= 10 and not player.junior:
            assert abs(player.previous.points / player.previous.games - strength) < 60
    previous = [p.previous for p in national.players if p.previous is not None]
    assert any(season.games == 0 for season in previous)
    assert any(season.games < 5 for season in previous)


def test_clubs_teams_and_matches(national: GeneratedSeason) -> None:
    bad = recorded(national)
    for game in national.games:
        home_team, away_team = game.match.split(" v ")
        assert home_team != away_team
        assert game.board is not None
        assert 1 <= game.board <= 6
        assert game.event.endswith(tuple(f"Division {k}" for k in range(1, 9)))
    # A team plays once a night: a player never has two clean games on one date.
    nights = Counter(
        (g.date, i)
        for g, h, a in zip(national.games, national.home_index, national.away_index, strict=True)
        if ("Results", g.row) not in bad
        for i in (h, a)
    )
    assert max(nights.values()) == 1
    clubs = Counter(p.club for p in national.players)
    assert len(clubs) > 20


# --- Files ------------------------------------------------------------------------------------


def test_write_csv(tmp_path: Path, league: GeneratedSeason) -> None:
    players_path, results_path, settings_path = write_csv(league, tmp_path)
    with players_path.open(encoding="utf-8", newline="") as handle:
        players = list(csv.reader(handle))
    with results_path.open(encoding="utf-8", newline="") as handle:
        results = list(csv.reader(handle))
    assert tuple(players[0]) == PLAYER_COLUMNS
    assert tuple(results[0]) == RESULT_COLUMNS
    assert len(players) == 41
    assert len(results) == 301
    game = league.games[0]
    assert results[1][:4] == [game.date.isoformat() if game.date else "", game.event,
                              game.match, str(game.board)]  # fmt: skip
    with settings_path.open(encoding="utf-8", newline="") as handle:
        settings = dict(list(csv.reader(handle))[1:])
    assert settings["Season start"] == "2025-06-01"
    assert settings["Horizon"] == "40"
    assert settings == dict(settings_rows(league.settings))


def test_example_league_is_what_the_script_writes(tmp_path: Path) -> None:
    runpy.run_path(str(SCRIPT))["main"](
        tmp_path / "league", tmp_path / "book", tmp_path / "ratings.csv"
    )
    ratings = (ROOT / "examples" / "ratings-2025-08.csv").read_bytes()
    assert (tmp_path / "ratings.csv").read_bytes() == ratings
    for name in ("players.csv", "results.csv", "settings.csv", "divisions.csv"):
        assert (tmp_path / "league" / name).read_bytes() == (EXAMPLE / name).read_bytes(), name
        assert (tmp_path / "book" / name).read_bytes() == (BOOK_LEAGUE / name).read_bytes(), name


# --- Only tests, examples and benchmarks use it ----------------------------------------------


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("xlgrade/cli.py", "import xlgrade.generate"),
        ("xlgrade/cli.py", "import xlgrade.generate as g"),
        ("xlgrade/cli.py", "from xlgrade.generate import generate_league"),
        ("xlgrade/cli.py", "from xlgrade import generate"),
        ("xlgrade/commands/template.py", "def f():\n    from ..generate import generate_league"),
        ("udfs/xlgrade_udfs.py", "from xlgrade.generate import generate_league"),
        ("xlgrade/formats/folder.py", "from xlgrade.generate import generate_league"),
    ],
)
def test_the_lint_refuses_the_generator_in_shipped_code(path: str, source: str) -> None:
    """Ruff's banned imports (pyproject.toml) keep the generator out of the shipped modules;
    ``ruff check .`` runs in CI (.ci/run)."""
    assert banned_imports(path, source + "\n")


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("tests/season/test_probe.py", "from xlgrade.generate import generate_league"),
        ("benchmarks/probe.py", "from xlgrade.generate import generate_league"),
        ("xlgrade/cli.py", "import xlgrade.generated_names"),
        ("xlgrade/cli.py", "text = 'from xlgrade.generate import x'"),
    ],
)
def test_the_lint_lets_tests_and_other_imports_be(path: str, source: str) -> None:
    assert banned_imports(path, source + "\n") == []


def test_national_full_size_smoke() -> None:
    season = generate_national()  # about a second
    assert len(season.players) == 15_000
    assert len(season.games) == 200_000
    results = [f for f in season.injected if f.sheet == "Results"]
    assert len(results) == 6_000
