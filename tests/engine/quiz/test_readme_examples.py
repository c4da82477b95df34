"""The pack examples in the README load with no problem: a teacher can copy them."""

import re
from pathlib import Path

from engine.quiz import pack_from_json
from engine.quiz.markdown import pack_from_markdown

README = Path(__file__).parents[3] / "README.md"


def section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(title)
    end = text.find("\n### ", start + 1)
    return text[start:end if end > 0 else None]


def test_json_example_loads_cleanly():
    block = re.search(r"```json\n(.*?)\n```", section("### BPE Lab's JSON format"), re.DOTALL).group(1)
    pack = pack_from_json(block, "README")
    assert pack.errors == ()
    assert [q.kind for q in pack.questions] == ["number", "choose", "fill", "order"]
    assert len(pack.examples) == 1 and list(pack.misconceptions) == ["token-is-word"]


def test_markdown_example_loads_cleanly():
    block = re.search(r"````markdown\n(.*?)\n````", section("### Concept-page Markdown"), re.DOTALL).group(1)
    pack = pack_from_markdown(block, "README")
    assert pack.errors == ()
    versions = re.findall(r"^## Version ([0-9a-f]{64})$", block, re.MULTILINE)
    assert [q.id for q in pack.questions] == [versions[1][:12]]
    assert [w.answer for w in pack.questions[0].wrong] == [2]
    m = pack.misconceptions["token-is-word"]
    assert (m.title, m.fix) == ("A token is a word", "Count the tiles, not the words.")
    assert "Published" not in pack.questions[0].prompt
