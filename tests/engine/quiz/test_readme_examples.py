"""The pack examples in the user guide (docs/quiz-packs.md) load with no problem: a teacher can copy them."""

import re
from pathlib import Path

from engine.quiz import pack_from_json
from engine.quiz.markdown import pack_from_markdown

GUIDE = Path(__file__).parents[3] / "docs" / "quiz-packs.md"


def section(title: str) -> str:
    """The page from the heading ``title`` on: its example is the first block after the heading (the
    concept-page example holds headings of its own, so the section is not cut at the next one)."""
    text = GUIDE.read_text(encoding="utf-8")
    return text[text.index(title):]


def test_json_example_loads_cleanly():
    block = re.search(r"```json\n(.*?)\n```", section("## BPE Lab's JSON format"), re.DOTALL).group(1)
    pack = pack_from_json(block, "guide")
    assert pack.errors == ()
    assert [q.kind for q in pack.questions] == ["number", "choose", "fill", "order"]
    assert len(pack.examples) == 1 and list(pack.misconceptions) == ["token-is-word"]


def test_markdown_example_loads_cleanly():
    block = re.search(r"````markdown\n(.*?)\n````", section("## Concept-page Markdown"), re.DOTALL).group(1)
    pack = pack_from_markdown(block, "guide")
    assert pack.errors == ()
    versions = re.findall(r"^## Version ([0-9a-f]{64})$", block, re.MULTILINE)
    assert [q.id for q in pack.questions] == [versions[1][:12]]
    assert [w.answer for w in pack.questions[0].wrong] == [2]
    m = pack.misconceptions["token-is-word"]
    assert (m.title, m.fix) == ("A token is a word", "Count the tiles, not the words.")
    assert "Published" not in pack.questions[0].prompt
