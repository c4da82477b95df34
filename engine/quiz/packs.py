"""Quiz packs: BPE Lab's own versioned JSON format (``engine.quiz.load`` reads a pack file of any format).

    {"format": "bpe-lab-quiz", "version": 1, "title": "...",
     "misconceptions": [{"id": "...", "title": "...", "text": "...", "fix": "..."}],
     "questions": [{"id": "...", "kind": "number" | "choose" | "fill" | "order", "prompt": "...", ...}],
     "examples": [{"id": "...", "title": "...", "steps": ["...", "..."]}]}

The README's "Quiz packs" section is the full description for teachers. One bad question never
sinks a pack: it is left out and a message naming the file and the question says what to fix.
The fields of a question are the same here and in the Markdown format (``engine.quiz.markdown``),
so both go through ``question_from_dict``.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from pathlib import Path

from engine.errors import BpeLabError
from engine.quiz.questions import (
    KINDS,
    ChooseQuestion,
    FillQuestion,
    Misconception,
    NumberQuestion,
    Option,
    OrderQuestion,
    Pack,
    Question,
    WorkedExample,
    WrongAnswer,
)

FORMAT = "bpe-lab-quiz"
VERSION = 1
GAP = re.compile(r"\[\[(\d+)\]\]")


class QuestionError(ValueError):
    """One question is malformed; the message says which field and what to write instead."""


def _text(data: dict, key: str, default: str = "") -> str:
    value = data.get(key, default)
    if value is None:
        return default
    if not isinstance(value, str):
        raise QuestionError(f'"{key}" must be text')
    return value.strip()


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def labels_of(value) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(v.strip() for v in value.split(",") if v.strip())
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise QuestionError('"labels" must be a list of words')


def question_from_dict(data: dict, *, id: str, prompt: str = "", title: str = "", labels=()) -> Question:
    """One question from its fields; raises QuestionError naming the field that is wrong."""
    if not isinstance(data, dict):
        raise QuestionError("a question must be a JSON object")
    kind = data.get("kind", data.get("type"))
    if kind not in KINDS:
        raise QuestionError(f'"type" (or "kind") must be one of {", ".join(KINDS)}, not {json.dumps(kind)}')
    common = dict(
        id=id,
        prompt=_text(data, "prompt", prompt) or prompt,
        title=_text(data, "title", title) or title,
        hint=_text(data, "hint"),
        explanation=_text(data, "explanation"),
        labels=labels_of(data.get("labels")) or tuple(labels),
    )
    if kind == "number":
        return _number(data, common)
    if kind == "choose":
        return _choose(data, common)
    if kind == "fill":
        return _fill(data, common)
    return _order(data, common)


def _number(data: dict, common: dict) -> NumberQuestion:
    answer = data.get("answer")
    if not _is_number(answer):
        raise QuestionError('a number question needs "answer": a number such as 9')
    tolerance = data.get("tolerance", 0)
    if tolerance is None:
        tolerance = 0
    if not _is_number(tolerance) or tolerance < 0:
        raise QuestionError('"tolerance" must be a number, 0 or more')
    wrong = []
    for i, entry in enumerate(data.get("wrong") or [], start=1):
        if not isinstance(entry, dict) or not _is_number(entry.get("answer")) or not isinstance(entry.get("misconception"), str):
            raise QuestionError(f'wrong answer {i} must be {{"answer": a number, "misconception": an id}}')
        wrong.append(WrongAnswer(entry["answer"], entry["misconception"]))
    if not common["prompt"]:
        raise QuestionError("the question has no text: write what it asks")
    return NumberQuestion(**common, answer=answer, tolerance=tolerance, wrong=tuple(wrong))


def _choose(data: dict, common: dict) -> ChooseQuestion:
    raw = data.get("options")
    if not isinstance(raw, list) or len(raw) < 2:
        raise QuestionError('a choose question needs "options": a list of at least two')
    options = []
    for i, entry in enumerate(raw, start=1):
        if isinstance(entry, str):
            entry = {"text": entry}
        if not isinstance(entry, dict) or not isinstance(entry.get("text"), str) or not entry["text"].strip():
            raise QuestionError(f'option {i} must be {{"text": "...", "correct": true/false}}')
        correct = entry.get("correct", False)
        if not isinstance(correct, bool):
            raise QuestionError(f'option {i}: "correct" must be true or false')
        mis = entry.get("misconception") or ""
        if not isinstance(mis, str):
            raise QuestionError(f'option {i}: "misconception" must be an id')
        options.append(Option(entry["text"].strip(), correct, mis))
    multiple = data.get("multiple", False)
    if not isinstance(multiple, bool):
        raise QuestionError('"multiple" must be true or false')
    right = sum(o.correct for o in options)
    if right == 0:
        raise QuestionError('no option is marked "correct": true')
    if not multiple and right > 1:
        raise QuestionError(f'{right} options are correct but "multiple" is false: mark one, or set "multiple": true')
    if not common["prompt"]:
        raise QuestionError("the question has no text: write what it asks")
    return ChooseQuestion(**common, options=tuple(options), multiple=multiple)


def _fill(data: dict, common: dict) -> FillQuestion:
    text = data.get("text")
    if not isinstance(text, str) or not text.strip():
        raise QuestionError('a fill question needs "text" with gaps written [[1]], [[2]]...')
    raw = data.get("blanks")
    if not isinstance(raw, list) or not raw:
        raise QuestionError('a fill question needs "blanks": one list of accepted answers per gap')
    blanks = []
    for i, entry in enumerate(raw, start=1):
        if isinstance(entry, str):
            entry = [entry]
        if not isinstance(entry, list) or not entry or not all(isinstance(a, str) and a.strip() for a in entry):
            raise QuestionError(f"blank {i} must be a list of accepted answers, such as [\"tokens\", \"token\"]")
        blanks.append(tuple(a.strip() for a in entry))
    gaps = [int(m) for m in GAP.findall(text)]
    if sorted(gaps) != list(range(1, len(blanks) + 1)):
        raise QuestionError(
            f"the text has gaps {', '.join(f'[[{g}]]' for g in gaps) or '(none)'} but \"blanks\" has {len(blanks)} "
            f"entries: number the gaps [[1]] to [[{len(blanks)}]], each once"
        )
    case_sensitive = data.get("case_sensitive", False)
    if not isinstance(case_sensitive, bool):
        raise QuestionError('"case_sensitive" must be true or false')
    return FillQuestion(**common, text=text.strip(), blanks=tuple(blanks), case_sensitive=case_sensitive)


def _order(data: dict, common: dict) -> OrderQuestion:
    items = data.get("items")
    if not isinstance(items, list) or len(items) < 2 or not all(isinstance(i, str) and i.strip() for i in items):
        raise QuestionError('an order question needs "items": at least two texts, in the right order')
    items = [i.strip() for i in items]
    if len(set(items)) != len(items):
        raise QuestionError('"items" holds the same text twice: each item must differ')
    if not common["prompt"]:
        raise QuestionError("the question has no text: write what it asks")
    return OrderQuestion(**common, items=tuple(items))


def misconception_from_dict(data: dict, *, id: str = "", title: str = "", text: str = "") -> Misconception:
    if not isinstance(data, dict):
        raise QuestionError("a misconception must be a JSON object")
    key = _text(data, "id", id) or id
    if not key:
        raise QuestionError('a misconception needs an "id" for questions to refer to')
    name = _text(data, "title", title) or title or key
    return Misconception(key, name, _text(data, "text", text) or text, _text(data, "fix"))


def example_from_dict(data: dict, *, id: str, title: str = "", body: str = "", labels=()) -> WorkedExample:
    steps = data.get("steps") if isinstance(data, dict) else None
    if not isinstance(steps, list) or not steps or not all(isinstance(s, str) for s in steps):
        raise QuestionError('a worked example needs "steps": a list of Markdown texts')
    return WorkedExample(id, _text(data, "title", title) or title or id, tuple(steps), body,
                         labels_of(data.get("labels")) or tuple(labels))


class PackBuilder:
    """Collects sections in file order; keeps ids unique and checks misconception references."""

    def __init__(self, source: str):
        self.source = source
        self.questions: list[Question] = []
        self.misconceptions: dict[str, Misconception] = {}
        self.examples: list[WorkedExample] = []
        self.errors: list[str] = []
        self._ids: set[str] = set()

    def error(self, where: str, message: str) -> None:
        self.errors.append(f"{self.source}: {where}: {message}")

    def add_question(self, question: Question, where: str) -> None:
        if question.id in self._ids:
            self.error(where, f"the id '{question.id}' is used twice; give each question its own id")
            return
        self._ids.add(question.id)
        self.questions.append(question)

    def build(self, title: str = "") -> Pack:
        for q in self.questions:
            refs = [w.misconception for w in getattr(q, "wrong", ())]
            refs += [o.misconception for o in getattr(q, "options", ()) if o.misconception]
            for ref in refs:
                if ref not in self.misconceptions:
                    self.error(f"question '{q.id}'", f"refers to misconception '{ref}', which the pack does not define")
        return Pack(title, tuple(self.questions), dict(self.misconceptions), tuple(self.examples),
                    tuple(self.errors), self.source)


def pack_from_data(data, source: str) -> Pack:
    """A pack from parsed JSON; a wrong envelope is an error, a wrong question only a message."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BpeLabError(f'{source}: not a BPE Lab quiz pack (it needs "format": "{FORMAT}")')
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise BpeLabError(f'{source}: "version" must be a whole number')
    if version > VERSION:
        raise BpeLabError(f"{source}: quiz pack version {version} is newer than this BPE Lab reads ({VERSION}); update BPE Lab")
    b = PackBuilder(source)
    for i, entry in enumerate(_list(data, "misconceptions", b), start=1):
        try:
            m = misconception_from_dict(entry)
        except QuestionError as exc:
            b.error(f"misconception {i}", str(exc))
            continue
        if m.id in b.misconceptions:
            b.error(f"misconception '{m.id}'", "the id is used twice")
            continue
        b.misconceptions[m.id] = m
    for i, entry in enumerate(_list(data, "questions", b), start=1):
        key = entry.get("id") if isinstance(entry, dict) else None
        key = key if isinstance(key, str) and key.strip() else f"question-{i}"
        where = f"question '{key}' (number {i})"
        try:
            b.add_question(question_from_dict(entry, id=key), where)
        except QuestionError as exc:
            b.error(where, str(exc))
    for i, entry in enumerate(_list(data, "examples", b), start=1):
        key = entry.get("id") if isinstance(entry, dict) else None
        key = key if isinstance(key, str) and key.strip() else f"example-{i}"
        try:
            b.examples.append(example_from_dict(entry, id=key, body=entry.get("body", "") or ""))
        except QuestionError as exc:
            b.error(f"worked example '{key}'", str(exc))
    title = data.get("title") if isinstance(data.get("title"), str) else ""
    return b.build(title or Path(source).stem)


def _list(data: dict, key: str, b: PackBuilder) -> list:
    value = data.get(key, [])
    if not isinstance(value, list):
        b.error(f'"{key}"', "must be a list")
        return []
    return value


def pack_from_json(text: str, source: str) -> Pack:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BpeLabError(f"{source}: not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}") from None
    return pack_from_data(data, source)


def pack_to_data(pack: Pack) -> dict:
    """The JSON form of a pack (what ``pack_from_data`` reads back)."""
    questions = []
    for q in pack.questions:
        entry = {"id": q.id, "kind": q.kind, "title": q.title, "prompt": q.prompt}
        for key in ("hint", "explanation"):
            if getattr(q, key):
                entry[key] = getattr(q, key)
        if q.labels:
            entry["labels"] = list(q.labels)
        if isinstance(q, NumberQuestion):
            entry.update(answer=q.answer, tolerance=q.tolerance)
            if q.wrong:
                entry["wrong"] = [asdict(w) for w in q.wrong]
        elif isinstance(q, ChooseQuestion):
            entry.update(multiple=q.multiple, options=[
                {k: v for k, v in asdict(o).items() if v or k == "correct"} for o in q.options])
        elif isinstance(q, FillQuestion):
            entry.update(text=q.text, blanks=[list(b) for b in q.blanks])
        elif isinstance(q, OrderQuestion):
            entry["items"] = list(q.items)
        questions.append(entry)
    return {
        "format": FORMAT,
        "version": VERSION,
        "title": pack.title,
        "misconceptions": [asdict(m) for m in pack.misconceptions.values()],
        "questions": questions,
        "examples": [{"id": e.id, "title": e.title, "body": e.body, "steps": list(e.steps)} for e in pack.examples],
    }
