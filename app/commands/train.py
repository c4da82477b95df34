"""``bpe-lab train CORPUS --out TOKENIZER_FILE [options]``: learn merges, write a tokenizer."""

from __future__ import annotations

import gc
import json
import sys
from typing import TYPE_CHECKING

from app.cli import keep_until_exit
from app.commands.common import non_negative, positive, read_corpus_text, utf8_text
from engine.errors import BpeLabError

# the tie rules of engine.algorithm.ranking, named here so that the parsers (help) load no engine
# (a test holds the two to the same names)
TIE_BREAKS = ("first", "hf", "greatest", "smallest", "last")

if TYPE_CHECKING:
    from engine.algorithm.trainer import MergeStep


def add_parser(sub) -> None:
    p = sub.add_parser("train", help="learn merges from a text and write a tokenizer file")
    p.add_argument("corpus", metavar="CORPUS", help="a UTF-8 text file, or - for standard input")
    goal = p.add_mutually_exclusive_group(required=True)
    goal.add_argument("--out", metavar="TOKENIZER_FILE",
                      help="where to write the tokenizer; - prints bpelab, hf or csv on standard output")
    goal.add_argument("--where-rules-part", action="store_true",
                      help="write no tokenizer: train under every tie rule and print, for each two rules, the first "
                           "step where their merges differ and the tie there")
    p.add_argument("--format", choices=("bpelab", "hf", "gpt2", "tiktoken", "csv"), default="bpelab",
                   help="bpelab (default), hf (tokenizer.json), gpt2 (a folder), tiktoken, csv")
    p.add_argument("--word-counts", action="store_true",
                   help="CORPUS holds a word and its count a line: 'low 5' or 'low<TAB>5' (what 'bpe-lab count' writes)")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--merges", type=non_negative, metavar="N", help="stop after N merges")
    size.add_argument("--vocab-size", type=positive, metavar="V", help="stop at a vocabulary of V tokens")
    p.add_argument("--min-frequency", type=positive, default=2, metavar="F",
                   help="stop when the best pair occurs fewer than F times (default 2)")
    p.add_argument("--split", choices=("whitespace", "gpt2", "gpt4", "none"), default="whitespace")
    p.add_argument("--units", choices=("chars", "bytes"), default="chars")
    marker = p.add_mutually_exclusive_group()
    marker.add_argument("--end-of-word", metavar="STR", type=utf8_text, help="end-of-word marker (default </w> for whitespace + chars)")
    marker.add_argument("--no-end-of-word", action="store_true", help="no end-of-word marker")
    p.add_argument("--lowercase", action="store_true")
    p.add_argument("--tie-break", choices=TIE_BREAKS, default="first",
                   help="first: the pair met first reading the corpus; hf: the pair of smaller ids; greatest, "
                        "smallest: the pair last or first in dictionary order (bytes for bytes units); last: the "
                        "pair met last")
    p.add_argument("--special", action="append", default=[], metavar="TOKEN", type=utf8_text, help="a special token (repeatable)")
    p.add_argument("--history", metavar="HISTORY.json",
                   help="also write every merge step as JSON (- prints it); written with --out or not at all")
    p.add_argument("--progress", action="store_true", help="show a progress bar on stderr")
    p.add_argument("--json", action="store_true",
                   help="with --where-rules-part: print each two rules' parting as JSON, every tied pair named")
    p.add_argument("--compare-textbook", action="store_true",
                   help="also train with the textbook loop (every pair counted again before each merge) and say on "
                        "stderr how long each loop took and whether they made the same merges")


def settings_from(args):
    from engine.algorithm.settings import AUTO, Settings  # the parsers (help) load no engine

    marker = None if args.no_end_of_word else (args.end_of_word if args.end_of_word is not None else AUTO)
    return Settings(
        split=args.split,
        units=args.units,
        end_of_word=marker,
        lowercase=args.lowercase,
        min_frequency=args.min_frequency,
        merges=args.merges,
        vocab_size=args.vocab_size,
        special_tokens=tuple(args.special),
        tie_break=args.tie_break,
    )


def train_from_args(args, keep_steps: bool):
    """(tokenizer, trainer, steps) for the corpus and settings the arguments give; steps is None
    unless kept.

    A run whose output reads no step lets each go as soon as it is made: thousands of steps held
    to the end are a third of a small run's peak memory, and freeing them all at once costs its end.
    """
    from engine.algorithm.tokenizer import Tokenizer  # the parsers (help) load no engine
    from engine.algorithm.collector import collector_paused
    from engine.algorithm.trainer import Trainer

    settings = settings_from(args)
    counting = None
    if args.progress and not args.word_counts:
        from app.commands.count import CountingBar  # only a run that shows progress

        counting = CountingBar(args.corpus)
    corpus = corpus_from_args(args, settings, counting)
    steps: list[MergeStep] | None = [] if keep_steps else None
    # the layout too: the collector's first walk after it would visit every position of the corpus
    with collector_paused():
        trainer = Trainer(corpus)
        bar = ProgressBar(trainer.target_merges()) if args.progress else None
        for step in trainer.steps():
            if steps is not None:
                steps.append(step)
            if bar:
                bar.update(step.step)
        # the command ends once the files are written: the collector never needs to walk the
        # training's records again (two walks of a large run cost more than a tenth of its time)
        gc.freeze()
    if bar:
        bar.close(trainer.stop_reason, vocab_summary(corpus, steps))
    return Tokenizer.from_trainer(trainer), trainer, steps


def corpus_from_args(args, settings, counting=None):
    """The corpus the arguments name, counted with ``settings`` (``counting``: the bar, closed once
    counted); an empty one is refused."""
    from engine.algorithm.corpus import Corpus  # the parsers (help) load no engine

    if args.word_counts:
        corpus = Corpus.from_word_counts(read_corpus_text(args.corpus), settings)
    elif args.corpus == "-":
        corpus = Corpus.from_text_in_parts(read_corpus_text(args.corpus), settings, counting)
    else:
        # streamed from the file, on every core when it is large
        corpus = Corpus.from_file(args.corpus, settings, counting)
    if counting:
        counting.close(len(corpus))
    if corpus.is_empty:
        raise BpeLabError(f"the corpus {args.corpus} is empty (no words): give some training text")
    return corpus


def vocab_summary(corpus, steps) -> str:
    """The vocabulary at the end of training, in the words the window and the handout use."""
    from engine.readable.describe import describe_vocab
    from engine.lesson.history import History  # only a run that describes its vocabulary

    history = History(corpus, steps)
    return f"the vocabulary holds {describe_vocab(corpus.settings, history.vocab(history.last_step))}"


def run(args) -> int:
    # the parsers (help) load no writer
    from engine.formats.load import Source, check_one_file, export_files, export_text
    from engine.files.writing import write_files

    if args.where_rules_part:
        return print_where_rules_part(args)
    if args.json:
        raise BpeLabError("--json prints where the tie rules part: give --where-rules-part, or leave --json out")
    if args.out == "-" and args.history == "-":
        raise BpeLabError("--out and --history cannot both be - (standard output): give one of them a file name")
    fmt = getattr(args, "format", "bpelab")
    if args.out == "-":
        check_one_file(fmt)  # before training: a long run must not end in this refusal
    tokenizer, trainer, steps = train_from_args(args, keep_steps=bool(args.history) or fmt == "csv" or args.progress)
    source = Source(tokenizer, steps)
    printed = export_text(source, fmt) if args.out == "-" else None
    files, folder = export_files(source, fmt, args.out) if printed is None else ({}, None)
    if args.history:
        # imported only when asked for: the history index costs a run that writes no history its start
        from engine.lesson_io.history_file import history_to_json

        text = history_to_json(trainer, steps)
        if args.history == "-":
            printed = text
        else:
            files[args.history] = text
    # the tokenizer and the history are written together or not at all
    write_files(files, make_folder=folder)
    if printed is not None:
        sys.stdout.write(printed)
    if getattr(args, "compare_textbook", False):
        compare_with_textbook(trainer.corpus, args.progress)
    keep_until_exit(tokenizer, trainer, steps, source)
    return 0


def compare_with_textbook(corpus, progress: bool) -> None:
    """The race of the textbook loop against the trainer on ``corpus``, said on stderr."""
    from engine.algorithm.textbook_race import TEXTBOOK, race
    from engine.readable.explorer import race_caption

    run = race(corpus)
    bar = None
    while True:
        try:
            step = next(run)
        except StopIteration as end:
            result = end.value
            break
        if progress and step.runner == TEXTBOOK:
            bar = bar or ProgressBar(step.total, "textbook loop")
            bar.update(step.done)
    if bar:
        sys.stderr.write("\n")
    sys.stderr.write(race_caption(result, "this corpus") + "\n")
    if not result.same:
        raise BpeLabError(f"the textbook loop and the trainer part at merge {result.parted_at}: please report it")


def print_where_rules_part(args) -> int:
    """The corpus trained under every tie rule, where each two rules part, one line each."""
    from engine.lesson.rules_part import where_rules_part
    from engine.readable.describe import plural, show_pair

    if args.history:
        raise BpeLabError("--where-rules-part writes no history: leave out --history")
    settings = settings_from(args)
    corpus = corpus_from_args(args, settings)
    partings = where_rules_part(corpus)
    if args.json:
        sys.stdout.write(json.dumps([parting_data(p) for p in partings.values()], ensure_ascii=False, indent=1) + "\n")
        return 0
    lines = []
    for (one, other), parting in partings.items():
        if parting.step is None or parting.chosen is None or parting.count is None:
            lines.append(f"{one} and {other}: never part")
            continue
        shown = [show_pair(settings, pair) for pair in parting.tied[:SHOWN_TIED]]
        more = len(parting.tied) - len(shown)
        tied = ", ".join(shown) + (f" and {more:,} more" if more else "")
        lines.append(f"{one} and {other}: part at step {parting.step}, where {plural(len(parting.tied), 'pair')} "
                     f"tie at {parting.count:,} ({tied}): {one} merges {show_pair(settings, parting.chosen[0])}, "
                     f"{other} merges {show_pair(settings, parting.chosen[1])}")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def parting_data(parting) -> dict:
    """One parting as JSON: the facts of its line, the pairs as their two tokens, every tied pair."""
    one, other = parting.rules
    return {
        "rules": [one, other],
        "step": parting.step,  # null: the two rules never part
        "count": parting.count,
        "tied": [list(pair) for pair in parting.tied],
        "merges": None if parting.chosen is None else {one: list(parting.chosen[0]), other: list(parting.chosen[1])},
    }


# how many tied pairs a line of --where-rules-part names
SHOWN_TIED = 10


class ProgressBar:
    """A one-line bar on stderr, redrawn only when the percentage moves."""

    def __init__(self, total: int | None, doing: str = "training"):
        self.total = total
        self.doing = doing
        self.shown = -1

    def update(self, done: int) -> None:
        if self.total:
            # a vocabulary size may take more merges than estimated (a rebuilt token adds none)
            grew = done > self.total
            self.total = max(self.total, done)
            percent = done * 100 // self.total
            if percent == self.shown and not grew:
                return
            self.shown = percent
            filled = percent * 30 // 100
            sys.stderr.write(f"\r{self.doing} [{'#' * filled}{'.' * (30 - filled)}] {done}/{self.total} merges")
        elif done < 50 or done % 50 == 0:
            sys.stderr.write(f"\r{self.doing}: {done} merges")
        sys.stderr.flush()

    def close(self, reason: str | None, summary: str) -> None:
        sys.stderr.write(f"\ndone: {reason}; {summary}\n")
