"""The status line's sentences, on the worked examples."""

from engine.lesson import Lesson
from engine.settings import Settings
from engine.describe import describe_merge, describe_position, describe_stop

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"


def test_first_merge_names_its_ties():
    lesson = Lesson(CLASSIC, word_counts=True).train()
    text = describe_merge(lesson.settings, lesson.steps[0])
    assert text.startswith("Merged e + s into es: it appeared 9 times, tied with s + t and t + </w>")


def test_a_merge_without_ties_says_only_its_count():
    lesson = Lesson(CLASSIC, word_counts=True).train()
    assert describe_merge(lesson.settings, lesson.steps[2]) == "Merged est + </w> into est</w>: it appeared 9 times."


def test_start_and_end_of_a_lesson():
    lesson = Lesson("tea tea team teams steam seat", settings=Settings(end_of_word=None)).train()
    assert "24 tokens" in describe_position(lesson, 0)
    end = describe_position(lesson, lesson.last_step)
    assert end.startswith("Merged tea + m into team: it appeared 3 times")
    assert "Training stopped: no pair repeats" in end


def test_every_stop_reason_is_said_plainly():
    target = Lesson(CLASSIC, word_counts=True, settings=Settings(merges=2)).train()
    assert "target reached" in describe_position(target, 2)
    nothing = Lesson("aa aa", settings=Settings(end_of_word=None)).train()
    assert "nothing left to merge" in describe_position(nothing, nothing.last_step)
    assert "4 times or more" in describe_stop("no pair repeats", 4)


def test_byte_level_tokens_read_as_text():
    lesson = Lesson("hello hello hello", settings=Settings(split="gpt2", units="bytes")).train()
    texts = [describe_merge(lesson.settings, s) for s in lesson.steps]
    assert any("␣" in t for t in texts)
    assert not any("Ġ" in t for t in texts)


def test_empty_corpus_says_what_to_do():
    assert "empty" in describe_position(Lesson("  \n "), 0)


def test_a_count_and_its_noun_agree():
    from engine.describe import plural

    assert plural(1, "different pair") == "1 different pair"
    assert plural(2, "merge") == "2 merges"
    assert plural(1234, "merge") == "1,234 merges"
    assert plural(0, "token") == "0 tokens"
    assert plural(3, "child", "children") == "3 children"
