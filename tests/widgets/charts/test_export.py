"""A chart's numbers as CSV: text a spreadsheet would run is quoted, numbers stay numbers."""

import csv

from engine.formats.spreadsheet import read_cell
from widgets.charts.export import export_rows


def test_a_pair_that_spells_a_formula_is_quoted_and_a_negative_number_is_not(tmp_path):
    rows = [{"left": "=HYPERLINK(\"http://x\")", "right": "'s", "pair": "-1 @x", "count": 3, "change": -0.5,
             "held_out": None},
            {"left": "low", "right": "\tx", "pair": "+", "count": -2, "change": 0.25, "held_out": 7}]
    path = tmp_path / "pairs.csv"
    export_rows(rows, str(path))
    with path.open(encoding="utf-8", newline="") as f:
        written = list(csv.DictReader(f))
    assert [(r["left"], r["right"], r["pair"]) for r in written] == [
        ("'=HYPERLINK(\"http://x\")", "''s", "'-1 @x"), ("low", "'\tx", "'+"),
    ]
    assert [(r["count"], r["change"], r["held_out"]) for r in written] == [("3", "-0.5000", ""), ("-2", "0.2500", "7")]
    assert [read_cell(r["left"]) for r in written] == ["=HYPERLINK(\"http://x\")", "low"]
    assert read_cell(written[0]["right"]) == "'s"
