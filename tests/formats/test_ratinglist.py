"""The ECF's rating list CSV (:mod:`xlgrade.formats.ratinglist`): reading it, recognising it by
content, and looking Players rows up on it. The lists here are written by hand; the codes'
check letters are worked out in the comments by the rule of GRADING-RULES.md §8."""

from __future__ import annotations

import pytest

from xlgrade.errors import FormatError
from xlgrade.formats.detect import read_any
from xlgrade.formats.ratinglist import (
    HEADER,
    ListRating,
    fill_ratings,
    looks_like_rating_list,
    read_rating_list,
    write_rating_list,
)
from xlgrade.generate import generate_league, generate_rating_list

# Check letters, "ABCDEFGHJKL"[(7·d1 + 6·d2 + 5·d3 + 4·d4 + 3·d5 + 2·d6) mod 11]:
# 123456: 7 + 12 + 15 + 16 + 15 + 12 = 77 → 0 → A;  111111: 27 → 5 → F;
# 222222: 54 → 10 → L;  210988: 96 → 8 → J (the rules' own example).
LIST = (
    "ECF_code;full_name;member_no;FIDE_no;gender;nation;club_code;club_name;"
    "original_standard;original_standard_category;revised_standard;revised_standard_category;"
    "original_rapid;original_rapid_category;revised_rapid;revised_rapid_category;title\n"
    "123456A;Smith, John A;ME001234;;M;ENG;ANY1;Anytown;1650;K;1662;K;1580;P;1580;P;\n"
    "111111F;Jones, Ann;;412345;F;ENG;BEE1;Beeton;2005;A;2005;A;;;;;FM\n"
    "222222M;Brown, Carl;;;M;ENG;ANY1;Anytown;1400;K;1400;K;;;;;\n"
    "210988J;Green, Dora;;;F;WLS;BEE1;Beeton;;;;;1250;K;1249;K;\n"
    "\n"
    "111111F;Jones, Ann B;;;F;ENG;BEE1;Beeton;1900;K;1900;K;;;;;\n"
)


def test_the_list_is_read_row_by_row() -> None:
    read = read_rating_list(LIST, "list.csv")
    assert read.accounting == "5 rows: 3 players, 2 refused"
    assert read.refused == (
        (4, "ECF code '222222M' fails its check letter (222222 needs 'L')"),
        (7, "ECF code 111111F is on line 3 already"),
    )
    smith = read.entries["123456A"]
    assert (smith.name, smith.member_no, smith.club_code, smith.club_name, smith.line) == (
        "Smith, John A",
        "ME001234",
        "ANY1",
        "Anytown",
        2,
    )
    assert smith.ratings["standard"] == ListRating(1650, "K", 1662, "K")
    assert smith.ratings["rapid"] == ListRating(1580, "P", 1580, "P")
    jones = read.entries["111111F"]
    assert (jones.fide_no, jones.gender, jones.title) == ("412345", "F", "FM")
    assert jones.ratings["rapid"] == ListRating()
    assert read.entries["210988J"].ratings["standard"].figure("original") == (None, None)
    assert read.lists == ("standard", "rapid")


def test_it_is_recognised_by_its_content() -> None:
    assert looks_like_rating_list(LIST)
    assert not looks_like_rating_list("Code,Name,Grade\n123456A,Smith,120\n")
    assert not looks_like_rating_list("ECF_code,full_name\n123456A,Smith\n")  # no ratings
    assert not looks_like_rating_list("\n\n")
    with pytest.raises(FormatError, match="xlgrade ratings"):
        read_any(LIST, "list.csv")


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        ("16x0", "original_standard '16x0' is not a rating"),
        ("4000", "original_standard '4000' is not a rating"),
        ("1650.5", "original_standard '1650.5' is not a rating"),
    ],
)
def test_a_bad_rating_names_the_line(cell: str, message: str) -> None:
    text = LIST.replace("Anytown;1650;K", f"Anytown;{cell};K")
    with pytest.raises(FormatError, match=f"^list.csv: line 2: {message}"):
        read_rating_list(text, "list.csv")


def test_other_faults_name_the_line() -> None:
    with pytest.raises(FormatError, match="line 2: original_standard_category 'Z9'"):
        read_rating_list(LIST.replace("1650;K;", "1650;Z9;"), "l.csv")
    with pytest.raises(FormatError, match="line 2: 18 cells, the header has 17"):
        read_rating_list(LIST.replace("Anytown;", "Anytown;;", 1), "l.csv")
    with pytest.raises(FormatError, match="not an ECF rating list"):
        read_rating_list("Code,Name\n", "l.csv")


def test_a_cell_too_long_for_csv_names_its_line() -> None:
    # Python's CSV reader takes at most 131,072 characters a cell.
    long = "x" * 140_000
    with pytest.raises(FormatError, match=r"^l\.csv: line 3: not readable as CSV: field larger"):
        read_rating_list(LIST.replace("Jones, Ann;", f"{long};", 1), "l.csv")
    # A header too long to split is no rating list's; an import says what it is not.
    assert not looks_like_rating_list(f"{long},ECF_code\n")
    with pytest.raises(FormatError, match="not an ECF rating list"):
        read_rating_list(f"{long},ECF_code\n", "l.csv")


def test_players_are_looked_up_by_code() -> None:
    read = read_rating_list(LIST, "list.csv")
    rows = [
        ("123456A", "John A Smith"),  # the same person, written the other way round
        ("111111f", "Jones, Anne"),  # a lower-case letter is the same code; another name
        ("100000H", "White, Eve"),  # 100000: 7 → H, valid but not on the list
        ("123456B", "Black, Ed"),  # wrong letter
        ("", "Grey, Fay"),
    ]
    filled = fill_ratings(rows, read)
    assert [(f.row, f.standard, f.standard_category, f.rapid, f.rapid_category) for f in
            filled.filled] == [(0, 1650, "K", 1580, "P"), (1, 2005, "A", None, None)]  # fmt: skip
    assert filled.names_differ == ((1, "Jones, Anne", "Jones, Ann"),)
    assert filled.not_on_list == ((2, "100000H", "White, Eve"),)
    assert filled.bad_code == (
        (3, "123456B", "Black, Ed", "fails its check letter (123456 needs 'A')"),
    )
    assert filled.no_code == ((4, "Grey, Fay"),)
    revised = fill_ratings(rows[:1], read, "revised")
    assert revised.filled[0].standard == 1662


def test_what_is_written_reads_back() -> None:
    read = read_rating_list(LIST, "list.csv")
    again = read_rating_list(write_rating_list(list(read.entries.values())), "again.csv")
    assert again.entries.keys() == read.entries.keys()
    for code, entry in read.entries.items():
        other = again.entries[code]
        assert (other.name, other.title, other.fide_no) == (entry.name, entry.title, entry.fide_no)
        for name, figures in entry.ratings.items():
            assert other.ratings[name] == figures
    assert write_rating_list([]).splitlines() == [",".join(HEADER)]


def test_the_generated_list_fits_its_season() -> None:
    season = generate_league()
    made = generate_rating_list(season)
    read = read_rating_list(made.text, "generated.csv")
    codes = {p.code for p in season.players if p.code}
    assert not set(made.left_out) & set(read.entries)
    assert set(made.extra) <= set(read.entries)
    assert set(read.entries) - set(made.extra) <= codes
    assert read.refused == ()
    for code in made.renamed:
        player = next(p for p in season.players if p.code == code)
        assert read.entries[code].name != player.name
    for entry in read.entries.values():
        rating = entry.ratings["standard"].original
        assert rating is not None
        assert 700 <= rating <= 3000


def test_the_example_list_is_the_generators() -> None:
    from tests.paths import EXAMPLES

    made = generate_rating_list(generate_league()).text
    assert (EXAMPLES / "ratings-2025-08.csv").read_text(encoding="utf-8") == made
