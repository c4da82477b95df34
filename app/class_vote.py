"""The class vote on the projector: the teacher's side of ``engine.vote`` and ``app.vote_server``.

V in classroom mode (or View > Class vote…) starts a ``VoteSession`` and its ``VoteServer`` and lays
the join screen over the view; V again, leaving the mode or closing the window stops the server
(nothing listens before or after). A server that cannot start says why in one line on the band
under the views, and the lesson goes on as if nothing had been tried.

While it runs, the vote follows the lesson: the predict-first question the prompt asks, or the quiz
question on screen, goes to the phones with a round open, and the corner counts the votes (never
what they are). → reveals as it does today and also closes the round and lays the distribution
over the view; R opens a second round on the same question after discussion, whose reveal shows
both rounds side by side; moving on shows phones the next question, or none ("wait"). J hides or
shows the join screen. Every finished round is kept until the window closes, across sessions and
leaving the mode, for File > Export class vote results… and the handout.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QWidget

from engine.vote.ballot import VoteSession
from engine.vote.question import VoteQuestion
from engine.vote.results import ResultRow

if TYPE_CHECKING:
    from app.vote_server import VoteServer
    from widgets.classroom.predict import Question as PredictQuestion
    from widgets.classroom.vote_count import VoteCount
    from widgets.classroom.vote_join import VoteJoin
    from widgets.classroom.vote_reveal import Reveal, VoteReveal

PORT = 8123
JOINED_EVERY_MS = 1000
# rounds the reveal sets side by side: a question voted on again and again shows its last two
REVEAL_ROUNDS = 2
JOIN_KEYS = "J: hide this screen   ·   V: end the vote"
REVEAL_KEYS = "R: vote again   ·   → : go on"


class ClassVote(QObject):
    started = Signal(str)  # the address phones open
    failed = Signal(str)  # why it could not start, one line
    ended = Signal()
    results_changed = Signal()  # a round was closed: there is more to export

    def __init__(self, classroom, window):
        super().__init__(classroom)
        self.classroom = classroom
        self.window = window
        # where the server binds: None lets engine.vote.address choose the room's interface (tests: 127.0.0.1)
        self.host: str | None = None
        self.port = PORT
        self.session: VoteSession | None = None
        self.server: VoteServer | None = None
        self.address = ""
        self.question: VoteQuestion | None = None
        self._predict: PredictQuestion | None = None  # the tiles' look, for a pair question's reveal
        self._quizzes: list[QWidget] = []  # the quiz panels whose questions are followed
        self._earlier: list[ResultRow] = []  # the rounds of sessions already ended
        self._join: VoteJoin | None = None
        self._count: VoteCount | None = None
        self._chart: VoteReveal | None = None
        # phones join without voting: the join screen's count of them is read now and then
        self._joined_timer = QTimer(self, interval=JOINED_EVERY_MS)
        self._joined_timer.timeout.connect(self._show_count)

        self.action = QAction("Class &vote…", window)
        self.action.setCheckable(True)
        self.action.setStatusTip("Let the class vote from their phones on the room's network (classroom mode, V)")
        self.action.triggered.connect(lambda _checked=False: self._on_action())
        window.addAction(self.action)
        # no stop of our own on quitting: the server, whose thread would hold the process, stops itself then

    # -- starting and ending ---------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.server is not None

    def _on_action(self) -> None:
        if self.running:
            self.end()
            return
        if not self.classroom.active:
            self.classroom.enter()
        self.start()

    def toggle(self) -> None:
        self.end() if self.running else self.start()

    def start(self) -> None:
        if self.running:
            return
        from app.vote_server import VoteServer  # the server's library loads when a teacher starts a vote

        self.classroom.band.set_notice("")
        self.session = VoteSession()
        self.server = VoteServer(self.session, self, host=self.host, port=self.port)
        self.server.started.connect(self._on_started)
        self.server.failed.connect(self._on_failed)
        self.server.tally_changed.connect(self._show_count)
        self.server.start()

    def _on_started(self, address: str) -> None:
        self.address = address
        self.action.setChecked(True)
        join = self._join_screen()
        join.set_room(address, self.session.room_code if self.session else "")
        join.set_keys(JOIN_KEYS)
        join.show()
        self._joined_timer.start()
        self.started.emit(address)
        self.follow()

    def _on_failed(self, reason: str) -> None:
        self._drop_server()
        self.action.setChecked(False)
        self.classroom.band.set_notice(f"Class vote not started: {reason}")
        self.window.statusBar().showMessage(f"Class vote not started: {reason}", 15000)
        self.failed.emit(reason)

    def end(self) -> None:
        """Stop the server and every connection; the rounds stay for the export."""
        if not self.running:
            return
        session = self.session
        self._joined_timer.stop()
        self._drop_server()
        if session is not None:
            self._earlier += session.results()
        self.session = None
        self.address = ""
        self.question = None
        self._predict = None
        for cover in (self._join, self._count, self._chart):
            if cover is not None:
                cover.hide()
        self.action.setChecked(False)
        self.ended.emit()

    def _drop_server(self) -> None:
        server, self.server = self.server, None
        if server is not None:
            server.stop()
            server.deleteLater()
        if self.session is not None and not self.address:
            self.session = None  # never started: nothing to keep

    # -- the covers --------------------------------------------------------------------------------

    def _host(self) -> QWidget:
        return self.window.tabs

    def _join_screen(self) -> VoteJoin:
        from widgets.classroom.vote_join import VoteJoin

        if self._join is None:
            self._join = VoteJoin(self._host())
        return self._join

    def _counter(self) -> VoteCount:
        from widgets.classroom.vote_count import VoteCount

        if self._count is None:
            self._count = VoteCount(self._host())
        return self._count

    def _reveal_view(self) -> VoteReveal:
        from widgets.classroom.vote_reveal import VoteReveal

        if self._chart is None:
            self._chart = VoteReveal(self._host())
        return self._chart

    @property
    def join_shown(self) -> bool:
        return self._join is not None and not self._join.isHidden()

    @property
    def reveal_shown(self) -> bool:
        return self._chart is not None and not self._chart.isHidden()

    def toggle_join(self) -> None:
        if self.running:
            join = self._join_screen()
            join.setVisible(join.isHidden())
            if not join.isHidden():
                join.place()

    def hide_reveal(self) -> None:
        if self._chart is not None:
            self._chart.hide()

    def _show_count(self) -> None:
        session = self.session
        if session is None:
            return
        tally = session.tally()
        voted = tally.voters if tally.is_open else 0
        if self._join is not None:
            self._join.set_counts(self.server.joined if self.server is not None else None, tally.voters)
        counter = self._counter()
        if tally.is_open and self.question is not None:
            counter.set_count(voted, session.room_code)
            counter.show()
            counter.place()
            if self.join_shown and self._join is not None:
                self._join.place()
        else:
            counter.hide()

    # -- following the lesson ----------------------------------------------------------------------

    def follow(self) -> None:
        """Show phones what the view on screen asks: the predict question, the quiz's, or none."""
        if self.session is None or not self.address:
            return
        question = self._question_on_screen()
        if question is None:
            if self.question is not None:
                self._show(None)
            return
        if question != self.question:
            self._show(question)

    def _question_on_screen(self) -> VoteQuestion | None:
        from app.vote_questions import from_predict, from_quiz
        from widgets.classroom import HIDDEN
        from widgets.quiz_panel import QuizPanel

        view = self.window.tabs.currentWidget()
        if isinstance(view, QuizPanel) and view not in self._quizzes:
            self._quizzes.append(view)
            view.question_shown.connect(self.follow)
        prompt = self.classroom.prompt
        if prompt is not None and prompt.state != HIDDEN and prompt.question is not None and view is prompt.host:
            self._predict = prompt.question
            return from_predict(prompt.question)
        if isinstance(view, QuizPanel):
            quiz = view.current_question()
            self._predict = None
            return None if quiz is None else from_quiz(quiz, seed=view.session.index)
        if prompt is not None and prompt.state != HIDDEN and prompt.question is not None:
            return self.question  # another view for a moment: the question stays with the tiles
        return None

    def _show(self, question: VoteQuestion | None) -> None:
        session = self.session
        assert session is not None, "a question is shown while a vote runs"
        self.question = question
        self.hide_reveal()
        session.show(question)
        if question is not None:
            session.open_round()
        self._changed()

    def _changed(self) -> None:
        if self.server is not None:
            self.server.changed()
        self._show_count()
        self.results_changed.emit()

    # -- the rounds --------------------------------------------------------------------------------

    def takes_next(self) -> bool:
        """Whether → on the quiz is the vote's: its round is open, or its chart is up."""
        return self.round_open or self.reveal_shown

    def next_on_quiz(self) -> None:
        if not self.reveal():
            self.hide_reveal()

    @property
    def round_open(self) -> bool:
        return self.session is not None and self.question is not None and self.session.tally().is_open

    def reveal(self) -> bool:
        """Close the open round and lay the distribution over the view; False with no round open."""
        if not self.round_open or self.session is None:
            return False
        self.session.close_round()
        self._changed()
        if self._join is not None:
            self._join.hide()  # the class looks at what it said, not at how to join
        self._show_reveal()
        return True

    def vote_again(self) -> bool:
        """A second round on the question just revealed (peer instruction); False when there is none."""
        if self.session is None or self.question is None or self.round_open or not self._closed_rounds():
            return False
        self.hide_reveal()
        self.session.open_round()
        self._changed()
        return True

    def revealed(self) -> Reveal | None:
        """What the reveal shows of the question on phones: each closed round's counts."""
        closed = self._closed_rounds()
        if self.question is None or not closed:
            return None
        from app.vote_tally import reveal_of

        # the newest two: before and after the discussion (the export keeps every round)
        return reveal_of(self.question, closed[-REVEAL_ROUNDS:], self._predict)

    def _closed_rounds(self) -> list:
        # a question shown again (the lesson stepped back and forth) keeps its earlier rounds
        return [t for t in self.session.round_tallies() if not t.is_open] if self.session is not None else []

    def _show_reveal(self) -> None:
        reveal = self.revealed()
        if reveal is None:
            return
        chart = self._reveal_view()
        prompt = self.classroom.prompt
        from widgets.classroom import REVEALED

        # over the tiles the predict prompt's answer band stays in sight below the chart
        on_tiles = prompt is not None and prompt.state == REVEALED and self.window.tabs.currentWidget() is prompt.host
        below = prompt.height() if prompt is not None and on_tiles else 0
        chart.leave_bottom = below
        chart.show_reveal(reveal, self._predict, REVEAL_KEYS)

    # -- what the class said ---------------------------------------------------------------------

    def results(self) -> list[ResultRow]:
        """Every finished round of every vote since the window opened, in order."""
        session = self.session
        if session is None:
            return list(self._earlier)
        tally = session.tally()
        # the open round is still being voted on: it is a result once revealed
        return self._earlier + [r for r in session.results()
                                if not (tally.is_open and (r.qid, r.round) == (tally.qid, tally.round))]
