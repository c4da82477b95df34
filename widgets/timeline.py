"""The timeline: step, play, jump; the status line in plain words; training progress and Cancel.

The keys (→ ← Space Home End) are the window's actions, so they work from any panel that is not
busy typing; the buttons here trigger the same requests. Play's pace is the session's
(``play_interval``): the speed box asks for it, and the tiles follow the same number.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import (
    QBoxLayout, QComboBox, QHBoxLayout, QLabel, QProgressBar, QPushButton, QSlider, QStackedWidget, QToolButton, QVBoxLayout,
    QWidget,
)

from engine.readable.describe import describe_position, plural
from engine.lesson.lesson import Lesson
from widgets.elided import ElidedLabel, wrap_lines
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


# the status line's most height: past it the sentence takes smaller type, never "…", down to
# SMALLEST_TYPE of the style's (zoomed in on a small screen a line of the style's type holds a few words)
STATUS_MOST_HEIGHT = 140
SMALLEST_TYPE = 0.55
TYPE_STEP = 0.92


class StatusLine(ElidedLabel):
    """The step's sentence, wrapped whole within ``STATUS_MOST_HEIGHT``: where the lesson's longest
    sentence would need more lines than that at the style's type, the line takes smaller type."""

    def __init__(self) -> None:
        self._fitting = False
        # (width, the style's font, the text shown) -> the type chosen: measuring every sentence
        # of a long lesson again on each resize would slow dragging the window's edge
        self._chosen: dict[tuple[int, str, str], float] = {}
        super().__init__(lines=2, elide=False, most_height=STATUS_MOST_HEIGHT)

    def _lines_for(self, font: QFont, width: int) -> int:
        texts = self._ahead + (self._full,)
        return max([self.lines] + [len(wrap_lines(t, font, width)) for t in texts])

    def _set_sheet(self, sheet: str) -> None:
        if self.styleSheet() != sheet:
            self._fitting = True
            try:
                self.setStyleSheet(sheet)
            finally:
                self._fitting = False

    def _fit_type(self) -> None:
        """Take the style's type, or the largest smaller type the sentences fit in."""
        width = self._room()
        if width <= 0:
            return
        shown = self.styleSheet()
        self._set_sheet("")  # the style's own type, as the zoom and theme give it
        natural = self.font().pointSizeF()
        key = (width, self.font().key(), self._full)
        points = self._chosen.get(key)
        if points is None:
            if len(self._chosen) > 500:
                self._chosen.clear()
            points = self._chosen[key] = self._largest_fitting(width)
        self._set_sheet("" if points == natural else f"font-size: {points:.1f}pt;")
        if self.styleSheet() != shown:
            self._show()

    def _largest_fitting(self, width: int) -> float:
        natural = self.font().pointSizeF()
        margins = self.contentsMargins()
        font = QFont(self.font())
        points = natural
        while natural > 0:
            font.setPointSizeF(points)
            height = (QFontMetrics(font).lineSpacing() * self._lines_for(font, width)
                      + margins.top() + margins.bottom() + 12)
            if height <= self.most_height or points * TYPE_STEP < natural * SMALLEST_TYPE:
                break
            points = round(points * TYPE_STEP, 1)  # as the style sheet will give it
        return points

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if not self._fitting and event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fit_type()  # a new zoom or theme: from the style's type again

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit_type()

    def reserve_for(self, texts) -> None:
        super().reserve_for(texts)
        self._chosen.clear()
        self._fit_type()

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        super().setText(text)
        if self.is_elided():  # a sentence longer than those measured ahead
            self._fit_type()


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
        self.status = StatusLine()
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

        # the step buttons, then the slider with the step field and the speed: side by side when
        # the timeline is wide enough for both, else the slider's row under the buttons (zoomed in
        # on a 1024-wide screen one row would widen the window past the screen)
        self.buttons_row = QHBoxLayout()
        for b in (self.home_button, self.back_button, self.play_button, self.forward_button, self.end_button):
            self.buttons_row.addWidget(b)
        self.scrub_row = QHBoxLayout()
        self.scrub_row.addWidget(self.slider, 1)
        self.step_field = StepField(session)
        self.scrub_row.addWidget(self.step_field)
        self.scrub_row.addWidget(self.speed)
        self.controls = controls = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        controls.addLayout(self.buttons_row)
        controls.addLayout(self.scrub_row, 1)
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
        self._outer = layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        self.status_row = status_row = QHBoxLayout()
        self._step_holder = steady(self.step_label)
        status_row.addWidget(self._step_holder, 0, Qt.AlignmentFlag.AlignTop)
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

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        """As narrow as the controls on two rows: narrower than one row, the timeline stacks them."""
        hint = super().minimumSizeHint()
        if self.controls.direction() == QBoxLayout.Direction.LeftToRight:
            margins = self._outer.contentsMargins()
            stacked = max(self.buttons_row.minimumSize().width(), self.scrub_row.minimumSize().width())
            hint.setWidth(max(stacked + margins.left() + margins.right(), self.status_row.minimumSize().width()))
        return hint

    def _controls_direction(self) -> QBoxLayout.Direction:
        margins = self._outer.contentsMargins()
        one_row = (self.buttons_row.minimumSize().width() + self.controls.spacing()
                   + self.scrub_row.minimumSize().width() + margins.left() + margins.right())
        return QBoxLayout.Direction.LeftToRight if self.width() >= one_row else QBoxLayout.Direction.TopToBottom

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        controls = self._controls_direction()
        if self.controls.direction() != controls:
            self.controls.setDirection(controls)
        # on a narrow timeline (a 1024-wide screen) the step stands above the sentence, which then
        # has the whole width to wrap in and stays whole within its lines
        # (zoomed in, "Step 2 of 15" alone takes a third of a wider timeline: stacked then too)
        narrow = self.width() < NARROW or self.step_label.sizeHint().width() * 3 > self.width()
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
