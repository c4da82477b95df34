"""The concept-page Markdown format, on a pack written in it (tests/engine/quiz/data/concepts.md)."""

from pathlib import Path

from engine.quiz import grade, load_pack
from engine.quiz.markdown import pack_from_markdown
from engine.quiz.questions import ChooseQuestion, FillQuestion, NumberQuestion, OrderQuestion

PACK = Path(__file__).parent / "data" / "concepts.md"


def pack():
    return load_pack(PACK)


def test_every_good_section_loads_in_order():
    p = pack()
    assert [q.id for q in p.questions] == ["count-st", "what-is-a-token", "byte-facts", "marker-gap", "loop-order"]
    assert [type(q) for q in p.questions] == [NumberQuestion, ChooseQuestion, ChooseQuestion, FillQuestion, OrderQuestion]
    assert p.title == "Tokens and merges"


def test_front_matter_gives_title_and_labels_in_both_list_styles():
    by_id = {q.id: q for q in pack().questions}
    assert by_id["count-st"].title == "Counting a pair"
    assert by_id["count-st"].labels == ("counting", "pairs")
    assert by_id["what-is-a-token"].labels == ("tokens", "basics")


def test_body_is_the_question_and_a_rule_inside_it_stays():
    q = {q.id: q for q in pack().questions}["count-st"]
    assert q.prompt.startswith("The corpus is low ×5")
    assert "horizontal rule inside the body" in q.prompt
    assert "```" not in q.prompt and '"type"' not in q.prompt
    assert (q.answer, q.tolerance, q.hint) == (9, 0, "Weight each word by its count.")


def test_misconception_section_is_used_by_wrong_answers():
    p = pack()
    m = p.misconceptions["token-is-word"]
    assert m.title == "A token is a word" and m.text.startswith("Tokens are the pieces") and m.fix.startswith("Count")
    by_id = {q.id: q for q in p.questions}
    assert grade(by_id["count-st"], "1", p.misconceptions).misconception == m
    assert grade(by_id["what-is-a-token"], 1, p.misconceptions).misconception == m
    many = grade(by_id["byte-facts"], {0, 2}, p.misconceptions)
    assert many.misconception == m and many.score == 0 and not many.correct


def test_fill_and_order_sections_grade():
    by_id = {q.id: q for q in pack().questions}
    assert grade(by_id["marker-gap"], ["Word", "blank"]).correct
    assert grade(by_id["loop-order"], [0, 1, 2]).correct
    assert not grade(by_id["loop-order"], [1, 0, 2]).correct


def test_worked_example_loads_beside_the_questions():
    (example,) = pack().examples
    assert example.id == "first-merge" and example.title == "The first merge"
    assert example.steps == ("Count the pairs.", "`e s` wins the tie.", "Merge it everywhere.")


def test_malformed_sections_are_named_and_the_rest_loads():
    errors = pack().errors
    assert len(errors) == 5
    assert all(e.startswith(f"{PACK}: question '") for e in errors)
    joined = "\n".join(errors)
    for key, words in [
        ("bad-json", "not valid JSON"),
        ("no-answer", '"answer"'),
        ("gap-mismatch", "[[3]]"),
        ("no-block", "json block"),
        ("count-st", "used twice"),
    ]:
        (line,) = [e for e in errors if f"'{key}'" in e and words in e]
        assert "(line " in line
    assert "skipped" not in joined


def test_json_error_points_at_the_files_line():
    text = PACK.read_text(encoding="utf-8")
    (error,) = [e for e in pack().errors if "bad-json" in e]
    bad_line = next(n for n, line in enumerate(text.splitlines(), start=1) if ",,}" in line)
    assert f"(line {bad_line}, column" in error


def test_sections_without_kind_and_code_fences_do_not_open_sections():
    text = """---
kind: "question"
id: "q"
---
Look at this code:

```
---
kind: "question"
id: "inside-a-fence"
---
```

```json
{"type": "order", "items": ["a", "b"]}
```
"""
    p = pack_from_markdown(text, "page.md")
    assert [q.id for q in p.questions] == ["q"] and p.errors == ()
    assert "inside-a-fence" in p.questions[0].prompt


def test_windows_line_endings_and_unquoted_values():
    text = PACK.read_text(encoding="utf-8").replace('kind: "question"', "kind: question").replace("\n", "\r\n")
    p = pack_from_markdown(text, "page.md")
    assert [q.id for q in p.questions] == [q.id for q in pack().questions]
    assert len(p.errors) == len(pack().errors)


def test_an_unclosed_fence_in_a_page_without_headings_stops_at_the_next_json_block():
    text = """---
kind: "explanation"
id: "e"
---
Some code:

```
x = 1

---
kind: "question"
id: "after"
---
Put them in order.

```json
{"type": "order", "items": ["a", "b"]}
```
"""
    p = pack_from_markdown(text, "page.md")
    assert [q.id for q in p.questions] == ["after"]
    (error,) = p.errors
    assert "code fence at line 7 (```) is never closed" in error and "line 1" in error
    assert p.readings == ()


def test_a_fence_open_at_the_end_of_the_page_is_named():
    text = '---\nkind: "explanation"\nid: "e"\n---\nText.\n\n~~~\ncode\n'
    p = pack_from_markdown(text, "page.md")
    assert p.readings == () and "code fence at line 7 (~~~) is never closed: add a line ~~~" in p.errors[0]
