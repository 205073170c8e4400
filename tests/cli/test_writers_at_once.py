"""Every pair of commands that write one book, one league folder or one output file, run at
once, each in its own forked process: the first holds the target from its reading to its
writing, the second waits for it, and the target ends as the two run one after the other
would leave it. Nothing either wrote is lost.

The first run is stopped just before it writes (its first temporary file), when it has read
the target and holds its lock; the second is started then and let run until it waits on that
lock; then the first goes on. A run that read the target before the first wrote it (outside the
lock) would write back what it read, and what the first wrote would be lost: the target would
then differ from the two runs made in turn.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
from collections.abc import Callable, Iterator
from multiprocessing.synchronize import Event
from pathlib import Path

import pytest

from tests.league import build_league
from tests.paths import ROOT, TRF
from xlgrade.cli import main
from xlgrade.formats import files
from xlgrade.workbook.inputs import book_sheets
from xlgrade.workbook.package import read_sheets

pytestmark = pytest.mark.skipif(
    sys.platform == "win32" or "fork" not in multiprocessing.get_all_start_methods(),
    reason="forked processes and POSIX file locks",
)

SMALL_TRF = TRF / "2020_06.trf"
_RATINGS = (
    (ROOT / "tests" / "data" / "ecf" / "rating-list-header-2022-10.csv").read_text(encoding="utf-8")
    + '"123456A","Smith, John",,,"M","ENG",1650,"K",1662,"K",1580,"P",1590,"P"'
    + ',"","","",""' * 4
    + ',"ANY1","Anytown",""\n'
)
"""A list in the ECF's published layout (October 2022), one player of the league on it."""

# Each writer as its command line in a place made by _place: {book}, {folder}, {out}, {list}.
_BOOK_WRITERS = {
    "import --into BOOK": ["import", str(SMALL_TRF), "--into", "{book}", "--again"],
    "ratings --into BOOK": ["ratings", "{list}", "--into", "{book}"],
    "recalc": ["recalc", "{book}"],
}
_FOLDER_WRITERS = {
    "import --into FOLDER": ["import", str(SMALL_TRF), "--into", "{folder}", "--again"],
    "ratings --into FOLDER": ["ratings", "{list}", "--into", "{folder}"],
    "export --csv FOLDER": ["export", "{book}", "--csv", "{folder}", "--force"],
}
_OUT_WRITERS = {
    "new-season BOOK OUT": ["new-season", "{book}", "{out}", "--force"],
    "recalc BOOK --out OUT": ["recalc", "{book}", "--out", "{out}", "--force"],
    "import --into BOOK --out OUT": [
        "import", str(SMALL_TRF), "--into", "{book}", "--out", "{out}", "--again", "--force",
    ],
}  # fmt: skip


def _pairs(writers: dict[str, list[str]]) -> list[tuple[str, str]]:
    return [(first, second) for first in writers for second in writers]


def _place(folder: Path) -> dict[str, str]:
    """A league book, a league folder exported from it with a tournament added, a rating list,
    an output file (there already)."""
    folder.mkdir()
    book = build_league(folder)
    (folder / "list.csv").write_text(_RATINGS, encoding="utf-8")
    league = folder / "league"
    out = folder / "out.xlsm"
    with _quiet():
        assert main(["export", str(book), "--csv", str(league)]) == 0
        # The folder then holds more than the book, so that an export over it shows.
        assert main(["import", str(SMALL_TRF), "--into", str(league)]) == 0
        assert main(["recalc", str(book), "--out", str(out)]) == 0  # one there to replace
    return {"book": str(book), "folder": str(league), "list": str(folder / "list.csv"),
            "out": str(out)}  # fmt: skip


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    with (
        open(os.devnull, "w") as null,
        contextlib.redirect_stdout(null),
        contextlib.redirect_stderr(null),
    ):
        yield


def _command(writers: dict[str, list[str]], name: str, place: dict[str, str]) -> list[str]:
    return [part.format(**place) for part in writers[name]]


def _run(command: list[str], before: Callable[[], None]) -> None:
    """The body of a forked run: ``before`` patches it, then the command; its exit code."""
    code = 99
    try:
        before()
        with _quiet():
            code = main(command)
    finally:
        os._exit(code)


def _stop_before_writing(paused: Event, go: Event) -> Callable[[], None]:
    def patch() -> None:
        real = files.new_temporary

        def stopped(target: str | os.PathLike[str]) -> tuple[int, str]:
            if not paused.is_set():
                paused.set()
                go.wait(60)
            return real(target)

        files.new_temporary = stopped

    return patch


def _say_when_waiting(waiting: Event) -> Callable[[], None]:
    def patch() -> None:
        real = files._try_lock

        def trying(handle: int) -> bool:
            taken = real(handle)
            if not taken:
                waiting.set()
            return taken

        files._try_lock = trying

    return patch


def _state(place: dict[str, str], target: str) -> object:
    """What the target holds: a book's sheets' values, a folder's files."""
    path = Path(place[target])
    if path.is_dir():
        return {p.name: p.read_bytes() for p in sorted(path.iterdir())}
    data = path.read_bytes()
    return read_sheets(data, list(book_sheets(data)))


def _in_turn(
    tmp_path: Path, writers: dict[str, list[str]], first: str, second: str
) -> dict[str, str]:
    place = _place(tmp_path / "in turn")
    for name in (first, second):
        with _quiet():
            assert main(_command(writers, name, place)) == 0, name
    return place


def _at_once(
    tmp_path: Path,
    writers: dict[str, list[str]],
    first: str,
    second: str,
    second_patch: Callable[[dict[str, str], Event], Callable[[], None]] | None = None,
) -> dict[str, str]:
    place = _place(tmp_path / "at once")
    fork = multiprocessing.get_context("fork")
    paused, go, waiting = fork.Event(), fork.Event(), fork.Event()
    patch_two = _say_when_waiting(waiting) if second_patch is None else second_patch(place, waiting)
    one = fork.Process(
        target=_run, args=(_command(writers, first, place), _stop_before_writing(paused, go))
    )
    two = fork.Process(target=_run, args=(_command(writers, second, place), patch_two))
    one.start()
    try:
        assert paused.wait(60), f"{first} did not come to its writing"
        two.start()
        # The second run waits on the first one's lock, whether it takes it before its
        # reading (as it should) or only for its writing (a run that loses the first's work).
        assert waiting.wait(60), f"{second} did not wait for {first}"
    finally:
        go.set()
        one.join(120)
        if two.pid is not None:
            two.join(120)
    assert (one.exitcode, two.exitcode) == (0, 0), (first, second)
    return place


def _check_pair(
    tmp_path: Path, writers: dict[str, list[str]], pair: tuple[str, str], target: str
) -> None:
    first, second = pair
    expected = _state(_in_turn(tmp_path, writers, first, second), target)
    got = _state(_at_once(tmp_path, writers, first, second), target)
    assert got == expected, f"{first}, then {second} at once: not as the two in turn"


@pytest.mark.parametrize("pair", _pairs(_BOOK_WRITERS), ids=" + ".join)
def test_two_writers_of_one_book_at_once_lose_nothing(
    tmp_path: Path, pair: tuple[str, str]
) -> None:
    _check_pair(tmp_path, _BOOK_WRITERS, pair, "book")


@pytest.mark.parametrize("pair", _pairs(_FOLDER_WRITERS), ids=" + ".join)
def test_two_writers_of_one_folder_at_once_lose_nothing(
    tmp_path: Path, pair: tuple[str, str]
) -> None:
    _check_pair(tmp_path, _FOLDER_WRITERS, pair, "folder")


@pytest.mark.parametrize("pair", _pairs(_OUT_WRITERS), ids=" + ".join)
def test_two_writers_of_one_output_at_once_lose_nothing(
    tmp_path: Path, pair: tuple[str, str]
) -> None:
    _check_pair(tmp_path, _OUT_WRITERS, pair, "out")


def test_the_check_sees_a_lost_write(tmp_path: Path) -> None:
    """The check itself: a ratings run that reads the book before it takes the lock (as it
    did) writes back the book it read, and the import that ran meanwhile is found lost."""
    from xlgrade.commands import ratings

    def read_early(place: dict[str, str], waiting: Event) -> Callable[[], None]:
        wait = _say_when_waiting(waiting)

        def patch() -> None:
            early = Path(place["book"]).read_bytes()  # the book before the import's writing
            real = ratings._filled_book
            ratings._filled_book = lambda book, data, *rest: real(book, early, *rest)
            wait()

        return patch

    pair = ("import --into BOOK", "ratings --into BOOK")
    expected = _state(_in_turn(tmp_path, _BOOK_WRITERS, *pair), "book")
    got = _state(_at_once(tmp_path, _BOOK_WRITERS, *pair, second_patch=read_early), "book")
    assert got != expected
    assert _games(got) == _games(expected) - 56  # the import's 56 games lost


def _games(state: object) -> int:
    assert isinstance(state, dict)
    return sum(1 for row in state["Results"][1:] if any(v is not None for v in row))
