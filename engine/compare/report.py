"""A compare report in words a student reads, as JSON data, and as one row of a grading sheet.

The first difference comes first and in a few lines: the step, each list's pair with its count,
the counts at that step and where they come from, the ties, and what explains the difference.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

from engine.algorithm.settings import Settings
from engine.formats.spreadsheet import safe_cell
from engine.compare.walk import REAL, Counted, Difference, Explanation, FirstDifference, Report
from engine.readable.display import for_settings

Pair = tuple[str, str]
# later differences listed in words (the JSON holds them all)
LATER_SHOWN = 5
# words a count comes from, and the characters of each, shown in words
SOURCES_SHOWN = 4
WORD_SHOWN = 16
CSV_HEADER = ("file", "shape", "steps matched", "lesson merges", "file merges", "first difference", "diagnosis",
              "later differences")


def _pair(settings: Settings, pair: Pair | None) -> str:
    return "nothing" if pair is None else for_settings(settings).pair(pair)


def _times(count: int | None) -> str:
    if count is None:
        return ""
    return " (does not occur)" if count == 0 else f" ({count} time{'s' if count != 1 else ''})"


def _sources(settings: Settings, counted: Counted) -> str:
    """The words the count comes from, those that give most first."""
    shown = for_settings(settings)
    biggest = sorted(counted.sources, key=lambda s: -s[1] * s[2])
    parts = [(f"{n} in " if n > 1 else "") + f"{_short(shown.token(word))}×{freq}" for word, n, freq in biggest[:SOURCES_SHOWN]]
    more = len(biggest) - SOURCES_SHOWN
    return ", ".join(parts) + (f" and {more} more word{'s' if more != 1 else ''}" if more > 0 else "")


def _short(word: str) -> str:
    return word if len(word) <= WORD_SHOWN else word[: WORD_SHOWN - 1] + "…"


def _first_lines(settings: Settings, first: FirstDifference) -> list[str]:
    lines = [f"They part at step {first.step}:"]
    if first.ours is None:
        lines.append(f"  the lesson stops there ({first.stop_reason}); the list merges "
                     f"{_pair(settings, first.theirs)}{_times(first.their_count)}.")
    elif first.theirs is None:
        lines.append(f"  the list stops there; the lesson merges {_pair(settings, first.ours)}{_times(first.our_count)}.")
    else:
        lines.append(f"  the lesson merges {_pair(settings, first.ours)}{_times(first.our_count)}; "
                     f"the list merges {_pair(settings, first.theirs)}{_times(first.their_count)}.")
    if first.top:
        lines.append(f"  Pairs counted at step {first.step}:")
        width = max(len(_pair(settings, c.pair)) for c in first.top)
        for c in first.top:
            where = f"from {_sources(settings, c)}" if c.sources else "(does not occur)"
            lines.append(f"    {_pair(settings, c.pair):<{width}}  {c.count:>5}  {where}")
    if len(first.ties) > 1:
        lines.append(f"  Tied at the top: {', '.join(_pair(settings, p) for p in first.ties)}.")
    lines.append(f"  Why: {_why(first)}")
    return lines


def _why(first: FirstDifference) -> str:
    found = first.explained_by
    if found:
        named = "; ".join(e.says for e in found)
        return f"{named}: re-training so makes the whole list."
    partly = first.explains_step
    if partly:
        named = "; ".join(f"{e.says} (parts again at step {e.parts_at})" for e in partly)
        return f"{REAL}: no tie rule or common mistake makes the whole list; closest: {named}."
    return f"{REAL}: no tie rule or common mistake tried makes this list."


def _later(settings: Settings, d: Difference) -> str:
    if d.theirs is None:
        return f"  step {d.step}: {d.says} (the lesson would merge {_pair(settings, d.ours)})"
    if d.ours is None:
        return f"  step {d.step}: {_pair(settings, d.theirs)}: {d.says}"
    counts = (f" ({d.count or 'no'} time{'s' if d.count != 1 else ''}, where the most is {d.best})"
              if d.verdict == REAL and d.count != d.best else "")
    return (f"  step {d.step}: {_pair(settings, d.theirs)} where the lesson takes {_pair(settings, d.ours)}: "
            f"{d.says}{counts}")


def report_lines(report: Report, settings: Settings) -> list[str]:
    """The report as lines of text, the first difference first."""
    what = f"{report.source} ({report.kind}, {report.their_merges} merges)" if report.kind else report.source
    lines = [f"{what} against the lesson ({report.lesson_merges} merges, ties: {report.tie_rule})"]
    if report.first is None:
        lines.append(f"identical: all {report.lesson_merges} merges match, in order")
        return lines
    lines.append({0: "The first merge already differs.", 1: "Step 1 matches."}.get(
        report.matched, f"Steps 1 to {report.matched} match."))
    lines += _first_lines(settings, report.first)
    later = report.differences[1:]
    if later:
        lines.append("After that, the list followed on its own corpus (where it lines up with the lesson's again, "
                     "no difference):")
        lines += [_later(settings, d) for d in later[:LATER_SHOWN]]
        if len(later) > LATER_SHOWN:
            lines.append(f"  and {len(later) - LATER_SHOWN} more differences")
    return lines


def _json_pair(pair: Pair | None) -> list[str] | None:
    return None if pair is None else [pair[0], pair[1]]


def report_data(report: Report) -> dict[str, Any]:
    """The report as JSON data (pairs as two-string lists, a missing pair as null)."""
    data: dict[str, Any] = {
        "file": report.source, "shape": report.kind, "lesson_merges": report.lesson_merges,
        "file_merges": report.their_merges, "steps_matched": report.matched, "identical": report.identical,
        "tie_rule": report.tie_rule, "diagnosis": report.diagnosis, "first_difference": None,
        "differences": [{"step": d.step, "lesson": _json_pair(d.ours), "file": _json_pair(d.theirs),
                         "verdict": d.says, "rules": list(d.rules), "count": d.count, "best": d.best}
                        for d in report.differences],
    }
    first = report.first
    if first is not None:
        data["first_difference"] = {
            "step": first.step, "lesson": _json_pair(first.ours), "file": _json_pair(first.theirs),
            "lesson_count": first.our_count, "file_count": first.their_count, "stop_reason": first.stop_reason,
            "top_pairs": [{"pair": _json_pair(c.pair), "count": c.count,
                           "from": [{"word": w, "occurrences": n, "frequency": f} for w, n, f in c.sources]}
                          for c in first.top],
            "ties": [_json_pair(p) for p in first.ties],
            "tried": [{"kind": e.kind, "name": e.name, "reproduces": e.reproduces, "parts_at": e.parts_at}
                      for e in first.tried],
        }
    return data


def csv_row(report: Report, settings: Settings) -> tuple[str, ...]:
    """One row of a grading sheet, in ``CSV_HEADER``'s order."""
    first = report.first
    where = "" if first is None else (f"step {first.step}: lesson {_pair(settings, first.ours)}, "
                                      f"file {_pair(settings, first.theirs)}")
    later = len(report.differences) - 1 if report.differences else 0
    return (report.source, report.kind, str(report.matched), str(report.lesson_merges), str(report.their_merges),
            where, report.diagnosis, str(max(0, later)))


def unreadable_row(source: str, reason: str) -> tuple[str, ...]:
    """The row of a submission that could not be read: its reason where the diagnosis goes."""
    return (source, "", "", "", "", "", f"unreadable: {reason}", "")


def csv_text(rows: Iterable[tuple[str, ...]]) -> str:
    """The grading sheet: its header, then the rows, each text cell safe from spreadsheet formulas."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for row in rows:
        writer.writerow([cell if cell.isdigit() else safe_cell(cell) for cell in row])
    return out.getvalue()


def _said(found: tuple[Explanation, ...]) -> str:
    """What makes the list, the tie rules named together: "breaking ties by rule hf or smallest"."""
    rules = [e.name for e in found if e.kind == "tie rule"]
    said = [f"breaking ties by rule {' or '.join(rules)}"] if rules else []
    return " or ".join(said + [e.says for e in found if e.kind != "tie rule"])


def summary(report: Report, settings: Settings) -> str:
    """The report in one sentence a student reads: identical, or where the lists part and why."""
    first = report.first
    if first is None:
        return f"Your list is identical to the lesson's: all {report.lesson_merges} merges match, in order."
    where = f"Your list parts from the lesson at step {first.step}"
    if first.ours is None:
        what = f"where the lesson stops ({first.stop_reason}) but your list merges {_pair(settings, first.theirs)}"
    elif first.theirs is None:
        what = f"where your list stops but the lesson merges {_pair(settings, first.ours)}{_times(first.our_count)}"
    else:
        what = (f"where the lesson merges {_pair(settings, first.ours)}{_times(first.our_count)} and your list "
                f"merges {_pair(settings, first.theirs)}{_times(first.their_count)}")
    found = first.explained_by
    if found:
        why = f"{_said(found)} makes your whole list"
    elif report.differences and report.differences[0].rules:
        why = f"that is the {report.differences[0].says}, but no tie rule or common mistake makes your whole list"
    else:
        why = "a real difference: no tie rule or common mistake makes your list"
    return f"{where}, {what}: {why}."
