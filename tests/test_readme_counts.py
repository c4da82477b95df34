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


# -- the limits and sizes the guide states, read from the constants that set them --------------

NUMBER_WORDS = {"four": 4, "seven": 7, "eight": 8, "ten": 10}


def stated(pattern: str) -> str:
    """The number a sentence of the README or the guide states (the pattern's one group)."""
    found = re.findall(pattern, README)
    assert len(found) == 1, f"{pattern!r}: found {len(found)} times"
    return found[0]


def number(text: str) -> int:
    return NUMBER_WORDS[text] if text in NUMBER_WORDS else int(text.replace(",", ""))


def test_the_window_keeps_the_recent_files_the_guide_counts():
    from app.lesson_open_save import MAX_RECENT

    assert number(stated(r"File > Open Recent lists the last (\w+)\.")) == MAX_RECENT


def test_a_long_text_shows_in_the_editor_as_the_guide_says():
    from widgets.corpus_panel import EDITOR_LIMIT, PREVIEW

    assert number(stated(r"A text over (\d+) KB shows")) * 1000 == EDITOR_LIMIT
    assert number(stated(r"shows its first (\d+) KB, read-only")) * 1000 == PREVIEW


def test_the_largest_lesson_and_text_are_the_readers_limits():
    from engine.files.reading import MAX_BYTES, MAX_LESSON_BYTES

    assert number(stated(r"larger than BPE Lab opens \((\d+) MB, three times")) << 20 == MAX_LESSON_BYTES
    assert MAX_LESSON_BYTES == 3 * MAX_BYTES


def test_autosave_and_stale_temporaries_keep_the_times_stated():
    from app.autosave import INTERVAL_MS
    from engine.files.writing import STALE_AFTER_S

    assert number(stated(r"every (\d+) seconds an unsaved lesson is written")) * 1000 == INTERVAL_MS
    assert number(stated(r"once it is (\d+) minutes old")) * 60 == STALE_AFTER_S


def test_the_tile_colours_are_as_many_as_the_guide_counts():
    from widgets.token_palette import TOKEN_FILLS

    assert number(stated(r"one of (\w+) fills made from the Okabe–Ito hues")) == len(TOKEN_FILLS)


def test_the_pair_chart_and_its_export_are_as_the_guide_says():
    import inspect

    from widgets.charts.export import export_image
    from widgets.charts.pairs import THROTTLE_MS, PairCountChart

    assert number(stated(r"Bars of the (\w+) most frequent pairs")) == \
        inspect.signature(PairCountChart.__init__).parameters["limit"].default
    assert number(stated(r"faster than every (\d+) ms the bars follow")) == THROTTLE_MS
    assert number(stated(r"\(PNG at ([\d,]+) pixels wide")) == inspect.signature(export_image).parameters["width"].default


def test_a_held_out_text_is_counted_off_the_gui_thread_past_the_length_stated():
    from app.held_out_count import SYNC_LIMIT

    assert number(stated(r"A text over ([\d,]+) characters is counted off the GUI thread")) == SYNC_LIMIT


def test_a_packs_images_and_files_keep_the_sizes_stated():
    from engine.quiz.images import MAX_IMAGE_BYTES
    from engine.quiz.load import MAX_PACK_BYTES

    assert number(stated(r"a regular file of at most (\d+) MB inside the pack's own folder")) << 20 == MAX_IMAGE_BYTES
    assert number(stated(r"\(a regular file under (\d+) MB\)")) << 20 == MAX_PACK_BYTES


def test_predict_first_offers_the_choices_stated():
    from widgets.classroom.predict import MAX_CHOICES

    assert number(stated(r"up to (\w+) of the top pairs as large numbered choices")) == MAX_CHOICES


def test_the_classroom_view_keys_name_the_views_in_their_order():
    from app.window import CENTRAL_VIEWS

    listed = stated(r"switch views in tab order: ((?:\d \w+, )+\d \w+)")
    assert listed == ", ".join(f"{i} {title}" for i, (title, _factory) in enumerate(CENTRAL_VIEWS, start=1))


def test_counting_and_the_history_keep_the_sizes_stated():
    from engine.algorithm.trainer import TIES_KEPT
    from engine.algorithm.word_counting import PARALLEL_FROM

    assert number(stated(r"on every core when it is over (\d+) MB")) << 20 == PARALLEL_FROM
    assert number(stated(r"lists the first (\d+) of them in the order the tie rule ranks them")) == TIES_KEPT
