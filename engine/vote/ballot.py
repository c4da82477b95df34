"""The class's vote session: the room code, the question shown, its rounds, every vote checked.

One browser is one voter: the page makes a random token and sends it with every request, so one
browser has one vote per round, changed as often as the student likes until the round closes (the
last vote counts). Nothing else about a voter is kept: no name, no address.

The projector (GUI thread) shows questions and opens and closes rounds; the server (its own
thread) casts votes and reads what phones see. Both go through one lock, and what leaves the
session is a frozen record or a fresh dict, never a live part of it.

A question may be shown again (the lesson steps back): the same question keeps its rounds and the
next round continues their numbering; a question changed under the same id starts afresh. Every
round stays in ``results()`` for the export after class.
"""

from __future__ import annotations

import math
import re
import secrets
import threading
from dataclasses import dataclass, field

from engine.errors import BpeLabError, InternalError
from engine.vote.question import VoteQuestion
from engine.vote.results import ResultRow
from engine.vote.tally import Answer, Tally, count, fill_form, number_text

VOTER_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
MAX_FILL = 60
MAX_NUMBER_TEXT = 20
# a number as the page may send it as text; Python's float() alone would also take "nan", "1_0"
NUMBER_TEXT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
# far more than a class: the bound that keeps a script inventing voters from filling memory
MAX_VOTERS = 2000


class VoteRefused(BpeLabError):
    """A vote or a request the session turns down; the message is for the student's page."""


class WrongRoomCode(VoteRefused):
    def __init__(self) -> None:
        super().__init__("That room code is not right: type the code the projector shows.")


class RoundClosed(VoteRefused):
    def __init__(self, message: str = "The round is closed: wait for the next question.") -> None:
        super().__init__(message)


class StaleQuestion(RoundClosed):
    """A vote for a question the projector no longer shows."""

    def __init__(self) -> None:
        super().__init__("That question is over: your page now shows the current one.")


class NoSuchOption(VoteRefused):
    def __init__(self) -> None:
        super().__init__("No such option: choose one of the answers shown.")


class BadBallot(VoteRefused):
    """An answer of the wrong shape, or a request without a usable voter token."""


class RoomFull(VoteRefused):
    def __init__(self) -> None:
        super().__init__("The room is full: ask your teacher.")


class VoteStateError(InternalError):
    """The projector asked for a round with no question shown: a bug, not a student's doing."""


def new_room_code() -> str:
    return f"{secrets.randbelow(10_000):04d}"


def normalise(question: VoteQuestion, answer: object) -> tuple[Answer, object]:
    """The answer as counted, and as the voter's page shows it back ("mine"); refuses what does
    not fit the question's kind."""
    kind = question.kind
    keys = [o.key for o in question.options]
    if kind in ("pair", "choose"):
        if not isinstance(answer, str):
            raise BadBallot("Choose one of the answers shown.")
        if answer not in keys:
            raise NoSuchOption()
        return (answer,), answer
    if kind in ("multi", "order"):
        if not isinstance(answer, list) or not all(isinstance(k, str) for k in answer):
            raise BadBallot("Send the answers you chose as a list.")
        if any(k not in keys for k in answer):
            raise NoSuchOption()
        if len(set(answer)) != len(answer):
            raise BadBallot("Choose each answer at most once.")
        if kind == "order":
            if len(answer) != len(keys):
                raise BadBallot("Put every item in the order, each once.")
            return tuple(answer), list(answer)
        chosen = tuple(k for k in keys if k in answer)
        return chosen, list(chosen)
    if kind == "number":
        value = _number(answer)
        return (number_text(value),), int(value) if isinstance(answer, int) else value
    if not isinstance(answer, str) or not answer.strip():
        raise BadBallot("Type an answer.")
    if len(answer) > MAX_FILL:
        raise BadBallot(f"Type at most {MAX_FILL} characters.")
    return (fill_form(answer),), answer.strip()


def _number(answer: object) -> float:
    if isinstance(answer, bool) or not isinstance(answer, (int, float, str)):
        raise BadBallot("Type a number.")
    text = answer if isinstance(answer, str) else repr(answer)
    if len(text) > MAX_NUMBER_TEXT:
        raise BadBallot(f"Type a number of at most {MAX_NUMBER_TEXT} characters.")
    if isinstance(answer, str) and not NUMBER_TEXT.fullmatch(answer.strip()):
        raise BadBallot("Type a number, such as 12 or 0.5.")
    value = float(answer)
    if not math.isfinite(value):
        raise BadBallot("Type a number, such as 12 or 0.5.")
    return value


class Round:
    """One round of one question: each voter's last answer. Changed only under the session's lock."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.is_open = True
        self._ballots: dict[str, tuple[Answer, object]] = {}

    def cast(self, voter: str, answer: Answer, shown: object) -> None:
        if voter not in self._ballots and len(self._ballots) >= MAX_VOTERS:
            raise RoomFull()
        self._ballots[voter] = (answer, shown)

    def mine(self, voter: str) -> object:
        ballot = self._ballots.get(voter)
        return None if ballot is None else ballot[1]

    def answers(self) -> list[Answer]:
        return [answer for answer, _ in self._ballots.values()]


@dataclass
class _Asked:
    """A question as it was shown, and its rounds."""

    question: VoteQuestion
    rounds: list[Round] = field(default_factory=list)

    def tally(self, r: Round) -> Tally:
        return count(self.question, r.number, r.is_open, r.answers())


class VoteSession:
    def __init__(self, room_code: str | None = None) -> None:
        self.room_code = new_room_code() if room_code is None else room_code
        self._lock = threading.Lock()
        self._asked: list[_Asked] = []
        self._current: _Asked | None = None
        self._version = 0

    @property
    def version(self) -> int:
        """Bumps on every change a phone must see: a question shown, a round opened or closed."""
        with self._lock:
            return self._version

    @property
    def question(self) -> VoteQuestion | None:
        with self._lock:
            return None if self._current is None else self._current.question

    # -- the projector's side ---------------------------------------------------------------------

    def show(self, question: VoteQuestion | None) -> None:
        """Show a question (None: phones wait for the next one); an open round closes. Showing the
        question already shown changes nothing: the projector may say it again on every step."""
        with self._lock:
            shown = None if self._current is None else self._current.question
            if question == shown:
                return
            self._close_open()
            if question is None:
                self._current = None
            else:
                found = next((a for a in reversed(self._asked) if a.question == question), None)
                if found is None:
                    found = _Asked(question)
                    self._asked.append(found)
                self._current = found
            self._version += 1

    def open_round(self) -> int:
        """Open the shown question's next round (1, then 2 for "vote again"); a round already
        open stays open. Returns its number."""
        with self._lock:
            if self._current is None:
                raise VoteStateError("a round was asked for with no question shown")
            rounds = self._current.rounds
            if rounds and rounds[-1].is_open:
                return rounds[-1].number
            rounds.append(Round(len(rounds) + 1))
            self._version += 1
            return rounds[-1].number

    def close_round(self) -> Tally:
        """Close the open round: votes after this are refused. Returns its final tally."""
        with self._lock:
            self._close_open()
            return self._tally()

    def _close_open(self) -> None:
        if self._current is not None and self._current.rounds and self._current.rounds[-1].is_open:
            self._current.rounds[-1].is_open = False
            self._version += 1

    def tally(self) -> Tally:
        """The shown question's open or last round."""
        with self._lock:
            return self._tally()

    def _tally(self) -> Tally:
        if self._current is None:
            return Tally("", "", 0, False, 0)
        if not self._current.rounds:
            return count(self._current.question, 0, False, [])
        return self._current.tally(self._current.rounds[-1])

    def round_tallies(self) -> tuple[Tally, ...]:
        """Every round of the shown question, first to last: the reveal shows them side by side."""
        with self._lock:
            if self._current is None:
                return ()
            return tuple(self._current.tally(r) for r in self._current.rounds)

    def results(self) -> list[ResultRow]:
        """Every round of every question shown, in the order they were asked: counts only."""
        with self._lock:
            rows = []
            for asked in self._asked:
                q = asked.question
                for r in asked.rounds:
                    for row in asked.tally(r).rows:
                        rows.append(ResultRow(q.prompt, q.qid, r.number, row.label, row.count, row.correct))
            return rows

    # -- the phones' side --------------------------------------------------------------------------

    def check(self, code: object, voter: object) -> str:
        """Refuse a request without the room's code or a usable voter token; returns the token."""
        if not isinstance(code, str) or not secrets.compare_digest(code.encode(), self.room_code.encode()):
            raise WrongRoomCode()
        if not isinstance(voter, str) or not VOTER_TOKEN.fullmatch(voter):
            raise BadBallot("The page sent no usable voter token: reload the page.")
        return voter

    def vote(self, code: object, voter: object, qid: object, answer: object) -> None:
        """Count a vote, replacing the voter's earlier one in this round, or refuse it whole."""
        token = self.check(code, voter)
        if not isinstance(qid, str):
            raise BadBallot("The page sent no question id: reload the page.")
        with self._lock:
            asked = self._current
            if asked is None or asked.question.qid != qid:
                raise StaleQuestion()
            if not asked.rounds or not asked.rounds[-1].is_open:
                raise RoundClosed()
            counted, shown = normalise(asked.question, answer)
            asked.rounds[-1].cast(token, counted, shown)

    def phone_state(self, voter: str) -> dict[str, object]:
        """What one phone sees: the API's /api/state body."""
        with self._lock:
            asked = self._current
            if asked is None or not asked.rounds:
                return {"version": self._version, "status": "waiting", "question": None, "round": None,
                        "mine": None}
            last = asked.rounds[-1]
            return {"version": self._version, "status": "open" if last.is_open else "closed",
                    "question": asked.question.to_json(), "round": last.number, "mine": last.mine(voter)}

