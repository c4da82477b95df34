"""``bpe-lab compare LESSON.bpelab MERGES``: a lesson file as the corpus, its settings, the options overriding."""

from __future__ import annotations

import pytest

from engine.algorithm.settings import Settings
from engine.formats.lesson_file import LessonFile, save_lesson
from tests.app.cli_run import run

FOUR = "low 5\nlower 2\nnewest 6\nwidest 3\n"
# the four-word lesson's merges under the first rule with no end-of-word marker
NO_MARKER = "e s\nes t\nl o\nlo w\nn e\nne w\nnew est\nw i\nwi d\nwid est\nlow e\nlowe r\n"


@pytest.fixture
def merges(tmp_path):
    path = tmp_path / "merges.txt"
    path.write_text(NO_MARKER, encoding="utf-8")
    return path


def _lesson(tmp_path, **settings) -> str:
    path = tmp_path / "four.bpelab"
    save_lesson(LessonFile(FOUR, word_counts=True, settings=Settings(**settings)), path)
    return str(path)


def test_the_lesson_files_word_counts_and_settings_are_the_corpus(tmp_path, capsys, merges):
    status, out, err = run(capsys, "compare", _lesson(tmp_path, end_of_word=None), merges)
    assert (status, err) == (0, "")
    assert "identical" in out


def test_a_lesson_file_with_a_marker_parts_where_the_marker_matters(tmp_path, capsys, merges):
    status, out, _ = run(capsys, "compare", _lesson(tmp_path), merges)
    assert status == 1
    assert "Why: the end-of-word marker left out" in out


def test_an_option_on_the_command_line_overrides_the_lessons_setting(tmp_path, capsys, merges):
    status, out, err = run(capsys, "compare", _lesson(tmp_path), merges, "--no-end-of-word")
    assert (status, err) == (0, "")
    assert "identical" in out


def test_the_lessons_tie_rule_stands_unless_one_is_given(tmp_path, capsys):
    lesson = _lesson(tmp_path, end_of_word=None, tie_break="hf")
    mine = tmp_path / "merges.txt"
    mine.write_text(NO_MARKER, encoding="utf-8")
    status_hf, _, _ = run(capsys, "compare", lesson, mine, "--json")
    status_first, out, _ = run(capsys, "compare", lesson, mine, "--tie-break", "first")
    assert status_first == 0 and "identical" in out
    assert status_hf == 1  # hf breaks the four-word lesson's first tie the other way


def test_word_counts_given_for_a_lesson_file_says_to_leave_it_out(tmp_path, capsys, merges):
    status, out, err = run(capsys, "compare", _lesson(tmp_path), merges, "--word-counts")
    assert status == 2 and out == ""
    assert "leave --word-counts out" in err and len(err.strip().splitlines()) == 1


def test_a_broken_lesson_file_gets_one_line_and_exit_2(tmp_path, capsys, merges):
    bad = tmp_path / "bad.bpelab"
    bad.write_text("{not json", encoding="utf-8")
    status, out, err = run(capsys, "compare", bad, merges)
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1
