"""The timeline: step, play, jump; the status line in plain words; training progress and Cancel.

The keys (→ ← Space Home End) are the window's actions, so they work from any panel that is not
busy typing; the buttons here trigger the same requests. Play's pace is the session's
(``play_interval``): the speed box asks for it, and the tiles follow the same number.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox, QHBoxLayout, QLabel, QProgressBar, QPushButton, QSlider, QStackedWidget, QToolButton, QVBoxLayout,
    QWidget,
)

from engine.readable.describe import describe_position, plural
from engine.lesson.lesson import Lesson
from widgets.elided import ElidedLabel
from widgets.session_view import SessionView
from widgets.steady import steady
from widgets.step_field import StepField
from widgets.step_mark import StepMark


@dataclass(frozen=True)
class TimelineShown:
    """What the timeline shows: its labels' texts and where the slider stands."""

    step_label: str
    status: str
    slider: int
    slider_last: int
    # the progress row (with Cancel) stands where the status line was: a lesson is training
    training: bool


SPEEDS = (("½ step/s", 0.5), ("1 step/s", 1.0), ("2 steps/s", 2.0), ("4 steps/s", 4.0), ("10 steps/s", 10.0), ("30 steps/s", 30.0))


# how many steps' sentences the status line measures to take its height (a long history is sampled;
# a longer sentence at a step not sampled makes the line grow then, never elide)
MEASURED_STEPS = 300
# the width under which the step stands above its sentence instead of beside it
NARROW = 720


def _sampled_steps(last: int) -> list[int]:
    if last + 1 <= MEASURED_STEPS:
        return list(range(last + 1))
    return sorted({round(i * last / (MEASURED_STEPS - 1)) for i in range(MEASURED_STEPS)})


class Timeline(QWidget):
    cancel_requested = Signal()
    # Cancel pressed while a jump is being built (not a training)
    move_cancel_requested = Signal()

    def __init__(self, session: SessionView, parent=None):
        super().__init__(parent)
        self.session = session
        self.setObjectName("timeline")
        self.timer = QTimer(self)
        self.timer.timeout.connect(self._on_tick)

        def button(text: str, tip: str) -> QToolButton:
            b = QToolButton()
            b.setText(text)
            b.setToolTip(tip)
            b.setObjectName("timelineButton")
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            return b

        self.home_button = button("|◀", "Back to the start (Home)")
        self.back_button = button("◀", "One step back (←)")
        self.play_button = button("▶ Play", "Play or pause (Space)")
        self.play_button.setObjectName("playButton")
        self.forward_button = button("▶", "One step forward (→)")
        self.end_button = button("▶|", "Go to the end (End)")
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName("stepSlider")
        self.slider.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.slider.setPageStep(10)
        # narrow enough, at 200 % zoom, to leave the go-to-step field its room in the row
        self.slider.setMinimumWidth(40)
        self.parting_mark = StepMark(self.slider)
        self.step_label = QLabel()
        self.step_label.setObjectName("stepLabel")
        self.speed = QComboBox()
        self.speed.setToolTip("How fast Play moves")
        self.speed.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.speed.setMinimumContentsLength(6)
        self.speed.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        for text, value in SPEEDS:
            self.speed.addItem(text, value)
        self._show_speed(session.play_interval)
        self.speed.currentIndexChanged.connect(self._on_speed_chosen)
        # the sentence that explains a step (the tie rule among it) is read whole by a class: it
        # wraps, to the height of the lesson's longest step sentence, so stepping moves nothing below
        self.status = ElidedLabel(lines=2, elide=False, most_height=140)
        self.status.setObjectName("statusLine")
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.progress = QProgressBar()
        self.progress.setObjectName("trainingProgress")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop training; the lesson shown stays as it is")
        self.cancel_button.clicked.connect(self._on_cancel_clicked)
        self.progress_row = QWidget()
        row = QHBoxLayout(self.progress_row)
        row.setContentsMargins(0, 0, 0, 0)
        self.progress_label = QLabel("Training…")
        row.addWidget(self.progress_label)
        row.addWidget(self.progress, 1)
        row.addWidget(self.cancel_button)

        controls = QHBoxLayout()
        for b in (self.home_button, self.back_button, self.play_button, self.forward_button, self.end_button):
            controls.addWidget(b)
        controls.addWidget(self.slider, 1)
        self.step_field = StepField(session)
        controls.addWidget(self.step_field)
        controls.addWidget(self.speed)
        # the progress row takes the status line's place while a lesson trains: one stack of the
        # two keeps the same height, so starting a training lays nothing out again
        self.status_stack = QStackedWidget()
        for page in (steady(self.status), self.progress_row):
            self.status_stack.addWidget(page)
            # a page behind the other still counts in the stack's height, so a page change never
            # moves the window's panels
            policy = page.sizePolicy()
            policy.setRetainSizeWhenHidden(True)
            page.setSizePolicy(policy)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        self.status_row = status_row = QHBoxLayout()
        status_row.addWidget(steady(self.step_label), 0, Qt.AlignmentFlag.AlignTop)
        status_row.addWidget(steady(self.status_stack), 1)
        layout.addLayout(controls)
        layout.addLayout(status_row)

        self.home_button.clicked.connect(lambda: session.request_step(0))
        self.back_button.clicked.connect(session.request_previous)
        self.forward_button.clicked.connect(session.request_next)
        self.end_button.clicked.connect(lambda: session.request_step(session.last_step))
        self.play_button.clicked.connect(self.toggle_play)
        self.slider.valueChanged.connect(self._on_slider_moved)
        session.lesson_changed.connect(self._on_lesson_changed)
        session.step_changed.connect(self._on_step_changed)
        session.training_started.connect(self._on_training_started)
        session.tokenizer_reading_started.connect(self._on_tokenizer_reading_started)
        session.counting_progressed.connect(self._on_counting_progressed)
        session.training_progressed.connect(self._on_training_progressed)
        session.training_ended.connect(self._on_training_ended)
        session.play_interval_changed.connect(self._on_play_interval_changed)
        session.step_move_started.connect(self._on_move_started)
        session.step_move_progressed.connect(self._on_move_progressed)
        session.step_move_ended.connect(self._on_move_ended)
        self._on_lesson_changed(session.lesson)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        # on a narrow timeline (a 1024-wide screen) the step stands above the sentence, which then
        # has the whole width to wrap in and stays whole within its lines
        narrow = self.width() < NARROW
        direction = QHBoxLayout.Direction.TopToBottom if narrow else QHBoxLayout.Direction.LeftToRight
        if self.status_row.direction() != direction:
            self.status_row.setDirection(direction)

    def mark_parting(self, step: int | None) -> None:
        """Mark the step where a compared merge list parts from the lesson (None: no mark)."""
        self.parting_mark.set_step(step)

    def shown(self) -> TimelineShown:
        """What is on screen now, read from the labels and the slider (for tests and accessibility)."""
        return TimelineShown(self.step_label.text(), self.status.full_text().replace("\u2060", ""), self.slider.value(),
                             self.slider.maximum(), self.status_stack.currentWidget() is self.progress_row)

    # -- playing -------------------------------------------------------------------------------

    @property
    def playing(self) -> bool:
        return self.timer.isActive()

    def toggle_play(self) -> None:
        if self.playing:
            self.pause()
        else:
            self.play()

    def play(self) -> None:
        session = self.session
        if session.state is None or session.last_step == 0:
            return
        if session.step >= session.last_step:
            session.request_step(0)  # playing from the end starts again
        self.timer.start(session.play_interval)
        self.play_button.setText("⏸ Pause")

    def pause(self) -> None:
        self.timer.stop()
        self.play_button.setText("▶ Play")

    def _on_speed_chosen(self) -> None:
        self.session.request_play_interval(int(1000 / self.speed.currentData()))

    def _on_play_interval_changed(self, ms: int) -> None:
        self._show_speed(ms)
        if self.playing:
            self.timer.setInterval(ms)

    def _show_speed(self, ms: int) -> None:
        # the speed nearest the pace (a pace set elsewhere need not be one of the box's)
        nearest = min(range(self.speed.count()), key=lambda i: abs(1000 / self.speed.itemData(i) - ms))
        self.speed.blockSignals(True)
        self.speed.setCurrentIndex(nearest)
        self.speed.blockSignals(False)

    def _on_tick(self) -> None:
        session = self.session
        if session.step >= session.last_step:
            self.pause()
            return
        session.request_next()
        if session.step >= session.last_step:
            self.pause()

    # -- following the session ----------------------------------------------------------------

    def _on_slider_moved(self, value: int) -> None:
        if value != self.session.step:
            self.session.request_step(value)

    def _on_lesson_changed(self, _lesson: Lesson) -> None:
        self.pause()
        self.slider.blockSignals(True)
        self.slider.setRange(0, self.session.last_step)
        self.slider.blockSignals(False)
        self.status.reserve_for(self._told(k) for k in _sampled_steps(self.session.last_step))
        self._show_step()

    def _on_step_changed(self, _change) -> None:
        self._show_step()

    def _show_step(self) -> None:
        session = self.session
        step, last = session.step, session.last_step
        self.slider.blockSignals(True)
        self.slider.setValue(step)
        self.slider.blockSignals(False)
        self.step_label.setText(f"Step {step} of {last}")
        empty = session.state is None
        self.home_button.setEnabled(step > 0)
        self.back_button.setEnabled(step > 0)
        self.forward_button.setEnabled(not empty and step < last)
        self.end_button.setEnabled(not empty and step < last)
        self.play_button.setEnabled(not empty and last > 0)
        self.slider.setEnabled(not empty and last > 0)
        self.status.setText(self._told(step))

    def _told(self, step: int) -> str:
        session = self.session
        if session.state is None and session.text_waiting:
            told = "The text does not train yet: the corpus panel names the line to fix."
        else:
            told = describe_position(session.lesson, step)
        # a word joiner after each slash keeps a marker such as </w> on one line
        return told.replace("/", "/\u2060")

    def _on_training_started(self) -> None:
        # never Qt's busy bar: its animation repaints many times a second, each time waiting for the
        # interpreter that the worker holds
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setFormat("Reading the text…")
        self._say_progress("Training…")
        self.status_stack.setCurrentWidget(self.progress_row)

    def _on_tokenizer_reading_started(self) -> None:
        self.progress.setFormat("")
        self._say_progress("Reading tokenizer file…")

    def _say_progress(self, text: str) -> None:
        # only a new text: setting a label lays the row out again
        if self.progress_label.text() != text:
            self.progress_label.setText(text)

    def _on_counting_progressed(self, done: int, total: int) -> None:
        # a per mille scale: a text's length may not fit the bar's int
        if self.progress.maximum() != 1000:
            self.progress.setRange(0, 1000)
            self.progress.setFormat("Counting the words… %p%")
        self.progress.setValue(done * 1000 // total if total else 1000)

    def _on_training_progressed(self, done: int, total: int) -> None:
        # the numbers live inside the bar: a label changing width would lay out the window again
        # on every report, while the GUI thread shares the interpreter with the worker
        if total:
            if self.progress.maximum() != total:
                self.progress.setRange(0, total)
                self.progress.setFormat("%v of %m merges")
            self.progress.setValue(done)
        else:
            # until no pair repeats: how far it will go is unknown, so the bar says how far it got
            self.progress.setRange(0, 1)
            self.progress.setValue(0)
            self.progress.setFormat(f"{plural(done, 'merge')} so far")

    def _on_training_ended(self) -> None:
        self.status_stack.setCurrentIndex(0)

    # -- a jump built in the background -----------------------------------------------------------

    def _on_cancel_clicked(self) -> None:
        if self.session.moving and not self.session.training:
            self.move_cancel_requested.emit()
        else:
            self.cancel_requested.emit()

    def _on_move_started(self, k: int) -> None:
        if self.session.training:
            return  # the training's progress keeps the row
        self.progress.setRange(0, 3)
        self.progress.setValue(0)
        self.progress.setFormat("")
        self._say_progress(f"Going to step {k:,}…")
        self.cancel_button.setToolTip("Stay at the step shown")
        self.status_stack.setCurrentWidget(self.progress_row)

    def _on_move_progressed(self, done: int, total: int) -> None:
        if not self.session.training:
            self.progress.setRange(0, total)
            self.progress.setValue(done)

    def _on_move_ended(self) -> None:
        if not self.session.training:
            self.cancel_button.setToolTip("Stop training; the lesson shown stays as it is")
            self.status_stack.setCurrentIndex(0)
