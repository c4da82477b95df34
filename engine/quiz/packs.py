"""Quiz packs: BPE Lab's own versioned JSON format (``engine.quiz.load`` reads a pack file of any format).

    {"format": "bpe-lab-quiz", "version": 1, "title": "...",
     "misconceptions": [{"id": "...", "title": "...", "text": "...", "fix": "..."}],
     "questions": [{"id": "...", "kind": "number" | "choose" | "fill" | "order", "prompt": "...", ...}],
     "examples": [{"id": "...", "title": "...", "steps": ["...", "..."]}],
     "readings": [{"id": "...", "title": "...", "text": "..."}]}

The user guide's "Quiz packs" page (docs/quiz-packs.md) is the full description for teachers. One
bad question never sinks a pack: it is left out and a message naming the file and the question says
what to fix.
The fields of a question are the same here and in the Markdown format (``engine.quiz.markdown``),
so both go through ``question_from_dict``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from engine.errors import BpeLabError
from engine.files.reading import parse_json
from engine.formats.schema import REQUIRED, Fields, SchemaError, shown
from engine.quiz.images import check_image_links
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
    Reading,
    WorkedExample,
    WrongAnswer,
)

P = ParamSpec("P")
T = TypeVar("T")

FORMAT = "bpe-lab-quiz"
VERSION = 1
GAP = re.compile(r"\[\[(\d+)\]\]")
# a gap written as a run of underscores, as concept pages do: numbered in the order met
BLANK_LINE = re.compile(r"_{3,}")


def gap_number(digits: str) -> int:
    """The number a gap ``[[digits]]`` is written with; 0 (no gap's) for one too long to be a gap's:
    Python turns no more than 4,300 digits into a number, and no question has a million gaps."""
    return int(digits) if len(digits) <= 6 else 0


class QuestionError(SchemaError):
    """One question is malformed; the message says which field and what to write instead."""


# the largest answer or tolerance a pack may give: a float still holds every whole number up to it
MAX_ANSWER = 1e15


def _fields(data: object, what: str) -> Fields:
    if not isinstance(data, dict):
        raise QuestionError(f"{what} must be a JSON object (it is {shown(data)})")
    return Fields(data)


def _checked(read: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Run one field's reader, reporting a wrong value as this question's error."""
    try:
        return read(*args, **kwargs)
    except SchemaError as exc:
        raise QuestionError(str(exc)) from None


def _text(f: Fields, key: str, default: str = "") -> str:
    value = _checked(lambda: f.text(key, None, optional=True))
    return default if value is None else value.strip()


def labels_of(value: object) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(v.strip() for v in value.split(",") if v.strip())
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    if isinstance(value, dict):
        # concept pages label with an object: {"lang": "en", "level": "beginner"}
        return tuple(f"{k}: {v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)}" for k, v in value.items())
    raise QuestionError(f'"labels" must be a list of words or an object of names and values (it is {shown(value)})')


def usable_images(data: object) -> None:
    """QuestionError for an image link, in any text of ``data``, that can name no file (a NUL
    written %00 in it): refused where the pack is read, before a view would look the file up."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            try:
                check_image_links(value)
            except BpeLabError as exc:
                raise QuestionError(str(exc)) from None
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, (list, tuple)):
            stack.extend(value)


def question_from_dict(data: object, *, id: str, prompt: str = "", title: str = "",
                       labels: tuple[str, ...] = ()) -> Question:
    """One question from its fields; raises QuestionError naming the field that is wrong."""
    f = _fields(data, "a question")
    usable_images((data, prompt))
    kind = f.get("kind", None)
    kind = f.get("type", None) if kind is None else kind
    if kind not in KINDS:
        raise QuestionError(f'"type" (or "kind") must be one of {", ".join(KINDS)}, not {shown(kind)}')
    common = dict(
        id=id,
        prompt=_text(f, "prompt", prompt) or prompt,
        title=_text(f, "title", title) or title,
        hint=_text(f, "hint"),
        explanation=_text(f, "explanation"),
        labels=labels_of(f.get("labels", None)) or tuple(labels),
        purpose=_text(f, "purpose"),
    )
    if kind == "number":
        return _number(f, common)
    if kind == "choose":
        return _choose(f, common)
    if kind == "fill":
        return _fill(f, common)
    return _order(f, common)


def _answer(f: Fields, key: str, default: Any = REQUIRED, low: float = -MAX_ANSWER) -> float:
    must = f"must be a number from {low:,.0f} to {MAX_ANSWER:,.0f}, such as 9"
    found: float = _checked(lambda: f.number(key, default, low=low, high=MAX_ANSWER, must=must))
    return found


def _wrong_number(w: Fields, i: int) -> float | int:
    """A wrong answer's number; concept pages write it as a text (``"1"``)."""
    value = w.get("answer", None)
    if not isinstance(value, str):
        return _answer(w, "answer")
    try:
        number = float(value.strip())
    except ValueError:
        number = None
    if number is None or not -MAX_ANSWER <= number <= MAX_ANSWER:
        raise QuestionError(f'wrong answer {i}: "answer" must be a number, or a text holding one such as "1" '
                            f"(it is {shown(value)})")
    return int(number) if number.is_integer() else number


def _number(f: Fields, common: dict[str, Any]) -> NumberQuestion:
    if f.get("answer", None) is None:
        raise QuestionError('a number question needs "answer": a number such as 9')
    answer = _answer(f, "answer")
    tolerance = 0 if f.get("tolerance", None) is None else _answer(f, "tolerance", low=0)
    wrong = []
    entries = _checked(lambda: f.items("wrong", [], optional=True)) or []
    for i, entry in enumerate(entries, start=1):
        w = _fields(entry, f"wrong answer {i}")
        if w.get("answer", None) is None or not isinstance(w.get("misconception", None), str):
            raise QuestionError(f'wrong answer {i} must be {{"answer": a number, "misconception": an id}}')
        wrong.append(WrongAnswer(_wrong_number(w, i), w.get("misconception")))
    if not common["prompt"]:
        raise QuestionError("the question has no text: write what it asks")
    return NumberQuestion(**common, answer=answer, tolerance=tolerance, wrong=tuple(wrong))


def _choose(f: Fields, common: dict[str, Any]) -> ChooseQuestion:
    raw = f.get("options", None)
    if not isinstance(raw, list) or len(raw) < 2:
        raise QuestionError('a choose question needs "options": a list of at least two')
    options = []
    for i, entry in enumerate(raw, start=1):
        if isinstance(entry, str):
            entry = {"text": entry}
        if not isinstance(entry, dict) or not isinstance(entry.get("text"), str) or not entry["text"].strip():
            raise QuestionError(f'option {i} must be {{"text": "...", "correct": true/false}}')
        o = Fields(entry, where=f"option {i}")
        correct = _checked(o.flag, "correct", False)
        mis = _checked(o.text, "misconception", "", optional=True, must="must be a misconception's id") or ""
        options.append(Option(entry["text"].strip(), correct, mis))
    multiple = _checked(lambda: f.flag("multiple", False))
    right = sum(o.correct for o in options)
    if right == 0:
        raise QuestionError('no option is marked "correct": true')
    if not multiple and right > 1:
        raise QuestionError(f'{right} options are correct but "multiple" is false: mark one, or set "multiple": true')
    if not common["prompt"]:
        raise QuestionError("the question has no text: write what it asks")
    return ChooseQuestion(**common, options=tuple(options), multiple=multiple)


def _fill(f: Fields, common: dict[str, Any]) -> FillQuestion:
    text = f.get("text", None)
    if text is None and (GAP.search(common["prompt"]) or BLANK_LINE.search(common["prompt"])):
        # a concept page writes its gaps in the prompt itself
        text, common = common["prompt"], dict(common, prompt="Fill in the gaps.")
    if not isinstance(text, str) or not text.strip():
        raise QuestionError('a fill question needs "text" with gaps written [[1]], [[2]]... (or gaps ___ in its text)')
    if not GAP.search(text):
        numbers = iter(range(1, 1000))
        text = BLANK_LINE.sub(lambda _m: f"[[{next(numbers)}]]", text)
    key = next((k for k in ("blanks", "answers", "gaps") if f.get(k, None) is not None), "blanks")
    raw = f.get(key, None)
    if not isinstance(raw, list) or not raw:
        raise QuestionError('a fill question needs "blanks": one list of accepted answers per gap')
    blanks = []
    for i, entry in enumerate(raw, start=1):
        if isinstance(entry, str):
            entry = [entry]
        if not isinstance(entry, list) or not entry or not all(isinstance(a, str) and a.strip() for a in entry):
            raise QuestionError(f"blank {i} must be a list of accepted answers, such as [\"tokens\", \"token\"]")
        blanks.append(tuple(a.strip() for a in entry))
    written = GAP.findall(text)
    if sorted(gap_number(g) for g in written) != list(range(1, len(blanks) + 1)):
        shown_gaps = ", ".join(f"[[{g if len(g) <= 12 else g[:9] + '...'}]]" for g in written[:10])
        raise QuestionError(
            f"the text has gaps {shown_gaps or '(none)'} but \"blanks\" has "
            f"{len(blanks)} entries: number the gaps [[1]] to [[{len(blanks)}]], each once"
        )
    case_sensitive = _checked(lambda: f.flag("case_sensitive", False))
    return FillQuestion(**common, text=text.strip(), blanks=tuple(blanks), case_sensitive=case_sensitive)


def _order(f: Fields, common: dict[str, Any]) -> OrderQuestion:
    items = f.get("items", None)
    if not isinstance(items, list) or len(items) < 2 or not all(isinstance(i, str) and i.strip() for i in items):
        raise QuestionError('an order question needs "items": at least two texts, in the right order')
    items = [i.strip() for i in items]
    if len(set(items)) != len(items):
        raise QuestionError('"items" holds the same text twice: each item must differ')
    if not common["prompt"]:
        raise QuestionError("the question has no text: write what it asks")
    return OrderQuestion(**common, items=tuple(items))


def misconception_from_dict(data: object, *, id: str = "", title: str = "", text: str = "") -> Misconception:
    f = _fields(data, "a misconception")
    usable_images((data, text))
    key = _text(f, "id", id) or id
    if not key:
        raise QuestionError('a misconception needs an "id" for questions to refer to')
    name = _text(f, "title", title) or title or key
    return Misconception(key, name, _text(f, "text", text) or text, _text(f, "fix"))


def example_from_dict(data: object, *, id: str, title: str = "", body: str = "",
                      labels: tuple[str, ...] = ()) -> WorkedExample:
    f = _fields(data, "a worked example")
    usable_images((data, body))
    steps = f.get("steps", None)
    if not isinstance(steps, list) or not steps:
        raise QuestionError('a worked example needs "steps": a list of Markdown texts')
    steps = [_step_text(s, n) for n, s in enumerate(steps, start=1)]
    return WorkedExample(id, _text(f, "title", title) or title or id, tuple(steps), _text(f, "body", body) or body,
                         labels_of(f.get("labels", None)) or tuple(labels))


def _step_text(step: object, n: int) -> str:
    """A step is Markdown text, or an object whose "text" (and optional "title") says it."""
    if isinstance(step, dict) and isinstance(step.get("text"), str):
        head = step.get("title")
        return f"**{head}** {step['text']}" if isinstance(head, str) and head.strip() else step["text"]
    if isinstance(step, str):
        return step
    raise QuestionError(f'step {n} must be a Markdown text, or {{"text": "..."}} (it is {shown(step)})')


def reading_from_dict(data: object, *, id: str) -> Reading:
    f = _fields(data, "a reading")
    usable_images(data)
    text = _text(f, "text")
    if not text:
        raise QuestionError('a reading needs "text"')
    return Reading(id, _text(f, "title") or id, text, labels_of(f.get("labels", None)))


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

    def build(self, title: str = "", readings: tuple[Reading, ...] = ()) -> Pack:
        for q in self.questions:
            refs = [w.misconception for w in getattr(q, "wrong", ())]
            refs += [o.misconception for o in getattr(q, "options", ()) if o.misconception]
            for ref in refs:
                if ref not in self.misconceptions:
                    self.error(f"question '{q.id}'", f"refers to misconception '{ref}', which the pack does not define")
        return Pack(title, tuple(self.questions), dict(self.misconceptions), tuple(self.examples),
                    tuple(self.errors), self.source, tuple(readings))


def pack_from_data(data: object, source: str) -> Pack:
    """A pack from parsed JSON; a wrong envelope is an error, a wrong question only a message."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BpeLabError(f'{source}: not a BPE Lab quiz pack (it needs "format": "{FORMAT}")')
    f = Fields(data, source)
    version = f.whole("version", must="must be a whole number, 1 or more", low=1)
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
        key = _entry_id(entry, f"question-{i}")
        where = f"question '{key}' (number {i})"
        try:
            b.add_question(question_from_dict(entry, id=key), where)
        except QuestionError as exc:
            b.error(where, str(exc))
    for i, entry in enumerate(_list(data, "examples", b), start=1):
        key = _entry_id(entry, f"example-{i}")
        try:
            b.examples.append(example_from_dict(entry, id=key))
        except QuestionError as exc:
            b.error(f"worked example '{key}'", str(exc))
    readings = []
    for i, entry in enumerate(_list(data, "readings", b), start=1):
        key = _entry_id(entry, f"reading-{i}")
        try:
            readings.append(reading_from_dict(entry, id=key))
        except QuestionError as exc:
            b.error(f"reading '{key}'", str(exc))
    title = data.get("title") if isinstance(data.get("title"), str) else ""
    return b.build(title or Path(source).stem, tuple(readings))


def _entry_id(entry: object, default: str) -> str:
    key = entry.get("id") if isinstance(entry, dict) else None
    return key.strip() if isinstance(key, str) and key.strip() else default


def _list(data: dict[str, Any], key: str, b: PackBuilder) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        b.error(f'"{key}"', "must be a list")
        return []
    return value


def pack_from_json(text: str, source: str) -> Pack:
    return pack_from_data(parse_json(text, source, hint="check the brackets, commas and quotes there"), source)


def pack_to_data(pack: Pack) -> dict[str, Any]:
    """The JSON form of a pack (what ``pack_from_data`` reads back)."""
    questions = []
    for q in pack.questions:
        entry: dict[str, Any] = {"id": q.id, "kind": q.kind, "title": q.title, "prompt": q.prompt}
        for key in ("hint", "explanation", "purpose"):
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
        "readings": [{"id": r.id, "title": r.title, "text": r.text} for r in pack.readings],
    }
