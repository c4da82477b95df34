"""The concept-page Markdown pack format used by open lesson sites.

A file is a run of sections. Each opens with a front-matter block between two ``---`` lines
(``kind: "question"``, ``id``, ``title``, ``labels``), then a Markdown body, and a fenced ``json``
block::

    ---
    kind: "question"
    id: "count-st"
    title: "Counting a pair"
    labels: ["counting"]
    ---
    How many times does the pair `s t` occur?

    ```json
    {"type": "number", "answer": 9, "hint": "Weight each word by its count."}
    ```

The body is the question's text. ``kind: "misconception"`` sections define what wrong answers
point at (the body explains it; an optional json block may add ``"fix"``), ``kind:
"worked-example"`` sections hold ``{"steps": [Markdown, ...]}``; other kinds are skipped. A block
between ``---`` lines only opens a section when it names a ``kind``, so a horizontal rule in a body
stays a rule. This is a reader for that convention, not a YAML parser: values are strings,
``[...]`` lists, or ``- item`` lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.errors import BpeLabError
from engine.files import parse_json

from engine.quiz.packs import (
    PackBuilder,
    QuestionError,
    example_from_dict,
    labels_of,
    misconception_from_dict,
    question_from_dict,
)
from engine.quiz.questions import Pack

_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s*(.*)$")
_ITEM = re.compile(r"^\s+-\s*(.*)$")
_FENCE = re.compile(r"^\s*(```+|~~~+)\s*([\w-]*)\s*$")
_MAX_FRONT_MATTER = 40


@dataclass
class Section:
    line: int  # 1-based line of the opening ---
    meta: dict = field(default_factory=dict)
    body_line: int = 0  # 1-based line of the body's first line
    body: list[str] = field(default_factory=list)


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def _value(raw: str):
    raw = raw.strip()
    if raw.startswith("[") and raw.endswith("]"):
        try:
            return parse_json(raw, "the list")
        except BpeLabError:
            inner = raw[1:-1]
            return [_unquote(v) for v in inner.split(",") if v.strip()]
    return _unquote(raw)


def _front_matter(lines: list[str], start: int) -> tuple[dict, int] | None:
    """The block opening at ``lines[start]`` (a ``---``): its keys and the index of its closing line."""
    meta: dict = {}
    last_key = None
    for j in range(start + 1, min(len(lines), start + 2 + _MAX_FRONT_MATTER)):
        line = lines[j]
        if line.strip() == "---":
            return (meta, j) if "kind" in meta else None
        if not line.strip():
            continue
        item = _ITEM.match(line)
        if item and last_key is not None:
            if not isinstance(meta[last_key], list):
                meta[last_key] = []
            meta[last_key].append(_unquote(item.group(1)))
            continue
        key = _KEY.match(line)
        if not key:
            return None
        last_key = key.group(1)
        meta[last_key] = _value(key.group(2)) if key.group(2).strip() else ""
    return None


def split_sections(text: str) -> list[Section]:
    """Sections in file order; text before the first one (page matter, an intro) is dropped."""
    lines = text.splitlines()
    sections: list[Section] = []
    fence = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _FENCE.match(line)
        if m and fence is None:
            fence = m.group(1)[:3]
        elif m and m.group(1).startswith(fence) and not m.group(2):
            # a closing fence has no info string
            fence = None
        elif fence is None and line.strip() == "---":
            found = _front_matter(lines, i)
            if found:
                meta, end = found
                sections.append(Section(i + 1, meta, body_line=end + 2))
                i = end + 1
                continue
        if sections:
            sections[-1].body.append(line)
        i += 1
    return sections


def json_block(body: list[str]) -> tuple[str, str | None, int]:
    """(the body without its first json block, that block's text or None, its line in the body)."""
    kept: list[str] = []
    block: list[str] | None = None
    found = None
    at = 0
    fence = None
    for n, line in enumerate(body):
        m = _FENCE.match(line)
        if fence is None and m and m.group(2).lower() == "json" and found is None:
            fence, block, at = m.group(1), [], n
            continue
        if fence is not None:
            if m and m.group(1).startswith(fence[:3]) and not m.group(2):
                found = "\n".join(block)
                fence = None
            else:
                block.append(line)
            continue
        kept.append(line)
    if fence is not None:
        # an unclosed fence: keep what there is, parse_json will say where it stops
        found = "\n".join(block)
    return "\n".join(kept).strip(), found, at


def _meta_text(section: Section, key: str, strict: bool = False) -> str:
    """A front-matter value that must be one text; a list there is the author's slip (strict) or no match."""
    value = section.meta.get(key) or ""
    if isinstance(value, str):
        return value.strip()
    if strict:
        raise QuestionError(f'"{key}" in the front matter must be one text, not a list')
    return ""


def pack_from_markdown(text: str, source: str) -> Pack:
    builder = PackBuilder(source)
    sections = split_sections(text)
    title = ""
    for match in re.finditer(r"^#\s+(.+)$", text, re.MULTILINE):
        title = match.group(1).strip()
        break
    for number, section in enumerate(sections, start=1):
        kind = _meta_text(section, "kind").lower()
        what = {"question": "question", "misconception": "misconception", "worked-example": "worked example"}.get(kind)
        if what is None:
            continue
        try:
            key, name = _meta_text(section, "id", True), _meta_text(section, "title", True)
        except QuestionError as exc:
            builder.error(f"{what} {number} (line {section.line})", str(exc))
            continue
        where = f"{what} '{key}'" if key else f"{what} {number}"
        where += f" (line {section.line})"
        try:
            labels = labels_of(section.meta.get("labels"))
        except QuestionError as exc:
            builder.error(where, str(exc))
            labels = ()
        body, block, at = json_block(section.body)
        data = None
        if block is not None:
            try:
                data = parse_json(block, "the json block", first_line=section.body_line + at + 1,
                                  hint="check the brackets, commas and quotes there")
            except BpeLabError as exc:
                builder.error(where, str(exc))
                continue
        if kind == "misconception":
            fix = data.get("fix", "") if isinstance(data, dict) else ""
            try:
                m = misconception_from_dict({"fix": fix} if isinstance(fix, str) else {}, id=key, title=name, text=body)
            except QuestionError as exc:
                builder.error(where, str(exc))
                continue
            if m.id in builder.misconceptions:
                builder.error(where, "the id is used twice")
            else:
                builder.misconceptions[m.id] = m
            continue
        if data is None:
            builder.error(where, "has no ```json block holding the question")
            continue
        if not key:
            builder.error(where, 'has no "id" in its front matter; give it one so progress can be saved')
            continue
        if kind == "worked-example":
            try:
                builder.examples.append(example_from_dict(data, id=key, title=name, body=body, labels=labels))
            except QuestionError as exc:
                builder.error(where, str(exc))
            continue
        try:
            q = question_from_dict(data, id=key, prompt=body, title=name, labels=labels)
        except QuestionError as exc:
            builder.error(where, str(exc))
            continue
        builder.add_question(q, where)
    return builder.build(title)

