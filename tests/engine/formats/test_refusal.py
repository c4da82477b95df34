"""A refusal that advises other training settings: the command line's wording from the same parts
the window renders in its own terms, and no refusal naming an option outside those parts."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from engine.errors import BpeLabError
from engine.formats.hf import check_expressible
from engine.formats.refusal import ExportRefused, Retrain, on_command_line, parts_of, said
from engine.formats.table import refuse_lowercase
from engine.algorithm.settings import Settings

FORMATS_DIR = Path(__file__).resolve().parents[3] / "engine" / "formats"
# refusals only the command line can meet: a saved lesson's step (``bpe-lab export LESSON``) and
# ``--out -``; the window exports the session's lesson to a path it asks for
CLI_ONLY = {("loading.py", "--all-merges"), ("load.py", "--out")}
# where a saved lesson is trained into the tokenizer an export writes, beside the formats
LOADING = FORMATS_DIR.parent / "lesson_io" / "loading.py"


def test_the_command_line_names_each_setting_by_its_option():
    assert on_command_line(Retrain("units", "bytes")) == "train with --units bytes"
    assert on_command_line(Retrain("lowercase", False)) == "train without --lowercase"
    assert on_command_line(Retrain("lowercase", True)) == "train with --lowercase"
    assert (on_command_line(Retrain("end_of_word", None, Retrain("split", "whitespace")))
            == "train with --no-end-of-word or with --split whitespace")


def test_a_refusal_reads_the_same_on_the_command_line_and_keeps_its_advice_in_parts():
    with pytest.raises(ExportRefused) as refused:
        refuse_lowercase(Settings(lowercase=True), "tokenizer.json")
    assert str(refused.value) == ("tokenizer.json does not carry BPE Lab's lowercasing: train without --lowercase "
                                  "and lowercase the text yourself, or export with --format bpelab")
    parts = parts_of(refused.value)
    assert Retrain("lowercase", False) in parts
    assert said(parts, lambda advice: "CHANGE IT") == ("tokenizer.json does not carry BPE Lab's lowercasing: "
                                                       "CHANGE IT and lowercase the text yourself, or export with "
                                                       "--format bpelab")
    with pytest.raises(ExportRefused, match="train with --no-end-of-word or with --split whitespace"):
        check_expressible(Settings(split="gpt2", end_of_word="</w>"))


def test_a_refusal_naming_no_setting_is_one_part():
    assert parts_of(BpeLabError("the token ids do not run from 0")) == ("the token ids do not run from 0",)


def refusal_texts(path: Path):
    """The text of every string in every ``raise`` of a module, with the names it calls."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            for inner in ast.walk(node.exc):
                if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                    yield inner.value


def test_no_refusal_of_a_format_asks_for_a_training_option_but_through_its_advice():
    # "--format X" the window renames to its own buttons (widgets.export_dialog.format_names); any
    # other option written into a sentence would reach a window user as a flag to type
    found = []
    for path in [*sorted(FORMATS_DIR.glob("*.py")), LOADING]:
        for text in refusal_texts(path):
            for option in re.findall(r"--[a-z][a-z-]*", text):
                if option != "--format" and (path.name, option) not in CLI_ONLY:
                    found.append((path.name, text))
    assert not found
    # the scan does read the refusals: it finds the command-line-only ones
    assert any("--all-merges" in t for t in refusal_texts(LOADING))
