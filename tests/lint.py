"""Ruff run on a probe source, for the tests of the layers' import rules (pyproject.toml,
xlgrade/formats/ruff.toml)."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.paths import ROOT


def banned_imports(path: str, source: str) -> list[str]:
    """The banned-import findings (``TID251``) ruff, with the repository's configuration, gives
    for ``source`` as the file ``path`` of the repository."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--select", "TID251",
         "--output-format", "concise", "--stdin-filename", path, "-"],
        input=source, capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    return re.findall(r"TID251", done.stdout)
