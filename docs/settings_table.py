"""Write the settings part of docs/workbook-layout.md from the one table of settings, and its
columns part (and the Players and Results rows' lists of headers) from the schema.

    python docs/settings_table.py          # rewrite the part between its two markers
    python docs/settings_table.py --check  # exit 1, saying so, when the page is not up to date

The part is a table of every setting of :data:`xlgrade.settings.SETTINGS`, in the table's
order: its label (the Settings sheet's ``Setting`` cell and the ``settings.csv`` column), how
its cell is read, its default, what it may be, its meaning and its source. Adding a setting is
one row of ``xlgrade/settings.py``; this script then writes its line of the page
(``tests/workbook/test_layout_doc.py`` fails until it has). Likewise a column is one row of
``xlgrade/schema.py``.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xlgrade import schema, settings  # noqa: E402  (the repository's own code)

__all__ = [
    "BEGIN",
    "COLUMNS_BEGIN",
    "COLUMNS_END",
    "END",
    "PAGE",
    "columns_part",
    "main",
    "settings_part",
    "with_columns_part",
    "with_settings_part",
]

PAGE = ROOT / "docs" / "workbook-layout.md"
BEGIN = "<!-- settings: written by docs/settings_table.py from xlgrade/settings.py -->"
END = "<!-- end of settings -->"
COLUMNS_BEGIN = "<!-- columns: written by docs/settings_table.py from xlgrade/schema.py -->"
COLUMNS_END = "<!-- end of columns -->"

_SEASON_DATES = {"season_start": "1 June", "season_end": "31 May"}


def _default(spec: settings.Setting) -> str:
    """The default in words, as a blank cell reads it."""
    if spec.name in _SEASON_DATES:
        # A blank season date is the season the games were played in (settings.season_of).
        return f"{_SEASON_DATES[spec.name]} of the season of the games"
    value = spec.default
    if spec.kind == "yes/no":
        return "yes" if value else "no"
    if value is None:
        return "none"
    if value == "":
        return "blank"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _allowed(spec: settings.Setting) -> str:
    """What the cell may hold, in words."""
    if spec.choices:
        allowed = ", ".join(f"`{choice}`" for choice in spec.choices)
    elif spec.kind in ("number", "optional number", "integer") and not (
        math.isinf(spec.low) and math.isinf(spec.high)
    ):
        allowed = settings._range(spec)
    else:
        allowed = {"date": "a date", "yes/no": "yes or no", "text": "any text"}.get(
            spec.kind, "a number"
        )
    if spec.optional and spec.default is not None:
        allowed += "; `none` turns it off"
    return allowed


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def settings_part() -> str:
    """The settings part of the page, its markers included."""
    lines = [
        BEGIN,
        "",
        "| setting | read as | default | allowed | meaning | source |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for spec in settings.SETTINGS:
        label = spec.label if spec.on_sheet else f"{spec.label} (in code only, not on the sheet)"
        cells = (label, spec.kind, _default(spec), _allowed(spec), spec.meaning, spec.source)
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    lines += ["", END]
    return "\n".join(lines)


def with_settings_part(page: str) -> str:
    """``page`` with the text between its two markers replaced by :func:`settings_part`.

    Raises:
        ValueError: the page lacks a marker, or has them the wrong way round.
    """
    start, end = page.find(BEGIN), page.find(END)
    if start < 0 or end < start:
        raise ValueError(f"{PAGE.name} has no {BEGIN!r} … {END!r} part")
    return page[:start] + settings_part() + page[end + len(END) :]


def columns_part() -> str:
    """The columns part of the page, its markers included: each Players and Results column,
    its ``players.csv``/``results.csv`` name, how its cell is read, and what it holds."""
    lines = [COLUMNS_BEGIN]
    for sheet, columns in (
        (schema.PLAYERS, schema.PLAYERS_COLUMNS),
        (schema.RESULTS, schema.RESULTS_COLUMNS),
    ):
        lines += [
            "",
            f"| {sheet} column | CSV column | read as | required | meaning |",
            "| --- | --- | --- | --- | --- |",
        ]
        for c in columns:
            cells = (
                f"`{c.header}`",
                f"`{c.field}`"
                + (f" (or {', '.join(f'`{a}`' for a in c.aliases)})" if c.aliases else ""),
                schema.KINDS[c.kind].words,
                "yes" if c.required else "",
                c.help,
            )
            lines.append("| " + " | ".join(_cell(x) for x in cells) + " |")
    lines += ["", COLUMNS_END]
    return "\n".join(lines)


def with_columns_part(page: str) -> str:
    """``page`` with its columns part written (:func:`columns_part`) and the overview rows of
    Players and Results listing the schema's headers.

    Raises:
        ValueError: the page lacks a marker, or has them the wrong way round.
    """
    start, end = page.find(COLUMNS_BEGIN), page.find(COLUMNS_END)
    if start < 0 or end < start:
        raise ValueError(f"{PAGE.name} has no {COLUMNS_BEGIN!r} … {COLUMNS_END!r} part")
    page = page[:start] + columns_part() + page[end + len(COLUMNS_END) :]
    lines = page.split("\n")
    for sheet, headers in (
        (schema.PLAYERS, schema.PLAYERS_HEADERS),
        (schema.RESULTS, schema.RESULTS_HEADERS),
    ):
        for i, line in enumerate(lines):
            cells = line.split(" | ")
            if line.startswith(f"| {sheet} | ") and len(cells) > 2:
                cells[1] = ", ".join(f"`{h}`" for h in headers)
                lines[i] = " | ".join(cells)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Rewrite the page (or, with ``--check``, say whether it is up to date)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check; exit 1 if stale")
    args = parser.parse_args(argv)
    page = PAGE.read_text(encoding="utf-8")
    written = with_columns_part(with_settings_part(page))
    if args.check:
        if written != page:
            print(
                f"{PAGE}: the settings or columns part is out of date: "
                "python docs/settings_table.py"
            )
            return 1
        return 0
    if written != page:
        PAGE.write_text(written, encoding="utf-8")
        print(f"wrote the settings and columns parts of {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
