"""``bpe-lab export SOURCE --format bpelab|hf|gpt2|tiktoken|csv --out PATH``.

SOURCE is anything ``--tokenizer`` accepts (a tokenizer in any format, cl100k) or a lesson file,
which is trained and exported as it stands at its current step (``--all-merges``: the whole run).
"""

from __future__ import annotations

FORMATS = ("bpelab", "hf", "gpt2", "tiktoken", "csv")


def add_parser(sub) -> None:
    p = sub.add_parser("export", help="write a tokenizer or lesson in another format")
    p.add_argument("source", metavar="SOURCE", help="a tokenizer file or folder, a lesson file, or cl100k")
    p.add_argument("--format", required=True, choices=FORMATS,
                   help="hf: tokenizer.json; gpt2: a folder with vocab.json and merges.txt; "
                        "tiktoken: a .tiktoken file and its .tiktoken.json; csv: the vocabulary")
    p.add_argument("--out", required=True, metavar="PATH", help="- prints hf, csv or bpelab on standard output")
    p.add_argument("--all-merges", action="store_true",
                   help="for a lesson file: every merge of the training, not only those up to its step")


def run(args) -> int:
    import sys

    # the parsers (help) load no reader
    from engine.formats.load import check_one_file, export, export_text
    from engine.lesson_io.loading import load_source

    if args.out == "-":
        check_one_file(args.format)  # before a lesson is trained
    source = load_source(args.source, all_merges=args.all_merges)
    if args.out == "-":
        sys.stdout.write(export_text(source, args.format))
    else:
        export(source, args.format, args.out)
    return 0
