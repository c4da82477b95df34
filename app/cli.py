"""The ``bpe-lab`` command: the window with no subcommand, the engine scriptable with one.

Every bad input ends as one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from engine.errors import BpeLabError

SUBCOMMANDS = ("train", "encode", "decode")
EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    """argparse, with its complaints cut down to one line that points at --help."""

    def error(self, message: str):  # noqa: D102 (argparse's own hook)
        raise BpeLabError(f"{message} (see '{self.prog} --help')")


def _build_parser() -> _Parser:
    parser = _Parser(prog="bpe-lab", description="Byte pair encoding, step by step.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")

    train = sub.add_parser("train", help="learn merges from a text and write a tokenizer file")
    train.add_argument("corpus", metavar="CORPUS", help="a UTF-8 text file, or - for standard input")
    train.add_argument("--out", required=True, metavar="TOKENIZER_FILE", help="where to write the tokenizer")
    train.add_argument("--word-counts", action="store_true", help="CORPUS holds lines such as 'low 5'")
    size = train.add_mutually_exclusive_group()
    size.add_argument("--merges", type=_non_negative, metavar="N", help="stop after N merges")
    size.add_argument("--vocab-size", type=_positive, metavar="V", help="stop at a vocabulary of V tokens")
    train.add_argument("--min-frequency", type=_positive, default=2, metavar="F",
                       help="stop when the best pair occurs fewer than F times (default 2)")
    train.add_argument("--split", choices=("whitespace", "gpt2", "gpt4", "none"), default="whitespace")
    train.add_argument("--units", choices=("chars", "bytes"), default="chars")
    marker = train.add_mutually_exclusive_group()
    marker.add_argument("--end-of-word", metavar="STR", help="end-of-word marker (default </w> for whitespace + chars)")
    marker.add_argument("--no-end-of-word", action="store_true", help="no end-of-word marker")
    train.add_argument("--lowercase", action="store_true")
    train.add_argument("--tie-break", choices=("first", "hf"), default="first",
                       help="first: the pair met first reading the corpus; hf: the pair of smaller ids")
    train.add_argument("--special", action="append", default=[], metavar="TOKEN", help="a special token (repeatable)")
    train.add_argument("--history", metavar="HISTORY.json", help="also write every merge step as JSON")
    train.add_argument("--progress", action="store_true", help="show a progress bar on stderr")

    encode = sub.add_parser("encode", help="split a text into tokens")
    encode.add_argument("--tokenizer", required=True, metavar="TOKENIZER_FILE|cl100k")
    source = encode.add_mutually_exclusive_group(required=True)
    source.add_argument("text", nargs="?", metavar="TEXT")
    source.add_argument("--file", metavar="FILE")
    encode.add_argument("--json", action="store_true", help='print {"tokens": [...], "ids": [...]}')
    encode.add_argument("--trace", action="store_true", help="show each merge that applied to each word")

    decode = sub.add_parser("decode", help="turn token ids back into text")
    decode.add_argument("--tokenizer", required=True, metavar="TOKENIZER_FILE|cl100k")
    decode.add_argument("ids", nargs="+", metavar="ID")
    return parser


def _non_negative(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{value}' is not a whole number") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"{n} is negative")
    return n


def _positive(value: str) -> int:
    n = _non_negative(value)
    if n == 0:
        raise argparse.ArgumentTypeError("it must be at least 1")
    return n


# -- commands ---------------------------------------------------------------------------------


def _read_corpus_text(name: str) -> str:
    from engine.files import decode_utf8, read_text

    if name == "-":
        return decode_utf8(sys.stdin.buffer.read(), "standard input")
    return read_text(name)


def _settings_from(args):
    from engine.settings import AUTO, Settings

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


def _cmd_train(args) -> int:
    from engine.corpus import Corpus
    from engine.files import write_atomic
    from engine.formats.bpelab import save_tokenizer
    from engine.history import history_to_json
    from engine.tokenizer import Tokenizer
    from engine.trainer import Trainer

    settings = _settings_from(args)
    text = _read_corpus_text(args.corpus)
    corpus = Corpus.from_word_counts(text, settings) if args.word_counts else Corpus.from_text(text, settings)
    if corpus.is_empty:
        raise BpeLabError(f"the corpus {args.corpus} is empty (no words): give some training text")
    trainer = Trainer(corpus)
    bar = _ProgressBar(trainer.target_merges()) if args.progress else None
    steps = []
    for step in trainer.steps():
        steps.append(step)
        if bar:
            bar.update(step.step)
    if bar:
        bar.close(trainer.stop_reason)
    tokenizer = Tokenizer.from_trainer(trainer)
    save_tokenizer(tokenizer, args.out)
    if args.history:
        write_atomic(args.history, history_to_json(trainer, steps))
    return 0


class _ProgressBar:
    def __init__(self, total: int | None):
        self.total = total
        self.shown = -1

    def update(self, done: int) -> None:
        if self.total:
            percent = done * 100 // self.total
            if percent == self.shown:
                return
            self.shown = percent
            filled = percent * 30 // 100
            sys.stderr.write(f"\rtraining [{'#' * filled}{'.' * (30 - filled)}] {done}/{self.total} merges")
        elif done % 50 == 0 or done < 50:
            sys.stderr.write(f"\rtraining: {done} merges")
        sys.stderr.flush()

    def close(self, reason: str | None) -> None:
        sys.stderr.write(f"\ndone: {reason}\n")


def _load_tokenizer(name: str):
    if name == "cl100k":
        from engine.cl100k import load_cl100k

        return load_cl100k()
    from engine.formats.bpelab import load_tokenizer

    return load_tokenizer(name)


def _display(tokenizer, token: str) -> str:
    from engine.bytelevel import readable

    if tokenizer.settings.units == "bytes" and token not in tokenizer.special_ids:
        return readable(token)
    return token


def _cmd_encode(args) -> int:
    from engine.files import read_text

    tokenizer = _load_tokenizer(args.tokenizer)
    text = read_text(args.file) if args.file else args.text
    encoding = tokenizer.encode(text)
    if args.json:
        print(json.dumps({"tokens": list(encoding.tokens), "ids": list(encoding.ids)}, ensure_ascii=False))
    else:
        shown = " | ".join(_display(tokenizer, t) for t in encoding.tokens)
        print(f"{shown}   ({len(encoding)} tokens)")
    if args.trace:
        _print_trace(tokenizer, text)
    return 0


def _print_trace(tokenizer, text: str) -> None:
    from engine.pretokenize import split_words

    def show(tokens) -> str:
        return " | ".join(_display(tokenizer, t) for t in tokens)

    for word in dict.fromkeys(split_words(text, tokenizer.settings.split)):
        base, trace = tokenizer.encode_steps(word)
        print(f"{word}: {show(base)}")
        for step in trace:
            a, b = (_display(tokenizer, t) for t in step.pair)
            print(f"  after {a}+{b}: {show(step.tokens)}")


def _cmd_decode(args) -> int:
    tokenizer = _load_tokenizer(args.tokenizer)
    ids = []
    for raw in args.ids:
        try:
            ids.append(int(raw))
        except ValueError:
            raise BpeLabError(f"'{raw}' is not a token id: give whole numbers") from None
    sys.stdout.write(tokenizer.decode(ids) + "\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in SUBCOMMANDS and argv[0] not in ("-h", "--help"):
        from app.main import run_window

        return run_window(argv)
    try:
        args = _build_parser().parse_args(argv)
        handler = {"train": _cmd_train, "encode": _cmd_encode, "decode": _cmd_decode}[args.command]
        return handler(args)
    except BpeLabError as exc:
        print(f"bpe-lab: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("bpe-lab: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
