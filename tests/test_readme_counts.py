"""Every count the README and the user guide (docs/) state, recomputed from the data or the engine they describe."""

import re
from pathlib import Path

import pytest

from engine.algorithm.cl100k import load_cl100k
from engine.readable.describe import describe_merge
from engine.readable.explorer import load_languages, token_counts
from engine.lesson.lesson import Lesson
from resources.quiz import bundled_pack

ROOT = Path(__file__).resolve().parents[1]
# the README and the guide's pages as one text, line breaks read as spaces
README = " ".join(" ".join(page.read_text("utf-8").split())
                  for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])


@pytest.fixture(scope="module")
def cl100k():
    return load_cl100k()


def test_the_bundled_pack_has_the_questions_the_readme_counts():
    stated = re.search(r"ships a pack of (\d+) questions", README)
    assert stated and int(stated.group(1)) == len(bundled_pack().questions)


def test_cl100k_has_the_merges_the_readme_counts(cl100k):
    assert f"cl100k's {len(cl100k.ranks) - 256:,} merges" in README


def test_the_languages_page_holds_the_languages_the_readme_lists_and_tamils_premium(cl100k):
    samples = load_languages()
    names = [s.name for s in samples if s.script != "code"]
    assert f"in {', '.join(names[:-1])} and {names[-1]}, plus a Python snippet" in README
    counts = dict(zip((s.code for s in samples), token_counts(cl100k, samples)))
    assert round(counts["ta"] / counts["en"]) == 8
    assert "the Tamil sentences cost about eight times the English ones" in README


def test_the_spelling_demo_counts(cl100k):
    start, spaced = len(cl100k.encode_ids("strawberry")), len(cl100k.encode_ids(" strawberry"))
    assert (start, spaced) == (3, 1)
    assert "strawberry is 3 tokens at the start of a text and ` strawberry` one" in README


def test_the_status_line_quoted_is_the_real_one():
    lesson = Lesson("low 5\nlower 2\nnewest 6\nwidest 3\n", word_counts=True).train()
    quoted = re.search(r'a status line in plain words \("([^"]+) …"', README)
    assert quoted and describe_merge(lesson.settings, lesson.steps[0]).startswith(quoted.group(1))
