"""The places in the checkout the tests read: the repository, its examples, the shipped
template and the bundled real files."""

from pathlib import Path

__all__ = ["DOCS", "EXAMPLES", "ROOT", "TEMPLATE", "TRF", "TRF_SHARED"]

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
DOCS = ROOT / "docs"
TEMPLATE = ROOT / "workbook" / "xlgrade-template.xlsm"
TRF = ROOT / "tests" / "data" / "trf"
TRF_SHARED = ROOT.parent / "shared" / "data" / "trf"
