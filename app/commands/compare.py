"""``bpe-lab compare CORPUS MERGES [train options] [--json]``: anyone's merge list beside the lesson.

CORPUS is a text, word counts (``--word-counts``) or a ``.bpelab`` lesson file: then the lesson's
text or word counts and its settings, each train option given on the command line overriding.
MERGES is one merge list (any shape ``engine.compare.merge_lists`` reads, a GPT-2 folder included)
or a folder of them: then every file in it is graded, one row each (``--csv``), and a file that
cannot be read gets its reason in its row while the others go on.

Exit status: 0 when the list is identical to the lesson's (and for a folder graded to the end), 1
when it differs, 2 for bad input.
"""

from __future__ import annotations

import json
import os
import sys

from app.cli import keep_until_exit
from app.commands.common import non_negative, positive, read_corpus_text, utf8_text
from engine.algorithm.ranking import TIE_BREAKS
from engine.errors import BpeLabError, InternalError, one_line

EXIT_DIFFERENT = 1


def add_parser(sub) -> None:
    p = sub.add_parser("compare", help="walk anyone's merge list beside the lesson: where they part, and why")
    p.add_argument("corpus", metavar="CORPUS",
                   help="the lesson's UTF-8 text file, a .bpelab lesson file (its settings, the options below "
                        "overriding), or - for standard input")
    p.add_argument("merge_list", metavar="MERGES",
                   help="merges.txt, a vocab.json + merges.txt folder, tokenizer.json, a BPE Lab file, a minbpe "
                        ".model, a .tiktoken, a JSON list of pairs or of merged tokens; or a folder of them to grade")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--csv", metavar="RESULTS.csv", help="grading a folder: write one row per file here (- prints it)")
    # every train option defaults to None, "not given", so that a lesson file's own setting stands
    p.add_argument("--word-counts", action="store_true", help="CORPUS holds a word and its count a line: 'low 5'")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--merges", type=non_negative, metavar="N", help="the lesson stops after N merges")
    size.add_argument("--vocab-size", type=positive, metavar="V", help="the lesson stops at a vocabulary of V tokens")
    p.add_argument("--min-frequency", type=positive, metavar="F",
                   help="the lesson stops when the best pair occurs fewer than F times (default 2)")
    p.add_argument("--split", choices=("whitespace", "gpt2", "gpt4", "none"), help="(default whitespace)")
    p.add_argument("--units", choices=("chars", "bytes"), help="(default chars)")
    marker = p.add_mutually_exclusive_group()
    marker.add_argument("--end-of-word", metavar="STR", type=utf8_text,
                        help="end-of-word marker (default </w> for whitespace + chars)")
    marker.add_argument("--no-end-of-word", action="store_true", help="no end-of-word marker")
    p.add_argument("--lowercase", action="store_const", const=True)
    p.add_argument("--tie-break", choices=TIE_BREAKS, help="how the lesson breaks ties (default first)")
    p.add_argument("--special", action="append", metavar="TOKEN", type=utf8_text,
                   help="a special token (repeatable)")


def settings_given(args, base):
    """``base`` (a lesson file's settings, or the defaults) with each train option given replacing its own."""
    from dataclasses import replace

    given = {name: getattr(args, name) for name in ("split", "units", "lowercase", "min_frequency", "tie_break")
             if getattr(args, name) is not None}
    if args.merges is not None or args.vocab_size is not None:  # one stopping rule replaces the other
        given.update(merges=args.merges, vocab_size=args.vocab_size)
    if args.no_end_of_word:
        given["end_of_word"] = None
    elif args.end_of_word is not None:
        given["end_of_word"] = args.end_of_word
    if args.special is not None:
        given["special_tokens"] = tuple(args.special)
    return replace(base, **given)


def _training(args):
    from engine.algorithm.settings import Settings
    from engine.compare.mistakes import Training
    from engine.formats.lesson_file import SUFFIX, load_lesson

    if args.corpus.lower().endswith(SUFFIX):
        if args.word_counts:
            raise BpeLabError(f"the lesson file {args.corpus} says itself whether it holds word counts: "
                              "leave --word-counts out")
        lesson = load_lesson(args.corpus)
        text, word_counts, base = lesson.text, lesson.word_counts, lesson.settings
    else:
        text, word_counts, base = read_corpus_text(args.corpus), args.word_counts, Settings()
    training = Training(text, word_counts, settings_given(args, base))
    if training.corpus().is_empty:
        raise BpeLabError(f"the corpus {args.corpus} is empty (no words): give some training text")
    return training


def _one(path: str, training, lesson, retrained):
    """The report for one merge list."""
    from engine.compare.merge_lists import pairs_of, read_merge_list
    from engine.compare.walk import compare

    found = read_merge_list(path, training.settings)
    pairs = pairs_of(found, list(lesson.history.base))
    return compare(training, pairs, path, found.kind, lesson, retrained)


def _is_batch(path: str) -> bool:
    """A folder of submissions, not one GPT-2 folder (which holds a merges.txt)."""
    return os.path.isdir(path) and not os.path.isfile(os.path.join(path, "merges.txt"))


def _submissions(folder: str) -> list[str]:
    names = sorted(n for n in os.listdir(folder) if not n.startswith("."))
    paths = [os.path.join(folder, n) for n in names]
    return [p for p in paths if os.path.isfile(p) or os.path.isfile(os.path.join(p, "merges.txt"))]


def _bar(done: int, total: int, name: str) -> None:
    filled = done * 30 // total if total else 30
    sys.stderr.write(f"\rgrading [{'#' * filled}{'.' * (30 - filled)}] {done}/{total} {name[:30]:<30}")
    sys.stderr.flush()


def _grade(args, training, lesson, retrained) -> int:
    from engine.compare.report import csv_row, csv_text, report_data, unreadable_row

    paths = _submissions(args.merge_list)
    if not paths:
        raise BpeLabError(f"{args.merge_list} holds no merge files to grade")
    rows, data = [], []
    for i, path in enumerate(paths):
        _bar(i, len(paths), os.path.basename(path))
        name = os.path.relpath(path, args.merge_list)
        try:
            report = _one(path, training, lesson, retrained)
        except InternalError:
            raise
        except BpeLabError as exc:
            reason = one_line(str(exc))
            rows.append(unreadable_row(name, reason))
            data.append({"file": name, "unreadable": reason})
            continue
        rows.append((name, *csv_row(report, training.settings)[1:]))
        data.append({**report_data(report), "file": name})
    _bar(len(paths), len(paths), "")
    sys.stderr.write("\n")
    sheet = csv_text(rows)
    if args.csv and args.csv != "-":
        from engine.files.writing import write_atomic  # only a run that writes a sheet

        write_atomic(args.csv, sheet)
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=1))
    elif not args.csv or args.csv == "-":
        sys.stdout.write(sheet)
    else:
        graded = sum(1 for row in data if "unreadable" not in row)
        print(f"{graded} of {len(paths)} files graded, {len(paths) - graded} unreadable: {args.csv}")
    keep_until_exit(rows, data)
    return 0


def run(args) -> int:
    from engine.compare.walk import Retrained, trained

    training = _training(args)
    lesson = trained(training)
    retrained = Retrained(training)
    if _is_batch(args.merge_list):
        return _grade(args, training, lesson, retrained)
    if args.csv:
        raise BpeLabError("--csv grades a folder of merge lists: give a folder as MERGES, or leave --csv out")
    report = _one(args.merge_list, training, lesson, retrained)
    if args.json:
        from engine.compare.report import report_data

        print(json.dumps(report_data(report), ensure_ascii=False, indent=1))
    else:
        from engine.compare.report import report_lines

        print("\n".join(report_lines(report, training.settings)))
    keep_until_exit(report)
    return 0 if report.identical else EXIT_DIFFERENT
