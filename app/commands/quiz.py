"""``bpe-lab quiz check FILE [--json]``: check a quiz pack before class.

Lists every question that loads and every problem found. Exit status 0 when at least one question
loads, 2 when none does (the pack would give an empty quiz), with one line saying so on stderr.
"""

from __future__ import annotations

import json
import sys

from app.cli import EXIT_BAD_INPUT


def add_parser(sub) -> None:
    p = sub.add_parser("quiz", help="work with quiz packs")
    actions = p.add_subparsers(dest="quiz_command", metavar="ACTION", required=True, parser_class=type(p))
    check = actions.add_parser("check", help="list a pack's questions and every problem in it")
    check.add_argument("file", metavar="FILE", help="a quiz pack: BPE Lab JSON or concept-page Markdown")
    check.add_argument("--json", action="store_true", help="print the findings as JSON")


def summary(question) -> dict:
    """What ``--json`` reports per question: its kind, id, prompt, the shape of its answer and the
    answer itself (a number; the correct options' texts; the accepted answers per gap; the items in order)."""
    # the parsers (help) load no quiz
    from engine.quiz.questions import ChooseQuestion, FillQuestion, NumberQuestion, OrderQuestion

    entry = {"kind": question.kind, "id": question.id, "title": question.title, "prompt": question.prompt}
    if isinstance(question, NumberQuestion):
        entry["answer"] = question.answer
        if question.tolerance:
            entry["tolerance"] = question.tolerance
    elif isinstance(question, ChooseQuestion):
        entry["multiple"] = question.multiple
        entry["options"] = len(question.options)
        entry["answer"] = [o.text for o in question.options if o.correct]
    elif isinstance(question, FillQuestion):
        entry["text"] = question.text
        entry["blanks"] = len(question.blanks)
        entry["answer"] = [list(accepted) for accepted in question.blanks]
    elif isinstance(question, OrderQuestion):
        entry["items"] = len(question.items)
        entry["answer"] = list(question.items)
    if question.purpose:
        entry["purpose"] = question.purpose
    return entry


def describe(question) -> str:
    # the parsers (help) load no quiz
    from engine.quiz.grading import format_number
    from engine.quiz.questions import ChooseQuestion, FillQuestion, NumberQuestion, OrderQuestion

    if isinstance(question, NumberQuestion):
        shape = f"number, answer {format_number(question.answer)}"
        if question.tolerance:
            shape += f" ± {format_number(question.tolerance)}"
    elif isinstance(question, ChooseQuestion):
        shape = f"choose {'many' if question.multiple else 'one'} of {len(question.options)}"
    elif isinstance(question, FillQuestion):
        shape = f"fill {len(question.blanks)} gap{'s' if len(question.blanks) != 1 else ''}"
    elif isinstance(question, OrderQuestion):
        shape = f"order {len(question.items)} items"
    else:
        shape = question.kind
    title = question.title or next(iter(question.prompt.splitlines()), "")[:60]
    return f"{question.id} ({shape}): {title}"


def run(args) -> int:
    from engine.quiz.load import load_pack  # the parsers (help) load no quiz

    pack = load_pack(args.file)
    if args.json:
        print(json.dumps({
            "questions": [summary(q) for q in pack.questions],
            "misconceptions": list(pack.misconceptions),
            "examples": [{"id": e.id, "title": e.title, "steps": len(e.steps)} for e in pack.examples],
            "readings": [{"id": r.id, "title": r.title} for r in pack.readings],
            "errors": list(pack.errors),
        }, ensure_ascii=False, indent=1))
    else:
        print(f"{args.file}: {len(pack.questions)} question{'s' if len(pack.questions) != 1 else ''}, "
              f"{len(pack.misconceptions)} misconception{'s' if len(pack.misconceptions) != 1 else ''}, "
              f"{len(pack.examples)} worked example{'s' if len(pack.examples) != 1 else ''}, "
              f"{len(pack.readings)} reading{'s' if len(pack.readings) != 1 else ''}, "
              f"{len(pack.errors)} problem{'s' if len(pack.errors) != 1 else ''}")
        for n, q in enumerate(pack.questions, start=1):
            print(f"  {n:>3}. {describe(q)}")
        for m in pack.misconceptions.values():
            print(f"  misconception {m.id}: {m.title}")
        for e in pack.examples:
            print(f"  worked example {e.id}: {e.title} ({len(e.steps)} steps)")
        for r in pack.readings:
            print(f"  reading {r.id}: {r.title}")
        for error in pack.errors:
            print(f"  problem: {error}")
    if not pack.questions:
        print(f"bpe-lab: {args.file}: no question loaded" + (": fix the problems listed" if pack.errors else ""),
              file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0
