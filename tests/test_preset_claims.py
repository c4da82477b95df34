"""What the presets say about themselves, and what their texts say about training, recomputed."""

import re


from engine.lesson.lesson import Lesson
from resources.presets import preset


def trained(key: str) -> Lesson:
    p = preset(key)
    return Lesson(p.text(), word_counts=p.word_counts, settings=p.settings).train()


def made(lesson: Lesson) -> set[str]:
    return {s.token for s in lesson.steps}


def test_classic_forms_the_pieces_its_tooltip_names():
    about = preset("classic").about
    named = re.findall(r"'([^']+)'", about)
    assert named == ["est", "low"]
    assert set(named) <= made(trained("classic"))


def test_tea_tooltip_counts_are_the_lessons():
    lesson = trained("tea")
    letters, tokens, merges = (int(n) for n in re.findall(r"\d+", preset("tea").about.replace("three", "3")))
    assert (letters, tokens, merges) == (lesson.initial_tokens, lesson.history.total_tokens(lesson.last_step),
                                         lesson.last_step)


def test_every_piece_the_paragraph_names_becomes_one_piece_in_its_lesson():
    lesson = trained("paragraph")
    marker = lesson.settings.marker or ""
    named = re.findall(r'"([^"]+)"', preset("paragraph").text())
    assert named  # the text quotes the endings and words it promises
    tokens = made(lesson)
    for piece in named:
        assert piece in tokens or piece + marker in tokens, piece
    # "the longer the training runs, the fewer pieces a sentence needs": never more
    totals = lesson.history.totals()
    assert all(b <= a for a, b in zip(totals, totals[1:]))


def test_languages_cost_differently_under_the_lessons_own_tokenizer():
    lesson = trained("languages")
    counts = [len(lesson.tokenizer.encode_ids(line)) for line in preset("languages").text().splitlines() if line]
    assert len(set(counts)) > 1 and "costs more tokens in some scripts" in preset("languages").about


def test_the_python_documentation_is_about_half_a_megabyte():
    size = len(preset("python-docs").text().encode("utf-8"))
    assert "About half a megabyte" in preset("python-docs").about
    assert 350_000 <= size <= 650_000, size
