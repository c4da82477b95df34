"""A vote session's results as CSV: one row per answer counted in each round of each question.

    question,question_id,round,option,count,correct
    Which pair merges next?,merge-1,1,e + s,14,yes
    Which pair merges next?,merge-1,1,s + t,9,no

Counts only: no voter token, no address, no time, so the file can be shared. ``question_id`` tells
apart questions whose prompt is the same sentence (every predict-first question asks the same). An
answer a student typed (a fill answer "=HYPERLINK(...)") is written with a quote in front so no
spreadsheet runs it as a formula: the same guard as the vocabulary CSV, written again here because the
vote package reads nothing of the formats.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.files.writing import write_atomic

COLUMNS = ("question", "question_id", "round", "option", "count", "correct")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "'")
# a plain number starting with a sign is a value to a spreadsheet, not a formula
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


@dataclass(frozen=True, slots=True)
class ResultRow:
    question: str  # the prompt
    qid: str
    round: int
    option: str  # the option's label, or the answer given
    count: int
    correct: bool


def _cell(text: str) -> str:
    if text.startswith(_FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def results_csv(rows: Sequence[ResultRow]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for r in rows:
        writer.writerow([_cell(r.question), _cell(r.qid), r.round, _cell(r.option), r.count,
                         "yes" if r.correct else "no"])
    return out.getvalue()


def write_results(path: str | os.PathLike[str], rows: Sequence[ResultRow]) -> None:
    write_atomic(path, results_csv(rows))
