"""The same player across files: ECF codes, name forms, matching and likely duplicates."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlgrade.model import Player
from xlgrade.names import (
    canonical_code,
    likely_duplicates,
    match_players,
    name_agreement,
    names_compatible,
    split_name,
)


@pytest.mark.parametrize(
    ("a", "b", "how"),
    [
        ("Smith, John", "John Smith", "same name"),
        ("Nick Pitts-Tucker", "Pitts Tucker, Nick", "same name"),
        ("O'Brien, Sean", "OBRIEN Sean", "same name"),
        ("Smith, J A", "John Andrew Smith", "initials"),
        ("Baird McClellan", "McClellan, Baird D", "initials"),
        ("Ozan Senturk", "Senturk, N Ozan NE", "a forename left out"),
        ("Smith", "Smith, John", "surname only"),
        ("Smith, John", "Smith, James", ""),
        ("Smith, John", "Smyth, John", ""),
    ],
)
def test_how_two_names_agree(a: str, b: str, how: str) -> None:
    """docs/rules.md §14: the closest of the agreements that holds, both ways round."""
    assert name_agreement(a, b) == how
    assert name_agreement(b, a) == how


@pytest.mark.parametrize("name", ["Smith, John A.", "John A Smith", "SMITH John A", "Smith J.A."])
def test_name_forms_split_alike(name: str) -> None:
    assert split_name(name).key[0] == "smith"


def test_issue_example_names_are_one_player() -> None:
    # "Smith, John A." = "John A Smith" = "SMITH J A" where unambiguous (issue 7).
    assert split_name("Smith, John A.").key == split_name("John A Smith").key == (
        "smith", ("john", "a"),
    )  # fmt: skip
    assert split_name("SMITH J A").key == ("smith", ("j", "a"))
    assert names_compatible("Smith, John A.", "SMITH J A")
    assert not names_compatible("Smith, John", "Smith, Jane")
    assert split_name("Sarabia Utrilla, Joaquin").ecf_form == "Sarabia Utrilla, Joaquin"
    assert split_name("Núñez, José").key == ("nunez", ("jose",))


def test_code_check_letter() -> None:
    # docs/rules.md §8: 210988J is valid.
    assert canonical_code("210988j") == "210988J"
    assert canonical_code("210988K") is None
    assert canonical_code(None) is None


def test_matching_by_code_name_and_initials() -> None:
    known = (
        Player("Smith, John A.", "210988J", "Anytown"),
        Player("Brown, Ann"),
        Player("Jones, Robert"),
        Player("Jones, Richard"),
    )
    incoming = (
        Player("Someone Else", "210988J"),
        Player("Ann Brown"),
        Player("SMITH J A"),
        Player("JONES R"),
        Player("White, Tom", "210988K"),
    )
    matches = match_players(known, incoming)
    assert [(m.how, m.known.name if m.known else None) for m in matches] == [
        ("code", "Smith, John A."),
        ("name", "Brown, Ann"),
        ("initials", "Smith, John A."),
        ("none", None),
        ("none", None),
    ]
    assert matches[3].note == "2 players fit: not matched"
    assert matches[4].note == "ECF code '210988K' is not valid (check letter); matched by name"


def test_different_valid_codes_are_never_matched_by_name() -> None:
    # 123456: 7+12+15+16+15+12 = 77, 77 mod 11 = 0, letter A (docs/rules.md §8).
    known, incoming = Player("Smith, John", "210988J"), Player("John Smith", "123456A")
    (match,) = match_players((known,), (incoming,))
    assert canonical_code("123456A") == "123456A"
    assert match.known is None


def test_likely_duplicates_for_the_grader() -> None:
    players = (
        Player("Smith, John", "210988J", "Anytown"),
        Player("John Smith", "123456A", "Anytown"),
        Player("Smith, J", None, "Beeton"),
        Player("Smyth, John", None, "Anytown"),
        Player("Brown, Ann"),
    )
    found = [(d.first.name, d.second.name, d.why) for d in likely_duplicates(players)]
    assert found == [
        ("Smith, John", "John Smith", "same name and club, different ECF codes"),
        ("Smith, John", "Smith, J", "names differ only by initials"),
        ("Smith, John", "Smyth, John", "surnames differ by one letter"),
        ("John Smith", "Smith, J", "names differ only by initials"),
        ("John Smith", "Smyth, John", "surnames differ by one letter"),
    ]


def _every_pair(players: tuple[Player, ...]) -> list[tuple[int, int, str]]:
    """The pairs of ``likely_duplicates`` found the plain way: every pair with the same first
    forename initial compared."""
    from xlgrade.names import _duplicate_reason

    def initial(player: Player) -> str:
        forenames = split_name(player.name).key[1]
        return forenames[0][:1] if forenames else ""

    return [
        (i, j, why)
        for i, p in enumerate(players)
        for j in range(i + 1, len(players))
        if initial(p) == initial(players[j])
        if (why := _duplicate_reason(p, players[j]))
    ]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["Smith", "Smyth", "Smiths", "Allan", "Alan", "Browne", "O'Neil", ""]),
            st.sampled_from(["John", "J", "Jo", "Ann", "A", "J A", ""]),
            st.sampled_from([None, "210988J", "123456A", "bad"]),
            st.sampled_from(["", "Anytown", "Beeton"]),
        ),
        max_size=14,
    )
)
def test_likely_duplicates_are_the_pairs_found_comparing_every_pair(
    rows: list[tuple[str, str, str | None, str]],
) -> None:
    players = tuple(Player(f"{s}, {f}" if f else s, c, club) for s, f, c, club in rows)
    found = [(d.first, d.second, d.why) for d in likely_duplicates(players)]
    assert found == [(players[i], players[j], why) for i, j, why in _every_pair(players)]


def test_likely_duplicates_compare_only_the_pairs_that_may_be_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """2,000 players of different surnames and two a letter apart, all of the same initial:
    the one pair is compared, not the 2,002 × 2,001 / 2 of every pair."""
    from xlgrade import names

    compared: list[tuple[str, str]] = []
    reason = names._duplicate_reason

    def counted(p: Player, q: Player) -> str:
        compared.append((p.name, q.name))
        return reason(p, q)

    monkeypatch.setattr(names, "_duplicate_reason", counted)
    # Each digit of the index in base 26 doubled ("aabbcc"): two such surnames differ by two
    # letters at least, and share no surname once a letter of each is left out.
    surnames = ["".join(2 * chr(97 + i // 26**at % 26) for at in range(3)) for i in range(2_000)]
    players = (*(Player(f"{surname}, John") for surname in surnames), Player("Smyth, John"))
    players = (*players, Player("Smith, John"))
    found = likely_duplicates(players)
    assert [(d.first.name, d.second.name, d.why) for d in found] == [
        ("Smyth, John", "Smith, John", "surnames differ by one letter")
    ]
    assert len(compared) == len(found)  # each pair compared is a pair found


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=40), st.text(max_size=40))
def test_fuzz_names(a: str, b: str) -> None:
    split_name(a)
    assert names_compatible(a, b) == names_compatible(b, a)
    likely_duplicates((Player(a), Player(b)))


def test_a_namesake_at_another_club_is_not_matched() -> None:
    known = [Player("Jarvis, Robert", "470892B", club="Whinmoor"), Player("Barker, Clare H")]
    incoming = [
        Player("Jarvis, Robert", club="Elsewhere CC"),
        Player("Jarvis, Robert", club="whinmoor"),
        Player("Jarvis, Robert"),
        Player("Barker, Clare", club="Elsewhere CC"),
    ]
    found = match_players(known, incoming)
    assert [(m.how, m.known.name if m.known else None) for m in found] == [
        ("none", None),
        ("name", "Jarvis, Robert"),
        ("name", "Jarvis, Robert"),
        ("initials", "Barker, Clare H"),  # the known player names no club: nothing differs
    ]
    assert found[0].note == (
        "'Jarvis, Robert' of 'Whinmoor' fits, but this player is of 'Elsewhere CC': not matched"
    )
