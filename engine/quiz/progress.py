"""The quiz without a screen: which questions, which one is up, what happened to it, the score.

A ``QuizProgress`` holds the quiz panel's state and its rules: the question list (a pack's
questions, or those generated from the lesson so far), the question on screen and what happened
on this visit to it (an answer refused, checked, a hint shown, the verdict revealed), each
question's first checked score, teacher mode, and the progress record a lesson file keeps under
"quiz". It imports no Qt and announces nothing: a view calls a method, then reads the session.

Questions about the lesson are built elsewhere (in a thread for a large lesson): the session asks
a ``QuestionMaker`` for one, and the question comes back through ``add_lesson_question``.

Teacher mode keeps a checked answer's verdict, and its effect on the score, off the screen until
``reveal()``: the class sees the verdict and the new score together.

    >>> from engine.quiz.questions import NumberQuestion, Pack
    >>> quiz = QuizProgress(Pack("t", (NumberQuestion("n", "2 + 2?", answer=4),)))
    >>> quiz.check("4").correct, quiz.score_text()
    (True, 'Score: 1 of 1')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Protocol

from engine.errors import BpeLabError
from engine.formats.schema import shown
from engine.quiz.load import check_pack_name, load_pack
from engine.quiz.generated import MISCONCEPTIONS
from engine.quiz.grading import Result, grade, points
from engine.quiz.questions import Pack, Question

PROGRESS_VERSION = 1
# question sources: the pack the session starts with, the lesson, and pack files ("file:" + path)
BUNDLED, LESSON, FILE = "bundled", "lesson", "file:"


class ProgressError(BpeLabError):
    """Saved quiz progress that cannot be read at all (not an object, or from a newer format)."""


@dataclass(frozen=True)
class Answered:
    """A question's first checked answer: its score (0 to 1) and whether it was right."""

    score: float
    correct: bool


@dataclass(frozen=True)
class Progress:
    """What a lesson file keeps of the quiz. ``position`` is the question up in a pack (0 for the
    lesson, whose questions are built afresh); ``answers`` maps question ids to first answers."""

    source: str = BUNDLED
    position: int = 0
    answers: Mapping[str, Answered] = field(default_factory=dict)
    teacher_mode: bool = False

    def to_data(self) -> dict[str, Any]:
        return {
            "version": PROGRESS_VERSION,
            "source": self.source,
            "position": self.position,
            "answers": {k: {"score": a.score, "correct": a.correct} for k, a in self.answers.items()},
            "teacher_mode": self.teacher_mode,
        }


# the furthest question a saved position may name: no pack holds this many
MAX_POSITION = 1_000_000


def _score(value: object) -> float | None:
    """A saved score held to 0..1, or None for what is no number (compared before any float() of it:
    a whole number too large for a float would not convert)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return 0.0 if value <= 0 else 1.0 if value >= 1 else float(value)


def _savable(text: str) -> bool:
    """Text a lesson file can hold again (UTF-8 has no spelling for a lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def read_progress(data: object) -> Progress:
    """The record ``Progress.to_data`` wrote, checked whole before anything uses it. A field of the
    wrong type or out of range is left out (its default stands) and so is a damaged answer; data
    that is not an object, from a newer format, or naming its pack with what no file name holds,
    is refused with ``ProgressError``. Nothing else is ever raised, whatever the data."""
    if not isinstance(data, dict):
        raise ProgressError("The saved quiz progress is not a JSON object: it was not loaded.")
    version = data.get("version", PROGRESS_VERSION)
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= PROGRESS_VERSION:
        raise ProgressError(f"The saved quiz progress has version {shown(version)}; this BPE Lab reads version "
                            f"{PROGRESS_VERSION}: it was not loaded.")
    answers = {}
    raw = data.get("answers")
    for key, entry in (raw.items() if isinstance(raw, dict) else ()):
        score = _score(entry.get("score")) if isinstance(entry, dict) else None
        if isinstance(key, str) and _savable(key) and score is not None:
            answers[key] = Answered(score, entry.get("correct") is True)
    source = data.get("source")
    if not isinstance(source, str):
        source = BUNDLED
    elif "\x00" in source or not _savable(source):
        raise ProgressError(f"The saved quiz progress names its quiz pack {ascii(source[:60])}, which no file name can be "
                            "(it holds a NUL character or half of a surrogate pair): it was not loaded.")
    position = data.get("position")
    teacher = data.get("teacher_mode")
    return Progress(
        source=source,
        position=position if isinstance(position, int) and not isinstance(position, bool)
        and 0 <= position <= MAX_POSITION else 0,
        answers=answers,
        teacher_mode=teacher if isinstance(teacher, bool) else False,
    )


def pack_path_relative(data: Any, folder: Path) -> Any:
    """Saved progress ``data`` with its pack file named relative to ``folder`` (the lesson file's)
    when the pack lies in it or below: the lesson and its pack can then move together."""
    source = data.get("source") if isinstance(data, dict) else None
    if not isinstance(source, str) or not source.startswith(FILE):
        return data
    path = Path(source[len(FILE):])
    if not path.is_absolute():
        return data
    try:
        inside = path.relative_to(folder.resolve())
    except ValueError:
        return data
    return {**data, "source": FILE + inside.as_posix()}


def pack_path_resolved(data: Any, folder: Path) -> Any:
    """Saved progress ``data`` with a pack file named relative to the lesson read from ``folder``."""
    source = data.get("source") if isinstance(data, dict) else None
    if not isinstance(source, str) or not source.startswith(FILE):
        return data
    path = Path(source[len(FILE):])
    if path.is_absolute() or not path.parts:
        return data
    return {**data, "source": FILE + str(folder.resolve() / path)}


class QuestionMaker(Protocol):
    """Builds questions about the lesson on screen; each comes back through ``add_lesson_question``
    (at once, or later from a thread). ``pending`` is true while one is being built."""

    pending: bool

    def ask(self) -> bool:
        """Start building the next question; False when there is no lesson to ask about."""


@dataclass
class Visit:
    """What happened to the question on screen since it was put up."""

    number: int
    result: Result | None = None  # the checked answer (valid: it counts)
    refusal: str = ""  # why the last answer could not be graded (empty, not a number, ...)
    hinted: bool = False
    revealed: bool = False
    counted: bool = False  # this check gave the question its first answer (the one the score keeps)


class QuizProgress:
    def __init__(self, pack: Pack, maker: QuestionMaker | None = None):
        self._packs: dict[str, Pack] = {BUNDLED: pack}
        self._maker = maker
        self._source = BUNDLED
        self._questions: list[Question] = list(pack.questions)
        self._index = 0
        self._answers: dict[str, Answered] = {}
        self._visit = Visit(0)
        self._teacher = False
        self._no_lesson = False  # the last request for a lesson question found no lesson
        self._step = 0  # the lesson's step, as the view last said
        self._asked_step: int | None = None  # the step the last lesson question was asked at
        # what the teacher should read above the question: a pack's problems, a question that failed
        self.notice = ""

    # -- sources ------------------------------------------------------------------------------

    @property
    def source(self) -> str:
        return self._source

    @property
    def pack(self) -> Pack:
        """The pack whose questions are shown (for the lesson: its generated misconceptions)."""
        if self._source == LESSON:
            return Pack("From this lesson", tuple(self._questions), dict(MISCONCEPTIONS))
        return self._packs[self._source]

    def sources(self) -> list[tuple[str, str]]:
        """(key, label) for each source a teacher can pick: the first pack, the lesson, pack files."""
        first = [(BUNDLED, f"Pack: {self._packs[BUNDLED].title or 'bundled'}"), (LESSON, "From this lesson")]
        files = [(k, f"Pack: {p.title or Path(p.source).name}") for k, p in self._packs.items() if k != BUNDLED]
        return first + files

    def add_pack(self, pack: Pack, key: str | None = None) -> None:
        """Offer a pack and switch to it; its problems, if any, go to the notice."""
        key = key or FILE + pack.source
        self._packs[key] = pack
        self.set_source(key)
        if pack.errors:
            n = len(pack.errors)
            shown = "\n".join(pack.errors[:4]) + (f"\n… and {n - 4} more" if n > 4 else "")
            self.notice = f"{len(pack.questions)} questions loaded; {n} problem{'s' if n != 1 else ''}:\n{shown}"

    def open_pack(self, path: str) -> bool:
        """Load a pack file (JSON or Markdown); a file with no good question is refused, the reason
        in the notice."""
        try:
            pack = _read_pack(path)
        except BpeLabError as exc:
            self.notice = str(exc)
            return False
        self.add_pack(pack, FILE + path)
        return True

    def set_source(self, key: str) -> None:
        if key not in self._packs and key != LESSON:
            return
        self._source = key
        self.notice = ""
        self._questions = [] if key == LESSON else list(self._packs[key].questions)
        self._put_up(0)
        if key == LESSON:
            self._ask()

    # -- questions from the lesson --------------------------------------------------------------

    def lesson_changed(self, step: int = 0) -> None:
        """The lesson on screen is another one, at ``step``: questions about the old one would now
        be wrong."""
        self._step = step
        if self._source == LESSON:
            self._questions = []
            self._put_up(0)
            self._ask()

    def step_changed(self, step: int) -> bool:
        """The lesson moved to ``step``. A question about another step that is not answered yet (or
        still being built) would contradict the tiles, and with no question yet there may be one to
        ask now: in both cases ask anew. True when that happened."""
        self._step = step
        if self._source != LESSON:
            return False
        stale = self._asked_step != step and (self.building or self._visit.result is None)
        if stale and self.question is not None and self._visit.result is None:
            # no question stays up that speaks of a step the lesson has left, not even while the
            # one about this step is built (in a thread for a large lesson)
            del self._questions[self._index]
            self._put_up(len(self._questions))
        if stale or (not self._questions and not self.building):
            self._ask()
            return True
        return False

    def add_lesson_question(self, question: Question) -> None:
        if self._source == LESSON:
            self._questions.append(question)
            self._put_up(len(self._questions) - 1)

    def lesson_failed(self, message: str) -> None:
        self.notice = message

    @property
    def building(self) -> bool:
        """A question about the lesson is being built."""
        return self._maker is not None and self._maker.pending

    def _ask(self) -> None:
        self._asked_step = self._step
        # the answer may arrive inside ask(): the flag must already say there is a lesson
        self._no_lesson = False
        self._no_lesson = self._maker is None or not self._maker.ask()

    # -- the question on screen -----------------------------------------------------------------

    @property
    def question(self) -> Question | None:
        return self._questions[self._index] if 0 <= self._index < len(self._questions) else None

    @property
    def index(self) -> int:
        return self._index

    @property
    def visit(self) -> int:
        """A new number each time a question is put up (a view then shows a fresh answer editor)."""
        return self._visit.number

    def _put_up(self, index: int) -> None:
        self._index = index
        self._visit = Visit(self._visit.number + 1)

    def empty_reason(self) -> str:
        """Why there is no question to show."""
        if self._source != LESSON:
            return "This pack has no questions."
        if self._no_lesson:
            return "Open or train a lesson first: the questions are built from its corpus and merges."
        if self.building:
            return "Building a question from the lesson…"
        return "No question can be asked at this step."

    # -- answering ----------------------------------------------------------------------------

    @property
    def result(self) -> Result | None:
        """The checked answer to the question on screen, None until it is checked."""
        return self._visit.result

    @property
    def refusal(self) -> str:
        """Why the last answer given could not be graded ("" when it could)."""
        return self._visit.refusal

    @property
    def revealed(self) -> bool:
        """The verdict may be shown: the answer is checked and, in teacher mode, revealed."""
        return self._visit.revealed

    @property
    def hinted(self) -> bool:
        return self._visit.hinted

    def check(self, answer: Any) -> Result | None:
        """Grade ``answer`` to the question on screen. An answer that cannot be graded is refused
        (returned, not counted); a question already checked on this visit is not checked again.
        Only a question's first checked answer counts toward the score."""
        question = self.question
        if question is None or self._visit.result is not None:
            return None
        result = grade(question, answer, self.pack.misconceptions)
        if not result.valid:
            self._visit.refusal = result.message
            return result
        self._visit.result, self._visit.refusal = result, ""
        if question.id not in self._answers:
            self._answers[question.id] = Answered(result.score, result.correct)
            self._visit.counted = True
        self._visit.revealed = not self._teacher
        return result

    def show_hint(self) -> bool:
        if not self.can_hint:
            return False
        self._visit.hinted = True
        return True

    def reveal(self) -> bool:
        """Show the class the verdict of the checked answer (teacher mode)."""
        if self._visit.result is None or self._visit.revealed:
            return False
        self._visit.revealed = True
        return True

    def tiles_step(self) -> int | None:
        """The step at which the lesson's tiles show the answer, once the verdict is out (before,
        the tiles would give the answer away)."""
        question = self.question
        if question is None or not self._visit.revealed:
            return None
        return question.reveal_step

    def return_action(self) -> str:
        """What Return does now: "check" the answer, "reveal" the verdict, or go to the "next" question."""
        if self._visit.result is None:
            return "check"
        return "next" if self._visit.revealed else "reveal"

    @property
    def can_hint(self) -> bool:
        question = self.question
        return question is not None and bool(question.hint) and not self._visit.hinted

    @property
    def can_check(self) -> bool:
        return self.question is not None and self._visit.result is None

    @property
    def can_reveal(self) -> bool:
        return self._visit.result is not None and not self._visit.revealed

    # -- moving -------------------------------------------------------------------------------

    @property
    def has_more(self) -> bool:
        """Another question follows this one (the lesson can always be asked again)."""
        return self._source == LESSON or self._index + 1 < len(self._questions)

    @property
    def can_go_next(self) -> bool:
        return self.question is not None and self.has_more and not self.building

    def next(self) -> None:
        """The next pack question, or a new question about the lesson (it arrives later)."""
        if self._source == LESSON:
            if not self.building:
                self._ask()
        elif self._index + 1 < len(self._questions):
            self._put_up(self._index + 1)

    def go_to(self, index: int) -> bool:
        """Jump to a pack question (the lesson's questions are asked one after another)."""
        if self._source == LESSON or not 0 <= index < len(self._questions):
            return False
        self._put_up(index)
        return True

    # -- teacher mode -------------------------------------------------------------------------

    @property
    def teacher_mode(self) -> bool:
        return self._teacher

    def set_teacher_mode(self, on: bool) -> None:
        self._teacher = bool(on)
        if not self._teacher:
            self.reveal()  # nothing stays hidden once nobody is there to reveal it

    # -- score and position -------------------------------------------------------------------

    def score(self) -> tuple[float, int]:
        """(points, questions answered): each question counts its first checked answer, 0 to 1."""
        return sum(a.score for a in self._answers.values()), len(self._answers)

    def shown_score(self) -> tuple[float, int]:
        """The score the class may see: without an answer whose verdict is still hidden."""
        question = self.question
        hidden = question.id if question is not None and self._visit.counted and not self._visit.revealed else None
        shown = [a.score for k, a in self._answers.items() if k != hidden]
        return sum(shown), len(shown)

    def score_text(self) -> str:
        score, answered = self.shown_score()
        return f"Score: {points(score)} of {answered}" if answered else "Score: nothing answered yet"

    def position_text(self) -> str:
        question = self.question
        if question is None:
            return ""
        if self._source == LESSON:
            text = f"Lesson question {self._index + 1}"
        else:
            text = f"Question {self._index + 1} of {len(self._questions)}"
        if question.id in self._answers and self._visit.result is None:
            # a second try is welcome, but the score keeps the first
            text += " · answered before"
        return text

    # -- progress -----------------------------------------------------------------------------

    def progress(self) -> dict[str, Any]:
        """What the lesson file keeps under "quiz" (JSON-ready): ``Progress.to_data()``."""
        position = self._index if self._source != LESSON else 0
        return Progress(self._source, position, dict(self._answers), self._teacher).to_data()

    def restore_progress(self, data: object) -> bool:
        """Take back what ``progress()`` gave. Damaged parts are left out; data that cannot be read
        at all is refused (False, the reason in the notice) and the quiz stays as it was. A pack
        file that no longer opens gives way to the first pack. Everything is read (the record, then
        the pack it names) before the quiz changes."""
        if not data:
            return True  # nothing saved
        try:
            saved = read_progress(data)
        except ProgressError as exc:
            self.notice = str(exc)
            return False
        source, pack, reason = saved.source, None, ""
        if source.startswith(FILE) and source not in self._packs:
            path = source[len(FILE):]
            try:
                check_pack_name(path)
                pack = _read_pack(path)
            except BpeLabError as exc:
                reason = str(exc)
        self._answers = dict(saved.answers)
        self.set_teacher_mode(saved.teacher_mode)
        if pack is not None:
            self.add_pack(pack, source)  # the pack is up, its problems noted
        elif reason:
            self.set_source(BUNDLED)
            self.notice = f"The quiz pack saved with this lesson could not be opened again: {reason}"
        else:
            self.set_source(source if source in self._packs or source == LESSON else BUNDLED)
        self.go_to(saved.position)
        return True


def _read_pack(path: str) -> Pack:
    """A pack file with at least one good question; ``BpeLabError`` saying why not otherwise."""
    pack = load_pack(path)
    if not pack.questions:
        raise BpeLabError(f"{path}: no question could be loaded. " + " ".join(pack.errors[:3]))
    return pack
