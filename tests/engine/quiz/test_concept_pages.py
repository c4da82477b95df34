"""Concept pages in the shape lesson sites publish them (tests/engine/quiz/data/published_page.md):
version headings, metadata lines, JSON front matter, questions without ids."""

import json
import re
from pathlib import Path

from engine.quiz import grade, load_pack
from engine.quiz.markdown import ID_DIGITS, pack_from_markdown
from engine.quiz.questions import ChooseQuestion, FillQuestion, NumberQuestion, OrderQuestion

PAGE = Path(__file__).parent / "data" / "published_page.md"
TEXT = PAGE.read_text(encoding="utf-8")
HEADING = re.compile(r"^## Version (\S+)$")


def pack():
    return load_pack(PAGE)


def sections() -> list[tuple[int, str, str]]:
    """(line of the heading, its version, the kind its front matter names), read from the page here."""
    found = []
    lines = TEXT.splitlines()
    for n, line in enumerate(lines, start=1):
        m = HEADING.match(line)
        if m:
            kind = next((re.search(r'"(.*)"', ln).group(1) for ln in lines[n:n + 12] if ln.startswith("kind:")), "")
            found.append((n, m.group(1), kind))
    return found


def test_every_good_question_loads_with_an_id_made_from_its_version():
    p = pack()
    assert [type(q) for q in p.questions] == [NumberQuestion, ChooseQuestion, ChooseQuestion, FillQuestion,
                                              OrderQuestion, ChooseQuestion]
    assert p.title == "Byte pair encoding"
    versions = [v for _, v, _ in sections()]
    for q in p.questions:
        (version,) = [v for v in versions if v.startswith(q.id)]
        assert len(q.id) == ID_DIGITS and re.fullmatch(r"[0-9a-f]{64}", version)


def test_ids_stay_when_other_sections_move_or_change():
    chunks = re.split(r"(?m)^(?=## Version )", TEXT)
    head, body = chunks[0], chunks[1:]
    moved = pack_from_markdown(head + "".join(reversed(body)), "moved.md")
    assert {q.id for q in moved.questions} == {q.id for q in pack().questions}
    edited = TEXT.replace("Which letter comes first", "Which letter is first")
    assert [q.id for q in pack_from_markdown(edited, "e.md").questions] == [q.id for q in pack().questions]


def test_metadata_lines_headings_and_blocks_never_reach_a_prompt():
    p = pack()
    shown = [q.prompt for q in p.questions] + [m.text + m.fix for m in p.misconceptions.values()]
    shown += [e.body + "".join(e.steps) for e in p.examples] + [r.text for r in p.readings]
    for text in shown:
        for leak in ("Published", "Source:", "proof:", "## Version", "```", "format: 1", '"type"', "<svg"):
            assert leak not in text, (leak, text)


def test_number_question_reads_string_wrong_answers_and_optional_fields():
    p = pack()
    q = p.questions[0]
    assert q.prompt.startswith("The corpus is low ×5") and q.prompt.endswith("occur?")
    assert (q.answer, q.tolerance) == (9, 0)
    assert [w.answer for w in q.wrong] == [2, 1.5]
    assert q.hint.startswith("Weight") and q.explanation.startswith("newest") and q.purpose.startswith("Pair counts")
    assert grade(q, "9").correct
    assert grade(q, "2", p.misconceptions).misconception is p.misconceptions["token-is-word"]
    assert q.labels == ("lang: en", "level: beginner")


def test_choose_fill_and_order_grade():
    p = pack()
    one, many, fill, order = p.questions[1:5]
    assert not one.multiple and one.correct_indices == {0}
    assert grade(one, 1, p.misconceptions).misconception.id == "token-is-word"
    assert many.multiple and grade(many, {0, 1}).correct and not grade(many, {0}).correct
    # the gaps were written ___ in the prompt: the text holds them, numbered
    assert fill.text.count("[[1]]") == 1 and fill.text.count("[[2]]") == 1 and "___" not in fill.text
    assert fill.blanks == (("word", "words"), ("space", "blank"))
    assert grade(fill, ["words", "blank"]).correct and not grade(fill, ["space", "word"]).correct
    assert grade(order, [0, 1, 2]).correct and not grade(order, [2, 1, 0]).correct


def test_misconception_fix_is_its_own_field_and_stops_at_the_next_section():
    m = pack().misconceptions
    assert list(m) == ["token-is-word", "languages-cost-the-same"]
    word = m["token-is-word"]
    assert word.text.startswith("Tokens are the pieces") and word.text.endswith("what a model reads.")
    assert "Fix:" not in word.text
    assert word.fix.startswith("Count the tiles") and word.fix.endswith("two tokens for one word.")
    languages = m["languages-cost-the-same"]
    # a heading opening the body is the title, not part of the text
    assert languages.title == "Every language costs the same"
    assert languages.text.startswith("Text in some scripts") and languages.fix.endswith("in two languages.")


def test_worked_examples_and_readings_load_and_figures_stay_in_the_page():
    p = pack()
    first, second = p.examples
    assert first.title == "The first merge" and len(first.steps) == 3 and first.steps[1].startswith("The pair met first")
    assert second.title == "Encoding a new word"
    assert second.steps == ("**Split** lowest becomes l o w e s t </w>.", "Apply `e s`, then `es t`, then `est </w>`.")
    assert [r.title for r in p.readings] == ["What a token is", "encoding"]
    assert p.readings[0].text.startswith("A tokenizer cuts text") and "###" not in p.readings[0].text
    figures = [v for _, v, kind in sections() if kind == "figure"]
    assert figures and not any(e.startswith(f"{PAGE}: figure") for e in p.errors)


def test_each_malformed_section_is_named_at_its_heading_and_the_rest_loads():
    p = pack()
    lines = TEXT.splitlines()
    expected = [
        ("not valid JSON", "question"),
        ('"answer" must be a number, or a text holding one', "question"),
        ("where a version needs 64 hex digits", "question"),
        ("has no front matter", ""),
        ("the kind 'quiz' is not one of", "quiz"),
        ('a misconception needs an "id"', "misconception"),
        ('a worked example needs "steps"', "worked-example"),
        ('no option is marked "correct"', "question"),
        ("has no ```json block", "question"),
    ]
    assert len(p.errors) == len(expected)
    by_line = {n: kind for n, _, kind in sections()}
    for error, (words, kind) in zip(p.errors, expected):
        assert words in error
        line = int(re.search(r"\(line (\d+)\)", error).group(1))
        assert lines[line - 1].startswith("## Version ") and by_line[line] == kind
    # the good question after all of them still loaded
    assert p.questions[-1].prompt.startswith("Which letter comes first")


def test_a_newer_page_format_and_a_bad_label_are_named():
    text = TEXT.replace("format: 1", "format: 2", 1)
    p = pack_from_markdown(text, "new.md")
    assert any("reads format 1 pages" in e for e in p.errors)
    assert len(p.readings) == len(pack().readings) - 1


def test_front_matter_json_may_span_lines_and_windows_line_endings_read_the_same():
    text = TEXT.replace('declaration: {"license":"CC-BY-4.0","ai":false}',
                        'declaration: {\n  "license": "CC-BY-4.0",\n  "ai": false\n}')
    p = pack_from_markdown(text.replace("\n", "\r\n"), "page.md")
    assert [q.id for q in p.questions] == [q.id for q in pack().questions]
    # the longer front matters move every line after them; the messages are otherwise the same
    def unlined(errors):
        return [re.sub(r"line \d+", "line N", e.replace(str(PAGE), "page.md")) for e in errors]

    assert unlined(p.errors) == unlined(pack().errors)


def test_quiz_check_json_reports_each_question_with_its_kind_and_answer(capsys):
    from app.cli import main

    assert main(["quiz", "check", str(PAGE), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    p = pack()
    assert [(q["id"], q["kind"]) for q in out["questions"]] == [(q.id, q.kind) for q in p.questions]
    answers = [q["answer"] for q in out["questions"]]
    assert answers == [
        9,
        ["A piece of text the vocabulary holds"],
        ["They start from 256 byte tokens", "They have no unknown token"],
        [["word", "words"], ["space", "blank"]],
        ["Count every pair", "Take the most frequent pair", "Merge it everywhere"],
        ["a"],
    ]
    assert out["misconceptions"] == ["token-is-word", "languages-cost-the-same"]
    assert [e["steps"] for e in out["examples"]] == [3, 2]
    assert [r["title"] for r in out["readings"]] == ["What a token is", "encoding"]
    assert len(out["errors"]) == len(p.errors)


def test_the_fuzz_seed_in_the_published_shape_loads_cleanly():
    from tests.engine.formats.mutations import QUIZ_PAGE

    p = pack_from_markdown(QUIZ_PAGE, "seed.md")
    assert p.errors == () and len(p.questions) == 1 and list(p.misconceptions) == ["w"] and len(p.examples) == 1


def test_a_publication_line_is_metadata_only_before_the_body():
    text = TEXT.replace("Which letter comes first in the alphabet?",
                        "Which letter comes first in the alphabet?\nPublished in 1900, proof: none. Source: a book")
    q = pack_from_markdown(text, "p.md").questions[-1]
    assert q.prompt.endswith("Source: a book")


def test_labels_with_nested_values_are_kept_as_text():
    text = TEXT.replace('labels: {"lang":"en","level":"beginner"}', 'labels: {"lang":"en","tags":["bpe","counting"]}')
    p = pack_from_markdown(text, "p.md")
    assert p.questions[0].labels == ("lang: en", 'tags: ["bpe", "counting"]')
    assert len(p.errors) == len(pack().errors)


def new_errors(p) -> list[str]:
    """The errors of ``p`` the unchanged page does not have (lines after an insertion move)."""
    def unlined(e: str) -> str:
        return re.sub(r"line \d+", "line N", e)

    known = {unlined(e) for e in pack_from_markdown(TEXT, "p.md").errors}
    return [e for e in p.errors if unlined(e) not in known]


def test_an_unclosed_fence_is_named_at_its_line_and_the_next_heading_still_starts_a_section():
    lead = "part of a word, a whole word, or a space with a word.\n"
    assert TEXT.count(lead) == 1
    text = TEXT.replace(lead, lead + "\n```python\nprint('tokens')\n", 1)
    fence_line = text.splitlines().index("```python") + 1
    p = pack_from_markdown(text, "p.md")
    good = pack()
    (error,) = new_errors(p)
    assert f"code fence at line {fence_line} (```python) is never closed: add a line ``` after" in error
    assert re.search(r"explanation \S+ \(line 5\)", error)
    # the reading with the open fence is refused; the figure's HTML reaches no reading, every question loads
    assert [r.title for r in p.readings] == [r.title for r in good.readings if r.title != "What a token is"]
    assert all("<figure>" not in r.text for r in p.readings)
    assert [q.id for q in p.questions] == [q.id for q in good.questions]


def test_a_json_block_left_open_refuses_its_question_only():
    lines = TEXT.splitlines()
    start = next(n for n, line in enumerate(lines) if line == "```json")
    end = next(n for n in range(start + 1, len(lines)) if lines[n] == "```")
    text = "\n".join(lines[:end] + lines[end + 1:]) + "\n"
    p = pack_from_markdown(text, "p.md")
    good = pack()
    (error,) = new_errors(p)
    assert f"code fence at line {start + 1} (```json) is never closed" in error
    assert len(p.questions) == len(good.questions) - 1
    assert len(p.readings) == len(good.readings) and len(p.examples) == len(good.examples)
