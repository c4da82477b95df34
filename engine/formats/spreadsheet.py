"""Cells a spreadsheet would run: a CSV cell starting with ``=``, ``+``, ``-`` or ``@`` (or a tab or
a carriage return) is read as a formula by Excel, LibreOffice and Google Sheets, so a token such as
``=HYPERLINK(...)`` would run when the file is opened. Such a cell is written with a single quote in
front, as spreadsheet-safe exporters do; a cell that itself starts with a quote gets one more, so
reading drops exactly one leading quote and gives back every cell as it was:

    >>> [safe_cell(c) for c in ["=1+2", "'s", "low"]]
    ["'=1+2", "''s", 'low']
    >>> [read_cell(c) for c in ["'=1+2", "''s", "low"]]
    ['=1+2', "'s", 'low']

Only text is escaped: a number written by BPE Lab (-0.5) stays a number.
"""

from __future__ import annotations

QUOTE = "'"
# what a spreadsheet takes as the start of a formula
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(text: str) -> str:
    """``text`` as a cell no spreadsheet runs; ``read_cell`` gives it back."""
    return QUOTE + text if text.startswith(FORMULA_STARTS + (QUOTE,)) else text


def read_cell(cell: str) -> str:
    """The text a ``safe_cell`` cell holds."""
    return cell[1:] if cell.startswith(QUOTE) else cell
