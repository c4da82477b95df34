"""Concept pages, the Markdown format open lesson sites publish, as quiz packs.

A published page::

    # Tokens

    ## Version 3f2a…(64 hex digits)
    Published 2025-03-01, proof: …, score 0.9. Source: https://…

    ---
    format: 1
    concept: "tokens"
    kind: "question"
    labels: {"lang": "en", "level": "beginner"}
    ---
    How many times does the pair `s t` occur?

    ```json
    {"type": "number", "answer": 9, "wrong": [{"answer": "1", "misconception": "token-is-word"}]}
    ```

Each section's ``kind`` says what it is: a ``question`` (the body is its prompt, the json block its
answer), a ``misconception`` (the body explains it; a line ``Fix:`` starts the fix), a
``worked-example`` (``{"steps": [...]}``), an ``explanation`` (reading text) or a ``figure`` (HTML
the quiz cannot show: left to the page). Questions carry no ``id``: one is made from the version,
so saved progress finds them again. The older shape with an ``id`` in each front matter and no
version headings reads the same way. A section that cannot be read is named with what to fix;
the others still load.
"""

from __future__ import annotations

import re

from engine.errors import BpeLabError
from engine.files.reading import parse_json
from engine.quiz.packs import (
    PackBuilder,
    QuestionError,
    example_from_dict,
    labels_of,
    misconception_from_dict,
    question_from_dict,
    usable_images,
)
from engine.quiz.page_sections import Section, json_block, page_title, split_sections
from engine.quiz.questions import Pack, Reading

# the page format version this reader knows
PAGE_FORMAT = 1
# a derived id: this many hex digits of the version, enough to tell a page's sections apart
ID_DIGITS = 12
WHAT = {
    "question": "question",
    "misconception": "misconception",
    "worked-example": "worked example",
    "explanation": "explanation",
}
# sections that are the page's and not the quiz's: skipped without a word
PAGE_ONLY = ("figure",)
_FIX = re.compile(r"^\s*(?:\*\*)?Fix:(?:\*\*)?\s*(.*)$")
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$")


def _meta_text(section: Section, key: str, strict: bool = False) -> str:
    """A front-matter value that must be one text; anything else is the author's slip (strict) or no match."""
    value = section.meta.get(key)
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        return value.strip()
    if strict:
        raise QuestionError(f'"{key}" in the front matter must be one text (it is {str(value)[:40]})')
    return ""


def _check_format(section: Section) -> None:
    value = section.meta.get("format")
    if value is not None and value != PAGE_FORMAT:
        raise QuestionError(f'"format" is {str(value)[:20]} but this BPE Lab reads format {PAGE_FORMAT} pages; '
                            "update BPE Lab")


def _split_fix(body: str) -> tuple[str, str]:
    """(the explanation, the fix): the fix starts at a line beginning ``Fix:``."""
    lines = body.splitlines()
    for n, line in enumerate(lines):
        m = _FIX.match(line)
        if m:
            fix = "\n".join([m.group(1), *lines[n + 1:]]).strip()
            return "\n".join(lines[:n]).strip(), fix
    return body, ""


def _lead_heading(body: str) -> tuple[str, str]:
    """(a heading opening the body, the rest) or ("", body)."""
    first, _, rest = body.partition("\n")
    m = _HEADING.match(first)
    return (m.group(1), rest.strip()) if m else ("", body)


def _first_sentence(text: str) -> str:
    line = next((s.strip() for s in text.splitlines() if s.strip()), "")
    sentence = re.split(r"(?<=[.!?])\s", line, maxsplit=1)[0]
    return sentence if len(sentence) <= 100 else sentence[:99] + "…"


class _Page:
    """One page being read: each section goes to the builder, or becomes a message saying why not."""

    def __init__(self, source: str):
        self.builder = PackBuilder(source)
        self.readings: list[Reading] = []

    def read(self, number: int, section: Section) -> None:
        kind = _meta_text(section, "kind").lower()
        what = WHAT.get(kind, "section")
        derived = section.version[:ID_DIGITS] if section.version and not section.problem else ""
        try:
            given, title = _meta_text(section, "id", True), _meta_text(section, "title", True)
            # questions point at a misconception by the id its author gave it; one made up points nowhere
            key = given or ("" if kind == "misconception" else derived)
        except QuestionError as exc:
            self.builder.error(f"{what} {number} (line {section.line})", str(exc))
            return
        where = f"{what} '{key}'" if key else f"{what} {number}"
        where += f" (line {section.line})"
        if section.problem:
            self.builder.error(where, section.problem)
            return
        if kind in PAGE_ONLY:
            return
        if kind not in WHAT:
            if section.version:
                # a published section always names a kind this reader knows
                self.builder.error(where, f'the kind {kind or "(none)"!r} is not one of {", ".join([*WHAT, *PAGE_ONLY])}')
            return
        try:
            self._read(kind, section, key, title, where)
        except QuestionError as exc:
            self.builder.error(where, str(exc))

    def _read(self, kind: str, section: Section, key: str, title: str, where: str) -> None:
        _check_format(section)
        try:
            labels = labels_of(section.meta.get("labels"))
        except QuestionError as exc:
            # labels sort questions; a wrong one is said, and the section still counts
            self.builder.error(where, str(exc))
            labels = ()
        body, block, at = json_block(section.body)
        data = None
        if block is not None:
            try:
                data = parse_json(block, "the json block", first_line=section.body_line + at + 1,
                                  hint="check the brackets, commas and quotes there")
            except BpeLabError as exc:
                raise QuestionError(str(exc)) from None
        if kind == "explanation":
            usable_images(body)
            heading, text = _lead_heading(body)
            self.readings.append(Reading(key, title or heading or _meta_text(section, "concept") or "Reading",
                                         text if heading else body, labels))
            return
        if kind == "misconception":
            self._misconception(key, title, body, data)
            return
        if data is None:
            raise QuestionError("has no ```json block holding its " + WHAT[kind])
        if not key:
            raise QuestionError('has no "id" in its front matter and no ## Version heading to make one from: '
                                "give it one so progress can be saved")
        if kind == "worked-example":
            heading, rest = _lead_heading(body)
            self.builder.examples.append(example_from_dict(
                data, id=key, title=title or heading or _meta_text(section, "concept"),
                body=rest if heading and not title else body, labels=labels))
            return
        question = question_from_dict(data, id=key, prompt=body, title=title, labels=labels)
        self.builder.add_question(question, where)

    def _misconception(self, key: str, title: str, body: str, data: object) -> None:
        if not key:
            raise QuestionError('a misconception needs an "id" for questions to refer to')
        text, fix = _split_fix(body)
        heading, rest = _lead_heading(text)
        if heading and not title:
            title, text = heading, rest
        if not fix and isinstance(data, dict) and isinstance(data.get("fix"), str):
            fix = data["fix"]
        m = misconception_from_dict({"fix": fix}, id=key, title=title or _first_sentence(text) or key, text=text)
        if m.id in self.builder.misconceptions:
            raise QuestionError("the id is used twice")
        self.builder.misconceptions[m.id] = m


def pack_from_markdown(text: str, source: str) -> Pack:
    page = _Page(source)
    for number, section in enumerate(split_sections(text), start=1):
        page.read(number, section)
    return page.builder.build(page_title(text), tuple(page.readings))
