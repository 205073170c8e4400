"""The ECF's rating list CSV (:mod:`xlgrade.formats.ratinglist`): reading it in both of its
layouts, recognising it by content, and looking Players rows up on it. The header of the
October 2022 layout is the ECF's published one (tests/data/ecf/, from three public readers of
the file); the older layout's is RogerMarsh/chessreports' ``PLAYERS_RATINGS_COLUMN_NAMES_
ORIGINAL``. The rows are made up, and the codes' check letters are worked out in the comments by
the rule of docs/rules.md §8."""

from __future__ import annotations

import pytest

from tests.paths import ROOT
from xlgrade.errors import FormatError
from xlgrade.formats.detect import decode, read_any
from xlgrade.formats.ratinglist import (
    HEADER,
    LAYOUT_ORIGINAL,
    ListRating,
    fill_ratings,
    looks_like_rating_list,
    read_rating_list,
    write_rating_list,
)
from xlgrade.generate import generate_league, generate_rating_list

PUBLISHED = (ROOT / "tests" / "data" / "ecf" / "rating-list-header-2022-10.csv").read_text(
    encoding="utf-8"
)
"""The ECF's header line, quoted, as published (with ``title``, added May 2024)."""
ORIGINAL_HEADER = (
    "ECF_code,full_name,member_no,FIDE_no,gender,nation,original_standard,revised_standard,"
    "standard_category,original_rapid,revised_rapid,rapid_category,original_standard_online,"
    "revised_standard_online,original_rapid_online,revised_rapid_online,original_blitz_online,"
    "revised_blitz_online,club_code,club_name\n"
)


def _row(**cells: object) -> str:
    """A data row under the published header: the cells named, the others blank; text
    quoted, numbers bare, as the ECF writes them."""
    header = [h.strip('"') for h in PUBLISHED.strip().split(",")]
    unknown = set(cells) - set(header)
    assert not unknown, unknown
    return (
        ",".join(
            str(v) if isinstance(v, int) else f'"{v}"' for v in (cells.get(h, "") for h in header)
        )
        + "\n"
    )


# Check letters, "ABCDEFGHJKL"[(7·d1 + 6·d2 + 5·d3 + 4·d4 + 3·d5 + 2·d6) mod 11]:
# 123456: 7 + 12 + 15 + 16 + 15 + 12 = 77 → 0 → A;  111111: 27 → 5 → F;
# 222222: 54 → 10 → L;  210988: 96 → 8 → J (the rules' own example).
SMITH: dict[str, object] = {
    "ECF_code": "123456A", "full_name": "Smith, John A", "member_no": 101234, "gender": "M",
    "nation": "ENG", "original_standard": 1650, "standard_original_category": "K",
    "revised_standard": 1662, "standard_revised_category": "K", "original_rapid": 1580,
    "rapid_original_category": "P", "revised_rapid": 1580, "rapid_revised_category": "P",
    "original_blitz": 1490, "blitz_original_category": "P", "revised_blitz": 1502,
    "blitz_revised_category": "P", "original_standard_online": 1700,
    "standard_online_original_category": "K", "club_code": "ANY1", "club_name": "Anytown",
}  # fmt: skip
LIST = (
    PUBLISHED
    + _row(**SMITH)
    + _row(
        ECF_code="111111F", full_name="Jones, Ann", FIDE_no=412345, gender="F", nation="ENG",
        original_standard=2005, standard_original_category="A", revised_standard=2005,
        standard_revised_category="A", club_code="BEE1", club_name="Beeton", title="FM",
    )
    + _row(ECF_code="222222M", full_name="Brown, Carl", original_standard=1400)
    + _row(
        ECF_code="210988J", full_name="Green, Dora", gender="F", nation="WLS",
        original_rapid=1250, rapid_original_category="K", revised_rapid=1249,
        rapid_revised_category="K", club_code="BEE1", club_name="Beeton",
    )
    + "\n"
    + _row(ECF_code="111111F", full_name="Jones, Ann B", original_standard=1900)
)  # fmt: skip


def test_the_list_is_read_row_by_row() -> None:
    read = read_rating_list(LIST, "list.csv")
    assert read.accounting == "5 rows: 3 players, 2 refused"
    assert read.layout == "October 2022"
    assert read.ignored == ()
    assert read.refused == (
        (4, "ECF code '222222M' fails its check letter (222222 needs 'L')"),
        (7, "ECF code 111111F is on line 3 already"),
    )
    smith = read.entries["123456A"]
    assert (smith.name, smith.member_no, smith.club_code, smith.club_name, smith.line) == (
        "Smith, John A",
        "101234",
        "ANY1",
        "Anytown",
        2,
    )
    assert smith.ratings["standard"] == ListRating(1650, "K", 1662, "K")
    assert smith.ratings["rapid"] == ListRating(1580, "P", 1580, "P")
    assert smith.ratings["blitz"] == ListRating(1490, "P", 1502, "P")
    assert smith.ratings["standard_online"] == ListRating(1700, "K")
    jones = read.entries["111111F"]
    assert (jones.fide_no, jones.gender, jones.title) == ("412345", "F", "FM")
    assert jones.ratings["rapid"] == ListRating()
    assert read.entries["210988J"].ratings["standard"].figure("original") == (None, None)
    assert read.lists == (
        "standard", "rapid", "blitz", "standard_online", "rapid_online", "blitz_online"
    )  # fmt: skip


def test_the_older_layout_has_one_category_a_list() -> None:
    text = (
        ORIGINAL_HEADER
        + '"123456A","Smith, John A",101234,,"M","ENG",1650,1662,"K",1580,1590,"P",1700,1710,'
        ',,,,"ANY1","Anytown"\n'
    )
    assert ORIGINAL_HEADER.strip().split(",") == list(LAYOUT_ORIGINAL)
    read = read_rating_list(text, "old.csv")
    assert read.layout == "original"
    smith = read.entries["123456A"]
    # The one category is both figures'; the online lists have none, and there is no blitz.
    assert smith.ratings["standard"] == ListRating(1650, "K", 1662, "K")
    assert smith.ratings["rapid"] == ListRating(1580, "P", 1590, "P")
    assert smith.ratings["standard_online"] == ListRating(1700, None, 1710, None)
    assert "blitz" not in smith.ratings
    assert read.lists == ("standard", "rapid", "standard_online", "rapid_online", "blitz_online")


def test_a_file_from_before_the_title_column_and_with_a_column_more() -> None:
    header = PUBLISHED.strip().removesuffix(',"title"') + ',"region"\n'
    row = _row(**SMITH).strip().removesuffix(',""') + ',"North"\n'
    read = read_rating_list(header + row, "list.csv")
    assert read.layout == "October 2022"
    assert read.ignored == ("region",)
    assert read.entries["123456A"].title == ""
    assert read.entries["123456A"].ratings["rapid"] == ListRating(1580, "P", 1580, "P")


@pytest.mark.parametrize(
    "data",
    [
        LIST.encode("utf-8"),
        b"\xef\xbb\xbf" + LIST.encode("utf-8"),
        LIST.replace("Smith, John A", "Smith, Zoë").encode("cp1252"),
    ],
    ids=["utf-8", "utf-8 with BOM", "cp1252"],
)
def test_its_encodings(data: bytes) -> None:
    read = read_rating_list(decode(data), "list.csv")
    assert read.layout == "October 2022"
    assert read.entries["123456A"].name in ("Smith, John A", "Smith, Zoë")
    assert read.entries["123456A"].ratings["standard"].original == 1650


def test_an_unknown_layout_names_the_columns_found() -> None:
    invented = (
        "ECF_code,full_name,original_standard,original_standard_category\n"
        '123456A,"Smith, John",1650,K\n'
    )
    with pytest.raises(FormatError) as caught:
        read_rating_list(invented, "list.csv")
    message = str(caught.value)
    assert message.startswith(
        "list.csv: line 1: the header is neither of the ECF rating list's layouts: its columns "
        "are ECF_code, full_name, original_standard, original_standard_category; the "
    )
    assert "would also need member_no, FIDE_no" in message


def test_it_is_recognised_by_its_content() -> None:
    assert looks_like_rating_list(LIST)
    assert looks_like_rating_list(ORIGINAL_HEADER)
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
        ("-3501", "original_standard '-3501' is not a rating"),
    ],
)
def test_a_bad_rating_names_the_line(cell: str, message: str) -> None:
    text = LIST.replace('"ENG",1650,', f'"ENG",{cell},')
    with pytest.raises(FormatError, match=f"^list.csv: line 2: {message}"):
        read_rating_list(text, "list.csv")


def test_other_faults_name_the_line() -> None:
    with pytest.raises(
        FormatError,
        match=r"line 2: standard_original_category 'Z9' is not a rating category \(A, K, P or H\)",
    ):
        read_rating_list(LIST.replace('1650,"K"', '1650,"Z9"'), "l.csv")
    with pytest.raises(FormatError, match="line 2: 34 cells, the header has 33"):
        read_rating_list(LIST.replace('"Anytown",', '"Anytown",,', 1), "l.csv")
    with pytest.raises(FormatError, match="not an ECF rating list"):
        read_rating_list("Code,Name\n", "l.csv")


def test_a_cell_too_long_for_csv_names_its_line() -> None:
    # Python's CSV reader takes at most 131,072 characters a cell.
    long = "x" * 140_000
    with pytest.raises(FormatError, match=r"^l\.csv: line 3: not readable as CSV: field larger"):
        read_rating_list(LIST.replace("Jones, Ann", long, 1), "l.csv")
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
    assert [(f.row, f.standard, f.standard_category, f.rapid, f.rapid_category, f.blitz,
             f.blitz_category) for f in filled.filled] == [
        (0, 1650, "K", 1580, "P", 1490, "P"), (1, 2005, "A", None, None, None, None)
    ]  # fmt: skip
    assert filled.names_differ == ((1, "Jones, Anne", "Jones, Ann"),)
    assert filled.not_on_list == ((2, "100000H", "White, Eve"),)
    assert filled.bad_code == (
        (3, "123456B", "Black, Ed", "fails its check letter (123456 needs 'A')"),
    )
    assert filled.no_code == ((4, "Grey, Fay"),)
    assert filled.by_category("standard") == {"A": 1, "K": 1, "P": 0, "none": 0, "no rating": 0}
    assert filled.by_category("rapid") == {"A": 0, "K": 0, "P": 1, "none": 0, "no rating": 1}
    revised = fill_ratings(rows[:1], read, "revised")
    assert (revised.filled[0].standard, revised.filled[0].blitz) == (1662, 1502)


def test_a_category_h_is_filled_as_k() -> None:
    # H: a rating carried over from the 2020 grades, updated by the K method (ended Dec 2022).
    read = read_rating_list(LIST.replace('1650,"K"', '1650,"H"'), "list.csv")
    assert read.entries["123456A"].ratings["standard"].original_category == "H"
    filled = fill_ratings([("123456A", "Smith, John A")], read)
    assert filled.filled[0].standard_category == "K"


def test_what_is_written_reads_back() -> None:
    read = read_rating_list(LIST, "list.csv")
    text = write_rating_list(list(read.entries.values()))
    assert text.splitlines()[0] == PUBLISHED.strip()
    assert text.splitlines()[1] == _row(**SMITH).strip()
    again = read_rating_list(text, "again.csv")
    assert again.entries.keys() == read.entries.keys()
    for code, entry in read.entries.items():
        other = again.entries[code]
        assert (other.name, other.title, other.fide_no, other.member_no) == (
            entry.name, entry.title, entry.fide_no, entry.member_no
        )  # fmt: skip
        for name, figures in entry.ratings.items():
            assert other.ratings[name] == figures
    assert write_rating_list([]).splitlines() == [",".join(f'"{h}"' for h in HEADER)]


def test_the_generated_list_fits_its_season() -> None:
    season = generate_league()
    made = generate_rating_list(season)
    assert made.text.splitlines()[0] == PUBLISHED.strip()
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
        assert entry.member_no == "" or entry.member_no.isdigit()
    assert {e.ratings["standard"].original_category for e in read.entries.values()} >= {"K", "P"}
    assert any(e.ratings["blitz"].original is not None for e in read.entries.values())


def test_the_example_list_is_the_generators() -> None:
    from tests.paths import EXAMPLES

    made = generate_rating_list(generate_league()).text
    assert (EXAMPLES / "ratings-2025-08.csv").read_text(encoding="utf-8") == made
